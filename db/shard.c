/* Shards and merges (schema 12, table shards; README "Campaigns on many
 * machines"). `flipsim run --shard I/N` runs the masks idx ≡ I (mod N) of
 * each campaign into its own database and records (campaign, I, N,
 * 'run') there (db_shard_claim); `flipsim merge OUT.db PART.db...` copies
 * each part's campaigns, golden runs, kernel invocations, masks,
 * experiments and shard rows into OUT (db_merge): a campaign is the same
 * campaign when its config_hash is, its golden run, invocations and
 * masks must then agree, and an experiment already in OUT must have the
 * same outcome; nothing else is written, so merging twice changes nothing.
 * One part is one write transaction: a part that is refused leaves OUT as
 * it was. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_int.h"

/* The one integer of a query with up to two int64 parameters; 0 when it
 * returns no row. */
static int one_int(db_t *db, const char *sql, int64_t a, int64_t b, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int err = db__prepare(db, sql, &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "reading shards");
	sqlite3_finalize(st);
	return err;
}

/* The masks of share `shard` of nshards among idx 0..n-1. */
uint64_t db_shard_size(uint64_t n, uint32_t shard, uint32_t nshards)
{
	return nshards == 0 ? n : n > shard ? (n - shard - 1) / nshards + 1 : 0;
}

int db_shard_claim(db_t *db, int64_t campaign, uint32_t shard, uint32_t nshards, const char *host, double now)
{
	if (!db || !host || nshards == 0 || shard >= nshards)
		return db ? db__fail(db, DB_EINVAL, "shard %u of %u: no such shard", shard, nshards) : DB_EINVAL;
	int err = db__begin_write(db);
	if (err)
		return err;
	int64_t other = 0, merged = 0, ran = -1, outside = 0;
	sqlite3_stmt *st = NULL;
	if ((err = one_int(db, "SELECT nshards FROM shards WHERE campaign_id = ?1 AND nshards <> ?2", campaign,
	                   nshards, &other)))
		goto fail;
	if (other) {
		err = db__fail(db, DB_ECONFLICT, "campaign %" PRId64 " holds shards of %" PRId64 ", not of %u", campaign,
		               other, nshards);
		goto fail;
	}
	if ((err = one_int(db, "SELECT count(*) FROM shards WHERE campaign_id = ?1 AND origin = 'merge'", campaign, 0,
	                   &merged)))
		goto fail;
	if (merged) {
		err = db__fail(db, DB_ECONFLICT, "campaign %" PRId64 " has shards merged in: run each shard into its own "
		               "database (--db part-I.db) and merge them", campaign);
		goto fail;
	}
	if ((err = one_int(db, "SELECT coalesce(max(shard), -1) FROM shards WHERE campaign_id = ?1 AND shard <> ?2",
	                   campaign, shard, &ran)))
		goto fail;
	if (ran >= 0) {
		err = db__fail(db, DB_ECONFLICT, "campaign %" PRId64 " runs shard %" PRId64 " of %u in this database, not "
		               "shard %u: give each shard its own database (--db part-I.db)", campaign, ran, nshards, shard);
		goto fail;
	}
	if ((err = db__prepare(db, "SELECT count(*) FROM experiments WHERE campaign_id = ?1 AND idx % ?2 <> ?3", &st)))
		goto fail;
	sqlite3_bind_int64(st, 1, campaign);
	sqlite3_bind_int64(st, 2, nshards);
	sqlite3_bind_int64(st, 3, shard);
	if (sqlite3_step(st) == SQLITE_ROW)
		outside = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (outside) {
		err = db__fail(db, DB_ECONFLICT, "campaign %" PRId64 " already holds %" PRId64 " experiments outside shard "
		               "%u of %u: this database ran the campaign unsharded", campaign, outside, shard, nshards);
		goto fail;
	}
	if ((err = db__prepare(db, "INSERT INTO shards (campaign_id, shard, nshards, origin, source, host, updated)"
	                    " VALUES (?1, ?2, ?3, 'run', NULL, ?4, ?5)"
	                    " ON CONFLICT (campaign_id, shard) DO UPDATE SET host = ?4, updated = ?5",
	                &st)))
		goto fail;
	sqlite3_bind_int64(st, 1, campaign);
	sqlite3_bind_int64(st, 2, shard);
	sqlite3_bind_int64(st, 3, nshards);
	sqlite3_bind_text(st, 4, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 5, now);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "recording the shard");
		goto fail;
	}
	if ((err = db__commit_write(db)))
		goto fail;
	return 0;

