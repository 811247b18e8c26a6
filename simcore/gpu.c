/* The simulated GPU and its CUDA-runtime-like host API (simcore.h):
 * device memory, module loading, occupancy, CTA dispatch to SMs as they
 * free up, and the cycle loop that steps every SM with work, skipping idle
 * cycles. Design: sc_int.h ("Machine state"), DESIGN.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static int fail(sc_gpu_t *g, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(sc_gpu_t *g, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->errmsg, sizeof g->errmsg, fmt, ap);
	va_end(ap);
	return rc;
}

static void sms_free(sc_gpu_t *g)
{
	if (!g->sms)
		return;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		free(g->sms[i].smem);
		free(g->sms[i].local_mem);
	}
	sc__state_unmap(g); /* everything else lives in its mappings */
	free(g->sms);
	free(g->sm_next);
	g->sms = NULL;
	g->sm_next = NULL;
}

/* Takes n bytes, cache-line aligned, off *p (which NULL only measures). */
static void *carve(uint8_t **p, size_t n)
{
	uint8_t *r = *p;
	*p += (n + 63) & ~(size_t)63;
	return r;
}

/* Takes n bytes aligned to `align` off *p, packed after what it took before. */
static void *pack(uint8_t **p, size_t n, size_t align)
{
	uintptr_t a = ((uintptr_t)*p + align - 1) & ~(uintptr_t)(align - 1);
	*p = (uint8_t *)a + n;
	return (void *)a;
}

/* SM i's part of the SC_MAP_SM mapping at base (NULL: measure only): its
 * warps with their SIMT stacks and instruction buffers, CTAs, schedulers'
 * last slots and warps' next issue cycles. Returns the bytes per SM. */
static size_t sm_layout(sc_gpu_t *g, uint8_t *base, uint32_t i)
{
	const sc_gpu_config_t *cfg = &g->cfg;
	uint8_t *p = base;
	sc_sm_t *sm = &g->sms[i];
	sc_warp_t *warps = carve(&p, cfg->max_warps_per_sm * sizeof *warps);
	sc_cta_t *ctas = carve(&p, cfg->max_ctas_per_sm * sizeof *ctas);
	uint64_t *wnext = carve(&p, cfg->max_warps_per_sm * sizeof *wnext);
	sc_wheel_t *wh = carve(&p, sizeof *wh);
	/* what every SM cycle reads besides wnext and the wheel, packed into
	 * as few host cache lines as it fits */
	uint8_t *hot = p;
	uint64_t *sfree = pack(&hot, cfg->schedulers_per_sm * sizeof *sfree, 8);
	uint64_t *smin = pack(&hot, cfg->schedulers_per_sm * sizeof *smin, 8);
	uint64_t *ufree = pack(&hot, cfg->schedulers_per_sm * SC_FU__COUNT * sizeof *ufree, 8);
	uint32_t *last = pack(&hot, cfg->schedulers_per_sm * sizeof *last, 4);
	uint8_t *nunit = pack(&hot, cfg->max_warps_per_sm * sizeof *nunit, 1);
	carve(&p, (size_t)(hot - p));
	/* a warp's instruction buffer, then its SIMT stack at once: an issue
	 * reads ib[0] and the stack's top (mostly its first entry) together */
	for (uint32_t w = 0; w < cfg->max_warps_per_sm; w++) {
		size_t ibb = cfg->ib_entries * sizeof(sc_ibent_t);
		ibb = (ibb + _Alignof(sc_simt_t) - 1) / _Alignof(sc_simt_t) * _Alignof(sc_simt_t);
		uint8_t *blk = carve(&p, ibb + cfg->simt_stack_depth * sizeof(sc_simt_t));
		sc_ibent_t *ib = (sc_ibent_t *)blk;
		sc_simt_t *stk = (sc_simt_t *)(blk + ibb);
		if (base) {
			warps[w].stk = stk;
			warps[w].ib = ib;
			warps[w].slot = w;
		}
	}
	if (base) {
		sm->warps = warps;
		sm->ctas = ctas;
		sm->last = last;
		sm->wnext = wnext;
		sm->sfree = sfree;
		sm->smin = smin;
		sm->wh = wh;
		sm->nunit = nunit;
		sm->ufree = ufree;
		for (uint32_t c = 0; c < cfg->max_ctas_per_sm; c++)
			ctas[c].slot = c;
	}
	return (size_t)(p - base);
}

/* Every SM's configuration-sized state, in the SC_MAP_SM mapping. */
static int sms_map(sc_gpu_t *g)
{
	size_t per = sm_layout(g, NULL, 0);
	uint8_t *base = sc__state_map(g, SC_MAP_SM, per * g->cfg.num_sms);
	if (!base)
		return SC_ENOMEM;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		sm_layout(g, base + per * i, i);
	return 0;
}

