/* gen — writes a vadd workload of any size into a directory: a.bin and b.bin
 * (N random floats in [-1,1) from seeds SEED and SEED+1, by the workload-JSON
 * "random" rule of tests/ptx/ref_common.h) and vadd.json, which loads them
 * with {"file": ...} inits. Usage: examples/README.md ("vadd"). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../../tests/ptx/ref_common.h"

#define BLOCK 256
#define MAX_ELEMS (1ull << 28) /* 1 GiB per array */
#define DEFAULT_PTX "examples/vadd/vadd.ptx"

static void usage(void)
{
	fprintf(stderr, "usage: gen N SEED OUTDIR [PTX]\n"
	                "  writes OUTDIR/{a.bin,b.bin,vadd.json}; PTX defaults to %s\n"
	                "  (from the current directory) and is stored as an absolute path\n",
	        DEFAULT_PTX);
	exit(2);
}

/* Parses a decimal unsigned integer in [lo, hi]; exits 2 otherwise. */
static uint64_t parse_u64(const char *what, const char *s, uint64_t lo, uint64_t hi)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "gen: %s must be an integer in [%llu, %llu], not '%s'\n", what,
		        (unsigned long long)lo, (unsigned long long)hi, s);
		exit(2);
	}
	return v;
}

/* Writes s as a JSON string literal. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5)
		usage();
	uint64_t n = parse_u64("N", argv[1], 1, MAX_ELEMS);
	uint64_t seed = parse_u64("SEED", argv[2], 0, UINT64_MAX - 1);
	const char *dir = argv[3];
	char *ptx = realpath(argc == 5 ? argv[4] : DEFAULT_PTX, NULL);
	if (!ptx) {
		fprintf(stderr, "gen: %s: %s\n", argc == 5 ? argv[4] : DEFAULT_PTX, strerror(errno));
		return 2;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen: cannot create %s: %s\n", dir, strerror(errno));
		return 1;
	}

	float *v = malloc(sizeof(float) * n);
	if (!v) {
		fprintf(stderr, "gen: out of memory\n");
		return 1;
	}
	ref_random_f32(v, n, seed, -1.0, 1.0);
	ref_write(dir, "a", v, sizeof(float) * n);
	ref_random_f32(v, n, seed + 1, -1.0, 1.0);
	ref_write(dir, "b", v, sizeof(float) * n);
	free(v);

	char path[4096];
	snprintf(path, sizeof path, "%s/vadd.json", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	unsigned long long cnt = (unsigned long long)n;
	fprintf(f, "{\n  \"name\": \"vadd\",\n  \"ptx\": ");
	json_string(f, ptx);
	fprintf(f, ",\n  \"buffers\": {\n");
	fprintf(f, "    \"a\": {\"type\": \"f32\", \"count\": %llu, \"init\": {\"file\": \"a.bin\"}},\n", cnt);
	fprintf(f, "    \"b\": {\"type\": \"f32\", \"count\": %llu, \"init\": {\"file\": \"b.bin\"}},\n", cnt);
	fprintf(f, "    \"c\": {\"type\": \"f32\", \"count\": %llu}\n  },\n", cnt);
	fprintf(f, "  \"launches\": [\n    {\"kernel\": \"vadd\", \"grid\": [%llu], \"block\": [%d], "
	           "\"args\": [\"a\", \"b\", \"c\", {\"i32\": %llu}]}\n  ],\n",
	        (cnt + BLOCK - 1) / BLOCK, BLOCK, cnt);
	fprintf(f, "  \"outputs\": [\"c\"]\n}\n");
	free(ptx);
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "gen: cannot write %s\n", path);
		return 1;
	}
	return 0;
}
