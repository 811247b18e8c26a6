/* Penny, compiled mode: optimal checkpoint pruning (DESIGN.md, "Penny
 * (compiled)", Pruning; Penny, ASPLOS'20, Rule 1 and its two-phase
 * pruning over the predicate/data dependence graph).
 *
 * A value (a virtual register of one function) loses all its checkpoints
 * when, at every recovery point where it is live (a region's start, and
 * the end of a region, where an adjustment region may follow), recovery
 * can recompute it with a recovery slice: one original word executed
 * again into the value's own register, whose inputs hold there what they
 * held when the word ran.
 *
 * The slice of value o at point P is the unique definition d of o that
 * reaches P (o is not live at the function's entry, so one always does);
 * d must be unguarded, define o alone (no carry, no cross-lane read, no
 * side effect), and be pure: arithmetic, logic, compare, select,
 * conversion, mov, or a load of read-only memory (ld.const, an ld.param at
 * a constant address, or a load that no store, atom or red of the module
 * may alias: sc__pennyc_may_alias). Its inputs: immediates, special
 * registers (not clocks), and registers or predicates that are
 *   - live at P (so recovery restores them: predicates are never written
 *     in a region they are live into, registers come back from their
 *     checkpoints or their own slices), and
 *   - not written on any path from d to P (Rule 1: the value d read is
 *     still the one recovery finds). A value that reads itself (i = i + 1)
 *     never qualifies: its input is what it overwrote.
 * The intermediate values of a longer recomputation are therefore
 * themselves restored live-ins of P (pruned ones recomputed first): every
 * slice word writes its own value's register and nothing else, so no
 * temporary register is needed and no live register is clobbered.
 *
 * Phase 1 labels each value with a checkpoint: invalid (some point has no
 * such slice), valid (every input is committed: a checkpoint, a special
 * register, a constant), or undecided (some slice reads another candidate).
 * Phase 2 orders the candidates: a value is pruned once every candidate its
 * slices read has been pruned before it (its rank: recovery recomputes in
 * rank order); when only a cycle of undecided values is left, its smallest
 * value is committed (keeps its checkpoints), which leaves every other
 * decision sound (a committed input is restored from its checkpoint), and
 * the ordering goes on. The result is verified: every slice at every point
 * reads only live-ins that are committed or ranked before it. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

/* The value (own slot) of register reference r, or UINT32_MAX. */
static uint32_t value_of(const sc_pprune_t *f, sc_regref_t r)
{
	if (r.pred || r.idx < f->rbase || r.idx >= f->rbase + f->nr)
		return UINT32_MAX;
	uint32_t v = r.idx - f->rbase;
	return v > 0 && f->wide[v - 1] ? v - 1 : v;
}

static bool live(const sc_pprune_t *f, const uint64_t *set, uint32_t pc, uint32_t v)
{
	return sc__live_at(f->lv, set, pc, v) || (v < f->nr && f->wide[v] && sc__live_at(f->lv, set, pc, v + 1));
}

/* Whether in writes the register range of value v (v < nr) or predicate
 * p (v = nr + p). */
static bool writes(const sc_pprune_t *f, const sc_insn_t *in, uint32_t v)
{
	sc_regref_t x[7];
	unsigned k = sc__insn_regs(in, x);
	for (unsigned j = 0; j < k; j++) {
		if (!x[j].def)
			continue;
		if (v >= f->nr) {
			if (x[j].pred && x[j].idx == f->pbase + (v - f->nr))
				return true;
		} else if (!x[j].pred) {
			uint32_t lo = f->rbase + v, hi = lo + (f->wide[v] ? 2u : 1u);
			if (x[j].idx < hi && x[j].idx + x[j].w > lo)
				return true;
		}
	}
	return false;
}

