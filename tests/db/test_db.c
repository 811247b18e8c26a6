/* Tests for db/: opening and refusing files, the exactly-once writer, pending
 * masks, and the AVF/FIT/MITF views against hand-computed values. Every test
 * works in its own mkdtemp directory; nothing depends on timing. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db.h"
#include "tmpdir.h"
#include "db_int.h"

/* ---- fixtures ------------------------------------------------------------ */

static char dir[64];
static char dbpath[128];

static void setup(void)
{
	tmpdir_make(dir, sizeof dir, "flipsim-db");
	snprintf(dbpath, sizeof dbpath, "%s/R.db", dir);
}

static void teardown(void) { tmpdir_remove(dir); }

TestSuite(db, .init = setup, .fini = teardown);

static db_t *open_db(bool create)
{
	db_t *db = NULL;
	char err[512];
	int rc = db_open(dbpath, create, &db, err, sizeof err);
	cr_assert_eq(rc, 0, "db_open: %d %s", rc, err);
	return db;
}

static db_campaign_t campaign(const char *hash, const char *target, const char *sampling)
{
	return (db_campaign_t){
		.name = hash,
		.workload = "vadd",
		.gpu = "gtx480",
		.regs = "ptx",
		.config = "{\"workload\":\"vadd\"}",
		.config_hash = hash,
		.tool_version = "0.1.0",
		.seed = UINT64_MAX - 1, /* reads negative in SQL: bit pattern */
		.target = target,
		.sampling = sampling,
		.fit_per_bit = 0.001,
		.confidence = 0.95,
		.n_masks = 100,
	};
}

static int64_t new_campaign(db_t *db, const char *hash, const char *target, const char *sampling)
{
	db_campaign_t c = campaign(hash, target, sampling);
	int64_t id = 0;
	bool existed = true;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	cr_assert(!existed);
	return id;
}

/* Stores n masks (idx 0..n-1, cycle = cycle0 + idx) and experiments for
 * them: the first sdc are SDC, the next due DUE, the rest Masked. */
static void fill(db_t *db, int64_t id, uint64_t first, uint32_t n, uint64_t cycle0, uint32_t sdc,
                 uint32_t due)
{
	db_mask_t *m = calloc(n, sizeof *m);
	db_experiment_t *e = calloc(n, sizeof *e);
	cr_assert(m && e);
	for (uint32_t i = 0; i < n; i++) {
		m[i] = (db_mask_t){.idx = first + i, .cycle = cycle0 + i, .sm = i % 15,
		                   .loc = first + i, .nbits = 1};
		e[i] = (db_experiment_t){.idx = first + i,
		                         .outcome = i < sdc ? DB_SDC : i < sdc + due ? DB_DUE : DB_MASKED,
		                         .reason = i < sdc + due ? "output_differs" : "output_equal",
		                         .cycles = 10, .wall = 0.5, .worker = 1};
	}
	cr_assert_eq(db_masks_put(db, id, m, n), 0, "%s", db_errmsg(db));
	uint32_t ins = 0;
	cr_assert_eq(db_experiments_put(db, id, e, n, &ins), 0, "%s", db_errmsg(db));
	cr_assert_eq(ins, n);
	free(m);
	free(e);
}

static db_golden_t golden(uint32_t num_sms, uint64_t bits_per_sm, double ipc)
{
	db_golden_t g = {.cycles = 1000, .thread_insts = 250500, .warp_insts = 7828, .ipc = ipc,
	                 .clock_mhz = 700, .num_sms = num_sms, .bits_per_sm = bits_per_sm,
	                 .wall_seconds = 1.25};
	snprintf(g.output_digest, sizeof g.output_digest, "%s", "9f86d081884c7d65");
	return g;
}

/* A raw connection, for what the API does not show. */
static sqlite3 *raw(void)
{
	sqlite3 *s = NULL;
	cr_assert_eq(sqlite3_open(dbpath, &s), SQLITE_OK);
	sqlite3_busy_timeout(s, 5000);
	return s;
}

static double raw_real(sqlite3 *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql,
	             sqlite3_errmsg(s));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: no row", sql);
	double v = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void raw_exec(sqlite3 *s, const char *sql)
{
	cr_assert_eq(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK, "%s: %s", sql,
	             sqlite3_errmsg(s));
}

/* Turns the file of s (current schema) into one of schema `version`, as an
 * older flipsim left it: every view dropped, the tables later steps added
 * dropped, the columns later steps added to kept tables dropped, and the
 * views of steps 1..version created again. The reference is those steps
 * run in memory. */
static void downgrade(sqlite3 *s, int version)
{
	sqlite3 *ref = NULL;
	cr_assert_eq(sqlite3_open(":memory:", &ref), SQLITE_OK);
	for (int v = 1; v <= version; v++)
		raw_exec(ref, db__migration(v));
	sqlite3_stmt *st = NULL;
	char sql[4400];
	/* views first (they may name the tables), then the later tables */
	cr_assert_eq(sqlite3_prepare_v2(s, "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'table')"
	                                " AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY type = 'table'",
	                                -1, &st, NULL), SQLITE_OK);
	char names[64][64], types[64][8];
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW && n < 64) {
		snprintf(types[n], sizeof types[n], "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(names[n++], sizeof names[0], "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		if (!strcmp(types[i], "table")) {
			snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'",
			         names[i]);
			if (raw_real(ref, sql) > 0)
				continue;
		}
		snprintf(sql, sizeof sql, "DROP %s %s", !strcmp(types[i], "view") ? "VIEW" : "TABLE", names[i]);
		raw_exec(s, sql);
	}
	/* columns later steps added to kept tables */
	if (version < 8)
		raw_exec(s, "ALTER TABLE experiments DROP COLUMN prot_cycle; ALTER TABLE experiments DROP COLUMN prot");
	if (version < 7)
		raw_exec(s, "ALTER TABLE campaigns DROP COLUMN stop; ALTER TABLE campaigns DROP COLUMN looks;"
		            " ALTER TABLE campaigns DROP COLUMN strata");
	if (version < 5)
		raw_exec(s, "ALTER TABLE experiments DROP COLUMN severity; ALTER TABLE experiments DROP COLUMN effect;"
		            " ALTER TABLE experiments DROP COLUMN site");
	/* experiments as the version made it (schema 11 made it again with
	 * another CHECK on prot): rebuilt from the reference's definition */
	if (version < 11) {
		cr_assert_eq(sqlite3_prepare_v2(ref, "SELECT sql FROM sqlite_master WHERE name = 'experiments'", -1, &st,
		                                NULL), SQLITE_OK);
		cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
		const char *def = (const char *)sqlite3_column_text(st, 0);
		cr_assert(!strncmp(def, "CREATE TABLE experiments (", 26));
		snprintf(sql, sizeof sql, "PRAGMA legacy_alter_table = ON; CREATE TABLE experiments_old %s;"
		         " INSERT INTO experiments_old SELECT * FROM experiments; DROP TABLE experiments;"
		         " ALTER TABLE experiments_old RENAME TO experiments; PRAGMA legacy_alter_table = OFF", def + 25);
		sqlite3_finalize(st);
		raw_exec(s, sql);
	}
	cr_assert_eq(sqlite3_prepare_v2(ref, "SELECT sql FROM sqlite_master WHERE type = 'view' ORDER BY rowid", -1,
	                                &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		raw_exec(s, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(ref);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", version);
	raw_exec(s, sql);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static bool exists(const char *suffix)
{
	char p[256];
	snprintf(p, sizeof p, "%s%s", dbpath, suffix);
	return access(p, F_OK) == 0;
}

/* Opens the file both ways, expecting `code` and a message containing
 * `text`, and checks the file's bytes did not change. */
static void expect_refused(int code, const char *text)
{
	size_t len0, len1;
	char *before = slurp(dbpath, &len0);
	for (int create = 1; create >= 0; create--) {
		db_t *db = (db_t *)1;
		char err[512];
		int rc = db_open(dbpath, create, &db, err, sizeof err);
		cr_assert_eq(rc, code, "create=%d: %d (%s)", create, rc, err);
		cr_assert_null(db);
		cr_assert(strstr(err, text), "message '%s' lacks '%s'", err, text);
		cr_assert(strncmp(err, dbpath, strlen(dbpath)) == 0, "message names the file: %s", err);
	}
	char *after = slurp(dbpath, &len1);
	cr_assert_eq(len0, len1);
	cr_assert(memcmp(before, after, len0) == 0, "file changed");
	cr_assert(!exists("-wal") && !exists("-journal"));
	free(before);
	free(after);
}

/* ---- opening ------------------------------------------------------------ */

Test(db, creates_schema_and_reopens)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	db_close(db);

	sqlite3 *s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA application_id"), (double)0x464C5053);
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_assert_eq(raw_real(s, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM pragma_table_list WHERE strict = 1 AND name IN"
	                         " ('campaigns','golden','kernels','masks','experiments')"),
	             5);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name IN"
	                         " ('campaign_df','avf','fit','fit_gpu','mitf','avf_kernel','study',"
	                         "  'study_gpu','study_kernel')"),
	             9);
	/* uint64 seed stored as its int64 bit pattern; z computed in C. */
	cr_assert_eq(raw_real(s, "SELECT seed = -2 FROM campaigns"), 1);
	cr_assert_float_eq(raw_real(s, "SELECT z FROM campaigns"), 1.959963984540054, 1e-12);
	sqlite3_close(s);

	db = open_db(true);
	db_campaign_t c = campaign("h1", "regfile", "physical");
	int64_t again = 0;
	bool existed = false;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &again, &existed), 0, "%s", db_errmsg(db));
	cr_assert(existed);
	cr_assert_eq(again, id);
	db_close(db);

	/* a reader reads it and writes nothing */
	db = open_db(false);
	db_campaign_info_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_campaigns_list(db, &list, &n), 0, "%s", db_errmsg(db));
	cr_assert_eq(n, 1);
	cr_assert_eq(list[0].id, id);
	db_campaigns_free(list, n);
	cr_assert_eq(db_campaign_get_or_create(db, &c, &again, &existed), DB_EREADONLY);
	db_close(db);
}

Test(db, empty_file_is_initialised_but_not_opened_for_reading)
{
	FILE *f = fopen(dbpath, "w");
	fclose(f);
	db_t *db = NULL;
	char err[256];
	cr_assert_eq(db_open(dbpath, false, &db, err, sizeof err), DB_ENOTDB);
	cr_assert(strstr(err, "not a flipsim database (empty)"), "%s", err);
	db = open_db(true);
	db_close(db);
	db = open_db(false);
	db_close(db);
}

Test(db, missing_file_needs_create)
{
	db_t *db = NULL;
	char err[256];
	cr_assert_eq(db_open(dbpath, false, &db, err, sizeof err), DB_ENOTFOUND);
	cr_assert(strstr(err, dbpath));
	cr_assert(!exists(""));
}

Test(db, refuses_other_application_id)
{
	sqlite3 *s = raw();
	raw_exec(s, "PRAGMA application_id = 305419896; CREATE TABLE t (x INTEGER) STRICT;"
	            " INSERT INTO t VALUES (42)");
	sqlite3_close(s);
	expect_refused(DB_ENOTDB, "not a flipsim database (application_id 0x12345678)");
}

Test(db, refuses_foreign_database_without_application_id)
{
	sqlite3 *s = raw();
	raw_exec(s, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me')");
	sqlite3_close(s);
	expect_refused(DB_ENOTDB, "not a flipsim database (application_id 0x00000000)");
}

Test(db, refuses_newer_schema)
{
	db_t *db = open_db(true);
	new_campaign(db, "h1", "regfile", "physical");
	db_close(db);
	sqlite3 *s = raw();
	char sql[64], msg[96];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", DB_SCHEMA_VERSION + 1);
	raw_exec(s, sql);
	sqlite3_close(s);
	snprintf(msg, sizeof msg, "written by a newer flipsim (schema %d; this one reads up to %d)", DB_SCHEMA_VERSION + 1,
	         DB_SCHEMA_VERSION);
	expect_refused(DB_ENEWER, msg);
}

/* A version-1 file (no per-kernel or study views) is read as it is by a
 * reader, every view of the current schema included, without a byte
 * written; a writer upgrades it in place, its rows kept. */
Test(db, migrates_version_1)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 10, 0, 1, 0);
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 1);
	sqlite3_close(s);

	size_t len0, len1;
	char *before = slurp(dbpath, &len0);
	db = open_db(false);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0, "%s", db_errmsg(db));
	cr_assert_eq(p.done, 10);
	char *out = NULL, err[512];
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	cr_assert_eq(db_report(db, DB_TEXT, f, err, sizeof err), 0, "the per-kernel table too: %s", err);
	fclose(f);
	free(out);
	db_close(db);
	char *after = slurp(dbpath, &len1);
	cr_assert(len0 == len1 && memcmp(before, after, len0) == 0, "a reader changed the file");
	free(before);
	free(after);
	s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), 1);
	sqlite3_close(s);

	db = open_db(true);
	db_close(db);
	s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name IN"
	                         " ('avf_kernel','study','study_gpu','study_kernel')"),
	             4);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'daemons'"), 1);
	sqlite3_close(s);
}

/* A file with flipsim's application_id whose schema is missing or damaged
 * is refused by readers and writers alike, not repaired, not half-read,
 * not a byte written (issue 10: status created the schema, or upgraded
 * user_version and switched to WAL, then failed). */
Test(db, damaged_schema_refused_untouched)
{
	static const struct {
		const char *sql, *why;
	} cases[] = {
		{"PRAGMA user_version = 1", "a damaged flipsim database (schema 1 lacks the table campaigns)"},
		{"PRAGMA user_version = 2; CREATE TABLE campaigns (id INTEGER PRIMARY KEY)",
		 "a damaged flipsim database (schema 2 lacks the table golden)"},
		{"CREATE TABLE notes (x TEXT)", "a damaged flipsim database (schema version 0 with 1 objects)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unlink(dbpath);
		sqlite3 *s = raw();
		raw_exec(s, "PRAGMA application_id = 1179406419");
		raw_exec(s, cases[i].sql);
		sqlite3_close(s);
		expect_refused(DB_ENOTDB, cases[i].why);
	}
	/* our id and nothing else: a writer initialises it, a reader refuses it */
	unlink(dbpath);
	sqlite3 *s = raw();
	raw_exec(s, "PRAGMA application_id = 1179406419");
	sqlite3_close(s);
	size_t len0, len1;
	char *before = slurp(dbpath, &len0), err[512];
	db_t *db = NULL;
	cr_assert_eq(db_open(dbpath, false, &db, err, sizeof err), DB_ENOTDB);
	cr_assert(strstr(err, "a damaged flipsim database (schema version 0 with 0 objects)"), "%s", err);
	char *after = slurp(dbpath, &len1);
	cr_assert(len0 == len1 && memcmp(before, after, len0) == 0, "the reader wrote");
	free(before);
	free(after);
	db_close(open_db(true));

	/* a view that no longer compiles, in a file of the current schema */
	s = raw();
	raw_exec(s, "DROP VIEW study_kernel; CREATE VIEW study_kernel AS SELECT * FROM gone");
	sqlite3_close(s);
	before = slurp(dbpath, &len0);
	for (int create = 1; create >= 0; create--) {
		cr_assert_eq(db_open(dbpath, create, &db, err, sizeof err), DB_ENOTDB, "create=%d: %s", create, err);
		cr_assert(strstr(err, "a damaged flipsim database (view study_kernel: no such table: main.gone)") ||
		          strstr(err, "a damaged flipsim database (view study_kernel: no such table: gone)"), "%s", err);
	}
	after = slurp(dbpath, &len1);
	cr_assert(len0 == len1 && memcmp(before, after, len0) == 0, "file changed");
	free(before);
	free(after);
}

/* --db in a folder that does not exist says so (it said read-only). */
Test(db, missing_folder_named)
{
	char path[256], err[512];
	snprintf(path, sizeof path, "%s/nodir/R.db", dir);
	db_t *db = NULL;
	cr_assert_eq(db_open(path, true, &db, err, sizeof err), DB_ENOTFOUND, "%s", err);
	cr_assert(strstr(err, "its folder") && strstr(err, "/nodir does not exist"), "%s", err);
	cr_assert(!strstr(err, "read-only"), "%s", err);
}

/* A version-2 file (its avf views derated live sampling by a product of
 * means) gets the views of version 3 when opened, its rows kept. */
Test(db, migrates_version_2)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "lv", "regfile", "live");
	db_golden_t g = golden(2, 100, 1.0);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10, 0, 2, 0);
	db_close(db);
	sqlite3 *s = raw();
	/* idx 0-1 fail at 80 live bits; 2-4 busy, 5-9 on an idle SM */
	raw_exec(s, "UPDATE experiments SET live_bits = CASE WHEN idx < 5 THEN 80 ELSE 0 END");
	downgrade(s, 2);
	/* schema 2's estimator: df 0.4 (mean live share) x 2 failures of 10 */
	cr_assert_float_eq(raw_real(s, "SELECT avf_derated FROM avf WHERE kernel = 'all'"), 0.08, 1e-12);
	sqlite3_close(s);

	/* a reader reads it by the new views without writing it */
	db = open_db(false);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0, "%s", db_errmsg(db));
	cr_expect_eq(p.done, 10);
	cr_expect_float_eq(p.df, 0.4, 1e-12);
	cr_expect_float_eq(p.avf_derated, 2 * 0.8 / 10, 1e-12);
	cr_expect_float_eq(p.avf, 0.4, 1e-12); /* 2 of the 5 busy draws, weighed alike */
	db_close(db);
	s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), 2);
	sqlite3_close(s);
	/* a writer upgrades it in place */
	db_close(open_db(true));
	s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name IN"
	                         " ('exp_weight','campaign_df','avf','avf_kernel','fit','study')"),
	             6);
	cr_expect_float_eq(raw_real(s, "SELECT avf_derated FROM fit"), 0.16, 1e-12);
	sqlite3_close(s);
}

