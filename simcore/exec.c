/* Execution of the instructions of the units that are not control flow:
 * operand access, the ALU units through the semantics in sem_*.c, moves,
 * memory (a warp-wide path with a per-lane fallback) and warp-level
 * instructions. Each sc__x_* is a handler of sc_dec_t (sc_int.h, "Decoded
 * instructions"); sm.c issues them. */
#include <math.h>
#include <string.h>

#include "sc_int.h"

/* FOR_LANES with a plain loop when all 32 lanes run (the common case). */
#define EACH_LANE(m, ...)                                                   \
	do {                                                                    \
		uint32_t em_ = (m);                                                 \
		if (em_ == 0xffffffffu) {                                           \
			for (uint32_t l = 0; l < 32; l++) {                             \
				__VA_ARGS__;                                                \
			}                                                               \
		} else {                                                            \
			FOR_LANES(l, em_) {                                             \
				__VA_ARGS__;                                                \
			}                                                               \
		}                                                                   \
	} while (0)

/* ------------------------------------------------------------ operands */
uint64_t sc__sreg(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, unsigned sr, uint32_t l)
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
	case SC_SR_GLOBALTIMER: return sc__globaltimer(g, g->cycle);
	case SC_SR_GLOBALTIMER_LO: return (uint32_t)sc__globaltimer(g, g->cycle);
	case SC_SR_GLOBALTIMER_HI: return (uint32_t)(sc__globaltimer(g, g->cycle) >> 32);
	}
	return 0; /* %envreg<n>: no driver sets them */
}

/* Reads operand o for all 32 lanes as raw bits. */
void sc__rd(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask, uint64_t *v)
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
			v[l] = sc__sreg(g, sm, w, i, l);
		return;
	default:
		memset(v, 0, 32 * sizeof *v);
		return;
	}
}

/* Writes lanes in mask of destination operand o; false if o is not a
 * writable register (only a corrupted word can do that). */
bool sc__wr(sc_warp_t *w, sc_opnd_t o, uint32_t mask, const uint64_t *v)
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

