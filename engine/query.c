/* Commands that read: `flipsim status R.db [--json]` (progress of every
 * campaign, running, stopped or finished, from the daemons' heartbeats), `flipsim report R.db [--study] [--csv [DIR]|--json] [--html F] [--svg DIR]` (the
 * AVF, FIT and MITF views, or the GUFI-style study tables, as text or figures: db/html.c), and `flipsim
 * sample-size` (Leveugle's formula). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "eng_int.h"

/* The database at path, which must exist. Returns 0 or an error code
 * (message printed). */
static int open_existing(const char *path, db_t **db)
{
	char err[1024];
	int rc = db_open(path, false, db, err, sizeof err);
	if (rc) {
		eng_errorf("%s", err);
		return eng_db_err(rc);
	}
	return 0;
}

void eng_status_help(FILE *out)
{
	fputs("usage: flipsim status R.db [--json]\n"
	      "\n"
	      "Shows every campaign of the database: its id and creation time, whether\n"
	      "it is running, stopped or finished, experiments done of planned, outcome\n"
	      "counts, the share stopped early or masked without simulation, the AVF\n"
	      "so far with its confidence interval and, while it runs, the time left\n"
	      "(h:mm:ss at the daemon's rate). running: the `flipsim run` working on\n"
	      "it has beaten in the last 3 heartbeats (10 s apart) and, on this\n"
	      "machine, its process exists; stopped: killed, interrupted or failed\n"
	      "(run the same command to resume); finished: every experiment stored\n"
	      "(a sequential campaign: stopped by its rule, said below the table).\n"
	      "Campaigns that share a name (the file was edited: a new definition is\n"
	      "a new campaign) are pointed out. A database that runs one shard of a\n"
	      "campaign (run --shard I/N) plans that share of its masks; one with shards\n"
	      "merged in (flipsim merge) lists them, each with its experiments, and those\n"
	      "missing. Reads only, safe while a campaign runs.\n"
	      "\n"
	      "--json   an array of objects: id, name, created, state, done, total,\n"
	      "         counts {masked, sdc, due, early, unused, dead}, avf, avf_lo,\n"
	      "         avf_hi, stratified, looks (0 unless sequential), stop (null, or\n"
	      "         {reason: \"margin\" | \"max\", n}), eta_seconds (null unless\n"
	      "         running), daemon {pid, host,\n"
	      "         started, heartbeat} (null when none ran it; times ISO-8601 UTC),\n"
	      "         shards (null unless run --shard or merged: {of, in [{shard,\n"
	      "         origin, done, planned, host, source}], missing [...]})\n"
	      "\n"
	      "exit status: 0, 1 internal failure, 2 when the file is missing, not a\n"
	      "flipsim database, damaged, written by a newer flipsim or cannot be read.\n"
	      "The database is opened read-only: status never writes it.\n", out);
}

/* A campaign's row of status: what the database says and what it means. */
typedef struct status_row {
	const db_campaign_info_t *c;
	db_daemon_t d;
	bool has_daemon;
	eng_state_t state;
	double eta;               /* seconds, NaN unless running at a known rate */
	int64_t namesake;         /* the newest other campaign of this name, or 0 */
	db_shard_t *shards;       /* its shard rows (schema 12), nshards of them */
	size_t nshards;
} status_row_t;

static int status_rows(db_t *db, const db_campaign_info_t *list, size_t n, status_row_t *rows)
{
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	double now = eng_wall_clock();
	for (size_t i = 0; i < n; i++) {
		status_row_t *r = &rows[i];
		const db_progress_t *p = &list[i].progress;
		r->c = &list[i];
		int rc = db_daemon_of(db, list[i].id, &r->d);
		if (rc && rc != DB_ENOTFOUND)
			return rc;
		r->has_daemon = rc == 0;
		if ((rc = db_shards_list(db, list[i].id, &r->shards, &r->nshards)))
			return rc;
		r->state = eng_campaign_state(p, r->has_daemon ? &r->d : NULL, now, host, eng_pid_alive);
		r->eta = r->state == ENG_RUNNING && r->d.rate > 0 ? (double)(p->n_masks - p->done) / r->d.rate : NAN;
		for (size_t k = 0; k < n; k++)
			if (k != i && !strcmp(list[k].name, list[i].name) && list[k].id > r->namesake)
				r->namesake = list[k].id;
	}
	return 0;
}

