/* nw — GUFI's NW application on the simulated GPU: the Needleman-Wunsch score
 * matrix of two seeded sequences, tile anti-diagonal by tile anti-diagonal
 * (nw.cu), traced back on the host. --check fills the matrix on the CPU and
 * compares every cell. See examples/nw/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

enum {
	BS = 16,           /* tile side and threads per CTA (nw.cu's BS) */
	DEFAULT_N = 512,   /* 32 tiles a side: GUFI's 32 + 31 invocations */
	MAX_N = 4096,
	PENALTY = 10,      /* gap penalty (the original's default) */
	LETTERS = 24,      /* alphabet size, as BLOSUM62's */
};

/* Far above the default run (about 10^6 cycles) and any --length up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/nw/nw.ptx";
static const char K_GROW[] = "_Z20needle_cuda_shared_1PiS_iiii";
static const char K_SHRINK[] = "_Z20needle_cuda_shared_2PiS_iiii";

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

/* The input, as the original lays it out: two random sequences of n
 * letters, a symmetric substitution table (a seeded stand-in for BLOSUM62:
 * 4..11 on the diagonal, -4..2 off it), ref[i][j] = sub[a[i]][b[j]] for i,
 * j >= 1 (row and column 0 unused), and the score matrix with its borders
 * score[i][0] = -i * PENALTY, score[0][j] = -j * PENALTY. */
static void input_make(int n, int32_t *ref, int32_t *score, int *seq_a, int *seq_b, uint64_t seed)
{
	int sub[LETTERS][LETTERS], cols = n + 1;
	uint64_t s = seed;

	for (int x = 0; x < LETTERS; x++)
		for (int y = 0; y <= x; y++)
			sub[x][y] = sub[y][x] = x == y ? 4 + (int)(next_rand(&s) % 8) : -4 + (int)(next_rand(&s) % 7);
	for (int i = 1; i <= n; i++) {
		seq_a[i] = (int)(next_rand(&s) % LETTERS);
		seq_b[i] = (int)(next_rand(&s) % LETTERS);
	}
	memset(ref, 0, sizeof *ref * (size_t)cols * (size_t)cols);
	memset(score, 0, sizeof *score * (size_t)cols * (size_t)cols);
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= n; j++)
			ref[i * cols + j] = sub[seq_a[i]][seq_b[j]];
	for (int i = 0; i <= n; i++) {
		score[i * cols] = -i * PENALTY;
		score[i] = -i * PENALTY;
	}
}

static int max3(int a, int b, int c)
{
	int m = a > b ? a : b;
	return m > c ? m : c;
}

/* The CPU reference: the same recurrence, row by row. */
static void fill_cpu(int n, const int32_t *ref, int32_t *score)
{
	int cols = n + 1;
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= n; j++)
			score[i * cols + j] = max3(score[(i - 1) * cols + j - 1] + ref[i * cols + j],
			                           score[i * cols + j - 1] - PENALTY,
			                           score[(i - 1) * cols + j] - PENALTY);
}

/* Traces an optimal alignment back from the corner (the original's host
 * part): prefers the diagonal, then the gap in b, then the gap in a. On a
 * matrix that fits no move (a corrupted one) it takes the diagonal, so the
 * walk always ends. Counts matches and gaps. */
static void trace(int n, const int32_t *ref, const int32_t *score, const int *seq_a, const int *seq_b,
                  int *matches, int *gaps)
{
	int cols = n + 1, i = n, j = n;

	*matches = *gaps = 0;
	while (i > 0 || j > 0) {
		int here = score[i * cols + j];
		if (i > 0 && j > 0 && here == score[(i - 1) * cols + j - 1] + ref[i * cols + j]) {
			*matches += seq_a[i] == seq_b[j];
			i--;
			j--;
		} else if (i > 0 && here == score[(i - 1) * cols + j] - PENALTY) {
			(*gaps)++;
			i--;
		} else if (j > 0 && here == score[i * cols + j - 1] - PENALTY) {
			(*gaps)++;
			j--;
		} else if (i > 0 && j > 0) {
			i--;
			j--;
		} else if (i > 0) {
			i--;
		} else {
			j--;
		}
	}
}

/* ---- the simulated GPU ---------------------------------------------------- */

enum { B_REF, B_SCORE, NBUF };

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

