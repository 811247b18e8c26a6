// Recursion through the per-thread call stack: fib (two calls), mutual
// recursion (even/odd), a divide-and-conquer sum whose depth differs
// across lanes, and a recursive function with a .local array in its frame.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ bool is_odd(int n);
__device__ __noinline__ bool is_even(int n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(int n) { return n == 0 ? false : is_even(n - 1); }

__device__ __noinline__ int rsum(const int *a, int lo, int hi)
{
	if (hi - lo <= 1)
		return hi > lo ? a[lo] : 0;
	int mid = lo + (hi - lo) / 2;
	return rsum(a, lo, mid) ^ (rsum(a, mid, hi) * 3);
}

__device__ __noinline__ int framed(int n, int k)
{
	int buf[8];
	for (int i = 0; i < 8; i++)
		buf[i] = n * 7 + i;
	int r = n > 0 ? framed(n - 1, k + 1) : k;
	return r + buf[(n + k) & 7];
}

extern "C" __global__ void recurse(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	out[4 * i] = fib(x & 7);
	out[4 * i + 1] = is_even(x & 15);
	out[4 * i + 2] = rsum(in, i, i + (x & 7) + 1 < n ? i + (x & 7) + 1 : n);
	out[4 * i + 3] = framed(x & 7, i);
}
