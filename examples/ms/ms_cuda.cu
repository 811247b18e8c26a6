// ms_cuda — ms.c as a plain CUDA program: the same kernels (ms.cu,
// included), pairs, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/ms_cuda [--check] [--pairs N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "ms_host.h"
#include "ms.cu"

static int usage(void)
{
	fprintf(stderr, "usage: ms_cuda [--check] [--pairs N]\n"
	                "  --check     compare with a CPU stable sort; exit 1 on a difference\n"
	                "  --pairs N   pairs to sort, %d times a power of two up to %d (default %d)\n",
	        SEG, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

// Sorts n pairs (n = SEG * 2^k) on the GPU; the merge passes ping-pong
// between two buffers. Returns 0 or the exit status after printing why;
// *passes gets the number of merge passes.
static int sort_gpu(const uint32_t *in_key, const uint32_t *in_val, uint32_t *key, uint32_t *val, int n,
                    int *passes)
{
	const size_t bytes = sizeof(uint32_t) * (size_t)n, rbytes = bytes / SAMPLE;
	const int threads = n / (2 * SAMPLE), rgrid = (threads + RANK_BLOCK - 1) / RANK_BLOCK;
	unsigned *inkey, *inval, *keys[2], *vals[2], *ranka, *rankb, *lima, *limb;

	CUDA_TRY("ms", cudaMalloc(&inkey, bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&inval, bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&keys[0], bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&vals[0], bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&keys[1], bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&vals[1], bytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&ranka, rbytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&rankb, rbytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&lima, rbytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMalloc(&limb, rbytes), "allocate a buffer");
	CUDA_TRY("ms", cudaMemcpy(inkey, in_key, bytes, cudaMemcpyHostToDevice), "copy the keys in");
	CUDA_TRY("ms", cudaMemcpy(inval, in_val, bytes, cudaMemcpyHostToDevice), "copy the values in");

	int cur = 0;  // the buffers holding the sorted runs
	mergeSortSharedKernel<1u><<<n / SEG, SEG / 2>>>(keys[cur], vals[cur], inkey, inval, SEG);
	CUDA_TRY("ms", cudaGetLastError(), "launch mergeSortSharedKernel");
	*passes = 0;
	for (int stride = SEG; stride < n; stride *= 2, (*passes)++) {
		generateSampleRanksKernel<1u><<<rgrid, RANK_BLOCK>>>(ranka, rankb, keys[cur], stride, n, threads);
		CUDA_TRY("ms", cudaGetLastError(), "launch generateSampleRanksKernel");
		mergeRanksAndIndicesKernel<<<rgrid, RANK_BLOCK>>>(lima, ranka, stride, n, threads);
		CUDA_TRY("ms", cudaGetLastError(), "launch mergeRanksAndIndicesKernel");
		mergeRanksAndIndicesKernel<<<rgrid, RANK_BLOCK>>>(limb, rankb, stride, n, threads);
		CUDA_TRY("ms", cudaGetLastError(), "launch mergeRanksAndIndicesKernel");
		mergeElementaryIntervalsKernel<1u><<<n / SAMPLE, SAMPLE>>>(keys[1 - cur], vals[1 - cur], keys[cur],
		                                                          vals[cur], lima, limb, stride, n);
		CUDA_TRY("ms", cudaGetLastError(), "launch mergeElementaryIntervalsKernel");
		cur = 1 - cur;
	}
	CUDA_TRY("ms", cudaDeviceSynchronize(), "synchronize");
	CUDA_TRY("ms", cudaMemcpy(key, keys[cur], bytes, cudaMemcpyDeviceToHost), "copy the keys out");
	CUDA_TRY("ms", cudaMemcpy(val, vals[cur], bytes, cudaMemcpyDeviceToHost), "copy the values out");
	cudaFree(limb);
	cudaFree(lima);
	cudaFree(rankb);
	cudaFree(ranka);
	cudaFree(vals[1]);
	cudaFree(keys[1]);
	cudaFree(vals[0]);
	cudaFree(keys[0]);
	cudaFree(inval);
	cudaFree(inkey);
	return APP_OK;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		if (!strcmp(argv[i], "--pairs") && i + 1 < argc && app_parse_long(argv[++i], SEG, MAX_N, &n) &&
		    n % SEG == 0 && ((n / SEG) & (n / SEG - 1)) == 0)
			continue;
		return usage();
	}
	const size_t words = sizeof(uint32_t) * (size_t)n;
	uint32_t *in_key = (uint32_t *)malloc(words), *in_val = (uint32_t *)malloc(words);
	uint32_t *key = (uint32_t *)malloc(words), *val = (uint32_t *)malloc(words);
	uint32_t *rkey = (uint32_t *)malloc(words), *rval = (uint32_t *)malloc(words);
	unsigned char *seen = (unsigned char *)malloc((size_t)n);
	int passes = 0, status = APP_FAIL;
	if (!in_key || !in_val || !key || !val || !rkey || !rval || !seen) {
		fprintf(stderr, "ms: out of memory\n");
		goto out;
	}
	pairs_make(in_key, in_val, (int)n, 1);
	if ((status = sort_gpu(in_key, in_val, key, val, (int)n, &passes)) != APP_OK)
		goto out;
	print_result(n, passes, key, val);
	status = check_result(n, in_key, key, val, seen, check, rkey, rval);

out:
	free(in_key);
	free(in_val);
	free(key);
	free(val);
	free(rkey);
	free(rval);
	free(seen);
	return status;
}
