/* Reference for fp_minmax: abs, neg, min, max, copysign and testp as the PTX
 * ISA defines them: min/max return the non-NaN operand when only one is NaN,
 * NaN when both are, and order -0 below +0; .ftz flushes subnormal inputs
 * (and so results) to zero of the same sign; testp.normal is true for zeros. */
#include "../ref_fp.h"

#define K32 10
#define K64 6

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
	0x8000000000000002, 0x3fe0000000000000, 0xbfe0000000000000, 0x4340000000000000,
	0xc340000000000000, 0x0000000000000002, 0x36a0000000000000, 0xb6a0000000000000,
};

static float min32(float a, float b)
{
	if (isnan(a) && isnan(b)) return NAN;
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0f && b == 0.0f) return signbit(a) ? a : b;   /* -0 < +0 */
	return a < b ? a : b;
}
static float max32(float a, float b)
{
	if (isnan(a) && isnan(b)) return NAN;
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0f && b == 0.0f) return signbit(a) ? b : a;
	return a > b ? a : b;
}
static double min64(double a, double b)
{
	if (isnan(a) && isnan(b)) return NAN;
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
	return a < b ? a : b;
}
static double max64(double a, double b)
{
	if (isnan(a) && isnan(b)) return NAN;
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* bits 0..5: finite infinite number notanumber normal(zero included) subnormal */
static uint32_t testp_mask(int cls, int nan)
{
	uint32_t m = 0;
	if (cls != FP_INFINITE && !nan) m |= 1;
	if (cls == FP_INFINITE) m |= 2;
	if (!nan) m |= 4;
	if (nan) m |= 8;
	if (cls == FP_NORMAL || cls == FP_ZERO) m |= 16;
	if (cls == FP_SUBNORMAL) m |= 32;
	return m;
}

static void run32(const uint32_t *a, const uint32_t *b, uint32_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		float x = u2f(a[i & ma]), y = u2f(b[(i >> sb) & mb]);
		float r[K32 - 1] = {
			fabsf(x), fabsf(ftz32(x)), -x, -ftz32(x),
			min32(x, y), min32(ftz32(x), ftz32(y)), max32(x, y), max32(ftz32(x), ftz32(y)),
			copysignf(x, y),
		};
		for (int k = 0; k < K32 - 1; k++)
			out[k * n + i] = canon32(r[k]);
		out[(K32 - 1) * n + i] = testp_mask(fpclassify(x), isnan(x));
	}
}

static void run64(const uint64_t *a, const uint64_t *b, uint64_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		double x = u2d(a[i & ma]), y = u2d(b[(i >> sb) & mb]);
		double r[K64 - 1] = { fabs(x), -x, min64(x, y), max64(x, y), copysign(x, y) };
		for (int k = 0; k < K64 - 1; k++)
			out[k * n + i] = canon64(r[k]);
		out[(K64 - 1) * n + i] = testp_mask(fpclassify(x), isnan(x));
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
	REF_RANDOM_INT(uint32_t, ra, NR, 61, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, rb, NR, 62, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 63, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, w + 2 * NR, 2 * NR, 64, 0, 4294967295);
	for (int i = 0; i < NR; i++) {
		da[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
		db[i] = (uint64_t)w[2 * NR + 2 * i] | (uint64_t)w[2 * NR + 2 * i + 1] << 32;
	}
	static uint32_t o32x[K32 * NX], o32r[K32 * NR];
	static uint64_t o64x[K64 * NX], o64r[K64 * NR];
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
