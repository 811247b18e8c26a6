/* ms — GUFI's MS application on the simulated GPU: a stable merge sort of
 * seeded (key, value) pairs (ms.cu). Like the SDK sample, every run checks its
 * own result and exits 1 when it is wrong (the software detection GUFI saw as
 * DUEs); --check also compares with a CPU stable sort. See examples/ms/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "ms_host.h"

/* Far above the default run (a few 10^5 cycles) and any --pairs up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/ms/ms.ptx";
static const char K_SHARED[] = "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j";
static const char K_SAMPLES[] = "_Z25generateSampleRanksKernelILj1EEvPjS0_S0_iii";
static const char K_LIMITS[] = "_Z26mergeRanksAndIndicesKernelPjS_iii";
static const char K_MERGE[] = "_Z30mergeElementaryIntervalsKernelILj1EEvPjS0_S0_S0_S0_S0_ii";

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf, in allocation order */
enum { B_INKEY, B_INVAL, B_KEY0, B_VAL0, B_KEY1, B_VAL1, B_RANKA, B_RANKB, B_LIMA, B_LIMB, NBUF };

/* Sorts n pairs (n = SEG * 2^k) on the GPU; the merge passes ping-pong
 * between two buffers. Returns 0 or an SC_E* code, naming the failing call
 * in a->what; *passes gets the number of merge passes. */
static int sort_gpu(app_t *a, const uint32_t *in_key, const uint32_t *in_val, uint32_t *key,
                    uint32_t *val, int n, int *passes)
{
	const uint64_t bytes = sizeof(uint32_t) * (uint64_t)n, rbytes = bytes / SAMPLE;
	const uint64_t sizes[NBUF] = {bytes, bytes, bytes, bytes, bytes, bytes, rbytes, rbytes, rbytes, rbytes};
	int32_t threads = n / (2 * SAMPLE), stride, nn = n;
	uint32_t seg = SEG;
	const sc_dim3_t sgrid = {(uint32_t)(n / SEG), 1, 1}, sblock = {SEG / 2, 1, 1};
	const sc_dim3_t rgrid = {(uint32_t)(threads + RANK_BLOCK - 1) / RANK_BLOCK, 1, 1};
	const sc_dim3_t rblock = {RANK_BLOCK, 1, 1};
	const sc_dim3_t mgrid = {(uint32_t)(n / SAMPLE), 1, 1}, mblock = {SAMPLE, 1, 1};

	for (int b = 0; b < NBUF; b++)
		APP_TRY(a, app_malloc(a, sizes[b], NULL), "allocate a buffer");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_INKEY], in_key, bytes), "copy the keys in");
	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_INVAL], in_val, bytes), "copy the values in");

	int cur = B_KEY0, oth = B_KEY1; /* key buffer; its values follow it */
	void *sargs[] = {&a->buf[cur], &a->buf[cur + 1], &a->buf[B_INKEY], &a->buf[B_INVAL], &seg};
	APP_TRY(a, sc_launch(a->gpu, a->mod, K_SHARED, sgrid, sblock, 0, sargs), "launch mergeSortSharedKernel");
	*passes = 0;
	for (stride = SEG; stride < n; stride *= 2, (*passes)++) {
		void *gargs[] = {&a->buf[B_RANKA], &a->buf[B_RANKB], &a->buf[cur], &stride, &nn, &threads};
		void *la[] = {&a->buf[B_LIMA], &a->buf[B_RANKA], &stride, &nn, &threads};
		void *lb[] = {&a->buf[B_LIMB], &a->buf[B_RANKB], &stride, &nn, &threads};
		void *margs[] = {&a->buf[oth], &a->buf[oth + 1], &a->buf[cur], &a->buf[cur + 1],
		                 &a->buf[B_LIMA], &a->buf[B_LIMB], &stride, &nn};
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_SAMPLES, rgrid, rblock, 0, gargs),
		    "launch generateSampleRanksKernel");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_LIMITS, rgrid, rblock, 0, la), "launch mergeRanksAndIndicesKernel");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_LIMITS, rgrid, rblock, 0, lb), "launch mergeRanksAndIndicesKernel");
		APP_TRY(a, sc_launch(a->gpu, a->mod, K_MERGE, mgrid, mblock, 0, margs),
		    "launch mergeElementaryIntervalsKernel");
		int t = cur;
		cur = oth;
		oth = t;
	}
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, key, a->buf[cur], bytes), "copy the keys out");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, val, a->buf[cur + 1], bytes), "copy the values out");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ms [--ptx FILE] [--check] [--stats] [--pairs N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with a CPU stable sort; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --pairs N   pairs to sort, %d times a power of two up to %d (default %d)\n",
	        DEFAULT_PTX, SEG, MAX_N, DEFAULT_N);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.name = "ms", .ptx = DEFAULT_PTX};
	uint32_t *in_key = NULL, *in_val = NULL, *key = NULL, *val = NULL, *rkey = NULL, *rval = NULL;
	unsigned char *seen = NULL;
	int passes = 0, err, status = APP_FAIL;

	for (int i = 1; i < argc; i++) {
		if (app_option(&a, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--pairs") && i + 1 < argc && app_parse_long(argv[++i], SEG, MAX_N, &n) &&
		    n % SEG == 0 && ((n / SEG) & (n / SEG - 1)) == 0)
			continue;
		return usage();
	}

	in_key = malloc(sizeof *in_key * (size_t)n);
	in_val = malloc(sizeof *in_val * (size_t)n);
	key = malloc(sizeof *key * (size_t)n);
	val = malloc(sizeof *val * (size_t)n);
	rkey = malloc(sizeof *rkey * (size_t)n);
	rval = malloc(sizeof *rval * (size_t)n);
	seen = malloc((size_t)n);
	if (!in_key || !in_val || !key || !val || !rkey || !rval || !seen) {
		fprintf(stderr, "ms: out of memory\n");
		goto out;
	}
	pairs_make(in_key, in_val, (int)n, 1);
	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = sort_gpu(&a, in_key, in_val, key, val, (int)n, &passes)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}

	print_result(n, passes, key, val);
	if (a.stats)
		app_print_kernel_stats(&a);
	status = check_result(n, in_key, key, val, seen, a.check, rkey, rval);

out:
	app_close(&a);
	free(in_key);
	free(in_val);
	free(key);
	free(val);
	free(rkey);
	free(rval);
	free(seen);
	return status;
}
