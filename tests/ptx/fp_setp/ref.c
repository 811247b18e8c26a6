/* Reference for fp_setp: float comparisons as the PTX ISA defines them.
 * Ordered comparisons (eq ne lt le gt ge) are false when either operand is
 * NaN, unordered ones (equ neu ltu leu gtu geu) true; num/nan test for NaN;
 * -0 == +0; .ftz flushes subnormal operands first. setp p|q gives
 * p = BoolOp(t, c) and q = BoolOp(!t, c). */
#include "../ref_fp.h"

#define K32 9
#define K64 5

static const uint32_t xa32[32] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
	0x3f800000, 0xbf800000, 0x3f800001, 0xbf800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fffffff, 0x40490fdb, 0xc0490fdb, 0x00400000,
	0x80000002, 0x3f000000, 0xbf000000, 0x4b800000, 0xcb800000, 0x00000002, 0x1e3ce508, 0x9e3ce508,
};
static const uint64_t xa64[32] = {
	0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
	0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
	0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001, 0xbff0000000000001,
	0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
	0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0123456789abc,
	0x7fffffffffffffff, 0x400921fb54442d18, 0xc00921fb54442d18, 0x0008000000000000,
	0x8000000000000002, 0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
	0xc340000000000000, 0x0000000000000002, 0x36a0000000000000, 0xb6a0000000000000,
};

enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NANC };

static int cmp(int op, double a, double b)
{
	int un = isnan(a) || isnan(b);
	switch (op) {
	case EQ: return !un && a == b;
	case NE: return !un && a != b;
	case LT: return !un && a < b;
	case LE: return !un && a <= b;
	case GT: return !un && a > b;
	case GE: return !un && a >= b;
	case EQU: return un || a == b;
	case NEU: return un || a != b;
	case LTU: return un || a < b;
	case LEU: return un || a <= b;
	case GTU: return un || a > b;
	case GEU: return un || a >= b;
	case NUM: return !un;
	default: return un;
	}
}

static uint32_t mask(double a, double b)
{
	uint32_t m = 0;
	for (int op = EQ; op <= NANC; op++)
		m |= (uint32_t)cmp(op, a, b) << op;
	return m;
}

/* f32 operands are widened to double exactly, so comparisons are unchanged. */
static void run32(const uint32_t *a, const uint32_t *b, uint32_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		float x = u2f(a[i & ma]), y = u2f(b[(i >> sb) & mb]);
		float fx = ftz32(x), fy = ftz32(y);
		uint32_t *o = out + i;
		o[0 * n] = mask(x, y);
		o[1 * n] = mask(fx, fy);
		o[2 * n] = cmp(LT, x, y) ? 0x3f800000u : 0;
		o[3 * n] = cmp(GTU, x, y) ? 0xffffffffu : 0;
		o[4 * n] = cmp(NE, x, y) ? 0xffffffffu : 0;
		o[5 * n] = cmp(EQ, fx, fy) ? 0x3f800000u : 0;
		o[6 * n] = (cmp(GE, x, y) || isnan(y)) ? 0xffffffffu : 0;
		o[7 * n] = (cmp(LEU, fx, fy) && !cmp(LT, x, 1.0)) ? 0x3f800000u : 0;
		int c, t;
		uint32_t m = 0;
		c = cmp(NUM, x, y); t = cmp(GT, x, y);
		m |= (uint32_t)(t && c) | (uint32_t)(!t && c) << 1;
		c = cmp(LT, x, 0.0); t = cmp(LEU, x, y);
		m |= (uint32_t)(t || c) << 2 | (uint32_t)(!t || c) << 3;
		c = !cmp(GT, y, 0.0); t = cmp(EQ, fx, fy);
		m |= (uint32_t)(t ^ c) << 4 | (uint32_t)(!t ^ c) << 5;
		t = cmp(LT, x, y);
		m |= (uint32_t)t << 6 | (uint32_t)!t << 7;
		o[8 * n] = m;
	}
}

static void run64(const uint64_t *a, const uint64_t *b, uint32_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		double x = u2d(a[i & ma]), y = u2d(b[(i >> sb) & mb]);
		uint32_t *o = out + i;
		o[0 * n] = mask(x, y);
		o[1 * n] = cmp(LT, x, y) ? 0x3f800000u : 0;
		o[2 * n] = cmp(GEU, x, y) ? 0xffffffffu : 0;
		o[3 * n] = cmp(NANC, x, y) ? 0xffffffffu : 0;
		int c = cmp(NUM, x, y), t = cmp(NE, x, y);
		uint32_t m = (uint32_t)(t && c) | (uint32_t)(!t && c) << 1;
		t = cmp(LE, x, y);
		m |= (uint32_t)t << 2 | (uint32_t)!t << 3;
		o[4 * n] = m;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 1024, NR = 2048 };
	static uint32_t ra[NR], rb[NR], w[4 * NR];
	static uint64_t da[NR], db[NR];
	static float f[NR];
	/* x: random bit patterns; y: floats in [-3, 3). Equal operands come
	 * from the all-pairs table. */
	REF_RANDOM_INT(uint32_t, ra, NR, 71, 0, 4294967295);
	ref_random_f32(f, NR, 72, -3.0, 3.0);
	for (int i = 0; i < NR; i++)
		rb[i] = f2u(f[i]);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 73, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, w + 2 * NR, 2 * NR, 74, 0, 4294967295);
	for (int i = 0; i < NR; i++) {
		da[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
		db[i] = (uint64_t)w[2 * NR + 2 * i] | (uint64_t)w[2 * NR + 2 * i + 1] << 32;
	}
	static uint32_t o32x[K32 * NX], o32r[K32 * NR], o64x[K64 * NX], o64r[K64 * NR];
	run32(xa32, xa32, o32x, NX, 31, 5, 31);
	run32(ra, rb, o32r, NR, NR - 1, 0, NR - 1);
	run64(xa64, xa64, o64x, NX, 31, 5, 31);
	run64(da, db, o64r, NR, NR - 1, 0, NR - 1);
	ref_write(argv[1], "o32x", o32x, sizeof o32x);
	ref_write(argv[1], "o32r", o32r, sizeof o32r);
	ref_write(argv[1], "o64x", o64x, sizeof o64x);
	ref_write(argv[1], "o64r", o64r, sizeof o64r);
	return 0;
}
