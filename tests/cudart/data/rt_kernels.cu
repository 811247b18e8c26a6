// The kernels of the CUDA runtime's tests (tests/cudart/): PTX made with
// nvcc -ptx -arch=sm_75 rt_kernels.cu, committed as rt_kernels.ptx; the
// fatbinaries beside it are assembled from that PTX (make-fixtures.sh).

__device__ int counter[4];          // cudaMemcpyToSymbol/FromSymbol, cudaGetSymbolAddress
__constant__ float scale[2];        // the constant bank

// c[i] = (a[i] + b[i]) * scale[0] + counter[i & 3]
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = (a[i] + b[i]) * scale[0] + (float)counter[i & 3];
}

// a block-wide sum through shared memory: the attribute and occupancy queries see its 1 KiB
extern "C" __global__ void blocksum(const int *in, int *out)
{
	__shared__ int s[256];
	int t = threadIdx.x;
	s[t] = in[blockIdx.x * blockDim.x + t];
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k /= 2) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

// increments every element: managed memory, launches by cudaLaunchKernel
extern "C" __global__ void inc(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += 1;
}

// stores through the pointer it is given: a bad one is a DUE
extern "C" __global__ void poke(int *p)
{
	*p = 42;
}
