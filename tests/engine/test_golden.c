/* The golden run's limits and host programs' outputs (engine/golden.c,
 * engine/hostrun.c, engine/run.c, engine/plan.c): a golden run that never
 * ends is refused naming what hung; a program's background child is not
 * waited for; a huge output is compared in bounded memory; a resume whose
 * golden run changed is refused naming what changed; a margin that needs
 * more injections than the limit is bad input. The host program is
 * tests/engine/data/golden_host.c, built next to FLIPSIM_TEST_HOST. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs.h"

#define VADD "examples/vadd/vadd.ptx"
#define SPIN "tests/engine/data/spin.ptx"

/* build/tests/golden_host, next to FLIPSIM_TEST_HOST (static buffer). */
static const char *golden_host(void)
{
	return runs_test_host("golden_host");
}

/* The golden run of `golden_host MODE ARG [ARG2]` in the current folder
 * under these limits. Returns its status; g and err filled in. */
static int golden_exec(const char *mode, const char *arg, const char *arg2, double seconds, uint64_t cycles,
                       eng_golden_t *g, char *err, size_t errsz)
{
	char *argv[] = {(char *)golden_host(), (char *)mode, (char *)arg, (char *)arg2, NULL};
	char *cwd = getcwd(NULL, 0);
	camp_exec_t x = {.argv = argv, .argc = arg2 ? 4 : 3, .cwd = cwd};
	camp_campaign_t c = {.exec = &x, .golden_watchdog_seconds = seconds, .golden_cycle_budget = cycles};
	sc_config_gtx480(&c.gpu);
	int rc = eng_golden_exec(&c, 0, g, err, errsz);
	free(cwd);
	return rc;
}

/* A folder for one test's files. */
static void tmpdir(char *dir, size_t n)
{
	runs_tmpdir(dir, n, "golden");
}

/* dir/NAME.json: a campaign of golden_host with args (JSON strings) and extra keys. */
static void host_campaign(const char *dir, const char *name, const char *args, const char *extra, char *path,
                          size_t n)
{
	char *root = getcwd(NULL, 0);
	snprintf(path, n, "%s/%s.json", dir, name);
	runs_writef(path, "{\"name\": \"%s\", \"workload\": {\"exec\": [\"%s\", %s], \"cwd\": \"%s\"}, \"target\": "
	            "\"regfile\", \"seed\": 5%s}\n", name, golden_host(), args, root, extra);
	free(root);
}

/* ---- limits ---- */

/* The host program never exits: its golden run is killed after the
 * watchdog and refused as bad input, saying so. */
Test(golden, a_program_that_never_exits_is_refused, .timeout = 60)
{
	eng_golden_t g;
	char err[1024];
	cr_expect_eq(golden_exec("hang", VADD, NULL, 1, CAMP_GOLDEN_CYCLES, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "did not end within 1 s and was killed"), "%s", err);
	cr_expect(strstr(err, "golden_watchdog_seconds"), "%s", err);
	eng_golden_free(&g);
}

/* The program leaves a child running that holds its stdout, stderr and
 * flipsim's channel open: flipsim waits for the program alone, in the
 * golden run and in a whole campaign. */
Test(golden, a_background_child_is_not_waited_for, .timeout = 60)
{
	eng_golden_t g;
	char err[1024], dir[64], camp[200], db[200], errp[200];
	cr_assert_eq(golden_exec("background", VADD, NULL, 30, CAMP_GOLDEN_CYCLES, &g, err, sizeof err), 0, "%s", err);
	cr_expect_eq(g.exit_status, 0);
	cr_expect_gt(g.out.len, 0);
	eng_golden_free(&g);
	tmpdir(dir, sizeof dir);
	host_campaign(dir, "background", "\"background\", \"" VADD "\"", ", \"injections\": 8", camp, sizeof camp);
	snprintf(db, sizeof db, "%s/r.db", dir);
	snprintf(errp, sizeof errp, "%s/err", dir);
	spawn_opts_t so = {.err = errp};
	const char *args[] = {"run", camp, "--db", db, "-j", "1", "--quiet", NULL};
	int rc;
	char *e = runs_flipsim_err(args, &so, &rc);
	cr_expect_eq(rc, 0, "%s", e);
	free(e);
	runs_rm_dir(dir);
}

/* A kernel that never ends: the cycle budget stops the golden run of a
 * JSON workload and of a host program, the wall clock a JSON workload's. */
