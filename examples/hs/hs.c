/* hs — GUFI's HS (HotSpot) as a host program on simcore.h: transient chip
 * temperature on a square floor plan by the calculate_temp kernel (hs.cu),
 * `pyramid` time steps per launch, launches until `iterations` steps are
 * done. Prints the final field's FNV-1a digest; with --check compares it bit
 * for bit with plain stencil sweeps on the CPU (the ghost-zone blocking must
 * not change a single value). Usage, shape, figures: examples/hs/README.md. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "hs_host.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "hs needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x steps (the default run: 0.47 M cycles, 127 per
 * CTA and step). */
static const uint64_t CYCLES_PER_WORK = 13000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/hs/hs.ptx";
static const char KERNEL[] = "_Z14calculate_tempiPfS_S_iiiifffff";

/* ---- the simulated GPU -------------------------------------------------- */

/* Runs the time steps on the GPU, as HotSpot's host does: launches of
 * min(pyramid, steps left) steps, source and destination swapped after
 * each; *result gets the buffer index holding the final field. Returns 0 or
 * an SC_E* code, naming the failed call in a->what. */
static int run_gpu(app_t *a, const params_t *pp, const model_t *m, uint64_t dpower, uint64_t dtemp[2],
                   int *result)
{
	const int small = BLOCK_SIZE - 2 * pp->pyramid;
	const uint32_t blocks = (uint32_t)((pp->size + small - 1) / small);
	int32_t n = pp->size, border = pp->pyramid;  /* pyramid * EXPAND_RATE / 2 */
	float cap = m->cap, rx = m->rx, ry = m->ry, rz = m->rz, step = m->step;
	int src = 0;

	for (int t = 0; t < pp->iters; t += pp->pyramid) {
		int32_t iter = pp->iters - t < pp->pyramid ? pp->iters - t : pp->pyramid;
		void *args[] = {&iter, &dpower, &dtemp[src], &dtemp[1 - src], &n, &n, &border, &border,
		                &cap, &rx, &ry, &rz, &step};
		APP_TRY(a, sc_launch(a->gpu, a->mod, KERNEL, (sc_dim3_t){blocks, blocks, 1},
		                     (sc_dim3_t){BLOCK_SIZE, BLOCK_SIZE, 1}, 0, args),
		        "launch calculate_temp");
		src = 1 - src;
	}
	*result = src;
	return 0;
}

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: hs [--ptx FILE] [--check] [--stats] [--size N] [--pyramid P] [--iterations T]\n"
	        "  defaults: --ptx %s --size %d --pyramid %d --iterations %d\n"
	        "  N x N cells (2..4096), P steps per launch (1..7), T steps in all (1..1000)\n",
	        DEFAULT_PTX, DEF_SIZE, DEF_PYRAMID, DEF_ITERS);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (app_option(app, argc, argv, &i))
			continue;
		if (!strcmp(a, "--size") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 2, 4096, &pp->size))
				return false;
		} else if (!strcmp(a, "--pyramid") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 7, &pp->pyramid))
				return false;
		} else if (!strcmp(a, "--iterations") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 1000, &pp->iters))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.size = DEF_SIZE, .pyramid = DEF_PYRAMID, .iters = DEF_ITERS};
	app_t a = {.name = "hs", .ptx = DEFAULT_PTX};
	uint64_t dpower = 0, dtemp[2] = {0, 0};
	float *temp = NULL, *power = NULL, *out = NULL;
	model_t m;
	int err, result, status = APP_FAIL;

	if (!parse_args(argc, argv, &a, &pp))
		return usage();
	const size_t ncells = (size_t)pp.size * pp.size;
	const uint64_t bytes = ncells * sizeof(float);
	const uint64_t blocks = (uint64_t)((pp.size + BLOCK_SIZE - 2 * pp.pyramid - 1) /
	                                   (BLOCK_SIZE - 2 * pp.pyramid));
	uint64_t budget = CYCLES_PER_WORK * blocks * blocks * (uint64_t)pp.iters;
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	temp = malloc(bytes);
	power = malloc(bytes);
	out = malloc(bytes);
	if (!temp || !power || !out) {
		fprintf(stderr, "hs: out of memory\n");
		goto out;
	}
	input_init(temp, power, ncells);
	model_init(&m, pp.size);

	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = app_malloc(&a, bytes, &dpower)) != 0 || (err = app_malloc(&a, bytes, &dtemp[0])) != 0 ||
	    (err = app_malloc(&a, bytes, &dtemp[1])) != 0) {
		status = app_report(&a, err, "allocate the fields");
		goto out;
	}
	if ((err = sc_memcpy_htod(a.gpu, dpower, power, bytes)) != 0 ||
	    (err = sc_memcpy_htod(a.gpu, dtemp[0], temp, bytes)) != 0) {
		status = app_report(&a, err, "copy the fields in");
		goto out;
	}
	if ((err = run_gpu(&a, &pp, &m, dpower, dtemp, &result)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}
	if ((err = sc_memcpy_dtoh(a.gpu, out, dtemp[result], bytes)) != 0) {
		status = app_report(&a, err, "copy the temperatures out");
		goto out;
	}

	print_result(&pp, out);
	if (a.stats)
		app_print_launch_stats(&a);
	status = a.check ? check_result(&pp, &m, temp, power, out) : APP_OK;

out:
	app_close(&a);
	free(out);
	free(power);
	free(temp);
	return status;
}
