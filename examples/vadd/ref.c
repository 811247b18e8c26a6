/* ref — the C reference check of vadd: recomputes c = a + b from the inputs a
 * workload used and compares it byte for byte with the c.bin that
 * `flipsim exec W.json --dump DUMPDIR` wrote. Usage: examples/README.md. */
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/ptx/ref_common.h"

/* float arithmetic must round to float at every operation, as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "ref needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

#define MAX_ELEMS (1ull << 28)

static void usage(void)
{
	fprintf(stderr,
	        "usage: ref --random N SEED DUMPDIR   inputs from the \"random\" init, seeds SEED\n"
	        "                                     and SEED+1 in [-1,1) (as vadd.json: 65536 1)\n"
	        "       ref --files N INDIR DUMPDIR   inputs INDIR/a.bin and INDIR/b.bin (as gen)\n"
	        "compares DUMPDIR/c.bin with a + b; exit 0 equal, 1 different, 2 bad usage\n");
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

int main(int argc, char **argv)
{
	if (argc != 5)
		usage();
	int from_seed = strcmp(argv[1], "--random") == 0;
	if (!from_seed && strcmp(argv[1], "--files") != 0)
		usage();
	size_t n = parse_u64("N", argv[2], 1, MAX_ELEMS);
	const char *dump = argv[4];

	float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
	float *c = malloc(sizeof(float) * n);
	if (!a || !b || !c) {
		fprintf(stderr, "ref: out of memory\n");
		return 1;
	}
	if (from_seed) {
		uint64_t seed = parse_u64("SEED", argv[3], 0, UINT64_MAX - 1);
		ref_random_f32(a, n, seed, -1.0, 1.0);
		ref_random_f32(b, n, seed + 1, -1.0, 1.0);
	} else {
		read_exact(argv[3], "a", a, sizeof(float) * n);
		read_exact(argv[3], "b", b, sizeof(float) * n);
	}
	read_exact(dump, "c", c, sizeof(float) * n);

	for (size_t i = 0; i < n; i++) {
		/* add.f32: one single-precision add, rounded to nearest even. */
		float want = a[i] + b[i];
		if (memcmp(&want, &c[i], sizeof want) != 0) {
			uint32_t gw, gc;
			memcpy(&gw, &want, sizeof gw);
			memcpy(&gc, &c[i], sizeof gc);
			printf("vadd: FAIL: c[%zu] = %.9g (0x%08x), expected %.9g (0x%08x)\n", i,
			       (double)c[i], (unsigned)gc, (double)want, (unsigned)gw);
			return 1;
		}
	}
	printf("vadd: OK (%zu elements)\n", n);
	free(a);
	free(b);
	free(c);
	return 0;
}
