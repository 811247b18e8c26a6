/* Dynamic calls: indirect calls through a function's address and calls
 * on a cycle of the call graph (recursion), with the per-thread call
 * stack in local memory. Design: docs/DESIGN.md ("Calls").
 *
 * A direct call that cannot recurse keeps its static frame (sm.c,
 * x_call_ret): its .param variables are the callee's frame slots. A
 * dynamic call (call's sub SC_CALL_DYN, its sc__dcall_t in the module)
 * passes its arguments in the caller's own local memory: the call copies
 * them into the callee's parameter slots and the return copies the
 * callee's return values back. When the callee may reach the caller again
 * (dcall->saves), the call also pushes a record of the caller's activation
 * on each calling lane's stack, and the return pops it:
 *
 *   +0   u32: the rpc of the caller's SIMT entry when the callee runs in
 *        that entry (bit 31 of the next word set), else the return pc;
 *        u32: the call's record index | in place << 31
 *   +8   the caller's registers live after the call (32-bit slots)
 *   ...  its predicates live after the call, one byte each (0/1)
 *   ...  its static frame (parameters, return values, and the .local
 *        data of a function on no cycle) padded to 16 bytes
 *
 * A callee on a cycle of the call graph (f->stack_frame) then gets its
 * own .local data above the record, f->stack_frame bytes at its frame
 * pointer, which the call writes into the callee's register f->fp_slot
 * (its instructions address that data from it: ptx_parse.c,
 * frame_relative). A pointer to it, handed to a deeper activation, still
 * names this activation's data. Such a function's frame pointer is
 * stack_base + csp - stack_frame for as long as it runs (its calls pop
 * what they push), so the call and the return find the caller's from csp.
 *
 * The stack lies at g->run.stack_base in every thread's local memory,
 * g->run.stack bytes of it (cudaLimitStackSize); the running lanes' depth
 * is the warp's csp (a warp's lanes that run share their call chain: a
 * divergent call runs one target at a time). The warp's return pcs stay in
 * w->calls, as for direct calls. */
#include <stdio.h>
#include <stdlib.h>

#include "sc_int.h"

#define STACK_DEFAULT 1024u

int sc_set_stack_size(sc_gpu_t *g, uint64_t bytes)
{
	if (!g || bytes == 0 || bytes > SC_STACK_MAX)
		return SC_EINVAL;
	g->stack_want = (uint32_t)bytes;
	return 0;
}

uint64_t sc_stack_size(const sc_gpu_t *g)
{
	return g && g->stack_want ? g->stack_want : STACK_DEFAULT;
}

void sc__call_size(sc_gpu_t *g, const sc_func_t *f)
{
	sc_run_t *r = &g->run;
	r->call_depth = r->mod->max_call_depth;
	if (!f->uses_stack)
		return;
	r->stack_base = (r->local + 15) / 16 * 16;
	r->stack = ((uint32_t)sc_stack_size(g) + 15) / 16 * 16;
	r->local = r->stack_base + r->stack;
	r->call_depth += r->stack / 16; /* a record takes at least 16 bytes */
}

/* Bytes of the caller's record of call c. */
static uint32_t record_bytes(const sc__dcall_t *c, const sc_func_t *cf)
{
	return (8 + 4 * c->nsave + c->nsavep + cf->frame_bytes + 15) / 16 * 16;
}