/* Whether the load in reads memory no writer of the module may alias. */
static bool read_only(const sc_pprune_t *f, const sc_insn_t *in)
{
	unsigned sp = SC_AUX_SPACE(in->aux), k = SC_OPND_KIND(in->opnd[1]), i = SC_OPND_IDX(sc__opnd(in, 1));
	if (sp == SC_SP_CONST || (sp == SC_SP_PARAM && k == SC_K_ADDR && i == SC_NOREG))
		return true; /* as basic pruning */
	sc_pennyc_acc_t ld = sc__pennyc_access(in, f->rbase);
	if (ld.base != SC_NOREG)
		ld.valid = false; /* a register base: another value each time */
	for (uint32_t pc = 0; pc < f->ncode; pc++) {
		const sc_insn_t *w = &f->mcode[pc];
		if (w->op != SC_OP_ST && w->op != SC_OP_ATOM && w->op != SC_OP_RED)
			continue;
		sc_pennyc_acc_t st = sc__pennyc_access(w, 0);
		if (st.base != SC_NOREG)
			st.base = (uint16_t)(SC_NOREG - 1); /* never equal to a load's own-slot base */
		if (sc__pennyc_may_alias(&ld, &st))
			return false;
	}
	return true;
}

/* Whether word d may serve as a slice for value o: unguarded, o its only
 * destination, pure. */
static bool recomputable(const sc_pprune_t *f, uint32_t d, uint32_t o)
{
	const sc_insn_t *in = &f->code[d];
	if ((in->guard & SC_GUARD_ON) || SC_NDST(in) != 1 || (in->mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT | SC_MOD_RES)) ||
	    (sc__ops[in->op].flags & (SC_OF_SIDE | SC_OF_CALL | SC_OF_XLANE | SC_OF_BLOCK_END)))
		return false;
	unsigned u = sc__ops[in->op].unit;
	if (in->op == SC_OP_LD ? (in->mods & SC_MOD_VOLATILE) || !read_only(f, in)
	                       : u != SC_U_NUM && u != SC_U_INT && u != SC_U_FP && u != SC_U_CMP && u != SC_U_MOV)
		return false;
	sc_regref_t x[7];
	unsigned k = sc__insn_regs(in, x);
	for (unsigned j = 0; j < k; j++)
		if (x[j].def && (x[j].pred || x[j].idx != f->rbase + o || x[j].w != (f->wide[o] ? 2 : 1)))
			return false;
	return !sc__insn_reads_clock(in);
}

/* The successors of the word at pc in the function: how many. */
static unsigned succs(const sc_pprune_t *f, uint32_t pc, uint32_t succ[2])
{
	const sc_insn_t *in = &f->code[pc];
	unsigned ns = 0;
	if (sc__insn_falls(in) && pc + 1 < f->hi)
		succ[ns++] = pc + 1;
	if (sc__insn_jumps(in) && SC_BR_TARGET(in->imm) >= f->lo && SC_BR_TARGET(in->imm) < f->hi)
		succ[ns++] = SC_BR_TARGET(in->imm);
	return ns;
}

/* Paths from d (not through d again) along the function's code: seen[pc]
 * bit 0 reached with v unwritten since d, bit 1 reached after a write of
 * v (guarded writes too). */
static void flow_from(const sc_pprune_t *f, uint32_t d, uint32_t v, uint8_t *seen, uint32_t *stack)
{
	uint32_t top = 0, succ[2];
	memset(seen, 0, f->hi - f->lo);
	/* the work list holds (pc, dirty) as pc * 2 + dirty, entries whose
	 * state was just added; d's own write is of the value, not of v */
	stack[top++] = d * 2u;
	for (bool first = true; top; first = false) {
		uint32_t it = stack[--top], pc = it / 2u;
		unsigned dirty = it & 1u;
		if (pc == d && !first)
			continue; /* a new instance of the value starts there */
		dirty |= !first && writes(f, &f->code[pc], v);
		unsigned ns = succs(f, pc, succ);
		for (uint32_t i = 0; i < ns; i++) {
			uint8_t bit = (uint8_t)(1u << dirty);
			if (!(seen[succ[i] - f->lo] & bit)) {
				seen[succ[i] - f->lo] |= bit;
				stack[top++] = succ[i] * 2u + dirty;
			}
		}
	}
}

