// lps_cuda — lps.c as a plain CUDA program: the same kernel (lps.cu,
// included), grid, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/lps_cuda [--check] [--size NXxNYxNZ] [--repeat R].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "lps_host.h"
#include "lps.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: lps_cuda [--check] [--size NXxNYxNZ] [--repeat R]\n"
	        "  defaults: --size %dx%dx%d --repeat %d\n"
	        "  each of NX, NY, NZ in 1..1024; R sweeps (one launch each) in 1..100\n",
	        DEF_NX, DEF_NY, DEF_NZ, DEF_REPEAT);
	return APP_BADINPUT;
}

// Runs the sweeps: one launch each, u1 and u2 swapped after each, as the
// benchmark's host does; the last sweep's grid into out. Returns 0 or the
// exit status after printing why.
static int run_gpu(const params_t *pp, const float *u, float *out)
{
	// Rows padded to whole warps (lps.c's layout; cudaMallocPitch would
	// choose its own pitch).
	const int pitch = (pp->nx + BLOCK_X - 1) / BLOCK_X * BLOCK_X;
	const size_t dbytes = (size_t)pitch * pp->ny * pp->nz * sizeof(float), row = pp->nx * sizeof(float);
	const size_t rows = (size_t)pp->ny * pp->nz;
	const dim3 grid((pp->nx + BLOCK_X - 1) / BLOCK_X, (pp->ny + BLOCK_Y - 1) / BLOCK_Y);
	float *du[2];
	int src = 0;

	CUDA_TRY("lps", cudaMalloc(&du[0], dbytes), "allocate the grids");
	CUDA_TRY("lps", cudaMalloc(&du[1], dbytes), "allocate the grids");
	CUDA_TRY("lps", cudaMemset(du[0], 0, dbytes), "copy the grid in");
	CUDA_TRY("lps", cudaMemset(du[1], 0, dbytes), "copy the grid in");
	CUDA_TRY("lps", cudaMemcpy2D(du[0], pitch * sizeof(float), u, row, row, rows, cudaMemcpyHostToDevice),
	         "copy the grid in");
	for (int r = 0; r < pp->repeat; r++) {
		GPU_laplace3d<<<grid, dim3(BLOCK_X, BLOCK_Y)>>>(pp->nx, pp->ny, pp->nz, pitch, du[src], du[1 - src]);
		CUDA_TRY("lps", cudaGetLastError(), "launch GPU_laplace3d");
		src = 1 - src;
	}
	CUDA_TRY("lps", cudaMemcpy2D(out, row, du[src], pitch * sizeof(float), row, rows, cudaMemcpyDeviceToHost),
	         "copy the grid out");
	cudaFree(du[1]);
	cudaFree(du[0]);
	return APP_OK;
}

int main(int argc, char **argv)
{
	params_t pp = {DEF_NX, DEF_NY, DEF_NZ, DEF_REPEAT};
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && parse_size(argv[++i], &pp))
			continue;
		if (!strcmp(argv[i], "--repeat") && i + 1 < argc && app_parse_int(argv[++i], 1, 100, &pp.repeat))
			continue;
		return usage();
	}
	const size_t bytes = (size_t)pp.nx * pp.ny * pp.nz * sizeof(float);
	float *u = (float *)malloc(bytes), *out = (float *)malloc(bytes);
	int status = APP_FAIL;
	if (!u || !out) {
		fprintf(stderr, "lps: out of memory\n");
		goto out;
	}
	input_init(u, (size_t)pp.nx * pp.ny * pp.nz);
	if ((status = run_gpu(&pp, u, out)) != APP_OK)
		goto out;
	print_result(&pp, out);
	status = check ? check_result(&pp, u, out) : APP_OK;

out:
	free(out);
	free(u);
	return status;
}
