/* Reference for barriers: what the consumer warps accumulate from the four
 * rounds their producer warps hand over, and the values exchanged afterwards. */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[512], out[512];
	REF_RANDOM_INT(int32_t, in, 512, 181, -100000, 100000);
	for (int b = 0; b < 2; b++) {
		int32_t acc[128];
		for (int t = 0; t < 128; t++) {
			int warp = t >> 5, lane = t & 31, pair = warp >> 1;
			const int32_t *src = in + b * 256 + pair * 128;
			acc[t] = 0;
			if (warp & 1)
				for (int r = 0; r < 4; r++) {
					int l = (lane + r) & 31;
					acc[t] += src[r * 32 + l] * (r + 1);
				}
		}
		for (int t = 0; t < 128; t++) {
			int u = t ^ 1;
			out[2 * (b * 128 + t)] = acc[t];
			out[2 * (b * 128 + t) + 1] = acc[u ^ 32] + (u & 31);
		}
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
