// bfs_cuda — bfs.c as a plain CUDA program: the same kernels (bfs.cu,
// included), graph, launches and output, through the CUDA runtime API.
// Build: make cuda-apps (nvcc -cudart shared -arch=sm_75); run on flipsim:
// flipsim exec build/examples/bfs_cuda [--check] [--nodes N].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_app.h"
#include "bfs_host.h"
#include "bfs.cu"

static int usage(void)
{
	fprintf(stderr, "usage: bfs_cuda [--check] [--nodes N]\n"
	                "  --check     compare with a CPU search; exit 1 on a difference\n"
	                "  --nodes N   graph size, 300..%d (default %d)\n",
	        MAX_NODES, DEFAULT_NODES);
	return APP_BADINPUT;
}

// Runs the search: costs out, iterations in *iters. Returns 0 or the exit
// status after printing why.
static int bfs_gpu(const graph_t *g, int32_t *cost, int *iters)
{
	const int n = g->n, blocks = (n + BLOCK - 1) / BLOCK;
	const bool yes = true;
	Node *nodes;
	int *edges, *dcost;
	bool *frontier, *next, *visited, *dmore;

	CUDA_TRY("bfs", cudaMalloc(&nodes, sizeof(Node) * n), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&edges, sizeof(int) * g->nedges), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&frontier, n), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&next, n), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&visited, n), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&dcost, sizeof(int) * n), "allocate a buffer");
	CUDA_TRY("bfs", cudaMalloc(&dmore, 1), "allocate a buffer");
	for (int i = 0; i < n; i++)
		cost[i] = -1;
	cost[0] = 0;
	CUDA_TRY("bfs", cudaMemcpy(nodes, g->nodes, sizeof(Node) * n, cudaMemcpyHostToDevice), "copy the nodes in");
	CUDA_TRY("bfs", cudaMemcpy(edges, g->edges, sizeof(int) * g->nedges, cudaMemcpyHostToDevice),
	         "copy the edges in");
	CUDA_TRY("bfs", cudaMemcpy(dcost, cost, sizeof(int) * n, cudaMemcpyHostToDevice), "copy the costs in");
	CUDA_TRY("bfs", cudaMemset(frontier, 0, n), "clear the masks");
	CUDA_TRY("bfs", cudaMemset(next, 0, n), "clear the masks");
	CUDA_TRY("bfs", cudaMemset(visited, 0, n), "clear the masks");
	CUDA_TRY("bfs", cudaMemcpy(frontier, &yes, 1, cudaMemcpyHostToDevice), "mark the source");
	CUDA_TRY("bfs", cudaMemcpy(visited, &yes, 1, cudaMemcpyHostToDevice), "mark the source");

	bool more = true;
	*iters = 0;
	// A level can only be new once: more than n iterations means the
	// program went wrong; the host gives up like the CPU does.
	while (more && *iters <= n) {
		CUDA_TRY("bfs", cudaMemset(dmore, 0, 1), "clear the flag");
		Kernel<<<blocks, BLOCK>>>(nodes, edges, frontier, next, visited, dcost, n);
		CUDA_TRY("bfs", cudaGetLastError(), "launch Kernel");
		Kernel2<<<blocks, BLOCK>>>(frontier, next, visited, dmore, n);
		CUDA_TRY("bfs", cudaGetLastError(), "launch Kernel2");
		CUDA_TRY("bfs", cudaMemcpy(&more, dmore, 1, cudaMemcpyDeviceToHost), "read the flag");
		(*iters)++;
	}
	CUDA_TRY("bfs", cudaDeviceSynchronize(), "synchronize");
	CUDA_TRY("bfs", cudaMemcpy(cost, dcost, sizeof(int) * n, cudaMemcpyDeviceToHost), "copy the costs out");
	cudaFree(dmore);
	cudaFree(dcost);
	cudaFree(visited);
	cudaFree(next);
	cudaFree(frontier);
	cudaFree(edges);
	cudaFree(nodes);
	return APP_OK;
}

int main(int argc, char **argv)
{
	long nodes = DEFAULT_NODES;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (cuda_app_option(argv[i], &check))
			continue;
		// at least one node per level beyond the source
		if (!strcmp(argv[i], "--nodes") && i + 1 < argc && app_parse_long(argv[++i], 300, MAX_NODES, &nodes))
			continue;
		return usage();
	}

	graph_t g = {0, 0, NULL, NULL};
	int32_t *cost = (int32_t *)malloc(sizeof *cost * (size_t)nodes);
	int32_t *ref = (int32_t *)malloc(sizeof *ref * (size_t)nodes);
	int iters = 0, status = APP_FAIL;
	if (!cost || !ref || graph_make(&g, (int)nodes, 1) != 0) {
		fprintf(stderr, "bfs: out of memory\n");
		goto out;
	}
	if ((status = bfs_gpu(&g, cost, &iters)) != APP_OK)
		goto out;

	print_result(&g, cost, iters);
	status = check ? check_result(&g, cost, iters, ref) : APP_OK;

out:
	graph_free(&g);
	free(cost);
	free(ref);
	return status;
}
