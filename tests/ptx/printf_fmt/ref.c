/* Reference for printf_fmt: the text the host's printf makes of the same
 * values, in the order CUDA's buffer is flushed (flipsim's order): CTA by
 * CTA, warp by warp, each printf the warp executes in turn, its lanes in
 * order. printf returns the number of arguments (9). */
#include "../ref_common.h"

enum { N = 192, LIVE = 180, BLOCK = 64 };

static char text[1 << 20];
static size_t len;

#define OUT(...) (len += (size_t)snprintf(text + len, sizeof text - len, __VA_ARGS__))

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t iv[N], out[N];
	static float fv[N];
	REF_RANDOM_INT(int32_t, iv, N, 81, -100000, 100000);
	ref_random_f32(fv, N, 82, -500.0, 500.0);
	for (int w0 = 0; w0 < N; w0 += 32) { /* CTAs of 64 are 2 whole warps: warp order is thread order */
		int end = w0 + 32 < LIVE ? w0 + 32 : LIVE;
		for (int i = w0; i < end; i++) {
			int a = iv[i];
			OUT("A %d %i %u %x %X %o [%c] %s|%hd\n", i, a, (unsigned)a, (unsigned)a, (unsigned)a, (unsigned)a & 0777,
			    'a' + i % 26, "flipsim", (short)a);
			out[i] = 9;
		}
		for (int k = 0; k <= 3; k++)
			for (int i = w0; i < end; i++)
				if (k <= (i & 3)) {
					float f = fv[i];
					OUT("B%d.%d %f %e %g %08.3f|%-4d|%5d\n", i, k, (double)f, (double)(f * (float)(k + 1)),
					    (double)f / 3.0, (double)f, k, iv[i] % 1000);
				}
		for (int i = w0; i < end; i++)
			if (i & 1) {
				long long big = (long long)iv[i] * 1000003ll;
				OUT("C %lld %llu %llx %+d %%\n", big, (unsigned long long)big, (unsigned long long)big, iv[i]);
			}
	}
	ref_write(argv[1], "out", out, sizeof out);
	char path[4096];
	snprintf(path, sizeof path, "%s/printf.txt", argv[1]);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "ref: cannot write %s\n", path);
		return 1;
	}
	return 0;
}
