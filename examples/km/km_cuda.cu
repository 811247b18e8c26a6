// km_cuda — km.c as a plain CUDA program: the same kernels (km.cu,
// included), points, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/km_cuda [--check] [--points N] [--features F] [--clusters K] [--seed S].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "km_host.h"
#include "km.cu"

static int usage(void)
{
	fprintf(stderr,
	        "usage: km_cuda [--check] [--points N] [--features F] [--clusters K] [--seed S]\n"
	        "  --check        compare with the CPU, bit for bit; exit 1 on a difference\n"
	        "  --points N     points, K..%d (default %d)\n"
	        "  --features F   features per point, 1..%d (default %d)\n"
	        "  --clusters K   centres, 1..%d (default %d)\n"
	        "  --seed S       input seed (default %d)\n",
	        MAX_POINTS, DEFAULT_POINTS, MAX_FEATURES, DEFAULT_FEATURES, MAX_CLUSTERS, DEFAULT_CLUSTERS,
	        DEFAULT_SEED);
	return APP_BADINPUT;
}

// Clusters on the GPU: final centres, memberships and iterations out.
// Returns 0 or the exit status after printing why.
static int kmeans_gpu(const shape_t *sh, const float *feat, float *clusters, int32_t *memb, work_t *w,
                      int *iters)
{
	const size_t np = (size_t)sh->np, nf = (size_t)sh->nf, k = (size_t)sh->k;
	const int blocks = (sh->np + BLOCK - 1) / BLOCK;
	int side = 1;
	while (side * side < blocks)
		side++;
	float *dfeat, *dflip, *dclust, *dbclust;
	int *dmemb, *dbdelta;
	int delta;

	CUDA_TRY("km", cudaMalloc(&dfeat, 4 * np * nf), "allocate a buffer");
	CUDA_TRY("km", cudaMalloc(&dflip, 4 * np * nf), "allocate a buffer");
	CUDA_TRY("km", cudaMalloc(&dmemb, 4 * np), "allocate a buffer");
	CUDA_TRY("km", cudaMalloc(&dclust, 4 * k * nf), "allocate a buffer");
	CUDA_TRY("km", cudaMalloc(&dbclust, 4 * (size_t)side * side * k * nf), "allocate a buffer");
	CUDA_TRY("km", cudaMalloc(&dbdelta, 4 * (size_t)side * side), "allocate a buffer");
	CUDA_TRY("km", cudaMemcpy(dfeat, feat, 4 * np * nf, cudaMemcpyHostToDevice), "copy the points in");
	invert_mapping<<<blocks, BLOCK>>>(dfeat, dflip, sh->np, sh->nf);
	CUDA_TRY("km", cudaGetLastError(), "launch invert_mapping");

	start(sh, feat, clusters, w);
	*iters = 0;
	do {
		CUDA_TRY("km", cudaMemcpy(dclust, clusters, 4 * k * nf, cudaMemcpyHostToDevice), "copy the centres in");
		kmeansPoint<<<dim3(side, side), BLOCK>>>(dflip, sh->nf, sh->np, sh->k, dmemb, dclust, dbclust, dbdelta);
		CUDA_TRY("km", cudaGetLastError(), "launch kmeansPoint");
		CUDA_TRY("km", cudaMemcpy(memb, dmemb, 4 * np, cudaMemcpyDeviceToHost), "copy the memberships out");
		delta = update(sh, feat, memb, w->old, clusters, w->sum, w->count);
		(*iters)++;
	} while (delta > 0 && *iters < MAX_ITERS);
	CUDA_TRY("km", cudaDeviceSynchronize(), "synchronize");
	cudaFree(dbdelta);
	cudaFree(dbclust);
	cudaFree(dclust);
	cudaFree(dmemb);
	cudaFree(dflip);
	cudaFree(dfeat);
	return APP_OK;
}

int main(int argc, char **argv)
{
	long np = DEFAULT_POINTS, nf = DEFAULT_FEATURES, k = DEFAULT_CLUSTERS, seed = DEFAULT_SEED;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check) || size_option(argc, argv, &i, &np, &nf, &k, &seed))
			continue;
		return usage();
	}
	if (np < k)
		return usage();
	const shape_t sh = {(int)np, (int)nf, (int)k};
	float *feat = (float *)malloc(sizeof(float) * np * nf), *clusters = (float *)malloc(sizeof(float) * k * nf);
	float *rclusters = (float *)malloc(sizeof(float) * k * nf);
	int32_t *memb = (int32_t *)malloc(sizeof(int32_t) * np), *rmemb = (int32_t *)malloc(sizeof(int32_t) * np);
	work_t w;
	w.old = (int32_t *)malloc(sizeof *w.old * np);
	w.sum = (float *)malloc(sizeof *w.sum * k * nf);
	w.count = (int32_t *)malloc(sizeof *w.count * k);
	int iters = 0, status = APP_FAIL;
	if (!feat || !clusters || !rclusters || !memb || !rmemb || !w.old || !w.sum || !w.count) {
		fprintf(stderr, "km: out of memory\n");
		goto out;
	}
	points_make(&sh, feat, (uint64_t)seed);
	if ((status = kmeans_gpu(&sh, feat, clusters, memb, &w, &iters)) != APP_OK)
		goto out;
	print_result(&sh, iters, memb, clusters, &w);
	status = check ? check_result(&sh, feat, iters, memb, clusters, rclusters, rmemb, &w) : APP_OK;

out:
	free(feat);
	free(clusters);
	free(rclusters);
	free(memb);
	free(rmemb);
	free(w.old);
	free(w.sum);
	free(w.count);
	return status;
}
