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

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FOR_LANES(l, m) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

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

/* ------------------------------------------------------------ operands */
static uint64_t sreg_value(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, unsigned sr, uint32_t l)
{
	const sc_run_t *r = &g->run;
	uint32_t t = w->wid * 32 + l;
	switch (sr) {
	case SC_SR_TID_X: return t % r->block[0];
	case SC_SR_TID_Y: return (t / r->block[0]) % r->block[1];
	case SC_SR_TID_Z: return t / (r->block[0] * r->block[1]);
	case SC_SR_NTID_X: return r->block[0];
	case SC_SR_NTID_Y: return r->block[1];
	case SC_SR_NTID_Z: return r->block[2];
	case SC_SR_CTAID_X: return w->cta->ctaid[0];
	case SC_SR_CTAID_Y: return w->cta->ctaid[1];
	case SC_SR_CTAID_Z: return w->cta->ctaid[2];
	case SC_SR_NCTAID_X: return r->grid[0];
	case SC_SR_NCTAID_Y: return r->grid[1];
	case SC_SR_NCTAID_Z: return r->grid[2];
	case SC_SR_LANEID: return l;
	case SC_SR_WARPID: return w->slot;
	case SC_SR_NWARPID: return g->cfg.max_warps_per_sm;
	case SC_SR_SMID: return sm->id;
	case SC_SR_NSMID: return g->cfg.num_sms;
	case SC_SR_GRIDID: return r->launch_index;
	case SC_SR_LANEMASK_EQ: return 1u << l;
	case SC_SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
	case SC_SR_LANEMASK_LT: return (1u << l) - 1;
	case SC_SR_LANEMASK_GE: return ~((1u << l) - 1);
	case SC_SR_LANEMASK_GT: return (uint32_t)~((2ull << l) - 1);
	case SC_SR_CLOCK: return (uint32_t)g->cycle;
	case SC_SR_CLOCK_HI: return (uint32_t)(g->cycle >> 32);
	case SC_SR_CLOCK64: return g->cycle;
	case SC_SR_DYN_SMEM: return r->dyn_smem;
	case SC_SR_TOTAL_SMEM: return r->smem;
	}
	return 0;
}

/* Reads operand o for all 32 lanes as raw bits. */
static void rd(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint16_t o, uint32_t mask, uint64_t *v)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	switch (k) {
	case SC_K_R32: {
		const uint32_t *r = w->rf + (size_t)i * 32;
		for (int l = 0; l < 32; l++)
			v[l] = r[l];
		return;
	}
	case SC_K_R64: {
		const uint32_t *lo = w->rf + (size_t)i * 32, *hi = lo + 32;
		for (int l = 0; l < 32; l++)
			v[l] = lo[l] | (uint64_t)hi[l] << 32;
		return;
	}
	case SC_K_PRED: case SC_K_PREDN: {
		uint32_t p = w->pf[i];
		if (k == SC_K_PREDN)
			p = ~p;
		for (int l = 0; l < 32; l++)
			v[l] = (p >> l) & 1u;
		return;
	}
	case SC_K_IMM: {
		uint64_t c = g->run.mod->pool[i];
		for (int l = 0; l < 32; l++)
			v[l] = c;
		return;
	}
	case SC_K_SREG:
		FOR_LANES(l, mask)
			v[l] = sreg_value(g, sm, w, i, l);
		return;
	default:
		memset(v, 0, 32 * sizeof *v);
		return;
	}
}

/* Writes lanes in mask of destination operand o; false if o is not a
 * writable register (only a corrupted word can do that). */
static bool wr(sc_warp_t *w, uint16_t o, uint32_t mask, const uint64_t *v)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	switch (k) {
	case SC_K_R32: {
		uint32_t *r = w->rf + (size_t)i * 32;
		if (mask == 0xffffffffu)
			for (int l = 0; l < 32; l++)
				r[l] = (uint32_t)v[l];
		else
			FOR_LANES(l, mask)
				r[l] = (uint32_t)v[l];
		return true;
	}
	case SC_K_R64: {
		uint32_t *lo = w->rf + (size_t)i * 32, *hi = lo + 32;
		FOR_LANES(l, mask) {
			lo[l] = (uint32_t)v[l];
			hi[l] = (uint32_t)(v[l] >> 32);
		}
		return true;
	}
	case SC_K_PRED: {
		uint32_t bits = 0;
		FOR_LANES(l, mask)
			bits |= (uint32_t)(v[l] & 1u) << l;
		w->pf[i] = (w->pf[i] & ~mask) | bits;
		return true;
	}
	case SC_K_NONE:
		return true;
	}
	return false;
}

static void scoreboard_set(sc_gpu_t *g, sc_warp_t *w, uint16_t o, uint64_t at)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	if (k == SC_K_R32) {
		w->ready[i] = at;
	} else if (k == SC_K_R64) {
		w->ready[i] = at;
		w->ready[i + 1] = at;
	} else if (k == SC_K_PRED) {
		w->ready[g->run.regs + i] = at;
	}
}

