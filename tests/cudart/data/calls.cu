// A CUDA program with __device__ function pointers and recursion, for
// tests/cudart/nvcc.sh: a table of pointers in device memory, a pointer
// read back with cudaMemcpyFromSymbol and passed to a kernel, mutual
// recursion and fib, cudaLimitStackSize read and raised. With an argument
// the recursion is too deep for the default stack: cudaErrorHardwareStackError.
#include <cstdio>

typedef int (*op_t)(int, int);
__device__ __noinline__ int add(int a, int b) { return a + b; }
__device__ __noinline__ int mul(int a, int b) { return a * b; }
__device__ op_t table[2] = {add, mul};
__device__ op_t chosen = mul;

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ bool is_odd(int n);
__device__ __noinline__ bool is_even(int n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(int n) { return n == 0 ? false : is_even(n - 1); }
__device__ __noinline__ int depth(int n, const int *p)
{
	if (n == 0)
		return p[0];
	int r = depth(n - 1, p);
	return r * 3 + n;
}

__global__ void calls(int *out, op_t f, int deep)
{
	int i = threadIdx.x;
	out[4 * i] = table[i & 1](i, 10);
	out[4 * i + 1] = f(i, 3);
	out[4 * i + 2] = fib(i % 10) + 100 * is_even(i);
	out[4 * i + 3] = depth(deep + (i & 3), out);
}

int main(int argc, char **argv)
{
	int *d, h[32 * 4];
	op_t f;
	size_t stack = 0;
	if (cudaDeviceGetLimit(&stack, cudaLimitStackSize) != cudaSuccess)
		return 1;
	printf("stack %zu\n", stack);
	if (argc == 1 && (cudaDeviceSetLimit(cudaLimitStackSize, 8192) != cudaSuccess ||
	                  cudaDeviceGetLimit(&stack, cudaLimitStackSize) != cudaSuccess))
		return 1;
	printf("stack %zu\n", stack);
	cudaMemcpyFromSymbol(&f, chosen, sizeof f);
	cudaMalloc(&d, sizeof h);
	cudaMemset(d, 0, sizeof h);
	calls<<<1, 32>>>(d, f, 60);
	cudaError_t e = cudaDeviceSynchronize();
	printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
	if (e != cudaSuccess)
		return 3;
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	for (int i = 0; i < 32; i += 7)
		printf("%d: %d %d %d %d\n", i, h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]);
	return 0;
}