int sc__dcall_live(sc_module_t *m)
{
	for (uint32_t k = 0; k < m->ndcalls; k++) {
		sc__dcall_t *c = &m->dcalls[k];
		const sc_func_t *f = &m->funcs[c->caller];
		free(c->save);
		c->save = NULL;
		c->nsave = c->nsavep = 0;
		if (!c->saves)
			continue;
		sc_live_t lv = {0};
		bool *wide = calloc(f->nregs + 1, 1);
		int rc = wide ? sc__live(m->code, f->entry_pc, f->end_pc, f->reg_base, f->nregs, f->pred_base, f->npreds, &lv)
		              : SC_ENOMEM;
		if (!rc && !(c->save = malloc((lv.nv + 2) * sizeof *c->save)))
			rc = SC_ENOMEM;
		/* a 64-bit value is live by its first slot: the second goes too */
		for (uint32_t pc = f->entry_pc; !rc && pc < f->end_pc; pc++) {
			sc_regref_t v[7];
			unsigned n = sc__insn_regs(&m->code[pc], v);
			for (unsigned j = 0; j < n; j++)
				if (!v[j].pred && v[j].w == 2 && v[j].idx >= f->reg_base && v[j].idx - f->reg_base < f->nregs)
					wide[v[j].idx - f->reg_base] = true;
		}
		for (uint32_t v = 0; !rc && v < lv.nv; v++)
			if (sc__live_at(&lv, lv.out, c->pc, v)) {
				bool pred = v >= lv.nregs;
				c->save[c->nsave + c->nsavep] = pred ? f->pred_base + v - lv.nregs : f->reg_base + v;
				*(pred ? &c->nsavep : &c->nsave) += 1;
				if (!pred && wide[v] && v + 1 < lv.nregs)
					c->save[c->nsave++] = f->reg_base + v + 1;
			}
		free(wide);
		sc__live_free(&lv);
		if (rc)
			return rc == SC_ENOMEM ? rc : SC_EPARSE;
	}
	return 0;
}

/* Whether [off, off + n) lies in the thread's local memory below the stack. */
static bool in_frame(const sc_run_t *r, uint32_t off, uint32_t n)
{
	uint32_t end = r->stack ? r->stack_base : r->local;
	return off <= end && n <= end - off;
}

/* The offset in a thread's local memory of variable off of function f,
 * running with the warp's stack at csp: off itself when f's frame is
 * static. Whether it lies there is checked with in_stack. */
static uint32_t frame_addr(const sc_run_t *r, const sc_func_t *f, uint32_t csp, uint32_t off)
{
	return f->stack_frame ? r->stack_base + csp - f->stack_frame + off : off;
}

/* Whether the n bytes at frame_addr(r, f, csp, off) are f's own. */
static bool in_stack(const sc_run_t *r, const sc_func_t *f, uint32_t csp, uint32_t off, uint32_t n)
{
	if (!f->stack_frame)
		return in_frame(r, off, n);
	return csp >= f->stack_frame && csp <= r->stack && off <= f->stack_frame && n <= f->stack_frame - off;
}

/* The function an indirect call's target value names, or -1. */
static int32_t target_func(const sc_module_t *m, uint64_t v)
{
	uint64_t i = (v - SC_FUNC_BASE) / 16;
	if (v < SC_FUNC_BASE || (v & 15) || i >= m->nfuncs)
		return -1;
	const sc_func_t *f = &m->funcs[i];
	return f->is_entry || f->entry_pc == UINT32_MAX ? -1 : (int32_t)i;
}

/* Whether f's parameters and return values have the call's sizes. */
static bool proto_matches(const sc_func_t *f, const sc__dcall_t *c)
{
	if (f->nparams != c->narg || f->nrets != c->nret)
		return false;
	for (uint32_t i = 0; i < c->narg; i++)
		if (f->param_size[i] != c->arg_size[i])
			return false;
	for (uint32_t i = 0; i < c->nret; i++)
		if (f->ret_size[i] != c->ret_size[i])
			return false;
	return true;
}

/* The callee of an indirect call for its lowest lane, and in *go the
 * lanes that call it now; -1 after the DUE of a lane whose value names no
 * function that fits. */
