/* REFU: Redundant Execution with idle Functional Units (DESIGN.md, "REFU").
 * Every ALU instruction (sc__refu_covers: its op's unit is NUM, INT, FP or
 * CMP; mov, memory, warp and control instructions are not re-executed)
 * enters its SM's replay buffer of B entries once it has executed, with
 * its operands and result. From the next SM cycle on, the oldest entries
 * with an idle unit of their kind replay there, after the schedulers have
 * issued, occupying it for the class's interval. The ALU is split into
 * independent sub-units (add, logic, mul, cvt: sub_of): a primary occupies
 * its sub-unit as well as the ALU's issue (sm.c), a replay its sub-unit
 * only, so that it runs beside primaries of the other sub-units, and a
 * primary waits while a replay holds its sub-unit. The SFU and FP64 units
 * have no sub-units: a replay occupies the unit. When the buffer is full
 * the oldest entry that can replay does so ahead of the schedulers (a
 * forced replay), and until an entry drains no covered instruction issues
 * (sc__refu_issue holds its warp back). A replay whose result differs from
 * the stored one raises DUE refu_mismatch at its cycle. The launch ends
 * once every buffer is empty. REFU keeps g->after set, so that
 * sc__after_issue puts the instructions in.
 *
 * Values are not kept: a fault-free replay computes the stored result, so
 * what matters is what a functional-unit fault (fault.c sc__fu_apply) did
 * to the entry (sc_refu_ent_t's bad and chg). A transient fault corrupts
 * the primary only (bad != 0, the replay is correct: a mismatch). A stuck
 * lane sits in one scheduler's units (sc__fu_stuck_unit): a replay on
 * that unit, while the bit is stuck, gives the forced result (chg), so a
 * primary and a replay both on the faulty unit agree and the error
 * escapes; on another unit they differ. A replay prefers a unit other than
 * its primary's (the next scheduler's, round robin); kinds with one unit
 * per SM replay on the same unit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

sc_refu_protection_t sc_refu_params(const sc_protection_t *p)
{
	sc_refu_protection_t r = p ? p->refu : (sc_refu_protection_t){0};
	if (!r.on)
		return (sc_refu_protection_t){0};
	if (!r.replay_buffer)
		r.replay_buffer = 2;
	return r;
}

int sc__refu_create(sc_gpu_t *g)
{
	if (!g->opt.prot.refu.on)
		return 0;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_refu_t *r = calloc(1, sizeof *r);
		if (!(g->sms[i].refu = r))
			return SC_ENOMEM;
		r->cap = sc_refu_params(&g->opt.prot).replay_buffer;
	}
	g->after = true; /* sc__after_issue puts covered instructions into the buffer */
	return 0;
}

void sc__refu_destroy(sc_gpu_t *g)
{
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		free(g->sms[i].refu);
		g->sms[i].refu = NULL;
	}
}

void sc__refu_launch(sc_gpu_t *g)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_refu_t *r = g->sms[i].refu;
		if (!r)
			return;
		r->n = 0;
		r->mark_bad = r->mark_chg = 0;
		memset(r->pbusy, 0, sizeof r->pbusy);
		memset(r->rbusy, 0, sizeof r->rbusy);
		memset(&r->st, 0, sizeof r->st);
	}
}

bool sc__refu_pending(const sc_gpu_t *g)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		if (g->sms[i].refu && g->sms[i].refu->n)
			return true;
	return false;
}

/* The ALU's sub-unit that executes `in` of class cls (SC_REFU_SUB_*):
 * conversions, multiplies (integer, and floating-point mul, mad, fma),
 * logic (the integer unit's bitwise and shift instructions), and adds
 * (add, sub, compares, min, max, the other arithmetic). */
static uint8_t sub_of(const sc_insn_t *in, sc_lat_t cls)
{
	if (cls == SC_LAT_CVT)
		return SC_REFU_SUB_CVT;
	if (cls == SC_LAT_IMUL || in->op == SC_OP_MUL || in->op == SC_OP_MAD || in->op == SC_OP_FMA)
		return SC_REFU_SUB_MUL;
	return sc__ops[in->op].unit == SC_U_INT ? SC_REFU_SUB_LOGIC : SC_REFU_SUB_ADD;
}

/* The unit kind of an ALU-class instruction (decode.c's unit_class). */
static uint8_t kind_of(sc_lat_t cls) { return cls == SC_LAT_SFU ? SC_FU_SFU : cls == SC_LAT_FP64 ? SC_FU_DP : SC_FU_ALU; }

