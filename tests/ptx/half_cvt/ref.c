/* Reference for half_cvt: conversions to f16 round the exact source value
 * (f32, f64 or integer) to f16 in the given mode (fp_round); .ftz flushes
 * f32 subnormal inputs; .sat clamps to [0, 1] (sign of zero ignored).
 * f16 -> integer rounds to integral, clamps, and gives 0 for NaN (1 << 63
 * for 64-bit destinations); narrow results are sign-/zero-extended as the
 * kernel's C casts do. f16 NaN results are 0x7fff, f32/f64 ones all-ones. */
#include "../ref_fp.h"

static const uint16_t xh[64] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3800, 0xb800,
	0x3c00, 0xbc00, 0x3e00, 0xbe00, 0x4100, 0xc100, 0x3bff, 0x3c01,
	0x57f8, 0x5800, 0xd804, 0xd808, 0x5bfc, 0x5c00, 0x77ff, 0x7800,
	0xf800, 0xf801, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
	0x7c01, 0x4200, 0xc600, 0x3a00, 0xba00, 0x3400, 0xb400, 0x5640,
	0x6400, 0x6bff, 0x7000, 0x7400, 0x5bff, 0x5a00, 0xd600, 0x0200,
	0xdbfc, 0xdc02, 0x7bfe, 0x4300, 0xc300, 0x3bfe, 0x9419, 0x8400,
	0x83ff, 0xe400, 0x63ff, 0xbd00, 0x4680, 0xc780, 0x5bff, 0xdbff,
};
/* f32 -> f16: the overflow threshold 65520, ties near 1 and in the f16
 * subnormal range, f32 subnormals, NaNs, infinities. */
static const uint32_t xf[64] = {
	0x00000000, 0x80000000, 0x477fe000, 0x477fefff, 0x477ff000, 0x47800000, 0x47c35000, 0xc77ff000,
	0x3f800800, 0x3f800801, 0x3f801800, 0xbf800800, 0x33000000, 0x33000001, 0x33400000, 0x33800000,
	0x32800000, 0x00000001, 0x80000001, 0x387fc000, 0xb87fc000, 0x387fbfff, 0x3dcccccd, 0xbdcccccd,
	0x3eaaaaab, 0x40490fdb, 0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x322bcc77, 0xb22bcc77,
	0x44fff000, 0x45000800, 0x45001000, 0xc5001000, 0x457ff800, 0x3f000000, 0x3f800000, 0xbf800000,
	0x3fc00000, 0x3f7fffff, 0x3f800001, 0x7f7fffff, 0xff7fffff, 0x1e3ce508, 0x38800000, 0xb8800000,
	0x387fda40, 0xb87fda40, 0x387ff000, 0x33c00000, 0x447a1333, 0xc47a2ccd, 0x477fef00, 0xc77fef00,
	0x477fe000, 0x477ff001, 0x3eaa7efa, 0x40000000, 0xc0400000, 0x7149f2ca, 0x8da24260, 0x00800000,
};
/* f64 -> f16: as above plus bits below f32 precision that break ties. */
static const uint64_t xd[64] = {
	0x0000000000000000, 0x8000000000000000, 0x40effc0000000000, 0x40effdffae147ae1,
	0x40effe0000000000, 0x40f0000000000000, 0x7e37e43c8800759c, 0xc0effe0000000000,
	0x3ff0020000000000, 0x3ff0020000001000, 0x3ff0060000000000, 0xbff0020000000000,
	0x3e60000000000000, 0x3e60000000020000, 0x3e78000000000000, 0x3e70000000000000,
	0x3e50000000000000, 0x0000000000000001, 0x8000000000000001, 0x3f0ffc0000000000,
	0xbf0ffc0000000000, 0x3f0ffbfffffe0000, 0x3fb999999999999a, 0xbfb999999999999a,
	0x3fd5555555555555, 0x400921fb54442d18, 0x7ff8000000000000, 0xfff8000000000000,
	0x7ff0000000000000, 0xfff0000000000000, 0x01a56e1fc2f8f359, 0x81a56e1fc2f8f359,
	0x409ffe0000000000, 0x40a0010000000000, 0x40a0020000000000, 0xc0a0020000000000,
	0x40afff0000000000, 0x3fe0000000000000, 0x3ff0000000000000, 0xbff0000000000000,
	0x3ff8000000000000, 0x40effdffffffff80, 0xc0effdffffffff80, 0x7fefffffffffffff,
	0xffefffffffffffff, 0x3e6ffffffffe0000, 0x3f10000000000000, 0xbf10000000000000,
	0x3f0ffb480a5accd5, 0xbf0ffb480a5accd5, 0x408f426666666666, 0xc08f45999999999a,
	0x40effde000000000, 0xc0effde000000000, 0x3fd54fdf3b645a1d, 0x4000000000000000,
	0xc008000000000000, 0x46293e5939a08cea, 0xb9b4484bfeebc2a0, 0x3ff0000000000001,
	0x3feffe0000000000, 0x3fefff0000000000, 0xbfeffe0000000000, 0x3e68000000000000,
};
/* integers -> f16: ties at 2049 and 2051, the overflow threshold 65520,
 * extremes of every type, low bytes/halves that are negative as s8/s16. */
