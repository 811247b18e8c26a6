// Module-scope variables: initialised __constant__ int/float arrays (ld.const),
// initialised and zero-initialised __device__ globals (.global), an .align 16 array
// read as int4, read-modify-write of globals that persists across launches.

__constant__ int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ float cftab[4] = {0.5f, -1.25f, 2.0f, 1024.0f};
__device__ int g_scale = 7;
__device__ unsigned long long g_total = 1000;
__device__ __align__(16) int g_aligned[8] = {10, 20, 30, 40, 50, 60, 70, 80};
__device__ short g_shorts[4] = {-1, 2, -3, 4};
__device__ int g_hits;

extern "C" __global__ void modvars(const int *in, int *out, float *outf, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	out[2 * i] = x * g_scale + ctab[x & 7] + g_aligned[i & 7] + g_shorts[i & 3];
	int4 v = reinterpret_cast<const int4 *>(g_aligned)[i & 1];
	out[2 * i + 1] = v.x - v.y + v.z * v.w;
	outf[i] = cftab[i & 3] * (float)(x & 15);
	atomicAdd(&g_total, (unsigned long long)(x & 0xff));
	atomicAdd(&g_hits, 1);
}

extern "C" __global__ void modvars_fin(unsigned long long *res)
{
	if (threadIdx.x != 0)
		return;
	res[0] = g_total;
	res[1] = g_hits;
	g_scale = g_scale * 2 + 1;
	res[2] = g_scale;
	g_aligned[1] += 5;
	res[3] = g_aligned[1];
}