/* A version-3 file (campaigns.target without the cache targets) is made
 * version 4 by a writer: the table campaigns again, every row of every
 * table kept and every reference to a campaign still holding; a cache
 * target can be stored then, and not before. A reader reads it unchanged. */
Test(db, migrates_version_3)
{
	sqlite3 *s = raw();
	for (int v = 1; v <= 3; v++)
		raw_exec(s, db__migration(v));
	char sql[96];
	snprintf(sql, sizeof sql, "PRAGMA user_version = 3; PRAGMA application_id = %d", DB_APPLICATION_ID);
	raw_exec(s, sql);
	sqlite3_close(s);
	db_t *db = open_db(false);
	db_close(db);
	s = raw();
	cr_assert_eq(raw_real(s, "PRAGMA user_version"), 3, "a reader does not migrate the file");
	sqlite3_close(s);

	/* rows as schema 3 stored them: the writer of this build refuses to
	 * open the file without migrating it, so they are written raw */
	s = raw();
	raw_exec(s, "INSERT INTO campaigns (id, name, workload, gpu, regs, config, config_hash, tool_version, seed,"
	            " target, sampling, fit_per_bit, confidence, z, n_masks)"
	            " VALUES (7, 'c7', 'w', 'gtx480', 'ptx', '{}', 'h7', 'v', 1, 'simt', 'physical', 0.001, 0.95,"
	            " 1.96, 2);"
	            "INSERT INTO golden VALUES (7, 100, 200, 20, 2.0, 1401, 15, 1000, 'd', 0.5);"
	            "INSERT INTO kernels VALUES (7, 0, 'k', 0, 100, '1,1,1', '32,1,1', 8, 32, 1, 0, 0.1, 0);"
	            "INSERT INTO masks VALUES (7, 0, 10, 3, 5, 1, NULL, 0), (7, 1, 20, 4, 6, 1, NULL, 0);"
	            "INSERT INTO experiments VALUES (7, 0, 'sdc', 'output:c', 5, 0, 0.1, 0, NULL);");
	cr_assert_neq(sqlite3_exec(s, "INSERT INTO campaigns (name, workload, gpu, regs, config, config_hash,"
	                              " tool_version, seed, target, sampling, fit_per_bit, confidence, z, n_masks)"
	                              " VALUES ('c8', 'w', 'gtx480', 'ptx', '{}', 'h8', 'v', 1, 'l2', 'physical',"
	                              " 0.001, 0.95, 1.96, 0)", NULL, NULL, NULL), SQLITE_OK,
	              "schema 3 has no l2 target");
	sqlite3_close(s);

	db = open_db(true);
	int64_t id = new_campaign(db, "h-l2", "l2", "physical");
	cr_expect_gt(id, 7);
	db_progress_t p;
	cr_assert_eq(db_progress(db, 7, &p), 0, "%s", db_errmsg(db));
	cr_expect_eq(p.done, 1);
	db_close(db);
	s = raw();
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM campaigns"), 2);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM golden") + raw_real(s, "SELECT count(*) FROM kernels") +
	                 raw_real(s, "SELECT count(*) FROM masks") + raw_real(s, "SELECT count(*) FROM experiments"),
	             1 + 1 + 2 + 1, "every row kept");
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM sqlite_master WHERE name = 'campaigns_v4'"), 0);
	cr_expect_eq(raw_real(s, "SELECT bits FROM fit WHERE campaign_id = 7"), 15000, "the views read the new table");
	/* the references follow the table: deleting the campaign deletes its rows */
	raw_exec(s, "PRAGMA foreign_keys = ON; DELETE FROM campaigns WHERE id = 7");
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM masks") + raw_real(s, "SELECT count(*) FROM golden"), 0);
	sqlite3_close(s);
}

Test(db, refuses_non_sqlite_file)
{
	FILE *f = fopen(dbpath, "w");
	for (int i = 0; i < 100; i++)
		fprintf(f, "campaign results, line %d: this is not SQLite\n", i);
	fclose(f);
	expect_refused(DB_ENOTDB, "not a flipsim database (not an SQLite file)");
}

Test(db, read_only_file_reads_but_refuses_writes)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 10, 0, 1, 0);
	db_close(db);

	/* chmod does not stop root: become nobody (this test runs in its own
	 * process) and hand it the directory. */
	cr_assert_eq(chmod(dbpath, 0444), 0);
	if (geteuid() == 0) {
		cr_assert_eq(chown(dir, 65534, 65534), 0);
		cr_assert_eq(chown(dbpath, 65534, 65534), 0);
		cr_assert_eq(setgid(65534), 0);
		cr_assert_eq(setuid(65534), 0);
	}
	size_t len0, len1;
	char *before = slurp(dbpath, &len0);

	char err[512];
	db = NULL;
	cr_assert_eq(db_open(dbpath, true, &db, err, sizeof err), DB_EREADONLY);
	cr_assert(strstr(err, "read-only"), "%s", err);
	cr_assert(strncmp(err, dbpath, strlen(dbpath)) == 0);

	db = open_db(false);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0, "%s", db_errmsg(db));
	cr_assert_eq(p.done, 10);
	cr_assert_eq(p.sdc, 1);
	db_experiment_t e = {.idx = 0, .outcome = DB_MASKED};
	cr_assert_eq(db_experiments_put(db, id, &e, 1, NULL), DB_EREADONLY);
	cr_assert(strstr(db_errmsg(db), "read-only"));
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	cr_assert_eq(db_report(db, DB_TEXT, f, err, sizeof err), 0, "%s", err);
	fclose(f);
	cr_assert(strstr(out, "10.00%"), "%s", out);
	free(out);
	db_close(db);

	char *after = slurp(dbpath, &len1);
	cr_assert(len0 == len1 && memcmp(before, after, len0) == 0);
	free(before);
	free(after);
}

/* ---- concurrency: WAL ------------------------------------------------------ */

Test(db, reader_not_blocked_by_open_write_transaction)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 4, 0, 1, 0);
	db_mask_t m = {.idx = 4, .cycle = 99, .nbits = 1};
	cr_assert_eq(db_masks_put(db, id, &m, 1), 0);

	/* Another writer holds a write transaction open... */
	sqlite3 *w = raw();
	raw_exec(w, "BEGIN IMMEDIATE; INSERT INTO experiments (campaign_id, idx, outcome, reason, cycles, early, wall,"
	            " worker, live_bits) VALUES"
	            " (1, 4, 'due', 'timeout', 5, 0, 0.1, 7, NULL)");

	/* ...a reader still reads, the committed state only... */
	db_t *rd = open_db(false);
	db_progress_t p;
	cr_assert_eq(db_progress(rd, id, &p), 0, "%s", db_errmsg(rd));
	cr_assert_eq(p.done, 4);
	cr_assert_eq(p.due, 0);
	uint64_t n = 0;
	db_mask_t *pend = NULL;
	cr_assert_eq(db_masks_pending(rd, id, &pend, &n), 0);
	cr_assert_eq(n, 1);
	free(pend);

	/* ...and a second writer waits, then fails cleanly as locked. */
	cr_assert_eq(db_set_busy_timeout(db, 20), 0);
	db_experiment_t e = {.idx = 4, .outcome = DB_MASKED};
	uint32_t ins = 99;
	cr_assert_eq(db_experiments_put(db, id, &e, 1, &ins), DB_EBUSY);
	cr_assert(strstr(db_errmsg(db), "locked"), "%s", db_errmsg(db));
	cr_assert_eq(ins, 0);

	raw_exec(w, "COMMIT");
	sqlite3_close(w);
	cr_assert_eq(db_progress(rd, id, &p), 0);
	cr_assert_eq(p.done, 5);
	cr_assert_eq(p.due, 1);
	cr_assert_eq(db_experiments_put(db, id, &e, 1, &ins), 0);
	cr_assert_eq(ins, 0, "the mask already has its experiment");
	db_close(rd);
	db_close(db);
}

/* ---- a full disk ------------------------------------------------------------ */

/* Batches of experiments written until the disk is "full" (every write past
 * 64 KiB fails: RLIMIT_FSIZE in a child process, SIGXFSZ ignored, as a full
 * disk fails SQLite's writes): the failing batch is a clear DB_EIO naming
 * the file, and every batch committed before it is there, intact. */
Test(db, full_disk_keeps_every_committed_batch)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	enum { N = 4000, BATCH = 50 };
	db_mask_t *m = calloc(N, sizeof *m);
	for (uint32_t i = 0; i < N; i++)
		m[i] = (db_mask_t){.idx = i, .cycle = i, .sm = i % 15, .loc = i, .nbits = 1};
	cr_assert_eq(db_masks_put(db, id, m, N), 0, "%s", db_errmsg(db));
	free(m);
	db_close(db);

	int p[2];
	cr_assert_eq(pipe(p), 0);
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(p[0]);
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit r = {64 * 1024, 64 * 1024};
		setrlimit(RLIMIT_FSIZE, &r);
		char err[512] = "";
		int rc = db_open(dbpath, true, &db, err, sizeof err), ok = 0;
		for (uint32_t b = 0; !rc && b < N / BATCH; b++) {
			db_experiment_t e[BATCH];
			for (uint32_t i = 0; i < BATCH; i++)
				e[i] = (db_experiment_t){.idx = b * BATCH + i, .outcome = DB_SDC, .reason = "output:c",
				                         .cycles = 1000 + i, .wall = 0.25, .worker = 3};
			if (!(rc = db_experiments_put(db, id, e, BATCH, NULL)))
				ok++;
			else
				snprintf(err, sizeof err, "%s", db_errmsg(db));
		}
		dprintf(p[1], "%d %d %s", ok, rc, err);
		_exit(0); /* no db_close: the process dies with its failure */
	}
	close(p[1]);
	char buf[700] = "";
	ssize_t k = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	waitpid(pid, NULL, 0);
	cr_assert_gt(k, 0);
	buf[k] = 0;
	int ok = -1, rc = 0, off = 0;
	cr_assert_eq(sscanf(buf, "%d %d %n", &ok, &rc, &off), 2, "%s", buf);
	cr_log_info("the disk filled after %d of %d batches: %s", ok, N / BATCH, buf + off);
	cr_assert_eq(rc, DB_EIO, "the disk filled: %s", buf);
	cr_assert_gt(ok, 0, "some batches fit: %s", buf);
	cr_assert_lt(ok, N / BATCH);
	cr_expect(strncmp(buf + off, dbpath, strlen(dbpath)) == 0, "names the file: %s", buf + off);
	cr_expect(strstr(buf + off, "the disk is full or the file reached a size limit"), "%s", buf + off);

	sqlite3 *s = raw();
	char sql[200];
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"), 1);
	snprintf(sql, sizeof sql, "SELECT count(*) = %d AND max(idx) = %d AND sum(outcome = 'sdc') = count(*)"
	         " FROM experiments", ok * BATCH, ok * BATCH - 1);
	cr_assert_eq(raw_real(s, sql), 1, "every committed batch, and nothing else");
	sqlite3_close(s);
	db = open_db(true);
	db_progress_t pr;
	cr_assert_eq(db_progress(db, id, &pr), 0);
	cr_assert_eq(pr.done, (uint64_t)ok * BATCH);
	db_close(db);
}

/* ---- writer --------------------------------------------------------------- */

Test(db, campaign_identity_and_validation)
{
	db_t *db = open_db(true);
	int64_t a = new_campaign(db, "h1", "regfile", "physical");
	int64_t b = new_campaign(db, "h2", "smem", "live");
	cr_assert_neq(a, b);

	db_campaign_t c = campaign("h1", "regfile", "physical");
	c.config = "{\"workload\":\"other\"}";
	int64_t id;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(db), "h1"), "%s", db_errmsg(db));

	c = campaign("h3", "l2cache", "physical");
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), DB_EINVAL);
	cr_assert(strstr(db_errmsg(db), "CHECK"), "%s", db_errmsg(db));
	c = campaign("h3", "regfile", "physical");
	c.confidence = 1.0;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), DB_EINVAL);
	c = campaign("h3", "regfile", "physical");
	c.config = "{not json";
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), DB_EINVAL);

	db_campaign_info_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_campaigns_list(db, &list, &n), 0, "%s", db_errmsg(db));
	cr_assert_eq(n, 2);
	cr_assert_str_eq(list[0].config_hash, "h1");
	cr_assert_str_eq(list[1].target, "smem");
	cr_assert_eq(list[1].seed, UINT64_MAX - 1);
	cr_assert_eq(list[1].progress.n_masks, 100);
	cr_assert_eq(list[1].progress.done, 0);
	cr_assert(isnan(list[1].progress.avf));
	db_campaigns_free(list, n);
	db_close(db);
}

/* db_campaigns_list reads every campaign's AVF in one query of the view:
 * each listed campaign's progress is db_progress's, field for field. */
Test(db, campaigns_list_progress_equals_db_progress)
{
	db_t *db = open_db(true);
	int64_t id[4];
	id[0] = new_campaign(db, "a", "regfile", "physical");
	fill(db, id[0], 0, 40, 0, 3, 5);
	id[1] = new_campaign(db, "b", "smem", "physical"); /* no experiment: NaN AVF */
	id[2] = new_campaign(db, "c", "simt", "physical");
	fill(db, id[2], 0, 100, 0, 0, 0);
	id[3] = new_campaign(db, "d", "regfile", "live");
	fill(db, id[3], 0, 25, 0, 10, 1);
	db_campaign_info_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_campaigns_list(db, &list, &n), 0, "%s", db_errmsg(db));
	cr_assert_eq(n, 4);
	for (size_t i = 0; i < n; i++) {
		db_progress_t p;
		cr_assert_eq(list[i].id, id[i]);
		cr_assert_eq(db_progress(db, id[i], &p), 0, "%s", db_errmsg(db));
		cr_expect_eq(memcmp(&p, &list[i].progress, sizeof p), 0, "campaign %zu", i);
	}
	cr_expect_float_eq(list[0].progress.avf, 8 / 40.0, 1e-12);
	cr_expect(isnan(list[1].progress.avf));
	db_campaigns_free(list, n);
	db_close(db);
}