/* The shards line of a campaign: the one this database runs, or those
 * merged in and those still missing. */
static void status_shards_text(const status_row_t *r)
{
	const db_shard_t *sh = r->shards;
	uint32_t of = sh[0].nshards;
	if (r->nshards == 1 && !strcmp(sh[0].origin, "run")) {
		printf("campaign %" PRId64 " (%s): shard %u of %u (run on %s): %" PRIu64 "/%" PRIu64 " of its masks done; "
		       "merge it with the others (flipsim merge)\n", r->c->id, r->c->name, sh[0].shard, of, sh[0].host,
		       sh[0].done, sh[0].planned);
		return;
	}
	printf("campaign %" PRId64 " (%s): shards in, of %u:", r->c->id, r->c->name, of);
	for (size_t k = 0; k < r->nshards; k++)
		printf(" %u (%" PRIu64 "/%" PRIu64 "%s)", sh[k].shard, sh[k].done, sh[k].planned,
		       sh[k].done < sh[k].planned ? ", unfinished" : "");
	size_t k = 0, missing = 0;
	for (uint32_t i = 0; i < of; i++) {
		while (k < r->nshards && sh[k].shard < i)
			k++;
		if (k < r->nshards && sh[k].shard == i)
			continue;
		printf("%s%u", missing++ ? ", " : "; missing: ", i);
	}
	puts(missing ? "" : "; all in");
}

static void status_text(const status_row_t *rows, size_t n)
{
	printf("%4s %-24s %-20s %-8s %-8s %-8s %15s %7s %6s %6s %6s %6s %6s %22s %9s\n", "id", "campaign", "created",
	       "state", "target", "sampling", "done/planned", "masked", "sdc", "due", "early", "unused", "dead",
	       "AVF [interval]", "ETA");
	for (size_t i = 0; i < n; i++) {
		const db_campaign_info_t *c = rows[i].c;
		const db_progress_t *p = &c->progress;
		char done[40], avf[64] = "-", eta[32];
		snprintf(done, sizeof done, "%" PRIu64 "/%" PRIu64, p->done, p->n_masks);
		if (p->done)
			snprintf(avf, sizeof avf, "%.2f%% [%.2f, %.2f]", 100 * p->avf, 100 * p->avf_lo, 100 * p->avf_hi);
		printf("%4" PRId64 " %-24.24s %-20s %-8s %-8s %-8s %15s %7" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
		       " %6" PRIu64 " %6" PRIu64 " %22s %9s\n", c->id, c->name, c->created, eng_state_name(rows[i].state),
		       c->target, c->sampling, done, p->masked, p->sdc, p->due, p->early, p->unused, p->dead, avf,
		       eng_hms(rows[i].eta, eta, sizeof eta));
	}
	for (size_t i = 0; i < n; i++) {
		const status_row_t *r = &rows[i];
		char when[32];
		if (r->state == ENG_RUNNING)
			printf("campaign %" PRId64 " (%s): run by pid %" PRId64 " on %s, last heartbeat %s, %.1f experiments/s\n",
			       r->c->id, r->c->name, r->d.pid, r->d.host, eng_iso_time(r->d.heartbeat, when, sizeof when),
			       r->d.rate);
		const db_progress_t *p = &r->c->progress;
		if (p->stratified)
			printf("campaign %" PRId64 " (%s): stratified by kernel: its AVF is the stratified estimator (view "
			       "avf), each kernel weighted by its share of the cycles\n", r->c->id, r->c->name);
		if (p->stop[0])
			printf("campaign %" PRId64 " (%s): sequential, stopped at n = %" PRIu64 " of at most %" PRIu64 ": %s; "
			       "its interval holds at %d looks together\n", r->c->id, r->c->name, p->stop_n, p->n_masks,
			       strcmp(p->stop, "margin") ? "the most injections reached" : "the interval was narrow enough",
			       (int)p->looks);
		else if (p->looks)
			printf("campaign %" PRId64 " (%s): sequential, %d looks, at most %" PRIu64 " injections\n", r->c->id,
			       r->c->name, (int)p->looks, p->n_masks);
		if (r->nshards)
			status_shards_text(r);
		if (r->namesake > r->c->id)
			printf("campaign %" PRId64 " (%s): an older definition; campaign %" PRId64 " has the same name and "
			       "another definition (the campaign, workload, program or GPU was changed)\n", r->c->id,
			       r->c->name, r->namesake);
	}
}

