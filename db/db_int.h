/* db internals shared by db.c (open, migrations, writer, queries) and
 * report.c and study.c (the avf/fit/mitf report and the study tables).
 *
 * File identity. PRAGMA application_id = DB_APPLICATION_ID ('FLPS');
 * PRAGMA user_version = schema version. A file with another application_id,
 * or with id 0 and any schema object, is not ours; one with a higher
 * user_version is refused unread. Version 0 with no objects is an empty file
 * that create=true initialises.
 *
 * Connection settings: journal_mode=WAL (persistent, set once by a writer),
 * synchronous=NORMAL, foreign_keys=ON, busy_timeout=5000 ms. Readers open
 * SQLITE_OPEN_READONLY with query_only and never migrate: an older schema is
 * read from a private temporary copy (sqlite3_backup) migrated in place.
 *
 * Schema check: a file with our application_id must hold every table, index
 * and view that migration steps 1..user_version create (compared with those
 * steps run in an in-memory database; views must compile); else it is
 * refused as damaged, by readers and writers alike.
 *
 * File identity: a writer records (dev, ino) of path, path-wal, path-shm
 * at open and compares them with stat(path...) before each write
 * transaction and after its commit (db_check_file). A mismatch is final:
 * the open content goes to PATH.recovered-PID (VACUUM INTO), our -wal and
 * -shm names are unlinked, and the connection closes with PERSIST_WAL and
 * no checkpoint, so it touches no path again.
 *
 * Migrations: the table `migrations` in db.c lists steps 1..DB_SCHEMA_VERSION;
 * opening applies the missing ones in order, each followed by
 * PRAGMA user_version = step, all inside one BEGIN IMMEDIATE transaction
 * that re-checks the version (two processes may open a new file at once).
 * A step never changes once released; later versions append steps.
 *
 * Schema version 1 (all tables STRICT; uint64 as int64 bit pattern):
 *
 *   table        key                      rows
 *   -----------  -----------------------  ----------------------------------
 *   campaigns    id                       one per resolved config (config_hash
 *                                         UNIQUE); z = normal quantile of
 *                                         confidence, computed in C
 *   golden       campaign_id              the fault-free run
 *   kernels      (campaign_id,            kernel invocations of the golden
 *                 launch_index)           run, [start_cycle, end_cycle)
 *   masks        (campaign_id, idx)       faults; kernel = invocation whose
 *                                         interval holds cycle, or NULL
 *   experiments  (campaign_id, idx)       at most one outcome per mask
 *                 -> masks
 *
 *   view         one row per
 *   -----------  -----------------------------------------------------------
 *   campaign_df  campaign: time-weighted derating factor (1 when physical)
 *   avf          campaign × kernel ('all' + each launch_index with masks)
 *   fit          campaign (whole-campaign AVF × FIT/bit × bits)
 *   fit_gpu      (workload, gpu, regs): Σ FIT over the newest campaign
 *                with a FIT (golden run and experiments) of each target
 *   mitf         (workload, gpu, regs): IPC, FIT, IPC/FIT, MITF
 *
 * Schema version 2 adds views only:
 *
 *   view         one row per
 *   -----------  -----------------------------------------------------------
 *   avf_kernel   campaign × kernel name (invocations aggregated): AVF, df,
 *                share of the masks, contribution to the campaign's AVF
 *   study        (workload, gpu, structure): the newest application-scope
 *                campaign with experiments; structure = target[-fields]
 *                [-regs for regfile and pred], e.g. regfile-alloc, simt-mask
 *   study_gpu    (workload, gpu, register mode): FIT of that mode's register
 *                structures plus every other structure, IPC, IPC/FIT, MITF
 *   study_kernel study row × kernel name (avf_kernel of its campaign)
 *
 * Schema version 3 adds one table (issue 10 item 11: daemon heartbeat):
 *
 *   table        key                      rows
 *   -----------  -----------------------  ----------------------------------
 *   daemons      id; (campaign_id, id)    one per `flipsim run` process: pid,
 *                                         host, started, heartbeat, interval
 *                                         (Unix seconds), campaign_id, rate,
 *                                         ended (NULL while it runs)
 *
 * Schema version 3 also replaces views (issue 10: live sampling derated idle
 * SMs twice):
 *
 *   view         one row per
 *   -----------  -----------------------------------------------------------
 *   exp_weight   experiment: launch_index, fail f, weight w = 1 (physical)
 *                or live_bits / bits_per_sm (live; NULL without live_bits)
 *   avf          as before, by the estimator of db.c's SCHEMA_V3: avf_derated
 *                = mean of w f, df = mean of w, avf = Σ w f / Σ w, Wilson
 *                intervals at an effective sample size
 *   avf_kernel   as before, by the same estimator
 *   campaign_df  campaign: df of its avf row 'all'
 *
 * Schema version 4 (issue 12 item 5) makes the table campaigns again, the
 * same columns and rows, with the cache targets 'l1d', 'l2' and 'const'
 * allowed in target. golden.num_sms is the number of SMs that hold the
 * target (1 for the L2, shared by all: simcore's sc_target_sms), so that
 * num_sms x bits_per_sm stays the structure's bits over the GPU.
 */
