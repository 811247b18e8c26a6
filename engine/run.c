/* `flipsim run`: the campaign daemon (DESIGN.md "Data flow"). For each
 * campaign: the golden run and plan; campaign, golden run, kernel
 * invocations and every mask stored before any experiment; then N worker
 * processes (worker.c) keep the experiments going while this process,
 * the only writer of the database, commits their outcomes in one
 * transaction per tick of a single timer that also redraws progress (the
 * serverCron of STYLE.md), and beats in the daemons table every
 * HEARTBEAT_S for `flipsim status`. Ctrl-C / SIGTERM / SIGHUP stop
 * gracefully; running the same command again resumes with the experiments
 * still missing. A worker
 * that dies is restarted for the experiments of its slot it has not
 * reported (restart()); a commit that fails stops the campaign (halt()),
 * every earlier commit kept. libuv owns processes, pipes, the timer and
 * signals here; workers use fork(). Guarantees: README, "What flipsim
 * guarantees". */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "db.h"
#include "eng_int.h"

#define TICK_MS 200
#define LOG_EVERY_S 60.0
/* The daemon's row in the daemons table is refreshed this often: `flipsim
 * status` calls a campaign stopped after ENG_STALE_BEATS intervals
 * without one (or at once when the pid is gone on this host). */
#define HEARTBEAT_S 10.0
/* A worker that dies by a signal (killed, crashed, stopped by the watchdog)
 * or leaves experiments unreported is started again for its unfinished
 * ones, unless this many in a row of its slot died without an outcome. */
#define MAX_STRIKES 3

typedef struct worker {
	struct daemon *d;
	int id;
	uv_process_t proc;
	uv_pipe_t in, out;
	uv_write_t wreq;
	char *input;             /* experiment lines sent on stdin */
	char line[2048];
	size_t len;
	int open_handles;
	double last_heard;       /* when it last sent an outcome (or started) */
	uint64_t reported;       /* outcomes since this process started */
	int strikes;             /* processes of this slot in a row that died without an outcome */
	bool exited, killed;
	int64_t status;
	int term_signal;
} worker_t;

typedef struct daemon {
	uv_loop_t *loop;
	uv_timer_t tick;
	uv_signal_t sigint, sigterm, sighup;
	db_t *db;
	int64_t campaign;
	const char *campaign_path, *name;
	int index, count;         /* this campaign of the run's */
	uint64_t later;           /* experiments left in the run's later campaigns (estimate) */
	int64_t daemon_row;       /* in the daemons table, 0 when it could not be written */
	double last_beat;
	const eng_plan_t *plan;   /* the masks, to write a worker's experiment lines */
	uint64_t seed;
	const db_mask_t *pend;    /* the experiments to run, in cycle order: */
	uint64_t npend;           /* pend[i] belongs to worker slot i % nworkers */
	uint8_t *got;             /* bit idx: an outcome of mask idx arrived */
	uint64_t ck;              /* checkpoint interval (0 with --no-early) */
	int golden_fd;            /* the golden record (record.c), -1: none */
	bool no_fork, no_early, no_attr, quiet, tty;
	int nworkers, running;
	worker_t *w;              /* nworkers of them */
	db_experiment_t *queue;   /* outcomes waiting for the next commit */
	char **reasons;
	uint32_t nqueue, capqueue;
	bool stopping, failed;
	bool halting;            /* no more outcomes, commits or workers wanted */
	int db_err;              /* a commit failed (DB_E*): the campaign stops */
	int stop_signal;
	uint64_t total, done_at_start, done;
	uint64_t fresh;           /* experiments this process stored */
	uint64_t stored[3];      /* committed outcomes by class (masked, sdc, due):
	                          * counted here, not queried each tick, so that
	                          * progress stays cheap on million-mask campaigns */
	double confidence;
	bool avf_of_view;        /* stratified or sequential: the pooled Wilson interval of
	                          * the counts is not the campaign's; the view's is shown
	                          * at the end (reading it each redraw would cost too much) */
	double watchdog;         /* seconds a worker may stay silent */
	double t0, last_log;
	char err[1024];
} daemon_t;

static char exe[4096];

/* ---------------------------------------------------------------- results */
/* Stops every worker (SIGTERM; their experiment children die with them)
 * and starts no other. */
static void halt(daemon_t *d)
{
	d->halting = true;
	for (int i = 0; i < d->nworkers; i++)
		if (d->w[i].open_handles && !d->w[i].exited)
			uv_process_kill(&d->w[i].proc, SIGTERM);
}

static int commit(daemon_t *d)
{
	if (!d->nqueue)
		return 0;
	uint32_t inserted = 0;
	int rc = db_experiments_put(d->db, d->campaign, d->queue, d->nqueue, &inserted);
	if (!rc) {
		d->fresh += inserted;
		for (uint32_t i = 0; i < d->nqueue; i++)
			d->stored[d->queue[i].outcome]++;
	}
	for (uint32_t i = 0; i < d->nqueue; i++)
		free(d->reasons[i]);
	d->nqueue = 0;
	if (rc) {
		/* Every earlier commit stands (each batch is one transaction); this
		 * batch's experiments stay pending. Going on would only run
		 * experiments whose outcomes cannot be kept. */
		eng_errorf("cannot store results: %s", db_errmsg(d->db));
		d->db_err = rc;
		halt(d);
		return rc;
	}
	return 0;
}

static void queue_line(daemon_t *d, worker_t *w, char *s)
{
	/* R idx outcome cycles early wall live_bits prot prot_cycle reason\tsite\teffect\tseverity */
	char *q, pname[16] = "";
	int plen = 0;
	sc_prot_t prot = SC_PROT_NONE;
	if (s[0] != 'R' || s[1] != ' ')
		return;
	uint64_t idx = strtoull(s + 2, &q, 10);
	long outcome = strtol(q, &q, 10);
	uint64_t cycles = strtoull(q, &q, 10);
	long early = strtol(q, &q, 10);
	double wall = strtod(q, &q);
	long long live = strtoll(q, &q, 10);
	if (sscanf(q, " %15s%n", pname, &plen) != 1 || sc_prot_parse(pname, &prot))
		return;
	uint64_t prot_cycle = strtoull(q + plen, &q, 10);
	while (*q == ' ')
		q++;
	if (outcome < 0 || outcome > 2 || idx >= d->plan->n || d->db_err)
		return;
	/* an experiment counts once, whichever process reports it */
	if (d->got[idx / 8] & (1u << (idx % 8)))
		return;
	if (d->nqueue == d->capqueue) {
		uint32_t cap = d->capqueue ? d->capqueue * 2 : 256;
		db_experiment_t *nq = realloc(d->queue, cap * sizeof *nq);
		if (nq)
			d->queue = nq;
		char **nr = nq ? realloc(d->reasons, cap * sizeof *nr) : NULL;
		if (nr)
			d->reasons = nr;
		if (!nq || !nr) {
			d->failed = true; /* the outcome stays pending for a re-run */
			return;
		}
		d->capqueue = cap;
	}
	/* the rest: reason, then tab-separated the site, effect and severity */
	char *reason = strdup(q), *part[3] = {NULL, NULL, NULL};
	if (!reason) {
		d->failed = true;
		return;
	}
	char *t = reason;
	for (int k = 0; k < 3 && (t = strchr(t, '\t')); k++) {
		*t++ = 0;
		part[k] = *t && *t != '\t' ? t : NULL;
	}
	for (int k = 0; k < 3; k++)
		if (part[k] && (t = strchr(part[k], '\t')))
			*t = 0;
	d->reasons[d->nqueue] = reason;
	d->got[idx / 8] |= (uint8_t)(1u << (idx % 8));
	w->reported++;
	w->last_heard = eng_now();
	d->queue[d->nqueue++] = (db_experiment_t){.idx = idx, .outcome = (db_outcome_t)outcome, .reason = reason,
	                                          .cycles = cycles, .early = early != 0, .wall = wall, .worker = w->id,
	                                          .has_live_bits = live >= 0, .live_bits = live >= 0 ? (uint64_t)live : 0,
	                                          .site = part[0], .effect = part[1], .severity = part[2],
	                                          .prot = prot == SC_PROT_NONE ? NULL : sc_prot_name(prot),
	                                          .prot_cycle = prot_cycle};
	d->done++;
}