int sc_gpu_create(const sc_gpu_config_t *want, const sc_options_t *opt, sc_gpu_t **out)
{
	char msg[256];
	if (!want || !out)
		return SC_EINVAL;
	sc_gpu_config_t cfgv = *want, *cfg = &cfgv;
	sc_options_t optv = {0};
	if (opt)
		optv = *opt;
	void *env = sc__rt_env_config(cfg, &optv); /* under flipsim, the campaign's GPU */
	opt = &optv;
	if (sc_config_check(cfg, msg, sizeof msg))
		return SC_EINVAL;
	sc_gpu_t *g = calloc(1, sizeof *g);
	if (!g)
		return SC_ENOMEM;
	g->cfg = *cfg;
	g->pause_at = UINT64_MAX;
	if (opt)
		g->opt = *opt;
	if ((g->opt.regs != SC_REGS_UNALLOC && g->opt.regs != SC_REGS_ALLOC && g->opt.regs != SC_REGS_PTX) ||
	    sc_protection_check(&g->opt.prot, cfg, g->opt.regs, msg, sizeof msg)) {
		free(g);
		return SC_EINVAL;
	}
	g->sms = calloc(cfg->num_sms, sizeof *g->sms);
	g->sm_next = calloc(cfg->num_sms, sizeof *g->sm_next);
	if (!g->sms || !g->sm_next)
		goto nomem;
	for (uint32_t i = 0; i < cfg->num_sms; i++) {
		sc_sm_t *sm = &g->sms[i];
		sm->id = i;
		sm->next = &g->sm_next[i];
		*sm->next = UINT64_MAX;
		for (uint32_t s = 0; s < cfg->schedulers_per_sm && s < 8; s++)
			for (unsigned fu = 0; fu < SC_FU__COUNT; fu++)
				sm->uslot[s][fu] = (uint8_t)sc__unit_slot(cfg, fu, s);
		sm->smem = calloc(cfg->smem_per_sm ? cfg->smem_per_sm : 1, 1);
		if (!sm->smem)
			goto nomem;
	}
	if (sc__prot_create(g))
		goto nomem;
	if (sms_map(g) || sc__memsys_create(g))
		goto nomem;
	if (sc__rf_map(g, cfg->regs_per_sm))
		goto nomem;
	*out = g;
	if (env)
		sc__rt_env_attach(env, g);
	return 0;
nomem:
	sc_gpu_destroy(g);
	return SC_ENOMEM;
}

void sc_gpu_destroy(sc_gpu_t *g)
{
	if (!g)
		return;
	if (g->hooks && g->hooks->gone)
		g->hooks->gone(g->hook_ctx, g);
	sc__trace_free(g);
	sc__prot_destroy(g);
	sms_free(g);
	sc__memsys_destroy(g);
	while (g->mods) {
		sc_module_t *n = g->mods->next;
		sc__module_free(g->mods);
		g->mods = n;
	}
	sc__gmem_release(&g->gmem);
	free(g->stats);
	free(g->run.params);
	free(g->dec);
	sc__printf_free(g);
	free(g->heap.blk);
	sc__tobj_free(g);
	free(g);
}

const char *sc_gpu_errmsg(const sc_gpu_t *g) { return g ? g->errmsg : ""; }

/* The calls below show the host what the GPU computed (sc__gpu_observe). */
const sc_status_t *sc_gpu_status(const sc_gpu_t *g)
{
	sc__gpu_observe(g);
	return &g->status;
}

int sc_synchronize(sc_gpu_t *g)
{
	sc__gpu_observe(g);
	return g->status.reason == SC_DUE_NONE ? 0 : SC_EDUE;
}

/* The host wrote global memory [dst, dst + bytes): the trace notes the
 * lines for the state hash; the write goes through the L2 (a corrupted
 * line's bytes there are replaced) and to DRAM (the image's entries). */
static void host_wrote(sc_gpu_t *g, uint64_t dst, uint64_t bytes)
{
	sc__trace_wrote(g, dst, bytes);
	if (UNLIKELY(g->ms.nover))
		sc__ovl_host_write(g, dst, bytes);
	if (UNLIKELY(g->ms.ndimg))
		sc__dimg_host_write(g, dst, bytes);
}

/* sc_ptx_host_t's alloc_global: a module variable in global memory. */
static int alloc_var(void *ctx, uint64_t bytes, const void *init, uint64_t *addr)
{
	sc_gpu_t *g = ctx;
	int rc = sc__gmem_alloc(&g->gmem, bytes, addr);
	if (rc)
		return rc;
	if (init) {
		memcpy(sc__gmem_find(&g->gmem, *addr, bytes ? bytes : 1), init, bytes);
		host_wrote(g, *addr, bytes);
	}
	return 0;
}

/* The slots per thread the allocation spills to fit (spill.c): the GPU's
 * max_regs_per_thread, or FLIPSIM_MAX_REGS when set to a number from 1
 * to that (tests force spilling with it; anything else is ignored). */
static uint32_t spill_limit(const sc_gpu_t *g)
{
	uint32_t lim = g->cfg.max_regs_per_thread;
	const char *env = getenv("FLIPSIM_MAX_REGS");
	char *end;
	unsigned long v = env && *env ? strtoul(env, &end, 10) : 0;
	if (v >= 1 && v <= lim && !*end)
		lim = (uint32_t)v;
	return lim;
}

static int alloc_zero(void *ctx, uint64_t bytes, uint64_t *addr) { return alloc_var(ctx, bytes, NULL, addr); }

int sc__gpu_pennyc(sc_gpu_t *g, sc_module_t *m, sc_penny_prune_t pruning, sc_penny_storage_t storage,
                   uint32_t block_hint)
{
	sc_pennyc_opts_t o = {.pruning = pruning != SC_PENNY_PRUNE_NONE, .optimal = pruning == SC_PENNY_PRUNE_OPTIMAL,
	                      .storage = storage, .block_hint = block_hint, .cfg = &g->cfg, .num_sms = g->cfg.num_sms,
	                      .max_warps = g->cfg.max_warps_per_sm, .alloc = alloc_zero, .ctx = g};
	sc_pennyc_stats_t st;
	int rc = sc__pennyc_compile(m, &o, &st, g->errmsg, sizeof g->errmsg);
	const char *to = getenv("FLIPSIM_PENNY_STATS"); /* 1: stderr; else a file to append to */
	FILE *out = !to || rc ? NULL : strcmp(to, "1") ? fopen(to, "a") : stderr;
	if (out) { /* the study's counts (DESIGN.md) */
		const sc_pennyc_stats_t *s = &st;
		fprintf(out,
		        "penny %s: regions %u alias_cuts %u alias_kept %u cps_needed %u cps_pruned %u cps %u adjustments %u "
		        "alternating %u slots %u shared_slots %u bytes %llu smem_warp %u\n",
		        m->name, s->regions, s->alias_cuts, s->alias_kept, s->cps_needed, s->cps_pruned, s->cps,
		        s->adjustments, s->alternating, s->slots, s->shared_slots, (unsigned long long)s->bytes, s->smem_warp);
		if (out != stderr)
			fclose(out);
	}
	return rc;
}

