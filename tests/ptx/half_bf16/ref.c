/* Reference for half_bf16. On sm_75 cuda_bf16.h computes bf16 arithmetic as
 * f32 fma.rn followed by a software round-to-nearest-even to bf16 (NaN ->
 * 0x7fff); f32 -> bf16 double rounding is innocuous for +, -, * since
 * 24 >= 2*8 + 2, so the result is the correctly rounded bf16 value, and the
 * conversions are correctly rounded in their modes (the header rounds to odd
 * where it goes through f32). min/max: one NaN -> the other operand, -0 < +0;
 * comparisons as for f32. NaN results are 0x7fff (bf16) / 0x7fffffff (f32). */
#include "../ref_fp.h"

#define KA 13
#define KC 10

static const uint16_t xb[32] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x8080, 0x3f80,
	0xbf80, 0x3f81, 0xbf7f, 0x3fc0, 0x3b80, 0xbb81, 0x3c00, 0x4b00,
	0xcb01, 0x3eab, 0x4049, 0x7f7f, 0xff7f, 0x7f00, 0x7f7e, 0x1f80,
	0x2000, 0x7f80, 0xff80, 0x7fc0, 0xff81, 0x3f00, 0xc000, 0x4380,
};
/* f32 -> bf16: ties (low half 0x8000) with odd and even results, the
 * overflow threshold, subnormals, NaNs. */
static const uint32_t xf[64] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f808000, 0x3f808001, 0x3f818000, 0xbf808000,
	0x3f80ffff, 0x7f7fffff, 0x7f7f8000, 0x7f7f7fff, 0xff7f8000, 0x7f800000, 0xff800000, 0x7fc00000,
	0xffc00001, 0x7f800001, 0x00000001, 0x80000001, 0x00008000, 0x00018000, 0x00007fff, 0x807fffff,
	0x00800000, 0x007f8000, 0x007fc000, 0x40490fdb, 0xc02df84d, 0x3dcccccd, 0x000ae398, 0x800ae398,
	0x477fe000, 0x7e967699, 0xfe967699, 0x7f7fc99e, 0x3fffffff, 0xbfffffff, 0x40000001, 0x3f7fffff,
	0x3eaaaa9f, 0x42c90000, 0xc2c90000, 0x437f0000, 0x43808000, 0x43818000, 0x4b7fffff, 0x4b800001,
	0x3c008000, 0x3c018000, 0x3c00c000, 0x3c017fff, 0x3fc00000, 0xbfc00000, 0x40200000, 0x3f400000,
	0x00400000, 0x80400001, 0x477fe000, 0x5f000000, 0xdf000000, 0x4f000000, 0x3e99999a, 0x3dcccccd,
};
/* f64 -> bf16: ties broken only by bits below f32 precision, overflow,
 * bf16 subnormal ties, NaN. */
static const uint64_t xd[64] = {
	0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
	0x3ff0100000000000, 0x3ff0100000001000, 0xbff0100000001000, 0x3ff0300000000000,
	0x3ff00ffffffff000, 0x7fefffffffffffff, 0xffefffffffffffff, 0x47efffffe0000000,
	0x47efe00000000000, 0x47eff00000000000, 0x47efefffffffffff, 0x37a0000000000000,
	0x3790000000000000, 0x3790000004000000, 0xb790000004000000, 0x01a56e1fc2f8f359,
	0x7ff8000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x37a8000000000000,
	0x380fe00000000000, 0x3810000000000000, 0x3fb999999999999a, 0xbfb999999999999a,
	0x3fd5555555555555, 0x400921fb54442d18, 0x47d2ced32a16a1b1, 0xc7d2ced32a16a1b1,
	0x40effc0000000000, 0x406ff00000000000, 0x4070080000000000, 0x4070100000000000,
	0x0000000000000001, 0x3ff0100000000001, 0x3ff00fffffffffff, 0x3ff0300000000000,
	0xbff0100000000000, 0x4000000000000000, 0x3fe0000000000000, 0x3ff8000000000000,
	0xc004000000000000, 0x4059100000000000, 0x4202a05f20000000, 0xbddb7cdfd9d7bdbb,
	0x36a0000000000001, 0x3690000000000000, 0x3690000000000001, 0x36b8000000000000,
	0x3ff0100000000000, 0x3ff0300000000000, 0x4170000010000000, 0x4170000030000000,
	0x401c000000000000, 0xc01e000000000000, 0x3f80000000000000, 0x37a16c262777579c,
	0xb696d601ad376ab9, 0x3ee4f8b588e368f1, 0x40c81cd6c8b43958, 0x3ff0080000000000,
};
/* integers -> bf16: ties at 257 and 259 (and their 64-bit analogues),
 * extremes of every type. */
