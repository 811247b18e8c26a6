/* Reference for bit_logic: bitwise and/or/xor/not, cnot (1 iff zero) and lop3,
 * whose immLut bit (a<<2 | b<<1 | c) gives each result bit. */
#include "../ref_common.h"

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, unsigned imm)
{
	uint32_t r = 0;
	for (unsigned k = 0; k < 8; k++)
		if ((imm >> k) & 1)
			r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
	return r;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static uint32_t pa[N], pb[N], pc[N], out[N * 16];
	static uint64_t out64[N * 4];

	REF_RANDOM_INT(uint32_t, pa, N, 71, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, pb, N, 72, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, pc, N, 73, 0, 4294967295LL);
	for (int i = 0; i < N; i++) {
		uint32_t a = pa[i], b = pb[i], c = pc[i], *o = out + 16 * i;
		o[0] = lop3(a, b, c, 0xca);
		o[1] = lop3(a, b, c, 0x96);
		o[2] = lop3(a, b, c, 0xe8);
		o[3] = ~(a | b) & c;
		o[4] = lop3(a, b, c, 0x80);
		o[5] = lop3(a, b, c, 0x1e);
		o[6] = lop3(a, b, c, 0xf0);
		o[7] = lop3(a, b, c, 0x6b);
		o[8] = a & b;
		o[9] = a | c;
		o[10] = b ^ c;
		o[11] = ~a;
		o[12] = (a & 0x11) == 0;
		o[13] = (a & b) & 0xffff;
		o[14] = 0xffffu ^ (uint32_t)((c & 1) == 0);
		o[15] = ((a & 0x101) == 0) + (c == 0);
		uint64_t x = ((uint64_t)a << 32) | b, y = ((uint64_t)c << 32) | a, *q = out64 + 4 * i;
		q[0] = (x & y) ^ ~(x | 0xff00ff00ull);
		q[1] = x | y;
		q[2] = ~y;
		q[3] = (x & 0x100000001ull) == 0;
	}
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "out64", out64, sizeof out64);
	return 0;
}
