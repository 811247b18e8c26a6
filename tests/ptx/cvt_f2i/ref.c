/* Reference for cvt_f2i: float -> integer conversion as the PTX ISA defines
 * it: round to an integral value in the given direction, then clamp to the
 * destination range (.sat is implied). NaN gives 0, except from an f64
 * source or to a 64-bit destination, where it gives 1 << (bits - 1). .ftz
 * flushes subnormal f32 inputs first. The result is sign-extended (signed
 * types) or zero-extended to the width of the destination register. */
#include "../ref_fp.h"

/* Adversarial inputs: ties at .5, the edges of every integer range (just
 * inside, on, just outside), 2^63 and 2^64, infinities, NaNs, subnormals. */
static const uint32_t xf[64] = {
	0x00000000, 0x80000000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,
	0x3effffff, 0xbeffffff, 0x3f800001, 0xbf7fffff, 0x42ff0000, 0x43000000, 0xc3008000, 0xc3010000,
	0x437f8000, 0x43800000, 0x46fffe00, 0x46ffff00, 0x47000000, 0xc7000080, 0x477fff80, 0x47800000,
	0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0x5effffff, 0x5f000000,
	0xdf000000, 0xdf000001, 0x5f7fffff, 0x5f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0xbf800000,
	0xbf400000, 0x40600000, 0xc0600000, 0x501502f9, 0xd01502f9, 0x42c96666, 0xc2c86666, 0x3e800000,
	0x4b000001, 0x4b7fffff, 0xcb000001, 0x4e800000, 0xbe800000, 0x3f400000, 0x43ff8000, 0xc3800000,
};
static const uint64_t xd[64] = {
	0x0000000000000000, 0x8000000000000000, 0x3fe0000000000000, 0xbfe0000000000000,
	0x3ff8000000000000, 0xbff8000000000000, 0x4004000000000000, 0xc004000000000000,
	0x3fdfffffffffffff, 0xbfdfffffffffffff, 0x3ff0000000000001, 0xbfefffffffffffff,
	0x405fe00000000000, 0x4060000000000000, 0xc060100000000000, 0xc060200000000000,
	0x406ff00000000000, 0x4070000000000000, 0x40dfffe000000000, 0x40e0000000000000,
	0xc0e0001000000000, 0xc0e0002000000000, 0x40effff000000000, 0x40f0000000000000,
	0x41dfffffffe00000, 0x41e0000000000000, 0xc1e0000000100000, 0xc1e0000000200000,
	0x41effffffff00000, 0x41f0000000000000, 0x43dfffffffffffff, 0x43e0000000000000,
	0xc3e0000000000000, 0xc3e0000000000001, 0x43efffffffffffff, 0x43f0000000000000,
	0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000,
	0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff,
	0x3fefffffffffffff, 0x7fefffffffffffff, 0xffefffffffffffff, 0xbff0000000000000,
	0xbfe8000000000000, 0x400c000000000000, 0xc00c000000000000, 0x4202a05f20000000,
	0xc202a05f20000000, 0x40592ccccccccccd, 0xc0590ccccccccccd, 0x3fd0000000000000,
	0x4330000000000001, 0x4340000000000001, 0xc330000000000001, 0x41d0000000000000,
	0xbfd0000000000000, 0x3fe8000000000000, 0x407ff00000000000, 0xc070000000000000,
};

enum { RNI, RZI, RMI, RPI };

/* Converts v (exact value of the source) to a `bits`-wide integer; returns
 * the destination's bits, extended to `reg` bits per the destination type. */
static uint64_t f2i(double v, int mode, int bits, int sgn, int src64, int reg)
{
	uint64_t r;
	if (isnan(v)) {
		r = (!src64 && bits < 64) ? 0 : 1ull << (bits - 1);
	} else {
		double t = mode == RNI ? nearbyint(v) : mode == RZI ? trunc(v) : mode == RMI ? floor(v) : ceil(v);
		double lim = ldexp(1.0, sgn ? bits - 1 : bits);   /* first value above the range */
		if (sgn) {
			if (t >= lim) r = (1ull << (bits - 1)) - 1;
			else if (t < -lim) r = 0 - (1ull << (bits - 1));
			else r = (uint64_t)(int64_t)t;
		} else {
			if (t >= lim) r = bits == 64 ? ~0ull : (1ull << bits) - 1;
			else if (t < 0) r = 0;
			else r = (uint64_t)t;
		}
	}
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
	r &= m;
	if (sgn && bits < 64 && (r >> (bits - 1)) & 1)
		r |= ~m;                             /* sign-extend */
	return reg == 64 ? r : r & ((1ull << reg) - 1);
}

/* One output column: destination bits, signedness, mode, .ftz, register width. */
typedef struct { int bits, sgn, mode, ftz, reg; } col_t;

