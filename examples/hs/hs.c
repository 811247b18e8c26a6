/* hs — GUFI's HS (HotSpot) as a host program on simcore.h: transient chip
 * temperature on a square floor plan by the calculate_temp kernel (hs.cu),
 * `pyramid` time steps per launch, launches until `iterations` steps are
 * done. Prints the final field's FNV-1a digest; with --check compares it bit
 * for bit with plain stencil sweeps on the CPU (the ghost-zone blocking must
 * not change a single value). Usage, shape, figures: examples/hs/README.md. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "hs needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

enum { BLOCK_SIZE = 16 };

/* GUFI's input: two 512 x 512 matrices; Table I's grid 43 x 43 is
 * ceil(512 / (16 - 2 * 2)), a pyramid of 2 steps, and its single launch
 * means 2 time steps in all. */
enum { DEF_SIZE = 512, DEF_PYRAMID = 2, DEF_ITERS = 2 };

static const uint64_t SEED = 0x48535031;  /* "HSP1" */

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x steps (the default run: 0.47 M cycles, 127 per
 * CTA and step). */
static const uint64_t CYCLES_PER_WORK = 13000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/hs/hs.ptx";
static const char KERNEL[] = "_Z14calculate_tempiPfS_S_iiiifffff";

/* Exit statuses (examples/README.md, "iterate"). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

typedef struct params {
	int size, pyramid, iters;
	const char *ptx;
	bool check, stats;
} params_t;

/* The RC model's constants for one cell (HotSpot's chip: 16 x 16 mm,
 * 0.5 mm thick silicon), rounded to float once as the kernel gets them. */
typedef struct model {
	float cap, rx, ry, rz, step;
} model_t;

static void model_init(model_t *m, int size)
{
	const double chip = 0.016, t_chip = 0.0005, k_si = 100.0, spec_heat_si = 1.75e6;
	const double factor_chip = 0.5, max_pd = 3.0e6, precision = 0.001;
	const double h = chip / size, w = chip / size;
	const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);

	m->cap = (float)(factor_chip * spec_heat_si * t_chip * w * h);
	m->rx = (float)(w / (2.0 * k_si * t_chip * h));
	m->ry = (float)(h / (2.0 * k_si * t_chip * w));
	m->rz = (float)(t_chip / (k_si * h * w));
	m->step = (float)(precision / max_slope);
}

/* ---- deterministic input ------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi): 24 random bits make an exact float in [0, 1). */
static float uniform(uint64_t *s, float lo, float hi)
{
	float u = (float)(splitmix64(s) >> 40) * 0x1p-24f;
	return lo + (hi - lo) * u;
}

/* Temperatures 320..345 K and power 0..1 mW per cell (HotSpot's sample
 * inputs are of this order). */
static void input_init(float *temp, float *power, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++) {
		temp[i] = uniform(&s, 320.0f, 345.0f);
		power[i] = uniform(&s, 0.0f, 1e-3f);
	}
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

/* ---- the CPU reference --------------------------------------------------
 * One explicit step over the whole chip, in hs.ptx's operation order:
 * step/Cap is div.rn.f32, 1/R rcp.rn.f32; per cell (S + N) - (c + c) and
 * (E + W) - (c + c) are add/sub.f32, then four fma.rn.f32: ry_1 * . + power,
 * rx_1 * . + that, rz_1 * (80 - c) + that, step_div_cap * that + c. A missing
 * neighbour on the chip's edge is the cell itself. */
static void step_cpu(const model_t *m, int n, const float *t, const float *pw, float *out)
{
	const float sdc = m->step / m->cap;
	const float rx_1 = 1.0f / m->rx, ry_1 = 1.0f / m->ry, rz_1 = 1.0f / m->rz;

	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			int no = y > 0 ? y - 1 : 0, so = y < n - 1 ? y + 1 : n - 1;
			int we = x > 0 ? x - 1 : 0, ea = x < n - 1 ? x + 1 : n - 1;
			float c = t[y * n + x];
			float f = fmaf(ry_1, (t[so * n + x] + t[no * n + x]) - (c + c), pw[y * n + x]);
			f = fmaf(rx_1, (t[y * n + ea] + t[y * n + we]) - (c + c), f);
			f = fmaf(rz_1, 80.0f - c, f);
			out[y * n + x] = fmaf(sdc, f, c);
		}
}

/* ---- the simulated GPU -------------------------------------------------- */

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "hs: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "hs: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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
		        "hs: launch %u %s grid %ux%ux%u block %ux%ux%u regs %u smem %u "
		        "ctas/sm %u (%s) occupancy %.4f cycles %llu thread-insts %llu\n",
		        (unsigned)i, s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y,
		        s->block.z, s->regs_per_thread, s->smem_per_cta, s->ctas_per_sm, s->limiter,
		        s->occupancy, (unsigned long long)s->cycles, (unsigned long long)s->thread_insts);
		if (t.cycles)
			occ += s->occupancy * (double)s->cycles / (double)t.cycles;
	}
	fprintf(stderr,
	        "hs: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%%\n",
	        (unsigned)t.launches, (unsigned long long)t.cycles, (unsigned long long)t.thread_insts,
	        (unsigned long long)t.warp_insts,
	        t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0, 100.0 * occ);
}

/* Runs the time steps on the GPU, as HotSpot's host does: launches of
 * min(pyramid, steps left) steps, source and destination swapped after
 * each; *result gets the buffer index holding the final field. Returns 0 or
 * an SC_E* code with *what naming the failed call. */
