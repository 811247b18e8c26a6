/* Reference for bit_shift: funnel shifts (shf .wrap/.clamp) and shl/shr whose
 * counts past the operand width clamp to the width (0, or sign fill for .s). */
#include "../ref_common.h"

static uint32_t shf_l(uint32_t a, uint32_t b, uint32_t n)	/* n in 0..32 */
{
	return (uint32_t)(((((uint64_t)b << 32) | a) << n) >> 32);
}

static uint32_t shf_r(uint32_t a, uint32_t b, uint32_t n)
{
	return (uint32_t)((((uint64_t)b << 32) | a) >> n);
}

static uint64_t shl(uint64_t x, uint32_t n, int bits)
{
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	return n >= (uint32_t)bits ? 0 : (x << n) & mask;
}

static uint64_t shr_u(uint64_t x, uint32_t n, int bits)
{
	return n >= (uint32_t)bits ? 0 : x >> n;
}

static uint64_t shr_s(uint64_t x, uint32_t n, int bits)	/* x holds a bits-wide value */
{
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	int neg = (x >> (bits - 1)) & 1;
	if (n >= (uint32_t)bits)
		return neg ? mask : 0;
	uint64_t r = x >> n;
	if (neg && n)
		r |= mask & ~(mask >> n);
	return r;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static uint32_t lo[N], hi[N], cnt[N], o32[N * 12];
	static uint64_t o64[N * 6];
	static uint16_t o16[N * 4];

	REF_RANDOM_INT(uint32_t, lo, N, 61, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, hi, N, 62, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, cnt, N, 63, 0, 70);
	for (int i = 0; i < N; i++) {
		uint32_t a = lo[i], b = hi[i], c = cnt[i], *o = o32 + 12 * i;
		uint64_t x = ((uint64_t)b << 32) | a, *q = o64 + 6 * i;
		uint16_t h = (uint16_t)a, *s = o16 + 4 * i;
		o[0] = shf_l(a, b, c & 31);
		o[1] = shf_r(a, b, c & 31);
		o[2] = shf_l(a, b, c < 32 ? c : 32);
		o[3] = shf_r(a, b, c < 32 ? c : 32);
		o[4] = (uint32_t)shl(a, c & 31, 32);
		o[5] = (uint32_t)shr_u(a, c & 31, 32);
		o[6] = (uint32_t)shr_s(a, c & 31, 32);
		o[7] = (uint32_t)shl(a, c, 32);
		o[8] = (uint32_t)shr_u(a, c, 32);
		o[9] = (uint32_t)shr_s(a, c, 32);
		o[10] = shf_l(a, b, 7);
		o[11] = shf_r(a, b, 45 & 31);
		q[0] = shl(x, c & 63, 64);
		q[1] = shr_u(x, c & 63, 64);
		q[2] = shr_s(x, c & 63, 64);
		q[3] = shl(x, c, 64);
		q[4] = shr_u(x, c, 64);
		q[5] = shr_s(x, c, 64);
		s[0] = (uint16_t)shl(h, c & 31, 16);
		s[1] = (uint16_t)shr_u(h, c & 31, 16);
		s[2] = (uint16_t)shr_s(h, c & 31, 16);
		/* C promotes to int: 32-bit shifts of the zero/sign-extended halfword */
		s[3] = (uint16_t)(shl(h, c & 15, 32) ^ shr_s(h & 0x8000 ? 0xffff0000u | h : h, c & 15, 32));
	}
	ref_write(argv[1], "o32", o32, sizeof o32);
	ref_write(argv[1], "o64", o64, sizeof o64);
	ref_write(argv[1], "o16", o16, sizeof o16);
	return 0;
}