static const uint64_t xv[64] = {
	0x0000000000000000, 0x0000000000000001, 0xffffffffffffffff, 0x00000000000000ff,
	0x0000000000000100, 0x0000000000000101, 0x0000000000000103, 0x00000000000001ff,
	0x000000000000ffff, 0x0000000001000001, 0x000000007fffffff, 0xffffffff80000000,
	0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0x8080000000000000,
	0x8080000000000001, 0xfffffeff00000000, 0xfffffefeffffffff, 0x0000010300000000,
	0x8080000000000000, 0xff80000000000000, 0xff7fffffffffffff, 0x0180000000000000,
	0xfffffffffffffeff, 0xfffffffffffffefd, 0x00000000000001ff, 0x0000000000000101,
	0x0000000000000103, 0xfffffffffffffefd, 0x0000000000bc614e, 0xffffffffff439eb2,
	0x000000007f800000, 0x0000000040490fdb, 0x000000003f808000, 0x00000000c0000000,
	0x000000003f818000, 0x0000000000008000, 0x00000000807fffff, 0x0000000000018000,
	0x000000007fffff80, 0x000000007fffff7f, 0x0000000080000080, 0x0000000080000081,
	0x0020000000000001, 0x0020200000000000, 0x0020200000000001, 0x123456789abcdef0,
	0xfedcba9876543210, 0x0000000000000003, 0xfffffffffffffffd, 0x0000000000000007,
	0xfffffffffffffff9, 0x00000000000003e8, 0x0100000100000000, 0x0080008000000000,
	0xfffffffffffffe00, 0x01ff000000000000, 0x000000007f7f0000, 0x0000000000ff0000,
	0x0000000001010000, 0x00000000ffff0000, 0x00000000000007ff, 0xfffffffe00000000,
};

static float bf2f(uint16_t h) { return u2f((uint32_t)h << 16); }
static int bf_isnan(uint16_t h) { return (h & 0x7fff) > 0x7f80; }

/* exact value (finite double) -> bf16 in `mode`; NaN -> 0x7fff */
static uint16_t bf_round(double v, int mode)
{
	if (isnan(v))
		return 0x7fff;
	if (isinf(v))
		return v < 0 ? 0xff80 : 0x7f80;
	uint64_t b = d2u(v);
	int neg = (int)(b >> 63), be = (int)((b >> 52) & 0x7ff);
	uint64_t f = b & 0xfffffffffffffull;
	if (be == 0)
		return (uint16_t)fp_round(neg, f, -1074, 8, 8, mode);
	return (uint16_t)fp_round(neg, f | (1ull << 52), be - 1075, 8, 8, mode);
}
static uint16_t i2bf(uint64_t v, int bits, int sgn, int mode)
{
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, x = v & m;
	int neg = sgn && ((x >> (bits - 1)) & 1);
	return (uint16_t)fp_round(neg, neg ? ((0 - x) & m) : x, 0, 8, 8, mode);
}

static uint16_t bf_min(uint16_t a, uint16_t b)
{
	if (bf_isnan(a) && bf_isnan(b)) return 0x7fff;
	if (bf_isnan(a)) return b;
	if (bf_isnan(b)) return a;
	float x = bf2f(a), y = bf2f(b);
	if (x == y) return (a & 0x8000) ? a : b;   /* -0 < +0 */
	return x < y ? a : b;
}
static uint16_t bf_max(uint16_t a, uint16_t b)
{
	if (bf_isnan(a) && bf_isnan(b)) return 0x7fff;
	if (bf_isnan(a)) return b;
	if (bf_isnan(b)) return a;
	float x = bf2f(a), y = bf2f(b);
	if (x == y) return (a & 0x8000) ? b : a;
	return x > y ? a : b;
}

enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU };
static int cmp(int op, float a, float b)
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
	default: return un || a >= b;
	}
}

/* cvt.rni.s32.f32: NaN -> 0, saturating */
static uint32_t f2i_rn(float f)
{
	if (isnan(f)) return 0;
	float t = rintf(f);
	if (t >= 2147483648.0f) return 0x7fffffffu;
	if (t < -2147483648.0f) return 0x80000000u;
	return (uint32_t)(int32_t)t;
}

