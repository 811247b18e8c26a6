/* `flipsim exec`: run a workload once and report it — a human summary,
 * statistics as JSON (--stats), or the output buffers as raw files (--dump).
 * Format of workloads: docs/DESIGN.md ("Workload JSON"). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "campaigns.h"
#include "db.h"
#include "eng_int.h"
#include "simcore.h"

void eng_exec_help(FILE *out)
{
	const char *const *names = camp_gpu_names();
	fputs("usage: flipsim exec W.json [--gpu NAME|FILE] [--regs MODE] [--dump DIR]\n"
	      "                           [--stats] [--cycle-budget N] [--protection P.json]\n"
	      "       flipsim exec [OPTIONS] PROGRAM [ARG...]\n"
	      "\n"
	      "Runs the workload W.json (PTX, buffers, launches, outputs) once on the\n"
	      "simulator. Without --stats or --dump it prints a short summary.\n"
	      "A PROGRAM (any argument not ending in .json; what follows it is its own)\n"
	      "is a host program on the simcore API or a CUDA program built with\n"
	      "'nvcc -cudart shared' (README, \"Bring your own CUDA program\"): it runs\n"
	      "once, as a campaign's golden run, its stdout and stderr passed through;\n"
	      "--stats then adds one line of JSON at the end of stdout. The exit status\n"
	      "is 0 when it exits 0, 3 after a DUE, 2 otherwise (the reason on stderr).\n"
	      "\n"
	      "options:\n"
	      "  --gpu NAME|FILE     GPU configuration: a preset name, or a JSON file (a value\n"
	      "                      containing '/' or ending in .json); default gtx480.\n"
	      "                      presets:", out);
	for (size_t i = 0; names[i]; i++)
		fprintf(out, "%s %s", i ? "," : "", names[i]);
	fputs("\n"
	      "  --regs MODE         register mode: ptx (default) and alloc allocate registers\n"
	      "                      first (liveness and colouring), so registers per thread\n"
	      "                      and occupancy follow the allocated count, and run the\n"
	      "                      same; they differ only as fault targets (ptx: the\n"
	      "                      threads' PTX virtual registers); unalloc gives every\n"
	      "                      PTX virtual register its own slot and sizes occupancy\n"
	      "                      by them\n"
	      "  --dump DIR          write each output buffer to DIR/<name>.bin (raw,\n"
	      "                      little-endian); DIR is created if missing. Nothing is\n"
	      "                      written when the program ends in a DUE. An existing\n"
	      "                      file is replaced only when it is an earlier dump (a\n"
	      "                      regular file of the same size); links, non-regular\n"
	      "                      and other files are refused (exit 2)\n"
	      "  --stats             print statistics as JSON on stdout: cycles (of the GPU's\n"
	      "                      clock_mhz), instructions, IPC, host wall and CPU time\n"
	      "                      in launches (sim_seconds, sim_cpu_seconds),\n"
	      "                      status, the DUE if any, and per launch: occupancy,\n"
	      "                      counts, cache and DRAM traffic, busy cycles per unit\n"
	      "  --cycle-budget N    end a launch that runs past N GPU cycles as a DUE\n"
	      "                      'timeout' (default 0: unlimited)\n"
	      "  --protection P.json error-correcting codes on the storage: P.json holds a\n"
	      "                      campaign's \"protection\" object, e.g. {\"regfile\":\n"
	      "                      {\"code\": \"secded\"}, \"interleave\": 2} (README,\n"
	      "                      \"Campaign JSON\"): the run of a protected machine\n"
	      "  -h, --help          print this help and exit\n"
	      "\n"
	      "exit status:\n"
	      "  0  success\n"
	      "  1  internal failure (out of memory, cannot write the dump)\n"
	      "  2  bad input (command line, JSON, PTX, unknown kernel or GPU, launch too large,\n"
	      "     a --dump target that is not an earlier dump, a bad --protection file)\n"
	      "  3  the simulated program ended in a DUE (reason and location on stderr;\n"
	      "     --stats still printed)\n", out);
}

typedef struct opts {
	const char *workload;
	int prog_argc;           /* a host program: it and its arguments */
	char **prog_argv;
	const char *gpu;
	const char *dump;
	const char *protection;  /* --protection: the file, or NULL */
	sc_regs_t regs;
	int stats;
	uint64_t cycle_budget;
} opts_t;

