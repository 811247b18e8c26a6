/* db — the SQLite results database: schema and migrations, the batched
 * writer for masks and experiments, progress queries, and the AVF, FIT and
 * MITF views with their report. Design: docs/DESIGN.md ("Metrics",
 * "Principles"); the schema is documented in db_int.h and db/README.md.
 * Ownership: strings in input structs belong to the caller and are copied
 * before the call returns; arrays returned through out-pointers belong to the
 * caller (free() or the matching db_*_free, as each function says). A db_t is
 * used by one thread at a time. */
#ifndef DB_H
#define DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors: 0 on success, a negative code otherwise -------------------
 * The one-line message of the last failure on a handle is db_errmsg(db);
 * db_open and db_report write theirs to a caller-supplied buffer. Messages
 * start with the database path ("R.db: ..."). */
#define DB_ERR_LIST(X)                                                   \
	X(NOMEM, -1, "out of memory")                                        \
	X(INVAL, -2, "invalid argument or constraint violated")             \
	X(NOTDB, -3, "not a flipsim database")                               \
	X(NEWER, -4, "written by a newer flipsim")                           \
	X(READONLY, -5, "the database is read-only")                         \
	X(BUSY, -6, "the database is locked by another process")             \
	X(NOTFOUND, -7, "no such file or record")                            \
	X(CONFLICT, -8, "differs from what the database already holds")      \
	X(IO, -9, "cannot read or write the database")                       \
	X(SQL, -10, "unexpected SQLite error")                               \
	X(MOVED, -11, "the database file was deleted or replaced while open")

enum {
#define X(name, code, text) DB_E##name = code,
	DB_ERR_LIST(X)
#undef X
};

/* Returns a static description of a DB_E* code. */
const char *db_strerror(int err);

/* The database's identity and the schema version this build writes. The
 * application_id is 'FLPS' in ASCII. */
#define DB_APPLICATION_ID 0x464C5053
#define DB_SCHEMA_VERSION 13

/* The reason an engine stores for a fault that hit an unallocated resource
 * and was classified Masked without simulation; db_progress counts them. */
#define DB_REASON_UNUSED "unused"
#define DB_REASON_DEAD "dead"

/* Longest output digest (hex text) golden rows hold, NUL included. */
#define DB_DIGEST_MAX 129

typedef struct db db_t;

typedef enum { DB_MASKED = 0, DB_SDC = 1, DB_DUE = 2 } db_outcome_t;
typedef enum { DB_TEXT = 0, DB_CSV = 1, DB_JSON = 2 } db_format_t;

/* ---- records ------------------------------------------------------------
 * uint64_t values are stored as the int64 with the same bit pattern (SQLite
 * integers are signed 64-bit): seed and mask loc may read negative in SQL;
 * cycles, counts and indices are always below 2^63 and read as they are. */

/* A campaign. Its identity is config_hash: the same resolved configuration
 * is the same campaign, which is how a re-run resumes. workload, gpu and regs
 * group campaigns into one GPU-level FIT and MITF (views fit_gpu, mitf). */
typedef struct {
	const char *name;         /* display name */
	const char *workload;     /* workload name */
	const char *gpu;          /* GPU configuration name */
	const char *regs;         /* register mode: "ptx" | "alloc" | "unalloc" */
	const char *config;       /* canonical resolved configuration, JSON text */
	const char *config_hash;  /* digest of config (hex text), unique */
	const char *tool_version; /* flipsim version that created it */
	uint64_t seed;
	const char *target;       /* "regfile" ... "l1d" "l2" "const" "texcache" */
	const char *sampling;     /* "physical" | "live" */
	double fit_per_bit;       /* intrinsic FIT per bit, e.g. 0.001 */
	double confidence;        /* of the Wilson intervals, in (0,1), e.g. 0.95 */
	uint64_t n_masks;         /* planned number of injections */
	const char *fields;       /* sampled fields ("valid", "pc,rpc,mask"); NULL or "" for none */
	const char *scope;        /* "application" (NULL) or "kernel:NAME:INVOCATION"; only
	                             application-scope campaigns add up in fit_gpu, where
	                             campaigns of one target with different fields are summed */
	const char *legacy_hash;  /* the same definition's digest as an older flipsim computed
	                             it (campaign identity format 1), or NULL */
	const char *strata;       /* "kernel" (stratified: view avf's 'all' row is the
	                             stratified estimator), or NULL */
	uint32_t looks;           /* sequential stopping: its looks (1..20; the intervals'
	                             z is then of 1 - (1 - confidence) / looks); 0: none */
} db_campaign_t;

