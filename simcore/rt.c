/* The injection runtime (API and model: simcore.h, "the injection runtime").
 * Four parts: golden checkpoints (state hashes in parts, global memory also
 * per 256-byte line with the last cycle each line is touched; memory is
 * hashed incrementally, only the lines written since the last checkpoint
 * or comparison: sc_int.h "Memory trace"); the
 * fork-at-cycle runner (pause hooks in the parent and in each child, exact
 * early termination: the whole state equals golden, or only lines that
 * nothing touches again differ and mem_final decides; the child's report);
 * no-fork mode; and env mode, in which a host program started by flipsim
 * with FLIPSIM_RT joins the runtime from sc_gpu_create. State: an rt_t per
 * GPU the runtime runs, installed as the context of the GPU's hooks
 * (observe, gone), and in env mode one env_t, reached from that rt_t and
 * passed to the exit handler; nothing lives in file-level variables.
 *
 * Job file (flipsim -> host program; text, one record per line):
 *   flipsim-rt 2
 *   mode golden|inject
 *   config NUM_SMS WARP THREADS/SM CTAS/SM WARPS/SM THREADS/CTA REGS/SM
 *          MAXREGS SMEM/SM SMEM/CTA PREDS IB SIMT SCHEDULERS SCHED
 *          LAT[0..12] CLOCK_MHZ                                  (one line)
 *   name GPU NAME                       rest of line
 *   regs ptx|alloc
 *   refu B                              with REFU on: its replay buffer's entries
 *   ck_interval N [CYCLE_BUDGET]        golden (budget: 0 or absent, none)
 *   ib_similarity                       golden, optional: sample the
 *                                       instruction-buffer histogram
 *   plan TARGET FIELDS LIVE BUDGET WATCHDOG NO_EARLY NPARTS NO_DEAD NO_ATTR  inject
 *   stdout PATH | stderr PATH | outdir PATH                     inject
 *   c CYCLE PART... (hex)               inject: one golden checkpoint
 *   model KIND VALUE PERIOD DURATION WORDS INTERLEAVE  inject, optional (sc_fmodel_t;
 *                                       absent: FLIP), after the plan
 *   x IDX NFAULTS {CYCLE SM LOC NBITS PATTERN}  inject: one experiment
 *                                       (PATTERN in hex)
 *   end
 * Each record but c and x at most once, config before plan, plan before
 * c and model. Every field is checked as it is read: NPARTS is 0 or NUM_SMS + 2
 * (sc_state_parts), at most SC_RT_MAX_CKPT checkpoints with non-decreasing
 * cycles, NFAULTS 1..SC_RT_MAX_FAULTS, NBITS 1..64, a model the target
 * supports (sc_model_supported) with VALUE 0..1, experiments in order of
 * their first cycle; a bad file ends the program with exit 2 and a message
 * naming the file, line, record and field.
 * Result channel (host program -> flipsim, fd SC_RT_FD; text lines):
 *   G CLOCK CYCLES WARP_INSTS THREAD_INSTS LAUNCHES DUE   golden totals
 *   L KERNEL GX GY GZ BX BY BZ REGS PREDS SMEM LOCAL CTAS/SM LIMITER
 *     OCCUPANCY START END CYCLES WARP_INSTS THREAD_INSTS    per launch
 *   S COUNT...                          with ib_similarity, after each L:
 *                                       its ib_distinct, SC_IB_SIM_BINS counts
 *   H COUNT...                          with SHARP on, after each L: its
 *                                       sc_sharp_stats_t, SC_SHARP_STATS_LIST's order
 *   R COUNT...                          with REFU on, after each L: its
 *                                       sc_refu_stats_t, SC_REFU_STATS_LIST's order
 *   C CYCLE PART... (hex)               golden checkpoint
 *   X IDX KIND DUE CYCLES HAS_LIVE LIVE WSTATUS WALL SITE EFFECT  inject: one
 *     result (SITE, EFFECT: JSON objects without blanks, "-" for none)
 *                                       (the LINE fields of SC_RT_RESULT_LIST)
 *   E                                   the runtime's part ended normally
 * DUE and KIND are numbers (sc_due_t, sc_rt_kind_t).
 * Experiment outputs (inject: outdir/IDX.out, IDX.err): "%020llu\n" (21
 * bytes), the length of the parent's stdout / stderr file when the child
 * forked (its output begins with those bytes, the golden run's), then what
 * the child wrote after; flipsim compares them with the golden output as
 * streams, so no experiment holds a copy of the output before its fork. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sc_int.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool write_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		b += k;
		n -= (size_t)k;
	}
	return true;
}

/* ------------------------------------------------------------ checkpoints */

/* Bytes of line hashes the checkpoints may hold; beyond it a run keeps
 * whole-state early termination only (less early ends, never other ones). */
#define RT_LINES_BUDGET (256ull << 20)

static void lines_off(sc_rt_ckpts_t *ck)
{
	ck->lines = 0;
	ck->nlines = 0;
	free(ck->line);
	free(ck->touch);
	free(ck->line_addr);
	free(ck->line_len);
	ck->line = ck->touch = ck->line_addr = NULL;
	ck->line_len = NULL;
}

/* The first checkpoint: the lines' addresses and lengths in the layout
 * they are cut from. false when out of memory. */
static bool lines_layout(sc_rt_ckpts_t *ck, const sc_gmem_t *m, uint32_t nl, uint64_t sig)
{
	if (!(ck->line_addr = malloc((nl ? nl : 1) * sizeof *ck->line_addr)) ||
	    !(ck->line_len = malloc((nl ? nl : 1) * sizeof *ck->line_len)))
		return false;
	ck->nlines = nl;
	ck->layout = sig;
	uint32_t k = 0;
	for (uint32_t a = 0; a < m->n; a++)
		for (uint64_t off = 0; off < m->a[a].size; off += SC_LINE, k++) {
			ck->line_addr[k] = m->a[a].base + off;
			ck->line_len[k] = (uint32_t)(m->a[a].size - off < SC_LINE ? m->a[a].size - off : SC_LINE);
		}
	return true;
}

/* Room for checkpoint ck->n's line hashes, or NULL with the lines off. */
static uint64_t *lines_row(sc_rt_ckpts_t *ck, const sc_gmem_t *m)
{
	uint32_t nl = sc__gmem_nlines(m);
	uint64_t sig = sc__gmem_layout(m), *lines;
	if (ck->n && (nl != ck->nlines || sig != ck->layout))
		lines_off(ck); /* allocations changed between checkpoints */
	else if ((uint64_t)(ck->n + 1) * nl * sizeof *lines > RT_LINES_BUDGET)
		lines_off(ck); /* a huge memory: whole-state checks only */
	else if (!ck->n && !lines_layout(ck, m, nl, sig))
		lines_off(ck);
	else if ((lines = realloc(ck->line, (size_t)(ck->n + 1) * nl * sizeof *lines)) == NULL)
		lines_off(ck);
	else
		return (ck->line = lines) + (size_t)ck->n * nl;
	return NULL;
}

/* The nlines line hashes of memory as sc__gmem_hash_at just saw it, or NULL. */
static const uint64_t *cached_lines(const sc_gpu_t *gpu, uint32_t nlines)
{
	const sc_trace_t *t = gpu->trace;
	return t && t->lh && t->base == t->lh && t->nlh == nlines ? t->lh : NULL;
}

static uint64_t on_checkpoint(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	sc_rt_ckpts_t *ck = ctx;
	if (ck->n >= SC_RT_MAX_CKPT)
		return UINT64_MAX;
	uint32_t np = sc_state_parts(gpu);
	uint64_t *part = realloc(ck->part, (size_t)(ck->n + 1) * np * sizeof *part);
	if (!part)
		return UINT64_MAX; /* fewer checkpoints: only less early termination */
	ck->part = part;
	ck->nparts = np;
	for (uint32_t i = 0; i + 1 < np; i++)
		part[(size_t)ck->n * np + i] = sc_state_hash_part(gpu, i);
	uint64_t *lines = ck->lines ? lines_row(ck, &gpu->gmem) : NULL;
	/* memory incrementally: only the lines written since the last checkpoint */
	uint64_t h = sc__gmem_hash_at(gpu, cycle);
	const uint64_t *now = lines ? cached_lines(gpu, ck->nlines) : NULL;
	if (now)
		memcpy(lines, now, (size_t)ck->nlines * sizeof *lines);
	else if (lines)
		h = sc__gmem_hash(gpu, lines);
	part[(size_t)ck->n * np + np - 1] = h;
	ck->cycle[ck->n++] = cycle;
	return cycle + ck->interval;
}

void sc_rt_record(sc_gpu_t *gpu, sc_rt_ckpts_t *ck)
{
	if (!ck->interval)
		return; /* nothing to record */
	/* the trace: written lines (the incremental memory hash), and with
	 * lines the touches too */
	if (sc__trace_on(gpu, ck->lines != 0))
		ck->lines = 0;
	sc_set_pause(gpu, ck->interval, on_checkpoint, ck);
}

void sc_rt_record_end(sc_gpu_t *gpu, sc_rt_ckpts_t *ck)
{
	const sc_trace_t *t = gpu->trace;
	if (ck->lines && (!t || t->broken || !ck->n))
		lines_off(ck);
	if (ck->lines && !(ck->touch = calloc(ck->nlines ? ck->nlines : 1, sizeof *ck->touch)))
		lines_off(ck);
	if (ck->lines) {
		/* the trace is indexed by allocation as at the checkpoints (frees
		 * after the last touch, as a workload's clean-up, change nothing) */
		uint32_t k = 0, a = 0;
		for (uint64_t base = UINT64_MAX; k < ck->nlines; k++) {
			if (k && ck->line_addr[k] != ck->line_addr[k - 1] + SC_LINE)
				a++; /* a new allocation starts */
			if (base == UINT64_MAX || ck->line_addr[k] != ck->line_addr[k - 1] + SC_LINE)
				base = ck->line_addr[k];
			uint64_t l = (ck->line_addr[k] - base) / SC_LINE;
			ck->touch[k] = a < t->n && t->last[a] ? t->last[a][l] : 0;
		}
	}
	sc__trace_free(gpu);
}