Test(db, normal_quantile)
{
	cr_assert_float_eq(db_z_of_confidence(0.95), 1.9599639845400536, 1e-13);
	cr_assert_float_eq(db_z_of_confidence(0.99), 2.5758293035489, 1e-13);
	cr_assert_float_eq(db_z_of_confidence(0.6826894921370859), 1.0, 1e-12);
	cr_assert(isnan(db_z_of_confidence(0)));
	cr_assert(isnan(db_z_of_confidence(1)));
}

Test(db, golden_and_kernels_are_idempotent)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	db_golden_t g = golden(15, 32768 * 32, 250.5), r;
	cr_assert_eq(db_golden_get(db, id, &r), DB_ENOTFOUND);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	g.wall_seconds = 9; /* wall time may differ on a re-run */
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_golden_get(db, id, &r), 0);
	cr_assert_eq(r.cycles, 1000);
	cr_assert_eq(r.bits_per_sm, 32768 * 32);
	cr_assert_eq(r.wall_seconds, 1.25);
	cr_assert_str_eq(r.output_digest, "9f86d081884c7d65");
	g.cycles = 1001;
	cr_assert_eq(db_golden_put(db, id, &g), DB_ECONFLICT);

	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "vadd", .start_cycle = 0, .end_cycle = 600,
		 .grid = {256, 1, 1}, .block = {256, 1, 1}, .regs_per_thread = 8,
		 .threads_per_sm = 1536, .ctas_per_sm = 6, .df_reg = 0.375},
		{.launch_index = 1, .kernel = "vadd", .start_cycle = 600, .end_cycle = 1000,
		 .grid = {256, 1, 1}, .block = {256, 1, 1}, .regs_per_thread = 8,
		 .threads_per_sm = 1536, .ctas_per_sm = 6, .df_reg = 0.375},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	k[1].end_cycle = 999;
	cr_assert_eq(db_kernels_put(db, id, k, 2), DB_ECONFLICT);
	k[1].end_cycle = 1000;
	k[1].df_smem = 1.5;
	k[1].launch_index = 2;
	cr_assert_eq(db_kernels_put(db, id, k, 2), DB_EINVAL, "df above 1 violates a CHECK");
	db_close(db);

	sqlite3 *s = raw();
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM kernels WHERE grid = '256,1,1'"), 2);
	sqlite3_close(s);
}

Test(db, experiments_exactly_once)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	db_mask_t m[10];
	db_experiment_t e[10];
	for (int i = 0; i < 10; i++) {
		m[i] = (db_mask_t){.idx = (uint64_t)i, .cycle = (uint64_t)i, .nbits = 1};
		e[i] = (db_experiment_t){.idx = (uint64_t)i, .outcome = DB_SDC, .worker = i};
	}
	cr_assert_eq(db_masks_put(db, id, m, 10), 0, "%s", db_errmsg(db));
	uint32_t ins = 0;
	cr_assert_eq(db_experiments_put(db, id, e, 5, &ins), 0, "%s", db_errmsg(db));
	cr_assert_eq(ins, 5);
	cr_assert_eq(db_experiments_put(db, id, e, 5, &ins), 0);
	cr_assert_eq(ins, 0);
	cr_assert_eq(db_experiments_put(db, id, e + 3, 4, &ins), 0);
	cr_assert_eq(ins, 2);

	/* A batch with one experiment of an unknown mask stores nothing. */
	db_experiment_t bad[2] = {e[7], {.idx = 77, .outcome = DB_DUE}};
	cr_assert_eq(db_experiments_put(db, id, bad, 2, &ins), DB_EINVAL);
	cr_assert(strstr(db_errmsg(db), "no such mask"), "%s", db_errmsg(db));
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0);
	cr_assert_eq(p.done, 7);
	cr_assert_eq(p.stored, 10);
	e[9].outcome = (db_outcome_t)7;
	cr_assert_eq(db_experiments_put(db, id, e + 9, 1, &ins), DB_EINVAL);
	db_close(db);
}

Test(db, masks_pending_order_and_kernel)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "a", .start_cycle = 0, .end_cycle = 20,
		 .grid = {1, 1, 1}, .block = {32, 1, 1}},
		{.launch_index = 1, .kernel = "b", .start_cycle = 20, .end_cycle = 100,
		 .grid = {1, 1, 1}, .block = {32, 1, 1}},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	db_mask_t m[5] = {
		{.idx = 0, .cycle = 50, .sm = 1, .loc = UINT64_MAX, .nbits = 1},
		{.idx = 1, .cycle = 10, .sm = 2, .loc = 7, .nbits = 2, .extra = "[{\"cycle\":12}]"},
		{.idx = 2, .cycle = 50, .sm = 3, .loc = 8, .nbits = 1},
		{.idx = 3, .cycle = 5, .sm = 4, .loc = 9, .nbits = 1, .extra = "{\"x\":\"\\u00e9\"}"},
		{.idx = 4, .cycle = 100, .sm = 5, .loc = 10, .nbits = 1}, /* after every launch */
	};
	cr_assert_eq(db_masks_put(db, id, m, 5), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_masks_put(db, id, m, 5), 0, "idempotent: %s", db_errmsg(db));

	db_mask_t *p = NULL;
	uint64_t n = 0;
	cr_assert_eq(db_masks_pending(db, id, &p, &n), 0, "%s", db_errmsg(db));
	cr_assert_eq(n, 5);
	uint64_t order[5] = {3, 1, 0, 2, 4};
	int64_t kern[5] = {0, 0, 1, 1, -1};
	for (int i = 0; i < 5; i++) {
		cr_assert_eq(p[i].idx, order[i], "position %d", i);
		cr_assert_eq(p[i].kernel, kern[i], "position %d", i);
	}
	cr_assert_eq(p[2].loc, UINT64_MAX);
	cr_assert_str_eq(p[0].extra, "{\"x\":\"\\u00e9\"}");
	cr_assert_str_eq(p[1].extra, "[{\"cycle\":12}]");
	cr_assert_null(p[2].extra);
	cr_assert_eq(p[1].nbits, 2);
	free(p);

	db_experiment_t e[2] = {{.idx = 1, .outcome = DB_MASKED, .reason = DB_REASON_UNUSED},
	                        {.idx = 0, .outcome = DB_SDC, .early = true}};
	cr_assert_eq(db_experiments_put(db, id, e, 2, NULL), 0);
	cr_assert_eq(db_masks_pending(db, id, &p, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(p[0].idx, 3);
	cr_assert_eq(p[1].idx, 2);
	cr_assert_eq(p[2].idx, 4);
	free(p);

	db_progress_t pr;
	cr_assert_eq(db_progress(db, id, &pr), 0);
	cr_assert_eq(pr.unused, 1);
	cr_assert_eq(pr.early, 1);

	/* A regenerated mask that differs is refused, and the batch with it. */
	db_mask_t changed[2] = {{.idx = 9, .cycle = 1, .nbits = 1}, m[2]};
	changed[1].loc = 99;
	cr_assert_eq(db_masks_put(db, id, changed, 2), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(db), "mask 2"), "%s", db_errmsg(db));
	db_mask_t badjson = {.idx = 9, .cycle = 1, .nbits = 1, .extra = "{"};
	cr_assert_eq(db_masks_put(db, id, &badjson, 1), DB_EINVAL);
	cr_assert_eq(db_progress(db, id, &pr), 0);
	cr_assert_eq(pr.stored, 5);

	e[0] = (db_experiment_t){.idx = 3, .outcome = DB_DUE};
	e[1] = (db_experiment_t){.idx = 2, .outcome = DB_MASKED};
	db_experiment_t last = {.idx = 4, .outcome = DB_MASKED};
	cr_assert_eq(db_experiments_put(db, id, e, 2, NULL), 0);
	cr_assert_eq(db_experiments_put(db, id, &last, 1, NULL), 0);
	cr_assert_eq(db_masks_pending(db, id, &p, &n), 0);
	cr_assert_eq(n, 0);
	cr_assert_null(p);
	db_close(db);
}

/* ---- views ------------------------------------------------------------------ */

Test(db, avf_and_wilson_interval)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 100, 0, 6, 1);

	/* p = 0.07, n = 100, z = 1.959964: Wilson [0.034319, 0.137495]. */
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0, "%s", db_errmsg(db));
	cr_assert_eq(p.done, 100);
	cr_assert_eq(p.masked, 93);
	cr_assert_eq(p.sdc, 6);
	cr_assert_eq(p.due, 1);
	cr_assert_float_eq(p.avf, 0.07, 1e-12);
	cr_assert_float_eq(p.avf_lo, 0.03431926106727268, 1e-12);
	cr_assert_float_eq(p.avf_hi, 0.13749514739073498, 1e-12);
	cr_assert_float_eq(p.df, 1.0, 0);
	cr_assert_float_eq(p.avf_derated, 0.07, 1e-12);
	cr_assert_float_eq(p.wall, 50.0, 1e-9);
	db_close(db);

	sqlite3 *s = raw();
	cr_assert_float_eq(raw_real(s, "SELECT avf_hi FROM avf WHERE kernel = 'all'"),
	                   0.13749514739073498, 1e-12);
	sqlite3_close(s);
}

Test(db, wilson_with_no_failures_starts_at_zero)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "simt", "physical");
	fill(db, id, 0, 10, 0, 0, 0);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0);
	cr_assert_eq(p.avf, 0);
	cr_assert(p.avf_lo >= 0 && p.avf_lo < 1e-12);
	cr_assert_float_eq(p.avf_hi, 0.27753279986288915, 1e-12);
	db_close(db);
}

Test(db, live_sampling_derating_weighted_by_time)
{
	db_t *db = open_db(true);
	int64_t rf = new_campaign(db, "rf", "regfile", "live");
	int64_t sm = new_campaign(db, "sm", "smem", "live");
	int64_t st = new_campaign(db, "st", "simt", "live");
	int64_t ph = new_campaign(db, "ph", "regfile", "physical");
	/* k0 [0,100) and k1 [100,400): weights 1/4 and 3/4. */
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "k0", .start_cycle = 0, .end_cycle = 100,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.5, .df_smem = 0.2},
		{.launch_index = 1, .kernel = "k1", .start_cycle = 100, .end_cycle = 400,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.25, .df_smem = 0.6},
	};
	int64_t ids[4] = {rf, sm, st, ph};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(db_kernels_put(db, ids[i], k, 2), 0, "%s", db_errmsg(db));
		fill(db, ids[i], 0, 10, 0, 2, 0);    /* k0: 2 of 10 fail */
		fill(db, ids[i], 10, 10, 100, 5, 0); /* k1: 5 of 10 fail */
	}
	db_progress_t p;
	cr_assert_eq(db_progress(db, rf, &p), 0);
	cr_assert_float_eq(p.avf, 0.35, 1e-12);
	cr_assert_float_eq(p.df, 0.3125, 1e-12); /* 0.5/4 + 0.25·3/4 */
	cr_assert_float_eq(p.avf_derated, 0.109375, 1e-12);
	cr_assert_eq(db_progress(db, sm, &p), 0);
	cr_assert_float_eq(p.df, 0.5, 1e-12); /* 0.2/4 + 0.6·3/4 */
	cr_assert_eq(db_progress(db, st, &p), 0);
	cr_assert_float_eq(p.df, 1.0, 0);
	cr_assert_eq(db_progress(db, ph, &p), 0);
	cr_assert_float_eq(p.df, 1.0, 0);
	db_close(db);

	sqlite3 *s = raw();
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT avf_derated FROM avf WHERE campaign_id = %" PRId64
	         " AND launch_index = 0", rf);
	cr_assert_float_eq(raw_real(s, sql), 0.1, 1e-12);
	snprintf(sql, sizeof sql, "SELECT avf_derated FROM avf WHERE campaign_id = %" PRId64
	         " AND launch_index = 1", rf);
	cr_assert_float_eq(raw_real(s, sql), 0.125, 1e-12);
	snprintf(sql, sizeof sql, "SELECT kernel_name || ':' || n FROM avf WHERE campaign_id = %"
	         PRId64 " AND kernel = '1'", sm);
	sqlite3_stmt *q;
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &q, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(q), SQLITE_ROW);
	cr_assert_str_eq((const char *)sqlite3_column_text(q, 0), "k1:10");
	sqlite3_finalize(q);
	snprintf(sql, sizeof sql, "SELECT avf_derated FROM avf WHERE campaign_id = %" PRId64
	         " AND launch_index = 1", sm);
	cr_assert_float_eq(raw_real(s, sql), 0.3, 1e-12);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM avf"), 12);
	sqlite3_close(s);
}

/* GUFI's average: register file AVF 6.07 % on a GTX480 (15 SMs × 32768
 * 32-bit registers) at 0.001 FIT/bit gives 955 FIT. */
static int64_t gufi_regfile(db_t *db, const char *hash)
{
	int64_t id = new_campaign(db, hash, "regfile", "physical");
	db_golden_t g = golden(15, 32768 * 32, 250.5);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10000, 0, 600, 7);
	return id;
}

Test(db, fit_of_gtx480_register_file)
{
	db_t *db = open_db(true);
	int64_t id = gufi_regfile(db, "rf");
	db_close(db);
	sqlite3 *s = raw();
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT bits FROM fit WHERE campaign_id = %" PRId64, id);
	cr_assert_eq(raw_real(s, sql), 15728640);
	snprintf(sql, sizeof sql, "SELECT fit FROM fit WHERE campaign_id = %" PRId64, id);
	cr_assert_float_eq(raw_real(s, sql), 954.728448, 1e-6);
	cr_assert_float_eq(raw_real(s, "SELECT fit_lo FROM fit"), 0.05618656282442717 * 15728.640,
	                   1e-6);
	sqlite3_close(s);
}

