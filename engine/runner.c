/* The runner: one process's share of a campaign's experiments, run by the
 * injection runtime (simcore.h, "the injection runtime"; DESIGN.md
 * "Principles": never re-simulate the golden prefix). For a JSON workload
 * this process replays the golden run and forks the experiments itself;
 * each child classifies its own outputs. A host program runs the same
 * runtime in its own process (hostrun.c). Here also: what the runtime's
 * raw results mean as outcomes, for both. --no-fork re-simulates from
 * cycle 0 per experiment, for the equivalence test and the benchmark.
 * Runners use plain fork(); libuv belongs to the daemon (run.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng_int.h"

void eng_rt_plan(const eng_runner_opts_t *o, const eng_golden_t *g, const eng_exp_t *exps, uint64_t nexp,
                 sc_rt_plan_t *p)
{
	const camp_campaign_t *c = o->campaign;
	sc_fmodel_t m;
	eng_fault_model(c, &m);
	*p = (sc_rt_plan_t){
		.model = m,
		.target = (sc_target_t)c->target,
		.fields = c->fields,
		.live = c->sampling == CAMP_SAMPLING_LIVE,
		.cycle_budget = (uint64_t)(c->timeout_factor * (double)g->cycles),
		.watchdog_s = (unsigned)(c->watchdog_seconds + 0.999),
		.no_early = o->no_early,
		.no_dead = o->no_dead,
		.no_attr = o->no_attr,
		.regs_original = c->regs_original,
		.ck = &g->ck,
		.exp = exps,
		.nexp = nexp,
	};
}

/* Signals an experiment does not raise on itself: what ends it with one
 * came from outside. (Its own crashes are SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT...; SIGALRM is the runtime's watchdog.) */
