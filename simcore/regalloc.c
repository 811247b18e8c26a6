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
 * ptx-mode code is kept for that check and for the ptx-mode counts, and
 * each function's map from values to slots (f->vslot) so that a fault site
 * can name the virtual register a slot holds (sc__vreg_at, at the end). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

/* ---------------------------------------------------------------- operands */
/* The register operands of an instruction and their roles come from the
 * instruction table (sc__insn_regs, isa.c). */
typedef sc_regref_t opv_t;

static unsigned insn_opvs(const sc_insn_t *in, opv_t *v) { return sc__insn_regs(in, v); }

static void opv_set(sc_insn_t *in, const opv_t *o, uint32_t idx)
{
	if (o->pos == 6)
		in->guard = SC_GUARD_WITH(in->guard, idx);
	else
		sc__set_opnd(in, o->pos, SC_OPND(SC_OPND_KIND(in->opnd[o->pos]), idx));
}

/* Successors of pc within [lo, hi): returns how many (0 to 2). */
static unsigned succs(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t pc, uint32_t s[2])
{
	const sc_insn_t *in = &code[pc];
	unsigned n = 0;
	if (sc__insn_jumps(in)) {
		uint32_t t = SC_BR_TARGET(in->imm);
		if (t >= lo && t < hi)
			s[n++] = t;
	}
	if (sc__insn_falls(in) && pc + 1 < hi && (n == 0 || s[0] != pc + 1))
		s[n++] = pc + 1;
	return n;
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

/* One backward pass over [lo, hi) in reverse pc order; nin: scratch.
 * Returns whether a live-in set changed. */
static bool live_pass(const sc_insn_t *code, sc_live_t *lv, uint64_t *nin)
{
	uint32_t W = lv->words, lo = lv->lo;
	bool changed = false;
	for (uint32_t pc = lv->hi; pc-- > lo;) {
		uint64_t *in = lv->in + (size_t)(pc - lo) * W, *out = lv->out + (size_t)(pc - lo) * W;
		uint32_t s[2];
		unsigned ns = succs(code, lo, lv->hi, pc, s);
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
	return changed;
}

int sc__live(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t reg_base, uint32_t nregs, uint32_t pred_base,
             uint32_t npreds, sc_live_t *lv)
{
	*lv = (sc_live_t){.lo = lo, .hi = hi, .reg_base = reg_base, .nregs = nregs, .pred_base = pred_base,
	                  .npreds = npreds, .nv = nregs + npreds};
	lv->words = (lv->nv + 63) / 64;
	if (lv->words == 0)
		lv->words = 1;
	size_t n = (size_t)(hi - lo) * lv->words;
	lv->in = calloc(n ? n : 1, sizeof *lv->in);
	lv->out = calloc(n ? n : 1, sizeof *lv->out);
	uint64_t *nin = malloc(lv->words * sizeof *nin);
	int rc = SC_ENOMEM;
	if (!lv->in || !lv->out || !nin)
		goto fail;
	rc = SC_EINVAL;
	for (uint32_t pc = lo; pc < hi; pc++) {
		opv_t ov[8];
		unsigned k = insn_opvs(&code[pc], ov);
		for (unsigned j = 0; j < k; j++)
			if (val_of(lv, &ov[j]) == UINT32_MAX)
				goto fail;
	}
	/* Backward passes until nothing changes: loops need a pass per
	 * nesting level or so. */
	while (live_pass(code, lv, nin))
		;
	free(nin);
	return 0;
fail:
	free(nin);
	sc__live_free(lv);
	return rc;
}

/* ---------------------------------------------------------------- allocation */
typedef struct fres {
	uint32_t nregs, npreds;      /* allocated slots / predicates */
	uint32_t *col;               /* value -> local slot or predicate, UINT32_MAX unused */
	uint8_t *width;              /* value -> slots it takes (0: never named) */
	uint32_t ncalls;
	struct { uint32_t pc, callee, hr, hp; } *calls;
	bool stale;                  /* a .func reading a value before writing it */
} fres_t;

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
 * own width, and a function has at most SC_IDX_LIMIT slots; one more for a
 * pair. */
#define BUSY_SLOTS (SC_IDX_LIMIT + 2)

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
		memset(busy, 0, top + 2); /* what a colour below top + 2 can see */
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

/* One function's allocation under way. */
typedef struct actx {
	const sc_module_t *m;
	const sc_func_t *f;
	fres_t *r;
	sc_live_t lv;
	uint32_t nv, W;
	uint8_t *width;      /* value -> slots (0: never named) */
	uint64_t *adj;       /* interference matrix, W words per value */
	uint32_t *order;     /* values by first appearance */
	uint32_t norder;
	uint32_t *partner;   /* a mov partner, or UINT32_MAX */
	uint8_t *pinned, *busy;
	char *msg;
	size_t msgsz;
} actx_t;

static void edge(actx_t *a, uint32_t x, uint32_t y)
{
	bset(a->adj + (size_t)x * a->W, y);
	bset(a->adj + (size_t)y * a->W, x);
}

/* The operands of pc: widths, order, pinned values, and the edges of its
 * definitions with what is live after it and with each other. */
static int interfere_at(actx_t *a, uint32_t pc)
{
	const sc_insn_t *in = &a->m->code[pc];
	opv_t ov[8];
	unsigned k = insn_opvs(in, ov);
	const uint64_t *out = a->lv.out + (size_t)(pc - a->lv.lo) * a->W;
	for (unsigned j = 0; j < k; j++) {
		uint32_t v = val_of(&a->lv, &ov[j]);
		if (a->width[v] && a->width[v] != ov[j].w)
			return fail(a->msg, a->msgsz, SC_EPARSE, a->m, "'%s': register slot %u is read at two widths", a->f->name,
			            ov[j].idx);
		if (!a->width[v]) {
			a->width[v] = ov[j].w;
			a->order[a->norder++] = v;
		}
		if (ov[j].xlane)
			a->pinned[v] = 1;
		if (!ov[j].def)
			continue;
		FOR_BITS(x, out, a->W)
			if (x != v)
				edge(a, v, (uint32_t)x);
		for (unsigned i = 0; i < j; i++)
			if (ov[i].def && val_of(&a->lv, &ov[i]) != v)
				edge(a, v, val_of(&a->lv, &ov[i]));
	}
	/* copy partners: an unguarded whole-register move */
	if (in->op == SC_OP_MOV && SC_NDST(in) == 1 && SC_NSRC(in) == 1 && !(in->guard & SC_GUARD_ON) && k == 2 &&
	    ov[0].def && !ov[1].def && ov[0].pred == ov[1].pred && ov[0].w == ov[1].w) {
		uint32_t d = val_of(&a->lv, &ov[0]), s = val_of(&a->lv, &ov[1]);
		if (a->partner[d] == UINT32_MAX)
			a->partner[d] = s;
		if (a->partner[s] == UINT32_MAX)
			a->partner[s] = d;
	}
	return 0;
}

/* Values live at the entry interfere with each other (a .func reading
 * one is stale, but for the frame pointer the call writes); a pinned value
 * with everything (in a .func, the lanes a shuffle reads may not have made
 * this call: the window must be the function's alone, as for stale
 * values). */
static void entry_and_pinned_edges(actx_t *a)
{
	uint32_t nv = a->nv;
	bool is_func = !a->f->is_entry;
	if (a->f->end_pc > a->f->entry_pc) {
		const uint64_t *ein = a->lv.in;
		for (uint32_t x = 0; x < nv; x++)
			if (bget(ein, x)) {
				a->r->stale |= is_func && x != sc__frame_value(a->f);
				for (uint32_t y = x + 1; y < nv; y++)
					if (bget(ein, y))
						edge(a, x, y);
			}
	}
	for (uint32_t v = 0; v < nv; v++)
		if (a->pinned[v]) {
			a->r->stale |= is_func;
			for (uint32_t x = 0; x < nv; x++)
				if (x != v && a->width[x])
					edge(a, v, x);
		}
}

/* The highest register slot and predicate (+1) of the values live across
 * the call at pc (for a .func, also those live at its entry). */
static void live_across(const actx_t *a, uint32_t pc, uint32_t *hr, uint32_t *hp)
{
	const uint64_t *out = a->lv.out + (size_t)(pc - a->lv.lo) * a->W, *ein = a->lv.in;
	const uint32_t *col = a->r->col;
	*hr = *hp = 0;
	for (uint32_t v = 0; v < a->nv; v++) {
		if (!bget(out, v) && !(!a->f->is_entry && bget(ein, v)))
			continue;
		if (col[v] == UINT32_MAX)
			continue;
		if (v < a->lv.nregs) {
			if (col[v] + a->width[v] > *hr)
				*hr = col[v] + a->width[v];
		} else if (col[v] + 1 > *hp) {
			*hp = col[v] + 1;
		}
	}
}

/* The call sites of the function and what stays live across each. */
static int call_sites(actx_t *a)
{
	const sc_module_t *m = a->m;
	fres_t *r = a->r;
	uint32_t *tg = malloc((m->nfuncs + 1) * sizeof *tg);
	if (!tg)
		return SC_ENOMEM;
	for (uint32_t pc = a->f->entry_pc; pc < a->f->end_pc; pc++)
		r->ncalls += m->code[pc].op == SC_OP_CALL ? sc__call_targets(m, &m->code[pc], tg) : 0;
	r->calls = calloc(r->ncalls + 1, sizeof *r->calls);
	if (!r->calls) {
		free(tg);
		return SC_ENOMEM;
	}
	r->ncalls = 0;
	for (uint32_t pc = a->f->entry_pc; pc < a->f->end_pc; pc++) {
		if (m->code[pc].op != SC_OP_CALL)
			continue;
		/* an indirect call: an edge to each function it may enter; a
		 * call that saves the caller's live values (call.c) lets the
		 * callee's window overlap the caller's */
		uint32_t n = sc__call_targets(m, &m->code[pc], tg), hr = 0, hp = 0;
		if (!n && m->code[pc].sub != SC_CALL_DYN) {
			free(tg);
			return fail(a->msg, a->msgsz, SC_EPARSE, m, "'%s': call at pc %u to no function", a->f->name, pc);
		}
		if (!sc__call_saves(m, &m->code[pc]))
			live_across(a, pc, &hr, &hp);
		for (uint32_t t = 0; t < n; t++) {
			r->calls[r->ncalls].pc = pc;
			r->calls[r->ncalls].callee = tg[t];
			r->calls[r->ncalls].hr = hr;
			r->calls[r->ncalls].hp = hp;
			r->ncalls++;
		}
	}
	free(tg);
	return 0;
}

static int alloc_func(const sc_module_t *m, const sc_func_t *f, fres_t *r, char *msg, size_t msgsz)
{
	actx_t a = {.m = m, .f = f, .r = r, .msg = msg, .msgsz = msgsz};
	int rc = sc__live(m->code, f->entry_pc, f->end_pc, f->reg_base, f->nregs, f->pred_base, f->npreds, &a.lv);
	if (rc)
		return rc == SC_ENOMEM ? rc : fail(msg, msgsz, SC_EPARSE, m, "'%s': operand outside the function's registers", f->name);
	uint32_t nv = a.nv = a.lv.nv;
	a.W = a.lv.words;
	a.width = calloc(nv + 1, 1);
	a.adj = calloc((size_t)nv * a.W + 1, sizeof *a.adj);
	a.order = malloc((nv + 1) * sizeof *a.order);
	a.partner = malloc((nv + 1) * sizeof *a.partner);
	a.pinned = calloc(nv + 1, 1);
	a.busy = malloc(BUSY_SLOTS + 1);
	r->col = malloc((nv + 1) * sizeof *r->col);
	rc = SC_ENOMEM;
	if (!a.width || !a.adj || !a.order || !a.partner || !a.pinned || !a.busy || !r->col)
		goto out;
	for (uint32_t v = 0; v < nv; v++) {
		a.partner[v] = UINT32_MAX;
		r->col[v] = UINT32_MAX;
	}
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
		if ((rc = interfere_at(&a, pc)))
			goto out;
	entry_and_pinned_edges(&a);
	/* values of different classes never meet: the matrix rows of the two
	 * classes are coloured separately */
	r->nregs = colour(0, a.lv.nregs, a.adj, a.W, a.width, a.order, a.norder, a.partner, r->col, a.busy);
	r->npreds = colour(a.lv.nregs, a.lv.npreds, a.adj, a.W, a.width, a.order, a.norder, a.partner, r->col, a.busy);
	rc = call_sites(&a);
	r->width = a.width; /* sc__vreg_at needs it: kept in f->vslot */
	a.width = NULL;
out:
	free(a.width);
	free(a.adj);
	free(a.order);
	free(a.partner);
	free(a.pinned);
	free(a.busy);
	sc__live_free(&a.lv);
	return rc;
}

bool *sc__call_closure(const sc_module_t *m)
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
				uint32_t tg[m->nfuncs + 1], n = sc__call_targets(m, &m->code[pc], tg);
				for (uint32_t t = 0; t < n; t++)
					reach[(size_t)i * nf + tg[t]] = true;
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

/* Window bases rb[], pb[]: callers first; the call graph is acyclic, so
 * nf rounds of relaxation reach the fixed point. A .func that reads a
 * value before writing it sees, in ptx mode, what it left there at its
 * last call; so such a function gets a region above everything placed so
 * far, which nothing but its own callees' windows (above the values it
 * keeps) ever overlaps. Those are placed callers first, after each other
 * (place_windows, which returns 0 or SC_ENOMEM). */
static void relax_windows(const sc_module_t *m, const fres_t *res, uint32_t *rb, uint32_t *pb)
{
	uint32_t nf = m->nfuncs;
	for (uint32_t round = 0; round <= nf; round++)
		for (uint32_t i = 0; i < nf; i++)
			for (uint32_t c = 0; c < res[i].ncalls; c++) {
				uint32_t g = res[i].calls[c].callee;
				if (rb[i] + res[i].calls[c].hr > rb[g])
					rb[g] = rb[i] + res[i].calls[c].hr;
				if (pb[i] + res[i].calls[c].hp > pb[g])
					pb[g] = pb[i] + res[i].calls[c].hp;
			}
}

static int place_windows(const sc_module_t *m, const fres_t *res, const bool *reach, uint32_t *rb, uint32_t *pb)
{
	uint32_t nf = m->nfuncs;
	uint32_t *depth = calloc(nf + 1, sizeof *depth);
	bool *placed = calloc(nf + 1, sizeof *placed);
	if (!depth || !placed) {
		free(depth);
		free(placed);
		return SC_ENOMEM;
	}
	for (uint32_t i = 0; i < nf; i++)
		for (uint32_t j = 0; j < nf; j++)
			depth[i] += reach[(size_t)j * nf + i]; /* callers of i: more than any caller has */
	for (;;) {
		relax_windows(m, res, rb, pb);
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
	return 0;
}

/* Keeps, in f->vslot, where each ptx value of f went (sc__vreg_at).
 * Returns 0 or SC_ENOMEM. */
static int keep_vslots(sc_func_t *f, const fres_t *r, uint32_t rb, uint32_t pb)
{
	uint32_t nv = f->ptx_nregs + f->ptx_npreds;
	if (!(f->vslot = malloc((nv + 1) * sizeof *f->vslot)))
		return SC_ENOMEM;
	for (uint32_t v = 0; v < nv; v++) {
		if (r->col[v] == UINT32_MAX || !r->width[v])
			f->vslot[v] = SC_VSLOT_NONE;
		else
			f->vslot[v] = (uint16_t)(((v < f->ptx_nregs ? rb : pb) + r->col[v]) |
			                         (r->width[v] == 2 ? SC_VSLOT_PAIR : 0));
	}
	return 0;
}

/* Renumbers function i's operands into its window rb/pb. */
static void rewrite_func(sc_module_t *m, uint32_t i, const fres_t *r, uint32_t rb, uint32_t pb)
{
	sc_func_t *f = &m->funcs[i];
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		sc_insn_t *in = &m->code[pc];
		opv_t ov[8];
		unsigned k = insn_opvs(in, ov);
		for (unsigned j = 0; j < k; j++) {
			uint32_t v = ov[j].pred ? f->nregs + ov[j].idx - f->pred_base : (uint32_t)ov[j].idx - f->reg_base;
			opv_set(in, &ov[j], (ov[j].pred ? pb : rb) + r->col[v]);
		}
	}
	if (f->has_fp) { /* the frame pointer call.c writes: where its value went */
		uint32_t v = sc__frame_value(f);
		f->has_fp = r->col[v] != UINT32_MAX && r->width[v];
		f->fp_slot = f->has_fp ? rb + r->col[v] : 0;
	}
	f->reg_base = rb;
	f->pred_base = pb;
	f->nregs = r->nregs;
	f->npreds = r->npreds;
}

/* A kernel's registers per thread: the highest slot of itself and of
 * everything it can call. */
static void alloc_totals(sc_module_t *m, const bool *reach)
{
	uint32_t nf = m->nfuncs;
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
}

/* Keeps the ptx-mode code (the ptx-mode numbers, ptx_* and *_ptx, are
 * set by sc__ptx_load in both modes), and colours every function. */
static int alloc_all(sc_module_t *m, fres_t *res, char *msg, size_t msgsz)
{
	m->code_ptx = malloc((m->ncode ? m->ncode : 1) * sizeof *m->code_ptx);
	if (!m->code_ptx)
		return SC_ENOMEM;
	memcpy(m->code_ptx, m->code, m->ncode * sizeof *m->code);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const sc_func_t *f = &m->funcs[i];
		int rc;
		if (f->entry_pc != UINT32_MAX && (rc = alloc_func(m, f, &res[i], msg, msgsz)))
			return rc;
	}
	return 0;
}

/* The windows into the code: every function's operands renumbered. */
static int rewrite_all(sc_module_t *m, const fres_t *res, const uint32_t *rb, const uint32_t *pb, char *msg,
                       size_t msgsz)
{
	uint32_t all_r = 0, all_p = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		if (rb[i] + res[i].nregs > SC_IDX_LIMIT || pb[i] + res[i].npreds > SC_IDX_LIMIT)
			return fail(msg, msgsz, SC_EPARSE, m, "'%s' needs more than %u register slots or predicates (the limit "
			            "of the instruction encoding)", f->name, SC_IDX_LIMIT);
		if (keep_vslots(f, &res[i], rb[i], pb[i]))
			return SC_ENOMEM;
		rewrite_func(m, i, &res[i], rb[i], pb[i]);
		all_r = rb[i] + res[i].nregs > all_r ? rb[i] + res[i].nregs : all_r;
		all_p = pb[i] + res[i].npreds > all_p ? pb[i] + res[i].npreds : all_p;
	}
	m->nregs_all = all_r;
	m->npreds_all = all_p;
	return 0;
}

