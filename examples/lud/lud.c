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

#include "simcore.h"

#if FLT_EVAL_METHOD != 0
#error "the exact check needs float arithmetic in float (FLT_EVAL_METHOD == 0)"
#endif

enum {
	BS = 16,           /* block size (lud.cu's BS): diagonal CTA 16, perimeter 32, internal 16 x 16 */
	DEFAULT_N = 256,   /* 16 diagonal blocks: GUFI's 16/15/15 invocations */
	MAX_N = 2048,
};

/* Far above the default run (a few 10^6 cycles) and any --size up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 4000000000;

static const char DEFAULT_PTX[] = "examples/lud/lud.ptx";
static const char K_DIAG[] = "_Z12lud_diagonalPfii";
static const char K_PERI[] = "_Z13lud_perimeterPfii";
static const char K_INT[] = "_Z12lud_internalPfii";

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

/* Entries uniform in [0, 1) (24-bit, exact in float), a[i][i] += n: the
 * diagonal dominates, so no pivoting is needed. */
static void matrix_make(int n, float *a, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n * n; i++)
		a[i] = (float)(next_rand(&s) >> 40) / 16777216.0f;
	for (int i = 0; i < n; i++)
		a[i * n + i] += (float)n;
}

/* ---- the CPU reference: each kernel's float operations in lud.ptx's
 * order. `x -= p * q` is mul.f32 then sub.f32 (nvcc does not fuse it: C11
 * without contraction rounds the product too); lud_internal's `sum += l *
 * u` is fma.rn.f32 from 0 (fmaf). Divisions are div.rn.f32 (C's /). */

#define M(i, j) m[(size_t)(i) * (size_t)n + (size_t)(j)]

static void diagonal_cpu(float *m, int n, int off)
{
	for (int k = 0; k < BS - 1; k++) {
		for (int t = k + 1; t < BS; t++)
			M(off + t, off + k) = M(off + t, off + k) / M(off + k, off + k);
		for (int t = k + 1; t < BS; t++)
			for (int i = k + 1; i < BS; i++) {
				float p = M(off + i, off + k) * M(off + k, off + t);
				M(off + i, off + t) = M(off + i, off + t) - p;
			}
	}
}

static void perimeter_cpu(float *m, int n, int off)
{
	for (int b = off + BS; b < n; b += BS) {
		for (int t = 0; t < BS; t++) /* U12, one column per thread */
			for (int k = 0; k < BS - 1; k++)
				for (int i = k + 1; i < BS; i++) {
					float p = M(off + i, off + k) * M(off + k, b + t);
					M(off + i, b + t) = M(off + i, b + t) - p;
				}
		for (int r = 0; r < BS; r++) /* L21, one row per thread */
			for (int j = 0; j < BS; j++) {
				float v = M(b + r, off + j);
				for (int q = 0; q < j; q++) {
					float p = M(b + r, off + q) * M(off + q, off + j);
					v = v - p;
				}
				M(b + r, off + j) = v / M(off + j, off + j);
			}
	}
}

static void internal_cpu(float *m, int n, int off)
{
	for (int r = off + BS; r < n; r++)
		for (int c = off + BS; c < n; c++) {
			float sum = 0.0f;
			for (int k = 0; k < BS; k++)
				sum = fmaf(M(r, off + k), M(off + k, c), sum);
			M(r, c) = M(r, c) - sum;
		}
}

static void lud_cpu(float *m, int n)
{
	int off;
	for (off = 0; off < n - BS; off += BS) {
		diagonal_cpu(m, n, off);
		perimeter_cpu(m, n, off);
		internal_cpu(m, n, off);
	}
	diagonal_cpu(m, n, off);
}

/* max |A - L U| over the matrix, in double: the factorisation's quality. */
static double residual(const float *a, const float *m, int n)
{
	double worst = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int k = 0; k <= (i < j ? i : j); k++)
				s += (k == i ? 1.0 : (double)M(i, k)) * (double)M(k, j);
			double d = fabs(s - (double)a[(size_t)i * (size_t)n + (size_t)j]);
			if (d > worst)
				worst = d;
		}
	return worst;
}

#undef M

/* ---- the simulated GPU ---------------------------------------------------- */