static uint64_t opnd_ready(const sc_gpu_t *g, const sc_warp_t *w, uint16_t o)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	switch (k) {
	case SC_K_R32: case SC_K_ADDR32: return w->ready[i];
	case SC_K_R64: return w->ready[i] > w->ready[i + 1] ? w->ready[i] : w->ready[i + 1];
	case SC_K_ADDR:
		if (i == SC_NOREG)
			return 0;
		return w->ready[i] > w->ready[i + 1] ? w->ready[i] : w->ready[i + 1];
	case SC_K_PRED: case SC_K_PREDN: return w->ready[g->run.regs + i];
	}
	return 0;
}

/* Earliest cycle the warp's next instruction has its operands ready. */
static uint64_t ready_time(const sc_gpu_t *g, const sc_warp_t *w, uint64_t now)
{
	uint64_t t = now + 1;
	if (UNLIKELY(w->sp == 0))
		return t;
	uint32_t pc = w->stk[w->sp - 1].pc;
	const sc_insn_t *in;
	if (w->ib_pc == pc && w->ib[0].valid)
		in = &w->ib[0].insn;
	else if (pc < g->run.mod->ncode)
		in = &g->run.mod->code[pc];
	else
		return t;
	if (UNLIKELY(w->ib_dirty) && sc__insn_check(in, g->run.regs, g->run.preds, g->run.mod->npool, g->run.mod->ncode))
		return t;
	unsigned n = SC_NDST(in) + SC_NSRC(in);
	for (unsigned j = 0; j < n && j < 6; j++) {
		uint64_t r = opnd_ready(g, w, in->opnd[j]);
		t = r > t ? r : t;
	}
	if (in->guard & SC_GUARD_ON) {
		uint64_t r = w->ready[g->run.regs + SC_GUARD_REG(in->guard)];
		t = r > t ? r : t;
	}
	return t;
}

/* ------------------------------------------------------------ memory */
typedef struct memref {
	uint8_t *p;
	int space;     /* resolved state space */
} memref_t;

/* The address of a memory operand, prepared once per instruction so that
 * each lane costs one add and one mask: lo/hi point at the base register's
 * words (or at zeros), and mask wraps the sum to the width of that register.
 * A 32-bit register forms a 32-bit address, which wraps modulo 2^32 as PTX
 * arithmetic does (nw's shared base "array - 64" loaded at [%r+68] reads
 * offset 4); a 64-bit register or no register forms a 64-bit address. */
typedef struct agen {
	const uint32_t *lo, *hi;
	uint64_t imm, mask;
} agen_t;

static const uint32_t zero_lanes[32];

static agen_t addr_gen(const sc_warp_t *w, const sc_insn_t *in, uint16_t o)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	agen_t a = {zero_lanes, zero_lanes, in->imm, ~0ull};
	if (k == SC_K_ADDR && i != SC_NOREG) {
		a.lo = w->rf + (size_t)i * 32;
		a.hi = a.lo + 32;
	} else if (k == SC_K_ADDR32) {
		a.lo = w->rf + (size_t)i * 32;
		a.mask = 0xffffffffu;
	}
	return a;
}

static inline uint64_t lane_addr(const agen_t *a, uint32_t l)
{
	return (a->imm + a->lo[l] + ((uint64_t)a->hi[l] << 32)) & a->mask;
}

static const char *space_name(int sp)
{
	static const char *const n[] = {"none", "generic", "global", "shared", "local", "const", "param"};
	return sp >= 0 && sp < SC_SP__COUNT ? n[sp] : "?";
}

