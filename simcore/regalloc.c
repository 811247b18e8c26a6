/* Liveness analysis and register allocation: the `alloc` register mode
 * (DESIGN.md, "Two register modes"). A module loaded into a GPU created
 * with SC_REGS_ALLOC is lowered as in ptx mode, then every function's
 * virtual registers are mapped onto as few 32-bit slots (and predicates)
 * per thread as a greedy colouring finds, and the operands are rewritten.
 *
 * Values. The parser numbers each function's registers from its reg_base:
 * a register is named by its first slot (a 64-bit one, kind R64 or ADDR,
 * spans two slots; R32 and ADDR32 one), a predicate by its index. Those
 * numbers are the values here; every operand of one value has one width.
 *
 * Liveness is a backward dataflow over the instructions of a function
 * (successors: the next pc, a branch target; exit, ret and trap have none).
 * An instruction uses its sources, address bases and guard, and defines its
 * destinations; a guarded definition (@p mov r, x) writes only the lanes
 * where p holds, so it does not kill r: the old value stays live through
 * it. SIMT execution needs nothing more: every register write is masked by
 * the lanes executing it, so each lane reads and writes exactly what a
 * thread walking one path of the CFG would, and per-thread liveness over
 * the CFG is exact for every lane, whichever side of a divergent branch
 * the warp runs first. (A value defined on one side and live after the
 * join is live on the other side too, from the join back to its earlier
 * definition or the entry, so it interferes with what that side defines.)
 * The one cross-lane read is shfl's source, which a lane reads from other
 * lanes that may stand elsewhere: such values are pinned (they share their
 * slots with nothing in the function), so an inactive source lane yields
 * what ptx mode yields.
 *
 * Interference: a definition interferes with every value live after the
 * instruction and with the instruction's other definitions, whether or
 * not it is itself used (its write must not clobber anything live).
 * Values live at the entry also interfere with each other. Sources are
 * read before any destination is written (sm.c), so a destination may
 * take the slot of a source that dies there.
 *
 * Colouring: values in order of first appearance in the code (nvcc's PTX
 * is nearly SSA and laid out in dominance order, so this is close to the
 * perfect elimination order and to linear scan), each at the lowest run of
 * 1 or 2 free slots, trying first the slots of a mov partner (copy
 * coalescing without merging). No even alignment of 64-bit pairs: our
 * register file has no such rule. Predicates are coloured the same way in
 * the predicate file.
 *
 * Calls work like register windows: a .func's slots start above every slot
 * its callers keep live across a call to it (base = max over call sites of
 * caller base + highest live slot + 1), so nothing needs saving; kernels
 * start at 0 and a kernel's registers per thread are the highest slot of
 * itself and everything it can call. A .func's values live at its entry
 * (read before written) count as live across each of its calls.
 *
 * A .func that reads a value before writing it (nvcc rarely emits one: an
 * undefined C value) sees in ptx mode what it left at its previous call;
 * to keep that, such a function's window is placed above everything else
 * (callers first), where only its own callees' windows, above the values
 * it keeps, can reach. A .func with a shuffle gets the same, since the
 * lanes it reads from may not have made the call.
 *
 * The allocation is checked when the module loads (sc__regalloc_verify):
 * no two values live at once overlap; a .func's values read before written
 * lie in no other function's slots; and a forward walk over the CFG that
 * tracks which value last wrote each physical slot (calls clobbering their
 * callees' windows) proves that every read finds its own value there.
 * ptx-mode code is kept for that check and for the ptx-mode counts. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

/* ---------------------------------------------------------------- operands */
typedef struct opv {
	uint16_t idx;  /* absolute slot or predicate */
	uint8_t w;     /* slots: 1 or 2; predicates 1 */
	bool pred;
	bool def;
	uint8_t pos;   /* operand position, 6 = the guard */
} opv_t;

/* The register and predicate operands of `in`: destinations, then sources,
 * address bases and the guard. Returns how many (at most 7). */
