/* km — GUFI's KM application on the simulated GPU: k-means (Lloyd's
 * iterations) of seeded points, the assignment on the GPU (km.cu), the centre
 * update on the host, until no point changes cluster. --check repeats the
 * iterations on the CPU and compares bit for bit. See examples/km/README.md. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

enum {
	BLOCK = 256,            /* threads per CTA (GUFI Table I) */
	DEFAULT_POINTS = 1000,  /* GUFI's input: 1000 objects of 34 features */
	DEFAULT_FEATURES = 34,
	DEFAULT_CLUSTERS = 5,   /* the original's default k */
	DEFAULT_SEED = 56,      /* chosen so the default input takes GUFI's 13 iterations */
	MAX_POINTS = 1 << 18,
	MAX_FEATURES = 256,
	MAX_CLUSTERS = 64,
	MAX_ITERS = 500,        /* the original's cap */
};

/* Far above the default run (a few 10^5 cycles) and the largest sizes the
 * options allow at a few iterations: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/km/km.ptx";
static const char K_INVERT[] = "_Z14invert_mappingPfS_ii";
static const char K_POINT[] = "_Z11kmeansPointPfiiiPiS_S_S0_";

/* Exit statuses (examples/README.md, as iterate). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

typedef struct shape {
	int np, nf, k;
} shape_t;

/* splitmix64: a tiny seeded generator, the same sequence on every machine. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1), from the top 24 bits: exact in float. */
static float uniform(uint64_t *s) { return (float)(next_rand(s) >> 40) / 16777216.0f; }

/* Points scattered widely around k random centres in [0, 1)^nf (spread 1.5,
 * so the groups overlap and Lloyd's iterations take a while to settle). */
static void points_make(const shape_t *sh, float *feat, uint64_t seed)
{
	uint64_t s = seed;
	float *centre = malloc(sizeof *centre * (size_t)sh->k * (size_t)sh->nf);

	if (!centre)
		abort(); /* a few KB; main checked far larger allocations */
	for (int i = 0; i < sh->k * sh->nf; i++)
		centre[i] = uniform(&s);
	for (int p = 0; p < sh->np; p++) {
		int c = (int)(next_rand(&s) % (uint64_t)sh->k);
		for (int f = 0; f < sh->nf; f++)
			feat[p * sh->nf + f] = centre[c * sh->nf + f] + 1.5f * (uniform(&s) - 0.5f);
	}
	free(centre);
}

/* The host's half of an iteration, shared by the GPU run and the reference:
 * each centre becomes the mean of its points, summed in float in point
 * order; a centre with no points stays put. Returns how many points changed
 * cluster since `old` (updated to `memb`). */
static int update(const shape_t *sh, const float *feat, const int32_t *memb, int32_t *old,
                  float *clusters, float *sum, int *count)
{
	int delta = 0;

	for (int p = 0; p < sh->np; p++) {
		if (memb[p] != old[p])
			delta++;
		old[p] = memb[p];
	}
	memset(sum, 0, sizeof *sum * (size_t)sh->k * (size_t)sh->nf);
	memset(count, 0, sizeof *count * (size_t)sh->k);
	for (int p = 0; p < sh->np; p++) {
		int c = memb[p];
		if (c < 0 || c >= sh->k)
			continue; /* a corrupted membership counts as a change, nothing more */
		count[c]++;
		for (int f = 0; f < sh->nf; f++)
			sum[c * sh->nf + f] += feat[p * sh->nf + f];
	}
	for (int c = 0; c < sh->k; c++)
		if (count[c] > 0)
			for (int f = 0; f < sh->nf; f++)
				clusters[c * sh->nf + f] = sum[c * sh->nf + f] / (float)count[c];
	return delta;
}

/* ---- the CPU reference: kmeansPoint's arithmetic (sub.f32 then
 * fma.rn.f32 of the difference with itself; setp.lt keeps the first
 * nearest centre) and the same host half. */

static void assign_cpu(const shape_t *sh, const float *feat, const float *clusters, int32_t *memb)
{
	for (int p = 0; p < sh->np; p++) {
		int best = 0;
		float best_dist = FLT_MAX;
		for (int c = 0; c < sh->k; c++) {
			float dist = 0.0f;
			for (int f = 0; f < sh->nf; f++) {
				float d = feat[p * sh->nf + f] - clusters[c * sh->nf + f];
				dist = fmaf(d, d, dist);
			}
			if (dist < best_dist) {
				best_dist = dist;
				best = c;
			}
		}
		memb[p] = best;
	}
}

/* Work space for the iterations: the previous memberships and the sums. */
typedef struct work {
	int32_t *old;
	float *sum;
	int *count;
} work_t;