/* ---------------------------------------------------------------- progress */
/* On a terminal one line redrawn in place (\r, clear to end of line),
 * fitted to the terminal's width, read again at every redraw so that a
 * resized window is followed; otherwise a timestamped line every
 * LOG_EVERY_S seconds (progress.c). */
static void progress(daemon_t *d, bool final)
{
	double now = eng_now(), el = now - d->t0;
	if (d->quiet)
		return;
	if (!d->tty && !final && now - d->last_log < LOG_EVERY_S)
		return;
	d->last_log = now;
	uint64_t done = d->stored[0] + d->stored[1] + d->stored[2], fail = d->stored[1] + d->stored[2];
	uint64_t run_now = done - (d->done_at_start < done ? d->done_at_start : done);
	double rate = el > 0 ? run_now / el : 0;
	eng_progress_t p = {.name = d->name, .index = d->index, .count = d->count, .done = done, .total = d->total,
	                    .rate = rate, .eta = rate > 0 ? (double)(d->total - done) / rate : NAN,
	                    .eta_all = rate > 0 ? (double)(d->total - done + d->later) / rate : NAN,
	                    .masked = d->stored[0], .sdc = d->stored[1], .due = d->stored[2], .avf = NAN};
	db_progress_t v;
	if (d->avf_of_view) {
		if (final && !db_progress(d->db, d->campaign, &v)) {
			p.avf = v.avf;
			p.avf_lo = v.avf_lo;
			p.avf_hi = v.avf_hi;
		}
	} else if (done) {
		p.avf = (double)fail / done;
		mask_wilson(fail, done, d->confidence, &p.avf_lo, &p.avf_hi);
	}
	char line[512];
	if (d->tty)
		fprintf(stderr, "\r\033[K%s%s", eng_progress_line(&p, eng_term_width(2), line, sizeof line),
		        final ? "\n" : "");
	else
		fprintf(stderr, "%s\n", eng_progress_log(&p, eng_wall_clock(), line, sizeof line));
	fflush(stderr);
}

/* The daemon's sign of life for `flipsim status`, with the campaign it
 * works on and its rate. A failure is not the campaign's: it is ignored
 * (status then calls the campaign stopped once the beat is stale). */
static void heartbeat(daemon_t *d)
{
	double now = eng_now(), el = now - d->t0;
	if (!d->daemon_row)
		return;
	uint64_t done = d->stored[0] + d->stored[1] + d->stored[2];
	uint64_t run_now = done - (d->done_at_start < done ? d->done_at_start : done);
	d->last_beat = now;
	db_daemon_beat(d->db, d->daemon_row, d->campaign, eng_wall_clock(), el > 0 ? run_now / el : 0);
}

/* ---------------------------------------------------------------- workers */
static void maybe_finish(daemon_t *d)
{
	if (d->running > 0)
		return;
	uv_timer_stop(&d->tick);
	uv_close((uv_handle_t *)&d->tick, NULL);
	uv_signal_stop(&d->sigint);
	uv_signal_stop(&d->sigterm);
	uv_signal_stop(&d->sighup);
	uv_close((uv_handle_t *)&d->sigint, NULL);
	uv_close((uv_handle_t *)&d->sigterm, NULL);
	uv_close((uv_handle_t *)&d->sighup, NULL);
}

static int spawn_worker(daemon_t *d, worker_t *w, char *input, size_t len);
static int append(char **buf, size_t *len, size_t *cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The experiment lines (format in worker.c) of slot k's experiments that
 * have no outcome yet: *n of them, in a new buffer *buf of *len bytes.
 * Returns 0, or -1 out of memory. */
static int slot_input(const daemon_t *d, int k, char **buf, size_t *len, uint64_t *n)
{
	size_t cap = 4096;
	*len = 0;
	*n = 0;
	if (!(*buf = malloc(cap)))
		return -1;
	for (uint64_t i = (uint64_t)k; i < d->npend; i += (uint64_t)d->nworkers) {
		uint64_t idx = d->pend[i].idx;
		if (d->got[idx / 8] & (1u << (idx % 8)))
			continue;
		eng_exp_t e;
		eng_plan_mask(d->plan, d->seed, idx, &e);
		int bad = append(buf, len, &cap, "%" PRIu64 " %u", e.idx, e.nfaults);
		for (uint32_t f = 0; f < e.nfaults; f++)
			bad |= append(buf, len, &cap, " %" PRIu64 " %u %" PRIu64 " %u %" PRIu64, e.f[f].cycle, e.f[f].sm,
			              e.f[f].loc, e.f[f].nbits, e.f[f].pattern);
		bad |= append(buf, len, &cap, "\n");
		if (bad) {
			free(*buf);
			*buf = NULL;
			return -1;
		}
		(*n)++;
	}
	return 0;
}

/* A worker is gone, its pipes closed (every line it sent was read). When
 * it died by a signal (killed, crashed, stopped by the watchdog) or ended
 * with experiments unreported (children killed from outside), another
 * process takes over the experiments of its slot that have no outcome:
 * nothing it did not report is recorded, nothing is lost or run twice. */
static void restart(daemon_t *d, worker_t *w)
{
	if (d->halting || d->failed || (w->term_signal == 0 && w->status != 0))
		return; /* stopping, or the worker failed by its own decision, with a message */
	char *buf;
	size_t len;
	uint64_t n;
	if (slot_input(d, w->id, &buf, &len, &n)) {
		eng_errorf("out of memory restarting worker %d", w->id);
		d->failed = true;
		return;
	}
	if (!n) {
		free(buf);
		return;
	}
	w->strikes = w->reported ? 0 : w->strikes + 1;
	if (w->strikes >= MAX_STRIKES) {
		eng_errorf("worker %d ended %d times in a row without an outcome: its %" PRIu64 " unfinished experiments "
		           "are left for a re-run", w->id, w->strikes, n);
		free(buf);
		return;
	}
	if (!d->quiet)
		eng_errorf("worker %d restarted for its %" PRIu64 " unfinished experiments", w->id, n);
	w->len = 0;
	w->exited = w->killed = false;
	w->status = 0;
	w->term_signal = 0;
	w->reported = 0;
	if (spawn_worker(d, w, buf, len))
		d->failed = true;
}

static void on_handle_closed(uv_handle_t *h)
{
	worker_t *w = h->data;
	if (--w->open_handles == 0) {
		w->d->running--;
		restart(w->d, w);
		maybe_finish(w->d);
	}
}

static void on_worker_exit(uv_process_t *p, int64_t status, int sig)
{
	worker_t *w = p->data;
	w->exited = true;
	w->status = status;
	w->term_signal = sig;
	if ((status != 0 || sig) && !w->d->stopping && !w->d->halting)
		eng_errorf("worker %d ended with status %" PRId64 " signal %d", w->id, status, sig);
	uv_close((uv_handle_t *)p, on_handle_closed);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	worker_t *w = h->data;
	(void)suggested;
	*buf = uv_buf_init(w->line + w->len, (unsigned)(sizeof w->line - 1 - w->len));
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	worker_t *w = s->data;
	(void)buf;
	if (n < 0) {
		uv_close((uv_handle_t *)s, on_handle_closed);
		return;
	}
	w->len += (size_t)n;
	w->line[w->len] = 0;
	char *start = w->line, *nl;
	while ((nl = memchr(start, '\n', w->len - (size_t)(start - w->line)))) {
		*nl = 0;
		queue_line(w->d, w, start);
		start = nl + 1;
	}
	w->len -= (size_t)(start - w->line);
	memmove(w->line, start, w->len);
	if (w->len == sizeof w->line - 1)
		w->len = 0; /* an over-long line is not a result */
}

static void on_written(uv_write_t *req, int status)
{
	worker_t *w = req->data;
	(void)status;
	free(w->input);
	w->input = NULL;
	uv_close((uv_handle_t *)&w->in, on_handle_closed); /* EOF: the list is complete */
}

/* Starts worker w on its experiment lines input[0..len), which it owns
 * from now on. Returns 0 or -1. */
static int spawn_worker(daemon_t *d, worker_t *w, char *input, size_t len)
{
	char ck[32];
	snprintf(ck, sizeof ck, "%" PRIu64, d->ck);
	char *args[11] = {exe, "worker", (char *)d->campaign_path, "--ck", ck, NULL, NULL, NULL, NULL, NULL, NULL};
	int na = 5;
	if (d->golden_fd >= 0) { /* the worker's fd 3 */
		args[na++] = "--golden";
		args[na++] = "3";
	}
	if (d->no_fork)
		args[na++] = "--no-fork";
	if (d->no_early)
		args[na++] = "--no-early";
	if (d->no_attr)
		args[na++] = "--no-attribution";
	uv_pipe_init(d->loop, &w->in, 0);
	uv_pipe_init(d->loop, &w->out, 0);
	w->in.data = w->out.data = w->proc.data = w->wreq.data = w;
	uv_stdio_container_t stdio[4];
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&w->in;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&w->out;
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = 2;
	stdio[3].flags = UV_INHERIT_FD;
	stdio[3].data.fd = d->golden_fd;
	uv_process_options_t po = {.file = exe, .args = args, .exit_cb = on_worker_exit,
	                           .stdio_count = d->golden_fd >= 0 ? 4 : 3, .stdio = stdio};
	int rc = uv_spawn(d->loop, &w->proc, &po);
	if (rc) {
		eng_errorf("cannot start a worker: %s", uv_strerror(rc));
		uv_close((uv_handle_t *)&w->in, NULL);
		uv_close((uv_handle_t *)&w->out, NULL);
		free(input);
		return -1;
	}
	w->open_handles = 3;
	w->last_heard = eng_now();
	d->running++;
	w->input = input;
	uv_buf_t b = uv_buf_init(w->input, (unsigned)len);
	uv_write(&w->wreq, (uv_stream_t *)&w->in, &b, 1, on_written);
	uv_read_start((uv_stream_t *)&w->out, on_alloc, on_read);
	return 0;
}

static void on_tick(uv_timer_t *t)
{
	daemon_t *d = t->data;
	if (!d->db_err)
		commit(d);
	progress(d, false);
	if (!d->db_err && eng_now() - d->last_beat >= HEARTBEAT_S)
		heartbeat(d);
	/* The wall-clock watchdog: every experiment has alarm(watchdog) in its
	 * own process, so a worker silent for much longer than that is stuck
	 * itself; it is killed and its experiments stay pending for a re-run. */
	double now = eng_now();
	for (int i = 0; i < d->nworkers; i++) {
		worker_t *w = &d->w[i];
		if (w->open_handles && !w->exited && !w->killed && now - w->last_heard > d->watchdog) {
			eng_errorf("worker %d silent for %.0f s: killed by the watchdog", w->id, now - w->last_heard);
			uv_process_kill(&w->proc, SIGKILL);
			w->killed = true;
		}
	}
}

static void on_signal(uv_signal_t *s, int sig)
{
	daemon_t *d = s->data;
	if (d->stopping)
		return;
	d->stopping = true;
	d->stop_signal = sig;
	halt(d);
}

/* ---------------------------------------------------------------- one campaign */
static int append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if ((size_t)n < *cap - *len) {
			*len += (size_t)n;
			return 0;
		}
		size_t nc = *cap * 2 + (size_t)n;
		char *nb = realloc(*buf, nc);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = nc;
	}
}

