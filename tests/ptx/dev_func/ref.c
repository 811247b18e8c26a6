/* Reference for dev_func: the results of the __noinline__ device functions of
 * dev_func.cu (all float/double values involved are exact). */
#include "../ref_common.h"

static int32_t mix(int32_t a, int32_t b) { return (int32_t)(((uint32_t)a * 31u) ^ (uint32_t)(b + 7)); }
static int32_t twice_mix(int32_t a, int32_t b) { return mix(mix(a, b), a - b); }
static float scale(float x, int k) { return x * 0.5f + (float)k; }

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 250, BLOCK = 64 };
	static int32_t in[N], out[4 * N];
	static float outf[N];
	static double outd[N];

	REF_RANDOM_INT(int32_t, in, N, 101, -1000000, 1000000);
	for (int i = 0; i < N; i++) {
		int32_t x = in[i], r, t = i % BLOCK;
		if (t % 3 == 0)
			r = mix(x, i);
		else if (t % 3 == 1)
			r = twice_mix(x, 5);
		else
			r = -mix(i, x);
		int32_t acc = 0;
		for (int k = 0; k < (i & 3) + 1; k++)
			acc += mix(acc, k);
		int32_t key = x + 1;
		float weight = (float)(x & 255) * 2.0f;
		int16_t tag = (int16_t)(i - 3);
		out[4 * i] = r;
		out[4 * i + 1] = acc;
		out[4 * i + 2] = key + (int32_t)weight + tag;
		out[4 * i + 3] = tag;
		outf[i] = scale((float)(x % 1000), i & 15);
		outd[i] = (double)x * 4.0 - (double)scale(1.0f, i);
	}
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "outf", outf, sizeof outf);
	ref_write(argv[1], "outd", outd, sizeof outd);
	return 0;
}