static int32_t indirect_target(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, const sc__dcall_t *c,
                               uint32_t exec, uint32_t *go)
{
	const sc_module_t *m = g->run.mod;
	uint64_t *t = g->alu.a;
	sc__rd(g, sm, w, sc__opnd(d->in, 0), exec, t);
	FOR_LANES(l, exec) {
		int32_t f = target_func(m, t[l]);
		if (f < 0) {
			sc__due(g, SC_DUE_BAD_CALL_TARGET, sm, w, (int)l, d->pc, t[l],
			        "indirect call through 0x%llx, which is the address of no function",
			        (unsigned long long)t[l]);
			return -1;
		}
		bool listed = !c->ntargets;
		for (uint32_t i = 0; i < c->ntargets; i++)
			listed = listed || c->targets[i] == (uint32_t)f;
		if (!listed) {
			sc__due(g, SC_DUE_BAD_CALL_TARGET, sm, w, (int)l, d->pc, t[l],
			        "indirect call to '%s', which is not in the call's .calltargets list", m->funcs[f].name);
			return -1;
		}
		if (!proto_matches(&m->funcs[f], c)) {
			sc__due(g, SC_DUE_BAD_CALL_TARGET, sm, w, (int)l, d->pc, t[l],
			        "indirect call to '%s', whose %u parameters and %u return values differ from the call's "
			        "prototype (%u and %u)", m->funcs[f].name, m->funcs[f].nparams, m->funcs[f].nrets, c->narg,
			        c->nret);
			return -1;
		}
	}
	uint32_t l0 = (uint32_t)__builtin_ctz(exec);
	*go = 0;
	FOR_LANES(l, exec)
		if (t[l] == t[l0])
			*go |= 1u << l;
	return target_func(m, t[l0]);
}

/* The SIMT stack of a dynamic call: the top entry {pc, rpc, mask} waits
 * at pc + 1 for all its lanes (unless its rpc is pc + 1: they wait in the
 * entry below already), the lanes that call another target run the call
 * again after this one's return ({pc, pc + 1, rest}), and `go` runs the
 * callee in an entry of its own whose rpc, SC_PC_CALL, no pc equals: the
 * callee's branches, which may reconverge at pcs the caller's entries name
 * (recursion), stay above it, and its return pops it. Returns false after
 * the DUE of a full SIMT stack. */
static bool push_call(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint32_t exec, uint32_t go,
                      uint32_t entry)
{
	sc_simt_t top = w->stk[w->sp - 1];
	uint32_t rest = exec & ~go;
	bool keep = top.rpc != pc + 1;
	uint32_t n = keep + (rest != 0) + 1;
	if (w->sp - 1 + n > g->cfg.simt_stack_depth) {
		sc__due(g, SC_DUE_SIMT_OVERFLOW, sm, w, -1, pc, 0, "a recursive or indirect call at depth %u needs more "
		        "than the %u SIMT entries of a warp (simt_stack_depth)", w->ncalls + 1, g->cfg.simt_stack_depth);
		return false;
	}
	uint32_t i = w->sp - 1;
	if (keep)
		w->stk[i++] = (sc_simt_t){pc + 1, top.rpc, top.mask};
	if (rest)
		w->stk[i++] = (sc_simt_t){pc, pc + 1, rest};
	w->stk[i++] = (sc_simt_t){entry, SC_PC_CALL, go};
	w->sp = i;
	return true;
}

/* Whether what call c saves lies in the launch's registers and local
 * memory (a module's calls are checked against the kernel that runs). */
static bool saved_ok(const sc_run_t *r, const sc__dcall_t *c, const sc_func_t *cf)
{
	for (uint32_t j = 0; j < c->nsave + c->nsavep; j++)
		if (c->save[j] >= (j < c->nsave ? r->regs : r->preds))
			return false;
	return in_frame(r, cf->frame_off, cf->frame_bytes);
}

/* The register watch (site.c) on warp w's registers, which the call
 * mechanism reads and writes besides the instructions' operands: whether
 * it watches one of the slots call c saves (or f's frame pointer). */