typedef struct app {
	sc_gpu_t *gpu;
	sc_module_t *mod;
	uint64_t mat;
	int have_mat;
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

/* Factors m (n x n) in place on the GPU. Returns 0 or an SC_E* code, naming
 * the failing call in a->what. */
static int lud_gpu(app_t *a, float *m, int n)
{
	const uint64_t bytes = sizeof(float) * (uint64_t)n * (uint64_t)n;
	const sc_dim3_t one = {1, 1, 1}, dblock = {BS, 1, 1}, pblock = {2 * BS, 1, 1}, iblock = {BS, BS, 1};
	int32_t dim = n, off;
	void *args[] = {&a->mat, &dim, &off};

	TRY(a, sc_malloc(a->gpu, bytes, &a->mat), "allocate the matrix");
	a->have_mat = 1;
	TRY(a, sc_memcpy_htod(a->gpu, a->mat, m, bytes), "copy the matrix in");
	for (off = 0; off < n - BS; off += BS) {
		uint32_t nb = (uint32_t)((n - off) / BS - 1);
		sc_dim3_t pgrid = {nb, 1, 1}, igrid = {nb, nb, 1};
		TRY(a, sc_launch(a->gpu, a->mod, K_DIAG, one, dblock, 0, args), "launch lud_diagonal");
		TRY(a, sc_launch(a->gpu, a->mod, K_PERI, pgrid, pblock, 0, args), "launch lud_perimeter");
		TRY(a, sc_launch(a->gpu, a->mod, K_INT, igrid, iblock, 0, args), "launch lud_internal");
	}
	TRY(a, sc_launch(a->gpu, a->mod, K_DIAG, one, dblock, 0, args), "launch lud_diagonal");
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	TRY(a, sc_memcpy_dtoh(a->gpu, m, a->mat, bytes), "copy the matrix out");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "lud: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "lud: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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

static int usage(void)
{
	fprintf(stderr, "usage: lud [--ptx FILE] [--check] [--stats] [--size N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with the CPU, bit for bit; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --size N    matrix order, a multiple of %d in %d..%d (default %d)\n",
	        DEFAULT_PTX, BS, BS, MAX_N, DEFAULT_N);
	return EXIT_BADINPUT;
}

int main(int argc, char **argv)
{
	const char *ptx = DEFAULT_PTX;
	bool check = false, stats = false;
	long n = DEFAULT_N;
	sc_gpu_config_t cfg;
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	app_t a = {.gpu = NULL, .have_mat = 0, .what = ""};
	float *orig = NULL, *m = NULL, *ref = NULL;
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
			if (*end || n < BS || n > MAX_N || n % BS)
				return usage();
		} else {
			return usage();
		}
	}

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "lud: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
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
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = lud_gpu(&a, m, (int)n)) != 0) {
		status = report(a.gpu, err, a.what);
		goto out;
	}

	printf("lud: %ld x %ld, %ld block steps, digest %016llx, u[0][0] = %.9g, u[%ld][%ld] = %.9g\n", n, n,
	       n / BS, (unsigned long long)fnv1a(m, sizeof *m * nn), (double)m[0], n - 1, n - 1,
	       (double)m[nn - 1]);
	if (stats)
		print_stats(a.gpu, &cfg, "lud");
	status = EXIT_OK;
	if (check) {
		memcpy(ref, orig, sizeof *ref * nn);
		lud_cpu(ref, (int)n);
		for (size_t i = 0; i < nn; i++)
			if (memcmp(&m[i], &ref[i], sizeof(float)) != 0) {
				uint32_t g, c;
				memcpy(&g, &m[i], sizeof g);
				memcpy(&c, &ref[i], sizeof c);
				printf("lud: FAIL: m[%zu][%zu] = %.9g (0x%08x) on the GPU, %.9g (0x%08x) on the CPU\n",
				       i / (size_t)n, i % (size_t)n, (double)m[i], (unsigned)g, (double)ref[i],
				       (unsigned)c);
				status = EXIT_FAIL;
				break;
			}
		if (status == EXIT_OK)
			printf("lud: OK (%ld x %ld factors match the CPU bit for bit; max |A - LU| = %.3g)\n", n, n,
			       residual(orig, m, (int)n));
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	if (a.have_mat)
		sc_free(a.gpu, a.mat);
	sc_gpu_destroy(a.gpu);
	free(orig);
	free(m);
	free(ref);
	return status;
}
