/* The fork-at-cycle runner against re-simulation from cycle 0 (--no-fork),
 * early termination on and off, and determinism, on small vadd campaigns. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "eng_int.h"

typedef struct got {
	eng_outcome_t *o; /* by mask index */
	uint64_t n, emitted;
} got_t;

static void collect(const eng_outcome_t *o, void *ctx)
{
	got_t *g = ctx;
	cr_assert_lt(o->idx, g->n);
	cr_expect_eq(g->o[o->idx].reason[0], 0, "mask %llu reported twice", (unsigned long long)o->idx);
	g->o[o->idx] = *o;
	g->emitted++;
}

typedef struct setup {
	camp_campaign_t *c;
	eng_golden_t g;
	eng_plan_t p;
	eng_exp_t *e;
	uint64_t ck;
} setup_t;

static void setup(setup_t *s, const char *path)
{
	char err[1024];
	cr_assert_eq(camp_campaign_load(path, &s->c, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_campaign(s->c, 0, &s->g, err, sizeof err), 0, "%s", err);
	s->ck = s->g.cycles / 64 ? s->g.cycles / 64 : 1;
	cr_assert_eq(eng_plan_space(s->c, &s->g, &s->p, err, sizeof err), 0, "%s", err);
	s->e = calloc(s->p.n, sizeof *s->e);
	for (uint64_t i = 0; i < s->p.n; i++)
		cr_assert_eq(eng_plan_mask(&s->p, s->c->seed, i, &s->e[i]), 0);
	eng_exps_sort(s->e, s->p.n);
}

static void teardown(setup_t *s)
{
	free(s->e);
	eng_plan_free(&s->p);
	eng_golden_free(&s->g);
	camp_campaign_destroy(s->c);
}

static got_t run_dead(setup_t *s, bool no_fork, bool no_early, bool no_dead)
{
	got_t g = {.o = calloc(s->p.n, sizeof(eng_outcome_t)), .n = s->p.n};
	eng_runner_opts_t o = {.campaign = s->c, .ck_interval = s->ck, .no_fork = no_fork, .no_early = no_early,
	                       .no_dead = no_dead, .emit = collect, .ctx = &g};
	char err[1024];
	cr_assert_eq(eng_runner(&o, s->e, s->p.n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(g.emitted, s->p.n, "one outcome per mask");
	return g;
}

static got_t run(setup_t *s, bool no_fork, bool no_early) { return run_dead(s, no_fork, no_early, false); }

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
	setup(&s, "tests/engine/data/vadd4k-regfile.json");
	cr_assert_geq(s.p.n, 500);
	got_t f = run(&s, false, false), nf = run(&s, true, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "mask %llu", (unsigned long long)i);
	}
	uint64_t k[3], unused, early;
	count(&f, k, &unused, &early);
	/* a meaningful mix: some faults are unused, some stop early, some fail */
	cr_expect_gt(unused, 0);
	cr_expect_gt(early, 0);
	cr_expect_gt(k[CLS_SDC] + k[CLS_DUE], 0);
	cr_log_info("fork: masked %llu sdc %llu due %llu (unused %llu, early %llu)", (unsigned long long)k[0],
	            (unsigned long long)k[1], (unsigned long long)k[2], (unsigned long long)unused,
	            (unsigned long long)early);
	free(f.o);
	free(nf.o);
	teardown(&s);
}

/* The same in alloc register mode: fewer registers per thread, so more
 * faults land in live values; fork-at-cycle still equals re-simulation. */
Test(runner, fork_at_cycle_equals_resimulation_in_alloc_mode, .timeout = 300)
{
	setup_t s;
	setup(&s, "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	got_t f = run(&s, false, false), nf = run(&s, true, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "mask %llu", (unsigned long long)i);
	}
	free(f.o);
	free(nf.o);
	teardown(&s);
}

Test(runner, early_termination_never_changes_an_outcome, .timeout = 300)
{
	setup_t s;
	setup(&s, "tests/engine/data/vadd4k-regfile.json");
	got_t on = run(&s, false, false), off = run(&s, false, true);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(on.o[i].outcome, off.o[i].outcome, "mask %llu", (unsigned long long)i);
		if (on.o[i].early)
			cr_expect_eq(off.o[i].outcome, CLS_MASKED, "an early stop is a masked fault");
		else
			cr_expect_str_eq(on.o[i].reason, off.o[i].reason);
		cr_expect_eq(off.o[i].early, 0);
	}
	free(on.o);
	free(off.o);
	teardown(&s);
}

/* A fault in a value no thread reads again is Masked "dead" without being
 * simulated (sc_target_dead); simulated, every such fault is masked, and
 * nothing else changes. */
static void dead_is_masked(const char *campaign)
{
	setup_t s;
	setup(&s, campaign);
	got_t pruned = run(&s, false, false), full = run_dead(&s, false, false, true);
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
	teardown(&s);
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
	setup(&s, "tests/engine/data/vadd4k-simt.json");
	got_t a = run(&s, false, false), b = run(&s, false, false);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(a.o[i].outcome, b.o[i].outcome);
		cr_expect_str_eq(a.o[i].reason, b.o[i].reason);
		cr_expect_eq(a.o[i].cycles, b.o[i].cycles);
	}
	free(a.o);
	free(b.o);
	teardown(&s);
}

/* A fault whose cycle lies after the last event is never injected: both
 * the fork path (the replay never pauses there) and --no-fork say unused. */
Test(runner, fault_after_the_last_event_is_unused, .timeout = 60)
{
	setup_t s;
	setup(&s, "tests/engine/data/vadd4k-regfile.json");
	eng_exp_t late = {.idx = 0, .nfaults = 1, .f = {{.cycle = s.g.cycles + 5, .sm = 0, .loc = 0, .nbits = 1}}};
	for (int no_fork = 0; no_fork < 2; no_fork++) {
		got_t g = {.o = calloc(1, sizeof(eng_outcome_t)), .n = 1};
		eng_runner_opts_t o = {.campaign = s.c, .ck_interval = s.ck, .no_fork = no_fork, .emit = collect, .ctx = &g};
		char err[1024];
		cr_assert_eq(eng_runner(&o, &late, 1, err, sizeof err), 0, "%s", err);
		cr_assert_eq(g.emitted, 1);
		cr_expect_eq(g.o[0].outcome, CLS_MASKED);
		cr_expect_str_eq(g.o[0].reason, "unused", "%s mode", no_fork ? "no-fork" : "fork");
		free(g.o);
	}
	teardown(&s);
}
