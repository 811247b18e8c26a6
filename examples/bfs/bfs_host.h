/* bfs_host.h — what bfs.c and bfs_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef BFS_HOST_H
#define BFS_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum {
	BLOCK = 512,          /* threads per CTA (GUFI Table I) */
	DEFAULT_NODES = 4096, /* GUFI's default input: grid 8 x 512 */
	LEVELS = 8,           /* levels 0..7: the search runs 8 iterations */
	MAX_NODES = 1 << 20,
};

/* ---- the input: a seeded random graph with a known depth ------------------ */

static inline uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(app_splitmix64(s) % n); }

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
static inline int graph_make(graph_t *g, int n, uint64_t seed)
{
	int *perm = (int *)malloc(sizeof *perm * (size_t)n), *start = (int *)malloc(sizeof *start * (LEVELS + 1));
	int *from = NULL, *to = NULL, m = 0, cap = 9 * n;
	uint64_t s = seed;

	g->nodes = NULL;
	g->edges = NULL;
	from = (int *)malloc(sizeof *from * (size_t)cap);
	to = (int *)malloc(sizeof *to * (size_t)cap);
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
	g->nodes = (node_t *)calloc((size_t)n, sizeof *g->nodes);
	g->edges = (int32_t *)malloc(sizeof *g->edges * (size_t)g->nedges);
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

static inline void graph_free(graph_t *g)
{
	free(g->nodes);
	free(g->edges);
}

/* ---- the CPU reference: the kernels' level-synchronous steps ------------- */

static inline int bfs_cpu(const graph_t *g, int32_t *cost)
{
	int n = g->n, iters = 0;
	bool *frontier = (bool *)calloc((size_t)n, 1), *next = (bool *)calloc((size_t)n, 1);
	bool *visited = (bool *)calloc((size_t)n, 1), more = true;

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

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout. */
static inline void print_result(const graph_t *g, const int32_t *cost, int iters)
{
	int reached = 0, depth = 0;
	for (int i = 0; i < g->n; i++)
		if (cost[i] >= 0) {
			reached++;
			if (cost[i] > depth)
				depth = cost[i];
		}
	printf("bfs: %d nodes, %d edges, %d iterations, %d reached, depth %d, cost digest %016llx\n",
	       g->n, g->nedges, iters, reached, depth,
	       (unsigned long long)app_fnv1a(cost, sizeof *cost * (size_t)g->n));
}

/* --check: the CPU's search (into ref, g->n costs) against the GPU's costs
 * and iterations; prints OK or the first difference on stdout. Returns
 * APP_OK or APP_FAIL. */
static inline int check_result(const graph_t *g, const int32_t *cost, int iters, int32_t *ref)
{
	int ref_iters = bfs_cpu(g, ref);
	if (ref_iters < 0) {
		fprintf(stderr, "bfs: out of memory\n");
		return APP_FAIL;
	}
	if (ref_iters != iters) {
		printf("bfs: FAIL: %d iterations on the GPU, %d on the CPU\n", iters, ref_iters);
		return APP_FAIL;
	}
	for (int i = 0; i < g->n; i++)
		if (cost[i] != ref[i]) {
			printf("bfs: FAIL: cost[%d] = %d on the GPU, %d on the CPU\n", i, (int)cost[i], (int)ref[i]);
			return APP_FAIL;
		}
	printf("bfs: OK (%d costs and %d iterations match the CPU)\n", g->n, iters);
	return APP_OK;
}

#endif
