/* From a campaign and its golden run to the experiments: the sampled space
 * (GUFI mode 1: one kernel invocation; mode 2: every invocation, uniform
 * over the cycles the GPU is busy, or with "strata": "kernel" uniform over
 * each kernel's invocations in turn), the sample size (the campaign's count,
 * or Leveugle's formula over the whole fault population), and the masks,
 * each generated from (seed, index) alone. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eng_int.h"

/* The masks' part of c's fault model. */
static mask_model_t mask_model_of(const camp_campaign_t *c)
{
	static const mask_kind_t kinds[] = {
		[CAMP_MODEL_SINGLE] = MASK_SINGLE,    [CAMP_MODEL_ADJACENT] = MASK_ADJACENT,
		[CAMP_MODEL_MULTI] = MASK_MULTI,      [CAMP_MODEL_RANDOM_VALUE] = MASK_VALUE,
		[CAMP_MODEL_ZERO_VALUE] = MASK_ZERO,  [CAMP_MODEL_MCU] = MASK_MCU,
		[CAMP_MODEL_STUCK_AT] = MASK_STUCK,   [CAMP_MODEL_INTERMITTENT] = MASK_STUCK,
	};
	return (mask_model_t){.kind = kinds[c->model], .k = c->model_k, .interleave = c->model_interleave,
	                      .from_start = c->model_from_start};
}

void eng_fault_model(const camp_campaign_t *c, sc_fmodel_t *m)
{
	*m = (sc_fmodel_t){.kind = camp_model_kind(c->model), .value = c->model_value, .period = c->model_period,
	                   .duration = c->model_duration};
	if (c->model == CAMP_MODEL_MCU) {
		m->words = c->model_k;
		m->interleave = c->model_interleave;
	}
}

/* The strata of "strata": "kernel": for each kernel name with busy cycles
 * (in the order of its first launch), a copy of p->space restricted to that
 * kernel's invocations. Masks then depend on (seed, index) and the golden
 * run's invocations, which are themselves deterministic. Returns 0 or
 * ENG_EINTERNAL (out of memory). */
static int plan_strata(const eng_golden_t *g, eng_plan_t *p)
{
	p->sbusy = calloc(g->nlaunch ? g->nlaunch : 1, sizeof *p->sbusy);
	p->strata = calloc(g->nlaunch ? g->nlaunch : 1, sizeof *p->strata);
	if (!p->sbusy || !p->strata)
		return ENG_EINTERNAL;
	uint32_t used = 0;
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const char *name = g->launch[i].kernel;
		bool first = true;
		for (uint32_t j = 0; j < i && first; j++)
			first = strcmp(g->launch[j].kernel, name) != 0;
		if (!first)
			continue;
		uint32_t start = used;
		for (uint32_t j = i; j < g->nlaunch; j++) {
			const sc_launch_stats_t *l = &g->launch[j];
			if (!strcmp(l->kernel, name) && l->end_cycle > l->start_cycle)
				p->sbusy[used++] = (mask_interval_t){l->start_cycle, l->end_cycle};
		}
		if (used == start)
			continue; /* no busy cycle: nothing to sample, weight 0 */
		mask_space_t *h = &p->strata[p->nstrata++];
		*h = p->space;
		h->busy = p->sbusy + start;
		h->nbusy = used - start;
	}
	return 0;
}

int eng_plan_space(const camp_campaign_t *c, const eng_golden_t *g, eng_plan_t *p, char *err, size_t errsz)
{
	memset(p, 0, sizeof *p);
	p->busy = calloc(g->nlaunch ? g->nlaunch : 1, sizeof *p->busy);
	if (!p->busy) {
		snprintf(err, errsz, "out of memory");
		return ENG_EINTERNAL;
	}
	uint32_t seen = 0;
	p->kernel_launch = -1;
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		if (c->scope == CAMP_SCOPE_KERNEL) {
			if (strcmp(l->kernel, c->kernel) || seen++ != c->invocation)
				continue;
			p->kernel_launch = (int32_t)i;
		}
		if (l->end_cycle > l->start_cycle)
			p->busy[p->nbusy++] = (mask_interval_t){l->start_cycle, l->end_cycle};
	}
	if (c->scope == CAMP_SCOPE_KERNEL && p->nbusy == 0) {
		snprintf(err, errsz, "%s: kernel '%s' has no invocation %u in the golden run", c->path, c->kernel,
		         c->invocation);
		free(p->busy);
		p->busy = NULL;
		return ENG_EINPUT;
	}
	uint32_t word_bits = 0;
	p->space.busy = p->busy;
	p->space.nbusy = p->nbusy;
	p->space.num_sms = sc_target_sms(&c->gpu, (sc_target_t)c->target);
	p->space.bits_per_sm = camp_campaign_bits(c, &word_bits);
	p->space.word_bits = word_bits;
	p->space.live = c->sampling == CAMP_SAMPLING_LIVE;
	p->model = mask_model_of(c);
	for (uint32_t i = 0; i < p->nbusy; i++)
		p->busy_cycles += p->busy[i].end - p->busy[i].start;
	if (c->strata == CAMP_STRATA_KERNEL && plan_strata(g, p)) {
		snprintf(err, errsz, "out of memory");
		return ENG_EINTERNAL;
	}
	/* the population of faults: every bit of every SM (that holds the
	 * target) at every busy cycle */
	double population = (double)p->busy_cycles * p->space.num_sms * (double)p->space.bits_per_sm;
	if (c->injections) {
		p->n = c->injections;
	} else if (mask_sample_size(c->confidence, c->margin, population, 0.5, &p->n)) {
		snprintf(err, errsz, "%s: cannot compute a sample size from confidence %g and margin %g", c->path,
		         c->confidence, c->margin);
		return ENG_EINPUT;
	}
	if (p->n > CAMP_MAX_INJECTIONS) { /* the limit "injections" has: masks are stored and held in memory */
		snprintf(err, errsz, "%s: $.margin: %g at confidence %g needs %" PRIu64 " injections, more than the limit "
		         "of %d; expected a larger margin", c->path, c->margin, c->confidence, p->n, CAMP_MAX_INJECTIONS);
		return ENG_EINPUT;
	}
	return 0;
}

void eng_plan_free(eng_plan_t *p)
{
	free(p->busy);
	free(p->sbusy);
	free(p->strata);
	memset(p, 0, sizeof *p);
}

int eng_plan_mask(const eng_plan_t *p, uint64_t seed, uint64_t index, eng_exp_t *e)
{
	mask_t m;
	const mask_space_t *sp = p->nstrata ? &p->strata[mask_stratum(index, p->nstrata)] : &p->space;
	if (mask_generate(sp, &p->model, seed, index, &m))
		return -1;
	e->idx = index;
	e->nfaults = m.nfaults;
	memset(e->f, 0, sizeof e->f);
	for (uint32_t k = 0; k < m.nfaults; k++)
		e->f[k] = (sc_rt_fault_t){.cycle = m.f[k].cycle, .sm = m.f[k].sm, .loc = m.f[k].loc, .nbits = m.f[k].nbits,
		                          .pattern = m.f[k].pattern};
	return 0;
}

static int by_cycle(const void *a, const void *b)
{
	const eng_exp_t *x = a, *y = b;
	if (x->f[0].cycle != y->f[0].cycle)
		return x->f[0].cycle < y->f[0].cycle ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void eng_exps_sort(eng_exp_t *e, uint64_t n) { qsort(e, n, sizeof *e, by_cycle); }