typedef struct run_opts {
	const char *db_path;
	int jobs;
	bool no_fork, no_early, no_attr, quiet;
	int index, count;         /* the campaign being run, of count */
	uint64_t *left;           /* experiments left per campaign (estimates for the run's ETA) */
	int64_t daemon_row;       /* this process in the daemons table, or 0 */
	uint64_t committed;       /* experiments stored by this run */
	uint32_t shard, nshards;  /* --shard I/N (nshards 0: every mask) */
	int64_t campaign;         /* the database id of the campaign run_campaign last prepared */
} run_opts_t;

uint64_t eng_ck_interval(uint64_t golden_cycles)
{
	uint64_t ck = golden_cycles / 64;
	return ck < 32 ? 32 : ck;
}

/* A resumed campaign: its golden run must be the one stored when it began
 * (a host program's inputs, or the PTX it loads, may have changed since).
 * digest (the new run's text) becomes the stored one when they agree: older
 * databases hold the 16-digit combined digest alone. Returns 0 or an exit
 * status with err. */
static int check_golden(db_t *db, const camp_campaign_t *c, const eng_golden_t *g, int64_t id, char *digest,
                        size_t dsz, int *dberr, char *err, size_t errsz)
{
	db_golden_t old;
	int e = db_golden_get(db, id, &old);
	if (e == DB_ENOTFOUND) /* stopped before its golden run was stored */
		return 0;
	if (e) {
		*dberr = e;
		snprintf(err, errsz, "%s", db_errmsg(db));
		return eng_db_err(e);
	}
	char what[600];
	if (eng_golden_differs(g, c->workload, old.output_digest, old.cycles, what, sizeof what)) {
		snprintf(err, errsz, "%s: cannot resume: the golden run differs from the one the campaign began with "
		         "(%s); the workload or its inputs changed, and its experiments would be judged against two "
		         "versions (restore them, or use another database)", c->path, what);
		return ENG_EINPUT;
	}
	snprintf(digest, dsz, "%s", old.output_digest);
	return 0;
}

/* Campaign c's row (a new one, or *existed): id in *id. Returns 0 or an
 * error code with err and *dberr. */
static int campaign_row(db_t *db, const camp_campaign_t *c, const eng_plan_t *p, int64_t *id, bool *existed,
                        int *dberr, char *err, size_t errsz)
{
	char fields[64] = "", scope[300] = "application";
	for (uint32_t bit = 1; bit <= 4; bit <<= 1)
		if (c->fields & bit) {
			const char *fname = camp_field_name(c->target, bit);
			if (fname)
				snprintf(fields + strlen(fields), sizeof fields - strlen(fields), "%s%s", fields[0] ? "," : "",
				         fname);
		}
	if (c->scope == CAMP_SCOPE_KERNEL)
		snprintf(scope, sizeof scope, "kernel:%s:%u", c->kernel, c->invocation);
	db_campaign_t dc = {.fields = fields, .scope = scope, .name = c->name,
	                    .workload = eng_driver_for(c)->name(c), .gpu = c->gpu.name,
	                    .regs = camp_regs_name(c->regs), .config = c->canonical, .config_hash = c->hash,
	                    .tool_version = SC_VERSION, .seed = c->seed, .target = camp_target_name(c->target),
	                    .sampling = camp_sampling_name(c->sampling), .fit_per_bit = c->fit_per_bit,
	                    .confidence = c->confidence, .n_masks = p->n,
	                    .strata = c->strata == CAMP_STRATA_KERNEL ? "kernel" : NULL, .looks = c->stop_looks};
	if ((*dberr = db_campaign_get_or_create(db, &dc, id, existed))) {
		snprintf(err, errsz, "%s", db_errmsg(db));
		return eng_db_err(*dberr);
	}
	return 0;
}

/* The kernel invocations of golden run g as rows k[0..g->nlaunch). */
static void kernel_rows(const camp_campaign_t *c, const eng_golden_t *g, db_kernel_t *k)
{
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		k[i] = (db_kernel_t){.launch_index = i, .kernel = l->kernel, .start_cycle = l->start_cycle,
		                     .end_cycle = l->end_cycle, .grid = {l->grid.x, l->grid.y, l->grid.z},
		                     .block = {l->block.x, l->block.y, l->block.z}, .regs_per_thread = l->regs_per_thread,
		                     .threads_per_sm = l->block.x * l->block.y * l->block.z * l->ctas_per_sm,
		                     .ctas_per_sm = l->ctas_per_sm, .smem_per_cta = l->smem_per_cta,
		                     .df_reg = eng_df_reg(&c->gpu, l), .df_smem = eng_df_smem(&c->gpu, l)};
	}
}