int sc__regalloc(sc_module_t *m, char *msg, size_t msgsz)
{
	uint32_t nf = m->nfuncs;
	fres_t *res = calloc(nf + 1, sizeof *res);
	uint32_t *rb = calloc(nf + 1, sizeof *rb), *pb = calloc(nf + 1, sizeof *pb);
	bool *reach = NULL;
	int rc = SC_ENOMEM;
	if (!res || !rb || !pb)
		goto out;
	if ((rc = alloc_all(m, res, msg, msgsz)))
		goto out;
	rc = SC_ENOMEM;
	if (!(reach = sc__call_closure(m)) || place_windows(m, res, reach, rb, pb))
		goto out;
	if ((rc = rewrite_all(m, res, rb, pb, msg, msgsz)))
		goto out;
	alloc_totals(m, reach);
	rc = sc__regalloc_verify(m, msg, msgsz);
out:
	if (res)
		for (uint32_t i = 0; i < nf; i++) {
			free(res[i].col);
			free(res[i].width);
			free(res[i].calls);
		}
	free(res);
	free(rb);
	free(pb);
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

/* One function's check under way: its values (by the ptx-mode code)
 * and the physical cells they sit in (its slots, then its predicates). */
typedef struct vctx {
	const sc_module_t *m;
	const sc_func_t *f;
	const bool *reach;
	sc_live_t lv;
	uint32_t nv, W, n;   /* values, words per set, pcs */
	uint32_t nr, ncell;  /* slots, cells */
	uint32_t *map;       /* value -> first cell */
	uint8_t *width;      /* value -> cells */
	uint32_t *stamp;     /* cell -> tick of its last claim */
	uint32_t *own;       /* per pc, per cell: the value that last wrote it */
	uint32_t *cur;       /* one pc's own[] */
	uint32_t *work;      /* worklist of pcs */
	uint8_t *queued;
	uint64_t *both;
	char *msg;
	size_t msgsz;
} vctx_t;

/* The map from values to cells, the same at every operand. */
static int verify_map(vctx_t *v)
{
	const sc_module_t *m = v->m;
	const sc_func_t *f = v->f;
	for (uint32_t x = 0; x < v->nv; x++)
		v->map[x] = UINT32_MAX;
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		opv_t a[8], b[8];
		unsigned ka = insn_opvs(&m->code_ptx[pc], a), kb = insn_opvs(&m->code[pc], b);
		if (ka != kb)
			return fail(v->msg, v->msgsz, SC_EPARSE, m, "'%s': operands changed at pc %u", f->name, pc);
		for (unsigned j = 0; j < ka; j++) {
			uint32_t x = val_of(&v->lv, &a[j]);
			uint32_t base = b[j].pred ? f->pred_base : f->reg_base, lim = b[j].pred ? f->npreds : f->nregs;
			if (b[j].pred != a[j].pred || b[j].w != a[j].w || b[j].idx < base || b[j].idx + b[j].w > base + lim)
				return fail(v->msg, v->msgsz, SC_EPARSE, m, "'%s': operand out of the function's slots at pc %u",
				            f->name, pc);
			uint32_t c = b[j].idx - base + (b[j].pred ? v->nr : 0);
			if (v->map[x] != UINT32_MAX && v->map[x] != c)
				return fail(v->msg, v->msgsz, SC_EPARSE, m, "'%s': a value sits in two places at pc %u", f->name, pc);
			v->map[x] = c;
			v->width[x] = a[j].w;
		}
	}
	return 0;
}

