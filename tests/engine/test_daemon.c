/* flipsim run as a user runs it, and what it guarantees (README, "What
 * flipsim guarantees"): the same experiments table every time; the daemon
 * killed (SIGKILL) or stopped (SIGTERM) at 20 moments, or its runners killed
 * at 20 moments, and resumed: the same final table, no duplicates, no gaps,
 * integrity_check ok; a full disk, a locked, read-only, newer or foreign
 * database: a clear error, exit 2, nothing stored lost; a workload whose
 * every experiment crashes or hangs; readers while a campaign writes. Runs
 * build/flipsim (make builds it before the unit tests) and reads the
 * databases with the SQLite C API. Kill moments are drawn from fixed seeds
 * and placed by the campaign's progress, not by the clock; waits poll with
 * time limits. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *flipsim(void)
{
	const char *b = getenv("FLIPSIM");
	return b ? b : "build/flipsim";
}

static pid_t start(const char *campaign, const char *db)
{
	char *argv[] = {(char *)flipsim(), "run", (char *)campaign, "--db", (char *)db, "-j", "2", "--quiet", NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	cr_assert_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0, "cannot start %s", argv[0]);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

static int finish(pid_t pid)
{
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void tmpdb(char *buf, size_t n, const char *tag)
{
	snprintf(buf, n, "/tmp/flipsim-test-%d-%s.db", (int)getpid(), tag);
	char side[600];
	unlink(buf);
	snprintf(side, sizeof side, "%s-wal", buf);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", buf);
	unlink(side);
}

/* The experiments table as text, one line per experiment in index order,
 * plus counts and an integrity check. */
static char *table(const char *path, long *rows, long *distinct)
{
	sqlite3 *db;
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_expect_str_eq((const char *)sqlite3_column_text(s, 0), "ok");
	sqlite3_finalize(s);
	cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*), count(DISTINCT idx) FROM experiments", -1, &s, NULL),
	             SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	*rows = sqlite3_column_int64(s, 0);
	*distinct = sqlite3_column_int64(s, 1);
	sqlite3_finalize(s);
	cr_assert_eq(sqlite3_prepare_v2(db,
	                                "SELECT idx, outcome, coalesce(reason, ''), cycles, early FROM experiments "
	                                "ORDER BY idx",
	                                -1, &s, NULL),
	             SQLITE_OK);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (len + 256 > cap)
			out = realloc(out, cap *= 2);
		len += (size_t)snprintf(out + len, cap - len, "%lld %s %s %lld %d\n", sqlite3_column_int64(s, 0),
		                        (const char *)sqlite3_column_text(s, 1), (const char *)sqlite3_column_text(s, 2),
		                        sqlite3_column_int64(s, 3), sqlite3_column_int(s, 4));
	}
	out[len] = 0;
	sqlite3_finalize(s);
	sqlite3_close(db);
	return out;
}

#define CAMPAIGN "tests/engine/data/vadd4k-regfile.json"
#define BIG "examples/campaigns/vadd-regfile.json"

Test(daemon, same_campaign_same_table, .timeout = 120)
{
	char a[512], b[512];
	tmpdb(a, sizeof a, "det-a");
	tmpdb(b, sizeof b, "det-b");
	cr_assert_eq(finish(start(CAMPAIGN, a)), 0);
	cr_assert_eq(finish(start(CAMPAIGN, b)), 0);
	long ra, da, rb, db_;
	char *ta = table(a, &ra, &da), *tb = table(b, &rb, &db_);
	cr_expect_eq(ra, 600);
	cr_expect_eq(da, 600);
	cr_expect_str_eq(ta, tb);
	free(ta);
	free(tb);
	unlink(a);
	unlink(b);
}


/* ---- helpers for the robustness tests ------------------------------------ */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

typedef struct spawn_opts {
	const char *err;   /* stderr into this file (NULL: inherited) */
	long fsize;        /* RLIMIT_FSIZE in bytes (0: none): a full disk */
	bool nobody;       /* as root, run as uid/gid 65534 (permissions apply) */
} spawn_opts_t;