static unsigned insn_opvs(const sc_insn_t *in, opv_t *v)
{
	unsigned n = 0, nd = SC_NDST(in), no = nd + SC_NSRC(in);
	for (unsigned j = 0; j < no && j < 6; j++) {
		unsigned k = SC_OPND_KIND(in->opnd[j]), i = SC_OPND_IDX(in->opnd[j]);
		opv_t o = {.idx = (uint16_t)i, .def = j < nd, .pos = (uint8_t)j};
		switch (k) {
		case SC_K_R32: case SC_K_ADDR32: o.w = 1; break;
		case SC_K_R64: o.w = 2; break;
		case SC_K_ADDR:
			if (i == SC_NOREG)
				continue;
			o.w = 2;
			break;
		case SC_K_PRED: case SC_K_PREDN: o.w = 1; o.pred = true; break;
		default: continue;
		}
		if (k == SC_K_ADDR || k == SC_K_ADDR32 || k == SC_K_PREDN)
			o.def = false;
		v[n++] = o;
	}
	if (in->guard & SC_GUARD_ON)
		v[n++] = (opv_t){.idx = (uint16_t)SC_GUARD_REG(in->guard), .w = 1, .pred = true, .pos = 6};
	return n;
}

static void opv_set(sc_insn_t *in, const opv_t *o, uint32_t idx)
{
	if (o->pos == 6)
		in->guard = (uint16_t)((in->guard & ~0x0fffu) | idx);
	else
		in->opnd[o->pos] = SC_OPND(SC_OPND_KIND(in->opnd[o->pos]), idx);
}

/* Successors of pc within [lo, hi): returns how many (0 to 2). */
static unsigned succs(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t pc, uint32_t s[2])
{
	const sc_insn_t *in = &code[pc];
	bool guarded = in->guard & SC_GUARD_ON;
	unsigned n = 0;
	switch (in->op) {
	case SC_OP_BRA: {
		uint32_t t = SC_BR_TARGET(in->imm);
		if (t >= lo && t < hi)
			s[n++] = t;
		if (guarded && pc + 1 < hi && (n == 0 || s[0] != pc + 1))
			s[n++] = pc + 1;
		return n;
	}
	case SC_OP_EXIT: case SC_OP_RET: case SC_OP_TRAP:
		if (guarded && pc + 1 < hi)
			s[n++] = pc + 1;
		return n;
	default:
		if (pc + 1 < hi)
			s[n++] = pc + 1;
		return n;
	}
}

/* ---------------------------------------------------------------- liveness */
static inline void bset(uint64_t *b, uint32_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bclr(uint64_t *b, uint32_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bget(const uint64_t *b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
/* Every set bit x of the W-word set b, in order. */
#define FOR_BITS(x, b, W)                                                             \
	for (uint32_t w_ = 0; w_ < (W); w_++)                                             \
		for (uint64_t m_ = (b)[w_], x; m_ && ((x = w_ * 64 + (uint32_t)__builtin_ctzll(m_)), 1); m_ &= m_ - 1)

/* Value id of an operand in lv, or UINT32_MAX when it lies outside the
 * function's registers (only a malformed module does that). */
static uint32_t val_of(const sc_live_t *lv, const opv_t *o)
{
	if (o->pred)
		return o->idx >= lv->pred_base && o->idx < lv->pred_base + lv->npreds ? lv->nregs + o->idx - lv->pred_base
		                                                                     : UINT32_MAX;
	return o->idx >= lv->reg_base && o->idx + o->w <= lv->reg_base + lv->nregs ? o->idx - lv->reg_base : UINT32_MAX;
}

void sc__live_free(sc_live_t *lv)
{
	if (!lv)
		return;
	free(lv->in);
	free(lv->out);
	memset(lv, 0, sizeof *lv);
}

int sc__live(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t reg_base, uint32_t nregs, uint32_t pred_base,
             uint32_t npreds, sc_live_t *lv)
{
	memset(lv, 0, sizeof *lv);
	lv->lo = lo;
	lv->hi = hi;
	lv->reg_base = reg_base;
	lv->nregs = nregs;
	lv->pred_base = pred_base;
	lv->npreds = npreds;
	lv->nv = nregs + npreds;
	lv->words = (lv->nv + 63) / 64;
	if (lv->words == 0)
		lv->words = 1;
	size_t n = (size_t)(hi - lo) * lv->words;
	lv->in = calloc(n ? n : 1, sizeof *lv->in);
	lv->out = calloc(n ? n : 1, sizeof *lv->out);
	uint64_t *nin = malloc(lv->words * sizeof *nin);
	if (!lv->in || !lv->out || !nin) {
		free(nin);
		sc__live_free(lv);
		return SC_ENOMEM;
	}
	for (uint32_t pc = lo; pc < hi; pc++) {
		opv_t ov[8];
		unsigned k = insn_opvs(&code[pc], ov);
		for (unsigned j = 0; j < k; j++)
			if (val_of(lv, &ov[j]) == UINT32_MAX) {
				free(nin);
				sc__live_free(lv);
				return SC_EINVAL;
			}
	}
	/* Backward passes in reverse pc order until nothing changes: loops
	 * need a pass per nesting level or so. */
	uint32_t W = lv->words;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t pc = hi; pc-- > lo;) {
			uint64_t *in = lv->in + (size_t)(pc - lo) * W, *out = lv->out + (size_t)(pc - lo) * W;
			uint32_t s[2];
			unsigned ns = succs(code, lo, hi, pc, s);
			for (uint32_t w = 0; w < W; w++) {
				uint64_t o = 0;
				for (unsigned j = 0; j < ns; j++)
					o |= lv->in[(size_t)(s[j] - lo) * W + w];
				out[w] = o;
			}
			memcpy(nin, out, W * sizeof *nin);
			opv_t ov[8];
			unsigned k = insn_opvs(&code[pc], ov);
			bool guarded = code[pc].guard & SC_GUARD_ON;
			if (!guarded)
				for (unsigned j = 0; j < k; j++)
					if (ov[j].def)
						bclr(nin, val_of(lv, &ov[j]));
			for (unsigned j = 0; j < k; j++)
				if (!ov[j].def)
					bset(nin, val_of(lv, &ov[j]));
			if (memcmp(nin, in, W * sizeof *nin)) {
				memcpy(in, nin, W * sizeof *nin);
				changed = true;
			}
		}
	}
	free(nin);
	return 0;
}

/* ---------------------------------------------------------------- allocation */
typedef struct fres {
	uint32_t nregs, npreds;      /* allocated slots / predicates */
	uint32_t *col;               /* value -> local slot or predicate, UINT32_MAX unused */
	uint32_t ncalls;
	struct { uint32_t pc, callee, hr, hp; } *calls;
	bool stale;                  /* a .func reading a value before writing it */
} fres_t;

static int func_index_at(const sc_module_t *m, uint32_t pc)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry_pc == pc)
			return (int)i;
	return -1;
}

