/* lps_host.h — what lps.c and lps_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef LPS_HOST_H
#define LPS_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum { BLOCK_X = 32, BLOCK_Y = 4 };

/* GUFI's input, the benchmark's default: a 100^3 grid, one sweep; Table
 * I's grid 4 x 25 is ceil(100 / 32) x 100 / 4. */
enum { DEF_NX = 100, DEF_NY = 100, DEF_NZ = 100, DEF_REPEAT = 1 };

static const uint64_t SEED = 0x4c505331;  /* "LPS1" */

typedef struct params {
	int nx, ny, nz, repeat;
} params_t;

/* --size NXxNYxNZ, each in 1..1024, into pp. */
static inline bool parse_size(const char *s, params_t *pp)
{
	char buf[64], *y, *z;
	snprintf(buf, sizeof buf, "%s", s);
	if (!(y = strchr(buf, 'x')) || !(z = strchr(y + 1, 'x')))
		return false;
	*y++ = '\0';
	*z++ = '\0';
	return app_parse_int(buf, 1, 1024, &pp->nx) && app_parse_int(y, 1, 1024, &pp->ny) &&
	       app_parse_int(z, 1, 1024, &pp->nz);
}

/* ---- deterministic input ------------------------------------------------ */

/* Every point uniform in [0, 1): the boundary keeps its values, the
 * interior relaxes towards their harmonic mean. The grid is packed
 * (x fastest, then y, then z); the device copy has rows `pitch` wide. */
static inline void input_init(float *u, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		u[i] = app_uniform(&s, 0.0f, 1.0f);
}

/* ---- the CPU reference --------------------------------------------------
 * One sweep in lps.ptx's order: six add.f32 left to right, W + E + N + S +
 * below + above, then mul.f32 by 1/6 rounded to float (0x3e2aaaab); no
 * fused operation. Boundary points copy their value. */
static inline void sweep_cpu(int nx, int ny, int nz, const float *u1, float *u2)
{
	const float sixth = 1.0f / 6.0f;
	const size_t sy = (size_t)nx, sz = (size_t)nx * ny;

	for (int k = 0; k < nz; k++)
		for (int j = 0; j < ny; j++)
			for (int i = 0; i < nx; i++) {
				size_t p = i + j * sy + k * sz;
				if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1)
					u2[p] = u1[p];
				else
					u2[p] = (u1[p - 1] + u1[p + 1] + u1[p - sy] + u1[p + sy] + u1[p - sz] +
					         u1[p + sz]) * sixth;
			}
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the grid out after the sweeps. */
static inline void print_result(const params_t *pp, const float *out)
{
	const size_t npts = (size_t)pp->nx * pp->ny * pp->nz;
	double sum = 0.0;
	float lo = out[0], hi = out[0];
	for (size_t i = 0; i < npts; i++) {
		sum += out[i];
		lo = out[i] < lo ? out[i] : lo;
		hi = out[i] > hi ? out[i] : hi;
	}
	printf("lps: %dx%dx%d points, %d sweep%s, digest %016llx, mean %.9g, min %.9g, max %.9g\n", pp->nx,
	       pp->ny, pp->nz, pp->repeat, pp->repeat == 1 ? "" : "s",
	       (unsigned long long)app_fnv1a(out, npts * sizeof(float)), sum / (double)npts, (double)lo, (double)hi);
}

/* --check: the CPU's sweeps from u against out, bit for bit; prints OK or
 * the first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const params_t *pp, const float *u, const float *out)
{
	const size_t npts = (size_t)pp->nx * pp->ny * pp->nz, bytes = npts * sizeof(float);
	float *ref[2] = {(float *)malloc(bytes), (float *)malloc(bytes)};
	int status = APP_OK;

	if (!ref[0] || !ref[1]) {
		fprintf(stderr, "lps: out of memory\n");
		status = APP_FAIL;
		goto out;
	}
	memcpy(ref[0], u, bytes);
	for (int r = 0; r < pp->repeat; r++)
		sweep_cpu(pp->nx, pp->ny, pp->nz, ref[r & 1], ref[(r + 1) & 1]);
	for (size_t i = 0; i < npts; i++) {
		const float *rr = ref[pp->repeat & 1];
		if (memcmp(&out[i], &rr[i], sizeof(float)) != 0) {
			char where[80];
			snprintf(where, sizeof where, "point (%zu, %zu, %zu)", i % (size_t)pp->nx,
			         i / (size_t)pp->nx % (size_t)pp->ny, i / ((size_t)pp->nx * pp->ny));
			app_print_mismatch_named("lps", where, &out[i], &rr[i]);
			status = APP_FAIL;
			goto out;
		}
	}
	printf("lps: OK (%zu points match the CPU bit for bit)\n", npts);
out:
	free(ref[1]);
	free(ref[0]);
	return status;
}

#endif