Test(db, fit_gpu_and_mitf)
{
	db_t *db = open_db(true);
	/* An older register-file campaign of the same group is superseded. */
	int64_t old = new_campaign(db, "rf-old", "regfile", "physical");
	db_golden_t g = golden(15, 32768 * 32, 250.5);
	cr_assert_eq(db_golden_put(db, old, &g), 0);
	fill(db, old, 0, 10, 0, 5, 0);
	gufi_regfile(db, "rf");
	/* Shared memory: 48 KB per SM, AVF 2.91 %: 15·393216·0.0291·0.001. */
	int64_t sm = new_campaign(db, "sm", "smem", "physical");
	db_golden_t gs = golden(15, 48 * 1024 * 8, 250.5);
	cr_assert_eq(db_golden_put(db, sm, &gs), 0);
	fill(db, sm, 0, 10000, 0, 291, 0);
	/* Another GPU is its own group; a campaign without experiments has no
	 * FIT yet and stays out. */
	db_campaign_t c = campaign("v100", "regfile", "physical");
	c.gpu = "v100";
	int64_t v, none;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &v, &existed), 0);
	cr_assert_eq(db_golden_put(db, v, &g), 0);
	fill(db, v, 0, 10, 0, 1, 0);
	none = new_campaign(db, "rf-new-empty", "regfile", "physical");
	cr_assert_eq(db_golden_put(db, none, &g), 0);
	db_close(db);

	double fit_rf = 954.728448, fit_sm = 15 * 393216 * 0.0291 * 0.001;
	double total = fit_rf + fit_sm;
	sqlite3 *s = raw();
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM mitf"), 2);
	cr_assert_eq(raw_real(s, "SELECT structures FROM fit_gpu WHERE gpu = 'gtx480'"), 2);
	cr_assert_float_eq(raw_real(s, "SELECT fit_total FROM mitf WHERE gpu = 'gtx480'"), total, 1e-6);
	cr_assert_float_eq(raw_real(s, "SELECT ipc FROM mitf WHERE gpu = 'gtx480'"), 250.5, 1e-12);
	cr_assert_float_eq(raw_real(s, "SELECT ipc_per_fit FROM mitf WHERE gpu = 'gtx480'"),
	                   250.5 / total, 1e-12);
	/* MITF = IPC × clock × 3600 × 1e9 / FIT instructions. */
	double mitf = 250.5 * 700e6 * 3600 * 1e9 / total;
	cr_assert_float_eq(raw_real(s, "SELECT mitf FROM mitf WHERE gpu = 'gtx480'") / mitf, 1.0, 1e-12);
	cr_assert_float_eq(raw_real(s, "SELECT fit_total FROM mitf WHERE gpu = 'v100'"),
	                   0.1 * 0.001 * 15728640, 1e-6);
	/* the sum's interval: each structure's Wilson interval as centre ± z se,
	 * the centres summed ± z sqrt(Σ se²); one structure keeps its own */
	double z = 1.959963984540054, lo[2], hi[2], sum = 0, var = 0;
	const char *cid[2] = {"rf", "sm"};
	for (int i = 0; i < 2; i++) {
		char q[128];
		snprintf(q, sizeof q, "SELECT fit_lo FROM fit WHERE campaign = '%s'", cid[i]);
		lo[i] = raw_real(s, q);
		snprintf(q, sizeof q, "SELECT fit_hi FROM fit WHERE campaign = '%s'", cid[i]);
		hi[i] = raw_real(s, q);
		sum += (lo[i] + hi[i]) / 2;
		var += (hi[i] - lo[i]) / (2 * z) * ((hi[i] - lo[i]) / (2 * z));
	}
	cr_expect_float_eq(raw_real(s, "SELECT fit_lo FROM fit_gpu WHERE gpu = 'gtx480'"), sum - z * sqrt(var), 1e-6);
	cr_expect_float_eq(raw_real(s, "SELECT fit_hi FROM fit_gpu WHERE gpu = 'gtx480'"), sum + z * sqrt(var), 1e-6);
	cr_expect_lt(raw_real(s, "SELECT fit_hi - fit_lo FROM fit_gpu WHERE gpu = 'gtx480'"), hi[0] + hi[1] - lo[0] - lo[1],
	             "narrower than the sum of the bounds");
	cr_expect_float_eq(raw_real(s, "SELECT fit_lo FROM fit_gpu WHERE gpu = 'v100'"),
	                   raw_real(s, "SELECT fit_lo FROM fit WHERE campaign = 'v100'"), 1e-9);
	cr_expect_float_eq(raw_real(s, "SELECT fit_hi FROM fit_gpu WHERE gpu = 'v100'"),
	                   raw_real(s, "SELECT fit_hi FROM fit WHERE campaign = 'v100'"), 1e-9);
	cr_expect_float_eq(raw_real(s, "SELECT ipc_per_fit_lo FROM mitf WHERE gpu = 'gtx480'"),
	                   250.5 / (sum + z * sqrt(var)), 1e-12);
	cr_expect_float_eq(raw_real(s, "SELECT mitf_hi FROM mitf WHERE gpu = 'gtx480'") /
	                       (250.5 * 700e6 * 3600 * 1e9 / (sum - z * sqrt(var))), 1.0, 1e-12);
	sqlite3_close(s);
}

/* Campaigns of one structure over different fields (the valid and the
 * instruction bits of the instruction buffer) are different bits: their FIT
 * adds up. A single-kernel (GUFI mode 1) campaign is not the application's
 * FIT and stays out of the GPU total. */
Test(db, fit_gpu_sums_fields_and_skips_kernel_scope)
{
	db_t *db = open_db(true);
	db_golden_t g = golden(15, 1000, 100.0);
	int64_t id;
	bool existed;
	db_campaign_t valid = campaign("ib-valid", "ibuffer", "physical");
	valid.fields = "valid";
	cr_assert_eq(db_campaign_get_or_create(db, &valid, &id, &existed), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_golden_put(db, id, &g), 0);
	fill(db, id, 0, 100, 0, 10, 0); /* AVF 10 %: 0.1 x 0.001 x 15000 = 1.5 */
	db_campaign_t instr = campaign("ib-instr", "ibuffer", "physical");
	instr.fields = "instr";
	cr_assert_eq(db_campaign_get_or_create(db, &instr, &id, &existed), 0);
	cr_assert_eq(db_golden_put(db, id, &g), 0);
	fill(db, id, 0, 100, 0, 20, 0); /* 3.0 */
	db_campaign_t k = campaign("ib-kernel", "ibuffer", "physical");
	k.fields = "instr";
	k.scope = "kernel:vadd:0";
	cr_assert_eq(db_campaign_get_or_create(db, &k, &id, &existed), 0);
	cr_assert_eq(db_golden_put(db, id, &g), 0);
	fill(db, id, 0, 100, 0, 90, 0); /* would be 13.5 */
	db_close(db);
	sqlite3 *s = raw();
	/* instruction words are no storage a FIT/bit scales: a failure
	 * probability per executed instruction instead, and no part of the sum */
	cr_assert_eq(raw_real(s, "SELECT structures FROM fit_gpu"), 1);
	cr_assert_float_eq(raw_real(s, "SELECT fit_total FROM fit_gpu"), 1.5, 1e-9);
	cr_expect(isnan(raw_real(s, "SELECT fit FROM fit WHERE campaign = 'ib-instr'")));
	cr_expect_eq(raw_real(s, "SELECT per_insn FROM fit WHERE campaign = 'ib-instr'"), 1);
	cr_expect_eq(raw_real(s, "SELECT per_insn FROM fit WHERE campaign = 'ib-valid'"), 0);
	cr_expect_float_eq(raw_real(s, "SELECT fail_per_insn FROM fit WHERE campaign = 'ib-instr'"), 0.2, 1e-12);
	/* Wilson at z = 1.96 for 20 of 100: [0.133367, 0.288829] */
	cr_expect_float_eq(raw_real(s, "SELECT fail_per_insn_lo FROM fit WHERE campaign = 'ib-instr'"), 0.133367, 1e-6);
	cr_expect_float_eq(raw_real(s, "SELECT fail_per_insn_hi FROM fit WHERE campaign = 'ib-instr'"), 0.288829, 1e-6);
	cr_expect(isnan(raw_real(s, "SELECT fail_per_insn FROM fit WHERE campaign = 'ib-valid'")));
	sqlite3_close(s);
}

/* ---- per kernel and the study (schema 2) ------------------------------------ */

/* raw_real on a formatted query. */
static double rq(sqlite3 *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static double rq(sqlite3 *s, const char *fmt, ...)
{
	char sql[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sql, sizeof sql, fmt, ap);
	va_end(ap);
	return raw_real(s, sql);
}

/* The Wilson score interval of k failures in n at z = 1.959964 (95 %), from
 * its definition. */
static void wilson(double k, double n, double *lo, double *hi)
{
	double z = 1.959963984540054, p = k / n, zzn = z * z / n;
	double centre = (p + zzn / 2) / (1 + zzn);
	double half = z / (1 + zzn) * sqrt(p * (1 - p) / n + zzn / (4 * n));
	*lo = centre - half;
	*hi = centre + half;
}

/* Kernel a runs twice (launches 0 and 2), b once between them, c last with
 * no mask in it. Masks 0-9 fall in launch 0 (2 SDC, 1 DUE), 10-19 in launch
 * 1 (1 SDC), 20-39 in launch 2 (4 SDC). */
static void three_kernels(db_t *db, int64_t id)
{
	db_kernel_t k[4] = {
		{.launch_index = 0, .kernel = "a", .start_cycle = 0, .end_cycle = 100,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.5, .df_smem = 0.1},
		{.launch_index = 1, .kernel = "b", .start_cycle = 100, .end_cycle = 200,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.1, .df_smem = 0.1},
		{.launch_index = 2, .kernel = "a", .start_cycle = 200, .end_cycle = 400,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.2, .df_smem = 0.1},
		{.launch_index = 3, .kernel = "c", .start_cycle = 400, .end_cycle = 500,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.9, .df_smem = 0.1},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 4), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10, 0, 2, 1);
	fill(db, id, 10, 10, 100, 1, 0);
	fill(db, id, 20, 20, 200, 4, 0);
}

Test(db, avf_kernel_aggregates_invocations_by_name)
{
	db_t *db = open_db(true);
	int64_t ph = new_campaign(db, "ph", "regfile", "physical");
	int64_t lv = new_campaign(db, "lv", "regfile", "live");
	int64_t lb = new_campaign(db, "lb", "regfile", "live");
	db_golden_t g = golden(15, 1000, 1.0);
	cr_assert_eq(db_golden_put(db, lb, &g), 0, "%s", db_errmsg(db));
	three_kernels(db, ph);
	three_kernels(db, lv);
	three_kernels(db, lb);
	db_close(db);

	sqlite3 *s = raw();
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM avf_kernel"), 9);
#define K(col, id, name) rq(s, "SELECT " col " FROM avf_kernel WHERE campaign_id = %" PRId64 \
                           " AND kernel_name = '" name "'", id)
	cr_assert_eq(K("invocations", ph, "a"), 2);
	cr_assert_eq(K("first_launch", ph, "a"), 0);
	cr_assert_eq(K("cycles", ph, "a"), 300);
	cr_assert_float_eq(K("cycle_share", ph, "a"), 0.6, 1e-12);
	cr_assert_eq(K("n", ph, "a"), 30);
	cr_assert_eq(K("masked", ph, "a"), 23);
	cr_assert_eq(K("sdc", ph, "a"), 6);
	cr_assert_eq(K("due", ph, "a"), 1);
	cr_assert_float_eq(K("share", ph, "a"), 0.75, 1e-12);
	cr_assert_float_eq(K("avf", ph, "a"), 7.0 / 30, 1e-12);
	double lo, hi;
	wilson(7, 30, &lo, &hi);
	cr_assert_float_eq(K("avf_lo", ph, "a"), lo, 1e-12);
	cr_assert_float_eq(K("avf_hi", ph, "a"), hi, 1e-12);
	cr_assert_float_eq(K("df", ph, "a"), 1.0, 0);
	cr_assert_float_eq(K("contribution", ph, "a"), 7.0 / 40, 1e-12);
	cr_assert_eq(K("first_launch", ph, "b"), 1);
	cr_assert_float_eq(K("avf", ph, "b"), 0.1, 1e-12);
	cr_assert_float_eq(K("contribution", ph, "b"), 1.0 / 40, 1e-12);
	/* c: no mask fell in it; it is listed, with no AVF and no part of it */
	cr_assert_eq(K("n", ph, "c"), 0);
	cr_assert(isnan(K("avf", ph, "c")));
	cr_assert_float_eq(K("contribution", ph, "c"), 0.0, 0);
	cr_assert_float_eq(K("cycle_share", ph, "c"), 0.2, 1e-12);
	/* physical sampling: the kernels' parts add up to the campaign's AVF */
	cr_assert_float_eq(rq(s, "SELECT sum(contribution) FROM avf_kernel WHERE campaign_id = %" PRId64, ph),
	                   rq(s, "SELECT avf FROM avf WHERE kernel = 'all' AND campaign_id = %" PRId64, ph), 1e-12);
	/* the invocations stay in the view avf */
	cr_assert_eq(rq(s, "SELECT count(*) FROM avf WHERE kernel <> 'all' AND campaign_id = %" PRId64, ph), 3);

	/* live sampling without live bits: df of a = (0.5·100 + 0.2·200) / 300 */
	cr_assert_float_eq(K("df", lv, "a"), 0.3, 1e-12);
	cr_assert_float_eq(K("avf_derated", lv, "a"), 0.3 * 7 / 30, 1e-12);
	cr_assert_float_eq(K("contribution", lv, "a"), 0.3 * 7 / 40, 1e-12);
	cr_assert_float_eq(K("df", lv, "c"), 0.9, 1e-12);
	/* with live bits: each kernel's mean over bits_per_sm (1000) */
	raw_exec(s, "UPDATE experiments SET live_bits = CASE WHEN idx < 10 THEN 200 ELSE 600 END"
	            " WHERE campaign_id = 3");
	cr_assert_eq(lb, 3);
	cr_assert_float_eq(K("df", lb, "a"), (10 * 200 + 20 * 600) / 30.0 / 1000, 1e-12);
	cr_assert_float_eq(K("df", lb, "b"), 0.6, 1e-12);
#undef K
	sqlite3_close(s);
}

/* ---- the live estimator (schema 3) ------------------------------------------ */

/* A stratified campaign ("strata": "kernel"): the three kernels of
 * three_kernels are its strata, with cycle shares W = 0.6 (a), 0.2 (b),
 * 0.2 (c). Until c has an experiment the AVF is unknown (NULL); with ten
 * masked ones in c, by hand (m = 3 strata, z² = 3.841459: each stratum
 * gets z²/6 = 0.640243 failures in z²/3 = 1.280486 more experiments):
 *     avf = 0.6 × 7/30 + 0.2 × 1/10 + 0.2 × 0 = 0.16
 *     ỹ   = 7.640243/31.280486, 1.640243/11.280486, 0.640243/11.280486
 *     Σ W ỹ = 0.1869821, Σ W² ỹ(1 - ỹ)/ñ = 0.0027548859
 *     interval 0.1869821 ± z × 0.0524870 = [0.0841095, 0.2898548]
 * (pooled, 8 failures in 50 give 0.16 too, but by chance: the weights are
 * not the shares of the masks, 30:10:10). Without failure in strata of
 * W = 0.6 (30 masks) and 0.4 (10), m = 2: [0, 0.1215745]. */
Test(db, stratified_estimator_by_hand)
{
	db_t *db = open_db(true);
	db_campaign_t c = campaign("st", "regfile", "physical");
	c.strata = "kernel";
	int64_t st = 0, zero = 0, plain = new_campaign(db, "plain", "regfile", "physical");
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &st, &existed), 0, "%s", db_errmsg(db));
	c.config_hash = c.name = "zero";
	cr_assert_eq(db_campaign_get_or_create(db, &c, &zero, &existed), 0, "%s", db_errmsg(db));
	three_kernels(db, st);
	three_kernels(db, plain);
	db_close(db);

	sqlite3 *s = raw();
	cr_assert(isnan(rq(s, "SELECT avf FROM avf WHERE kernel = 'all' AND campaign_id = %" PRId64, st)));
	cr_assert_eq(rq(s, "SELECT n FROM avf WHERE kernel = 'all' AND campaign_id = %" PRId64, st), 40);
	sqlite3_close(s);
	db = open_db(true);
	fill(db, st, 40, 10, 400, 0, 0);
	fill(db, plain, 40, 10, 400, 0, 0);
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "a", .start_cycle = 0, .end_cycle = 300, .grid = {1, 1, 1}, .block = {1, 1, 1}},
		{.launch_index = 1, .kernel = "b", .start_cycle = 300, .end_cycle = 500, .grid = {1, 1, 1}, .block = {1, 1, 1}},
	};
	cr_assert_eq(db_kernels_put(db, zero, k, 2), 0, "%s", db_errmsg(db));
	fill(db, zero, 0, 30, 0, 0, 0);
	fill(db, zero, 30, 10, 300, 0, 0);
	db_close(db);

	s = raw();
#define K(col, id, name) rq(s, "SELECT " col " FROM avf_kernel WHERE campaign_id = %" PRId64 \
                           " AND kernel_name = '" name "'", id)
