/* The campaign queue and its daemon (README "A campaign queue and its
 * daemon"): `flipsim submit R.db CAMPAIGN...` queues campaign files in the
 * database (table queue); `flipsim daemon R.db` runs them oldest first,
 * each as `flipsim run` would (eng_run_one), waits for more with
 * --follow, and picks up after its own death where it was (an entry left
 * running is resumed first); `flipsim stop R.db` stops it gracefully.
 * One daemon per database: it holds an exclusive flock on R.db.daemon,
 * which also names its pid and host, until it exits (the kernel drops the
 * lock when it dies, however it dies). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaigns.h"
#include "db.h"
#include "eng_int.h"

/* ---------------------------------------------------------------- submit */
void eng_submit_help(FILE *out)
{
	fputs("usage: flipsim submit R.db CAMPAIGN.json...\n"
	      "\n"
	      "Queues the campaign files in the database R.db (created if missing) for\n"
	      "`flipsim daemon R.db` to run, oldest first. Every file is checked first:\n"
	      "one bad file queues nothing. A campaign already queued or running (the\n"
	      "same definition) is not queued twice. The daemon reads each file when it\n"
	      "starts it, so keep the files (and their workloads) where they are.\n"
	      "\n"
	      "exit status: 0 queued, 1 internal failure, 2 bad input (a campaign file,\n"
	      "the database)\n", out);
}

int eng_submit_main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			eng_submit_help(stdout);
			return ENG_EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return eng_usage_error("submit", "unknown option '%s'", argv[i]);
	}
	if (argc < 2)
		return eng_usage_error("submit", "missing the database");
	if (argc < 3)
		return eng_usage_error("submit", "missing campaign file");
	int n = argc - 2, bad = 0;
	camp_campaign_t **c = calloc((size_t)n, sizeof *c);
	char (*abs)[PATH_MAX] = calloc((size_t)n, sizeof *abs);
	char err[1024];
	int rc = 0;
	if (!c || !abs) {
		eng_errorf("out of memory");
		rc = ENG_EINTERNAL;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const char *f = argv[2 + i];
		if (camp_campaign_load(f, &c[i], err, sizeof err)) {
			eng_errorf("%s", err);
			bad++;
		} else if (!realpath(f, abs[i])) {
			eng_errorf("%s: %s", f, strerror(errno));
			bad++;
		}
	}
	if (bad) {
		if (n > 1)
			eng_errorf("%d of %d campaigns are not valid; nothing was queued", bad, n);
		rc = ENG_EINPUT;
		goto out;
	}
	db_t *db = NULL;
	int dbrc = db_open(argv[1], true, &db, err, sizeof err);
	if (dbrc) {
		eng_errorf("%s", err);
		rc = eng_db_err(dbrc);
		goto out;
	}
	for (int i = 0; i < n && !rc; i++) {
		int64_t id = 0;
		bool dup = false;
		if ((dbrc = db_queue_add(db, abs[i], c[i]->name, c[i]->hash, eng_wall_clock(),
		                         &id, &dup))) {
			eng_errorf("%s", db_errmsg(db));
			rc = eng_db_err(dbrc);
		} else if (dup) {
			printf("%s: already queued as entry %" PRId64 "\n", c[i]->name, id);
		} else {
			printf("%s: queued as entry %" PRId64 " (%s)\n", c[i]->name, id, abs[i]);
		}
	}
	db_close(db);
out:
	for (int i = 0; c && i < n; i++)
		camp_campaign_destroy(c[i]);
	free(c);
	free(abs);
	return eng_exit_status(rc);
}

/* ---------------------------------------------------------------- the lock */
/* R.db's daemon lock file: path + ".daemon". */
static void lock_path(const char *db, char *buf, size_t n) { snprintf(buf, n, "%s.daemon", db); }

/* Who holds the lock of db, from its file ("PID HOST"): true with *pid and
 * host when a process holds it; false when none does (or no file). */