/* The transforms a module takes at load, in this order: a diagnostic pass
 * (FLIPSIM_PASS, tests/pass/run.sh), datapath duplication, and Penny's
 * compiler last (DESIGN.md, "Penny (compiled)": its recovery table is laid
 * out on the final code). FLIPSIM_PASS may name a protection's transform
 * (protect-dup-PROTECT-VARIANT; penny, penny-noprune and penny-optimal:
 * global storage; penny-auto, penny-shared, penny-global: basic pruning),
 * which then stands for the protection's own, applied with the protection
 * off so that the tests can compare outputs. 0, or as sc__pass_commit (g->errmsg says). */
static int transform(sc_gpu_t *g, sc_module_t *m)
{
	const char *pass = getenv("FLIPSIM_PASS");
	sc_dup_protection_t dup = g->opt.prot.dup, tdup = {0};
	bool penny = g->opt.prot.penny.on && g->opt.prot.penny.mode == SC_PENNY_COMPILED;
	sc_penny_prune_t prune = g->opt.prot.penny.pruning;
	sc_penny_storage_t store = g->opt.prot.penny.storage;
	char tp[16], tv[8];
	int rc;
	if (pass && (!strcmp(pass, "penny") || !strcmp(pass, "penny-noprune") || !strcmp(pass, "penny-optimal"))) {
		penny = true;
		prune = !strcmp(pass, "penny")           ? SC_PENNY_PRUNE_BASIC
		        : !strcmp(pass, "penny-optimal") ? SC_PENNY_PRUNE_OPTIMAL
		                                         : SC_PENNY_PRUNE_NONE;
		store = SC_PENNY_STORE_GLOBAL;
	} else if (pass && !strncmp(pass, "penny-", 6) && !sc_penny_storage_parse(pass + 6, &store)) {
		penny = true; /* penny-auto, penny-shared, penny-global: basic pruning */
		prune = SC_PENNY_PRUNE_BASIC;
	} else if (pass && sscanf(pass, "protect-dup-%15[a-z]-%7[a-z]", tp, tv) == 2 &&
	           !sc_dup_protect_parse(tp, &tdup.protect) && !sc_dup_variant_parse(tv, &tdup.variant)) {
		dup = tdup;
	} else if (pass && *pass && (rc = sc__pass_apply(m, pass, g->errmsg, sizeof g->errmsg))) {
		return rc;
	}
	if (dup.protect && (rc = sc__dup_apply(m, &dup, g->errmsg, sizeof g->errmsg)))
		return rc;
	return penny ? sc__gpu_pennyc(g, m, prune, store, g->opt.prot.penny.block_size) : 0;
}

int sc_module_load_text(sc_gpu_t *g, const char *name, const char *text, sc_module_t **out)
{
	if (!g || !text || !out)
		return SC_EINVAL;
	sc_module_t *m;
	/* ptx mode runs alloc mode's machine: only its fault targets differ */
	sc_ptx_host_t host = {.regs = g->opt.regs == SC_REGS_PTX ? SC_REGS_ALLOC : g->opt.regs,
	                      .max_regs = spill_limit(g), .alloc_global = alloc_var, .ctx = g};
	int rc = sc__ptx_load(&host, name ? name : "<ptx>", text, &m, g->errmsg, sizeof g->errmsg);
	if (rc)
		return rc;
	if ((rc = transform(g, m))) {
		sc__module_free(m);
		return rc == SC_ENOMEM ? rc : SC_EPARSE;
	}
	m->next = g->mods;
	g->mods = m;
	*out = m;
	g->errmsg[0] = 0;
	return 0;
}

int sc_module_load_file(sc_gpu_t *g, const char *path, sc_module_t **out)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(g, SC_EIO, "%s: cannot open: %s", path, strerror(errno));
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return SC_ENOMEM;
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	bool err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		return fail(g, SC_EIO, "%s: read error", path);
	}
	buf[len] = 0;
	if (strlen(buf) != len) {
		free(buf);
		return fail(g, SC_EPARSE, "%s: not a PTX text file (contains NUL bytes)", path);
	}
	int rc = sc_module_load_text(g, path, buf, out);
	free(buf);
	return rc;
}

int sc_malloc(sc_gpu_t *g, uint64_t bytes, uint64_t *dptr)
{
	if (!g || !dptr)
		return SC_EINVAL;
	int rc = sc__gmem_alloc(&g->gmem, bytes, dptr);
	if (rc)
		return fail(g, rc, "cannot allocate %llu bytes", (unsigned long long)bytes);
	return 0;
}

int sc_free(sc_gpu_t *g, uint64_t dptr)
{
	if (sc__gmem_free(&g->gmem, dptr))
		return fail(g, SC_EINVAL, "0x%llx is not an allocation", (unsigned long long)dptr);
	return 0;
}

static uint8_t *host_range(sc_gpu_t *g, uint64_t addr, uint64_t bytes)
{
	if (bytes == 0)
		return NULL;
	uint8_t *p = sc__gmem_find(&g->gmem, addr, bytes);
	if (!p)
		fail(g, SC_EINVAL, "[0x%llx, +%llu) is not inside one allocation", (unsigned long long)addr,
		     (unsigned long long)bytes);
	return p;
}

int sc_memcpy_htod(sc_gpu_t *g, uint64_t dst, const void *src, uint64_t bytes)
{
	if (!bytes)
		return 0;
	uint8_t *p = host_range(g, dst, bytes);
	if (!p)
		return SC_EINVAL;
	memcpy(p, src, bytes);
	host_wrote(g, dst, bytes);
	return 0;
}

