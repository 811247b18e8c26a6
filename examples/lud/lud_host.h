/* lud_host.h — what lud.c and lud_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef LUD_HOST_H
#define LUD_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum {
	BS = 16,           /* block size (lud.cu's BS): diagonal CTA 16, perimeter 32, internal 16 x 16 */
	DEFAULT_N = 256,   /* 16 diagonal blocks: GUFI's 16/15/15 invocations */
	MAX_N = 2048,
};

/* Entries uniform in [0, 1) (24-bit, exact in float), a[i][i] += n: the
 * diagonal dominates, so no pivoting is needed. */
static inline void matrix_make(int n, float *a, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n * n; i++)
		a[i] = app_uniform(&s, 0.0f, 1.0f);
	for (int i = 0; i < n; i++)
		a[i * n + i] += (float)n;
}

/* ---- the CPU reference: each kernel's float operations in lud.ptx's
 * order. `x -= p * q` is mul.f32 then sub.f32 (nvcc does not fuse it: C11
 * without contraction rounds the product too); lud_internal's `sum += l *
 * u` is fma.rn.f32 from 0 (fmaf). Divisions are div.rn.f32 (C's /). */

#define M(i, j) m[(size_t)(i) * (size_t)n + (size_t)(j)]

static inline void diagonal_cpu(float *m, int n, int off)
{
	for (int k = 0; k < BS - 1; k++) {
		for (int t = k + 1; t < BS; t++)
			M(off + t, off + k) = M(off + t, off + k) / M(off + k, off + k);
		for (int t = k + 1; t < BS; t++)
			for (int i = k + 1; i < BS; i++) {
				float p = M(off + i, off + k) * M(off + k, off + t);
				M(off + i, off + t) = M(off + i, off + t) - p;
			}
	}
}

static inline void perimeter_cpu(float *m, int n, int off)
{
	for (int b = off + BS; b < n; b += BS) {
		for (int t = 0; t < BS; t++) /* U12, one column per thread */
			for (int k = 0; k < BS - 1; k++)
				for (int i = k + 1; i < BS; i++) {
					float p = M(off + i, off + k) * M(off + k, b + t);
					M(off + i, b + t) = M(off + i, b + t) - p;
				}
		for (int r = 0; r < BS; r++) /* L21, one row per thread */
			for (int j = 0; j < BS; j++) {
				float v = M(b + r, off + j);
				for (int q = 0; q < j; q++) {
					float p = M(b + r, off + q) * M(off + q, off + j);
					v = v - p;
				}
				M(b + r, off + j) = v / M(off + j, off + j);
			}
	}
}

static inline void internal_cpu(float *m, int n, int off)
{
	for (int r = off + BS; r < n; r++)
		for (int c = off + BS; c < n; c++) {
			float sum = 0.0f;
			for (int k = 0; k < BS; k++)
				sum = fmaf(M(r, off + k), M(off + k, c), sum);
			M(r, c) = M(r, c) - sum;
		}
}

static inline void lud_cpu(float *m, int n)
{
	int off;
	for (off = 0; off < n - BS; off += BS) {
		diagonal_cpu(m, n, off);
		perimeter_cpu(m, n, off);
		internal_cpu(m, n, off);
	}
	diagonal_cpu(m, n, off);
}

/* max |A - L U| over the matrix, in double: the factorisation's quality. */
static inline double residual(const float *a, const float *m, int n)
{
	double worst = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int k = 0; k <= (i < j ? i : j); k++)
				s += (k == i ? 1.0 : (double)M(i, k)) * (double)M(k, j);
			double d = fabs(s - (double)a[(size_t)i * (size_t)n + (size_t)j]);
			if (d > worst)
				worst = d;
		}
	return worst;
}

#undef M

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the factors m of an n x n matrix. */
static inline void print_result(long n, const float *m)
{
	const size_t nn = (size_t)n * (size_t)n;
	printf("lud: %ld x %ld, %ld block steps, digest %016llx, u[0][0] = %.9g, u[%ld][%ld] = %.9g\n", n, n,
	       n / BS, (unsigned long long)app_fnv1a(m, sizeof *m * nn), (double)m[0], n - 1, n - 1,
	       (double)m[nn - 1]);
}

/* --check: the CPU's factors of orig (into ref) against m, bit for bit;
 * prints OK or the first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(long n, const float *orig, const float *m, float *ref)
{
	const size_t nn = (size_t)n * (size_t)n;
	memcpy(ref, orig, sizeof *ref * nn);
	lud_cpu(ref, (int)n);
	for (size_t i = 0; i < nn; i++)
		if (memcmp(&m[i], &ref[i], sizeof(float)) != 0) {
			char where[48];
			snprintf(where, sizeof where, "m[%zu][%zu]", i / (size_t)n, i % (size_t)n);
			app_print_mismatch_named("lud", where, &m[i], &ref[i]);
			return APP_FAIL;
		}
	printf("lud: OK (%ld x %ld factors match the CPU bit for bit; max |A - LU| = %.3g)\n", n, n,
	       residual(orig, m, (int)n));
	return APP_OK;
}

#endif
