/* engine/ internals: the flipsim CLI's commands and their shared conventions.
 * Design: docs/DESIGN.md ("Principles": bad input exits 2).
 *
 *   exit status   meaning
 *   -----------   -------------------------------------------------------
 *   0             success
 *   1             internal failure (out of memory, an experiment that could
 *                 not be run after its worker was restarted)
 *   2             bad input: command line, JSON, PTX, unknown kernel or GPU,
 *                 launch configuration the GPU cannot hold; a results
 *                 database that cannot be used: not a flipsim database,
 *                 a newer schema, damaged, read-only, locked past the busy
 *                 timeout, a full disk or another I/O error, the file
 *                 deleted or replaced under a campaign (eng_db_status)
 *   3             the simulated program ended in a DUE (the run itself worked)
 *   128+N         flipsim run stopped by signal N (every stored result kept;
 *                 the same command resumes)
 *
 * Every message on stderr is one line starting "flipsim: "; a usage error
 * adds a second line, "try 'flipsim CMD --help'". */
#ifndef ENG_INT_H
#define ENG_INT_H

#include <stdio.h>

enum { ENG_EXIT_OK = 0, ENG_EXIT_INTERNAL = 1, ENG_EXIT_INPUT = 2, ENG_EXIT_DUE = 3 };

/* Errors inside the engine. Every fallible function below the commands
 * returns 0 or a negative ENG_E* code, its message in an err buffer or
 * already printed; only the eng_*_main functions (and the option parsers
 * and usage errors they call) deal in exit statuses, mapping a code with
 * eng_exit_status. Codes are ordered as their statuses: of two failures
 * the lower code is the worse one.
 *
 *   code           exit status         meaning
 *   -------------  ------------------  ---------------------------------- */
#define ENG_ERRNO_MAP(X)                                                                   \
	X(EINTERNAL, -1, ENG_EXIT_INTERNAL, "internal failure")                                \
	X(EINPUT, -2, ENG_EXIT_INPUT, "bad input")                                             \
	X(EDUE, -3, ENG_EXIT_DUE, "the simulated program ended in a DUE")

#define ENG_ERRNO_ENUM(name, code, status, msg) ENG_##name = code,
enum { ENG_ERRNO_MAP(ENG_ERRNO_ENUM) };
#undef ENG_ERRNO_ENUM

/* The exit status of error code e (0: ENG_EXIT_OK; an unknown code:
 * ENG_EXIT_INTERNAL). */
int eng_exit_status(int e);
/* What error code e means, as a static string. */
const char *eng_strerror(int e);

/* Prints "flipsim: <message>" on stderr. */
void eng_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The error code for a failure db_err (a DB_E* code) of the results
 * database: ENG_EINTERNAL for out of memory and flipsim's own bugs,
 * ENG_EINPUT for everything about the file and the disk it is on; 0 for 0. */
int eng_db_err(int db_err);
/* eng_exit_status(eng_db_err(db_err)), for the *_main functions. */
int eng_db_status(int db_err);

/* Reports a usage error of command `cmd` (NULL for the top level) and
 * returns ENG_EXIT_INPUT. */
int eng_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- golden run (golden.c) ---- */
#include "campaigns.h"

/* A host program's stdout or stderr in its golden run: a file of the golden
 * run's own folder (never held in memory), its size and FNV-1a digest.
 * Experiments' outputs are compared with it as streams (hostrun.c). */
typedef struct eng_text {
	char path[4200];
	uint64_t len;
	uint64_t fnv;
} eng_text_t;

/* The limits of a golden run: wall-clock seconds and GPU cycles (0: none
 * of that kind). Beyond either the run is refused as bad input. */
typedef struct eng_limits {
	double seconds;
	uint64_t cycles;
} eng_limits_t;