static inline __attribute__((always_inline)) agen_t addr_gen(const sc_warp_t *w, const sc_insn_t *in, unsigned j)
{
	unsigned k = SC_OPND_KIND(in->opnd[j]), i = sc__opnd_idx(in, j);
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

/* The generic window that holds a, or SC_SP_GLOBAL outside all four. */
static int window_of(uint64_t a)
{
	if (a >= SC_SHARED_WIN && a < SC_SHARED_WIN + SC_WIN_SIZE)
		return SC_SP_SHARED;
	if (a >= SC_LOCAL_WIN && a < SC_LOCAL_WIN + SC_WIN_SIZE)
		return SC_SP_LOCAL;
	if (a >= SC_CONST_WIN && a < SC_CONST_WIN + SC_WIN_SIZE)
		return SC_SP_CONST;
	if (a >= SC_PARAM_WIN && a < SC_PARAM_WIN + SC_WIN_SIZE)
		return SC_SP_PARAM;
	return SC_SP_GLOBAL;
}

static uint64_t window_base(int space)
{
	switch (space) {
	case SC_SP_SHARED: return SC_SHARED_WIN;
	case SC_SP_LOCAL: return SC_LOCAL_WIN;
	case SC_SP_CONST: return SC_CONST_WIN;
	case SC_SP_PARAM: return SC_PARAM_WIN;
	}
	return 0;
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
		space = window_of(addr);
		addr -= window_base(space);
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

/* The warp-wide path: when every lane's access is aligned and falls in one
 * region of one space (one global allocation, the CTA's shared memory,
 * the lanes' local memories, the constant bank or the parameters), the
 * lane's host address is base + addr[l] + l * stride, and nothing is
 * checked per lane. Otherwise (or when a lane would fault) false, and the
 * caller takes the per-lane path, which raises the DUE at the right lane. */
typedef struct span {
	uint8_t *base;   /* host address of address `lo` (lane 0 for local) */
	uint64_t lo;
	uint64_t off;    /* a generic window's base: addr - off is in `space` */
	size_t stride;
	int space;
} span_t;

/* Resolves a generic range [lo, hi] to one space when all of it lies in
 * one window, or in global space below or above every window. */
static int generic_span(uint64_t *lo, uint64_t *hi)
{
	int s = window_of(*lo);
	if (s != window_of(*hi))
		return -1;
	if (s == SC_SP_GLOBAL)
		return *hi < SC_SHARED_WIN || *lo >= SC_PARAM_WIN + SC_WIN_SIZE ? s : -1;
	uint64_t b = window_base(s);
	*lo -= b;
	*hi -= b;
	return s;
}

/* The lanes' addresses into addr, and their bounds and bitwise or
 * (sc_bounds_t, sc_int.h). */
typedef sc_bounds_t bounds_t;

/* All 32 lanes from their 32-bit halves, in loops that vectorise: when
 * every lane's base has the same upper word, the lowest and highest lower
 * words give the lowest and highest address, unless adding the offset
 * wraps some lanes and not others (then amax < amin: false, and the caller
 * takes the lane loop). Only the low bits of `any` are used (alignment).
 * The lanes are dense for `size` when each lower word is lane 0's plus
 * l * size (modulo 2^32) and lane 0's is the lowest: then none wrapped, and
 * neither did the addresses (amin <= amax), so addr[l] = amin + l * size.
 * Built for AVX2 too where GCC can (the loader picks by the host CPU): the
 * loops vectorise twice as wide, with the same integer results. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static bool lane_addrs_all(const agen_t *ag, uint32_t size, uint64_t *addr, bounds_t *b)
{
	const uint32_t *lo = ag->lo, *hi = ag->hi;
	uint32_t h0 = hi[0], l0 = lo[0], diff = 0, gap = 0, lmin = UINT32_MAX, lmax = 0, any = 0,
	         i32 = (uint32_t)ag->imm;
	for (uint32_t l = 0; l < 32; l++) {
		diff |= hi[l] ^ h0;
		gap |= (lo[l] - l * size) ^ l0;
		lmin = lo[l] < lmin ? lo[l] : lmin;
		lmax = lo[l] > lmax ? lo[l] : lmax;
		any |= lo[l] + i32;
	}
	/* imm and mask in locals: addr could alias *ag, which would reload
	 * them for every lane and keep the loop scalar */
	uint64_t imm = ag->imm, mask = ag->mask;
	for (uint32_t l = 0; l < 32; l++)
		addr[l] = (imm + lo[l] + ((uint64_t)hi[l] << 32)) & mask;
	uint64_t base = (uint64_t)h0 << 32;
	uint64_t amin = (imm + base + lmin) & mask, amax = (imm + base + lmax) & mask;
	if (diff || amax < amin)
		return false;
	*b = (bounds_t){amin, amax, any, !gap && lmin == l0 ? size : 0};
	return true;
}

/* The lanes' addresses for accesses of `size` bytes each. */
static bounds_t lane_addrs(const agen_t *ag, uint32_t exec, uint32_t size, uint64_t *addr)
{
	bounds_t b = {UINT64_MAX, 0, 0, 0};
	if (ag->lo == zero_lanes && ag->hi == zero_lanes) { /* [imm]: one address */
		EACH_LANE(exec, addr[l] = ag->imm);
		return (bounds_t){ag->imm, ag->imm, ag->imm, 0};
	}
	if (exec == 0xffffffffu && lane_addrs_all(ag, size, addr, &b))
		return b;
	EACH_LANE(exec, uint64_t a = lane_addr(ag, l); addr[l] = a; b.lo = a < b.lo ? a : b.lo;
	          b.hi = a > b.hi ? a : b.hi; b.any |= a);
	return b;
}

static bool fast_span(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, int space, const uint64_t *addr,
                      bounds_t bd, uint32_t exec, uint32_t size, bool write, span_t *out)
{
	const sc_run_t *r = &g->run;
	uint64_t lo = bd.lo, hi = bd.hi;
	if (bd.any & (size - 1))
		return false;
	uint64_t l0 = lo, off = 0; /* off: the generic window's base */
	if (space == SC_SP_GENERIC) {
		if ((space = generic_span(&lo, &hi)) < 0)
			return false;
		off = l0 - lo;
	}
	uint8_t *p = NULL;
	size_t stride = 0;
	switch (space) {
	case SC_SP_GLOBAL:
		/* p: the host address of lo itself (the others: of offset 0) */
		if (!(p = sc__gmem_find_at(&g->gmem, pc, lo, hi - lo + size)))
			return false;
		lo = 0;
		break;
	case SC_SP_SHARED:
		if (hi >= r->smem || size > r->smem - hi)
			return false;
		p = sm->smem + w->cta->smem_off;
		break;
	case SC_SP_LOCAL:
		if (hi >= r->local || size > r->local - hi)
			return false;
		p = w->local;
		stride = r->local;
		break;
	case SC_SP_CONST:
		if (write || hi >= r->mod->cbank_size || size > r->mod->cbank_size - hi)
			return false;
		p = r->mod->cbank;
		break;
	case SC_SP_PARAM:
		if (write || hi >= r->param_bytes || size > r->param_bytes - hi)
			return false;
		p = r->params;
		break;
	default:
		return false;
	}
	if (UNLIKELY(g->trace != NULL) && space == SC_SP_GLOBAL)
		FOR_LANES(l, exec)
			sc__trace_touch(g, addr[l] - off, size, write);
	out->base = p + lo;
	out->lo = l0;
	out->off = off;
	out->stride = stride;
	out->space = space;
	return true;
}

static inline uint8_t *span_at(const span_t *s, const uint64_t *addr, uint32_t l)
{
	return s->base + (addr[l] - s->lo) + l * s->stride;
}

/* ld: n destinations of `bytes` each; `uniform`: every lane reads the
 * same bytes (loaded once); `dense`: the lanes' words are back to back in
 * lane order (a 4-byte load is then one 128-byte copy). */
static bool ld_span(sc_gpu_t *g, sc_warp_t *w, const sc_insn_t *in, const span_t *s, const uint64_t *addr,
                    uint32_t exec, unsigned n, unsigned bytes, bool uniform, bool dense)
{
	uint16_t o = in->opnd[0];
	if (n == 1 && bytes == 4 && SC_OPND_KIND(o) == SC_K_R32 && uniform) { /* e.g. ld.param */
		uint32_t *d = w->rf + (size_t)sc__opnd_idx(in, 0) * 32, v;
		memcpy(&v, span_at(s, addr, (uint32_t)__builtin_ctz(exec)), 4);
		EACH_LANE(exec, d[l] = v);
		return true;
	}
	if (n == 1 && bytes == 8 && SC_OPND_KIND(o) == SC_K_R64 && uniform) {
		uint32_t *lo = w->rf + (size_t)sc__opnd_idx(in, 0) * 32, *hi = lo + 32, v[2];
		memcpy(v, span_at(s, addr, (uint32_t)__builtin_ctz(exec)), 8);
		EACH_LANE(exec, lo[l] = v[0]; hi[l] = v[1]);
		return true;
	}
	if (n == 1 && bytes == 4 && SC_OPND_KIND(o) == SC_K_R32) {
		uint32_t *d = w->rf + (size_t)sc__opnd_idx(in, 0) * 32;
		if (dense && s->stride == 0)
			memcpy(d, span_at(s, addr, 0), 128);
		else
			EACH_LANE(exec, memcpy(&d[l], span_at(s, addr, l), 4));
		return true;
	}
	if (n == 1 && bytes == 8 && SC_OPND_KIND(o) == SC_K_R64) {
		uint32_t *lo = w->rf + (size_t)sc__opnd_idx(in, 0) * 32, *hi = lo + 32;
		FOR_LANES(l, exec) {
			const uint8_t *p = span_at(s, addr, l);
			memcpy(&lo[l], p, 4);
			memcpy(&hi[l], p + 4, 4);
		}
		return true;
	}
	uint64_t (*v)[32] = g->vec;
	FOR_LANES(l, exec) {
		const uint8_t *p = span_at(s, addr, l);
		for (unsigned e = 0; e < n; e++)
			v[e][l] = load_ext(p + e * bytes, in->type);
	}
	for (unsigned e = 0; e < n; e++)
		if (!sc__wr(w, sc__opnd(in, e), exec, v[e]))
			return false;
	return true;
}

/* ld lane by lane (loads land in g->vec first, so a DUE leaves the
 * registers alone); *resolved gets the space. 0 after a DUE, UINT32_MAX for
 * a malformed word, else 1. */
static uint32_t ld_lanes(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                         const uint64_t *addr, unsigned n, unsigned bytes, int *resolved)
{
	int space = SC_AUX_SPACE(in->aux);
	uint64_t (*v)[32] = g->vec;
	FOR_LANES(l, exec) {
		memref_t ref;
		if (!resolve(g, sm, w, pc, space, addr[l], bytes * n, l, false, &ref))
			return 0;
		*resolved = ref.space;
		for (unsigned e = 0; e < n; e++)
			v[e][l] = load_ext(ref.p + e * bytes, in->type);
	}
	for (unsigned e = 0; e < n; e++)
		if (!sc__wr(w, sc__opnd(in, e), exec, v[e]))
			return UINT32_MAX;
	return 1;
}

/* ld: n destinations of `bytes` each; the warp-wide path, else lane by
 * lane. A load that a cache fault's overlay reaches (g->ms.nover: never in
 * a fault-free run) reads again with the corrupted bytes in place.
 * Returns the latency, 0 after a DUE, UINT32_MAX for a malformed word. */
static uint32_t ex_ld(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                      unsigned bytes)
{
	unsigned n = SC_NDST(in);
	int space = SC_AUX_SPACE(in->aux), resolved = space;
	uint64_t addr[32];
	span_t sp;
	if (UNLIKELY(n == 0 || n > 4 || SC_NSRC(in) != 1))
		return UINT32_MAX;
	agen_t ag = addr_gen(w, in, n);
	bounds_t bd = lane_addrs(&ag, exec, bytes * n, addr);
	if (LIKELY(fast_span(g, sm, w, pc, space, addr, bd, exec, bytes * n, false, &sp))) {
		bool uniform = bd.lo == bd.hi && sp.stride == 0, dense = bd.dense == 4;
		if (!ld_span(g, w, in, &sp, addr, exec, n, bytes, uniform, dense))
			return UINT32_MAX;
		if (UNLIKELY(g->ms.nover) && sc__ovl_load(g, sm, w, sp.space, addr, sp.off, exec, bytes * n)) {
			ld_span(g, w, in, &sp, addr, exec, n, bytes, uniform, dense);
			sc__ovl_unpatch(g);
		}
		return sc__mem_time(g, sm, w, sp.space, SC_OP_LD, addr, sp.off, exec, bytes * n, &bd);
	}
	uint32_t rc = ld_lanes(g, sm, w, in, exec, pc, addr, n, bytes, &resolved);
	if (rc != 1)
		return rc;
	uint64_t off = space == SC_SP_GENERIC ? window_base(resolved) : 0;
	if (UNLIKELY(g->ms.nover) && sc__ovl_load(g, sm, w, resolved, addr, off, exec, bytes * n)) {
		ld_lanes(g, sm, w, in, exec, pc, addr, n, bytes, &resolved);
		sc__ovl_unpatch(g);
	}
	return sc__mem_time(g, sm, w, resolved, SC_OP_LD, addr, off, exec, bytes * n, NULL);
}

/* st: n sources of `bytes` each, stored in lane order (the last lane to
 * store an address wins), on the warp-wide path when it applies. */
static uint32_t ex_st(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                      unsigned bytes)
{
	unsigned n = SC_NSRC(in) - 1;
	int space = SC_AUX_SPACE(in->aux), resolved = space;
	uint64_t addr[32];
	span_t sp;
	if (UNLIKELY(SC_NDST(in) != 0 || n == 0 || n > 4))
		return UINT32_MAX;
	agen_t ag = addr_gen(w, in, 0);
	uint16_t o = in->opnd[1];
	if (n == 1 && bytes == 4 && SC_OPND_KIND(o) == SC_K_R32) {
		bounds_t bd = lane_addrs(&ag, exec, 4, addr);
		if (LIKELY(fast_span(g, sm, w, pc, space, addr, bd, exec, 4, true, &sp))) {
			const uint32_t *v = w->rf + (size_t)sc__opnd_idx(in, 1) * 32;
			if (UNLIKELY(g->ms.dimg) && sp.space == SC_SP_GLOBAL)
				sc__dimg_store_lanes(g, addr, sp.off, exec, 4);
			if (bd.dense == 4 && sp.stride == 0) /* the same bytes as lane by lane */
				memcpy(span_at(&sp, addr, 0), v, 128);
			else
				FOR_LANES(l, exec)
					memcpy(span_at(&sp, addr, l), &v[l], 4);
			if (UNLIKELY(g->ms.nover))
				sc__ovl_store(g, sm, w, sp.space, addr, sp.off, exec, 4);
			return sc__mem_time(g, sm, w, sp.space, SC_OP_ST, addr, sp.off, exec, 4, &bd);
		}
	}
	uint64_t (*v)[32] = g->vec;
	for (unsigned e = 0; e < n; e++)
		sc__rd(g, sm, w, sc__opnd(in, 1 + e), exec, v[e]);
	bounds_t bd = lane_addrs(&ag, exec, bytes * n, addr);
	bool fast = fast_span(g, sm, w, pc, space, addr, bd, exec, bytes * n, true, &sp);
	FOR_LANES(l, exec) {
		memref_t ref = {NULL, 0};
		if (fast)
			ref.p = span_at(&sp, addr, l);
		else if (!resolve(g, sm, w, pc, space, addr[l], bytes * n, l, true, &ref))
			return 0;
		else
			resolved = ref.space;
		if (UNLIKELY(g->ms.dimg) && (fast ? sp.space : ref.space) == SC_SP_GLOBAL)
			sc__dimg_store(g, addr[l] - (fast ? sp.off : 0), bytes * n); /* generic global = global */
		for (unsigned e = 0; e < n; e++)
			store_bytes(ref.p + e * bytes, v[e][l], bytes);
	}
	int sps = fast ? sp.space : resolved;
	uint64_t off = fast ? sp.off : space == SC_SP_GENERIC ? window_base(resolved) : 0;
	if (UNLIKELY(g->ms.nover))
		sc__ovl_store(g, sm, w, sps, addr, off, exec, bytes * n);
	return sc__mem_time(g, sm, w, sps, SC_OP_ST, addr, off, exec, bytes * n, fast ? &bd : NULL);
}

static uint32_t ex_ldst(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc)
{
	unsigned bytes = sc__type_bits(in->type) / 8;
	uint32_t lat = UINT32_MAX;
	if (LIKELY(bytes != 0 && bytes <= 8))
		lat = in->op == SC_OP_LD ? ex_ld(g, sm, w, in, exec, pc, bytes) : ex_st(g, sm, w, in, exec, pc, bytes);
	if (UNLIKELY(lat == UINT32_MAX)) {
		sc__due_insn(g, sm, w, pc, in, "a malformed memory instruction at pc %u: %s");
		return 0;
	}
	return lat;
}


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
			*res = sc__bits32(ftz32(ftz32(sc__f32_of((uint32_t)old)) + ftz32(sc__f32_of((uint32_t)b))));
		else if (type == SC_T_F64)
			*res = sc__bits64(sc__f64_of(old) + sc__f64_of(b));
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
			lt = sc__f32_of((uint32_t)old) < sc__f32_of((uint32_t)b);
		else if (type == SC_T_F64)
			lt = sc__f64_of(old) < sc__f64_of(b);
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
	sc__rd(g, sm, w, sc__opnd(in, base + 1), exec, b);
	if (ns == 3)
		sc__rd(g, sm, w, sc__opnd(in, base + 2), exec, c);
	int resolved = space;
	agen_t ag = addr_gen(w, in, base);
	uint64_t addr[32];
	FOR_LANES(l, exec) {
		memref_t ref;
		uint64_t a = addr[l] = lane_addr(&ag, l);
		if (!resolve(g, sm, w, pc, space, a, bytes, l, true, &ref))
			return 0;
		if (ref.space != SC_SP_GLOBAL && ref.space != SC_SP_SHARED) {
			sc__due(g, SC_DUE_WRONG_SPACE, sm, w, (int)l, pc, a, "atomic on the %s space", space_name(ref.space));
			return 0;
		}
		resolved = ref.space;
		uint64_t old = 0, res;
		if (UNLIKELY(g->ms.nover) && ref.space == SC_SP_GLOBAL)
			sc__ovl_atomic(g, sm, w, pc, a, bytes, ref.p); /* a generic global address is the global one */
		if (UNLIKELY(g->ms.dimg) && ref.space == SC_SP_GLOBAL)
			sc__dimg_store(g, a, bytes);
		memcpy(&old, ref.p, bytes);
		if (!atom_apply(in->sub, type, old, b[l], c[l], &res))
			goto bad;
		memcpy(ref.p, &res, bytes);
		d[l] = old;
	}
	if (base == 1 && !sc__wr(w, sc__opnd(in, 0), exec, d))
		goto bad;
	return sc__mem_time(g, sm, w, resolved, in->op, addr, space == SC_SP_GENERIC ? window_base(resolved) : 0, exec,
	                    bytes, NULL);
bad:
	sc__due_insn(g, sm, w, pc, in, "a malformed atomic instruction at pc %u: %s");
	return 0;
}

