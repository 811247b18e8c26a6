/* Commands that read: `flipsim status R.db` (progress of every campaign,
 * running or stopped), `flipsim report R.db [--study] [--csv|--json]` (the
 * AVF, FIT and MITF views, or the GUFI-style study tables), and `flipsim
 * sample-size` (Leveugle's formula). */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "eng_int.h"

static int open_existing(const char *path, db_t **db)
{
	char err[1024];
	int rc = db_open(path, false, db, err, sizeof err);
	if (rc) {
		eng_errorf("%s", err);
		return eng_db_status(rc);
	}
	return 0;
}

void eng_status_help(FILE *out)
{
	fputs("usage: flipsim status R.db\n"
	      "\n"
	      "Shows every campaign of the database: experiments done of planned,\n"
	      "outcome counts, the share stopped early or masked without simulation,\n"
	      "and the AVF so far with its confidence interval. Safe while a campaign\n"
	      "runs (the database is in WAL mode: readers do not block the writer).\n"
	      "\n"
	      "exit status: 0, 1 internal failure, 2 when the file is missing, not a\n"
	      "flipsim database, damaged, written by a newer flipsim or cannot be read.\n"
	      "The database is opened read-only: status never writes it.\n", out);
}

int eng_status_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		eng_status_help(stdout);
		return 0;
	}
	if (argc != 2)
		return eng_usage_error("status", argc < 2 ? "missing database file" : "too many arguments");
	db_t *db;
	int rc = open_existing(argv[1], &db);
	if (rc)
		return rc;
	db_campaign_info_t *list;
	size_t n;
	if ((rc = db_campaigns_list(db, &list, &n))) {
		eng_errorf("%s", db_errmsg(db));
		db_close(db);
		return eng_db_status(rc);
	}
	printf("%-28s %-8s %-8s %15s %7s %6s %6s %6s %6s %6s %22s\n", "campaign", "target", "sampling", "done/planned",
	       "masked", "sdc", "due", "early", "unused", "dead", "AVF [interval]");
	for (size_t i = 0; i < n; i++) {
		const db_progress_t *p = &list[i].progress;
		char done[40], avf[64] = "-";
		snprintf(done, sizeof done, "%" PRIu64 "/%" PRIu64, p->done, p->n_masks);
		if (p->done)
			snprintf(avf, sizeof avf, "%.2f%% [%.2f, %.2f]", 100 * p->avf, 100 * p->avf_lo, 100 * p->avf_hi);
		printf("%-28.28s %-8s %-8s %15s %7" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
		       " %22s\n", list[i].name, list[i].target, list[i].sampling, done, p->masked, p->sdc, p->due, p->early,
		       p->unused, p->dead, avf);
	}
	db_campaigns_free(list, n);
	db_close(db);
	return 0;
}

void eng_report_help(FILE *out)
{
	fputs("usage: flipsim report R.db [--study] [--csv | --json]\n"
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
	      "The database is opened read-only: report never writes it.\n"
	      "\n"
	      "exit status: 0, 1 internal failure, 2 bad input or a database that\n"
	      "cannot be used (missing, not flipsim's, damaged, newer)\n", out);
}

int eng_report_main(int argc, char **argv)
{
	int format = DB_TEXT;
	bool study = false;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			eng_report_help(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "--json")) {
			int f = !strcmp(argv[i], "--csv") ? DB_CSV : DB_JSON;
			if (format != DB_TEXT && format != f)
				return eng_usage_error("report", "--csv and --json exclude each other");
			format = f;
		} else if (!strcmp(argv[i], "--study")) {
			study = true;
		} else if (argv[i][0] == '-') {
			return eng_usage_error("report", "unknown option '%s'", argv[i]);
		} else if (path) {
			return eng_usage_error("report", "too many arguments");
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return eng_usage_error("report", "missing database file");
	db_t *db;
	int rc = open_existing(path, &db);
	if (rc)
		return rc;
	char err[1024];
	if ((rc = (study ? db_report_study : db_report)(db, format, stdout, err, sizeof err))) {
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