/* The fault-free run of a campaign. */
typedef struct {
	uint64_t cycles;
	uint64_t thread_insts;
	uint64_t warp_insts;
	double ipc;          /* thread instructions per cycle, whole GPU */
	double clock_mhz;
	uint32_t num_sms;     /* SMs holding the target (sc_target_sms: 1 for the shared l2) */
	uint64_t bits_per_sm; /* size of the target structure per SM, its sampled fields */
	char output_digest[DB_DIGEST_MAX];
	double wall_seconds;
} db_golden_t;

/* One kernel invocation of the golden run. */
typedef struct {
	uint32_t launch_index; /* order of the launch in the program, from 0 */
	const char *kernel;    /* entry name */
	uint64_t start_cycle;  /* it ran in [start_cycle, end_cycle) */
	uint64_t end_cycle;
	uint32_t grid[3];
	uint32_t block[3];
	uint32_t regs_per_thread;
	uint32_t threads_per_sm;
	uint32_t ctas_per_sm;
	uint32_t smem_per_cta; /* bytes */
	double df_reg;         /* regs_per_thread × threads / regfile size per SM */
	double df_smem;        /* smem_per_cta × ctas / shared memory per SM */
} db_kernel_t;

/* One fault mask: where and when to flip. */
typedef struct {
	uint64_t idx;       /* 0 .. n_masks-1 within the campaign */
	uint64_t cycle;     /* activation cycle */
	uint32_t sm;
	uint64_t loc;       /* location within the target structure of that SM */
	uint32_t nbits;     /* adjacent bits flipped, >= 1 */
	const char *extra;  /* JSON of further faults (multi-cycle models) or NULL */
	int64_t kernel;     /* output only: launch_index whose [start,end) holds
	                       cycle, or -1 (db_masks_put derives it) */
} db_mask_t;

/* One experiment: the outcome of one mask. */
typedef struct {
	uint64_t idx;          /* the mask */
	db_outcome_t outcome;
	const char *reason;    /* classifier reason, or NULL */
	uint64_t cycles;       /* cycles the experiment simulated */
	bool early;            /* stopped early on re-joining the golden state */
	double wall;           /* seconds */
	int32_t worker;
	bool has_live_bits;    /* live sampling: the target's bits in use in the */
	uint64_t live_bits;    /* mask's SM at its cycle (what derates the AVF)  */
	/* issue 13, JSON objects or NULL (README, "Fault sites and effects") */
	const char *site;      /* where the (first) fault landed */
	const char *effect;    /* the first instruction that read it or overwrote it */
	const char *severity;  /* an SDC's size, output by output */
	/* issue 14 (schema 8): the first protection event, "corrected",
	 * "miscorrected", "detected" or "undetected" (NULL: none), its cycle */
	const char *prot;
	uint64_t prot_cycle;
} db_experiment_t;

/* Records that sequential campaign `campaign` stopped after its first n
 * experiments, for `reason` "margin" or "max" (db_progress_t.stop). 0, or
 * DB_EINVAL for another reason, DB_ENOTFOUND for no such campaign. */
int db_campaign_stopped(db_t *db, int64_t campaign, const char *reason, uint64_t n);

/* Where a campaign stands. AVF fields are NaN until done > 0; df and
 * avf_derated are NaN also when live sampling lacks kernel invocations. */
