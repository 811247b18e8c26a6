/* Reference for cvt_f2f: f64 -> f32 rounding in each mode (host conversion
 * under fesetround), f32 -> f64 (exact), round to integral (rint, trunc,
 * floor, ceil: -0.3 -> -0), .ftz (subnormal f32 inputs and results become
 * zero of the same sign) and .sat (clamp to [0, 1], NaN -> 0; the kernel
 * clears the sign bit of saturated results). */
#include "../ref_fp.h"

/* f64 inputs: f32 ties near 1 and at the top of the range, overflow to inf
 * or max finite by mode, f32 subnormal ties, tiny values, NaNs, integral
 * rounding ties. No magnitude lies in [2^-126 - 2^-150, 2^-126), where the
 * result of cvt.rn.ftz would depend on when tininess is detected. */
static const uint64_t xd[64] = {
	0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
	0x3ff0000010000000, 0x3ff0000010000001, 0x3ff0000030000000, 0xbff0000010000000,
	0x3ff0000020000000, 0x3feffffff0000000, 0x3fefffffefffffff, 0x47efffffe0000000,
	0x47effffff0000000, 0x47efffffefffffff, 0x47f0000000000000, 0xc7f0000000000000,
	0xc7effffff0000000, 0x48078287f49c4a1d, 0xc8078287f49c4a1d, 0x7fefffffffffffff,
	0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
	0xfff8000000000000, 0x7ff0000000000001, 0x36a0000000000000, 0x3690000000000000,
	0x3690000000000001, 0x36a8000000000000, 0xb690000000000000, 0x3810000000000000,
	0x380fffffc0000000, 0x380fffffbfffffff, 0x380fffffa0000000, 0x3800000000000000,
	0x3370000000000000, 0xb370000000000000, 0x0000000000000001, 0x8000000000000001,
	0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0xbfe0000000000000,
	0xc004000000000000, 0x3fdfffffffffffff, 0x4320000000000001, 0x4330000000000000,
	0x7e37e43c8800759c, 0x81a56e1fc2f8f359, 0x3fe6666666666666, 0xbfd3333333333333,
	0x400d99999999999a, 0xc00d99999999999a, 0x4415af1d78b58c40, 0x4000000000000000,
	0xbe7ad7f29abcaf48, 0xb80fffffc0000000, 0x3810000010000000, 0xb810000000000000,
	0x3feffffffff24190, 0x3ff000000006df38, 0x3ff8000000000001, 0xc00c000000000000,
};
/* f32 inputs: integral rounding ties and near-ties, 2^22 + 0.5 and 1.5,
 * huge values, subnormals (rounded to 1 or -1 without .ftz), NaNs. */
static const uint32_t xf[64] = {
	0x00000000, 0x80000000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,
	0x3effffff, 0xbeffffff, 0x3f333333, 0xbe99999a, 0x406ccccd, 0xc06ccccd, 0x4a800001, 0x4a800003,
	0x4b000000, 0x4b800000, 0x7149f2ca, 0xf149f2ca, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
	0x80800000, 0x00400000, 0x3f7fffff, 0x3f800000, 0xbf800000, 0x3f800001, 0xbf800001, 0x3e800000,
	0xbf400000, 0x42c90000, 0xc2c90000, 0x42cb0000, 0x4afffffe, 0x4affffff, 0x3fa00000, 0x3f7fbe77,
	0x3f8020c5, 0xba83126f, 0x80400000, 0x3f000001, 0xbf000001, 0x3fc00001, 0x4b7fffff, 0xcb7fffff,
	0x4e6e6b28, 0xc0000000, 0x40400000, 0x3dcccccd, 0xbdcccccd, 0x000116c2, 0x800116c2, 0x4b000001,
};

enum { NXV = 64, NR = 1024, NT = NXV + 2 * NR };

static float sat_f(float x) { return sat32(x); }
static double sat_d(double x) { return isnan(x) || x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

static void from_f64(double x, uint32_t *p, uint64_t *q)
{
	for (int m = RN; m <= RP; m++)
		p[m * NT] = canon32(d2f(x, m));
	float rn = d2f(x, RN);
	REF_CHECK(!(fabsf(rn) == 0x1p-126f && fabs(x) < 0x1p-126));
	p[4 * NT] = canon32(ftz32(rn));
	p[5 * NT] = canon32(ftz32(d2f(x, RZ)));
	p[6 * NT] = f2u(sat_f(rn)) & 0x7fffffffu;
	q[0 * NT] = canon64(rint(x));
	q[1 * NT] = canon64(trunc(x));
	q[2 * NT] = canon64(floor(x));
	q[3 * NT] = canon64(ceil(x));
	q[4 * NT] = d2u(sat_d(x)) & 0x7fffffffffffffffull;
}

static void from_f32(float x, uint32_t *p, uint64_t *q)
{
	float z = ftz32(x);
	q[0 * NT] = canon64((double)x);
	q[1 * NT] = canon64((double)z);
	p[0 * NT] = canon32(rintf(x));
	p[1 * NT] = canon32(truncf(x));
	p[2 * NT] = canon32(floorf(x));
	p[3 * NT] = canon32(ceilf(x));
	p[4 * NT] = canon32(rintf(z));
	p[5 * NT] = canon32(truncf(z));
	p[6 * NT] = canon32(floorf(z));
	p[7 * NT] = canon32(ceilf(z));
	p[8 * NT] = f2u(sat_f(x)) & 0x7fffffffu;
	p[9 * NT] = f2u(sat_f(z)) & 0x7fffffffu;
	p[10 * NT] = f2u(sat_f(rintf(x))) & 0x7fffffffu;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	/* inputs in launch order: values, uniform, random bits */
	static uint64_t din[NT];
	static uint32_t fin[NT], w[2 * NR];
	static double d[NR];
	static float f[NR];
	memcpy(din, xd, sizeof xd);
	ref_random_f64(d, NR, 101, -4.0, 4.0); for (int i = 0; i < NR; i++) din[NXV + i] = d2u(d[i]);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 102, 0, 4294967295);
	for (int i = 0; i < NR; i++)
		din[NXV + NR + i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	memcpy(fin, xf, sizeof xf);
	ref_random_f32(f, NR, 103, -100.0, 100.0); for (int i = 0; i < NR; i++) fin[NXV + i] = f2u(f[i]);
	REF_RANDOM_INT(uint32_t, fin + NXV + NR, NR, 104, 0, 4294967295);

	static uint32_t o32d[7 * NT], o32f[11 * NT];
	static uint64_t o64d[5 * NT], o64f[2 * NT];
	for (int i = 0; i < NT; i++) {
		from_f64(u2d(din[i]), o32d + i, o64d + i);
		from_f32(u2f(fin[i]), o32f + i, o64f + i);
	}
	ref_write(argv[1], "o32d", o32d, sizeof o32d);
	ref_write(argv[1], "o64d", o64d, sizeof o64d);
	ref_write(argv[1], "o32f", o32f, sizeof o32f);
	ref_write(argv[1], "o64f", o64f, sizeof o64f);
	return 0;
}
