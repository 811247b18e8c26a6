// vaddg: GUFI's VADD at Table I's shape: c[i] = a[i] + b[i] over n floats,
// one element per thread. The kernel is examples/vadd/vadd.cu's, under the
// CUDA SDK's name and signature, VecAdd(const float *, const float *,
// float *, int), so that it is named as in GUFI's tables (_Z6VecAddPKfS0_Pfi).
// PTX: nvcc -ptx -arch=sm_75.

__global__ void VecAdd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}
