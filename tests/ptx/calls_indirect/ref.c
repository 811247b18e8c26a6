/* Reference for calls_indirect: the function-pointer calls of
 * calls_indirect.cu, in C (wrapping 32-bit arithmetic). */
#include "../ref_common.h"

typedef int32_t (*op_t)(int32_t, int32_t);
static int32_t add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t mul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
static int32_t sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t mix(int32_t a, int32_t b) { return (int32_t)(((uint32_t)a * 31u) ^ (uint32_t)(b + 7)); }
static const op_t table[4] = {add, mul, sub, mix};
static const op_t ctable[4] = {mix, sub, mul, add};

static int32_t walk(int32_t n, int32_t acc)
{
	return n == 0 ? acc : walk(n - 1, table[n & 3](acc, n));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 200 };
	static int32_t in[N], out[4 * N];
	REF_RANDOM_INT(int32_t, in, N, 171, 0, 1000000);
	for (int32_t i = 0; i < N; i++) {
		int32_t x = in[i];
		out[4 * i] = table[i & 3](x, i);
		out[4 * i + 1] = ctable[(x >> 3) & 3](x, 5);
		out[4 * i + 2] = ((x & 1) ? add : mul)(i, 3);
		out[4 * i + 3] = walk(x & 7, i);
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
