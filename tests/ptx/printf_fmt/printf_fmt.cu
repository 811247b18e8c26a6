// printf as nvcc emits it (vprintf with a format in .global and arguments
// packed in a local buffer: char and short promoted to int, float to
// double, 8-byte alignment of long long, double and pointers): %d %i %u %x
// %X %o %c %s %f %e %g %lld %llu %llx %5d %-4d| %08.3f %+d %% and
// widths/precisions; in a loop with per-thread trip counts and in a
// one-sided divergent branch, over 3 CTAs of 2 warps (one partial).
#include <cstdio>

extern "C" __global__ void pk(const int *iv, const float *fv, const char *name, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a = iv[i];
	float f = fv[i];
	short s = (short)a;
	char c = (char)('a' + (i % 26));
	long long big = (long long)a * 1000003ll;
	int r = printf("A %d %i %u %x %X %o [%c] %s|%hd\n", i, a, (unsigned)a, (unsigned)a, (unsigned)a,
	               (unsigned)a & 0777, c, name, s);
	for (int k = 0; k <= (i & 3); k++)
		printf("B%d.%d %f %e %g %08.3f|%-4d|%5d\n", i, k, f, f * (k + 1), (double)f / 3.0, f, k, a % 1000);
	if (i & 1)
		printf("C %lld %llu %llx %+d %%\n", big, (unsigned long long)big, (unsigned long long)big, a);
	out[i] = r;
}