/* ------------------------------------------------------------ warp-level */
static bool ex_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	switch (in->op) {
	case SC_OP_SHFL: {
		sc__rd(g, sm, w, sc__opnd(in, 2), exec, x->a);
		sc__rd(g, sm, w, sc__opnd(in, 3), exec, x->b);
		sc__rd(g, sm, w, sc__opnd(in, 4), exec, x->c);
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
		return sc__wr(w, sc__opnd(in, 0), exec, x->d) && sc__wr(w, sc__opnd(in, 1), exec, x->d2);
	}
	case SC_OP_VOTE: {
		sc__rd(g, sm, w, sc__opnd(in, 1), exec, x->a);
		sc__rd(g, sm, w, sc__opnd(in, 2), exec, x->b);
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
		return sc__wr(w, sc__opnd(in, 0), exec, x->d);
	}
	case SC_OP_ACTIVEMASK:
		for (int l = 0; l < 32; l++)
			x->d[l] = exec;
		return sc__wr(w, sc__opnd(in, 0), exec, x->d);
	}
	return false;
}

/* cvta: an address to or from the generic window of a space. */
static bool mov_cvta(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	int sp = SC_AUX_SPACE(in->aux);
	if (SC_NDST(in) != 1 || SC_NSRC(in) != 1 || sp == SC_SP_NONE || sp == SC_SP_GENERIC || sp >= SC_SP__COUNT)
		return false;
	sc__rd(g, sm, w, sc__opnd(in, 1), exec, x->a);
	uint64_t win = window_base(sp);
	FOR_LANES(l, exec)
		x->d[l] = in->sub == SC_CVTA_FROM_GENERIC ? x->a[l] - win : x->a[l] + win;
	if (sc__type_bits(in->type) == 32)
		FOR_LANES(l, exec)
			x->d[l] &= 0xffffffffu;
	return sc__wr(w, sc__opnd(in, 0), exec, x->d);
}

