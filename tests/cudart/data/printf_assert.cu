// A CUDA program using device printf, malloc/free and assert, for
// tests/cudart/nvcc.sh: with no argument it prints three lines from the
// kernel and the result; with one, every thread's assert fails and
// cudaDeviceSynchronize reports cudaErrorAssert (710).
#include <cassert>
#include <cstdio>

__global__ void work(int *out, int n)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	if (i < 3)
		printf("thread %d of block %d: %.2f\n", i, blockIdx.x, 1.5 * i);
	int *p = (int *)malloc(16);
	if (p) {
		p[0] = i;
		out[i] = p[0] * 2;
		free(p);
	}
	assert(n > 0);
}

int main(int argc, char **argv)
{
	int *d, h[64];
	size_t fifo = 0;
	if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20) != cudaSuccess ||
	    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize) != cudaSuccess || fifo != 1 << 20)
		return 1;
	cudaMalloc(&d, sizeof h);
	work<<<2, 32>>>(d, argc > 1 ? 0 : 1);
	cudaError_t e = cudaDeviceSynchronize();
	printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
	if (e != cudaSuccess)
		return 3;
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	printf("h[5] = %d, h[63] = %d\n", h[5], h[63]);
	return 0;
}