/* s as a JSON string. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* A double as JSON: null when NaN or infinite. */
static void json_num(double v)
{
	if (isfinite(v))
		printf("%.17g", v);
	else
		fputs("null", stdout);
}

static void status_json_daemon(const status_row_t *r)
{
	char when[32];
	if (!r->has_daemon) {
		fputs("null", stdout);
		return;
	}
	printf("{\"pid\": %" PRId64 ", \"host\": ", r->d.pid);
	json_str(r->d.host);
	printf(", \"started\": \"%s\"", eng_iso_time(r->d.started, when, sizeof when));
	printf(", \"heartbeat\": \"%s\"}", eng_iso_time(r->d.heartbeat, when, sizeof when));
}

/* null, or {"of": N, "in": [{shard, origin, done, planned, host,
 * source}...], "missing": [...]}. */
static void status_json_shards(const status_row_t *r)
{
	if (!r->nshards) {
		fputs("null", stdout);
		return;
	}
	uint32_t of = r->shards[0].nshards;
	printf("{\"of\": %u, \"in\": [", of);
	for (size_t k = 0; k < r->nshards; k++) {
		const db_shard_t *s = &r->shards[k];
		printf("%s{\"shard\": %u, \"origin\": \"%s\", \"done\": %" PRIu64 ", \"planned\": %" PRIu64
		       ", \"host\": ", k ? ", " : "", s->shard, s->origin, s->done, s->planned);
		json_str(s->host);
		printf(", \"source\": ");
		if (s->source[0])
			json_str(s->source);
		else
			fputs("null", stdout);
		putchar('}');
	}
	fputs("], \"missing\": [", stdout);
	size_t k = 0;
	bool first = true;
	for (uint32_t i = 0; i < of; i++) {
		while (k < r->nshards && r->shards[k].shard < i)
			k++;
		if (k < r->nshards && r->shards[k].shard == i)
			continue;
		printf("%s%u", first ? "" : ", ", i);
		first = false;
	}
	fputs("]}", stdout);
}

static void status_json(const status_row_t *rows, size_t n)
{
	putchar('[');
	for (size_t i = 0; i < n; i++) {
		const status_row_t *r = &rows[i];
		const db_progress_t *p = &r->c->progress;
		printf("%s\n  {\"id\": %" PRId64 ", \"name\": ", i ? "," : "", r->c->id);
		json_str(r->c->name);
		printf(", \"created\": ");
		json_str(r->c->created);
		printf(", \"state\": \"%s\", \"done\": %" PRIu64 ", \"total\": %" PRIu64, eng_state_name(r->state),
		       p->done, p->n_masks);
		printf(", \"counts\": {\"masked\": %" PRIu64 ", \"sdc\": %" PRIu64 ", \"due\": %" PRIu64
		       ", \"early\": %" PRIu64 ", \"unused\": %" PRIu64 ", \"dead\": %" PRIu64 "}",
		       p->masked, p->sdc, p->due, p->early, p->unused, p->dead);
		printf(", \"avf\": ");
		json_num(p->avf);
		printf(", \"avf_lo\": ");
		json_num(p->avf_lo);
		printf(", \"avf_hi\": ");
		json_num(p->avf_hi);
		printf(", \"stratified\": %s, \"looks\": %d, \"stop\": ", p->stratified ? "true" : "false",
		       (int)p->looks);
		if (p->stop[0])
			printf("{\"reason\": \"%s\", \"n\": %" PRIu64 "}", p->stop, p->stop_n);
		else
			fputs("null", stdout);
		printf(", \"eta_seconds\": ");
		json_num(isnan(r->eta) ? NAN : round(r->eta));
		printf(", \"daemon\": ");
		status_json_daemon(r);
		printf(", \"shards\": ");
		status_json_shards(r);
		putchar('}');
	}
	fputs(n ? "\n]\n" : "]\n", stdout);
}

