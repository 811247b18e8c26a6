/* Penny, oracle mode (DESIGN.md, "Penny (oracle)"; Penny, ASPLOS'20): the
 * register file (and, with include_pred, the predicate file) carries a
 * code used to detect only (parity, Hamming or SECDED as an EDC). A read
 * that detects an error does not raise a DUE: the warp rolls back to the
 * start of its idempotent region, whose live-in registers are restored,
 * and executes the region again.
 *
 * Regions. Computed per module on the allocated code, once (the module
 * keeps them): a region starts at every basic-block leader (cfg.c) and
 * after every st, atom, red, bar, membar and call. A region therefore
 * writes memory at most once, as its last instruction: executing it again
 * from its start repeats no completed write, so it is idempotent without
 * alias analysis. It holds no branch, so the warp's SIMT stack is the same
 * all through it and a rollback resets the top entry's pc alone; entries
 * lower in the stack wait at leaders, which start regions. A boundary's
 * live-in registers come from liveness over the function's physical slots
 * (sc__live; both slots of a 64-bit value).
 *
 * Snapshots stand for Penny's checkpoints. Each time a warp issues the
 * first instruction of a region, the clean values (the register XOR its
 * error pattern in prot.c's table) of the region's live-ins are copied for
 * the top mask's lanes: the eager checkpoint right after each value's last
 * update, which no later fault can reach (Penny keeps checkpoints in ECC-
 * protected memory). Each warp keeps the current snapshot and the previous
 * one (double buffering, as Penny's storage alternation keeps two slots).
 * They lie outside every fault target and are in the state hash.
 *
 * Recovery, on a detected read (prot.c's decode, before the instruction
 * executes): on the top mask's lanes the live-ins are restored and their
 * error patterns dropped, top.pc goes back to the region's start, the
 * instruction buffer is flushed, and the warp waits recovery_penalty plus
 * latency.local per restored register (a checkpoint reload per register,
 * issued back to back: an assumption; the paper gives no figure). The event
 * is `recovered`. A corrupted register that is not a live-in was written in
 * the region before the read (liveness: no guarded write, which would keep
 * it live-in) and is written again by the re-execution. A predicate word
 * holds every lane's bit: its lanes outside the top mask get their clean
 * bits back too, so that the word's pattern can end; so does a register
 * of a lane outside the top mask that shfl reads across lanes (that lane
 * does not execute in the region: its value is the one it had at the
 * region's start). A detected error with no snapshot of its region is the
 * DUE penny_unrecoverable: the model's own checker. */
#include <stdlib.h>
#include <string.h>

#include "ecc.h"
#include "sc_int.h"

static const char *const mode_names[] = {[SC_PENNY_ORACLE] = "oracle", [SC_PENNY_COMPILED] = "compiled"};

const char *sc_penny_mode_name(sc_penny_mode_t m)
{
	return (unsigned)m <= SC_PENNY_COMPILED ? mode_names[m] : "?";
}

const char *sc_penny_prune_name(sc_penny_prune_t x)
{
	return x == SC_PENNY_PRUNE_BASIC     ? "basic"
	       : x == SC_PENNY_PRUNE_NONE    ? "none"
	       : x == SC_PENNY_PRUNE_OPTIMAL ? "optimal"
	                                     : "?";
}

const char *sc_penny_storage_name(sc_penny_storage_t x)
{
	return x == SC_PENNY_STORE_AUTO ? "auto" : x == SC_PENNY_STORE_GLOBAL ? "global" :
	       x == SC_PENNY_STORE_SHARED ? "shared" : "?";
}

int sc_penny_storage_parse(const char *s, sc_penny_storage_t *out)
{
	for (int x = SC_PENNY_STORE_AUTO; x <= SC_PENNY_STORE_SHARED; x++)
		if (s && !strcmp(s, sc_penny_storage_name((sc_penny_storage_t)x))) {
			*out = (sc_penny_storage_t)x;
			return 0;
		}
	return SC_EINVAL;
}

sc_penny_protection_t sc_penny_params(const sc_protection_t *p)
{
	sc_penny_protection_t s = p ? p->penny : (sc_penny_protection_t){0};
	if (!s.on)
		return (sc_penny_protection_t){0};
	if (!s.recovery_penalty)
		s.recovery_penalty = 50;
	return s;
}

