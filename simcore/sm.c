/* The streaming multiprocessor: warp scheduling (LRR/GTO), the instruction
 * buffer, the scoreboard, SIMT reconvergence, barriers, and the execution of
 * moves, memory, control and warp-level instructions (arithmetic lives in
 * sem_*.c). Abnormal states end the launch through sc__due(): a structured
 * status, never an abort of the host. Design: sc_int.h, DESIGN.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sc_int.h"

void sc__due(sc_gpu_t *g, sc_due_t reason, const sc_sm_t *sm, const sc_warp_t *w, int lane, uint32_t pc,
             uint64_t addr, const char *fmt, ...)
{
	if (g->run.halt)
		return;
	g->run.halt = true;
	sc_status_t *s = &g->status;
	memset(s, 0, sizeof *s);
	s->reason = reason;
	s->cycle = g->cycle;
	s->sm = sm ? (int32_t)sm->id : -1;
	s->warp = w ? (int32_t)w->slot : -1;
	s->lane = lane;
	s->pc = pc;
	s->addr = addr;
	if (g->run.mod && pc < g->run.mod->ncode && (sm || w))
		s->line = g->run.mod->line[pc];
	if (g->run.fn)
		snprintf(s->kernel, sizeof s->kernel, "%s", g->run.fn->name);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->detail, sizeof s->detail, fmt, ap);
	va_end(ap);
}

void sc__due_insn(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, const sc_insn_t *in,
                  const char *fmt)
{
	char text[128];
	sc__disasm(g->run.mod, in, text, sizeof text);
	sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, fmt, pc, text);
}

/* The decoded form of the warp's next instruction: the launch's, or that
 * of the word a faulty instruction buffer holds (decoded into *redo); NULL
 * when there is none (an empty stack, a pc outside the code, a word that
 * does not decode, an entry whose valid bit a fault cleared). */
/* next_dec's cold path: the instruction buffer holds a word a fault may
 * have changed, checked and decoded into *redo (NULL: it does not decode,
 * or its valid bit was cleared: the issue finds that out without waiting
 * for operands, and applies cfg.ibuffer_invalid). */
static __attribute__((noinline, cold)) const sc_dec_t *next_dec_faulty(const sc_gpu_t *g, const sc_warp_t *w,
                                                                       uint32_t pc, sc_dec_t *redo)
{
	uint8_t v = w->ib_pc == pc ? w->ib[0].valid : 0;
	if (v == SC_IB_HELD)
		return NULL;
	const sc_insn_t *in = v & SC_IB_VALID          ? &w->ib[0].insn
	                      : pc < g->run.mod->ncode ? &g->run.mod->code[pc]
	                                               : NULL;
	if (!in || sc__insn_check(in, g->run.regs, g->run.preds, g->run.mod->npool, g->run.mod->ncode))
		return NULL;
	sc__decode(g, in, pc, true, redo);
	return redo;
}

/* next_dec when the warp's next pc is known to be pc. */
static inline __attribute__((always_inline)) const sc_dec_t *next_dec_at(const sc_gpu_t *g, const sc_warp_t *w,
                                                                           uint32_t pc, sc_dec_t *redo)
{
	if (UNLIKELY(w->ib_dirty))
		return next_dec_faulty(g, w, pc, redo);
	return pc < g->run.mod->ncode ? &g->dec[pc] : NULL;
}

static inline __attribute__((always_inline)) const sc_dec_t *next_dec(const sc_gpu_t *g, const sc_warp_t *w,
                                                                        sc_dec_t *redo)
{
	if (UNLIKELY(w->sp == 0))
		return NULL;
	return next_dec_at(g, w, w->stk[w->sp - 1].pc, redo);
}

/* The index in sm->ufree of unit fu of the scheduler that issues warp
 * `slot` (slot % schedulers_per_sm): what the unit check reads. */
static inline uint8_t unit_of(const sc_gpu_t *g, const sc_sm_t *sm, uint32_t slot, sc_fu_t fu)
{
	uint32_t ns = g->cfg.schedulers_per_sm;
	return sm->uslot[ns == 2 ? slot & 1 : slot % ns][fu];
}

/* Earliest cycle the warp's next instruction has its operands ready (its
 * scoreboard entries), and the unit it will need in sm->nunit (the ALU
 * for a word that does not decode, whose issue raises the DUE, and for an
 * entry whose valid bit a fault cleared). */
static inline __attribute__((always_inline)) uint64_t ready_of(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w,
                                                                const sc_dec_t *d, uint64_t now)
{
	uint64_t t = now + 1;
	sm->nunit[w->slot] = unit_of(g, sm, w->slot, d ? d->fu : SC_FU_ALU);
	if (!d)
		return t;
	for (unsigned j = 0; j < d->nrdy; j++) {
		uint64_t r = w->ready[d->rdy[j]];
		t = r > t ? r : t;
	}
	return t;
}

static inline __attribute__((always_inline)) uint64_t ready_time(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w,
                                                                  uint64_t now)
{
	sc_dec_t redo;
	return ready_of(g, sm, w, next_dec(g, w, &redo), now);
}

void sc__sm_refresh_units(const sc_gpu_t *g, sc_sm_t *sm)
{
	for (uint32_t i = 0; i < g->run.ctas_per_sm * g->run.nwarps; i++) {
		sc_dec_t redo;
		const sc_dec_t *d = next_dec(g, &sm->warps[i], &redo);
		sm->nunit[i] = unit_of(g, sm, i, d ? d->fu : SC_FU_ALU);
	}
}

/* ------------------------------------------------------------ SIMT stack */
static bool simt_pop(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc)
{
	while (w->sp > 0) {
		sc_simt_t *t = &w->stk[w->sp - 1];
		if (t->mask != 0 && t->pc != t->rpc)
			return true;
		w->sp--;
	}
	if (w->live) {
		sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, pc, 0, "SIMT stack emptied with live threads 0x%08x", w->live);
		return false;
	}
	return true;
}

static void cta_finish_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now);
static void bar_check(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, unsigned id, uint64_t now);
static void bar_deadlock_check(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, uint32_t pc);

static void warp_exit(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t lanes, uint32_t pc, uint64_t now)
{
	w->live &= ~lanes;
	for (uint32_t i = 0; i < w->sp; i++)
		w->stk[i].mask &= ~lanes;
	if (!w->live) {
		w->sp = 0;
		cta_finish_warp(g, sm, w, now);
		return;
	}
	simt_pop(g, sm, w, pc);
}

