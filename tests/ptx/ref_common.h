/* Shared helpers for the C references of the PTX conformance suite (tests/ptx/).
 * The input generators here follow the workload-JSON "init" specification in
 * README.md ("Workload JSON"), written independently of campaigns/workload.c so
 * that a mismatch between the two shows up as a failing conformance case. */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t ref_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

typedef struct { uint64_t s[4]; } ref_rng_t;

static inline uint64_t ref_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** seeded with four successive splitmix64 outputs from `seed`. */
static inline void ref_rng_seed(ref_rng_t *r, uint64_t seed)
{
	uint64_t st = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = ref_splitmix64(&st);
}

static inline uint64_t ref_rng_next(ref_rng_t *r)
{
	uint64_t *s = r->s;
	uint64_t result = ref_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
	s[2] ^= t; s[3] = ref_rotl(s[3], 45);
	return result;
}

/* "random" init for f32/f64: u = (next >> 11) * 2^-53 in [0,1);
 * v = min + (max - min) * u computed in double; f32 rounds v to nearest. */
static inline void ref_random_f32(float *out, size_t n, uint64_t seed, double min, double max)
{
	ref_rng_t r; ref_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double u = (double)(ref_rng_next(&r) >> 11) * 0x1.0p-53;
		out[i] = (float)(min + (max - min) * u);
	}
}

static inline void ref_random_f64(double *out, size_t n, uint64_t seed, double min, double max)
{
	ref_rng_t r; ref_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double u = (double)(ref_rng_next(&r) >> 11) * 0x1.0p-53;
		out[i] = min + (max - min) * u;
	}
}

/* "random" init for integer types: span = max - min + 1 taken as uint64 (0
 * means the full 64-bit range); v = min + (next % span), then truncated to
 * the element type. min and max are inclusive. */
static inline void ref_random_i64(int64_t *out, size_t n, uint64_t seed, int64_t min, int64_t max)
{
	ref_rng_t r; ref_rng_seed(&r, seed);
	uint64_t span = (uint64_t)max - (uint64_t)min + 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = ref_rng_next(&r);
		out[i] = (int64_t)((uint64_t)min + (span ? x % span : x));
	}
}

#define REF_RANDOM_INT(T, out, n, seed, min, max)                          \
	do {                                                                  \
		int64_t *tmp_ = malloc(sizeof(int64_t) * (n));                    \
		ref_random_i64(tmp_, (n), (seed), (min), (max));                  \
		for (size_t i_ = 0; i_ < (size_t)(n); i_++)                       \
			(out)[i_] = (T)tmp_[i_];                                      \
		free(tmp_);                                                       \
	} while (0)

/* Writes `bytes` bytes to DIR/NAME.bin; exits with status 1 on failure. */
static inline void ref_write(const char *dir, const char *name, const void *p, size_t bytes)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.bin", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, bytes, f) != bytes || fclose(f) != 0) {
		fprintf(stderr, "ref: cannot write %s\n", path);
		exit(1);
	}
}

#endif
