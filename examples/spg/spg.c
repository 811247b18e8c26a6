/* spg — GUFI's SP at its Table I shape as a host program on simcore.h: one
 * launch of scalarProdGPU (spg.cu, the kernel of examples/scalarprod) takes
 * the dot products of seeded float vector pairs. Prints the products'
 * FNV-1a digest; with --check compares them bit for bit with the kernel's
 * summation order repeated on the CPU.
 * Usage, shape and figures: examples/spg/README.md. */
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
#error "spg needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* The SDK's launch: 128 CTAs (fewer for fewer pairs) of 256 threads. */
enum { BLOCK = 256, MAX_GRID = 128 };

/* GUFI's input, the SDK's default: 256 pairs of 4096 floats. */
enum { DEF_PAIRS = 256, DEF_N = 4096 };

static const uint64_t SEED = 0x53503031;  /* "SP01" */

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with the elements per CTA (the default run: 258 306 cycles,
 * 32 per element of a CTA), and never under a million. */
static const uint64_t CYCLES_PER_WORK = 3200;
static const uint64_t MIN_BUDGET = 1000000;

static const char DEFAULT_PTX[] = "examples/spg/spg.ptx";
static const char KERNEL[] = "_Z13scalarProdGPUPfS_S_ii";

/* Exit statuses (examples/README.md, "iterate"). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

typedef struct params {
	int pairs, n;
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

/* Uniform in [lo, hi): 24 random bits make an exact float in [0, 1). */
static float uniform(uint64_t *s, float lo, float hi)
{
	float u = (float)(splitmix64(s) >> 40) * 0x1p-24f;
	return lo + (hi - lo) * u;
}


/* a and b uniform in [-1, 1), a first, from one stream. */
static void input_init(float *a, float *b, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		a[i] = uniform(&s, -1.0f, 1.0f);
	for (size_t i = 0; i < n; i++)
		b[i] = uniform(&s, -1.0f, 1.0f);
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
 * One dot product exactly as spg.cu computes it with blockDim.x == BLOCK
 * (examples/scalarprod/ref.c explains the order): thread t sums a[i] * b[i]
 * for i = t, t + BLOCK, ... from +0 with fma.rn.f32 (nvcc contracted the
 * multiply-add), then rounds s = BLOCK/2 .. 1 add part[t + s] into part[t]
 * for t < s; the result is part[0]. */
static float dot_cpu(const float *a, const float *b, size_t n)
{
	float part[BLOCK];

	for (size_t t = 0; t < BLOCK; t++) {
		float sum = 0.0f;
		for (size_t i = t; i < n; i += BLOCK)
			sum = fmaf(a[i], b[i], sum);
		part[t] = sum;
	}
	for (size_t s = BLOCK / 2; s > 0; s >>= 1)
		for (size_t t = 0; t < s; t++)
			part[t] = part[t] + part[t + s];
	return part[0];
}

/* ---- the simulated GPU -------------------------------------------------- */

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "spg: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "spg: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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
		        "spg: launch %u %s grid %ux%ux%u block %ux%ux%u regs %u smem %u "
		        "ctas/sm %u (%s) occupancy %.4f cycles %llu thread-insts %llu\n",
		        (unsigned)i, s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y,
		        s->block.z, s->regs_per_thread, s->smem_per_cta, s->ctas_per_sm, s->limiter,
		        s->occupancy, (unsigned long long)s->cycles, (unsigned long long)s->thread_insts);
		if (t.cycles)
			occ += s->occupancy * (double)s->cycles / (double)t.cycles;
	}
	fprintf(stderr,
	        "spg: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%%\n",
	        (unsigned)t.launches, (unsigned long long)t.cycles, (unsigned long long)t.thread_insts,
	        (unsigned long long)t.warp_insts,
	        t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0, 100.0 * occ);
}


/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: spg [--ptx FILE] [--check] [--stats] [--pairs P] [--n N]\n"
	        "  defaults: --ptx %s --pairs %d --n %d\n"
	        "  P pairs of N floats, P*N <= 16777216; grid min(P, %d) x %d\n",
	        DEFAULT_PTX, DEF_PAIRS, DEF_N, MAX_GRID, BLOCK);
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
		else if (!strcmp(a, "--pairs") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 1 << 24, &pp->pairs))
				return false;
		} else if (!strcmp(a, "--n") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 1 << 24, &pp->n))
				return false;
		} else
			return false;
	}
	return (int64_t)pp->pairs * pp->n <= (1 << 24);
}

int main(int argc, char **argv)
{
	params_t pp = {.pairs = DEF_PAIRS, .n = DEF_N, .ptx = DEFAULT_PTX};
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod;
	uint64_t da = 0, db = 0, dc = 0;
	float *a = NULL, *b = NULL, *c = NULL;
	int err, status = EXIT_FAIL;
	char msg[256];

	if (!parse_args(argc, argv, &pp))
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

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "spg: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
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
	if ((err = sc_malloc(gpu, bytes, &da)) != 0 || (err = sc_malloc(gpu, bytes, &db)) != 0 ||
	    (err = sc_malloc(gpu, cbytes, &dc)) != 0) {
		status = report(gpu, err, "allocate the vectors");
		goto out;
	}
	if ((err = sc_memcpy_htod(gpu, da, a, bytes)) != 0 || (err = sc_memcpy_htod(gpu, db, b, bytes)) != 0) {
		status = report(gpu, err, "copy the vectors in");
		goto out;
	}
	int32_t npairs = pp.pairs, nn = pp.n;
	void *args[] = {&dc, &da, &db, &npairs, &nn};
	if ((err = sc_launch(gpu, mod, KERNEL, (sc_dim3_t){blocks, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0,
	                     args)) != 0) {
		status = report(gpu, err, "launch scalarProdGPU");
		goto out;
	}
	if ((err = sc_memcpy_dtoh(gpu, c, dc, cbytes)) != 0) {
		status = report(gpu, err, "copy the products out");
		goto out;
	}

	double sum = 0.0;
	for (int p = 0; p < pp.pairs; p++)
		sum += c[p];
	printf("spg: %d pairs x %d elements, digest %016llx, sum %.9g, c[0] %.9g\n", pp.pairs, pp.n,
	       (unsigned long long)fnv1a(c, cbytes), sum, (double)c[0]);
	if (pp.stats)
		print_stats(gpu);
	status = EXIT_OK;

	if (pp.check) {
		for (int p = 0; p < pp.pairs; p++) {
			size_t off = (size_t)p * pp.n;
			float r = dot_cpu(a + off, b + off, (size_t)pp.n);
			if (memcmp(&c[p], &r, sizeof r) != 0) {
				uint32_t g, h;
				memcpy(&g, &c[p], sizeof g);
				memcpy(&h, &r, sizeof h);
				printf("spg: FAIL: c[%d] = %.9g (0x%08x) on the GPU, %.9g (0x%08x) on the CPU\n",
				       p, (double)c[p], (unsigned)g, (double)r, (unsigned)h);
				status = EXIT_FAIL;
				goto out;
			}
		}
		printf("spg: OK (%d dot products match the CPU bit for bit)\n", pp.pairs);
	}

out:
	if (dc)
		sc_free(gpu, dc);
	if (db)
		sc_free(gpu, db);
	if (da)
		sc_free(gpu, da);
	sc_gpu_destroy(gpu);
	free(c);
	free(b);
	free(a);
	return status;
}
