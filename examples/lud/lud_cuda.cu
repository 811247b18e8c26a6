// lud_cuda — lud.c as a plain CUDA program: the same kernels (lud.cu,
// included), matrix, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/lud_cuda [--check] [--size N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "lud_host.h"
#include "lud.cu"

static int usage(void)
{
	fprintf(stderr, "usage: lud_cuda [--check] [--size N]\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --size N    matrix order, a multiple of %d in %d..%d (default %d)\n",
	        BS, BS, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

// Factors m (n x n) in place on the GPU. Returns 0 or the exit status after
// printing why.
static int lud_gpu(float *m, int n)
{
	const size_t bytes = sizeof(float) * (size_t)n * (size_t)n;
	float *dm;
	int off;

	CUDA_TRY("lud", cudaMalloc(&dm, bytes), "allocate the matrix");
	CUDA_TRY("lud", cudaMemcpy(dm, m, bytes, cudaMemcpyHostToDevice), "copy the matrix in");
	for (off = 0; off < n - BS; off += BS) {
		int nb = (n - off) / BS - 1;
		lud_diagonal<<<1, BS>>>(dm, n, off);
		CUDA_TRY("lud", cudaGetLastError(), "launch lud_diagonal");
		lud_perimeter<<<nb, 2 * BS>>>(dm, n, off);
		CUDA_TRY("lud", cudaGetLastError(), "launch lud_perimeter");
		lud_internal<<<dim3(nb, nb), dim3(BS, BS)>>>(dm, n, off);
		CUDA_TRY("lud", cudaGetLastError(), "launch lud_internal");
	}
	lud_diagonal<<<1, BS>>>(dm, n, off);
	CUDA_TRY("lud", cudaGetLastError(), "launch lud_diagonal");
	CUDA_TRY("lud", cudaDeviceSynchronize(), "synchronize");
	CUDA_TRY("lud", cudaMemcpy(m, dm, bytes, cudaMemcpyDeviceToHost), "copy the matrix out");
	cudaFree(dm);
	return APP_OK;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && app_parse_long(argv[++i], BS, MAX_N, &n) && n % BS == 0)
			continue;
		return usage();
	}
	const size_t nn = (size_t)n * (size_t)n;
	float *orig = (float *)malloc(sizeof(float) * nn), *m = (float *)malloc(sizeof(float) * nn);
	float *ref = (float *)malloc(sizeof(float) * nn);
	int status = APP_FAIL;
	if (!orig || !m || !ref) {
		fprintf(stderr, "lud: out of memory\n");
		goto out;
	}
	matrix_make((int)n, orig, 1);
	memcpy(m, orig, sizeof *m * nn);
	if ((status = lud_gpu(m, (int)n)) != APP_OK)
		goto out;
	print_result(n, m);
	status = check ? check_result(n, orig, m, ref) : APP_OK;

out:
	free(orig);
	free(m);
	free(ref);
	return status;
}