#define SLICE_MAX 16 /* words in one recovery slice */
#define NCACHE 64

/* The working state of one function's decision. */
typedef struct work {
	sc_rdefs_t rd;
	uint8_t *seen;      /* [NCACHE][n] flow_from's, by (d, v) */
	uint32_t *ckey;     /* [NCACHE][2]: the cached (d, v), UINT32_MAX: none */
	uint32_t *stack;    /* [2n] */
	uint32_t *defs;     /* [ndef] */
	uint8_t *label;     /* [nr] */
} work_t;

enum { L_NONE, L_INVALID, L_VALID, L_UNDECIDED, L_PRUNED, L_COMMITTED };

/* flow_from(d, v), cached. */
static const uint8_t *paths(const sc_pprune_t *f, work_t *w, uint32_t d, uint32_t v)
{
	uint32_t n = f->hi - f->lo, c = (d * 31u + v) % NCACHE;
	uint8_t *seen = w->seen + (size_t)c * n;
	if (w->ckey[2 * c] != d || w->ckey[2 * c + 1] != v) {
		flow_from(f, d, v, seen, w->stack);
		w->ckey[2 * c] = d;
		w->ckey[2 * c + 1] = v;
	}
	return seen;
}

/* The point of region r: its start (end false), or its end (after its
 * last word, or before it when the word ends its block). The word whose
 * entry (before) or exit is the point: *pc, *after. */
static void point(const sc_pprune_t *f, uint32_t r, bool end, uint32_t *pc, bool *after)
{
	*pc = end ? f->re[r] : f->rs[r];
	*after = end && !sc__insn_ends_block(&f->code[f->re[r]]);
}

static bool push_word(sc_pprune_t *f, sc_pprune_word_t x)
{
	if (f->nword == f->capword) {
		uint32_t c = f->capword ? 2 * f->capword : 256;
		sc_pprune_word_t *y = realloc(f->word, c * sizeof *y);
		if (!y)
			return false;
		f->word = y;
		f->capword = c;
	}
	f->word[f->nword++] = x;
	return true;
}

/* The recovery point a slice is built for. */
typedef struct pt {
	uint32_t o, pc, first; /* the pruned value, the point's word, the slice's first word */
	bool after, final, *dep;
	int nomem;
} pt_t;

/* Appends to the slice at q the words that recompute value x as word d
 * defines it (its intermediate inputs first): d's index in the slice, or
 * -1 when there is none. Each register input of a word is either restored
 * (live at the point, committed or pruned and ranked before q->o; in
 * phase 1, any candidate, which sets *dep) or recomputed by the slice
 * (its unique definition reaching the word), and in both cases not written
 * on any path from the word to the point (Rule 1). */
