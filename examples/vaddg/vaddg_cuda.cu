// vaddg_cuda — vaddg.c as a plain CUDA program: the same kernel (vaddg.cu,
// included), input, launch and output, through the CUDA runtime API.
// Build: nvcc -cudart shared -arch=sm_75 (make, examples/common/app.mk);
// run on flipsim: flipsim exec build/examples/vaddg_cuda [--check] [--n N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "vaddg_host.h"
#include "vaddg.cu"

static int usage(void)
{
	fprintf(stderr, "usage: vaddg_cuda [--check] [--n N]\n"
	                "  defaults: --n %d (N in 1..16777216; grid ceil(N/%d) x %d)\n",
	        DEF_N, BLOCK, BLOCK);
	return APP_BADINPUT;
}

// Adds a and b into c on the device; returns 0 or the exit status after
// printing why.
static int vadd_gpu(const float *a, const float *b, float *c, int n)
{
	const size_t bytes = (size_t)n * sizeof(float);
	float *da, *db, *dc;

	CUDA_TRY("vaddg", cudaMalloc(&da, bytes), "allocate the vectors");
	CUDA_TRY("vaddg", cudaMalloc(&db, bytes), "allocate the vectors");
	CUDA_TRY("vaddg", cudaMalloc(&dc, bytes), "allocate the vectors");
	CUDA_TRY("vaddg", cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice), "copy the vectors in");
	CUDA_TRY("vaddg", cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice), "copy the vectors in");
	VecAdd<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(da, db, dc, n);
	CUDA_TRY("vaddg", cudaGetLastError(), "launch VecAdd");
	CUDA_TRY("vaddg", cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost), "copy the sum out");
	cudaFree(dc);
	cudaFree(db);
	cudaFree(da);
	return APP_OK;
}

int main(int argc, char **argv)
{
	bool check = false;
	int n = DEF_N;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--n") && i + 1 < argc && app_parse_int(argv[++i], 1, 1 << 24, &n))
			continue;
		return usage();
	}
	const size_t bytes = (size_t)n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
	int status = APP_FAIL;
	if (!a || !b || !c) {
		fprintf(stderr, "vaddg: out of memory\n");
		goto out;
	}
	input_init(a, b, (size_t)n);
	if ((status = vadd_gpu(a, b, c, n)) != APP_OK)
		goto out;

	print_result(c, n);
	status = check ? check_result(a, b, c, n) : APP_OK;

out:
	free(c);
	free(b);
	free(a);
	return status;
}
