/* lud — GUFI's LUD application on the simulated GPU: blocked in-place LU
 * decomposition without pivoting of a seeded matrix (lud.cu: diagonal,
 * perimeter, internal per block step). --check repeats every kernel's float
 * operations on the CPU and compares bit for bit. See examples/lud/README.md. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "lud_host.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

/* Far above the default run (a few 10^6 cycles) and any --size up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 4000000000;

static const char DEFAULT_PTX[] = "examples/lud/lud.ptx";
static const char K_DIAG[] = "_Z12lud_diagonalPfii";
static const char K_PERI[] = "_Z13lud_perimeterPfii";
static const char K_INT[] = "_Z12lud_internalPfii";

/* ---- the simulated GPU ---------------------------------------------------- */

/* Factors m (n x n) in place on the GPU. Returns 0 or an SC_E* code, naming
 * the failing call in a->what. */
static int lud_gpu(app_t *a, float *m, int n)
{
	const uint64_t bytes = sizeof(float) * (uint64_t)n * (uint64_t)n;
	const sc_dim3_t one = {1, 1, 1}, dblock = {BS, 1, 1}, pblock = {2 * BS, 1, 1}, iblock = {BS, BS, 1};
	int32_t dim = n, off;
	uint64_t mat;
	void *args[] = {&mat, &dim, &off};

	APP_TRY(a, app_malloc(a, bytes, &mat), "allocate the matrix");
	APP_TRY(a, sc_memcpy_htod(a->gpu, mat, m, bytes), "copy the matrix in");
	for (off = 0; off < n - BS; off += BS) {
		uint32_t nb = (uint32_t)((n - off) / BS - 1);
		sc_dim3_t pgrid = {nb, 1, 1}, igrid = {nb, nb, 1};
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_DIAG, one, dblock, 0, args), "launch lud_diagonal");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_PERI, pgrid, pblock, 0, args), "launch lud_perimeter");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_INT, igrid, iblock, 0, args), "launch lud_internal");
	}
	APP_TRY(a, sc_launch(a->gpu, a->mod, K_DIAG, one, dblock, 0, args), "launch lud_diagonal");
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, m, mat, bytes), "copy the matrix out");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: lud [--ptx FILE] [--check] [--stats] [--size N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --size N    matrix order, a multiple of %d in %d..%d (default %d)\n",
	        DEFAULT_PTX, BS, BS, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "lud", .ptx = DEFAULT_PTX};
	float *orig = NULL, *m = NULL, *ref = NULL;
	int err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && app_parse_long(argv[++i], BS, MAX_N, &n) &&
		    n % BS == 0)
			continue;
		return usage();
	}

	size_t nn = (size_t)n * (size_t)n;
	orig = malloc(sizeof *orig * nn);
	m = malloc(sizeof *m * nn);
	ref = malloc(sizeof *ref * nn);
	if (!orig || !m || !ref) {
		fprintf(stderr, "lud: out of memory\n");
		goto out;
	}
	matrix_make((int)n, orig, 1);
	memcpy(m, orig, sizeof *m * nn);
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = lud_gpu(&a, m, (int)n)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	print_result(n, m);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = a.check ? check_result(n, orig, m, ref) : APP_OK;

out:
	app_close(&a);
	free(orig);
	free(m);
	free(ref);
	return status;
}