/* ------------------------------------------------------------ barriers */
static void bar_release(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, unsigned id, uint64_t now)
{
	sc_bar_t *b = &cta->bar[id];
	uint32_t first = cta->slot * g->run.nwarps;
	for (uint32_t i = 0; i < cta->nwarps; i++) {
		sc_warp_t *w = &sm->warps[first + i];
		if (w->state != SC_W_BAR || w->bar_id != id)
			continue;
		if (w->bar_kind >= SC_BAR_RED_POPC && w->bar_kind <= SC_BAR_RED_OR) {
			uint64_t v[32];
			uint64_t val = w->bar_kind == SC_BAR_RED_POPC ? b->popc : w->bar_kind == SC_BAR_RED_AND ? b->all : b->any;
			for (int l = 0; l < 32; l++)
				v[l] = val;
			sc__wr(w, w->bar_dst, w->bar_mask, v);
			if (UNLIKELY(sm->nerr))
				sc__prot_wrote_reg(sm, w, w->bar_dst, w->bar_mask);
			if (UNLIKELY(sm->sharp))
				sc__sharp_wrote_reg(g, sm, w, w->bar_dst, w->bar_mask);
		}
		w->state = SC_W_ACTIVE;
		/* on from the next cycle, when its next instruction's operands
		 * are ready too (ready_time also notes its unit) */
		sc__wake(g, sm, w->slot, ready_time(g, sm, w, now));
	}
	memset(b, 0, sizeof *b);
	b->all = true;
	uint64_t wake = sc__issue_edge(g, now + 1);
	if (*sm->next > wake)
		*sm->next = wake;
}

static void bar_check(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, unsigned id, uint64_t now)
{
	sc_bar_t *b = &cta->bar[id];
	uint32_t live = cta->nwarps - cta->done;
	uint32_t need = b->expected ? b->expected : live;
	if (b->arrived > 0 && b->arrived >= need)
		bar_release(g, sm, cta, id, now);
}

static void bar_deadlock_check(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, uint32_t pc)
{
	uint32_t first = cta->slot * g->run.nwarps, waiting = 0;
	for (uint32_t i = 0; i < cta->nwarps; i++) {
		const sc_warp_t *w = &sm->warps[first + i];
		if (w->state == SC_W_ACTIVE)
			return;
		waiting += w->state == SC_W_BAR;
	}
	if (waiting)
		sc__due(g, SC_DUE_BARRIER_DEADLOCK, sm, &sm->warps[first], -1, pc, 0,
		        "%u warps of CTA (%u,%u,%u) wait at barriers that cannot complete", waiting, cta->ctaid[0],
		        cta->ctaid[1], cta->ctaid[2]);
}

static void ex_bar(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                   uint64_t now)
{
	unsigned kind = in->sub;
	if (kind == SC_BAR_WARP_SYNC)
		return;
	uint64_t v[32], cnt[32], pr[32];
	sc_opnd_t ido = kind >= SC_BAR_RED_POPC ? sc__opnd(in, 1) : sc__opnd(in, 0);
	sc_opnd_t cnto = kind >= SC_BAR_RED_POPC ? sc__opnd(in, 2) : (SC_NSRC(in) > 1 ? sc__opnd(in, 1) : 0);
	if (UNLIKELY(kind > SC_BAR_RED_OR)) {
		sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "malformed bar");
		return;
	}
	uint32_t lane = exec ? (uint32_t)__builtin_ctz(exec) : 0;
	sc__rd(g, sm, w, ido, exec, v);
	uint32_t id = (uint32_t)v[lane];
	uint32_t count = 0;
	if (SC_OPND_KIND(cnto) != SC_K_NONE) {
		sc__rd(g, sm, w, cnto, exec, cnt);
		count = (uint32_t)cnt[lane];
	}
	sc_cta_t *cta = w->cta;
	if (id >= 16 || (count && (count % 32 || count > cta->nwarps * 32 + 31))) {
		sc__due(g, SC_DUE_BARRIER_DEADLOCK, sm, w, (int)lane, pc, id, "bar %u with count %u cannot complete", id, count);
		return;
	}
	sc_bar_t *b = &cta->bar[id];
	if (b->arrived == 0) {
		b->all = true;
		b->any = false;
		b->popc = 0;
		b->expected = count ? (count + 31) / 32 : 0;
	}
	b->arrived++;
	if (kind >= SC_BAR_RED_POPC) {
		sc__rd(g, sm, w, sc__opnd(in, 3), exec, pr);
		uint32_t bits = 0;
		FOR_LANES(l, exec)
			bits |= (uint32_t)(pr[l] & 1) << l;
		b->popc += (uint32_t)__builtin_popcount(bits);
		b->all = b->all && bits == exec;
		b->any = b->any || bits != 0;
		w->bar_dst = sc__opnd(in, 0);
		w->bar_mask = exec;
	}
	if (kind != SC_BAR_ARRIVE) {
		w->state = SC_W_BAR;
		sc__set_wnext(sm, w->slot, UINT64_MAX);
		w->bar_id = (uint8_t)id;
		w->bar_kind = (uint8_t)kind;
	}
	bar_check(g, sm, cta, id, now);
	if (w->state == SC_W_BAR)
		bar_deadlock_check(g, sm, cta, pc);
}

static void cta_finish_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now)
{
	if (UNLIKELY(sm->sawp)) /* its buffered words leave with it */
		sc__sawp_flush(g, sm, w);
	if (UNLIKELY(sm->sharp)) /* its window closes */
		sc__sharp_exit(g, sm, w, now);
	w->state = SC_W_DONE;
	sc__set_wnext(sm, w->slot, UINT64_MAX);
	sc_cta_t *cta = w->cta;
	cta->done++;
	if (cta->done == cta->nwarps) {
		if (UNLIKELY(sm->sharp))
			sc__sharp_cta(g, sm, cta, false, now);
		cta->used = false;
		sm->nctas--;
		g->run.done_ctas++;
		return;
	}
	/* exited warps no longer hold back barriers that wait for every warp */
	for (unsigned id = 0; id < 16; id++)
		if (cta->bar[id].arrived && !cta->bar[id].expected)
			bar_check(g, sm, cta, id, now);
	bar_deadlock_check(g, sm, cta, 0);
}