typedef struct {
	uint64_t n_masks;  /* planned (the campaign's n_masks) */
	uint64_t stored;   /* masks in the database */
	uint64_t done;     /* experiments */
	uint64_t masked, sdc, due;
	uint64_t early;    /* of done, stopped early */
	uint64_t unused;   /* of done, reason DB_REASON_UNUSED */
	uint64_t dead;     /* of done, reason DB_REASON_DEAD */
	double wall;       /* sum of experiment wall seconds */
	double avf, avf_lo, avf_hi; /* (sdc+due)/done and its Wilson interval; live
	                               sampling: the AVF of the bits in use (view avf) */
	double df, avf_derated;     /* see view avf */
	bool stratified;            /* the AVF is the stratified estimator (view avf) */
	uint32_t looks;             /* sequential stopping: its looks; 0 none */
	char stop[8];               /* why a sequential campaign stopped: "margin" (the
	                               interval was narrow enough), "max" (n reached the
	                               most), or "" (not stopped, or not sequential) */
	uint64_t stop_n;            /* the experiments it stopped at */
	uint32_t shard, nshards;    /* nshards > 0: this database runs only shard
	                               `shard` of nshards (schema 12), and n_masks
	                               is that share's size */
} db_progress_t;

/* A campaign as db_campaigns_list returns it. */
typedef struct {
	int64_t id;
	char *name, *workload, *gpu, *regs, *target, *sampling;
	char *config_hash, *tool_version, *created;
	uint64_t seed;
	double fit_per_bit, confidence;
	db_progress_t progress;
} db_campaign_info_t;

/* ---- opening ------------------------------------------------------------ */

/* Opens the results database at path into *out (caller closes with
 * db_close). create=true, for the writer: the file is created when missing
 * (its folder must exist), brought to the current schema, switched to WAL,
 * and must be writable now (a read-only or locked file, or one in a
 * read-only folder, fails here, not hours later). create=false, for
 * readers: the file must exist and is opened read-only, never written
 * (SQLite may create its -wal and -shm beside it); a file of an older schema
 * is read through a private temporary copy brought to the current schema;
 * in a folder where no -shm can be created and with no -wal, it is read as
 * an immutable file. Refused unread and untouched, both ways: a file that is
 * not a flipsim database (DB_ENOTDB), one written by a newer schema
 * (DB_ENEWER), and one with flipsim's application_id whose tables or views
 * are missing or broken (DB_ENOTDB, "a damaged flipsim database"). A writer
 * remembers which files it opened (db_check_file). Returns 0 or a DB_E* code
 * with the message in err (may be NULL). */
int db_open(const char *path, bool create, db_t **out, char *err, size_t errsz);

/* Whether the file at the writer's path, and its -wal and -shm, are still
 * the files it opened. Every write transaction checks this before it starts
 * and after it commits. When one was deleted, moved away or replaced, the
 * results committed so far live only in files that no path reaches: they are
 * copied to PATH.recovered-PID, the -wal and -shm names still this handle's
 * are removed (so that no later open applies this WAL to another file), the
 * file now at path is never touched, every later write fails, and the
 * message names the file, what happened and where the copy is. Returns 0
 * (always for a read-only handle) or DB_EMOVED. */
int db_check_file(db_t *db);

/* Closes the database; NULL is a no-op. */
void db_close(db_t *db);

/* The message of the last failure on db ("" after none); owned by db, valid
 * until the next call on it. */
const char *db_errmsg(const db_t *db);

/* Sets how long a statement waits for another process's lock before it
 * fails with DB_EBUSY (5000 ms by default). Returns 0 or DB_EINVAL. */
int db_set_busy_timeout(db_t *db, int ms);

/* The two-sided standard-normal quantile z of a confidence level c in (0,1):
 * P(|Z| <= z) = c (1.959964 for 0.95). NaN outside (0,1). */
double db_z_of_confidence(double c);

/* ---- writing (each call is one transaction) ----------------------------- */