fail:
	sqlite3_finalize(st);
	db__rollback(db);
	return err;
}

int db_shards_list(db_t *db, int64_t campaign, db_shard_t **out, size_t *n)
{
	if (!db || !out || !n)
		return db ? db__fail(db, DB_EINVAL, "no place for the shards") : DB_EINVAL;
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = NULL;
	db_shard_t *list = NULL;
	size_t len = 0, cap = 0;
	int err = db__prepare(db,
	               "SELECT s.shard, s.nshards, s.origin, coalesce(s.source, ''), s.host, s.updated, c.n_masks,"
	               " (SELECT count(*) FROM experiments e WHERE e.campaign_id = s.campaign_id"
	               "   AND e.idx % s.nshards = s.shard)"
	               " FROM shards s JOIN campaigns c ON c.id = s.campaign_id"
	               " WHERE s.campaign_id = ?1 ORDER BY s.shard",
	               &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, campaign);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			db_shard_t *grown = realloc(list, ncap * sizeof *list);
			if (!grown) {
				err = db__fail(db, DB_ENOMEM, "out of memory listing shards");
				goto fail;
			}
			list = grown;
			cap = ncap;
		}
		db_shard_t *s = &list[len++];
		memset(s, 0, sizeof *s);
		s->shard = (uint32_t)sqlite3_column_int64(st, 0);
		s->nshards = (uint32_t)sqlite3_column_int64(st, 1);
		db__column_text(st, 2, s->origin, sizeof s->origin);
		db__column_text(st, 3, s->source, sizeof s->source);
		db__column_text(st, 4, s->host, sizeof s->host);
		s->updated = sqlite3_column_double(st, 5);
		s->planned = db_shard_size((uint64_t)sqlite3_column_int64(st, 6), s->shard, s->nshards);
		s->done = (uint64_t)sqlite3_column_int64(st, 7);
	}
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "listing shards");
		goto fail;
	}
	sqlite3_finalize(st);
	*out = list;
	*n = len;
	return 0;

fail:
	sqlite3_finalize(st);
	free(list);
	return err;
}

/* ---- merge ---------------------------------------------------------------- */
typedef struct merge {
	db_t *db;
	const char *part;     /* as given, for messages */
	char abspart[PATH_MAX];
	db_merge_stats_t *st;
} merge_t;

/* The columns of main's table t but `skip`, as "a, b, c" into buf, and
 * the condition that a row p of the part differs from row m of main in
 * one of them (`cmp`: only those columns; NULL: none) into diff. */
static int columns(merge_t *m, const char *t, const char *skip, const char *const *cmp, char *buf, size_t n,
                   char *diff, size_t dn)
{
	sqlite3_stmt *st = NULL;
	int err = db__prepare(m->db, "SELECT name FROM pragma_table_info(?1)", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	size_t len = 0, dlen = 0;
	buf[0] = diff[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		if (!strcmp(c, skip))
			continue;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "", c);
		for (const char *const *k = cmp; k && *k; k++)
			if (!strcmp(*k, c))
				dlen += (size_t)snprintf(diff + dlen, dlen < dn ? dn - dlen : 0, "%sp.%s IS NOT x.%s",
				                         dlen ? " OR " : "", c, c);
	}
	sqlite3_finalize(st);
	if (len >= n || dlen >= dn)
		return db__fail(m->db, DB_EINVAL, "table %s has too many columns to merge", t);
	if (!len)
		return db__fail(m->db, DB_ESQL, "table %s has no columns", t);
	if (!dlen)
		snprintf(diff, dn, "0");
	return 0;
}

