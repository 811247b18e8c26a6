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

enum {
	BLOCK = 512,          /* threads per CTA (GUFI Table I) */
	DEFAULT_NODES = 4096, /* GUFI's default input: grid 8 x 512 */
	LEVELS = 8,           /* levels 0..7: the search runs 8 iterations */
	MAX_NODES = 1 << 20,
};

/* Far above the default run (under 10^5 cycles) and any --nodes up to
 * MAX_NODES: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 200000000;

static const char DEFAULT_PTX[] = "examples/bfs/bfs.ptx";
static const char K_EXPAND[] = "_Z6KernelP4NodePiPbS2_S2_S1_i";
static const char K_COMMIT[] = "_Z7Kernel2PbS_S_S_i";

/* ---- the input: a seeded random graph with a known depth ------------------ */

static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(app_splitmix64(s) % n); }

typedef struct node {
	int32_t first, degree; /* as struct Node in bfs.cu */
} node_t;

typedef struct graph {
	int n, nedges;
	node_t *nodes;
	int32_t *edges;
} graph_t;

/* Cumulative share of the nodes on levels below L, in thousandths: level 0
 * is node 0 alone, then the levels widen and narrow again like a real
 * search's frontier. */
static const int LEVEL_END[LEVELS] = {0, 4, 30, 120, 300, 550, 800, 1000};

/* Builds an undirected graph whose nodes sit on LEVELS levels, node ids
 * shuffled: every node below level 0 has an edge to a node one level up,
 * and every edge joins levels at most one apart, so a node's BFS cost from
 * node 0 is its level and the search takes exactly LEVELS iterations. Each
 * node adds 0..3 more edges to random nodes on neighbouring levels.
 * Returns 0, or -1 when out of memory. */
static int graph_make(graph_t *g, int n, uint64_t seed)
{
	int *perm = malloc(sizeof *perm * (size_t)n), *start = malloc(sizeof *start * (LEVELS + 1));
	int *from = NULL, *to = NULL, m = 0, cap = 9 * n;
	uint64_t s = seed;

	g->nodes = NULL;
	g->edges = NULL;
	from = malloc(sizeof *from * (size_t)cap);
	to = malloc(sizeof *to * (size_t)cap);
	if (!perm || !start || !from || !to)
		goto fail;
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 1; i--) { /* node 0 stays the source */
		int j = 1 + (int)below(&s, (uint32_t)i);
		int t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	/* perm[start[L] .. start[L+1]) are the nodes of level L. */
	start[0] = 0;
	for (int l = 1; l < LEVELS; l++)
		start[l] = 1 + (int)((int64_t)(n - 1) * LEVEL_END[l - 1] / 1000);
	start[1] = 1;
	start[LEVELS] = n;
	for (int l = 1; l < LEVELS; l++)
		for (int k = start[l]; k < start[l + 1]; k++) {
			int lo = start[l - 1], cnt = start[l] - lo;
			from[m] = perm[k];
			to[m++] = perm[lo + (int)below(&s, (uint32_t)cnt)];
		}
	for (int l = 0; l < LEVELS; l++)
		for (int k = start[l]; k < start[l + 1]; k++) {
			int extra = (int)below(&s, 4);
			for (int e = 0; e < extra; e++) {
				int l2 = l + (int)below(&s, 3) - 1;
				if (l2 < 0 || l2 >= LEVELS || start[l2 + 1] == start[l2])
					continue;
				int v = perm[start[l2] + (int)below(&s, (uint32_t)(start[l2 + 1] - start[l2]))];
				if (v == perm[k])
					continue;
				from[m] = perm[k];
				to[m++] = v;
			}
		}
	/* Both directions of every edge, in compressed sparse row form. */
	g->n = n;
	g->nedges = 2 * m;
	g->nodes = calloc((size_t)n, sizeof *g->nodes);
	g->edges = malloc(sizeof *g->edges * (size_t)g->nedges);
	if (!g->nodes || !g->edges)
		goto fail;
	for (int e = 0; e < m; e++) {
		g->nodes[from[e]].degree++;
		g->nodes[to[e]].degree++;
	}
	for (int i = 0, acc = 0; i < n; i++) {
		g->nodes[i].first = acc;
		acc += g->nodes[i].degree;
		g->nodes[i].degree = 0;
	}
	for (int e = 0; e < m; e++) {
		node_t *a = &g->nodes[from[e]], *b = &g->nodes[to[e]];
		g->edges[a->first + a->degree++] = to[e];
		g->edges[b->first + b->degree++] = from[e];
	}
	free(perm);
	free(start);
	free(from);
	free(to);
	return 0;
fail:
	free(g->nodes);
	free(g->edges);
	free(perm);
	free(start);
	free(from);
	free(to);
	return -1;
}

static void graph_free(graph_t *g)
{
	free(g->nodes);
	free(g->edges);
}

/* ---- the CPU reference: the kernels' level-synchronous steps ------------- */

static int bfs_cpu(const graph_t *g, int32_t *cost)
{
	int n = g->n, iters = 0;
	bool *frontier = calloc((size_t)n, 1), *next = calloc((size_t)n, 1);
	bool *visited = calloc((size_t)n, 1), more = true;

	if (!frontier || !next || !visited) {
		iters = -1;
		goto out;
	}
	for (int i = 0; i < n; i++)
		cost[i] = -1;
	cost[0] = 0;
	frontier[0] = visited[0] = true;
	while (more && iters <= n) {
		more = false;
		for (int id = 0; id < n; id++) {
			if (!frontier[id])
				continue;
			frontier[id] = false;
			for (int e = g->nodes[id].first; e < g->nodes[id].first + g->nodes[id].degree; e++)
				if (!visited[g->edges[e]]) {
					cost[g->edges[e]] = cost[id] + 1;
					next[g->edges[e]] = true;
				}
		}
		for (int id = 0; id < n; id++)
			if (next[id]) {
				frontier[id] = visited[id] = more = true;
				next[id] = false;
			}
		iters++;
	}
out:
	free(frontier);
	free(next);
	free(visited);
	return iters;
}

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

	int reached = 0, depth = 0;
	for (int i = 0; i < g.n; i++)
		if (cost[i] >= 0) {
			reached++;
			if (cost[i] > depth)
				depth = cost[i];
		}
	printf("bfs: %d nodes, %d edges, %d iterations, %d reached, depth %d, cost digest %016llx\n",
	       g.n, g.nedges, iters, reached, depth,
	       (unsigned long long)app_fnv1a(cost, sizeof *cost * (size_t)g.n));
	if (a.stats)
		app_print_kernel_stats(&a);
	status = APP_OK;
	if (a.check) {
		int ref_iters = bfs_cpu(&g, ref);
		if (ref_iters < 0) {
			fprintf(stderr, "bfs: out of memory\n");
			status = APP_FAIL;
		} else if (ref_iters != iters) {
			printf("bfs: FAIL: %d iterations on the GPU, %d on the CPU\n", iters, ref_iters);
			status = APP_FAIL;
		} else {
			for (int i = 0; i < g.n; i++)
				if (cost[i] != ref[i]) {
					printf("bfs: FAIL: cost[%d] = %d on the GPU, %d on the CPU\n", i,
					       (int)cost[i], (int)ref[i]);
					status = APP_FAIL;
					break;
				}
			if (status == APP_OK)
				printf("bfs: OK (%d costs and %d iterations match the CPU)\n", g.n, iters);
		}
	}

out:
	app_close(&a);
	graph_free(&g);
	free(cost);
	free(ref);
	return status;
}
