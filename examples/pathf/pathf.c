/* pathf — GUFI's PATHF (PathFinder) as a host program on simcore.h: the
 * cheapest top-to-bottom paths through a grid of weights by dynamic
 * programming, `pyramid` rows per launch of dynproc_kernel (pathf.cu).
 * Prints the last row's FNV-1a digest and its cheapest cost; with --check
 * compares every cost with plain row-by-row dynamic programming on the CPU.
 * Usage, shape and figures: examples/pathf/README.md. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

enum { BLOCK_SIZE = 256, HALO = 1 };

/* GUFI's input: 10000 columns, 100 rows, pyramid height 20; Table I's grid
 * of 47 is ceil(10000 / (256 - 2 * 20)) and its 5 launches ceil(99 / 20). */
enum { DEF_COLS = 10000, DEF_ROWS = 100, DEF_PYRAMID = 20 };

static const uint64_t SEED = 0x50415431;  /* "PAT1" */

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x rows (the default run: 0.47 M cycles, 101 per CTA
 * and row). */
static const uint64_t CYCLES_PER_WORK = 10000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/pathf/pathf.ptx";
static const char KERNEL[] = "_Z14dynproc_kerneliPiS_S_iiii";

/* Exit statuses (examples/README.md, "iterate"). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

typedef struct params {
	int cols, rows, pyramid;
	const char *ptx;
	bool check, stats;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Weights 0..9, as PathFinder's generator makes them. */
static void wall_init(int32_t *wall, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		wall[i] = (int32_t)(splitmix64(&s) % 10);
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}


/* ---- the CPU reference: row-by-row dynamic programming ------------------ */

static void path_cpu(const params_t *pp, const int32_t *wall, int32_t *cost)
{
	int32_t *next = malloc(sizeof *next * pp->cols);
	const int n = pp->cols;

	memcpy(cost, wall, sizeof *cost * n);
	for (int r = 1; r < pp->rows; r++) {
		for (int x = 0; x < n; x++) {
			int32_t best = cost[x];
			if (x > 0 && cost[x - 1] < best)
				best = cost[x - 1];
			if (x < n - 1 && cost[x + 1] < best)
				best = cost[x + 1];
			next[x] = best + wall[(size_t)r * n + x];
		}
		memcpy(cost, next, sizeof *cost * n);
	}
	free(next);
}

/* ---- the simulated GPU -------------------------------------------------- */

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "pathf: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "pathf: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
	if (err == SC_EIO || err == SC_EPARSE || err == SC_ENOTFOUND || err == SC_ELAUNCH)
		return EXIT_BADINPUT;
	return EXIT_FAIL;
}

/* Per-launch figures on stderr, then the application's: IPC over all
 * launches (thread-instructions / cycles) and the paper's average warp
 * occupancy (each launch's occupancy weighted by its share of cycles). */
static void print_stats(const sc_gpu_t *gpu)
{
	sc_gpu_stats_t t;
	double occ = 0.0;

	sc_gpu_stats(gpu, &t);
	for (uint32_t i = 0; i < sc_launch_count(gpu); i++) {
		const sc_launch_stats_t *s = sc_launch_stats(gpu, i);
		fprintf(stderr,
		        "pathf: launch %u %s grid %ux%ux%u block %ux%ux%u regs %u smem %u "
		        "ctas/sm %u (%s) occupancy %.4f cycles %llu thread-insts %llu\n",
		        (unsigned)i, s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y,
		        s->block.z, s->regs_per_thread, s->smem_per_cta, s->ctas_per_sm, s->limiter,
		        s->occupancy, (unsigned long long)s->cycles, (unsigned long long)s->thread_insts);
		if (t.cycles)
			occ += s->occupancy * (double)s->cycles / (double)t.cycles;
	}
	fprintf(stderr,
	        "pathf: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%%\n",
	        (unsigned)t.launches, (unsigned long long)t.cycles, (unsigned long long)t.thread_insts,
	        (unsigned long long)t.warp_insts,
	        t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0, 100.0 * occ);
}


/* Runs the rows as PathFinder's host does: launches of min(pyramid, rows
 * left) rows, source and destination cost rows swapped before each; *result
 * gets the buffer holding the last row. Returns 0 or an SC_E* code with
 * *what naming the failed call. */