static bool watched(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc__dcall_t *c,
                    const sc_func_t *f)
{
	const sc_watch_t *wt = &g->watch;
	if (!wt->on || sm->id != wt->sm || w->slot != wt->slot || (wt->kind != SC_WATCH_REG && wt->kind != SC_WATCH_PRED))
		return false;
	bool pred = wt->kind == SC_WATCH_PRED;
	if (!pred && f && f->has_fp && wt->idx - f->fp_slot < 2)
		return true;
	for (uint32_t j = pred ? c->nsave : 0; c->saves && j < (pred ? c->nsave + c->nsavep : c->nsave); j++)
		if (c->save[j] == wt->idx)
			return true;
	return false;
}

/* The watched slot written in `lanes` at pc: overwritten once every
 * corrupted copy is. */
static void watch_write(sc_gpu_t *g, uint32_t lanes, uint32_t pc)
{
	sc_watch_t *wt = &g->watch;
	if ((lanes & wt->lanes) == wt->lanes)
		sc__watch_hit(g, SC_WATCH_OVERWRITTEN, pc);
	else
		wt->lanes &= ~lanes;
}

/* A dynamic call's effect on the watch: it reads the registers it saves
 * (lanes go), then writes the callee's frame pointer. */
static __attribute__((cold, noinline)) void watch_call(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w,
                                                       const sc__dcall_t *c, const sc_func_t *f, uint32_t go,
                                                       uint32_t pc)
{
	bool saved = watched(g, sm, w, c, NULL);
	if (saved && (go & g->watch.lanes))
		sc__watch_hit(g, SC_WATCH_READ, pc);
	else if (!saved && watched(g, sm, w, c, f))
		watch_write(g, go, pc);
}

int sc__x_dcall(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_run_t *r = &g->run;
	const sc_module_t *m = r->mod;
	uint32_t pc = d->pc, k = SC_BR_RPC(d->in->imm);
	if (!exec)
		return 1;
	if (k >= m->ndcalls || m->dcalls[k].pc != pc || (m->dcalls[k].callee < 0) != (SC_NSRC(d->in) == 1)) {
		/* a word changed by a fault: what it names is no call of this pc */
		sc__due(g, SC_DUE_BAD_CALL_TARGET, sm, w, -1, pc, 0, "the call word at pc %u names dynamic call %u, "
		        "which is not this pc's", pc, k);
		return SC_X_HALT;
	}
	const sc__dcall_t *c = &m->dcalls[k];
	uint32_t go = exec;
	int32_t fi = c->callee;
	if (fi < 0) {
		if ((fi = indirect_target(g, sm, w, d, c, exec, &go)) < 0)
			return SC_X_HALT;
	}
	const sc_func_t *f = &m->funcs[fi], *cf = &m->funcs[c->caller];
	if (UNLIKELY(w->ncalls >= r->call_depth)) {
		sc__due(g, SC_DUE_STACK_OVERFLOW, sm, w, -1, pc, 0, "calls nested deeper than %u (the call stack of %u "
		        "bytes per thread, cudaLimitStackSize)", r->call_depth, r->stack);
		return SC_X_HALT;
	}
	uint32_t size = c->saves ? record_bytes(c, cf) : 0, push = size + f->stack_frame;
	if (push && (w->csp > r->stack || push > r->stack - w->csp)) {
		sc__due(g, SC_DUE_STACK_OVERFLOW, sm, w, -1, pc, 0, "call stack overflow: the call from '%s' to '%s' "
		        "needs %u more bytes; %u of the %u bytes per thread are in use (cudaLimitStackSize)", cf->name,
		        f->name, push, w->csp, r->stack);
		return SC_X_HALT;
	}
	if (c->saves && !saved_ok(r, c, cf))
		return SC_X_BAD;
	for (uint32_t i = 0; i < c->narg; i++)
		if (!in_stack(r, cf, w->csp, c->arg_off[i], c->arg_size[i]) ||
		    !in_frame(r, f->frame_off + f->param_off[i], c->arg_size[i]))
			return SC_X_BAD;
	if (f->has_fp && f->fp_slot + 1 >= r->regs)
		return SC_X_BAD;
	/* a saving call of all the top entry's lanes runs the callee in that
	 * entry, its rpc kept in the records (recursion then costs no SIMT
	 * entries of its own) */
	if (UNLIKELY(g->watch.on))
		watch_call(g, sm, w, c, f, go, pc);
	sc_simt_t *top = &w->stk[w->sp - 1];
	bool inplace = c->saves && go == top->mask;
	uint32_t hdr[2] = {inplace ? top->rpc : pc + 1, k | (uint32_t)inplace << 31};
	FOR_LANES(l, go) {
		uint8_t *lm = w->local + (size_t)l * r->local;
		if (c->saves) {
			uint8_t *s = lm + r->stack_base + w->csp;
			memcpy(s, hdr, 8);
			s += 8;
			for (uint32_t j = 0; j < c->nsave; j++, s += 4)
				memcpy(s, &w->rf[(size_t)c->save[j] * 32 + l], 4);
			for (uint32_t j = 0; j < c->nsavep; j++)
				*s++ = (uint8_t)(w->pf[c->save[c->nsave + j]] >> l & 1u);
			memcpy(s, lm + cf->frame_off, cf->frame_bytes);
		}
		for (uint32_t i = 0; i < c->narg; i++)
			memcpy(lm + f->frame_off + f->param_off[i], lm + frame_addr(r, cf, w->csp, c->arg_off[i]),
			       c->arg_size[i]);
		if (f->has_fp) { /* last: the callee's window may be the caller's */
			w->rf[(size_t)f->fp_slot * 32 + l] = r->stack_base + w->csp + size;
			w->rf[(size_t)(f->fp_slot + 1) * 32 + l] = 0;
		}
	}
	if (inplace)
		*top = (sc_simt_t){f->entry_pc, SC_PC_CALL, go};
	else if (!push_call(g, sm, w, pc, exec, go, f->entry_pc))
		return SC_X_HALT;
	w->csp += push;
	w->calls[w->ncalls++] = pc + 1;
	return SC_X_JUMP;
}

