/* vaddg_host.h — what vaddg.c and vaddg_cuda.cu share: the launch shape and
 * the seeded input. C and C++. */
#ifndef VADDG_HOST_H
#define VADDG_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "appbase.h"

enum { BLOCK = 256 };

/* GUFI Table I: grid 204 x block 256, so 51 969..52 224 elements; 52 000,
 * not a multiple of the block, keeps the bounds check at work. */
enum { DEF_N = 52000 };

static const uint64_t SEED = 0x56414431;  /* "VAD1" */

/* a and b uniform in [-1, 1), a first, from one stream. */
static inline void input_init(float *a, float *b, size_t n) { app_uniform_pair(a, b, n, SEED); }

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the sum c of n floats. */
static inline void print_result(const float *c, int n)
{
	double sum = 0.0;
	for (int i = 0; i < n; i++)
		sum += c[i];
	printf("vaddg: %d elements, digest %016llx, sum %.9g\n", n,
	       (unsigned long long)app_fnv1a(c, (size_t)n * sizeof(float)), sum);
}

/* --check: c against the CPU's a + b, bit for bit (add.f32 is one correctly
 * rounded addition, as C's float +); prints OK or the first difference on
 * stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const float *a, const float *b, const float *c, int n)
{
	for (int i = 0; i < n; i++) {
		float r = a[i] + b[i];
		if (memcmp(&c[i], &r, sizeof r) != 0) {
			char where[32];
			snprintf(where, sizeof where, "c[%d]", i);
			app_print_mismatch_named("vaddg", where, &c[i], &r);
			return APP_FAIL;
		}
	}
	printf("vaddg: OK (%d elements match the CPU bit for bit)\n", n);
	return APP_OK;
}

#endif
