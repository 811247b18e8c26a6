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

#include "simcore.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

enum {
	FAN1_BLOCK = 512,   /* Fan1: one row per thread (GUFI Table I: grid 1 x 512) */
	FAN2_BLOCK = 4,     /* Fan2: 4 x 4 threads per CTA (grid 8 x 8 for n = 30) */
	DEFAULT_N = 30,     /* GUFI's input: a system of 30 equations */
	MAX_N = 1024,
};

/* Far above the default run (about 10^5 cycles) and any --size up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 1000000000;

static const char DEFAULT_PTX[] = "examples/ge/ge.ptx";
static const char K_FAN1[] = "_Z4Fan1PfS_ii";
static const char K_FAN2[] = "_Z4Fan2PfS_S_iii";

/* Exit statuses (examples/README.md, as iterate). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

/* splitmix64: a tiny seeded generator, the same sequence on every machine. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1), from the top 24 bits: exact in float. */
static float uniform(uint64_t *s)
{
	return (float)(int32_t)(next_rand(s) >> 40) / 8388608.0f - 1.0f;
}

/* A random system whose diagonal dominates its rows, so elimination without
 * pivoting is stable: a[i][j] in [-1, 1), a[i][i] += n, b[i] in [-1, 1). */
static void system_make(int n, float *a, float *b, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			a[i * n + j] = uniform(&s);
		a[i * n + i] += (float)n;
		b[i] = uniform(&s);
	}
}

/* ---- the CPU reference: ge.ptx's arithmetic, operation by operation ------
 * Fan1 is one div.rn.f32; Fan2 is mul.f32 then sub.f32 (nvcc does not fuse
 * them here), so the product is rounded before the subtraction. */

static void eliminate_cpu(int n, float *m, float *a, float *b)
{
	for (int t = 0; t < n - 1; t++) {
		for (int row = t + 1; row < n; row++)
			m[row * n + t] = a[row * n + t] / a[t * n + t];
		for (int row = t + 1; row < n; row++) {
			float mult = m[row * n + t];
			for (int col = t; col < n; col++) {
				float p = mult * a[t * n + col];
				a[row * n + col] = a[row * n + col] - p;
			}
			float p = mult * b[t];
			b[row] = b[row] - p;
		}
	}
}

/* Back substitution on the host (as the original does it), in double. */
static void back_substitute(int n, const float *a, const float *b, double *x)
{
	for (int i = n - 1; i >= 0; i--) {
		double s = b[i];
		for (int j = i + 1; j < n; j++)
			s -= (double)a[i * n + j] * x[j];
		x[i] = s / a[i * n + i];
	}
}

/* ---- the simulated GPU ---------------------------------------------------- */

enum { B_M, B_A, B_B, NBUF };

typedef struct app {
	sc_gpu_t *gpu;
	sc_module_t *mod;
	uint64_t buf[NBUF];
	int nbuf;          /* how many of buf are allocated */
	const char *what;  /* the call that failed, for the message */
} app_t;

