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
#include <sched.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runs.h"

static pid_t start(const char *campaign, const char *db)
{
	const char *args[] = {"run", campaign, "--db", db, "-j", "2", "--quiet", NULL};
	return runs_spawn(args, NULL);
}

static void rm_db(const char *path) { runs_rm_db(path); }

/* buf: a fresh database path for this test, none of its files left. */
static void tmpdb(char *buf, size_t n, const char *tag)
{
	snprintf(buf, n, "/tmp/flipsim-test-%d-%s.db", (int)getpid(), tag);
	rm_db(buf);
}

/* tmpdb, and errf beside it for flipsim's stderr. */
static void tmpdb_err(char db[512], char errf[600], const char *tag)
{
	tmpdb(db, 512, tag);
	snprintf(errf, 600, "%s.err", db);
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
	cr_assert_eq(runs_wait(start(CAMPAIGN, a)), 0);
	cr_assert_eq(runs_wait(start(CAMPAIGN, b)), 0);
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
			*status = runs_status(st);
			return false;
		}
		if (rows_now(path) >= want)
			return true;
		runs_sleep_ms(2);
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

/* The reference: an uninterrupted run of the campaign into path. */
static char *reference(const char *campaign, char path[512], long want)
{
	tmpdb(path, 512, "ref");
	double t0 = now_s();
	cr_assert_eq(runs_wait(start(campaign, path)), 0);
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
		runs_sleep_ms(m[i].delay_ms);
		kill(pid, sig);
		st = runs_wait(pid);
		if (st != 0) {
			cr_expect_eq(st, 128 + sig, "stopped by the signal, no other failure");
			interrupted++;
		}
	}
	cr_assert_eq(runs_wait(start(BIG, hit)), 0, "the last resume completes");
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
	char errf[600];
	tmpdb_err(hit, errf, "runners");
	moment_t m[SOAK_KILLS];
	moments(777, 600, 20, m); /* restarts and searches for a child take time: early on */
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t so = {.err = errf};
	double t0 = now_s();
	pid_t pid = runs_spawn(args, &so);
	int workers = 0, experiments = 0, st = -1;
	bool ended = false;
	for (int i = 0; i < SOAK_KILLS && !ended; i++) {
		if (m[i].rows >= 0 && !wait_rows(hit, pid, m[i].rows, 60, &st)) {
			ended = true;
			break;
		}
		runs_sleep_ms(m[i].delay_ms);
		pid_t w[8], x[8];
		int nw = 0, nx = 0;
		/* set-up moments: as soon as a worker runs (its golden run) */
		for (double t1 = now_s(); (nw = children(pid, w, 8)) == 0 && now_s() - t1 < 10;)
			runs_sleep_ms(1);
		/* odd moments: an experiment child, when one runs within 100 ms */
		for (double t1 = now_s(); i % 2 && nx == 0 && now_s() - t1 < 0.1;) {
			for (int k = 0; k < nw && nx == 0; k++)
				nx = children(w[k], x, 8);
			if (!nx)
				runs_sleep_ms(1);
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
		st = runs_wait(pid);
	char *err = runs_slurp(errf);
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
	cr_assert_eq(runs_wait(pid), 128 + SIGTERM);
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
	tmpdb_err(hit, errf, "full");
	long before_rows;
	char *before = partly_run(hit, &before_rows);
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t full = {.err = errf, .fsize = 64 * 1024};
	cr_expect_eq(runs_flipsim(args, &full), 2);
	char *err = runs_slurp(errf);
	cr_expect(strstr(err, hit), "the message names the file: %s", err);
	cr_expect(strstr(err, "the disk is full or the file reached a size limit"), "%s", err);
	cr_expect(strstr(err, "stopped:") && strstr(err, "run the same command again"), "%s", err);
	long after = expect_nothing_lost(hit, before, tr);
	cr_expect_lt(after, 2000, "the campaign stopped at the failure");
	cr_log_info("full disk: %ld stored before, %ld when the disk filled", before_rows, after);
	spawn_opts_t room = {.err = errf};
	cr_expect_eq(runs_flipsim(args, &room), 0, "a re-run resumes");
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
	tmpdb_err(hit, errf, "lock");
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t so = {.err = errf};
	pid_t pid = runs_spawn(args, &so);
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
	st = runs_wait(pid);
	double waited = now_s() - t0;
	cr_assert_eq(sqlite3_exec(lk, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(lk);
	char *err = runs_slurp(errf);
	if (st == 0) {
		cr_log_warn("the campaign ended before its next commit: nothing to check");
	} else {
		cr_expect_eq(st, 2, "%s", err);
		cr_expect(strstr(err, "database is locked") && strstr(err, hit), "%s", err);
		cr_expect(strstr(err, "stopped:"), "%s", err);
		cr_expect_lt(waited, 30, "it gave up after the busy timeout");
		long after = expect_nothing_lost(hit, before, tr);
		cr_log_info("locked: %ld stored before the lock, %ld after; gave up after %.1f s", before_rows, after, waited);
		cr_expect_eq(runs_flipsim(args, &so), 0, "a re-run resumes");
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
	char *bytes = runs_slurp(path);
	bool had_wal = access(wal, F_OK) == 0;
	const char *cmds[3][8] = {{"run", CAMPAIGN, "--db", path, "-j", "1", "--quiet", NULL},
	                          {"status", path, NULL},
	                          {"report", path, NULL}};
	for (int i = 0; i < 3; i++) {
		spawn_opts_t so = {.err = errf, .nobody = nobody};
		int st;
		char *err = runs_flipsim_err(cmds[i], &so, &st);
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
	runs_tmpdir(dir, 64, "refuse");
	chmod(dir, 0755);
	snprintf(path, 128, "%s/r.db", dir);
	cr_assert_eq(runs_wait(start(CAMPAIGN, path)), 0);
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
	runs_put(other, "experiment results, kept as text\n");
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

/* ---- the file taken away under a campaign -------------------------------- */

/* A campaign whose database is deleted (`other` NULL) or replaced by the
 * database `other` (renamed over it) once experiments are stored: exit 2,
 * a message naming the file, what happened and the copy PATH.recovered-PID
 * that holds every experiment committed; nothing is left at the path but
 * the other database, byte for byte; the copy resumes to the full table. */
static void taken_away(const char *hit, const char *other, const char *what)
{
	char errf[600], rec[600];
	snprintf(errf, sizeof errf, "%s.err", hit);
	size_t olen = other ? file_size(other) : 0;
	char *obytes = other ? runs_slurp(other) : NULL;
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", NULL};
	spawn_opts_t so = {.err = errf};
	pid_t pid = runs_spawn(args, &so);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "ended before the file was taken (%d)", st);
	long before = rows_now(hit);
	if (other)
		cr_assert_eq(rename(other, hit), 0);
	else
		rm_db(hit);
	st = runs_wait(pid);
	char *err = runs_slurp(errf);
	cr_expect_eq(st, 2, "%s", err);
	cr_expect(strstr(err, hit) && strstr(err, what), "'%s' lacks the file or '%s'", err, what);
	snprintf(rec, sizeof rec, "%s.recovered-%d", hit, (int)pid);
	cr_expect(strstr(err, rec), "the message names the copy %s: %s", rec, err);
	char wal[620];
	snprintf(wal, sizeof wal, "%s-wal", hit);
	cr_expect_neq(access(wal, F_OK), 0, "no -wal of the campaign left at the path");
	if (other)
		cr_expect(same_bytes(obytes, olen, hit), "the other database changed");
	else
		cr_expect_neq(access(hit, F_OK), 0, "no new file at the path");
	long rows, distinct;
	char *t = table(rec, &rows, &distinct);
	cr_expect_geq(rows, before, "every committed experiment is in the copy");
	cr_expect_eq(distinct, rows);
	free(t);
	rm_db(hit);
	cr_assert_eq(rename(rec, hit), 0);
	cr_expect_eq(runs_flipsim(args, &so), 0, "the copy resumes");
	t = table(hit, &rows, &distinct);
	cr_expect(rows == 2000 && distinct == 2000, "%ld rows, %ld distinct", rows, distinct);
	cr_log_info("%s: %ld stored when taken away, resumed to %ld", what, before, rows);
	free(t);
	free(err);
	free(obytes);
	unlink(errf);
	rm_db(hit);
}

Test(daemon, database_deleted_mid_campaign, .timeout = 300)
{
	char hit[512];
	tmpdb(hit, sizeof hit, "deleted");
	taken_away(hit, NULL, "the database file was deleted or moved away while flipsim had it open");
}

Test(daemon, database_replaced_mid_campaign, .timeout = 300)
{
	char dir[64], other[128], hit[512];
	finished_db(dir, other);
	snprintf(hit, sizeof hit, "%s/hit.db", dir);
	taken_away(hit, other, "the database file was replaced by another file while flipsim had it open");
	rmdir(dir);
}

/* status and report never write: a file with flipsim's application_id but
 * no tables is refused (exit 2) as it is, user_version and journal mode
 * unchanged (they upgraded it, created the schema, and exited 1). */
Test(daemon, readers_refuse_a_damaged_database_untouched, .timeout = 120)
{
	char path[512];
	tmpdb(path, sizeof path, "damaged");
	for (int version = 0; version <= 1; version++) {
		char sql[120];
		rm_db(path);
		snprintf(sql, sizeof sql, "PRAGMA application_id = 1179406419; PRAGMA user_version = %d", version);
		sql_on(path, sql);
		const char *cmds[2][3] = {{"status", path, NULL}, {"report", path, NULL}};
		for (int i = 0; i < 2; i++) {
			char errf[600];
			snprintf(errf, sizeof errf, "%s.err", path);
			size_t len = file_size(path);
			char *bytes = runs_slurp(path);
			spawn_opts_t so = {.err = errf};
			int st;
			char *err = runs_flipsim_err(cmds[i], &so, &st);
			cr_expect_eq(st, 2, "%s (version %d): %s", cmds[i][0], version, err);
			cr_expect(strstr(err, path) && strstr(err, "a damaged flipsim database"), "%s", err);
			cr_expect(same_bytes(bytes, len, path), "%s wrote to the file", cmds[i][0]);
			free(bytes);
			free(err);
			unlink(errf);
		}
	}
	rm_db(path);
}

/* A campaign whose final report cannot be written (stdout on a full
 * device) does not end as a success. */
Test(daemon, run_whose_report_fails_is_not_success, .timeout = 120)
{
	char path[512], errf[600];
	tmpdb_err(path, errf, "report");
	const char *args[] = {"run", CAMPAIGN, "--db", path, "-j", "2", "--quiet", NULL};
	spawn_opts_t so = {.err = errf, .out = "/dev/full"};
	int st;
	char *err = runs_flipsim_err(args, &so, &st);
	cr_expect_eq(st, 2, "%s", err);
	cr_expect(strstr(err, "cannot write the report"), "%s", err);
	free(err);
	unlink(errf);
	rm_db(path);
}

/* ---- workloads that fail in every experiment ------------------------------ */

/* The campaign of tests/engine/data/doomed_host.c in `mode` (segv, hang)
 * on the one-SM test GPU, live sampling (every fault lands in a register in
 * use, so every experiment runs), written to dir/doomed.json. */
static void doomed_campaign(const char *dir, const char *mode, int injections, char *path, size_t n)
{
	char *root = getcwd(NULL, 0);
	cr_assert(root);
	snprintf(path, n, "%s/doomed-%s.json", dir, mode);
	runs_writef(path, "{\"name\": \"doomed-%s\", \"workload\": {\"exec\": [\"%s\", \"%s\", "
	            "\"examples/vadd/vadd.ptx\"], \"cwd\": \"%s\"}, \"gpu\": \"%s/tests/engine/data/tiny-gpu.json\", "
	            "\"regs\": \"alloc\", \"target\": \"regfile\", \"sampling\": \"live\", \"injections\": %d, \"seed\": 3, "
	            "\"watchdog_seconds\": 1}\n",
	            mode, runs_test_host("doomed_host"), mode, root, root, injections);
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
	runs_tmpdir(dir, sizeof dir, "doomed");
	doomed_campaign(dir, mode, injections, camp, sizeof camp);
	snprintf(db, sizeof db, "%s/r.db", dir);
	/* --no-early: an experiment that re-joins the golden state would stop
	 * before its host code runs on */
	const char *args[] = {"run", camp, "--db", db, "-j", "2", "--no-early", "--quiet", NULL};
	double t0 = now_s();
	cr_assert_eq(runs_flipsim(args, NULL), 0, "the campaign completes");
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
			st = runs_status(w);
			break;
		}
		const char *status[] = {"status", hit, NULL}, *report[] = {"report", hit, "--csv", NULL};
		failed += runs_flipsim(reads % 2 ? report : status, NULL) != 0;
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

/* ---- long unattended runs (issue 10, items 1 and 11) ---------------------- */

/* Copies tests/engine/data/NAME into dir. */
static void copy_data(const char *dir, const char *name)
{
	char from[300], to[300];
	snprintf(from, sizeof from, "tests/engine/data/%s", name);
	snprintf(to, sizeof to, "%s/%s", dir, name);
	char *text = runs_slurp(from);
	cr_assert(*text, "%s", from);
	runs_put(to, text);
	free(text);
}

/* dir/c.json: the tiny pred campaign (its files copied beside it) with n
 * injections and this seed. Returns the path in a static buffer. */
static const char *tiny_campaign(const char *dir, int n, int seed)
{
	static char path[300];
	copy_data(dir, "tiny.json");
	copy_data(dir, "tiny.ptx");
	copy_data(dir, "tiny-gpu.json");
	snprintf(path, sizeof path, "%s/c.json", dir);
	runs_writef(path, "{\"name\": \"tiny-pred\", \"workload\": \"tiny.json\", \"gpu\": \"tiny-gpu.json\", "
	            "\"target\": \"pred\", \"injections\": %d, \"seed\": %d}\n", n, seed);
	return path;
}

static char *new_dir(void)
{
	static char dir[64];
	runs_tmpdir(dir, sizeof dir, "unattended");
	return dir;
}

/* One number a query on path returns. */
static long query_long(const char *path, const char *sql)
{
	sqlite3 *db;
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK, "%s", sql);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	long v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* Runs flipsim with args, its stdout into *out and stderr into *err (both
 * freed by the caller; NULL: not kept). Returns the exit status. */
static int run_capture(const char *const *args, const char *dir, char **out, char **err)
{
	char o[300], e[300];
	snprintf(o, sizeof o, "%s/stdout.txt", dir);
	snprintf(e, sizeof e, "%s/stderr.txt", dir);
	spawn_opts_t so = {.out = o, .err = e};
	int st = runs_flipsim(args, &so);
	if (out)
		*out = runs_slurp(o);
	if (err)
		*err = runs_slurp(e);
	unlink(o);
	unlink(e);
	return st;
}

/* Without -j, one worker per CPU this process may run on: under taskset
 * (or Slurm, or a cpuset) of one CPU, one worker. -j N still gives N. */
Test(daemon, default_workers_follow_affinity, .timeout = 120)
{
	char *dir = new_dir(), db[300];
	const char *camp = tiny_campaign(dir, 40, 1);
	snprintf(db, sizeof db, "%s/r.db", dir);
	const char *three[] = {"run", camp, "--db", db, "-j", "3", "--quiet", NULL};
	cr_assert_eq(run_capture(three, dir, NULL, NULL), 0);
	cr_expect_eq(query_long(db, "SELECT count(DISTINCT worker) FROM experiments"), 3, "-j 3: three workers");
	rm_db(db);
	cpu_set_t all, one;
	cr_assert_eq(sched_getaffinity(0, sizeof all, &all), 0);
	CPU_ZERO(&one);
	for (int i = 0; i < CPU_SETSIZE && !CPU_COUNT(&one); i++)
		if (CPU_ISSET(i, &all))
			CPU_SET(i, &one);
	cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0); /* inherited by flipsim, as with taskset -c */
	const char *plain[] = {"run", camp, "--db", db, "--quiet", NULL};
	int st = run_capture(plain, dir, NULL, NULL);
	sched_setaffinity(0, sizeof all, &all);
	cr_assert_eq(st, 0);
	cr_expect_eq(query_long(db, "SELECT count(*) FROM experiments"), 40);
	cr_expect_eq(query_long(db, "SELECT count(DISTINCT worker) FROM experiments"), 1,
	             "one CPU allowed (of %d): one worker", CPU_COUNT(&all));
	rm_db(db);
	runs_rm_dir(dir);
}

/* -j above the default cap (64) up to the documented maximum: the worker
 * table is sized from -j, not a fixed array. */
Test(daemon, workers_above_the_default_cap, .timeout = 300)
{
	char *dir = new_dir(), db[300];
	const char *camp = tiny_campaign(dir, 66, 1);
	snprintf(db, sizeof db, "%s/r.db", dir);
	const char *many[] = {"run", camp, "--db", db, "-j", "66", "--quiet", NULL};
	cr_assert_eq(run_capture(many, dir, NULL, NULL), 0);
	cr_expect_eq(query_long(db, "SELECT count(*) FROM experiments"), 66);
	cr_expect_eq(query_long(db, "SELECT count(DISTINCT worker) FROM experiments"), 66);
	char *err;
	const char *over[] = {"run", camp, "--db", db, "-j", "1025", NULL};
	cr_expect_eq(run_capture(over, dir, NULL, &err), 2);
	cr_expect(strstr(err, "-j: expected a number of workers in 1..1024") != NULL, "%s", err);
	free(err);
	rm_db(db);
	runs_rm_dir(dir);
}

/* On a terminal of 60 columns every redraw of the progress line fits in
 * 59: it is redrawn in place instead of scrolling a copy each time. */
Test(daemon, progress_line_fits_the_terminal, .timeout = 120)
{
	char *dir = new_dir(), db[300];
	snprintf(db, sizeof db, "%s/r.db", dir);
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	cr_assert_geq(m, 0);
	cr_assert_eq(grantpt(m), 0);
	cr_assert_eq(unlockpt(m), 0);
	struct winsize ws = {.ws_row = 24, .ws_col = 60};
	cr_assert_eq(ioctl(m, TIOCSWINSZ, &ws), 0);
	char *slave = strdup(ptsname(m));
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		setsid();
		int s = open(slave, O_RDWR);
		dup2(s, 2);
		dup2(open("/dev/null", O_WRONLY), 1);
		execl(runs_flipsim_path(), runs_flipsim_path(), "run", CAMPAIGN, "--db", db, "-j", "2", (char *)NULL);
		_exit(127);
	}
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap + 1);
	ssize_t k;
	while ((k = read(m, out + len, cap - len)) > 0)
		if ((len += (size_t)k) == cap)
			out = realloc(out, (cap *= 2) + 1);
	out[len] = 0;
	cr_assert_eq(runs_wait(pid), 0);
	close(m);
	int redraws = 0;
	for (char *p = strstr(out, "\r\033[K"); p; p = strstr(p, "\r\033[K")) {
		p += 4;
		size_t n = strcspn(p, "\r\n");
		redraws++;
		cr_expect_leq(n, 59, "a progress line of %zu columns on a terminal of 60: '%.*s'", n, (int)n, p);
		cr_expect(memchr(p, '/', n) != NULL, "done/total shown: '%.*s'", (int)n, p);
	}
	cr_expect_geq(redraws, 1);
	free(out);
	free(slave);
	rm_db(db);
	runs_rm_dir(dir);
}

/* A hangup (ssh drop) stops the run as Ctrl-C does, with exit 129 and a
 * message saying so; the same command resumes. */
Test(daemon, hangup_says_so_and_resumes, .timeout = 300)
{
	char hit[512], errf[600];
	tmpdb_err(hit, errf, "hup");
	const char *args[] = {"run", BIG, "--db", hit, "-j", "2", "--quiet", NULL};
	spawn_opts_t so = {.err = errf};
	pid_t pid = runs_spawn(args, &so);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "ended before the hangup (%d)", st);
	kill(pid, SIGHUP);
	cr_expect_eq(runs_wait(pid), 129);
	char *err = runs_slurp(errf);
	long done = rows_now(hit);
	cr_expect(strstr(err, "flipsim: hangup (terminal closed); ") != NULL, "%s", err);
	cr_expect(strstr(err, "experiments committed; run the same command to resume") != NULL, "%s", err);
	cr_expect_lt(done, 2000, "stopped before the end");
	free(err);
	cr_expect_eq(runs_flipsim(args, NULL), 0, "resumed");
	cr_expect_eq(rows_now(hit), 2000);
	unlink(errf);
	rm_db(hit);
}

/* status says running while a daemon works on the campaign (its pid in
 * --json), stopped once it is killed (the pid is gone), finished at the
 * end; with id, creation time and an ETA. The campaign must outlast two
 * status calls on a loaded machine: scalarprod's (about 10 CPU-seconds),
 * not vadd's, which once finished before the kill while CI ran beside it. */
#define SLOW "examples/campaigns/scalarprod-regfile.json"
Test(daemon, status_running_stopped_finished, .timeout = 300)
{
	char *dir = new_dir(), hit[300], want[64];
	snprintf(hit, sizeof hit, "%s/r.db", dir);
	pid_t pid = start(SLOW, hit);
	int st = -1;
	cr_assert(wait_rows(hit, pid, 1, 60, &st), "ended before status (%d)", st);
	char *out;
	const char *json[] = {"status", hit, "--json", NULL}, *text[] = {"status", hit, NULL};
	cr_assert_eq(run_capture(json, dir, &out, NULL), 0);
	snprintf(want, sizeof want, "\"daemon\": {\"pid\": %d, ", (int)pid);
	cr_expect(strstr(out, "\"id\": 1, \"name\": \"scalarprod-regfile\", \"created\": \"") != NULL, "%s", out);
	cr_expect(strstr(out, "\"state\": \"running\"") != NULL, "%s", out);
	cr_expect(strstr(out, want) != NULL, "%s lacks %s", out, want);
	cr_expect(strstr(out, "\"total\": 2000, \"counts\": {\"masked\": ") != NULL, "%s", out);
	free(out);
	cr_assert_eq(run_capture(text, dir, &out, NULL), 0);
	cr_expect(strstr(out, " running ") != NULL, "%s", out);
	snprintf(want, sizeof want, "run by pid %d on ", (int)pid);
	cr_expect(strstr(out, want) != NULL, "%s", out);
	free(out);
	kill(pid, SIGKILL);
	runs_wait(pid);
	cr_assert_eq(run_capture(json, dir, &out, NULL), 0);
	cr_expect(strstr(out, "\"state\": \"stopped\"") != NULL, "killed: %s", out);
	cr_expect(strstr(out, "\"eta_seconds\": null") != NULL, "%s", out);
	free(out);
	cr_assert_eq(runs_wait(start(SLOW, hit)), 0);
	cr_assert_eq(run_capture(json, dir, &out, NULL), 0);
	cr_expect(strstr(out, "\"state\": \"finished\"") != NULL, "%s", out);
	cr_expect(strstr(out, "\"done\": 2000, \"total\": 2000") != NULL, "%s", out);
	free(out);
	rm_db(hit);
	runs_rm_dir(dir);
}

/* An edited campaign starts a new campaign of the same name: run says so,
 * and status tells the two rows apart. */
Test(daemon, edited_campaign_is_pointed_out, .timeout = 120)
{
	char *dir = new_dir(), db[300];
	snprintf(db, sizeof db, "%s/r.db", dir);
	const char *camp = tiny_campaign(dir, 20, 1);
	const char *args[] = {"run", camp, "--db", db, "--quiet", NULL}, *status[] = {"status", db, NULL};
	char *out, *err;
	cr_assert_eq(run_capture(args, dir, NULL, &err), 0);
	cr_expect_null(strstr(err, "note:"), "a first campaign: %s", err);
	free(err);
	tiny_campaign(dir, 20, 2);
	cr_assert_eq(run_capture(args, dir, NULL, &err), 0);
	cr_expect(strstr(err, "flipsim: note: tiny-pred: new campaign 2; an earlier campaign of that name (id 1, "
	                      "created ") != NULL, "%s", err);
	free(err);
	cr_assert_eq(run_capture(status, dir, &out, NULL), 0);
	cr_expect(strstr(out, "campaign 1 (tiny-pred): an older definition; campaign 2 has the same name") != NULL,
	          "%s", out);
	free(out);
	rm_db(db);
	runs_rm_dir(dir);
}

/* The README's promise: re-running resumes, also after the project folder
 * moved and the workload JSON was re-indented. */
Test(daemon, resumes_after_move_and_reindent, .timeout = 120)
{
	char *dir = new_dir(), db[300], moved[300], camp[400];
	snprintf(db, sizeof db, "/tmp/flipsim-test-%d-moved.db", (int)getpid());
	rm_db(db);
	tiny_campaign(dir, 30, 1);
	snprintf(camp, sizeof camp, "%s/c.json", dir);
	const char *args[] = {"run", camp, "--db", db, "--quiet", NULL};
	cr_assert_eq(run_capture(args, dir, NULL, NULL), 0);
	snprintf(moved, sizeof moved, "%s-moved", dir);
	cr_assert_eq(rename(dir, moved), 0);
	char wl[400];
	snprintf(wl, sizeof wl, "%s/tiny.json", moved);
	runs_put(wl, "{\"outputs\":[\"out\"],\"launches\":[{\"kernel\":\"tiny\",\"grid\":[1],\"block\":[32],\"args\":[\"out\"]}],"
	      "\"name\":\"tiny\",\"ptx\":\"./tiny.ptx\",\"buffers\":{\"out\":{\"count\":32,\"type\":\"u32\"}}}");
	snprintf(camp, sizeof camp, "%s/c.json", moved);
	char *err;
	const char *again[] = {"run", camp, "--db", db, NULL};
	cr_assert_eq(run_capture(again, moved, NULL, &err), 0);
	cr_expect(strstr(err, "30 injections (0 to run, resumed)") != NULL, "%s", err);
	cr_expect_eq(query_long(db, "SELECT count(*) FROM campaigns"), 1);
	free(err);
	rm_db(db);
	runs_rm_dir(moved);
}

/* ---- stratified and sequential campaigns (issue 13 item 3) ---------------- */

/* dir/s.json: tiny2 (kernels flag, tiny, flag) stratified by kernel and
 * sequential: at most 800 masks in 4 looks (100, 200, 400, 800), stopping
 * when the 95 % interval (98.75 % per look) is within ±2.5 %. Returns
 * the path in a static buffer. */
static const char *strata_stop_campaign(const char *dir)
{
	static char path[300];
	copy_data(dir, "tiny2.json");
	copy_data(dir, "tiny2.ptx");
	copy_data(dir, "tiny-gpu.json");
	snprintf(path, sizeof path, "%s/s.json", dir);
	runs_writef(path, "{\"name\": \"tiny2-seq\", \"workload\": \"tiny2.json\", \"gpu\": \"tiny-gpu.json\", "
	            "\"target\": \"pred\", \"strata\": \"kernel\", \"injections\": 800, \"seed\": 3, "
	            "\"stop\": {\"absolute_margin\": 0.025, \"looks\": 4}}\n");
	return path;
}

/* A sequential campaign stops at a look of its schedule, says why in the
 * database and in status, and makes the same experiments and the same
 * decision however it is run: with one worker or two, run again after it
 * stopped (nothing more runs), or resumed after losing the experiments of
 * its last batches (the looks it passed are not taken again). */
Test(daemon, sequential_stratified_campaign_resumes_to_the_same_stop, .timeout = 300)
{
	char *dir = new_dir(), a[300], b[300];
	const char *camp = strata_stop_campaign(dir);
	snprintf(a, sizeof a, "%s/a.db", dir);
	snprintf(b, sizeof b, "%s/b.db", dir);
	const char *run_a[] = {"run", camp, "--db", a, "-j", "2", NULL};
	char *err = NULL;
	cr_assert_eq(run_capture(run_a, dir, NULL, &err), 0, "%s", err);
	long n = query_long(a, "SELECT json_extract(stop, '$.n') FROM campaigns");
	cr_assert(n == 100 || n == 200 || n == 400 || n == 800, "stopped at a look: n = %ld", n);
	cr_expect_eq(query_long(a, "SELECT json_extract(stop, '$.reason') = 'margin' FROM campaigns"), n < 800,
	             "before the maximum only when narrow enough");
	cr_expect_eq(query_long(a, "SELECT count(*) FROM experiments"), n, "nothing past the stop");
	cr_expect_eq(query_long(a, "SELECT count(*) FROM masks"), 800, "every mask stored up front");
	cr_expect_eq(query_long(a, "SELECT looks FROM campaigns"), 4);
	cr_expect_eq(query_long(a, "SELECT stratified FROM avf WHERE kernel = 'all'"), 1);
	cr_expect_eq(query_long(a, "SELECT max(n) - min(n) FROM avf_kernel"), 0, "equal allocation");
	cr_expect(strstr(err, "look 1 of 4 at n = 100") != NULL, "%s", err);
	free(err);
	long rows, distinct;
	char *want = table(a, &rows, &distinct);
	cr_expect_eq(distinct, n);

	/* once more: it stopped, nothing runs */
	cr_assert_eq(run_capture(run_a, dir, NULL, &err), 0);
	cr_expect(strstr(err, "stopped before at n = ") != NULL, "%s", err);
	free(err);
	cr_expect_eq(query_long(a, "SELECT count(*) FROM experiments"), n);
	char *out = NULL;
	const char *status[] = {"status", a, NULL};
	cr_assert_eq(run_capture(status, dir, &out, NULL), 0);
	cr_expect(strstr(out, "finished") && strstr(out, "sequential, stopped at n = ") &&
	          strstr(out, "stratified by kernel"), "%s", out);
	free(out);

	/* one worker, another database: the same table */
	const char *run_b[] = {"run", camp, "--db", b, "-j", "1", "--quiet", NULL};
	cr_assert_eq(run_capture(run_b, dir, NULL, NULL), 0);
	char *got = table(b, &rows, &distinct);
	cr_expect_str_eq(got, want);
	free(got);

	/* the experiments past the first 150 lost (as if killed in the second
	 * batch) and the stop not yet recorded: the same stop again */
	if (n > 100) {
		sql_on(b, "DELETE FROM experiments WHERE idx >= 150; UPDATE campaigns SET stop = NULL");
		cr_assert_eq(run_capture(run_b, dir, NULL, NULL), 0);
		got = table(b, &rows, &distinct);
		cr_expect_str_eq(got, want);
		free(got);
		cr_expect_eq(query_long(b, "SELECT json_extract(stop, '$.n') FROM campaigns"), n);
	}
	free(want);
	rm_db(a);
	rm_db(b);
	runs_rm_dir(dir);
}