/* The first k points are the initial centres (as the original); every
 * membership starts at -1, so the first iteration changes them all. */
static void start(const shape_t *sh, const float *feat, float *clusters, work_t *w)
{
	memcpy(clusters, feat, sizeof *clusters * (size_t)sh->k * (size_t)sh->nf);
	for (int p = 0; p < sh->np; p++)
		w->old[p] = -1;
}

static int kmeans_cpu(const shape_t *sh, const float *feat, float *clusters, int32_t *memb, work_t *w)
{
	int iters = 0, delta;

	start(sh, feat, clusters, w);
	do {
		assign_cpu(sh, feat, clusters, memb);
		delta = update(sh, feat, memb, w->old, clusters, w->sum, w->count);
		iters++;
	} while (delta > 0 && iters < MAX_ITERS);
	return iters;
}

/* ---- the simulated GPU ---------------------------------------------------- */

enum { B_FEAT, B_FLIP, B_MEMB, B_CLUST, B_BCLUST, B_BDELTA, NBUF };

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

/* Clusters on the GPU: final centres, memberships and iterations out.
 * Returns 0 or an SC_E* code, naming the failing call in a->what. */
static int kmeans_gpu(app_t *a, const shape_t *sh, const float *feat, float *clusters, int32_t *memb,
                      work_t *w, int *iters)
{
	const uint64_t np = (uint64_t)sh->np, nf = (uint64_t)sh->nf, k = (uint64_t)sh->k;
	const uint32_t blocks = (uint32_t)((np + BLOCK - 1) / BLOCK);
	uint32_t side = 1;
	while (side * side < blocks)
		side++;
	const sc_dim3_t grid1 = {blocks, 1, 1}, grid2 = {side, side, 1}, block = {BLOCK, 1, 1};
	const uint64_t sizes[NBUF] = {4 * np * nf, 4 * np * nf, 4 * np, 4 * k * nf,
	                              4 * (uint64_t)side * side * k * nf, 4 * (uint64_t)side * side};
	int32_t inp = sh->np, inf = sh->nf, ik = sh->k;
	int delta;

	for (; a->nbuf < NBUF; a->nbuf++)
		TRY(a, sc_malloc(a->gpu, sizes[a->nbuf], &a->buf[a->nbuf]), "allocate a buffer");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_FEAT], feat, sizes[B_FEAT]), "copy the points in");
	void *iargs[] = {&a->buf[B_FEAT], &a->buf[B_FLIP], &inp, &inf};
	TRY(a, sc_launch(a->gpu, a->mod, K_INVERT, grid1, block, 0, iargs), "launch invert_mapping");

	void *pargs[] = {&a->buf[B_FLIP], &inf, &inp, &ik, &a->buf[B_MEMB], &a->buf[B_CLUST],
	                 &a->buf[B_BCLUST], &a->buf[B_BDELTA]};
	start(sh, feat, clusters, w);
	*iters = 0;
	do {
		TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_CLUST], clusters, sizes[B_CLUST]), "copy the centres in");
		TRY(a, sc_launch(a->gpu, a->mod, K_POINT, grid2, block, 0, pargs), "launch kmeansPoint");
		TRY(a, sc_memcpy_dtoh(a->gpu, memb, a->buf[B_MEMB], sizes[B_MEMB]), "copy the memberships out");
		delta = update(sh, feat, memb, w->old, clusters, w->sum, w->count);
		(*iters)++;
	} while (delta > 0 && *iters < MAX_ITERS);
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "km: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "km: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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

/* Compares n 32-bit words bit for bit; prints the first difference. */
static bool same(const char *name, const void *gpu, const void *cpu, int n, bool is_float)
{
	for (int i = 0; i < n; i++) {
		uint32_t g, c;
		memcpy(&g, (const char *)gpu + 4 * (size_t)i, 4);
		memcpy(&c, (const char *)cpu + 4 * (size_t)i, 4);
		if (g == c)
			continue;
		if (is_float) {
			float gf, cf;
			memcpy(&gf, &g, 4);
			memcpy(&cf, &c, 4);
			printf("km: FAIL: %s[%d] = %.9g (0x%08x) on the GPU, %.9g (0x%08x) on the CPU\n", name, i,
			       (double)gf, (unsigned)g, (double)cf, (unsigned)c);
		} else {
			printf("km: FAIL: %s[%d] = %d on the GPU, %d on the CPU\n", name, i, (int)g, (int)c);
		}
		return false;
	}
	return true;
}