bool sc__penny_covers(const sc_gpu_t *g, sc_target_t t)
{
	const sc_penny_protection_t *p = &g->opt.prot.penny;
	return p->on && (t == SC_TGT_REGFILE || (t == SC_TGT_PRED && p->include_pred));
}

/* ------------------------------------------------------------ regions */
void sc__penny_tab_free(sc_penny_tab_t *t)
{
	if (!t)
		return;
	free(t->rstart);
	free(t->off);
	free(t->nreg);
	free(t->list);
	free(t);
}

/* Appends x to the growing list; false without memory. */
static bool push(sc_penny_tab_t *t, uint32_t *cap, uint32_t *n, uint16_t x)
{
	if (*n == *cap) {
		uint32_t c = *cap ? 2 * *cap : 256;
		uint16_t *l = realloc(t->list, c * sizeof *l);
		if (!l)
			return false;
		t->list = l;
		*cap = c;
	}
	t->list[(*n)++] = x;
	return true;
}

/* Function f's regions into t: rstart of its pcs, the live-in lists of
 * its boundaries (appended at *n). */
static int func_regions(const sc_module_t *m, const sc_func_t *f, sc_penny_tab_t *t, uint32_t *cap, uint32_t *n)
{
	uint32_t lo = f->entry_pc, hi = f->end_pc, nr = m->nregs_all, np = m->npreds_all;
	bool *leader = calloc(hi - lo, sizeof *leader);
	uint8_t *wide = calloc(nr + 1, 1), *seen = calloc(nr + 2, 1);
	sc_live_t lv = {0};
	int rc = SC_ENOMEM;
	if (!leader || !wide || !seen)
		goto out;
	if ((rc = sc__live(m->code, lo, hi, 0, nr, 0, np, &lv)))
		goto out;
	sc__cfg_leaders(m->code, lo, hi, leader);
	for (uint32_t pc = lo; pc < hi; pc++) {
		sc_regref_t v[8];
		unsigned k = sc__insn_regs(&m->code[pc], v);
		for (unsigned j = 0; j < k; j++)
			if (!v[j].pred && v[j].w == 2 && v[j].idx < nr)
				wide[v[j].idx] = 1;
	}
	uint32_t start = lo;
	rc = SC_ENOMEM;
	for (uint32_t pc = lo; pc < hi; pc++) {
		if (!leader[pc - lo] && !(pc > lo && sc__penny_side(&m->code[pc - 1]))) {
			t->rstart[pc] = start;
			continue;
		}
		t->rstart[pc] = start = pc;
		t->off[pc] = *n;
		memset(seen, 0, nr + 2);
		for (uint32_t r = 0; r < nr; r++) {
			if (!sc__live_at(&lv, lv.in, pc, r))
				continue;
			for (uint32_t s = r; s <= r + wide[r] && s < nr; s++)
				if (!seen[s]) {
					seen[s] = 1;
					if (!push(t, cap, n, (uint16_t)s))
						goto out;
				}
		}
		/* the register slots in order (a 64-bit value's upper slot may
		 * come after a higher one): a sort keeps the list canonical */
		for (uint32_t a = t->off[pc] + 1; a < *n; a++)
			for (uint32_t b = a; b > t->off[pc] && t->list[b - 1] > t->list[b]; b--) {
				uint16_t x = t->list[b];
				t->list[b] = t->list[b - 1];
				t->list[b - 1] = x;
			}
		t->nreg[pc] = (uint16_t)(*n - t->off[pc]);
		for (uint32_t p = 0; p < np; p++)
			if (sc__live_at(&lv, lv.in, pc, nr + p) && !push(t, cap, n, (uint16_t)p))
				goto out;
		if (*n - t->off[pc] > t->maxlive)
			t->maxlive = *n - t->off[pc];
	}
	rc = 0;
out:
	sc__live_free(&lv);
	free(leader);
	free(wide);
	free(seen);
	return rc;
}

