/* Reference for bit_field: bfe and bfi exactly as the PTX ISA pseudocode
 * defines them (position and length taken modulo 256, fields clipped at msb). */
#include "../ref_common.h"

static uint64_t bit(uint64_t x, unsigned i) { return (x >> i) & 1; }

static uint64_t bfe(uint64_t a, uint32_t b, uint32_t c, int bits, int sgn)
{
	unsigned msb = (unsigned)bits - 1, pos = b & 0xff, len = c & 0xff;
	uint64_t sbit = 0, d = 0;
	if (sgn && len != 0)
		sbit = bit(a, pos + len - 1 < msb ? pos + len - 1 : msb);
	for (unsigned i = 0; i <= msb; i++) {
		uint64_t v = (i < len && pos + i <= msb) ? bit(a, pos + i) : sbit;
		d |= v << i;
	}
	return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int bits)
{
	unsigned msb = (unsigned)bits - 1, pos = c & 0xff, len = d & 0xff;
	uint64_t f = b;
	for (unsigned i = 0; i < len && pos + i <= msb; i++)
		f = (f & ~(1ull << (pos + i))) | (bit(a, i) << (pos + i));
	return f;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static int64_t src[N], ins[N];
	static uint32_t pos[N], len[N], out32[N * 8];
	static uint64_t out64[N * 4];

	REF_RANDOM_INT(int64_t, src, N, 41, INT64_MIN, INT64_MAX);
	REF_RANDOM_INT(int64_t, ins, N, 42, INT64_MIN, INT64_MAX);
	REF_RANDOM_INT(uint32_t, pos, N, 43, 0, 40);
	REF_RANDOM_INT(uint32_t, len, N, 44, 0, 40);
	for (int i = 0; i < N; i++) {
		uint64_t a = (uint64_t)src[i], b = (uint64_t)ins[i];
		uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, p = pos[i], l = len[i];
		uint32_t *o = out32 + 8 * i;
		uint64_t *q = out64 + 4 * i;
		o[0] = (uint32_t)bfe(a32, p, l, 32, 0);
		o[1] = (uint32_t)bfe(a32, p, l, 32, 1);
		o[2] = (uint32_t)bfi(b32, a32, p, l, 32);
		o[3] = (uint32_t)bfe(a32, 8, 12, 32, 0);
		o[4] = (uint32_t)bfe(a32, 28, 8, 32, 1);
		o[5] = (uint32_t)bfi(b32, a32, 20, 16, 32);
		o[6] = (a32 >> 7) & 0x3ff;
		o[7] = (a32 & ~0x0ff0u) | ((b32 << 4) & 0x0ff0u);
		q[0] = bfe(a, p, l, 64, 0);
		q[1] = bfe(a, p + 24, l, 64, 1);
		q[2] = bfi(b, a, p + 24, l, 64);
		q[3] = (a >> 40) & 0xfff;
	}
	ref_write(argv[1], "out32", out32, sizeof out32);
	ref_write(argv[1], "out64", out64, sizeof out64);
	return 0;
}