/* The queue of `flipsim submit`, when it has entries, and its daemon. */
static int status_queue(db_t *db, const char *path)
{
	db_queue_t *q = NULL;
	size_t n = 0;
	int rc = db_queue_list(db, &q, &n);
	if (rc || !n) {
		free(q);
		return rc;
	}
	size_t count[4] = {0};
	static const char *const states[4] = {"queued", "running", "done", "failed"};
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			count[k] += !strcmp(q[i].state, states[k]);
	printf("\nqueue: %zu queued, %zu running, %zu done, %zu failed\n", count[0], count[1], count[2], count[3]);
	printf("%5s %-8s %-24s %-20s %-20s %-20s %s\n", "entry", "state", "campaign", "submitted", "started", "finished",
	       "file");
	for (size_t i = 0; i < n; i++) {
		char a[32], b[32] = "-", c[32] = "-";
		eng_iso_time(q[i].submitted, a, sizeof a);
		if (!isnan(q[i].started))
			eng_iso_time(q[i].started, b, sizeof b);
		if (!isnan(q[i].finished))
			eng_iso_time(q[i].finished, c, sizeof c);
		printf("%5" PRId64 " %-8s %-24.24s %-20s %-20s %-20s %s\n", q[i].id, q[i].state, q[i].name, a, b, c,
		       q[i].file);
		if (q[i].message[0])
			printf("      entry %" PRId64 ": %s\n", q[i].id, q[i].message);
	}
	free(q);
	long pid;
	char host[256];
	if (eng_daemon_holder(path, &pid, host, sizeof host))
		printf("daemon: pid %ld on %s serves the queue (flipsim stop %s stops it)\n", pid, host, path);
	else if (count[0] || count[1])
		printf("daemon: none runs; `flipsim daemon %s` runs the queue\n", path);
	return 0;
}

int eng_status_main(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			eng_status_help(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] == '-') {
			return eng_usage_error("status", "unknown option '%s'", argv[i]);
		} else if (path) {
			return eng_usage_error("status", "too many arguments");
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return eng_usage_error("status", "missing database file");
	db_t *db;
	int rc = open_existing(path, &db);
	if (rc)
		return eng_exit_status(rc);
	db_campaign_info_t *list = NULL;
	status_row_t *rows = NULL;
	size_t n = 0;
	if ((rc = db_campaigns_list(db, &list, &n)))
		goto fail;
	if (!(rows = calloc(n ? n : 1, sizeof *rows))) {
		rc = DB_ENOMEM;
		goto fail;
	}
	if ((rc = status_rows(db, list, n, rows)))
		goto fail;
	(json ? status_json : status_text)(rows, n);
	if (!json && (rc = status_queue(db, path)))
		goto fail;
	goto out;
fail:
	eng_errorf("%s", rc == DB_ENOMEM && !rows ? "out of memory" : db_errmsg(db));
	rc = eng_db_status(rc);
out:
	for (size_t i = 0; rows && i < n; i++)
		free(rows[i].shards);
	free(rows);
	db_campaigns_free(list, n);
	db_close(db);
	return rc;
}