/* Starts flipsim with args (NULL-terminated, without the program). */
static pid_t spawn_flipsim(const char *const *args, const spawn_opts_t *o)
{
	char *argv[16];
	int n = 0;
	argv[n++] = (char *)flipsim();
	while (*args && n < 15)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int out = open("/dev/null", O_WRONLY);
		dup2(out, 1);
		if (o && o->err) {
			int e = open(o->err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
			dup2(e, 2);
		}
		if (o && o->fsize) {
			signal(SIGXFSZ, SIG_IGN); /* a failed write, not a dead process */
			struct rlimit r = {(rlim_t)o->fsize, (rlim_t)o->fsize};
			setrlimit(RLIMIT_FSIZE, &r);
		}
		if (o && o->nobody && geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Runs flipsim to its end; returns its exit status (128+N for signal N). */
static int run_flipsim(const char *const *args, const spawn_opts_t *o)
{
	return finish(spawn_flipsim(args, o));
}

static char *slurp(const char *path)
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

/* Experiments stored so far, read as another process would (0 before the
 * table exists). */
static long rows_now(const char *path)
{
	sqlite3 *db;
	long n = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, 1000);
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(db, "SELECT count(*) FROM experiments", -1, &s, NULL) == SQLITE_OK) {
			if (sqlite3_step(s) == SQLITE_ROW)
				n = sqlite3_column_int64(s, 0);
			sqlite3_finalize(s);
		}
	}
	sqlite3_close(db);
	return n;
}

/* Polls until at least `want` experiments are stored (true) or pid exits
 * (false; *status is its status), for at most `limit` seconds. */
static bool wait_rows(const char *path, pid_t pid, long want, double limit, int *status)
{
	double t0 = now_s();
	while (now_s() - t0 < limit) {
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return false;
		}
		if (rows_now(path) >= want)
			return true;
		sleep_ms(2);
	}
	cr_assert_fail("%s: %ld experiments not stored within %.0f s", path, want, limit);
	return false;
}

/* Every line of `part` is a line of `whole` (tables from table()). */
static void expect_lines_within(const char *part, const char *whole, const char *what)
{
	size_t bad = 0;
	for (const char *p = part; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char line[300];
		snprintf(line, sizeof line, "\n%.*s", (int)len, p);
		if (!(strncmp(whole, line + 1, len) == 0 || strstr(whole, line)))
			bad++;
		p += len;
	}
	cr_expect_eq(bad, 0, "%zu lines %s", bad, what);
}

static void rm_db(const char *path)
{
	char side[600];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
}

/* The reference: an uninterrupted run of the campaign into path. */
static char *reference(const char *campaign, char path[512], long want)
{
	tmpdb(path, 512, "ref");
	double t0 = now_s();
	cr_assert_eq(finish(start(campaign, path)), 0);
	cr_log_info("reference run of %s: %.2f s", campaign, now_s() - t0);
	long r, d;
	char *t = table(path, &r, &d);
	cr_assert_eq(r, want);
	cr_assert_eq(d, want);
	return t;
}

/* The final table of hit equals ref, with no duplicates or gaps. */
static void expect_same_table(const char *hit, const char *ref_table, long want)
{
	long r, d;
	char *t = table(hit, &r, &d);
	cr_expect_eq(r, want, "none missing");
	cr_expect_eq(d, r, "no duplicates");
	cr_expect_str_eq(t, ref_table, "the same final table as an uninterrupted run");
	free(t);
}

/* ---- soak: 20 kills, then resume ---------------------------------------- */

