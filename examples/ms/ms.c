/* ms — GUFI's MS application on the simulated GPU: a stable merge sort of
 * seeded (key, value) pairs (ms.cu). Like the SDK sample, every run checks its
 * own result and exits 1 when it is wrong (the software detection GUFI saw as
 * DUEs); --check also compares with a CPU stable sort. See examples/ms/README.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

enum {
	SEG = 1024,             /* pairs per mergeSortSharedKernel CTA (ms.cu) */
	SAMPLE = 128,           /* sampling distance and merge CTA size (ms.cu) */
	RANK_BLOCK = 256,       /* threads per CTA of the two rank kernels */
	DEFAULT_N = 16384,      /* GUFI's input: 16384 pairs (16 segments, 4 passes) */
	MAX_N = SEG << 10,
	KEY_BITS = 12,          /* keys in 0..4095: many equal keys test stability */
};

/* Far above the default run (a few 10^5 cycles) and any --pairs up to
 * MAX_N: a simulated hang ends as a DUE timeout. */
static const uint64_t CYCLE_BUDGET = 2000000000;

static const char DEFAULT_PTX[] = "examples/ms/ms.ptx";
static const char K_SHARED[] = "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j";
static const char K_SAMPLES[] = "_Z25generateSampleRanksKernelILj1EEvPjS0_S0_iii";
static const char K_LIMITS[] = "_Z26mergeRanksAndIndicesKernelPjS_iii";
static const char K_MERGE[] = "_Z30mergeElementaryIntervalsKernelILj1EEvPjS0_S0_S0_S0_S0_ii";

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

/* Keys of KEY_BITS random bits; value i is the pair's original index. */
static void pairs_make(uint32_t *key, uint32_t *val, int n, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < n; i++) {
		key[i] = (uint32_t)(next_rand(&s) >> (64 - KEY_BITS));
		val[i] = (uint32_t)i;
	}
}

/* The SDK-style self-check every run makes: keys ascending, and values a
 * permutation of 0..n-1 whose every value carries its own key. Returns
 * NULL or what failed (the index in *at). */
static const char *validate(const uint32_t *in_key, const uint32_t *key, const uint32_t *val, int n,
                            unsigned char *seen, int *at)
{
	memset(seen, 0, (size_t)n);
	for (int i = 0; i < n; i++) {
		*at = i;
		if (i > 0 && key[i] < key[i - 1])
			return "keys out of order";
		if (val[i] >= (uint32_t)n || seen[val[i]])
			return "values are not a permutation";
		seen[val[i]] = 1;
		if (in_key[val[i]] != key[i])
			return "a value lost its key";
	}
	return NULL;
}

/* The CPU reference: a stable sort; with values the original indices,
 * ordering by (key, value) is exactly the stable order. */