int sc_memfill(sc_gpu_t *g, uint64_t dst, uint64_t bytes, int (*fill)(void *ctx, void *host), void *ctx)
{
	uint8_t none = 0;
	if (!bytes)
		return fill(ctx, &none);
	uint8_t *p = host_range(g, dst, bytes);
	if (!p)
		return SC_EINVAL;
	int rc = fill(ctx, p);
	host_wrote(g, dst, bytes);
	return rc;
}

int sc_memcpy_dtoh(sc_gpu_t *g, void *dst, uint64_t src, uint64_t bytes)
{
	sc__gpu_observe(g);
	if (!bytes)
		return 0;
	uint8_t *p = host_range(g, src, bytes);
	if (!p)
		return SC_EINVAL;
	memcpy(dst, p, bytes);
	/* the host reads through the L2; its code may detect an error there */
	if (UNLIKELY(g->ms.nover) && !sc__ovl_host_read(g, dst, src, bytes))
		return fail(g, SC_EDUE, "reading device memory: %s (%s)", sc_due_name(g->status.reason), g->status.detail);
	return 0;
}

int sc_memset(sc_gpu_t *g, uint64_t dst, int value, uint64_t bytes)
{
	if (!bytes)
		return 0;
	uint8_t *p = host_range(g, dst, bytes);
	if (!p)
		return SC_EINVAL;
	memset(p, value, bytes);
	host_wrote(g, dst, bytes);
	return 0;
}

static const sc_func_t *find_kernel(const sc_module_t *m, const char *name)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, name))
			return &m->funcs[i];
	return NULL;
}

int sc_kernel_params(const sc_module_t *m, const char *kernel, uint32_t *nparams, const uint32_t **sizes)
{
	const sc_func_t *f = m ? find_kernel(m, kernel) : NULL;
	if (!f)
		return SC_ENOTFOUND;
	*nparams = f->nparams;
	*sizes = f->param_size;
	return 0;
}

int sc_kernel_param(const sc_module_t *m, const char *kernel, uint32_t i, sc_param_info_t *out)
{
	const sc_func_t *f = m && kernel ? find_kernel(m, kernel) : NULL;
	if (!f)
		return SC_ENOTFOUND;
	if (i >= f->nparams)
		return SC_EINVAL;
	const sc__param_decl_t *d = &f->param_decl[i];
	*out = (sc_param_info_t){d->name, sc__type_names[d->type], d->count, f->param_size[i]};
	return 0;
}

const char *sc_regs_name(sc_regs_t mode)
{
	return mode == SC_REGS_PTX ? "ptx" : mode == SC_REGS_ALLOC ? "alloc" : mode == SC_REGS_UNALLOC ? "unalloc" : NULL;
}

int sc_regs_parse(const char *name, sc_regs_t *out)
{
	if (name && !strcmp(name, "ptx"))
		*out = SC_REGS_PTX;
	else if (name && !strcmp(name, "alloc"))
		*out = SC_REGS_ALLOC;
	else if (name && !strcmp(name, "unalloc"))
		*out = SC_REGS_UNALLOC;
	else
		return SC_EINVAL;
	return 0;
}

int sc_kernel_regs(const sc_module_t *m, const char *kernel, sc_kernel_regs_t *out)
{
	const sc_func_t *f = m && kernel ? find_kernel(m, kernel) : NULL;
	if (!f)
		return SC_ENOTFOUND;
	out->mode = m->regs;
	out->regs_ptx = f->regs_ptx;
	out->preds_ptx = f->preds_ptx;
	out->regs = f->regs_total;
	out->preds = f->preds_total;
	out->spill_regs = f->spill_total.regs;
	out->spill_bytes = f->spill_total.bytes;
	out->spill_stores = f->spill_total.stores;
	out->spill_loads = f->spill_total.loads;
	return 0;
}

const char *sc_kernel_name(const sc_module_t *m, uint32_t i)
{
	for (uint32_t j = 0; m && j < m->nfuncs; j++)
		if (m->funcs[j].is_entry && i-- == 0)
			return m->funcs[j].name;
	return NULL;
}

void sc_gpu_stats(const sc_gpu_t *g, sc_gpu_stats_t *out)
{
	sc__gpu_observe(g);
	*out = g->totals;
}

uint32_t sc_launch_count(const sc_gpu_t *g)
{
	sc__gpu_observe(g);
	return g->nstats;
}

const sc_launch_stats_t *sc_launch_stats(const sc_gpu_t *g, uint32_t i)
{
	sc__gpu_observe(g);
	return i < g->nstats ? &g->stats[i] : NULL;
}

/* Local memory: CUDA's limit per thread, and flipsim's for the local
 * memory of all threads resident at once (host memory it allocates). */
#define LOCAL_PER_THREAD_MAX (512u << 10)
#define LOCAL_TOTAL_MAX (4ull << 30)

/* CTAs SM i can hold at once in this launch: dispatch deals CTAs round-robin
 * from SM 0, so a grid smaller than the GPU leaves SMs with fewer. */
static uint64_t local_slots(const sc_gpu_t *g, uint32_t i)
{
	const sc_run_t *r = &g->run;
	uint32_t n = g->cfg.num_sms;
	uint64_t dealt = r->total_ctas > i ? (r->total_ctas - i + n - 1) / n : 0;
	return dealt < r->ctas_per_sm ? dealt : r->ctas_per_sm;
}

static uint64_t local_bytes(const sc_gpu_t *g, uint32_t i)
{
	return local_slots(g, i) * g->run.nwarps * 32 * g->run.local;
}

/* Refuses a launch whose local memory exceeds either limit. Returns 0 or
 * SC_ELAUNCH with the message. */
