/* Reference for fp_arith_f64: f64 add/sub/mul/fma/mad in every rounding mode,
 * computed with host IEEE double arithmetic. The op table below is in the
 * kernel's output order. */
#include "../ref_fp.h"

enum { ADD, SUB, MUL, FMA };

static const struct { int op, mode; } ops[] = {
	{ADD, RN}, {ADD, RN}, {ADD, RZ}, {ADD, RM}, {ADD, RP},
	{SUB, RN}, {SUB, RN}, {SUB, RZ}, {SUB, RM}, {SUB, RP},
	{MUL, RN}, {MUL, RN}, {MUL, RZ}, {MUL, RM}, {MUL, RP},
	{FMA, RN}, {FMA, RZ}, {FMA, RM}, {FMA, RP},
	{FMA, RN}, {FMA, RZ}, {FMA, RM}, {FMA, RP},                 /* mad */
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Adversarial operands: signed zeros, subnormals, the normal boundary, 1 and
 * its neighbours, half an ulp of 1, 2^52, max finite, 2^1023, tiny powers
 * whose product is subnormal, infinities and NaNs. The JSON holds each as two
 * u32 words, low word first. */
static const uint64_t xa[32] = {
	0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
	0x000fffffffffffff, 0x8008000000000000, 0x0010000000000000, 0x8010000000000000,
	0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001, 0xbfeffffffffffffe,
	0x3ff8000000000000, 0x3ca0000000000000, 0xbca0000000000001, 0x3cb0000000000000,
	0x4330000000000000, 0xc330000000000001, 0x3fd5555555555555, 0x400921fb54442d18,
	0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000, 0x7fdfffffffffffff,
	0x1ff0000000000000, 0x2000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
	0x7ff8000000000000, 0xfff0000000000001, 0x3fe0000000000000, 0xc000000000000000,
};
static const uint64_t xc[8] = {
	0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
	0xffefffffffffffff, 0x0000000000000001, 0x3ca0000000000000, 0x7ff0000000000000,
};

static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *out, uint32_t n,
                uint32_t ma, uint32_t sb, uint32_t mb, uint32_t sc, uint32_t mc)
{
	for (uint32_t i = 0; i < n; i++) {
		double x = u2d(a[i & ma]), y = u2d(b[(i >> sb) & mb]), z = u2d(c[(i >> sc) & mc]);
		for (size_t k = 0; k < NOPS; k++) {
			int m = ops[k].mode;
			double r;
			switch (ops[k].op) {
			case ADD: r = add64(x, y, m); break;
			case SUB: r = sub64(x, y, m); break;
			case MUL: r = mul64(x, y, m); break;
			default: r = fma64(x, y, z, m); break;
			}
			out[k * n + i] = canon64(r);
		}
	}
}

/* Random 64-bit patterns come from pairs of random u32 words. */
static void random_bits64(uint64_t *out, size_t n, uint64_t seed)
{
	uint32_t *w = malloc(8 * n);
	REF_RANDOM_INT(uint32_t, w, 2 * n, seed, 0, 4294967295);
	for (size_t i = 0; i < n; i++)
		out[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	free(w);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 8192, NR = 4096 };
	static uint64_t r1a[NR], r1b[NR], r1c[NR], r2a[NR], r2b[NR], r2c[NR];
	static double d[NR];
	ref_random_f64(d, NR, 31, -2.0, 2.0); for (int i = 0; i < NR; i++) r1a[i] = d2u(d[i]);
	ref_random_f64(d, NR, 32, -2.0, 2.0); for (int i = 0; i < NR; i++) r1b[i] = d2u(d[i]);
	ref_random_f64(d, NR, 33, -2.0, 2.0); for (int i = 0; i < NR; i++) r1c[i] = d2u(d[i]);
	random_bits64(r2a, NR, 41);
	random_bits64(r2b, NR, 42);
	random_bits64(r2c, NR, 43);

	static uint64_t out_x[NOPS * NX], out_r1[NOPS * NR], out_r2[NOPS * NR];
	run(xa, xa, xc, out_x, NX, 31, 5, 31, 10, 7);
	run(r1a, r1b, r1c, out_r1, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	run(r2a, r2b, r2c, out_r2, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	ref_write(argv[1], "out_x", out_x, sizeof out_x);
	ref_write(argv[1], "out_r1", out_r1, sizeof out_r1);
	ref_write(argv[1], "out_r2", out_r2, sizeof out_r2);
	return 0;
}
