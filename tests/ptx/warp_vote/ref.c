/* Reference for warp_vote: votes over the threads that exist in each warp (the
 * last warp of an 80-thread block has 16), over the threads on each side of a
 * branch, and block-wide bar.red reductions. */
#include "../ref_common.h"

static unsigned popc(uint32_t x)
{
	unsigned n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static void votes(const int32_t *in, uint32_t *out, int grid, int block)
{
	for (int b = 0; b < grid; b++) {
		const int32_t *bv = in + b * block;
		uint32_t cnt = 0;
		int and_gt = 1, or_777 = 0, or_neg = 0, and_neg = 1;
		for (int t = 0; t < block; t++) {
			cnt += bv[t] > 0;
			and_gt &= bv[t] > -1000;
			or_777 |= bv[t] == 777;
			or_neg |= bv[t] < 0;
			and_neg &= bv[t] < 0;
		}
		for (int w0 = 0; w0 < block; w0 += 32) {
			int nl = block - w0 < 32 ? block - w0 : 32;
			const int32_t *v = bv + w0;
			uint32_t m = nl == 32 ? 0xffffffffu : (1u << nl) - 1;
			uint32_t pos = 0, odd = 0, lo_odd_gt = 0, lane10 = 0;
			int all900 = 1, any990 = 0, all500 = 1, any800 = 0, any5000 = 0;
			for (int l = 0; l < nl; l++) {
				pos |= (uint32_t)(v[l] > 0) << l;
				odd |= (uint32_t)(v[l] & 1) << l;
				all900 &= v[l] > -900;
				any990 |= v[l] > 990;
				any5000 |= v[l] == 5000;
				if (v[l] & 1) {
					lo_odd_gt |= (uint32_t)(v[l] > 0) << l;
					all500 &= v[l] > -500;
				} else {
					lane10 |= (uint32_t)(l > 10) << l;
					if (l < 20)
						any800 |= v[l] < -800;
				}
			}
			int uni40 = 1;				/* lane < 40 holds for every lane */
			int uni8 = nl <= 8;			/* lane < 8 splits the warp */
			for (int l = 0; l < nl; l++) {
				uint32_t *o = out + 8 * (b * block + w0 + l), r;
				o[0] = m;
				o[1] = pos;
				o[2] = (uint32_t)(all900 | any990 << 1 | uni40 << 2 | uni8 << 3 | 1 << 4 |
						  any5000 << 5);
				if (v[l] & 1) {
					r = 1u | lo_odd_gt << 1;
					r ^= (uint32_t)all500 << 31;
				} else {
					r = popc(lane10) << 8;
					if (l < 20)
						r |= 1u << 16 | (uint32_t)any800 << 17;
				}
				o[3] = r;
				uint32_t trace = 0;
				for (int k = 0; k < (v[l] & 7); k++) {
					uint32_t act = 0;
					for (int q = 0; q < nl; q++)
						act += (v[q] & 7) > k;
					trace += act << (k * 4 % 28);
				}
				o[4] = trace;
				o[5] = cnt;
				o[6] = (uint32_t)(and_gt | or_777 << 1 | or_neg << 2 | and_neg << 3);
				o[7] = 0xaaaaaaaau & m;
			}
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[192];
	static uint32_t out96[1536], out80[1280];
	REF_RANDOM_INT(int32_t, in, 192, 171, -1000, 1000);
	votes(in, out96, 2, 96);
	votes(in, out80, 2, 80);
	ref_write(argv[1], "out96", out96, sizeof out96);
	ref_write(argv[1], "out80", out80, sizeof out80);
	return 0;
}
