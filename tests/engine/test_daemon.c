/* flipsim run as a user runs it: determinism of the experiments table,
 * SIGKILL of the daemon at random moments with resumption, and graceful
 * SIGTERM. Runs build/flipsim (make builds it before the unit tests) and
 * reads the databases with the SQLite C API. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void killed_and_resumed(int sig, int rounds, const char *tag)
{
	char ref[512], hit[512];
	tmpdb(ref, sizeof ref, "ref");
	tmpdb(hit, sizeof hit, tag);
	cr_assert_eq(finish(start(BIG, ref)), 0);
	srand(12345);
	int kills = 0;
	for (int round = 0; round < 100; round++) {
		pid_t pid = start(BIG, hit);
		if (kills < rounds) {
			/* a random moment: during set-up, mid-campaign or near the end */
			struct timespec ts = {0, (long)(rand() % 900 + 20) * 1000000L};
			nanosleep(&ts, NULL);
			kill(pid, sig);
			kills++;
			int st = finish(pid);
			if (st == 0)
				break; /* it finished before the signal */
			if (sig == SIGTERM)
				cr_expect_eq(st, 128 + SIGTERM, "graceful stop exits 128+SIGTERM");
		} else {
			cr_assert_eq(finish(pid), 0);
			break;
		}
	}
	cr_expect_geq(kills, 1);
	long rr, dr, rh, dh;
	char *tr = table(ref, &rr, &dr), *th = table(hit, &rh, &dh);
	cr_expect_eq(rr, 2000);
	cr_expect_eq(rh, 2000, "none missing");
	cr_expect_eq(dh, rh, "no duplicates");
	cr_expect_str_eq(th, tr, "the same final table as an uninterrupted run");
	free(tr);
	free(th);
	unlink(ref);
	unlink(hit);
}

Test(daemon, sigkill_anywhere_then_resume, .timeout = 300) { killed_and_resumed(SIGKILL, 6, "kill"); }
Test(daemon, sigterm_then_resume, .timeout = 300) { killed_and_resumed(SIGTERM, 3, "term"); }
