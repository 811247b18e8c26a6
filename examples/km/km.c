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

#include "app.h"
#include "km_host.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

/* Far above the default run (a few 10^5 cycles) and the largest sizes the
 * options allow at a few iterations: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/km/km.ptx";
static const char K_INVERT[] = "_Z14invert_mappingPfS_ii";
static const char K_POINT[] = "_Z11kmeansPointPfiiiPiS_S_S0_";

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf, in allocation order */
enum { B_FEAT, B_FLIP, B_MEMB, B_CLUST, B_BCLUST, B_BDELTA, NBUF };

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

	for (int b = 0; b < NBUF; b++)
		APP_TRY(a, app_malloc(a, sizes[b], NULL), "allocate a buffer");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_FEAT], feat, sizes[B_FEAT]), "copy the points in");
	void *iargs[] = {&a->buf[B_FEAT], &a->buf[B_FLIP], &inp, &inf};
	APP_TRY(a, sc_launch(a->gpu, a->mod, K_INVERT, grid1, block, 0, iargs), "launch invert_mapping");

	void *pargs[] = {&a->buf[B_FLIP], &inf, &inp, &ik, &a->buf[B_MEMB], &a->buf[B_CLUST],
	                 &a->buf[B_BCLUST], &a->buf[B_BDELTA]};
	start(sh, feat, clusters, w);
	*iters = 0;
	do {
		APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_CLUST], clusters, sizes[B_CLUST]), "copy the centres in");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_POINT, grid2, block, 0, pargs), "launch kmeansPoint");
		APP_TRY(a, sc_memcpy_dtoh(a->gpu, memb, a->buf[B_MEMB], sizes[B_MEMB]), "copy the memberships out");
		delta = update(sh, feat, memb, w->old, clusters, w->sum, w->count);
		(*iters)++;
	} while (delta > 0 && *iters < MAX_ITERS);
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	return 0;
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
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long np = DEFAULT_POINTS, nf = DEFAULT_FEATURES, k = DEFAULT_CLUSTERS, seed = DEFAULT_SEED;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "km", .ptx = DEFAULT_PTX};
	float *feat = NULL, *clusters = NULL, *rclusters = NULL;
	int32_t *memb = NULL, *rmemb = NULL;
	work_t w = {0};
	int iters = 0, err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i) || size_option(argc, argv, &i, &np, &nf, &k, &seed))
			continue;
		return usage();
	}
	if (np < k)
		return usage();
	const shape_t sh = {(int)np, (int)nf, (int)k};

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
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = kmeans_gpu(&a, &sh, feat, clusters, memb, &w, &iters)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	print_result(&sh, iters, memb, clusters, &w);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = a.check ? check_result(&sh, feat, iters, memb, clusters, rclusters, rmemb, &w) : APP_OK;

out:
	app_close(&a);
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
