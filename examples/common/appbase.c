/* appbase.c — what every example program shares, simcore's and the CUDA
 * versions alike (appbase.h). Nothing here calls simcore or CUDA. */
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

/* app_uniform's inputs are the references' inputs: every float operation
 * rounds to float, as on the GPU. */
#if FLT_EVAL_METHOD != 0
#error "appbase.c needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

bool app_parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

bool app_parse_int(const char *s, int lo, int hi, int *v)
{
	long x;
	if (!app_parse_long(s, lo, hi, &x))
		return false;
	*v = (int)x;
	return true;
}

void app_print_mismatch_named(const char *name, const char *where, const float *gpu, const float *cpu)
{
	uint32_t g, c;

	memcpy(&g, gpu, sizeof g);
	memcpy(&c, cpu, sizeof c);
	printf("%s: FAIL: %s = %.9g (0x%08x) on the GPU, %.9g (0x%08x) on the CPU\n", name, where,
	       (double)*gpu, (unsigned)g, (double)*cpu, (unsigned)c);
}

uint64_t app_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

float app_uniform(uint64_t *state, float lo, float hi)
{
	float u = (float)(app_splitmix64(state) >> 40) * 0x1p-24f;
	return lo + (hi - lo) * u;
}

void app_uniform_pair(float *a, float *b, size_t n, uint64_t seed)
{
	uint64_t s = seed;
	for (size_t i = 0; i < n; i++)
		a[i] = app_uniform(&s, -1.0f, 1.0f);
	for (size_t i = 0; i < n; i++)
		b[i] = app_uniform(&s, -1.0f, 1.0f);
}

uint64_t app_fnv1a(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}