void sc_rt_ckpts_free(sc_rt_ckpts_t *ck)
{
	if (ck) {
		free(ck->part);
		ck->part = NULL;
		ck->n = 0;
		lines_off(ck);
	}
}

/* ----------------------------------------------------------------- runner */

/* ---- the result record (simcore.h SC_RT_RESULT_LIST) ----
 * A child sends its runner its sc_rt_result_t as it is (the same program
 * on both ends of the pipe); the runner checks every field by its kind. A
 * host program writes the LINE fields as text. */
#define KIND_OK_U64(v) true
#define KIND_OK_INT(v) true
#define KIND_OK_KIND(v) ((unsigned)(v) <= SC_RT_NO_REPORT)
#define KIND_OK_DUE(v) ((unsigned)(v) < SC_DUE__COUNT)
#define KIND_OK_PROT(v) ((unsigned)(v) < SC_PROT__COUNT)
#define KIND_OK_WALL(v) ((v) >= 0)
#define KIND_OK_TEXT(v) (memchr((v), 0, sizeof(v)) != NULL)
#define KIND_OK_JSON(v) (memchr((v), 0, sizeof(v)) != NULL && ((v)[0] == 0 || (v)[0] == '{'))

/* Whether every field of a received report holds a value of its kind. */
static bool result_ok(const sc_rt_result_t *r)
{
	bool ok = true;
#define X(field, kind, line, what) ok = ok && KIND_OK_##kind(r->field);
	SC_RT_RESULT_LIST(X)
#undef X
	return ok;
}

#define FMT_U64(b, n, sep, v) snprintf(b, n, "%s%" PRIu64, sep, (v))
#define FMT_INT(b, n, sep, v) snprintf(b, n, "%s%d", sep, (int)(v))
#define FMT_KIND FMT_INT
#define FMT_DUE FMT_INT
#define FMT_PROT FMT_INT
#define FMT_WALL(b, n, sep, v) snprintf(b, n, "%s%.6f", sep, (v))
#define FMT_TEXT(b, n, sep, v) snprintf(b, n, "%s%s", sep, (v))
#define FMT_JSON(b, n, sep, v) snprintf(b, n, "%s%s", sep, (v)[0] ? (v) : "-")

void sc_rt_result_format(const sc_rt_result_t *r, char *buf, size_t n)
{
	size_t len = 0;
	const char *sep = "";
	buf[0] = 0;
#define X(field, kind, line, what)                                             \
	if (line && len < n) {                                                      \
		len += (size_t)FMT_##kind(buf + len, n - len, sep, r->field);           \
		sep = " ";                                                              \
	}
	SC_RT_RESULT_LIST(X)
#undef X
}

/* One field of a line at *p: a number of the kind's range. false when absent or out of range. */
static bool parse_u64(char **p, uint64_t *v)
{
	char *e;
	errno = 0;
	while (**p == ' ')
		(*p)++;
	if (!isdigit((unsigned char)**p))
		return false;
	*v = strtoull(*p, &e, 10);
	bool ok = !errno && e != *p;
	*p = e;
	return ok;
}

static bool parse_int(char **p, int *v)
{
	char *e;
	errno = 0;
	long x = strtol(*p, &e, 10);
	bool ok = !errno && e != *p && x >= INT_MIN && x <= INT_MAX;
	*p = e;
	*v = (int)x;
	return ok;
}

static bool parse_wall(char **p, double *v)
{
	char *e;
	*v = strtod(*p, &e);
	bool ok = e != *p;
	*p = e;
	return ok;
}

/* A JSON field: one word, "-" for empty, else an object that fits. */
static bool parse_json(char **p, char *f, size_t n)
{
	while (**p == ' ')
		(*p)++;
	size_t k = strcspn(*p, " \n");
	bool empty = k == 1 && **p == '-';
	if (!k || k >= n || (!empty && **p != '{'))
		return false;
	memcpy(f, *p, empty ? 0 : k);
	f[empty ? 0 : k] = 0;
	*p += k;
	return true;
}

#define PARSE_U64(p, f) parse_u64(p, &(f))
#define PARSE_INT(p, f) parse_int(p, &(f))
#define PARSE_KIND(p, f) (parse_int(p, &k) && (f = (sc_rt_kind_t)k, KIND_OK_KIND(k)))
#define PARSE_DUE(p, f) (parse_int(p, &k) && (f = (sc_due_t)k, KIND_OK_DUE(k)))
#define PARSE_PROT(p, f) (parse_int(p, &k) && (f = (sc_prot_t)k, KIND_OK_PROT(k)))
#define PARSE_WALL(p, f) parse_wall(p, &(f))
#define PARSE_TEXT(p, f) false /* never on the line */
#define PARSE_JSON(p, f) parse_json(p, f, sizeof(f))

int sc_rt_result_parse(const char *line, sc_rt_result_t *r)
{
	memset(r, 0, sizeof *r);
	r->verdict = -1;
	char *p = (char *)line;
	int k;
	bool ok = true;
#define X(field, kind, line, what) ok = ok && (!line || PARSE_##kind(&p, r->field));
	SC_RT_RESULT_LIST(X)
#undef X
	p += strspn(p, " \n");
	return ok && !*p ? 0 : SC_EINVAL;
}

/* The runtime's state for one GPU (gpu->hook_ctx while rt_hooks are
 * installed): the fork-at-cycle runner, and in an experiment child the
 * experiment. A forked child inherits its parent's copy. */
typedef struct rt {
	sc_gpu_t *gpu;
	struct env *env;              /* env mode: the job this GPU runs, else NULL */
	const sc_rt_plan_t *p;
	sc_rt_hooks_t h;
	uint64_t next;                /* next experiment to start */
	bool has_live;                /* live sampling: live bits of the current */
	uint64_t live;                /* experiment, measured where it starts    */
	/* in a child */
	bool child, reported;
	bool gone;                    /* env mode: the program destroyed gpu; its */
	sc_prot_t prot;               /* first protection event, kept then        */
	uint64_t prot_cycle;
	int wfd;                      /* the report pipe's write end */
	const sc_rt_exp_t *cur;
	uint32_t fault;               /* next fault of cur to inject */
	uint64_t start;               /* cycle the experiment started at */
	uint32_t ck;                  /* next checkpoint to compare */
	uint32_t misses;              /* comparisons failed in a row */
	uint64_t seen;                /* `observed` when the last fault went in */
	bool dead;                    /* the single fault hits a dead value */
	uint64_t *diff_addr;          /* scratch: the lines that differ */
	uint32_t *diff_len;
	bool fu_check;                /* an FU fault waits to be confirmed */
	uint64_t fu_cycle;
	char site[SC_RT_JSON];        /* the first fault's site (sc_site_json) */
	char effect[SC_RT_JSON];      /* what it met first (sc_watch) */
	char note[SC_RT_JSON];        /* sc_rt_child_note */
	/* Host calls that showed the program something the GPU computed. Early
	 * termination is exact only while the program has seen nothing since
	 * the fault: its own state is then the golden one, and equal GPU
	 * states mean equal futures. */
	uint64_t observed;
} rt_t;

static void rt_observe(void *ctx) { ((rt_t *)ctx)->observed++; }

static void env_gone(struct env *env, sc_gpu_t *g);

/* The GPU is being destroyed: its runtime goes with it, unless env mode
 * still needs it at the program's exit. */
static void rt_gone(void *ctx, sc_gpu_t *g)
{
	rt_t *rt = ctx;
	if (rt->env) { /* the report at exit reads what it needs now */
		rt->prot = sc_prot_first(g, &rt->prot_cycle);
		rt->gone = true;
		env_gone(rt->env, g);
		return;
	}
	g->hooks = NULL;
	free(rt->diff_addr);
	free(rt->diff_len);
	free(rt);
}

/* The GPU's hooks while the runtime runs it (sc_rt_attach, sc_rt_become,
 * env mode). */
static const sc_gpu_hooks_t rt_hooks = {.observe = rt_observe, .gone = rt_gone};

/* gpu's runtime, or NULL when the runtime does not run it. */
static rt_t *rt_of(const sc_gpu_t *gpu) { return gpu && gpu->hooks == &rt_hooks ? gpu->hook_ctx : NULL; }

/* gpu's runtime, made and installed when it has none; its runner set for
 * plan p and hooks h (NULL: none), the rest of a runner cleared. NULL
 * when out of memory. */
static rt_t *rt_install(sc_gpu_t *gpu, const sc_rt_plan_t *p, const sc_rt_hooks_t *h)
{
	rt_t *rt = rt_of(gpu);
	if (!rt && !(rt = calloc(1, sizeof *rt)))
		return NULL;
	gpu->regs_original = p && p->regs_original; /* sampling's space (fault.c) */
	struct env *env = rt->env;
	uint64_t observed = rt->observed;
	free(rt->diff_addr);
	free(rt->diff_len);
	*rt = (rt_t){.gpu = gpu, .env = env, .observed = observed, .p = p};
	if (h)
		rt->h = *h;
	/* l2 faults can lose dirty sectors: their DRAM bytes are kept */
	if (p && p->target == SC_TGT_L2 && sc_dram_image(gpu, true))
		return NULL;
	gpu->hooks = &rt_hooks;
	gpu->hook_ctx = rt;
	return rt;
}

