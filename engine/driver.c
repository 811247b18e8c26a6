/* The one place that tells a JSON workload from a host program: the
 * campaign's workload driver (eng_int.h, "workload drivers"; DESIGN.md
 * "Workload drivers"). Golden runs and runners of either kind go through
 * it, so golden.c, runner.c and hostrun.c do not call each other to
 * choose. */
#include "eng_int.h"

const eng_driver_t *eng_driver_for(const camp_campaign_t *c)
{
	return c->exec ? &eng_driver_exec : &eng_driver_json;
}

int eng_golden_campaign(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz)
{
	return eng_driver_for(c)->golden(c, ck_interval, g, err, errsz);
}

int eng_runner(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz)
{
	return eng_driver_for(o->campaign)->run(o, exps, nexp, err, errsz);
}