/* Finds the campaign whose config_hash is c->config_hash, or inserts it.
 * Sets *id and *existed. An existing campaign with the same hash but another
 * config text is DB_ECONFLICT. A campaign stored under c->legacy_hash (the
 * identity an older flipsim gave the same definition) is adopted when none
 * has the new hash: its config and config_hash become c's, its results
 * stay, and *existed is set. Returns 0 or a DB_E* code. */
int db_campaign_get_or_create(db_t *db, const db_campaign_t *c, int64_t *id, bool *existed);

/* Stores the campaign's golden run. Storing it again is accepted when the
 * deterministic fields (everything but wall_seconds) agree, DB_ECONFLICT
 * otherwise; the first row is kept. Returns 0 or a DB_E* code. */
int db_golden_put(db_t *db, int64_t campaign, const db_golden_t *g);

/* Reads the golden run into *g. Returns 0, DB_ENOTFOUND, or a DB_E* code. */
int db_golden_get(db_t *db, int64_t campaign, db_golden_t *g);

/* Stores n kernel invocations; idempotent like db_golden_put (all fields
 * must agree). Store them before the masks, which refer to them. */
int db_kernels_put(db_t *db, int64_t campaign, const db_kernel_t *k, uint32_t n);

/* Stores n masks in one transaction, deriving each one's kernel from the
 * stored invocations (m[i].kernel is ignored). Idempotent: a mask already
 * stored with the same fields is skipped; one with other fields is
 * DB_ECONFLICT and nothing is stored. Returns 0 or a DB_E* code. */
int db_masks_put(db_t *db, int64_t campaign, const db_mask_t *m, uint64_t n);

/* The masks with no experiment yet, ordered by cycle then idx, into a new
 * array *out of *n entries (NULL when none). The extra strings live in the
 * same allocation: free(*out) releases everything. Returns 0 or a DB_E*. */
int db_masks_pending(db_t *db, int64_t campaign, db_mask_t **out, uint64_t *n);

/* Stores n experiments in one transaction, exactly once: an experiment whose
 * mask already has one is skipped. *inserted (may be NULL) receives how many
 * were new. An experiment without its mask is DB_EINVAL and nothing is
 * stored. Returns 0 or a DB_E* code. */
int db_experiments_put(db_t *db, int64_t campaign, const db_experiment_t *e, uint32_t n,
                       uint32_t *inserted);

/* ---- reading -------------------------------------------------------------- */

/* Fills *p with the campaign's progress. Returns 0, DB_ENOTFOUND or DB_E*. */
int db_progress(db_t *db, int64_t campaign, db_progress_t *p);

/* Every campaign, oldest first, with its progress: a new array *out of *n
 * entries (NULL when none), released with db_campaigns_free. */
int db_campaigns_list(db_t *db, db_campaign_info_t **out, size_t *n);

/* Frees an array from db_campaigns_list; NULL is a no-op. */
void db_campaigns_free(db_campaign_info_t *list, size_t n);

/* The newest campaign other than `id` named `name`: *other (0 when none)
 * and its creation time (ISO-8601 UTC) into created[0..n). Reads only.
 * Returns 0 or a DB_E* code. */
int db_campaign_namesake(db_t *db, const char *name, int64_t id, int64_t *other, char *created, size_t n);

/* ---- daemons (schema 3): who runs a campaign, and whether it still lives --
 * A `flipsim run` process records itself once (db_daemon_start), then beats
 * every `interval` seconds and names the campaign it works on
 * (db_daemon_beat), and records its end (db_daemon_end). A reader judges
 * from the newest row of a campaign whether it runs (eng status). Times are
 * Unix seconds. */
typedef struct {
	int64_t id;          /* row id (output) */
	int64_t pid;
	char host[256];
	double started;
	double heartbeat;    /* the last sign of life */
	double interval;     /* seconds between heartbeats, > 0 */
	int64_t campaign;    /* the campaign it works (or last worked) on, 0 for none */
	double rate;         /* experiments per second of that campaign in this run */
	bool ended;          /* it finished, was stopped or failed */
} db_daemon_t;