/* Sends the child's report; `due` and `cycles` describe where it ended. */
static void child_send(rt_t *rt, sc_rt_kind_t kind, int verdict, const char *reason, sc_due_t due, uint64_t cycles)
{
	sc_rt_result_t rep;
	memset(&rep, 0, sizeof rep);
	rep.idx = rt->cur->idx;
	rep.kind = kind;
	rep.verdict = verdict;
	rep.due = due;
	rep.has_live = rt->has_live;
	rep.live = rt->live;
	rep.cycles = cycles;
	rep.prot = rt->gone ? rt->prot : sc_prot_first(rt->gpu, &rep.prot_cycle);
	if (rt->gone)
		rep.prot_cycle = rt->prot_cycle;
	if (reason)
		snprintf(rep.reason, sizeof rep.reason, "%s", reason);
	memcpy(rep.site, rt->site, sizeof rep.site);
	memcpy(rep.note, rt->note, sizeof rep.note);
	if (kind != SC_RT_UNUSED && kind != SC_RT_DEAD && kind != SC_RT_BAD_MASK)
		memcpy(rep.effect, rt->effect, sizeof rep.effect);
	rt->reported = true;
	if (!write_all(rt->wfd, &rep, sizeof rep))
		_exit(1);
	close(rt->wfd);
}

static _Noreturn void child_end(rt_t *rt, sc_rt_kind_t kind, uint64_t cycles)
{
	child_send(rt, kind, -1, NULL, SC_DUE_NONE, cycles);
	_exit(0);
}

_Noreturn void sc_rt_child_exit_early(const sc_gpu_t *gpu, int verdict, const char *reason)
{
	rt_t *rt = rt_of(gpu);
	uint64_t now = gpu->cycle;
	child_send(rt, SC_RT_EARLY, verdict, reason, SC_DUE_NONE, now > rt->start ? now - rt->start : 0);
	_exit(0);
}

_Noreturn void sc_rt_child_exit(const sc_gpu_t *gpu, int verdict, const char *reason)
{
	rt_t *rt = rt_of(gpu);
	uint64_t now = gpu->cycle;
	/* The run ended before the first fault's cycle came (it lies after the
	 * last event): nothing was injected, as fork mode says by not pausing. */
	if (rt->fault == 0)
		child_end(rt, SC_RT_UNUSED, 0);
	child_send(rt, SC_RT_ENDED, verdict, reason, gpu->status.reason, now > rt->start ? now - rt->start : 0);
	_exit(0);
}

void sc_rt_child_note(const sc_gpu_t *gpu, const char *json)
{
	rt_t *rt = rt_of(gpu);
	if (!rt || !rt->child)
		return;
	size_t k = json ? strlen(json) : 0;
	bool ok = k < sizeof rt->note && (k == 0 || json[0] == '{') && !strpbrk(json, " \t\n");
	memcpy(rt->note, json, ok ? k : 0);
	rt->note[ok ? k : 0] = 0;
}

const sc_rt_exp_t *sc_rt_current(const sc_gpu_t *gpu)
{
	const rt_t *rt = rt_of(gpu);
	return rt && rt->child ? rt->cur : NULL;
}

/* The physical location fault f names now: its loc, or where a live
 * draw lands. false when a live draw finds nothing in use. */
static bool fault_loc(const rt_t *rt, const sc_gpu_t *gpu, const sc_rt_fault_t *f, uint64_t *loc)
{
	const sc_rt_plan_t *p = rt->p;
	*loc = f->loc;
	return !p->live || sc_live_loc(gpu, p->target, p->fields, f->sm, f->loc, f->nbits, loc) == 1;
}

/* Fault f's site now, into buf (the runtime's SC_RT_JSON bytes). */
static void describe(const rt_t *rt, const sc_gpu_t *gpu, const sc_rt_fault_t *f, char *buf)
{
	const sc_rt_plan_t *p = rt->p;
	uint64_t loc;
	int k = -1;
	buf[0] = 0;
	if (p->no_attr)
		return;
	if (fault_loc(rt, gpu, f, &loc))
		k = sc_site_json_model(gpu, p->target, p->fields, f->sm, loc, f->nbits, &p->model, f->pattern, buf,
		                       SC_RT_JSON);
	else
		k = snprintf(buf, SC_RT_JSON, "{\"target\":\"%s\",\"sm\":%u,\"in_use\":false}", sc_target_name(p->target),
		             f->sm);
	if (k < 0 || k >= SC_RT_JSON)
		buf[0] = 0;
}

static int inject(const rt_t *rt, sc_gpu_t *gpu, const sc_rt_fault_t *f)
{
	const sc_rt_plan_t *p = rt->p;
	if (p->model.kind == SC_FM_FLIP && p->model.words <= 1) {
		if (p->live)
			return sc_inject_live(gpu, p->target, p->fields, f->sm, f->loc, f->nbits);
		return sc_inject(gpu, p->target, p->fields, f->sm, f->loc, f->nbits);
	}
	uint64_t loc = f->loc;
	if (p->live) {
		int rc = sc_live_loc(gpu, p->target, p->fields, f->sm, f->loc, f->nbits, &loc);
		if (rc != 1)
			return rc;
		if (p->target == SC_TGT_FU && f->nbits == 64)
			loc -= loc % 64; /* a lane's whole result (any bit is live there) */
	}
	return sc_inject_model(gpu, p->target, p->fields, f->sm, loc, f->nbits, &p->model, f->pattern);
}

/* A permanent or intermittent fault: the run never re-joins golden unless
 * the stuck bit holds its value wherever it is read, which is not checked,
 * so early termination and the unused and dead shortcuts are off. */
static bool permanent(const sc_rt_plan_t *p) { return p->model.kind == SC_FM_STUCK; }

/* The words a fault hits: 1, or the MCU's. */
static uint32_t fault_words(const sc_rt_plan_t *p) { return p->model.words > 1 ? p->model.words : 1; }

/* Shortcut tests over every word a fault hits (physical sampling): `use`
 * when any word is in use, `dead` when every word in use holds a dead
 * value. -1 when a word lies outside the space. */
static int words_test(const sc_rt_plan_t *p, const sc_gpu_t *gpu, const sc_rt_fault_t *f, bool dead)
{
	uint32_t wb;
	uint64_t n = sc__space_bits(gpu, p->target, p->fields, &wb);
	uint64_t stride = (uint64_t)p->model.interleave * wb;
	int any = 0;
	for (uint32_t j = 0; j < fault_words(p) && f->loc + j * stride + f->nbits <= n; j++) {
		uint64_t loc = f->loc + j * stride;
		int use = sc_target_in_use(gpu, p->target, p->fields, f->sm, loc, f->nbits);
		if (use < 0)
			return use;
		if (dead && use == 1 && sc_target_dead(gpu, p->target, p->fields, f->sm, loc, f->nbits) != 1)
			return 0;
		any |= use;
	}
	return any;
}

/* Whether single fault f lands only on values nothing reads again (the
 * `dead` shortcut): with physical sampling, every word it hits in use and
 * dead (words_test); in ptx mode's virtual registers (live draws), where
 * the draw lands holds nothing read again (sc__virtual_at). */
static bool dead_fault(const sc_rt_plan_t *p, const sc_gpu_t *gpu, const sc_rt_fault_t *f)
{
	uint64_t loc;
	if (p->no_dead || permanent(p))
		return false;
	if (!p->live)
		return words_test(p, gpu, f, true) == 1;
	return sc__virtual(gpu, p->target) && sc_live_loc(gpu, p->target, p->fields, f->sm, f->loc, f->nbits, &loc) == 1 &&
	       sc_target_dead(gpu, p->target, p->fields, f->sm, loc, f->nbits) == 1;
}

/* The next cycle the child must stop at: a pending fault, the FU check, an
 * intermittent fault's next window, or the next checkpoint (early
 * termination). */
static uint64_t child_next(rt_t *rt, uint64_t now)
{
	const sc_rt_ckpts_t *ck = rt->p->ck;
	if (rt->fault < rt->cur->nfaults)
		return rt->cur->f[rt->fault].cycle;
	if (rt->fu_check)
		return rt->fu_cycle + 1;
	if (rt->gpu->stuck.on && rt->gpu->stuck.period) /* forces the bit in an open window */
		return sc_stuck_pause(rt->gpu, now);
	if (rt->p->no_early || !ck || permanent(rt->p))
		return UINT64_MAX;
	while (rt->ck < ck->n && ck->cycle[rt->ck] < now)
		rt->ck++;
	return rt->ck < ck->n ? ck->cycle[rt->ck] : UINT64_MAX;
}

/* The state at checkpoint k against the golden one, part by part: the
 * launch state, then the SM of the (first) fault, the other SMs, global
 * memory last (incrementally: only the lines written since the last
 * comparison, or since the golden checkpoint the experiment started
 * after). A faulty state usually differs where the fault was, so a failed
 * check costs a fraction of a full hash. Returns 0 when equal, 1 when
 * something but global memory differs, 2 when only global memory does
 * (then gpu->trace->lh holds this state's line hashes). */
static int compare_state(const rt_t *rt, sc_gpu_t *gpu, uint32_t k)
{
	const sc_rt_ckpts_t *ck = rt->p->ck;
	const uint64_t *part = &ck->part[(size_t)k * ck->nparts];
	uint32_t n = ck->nparts, first = 1 + rt->cur->f[0].sm;
	if (n != sc_state_parts(gpu) || sc_state_hash_part(gpu, 0) != part[0])
		return 1;
	if (first < n - 1 && sc_state_hash_part(gpu, first) != part[first])
		return 1;
	for (uint32_t i = 1; i + 1 < n; i++)
		if (i != first && sc_state_hash_part(gpu, i) != part[i])
			return 1;
	return sc__gmem_hash_at(gpu, ck->cycle[k]) == part[n - 1] ? 0 : 2;
}

/* Only global memory differs at checkpoint k: when every differing line is
 * one the golden run never touches again, hand them to mem_final. */
static void memory_only(rt_t *rt, sc_gpu_t *gpu, uint32_t k, uint64_t cycle)
{
	const sc_rt_ckpts_t *ck = rt->p->ck;
	const uint64_t *lines = cached_lines(gpu, ck->nlines);
	if (!ck->lines || !rt->h.mem_final || !lines || sc__gmem_nlines(&gpu->gmem) != ck->nlines)
		return;
	if (!rt->diff_addr) {
		rt->diff_addr = malloc((ck->nlines ? ck->nlines : 1) * sizeof *rt->diff_addr);
		rt->diff_len = malloc((ck->nlines ? ck->nlines : 1) * sizeof *rt->diff_len);
	}
	if (!rt->diff_addr || !rt->diff_len)
		return;
	const uint64_t *golden = &ck->line[(size_t)k * ck->nlines];
	uint32_t n = 0;
	for (uint32_t i = 0; i < ck->nlines; i++) {
		if (lines[i] == golden[i])
			continue;
		if (ck->touch[i] > cycle)
			return; /* touched again (ck->touch is the last cycle + 1): it may still matter */
		rt->diff_addr[n] = ck->line_addr[i];
		rt->diff_len[n++] = ck->line_len[i];
	}
	if (n)
		rt->h.mem_final(rt->h.ctx, gpu, rt->diff_addr, rt->diff_len, n);
}

