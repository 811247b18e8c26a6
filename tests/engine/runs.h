/* Shared by the engine's tests. For the runner tests (test_runner.c,
 * test_hostrun.c): load a campaign, its golden run and its masks sorted as
 * runners need them, and run them all, collecting one outcome per mask index.
 * For the tests that run build/flipsim as a user does (test_daemon.c,
 * test_golden.c): start it, wait for it, read and write the files around it.
 * Every helper asserts what it needs; a returned string is the caller's. */
#ifndef TESTS_ENGINE_RUNS_H
#define TESTS_ENGINE_RUNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "eng_int.h"

typedef struct got {
	eng_outcome_t *o; /* by mask index */
	uint64_t n, emitted;
} got_t;

typedef struct setup {
	camp_campaign_t *c;
	eng_golden_t g;
	eng_plan_t p;
	eng_exp_t *e;
	uint64_t ck;
	char dir[64]; /* a temporary folder holding the campaign file, or "" */
} setup_t;

/* An eng_runner_opts_t.emit for a got_t context: one outcome per mask. */
void runs_collect(const eng_outcome_t *o, void *ctx);
/* Loads campaign `path` into *s (asserting every step). */
void runs_setup(setup_t *s, const char *path);
/* Under $FLIPSIM_TEST_THIN=k (make asan sets it): keeps every k-th of
 * s's experiments in cycle order, renamed 0, 1, ..., so that a sweep
 * runs a k-th of its masks spread over the whole run. */
void runs_thin(setup_t *s);
/* Frees *s and removes s->dir with its campaign.json when set. */
void runs_teardown(setup_t *s);
/* Runs every mask of *s; the caller frees the result's o. */
got_t runs_run(setup_t *s, bool no_fork, bool no_early, bool no_dead);

/* ---- flipsim as a separate process ---- */

typedef struct spawn_opts {
	const char *err;   /* stderr into this file (NULL: inherited) */
	const char *out;   /* stdout into this file (NULL: /dev/null) */
	long fsize;        /* RLIMIT_FSIZE in bytes (0: none): a full disk */
	bool nobody;       /* as root, run as uid/gid 65534 (permissions apply) */
} spawn_opts_t;

/* $FLIPSIM, else build/flipsim. */
const char *runs_flipsim_path(void);
/* Starts flipsim with args (NULL-terminated, without the program); o may
 * be NULL. Returns its pid. */
pid_t runs_spawn(const char *const *args, const spawn_opts_t *o);
/* A waitpid status as a shell shows it: the exit status, 128+N for signal N. */
int runs_status(int wstatus);
/* Waits for pid; returns runs_status of it. */
int runs_wait(pid_t pid);
/* Runs flipsim to its end (runs_spawn, runs_wait); returns its exit status. */
int runs_flipsim(const char *const *args, const spawn_opts_t *o);
/* runs_flipsim with o->err set: *status its exit status. Returns what it
 * wrote to stderr. */
char *runs_flipsim_err(const char *const *args, const spawn_opts_t *o, int *status);

/* ---- files and time ---- */

/* The whole file at path, NUL-terminated ("" when it cannot be read). */
char *runs_slurp(const char *path);
/* Removes a database file and its -wal and -shm files. */
void runs_rm_db(const char *path);
/* Writes text to path, replacing it. */
void runs_put(const char *path, const char *text);
/* Writes the printf-formatted text to path, replacing it. */
void runs_writef(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* build/tests/NAME, the test host program beside FLIPSIM_TEST_HOST (make
 * unit sets it), checked to be there (a static buffer). */
const char *runs_test_host(const char *name);
/* Removes dir and everything below it. */
void runs_rm_dir(const char *dir);
/* A fresh folder $TMPDIR/flipsim-TAG-<six random characters> (TMPDIR:
 * /tmp when unset) into dir (asserting it could be made). */
void runs_tmpdir(char *dir, size_t n, const char *tag);
/* The same for a fresh empty file, its name into path, for the caller to
 * unlink. */
void runs_tmpfile(char *path, size_t n, const char *tag);
void runs_sleep_ms(long ms);
/* Waits up to timeout_ms for process pid to install a handler for sig
 * (Linux: /proc/PID/status); true once it has. A signal sent before would
 * kill the process silently, however long its start-up took. */
bool runs_wait_handler(pid_t pid, int sig, long timeout_ms);

#endif