/* The regions of every function of m. */
static int build(const sc_module_t *m, sc_penny_tab_t **out)
{
	sc_penny_tab_t *t = calloc(1, sizeof *t);
	uint32_t N = m->ncode, cap = 0, n = 0;
	int rc = SC_ENOMEM;
	if (!t || !(t->rstart = malloc((N + 1) * sizeof *t->rstart)) || !(t->off = calloc(N + 1, sizeof *t->off)) ||
	    !(t->nreg = calloc(N + 1, sizeof *t->nreg)))
		goto fail;
	t->ncode = N;
	for (uint32_t pc = 0; pc < N; pc++)
		t->rstart[pc] = UINT32_MAX;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX || f->end_pc <= f->entry_pc || f->end_pc > N)
			continue;
		if ((rc = func_regions(m, f, t, &cap, &n)))
			goto fail;
	}
	/* off[pc + 1] ends pc's list: each non-boundary pc takes its next
	 * boundary's start, so that its list is empty */
	t->off[N] = n;
	for (uint32_t pc = N; pc-- > 0;)
		if (t->rstart[pc] != pc)
			t->off[pc] = t->off[pc + 1];
	*out = t;
	return 0;
fail:
	sc__penny_tab_free(t);
	return rc;
}

/* ------------------------------------------------------------ the state */
int sc__penny_create(sc_gpu_t *g)
{
	if (!g->opt.prot.penny.on)
		return 0;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_penny_t *p = calloc(1, sizeof *p);
		g->sms[i].penny = p;
		if (!p)
			return SC_ENOMEM;
		p->p = sc_penny_params(&g->opt.prot);
	}
	return 0;
}

static void free_snaps(sc_penny_t *p)
{
	free(p->snap);
	free(p->val);
	free(p->cur);
	free(p->resume);
}

void sc__penny_destroy(sc_gpu_t *g)
{
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		sc_penny_t *p = g->sms[i].penny;
		if (!p)
			continue;
		free_snaps(p);
		free(p);
		g->sms[i].penny = NULL;
	}
}

int sc__penny_launch(sc_gpu_t *g)
{
	if (!g->sms[0].penny)
		return 0;
	sc_module_t *m = (sc_module_t *)g->run.mod; /* the regions are the module's, built once */
	if (g->opt.prot.penny.mode == SC_PENNY_COMPILED) { /* the compiler's table, made at load */
		if (!m->pennyc)
			return SC_ELAUNCH;
		for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
			g->sms[i].penny->tab = NULL;
			g->sms[i].penny->ctab = m->pennyc;
		}
		return 0;
	}
	if (!m->penny && build(m, &m->penny))
		return SC_ENOMEM;
	const sc_penny_tab_t *t = m->penny;
	uint32_t nslots = g->cfg.max_warps_per_sm, cap = (t->maxlive ? t->maxlive : 1) * 32;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_penny_t *p = g->sms[i].penny;
		if (p->nslots < nslots || p->cap < cap) {
			free_snaps(p);
			p->snap = malloc((size_t)nslots * 2 * sizeof *p->snap);
			p->val = calloc((size_t)nslots * 2 * cap, sizeof *p->val);
			p->cur = malloc(nslots);
			p->resume = malloc(nslots);
			p->nslots = nslots;
			p->cap = cap;
			if (!p->snap || !p->val || !p->cur || !p->resume) {
				p->nslots = p->cap = 0;
				return SC_ENOMEM;
			}
		}
		p->tab = t;
		p->ctab = NULL;
		for (uint32_t s = 0; s < p->nslots; s++) {
			p->snap[2 * s] = p->snap[2 * s + 1] = (sc_penny_snap_t){.pc = UINT32_MAX};
			p->cur[s] = p->resume[s] = 0;
		}
	}
	return 0;
}

void sc__penny_cta(sc_sm_t *sm, const sc_cta_t *cta, uint32_t nwarps)
{
	sc_penny_t *p = sm->penny;
	for (uint32_t s = cta->slot * nwarps; s < (cta->slot + 1) * nwarps && s < p->nslots; s++) {
		p->snap[2 * s] = p->snap[2 * s + 1] = (sc_penny_snap_t){.pc = UINT32_MAX};
		p->cur[s] = p->resume[s] = 0;
	}
}

/* ------------------------------------------------------------ snapshots */
static uint32_t *vals(const sc_penny_t *p, uint32_t slot, uint32_t b)
{
	return p->val + ((size_t)slot * 2 + b) * p->cap;
}

/* The entries of a snapshot: the live-ins of region start pc, the
 * predicates only with include_pred. */
static uint32_t nlist(const sc_penny_t *p, uint32_t pc, uint32_t *nreg)
{
	*nreg = p->tab->nreg[pc];
	return p->p.include_pred ? p->tab->off[pc + 1] - p->tab->off[pc] : *nreg;
}

/* Entry e's place in w's registers (reg, lane) or predicates (reg): false
 * when it is not w's. */
