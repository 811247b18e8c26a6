/* Reference for kernel_params: every scalar parameter read back (sign- or
 * zero-extended as its C type says) plus a few values computed from them. */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	const int8_t c = -100, c2 = 127;
	const uint8_t uc = 200;
	const int16_t s = -30000, s2 = -2;
	const uint16_t us = 65000;
	const int32_t i = -123456789;
	const uint32_t u = 4000000000u;
	const int64_t ll = -1234567890123LL;
	const uint64_t ull = 12345678901234567ULL;
	const double d = 0.1;
	const float f = -2.75f;
	static int32_t p[32];
	static int64_t out[384];
	static double outd[32];
	static float outf[32];

	for (int k = 0; k < 32; k++)
		p[k] = -16 + 5 * k;
	for (int t = 0; t < 32; t++) {
		int64_t *o = out + 12 * t;
		o[0] = c;
		o[1] = uc;
		o[2] = s;
		o[3] = us;
		o[4] = i;
		o[5] = u;
		o[6] = c2 + t;
		o[7] = ll;
		o[8] = (int64_t)ull;
		o[9] = s2 * t;
		o[10] = p[t];
		o[11] = (int64_t)(c * uc) + (s ^ us) - (ll >> 3);	/* gcc: >> is arithmetic */
		outd[t] = d * (double)(t + 1);
		outf[t] = f + (float)t;
	}
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "outd", outd, sizeof outd);
	ref_write(argv[1], "outf", outf, sizeof outf);
	return 0;
}
