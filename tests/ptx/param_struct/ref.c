/* Reference for param_struct: the 8-byte struct argument is given in the JSON as
 * one u64 (little-endian bytes x:int32, y:int16, z:int8, w:uint8). */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	const uint64_t arg = 7276976872162852859ULL;	/* 0x64fd03e8fffffffb */
	const int32_t x = (int32_t)(uint32_t)arg;
	const int16_t y = (int16_t)(uint16_t)(arg >> 32);
	const int8_t z = (int8_t)(uint8_t)(arg >> 48);
	const uint8_t w = (uint8_t)(arg >> 56);
	const int32_t k = 9;
	static int32_t out[128];

	for (int t = 0; t < 32; t++) {
		out[4 * t] = x * t;
		out[4 * t + 1] = y + k;
		out[4 * t + 2] = z - t;
		out[4 * t + 3] = w ^ t;
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
