/* km_host.h — what km.c and km_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef KM_HOST_H
#define KM_HOST_H

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
	BLOCK = 256,            /* threads per CTA (GUFI Table I) */
	DEFAULT_POINTS = 1000,  /* GUFI's input: 1000 objects of 34 features */
	DEFAULT_FEATURES = 34,
	DEFAULT_CLUSTERS = 5,   /* the original's default k */
	DEFAULT_SEED = 56,      /* chosen so the default input takes GUFI's 13 iterations */
	MAX_POINTS = 1 << 18,
	MAX_FEATURES = 256,
	MAX_CLUSTERS = 64,
	MAX_ITERS = 500,        /* the original's cap */
};

/* Takes argv[*i] and its value N when it is --points, --features,
 * --clusters or --seed N with N in range (advancing *i past N); returns
 * whether it did. */
static inline bool size_option(int argc, char **argv, int *i, long *np, long *nf, long *k, long *seed)
{
	const char *s = argv[*i];
	if (*i + 1 >= argc)
		return false;
	if (!strcmp(s, "--points"))
		return app_parse_long(argv[++*i], 1, MAX_POINTS, np);
	if (!strcmp(s, "--features"))
		return app_parse_long(argv[++*i], 1, MAX_FEATURES, nf);
	if (!strcmp(s, "--clusters"))
		return app_parse_long(argv[++*i], 1, MAX_CLUSTERS, k);
	if (!strcmp(s, "--seed"))
		return app_parse_long(argv[++*i], 0, 1000000000, seed);
	return false;
}

typedef struct shape {
	int np, nf, k;
} shape_t;

/* Points scattered widely around k random centres in [0, 1)^nf (spread 1.5,
 * so the groups overlap and Lloyd's iterations take a while to settle). */
static inline void points_make(const shape_t *sh, float *feat, uint64_t seed)
{
	uint64_t s = seed;
	float *centre = (float *)malloc(sizeof *centre * (size_t)sh->k * (size_t)sh->nf);

	if (!centre)
		abort(); /* a few KB; main checked far larger allocations */
	for (int i = 0; i < sh->k * sh->nf; i++)
		centre[i] = app_uniform(&s, 0.0f, 1.0f);
	for (int p = 0; p < sh->np; p++) {
		int c = (int)(app_splitmix64(&s) % (uint64_t)sh->k);
		for (int f = 0; f < sh->nf; f++)
			feat[p * sh->nf + f] = centre[c * sh->nf + f] + 1.5f * (app_uniform(&s, 0.0f, 1.0f) - 0.5f);
	}
	free(centre);
}

/* The host's half of an iteration, shared by the GPU run and the reference:
 * each centre becomes the mean of its points, summed in float in point
 * order; a centre with no points stays put. Returns how many points changed
 * cluster since `old` (updated to `memb`). */
static inline int update(const shape_t *sh, const float *feat, const int32_t *memb, int32_t *old,
                  float *clusters, float *sum, int *count)
{
	int delta = 0;

	for (int p = 0; p < sh->np; p++) {
		if (memb[p] != old[p])
			delta++;
		old[p] = memb[p];
	}
	memset(sum, 0, sizeof *sum * (size_t)sh->k * (size_t)sh->nf);
	memset(count, 0, sizeof *count * (size_t)sh->k);
	for (int p = 0; p < sh->np; p++) {
		int c = memb[p];
		if (c < 0 || c >= sh->k)
			continue; /* a corrupted membership counts as a change, nothing more */
		count[c]++;
		for (int f = 0; f < sh->nf; f++)
			sum[c * sh->nf + f] += feat[p * sh->nf + f];
	}
	for (int c = 0; c < sh->k; c++)
		if (count[c] > 0)
			for (int f = 0; f < sh->nf; f++)
				clusters[c * sh->nf + f] = sum[c * sh->nf + f] / (float)count[c];
	return delta;
}

/* ---- the CPU reference: kmeansPoint's arithmetic (sub.f32 then
 * fma.rn.f32 of the difference with itself; setp.lt keeps the first
 * nearest centre) and the same host half. */

