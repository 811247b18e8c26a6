/* The campaign queue (schema 12, table queue): `flipsim submit` adds
 * campaign files, `flipsim daemon` runs them oldest first (engine/daemon.c).
 * One writer transaction per call; readers (status) list it. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"

int db_queue_add(db_t *db, const char *file, const char *name, const char *hash, double now, int64_t *id,
                 bool *dup)
{
	if (!db || !file || !name || !hash || !id || !dup)
		return db ? db__fail(db, DB_EINVAL, "queue: missing argument") : DB_EINVAL;
	*dup = false;
	int err = db__begin_write(db);
	if (err)
		return err;
	sqlite3_stmt *st = NULL;
	if ((err = db__prepare(db, "SELECT id FROM queue WHERE config_hash = ?1 AND state IN ('queued', 'running')"
	                    " ORDER BY id LIMIT 1", &st)))
		goto fail;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		*dup = true;
	} else if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "reading the queue");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (err || *dup)
		goto end;
	if ((err = db__prepare(db, "INSERT INTO queue (file, name, config_hash, state, submitted)"
	                    " VALUES (?1, ?2, ?3, 'queued', ?4)", &st)))
		goto fail;
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, hash, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "queueing a campaign");
		goto fail;
	}
	*id = sqlite3_last_insert_rowid(db->sql);
end:
	if (err)
		goto fail;
	return db__commit_write(db);
fail:
	sqlite3_finalize(st);
	db__rollback(db);
	return err;
}

static double real_col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

#define QUEUE_COLS "id, file, name, config_hash, state, submitted, started, finished, coalesce(campaign_id, 0)," \
                   " coalesce(message, '')"

static void queue_row(sqlite3_stmt *st, db_queue_t *q)
{
	memset(q, 0, sizeof *q);
	q->id = sqlite3_column_int64(st, 0);
	db__column_text(st, 1, q->file, sizeof q->file);
	db__column_text(st, 2, q->name, sizeof q->name);
	db__column_text(st, 3, q->config_hash, sizeof q->config_hash);
	db__column_text(st, 4, q->state, sizeof q->state);
	q->submitted = real_col(st, 5);
	q->started = real_col(st, 6);
	q->finished = real_col(st, 7);
	q->campaign = sqlite3_column_int64(st, 8);
	db__column_text(st, 9, q->message, sizeof q->message);
}

int db_queue_next(db_t *db, db_queue_t *q)
{
	if (!db || !q)
		return db ? db__fail(db, DB_EINVAL, "queue: missing argument") : DB_EINVAL;
	sqlite3_stmt *st = NULL;
	int err = db__prepare(db, "SELECT " QUEUE_COLS " FROM queue WHERE state IN ('running', 'queued')"
	                   " ORDER BY state = 'queued', id LIMIT 1", &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		queue_row(st, q);
	else if (rc == SQLITE_DONE)
		err = DB_ENOTFOUND;
	else
		err = db__sqlerr(db, rc, "reading the queue");
	sqlite3_finalize(st);
	return err;
}

int db_queue_set(db_t *db, int64_t id, const char *state, int64_t campaign, const char *message, double now)
{
	if (!db || !state)
		return db ? db__fail(db, DB_EINVAL, "queue: missing argument") : DB_EINVAL;
	bool start = !strcmp(state, "running"), end = !strcmp(state, "done") || !strcmp(state, "failed");
	if (!start && !end && strcmp(state, "queued"))
		return db__fail(db, DB_EINVAL, "queue: no state '%s'", state);
	int err = db__begin_write(db);
	if (err)
		return err;
	sqlite3_stmt *st = NULL;
	if ((err = db__prepare(db, "UPDATE queue SET state = ?2,"
	                    " campaign_id = CASE WHEN ?3 > 0 THEN ?3 ELSE campaign_id END,"
	                    " message = ?4,"
	                    " started = CASE WHEN ?5 THEN ?7 ELSE started END,"
	                    " finished = CASE WHEN ?6 THEN ?7 ELSE NULL END"
	                    " WHERE id = ?1", &st))) {
		db__rollback(db);
		return err;
	}
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, campaign);
	if (message)
		sqlite3_bind_text(st, 4, message, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, start);
	sqlite3_bind_int(st, 6, end);
	sqlite3_bind_double(st, 7, now);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "updating the queue");
	} else if (sqlite3_changes(db->sql) == 0) {
		err = db__fail(db, DB_ENOTFOUND, "queue: no entry %" PRId64, id);
	}
	if (err) {
		db__rollback(db);
		return err;
	}
	return db__commit_write(db);
}

int db_queue_list(db_t *db, db_queue_t **out, size_t *n)
{
	if (!db || !out || !n)
		return db ? db__fail(db, DB_EINVAL, "queue: missing argument") : DB_EINVAL;
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = NULL;
	int err = db__prepare(db, "SELECT " QUEUE_COLS " FROM queue ORDER BY id", &st);
	if (err)
		return err;
	db_queue_t *list = NULL;
	size_t len = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			db_queue_t *grown = realloc(list, ncap * sizeof *list);
			if (!grown) {
				err = db__fail(db, DB_ENOMEM, "out of memory listing the queue");
				break;
			}
			list = grown;
			cap = ncap;
		}
		queue_row(st, &list[len++]);
	}
	if (!err && rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "listing the queue");
	sqlite3_finalize(st);
	if (err) {
		free(list);
		return err;
	}
	*out = list;
	*n = len;
	return 0;
}