static int by_key_then_index(const void *pa, const void *pb)
{
	const uint32_t *a = pa, *b = pb;
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static int sort_cpu(const uint32_t *in_key, uint32_t *key, uint32_t *val, int n)
{
	uint32_t *kv = malloc(sizeof *kv * 2 * (size_t)n);
	if (!kv)
		return -1;
	for (int i = 0; i < n; i++) {
		kv[2 * i] = in_key[i];
		kv[2 * i + 1] = (uint32_t)i;
	}
	qsort(kv, (size_t)n, 2 * sizeof *kv, by_key_then_index);
	for (int i = 0; i < n; i++) {
		key[i] = kv[2 * i];
		val[i] = kv[2 * i + 1];
	}
	free(kv);
	return 0;
}

/* ---- the simulated GPU ---------------------------------------------------- */

enum { B_INKEY, B_INVAL, B_KEY0, B_VAL0, B_KEY1, B_VAL1, B_RANKA, B_RANKB, B_LIMA, B_LIMB, NBUF };

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

	for (; a->nbuf < NBUF; a->nbuf++)
		TRY(a, sc_malloc(a->gpu, sizes[a->nbuf], &a->buf[a->nbuf]), "allocate a buffer");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_INKEY], in_key, bytes), "copy the keys in");
	TRY(a, sc_memcpy_htod(a->gpu, a->buf[B_INVAL], in_val, bytes), "copy the values in");

	int cur = B_KEY0, oth = B_KEY1; /* key buffer; its values follow it */
	void *sargs[] = {&a->buf[cur], &a->buf[cur + 1], &a->buf[B_INKEY], &a->buf[B_INVAL], &seg};
	TRY(a, sc_launch(a->gpu, a->mod, K_SHARED, sgrid, sblock, 0, sargs), "launch mergeSortSharedKernel");
	*passes = 0;
	for (stride = SEG; stride < n; stride *= 2, (*passes)++) {
		void *gargs[] = {&a->buf[B_RANKA], &a->buf[B_RANKB], &a->buf[cur], &stride, &nn, &threads};
		void *la[] = {&a->buf[B_LIMA], &a->buf[B_RANKA], &stride, &nn, &threads};
		void *lb[] = {&a->buf[B_LIMB], &a->buf[B_RANKB], &stride, &nn, &threads};
		void *margs[] = {&a->buf[oth], &a->buf[oth + 1], &a->buf[cur], &a->buf[cur + 1],
		                 &a->buf[B_LIMA], &a->buf[B_LIMB], &stride, &nn};
		TRY(a, sc_launch(a->gpu, a->mod, K_SAMPLES, rgrid, rblock, 0, gargs),
		    "launch generateSampleRanksKernel");
		TRY(a, sc_launch(a->gpu, a->mod, K_LIMITS, rgrid, rblock, 0, la), "launch mergeRanksAndIndicesKernel");
		TRY(a, sc_launch(a->gpu, a->mod, K_LIMITS, rgrid, rblock, 0, lb), "launch mergeRanksAndIndicesKernel");
		TRY(a, sc_launch(a->gpu, a->mod, K_MERGE, mgrid, mblock, 0, margs),
		    "launch mergeElementaryIntervalsKernel");
		int t = cur;
		cur = oth;
		oth = t;
	}
	TRY(a, sc_synchronize(a->gpu), "synchronize");
	TRY(a, sc_memcpy_dtoh(a->gpu, key, a->buf[cur], bytes), "copy the keys out");
	TRY(a, sc_memcpy_dtoh(a->gpu, val, a->buf[cur + 1], bytes), "copy the values out");
	return 0;
}

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "ms: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "ms: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
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
	fprintf(stderr, "usage: ms [--ptx FILE] [--check] [--stats] [--pairs N]\n"
	                "  --ptx FILE  the kernels (default %s)\n"
	                "  --check     compare with a CPU stable sort; exit 1 on a difference\n"
	                "  --stats     per-kernel statistics on stderr\n"
	                "  --pairs N   pairs to sort, %d times a power of two up to %d (default %d)\n",
	        DEFAULT_PTX, SEG, MAX_N, DEFAULT_N);
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
	uint32_t *in_key = NULL, *in_val = NULL, *key = NULL, *val = NULL, *rkey = NULL, *rval = NULL;
	unsigned char *seen = NULL;
	int passes = 0, err, status = EXIT_FAIL, at;
	char msg[256];

	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--check")) {
			check = true;
		} else if (!strcmp(argv[i], "--stats")) {
			stats = true;
		} else if (!strcmp(argv[i], "--pairs") && i + 1 < argc) {
			n = strtol(argv[++i], &end, 10);
			if (*end || n < SEG || n > MAX_N || n % SEG || ((n / SEG) & (n / SEG - 1)))
				return usage();
		} else if (!strcmp(argv[i], "--ptx") && i + 1 < argc) {
			ptx = argv[++i];
		} else {
			return usage();
		}
	}

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "ms: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		return EXIT_FAIL;
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
	if ((err = sc_gpu_create(&cfg, &opt, &a.gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(a.gpu, ptx, &a.mod)) != 0) {
		status = report(a.gpu, err, ptx);
		goto out;
	}
	if ((err = sort_gpu(&a, in_key, in_val, key, val, (int)n, &passes)) != 0) {
		status = report(a.gpu, err, a.what);
		goto out;
	}

	printf("ms: %ld pairs, %d merge passes, digest %016llx (keys) %016llx (values), "
	       "keys %u..%u\n",
	       n, passes, (unsigned long long)fnv1a(key, sizeof *key * (size_t)n),
	       (unsigned long long)fnv1a(val, sizeof *val * (size_t)n), (unsigned)key[0],
	       (unsigned)key[n - 1]);
	if (stats)
		print_stats(a.gpu, &cfg, "ms");
	const char *bad = validate(in_key, key, val, (int)n, seen, &at);
	if (bad) {
		fprintf(stderr, "ms: validation failed: %s at %d\n", bad, at);
		status = EXIT_FAIL;
		goto out;
	}
	status = EXIT_OK;
	if (check) {
		if (sort_cpu(in_key, rkey, rval, (int)n) != 0) {
			fprintf(stderr, "ms: out of memory\n");
			status = EXIT_FAIL;
			goto out;
		}
		for (long i = 0; i < n; i++)
			if (key[i] != rkey[i] || val[i] != rval[i]) {
				printf("ms: FAIL: pair %ld = (%u, %u) on the GPU, (%u, %u) on the CPU\n", i,
				       (unsigned)key[i], (unsigned)val[i], (unsigned)rkey[i], (unsigned)rval[i]);
				status = EXIT_FAIL;
				break;
			}
		if (status == EXIT_OK)
			printf("ms: OK (%ld pairs in the CPU's stable order)\n", n);
	}

out:
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a.nbuf > 0)
		sc_free(a.gpu, a.buf[--a.nbuf]);
	sc_gpu_destroy(a.gpu);
	free(in_key);
	free(in_val);
	free(key);
	free(val);
	free(rkey);
	free(rval);
	free(seen);
	return status;
}