/* isspacep: is the generic address in the space's window. */
static bool mov_isspacep(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	if (SC_NDST(in) != 1 || SC_NSRC(in) != 1)
		return false;
	sc__rd(g, sm, w, sc__opnd(in, 1), exec, x->a);
	int sp = SC_AUX_SPACE(in->aux);
	FOR_LANES(l, exec)
		x->d[l] = window_of(x->a[l]) == sp;
	return sc__wr(w, sc__opnd(in, 0), exec, x->d);
}

/* mov {a, b, ..} into one register (pack) or one register into {d, e, ..}
 * (unpack), in elements of type-width / count bits. */
static bool mov_vector(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_alu_t *x = &g->alu;
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), bits = sc__type_bits(in->type);
	if (bits == 0 || bits > 64)
		return false;
	if (nd == 1 && ns >= 2 && ns <= 4) { /* pack */
		unsigned eb = bits / ns;
		uint64_t em = eb == 64 ? ~0ull : (1ull << eb) - 1;
		memset(x->d, 0, sizeof x->d);
		for (unsigned e = 0; e < ns; e++) {
			sc__rd(g, sm, w, sc__opnd(in, 1 + e), exec, x->a);
			FOR_LANES(l, exec)
				x->d[l] |= (x->a[l] & em) << (e * eb);
		}
		return sc__wr(w, sc__opnd(in, 0), exec, x->d);
	}
	if (ns == 1 && nd >= 2 && nd <= 4) { /* unpack */
		unsigned eb = bits / nd;
		uint64_t em = eb == 64 ? ~0ull : (1ull << eb) - 1;
		sc__rd(g, sm, w, sc__opnd(in, nd), exec, x->a);
		for (unsigned e = 0; e < nd; e++) {
			FOR_LANES(l, exec)
				x->d[l] = (x->a[l] >> (e * eb)) & em;
			if (!sc__wr(w, sc__opnd(in, e), exec, x->d))
				return false;
		}
		return true;
	}
	return false;
}

