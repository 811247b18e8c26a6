// Indirect calls: function-pointer tables in .global and .const memory
// (address initializers, mov.u64 of a function), divergent targets within
// a warp, a pointer chosen per lane, and an indirect call that recurses.
typedef int (*op_t)(int, int);

__device__ __noinline__ int add(int a, int b) { return a + b; }
__device__ __noinline__ int mul(int a, int b) { return a * b; }
__device__ __noinline__ int sub(int a, int b) { return a - b; }
__device__ __noinline__ int mix(int a, int b) { return (a * 31) ^ (b + 7); }

__device__ op_t table[4] = {add, mul, sub, mix};
__constant__ op_t ctable[4] = {mix, sub, mul, add};

// walk applies a table entry and recurses through a pointer to itself
typedef int (*walk_t)(int, int);
__device__ __noinline__ int walk(int n, int acc);
__device__ walk_t walker = walk;
__device__ __noinline__ int walk(int n, int acc)
{
	if (n == 0)
		return acc;
	return walker(n - 1, table[n & 3](acc, n));
}

extern "C" __global__ void indirect(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	out[4 * i] = table[i & 3](x, i);                 // divergent: 4 targets per warp
	out[4 * i + 1] = ctable[(x >> 3) & 3](x, 5);     // divergent by data
	op_t f = (x & 1) ? add : mul;                    // mov.u64 of a function
	out[4 * i + 2] = f(i, 3);
	out[4 * i + 3] = walk(x & 7, i);
}