/* Rows of the part's table t for campaign `from` copied into main as
 * campaign `to`, keyed by `key` within the campaign (NULL: one row per
 * campaign): a row main has already must equal the part's in the columns
 * cmp, else the merge is refused naming the row. *added: rows copied. */
static int merge_rows(merge_t *m, const char *t, const char *key, const char *const *cmp, const char *what,
                      const char *campaign, int64_t from, int64_t to, uint64_t *added)
{
	char cols[2048], diff[2048], sql[8192];
	int err = columns(m, t, "campaign_id", cmp, cols, sizeof cols, diff, sizeof diff);
	if (err)
		return err;
	char on[128];
	if (key)
		snprintf(on, sizeof on, " AND x.%s = p.%s", key, key);
	else
		on[0] = '\0';
	snprintf(sql, sizeof sql,
	         "SELECT %s%s FROM part.%s p JOIN main.%s x ON x.campaign_id = ?1%s"
	         " WHERE p.campaign_id = ?2 AND (%s) LIMIT 1",
	         key ? "p." : "", key ? key : "0", t, t, on, diff);
	sqlite3_stmt *st = NULL;
	if ((err = db__prepare(m->db, sql, &st)))
		return err;
	sqlite3_bind_int64(st, 1, to);
	sqlite3_bind_int64(st, 2, from);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (key)
			err = db__fail(m->db, DB_ECONFLICT, "%s: campaign '%s': %s %s %" PRId64 " differs from the one "
			               "already merged: the shards did not run the same campaign", m->part, campaign, what, key,
			               (int64_t)sqlite3_column_int64(st, 0));
		else
			err = db__fail(m->db, DB_ECONFLICT, "%s: campaign '%s': its %s differs from the one already merged: "
			               "the shards did not run the same campaign", m->part, campaign, what);
	} else if (rc != SQLITE_DONE) {
		err = db__sqlerr(m->db, rc, "comparing the part");
	}
	sqlite3_finalize(st);
	if (err)
		return err;
	snprintf(sql, sizeof sql,
	         "INSERT INTO main.%s (campaign_id, %s) SELECT ?1, %s FROM part.%s p WHERE p.campaign_id = ?2"
	         " AND NOT EXISTS (SELECT 1 FROM main.%s x WHERE x.campaign_id = ?1%s)",
	         t, cols, cols, t, t, on);
	if ((err = db__prepare(m->db, sql, &st)))
		return err;
	sqlite3_bind_int64(st, 1, to);
	sqlite3_bind_int64(st, 2, from);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db__sqlerr(m->db, rc, "copying the part's rows");
	*added += (uint64_t)sqlite3_changes(m->db->sql);
	return 0;
}

/* The part's campaign `from` in main: found by its config_hash, or made
 * (*made). A campaign of the same name and another definition, or the
 * same definition written by another flipsim, is refused. */