static uint64_t child_pause(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	rt_t *rt = ctx;
	uint64_t now = gpu->cycle;
	const sc_rt_ckpts_t *ck = rt->p->ck;
	if (rt->fault < rt->cur->nfaults && cycle == rt->cur->f[rt->fault].cycle) {
		const sc_rt_fault_t *f = &rt->cur->f[rt->fault++];
		/* no-fork mode decides here what fork mode decided before forking */
		rt->dead = rt->cur->nfaults == 1 && dead_fault(rt->p, gpu, f);
		if (rt->fault == 1 && !rt->p->no_attr) { /* where the first fault lands, and what it meets */
			uint64_t loc;
			describe(rt, gpu, f, rt->site);
			if (fault_loc(rt, gpu, f, &loc))
				sc_watch(gpu, rt->p->target, rt->p->fields, f->sm, loc, f->nbits, rt->effect, sizeof rt->effect);
		}
		if (rt->fault == 1 && !rt->has_live) {
			/* fork mode measured it before forking; no-fork measures here */
			rt->has_live = rt->p->live;
			rt->live = rt->has_live ? sc_target_live_bits(gpu, rt->p->target, rt->p->fields, f->sm) : 0;
		}
		int rc = inject(rt, gpu, f);
		if (rc < 0)
			child_end(rt, SC_RT_BAD_MASK, 0);
		if (rc == 0 && rt->cur->nfaults == 1)
			child_end(rt, SC_RT_UNUSED, 0);
		if (rt->cur->nfaults == 1 && rt->dead)
			child_end(rt, SC_RT_DEAD, 0);
		if (rt->p->target == SC_TGT_FU && !permanent(rt->p)) {
			rt->fu_check = true;
			rt->fu_cycle = cycle;
		}
		rt->seen = rt->observed;
		return child_next(rt, now);
	}
	if (rt->fu_check && cycle == rt->fu_cycle + 1) {
		rt->fu_check = false;
		if (rt->fault == 1) /* the instruction it hit is known now */
			describe(rt, gpu, &rt->cur->f[0], rt->site);
		if (!sc_fu_applied(gpu) && rt->cur->nfaults == 1)
			child_end(rt, SC_RT_UNUSED, 1);
		return child_next(rt, now);
	}
	if (ck && rt->ck < ck->n && cycle == ck->cycle[rt->ck] && !permanent(rt->p)) {
		if (rt->observed != rt->seen)
			return UINT64_MAX; /* the program saw faulty data: its state may differ */
		int cmp = compare_state(rt, gpu, rt->ck);
		if (cmp == 0)
			child_end(rt, SC_RT_EARLY, cycle - rt->start);
		if (cmp == 2)
			memory_only(rt, gpu, rt->ck, cycle);
		/* a fault that has not died out is unlikely to die soon: compare
		 * at checkpoints 1, 2, 4, 8 (at most) apart */
		rt->misses++;
		rt->ck += 1u << (rt->misses / 2 < 3 ? rt->misses / 2 : 3);
	}
	return child_next(rt, now);
}

/* Turns this process into experiment e: in the child at the activation
 * cycle (fork mode) or before the run (no-fork mode). */
/* No-fork mode: the child's memory hashes start from the golden line
 * hashes of the last checkpoint before its first fault (with lines): until
 * then its memory is the golden one, and the trace names every line
 * written since. (A forked child inherits its parent's hashes instead.) */
static void seed_lines(const rt_t *rt, sc_gpu_t *gpu, const sc_rt_exp_t *e)
{
	const sc_rt_ckpts_t *ck = rt->p->ck;
	if (!ck || !ck->lines || !ck->line || !ck->n || ck->cycle[0] > e->f[0].cycle)
		return;
	uint32_t j = 0;
	while (j + 1 < ck->n && ck->cycle[j + 1] <= e->f[0].cycle)
		j++;
	sc__gmem_cache_seed(gpu, &ck->line[(size_t)j * ck->nlines], ck->nlines, ck->layout, ck->cycle[j]);
}

static void become_child(rt_t *rt, sc_gpu_t *gpu, const sc_rt_exp_t *e, int wfd)
{
	rt->child = true;
	rt->reported = false;
	rt->wfd = wfd;
	rt->cur = e;
	rt->fault = 0;
	rt->ck = 0;
	rt->misses = 0;
	rt->fu_check = false;
	rt->site[0] = rt->effect[0] = rt->note[0] = 0;
	rt->start = e->f[0].cycle;
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* an experiment never outlives its runner */
	if (rt->p->watchdog_s)
		alarm(rt->p->watchdog_s);
	sc_set_cycle_budget(gpu, rt->p->cycle_budget);
	sc_set_pause(gpu, e->f[0].cycle, child_pause, rt);
	if (rt->h.child_start)
		rt->h.child_start(rt->h.ctx, e);
}

/* Waits for child pid and reads its report from rfd (closed) into *r;
 * without a report, the live bits the parent measured (has_live, live). */
static void wait_report(int pid, int rfd, const sc_rt_exp_t *e, double t0, bool has_live, uint64_t live,
                        sc_rt_result_t *r)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sc_rt_result_t rep;
	size_t got = 0;
	while (got < sizeof rep) {
		ssize_t k = read(rfd, (char *)&rep + got, sizeof rep - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(rfd);
	if (got == sizeof rep && result_ok(&rep) && rep.idx == e->idx) {
		*r = rep;
	} else { /* no report, or not one this runtime wrote */
		memset(r, 0, sizeof *r);
		r->kind = SC_RT_NO_REPORT;
		r->verdict = -1;
		r->has_live = has_live;
		r->live = live;
	}
	r->idx = e->idx;
	r->wstatus = st;
	r->wall = now_s() - t0;
}

void sc_rt_wait(int pid, int rfd, const sc_rt_exp_t *e, double t0, sc_rt_result_t *r)
{
	wait_report(pid, rfd, e, t0, false, 0, r);
}

static void done(rt_t *rt, const sc_rt_exp_t *e, sc_rt_kind_t kind)
{
	sc_rt_result_t r;
	memset(&r, 0, sizeof r);
	describe(rt, rt->gpu, &e->f[0], r.site);
	r.idx = e->idx;
	r.kind = kind;
	r.wstatus = -1;
	r.verdict = -1;
	r.has_live = rt->has_live;
	r.live = rt->live;
	rt->h.done(rt->h.ctx, e, &r);
}

/* Before a fork at cycle `at`: the memory's line hashes as of now, which
 * the child inherits; its comparisons then hash only the lines written
 * after the fork (incremental here too: the lines written since the last
 * fork). Only when the child may compare: early termination on, a
 * checkpoint after `at`. */
static void lines_for_child(const rt_t *rt, sc_gpu_t *gpu, uint64_t at)
{
	const sc_rt_ckpts_t *ck = rt->p->ck;
	if (!rt->p->no_early && ck && ck->n && ck->cycle[ck->n - 1] >= at)
		sc__gmem_hash_at(gpu, at);
}

/* Forks the experiment child: returns true in the child, waits and
 * reports in the parent (false). */
static bool spawn(rt_t *rt, sc_gpu_t *gpu, const sc_rt_exp_t *e)
{
	int p[2];
	lines_for_child(rt, gpu, e->f[0].cycle);
	double t0 = now_s();
	if (pipe(p) < 0) {
		done(rt, e, SC_RT_NO_REPORT);
		return false;
	}
	fflush(NULL); /* the child must not write the parent's buffered output again */
	sc__state_arm(gpu); /* the child's SM state: the spares (sc_statemap_t) */
	pid_t pid = fork();
	sc__state_disarm(gpu); /* a child took the spares inside fork() */
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		done(rt, e, SC_RT_NO_REPORT);
		return false;
	}
	if (pid == 0) {
		close(p[0]);
		become_child(rt, gpu, e, p[1]);
		return true;
	}
	close(p[1]);
	sc_rt_result_t r;
	wait_report(pid, p[0], e, t0, rt->has_live, rt->live, &r);
	rt->h.done(rt->h.ctx, e, &r);
	return false;
}

/* Parent pause hook: the golden replay reached an activation cycle. */
static uint64_t parent_pause(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	rt_t *rt = ctx;
	const sc_rt_plan_t *p = rt->p;
	while (rt->next < p->nexp && p->exp[rt->next].f[0].cycle <= cycle) {
		const sc_rt_exp_t *e = &p->exp[rt->next++];
		const sc_rt_fault_t *f = &e->f[0];
		rt->has_live = p->live;
		rt->live = rt->has_live ? sc_target_live_bits(gpu, p->target, p->fields, f->sm) : 0;
		if (e->nfaults == 1 && !permanent(p)) {
			int use;
			if (p->live)
				use = rt->live > 0 || p->target == SC_TGT_FU;
			else
				use = words_test(p, gpu, f, false);
			if (use == 0) {
				done(rt, e, SC_RT_UNUSED);
				continue;
			}
			if (dead_fault(p, gpu, f)) {
				done(rt, e, SC_RT_DEAD);
				continue;
			}
		}
		/* the liveness that names virtual registers (and, in ptx mode,
		 * finds them), once, before the forks: children share it instead
		 * of each computing it */
		if ((!p->no_attr || sc__virtual(gpu, p->target)) && gpu->run.mod)
			sc__vreg_prepare((sc_module_t *)gpu->run.mod);
		if (spawn(rt, gpu, e))
			return child_pause(gpu, rt, cycle); /* the child: inject now */
	}
	return rt->next < p->nexp ? p->exp[rt->next].f[0].cycle : UINT64_MAX;
}