static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Matches "--name" or "--name=value"; *val gets the inline value or NULL. */
static int match(const char *arg, const char *name, const char **val)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n))
		return 0;
	if (arg[n] == '\0') {
		*val = NULL;
		return 1;
	}
	if (arg[n] == '=') {
		*val = arg + n + 1;
		return 1;
	}
	return 0;
}

/* Returns -1 to go on, or an exit status (help printed, or a usage error). */
static int parse_args(int argc, char **argv, opts_t *o)
{
	int no_more_options = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		if (no_more_options || a[0] != '-' || a[1] == '\0') {
			if (o->workload)
				return eng_usage_error("exec", "unexpected argument '%s' (one workload "
				                       "at a time)", a);
			o->workload = a;
			size_t n = strlen(a);
			if (n < 5 || strcmp(a + n - 5, ".json")) { /* a program: the rest is its own */
				o->prog_argc = argc - i;
				o->prog_argv = argv + i;
				break;
			}
			continue;
		}
		if (!strcmp(a, "--")) {
			no_more_options = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			eng_exec_help(stdout);
			return ENG_EXIT_OK;
		} else if (match(a, "--stats", &val)) {
			if (val)
				return eng_usage_error("exec", "option '--stats' takes no value");
			o->stats = 1;
		} else if (match(a, "--gpu", &val) || match(a, "--dump", &val) ||
		           match(a, "--cycle-budget", &val) || match(a, "--regs", &val) ||
		           match(a, "--protection", &val)) {
			const char *name = a[2] == 'g' ? "--gpu" : a[2] == 'd' ? "--dump"
			                   : a[2] == 'r' ? "--regs" : a[2] == 'p' ? "--protection" : "--cycle-budget";
			if (!val) {
				if (i + 1 >= argc)
					return eng_usage_error("exec", "option '%s' needs a value", name);
				val = argv[++i];
			}
			if (!*val)
				return eng_usage_error("exec", "option '%s' needs a non-empty value", name);
			if (a[2] == 'g') {
				o->gpu = val;
			} else if (a[2] == 'r') {
				if (sc_regs_parse(val, &o->regs))
					return eng_usage_error("exec", "option '--regs': expected 'ptx', "
					                       "'alloc' or 'unalloc', got '%s'", val);
			} else if (a[2] == 'd') {
				o->dump = val;
			} else if (a[2] == 'p') {
				o->protection = val;
			} else if (parse_u64(val, &o->cycle_budget)) {
				return eng_usage_error("exec", "option '--cycle-budget': expected a "
				                       "non-negative integer, got '%s'", val);
			}
		} else {
			return eng_usage_error("exec", "unknown option '%s'", a);
		}
	}
	if (!o->workload)
		return eng_usage_error("exec", "missing the workload file (W.json) or program");
	if (o->prog_argv && o->dump)
		return eng_usage_error("exec", "--dump takes a workload JSON; a program writes its own outputs");
	return -1;
}

/* ---- reporting ---------------------------------------------------------- */