static bool from_outside(int sig)
{
	return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

void eng_outcome_of(const sc_rt_result_t *r, const cls_run_t *golden, cls_run_t *faulty, eng_outcome_t *out)
{
	cls_verdict_t v;
	memset(out, 0, sizeof *out);
	out->idx = r->idx;
	out->prot = r->prot;
	out->prot_cycle = r->prot_cycle;
	out->wall = r->wall;
	out->has_live_bits = r->has_live;
	out->live_bits = r->live;
	out->cycles = r->cycles;
	memcpy(out->site, r->site, sizeof out->site);
	memcpy(out->effect, r->effect, sizeof out->effect);
	if (r->verdict >= 0)
		memcpy(out->severity, r->note, sizeof out->severity);
	const char *reason = NULL;
	switch (r->kind) {
	case SC_RT_UNUSED: out->outcome = CLS_MASKED; reason = "unused"; break;
	case SC_RT_DEAD: out->outcome = CLS_MASKED; reason = "dead"; break;
	case SC_RT_EARLY:
		/* re-joined the golden state, or finished by mem_final with a verdict */
		out->early = true;
		out->outcome = r->verdict >= 0 ? (cls_outcome_t)r->verdict : CLS_MASKED;
		reason = r->verdict >= 0 ? r->reason : "early";
		break;
	case SC_RT_BAD_MASK: out->outcome = CLS_DUE; reason = "bad_mask"; break;
	case SC_RT_ENDED:
		if (r->verdict >= 0) {
			out->outcome = (cls_outcome_t)r->verdict;
			reason = r->reason;
			break;
		}
		/* the caller filled in the outputs */
		__attribute__((fallthrough));
	case SC_RT_NO_REPORT: {
		cls_run_t none = {.out = golden->out, .nout = golden->nout};
		cls_run_t *f = faulty ? faulty : &none;
		int st = r->wstatus;
		if (r->kind == SC_RT_ENDED)
			f->due = r->due;
		if (st >= 0 && WIFSIGNALED(st) && from_outside(WTERMSIG(st))) {
			out->lost = true;
			snprintf(out->reason, sizeof out->reason, "killed by SIG%s", sigabbrev_np(WTERMSIG(st)));
			return;
		}
		if (st >= 0 && WIFSIGNALED(st)) {
			if (WTERMSIG(st) == SIGALRM)
				f->host_timeout = true;
			else
				f->signal = WTERMSIG(st);
		} else if (st >= 0 && WIFEXITED(st)) {
			f->exit_status = WEXITSTATUS(st);
			if (r->kind == SC_RT_NO_REPORT && !faulty)
				f->signal = SIGABRT; /* a JSON child ends only by reporting */
		} else {
			f->signal = SIGABRT;    /* no child could be started */
		}
		cls_classify(golden, f, &v);
		out->outcome = v.outcome;
		reason = v.reason;
		if (v.outcome == CLS_SDC)
			cls_severity_json(golden, f, out->severity, sizeof out->severity);
		break;
	}
	}
	snprintf(out->reason, sizeof out->reason, "%s", cls_prot_reason(out->outcome, reason ? reason : "", r->prot));
}

/* ---- JSON workloads ---- */

typedef struct jrun {
	const eng_runner_opts_t *o;
	const eng_golden_t *golden;   /* o->golden, or own */
	eng_golden_t own;             /* the golden run, when this runner ran it */
	cls_buffer_t *gbuf;           /* golden outputs for the classifier */
	cls_run_t grun;
	sc_rt_plan_t plan;
} jrun_t;

static void json_done(void *ctx, const sc_rt_exp_t *e, const sc_rt_result_t *r)
{
	(void)e;
	jrun_t *j = ctx;
	eng_outcome_t out;
	eng_outcome_of(r, &j->grun, NULL, &out);
	j->o->emit(&out, j->o->ctx);
}

/* An SDC's severity (cls_severity_json) into the child's report. */
static void note_severity(sc_gpu_t *gpu, const cls_run_t *golden, const cls_run_t *faulty, cls_outcome_t o)
{
	char buf[SC_RT_JSON];
	if (o != CLS_SDC)
		return;
	cls_severity_json(golden, faulty, buf, sizeof buf); /* truncated, it stays valid */
	sc_rt_child_note(gpu, buf);
}

/* In a child at a checkpoint: everything is golden but n lines of global
 * memory that nothing touches again, so the final outputs are the golden
 * ones with those lines as they are now. Classify them and end. */
static void json_mem_final(void *ctx, sc_gpu_t *gpu, const uint64_t *addr, const uint32_t *len, uint32_t n)
{
	jrun_t *j = ctx;
	const camp_result_t *gres = j->golden->res;
	uint32_t nout = j->grun.nout;
	cls_buffer_t *fb = calloc(nout ? nout : 1, sizeof *fb);
	uint8_t **copy = calloc(nout ? nout : 1, sizeof *copy);
	if (!fb || !copy)
		return; /* simulate on */
	for (uint32_t i = 0; i < nout; i++) {
		const camp_output_t *o = &gres->outputs[i];
		if (!(copy[i] = malloc(o->bytes ? o->bytes : 1)))
			return;
		memcpy(copy[i], o->data, o->bytes);
		for (uint32_t k = 0; k < n; k++) {
			uint64_t lo = addr[k] > o->dptr ? addr[k] : o->dptr;
			uint64_t hi = addr[k] + len[k] < o->dptr + o->bytes ? addr[k] + len[k] : o->dptr + o->bytes;
			if (lo < hi && sc_memcpy_dtoh(gpu, copy[i] + (lo - o->dptr), lo, hi - lo))
				return;
		}
		fb[i] = j->gbuf[i];
		fb[i].data = copy[i];
	}
	/* printf so far is the golden one: the state hash covers it */
	cls_run_t fr = {.out = fb, .nout = nout, .stdout_text = j->grun.stdout_text, .stdout_len = j->grun.stdout_len};
	cls_verdict_t v;
	cls_classify(&j->grun, &fr, &v);
	note_severity(gpu, &j->grun, &fr, v.outcome);
	sc_rt_child_exit_early(gpu, (int)v.outcome, v.reason);
}

/* In a child, once the workload ran: classify its outputs and end. */
static _Noreturn void child_verdict(jrun_t *j, sc_gpu_t *gpu, int rc, const camp_result_t *res)
{
	if (rc)
		sc_rt_child_exit(gpu, CLS_DUE, "crash:host error");
	cls_buffer_t *fb = calloc(j->grun.nout ? j->grun.nout : 1, sizeof *fb);
	if (!fb)
		sc_rt_child_exit(gpu, CLS_DUE, "crash:out of memory");
	cls_run_t fr = {.out = fb, .nout = j->grun.nout, .due = res->due ? res->status.reason : SC_DUE_NONE,
	                .stdout_text = res->printf_text, .stdout_len = res->printf_len};
	for (uint32_t i = 0; i < j->grun.nout; i++) {
		fb[i] = j->gbuf[i];
		/* no outputs after a DUE: the classifier decides on the DUE first */
		fb[i].data = res->due ? NULL : res->outputs[i].data;
		fb[i].bytes = res->due ? 0 : res->outputs[i].bytes;
	}
	cls_verdict_t v;
	cls_classify(&j->grun, &fr, &v);
	note_severity(gpu, &j->grun, &fr, v.outcome);
	sc_rt_child_exit(gpu, (int)v.outcome, v.reason);
}

/* Runs the workload on gpu; in an experiment child it does not return. */
static int run_workload(jrun_t *j, sc_gpu_t *gpu, char *err, size_t errsz)
{
	camp_result_t *res = NULL;
	int rc = camp_workload_run(j->o->campaign->workload, gpu, &res, err, errsz);
	if (sc_rt_current(gpu))
		child_verdict(j, gpu, rc, res);
	camp_result_destroy(res);
	return rc;
}

/* The golden outputs as the classifier sees them. 0 or an error code. */
static int golden_outputs(jrun_t *j, char *err, size_t errsz)
{
	const camp_result_t *gres = j->golden->res;
	const camp_workload_t *w = j->o->campaign->workload;
	j->gbuf = calloc(gres->noutputs ? gres->noutputs : 1, sizeof *j->gbuf);
	if (!j->gbuf) {
		snprintf(err, errsz, "out of memory");
		return ENG_EINTERNAL;
	}
	for (uint32_t i = 0; i < gres->noutputs; i++) {
		const camp_buffer_t *b = &w->buffers[gres->outputs[i].buffer];
		cls_elem_t elem = CLS_T_RAW;  /* the campaign's type names are the classifier's */
		cls_elem_parse(camp_type_name(b->type), &elem);
		j->gbuf[i] = (cls_buffer_t){b->name, gres->outputs[i].data, gres->outputs[i].bytes, elem,
		                            b->tolerance};
	}
	/* device printf's text is the run's stdout */
	j->grun = (cls_run_t){.out = j->gbuf, .nout = gres->noutputs, .stdout_text = gres->printf_text,
	                      .stdout_len = gres->printf_len};
	return 0;
}

/* --no-fork: every experiment from cycle 0, in a process of its own. */
static int json_no_fork(jrun_t *j, const sc_options_t *opt, const eng_exp_t *exps, uint64_t nexp, char *err,
                        size_t errsz)
{
	const camp_campaign_t *c = j->o->campaign;
	for (uint64_t i = 0; i < nexp; i++) {
		int p[2];
		double t0 = eng_now();
		if (pipe(p) < 0)
			goto fail;
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			sc_rt_hooks_t hooks = {.done = json_done, .mem_final = json_mem_final, .ctx = j};
			sc_gpu_t *gpu;
			if (sc_gpu_create(&c->gpu, opt, &gpu) || sc_rt_become(gpu, &j->plan, &hooks, &exps[i], p[1]))
				_exit(1);
			sc_set_printf_stream(gpu, NULL); /* device printf is compared, not shown */
			sc_set_assert_stream(gpu, NULL);
			run_workload(j, gpu, err, errsz); /* does not return */
			_exit(1);
		}
		close(p[1]);
		if (pid < 0) {
			close(p[0]);
			goto fail;
		}
		sc_rt_result_t r;
		sc_rt_wait(pid, p[0], &exps[i], t0, &r);
		json_done(j, &exps[i], &r);
	}
	return 0;
fail:
	snprintf(err, errsz, "cannot start an experiment: %s", strerror(errno));
	return ENG_EINTERNAL;
}

