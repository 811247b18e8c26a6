/* Statistical validity on a tiny kernel and a one-SM GPU (tests/engine/
 * data/tiny*): an exhaustive campaign over every (cycle, bit) of the
 * predicate file gives the exact AVF; sampled campaigns with many seeds
 * cover it with their 95 % Wilson intervals about 95 % of the time; and
 * physical and live sampling (derated by the measured live fraction)
 * estimate the same AVF. Seeds are fixed, so the results are deterministic. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eng_int.h"

typedef struct tally {
	uint64_t n, fail, unused;
	double live_sum; /* sum of live_bits (live sampling) */
} tally_t;

static void count(const eng_outcome_t *o, void *ctx)
{
	tally_t *t = ctx;
	t->n++;
	t->fail += o->outcome != CLS_MASKED;
	t->unused += !strcmp(o->reason, "unused");
	if (o->has_live_bits)
		t->live_sum += (double)o->live_bits;
}

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
}

static void close_campaign(ctx_t *x)
{
	eng_plan_free(&x->p);
	eng_golden_free(&x->g);
	camp_campaign_destroy(x->c);
}

static tally_t run(const ctx_t *x, eng_exp_t *e, uint64_t n)
{
	tally_t t = {0};
	eng_exps_sort(e, n);
	eng_runner_opts_t o = {.campaign = x->c, .ck_interval = eng_ck_interval(x->g.cycles), .emit = count, .ctx = &t};
	char err[1024];
	cr_assert_eq(eng_runner(&o, e, n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(t.n, n);
	return t;
}

static tally_t sampled(const ctx_t *x, uint64_t seed, uint64_t n)
{
	eng_exp_t *e = calloc(n, sizeof *e);
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(eng_plan_mask(&x->p, seed, i, &e[i]), 0);
	tally_t t = run(x, e, n);
	free(e);
	return t;
}

/* The exact AVF: every busy cycle x every bit of the (single) SM. */
static double exhaustive(const ctx_t *x, double *in_use)
{
	uint64_t bits = x->p.space.bits_per_sm, n = x->p.busy_cycles * bits, k = 0;
	eng_exp_t *e = calloc(n, sizeof *e);
	for (uint32_t b = 0; b < x->p.nbusy; b++)
		for (uint64_t c = x->p.busy[b].start; c < x->p.busy[b].end; c++)
			for (uint64_t loc = 0; loc < bits; loc++, k++)
				e[k] = (eng_exp_t){.idx = k, .nfaults = 1, .f = {{.cycle = c, .sm = 0, .loc = loc, .nbits = 1}}};
	tally_t t = run(x, e, n);
	free(e);
	*in_use = 1.0 - (double)t.unused / (double)t.n;
	cr_log_info("exhaustive: %llu experiments, %llu failures, %llu unused", (unsigned long long)t.n,
	            (unsigned long long)t.fail, (unsigned long long)t.unused);
	return (double)t.fail / (double)t.n;
}

Test(stats, sampled_intervals_cover_the_exact_avf, .timeout = 600)
{
	ctx_t x;
	open_campaign(&x, "tests/engine/data/tiny-pred.json");
	double in_use, exact = exhaustive(&x, &in_use);
	cr_assert(exact > 0.02 && exact < 0.98, "a meaningful AVF (%.4f)", exact);
	int covered = 0, seeds = 60;
	for (int s = 1; s <= seeds; s++) {
		tally_t t = sampled(&x, (uint64_t)s, 150);
		double lo, hi;
		mask_wilson(t.fail, t.n, 0.95, &lo, &hi);
		covered += lo <= exact && exact <= hi;
	}
	cr_log_info("exact AVF %.4f; %d of %d 95%% intervals cover it", exact, covered, seeds);
	/* Binomial(60, 0.95): mean 57, standard deviation 1.7 */
	cr_expect_geq(covered, 52, "%d of %d intervals cover the exact AVF", covered, seeds);
	close_campaign(&x);
}

Test(stats, physical_and_live_sampling_agree, .timeout = 600)
{
	ctx_t phys, live;
	open_campaign(&phys, "tests/engine/data/tiny-pred.json");
	open_campaign(&live, "tests/engine/data/tiny-pred-live.json");
	double in_use, exact = exhaustive(&phys, &in_use);
	uint64_t n = 1500;
	tally_t tp = sampled(&phys, 1001, n), tl = sampled(&live, 1002, n);
	double plo, phi, llo, lhi;
	mask_wilson(tp.fail, n, 0.99, &plo, &phi);
	mask_wilson(tl.fail, n, 0.99, &llo, &lhi);
	/* live: the failure rate among bits in use, derated by the measured
	 * share of the structure in use at the sampled points */
	double df = tl.live_sum / n / (double)live.p.space.bits_per_sm;
	double lp = df * tl.fail / n;
	cr_log_info("exact %.4f in use %.4f | physical %.4f [%.4f, %.4f] | live df %.4f derated %.4f [%.4f, %.4f]", exact,
	            in_use, (double)tp.fail / n, plo, phi, df, lp, df * llo, df * lhi);
	cr_expect(fabs(df - in_use) < 0.05, "measured live fraction %.4f vs exact %.4f", df, in_use);
	cr_expect(plo <= exact && exact <= phi, "physical interval covers the exact AVF");
	cr_expect(df * llo <= exact && exact <= df * lhi, "live (derated) interval covers the exact AVF");
	cr_expect(plo <= df * lhi && df * llo <= phi, "the two intervals overlap");
	close_campaign(&phys);
	close_campaign(&live);
}
