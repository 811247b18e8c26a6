/* The fork-at-cycle runner (DESIGN.md "Principles": never re-simulate the
 * golden prefix). One runner takes a list of experiments sorted by
 * activation cycle, replays the golden execution once, and at each cycle:
 *   - a single fault in a location not in use is Masked "unused" at once;
 *   - otherwise it fork()s: the child injects, runs on, and reports its
 *     verdict through a pipe; the parent waits, then replays on.
 * The child stops early as Masked "early" when its full-state hash equals
 * the golden one at a checkpoint after its last fault (exact: equal state,
 * equal future). A cycle budget turns hangs into DUE "timeout", alarm()
 * turns a stuck child into DUE "watchdog", and a child killed by a signal
 * is DUE "crash:<signal>": nothing an experiment does stops the runner.
 * --no-fork re-simulates from cycle 0 per experiment, with the same child
 * code, for the equivalence test and the benchmark. Runners use plain
 * fork(); libuv belongs to the daemon (run.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng_int.h"

/* What a child sends its parent: one fixed record. */
typedef struct report {
	uint32_t outcome;
	char reason[96];
	uint64_t cycles;
	uint8_t early;
	uint8_t has_live;
	uint64_t live;
} report_t;

typedef struct runner {
	const eng_runner_opts_t *o;
	const camp_campaign_t *c;
	eng_golden_t golden;
	cls_buffer_t *gbuf;           /* golden outputs for the classifier */
	cls_run_t grun;
	const eng_exp_t *exps;
	uint64_t nexp, next;          /* next experiment to start */
	bool has_live;                /* live sampling: live bits of the current */
	uint64_t live;                /* experiment, measured before it forked    */
	/* in a child */
	bool child;
	int wfd;                      /* the report pipe's write end */
	const eng_exp_t *cur;
	uint32_t fault;               /* next fault of cur to inject */
	uint64_t start;               /* cycle the experiment started at */
	uint32_t ck;                  /* next checkpoint to compare */
	uint32_t misses;              /* comparisons failed in a row */
	bool fu_check;                /* an FU fault waits to be confirmed */
	uint64_t fu_cycle;
} runner_t;

static runner_t *R; /* the runner of this process (pause hooks and children) */

static bool write_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		b += k;
		n -= (size_t)k;
	}
	return true;
}

/* Ends the child with a verdict. */
static _Noreturn void child_report(runner_t *r, cls_outcome_t outcome, const char *reason, uint64_t cycles, bool early)
{
	report_t rep;
	memset(&rep, 0, sizeof rep);
	rep.outcome = outcome;
	snprintf(rep.reason, sizeof rep.reason, "%s", reason);
	rep.cycles = cycles;
	rep.early = early;
	rep.has_live = r->has_live;
	rep.live = r->live;
	_exit(write_all(r->wfd, &rep, sizeof rep) ? 0 : 1);
}

static int inject(runner_t *r, sc_gpu_t *gpu, const mask_fault_t *f)
{
	const camp_campaign_t *c = r->c;
	if (c->sampling == CAMP_SAMPLING_LIVE)
		return sc_inject_live(gpu, (sc_target_t)c->target, c->fields, f->sm, f->loc, f->nbits);
	return sc_inject(gpu, (sc_target_t)c->target, c->fields, f->sm, f->loc, f->nbits);
}

/* The next cycle the child must stop at: a pending fault, the FU check, or
 * the next checkpoint (early termination). */
static uint64_t child_next(runner_t *r, uint64_t now)
{
	if (r->fault < r->cur->nfaults)
		return r->cur->f[r->fault].cycle;
	if (r->fu_check)
		return r->fu_cycle + 1;
	if (r->o->no_early)
		return UINT64_MAX;
	while (r->ck < r->golden.nck && r->golden.ck[r->ck].cycle < now)
		r->ck++;
	return r->ck < r->golden.nck ? r->golden.ck[r->ck].cycle : UINT64_MAX;
}