/* The dynamic call's record of call instruction in, or NULL for a direct
 * call (or a word that names no record). */
static const sc__dcall_t *dcall_at(const sc_module_t *m, const sc_insn_t *in)
{
	uint32_t k = SC_BR_RPC(in->imm);
	return in->op == SC_OP_CALL && in->sub == SC_CALL_DYN && k < m->ndcalls ? &m->dcalls[k] : NULL;
}

/* Whether a ret returning to `ret` ends a dynamic call. */
static const sc__dcall_t *dcall_of(const sc_module_t *m, uint32_t ret)
{
	return ret == 0 || ret > m->ncode ? NULL : dcall_at(m, &m->code[ret - 1]);
}

int sc__x_dret(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_run_t *r = &g->run;
	const sc_module_t *m = r->mod;
	uint32_t ret = w->calls[w->ncalls - 1];
	const sc__dcall_t *c = dcall_of(m, ret);
	const sc_func_t *f = sc__func_at(m, d->pc), *cf = &m->funcs[c->caller];
	if (!f || f->nrets != c->nret)
		return SC_X_BAD;
	uint32_t size = c->saves ? record_bytes(c, cf) : 0, pop = size + f->stack_frame;
	if (c->saves && !saved_ok(r, c, cf))
		return SC_X_BAD;
	if (w->stk[w->sp - 1].rpc != SC_PC_CALL) {
		sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, d->pc, 0, "ret from '%s' finds no call's SIMT entry "
		        "(lanes 0x%08x)", f->name, exec);
		return SC_X_HALT;
	}
	if (w->csp < pop) {
		sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, d->pc, 0, "ret from '%s' with %u bytes on the call stack; "
		        "its frame and its caller's record take %u", f->name, w->csp, pop);
		return SC_X_HALT;
	}
	for (uint32_t i = 0; i < c->nret; i++)
		if (!in_stack(r, cf, w->csp - pop, c->ret_off[i], c->ret_size[i]) ||
		    !in_frame(r, f->frame_off + f->ret_off[i], c->ret_size[i]))
			return SC_X_BAD;
	w->csp -= pop;
	uint32_t hdr[2] = {0, 0};
	if (c->saves)
		memcpy(hdr, w->local + (size_t)__builtin_ctz(exec) * r->local + r->stack_base + w->csp, 8);
	if (!(hdr[1] >> 31) && w->sp < 2) {
		sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, d->pc, 0, "ret from '%s' finds no caller's SIMT entry",
		        f->name);
		return SC_X_HALT;
	}
	if (UNLIKELY(g->watch.on) && watched(g, sm, w, c, NULL)) /* the restore writes what the call saved */
		watch_write(g, exec, d->pc);
	FOR_LANES(l, exec) {
		uint8_t *lm = w->local + (size_t)l * r->local, tmp[SC_DCALL_RETMAX], *t = tmp;
		for (uint32_t i = 0; i < c->nret; t += c->ret_size[i], i++)
			memcpy(t, lm + f->frame_off + f->ret_off[i], c->ret_size[i]);
		if (c->saves) {
			const uint8_t *s = lm + r->stack_base + w->csp + 8;
			for (uint32_t j = 0; j < c->nsave; j++, s += 4)
				memcpy(&w->rf[(size_t)c->save[j] * 32 + l], s, 4);
			for (uint32_t j = 0; j < c->nsavep; j++, s++) {
				uint32_t *pw = &w->pf[c->save[c->nsave + j]];
				*pw = (*pw & ~(1u << l)) | (uint32_t)(*s & 1u) << l;
			}
			memcpy(lm + cf->frame_off, s, cf->frame_bytes);
		}
		t = tmp;
		for (uint32_t i = 0; i < c->nret; t += c->ret_size[i], i++)
			memcpy(lm + frame_addr(r, cf, w->csp, c->ret_off[i]), t, c->ret_size[i]);
	}
	w->ncalls--;
	if (hdr[1] >> 31) /* the call ran in the caller's entry: it resumes with its rpc */
		w->stk[w->sp - 1] = (sc_simt_t){ret, hdr[0], w->stk[w->sp - 1].mask};
	else
		w->sp--; /* the entry below resumes at the return pc, or runs the call again */
	return SC_X_JUMP;
}