void eng_report_help(FILE *out)
{
	fputs("usage: flipsim report R.db [--study] [--csv [DIR] | --json]\n"
	      "       flipsim report R.db [--html OUT.html] [--svg DIR] [--csv DIR]\n"
	      "\n"
	      "Prints the tables of the database's views: avf (per campaign: n, masked,\n"
	      "sdc, due, AVF with its Wilson interval, derating factor, derated AVF),\n"
	      "avf_kernel (the same per kernel, its invocations together, with its share\n"
	      "of the experiments and its contribution to the campaign's AVF), fit (per\n"
	      "structure at the campaign's FIT per bit) and mitf (the GPU's FIT, IPC,\n"
	      "IPC/FIT, MITF). AVF per kernel invocation: SQL on the view avf.\n"
	      "\n"
	      "--study prints the study of GUFI's section VI instead, applications as\n"
	      "rows, structures as columns, from the newest application-scope campaign of\n"
	      "each application and structure: outcome shares (Figures 3-7), AVF with\n"
	      "intervals (Figure 8), FIT per structure and for the GPU (Figure 9), IPC/FIT\n"
	      "(Figure 10), and each kernel's part of the AVF (Table IV). With --csv or\n"
	      "--json: the rows of the views study, study_gpu and study_kernel.\n"
	      "Text by default.\n"
	      "\n"
	      "--csv alone prints the tables as CSV blocks on stdout, one after another;\n"
	      "--csv DIR writes one file per table instead, DIR/avf.csv, DIR/avf_kernel.csv,\n"
	      "DIR/fit.csv, DIR/mitf.csv, DIR/protection_summary.csv, DIR/avf_insn.csv,\n"
	      "DIR/avf_vreg.csv, DIR/sdc_severity.csv (with --study: DIR/study.csv,\n"
	      "DIR/study_gpu.csv, DIR/study_kernel.csv), each with one header line.\n"
	      "--html OUT.html writes one self-contained page (inline SVG, no script) with\n"
	      "the figures (outcomes, AVF, FIT, IPC/FIT, kernels, campaigns, insn, vreg,\n"
	      "and protection when a campaign is protected), each beside its table and\n"
	      "the SQL it comes from; --svg DIR writes each figure as DIR/NAME.svg.\n"
	      "DIR must be a writable folder (it is made when its parent exists).\n"
	      "\n"
	      "The database is opened read-only: report never writes it.\n"
	      "\n"
	      "exit status: 0, 1 internal failure, 2 bad input, a database that\n"
	      "cannot be used (missing, not flipsim's, damaged, newer) or an output\n"
	      "that cannot be written\n", out);
}

/* DIR of --svg or --csv: an existing, writable folder, or one made here.
 * Returns 0 or ENG_EINPUT (message printed). */
static int output_dir(const char *opt, const char *dir)
{
	struct stat sb;
	if (stat(dir, &sb) != 0) {
		if (errno != ENOENT || mkdir(dir, 0777) != 0) {
			eng_errorf("%s %s: cannot make the folder: %s", opt, dir, strerror(errno));
			return ENG_EINPUT;
		}
		return 0;
	}
	if (!S_ISDIR(sb.st_mode)) {
		eng_errorf("%s %s: not a folder (expected a folder for the output files)", opt, dir);
		return ENG_EINPUT;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		eng_errorf("%s %s: the folder is not writable", opt, dir);
		return ENG_EINPUT;
	}
	return 0;
}

/* The outputs of `report`: which format on stdout, and files. */
typedef struct {
	int format;
	bool study;
	const char *path, *html, *svg_dir, *csv_dir;
} report_args_t;

/* Returns 0, -1 after --help, or a usage error's exit status (message
 * printed). `--csv` alone keeps its old meaning (CSV on stdout); `--csv DIR` takes
 * the next argument when it is not an option and the database is named
 * elsewhere: `report R.db --csv DIR`, `report --csv DIR R.db`, but
 * `report --csv R.db` is the old form. */
static int report_args(int argc, char **argv, report_args_t *a)
{
	const char *pos[3] = {0};
	int npos = 0, csv_next = -1; /* index in pos of the argument right after --csv */
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			eng_report_help(stdout);
			return -1;
		} else if (!strcmp(o, "--csv") || !strcmp(o, "--json")) {
			int f = !strcmp(o, "--csv") ? DB_CSV : DB_JSON;
			if (a->format != DB_TEXT && a->format != f)
				return eng_usage_error("report", "--csv and --json exclude each other");
			a->format = f;
			if (f == DB_CSV && i + 1 < argc && argv[i + 1][0] != '-')
				csv_next = npos;
		} else if (!strcmp(o, "--html") || !strcmp(o, "--svg")) {
			if (i + 1 >= argc || !argv[i + 1][0])
				return eng_usage_error("report", "%s needs %s", o, o[2] == 'h' ? "a file name" : "a folder");
			*(o[2] == 'h' ? &a->html : &a->svg_dir) = argv[++i];
		} else if (!strcmp(o, "--study")) {
			a->study = true;
		} else if (o[0] == '-') {
			return eng_usage_error("report", "unknown option '%s'", o);
		} else if (npos == 2) {
			return eng_usage_error("report", "too many arguments");
		} else {
			pos[npos++] = o;
		}
	}
	if (npos == 2 && csv_next >= 0) {
		a->csv_dir = pos[csv_next];
		a->path = pos[1 - csv_next];
	} else if (npos == 2) {
		return eng_usage_error("report", "too many arguments");
	} else {
		a->path = pos[0];
	}
	if (!a->path)
		return eng_usage_error("report", "missing database file");
	if (a->format == DB_JSON && (a->html || a->svg_dir))
		return eng_usage_error("report", "--json prints to stdout: not with --html or --svg");
	if (a->format == DB_CSV && !a->csv_dir && (a->html || a->svg_dir))
		return eng_usage_error("report", "--csv with --html or --svg needs its folder: --csv DIR");
	return 0;
}

