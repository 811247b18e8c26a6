// pathf_cuda — pathf.c as a plain CUDA program: the same kernel (pathf.cu,
// included), grid, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/pathf_cuda [--check] [--cols C] [--rows R] [--pyramid P].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "pathf_host.h"
#include "pathf.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: pathf_cuda [--check] [--cols C] [--rows R] [--pyramid P]\n"
	        "  defaults: --cols %d --rows %d --pyramid %d\n"
	        "  C in 1..1000000, R in 1..10000, P rows per launch in 1..127\n",
	        DEF_COLS, DEF_ROWS, DEF_PYRAMID);
	return APP_BADINPUT;
}

// Runs the rows as PathFinder's host does: launches of min(pyramid, rows
// left) rows, source and destination cost rows swapped before each; the
// last row's costs into out. Returns 0 or the exit status after printing why.
static int run_gpu(const params_t *pp, const int32_t *wall, int32_t *out)
{
	const size_t n = (size_t)pp->cols, cells = n * pp->rows, rowbytes = n * sizeof(int32_t);
	const int small = BLOCK_SIZE - pp->pyramid * HALO * 2, blocks = (pp->cols + small - 1) / small;
	int *dwall, *dcost[2];
	int src = 1, dst = 0;

	// The weights of rows 1.. go to the device; row 0 is the first cost row.
	CUDA_TRY("pathf", cudaMalloc(&dwall, cells > n ? (cells - n) * sizeof *wall : 4), "allocate the grid");
	CUDA_TRY("pathf", cudaMalloc(&dcost[0], rowbytes), "allocate the grid");
	CUDA_TRY("pathf", cudaMalloc(&dcost[1], rowbytes), "allocate the grid");
	if (cells > n)
		CUDA_TRY("pathf", cudaMemcpy(dwall, wall + n, (cells - n) * sizeof *wall, cudaMemcpyHostToDevice),
		         "copy the grid in");
	CUDA_TRY("pathf", cudaMemcpy(dcost[0], wall, rowbytes, cudaMemcpyHostToDevice), "copy the grid in");
	for (int t = 0; t < pp->rows - 1; t += pp->pyramid) {
		int tmp = src;
		src = dst;
		dst = tmp;
		int iter = pp->rows - t - 1 < pp->pyramid ? pp->rows - t - 1 : pp->pyramid;
		dynproc_kernel<<<blocks, BLOCK_SIZE>>>(iter, dwall, dcost[src], dcost[dst], pp->cols, pp->rows, t,
		                                       pp->pyramid * HALO);
		CUDA_TRY("pathf", cudaGetLastError(), "launch dynproc_kernel");
	}
	CUDA_TRY("pathf", cudaMemcpy(out, dcost[dst], rowbytes, cudaMemcpyDeviceToHost), "copy the costs out");
	cudaFree(dcost[1]);
	cudaFree(dcost[0]);
	cudaFree(dwall);
	return APP_OK;
}

int main(int argc, char **argv)
{
	params_t pp = {DEF_COLS, DEF_ROWS, DEF_PYRAMID};
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--cols") && i + 1 < argc && app_parse_int(argv[++i], 1, 1000000, &pp.cols))
			continue;
		if (!strcmp(argv[i], "--rows") && i + 1 < argc && app_parse_int(argv[++i], 1, 10000, &pp.rows))
			continue;
		if (!strcmp(argv[i], "--pyramid") && i + 1 < argc && app_parse_int(argv[++i], 1, 127, &pp.pyramid))
			continue;
		return usage();
	}
	const size_t cells = (size_t)pp.cols * pp.rows;
	int32_t *wall = (int32_t *)malloc(cells * sizeof(int32_t)), *out = (int32_t *)malloc(pp.cols * sizeof(int32_t));
	int status = APP_FAIL;
	if (!wall || !out) {
		fprintf(stderr, "pathf: out of memory\n");
		goto out;
	}
	wall_init(wall, cells);
	if ((status = run_gpu(&pp, wall, out)) != APP_OK)
		goto out;
	print_result(&pp, out);
	status = check ? check_result(&pp, wall, out) : APP_OK;

out:
	free(out);
	free(wall);
	return status;
}
