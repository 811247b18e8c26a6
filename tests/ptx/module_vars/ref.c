/* Reference for module_vars: module-scope globals start from their PTX
 * initialisers and keep their values from one launch to the next. */
#include "../ref_common.h"

static const int32_t ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static const float cftab[4] = {0.5f, -1.25f, 2.0f, 1024.0f};
static int32_t g_scale = 7;
static uint64_t g_total = 1000;
static int32_t g_aligned[8] = {10, 20, 30, 40, 50, 60, 70, 80};
static const int16_t g_shorts[4] = {-1, 2, -3, 4};
static int32_t g_hits;

static void modvars(const int32_t *in, int32_t *out, float *outf, int n)
{
	for (int i = 0; i < n; i++) {
		int32_t x = in[i];
		out[2 * i] = x * g_scale + ctab[x & 7] + g_aligned[i & 7] + g_shorts[i & 3];
		const int32_t *v = g_aligned + 4 * (i & 1);
		out[2 * i + 1] = v[0] - v[1] + v[2] * v[3];
		outf[i] = cftab[i & 3] * (float)(x & 15);
		g_total += (uint64_t)(x & 0xff);
		g_hits++;
	}
}

static void modvars_fin(uint64_t *res)
{
	res[0] = g_total;
	res[1] = (uint64_t)(int64_t)g_hits;
	g_scale = g_scale * 2 + 1;
	res[2] = (uint64_t)(int64_t)g_scale;
	g_aligned[1] += 5;
	res[3] = (uint64_t)(int64_t)g_aligned[1];
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[300], out1[600], out2[600];
	static float outf1[300], outf2[300];
	static uint64_t res1[4], res2[4];

	REF_RANDOM_INT(int32_t, in, 300, 131, -1000000, 1000000);
	modvars(in, out1, outf1, 300);
	modvars_fin(res1);
	modvars(in, out2, outf2, 300);
	modvars_fin(res2);
	ref_write(argv[1], "out1", out1, sizeof out1);
	ref_write(argv[1], "outf1", outf1, sizeof outf1);
	ref_write(argv[1], "res1", res1, sizeof res1);
	ref_write(argv[1], "out2", out2, sizeof out2);
	ref_write(argv[1], "outf2", outf2, sizeof outf2);
	ref_write(argv[1], "res2", res2, sizeof res2);
	return 0;
}