/* queued[i]: pc entry + i is reachable from the entry. */
static void verify_reach(vctx_t *v)
{
	uint32_t nw = 0, lo = v->f->entry_pc;
	if (v->n) {
		v->work[nw++] = 0;
		v->queued[0] = 1;
	}
	while (nw) {
		uint32_t i = v->work[--nw], sv[2];
		unsigned ns = succs(v->m->code_ptx, lo, v->f->end_pc, lo + i, sv);
		for (unsigned j = 0; j < ns; j++)
			if (!v->queued[sv[j] - lo]) {
				v->queued[sv[j] - lo] = 1;
				v->work[nw++] = sv[j] - lo;
			}
	}
}

/* 1. Values live at the same reachable point never overlap (code no path
 * reaches never runs: values read there without a definition interfere
 * with nothing, and may share a slot). */
static int verify_overlap(vctx_t *v)
{
	const sc_func_t *f = v->f;
	uint32_t tick = 0, nr = v->nr;
	verify_reach(v);
	for (uint32_t pc = f->entry_pc; pc <= f->end_pc && v->n; pc++) {
		if (pc < f->end_pc && !v->queued[pc - f->entry_pc])
			continue;
		/* pc == end_pc stands for the entry's live-in set */
		const uint64_t *set = pc == f->end_pc ? v->lv.in : v->lv.out + (size_t)(pc - f->entry_pc) * v->W;
		memcpy(v->both, set, v->W * sizeof *v->both);
		opv_t ov[8];
		unsigned k = pc == f->end_pc ? 0 : insn_opvs(&v->m->code_ptx[pc], ov);
		for (unsigned j = 0; j < k; j++)
			if (ov[j].def)
				bset(v->both, val_of(&v->lv, &ov[j]));
		tick++;
		FOR_BITS(x, v->both, v->W) {
			if (v->map[x] == UINT32_MAX)
				continue; /* live but never named here: cannot happen */
			for (uint32_t s = 0; s < v->width[x]; s++) {
				uint32_t c = v->map[x] + s;
				if (v->stamp[c] == tick)
					return fail(v->msg, v->msgsz, SC_EPARSE, v->m, "'%s': two values live at pc %u share %s %u",
					            f->name, pc == f->end_pc ? f->entry_pc : pc, v->map[x] >= nr ? "predicate" : "slot",
					            c - (v->map[x] >= nr ? nr : 0));
				v->stamp[c] = tick;
			}
		}
	}
	return 0;
}

