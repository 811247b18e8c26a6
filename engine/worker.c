/* `flipsim worker`: the runner process the daemon spawns (run.c). With
 * --golden FD it takes the campaign's golden run from the daemon's golden
 * record on that descriptor (record.c) instead of running it. It reads
 * its experiments on stdin, one per line,
 *     idx nfaults cycle sm loc nbits pattern [cycle sm loc nbits pattern ...]
 * (pattern: sc_rt_fault_t.pattern, decimal)
 * runs them with the fork-at-cycle runner, and writes one line per outcome
 * on stdout,
 *     R idx outcome cycles early wall live_bits prot prot_cycle reason\tsite\teffect\tseverity
 * (outcome 0 masked, 1 sdc, 2 due; live_bits -1 unless live sampling;
 * prot the first protection event by name, sc_prot_name, and its cycle;
 * reason, which may hold spaces, then tab-separated the fault's site, what
 * it met first and an SDC's severity: JSON objects without blanks, or
 * empty; tabs and newlines in the reason become spaces); an experiment
 * killed from outside gets
 * no line (eng_outcome_of). It dies
 * with the daemon (PR_SET_PDEATHSIG), and its experiment children with it. */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "eng_int.h"

static void emit_line(const eng_outcome_t *o, void *ctx)
{
	(void)ctx;
	if (o->lost) { /* no line: the daemon runs it again */
		eng_errorf("experiment %" PRIu64 " was %s from outside: not an outcome, it will run again", o->idx,
		           o->reason);
		return;
	}
	char reason[sizeof o->reason];
	snprintf(reason, sizeof reason, "%s", o->reason);
	for (char *c = reason; (c = strpbrk(c, "\t\n"));)
		*c = ' ';
	printf("R %" PRIu64 " %d %" PRIu64 " %d %.6f %" PRId64 " %s %" PRIu64 " %s\t%s\t%s\t%s\n", o->idx,
	       (int)o->outcome, o->cycles, o->early ? 1 : 0, o->wall,
	       o->has_live_bits ? (int64_t)o->live_bits : (int64_t)-1, sc_prot_name(o->prot), o->prot_cycle, reason,
	       o->site, o->effect, o->severity);
	fflush(stdout);
}

void eng_worker_help(FILE *out)
{
	fputs("usage: flipsim worker CAMPAIGN.json --ck N [--golden FD] [--no-fork] [--no-early]\n"
	      "                      [--no-attribution]\n"
	      "\n"
	      "Internal: the runner process 'flipsim run' spawns. Reads experiments on\n"
	      "stdin and writes their outcomes on stdout (format in engine/worker.c).\n", out);
}

/* The experiment lines on stdin, run. Returns 0 or an error code (message
 * printed). */
static int read_experiments(const eng_runner_opts_t *o, char *err, size_t errsz)
{
	uint64_t n = 0, cap = 1024;
	eng_exp_t *e = malloc(cap * sizeof *e);
	char line[1024];
	while (e && fgets(line, sizeof line, stdin)) {
		if (n == cap) {
			eng_exp_t *ne = realloc(e, 2 * cap * sizeof *e);
			if (!ne)
				break;
			e = ne;
			cap *= 2;
		}
		eng_exp_t *x = &e[n];
		memset(x, 0, sizeof *x);
		char *p = line, *q;
		x->idx = strtoull(p, &q, 10);
		x->nfaults = (uint32_t)strtoul(q, &q, 10);
		if (q == p || x->nfaults == 0 || x->nfaults > MASK_MAX_FAULTS) {
			eng_errorf("worker: malformed experiment line");
			free(e);
			return ENG_EINTERNAL;
		}
		for (uint32_t k = 0; k < x->nfaults; k++) {
			x->f[k].cycle = strtoull(q, &q, 10);
			x->f[k].sm = (uint32_t)strtoul(q, &q, 10);
			x->f[k].loc = strtoull(q, &q, 10);
			x->f[k].nbits = (uint32_t)strtoul(q, &q, 10);
			x->f[k].pattern = strtoull(q, &q, 10);
		}
		n++;
	}
	if (!e)
		return ENG_EINTERNAL;
	eng_exps_sort(e, n);
	int rc = eng_runner(o, e, n, err, errsz);
	if (rc)
		eng_errorf("%s", err);
	free(e);
	return rc;
}

int eng_worker_main(int argc, char **argv)
{
	static const struct option opts[] = {{"ck", required_argument, NULL, 'c'},
	                                     {"golden", required_argument, NULL, 'g'},
	                                     {"no-fork", no_argument, NULL, 'f'},
	                                     {"no-early", no_argument, NULL, 'e'},
	                                     {"no-attribution", no_argument, NULL, 'a'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	eng_runner_opts_t o = {.emit = emit_line};
	int c, golden_fd = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.ck_interval = strtoull(optarg, NULL, 10); break;
		case 'g': golden_fd = atoi(optarg); break;
		case 'f': o.no_fork = true; break;
		case 'e': o.no_early = true; break;
		case 'a': o.no_attr = true; break;
		case 'h': eng_worker_help(stdout); return ENG_EXIT_OK;
		default: return eng_usage_error("worker", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return eng_usage_error("worker", "expected one campaign file");
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	char err[1024];
	camp_campaign_t *camp;
	if (camp_campaign_load(argv[optind], &camp, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EXIT_INPUT;
	}
	o.campaign = camp;
	eng_golden_t g;
	if (golden_fd >= 0) {
		int rc = eng_golden_open(golden_fd, camp, o.ck_interval, &g, err, sizeof err);
		close(golden_fd); /* mapped: the programs this worker starts need not see it */
		if (rc) {
			eng_errorf("%s", err);
			eng_golden_free(&g);
			camp_campaign_destroy(camp);
			return eng_exit_status(rc);
		}
		o.golden = &g;
	}
	int rc = read_experiments(&o, err, sizeof err);
	if (o.golden)
		eng_golden_free(&g);
	camp_campaign_destroy(camp);
	return eng_exit_status(rc);
}