static json_t *dim3(sc_dim3_t d)
{
	return json_pack("[III]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

/* json_int_t is signed 64-bit: counters stay far below 2^63. */
#define JI(x) ((json_int_t)(x))

static json_t *due_json(const sc_status_t *s)
{
	return json_pack("{s:s, s:s, s:I, s:i, s:i, s:i, s:I, s:I, s:I, s:s}",
	                 "reason", sc_due_name(s->reason), "kernel", s->kernel,
	                 "cycle", JI(s->cycle), "sm", (int)s->sm, "warp", (int)s->warp,
	                 "lane", (int)s->lane, "pc", JI(s->pc), "ptx_line", JI(s->line),
	                 "addr", JI(s->addr), "detail", s->detail);
}

static json_t *launch_json(const sc_launch_stats_t *l)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	int bad = 0;
	bad |= json_object_set_new(o, "kernel", json_string(l->kernel));
	bad |= json_object_set_new(o, "grid", dim3(l->grid));
	bad |= json_object_set_new(o, "block", dim3(l->block));
	bad |= json_object_set_new(o, "registers_per_thread", json_integer(JI(l->regs_per_thread)));
	if (l->spill_regs) /* the allocation spilled registers to local memory */
		bad |= json_object_set_new(o, "spill",
		                           json_pack("{s:I, s:I, s:I, s:I}", "registers", JI(l->spill_regs), "bytes",
		                                     JI(l->spill_bytes), "stores", JI(l->spill_stores), "loads",
		                                     JI(l->spill_loads)));
	bad |= json_object_set_new(o, "shared_per_cta", json_integer(JI(l->smem_per_cta)));
	bad |= json_object_set_new(o, "ctas_per_sm", json_integer(JI(l->ctas_per_sm)));
	bad |= json_object_set_new(o, "limiter", l->limiter ? json_string(l->limiter) : json_null());
	bad |= json_object_set_new(o, "occupancy", json_real(l->occupancy));
	bad |= json_object_set_new(o, "start_cycle", json_integer(JI(l->start_cycle)));
	bad |= json_object_set_new(o, "end_cycle", json_integer(JI(l->end_cycle)));
	bad |= json_object_set_new(o, "cycles", json_integer(JI(l->cycles)));
	bad |= json_object_set_new(o, "warp_instructions", json_integer(JI(l->warp_insts)));
	bad |= json_object_set_new(o, "thread_instructions", json_integer(JI(l->thread_insts)));
	bad |= json_object_set_new(o, "memory",
	                           json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "l1_hits", JI(l->l1_hits),
	                                     "l1_misses", JI(l->l1_misses), "l2_sector_hits", JI(l->l2_hits),
	                                     "dram_sector_reads", JI(l->dram_reads), "dram_sector_writebacks",
	                                     JI(l->dram_writebacks), "const_hits", JI(l->const_hits), "const_misses",
	                                     JI(l->const_misses), "tex_hits", JI(l->tex_hits), "tex_misses",
	                                     JI(l->tex_misses)));
	json_t *busy = json_object();
	for (int k = 0; k < SC_FU__COUNT && busy; k++)
		bad |= json_object_set_new(busy, sc_fu_name((sc_fu_t)k), json_integer(JI(l->unit_busy[k])));
	bad |= json_object_set_new(o, "unit_busy_cycles", busy);
	const sc_sharp_stats_t *sh = &l->sharp;
	if (sh->smem_words) { /* SHARP is on */
		sc_sharp_shares_t f = sc_sharp_shares(sh, l->cycles);
		bad |= json_object_set_new(
			o, "sharp",
			json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:I, s:I}", "windows", JI(sh->windows), "dropped",
		              JI(sh->dropped), "checks", JI(sh->checks), "check_cycles", JI(sh->check_cycles), "window_share",
		              f.window, "register_share", f.regs, "smem_written_share", f.smem_written, "smem_time_share",
		              f.smem_time, "smem_words", JI(sh->smem_words), "smem_written", JI(sh->smem_written)));
	}
	const sc_refu_stats_t *rf = &l->refu;
	if (rf->buffered) { /* REFU is on (and buffered something) */
		json_t *j = json_object();
#define X(m) bad |= !j || json_object_set_new(j, #m, json_integer(JI(rf->m)));
		SC_REFU_STATS_LIST(X)
#undef X
		bad |= json_object_set_new(o, "refu", j);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Builds the --stats object in the documented key order; NULL if out of memory. */
static json_t *stats_json(const camp_workload_t *w, const sc_gpu_config_t *cfg, sc_regs_t regs,
                          sc_gpu_t *gpu, const camp_result_t *r)
{
	sc_gpu_stats_t t;
	sc_gpu_stats(gpu, &t);
	json_t *o = json_object(), *launches = json_array();
	int bad = !o || !launches;
	if (!bad) {
		bad |= json_object_set_new(o, "workload", json_string(w->name));
		bad |= json_object_set_new(o, "gpu", json_string(cfg->name));
		bad |= json_object_set_new(o, "regs", json_string(sc_regs_name(regs)));
		bad |= json_object_set_new(o, "cycles", json_integer(JI(t.cycles)));
		bad |= json_object_set_new(o, "clock_mhz", json_real(cfg->clock_mhz));
		bad |= json_object_set_new(o, "warp_instructions", json_integer(JI(t.warp_insts)));
		bad |= json_object_set_new(o, "thread_instructions", json_integer(JI(t.thread_insts)));
		bad |= json_object_set_new(o, "ipc", json_real(t.cycles ? (double)t.thread_insts /
		                                                                 (double)t.cycles
		                                                           : 0.0));
		bad |= json_object_set_new(o, "sim_seconds", json_real(r->sim_seconds));
		bad |= json_object_set_new(o, "sim_cpu_seconds", json_real(r->sim_cpu_seconds));
		bad |= json_object_set_new(o, "status", json_string(r->due
		                                                    ? sc_due_name(r->status.reason)
		                                                    : "ok"));
		if (r->due)
			bad |= json_object_set_new(o, "due", due_json(&r->status));
		uint32_t n = sc_launch_count(gpu);
		for (uint32_t i = 0; i < n && !bad; i++) {
			const sc_launch_stats_t *l = sc_launch_stats(gpu, i);
			if (l)
				bad |= json_array_append_new(launches, launch_json(l));
		}
		bad |= json_object_set(o, "launches", launches);
	}
	json_decref(launches);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void print_due(const sc_status_t *s)
{
	char where[256];
	size_t off = (size_t)snprintf(where, sizeof where, "cycle %" PRIu64, s->cycle);
	if (s->sm >= 0 && off < sizeof where)
		off += (size_t)snprintf(where + off, sizeof where - off, ", sm %d", (int)s->sm);
	if (s->warp >= 0 && off < sizeof where)
		off += (size_t)snprintf(where + off, sizeof where - off, ", warp %d", (int)s->warp);
	if (s->lane >= 0 && off < sizeof where)
		off += (size_t)snprintf(where + off, sizeof where - off, ", lane %d", (int)s->lane);
	if (off < sizeof where)
		off += (size_t)snprintf(where + off, sizeof where - off, ", pc %" PRIu32, s->pc);
	if (s->line && off < sizeof where)
		off += (size_t)snprintf(where + off, sizeof where - off, " (PTX line %" PRIu32 ")", s->line);
	if ((s->reason == SC_DUE_ILLEGAL_ADDRESS || s->reason == SC_DUE_MISALIGNED_ADDRESS ||
	     s->reason == SC_DUE_WRONG_SPACE) && off < sizeof where)
		snprintf(where + off, sizeof where - off, ", address 0x%" PRIx64, s->addr);
	char name[256];
	eng_errorf("DUE %s in kernel '%s' (%s)%s%s", sc_due_name(s->reason),
	           db_demangle(s->kernel, true, name, sizeof name), where, s->detail[0] ? ": " : "", s->detail);
}

static void print_summary(const camp_workload_t *w, const sc_gpu_config_t *cfg, sc_regs_t regs,
                          sc_gpu_t *gpu, const camp_result_t *r)
{
	sc_gpu_stats_t t;
	sc_gpu_stats(gpu, &t);
	char mode[32] = ""; /* the default, ptx, goes unsaid */
	if (regs != SC_REGS_PTX)
		snprintf(mode, sizeof mode, " (%s registers)", sc_regs_name(regs));
	printf("%s on %s%s: %s\n", w->name, cfg->name, mode,
	       r->due ? sc_due_name(r->status.reason) : "ok");
	printf("  %" PRIu32 " launch%s, %" PRIu64 " cycles (%g MHz), %" PRIu64 " warp instructions, %"
	       PRIu64 " thread instructions, IPC %.3f\n", r->launches_run,
	       r->launches_run == 1 ? "" : "es", t.cycles, cfg->clock_mhz, t.warp_insts, t.thread_insts,
	       t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0);
	printf("  %.3f s of host time inside launches (%.3f s of CPU)\n", r->sim_seconds, r->sim_cpu_seconds);
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char *p = strdup(dir);
	if (!p)
		return ENOMEM;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char saved = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			free(p);
			return e;
		}
		*s = saved;
		if (!saved)
			break;
	}
	struct stat st;
	int e = stat(p, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
	free(p);
	return e;
}

/* ---- --dump --------------------------------------------------------------
 * Each output goes to DIR/<name>.bin through a temporary from mkostemp
 * (O_CREAT|O_EXCL: never through a planted link), fsync'd, then
 * renamed over the target, which is never partial. Every target is checked
 * before anything is written: an existing one is replaced only when it looks
 * like an earlier dump of this buffer (a regular file of the same size, not
 * an SQLite database, not an init file of the workload); a symbolic link, a
 * non-regular file or any other file is refused (exit 2). DIR itself may be
 * a link: the user named it. Buffer names never start with '.' (workload
 * loader), so temporaries cannot collide with dumps. */

#define DUMP_REFUSED ENG_EINPUT

static int is_sqlite(int dfd, const char *file)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	int fd = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	return n == (ssize_t)sizeof head && !memcmp(head, magic, sizeof magic);
}