/* 2. A .func's values read before written keep, as in ptx mode, what its
 * last call left: no other function may own those slots. */
static int verify_stale(vctx_t *v)
{
	const sc_module_t *m = v->m;
	const sc_func_t *f = v->f;
	for (uint32_t x = 0; x < v->nv && !f->is_entry && v->n; x++) {
		if (!bget(v->lv.in, x) || v->map[x] == UINT32_MAX || x == sc__frame_value(f))
			continue;
		bool pred = v->map[x] >= v->nr;
		uint32_t lo = pred ? f->pred_base + v->map[x] - v->nr : f->reg_base + v->map[x], hi = lo + v->width[x];
		for (uint32_t j = 0; j < m->nfuncs; j++) {
			const sc_func_t *h = &m->funcs[j];
			if (h == f || h->entry_pc == UINT32_MAX)
				continue;
			uint32_t hb = pred ? h->pred_base : h->reg_base, hn = pred ? h->npreds : h->nregs;
			if (lo < hb + hn && hb < hi)
				return fail(v->msg, v->msgsz, SC_EPARSE, m, "'%s' reads %s %u before writing it, and '%s' uses it too",
				            f->name, pred ? "predicate" : "slot", lo, h->name);
		}
	}
	return 0;
}

/* Every read of `in` finds its own value in its cells (or what the entry
 * left, or nothing yet). */
