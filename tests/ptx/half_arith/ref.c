/* Reference for half_arith: f16 / f16x2 arithmetic rounded to nearest even
 * from the exact result (sums and products of halves are exact in double;
 * fma rounds to odd in double first), .ftz flushing f16 subnormal inputs and
 * results, .sat clamping to [0, 1]; __hmin/__hmax follow the f32 min/max the
 * header lowers them to; comparisons as in PTX (ordered/unordered, -0 == +0).
 * NaN results are 0x7fff; the sign bit of saturated results is cleared. */
#include "../ref_fp.h"

#define K 35

/* Adversarial halves: signed zeros, subnormals, the normal boundary, 1 and
 * its neighbours, half an ulp of 1, max finite, 2^15, infinities, NaNs. */
static const uint16_t xa[32] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0200, 0x0400, 0x8400,
	0x3c00, 0xbc00, 0x3c01, 0xbbfe, 0x3e00, 0x1000, 0x9001, 0x1400,
	0x6400, 0xe401, 0x3555, 0x4248, 0x7bff, 0xfbff, 0x7800, 0x7bfe,
	0x2000, 0x1c00, 0x7c00, 0xfc00, 0x7e00, 0xfc01, 0x3800, 0xc000,
};
static const uint16_t xc[8] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0xfbff, 0x0001, 0x9001, 0x7c00 };

static double hd(uint16_t h) { return f16_to_double(h); }
static int h_sub(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff); }
static uint16_t hftz(uint16_t h) { return h_sub(h) ? (h & 0x8000) : h; }

/* The f16 result of a + b, a * b or a * b + c, rounded to nearest even. */
static uint16_t h_add(uint16_t a, uint16_t b) { return f16_from_double(add64(hd(a), hd(b), RN), RN); }
static uint16_t h_sub2(uint16_t a, uint16_t b) { return f16_from_double(sub64(hd(a), hd(b), RN), RN); }
static uint16_t h_mul(uint16_t a, uint16_t b) { return f16_from_double(hd(a) * hd(b), RN); }
static uint16_t h_fma(uint16_t a, uint16_t b, uint16_t c, int mode)
{
	return f16_from_double(rto_add64(hd(a) * hd(b), hd(c), mode), mode);
}

/* .ftz: flush inputs and the result; results that would round up to the
 * smallest normal from below are kept out of the inputs. */
static uint16_t ftz_res(uint16_t r, uint16_t rz)
{
	REF_CHECK(!((r & 0x7fff) == 0x0400 && (rz & 0x7fff) < 0x0400));
	return hftz(r);
}

static uint16_t h_sat(uint16_t h)
{
	double d = hd(h);
	if (isnan(d) || d < 0.0) return 0;
	return d > 1.0 ? 0x3c00 : (h & 0x7fff);
}
static uint16_t canon(uint16_t h) { return f16_isnan(h) ? CANON_NAN16 : h; }

/* min/max.f32 semantics (the header converts to f32 and back). */
static uint16_t h_min(uint16_t a, uint16_t b)
{
	int na = f16_isnan(a), nb = f16_isnan(b);
	if (na && nb) return CANON_NAN16;
	if (na) return b;
	if (nb) return a;
	double x = hd(a), y = hd(b);
	if (x == 0.0 && y == 0.0) return (a & 0x8000) ? a : b;
	return x < y ? a : b;
}
static uint16_t h_max(uint16_t a, uint16_t b)
{
	int na = f16_isnan(a), nb = f16_isnan(b);
	if (na && nb) return CANON_NAN16;
	if (na) return b;
	if (nb) return a;
	double x = hd(a), y = hd(b);
	if (x == 0.0 && y == 0.0) return (a & 0x8000) ? b : a;
	return x > y ? a : b;
}

enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU };
static int cmp(int op, uint16_t ha, uint16_t hb)
{
	double a = hd(ha), b = hd(hb);
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

static uint32_t pack(uint16_t lo, uint16_t hi) { return (uint32_t)lo | (uint32_t)hi << 16; }

static void run(const uint16_t *a, const uint16_t *b, const uint16_t *c, uint32_t *out, uint32_t n,
                uint32_t ma, uint32_t sb, uint32_t mb, uint32_t sc, uint32_t mc)
{
	for (uint32_t i = 0; i < n; i++) {
		uint16_t x = a[i & ma], y = b[(i >> sb) & mb], z = c[(i >> sc) & mc];
		uint16_t fx = hftz(x), fy = hftz(y), fz = hftz(z);
		uint32_t *o = out + i;
		o[0 * n] = canon(h_add(x, y));
		o[1 * n] = canon(h_sub2(x, y));
		o[2 * n] = canon(h_mul(x, y));
		o[3 * n] = canon(h_fma(x, y, z, RN));
		o[4 * n] = o[0 * n];
		o[5 * n] = o[1 * n];
		o[6 * n] = o[2 * n];
		o[7 * n] = h_sat(h_add(x, y));
		o[8 * n] = h_sat(h_fma(x, y, z, RN));
		o[9 * n] = canon(hftz(h_add(fx, fy)));
		o[10 * n] = canon(ftz_res(h_mul(fx, fy), f16_from_double(hd(fx) * hd(fy), RZ)));
		o[11 * n] = canon(ftz_res(h_fma(fx, fy, fz, RN), h_fma(fx, fy, fz, RZ)));
		o[12 * n] = canon(x ^ 0x8000);
		o[13 * n] = canon(x & 0x7fff);
		o[14 * n] = canon(fx ^ 0x8000);
		o[15 * n] = h_min(x, y);
		o[16 * n] = h_max(x, y);
		uint32_t m = 0;
		for (int op = EQ; op <= GEU; op++)
			m |= (uint32_t)cmp(op, x, y) << op;
		o[17 * n] = m | (uint32_t)f16_isnan(x) << 12;
		o[18 * n] = (uint32_t)cmp(LT, fx, fy) | (uint32_t)cmp(EQ, fx, fy) << 1 |
		            (uint32_t)cmp(NEU, fx, fy) << 2 | (uint32_t)cmp(GEU, fx, fy) << 3;
		o[19 * n] = cmp(LE, x, y) ? 0xffffffffu : 0;
		o[20 * n] = cmp(NE, x, y) ? 0x3c00u : 0;
		/* f16x2: p = (x, z), q = (y, x), s = (z, y) */
		o[21 * n] = pack(canon(h_add(x, y)), canon(h_add(z, x)));
		o[22 * n] = pack(canon(h_sub2(x, y)), canon(h_sub2(z, x)));
		o[23 * n] = pack(canon(h_mul(x, y)), canon(h_mul(z, x)));
		o[24 * n] = pack(canon(h_fma(x, y, z, RN)), canon(h_fma(z, x, y, RN)));
		o[25 * n] = pack(h_sat(h_add(x, y)), h_sat(h_add(z, x)));
		o[26 * n] = pack(h_min(x, y), h_min(z, x));
		o[27 * n] = pack(cmp(EQ, x, y) ? 0x3c00 : 0, cmp(EQ, z, x) ? 0x3c00 : 0);
		o[28 * n] = pack(cmp(LTU, x, y) ? 0x3c00 : 0, cmp(LTU, z, x) ? 0x3c00 : 0);
		o[29 * n] = (uint32_t)(cmp(GT, x, y) && cmp(GT, z, x));
		o[30 * n] = pack(cmp(EQ, x, y) ? 0xffff : 0, cmp(EQ, z, x) ? 0xffff : 0);
		o[31 * n] = pack(canon(x ^ 0x8000), canon(z ^ 0x8000));
		o[32 * n] = pack(canon(x & 0x7fff), canon(z & 0x7fff));
		o[33 * n] = pack(canon(ftz_res(h_fma(fx, fy, fz, RN), h_fma(fx, fy, fz, RZ))),
		                 canon(ftz_res(h_fma(fz, fx, fy, RN), h_fma(fz, fx, fy, RZ))));
		o[34 * n] = (uint32_t)cmp(GTU, x, y) | (uint32_t)cmp(GTU, z, x) << 1;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 8192, NR = 2048 };
	static uint16_t r1a[NR], r1b[NR], r1c[NR], r2a[NR], r2b[NR], r2c[NR];
	/* random bit patterns, and operands chosen for cancellation: x in
	 * [0.5, 3], y in [-3, -0.5], c tiny (subnormal or just normal) */
	REF_RANDOM_INT(uint16_t, r1a, NR, 111, 0, 65535);
	REF_RANDOM_INT(uint16_t, r1b, NR, 112, 0, 65535);
	REF_RANDOM_INT(uint16_t, r1c, NR, 113, 0, 65535);
	REF_RANDOM_INT(uint16_t, r2a, NR, 114, 0x3800, 0x4200);
	REF_RANDOM_INT(uint16_t, r2b, NR, 115, 0xb800, 0xc200);
	REF_RANDOM_INT(uint16_t, r2c, NR, 116, 0x0000, 0x07ff);
	static uint32_t out_x[K * NX], out_r1[K * NR], out_r2[K * NR];
	run(xa, xa, xc, out_x, NX, 31, 5, 31, 10, 7);
	run(r1a, r1b, r1c, out_r1, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	run(r2a, r2b, r2c, out_r2, NR, NR - 1, 0, NR - 1, 0, NR - 1);
	ref_write(argv[1], "out_x", out_x, sizeof out_x);
	ref_write(argv[1], "out_r1", out_r1, sizeof out_r1);
	ref_write(argv[1], "out_r2", out_r2, sizeof out_r2);
	return 0;
}