/* "MODULE: register allocation: ..." in msg; returns rc. */
static int fail(char *msg, size_t msgsz, int rc, const sc_module_t *m, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(char *msg, size_t msgsz, int rc, const sc_module_t *m, const char *fmt, ...)
{
	int n = snprintf(msg, msgsz, "%s: register allocation: ", m->name);
	if (n >= 0 && (size_t)n < msgsz) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg + n, msgsz - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* Slots a colouring may need: every value of a function takes at most its
 * own width, and a function has at most 0xfff slots; one more for a pair. */
#define BUSY_SLOTS 0x1001

/* Colours the values of one class [first, first + count) of the
 * interference matrix in `order`; writes col[] (from 0) and returns the
 * number of slots used. busy: BUSY_SLOTS bytes of scratch. */
static uint32_t colour(uint32_t first, uint32_t count, const uint64_t *adj, uint32_t W, const uint8_t *width,
                       const uint32_t *order, uint32_t norder, const uint32_t *partner, uint32_t *col, uint8_t *busy)
{
	uint32_t top = 0;
	for (uint32_t oi = 0; oi < norder; oi++) {
		uint32_t v = order[oi];
		if (v < first || v >= first + count)
			continue;
		memset(busy, 0, BUSY_SLOTS);
		const uint64_t *row = adj + (size_t)v * W;
		for (uint32_t u = first; u < first + count; u++)
			if (col[u] != UINT32_MAX && bget(row, u))
				for (uint32_t s = 0; s < width[u]; s++)
					busy[col[u] + s] = 1;
		uint32_t w = width[v], c = UINT32_MAX, p = partner[v];
		if (p != UINT32_MAX && col[p] != UINT32_MAX && !busy[col[p]] && (w == 1 || !busy[col[p] + 1]))
			c = col[p];
		for (uint32_t s = 0; c == UINT32_MAX; s++)
			if (!busy[s] && (w == 1 || !busy[s + 1]))
				c = s;
		col[v] = c;
		if (c + w > top)
			top = c + w;
	}
	return top;
}

static int alloc_func(const sc_module_t *m, const sc_func_t *f, fres_t *r, char *msg, size_t msgsz)
{
	sc_live_t lv;
	int rc = sc__live(m->code, f->entry_pc, f->end_pc, f->reg_base, f->nregs, f->pred_base, f->npreds, &lv);
	if (rc)
		return rc == SC_ENOMEM ? rc : fail(msg, msgsz, SC_EPARSE, m, "'%s': operand outside the function's registers", f->name);
	uint32_t nv = lv.nv, W = lv.words;
	uint8_t *width = calloc(nv + 1, 1);
	uint64_t *adj = calloc((size_t)nv * W + 1, sizeof *adj);
	uint32_t *order = malloc((nv + 1) * sizeof *order), *partner = malloc((nv + 1) * sizeof *partner);
	uint8_t *pinned = calloc(nv + 1, 1), *busy = malloc(BUSY_SLOTS + 1);
	r->col = malloc((nv + 1) * sizeof *r->col);
	uint32_t norder = 0;
	rc = SC_ENOMEM;
	if (!width || !adj || !order || !partner || !pinned || !busy || !r->col)
		goto out;
	for (uint32_t v = 0; v < nv; v++) {
		partner[v] = UINT32_MAX;
		r->col[v] = UINT32_MAX;
	}
#define EDGE(a, b) do { bset(adj + (size_t)(a) * W, (b)); bset(adj + (size_t)(b) * W, (a)); } while (0)
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		const sc_insn_t *in = &m->code[pc];
		opv_t ov[8];
		unsigned k = insn_opvs(in, ov);
		const uint64_t *out = lv.out + (size_t)(pc - lv.lo) * W;
		for (unsigned j = 0; j < k; j++) {
			uint32_t v = val_of(&lv, &ov[j]);
			if (width[v] && width[v] != ov[j].w) {
				rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': register slot %u is read at two widths", f->name, ov[j].idx);
				goto out;
			}
			if (!width[v]) {
				width[v] = ov[j].w;
				order[norder++] = v;
			}
			if (in->op == SC_OP_SHFL && ov[j].pos == 2)
				pinned[v] = 1;
			if (!ov[j].def)
				continue;
			FOR_BITS(x, out, W)
				if (x != v)
					EDGE(v, (uint32_t)x);
			for (unsigned i = 0; i < j; i++)
				if (ov[i].def && val_of(&lv, &ov[i]) != v)
					EDGE(v, val_of(&lv, &ov[i]));
		}
		/* copy partners: an unguarded whole-register move */
		if (in->op == SC_OP_MOV && SC_NDST(in) == 1 && SC_NSRC(in) == 1 && !(in->guard & SC_GUARD_ON) && k == 2 &&
		    ov[0].def && !ov[1].def && ov[0].pred == ov[1].pred && ov[0].w == ov[1].w) {
			uint32_t d = val_of(&lv, &ov[0]), s = val_of(&lv, &ov[1]);
			if (partner[d] == UINT32_MAX)
				partner[d] = s;
			if (partner[s] == UINT32_MAX)
				partner[s] = d;
		}
	}
	if (f->end_pc > f->entry_pc) {
		const uint64_t *ein = lv.in;
		for (uint32_t a = 0; a < nv; a++)
			if (bget(ein, a)) {
				r->stale |= !f->is_entry;
				for (uint32_t b = a + 1; b < nv; b++)
					if (bget(ein, b))
						EDGE(a, b);
			}
	}
	for (uint32_t v = 0; v < nv; v++)
		if (pinned[v]) {
			/* in a .func, the lanes a shuffle reads may not have made this
			 * call: the window must be the function's alone, as below */
			r->stale |= !f->is_entry;
			for (uint32_t x = 0; x < nv; x++)
				if (x != v && width[x])
					EDGE(v, x);
		}
#undef EDGE
	/* values of different classes never meet: the matrix rows of the two
	 * classes are coloured separately */
	r->nregs = colour(0, lv.nregs, adj, W, width, order, norder, partner, r->col, busy);
	r->npreds = colour(lv.nregs, lv.npreds, adj, W, width, order, norder, partner, r->col, busy);
	/* call sites: what stays live across each */
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
		r->ncalls += m->code[pc].op == SC_OP_CALL;
	r->calls = calloc(r->ncalls + 1, sizeof *r->calls);
	if (!r->calls)
		goto out;
	r->ncalls = 0;
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		const sc_insn_t *in = &m->code[pc];
		if (in->op != SC_OP_CALL)
			continue;
		int g = func_index_at(m, SC_BR_TARGET(in->imm));
		if (g < 0) {
			rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': call at pc %u to no function", f->name, pc);
			goto out;
		}
		const uint64_t *out = lv.out + (size_t)(pc - lv.lo) * W, *ein = lv.in;
		uint32_t hr = 0, hp = 0;
		for (uint32_t v = 0; v < nv; v++) {
			if (!bget(out, v) && !(!f->is_entry && bget(ein, v)))
				continue;
			if (r->col[v] == UINT32_MAX)
				continue;
			if (v < lv.nregs) {
				if (r->col[v] + width[v] > hr)
					hr = r->col[v] + width[v];
			} else if (r->col[v] + 1 > hp) {
				hp = r->col[v] + 1;
			}
		}
		r->calls[r->ncalls].pc = pc;
		r->calls[r->ncalls].callee = (uint32_t)g;
		r->calls[r->ncalls].hr = hr;
		r->calls[r->ncalls].hp = hp;
		r->ncalls++;
	}
	rc = 0;
out:
	free(width);
	free(adj);
	free(order);
	free(partner);
	free(pinned);
	free(busy);
	sc__live_free(&lv);
	return rc;
}

