/* The golden (fault-free) run of a workload: outputs, statistics, the
 * per-invocation profile GUFI's method needs (occupancy, df_reg, df_smem)
 * and full-state hashes at checkpoints for exact early termination. The
 * `flipsim profile` command that prints it is profile.c. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaigns.h"
#include "db.h"
#include "eng_int.h"

double eng_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void eng_golden_free(eng_golden_t *g)
{
	if (!g)
		return;
	if (g->map) {
		eng_golden_unmap(g);
		return;
	}
	camp_result_destroy(g->res);
	if (g->dir[0]) {
		unlink(g->out.path);
		unlink(g->err.path);
		rmdir(g->dir);
	}
	free(g->launch);
	sc_rt_ckpts_free(&g->ck);
	memset(g, 0, sizeof *g);
}

int eng_golden_run(const camp_workload_t *w, const sc_gpu_config_t *cfg, uint64_t ck_interval, eng_golden_t *g,
                   char *err, size_t errsz)
{
	return eng_golden_run_opt(w, cfg, NULL, NULL, ck_interval, g, err, errsz);
}

/* The wall-clock watchdog of an in-process golden run: a pause every
 * WATCH_EVERY cycles reads the clock; past the deadline it sets the cycle
 * budget to now, which ends the launch (a DUE timeout) at once. */
#define WATCH_EVERY 65536
typedef struct watch {
	double deadline;
	bool fired;
} watch_t;

static uint64_t watch_pause(sc_gpu_t *gpu, void *ctx, uint64_t cycle)
{
	watch_t *w = ctx;
	if (eng_now() < w->deadline)
		return cycle + WATCH_EVERY;
	w->fired = true;
	sc_set_cycle_budget(gpu, cycle ? cycle : 1);
	return UINT64_MAX;
}

/* The fault-free run hit a limit (it ended in a DUE timeout): the message. */
static void limit_message(const camp_workload_t *w, const eng_limits_t *lim, bool fired, const sc_status_t *st,
                          char *err, size_t errsz)
{
	if (fired)
		snprintf(err, errsz, "the fault-free run of workload '%s' did not end within %g s (kernel '%s' still "
		         "running; golden_watchdog_seconds, profile --golden-timeout)", w->name, lim->seconds, st->kernel);
	else
		snprintf(err, errsz, "the fault-free run of workload '%s' did not end within the cycle budget of %" PRIu64
		         " cycles (kernel '%s' still running; golden_cycle_budget, profile --cycle-budget)", w->name,
		         lim->cycles, st->kernel);
}

int eng_golden_run_opt(const camp_workload_t *w, const sc_gpu_config_t *cfg, const sc_options_t *opt,
                       const eng_limits_t *lim, uint64_t ck_interval, eng_golden_t *g, char *err, size_t errsz)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
	g->ck.interval = ck_interval;
	g->ck.lines = ck_interval != 0; /* memory line by line, for runner.c's mem_final */
	sc_options_t o = opt ? *opt : (sc_options_t){0};
	if (lim && lim->cycles)
		o.cycle_budget = lim->cycles;
	sc_gpu_t *gpu;
	int rc = sc_gpu_create(cfg, &o, &gpu);
	if (rc) {
		snprintf(err, errsz, "cannot create the GPU: %s", sc_strerror(rc));
		return ENG_EINTERNAL;
	}
	sc_set_printf_stream(gpu, NULL); /* its text is an output (camp_result_t) */
	sc_set_assert_stream(gpu, NULL);
	watch_t watch = {.deadline = eng_now() + (lim ? lim->seconds : 0)};
	if (lim && lim->seconds > 0 && !ck_interval)
		sc_set_pause(gpu, WATCH_EVERY, watch_pause, &watch);
	sc_rt_record(gpu, &g->ck);
	double t0 = eng_now();
	rc = camp_workload_run(w, gpu, &g->res, err, errsz);
	g->wall = eng_now() - t0;
	sc_rt_record_end(gpu, &g->ck);
	if (rc) {
		sc_gpu_destroy(gpu);
		return rc == CAMP_EINPUT ? ENG_EINPUT : ENG_EINTERNAL;
	}
	sc_gpu_stats(gpu, &g->totals);
	g->cycles = sc_gpu_cycle(gpu);
	g->nlaunch = sc_launch_count(gpu);
	g->launch = calloc(g->nlaunch ? g->nlaunch : 1, sizeof *g->launch);
	if (!g->launch) {
		sc_gpu_destroy(gpu);
		snprintf(err, errsz, "out of memory");
		return ENG_EINTERNAL;
	}
	for (uint32_t i = 0; i < g->nlaunch; i++)
		g->launch[i] = *sc_launch_stats(gpu, i);
	sc_gpu_destroy(gpu);
	if (g->res->due && g->res->status.reason == SC_DUE_TIMEOUT && (watch.fired || (lim && lim->cycles))) {
		limit_message(w, lim, watch.fired, &g->res->status, err, errsz);
		return ENG_EINPUT;
	}
	if (g->res->due) {
		char name[256];
		snprintf(err, errsz, "the fault-free run ends in a DUE (%s in kernel '%s': %s): nothing to inject into",
		         sc_due_name(g->res->status.reason),
		         db_demangle(g->res->status.kernel, true, name, sizeof name), g->res->status.detail);
		return ENG_EDUE;
	}
	return 0;
}

double eng_df_reg(const sc_gpu_config_t *c, const sc_launch_stats_t *l)
{
	uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
	double v = (double)l->regs_per_thread * threads * l->ctas_per_sm / c->regs_per_sm;
	return v > 1 ? 1 : v;
}

