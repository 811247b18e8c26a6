// ccp_cuda — ccp.c as a plain CUDA program: the same kernel (ccp.cu,
// included), atoms, launch and output, through the CUDA runtime API. The
// atoms go into the kernel's __constant__ array with cudaMemcpyToSymbol,
// where ccp.c, on simcore's API, writes them into the PTX as its initializer.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/ccp_cuda [--check] [--grid GXxGY] [--atoms N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "ccp_host.h"
#include "ccp.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: ccp_cuda [--check] [--grid GXxGY] [--atoms N]\n"
	        "  defaults: --grid %dx%d --atoms %d (N <= %d)\n",
	        DEF_GX, DEF_GY, DEF_ATOMS, MAXATOMS);
	return APP_BADINPUT;
}

// The plane's energies into grid: atoms to constant memory, one launch.
// Returns 0 or the exit status after printing why.
static int energy_gpu(const params_t *pp, const float *atoms, float *grid)
{
	const size_t bytes = (size_t)pp->gx * BLOCKSIZEX * UNROLLX * pp->gy * BLOCKSIZEY * sizeof(float);
	float *dgrid;

	CUDA_TRY("ccp", cudaMemcpyToSymbol(atominfo, atoms, (size_t)pp->natoms * sizeof(float4)), "copy the atoms in");
	CUDA_TRY("ccp", cudaMalloc(&dgrid, bytes), "allocate the energy grid");
	CUDA_TRY("ccp", cudaMemset(dgrid, 0, bytes), "clear the energy grid");
	cenergy<<<dim3(pp->gx, pp->gy), dim3(BLOCKSIZEX, BLOCKSIZEY)>>>(pp->natoms, SPACING, dgrid);
	CUDA_TRY("ccp", cudaGetLastError(), "launch cenergy");
	CUDA_TRY("ccp", cudaMemcpy(grid, dgrid, bytes, cudaMemcpyDeviceToHost), "copy the energy grid out");
	cudaFree(dgrid);
	return APP_OK;
}

int main(int argc, char **argv)
{
	params_t pp = {DEF_GX, DEF_GY, DEF_ATOMS};
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--atoms") && i + 1 < argc && app_parse_int(argv[++i], 1, MAXATOMS, &pp.natoms))
			continue;
		if (!strcmp(argv[i], "--grid") && i + 1 < argc && parse_grid(argv[++i], &pp))
			continue;
		return usage();
	}
	const uint32_t width = pp.gx * BLOCKSIZEX * UNROLLX, height = pp.gy * BLOCKSIZEY;
	float *atoms = (float *)calloc((size_t)pp.natoms * 4, sizeof(float));
	float *grid = (float *)calloc((size_t)width * height, sizeof(float));
	int status = APP_FAIL;
	if (!atoms || !grid) {
		fprintf(stderr, "ccp: out of memory\n");
		goto out;
	}
	atoms_init(atoms, pp.natoms, width, height);
	if ((status = energy_gpu(&pp, atoms, grid)) != APP_OK)
		goto out;
	print_result(&pp, grid);
	status = check ? check_result(&pp, atoms, grid) : APP_OK;

out:
	free(grid);
	free(atoms);
	return status;
}