/* Every mask of plan p as rows m[0..p->n): the first fault in columns, the
 * others as JSON text in extra[i] (m[i].extra points to it; the caller
 * frees them): an array of [cycle, sm, loc, nbits] for a multi mask, or
 * {"xor": "0xHEX"} for a random_value one (its XOR pattern; the other
 * models need only the columns and the campaign). Returns 0 or
 * ENG_EINPUT with err. */
static int mask_rows(const camp_campaign_t *c, const eng_plan_t *p, db_mask_t *m, char **extra, char *err,
                     size_t errsz)
{
	for (uint64_t i = 0; i < p->n; i++) {
		eng_exp_t e;
		if (eng_plan_mask(p, c->seed, i, &e)) {
			snprintf(err, errsz, "%s: cannot generate masks for this campaign", c->path);
			return ENG_EINPUT;
		}
		m[i] = (db_mask_t){.idx = i, .cycle = e.f[0].cycle, .sm = e.f[0].sm, .loc = e.f[0].loc, .nbits = e.f[0].nbits};
		if (e.f[0].pattern) { /* random_value: the XOR pattern replays the mask */
			char *buf = malloc(48);
			if (buf)
				snprintf(buf, 48, "{\"xor\":\"0x%" PRIx64 "\"}", e.f[0].pattern);
			extra[i] = buf;
			m[i].extra = buf;
		} else if (e.nfaults > 1) {
			char *buf = malloc(64), sep = '[';
			size_t len = 0, cap = 64;
			for (uint32_t f = 1; buf && f < e.nfaults; f++, sep = ',')
				append(&buf, &len, &cap, "%c[%" PRIu64 ",%u,%" PRIu64 ",%u]", sep, e.f[f].cycle, e.f[f].sm, e.f[f].loc,
				       e.f[f].nbits);
			if (buf)
				append(&buf, &len, &cap, "]");
			extra[i] = buf;
			m[i].extra = buf;
		}
	}
	return 0;
}

/* Golden run g (its output digest text `digest`), its kernel invocations
 * and every mask of p, stored for campaign id before any experiment.
 * Returns 0 or an error code with err (and *dberr for the database's). */
static int store_golden(db_t *db, const camp_campaign_t *c, const eng_golden_t *g, const eng_plan_t *p, int64_t id,
                        const char *digest, int *dberr, char *err, size_t errsz)
{
	db_golden_t dg = {.cycles = g->totals.cycles, .thread_insts = g->totals.thread_insts,
	                  .warp_insts = g->totals.warp_insts,
	                  .ipc = g->totals.cycles ? (double)g->totals.thread_insts / g->totals.cycles : 0,
	                  .clock_mhz = c->gpu.clock_mhz, .num_sms = sc_target_sms(&c->gpu, (sc_target_t)c->target),
	                  .bits_per_sm = camp_campaign_bits(c, NULL),
	                  .wall_seconds = g->wall};
	snprintf(dg.output_digest, sizeof dg.output_digest, "%s", digest);
	db_kernel_t *k = calloc(g->nlaunch ? g->nlaunch : 1, sizeof *k);
	db_mask_t *m = calloc(p->n ? p->n : 1, sizeof *m);
	char **extra = calloc(p->n ? p->n : 1, sizeof *extra);
	int rc = ENG_EINTERNAL;
	if (!k || !m || !extra) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	kernel_rows(c, g, k);
	if ((rc = mask_rows(c, p, m, extra, err, errsz)))
		goto out;
	if ((*dberr = db_golden_put(db, id, &dg)) || (*dberr = db_kernels_put(db, id, k, g->nlaunch)) ||
	    (*dberr = db_masks_put(db, id, m, p->n))) {
		snprintf(err, errsz, "%s", db_errmsg(db));
		rc = eng_db_err(*dberr);
	}
out:
	if (extra)
		for (uint64_t i = 0; i < p->n; i++)
			free(extra[i]);
	free(extra);
	free(m);
	free(k);
	return rc;
}

/* Campaign c with golden run g and plan p in the database: its row (id in
 * *id; *existed when it was there already, its golden run then checked),
 * then, unless all its masks are stored, golden run, kernels and masks.
 * Returns 0 or an error code with err (and *dberr for the database's). */
static int store_campaign(db_t *db, const camp_campaign_t *c, const eng_golden_t *g, const eng_plan_t *p, int64_t *id,
                          bool *existed, int *dberr, char *err, size_t errsz)
{
	int rc = campaign_row(db, c, p, id, existed, dberr, err, errsz);
	if (rc)
		return rc;
	char digest[DB_DIGEST_MAX];
	eng_output_digest_text(g, digest, sizeof digest);
	if (*existed && (rc = check_golden(db, c, g, *id, digest, sizeof digest, dberr, err, errsz)))
		return rc;
	db_progress_t pr;
	if (*existed && !db_progress(db, *id, &pr) && pr.stored == p->n)
		return 0;
	return store_golden(db, c, g, p, *id, digest, dberr, err, errsz);
}

/* Says so when this new campaign `id` shares its name with an earlier one
 * of another definition: their rows in status would look alike. */
static void note_namesake(db_t *db, const camp_campaign_t *c, int64_t id)
{
	int64_t other;
	char created[40];
	if (db_campaign_namesake(db, c->name, id, &other, created, sizeof created) || !other)
		return;
	fprintf(stderr, "flipsim: note: %s: new campaign %" PRId64 "; an earlier campaign of that name (id %" PRId64
	        ", created %s) has another definition (the campaign, workload, program or GPU changed) and keeps its "
	        "results\n", c->name, id, other, created);
}

/* Before a campaign's daemon loop (golden run, masks) nothing is running
 * that a stop would have to wait for, and nothing committed can be lost:
 * Ctrl-C, SIGTERM or SIGHUP says so and exits at once (the open write
 * transaction, if any, is rolled back at the next open). The daemon loop's
 * libuv handlers replace this one; libuv restores the default when they
 * stop, so each campaign arms it again. */
static void early_stop(int sig)
{
	static const char hup[] = "flipsim: hangup (terminal closed) before the experiments began; nothing committed is"
	                          " lost: run the same command to resume\n";
	static const char other[] = "flipsim: stopped before the experiments began; nothing committed is lost: run the"
	                            " same command to resume\n";
	if (sig == SIGHUP)
		(void)!write(2, hup, sizeof hup - 1);
	else
		(void)!write(2, other, sizeof other - 1);
	_exit(128 + sig);
}