#define ALL(col, id) rq(s, "SELECT " col " FROM avf WHERE kernel = 'all' AND campaign_id = %" PRId64, id)
	cr_assert_eq(ALL("stratified", st), 1);
	cr_assert_eq(ALL("n", st), 50);
	cr_assert_eq(ALL("sdc", st), 7);
	cr_assert_float_eq(ALL("avf", st), 0.16, 1e-12);
	cr_assert_float_eq(ALL("avf_lo", st), 0.08410946754870001, 1e-12);
	cr_assert_float_eq(ALL("avf_hi", st), 0.2898547541745133, 1e-12);
	cr_assert_float_eq(ALL("df", st), 1.0, 1e-12);
	cr_assert_float_eq(ALL("avf_derated", st), 0.16, 1e-12);
	cr_assert_float_eq(ALL("avf_derated_lo", st), 0.08410946754870001, 1e-12);
	cr_assert_float_eq(ALL("avf_derated_hi", st), 0.2898547541745133, 1e-12);
	/* the same experiments pooled: 8/50 with Wilson at 50 */
	double lo, hi;
	wilson(8, 50, &lo, &hi);
	cr_assert_eq(ALL("stratified", plain), 0);
	cr_assert_float_eq(ALL("avf_lo", plain), lo, 1e-12);
	/* no failure: the pseudo-counts' upper bound */
	cr_assert_eq(ALL("avf", zero), 0);
	cr_assert_eq(ALL("avf_lo", zero), 0);
	cr_assert_float_eq(ALL("avf_hi", zero), 0.12157447331331997, 1e-12);
	/* the kernels: each its own stratum's interval; parts W_h × avf_h */
	cr_assert_float_eq(K("avf", st, "a"), 7.0 / 30, 1e-12);
	wilson(7, 30, &lo, &hi);
	cr_assert_float_eq(K("avf_lo", st, "a"), lo, 1e-12);
	cr_assert_float_eq(K("contribution", st, "a"), 0.14, 1e-12);
	cr_assert_float_eq(K("contribution", st, "b"), 0.02, 1e-12);
	cr_assert_eq(K("contribution", st, "c"), 0);
	cr_assert_eq(K("stratified", st, "c"), 1);
	cr_assert_float_eq(K("contribution", plain, "a"), 7.0 / 50, 1e-12);
	cr_assert_eq(K("stratified", plain, "a"), 0);
	/* the invocations stay each one's own */
	cr_assert_float_eq(rq(s, "SELECT avf FROM avf WHERE launch_index = 2 AND campaign_id = %" PRId64, st), 0.2,
	                   1e-12);
	/* each experiment's share (exp_share, which avf_insn and avf_vreg sum
	 * their contributions with): W_h / n_h, so the parts add up to 0.16 */
	cr_assert_float_eq(rq(s, "SELECT share FROM exp_share WHERE idx = 0 AND campaign_id = %" PRId64, st), 0.6 / 30,
	                   1e-15);
	cr_assert_float_eq(rq(s, "SELECT sum(share * w * fail) FROM exp_share WHERE campaign_id = %" PRId64, st), 0.16,
	                   1e-12);
	cr_assert_float_eq(rq(s, "SELECT sum(share * w * fail) FROM exp_share WHERE campaign_id = %" PRId64, plain),
	                   8.0 / 50, 1e-12);
	cr_assert_eq(rq(s, "SELECT max(stratified) FROM exp_share WHERE campaign_id = %" PRId64, plain), 0);
	sqlite3_close(s);
#undef ALL
#undef K
}

/* The Wilson interval of an estimate x at an effective sample size ne, in
 * the arrangement (2k + z² ∓ z sqrt(z² + 4k(ne-k)/ne)) / (2(ne + z²)), k = x ne. */
static void wilson_at(double x, double ne, double *lo, double *hi)
{
	double z = 1.959963984540054, k = x * ne;
	double a = 2 * k + z * z, b = z * sqrt(z * z + 4 * k * (ne - k) / ne), d = 2 * (ne + z * z);
	*lo = fmax(0, (a - b) / d);
	*hi = fmin(1, (a + b) / d);
}

typedef struct {
	double avf, avf_lo, avf_hi, df, der, der_lo, der_hi;
} live_est_t;

/* The estimator of db_int.h from its definition, with centred sums: weights
 * w_i, failures f_i, over experiments [from, to). */
static live_est_t live_estimate(const double *w, const int *f, int from, int to)
{
	double n = to - from, sw = 0, sw2 = 0, swf = 0;
	for (int i = from; i < to; i++) {
		sw += w[i];
		sw2 += w[i] * w[i];
		swf += w[i] * f[i];
	}
	live_est_t e = {.df = sw / n, .der = swf / n, .avf = swf / sw};
	double s2 = 0, uu = 0;
	for (int i = from; i < to; i++) {
		s2 += (w[i] * f[i] - e.der) * (w[i] * f[i] - e.der) / n;
		uu += w[i] * (f[i] - e.avf) * w[i] * (f[i] - e.avf);
	}
	double ne_d = s2 > 0 ? e.der * (1 - e.der) / (s2 / n) : n;
	double v = uu / (sw * sw), ne_p = v > 0 ? e.avf * (1 - e.avf) / v : sw * sw / sw2;
	wilson_at(e.der, ne_d, &e.der_lo, &e.der_hi);
	wilson_at(e.avf, ne_p, &e.avf_lo, &e.avf_hi);
	return e;
}

/* live_bits of experiment i: 0 (an idle SM) for some, never for failures;
 * -1 (NULL: none measured, as for a mask after the run's end) counts as 0. */
static int64_t live_bits_of(int i, int fails)
{
	if (i == 29)
		return -1;
	return !fails && (i % 3 == 2 || i >= 17) ? 0 : 100 + (37 * i) % 850;
}

static void expect_estimate(sqlite3 *s, const char *from, const live_est_t *e)
{
	static const char *cols[] = {"avf", "avf_lo", "avf_hi", "df", "avf_derated", "avf_derated_lo",
	                             "avf_derated_hi"};
	const double *want = &e->avf;
	for (int c = 0; c < 7; c++) {
		char sql[256];
		snprintf(sql, sizeof sql, "SELECT %s FROM %s", cols[c], from);
		double got = raw_real(s, sql);
		cr_expect(fabs(got - want[c]) < 1e-12, "%s: %.15g, expected %.15g", sql, got, want[c]);
	}
}

/* Live sampling weighs each experiment by live_bits / bits_per_sm: faults
 * drawn on an idle SM (live_bits 0) count once, as the zero they add to the
 * physical AVF, and not again in a failure rate (issue 10). */
Test(db, live_estimator_is_the_mean_of_weighted_failures)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "lv", "regfile", "live");
	db_golden_t g = golden(3, 1000, 1.0);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "k0", .start_cycle = 0, .end_cycle = 100,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.9, .df_smem = 0.2},
		{.launch_index = 1, .kernel = "k1", .start_cycle = 100, .end_cycle = 400,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.9, .df_smem = 0.6},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10, 0, 2, 0);    /* k0: idx 0-1 fail */
	fill(db, id, 10, 20, 100, 6, 1); /* k1: idx 10-16 fail */
	db_close(db);

	double w[30];
	int f[30];
	sqlite3 *s = raw();
	for (int i = 0; i < 30; i++) {
		f[i] = i < 2 || (i >= 10 && i < 17);
		int64_t lb = live_bits_of(i, f[i]);
		w[i] = lb < 0 ? 0 : lb / 1000.0;
		char val[24] = "NULL", sql[128];
		if (lb >= 0)
			snprintf(val, sizeof val, "%" PRId64, lb);
		snprintf(sql, sizeof sql, "UPDATE experiments SET live_bits = %s WHERE idx = %d", val, i);
		raw_exec(s, sql);
	}
	live_est_t all = live_estimate(w, f, 0, 30), k0 = live_estimate(w, f, 0, 10), k1 = live_estimate(w, f, 10, 30);
	cr_assert(fabs(all.der - all.df * 9.0 / 30) > 0.05, "the old product of means differs: %g vs %g", all.der,
	          all.df * 9.0 / 30);
	expect_estimate(s, "avf WHERE kernel = 'all'", &all);
	expect_estimate(s, "avf WHERE launch_index = 0", &k0);
	expect_estimate(s, "avf WHERE launch_index = 1", &k1);
	expect_estimate(s, "avf_kernel WHERE kernel_name = 'k0'", &k0);
	expect_estimate(s, "avf_kernel WHERE kernel_name = 'k1'", &k1);
	cr_expect_float_eq(raw_real(s, "SELECT df FROM campaign_df"), all.df, 1e-12);
	cr_expect_float_eq(raw_real(s, "SELECT sum(contribution) FROM avf_kernel"), all.der, 1e-12);
	cr_expect_float_eq(raw_real(s, "SELECT avf * df FROM avf WHERE kernel = 'all'"), all.der, 1e-12);
	sqlite3_close(s);
	db = open_db(false);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0, "%s", db_errmsg(db));
	cr_expect_float_eq(p.avf_derated, all.der, 1e-12);
	db_close(db);
}

/* With every bit in use (w = 1) the live estimator and its interval are the
 * physical ones; with no failure the interval keeps Wilson's width. */
Test(db, live_estimator_reduces_to_wilson)
{
	db_t *db = open_db(true);
	int64_t ph = new_campaign(db, "ph", "pred", "physical");
	int64_t lv = new_campaign(db, "lv", "pred", "live");
	int64_t none = new_campaign(db, "none", "pred", "live");
	db_golden_t g = golden(3, 512, 1.0);
	for (int64_t id = 1; id <= 3; id++)
		cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	fill(db, ph, 0, 100, 0, 6, 1);
	fill(db, lv, 0, 100, 0, 6, 1);
	fill(db, none, 0, 40, 0, 0, 0);
	db_close(db);
	sqlite3 *s = raw();
	raw_exec(s, "UPDATE experiments SET live_bits = 512 WHERE campaign_id = 2");
	raw_exec(s, "UPDATE experiments SET live_bits = 100 + idx WHERE campaign_id = 3");
	static const char *cols[] = {"avf", "avf_lo", "avf_hi", "df", "avf_derated", "avf_derated_lo",
	                             "avf_derated_hi"};
	for (int c = 0; c < 7; c++)
		cr_expect_float_eq(rq(s, "SELECT %s FROM avf WHERE kernel = 'all' AND campaign_id = 2", cols[c]),
		                   rq(s, "SELECT %s FROM avf WHERE kernel = 'all' AND campaign_id = 1", cols[c]), 1e-12,
		                   "%s", cols[c]);
	cr_expect_float_eq(rq(s, "SELECT avf_derated_lo FROM avf WHERE kernel = 'all' AND campaign_id = 1"),
	                   0.03431926106727268, 1e-12);
	double lo, hi;
	wilson_at(0, 40, &lo, &hi);
	cr_expect_eq(rq(s, "SELECT avf_derated FROM avf WHERE kernel = 'all' AND campaign_id = 3"), 0);
	double dlo = rq(s, "SELECT avf_derated_lo FROM avf WHERE kernel = 'all' AND campaign_id = 3");
	cr_expect(dlo >= 0 && dlo < 1e-12, "%g", dlo);
	cr_expect_float_eq(rq(s, "SELECT avf_derated_hi FROM avf WHERE kernel = 'all' AND campaign_id = 3"), hi, 1e-12);
	sqlite3_close(s);
}

/* An application-scope campaign of `workload` on gtx480 that planned
 * `planned` masks: a golden run of 15 SMs × 1000 bits at `ipc`, kernels k1
 * [0, 600) and k2 [600, 1000), n experiments (half in each kernel) whose sdc
 * SDC and due DUE all fall in k1. FIT = AVF × 0.001 × 15000. */
static int64_t study_campaign_of(db_t *db, const char *hash, const char *workload, const char *regs,
                                 const char *target, const char *fields, double ipc, uint32_t planned,
                                 uint32_t n, uint32_t sdc, uint32_t due)
{
	db_campaign_t c = campaign(hash, target, "physical");
	c.workload = workload;
	c.regs = regs;
	c.fields = fields;
	c.n_masks = planned;
	int64_t id;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	db_golden_t g = golden(15, 1000, ipc);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "k1", .start_cycle = 0, .end_cycle = 600,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}},
		{.launch_index = 1, .kernel = "k2", .start_cycle = 600, .end_cycle = 1000,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	if (n) {
		fill(db, id, 0, n / 2, 0, sdc, due);
		fill(db, id, n / 2, n - n / 2, 600, 0, 0);
	}
	return id;
}

/* A finished one: every planned mask has its experiment. */
static int64_t study_campaign(db_t *db, const char *hash, const char *workload, const char *regs,
                              const char *target, const char *fields, double ipc, uint32_t n,
                              uint32_t sdc, uint32_t due)
{
	return study_campaign_of(db, hash, workload, regs, target, fields, ipc, n, n, sdc, due);
}

/* app1 has every kind of campaign the study meets; app2 only the register
 * file in ptx mode and the SIMT masks. */
static void study_fixture(db_t *db)
{
	study_campaign(db, "a1-rf-ptx-old", "app1", "ptx", "regfile", NULL, 10, 100, 50, 0); /* superseded */
	study_campaign(db, "a1-rf-ptx", "app1", "ptx", "regfile", NULL, 10, 100, 10, 0);     /* FIT 1.5 */
	study_campaign(db, "a1-rf-alloc", "app1", "alloc", "regfile", NULL, 12, 100, 20, 0); /* 3.0 */
	study_campaign(db, "a1-simt", "app1", "ptx", "simt", "mask", 10, 100, 0, 4);        /* 0.6 */
	study_campaign(db, "a1-smem", "app1", "ptx", "smem", NULL, 10, 100, 2, 0);           /* 0.3 */
	study_campaign(db, "a1-ib-empty", "app1", "ptx", "ibuffer", "valid", 10, 0, 0, 0);   /* no results */
	db_campaign_t k = campaign("a1-rf-kernel", "regfile", "physical");
	k.workload = "app1";
	k.scope = "kernel:k1:0";
	int64_t id;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &k, &id, &existed), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 100, 0, 90, 0); /* mode 1: not the application's */
	study_campaign(db, "a2-rf-ptx", "app2", "ptx", "regfile", NULL, 5, 50, 0, 0);        /* 0 */
	study_campaign(db, "a2-simt", "app2", "ptx", "simt", "mask", 5, 50, 0, 5);          /* 1.5 */
}

Test(db, study_views)
{
	db_t *db = open_db(true);
	study_fixture(db);
	db_close(db);
	sqlite3 *s = raw();
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM study"), 6);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM study WHERE workload = 'app1'"), 4);
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM study WHERE workload = 'app1' AND structure IN"
	                         " ('regfile-ptx', 'regfile-alloc', 'simt-mask', 'smem')"),
	             4);
	/* the newest campaign of a structure wins */
	cr_assert_float_eq(raw_real(s, "SELECT avf FROM study WHERE workload = 'app1' AND structure = 'regfile-ptx'"),
	                   0.1, 1e-12);
	cr_assert_float_eq(raw_real(s, "SELECT fit FROM study WHERE workload = 'app1' AND structure = 'regfile-alloc'"),
	                   3.0, 1e-9);
	cr_assert(raw_real(s, "SELECT structure_rank FROM study WHERE workload = 'app1' AND structure = 'regfile-ptx'") <
	          raw_real(s, "SELECT structure_rank FROM study WHERE workload = 'app1' AND structure = 'regfile-alloc'"));
	cr_assert(raw_real(s, "SELECT structure_rank FROM study WHERE workload = 'app1' AND structure = 'smem'") <
	          raw_real(s, "SELECT structure_rank FROM study WHERE workload = 'app1' AND structure = 'simt-mask'"));

	/* the GPU: one register mode's register file plus every other structure */
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM study_gpu"), 3);
	cr_assert_eq(raw_real(s, "SELECT structures FROM study_gpu WHERE workload = 'app1' AND regs = 'alloc'"), 3);
	cr_assert_float_eq(raw_real(s, "SELECT fit_total FROM study_gpu WHERE workload = 'app1' AND regs = 'alloc'"),
	                   3.0 + 0.3 + 0.6, 1e-9);
	cr_assert_float_eq(raw_real(s, "SELECT fit_total FROM study_gpu WHERE workload = 'app1' AND regs = 'ptx'"),
	                   1.5 + 0.3 + 0.6, 1e-9);
	cr_assert_float_eq(raw_real(s, "SELECT ipc FROM study_gpu WHERE workload = 'app1' AND regs = 'alloc'"), 12,
	                   1e-12);
	cr_assert_float_eq(raw_real(s, "SELECT ipc_per_fit FROM study_gpu WHERE workload = 'app1' AND regs = 'alloc'"),
	                   12 / 3.9, 1e-9);
	cr_assert_float_eq(raw_real(s, "SELECT ipc_per_fit FROM study_gpu WHERE workload = 'app2'"), 5 / 1.5, 1e-9);
	cr_assert_float_eq(raw_real(s, "SELECT mitf FROM study_gpu WHERE workload = 'app2'") /
	                   (5 * 700e6 * 3600 * 1e9 / 1.5), 1.0, 1e-12);

	/* per kernel: every study cell's kernels */
	cr_assert_eq(raw_real(s, "SELECT count(*) FROM study_kernel"), 12);
	cr_assert_float_eq(raw_real(s, "SELECT contribution FROM study_kernel WHERE workload = 'app1'"
	                               " AND structure = 'regfile-alloc' AND kernel_name = 'k1'"),
	                   0.2, 1e-12);
	cr_assert_float_eq(raw_real(s, "SELECT contribution FROM study_kernel WHERE workload = 'app1'"
	                               " AND structure = 'regfile-alloc' AND kernel_name = 'k2'"),
	                   0.0, 0);
	sqlite3_close(s);
}

