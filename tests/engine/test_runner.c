/* The fork-at-cycle runner against re-simulation from cycle 0 (--no-fork),
 * early termination on and off, and determinism, on small vadd campaigns. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs.h"

static got_t run(setup_t *s, bool no_fork, bool no_early) { return runs_run(s, no_fork, no_early, false); }

/* Sites and effects (README, "Fault sites and effects") of a and b agree
 * mask by mask: the same state at each injection, the same first event. */
static void same_attribution(const got_t *a, const got_t *b, const char *what)
{
	uint64_t sites = 0, effects = 0;
	for (uint64_t i = 0; i < a->n; i++) {
		cr_expect_str_eq(a->o[i].site, b->o[i].site, "%s: mask %llu", what, (unsigned long long)i);
		cr_expect_str_eq(a->o[i].effect, b->o[i].effect, "%s: mask %llu", what, (unsigned long long)i);
		sites += a->o[i].site[0] == '{';
		effects += strstr(a->o[i].effect, "\"first\"") != NULL;
	}
	cr_expect_eq(sites, a->n, "%s: every experiment has its site", what);
	cr_expect_gt(effects, 0, "%s: some faults are read or overwritten", what);
}

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
	same_attribution(&f, &nf, "fork against no-fork");
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
	same_attribution(&f, &nf, "alloc: fork against no-fork");
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
	same_attribution(&on, &off, "early termination on and off");
	free(on.o);
	free(off.o);
	runs_teardown(&s);
}

/* Fork-at-cycle equals re-simulation, and early termination (whole state,
 * or memory lines nobody touches again) never changes an outcome: for every
 * cache target (stencil.json on small-cache-gpu.json: lines that are hit,
 * evicted, written back and read by the next launch), and for registers of
 * recursive functions (frame pointers, call-stack records). */
static void fork_early_equivalences(const char *campaign)
{
	setup_t s;
	runs_setup(&s, campaign);
	runs_thin(&s);
	got_t f = run(&s, false, false), nf = run(&s, true, false), off = run(&s, false, true);
	uint64_t k[3], unused, early;
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "%s: mask %llu", campaign, (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "%s: mask %llu", campaign, (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "%s: mask %llu", campaign, (unsigned long long)i);
		cr_expect_eq(f.o[i].outcome, off.o[i].outcome, "%s: mask %llu: %s with early termination, %s without",
		             campaign, (unsigned long long)i, f.o[i].reason, off.o[i].reason);
		if (!(f.o[i].early && !strcmp(f.o[i].reason, "early")))
			cr_expect_str_eq(f.o[i].reason, off.o[i].reason, "%s: mask %llu", campaign, (unsigned long long)i);
		cr_expect_eq(off.o[i].early, 0);
	}
	same_attribution(&f, &nf, campaign);
	same_attribution(&f, &off, campaign);
	count(&f, k, &unused, &early);
	/* a meaningful mix: unused lines, faults that die out, faults that fail */
	cr_expect_gt(unused, 0, "%s", campaign);
	cr_expect_gt(early, 0, "%s", campaign);
	cr_expect_gt(k[CLS_SDC] + k[CLS_DUE], 0, "%s", campaign);
	cr_log_info("%s: masked %llu sdc %llu due %llu (unused %llu, early %llu)", campaign, (unsigned long long)k[0],
	            (unsigned long long)k[1], (unsigned long long)k[2], (unsigned long long)unused,
	            (unsigned long long)early);
	free(f.o);
	free(nf.o);
	free(off.o);
	runs_teardown(&s);
}

Test(runner, cache_l1d_fork_and_early_change_no_outcome, .timeout = 300)
{
	fork_early_equivalences("tests/engine/data/stencil-l1d.json");
}
Test(runner, cache_l2_fork_and_early_change_no_outcome, .timeout = 300)
{
	fork_early_equivalences("tests/engine/data/stencil-l2.json");
}
Test(runner, cache_const_fork_and_early_change_no_outcome, .timeout = 300)
{
	fork_early_equivalences("tests/engine/data/stencil-const.json");
}
/* live sampling: every draw lands on a line in use */
Test(runner, cache_l2_live_fork_and_early_change_no_outcome, .timeout = 300)
{
	fork_early_equivalences("tests/engine/data/stencil-l2-live.json");
}