static int node(sc_pprune_t *f, work_t *w, pt_t *q, uint32_t x, uint32_t d)
{
	for (uint32_t i = q->first; i < f->nword; i++)
		if (f->word[i].pc == d)
			return (int)(i - q->first); /* already in the slice */
	if (f->nword - q->first >= SLICE_MAX || !recomputable(f, d, x))
		return -1;
	const uint64_t *set = q->after ? f->lv->out : f->lv->in;
	sc_pprune_word_t me = {.pc = d};
	sc_regref_t r[7];
	unsigned k = sc__insn_regs(&f->code[d], r);
	for (unsigned j = 0; j < k; j++) {
		if (r[j].def)
			continue;
		uint32_t v = r[j].pred ? f->nr + (r[j].idx - f->pbase) : value_of(f, r[j]);
		if (v == UINT32_MAX || v == x || v == q->o || r[j].pos >= 6)
			return -1;
		const uint8_t *seen = paths(f, w, d, v);
		uint8_t s = seen[q->pc - f->lo];
		if ((s & 2u) || (q->after && q->pc != d && (s & 1u) && writes(f, &f->code[q->pc], v)))
			return -1; /* written between d and the point */
		bool lv = live(f, set, q->pc, v);
		if (v >= f->nr) { /* a predicate: never written in a region it is live into */
			if (!lv)
				return -1;
			continue;
		}
		uint8_t l = w->label[v];
		bool cand = l == L_VALID || l == L_UNDECIDED;
		if (lv && (l == L_NONE || l == L_INVALID || l == L_COMMITTED ||
		           (l == L_PRUNED && q->final && f->rank[v] < f->rank[q->o])))
			continue; /* restored */
		/* recomputed: its one definition reaching d (read whole: recovery
		 * hands the word the value's registers as a unit) */
		if (!live(f, f->lv->in, f->lo, v) && r[j].idx == f->rbase + v && r[j].w == (f->wide[v] ? 2 : 1)) {
			sc_regref_t rv = {.idx = (uint16_t)(f->rbase + v), .w = f->wide[v] ? 2 : 1};
			uint32_t nd = sc__rdefs_of(&w->rd, d, rv, w->defs, w->rd.ndef);
			if (nd == 1) {
				uint32_t mark = f->nword;
				int i = node(f, w, q, v, w->rd.def_pc[w->defs[0]]);
				if (i >= 0) {
					me.from[r[j].pos] = (uint8_t)(i + 1);
					continue;
				}
				f->nword = mark;
				if (q->nomem)
					return -1;
			}
		}
		if (lv && cand && !q->final) {
			*q->dep = true; /* restored, if the candidate is pruned first or committed */
			continue;
		}
		return -1;
	}
	if (f->nword - q->first >= SLICE_MAX)
		return -1;
	if (!push_word(f, me)) {
		q->nomem = SC_ENOMEM;
		return -1;
	}
	return (int)(f->nword - 1 - q->first);
}

/* The slice of value o at the point (pc, after): its first word in
 * f->word, or UINT32_MAX when there is none (*nomem set when out of
 * memory). */
static uint32_t slice_at(sc_pprune_t *f, work_t *w, uint32_t o, uint32_t pc, bool after, bool final, bool *dep,
                         int *nomem)
{
	uint32_t d = UINT32_MAX;
	if (after && writes(f, &f->code[pc], o)) {
		d = pc;
	} else {
		sc_regref_t r = {.idx = (uint16_t)(f->rbase + o), .w = f->wide[o] ? 2 : 1};
		uint32_t nd = sc__rdefs_of(&w->rd, pc, r, w->defs, w->rd.ndef);
		if (nd != 1)
			return UINT32_MAX;
		d = w->rd.def_pc[w->defs[0]];
	}
	pt_t q = {.o = o, .pc = pc, .first = f->nword, .after = after, .final = final, .dep = dep};
	int i = node(f, w, &q, o, d);
	*nomem = q.nomem;
	if (i < 0) {
		f->nword = q.first;
		return UINT32_MAX;
	}
	f->word[q.first].n = (uint8_t)(f->nword - q.first);
	return q.first;
}

/* Whether every point where o is live has a slice (recorded in
 * sdef/edef, its words in f->word: kept only when keep); *dep as node's. */
static bool slices_of(sc_pprune_t *f, work_t *w, uint32_t o, bool final, bool keep, bool *dep, int *nomem)
{
	uint32_t mark = f->nword;
	bool ok = true;
	for (uint32_t r = 0; r < f->nrg; r++)
		for (int end = 0; end < 2; end++) {
			uint32_t pc;
			bool after;
			point(f, r, end, &pc, &after);
			size_t i = (size_t)r * f->nr + o;
			uint32_t *out = end ? &f->edef[i] : &f->sdef[i];
			*out = UINT32_MAX;
			if (!ok || !live(f, after ? f->lv->out : f->lv->in, pc, o))
				continue;
			ok = (*out = slice_at(f, w, o, pc, after, final, dep, nomem)) != UINT32_MAX;
		}
	if (!ok || !keep)
		f->nword = mark;
	return ok;
}

