/* Reference for shared_mem: block tree reductions (same addition order as the
 * kernel, so the float sums round identically), a tiled transpose and the
 * dynamic-shared-memory permutation. */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t rin[1024], rout[4], mat[2048], matt[2048], din[192], dout[192];
	static float rinf[1024], routf[4];
	static double doutd[192];

	REF_RANDOM_INT(int32_t, rin, 1024, 121, -1000000, 1000000);
	ref_random_f32(rinf, 1024, 122, -1, 1);
	for (int b = 0; b < 4; b++) {
		int32_t si[256];
		float sf[256];
		for (int t = 0; t < 256; t++) {
			si[t] = rin[b * 256 + t];
			sf[t] = rinf[b * 256 + t];
		}
		for (int s = 128; s > 0; s >>= 1)
			for (int t = 0; t < s; t++) {
				si[t] += si[t + s];
				sf[t] += sf[t + s];
			}
		rout[b] = si[0];
		routf[b] = sf[0];
	}

	const int w = 64, h = 32;
	for (int k = 0; k < 2048; k++)
		mat[k] = 3 * k;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			matt[x * h + y] = mat[y * w + x];

	REF_RANDOM_INT(int32_t, din, 192, 123, -100000, 100000);
	const int n = 96;
	for (int b = 0; b < 2; b++)
		for (int t = 0; t < n; t++) {
			const int32_t *si = din + b * n;
			int i = b * n + t;
			dout[i] = si[n - 1 - t] - si[(t + 1) % n];
			doutd[i] = (double)si[(t + 5) % n] * 0.25 + (double)si[n - 1 - t] * 0.25;
		}

	ref_write(argv[1], "rout", rout, sizeof rout);
	ref_write(argv[1], "routf", routf, sizeof routf);
	ref_write(argv[1], "matt", matt, sizeof matt);
	ref_write(argv[1], "dout", dout, sizeof dout);
	ref_write(argv[1], "doutd", doutd, sizeof doutd);
	return 0;
}