#define TRY(a, call, name)                                                \
	do {                                                                  \
		int e_ = (call);                                                  \
		if (e_ != 0) {                                                    \
			(a)->what = (name);                                           \
			return e_;                                                    \
		}                                                                 \
	} while (0)

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

	for (; a->nbuf < NBUF; a->nbuf++)
		TRY(a, sc_malloc(a->gpu, sizes[a->nbuf], &a->buf[a->nbuf]), "allocate a buffer");
	TRY(a, sc_memset(a->gpu, a->buf[B_M], 0, nn), "clear the multipliers");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_A], mat, nn), "copy the matrix in");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_B], b, sizes[B_B]), "copy the right-hand side in");

	void *args1[] = {&a->buf[B_M], &a->buf[B_A], &size, &t};
	void *args2[] = {&a->buf[B_M], &a->buf[B_A], &a->buf[B_B], &size, &j1, &t};
	for (t = 0; t < n - 1; t++) {
		TRY(a, sc_launch(a->gpu, a->mod, K_FAN1, grid1, block1, 0, args1), "launch Fan1");
		TRY(a, sc_launch(a->gpu, a->mod, K_FAN2, grid2, block2, 0, args2), "launch Fan2");
	}
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	TRY(a, sc_memcpy_dtoh(a->gpu, m, a->buf[B_M], nn), "copy the multipliers out");
	TRY(a, sc_memcpy_dtoh(a->gpu, mat, a->buf[B_A], nn), "copy the matrix out");
	TRY(a, sc_memcpy_dtoh(a->gpu, b, a->buf[B_B], sizes[B_B]), "copy the right-hand side out");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "ge: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "ge: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
	/* The PTX is the program's only input file: an unreadable, unparsable or
	 * mismatching module (no such kernel, too big to launch) is bad input. */
	if (err == SC_EIO || err == SC_EPARSE || err == SC_ENOTFOUND || err == SC_ELAUNCH)
		return EXIT_BADINPUT;
	return EXIT_FAIL;
}

/* --stats: per kernel its launches, shape, cycles, IPC and warp occupancy,
 * then the application's IPC (thread-instructions / cycles) and average warp
 * occupancy (GUFI Table III: each launch's occupancy weighted by its share of
 * the cycles). `occupancy` is the simulator's: the warps of ctas_per_sm CTAs
 * (the resource limit) over the SM's maximum; `resident` caps the CTAs per
 * SM by what the grid can give each SM, which is what a small grid really
 * keeps resident. */
static void print_stats(const sc_gpu_t *gpu, const sc_gpu_config_t *cfg, const char *app)
{
	sc_gpu_stats_t tot;
	uint32_t nl = sc_launch_count(gpu);
	double occ = 0, res = 0;

	sc_gpu_stats(gpu, &tot);
	for (uint32_t i = 0; i < nl; i++) {
		const sc_launch_stats_t *l = sc_launch_stats(gpu, i);
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = !strcmp(sc_launch_stats(gpu, j)->kernel, l->kernel);
		if (seen)
			continue;
		uint32_t count = 0;
		uint64_t cyc = 0, ti = 0;
		double kocc = 0, kres = 0;
		const sc_launch_stats_t *last = l;
		for (uint32_t j = i; j < nl; j++) {
			const sc_launch_stats_t *m = sc_launch_stats(gpu, j);
			if (strcmp(m->kernel, l->kernel))
				continue;
			uint64_t ctas = (uint64_t)m->grid.x * m->grid.y * m->grid.z;
			uint32_t warps = (m->block.x * m->block.y * m->block.z + cfg->warp_size - 1) / cfg->warp_size;
			uint64_t per_sm = (ctas + cfg->num_sms - 1) / cfg->num_sms;
			if (per_sm > m->ctas_per_sm)
				per_sm = m->ctas_per_sm;
			count++;
			cyc += m->cycles;
			ti += m->thread_insts;
			kocc += m->occupancy * (double)m->cycles;
			kres += (double)(per_sm * warps) / cfg->max_warps_per_sm * (double)m->cycles;
			last = m;
		}
		occ += kocc;
		res += kres;
		fprintf(stderr,
		        "%s: kernel %s: %u launches, grid %ux%ux%u..%ux%ux%u, block %ux%ux%u, "
		        "%u regs, %u B smem, limiter %s, %llu cycles, %llu thread-insts, IPC %.2f, "
		        "occupancy %.2f%% (resident %.2f%%)\n",
		        app, l->kernel, count, l->grid.x, l->grid.y, l->grid.z, last->grid.x, last->grid.y,
		        last->grid.z, l->block.x, l->block.y, l->block.z, l->regs_per_thread, l->smem_per_cta, l->limiter,
		        (unsigned long long)cyc, (unsigned long long)ti, cyc ? (double)ti / (double)cyc : 0.0,
		        cyc ? 100.0 * kocc / (double)cyc : 0.0, cyc ? 100.0 * kres / (double)cyc : 0.0);
	}
	fprintf(stderr,
	        "%s: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%% (resident %.2f%%)\n",
	        app, tot.launches, (unsigned long long)tot.cycles, (unsigned long long)tot.thread_insts,
	        (unsigned long long)tot.warp_insts, tot.cycles ? (double)tot.thread_insts / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * occ / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * res / (double)tot.cycles : 0.0);
}