static int run_gpu(sc_gpu_t *gpu, sc_module_t *mod, const params_t *pp, uint64_t dwall,
                   uint64_t dcost[2], int *result, const char **what)
{
	const int small = BLOCK_SIZE - pp->pyramid * HALO * 2;
	const uint32_t blocks = (uint32_t)((pp->cols + small - 1) / small);
	int32_t cols = pp->cols, rows = pp->rows, border = pp->pyramid * HALO;
	int src = 1, dst = 0, err;

	for (int32_t t = 0; t < pp->rows - 1; t += pp->pyramid) {
		int tmp = src;
		src = dst;
		dst = tmp;
		int32_t iter = pp->rows - t - 1 < pp->pyramid ? pp->rows - t - 1 : pp->pyramid;
		void *args[] = {&iter, &dwall, &dcost[src], &dcost[dst], &cols, &rows, &t, &border};
		if ((err = sc_launch(gpu, mod, KERNEL, (sc_dim3_t){blocks, 1, 1},
		                     (sc_dim3_t){BLOCK_SIZE, 1, 1}, 0, args)) != 0) {
			*what = "launch dynproc_kernel";
			return err;
		}
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
	return EXIT_BADINPUT;
}

static bool parse_int(const char *s, long lo, long hi, int *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return false;
	*v = (int)x;
	return true;
}


static bool parse_args(int argc, char **argv, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--check"))
			pp->check = true;
		else if (!strcmp(a, "--stats"))
			pp->stats = true;
		else if (!strcmp(a, "--ptx") && i + 1 < argc)
			pp->ptx = argv[++i];
		else if (!strcmp(a, "--cols") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 1000000, &pp->cols))
				return false;
		} else if (!strcmp(a, "--rows") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 10000, &pp->rows))
				return false;
		} else if (!strcmp(a, "--pyramid") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 127, &pp->pyramid))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.cols = DEF_COLS, .rows = DEF_ROWS, .pyramid = DEF_PYRAMID, .ptx = DEFAULT_PTX};
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod;
	uint64_t dwall = 0, dcost[2] = {0, 0};
	int32_t *wall = NULL, *out = NULL, *ref = NULL;
	const char *what = "";
	int err, result, status = EXIT_FAIL;
	char msg[256];

	if (!parse_args(argc, argv, &pp))
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

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "pathf: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		goto out;
	}
	if ((err = sc_gpu_create(&cfg, &opt, &gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(gpu, pp.ptx, &mod)) != 0) {
		status = report(gpu, err, pp.ptx);
		goto out;
	}
	/* The weights of rows 1.. go to the device; row 0 is the first cost row. */
	if ((err = sc_malloc(gpu, cells > n ? (cells - n) * sizeof *wall : 4, &dwall)) != 0 ||
	    (err = sc_malloc(gpu, rowbytes, &dcost[0])) != 0 ||
	    (err = sc_malloc(gpu, rowbytes, &dcost[1])) != 0) {
		status = report(gpu, err, "allocate the grid");
		goto out;
	}
	if ((cells > n && (err = sc_memcpy_htod(gpu, dwall, wall + n, (cells - n) * sizeof *wall)) != 0) ||
	    (err = sc_memcpy_htod(gpu, dcost[0], wall, rowbytes)) != 0) {
		status = report(gpu, err, "copy the grid in");
		goto out;
	}
	if ((err = run_gpu(gpu, mod, &pp, dwall, dcost, &result, &what)) != 0) {
		status = report(gpu, err, what);
		goto out;
	}
	if ((err = sc_memcpy_dtoh(gpu, out, dcost[result], rowbytes)) != 0) {
		status = report(gpu, err, "copy the costs out");
		goto out;
	}

	int64_t sum = 0;
	int32_t best = out[0];
	size_t at = 0;
	for (size_t x = 0; x < n; x++) {
		sum += out[x];
		if (out[x] < best) {
			best = out[x];
			at = x;
		}
	}
	printf("pathf: %d cols, %d rows, pyramid %d, digest %016llx, cheapest %d at column %zu, sum %lld\n",
	       pp.cols, pp.rows, pp.pyramid, (unsigned long long)fnv1a(out, rowbytes), (int)best, at,
	       (long long)sum);
	if (pp.stats)
		print_stats(gpu);
	status = EXIT_OK;

	if (pp.check) {
		if (!(ref = malloc(rowbytes))) {
			fprintf(stderr, "pathf: out of memory\n");
			status = EXIT_FAIL;
			goto out;
		}
		path_cpu(&pp, wall, ref);
		for (size_t x = 0; x < n; x++)
			if (out[x] != ref[x]) {
				printf("pathf: FAIL: column %zu costs %d on the GPU, %d on the CPU\n", x,
				       (int)out[x], (int)ref[x]);
				status = EXIT_FAIL;
				goto out;
			}
		printf("pathf: OK (%zu costs match the CPU)\n", n);
	}

out:
	for (int i = 1; i >= 0; i--)
		if (dcost[i])
			sc_free(gpu, dcost[i]);
	if (dwall)
		sc_free(gpu, dwall);
	sc_gpu_destroy(gpu);
	free(ref);
	free(out);
	free(wall);
	return status;
}
