/* Host programs as campaign workloads (campaigns.h camp_exec_t). flipsim
 * starts the program with FLIPSIM_RT naming a job file; the program's own
 * libsimcore joins the injection runtime in sc_gpu_create, takes the
 * campaign's GPU and reports on fd 3 (formats: simcore/rt.c). Golden mode
 * records launches and checkpoints; inject mode replays the program once
 * and forks each experiment inside it, each child writing its stdout and
 * stderr to files of its own. Outcomes compare those, the exit status and
 * the simulator's status with the golden run's (parser.h). */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng_int.h"

/* A temporary folder for one run of the program; removed with its files. */
typedef struct scratch {
	char dir[4096];
} scratch_t;

static int scratch_make(scratch_t *s, char *err, size_t errsz)
{
	const char *t = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s/flipsim-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(s->dir)) {
		snprintf(err, errsz, "cannot create a temporary folder in %s: %s", t && *t ? t : "/tmp", strerror(errno));
		s->dir[0] = 0;
		return ENG_EXIT_INTERNAL;
	}
	return 0;
}

static void scratch_path(const scratch_t *s, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", s->dir, name);
}

static void scratch_remove(scratch_t *s)
{
	static const char *const names[] = {"job", "stdout", "stderr", NULL};
	char p[4200];
	if (!s->dir[0])
		return;
	for (int i = 0; names[i]; i++) {
		scratch_path(s, names[i], p, sizeof p);
		unlink(p);
	}
	scratch_path(s, "exp", p, sizeof p);
	rmdir(p);
	rmdir(s->dir);
	s->dir[0] = 0;
}

/* Reads a whole file (a missing file reads as empty). */
static int slurp(const char *path, char **data, uint64_t *n)
{
	*data = NULL;
	*n = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		if (len == cap) {
			char *nb = realloc(buf, cap ? 2 * cap : 4096);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
			cap = cap ? 2 * cap : 4096;
		}
		size_t k = fread(buf + len, 1, cap - len, f);
		len += k;
		if (k == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return -1;
	}
	*data = buf;
	*n = len;
	return 0;
}

/* Starts the program: stdin /dev/null, stdout and stderr into the scratch
 * files, fd 3 the result channel (*rfd reads it), FLIPSIM_RT the job. */