double eng_df_smem(const sc_gpu_config_t *c, const sc_launch_stats_t *l)
{
	double v = c->smem_per_sm ? (double)l->smem_per_cta * l->ctas_per_sm / c->smem_per_sm : 0;
	return v > 1 ? 1 : v;
}

/* GUFI's average warp occupancy (Table III): each launch's warp occupancy
 * weighted by its share of the cycles. `limit` takes the warps of the CTAs
 * per SM that the resources allow (sc_launch_stats.occupancy); `resident`
 * caps the CTAs per SM by what the grid gives each SM, ceil(CTAs / SMs). */
void eng_warp_occupancy(const eng_golden_t *g, double *limit, double *resident)
{
	double cyc = 0, lim = 0, res = 0;
	for (uint32_t i = 0; i < g->nlaunch; i++) {
		const sc_launch_stats_t *l = &g->launch[i];
		uint64_t ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
		uint64_t per_sm = (ctas + g->cfg.num_sms - 1) / g->cfg.num_sms;
		uint64_t warps = ((uint64_t)l->block.x * l->block.y * l->block.z + 31) / 32;
		if (per_sm > l->ctas_per_sm)
			per_sm = l->ctas_per_sm;
		cyc += (double)l->cycles;
		lim += (double)l->cycles * l->occupancy;
		res += (double)l->cycles * (double)(per_sm * warps) / g->cfg.max_warps_per_sm;
	}
	*limit = cyc > 0 ? lim / cyc : 0;
	*resident = cyc > 0 ? res / cyc : 0;
}

camp_regs_t eng_camp_regs(sc_regs_t regs)
{
	for (camp_regs_t r = CAMP_REGS_PTX; r <= CAMP_REGS_UNALLOC; r++)
		if (camp_regs_sim(r) == regs)
			return r;
	return CAMP_REGS_PTX;
}

sc_options_t eng_options(const camp_campaign_t *c)
{
	return (sc_options_t){.regs = camp_regs_sim(c->regs), .prot = c->prot};
}

eng_limits_t eng_limits(const camp_campaign_t *c)
{
	return (eng_limits_t){.seconds = c->golden_watchdog_seconds, .cycles = c->golden_cycle_budget};
}

uint64_t eng_output_digest(const eng_golden_t *g)
{
	if (!g->res) /* a host program: stdout, stderr, exit status (hostrun.c) */
		return g->digest;
	uint64_t h = CAMP_FNV_OFFSET;
	for (uint32_t i = 0; i < g->res->noutputs; i++)
		h = camp_fnv1a(h, g->res->outputs[i].data, g->res->outputs[i].bytes);
	if (g->res->printf_len) /* device printf's text (none: the digest of old) */
		h = camp_fnv1a(h, g->res->printf_text, g->res->printf_len);
	return h;
}

/* The digest text's parts: 12 outputs at most (16 + 12 x 9 < DB_DIGEST_MAX). */
#define DIGEST_PARTS 12

void eng_output_digest_text(const eng_golden_t *g, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "%016" PRIx64, eng_output_digest(g));
	if (!g->res) {
		snprintf(buf + len, n - len, "/%08" PRIx32 "/%08" PRIx32 "/%d", (uint32_t)g->out.fnv,
		         (uint32_t)g->err.fnv, g->exit_status);
		return;
	}
	for (uint32_t i = 0; i < g->res->noutputs && i < DIGEST_PARTS && len < n; i++) {
		const camp_output_t *o = &g->res->outputs[i];
		len += (size_t)snprintf(buf + len, n - len, "/%08" PRIx32,
		                        (uint32_t)camp_fnv1a(CAMP_FNV_OFFSET, o->data, o->bytes));
	}
}

/* Part i of a digest text (after the i+1-th '/'), or NULL. */
static const char *digest_part(const char *d, uint32_t i)
{
	for (uint32_t k = 0; d && k <= i; k++)
		if ((d = strchr(d, '/')))
			d++;
	return d;
}

static bool part_differs(const char *a, const char *b)
{
	size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
	return la != lb || memcmp(a, b, la);
}

/* Appends "name" to what, comma-separated. */
static void add_what(char *what, size_t n, const char *fmt, const char *name)
{
	size_t len = strlen(what);
	snprintf(what + len, n - len, fmt, len ? ", " : "", name);
}

int eng_golden_differs(const eng_golden_t *g, const camp_workload_t *w, const char *stored_digest,
                       uint64_t stored_cycles, char *what, size_t n)
{
	char now[160];
	eng_output_digest_text(g, now, sizeof now);
	what[0] = 0;
	if (strncmp(now, stored_digest, 16)) {
		static const char *const host[] = {"stdout", "stderr", "exit status"};
		uint32_t parts = g->res ? g->res->noutputs : 3;
		for (uint32_t i = 0; i < parts && i < DIGEST_PARTS; i++) {
			const char *a = digest_part(now, i), *b = digest_part(stored_digest, i);
			if (a && b && part_differs(a, b))
				add_what(what, n, g->res ? "%soutput %s" : "%s%s",
				         g->res ? w->buffers[g->res->outputs[i].buffer].name : host[i]);
		}
		if (!what[0])
			add_what(what, n, "%s%s", "the outputs");
	}
	if (g->totals.cycles != stored_cycles) {
		size_t len = strlen(what);
		snprintf(what + len, n - len, "%scycles %" PRIu64 " (stored %" PRIu64 ")", len ? ", " : "",
		         g->totals.cycles, stored_cycles);
	}
	return what[0] != 0;
}