static int local_check(sc_gpu_t *g, const char *kernel)
{
	const sc_run_t *r = &g->run;
	if (r->fn->local_total > LOCAL_PER_THREAD_MAX) /* before rounding, which could wrap */
		return fail(g, SC_ELAUNCH, "kernel '%s' needs %u bytes of local memory per thread; CUDA allows at most %u "
		            "(512 KiB)", kernel, r->fn->local_total, LOCAL_PER_THREAD_MAX);
	uint64_t total = 0, threads = 0;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		total += local_bytes(g, i);
		threads += local_slots(g, i) * r->nthreads;
	}
	if (total > LOCAL_TOTAL_MAX)
		return fail(g, SC_ELAUNCH, "kernel '%s' needs %u bytes of local memory per thread, %.1f MiB for the %llu "
		            "threads resident at once; flipsim holds at most %llu MiB of local memory", kernel, r->local,
		            (double)total / (1 << 20), (unsigned long long)threads, LOCAL_TOTAL_MAX >> 20);
	return 0;
}

/* Per-launch SM storage sized by the kernel's needs. Returns 0, SC_ENOMEM,
 * or SC_ELAUNCH (with the message) when local memory cannot be had. */
/* SM i's part of the SC_MAP_LAUNCH mapping at base (NULL: measure only):
 * the predicate file, scoreboard and call stacks of every warp slot.
 * Returns the bytes per SM. */
static size_t launch_layout(sc_gpu_t *g, uint8_t *base, uint32_t i)
{
	const sc_run_t *r = &g->run;
	size_t mw = g->cfg.max_warps_per_sm;
	uint8_t *p = base;
	uint32_t *pf = carve(&p, mw * (r->preds ? r->preds : 1) * sizeof *pf);
	uint64_t *ready = carve(&p, mw * (r->regs + r->preds + 1) * sizeof *ready);
	uint32_t *calls = carve(&p, mw * (r->call_depth + 1) * sizeof *calls);
	if (base) {
		g->sms[i].pf = pf;
		g->sms[i].ready_mem = ready;
		g->sms[i].call_mem = calls;
	}
	return (size_t)(p - base);
}

/* An empty wheel at the launch's start, in use when the launch has at most
 * 64 warp slots per SM (and at most 8 schedulers). FLIPSIM_SCAN_SCHEDULER
 * set (to anything but 0) keeps to the scans: the same decisions, for
 * checking that they are (test arch::wheel_equals_scan). */
static void wheel_start(const sc_gpu_t *g, sc_wheel_t *wh, bool scan)
{
	uint32_t nslots = g->run.ctas_per_sm * g->run.nwarps, ns = g->cfg.schedulers_per_sm;
	memset(wh, 0, sizeof *wh);
	wh->at = g->cycle;
	wh->far_min = UINT64_MAX;
	wh->on = nslots <= 64 && ns <= 8 && !scan;
	for (uint32_t i = 0; wh->on && i < nslots; i++)
		wh->smask[i % ns] |= 1ull << i;
}

static int sms_prepare(sc_gpu_t *g)
{
	sc_run_t *r = &g->run;
	uint32_t mw = g->cfg.max_warps_per_sm;
	size_t per = launch_layout(g, NULL, 0);
	uint8_t *launch = sc__state_map(g, SC_MAP_LAUNCH, per * g->cfg.num_sms);
	if (!launch)
		return SC_ENOMEM;
	const char *env = getenv("FLIPSIM_SCAN_SCHEDULER");
	bool scan = env && *env && strcmp(env, "0") != 0;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_sm_t *sm = &g->sms[i];
		free(sm->local_mem);
		sm->local_mem = calloc(local_bytes(g, i) + 1, 1);
		if (!sm->local_mem)
			return fail(g, SC_ELAUNCH, "kernel '%s': cannot allocate %.1f MiB of local memory (%u bytes per "
			            "thread) for SM %u", r->fn->name, (double)local_bytes(g, i) / (1 << 20), r->local, i);
		launch_layout(g, launch + per * i, i);
		for (uint32_t w = 0; w < mw; w++) {
			sm->warps[w].state = SC_W_IDLE;
			sm->wnext[w] = UINT64_MAX;
		}
		wheel_start(g, sm->wh, scan);
		for (uint32_t c = 0; c < g->cfg.max_ctas_per_sm; c++)
			sm->ctas[c].used = false;
		for (uint32_t s = 0; s < g->cfg.schedulers_per_sm; s++)
			sm->last[s] = UINT32_MAX;
		memset(sm->sfree, 0, g->cfg.schedulers_per_sm * sizeof *sm->sfree);
		for (uint32_t s = 0; s < g->cfg.schedulers_per_sm; s++)
			sm->smin[s] = UINT64_MAX;
		memset(sm->ufree, 0, g->cfg.schedulers_per_sm * SC_FU__COUNT * sizeof *sm->ufree);
		sm->nctas = 0;
		*sm->next = UINT64_MAX;
	}
	sc__memsys_launch(g);
	return 0;
}

static void dispatch(sc_gpu_t *g, uint64_t now)
{
	sc_run_t *r = &g->run;
	uint32_t n = g->cfg.num_sms, full = 0;
	while (r->next_cta < r->total_ctas && full < n) {
		sc_sm_t *sm = &g->sms[r->next_sm];
		r->next_sm = (r->next_sm + 1) % n;
		if (sm->nctas >= r->ctas_per_sm) {
			full++;
			continue;
		}
		full = 0;
		for (uint32_t c = 0; c < r->ctas_per_sm; c++)
			if (!sm->ctas[c].used) {
				sc__cta_start(g, sm, &sm->ctas[c], r->next_cta++, now);
				break;
			}
	}
}