/* ------------------------------------------------------------ control flow */
/* bra: every lane or none takes it, or the warp diverges. Paths that
 * reconverge where the top entry does (or nowhere) reuse it, and a path
 * that starts at the reconvergence point needs no entry: its lanes wait in
 * the entry that resumes there. So a loop whose lanes leave one by one
 * holds one entry, not one per divergent iteration. */
static int x_bra(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t pc = d->pc, target = SC_BR_TARGET(in->imm), rpc = SC_BR_RPC(in->imm);
	uint32_t taken = exec, nt = top->mask & ~exec;
	if (!taken)
		return 1;
	if (!nt) {
		top->pc = target;
		return SC_X_JUMP;
	}
	uint32_t reff = rpc == SC_PC_NONE ? top->rpc : rpc;
	bool reuse = reff == top->rpc;
	sc_simt_t path[2];
	uint32_t np = 0;
	if (rpc == SC_PC_NONE || target != rpc)
		path[np++] = (sc_simt_t){target, reff, taken};
	if (rpc == SC_PC_NONE || pc + 1 != rpc)
		path[np++] = (sc_simt_t){pc + 1, reff, nt};
	uint32_t need = reuse ? (np ? np - 1 : 0) : np;
	if (UNLIKELY(w->sp + need > g->cfg.simt_stack_depth)) {
		sc__due(g, SC_DUE_SIMT_OVERFLOW, sm, w, -1, pc, 0, "divergence deeper than %u SIMT entries",
		        g->cfg.simt_stack_depth);
		return SC_X_HALT;
	}
	if (!reuse)
		top->pc = rpc;
	else if (np)
		*top = path[0];
	else
		top->pc = reff; /* every lane is at the reconvergence point */
	for (uint32_t k = reuse ? 1 : 0; k < np; k++)
		w->stk[w->sp++] = path[k];
	return simt_pop(g, sm, w, pc) ? SC_X_DIVERGE : SC_X_HALT;
}

static int x_call_ret(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t pc = d->pc;
	if (!exec)
		return 1;
	if (d->in->op == SC_OP_CALL) {
		if (UNLIKELY(d->in->sub == SC_CALL_DYN))
			return sc__x_dcall(g, sm, w, d, exec);
		if (UNLIKELY(w->ncalls >= g->run.call_depth)) {
			sc__due(g, SC_DUE_SIMT_OVERFLOW, sm, w, -1, pc, 0, "call stack deeper than %u",
			        g->run.call_depth);
			return SC_X_HALT;
		}
		w->calls[w->ncalls++] = pc + 1;
		top->pc = SC_BR_TARGET(d->in->imm);
		return SC_X_JUMP;
	}
	if (UNLIKELY(w->ncalls == 0)) {
		sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, pc, 0, "ret with an empty call stack");
		return SC_X_HALT;
	}
	if (UNLIKELY(g->run.mod->ndcalls) && sc__dret_at(g->run.mod, w))
		return sc__x_dret(g, sm, w, d, exec);
	top->pc = w->calls[--w->ncalls];
	return SC_X_JUMP;
}

static inline __attribute__((always_inline)) bool step_past(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, sc_simt_t *top,
                                                             uint32_t pc);

/* nanosleep.u32 t: the warp goes on at pc + 1, as after any instruction
 * that retires in sequence (step_past), after t ns of simulated time (the
 * longest of its lanes' t; PTX caps it at 1 ms): its next issue is set here
 * (wnext, in the state hash), so issue() does not reschedule it. */
static int x_nanosleep(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (UNLIKELY(!sc__ext_valid(d->in)))
		return SC_X_BAD;
	if (!exec)
		return 1;
	uint64_t *t = g->alu.a;
	uint32_t ns = 0;
	sc__rd(g, sm, w, sc__opnd(d->in, 0), exec, t);
	FOR_LANES(l, exec)
		ns = (uint32_t)t[l] > ns ? (uint32_t)t[l] : ns;
	ns = ns < 1000000u ? ns : 1000000u;
	if (!step_past(g, sm, w, &w->stk[w->sp - 1], d->pc))
		return SC_X_HALT;
	sc__warp_wait(g, sm, w, g->cycle + sc__sleep_cycles(g, ns));
	return SC_X_HALT;
}

/* exit, trap, bar, membar, nop, nanosleep. g->cycle is the cycle being issued. */
int sc__x_ctl(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t pc = d->pc;
	switch (in->op) {
	case SC_OP_BRA: return x_bra(g, sm, w, d, exec);
	case SC_OP_CALL: case SC_OP_RET: return x_call_ret(g, sm, w, d, exec);
	case SC_OP_EXIT:
		if (!exec)
			return 1;
		top->pc = pc + 1;
		warp_exit(g, sm, w, exec, pc, g->cycle);
		return g->run.halt || w->state == SC_W_DONE ? SC_X_HALT : SC_X_EXIT;
	case SC_OP_TRAP:
		if (!exec)
			return 1;
		if (in->sub == SC_TRAP_DUP)
			sc__due(g, SC_DUE_DUP_MISMATCH, sm, w, -1, pc, 0, "datapath duplication: a check found an original "
			        "and its replica different");
		else
			sc__due(g, SC_DUE_TRAP, sm, w, -1, pc, 0, "trap executed");
		return SC_X_HALT;
	case SC_OP_BAR:
		if (!exec)
			return 1;
		top->pc = pc + 1;
		if (UNLIKELY(top->pc == top->rpc) && !simt_pop(g, sm, w, pc))
			return SC_X_HALT;
		ex_bar(g, sm, w, in, exec, pc, g->cycle);
		return g->run.halt ? SC_X_HALT : SC_X_BAR;
	case SC_OP_MEMBAR: case SC_OP_NOP:
		return 1;
	case SC_OP_NANOSLEEP:
		return x_nanosleep(g, sm, w, d, exec);
	}
	return SC_X_BAD;
}

/* ------------------------------------------------------------ issue */
static const sc_insn_t *ib_cleared(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc);

/* The instruction buffer: ib[k] holds pc ib_pc + k. Returns the word to
 * issue, or NULL when the warp does not issue now: after raising the DUE
 * of a pc outside the program, or when the entry's valid bit was cleared
 * by a fault (ib_cleared). An entry not filled yet is filled at no cost
 * (after a control transfer reschedule has charged the refetch). */
