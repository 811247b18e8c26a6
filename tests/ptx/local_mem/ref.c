/* Reference for local_mem: the per-thread array walk and histogram of
 * local_mem.cu, evaluated thread by thread. */
#include "../ref_common.h"

static int32_t histo_max(const int32_t *v, int n)
{
	int32_t h[16] = {0};
	for (int k = 0; k < n; k++)
		h[v[k] & 15]++;
	int best = 0;
	for (int k = 1; k < 16; k++)
		if (h[k] > h[best])
			best = k;
	return best * 100 + h[best];
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 200 };
	static int32_t in[N], out[4 * N];

	REF_RANDOM_INT(int32_t, in, N, 111, -50000, 50000);
	for (int i = 0; i < N; i++) {
		int32_t a[24];
		uint64_t w[6] = {0};
		for (int k = 0; k < 24; k++)
			a[k] = in[(i * 7 + k * 13) % N];
		int32_t idx = in[i] & 31, s = 0;
		for (int k = 0; k < 40; k++) {
			idx = (idx * 5 + a[idx % 24]) & 1023;
			s += a[idx % 24];
			a[(idx >> 3) % 24] ^= k;
			w[idx % 6] += (uint32_t)idx;
		}
		out[4 * i] = s;
		out[4 * i + 1] = histo_max(a, 24);
		out[4 * i + 2] = (int32_t)(uint32_t)(w[i % 6] ^ (w[(i + 1) % 6] << 3));
		out[4 * i + 3] = a[in[i] & 15];
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