static void arm_early_stop(void)
{
	struct sigaction sa = {.sa_handler = early_stop};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The golden record the workers share (record.c), on *fd: golden run g
 * and, for early termination, its checkpoints every ck cycles, which a
 * second golden run records (their interval follows from the first one's
 * length) and which must agree with the first. *fd is -1 when no record
 * could be made: each worker then runs the golden run itself. Returns 0 or
 * an error code with err. */
static int golden_record(const camp_campaign_t *c, eng_golden_t *g, uint64_t ck, bool quiet, int *fd, char *err,
                         size_t errsz)
{
	*fd = -1;
	if (ck) {
		eng_golden_t g2;
		char digest[DB_DIGEST_MAX], what[600];
		int rc = eng_golden_campaign(c, ck, &g2, err, errsz);
		eng_output_digest_text(g, digest, sizeof digest);
		if (!rc && eng_golden_differs(&g2, c->workload, digest, g->totals.cycles, what, sizeof what)) {
			snprintf(err, errsz, "%s: the fault-free run is not deterministic: a second run gave another result "
			         "(%s); flipsim needs the same output for the same input every time", c->path, what);
			rc = ENG_EINPUT;
		}
		sc_rt_ckpts_t mine = g->ck; /* g takes the checkpoints */
		g->ck = g2.ck;
		g2.ck = mine;
		eng_golden_free(&g2);
		if (rc)
			return rc;
	}
	char why[300];
	if (eng_golden_share(g, c, fd, why, sizeof why) && !quiet)
		eng_errorf("note: %s: each worker runs the golden run itself", why);
	sc_rt_ckpts_free(&g->ck); /* the record holds them now */
	return 0;
}

/* A campaign's state before its experiments: golden run, plan, its row in
 * the database and the experiments still pending there. */
typedef struct prepared {
	eng_golden_t g;
	eng_plan_t p;
	int64_t id;
	bool existed;
	db_mask_t *pend;
	uint64_t npend;
	uint64_t n;               /* the masks this run plans: the campaign's, or its shard's */
} prepared_t;

/* With --shard, this database's claim on its share of campaign id (a
 * sequential campaign cannot be split); without, a database that runs one
 * shard of it is refused. Returns 0 or ENG_EINPUT with err. */
static int claim_shard(const run_opts_t *o, db_t *db, const camp_campaign_t *c, int64_t id, char *err,
                       size_t errsz)
{
	if (!o->nshards) {
		db_progress_t p;
		if (!db_progress(db, id, &p) && p.nshards) {
			snprintf(err, errsz, "%s: %s: this database runs shard %u of %u of the campaign: add --shard %u/%u, "
			         "or merge it into another database (flipsim merge)", o->db_path, c->name, p.shard, p.nshards,
			         p.shard, p.nshards);
			return ENG_EINPUT;
		}
		return 0;
	}
	char host[256] = "?";
	gethostname(host, sizeof host - 1);
	int dbrc = db_shard_claim(db, id, o->shard, o->nshards, host, eng_wall_clock());
	if (dbrc) {
		snprintf(err, errsz, "%s: %s", c->name, db_errmsg(db));
		return eng_db_err(dbrc);
	}
	return 0;
}

/* The golden run and plan of c, stored (store_campaign) with the pending
 * experiments read back into r. Returns 0 or an error code with err;
 * *db_broken when the database failed. */
static int prepare(const run_opts_t *o, db_t *db, const camp_campaign_t *c, prepared_t *r, bool *db_broken,
                   char *err, size_t errsz)
{
	int rc = eng_golden_campaign(c, 0, &r->g, err, errsz);
	if (rc)
		return rc;
	if ((rc = eng_plan_space(c, &r->g, &r->p, err, errsz)))
		return rc;
	int dbrc = 0;
	if ((rc = store_campaign(db, c, &r->g, &r->p, &r->id, &r->existed, &dbrc, err, errsz))) {
		*db_broken = dbrc != 0;
		return rc;
	}
	if ((rc = claim_shard(o, db, c, r->id, err, errsz)))
		return rc;
	if ((dbrc = db_masks_pending(db, r->id, &r->pend, &r->npend))) {
		*db_broken = true;
		snprintf(err, errsz, "%s", db_errmsg(db));
		return eng_db_err(dbrc);
	}
	if (o->nshards) { /* this shard's share of them, in the same order */
		uint64_t k = 0;
		for (uint64_t i = 0; i < r->npend; i++)
			if (r->pend[i].idx % o->nshards == o->shard)
				r->pend[k++] = r->pend[i];
		r->npend = k;
	}
	r->n = db_shard_size(r->p.n, o->shard, o->nshards);
	if (!r->existed)
		note_namesake(db, c, r->id);
	if (!o->quiet) {
		char share[64] = "";
		if (o->nshards)
			snprintf(share, sizeof share, "; shard %u of %u: %" PRIu64 " of them", o->shard, o->nshards, r->n);
		fprintf(stderr, "%s: %s %s on %s, %" PRIu64 " injections (%s%s%" PRIu64 " to run%s), golden %" PRIu64
		        " cycles\n", c->name, camp_target_name(c->target), camp_sampling_name(c->sampling), c->gpu.name,
		        r->p.n, share + (share[0] ? 2 : 0), share[0] ? ", " : "", r->npend, r->existed ? ", resumed" : "",
		        r->g.cycles);
	}
	return 0;
}

/* The daemon of campaign c (prepared as r, from file path) with its counts
 * of stored outcomes, its first heartbeat beaten. NULL out of memory. */
static daemon_t *new_daemon(const run_opts_t *o, db_t *db, const camp_campaign_t *c, const char *path,
                            const prepared_t *r)
{
	daemon_t *d = calloc(1, sizeof *d);
	if (!d || !(d->got = calloc(r->p.n / 8 + 1, 1))) {
		free(d);
		return NULL;
	}
	d->plan = &r->p;
	d->seed = c->seed;
	d->pend = r->pend;
	d->npend = r->npend;
	d->db = db;
	d->campaign = r->id;
	d->campaign_path = path;
	d->name = c->name;
	d->index = o->index;
	d->count = o->count;
	for (int j = o->index + 1; j < o->count; j++)
		d->later += o->left[j];
	d->daemon_row = o->daemon_row;
	d->ck = o->no_early ? 0 : eng_ck_interval(r->g.cycles);
	d->golden_fd = -1;
	d->no_fork = o->no_fork;
	d->no_early = o->no_early;
	d->no_attr = o->no_attr;
	d->quiet = o->quiet;
	d->tty = isatty(2);
	d->total = r->n;
	d->done_at_start = r->n - r->npend;
	d->confidence = c->confidence;
	d->avf_of_view = c->strata != CAMP_STRATA_NONE || c->stop_looks;
	db_progress_t start;
	if (!db_progress(db, r->id, &start)) {
		d->stored[0] = start.masked;
		d->stored[1] = start.sdc;
		d->stored[2] = start.due;
	}
	d->t0 = d->last_log = eng_now();
	heartbeat(d);
	/* a worker's golden runs, then one experiment at most per alarm period */
	d->watchdog = 2 * c->watchdog_seconds + 4 * r->g.wall + 30;
	return d;
}

/* Every pending mask as stored must be the one the plan generates now.
 * Returns 0 or ENG_EINPUT with err. */
static int check_pending(const camp_campaign_t *c, const prepared_t *r, char *err, size_t errsz)
{
	for (uint64_t i = 0; i < r->npend; i++) {
		eng_exp_t e;
		if (r->pend[i].idx >= r->p.n || eng_plan_mask(&r->p, c->seed, r->pend[i].idx, &e) ||
		    e.f[0].cycle != r->pend[i].cycle || e.f[0].loc != r->pend[i].loc) {
			snprintf(err, errsz, "the stored mask %" PRIu64 " differs from the campaign's: the kernel "
			         "invocations of the golden run changed, or another flipsim version wrote the database",
			         r->pend[i].idx);
			return ENG_EINPUT;
		}
	}
	return 0;
}

/* The daemon loop: timer, signals and nw workers, until every worker is
 * gone; then the last commit. */
static void daemon_loop(daemon_t *d, int nw)
{
	d->loop = uv_default_loop();
	uv_timer_init(d->loop, &d->tick);
	d->tick.data = d;
	uv_timer_start(&d->tick, on_tick, TICK_MS, TICK_MS);
	uv_signal_init(d->loop, &d->sigint);
	uv_signal_init(d->loop, &d->sigterm);
	uv_signal_init(d->loop, &d->sighup);
	d->sigint.data = d->sigterm.data = d->sighup.data = d;
	uv_signal_start(&d->sigint, on_signal, SIGINT);
	uv_signal_start(&d->sigterm, on_signal, SIGTERM);
	uv_signal_start(&d->sighup, on_signal, SIGHUP); /* an ssh drop: stop as for Ctrl-C */
	d->nworkers = nw;
	for (int k = 0; k < nw; k++) {
		d->w[k].d = d;
		d->w[k].id = k;
		char *in;
		size_t len;
		uint64_t n;
		if (slot_input(d, k, &in, &len, &n) || spawn_worker(d, &d->w[k], in, len))
			d->failed = true;
	}
	maybe_finish(d);
	uv_run(d->loop, UV_RUN_DEFAULT);
	if (!d->db_err)
		commit(d);
}

/* The experiments of r run by o->jobs workers at most: checked, golden
 * record made, then the daemon loop. Returns 0 or an error code with err. */
static int run_pending(const run_opts_t *o, const camp_campaign_t *c, prepared_t *r, daemon_t *d, char *err,
                       size_t errsz)
{
	/* experiments dealt in cycle order: every worker replays the golden
	 * run to about its end, and all advance together */
	int nw = (uint64_t)o->jobs < r->npend ? o->jobs : (int)r->npend;
	int rc = check_pending(c, r, err, errsz);
	/* the golden run's second part: checkpoints, shared by all workers */
	if (rc || (rc = golden_record(c, &r->g, d->ck, o->quiet, &d->golden_fd, err, errsz)))
		return rc;
	if (!(d->w = calloc((size_t)nw, sizeof *d->w))) {
		snprintf(err, errsz, "out of memory for %d workers", nw);
		return ENG_EINTERNAL;
	}
	daemon_loop(d, nw);
	return 0;
}

/* How many of d's experiments got no outcome. */
static uint64_t missing(const daemon_t *d)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < d->npend; i++) {
		uint64_t idx = d->pend[i].idx;
		n += !(d->got[idx / 8] & (1u << (idx % 8)));
	}
	return n;
}