/* Fills the score matrix on the GPU, borders in, matrix out. Returns 0 or
 * an SC_E* code, naming the failing call in a->what. */
static int fill_gpu(app_t *a, int n, const int32_t *ref, int32_t *score)
{
	const uint64_t bytes = sizeof(int32_t) * (uint64_t)(n + 1) * (uint64_t)(n + 1);
	const sc_dim3_t block = {BS, 1, 1};
	int32_t cols = n + 1, penalty = PENALTY, i, width = n / BS;
	void *args[] = {&a->buf[B_REF], &a->buf[B_SCORE], &cols, &penalty, &i, &width};

	for (; a->nbuf < NBUF; a->nbuf++)
		TRY(a, sc_malloc(a->gpu, bytes, &a->buf[a->nbuf]), "allocate a matrix");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_REF], ref, bytes), "copy the substitution scores in");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_SCORE], score, bytes), "copy the score matrix in");
	for (i = 1; i <= width; i++) {
		sc_dim3_t grid = {(uint32_t)i, 1, 1};
		TRY(a, sc_launch(a->gpu, a->mod, K_GROW, grid, block, 0, args), "launch needle_cuda_shared_1");
	}
	for (i = width - 1; i >= 1; i--) {
		sc_dim3_t grid = {(uint32_t)i, 1, 1};
		TRY(a, sc_launch(a->gpu, a->mod, K_SHRINK, grid, block, 0, args), "launch needle_cuda_shared_2");
	}
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	TRY(a, sc_memcpy_dtoh(a->gpu, score, a->buf[B_SCORE], bytes), "copy the score matrix out");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "nw: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "nw: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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
	fprintf(stderr, "usage: nw [--ptx FILE] [--check] [--stats] [--length N]\n"
	                "  --ptx FILE    the kernels (default %s)\n"
	                "  --check       compare with a CPU fill; exit 1 on a difference\n"
	                "  --stats       per-kernel statistics on stderr\n"
	                "  --length N    sequence length, a multiple of %d in %d..%d (default %d)\n",
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
	app_t a = {.gpu = NULL, .nbuf = 0, .what = ""};
	int32_t *ref = NULL, *score = NULL, *rscore = NULL;
	int *seq_a = NULL, *seq_b = NULL, matches, gaps, err, status = EXIT_FAIL;
	char msg[256];

	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--check")) {
			check = true;
		} else if (!strcmp(argv[i], "--stats")) {
			stats = true;
		} else if (!strcmp(argv[i], "--ptx") && i + 1 < argc) {
			ptx = argv[++i];
		} else if (!strcmp(argv[i], "--length") && i + 1 < argc) {
			n = strtol(argv[++i], &end, 10);
			if (*end || n < BS || n > MAX_N || n % BS)
				return usage();
		} else {
			return usage();
		}
	}

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "nw: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
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
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = fill_gpu(&a, (int)n, ref, score)) != 0) {
		status = report(a.gpu, err, a.what);
		goto out;
	}

	trace((int)n, ref, score, seq_a, seq_b, &matches, &gaps);
	printf("nw: 2 x %ld letters, penalty %d, score %d, alignment: %d matches, %d gaps, digest %016llx\n", n,
	       PENALTY, (int)score[cells - 1], matches, gaps,
	       (unsigned long long)fnv1a(score, sizeof *score * cells));
	if (stats)
		print_stats(a.gpu, &cfg, "nw");
	status = EXIT_OK;
	if (check) {
		fill_cpu((int)n, ref, rscore);
		for (size_t c = 0; c < cells; c++)
			if (score[c] != rscore[c]) {
				printf("nw: FAIL: score[%zu][%zu] = %d on the GPU, %d on the CPU\n", c / (size_t)(n + 1),
				       c % (size_t)(n + 1), (int)score[c], (int)rscore[c]);
				status = EXIT_FAIL;
				break;
			}
		if (status == EXIT_OK)
			printf("nw: OK (%zu cells match the CPU)\n", cells);
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a.nbuf > 0)
		sc_free(a.gpu, a.buf[--a.nbuf]);
	sc_gpu_destroy(a.gpu);
	free(ref);
	free(score);
	free(rscore);
	free(seq_a);
	free(seq_b);
	return status;
}