/* A fault-free run: what experiments are compared against. */
typedef struct eng_golden {
	sc_gpu_config_t cfg;
	camp_result_t *res;          /* outputs (JSON workloads; NULL for a host program) */
	eng_text_t out, err;         /* a host program's stdout and stderr (files in dir), */
	int exit_status;             /* its exit status                                    */
	char dir[4096];              /* host program: the folder holding out and err ("" none) */
	uint64_t digest;             /* host program: eng_output_digest, streamed */
	sc_gpu_stats_t totals;
	uint64_t cycles;             /* GPU clock at the end */
	uint32_t nlaunch;
	sc_launch_stats_t *launch;   /* per kernel invocation */
	sc_rt_ckpts_t ck;            /* state hashes every ck.interval cycles (0: none) */
	double wall;                 /* host seconds */
	void *map;                   /* a worker's: the golden record res, ck and out/err */
	size_t map_len;              /* point into (eng_golden_open); NULL when g owns them */
} eng_golden_t;

/* Runs w fault-free on a fresh GPU, hashing the state every ck_interval
 * cycles. Returns 0, or an error code with the message in err
 * (ENG_EDUE when the fault-free run itself ends in a DUE). Free with
 * eng_golden_free whatever it returns. */
int eng_golden_run(const camp_workload_t *w, const sc_gpu_config_t *cfg, uint64_t ck_interval, eng_golden_t *g,
                   char *err, size_t errsz);
/* The same on a GPU created with `opt` (NULL: the defaults, ptx mode); the
 * register mode (opt->regs) decides how the workload's module is lowered.
 * lim (NULL: none) bounds the run: past lim->cycles, or lim->seconds of
 * wall clock (checked only when ck_interval is 0: the pause point serves
 * the checkpoints otherwise), it fails with ENG_EINPUT naming the
 * kernel that was running. */
int eng_golden_run_opt(const camp_workload_t *w, const sc_gpu_config_t *cfg, const sc_options_t *opt,
                       const eng_limits_t *lim, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz);
void eng_golden_free(eng_golden_t *g);
/* The GPU options campaign c asks for (its register mode and protection). */
sc_options_t eng_options(const camp_campaign_t *c);
/* The campaign register mode of a simulator one (the inverse of eng_options). */
camp_regs_t eng_camp_regs(sc_regs_t regs);
/* The golden-run limits campaign c sets (golden_watchdog_seconds, golden_cycle_budget). */
eng_limits_t eng_limits(const camp_campaign_t *c);
/* The golden run of campaign c's workload, JSON or host program:
 * eng_driver_for(c)->golden (driver.c). */
int eng_golden_campaign(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz);
double eng_df_reg(const sc_gpu_config_t *c, const sc_launch_stats_t *l);
/* GUFI's average warp occupancy of g at the limit and resident (golden.c). */
void eng_warp_occupancy(const eng_golden_t *g, double *limit, double *resident);
double eng_df_smem(const sc_gpu_config_t *c, const sc_launch_stats_t *l);
/* FNV-1a of g's outputs: the buffers in order (JSON), or stdout, stderr
 * and the exit status (host program). */
uint64_t eng_output_digest(const eng_golden_t *g);
/* The text stored as the golden run's output digest (at most n - 1 < 129
 * characters): eng_output_digest in 16 hex digits, then "/" and the low 32
 * bits of each part's own digest in 8 hex digits (the first 12 outputs;
 * host programs: stdout, stderr, then the exit status in decimal), so that
 * a resume can say which part changed. */
void eng_output_digest_text(const eng_golden_t *g, char *buf, size_t n);
/* Compares g with a stored golden run (its digest text, as above or only the
 * 16 hex digits of older databases, and its cycles): returns 0 when they
 * agree, else 1 with what differs in what ("stdout, cycles 1200 (stored
 * 1100)"). w: the JSON workload (names its outputs), NULL for a host program. */
int eng_golden_differs(const eng_golden_t *g, const camp_workload_t *w, const char *stored_digest,
                       uint64_t stored_cycles, char *what, size_t n);