static bool model_ok(const sc_rt_plan_t *p)
{
	const sc_fmodel_t *m = &p->model;
	if (!sc_model_supported(p->target, m->kind) || m->value > 1 || (m->words > 1 && m->interleave == 0))
		return false;
	return m->kind != SC_FM_STUCK || (m->words <= 1 && (!m->period || (m->duration && m->duration <= m->period)));
}

static bool plan_ok(const sc_rt_plan_t *p)
{
	if ((unsigned)p->target >= SC_TGT__COUNT || !model_ok(p))
		return false;
	for (uint64_t i = 0; i < p->nexp; i++)
		if (p->exp[i].nfaults == 0 || p->exp[i].nfaults > SC_RT_MAX_FAULTS ||
		    (i && p->exp[i].f[0].cycle < p->exp[i - 1].f[0].cycle))
			return false;
	return (unsigned)p->target < SC_TGT__COUNT;
}

int sc_rt_attach(sc_gpu_t *gpu, const sc_rt_plan_t *p, const sc_rt_hooks_t *h)
{
	if (!gpu || !p || !h || !h->done || !plan_ok(p))
		return SC_EINVAL;
	rt_t *rt = rt_install(gpu, p, h);
	if (!rt)
		return SC_ENOMEM;
	sc__trace_on(gpu, false); /* written lines, for the children's memory hashes */
	/* SM state the children do not copy on write (sc_statemap_t);
	 * failing that, copied on write as everything else */
	sc__state_share(gpu);
	if (p->nexp)
		sc_set_pause(gpu, p->exp[0].f[0].cycle, parent_pause, rt);
	return 0;
}

/* The experiments of rt's plan the replay never reached: UNUSED. */
static void rt_finish(rt_t *rt)
{
	if (!rt || rt->child || !rt->p)
		return;
	while (rt->next < rt->p->nexp) {
		rt->has_live = false;
		rt->live = 0;
		done(rt, &rt->p->exp[rt->next++], SC_RT_UNUSED);
	}
}

void sc_rt_finish(sc_gpu_t *gpu) { rt_finish(rt_of(gpu)); }

int sc_rt_become(sc_gpu_t *gpu, const sc_rt_plan_t *p, const sc_rt_hooks_t *h, const sc_rt_exp_t *e,
                 int report_fd)
{
	if (!gpu || !p || !e || e->nfaults == 0 || e->nfaults > SC_RT_MAX_FAULTS)
		return SC_EINVAL;
	rt_t *rt = rt_install(gpu, p, h);
	if (!rt)
		return SC_ENOMEM;
	rt->h.child_start = NULL; /* this process is the child from the start */
	sc__trace_on(gpu, false);
	seed_lines(rt, gpu, e);
	become_child(rt, gpu, e, report_fd);
	return 0;
}

/* --------------------------------------------------------------- job files */

/* The "protection" record: the codes and the interleave, then the
 * instruction buffer's scheme and its four numbers when it has one, a
 * cache has a code or SHARP is on, then the caches' codes (L1D L2 CONST)
 * when one has, then their tags' (L1D_TAG L2_TAG CONST_TAG) when one has,
 * then "sharp QUEUE TABLE ECC" when SHARP is on (a job without a tail
 * reads as none: older job files stay valid). */
static void write_prot(FILE *f, const sc_protection_t *p)
{
	fprintf(f, "protection %s %s %s %" PRIu32, sc_code_name(p->regfile), sc_code_name(p->pred),
	        sc_code_name(p->smem), p->interleave);
	const sc_ib_protection_t *ib = &p->ibuffer;
	const sc_sharp_protection_t *sh = &p->sharp;
	bool caches = p->l1d != SC_CODE_NONE || p->l2 != SC_CODE_NONE || p->cc != SC_CODE_NONE;
	bool tags = p->l1d_tag != SC_CODE_NONE || p->l2_tag != SC_CODE_NONE || p->cc_tag != SC_CODE_NONE;
	caches |= tags;
	if (ib->scheme != SC_IB_NONE || caches || sh->on)
		fprintf(f, " %s %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32, sc_ib_scheme_name(ib->scheme),
		        ib->table_entries, ib->threshold, ib->progress_window, ib->reissue_penalty);
	if (caches)
		fprintf(f, " %s %s %s", sc_code_name(p->l1d), sc_code_name(p->l2), sc_code_name(p->cc));
	if (tags)
		fprintf(f, " %s %s %s", sc_code_name(p->l1d_tag), sc_code_name(p->l2_tag), sc_code_name(p->cc_tag));
	if (sh->on)
		fprintf(f, " sharp %" PRIu32 " %" PRIu32 " %s", sh->request_queue, sh->warp_table, sc_code_name(sh->ecc));
	fputc('\n', f);
}

int sc_rt_job_write(const char *path, const sc_rt_job_t *j)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return SC_EIO;
	const sc_gpu_config_t *c = &j->cfg;
	fprintf(f, "flipsim-rt 2\nmode %s\nconfig", j->mode == SC_RT_GOLDEN ? "golden" : "inject");
	/* every field of SC_CONFIG_FIELDS but the name, which has a record of its own */
#define WRITE_NAME(m)
#define WRITE_U32(m) fprintf(f, " %" PRIu32, c->m);
#define WRITE_SCHED(m) fprintf(f, " %d", (int)c->m);
#define WRITE_IBINV(m) fprintf(f, " %d", (int)c->m);
#define WRITE_LAT(m)                           \
	for (int i = 0; i < SC_LAT__COUNT; i++) \
		fprintf(f, " %" PRIu32, c->m[i]);
#define WRITE_MHZ(m) fprintf(f, " %.17g", c->m);
#define X(kind, m, lo, hi, gtx480) WRITE_##kind(m)
	SC_CONFIG_FIELDS(X)
#undef X
	fprintf(f, "\nname %s\nregs %s\n", c->name, sc_regs_name(j->regs));
	if (sc_protection_on(&j->prot))
		write_prot(f, &j->prot);
	if (j->prot.penny.on) { /* a record of its own, after the codes' */
		fprintf(f, "penny %s %s %" PRIu32 " %d", sc_code_name(j->prot.penny.edc), sc_penny_mode_name(j->prot.penny.mode),
		        j->prot.penny.recovery_penalty, (int)j->prot.penny.include_pred);
		if (j->prot.penny.mode == SC_PENNY_COMPILED) /* the compiler's fields */
			fprintf(f, " %s %s %" PRIu32, sc_penny_prune_name(j->prot.penny.pruning),
			        sc_penny_storage_name(j->prot.penny.storage), j->prot.penny.block_size);
		fputc('\n', f);
	}
	if (j->prot.refu.on)
		fprintf(f, "refu %" PRIu32 "\n", sc_refu_params(&j->prot).replay_buffer);
	if (j->prot.dup.protect) /* its own record (jr_dup) */
		fprintf(f, "dup %s %s %d\n", sc_dup_protect_name(j->prot.dup.protect), sc_dup_variant_name(j->prot.dup.variant),
		        (int)j->prot.dup.atomics);
	if (j->mode == SC_RT_GOLDEN) {
		fprintf(f, "ck_interval %" PRIu64 " %" PRIu64 "\n", j->ck_interval, j->cycle_budget);
		if (j->ib_similarity)
			fputs("ib_similarity\n", f);
	} else {
		const sc_rt_plan_t *p = &j->plan;
		const sc_rt_ckpts_t *ck = p->ck;
		fprintf(f, "plan %d %u %d %" PRIu64 " %u %d %" PRIu32 " %d %d\n", (int)p->target, p->fields, p->live,
		        p->cycle_budget, p->watchdog_s, p->no_early, ck ? ck->nparts : 0, p->no_dead, p->no_attr);
		fprintf(f, "stdout %s\nstderr %s\noutdir %s\n", j->stdout_path, j->stderr_path, j->out_dir);
		for (uint32_t k = 0; ck && k < ck->n; k++) {
			fprintf(f, "c %" PRIu64, ck->cycle[k]);
			for (uint32_t i = 0; i < ck->nparts; i++)
				fprintf(f, " %" PRIx64, ck->part[(size_t)k * ck->nparts + i]);
			fputc('\n', f);
		}
		if (p->regs_original) /* its own record (jr_regs_subset) */
			fputs("regs_subset original\n", f);
		const sc_fmodel_t *m = &p->model;
		fprintf(f, "model %d %u %" PRIu64 " %" PRIu64 " %u %u\n", (int)m->kind, m->value, m->period, m->duration,
		        m->words, m->interleave);
		for (uint64_t i = 0; i < p->nexp; i++) {
			const sc_rt_exp_t *e = &p->exp[i];
			fprintf(f, "x %" PRIu64 " %" PRIu32, e->idx, e->nfaults);
			for (uint32_t k = 0; k < e->nfaults; k++)
				fprintf(f, " %" PRIu64 " %" PRIu32 " %" PRIu64 " %" PRIu32 " %" PRIx64, e->f[k].cycle, e->f[k].sm,
				        e->f[k].loc, e->f[k].nbits, e->f[k].pattern);
			fputc('\n', f);
		}
	}
	fputs("end\n", f);
	bool bad = ferror(f);
	return (fclose(f) || bad) ? SC_EIO : 0;
}

/* ---------------------------------------------------------------- env mode */

/* A host program's part in a campaign: the job file it was started with
 * and what it reports (one per process: the first GPU it creates takes
 * part; sc__rt_env_config makes it, the runtime of that GPU points at it). */
typedef struct env {
	char *path;                   /* the job file */
	rt_t *rt;                     /* the runtime of the GPU taking part */
	sc_rt_job_t job;
	sc_rt_ckpts_t ck;             /* golden: recorded; inject: the golden ones */
	sc_rt_exp_t *exp;
	char *paths[3];               /* stdout, stderr, outdir */
	sc_gpu_t *gpu;                /* the GPU taking part */
	FILE *res;                    /* result channel */
	bool wrote;                   /* golden results written / replay finished */
	sc_due_t due;                 /* the GPU's state when it was destroyed */
	uint64_t cycle;
	bool gone;
} env_t;