static int verify_reads(vctx_t *v, uint32_t pc, const opv_t *ov, unsigned k)
{
	for (unsigned j = 0; j < k; j++) {
		if (ov[j].def)
			continue;
		uint32_t x = val_of(&v->lv, &ov[j]);
		for (uint32_t s = 0; s < v->width[x]; s++) {
			uint32_t c = v->map[x] + s, o = v->cur[c];
			if (o != x && o != OW_ENTRY && o != OW_TOP)
				return fail(v->msg, v->msgsz, SC_EPARSE, v->m, "'%s': pc %u reads a value from %s %u, which %s",
				            v->f->name, pc, v->map[x] >= v->nr ? "predicate" : "slot", c - (v->map[x] >= v->nr ? v->nr : 0),
				            o == OW_CLOBBER ? "a call overwrote" : o == OW_CONFLICT ? "other values may have written"
				                                                                    : "another value wrote");
		}
	}
	return 0;
}

/* A call clobbers the cells of the callee and of everything it reaches. */
static void verify_clobber(vctx_t *v, const sc_insn_t *in)
{
	const sc_module_t *m = v->m;
	const sc_func_t *f = v->f;
	uint32_t fi = (uint32_t)(f - m->funcs), tg[m->nfuncs + 1], n = sc__call_targets(m, in, tg);
	if (sc__call_saves(m, in)) /* the caller's live values come back from the call stack */
		return;
	for (uint32_t j = 0; n && j < m->nfuncs; j++) {
		bool hit = false;
		for (uint32_t t = 0; t < n; t++)
			hit = hit || j == tg[t] || v->reach[(size_t)tg[t] * m->nfuncs + j];
		if (!hit || j == fi)
			continue;
		const sc_func_t *h = &m->funcs[j];
		for (uint32_t s = h->reg_base; s < h->reg_base + h->nregs; s++)
			if (s >= f->reg_base && s < f->reg_base + v->nr)
				v->cur[s - f->reg_base] = OW_CLOBBER;
		for (uint32_t s = h->pred_base; s < h->pred_base + h->npreds; s++)
			if (s >= f->pred_base && s < f->pred_base + f->npreds)
				v->cur[v->nr + s - f->pred_base] = OW_CLOBBER;
	}
}