/* ---- report ----------------------------------------------------------------- */

static char *report(db_t *db, int format)
{
	char *out = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	cr_assert_eq(db_report(db, format, f, err, sizeof err), 0, "%s", err);
	fclose(f);
	return out;
}

/* ---- protection (schema 8) ------------------------------------------------------ */

/* A protected campaign's 20 experiments: 8 Masked corrected, 2 Masked
 * no_effect after a miscorrection, 3 DUE ecc_uncorrectable, 1 DUE
 * parity_error, 2 DUE timeout after an undetected error, 4 SDC; and an
 * unprotected campaign beside it. */
static int64_t protected_campaign(db_t *db)
{
	db_campaign_t c = campaign("prot", "regfile", "physical");
	c.config = "{\"protection\":{\"interleave\":2,\"pred\":\"parity\",\"regfile\":\"secded\",\"smem\":\"none\"}}";
	int64_t id = 0;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	static const struct {
		int n;
		db_outcome_t outcome;
		const char *reason, *prot;
	} rows[] = {{8, DB_MASKED, "corrected", "corrected"}, {2, DB_MASKED, "no_effect", "miscorrected"},
	            {3, DB_DUE, "ecc_uncorrectable", "detected"}, {1, DB_DUE, "parity_error", "detected"},
	            {2, DB_DUE, "timeout", "undetected"}, {4, DB_SDC, "output:c", NULL}};
	db_mask_t m[20];
	db_experiment_t e[20];
	uint32_t k = 0, ins;
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
		for (int i = 0; i < rows[r].n; i++, k++) {
			m[k] = (db_mask_t){.idx = k, .cycle = k, .sm = 0, .loc = k, .nbits = 1};
			e[k] = (db_experiment_t){.idx = k, .outcome = rows[r].outcome, .reason = rows[r].reason, .cycles = 10,
			                         .worker = 1, .prot = rows[r].prot, .prot_cycle = rows[r].prot ? 100 + k : 0};
		}
	cr_assert_eq(db_masks_put(db, id, m, k), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_experiments_put(db, id, e, k, &ins), 0, "%s", db_errmsg(db));
	cr_assert_eq(ins, 20);
	return id;
}

Test(db, protection_columns_and_views)
{
	db_t *db = open_db(true);
	int64_t id = protected_campaign(db);
	int64_t plain = new_campaign(db, "plain", "regfile", "physical");
	fill(db, plain, 0, 10, 0, 1, 1);
	db_close(db);
	sqlite3 *s = raw();
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM experiments WHERE campaign_id = %" PRId64
	         " AND prot IS NULL AND prot_cycle IS NULL", id);
	cr_expect_eq(raw_real(s, sql), 4, "no event: NULL in both columns");
	snprintf(sql, sizeof sql, "SELECT prot_cycle FROM experiments WHERE campaign_id = %" PRId64 " AND idx = 9", id);
	cr_expect_eq(raw_real(s, sql), 109);
	/* the split: 4 SDC and 6 DUE of 20, 4 of them detected */
	snprintf(sql, sizeof sql, "SELECT %s FROM avf WHERE campaign_id = %" PRId64 " AND kernel = 'all'", "%s", id);
	static const struct {
		const char *col;
		double want;
	} avf[] = {{"avf", 0.5}, {"sdc_avf", 0.2}, {"due_avf", 0.3}, {"detected_avf", 0.2}, {"detected", 4}};
	for (size_t i = 0; i < sizeof avf / sizeof *avf; i++) {
		char q[300];
		snprintf(q, sizeof q, sql, avf[i].col);
		cr_expect_float_eq(raw_real(s, q), avf[i].want, 1e-12, "%s", avf[i].col);
	}
	snprintf(sql, sizeof sql, "SELECT detected_avf FROM avf WHERE campaign_id = %" PRId64 " AND kernel = 'all'", plain);
	cr_expect_float_eq(raw_real(s, sql), 0, 1e-12, "an unprotected campaign detects nothing");
	snprintf(sql, sizeof sql, "SELECT corrected || ' ' || miscorrected || ' ' || detected || ' ' || undetected || ' '"
	         " || no_event || ' ' || detected_due || ' ' || codes FROM protection_summary WHERE campaign_id = %" PRId64, id);
	sqlite3_stmt *st;
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(s));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_str_eq((const char *)sqlite3_column_text(st, 0), "8 2 4 2 4 4 regfile secded, pred parity, interleave 2");
	sqlite3_finalize(st);
	snprintf(sql, sizeof sql, "SELECT protection IS NULL AND codes = '' FROM protection_summary WHERE campaign_id = %"
	         PRId64, plain);
	cr_expect_eq(raw_real(s, sql), 1);
	cr_expect_neq(sqlite3_exec(s, "UPDATE experiments SET prot = 'fixed' WHERE idx = 0", NULL, NULL, NULL), SQLITE_OK,
	              "only the event names");
	sqlite3_close(s);
}

/* Schema 10: the codes column names the caches' codes (a tag parity too)
 * and SHARP, as the campaign's canonical protection object gives them;
 * schema 11 REFU and its buffer, Penny and its edc, duplication. */
Test(db, protection_summary_names_caches_and_sharp)
{
	db_t *db = open_db(true);
	static const struct {
		const char *hash, *config, *codes;
	} c[] = {
		{"c1", "{\"protection\":{\"interleave\":1,\"l1d\":\"secded\",\"l2\":{\"code\":\"none\",\"tag\":"
		       "\"parity\"},\"pred\":\"none\",\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "l1d secded, l2 none (tag parity)"},
		{"c2", "{\"protection\":{\"const\":\"dected\",\"interleave\":2,\"pred\":\"none\",\"regfile\":\"none\","
		       "\"sharp\":{\"ecc\":\"secded\",\"request_queue\":16,\"warp_table\":32},\"smem\":\"none\"}}",
		 "const dected, sharp, interleave 2"},
		{"c3", "{\"protection\":{\"interleave\":1,\"pred\":\"none\",\"refu\":{\"replay_buffer\":3},"
		       "\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "refu 3"},
		{"c4", "{\"protection\":{\"interleave\":1,\"penny\":{\"edc\":\"hamming\",\"include_pred\":true,"
		       "\"mode\":\"oracle\",\"recovery_penalty\":50},\"pred\":\"none\",\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "penny hamming (pred too)"},
		{"c5", "{\"protection\":{\"interleave\":1,\"penny\":{\"edc\":\"parity\",\"include_pred\":false,"
		       "\"mode\":\"oracle\",\"recovery_penalty\":50},\"pred\":\"none\",\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "penny parity"},
		{"c6", "{\"protection\":{\"dup\":{\"atomics\":false,\"protect\":\"memory\",\"variant\":\"ra\"},"
		       "\"interleave\":1,\"pred\":\"none\",\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "dup memory ra"},
		{"c7", "{\"protection\":{\"interleave\":1,\"penny\":{\"edc\":\"secded\",\"include_pred\":false,"
		       "\"mode\":\"compiled\",\"pruning\":\"basic\",\"recovery_penalty\":50,\"storage\":\"global\"},"
		       "\"pred\":\"none\",\"regfile\":\"none\",\"smem\":\"none\"}}",
		 "penny secded compiled"},
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		db_campaign_t k = campaign(c[i].hash, "regfile", "physical");
		k.config = c[i].config;
		int64_t id = 0;
		bool existed;
		cr_assert_eq(db_campaign_get_or_create(db, &k, &id, &existed), 0, "%s", db_errmsg(db));
		fill(db, id, 0, 4, 0, 1, 1);
	}
	db_close(db);
	sqlite3 *s = raw();
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		char sql[200];
		snprintf(sql, sizeof sql, "SELECT codes = '%s' FROM protection_summary WHERE campaign = '%s'", c[i].codes,
		         c[i].hash);
		cr_expect_eq(raw_real(s, sql), 1, "%s", c[i].codes);
	}
	sqlite3_close(s);
}

/* The report shows the Protection table only when a campaign is
 * protected, naming its codes, events and the AVF split. */
Test(db, protection_report)
{
	db_t *db = open_db(true);
	int64_t plain = new_campaign(db, "plain", "regfile", "physical");
	fill(db, plain, 0, 10, 0, 1, 1);
	char *t = report(db, DB_TEXT);
	cr_expect(!strstr(t, "Protection"), "%s", t);
	free(t);
	t = report(db, DB_CSV);
	cr_expect(!strstr(t, "codes"), "%s", t);
	free(t);
	protected_campaign(db);
	t = report(db, DB_TEXT);
	cr_expect(strstr(t, "\nProtection: the codes"), "%s", t);
	cr_expect(strstr(t, "  codes                                       n  corrected  miscorrected  detected  "
	                    "undetected  recovered  uncovered  detected DUE     AVF  SDC AVF  DUE AVF  detected AVF\n"),
	          "%s", t);
	cr_expect(strstr(t, "regfile secded, pred parity, interleave 2  20          8             2         4           2"
	                    "          0          0             4  50.00%   20.00%   30.00%        20.00%\n"), "%s", t);
	free(t);
	char *j = report(db, DB_JSON);
	json_t *root = json_loads(j, 0, NULL);
	cr_assert_not_null(root, "%s", j);
	json_t *ps = json_object_get(root, "protection_summary");
	cr_assert_eq(json_array_size(ps), 1, "%s", j);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(ps, 0), "corrected")), 8);
	json_decref(root);
	free(j);
	db_close(db);
}

/* A schema 7 file gains the columns empty and the views, its rows kept. */
Test(db, migrates_version_7)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h7", "regfile", "physical");
	fill(db, id, 0, 10, 0, 2, 3);
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 7);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_table_info('experiments') WHERE name = 'prot'"), 0);
	sqlite3_close(s);
	db = open_db(true);
	db_close(db);
	s = raw();
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments WHERE prot IS NULL AND prot_cycle IS NULL"), 10);
	cr_expect_float_eq(raw_real(s, "SELECT sdc_avf + due_avf FROM avf WHERE kernel = 'all'"), 0.5, 1e-12);
	cr_expect_eq(raw_real(s, "SELECT no_event FROM protection_summary"), 10);
	sqlite3_close(s);
}

/* Schema 11 (REFU): a schema 10 file keeps its experiments through the
 * table's rebuild; prot takes uncovered (refused before), DUE
 * refu_mismatch, penny_unrecoverable, dup_mismatch count as detected, protection_summary
 * counts uncovered. */
Test(db, migrates_version_10)
{
	db_t *db = open_db(true);
	int64_t id = protected_campaign(db);
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 10);
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), 10);
	cr_expect_neq(sqlite3_exec(s, "UPDATE experiments SET prot = 'uncovered' WHERE idx = 0", NULL, NULL, NULL),
	              SQLITE_OK, "schema 10 refuses uncovered");
	raw_exec(s, "UPDATE experiments SET reason = 'refu_mismatch' WHERE outcome = 'due' AND reason = 'timeout'");
	raw_exec(s, "UPDATE experiments SET outcome = 'due', reason = 'penny_unrecoverable' "
	            "WHERE idx = (SELECT min(idx) FROM experiments WHERE outcome = 'sdc')");
	raw_exec(s, "UPDATE experiments SET outcome = 'due', reason = 'dup_mismatch' "
	            "WHERE idx = (SELECT min(idx) FROM experiments WHERE outcome = 'sdc')");
	double det10 = raw_real(s, "SELECT detected FROM avf WHERE kernel = 'all' AND campaign_id = 1");
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_table_info('protection_summary') WHERE name = 'uncovered'"),
	             0);
	sqlite3_close(s);
	db = open_db(true);
	db_close(db);
	s = raw();
	char sql[200];
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM experiments WHERE campaign_id = %" PRId64, id);
	cr_expect_eq(raw_real(s, sql), 20, "the rows kept");
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments WHERE reason = 'refu_mismatch'"), 2);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments WHERE reason = 'penny_unrecoverable'"), 1);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments WHERE reason = 'dup_mismatch'"), 1);
	cr_expect_eq(raw_real(s, "SELECT detected FROM avf WHERE kernel = 'all' AND campaign_id = 1"), det10 + 4,
	             "refu_mismatch, penny_unrecoverable and dup_mismatch are detected now");
	raw_exec(s, "UPDATE experiments SET prot = 'uncovered' WHERE idx IN (0, 1)");
	cr_expect_eq(raw_real(s, "SELECT uncovered FROM protection_summary WHERE campaign_id = 1"), 2);
	cr_expect_neq(sqlite3_exec(s, "UPDATE experiments SET prot = 'fixed' WHERE idx = 0", NULL, NULL, NULL), SQLITE_OK,
	              "still only the event names");
	sqlite3_close(s);
}

/* Schema 9: a campaign in unalloc register mode is stored (schema 1's
 * CHECK named ptx and alloc only), and a schema 8 file keeps its campaigns,
 * their later columns and their experiments through the table's rebuild. */
Test(db, stores_unalloc_campaigns)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h8", "regfile", "physical");
	fill(db, id, 0, 10, 0, 2, 3);
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 8);
	raw_exec(s, "UPDATE campaigns SET strata = 'kernel', looks = 3");
	sqlite3_close(s);
	db = open_db(true);
	db_campaign_t c = campaign("u", "regfile", "physical");
	c.regs = "unalloc";
	int64_t uid = 0;
	bool existed = true;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &uid, &existed), 0, "%s", db_errmsg(db));
	cr_expect(!existed);
	db_close(db);
	s = raw();
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM campaigns WHERE regs = 'unalloc'"), 1);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM campaigns WHERE strata = 'kernel' AND looks = 3"), 1);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments e JOIN campaigns c ON c.id = e.campaign_id"
	                         " WHERE c.config_hash = 'h8'"), 10);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(s);
}

/* Version 13: campaigns on the texture caches (schema 12's CHECK did not
 * name texcache); a schema 12 file keeps its campaigns and experiments. */
Test(db, stores_texcache_campaigns)
{
	sqlite3 *ref = NULL;
	cr_assert_eq(sqlite3_open(":memory:", &ref), SQLITE_OK);
	for (int v = 1; v <= 12; v++)
		raw_exec(ref, db__migration(v));
	cr_expect_eq(raw_real(ref, "SELECT instr(sql, 'texcache') FROM sqlite_master WHERE name = 'campaigns'"), 0,
	             "schema 12's CHECK does not name the target");
	sqlite3_close(ref);
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h12", "const", "physical");
	fill(db, id, 0, 10, 0, 2, 3);
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 12);
	sqlite3_close(s);
	db = open_db(true);
	new_campaign(db, "t", "texcache", "physical");
	db_close(db);
	s = raw();
	cr_expect_eq(raw_real(s, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM campaigns WHERE target = 'texcache'"), 1);
	cr_expect_neq(sqlite3_exec(s, "UPDATE campaigns SET target = 'l3'", NULL, NULL, NULL), SQLITE_OK,
	              "the CHECK names the targets");
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM experiments e JOIN campaigns c ON c.id = e.campaign_id"
	                         " WHERE c.config_hash = 'h12'"), 10);
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(s);
}

