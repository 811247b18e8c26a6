/* nw — GUFI's NW application on the simulated GPU: the Needleman-Wunsch score
 * matrix of two seeded sequences, tile anti-diagonal by tile anti-diagonal
 * (nw.cu), traced back on the host. --check fills the matrix on the CPU and
 * compares every cell. See examples/nw/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "nw_host.h"

/* Far above the default run (about 10^6 cycles) and any --length up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/nw/nw.ptx";
static const char K_GROW[] = "_Z20needle_cuda_shared_1PiS_iiii";
static const char K_SHRINK[] = "_Z20needle_cuda_shared_2PiS_iiii";

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf, in allocation order */
enum { B_REF, B_SCORE, NBUF };

/* Fills the score matrix on the GPU, borders in, matrix out. Returns 0 or
 * an SC_E* code, naming the failing call in a->what. */
static int fill_gpu(app_t *a, int n, const int32_t *ref, int32_t *score)
{
	const uint64_t bytes = sizeof(int32_t) * (uint64_t)(n + 1) * (uint64_t)(n + 1);
	const sc_dim3_t block = {BS, 1, 1};
	int32_t cols = n + 1, penalty = PENALTY, i, width = n / BS;
	void *args[] = {&a->buf[B_REF], &a->buf[B_SCORE], &cols, &penalty, &i, &width};

	for (int b = 0; b < NBUF; b++)
		APP_TRY(a, app_malloc(a, bytes, NULL), "allocate a matrix");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_REF], ref, bytes), "copy the substitution scores in");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_SCORE], score, bytes), "copy the score matrix in");
	for (i = 1; i <= width; i++) {
		sc_dim3_t grid = {(uint32_t)i, 1, 1};
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_GROW, grid, block, 0, args), "launch needle_cuda_shared_1");
	}
	for (i = width - 1; i >= 1; i--) {
		sc_dim3_t grid = {(uint32_t)i, 1, 1};
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_SHRINK, grid, block, 0, args), "launch needle_cuda_shared_2");
	}
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, score, a->buf[B_SCORE], bytes), "copy the score matrix out");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: nw [--ptx FILE] [--check] [--stats] [--length N]\n"
	                "  --ptx FILE    the kernels (default %s)\n"
	                "  --check       compare with a CPU fill; exit 1 on a difference\n"
	                "  --stats       per-kernel statistics on stderr\n"
	                "  --length N    sequence length, a multiple of %d in %d..%d (default %d)\n",
	        DEFAULT_PTX, BS, BS, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "nw", .ptx = DEFAULT_PTX};
	int32_t *ref = NULL, *score = NULL, *rscore = NULL;
	int *seq_a = NULL, *seq_b = NULL, err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--length") && i + 1 < argc && app_parse_long(argv[++i], BS, MAX_N, &n) &&
		    n % BS == 0)
			continue;
		return usage();
	}

	size_t cells = (size_t)(n + 1) * (size_t)(n + 1);
	ref = malloc(sizeof *ref * cells);
	score = malloc(sizeof *score * cells);
	rscore = malloc(sizeof *rscore * cells);
	seq_a = malloc(sizeof *seq_a * (size_t)(n + 1));
	seq_b = malloc(sizeof *seq_b * (size_t)(n + 1));
	if (!ref || !score || !rscore || !seq_a || !seq_b) {
		fprintf(stderr, "nw: out of memory\n");
		goto out;
	}
	input_make((int)n, ref, score, seq_a, seq_b, 1);
	memcpy(rscore, score, sizeof *rscore * cells);
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = fill_gpu(&a, (int)n, ref, score)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	print_result(n, ref, score, seq_a, seq_b);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = a.check ? check_result(n, ref, score, rscore) : APP_OK;

out:
	app_close(&a);
	free(ref);
	free(score);
	free(rscore);
	free(seq_a);
	free(seq_b);
	return status;
}