Test(golden, a_kernel_that_never_ends_is_refused, .timeout = 60)
{
	camp_workload_t *w;
	char err[1024];
	cr_assert_eq(camp_workload_load("tests/engine/data/spin.json", &w, err, sizeof err), 0, "%s", err);
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	eng_golden_t g;
	eng_limits_t cycles = {.seconds = 600, .cycles = 100000}, clock = {.seconds = 1, .cycles = UINT64_MAX};
	cr_expect_eq(eng_golden_run_opt(w, &cfg, NULL, &cycles, 0, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "workload 'spin' did not end within the cycle budget of 100000 cycles (kernel 'spin'"),
	          "%s", err);
	eng_golden_free(&g);
	cr_expect_eq(eng_golden_run_opt(w, &cfg, NULL, &clock, 0, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "did not end within 1 s (kernel 'spin' still running"), "%s", err);
	eng_golden_free(&g);
	camp_workload_destroy(w);
	cr_expect_eq(golden_exec("spin", SPIN, NULL, 600, 100000, &g, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, "did not end within the cycle budget of 100000 cycles"), "%s", err);
	eng_golden_free(&g);
}

/* A campaign on spin.json (a kernel that never ends) with extra keys, in a
 * folder of its own with the database and stderr file beside it. */
typedef struct spin {
	char dir[64], camp[200], db[200], err[200];
} spin_t;

static void spin_campaign(spin_t *s, const char *extra)
{
	char *root = getcwd(NULL, 0);
	tmpdir(s->dir, sizeof s->dir);
	snprintf(s->camp, sizeof s->camp, "%s/spin.json", s->dir);
	snprintf(s->db, sizeof s->db, "%s/r.db", s->dir);
	snprintf(s->err, sizeof s->err, "%s/err", s->dir);
	runs_writef(s->camp, "{\"workload\": \"%s/tests/engine/data/spin.json\", \"target\": \"regfile\"%s}\n", root,
	            extra);
	free(root);
}

/* The same through the CLI: campaign keys for run, options for profile. */
Test(golden, run_and_profile_take_the_limits, .timeout = 60)
{
	spin_t sp;
	spin_campaign(&sp, ", \"golden_cycle_budget\": 50000");
	spawn_opts_t so = {.err = sp.err};
	const char *run[] = {"run", sp.camp, "--db", sp.db, "--quiet", NULL};
	cr_expect_eq(runs_flipsim(run, &so), 2);
	char *e = runs_slurp(sp.err);
	cr_expect(strstr(e, "cycle budget of 50000 cycles"), "%s", e);
	free(e);
	const char *prof[] = {"profile", "--golden-timeout", "1", golden_host(), "hang", VADD, NULL};
	cr_expect_eq(runs_flipsim(prof, &so), 2);
	e = runs_slurp(sp.err);
	cr_expect(strstr(e, "did not end within 1 s"), "%s", e);
	free(e);
	const char *bad[] = {"profile", "--cycle-budget", "0", "tests/engine/data/spin.json", NULL};
	cr_expect_eq(runs_flipsim(bad, &so), 2);
	runs_rm_dir(sp.dir);
}

/* A hangup (or Ctrl-C) while a golden run is still going says so and
 * exits 128+N at once (it died silently with 129 before the daemon loop). */
Test(golden, a_hangup_during_the_golden_run_says_so, .timeout = 60)
{
	spin_t sp;
	spin_campaign(&sp, "");
	spawn_opts_t so = {.err = sp.err};
	const char *run[] = {"run", sp.camp, "--db", sp.db, "--quiet", NULL};
	static const int sigs[] = {SIGHUP, SIGINT};
	for (int i = 0; i < 2; i++) {
		pid_t pid = runs_spawn(run, &so);
		/* once flipsim handles the signal (a loaded machine can take longer
		 * than any fixed wait to get there), well inside the golden run:
		 * the kernel spins for far longer */
		cr_assert(runs_wait_handler(pid, sigs[i], 30000), "no handler for signal %d", sigs[i]);
		runs_sleep_ms(300);
		kill(pid, sigs[i]);
		cr_expect_eq(runs_wait(pid), 128 + sigs[i]);
		char *e = runs_slurp(sp.err);
		cr_expect(strstr(e, sigs[i] == SIGHUP ? "hangup (terminal closed) before the experiments began"
		                                      : "stopped before the experiments began"), "%s", e);
		free(e);
	}
	runs_rm_dir(sp.dir);
}

/* ---- outputs as streams ---- */

