/* Reference for misc_sm70: bmsk as the PTX ISA's pseudo-code defines it,
 * WARP_SZ = 32, and the clock checks all true (7). */
#include "../ref_common.h"

enum { N = 192 };

static uint32_t bmsk(uint32_t a, uint32_t b, int clamp)
{
	uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
	uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
	int ovf = sum >= 32;
	if (clamp) {
		if (a >= 32) {
			ovf = 1;
			mask0 = 0;
		}
		if (b >= 32)
			ovf = 1;
	}
	if (ovf)
		mask1 = 0;
	else if (b1 == 0)
		mask1 = ~0u;
	return mask0 & ~mask1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static uint32_t pos[N], width[N], out[4 * N], chk[N];
	REF_RANDOM_INT(uint32_t, pos, N, 71, 0, 70);
	REF_RANDOM_INT(uint32_t, width, N, 72, 0, 70);
	for (int i = 0; i < 180; i++) {
		out[4 * i] = bmsk(pos[i], width[i], 1);
		out[4 * i + 1] = bmsk(pos[i], width[i], 0);
		out[4 * i + 2] = bmsk(pos[i], 3, 0);
		out[4 * i + 3] = 64 + (uint32_t)(i & 3);
		chk[i] = 7;
	}
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "chk", chk, sizeof chk);
	return 0;
}