static int usage(void)
{
	fprintf(stderr,
	        "usage: km [--ptx FILE] [--check] [--stats] [--points N] [--features F] [--clusters K] [--seed S]\n"
	        "  --ptx FILE     the kernels (default %s)\n"
	        "  --check        compare with the CPU, bit for bit; exit 1 on a difference\n"
	        "  --stats        per-kernel statistics on stderr\n"
	        "  --points N     points, K..%d (default %d)\n"
	        "  --features F   features per point, 1..%d (default %d)\n"
	        "  --clusters K   centres, 1..%d (default %d)\n"
	        "  --seed S       input seed (default %d)\n",
	        DEFAULT_PTX, MAX_POINTS, DEFAULT_POINTS, MAX_FEATURES, DEFAULT_FEATURES, MAX_CLUSTERS,
	        DEFAULT_CLUSTERS, DEFAULT_SEED);
	return EXIT_BADINPUT;
}

/* Parses a decimal option value in [lo, hi]; false when it is not one. */
static bool parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	const char *ptx = DEFAULT_PTX;
	bool check = false, stats = false;
	long np = DEFAULT_POINTS, nf = DEFAULT_FEATURES, k = DEFAULT_CLUSTERS, seed = DEFAULT_SEED;
	sc_gpu_config_t cfg;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.gpu = NULL, .nbuf = 0, .what = ""};
	float *feat = NULL, *clusters = NULL, *rclusters = NULL;
	int32_t *memb = NULL, *rmemb = NULL;
	work_t w = {0};
	int iters = 0, err, status = EXIT_FAIL;
	char msg[256];

	for (int i = 1; i < argc; i++) {
		bool ok = true;
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--stats"))
			stats = true;
		else if (!strcmp(argv[i], "--ptx") && i + 1 < argc)
			ptx = argv[++i];
		else if (!strcmp(argv[i], "--points") && i + 1 < argc)
			ok = parse_int(argv[++i], 1, MAX_POINTS, &np);
		else if (!strcmp(argv[i], "--features") && i + 1 < argc)
			ok = parse_int(argv[++i], 1, MAX_FEATURES, &nf);
		else if (!strcmp(argv[i], "--clusters") && i + 1 < argc)
			ok = parse_int(argv[++i], 1, MAX_CLUSTERS, &k);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			ok = parse_int(argv[++i], 0, 1000000000, &seed);
		else
			ok = false;
		if (!ok)
			return usage();
	}
	if (np < k)
		return usage();
	const shape_t sh = {(int)np, (int)nf, (int)k};

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "km: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
	}
	feat = malloc(sizeof *feat * (size_t)np * (size_t)nf);
	clusters = malloc(sizeof *clusters * (size_t)k * (size_t)nf);
	rclusters = malloc(sizeof *rclusters * (size_t)k * (size_t)nf);
	memb = malloc(sizeof *memb * (size_t)np);
	rmemb = malloc(sizeof *rmemb * (size_t)np);
	w.old = malloc(sizeof *w.old * (size_t)np);
	w.sum = malloc(sizeof *w.sum * (size_t)k * (size_t)nf);
	w.count = malloc(sizeof *w.count * (size_t)k);
	if (!feat || !clusters || !rclusters || !memb || !rmemb || !w.old || !w.sum || !w.count) {
		fprintf(stderr, "km: out of memory\n");
		goto out;
	}
	points_make(&sh, feat, (uint64_t)seed);
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = kmeans_gpu(&a, &sh, feat, clusters, memb, &w, &iters)) != 0) {
		status = report(a.gpu, err, a.what);
		goto out;
	}

	printf("km: %ld points, %ld features, %ld clusters, %d iterations, digest %016llx (membership) "
	       "%016llx (centres), cluster sizes",
	       np, nf, k, iters, (unsigned long long)fnv1a(memb, sizeof *memb * (size_t)np),
	       (unsigned long long)fnv1a(clusters, sizeof *clusters * (size_t)k * (size_t)nf));
	for (int c = 0; c < sh.k; c++)
		printf(" %d", w.count[c]);
	printf("\n");
	if (stats)
		print_stats(a.gpu, &cfg, "km");
	status = EXIT_OK;
	if (check) {
		int riters = kmeans_cpu(&sh, feat, rclusters, rmemb, &w);
		if (riters != iters) {
			printf("km: FAIL: %d iterations on the GPU, %d on the CPU\n", iters, riters);
			status = EXIT_FAIL;
		} else if (!same("membership", memb, rmemb, sh.np, false) ||
		           !same("centre", clusters, rclusters, sh.k * sh.nf, true)) {
			status = EXIT_FAIL;
		} else {
			printf("km: OK (%d iterations; memberships and centres match the CPU bit for bit)\n", iters);
		}
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a.nbuf > 0)
		sc_free(a.gpu, a.buf[--a.nbuf]);
	sc_gpu_destroy(a.gpu);
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