#define SOAK_KILLS 20

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* 20 moments: a few during set-up (a delay after the start: the golden run,
 * storing the masks, the workers' golden runs), the rest at a number of
 * stored experiments, each followed by a delay that puts the signal between
 * two commits. Drawn from `seed`: the same moments every run. */
typedef struct moment {
	long rows;     /* -1: during set-up */
	long delay_ms;
} moment_t;

static void moments(unsigned seed, long n, long max_delay_ms, moment_t *m)
{
	/* n: the experiments within which the moments fall */
	srand(seed);
	long at[SOAK_KILLS];
	int k = 0;
	for (int i = 0; i < SOAK_KILLS; i++)
		at[i] = (i % 4 == 0) ? -1 : (long)(rand() % (int)n);
	qsort(at, SOAK_KILLS, sizeof at[0], cmp_long);
	for (int i = 0; i < SOAK_KILLS; i++) {
		m[k].rows = at[i];
		m[k++].delay_ms = rand() % max_delay_ms;
	}
}

static void daemon_soak(int sig, unsigned seed, const char *tag)
{
	char ref[512], hit[512];
	char *tr = reference(BIG, ref, 2000);
	tmpdb(hit, sizeof hit, tag);
	moment_t m[SOAK_KILLS];
	moments(seed, 1800, 150, m);
	int interrupted = 0;
	double t0 = now_s();
	for (int i = 0; i < SOAK_KILLS; i++) {
		pid_t pid = start(BIG, hit);
		int st = -1;
		if (m[i].rows >= 0 && !wait_rows(hit, pid, m[i].rows, 60, &st)) {
			cr_expect_eq(st, 0);
			continue; /* it ended before the moment came */
		}
		sleep_ms(m[i].delay_ms);
		kill(pid, sig);
		st = finish(pid);
		if (st != 0) {
			cr_expect_eq(st, 128 + sig, "stopped by the signal, no other failure");
			interrupted++;
		}
	}
	cr_assert_eq(finish(start(BIG, hit)), 0, "the last resume completes");
	cr_log_info("%s: %d of %d signals landed while it ran; %.2f s in all", tag, interrupted, SOAK_KILLS,
	            now_s() - t0);
	cr_expect_geq(interrupted, SOAK_KILLS * 3 / 4, "most moments fall inside a run");
	expect_same_table(hit, tr, 2000);
	free(tr);
	rm_db(ref);
	rm_db(hit);
}

Test(daemon, sigkill_20_times_then_resume, .timeout = 300) { daemon_soak(SIGKILL, 12345, "kill"); }
Test(daemon, sigterm_20_times_then_resume, .timeout = 300) { daemon_soak(SIGTERM, 4242, "term"); }

/* The processes whose parent is ppid. */
static int children(pid_t ppid, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) && n < max) {
		char path[300], buf[512];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t k = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[k] = 0;
		char *rp = strrchr(buf, ')'); /* the name may hold spaces */
		char state;
		int parent;
		if (rp && sscanf(rp + 2, "%c %d", &state, &parent) == 2 && parent == ppid && state != 'Z')
			out[n++] = (pid_t)atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

/* Runners killed instead of the daemon: at 20 moments a `flipsim worker`
 * (SIGKILL) or an experiment child it forked (SIGKILL, as the OOM killer
 * would). The daemon restarts a dead worker for the experiments it has not
 * reported; an experiment killed from outside is no outcome and runs
 * again. The campaign completes in the same run with the reference table. */
Test(daemon, runners_killed_20_times, .timeout = 300)
{
	char ref[512], hit[512];
	char *tr = reference(BIG, ref, 2000);
	tmpdb(hit, sizeof hit, "runners");
	moment_t m[SOAK_KILLS];
	moments(777, 600, 20, m); /* restarts and searches for a child take time: early on */
	char errf[600];
	snprintf(errf, sizeof errf, "%s.err", hit);
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t so = {.err = errf};
	double t0 = now_s();
	pid_t pid = spawn_flipsim(args, &so);
	int workers = 0, experiments = 0, st = -1;
	bool ended = false;
	for (int i = 0; i < SOAK_KILLS && !ended; i++) {
		if (m[i].rows >= 0 && !wait_rows(hit, pid, m[i].rows, 60, &st)) {
			ended = true;
			break;
		}
		sleep_ms(m[i].delay_ms);
		pid_t w[8], x[8];
		int nw = 0, nx = 0;
		/* set-up moments: as soon as a worker runs (its golden run) */
		for (double t1 = now_s(); (nw = children(pid, w, 8)) == 0 && now_s() - t1 < 10;)
			sleep_ms(1);
		/* odd moments: an experiment child, when one runs within 100 ms */
		for (double t1 = now_s(); i % 2 && nx == 0 && now_s() - t1 < 0.1;) {
			for (int k = 0; k < nw && nx == 0; k++)
				nx = children(w[k], x, 8);
			if (!nx)
				sleep_ms(1);
		}
		if (nx) {
			kill(x[0], SIGKILL);
			experiments++;
		} else if (nw) {
			/* the oldest worker (lowest pid): a restarted one gets time to
			 * report before it can be killed again */
			pid_t oldest = w[0];
			for (int k = 1; k < nw; k++)
				oldest = w[k] < oldest ? w[k] : oldest;
			kill(oldest, SIGKILL);
			workers++;
		}
	}
	if (!ended)
		st = finish(pid);
	char *err = slurp(errf);
	cr_log_info("runners: %d workers and %d experiment children killed; %.2f s", workers, experiments, now_s() - t0);
	cr_expect_eq(st, 0, "the campaign completes in the same run: %s", err);
	cr_expect_geq(workers + experiments, SOAK_KILLS * 3 / 4, "most moments fall inside the run");
	cr_expect_geq(workers, 1);
	cr_expect_geq(experiments, 1);
	if (workers)
		cr_expect(strstr(err, "restarted for its"), "a killed worker is restarted: %s", err);
	if (experiments)
		cr_expect(strstr(err, "from outside: not an outcome"), "%s", err);
	expect_same_table(hit, tr, 2000);
	free(err);
	free(tr);
	unlink(errf);
	rm_db(ref);
	rm_db(hit);
}

/* ---- the database fails under a campaign ---------------------------------- */

/* A campaign stopped (SIGTERM) once some experiments are stored: returns
 * their table, the experiments that must survive what follows. */
static char *partly_run(const char *hit, long *rows)
{
	pid_t pid = start(BIG, hit);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "the campaign ended before it could be stopped (%d)", st);
	kill(pid, SIGTERM);
	cr_assert_eq(finish(pid), 128 + SIGTERM);
	long d;
	char *t = table(hit, rows, &d);
	cr_assert_gt(*rows, 0);
	cr_assert_lt(*rows, 2000);
	return t;
}

