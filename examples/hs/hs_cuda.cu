// hs_cuda — hs.c as a plain CUDA program: the same kernel (hs.cu,
// included), fields, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/hs_cuda [--check] [--size N] [--pyramid P] [--iterations T].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "hs_host.h"
#include "hs.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: hs_cuda [--check] [--size N] [--pyramid P] [--iterations T]\n"
	        "  defaults: --size %d --pyramid %d --iterations %d\n"
	        "  N x N cells (2..4096), P steps per launch (1..7), T steps in all (1..1000)\n",
	        DEF_SIZE, DEF_PYRAMID, DEF_ITERS);
	return APP_BADINPUT;
}

// Runs the time steps as HotSpot's host does: launches of min(pyramid,
// steps left) steps, source and destination swapped after each; the final
// field into out. Returns 0 or the exit status after printing why.
static int run_gpu(const params_t *pp, const model_t *m, const float *temp, const float *power, float *out)
{
	const size_t bytes = (size_t)pp->size * pp->size * sizeof(float);
	const int small = BLOCK_SIZE - 2 * pp->pyramid, blocks = (pp->size + small - 1) / small;
	const int border = pp->pyramid;  // pyramid * EXPAND_RATE / 2
	float *dpower, *dtemp[2];
	int src = 0;

	CUDA_TRY("hs", cudaMalloc(&dpower, bytes), "allocate the fields");
	CUDA_TRY("hs", cudaMalloc(&dtemp[0], bytes), "allocate the fields");
	CUDA_TRY("hs", cudaMalloc(&dtemp[1], bytes), "allocate the fields");
	CUDA_TRY("hs", cudaMemcpy(dpower, power, bytes, cudaMemcpyHostToDevice), "copy the fields in");
	CUDA_TRY("hs", cudaMemcpy(dtemp[0], temp, bytes, cudaMemcpyHostToDevice), "copy the fields in");
	for (int t = 0; t < pp->iters; t += pp->pyramid) {
		int iter = pp->iters - t < pp->pyramid ? pp->iters - t : pp->pyramid;
		calculate_temp<<<dim3(blocks, blocks), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(
		    iter, dpower, dtemp[src], dtemp[1 - src], pp->size, pp->size, border, border, m->cap, m->rx, m->ry,
		    m->rz, m->step);
		CUDA_TRY("hs", cudaGetLastError(), "launch calculate_temp");
		src = 1 - src;
	}
	CUDA_TRY("hs", cudaMemcpy(out, dtemp[src], bytes, cudaMemcpyDeviceToHost), "copy the temperatures out");
	cudaFree(dtemp[1]);
	cudaFree(dtemp[0]);
	cudaFree(dpower);
	return APP_OK;
}

int main(int argc, char **argv)
{
	params_t pp = {DEF_SIZE, DEF_PYRAMID, DEF_ITERS};
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && app_parse_int(argv[++i], 2, 4096, &pp.size))
			continue;
		if (!strcmp(argv[i], "--pyramid") && i + 1 < argc && app_parse_int(argv[++i], 1, 7, &pp.pyramid))
			continue;
		if (!strcmp(argv[i], "--iterations") && i + 1 < argc && app_parse_int(argv[++i], 1, 1000, &pp.iters))
			continue;
		return usage();
	}
	const size_t ncells = (size_t)pp.size * pp.size, bytes = ncells * sizeof(float);
	float *temp = (float *)malloc(bytes), *power = (float *)malloc(bytes), *out = (float *)malloc(bytes);
	model_t m;
	int status = APP_FAIL;
	if (!temp || !power || !out) {
		fprintf(stderr, "hs: out of memory\n");
		goto out;
	}
	input_init(temp, power, ncells);
	model_init(&m, pp.size);
	if ((status = run_gpu(&pp, &m, temp, power, out)) != APP_OK)
		goto out;
	print_result(&pp, out);
	status = check ? check_result(&pp, &m, temp, power, out) : APP_OK;

out:
	free(out);
	free(power);
	free(temp);
	return status;
}