static inline __attribute__((always_inline)) const sc_insn_t *fetch(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w,
                                                                      uint32_t pc, bool hooks)
{
	const sc_module_t *mod = g->run.mod;
	if (UNLIKELY(w->ib_pc != pc)) {
		if (hooks && UNLIKELY(sm->sawp))
			sc__sawp_flush(g, sm, w);
		for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
			w->ib[k].valid = 0;
		w->ib_pc = pc;
	}
	sc_ibent_t *e = &w->ib[0];
	if (!(e->valid & SC_IB_VALID)) {
		if (UNLIKELY(e->valid))
			return ib_cleared(g, sm, w, pc);
		if (UNLIKELY(pc >= mod->ncode)) {
			if (hooks && UNLIKELY(g->watch.on) && w->slot == g->watch.slot && sm->id == g->watch.sm)
				sc__watch_issue(g, w, NULL, 0, pc); /* a corrupted SIMT pc is read here */
			sc__due(g, SC_DUE_INVALID_PC, sm, w, -1, pc, 0, "pc %u is outside the program (%u instructions)", pc,
			        mod->ncode);
			return NULL;
		}
		e->insn = mod->code[pc];
		e->valid = SC_IB_VALID | SC_IB_HELD;
		if (hooks && UNLIKELY(sm->sawp))
			sc__sawp_fill(g, sm, w, 0);
	}
	return &e->insn;
}

/* Sequential issue: shift the buffer and prefetch the next word (hooks:
 * as for issue_body). */
static inline __attribute__((always_inline)) void ib_advance(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc,
                                                              bool hooks)
{
	const sc_module_t *mod = g->run.mod;
	uint32_t n = g->cfg.ib_entries;
	if (hooks && UNLIKELY(sm->sawp))
		sc__sawp_shift(g, sm, w);
	if (n == 2)
		w->ib[0] = w->ib[1];
	else
		for (uint32_t k = 0; k + 1 < n; k++)
			w->ib[k] = w->ib[k + 1];
	w->ib_pc = pc + 1;
	uint32_t last = pc + n;
	if (last < mod->ncode) {
		w->ib[n - 1].insn = mod->code[last];
		w->ib[n - 1].valid = SC_IB_VALID | SC_IB_HELD;
		if (hooks && UNLIKELY(sm->sawp))
			sc__sawp_fill(g, sm, w, n - 1);
	} else {
		w->ib[n - 1].valid = 0;
	}
}

/* After an issue: flush the buffer when control left the fetched sequence
 * (so that what it holds is exactly what will issue), and schedule the
 * warp's next issue. Inlined: issue() is its hot caller. */
static inline __attribute__((always_inline)) void reschedule(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc,
                                                              bool transfer, uint64_t now)
{
	if (w->sp && w->stk[w->sp - 1].pc != w->ib_pc) {
		if (UNLIKELY(sm->sawp))
			sc__sawp_flush(g, sm, w);
		for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
			w->ib[k].valid = 0;
		w->ib_pc = w->stk[w->sp - 1].pc;
	}
	if (w->state == SC_W_ACTIVE) {
		uint64_t t = ready_time(g, sm, w, now);
		if (transfer || (w->sp && w->stk[w->sp - 1].pc != pc + 1))
			t = t > now + g->cfg.latency[SC_LAT_BRANCH] ? t : now + g->cfg.latency[SC_LAT_BRANCH];
		sc__set_wnext(sm, w->slot, t);
	}
}

/* The warp goes on at pc + 1 (top: its stack's top entry), as after an
 * instruction that retires in sequence: the stack pops what reconverges
 * there and the buffer shifts when that is where the warp goes. false
 * after a DUE. */
static inline __attribute__((always_inline)) bool step_past(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, sc_simt_t *top,
                                                             uint32_t pc)
{
	top->pc = pc + 1;
	if (UNLIKELY(top->pc == top->rpc) && !simt_pop(g, sm, w, pc))
		return false;
	if (w->sp && w->stk[w->sp - 1].pc == pc + 1)
		ib_advance(g, sm, w, pc, true);
	return true;
}

/* The issue of warp w found its entry for pc holding the word but with the
 * valid bit a fault cleared (SC_IB_HELD alone); cfg.ibuffer_invalid says
 * what the hardware does (DESIGN.md, "Instruction buffer"). The warp does
 * not issue now: refetch fills the entry again and reschedules the warp as
 * after a control transfer (latency.branch, the refetch's cost); skip
 * consumes the entry as a bubble, the warp going on at pc + 1 without
 * executing the instruction (a branch, a barrier or an exit included);
 * stall models a warp that waits forever for a refill that never comes,
 * which a watchdog would report: the DUE is raised now. Returns NULL. */
static __attribute__((noinline, cold)) const sc_insn_t *ib_cleared(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w,
                                                                     uint32_t pc)
{
	bool refetch = g->cfg.ibuffer_invalid == SC_IBINV_REFETCH;
	if (refetch) {
		w->ib[0].insn = g->run.mod->code[pc];
		w->ib[0].valid = SC_IB_VALID | SC_IB_HELD;
		if (UNLIKELY(sm->sawp)) { /* the refetched word replaces the held one */
			sc__sawp_leave(g, sm, w, 0);
			sc__sawp_fill(g, sm, w, 0);
		}
	} else if (g->cfg.ibuffer_invalid == SC_IBINV_STALL) {
		sc__due(g, SC_DUE_IBUFFER_STALL, sm, w, -1, pc, 0,
		        "the instruction-buffer entry of pc %u lost its valid bit: the warp stalls (ibuffer_invalid stall)", pc);
		return NULL;
	} else if (!step_past(g, sm, w, &w->stk[w->sp - 1], pc)) {
		return NULL;
	}
	reschedule(g, sm, w, pc, refetch, g->cycle);
	return NULL;
}

/* The decoded form of the word a faulty instruction buffer holds: checked
 * and decoded again into *redo; NULL after the DUE of a word that does not
 * decode. */
static const sc_dec_t *redecode(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, const sc_insn_t *in,
                                sc_dec_t *redo)
{
	const sc_run_t *r = &g->run;
	if (sc__insn_check(in, r->regs, r->preds, r->mod->npool, r->mod->ncode)) {
		sc__due_insn(g, sm, w, pc, in, "the instruction word at pc %u does not decode: %s");
		return NULL;
	}
	sc__decode(g, in, pc, false, redo);
	return redo;
}

/* Retires an instruction whose handler returned an SC_X_* code: 1 when
 * control was transferred, 0 when not, -1 when the warp is not to be
 * rescheduled (halted, done, or a word that does not execute). */