/* Meets cur into the successors of pc, queueing those that changed. */
static void verify_flow(vctx_t *v, uint32_t pc, uint32_t *nw)
{
	uint32_t sv[2];
	unsigned ns = succs(v->m->code_ptx, v->f->entry_pc, v->f->end_pc, pc, sv);
	for (unsigned j = 0; j < ns; j++) {
		uint32_t t = sv[j] - v->f->entry_pc;
		uint32_t *to = v->own + (size_t)t * v->ncell;
		bool ch = false;
		for (uint32_t c = 0; c < v->ncell; c++) {
			uint32_t x = ow_meet(to[c], v->cur[c]);
			if (x != to[c]) {
				to[c] = x;
				ch = true;
			}
		}
		if (ch && !v->queued[t]) {
			v->queued[t] = 1;
			v->work[(*nw)++] = t;
		}
	}
}

/* 3. Forward: the value that last wrote each cell; every read must find
 * its own value (or the zero a CTA starts with). */
static int verify_forward(vctx_t *v)
{
	uint32_t ncell = v->ncell, nw = 0;
	for (size_t i = 0; i < (size_t)v->n * ncell; i++)
		v->own[i] = OW_TOP;
	memset(v->queued, 0, v->n + 1);
	if (v->n) {
		for (uint32_t c = 0; c < ncell; c++)
			v->own[c] = OW_ENTRY;
		v->work[nw++] = 0;
		v->queued[0] = 1;
	}
	while (nw) {
		uint32_t i = v->work[--nw], pc = v->f->entry_pc + i;
		v->queued[i] = 0;
		memcpy(v->cur, v->own + (size_t)i * ncell, ncell * sizeof *v->cur);
		const sc_insn_t *in = &v->m->code_ptx[pc];
		opv_t ov[8];
		unsigned k = insn_opvs(in, ov);
		if (verify_reads(v, pc, ov, k))
			return SC_EPARSE;
		bool guarded = in->guard & SC_GUARD_ON;
		for (unsigned j = 0; j < k; j++) {
			if (!ov[j].def)
				continue;
			uint32_t x = val_of(&v->lv, &ov[j]);
			for (uint32_t s = 0; s < v->width[x]; s++)
				v->cur[v->map[x] + s] = guarded ? ow_meet(v->cur[v->map[x] + s], x) : x;
		}
		if (in->op == SC_OP_CALL)
			verify_clobber(v, in);
		verify_flow(v, pc, &nw);
	}
	return 0;
}

