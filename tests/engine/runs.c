/* Shared helpers of the engine's runner tests (runs.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runs.h"

void runs_collect(const eng_outcome_t *o, void *ctx)
{
	got_t *g = ctx;
	cr_assert_lt(o->idx, g->n);
	cr_expect_eq(g->o[o->idx].reason[0], 0, "mask %llu reported twice", (unsigned long long)o->idx);
	g->o[o->idx] = *o;
	g->emitted++;
}

void runs_setup(setup_t *s, const char *path)
{
	char err[1024];
	cr_assert_eq(camp_campaign_load(path, &s->c, err, sizeof err), 0, "%s", err);
	cr_assert_eq(eng_golden_campaign(s->c, 0, &s->g, err, sizeof err), 0, "%s", err);
	s->ck = eng_ck_interval(s->g.cycles);
	cr_assert_eq(eng_plan_space(s->c, &s->g, &s->p, err, sizeof err), 0, "%s", err);
	s->e = calloc(s->p.n, sizeof *s->e);
	cr_assert(s->e);
	for (uint64_t i = 0; i < s->p.n; i++)
		cr_assert_eq(eng_plan_mask(&s->p, s->c->seed, i, &s->e[i]), 0);
	eng_exps_sort(s->e, s->p.n);
}

void runs_teardown(setup_t *s)
{
	free(s->e);
	eng_plan_free(&s->p);
	eng_golden_free(&s->g);
	camp_campaign_destroy(s->c);
	if (s->dir[0]) {
		char path[200];
		snprintf(path, sizeof path, "%s/campaign.json", s->dir);
		unlink(path);
		rmdir(s->dir);
	}
}

got_t runs_run(setup_t *s, bool no_fork, bool no_early, bool no_dead)
{
	got_t g = {.o = calloc(s->p.n, sizeof(eng_outcome_t)), .n = s->p.n};
	eng_runner_opts_t o = {.campaign = s->c, .ck_interval = s->ck, .no_fork = no_fork, .no_early = no_early,
	                       .no_dead = no_dead, .emit = runs_collect, .ctx = &g};
	char err[1024];
	cr_assert_eq(eng_runner(&o, s->e, s->p.n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(g.emitted, s->p.n, "one outcome per mask");
	return g;
}
