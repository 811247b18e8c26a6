// A device assert() that fails in thread 5 of block 1, after a printf:
// DUE assert, CUDA's message on stderr, the printf text on stdout.
#include <cassert>
#include <cstdio>

extern "C" __global__ void checked(const int *v, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		printf("block %d starts\n", blockIdx.x);
	assert(v[i] >= 0);
	out[i] = v[i];
}
