/* The SM state's mappings (statemap.c, sc_int.h "SM state across fork()"):
 * private until the injection runtime shares them, the register files
 * resized with today's semantics, and never shared between a parent and
 * its child, whichever way the child is forked. Checked on the register
 * files and on warp state in the other two mappings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "sc_int.h"

/* Word w of SM i's file, as filled with `seed`. */
static uint32_t pattern(uint32_t seed, uint32_t i, uint32_t w) { return seed ^ (i << 24) ^ (w * 2654435761u); }

/* The test's share of the SC_MAP_LAUNCH mapping (gpu_new maps it). */
#define LAUNCH_WORDS 3000u

static void rf_fill(sc_gpu_t *g, uint32_t seed)
{
	uint32_t *launch = g->smap.m[SC_MAP_LAUNCH].base;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		for (uint32_t w = 0; w < g->sms[i].rf_words; w++)
			g->sms[i].rf[w] = pattern(seed, i, w);
		for (uint32_t w = 0; w < g->cfg.max_warps_per_sm; w++) { /* SC_MAP_SM */
			g->sms[i].wnext[w] = pattern(seed, i, w);
			g->sms[i].warps[w].stk[0].pc = pattern(seed, i, ~w);
		}
	}
	for (uint32_t w = 0; w < LAUNCH_WORDS; w++)
		launch[w] = pattern(seed, 99, w);
}

/* Whether every file holds what rf_fill(seed) wrote, over its first `words`
 * words, and zeros after; and the warp state too. */
static bool rf_holds(const sc_gpu_t *g, uint32_t seed, uint32_t words)
{
	const uint32_t *launch = g->smap.m[SC_MAP_LAUNCH].base;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		for (uint32_t w = 0; w < g->sms[i].rf_words; w++)
			if (g->sms[i].rf[w] != (w < words ? pattern(seed, i, w) : 0))
				return false;
		for (uint32_t w = 0; w < g->cfg.max_warps_per_sm; w++)
			if (g->sms[i].wnext[w] != pattern(seed, i, w) || g->sms[i].warps[w].stk[0].pc != pattern(seed, i, ~w))
				return false;
	}
	for (uint32_t w = 0; w < LAUNCH_WORDS; w++)
		if (launch[w] != pattern(seed, 99, w))
			return false;
	return true;
}

/* Whether the mapping holding p is MAP_SHARED (/proc/self/maps: "rw-s"). */
static bool mapped_shared(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	cr_assert(f);
	char line[512], perm[8] = "";
	unsigned long lo, hi, a = (unsigned long)p;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 && a >= lo && a < hi)
			break;
	fclose(f);
	return perm[3] == 's';
}

static sc_gpu_t *gpu_new(h_ctx_t *h)
{
	h_init(h);
	h->opt.regs = SC_REGS_UNALLOC;
	h_start(h);
	cr_assert(sc__state_map(h->gpu, SC_MAP_LAUNCH, LAUNCH_WORDS * sizeof(uint32_t)));
	return h->gpu;
}

/* What a child says about its files (test_child). */
typedef struct child_rep {
	bool saw;       /* the parent's files as at the fork */
	bool wrote;     /* its own writes read back */
	int shared;     /* how many of its three mappings are shared (the spares) */
	bool kept;      /* its files unchanged by a grandchild's writes */
} child_rep_t;

/* In a child: checks its files hold `seed`, writes its own, and with
 * `grandchild` forks one that writes too. Reports on wfd; exits. */
static _Noreturn void test_child(sc_gpu_t *g, uint32_t seed, bool grandchild, int wfd)
{
	uint32_t words = g->sms[0].rf_words;
	child_rep_t r = {.saw = rf_holds(g, seed, words), .kept = true};
	r.shared = mapped_shared(g->sms[0].rf) + mapped_shared(g->sms[0].warps) +
	           mapped_shared(g->smap.m[SC_MAP_LAUNCH].base);
	rf_fill(g, ~seed);
	r.wrote = rf_holds(g, ~seed, words);
	if (grandchild) {
		pid_t pid = fork();
		if (pid == 0) {
			rf_fill(g, 12345);
			_exit(0);
		}
		int st;
		r.kept = pid > 0 && waitpid(pid, &st, 0) == pid && rf_holds(g, ~seed, words);
	}
	_exit(write(wfd, &r, sizeof r) == sizeof r ? 0 : 1);
}

/* Forks a test_child (through the runtime's spare when `arm`) and returns
 * its report. */
