/* Reference for warp_shfl: shfl.sync evaluated with the PTX ISA rule (source
 * lane j from b and the packed segment mask / clamp in c; own value when j is
 * out of range). The c operands are those the CUDA intrinsics pass:
 * idx/down/bfly ((32-width)<<8)|31, up (32-width)<<8. */
#include "../ref_common.h"

enum { UP, DOWN, BFLY, IDX };

static int32_t shfl(int mode, const int32_t *src, int lane, uint32_t b, uint32_t c, int *pout)
{
	int bval = (int)(b & 31), cval = (int)(c & 31), mask = (int)((c >> 8) & 31);
	int max_lane = (lane & mask) | (cval & ~mask), min_lane = lane & mask;
	int j, p;
	switch (mode) {
	case UP:   j = lane - bval; p = j >= max_lane; break;
	case DOWN: j = lane + bval; p = j <= max_lane; break;
	case BFLY: j = lane ^ bval; p = j <= max_lane; break;
	default:   j = min_lane | (bval & ~mask); p = j <= max_lane; break;
	}
	if (!p)
		j = lane;
	if (pout)
		*pout = p;
	return src[j];
}

static uint32_t cw(int width, int up) { return ((uint32_t)(32 - width) << 8) | (up ? 0 : 31); }

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[128], out[128 * 14];
	REF_RANDOM_INT(int32_t, in, 128, 161, -1000000, 1000000);

	for (int w0 = 0; w0 < 128; w0 += 32) {
		const int32_t *v = in + w0;
		int32_t lo[32], hi[32], v3[32];
		for (int l = 0; l < 32; l++) {
			int64_t w = ((int64_t)v[l] * 1048576) ^ (w0 + l);
			lo[l] = (int32_t)(uint32_t)(uint64_t)w;
			hi[l] = (int32_t)(uint32_t)((uint64_t)w >> 32);
			v3[l] = v[l] * 3;
		}
		for (int l = 0; l < 32; l++) {
			int32_t *o = out + 14 * (w0 + l), r;
			int p;
			o[0] = shfl(IDX, v, l, (uint32_t)(l * 7 + 3) & 31, cw(32, 0), NULL);
			o[1] = shfl(IDX, v, l, 40, cw(32, 0), NULL);
			o[2] = shfl(IDX, v, l, (uint32_t)l + 2, cw(8, 0), NULL);
			o[3] = shfl(UP, v, l, 3, cw(32, 1), NULL);
			o[4] = shfl(UP, v, l, 2, cw(16, 1), NULL);
			o[5] = shfl(DOWN, v, l, 5, cw(32, 0), NULL);
			o[6] = shfl(DOWN, v, l, 3, cw(4, 0), NULL);
			o[7] = shfl(BFLY, v, l, 1, cw(32, 0), NULL);
			o[8] = shfl(BFLY, v, l, 6, cw(8, 0), NULL);
			o[9] = shfl(BFLY, v, l, 16, cw(8, 0), NULL);
			uint32_t wl = (uint32_t)shfl(IDX, lo, l, (uint32_t)(31 - l), cw(32, 0), NULL);
			uint32_t wh = (uint32_t)shfl(IDX, hi, l, (uint32_t)(31 - l), cw(32, 0), NULL);
			int64_t wr = (int64_t)(((uint64_t)wh << 32) | wl);
			o[10] = (int32_t)(wr >> 20) ^ (int32_t)wr;	/* gcc: >> is arithmetic */
			r = shfl(DOWN, v, l, 7, 0x1f, &p);
			o[11] = r * 2 + p;
			if (l < 16) {
				r = shfl(BFLY, v, l, 1, cw(32, 0), NULL);
				r += shfl(DOWN, v, l, 4, cw(16, 0), NULL);
				r ^= shfl(IDX, v, l, (uint32_t)(15 - l), cw(32, 0), NULL);
			} else {
				r = shfl(UP, v, l, 1, cw(16, 1), NULL);
			}
			o[12] = r;
			o[13] = (l & 1) ? shfl(IDX, v3, l, (uint32_t)(l + 2) & 31, cw(32, 0), NULL) : -1;
		}
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
