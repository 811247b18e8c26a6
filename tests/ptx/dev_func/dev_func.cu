// Device functions (.func, call, ret, .param): __noinline__ functions taking and
// returning int, float, double and a small struct by value, nested calls, calls in
// divergent code and in a loop.

struct pair {
	int key;
	float weight;
	short tag;
};

__device__ __noinline__ int mix(int a, int b)
{
	return (a * 31) ^ (b + 7);
}

__device__ __noinline__ float scale(float x, int k)
{
	return x * 0.5f + (float)k;
}

__device__ __noinline__ double widen(double d, float f)
{
	return d * 4.0 - (double)f;
}

__device__ __noinline__ int twice_mix(int a, int b)	/* calls another function */
{
	return mix(mix(a, b), a - b);
}

__device__ __noinline__ struct pair make_pair(int k, float w, short t)
{
	struct pair p;
	p.key = k + 1;
	p.weight = w * 2.0f;
	p.tag = (short)(t - 3);
	return p;
}

__device__ __noinline__ int pair_sum(struct pair p)	/* struct by value */
{
	return p.key + (int)p.weight + p.tag;
}

extern "C" __global__ void calls(const int *in, int *out, float *outf, double *outd, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	int r;
	if (threadIdx.x % 3 == 0)
		r = mix(x, i);
	else if (threadIdx.x % 3 == 1)
		r = twice_mix(x, 5);
	else
		r = -mix(i, x);
	int acc = 0;
	for (int k = 0; k < (i & 3) + 1; k++)
		acc += mix(acc, k);
	struct pair p = make_pair(x, (float)(x & 255), (short)i);
	out[4 * i] = r;
	out[4 * i + 1] = acc;
	out[4 * i + 2] = pair_sum(p);
	out[4 * i + 3] = p.tag;
	outf[i] = scale((float)(x % 1000), i & 15);
	outd[i] = widen((double)x, scale(1.0f, i));
}