/* After a failure: integrity ok, no duplicates, every experiment stored
 * before it still there, every stored one the reference's. */
static long expect_nothing_lost(const char *hit, const char *before, const char *ref_table)
{
	long r, d;
	char *t = table(hit, &r, &d);
	cr_expect_eq(d, r, "no duplicates");
	expect_lines_within(before, t, "stored before the failure are missing");
	expect_lines_within(t, ref_table, "differ from the reference run's");
	free(t);
	return r;
}

/* A full disk under a running campaign: every file write past 64 KiB fails
 * (RLIMIT_FSIZE, as a full disk fails SQLite's writes). The failed commit
 * stops the campaign with a clear error and exit 2; everything committed
 * before stays; a re-run once there is room resumes to the reference. */
Test(daemon, full_disk_stops_cleanly_and_resumes, .timeout = 300)
{
	char ref[512], hit[512], errf[600];
	char *tr = reference(BIG, ref, 2000);
	tmpdb(hit, sizeof hit, "full");
	snprintf(errf, sizeof errf, "%s.err", hit);
	long before_rows;
	char *before = partly_run(hit, &before_rows);
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t full = {.err = errf, .fsize = 64 * 1024};
	cr_expect_eq(run_flipsim(args, &full), 2);
	char *err = slurp(errf);
	cr_expect(strstr(err, hit), "the message names the file: %s", err);
	cr_expect(strstr(err, "the disk is full or the file reached a size limit"), "%s", err);
	cr_expect(strstr(err, "stopped:") && strstr(err, "run the same command again"), "%s", err);
	long after = expect_nothing_lost(hit, before, tr);
	cr_expect_lt(after, 2000, "the campaign stopped at the failure");
	cr_log_info("full disk: %ld stored before, %ld when the disk filled", before_rows, after);
	spawn_opts_t room = {.err = errf};
	cr_expect_eq(run_flipsim(args, &room), 0, "a re-run resumes");
	expect_same_table(hit, tr, 2000);
	free(err);
	free(before);
	free(tr);
	unlink(errf);
	rm_db(ref);
	rm_db(hit);
}

/* Another process takes the write lock mid-campaign and keeps it past the
 * busy timeout (5 s): the next commit fails as locked, the campaign stops
 * with exit 2 and nothing stored is lost; readers are never blocked. */