static bool ex_mov(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	if (in->op == SC_OP_CVTA)
		return mov_cvta(g, sm, w, in, exec);
	if (in->op == SC_OP_ISSPACEP)
		return mov_isspacep(g, sm, w, in, exec);
	if (SC_NDST(in) == 1 && SC_NSRC(in) == 1) {
		sc__rd(g, sm, w, sc__opnd(in, 1), exec, g->alu.a);
		return sc__wr(w, sc__opnd(in, 0), exec, g->alu.a);
	}
	return mov_vector(g, sm, w, in, exec);
}

sc_lat_t sc__alu_class(const sc_insn_t *in)
{
	unsigned lat = sc__ops[in->op].lat;
	if (sc__ops[in->op].unit == SC_U_NUM && sc__type_is_float(in->type))
		lat = in->type == SC_T_F64 ? SC_LAT_FP64 : in->op == SC_OP_DIV ? SC_LAT_SFU : SC_LAT_FP32;
	else if (in->op == SC_OP_FMA && in->type == SC_T_F64)
		lat = SC_LAT_FP64;
	else if (sc__ops[in->op].unit == SC_U_FP && in->type == SC_T_F64 && lat == SC_LAT_SFU)
		lat = SC_LAT_FP64;
	return (sc_lat_t)lat;
}