static int retire_special(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                          int rc, uint64_t now)
{
	sc_simt_t *top = &w->stk[w->sp - 1];
	switch (rc) {
	case SC_X_JUMP:
		if (UNLIKELY(g->after)) /* a fault acts on the results: FU, stuck bit */
			sc__after_issue(g, sm, w, in, exec, pc, now);
		return UNLIKELY(top->pc == top->rpc) && !simt_pop(g, sm, w, pc) ? -1 : 1;
	case SC_X_DIVERGE:
		return 1;
	case SC_X_EXIT: /* a barrier it completes may write reduction results */
		if (UNLIKELY(g->stuck.on))
			sc__stuck_apply(g, sm, now);
		return 0;
	case SC_X_BAR:
		if (UNLIKELY(g->stuck.on))
			sc__stuck_apply(g, sm, now);
		if (w->sp && w->stk[w->sp - 1].pc == pc + 1)
			ib_advance(g, sm, w, pc, true);
		return 0;
	case SC_X_HALT:
		return -1;
	}
	sc__due_insn(g, sm, w, pc, in, "the instruction at pc %u has operands that do not decode: %s");
	return -1;
}

/* The functional units: the issuing scheduler's issue slot and the unit
 * its instruction runs on are busy for the class's interval (a memory
 * access: as many intervals as it has transactions or bank passes; double
 * precision on dp_solo GPUs takes every scheduler's slot). */
static void occupy(sc_gpu_t *g, sc_sm_t *sm, const sc_dec_t *d, uint32_t s, uint64_t now)
{
	const sc_gpu_config_t *c = &g->cfg;
	uint32_t busy = d->fu == SC_FU_LDST ? g->ms.occ : c->interval[d->cls];
	sm->ufree[sm->uslot[s][d->fu]] = now + busy;
	g->run.unit_busy[d->fu] += busy;
	sm->sfree[s] = now + c->issue_cycles;
	if (d->fu == SC_FU_DP && c->dp_solo)
		for (uint32_t k = 0; k < c->schedulers_per_sm; k++)
			sm->sfree[k] = now + c->issue_cycles;
}

/* The first cycle the unit of the next instruction of warp `slot` is free
 * (sm->nunit, kept by ready_time). */
static uint64_t unit_free(const sc_sm_t *sm, uint32_t slot) { return sm->ufree[sm->nunit[slot]]; }

/* The parity check of the word w issues for pc (sc__ib_check), the
 * buffer having met a fault: whether the word issues now. A word an ECC
 * restored issues again reissue_penalty cycles on (at the earliest: its
 * operands may be later). */
static __attribute__((noinline, cold)) bool ib_parity_ok(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc,
                                                          uint64_t now)
{
	int c = sc__ib_check(g, sm, w, pc);
	if (c == SC_IBC_RESTORED) {
		uint64_t t = ready_time(g, sm, w, now), again = now + g->prot.ib.reissue_penalty;
		sc__set_wnext(sm, w->slot, t > again ? t : again);
	}
	return c == SC_IBC_ISSUE;
}

void sc__warp_wait(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t t)
{
	uint64_t r = ready_time(g, sm, w, g->cycle);
	sc__set_wnext(sm, w->slot, r > t ? r : t);
}

/* What the schemes and the similarity profile do before an instruction
 * issues, in this order, behind one test of sm->pre_issue: -1 when the
 * warp goes on to issue, else what issue() returns (false: REFU or SHARP
 * holds the warp back, the scheduler picks another). */
static __attribute__((noinline)) int pre_issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in,
                                               uint32_t pc, uint64_t now)
{
	if (g->ibsim && sm->ibsim_at != now)
		sc__ib_sample(g, sm, now);
	if (sm->refu && !sc__refu_issue(g, sm, w, in, now))
		return false; /* REFU: its buffer is full, or a replay holds the sub-unit */
	if (w->ib_dirty && g->prot.ib.scheme != SC_IB_NONE && !ib_parity_ok(g, sm, w, pc, now))
		return true;
	if (sm->sharp && sm->sharp->state[w->slot] && !sc__sharp_issue(g, sm, w, pc, now))
		return g->run.halt; /* a window closed: the warp waits for its check */
	if (sm->penny && sc__penny_boundary(sm, pc)) /* a region starts: its checkpoint */
		sc__penny_snap(g, sm, w, pc);
	return -1;
}

/* Fetch, guard, execute (the decoded handler), retire. Returns false
 * when SHARP's check holds the warp back (the scheduler picks another).
 * hooks false: no scheme, watch or fault acts around the issue (see
 * sm_hooks), and the tests for them are left out; it is a constant in
 * each of the two functions built from this one. */