/* Fork mode: one replay of the golden run, forking each experiment. */
static int json_fork(jrun_t *j, const sc_options_t *opt, char *err, size_t errsz)
{
	sc_gpu_t *gpu;
	if (sc_gpu_create(&j->o->campaign->gpu, opt, &gpu)) {
		snprintf(err, errsz, "cannot create the GPU");
		return ENG_EINTERNAL;
	}
	sc_set_printf_stream(gpu, NULL);
	sc_set_assert_stream(gpu, NULL);
	sc_rt_hooks_t hooks = {.done = json_done, .mem_final = json_mem_final, .ctx = j};
	if (sc_rt_attach(gpu, &j->plan, &hooks)) {
		sc_gpu_destroy(gpu);
		snprintf(err, errsz, "experiments not sorted by cycle");
		return ENG_EINTERNAL;
	}
	int rc = run_workload(j, gpu, err, errsz);
	sc_rt_finish(gpu); /* the experiments the replay never reached */
	sc_gpu_destroy(gpu);
	return rc;
}

/* The golden run of c's JSON workload in this process. */
static int golden_json(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz)
{
	sc_options_t o = eng_options(c);
	eng_limits_t lim = eng_limits(c);
	return eng_golden_run_opt(c->workload, &c->gpu, &o, &lim, ck_interval, g, err, errsz);
}

static int runner_json(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz)
{
	const camp_campaign_t *c = o->campaign;
	jrun_t j = {.o = o, .golden = o->golden ? o->golden : &j.own};
	sc_options_t opt = eng_options(c);
	int rc = 0;
	if (!o->golden) /* no record from the daemon: the golden run here */
		rc = golden_json(c, o->ck_interval, &j.own, err, errsz);
	if (!rc)
		rc = golden_outputs(&j, err, errsz);
	if (!rc) {
		eng_rt_plan(o, j.golden, exps, nexp, &j.plan);
		if (o->no_fork)
			rc = json_no_fork(&j, &opt, exps, nexp, err, errsz);
		else if (nexp)
			rc = json_fork(&j, &opt, err, errsz);
	}
	free(j.gbuf);
	if (!o->golden)
		eng_golden_free(&j.own);
	return rc;
}

static const char *name_json(const camp_campaign_t *c)
{
	return c->workload->name;
}

const eng_driver_t eng_driver_json = {.kind = "json", .outputs = true, .name = name_json, .golden = golden_json,
                                      .run = runner_json};
