/* ge_host.h — what ge.c and ge_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef GE_HOST_H
#define GE_HOST_H

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
	FAN1_BLOCK = 512,   /* Fan1: one row per thread (GUFI Table I: grid 1 x 512) */
	FAN2_BLOCK = 4,     /* Fan2: 4 x 4 threads per CTA (grid 8 x 8 for n = 30) */
	DEFAULT_N = 30,     /* GUFI's input: a system of 30 equations */
	MAX_N = 1024,
};

/* A random system whose diagonal dominates its rows, so elimination without
 * pivoting is stable: a[i][j] in [-1, 1), a[i][i] += n, b[i] in [-1, 1). */
static inline void system_make(int n, float *a, float *b, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			a[i * n + j] = app_uniform(&s, -1.0f, 1.0f);
		a[i * n + i] += (float)n;
		b[i] = app_uniform(&s, -1.0f, 1.0f);
	}
}

/* ---- the CPU reference: ge.ptx's arithmetic, operation by operation ------
 * Fan1 is one div.rn.f32; Fan2 is mul.f32 then sub.f32 (nvcc does not fuse
 * them here), so the product is rounded before the subtraction. */

static inline void eliminate_cpu(int n, float *m, float *a, float *b)
{
	for (int t = 0; t < n - 1; t++) {
		for (int row = t + 1; row < n; row++)
			m[row * n + t] = a[row * n + t] / a[t * n + t];
		for (int row = t + 1; row < n; row++) {
			float mult = m[row * n + t];
			for (int col = t; col < n; col++) {
				float p = mult * a[t * n + col];
				a[row * n + col] = a[row * n + col] - p;
			}
			float p = mult * b[t];
			b[row] = b[row] - p;
		}
	}
}

/* Back substitution on the host (as the original does it), in double. */
static inline void back_substitute(int n, const float *a, const float *b, double *x)
{
	for (int i = n - 1; i >= 0; i--) {
		double s = b[i];
		for (int j = i + 1; j < n; j++)
			s -= (double)a[i * n + j] * x[j];
		x[i] = s / a[i * n + i];
	}
}

/* Compares n floats bit for bit; prints the first difference. */
static inline bool same(const char *name, const float *gpu, const float *cpu, int n)
{
	for (int i = 0; i < n; i++)
		if (memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0) {
			char where[32];
			snprintf(where, sizeof where, "%s[%d]", name, i);
			app_print_mismatch_named("ge", where, &gpu[i], &cpu[i]);
			return false;
		}
	return true;
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the eliminated system mat, b (n equations)
 * and its solution x. */
static inline void print_result(long n, const float *mat, const float *b, const double *x)
{
	printf("ge: %ld equations, %ld pivots, digest %016llx (matrix) %016llx (rhs) %016llx (x), "
	       "x[0] = %.9g, x[%ld] = %.9g\n",
	       n, n - 1, (unsigned long long)app_fnv1a(mat, sizeof *mat * (size_t)(n * n)),
	       (unsigned long long)app_fnv1a(b, sizeof *b * (size_t)n),
	       (unsigned long long)app_fnv1a(x, sizeof *x * (size_t)n), x[0], n - 1, x[n - 1]);
}

/* --check: the CPU's elimination of ra, rb (rm: zeroed multipliers) against
 * the GPU's m, mat, b, bit for bit; prints OK or the first difference on
 * stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(long n, const float *m, const float *mat, const float *b, float *rm, float *ra,
                               float *rb)
{
	const int nn = (int)(n * n);
	eliminate_cpu((int)n, rm, ra, rb);
	if (!same("m", m, rm, nn) || !same("a", mat, ra, nn) || !same("b", b, rb, (int)n))
		return APP_FAIL;
	printf("ge: OK (%ld x %ld system: matrix, multipliers and right-hand side match the "
	       "CPU bit for bit)\n", n, n);
	return APP_OK;
}

#endif