uint32_t sc__occupancy(const sc_gpu_config_t *c, uint32_t nwarps, uint32_t regs, uint32_t smem, const char **limiter)
{
	struct { uint32_t v; const char *why; } lim[5] = {
		{c->max_ctas_per_sm, "ctas"},
		{c->max_threads_per_sm / (nwarps * 32), "threads"},
		{c->max_warps_per_sm / nwarps, "warps"},
		{regs ? (uint32_t)(c->regs_per_sm / ((uint64_t)regs * nwarps * 32)) : UINT32_MAX, "registers"},
		{smem ? c->smem_per_sm / smem : UINT32_MAX, "shared"},
	};
	uint32_t best = 0;
	for (int i = 1; i < 5; i++)
		if (lim[i].v < lim[best].v)
			best = (uint32_t)i;
	*limiter = lim[best].why;
	return lim[best].v;
}

/* The launch's shape against CUDA's limits, the GPU's and the kernel's
 * .reqntid/.maxntid; *nthreads: threads per block. Returns 0 or SC_ELAUNCH
 * with the message. */
static int check_shape(sc_gpu_t *g, const sc_func_t *f, const char *kernel, const uint32_t bd[3],
                       const uint32_t gd[3], uint64_t *nthreads)
{
	for (int d = 0; d < 3; d++)
		if (!bd[d] || !gd[d])
			return fail(g, SC_ELAUNCH, "grid and block dimensions must be at least 1");
	if (bd[0] > 1024 || bd[1] > 1024 || bd[2] > 64 || gd[0] > 2147483647u || gd[1] > 65535 || gd[2] > 65535)
		return fail(g, SC_ELAUNCH, "block (%u,%u,%u) or grid (%u,%u,%u) exceeds the CUDA limits", bd[0], bd[1],
		            bd[2], gd[0], gd[1], gd[2]);
	uint64_t n = *nthreads = (uint64_t)bd[0] * bd[1] * bd[2];
	if (n > g->cfg.max_threads_per_cta)
		return fail(g, SC_ELAUNCH, "%llu threads per block exceeds the GPU's %u", (unsigned long long)n,
		            g->cfg.max_threads_per_cta);
	if (f->reqntid[0] && (f->reqntid[0] != bd[0] || (f->reqntid[1] ? f->reqntid[1] : 1) != bd[1] ||
	                      (f->reqntid[2] ? f->reqntid[2] : 1) != bd[2]))
		return fail(g, SC_ELAUNCH, "kernel '%s' requires a block of %u,%u,%u (.reqntid)", kernel, f->reqntid[0],
		            f->reqntid[1], f->reqntid[2]);
	if (f->maxntid[0]) {
		uint64_t mx = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) * (f->maxntid[2] ? f->maxntid[2] : 1);
		if (n > mx)
			return fail(g, SC_ELAUNCH, "kernel '%s' allows at most %llu threads per block (.maxntid)", kernel,
			            (unsigned long long)mx);
	}
	return 0;
}

/* Starts g->run afresh for this launch and sizes it: threads, warps,
 * registers, shared and local memory. Returns 0 or SC_ELAUNCH. */
static int run_size(sc_gpu_t *g, sc_module_t *m, const sc_func_t *f, const char *kernel, const uint32_t bd[3],
                    const uint32_t gd[3], uint64_t nthreads, uint32_t dyn_smem)
{
	sc_run_t *r = &g->run;
	free(r->params);
	memset(r, 0, sizeof *r);
	sc__prot_launch(g); /* storage starts afresh: no corrupted word is left */
	r->mod = m;
	r->fn = f;
	memcpy(r->grid, gd, sizeof r->grid);
	memcpy(r->block, bd, sizeof r->block);
	r->nthreads = (uint32_t)nthreads;
	r->nwarps = (r->nthreads + 31) / 32;
	r->regs = f->regs_total;
	r->preds = f->preds_total;
	/* The allocation spilled what it could (spill.c); a kernel that still
	 * does not fit is refused (unalloc mode applies no limit). */
	uint32_t lim = m->max_regs ? m->max_regs : g->cfg.max_regs_per_thread; /* FLIPSIM_MAX_REGS: lower */
	if (m->regs == SC_REGS_ALLOC && r->regs > lim)
		return fail(g, SC_ELAUNCH,
		            "kernel '%s' needs %u registers per thread after allocation and spilling %u registers; %s "
		            "allows %u (max_regs_per_thread%s) and nothing more can be spilled",
		            kernel, r->regs, f->spill_total.regs, g->cfg.name, lim,
		            lim < g->cfg.max_regs_per_thread ? ", lowered by FLIPSIM_MAX_REGS" : "");
	r->dyn_smem = dyn_smem;
	uint32_t st = f->smem_static;
	if (dyn_smem)
		st = (st + f->dyn_smem_align - 1) / f->dyn_smem_align * f->dyn_smem_align + dyn_smem;
	r->smem = (st + 15) / 16 * 16;
	r->local = (f->local_total + 7) / 8 * 8;
	sc__call_size(g, f);
	r->launch_index = g->nstats;
	if (UNLIKELY(f->smem_warp)) { /* Penny's shared checkpoints, at the CTA's end (pennyc.c) */
		uint64_t all = r->smem + (uint64_t)r->nwarps * f->smem_warp;
		if (all > g->cfg.max_smem_per_cta)
			return fail(g, SC_ELAUNCH,
			            "kernel '%s' needs %llu bytes of shared memory per block, %u of its own and %u x %u for "
			            "Penny's checkpoints in shared memory; the GPU allows %u (use storage auto or global)",
			            kernel, (unsigned long long)all, r->smem, r->nwarps, f->smem_warp, g->cfg.max_smem_per_cta);
		r->smem = (uint32_t)all;
	}
	if (r->smem > g->cfg.max_smem_per_cta)
		return fail(g, SC_ELAUNCH, "kernel '%s' needs %u bytes of shared memory per block; the GPU allows %u", kernel,
		            r->smem, g->cfg.max_smem_per_cta);
	return 0;
}

