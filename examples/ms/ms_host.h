/* ms_host.h — what ms.c and ms_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef MS_HOST_H
#define MS_HOST_H

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
	SEG = 1024,             /* pairs per mergeSortSharedKernel CTA (ms.cu) */
	SAMPLE = 128,           /* sampling distance and merge CTA size (ms.cu) */
	RANK_BLOCK = 256,       /* threads per CTA of the two rank kernels */
	DEFAULT_N = 16384,      /* GUFI's input: 16384 pairs (16 segments, 4 passes) */
	MAX_N = SEG << 10,
	KEY_BITS = 12,          /* keys in 0..4095: many equal keys test stability */
};

/* Keys of KEY_BITS random bits; value i is the pair's original index. */
static inline void pairs_make(uint32_t *key, uint32_t *val, int n, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n; i++) {
		key[i] = (uint32_t)(app_splitmix64(&s) >> (64 - KEY_BITS));
		val[i] = (uint32_t)i;
	}
}

/* The SDK-style self-check every run makes: keys ascending, and values a
 * permutation of 0..n-1 whose every value carries its own key. Returns
 * NULL or what failed (the index in *at). */
static inline const char *validate(const uint32_t *in_key, const uint32_t *key, const uint32_t *val, int n,
                            unsigned char *seen, int *at)
{
	memset(seen, 0, (size_t)n);
	for (int i = 0; i < n; i++) {
		*at = i;
		if (i > 0 && key[i] < key[i - 1])
			return "keys out of order";
		if (val[i] >= (uint32_t)n || seen[val[i]])
			return "values are not a permutation";
		seen[val[i]] = 1;
		if (in_key[val[i]] != key[i])
			return "a value lost its key";
	}
	return NULL;
}

/* The CPU reference: a stable sort; with values the original indices,
 * ordering by (key, value) is exactly the stable order. */
static inline int by_key_then_index(const void *pa, const void *pb)
{
	const uint32_t *a = (const uint32_t *)pa, *b = (const uint32_t *)pb;
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static inline int sort_cpu(const uint32_t *in_key, uint32_t *key, uint32_t *val, int n)
{
	uint32_t *kv = (uint32_t *)malloc(sizeof *kv * 2 * (size_t)n);
	if (!kv)
		return -1;
	for (int i = 0; i < n; i++) {
		kv[2 * i] = in_key[i];
		kv[2 * i + 1] = (uint32_t)i;
	}
	qsort(kv, (size_t)n, 2 * sizeof *kv, by_key_then_index);
	for (int i = 0; i < n; i++) {
		key[i] = kv[2 * i];
		val[i] = kv[2 * i + 1];
	}
	free(kv);
	return 0;
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the sorted pairs after `passes` merge passes. */
static inline void print_result(long n, int passes, const uint32_t *key, const uint32_t *val)
{
	printf("ms: %ld pairs, %d merge passes, digest %016llx (keys) %016llx (values), "
	       "keys %u..%u\n",
	       n, passes, (unsigned long long)app_fnv1a(key, sizeof *key * (size_t)n),
	       (unsigned long long)app_fnv1a(val, sizeof *val * (size_t)n), (unsigned)key[0],
	       (unsigned)key[n - 1]);
}

/* The self-validation (on stderr; seen: n bytes of scratch) and, when check,
 * the comparison with a CPU stable sort (into rkey, rval) on stdout. Returns
 * APP_OK or APP_FAIL. */
static inline int check_result(long n, const uint32_t *in_key, const uint32_t *key, const uint32_t *val,
                               unsigned char *seen, bool check, uint32_t *rkey, uint32_t *rval)
{
	int at;
	const char *bad = validate(in_key, key, val, (int)n, seen, &at);
	if (bad) {
		fprintf(stderr, "ms: validation failed: %s at %d\n", bad, at);
		return APP_FAIL;
	}
	if (!check)
		return APP_OK;
	if (sort_cpu(in_key, rkey, rval, (int)n) != 0) {
		fprintf(stderr, "ms: out of memory\n");
		return APP_FAIL;
	}
	for (long i = 0; i < n; i++)
		if (key[i] != rkey[i] || val[i] != rval[i]) {
			printf("ms: FAIL: pair %ld = (%u, %u) on the GPU, (%u, %u) on the CPU\n", i,
			       (unsigned)key[i], (unsigned)val[i], (unsigned)rkey[i], (unsigned)rval[i]);
			return APP_FAIL;
		}
	printf("ms: OK (%ld pairs in the CPU's stable order)\n", n);
	return APP_OK;
}

#endif
