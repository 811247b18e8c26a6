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

#include "simcore.h"

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

/* Exit statuses (examples/README.md, as iterate). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

/* ---- the input: a seeded random graph with a known depth ------------------ */

/* splitmix64: a tiny seeded generator, the same sequence on every machine. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(next_rand(s) % n); }

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

enum { B_NODES, B_EDGES, B_FRONTIER, B_NEXT, B_VISITED, B_COST, B_MORE, NBUF };

typedef struct app {
	sc_gpu_t *gpu;
	sc_module_t *mod;
	uint64_t buf[NBUF];
	int nbuf;          /* how many of buf are allocated */
	const char *what;  /* the call that failed, for the message */
} app_t;

#define TRY(a, call, name)                                                \
	do {                                                                  \
		int e_ = (call);                                                  \
		if (e_ != 0) {                                                    \
			(a)->what = (name);                                           \
			return e_;                                                    \
		}                                                                 \
	} while (0)

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

	for (; a->nbuf < NBUF; a->nbuf++)
		TRY(a, sc_malloc(a->gpu, sizes[a->nbuf], &a->buf[a->nbuf]), "allocate a buffer");
	for (int i = 0; i < g->n; i++)
		cost[i] = -1;
	cost[0] = 0;
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_NODES], g->nodes, sizes[B_NODES]), "copy the nodes in");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_EDGES], g->edges, sizes[B_EDGES]), "copy the edges in");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_COST], cost, sizes[B_COST]), "copy the costs in");
	for (int b = B_FRONTIER; b <= B_VISITED; b++)
		TRY(a, sc_memset(a->gpu, a->buf[b], 0, n), "clear the masks");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_FRONTIER], &one, 1), "mark the source");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_VISITED], &one, 1), "mark the source");

	void *xargs[] = {&a->buf[B_NODES], &a->buf[B_EDGES], &a->buf[B_FRONTIER], &a->buf[B_NEXT],
	                 &a->buf[B_VISITED], &a->buf[B_COST], &nn};
	void *cargs[] = {&a->buf[B_FRONTIER], &a->buf[B_NEXT], &a->buf[B_VISITED], &a->buf[B_MORE], &nn};
	uint8_t more = 1;
	*iters = 0;
	/* A level can only be new once: more than n iterations means the
	 * simulated program went wrong; the host gives up like the CPU does. */
	while (more && *iters <= g->n) {
		TRY(a, sc_memset(a->gpu, a->buf[B_MORE], 0, 1), "clear the flag");
		TRY(a, sc_launch(a->gpu, a->mod, K_EXPAND, grid, block, 0, xargs), "launch Kernel");
		TRY(a, sc_launch(a->gpu, a->mod, K_COMMIT, grid, block, 0, cargs), "launch Kernel2");
		TRY(a, sc_memcpy_dtoh(a->gpu, &more, a->buf[B_MORE], 1), "read the flag");
		(*iters)++;
	}
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	TRY(a, sc_memcpy_dtoh(a->gpu, cost, a->buf[B_COST], sizes[B_COST]), "copy the costs out");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "bfs: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "bfs: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
	/* The PTX is the program's only input file: an unreadable, unparsable or
	 * mismatching module (no such kernel, too big to launch) is bad input. */
	if (err == SC_EIO || err == SC_EPARSE || err == SC_ENOTFOUND || err == SC_ELAUNCH)
		return EXIT_BADINPUT;
	return EXIT_FAIL;
}

/* --stats: per kernel its launches, shape, cycles, IPC and warp occupancy,
 * then the application's IPC (thread-instructions / cycles) and average warp
 * occupancy (GUFI Table III: each launch's occupancy weighted by its share of
 * the cycles). `occupancy` is the simulator's: the warps of ctas_per_sm CTAs
 * (the resource limit) over the SM's maximum; `resident` caps the CTAs per
 * SM by what the grid can give each SM, which is what a small grid really
 * keeps resident. */
