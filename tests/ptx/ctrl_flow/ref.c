/* Reference for ctrl_flow: the per-thread result of every branch, loop and
 * switch of ctrl_flow.cu, evaluated thread by thread. */
#include "../ref_common.h"

static void flow(const int32_t *in, int32_t *out, int n, int mode, int grid, int block)
{
	for (int bx = 0; bx < grid; bx++)
		for (int t = 0; t < block; t++) {
			int i = bx * block + t;
			if (i >= n)
				continue;
			int32_t x = in[i], *o = out + 6 * i;
			if (x % 5 == 0) {
				for (int k = 0; k < 6; k++)
					o[k] = -1 - k;
				continue;
			}
			int32_t acc;
			if (t & 1)
				acc = (t & 2) ? x * 3 : x - 7;
			else if (x > 0)
				acc = (x ^ 0x55) + ((t & 4) ? 100 : 0);
			else
				acc = -x;

			int32_t trip = (x & 31) + (t & 7), s = 0;
			for (int k = 0; k < trip; k++) {
				if (k % 3 == 1)
					continue;
				s += k * (t + 1);
				if (s > 500 + x % 100)
					break;
			}

			uint32_t v = (uint32_t)x % 1000u + 1u;
			int32_t steps = 0;
			while (v != 1 && steps < 150) {
				v = (v & 1) ? 3 * v + 1 : v >> 1;
				steps++;
			}

			int32_t sw, sel = (x >> 4) & 7;	/* gcc: >> is arithmetic */
			switch (sel) {
			case 0: sw = 11; break;
			case 2: sw = acc + s; break;
			case 3: sw = s * 2; break;
			case 5: sw = steps - acc; break;
			default: sw = 1000 + sel; break;
			}

			int32_t u = 0;
			if (mode > 0)
				for (int k = 0; k < mode; k++)
					u += (x >> k) & 1;
			else
				u = -1;
			o[0] = acc; o[1] = s; o[2] = steps; o[3] = sw; o[4] = u; o[5] = trip;
		}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[300], out1[1800], out2[1800];
	REF_RANDOM_INT(int32_t, in, 300, 91, -100000, 100000);
	flow(in, out1, 300, 5, 3, 128);
	flow(in, out2, 300, 0, 3, 128);
	ref_write(argv[1], "out1", out1, sizeof out1);
	ref_write(argv[1], "out2", out2, sizeof out2);
	return 0;
}