#ifndef DB_INT_H
#define DB_INT_H

/* The DUE reasons of a detected error, as an SQL list: a code found what
 * it cannot correct (simcore's SC_DUE_ECC_UNCORRECTABLE, SC_DUE_PARITY_ERROR,
 * SC_DUE_IBUFFER_PARITY) or, from schema 11, REFU's replay differed
 * (SC_DUE_REFU_MISMATCH), Penny found no checkpoint
 * (SC_DUE_PENNY_UNRECOVERABLE) or datapath duplication found an original
 * and its replica different (SC_DUE_DUP_MISMATCH). Every view and query that counts detected
 * DUEs uses DB_DETECTED_REASONS; DB_DETECTED_REASONS_V8 and _V11 are the
 * lists schema 8's and 11's steps were released with (they must not
 * change). A scheme that adds a detected reason defines the next list,
 * points DB_DETECTED_REASONS at it and makes view avf again in its schema
 * step, as schema 11 does (db.c, AVF_V8_VIEW). */
#define DB_DETECTED_REASONS_V8 "'ecc_uncorrectable', 'parity_error', 'ibuffer_parity'"
#define DB_DETECTED_REASONS_V11 DB_DETECTED_REASONS_V8 ", 'refu_mismatch', 'penny_unrecoverable', 'dup_mismatch'"
#define DB_DETECTED_REASONS DB_DETECTED_REASONS_V11

#include <sqlite3.h>
#include <sys/types.h>

#include "db.h"

/* A file as the writer found it at open: path, path-wal, path-shm. The
 * writer's SQLite keeps all three open, so their inodes cannot be reused
 * while it runs: the same (dev, ino) at the path means the same file. */
typedef struct {
	bool known;      /* it existed at open */
	dev_t dev;
	ino_t ino;
} db__file_id_t;

enum { DB__MAIN, DB__WAL, DB__SHM, DB__NFILES };

struct db {
	sqlite3 *sql;
	char *path;
	bool readonly;   /* a reader, or opened without write permission */
	bool watched;    /* a writer: files[] holds what it opened */
	bool lost;       /* a file was deleted or replaced: no more writes */
	db__file_id_t files[DB__NFILES];
	char msg[1024];  /* last failure, "path: what" */
	char lost_msg[1024]; /* what happened to the file, once lost */
};

