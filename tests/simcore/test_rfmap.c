/* The register files' mapping (rfmap.c, sc_int.h "Register files across
 * fork()"): private until the injection runtime shares it, resized with
 * today's semantics, and never shared between a parent and its child,
 * whichever way the child is forked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "sc_int.h"

/* Word w of SM i's file, as filled with `seed`. */
static uint32_t pattern(uint32_t seed, uint32_t i, uint32_t w) { return seed ^ (i << 24) ^ (w * 2654435761u); }

static void rf_fill(sc_gpu_t *g, uint32_t seed)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		for (uint32_t w = 0; w < g->sms[i].rf_words; w++)
			g->sms[i].rf[w] = pattern(seed, i, w);
}

/* Whether every file holds what rf_fill(seed) wrote, over its first `words`
 * words, and zeros after. */
static bool rf_holds(const sc_gpu_t *g, uint32_t seed, uint32_t words)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		for (uint32_t w = 0; w < g->sms[i].rf_words; w++)
			if (g->sms[i].rf[w] != (w < words ? pattern(seed, i, w) : 0))
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
	h->opt.regs = SC_REGS_PTX;
	h_start(h);
	return h->gpu;
}

/* What a child says about its files (test_child). */
typedef struct child_rep {
	bool saw;       /* the parent's files as at the fork */
	bool wrote;     /* its own writes read back */
	bool shared;    /* its files are a shared mapping (the spare) */
	bool kept;      /* its files unchanged by a grandchild's writes */
} child_rep_t;

/* In a child: checks its files hold `seed`, writes its own, and with
 * `grandchild` forks one that writes too. Reports on wfd; exits. */
static _Noreturn void test_child(sc_gpu_t *g, uint32_t seed, bool grandchild, int wfd)
{
	uint32_t words = g->sms[0].rf_words;
	child_rep_t r = {.saw = rf_holds(g, seed, words), .shared = mapped_shared(g->sms[0].rf), .kept = true};
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
		sc__rf_arm(g);
	pid_t pid = fork();
	sc__rf_disarm(g);
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

Test(rfmap, private_until_shared)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_expect_eq(g->sms[1].rf, g->sms[0].rf + g->sms[0].rf_words, "one mapping, SM after SM");
	cr_expect(!mapped_shared(g->sms[0].rf), "without the runtime the files are private");
	rf_fill(g, 7);
	cr_assert_eq(sc__rf_share(g), 0);
	cr_expect(mapped_shared(g->sms[0].rf));
	cr_expect(rf_holds(g, 7, g->cfg.regs_per_sm), "sharing keeps the contents");
	h_fini(&h);
}

/* A fork the runtime did not arm (a host program's own fork): the child
 * gets a private copy. */
Test(rfmap, a_plain_fork_gives_the_child_a_private_copy)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__rf_share(g), 0);
	rf_fill(g, 1);
	child_rep_t r = fork_child(g, 1, false, false);
	cr_expect(r.saw && r.wrote, "the child has the parent's registers and writes its own");
	cr_expect(!r.shared, "a private copy");
	cr_expect(rf_holds(g, 1, g->cfg.regs_per_sm), "the parent's registers are unchanged");
	cr_expect(mapped_shared(g->sms[0].rf), "and still shared");
	h_fini(&h);
}

/* The runtime's forks: the child takes the spare; the next child sees the
 * parent's registers of its own fork, not what the last child left in the
 * spare; a grandchild gets a private copy of the child's. */
Test(rfmap, an_armed_fork_gives_the_child_the_spare)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__rf_share(g), 0);
	for (uint32_t seed = 1; seed <= 3; seed++) {
		rf_fill(g, seed);
		child_rep_t r = fork_child(g, seed, true, seed == 2);
		cr_expect(r.saw && r.wrote, "child %u: the parent's registers, then its own", seed);
		cr_expect(r.shared, "child %u: the spare's pages", seed);
		cr_expect(r.kept, "child %u: its grandchild wrote a copy", seed);
		cr_expect(rf_holds(g, seed, g->cfg.regs_per_sm), "child %u left the parent's registers alone", seed);
	}
	h_fini(&h);
}

/* rf_fit's resizing (sc__rf_map) with sharing on: old words kept up to the
 * new size, new words zero, still shared and still unshared at a fork. */
Test(rfmap, resizing_keeps_old_words_and_zeroes_new_ones)
{
	h_ctx_t h;
	sc_gpu_t *g = gpu_new(&h);
	cr_assert_eq(sc__rf_share(g), 0);
	uint32_t n = g->cfg.regs_per_sm;
	rf_fill(g, 5);
	cr_assert_eq(sc__rf_map(g, n + 1000), 0);
	cr_expect_eq(g->sms[0].rf_words, n + 1000);
	cr_expect(rf_holds(g, 5, n), "grown: old words kept, new ones zero");
	cr_expect(mapped_shared(g->sms[0].rf));
	child_rep_t r = fork_child(g, 0, true, false);
	cr_expect(!r.saw && r.wrote && r.shared);
	cr_expect(rf_holds(g, 5, n), "the resized spare's child left the parent alone");
	rf_fill(g, 6);
	cr_assert_eq(sc__rf_map(g, n - 1000), 0);
	cr_expect(rf_holds(g, 6, n - 1000), "shrunk: the words up to the new size kept");
	r = fork_child(g, 6, true, false);
	cr_expect(r.saw && r.wrote && r.shared);
	cr_expect(rf_holds(g, 6, n - 1000));
	h_fini(&h);
}
