/* spg — GUFI's SP at its Table I shape as a host program on simcore.h: one
 * launch of scalarProdGPU (spg.cu, the kernel of examples/scalarprod) takes
 * the dot products of seeded float vector pairs. Prints the products'
 * FNV-1a digest; with --check compares them bit for bit with the kernel's
 * summation order repeated on the CPU.
 * Usage, shape and figures: examples/spg/README.md. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "spg_host.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "spg needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with the elements per CTA (the default run: 258 306 cycles,
 * 32 per element of a CTA), and never under a million. */
static const uint64_t CYCLES_PER_WORK = 3200;
static const uint64_t MIN_BUDGET = 1000000;

static const char DEFAULT_PTX[] = "examples/spg/spg.ptx";
static const char KERNEL[] = "_Z13scalarProdGPUPfS_S_ii";

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: spg [--ptx FILE] [--check] [--stats] [--pairs P] [--n N]\n"
	        "  defaults: --ptx %s --pairs %d --n %d\n"
	        "  P pairs of N floats, P*N <= 16777216; grid min(P, %d) x %d\n",
	        DEFAULT_PTX, DEF_PAIRS, DEF_N, MAX_GRID, BLOCK);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (app_option(app, argc, argv, &i))
			continue;
		if (!strcmp(a, "--pairs") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 1 << 24, &pp->pairs))
				return false;
		} else if (!strcmp(a, "--n") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 1 << 24, &pp->n))
				return false;
		} else
			return false;
	}
	return (int64_t)pp->pairs * pp->n <= (1 << 24);
}

int main(int argc, char **argv)
{
	params_t pp = {.pairs = DEF_PAIRS, .n = DEF_N};
	app_t app = {.name = "spg", .ptx = DEFAULT_PTX};
	uint64_t da = 0, db = 0, dc = 0;
	float *a = NULL, *b = NULL, *c = NULL;
	int err, status = APP_FAIL;

	if (!parse_args(argc, argv, &app, &pp))
		return usage();
	const size_t n = (size_t)pp.pairs * pp.n;
	const uint64_t bytes = n * sizeof(float), cbytes = (uint64_t)pp.pairs * sizeof(float);
	const uint32_t blocks = pp.pairs < MAX_GRID ? (uint32_t)pp.pairs : MAX_GRID;
	uint64_t budget = CYCLES_PER_WORK * ((n + blocks - 1) / blocks);
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	a = malloc(bytes);
	b = malloc(bytes);
	c = malloc(cbytes);
	if (!a || !b || !c) {
		fprintf(stderr, "spg: out of memory\n");
		goto out;
	}
	input_init(a, b, n);

	if ((status = app_open(&app, &opt, app.ptx)) != APP_OK)
		goto out;
	if ((err = app_malloc(&app, bytes, &da)) != 0 || (err = app_malloc(&app, bytes, &db)) != 0 ||
	    (err = app_malloc(&app, cbytes, &dc)) != 0) {
		status = app_report(&app, err, "allocate the vectors");
		goto out;
	}
	if ((err = sc_memcpy_htod(app.gpu, da, a, bytes)) != 0 ||
	    (err = sc_memcpy_htod(app.gpu, db, b, bytes)) != 0) {
		status = app_report(&app, err, "copy the vectors in");
		goto out;
	}
	int32_t npairs = pp.pairs, nn = pp.n;
	void *args[] = {&dc, &da, &db, &npairs, &nn};
	if ((err = sc_launch(app.gpu, app.mod, KERNEL, (sc_dim3_t){blocks, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0,
	                     args)) != 0) {
		status = app_report(&app, err, "launch scalarProdGPU");
		goto out;
	}
	if ((err = sc_memcpy_dtoh(app.gpu, c, dc, cbytes)) != 0) {
		status = app_report(&app, err, "copy the products out");
		goto out;
	}

	print_result(&pp, c);
	if (app.stats)
		app_print_launch_stats(&app);
	status = app.check ? check_result(&pp, a, b, c) : APP_OK;

out:
	app_close(&app);
	free(c);
	free(b);
	free(a);
	return status;
}
