/* bfs — GUFI's BFS application on the simulated GPU: a level-synchronous
 * breadth-first search from node 0 of a seeded random graph, one thread per
 * node (bfs.cu), with a host loop that launches Kernel and Kernel2 once per
 * level until no node changes. --check runs the same search on the CPU and
 * compares every node's cost. Usage, shapes and figures: examples/bfs/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "bfs_host.h"

/* Far above the default run (under 10^5 cycles) and any --nodes up to
 * MAX_NODES: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 200000000;

static const char DEFAULT_PTX[] = "examples/bfs/bfs.ptx";
static const char K_EXPAND[] = "_Z6KernelP4NodePiPbS2_S2_S1_i";
static const char K_COMMIT[] = "_Z7Kernel2PbS_S_S_i";

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf, in allocation order */
enum { B_NODES, B_EDGES, B_FRONTIER, B_NEXT, B_VISITED, B_COST, B_MORE, NBUF };

/* Runs the search: costs out, iterations in *iters. Returns 0 or an SC_E*
 * code, naming the failing call in a->what. */
static int bfs_gpu(app_t *a, const graph_t *g, int32_t *cost, int *iters)
{
	const uint64_t n = (uint64_t)g->n;
	const uint64_t sizes[NBUF] = {sizeof(node_t) * n, sizeof(int32_t) * (uint64_t)g->nedges,
	                              n, n, n, sizeof(int32_t) * n, 1};
	const sc_dim3_t grid = {(uint32_t)((n + BLOCK - 1) / BLOCK), 1, 1}, block = {BLOCK, 1, 1};
	const uint8_t one = 1;
	int32_t nn = g->n;

	for (int b = 0; b < NBUF; b++)
		APP_TRY(a, app_malloc(a, sizes[b], NULL), "allocate a buffer");
	for (int i = 0; i < g->n; i++)
		cost[i] = -1;
	cost[0] = 0;
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_NODES], g->nodes, sizes[B_NODES]), "copy the nodes in");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_EDGES], g->edges, sizes[B_EDGES]), "copy the edges in");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_COST], cost, sizes[B_COST]), "copy the costs in");
	for (int b = B_FRONTIER; b <= B_VISITED; b++)
		APP_TRY(a, sc_memset(a->gpu, a->buf[b], 0, n), "clear the masks");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_FRONTIER], &one, 1), "mark the source");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_VISITED], &one, 1), "mark the source");

	void *xargs[] = {&a->buf[B_NODES], &a->buf[B_EDGES], &a->buf[B_FRONTIER], &a->buf[B_NEXT],
	                 &a->buf[B_VISITED], &a->buf[B_COST], &nn};
	void *cargs[] = {&a->buf[B_FRONTIER], &a->buf[B_NEXT], &a->buf[B_VISITED], &a->buf[B_MORE], &nn};
	uint8_t more = 1;
	*iters = 0;
	/* A level can only be new once: more than n iterations means the
	 * simulated program went wrong; the host gives up like the CPU does. */
	while (more && *iters <= g->n) {
		APP_TRY(a, sc_memset(a->gpu, a->buf[B_MORE], 0, 1), "clear the flag");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_EXPAND, grid, block, 0, xargs), "launch Kernel");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_COMMIT, grid, block, 0, cargs), "launch Kernel2");
		APP_TRY(a, sc_memcpy_dtoh(a->gpu, &more, a->buf[B_MORE], 1), "read the flag");
		(*iters)++;
	}
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, cost, a->buf[B_COST], sizes[B_COST]), "copy the costs out");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bfs [--ptx FILE] [--check] [--stats] [--nodes N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with a CPU search; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --nodes N   graph size, 300..%d (default %d)\n",
	        DEFAULT_PTX, MAX_NODES, DEFAULT_NODES);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long nodes = DEFAULT_NODES;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "bfs", .ptx = DEFAULT_PTX};
	graph_t g = {0};
	int32_t *cost = NULL, *ref = NULL;
	int iters = 0, err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i))
			continue;
		/* at least one node per level beyond the source */
		if (!strcmp(argv[i], "--nodes") && i + 1 < argc &&
		    app_parse_long(argv[++i], 300, MAX_NODES, &nodes))
			continue;
		return usage();
	}

	cost = malloc(sizeof *cost * (size_t)nodes);
	ref = malloc(sizeof *ref * (size_t)nodes);
	if (!cost || !ref || graph_make(&g, (int)nodes, 1) != 0) {
		fprintf(stderr, "bfs: out of memory\n");
		goto out;
	}
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = bfs_gpu(&a, &g, cost, &iters)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	print_result(&g, cost, iters);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = a.check ? check_result(&g, cost, iters, ref) : APP_OK;

out:
	app_close(&a);
	graph_free(&g);
	free(cost);
	free(ref);
	return status;
}