/* Resolves [addr, addr+size) in `space` for lane l, or raises the DUE. */
static bool resolve(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, int space, uint64_t addr,
                    uint32_t size, uint32_t l, bool write, memref_t *out)
{
	const sc_run_t *r = &g->run;
	if (UNLIKELY(addr & (size - 1))) {
		sc__due(g, SC_DUE_MISALIGNED_ADDRESS, sm, w, (int)l, pc, addr,
		        "%u-byte %s access at 0x%llx is not aligned", size, space_name(space), (unsigned long long)addr);
		return false;
	}
	if (space == SC_SP_GENERIC) {
		if (addr >= SC_SHARED_WIN && addr < SC_SHARED_WIN + SC_WIN_SIZE) {
			space = SC_SP_SHARED;
			addr -= SC_SHARED_WIN;
		} else if (addr >= SC_LOCAL_WIN && addr < SC_LOCAL_WIN + SC_WIN_SIZE) {
			space = SC_SP_LOCAL;
			addr -= SC_LOCAL_WIN;
		} else if (addr >= SC_CONST_WIN && addr < SC_CONST_WIN + SC_WIN_SIZE) {
			space = SC_SP_CONST;
			addr -= SC_CONST_WIN;
		} else if (addr >= SC_PARAM_WIN && addr < SC_PARAM_WIN + SC_WIN_SIZE) {
			space = SC_SP_PARAM;
			addr -= SC_PARAM_WIN;
		} else {
			space = SC_SP_GLOBAL;
		}
	}
	out->space = space;
	uint8_t *p = NULL;
	switch (space) {
	case SC_SP_GLOBAL:
		p = sc__gmem_find(&g->gmem, addr, size);
		if (UNLIKELY(g->trace != NULL) && p)
			sc__trace_touch(g, addr, size, write);
		break;
	case SC_SP_SHARED:
		if (addr < r->smem && size <= r->smem - addr)
			p = sm->smem + w->cta->smem_off + addr;
		break;
	case SC_SP_LOCAL:
		if (addr < r->local && size <= r->local - addr)
			p = w->local + (size_t)l * r->local + addr;
		break;
	case SC_SP_CONST:
		if (write) {
			sc__due(g, SC_DUE_WRONG_SPACE, sm, w, (int)l, pc, addr, "store to the const space");
			return false;
		}
		if (addr < r->mod->cbank_size && size <= r->mod->cbank_size - addr)
			p = r->mod->cbank + addr;
		break;
	case SC_SP_PARAM:
		if (write) {
			sc__due(g, SC_DUE_WRONG_SPACE, sm, w, (int)l, pc, addr, "store to kernel parameters");
			return false;
		}
		if (addr < r->param_bytes && size <= r->param_bytes - addr)
			p = r->params + addr;
		break;
	default:
		sc__due(g, SC_DUE_WRONG_SPACE, sm, w, (int)l, pc, addr, "access in no state space");
		return false;
	}
	if (UNLIKELY(!p)) {
		sc__due(g, SC_DUE_ILLEGAL_ADDRESS, sm, w, (int)l, pc, addr, "%u-byte %s %s at 0x%llx is outside every %s",
		        size, space_name(space), write ? "store" : "load", (unsigned long long)addr,
		        space == SC_SP_GLOBAL ? "allocation" : "bound of the space");
		return false;
	}
	out->p = p;
	return true;
}