double eng_now(void);

/* ---- the golden record (record.c) ---- */
/* Writes what workers need of golden run g of campaign c (checkpoints,
 * outputs or the host program's output files, cycles) into a new anonymous
 * file: *fd, close-on-exec, read from offset 0. Returns 0 or an error
 * code with err. */
int eng_golden_share(const eng_golden_t *g, const camp_campaign_t *c, int *fd, char *err, size_t errsz);
/* A worker's golden run: the record on fd (eng_golden_share) of campaign c
 * with checkpoints every `interval` cycles, mapped read-only into g (the
 * fd may be closed after). A record of another campaign, version or
 * interval is refused. Returns 0 or an error code with err; free g with
 * eng_golden_free either way. */
int eng_golden_open(int fd, const camp_campaign_t *c, uint64_t interval, eng_golden_t *g, char *err, size_t errsz);
/* eng_golden_free of a mapped g. */
void eng_golden_unmap(eng_golden_t *g);

/* ---- flipsim profile (profile.c) ---- */
int eng_profile_main(int argc, char **argv);
void eng_profile_help(FILE *out);

/* ---- ptxas -v (ptxas.c) ---- */
typedef struct eng_ptxas {   /* registers ptxas uses per kernel (.entry) */
	uint32_t n;
	char **kernel;
	uint32_t *regs;
} eng_ptxas_t;

/* Path of ptxas: $FLIPSIM_PTXAS when set (empty: none), else the first on
 * PATH, else /usr/local/cuda/bin/ptxas; written to buf. NULL when none is
 * executable. */
const char *eng_ptxas_find(char *buf, size_t n);
/* Runs `ptxas -v -arch=sm_NN PTX -o /dev/null` (sm_NN from the file's
 * .target) and collects "Used N registers" per entry. Returns 0, or -1
 * when ptxas cannot run or fails. Free with eng_ptxas_free. */
int eng_ptxas_run(const char *ptxas, const char *ptx, eng_ptxas_t *out);
void eng_ptxas_free(eng_ptxas_t *p);
/* ptxas's register count for kernel, or -1 when it reported none. */
int eng_ptxas_regs(const eng_ptxas_t *p, const char *kernel);

/* ---- fork-at-cycle runner (runner.c) ---- */
#include "masks.h"
#include "parser.h"

typedef sc_rt_exp_t eng_exp_t;  /* one experiment: a stored mask */
_Static_assert(MASK_MAX_FAULTS == SC_RT_MAX_FAULTS, "a mask's faults fit an experiment");

typedef struct eng_outcome {
	uint64_t idx;
	cls_outcome_t outcome;
	char reason[96];
	uint64_t cycles;            /* cycles the experiment simulated */
	bool early;
	double wall;                /* host seconds */
	bool has_live_bits;         /* live sampling: bits of the target in use in */
	uint64_t live_bits;         /* the fault's SM at its cycle (derating)      */
	bool lost;                  /* not an outcome: the experiment was killed from
	                               outside (eng_outcome_of); it must run again */
	/* issue 13: compact JSON objects without blanks, "" when none */
	char site[SC_RT_JSON];      /* where the (first) fault landed */
	char effect[SC_RT_JSON];    /* what it met first: read or overwritten */
	char severity[SC_RT_JSON];  /* an SDC's size, output by output */
	/* issue 14: the first protection event (sc_prot_first) and its cycle */
	sc_prot_t prot;
	uint64_t prot_cycle;
} eng_outcome_t;

typedef struct eng_runner_opts {
	const camp_campaign_t *campaign;
	const eng_golden_t *golden; /* the campaign's golden run (the daemon's record);
	                               NULL: the runner runs it itself */
	uint64_t ck_interval;       /* golden checkpoints for early termination */
	bool no_fork;               /* re-simulate from cycle 0 per experiment */
	bool no_early;              /* never stop early */
	bool no_dead;               /* simulate faults in dead values too */
	bool no_attr;               /* no fault sites nor effects (sc_rt_plan_t no_attr) */
	void (*emit)(const eng_outcome_t *o, void *ctx);
	void *ctx;
} eng_runner_opts_t;

