/* `flipsim profile`: a golden run printed (golden.c; a host program's by
 * hostrun.c): per-invocation occupancy, derating factors, IPC, output
 * digests; with --regs alloc the register table against ptxas (ptxas.c);
 * with --disasm the lowered code. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaigns.h"
#include "db.h"
#include "eng_int.h"

void eng_profile_help(FILE *out)
{
	fputs("usage: flipsim profile [--gpu NAME|FILE] [--regs MODE] [--protection P.json] [LIMITS]\n"
	      "                       [--ib-similarity] W.json\n"
	      "       flipsim profile [--gpu NAME|FILE] [--regs MODE] [--protection P.json] [LIMITS]\n"
	      "                       [--ib-similarity] PROGRAM [ARG...]\n"
	      "       flipsim profile [--gpu NAME|FILE] --regs alloc K.ptx\n"
	      "       flipsim profile --disasm [--regs MODE] K.ptx\n"
	      "       flipsim profile --emit-ptx [--regs MODE] [--protection P.json] K.ptx|W.json\n"
	      "\n"
	      "Runs the workload fault-free (the golden run) and prints, per kernel\n"
	      "invocation: kernel, launch index, start and end cycle, grid, block,\n"
	      "registers per thread, threads per SM, CTAs per SM, shared memory per\n"
	      "CTA and GUFI's derating factors df_reg and df_smem; then the whole\n"
	      "application: cycles, thread-instructions, IPC and a digest (FNV-1a) of\n"
	      "each output buffer. A workload that is not a *.json file is a host\n"
	      "program on the simcore API, run with its arguments in the current\n"
	      "folder; its outputs are its stdout, stderr and exit status.\n"
	      "With --regs alloc and a workload JSON, a table follows: registers per\n"
	      "thread of each kernel in ptx mode, in alloc mode and as ptxas -v\n"
	      "reports them (when ptxas is found: PATH or /usr/local/cuda/bin).\n"
	      "Given a .ptx file, only that table is printed; with --disasm, its code\n"
	      "instead: every function's instructions as the simulator holds them (pc,\n"
	      "source line, text; registers by slot, branch targets as pcs).\n"
	      "With --ib-similarity, per invocation: at every cycle an SM issues, the\n"
	      "number of distinct words its warps' valid instruction-buffer entries\n"
	      "hold, as a histogram, and the share of those cycles a SAWP table of T\n"
	      "entries covers (at most T distinct words; T = 4, 12).\n"
	      "\n"
	      "  df_reg  = registers per thread x threads per SM / registers per SM\n"
	      "  df_smem = shared memory per CTA x CTAs per SM / shared memory per SM\n"
	      "\n"
	      "options:\n"
	      "  --gpu NAME|FILE   GPU preset or configuration file (default gtx480)\n"
	      "  --regs MODE       ptx (default), alloc or unalloc: the register mode\n"
	      "  --protection P.json  error-correcting codes on the storage: P.json holds\n"
	      "                    a campaign's \"protection\" object (README, \"Campaign\n"
	      "                    JSON\"), so cycles and outputs are a protected machine's\n"
	      "  --disasm          with a .ptx file: print its code instead of a table\n"
	      "  --emit-ptx        print the module's code as PTX on stdout (a .ptx file,\n"
	      "                    or a workload JSON's PTX): what the simulator made of\n"
	      "                    it, after the passes a protection applies (dup);\n"
	      "                    flipsim loads that PTX and runs it the same\n"
	      "  --ib-similarity   with a workload JSON or a program: the instruction-\n"
	      "                    buffer histogram\n"
	      "  --golden-timeout S  give up on a run that has not ended after S seconds\n"
	      "                    of wall clock (default 3600)\n"
	      "  --cycle-budget N  give up on a run still simulating after N GPU cycles\n"
	      "                    (default 10000000000)\n"
	      "  -h, --help        print this help and exit\n"
	      "\n"
	      "exit status: 0 success, 1 internal failure, 2 bad input, 3 the run ends in a DUE\n",
	      out);
}

static void print_profile(const char *name, const eng_golden_t *g, sc_regs_t regs)
{
	const sc_gpu_config_t *cfg = &g->cfg;
	printf("%s on %s, %s registers\n\n", name, cfg->name, sc_regs_name(regs));
	char kname[128];
	int width = 24;  /* the kernel column: its longest (demangled) name */
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		int n = (int)strlen(db_demangle(g->launch[i].kernel, false, kname, sizeof kname));
		width = n > width ? n : width;
	}
	printf("%-*s %6s %10s %10s %14s %12s %5s %7s %5s %8s %7s %7s\n", width, "kernel", "launch", "start", "end",
	       "grid", "block", "regs", "thr/SM", "CTA/SM", "smem/CTA", "df_reg", "df_smem");
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		char grid[32], block[32];
		snprintf(grid, sizeof grid, "%u,%u,%u", l->grid.x, l->grid.y, l->grid.z);
		snprintf(block, sizeof block, "%u,%u,%u", l->block.x, l->block.y, l->block.z);
		uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z * l->ctas_per_sm;
		printf("%-*s %6u %10" PRIu64 " %10" PRIu64 " %14s %12s %5u %7" PRIu64 " %5u %8u %7.4f %7.4f\n", width,
		       db_demangle(l->kernel, false, kname, sizeof kname), i, l->start_cycle, l->end_cycle, grid, block, l->regs_per_thread, threads, l->ctas_per_sm,
		       l->smem_per_cta, eng_df_reg(cfg, l), eng_df_smem(cfg, l));
	}
	for (uint32_t i = 0; i < g->nlaunch; i++) { /* like ptxas -v: what the allocation spilled */
		const sc_launch_stats_t *l = &g->launch[i];
		if (l->spill_regs && (i == 0 || strcmp(g->launch[i - 1].kernel, l->kernel)))
			printf("%s: %u registers spilled, %u bytes of local memory: %u spill stores, %u spill loads "
			       "(instructions)\n", db_demangle(l->kernel, false, kname, sizeof kname), l->spill_regs,
			       l->spill_bytes, l->spill_stores, l->spill_loads);
	}
	printf("\napplication: %" PRIu64 " cycles, %" PRIu64 " thread-instructions, IPC %.3f\n", g->totals.cycles,
	       g->totals.thread_insts, g->totals.cycles ? (double)g->totals.thread_insts / g->totals.cycles : 0.0);
	double limit, resident;
	eng_warp_occupancy(g, &limit, &resident);
	printf("average warp occupancy: %.2f%% at the occupancy limit, %.2f%% resident\n", 100 * limit, 100 * resident);
}

