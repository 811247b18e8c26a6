/* vaddg — GUFI's VADD at its Table I shape as a host program on simcore.h:
 * one launch of VecAdd (vaddg.cu, the kernel of examples/vadd) adds two
 * seeded float vectors. Prints the sum's FNV-1a digest; with --check
 * compares it bit for bit with the CPU's additions.
 * Usage, shape and figures: examples/vaddg/README.md. */
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "vaddg_host.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "vaddg needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with the CTAs (the default run: 3 848 cycles, 19 per CTA),
 * and never under a million. */
static const uint64_t CYCLES_PER_WORK = 1900;
static const uint64_t MIN_BUDGET = 1000000;

static const char DEFAULT_PTX[] = "examples/vaddg/vaddg.ptx";
static const char KERNEL[] = "_Z6VecAddPKfS0_Pfi";

typedef struct params {
	int n;
} params_t;

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: vaddg [--ptx FILE] [--check] [--stats] [--n N]\n"
	        "  defaults: --ptx %s --n %d (N in 1..16777216; grid ceil(N/%d) x %d)\n",
	        DEFAULT_PTX, DEF_N, BLOCK, BLOCK);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (app_option(app, argc, argv, &i))
			continue;
		if (!strcmp(a, "--n") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 1 << 24, &pp->n))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.n = DEF_N};
	app_t app = {.name = "vaddg", .ptx = DEFAULT_PTX};
	uint64_t da = 0, db = 0, dc = 0;
	float *a = NULL, *b = NULL, *c = NULL;
	int err, status = APP_FAIL;

	if (!parse_args(argc, argv, &app, &pp))
		return usage();
	const size_t n = (size_t)pp.n;
	const uint64_t bytes = n * sizeof(float);
	const uint32_t blocks = (uint32_t)((n + BLOCK - 1) / BLOCK);
	uint64_t budget = CYCLES_PER_WORK * blocks;
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	a = malloc(bytes);
	b = malloc(bytes);
	c = malloc(bytes);
	if (!a || !b || !c) {
		fprintf(stderr, "vaddg: out of memory\n");
		goto out;
	}
	input_init(a, b, n);

	if ((status = app_open(&app, &opt, app.ptx)) != APP_OK)
		goto out;
	if ((err = app_malloc(&app, bytes, &da)) != 0 || (err = app_malloc(&app, bytes, &db)) != 0 ||
	    (err = app_malloc(&app, bytes, &dc)) != 0) {
		status = app_report(&app, err, "allocate the vectors");
		goto out;
	}
	if ((err = sc_memcpy_htod(app.gpu, da, a, bytes)) != 0 ||
	    (err = sc_memcpy_htod(app.gpu, db, b, bytes)) != 0) {
		status = app_report(&app, err, "copy the vectors in");
		goto out;
	}
	int32_t nn = pp.n;
	void *args[] = {&da, &db, &dc, &nn};
	if ((err = sc_launch(app.gpu, app.mod, KERNEL, (sc_dim3_t){blocks, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0,
	                     args)) != 0) {
		status = app_report(&app, err, "launch VecAdd");
		goto out;
	}
	if ((err = sc_memcpy_dtoh(app.gpu, c, dc, bytes)) != 0) {
		status = app_report(&app, err, "copy the sum out");
		goto out;
	}

	print_result(c, pp.n);
	if (app.stats)
		app_print_launch_stats(&app);
	status = app.check ? check_result(a, b, c, pp.n) : APP_OK;

out:
	app_close(&app);
	free(c);
	free(b);
	free(a);
	return status;
}