/* ---- planning (plan.c) ---- */
typedef struct eng_plan {
	mask_interval_t *busy;       /* the sampled kernel invocations */
	uint32_t nbusy;
	int32_t kernel_launch;       /* mode 1: the launch index; else -1 */
	uint64_t busy_cycles;
	mask_space_t space;
	mask_model_t model;
	uint64_t n;                  /* injections (with "stop": the most) */
	/* "strata": "kernel": one stratum per kernel name with busy cycles, in
	 * the order of their first launch; mask i is drawn from stratum
	 * mask_stratum(i, nstrata), its cycle uniform over that kernel's
	 * invocations (space of each stratum: strata[h], intervals in sbusy).
	 * nstrata is 0 without strata. */
	uint32_t nstrata;
	mask_space_t *strata;
	mask_interval_t *sbusy;
} eng_plan_t;

/* The sampled space and sample size of campaign c given its golden run.
 * Returns 0 or an error code with err. */
int eng_plan_space(const camp_campaign_t *c, const eng_golden_t *g, eng_plan_t *p, char *err, size_t errsz);
void eng_plan_free(eng_plan_t *p);
/* What campaign c's fault model does to the words it hits (the runtime's
 * part of it; plan->model is the masks' part). */
void eng_fault_model(const camp_campaign_t *c, sc_fmodel_t *m);
/* Experiment `index` of the campaign (its mask). 0 or -1. */
int eng_plan_mask(const eng_plan_t *p, uint64_t seed, uint64_t index, eng_exp_t *e);
/* Sorts by first activation cycle, then index (the order runners need). */
void eng_exps_sort(eng_exp_t *e, uint64_t n);

/* Runs experiments (sorted by first activation cycle) and emits one outcome
 * each, in no particular order: eng_driver_for(o->campaign)->run
 * (driver.c). Returns 0 or an error code with err. */
int eng_runner(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz);
/* The runtime's plan for these experiments of o->campaign (runner.c). */
void eng_rt_plan(const eng_runner_opts_t *o, const eng_golden_t *g, const eng_exp_t *exps, uint64_t nexp,
                 sc_rt_plan_t *p);
/* What a raw result means: the outcome, against golden. An experiment
 * ended by SIGKILL, SIGTERM, SIGINT, SIGHUP or SIGQUIT before it reported was
 * stopped from outside (a user, the OOM killer, a terminal): that is no
 * outcome of its fault, and out->lost is set instead. faulty, when not
 * NULL, holds the experiment's outputs (host programs: stdout, stderr); it
 * is completed with the status, signal and exit status of r. */
void eng_outcome_of(const sc_rt_result_t *r, const cls_run_t *golden, cls_run_t *faulty, eng_outcome_t *out);

/* ---- workload drivers (driver.c; runner.c, hostrun.c) ----
 * A campaign's workload is a JSON workload (c->workload: the simulator runs
 * in this process, runner.c) or a host program (c->exec: the program runs
 * with its own libsimcore, hostrun.c). Which one is decided in one place,
 * eng_driver_for; everything that differs by kind is a member here, so no
 * caller tests c->exec or c->workload to choose what to do:
 *
 *   member    JSON workload (eng_driver_json)     host program (eng_driver_exec)
 *   --------  ----------------------------------  --------------------------------
 *   kind      "json"                              "exec"
 *   outputs   true: golden record holds buffers   false: stdout/stderr files
 *   name      the workload's "name"               the program's base name
 *   golden    eng_golden_run_opt in this process  the program in golden mode
 *   run       replay here, fork per experiment    the program replays and forks
 *
 * golden and run return 0 or an error code with the message in err, as
 * eng_golden_run and eng_runner do. The drivers are constant objects;
 * eng_driver_for never fails (a loaded campaign has exactly one kind). */