static int verify_func(const sc_module_t *m, const sc_func_t *f, const bool *reach, char *msg, size_t msgsz)
{
	vctx_t v = {.m = m, .f = f, .reach = reach, .msg = msg, .msgsz = msgsz};
	int rc = sc__live(m->code_ptx, f->entry_pc, f->end_pc, f->ptx_reg_base, f->ptx_nregs, f->ptx_pred_base,
	                  f->ptx_npreds, &v.lv);
	if (rc)
		return rc == SC_ENOMEM ? rc : fail(msg, msgsz, SC_EPARSE, m, "'%s': ptx operands outside the function", f->name);
	v.nv = v.lv.nv;
	v.W = v.lv.words;
	v.n = f->end_pc - f->entry_pc;
	v.nr = f->nregs;
	v.ncell = f->nregs + f->npreds;
	v.map = malloc((v.nv + 1) * sizeof *v.map);
	v.width = calloc(v.nv + 1, 1);
	v.stamp = calloc(v.ncell + 1, sizeof *v.stamp);
	v.own = malloc(((size_t)v.n * v.ncell + 1) * sizeof *v.own);
	v.cur = malloc((v.ncell + 1) * sizeof *v.cur);
	v.work = malloc((v.n + 1) * sizeof *v.work);
	v.queued = calloc(v.n + 1, 1);
	v.both = malloc(v.W * sizeof *v.both);
	rc = SC_ENOMEM;
	if (v.map && v.width && v.stamp && v.own && v.cur && v.work && v.queued && v.both)
		rc = verify_map(&v) || verify_overlap(&v) || verify_stale(&v) || verify_forward(&v) ? SC_EPARSE : 0;
	free(v.map);
	free(v.width);
	free(v.stamp);
	free(v.own);
	free(v.cur);
	free(v.work);
	free(v.queued);
	free(v.both);
	sc__live_free(&v.lv);
	return rc;
}

int sc__regalloc_verify(const sc_module_t *m, char *msg, size_t msgsz)
{
	if (!m->code_ptx)
		return SC_EINVAL;
	bool *reach = sc__call_closure(m);
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

/* ---------------------------------------------------------------- names */
/* Which virtual register a physical slot holds (sc__vreg_at): the value
 * allocated there (f->vslot, kept by keep_vslots) that is live into the
 * pc, by the liveness of the ptx values on code_ptx. */

/* f's liveness on code_ptx, computed once and kept in the module (only
 * the live-in sets); NULL when there is no memory for it. */
static const sc_live_t *vlive_of(const sc_module_t *m, const sc_func_t *cf)
{
	sc_func_t *f = (sc_func_t *)cf; /* the one thing written through m */
	if (f->vlive_done)
		return f->vlive;
	sc_live_t *lv = calloc(1, sizeof *lv);
	if (!lv || sc__live(m->code_ptx, f->entry_pc, f->end_pc, f->ptx_reg_base, f->ptx_nregs, f->ptx_pred_base,
	                    f->ptx_npreds, lv)) {
		free(lv);
		return NULL;
	}
	free(lv->out);
	lv->out = NULL;
	/* the values other lanes read (shfl sources): pinned by the allocation */
	if (!(f->vpin = calloc(lv->words ? lv->words : 1, sizeof *f->vpin))) {
		sc__live_free(lv);
		free(lv);
		return NULL;
	}
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		opv_t ov[8];
		unsigned k = insn_opvs(&m->code_ptx[pc], ov);
		for (unsigned j = 0; j < k; j++)
			if (ov[j].xlane)
				bset(f->vpin, val_of(lv, &ov[j]));
	}
	f->vlive = lv;
	f->vlive_done = true;
	return lv;
}

/* Whether physical slot (predicate) s lies in f's window. */
static bool in_window(const sc_func_t *f, uint32_t s, bool pred)
{
	uint32_t base = pred ? f->pred_base : f->reg_base;
	return s >= base && s - base < (pred ? f->npreds : f->nregs);
}

int sc__vreg_at(const sc_module_t *m, uint32_t pc, uint32_t phys_slot, bool pred, uint32_t *ptx_slot)
{
	const sc_func_t *f = sc__func_at(m, pc);
	if (!f || !in_window(f, phys_slot, pred))
		return 1;
	if (m->regs != SC_REGS_ALLOC) {
		*ptx_slot = phys_slot;
		return 0;
	}
	if (!f->vslot)
		return 1;
	const sc_live_t *lv = vlive_of(m, f);
	if (!lv)
		return SC_ENOMEM;
	for (uint32_t v = pred ? lv->nregs : 0; v < (pred ? lv->nv : lv->nregs); v++) {
		uint32_t at = f->vslot[v] & ~SC_VSLOT_PAIR, w = f->vslot[v] & SC_VSLOT_PAIR ? 2 : 1;
		if (f->vslot[v] == SC_VSLOT_NONE || phys_slot < at || phys_slot - at >= w ||
		    !sc__live_at(lv, lv->in, pc, v))
			continue;
		*ptx_slot = (pred ? f->ptx_pred_base + v - lv->nregs : f->ptx_reg_base + v) + (phys_slot - at);
		return 0;
	}
	return 1;
}