/* Equal state at a checkpoint, compared part by part: the launch state,
 * then the SM of the (first) fault, the other SMs, global memory last. A
 * faulty state usually differs where the fault was, so a failed check
 * costs a fraction of a full hash; a success costs one full hash. */
static bool same_state(runner_t *r, sc_gpu_t *gpu, const eng_ckpt_t *ck)
{
	uint32_t n = r->golden.nparts, first = 1 + r->cur->f[0].sm;
	if (sc_state_hash_part(gpu, 0) != ck->part[0])
		return false;
	if (first < n - 1 && sc_state_hash_part(gpu, first) != ck->part[first])
		return false;
	for (uint32_t i = 1; i < n; i++)
		if (i != first && sc_state_hash_part(gpu, i) != ck->part[i])
			return false;
	return true;
}

static uint64_t child_pause(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	runner_t *r = ctx;
	uint64_t now = sc_gpu_cycle(gpu);
	if (r->fault < r->cur->nfaults && cycle == r->cur->f[r->fault].cycle) {
		const mask_fault_t *f = &r->cur->f[r->fault++];
		if (r->fault == 1 && !r->has_live) {
			/* fork mode measured it before forking; --no-fork measures here */
			r->has_live = r->c->sampling == CAMP_SAMPLING_LIVE;
			r->live = r->has_live ? sc_target_live_bits(gpu, (sc_target_t)r->c->target, r->c->fields, f->sm) : 0;
		}
		int rc = inject(r, gpu, f);
		if (rc < 0)
			child_report(r, CLS_DUE, "bad_mask", 0, false);
		if (rc == 0 && r->cur->nfaults == 1)
			child_report(r, CLS_MASKED, "unused", 0, false);
		if (r->c->target == CAMP_TARGET_FU) {
			r->fu_check = true;
			r->fu_cycle = cycle;
		}
		return child_next(r, now);
	}
	if (r->fu_check && cycle == r->fu_cycle + 1) {
		r->fu_check = false;
		if (!sc_fu_applied(gpu) && r->cur->nfaults == 1)
			child_report(r, CLS_MASKED, "unused", 1, false);
		return child_next(r, now);
	}
	if (r->ck < r->golden.nck && cycle == r->golden.ck[r->ck].cycle) {
		if (same_state(r, gpu, &r->golden.ck[r->ck]))
			child_report(r, CLS_MASKED, "early", cycle - r->start, true);
		/* a fault that has not died out is unlikely to die soon: compare
		 * at checkpoints 1, 2, 4, 8 (at most) apart */
		r->misses++;
		r->ck += 1u << (r->misses / 2 < 3 ? r->misses / 2 : 3);
	}
	return child_next(r, now);
}

/* Turns this process into the experiment: called in the child at the
 * activation cycle (fork mode) or before the run (no-fork mode). */
static void become_child(runner_t *r, sc_gpu_t *gpu, const eng_exp_t *e, int wfd)
{
	r->child = true;
	r->wfd = wfd;
	r->cur = e;
	r->fault = 0;
	r->ck = 0;
	r->misses = 0;
	r->fu_check = false;
	r->start = e->f[0].cycle;
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* an experiment never outlives its runner */
	alarm((unsigned)(r->c->watchdog_seconds + 0.999));
	sc_set_cycle_budget(gpu, (uint64_t)(r->c->timeout_factor * (double)r->golden.cycles));
	sc_set_pause(gpu, e->f[0].cycle, child_pause, r);
}

