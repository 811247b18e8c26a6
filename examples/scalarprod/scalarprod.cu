// scalarprod: dot products of npairs vector pairs of n floats each, laid out
// back to back (pair p is a[p*n .. p*n+n-1] and b[...]). After GUFI's SP
// benchmark shape: grid-stride over pairs, one block per pair at a time.
// The float summation order below is the contract ref.c reproduces byte for
// byte; change them together. PTX: nvcc -ptx -arch=sm_75.

#define SP_MAX_THREADS 256

// blockDim.x must be a power of two no larger than SP_MAX_THREADS.
extern "C" __global__ void scalarprod(const float *a, const float *b, float *c,
				      int npairs, int n)
{
	__shared__ float part[SP_MAX_THREADS];
	unsigned tid = threadIdx.x;

	for (int p = blockIdx.x; p < npairs; p += gridDim.x) {
		const float *pa = a + (size_t)p * n;
		const float *pb = b + (size_t)p * n;
		float sum = 0.0f;

		// Strided partial sum: thread t adds elements t, t+blockDim.x, ...
		// nvcc contracts the multiply-add into fma.rn.f32.
		for (int i = tid; i < n; i += blockDim.x)
			sum += pa[i] * pb[i];
		part[tid] = sum;

		// Tree reduction: in round s, thread t < s adds part[t + s].
		for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
			__syncthreads();
			if (tid < s)
				part[tid] += part[tid + s];
		}
		if (tid == 0)
			c[p] = part[0];
		// part[] is rewritten for the next pair only after thread 0 read it.
		__syncthreads();
	}
}