static bool word_of(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_perr_t *e, uint32_t *reg,
                    uint32_t *lane)
{
	if (e->tgt == SC_TGT_REGFILE) {
		uint64_t base = (uint64_t)(w->rf - sm->rf);
		if (e->word < base || e->word >= base + (uint64_t)g->run.regs * 32)
			return false;
		*reg = (uint32_t)((e->word - base) / 32);
		*lane = (uint32_t)((e->word - base) % 32);
		return true;
	}
	uint64_t base = (uint64_t)(w->pf - sm->pf);
	if (e->tgt != SC_TGT_PRED || e->word < base || e->word >= base + g->run.preds)
		return false;
	*reg = (uint32_t)(e->word - base);
	*lane = 0;
	return true;
}

/* The index of register (pred: predicate) x in region pc's list, or -1. */
static int index_of(const sc_penny_t *p, uint32_t pc, bool pred, uint32_t x)
{
	uint32_t nreg, n = nlist(p, pc, &nreg);
	const uint16_t *l = p->tab->list + p->tab->off[pc];
	for (uint32_t j = pred ? nreg : 0; j < (pred ? n : nreg); j++)
		if (l[j] == x)
			return (int)j;
	return -1;
}

void sc__penny_snap(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t pc)
{
	sc_penny_t *p = sm->penny;
	uint32_t slot = w->slot;
	if (p->resume[slot]) { /* the rollback's region: its snapshot stays */
		p->resume[slot] = 0;
		if (p->snap[2 * slot + p->cur[slot]].pc == pc)
			return;
	}
	const sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t b = p->cur[slot] ^ 1u, mask = top->mask, nreg, n = nlist(p, pc, &nreg);
	const uint16_t *l = p->tab->list + p->tab->off[pc];
	uint32_t *v = vals(p, slot, b);
	p->snap[2 * slot + b] = (sc_penny_snap_t){.pc = pc, .sp = w->sp, .mask = mask};
	p->cur[slot] = (uint8_t)b;
	for (uint32_t j = 0; j < nreg; j++) {
		const uint32_t *r = &w->rf[(size_t)l[j] * 32];
		if (mask == 0xffffffffu) { /* the usual case: the whole row */
			memcpy(&v[j * 32], r, 32 * sizeof *r);
			continue;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t lane = (uint32_t)__builtin_ctz(m);
			v[j * 32 + lane] = r[lane];
		}
	}
	for (uint32_t j = nreg; j < n; j++)
		v[j * 32] = w->pf[l[j]];
	/* the clean values: a corrupted word's pattern taken off */
	for (uint32_t i = 0; i < sm->nerr; i++) {
		const sc_perr_t *e = &sm->err[i];
		uint32_t x, lane;
		if (!sc__penny_covers(g, (sc_target_t)e->tgt) || !word_of(g, sm, w, e, &x, &lane))
			continue;
		int j = index_of(p, pc, e->tgt == SC_TGT_PRED, x);
		if (j >= 0 && e->tgt == SC_TGT_PRED)
			v[j * 32] ^= (uint32_t)e->data;
		else if (j >= 0 && (mask >> lane & 1u))
			v[j * 32 + lane] ^= (uint32_t)e->data;
	}
}

/* ------------------------------------------------------------ recovery */
void sc__penny_unrecoverable(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, const char *why)
{
	sc__prot_event(g, SC_PROT_DETECTED);
	sc__due(g, SC_DUE_PENNY_UNRECOVERABLE, sm, w, -1, pc, 0,
	        "Penny detected an error at pc %u and cannot recover: %s", pc, why);
}