/* The first cycle e may replay on the unit of its kind that scheduler k
 * uses: an ALU's sub-unit once no primary or replay occupies it, another
 * unit (SFU, FP64: no sub-units) once it is free. */
static uint64_t unit_ready(const sc_sm_t *sm, const sc_refu_ent_t *e, uint32_t k)
{
	const sc_refu_t *r = sm->refu;
	if (e->fu != SC_FU_ALU)
		return sm->ufree[sm->uslot[k][e->fu]];
	uint64_t p = r->pbusy[k][e->sub], q = r->rbusy[k][e->sub];
	return p > q ? p : q;
}

/* The first cycle entry e may replay: after its primary's cycle, once a
 * unit of its kind is free. */
static uint64_t ent_ready(const sc_gpu_t *g, const sc_sm_t *sm, const sc_refu_ent_t *e)
{
	uint64_t t = UINT64_MAX;
	for (uint32_t k = 0; k < g->cfg.schedulers_per_sm; k++) {
		uint64_t f = unit_ready(sm, e, k);
		t = f < t ? f : t;
	}
	return t > e->at ? t : e->at + 1;
}

/* The earliest cycle an entry of sm may replay; UINT64_MAX when empty. */
static uint64_t next_replay(const sc_gpu_t *g, const sc_sm_t *sm)
{
	const sc_refu_t *r = sm->refu;
	uint64_t t = UINT64_MAX;
	for (uint32_t i = 0; i < r->n; i++) {
		uint64_t x = ent_ready(g, sm, &r->e[i]);
		t = x < t ? x : t;
	}
	return t;
}

/* w waits until t (> now), counted in *cycles. */
static bool hold(sc_sm_t *sm, const sc_warp_t *w, uint64_t t, uint64_t now, uint64_t *cycles)
{
	*cycles += t - now;
	sc__set_wnext(sm, w->slot, t);
	return false;
}

bool sc__refu_issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint64_t now)
{
	sc_refu_t *r = sm->refu;
	if (!sc__refu_covers(in->op))
		return true;
	if (r->n == r->cap) {
		uint64_t t = next_replay(g, sm);
		return hold(sm, w, t > now ? t : now + 1, now, &r->st.stall_cycles);
	}
	sc_lat_t cls = sc__alu_class(in);
	uint64_t busy = kind_of(cls) == SC_FU_ALU ? r->rbusy[w->slot % g->cfg.schedulers_per_sm][sub_of(in, cls)] : 0;
	return busy <= now || hold(sm, w, busy, now, &r->st.sub_wait_cycles); /* its sub-unit replays */
}

void sc__refu_push(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t pc,
                   uint64_t now)
{
	sc_refu_t *r = sm->refu;
	if (r->n == r->cap) /* cannot happen: sc__refu_issue held the warp back */
		return;
	sc_dec_t redo;
	const sc_dec_t *d = &g->dec[pc];
	if (UNLIKELY(w->ib_dirty)) { /* the word the buffer held, which issued */
		sc__decode(g, in, pc, false, &redo);
		d = &redo;
	}
	uint32_t s = w->slot % g->cfg.schedulers_per_sm;
	uint8_t sub = d->fu == SC_FU_ALU ? sub_of(in, (sc_lat_t)d->cls) : 0;
	if (d->fu == SC_FU_ALU) /* the primary occupies its sub-unit */
		r->pbusy[s][sub] = now + g->cfg.interval[d->cls];
	r->e[r->n++] = (sc_refu_ent_t){.slot = w->slot, .pc = pc, .fu = d->fu, .cls = d->cls, .sub = sub,
	                               .unit = sm->uslot[s][d->fu], .bad = r->mark_bad, .chg = r->mark_chg, .at = now};
	r->mark_bad = r->mark_chg = 0;
	r->st.buffered++;
}

/* Entry i replays on unit u at now: the unit is busy for its interval, the
 * entry leaves, and the results are compared (false after the DUE). */