/* The child's verdict once its workload run returns. */
static _Noreturn void child_finish(runner_t *r, sc_gpu_t *gpu, const camp_result_t *res)
{
	/* The run ended before the fault's cycle came (it lies after the last
	 * event): nothing was injected, as the fork path says by not pausing. */
	if (r->fault == 0)
		child_report(r, CLS_MASKED, "unused", 0, false);
	cls_buffer_t *fb = calloc(r->grun.nout ? r->grun.nout : 1, sizeof *fb);
	if (!fb)
		child_report(r, CLS_DUE, "crash:out of memory", 0, false);
	cls_run_t fr = {.out = fb, .nout = 0, .due = res->due ? res->status.reason : SC_DUE_NONE};
	if (!res->due) {
		fr.nout = res->noutputs;
		for (uint32_t i = 0; i < res->noutputs; i++) {
			fb[i] = r->gbuf[i];
			fb[i].data = res->outputs[i].data;
			fb[i].bytes = res->outputs[i].bytes;
		}
	} else {
		/* no outputs after a DUE: the classifier decides on the DUE first */
		fr.nout = r->grun.nout;
		for (uint32_t i = 0; i < r->grun.nout; i++) {
			fb[i] = r->gbuf[i];
			fb[i].bytes = 0;
		}
	}
	cls_verdict_t v;
	cls_classify(&r->grun, &fr, &v);
	uint64_t now = sc_gpu_cycle(gpu);
	child_report(r, v.outcome, v.reason, now > r->start ? now - r->start : 0, false);
}

/* Waits for the child and turns what happened into an outcome. */
static void collect(runner_t *r, pid_t pid, int rfd, const eng_exp_t *e, double t0)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	report_t rep;
	size_t got = 0;
	while (got < sizeof rep) {
		ssize_t k = read(rfd, (char *)&rep + got, sizeof rep - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(rfd);
	eng_outcome_t out = {.idx = e->idx, .wall = eng_now() - t0, .has_live_bits = r->has_live, .live_bits = r->live};
	if (got == sizeof rep && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		out.outcome = (cls_outcome_t)rep.outcome;
		memcpy(out.reason, rep.reason, sizeof out.reason);
		out.reason[sizeof out.reason - 1] = 0;
		out.cycles = rep.cycles;
		out.early = rep.early;
		out.has_live_bits = rep.has_live;
		out.live_bits = rep.live;
	} else {
		cls_run_t fr = {.out = r->gbuf, .nout = r->grun.nout};
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
			fr.host_timeout = true;
		else
			fr.signal = WIFSIGNALED(st) ? WTERMSIG(st) : SIGABRT;
		cls_verdict_t v;
		cls_classify(&r->grun, &fr, &v);
		out.outcome = v.outcome;
		snprintf(out.reason, sizeof out.reason, "%s", v.reason);
	}
	r->o->emit(&out, r->o->ctx);
}

/* Forks the experiment child; returns in the child, waits in the parent. */
static bool spawn(runner_t *r, sc_gpu_t *gpu, const eng_exp_t *e)
{
	int p[2];
	double t0 = eng_now();
	if (pipe(p) < 0)
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		close(p[0]);
		become_child(r, gpu, e, p[1]);
		return true;
	}
	close(p[1]);
	collect(r, pid, p[0], e, t0);
	return false;
}

/* Parent pause hook: the golden replay reached an activation cycle. */
static uint64_t parent_pause(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	runner_t *r = ctx;
	while (r->next < r->nexp && r->exps[r->next].f[0].cycle <= cycle) {
		const eng_exp_t *e = &r->exps[r->next++];
		const mask_fault_t *f = &e->f[0];
		r->has_live = r->c->sampling == CAMP_SAMPLING_LIVE;
		r->live = r->has_live ? sc_target_live_bits(gpu, (sc_target_t)r->c->target, r->c->fields, f->sm) : 0;
		if (e->nfaults == 1) {
			int use;
			if (r->c->sampling == CAMP_SAMPLING_LIVE)
				use = r->live > 0 || r->c->target == CAMP_TARGET_FU;
			else
				use = sc_target_in_use(gpu, (sc_target_t)r->c->target, r->c->fields, f->sm, f->loc, f->nbits);
			if (use == 0) {
				eng_outcome_t out = {.idx = e->idx, .outcome = CLS_MASKED, .has_live_bits = r->has_live,
				                     .live_bits = r->live};
				snprintf(out.reason, sizeof out.reason, "unused");
				r->o->emit(&out, r->o->ctx);
				continue;
			}
		}
		if (spawn(r, gpu, e))
			return child_pause(gpu, r, cycle); /* the child: inject now */
	}
	return r->next < r->nexp ? r->exps[r->next].f[0].cycle : UINT64_MAX;
}