static int merge_campaign_row(merge_t *m, int64_t from, const char *name, const char *hash, const char *version,
                              int64_t *to, bool *made)
{
	sqlite3_stmt *st = NULL;
	int err = db__prepare(m->db, "SELECT id, tool_version FROM main.campaigns WHERE config_hash = ?1", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	*made = false;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*to = sqlite3_column_int64(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (strcmp(v, version))
			err = db__fail(m->db, DB_ECONFLICT, "%s: campaign '%s' was run by flipsim %s, the one already merged "
			               "by flipsim %s: merge shards of one flipsim version", m->part, name, version, v);
		sqlite3_finalize(st);
		return err;
	}
	sqlite3_finalize(st);
	if ((err = db__prepare(m->db, "SELECT config_hash, tool_version FROM main.campaigns WHERE name = ?1 LIMIT 1", &st)))
		return err;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		err = db__fail(m->db, DB_ECONFLICT, "%s: campaign '%s' (config %s, flipsim %s) is not the campaign '%s' "
		               "already merged (config %s, flipsim %s): another seed, workload, GPU, setting or flipsim "
		               "version; merge shards of one campaign file run by one flipsim", m->part, name, hash, version,
		               name, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
		sqlite3_finalize(st);
		return err;
	}
	sqlite3_finalize(st);
	char cols[2048], diff[8], sql[4600];
	if ((err = columns(m, "campaigns", "id", NULL, cols, sizeof cols, diff, sizeof diff)))
		return err;
	snprintf(sql, sizeof sql, "INSERT INTO main.campaigns (%s) SELECT %s FROM part.campaigns WHERE id = ?1", cols,
	         cols);
	if ((err = db__prepare(m->db, sql, &st)))
		return err;
	sqlite3_bind_int64(st, 1, from);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db__sqlerr(m->db, rc, "copying a campaign");
	*to = sqlite3_last_insert_rowid(m->db->sql);
	*made = true;
	return 0;
}

/* The part's shard rows of campaign `from` as merged shards of `to`: the
 * shard counts must agree; a shard main ran itself stays 'run'. */
static int merge_shards(merge_t *m, const char *name, int64_t from, int64_t to, double now, const char *host)
{
	int64_t bad = 0;
	int err = one_int(m->db,
	                  "SELECT p.nshards FROM part.shards p WHERE p.campaign_id = ?2 AND EXISTS"
	                  " (SELECT 1 FROM main.shards x WHERE x.campaign_id = ?1 AND x.nshards <> p.nshards) LIMIT 1",
	                  to, from, &bad);
	if (err)
		return err;
	if (bad)
		return db__fail(m->db, DB_ECONFLICT, "%s: campaign '%s' was split into %" PRId64 " shards, the shards "
		                "already merged into another count", m->part, name, bad);
	sqlite3_stmt *st = NULL;
	if ((err = db__prepare(m->db, "INSERT INTO main.shards (campaign_id, shard, nshards, origin, source, host, updated)"
	                       " SELECT ?1, p.shard, p.nshards, 'merge', ?3, ?4, ?5 FROM part.shards p"
	                       " WHERE p.campaign_id = ?2"
	                       " ON CONFLICT (campaign_id, shard) DO UPDATE SET source = excluded.source,"
	                       " host = excluded.host, updated = excluded.updated WHERE origin = 'merge'",
	                &st)))
		return err;
	sqlite3_bind_int64(st, 1, to);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_text(st, 3, m->abspart, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, host, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 5, now);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db__sqlerr(m->db, rc, "recording the merged shards");
	int64_t nrows = 0;
	if ((err = one_int(m->db, "SELECT count(*) FROM part.shards WHERE campaign_id = ?1", from, 0, &nrows)))
		return err;
	m->st->shards += (uint64_t)nrows;
	return 0;
}

static const char *const GOLDEN_CMP[] = {"cycles", "thread_insts", "warp_insts", "num_sms", "bits_per_sm",
                                         "output_digest", NULL};
static const char *const KERNEL_CMP[] = {"kernel", "start_cycle", "end_cycle", "grid", "block", NULL};
static const char *const MASK_CMP[] = {"cycle", "sm", "loc", "nbits", "extra", "kernel", NULL};
static const char *const EXP_CMP[] = {"outcome", NULL};

/* Every campaign of the attached part into main. */
static int merge_all(merge_t *m, double now, const char *host)
{
	sqlite3_stmt *st = NULL;
	int err = db__prepare(m->db, "SELECT id, name, config_hash, tool_version FROM part.campaigns ORDER BY id", &st);
	if (err)
		return err;
	int rc;
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t from = sqlite3_column_int64(st, 0), to = 0;
		char name[512], hash[64], version[128];
		db__column_text(st, 1, name, sizeof name);
		db__column_text(st, 2, hash, sizeof hash);
		db__column_text(st, 3, version, sizeof version);
		bool made;
		uint64_t ignored = 0;
		m->st->campaigns++;
		if ((err = merge_campaign_row(m, from, name, hash, version, &to, &made)))
			break;
		m->st->new_campaigns += made;
		if ((err = merge_rows(m, "golden", NULL, GOLDEN_CMP, "golden run", name, from, to, &ignored)) ||
		    (err = merge_rows(m, "kernels", "launch_index", KERNEL_CMP, "kernel invocation", name, from, to,
		                      &ignored)) ||
		    (err = merge_rows(m, "masks", "idx", MASK_CMP, "mask", name, from, to, &m->st->new_masks)) ||
		    (err = merge_rows(m, "experiments", "idx", EXP_CMP, "experiment", name, from, to,
		                      &m->st->new_experiments)) ||
		    (err = merge_shards(m, name, from, to, now, host)))
			break;
		int64_t n = 0;
		if ((err = one_int(m->db, "SELECT count(*) FROM part.experiments WHERE campaign_id = ?1", from, 0, &n)))
			break;
		m->st->experiments += (uint64_t)n;
	}
	if (!err && rc != SQLITE_DONE)
		err = db__sqlerr(m->db, rc, "reading the part's campaigns");
	sqlite3_finalize(st);
	return err;
}

