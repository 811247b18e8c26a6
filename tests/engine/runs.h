/* Shared by the engine's runner tests (test_runner.c, test_hostrun.c): load
 * a campaign, its golden run and its masks sorted as runners need them, and
 * run them all, collecting one outcome per mask index. */
#ifndef TESTS_ENGINE_RUNS_H
#define TESTS_ENGINE_RUNS_H

#include <stdbool.h>

#include "eng_int.h"

typedef struct got {
	eng_outcome_t *o; /* by mask index */
	uint64_t n, emitted;
} got_t;

typedef struct setup {
	camp_campaign_t *c;
	eng_golden_t g;
	eng_plan_t p;
	eng_exp_t *e;
	uint64_t ck;
	char dir[64]; /* a temporary folder holding the campaign file, or "" */
} setup_t;

/* An eng_runner_opts_t.emit for a got_t context: one outcome per mask. */
void runs_collect(const eng_outcome_t *o, void *ctx);
/* Loads campaign `path` into *s (asserting every step). */
void runs_setup(setup_t *s, const char *path);
/* Frees *s and removes s->dir with its campaign.json when set. */
void runs_teardown(setup_t *s);
/* Runs every mask of *s; the caller frees the result's o. */
got_t runs_run(setup_t *s, bool no_fork, bool no_early, bool no_dead);

#endif
