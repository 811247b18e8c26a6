/* Reference for special_regs: thread/block indices and sizes of a 3-D launch,
 * lane id and lane masks (lane = linear thread index mod 32), the dynamic
 * shared size; scheduling-dependent registers only as invariants (all 1). */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { GX = 2, GY = 3, GZ = 2, BX = 4, BY = 2, BZ = 3, SPIN = 50, DSMEM = 256 };
	static uint32_t out[GX * GY * GZ * BX * BY * BZ * 20];

	for (unsigned bz = 0; bz < GZ; bz++)
	for (unsigned by = 0; by < GY; by++)
	for (unsigned bx = 0; bx < GX; bx++)
	for (unsigned tz = 0; tz < BZ; tz++)
	for (unsigned ty = 0; ty < BY; ty++)
	for (unsigned tx = 0; tx < BX; tx++) {
		unsigned lin = tx + BX * (ty + BY * tz);
		unsigned blk = bx + GX * (by + GY * bz);
		uint32_t *o = out + 20 * (blk * BX * BY * BZ + lin);
		unsigned lane = lin & 31;
		uint32_t eq = 1u << lane;
		o[0] = tx; o[1] = ty; o[2] = tz;
		o[3] = BX; o[4] = BY; o[5] = BZ;
		o[6] = bx; o[7] = by; o[8] = bz;
		o[9] = GX; o[10] = GY; o[11] = GZ;
		o[12] = lane;
		o[13] = eq;
		o[14] = eq | (eq - 1);
		o[15] = eq - 1;
		o[16] = ~(eq - 1);
		o[17] = ~(eq | (eq - 1));
		o[18] = DSMEM;
		uint32_t x = lin;
		for (unsigned k = 0; k < SPIN; k++)
			x = x * 3u + k;
		o[19] = x == 0xdeadbeefu ? 0 : 0x1f;
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