typedef struct eng_driver {
	const char *kind;
	bool outputs;  /* the golden run's outputs are buffers (g->res), in the golden record */
	/* The workload's name as stored with the campaign. */
	const char *(*name)(const camp_campaign_t *c);
	/* The golden run of c, checkpoints every ck_interval cycles (0: none). */
	int (*golden)(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz);
	/* The experiments of o->campaign (eng_runner). */
	int (*run)(const eng_runner_opts_t *o, const eng_exp_t *exps, uint64_t nexp, char *err, size_t errsz);
} eng_driver_t;

extern const eng_driver_t eng_driver_json; /* runner.c */
extern const eng_driver_t eng_driver_exec; /* hostrun.c */
/* The driver of campaign c's workload kind. */
const eng_driver_t *eng_driver_for(const camp_campaign_t *c);

/* ---- host programs as workloads (hostrun.c) ---- */
/* The golden run of campaign c's host program (c->exec): eng_driver_exec's
 * golden, also used by `flipsim profile PROGRAM`. */
int eng_golden_exec(const camp_campaign_t *c, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz);
/* The program of `profile PROGRAM [ARG...]` and `exec PROGRAM [ARG...]`
 * into *x: argv[0] resolved to an absolute path, the arguments borrowed,
 * the current folder. Returns 0, ENG_EINPUT (not an executable file: the
 * message printed) or ENG_EINTERNAL. Free with eng_exec_args_free, whatever
 * it returned. */
int eng_exec_args(camp_exec_t *x, int argc, char **argv);
void eng_exec_args_free(camp_exec_t *x);

/* ---- commands (run.c, worker.c, query.c) ---- */
int eng_run_main(int argc, char **argv);
void eng_run_help(FILE *out);
int eng_worker_main(int argc, char **argv);
void eng_worker_help(FILE *out);
int eng_status_main(int argc, char **argv);
void eng_status_help(FILE *out);
/* flipsim submit, daemon and stop (daemon.c) */
int eng_submit_main(int argc, char **argv);
void eng_submit_help(FILE *out);
int eng_daemon_main(int argc, char **argv);
void eng_daemon_help(FILE *out);
int eng_stop_main(int argc, char **argv);
void eng_stop_help(FILE *out);
/* One campaign file run as `flipsim run FILE --db db_path -j jobs [flags]`
 * would, into the open db, beating in the daemons-table row daemon_row;
 * without quiet the report follows. Returns 0 or the campaign's error code;
 * *campaign: its database id (0 when it failed before it was stored);
 * *interrupted: the signal that stopped it; *db_broken: the database failed. */
typedef struct {
	const char *db_path;
	int jobs;
	bool no_fork, no_early, no_attr, quiet;
	int64_t daemon_row;
} eng_run_one_t;
struct db;
int eng_run_one(const eng_run_one_t *x, struct db *db, const char *file, int64_t *campaign, int *interrupted,
                bool *db_broken);
/* This process in the daemons table (status reads it); 0 when it cannot be
 * written. */
int64_t eng_daemon_register(struct db *db);
/* Whether a daemon holds db's lock (daemon.c; R.db.daemon), with its pid
 * and host. Takes and drops a shared lock on that file: never blocks. */
bool eng_daemon_holder(const char *db, long *pid, char *host, size_t n);
/* flipsim merge (merge.c) */
int eng_merge_main(int argc, char **argv);
void eng_merge_help(FILE *out);
/* The most shards --shard I/N accepts. */
#define ENG_MAX_SHARDS 100000
/* "I/N" with 0 <= I < N <= ENG_MAX_SHARDS into *shard, *nshards. Returns 0,
 * or -1 for anything else. */
