// vadd: c[i] = a[i] + b[i] over n floats, one element per thread.
// The smallest flipsim workload (examples/README.md); PTX: nvcc -ptx -arch=sm_75.

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}