bool eng_daemon_holder(const char *db, long *pid, char *host, size_t n)
{
	char p[PATH_MAX + 16];
	lock_path(db, p, sizeof p);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	if (!held)
		flock(fd, LOCK_UN);
	char text[512] = "";
	ssize_t k = read(fd, text, sizeof text - 1);
	close(fd);
	text[k > 0 ? k : 0] = '\0';
	*pid = 0;
	host[0] = '\0';
	char h[256] = "";
	if (sscanf(text, "%ld %255s", pid, h) == 2)
		snprintf(host, n, "%s", h);
	return held;
}

/* Takes db's lock: its fd (kept open until the process ends), or -1 with
 * the message in err. */
static int take_lock(const char *db, char *err, size_t errsz)
{
	char p[PATH_MAX + 16];
	lock_path(db, p, sizeof p);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", p, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		long pid;
		char host[256];
		close(fd);
		if (eng_daemon_holder(db, &pid, host, sizeof host))
			snprintf(err, errsz, "%s: a daemon already runs it (pid %ld on %s); `flipsim stop %s` stops it", db, pid,
			         host, db);
		else
			snprintf(err, errsz, "%s: cannot lock %s: %s", db, p, strerror(errno));
		return -1;
	}
	char host[256] = "?", text[320];
	gethostname(host, sizeof host - 1);
	int len = snprintf(text, sizeof text, "%ld %s\n", (long)getpid(), host);
	if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)len, 0) != len) {
		snprintf(err, errsz, "%s: cannot write: %s", p, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* ---------------------------------------------------------------- daemon */
void eng_daemon_help(FILE *out)
{
	fputs("usage: flipsim daemon R.db [-j N] [--follow] [--poll S] [--detach] [--log FILE]\n"
	      "                      [--on-done CMD] [--no-fork] [--no-early] [--no-attribution]\n"
	      "\n"
	      "Runs the campaigns queued in R.db (flipsim submit), oldest first, each as\n"
	      "`flipsim run CAMPAIGN --db R.db` would (its progress lines and report go to\n"
	      "stdout, or the log). A campaign that ends well is marked done, one that\n"
	      "fails is marked failed (the daemon goes on with the next), one stopped by\n"
	      "a signal stays queued. Without --follow it exits when the queue is empty;\n"
	      "with it, it waits for more, looking every S seconds (--poll, default 5).\n"
	      "A daemon that is killed, or whose machine reboots, picks up where it was\n"
	      "when started again: the campaign it was running resumes first, with the\n"
	      "experiments already stored kept. One daemon per database: a second one\n"
	      "is refused (exit 2) while the first runs. SIGTERM, SIGINT or `flipsim stop\n"
	      "R.db` stop it gracefully (exit 0); `flipsim status R.db` shows the queue.\n"
	      "\n"
	      "options:\n"
	      "  -j N              workers per campaign (as flipsim run)\n"
	      "  --follow          keep running when the queue is empty, waiting for more\n"
	      "  --poll S          with --follow: seconds between looks at the queue (0.1..3600)\n"
	      "  --detach          run in the background (a new session); prints its pid\n"
	      "  --log FILE        with --detach: its output (default R.db.log), appended\n"
	      "  --on-done CMD     run `sh -c CMD` when the queue empties after running\n"
	      "                    campaigns (FLIPSIM_EVENT=done) and when a campaign fails\n"
	      "                    (FLIPSIM_EVENT=failed, FLIPSIM_CAMPAIGN=its name); also set:\n"
	      "                    FLIPSIM_DB, FLIPSIM_QUEUE_ID (the entry, failed only)\n"
	      "  --no-fork, --no-early, --no-attribution   as flipsim run\n"
	      "\n"
	      "exit status: 0 done or stopped, 1 internal failure, 2 bad usage, a second\n"
	      "daemon, or a database that cannot be opened\n", out);
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

/* SIGTERM, SIGINT and SIGHUP stop the daemon between campaigns (during one,
 * the campaign's own handlers stop it, and it reports the signal). */
static void catch_stops(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

typedef struct dopts {
	const char *db;
	char abs[PATH_MAX];
	const char *log;
	const char *on_done;
	double poll;
	bool follow, detach;
	eng_run_one_t run;
} dopts_t;

/* --on-done's command for event ("done" or "failed", with the entry q). */
static void on_done(const dopts_t *o, const char *event, const db_queue_t *q)
{
	if (!o->on_done)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("FLIPSIM_DB", o->abs, 1);
		setenv("FLIPSIM_EVENT", event, 1);
		if (q) {
			char id[32];
			snprintf(id, sizeof id, "%" PRId64, q->id);
			setenv("FLIPSIM_QUEUE_ID", id, 1);
			setenv("FLIPSIM_CAMPAIGN", q->name, 1);
		}
		execl("/bin/sh", "sh", "-c", o->on_done, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		eng_errorf("daemon: --on-done: cannot run '%s'", o->on_done);
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		eng_errorf("daemon: --on-done '%s' (%s) ended with status %d", o->on_done, event,
		           WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/* Sleeps s seconds unless a stop comes first. */
static void nap(double s)
{
	for (double t = 0; t < s && !stop_signal; t += 0.1) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
}

static void stamp(const char *fmt, const char *a, int64_t id)
{
	char when[32];
	printf("%s daemon: ", eng_iso_time(eng_wall_clock(), when, sizeof when));
	printf(fmt, a, id);
	putchar('\n');
	fflush(stdout);
}

/* The queue run until it is empty (or, with --follow, until a stop).
 * Returns the exit status. */
static int serve(dopts_t *o, db_t *db)
{
	bool worked = false;
	int status = ENG_EXIT_OK;
	while (!stop_signal) {
		db_queue_t q;
		int rc = db_queue_next(db, &q);
		if (rc == DB_ENOTFOUND) {
			if (worked)
				on_done(o, "done", NULL);
			worked = false;
			if (!o->follow)
				break;
			nap(o->poll);
			continue;
		}
		if (rc) {
			eng_errorf("%s", db_errmsg(db));
			return eng_db_status(rc);
		}
		worked = true;
		bool resumed = !strcmp(q.state, "running");
		if ((rc = db_queue_set(db, q.id, "running", 0, NULL, eng_wall_clock()))) {
			eng_errorf("%s", db_errmsg(db));
			return eng_db_status(rc);
		}
		stamp(resumed ? "%s (entry %" PRId64 "): resumed" : "%s (entry %" PRId64 "): started", q.name, q.id);
		int interrupted = 0;
		bool broken = false;
		int64_t camp = 0;
		rc = eng_run_one(&o->run, db, q.file, &camp, &interrupted, &broken);
		catch_stops(); /* the campaign's loop had the signals */
		char msg[256];
		const char *state = "done";
		if (interrupted) {
			stop_signal = interrupted;
			state = "queued";
			snprintf(msg, sizeof msg, "stopped by signal %d; resumes when a daemon runs again", interrupted);
		} else if (rc) {
			state = "failed";
			snprintf(msg, sizeof msg, "failed (exit status %d): see the daemon's output", eng_exit_status(rc));
		} else {
			msg[0] = '\0';
		}
		if (!broken && (rc = db_queue_set(db, q.id, state, camp, msg[0] ? msg : NULL, eng_wall_clock()))) {
			eng_errorf("%s", db_errmsg(db));
			broken = true;
		}
		stamp(!strcmp(state, "done") ? "%s (entry %" PRId64 "): done"
		      : !strcmp(state, "failed") ? "%s (entry %" PRId64 "): failed"
		                                 : "%s (entry %" PRId64 "): stopped, queued again",
		      q.name, q.id);
		if (!strcmp(state, "failed"))
			on_done(o, "failed", &q);
		if (broken) {
			status = eng_exit_status(ENG_EINPUT);
			break;
		}
	}
	if (stop_signal) {
		char when[32];
		printf("%s daemon: stopped by signal %d\n", eng_iso_time(eng_wall_clock(), when, sizeof when),
		       (int)stop_signal);
		fflush(stdout);
	}
	return status;
}

static int daemon_options(int argc, char **argv, dopts_t *o)
{
	static const struct option opts[] = {{"follow", no_argument, NULL, 'F'},
	                                     {"poll", required_argument, NULL, 'p'},
	                                     {"detach", no_argument, NULL, 'D'},
	                                     {"log", required_argument, NULL, 'l'},
	                                     {"on-done", required_argument, NULL, 'o'},
	                                     {"no-fork", no_argument, NULL, 'f'},
	                                     {"no-early", no_argument, NULL, 'e'},
	                                     {"no-attribution", no_argument, NULL, 'a'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
		char *e;
		switch (c) {
		case 'F': o->follow = true; break;
		case 'D': o->detach = true; break;
		case 'l': o->log = optarg; break;
		case 'o': o->on_done = optarg; break;
		case 'f': o->run.no_fork = true; break;
		case 'e': o->run.no_early = true; break;
		case 'a': o->run.no_attr = true; break;
		case 'p':
			o->poll = strtod(optarg, &e);
			if (*e || !(o->poll >= 0.1 && o->poll <= 3600))
				return eng_usage_error("daemon", "--poll: expected seconds in 0.1..3600, got '%s'", optarg);
			break;
		case 'j':
			if (eng_parse_workers(optarg, &o->run.jobs))
				return eng_usage_error("daemon", "-j: expected a number of workers in 1..%d, got '%s'",
				                       ENG_MAX_WORKERS, optarg);
			break;
		case 'h': eng_daemon_help(stdout); return ENG_EXIT_OK;
		default: return eng_usage_error("daemon", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return eng_usage_error("daemon", "missing the database");
	if (optind + 1 < argc)
		return eng_usage_error("daemon", "unexpected argument '%s'", argv[optind + 1]);
	if (o->log && !o->detach)
		return eng_usage_error("daemon", "--log goes with --detach (in the foreground, redirect the output)");
	o->db = argv[optind];
	return -1;
}

/* R.db's absolute path (its folder must exist) into o->abs. */
static int absolute_db(dopts_t *o)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", o->db);
	char *slash = strrchr(tmp, '/');
	const char *base = slash ? slash + 1 : tmp;
	if (slash)
		*slash = '\0';
	if (!realpath(slash ? (tmp[0] ? tmp : "/") : ".", dir)) {
		eng_errorf("%s: %s", o->db, strerror(errno));
		return ENG_EINPUT;
	}
	if (snprintf(o->abs, sizeof o->abs, "%s/%s", strcmp(dir, "/") ? dir : "", base) >= (int)sizeof o->abs) {
		eng_errorf("%s: path too long", o->db);
		return ENG_EINPUT;
	}
	return 0;
}

/* The daemon proper, in this process: lock, database, queue. ready: a
 * pipe's write end to report "ok" or the error to a detaching parent (-1:
 * none). */
static int daemon_run(dopts_t *o, int ready)
{
	char err[3 * PATH_MAX + 256];
	int lock = take_lock(o->abs, err, sizeof err);
	db_t *db = NULL;
	int rc = 0;
	if (lock < 0) {
		rc = ENG_EINPUT;
	} else if ((rc = db_open(o->abs, true, &db, err, sizeof err))) {
		rc = eng_db_err(rc);
	}
	if (ready >= 0) {
		dprintf(ready, "%s\n", rc ? err : "ok");
		close(ready);
	}
	if (rc) {
		eng_errorf("%s", err);
		return eng_exit_status(rc);
	}
	o->run.db_path = o->abs;
	o->run.daemon_row = eng_daemon_register(db);
	char when[32];
	printf("%s daemon: pid %ld serves %s%s\n", eng_iso_time(eng_wall_clock(), when, sizeof when), (long)getpid(),
	       o->abs, o->follow ? " (following the queue)" : "");
	fflush(stdout);
	int status = serve(o, db);
	if (o->run.daemon_row)
		db_daemon_end(db, o->run.daemon_row, eng_wall_clock());
	db_close(db);
	close(lock);
	return status;
}

/* --detach: the daemon in a child of a new session, its output to the
 * log; this process waits until it holds the lock and the database. */
static int detach(dopts_t *o)
{
	char log[PATH_MAX + 8];
	snprintf(log, sizeof log, "%s", o->log ? o->log : o->abs);
	if (!o->log)
		strcat(log, ".log");
	int fds[2];
	if (pipe(fds)) {
		eng_errorf("daemon: pipe: %s", strerror(errno));
		return ENG_EXIT_INTERNAL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		eng_errorf("daemon: fork: %s", strerror(errno));
		return ENG_EXIT_INTERNAL;
	}
	if (pid == 0) {
		close(fds[0]);
		setsid();
		int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (in < 0 || out < 0) {
			dprintf(fds[1], "%s: %s\n", log, strerror(errno));
			_exit(ENG_EXIT_INPUT);
		}
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		close(in);
		close(out);
		_exit(daemon_run(o, fds[1]));
	}
	close(fds[1]);
	char msg[3 * PATH_MAX + 256] = "";
	ssize_t k = read(fds[0], msg, sizeof msg - 1);
	close(fds[0]);
	msg[k > 0 ? k : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	if (strcmp(msg, "ok")) {
		int st = 0;
		waitpid(pid, &st, 0);
		eng_errorf("%s", msg[0] ? msg : "daemon: the background process ended at once");
		return WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) : ENG_EXIT_INPUT;
	}
	printf("flipsim daemon: pid %ld serves %s; log: %s\n", (long)pid, o->abs, log);
	return ENG_EXIT_OK;
}

int eng_daemon_main(int argc, char **argv)
{
	dopts_t o = {.poll = 5, .run = {.jobs = eng_default_workers(eng_available_cpus())}};
	int rc = daemon_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if ((rc = absolute_db(&o)))
		return eng_exit_status(rc);
	catch_stops();
	return o.detach ? detach(&o) : daemon_run(&o, -1);
}

/* ---------------------------------------------------------------- stop */
void eng_stop_help(FILE *out)
{
	fputs("usage: flipsim stop R.db [--timeout S]\n"
	      "\n"
	      "Stops the daemon that runs R.db's queue (flipsim daemon) gracefully: it\n"
	      "commits what its workers finished, the campaign it was running stays\n"
	      "queued and resumes when a daemon runs again. Waits until it has exited,\n"
	      "at most S seconds (default 60).\n"
	      "\n"
	      "exit status: 0 stopped (or none was running), 1 still running after S\n"
	      "seconds, 2 bad usage or a daemon on another host\n", out);
}

int eng_stop_main(int argc, char **argv)
{
	const char *db = NULL;
	double timeout = 60;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			eng_stop_help(stdout);
			return ENG_EXIT_OK;
		} else if (!strcmp(argv[i], "--timeout")) {
			char *e;
			if (i + 1 >= argc)
				return eng_usage_error("stop", "option '--timeout' needs a value");
			timeout = strtod(argv[++i], &e);
			if (*e || !(timeout >= 0 && timeout <= 86400))
				return eng_usage_error("stop", "--timeout: expected seconds in 0..86400, got '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return eng_usage_error("stop", "unknown option '%s'", argv[i]);
		} else if (db) {
			return eng_usage_error("stop", "unexpected argument '%s'", argv[i]);
		} else {
			db = argv[i];
		}
	}
	if (!db)
		return eng_usage_error("stop", "missing the database");
	dopts_t o = {.db = db};
	if (absolute_db(&o))
		return ENG_EXIT_INPUT;
	long pid;
	char host[256], here[256] = "?";
	gethostname(here, sizeof here - 1);
	if (!eng_daemon_holder(o.abs, &pid, host, sizeof host)) {
		printf("no daemon runs %s\n", db);
		return ENG_EXIT_OK;
	}
	if (strcmp(host, here) || pid <= 0) {
		eng_errorf("%s: its daemon runs on %s (pid %ld): run flipsim stop there", db, host, pid);
		return ENG_EXIT_INPUT;
	}
	if (kill((pid_t)pid, SIGTERM)) {
		eng_errorf("%s: cannot signal the daemon (pid %ld): %s", db, pid, strerror(errno));
		return ENG_EXIT_INTERNAL;
	}
	for (double t = 0; t <= timeout; t += 0.1) {
		long p2;
		char h2[256];
		if (!eng_daemon_holder(o.abs, &p2, h2, sizeof h2)) {
			printf("stopped the daemon of %s (pid %ld)\n", db, pid);
			return ENG_EXIT_OK;
		}
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
	eng_errorf("%s: the daemon (pid %ld) still runs after %g s", db, pid, timeout);
	return ENG_EXIT_INTERNAL;
}