static _Noreturn __attribute__((format(printf, 3, 4))) void env_fail(const char *path, unsigned line,
                                                                      const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	fprintf(stderr, "flipsim runtime: %s:%u: %s (is this program linked with the same libsimcore "
	        "as flipsim " SC_VERSION "?)\n", path, line, what);
	_exit(2);
}

/* Reading one record of a job file: every field is checked as it is read
 * (a count bounds what is allocated for it, so a corrupt file fails at
 * once instead of growing without limit). */
typedef struct jrd {
	const char *path;
	unsigned ln;
	const char *rec;     /* the record's name, for messages */
	char *p;             /* the rest of the line */
	bool seen[16];       /* records read so far (JR_*) */
	env_t *env;          /* what is read goes here */
} jrd_t;

enum {
	JR_MODE, JR_CONFIG, JR_NAME, JR_REGS, JR_PROT, JR_CKI, JR_PLAN, JR_MODEL, JR_STDOUT, JR_STDERR, JR_OUTDIR,
	JR_IBSIM, JR_PENNY, JR_REFU, JR_DUP, JR_SUBSET,
	JR__COUNT
};

/* The next field: an unsigned integer of `base` in [lo, hi]. */
static uint64_t jr_u64(jrd_t *r, const char *field, uint64_t lo, uint64_t hi, int base)
{
	char *p = r->p, *e = p;
	uint64_t v = 0;
	if (*p == ' ' && isxdigit((unsigned char)p[1]) && (base == 16 || isdigit((unsigned char)p[1]))) {
		errno = 0;
		v = strtoull(p + 1, &e, base);
		if (errno || (*e != ' ' && *e != '\n' && *e))
			e = p;
	}
	if (e == p) {
		int n = (int)strcspn(p + (*p == ' '), " \n");
		env_fail(r->path, r->ln, "'%s' record, field %s: expected an integer, found '%.*s'", r->rec, field,
		         n > 32 ? 32 : n, p + (*p == ' '));
	}
	if (v < lo || v > hi)
		env_fail(r->path, r->ln, "'%s' record, field %s: %" PRIu64 " is outside %" PRIu64 "..%" PRIu64, r->rec,
		         field, v, lo, hi);
	r->p = e;
	return v;
}

static void jr_end(jrd_t *r)
{
	if (*r->p && strcmp(r->p, "\n"))
		env_fail(r->path, r->ln, "'%s' record: unexpected text after its fields", r->rec);
}

static char *dup_rest(const char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return strndup(s, n);
}

/* The rest of the line as a string of 1..max bytes (max 0: any length). */
static char *jr_rest(jrd_t *r, size_t max)
{
	char *n = dup_rest(r->p + 1);
	if (!n)
		env_fail(r->path, r->ln, "out of memory");
	if (!*n || (max && strlen(n) > max))
		env_fail(r->path, r->ln, "'%s' record: expected 1..%zu characters", r->rec, max ? max : (size_t)4096);
	return n;
}

/* The next field: a number. */
static double jr_real(jrd_t *r, const char *field)
{
	char *e;
	double v = *r->p == ' ' ? strtod(r->p, &e) : 0;
	if (*r->p != ' ' || e == r->p)
		env_fail(r->path, r->ln, "'%s' record, field %s: expected a number", r->rec, field);
	r->p = e;
	return v;
}