/* ------------------------------------------------------------ handlers */
/* The ALU units through the semantics functions: every operand widened to
 * 64 bits per lane. Words sem_fast.c has no handler for come here. */
int sc__x_alu(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (!exec)
		return 1;
	const sc_insn_t *in = d->in;
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), unit = sc__ops[in->op].unit;
	if (UNLIKELY(nd < 1 || nd > 2 || ns > 4 || nd + ns > 6))
		return SC_X_BAD;
	sc_alu_t *x = &g->alu;
	uint64_t *src[4] = {x->a, x->b, x->c, x->e};
	for (unsigned j = 0; j < ns; j++)
		sc__rd(g, sm, w, sc__opnd(in, nd + j), exec, src[j]);
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
		return SC_X_BAD;
	w->cc = x->cc;
	if (!sc__wr(w, sc__opnd(in, 0), exec, x->d) || (nd == 2 && !sc__wr(w, sc__opnd(in, 1), exec, x->d2)))
		return SC_X_BAD;
	return (int)d->lat;
}

int sc__x_mov(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (exec && !ex_mov(g, sm, w, d->in, exec))
		return SC_X_BAD;
	return (int)d->lat;
}

/* Protection: the shared-memory granules an ld, st or atom is about to
 * touch are decoded first (prot.c), before any of its effects. Addresses
 * outside the CTA's shared memory are left to the access's own DUE.
 * false after a DUE. */