Test(db, report_formats)
{
	db_t *db = open_db(true);
	int64_t id = gufi_regfile(db, "rf");
	int64_t small = new_campaign(db, "small, \"quoted\"", "simt", "physical");
	fill(db, small, 0, 100, 0, 6, 1);

	char *t = report(db, DB_TEXT);
	cr_assert(strstr(t, "6.07%"), "%s", t);
	cr_assert(strstr(t, "[5.62%, 6.56%]"), "%s", t);
	cr_assert(strstr(t, "[3.43%, 13.75%]"), "%s", t);
	cr_assert(strstr(t, "954.7"), "%s", t);
	cr_assert(strstr(t, "15728640"), "%s", t);
	cr_assert(strstr(t, "MITF"), "%s", t);
	cr_assert(strstr(t, "IPC/FIT"), "%s", t);
	char ipcfit[32];
	snprintf(ipcfit, sizeof ipcfit, "%.4g", 250.5 / 954.728448);
	cr_assert(strstr(t, ipcfit), "%s lacks %s", t, ipcfit);
	free(t);

	char *c = report(db, DB_CSV);
	cr_assert(strncmp(c, "campaign_id,campaign,target,kernel,", 35) == 0, "%s", c);
	cr_assert(strstr(c, "\n\ncampaign_id,campaign,workload,"), "%s", c);
	cr_assert(strstr(c, "\n\nworkload,gpu,regs,targets,ipc,"), "%s", c);
	cr_assert(strstr(c, ",0.0607,"), "%s", c);
	cr_assert(strstr(c, ",954.728448,"), "%s", c);
	cr_assert(strstr(c, "\"small, \"\"quoted\"\"\""), "%s", c);
	free(c);

	char *j = report(db, DB_JSON);
	json_error_t je;
	json_t *root = json_loads(j, 0, &je);
	cr_assert_not_null(root, "%s: %s", je.text, j);
	json_t *avf = json_object_get(root, "avf"), *fit = json_object_get(root, "fit"),
	       *mitf = json_object_get(root, "mitf");
	cr_assert(json_is_array(avf) && json_is_array(fit) && json_is_array(mitf));
	cr_assert_eq(json_array_size(avf), 2);
	json_t *a0 = json_array_get(avf, 0);
	cr_assert_eq(json_integer_value(json_object_get(a0, "campaign_id")), id);
	cr_assert_str_eq(json_string_value(json_object_get(a0, "kernel")), "all");
	cr_assert_eq(json_integer_value(json_object_get(a0, "n")), 10000);
	cr_assert_float_eq(json_real_value(json_object_get(a0, "avf")), 0.0607, 1e-12);
	cr_assert(json_is_null(json_object_get(a0, "launch_index")));
	json_t *a1 = json_array_get(avf, 1);
	cr_assert_float_eq(json_real_value(json_object_get(a1, "avf_lo")), 0.03431926106727268, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(json_array_get(fit, 0), "fit")),
	                   954.728448, 1e-6);
	/* The simt campaign has no golden run: no FIT, out of the GPU total. */
	cr_assert(json_is_null(json_object_get(json_array_get(fit, 1), "fit")));
	cr_assert_eq(json_array_size(mitf), 1);
	cr_assert_float_eq(json_real_value(json_object_get(json_array_get(mitf, 0), "ipc_per_fit")),
	                   250.5 / 954.728448, 1e-12);
	cr_assert(json_is_array(json_object_get(root, "avf_kernel")));
	json_decref(root);
	free(j);
	db_close(db);
}

/* The report aggregates invocations by kernel name; the per-invocation rows
 * stay in the view (SQL) but not in the report. */
Test(db, report_aggregates_kernels)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "ph", "regfile", "physical");
	three_kernels(db, id);
	char *t = report(db, DB_TEXT);
	cr_assert(strstr(t, "AVF per kernel"), "%s", t);
	/* a: 2 invocations, n 30, share 75 %, 23/6/1, AVF 23.33 %, contribution 17.50 % */
	cr_assert(strstr(t, "  a  "), "%s", t);
	cr_assert(strstr(t, "75.00%"), "%s", t);
	cr_assert(strstr(t, "23.33%"), "%s", t);
	cr_assert(strstr(t, "17.50%"), "%s", t);
	free(t);
	char *j = report(db, DB_JSON);
	json_t *root = json_loads(j, 0, NULL);
	cr_assert_not_null(root, "%s", j);
	cr_assert_eq(json_array_size(json_object_get(root, "avf")), 1, "only the campaign's row: %s", j);
	json_t *ak = json_object_get(root, "avf_kernel");
	cr_assert_eq(json_array_size(ak), 3);
	/* ordered by first launch: a, b, c */
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ak, 0), "kernel_name")), "a");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ak, 1), "kernel_name")), "b");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(ak, 0), "invocations")), 2);
	json_decref(root);
	free(j);
	char *c = report(db, DB_CSV);
	cr_assert(strstr(c, "\n\ncampaign_id,campaign,target,kernel_name,invocations,"), "%s", c);
	free(c);
	db_close(db);
}

static char *report_study(db_t *db, int format)
{
	char *out = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	cr_assert_eq(db_report_study(db, format, f, err, sizeof err), 0, "%s", err);
	fclose(f);
	return out;
}

/* Among the lines after the one containing `title`, the first that starts
 * with `first` once its blanks are squeezed to one: it must equal `want`. */
static void expect_row(const char *text, const char *title, const char *first, const char *want)
{
	const char *p = strstr(text, title);
	cr_assert_not_null(p, "no '%s' in:\n%s", title, text);
	p = strchr(p, '\n');
	size_t flen = strlen(first);
	while (p && *p) {
		p++;
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char got[512];
		size_t o = 0;
		for (size_t i = 0; i < len && o + 1 < sizeof got; i++)
			if (p[i] != ' ' || (o && got[o - 1] != ' '))
				got[o++] = p[i];
		got[o] = '\0';
		if (!strncmp(got, first, flen) && got[flen] == ' ') {
			cr_assert_str_eq(got, want, "after '%s'", title);
			return;
		}
		p = end;
	}
	cr_assert_fail("no row '%s' after '%s' in:\n%s", first, title, text);
}

Test(db, report_study_text)
{
	db_t *db = open_db(true);
	study_fixture(db);
	char *t = report_study(db, DB_TEXT);
	cr_assert(strstr(t, "Study: 6 campaigns, 2 applications, 4 structures"), "%s", t);
	/* Figures 3-7: one block per structure, structures in the views' order */
	const char *rp = strstr(t, "\nregfile-ptx\n"), *ra = strstr(t, "\nregfile-alloc\n"),
	           *sm = strstr(t, "\nsmem\n"), *st = strstr(t, "\nsimt-mask\n");
	cr_assert(rp && ra && sm && st && rp < ra && ra < sm && sm < st, "%s", t);
	expect_row(t, "\nregfile-alloc\n", "app1", "app1 100 80.00% 20.00% 0.00%");
	expect_row(t, "\nsimt-mask\n", "app2", "app2 50 90.00% 0.00% 10.00%");
	/* Figure 8: the interval, '-' where app2 has no campaign, the mean */
	double lo, hi;
	char want[256];
	wilson(20, 100, &lo, &hi);
	char alloc_iv[64];
	snprintf(alloc_iv, sizeof alloc_iv, "20.00%% [%.2f, %.2f]", 100 * lo, 100 * hi);
	wilson(10, 100, &lo, &hi);
	snprintf(want, sizeof want, "app1 10.00%% [%.2f, %.2f] %s", 100 * lo, 100 * hi, alloc_iv);
	wilson(2, 100, &lo, &hi);
	snprintf(want + strlen(want), sizeof want - strlen(want), " 2.00%% [%.2f, %.2f]", 100 * lo, 100 * hi);
	wilson(4, 100, &lo, &hi);
	snprintf(want + strlen(want), sizeof want - strlen(want), " 4.00%% [%.2f, %.2f]", 100 * lo, 100 * hi);
	expect_row(t, "AVF per structure", "app1", want);
	wilson(0, 50, &lo, &hi);
	snprintf(want, sizeof want, "app2 0.00%% [%.2f, %.2f] - -", 100 * lo, 100 * hi);
	wilson(5, 50, &lo, &hi);
	snprintf(want + strlen(want), sizeof want - strlen(want), " 10.00%% [%.2f, %.2f]", 100 * lo, 100 * hi);
	expect_row(t, "AVF per structure", "app2", want);
	expect_row(t, "AVF per structure", "mean", "mean 5.00% 20.00% 2.00% 7.00%");
	expect_row(t, "AVF per structure", "apps", "apps 2 1 1 2");
	/* Figure 9: structures, then the GPU per register mode */
	expect_row(t, "FIT per structure", "app", "app regfile-ptx regfile-alloc smem simt-mask GPU alloc GPU ptx");
	expect_row(t, "FIT per structure", "app1", "app1 1.5 3.0 0.3 0.6 3.9 2.4");
	expect_row(t, "FIT per structure", "app2", "app2 0.0 - - 1.5 - 1.5");
	expect_row(t, "FIT per structure", "mean", "mean 0.8 3.0 0.3 1.1 3.9 2.0");
	expect_row(t, "FIT per structure", "apps", "apps 2 1 1 2 1 2");
	/* Figure 10: the IPC's clock; the means' IPC/FIT is the ratio of the
	 * means (15 / 3.9), not the mean of the ratios (3.75) */
	cr_assert(strstr(t, "IPC = thread-instructions per cycle of the 700-MHz clock"), "%s", t);
	expect_row(t, "IPC/FIT per application", "app1", "app1 12.00 3.9 3.077 10.00 2.4 4.167");
	expect_row(t, "IPC/FIT per application", "app2", "app2 - - - 5.00 1.5 3.333");
	cr_assert(!strstr(t, "unfinished"), "%s", t);
	/* Table IV: kernels in launch order; all of app1's failures are in k1 */
	expect_row(t, "AVF per kernel", "app1 k1", "app1 k1 1 10.00% 20.00% 2.00% 4.00%");
	expect_row(t, "AVF per kernel", "app1 k2", "app1 k2 1 0.00% 0.00% 0.00% 0.00%");
	expect_row(t, "AVF per kernel", "app2 k1", "app2 k1 1 0.00% - - 10.00%");
	free(t);
	db_close(db);
}

/* "mean IPC/FIT [lo, hi]" of one register mode as study.c prints it: sum IPC /
 * sum FIT over study_gpu's rows of mode `regs`, the range from the sums of
 * their FIT bounds. */
static void ratio_of_means(sqlite3 *s, const char *regs, char *buf, size_t size)
{
	double ipc = rq(s, "SELECT sum(ipc) FROM study_gpu WHERE regs = '%s'", regs);
	double fit = rq(s, "SELECT sum(fit_total) FROM study_gpu WHERE regs = '%s'", regs);
	double lo = rq(s, "SELECT sum(fit_lo) FROM study_gpu WHERE regs = '%s'", regs);
	double hi = rq(s, "SELECT sum(fit_hi) FROM study_gpu WHERE regs = '%s'", regs);
	snprintf(buf, size, "%.4g [%.4g, %.4g]", ipc / fit, ipc / hi, ipc / lo);
}

/* The IPC/FIT summary keeps applications whose FIT is 0: the ratio of the
 * means, sum IPC / sum FIT, with a range from the FIT bounds. */
Test(db, report_study_ratio_of_means)
{
	db_t *db = open_db(true);
	study_fixture(db);
	study_campaign(db, "a3-rf-ptx", "app3", "ptx", "regfile", NULL, 40, 100, 0, 0); /* FIT 0 */
	char *t = report_study(db, DB_TEXT);
	expect_row(t, "IPC/FIT per application", "app3", "app3 - - - 40.00 0.0 -");
	sqlite3 *s = raw();
	cr_assert_float_eq(rq(s, "SELECT sum(ipc) / sum(fit_total) FROM study_gpu WHERE regs = 'ptx'"),
	                   (10 + 5 + 40) / (2.4 + 1.5 + 0), 1e-9);
	char want[256], ptx[64], alloc[64];
	ratio_of_means(s, "alloc", alloc, sizeof alloc);
	ratio_of_means(s, "ptx", ptx, sizeof ptx);
	sqlite3_close(s);
	snprintf(want, sizeof want, "mean 12.00 3.9 %s 18.33 1.3 %s", alloc, ptx);
	expect_row(t, "IPC/FIT per application", "mean", want);
	expect_row(t, "IPC/FIT per application", "apps", "apps 1 1 1 3 3 3");
	free(t);
	db_close(db);
}

/* A campaign with fewer experiments than planned is marked in every table
 * and in the rows of --csv and --json. */
Test(db, report_study_marks_unfinished)
{
	db_t *db = open_db(true);
	study_fixture(db);
	study_campaign_of(db, "a3-rf-ptx", "app3", "ptx", "regfile", NULL, 8, 100, 40, 4, 0); /* 40 of 100 */
	study_campaign(db, "a3-simt", "app3", "ptx", "simt", "mask", 8, 100, 0, 0);
	char *t = report_study(db, DB_TEXT);
	cr_assert(strstr(t, "1 of them is unfinished: their figures are marked *"), "%s", t);
	expect_row(t, "\nregfile-ptx\n", "app3", "app3 40* 90.00% 10.00% 0.00%");
	expect_row(t, "\nregfile-ptx\n", "app1", "app1 100 90.00% 10.00% 0.00%");
	expect_row(t, "\nregfile-ptx\n", "*", "* unfinished: app3 regfile-ptx, 40 of 100 experiments");
	expect_row(t, "\nsimt-mask\n", "app3", "app3 100 100.00% 0.00% 0.00%");
	double lo, hi;
	char want[256];
	double lo0, hi0;
	wilson(4, 40, &lo, &hi);
	wilson(0, 100, &lo0, &hi0);
	snprintf(want, sizeof want, "app3 10.00%% [%.2f, %.2f]* - - 0.00%% [%.2f, %.2f]", 100 * lo, 100 * hi,
	         100 * lo0, 100 * hi0);
	expect_row(t, "AVF per structure", "app3", want);
	expect_row(t, "AVF per structure", "*", "* unfinished: app3 regfile-ptx, 40 of 100 experiments");
	expect_row(t, "FIT per structure", "app3", "app3 1.5* - - 0.0 - 1.5*");
	expect_row(t, "FIT per structure", "app1", "app1 1.5 3.0 0.3 0.6 3.9 2.4");
	expect_row(t, "IPC/FIT per application", "app3", "app3 - - - 8.00 1.5* 5.333");
	expect_row(t, "AVF per kernel", "app3 k1", "app3 k1 1 10.00%* - - 0.00%");
	free(t);

	char *j = report_study(db, DB_JSON);
	json_t *root = json_loads(j, 0, NULL);
	cr_assert_not_null(root, "%s", j);
	size_t i;
	json_t *row;
	int seen = 0;
	json_array_foreach(json_object_get(root, "study"), i, row) {
		bool a3rf = !strcmp(json_string_value(json_object_get(row, "workload")), "app3") &&
		            !strcmp(json_string_value(json_object_get(row, "structure")), "regfile-ptx");
		cr_assert_eq(json_integer_value(json_object_get(row, "unfinished")), a3rf ? 1 : 0, "%s", j);
		if (a3rf) {
			cr_assert_eq(json_integer_value(json_object_get(row, "planned")), 100);
			cr_assert_eq(json_integer_value(json_object_get(row, "n")), 40);
			seen++;
		}
	}
	cr_assert_eq(seen, 1);
	json_array_foreach(json_object_get(root, "study_gpu"), i, row) {
		bool a3 = !strcmp(json_string_value(json_object_get(row, "workload")), "app3");
		cr_assert_eq(json_integer_value(json_object_get(row, "unfinished")), a3 ? 1 : 0, "%s", j);
	}
	json_decref(root);
	free(j);
	char *c = report_study(db, DB_CSV);
	cr_assert(strstr(c, ",planned,unfinished\n"), "%s", c);
	cr_assert(strstr(c, ",mitf,unfinished\n"), "%s", c);
	free(c);
	db_close(db);
}

