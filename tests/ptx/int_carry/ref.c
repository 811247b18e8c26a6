/* Reference for int_carry: multi-word add, subtract and multiply through the
 * PTX condition-code carry flag (CC.CF; for subtraction it is the borrow). */
#include "../ref_common.h"

static uint32_t addc(uint32_t a, uint32_t b, unsigned *cf)
{
	uint64_t t = (uint64_t)a + b + *cf;
	*cf = (unsigned)(t >> 32);
	return (uint32_t)t;
}

static uint32_t subc(uint32_t a, uint32_t b, unsigned *cf)
{
	int64_t t = (int64_t)a - b - *cf;
	*cf = t < 0;
	return (uint32_t)t;
}

static uint32_t lo(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b); }
static uint32_t hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

static void carry128(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		const uint32_t *x = a + 4 * i, *y = b + 4 * i;
		uint32_t *o = out + 16 * i;
		unsigned cf = 0;
		for (int k = 0; k < 4; k++)
			o[k] = addc(x[k], y[k], &cf);
		o[4] = cf;
		cf = 0;
		for (int k = 0; k < 4; k++)
			o[5 + k] = subc(x[k], y[k], &cf);
		o[9] = 0u - cf;

		/* the same instruction sequence as the kernel, step by step */
		uint32_t p0, p1, p2, p3;
		p0 = lo(x[0], y[0]);
		p1 = hi(x[0], y[0]);
		cf = 0; p1 = addc(lo(x[0], y[1]), p1, &cf);
		p2 = addc(hi(x[0], y[1]), 0, &cf); cf = 0;  /* madc.hi (no .cc) */
		p1 = addc(lo(x[1], y[0]), p1, &cf);
		p2 = addc(hi(x[1], y[0]), p2, &cf);
		p3 = addc(0, 0, &cf); cf = 0;
		p2 = addc(lo(x[1], y[1]), p2, &cf);
		p3 = addc(hi(x[1], y[1]), p3, &cf);
		o[10] = p0; o[11] = p1; o[12] = p2; o[13] = p3;

		uint32_t q0, q1, q2;
		cf = 0;
		q0 = addc(lo(x[3], y[0]), x[0], &cf);
		q1 = addc(lo(x[3], y[1]), x[1], &cf);
		q2 = addc(lo(x[3], y[2]), x[2], &cf);
		o[14] = q0 ^ q2; o[15] = q1;

		/* cross-check the 64x64 product against plain 128-bit arithmetic */
		unsigned __int128 pp = (unsigned __int128)(((uint64_t)x[1] << 32) | x[0]) *
				       (((uint64_t)y[1] << 32) | y[0]);
		for (int k = 0; k < 4; k++)
			if ((uint32_t)(pp >> (32 * k)) != o[10 + k]) {
				fprintf(stderr, "ref: internal product mismatch\n");
				exit(1);
			}
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static uint32_t a[1024], b[1024], out[4096], oute[64];
	static const uint32_t ae[16] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 0,
		0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x80000000u, 0xffffffffu, 0, 0x80000000u};
	static const uint32_t be[16] = {1, 0, 0, 0, 1, 0, 0, 0,
		0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x80000000u, 1, 0xffffffffu, 0x7fffffffu};

	REF_RANDOM_INT(uint32_t, a, 1024, 21, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, b, 1024, 22, 0, 4294967295LL);
	carry128(a, b, out, 256);
	carry128(ae, be, oute, 4);
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "oute", oute, sizeof oute);
	return 0;
}