void sc__penny_recover(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_perr_t *e, uint32_t pc)
{
	sc_penny_t *p = sm->penny;
	if (p->ctab)
		return sc__pennyc_recover(g, sm, w, e, pc);
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t slot = w->slot, rb = pc < p->tab->ncode ? p->tab->rstart[pc] : UINT32_MAX, x, lane;
	if (rb == UINT32_MAX)
		return sc__penny_unrecoverable(g, sm, w, pc, "the pc lies in no region");
	int b = -1;
	for (uint32_t k = 0; k < 2 && b < 0; k++) {
		uint32_t c = p->cur[slot] ^ k;
		const sc_penny_snap_t *s = &p->snap[2 * slot + c];
		if (s->pc == rb && s->sp == w->sp && !(top->mask & ~s->mask))
			b = (int)c;
	}
	if (b < 0)
		return sc__penny_unrecoverable(g, sm, w, pc, "no snapshot of its region");
	uint32_t nreg, n = nlist(p, rb, &nreg), mask = top->mask;
	const uint16_t *l = p->tab->list + p->tab->off[rb];
	const uint32_t *v = vals(p, slot, (uint32_t)b);
	/* the patterns first: a restored word is clean, a predicate word's
	 * other lanes get their clean bits back */
	for (uint32_t i = 0; i < sm->nerr;) {
		const sc_perr_t *q = &sm->err[i];
		if (!sc__penny_covers(g, (sc_target_t)q->tgt) || !word_of(g, sm, w, q, &x, &lane)) {
			i++;
			continue;
		}
		bool pred = q->tgt == SC_TGT_PRED, hit = q->tgt == e->tgt && q->word == e->word;
		int j = index_of(p, rb, pred, x);
		if (pred && (j >= 0 || hit)) {
			w->pf[x] ^= (uint32_t)q->data & (j >= 0 ? ~mask : ~0u);
			sm->err[i] = sm->err[--sm->nerr];
		} else if (!pred && j >= 0 && (mask >> lane & 1u)) {
			sm->err[i] = sm->err[--sm->nerr];
		} else if (!pred && hit && !(mask >> lane & 1u)) {
			/* a lane that does not execute, read across lanes (shfl):
			 * its registers stay as they were at the region's start,
			 * which a snapshot of all 32 lanes would hold clean */
			w->rf[(size_t)x * 32 + lane] ^= (uint32_t)q->data;
			sm->err[i] = sm->err[--sm->nerr];
		} else {
			i++;
		}
	}
	for (uint32_t j = 0; j < nreg; j++) {
		uint32_t *r = &w->rf[(size_t)l[j] * 32];
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t ln = (uint32_t)__builtin_ctz(m);
			r[ln] = v[j * 32 + ln];
		}
	}
	for (uint32_t j = nreg; j < n; j++)
		w->pf[l[j]] = (w->pf[l[j]] & ~mask) | (v[j * 32] & mask);
	p->cur[slot] = (uint8_t)b;
	p->resume[slot] = 1;
	sc__penny_rollback(g, sm, w, rb, (uint64_t)n * g->cfg.latency[SC_LAT_LOCAL]);
}

void sc__penny_rollback(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t rb, uint64_t restore_cycles)
{
	w->stk[w->sp - 1].pc = rb;
	if (UNLIKELY(sm->sawp))
		sc__sawp_flush(g, sm, w);
	for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
		w->ib[k].valid = 0;
	w->ib_pc = rb;
	sc__prot_event(g, SC_PROT_RECOVERED);
	sc__warp_wait(g, sm, w, g->cycle + sm->penny->p.recovery_penalty + restore_cycles);
}

/* ------------------------------------------------------------ hash */
static uint64_t mix(uint64_t h, uint64_t x)
{
	x ^= h + 0x9e3779b97f4a7c15ull + (x << 6);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

uint64_t sc__penny_hash(const sc_gpu_t *g, const sc_sm_t *sm)
{
	const sc_penny_t *p = sm->penny;
	uint32_t nslots = g->run.ctas_per_sm * g->run.nwarps;
	uint64_t h = 0;
	for (uint32_t slot = 0; slot < nslots && slot < p->nslots; slot++) {
		h = mix(h, (uint64_t)slot << 8 | (uint64_t)p->cur[slot] << 1 | p->resume[slot]);
		for (uint32_t b = 0; b < 2; b++) {
			const sc_penny_snap_t *s = &p->snap[2 * slot + b];
			if (s->pc == UINT32_MAX)
				continue;
			h = mix(h, (uint64_t)s->pc << 32 ^ (uint64_t)s->sp << 20 ^ b);
			h = mix(h, s->mask);
			uint32_t nreg, n = nlist(p, s->pc, &nreg);
			const uint32_t *v = vals(p, slot, b);
			for (uint32_t j = 0; j < nreg; j++)
				for (uint32_t m = s->mask; m; m &= m - 1)
					h = mix(h, v[j * 32 + (uint32_t)__builtin_ctz(m)]);
			for (uint32_t j = nreg; j < n; j++)
				h = mix(h, v[j * 32]);
		}
	}
	return h;
}
