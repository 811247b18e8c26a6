/* pathf_host.h — what pathf.c and pathf_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef PATHF_HOST_H
#define PATHF_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum { BLOCK_SIZE = 256, HALO = 1 };

/* GUFI's input: 10000 columns, 100 rows, pyramid height 20; Table I's grid
 * of 47 is ceil(10000 / (256 - 2 * 20)) and its 5 launches ceil(99 / 20). */
enum { DEF_COLS = 10000, DEF_ROWS = 100, DEF_PYRAMID = 20 };

static const uint64_t SEED = 0x50415431;  /* "PAT1" */

typedef struct params {
	int cols, rows, pyramid;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

/* Weights 0..9, as PathFinder's generator makes them. */
static inline void wall_init(int32_t *wall, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		wall[i] = (int32_t)(app_splitmix64(&s) % 10);
}

/* ---- the CPU reference: row-by-row dynamic programming ------------------ */

static inline void path_cpu(const params_t *pp, const int32_t *wall, int32_t *cost)
{
	int32_t *next = (int32_t *)malloc(sizeof *next * pp->cols);
	const int n = pp->cols;

	memcpy(cost, wall, sizeof *cost * n);
	for (int r = 1; r < pp->rows; r++) {
		for (int x = 0; x < n; x++) {
			int32_t best = cost[x];
			if (x > 0 && cost[x - 1] < best)
				best = cost[x - 1];
			if (x < n - 1 && cost[x + 1] < best)
				best = cost[x + 1];
			next[x] = best + wall[(size_t)r * n + x];
		}
		memcpy(cost, next, sizeof *cost * n);
	}
	free(next);
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the last row's costs out. */
static inline void print_result(const params_t *pp, const int32_t *out)
{
	const size_t n = (size_t)pp->cols;
	int64_t sum = 0;
	int32_t best = out[0];
	size_t at = 0;
	for (size_t x = 0; x < n; x++) {
		sum += out[x];
		if (out[x] < best) {
			best = out[x];
			at = x;
		}
	}
	printf("pathf: %d cols, %d rows, pyramid %d, digest %016llx, cheapest %d at column %zu, sum %lld\n",
	       pp->cols, pp->rows, pp->pyramid, (unsigned long long)app_fnv1a(out, n * sizeof(int32_t)), (int)best,
	       at, (long long)sum);
}

/* --check: the CPU's costs over wall against out; prints OK or the first
 * difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const params_t *pp, const int32_t *wall, const int32_t *out)
{
	const size_t n = (size_t)pp->cols;
	int32_t *ref = (int32_t *)malloc(n * sizeof(int32_t));
	int status = APP_OK;

	if (!ref) {
		fprintf(stderr, "pathf: out of memory\n");
		return APP_FAIL;
	}
	path_cpu(pp, wall, ref);
	for (size_t x = 0; x < n && status == APP_OK; x++)
		if (out[x] != ref[x]) {
			printf("pathf: FAIL: column %zu costs %d on the GPU, %d on the CPU\n", x, (int)out[x],
			       (int)ref[x]);
			status = APP_FAIL;
		}
	if (status == APP_OK)
		printf("pathf: OK (%zu costs match the CPU)\n", n);
	free(ref);
	return status;
}

#endif