static inline __attribute__((always_inline)) bool issue_body(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t s,
                                                              uint64_t now, const bool hooks)
{
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t pc = top->pc;
	const sc_insn_t *in = fetch(g, sm, w, pc, hooks);
	if (!in)
		return true;
	if (hooks && UNLIKELY(sm->pre_issue)) {
		int k = pre_issue(g, sm, w, in, pc, now);
		if (k >= 0)
			return k;
	}
	if (hooks && UNLIKELY(g->watch.on) && w->slot == g->watch.slot && sm->id == g->watch.sm)
		sc__watch_issue(g, w, in, top->mask, pc);
	sc_dec_t redo;
	const sc_dec_t *d = LIKELY(!w->ib_dirty) ? &g->dec[pc] : redecode(g, sm, w, pc, in, &redo);
	if (!d)
		return true;
	uint32_t exec = top->mask;
	if (in->guard & SC_GUARD_ON) {
		uint32_t pm = w->pf[SC_GUARD_REG(in->guard)];
		exec &= (in->guard & SC_GUARD_NEG) ? ~pm : pm;
	}
	if (hooks && UNLIKELY(sm->nerr) && !sc__prot_read(g, sm, w, in, &exec, top->mask, pc))
		return true; /* a protected word's error detected (a DUE, or Penny's rollback) */
	g->run.warp_insts++;
	if (hooks && UNLIKELY(sm->sawp)) /* the progress check's count */
		sm->sawp->nexec[w->slot]++;
	g->run.thread_insts += top->mask == 0xffffffffu ? 32 : sc__popcount32(top->mask);

	int rc = d->fn(g, sm, w, d, exec), transfer = 0;
	if (hooks && UNLIKELY(sm->nerr))
		sc__prot_written(sm, w, in, exec);
	if (hooks && UNLIKELY(sm->sharp) && sm->sharp->state[w->slot] == SC_SHARP_OPEN)
		sc__sharp_written(g, sm, w, in, exec);
	occupy(g, sm, d, s, now);
	if (LIKELY(rc >= 0)) {
		if (hooks && UNLIKELY(g->after)) /* a fault acts on the results (FU, stuck bit); REFU */
			sc__after_issue(g, sm, w, in, exec, pc, now);
		/* scoreboard: destinations become readable after the latency */
		if (rc > 1)
			for (unsigned j = 0; j < d->nwr; j++)
				w->ready[d->rdy[j]] = now + (uint32_t)rc;
		top->pc = pc + 1;
		if (LIKELY(top->pc != top->rpc) && LIKELY(top == &w->stk[w->sp - 1])) {
			/* in sequence, nothing reconverges: step_past and
			 * reschedule as they go for this case (the buffer
			 * shifts to pc + 1, no transfer; top is the stack's
			 * top, so the next pc is pc + 1) */
			ib_advance(g, sm, w, pc, hooks);
			if (w->state == SC_W_ACTIVE) {
				sc_dec_t redo;
				sc__set_wnext(sm, w->slot, ready_of(g, sm, w, next_dec_at(g, w, pc + 1, &redo), now));
			}
			return true;
		}
		if (!step_past(g, sm, w, top, pc))
			return true;
	} else if ((transfer = retire_special(g, sm, w, in, exec, pc, rc, now)) < 0) {
		return true;
	}
	reschedule(g, sm, w, pc, transfer, now);
	return true;
}

/* Inlined into the SM cycle on the wheel, its hot caller: the call's
 * saved registers and arguments cost once a visit instead of once an
 * issue. */
static inline __attribute__((always_inline)) bool issue_plain(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t s,
                                                               uint64_t now)
{
	return issue_body(g, sm, w, s, now, false);
}

static __attribute__((noinline)) bool issue_plain_call(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t s,
                                                        uint64_t now)
{
	return issue_plain(g, sm, w, s, now);
}

static __attribute__((noinline)) bool issue_hooked(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t s, uint64_t now)
{
	return issue_body(g, sm, w, s, now, true);
}

/* Whether a scheme, the watch or a fault acts around this SM visit's
 * issues: the SM's schemes are fixed when the GPU is made (sm->hooks), the
 * watch and the faults acting after an issue are armed between cycles (by
 * the launch's pause callback). */
static inline bool sm_hooks(const sc_gpu_t *g, const sc_sm_t *sm) { return sm->hooks | g->watch.on | g->after; }

/* issue() for this visit: issue_plain when nothing hooks in (inline
 * when `inl`, a constant). */
static inline __attribute__((always_inline)) bool issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t s,
                                                         uint64_t now, bool hooks, const bool inl)
{
	if (hooks)
		return issue_hooked(g, sm, w, s, now);
	return inl ? issue_plain(g, sm, w, s, now) : issue_plain_call(g, sm, w, s, now);
}

/* ------------------------------------------------------------ CTAs and cycles */
void sc__cta_start(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, uint64_t linear, uint64_t now)
{
	sc_run_t *r = &g->run;
	cta->used = true;
	cta->ctaid[0] = (uint32_t)(linear % r->grid[0]);
	cta->ctaid[1] = (uint32_t)((linear / r->grid[0]) % r->grid[1]);
	cta->ctaid[2] = (uint32_t)(linear / ((uint64_t)r->grid[0] * r->grid[1]));
	cta->nwarps = r->nwarps;
	cta->nthreads = r->nthreads;
	cta->done = 0;
	cta->smem_off = cta->slot * r->smem;
	cta->local = sm->local_mem + (size_t)cta->slot * r->nwarps * 32 * r->local;
	memset(cta->bar, 0, sizeof cta->bar);
	/* A CTA's registers, predicates, shared and local memory start at zero,
	 * as fresh threads do in GPGPU-Sim: nothing left by an earlier CTA can
	 * reach this one, which keeps the state hash (fault.c) exact. */
	uint32_t first = cta->slot * r->nwarps;
	if (UNLIKELY(g->watch.on))
		sc__watch_cta(g, sm, cta);
	memset(sm->rf + (size_t)first * r->regs * 32, 0, (size_t)r->nwarps * r->regs * 32 * sizeof *sm->rf);
	memset(sm->pf + (size_t)first * r->preds, 0, (size_t)r->nwarps * r->preds * sizeof *sm->pf);
	memset(sm->smem + cta->smem_off, 0, r->smem);
	memset(cta->local, 0, (size_t)r->nwarps * 32 * r->local);
	if (UNLIKELY(sm->nerr))
		sc__prot_cta(g, sm, cta);
	if (UNLIKELY(sm->sharp))
		sc__sharp_cta(g, sm, cta, true, now);
	if (UNLIKELY(sm->penny)) /* its warps start with no snapshot */
		sc__penny_cta(sm, cta, r->nwarps);
	if (UNLIKELY(g->stuck.on)) /* the clearing wrote the stuck bit too */
		sc__stuck_apply(g, sm, now);
	uint32_t per = r->regs + r->preds;
	for (uint32_t i = 0; i < r->nwarps; i++) {
		uint32_t slot = cta->slot * r->nwarps + i;
		sc_warp_t *w = &sm->warps[slot];
		uint32_t nthr = r->nthreads - i * 32 < 32 ? r->nthreads - i * 32 : 32;
		uint32_t live = nthr == 32 ? 0xffffffffu : (1u << nthr) - 1;
		w->state = SC_W_ACTIVE;
		w->ib_dirty = false;
		if (UNLIKELY(sm->sawp))
			sm->sawp->nexec[slot] = 0;
		w->slot = slot;
		w->wid = i;
		w->live = live;
		w->cc = 0;
		w->sp = 1;
		w->stk[0] = (sc_simt_t){r->fn->entry_pc, SC_PC_NONE, live};
		w->ncalls = 0;
		w->csp = 0;
		w->calls = sm->call_mem + (size_t)slot * (r->call_depth + 1);
		w->ib_pc = UINT32_MAX;
		w->rf = sm->rf + (size_t)slot * r->regs * 32;
		w->pf = sm->pf + (size_t)slot * r->preds;
		w->ready = sm->ready_mem + (size_t)slot * per;
		memset(w->ready, 0, per * sizeof *w->ready);
		sm->nunit[slot] = unit_of(g, sm, slot, r->fn->entry_pc < r->mod->ncode ? g->dec[r->fn->entry_pc].fu : SC_FU_ALU);
		sc__wake(g, sm, slot, now + 1);
		w->age = r->age++;
		w->local = cta->local + (size_t)i * 32 * r->local;
		w->cta = cta;
	}
	sm->nctas++;
	uint64_t wake = sc__issue_edge(g, now + 1);
	if (*sm->next > wake)
		*sm->next = wake;
}