/* calls_frames (tests/ptx): recursion whose activations hand pointers to
 * their own frames down, alloc mode (the windows of a cycle coincide) */
Test(runner, recursion_fork_and_early_change_no_outcome, .timeout = 300)
{
	fork_early_equivalences("tests/engine/data/calls-frames-regfile.json");
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

/* The golden record (record.c): what a daemon's golden run gives its
 * workers. A runner that takes it gives the outcomes of one that runs the
 * golden run itself; a record of another campaign or interval is refused. */
static got_t run_with(setup_t *s, const eng_golden_t *g)
{
	got_t r = {.o = calloc(s->p.n, sizeof(eng_outcome_t)), .n = s->p.n};
	eng_runner_opts_t o = {.campaign = s->c, .golden = g, .ck_interval = s->ck, .emit = runs_collect, .ctx = &r};
	char err[1024];
	cr_assert_eq(eng_runner(&o, s->e, s->p.n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(r.emitted, s->p.n);
	return r;
}

static void expect_same_ckpts(const sc_rt_ckpts_t *a, const sc_rt_ckpts_t *b)
{
	cr_assert_eq(a->n, b->n);
	cr_assert_eq(a->nparts, b->nparts);
	cr_assert_eq(a->nlines, b->nlines);
	cr_expect_eq(memcmp(a->cycle, b->cycle, a->n * sizeof *a->cycle), 0);
	cr_expect_eq(memcmp(a->part, b->part, (size_t)a->n * a->nparts * sizeof *a->part), 0);
	cr_expect_eq(memcmp(a->line, b->line, (size_t)a->n * a->nlines * sizeof *a->line), 0);
	cr_expect_eq(memcmp(a->touch, b->touch, a->nlines * sizeof *a->touch), 0);
	cr_expect_eq(memcmp(a->line_addr, b->line_addr, a->nlines * sizeof *a->line_addr), 0);
	cr_expect_eq(memcmp(a->line_len, b->line_len, a->nlines * sizeof *a->line_len), 0);
}

Test(runner, a_runner_takes_the_golden_record, .timeout = 300)
{
	setup_t s, t;
	runs_setup(&s, "tests/engine/data/vadd4k-regfile.json");
	runs_setup(&t, "tests/engine/data/tiny-pred.json");
	char err[1024];
	eng_golden_t rec, g;
	cr_assert_eq(eng_golden_campaign(s.c, s.ck, &rec, err, sizeof err), 0, "%s", err);
	int fd;
	cr_assert_eq(eng_golden_share(&rec, s.c, &fd, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_open(fd, s.c, s.ck, &g, err, sizeof err), 0, "%s", err);
	cr_assert(rec.ck.n > 0 && rec.ck.lines);
	expect_same_ckpts(&rec.ck, &g.ck);
	cr_expect_eq(g.cycles, rec.cycles);
	cr_expect_eq(eng_output_digest(&g), eng_output_digest(&rec));
	got_t own = run(&s, false, false), shared = run_with(&s, &g);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(own.o[i].outcome, shared.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(own.o[i].reason, shared.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(own.o[i].cycles, shared.o[i].cycles, "mask %llu", (unsigned long long)i);
		cr_expect_eq(own.o[i].early, shared.o[i].early, "mask %llu", (unsigned long long)i);
	}
	/* keyed by the campaign and the interval */
	eng_golden_t bad;
	cr_expect_neq(eng_golden_open(fd, t.c, s.ck, &bad, err, sizeof err), 0);
	cr_expect(strstr(err, "another campaign"), "%s", err);
	eng_golden_free(&bad);
	cr_expect_neq(eng_golden_open(fd, s.c, s.ck + 1, &bad, err, sizeof err), 0);
	cr_expect(strstr(err, "another checkpoint interval"), "%s", err);
	eng_golden_free(&bad);
	close(fd);
	/* a record of parts that are no multiple of 8 bytes (one line of 128 bytes) */
	eng_golden_t trec, tg;
	cr_assert_eq(eng_golden_campaign(t.c, t.ck, &trec, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_share(&trec, t.c, &fd, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_open(fd, t.c, t.ck, &tg, err, sizeof err), 0, "%s", err);
	cr_assert_eq(tg.ck.nlines, 1);
	expect_same_ckpts(&trec.ck, &tg.ck);
	cr_expect_eq(memcmp(tg.res->outputs[0].data, trec.res->outputs[0].data, 128), 0);
	close(fd);
	eng_golden_free(&tg);
	eng_golden_free(&trec);
	free(own.o);
	free(shared.o);
	eng_golden_free(&g);
	eng_golden_free(&rec);
	runs_teardown(&s);
	runs_teardown(&t);
}

/* Protected campaigns (issue 14): the error-pattern tables are state, so
 * forking at a cycle equals re-simulation and early termination, unused and
 * dead change no outcome and no first protection event; each campaign shows
 * the events it exists for (want), or the DUE reason it exists for
 * (reason, when not NULL). thin: runs_thin may keep a part of the masks
 * (make asan), when the event is common enough to be among them. */
static uint64_t equivalences(const char *campaign, sc_prot_t want, const char *reason, bool thin)
{
	setup_t s;
	runs_setup(&s, campaign);
	if (thin)
		runs_thin(&s);
	got_t f = run(&s, false, false), nf = run(&s, true, false), off = run(&s, false, true);
	got_t nd = runs_run(&s, false, false, true);
	uint64_t seen = 0, k[3] = {0};
	for (uint64_t i = 0; i < s.p.n; i++) {
		const eng_outcome_t *a = &f.o[i];
		const got_t *others[] = {&nf, &off, &nd};
		for (int j = 0; j < 3; j++) {
			const eng_outcome_t *b = &others[j]->o[i];
			cr_expect_eq(a->outcome, b->outcome, "%s: mask %llu: %s against %s (run %d)", campaign,
			             (unsigned long long)i, a->reason, b->reason, j);
			bool shortcut = !strcmp(a->reason, "early") || !strcmp(b->reason, "early") ||
			                !strcmp(b->reason, "dead") || !strcmp(a->reason, "dead");
			if (!shortcut) {
				cr_expect_str_eq(a->reason, b->reason, "%s: mask %llu (run %d)", campaign, (unsigned long long)i, j);
				cr_expect_eq(a->prot, b->prot, "%s: mask %llu (run %d)", campaign, (unsigned long long)i, j);
			}
		}
		cr_expect_eq(a->cycles, nf.o[i].cycles, "%s: mask %llu", campaign, (unsigned long long)i);
		cr_expect_eq(a->prot_cycle, nf.o[i].prot_cycle, "%s: mask %llu", campaign, (unsigned long long)i);
		seen += reason ? !strcmp(a->reason, reason) : a->prot == want;
		k[a->outcome]++;
	}
	cr_expect_gt(seen, 0, "%s: some experiment's first event is %s", campaign, reason ? reason : sc_prot_name(want));
	cr_log_info("%s: masked %llu sdc %llu due %llu, %llu %s", campaign, (unsigned long long)k[0],
	            (unsigned long long)k[1], (unsigned long long)k[2], (unsigned long long)seen, sc_prot_name(want));
	free(f.o);
	free(nf.o);
	free(off.o);
	free(nd.o);
	runs_teardown(&s);
	return k[CLS_SDC];
}

/* ... whose first protection event is `want` in some experiment. */
static uint64_t protected_equivalences(const char *campaign, sc_prot_t want)
{
	return equivalences(campaign, want, NULL, true);
}

Test(runner, protected_regfile_and_ibuffer_fork_early_and_dead_change_nothing, .timeout = 300)
{
	protected_equivalences("tests/engine/data/sp-small-regfile-hamming-adj3.json", SC_PROT_MISCORRECTED);
	protected_equivalences("tests/engine/data/vadd4k-regfile-secded.json", SC_PROT_CORRECTED);
	protected_equivalences("tests/engine/data/vadd4k-ibuffer-sawp.json", SC_PROT_RECOVERED);
}

/* SHARP: its windows, queue and stored check bits are state too, and its
 * check reads dead registers (the dead shortcut is off under it); a
 * fault in a stored check word (live smem: the only smem in use in vadd)
 * is corrected at the check. */
Test(runner, protected_sharp_fork_early_and_dead_change_nothing, .timeout = 300)
{
	protected_equivalences("tests/engine/data/vadd4k-regfile-sharp.json", SC_PROT_CORRECTED);
	protected_equivalences("tests/engine/data/vadd4k-regfile-sharp-adj2.json", SC_PROT_DETECTED);
	protected_equivalences("tests/engine/data/vadd4k-smem-sharp.json", SC_PROT_CORRECTED);
}

/* REFU: the replay buffer's entries, and what a fault did to them, are
 * state; a transient FU fault on a replayed instruction is detected at the
 * replay (refu_mismatch), and so is a stuck lane whose replays run on
 * another scheduler's unit. */
Test(runner, protected_refu_fork_early_and_dead_change_nothing, .timeout = 300)
{
	protected_equivalences("tests/engine/data/vadd4k-fu-refu.json", SC_PROT_DETECTED);
	protected_equivalences("tests/engine/data/vadd4k-fu-refu-stuck.json", SC_PROT_DETECTED);
}

/* Every mask, under make asan too: few of them meet the protection. */
Test(runner, protected_smem_and_pred_fork_early_and_dead_change_nothing, .timeout = 300)
{
	equivalences("tests/engine/data/sp-small-smem-parity.json", SC_PROT_DETECTED, NULL, false);
	equivalences("tests/engine/data/sp-small-smem-secded-il2-adj2.json", SC_PROT_CORRECTED, NULL, false);
	equivalences("tests/engine/data/tiny-pred-parity.json", SC_PROT_DETECTED, NULL, false);
	equivalences("tests/engine/data/tiny-pred-secded-adj2.json", SC_PROT_DETECTED, NULL, false);
}

/* Penny (oracle): the snapshots are state, and a rollback changes the
 * cycles; forking, early termination and the dead shortcut change no
 * outcome. Parity detects one bit and misses two adjacent ones (some SDC,
 * as unprotected); SECDED as a detection code sees three. */
Test(runner, protected_penny_fork_early_and_dead_change_nothing, .timeout = 600)
{
	cr_expect_eq(protected_equivalences("tests/engine/data/vadd4k-regfile-penny.json", SC_PROT_RECOVERED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/sp-small-regfile-penny.json", SC_PROT_RECOVERED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/vadd4k-regfile-penny-secded-adj3.json", SC_PROT_RECOVERED),
	             0);
	cr_expect_gt(protected_equivalences("tests/engine/data/vadd4k-regfile-penny-adj2.json", SC_PROT_UNDETECTED), 0,
	             "two adjacent bits under parity: undetected, some SDC");
}

/* Penny compiled: the checkpoints are simulated memory (state already:
 * global memory, or the CTA's shared memory), the inserted code changes
 * the golden run; forking, early termination and the dead shortcut change
 * no outcome. Storage auto (the campaigns without "storage"), shared and
 * global. */
Test(runner, protected_pennyc_fork_early_and_dead_change_nothing, .timeout = 900)
{
	static const char *const store[] = {"", "-shared", "-global"};
	for (int i = 0; i < 3; i++) {
		char a[128], b[128];
		snprintf(a, sizeof a, "tests/engine/data/vadd4k-regfile-pennyc%s.json", store[i]);
		snprintf(b, sizeof b, "tests/engine/data/sp-small-regfile-pennyc%s.json", store[i]);
		cr_expect_eq(protected_equivalences(a, SC_PROT_RECOVERED), 0, "%s", a);
		cr_expect_eq(protected_equivalences(b, SC_PROT_RECOVERED), 0, "%s", b);
	}
}

/* The same with optimal pruning (recovery slices run at rollbacks). */
Test(runner, protected_pennyc_optimal_fork_early_and_dead_change_nothing, .timeout = 600)
{
	cr_expect_eq(protected_equivalences("tests/engine/data/vadd4k-regfile-pennyc-opt.json", SC_PROT_RECOVERED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/sp-small-regfile-pennyc-opt.json", SC_PROT_RECOVERED), 0);
}

/* Every experiment of each campaign masked, none penny_unrecoverable, and
 * more than 10 recovered by a rollback. */
static void all_masked(const char *const *c, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		setup_t s;
		runs_setup(&s, c[k]);
		got_t f = run(&s, false, false);
		uint64_t recovered = 0;
		for (uint64_t i = 0; i < s.p.n; i++) {
			const eng_outcome_t *o = &f.o[i];
			cr_expect_eq(o->outcome, CLS_MASKED, "%s: mask %llu: %s", c[k], (unsigned long long)i, o->reason);
			cr_expect_str_neq(o->reason, "penny_unrecoverable", "%s: mask %llu", c[k], (unsigned long long)i);
			recovered += o->prot == SC_PROT_RECOVERED && !strcmp(o->reason, "recovered");
		}
		cr_expect_gt(recovered, 10, "%s: rollbacks happen (%llu)", c[k], (unsigned long long)recovered);
		cr_log_info("%s: %llu of %llu recovered", c[k], (unsigned long long)recovered, (unsigned long long)s.p.n);
		free(f.o);
		runs_teardown(&s);
	}
}

/* Penny's claim, tested by injection: every single-bit fault of the
 * register file is masked, most of those read by a rollback; none is an
 * SDC or a DUE, penny_unrecoverable least of all. vadd, scalarprod (a loop,
 * a divergent reduction, shared memory), ctrl_flow (loops and divergence),
 * dev_func (calls) and warp_shfl (cross-lane reads). */
Test(runner, penny_masks_every_single_bit_fault, .timeout = 600)
{
	static const char *const c[] = {
	    "tests/engine/data/vadd4k-regfile-penny-many.json", "tests/engine/data/sp-small-regfile-penny-many.json",
	    "tests/engine/data/ctrl-flow-regfile-penny.json",   "tests/engine/data/dev-func-regfile-penny.json",
	    "tests/engine/data/warp-shfl-regfile-penny.json"};
	all_masked(c, sizeof c / sizeof *c);
}

/* The same claim for compiled Penny, whose checkpoints are the inserted
 * stores and whose recovery reads them back from simulated memory: storage
 * auto (the default: shared memory for the costliest values, global for
 * the rest), then shared and global, and optimal pruning (-opt: auto).
 * SUFFIX picks the campaigns. */
static void pennyc_all_masked(const char *suffix)
{
	static const char *const base[] = {"vadd4k-regfile-pennyc-many", "sp-small-regfile-pennyc-many",
	                                   "ctrl-flow-regfile-pennyc", "dev-func-regfile-pennyc",
	                                   "warp-shfl-regfile-pennyc"};
	char name[5][128];
	const char *c[5];
	for (int i = 0; i < 5; i++) {
		snprintf(name[i], sizeof name[i], "tests/engine/data/%s%s.json", base[i], suffix);
		c[i] = name[i];
	}
	all_masked(c, 5);
}

Test(runner, pennyc_masks_every_single_bit_fault, .timeout = 600)
{
	pennyc_all_masked("");
}

Test(runner, pennyc_shared_masks_every_single_bit_fault, .timeout = 600)
{
	pennyc_all_masked("-shared");
}

Test(runner, pennyc_global_masks_every_single_bit_fault, .timeout = 600)
{
	pennyc_all_masked("-global");
}

/* The same with optimal pruning: most live-ins come back through
 * recovery slices (recomputed from restored values and read-only memory)
 * instead of checkpoints. */
Test(runner, pennyc_optimal_masks_every_single_bit_fault, .timeout = 600)
{
	pennyc_all_masked("-opt");
}

/* Codes on the caches' data (stencil.json on small-cache-gpu.json): the
 * overlay's error patterns are state, as the tables above. */
Test(runner, protected_l1d_fork_early_and_dead_change_nothing, .timeout = 300)
{
	/* one bit per codeword: corrected or detected, never an SDC */
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l1d-secded.json", SC_PROT_CORRECTED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l1d-parity.json", SC_PROT_DETECTED), 0);
	/* a parity bit on the tags: a flipped tag's wrong hits become DUEs */
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l1d-tag-parity.json", SC_PROT_DETECTED), 0);
}

Test(runner, protected_l2_fork_early_and_dead_change_nothing, .timeout = 300)
{
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l2-secded.json", SC_PROT_CORRECTED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l2-parity.json", SC_PROT_DETECTED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l2-secded-adj2.json", SC_PROT_DETECTED), 0);
	cr_expect_eq(protected_equivalences("tests/engine/data/stencil-l2-tag-parity.json", SC_PROT_DETECTED), 0);
	/* 13 check bits of 45: many triples lie in check bits only, x stays zero */
	protected_equivalences("tests/engine/data/stencil-l2-dected-adj3.json", SC_PROT_DETECTED);
}

/* Datapath duplication (protection dup, regs_subset original): the
 * transform happens at load in every process alike, so forking equals
 * re-simulation, and early termination and the dead shortcut change no
 * outcome; some faults are detected (DUE dup_mismatch, no protection
 * event). */
Test(runner, protected_dup_fork_early_and_dead_change_nothing, .timeout = 300)
{
	equivalences("tests/engine/data/vadd4k-regfile-dup-sw.json", SC_PROT_NONE, "dup_mismatch", true);
	equivalences("tests/engine/data/vadd4k-regfile-dup-ra.json", SC_PROT_NONE, "dup_mismatch", true);
}

/* Device printf's text is an output: a fault that changes only what the
 * kernel prints (its memory output is printf's constant result) is an SDC
 * "stdout", and since the text is in the state hash, early termination
 * and fork-at-cycle change no outcome. */
Test(runner, printf_text_is_an_output, .timeout = 300)
{
	setup_t s;
	runs_setup(&s, "tests/engine/data/printf-fmt-regfile.json");
	cr_assert(s.g.res && s.g.res->printf_len > 10000, "the golden run's printf text");
	got_t f = run(&s, false, false), nf = run(&s, true, false), off = run(&s, false, true);
	uint64_t stdout_sdc = 0, early = 0;
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].outcome, off.o[i].outcome, "mask %llu: %s with early termination, %s without",
		             (unsigned long long)i, f.o[i].reason, off.o[i].reason);
		stdout_sdc += f.o[i].outcome == CLS_SDC && !strcmp(f.o[i].reason, "stdout");
		early += f.o[i].early;
	}
	cr_expect_gt(stdout_sdc, 0, "faults that change only the printed text");
	cr_expect_gt(early, 0);
	/* the golden record carries the text to the workers */
	char err[1024];
	eng_golden_t rec, g;
	int fd;
	cr_assert_eq(eng_golden_campaign(s.c, s.ck, &rec, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_share(&rec, s.c, &fd, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_open(fd, s.c, s.ck, &g, err, sizeof err), 0, "%s", err);
	cr_assert_eq(g.res->printf_len, s.g.res->printf_len);
	cr_expect(!memcmp(g.res->printf_text, s.g.res->printf_text, g.res->printf_len));
	cr_expect_eq(eng_output_digest(&g), eng_output_digest(&rec));
	got_t shared = run_with(&s, &g);
	for (uint64_t i = 0; i < s.p.n; i++)
		cr_expect_str_eq(f.o[i].reason, shared.o[i].reason, "mask %llu", (unsigned long long)i);
	free(shared.o);
	eng_golden_free(&g);
	eng_golden_free(&rec);
	close(fd);
	free(f.o);
	free(nf.o);
	free(off.o);
	runs_teardown(&s);
}