int eng_report_main(int argc, char **argv)
{
	report_args_t a = {.format = DB_TEXT};
	int rc = report_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc; /* --help, or the usage error's status */
	db_t *db;
	if ((rc = open_existing(a.path, &db)))
		return eng_exit_status(rc);
	if ((a.svg_dir && (rc = output_dir("--svg", a.svg_dir))) ||
	    (a.csv_dir && (rc = output_dir("--csv", a.csv_dir)))) {
		db_close(db);
		return eng_exit_status(rc);
	}
	char err[1024];
	const char *slash = strrchr(a.path, '/');
	if (a.html || a.svg_dir)
		rc = db_report_html(db, slash ? slash + 1 : a.path, a.html, a.svg_dir, err, sizeof err);
	else if (a.csv_dir)
		rc = 0;
	else
		rc = (a.study ? db_report_study : db_report)(db, a.format, stdout, err, sizeof err);
	if (!rc && a.csv_dir)
		rc = db_report_csv_dir(db, a.study, a.csv_dir, err, sizeof err);
	if (rc) {
		eng_errorf("%s", err);
		rc = eng_db_status(rc);
	}
	db_close(db);
	return rc;
}

void eng_sample_size_help(FILE *out)
{
	fputs("usage: flipsim sample-size --confidence C --margin E [--population N] [--p P]\n"
	      "\n"
	      "Prints the number of injections for error margin E at confidence C\n"
	      "(Leveugle et al., DATE 2009):\n"
	      "  n = N / (1 + E^2 (N - 1) / (t^2 P (1 - P)))\n"
	      "with t the two-sided normal quantile of C, N the fault population\n"
	      "(default: infinite) and P the expected failure probability (default 0.5).\n"
	      "C, E and P may be fractions (0.95) or percentages (95%).\n"
	      "\n"
	      "exit status: 0, 2 bad input\n", out);
}

static int parse_fraction(const char *s, double *v)
{
	char *e;
	double x = strtod(s, &e);
	if (e == s)
		return -1;
	if (*e == '%') {
		x /= 100;
		e++;
	}
	if (*e || !(x > 0 && x < 1))
		return -1;
	*v = x;
	return 0;
}

int eng_sample_size_main(int argc, char **argv)
{
	static const struct option opts[] = {{"confidence", required_argument, NULL, 'c'},
	                                     {"margin", required_argument, NULL, 'm'},
	                                     {"population", required_argument, NULL, 'n'},
	                                     {"p", required_argument, NULL, 'p'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	double conf = NAN, margin = NAN, pop = 0, p = 0.5;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_fraction(optarg, &conf))
				return eng_usage_error("sample-size", "--confidence: expected a value in (0, 1), got '%s'", optarg);
			break;
		case 'm':
			if (parse_fraction(optarg, &margin))
				return eng_usage_error("sample-size", "--margin: expected a value in (0, 1), got '%s'", optarg);
			break;
		case 'p':
			if (parse_fraction(optarg, &p))
				return eng_usage_error("sample-size", "--p: expected a value in (0, 1), got '%s'", optarg);
			break;
		case 'n': {
			char *e;
			pop = strtod(optarg, &e);
			if (*e || !(pop >= 1))
				return eng_usage_error("sample-size", "--population: expected a number >= 1, got '%s'", optarg);
			break;
		}
		case 'h': eng_sample_size_help(stdout); return 0;
		default: return eng_usage_error("sample-size", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return eng_usage_error("sample-size", "unexpected argument '%s'", argv[optind]);
	if (isnan(conf) || isnan(margin))
		return eng_usage_error("sample-size", "--confidence and --margin are required");
	uint64_t n;
	if (mask_sample_size(conf, margin, pop, p, &n))
		return eng_usage_error("sample-size", "no sample size for these values");
	printf("%" PRIu64 "\n", n);
	return 0;
}