static child_rep_t fork_child(sc_gpu_t *g, uint32_t seed, bool arm, bool grandchild)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	if (arm)
		sc__state_arm(g);
	pid_t pid = fork();
	sc__state_disarm(g);
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(p[0]);
		test_child(g, seed, grandchild, p[1]);
	}
	close(p[1]);
	child_rep_t r = {0};
	cr_assert_eq(read(p[0], &r, sizeof r), (ssize_t)sizeof r, "the child reported");
	close(p[0]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return r;
}

Test(statemap, private_until_shared)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_expect_eq(g->sms[1].rf, g->sms[0].rf + g->smap.rf_stride, "one mapping, SM after SM");
	cr_expect(!mapped_shared(g->sms[0].rf), "without the runtime the files are private");
	cr_expect(!mapped_shared(g->sms[0].warps) && !mapped_shared(g->smap.m[SC_MAP_LAUNCH].base), "and the warps");
	rf_fill(g, 7);
	cr_assert_eq(sc__state_share(g), 0);
	cr_expect(mapped_shared(g->sms[0].rf));
	cr_expect(mapped_shared(g->sms[0].warps) && mapped_shared(g->smap.m[SC_MAP_LAUNCH].base), "all three mappings");
	cr_expect(rf_holds(g, 7, g->cfg.regs_per_sm), "sharing keeps the contents, at the same addresses");
	h_fini(&h);
}

/* A fork the runtime did not arm (a host program's own fork): the child
 * gets a private copy. */
Test(statemap, a_plain_fork_gives_the_child_a_private_copy)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__state_share(g), 0);
	rf_fill(g, 1);
	child_rep_t r = fork_child(g, 1, false, false);
	cr_expect(r.saw && r.wrote, "the child has the parent's registers and writes its own");
	cr_expect_eq(r.shared, 0, "private copies");
	cr_expect(rf_holds(g, 1, g->cfg.regs_per_sm), "the parent's registers are unchanged");
	cr_expect(mapped_shared(g->sms[0].rf), "and still shared");
	h_fini(&h);
}

/* The runtime's forks: the child takes the spare; the next child sees the
 * parent's registers of its own fork, not what the last child left in the
 * spare; a grandchild gets a private copy of the child's. */
Test(statemap, an_armed_fork_gives_the_child_the_spare)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__state_share(g), 0);
	for (uint32_t seed = 1; seed <= 3; seed++) {
		rf_fill(g, seed);
		child_rep_t r = fork_child(g, seed, true, seed == 2);
		cr_expect(r.saw && r.wrote, "child %u: the parent's registers, then its own", seed);
		cr_expect_eq(r.shared, 3, "child %u: the spares' pages", seed);
		cr_expect(r.kept, "child %u: its grandchild wrote a copy", seed);
		cr_expect(rf_holds(g, seed, g->cfg.regs_per_sm), "child %u left the parent's registers alone", seed);
	}
	h_fini(&h);
}

/* rf_fit's resizing (sc__rf_map) with sharing on: each SM gets a slice of
 * the new size of its own (what the files held is not kept: every CTA
 * zeroes its window), a resize within the slices maps nothing new, and
 * the files stay shared and are still unshared at every fork. */
Test(statemap, resizing_gives_every_sm_its_own_slice)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__state_share(g), 0);
	uint32_t n = g->cfg.regs_per_sm;
	const uint32_t sizes[] = {n + 1000, n - 1000, n + 500, n + 2000};
	for (uint32_t k = 0; k < 4; k++) {
		uint32_t *base = g->sms[0].rf;
		cr_assert_eq(sc__rf_map(g, sizes[k]), 0);
		cr_expect_eq(g->sms[0].rf_words, sizes[k]);
		cr_expect_eq(g->sms[0].rf == base, k == 1 || k == 2, "size %u: a new mapping only to grow", sizes[k]);
		rf_fill(g, 10 + k); /* every word of every SM: overlapping slices would clash */
		cr_expect(rf_holds(g, 10 + k, sizes[k]), "size %u: each SM's words its own", sizes[k]);
		cr_expect(mapped_shared(g->sms[0].rf));
		child_rep_t r = fork_child(g, 10 + k, true, false);
		cr_expect(r.saw && r.wrote && r.shared == 3, "size %u: the child has its own copy", sizes[k]);
		cr_expect(rf_holds(g, 10 + k, sizes[k]), "size %u: the child left the parent alone", sizes[k]);
	}
	h_fini(&h);
}