static uint64_t load_ext(const uint8_t *p, unsigned type)
{
	switch (sc__type_bits(type)) {
	case 8:
		return type == SC_T_S8 ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 16: {
		uint16_t v;
		memcpy(&v, p, 2);
		return type == SC_T_S16 ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 32: {
		uint32_t v;
		memcpy(&v, p, 4);
		return type == SC_T_S32 ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
}

/* Fixed-size stores: a variable-length memcpy costs a call per lane. */
static void store_bytes(uint8_t *p, uint64_t v, unsigned bytes)
{
	switch (bytes) {
	case 1: p[0] = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

static uint32_t mem_latency(const sc_gpu_t *g, int space)
{
	switch (space) {
	case SC_SP_SHARED: return g->cfg.latency[SC_LAT_SHARED];
	case SC_SP_LOCAL: return g->cfg.latency[SC_LAT_LOCAL];
	case SC_SP_CONST: case SC_SP_PARAM: return g->cfg.latency[SC_LAT_CONST];
	}
	return g->cfg.latency[SC_LAT_GLOBAL];
}

static uint32_t ex_ldst(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc)
{
	unsigned type = in->type, bytes = sc__type_bits(type) / 8;
	int space = SC_AUX_SPACE(in->aux);
	int resolved = space;
	if (UNLIKELY(bytes == 0 || bytes > 8))
		goto bad;
	if (in->op == SC_OP_LD) {
		unsigned n = SC_NDST(in);
		if (UNLIKELY(n == 0 || n > 4 || SC_NSRC(in) != 1))
			goto bad;
		agen_t ag = addr_gen(w, in, in->opnd[n]);
		uint64_t (*v)[32] = g->vec;
		FOR_LANES(l, exec) {
			memref_t ref;
			uint64_t a = lane_addr(&ag, l);
			if (!resolve(g, sm, w, pc, space, a, bytes * n, l, false, &ref))
				return 0;
			resolved = ref.space;
			for (unsigned e = 0; e < n; e++)
				v[e][l] = load_ext(ref.p + e * bytes, type);
		}
		for (unsigned e = 0; e < n; e++)
			if (!wr(w, in->opnd[e], exec, v[e]))
				goto bad;
	} else {
		unsigned n = SC_NSRC(in) - 1;
		if (UNLIKELY(SC_NDST(in) != 0 || n == 0 || n > 4))
			goto bad;
		uint64_t (*v)[32] = g->vec;
		for (unsigned e = 0; e < n; e++)
			rd(g, sm, w, in->opnd[1 + e], exec, v[e]);
		agen_t ag = addr_gen(w, in, in->opnd[0]);
		FOR_LANES(l, exec) {
			memref_t ref;
			uint64_t a = lane_addr(&ag, l);
			if (!resolve(g, sm, w, pc, space, a, bytes * n, l, true, &ref))
				return 0;
			resolved = ref.space;
			for (unsigned e = 0; e < n; e++)
				store_bytes(ref.p + e * bytes, v[e][l], bytes);
		}
	}
	return mem_latency(g, resolved);
bad:
	sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "malformed %s", sc__ops[in->op].name);
	return 0;
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t u64_of(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* atom.add.f32 flushes subnormal inputs and results (PTX ISA, atom). */
static float ftz32(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

static bool atom_apply(unsigned op, unsigned type, uint64_t old, uint64_t b, uint64_t c, uint64_t *res)
{
	bool is64 = sc__type_bits(type) == 64;
	uint64_t m = is64 ? ~0ull : 0xffffffffull;
	old &= m;
	b &= m;
	c &= m;
	switch (op) {
	case SC_ATOM_ADD:
		if (type == SC_T_F32)
			*res = u32_of(ftz32(ftz32(f32_of((uint32_t)old)) + ftz32(f32_of((uint32_t)b))));
		else if (type == SC_T_F64)
			*res = u64_of(f64_of(old) + f64_of(b));
		else
			*res = (old + b) & m;
		return true;
	case SC_ATOM_INC: *res = old >= b ? 0 : old + 1; return type == SC_T_U32;
	case SC_ATOM_DEC: *res = (old == 0 || old > b) ? b : old - 1; return type == SC_T_U32;
	case SC_ATOM_MIN: case SC_ATOM_MAX: {
		bool lt;
		if (type == SC_T_S32)
			lt = (int32_t)old < (int32_t)b;
		else if (type == SC_T_S64)
			lt = (int64_t)old < (int64_t)b;
		else if (type == SC_T_F32)
			lt = f32_of((uint32_t)old) < f32_of((uint32_t)b);
		else if (type == SC_T_F64)
			lt = f64_of(old) < f64_of(b);
		else
			lt = old < b;
		*res = (op == SC_ATOM_MIN) == lt ? old : b;
		return true;
	}
	case SC_ATOM_AND: *res = old & b; return true;
	case SC_ATOM_OR: *res = old | b; return true;
	case SC_ATOM_XOR: *res = old ^ b; return true;
	case SC_ATOM_EXCH: *res = b; return true;
	case SC_ATOM_CAS: *res = old == b ? c : old; return true;
	}
	return false;
}

/* Atomics are applied lane by lane in lane order: deterministic. */
static uint32_t ex_atom(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc)
{
	unsigned type = in->type, bytes = sc__type_bits(type) / 8;
	unsigned base = SC_NDST(in), ns = SC_NSRC(in);
	int space = SC_AUX_SPACE(in->aux);
	if (UNLIKELY((bytes != 4 && bytes != 8) || base > 1 || (ns != 2 && ns != 3) ||
	             (space != SC_SP_GLOBAL && space != SC_SP_SHARED && space != SC_SP_GENERIC)))
		goto bad;
	uint64_t *b = g->alu.b, *c = g->alu.c, *d = g->alu.d;
	rd(g, sm, w, in->opnd[base + 1], exec, b);
	if (ns == 3)
		rd(g, sm, w, in->opnd[base + 2], exec, c);
	int resolved = space;
	agen_t ag = addr_gen(w, in, in->opnd[base]);
	FOR_LANES(l, exec) {
		memref_t ref;
		uint64_t a = lane_addr(&ag, l);
		if (!resolve(g, sm, w, pc, space, a, bytes, l, true, &ref))
			return 0;
		if (ref.space != SC_SP_GLOBAL && ref.space != SC_SP_SHARED) {
			sc__due(g, SC_DUE_WRONG_SPACE, sm, w, (int)l, pc, a, "atomic on the %s space", space_name(ref.space));
			return 0;
		}
		resolved = ref.space;
		uint64_t old = 0, res;
		memcpy(&old, ref.p, bytes);
		if (!atom_apply(in->sub, type, old, b[l], c[l], &res))
			goto bad;
		memcpy(ref.p, &res, bytes);
		d[l] = old;
	}
	if (base == 1 && !wr(w, in->opnd[0], exec, d))
		goto bad;
	return g->cfg.latency[resolved == SC_SP_SHARED ? SC_LAT_SHARED : SC_LAT_ATOMIC];
bad:
	sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "malformed %s", sc__ops[in->op].name);
	return 0;
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
			wr(w, w->bar_dst, w->bar_mask, v);
		}
		w->state = SC_W_ACTIVE;
		sm->wnext[w->slot] = now + 1;
	}
	memset(b, 0, sizeof *b);
	b->all = true;
	if (sm->next > now + 1)
		sm->next = now + 1;
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
	uint16_t ido = kind >= SC_BAR_RED_POPC ? in->opnd[1] : in->opnd[0];
	uint16_t cnto = kind >= SC_BAR_RED_POPC ? in->opnd[2] : (SC_NSRC(in) > 1 ? in->opnd[1] : 0);
	if (UNLIKELY(kind > SC_BAR_RED_OR)) {
		sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "malformed bar");
		return;
	}
	uint32_t lane = exec ? (uint32_t)__builtin_ctz(exec) : 0;
	rd(g, sm, w, ido, exec, v);
	uint32_t id = (uint32_t)v[lane];
	uint32_t count = 0;
	if (SC_OPND_KIND(cnto) != SC_K_NONE) {
		rd(g, sm, w, cnto, exec, cnt);
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
		rd(g, sm, w, in->opnd[3], exec, pr);
		uint32_t bits = 0;
		FOR_LANES(l, exec)
			bits |= (uint32_t)(pr[l] & 1) << l;
		b->popc += (uint32_t)__builtin_popcount(bits);
		b->all = b->all && bits == exec;
		b->any = b->any || bits != 0;
		w->bar_dst = in->opnd[0];
		w->bar_mask = exec;
	}
	if (kind != SC_BAR_ARRIVE) {
		w->state = SC_W_BAR;
		sm->wnext[w->slot] = UINT64_MAX;
		w->bar_id = (uint8_t)id;
		w->bar_kind = (uint8_t)kind;
	}
	bar_check(g, sm, cta, id, now);
	if (w->state == SC_W_BAR)
		bar_deadlock_check(g, sm, cta, pc);
}

/* ------------------------------------------------------------ warp-level */
static bool ex_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	switch (in->op) {
	case SC_OP_SHFL: {
		rd(g, sm, w, in->opnd[2], exec, x->a);
		rd(g, sm, w, in->opnd[3], exec, x->b);
		rd(g, sm, w, in->opnd[4], exec, x->c);
		FOR_LANES(l, exec) {
			uint32_t bval = (uint32_t)x->b[l] & 31, cval = (uint32_t)x->c[l] & 31;
			uint32_t segmask = ((uint32_t)x->c[l] >> 8) & 31;
			int32_t maxl = (int32_t)((l & segmask) | (cval & ~segmask)), minl = (int32_t)(l & segmask);
			int32_t j;
			bool pv;
			switch (in->sub) {
			case SC_SHFL_UP: j = (int32_t)l - (int32_t)bval; pv = j >= maxl; break;
			case SC_SHFL_DOWN: j = (int32_t)l + (int32_t)bval; pv = j <= maxl; break;
			case SC_SHFL_BFLY: j = (int32_t)(l ^ bval); pv = j <= maxl; break;
			case SC_SHFL_IDX: j = minl | (int32_t)(bval & ~segmask); pv = j <= maxl; break;
			default: return false;
			}
			if (!pv)
				j = (int32_t)l;
			x->d[l] = x->a[j & 31];
			x->d2[l] = pv;
		}
		return wr(w, in->opnd[0], exec, x->d) && wr(w, in->opnd[1], exec, x->d2);
	}
	case SC_OP_VOTE: {
		rd(g, sm, w, in->opnd[1], exec, x->a);
		rd(g, sm, w, in->opnd[2], exec, x->b);
		uint32_t bits = 0;
		FOR_LANES(l, exec)
			bits |= (uint32_t)(x->a[l] & 1) << l;
		uint32_t lane = exec ? (uint32_t)__builtin_ctz(exec) : 0;
		uint32_t act = exec & (uint32_t)x->b[lane];
		uint64_t r;
		switch (in->sub) {
		case SC_VOTE_ALL: r = (bits & act) == act; break;
		case SC_VOTE_ANY: r = (bits & act) != 0; break;
		case SC_VOTE_UNI: r = (bits & act) == 0 || (bits & act) == act; break;
		case SC_VOTE_BALLOT: r = bits & act; break;
		default: return false;
		}
		for (int l = 0; l < 32; l++)
			x->d[l] = r;
		return wr(w, in->opnd[0], exec, x->d);
	}
	case SC_OP_ACTIVEMASK:
		for (int l = 0; l < 32; l++)
			x->d[l] = exec;
		return wr(w, in->opnd[0], exec, x->d);
	}
	return false;
}

static bool ex_mov(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in);
	unsigned bits = sc__type_bits(in->type);
	if (in->op == SC_OP_CVTA) {
		if (nd != 1 || ns != 1)
			return false;
		rd(g, sm, w, in->opnd[1], exec, x->a);
		uint64_t win = 0;
		switch (SC_AUX_SPACE(in->aux)) {
		case SC_SP_SHARED: win = SC_SHARED_WIN; break;
		case SC_SP_LOCAL: win = SC_LOCAL_WIN; break;
		case SC_SP_CONST: win = SC_CONST_WIN; break;
		case SC_SP_PARAM: win = SC_PARAM_WIN; break;
		case SC_SP_GLOBAL: break;
		default: return false;
		}
		FOR_LANES(l, exec)
			x->d[l] = in->sub == SC_CVTA_FROM_GENERIC ? x->a[l] - win : x->a[l] + win;
		if (bits == 32)
			FOR_LANES(l, exec)
				x->d[l] &= 0xffffffffu;
		return wr(w, in->opnd[0], exec, x->d);
	}
	if (in->op == SC_OP_ISSPACEP) {
		if (nd != 1 || ns != 1)
			return false;
		rd(g, sm, w, in->opnd[1], exec, x->a);
		int sp = SC_AUX_SPACE(in->aux);
		FOR_LANES(l, exec) {
			uint64_t a = x->a[l];
			int in_sp = a >= SC_SHARED_WIN && a < SC_SHARED_WIN + SC_WIN_SIZE ? SC_SP_SHARED
			            : a >= SC_LOCAL_WIN && a < SC_LOCAL_WIN + SC_WIN_SIZE ? SC_SP_LOCAL
			            : a >= SC_CONST_WIN && a < SC_CONST_WIN + SC_WIN_SIZE ? SC_SP_CONST
			            : a >= SC_PARAM_WIN && a < SC_PARAM_WIN + SC_WIN_SIZE ? SC_SP_PARAM : SC_SP_GLOBAL;
			x->d[l] = in_sp == sp;
		}
		return wr(w, in->opnd[0], exec, x->d);
	}
	if (nd == 1 && ns == 1) {
		rd(g, sm, w, in->opnd[1], exec, x->a);
		return wr(w, in->opnd[0], exec, x->a);
	}
	if (bits == 0 || bits > 64)
		return false;
	if (nd == 1 && ns >= 2 && ns <= 4) { /* pack */
		unsigned eb = bits / ns;
		uint64_t em = eb == 64 ? ~0ull : (1ull << eb) - 1;
		memset(x->d, 0, sizeof x->d);
		for (unsigned e = 0; e < ns; e++) {
			rd(g, sm, w, in->opnd[1 + e], exec, x->a);
			FOR_LANES(l, exec)
				x->d[l] |= (x->a[l] & em) << (e * eb);
		}
		return wr(w, in->opnd[0], exec, x->d);
	}
	if (ns == 1 && nd >= 2 && nd <= 4) { /* unpack */
		unsigned eb = bits / nd;
		uint64_t em = eb == 64 ? ~0ull : (1ull << eb) - 1;
		rd(g, sm, w, in->opnd[nd], exec, x->a);
		for (unsigned e = 0; e < nd; e++) {
			FOR_LANES(l, exec)
				x->d[l] = (x->a[l] >> (e * eb)) & em;
			if (!wr(w, in->opnd[e], exec, x->d))
				return false;
		}
		return true;
	}
	return false;
}

/* ------------------------------------------------------------ issue */
static uint32_t alu_latency(const sc_gpu_t *g, const sc_insn_t *in)
{
	unsigned lat = sc__ops[in->op].lat;
	if (sc__ops[in->op].unit == SC_U_NUM && sc__type_is_float(in->type))
		lat = in->type == SC_T_F64 ? SC_LAT_FP64 : in->op == SC_OP_DIV ? SC_LAT_SFU : SC_LAT_FP32;
	else if (in->op == SC_OP_FMA && in->type == SC_T_F64)
		lat = SC_LAT_FP64;
	else if (sc__ops[in->op].unit == SC_U_FP && in->type == SC_T_F64 && lat == SC_LAT_SFU)
		lat = SC_LAT_FP64;
	return g->cfg.latency[lat];
}

static void cta_finish_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now)
{
	w->state = SC_W_DONE;
	sm->wnext[w->slot] = UINT64_MAX;
	sc_cta_t *cta = w->cta;
	cta->done++;
	if (cta->done == cta->nwarps) {
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

static void issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now)
{
	const sc_run_t *r = &g->run;
	const sc_module_t *mod = r->mod;
	sc_simt_t *top = &w->stk[w->sp - 1];
	uint32_t pc = top->pc;
	/* the instruction buffer: ib[k] holds pc ib_pc + k */
	if (UNLIKELY(w->ib_pc != pc)) {
		for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
			w->ib[k].valid = 0;
		w->ib_pc = pc;
	}
	sc_ibent_t *e = &w->ib[0];
	if (!e->valid) {
		if (UNLIKELY(pc >= mod->ncode)) {
			sc__due(g, SC_DUE_INVALID_PC, sm, w, -1, pc, 0, "pc %u is outside the program (%u instructions)", pc,
			        mod->ncode);
			return;
		}
		e->insn = mod->code[pc];
		e->valid = 1;
	}
	const sc_insn_t *in = &e->insn;
	if (UNLIKELY(w->ib_dirty) && sc__insn_check(in, r->regs, r->preds, mod->npool, mod->ncode)) {
		sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "the instruction word at pc %u does not decode", pc);
		return;
	}
	uint32_t active = top->mask, exec = active;
	if (in->guard & SC_GUARD_ON) {
		uint32_t pm = w->pf[SC_GUARD_REG(in->guard)];
		exec &= (in->guard & SC_GUARD_NEG) ? ~pm : pm;
	}
	g->run.warp_insts++;
	g->run.thread_insts += (uint32_t)__builtin_popcount(active);

	uint32_t next_pc = pc + 1;
	uint32_t lat = 1;
	bool transfer = false;
	unsigned unit = sc__ops[in->op < SC_OP__COUNT ? in->op : 0].unit;
	sc_alu_t *x = &g->alu;
	switch (unit) {
	case SC_U_NUM: case SC_U_INT: case SC_U_FP: case SC_U_CMP: {
		if (!exec)
			break;
		unsigned nd = SC_NDST(in), ns = SC_NSRC(in);
		if (UNLIKELY(nd < 1 || nd > 2 || ns > 4 || nd + ns > 6))
			goto bad;
		uint64_t *src[4] = {x->a, x->b, x->c, x->e};
		for (unsigned j = 0; j < ns; j++)
			rd(g, sm, w, in->opnd[nd + j], exec, src[j]);
		x->in = in;
		x->mask = exec;
		x->cc = w->cc;
		int rc;
		if (unit == SC_U_CMP)
			rc = sc__sem_cmp(x);
		else if (unit == SC_U_FP || (unit == SC_U_NUM && sc__type_is_float(in->type)))
			rc = sc__sem_fp(x);
		else
			rc = sc__sem_int(x);
		if (UNLIKELY(rc))
			goto bad;
		w->cc = x->cc;
		if (!wr(w, in->opnd[0], exec, x->d) || (nd == 2 && !wr(w, in->opnd[1], exec, x->d2)))
			goto bad;
		lat = alu_latency(g, in);
		break;
	}
	case SC_U_MOV:
		if (exec && !ex_mov(g, sm, w, in, exec))
			goto bad;
		lat = g->cfg.latency[SC_LAT_INT];
		break;
	case SC_U_MEM:
		if (!exec)
			break;
		lat = (in->op == SC_OP_LD || in->op == SC_OP_ST) ? ex_ldst(g, sm, w, in, exec, pc) : ex_atom(g, sm, w, in, exec, pc);
		if (r->halt)
			return;
		break;
	case SC_U_WARP:
		if (exec && !ex_warp(g, sm, w, in, exec))
			goto bad;
		lat = g->cfg.latency[SC_LAT_WARP];
		break;
	case SC_U_CTL:
		switch (in->op) {
		case SC_OP_BRA: {
			uint32_t target = SC_BR_TARGET(in->imm), rpc = SC_BR_RPC(in->imm);
			uint32_t taken = exec, nt = active & ~exec;
			if (!taken)
				break;
			transfer = true;
			if (!nt) {
				next_pc = target;
				break;
			}
			/* Paths that reconverge where the top entry does (or nowhere)
			 * reuse it, and a path that starts at the reconvergence point
			 * needs no entry: its lanes wait in the entry that resumes
			 * there. So a loop whose lanes leave one by one holds one
			 * entry, not one per divergent iteration. */
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
				return;
			}
			if (!reuse)
				top->pc = rpc;
			else if (np)
				*top = path[0];
			else
				top->pc = reff; /* every lane is at the reconvergence point */
			for (uint32_t k = reuse ? 1 : 0; k < np; k++)
				w->stk[w->sp++] = path[k];
			if (!simt_pop(g, sm, w, pc))
				return;
			goto scheduled;
		}
		case SC_OP_CALL:
			if (!exec)
				break;
			if (UNLIKELY(w->ncalls >= r->mod->max_call_depth)) {
				sc__due(g, SC_DUE_SIMT_OVERFLOW, sm, w, -1, pc, 0, "call stack deeper than %u", r->mod->max_call_depth);
				return;
			}
			w->calls[w->ncalls++] = pc + 1;
			next_pc = SC_BR_TARGET(in->imm);
			transfer = true;
			break;
		case SC_OP_RET:
			if (!exec)
				break;
			if (UNLIKELY(w->ncalls == 0)) {
				sc__due(g, SC_DUE_SIMT_UNDERFLOW, sm, w, -1, pc, 0, "ret with an empty call stack");
				return;
			}
			next_pc = w->calls[--w->ncalls];
			transfer = true;
			break;
		case SC_OP_EXIT:
			if (!exec)
				break;
			top->pc = next_pc;
			warp_exit(g, sm, w, exec, pc, now);
			if (r->halt || w->state == SC_W_DONE)
				return;
			goto scheduled;
		case SC_OP_TRAP:
			if (!exec)
				break;
			sc__due(g, SC_DUE_TRAP, sm, w, -1, pc, 0, "trap executed");
			return;
		case SC_OP_BAR:
			if (!exec)
				break;
			top->pc = next_pc;
			if (UNLIKELY(top->pc == top->rpc) && !simt_pop(g, sm, w, pc))
				return;
			ex_bar(g, sm, w, in, exec, pc, now);
			if (r->halt)
				return;
			goto scheduled_ib;
		case SC_OP_MEMBAR: case SC_OP_NOP:
			break;
		default:
			goto bad;
		}
		break;
	default:
		goto bad;
	}
	if (UNLIKELY(g->fu.armed))
		sc__fu_apply(g, sm, w, in, exec, now);
	/* scoreboard: destinations become readable after the latency */
	if (lat > 1) {
		unsigned nd = SC_NDST(in);
		for (unsigned j = 0; j < nd && j < 6; j++)
			scoreboard_set(g, w, in->opnd[j], now + lat);
	}
	top->pc = next_pc;
	if (UNLIKELY(top->pc == top->rpc) && !simt_pop(g, sm, w, pc))
		return;
