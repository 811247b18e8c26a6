/* Reference for fp_arith_f32: f32 add/sub/mul/fma/mad in every rounding mode,
 * with .ftz and .sat, computed with host IEEE single arithmetic. The op table
 * below is in the kernel's output order. */
#include "../ref_fp.h"

enum { ADD, SUB, MUL, FMA };
enum { FTZ = 1, SAT = 2 };

static const struct { int op, mode, flags; } ops[] = {
	{ADD, RN, 0}, {ADD, RN, 0}, {ADD, RZ, 0}, {ADD, RM, 0}, {ADD, RP, 0},
	{SUB, RN, 0}, {SUB, RN, 0}, {SUB, RZ, 0}, {SUB, RM, 0}, {SUB, RP, 0},
	{MUL, RN, 0}, {MUL, RN, 0}, {MUL, RZ, 0}, {MUL, RM, 0}, {MUL, RP, 0},
	{FMA, RN, 0}, {FMA, RZ, 0}, {FMA, RM, 0}, {FMA, RP, 0},
	{FMA, RN, 0}, {FMA, RZ, 0}, {FMA, RM, 0}, {FMA, RP, 0},             /* mad */
	{ADD, RN, FTZ}, {ADD, RN, FTZ}, {ADD, RZ, FTZ}, {ADD, RM, FTZ}, {ADD, RP, FTZ},
	{SUB, RN, FTZ}, {SUB, RP, FTZ},
	{MUL, RN, FTZ}, {MUL, RN, FTZ}, {MUL, RZ, FTZ}, {MUL, RM, FTZ}, {MUL, RP, FTZ},
	{FMA, RN, FTZ}, {FMA, RZ, FTZ}, {FMA, RM, FTZ}, {FMA, RP, FTZ}, {FMA, RN, FTZ},
	{ADD, RN, SAT}, {ADD, RM, FTZ | SAT}, {SUB, RN, SAT}, {MUL, RN, SAT},
	{MUL, RP, FTZ | SAT}, {FMA, RN, SAT}, {FMA, RZ, FTZ | SAT}, {FMA, RN, SAT},
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Adversarial operands (bit patterns): signed zeros, subnormals, the normal
 * boundary, 1 and its neighbours, half an ulp of 1, 2^23, max finite, 2^127,
 * tiny powers whose products are subnormal, infinities and NaNs. */
static const uint32_t xa[32] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x80400000, 0x00800000, 0x80800000,
	0x3f800000, 0xbf800000, 0x3f800001, 0xbf7ffffe, 0x3fc00000, 0x33800000, 0xb3800001, 0x34000000,
	0x4b000000, 0xcb000001, 0x3eaaaaab, 0x40490fdb, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7effffff,
	0x1f800000, 0x20000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xff800001, 0x3f000000, 0xc0000000,
};
static const uint32_t xc[8] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0xff7fffff, 0x00000001, 0x33800000, 0x7f800000,
};

static float op_exact(int op, float x, float y, float z, int mode)
{
	switch (op) {
	case ADD: return add32(x, y, mode);
	case SUB: return sub32(x, y, mode);
	case MUL: return mul32(x, y, mode);
	default: return fma32(x, y, z, mode);
	}
}

static void run(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, uint32_t n,
                uint32_t ma, uint32_t sb, uint32_t mb, uint32_t sc, uint32_t mc)
{
	for (uint32_t i = 0; i < n; i++) {
		float x0 = u2f(a[i & ma]), y0 = u2f(b[(i >> sb) & mb]), z0 = u2f(c[(i >> sc) & mc]);
		for (size_t k = 0; k < NOPS; k++) {
			int ftz = ops[k].flags & FTZ;
			float x = ftz ? ftz32(x0) : x0, y = ftz ? ftz32(y0) : y0, z = ftz ? ftz32(z0) : z0;
			float r = op_exact(ops[k].op, x, y, z, ops[k].mode);
			if (ftz) {
				/* A result that rounds up to the smallest normal from below
				 * would depend on when tininess is detected: keep such
				 * inputs out of the tables. */
				float t = op_exact(ops[k].op, x, y, z, RZ);
				REF_CHECK(!(fabsf(r) == 0x1p-126f && fabsf(t) < 0x1p-126f));
				r = ftz32(r);
			}
			if (ops[k].flags & SAT)
				out[k * n + i] = f2u(sat32(r)) & 0x7fffffffu;
			else
				out[k * n + i] = canon32(r);
		}
	}
}

/* fmaf is checked against an independent rounding of the fused result:
 * the exact product in double plus c, rounded to odd, then to single. */
static void check_fma(const uint32_t *a, const uint32_t *b, const uint32_t *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		float x = u2f(a[i]), y = u2f(b[i]), z = u2f(c[i]);
		double p = (double)x * (double)y;
		if (!isfinite(p) || !isfinite(z) || p == 0.0 || z == 0.0)
			continue;
		double s = rto_add64(p, z, RN);
		for (int m = RN; m <= RP; m++)
			REF_CHECK(f2u(fma32(x, y, z, m)) == f2u(d2f(s, m)));
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 8192, NR = 4096 };
	static uint32_t r1a[NR], r1b[NR], r1c[NR], r2a[NR], r2b[NR], r2c[NR];
	static float f[NR];
	ref_random_f32(f, NR, 11, -2.0, 2.0); for (int i = 0; i < NR; i++) r1a[i] = f2u(f[i]);
	ref_random_f32(f, NR, 12, -2.0, 2.0); for (int i = 0; i < NR; i++) r1b[i] = f2u(f[i]);
	ref_random_f32(f, NR, 13, -2.0, 2.0); for (int i = 0; i < NR; i++) r1c[i] = f2u(f[i]);
	REF_RANDOM_INT(uint32_t, r2a, NR, 21, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, r2b, NR, 22, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, r2c, NR, 23, 0, 4294967295);
	check_fma(r1a, r1b, r1c, NR);
	check_fma(r2a, r2b, r2c, NR);

	static uint32_t out_x[NOPS * NX], out_r1[NOPS * NR], out_r2[NOPS * NR];
	run(xa, xa, xc, out_x, NX, 31, 5, 31, 10, 7);
	run(r1a, r1b, r1c, out_r1, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	run(r2a, r2b, r2c, out_r2, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	ref_write(argv[1], "out_x", out_x, sizeof out_x);
	ref_write(argv[1], "out_r1", out_r1, sizeof out_r1);
	ref_write(argv[1], "out_r2", out_r2, sizeof out_r2);
	return 0;
}
