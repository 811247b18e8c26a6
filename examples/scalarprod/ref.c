/* ref — the C reference check of scalarprod: recomputes the NPAIRS dot products
 * from the inputs a workload used, in the kernel's exact float order, and
 * compares them byte for byte with the c.bin that
 * `flipsim exec W.json --dump DUMPDIR` wrote. Usage: examples/README.md. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/ptx/ref_common.h"

/* float arithmetic must round to float at every operation, as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "ref needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

#define MAX_ELEMS (1ull << 28)
#define BLOCK 256 /* blockDim.x of every scalarprod workload (gen.c, the JSON) */

static void usage(void)
{
	fprintf(stderr,
	        "usage: ref --random NPAIRS N SEED DUMPDIR  inputs from the \"random\" init, seeds\n"
	        "                                           SEED and SEED+1 in [-1,1)\n"
	        "                                           (as scalarprod.json: 256 4096 1)\n"
	        "       ref --files NPAIRS N INDIR DUMPDIR  inputs INDIR/a.bin and INDIR/b.bin (gen)\n"
	        "compares DUMPDIR/c.bin with the dot products; exit 0 equal, 1 different,\n"
	        "2 bad usage\n");
	exit(2);
}

static uint64_t parse_u64(const char *what, const char *s, uint64_t lo, uint64_t hi)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "ref: %s must be an integer in [%llu, %llu], not '%s'\n", what,
		        (unsigned long long)lo, (unsigned long long)hi, s);
		exit(2);
	}
	return v;
}

/* Reads DIR/NAME.bin, which must hold exactly `bytes` bytes; exits 1 if not. */
static void read_exact(const char *dir, const char *name, void *p, size_t bytes)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.bin", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ref: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	size_t got = fread(p, 1, bytes, f);
	int extra = fgetc(f) != EOF;
	fclose(f);
	if (got != bytes || extra) {
		fprintf(stderr, "ref: %s: expected exactly %zu bytes\n", path, bytes);
		exit(1);
	}
}

/* The dot product of one pair exactly as scalarprod.cu computes it with
 * blockDim.x == BLOCK. Float addition is not associative, so a byte-for-byte
 * check must repeat the kernel's order, not merely its maths:
 *  1. thread t keeps its own sum, starting at +0.0f, and adds a[i] * b[i] for
 *     i = t, t + BLOCK, t + 2*BLOCK, ... in increasing i. nvcc contracts the
 *     multiply-add into one fma.rn.f32 (rounded once), hence fmaf here;
 *  2. the BLOCK partial sums go to part[t]; then in rounds s = BLOCK/2, ...,
 *     2, 1, part[t] = part[t] + part[t + s] for every t < s (each round reads
 *     only slots >= s that the round does not write, so the order inside a
 *     round does not matter); the result is part[0].
 * Summing thread after thread, not interleaved as the GPU runs them, changes
 * nothing: each thread's sum depends on its own elements only. */
static float dot(const float *a, const float *b, size_t n)
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

int main(int argc, char **argv)
{
	if (argc != 6)
		usage();
	int from_seed = strcmp(argv[1], "--random") == 0;
	if (!from_seed && strcmp(argv[1], "--files") != 0)
		usage();
	size_t npairs = parse_u64("NPAIRS", argv[2], 1, INT32_MAX);
	size_t len = parse_u64("N", argv[3], 1, INT32_MAX);
	if ((uint64_t)npairs * len > MAX_ELEMS) {
		fprintf(stderr, "ref: NPAIRS * N must be at most %llu\n", (unsigned long long)MAX_ELEMS);
		return 2;
	}
	size_t n = npairs * len;
	const char *dump = argv[5];

	float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
	float *c = malloc(sizeof(float) * npairs);
	if (!a || !b || !c) {
		fprintf(stderr, "ref: out of memory\n");
		return 1;
	}
	if (from_seed) {
		uint64_t seed = parse_u64("SEED", argv[4], 0, UINT64_MAX - 1);
		ref_random_f32(a, n, seed, -1.0, 1.0);
		ref_random_f32(b, n, seed + 1, -1.0, 1.0);
	} else {
		read_exact(argv[4], "a", a, sizeof(float) * n);
		read_exact(argv[4], "b", b, sizeof(float) * n);
	}
	read_exact(dump, "c", c, sizeof(float) * npairs);

	for (size_t p = 0; p < npairs; p++) {
		float want = dot(a + p * len, b + p * len, len);
		if (memcmp(&want, &c[p], sizeof want) != 0) {
			uint32_t gw, gc;
			memcpy(&gw, &want, sizeof gw);
			memcpy(&gc, &c[p], sizeof gc);
			printf("scalarprod: FAIL: c[%zu] = %.9g (0x%08x), expected %.9g (0x%08x)\n", p,
			       (double)c[p], (unsigned)gc, (double)want, (unsigned)gw);
			return 1;
		}
	}
	printf("scalarprod: OK (%zu pairs of %zu elements)\n", npairs, len);
	free(a);
	free(b);
	free(c);
	return 0;
}