static const camp_buffer_t *init_file_at(const camp_workload_t *w, const struct stat *st)
{
	for (uint32_t i = 0; i < w->nbuffers; i++) {
		struct stat in;
		const camp_buffer_t *b = &w->buffers[i];
		if (b->init == CAMP_INIT_FILE && stat(b->file, &in) == 0 && in.st_dev == st->st_dev &&
		    in.st_ino == st->st_ino)
			return b;
	}
	return NULL;
}

/* 0 when DIR/file may be (re)written with `bytes` bytes; else the message is
 * printed and an error code returned. */
static int dump_target_ok(int dfd, const char *dir, const char *file, uint64_t bytes,
                          const camp_workload_t *w)
{
	struct stat st;
	const camp_buffer_t *in;
	if (fstatat(dfd, file, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return 0;
		eng_errorf("--dump: cannot check %s/%s: %s", dir, file, strerror(errno));
		return ENG_EINTERNAL;
	}
	if (S_ISLNK(st.st_mode))
		eng_errorf("--dump: %s/%s is a symbolic link; refusing to write through or replace it "
		           "(remove it or choose another DIR)", dir, file);
	else if (!S_ISREG(st.st_mode))
		eng_errorf("--dump: %s/%s exists and is not a regular file; refusing to replace it "
		           "(remove it or choose another DIR)", dir, file);
	else if ((in = init_file_at(w, &st)))
		eng_errorf("--dump: %s/%s is the init file of buffer '%s'; refusing to replace it "
		           "(choose another DIR)", dir, file, in->name);
	else if ((uint64_t)st.st_size != bytes || is_sqlite(dfd, file))
		eng_errorf("--dump: %s/%s exists and is not an earlier dump of this buffer (%jd bytes, "
		           "the dump has %" PRIu64 "); refusing to replace it (remove it or choose "
		           "another DIR)", dir, file, (intmax_t)st.st_size, bytes);
	else
		return 0;
	return DUMP_REFUSED;
}

static int write_all(int fd, const uint8_t *p, uint64_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (uint64_t)k;
	}
	return 0;
}