static int run_gpu(sc_gpu_t *gpu, sc_module_t *mod, const params_t *pp, const model_t *m,
                   uint64_t dpower, uint64_t dtemp[2], int *result, const char **what)
{
	const int small = BLOCK_SIZE - 2 * pp->pyramid;
	const uint32_t blocks = (uint32_t)((pp->size + small - 1) / small);
	int32_t n = pp->size, border = pp->pyramid;  /* pyramid * EXPAND_RATE / 2 */
	float cap = m->cap, rx = m->rx, ry = m->ry, rz = m->rz, step = m->step;
	int src = 0, err;

	for (int t = 0; t < pp->iters; t += pp->pyramid) {
		int32_t iter = pp->iters - t < pp->pyramid ? pp->iters - t : pp->pyramid;
		void *args[] = {&iter, &dpower, &dtemp[src], &dtemp[1 - src], &n, &n, &border, &border,
		                &cap, &rx, &ry, &rz, &step};
		if ((err = sc_launch(gpu, mod, KERNEL, (sc_dim3_t){blocks, blocks, 1},
		                     (sc_dim3_t){BLOCK_SIZE, BLOCK_SIZE, 1}, 0, args)) != 0) {
			*what = "launch calculate_temp";
			return err;
		}
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
		else if (!strcmp(a, "--size") && i + 1 < argc) {
			if (!parse_int(argv[++i], 2, 4096, &pp->size))
				return false;
		} else if (!strcmp(a, "--pyramid") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 7, &pp->pyramid))
				return false;
		} else if (!strcmp(a, "--iterations") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 1000, &pp->iters))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.size = DEF_SIZE, .pyramid = DEF_PYRAMID, .iters = DEF_ITERS, .ptx = DEFAULT_PTX};
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod;
	uint64_t dpower = 0, dtemp[2] = {0, 0};
	float *temp = NULL, *power = NULL, *out = NULL, *ref[2] = {NULL, NULL};
	const char *what = "";
	model_t m;
	int err, result, status = EXIT_FAIL;
	char msg[256];

	if (!parse_args(argc, argv, &pp))
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

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "hs: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
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
	if ((err = sc_malloc(gpu, bytes, &dpower)) != 0 || (err = sc_malloc(gpu, bytes, &dtemp[0])) != 0 ||
	    (err = sc_malloc(gpu, bytes, &dtemp[1])) != 0) {
		status = report(gpu, err, "allocate the fields");
		goto out;
	}
	if ((err = sc_memcpy_htod(gpu, dpower, power, bytes)) != 0 ||
	    (err = sc_memcpy_htod(gpu, dtemp[0], temp, bytes)) != 0) {
		status = report(gpu, err, "copy the fields in");
		goto out;
	}
	if ((err = run_gpu(gpu, mod, &pp, &m, dpower, dtemp, &result, &what)) != 0) {
		status = report(gpu, err, what);
		goto out;
	}
	if ((err = sc_memcpy_dtoh(gpu, out, dtemp[result], bytes)) != 0) {
		status = report(gpu, err, "copy the temperatures out");
		goto out;
	}

	double sum = 0.0;
	float lo = out[0], hi = out[0];
	for (size_t i = 0; i < ncells; i++) {
		sum += out[i];
		lo = out[i] < lo ? out[i] : lo;
		hi = out[i] > hi ? out[i] : hi;
	}
	printf("hs: %dx%d cells, %d steps (pyramid %d), digest %016llx, mean %.9g, min %.9g, max %.9g\n",
	       pp.size, pp.size, pp.iters, pp.pyramid, (unsigned long long)fnv1a(out, bytes),
	       sum / (double)ncells, (double)lo, (double)hi);
	if (pp.stats)
		print_stats(gpu);
	status = EXIT_OK;

	if (pp.check) {
		if (!(ref[0] = malloc(bytes)) || !(ref[1] = malloc(bytes))) {
			fprintf(stderr, "hs: out of memory\n");
			status = EXIT_FAIL;
			goto out;
		}
		memcpy(ref[0], temp, bytes);
		for (int t = 0; t < pp.iters; t++)
			step_cpu(&m, pp.size, ref[t & 1], power, ref[(t + 1) & 1]);
		const float *r = ref[pp.iters & 1];
		for (size_t i = 0; i < ncells; i++)
			if (memcmp(&out[i], &r[i], sizeof(float)) != 0) {
				uint32_t g, c;
				memcpy(&g, &out[i], sizeof g);
				memcpy(&c, &r[i], sizeof c);
				printf("hs: FAIL: cell (%zu, %zu) = %.9g (0x%08x) on the GPU, "
				       "%.9g (0x%08x) on the CPU\n",
				       i / (size_t)pp.size, i % (size_t)pp.size, (double)out[i], (unsigned)g,
				       (double)r[i], (unsigned)c);
				status = EXIT_FAIL;
				goto out;
			}
		printf("hs: OK (%zu cells match the CPU bit for bit)\n", ncells);
	}

out:
	for (int i = 1; i >= 0; i--)
		if (dtemp[i])
			sc_free(gpu, dtemp[i]);
	if (dpower)
		sc_free(gpu, dpower);
	sc_gpu_destroy(gpu);
	free(ref[1]);
	free(ref[0]);
	free(out);
	free(power);
	free(temp);
	return status;
}
