// C++ kernels with mangled names (a namespace and a template instance),
// __launch_bounds__ (.maxntid, .minnctapersm), #pragma unroll 1 (.pragma
// "nounroll"), and a launch repeated 3 times that takes the repeat index ($iter).

namespace flip {

__global__ void __launch_bounds__(128, 2) step(int *data, int iter)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = data[i];
	int s = 0;
#pragma unroll 1
	for (int k = 0; k <= (i & 7); k++)
		s += (v >> k) & 3;
	data[i] = v * 2 + s + iter * 1000;
}

}  // namespace flip

template <int K>
__global__ void __launch_bounds__(64) scale(const int *in, long long *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = (long long)in[i] * K;
}

template __global__ void scale<-3>(const int *, long long *);