scheduled_ib:
	if (!transfer && w->sp && w->stk[w->sp - 1].pc == pc + 1) {
		/* sequential: shift the buffer and prefetch the next word */
		uint32_t n = g->cfg.ib_entries;
		for (uint32_t k = 0; k + 1 < n; k++)
			w->ib[k] = w->ib[k + 1];
		w->ib_pc = pc + 1;
		uint32_t last = pc + n;
		if (last < mod->ncode) {
			w->ib[n - 1].insn = mod->code[last];
			w->ib[n - 1].valid = 1;
		} else {
			w->ib[n - 1].valid = 0;
		}
	}
scheduled:
	if (w->sp && w->stk[w->sp - 1].pc != w->ib_pc) {
		/* control left the fetched sequence: the buffer is flushed now, so
		 * that what it holds is exactly what will issue */
		for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
			w->ib[k].valid = 0;
		w->ib_pc = w->stk[w->sp - 1].pc;
	}
	if (w->state == SC_W_ACTIVE) {
		uint64_t t = ready_time(g, w, now);
		if (transfer || (w->sp && w->stk[w->sp - 1].pc != pc + 1))
			t = t > now + g->cfg.latency[SC_LAT_BRANCH] ? t : now + g->cfg.latency[SC_LAT_BRANCH];
		sm->wnext[w->slot] = t;
	}
	return;