static pid_t start(const camp_exec_t *x, const scratch_t *s, int *rfd, char *err, size_t errsz)
{
	char job[4200], outp[4200], errp[4200];
	scratch_path(s, "job", job, sizeof job);
	scratch_path(s, "stdout", outp, sizeof outp);
	scratch_path(s, "stderr", errp, sizeof errp);
	int res[2], ex[2];
	if (pipe(res) < 0)
		goto fail;
	if (pipe2(ex, O_CLOEXEC) < 0) {
		close(res[0]);
		close(res[1]);
		goto fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(res[0]);
		close(ex[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* the program never outlives its runner */
		signal(SIGPIPE, SIG_DFL);         /* flipsim run ignores it; the program must not */
		signal(SIGXFSZ, SIG_DFL);         /* flipsim ignores it (main.c); the same */
		int in = open("/dev/null", O_RDONLY);
		int out = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int er = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = 0;
		if (in < 0 || out < 0 || er < 0 || chdir(x->cwd) < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(er, 2) < 0 || dup2(res[1], SC_RT_FD) < 0 || setenv(SC_RT_ENV, job, 1) < 0)
			e = errno;
		if (!e) {
			for (int fd = SC_RT_FD + 1; fd < 64; fd++)
				if (fd != ex[1])
					close(fd);
			execv(x->argv[0], x->argv);
			e = errno;
		}
		if (write(ex[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(res[1]);
	close(ex[1]);
	if (pid < 0) {
		close(res[0]);
		close(ex[0]);
		goto fail;
	}
	int e = 0;
	ssize_t k;
	while ((k = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(ex[0]);
	if (k == (ssize_t)sizeof e) {
		waitpid(pid, NULL, 0);
		close(res[0]);
		snprintf(err, errsz, "cannot run '%s' in '%s': %s", x->argv[0], x->cwd, strerror(e));
		return -1;
	}
	*rfd = res[0];
	return pid;
fail:
	snprintf(err, errsz, "cannot start '%s': %s", x->argv[0], strerror(errno));
	return -1;
}

static int wait_for(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* The first line of a program's stderr, for messages. */
static void first_line(const char *s, uint64_t n, char *out, size_t outsz)
{
	size_t k = 0;
	while (k < n && s[k] != '\n' && k + 1 < outsz)
		k++;
	snprintf(out, outsz, "%.*s", (int)k, s ? s : "");
}

/* "exited with status N" / "was killed by signal N" */
static void describe_status(int st, char *out, size_t n)
{
	if (WIFSIGNALED(st))
		snprintf(out, n, "was killed by signal %d", WTERMSIG(st));
	else
		snprintf(out, n, "exited with status %d", WEXITSTATUS(st));
}

static const char *limiter_name(const char *s)
{
	static const char *const names[] = {"threads", "ctas", "warps", "registers", "registers+", "shared", NULL};
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return names[i];
	return "?";
}

/* One L line into l. */
static bool parse_launch(char *p, sc_launch_stats_t *l)
{
	char kernel[64], limiter[16];
	memset(l, 0, sizeof *l);
	int n = sscanf(p, "%63s %u %u %u %u %u %u %u %u %u %u %u %15s %lf %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	               " %" SCNu64, kernel, &l->grid.x, &l->grid.y, &l->grid.z, &l->block.x, &l->block.y, &l->block.z,
	               &l->regs_per_thread, &l->preds_per_thread, &l->smem_per_cta, &l->local_per_thread, &l->ctas_per_sm,
	               limiter, &l->occupancy, &l->start_cycle, &l->end_cycle, &l->cycles, &l->warp_insts,
	               &l->thread_insts);
	if (n != 19)
		return false;
	snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
	l->limiter = limiter_name(limiter);
	return true;
}

static bool parse_ckpt(char *p, sc_rt_ckpts_t *ck)
{
	uint64_t v[1 + 1024];
	uint32_t n = 0;
	char *q;
	while (n < 1 + 1024) {
		uint64_t x = strtoull(p, &q, n ? 16 : 10);
		if (q == p)
			break;
		v[n++] = x;
		p = q;
	}
	if (n < 2 || ck->n >= SC_RT_MAX_CKPT || (ck->n && n - 1 != ck->nparts))
		return false;
	uint64_t *part = realloc(ck->part, (size_t)(ck->n + 1) * (n - 1) * sizeof *part);
	if (!part)
		return false;
	ck->part = part;
	ck->nparts = n - 1;
	ck->cycle[ck->n] = v[0];
	memcpy(&part[(size_t)ck->n * ck->nparts], &v[1], ck->nparts * sizeof *part);
	ck->n++;
	return true;
}

int eng_golden_exec(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz)
{
	const camp_exec_t *x = c->exec;
	memset(g, 0, sizeof *g);
	g->cfg = c->gpu;
	g->ck.interval = ck_interval;
	scratch_t s;
	char path[4200], *line = NULL;
	size_t cap = 0;
	int rc = scratch_make(&s, err, errsz);
	if (rc)
		return rc;
	sc_rt_job_t job = {.mode = SC_RT_GOLDEN, .cfg = c->gpu, .regs = eng_options(c).regs, .ck_interval = ck_interval};
	scratch_path(&s, "job", path, sizeof path);
	if (sc_rt_job_write(path, &job)) {
		snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
		rc = ENG_EXIT_INTERNAL;
		goto out;
	}
	int rfd;
	double t0 = eng_now();
	pid_t pid = start(x, &s, &rfd, err, errsz);
	if (pid < 0) {
		rc = ENG_EXIT_INPUT;
		goto out;
	}
	FILE *r = fdopen(rfd, "r");
	bool seen_g = false, ended = false, bad = !r;
	int due = 0;
	uint32_t nl = 0, cap_l = 0;
	while (r && getline(&line, &cap, r) > 0) {
		if (line[0] == 'G' && !seen_g) {
			seen_g = sscanf(line + 1, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu32 " %d", &g->cycles,
			                &g->totals.cycles, &g->totals.warp_insts, &g->totals.thread_insts, &g->nlaunch,
			                &due) == 6;
			g->totals.launches = g->nlaunch;
			bad |= !seen_g || g->nlaunch > 10000000;
			if (!bad) {
				cap_l = g->nlaunch;
				g->launch = calloc(cap_l ? cap_l : 1, sizeof *g->launch);
				bad |= !g->launch;
			}
		} else if (line[0] == 'L' && seen_g && !bad && nl < cap_l) {
			bad |= !parse_launch(line + 1, &g->launch[nl++]);
		} else if (line[0] == 'C' && seen_g) {
			bad |= !parse_ckpt(line + 1, &g->ck);
		} else if (line[0] == 'E') {
			ended = true;
		} else {
			bad = true;
		}
	}
	if (r)
		fclose(r);
	else
		close(rfd);
	int st = wait_for(pid);
	g->wall = eng_now() - t0;
	scratch_path(&s, "stdout", path, sizeof path);
	bool io = slurp(path, &g->out, &g->nout) != 0;
	scratch_path(&s, "stderr", path, sizeof path);
	io |= slurp(path, &g->err, &g->nerr) != 0;
	g->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char what[64], line1[200];
	describe_status(st, what, sizeof what);
	first_line(g->err, g->nerr, line1, sizeof line1);
	if (io) {
		snprintf(err, errsz, "cannot read the output of '%s'", x->argv[0]);
		rc = ENG_EXIT_INTERNAL;
	} else if (bad || (!ended && seen_g)) {
		snprintf(err, errsz, "'%s' (%s) reported to flipsim in a form it cannot read; is it linked with "
		         "libsimcore " SC_VERSION "?", x->argv[0], what);
		rc = ENG_EXIT_INPUT;
	} else if (!seen_g) {
		snprintf(err, errsz, "'%s' %s without simulating anything under flipsim (a program on the "
		         "simcore API, linked with libsimcore " SC_VERSION ", is needed)%s%s", x->argv[0], what,
		         *line1 ? "; its stderr: " : "", line1);
		rc = ENG_EXIT_INPUT;
	} else if (due != SC_DUE_NONE) {
		snprintf(err, errsz, "the fault-free run of '%s' ends in a DUE (%s): nothing to inject into", x->argv[0],
		         due > 0 && due < SC_DUE__COUNT ? sc_due_name((sc_due_t)due) : "?");
		rc = ENG_EXIT_DUE;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errsz, "the fault-free run of '%s' %s%s%s", x->argv[0], what,
		         *line1 ? "; its stderr: " : "", line1);
		rc = ENG_EXIT_INPUT;
	} else if (nl != g->nlaunch) {
		snprintf(err, errsz, "'%s' reported %" PRIu32 " of %" PRIu32 " launches", x->argv[0], nl, g->nlaunch);
		rc = ENG_EXIT_INPUT;
	}
out:
	free(line);
	scratch_remove(&s);
	return rc;
}

/* ---- inject mode ---- */

typedef struct xrun {
	const eng_runner_opts_t *o;
	const eng_golden_t *g;
	cls_run_t grun;
	scratch_t s;
	uint64_t reported;
} xrun_t;

/* One X line: classify and emit. Returns false on a malformed line. */
static bool on_result(xrun_t *x, const char *line, char *err, size_t errsz)
{
	sc_rt_result_t r;
	memset(&r, 0, sizeof r);
	int kind, due, has_live;
	if (sscanf(line, "%" SCNu64 " %d %d %" SCNu64 " %d %" SCNu64 " %d %lf", &r.idx, &kind, &due, &r.cycles, &has_live,
	           &r.live, &r.wstatus, &r.wall) != 8 || kind < 0 || kind > SC_RT_NO_REPORT || due < 0 ||
	    due >= SC_DUE__COUNT) {
		snprintf(err, errsz, "malformed result from the program: %s", line);
		return false;
	}
	r.kind = (sc_rt_kind_t)kind;
	r.due = (sc_due_t)due;
	r.has_live = has_live;
	r.verdict = -1;
	char op[4300], ep[4300];
	snprintf(op, sizeof op, "%s/exp/%" PRIu64 ".out", x->s.dir, r.idx);
	snprintf(ep, sizeof ep, "%s/exp/%" PRIu64 ".err", x->s.dir, r.idx);
	if (r.kind == SC_RT_NO_REPORT && r.wstatus >= 0 && WIFEXITED(r.wstatus) && WEXITSTATUS(r.wstatus) == 125) {
		char *e = NULL;
		uint64_t n = 0;
		slurp(ep, &e, &n);
		char l1[300];
		first_line(e, n, l1, sizeof l1);
		free(e);
		snprintf(err, errsz, "an experiment of '%s' could not start: %s", x->o->campaign->exec->argv[0], l1);
		return false;
	}
	cls_run_t f = {0};
	char *out = NULL, *er = NULL;
	bool ran = r.kind == SC_RT_ENDED || r.kind == SC_RT_NO_REPORT;
	if (ran && (slurp(op, &out, &f.stdout_len) || slurp(ep, &er, &f.stderr_len))) {
		snprintf(err, errsz, "cannot read %s: %s", op, strerror(errno));
		free(out);
		return false;
	}
	f.stdout_text = out;
	f.stderr_text = er;
	unlink(op);
	unlink(ep);
	eng_outcome_t o;
	eng_outcome_of(&r, &x->grun, ran ? &f : NULL, &o);
	free(out);
	free(er);
	x->o->emit(&o, x->o->ctx);
	x->reported++;
	return true;
}

/* Runs experiments exps[0..n) in one run of the program. */
static int inject_run(xrun_t *x, const eng_exp_t *exps, uint64_t n, char *err, size_t errsz)
{
	const camp_campaign_t *c = x->o->campaign;
	char path[4200], outp[4200], errp[4200], *line = NULL;
	size_t cap = 0;
	int rc = scratch_make(&x->s, err, errsz);
	if (rc)
		return rc;
	char dir[4200];
	scratch_path(&x->s, "exp", dir, sizeof dir);
	scratch_path(&x->s, "stdout", outp, sizeof outp);
	scratch_path(&x->s, "stderr", errp, sizeof errp);
	sc_rt_job_t job = {.mode = SC_RT_INJECT, .cfg = c->gpu, .regs = eng_options(c).regs, .stdout_path = outp, .stderr_path = errp, .out_dir = dir};
	eng_rt_plan(x->o, x->g, exps, n, &job.plan);
	scratch_path(&x->s, "job", path, sizeof path);
	if (mkdir(dir, 0700) || sc_rt_job_write(path, &job)) {
		snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
		rc = ENG_EXIT_INTERNAL;
		goto out;
	}
	int rfd;
	pid_t pid = start(c->exec, &x->s, &rfd, err, errsz);
	if (pid < 0) {
		rc = ENG_EXIT_INPUT;
		goto out;
	}
	FILE *r = fdopen(rfd, "r");
	bool ended = false;
	uint64_t before = x->reported;
	while (r && !rc && getline(&line, &cap, r) > 0) {
		if (line[0] == 'X' && !ended) {
			if (!on_result(x, line + 1, err, errsz))
				rc = ENG_EXIT_INTERNAL;
		} else if (line[0] == 'E') {
			ended = true;
		} else {
			snprintf(err, errsz, "malformed result from the program: %s", line);
			rc = ENG_EXIT_INTERNAL;
		}
	}
	if (r)
		fclose(r);
	else
		close(rfd);
	if (rc)
		kill(pid, SIGKILL);
	int st = wait_for(pid);
	if (rc)
		goto out;
	char what[64];
	describe_status(st, what, sizeof what);
	if (!ended || x->reported - before != n) {
		snprintf(err, errsz, "'%s' %s after reporting %" PRIu64 " of %" PRIu64 " experiments", c->exec->argv[0],
		         what, x->reported - before, n);
		rc = ENG_EXIT_INTERNAL;
		goto out;
	}
	/* The replay in the parent is the golden run again: a program whose
	 * replay differs is not deterministic, and its outcomes mean nothing. */
	char *o2 = NULL, *e2 = NULL;
	uint64_t no = 0, ne = 0;
	if (slurp(outp, &o2, &no) || slurp(errp, &e2, &ne)) {
		snprintf(err, errsz, "cannot read the output of '%s'", c->exec->argv[0]);
		rc = ENG_EXIT_INTERNAL;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != x->g->exit_status || no != x->g->nout ||
	           (no && memcmp(o2, x->g->out, no)) || ne != x->g->nerr || (ne && memcmp(e2, x->g->err, ne))) {
		snprintf(err, errsz, "'%s' is not deterministic: its fault-free replay (%s) printed other output than the "
		         "golden run; flipsim needs the same output for the same input every time", c->exec->argv[0],
		         what);
		rc = ENG_EXIT_INPUT;
	}
	free(o2);
	free(e2);
out:
	free(line);
	scratch_remove(&x->s);
	return rc;
}

int eng_runner_exec(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz)
{
	eng_golden_t g;
	int rc = eng_golden_exec(o->campaign, o->ck_interval, &g, err, errsz);
	xrun_t x = {.o = o, .g = &g};
	x.grun = (cls_run_t){.stdout_text = g.out, .stdout_len = g.nout, .stderr_text = g.err, .stderr_len = g.nerr,
	                     .exit_status = g.exit_status};
	if (!rc && nexp) {
		if (o->no_fork) /* every experiment from cycle 0: a run of the program each */
			for (uint64_t i = 0; i < nexp && !rc; i++)
				rc = inject_run(&x, &exps[i], 1, err, errsz);
		else
			rc = inject_run(&x, exps, nexp, err, errsz);
	}
	eng_golden_free(&g);
	return rc;
}
