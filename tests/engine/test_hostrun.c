/* Host programs as workloads (engine/hostrun.c, simcore/rt.c): the same
 * kernel and inputs as a host program and as a JSON workload give the same
 * outcome for every mask; fork-at-cycle equals re-running per experiment;
 * a program that is not on the simcore API, or not deterministic, is a
 * clear error. The host program is tests/engine/data/vadd_host.c, built by
 * the Makefile; FLIPSIM_TEST_HOST names it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs.h"

/* The host-program twin of tests/engine/data/vadd4k-iota-regfile.json;
 * `target` (NULL: "regfile") its target, `gpu` (NULL: gtx480) a GPU file
 * under tests/engine/data. */
static void setup_host_on(setup_t *s, uint64_t injections, const char *regs, const char *target, const char *gpu,
                          const char *extra)
{
	const char *host = getenv("FLIPSIM_TEST_HOST");
	cr_assert(host && *host, "FLIPSIM_TEST_HOST must name build/tests/vadd_host (make unit sets it)");
	char *root = getcwd(NULL, 0), path[200], *hostabs = realpath(host, NULL);
	cr_assert(root && hostabs);
	runs_tmpdir(s->dir, sizeof s->dir, "hostrun");
	snprintf(path, sizeof path, "%s/campaign.json", s->dir);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "{\"name\": \"vadd4k-host\", \"workload\": {\"exec\": [\"%s\", \"examples/vadd/vadd.ptx\"], "
	        "\"cwd\": \"%s\"}, \"regs\": \"%s\", \"target\": \"%s\", \"injections\": %llu, \"seed\": 7",
	        hostabs, root, regs, target ? target : "regfile", (unsigned long long)injections);
	if (gpu)
		fprintf(f, ", \"gpu\": \"%s/tests/engine/data/%s\"", root, gpu);
	fprintf(f, "%s}\n", extra ? extra : "");
	fclose(f);
	free(root);
	free(hostabs);
	runs_setup(s, path);
}

static void setup_host(setup_t *s, uint64_t injections, const char *regs)
{
	setup_host_on(s, injections, regs, NULL, NULL, NULL);
}

static got_t run(setup_t *s, bool no_fork) { return runs_run(s, no_fork, false, false); }

/* Same masks, same outcomes: the host program against the JSON workload,
 * in register mode `regs` (the campaign's mode reaches the program's GPU). */
