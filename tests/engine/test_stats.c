/* Statistical validity against exhaustive truths (tests/engine/data/tiny*):
 * a campaign over every (cycle, SM, bit) of the predicate file gives the
 * exact AVF of the structure; sampled campaigns cover it with their
 * intervals, as the results database's avf view computes them. Two GPUs:
 * tiny, one SM that is always busy; tiny3 with tiny-idle, three SMs of
 * which one or two sit idle and occupancy that changes over time (launches
 * of 2 and 3 CTAs that end at different cycles), where live sampling once
 * derated idle SMs twice (issue 10). Seeds are fixed, so every result is
 * deterministic. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "eng_int.h"
#include "runs.h"

#define MAX_LAUNCH 4

typedef struct ctx {
	camp_campaign_t *c;
	eng_golden_t g;
	eng_plan_t p;
} ctx_t;

static void open_campaign(ctx_t *x, const char *path)
{
	char err[1024];
	cr_assert_eq(camp_campaign_load(path, &x->c, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_run(x->c->workload, &x->c->gpu, 0, &x->g, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_plan_space(x->c, &x->g, &x->p, err, sizeof err), 0, "%s", err);
	cr_assert_leq(x->g.nlaunch, MAX_LAUNCH);
}

static void close_campaign(ctx_t *x)
{
	eng_plan_free(&x->p);
	eng_golden_free(&x->g);
	camp_campaign_destroy(x->c);
}

/* Under ASan, freed memory waits in a quarantine (up to 256 MB) whose pages
 * every fork copies, and the runner forks once per experiment: the tests
 * empty it before each run. Without sanitizers the symbol is absent. */
void __sanitizer_purge_allocator(void) __attribute__((weak));

static void purge(void)
{
	if (__sanitizer_purge_allocator)
		__sanitizer_purge_allocator();
}

typedef struct kept {
	eng_outcome_t *o; /* by mask index */
	uint64_t n, emitted;
} kept_t;

static void keep(const eng_outcome_t *o, void *ctx)
{
	kept_t *k = ctx;
	cr_assert_lt(o->idx, k->n);
	k->o[o->idx] = *o;
	k->emitted++;
}

/* Runs experiments e (sorted in place; indexes 0..n-1) into a new array of
 * outcomes by index. */