bool sc__dret_at(const sc_module_t *m, const sc_warp_t *w)
{
	return w->ncalls && dcall_of(m, w->calls[w->ncalls - 1]);
}

uint32_t sc__call_targets(const sc_module_t *m, const sc_insn_t *in, uint32_t *out)
{
	const sc__dcall_t *c = dcall_at(m, in);
	uint32_t n = 0;
	if (c && c->callee < 0) {
		for (uint32_t i = 0; i < m->nfuncs; i++)
			if (m->funcs[i].addr_taken)
				out[n++] = i;
		return n;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry_pc == SC_BR_TARGET(in->imm)) {
			out[n++] = i;
			break;
		}
	return n;
}

bool sc__call_saves(const sc_module_t *m, const sc_insn_t *in)
{
	const sc__dcall_t *c = dcall_at(m, in);
	return c && c->saves;
}

int sc__dcall_refuse(const sc_module_t *m, const char *what, char *msg, size_t msgsz)
{
	if (!m->ndcalls)
		return 0;
	const sc__dcall_t *c = &m->dcalls[0];
	snprintf(msg, msgsz, "%s: '%s' makes %s call (PTX line %u); %s does not transform recursive or indirect "
	         "calls", m->name, m->funcs[c->caller].name, c->callee < 0 ? "an indirect" : "a recursive", m->line[c->pc], what);
	return SC_EINVAL;
}

const sc_func_t *sc__func_of_addr(const sc_module_t *m, uint64_t v)
{
	int32_t i = m ? target_func(m, v) : -1;
	return i >= 0 && m->funcs[i].addr_taken ? &m->funcs[i] : NULL;
}
