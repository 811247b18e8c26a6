/* ge — GUFI's GE application on the simulated GPU: Gaussian elimination
 * without pivoting of a seeded n x n system, Fan1 and Fan2 per pivot (ge.cu),
 * back substitution on the host. --check repeats the elimination on the CPU
 * and compares m, a and b bit for bit. See examples/ge/README.md. */
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "ge_host.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

/* Far above the default run (about 10^5 cycles) and any --size up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 1000000000;

static const char DEFAULT_PTX[] = "examples/ge/ge.ptx";
static const char K_FAN1[] = "_Z4Fan1PfS_ii";
static const char K_FAN2[] = "_Z4Fan2PfS_S_iii";

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf, in allocation order */
enum { B_M, B_A, B_B, NBUF };

/* Eliminates on the GPU: m (zeroed first), a and b in and out. Returns 0 or
 * an SC_E* code, naming the failing call in a->what. */
static int eliminate_gpu(app_t *a, int n, float *m, float *mat, float *b)
{
	const uint64_t nn = sizeof(float) * (uint64_t)n * (uint64_t)n;
	const uint64_t sizes[NBUF] = {nn, nn, sizeof(float) * (uint64_t)n};
	const uint32_t g2 = (uint32_t)(n + FAN2_BLOCK - 1) / FAN2_BLOCK;
	const sc_dim3_t grid1 = {(uint32_t)(n + FAN1_BLOCK - 1) / FAN1_BLOCK, 1, 1};
	const sc_dim3_t block1 = {FAN1_BLOCK, 1, 1};
	const sc_dim3_t grid2 = {g2, g2, 1}, block2 = {FAN2_BLOCK, FAN2_BLOCK, 1};
	int32_t size = n, j1 = 1, t;

	for (int i = 0; i < NBUF; i++)
		APP_TRY(a, app_malloc(a, sizes[i], NULL), "allocate a buffer");
	APP_TRY(a, sc_memset(a->gpu, a->buf[B_M], 0, nn), "clear the multipliers");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_A], mat, nn), "copy the matrix in");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_B], b, sizes[B_B]), "copy the right-hand side in");

	void *args1[] = {&a->buf[B_M], &a->buf[B_A], &size, &t};
	void *args2[] = {&a->buf[B_M], &a->buf[B_A], &a->buf[B_B], &size, &j1, &t};
	for (t = 0; t < n - 1; t++) {
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_FAN1, grid1, block1, 0, args1), "launch Fan1");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_FAN2, grid2, block2, 0, args2), "launch Fan2");
	}
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, m, a->buf[B_M], nn), "copy the multipliers out");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, mat, a->buf[B_A], nn), "copy the matrix out");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, b, a->buf[B_B], sizes[B_B]), "copy the right-hand side out");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ge [--ptx FILE] [--check] [--stats] [--size N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --size N    equations, 2..%d (default %d)\n",
	        DEFAULT_PTX, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "ge", .ptx = DEFAULT_PTX};
	float *m = NULL, *mat = NULL, *b = NULL, *rm = NULL, *ra = NULL, *rb = NULL;
	double *x = NULL;
	int err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && app_parse_long(argv[++i], 2, MAX_N, &n))
			continue;
		return usage();
	}

	size_t nn = (size_t)n * (size_t)n;
	m = calloc(nn, sizeof *m);
	mat = malloc(sizeof *mat * nn);
	b = malloc(sizeof *b * (size_t)n);
	rm = calloc(nn, sizeof *rm);
	ra = malloc(sizeof *ra * nn);
	rb = malloc(sizeof *rb * (size_t)n);
	x = malloc(sizeof *x * (size_t)n);
	if (!m || !mat || !b || !rm || !ra || !rb || !x) {
		fprintf(stderr, "ge: out of memory\n");
		goto out;
	}
	system_make((int)n, mat, b, 1);
	memcpy(ra, mat, sizeof *ra * nn);
	memcpy(rb, b, sizeof *rb * (size_t)n);
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = eliminate_gpu(&a, (int)n, m, mat, b)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	back_substitute((int)n, mat, b, x);
	print_result(n, mat, b, x);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = a.check ? check_result(n, m, mat, b, rm, ra, rb) : APP_OK;

out:
	app_close(&a);
	free(m);
	free(mat);
	free(b);
	free(rm);
	free(ra);
	free(rb);
	free(x);
	return status;
}