/* How the daemon loop of campaign c (row id) ended, said on stderr: a
 * database failure, a stop by signal (*interrupted), experiments left
 * over (of a sequential campaign: of its batch), or done. Returns 0 or
 * the campaign's error code. */
static int finish(const daemon_t *d, db_t *db, const camp_campaign_t *c, int64_t id, int *interrupted,
                  bool *db_broken)
{
	db_progress_t pr;
	if (d->db_err) {
		*db_broken = true;
		if (!db_progress(db, id, &pr))
			fprintf(stderr, "%s: stopped: %" PRIu64 " of %" PRIu64 " experiments stored; %s\n", c->name, pr.done,
			        pr.n_masks, d->db_err == DB_EMOVED ? "resume from the saved copy (see above)"
			                    : "run the same command again to resume once the database can be written");
		return eng_db_err(d->db_err);
	}
	if (d->stopping) {
		*interrupted = d->stop_signal;
		if (!db_progress(db, id, &pr))
			fprintf(stderr, "%s: stopped: %" PRIu64 " of %" PRIu64 " experiments stored; run the same command again to "
			        "resume\n", c->name, pr.done, pr.n_masks);
		return 0;
	}
	uint64_t lost = 0;
	if (c->stop_looks) /* a sequential campaign's batch: its own experiments */
		lost = missing(d);
	else if (!db_progress(db, id, &pr) && pr.done < pr.n_masks)
		lost = pr.n_masks - pr.done;
	if (lost) {
		eng_errorf("%s: %" PRIu64 " experiments could not be run (a worker failed); run the command again to retry "
		           "them", c->name, lost);
		return ENG_EINTERNAL;
	}
	return d->failed ? ENG_EINTERNAL : 0;
}

static void daemon_free(daemon_t *d)
{
	if (!d)
		return;
	if (d->golden_fd >= 0)
		close(d->golden_fd);
	free(d->w);
	free(d->got);
	free(d->queue);
	free(d->reasons);
	free(d);
}

/* The pending experiments r->pend of campaign c run by one daemon, its
 * end reported; the progress counts up to n (the campaign's, or a look's).
 * Returns 0 or an error code (message printed). */
static int run_batch(run_opts_t *o, db_t *db, const camp_campaign_t *c, const char *path, prepared_t *r, uint64_t n,
                     int *interrupted, bool *db_broken)
{
	char err[1024];
	int rc = 0;
	daemon_t *d = new_daemon(o, db, c, path, r);
	if (!d) {
		snprintf(err, sizeof err, "out of memory");
		rc = ENG_EINTERNAL;
	} else {
		d->total = n;
		d->done_at_start = n - r->npend;
	}
	if (!rc && r->npend)
		rc = run_pending(o, c, r, d, err, sizeof err);
	if (rc) {
		eng_errorf("%s", err);
	} else {
		progress(d, true);
		o->committed += d->fresh;
		rc = finish(d, db, c, r->id, interrupted, db_broken);
	}
	daemon_free(d);
	return rc;
}

/* Look j of sequential campaign c (row id) after its first n experiments:
 * the interval of view avf's 'all' row (what `status` shows) decides
 * (mask_stop_met); a stop is recorded with its reason. A look taken
 * before (more than n experiments stored: a later batch began, so it
 * said go on) decides nothing again. *stopped says whether it stopped.
 * Returns 0 or an error code (message printed). */
static int take_look(db_t *db, const camp_campaign_t *c, int64_t id, uint32_t j, uint64_t n, bool quiet,
                     bool *stopped, bool *db_broken)
{
	db_progress_t pr;
	int dbrc = db_progress(db, id, &pr);
	*stopped = false;
	if (!dbrc && pr.done > n)
		return 0;
	bool met = !dbrc && mask_stop_met(pr.avf, pr.avf_lo, pr.avf_hi, c->stop_relative, c->stop_absolute);
	if (!dbrc && (met || j + 1 == c->stop_looks)) {
		dbrc = db_campaign_stopped(db, id, met ? "margin" : "max", n);
		*stopped = !dbrc;
	}
	if (dbrc) {
		*db_broken = true;
		eng_errorf("%s", db_errmsg(db));
		return eng_db_err(dbrc);
	}
	if (!quiet)
		fprintf(stderr, "%s: look %u of %u at n = %" PRIu64 ": AVF %.4f%% [%.4f%%, %.4f%%], half-width %.4f%%%s\n",
		        c->name, j + 1, c->stop_looks, n, 100 * pr.avf, 100 * pr.avf_lo, 100 * pr.avf_hi,
		        50 * (pr.avf_hi - pr.avf_lo),
		        met ? ": narrow enough, stopped" : *stopped ? ": the most injections reached, stopped" : "");
	return 0;
}

/* A sequential campaign: its looks in turn (masks.h, mask_look_n). Before
 * look j the pending experiments below its n run as one batch, then the
 * look decides. Each decision depends on the experiments 0 .. n-1 alone,
 * so a resumed (or shared) campaign makes the same ones; one that stopped
 * before runs nothing. Returns 0 or an error code (message printed). */
static int run_looks(run_opts_t *o, db_t *db, const camp_campaign_t *c, const char *path, prepared_t *r,
                     int *interrupted, bool *db_broken)
{
	db_mask_t *all = r->pend, *batch = malloc((r->npend ? r->npend : 1) * sizeof *batch);
	uint64_t nall = r->npend;
	int rc = 0;
	bool stopped = false;
	if (!batch) {
		eng_errorf("out of memory");
		return ENG_EINTERNAL;
	}
	for (uint32_t j = 0; j < c->stop_looks && !rc && !stopped && !*interrupted; j++) {
		db_progress_t pr;
		int dbrc = db_progress(db, r->id, &pr);
		if (dbrc) {
			*db_broken = true;
			eng_errorf("%s", db_errmsg(db));
			rc = eng_db_err(dbrc);
			break;
		}
		if (pr.stop[0]) {
			if (!o->quiet)
				fprintf(stderr, "%s: stopped before at n = %" PRIu64 " (%s)\n", c->name, pr.stop_n,
				        strcmp(pr.stop, "margin") ? "the most injections" : "the interval was narrow enough");
			break;
		}
		/* the pending experiments of this look; those below the last
		 * look's n ran in its batch */
		uint64_t lo = j ? mask_look_n(r->p.n, c->stop_looks, j - 1) : 0;
		uint64_t n = mask_look_n(r->p.n, c->stop_looks, j), nb = 0;
		for (uint64_t i = 0; i < nall; i++) /* in cycle order, as stored */
			if (all[i].idx >= lo && all[i].idx < n)
				batch[nb++] = all[i];
		r->pend = batch;
		r->npend = nb;
		rc = run_batch(o, db, c, path, r, n, interrupted, db_broken);
		if (!rc && !*interrupted)
			rc = take_look(db, c, r->id, j, n, o->quiet, &stopped, db_broken);
	}
	r->pend = all;
	r->npend = nall;
	free(batch);
	return rc;
}