static bool shared_check(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc)
{
	const sc_run_t *r = &g->run;
	int space = SC_AUX_SPACE(in->aux);
	if ((space != SC_SP_SHARED && space != SC_SP_GENERIC) || !sc__prot_has_smem(sm))
		return true;
	bool st = in->op == SC_OP_ST;
	unsigned base = st ? 0 : SC_NDST(in);
	unsigned n = in->op == SC_OP_LD ? SC_NDST(in) : st ? SC_NSRC(in) - 1u : 1u; /* vector elements */
	uint32_t size = sc__type_bits(in->type) / 8 * n;
	agen_t ag = addr_gen(w, in, base);
	FOR_LANES(l, exec) {
		uint64_t a = lane_addr(&ag, l);
		if (space == SC_SP_GENERIC) {
			if (window_of(a) != SC_SP_SHARED)
				continue;
			a -= SC_SHARED_WIN;
		}
		if (a < r->smem && size <= r->smem - a && !sc__prot_smem(g, sm, w, w->cta->smem_off + a, size, st, pc))
			return false;
	}
	return true;
}

int sc__x_ldst(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (!exec)
		return 1;
	if (UNLIKELY(sm->nerr) && !shared_check(g, sm, w, d->in, exec, d->pc))
		return SC_X_HALT;
	uint32_t lat = ex_ldst(g, sm, w, d->in, exec, d->pc);
	return g->run.halt ? SC_X_HALT : (int)lat;
}

int sc__x_atom(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (!exec)
		return 1;
	if (UNLIKELY(sm->nerr) && !shared_check(g, sm, w, d->in, exec, d->pc))
		return SC_X_HALT;
	uint32_t lat = ex_atom(g, sm, w, d->in, exec, d->pc);
	return g->run.halt ? SC_X_HALT : (int)lat;
}

int sc__x_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	if (exec && !ex_warp(g, sm, w, d->in, exec))
		return SC_X_BAD;
	return (int)d->lat;
}

int sc__x_bad(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	(void)g, (void)sm, (void)w, (void)d, (void)exec;
	return SC_X_BAD;
}

bool sc__mem_peek(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint32_t l, uint64_t addr, void *dst,
                  uint32_t size)
{
	memref_t ref;
	if (!resolve(g, sm, w, pc, SC_SP_GENERIC, addr, size, l, false, &ref))
		return false;
	memcpy(dst, ref.p, size);
	return true;
}
