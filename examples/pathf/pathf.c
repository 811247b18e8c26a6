/* pathf — GUFI's PATHF (PathFinder) as a host program on simcore.h: the
 * cheapest top-to-bottom paths through a grid of weights by dynamic
 * programming, `pyramid` rows per launch of dynproc_kernel (pathf.cu).
 * Prints the last row's FNV-1a digest and its cheapest cost; with --check
 * compares every cost with plain row-by-row dynamic programming on the CPU.
 * Usage, shape and figures: examples/pathf/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "pathf_host.h"

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x rows (the default run: 0.47 M cycles, 101 per CTA
 * and row). */
static const uint64_t CYCLES_PER_WORK = 10000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/pathf/pathf.ptx";
static const char KERNEL[] = "_Z14dynproc_kerneliPiS_S_iiii";

/* ---- the simulated GPU -------------------------------------------------- */

/* Runs the rows as PathFinder's host does: launches of min(pyramid, rows
 * left) rows, source and destination cost rows swapped before each; *result
 * gets the buffer holding the last row. Returns 0 or an SC_E* code, naming
 * the failed call in a->what. */
static int run_gpu(app_t *a, const params_t *pp, uint64_t dwall, uint64_t dcost[2], int *result)
{
	const int small = BLOCK_SIZE - pp->pyramid * HALO * 2;
	const uint32_t blocks = (uint32_t)((pp->cols + small - 1) / small);
	int32_t cols = pp->cols, rows = pp->rows, border = pp->pyramid * HALO;
	int src = 1, dst = 0;

	for (int32_t t = 0; t < pp->rows - 1; t += pp->pyramid) {
		int tmp = src;
		src = dst;
		dst = tmp;
		int32_t iter = pp->rows - t - 1 < pp->pyramid ? pp->rows - t - 1 : pp->pyramid;
		void *args[] = {&iter, &dwall, &dcost[src], &dcost[dst], &cols, &rows, &t, &border};
		APP_TRY(a, sc_launch(a->gpu, a->mod, KERNEL, (sc_dim3_t){blocks, 1, 1},
		                     (sc_dim3_t){BLOCK_SIZE, 1, 1}, 0, args),
		        "launch dynproc_kernel");
	}
	*result = dst;
	return 0;
}

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: pathf [--ptx FILE] [--check] [--stats] [--cols C] [--rows R] [--pyramid P]\n"
	        "  defaults: --ptx %s --cols %d --rows %d --pyramid %d\n"
	        "  C in 1..1000000, R in 1..10000, P rows per launch in 1..127\n",
	        DEFAULT_PTX, DEF_COLS, DEF_ROWS, DEF_PYRAMID);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (app_option(app, argc, argv, &i))
			continue;
		if (!strcmp(a, "--cols") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 1000000, &pp->cols))
				return false;
		} else if (!strcmp(a, "--rows") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 10000, &pp->rows))
				return false;
		} else if (!strcmp(a, "--pyramid") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 127, &pp->pyramid))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.cols = DEF_COLS, .rows = DEF_ROWS, .pyramid = DEF_PYRAMID};
	app_t a = {.name = "pathf", .ptx = DEFAULT_PTX};
	uint64_t dwall = 0, dcost[2] = {0, 0};
	int32_t *wall = NULL, *out = NULL;
	int err, result, status = APP_FAIL;

	if (!parse_args(argc, argv, &a, &pp))
		return usage();
	const size_t n = (size_t)pp.cols, cells = n * pp.rows;
	const uint64_t rowbytes = n * sizeof(int32_t);
	const uint64_t blocks = (uint64_t)((pp.cols + BLOCK_SIZE - 2 * pp.pyramid - 1) / (BLOCK_SIZE - 2 * pp.pyramid));
	uint64_t budget = CYCLES_PER_WORK * blocks * (uint64_t)pp.rows;
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	wall = malloc(cells * sizeof *wall);
	out = malloc(rowbytes);
	if (!wall || !out) {
		fprintf(stderr, "pathf: out of memory\n");
		goto out;
	}
	wall_init(wall, cells);

	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	/* The weights of rows 1.. go to the device; row 0 is the first cost row. */
	if ((err = app_malloc(&a, cells > n ? (cells - n) * sizeof *wall : 4, &dwall)) != 0 ||
	    (err = app_malloc(&a, rowbytes, &dcost[0])) != 0 ||
	    (err = app_malloc(&a, rowbytes, &dcost[1])) != 0) {
		status = app_report(&a, err, "allocate the grid");
		goto out;
	}
	if ((cells > n && (err = sc_memcpy_htod(a.gpu, dwall, wall + n, (cells - n) * sizeof *wall)) != 0) ||
	    (err = sc_memcpy_htod(a.gpu, dcost[0], wall, rowbytes)) != 0) {
		status = app_report(&a, err, "copy the grid in");
		goto out;
	}
	if ((err = run_gpu(&a, &pp, dwall, dcost, &result)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}
	if ((err = sc_memcpy_dtoh(a.gpu, out, dcost[result], rowbytes)) != 0) {
		status = app_report(&a, err, "copy the costs out");
		goto out;
	}

	print_result(&pp, out);
	if (a.stats)
		app_print_launch_stats(&a);
	status = a.check ? check_result(&pp, wall, out) : APP_OK;

out:
	app_close(&a);
	free(out);
	free(wall);
	return status;
}