int sc__vreg_in_frames(const sc_module_t *m, uint32_t pc, const uint32_t *calls, uint32_t ncalls,
                       uint32_t phys_slot, bool pred, uint32_t *ptx_slot, const sc_func_t **owner)
{
	for (uint32_t i = ncalls + 1; i-- > 0;) {
		uint32_t at = i == ncalls ? pc : calls[i] - 1;
		const sc_func_t *f = sc__func_at(m, at);
		if (!f || !in_window(f, phys_slot, pred))
			continue;
		if (owner)
			*owner = f;
		return sc__vreg_at(m, at, phys_slot, pred, ptx_slot);
	}
	for (uint32_t i = 0; m->regs != SC_REGS_ALLOC && i < m->nfuncs; i++) {
		const sc_func_t *g = &m->funcs[i];
		if (g->is_entry || g->entry_pc == UINT32_MAX || !in_window(g, phys_slot, pred))
			continue;
		if (owner)
			*owner = g;
		*ptx_slot = phys_slot;
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- homes */
/* ptx mode (sc__vreg_home): where a thread's virtual register keeps its
 * value on the allocated machine. */

const sc_func_t *sc__ptx_owner(const sc_module_t *m, const sc_func_t *k, uint32_t vs, bool pred)
{
	if (vs < (pred ? k->ptx_npreds : k->ptx_nregs))
		return k;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const sc_func_t *f = &m->funcs[i];
		uint32_t base = pred ? f->ptx_pred_base : f->ptx_reg_base, n = pred ? f->ptx_npreds : f->ptx_nregs;
		if (!f->is_entry && vs >= base && vs - base < n)
			return f;
	}
	return NULL;
}

/* The pc at which h's values live now matter for lane `lane` of w, which
 * stands at pc in function `at`: pc itself when h is that function; for
 * a caller of it, the return point of the call it waits in (the values
 * live there are those kept across the call); for a function not on the
 * lane's stack, its entry (only values read before written, which keep
 * their slots between calls, are live there). SC_PC_NONE: none. */
static uint32_t frame_pc(const sc_module_t *m, const sc_warp_t *w, uint32_t pc, const sc_func_t *at,
                         const sc_func_t *h)
{
	if (h == at)
		return pc;
	/* the lane's callers: the frames below its own (a lane that did not
	 * take a call waits in a caller's frame; functions do not recurse) */
	uint32_t k = w->ncalls;
	for (uint32_t i = 0; i < w->ncalls; i++)
		if (sc__func_at(m, w->calls[i] - 1) == at) {
			k = i;
			break;
		}
	for (uint32_t i = 0; i < k; i++)
		if (sc__func_at(m, w->calls[i] - 1) == h)
			return w->calls[i] < h->end_pc ? w->calls[i] : SC_PC_NONE;
	return h->entry_pc;
}

int sc__vreg_home(const sc_module_t *m, const sc_func_t *k, const sc_warp_t *w, uint32_t lane, uint32_t vs, bool pred,
                  uint32_t *phys)
{
	if (m->regs != SC_REGS_ALLOC || !(w->live >> lane & 1u))
		return 1; /* the thread exited: nothing is read again */
	const sc_func_t *h = sc__ptx_owner(m, k, vs, pred);
	uint32_t pc = sc__lane_pc(w, lane);
	const sc_func_t *at = pc == SC_PC_NONE ? NULL : sc__func_at(m, pc);
	if (!h || !at || !h->vslot)
		return 1;
	const sc_live_t *lv = vlive_of(m, h);
	if (!lv)
		return SC_ENOMEM;
	uint32_t v = vs - (pred ? h->ptx_pred_base : h->ptx_reg_base), half = 0;
	if (pred)
		v += lv->nregs;
	else if (h->vslot[v] == SC_VSLOT_NONE && v > 0 && (h->vslot[v - 1] & SC_VSLOT_PAIR) &&
	         h->vslot[v - 1] != SC_VSLOT_NONE) {
		v--; /* the upper word of a 64-bit register */
		half = 1;
	}
	if (h->vslot[v] == SC_VSLOT_NONE)
		return 1; /* no instruction names it */
	if (!bget(h->vpin, v)) {
		uint32_t fpc = frame_pc(m, w, pc, at, h);
		if (fpc == SC_PC_NONE || fpc < lv->lo || fpc >= lv->hi || !sc__live_at(lv, lv->in, fpc, v))
			return 1; /* dead: written before it is read again, or never read */
	}
	*phys = (uint32_t)(h->vslot[v] & ~SC_VSLOT_PAIR) + half;
	return 0;
}

int sc__vreg_prepare(sc_module_t *m)
{
	for (uint32_t i = 0; m->regs == SC_REGS_ALLOC && i < m->nfuncs; i++)
		if (m->funcs[i].vslot && !vlive_of(m, &m->funcs[i]))
			return SC_ENOMEM;
	return 0;
}
