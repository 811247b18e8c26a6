/* Reference for calls_recursive: the recursive device functions of
 * calls_recursive.cu, in C. */
#include "../ref_common.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int is_even(int n) { return n % 2 == 0; }

static int rsum(const int32_t *a, int lo, int hi)
{
	if (hi - lo <= 1)
		return hi > lo ? a[lo] : 0;
	int mid = lo + (hi - lo) / 2;
	return (int)((uint32_t)rsum(a, lo, mid) ^ ((uint32_t)rsum(a, mid, hi) * 3u));
}

static int framed(int n, int k)
{
	int buf[8];
	for (int i = 0; i < 8; i++)
		buf[i] = n * 7 + i;
	int r = n > 0 ? framed(n - 1, k + 1) : k;
	return r + buf[(n + k) & 7];
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 200 };
	static int32_t in[N], out[4 * N];
	REF_RANDOM_INT(int32_t, in, N, 161, 0, 1000000);
	for (int i = 0; i < N; i++) {
		int x = in[i], hi = i + (x & 7) + 1 < N ? i + (x & 7) + 1 : N;
		out[4 * i] = fib(x & 7);
		out[4 * i + 1] = is_even(x & 15);
		out[4 * i + 2] = rsum(in, i, hi);
		out[4 * i + 3] = framed(x & 7, i);
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
