/* Reference for pred_select: integer setp (signed/unsigned/bit compares, with
 * .and/.or/.xor and a p|q pair), predicate logic, selp, slct and set. */
#include "../ref_common.h"

static const uint32_t fsel[32] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
	0xffc00000, 0x00000001, 0x80000001, 0x7f7fffff, 0xff7fffff, 0x7fa00000, 0x00800000,
	0x80800000, 0x3f000000, 0xbf000000, 0x00003039, 0x80003040, 0x4f000000, 0xcf000000,
	0x00400000, 0x80400000, 0x7f800001, 0xff800001, 0x00000000, 0x80000000, 0x00000001,
	0x80000001, 0x3f800000, 0xbf800000, 0x7fc00000,
};

/* c >= 0.0f for the float with bits f: false for NaN and for negatives other than -0. */
static int f32_ge_zero(uint32_t f)
{
	if ((f & 0x7f800000) == 0x7f800000 && (f & 0x007fffff))
		return 0;
	return !(f >> 31) || f == 0x80000000;
}

static void compare(const int32_t *pa, const int32_t *pb, uint32_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		int32_t a = pa[i], b = pb[i];
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
		int64_t a64 = (int64_t)a * 3, b64 = (int64_t)b * 4;
		int16_t a16 = (int16_t)a, b16 = (int16_t)(b >> 1);	/* gcc: >> is arithmetic */
		uint32_t *o = out + 12 * i;
		int bits[18] = {
			a == b, a != b, a < b, a <= b, a > b, a >= b,
			ua < ub, ua <= ub, ua > ub, ua >= ub, ua < ub, ua >= ub,
			a64 < b64, (uint64_t)a64 > (uint64_t)b64,
			a16 <= b16, (uint16_t)a16 >= (uint16_t)b16,
			a == b, a64 != b64,
		};
		uint32_t m = 0;
		for (int k = 0; k < 18; k++)
			m = (m << 1) | (uint32_t)bits[k];
		o[0] = m;

		int c = i & 1, lt = a < b, hi = ua > ub, eq = a == b;
		o[1] = (uint32_t)((lt && c) | (!lt && c) << 1 | (hi || !c) << 2 | (!hi || !c) << 3 |
				  (eq ^ c) << 4 | (!eq ^ c) << 5);

		int p = a > 0, q = b > 0, s = p && q, u = p || q;
		p = s ^ u;
		q = !p;
		uint32_t r = q ? 100 : 200;
		if (s) r += 1;
		if (!u) r += 2;
		o[2] = r;

		o[3] = a < b ? ua * 3u : ub ^ 0xffu;
		o[4] = (int32_t)(ua - ub) >= 0 ? ua : ub;
		o[5] = f32_ge_zero(fsel[i & 31]) ? ua : ub;
		uint64_t s64 = (uint64_t)(b >= 0 ? a64 : b64);
		o[6] = (uint32_t)s64 ^ (uint32_t)(s64 >> 32);
		o[7] = a < b ? 0xffffffffu : 0;
		o[8] = ua >= ub ? 0xffffffffu : 0;
		o[9] = a != b ? 0x3f800000u : 0;
		o[10] = (a > b && b >= 0) ? 0xffffffffu : 0;
		o[11] = (uint32_t)((a == b) + 2 * (a != 0 && b > 0) + 4 * (ua >= ub || a < -2));
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static int32_t as[N], bs[N], al[N], bl[N];
	static uint32_t outs[N * 12], outl[N * 12];

	REF_RANDOM_INT(int32_t, as, N, 81, -4, 4);
	REF_RANDOM_INT(int32_t, bs, N, 82, -4, 4);
	REF_RANDOM_INT(int32_t, al, N, 83, INT32_MIN, INT32_MAX);
	REF_RANDOM_INT(int32_t, bl, N, 84, INT32_MIN, INT32_MAX);
	compare(as, bs, outs, N);
	compare(al, bl, outl, N);
	ref_write(argv[1], "outs", outs, sizeof outs);
	ref_write(argv[1], "outl", outl, sizeof outl);
	return 0;
}
