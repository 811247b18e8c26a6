/* The campaign queue (db/queue.c): entries in submission order, a campaign
 * queued once while queued or running, an entry left running (its daemon
 * died) taken before queued ones, states and times as the daemon sets them. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "tmpdir.h"

static char dir[64];

static void setup(void) { tmpdir_make(dir, sizeof dir, "flipsim-queue"); }

static void teardown(void) { tmpdir_remove(dir); }

TestSuite(queue, .init = setup, .fini = teardown);

static db_t *open_db(void)
{
	char path[128], err[512];
	snprintf(path, sizeof path, "%s/R.db", dir);
	db_t *db = NULL;
	int rc = db_open(path, true, &db, err, sizeof err);
	cr_assert_eq(rc, 0, "db_open: %d %s", rc, err);
	return db;
}

static int64_t add(db_t *db, const char *name, const char *hash, bool want_dup)
{
	int64_t id = 0;
	bool dup = !want_dup;
	cr_assert_eq(db_queue_add(db, "/c/x.json", name, hash, 10.0, &id, &dup), 0, "%s", db_errmsg(db));
	cr_assert_eq(dup, want_dup, "%s: dup %d", name, dup);
	return id;
}

Test(queue, order_duplicates_and_states)
{
	db_t *db = open_db();
	db_queue_t q;
	cr_assert_eq(db_queue_next(db, &q), DB_ENOTFOUND);
	int64_t a = add(db, "a", "h1", false), b = add(db, "b", "h2", false);
	cr_assert_eq(add(db, "a again", "h1", true), a, "a queued campaign is not queued twice");
	cr_assert_eq(db_queue_next(db, &q), 0);
	cr_assert_eq(q.id, a);
	cr_assert_str_eq(q.state, "queued");
	cr_assert(isnan(q.started) && isnan(q.finished));
	/* b running (a daemon died in it): it comes before the older a */
	cr_assert_eq(db_queue_set(db, b, "running", 0, NULL, 20.0), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_queue_next(db, &q), 0);
	cr_assert_eq(q.id, b);
	cr_assert_float_eq(q.started, 20.0, 0);
	cr_assert_eq(add(db, "b again", "h2", true), b, "a running campaign is not queued twice");
	cr_assert_eq(db_queue_set(db, b, "failed", 0, "exit status 2", 30.0), 0);
	cr_assert_eq(db_queue_set(db, a, "running", 0, NULL, 31.0), 0);
	cr_assert_eq(db_queue_set(db, a, "done", 0, NULL, 40.0), 0);
	cr_assert_eq(db_queue_next(db, &q), DB_ENOTFOUND);
	/* finished ones may be queued again */
	int64_t c = add(db, "a later", "h1", false);
	cr_assert_gt(c, b);
	db_queue_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_queue_list(db, &list, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(list[0].id, a);
	cr_assert_str_eq(list[0].state, "done");
	cr_assert_float_eq(list[0].finished, 40.0, 0);
	cr_assert_str_eq(list[1].state, "failed");
	cr_assert_str_eq(list[1].message, "exit status 2");
	cr_assert_str_eq(list[2].state, "queued");
	cr_assert_str_eq(list[2].name, "a later");
	free(list);
	cr_assert_eq(db_queue_set(db, c, "paused", 0, NULL, 50.0), DB_EINVAL);
	cr_assert_eq(db_queue_set(db, 999, "done", 0, NULL, 50.0), DB_ENOTFOUND);
	db_close(db);
}