/* FNV-1a, 64 bits: the digest printed for the output. */
static uint64_t fnv1a(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Compares n floats bit for bit; prints the first difference. */
static bool same(const char *name, const float *gpu, const float *cpu, int n)
{
	for (int i = 0; i < n; i++)
		if (memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0) {
			uint32_t g, c;
			memcpy(&g, &gpu[i], sizeof g);
			memcpy(&c, &cpu[i], sizeof c);
			printf("ge: FAIL: %s[%d] = %.9g (0x%08x) on the GPU, %.9g (0x%08x) on the CPU\n", name, i,
			       (double)gpu[i], (unsigned)g, (double)cpu[i], (unsigned)c);
			return false;
		}
	return true;
}

static int usage(void)
{
	fprintf(stderr, "usage: ge [--ptx FILE] [--check] [--stats] [--size N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --size N    equations, 2..%d (default %d)\n",
	        DEFAULT_PTX, MAX_N, DEFAULT_N);
	return EXIT_BADINPUT;
}

int main(int argc, char **argv)
{
	const char *ptx = DEFAULT_PTX;
	bool check = false, stats = false;
	long n = DEFAULT_N;
	sc_gpu_config_t cfg;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.gpu = NULL, .nbuf = 0, .what = ""};
	float *m = NULL, *mat = NULL, *b = NULL, *rm = NULL, *ra = NULL, *rb = NULL;
	double *x = NULL;
	int err, status = EXIT_FAIL;
	char msg[256];

	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--check")) {
			check = true;
		} else if (!strcmp(argv[i], "--stats")) {
			stats = true;
		} else if (!strcmp(argv[i], "--ptx") && i + 1 < argc) {
			ptx = argv[++i];
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			n = strtol(argv[++i], &end, 10);
			if (*end || n < 2 || n > MAX_N)
				return usage();
		} else {
			return usage();
		}
	}

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "ge: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
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
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = eliminate_gpu(&a, (int)n, m, mat, b)) != 0) {
		status = report(a.gpu, err, a.what);
		goto out;
	}

	back_substitute((int)n, mat, b, x);
	printf("ge: %ld equations, %ld pivots, digest %016llx (matrix) %016llx (rhs) %016llx (x), "
	       "x[0] = %.9g, x[%ld] = %.9g\n",
	       n, n - 1, (unsigned long long)fnv1a(mat, sizeof *mat * nn),
	       (unsigned long long)fnv1a(b, sizeof *b * (size_t)n),
	       (unsigned long long)fnv1a(x, sizeof *x * (size_t)n), x[0], n - 1, x[n - 1]);
	if (stats)
		print_stats(a.gpu, &cfg, "ge");
	status = EXIT_OK;
	if (check) {
		eliminate_cpu((int)n, rm, ra, rb);
		if (same("m", m, rm, (int)nn) && same("a", mat, ra, (int)nn) && same("b", b, rb, (int)n))
			printf("ge: OK (%ld x %ld system: matrix, multipliers and right-hand side match the "
			       "CPU bit for bit)\n", n, n);
		else
			status = EXIT_FAIL;
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a.nbuf > 0)
		sc_free(a.gpu, a.buf[--a.nbuf]);
	sc_gpu_destroy(a.gpu);
	free(m);
	free(mat);
	free(b);
	free(rm);
	free(ra);
	free(rb);
	free(x);
	return status;
}
