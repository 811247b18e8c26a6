// spg: GUFI's SP at Table I's shape: dot products of vectorN pairs of
// elementN floats, laid out back to back (pair p is A[p*elementN ...] and
// B[...]). The kernel is examples/scalarprod/scalarprod.cu's, under the CUDA
// SDK's name and signature, scalarProdGPU(float *d_C, float *d_A, float *d_B,
// int vectorN, int elementN), so that it is named as in GUFI's tables
// (_Z13scalarProdGPUPfS_S_ii): grid-stride over pairs, each thread a strided
// partial sum, then a shared-memory tree reduction. The float summation order
// is the contract spg.c's reference reproduces; change them together.
// PTX: nvcc -ptx -arch=sm_75.

#define SP_MAX_THREADS 256

// blockDim.x must be a power of two no larger than SP_MAX_THREADS.
__global__ void scalarProdGPU(float *d_C, float *d_A, float *d_B, int vectorN, int elementN)
{
	__shared__ float part[SP_MAX_THREADS];
	unsigned tid = threadIdx.x;

	for (int p = blockIdx.x; p < vectorN; p += gridDim.x) {
		const float *pa = d_A + (size_t)p * elementN;
		const float *pb = d_B + (size_t)p * elementN;
		float sum = 0.0f;

		// Strided partial sum: thread t adds elements t, t+blockDim.x, ...
		// nvcc contracts the multiply-add into fma.rn.f32.
		for (int i = tid; i < elementN; i += blockDim.x)
			sum += pa[i] * pb[i];
		part[tid] = sum;

		// Tree reduction: in round s, thread t < s adds part[t + s].
		for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
			__syncthreads();
			if (tid < s)
				part[tid] += part[tid + s];
		}
		if (tid == 0)
			d_C[p] = part[0];
		// part[] is rewritten for the next pair only after thread 0 read it.
		__syncthreads();
	}
}