Test(db, report_study_csv_json_and_gpus)
{
	db_t *db = open_db(true);
	study_fixture(db);
	char *j = report_study(db, DB_JSON);
	json_t *root = json_loads(j, 0, NULL);
	cr_assert_not_null(root, "%s", j);
	cr_assert_eq(json_array_size(json_object_get(root, "study")), 6);
	cr_assert_eq(json_array_size(json_object_get(root, "study_gpu")), 3);
	cr_assert_eq(json_array_size(json_object_get(root, "study_kernel")), 12);
	json_t *first = json_array_get(json_object_get(root, "study"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(first, "structure")), "regfile-ptx");
	json_decref(root);
	free(j);
	char *c = report_study(db, DB_CSV);
	cr_assert(strncmp(c, "workload,gpu,structure,", 23) == 0, "%s", c);
	cr_assert(strstr(c, "\n\nworkload,gpu,regs,structures,"), "%s", c);
	cr_assert(strstr(c, "\n\nworkload,gpu,structure,structure_rank,campaign_id,kernel_name,"), "%s", c);
	free(c);

	/* With more than one GPU the rows name it. */
	db_campaign_t v = campaign("a2-v100", "regfile", "physical");
	v.workload = "app2";
	v.gpu = "v100";
	v.n_masks = 10;
	int64_t id;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &v, &id, &existed), 0, "%s", db_errmsg(db));
	db_golden_t g = golden(80, 1000, 7.0);
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10, 0, 1, 0);
	char *t = report_study(db, DB_TEXT);
	expect_row(t, "FIT per structure", "app2 (v100)", "app2 (v100) 8.0 - - - - 8.0");
	expect_row(t, "FIT per structure", "app1 (gtx480)", "app1 (gtx480) 1.5 3.0 0.3 0.6 3.9 2.4");
	free(t);
	db_close(db);
}

Test(db, report_of_empty_database)
{
	db_t *db = open_db(true);
	char *t = report(db, DB_TEXT);
	cr_assert(strstr(t, "AVF") && strstr(t, "(no rows)"), "%s", t);
	free(t);
	char *j = report(db, DB_JSON);
	json_t *root = json_loads(j, 0, NULL);
	cr_assert_not_null(root);
	cr_assert_eq(json_array_size(json_object_get(root, "mitf")), 0);
	json_decref(root);
	free(j);
	char *st = report_study(db, DB_TEXT);
	cr_assert(strstr(st, "No study: the database holds no application-scope campaign with results."), "%s", st);
	free(st);
	st = report_study(db, DB_JSON);
	root = json_loads(st, 0, NULL);
	cr_assert_not_null(root);
	cr_assert_eq(json_array_size(json_object_get(root, "study")), 0);
	json_decref(root);
	free(st);
	char err[128];
	cr_assert_eq(db_report(db, 7, stdout, err, sizeof err), DB_EINVAL);
	cr_assert_eq(db_report_study(db, -1, stdout, err, sizeof err), DB_EINVAL);
	cr_assert_eq(db_report_study(NULL, DB_TEXT, stdout, err, sizeof err), DB_EINVAL);
	db_close(db);
}

/* ---- campaign identity across versions (issue 10) ------------------------- */

/* A campaign stored by a flipsim of identity format 1 is found again under
 * its new identity: adopted with its results, not started from zero. */
Test(db, legacy_identity_adopted_with_its_results)
{
	db_t *db = open_db(true);
	int64_t old = new_campaign(db, "legacyhash", "regfile", "physical");
	fill(db, old, 0, 10, 0, 1, 0);
	db_campaign_t c = campaign("newhash", "regfile", "physical");
	c.config = "{\"format\":2}";
	c.legacy_hash = "legacyhash";
	int64_t id = 0;
	bool existed = false;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	cr_expect(existed, "resumed");
	cr_expect_eq(id, old);
	db_progress_t p;
	cr_assert_eq(db_progress(db, id, &p), 0);
	cr_expect_eq(p.done, 10);
	/* once adopted, the new identity alone finds it */
	c.legacy_hash = NULL;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	cr_expect(existed);
	cr_expect_eq(id, old);
	db_close(db);
	sqlite3 *s = raw();
	cr_expect_eq(raw_real(s, "SELECT count(*) FROM campaigns"), 1);
	cr_expect_eq(raw_real(s, "SELECT config_hash = 'newhash' AND config = '{\"format\":2}' FROM campaigns"), 1);
	sqlite3_close(s);
}

/* Both identities present (the new one created first): nothing is merged. */
Test(db, legacy_identity_left_when_the_new_exists)
{
	db_t *db = open_db(true);
	int64_t old = new_campaign(db, "legacyhash", "regfile", "physical");
	int64_t fresh = new_campaign(db, "newhash", "regfile", "physical");
	db_campaign_t c = campaign("newhash", "regfile", "physical");
	c.legacy_hash = "legacyhash";
	int64_t id = 0;
	bool existed = false;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	cr_expect_eq(id, fresh);
	cr_expect_neq(id, old);
	db_close(db);
}

Test(db, namesake_of_another_definition)
{
	db_t *db = open_db(true);
	db_campaign_t c = campaign("h1", "regfile", "physical");
	c.name = "vadd";
	int64_t a, b, other = -1;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &a, &existed), 0);
	char created[40];
	cr_assert_eq(db_campaign_namesake(db, "vadd", a, &other, created, sizeof created), 0);
	cr_expect_eq(other, 0, "alone with its name");
	c.config_hash = "h2";
	cr_assert_eq(db_campaign_get_or_create(db, &c, &b, &existed), 0);
	cr_assert_eq(db_campaign_namesake(db, "vadd", b, &other, created, sizeof created), 0);
	cr_expect_eq(other, a);
	cr_expect_eq(strlen(created), 20, "ISO-8601 time: %s", created);
	db_close(db);
}

/* ---- daemons (schema 3) ----------------------------------------------------- */

Test(db, daemon_heartbeat_rows)
{
	db_t *db = open_db(true);
	int64_t cid = new_campaign(db, "h1", "regfile", "physical");
	db_daemon_t d = {.pid = 4242, .host = "node7", .started = 1000, .heartbeat = 1000, .interval = 10}, got;
	int64_t row = 0;
	cr_expect_eq(db_daemon_of(db, cid, &got), DB_ENOTFOUND, "nobody ran it yet");
	cr_assert_eq(db_daemon_start(db, &d, &row), 0, "%s", db_errmsg(db));
	cr_assert_gt(row, 0);
	cr_expect_eq(db_daemon_of(db, cid, &got), DB_ENOTFOUND, "not on this campaign yet");
	cr_assert_eq(db_daemon_beat(db, row, cid, 1010, 2.5), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_daemon_of(db, cid, &got), 0, "%s", db_errmsg(db));
	cr_expect_eq(got.id, row);
	cr_expect_eq(got.pid, 4242);
	cr_expect_str_eq(got.host, "node7");
	cr_expect_eq(got.started, 1000);
	cr_expect_eq(got.heartbeat, 1010);
	cr_expect_eq(got.interval, 10);
	cr_expect_eq(got.rate, 2.5);
	cr_expect(!got.ended);
	cr_assert_eq(db_daemon_end(db, row, 1020), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_daemon_of(db, cid, &got), 0);
	cr_expect(got.ended);
	cr_expect_eq(got.heartbeat, 1020);
	/* a later run of the same campaign is the one status reads */
	d.pid = 77;
	cr_assert_eq(db_daemon_start(db, &d, &row), 0);
	cr_assert_eq(db_daemon_beat(db, row, cid, 2000, 1), 0);
	cr_assert_eq(db_daemon_of(db, cid, &got), 0);
	cr_expect_eq(got.pid, 77);
	cr_expect(!got.ended);
	db_close(db);
}

/* A reader of a schema-2 file (never migrated by a reader) finds no daemon
 * and says so without writing. */
Test(db, daemon_of_schema_2_file)
{
	db_t *db = open_db(true);
	int64_t cid = new_campaign(db, "h1", "regfile", "physical");
	db_close(db);
	sqlite3 *s = raw();
	downgrade(s, 2);
	sqlite3_close(s);
	db = open_db(false);
	db_daemon_t got;
	cr_expect_eq(db_daemon_of(db, cid, &got), DB_ENOTFOUND);
	db_close(db);
}

/* ---- the file under a writer ---------------------------------------------- */

/* dir/R.db.recovered-PID, the copy a writer saves when it loses its file. */
static void recovered_path(char *buf, size_t n)
{
	snprintf(buf, n, "%s.recovered-%ld", dbpath, (long)getpid());
}

static double count_in(const char *path, const char *sql)
{
	sqlite3 *s = NULL;
	cr_assert_eq(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL), SQLITE_OK, "%s", path);
	double v = raw_real(s, sql);
	sqlite3_close(s);
	return v;
}

/* A writer with 10 experiments committed loses a file (`gone`: R.db, or its
 * -wal, deleted): the next write is DB_EMOVED naming the file and the copy,
 * the copy holds the 10, no later write is accepted, and nothing is left at
 * the path. */
static void lose_file(const char *const *gone, const char *what)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 10, 0, 2, 1);
	cr_assert_eq(db_check_file(db), 0);
	for (; *gone; gone++) {
		char p[256];
		snprintf(p, sizeof p, "%s%s", dbpath, *gone);
		cr_assert_eq(unlink(p), 0, "%s", p);
	}
	db_experiment_t e = {.idx = 0, .outcome = DB_MASKED};
	db_mask_t m = {.idx = 10, .cycle = 5, .nbits = 1};
	cr_assert_eq(db_masks_put(db, id, &m, 1), DB_EMOVED);
	char rec[300];
	recovered_path(rec, sizeof rec);
	const char *msg = db_errmsg(db);
	cr_assert(strncmp(msg, dbpath, strlen(dbpath)) == 0, "names the file: %s", msg);
	cr_assert(strstr(msg, what), "'%s' lacks '%s'", msg, what);
	cr_assert(strstr(msg, "everything committed so far is saved in") && strstr(msg, rec), "%s", msg);
	cr_assert_eq(db_experiments_put(db, id, &e, 1, NULL), DB_EMOVED, "no write after the loss");
	cr_assert_eq(db_check_file(db), DB_EMOVED);
	db_close(db);
	cr_assert(!exists("-wal") && !exists("-shm"), "the lost WAL's names are gone");
	cr_assert_eq(count_in(rec, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"), 1);
	cr_assert_eq(count_in(rec, "SELECT count(*) FROM experiments"), 10, "every committed experiment is saved");
	cr_assert_eq(count_in(rec, "SELECT count(*) FROM masks"), 10, "the refused batch is not");
	unlink(rec);
}

Test(db, deleted_file_stops_writes_and_saves_them)
{
	const char *all[] = {"", "-wal", "-shm", NULL};
	lose_file(all, "the database file was deleted or moved away while flipsim had it open");
	cr_assert(!exists(""), "no new file at the path");
	const char *main_only[] = {"", NULL};
	lose_file(main_only, "the database file was deleted or moved away");
	cr_assert(!exists(""));
	const char *wal[] = {"-wal", NULL};
	lose_file(wal, "its -wal file was deleted or moved away");
}

/* Another database renamed over the writer's: the writer stops at its next
 * write, saves its own results, and the other database is left exactly as
 * it was, with no -wal of ours beside it to be applied to it. */
Test(db, replaced_file_left_untouched)
{
	char other[256];
	snprintf(other, sizeof other, "%s/other.db", dir);
	db_t *db = NULL;
	char err[512];
	cr_assert_eq(db_open(other, true, &db, err, sizeof err), 0, "%s", err);
	db_campaign_t oc = campaign("other", "smem", "physical");
	int64_t oid;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &oc, &oid, &existed), 0);
	db_close(db);
	size_t len0, len1;
	char *before = slurp(other, &len0);

	db = open_db(true);
	int64_t id = new_campaign(db, "h1", "regfile", "physical");
	fill(db, id, 0, 10, 0, 2, 1);
	cr_assert_eq(rename(other, dbpath), 0);
	db_experiment_t e = {.idx = 0, .outcome = DB_MASKED};
	cr_assert_eq(db_experiments_put(db, id, &e, 1, NULL), DB_EMOVED);
	cr_assert(strstr(db_errmsg(db), "the database file was replaced by another file while flipsim had it open "
	                                "(the file now there is left untouched)"), "%s", db_errmsg(db));
	db_close(db);

	cr_assert(!exists("-wal"), "no WAL of ours beside the other database");
	char *after = slurp(dbpath, &len1);
	cr_assert(len0 == len1 && memcmp(before, after, len0) == 0, "the other database changed");
	free(before);
	free(after);
	cr_assert_eq(count_in(dbpath, "SELECT count(*) FROM campaigns WHERE config_hash = 'other'"), 1);
	cr_assert_eq(count_in(dbpath, "SELECT count(*) FROM experiments"), 0);
	char rec[300];
	recovered_path(rec, sizeof rec);
	cr_assert_eq(count_in(rec, "SELECT count(*) FROM experiments"), 10);
}

/* ---- kernel names as people read them (demangle.c) ------------------------ */

Test(db, demangle)
{
	char buf[128];
	cr_expect_str_eq(db_demangle("_Z4vaddPfS_S_i", true, buf, sizeof buf), "vadd(float*, float*, float*, int)");
	cr_expect_str_eq(db_demangle("_Z4vaddPfS_S_i", false, buf, sizeof buf), "vadd");
	cr_expect_str_eq(db_demangle("_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j", false, buf, sizeof buf),
	                 "mergeSortSharedKernel<1u>", "no return type");
	cr_expect_str_eq(db_demangle("_Z4sortIjLj1EEvPT_", false, buf, sizeof buf), "sort<unsigned int,1u>");
	cr_expect_str_eq(db_demangle("_ZN12_GLOBAL__N_13fooEv", false, buf, sizeof buf), "(anonymous namespace)::foo");
	cr_expect_str_eq(db_demangle("_ZN2ns3barEPf", false, buf, sizeof buf), "ns::bar");
	cr_expect_str_eq(db_demangle("_Z4vaddPfS_S_i", true, buf, 8), "vadd(fl", "cut to fit");
	const char *c = "vadd", *bad = "_Zx";
	cr_expect_eq(db_demangle(c, true, buf, sizeof buf), c, "a C name is returned as it is");
	cr_expect_eq(db_demangle(bad, false, buf, sizeof buf), bad, "what does not demangle stays");
}

/* Text tables show kernels demangled; CSV and JSON keep the stored name. */
Test(db, report_demangles_kernel_names)
{
	db_t *db = open_db(true);
	int64_t id = new_campaign(db, "ph", "regfile", "physical");
	db_kernel_t k[2] = {
		{.launch_index = 0, .kernel = "_Z4vaddPfS_S_i", .start_cycle = 0, .end_cycle = 100,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.5, .df_smem = 0.1},
		{.launch_index = 1, .kernel = "_Z6VecAddPKfS0_Pfi", .start_cycle = 100, .end_cycle = 200,
		 .grid = {1, 1, 1}, .block = {1, 1, 1}, .df_reg = 0.5, .df_smem = 0.1},
	};
	cr_assert_eq(db_kernels_put(db, id, k, 2), 0, "%s", db_errmsg(db));
	fill(db, id, 0, 10, 0, 2, 1);
	fill(db, id, 10, 10, 100, 1, 0);
	char *t = report(db, DB_TEXT);
	cr_expect(strstr(t, "  vadd  ") && strstr(t, "  VecAdd  "), "%s", t);
	cr_expect(!strstr(t, "_Z"), "%s", t);
	free(t);
	char *c = report(db, DB_CSV);
	cr_expect(strstr(c, ",_Z4vaddPfS_S_i,") && strstr(c, ",_Z6VecAddPKfS0_Pfi,"), "%s", c);
	free(c);
	db_close(db);
}