static eng_outcome_t *run(const ctx_t *x, eng_exp_t *e, uint64_t n)
{
	kept_t k = {.o = calloc(n, sizeof *k.o), .n = n};
	cr_assert(k.o);
	eng_exps_sort(e, n);
	purge();
	eng_runner_opts_t opt = {.campaign = x->c, .ck_interval = eng_ck_interval(x->g.cycles), .emit = keep, .ctx = &k};
	char err[1024];
	cr_assert_eq(eng_runner(&opt, e, n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(k.emitted, n, "one outcome per mask");
	return k.o;
}

static int launch_of(const ctx_t *x, uint64_t cycle)
{
	for (uint32_t i = 0; i < x->g.nlaunch; i++)
		if (cycle >= x->g.launch[i].start_cycle && cycle < x->g.launch[i].end_cycle)
			return (int)i;
	return -1;
}

/* ---- the exact AVF -------------------------------------------------------- */

typedef struct truth {
	double avf, in_use;        /* the structure's AVF, its share in use */
	double launch[MAX_LAUNCH]; /* the AVF over each invocation's cycles */
} truth_t;

typedef struct tally {
	uint64_t n, fail, unused;
} tally_t;

static void count(const eng_outcome_t *o, void *ctx)
{
	tally_t *t = ctx;
	t->n++;
	t->fail += o->outcome != CLS_MASKED;
	t->unused += !strcmp(o->reason, "unused");
}

/* Every busy cycle x every SM x every bit: the AVF as the physical sampling
 * space defines it. One runner call per cycle keeps the memory each
 * experiment's fork copies small. */
static truth_t exhaustive(const ctx_t *x)
{
	uint64_t bits = x->p.space.bits_per_sm, sms = x->p.space.num_sms, per = sms * bits;
	eng_exp_t *e = calloc(per, sizeof *e);
	cr_assert(e);
	tally_t all = {0}, l[MAX_LAUNCH] = {{0}};
	for (uint32_t b = 0; b < x->p.nbusy; b++)
		for (uint64_t c = x->p.busy[b].start; c < x->p.busy[b].end; c++) {
			int li = launch_of(x, c);
			cr_assert_geq(li, 0);
			for (uint64_t k = 0; k < per; k++)
				e[k] = (eng_exp_t){.idx = k, .nfaults = 1,
				                   .f = {{.cycle = c, .sm = (uint32_t)(k / bits), .loc = k % bits, .nbits = 1}}};
			tally_t t = {0};
			eng_runner_opts_t opt = {.campaign = x->c, .ck_interval = eng_ck_interval(x->g.cycles), .emit = count,
			                         .ctx = &t};
			char err[1024];
			purge();
			cr_assert_eq(eng_runner(&opt, e, per, err, sizeof err), 0, "%s", err);
			cr_assert_eq(t.n, per);
			all.n += t.n, all.fail += t.fail, all.unused += t.unused;
			l[li].n += t.n, l[li].fail += t.fail;
		}
	free(e);
	truth_t t = {.avf = (double)all.fail / (double)all.n, .in_use = 1.0 - (double)all.unused / (double)all.n};
	for (uint32_t i = 0; i < x->g.nlaunch; i++)
		t.launch[i] = l[i].n ? (double)l[i].fail / (double)l[i].n : NAN;
	cr_log_info("exhaustive: %" PRIu64 " experiments, %" PRIu64 " failures, %" PRIu64 " unused: AVF %.5f, in use %.4f",
	            all.n, all.fail, all.unused, t.avf, t.in_use);
	return t;
}

/* ---- sampled campaigns, through the results database ---------------------- */

typedef struct dbfile {
	char dir[64], path[128];
	db_t *db;
	int ncampaigns;
} dbfile_t;

static void db_start(dbfile_t *d)
{
	runs_tmpdir(d->dir, sizeof d->dir, "stats");
	snprintf(d->path, sizeof d->path, "%s/R.db", d->dir);
	char err[512];
	cr_assert_eq(db_open(d->path, true, &d->db, err, sizeof err), 0, "%s", err);
}

static void db_end(dbfile_t *d)
{
	db_close(d->db);
	const char *suffix[] = {"", "-wal", "-shm"};
	for (int i = 0; i < 3; i++) {
		char p[160];
		snprintf(p, sizeof p, "%s%s", d->path, suffix[i]);
		unlink(p);
	}
	rmdir(d->dir);
}

/* Stores the golden run and invocations of x, the masks e and outcomes o as
 * a new campaign of d, stratified or sequential as x's campaign; returns
 * its id. */
static int64_t store(dbfile_t *d, const ctx_t *x, double confidence, const eng_exp_t *e, const eng_outcome_t *o,
                     uint64_t n)
{
	char hash[32];
	snprintf(hash, sizeof hash, "stats-%d", d->ncampaigns++);
	db_campaign_t dc = {.name = hash, .workload = x->c->workload->name, .gpu = x->c->gpu.name, .regs = "ptx",
	                    .config = "{}", .config_hash = hash, .tool_version = "test", .seed = x->c->seed,
	                    .target = "pred", .sampling = x->p.space.live ? "live" : "physical", .fit_per_bit = 0.001,
	                    .confidence = confidence, .n_masks = n,
	                    .strata = x->c->strata == CAMP_STRATA_KERNEL ? "kernel" : NULL, .looks = x->c->stop_looks};
	int64_t id;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(d->db, &dc, &id, &existed), 0, "%s", db_errmsg(d->db));
	db_golden_t dg = {.cycles = x->g.cycles, .clock_mhz = 1000, .num_sms = x->p.space.num_sms,
	                  .bits_per_sm = x->p.space.bits_per_sm, .output_digest = "0"};
	cr_assert_eq(db_golden_put(d->db, id, &dg), 0, "%s", db_errmsg(d->db));
	db_kernel_t k[MAX_LAUNCH];
	for (uint32_t i = 0; i < x->g.nlaunch; i++) {
		const sc_launch_stats_t *l = &x->g.launch[i];
		k[i] = (db_kernel_t){.launch_index = i, .kernel = l->kernel, .start_cycle = l->start_cycle,
		                     .end_cycle = l->end_cycle, .grid = {l->grid.x, l->grid.y, l->grid.z},
		                     .block = {l->block.x, l->block.y, l->block.z},
		                     .df_reg = eng_df_reg(&x->c->gpu, l), .df_smem = eng_df_smem(&x->c->gpu, l)};
	}
	cr_assert_eq(db_kernels_put(d->db, id, k, x->g.nlaunch), 0, "%s", db_errmsg(d->db));
	db_mask_t *m = calloc(n, sizeof *m);
	db_experiment_t *r = calloc(n, sizeof *r);
	cr_assert(m && r);
	for (uint64_t i = 0; i < n; i++) {
		const eng_outcome_t *out = &o[e[i].idx];
		m[i] = (db_mask_t){.idx = e[i].idx, .cycle = e[i].f[0].cycle, .sm = e[i].f[0].sm, .loc = e[i].f[0].loc,
		                   .nbits = e[i].f[0].nbits};
		r[i] = (db_experiment_t){.idx = e[i].idx, .outcome = (db_outcome_t)out->outcome, .reason = out->reason,
		                         .cycles = out->cycles, .has_live_bits = out->has_live_bits,
		                         .live_bits = out->live_bits};
	}
	cr_assert_eq(db_masks_put(d->db, id, m, n), 0, "%s", db_errmsg(d->db));
	cr_assert_eq(db_experiments_put(d->db, id, r, (uint32_t)n, NULL), 0, "%s", db_errmsg(d->db));
	free(m);
	free(r);
	return id;
}

/* Campaign x's masks 0..n-1 under `seed`, run and stored in d. */
static int64_t sampled(dbfile_t *d, const ctx_t *x, uint64_t seed, uint64_t n, double confidence)
{
	eng_exp_t *e = calloc(n, sizeof *e);
	cr_assert(e);
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(eng_plan_mask(&x->p, seed, i, &e[i]), 0);
	eng_outcome_t *o = run(x, e, n);
	int64_t id = store(d, x, confidence, e, o, n);
	free(o);
	free(e);
	return id;
}

/* The row of the view avf for campaign id and invocation `launch` (-1:
 * 'all'): the estimate of the structure's AVF. */
typedef struct row {
	double df, est, lo, hi;
} row_t;

static row_t avf_row(const dbfile_t *d, int64_t id, int launch)
{
	sqlite3 *s;
	cr_assert_eq(sqlite3_open_v2(d->path, &s, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	char sql[256], where[40] = "kernel = 'all'";
	if (launch >= 0)
		snprintf(where, sizeof where, "launch_index = %d", launch);
	snprintf(sql, sizeof sql,
	         "SELECT df, avf_derated, avf_derated_lo, avf_derated_hi FROM avf WHERE campaign_id = %" PRId64
	         " AND %s",
	         id, where);
	sqlite3_stmt *st;
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(s));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
	row_t r = {sqlite3_column_double(st, 0), sqlite3_column_double(st, 1), sqlite3_column_double(st, 2),
	           sqlite3_column_double(st, 3)};
	sqlite3_finalize(st);
	sqlite3_close(s);
	return r;
}

static bool covers(row_t r, double truth)
{
	return r.lo <= truth && truth <= r.hi;
}

/* ---- tests ------------------------------------------------------------------ */

Test(stats, sampled_intervals_cover_the_exact_avf, .timeout = 600)
{
	ctx_t x;
	open_campaign(&x, "tests/engine/data/tiny-pred.json");
	truth_t t = exhaustive(&x);
	cr_assert(t.avf > 0.02 && t.avf < 0.98, "a meaningful AVF (%.4f)", t.avf);
	int covered = 0, seeds = 60;
	for (int s = 1; s <= seeds; s++) {
		eng_exp_t e[150];
		for (uint64_t i = 0; i < 150; i++)
			cr_assert_eq(eng_plan_mask(&x.p, (uint64_t)s, i, &e[i]), 0);
		eng_outcome_t *o = run(&x, e, 150);
		uint64_t fail = 0;
		for (int i = 0; i < 150; i++)
			fail += o[i].outcome != CLS_MASKED;
		free(o);
		double lo, hi;
		mask_wilson(fail, 150, 0.95, &lo, &hi);
		covered += lo <= t.avf && t.avf <= hi;
	}
	cr_log_info("exact AVF %.4f; %d of %d 95%% intervals cover it", t.avf, covered, seeds);
	/* Binomial(60, 0.95): mean 57, standard deviation 1.7 */
	cr_expect_geq(covered, 52, "%d of %d intervals cover the exact AVF", covered, seeds);
	close_campaign(&x);
}

/* Physical and live campaigns of the same workload: both estimates of the
 * structure's AVF (avf_derated with its interval), for the whole campaign
 * and for each invocation, cover the exact values at 99 %. Then `seeds`
 * more live campaigns of 120 masks (a few failures each): their 95 %
 * intervals cover the exact AVF about 95 % of the time (Binomial(30, 0.95):
 * mean 28.5, sd 1.2; the old product of means covered half as often). */
static void both_samplings_cover(const char *phys_json, const char *live_json, uint64_t n, int seeds)
{
	ctx_t phys, live;
	open_campaign(&phys, phys_json);
	open_campaign(&live, live_json);
	truth_t t = exhaustive(&phys);
	cr_assert(t.avf > 0.005 && t.avf < 0.98, "a meaningful AVF (%.4f)", t.avf);
	dbfile_t d;
	db_start(&d);
	int64_t ip = sampled(&d, &phys, 1001, n, 0.99), il = sampled(&d, &live, 1002, n, 0.99);
	for (int l = -1; l < (int)phys.g.nlaunch; l++) {
		double truth = l < 0 ? t.avf : t.launch[l];
		row_t p = avf_row(&d, ip, l), v = avf_row(&d, il, l);
		cr_log_info("%s launch %2d: exact %.5f | physical %.5f [%.5f, %.5f] | live df %.4f, %.5f [%.5f, %.5f]",
		            live_json, l, truth, p.est, p.lo, p.hi, v.df, v.est, v.lo, v.hi);
		cr_expect(covers(p, truth), "launch %d: physical [%.5f, %.5f] misses %.5f", l, p.lo, p.hi, truth);
		cr_expect(covers(v, truth), "launch %d: live [%.5f, %.5f] misses %.5f", l, v.lo, v.hi, truth);
		if (l < 0)
			cr_expect(fabs(v.df - t.in_use) < 0.05, "measured share in use %.4f vs exact %.4f", v.df, t.in_use);
	}
	int covered = 0;
	for (int s = 1; s <= seeds; s++)
		covered += covers(avf_row(&d, sampled(&d, &live, (uint64_t)s, 120, 0.95), -1), t.avf);
	if (seeds) {
		cr_log_info("%d of %d live 95%% intervals cover the exact AVF", covered, seeds);
		cr_expect_geq(covered, seeds - seeds / 10 - 2, "%d of %d live intervals cover the exact AVF", covered, seeds);
	}
	db_end(&d);
	close_campaign(&phys);
	close_campaign(&live);
}

Test(stats, physical_and_live_sampling_cover_the_exact_avf, .timeout = 600)
{
	both_samplings_cover("tests/engine/data/tiny-pred.json", "tests/engine/data/tiny-pred-live.json", 1500, 0);
}

/* Idle SMs: a live fault drawn on an SM with no live bit is Masked and
 * weighs 0; the old product of means counted it twice (issue 10). */
Test(stats, idle_sms_physical_and_live_sampling_cover_the_exact_avf, .timeout = 600)
{
	both_samplings_cover("tests/engine/data/tiny-idle-pred.json", "tests/engine/data/tiny-idle-pred-live.json",
	                     1000, 30);
}

/* ---- stratified and sequential sampling (issue 13 item 3) ------------------- */

/* The outcome of every fault of x's physical space, by
 * (offset of the cycle in the busy union, SM, bit): 1 for a failure. */
typedef struct table {
	uint8_t *fail;
	uint64_t per; /* faults per cycle: SMs × bits */
	double avf;   /* exact: failures / faults */
} table_t;

static void mark(const eng_outcome_t *o, void *ctx)
{
	((uint8_t *)ctx)[o->idx] = o->outcome != CLS_MASKED;
}

static table_t outcome_table(const ctx_t *x)
{
	uint64_t bits = x->p.space.bits_per_sm, per = x->p.space.num_sms * bits, off = 0, fails = 0;
	table_t t = {.fail = calloc(x->p.busy_cycles * per, 1), .per = per};
	eng_exp_t *e = calloc(per, sizeof *e);
	cr_assert(t.fail && e);
	for (uint32_t b = 0; b < x->p.nbusy; b++)
		for (uint64_t c = x->p.busy[b].start; c < x->p.busy[b].end; c++, off++) {
			for (uint64_t k = 0; k < per; k++)
				e[k] = (eng_exp_t){.idx = k, .nfaults = 1,
				                   .f = {{.cycle = c, .sm = (uint32_t)(k / bits), .loc = k % bits, .nbits = 1}}};
			eng_runner_opts_t opt = {.campaign = x->c, .ck_interval = eng_ck_interval(x->g.cycles), .emit = mark,
			                         .ctx = t.fail + off * per};
			char err[1024];
			purge();
			cr_assert_eq(eng_runner(&opt, e, per, err, sizeof err), 0, "%s", err);
		}
	for (uint64_t i = 0; i < off * per; i++)
		fails += t.fail[i];
	t.avf = (double)fails / (double)(off * per);
	free(e);
	return t;
}

/* Whether mask e fails, from the table. */
static bool fails(const ctx_t *x, const table_t *t, const eng_exp_t *e)
{
	uint64_t off = 0, c = e->f[0].cycle;
	for (uint32_t b = 0; b < x->p.nbusy; b++) {
		if (c >= x->p.busy[b].start && c < x->p.busy[b].end)
			return t->fail[(off + c - x->p.busy[b].start) * t->per + e->f[0].sm * x->p.space.bits_per_sm +
			               e->f[0].loc];
		off += x->p.busy[b].end - x->p.busy[b].start;
	}
	cr_assert_fail("cycle %" PRIu64 " outside the busy cycles", c);
	return false;
}

/* Where a sequential campaign stopped: n and the interval at that look. */
typedef struct stop {
	uint64_t n;
	double est, lo, hi;
} stop_t;

/* The sequential rule of x's campaign ("stop") on its masks under `seed`,
 * outcomes from the table: look j after mask_look_n masks, Wilson at the
 * look's confidence (as the view avf computes it for physical sampling),
 * stop at the first look narrow enough. With every > 0 instead: the naive
 * rule, a look every `every` masks at the campaign's own confidence. */
static stop_t sequential(const ctx_t *x, const table_t *t, uint64_t seed, uint64_t every)
{
	const camp_campaign_t *c = x->c;
	uint64_t k = 0, i = 0, nmax = x->p.n;
	uint32_t looks = every ? (uint32_t)((nmax + every - 1) / every) : c->stop_looks;
	double conf = every ? c->confidence : mask_look_confidence(c->confidence, looks);
	stop_t s = {0};
	for (uint32_t j = 0; j < looks; j++) {
		s.n = every ? (j + 1 == looks ? nmax : (j + 1) * every) : mask_look_n(nmax, looks, j);
		for (; i < s.n; i++) {
			eng_exp_t e;
			cr_assert_eq(eng_plan_mask(&x->p, seed, i, &e), 0);
			k += fails(x, t, &e);
		}
		s.est = (double)k / (double)s.n;
		mask_wilson(k, s.n, conf, &s.lo, &s.hi);
		if (mask_stop_met(s.est, s.lo, s.hi, c->stop_relative, c->stop_absolute))
			break;
	}
	return s;
}

/* Sequential stopping keeps its coverage: over 200 seeds the interval at
 * which a campaign stops covers the exact AVF (the exhaustive outcome
 * table of tiny-pred) at least as often as its confidence says, within the
 * binomial noise of 200 trials. The naive rule (look every 50 masks at the
 * unadjusted confidence) is logged beside it: stopping when a relative
 * interval first looks narrow favours samples that overestimate the AVF.
 * Then one seed through the results database: the view's interval at the
 * stopping n is the one the rule used. */
Test(stats, sequential_stopping_keeps_its_coverage, .timeout = 600)
{
	ctx_t x;
	open_campaign(&x, "tests/engine/data/tiny-pred-stop.json");
	cr_assert_eq(x.c->stop_looks, 5);
	table_t t = outcome_table(&x);
	cr_assert(t.avf > 0.02 && t.avf < 0.1, "a small AVF (%.4f)", t.avf);
	enum { SEEDS = 200 };
	int covered = 0, naive_covered = 0, at_max = 0;
	double mean_n = 0, naive_n = 0;
	for (uint64_t s = 1; s <= SEEDS; s++) {
		stop_t q = sequential(&x, &t, s, 0), v = sequential(&x, &t, s, 50);
		cr_assert_leq(q.n, x.p.n, "never past the maximum");
		covered += q.lo <= t.avf && t.avf <= q.hi;
		naive_covered += v.lo <= t.avf && t.avf <= v.hi;
		at_max += q.n == x.p.n;
		mean_n += (double)q.n / SEEDS;
		naive_n += (double)v.n / SEEDS;
	}
	cr_log_info("exact AVF %.5f; sequential (5 looks, Bonferroni): %d of %d cover it, mean n %.0f, %d at the "
	            "maximum; naive (a look every 50 masks at 95%%): %d of %d cover it, mean n %.0f",
	            t.avf, covered, SEEDS, mean_n, at_max, naive_covered, SEEDS, naive_n);
	/* Binomial(200, 0.95): mean 190, standard deviation 3.1 */
	cr_expect_geq(covered, 181, "%d of %d stopped intervals cover the exact AVF", covered, SEEDS);

	/* seed 1 as flipsim runs it: the masks up to its stop, through the view */
	stop_t q = sequential(&x, &t, 1, 0);
	eng_exp_t *e = calloc(q.n, sizeof *e);
	cr_assert(e);
	for (uint64_t i = 0; i < q.n; i++)
		cr_assert_eq(eng_plan_mask(&x.p, 1, i, &e[i]), 0);
	eng_outcome_t *o = run(&x, e, q.n);
	for (uint64_t i = 0; i < q.n; i++)
		cr_assert_eq(o[e[i].idx].outcome != CLS_MASKED, fails(&x, &t, &e[i]), "the table is the runner's");
	dbfile_t d;
	db_start(&d);
	row_t r = avf_row(&d, store(&d, &x, x.c->confidence, e, o, q.n), -1);
	cr_expect(fabs(r.lo - q.lo) < 1e-12 && fabs(r.hi - q.hi) < 1e-12, "view [%.6f, %.6f], rule [%.6f, %.6f]", r.lo,
	          r.hi, q.lo, q.hi);
	db_end(&d);
	free(o);
	free(e);
	free(t.fail);
	close_campaign(&x);
}

/* Stratified sampling (tiny2: kernel flag twice, tiny once, 30 % and 70 %
 * of the cycles): masks alternate between the kernels, each mask's cycle
 * lies in its kernel's invocations, and over 100 seeds of 60 masks the
 * stratified interval of the view avf covers the exact AVF, and each
 * kernel's own interval (avf_kernel) its exact AVF, as often as 95 %
 * intervals should (Binomial(100, 0.95): mean 95, sd 2.2). */
Test(stats, stratified_intervals_cover_the_exact_avf, .timeout = 600)
{
	ctx_t x;
	open_campaign(&x, "tests/engine/data/tiny2-pred-strata.json");
	cr_assert_eq(x.p.nstrata, 2);
	table_t t = outcome_table(&x);
	/* the exact AVF of each kernel: its cycles of the table */
	double fail_k[2] = {0}, faults_k[2] = {0};
	uint64_t off = 0;
	for (uint32_t b = 0; b < x.p.nbusy; b++)
		for (uint64_t c = x.p.busy[b].start; c < x.p.busy[b].end; c++, off++) {
			int h = !strcmp(x.g.launch[launch_of(&x, c)].kernel, "tiny"); /* stratum 0: flag, launched first */
			for (uint64_t k = 0; k < t.per; k++)
				fail_k[h] += t.fail[off * t.per + k];
			faults_k[h] += (double)t.per;
		}
	double truth_k[2] = {fail_k[0] / faults_k[0], fail_k[1] / faults_k[1]};
	cr_log_info("exact AVF %.5f: flag %.5f (%.0f%% of the cycles), tiny %.5f", t.avf, truth_k[0],
	            100 * faults_k[0] / (faults_k[0] + faults_k[1]), truth_k[1]);
	enum { SEEDS = 100, N = 60 };
	int covered = 0, covered_k[2] = {0};
	dbfile_t d;
	db_start(&d);
	sqlite3 *s = NULL;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		eng_exp_t e[N];
		eng_outcome_t *o = calloc(N, sizeof *o); /* large: JSON texts */
		cr_assert(o);
		for (uint64_t i = 0; i < N; i++) {
			cr_assert_eq(eng_plan_mask(&x.p, seed, i, &e[i]), 0);
			const char *k = x.g.launch[launch_of(&x, e[i].f[0].cycle)].kernel;
			cr_assert_str_eq(k, i % 2 ? "tiny" : "flag", "mask %" PRIu64 " in its stratum", i);
			o[i].idx = i;
			o[i].outcome = fails(&x, &t, &e[i]) ? CLS_SDC : CLS_MASKED;
			snprintf(o[i].reason, sizeof o[i].reason, "%s", "table");
		}
		int64_t id = store(&d, &x, 0.95, e, o, N);
		free(o);
		row_t r = avf_row(&d, id, -1);
		covered += covers(r, t.avf);
		if (!s)
			cr_assert_eq(sqlite3_open_v2(d.path, &s, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
		for (int h = 0; h < 2; h++) {
			char sql[200];
			snprintf(sql, sizeof sql, "SELECT avf_lo <= %.17g AND %.17g <= avf_hi FROM avf_kernel WHERE "
			         "campaign_id = %" PRId64 " AND kernel_name = '%s' AND n = %d", truth_k[h], truth_k[h], id,
			         h ? "tiny" : "flag", N / 2);
			sqlite3_stmt *st;
			cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(s));
			cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: half the masks in each kernel", sql);
			covered_k[h] += sqlite3_column_int(st, 0);
			sqlite3_finalize(st);
		}
	}
	sqlite3_close(s);
	cr_log_info("%d of %d stratified 95%% intervals cover the exact AVF; per kernel: flag %d, tiny %d", covered,
	            SEEDS, covered_k[0], covered_k[1]);
	cr_expect_geq(covered, 89, "%d of %d stratified intervals cover the exact AVF", covered, SEEDS);
	cr_expect_geq(covered_k[1], 89, "tiny: %d of %d", covered_k[1], SEEDS);
	db_end(&d);
	free(t.fail);
	close_campaign(&x);
}