/* How many CTAs each SM holds (r->ctas_per_sm) and what limits them
 * (*limiter, static). Returns 0 or SC_ELAUNCH when not even one fits. */
static int run_fit(sc_gpu_t *g, const char *kernel, const char **limiter)
{
	sc_run_t *r = &g->run;
	r->ctas_per_sm = sc__occupancy(&g->cfg, r->nwarps, r->regs, r->smem, limiter);
	if (r->ctas_per_sm == 0 && !strcmp(*limiter, "registers")) {
		/* unalloc mode gives every virtual register its own slot, and nvcc's
		 * PTX can name more registers than one block's worth of the file.
		 * Such a kernel still runs, one block per SM, in a file extended
		 * to hold that block (reported as limiter "registers+"). */
		if (sc__occupancy(&g->cfg, r->nwarps, 0, r->smem, limiter) > 0) {
			r->ctas_per_sm = 1;
			*limiter = "registers+";
		}
	}
	if (r->ctas_per_sm == 0)
		return fail(g, SC_ELAUNCH,
		            "kernel '%s' cannot fit one block of %u threads on an SM (%u registers per thread, %u bytes of "
		            "shared memory; limited by %s)",
		            kernel, r->nthreads, r->regs, r->smem, *limiter);
	return 0;
}

/* The kernel's parameter space, copied from the host's argument pointers.
 * Returns 0, SC_ENOMEM, or SC_EINVAL when an argument is missing. */
static int run_params(sc_gpu_t *g, const sc_func_t *f, void *const *args, const char *kernel)
{
	sc_run_t *r = &g->run;
	r->param_bytes = f->param_bytes;
	r->params = calloc(1, f->param_bytes + 1);
	if (!r->params)
		return SC_ENOMEM;
	for (uint32_t i = 0; i < f->nparams; i++) {
		if (!args || !args[i])
			return fail(g, SC_EINVAL, "argument %u of '%s' is missing", i, kernel);
		memcpy(r->params + f->param_off[i], args[i], f->param_size[i]);
	}
	return 0;
}

/* Every SM's register file: the configured size, or one CTA's worth when
 * that is more (run_fit's "registers+"). What it held is not kept: no
 * window is live between launches (statemap.c). */
static int rf_fit(sc_gpu_t *g)
{
	const sc_run_t *r = &g->run;
	uint64_t cta_regs = (uint64_t)r->regs * r->nwarps * 32;
	uint64_t want = cta_regs > g->cfg.regs_per_sm ? cta_regs : g->cfg.regs_per_sm;
	return want == g->sms[0].rf_words ? 0 : sc__rf_map(g, want);
}

/* The earliest cycle at which some SM has work; UINT64_MAX when none has. */
static uint64_t next_event(const sc_gpu_t *g)
{
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		next = g->sm_next[i] < next ? g->sm_next[i] : next;
	return next;
}

/* Calls the pause hook for every pause point up to `next` (the hook may
 * halt the run or set the next point). */
static void pause_until(sc_gpu_t *g, uint64_t next, uint64_t now)
{
	while (UNLIKELY(g->pause_fn != NULL) && next >= g->pause_at && !g->run.halt) {
		uint64_t at = g->pause_at;
		g->cycle = at > now ? at : now;
		uint64_t again = g->pause_fn(g, g->pause_ctx, at);
		g->pause_at = again > at ? again : UINT64_MAX;
	}
}

/* Runs the cycle `now` of every SM due then, in index order; returns the
 * earliest next event. An SM's cycle changes only its own next, so each
 * group of 64 SMs is read once without a branch per SM (which SMs are
 * due follows no pattern a host predicts): the due ones as a mask, the
 * earliest next of the others, then the due ones run in order. */
static uint64_t visit_due(sc_gpu_t *g, uint64_t now, bool refu, uint32_t wheel)
{
	const uint64_t *sn = g->sm_next;
	uint64_t next = UINT64_MAX;
	for (uint32_t base = 0, n = g->cfg.num_sms; base < n; base += 64) {
		uint32_t m = n - base < 64 ? n - base : 64;
		uint64_t due = 0;
		for (uint32_t k = 0; k < m; k++) {
			uint64_t t = sn[base + k];
			due |= (uint64_t)(t == now) << k;
			t = t == now ? UINT64_MAX : t;
			next = t < next ? t : next;
		}
		for (; due; due &= due - 1) {
			uint32_t i = base + (uint32_t)__builtin_ctzll(due);
			if (UNLIKELY(refu))
				sc__refu_cycle(g, &g->sms[i], now);
			else if (LIKELY(wheel))
				sc__sm_cycle_wheel(g, &g->sms[i], wheel, now);
			else
				sc__sm_cycle(g, &g->sms[i], now);
			if (g->run.halt)
				return next;
			next = sn[i] < next ? sn[i] : next;
		}
	}
	return next;
}

/* The event loop: CTAs are dealt as SMs free up, and time jumps from one
 * SM event to the next until every CTA is done, a DUE halts the run, the
 * cycle budget runs out or no warp can move. Returns the cycle it ended. */