/* reach[i * nf + j]: function i can call j, directly or not. */
static bool *call_closure(const sc_module_t *m)
{
	uint32_t nf = m->nfuncs;
	bool *reach = calloc((size_t)nf * nf + 1, 1);
	if (!reach)
		return NULL;
	for (uint32_t i = 0; i < nf; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
			if (m->code[pc].op == SC_OP_CALL) {
				int g = func_index_at(m, SC_BR_TARGET(m->code[pc].imm));
				if (g >= 0)
					reach[(size_t)i * nf + (uint32_t)g] = true;
			}
	}
	for (uint32_t k = 0; k < nf; k++)
		for (uint32_t i = 0; i < nf; i++)
			if (reach[(size_t)i * nf + k])
				for (uint32_t j = 0; j < nf; j++)
					if (reach[(size_t)k * nf + j])
						reach[(size_t)i * nf + j] = true;
	return reach;
}

int sc__regalloc(sc_module_t *m, char *msg, size_t msgsz)
{
	uint32_t nf = m->nfuncs;
	int rc = SC_ENOMEM;
	fres_t *res = calloc(nf + 1, sizeof *res);
	bool *reach = NULL;
	m->code_ptx = malloc((m->ncode ? m->ncode : 1) * sizeof *m->code_ptx);
	if (!res || !m->code_ptx)
		goto out;
	memcpy(m->code_ptx, m->code, m->ncode * sizeof *m->code);
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		f->ptx_reg_base = f->reg_base;
		f->ptx_nregs = f->nregs;
		f->ptx_pred_base = f->pred_base;
		f->ptx_npreds = f->npreds;
		f->regs_ptx = f->regs_total;
		f->preds_ptx = f->preds_total;
		if (f->entry_pc == UINT32_MAX)
			continue;
		if ((rc = alloc_func(m, f, &res[i], msg, msgsz)))
			goto out;
	}
	if (!(reach = call_closure(m)))
		goto out;
	/* Window bases: callers first; the call graph is acyclic, so nf rounds
	 * of relaxation reach the fixed point. A .func that reads a value before
	 * writing it sees, in ptx mode, what it left there at its last call; so
	 * such a function gets a region above everything placed so far, which
	 * nothing but its own callees' windows (above the values it keeps) ever
	 * overlaps. Those are placed callers first, after each other. */
	uint32_t *rb = calloc(nf + 1, sizeof *rb), *pb = calloc(nf + 1, sizeof *pb);
	uint32_t *depth = calloc(nf + 1, sizeof *depth);
	bool *placed = calloc(nf + 1, sizeof *placed);
	if (!rb || !pb || !depth || !placed) {
		free(rb);
		free(pb);
		free(depth);
		free(placed);
		goto out;
	}
	for (uint32_t i = 0; i < nf; i++)
		for (uint32_t j = 0; j < nf; j++)
			depth[i] += reach[(size_t)j * nf + i]; /* callers of i: more than any caller has */
	for (;;) {
		for (uint32_t round = 0; round <= nf; round++)
			for (uint32_t i = 0; i < nf; i++)
				for (uint32_t c = 0; c < res[i].ncalls; c++) {
					uint32_t g = res[i].calls[c].callee;
					if (rb[i] + res[i].calls[c].hr > rb[g])
						rb[g] = rb[i] + res[i].calls[c].hr;
					if (pb[i] + res[i].calls[c].hp > pb[g])
						pb[g] = pb[i] + res[i].calls[c].hp;
				}
		int32_t next = -1;
		for (uint32_t i = 0; i < nf; i++)
			if (res[i].stale && !placed[i] && (next < 0 || depth[i] < depth[next]))
				next = (int32_t)i;
		if (next < 0)
			break;
		uint32_t top_r = 0, top_p = 0;
		for (uint32_t i = 0; i < nf; i++) {
			if (m->funcs[i].entry_pc == UINT32_MAX || (res[i].stale && !placed[i]))
				continue;
			top_r = rb[i] + res[i].nregs > top_r ? rb[i] + res[i].nregs : top_r;
			top_p = pb[i] + res[i].npreds > top_p ? pb[i] + res[i].npreds : top_p;
		}
		rb[next] = top_r > rb[next] ? top_r : rb[next];
		pb[next] = top_p > pb[next] ? top_p : pb[next];
		placed[next] = true;
	}
	free(depth);
	free(placed);
	uint32_t all_r = 0, all_p = 0;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		if (rb[i] + res[i].nregs > 0xfff || pb[i] + res[i].npreds > 0xfff) {
			free(rb);
			free(pb);
			rc = fail(msg, msgsz, SC_EPARSE, m, "'%s' needs more than %u register slots", f->name, 0xfff);
			goto out;
		}
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
			sc_insn_t *in = &m->code[pc];
			opv_t ov[8];
			unsigned k = insn_opvs(in, ov);
			for (unsigned j = 0; j < k; j++) {
				uint32_t v = ov[j].pred ? f->nregs + ov[j].idx - f->pred_base : (uint32_t)ov[j].idx - f->reg_base;
				opv_set(in, &ov[j], (ov[j].pred ? pb[i] : rb[i]) + res[i].col[v]);
			}
		}
		f->reg_base = rb[i];
		f->pred_base = pb[i];
		f->nregs = res[i].nregs;
		f->npreds = res[i].npreds;
		if (rb[i] + res[i].nregs > all_r)
			all_r = rb[i] + res[i].nregs;
		if (pb[i] + res[i].npreds > all_p)
			all_p = pb[i] + res[i].npreds;
	}
	free(rb);
	free(pb);
	m->nregs_all = all_r;
	m->npreds_all = all_p;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (!f->is_entry)
			continue;
		f->regs_total = f->reg_base + f->nregs;
		f->preds_total = f->pred_base + f->npreds;
		for (uint32_t j = 0; j < nf; j++)
			if (reach[(size_t)i * nf + j]) {
				const sc_func_t *g = &m->funcs[j];
				if (g->reg_base + g->nregs > f->regs_total)
					f->regs_total = g->reg_base + g->nregs;
				if (g->pred_base + g->npreds > f->preds_total)
					f->preds_total = g->pred_base + g->npreds;
			}
	}
	rc = sc__regalloc_verify(m, msg, msgsz);
