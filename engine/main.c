/* The flipsim command line: dispatches to one command per source file.
 * Commands and exit statuses are listed in eng_int.h and in --help. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_int.h"
#include "simcore.h"

static const struct {
	const char *name;
	const char *summary;  /* NULL: internal, works but --help does not list it */
	int (*main)(int argc, char **argv);
	void (*help)(FILE *out);
} commands[] = {
	{"exec", "run a workload once on the simulator; dump outputs or print statistics",
	 eng_exec_main, eng_exec_help},
	{"profile", "golden run: per-invocation occupancy, derating factors, IPC, output digests",
	 eng_profile_main, eng_profile_help},
	{"run", "run fault-injection campaigns into a SQLite database (resumable)", eng_run_main, eng_run_help},
	{"status", "progress of the campaigns in a database, running or stopped", eng_status_main, eng_status_help},
	{"merge", "merge databases of campaign shards (run --shard I/N) into one", eng_merge_main, eng_merge_help},
	{"submit", "queue campaigns in a database for its daemon", eng_submit_main, eng_submit_help},
	{"daemon", "run a database's queue of campaigns, in the background if asked", eng_daemon_main, eng_daemon_help},
	{"stop", "stop the daemon of a database gracefully", eng_stop_main, eng_stop_help},
	{"report", "AVF, FIT and MITF tables of a database, or its GUFI-style study (text, CSV or JSON)", eng_report_main, eng_report_help},
	{"sample-size", "injections needed for a margin and confidence (Leveugle et al.)", eng_sample_size_main,
	 eng_sample_size_help},
	{"worker", NULL, eng_worker_main, eng_worker_help},  /* the runner process 'run' starts */
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void help(FILE *out)
{
	fputs("usage: flipsim COMMAND [ARGS...]\n"
	      "       flipsim --help | --version\n"
	      "\n"
	      "Statistical fault injection on an embedded GPU SM simulator.\n"
	      "\n"
	      "commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (commands[i].summary)
			fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "options:\n"
	      "  -h, --help     print this help and exit\n"
	      "  --version      print the version and exit\n"
	      "\n"
	      "Run 'flipsim COMMAND --help' for a command's arguments.\n"
	      "\n"
	      "exit status:\n"
	      "  0  success\n"
	      "  1  internal failure (out of memory, cannot write results)\n"
	      "  2  bad input (command line, JSON, PTX, unknown kernel or GPU, launch too large)\n"
	      "  3  the simulated program ended in a DUE\n", out);
}

int main(int argc, char **argv)
{
	/* A write past RLIMIT_FSIZE (ulimit -f) then fails with EFBIG and is
	 * reported ("the file reached a size limit"), instead of killing us
	 * silently. Programs flipsim starts get the default back (hostrun.c;
	 * libuv resets it for workers). */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2)
		return eng_usage_error(NULL, "missing command");
	const char *a = argv[1];
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		help(stdout);
		return ENG_EXIT_OK;
	}
	if (!strcmp(a, "--version")) {
		printf("flipsim %s\n", SC_VERSION);
		return ENG_EXIT_OK;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(a, commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	if (a[0] == '-')
		return eng_usage_error(NULL, "unknown option '%s'", a);
	return eng_usage_error(NULL, "unknown command '%s'", a);
}