/* The largest resident size of this test's processes after a campaign of
 * golden_host printing MIB MiB (KiB; the maximum over every campaign so far). */
static long big_campaign(const char *dir, const char *mib)
{
	char camp[200], db[200], errp[200], args[100];
	snprintf(args, sizeof args, "\"big\", \"" VADD "\", \"%s\"", mib);
	host_campaign(dir, mib, args, ", \"injections\": 3, \"sampling\": \"live\"", camp, sizeof camp);
	snprintf(db, sizeof db, "%s/%s.db", dir, mib);
	snprintf(errp, sizeof errp, "%s/err", dir);
	spawn_opts_t so = {.err = errp};
	const char *run[] = {"run", camp, "--db", db, "-j", "1", "--no-early", "--quiet", NULL};
	int rc;
	char *e = runs_flipsim_err(run, &so, &rc);
	cr_expect_eq(rc, 0, "%s", e);
	free(e);
	struct rusage ru;
	cr_assert_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
	return ru.ru_maxrss;
}

/* 16 MiB on stdout: no process of the campaign grows by more than a few
 * MiB over the same campaign with no output (sanitizers add a base of
 * their own), and outcomes are stored. */
Test(golden, a_huge_output_is_compared_in_bounded_memory, .timeout = 120)
{
	char dir[64];
	tmpdir(dir, sizeof dir);
	long base = big_campaign(dir, "0"), big = big_campaign(dir, "16");
	cr_log_info("largest resident size: %ld KiB, %ld KiB without output", big, base);
	cr_expect_lt(big, base + 6 * 1024, "%ld KiB for a 16 MiB output, %ld KiB for none", big, base);
	runs_rm_dir(dir);
}

/* ---- resume ---- */

/* An input of the host program changes between two runs of one campaign:
 * the second is refused, naming stdout; restored, the campaign resumes. */
Test(golden, a_resume_with_another_golden_output_is_refused, .timeout = 120)
{
	char dir[64], camp[200], db[200], errp[200], input[200], args[400];
	tmpdir(dir, sizeof dir);
	snprintf(input, sizeof input, "%s/input.txt", dir);
	runs_put(input, "one\n");
	snprintf(args, sizeof args, "\"cat\", \"" VADD "\", \"%s\"", input);
	host_campaign(dir, "cat", args, ", \"injections\": 10", camp, sizeof camp);
	snprintf(db, sizeof db, "%s/r.db", dir);
	snprintf(errp, sizeof errp, "%s/err", dir);
	spawn_opts_t so = {.err = errp};
	const char *run[] = {"run", camp, "--db", db, "-j", "1", "--quiet", NULL};
	cr_assert_eq(runs_flipsim(run, &so), 0);
	runs_put(input, "two\n");
	cr_expect_eq(runs_flipsim(run, &so), 2);
	char *e = runs_slurp(errp);
	cr_expect(strstr(e, "cannot resume: the golden run differs from the one the campaign began with (stdout)"),
	          "%s", e);
	free(e);
	runs_put(input, "one\n");
	cr_expect_eq(runs_flipsim(run, &so), 0);
	runs_rm_dir(dir);
}

/* dir/SUB/tiny.json with tiny.ptx edited: `from` replaced by `to`. */
static camp_workload_t *tiny_variant(const char *top, const char *sub, const char *from, const char *to)
{
	char *ptx = runs_slurp("tests/engine/data/tiny.ptx"), *at = strstr(ptx, from), path[200], dir[150];
	cr_assert(at);
	snprintf(dir, sizeof dir, "%s/%s", top, sub);
	cr_assert_eq(mkdir(dir, 0700), 0);
	snprintf(path, sizeof path, "%s/tiny.ptx", dir);
	runs_writef(path, "%.*s%s%s", (int)(at - ptx), ptx, to, at + strlen(from));
	free(ptx);
	char *json = runs_slurp("tests/engine/data/tiny.json");
	snprintf(path, sizeof path, "%s/tiny.json", dir);
	runs_put(path, json);
	free(json);
	camp_workload_t *w;
	char err[1024];
	cr_assert_eq(camp_workload_load(path, &w, err, sizeof err), 0, "%s", err);
	return w;
}

/* What a resume compares: a JSON workload's outputs by name and its cycles;
 * the digest of older databases (16 digits) still matches. */