/* One campaign of `flipsim run`: prepared, its pending experiments run,
 * its end reported. Returns 0 or an error code (message printed). */
static int run_campaign(run_opts_t *o, db_t *db, const char *path, int *interrupted, bool *db_broken)
{
	char err[1024];
	camp_campaign_t *c;
	if (camp_campaign_load(path, &c, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EINPUT;
	}
	prepared_t r = {0};
	arm_early_stop();
	int rc = prepare(o, db, c, &r, db_broken, err, sizeof err);
	o->campaign = r.id;
	if (rc)
		eng_errorf("%s", err);
	else if (c->stop_looks)
		rc = run_looks(o, db, c, path, &r, interrupted, db_broken);
	else
		rc = run_batch(o, db, c, path, &r, r.n, interrupted, db_broken);
	free(r.pend);
	eng_plan_free(&r.p);
	eng_golden_free(&r.g);
	camp_campaign_destroy(c);
	return rc;
}

/* ---------------------------------------------------------------- command */
void eng_run_help(FILE *out)
{
	fputs("usage: flipsim run CAMPAIGN.json... [--db R.db] [-j N] [--no-fork] [--no-early]\n"
	      "                   [--no-attribution] [--quiet] [--shard I/N]\n"
	      "\n"
	      "Runs fault-injection campaigns: the golden run, the masks (all stored\n"
	      "before any experiment), then N worker processes that replay the golden\n"
	      "execution once and fork each experiment at its activation cycle. Every\n"
	      "outcome is committed to the SQLite database as it arrives. Ctrl-C,\n"
	      "SIGTERM or SIGHUP (a closed terminal) stops gracefully; running the\n"
	      "same command again resumes with the experiments still missing: also\n"
	      "after the project moved or the workload JSON was re-indented (a\n"
	      "campaign is its content). Every campaign file is checked before any\n"
	      "runs. A sequential campaign (\"stop\") runs its masks in batches up to\n"
	      "each look and stops at the first whose interval is narrow enough; it\n"
	      "says so at each look. Ends with the report of the database. For long\n"
	      "runs over ssh:\n"
	      "nohup flipsim run ... > run.log 2>&1 &  (or setsid, tmux, screen).\n"
	      "\n"
	      "options:\n"
	      "  --db R.db     results database, created if missing (default flipsim.db)\n"
	      "  -j N          worker processes, 1..1024 (default: the CPUs this process\n"
	      "                may run on, affinity mask and cgroup quota, at most 64)\n"
	      "  --no-fork     re-simulate every experiment from cycle 0 (for comparison)\n"
	      "  --no-early    never stop an experiment early on re-joining the golden state\n"
	      "  --no-attribution  store no fault sites nor effects (README, \"Fault sites\n"
	      "                and effects\"): outcomes and severities only, a little faster\n"
	      "  --quiet       no progress output (the final report is still printed)\n"
	      "  --shard I/N   run only shard I of N (0 <= I < N) of every campaign: the\n"
	      "                masks whose index is I modulo N, into a database of its own\n"
	      "                (--db part-I.db); `flipsim merge` joins the parts. Masks\n"
	      "                depend on (seed, index) alone, so the shards together are\n"
	      "                the unsharded run's experiments. Not for sequential campaigns\n"
	      "  -h, --help    print this help and exit\n"
	      "\n"
	      "Progress: on a terminal a line fitted to its width with done/total, rate,\n"
	      "ETA (h:mm:ss; of the whole run too with several campaigns), outcome\n"
	      "counts and the running AVF with its confidence interval; otherwise a\n"
	      "line every 60 s starting with the time (ISO-8601 UTC) and the campaign.\n"
	      "`flipsim status R.db` tells whether a run is still going.\n"
	      "\n"
	      "exit status: 0 done, 1 internal failure, 2 bad input (campaign,\n"
	      "workload, GPU, database), 128+N stopped by signal N (130 for Ctrl-C;\n"
	      "every stored experiment kept: run the same command to resume)\n", out);
}

/* ---------------------------------------------------------------- CPUs */
int eng_cpu_max_cpus(const char *text)
{
	char quota[32];
	double period;
	if (sscanf(text, "%31s %lf", quota, &period) != 2 || !(period > 0) || !strcmp(quota, "max"))
		return 0;
	char *e;
	double q = strtod(quota, &e);
	if (*e || !(q > 0))
		return 0;
	double n = ceil(q / period);
	return n > ENG_MAX_WORKERS ? ENG_MAX_WORKERS : (int)n;
}

/* The tightest cpu.max of this process's cgroup v2 and its parents, in
 * CPUs; 0 when none limits it (or no cgroup v2 is mounted). */
static int cgroup_cpus(void)
{
	char line[4096], dir[4200];
	FILE *f = fopen("/proc/self/cgroup", "r");
	bool found = false;
	while (f && !found && fgets(line, sizeof line, f))
		found = !strncmp(line, "0::/", 4);
	if (f)
		fclose(f);
	if (!found)
		return 0;
	line[strcspn(line, "\n")] = '\0';
	snprintf(dir, sizeof dir, "/sys/fs/cgroup%s", line + 3);
	int best = 0;
	for (;;) {
		char path[4300], text[64];
		snprintf(path, sizeof path, "%s/cpu.max", dir);
		if ((f = fopen(path, "r"))) {
			int n = fgets(text, sizeof text, f) ? eng_cpu_max_cpus(text) : 0;
			fclose(f);
			if (n > 0 && (best == 0 || n < best))
				best = n;
		}
		char *slash = strrchr(dir, '/');
		if (!slash || slash - dir < (ptrdiff_t)strlen("/sys/fs/cgroup"))
			break;
		*slash = '\0';
	}
	return best;
}

int eng_available_cpus(void)
{
	/* libuv >= 1.44 reads the affinity mask (sched_getaffinity) */
	int n = (int)uv_available_parallelism(), q = cgroup_cpus();
	if (q > 0 && q < n)
		n = q;
	return n > 0 ? n : 1;
}

int eng_parse_workers(const char *s, int *jobs)
{
	char *e;
	long v = strtol(s, &e, 10);
	if (*e || e == s || v < 1 || v > ENG_MAX_WORKERS)
		return -1;
	*jobs = (int)v;
	return 0;
}

int eng_default_workers(int ncpu_available)
{
	if (ncpu_available < 1)
		return 1;
	return ncpu_available > ENG_DEFAULT_MAX_WORKERS ? ENG_DEFAULT_MAX_WORKERS : ncpu_available;
}

/* ---------------------------------------------------------------- command */
/* Checks every campaign file before any runs: a mistake in the last of
 * many is reported now, not after the others have run for hours. Records
 * each one's planned experiments in left[] and its identities in hash[]
 * (two per campaign: current and legacy), for the run's ETA. Returns 0 or
 * ENG_EINPUT. */
static int check_campaigns(const run_opts_t *o, char **files, int n, uint64_t *left, char (*hash)[17])
{
	char err[1024];
	int bad = 0;
	for (int i = 0; i < n; i++) {
		camp_campaign_t *c;
		if (camp_campaign_load(files[i], &c, err, sizeof err)) {
			eng_errorf("%s", err);
			bad++;
			continue;
		}
		left[i] = c->injections;
		if (!left[i] && mask_sample_size(c->confidence, c->margin, 0, 0.5, &left[i]))
			left[i] = 0;
		left[i] = db_shard_size(left[i], o->shard, o->nshards);
		if (o->nshards && c->stop_looks) {
			eng_errorf("%s: campaign '%s' is sequential (\"stop\"): its looks need every experiment up to each "
			           "one, so it cannot be split into shards; run it without --shard", files[i], c->name);
			bad++;
		}
		memcpy(hash[2 * i], c->hash, 17);
		memcpy(hash[2 * i + 1], c->legacy_hash, 17);
		camp_campaign_destroy(c);
	}
	if (bad && n > 1)
		eng_errorf("%d of %d campaigns are not valid; nothing was run", bad, n);
	return bad ? ENG_EINPUT : 0;
}

/* left[i] becomes what campaign i still lacks when the database holds it. */
static void left_in_db(db_t *db, int n, uint64_t *left, char (*hash)[17])
{
	db_campaign_info_t *list;
	size_t nl;
	if (db_campaigns_list(db, &list, &nl))
		return;
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < nl; k++)
			if (!strcmp(list[k].config_hash, hash[2 * i]) || !strcmp(list[k].config_hash, hash[2 * i + 1])) {
				const db_progress_t *p = &list[k].progress;
				left[i] = p->n_masks > p->done ? p->n_masks - p->done : 0;
			}
	db_campaigns_free(list, nl);
}

