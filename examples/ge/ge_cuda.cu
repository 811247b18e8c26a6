// ge_cuda — ge.c as a plain CUDA program: the same kernels (ge.cu,
// included), system, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/ge_cuda [--check] [--size N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "ge_host.h"
#include "ge.cu"

static int usage(void)
{
	fprintf(stderr, "usage: ge_cuda [--check] [--size N]\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --size N    equations, 2..%d (default %d)\n",
	        MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

// Eliminates on the GPU: m (zeroed first), a and b in and out. Returns 0 or
// the exit status after printing why.
static int eliminate_gpu(int n, float *m, float *mat, float *b)
{
	const size_t nn = sizeof(float) * (size_t)n * (size_t)n;
	const int g2 = (n + FAN2_BLOCK - 1) / FAN2_BLOCK;
	const dim3 grid1((n + FAN1_BLOCK - 1) / FAN1_BLOCK), block1(FAN1_BLOCK);
	const dim3 grid2(g2, g2), block2(FAN2_BLOCK, FAN2_BLOCK);
	float *dm, *da, *db;

	CUDA_TRY("ge", cudaMalloc(&dm, nn), "allocate a buffer");
	CUDA_TRY("ge", cudaMalloc(&da, nn), "allocate a buffer");
	CUDA_TRY("ge", cudaMalloc(&db, sizeof(float) * n), "allocate a buffer");
	CUDA_TRY("ge", cudaMemset(dm, 0, nn), "clear the multipliers");
	CUDA_TRY("ge", cudaMemcpy(da, mat, nn, cudaMemcpyHostToDevice), "copy the matrix in");
	CUDA_TRY("ge", cudaMemcpy(db, b, sizeof(float) * n, cudaMemcpyHostToDevice), "copy the right-hand side in");
	for (int t = 0; t < n - 1; t++) {
		Fan1<<<grid1, block1>>>(dm, da, n, t);
		CUDA_TRY("ge", cudaGetLastError(), "launch Fan1");
		Fan2<<<grid2, block2>>>(dm, da, db, n, 1, t);
		CUDA_TRY("ge", cudaGetLastError(), "launch Fan2");
	}
	CUDA_TRY("ge", cudaDeviceSynchronize(), "synchronize");
	CUDA_TRY("ge", cudaMemcpy(m, dm, nn, cudaMemcpyDeviceToHost), "copy the multipliers out");
	CUDA_TRY("ge", cudaMemcpy(mat, da, nn, cudaMemcpyDeviceToHost), "copy the matrix out");
	CUDA_TRY("ge", cudaMemcpy(b, db, sizeof(float) * n, cudaMemcpyDeviceToHost), "copy the right-hand side out");
	cudaFree(db);
	cudaFree(da);
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
		if (!strcmp(argv[i], "--size") && i + 1 < argc && app_parse_long(argv[++i], 2, MAX_N, &n))
			continue;
		return usage();
	}

	const size_t nn = (size_t)n * (size_t)n;
	float *m = (float *)calloc(nn, sizeof *m), *mat = (float *)malloc(sizeof *mat * nn);
	float *b = (float *)malloc(sizeof *b * (size_t)n), *rm = (float *)calloc(nn, sizeof *rm);
	float *ra = (float *)malloc(sizeof *ra * nn), *rb = (float *)malloc(sizeof *rb * (size_t)n);
	double *x = (double *)malloc(sizeof *x * (size_t)n);
	int status = APP_FAIL;
	if (!m || !mat || !b || !rm || !ra || !rb || !x) {
		fprintf(stderr, "ge: out of memory\n");
		goto out;
	}
	system_make((int)n, mat, b, 1);
	memcpy(ra, mat, sizeof *ra * nn);
	memcpy(rb, b, sizeof *rb * (size_t)n);
	if ((status = eliminate_gpu((int)n, m, mat, b)) != APP_OK)
		goto out;

	back_substitute((int)n, mat, b, x);
	print_result(n, mat, b, x);
	status = check ? check_result(n, m, mat, b, rm, ra, rb) : APP_OK;

out:
	free(m);
	free(mat);
	free(b);
	free(rm);
	free(ra);
	free(rb);
	free(x);
	return status;
}