static uint64_t run_loop(sc_gpu_t *g, uint64_t now)
{
	sc_run_t *r = &g->run;
	dispatch(g, now);
	uint64_t done_seen = 0, next = next_event(g);
	bool refu = g->opt.prot.refu.on; /* its replays around each SM cycle */
	/* the launch's warp slots per SM when its SMs keep their warps on the
	 * wheel (every SM or none: wheel_start), else 0: visit_due then calls
	 * the wheel's cycle itself, the test and the count made once */
	uint32_t wheel = g->sms[0].wh->on ? r->ctas_per_sm * r->nwarps : 0;
	while (!r->halt) {
		if (r->done_ctas != done_seen) { /* new CTAs start: their SMs' next */
			done_seen = r->done_ctas;
			dispatch(g, now);
			next = next_event(g);
		}
		if (r->done_ctas == r->total_ctas && !(UNLIKELY(refu) && sc__refu_pending(g)))
			break; /* every CTA done, REFU's replays drained */
		if (next == UINT64_MAX) {
			sc__due(g, SC_DUE_BARRIER_DEADLOCK, NULL, NULL, -1, 0, 0, "no warp can make progress");
			break;
		}
		pause_until(g, next, now);
		if (r->halt)
			break;
		if (g->opt.cycle_budget && next > g->opt.cycle_budget) {
			now = g->opt.cycle_budget;
			g->cycle = now;
			sc__due(g, SC_DUE_TIMEOUT, NULL, NULL, -1, 0, 0, "the cycle budget of %llu cycles is exhausted",
			        (unsigned long long)g->opt.cycle_budget);
			break;
		}
		now = next;
		g->cycle = now;
		next = visit_due(g, now, refu, wheel);
	}
	g->cycle = now;
	return now;
}

/* Appends the launch's statistics and adds it to the GPU's totals.
 * Returns 0 or SC_ENOMEM. */
static int record_stats(sc_gpu_t *g, sc_dim3_t grid, sc_dim3_t block, const char *limiter, uint64_t start,
                        uint64_t now)
{
	const sc_run_t *r = &g->run;
	if (g->nstats == g->stats_cap) {
		uint32_t cap = g->stats_cap ? g->stats_cap * 2 : 16;
		sc_launch_stats_t *ns = realloc(g->stats, cap * sizeof *ns);
		if (!ns)
			return SC_ENOMEM;
		g->stats = ns;
		g->stats_cap = cap;
	}
	sc_launch_stats_t *s = &g->stats[g->nstats++];
	memset(s, 0, sizeof *s);
	snprintf(s->kernel, sizeof s->kernel, "%s", r->fn->name);
	s->grid = grid;
	s->block = block;
	s->regs_per_thread = r->regs;
	s->preds_per_thread = r->preds;
	s->smem_per_cta = r->smem;
	s->local_per_thread = r->local;
	s->spill_regs = r->fn->spill_total.regs;
	s->spill_bytes = r->fn->spill_total.bytes;
	s->spill_stores = r->fn->spill_total.stores;
	s->spill_loads = r->fn->spill_total.loads;
	s->ctas_per_sm = r->ctas_per_sm;
	s->limiter = limiter;
	s->occupancy = (double)(r->ctas_per_sm * r->nwarps) / g->cfg.max_warps_per_sm;
	s->start_cycle = start;
	s->end_cycle = now;
	s->cycles = now - start;
	s->warp_insts = r->warp_insts;
	s->thread_insts = r->thread_insts;
	s->l1_hits = g->ms.count.l1_hits;
	s->l1_misses = g->ms.count.l1_misses;
	s->l2_hits = g->ms.count.l2_hits;
	s->dram_reads = g->ms.count.dram;
	s->dram_writebacks = g->ms.count.dram_wb;
	s->const_hits = g->ms.count.cnst[0];
	s->const_misses = g->ms.count.cnst[1];
	s->tex_hits = g->ms.count.tex[0];
	s->tex_misses = g->ms.count.tex[1];
	memcpy(s->unit_busy, r->unit_busy, sizeof s->unit_busy);
	memcpy(s->ib_distinct, r->ib_distinct, sizeof s->ib_distinct);
	sc__sharp_stats(g, &s->sharp);
	sc__refu_stats(g, &s->refu);
	g->totals.cycles += s->cycles;
	g->totals.warp_insts += r->warp_insts;
	g->totals.thread_insts += r->thread_insts;
	g->totals.launches++;
	return 0;
}

int sc_launch(sc_gpu_t *g, sc_module_t *m, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn_smem,
              void *const *args)
{
	if (!g || !m || !kernel)
		return SC_EINVAL;
	if (g->status.reason != SC_DUE_NONE)
		return fail(g, SC_ESTICKY, "an earlier launch ended in a DUE (%s)", sc_due_name(g->status.reason));
	const sc_func_t *f = find_kernel(m, kernel);
	if (!f)
		return fail(g, SC_ENOTFOUND, "no kernel '%s' in %s", kernel, m->name);
	if (UNLIKELY(m->uses_heap) && sc__heap_prepare(g, m))
		return fail(g, SC_ENOMEM, "cannot make the device heap of %llu bytes", (unsigned long long)sc_heap_size(g));
	uint32_t bd[3] = {block.x, block.y, block.z}, gd[3] = {grid.x, grid.y, grid.z};
	uint64_t nthreads = 0;
	const char *limiter = NULL;
	int rc;
	if ((rc = check_shape(g, f, kernel, bd, gd, &nthreads)) ||
	    (rc = run_size(g, m, f, kernel, bd, gd, nthreads, dyn_smem)) || (rc = run_fit(g, kernel, &limiter)) ||
	    (rc = run_params(g, f, args, kernel)))
		return rc;
	g->run.total_ctas = (uint64_t)gd[0] * gd[1] * gd[2];
	if ((rc = local_check(g, kernel)) || (rc = rf_fit(g)) || (rc = sms_prepare(g)) || (rc = sc__decode_launch(g)) ||
	    (UNLIKELY(g->sms[0].penny) && (rc = sc__penny_launch(g))))
		return rc;

	uint64_t start = g->cycle, now = run_loop(g, start);
	sc__printf_flush(g);
	if ((rc = record_stats(g, grid, block, limiter, start, now)))
		return rc;
	if (g->run.halt)
		return fail(g, SC_EDUE, "kernel '%s' stopped: %s (%s)", kernel, sc_due_name(g->status.reason),
		            g->status.detail);
	return 0;
}