/* Writes one output through a temporary and renames it into place. The
 * temporary is mkostemp's: O_CREAT|O_EXCL, which never follows a link. */
static int dump_one(int dfd, const char *dir, const char *file, const camp_output_t *o)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/.%s.tmpXXXXXX", dir, file) >= (int)sizeof path) {
		eng_errorf("--dump: the folder name %s is too long", dir);
		return ENG_EINTERNAL;
	}
	int fd = mkostemp(path, O_CLOEXEC);
	const char *tmp = path + strlen(dir) + 1; /* its name in dfd */
	if (fd < 0) {
		eng_errorf("--dump: cannot create a temporary file in %s: %s", dir, strerror(errno));
		return ENG_EINTERNAL;
	}
	int bad = write_all(fd, o->data, o->bytes) || fsync(fd) != 0;
	int e = errno;
	if (close(fd) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && renameat(dfd, tmp, dfd, file) != 0) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return 0;
	unlinkat(dfd, tmp, 0);
	eng_errorf("--dump: cannot write %s/%s: %s", dir, file, strerror(e));
	return ENG_EINTERNAL;
}

static int write_dump(const char *dir, const camp_workload_t *w, const camp_result_t *r)
{
	char file[80];  /* buffer names are at most 63 characters */
	int e = make_dirs(dir), status = 0;
	if (e) {
		eng_errorf("cannot create directory %s: %s", dir, strerror(e));
		return ENG_EINTERNAL;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		eng_errorf("cannot open directory %s: %s", dir, strerror(errno));
		return ENG_EINTERNAL;
	}
	for (uint32_t i = 0; i < r->noutputs && !status; i++) {
		snprintf(file, sizeof file, "%s.bin", w->buffers[r->outputs[i].buffer].name);
		status = dump_target_ok(dfd, dir, file, r->outputs[i].bytes, w);
	}
	for (uint32_t i = 0; i < r->noutputs && !status; i++) {
		snprintf(file, sizeof file, "%s.bin", w->buffers[r->outputs[i].buffer].name);
		status = dump_one(dfd, dir, file, &r->outputs[i]);
	}
	if (!status && r->printf_len) { /* device printf's text, as printed */
		camp_output_t text = {.bytes = r->printf_len, .data = (uint8_t *)r->printf_text};
		status = dump_one(dfd, dir, "printf.txt", &text);
	}
	if (!status && fsync(dfd) != 0 && errno != EINVAL) {
		eng_errorf("--dump: cannot sync directory %s: %s", dir, strerror(errno));
		status = ENG_EINTERNAL;
	}
	close(dfd);
	return status;
}

