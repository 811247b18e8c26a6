// Kernels for tests/e2e.sh: one that works and three that end in a DUE.
// Regenerate the PTX with:
//   /usr/local/cuda/bin/nvcc -ptx -arch=sm_75 -o e2e.ptx e2e.cu
#include <stdint.h>

// out32[i] = i * k; out64[i] = i (two outputs of different sizes for --dump).
extern "C" __global__ void fill(uint32_t *out32, uint64_t *out64, uint32_t k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out32[i] = (uint32_t)i * k;
		out64[i] = (uint64_t)i;
	}
}

// Writes `off` elements past the start of p: far outside the allocation.
extern "C" __global__ void oob(int *p, int off)
{
	p[threadIdx.x + off] = 1;
}

// Thread 0 executes trap.
extern "C" __global__ void trapper(int *p)
{
	if (threadIdx.x == 0)
		asm volatile("trap;");
	p[threadIdx.x] = 2;
}

// Spins while *flag is 0, and nothing ever sets it.
extern "C" __global__ void spin(volatile int *flag, int *p)
{
	while (flag[0] == 0)
		;
	p[threadIdx.x] = 3;
}