/* This process in the daemons table (status reads it); 0 when it cannot
 * be written, which does not stop the run. */
static int64_t register_daemon(db_t *db)
{
	db_daemon_t dd = {.pid = getpid(), .interval = HEARTBEAT_S};
	if (gethostname(dd.host, sizeof dd.host - 1))
		snprintf(dd.host, sizeof dd.host, "?");
	dd.started = dd.heartbeat = eng_wall_clock();
	int64_t row = 0;
	return db_daemon_start(db, &dd, &row) ? 0 : row;
}

/* flipsim run's options into o, optind left at the first campaign file.
 * Returns -1 to go on, else the exit status to end with (help, usage). */
static int run_options(int argc, char **argv, run_opts_t *o)
{
	static const struct option opts[] = {{"db", required_argument, NULL, 'd'},
	                                     {"no-fork", no_argument, NULL, 'f'},
	                                     {"no-early", no_argument, NULL, 'e'},
	                                     {"no-attribution", no_argument, NULL, 'a'},
	                                     {"quiet", no_argument, NULL, 'q'},
	                                     {"shard", required_argument, NULL, 's'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 'f': o->no_fork = true; break;
		case 'e': o->no_early = true; break;
		case 'a': o->no_attr = true; break;
		case 'q': o->quiet = true; break;
		case 's':
			if (eng_parse_shard(optarg, &o->shard, &o->nshards))
				return eng_usage_error("run", "--shard: expected I/N, shard I of N with 0 <= I < N <= %d "
				                       "(e.g. 0/4), got '%s'", ENG_MAX_SHARDS, optarg);
			break;
		case 'j':
			if (eng_parse_workers(optarg, &o->jobs))
				return eng_usage_error("run", "-j: expected a number of workers in 1..%d, got '%s'", ENG_MAX_WORKERS,
				                       optarg);
			break;
		case 'h': eng_run_help(stdout); return ENG_EXIT_OK;
		default: return eng_usage_error("run", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return eng_usage_error("run", "missing campaign file");
	return -1;
}

/* Campaign files files[0..o->count) run in turn until one is stopped by a
 * signal (*interrupted) or the database breaks (*db_broken). Returns the
 * worst error code of them (the lowest), 0 when all went well. */
static int run_campaigns(run_opts_t *o, db_t *db, char **files, int *interrupted, bool *db_broken)
{
	/* A worker that dies leaves its stdin pipe without a reader: the write
	 * fails with EPIPE (the worker is restarted) instead of killing us.
	 * Workers start with default signal dispositions (libuv resets them). */
	signal(SIGPIPE, SIG_IGN);
	int worst = 0;
	for (int i = 0; i < o->count && !*interrupted && !*db_broken; i++) {
		o->index = i;
		int rc = run_campaign(o, db, files[i], interrupted, db_broken);
		if (rc < worst)
			worst = rc;
	}
	return worst;
}

/* The end of a run of the campaigns in db: the daemon's row closed, a
 * hangup said, the report printed when all went well (*worst: its error
 * code when that fails), the file checked. Returns 0, or the error code
 * when the file is gone. */
static int end_run(const run_opts_t *o, db_t *db, int *worst, int interrupted, bool db_broken)
{
	char err[1024];
	int rc = 0;
	if (o->daemon_row)
		db_daemon_end(db, o->daemon_row, eng_wall_clock());
	/* an ssh session that drops takes the run with it: say so, for the log
	 * (nohup.out) or whoever looks next; README: "Long runs" */
	if (interrupted == SIGHUP)
		eng_errorf("hangup (terminal closed); %" PRIu64 " experiments committed; run the same command to resume",
		           o->committed);
	if (!interrupted && *worst == 0) {
		fputc('\n', stdout);
		if ((rc = db_report(db, DB_TEXT, stdout, err, sizeof err))) {
			eng_errorf("%s", err);
			*worst = eng_db_err(rc);
		}
	}
	/* The file may have gone since the last commit: say so, and save it. */
	bool lost = !db_broken && (rc = db_check_file(db)) != 0;
	if (lost)
		eng_errorf("%s", db_errmsg(db));
	db_close(db);
	return lost ? eng_db_err(rc) : 0;
}

int eng_run_main(int argc, char **argv)
{
	run_opts_t o = {.db_path = "flipsim.db", .jobs = eng_default_workers(eng_available_cpus())};
	int rc = run_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	size_t n = sizeof exe;
	if (uv_exepath(exe, &n)) {
		eng_errorf("cannot find the flipsim executable");
		return ENG_EXIT_INTERNAL;
	}
	char err[1024];
	o.count = argc - optind;
	uint64_t *left = calloc((size_t)o.count, sizeof *left);
	char (*hash)[17] = calloc(2 * (size_t)o.count, sizeof *hash);
	db_t *db = NULL;
	if (!left || !hash) {
		eng_errorf("out of memory");
		rc = ENG_EINTERNAL;
	} else if (!(rc = check_campaigns(&o, argv + optind, o.count, left, hash)) &&
	           (rc = db_open(o.db_path, true, &db, err, sizeof err))) {
		eng_errorf("%s", err);
		rc = eng_db_err(rc);
	}
	int status = eng_exit_status(rc);
	if (!rc) {
		left_in_db(db, o.count, left, hash);
		o.left = left;
		o.daemon_row = register_daemon(db);
		int interrupted = 0;
		bool db_broken = false;
		int worst = run_campaigns(&o, db, argv + optind, &interrupted, &db_broken);
		int lost = end_run(&o, db, &worst, interrupted, db_broken);
		status = lost ? eng_exit_status(lost) : interrupted ? 128 + interrupted : eng_exit_status(worst);
	}
	free(left);
	free(hash);
	return status;
}

int eng_run_one(const eng_run_one_t *x, db_t *db, const char *file, int64_t *campaign, int *interrupted,
                bool *db_broken)
{
	size_t n = sizeof exe;
	if (!exe[0] && uv_exepath(exe, &n)) {
		eng_errorf("cannot find the flipsim executable");
		return ENG_EINTERNAL;
	}
	uint64_t left = 0;
	run_opts_t o = {.db_path = x->db_path, .jobs = x->jobs, .no_fork = x->no_fork, .no_early = x->no_early,
	                .no_attr = x->no_attr, .quiet = x->quiet, .count = 1, .left = &left,
	                .daemon_row = x->daemon_row};
	signal(SIGPIPE, SIG_IGN); /* as run_campaigns: a dead worker's pipe */
	int rc = run_campaign(&o, db, file, interrupted, db_broken);
	*campaign = o.campaign;
	if (!rc && !*interrupted && !*db_broken && !x->quiet) {
		fputc('\n', stdout);
		char err[1024];
		if (db_report(db, DB_TEXT, stdout, err, sizeof err))
			eng_errorf("%s", err);
	}
	fflush(stdout);
	return rc;
}

int64_t eng_daemon_register(db_t *db) { return register_daemon(db); }
