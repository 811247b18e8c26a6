// vadd_cuda — tests/engine/data/vadd_host.c as a plain CUDA program: the same
// kernel (vadd.cu's), inputs and digest, written against the CUDA runtime.
// Built with `nvcc -cudart shared -arch=sm_75` it runs on flipsim unchanged
// (README, "Bring your own CUDA program"); tests/cudart/nvcc.sh checks that
// its output equals vadd_host's and that campaigns on both agree.
// Prints the output's FNV-1a digest; exits 3 after a DUE, 1 on other errors.
#include <cstdint>
#include <cstdio>

#include "vadd.cu"

enum { N = 4096, BLOCK = 256 };

static int check(cudaError_t e, const char *what)
{
	if (e == cudaSuccess)
		return 0;
	fprintf(stderr, "vadd_cuda: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
	return e == cudaErrorIllegalAddress || e == cudaErrorMisalignedAddress || e == cudaErrorLaunchFailure ||
	       e == cudaErrorIllegalInstruction || e == cudaErrorInvalidPc || e == cudaErrorHardwareStackError ||
	       e == cudaErrorLaunchTimeout || e == cudaErrorECCUncorrectable ? 3 : 1;
}

int main()
{
	static float a[N], b[N], c[N];
	float *da, *db, *dc;
	int rc;

	for (int i = 0; i < N; i++) { // as vadd_host: start + i * step, rounded once
		a[i] = (float)(-1.0 + (double)i * 0.00048828125);
		b[i] = (float)(0.75 + (double)i * -0.000244140625);
	}
	if ((rc = check(cudaMalloc(&da, sizeof a), "cudaMalloc")) || (rc = check(cudaMalloc(&db, sizeof b), "cudaMalloc")) ||
	    (rc = check(cudaMalloc(&dc, sizeof c), "cudaMalloc")) ||
	    (rc = check(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice), "cudaMemcpy")) ||
	    (rc = check(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice), "cudaMemcpy")))
		return rc;
	vadd<<<N / BLOCK, BLOCK>>>(da, db, dc, N);
	if ((rc = check(cudaGetLastError(), "vadd")) || (rc = check(cudaDeviceSynchronize(), "vadd")) ||
	    (rc = check(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost), "cudaMemcpy")))
		return rc;
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < sizeof c; i++)
		h = (h ^ ((const unsigned char *)c)[i]) * 0x100000001b3u;
	printf("vadd_host: c fnv1a %016llx\n", (unsigned long long)h);
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	return 0;
}