static bool replay(sc_gpu_t *g, sc_sm_t *sm, uint32_t i, uint32_t u, bool forced, uint64_t now)
{
	sc_refu_t *r = sm->refu;
	sc_refu_ent_t e = r->e[i];
	uint32_t busy = g->cfg.interval[e.cls];
	if (e.fu == SC_FU_ALU) { /* its sub-unit: primaries of the others go on */
		r->rbusy[u % g->cfg.schedulers_per_sm][e.sub] = now + busy;
	} else {
		sm->ufree[u] = now + busy;
		g->run.unit_busy[e.fu] += busy;
	}
	r->st.busy_cycles += busy;
	r->st.replays++;
	r->st.forced += forced;
	memmove(&r->e[i], &r->e[i + 1], (r->n - i - 1) * sizeof *r->e);
	r->n--;
	uint32_t again = 0; /* the lanes the replay gets wrong: a stuck bit on its unit */
	if (e.chg && g->fu.armed && g->fu.op == SC_FM_STUCK && g->fu.sm == sm->id &&
	    u == sc__fu_stuck_unit(g, sm, e.fu) && sc__stuck_active(g->fu.cycle, g->fu.period, g->fu.duration, now, NULL))
		again = e.chg;
	uint32_t diff = e.bad ^ again;
	if (!diff)
		return true;
	sc__prot_event(g, SC_PROT_DETECTED);
	sc__due(g, SC_DUE_REFU_MISMATCH, sm, &sm->warps[e.slot], __builtin_ctz(diff), e.pc, 0,
	        "REFU: the replay of pc %u on %s unit %u differs from its stored result in lanes 0x%08x", e.pc,
	        sc_fu_name((sc_fu_t)e.fu), u % g->cfg.schedulers_per_sm, diff);
	return false;
}

/* The oldest entries with an idle unit of their kind replay; a forced
 * pass stops once the buffer has room. false after a DUE. */
static bool drain(sc_gpu_t *g, sc_sm_t *sm, bool forced, uint64_t now)
{
	sc_refu_t *r = sm->refu;
	uint32_t ns = g->cfg.schedulers_per_sm;
	for (uint32_t i = 0; i < r->n && !(forced && r->n < r->cap);) {
		const sc_refu_ent_t *e = &r->e[i];
		uint32_t u = UINT32_MAX, ps = e->slot % ns;
		for (uint32_t k = 1; k <= ns && u == UINT32_MAX && e->at < now; k++)
			if (unit_ready(sm, e, (ps + k) % ns) <= now)
				u = sm->uslot[(ps + k) % ns][e->fu];
		if (u == UINT32_MAX) {
			i++;
			continue;
		}
		if (!replay(g, sm, i, u, forced, now))
			return false;
	}
	return true;
}

void sc__refu_cycle(sc_gpu_t *g, sc_sm_t *sm, uint64_t now)
{
	sc_refu_t *r = sm->refu;
	if (r->n == r->cap && !drain(g, sm, true, now))
		return;
	sc__sm_cycle(g, sm, now);
	if (g->run.halt || !drain(g, sm, false, now))
		return;
	uint64_t t = next_replay(g, sm);
	if (t != UINT64_MAX) {
		t = sc__issue_edge(g, t > now ? t : now + 1);
		*sm->next = t < *sm->next ? t : *sm->next;
	}
}

/* ------------------------------------------------------------ hash, stats */
uint64_t sc__refu_hash(const sc_gpu_t *g, const sc_sm_t *sm)
{
	const sc_refu_t *r = sm->refu;
	uint64_t h = r->n * 0x9e3779b97f4a7c15ull;
	for (uint32_t i = 0; i < r->n; i++) {
		const sc_refu_ent_t *e = &r->e[i];
		uint64_t x = (uint64_t)e->slot << 40 ^ (uint64_t)e->pc << 8 ^ (uint64_t)e->fu << 4 ^ e->cls;
		x ^= ((uint64_t)e->unit << 56) ^ ((uint64_t)e->bad << 32 | e->chg) * 0x100000001b3ull;
		x ^= (e->at >= g->cycle ? e->at + 1 - g->cycle : 0) << 48;
		x ^= (uint64_t)e->sub << 60;
		h = (h ^ x) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	for (uint32_t k = 0; k < g->cfg.schedulers_per_sm; k++) /* the ALUs' sub-units */
		for (uint32_t b = 0; b < SC_REFU_NSUB; b++) {
			uint64_t p = r->pbusy[k][b], q = r->rbusy[k][b];
			h = (h ^ ((p > g->cycle ? p - g->cycle : 0) << 32 | (q > g->cycle ? q - g->cycle : 0))) *
			    0xbf58476d1ce4e5b9ull;
			h ^= h >> 29;
		}
	return h;
}

void sc__refu_stats(const sc_gpu_t *g, sc_refu_stats_t *st)
{
	memset(st, 0, sizeof *st);
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		const sc_refu_t *r = g->sms[i].refu;
		if (!r)
			return;
#define X(f) st->f += r->st.f;
		SC_REFU_STATS_LIST(X)
#undef X
	}
}