static void host_equals_json(const char *regs, const char *json)
{
	setup_t h = {0}, j = {0};
	setup_host(&h, 600, regs);
	runs_setup(&j, json);
	cr_assert_eq(h.g.launch[0].regs_per_thread, j.g.launch[0].regs_per_thread);
	/* the same kernel, inputs and GPU: the same golden run and masks */
	cr_assert_eq(h.g.cycles, j.g.cycles);
	cr_assert_eq(h.g.nlaunch, 1);
	cr_assert_eq(h.p.n, j.p.n);
	for (uint64_t i = 0; i < h.p.n; i++)
		cr_assert_eq(memcmp(&h.e[i], &j.e[i], sizeof h.e[i]), 0, "mask %llu", (unsigned long long)i);
	got_t a = run(&h, false), b = run(&j, false);
	uint64_t k[3] = {0}, early = 0;
	for (uint64_t i = 0; i < h.p.n; i++) {
		const eng_outcome_t *x = &a.o[i], *y = &b.o[i];
		cr_expect_eq(x->outcome, y->outcome, "mask %llu: %s vs %s", (unsigned long long)i, x->reason, y->reason);
		if (x->outcome == CLS_SDC) /* what differs: the printed digest, the buffer */
			cr_expect(!strcmp(x->reason, "stdout") && !strcmp(y->reason, "output:c"), "%s %s", x->reason,
			          y->reason);
		else
			cr_expect_str_eq(x->reason, y->reason, "mask %llu", (unsigned long long)i);
		k[x->outcome]++;
		early += x->early;
		/* where the fault landed and what it met: across the X line too */
		cr_expect_str_eq(x->site, y->site, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(x->effect, y->effect, "mask %llu", (unsigned long long)i);
		if (x->outcome == CLS_SDC) /* the program's digest line: one line of stdout differs */
			cr_expect(strstr(x->severity, "\"stdout\":{\"first_line\":") && strstr(y->severity, "\"name\":\"c\""),
			          "%s | %s", x->severity, y->severity);
	}
	cr_expect_gt(k[CLS_SDC], 0);
	cr_expect_gt(k[CLS_DUE], 0);
	cr_expect_gt(early, 0);
	free(a.o);
	free(b.o);
	runs_teardown(&h);
	runs_teardown(&j);
}

Test(hostrun, host_program_equals_json_workload, .timeout = 300)
{
	host_equals_json("ptx", "tests/engine/data/vadd4k-iota-regfile.json");
}

Test(hostrun, host_program_equals_json_workload_in_alloc_mode, .timeout = 300)
{
	host_equals_json("alloc", "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	/* and alloc mode did take effect in the program's GPU */
	setup_t p = {0}, a = {0};
	setup_host(&p, 1, "unalloc");
	setup_host(&a, 1, "alloc");
	cr_expect_lt(a.g.launch[0].regs_per_thread, p.g.launch[0].regs_per_thread);
	runs_teardown(&p);
	runs_teardown(&a);
}

/* profile --ib-similarity of a host program: the runtime samples the
 * instruction-buffer histogram (job record ib_similarity, S lines) as a
 * workload JSON's golden run does, bin for bin. */
Test(hostrun, ib_similarity_of_a_host_program_equals_json_workload, .timeout = 300)
{
	setup_t h = {0}, j = {0};
	setup_host(&h, 1, "alloc");
	runs_setup(&j, "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	h.c->golden_ib_similarity = true;
	eng_golden_t hg, jg;
	char err[1024];
	cr_assert_eq(eng_golden_exec(h.c, 0, &hg, err, sizeof err), 0, "%s", err);
	sc_options_t o = {.regs = SC_REGS_ALLOC, .ib_similarity = true};
	cr_assert_eq(eng_golden_run_opt(j.c->workload, &j.c->gpu, &o, NULL, 0, &jg, err, sizeof err), 0, "%s", err);
	cr_assert_eq(hg.nlaunch, 1);
	cr_assert_eq(jg.nlaunch, 1);
	uint64_t n = 0;
	for (int d = 0; d < SC_IB_SIM_BINS; d++) {
		cr_expect_eq(hg.launch[0].ib_distinct[d], jg.launch[0].ib_distinct[d], "bin %d", d);
		n += hg.launch[0].ib_distinct[d];
	}
	cr_expect_gt(n, 1000);
	/* off (the default), nothing is sampled */
	for (int d = 0; d < SC_IB_SIM_BINS; d++)
		cr_expect_eq(h.g.launch[0].ib_distinct[d], 0);
	eng_golden_free(&hg);
	eng_golden_free(&jg);
	runs_teardown(&h);
	runs_teardown(&j);
}

/* With SHARP on, a host program reports each launch's SHARP statistics (H
 * lines) as a workload JSON's golden run has them, count for count. */
Test(hostrun, sharp_stats_of_a_host_program_equal_json_workload, .timeout = 300)
{
	setup_t h = {0}, j = {0};
	setup_host(&h, 1, "alloc");
	runs_setup(&j, "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	h.c->prot.sharp.on = true;
	eng_golden_t hg, jg;
	char err[1024];
	cr_assert_eq(eng_golden_exec(h.c, 0, &hg, err, sizeof err), 0, "%s", err);
	sc_options_t o = {.regs = SC_REGS_ALLOC, .prot = h.c->prot};
	cr_assert_eq(eng_golden_run_opt(j.c->workload, &j.c->gpu, &o, NULL, 0, &jg, err, sizeof err), 0, "%s", err);
	cr_assert_eq(hg.nlaunch, 1);
	cr_assert_eq(jg.nlaunch, 1);
	cr_expect_eq(memcmp(&hg.launch[0].sharp, &jg.launch[0].sharp, sizeof hg.launch[0].sharp), 0);
	cr_expect_gt(hg.launch[0].sharp.windows, 0);
	cr_expect_gt(hg.launch[0].sharp.warp_cycles, 0);
	cr_expect_eq(hg.launch[0].cycles, jg.launch[0].cycles);
	eng_golden_free(&hg);
	eng_golden_free(&jg);
	runs_teardown(&h);
	runs_teardown(&j);
}

/* Penny reaches a host program's GPU through its own job-file record: the
 * program's experiments roll back as the JSON workload's do, outcome for
 * outcome, event for event (prot: the campaign's "protection"). */
static void penny_host_equals_json(const char *prot, const char *json)
{
	setup_t h = {0}, j = {0};
	setup_host_on(&h, 400, "alloc", NULL, NULL, prot);
	runs_setup(&j, json);
	cr_assert(h.c->prot.penny.on);
	cr_assert_eq(h.c->prot.penny.pruning, j.c->prot.penny.pruning);
	cr_assert_eq(h.g.cycles, j.g.cycles, "the same golden run");
	cr_assert_eq(h.p.n, j.p.n);
	got_t a = run(&h, false), b = run(&j, false);
	uint64_t recovered = 0;
	for (uint64_t i = 0; i < h.p.n; i++) {
		const eng_outcome_t *x = &a.o[i], *y = &b.o[i];
		cr_expect_eq(x->outcome, CLS_MASKED, "mask %llu: %s", (unsigned long long)i, x->reason);
		cr_expect_eq(x->outcome, y->outcome, "mask %llu: %s vs %s", (unsigned long long)i, x->reason, y->reason);
		cr_expect_str_eq(x->reason, y->reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(x->prot, y->prot, "mask %llu", (unsigned long long)i);
		cr_expect_eq(x->prot_cycle, y->prot_cycle, "mask %llu", (unsigned long long)i);
		recovered += x->prot == SC_PROT_RECOVERED;
	}
	cr_expect_gt(recovered, 0);
	free(a.o);
	free(b.o);
	runs_teardown(&h);
	runs_teardown(&j);
}

Test(hostrun, penny_in_a_host_program_equals_json_workload, .timeout = 300)
{
	penny_host_equals_json(", \"protection\": {\"penny\": {\"edc\": \"parity\"}}",
	                       "tests/engine/data/vadd4k-iota-regfile-penny.json");
}

/* The same in compiled mode with optimal pruning: the record's compiler
 * fields reach the program, which compiles its module the same way. */
Test(hostrun, pennyc_optimal_in_a_host_program_equals_json_workload, .timeout = 300)
{
	penny_host_equals_json(", \"protection\": {\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", "
	                       "\"pruning\": \"optimal\"}}",
	                       "tests/engine/data/vadd4k-iota-regfile-pennyc-opt.json");
}

/* A host program whose kernel spills (FLIPSIM_MAX_REGS, which the
 * program inherits) reports what was spilled (its P line) as a workload
 * JSON's golden run has it, and the same cycles. */
Test(hostrun, spill_stats_of_a_host_program_equal_json_workload, .timeout = 300)
{
	setup_t h = {0}, j = {0};
	setup_host(&h, 1, "alloc");
	runs_setup(&j, "tests/engine/data/vadd4k-iota-regfile-alloc.json");
	cr_assert_eq(setenv("FLIPSIM_MAX_REGS", "6", 1), 0);
	eng_golden_t hg, jg;
	char err[1024];
	cr_assert_eq(eng_golden_exec(h.c, 0, &hg, err, sizeof err), 0, "%s", err);
	sc_options_t o = {.regs = SC_REGS_ALLOC};
	cr_assert_eq(eng_golden_run_opt(j.c->workload, &j.c->gpu, &o, NULL, 0, &jg, err, sizeof err), 0, "%s", err);
	unsetenv("FLIPSIM_MAX_REGS");
	cr_assert_eq(hg.nlaunch, 1);
	cr_assert_eq(jg.nlaunch, 1);
	const sc_launch_stats_t *a = &hg.launch[0], *b = &jg.launch[0];
	cr_expect_gt(b->spill_regs, 0, "vadd spills under 6 registers");
	cr_expect_eq(a->spill_regs, b->spill_regs);
	cr_expect_eq(a->spill_bytes, b->spill_bytes);
	cr_expect_eq(a->spill_stores, b->spill_stores);
	cr_expect_eq(a->spill_loads, b->spill_loads);
	cr_expect_leq(a->regs_per_thread, 6);
	cr_expect_eq(a->cycles, b->cycles);
	eng_golden_free(&hg);
	eng_golden_free(&jg);
	runs_teardown(&h);
	runs_teardown(&j);
}

Test(hostrun, fork_at_cycle_equals_one_run_per_experiment, .timeout = 300)
{
	setup_t s = {0};
	setup_host(&s, 120, "ptx");
	got_t f = run(&s, false), nf = run(&s, true);
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "mask %llu", (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "mask %llu", (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "mask %llu", (unsigned long long)i);
	}
	free(f.o);
	free(nf.o);
	runs_teardown(&s);
}

/* The same for the caches (on small-cache-gpu.json, where vadd's inputs
 * and outputs fill and leave them): the host program reads its outputs
 * through the L2 (sc_memcpy_dtoh), corrupted lines included. */
static void host_cache_fork(const char *target, const char *extra, const char *due)
{
	setup_t s = {0};
	setup_host_on(&s, 150, "ptx", target, "small-cache-gpu.json", extra);
	got_t f = run(&s, false), nf = run(&s, true);
	uint64_t failed = 0, used = 0, dues = 0;
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "%s: mask %llu", target, (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "%s: mask %llu", target, (unsigned long long)i);
		cr_expect_eq(f.o[i].cycles, nf.o[i].cycles, "%s: mask %llu", target, (unsigned long long)i);
		failed += f.o[i].outcome != CLS_MASKED;
		used += strcmp(f.o[i].reason, "unused") != 0;
		dues += due && f.o[i].outcome == CLS_DUE && !strcmp(f.o[i].reason, due);
		cr_expect(!due || f.o[i].outcome != CLS_SDC, "%s: mask %llu: an SDC under a code", target,
		          (unsigned long long)i);
	}
	cr_expect_gt(used, 0, "%s", target);
	cr_expect(!due || dues > 0, "%s: some experiment is DUE %s", target, due ? due : "");
	cr_log_info("%s: %llu of %llu in use, %llu failed, %llu DUE %s", target, (unsigned long long)used,
	            (unsigned long long)s.p.n, (unsigned long long)failed, (unsigned long long)dues, due ? due : "-");
	free(f.o);
	free(nf.o);
	runs_teardown(&s);
}

Test(hostrun, cache_l2_fork_at_cycle_equals_one_run_per_experiment, .timeout = 300)
{
	host_cache_fork("l2", NULL, NULL);
}
Test(hostrun, cache_l1d_fork_at_cycle_equals_one_run_per_experiment, .timeout = 300)
{
	host_cache_fork("l1d", NULL, NULL);
}
/* A code on the L2's data reaches the program's GPU through the job file;
 * a parity error the program's read of its outputs meets (sc_memcpy_dtoh
 * fails) is the DUE parity_error, never an SDC. */
Test(hostrun, cache_l2_parity_reaches_the_program, .timeout = 300)
{
	host_cache_fork("l2", ", \"fields\": [\"data\"], \"protection\": {\"l2\": \"parity\"}", "parity_error");
}

Test(hostrun, a_nondeterministic_program_is_refused, .timeout = 120)
{
	setup_t s = {0};
	setup_host(&s, 20, "ptx");
	setenv("VADD_HOST_PRINT_PID", "1", 1);
	got_t g = {.o = calloc(s.p.n, sizeof(eng_outcome_t)), .n = s.p.n};
	eng_runner_opts_t o = {.campaign = s.c, .ck_interval = s.ck, .emit = runs_collect, .ctx = &g};
	char err[1024];
	int rc = eng_runner(&o, s.e, s.p.n, err, sizeof err);
	unsetenv("VADD_HOST_PRINT_PID");
	cr_expect_eq(rc, ENG_EINPUT);
	cr_expect(strstr(err, "not deterministic"), "%s", err);
	free(g.o);
	runs_teardown(&s);
}

Test(hostrun, a_program_off_the_simcore_api_is_bad_input, .timeout = 60)
{
	camp_exec_t x = {.argv = (char *[]){"/bin/echo", "hello", NULL}, .argc = 2, .cwd = "/"};
	camp_campaign_t c = {.exec = &x};
	sc_config_gtx480(&c.gpu);
	eng_golden_t g;
	char err[1024];
	cr_expect_eq(eng_golden_exec(&c, 0, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "without simulating anything"), "%s", err);
	eng_golden_free(&g);
	x.argv[0] = "/nonexistent/program";
	cr_expect_eq(eng_golden_exec(&c, 0, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "cannot run"), "%s", err);
	eng_golden_free(&g);
}

/* One golden run per campaign: the daemon runs the program fault-free
 * twice (the run, then its checkpoints at the interval the first gives)
 * and its workers take both from its golden record (record.c) instead of
 * running it again; with --no-early no checkpoints are needed. A wrapper
 * logs the mode of every start of the program. */
static void count_starts(bool no_early, int want_golden)
{
	char dir[64], wrap[128], log[128], camp[128], db[128];
	runs_tmpdir(dir, sizeof dir, "starts");
	snprintf(wrap, sizeof wrap, "%s/wrap.sh", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	snprintf(camp, sizeof camp, "%s/campaign.json", dir);
	snprintf(db, sizeof db, "%s/r.db", dir);
	char *host = realpath(runs_test_host("vadd_host"), NULL), *root = getcwd(NULL, 0);
	cr_assert(host && root);
	runs_writef(wrap, "#!/bin/sh\nsed -n 2p \"$FLIPSIM_RT\" >> %s\nexec %s \"$@\"\n", log, host);
	cr_assert_eq(chmod(wrap, 0755), 0);
	runs_writef(camp, "{\"name\": \"starts\", \"workload\": {\"exec\": [\"%s\", \"examples/vadd/vadd.ptx\"], "
	            "\"cwd\": \"%s\"}, \"target\": \"regfile\", \"injections\": 60, \"seed\": 3}\n", wrap, root);
	const char *args[] = {"run", camp, "--db", db, "-j", "2", "--quiet", no_early ? "--no-early" : NULL, NULL};
	cr_assert_eq(runs_flipsim(args, NULL), 0);
	char *text = runs_slurp(log);
	int golden = 0, inject = 0;
	for (char *p = text; (p = strstr(p, "mode ")); p += 5)
		golden += !strncmp(p, "mode golden", 11), inject += !strncmp(p, "mode inject", 11);
	cr_expect_eq(golden, want_golden, "fault-free runs: %d, want %d (the daemon's)", golden, want_golden);
	cr_expect_eq(inject, 2, "replays: %d, want one per worker", inject);
	free(text);
	free(host);
	free(root);
	runs_rm_dir(dir);
}

Test(hostrun, every_golden_run_is_the_daemons, .timeout = 120)
{
	count_starts(false, 2);
	count_starts(true, 1);
}

/* The workload kind is chosen in one place: a campaign with a host program
 * gets the exec driver (named by the program's base name, no output
 * buffers in the golden record), one with a JSON workload the JSON one. */
Test(hostrun, the_driver_follows_the_workload_kind)
{
	camp_exec_t x = {.argv = (char *[]){"/usr/bin/some_app", "--n", "4", NULL}, .argc = 3, .cwd = "/"};
	camp_campaign_t c = {.exec = &x};
	const eng_driver_t *d = eng_driver_for(&c);
	cr_expect_eq(d, &eng_driver_exec);
	cr_expect_str_eq(d->kind, "exec");
	cr_expect_not(d->outputs);
	cr_expect_str_eq(d->name(&c), "some_app");
	camp_workload_t w = {.name = "vadd"};
	camp_campaign_t j = {.workload = &w};
	d = eng_driver_for(&j);
	cr_expect_eq(d, &eng_driver_json);
	cr_expect_str_eq(d->kind, "json");
	cr_expect(d->outputs);
	cr_expect_str_eq(d->name(&j), "vadd");
}
