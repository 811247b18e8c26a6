// Source of parse_full.ptx (nvcc -ptx -arch=sm_75 -O3 parse_full.cu): a
// module exercising the PTX front end (test_parse.c, "nvcc_module").
// Each thread i of `full` writes out[i] = a value the test recomputes.
__constant__ float coef[4] = {0.5f, 1.5f, -2.0f, 4.0f};
__device__ int table[5] = {3, 1, 4, 1, 5};
__device__ __align__(16) unsigned counter[4];

__device__ __noinline__ int mix(int a, int b, float c)
{
	return (a * 31) ^ (b + 7) ^ (int)c;
}

__device__ __noinline__ int walk(int n, int seed)
{
	int buf[16];  // dynamically indexed: a .local depot
#pragma unroll 1
	for (int k = 0; k < 16; k++)
		buf[k] = seed * k + table[k % 5];
	int s = 0;
#pragma unroll 1
	for (int k = 0; k < n; k++)
		s += buf[(k * 7 + seed) & 15];
	return s;
}

__global__ void __launch_bounds__(256, 2) full(int *out, int n)
{
	__shared__ int tile[64];
	extern __shared__ int dyn[];
	int t = threadIdx.x;
	tile[t] = t * 3;
	dyn[t] = t + 100;
	__syncthreads();
	int v = tile[63 - t] + dyn[(t + 1) & 63];
	unsigned r;
	asm("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %1, 31;\n\tselp.u32 %0, 1, 2, p;\n}" : "=r"(r) : "r"(t));
	v += (int)r;
	if (t & 1)
		v += mix(t, n, coef[t & 3] * (float)t);
	else
		v -= walk(t & 15, n);
	out[t] = v;
	atomicAdd(&counter[t & 3], 1u);
}

// Copies the module's global variables out, so the host can check them.
__global__ void dump(unsigned *o)
{
	int t = threadIdx.x;
	if (t < 4)
		o[t] = counter[t];
	else if (t < 9)
		o[t] = table[t - 4];
}
