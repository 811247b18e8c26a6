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
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudart.h"
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
		return ENG_EINTERNAL;
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

/* ---- outputs as streams ----
 * A program's stdout and stderr may be huge: they stay in files and are
 * digested and compared CHUNK bytes at a time. Memory stays bounded; on
 * disk are the golden run's output, the replay's, and the part of an
 * experiment's output printed after its fork (rt.c), one or two
 * experiments' at a time. */
#define CHUNK 65536
/* A differing output reaches the classifier as at most this many bytes of
 * each side from the first difference on (parser.h compares texts). */
#define WINDOW 256

/* Reads up to n bytes at off (fewer at the end of the file). -1 on error. */
static ssize_t read_at(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* Size and FNV-1a of file t->path into t; *chain continues over it. 0 or -1. */
static int digest_file(eng_text_t *t, uint64_t *chain)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	char *buf = malloc(CHUNK);
	int rc = -1;
	t->len = 0;
	t->fnv = CAMP_FNV_OFFSET;
	if (fd < 0 || !buf)
		goto out;
	for (;;) {
		ssize_t k = read_at(fd, buf, CHUNK, t->len);
		if (k < 0)
			goto out;
		if (k == 0)
			break;
		t->fnv = camp_fnv1a(t->fnv, buf, (size_t)k);
		*chain = camp_fnv1a(*chain, buf, (size_t)k);
		t->len += (uint64_t)k;
	}
	rc = 0;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The first line of the file at path from offset off, for messages ("" when none). */
static void first_line(const char *path, uint64_t off, char *out, size_t outsz)
{
	out[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t k = read_at(fd, out, outsz - 1, off);
	close(fd);
	out[k > 0 ? k : 0] = 0;
	out[strcspn(out, "\n")] = 0;
}

/* A differing output, for the classifier: WINDOW bytes of each side from
 * the first difference on (at least one side has a byte there). */
typedef struct diff {
	char g[WINDOW], f[WINDOW];
	uint64_t ng, nf;
} diff_t;

/* Compares golden text t with an output in file fd: the output is t's
 * first `prefix` bytes (taken as equal) followed by the file's bytes from
 * offset `at` on. Returns 0 when they are the same, 1 when not (window in
 * *d), -1 on a read error. */
static int text_cmp(const eng_text_t *t, int fd, uint64_t at, uint64_t prefix, diff_t *d)
{
	int gfd = open(t->path, O_RDONLY | O_CLOEXEC);
	char *bg = malloc(CHUNK), *bf = malloc(CHUNK);
	int rc = -1;
	uint64_t pos = prefix; /* in the output; the file holds it at at + pos - prefix */
	if (gfd < 0 || !bg || !bf)
		goto out;
	if (prefix > t->len) { /* a prefix the golden run never printed */
		d->ng = 0;
		d->nf = 1;
		d->f[0] = '?';
		rc = 1;
		goto out;
	}
	for (;;) {
		ssize_t kg = read_at(gfd, bg, CHUNK, pos), kf = read_at(fd, bf, CHUNK, at + pos - prefix);
		if (kg < 0 || kf < 0)
			goto out;
		if (kg == 0 && kf == 0) {
			rc = 0;
			goto out;
		}
		size_t n = (size_t)(kg < kf ? kg : kf), i = 0;
		while (i < n && bg[i] == bf[i])
			i++;
		if (i == n && kg == kf) {
			pos += n;
			continue;
		}
		pos += i; /* the first difference, or where the shorter one ends */
		kg = read_at(gfd, d->g, WINDOW, pos);
		kf = read_at(fd, d->f, WINDOW, at + pos - prefix);
		if (kg < 0 || kf < 0)
			goto out;
		d->ng = (uint64_t)kg;
		d->nf = (uint64_t)kf;
		rc = 1;
		goto out;
	}
out:
	free(bg);
	free(bf);
	if (gfd >= 0)
		close(gfd);
	return rc;
}

/* An experiment's output file at path (rt.c: a header with the length of
 * the golden prefix, then what the experiment printed after it) against
 * golden text t. A missing file is an empty output. 0, 1 (window in *d), -1. */
static int exp_cmp(const eng_text_t *t, const char *path, diff_t *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		return -1;
	if (fd < 0)
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char head[SC_RT_HEADER + 1] = "";
	ssize_t k = fd < 0 ? -1 : read_at(fd, head, SC_RT_HEADER, 0);
	uint64_t prefix = 0, at = 0;
	if (k == SC_RT_HEADER) {
		char *e;
		prefix = strtoull(head, &e, 10);
		at = SC_RT_HEADER;
		if (*e != '\n')
			k = -1;
	} else if (k != 0) {
		k = -1;
	}
	int rc = k < 0 ? -1 : text_cmp(t, fd, at, prefix, d);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* ---- the program's process ---- */

/* Puts the folder of flipsim's CUDA runtime first on LD_LIBRARY_PATH, so
 * that a CUDA program built with -cudart shared loads it (cudart/): flipsim's
 * own folder in a build (build/libcudart.so.13), PREFIX/lib/flipsim when
 * installed (make install; flipsim in PREFIX/bin). 0, or -1 with errno. */
static int cudart_path(void)
{
	char exe[4096], lib[4200], path[12400];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = 0;
	snprintf(lib, sizeof lib, "%s/libcudart.so.13", exe);
	if (access(lib, F_OK)) /* installed: bin/../lib/flipsim */
		snprintf(lib, sizeof lib, "%s/../lib/flipsim", exe);
	else
		snprintf(lib, sizeof lib, "%s", exe);
	const char *old = getenv("LD_LIBRARY_PATH");
	snprintf(path, sizeof path, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
	return setenv("LD_LIBRARY_PATH", path, 1);
}

/* The child of start(): sets up its group, signals, stdio, fd 3 (res)
 * and FLIPSIM_RT (job), then runs the program. An errno on the way is
 * written to ex (close-on-exec: nothing arrives when the program runs). */
static _Noreturn void exec_child(const camp_exec_t *x, const char *job, const char *outp, const char *errp, int res,
                                 int ex)
{
	setpgid(0, 0);                    /* what it starts, flipsim can end with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* the program never outlives its runner */
	signal(SIGPIPE, SIG_DFL);         /* flipsim run ignores it; the program must not */
	signal(SIGXFSZ, SIG_DFL);         /* flipsim ignores it (main.c); the same */
	int in = open("/dev/null", O_RDONLY);
	int out = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int er = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int e = 0;
	if (in < 0 || out < 0 || er < 0 || chdir(x->cwd) < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(er, 2) < 0 || dup2(res, SC_RT_FD) < 0 || setenv(SC_RT_ENV, job, 1) < 0 || cudart_path() < 0)
		e = errno;
	if (!e) {
		for (int fd = SC_RT_FD + 1; fd < 64; fd++)
			if (fd != ex)
				close(fd);
		execv(x->argv[0], x->argv);
		e = errno;
	}
	if (write(ex, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* Starts the program in a process group of its own: stdin /dev/null,
 * stdout and stderr into the files outp and errp, fd 3 the result channel
 * (*rfd reads it), FLIPSIM_RT the job. */
static pid_t start(const camp_exec_t *x, const scratch_t *s, const char *outp, const char *errp, int *rfd, char *err,
                   size_t errsz)
{
	char job[4200];
	scratch_path(s, "job", job, sizeof job);
	/* a CUDA program built as flipsim cannot run it; one that cannot be
	 * read is left to execv to report */
	int elf = cr_elf_check(x->argv[0], err, errsz);
	if (elf && elf != CR_EIO)
		return -1;
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
		exec_child(x, job, outp, errp, res[1], ex[1]);
	}
	close(res[1]);
	close(ex[1]);
	if (pid < 0) {
		close(res[0]);
		close(ex[0]);
		goto fail;
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
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

/* One line of the result channel (NUL-terminated, newline kept). Returns
 * false to stop reading (the program is killed). */
typedef bool (*line_fn)(void *ctx, char *line);

typedef struct chan {
	int fd;
	char *buf;
	size_t len, cap;
	bool eof;
} chan_t;

#define MAX_LINE (16u << 20)

/* Reads what the channel holds now and hands over its complete lines.
 * Returns false when on_line stops or a line is longer than MAX_LINE. */
static bool chan_drain(chan_t *c, line_fn on_line, void *ctx)
{
	for (int round = 0; round < 256 && !c->eof; round++) {
		if (c->cap - c->len < CHUNK + 1) {
			if (c->cap > MAX_LINE)
				return false;
			char *nb = realloc(c->buf, c->cap + CHUNK + 1);
			if (!nb)
				return false;
			c->buf = nb;
			c->cap += CHUNK + 1;
		}
		ssize_t k = read(c->fd, c->buf + c->len, c->cap - c->len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			break;
		if (k <= 0) {
			c->eof = true;
			break;
		}
		c->len += (size_t)k;
		size_t done = 0;
		for (char *nl; (nl = memchr(c->buf + done, '\n', c->len - done)); done = (size_t)(nl - c->buf) + 1) {
			char keep = nl[1];
			nl[1] = 0;
			bool go = on_line(ctx, c->buf + done);
			nl[1] = keep;
			if (!go)
				return false;
		}
		memmove(c->buf, c->buf + done, c->len - done);
		c->len -= done;
	}
	return true;
}

/* Reads the result channel fd of the program pid line by line until the
 * program's own process ends: what it left running (a background child
 * holding the channel or its output open) is not waited for but killed
 * with its process group. *st gets the wait status. Returns 0; 1 when the
 * deadline (eng_now() seconds, 0: none) passed first; -1 when on_line
 * stopped the reading; in both the program is killed. Closes fd. */
static int collect(pid_t pid, int fd, double deadline, line_fn on_line, void *ctx, int *st)
{
	chan_t c = {.fd = fd};
	int rc = 0;
	bool exited = false;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		siginfo_t si = {0};
		/* ended but not reaped: the group keeps its id until it is killed below */
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			exited = true;
		if (!chan_drain(&c, on_line, ctx)) {
			rc = -1;
			break;
		}
		if (exited)
			break;
		if (deadline > 0 && eng_now() >= deadline) {
			rc = 1;
			break;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		poll(&p, c.eof ? 0 : 1, 20);
	}
	kill(-pid, SIGKILL);
	if (!exited)
		kill(pid, SIGKILL);
	*st = wait_for(pid);
	free(c.buf);
	close(fd);
	return rc;
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

/* n decimal counts into v (an S or H line): exactly n, nothing after. */
static bool parse_counts(const char *p, uint64_t *v, int n)
{
	char *q;
	for (int i = 0; i < n; i++, p = q) {
		v[i] = strtoull(p, &q, 10);
		if (q == p || *p != ' ')
			return false;
	}
	return *p == '\0' || !strcmp(p, "\n");
}

/* A scheme's statistics line (H: sc_sharp_stats_t, R: sc_refu_stats_t):
 * those structs are their X list's uint64_t fields, in the order rt.c
 * writes them. */
static bool parse_stats(const char *p, void *dst, size_t size)
{
	uint64_t v[32];
	int n = (int)(size / sizeof *v);
	if (n > 32 || !parse_counts(p, v, n))
		return false;
	memcpy(dst, v, size);
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

/* What a golden run reports on the result channel. */
typedef struct gread {
	eng_golden_t *g;
	bool seen_g, ended, bad;
	int due;
	uint32_t nl, cap_l;
} gread_t;

static bool golden_line(void *ctx, char *line)
{
	gread_t *r = ctx;
	eng_golden_t *g = r->g;
	if (line[0] == 'G' && !r->seen_g) {
		r->seen_g = sscanf(line + 1, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu32 " %d", &g->cycles,
		                   &g->totals.cycles, &g->totals.warp_insts, &g->totals.thread_insts, &g->nlaunch,
		                   &r->due) == 6;
		g->totals.launches = g->nlaunch;
		r->bad |= !r->seen_g || g->nlaunch > 10000000;
		if (!r->bad) {
			r->cap_l = g->nlaunch;
			g->launch = calloc(r->cap_l ? r->cap_l : 1, sizeof *g->launch);
			r->bad |= !g->launch;
		}
	} else if (line[0] == 'L' && r->seen_g && !r->bad && r->nl < r->cap_l) {
		r->bad |= !parse_launch(line + 1, &g->launch[r->nl++]);
	} else if (line[0] == 'S' && r->nl && !r->bad) {
		r->bad |= !parse_counts(line + 1, g->launch[r->nl - 1].ib_distinct, SC_IB_SIM_BINS);
	} else if (line[0] == 'P' && r->nl && !r->bad) {
		uint64_t v[4];
		sc_launch_stats_t *l = &g->launch[r->nl - 1];
		r->bad |= !parse_counts(line + 1, v, 4) || v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > UINT32_MAX ||
		          v[3] > UINT32_MAX;
		l->spill_regs = (uint32_t)v[0];
		l->spill_bytes = (uint32_t)v[1];
		l->spill_stores = (uint32_t)v[2];
		l->spill_loads = (uint32_t)v[3];
	} else if (line[0] == 'H' && r->nl && !r->bad) {
		r->bad |= !parse_stats(line + 1, &g->launch[r->nl - 1].sharp, sizeof(sc_sharp_stats_t));
	} else if (line[0] == 'R' && r->nl && !r->bad) {
		r->bad |= !parse_stats(line + 1, &g->launch[r->nl - 1].refu, sizeof(sc_refu_stats_t));
	} else if (line[0] == 'C' && r->seen_g) {
		r->bad |= !parse_ckpt(line + 1, &g->ck);
	} else if (line[0] == 'E') {
		r->ended = true;
	} else {
		r->bad = true;
	}
	return true;
}

/* The golden run's verdict once its program is over (how: what collect
 * returned, st its wait status): 0 or an error code with err. */
static int golden_verdict(const camp_campaign_t *c, const gread_t *r, int how, int st, char *err, size_t errsz)
{
	const char *prog = c->exec->argv[0];
	const eng_golden_t *g = r->g;
	char what[64], line1[200];
	describe_status(st, what, sizeof what);
	first_line(g->err.path, 0, line1, sizeof line1);
	if (how == 1) {
		snprintf(err, errsz, "the fault-free run of '%s' did not end within %g s and was killed (%s; "
		         "golden_watchdog_seconds, profile --golden-timeout)%s%s", prog, c->golden_watchdog_seconds,
		         r->seen_g ? "its GPU work was over: the host program hung" : "it hung before its GPU work was over",
		         *line1 ? "; its stderr: " : "", line1);
		return ENG_EINPUT;
	}
	if (how < 0 || r->bad || (!r->ended && r->seen_g)) {
		snprintf(err, errsz, "'%s' (%s) reported to flipsim in a form it cannot read; is it linked with "
		         "libsimcore " SC_VERSION "?", prog, what);
		return ENG_EINPUT;
	}
	if (!r->seen_g) {
		snprintf(err, errsz, "'%s' %s without simulating anything under flipsim (a program on the "
		         "simcore API, linked with libsimcore " SC_VERSION ", or a CUDA program built with "
		         "'nvcc -cudart shared', is needed)%s%s", prog, what,
		         *line1 ? "; its stderr: " : "", line1);
		return ENG_EINPUT;
	}
	if (r->due == SC_DUE_TIMEOUT && c->golden_cycle_budget) {
		snprintf(err, errsz, "the fault-free run of '%s' did not end within the cycle budget of %" PRIu64 " cycles "
		         "(a kernel still running; golden_cycle_budget, profile --cycle-budget)", prog,
		         c->golden_cycle_budget);
		return ENG_EINPUT;
	}
	if (r->due != SC_DUE_NONE) {
		snprintf(err, errsz, "the fault-free run of '%s' ends in a DUE (%s): nothing to inject into", prog,
		         r->due > 0 && r->due < SC_DUE__COUNT ? sc_due_name((sc_due_t)r->due) : "?");
		return ENG_EDUE;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errsz, "the fault-free run of '%s' %s%s%s", prog, what, *line1 ? "; its stderr: " : "", line1);
		return ENG_EINPUT;
	}
	if (r->nl != g->nlaunch) {
		snprintf(err, errsz, "'%s' reported %" PRIu32 " of %" PRIu32 " launches", prog, r->nl, g->nlaunch);
		return ENG_EINPUT;
	}
	return 0;
}

int eng_golden_exec(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz)
{
	memset(g, 0, sizeof *g);
	g->cfg = c->gpu;
	g->ck.interval = ck_interval;
	scratch_t s;
	char job[4200];
	int rc = scratch_make(&s, err, errsz);
	if (rc)
		return rc;
	/* g owns the folder with the output files (eng_golden_free removes them) */
	snprintf(g->dir, sizeof g->dir, "%s", s.dir);
	scratch_path(&s, "stdout", g->out.path, sizeof g->out.path);
	scratch_path(&s, "stderr", g->err.path, sizeof g->err.path);
	scratch_path(&s, "job", job, sizeof job);
	sc_rt_job_t j = {.mode = SC_RT_GOLDEN, .cfg = c->gpu, .regs = camp_regs_sim(c->regs), .prot = c->prot,
	                 .ck_interval = ck_interval, .cycle_budget = c->golden_cycle_budget,
	                 .ib_similarity = c->golden_ib_similarity};
	if (sc_rt_job_write(job, &j)) {
		snprintf(err, errsz, "cannot write %s: %s", job, strerror(errno));
		rc = ENG_EINTERNAL;
		goto out;
	}
	int rfd, st;
	double t0 = eng_now();
	pid_t pid = start(c->exec, &s, g->out.path, g->err.path, &rfd, err, errsz);
	if (pid < 0) {
		rc = ENG_EINPUT;
		goto out;
	}
	gread_t r = {.g = g};
	double deadline = c->golden_watchdog_seconds > 0 ? t0 + c->golden_watchdog_seconds : 0;
	int how = collect(pid, rfd, deadline, golden_line, &r, &st);
	g->wall = eng_now() - t0;
	g->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	uint64_t chain = CAMP_FNV_OFFSET;
	if (digest_file(&g->out, &chain) || digest_file(&g->err, &chain)) {
		snprintf(err, errsz, "cannot read the output of '%s': %s", c->exec->argv[0], strerror(errno));
		rc = ENG_EINTERNAL;
		goto out;
	}
	g->digest = camp_fnv1a(chain, &g->exit_status, sizeof g->exit_status);
	rc = golden_verdict(c, &r, how, st, err, errsz);
out:
	unlink(job);
	return rc;
}

int eng_exec_args(camp_exec_t *x, int argc, char **argv)
{
	*x = (camp_exec_t){.argv = calloc((size_t)argc + 1, sizeof(char *)), .argc = (uint32_t)argc,
	                   .cwd = getcwd(NULL, 0)};
	if (!x->argv || !x->cwd)
		return ENG_EINTERNAL;
	x->argv[0] = realpath(argv[0], NULL);
	if (!x->argv[0] || access(x->argv[0], X_OK)) {
		eng_errorf("%s: not an executable file (a workload is a *.json file or a host program)", argv[0]);
		return ENG_EINPUT;
	}
	for (int i = 1; i < argc; i++)
		x->argv[i] = argv[i];
	return 0;
}

void eng_exec_args_free(camp_exec_t *x)
{
	if (x->argv)
		free(x->argv[0]);
	free(x->argv);
	free(x->cwd);
}

/* ---- inject mode ---- */

typedef struct xrun {
	const eng_runner_opts_t *o;
	const eng_golden_t *g;
	cls_run_t grun;
	scratch_t s;
	uint64_t reported;
	bool ended;                 /* the program's E line came */
	int rc;                     /* a line that stopped the reading: its error */
	char *err;
	size_t errsz;
} xrun_t;

/* An experiment could not start (exit 125 without a report, rt.c): the message. */
static void not_started(xrun_t *x, const char *ep)
{
	char l1[300];
	first_line(ep, SC_RT_HEADER, l1, sizeof l1);
	snprintf(x->err, x->errsz, "an experiment of '%s' could not start: %s", x->o->campaign->exec->argv[0], l1);
}

/* One X line: classify and emit. Returns false on a malformed line. */
static bool on_result(xrun_t *x, const char *line)
{
	sc_rt_result_t r;
	if (sc_rt_result_parse(line, &r)) {
		snprintf(x->err, x->errsz, "malformed result from the program: %s", line);
		return false;
	}
	char op[4300], ep[4300];
	snprintf(op, sizeof op, "%s/exp/%" PRIu64 ".out", x->s.dir, r.idx);
	snprintf(ep, sizeof ep, "%s/exp/%" PRIu64 ".err", x->s.dir, r.idx);
	if (r.kind == SC_RT_NO_REPORT && r.wstatus >= 0 && WIFEXITED(r.wstatus) && WEXITSTATUS(r.wstatus) == 125) {
		not_started(x, ep);
		return false;
	}
	/* the golden run and the experiment as the classifier sees them: equal
	 * texts as none, differing ones as a window from the first difference */
	cls_run_t gr = x->grun, f = {0};
	diff_t dout, derr;
	bool ran = r.kind == SC_RT_ENDED || r.kind == SC_RT_NO_REPORT;
	int a = ran ? exp_cmp(&x->g->out, op, &dout) : 0, b = ran ? exp_cmp(&x->g->err, ep, &derr) : 0;
	unlink(op);
	unlink(ep);
	if (a < 0 || b < 0) {
		snprintf(x->err, x->errsz, "cannot read %s: %s", a < 0 ? op : ep, strerror(errno));
		return false;
	}
	if (a) {
		gr.stdout_text = dout.g, gr.stdout_len = dout.ng;
		f.stdout_text = dout.f, f.stdout_len = dout.nf;
	}
	if (b) {
		gr.stderr_text = derr.g, gr.stderr_len = derr.ng;
		f.stderr_text = derr.f, f.stderr_len = derr.nf;
	}
	eng_outcome_t o;
	eng_outcome_of(&r, &gr, ran ? &f : NULL, &o);
	x->o->emit(&o, x->o->ctx);
	x->reported++;
	return true;
}

static bool inject_line(void *ctx, char *line)
{
	xrun_t *x = ctx;
	if (line[0] == 'X' && !x->ended) {
		if (!on_result(x, line + 1)) {
			x->rc = ENG_EINTERNAL;
			return false;
		}
	} else if (line[0] == 'E') {
		x->ended = true;
	} else {
		snprintf(x->err, x->errsz, "malformed result from the program: %s", line);
		x->rc = ENG_EINTERNAL;
		return false;
	}
	return true;
}

/* The replay in the parent is the golden run again: a program whose replay
 * differs is not deterministic, and its outcomes mean nothing. st: its wait
 * status. Returns 0 or an error code with the message in x->err. */
static int replay_check(xrun_t *x, const char *outp, const char *errp, int st)
{
	const char *prog = x->o->campaign->exec->argv[0];
	diff_t d;
	int fo = open(outp, O_RDONLY | O_CLOEXEC), fe = open(errp, O_RDONLY | O_CLOEXEC);
	int a = fo < 0 ? -1 : text_cmp(&x->g->out, fo, 0, 0, &d), b = fe < 0 ? -1 : text_cmp(&x->g->err, fe, 0, 0, &d);
	if (fo >= 0)
		close(fo);
	if (fe >= 0)
		close(fe);
	if (a < 0 || b < 0) {
		snprintf(x->err, x->errsz, "cannot read the output of '%s'", prog);
		return ENG_EINTERNAL;
	}
	bool status = !WIFEXITED(st) || WEXITSTATUS(st) != x->g->exit_status;
	if (a || b || status) {
		char what[64];
		describe_status(st, what, sizeof what);
		snprintf(x->err, x->errsz, "'%s' is not deterministic: its fault-free replay (%s) gave another %s than the "
		         "golden run; flipsim needs the same output for the same input every time", prog, what,
		         a ? "stdout" : b ? "stderr" : "exit status");
		return ENG_EINPUT;
	}
	return 0;
}

/* Runs experiments exps[0..n) in one run of the program. */
static int inject_run(xrun_t *x, const eng_exp_t *exps, uint64_t n, char *err, size_t errsz)
{
	const camp_campaign_t *c = x->o->campaign;
	char path[4200], outp[4200], errp[4200], dir[4200];
	int rc = scratch_make(&x->s, err, errsz);
	if (rc)
		return rc;
	scratch_path(&x->s, "exp", dir, sizeof dir);
	scratch_path(&x->s, "stdout", outp, sizeof outp);
	scratch_path(&x->s, "stderr", errp, sizeof errp);
	sc_rt_job_t job = {.mode = SC_RT_INJECT, .cfg = c->gpu, .regs = camp_regs_sim(c->regs), .prot = c->prot,
	                   .stdout_path = outp, .stderr_path = errp, .out_dir = dir};
	eng_rt_plan(x->o, x->g, exps, n, &job.plan);
	scratch_path(&x->s, "job", path, sizeof path);
	if (mkdir(dir, 0700) || sc_rt_job_write(path, &job)) {
		snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
		rc = ENG_EINTERNAL;
		goto out;
	}
	int rfd, st;
	pid_t pid = start(c->exec, &x->s, outp, errp, &rfd, err, errsz);
	if (pid < 0) {
		rc = ENG_EINPUT;
		goto out;
	}
	uint64_t before = x->reported;
	x->ended = false;
	x->rc = 0;
	x->err = err;
	x->errsz = errsz;
	if (collect(pid, rfd, 0, inject_line, x, &st)) {
		if (!x->rc)
			snprintf(err, errsz, "cannot read the results of '%s'", c->exec->argv[0]);
		rc = x->rc ? x->rc : ENG_EINTERNAL;
		goto out;
	}
	if (!x->ended || x->reported - before != n) {
		char what[64];
		describe_status(st, what, sizeof what);
		snprintf(err, errsz, "'%s' %s after reporting %" PRIu64 " of %" PRIu64 " experiments", c->exec->argv[0],
		         what, x->reported - before, n);
		rc = ENG_EINTERNAL;
		goto out;
	}
	rc = replay_check(x, outp, errp, st);
out:
	scratch_remove(&x->s);
	return rc;
}

/* eng_runner for a host program: the program runs the experiments. */
static int runner_exec(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz)
{
	eng_golden_t own;
	const eng_golden_t *g = o->golden ? o->golden : &own;
	/* no record from the daemon: the golden run here */
	int rc = o->golden ? 0 : eng_golden_exec(o->campaign, o->ck_interval, &own, err, errsz);
	xrun_t x = {.o = o, .g = g};
	/* outputs are compared as streams (on_result): the classifier sees texts
	 * only where they differ */
	x.grun = (cls_run_t){.exit_status = g->exit_status};
	if (!rc && nexp) {
		if (o->no_fork) /* every experiment from cycle 0: a run of the program each */
			for (uint64_t i = 0; i < nexp && !rc; i++)
				rc = inject_run(&x, &exps[i], 1, err, errsz);
		else
			rc = inject_run(&x, exps, nexp, err, errsz);
	}
	if (!o->golden)
		eng_golden_free(&own);
	return rc;
}

/* A host program's name: its file's base name. */
static const char *name_exec(const camp_campaign_t *c)
{
	const char *p = c->exec->argv[0], *slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

const eng_driver_t eng_driver_exec = {.kind = "exec", .outputs = false, .name = name_exec, .golden = eng_golden_exec,
                                      .run = runner_exec};