/* One histogram of distinct instruction-buffer words (title: what it
 * covers): its samples, the share a SAWP table of 4 or 12 entries covers,
 * the most frequent count, the smallest table that covers 99 %, and its
 * non-empty bins. */
static void print_ib_histogram(const char *title, const uint64_t *h)
{
	uint64_t n = 0, cover[2] = {0, 0}, acc = 0;
	uint32_t mode = 0, t99 = 0;
	for (uint32_t d = 0; d < SC_IB_SIM_BINS; d++) {
		n += h[d];
		cover[0] += d <= 4 ? h[d] : 0;
		cover[1] += d <= 12 ? h[d] : 0;
		mode = h[d] > h[mode] ? d : mode;
	}
	for (t99 = 0; t99 < SC_IB_SIM_BINS - 1 && (acc += h[t99]) < 0.99 * (double)n; t99++)
		;
	printf("\nib similarity, %s: %" PRIu64 " samples, T=4 covers %.2f%%, T=12 %.2f%%; most frequent %u "
	       "distinct, 99%% within %u%s\n", title, n, n ? 100.0 * cover[0] / n : 0.0, n ? 100.0 * cover[1] / n : 0.0,
	       mode, t99, t99 == SC_IB_SIM_BINS - 1 ? "+" : "");
	printf("%9s %12s %8s\n", "distinct", "samples", "share");
	for (uint32_t d = 0; d < SC_IB_SIM_BINS; d++)
		if (h[d])
			printf("%8u%s %12" PRIu64 " %7.2f%%\n", d, d == SC_IB_SIM_BINS - 1 ? "+" : " ", h[d], 100.0 * h[d] / n);
}

/* --ib-similarity: each launch's histogram (sc_launch_stats_t.ib_distinct),
 * then, with more than one launch, the application's (their sum). */