static const uint64_t xv[64] = {
	0x0000000000000000, 0x0000000000000001, 0xffffffffffffffff, 0x00000000000007ff,
	0x0000000000000800, 0x0000000000000801, 0x0000000000000803, 0x0000000000000fff,
	0x000000000000ffe0, 0x000000000000ffef, 0x000000000000fff0, 0x000000000000ffff,
	0x0000000000010000, 0x00000000000186a0, 0xffffffffffff0010, 0xfffffffffffe7960,
	0x000000007fffffff, 0xffffffff80000000, 0x00000000ffffffff, 0x7fffffffffffffff,
	0x8000000000000000, 0xffffffffffffffff, 0x0000000000000080, 0x00000000000000ff,
	0x000000000000007f, 0x0000000000008000, 0x000000000000ffff, 0x0000000012345678,
	0x0000000087654321, 0xfffffffffffff7ff, 0xfffffffffffff7fd, 0xfffffffffffff001,
	0x000000000000fff0, 0x0000000000007ff0, 0x000000000000ffe0, 0x000000010000ffe0,
	0x0000000100000801, 0x8000000000000801, 0xfffffffffffff801, 0x0000000000000fff,
	0xffffffffffff8000, 0x0000000000007fff, 0xffffffffffffff80, 0x000000000000007f,
	0x00000000000000ff, 0x0000000000000100, 0x00000000000003ff, 0x0000000000000401,
	0x00000000007fffff, 0x0000000001000001, 0xfffffffffeffffff, 0x0000000000000003,
	0xfffffffffffffffd, 0x0000000000000005, 0xffffffff00000003, 0x00000001ffffffff,
	0x000000000000ffdf, 0x000000000000ffe1, 0xffffffffffff001f, 0x0000000040000000,
	0x00000000c0000000, 0x0000000000007fe0, 0x0000000000000fe0, 0x0000000000001ffe,
};

enum { RNI, RZI, RMI, RPI };

/* f16 -> integer of `bits` bits; returns the destination bits, sign- or
 * zero-extended to 64 bits. */
static uint64_t h2i(uint16_t h, int mode, int bits, int sgn)
{
	double v = f16_to_double(h);
	if (isnan(v))
		return bits == 64 ? 1ull << 63 : 0;
	double t = mode == RNI ? nearbyint(v) : mode == RZI ? trunc(v) : mode == RMI ? floor(v) : ceil(v);
	double lim = ldexp(1.0, sgn ? bits - 1 : bits);   /* first value above the range */
	if (sgn) {
		if (t >= lim) return (1ull << (bits - 1)) - 1;
		if (t < -lim) return 0 - (1ull << (bits - 1));
		return (uint64_t)(int64_t)t;
	}
	if (t >= lim) return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	return t < 0 ? 0 : (uint64_t)t;
}

/* integer (low `bits` of v, signed or not) -> f16 in `mode` */
static uint16_t i2h(uint64_t v, int bits, int sgn, int mode)
{
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, x = v & m;
	int neg = sgn && ((x >> (bits - 1)) & 1);
	return (uint16_t)fp_round(neg, neg ? ((0 - x) & m) : x, 0, 11, 5, mode);
}

static uint16_t sat_h(uint16_t h)
{
	double d = f16_to_double(h);
	if (isnan(d) || d < 0.0) return 0;
	return d > 1.0 ? 0x3c00 : (h & 0x7fff);
}

