// Shared memory: static __shared__ arrays with a __syncthreads tree reduction,
// a 2-D tile transpose with a 2-D block, and dynamic extern __shared__ memory
// whose size comes from the launch (JSON "shared").

#define TILE 16

extern "C" __global__ void reduce(const int *in, const float *inf, int *out, float *outf)
{
	__shared__ int si[256];
	__shared__ float sf[256];
	unsigned t = threadIdx.x;
	unsigned i = blockIdx.x * blockDim.x + t;
	si[t] = in[i];
	sf[t] = inf[i];
	__syncthreads();
	for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
		if (t < s) {
			si[t] += si[t + s];
			sf[t] += sf[t + s];
		}
		__syncthreads();
	}
	if (t == 0) {
		out[blockIdx.x] = si[0];
		outf[blockIdx.x] = sf[0];
	}
}

extern "C" __global__ void transpose(const int *in, int *out, int width, int height)
{
	__shared__ int tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	tile[threadIdx.y][threadIdx.x] = in[y * width + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void dynshared(const int *in, int *out, double *outd)
{
	extern __shared__ double dyn[];			/* blockDim.x doubles, then ints */
	int *si = (int *)(dyn + blockDim.x);
	unsigned t = threadIdx.x, n = blockDim.x;
	unsigned i = blockIdx.x * n + t;
	si[t] = in[i];
	dyn[t] = (double)in[i] * 0.25;
	__syncthreads();
	out[i] = si[n - 1 - t] - si[(t + 1) % n];
	outd[i] = dyn[(t + 5) % n] + dyn[n - 1 - t];
}
