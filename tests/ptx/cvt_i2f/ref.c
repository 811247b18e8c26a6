/* Reference for cvt_i2f: integer -> float conversion. The source value is
 * the low 8/16/32/64 bits of the register, sign- or zero-extended per the
 * source type; it is rounded to f32/f64 in the given mode by an exact
 * integer rounding (fp_round), cross-checked against host conversions. */
#include "../ref_fp.h"

/* Adversarial inputs: small values whose low bytes/halves are negative as
 * s8/s16, f32 ties around 2^24, 2^25 and 2^31, f64 ties around 2^53, 2^63
 * and 2^64, extremes of every type. */
static const uint64_t xv[64] = {
	0x0000000000000000, 0x0000000000000001, 0xffffffffffffffff, 0x0000000000000002,
	0x000000000000007f, 0x0000000000000080, 0x00000000000000ff, 0x0000000000000100,
	0x0000000000000081, 0x000000000000ff7f, 0x0000000000007fff, 0x0000000000008000,
	0x000000000000ffff, 0x0000000000010000, 0x0000000001000000, 0x0000000001000001,
	0x0000000001000002, 0x0000000001000003, 0x0000000002000003, 0xfffffffffeffffff,
	0xfffffffffefffffd, 0xfffffffffdfffffd, 0x000000007fffffff, 0x0000000080000000,
	0x00000000ffffffff, 0x000000007fffffc0, 0x000000007fffff40, 0xffffffff80000040,
	0x00000000ffffff80, 0x00000000ffffff7f, 0x0020000000000000, 0x0020000000000001,
	0x0020000000000002, 0x0020000000000003, 0xffdfffffffffffff, 0xffdffffffffffffd,
	0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0x8000000000000001,
	0x8000000000000400, 0x8000000000000401, 0x8000000000000c00, 0xfffffffffffffc00,
	0xfffffffffffffbff, 0x7ffffffffffffe00, 0x8000008000000000, 0xffffff8000000000,
	0x0000010000000001, 0xfffffffffffffffe, 0x123456789abcdef0, 0x00000000000001ff,
	0x000000000000807f, 0xfedcba9876543210, 0x0000000100000000, 0xffffffff00000001,
	0x00ffffffffffffff, 0xbfffffffffffffff, 0x4000004000000000, 0x0000000080000080,
	0x7fffff7fffffffff, 0x00000000ffffff7f, 0x0000000000000003, 0xfffffffffffffffd,
};

/* The source value: low `bits` bits of v, sign- or zero-extended. */
static void src_val(uint64_t v, int bits, int sgn, int *neg, uint64_t *mag)
{
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, x = v & m;
	*neg = sgn && ((x >> (bits - 1)) & 1);
	*mag = *neg ? ((0 - x) & m) : x;   /* two's complement magnitude */
}

static uint32_t to_f32(uint64_t v, int bits, int sgn, int mode)
{
	int neg;
	uint64_t mag;
	src_val(v, bits, sgn, &neg, &mag);
	return (uint32_t)fp_round(neg, mag, 0, 24, 8, mode);
}
static uint64_t to_f64(uint64_t v, int bits, int sgn, int mode)
{
	int neg;
	uint64_t mag;
	src_val(v, bits, sgn, &neg, &mag);
	return fp_round(neg, mag, 0, 53, 11, mode);
}

/* Host conversions in each mode, for the cross-check. */
static void host_check(uint64_t v)
{
	for (int m = RN; m <= RP; m++) {
		volatile int32_t s32 = (int32_t)(uint32_t)v;
		volatile uint32_t u32 = (uint32_t)v;
		volatile int64_t s64 = (int64_t)v;
		volatile uint64_t u64 = v;
		volatile float f1, f2, f3, f4;
		volatile double d3, d4;
		fp_setround(m);
		f1 = (float)s32; f2 = (float)u32; f3 = (float)s64; f4 = (float)u64;
		d3 = (double)s64; d4 = (double)u64;
		fp_resetround();
		REF_CHECK(f2u(f1) == to_f32(v, 32, 1, m));
		REF_CHECK(f2u(f2) == to_f32(v, 32, 0, m));
		REF_CHECK(f2u(f3) == to_f32(v, 64, 1, m));
		REF_CHECK(f2u(f4) == to_f32(v, 64, 0, m));
		REF_CHECK(d2u(d3) == to_f64(v, 64, 1, m));
		REF_CHECK(d2u(d4) == to_f64(v, 64, 0, m));
	}
}

/* .sat to float: clamp to [0, 1] (sign bit cleared by the kernel). */
static uint32_t sat_f32(uint32_t bits) { return f2u(sat32(u2f(bits))) & 0x7fffffffu; }
static uint64_t sat_f64(uint64_t bits)
{
	double d = u2d(bits);
	d = d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
	return d2u(d) & 0x7fffffffffffffffull;
}

enum { NXV = 64, NR = 1024, NT = NXV + 2 * NR };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	/* inputs in launch order: values, random bits, random in [-1e8, 1e8] */
	static uint64_t in[NT];
	static uint32_t w[2 * NR];
	static int64_t s[NR];
	memcpy(in, xv, sizeof xv);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 91, 0, 4294967295);
	for (int i = 0; i < NR; i++)
		in[NXV + i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	ref_random_i64(s, NR, 92, -100000000, 100000000);
	for (int i = 0; i < NR; i++)
		in[NXV + NR + i] = (uint64_t)s[i];

	static uint32_t o32[28 * NT];
	static uint64_t o64[14 * NT];
	for (int i = 0; i < NT; i++) {
		uint64_t v = in[i];
		host_check(v);
		uint32_t *p = o32 + i;
		uint64_t *q = o64 + i;
		p[0 * NT] = to_f32(v, 8, 1, RN);
		p[1 * NT] = to_f32(v, 8, 1, RM);
		p[2 * NT] = to_f32(v, 8, 0, RZ);
		p[3 * NT] = to_f32(v, 8, 0, RP);
		p[4 * NT] = to_f32(v, 16, 1, RN);
		p[5 * NT] = to_f32(v, 16, 1, RP);
		p[6 * NT] = to_f32(v, 16, 0, RM);
		p[7 * NT] = to_f32(v, 16, 0, RZ);
		for (int m = RN; m <= RP; m++) {
			p[(8 + m) * NT] = to_f32(v, 32, 1, m);
			p[(12 + m) * NT] = to_f32(v, 32, 0, m);
			p[(16 + m) * NT] = to_f32(v, 64, 1, m);
			p[(20 + m) * NT] = to_f32(v, 64, 0, m);
			q[(5 + m) * NT] = to_f64(v, 64, 1, m);
			q[(9 + m) * NT] = to_f64(v, 64, 0, m);
		}
		p[24 * NT] = sat_f32(to_f32(v, 32, 1, RN));
		p[25 * NT] = sat_f32(to_f32(v, 64, 0, RZ));
		p[26 * NT] = to_f32(v, 16, 1, RN);
		p[27 * NT] = to_f32(v, 8, 0, RP);
		q[0 * NT] = to_f64(v, 8, 1, RN);
		q[1 * NT] = to_f64(v, 16, 0, RZ);
		q[2 * NT] = to_f64(v, 32, 1, RN);
		q[3 * NT] = to_f64(v, 32, 0, RN);
		q[4 * NT] = to_f64(v, 32, 1, RM);
		q[13 * NT] = sat_f64(to_f64(v, 64, 1, RN));
	}
	ref_write(argv[1], "o32", o32, sizeof o32);
	ref_write(argv[1], "o64", o64, sizeof o64);
	return 0;
}
