/* The fork-at-cycle runner against re-simulation from cycle 0 (--no-fork),
 * early termination on and off, and determinism, on small vadd campaigns. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "runs.h"

static got_t run(setup_t *s, bool no_fork, bool no_early) { return runs_run(s, no_fork, no_early, false); }

static void count(const got_t *g, uint64_t k[3], uint64_t *unused, uint64_t *early)
{
	k[0] = k[1] = k[2] = *unused = *early = 0;
	for (uint64_t i = 0; i < g->n; i++) {
		k[g->o[i].outcome]++;
		*unused += !strcmp(g->o[i].reason, "unused");
		*early += g->o[i].early;
	}
}

Test(runner, fork_at_cycle_equals_resimulation, .timeout = 300)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/vadd4k-regfile.json");
	cr_assert_geq(s.p.n, 500);
	got_t f = run(&s, false, false), nf = run(&s, true, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "mask %llu", (unsigned long long)i);
	}
	uint64_t k[3], unused, early, early_sdc = 0;
	count(&f, k, &unused, &early);
	for (uint64_t i = 0; i < s.p.n; i++)
		early_sdc += f.o[i].early && f.o[i].outcome == CLS_SDC;
	/* a meaningful mix: some faults are unused, some stop early (some of
	 * them SDCs known from memory alone: mem_final), some fail */
	cr_expect_gt(unused, 0);
	cr_expect_gt(early, 0);
	cr_expect_gt(early_sdc, 0);
	cr_expect_gt(k[CLS_SDC] + k[CLS_DUE], 0);
	cr_log_info("fork: masked %llu sdc %llu due %llu (unused %llu, early %llu)", (unsigned long long)k[0],
	            (unsigned long long)k[1], (unsigned long long)k[2], (unsigned long long)unused,
	            (unsigned long long)early);
	free(f.o);
	free(nf.o);
	runs_teardown(&s);
}

/* The same in alloc register mode: fewer registers per thread, so more
 * faults land in live values; fork-at-cycle still equals re-simulation. */
Test(runner, fork_at_cycle_equals_resimulation_in_alloc_mode, .timeout = 300)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	got_t f = run(&s, false, false), nf = run(&s, true, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "mask %llu", (unsigned long long)i);
	}
	free(f.o);
	free(nf.o);
	runs_teardown(&s);
}

Test(runner, early_termination_never_changes_an_outcome, .timeout = 300)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/vadd4k-regfile.json");
	got_t on = run(&s, false, false), off = run(&s, false, true);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(on.o[i].outcome, off.o[i].outcome, "mask %llu", (unsigned long long)i);
		if (on.o[i].early && !strcmp(on.o[i].reason, "early"))
			cr_expect_eq(off.o[i].outcome, CLS_MASKED, "a state that re-joined golden is a masked fault");
		else /* run to the end, or finished early from memory: the same verdict */
			cr_expect_str_eq(on.o[i].reason, off.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(off.o[i].early, 0);
	}
	free(on.o);
	free(off.o);
	runs_teardown(&s);
}

/* A fault in a value no thread reads again is Masked "dead" without being
 * simulated (sc_target_dead); simulated, every such fault is masked, and
 * nothing else changes. */
static void dead_is_masked(const char *campaign)
{
	setup_t s;
	runs_setup(&s, campaign);
	got_t pruned = run(&s, false, false), full = runs_run(&s, false, false, true);
	uint64_t dead = 0;
	for (uint64_t i = 0; i < s.p.n; i++) {
		if (!strcmp(pruned.o[i].reason, "dead")) {
			dead++;
			cr_expect_eq(pruned.o[i].outcome, CLS_MASKED);
			cr_expect_eq(full.o[i].outcome, CLS_MASKED, "%s: mask %llu is dead but simulated gives %s", campaign,
			             (unsigned long long)i, full.o[i].reason);
		} else {
			cr_expect_eq(pruned.o[i].outcome, full.o[i].outcome, "mask %llu", (unsigned long long)i);
			cr_expect_str_eq(pruned.o[i].reason, full.o[i].reason, "mask %llu", (unsigned long long)i);
		}
		cr_expect_str_neq(full.o[i].reason, "dead");
	}
	cr_expect_gt(dead, 0, "%s: no fault landed in a dead value", campaign);
	cr_log_info("%s: %llu of %llu dead", campaign, (unsigned long long)dead, (unsigned long long)s.p.n);
	free(pruned.o);
	free(full.o);
	runs_teardown(&s);
}

Test(runner, a_dead_value_is_masked_ptx, .timeout = 300) { dead_is_masked("tests/engine/data/vadd4k-regfile.json"); }
Test(runner, a_dead_value_is_masked_alloc, .timeout = 300)
{
	dead_is_masked("tests/engine/data/vadd4k-iota-regfile-alloc.json");
}
Test(runner, a_dead_predicate_is_masked, .timeout = 300) { dead_is_masked("tests/engine/data/tiny-pred.json"); }
/* loops, barriers and shared memory */
Test(runner, a_dead_value_is_masked_in_loops, .timeout = 300)
{
	dead_is_masked("tests/engine/data/sp-small-regfile.json");
}
Test(runner, a_dead_value_is_masked_in_loops_alloc, .timeout = 300)
{
	dead_is_masked("tests/engine/data/sp-small-regfile-alloc.json");
}

Test(runner, same_seed_same_outcomes, .timeout = 300)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/vadd4k-simt.json");
	got_t a = run(&s, false, false), b = run(&s, false, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(a.o[i].outcome, b.o[i].outcome);
		cr_expect_str_eq(a.o[i].reason, b.o[i].reason);
		cr_expect_eq(a.o[i].cycles, b.o[i].cycles);
	}
	free(a.o);
	free(b.o);
	runs_teardown(&s);
}

/* A fault whose cycle lies after the last event is never injected: both
 * the fork path (the replay never pauses there) and --no-fork say unused. */
Test(runner, fault_after_the_last_event_is_unused, .timeout = 60)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/vadd4k-regfile.json");
	eng_exp_t late = {.idx = 0, .nfaults = 1, .f = {{.cycle = s.g.cycles + 5, .sm = 0, .loc = 0, .nbits = 1}}};
	for (int no_fork = 0; no_fork < 2; no_fork++) {
		got_t g = {.o = calloc(1, sizeof(eng_outcome_t)), .n = 1};
		eng_runner_opts_t o = {.campaign = s.c, .ck_interval = s.ck, .no_fork = no_fork, .emit = runs_collect, .ctx = &g};
		char err[1024];
		cr_assert_eq(eng_runner(&o, &late, 1, err, sizeof err), 0, "%s", err);
		cr_assert_eq(g.emitted, 1);
		cr_expect_eq(g.o[0].outcome, CLS_MASKED);
		cr_expect_str_eq(g.o[0].reason, "unused", "%s mode", no_fork ? "no-fork" : "fork");
		free(g.o);
	}
	runs_teardown(&s);
}
