/* spg_host.h — what spg.c and spg_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef SPG_HOST_H
#define SPG_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

/* The SDK's launch: 128 CTAs (fewer for fewer pairs) of 256 threads. */
enum { BLOCK = 256, MAX_GRID = 128 };

/* GUFI's input, the SDK's default: 256 pairs of 4096 floats. */
enum { DEF_PAIRS = 256, DEF_N = 4096 };

static const uint64_t SEED = 0x53503031;  /* "SP01" */

typedef struct params {
	int pairs, n;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

/* a and b uniform in [-1, 1), a first, from one stream. */
static inline void input_init(float *a, float *b, size_t n) { app_uniform_pair(a, b, n, SEED); }

/* ---- the CPU reference --------------------------------------------------
 * One dot product exactly as spg.cu computes it with blockDim.x == BLOCK
 * (examples/scalarprod/ref.c explains the order): thread t sums a[i] * b[i]
 * for i = t, t + BLOCK, ... from +0 with fma.rn.f32 (nvcc contracted the
 * multiply-add), then rounds s = BLOCK/2 .. 1 add part[t + s] into part[t]
 * for t < s; the result is part[0]. */
static inline float dot_cpu(const float *a, const float *b, size_t n)
{
	float part[BLOCK];

	for (size_t t = 0; t < BLOCK; t++) {
		float sum = 0.0f;
		for (size_t i = t; i < n; i += BLOCK)
			sum = fmaf(a[i], b[i], sum);
		part[t] = sum;
	}
	for (size_t s = BLOCK / 2; s > 0; s >>= 1)
		for (size_t t = 0; t < s; t++)
			part[t] = part[t] + part[t + s];
	return part[0];
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the products c of P pairs of N floats. */
static inline void print_result(const params_t *pp, const float *c)
{
	double sum = 0.0;
	for (int p = 0; p < pp->pairs; p++)
		sum += c[p];
	printf("spg: %d pairs x %d elements, digest %016llx, sum %.9g, c[0] %.9g\n", pp->pairs, pp->n,
	       (unsigned long long)app_fnv1a(c, (size_t)pp->pairs * sizeof(float)), sum, (double)c[0]);
}

/* --check: every product against the CPU's, bit for bit; prints OK or the
 * first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const params_t *pp, const float *a, const float *b, const float *c)
{
	for (int p = 0; p < pp->pairs; p++) {
		size_t off = (size_t)p * pp->n;
		float r = dot_cpu(a + off, b + off, (size_t)pp->n);
		if (memcmp(&c[p], &r, sizeof r) != 0) {
			char where[32];
			snprintf(where, sizeof where, "c[%d]", p);
			app_print_mismatch_named("spg", where, &c[p], &r);
			return APP_FAIL;
		}
	}
	printf("spg: OK (%d dot products match the CPU bit for bit)\n", pp->pairs);
	return APP_OK;
}

#endif