static void print_stats(const sc_gpu_t *gpu, const sc_gpu_config_t *cfg, const char *app)
{
	sc_gpu_stats_t tot;
	uint32_t nl = sc_launch_count(gpu);
	double occ = 0, res = 0;

	sc_gpu_stats(gpu, &tot);
	for (uint32_t i = 0; i < nl; i++) {
		const sc_launch_stats_t *l = sc_launch_stats(gpu, i);
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = !strcmp(sc_launch_stats(gpu, j)->kernel, l->kernel);
		if (seen)
			continue;
		uint32_t count = 0;
		uint64_t cyc = 0, ti = 0;
		double kocc = 0, kres = 0;
		const sc_launch_stats_t *last = l;
		for (uint32_t j = i; j < nl; j++) {
			const sc_launch_stats_t *m = sc_launch_stats(gpu, j);
			if (strcmp(m->kernel, l->kernel))
				continue;
			uint64_t ctas = (uint64_t)m->grid.x * m->grid.y * m->grid.z;
			uint32_t warps = (m->block.x * m->block.y * m->block.z + cfg->warp_size - 1) / cfg->warp_size;
			uint64_t per_sm = (ctas + cfg->num_sms - 1) / cfg->num_sms;
			if (per_sm > m->ctas_per_sm)
				per_sm = m->ctas_per_sm;
			count++;
			cyc += m->cycles;
			ti += m->thread_insts;
			kocc += m->occupancy * (double)m->cycles;
			kres += (double)(per_sm * warps) / cfg->max_warps_per_sm * (double)m->cycles;
			last = m;
		}
		occ += kocc;
		res += kres;
		fprintf(stderr,
		        "%s: kernel %s: %u launches, grid %ux%ux%u..%ux%ux%u, block %ux%ux%u, "
		        "%u regs, %u B smem, limiter %s, %llu cycles, %llu thread-insts, IPC %.2f, "
		        "occupancy %.2f%% (resident %.2f%%)\n",
		        app, l->kernel, count, l->grid.x, l->grid.y, l->grid.z, last->grid.x, last->grid.y,
		        last->grid.z, l->block.x, l->block.y, l->block.z, l->regs_per_thread, l->smem_per_cta, l->limiter,
		        (unsigned long long)cyc, (unsigned long long)ti, cyc ? (double)ti / (double)cyc : 0.0,
		        cyc ? 100.0 * kocc / (double)cyc : 0.0, cyc ? 100.0 * kres / (double)cyc : 0.0);
	}
	fprintf(stderr,
	        "%s: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%% (resident %.2f%%)\n",
	        app, tot.launches, (unsigned long long)tot.cycles, (unsigned long long)tot.thread_insts,
	        (unsigned long long)tot.warp_insts, tot.cycles ? (double)tot.thread_insts / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * occ / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * res / (double)tot.cycles : 0.0);
}

/* FNV-1a, 64 bits: the digest printed for the output. */
static uint64_t fnv1a(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int usage(void)
{
	fprintf(stderr, "usage: bfs [--ptx FILE] [--check] [--stats] [--nodes N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with a CPU search; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --nodes N   graph size, 300..%d (default %d)\n",
	        DEFAULT_PTX, MAX_NODES, DEFAULT_NODES);
	return EXIT_BADINPUT;
}

int main(int argc, char **argv)
{
	const char *ptx = DEFAULT_PTX;
	bool check = false, stats = false;
	long nodes = DEFAULT_NODES;
	sc_gpu_config_t cfg;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.gpu = NULL, .nbuf = 0, .what = ""};
	graph_t g = {0};
	int32_t *cost = NULL, *ref = NULL;
	int iters = 0, err, status = EXIT_FAIL;
	char msg[256];

	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--check")) {
			check = true;
		} else if (!strcmp(argv[i], "--stats")) {
			stats = true;
		} else if (!strcmp(argv[i], "--ptx") && i + 1 < argc) {
			ptx = argv[++i];
		} else if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
			nodes = strtol(argv[++i], &end, 10);
			/* at least one node per level beyond the source */
			if (*end || nodes < 300 || nodes > MAX_NODES)
				return usage();
		} else {
			return usage();
		}
	}

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "bfs: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
	}
	cost = malloc(sizeof *cost * (size_t)nodes);
	ref = malloc(sizeof *ref * (size_t)nodes);
	if (!cost || !ref || graph_make(&g, (int)nodes, 1) != 0) {
		fprintf(stderr, "bfs: out of memory\n");
		goto out;
	}
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = bfs_gpu(&a, &g, cost, &iters)) != 0) {
		status = report(a.gpu, err, a.what);
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
	       (unsigned long long)fnv1a(cost, sizeof *cost * (size_t)g.n));
	if (stats)
		print_stats(a.gpu, &cfg, "bfs");
	status = EXIT_OK;
	if (check) {
		int ref_iters = bfs_cpu(&g, ref);
		if (ref_iters < 0) {
			fprintf(stderr, "bfs: out of memory\n");
			status = EXIT_FAIL;
		} else if (ref_iters != iters) {
			printf("bfs: FAIL: %d iterations on the GPU, %d on the CPU\n", iters, ref_iters);
			status = EXIT_FAIL;
		} else {
			for (int i = 0; i < g.n; i++)
				if (cost[i] != ref[i]) {
					printf("bfs: FAIL: cost[%d] = %d on the GPU, %d on the CPU\n", i,
					       (int)cost[i], (int)ref[i]);
					status = EXIT_FAIL;
					break;
				}
			if (status == EXIT_OK)
				printf("bfs: OK (%d costs and %d iterations match the CPU)\n", g.n, iters);
		}
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a.nbuf > 0)
		sc_free(a.gpu, a.buf[--a.nbuf]);
	sc_gpu_destroy(a.gpu);
	graph_free(&g);
	free(cost);
	free(ref);
	return status;
}