/* The fields sc_rt_job_write wrote, in SC_CONFIG_FIELDS order. */
static void jr_config(jrd_t *r, sc_gpu_config_t *c)
{
#define READ_NAME(m)
#define READ_U32(m) c->m = (uint32_t)jr_u64(r, #m, 0, UINT32_MAX, 10);
#define READ_SCHED(m) c->m = (sc_sched_t)jr_u64(r, #m, 0, SC_SCHED__COUNT - 1, 10);
#define READ_IBINV(m) c->m = (sc_ibinv_t)jr_u64(r, #m, 0, SC_IBINV__COUNT - 1, 10);
#define READ_LAT(m)                            \
	for (int i = 0; i < SC_LAT__COUNT; i++) \
		c->m[i] = (uint32_t)jr_u64(r, #m, 0, UINT32_MAX, 10);
#define READ_MHZ(m) c->m = jr_real(r, #m);
#define X(kind, m, lo, hi, gtx480) READ_##kind(m)
	SC_CONFIG_FIELDS(X)
#undef X
	jr_end(r);
	/* checked now, before num_sms sizes the checkpoints */
	sc_gpu_config_t t = *c;
	if (!t.name[0])
		snprintf(t.name, sizeof t.name, "job");
	char msg[160];
	if (sc_config_check(&t, msg, sizeof msg))
		env_fail(r->path, r->ln, "'config' record: %s", msg);
}

static void jr_plan(jrd_t *r, sc_rt_job_t *j)
{
	sc_rt_plan_t *p = &j->plan;
	if (!r->seen[JR_CONFIG])
		env_fail(r->path, r->ln, "'plan' record before the 'config' record");
	uint32_t np = j->cfg.num_sms + 2; /* sc_state_parts */
	p->target = (sc_target_t)jr_u64(r, "target", 0, SC_TGT__COUNT - 1, 10);
	p->fields = (unsigned)jr_u64(r, "fields", 0, UINT_MAX, 10);
	p->live = (int)jr_u64(r, "live", 0, 1, 10);
	p->cycle_budget = jr_u64(r, "budget", 0, UINT64_MAX, 10);
	p->watchdog_s = (unsigned)jr_u64(r, "watchdog", 0, UINT_MAX, 10);
	p->no_early = (int)jr_u64(r, "no_early", 0, 1, 10);
	r->env->ck.nparts = (uint32_t)jr_u64(r, "nparts", 0, np, 10);
	if (r->env->ck.nparts && r->env->ck.nparts != np)
		env_fail(r->path, r->ln, "'plan' record, field nparts: %u, but %u SMs make %u parts", r->env->ck.nparts,
		         j->cfg.num_sms, np);
	p->no_dead = (int)jr_u64(r, "no_dead", 0, 1, 10);
	p->no_attr = (int)jr_u64(r, "no_attr", 0, 1, 10);
	jr_end(r);
}

/* "model KIND VALUE PERIOD DURATION WORDS INTERLEAVE", after the plan
 * (whose target it must fit). */
static void jr_model(jrd_t *r, sc_rt_job_t *j)
{
	sc_fmodel_t *m = &j->plan.model;
	if (!r->seen[JR_PLAN])
		env_fail(r->path, r->ln, "'model' record before the 'plan' record");
	m->kind = (sc_fm_kind_t)jr_u64(r, "kind", 0, SC_FM_STUCK, 10);
	m->value = (uint32_t)jr_u64(r, "value", 0, 1, 10);
	m->period = jr_u64(r, "period", 0, UINT64_MAX, 10);
	m->duration = jr_u64(r, "duration", 0, m->period, 10);
	m->words = (uint32_t)jr_u64(r, "words", 0, SC_RT_MAX_FAULTS, 10);
	m->interleave = (uint32_t)jr_u64(r, "interleave", m->words > 1, UINT32_MAX, 10);
	jr_end(r);
	if (!model_ok(&j->plan))
		env_fail(r->path, r->ln, "'model' record: %s does not take this fault model", sc_target_name(j->plan.target));
}

/* The optional tail of a "protection" record: "IBSCHEME TABLE THRESHOLD
 * WINDOW PENALTY" (write_prot). */
static void jr_prot_ib(jrd_t *r, sc_rt_job_t *j)
{
	sc_ib_protection_t *ib = &j->prot.ibuffer;
	char name[16];
	int len = 0;
	if (sscanf(r->p, " %15[a-z_]%n", name, &len) != 1 || sc_ib_scheme_parse(name, &ib->scheme))
		env_fail(r->path, r->ln, "'protection' record: expected an instruction-buffer scheme (none, parity, ecc, "
		                         "sawp, sawp_min, sawp_fs)");
	r->p += len;
	ib->table_entries = (uint32_t)jr_u64(r, "table_entries", 0, SC_IB_TABLE_MAX, 10);
	ib->threshold = (uint32_t)jr_u64(r, "threshold", 0, UINT32_MAX, 10);
	ib->progress_window = (uint32_t)jr_u64(r, "progress_window", 0, UINT32_MAX, 10);
	ib->reissue_penalty = (uint32_t)jr_u64(r, "reissue_penalty", 0, UINT32_MAX, 10);
}

/* Whether the record's next field is SHARP's tail. */
static bool jr_sharp_next(const jrd_t *r)
{
	int len = 0;
	return sscanf(r->p, " sharp%n", &len) == 0 && len && (r->p[len] == ' ' || r->p[len] == '\0');
}

/* The SHARP tail of a "protection" record, after the instruction buffer's:
 * "sharp QUEUE TABLE ECC" (write_prot; absent: SHARP off). */
static void jr_prot_sharp(jrd_t *r, sc_rt_job_t *j)
{
	sc_sharp_protection_t *sh = &j->prot.sharp;
	char name[16];
	int len = 0;
	if (!jr_sharp_next(r))
		return; /* anything else is text after the fields: jr_end says so */
	sscanf(r->p, " sharp%n", &len);
	r->p += len;
	sh->on = true;
	sh->request_queue = (uint32_t)jr_u64(r, "request_queue", 0, SC_SHARP_MAX, 10);
	sh->warp_table = (uint32_t)jr_u64(r, "warp_table", 0, SC_SHARP_MAX, 10);
	len = 0;
	if (sscanf(r->p, " %15[a-z0-9]%n", name, &len) != 1 || sc_code_parse(name, &sh->ecc))
		env_fail(r->path, r->ln, "'protection' record: expected SHARP's code name (none or secded)");
	r->p += len;
}

/* n code names into code[0..n). */
static void jr_codes(jrd_t *r, sc_code_kind_t *const *code, int n)
{
	for (int i = 0; i < n; i++) {
		char name[16];
		int len = 0;
		if (sscanf(r->p, " %15[a-z0-9]%n", name, &len) != 1 || sc_code_parse(name, code[i]))
			env_fail(r->path, r->ln, "'protection' record: expected a code name (none, parity, hamming, secded, "
			                         "secded64, dected)");
		r->p += len;
	}
}

/* "protection REGFILE PRED SMEM INTERLEAVE [IB... [L1D L2 CONST [TAGS]]]
 * [sharp ...]": the codes by name, then the instruction buffer's
 * protection, then the caches' codes and their tags', then SHARP's. */
static void jr_prot(jrd_t *r, sc_rt_job_t *j)
{
	sc_code_kind_t *const code[3] = {&j->prot.regfile, &j->prot.pred, &j->prot.smem};
	sc_code_kind_t *const cache[3] = {&j->prot.l1d, &j->prot.l2, &j->prot.cc};
	sc_code_kind_t *const tag[3] = {&j->prot.l1d_tag, &j->prot.l2_tag, &j->prot.cc_tag};
	jr_codes(r, code, 3);
	j->prot.interleave = (uint32_t)jr_u64(r, "interleave", 0, 8, 10);
	if (*r->p == ' ')
		jr_prot_ib(r, j);
	if (*r->p == ' ' && !jr_sharp_next(r))
		jr_codes(r, cache, 3);
	if (*r->p == ' ' && !jr_sharp_next(r))
		jr_codes(r, tag, 3);
	if (*r->p == ' ')
		jr_prot_sharp(r, j);
	jr_end(r);
}

/* "penny EDC MODE PENALTY INCLUDE_PRED [PRUNING STORAGE BLOCK_SIZE]"
 * (Penny's own record; absent: off; the last three in mode compiled only,
 * BLOCK_SIZE 0 when not given). Checked as the campaign's key is. */
static void jr_penny(jrd_t *r, sc_rt_job_t *j)
{
	sc_penny_protection_t *y = &j->prot.penny;
	char edc[16], mode[16], prune[16], store[16];
	int len = 0;
	if (sscanf(r->p, " %15[a-z0-9] %15[a-z]%n", edc, mode, &len) != 2 || sc_code_parse(edc, &y->edc) ||
	    (y->edc != SC_CODE_PARITY && y->edc != SC_CODE_HAMMING && y->edc != SC_CODE_SECDED))
		env_fail(r->path, r->ln, "'penny' record: expected an edc (parity, hamming, secded) and a mode");
	if (strcmp(mode, "oracle") && strcmp(mode, "compiled"))
		env_fail(r->path, r->ln, "'penny' record: mode %s: expected oracle or compiled", mode);
	r->p += len;
	y->on = true;
	y->mode = strcmp(mode, "oracle") ? SC_PENNY_COMPILED : SC_PENNY_ORACLE;
	y->recovery_penalty = (uint32_t)jr_u64(r, "recovery_penalty", 0, 1u << 20, 10);
	y->include_pred = jr_u64(r, "include_pred", 0, 1, 10) == 1;
	if (y->mode == SC_PENNY_ORACLE) {
		jr_end(r);
		return;
	}
	if (sscanf(r->p, " %15[a-z] %15[a-z]%n", prune, store, &len) != 2 ||
	    (strcmp(prune, "basic") && strcmp(prune, "none") && strcmp(prune, "optimal")) ||
	    sc_penny_storage_parse(store, &y->storage))
		env_fail(r->path, r->ln,
		         "'penny' record: expected pruning (basic, none, optimal) and storage (auto, shared, global)");
	r->p += len;
	y->pruning = !strcmp(prune, "none")      ? SC_PENNY_PRUNE_NONE
	             : !strcmp(prune, "optimal") ? SC_PENNY_PRUNE_OPTIMAL
	                                         : SC_PENNY_PRUNE_BASIC;
	y->block_size = (uint32_t)jr_u64(r, "block_size", 0, y->storage == SC_PENNY_STORE_AUTO ? 1024 : 0, 10);
	jr_end(r);
}

/* "c CYCLE PART...": one golden checkpoint of nparts hashes. */
static void jr_ckpt(jrd_t *r)
{
	sc_rt_ckpts_t *ck = &r->env->ck;
	if (!ck->nparts)
		env_fail(r->path, r->ln, "checkpoint without a 'plan' record that gives its parts");
	if (ck->n >= SC_RT_MAX_CKPT)
		env_fail(r->path, r->ln, "more than %u checkpoints", SC_RT_MAX_CKPT);
	uint64_t cycle = jr_u64(r, "cycle", ck->n ? ck->cycle[ck->n - 1] : 0, UINT64_MAX, 10);
	uint64_t *part = realloc(ck->part, (size_t)(ck->n + 1) * ck->nparts * sizeof *part);
	if (!part)
		env_fail(r->path, r->ln, "out of memory");
	ck->part = part;
	for (uint32_t i = 0; i < ck->nparts; i++)
		part[(size_t)ck->n * ck->nparts + i] = jr_u64(r, "part", 0, UINT64_MAX, 16);
	jr_end(r);
	ck->cycle[ck->n++] = cycle;
}

/* "x IDX NFAULTS {CYCLE SM LOC NBITS}": one experiment, in order of its
 * first cycle. Faults outside the target's space are the runtime's to
 * report (SC_RT_BAD_MASK). */
static void jr_exp(jrd_t *r, sc_rt_plan_t *p, uint64_t *ecap)
{
	if (p->nexp == *ecap) {
		*ecap = *ecap ? 2 * *ecap : 256;
		sc_rt_exp_t *ne = realloc(r->env->exp, *ecap * sizeof *ne);
		if (!ne)
			env_fail(r->path, r->ln, "out of memory");
		r->env->exp = ne;
	}
	sc_rt_exp_t *e = &r->env->exp[p->nexp];
	memset(e, 0, sizeof *e);
	e->idx = jr_u64(r, "idx", 0, UINT64_MAX, 10);
	e->nfaults = (uint32_t)jr_u64(r, "nfaults", 1, SC_RT_MAX_FAULTS, 10);
	uint64_t first = p->nexp ? r->env->exp[p->nexp - 1].f[0].cycle : 0;
	for (uint32_t k = 0; k < e->nfaults; k++) {
		e->f[k].cycle = jr_u64(r, "cycle", k ? e->f[k - 1].cycle : first, UINT64_MAX, 10);
		e->f[k].sm = (uint32_t)jr_u64(r, "sm", 0, UINT32_MAX, 10);
		e->f[k].loc = jr_u64(r, "loc", 0, UINT64_MAX, 10);
		e->f[k].nbits = (uint32_t)jr_u64(r, "nbits", 1, 64, 10);
		e->f[k].pattern = jr_u64(r, "pattern", 0, UINT64_MAX, 16);
	}
	jr_end(r);
	p->nexp++;
}

/* "dup PROTECT VARIANT ATOMICS": datapath duplication (absent: off). */
static void jr_dup(jrd_t *r, sc_rt_job_t *j)
{
	char prot[16], var[16];
	int len = 0;
	if (sscanf(r->p, " %15[a-z] %15[a-z]%n", prot, var, &len) != 2 ||
	    sc_dup_protect_parse(prot, &j->prot.dup.protect) || sc_dup_variant_parse(var, &j->prot.dup.variant))
		env_fail(r->path, r->ln, "'dup' record: expected memory, setp or all, then sw or ra");
	r->p += len;
	j->prot.dup.atomics = jr_u64(r, "atomics", 0, 1, 10) != 0;
	jr_end(r);
}

/* Records that may appear once, by JR_* index. */
static const char *const once_names[JR__COUNT] = {"mode",  "config", "name",   "regs",   "protection", "ck_interval",
                                                  "plan",  "model",  "stdout", "stderr", "outdir", "ib_similarity",
                                                  "penny", "refu", "dup",
                                                  "regs_subset"};

/* Which of them line starts, or -1. */
static int jr_once(const char *line)
{
	for (int i = 0; i < JR__COUNT; i++) {
		size_t n = strlen(once_names[i]);
		if (!strncmp(line, once_names[i], n) && (line[n] == ' ' || line[n] == '\n'))
			return i;
	}
	return -1;
}

static void jr_record(jrd_t *r, int k, sc_rt_job_t *j)
{
	sc_gpu_config_t *c = &j->cfg;
	switch (k) {
	case JR_MODE:
		j->mode = !strcmp(r->p, " golden\n") ? SC_RT_GOLDEN : !strcmp(r->p, " inject\n") ? SC_RT_INJECT : 0;
		if (!j->mode)
			env_fail(r->path, r->ln, "'mode' record: expected golden or inject");
		break;
	case JR_CONFIG: jr_config(r, c); break;
	case JR_NAME: {
		char *n = jr_rest(r, sizeof c->name - 1);
		snprintf(c->name, sizeof c->name, "%s", n);
		free(n);
		break;
	}
	case JR_REGS: {
		char *n = jr_rest(r, 0);
		if (sc_regs_parse(n, &j->regs))
			env_fail(r->path, r->ln, "'regs' record: expected ptx or alloc");
		free(n);
		break;
	}
	case JR_PROT: jr_prot(r, j); break;
	case JR_CKI:
		j->ck_interval = jr_u64(r, "interval", 0, UINT64_MAX, 10);
		/* the golden run's cycle budget: absent in older job files */
		j->cycle_budget = *r->p == ' ' ? jr_u64(r, "cycle_budget", 0, UINT64_MAX, 10) : 0;
		jr_end(r);
		break;
	case JR_PLAN: jr_plan(r, j); break;
	case JR_MODEL: jr_model(r, j); break;
	case JR_IBSIM:
		j->ib_similarity = true;
		jr_end(r);
		break;
	case JR_PENNY: jr_penny(r, j); break;
	case JR_REFU: /* "refu B": its own record, written only when REFU is on */
		j->prot.refu.on = true;
		j->prot.refu.replay_buffer = (uint32_t)jr_u64(r, "replay_buffer", 1, SC_REFU_MAX, 10);
		jr_end(r);
		break;
	case JR_DUP: jr_dup(r, j); break;
	case JR_SUBSET: {
		char *n = jr_rest(r, 0);
		if (strcmp(n, "original"))
			env_fail(r->path, r->ln, "'regs_subset' record: expected original");
		free(n);
		j->plan.regs_original = 1;
		break;
	}
	default:
		r->env->paths[k - JR_STDOUT] = jr_rest(r, 4000);
		break;
	}
}

/* What the whole job needs, once it is read; then the result channel. */
static void env_check(const jrd_t *r, sc_rt_job_t *j, bool end)
{
	char msg[160];
	if (!end)
		env_fail(r->path, r->ln, "truncated (no 'end' record)");
	if (!j->mode)
		env_fail(r->path, r->ln, "no 'mode' record");
	if (!r->seen[JR_CONFIG])
		env_fail(r->path, r->ln, "no 'config' record");
	if (sc_config_check(&j->cfg, msg, sizeof msg))
		env_fail(r->path, r->ln, "%s", msg);
	if (j->mode == SC_RT_INJECT && (!r->env->paths[0] || !r->env->paths[1] || !r->env->paths[2]))
		env_fail(r->path, r->ln, "inject job without stdout, stderr and outdir");
	j->plan.exp = r->env->exp;
	j->plan.ck = &r->env->ck;
	r->env->res = fdopen(SC_RT_FD, "w");
	if (!r->env->res)
		env_fail(r->path, r->ln, "no result channel on fd 3");
}

/* Reads the job file named by FLIPSIM_RT; exits 2 when it is unusable. */
static void env_load(env_t *env, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		env_fail(path, 0, "%s", strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	uint64_t ecap = 0;
	sc_rt_job_t *j = &env->job;
	jrd_t r = {.path = path, .env = env};
	bool end = false;
	while (!end && getline(&line, &cap, f) > 0) {
		r.ln++;
		int k = jr_once(line);
		if (r.ln == 1) {
			if (strcmp(line, "flipsim-rt 2\n"))
				env_fail(path, r.ln, "not a flipsim-rt 2 job file");
		} else if (k >= 0) {
			if (r.seen[k])
				env_fail(path, r.ln, "a second '%s' record", once_names[k]);
			r.seen[k] = true;
			r.rec = once_names[k];
			r.p = line + strlen(once_names[k]);
			jr_record(&r, k, j);
		} else if (!strncmp(line, "c ", 2) || !strncmp(line, "x ", 2)) {
			r.rec = line[0] == 'c' ? "c" : "x";
			r.p = line + 1;
			if (line[0] == 'c')
				jr_ckpt(&r);
			else
				jr_exp(&r, &j->plan, &ecap);
		} else if (!strcmp(line, "end\n")) {
			end = true;
		} else {
			int n = (int)strcspn(line, " \n");
			env_fail(path, r.ln, "unknown record '%.*s'", n > 32 ? 32 : n, line);
		}
	}
	free(line);
	fclose(f);
	env_check(&r, j, end);
}

void *sc__rt_env_config(sc_gpu_config_t *cfg, sc_options_t *opt)
{
	const char *path = getenv(SC_RT_ENV);
	if (!path || !*path)
		return NULL;
	env_t *env = calloc(1, sizeof *env);
	if (!env || !(env->path = strdup(path)))
		env_fail(path, 0, "out of memory");
	env_load(env, env->path);
	/* one GPU per process takes part, the first one created: later ones,
	 * and programs this one starts, find no job */
	unsetenv(SC_RT_ENV);
	*cfg = env->job.cfg;
	opt->regs = env->job.regs;
	opt->prot = env->job.prot;
	opt->ib_similarity = env->job.mode == SC_RT_GOLDEN && env->job.ib_similarity;
	return env;
}

static void golden_write(const env_t *env, const sc_gpu_t *g)
{
	FILE *f = env->res;
	fprintf(f, "G %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu32 " %d\n", g->cycle, g->totals.cycles,
	        g->totals.warp_insts,
	        g->totals.thread_insts, g->nstats, (int)g->status.reason);
	for (uint32_t i = 0; i < g->nstats; i++) {
		const sc_launch_stats_t *l = &g->stats[i];
		fprintf(f, "L %s %u %u %u %u %u %u %u %u %u %u %u %s %.17g %" PRIu64 " %" PRIu64 " %" PRIu64
		        " %" PRIu64 " %" PRIu64 "\n", l->kernel, l->grid.x, l->grid.y, l->grid.z, l->block.x,
		        l->block.y, l->block.z, l->regs_per_thread, l->preds_per_thread, l->smem_per_cta,
		        l->local_per_thread, l->ctas_per_sm, l->limiter ? l->limiter : "-", l->occupancy,
		        l->start_cycle, l->end_cycle, l->cycles, l->warp_insts, l->thread_insts);
		if (l->spill_regs) /* the allocation spilled: its own record */
			fprintf(f, "P %u %u %u %u\n", l->spill_regs, l->spill_bytes, l->spill_stores, l->spill_loads);
		if (g->opt.ib_similarity) {
			fputc('S', f);
			for (int d = 0; d < SC_IB_SIM_BINS; d++)
				fprintf(f, " %" PRIu64, l->ib_distinct[d]);
			fputc('\n', f);
		}
		if (g->opt.prot.sharp.on) {
			fputc('H', f);
#define X(m) fprintf(f, " %" PRIu64, l->sharp.m);
			SC_SHARP_STATS_LIST(X)
#undef X
			fputc('\n', f);
		}
		if (g->opt.prot.refu.on) {
			fputc('R', f);
#define X(m) fprintf(f, " %" PRIu64, l->refu.m);
			SC_REFU_STATS_LIST(X)
#undef X
			fputc('\n', f);
		}
	}
	for (uint32_t k = 0; k < env->ck.n; k++) {
		fprintf(f, "C %" PRIu64, env->ck.cycle[k]);
		for (uint32_t i = 0; i < env->ck.nparts; i++)
			fprintf(f, " %" PRIx64, env->ck.part[(size_t)k * env->ck.nparts + i]);
		fputc('\n', f);
	}
	fflush(f);
}

/* The GPU's run is over (destroyed, or the program exits). */
static void env_over(env_t *env)
{
	if (env->wrote || !env->gpu)
		return;
	env->wrote = true;
	if (env->rt->child)
		return;
	if (env->job.mode == SC_RT_GOLDEN)
		golden_write(env, env->gpu);
	else
		rt_finish(env->rt);
}

static void env_at_exit(int status, void *ctx)
{
	env_t *env = ctx;
	(void)status;
	if (env->rt->child) {
		if (!env->rt->reported) {
			uint64_t now = env->gone ? env->cycle : env->gpu->cycle;
			sc_due_t due = env->gone ? env->due : env->gpu->status.reason;
			if (env->rt->fault == 0)
				child_send(env->rt, SC_RT_UNUSED, -1, NULL, SC_DUE_NONE, 0);
			else
				child_send(env->rt, SC_RT_ENDED, -1, NULL, due, now > env->rt->start ? now - env->rt->start : 0);
		}
		return;
	}
	env_over(env);
	fputs("E\n", env->res);
	fflush(env->res);
}

/* A child's stdout or stderr: a file of its own in outdir. Its output
 * starts with what the parent had written so far; the file holds only the
 * length of that (SC_RT_HEADER bytes) and what the child writes after it,
 * so that no experiment copies the output it shares with the golden run. */
static void redirect(const env_t *env, int fd, const sc_rt_exp_t *e, const char *ext)
{
	char path[4096], head[SC_RT_HEADER + 1];
	snprintf(path, sizeof path, "%s/%" PRIu64 ".%s", env->paths[2], e->idx, ext);
	off_t len = lseek(fd, 0, SEEK_CUR);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (len < 0 || out < 0)
		goto fail;
	snprintf(head, sizeof head, "%020" PRIu64 "\n", (uint64_t)len);
	if (!write_all(out, head, SC_RT_HEADER) || dup2(out, fd) < 0)
		goto fail;
	close(out);
	return;
fail:
	/* no report: flipsim treats a silent exit 125 as its own failure */
	dprintf(2, "flipsim runtime: cannot set up %s: %s\n", path, strerror(errno));
	_exit(125);
}

static void env_child_start(void *ctx, const sc_rt_exp_t *e)
{
	env_t *env = ctx;
	fclose(env->res); /* the result channel is the parent's */
	env->res = NULL;
	redirect(env, 1, e, "out");
	redirect(env, 2, e, "err");
}

static void env_done(void *ctx, const sc_rt_exp_t *e, const sc_rt_result_t *r)
{
	const env_t *env = ctx;
	(void)e;
	char line[512 + 2 * SC_RT_JSON];
	sc_rt_result_format(r, line, sizeof line);
	fprintf(env->res, "X %s\n", line);
	fflush(env->res);
}

void sc__rt_env_attach(void *token, sc_gpu_t *g)
{
	env_t *env = token;
	env->gpu = g;
	if (env->job.mode == SC_RT_GOLDEN) {
		env->ck.interval = env->job.ck_interval;
		sc_rt_record(g, &env->ck);
		env->rt = rt_install(g, NULL, NULL); /* its gone hook: the golden results */
		if (env->job.cycle_budget)
			sc_set_cycle_budget(g, env->job.cycle_budget);
	} else {
		sc_rt_hooks_t hooks = {.child_start = env_child_start, .done = env_done, .ctx = env};
		if (sc_rt_attach(g, &env->job.plan, &hooks))
			env_fail(env->path, 0, "%s", "invalid plan");
		env->rt = rt_of(g);
	}
	if (!env->rt)
		env_fail(env->path, 0, "out of memory");
	env->rt->env = env;
	on_exit(env_at_exit, env);
}

static void env_gone(env_t *env, sc_gpu_t *g)
{
	if (g != env->gpu || env->gone)
		return;
	env_over(env);
	env->due = g->status.reason;
	env->cycle = g->cycle;
	env->gone = true;
}