bad:
	sc__due(g, SC_DUE_INVALID_INSTRUCTION, sm, w, -1, pc, 0, "%s at pc %u has operands that do not decode",
	        sc__ops[in->op < SC_OP__COUNT ? in->op : 0].name, pc);
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
	memset(sm->rf + (size_t)first * r->regs * 32, 0, (size_t)r->nwarps * r->regs * 32 * sizeof *sm->rf);
	memset(sm->pf + (size_t)first * r->preds, 0, (size_t)r->nwarps * r->preds * sizeof *sm->pf);
	memset(sm->smem + cta->smem_off, 0, r->smem);
	memset(cta->local, 0, (size_t)r->nwarps * 32 * r->local);
	uint32_t per = r->regs + r->preds;
	for (uint32_t i = 0; i < r->nwarps; i++) {
		uint32_t slot = cta->slot * r->nwarps + i;
		sc_warp_t *w = &sm->warps[slot];
		uint32_t nthr = r->nthreads - i * 32 < 32 ? r->nthreads - i * 32 : 32;
		uint32_t live = nthr == 32 ? 0xffffffffu : (1u << nthr) - 1;
		w->state = SC_W_ACTIVE;
		w->ib_dirty = false;
		w->slot = slot;
		w->wid = i;
		w->live = live;
		w->cc = 0;
		w->sp = 1;
		w->stk[0] = (sc_simt_t){r->fn->entry_pc, SC_PC_NONE, live};
		w->ncalls = 0;
		w->calls = sm->call_mem + (size_t)slot * (r->mod->max_call_depth + 1);
		w->ib_pc = UINT32_MAX;
		w->rf = sm->rf + (size_t)slot * r->regs * 32;
		w->pf = sm->pf + (size_t)slot * r->preds;
		w->ready = sm->ready_mem + (size_t)slot * per;
		memset(w->ready, 0, per * sizeof *w->ready);
		sm->wnext[slot] = now + 1;
		w->age = r->age++;
		w->local = cta->local + (size_t)i * 32 * r->local;
		w->cta = cta;
	}
	sm->nctas++;
	if (sm->next > now + 1)
		sm->next = now + 1;
}