static inline void assign_cpu(const shape_t *sh, const float *feat, const float *clusters, int32_t *memb)
{
	for (int p = 0; p < sh->np; p++) {
		int best = 0;
		float best_dist = FLT_MAX;
		for (int c = 0; c < sh->k; c++) {
			float dist = 0.0f;
			for (int f = 0; f < sh->nf; f++) {
				float d = feat[p * sh->nf + f] - clusters[c * sh->nf + f];
				dist = fmaf(d, d, dist);
			}
			if (dist < best_dist) {
				best_dist = dist;
				best = c;
			}
		}
		memb[p] = best;
	}
}

/* Work space for the iterations: the previous memberships and the sums. */
typedef struct work {
	int32_t *old;
	float *sum;
	int *count;
} work_t;

/* The first k points are the initial centres (as the original); every
 * membership starts at -1, so the first iteration changes them all. */
static inline void start(const shape_t *sh, const float *feat, float *clusters, work_t *w)
{
	memcpy(clusters, feat, sizeof *clusters * (size_t)sh->k * (size_t)sh->nf);
	for (int p = 0; p < sh->np; p++)
		w->old[p] = -1;
}

static inline int kmeans_cpu(const shape_t *sh, const float *feat, float *clusters, int32_t *memb, work_t *w)
{
	int iters = 0, delta;

	start(sh, feat, clusters, w);
	do {
		assign_cpu(sh, feat, clusters, memb);
		delta = update(sh, feat, memb, w->old, clusters, w->sum, w->count);
		iters++;
	} while (delta > 0 && iters < MAX_ITERS);
	return iters;
}

/* ---- the output ----------------------------------------------------------- */

/* Compares n 32-bit words bit for bit; prints the first difference. */
static inline bool same(const char *name, const void *gpu, const void *cpu, int n, bool is_float)
{
	for (int i = 0; i < n; i++) {
		uint32_t g, c;
		memcpy(&g, (const char *)gpu + 4 * (size_t)i, 4);
		memcpy(&c, (const char *)cpu + 4 * (size_t)i, 4);
		if (g == c)
			continue;
		if (is_float) {
			char where[32];
			snprintf(where, sizeof where, "%s[%d]", name, i);
			app_print_mismatch_named("km", where, (const float *)gpu + i, (const float *)cpu + i);
		} else {
			printf("km: FAIL: %s[%d] = %d on the GPU, %d on the CPU\n", name, i, (int)g, (int)c);
		}
		return false;
	}
	return true;
}

/* The result line on stdout: iterations, memberships, centres and the
 * clusters' sizes (w->count, which the last update left). */
static inline void print_result(const shape_t *sh, int iters, const int32_t *memb, const float *clusters,
                                const work_t *w)
{
	printf("km: %d points, %d features, %d clusters, %d iterations, digest %016llx (membership) "
	       "%016llx (centres), cluster sizes",
	       sh->np, sh->nf, sh->k, iters, (unsigned long long)app_fnv1a(memb, sizeof *memb * (size_t)sh->np),
	       (unsigned long long)app_fnv1a(clusters, sizeof *clusters * (size_t)sh->k * (size_t)sh->nf));
	for (int c = 0; c < sh->k; c++)
		printf(" %d", w->count[c]);
	printf("\n");
}

/* --check: the CPU's clustering (into rclusters and rmemb, with w) against
 * the GPU's, bit for bit; prints OK or the first difference on stdout.
 * Returns APP_OK or APP_FAIL. */
static inline int check_result(const shape_t *sh, const float *feat, int iters, const int32_t *memb,
                               const float *clusters, float *rclusters, int32_t *rmemb, work_t *w)
{
	int riters = kmeans_cpu(sh, feat, rclusters, rmemb, w);
	if (riters != iters) {
		printf("km: FAIL: %d iterations on the GPU, %d on the CPU\n", iters, riters);
		return APP_FAIL;
	}
	if (!same("membership", memb, rmemb, sh->np, false) || !same("centre", clusters, rclusters, sh->k * sh->nf, true))
		return APP_FAIL;
	printf("km: OK (%d iterations; memberships and centres match the CPU bit for bit)\n", iters);
	return APP_OK;
}

#endif