int sc__pennyc_prune(sc_pprune_t *f)
{
	uint32_t n = f->hi - f->lo, nr = f->nr;
	work_t w = {0};
	int rc = SC_ENOMEM;
	if ((rc = sc__rdefs(f->code, f->lo, f->hi, f->rbase + nr, f->pbase + f->np, &w.rd)))
		return rc;
	rc = SC_ENOMEM;
	int nomem = 0;
	if (!(w.seen = malloc((size_t)NCACHE * n + 1)) || !(w.ckey = malloc(2 * NCACHE * sizeof *w.ckey)) ||
	    !(w.stack = malloc((2 * n + 2) * sizeof *w.stack)) || !(w.defs = malloc((w.rd.ndef + 1) * sizeof *w.defs)) ||
	    !(w.label = calloc(nr + 1, 1)))
		goto out;
	memset(w.ckey, 0xff, 2 * NCACHE * sizeof *w.ckey);
	/* the candidates: values with a checkpoint, not live into the function */
	for (uint32_t o = 0; o < nr; o++) {
		f->pruned[o] = false;
		f->rank[o] = UINT32_MAX;
		if (live(f, f->lv->in, f->lo, o))
			continue;
		for (uint32_t r = 0; r < f->nrg && !w.label[o]; r++)
			if (f->lup[(size_t)r * nr + o] != UINT32_MAX)
				w.label[o] = L_UNDECIDED;
	}
	/* phase 1: a slice at every point, reading what (committed or candidate) */
	for (uint32_t o = 0; o < nr; o++) {
		if (!w.label[o])
			continue;
		bool dep = false;
		w.label[o] = slices_of(f, &w, o, false, false, &dep, &nomem) ? dep ? L_UNDECIDED : L_VALID : L_INVALID;
	}
	/* an invalid value is committed: what read it as a candidate reads a
	 * checkpoint; labels settle to their fixed point */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t o = 0; o < nr; o++) {
			if (w.label[o] != L_UNDECIDED)
				continue;
			bool dep = false;
			if (!slices_of(f, &w, o, false, false, &dep, &nomem)) {
				w.label[o] = L_INVALID;
				changed = true;
			} else if (!dep) {
				w.label[o] = L_VALID;
				changed = true;
			}
		}
	}
	for (uint32_t o = 0; o < nr; o++)
		if (w.label[o] == L_INVALID)
			w.label[o] = L_COMMITTED;
	/* phase 2: prune in an order where every candidate a slice reads is
	 * pruned before it; a cycle left: commit its smallest value */
	uint32_t next = 0;
	for (;;) {
		bool progress = false;
		for (uint32_t o = 0; o < nr; o++) {
			if (w.label[o] != L_VALID && w.label[o] != L_UNDECIDED)
				continue;
			f->rank[o] = next; /* tentative: final asks for inputs ranked before */
			bool dep = false;
			if (slices_of(f, &w, o, true, false, &dep, &nomem)) {
				w.label[o] = L_PRUNED;
				f->pruned[o] = true;
				next++;
				progress = true;
			} else {
				f->rank[o] = UINT32_MAX;
			}
		}
		if (progress)
			continue;
		uint32_t o = 0;
		while (o < nr && w.label[o] != L_VALID && w.label[o] != L_UNDECIDED)
			o++;
		if (o == nr)
			break;
		w.label[o] = L_COMMITTED;
		f->ncycle++;
	}
	/* verify and record: every pruned value's slices, their restored
	 * inputs committed or ranked before it, live at the point and unwritten
	 * since the word that reads them */
	rc = 0;
	f->nword = 0;
	for (uint32_t o = 0; o < nr && !rc; o++) {
		bool dep = false;
		if (f->pruned[o] && !slices_of(f, &w, o, true, true, &dep, &nomem))
			rc = SC_EINVAL;
	}
	if (nomem)
		rc = SC_ENOMEM;
out:
	free(w.ckey);
	sc__rdefs_free(&w.rd);
	free(w.seen);
	free(w.stack);
	free(w.defs);
	free(w.label);
	return rc;
}