/* Records a failure "path: <fmt>" on db and returns code. */
int db__fail(db_t *db, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Maps an SQLite result code to a DB_E* code and records
 * "path: <what>: <sqlite message>". Returns the DB_E* code. */
int db__sqlerr(db_t *db, int rc, const char *what);
/* sqlite3_prepare_v2 on db's connection; a failure recorded on db (DB_E*). */
int db__prepare(db_t *db, const char *sql, sqlite3_stmt **st);
/* Column i of st's row as text into dst (n bytes, cut to fit; "" for NULL). */
void db__column_text(sqlite3_stmt *st, int i, char *dst, size_t n);

/* The write transaction of db.c (BEGIN IMMEDIATE after the file check;
 * COMMIT, then the file checked again; ROLLBACK when one is open), for
 * the other files of db/. */
int db__begin_write(db_t *db);
int db__commit_write(db_t *db);
void db__rollback(db_t *db);

/* The SQL of migration step v (1..DB_SCHEMA_VERSION: from version v-1 to
 * v), NULL outside; static text. Tests build files of older schemas with it. */
const char *db__migration(int64_t v);

/* Columns that the study's rows carry beyond their views (appended to
 * `SELECT *`; study.c's tables and report.c's CSV and JSON read the same):
 *   study      planned = the campaign's planned masks (n_masks);
 *              unfinished = 1 when it has fewer experiments (n < planned)
 *   study_gpu  unfinished = how many of the campaigns summed into its FIT
 *              (the rule of view study_gpu) are unfinished */
#define DB_STUDY_EXTRA                                                                          \
	", (SELECT c.n_masks FROM campaigns c WHERE c.id = study.campaign_id) AS planned,"          \
	" study.n < (SELECT c.n_masks FROM campaigns c WHERE c.id = study.campaign_id) AS unfinished"
#define DB_STUDY_GPU_EXTRA                                                                      \
	", (SELECT count(*) FROM study s JOIN campaigns c ON c.id = s.campaign_id"                  \
	" WHERE s.workload = study_gpu.workload AND s.gpu = study_gpu.gpu"                           \
	" AND (s.target NOT IN ('regfile', 'pred') OR s.regs = study_gpu.regs)"                     \
	" AND s.n < c.n_masks) AS unfinished"

/* Prints the study's text tables (views study, study_gpu, study_kernel)
 * inside the caller's read transaction. Returns 0 or a DB_E* code recorded
 * on db. */
int db__study_text(db_t *db, FILE *out);

/* ---- the study as study.c reads it (views study, study_gpu, study_kernel) ----
 * study.c prints it as text tables, html.c draws it; both load it with
 * db__study_load, inside the caller's read transaction. */

/* One application: a workload on a GPU. */
typedef struct {
	char *workload, *gpu;
} db__app_t;

/* One row of view study (with DB_STUDY_EXTRA). Doubles are NaN where the
 * view has NULL. */
typedef struct {
	int app, structure;
	int64_t n, masked, sdc, due, planned;
	bool unfinished;   /* n < planned */
	double avf, lo, hi, fit, fit_lo, fit_hi;
} db__cell_t;

/* One row of view study_gpu (with DB_STUDY_GPU_EXTRA). */
typedef struct {
	int app, mode;
	int64_t unfinished; /* unfinished campaigns summed into fit */
	double fit, fit_lo, fit_hi, ipc, clock_mhz, ipc_per_fit;
} db__gpu_t;

/* One application's kernel and its contribution per structure. */
typedef struct {
	int app;
	char *name;
	int64_t invocations, first_launch;
	double *contribution; /* per structure; NaN: no campaign */
} db__kernel_t;

typedef struct {
	db__app_t *apps;
	int napps;
	char **structures; /* in the view's order (structure_rank, name) */
	int nstructures;
	char **modes;      /* register modes of study_gpu, sorted */
	int nmodes;
	db__cell_t *cells;
	size_t ncells;
	db__gpu_t *gpus;
	size_t ngpus;
	db__kernel_t *kernels;
	size_t nkernels;
	bool many_gpus;    /* label applications "workload (gpu)" */
	int nunfinished;   /* cells with unfinished set */
} db__study_t;

/* Reads the study into *s (zeroed first): applications sorted by workload
 * and GPU, structures in the view's order, kernels by application and first
 * launch. Returns 0 (s owns its arrays: db__study_free) or a DB_E* code
 * recorded on db (s freed). */
int db__study_load(db_t *db, db__study_t *s);
void db__study_free(db__study_t *s);
/* The application's label: "workload", or "workload (gpu)" when the study
 * spans several GPUs; in buf (size bytes) or s's own string. */
const char *db__study_app_label(const db__study_t *s, int app, char *buf, size_t size);

/* ---- charts (svg.c) and the HTML report (html.c) ----
 * A chart is horizontal bars, one row each, under optional group headings:
 * a bar stacks its segments (seg[i] of series i, left to right; NaN or <= 0
 * draws nothing) and may carry an error bar [lo, hi]. Values are stored as
 * the views give them and shown times `scale` (100: fractions as percent);
 * the axis runs from 0 to xmax (shown units) or, with xmax 0, to the next
 * tick at or above the largest stacked sum or interval end. The SVG marks:
 * rect.bar (a segment, with a <title> of its value), path.err (an error
 * bar: caps at lo and hi joined at mid-height), rect.key (a legend
 * swatch). Geometry (db__svg_layout): the plot spans x in [left, right],
 * bars from y = top down to bottom, ticks every `step`. */
#define DB__SVG_MAXSEG 13

typedef struct {
	const char *group; /* a heading drawn above this bar, or NULL */
	const char *label;
	double seg[DB__SVG_MAXSEG];
	double lo, hi;     /* NaN: no error bar */
} db__bar_t;

typedef struct {
	const char *id;    /* the figure's name: file DIR/<id>.svg, element id fig-<id> */
	const char *title;
	const char *axis;  /* the x axis' label, with its unit */
	const char *const *series; /* legend, nseries <= DB__SVG_MAXSEG */
	const char *const *colors; /* per series, or NULL: the palette */
	int nseries;
	double scale, xmax;
	const db__bar_t *bars;
	size_t nbars;
} db__chart_t;

typedef struct {
	double left, right, top, bottom, height, step, axis_max;
} db__svg_geom_t;

void db__svg_layout(const db__chart_t *c, db__svg_geom_t *g);
/* The x coordinate of a shown value (clamped to the axis). */
double db__svg_x(const db__svg_geom_t *g, double shown);
/* The tick step for an axis up to max: 1, 2, 2.5 or 5 times a power of ten. */
double db__svg_step(double max);
const char *db__svg_color(const db__chart_t *c, int series);
/* Writes the chart as one <svg> element (valid standalone and inline). */
void db__svg_chart(const db__chart_t *c, FILE *out);
/* s with & < > " ' as entities and control characters as blanks. */
void db__xml_escape(const char *s, FILE *out);

/* ---- the report's tables (report.c), for html.c and --csv DIR ----
 * A table is a view with its row filter, order and column formats, the
 * same text `report` prints. */
typedef struct db__table db__table_t;
/* The report's (or the study's) table of view `view`, or NULL. */
const db__table_t *db__table(const char *view);
/* Prepares SELECT * [+ the table's extra columns] FROM view [WHERE where]
 * ORDER BY ...; where NULL: the table's own filter. With cmd, writes there
 * the query without the extra columns, as a reader would type it.
 * Returns 0 or a DB_E* code recorded on db. */
int db__table_prepare(db_t *db, const db__table_t *t, const char *where, sqlite3_stmt **st, char *cmd,
                      size_t cmdsz);
int db__table_ncols(const db__table_t *t);
/* The index of st's column `name`, or -1. */
int db__column_index(sqlite3_stmt *st, const char *name);
const char *db__table_head(const db__table_t *t, int col);
/* The text of column col of st's current row as `report` prints it. */
void db__table_cell(const db__table_t *t, sqlite3_stmt *st, int col, char *buf, size_t sz);

#endif