static sc_warp_t *pick(sc_gpu_t *g, sc_sm_t *sm, uint32_t s, uint32_t nslots, uint64_t now)
{
	uint32_t ns = g->cfg.schedulers_per_sm;
	const uint64_t *wn = sm->wnext;
	if (s >= nslots)
		return NULL;
	uint32_t cnt = (nslots - s + ns - 1) / ns; /* warps of this scheduler */
	if (g->cfg.scheduler == SC_SCHED_GTO) {
		if (sm->last[s] < nslots && wn[sm->last[s]] <= now)
			return &sm->warps[sm->last[s]];
		sc_warp_t *best = NULL;
		for (uint32_t k = 0; k < cnt; k++) {
			uint32_t slot = s + k * ns;
			if (wn[slot] <= now && (!best || sm->warps[slot].age < best->age))
				best = &sm->warps[slot];
		}
		if (best)
			sm->last[s] = best->slot;
		return best;
	}
	uint32_t start = sm->last[s] < nslots ? (sm->last[s] - s) / ns + 1 : 0;
	if (start >= cnt)
		start = 0;
	for (uint32_t k = start; k < cnt; k++)
		if (wn[s + k * ns] <= now) {
			sm->last[s] = s + k * ns;
			return &sm->warps[s + k * ns];
		}
	for (uint32_t k = 0; k < start; k++)
		if (wn[s + k * ns] <= now) {
			sm->last[s] = s + k * ns;
			return &sm->warps[s + k * ns];
		}
	return NULL;
}

void sc__sm_cycle(sc_gpu_t *g, sc_sm_t *sm, uint64_t now)
{
	uint32_t nslots = g->run.ctas_per_sm * g->run.nwarps;
	for (uint32_t s = 0; s < g->cfg.schedulers_per_sm; s++) {
		sc_warp_t *w = pick(g, sm, s, nslots, now);
		if (w) {
			issue(g, sm, w, now);
			if (g->run.halt)
				return;
		}
	}
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < nslots; i++)
		next = sm->wnext[i] < next ? sm->wnext[i] : next;
	sm->next = next > now ? next : now + 1;
	if (next == UINT64_MAX)
		sm->next = UINT64_MAX;
}