static void print_ib_similarity(const eng_golden_t *g)
{
	char kname[128], title[200];
	uint64_t all[SC_IB_SIM_BINS] = {0};
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		for (uint32_t d = 0; d < SC_IB_SIM_BINS; d++)
			all[d] += l->ib_distinct[d];
		snprintf(title, sizeof title, "launch %u (%s)", i, db_demangle(l->kernel, false, kname, sizeof kname));
		print_ib_histogram(title, l->ib_distinct);
	}
	if (g->nlaunch > 1) {
		snprintf(title, sizeof title, "application (%u launches)", g->nlaunch);
		print_ib_histogram(title, all);
	}
}

/* One row of the SHARP table: a launch's, or the application's sum. */
static void print_sharp_row(const char *name, const sc_sharp_stats_t *s, sc_sharp_shares_t f)
{
	printf("%-32s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %12" PRIu64 " %7.2f%% %7.2f%% %7.2f%% %7.2f%%\n", name,
	       s->windows, s->dropped, s->checks, s->check_cycles, 100 * f.window, 100 * f.regs, 100 * f.smem_written,
	       100 * f.smem_time);
}

/* SHARP's statistics per launch (sc_sharp_stats_t): the windows, the
 * checks' cost, what the windows covered and how idle shared memory was
 * (the paper's Fig. 6); with more than one launch, their sum. */
static void print_sharp(const eng_golden_t *g)
{
	char kname[128];
	sc_sharp_stats_t all = {0};
	double word_cycles = 0; /* the application's shared-memory word-cycles */
	printf("\nSHARP%-27s %8s %8s %8s %12s %8s %8s %8s %8s\n", "", "windows", "dropped", "checks", "check cyc",
	       "window", "regs", "smem wr", "smem t");
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		const sc_sharp_stats_t *s = &l->sharp;
		print_sharp_row(db_demangle(l->kernel, false, kname, sizeof kname), s, sc_sharp_shares(s, l->cycles));
#define X(m) all.m += s->m;
		SC_SHARP_STATS_LIST(X)
#undef X
		word_cycles += (double)s->smem_words * (double)l->cycles;
	}
	if (g->nlaunch > 1) {
		sc_sharp_shares_t f = sc_sharp_shares(&all, 1);
		f.smem_time = word_cycles > 0 ? (double)all.smem_valid_cycles / word_cycles : 0;
		print_sharp_row("application", &all, f);
	}
}

/* REFU's statistics per launch (sc_refu_stats_t) and, with more than one
 * launch, their sum. */
static void print_refu(const eng_golden_t *g)
{
	char kname[128];
	sc_refu_stats_t all = {0};
	printf("\nREFU%-28s", "");
#define X(m) printf(" %12s", #m);
	SC_REFU_STATS_LIST(X)
#undef X
	putchar('\n');
	for (uint32_t i = 0; i <= g->nlaunch; i++) {
		if (i == g->nlaunch && g->nlaunch < 2)
			break;
		const sc_refu_stats_t *s = i < g->nlaunch ? &g->launch[i].refu : &all;
		printf("%-32s", i < g->nlaunch ? db_demangle(g->launch[i].kernel, false, kname, sizeof kname) : "application");
#define X(m) printf(" %12" PRIu64, s->m);
		SC_REFU_STATS_LIST(X)
#undef X
		putchar('\n');
		if (i < g->nlaunch) {
#define X(m) all.m += s->m;
			SC_REFU_STATS_LIST(X)
#undef X
		}
	}
}

/* profile PROGRAM [ARG...]: the host program in the current folder. */
static int profile_exec(const sc_gpu_config_t *cfg, const sc_options_t *so, const eng_limits_t *lim, int argc,
                        char **argv)
{
	sc_regs_t regs = so->regs;
	char err[1024];
	camp_exec_t x;
	camp_campaign_t c = {.exec = &x, .gpu = *cfg, .regs = eng_camp_regs(regs), .prot = so->prot,
	                     .golden_watchdog_seconds = lim->seconds, .golden_cycle_budget = lim->cycles,
	                     .golden_ib_similarity = so->ib_similarity};
	int rc = eng_exec_args(&x, argc, argv);
	if (rc)
		goto out;
	eng_golden_t g;
	rc = eng_golden_exec(&c, 0, &g, err, sizeof err);
	if (rc && !g.nlaunch) {  /* nothing ran: the error alone, no empty table */
		eng_errorf("%s", err);
	} else {
		print_profile(argv[0], &g, regs);
		if (so->ib_similarity)
			print_ib_similarity(&g);
		if (so->prot.sharp.on)
			print_sharp(&g);
		if (so->prot.refu.on)
			print_refu(&g);
		if (rc)
			eng_errorf("%s", err);
		else
			printf("stdout %" PRIu64 " bytes  fnv1a %016" PRIx64 "\nstderr %" PRIu64 " bytes  fnv1a %016" PRIx64
			       "\nexit status %d\n", g.out.len, g.out.fnv, g.err.len, g.err.fnv, g.exit_status);
	}
	eng_golden_free(&g);
out:
	eng_exec_args_free(&x);
	return rc;
}

