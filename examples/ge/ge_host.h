/* ge_host.h — what ge.c and ge_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef GE_HOST_H
#define GE_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

#endif