out:
	if (res)
		for (uint32_t i = 0; i < nf; i++) {
			free(res[i].col);
			free(res[i].calls);
		}
	free(res);
	free(reach);
	if (rc == SC_ENOMEM && msg[0] == 0)
		snprintf(msg, msgsz, "%s: out of memory", m->name);
	return rc;
}

/* ---------------------------------------------------------------- checking */
enum { OW_TOP = 0xffffffffu, OW_ENTRY = 0xfffffffeu, OW_CONFLICT = 0xfffffffdu, OW_CLOBBER = 0xfffffffcu };

static uint32_t ow_meet(uint32_t a, uint32_t b)
{
	if (a == b || b == OW_TOP)
		return a;
	if (a == OW_TOP)
		return b;
	if (a == OW_ENTRY && b < OW_CLOBBER)
		return b;
	if (b == OW_ENTRY && a < OW_CLOBBER)
		return a;
	return OW_CONFLICT;
}

static int verify_func(const sc_module_t *m, const sc_func_t *f, const bool *reach, char *msg, size_t msgsz)
{
	sc_live_t lv;
	int rc = sc__live(m->code_ptx, f->entry_pc, f->end_pc, f->ptx_reg_base, f->ptx_nregs, f->ptx_pred_base,
	                  f->ptx_npreds, &lv);
	if (rc)
		return rc == SC_ENOMEM ? rc : fail(msg, msgsz, SC_EPARSE, m, "'%s': ptx operands outside the function", f->name);
	uint32_t nv = lv.nv, W = lv.words, n = f->end_pc - f->entry_pc;
	/* physical cells: the function's slots, then its predicates */
	uint32_t nr = f->nregs, ncell = f->nregs + f->npreds;
	uint32_t *map = malloc((nv + 1) * sizeof *map);
	uint8_t *width = calloc(nv + 1, 1);
	uint32_t *stamp = calloc(ncell + 1, sizeof *stamp);
	uint32_t *own = malloc(((size_t)n * ncell + 1) * sizeof *own);
	uint32_t *cur = malloc((ncell + 1) * sizeof *cur);
	uint32_t *work = malloc((n + 1) * sizeof *work);
	uint8_t *queued = calloc(n + 1, 1);
	uint64_t *both = malloc(W * sizeof *both);
	rc = SC_ENOMEM;
	if (!map || !width || !stamp || !own || !cur || !work || !queued || !both)
		goto out;
	for (uint32_t v = 0; v < nv; v++)
		map[v] = UINT32_MAX;
	/* the map from values to cells, the same at every operand */
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		opv_t a[8], b[8];
		unsigned ka = insn_opvs(&m->code_ptx[pc], a), kb = insn_opvs(&m->code[pc], b);
		if (ka != kb) {
			rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': operands changed at pc %u", f->name, pc);
			goto out;
		}
		for (unsigned j = 0; j < ka; j++) {
			uint32_t v = val_of(&lv, &a[j]);
			uint32_t base = b[j].pred ? f->pred_base : f->reg_base, lim = b[j].pred ? f->npreds : f->nregs;
			if (b[j].pred != a[j].pred || b[j].w != a[j].w || b[j].idx < base || b[j].idx + b[j].w > base + lim) {
				rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': operand out of the function's slots at pc %u", f->name, pc);
				goto out;
			}
			uint32_t c = b[j].idx - base + (b[j].pred ? nr : 0);
			if (map[v] != UINT32_MAX && map[v] != c) {
				rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': a value sits in two places at pc %u", f->name, pc);
				goto out;
			}
			map[v] = c;
			width[v] = a[j].w;
		}
	}
	/* 1. values live at the same reachable point never overlap (code no
	 * path reaches never runs: values read there without a definition
	 * interfere with nothing, and may share a slot) */
	uint32_t nr_reach = 0;
	if (n) {
		work[nr_reach++] = 0;
		queued[0] = 1;
	}
	while (nr_reach) {
		uint32_t i = work[--nr_reach], sv[2];
		unsigned ns = succs(m->code_ptx, f->entry_pc, f->end_pc, f->entry_pc + i, sv);
		for (unsigned j = 0; j < ns; j++)
			if (!queued[sv[j] - f->entry_pc]) {
				queued[sv[j] - f->entry_pc] = 1;
				work[nr_reach++] = sv[j] - f->entry_pc;
			}
	}
	uint32_t tick = 0;
	for (uint32_t pc = f->entry_pc; pc <= f->end_pc && n; pc++) {
		if (pc < f->end_pc && !queued[pc - f->entry_pc])
			continue;
		/* pc == end_pc stands for the entry's live-in set */
		const uint64_t *set = pc == f->end_pc ? lv.in : lv.out + (size_t)(pc - f->entry_pc) * W;
		memcpy(both, set, W * sizeof *both);
		opv_t ov[8];
		unsigned k = pc == f->end_pc ? 0 : insn_opvs(&m->code_ptx[pc], ov);
		for (unsigned j = 0; j < k; j++)
			if (ov[j].def)
				bset(both, val_of(&lv, &ov[j]));
		tick++;
		FOR_BITS(v, both, W) {
			if (map[v] == UINT32_MAX)
				continue; /* live but never named here: cannot happen */
			for (uint32_t s = 0; s < width[v]; s++) {
				if (stamp[map[v] + s] == tick) {
					rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': two values live at pc %u share %s %u", f->name,
					          pc == f->end_pc ? f->entry_pc : pc, map[v] >= nr ? "predicate" : "slot",
					          (uint32_t)(map[v] + s - (map[v] >= nr ? nr : 0)));
					goto out;
				}
				stamp[map[v] + s] = tick;
			}
		}
	}
	/* 2. a .func's values read before written keep, as in ptx mode, what
	 * its last call left: no other function may own those slots */
	for (uint32_t v = 0; v < nv && !f->is_entry && n; v++) {
		if (!bget(lv.in, v) || map[v] == UINT32_MAX)
			continue;
		bool pred = map[v] >= nr;
		uint32_t lo = pred ? f->pred_base + map[v] - nr : f->reg_base + map[v], hi = lo + width[v];
		for (uint32_t j = 0; j < m->nfuncs; j++) {
			const sc_func_t *h = &m->funcs[j];
			if (h == f || h->entry_pc == UINT32_MAX)
				continue;
			uint32_t hb = pred ? h->pred_base : h->reg_base, hn = pred ? h->npreds : h->nregs;
			if (lo < hb + hn && hb < hi) {
				rc = fail(msg, msgsz, SC_EPARSE, m, "'%s' reads %s %u before writing it, and '%s' uses it too",
				          f->name, pred ? "predicate" : "slot", lo, h->name);
				goto out;
			}
		}
	}
	/* 3. forward: the value that last wrote each cell; every read must find
	 * its own value (or the zero a CTA starts with) */
	for (size_t i = 0; i < (size_t)n * ncell; i++)
		own[i] = OW_TOP;
	memset(queued, 0, n + 1);
	uint32_t nw = 0;
	if (n) {
		for (uint32_t c = 0; c < ncell; c++)
			own[c] = OW_ENTRY;
		work[nw++] = 0;
		queued[0] = 1;
	}
	while (nw) {
		uint32_t i = work[--nw], pc = f->entry_pc + i;
		queued[i] = 0;
		memcpy(cur, own + (size_t)i * ncell, ncell * sizeof *cur);
		const sc_insn_t *in = &m->code_ptx[pc];
		opv_t ov[8];
		unsigned k = insn_opvs(in, ov);
		for (unsigned j = 0; j < k; j++) {
			if (ov[j].def)
				continue;
			uint32_t v = val_of(&lv, &ov[j]);
			for (uint32_t s = 0; s < width[v]; s++) {
				uint32_t o = cur[map[v] + s];
				if (o != v && o != OW_ENTRY && o != OW_TOP) {
					rc = fail(msg, msgsz, SC_EPARSE, m, "'%s': pc %u reads a value from %s %u, which %s", f->name, pc,
					          map[v] >= nr ? "predicate" : "slot", map[v] + s - (map[v] >= nr ? nr : 0),
					          o == OW_CLOBBER ? "a call overwrote" : o == OW_CONFLICT ? "other values may have written"
					                                                                   : "another value wrote");
					goto out;
				}
			}
		}
		bool guarded = in->guard & SC_GUARD_ON;
		for (unsigned j = 0; j < k; j++) {
			if (!ov[j].def)
				continue;
			uint32_t v = val_of(&lv, &ov[j]);
			for (uint32_t s = 0; s < width[v]; s++)
				cur[map[v] + s] = guarded ? ow_meet(cur[map[v] + s], v) : v;
		}
		if (in->op == SC_OP_CALL) {
			int g = func_index_at(m, SC_BR_TARGET(in->imm));
			uint32_t fi = (uint32_t)(f - m->funcs);
			for (uint32_t j = 0; g >= 0 && j < m->nfuncs; j++) {
				if (j != (uint32_t)g && !reach[(size_t)g * m->nfuncs + j])
					continue;
				const sc_func_t *h = &m->funcs[j];
				if (j == fi)
					continue;
				for (uint32_t s = h->reg_base; s < h->reg_base + h->nregs; s++)
					if (s >= f->reg_base && s < f->reg_base + nr)
						cur[s - f->reg_base] = OW_CLOBBER;
				for (uint32_t s = h->pred_base; s < h->pred_base + h->npreds; s++)
					if (s >= f->pred_base && s < f->pred_base + f->npreds)
						cur[nr + s - f->pred_base] = OW_CLOBBER;
			}
		}
		uint32_t sv[2];
		unsigned ns = succs(m->code_ptx, f->entry_pc, f->end_pc, pc, sv);
		for (unsigned j = 0; j < ns; j++) {
			uint32_t t = sv[j] - f->entry_pc;
			uint32_t *to = own + (size_t)t * ncell;
			bool ch = false;
			for (uint32_t c = 0; c < ncell; c++) {
				uint32_t x = ow_meet(to[c], cur[c]);
				if (x != to[c]) {
					to[c] = x;
					ch = true;
				}
			}
			if (ch && !queued[t]) {
				queued[t] = 1;
				work[nw++] = t;
			}
		}
	}
	rc = 0;
out:
	free(map);
	free(width);
	free(stamp);
	free(own);
	free(cur);
	free(work);
	free(queued);
	free(both);
	sc__live_free(&lv);
	return rc;
}

int sc__regalloc_verify(const sc_module_t *m, char *msg, size_t msgsz)
{
	if (!m->code_ptx)
		return SC_EINVAL;
	bool *reach = call_closure(m);
	if (!reach)
		return SC_ENOMEM;
	int rc = 0;
	for (uint32_t i = 0; i < m->nfuncs && !rc; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc != UINT32_MAX && f->end_pc > f->entry_pc)
			rc = verify_func(m, f, reach, msg, msgsz);
	}
	free(reach);
	return rc;
}