int eng_parse_shard(const char *s, uint32_t *shard, uint32_t *nshards);
int eng_report_main(int argc, char **argv);
void eng_report_help(FILE *out);
int eng_sample_size_main(int argc, char **argv);
void eng_sample_size_help(FILE *out);
/* Golden checkpoint spacing for a run of this many cycles. */
uint64_t eng_ck_interval(uint64_t golden_cycles);

/* ---- workers of flipsim run (run.c) ---- */
/* -j without a number: one worker per CPU this process may use, at most
 * this many; -j N accepts up to ENG_MAX_WORKERS. */
#define ENG_DEFAULT_MAX_WORKERS 64
#define ENG_MAX_WORKERS 1024
/* The CPUs this process may run on: its affinity mask (taskset, Slurm,
 * cpusets), lowered to the cgroup v2 quota (cpu.max, containers), >= 1. */
int eng_available_cpus(void);
/* The default number of workers given that many available CPUs:
 * 1..ENG_DEFAULT_MAX_WORKERS. */
int eng_default_workers(int ncpu_available);
/* -j's value: 1..ENG_MAX_WORKERS into *jobs and 0, else -1. */
int eng_parse_workers(const char *s, int *jobs);
/* CPUs a cgroup v2 cpu.max text ("QUOTA PERIOD" or "max PERIOD") allows,
 * rounded up; 0 for no limit or text it cannot read. */
int eng_cpu_max_cpus(const char *text);

/* ---- progress and status (progress.c) ---- */
#include "db.h"

/* Seconds as "h:mm:ss" ("-" when unknown: NaN, negative or absurd) in buf. */
const char *eng_hms(double s, char *buf, size_t n);
/* Unix seconds as ISO-8601 UTC, "2026-11-20T08:15:00Z", in buf. */
const char *eng_iso_time(double unix_s, char *buf, size_t n);
/* Unix seconds now (eng_now is a monotonic clock). */
double eng_wall_clock(void);
/* The width of the terminal on fd, 80 when it says none. */
int eng_term_width(int fd);

typedef struct eng_progress {
	const char *name;            /* the campaign */
	int index, count;            /* campaign index+1 of count in this run */
	uint64_t done, total;
	double rate;                 /* experiments per second in this run */
	double eta, eta_all;         /* seconds left: campaign, whole run (NaN unknown) */
	uint64_t masked, sdc, due;
	double avf, avf_lo, avf_hi;  /* NaN before any experiment */
} eng_progress_t;

/* The terminal progress line, no newline, at most width-1 characters: the
 * least useful fields (name, counts, ...) are left out until it fits, so
 * that 
 redraws it in place. Returns buf. */
char *eng_progress_line(const eng_progress_t *p, int width, char *buf, size_t n);
/* The log line for a stderr that is no terminal: ISO-8601 time of `now`
 * (Unix seconds), then every field. Returns buf. */
char *eng_progress_log(const eng_progress_t *p, double now, char *buf, size_t n);

typedef enum { ENG_STOPPED, ENG_RUNNING, ENG_FINISHED } eng_state_t;
/* A daemon is gone after this many heartbeat intervals without one. */
#define ENG_STALE_BEATS 3
/* finished: every mask has its experiment; running: daemon d (the last to
 * work on the campaign; NULL for none) has not ended, beat within
 * ENG_STALE_BEATS intervals before `now`, and, when it ran on `host` (this
 * machine), alive(pid) holds; stopped otherwise. */
eng_state_t eng_campaign_state(const db_progress_t *p, const db_daemon_t *d, double now, const char *host,
                               bool (*alive)(int64_t pid));
const char *eng_state_name(eng_state_t s);
/* Whether process pid exists on this machine. */
bool eng_pid_alive(int64_t pid);

/* `flipsim exec`: argv[0] is "exec". Returns the exit status. */
int eng_exec_main(int argc, char **argv);
void eng_exec_help(FILE *out);

#endif