/* Records daemon d (d->id is ignored) as started and beating now; sets *id.
 * Returns 0 or a DB_E* code. */
int db_daemon_start(db_t *db, const db_daemon_t *d, int64_t *id);
/* A heartbeat of daemon `id` at time `now`, working on `campaign` (0: none)
 * at `rate` experiments per second. Returns 0 or a DB_E* code. */
int db_daemon_beat(db_t *db, int64_t id, int64_t campaign, double now, double rate);
/* Daemon `id` ended at time `now`. Returns 0 or a DB_E* code. */
int db_daemon_end(db_t *db, int64_t id, double now);
/* The daemon that last worked on `campaign` into *d. Reads only; a database
 * of schema 2 or older has none. Returns 0, DB_ENOTFOUND or a DB_E* code. */
int db_daemon_of(db_t *db, int64_t campaign, db_daemon_t *d);

/* ---- shards and merges (schema 12) ----------------------------------------
 * `flipsim run --shard I/N` runs the masks idx = I (mod N) of each campaign
 * into a database of its own, which records (campaign, I, N) with origin
 * "run"; its progress counts that share as the campaign's planned masks.
 * `flipsim merge` copies parts into one database (db_merge), recording
 * their shards with origin "merge". Times are Unix seconds. */
typedef struct {
	uint32_t shard, nshards;
	char origin[8];      /* "run": this database ran it; "merge": merged in */
	char source[1024];   /* merge: the part database (absolute path) */
	char host[256];      /* run: where it ran; merge: where it was merged */
	double updated;
	uint64_t planned;    /* its masks: idx = shard (mod nshards) below n_masks */
	uint64_t done;       /* of them, experiments stored here */
} db_shard_t;

/* How many of the masks 0..n-1 shard `shard` of nshards holds (n when
 * nshards is 0). */
uint64_t db_shard_size(uint64_t n, uint32_t shard, uint32_t nshards);

/* Records that this database runs shard `shard` of nshards of campaign
 * (on host, at now). Refused with DB_ECONFLICT when the campaign has
 * shards of another count here, runs another shard here, has shards
 * merged in, or holds experiments outside the share. Returns 0 or a DB_E*
 * code. */
int db_shard_claim(db_t *db, int64_t campaign, uint32_t shard, uint32_t nshards, const char *host, double now);

/* The shard rows of campaign, by shard: a new array *out of *n (NULL when
 * none), released with free(). Reads only. Returns 0 or a DB_E* code. */
int db_shards_list(db_t *db, int64_t campaign, db_shard_t **out, size_t *n);

typedef struct {
	uint64_t campaigns, new_campaigns;      /* in the part; of them new to the output */
	uint64_t experiments, new_experiments;  /* in the part; of them new */
	uint64_t new_masks;
	uint64_t shards;                        /* shard rows of the part */
} db_merge_stats_t;

/* Merges the database at path `part` into db (the writer's; merged on
 * host at now) in one write transaction: campaigns by config_hash (a
 * campaign of the same name and another definition or flipsim version is
 * refused), golden runs, kernel invocations and masks that must equal any
 * already there, experiments not already there (one already there must
 * have the same outcome), and the part's shard rows. Merging a part again
 * adds nothing. A part of another schema version, or db's own file, is
 * refused. On any failure db is left as it was. Returns 0 or a DB_E* code
 * (DB_ECONFLICT for a mismatch, DB_ENOTDB, DB_ENOTFOUND) with the message
 * in db_errmsg. */
int db_merge(db_t *db, const char *part, const char *host, double now, db_merge_stats_t *st);

/* ---- the campaign queue (schema 12) ----------------------------------------
 * `flipsim submit` adds campaign files; `flipsim daemon` takes the oldest
 * queued (or running: left by a daemon that died) entry, runs it and marks
 * it done or failed (queued again when a signal stopped it). Times are Unix
 * seconds. */
typedef struct {
	int64_t id;
	char file[4096];
	char name[256];
	char config_hash[64];
	char state[8];        /* queued, running, done, failed */
	double submitted, started, finished; /* NaN when not yet */
	int64_t campaign;     /* 0 until it ran */
	char message[512];
} db_queue_t;

