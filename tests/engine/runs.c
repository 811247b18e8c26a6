/* Shared helpers of the engine's runner tests (runs.h). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
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

void runs_thin(setup_t *s)
{
	const char *env = getenv("FLIPSIM_TEST_THIN");
	uint64_t k = env ? strtoull(env, NULL, 10) : 0, n = 0;
	if (k < 2)
		return;
	for (uint64_t i = 0; i < s->p.n; i += k, n++) {
		s->e[n] = s->e[i];
		s->e[n].idx = n;
	}
	s->p.n = n;
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

const char *runs_flipsim_path(void)
{
	const char *b = getenv("FLIPSIM");
	return b ? b : "build/flipsim";
}

/* In the child of runs_spawn: its files and limits as o asks. */
static void child_setup(const spawn_opts_t *o)
{
	int out = open(o && o->out ? o->out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	dup2(out, 1);
	if (o && o->err) {
		int e = open(o->err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		dup2(e, 2);
	}
	if (o && o->fsize) {
		/* as a shell starts it: flipsim itself must turn the signal
		 * into a failed write, not a silent death (exit 153) */
		signal(SIGXFSZ, SIG_DFL);
		struct rlimit r = {(rlim_t)o->fsize, (rlim_t)o->fsize};
		setrlimit(RLIMIT_FSIZE, &r);
	}
	if (o && o->nobody && geteuid() == 0 && (setgid(65534) || setuid(65534)))
		_exit(126);
}

pid_t runs_spawn(const char *const *args, const spawn_opts_t *o)
{
	char *argv[16];
	int n = 0;
	argv[n++] = (char *)runs_flipsim_path();
	while (*args && n < 15)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		child_setup(o);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int runs_status(int wstatus)
{
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

int runs_wait(pid_t pid)
{
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return runs_status(st);
}

int runs_flipsim(const char *const *args, const spawn_opts_t *o)
{
	return runs_wait(runs_spawn(args, o));
}

char *runs_flipsim_err(const char *const *args, const spawn_opts_t *o, int *status)
{
	cr_assert(o && o->err);
	*status = runs_flipsim(args, o);
	return runs_slurp(o->err);
}

char *runs_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return strdup("");
	size_t cap = 4096, len = 0, k;
	char *b = malloc(cap + 1);
	while ((k = fread(b + len, 1, cap - len, f)) > 0)
		if ((len += k) == cap)
			b = realloc(b, (cap *= 2) + 1);
	b[len] = 0;
	fclose(f);
	return b;
}

void runs_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

void runs_writef(const char *path, const char *fmt, ...)
{
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

const char *runs_test_host(const char *name)
{
	static char path[4096];
	const char *host = getenv("FLIPSIM_TEST_HOST");
	cr_assert(host && *host, "FLIPSIM_TEST_HOST must name build/tests/vadd_host (make unit sets it)");
	char *abs = realpath(host, NULL);
	cr_assert(abs);
	snprintf(path, sizeof path, "%s/%s", dirname(abs), name);
	free(abs);
	cr_assert_eq(access(path, X_OK), 0, "%s: make builds it with the unit tests", path);
	return path;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

void runs_rm_dir(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The template mkdtemp and mkstemp fill in: $TMPDIR/flipsim-TAG- and the
 * six 'X' characters they replace. */
static void tmp_template(char *path, size_t n, const char *tag)
{
	const char *t = getenv("TMPDIR");
	int len = snprintf(path, n, "%s/flipsim-%s-", t && *t ? t : "/tmp", tag);
	cr_assert(len >= 0 && (size_t)len + 6 < n, "no room for a temporary name under %s", t ? t : "/tmp");
	memset(path + len, 'X', 6);
	path[len + 6] = '\0';
}

void runs_tmpdir(char *dir, size_t n, const char *tag)
{
	tmp_template(dir, n, tag);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp %s: %s", dir, strerror(errno));
}

void runs_tmpfile(char *path, size_t n, const char *tag)
{
	tmp_template(path, n, tag);
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp %s: %s", path, strerror(errno));
	close(fd);
}

void runs_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* The bit of sig in /proc/PID/status's SigCgt (signals with a handler). */
static bool handles(pid_t pid, int sig)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	bool yes = false;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "SigCgt:", 7)) {
			yes = (strtoull(line + 7, NULL, 16) >> (sig - 1)) & 1u;
			break;
		}
	if (f)
		fclose(f);
	return yes;
}

bool runs_wait_handler(pid_t pid, int sig, long timeout_ms)
{
	for (long t = 0; t < timeout_ms; t += 10) {
		if (handles(pid, sig))
			return true;
		runs_sleep_ms(10);
	}
	return handles(pid, sig);
}

void runs_rm_db(const char *path)
{
	char side[600];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
}