/* The part's header: a flipsim database of this schema version, not the
 * output itself. */
static int check_part(merge_t *m)
{
	struct stat a, b;
	if (stat(m->part, &a))
		return db__fail(m->db, DB_ENOTFOUND, "%s: no such file", m->part);
	if (!stat(m->db->path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return db__fail(m->db, DB_ECONFLICT, "%s: is the output database itself", m->part);
	if (!realpath(m->part, m->abspart))
		snprintf(m->abspart, sizeof m->abspart, "%s", m->part);
	sqlite3 *p = NULL;
	int rc = sqlite3_open_v2(m->part, &p, SQLITE_OPEN_READONLY, NULL);
	int64_t app = 0, version = -1;
	sqlite3_stmt *st = NULL;
	if (rc == SQLITE_OK && sqlite3_prepare_v2(p, "PRAGMA application_id", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		app = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_OK && sqlite3_prepare_v2(p, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(p);
	if (app != DB_APPLICATION_ID)
		return db__fail(m->db, DB_ENOTDB, "%s: not a flipsim database", m->part);
	if (version != DB_SCHEMA_VERSION)
		return db__fail(m->db, DB_ECONFLICT, "%s: schema version %" PRId64 ", this flipsim writes %d: merge parts "
		                "written by the flipsim that merges them", m->part, version, DB_SCHEMA_VERSION);
	return 0;
}

int db_merge(db_t *db, const char *part, const char *host, double now, db_merge_stats_t *st)
{
	if (!db || !part || !host || !st)
		return db ? db__fail(db, DB_EINVAL, "merge: missing argument") : DB_EINVAL;
	memset(st, 0, sizeof *st);
	merge_t m = {.db = db, .part = part, .st = st};
	int err = check_part(&m);
	if (err)
		return err;
	sqlite3_stmt *at = NULL;
	if ((err = db__prepare(db, "ATTACH DATABASE ?1 AS part", &at)))
		return err;
	sqlite3_bind_text(at, 1, part, -1, SQLITE_STATIC);
	int rc = sqlite3_step(at);
	sqlite3_finalize(at);
	if (rc != SQLITE_DONE)
		return db__sqlerr(db, rc, "attaching the part");
	if (!(err = db__begin_write(db)) && !(err = merge_all(&m, now, host)))
		err = db__commit_write(db);
	if (err)
		db__rollback(db);
	sqlite3_exec(db->sql, "DETACH DATABASE part", NULL, NULL, NULL);
	return err;
}