static const col_t c32f[35] = {
	{8, 1, RNI, 0, 32}, {8, 1, RZI, 0, 32}, {8, 1, RMI, 0, 32}, {8, 1, RPI, 0, 32},
	{16, 1, RNI, 0, 32}, {16, 1, RZI, 0, 32}, {16, 1, RMI, 0, 32}, {16, 1, RPI, 0, 32},
	{32, 1, RNI, 0, 32}, {32, 1, RZI, 0, 32}, {32, 1, RMI, 0, 32}, {32, 1, RPI, 0, 32},
	{8, 0, RNI, 0, 32}, {8, 0, RZI, 0, 32}, {8, 0, RMI, 0, 32}, {8, 0, RPI, 0, 32},
	{16, 0, RNI, 0, 32}, {16, 0, RZI, 0, 32}, {16, 0, RMI, 0, 32}, {16, 0, RPI, 0, 32},
	{32, 0, RNI, 0, 32}, {32, 0, RZI, 0, 32}, {32, 0, RMI, 0, 32}, {32, 0, RPI, 0, 32},
	{32, 1, RNI, 1, 32}, {32, 1, RZI, 1, 32}, {32, 1, RMI, 1, 32}, {32, 1, RPI, 1, 32},
	{32, 0, RPI, 1, 32}, {8, 1, RMI, 1, 32}, {16, 0, RPI, 1, 32},
	{32, 1, RZI, 0, 32}, {8, 0, RNI, 0, 32},                       /* .sat */
	{8, 1, RMI, 0, 16}, {16, 0, RPI, 0, 16},                       /* 16-bit registers */
};
static const col_t c64f[12] = {
	{64, 1, RNI, 0, 64}, {64, 1, RZI, 0, 64}, {64, 1, RMI, 0, 64}, {64, 1, RPI, 0, 64},
	{64, 0, RNI, 0, 64}, {64, 0, RZI, 0, 64}, {64, 0, RMI, 0, 64}, {64, 0, RPI, 0, 64},
	{64, 1, RPI, 1, 64}, {64, 0, RMI, 1, 64},
	{16, 1, RMI, 0, 64}, {32, 0, RPI, 0, 64},                      /* 64-bit registers */
};
static const col_t c32d[26] = {
	{8, 1, RNI, 0, 32}, {8, 1, RZI, 0, 32}, {8, 1, RMI, 0, 32}, {8, 1, RPI, 0, 32},
	{16, 1, RNI, 0, 32}, {16, 1, RZI, 0, 32}, {16, 1, RMI, 0, 32}, {16, 1, RPI, 0, 32},
	{32, 1, RNI, 0, 32}, {32, 1, RZI, 0, 32}, {32, 1, RMI, 0, 32}, {32, 1, RPI, 0, 32},
	{8, 0, RNI, 0, 32}, {8, 0, RZI, 0, 32}, {8, 0, RMI, 0, 32}, {8, 0, RPI, 0, 32},
	{16, 0, RNI, 0, 32}, {16, 0, RZI, 0, 32}, {16, 0, RMI, 0, 32}, {16, 0, RPI, 0, 32},
	{32, 0, RNI, 0, 32}, {32, 0, RZI, 0, 32}, {32, 0, RMI, 0, 32}, {32, 0, RPI, 0, 32},
	{32, 1, RZI, 0, 32}, {16, 1, RNI, 0, 16},
};
static const col_t c64d[9] = {
	{64, 1, RNI, 0, 64}, {64, 1, RZI, 0, 64}, {64, 1, RMI, 0, 64}, {64, 1, RPI, 0, 64},
	{64, 0, RNI, 0, 64}, {64, 0, RZI, 0, 64}, {64, 0, RMI, 0, 64}, {64, 0, RPI, 0, 64},
	{32, 1, RMI, 0, 64},
};

enum { NXV = 64, NR = 1024, NT = NXV + 3 * NR };

static void cols(const col_t *c, int nc, double v, double vftz, int src64, void *out, int w64, int idx)
{
	for (int k = 0; k < nc; k++) {
		uint64_t r = f2i(c[k].ftz ? vftz : v, c[k].mode, c[k].bits, c[k].sgn, src64, c[k].reg);
		if (w64)
			((uint64_t *)out)[k * NT + idx] = r;
		else
			((uint32_t *)out)[k * NT + idx] = (uint32_t)r;
	}
}

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
	/* all f32 inputs in launch order: values, [-300,300), [-7e4,7e4), bits */
	static uint32_t fin[NT];
	static uint64_t din[NT];
	static float f[NR];
	static double d[NR];
	memcpy(fin, xf, sizeof xf);
	ref_random_f32(f, NR, 81, -300.0, 300.0); for (int i = 0; i < NR; i++) fin[NXV + i] = f2u(f[i]);
	ref_random_f32(f, NR, 82, -70000.0, 70000.0); for (int i = 0; i < NR; i++) fin[NXV + NR + i] = f2u(f[i]);
	REF_RANDOM_INT(uint32_t, fin + NXV + 2 * NR, NR, 83, 0, 4294967295);
	memcpy(din, xd, sizeof xd);
	ref_random_f64(d, NR, 84, -300.0, 300.0); for (int i = 0; i < NR; i++) din[NXV + i] = d2u(d[i]);
	ref_random_f64(d, NR, 85, -5e9, 5e9); for (int i = 0; i < NR; i++) din[NXV + NR + i] = d2u(d[i]);
	random_bits64(din + NXV + 2 * NR, NR, 86);

	static uint32_t o32f[35 * NT], o32d[26 * NT];
	static uint64_t o64f[12 * NT], o64d[9 * NT];
	for (int i = 0; i < NT; i++) {
		float x = u2f(fin[i]);
		cols(c32f, 35, x, ftz32(x), 0, o32f, 0, i);
		cols(c64f, 12, x, ftz32(x), 0, o64f, 1, i);
		double y = u2d(din[i]);
		cols(c32d, 26, y, y, 1, o32d, 0, i);
		cols(c64d, 9, y, y, 1, o64d, 1, i);
	}
	ref_write(argv[1], "o32f", o32f, sizeof o32f);
	ref_write(argv[1], "o64f", o64f, sizeof o64f);
	ref_write(argv[1], "o32d", o32d, sizeof o32d);
	ref_write(argv[1], "o64d", o64d, sizeof o64d);
	return 0;
}