static int run_workload(runner_t *r, sc_gpu_t *gpu, char *err, size_t errsz)
{
	camp_result_t *res = NULL;
	int rc = camp_workload_run(r->c->workload, gpu, &res, err, errsz);
	if (r->child) {
		if (rc)
			child_report(r, CLS_DUE, "crash:host error", sc_gpu_cycle(gpu) - r->start, false);
		child_finish(r, gpu, res);
	}
	camp_result_destroy(res);
	return rc;
}

int eng_runner(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz)
{
	runner_t r;
	memset(&r, 0, sizeof r);
	r.o = o;
	r.c = o->campaign;
	r.exps = exps;
	r.nexp = nexp;
	R = &r;
	int rc = eng_golden_run(r.c->workload, &r.c->gpu, o->ck_interval, &r.golden, err, errsz);
	if (rc)
		goto out;
	const camp_result_t *gres = r.golden.res;
	r.gbuf = calloc(gres->noutputs ? gres->noutputs : 1, sizeof *r.gbuf);
	if (!r.gbuf) {
		rc = ENG_EXIT_INTERNAL;
		goto out;
	}
	for (uint32_t i = 0; i < gres->noutputs; i++) {
		const camp_buffer_t *b = &r.c->workload->buffers[gres->outputs[i].buffer];
		r.gbuf[i] = (cls_buffer_t){b->name, gres->outputs[i].data, gres->outputs[i].bytes,
		                           b->type == CAMP_T_F32 ? CLS_T_F32 : b->type == CAMP_T_F64 ? CLS_T_F64 : CLS_T_RAW,
		                           b->tolerance};
	}
	r.grun = (cls_run_t){.out = r.gbuf, .nout = gres->noutputs};
	if (o->no_fork) {
		/* every experiment from cycle 0, in a process of its own */
		for (uint64_t i = 0; i < nexp; i++) {
			int p[2];
			r.has_live = false;
			r.live = 0;
			double t0 = eng_now();
			if (pipe(p) < 0) {
				rc = ENG_EXIT_INTERNAL;
				goto out;
			}
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0) {
				close(p[0]);
				sc_gpu_t *gpu;
				if (sc_gpu_create(&r.c->gpu, NULL, &gpu))
					_exit(1);
				become_child(&r, gpu, &exps[i], p[1]);
				run_workload(&r, gpu, err, errsz); /* does not return */
				_exit(1);
			}
			close(p[1]);
			if (pid < 0) {
				close(p[0]);
				rc = ENG_EXIT_INTERNAL;
				goto out;
			}
			collect(&r, pid, p[0], &exps[i], t0);
		}
		goto out;
	}
	if (nexp) {
		sc_gpu_t *gpu;
		if (sc_gpu_create(&r.c->gpu, NULL, &gpu)) {
			rc = ENG_EXIT_INTERNAL;
			goto out;
		}
		sc_set_pause(gpu, exps[0].f[0].cycle, parent_pause, &r);
		rc = run_workload(&r, gpu, err, errsz);
		sc_gpu_destroy(gpu);
		/* experiments the replay never reached (after the last event) */
		while (r.next < r.nexp) {
			const eng_exp_t *e = &r.exps[r.next++];
			eng_outcome_t out = {.idx = e->idx, .outcome = CLS_MASKED};
			snprintf(out.reason, sizeof out.reason, "unused");
			o->emit(&out, o->ctx);
		}
	}
out:
	free(r.gbuf);
	eng_golden_free(&r.golden);
	R = NULL;
	return rc;
}