Test(daemon, locked_mid_campaign_stops_cleanly_and_resumes, .timeout = 300)
{
	char ref[512], hit[512], errf[600];
	char *tr = reference(BIG, ref, 2000);
	tmpdb(hit, sizeof hit, "lock");
	snprintf(errf, sizeof errf, "%s.err", hit);
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t so = {.err = errf};
	pid_t pid = spawn_flipsim(args, &so);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "ended before the lock (%d)", st);
	sqlite3 *lk;
	cr_assert_eq(sqlite3_open(hit, &lk), SQLITE_OK);
	sqlite3_busy_timeout(lk, 10000);
	cr_assert_eq(sqlite3_exec(lk, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(lk));
	long before_rows;
	long d;
	char *before = table(hit, &before_rows, &d); /* a reader, under the lock */
	double t0 = now_s();
	st = finish(pid);
	double waited = now_s() - t0;
	cr_assert_eq(sqlite3_exec(lk, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(lk);
	char *err = slurp(errf);
	if (st == 0) {
		cr_log_warn("the campaign ended before its next commit: nothing to check");
	} else {
		cr_expect_eq(st, 2, "%s", err);
		cr_expect(strstr(err, "database is locked") && strstr(err, hit), "%s", err);
		cr_expect(strstr(err, "stopped:"), "%s", err);
		cr_expect_lt(waited, 30, "it gave up after the busy timeout");
		long after = expect_nothing_lost(hit, before, tr);
		cr_log_info("locked: %ld stored before the lock, %ld after; gave up after %.1f s", before_rows, after, waited);
		cr_expect_eq(run_flipsim(args, &so), 0, "a re-run resumes");
	}
	expect_same_table(hit, tr, 2000);
	free(err);
	free(before);
	free(tr);
	unlink(errf);
	rm_db(ref);
	rm_db(hit);
}

/* The whole file, for "nothing changed". */
static bool same_bytes(const char *a, size_t alen, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char *b = malloc(alen + 1);
	size_t n = fread(b, 1, alen + 1, f);
	fclose(f);
	bool same = n == alen && memcmp(a, b, alen) == 0;
	free(b);
	return same;
}

static size_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (size_t)sb.st_size : 0;
}

/* run, status and report on path: each exits `want[i]`, a failure names
 * the file and says `why`; the file's bytes do not change, and a refusal
 * leaves no -wal beside it. */
static void three_commands(const char *path, const int want[3], const char *why, bool nobody)
{
	char errf[600], wal[600];
	snprintf(errf, sizeof errf, "/tmp/flipsim-test-%d-cmd.err", (int)getpid());
	snprintf(wal, sizeof wal, "%s-wal", path);
	size_t len = file_size(path);
	char *bytes = slurp(path);
	bool had_wal = access(wal, F_OK) == 0;
	const char *cmds[3][8] = {{"run", CAMPAIGN, "--db", path, "-j", "1", "--quiet", NULL},
	                          {"status", path, NULL},
	                          {"report", path, NULL}};
	for (int i = 0; i < 3; i++) {
		spawn_opts_t so = {.err = errf, .nobody = nobody};
		int st = run_flipsim(cmds[i], &so);
		char *err = slurp(errf);
		cr_expect_eq(st, want[i], "%s %s: exit %d: %s", cmds[i][0], path, st, err);
		if (want[i])
			cr_expect(strstr(err, path) && strstr(err, why), "%s: '%s' lacks the file or '%s'", cmds[i][0], err,
			          why);
		free(err);
		cr_expect(same_bytes(bytes, len, path), "%s changed %s", cmds[i][0], path);
		if (want[i] && !had_wal)
			cr_expect_neq(access(wal, F_OK), 0, "%s left a -wal file", cmds[i][0]);
	}
	free(bytes);
	unlink(errf);
}

/* The results of a finished campaign in a fresh folder of their own. */
static void finished_db(char dir[64], char path[128])
{
	snprintf(dir, 64, "/tmp/flipsim-refuse-XXXXXX");
	cr_assert(mkdtemp(dir));
	chmod(dir, 0755);
	snprintf(path, 128, "%s/r.db", dir);
	cr_assert_eq(finish(start(CAMPAIGN, path)), 0);
}

static void sql_on(const char *path, const char *sql)
{
	sqlite3 *s;
	cr_assert_eq(sqlite3_open(path, &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(s));
	sqlite3_close(s);
}

Test(daemon, newer_or_foreign_database_refused_untouched, .timeout = 120)
{
	char dir[64], path[128], other[160];
	finished_db(dir, path);
	/* a newer schema: refused by every command, not a byte written */
	sql_on(path, "PRAGMA user_version = 99");
	int refused[3] = {2, 2, 2};
	three_commands(path, refused, "written by a newer flipsim (schema 99", false);
	/* an SQLite file of another application, and a file that is not SQLite */
	snprintf(other, sizeof other, "%s/other.db", dir);
	sql_on(other, "PRAGMA application_id = 42; CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine')");
	three_commands(other, refused, "not a flipsim database (application_id 0x0000002a)", false);
	unlink(other);
	FILE *f = fopen(other, "w");
	fputs("experiment results, kept as text\n", f);
	fclose(f);
	three_commands(other, refused, "not a flipsim database (not an SQLite file)", false);
	unlink(other);
	rm_db(path);
	rmdir(dir);
}

/* A read-only file: run refuses it (exit 2) before touching it; status and
 * report read it. The same in a read-only folder, where SQLite could not
 * create the WAL's -shm: read as an immutable file. As root, the commands
 * run as nobody so that permissions apply. */
Test(daemon, read_only_database, .timeout = 120)
{
	char dir[64], path[128];
	finished_db(dir, path);
	if (geteuid() == 0) {
		cr_assert_eq(chown(dir, 65534, 65534), 0);
		cr_assert_eq(chown(path, 65534, 65534), 0);
	}
	cr_assert_eq(chmod(path, 0444), 0);
	int reads[3] = {2, 0, 0};
	three_commands(path, reads, "read-only (no write permission)", true);
	cr_assert_eq(chmod(dir, 0555), 0);
	three_commands(path, reads, "read-only (no write permission)", true);
	cr_assert_eq(chmod(path, 0644), 0);
	three_commands(path, reads, "its folder is read-only", true);
	chmod(dir, 0755);
	rm_db(path);
	rmdir(dir);
}

/* A lock held at the start: run gives up after the busy timeout with exit
 * 2 instead of waiting forever; status and report read meanwhile. */
Test(daemon, locked_database_refused_after_busy_timeout, .timeout = 120)
{
	char dir[64], path[128];
	finished_db(dir, path);
	sqlite3 *lk;
	cr_assert_eq(sqlite3_open(path, &lk), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(lk, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	double t0 = now_s();
	int want[3] = {2, 0, 0};
	three_commands(path, want, "database is locked (another process held a lock past the busy timeout)", false);
	double took = now_s() - t0;
	cr_expect_lt(took, 30, "run gave up after the busy timeout");
	cr_log_info("locked at start: run refused and status, report read in %.1f s", took);
	sqlite3_exec(lk, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(lk);
	rm_db(path);
	rmdir(dir);
}

/* ---- workloads that fail in every experiment ------------------------------ */

/* The campaign of tests/engine/data/doomed_host.c in `mode` (segv, hang)
 * on the one-SM test GPU, live sampling (every fault lands in a register in
 * use, so every experiment runs), written to dir/doomed.json. */
static void doomed_campaign(const char *dir, const char *mode, int injections, char *path, size_t n)
{
	const char *host = getenv("FLIPSIM_TEST_HOST");
	cr_assert(host && *host, "FLIPSIM_TEST_HOST must name build/tests/vadd_host (make unit sets it)");
	char *abs = realpath(host, NULL), *root = getcwd(NULL, 0);
	cr_assert(abs && root);
	snprintf(path, n, "%s/doomed-%s.json", dir, mode);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "{\"name\": \"doomed-%s\", \"workload\": {\"exec\": [\"%s/doomed_host\", \"%s\", "
	        "\"examples/vadd/vadd.ptx\"], \"cwd\": \"%s\"}, \"gpu\": \"%s/tests/engine/data/tiny-gpu.json\", "
	        "\"target\": \"regfile\", \"sampling\": \"live\", \"injections\": %d, \"seed\": 3, "
	        "\"watchdog_seconds\": 1}\n",
	        mode, dirname(abs), mode, root, root, injections);
	fclose(f);
	free(abs);
	free(root);
}

/* Counts of (outcome, reason) in the experiments of path, as "due crash:SIGSEGV 40\n". */
static char *outcomes(const char *path)
{
	sqlite3 *db;
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(db, "SELECT outcome, coalesce(reason, ''), count(*) FROM experiments "
	                                    "GROUP BY 1, 2 ORDER BY 1, 2", -1, &s, NULL),
	             SQLITE_OK);
	char *out = calloc(1, 4096);
	size_t len = 0;
	while (sqlite3_step(s) == SQLITE_ROW && len < 3900)
		len += (size_t)snprintf(out + len, 4096 - len, "%s %s %lld\n", (const char *)sqlite3_column_text(s, 0),
		                        (const char *)sqlite3_column_text(s, 1), sqlite3_column_int64(s, 2));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return out;
}

static void doomed(const char *mode, int injections, const char *want)
{
	char dir[64], camp[200], db[200];
	snprintf(dir, sizeof dir, "/tmp/flipsim-doomed-XXXXXX");
	cr_assert(mkdtemp(dir));
	doomed_campaign(dir, mode, injections, camp, sizeof camp);
	snprintf(db, sizeof db, "%s/r.db", dir);
	/* --no-early: an experiment that re-joins the golden state would stop
	 * before its host code runs on */
	const char *args[] = {"run", camp, "--db", db, "-j", "2", "--no-early", "--quiet", NULL};
	double t0 = now_s();
	cr_assert_eq(run_flipsim(args, NULL), 0, "the campaign completes");
	cr_log_info("doomed %s: %d experiments in %.2f s", mode, injections, now_s() - t0);
	char *got = outcomes(db);
	cr_expect_str_eq(got, want);
	free(got);
	rm_db(db);
	unlink(camp);
	rmdir(dir);
}

/* The host code crashes in every experiment: each one is DUE crash:SIGSEGV,
 * and the campaign completes. */
Test(daemon, workload_crashing_in_every_experiment, .timeout = 120) { doomed("segv", 40, "due crash:SIGSEGV 40\n"); }

/* The host code hangs in every experiment: each one is ended by its alarm
 * (watchdog_seconds = 1) as DUE watchdog, and the campaign completes. */
Test(daemon, workload_hanging_in_every_experiment, .timeout = 120) { doomed("hang", 6, "due watchdog 6\n"); }

/* ---- readers while a campaign writes ------------------------------------- */

/* flipsim status and report, run again and again, and another connection
 * holding one read transaction open for the whole campaign (as the sqlite3
 * shell would): all succeed, the held snapshot does not move, and the
 * campaign completes with the reference table in about the time it takes
 * alone. */
Test(daemon, readers_do_not_block_the_campaign, .timeout = 300)
{
	char ref[512], hit[512];
	double t0 = now_s();
	char *tr = reference(BIG, ref, 2000);
	double alone = now_s() - t0;
	tmpdb(hit, sizeof hit, "readers");
	t0 = now_s();
	pid_t pid = start(BIG, hit);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "ended before any reader (%d)", st);
	sqlite3 *rd;
	cr_assert_eq(sqlite3_open_v2(hit, &rd, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(rd, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	long snap = -1, again = -1;
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(rd, "SELECT count(*) FROM experiments", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	snap = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	int reads = 0, failed = 0;
	for (;;) {
		int w;
		if (waitpid(pid, &w, WNOHANG) == pid) {
			st = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
			break;
		}
		const char *status[] = {"status", hit, NULL}, *report[] = {"report", hit, "--csv", NULL};
		failed += run_flipsim(reads % 2 ? report : status, NULL) != 0;
		reads++;
	}
	double with = now_s() - t0;
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	again = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_exec(rd, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(rd);
	cr_log_info("readers: %d status/report runs while it ran; %.2f s with readers, %.2f s alone", reads, with,
	            alone);
	cr_expect_eq(st, 0, "the campaign completes");
	cr_expect_eq(failed, 0, "every status and report succeeded");
	cr_expect_geq(reads, 2);
	cr_expect_eq(again, snap, "the open read transaction kept its snapshot");
	cr_expect_lt(with, 3 * alone + 5, "not blocked: %.2f s against %.2f s alone", with, alone);
	expect_same_table(hit, tr, 2000);
	free(tr);
	rm_db(ref);
	rm_db(hit);
}