/* ---- the command -------------------------------------------------------- */

/* The error code of a CAMP_E* failure. */
static int error_of(int camp_rc)
{
	return camp_rc == CAMP_EINPUT ? ENG_EINPUT : ENG_EINTERNAL;
}

/* What exec prints of the run r of w on gpu: the DUE, the statistics,
 * the dump or the summary, as o asks. Returns 0 or an error code
 * (ENG_EDUE when the run ended in a DUE; messages printed). */
static int print_results(const opts_t *o, const camp_workload_t *w, const sc_gpu_config_t *cfg, sc_gpu_t *gpu,
                         const camp_result_t *r)
{
	int status = 0;
	if (r->due) {
		print_due(&r->status);
		status = ENG_EDUE;
	}
	if (o->stats) {
		json_t *j = stats_json(w, cfg, o->regs, gpu, r);
		if (!j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		                                    JSON_REAL_PRECISION(12)) != 0) {
			eng_errorf("cannot print the statistics");
			status = ENG_EINTERNAL;
		}
		putchar('\n');
		json_decref(j);
	}
	if (o->dump && !r->due) {
		int s = write_dump(o->dump, w, r);
		if (s)
			status = s;
	}
	if (!o->stats && !o->dump)
		print_summary(w, cfg, o->regs, gpu, r);
	if (fflush(stdout) != 0) {
		eng_errorf("cannot write to stdout: %s", strerror(errno));
		status = ENG_EINTERNAL;
	}
	return status;
}

/* ---- a host program (simcore or CUDA) ---------------------------------- */

/* --stats of a host program's run, from its golden record. */
static json_t *host_stats_json(const opts_t *o, const sc_gpu_config_t *cfg, const eng_golden_t *g, int rc)
{
	json_t *launches = json_array();
	int bad = !launches;
	for (uint32_t i = 0; i < g->nlaunch && !bad; i++)
		bad |= json_array_append_new(launches, launch_json(&g->launch[i]));
	json_t *st = bad ? NULL : json_pack("{s:s, s:s, s:s, s:I, s:f, s:I, s:I, s:f, s:f, s:s, s:i, s:o}", "program",
	                                    o->workload, "gpu", cfg->name, "regs", sc_regs_name(o->regs), "cycles",
	                                    JI(g->totals.cycles), "clock_mhz", cfg->clock_mhz, "warp_instructions",
	                                    JI(g->totals.warp_insts), "thread_instructions", JI(g->totals.thread_insts),
	                                    "ipc", g->totals.cycles ? (double)g->totals.thread_insts / (double)g->totals.cycles
	                                                            : 0.0,
	                                    "wall_seconds", g->wall, "status", rc == ENG_EDUE ? "due" : "ok",
	                                    "exit_status", g->exit_status, "launches", launches);
	if (!st)
		json_decref(launches);
	return st;
}