/* Whether warp `slot`, ready by its operands, may issue now: when the
 * unit of its next instruction is busy it waits for it instead. */
static inline bool unit_ready(sc_sm_t *sm, uint32_t slot, uint64_t now)
{
	uint64_t t = unit_free(sm, slot);
	if (t <= now)
		return true;
	sc__set_wnext(sm, slot, t);
	return false;
}

/* The warp scheduler s issues now: LRR, the first ready warp after the
 * last one it issued; GTO, the last one while it stays ready, else the
 * oldest ready. Ready: its operands and its unit are; a warp ready but for
 * its unit is set to wait for the unit. */
static sc_warp_t *pick(sc_gpu_t *g, sc_sm_t *sm, uint32_t s, uint32_t nslots, uint64_t now)
{
	uint32_t ns = g->cfg.schedulers_per_sm;
	const uint64_t *wn = sm->wnext;
	if (s >= nslots)
		return NULL;
	/* warps of this scheduler (a shift for the usual two schedulers) */
	uint32_t cnt = ns == 2 ? (nslots - s + 1) >> 1 : (nslots - s + ns - 1) / ns;
	if (g->cfg.scheduler == SC_SCHED_GTO) {
		uint32_t last = sm->last[s];
		if (last < nslots && wn[last] <= now && unit_ready(sm, last, now))
			return &sm->warps[last];
		sc_warp_t *best = NULL;
		for (uint32_t k = 0; k < cnt; k++) {
			uint32_t slot = s + k * ns;
			if (wn[slot] <= now && (!best || sm->warps[slot].age < best->age) && unit_ready(sm, slot, now))
				best = &sm->warps[slot];
		}
		if (best)
			sm->last[s] = best->slot;
		return best;
	}
	uint32_t x = sm->last[s] - s;
	uint32_t start = sm->last[s] < nslots ? (ns == 2 ? x >> 1 : x / ns) + 1 : 0;
	if (start >= cnt)
		start = 0;
	for (uint32_t k = start; k < cnt; k++)
		if (wn[s + k * ns] <= now && unit_ready(sm, s + k * ns, now)) {
			sm->last[s] = s + k * ns;
			return &sm->warps[s + k * ns];
		}
	for (uint32_t k = 0; k < start; k++)
		if (wn[s + k * ns] <= now && unit_ready(sm, s + k * ns, now)) {
			sm->last[s] = s + k * ns;
			return &sm->warps[s + k * ns];
		}
	return NULL;
}

/* Scheduler s's lower bound (smin) made exact: the earliest wnext of its
 * warps. */
static void sched_min(const sc_gpu_t *g, sc_sm_t *sm, uint32_t s, uint32_t nslots)
{
	uint32_t ns = g->cfg.schedulers_per_sm;
	const uint64_t *wn = sm->wnext;
	uint64_t m0 = UINT64_MAX, m1 = UINT64_MAX;
	uint32_t i = s;
	/* two running minima: half the dependent compares */
	for (; i + ns < nslots; i += 2 * ns) {
		m0 = wn[i] < m0 ? wn[i] : m0;
		m1 = wn[i + ns] < m1 ? wn[i + ns] : m1;
	}
	if (i < nslots)
		m0 = wn[i] < m0 ? wn[i] : m0;
	sm->smin[s] = m0 < m1 ? m0 : m1;
}

/* min(next, the cycle scheduler s may issue next): when its earliest warp
 * (m; UINT64_MAX for none, which no sfree exceeds) is ready and its issue
 * slot free. */
static inline uint64_t sched_next(const sc_sm_t *sm, uint32_t s, uint64_t m, uint64_t next)
{
	uint64_t t = sm->sfree[s] > m ? sm->sfree[s] : m;
	return t < next ? t : next;
}

/* The SM's next event: the issue edge at or after `next` (and after now). */
static inline void set_next(const sc_gpu_t *g, sc_sm_t *sm, uint64_t next, uint64_t now)
{
	*sm->next = next == UINT64_MAX ? next : sc__issue_edge(g, next > now ? next : now + 1);
}

/* x rotated right by r (0 to 63): one instruction where the host has it. */
static inline uint64_t rotr64(uint64_t x, uint32_t r) { return (x >> r) | (x << ((64 - r) & 63)); }

/* ---- the wheel (sc_wheel_t, sc_int.h): launches of at most 64 slots ---- */
/* Moves the wheel's time to now: the buckets passed empty into `ready`, and
 * the far slots come back once they may be near. */
static void wheel_advance(sc_wheel_t *wh, const uint64_t *wnext, uint64_t now)
{
	if (now <= wh->at)
		return;
	uint64_t d = now - wh->at;
	uint64_t due = wh->occ;
	if (d < 64) /* the buckets of at + 1 .. now: d bits from bucket (at + 1) % 64 on, around */
		due &= rotr64((1ull << d) - 1, (uint32_t)(-(wh->at + 1) & 63));
	wh->occ &= ~due;
	for (; due; due &= due - 1) {
		uint32_t b = (uint32_t)__builtin_ctzll(due);
		wh->ready |= wh->bucket[b];
		wh->bucket[b] = 0;
	}
	wh->at = now;
	if (wh->far && now + 64 >= wh->far_min) {
		uint64_t f = wh->far;
		wh->far = 0;
		wh->far_min = UINT64_MAX;
		for (; f; f &= f - 1) {
			uint32_t slot = (uint32_t)__builtin_ctzll(f);
			sc__wheel_put(wh, slot, wnext[slot]);
		}
	}
}

/* The SM's next issue cycle after a visit, as sched_next over every
 * scheduler's earliest warp would find it, in one pass over the wheel:
 * ready slots first, then the buckets in time order, then far. A
 * scheduler's earliest warp at T gives max(T, its sfree); the pass stops
 * once the cycle found is no later than the next bucket's (a later warp
 * cannot give an earlier cycle), and looks at far (later than at + 64)
 * only for the schedulers not found yet. UINT64_MAX for none. */