Test(golden, a_changed_golden_run_names_what_differs)
{
	char dir[64], text[160], what[600], err[1024];
	tmpdir(dir, sizeof dir);
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	camp_workload_t *w0 = tiny_variant(dir, "0", "3, 5", "3, 5"), *w1 = tiny_variant(dir, "1", "3, 5", "3, 7"),
	                *w2 = tiny_variant(dir, "2", "%r2, 6", "%r2, 7");
	eng_golden_t g0, g1, g2;
	cr_assert_eq(eng_golden_run(w0, &cfg, 0, &g0, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_run(w1, &cfg, 0, &g1, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_run(w2, &cfg, 0, &g2, err, sizeof err), 0, "%s", err);
	eng_output_digest_text(&g0, text, sizeof text);
	cr_expect_eq(eng_golden_differs(&g0, w0, text, g0.totals.cycles, what, sizeof what), 0, "%s", what);
	cr_expect_eq(eng_golden_differs(&g1, w1, text, g0.totals.cycles, what, sizeof what), 1);
	cr_expect_str_eq(what, "output out");
	cr_expect_eq(eng_golden_differs(&g2, w2, text, g0.totals.cycles, what, sizeof what), 1);
	char want[200];
	snprintf(want, sizeof want, "output out, cycles %llu (stored %llu)", (unsigned long long)g2.totals.cycles,
	         (unsigned long long)g0.totals.cycles);
	cr_expect_str_eq(what, want);
	text[16] = 0; /* as older databases store it */
	cr_expect_eq(eng_golden_differs(&g0, w0, text, g0.totals.cycles, what, sizeof what), 0, "%s", what);
	cr_expect_eq(eng_golden_differs(&g1, w1, text, g0.totals.cycles, what, sizeof what), 1);
	cr_expect_str_eq(what, "the outputs");
	eng_golden_free(&g0);
	eng_golden_free(&g1);
	eng_golden_free(&g2);
	camp_workload_destroy(w0);
	camp_workload_destroy(w1);
	camp_workload_destroy(w2);
	runs_rm_dir(dir);
}

/* ---- sample size ---- */

/* Leveugle's n for margin 0.0001 is about 9.6e7: above the limit that
 * "injections" has, refused naming the file and the key. */
Test(golden, a_margin_beyond_the_injection_limit_is_refused)
{
	char dir[64], path[200], err[1024], *root = getcwd(NULL, 0);
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/c.json", dir);
	runs_writef(path, "{\"workload\": \"%s/tests/engine/data/tiny.json\", \"target\": \"regfile\", "
	            "\"margin\": 0.0001}\n", root);
	camp_campaign_t *c;
	cr_assert_eq(camp_campaign_load(path, &c, err, sizeof err), 0, "%s", err);
	eng_golden_t g;
	cr_assert_eq(eng_golden_campaign(c, 0, &g, err, sizeof err), 0, "%s", err);
	eng_plan_t p;
	cr_expect_eq(eng_plan_space(c, &g, &p, err, sizeof err), ENG_EINPUT);
	cr_expect(strstr(err, path) && strstr(err, "$.margin: 0.0001 at confidence 0.95 needs") &&
	          strstr(err, "more than the limit of 10000000"), "%s", err);
	eng_plan_free(&p);
	eng_golden_free(&g);
	camp_campaign_destroy(c);
	free(root);
	runs_rm_dir(dir);
}

/* Engine functions return ENG_E* codes; the commands' exit statuses come
 * from eng_exit_status alone (eng_int.h), the worst code the lowest. */
Test(golden, error_codes_map_to_exit_statuses)
{
	cr_expect_eq(eng_exit_status(0), ENG_EXIT_OK);
	cr_expect_eq(eng_exit_status(ENG_EINTERNAL), ENG_EXIT_INTERNAL);
	cr_expect_eq(eng_exit_status(ENG_EINPUT), ENG_EXIT_INPUT);
	cr_expect_eq(eng_exit_status(ENG_EDUE), ENG_EXIT_DUE);
	cr_expect_eq(eng_exit_status(-99), ENG_EXIT_INTERNAL);
	cr_expect(ENG_EDUE < ENG_EINPUT && ENG_EINPUT < ENG_EINTERNAL);
	cr_expect_str_eq(eng_strerror(ENG_EINPUT), "bad input");
	cr_expect_eq(eng_db_err(0), 0);
	cr_expect_eq(eng_db_err(DB_ENOMEM), ENG_EINTERNAL);
	cr_expect_eq(eng_db_err(DB_EMOVED), ENG_EINPUT);
	cr_expect_eq(eng_db_status(DB_EMOVED), ENG_EXIT_INPUT);
}