/* Copies the file at path to out; 0 or -1. */
static int pass_through(const char *path, FILE *out)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t k;
	if (!f)
		return -1;
	while ((k = fread(buf, 1, sizeof buf, f)) > 0)
		if (fwrite(buf, 1, k, out) != k)
			break;
	int rc = ferror(f) || ferror(out) ? -1 : 0;
	fclose(f);
	fflush(out);
	return rc;
}

/* exec PROGRAM [ARG...]: one fault-free run of the program on the simulated
 * GPU, as a campaign's golden run (hostrun.c), its stdout and stderr passed
 * through. Returns an exit status. */
static int exec_host(const opts_t *o, const sc_gpu_config_t *cfg, const sc_options_t *so)
{
	char err[1024];
	camp_exec_t x;
	camp_campaign_t c = {.exec = &x, .gpu = *cfg, .regs = eng_camp_regs(so->regs), .prot = so->prot,
	                     .golden_watchdog_seconds = 0, .golden_cycle_budget = o->cycle_budget};
	int rc = eng_exec_args(&x, o->prog_argc, o->prog_argv);
	if (rc)
		goto out;
	eng_golden_t g;
	rc = eng_golden_exec(&c, 0, &g, err, sizeof err);
	if (g.dir[0] && !access(g.out.path, F_OK) && (pass_through(g.out.path, stdout) || pass_through(g.err.path, stderr)))
		eng_errorf("cannot pass the program's output through: %s", strerror(errno));
	if (rc)
		eng_errorf("%s", err);
	if (o->stats && (!rc || rc == ENG_EDUE)) {
		json_t *j = host_stats_json(o, cfg, &g, rc);
		if (!j || json_dumpf(j, stdout, JSON_COMPACT) || putchar('\n') == EOF)
			rc = ENG_EINTERNAL;
		json_decref(j);
	}
	eng_golden_free(&g);
out:
	eng_exec_args_free(&x);
	return eng_exit_status(rc);
}

int eng_exec_main(int argc, char **argv)
{
	opts_t o = {.regs = SC_REGS_PTX};
	char err[1024];
	sc_gpu_config_t cfg;
	camp_workload_t *w = NULL;
	sc_gpu_t *gpu = NULL;
	camp_result_t *r = NULL;
	int status, rc;

	if ((status = parse_args(argc, argv, &o)) >= 0)
		return status;

	if ((rc = camp_gpu_load(o.gpu ? o.gpu : "gtx480", &cfg, err, sizeof err))) {
		eng_errorf("%s", err);
		return eng_exit_status(error_of(rc));
	}
	if (o.prog_argv) {
		sc_options_t so = {.regs = o.regs};
		if (o.protection && (rc = camp_protection_load(o.protection, &cfg, o.regs, &so.prot, err, sizeof err))) {
			eng_errorf("%s", err);
			return eng_exit_status(error_of(rc));
		}
		return exec_host(&o, &cfg, &so);
	}
	if ((rc = camp_workload_load(o.workload, &w, err, sizeof err))) {
		eng_errorf("%s", err);
		return eng_exit_status(error_of(rc));
	}
	sc_options_t so = {.cycle_budget = o.cycle_budget, .regs = o.regs};
	if (o.protection && (rc = camp_protection_load(o.protection, &cfg, o.regs, &so.prot, err, sizeof err))) {
		eng_errorf("%s", err);
		status = error_of(rc);
		goto done;
	}
	if ((rc = sc_gpu_create(&cfg, &so, &gpu))) {
		eng_errorf("cannot create the GPU '%s': %s", cfg.name, sc_strerror(rc));
		status = rc == SC_EINVAL ? ENG_EINPUT : ENG_EINTERNAL;
		goto done;
	}
	/* device printf goes to stdout as it is flushed; a failed assert's
	 * message is the DUE's detail, printed with it */
	sc_set_assert_stream(gpu, NULL);
	if ((rc = camp_workload_run(w, gpu, &r, err, sizeof err))) {
		eng_errorf("%s", err);
		status = error_of(rc);
		goto done;
	}

	status = print_results(&o, w, &cfg, gpu, r);

done:
	camp_result_destroy(r);
	sc_gpu_destroy(gpu);
	camp_workload_destroy(w);
	return eng_exit_status(status);
}