static uint64_t wheel_next(const sc_sm_t *sm, const sc_wheel_t *wh, uint32_t ns)
{
	uint64_t next = UINT64_MAX, at = wh->at;
	uint32_t todo = 0; /* schedulers whose earliest warp is not found yet */
	for (uint32_t s = 0; s < ns; s++) {
		if (wh->ready & wh->smask[s])
			next = sched_next(sm, s, at, next);
		else
			todo |= 1u << s;
	}
	uint32_t r = (uint32_t)((at + 1) & 63);
	for (uint64_t rot = rotr64(wh->occ, r); rot && todo; rot &= rot - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(rot);
		uint64_t when = at + 1 + i, b = wh->bucket[(r + i) & 63];
		if (next <= when)
			return next;
		for (uint32_t q = todo; q; q &= q - 1) {
			uint32_t s = (uint32_t)__builtin_ctz(q);
			if (b & wh->smask[s]) {
				next = sched_next(sm, s, when, next);
				todo &= ~(1u << s);
			}
		}
	}
	if (!todo || !wh->far || next <= at + 65)
		return next;
	for (; todo; todo &= todo - 1) {
		uint32_t s = (uint32_t)__builtin_ctz(todo);
		uint64_t m = UINT64_MAX;
		for (uint64_t f = wh->far & wh->smask[s]; f; f &= f - 1) {
			uint64_t t = sm->wnext[__builtin_ctzll(f)];
			m = t < m ? t : m;
		}
		next = sched_next(sm, s, m, next);
	}
	return next;
}

/* pick() on the wheel's ready slots: the same warp, by the same rules. */
static sc_warp_t *pick_ready(sc_gpu_t *g, sc_sm_t *sm, uint32_t s, uint32_t nslots, uint64_t now)
{
	sc_wheel_t *wh = sm->wh;
	uint64_t mask = wh->smask[s];
	uint32_t last = sm->last[s];
	if (g->cfg.scheduler == SC_SCHED_GTO) {
		if (last < nslots && (wh->ready >> last & 1) && unit_ready(sm, last, now))
			return &sm->warps[last];
		sc_warp_t *best = NULL;
		for (uint64_t c = wh->ready & mask; c; c &= c - 1) {
			uint32_t slot = (uint32_t)__builtin_ctzll(c);
			if ((!best || sm->warps[slot].age < best->age) && unit_ready(sm, slot, now))
				best = &sm->warps[slot];
		}
		if (best)
			sm->last[s] = best->slot;
		return best;
	}
	for (uint64_t c = wh->ready & mask; c;) {
		uint64_t after = last < nslots ? c & ~((2ull << last) - 1) : c;
		uint32_t slot = (uint32_t)__builtin_ctzll(after ? after : c);
		if (unit_ready(sm, slot, now)) {
			sm->last[s] = slot;
			return &sm->warps[slot];
		}
		c &= ~(1ull << slot); /* it waits for its unit now */
	}
	return NULL;
}

/* The SM's cycle when its warps are on the wheel (sm->wh->on), with the
 * launch's warp slots per SM: sc__sm_cycle's, which gpu.c's event loop
 * calls directly for such a launch. */
void sc__sm_cycle_wheel(sc_gpu_t *g, sc_sm_t *sm, uint32_t nslots, uint64_t now)
{
	sc_wheel_t *wh = sm->wh;
	uint32_t ns = g->cfg.schedulers_per_sm;
	bool hooks = sm_hooks(g, sm);
	wheel_advance(wh, sm->wnext, now);
	for (uint32_t s = 0; s < ns; s++) {
		if (sm->sfree[s] > now || !(wh->ready & wh->smask[s]))
			continue;
		sc_warp_t *w;
		while ((w = pick_ready(g, sm, s, nslots, now)) && !issue(g, sm, w, s, now, hooks, true))
			; /* SHARP held w back for its check: another warp may issue */
		if (g->run.halt)
			return;
	}
	set_next(g, sm, wheel_next(sm, wh, ns), now);
}

/* Each scheduler whose issue slot is free and which may have a ready warp
 * issues one whose unit is free too; a warp whose unit is busy waits for
 * it. sm->smin[s] is a lower bound of scheduler s's wnext (whatever lowers
 * a wnext lowers it: sc__wake), made exact for the schedulers that issued,
 * so that a scheduler with nothing ready costs neither a scan to pick nor
 * one to find its next cycle. */
void sc__sm_cycle(sc_gpu_t *g, sc_sm_t *sm, uint64_t now)
{
	uint32_t nslots = g->run.ctas_per_sm * g->run.nwarps, ns = g->cfg.schedulers_per_sm;
	if (sm->wh->on) {
		sc__sm_cycle_wheel(g, sm, nslots, now);
		return;
	}
	bool hooks = sm_hooks(g, sm);
	for (uint32_t s = 0; s < ns; s++) {
		if (sm->sfree[s] <= now && sm->smin[s] <= now) {
			sc_warp_t *w;
			while ((w = pick(g, sm, s, nslots, now)) && !issue(g, sm, w, s, now, hooks, false))
				; /* SHARP held w back for its check: another warp may issue */
			if (g->run.halt)
				return;
			sched_min(g, sm, s, nslots);
		}
	}
	/* after every scheduler: an issue can wake another scheduler's warps */
	uint64_t next = UINT64_MAX;
	for (uint32_t s = 0; s < ns; s++)
		next = sched_next(sm, s, sm->smin[s], next);
	set_next(g, sm, next, now);
}

static const char *const fu_names[SC_FU__COUNT] = {
#define X(name, text) [SC_FU_##name] = text,
	SC_FU_LIST(X)
#undef X
};

const char *sc_fu_name(sc_fu_t fu) { return (unsigned)fu < SC_FU__COUNT ? fu_names[fu] : "?"; }

uint64_t sc_unit_free_cycle(const sc_gpu_t *g, uint32_t sm, sc_fu_t fu, uint32_t sched)
{
	if (!g || sm >= g->cfg.num_sms || (unsigned)fu >= SC_FU__COUNT || sched >= g->cfg.schedulers_per_sm)
		return 0;
	return g->sms[sm].ufree[g->sms[sm].uslot[sched][fu]];
}