/* The PTX file loaded on a new GPU in register mode regs: *gpu (destroy
 * it) and *mod. Returns 0 or an error code (message printed). */
static int load_ptx(const char *ptx, const sc_gpu_config_t *cfg, sc_regs_t regs, const sc_dup_protection_t *dup,
                    sc_gpu_t **gpu, sc_module_t **mod)
{
	/* of a protection, only the transform changes the code */
	sc_options_t opt = {.regs = regs, .prot.dup = dup ? *dup : (sc_dup_protection_t){0}};
	if (sc_gpu_create(cfg, &opt, gpu)) {
		eng_errorf("cannot create the GPU");
		return ENG_EINTERNAL;
	}
	sc_set_printf_stream(*gpu, NULL); /* the report, not the kernel's printf */
	sc_set_assert_stream(*gpu, NULL);
	if (sc_module_load_file(*gpu, ptx, mod)) {
		eng_errorf("%s", sc_gpu_errmsg(*gpu));
		sc_gpu_destroy(*gpu);
		return ENG_EINPUT;
	}
	return 0;
}

/* Registers per thread of every kernel of the PTX file: ptx mode, alloc
 * mode and ptxas. Returns 0 or an error code (message printed). */
static int print_regs_table(const char *ptx, const sc_gpu_config_t *cfg)
{
	sc_gpu_t *gpu;
	sc_module_t *mod;
	int rc = load_ptx(ptx, cfg, SC_REGS_ALLOC, NULL, &gpu, &mod);
	if (rc)
		return rc;
	char path[4096];
	const char *ptxas = eng_ptxas_find(path, sizeof path);
	eng_ptxas_t px = {0};
	bool have = ptxas && eng_ptxas_run(ptxas, ptx, &px) == 0;
	printf("registers per thread (ptxas: %s)\n", have ? ptxas : ptxas ? "failed" : "not found");
	const char *k;
	char name[128];
	int width = 32; /* the kernel column fits the longest name */
	for (uint32_t i = 0; (k = sc_kernel_name(mod, i)) != NULL; i++) {
		int n = (int)strlen(db_demangle(k, false, name, sizeof name));
		width = n > width ? n : width;
	}
	printf("%-*s %6s %6s %6s %12s\n", width, "kernel", "ptx", "alloc", "ptxas", "alloc/ptxas");
	for (uint32_t i = 0; (k = sc_kernel_name(mod, i)) != NULL; i++) {
		sc_kernel_regs_t kr;
		if (sc_kernel_regs(mod, k, &kr))
			continue;
		int pr = have ? eng_ptxas_regs(&px, k) : -1;
		char pcol[16], ratio[16];
		snprintf(pcol, sizeof pcol, pr >= 0 ? "%d" : "n/a", pr);
		snprintf(ratio, sizeof ratio, pr > 0 ? "%.2f" : "n/a", pr > 0 ? (double)kr.regs / pr : 0.0);
		printf("%-*s %6u %6u %6s %12s\n", width, db_demangle(k, false, name, sizeof name), kr.regs_ptx, kr.regs,
		       pcol, ratio);
		if (kr.spill_regs)
			printf("%-*s   %u registers spilled, %u bytes of local memory: %u spill stores, %u spill loads\n",
			       width, "", kr.spill_regs, kr.spill_bytes, kr.spill_stores, kr.spill_loads);
	}
	eng_ptxas_free(&px);
	sc_gpu_destroy(gpu);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* profile --disasm K.ptx: the lowered code of the PTX file in register
 * mode `regs`; nothing runs. Returns 0 or an error code (message printed). */
/* --disasm K.ptx, or (emit) --emit-ptx K.ptx or W.json (its PTX): the
 * module as loaded, on stdout. */
static int print_disasm(int argc, char **argv, const sc_gpu_config_t *cfg, sc_regs_t regs, const sc_dup_protection_t *dup,
                        bool emit)
{
	if (argc != 1 || !(ends_with(argv[0], ".ptx") || (emit && ends_with(argv[0], ".json")))) {
		eng_usage_error("profile", emit ? "--emit-ptx takes one .ptx file or workload JSON" : "--disasm takes one .ptx file");
		return ENG_EINPUT;
	}
	char err[1024];
	camp_workload_t *w = NULL;
	if (ends_with(argv[0], ".json") && camp_workload_load(argv[0], &w, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EINPUT;
	}
	sc_gpu_t *gpu;
	sc_module_t *mod;
	int rc = load_ptx(w ? w->ptx : argv[0], cfg, regs, dup, &gpu, &mod);
	camp_workload_destroy(w);
	if (rc)
		return rc;
	if ((emit ? sc_module_emit_ptx(mod, stdout) : sc_module_disasm(mod, stdout)) || fflush(stdout)) {
		eng_errorf("cannot write the %s: %s", emit ? "PTX" : "disassembly", strerror(errno));
		rc = ENG_EINTERNAL;
	}
	sc_gpu_destroy(gpu);
	return rc;
}

/* --golden-timeout S (c 't') or --cycle-budget N (c 'b') into *lim. 0 or -1. */
static int parse_limit(int c, const char *s, eng_limits_t *lim)
{
	char *e;
	errno = 0;
	if (c == 't') {
		double v = strtod(s, &e);
		if (e == s || *e || !(v > 0 && v <= 604800))
			return -1;
		lim->seconds = v;
		return 0;
	}
	if (*s == '-')
		return -1;
	unsigned long long v = strtoull(s, &e, 10);
	if (e == s || *e || errno || v < 1)
		return -1;
	lim->cycles = v;
	return 0;
}

/* Whether profile's workload (its first argument that is no option or
 * option value) is a host program: neither *.json nor *.ptx. */
static bool names_host_program(int argc, char **argv)
{
	const char *first = NULL;
	for (int i = 1; i < argc && !first; i++) {
		if (argv[i][0] != '-')
			first = argv[i];
		else if (!strcmp(argv[i], "--gpu") || !strcmp(argv[i], "--regs") || !strcmp(argv[i], "--golden-timeout") ||
		         !strcmp(argv[i], "--cycle-budget") || !strcmp(argv[i], "--protection"))
			i++;
	}
	return first && !ends_with(first, ".json") && !ends_with(first, ".ptx");
}

typedef struct profile_opts {
	const char *gpu_name;
	const char *protection;  /* --protection: the file, or NULL */
	bool disasm, emit;
	sc_options_t so;
	eng_limits_t lim;
} profile_opts_t;

/* profile's options into po, optind left at the workload. Returns -1 to
 * go on, else the exit status to end with (help, usage). */
static int profile_options(int argc, char **argv, profile_opts_t *po)
{
	static const struct option opts[] = {{"gpu", required_argument, NULL, 'g'},
	                                     {"regs", required_argument, NULL, 'r'},
	                                     {"golden-timeout", required_argument, NULL, 't'},
	                                     {"cycle-budget", required_argument, NULL, 'b'},
	                                     {"protection", required_argument, NULL, 'p'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {"disasm", no_argument, NULL, 'd'},
	                                     {"emit-ptx", no_argument, NULL, 'e'},
	                                     {"ib-similarity", no_argument, NULL, 'i'},
	                                     {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	opterr = 0;
	/* A host program's own options follow it and stay its own ('+': stop
	 * at the program); a JSON or PTX workload may have options after it. */
	bool host = names_host_program(argc, argv);
	while ((c = getopt_long(argc, argv, host ? "+h" : "h", opts, NULL)) != -1) {
		switch (c) {
		case 'g': po->gpu_name = optarg; break;
		case 'r':
			if (sc_regs_parse(optarg, &po->so.regs))
				return eng_usage_error("profile", "option '--regs': expected 'ptx', 'alloc' or 'unalloc', got '%s'", optarg);
			break;
		case 't':
		case 'b':
			if (parse_limit(c, optarg, &po->lim))
				return eng_usage_error("profile", "option '--%s': expected %s, got '%s'",
				                       c == 't' ? "golden-timeout" : "cycle-budget",
				                       c == 't' ? "a number of seconds in (0, 604800]" : "a number of cycles >= 1",
				                       optarg);
			break;
		case 'h': eng_profile_help(stdout); return ENG_EXIT_OK;
		case 'd': po->disasm = true; break;
		case 'e': po->emit = true; break;
		case 'p': po->protection = optarg; break;
		case 'i': po->so.ib_similarity = true; break;
		default: return eng_usage_error("profile", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return eng_usage_error("profile", "missing workload file");
	return -1;
}

/* profile W.json: the golden run's table and outputs, and with --regs
 * alloc the register table. Returns 0 or an error code (messages printed;
 * ENG_EDUE: the run ended in a DUE). */
static int profile_json(const char *wpath, const sc_gpu_config_t *cfg, const profile_opts_t *po)
{
	char err[1024];
	camp_workload_t *w;
	if (camp_workload_load(wpath, &w, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EINPUT;
	}
	eng_golden_t g;
	int rc = eng_golden_run_opt(w, cfg, &po->so, &po->lim, 0, &g, err, sizeof err);
	if (rc && rc != ENG_EDUE) {
		eng_errorf("%s", err);
		eng_golden_free(&g);
		camp_workload_destroy(w);
		return rc;
	}
	print_profile(w->name, &g, po->so.regs);
	if (po->so.ib_similarity)
		print_ib_similarity(&g);
	if (po->so.prot.sharp.on)
		print_sharp(&g);
	if (po->so.prot.refu.on)
		print_refu(&g);
	if (rc == ENG_EDUE) {
		eng_errorf("%s", err);
	} else {
		for (uint32_t i = 0; i < g.res->noutputs; i++) {
			const camp_output_t *o = &g.res->outputs[i];
			printf("output %-16s %12" PRIu64 " bytes  fnv1a %016" PRIx64 "\n", w->buffers[o->buffer].name, o->bytes,
			       camp_fnv1a(CAMP_FNV_OFFSET, o->data, o->bytes));
		}
	}
	if (po->so.regs != SC_REGS_UNALLOC) {
		putchar('\n');
		int t = print_regs_table(w->ptx, cfg);
		if (t && !rc)
			rc = t;
	}
	eng_golden_free(&g);
	camp_workload_destroy(w);
	return rc;
}

int eng_profile_main(int argc, char **argv)
{
	profile_opts_t po = {.gpu_name = "gtx480", .so = {.regs = SC_REGS_PTX}, .lim = {.seconds = CAMP_GOLDEN_SECONDS, .cycles = CAMP_GOLDEN_CYCLES}};
	int rc = profile_options(argc, argv, &po);
	if (rc >= 0)
		return rc;
	char err[1024];
	sc_gpu_config_t cfg;
	if (camp_gpu_load(po.gpu_name, &cfg, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EXIT_INPUT;
	}
	if (po.protection && camp_protection_load(po.protection, &cfg, po.so.regs, &po.so.prot, err, sizeof err)) {
		eng_errorf("%s", err);
		return ENG_EXIT_INPUT;
	}
	const char *wpath = argv[optind];
	if (po.so.ib_similarity && ends_with(wpath, ".ptx"))
		return eng_usage_error("profile", "--ib-similarity takes a workload JSON or a program, not a .ptx file");
	if (po.disasm && po.emit)
		return eng_usage_error("profile", "--disasm and --emit-ptx exclude each other");
	if (po.disasm || po.emit)
		return eng_exit_status(print_disasm(argc - optind, argv + optind, &cfg, po.so.regs, &po.so.prot.dup, po.emit));
	if (!ends_with(wpath, ".json") && !ends_with(wpath, ".ptx"))
		return eng_exit_status(profile_exec(&cfg, &po.so, &po.lim, argc - optind, argv + optind));
	if (optind != argc - 1)
		return eng_usage_error("profile", "too many arguments");
	if (ends_with(wpath, ".ptx")) {
		/* a PTX file alone: its kernels' registers, nothing runs */
		if (po.so.regs == SC_REGS_UNALLOC)
			return eng_usage_error("profile", "a PTX file gives the register table, of ptx or alloc mode");
		return eng_exit_status(print_regs_table(wpath, &cfg));
	}
	return eng_exit_status(profile_json(wpath, &cfg, &po));
}
