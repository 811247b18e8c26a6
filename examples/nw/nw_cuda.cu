// nw_cuda — nw.c as a plain CUDA program: the same kernels (nw.cu,
// included), sequences, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/nw_cuda [--check] [--length N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "nw_host.h"
#include "nw.cu"

static int usage(void)
{
	fprintf(stderr, "usage: nw_cuda [--check] [--length N]\n"
	                "  --check       compare with a CPU fill; exit 1 on a difference\n"
	                "  --length N    sequence length, a multiple of %d in %d..%d (default %d)\n",
	        BS, BS, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

// Fills the score matrix on the GPU, borders in, matrix out: the blocks'
// anti-diagonals, growing then shrinking. Returns 0 or the exit status
// after printing why.
static int fill_gpu(int n, const int32_t *ref, int32_t *score)
{
	const size_t bytes = sizeof(int32_t) * (size_t)(n + 1) * (size_t)(n + 1);
	const int width = n / BS;
	int *dref, *dscore;

	CUDA_TRY("nw", cudaMalloc(&dref, bytes), "allocate a matrix");
	CUDA_TRY("nw", cudaMalloc(&dscore, bytes), "allocate a matrix");
	CUDA_TRY("nw", cudaMemcpy(dref, ref, bytes, cudaMemcpyHostToDevice), "copy the substitution scores in");
	CUDA_TRY("nw", cudaMemcpy(dscore, score, bytes, cudaMemcpyHostToDevice), "copy the score matrix in");
	for (int i = 1; i <= width; i++) {
		needle_cuda_shared_1<<<i, BS>>>(dref, dscore, n + 1, PENALTY, i, width);
		CUDA_TRY("nw", cudaGetLastError(), "launch needle_cuda_shared_1");
	}
	for (int i = width - 1; i >= 1; i--) {
		needle_cuda_shared_2<<<i, BS>>>(dref, dscore, n + 1, PENALTY, i, width);
		CUDA_TRY("nw", cudaGetLastError(), "launch needle_cuda_shared_2");
	}
	CUDA_TRY("nw", cudaDeviceSynchronize(), "synchronize");
	CUDA_TRY("nw", cudaMemcpy(score, dscore, bytes, cudaMemcpyDeviceToHost), "copy the score matrix out");
	cudaFree(dscore);
	cudaFree(dref);
	return APP_OK;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--length") && i + 1 < argc && app_parse_long(argv[++i], BS, MAX_N, &n) &&
		    n % BS == 0)
			continue;
		return usage();
	}
	const size_t cells = (size_t)(n + 1) * (size_t)(n + 1);
	int32_t *ref = (int32_t *)malloc(sizeof(int32_t) * cells), *score = (int32_t *)malloc(sizeof(int32_t) * cells);
	int32_t *rscore = (int32_t *)malloc(sizeof(int32_t) * cells);
	int *seq_a = (int *)malloc(sizeof(int) * (size_t)(n + 1)), *seq_b = (int *)malloc(sizeof(int) * (size_t)(n + 1));
	int status = APP_FAIL;
	if (!ref || !score || !rscore || !seq_a || !seq_b) {
		fprintf(stderr, "nw: out of memory\n");
		goto out;
	}
	input_make((int)n, ref, score, seq_a, seq_b, 1);
	memcpy(rscore, score, sizeof *rscore * cells);
	if ((status = fill_gpu((int)n, ref, score)) != APP_OK)
		goto out;
	print_result(n, ref, score, seq_a, seq_b);
	status = check ? check_result(n, ref, score, rscore) : APP_OK;

out:
	free(ref);
	free(score);
	free(rscore);
	free(seq_a);
	free(seq_b);
	return status;
}