/* Queues campaign file `file` (absolute) named `name` of identity hash;
 * *id is its entry. An entry of the same identity already queued or
 * running is not queued again (*dup, *id: that entry). Returns 0 or a DB_E*
 * code. */
int db_queue_add(db_t *db, const char *file, const char *name, const char *hash, double now, int64_t *id,
                 bool *dup);
/* The entry to run next into *q: the oldest running one (its daemon died:
 * resumed), else the oldest queued. Returns 0, DB_ENOTFOUND when none, or
 * a DB_E* code. */
int db_queue_next(db_t *db, db_queue_t *q);
/* Entry id's state (and campaign_id when campaign > 0, message when not
 * NULL); "running" sets started, "done" and "failed" finished. */
int db_queue_set(db_t *db, int64_t id, const char *state, int64_t campaign, const char *message, double now);
/* Every entry, oldest first: a new array *out of *n (NULL when none),
 * released with free(). Reads only. */
int db_queue_list(db_t *db, db_queue_t **out, size_t *n);

/* Prints the report to out: the avf view's whole-campaign rows, the
 * avf_kernel view (per kernel name), fit and mitf. DB_TEXT: aligned tables,
 * AVF in percent with its Wilson interval; DB_CSV: one header+rows block
 * per table (every column), blocks separated by a blank line; DB_JSON: one
 * object {"avf":[...], "avf_kernel":[...], "fit":[...], "mitf":[...]} of
 * row objects. Per-invocation rows stay in the avf view (SQL). Returns 0 or
 * a DB_E* code with the message in err (may be NULL). */
int db_report(db_t *db, int format, FILE *out, char *err, size_t errsz);

/* Prints the study (GUFI section VI) to out. DB_TEXT: outcome shares per
 * structure and application, AVF with intervals, FIT per structure and for
 * the GPU, IPC/FIT, and the per-kernel AVF breakdown, applications as rows;
 * DB_CSV and DB_JSON: the views study, study_gpu and study_kernel, as
 * db_report prints views. Returns 0 or a DB_E* code with the message in err
 * (may be NULL). */
int db_report_study(db_t *db, int format, FILE *out, char *err, size_t errsz);

/* Writes one CSV file per table into the folder dir (which must exist):
 * dir/<view>.csv, each with one header line (the view's columns) and its
 * rows, for the tables db_report prints (avf, protection_summary,
 * avf_kernel, fit, mitf, avf_insn, avf_vreg, sdc_severity; every one, even
 * with no rows) or, with study, those of db_report_study (study, study_gpu,
 * study_kernel). Returns 0 or a DB_E* code (DB_EIO: a file cannot be
 * written) with the message in err (may be NULL). */
int db_report_csv_dir(db_t *db, bool study, const char *dir, char *err, size_t errsz);

/* The report as figures (html.c): with html_path, one self-contained HTML
 * page (inline SVG and CSS, no script) holding every figure with its table
 * and the SQL it comes from; with svg_dir (an existing folder), each figure
 * as svg_dir/<name>.svg, the same <svg> element the page inlines (names:
 * db/README.md, "The HTML report"). name is the database's name as the
 * page's commands show it. The same database gives the same bytes.
 * Returns 0 or a DB_E* code (DB_EIO: a file cannot be written) with the
 * message in err (may be NULL). */
int db_report_html(db_t *db, const char *name, const char *html_path, const char *svg_dir, char *err,
                   size_t errsz);

/* A kernel name as people read it (demangle.c). A C++ (Itanium-mangled)
 * name is demangled into buf (n bytes, cut to fit): with full, the whole
 * signature, "VecAdd(float const*, float const*, float*, int)"; without, the
 * name and template arguments only, "VecAdd", for tables. Returns buf, or
 * `name` itself when it is not mangled or cannot be demangled. */
const char *db_demangle(const char *name, bool full, char *buf, size_t n);

#endif