static void arith(const uint16_t *a, const uint16_t *b, uint32_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		uint16_t x = a[i & ma], y = b[(i >> sb) & mb];
		float fx = bf2f(x), fy = bf2f(y);
		uint32_t *o = out + i;
		uint16_t add = bf_round(add32(fx, fy, RN), RN), mul = bf_round(mul32(fx, fy, RN), RN);
		uint16_t sxy = bf_round(sub32(fx, fy, RN), RN), syx = bf_round(sub32(fy, fx, RN), RN);
		o[0 * n] = add;
		o[1 * n] = sxy;
		o[2 * n] = mul;
		o[3 * n] = bf_isnan(x) ? 0x7fff : x ^ 0x8000;
		o[4 * n] = bf_isnan(x) ? 0x7fff : x & 0x7fff;
		o[5 * n] = bf_min(x, y);
		o[6 * n] = bf_max(x, y);
		uint32_t m = 0;
		for (int op = EQ; op <= GEU; op++)
			m |= (uint32_t)cmp(op, fx, fy) << op;
		o[7 * n] = m | (uint32_t)bf_isnan(x) << 12;
		o[8 * n] = canon32(fx);
		o[9 * n] = (uint32_t)add * 0x10001u;
		o[10 * n] = (uint32_t)mul * 0x10001u;
		o[11 * n] = (uint32_t)sxy | (uint32_t)syx << 16;
		o[12 * n] = f2i_rn(fx);
	}
}

enum { NXV = 64, NR = 1024, NT = NXV + 2 * NR };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 1024, NA = 2048 };
	static uint16_t r1a[NA], r1b[NA], r2a[NA], r2b[NA];
	REF_RANDOM_INT(uint16_t, r1a, NA, 131, 0, 65535);
	REF_RANDOM_INT(uint16_t, r1b, NA, 132, 0, 65535);
	REF_RANDOM_INT(uint16_t, r2a, NA, 133, 0x3f00, 0x4040);   /* [0.5, 3] */
	REF_RANDOM_INT(uint16_t, r2b, NA, 134, 0xbf00, 0xc040);   /* [-3, -0.5] */
	static uint32_t oax[KA * NX], oar1[KA * NA], oar2[KA * NA];
	arith(xb, xb, oax, NX, 31, 5, 31);
	arith(r1a, r1b, oar1, NA, NA - 1, 0, NA - 1);
	arith(r2a, r2b, oar2, NA, NA - 1, 0, NA - 1);

	/* bfcvt inputs per launch: values; uniform f32 [-3, 3) / uniform f64
	 * [-3, 3) / i64 in [-100000, 100000]; bits / bits / bits */
	static uint32_t fin[NT], w[2 * NR];
	static uint64_t din[NT], vin[NT];
	static float f[NR];
	static double d[NR];
	static int64_t s[NR];
	memcpy(fin, xf, sizeof xf);
	memcpy(din, xd, sizeof xd);
	memcpy(vin, xv, sizeof xv);
	ref_random_f32(f, NR, 135, -3.0, 3.0); for (int i = 0; i < NR; i++) fin[NXV + i] = f2u(f[i]);
	ref_random_f64(d, NR, 136, -3.0, 3.0); for (int i = 0; i < NR; i++) din[NXV + i] = d2u(d[i]);
	ref_random_i64(s, NR, 137, -100000, 100000); for (int i = 0; i < NR; i++) vin[NXV + i] = (uint64_t)s[i];
	REF_RANDOM_INT(uint32_t, fin + NXV + NR, NR, 138, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 139, 0, 4294967295);
	for (int i = 0; i < NR; i++) din[NXV + NR + i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 140, 0, 4294967295);
	for (int i = 0; i < NR; i++) vin[NXV + NR + i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;

	static uint32_t oc[KC * NT];
	for (int i = 0; i < NT; i++) {
		float x = u2f(fin[i]);
		uint64_t v = vin[i];
		uint32_t *o = oc + i;
		for (int m = RN; m <= RP; m++)
			o[m * NT] = bf_round((double)x, m);
		o[4 * NT] = bf_round(u2d(din[i]), RN);
		o[5 * NT] = i2bf(v, 32, 1, RN);
		o[6 * NT] = i2bf(v, 32, 1, RZ);
		o[7 * NT] = i2bf(v, 64, 1, RM);
		o[8 * NT] = i2bf(v, 64, 0, RN);
		o[9 * NT] = (uint32_t)bf_round((double)x, RN) | (uint32_t)bf_round((double)u2f((uint32_t)v), RN) << 16;
	}
	ref_write(argv[1], "oax", oax, sizeof oax);
	ref_write(argv[1], "oar1", oar1, sizeof oar1);
	ref_write(argv[1], "oar2", oar2, sizeof oar2);
	ref_write(argv[1], "oc", oc, sizeof oc);
	return 0;
}
