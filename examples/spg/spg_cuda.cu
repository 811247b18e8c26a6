// spg_cuda — spg.c as a plain CUDA program: the same kernel (spg.cu,
// included), input, launch and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/spg_cuda [--check] [--pairs P] [--n N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "spg_host.h"
#include "spg.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: spg_cuda [--check] [--pairs P] [--n N]\n"
	        "  defaults: --pairs %d --n %d\n"
	        "  P pairs of N floats, P*N <= 16777216; grid min(P, %d) x %d\n",
	        DEF_PAIRS, DEF_N, MAX_GRID, BLOCK);
	return APP_BADINPUT;
}

// The dot products of the pairs of a and b into c; returns 0 or the exit
// status after printing why.
static int dots_gpu(const params_t *pp, const float *a, const float *b, float *c)
{
	const size_t bytes = (size_t)pp->pairs * pp->n * sizeof(float), cbytes = (size_t)pp->pairs * sizeof(float);
	const int blocks = pp->pairs < MAX_GRID ? pp->pairs : MAX_GRID;
	float *da, *db, *dc;

	CUDA_TRY("spg", cudaMalloc(&da, bytes), "allocate the vectors");
	CUDA_TRY("spg", cudaMalloc(&db, bytes), "allocate the vectors");
	CUDA_TRY("spg", cudaMalloc(&dc, cbytes), "allocate the vectors");
	CUDA_TRY("spg", cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice), "copy the vectors in");
	CUDA_TRY("spg", cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice), "copy the vectors in");
	scalarProdGPU<<<blocks, BLOCK>>>(dc, da, db, pp->pairs, pp->n);
	CUDA_TRY("spg", cudaGetLastError(), "launch scalarProdGPU");
	CUDA_TRY("spg", cudaMemcpy(c, dc, cbytes, cudaMemcpyDeviceToHost), "copy the products out");
	cudaFree(dc);
	cudaFree(db);
	cudaFree(da);
	return APP_OK;
}

int main(int argc, char **argv)
{
	params_t pp = {DEF_PAIRS, DEF_N};
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--pairs") && i + 1 < argc && app_parse_int(argv[++i], 1, 1 << 24, &pp.pairs))
			continue;
		if (!strcmp(argv[i], "--n") && i + 1 < argc && app_parse_int(argv[++i], 1, 1 << 24, &pp.n))
			continue;
		return usage();
	}
	if ((int64_t)pp.pairs * pp.n > (1 << 24))
		return usage();
	const size_t n = (size_t)pp.pairs * pp.n;
	const size_t bytes = n * sizeof(float), cbytes = (size_t)pp.pairs * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(cbytes);
	int status = APP_FAIL;
	if (!a || !b || !c) {
		fprintf(stderr, "spg: out of memory\n");
		goto out;
	}
	input_init(a, b, n);
	if ((status = dots_gpu(&pp, a, b, c)) != APP_OK)
		goto out;

	print_result(&pp, c);
	status = check ? check_result(&pp, a, b, c) : APP_OK;

out:
	free(c);
	free(b);
	free(a);
	return status;
}
