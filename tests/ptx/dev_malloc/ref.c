/* Reference for dev_malloc: what each thread computes from its own block
 * (the checks all true: 7). */
#include "../ref_common.h"

enum { N = 160, LIVE = 150 };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static uint32_t sum[N], chk[N], sum2[N];
	for (int i = 0; i < LIVE; i++) {
		int len = (i % 5 + 1) * 3;
		uint32_t s = 0, t = 0;
		for (int k = 0; k < len; k++)
			s += (uint32_t)(i * 1000 + k);
		for (int k = len - 1; k >= 0; k--)
			t = t * 3 + (uint32_t)(i * 1000 + k);
		sum[i] = s;
		chk[i] = 7;
		sum2[i] = t + 1;
	}
	ref_write(argv[1], "sum", sum, sizeof sum);
	ref_write(argv[1], "chk", chk, sizeof chk);
	ref_write(argv[1], "sum2", sum2, sizeof sum2);
	return 0;
}