enum { NXV = 64, NR = 1024, NTH = NXV + 4 * NR, NTT = NXV + 3 * NR };

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
	/* from_half inputs: values, then random bits (four launches of NR) */
	static uint16_t hin[NTH];
	memcpy(hin, xh, sizeof xh);
	REF_RANDOM_INT(uint16_t, hin + NXV, 4 * NR, 121, 0, 65535);
	static uint32_t oh32[13 * NTH];
	static uint64_t oh64[5 * NTH];
	for (int i = 0; i < NTH; i++) {
		uint16_t h = hin[i];
		uint32_t *p = oh32 + i;
		uint64_t *q = oh64 + i;
		p[0 * NTH] = canon32((float)f16_to_double(h));
		for (int m = RNI; m <= RPI; m++)
			p[(1 + m) * NTH] = (uint32_t)h2i(h, m, 32, 1);
		p[5 * NTH] = (uint32_t)h2i(h, RNI, 32, 0);
		p[6 * NTH] = (uint32_t)h2i(h, RZI, 32, 0);
		p[7 * NTH] = (uint32_t)h2i(h, RNI, 16, 1);
		p[8 * NTH] = (uint32_t)h2i(h, RMI, 16, 1);
		p[9 * NTH] = (uint32_t)h2i(h, RPI, 16, 0);
		p[10 * NTH] = (uint32_t)h2i(h, RZI, 16, 0);
		p[11 * NTH] = (uint32_t)h2i(h, RZI, 8, 1);
		p[12 * NTH] = (uint32_t)h2i(h, RZI, 8, 0);
		q[0 * NTH] = canon64(f16_to_double(h));
		q[1 * NTH] = h2i(h, RNI, 64, 1);
		q[2 * NTH] = h2i(h, RPI, 64, 1);
		q[3 * NTH] = h2i(h, RZI, 64, 0);
		q[4 * NTH] = h2i(h, RMI, 64, 0);
	}

	/* to_half inputs per launch: (f32, int, f64) = values; uniform
	 * [-7e4, 7e4) / i64 [-1e5, 1e5] / uniform [-7e4, 7e4); uniform
	 * [-1e-4, 1e-4) / bits / uniform [-1e-4, 1e-4); bits / i64 in
	 * [-70000, 70000] / bits */
	static uint32_t fin[NTT];
	static uint64_t vin[NTT], din[NTT];
	static float f[NR];
	static double d[NR];
	static int64_t s[NR];
	memcpy(fin, xf, sizeof xf);
	memcpy(vin, xv, sizeof xv);
	memcpy(din, xd, sizeof xd);
	ref_random_f32(f, NR, 122, -70000.0, 70000.0); for (int i = 0; i < NR; i++) fin[NXV + i] = f2u(f[i]);
	ref_random_i64(s, NR, 123, -100000, 100000); for (int i = 0; i < NR; i++) vin[NXV + i] = (uint64_t)s[i];
	ref_random_f64(d, NR, 124, -70000.0, 70000.0); for (int i = 0; i < NR; i++) din[NXV + i] = d2u(d[i]);
	ref_random_f32(f, NR, 125, -1e-4, 1e-4); for (int i = 0; i < NR; i++) fin[NXV + NR + i] = f2u(f[i]);
	random_bits64(vin + NXV + NR, NR, 126);
	ref_random_f64(d, NR, 127, -1e-4, 1e-4); for (int i = 0; i < NR; i++) din[NXV + NR + i] = d2u(d[i]);
	REF_RANDOM_INT(uint32_t, fin + NXV + 2 * NR, NR, 128, 0, 4294967295);
	ref_random_i64(s, NR, 129, -70000, 70000); for (int i = 0; i < NR; i++) vin[NXV + 2 * NR + i] = (uint64_t)s[i];
	random_bits64(din + NXV + 2 * NR, NR, 130);

	static uint32_t ot[25 * NTT];
	for (int i = 0; i < NTT; i++) {
		float x = u2f(fin[i]);
		uint64_t v = vin[i];
		double y = u2d(din[i]);
		uint32_t *p = ot + i;
		for (int m = RN; m <= RP; m++)
			p[m * NTT] = f16_from_double((double)x, m);
		p[4 * NTT] = f16_from_double((double)ftz32(x), RP);
		p[5 * NTT] = f16_from_double((double)ftz32(x), RM);
		p[6 * NTT] = sat_h(f16_from_double((double)x, RN));
		for (int m = RN; m <= RP; m++)
			p[(7 + m) * NTT] = f16_from_double(y, m);
		for (int m = RN; m <= RP; m++)
			p[(11 + m) * NTT] = i2h(v, 32, 1, m);
		p[15 * NTT] = i2h(v, 32, 0, RN);
		p[16 * NTT] = i2h(v, 16, 1, RZ);
		p[17 * NTT] = i2h(v, 16, 0, RM);
		p[18 * NTT] = i2h(v, 64, 1, RP);
		p[19 * NTT] = i2h(v, 64, 0, RN);
		p[20 * NTT] = i2h(v, 64, 1, RZ);
		p[21 * NTT] = i2h(v, 8, 1, RN);
		p[22 * NTT] = i2h(v, 8, 0, RM);
		p[23 * NTT] = (uint32_t)f16_from_double((double)x, RN) |
		              (uint32_t)f16_from_double((double)u2f((uint32_t)v), RN) << 16;
		p[24 * NTT] = (uint32_t)f16_from_double((double)x, RN) * 0x10001u;
	}
	ref_write(argv[1], "oh32", oh32, sizeof oh32);
	ref_write(argv[1], "oh64", oh64, sizeof oh64);
	ref_write(argv[1], "ot", ot, sizeof ot);
	return 0;
}
