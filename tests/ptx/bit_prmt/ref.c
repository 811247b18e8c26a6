/* Reference for bit_prmt: prmt.b32 generic form (4-bit selectors, msb
 * replicates the byte's sign) and the six fixed modes, from the PTX ISA tables. */
#include "../ref_common.h"

enum { GENERIC, F4E, B4E, RC8, ECL, ECR, RC16 };

/* Source byte for each result byte (nibble k = result byte k), per mode and c[1:0]. */
static const uint16_t mode_sel[6][4] = {
	{0x3210, 0x4321, 0x5432, 0x6543},	/* f4e */
	{0x5670, 0x6701, 0x7012, 0x0123},	/* b4e */
	{0x0000, 0x1111, 0x2222, 0x3333},	/* rc8 */
	{0x3210, 0x3211, 0x3222, 0x3333},	/* ecl */
	{0x0000, 0x1110, 0x2210, 0x3210},	/* ecr */
	{0x1010, 0x3232, 0x1010, 0x3232},	/* rc16 */
};

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	uint64_t src = ((uint64_t)b << 32) | a;
	uint32_t d = 0;
	for (int k = 0; k < 4; k++) {
		unsigned ctl, byte;
		if (mode == GENERIC)
			ctl = (c >> (4 * k)) & 0xf;
		else
			ctl = (mode_sel[mode - 1][c & 3] >> (4 * k)) & 0x7;
		byte = (unsigned)(src >> (8 * (ctl & 7))) & 0xff;
		if (ctl & 8)
			byte = (byte & 0x80) ? 0xff : 0;
		d |= (uint32_t)byte << (8 * k);
	}
	return d;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static uint32_t a[N], b[N], s[N], out[N * 12];

	REF_RANDOM_INT(uint32_t, a, N, 51, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, b, N, 52, 0, 4294967295LL);
	REF_RANDOM_INT(uint32_t, s, N, 53, 0, 4294967295LL);
	for (int i = 0; i < N; i++) {
		uint32_t *o = out + 12 * i, x = a[i], y = b[i], c = s[i];
		o[0] = prmt(x, y, c & 0x7777, GENERIC);	/* __byte_perm uses 3-bit selectors */
		o[1] = prmt(x, y, 0x0123, GENERIC);
		o[2] = prmt(x, y, c, GENERIC);
		o[3] = prmt(x, y, 0x8e4b, GENERIC);
		for (int m = F4E; m <= RC16; m++)
			o[4 + m - F4E] = prmt(x, y, c, m);
		o[10] = prmt(x, y, 2, F4E);
		o[11] = (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
