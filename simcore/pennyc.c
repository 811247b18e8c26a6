/* Penny, compiled mode (DESIGN.md, "Penny (compiled)"; Penny, ASPLOS'20):
 * Penny's compiler as a pass over the lowered code (pass.c), and the
 * recovery runtime that reads its checkpoints back from simulated memory.
 *
 * Regions. Per function, on the virtual-register code: a region starts at
 * every basic-block leader (flipsim's SIMT restriction: no branch inside a
 * region, so a rollback resets the top entry's pc alone), before and
 * after every atom, red, bar, membar, call and other side effect but a
 * plain store, and before a store that may overwrite what a load earlier
 * in the region read (a memory anti-dependence). The alias test compares
 * address expressions: two accesses in different state spaces (neither
 * generic) do not alias, nor do loads of .const and kernel .param; in the
 * same space, two addresses with the same base register and the same
 * reaching definition of it (not written in between: the region is
 * straight-line) or no base at all alias exactly when their byte ranges
 * overlap; anything else may alias. A region also starts before a word
 * that writes a predicate live into the region (predicates get no
 * checkpoint: cutting is their anti-dependence's answer).
 *
 * Checkpoints. A register value (a virtual register, both slots of a
 * 64-bit one) is checkpointed after its last update in a region when it
 * is live out of the region (its LUP): an unguarded st of the register to
 * its slot. The store stays in the LUP's region: in flipsim a region never
 * spans a merge, so the boundary position of Penny's bimodal choice is the
 * region's end, which costs the same issue slot (stores never stall here);
 * checkpoints therefore stay at their LUPs.
 *
 * Storage alternation. A value that is both live into a region and
 * checkpointed in it gets two slots (colours); the others one. A forward
 * dataflow over regions tracks the set of colours holding the value's
 * current value; a region reads its live-in from the smallest valid colour
 * and checkpoints into the other. Where predecessors disagree (a loop's
 * back edge, the join of two arms), an adjustment region at the end of the
 * disagreeing predecessor stores the value into the missing colour too
 * (Penny's dummy checkpoint); it is its own region, so that its recovery
 * reads the colour it does not write.
 *
 * Pruning (basic). A value with one unguarded definition in its function,
 * from an immediate, a special register (not a clock), or an ld.param /
 * ld.const at a constant address, and not live at the function's entry,
 * gets no checkpoint: recovery executes that definition again (a recovery
 * slice of one instruction). Optimal (pennyprune.c): also values that a
 * slice of several original words recomputes from restored values and
 * read-only memory; recovery runs the slices after the restores, in rank
 * order, on saved registers (run_slice).
 *
 * Storage (place()). A unit is one slot of one value for the 32 lanes of a
 * warp, coalesced: 4 bytes a lane (128 bytes), 8 for a 64-bit value (256).
 * Global memory: one module-scope .global variable (it appears in the
 * emitted PTX) of num_sms x max_warps_per_sm x the warp's bytes, indexed
 * by %smid and %warpid (the SM's warp slot). Shared memory: an area per
 * warp of the CTA at the end of the CTA's shared memory, the last warp's
 * first, so that a base needs no warp count (%total_smem_size - (warp in
 * CTA + 1) x bytes a warp); every kernel of the module records the bytes
 * a warp (sc_func_t.smem_warp), which each launch adds per warp of its
 * block (gpu.c run_size), and the emitter writes as a .pragma the loader
 * reads back. storage global: every unit in global memory; shared: every
 * unit in shared memory; auto: values ranked by their stores weighted
 * 64^(loop depth), the costliest in shared memory while the bytes a warp
 * keep every kernel's occupancy (kernel_budget), the rest in global
 * memory. The prologue of each function computes the base addresses its
 * values need (per storage, lane x 4 and, with 64-bit values, lane x 8);
 * the checkpoints store at constant offsets from them. Recovery recomputes
 * the bases, never reads them back.
 *
 * Recovery (sc__pennyc_recover): the region of the detecting pc; each
 * live-in value restored on the top mask's lanes from its slot in global
 * or the CTA's shared memory (real state: a fault there is a fault in the
 * program's memory; the paper assumes ECC-protected checkpoint storage),
 * recomputed (pruned, the bases), or zero (a value live into the function,
 * never written: the CTA's registers start at zero); then the oracle's
 * rollback (penny.c), waiting latency.global or latency.shared a restore. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

#define GRAIN 128u /* a unit: 32 lanes x 4 bytes (x 8 for a 64-bit value) */
#define SHARED_PROLOGUE 13 /* words of shared_base() */

enum { SRC_UNIT = 0, SRC_BASE, SRC_SLICE, SRC_ZERO, SRC_SUNIT, SRC_SBASE };

/* ---------------------------------------------------------------- alias */

static sc_pennyc_acc_t access_of(const sc_insn_t *in, uint32_t rbase)
{
	bool st = in->op == SC_OP_ST;
	unsigned ao = st ? 0 : SC_NDST(in), nv = st ? SC_NSRC(in) - 1u : SC_NDST(in);
	sc_opnd_t a = sc__opnd(in, ao);
	sc_pennyc_acc_t x = {.space = (uint8_t)SC_AUX_SPACE(in->aux), .valid = true, .off = (int64_t)in->imm,
	           .size = sc__type_bits(in->type) / 8 * (nv ? nv : 1)};
	unsigned k = SC_OPND_KIND(a), i = SC_OPND_IDX(a);
	x.base = i == SC_NOREG ? SC_NOREG : (uint16_t)(i - rbase);
	if (k == SC_K_ADDR32 && i != SC_NOREG)
		x.off = (int64_t)(uint32_t)in->imm;
	if (!x.size)
		x.size = 16;
	return x;
}

sc_pennyc_acc_t sc__pennyc_access(const sc_insn_t *in, uint32_t rbase) { return access_of(in, rbase); }

bool sc__pennyc_may_alias(const sc_pennyc_acc_t *ld, const sc_pennyc_acc_t *st)
{
	if (ld->space == SC_SP_CONST || (ld->space == SC_SP_PARAM && st->space != SC_SP_PARAM))
		return false;
	if (ld->space != st->space && ld->space != SC_SP_GENERIC && st->space != SC_SP_GENERIC)
		return false;
	if (ld->space != st->space || !ld->valid || ld->base != st->base)
		return true;
	return ld->off < st->off + (int64_t)st->size && st->off < ld->off + (int64_t)ld->size;
}

/* Whether a region starts both before and after the word: synchronisation
 * and every side effect but a plain store. */
static bool always_cuts(const sc_insn_t *in)
{
	return in->op != SC_OP_ST && sc__penny_side(in);
}

/* ---------------------------------------------------------------- the pass */

/* One function's analysis (old pcs, own slot numbering). */
typedef struct fstate {
	uint32_t fi, lo, hi, nr, np, rbase, pbase;
	const sc_insn_t *code;   /* the session's code */
	sc_live_t lv;
	bool *bnd;               /* [pc - lo]: a region starts */
	uint32_t *rid;           /* [pc - lo]: its region */
	uint32_t nrg;            /* regions */
	uint32_t *rs, *re;       /* region r: first and last pc */
	uint8_t *wide, *type;    /* [own slot]: first slot of a 64-bit value; declared type */
	uint32_t *ndef, *defpc;  /* [own slot]: definitions, the last one's pc */
	bool *pruned, *alt;      /* [own slot] */
	uint32_t *unit;          /* [own slot]: first unit (colour c: unit + c), UINT32_MAX: none */
	uint32_t *lup;           /* [region x nr]: the checkpointed LUP's pc, UINT32_MAX: none */
	uint8_t *rcol;           /* [region x nr]: the colour a live-in is read from */
	bool *adj;               /* [region]: an adjustment region follows it */
	bool *adjv;              /* [region x nr]: value o is stored in it */
	bool *rend;              /* [region]: its last word ends its block */
	uint8_t *acol;           /* [region x nr]: the adjustment region's read colours */
	uint32_t *epred, *esucc, nedge; /* region edges */
	uint16_t base, base8;    /* own slots of the global checkpoint bases (64-bit; lane x 4, lane x 8),
	                            UINT16_MAX: none */
	bool *shr;               /* [own slot]: its units are in shared memory (place()) */
	uint16_t sbase, sbase8;  /* the same for shared memory (32-bit) */
	uint32_t npro;           /* prologue words inserted */
	uint32_t *sdef, *edef;   /* optimal pruning: [region x nr] the slice (first word in word[])
	                            recomputing a pruned value at the region's start / end
	                            (sc_pprune_t); NULL: basic, the value's defpc */
	uint32_t *rank;          /* optimal pruning: [own slot] recomputation order */
	sc_pprune_word_t *word;  /* optimal pruning: the slices' words (sc_pprune_t) */
} fstate_t;

static void fstate_free(fstate_t *f)
{
	sc__live_free(&f->lv);
	free(f->bnd);
	free(f->rid);
	free(f->rs);
	free(f->re);
	free(f->wide);
	free(f->type);
	free(f->ndef);
	free(f->defpc);
	free(f->pruned);
	free(f->alt);
	free(f->unit);
	free(f->lup);
	free(f->rcol);
	free(f->adj);
	free(f->adjv);
	free(f->rend);
	free(f->acol);
	free(f->epred);
	free(f->esucc);
	free(f->sdef);
	free(f->edef);
	free(f->rank);
	free(f->word);
	free(f->shr);
}

static int refuse(char *msg, size_t n, const char *mod, uint32_t pc, const char *why)
{
	snprintf(msg, n, "penny compiled: %s: pc %u: %s", mod, pc, why);
	return SC_EINVAL;
}

/* Whether own slot v (a value's first slot) is live before / after pc. */
static bool live_in(const fstate_t *f, uint32_t pc, uint32_t v)
{
	return sc__live_at(&f->lv, f->lv.in, pc, v) || (f->wide[v] && sc__live_at(&f->lv, f->lv.in, pc, v + 1));
}
static bool live_out(const fstate_t *f, uint32_t pc, uint32_t v)
{
	return sc__live_at(&f->lv, f->lv.out, pc, v) || (f->wide[v] && sc__live_at(&f->lv, f->lv.out, pc, v + 1));
}

/* Region formation (the file's comment). */
static int form_regions(fstate_t *f, sc_pennyc_stats_t *st, const char *mod, char *msg, size_t msgsz)
{
	uint32_t n = f->hi - f->lo;
	bool *lead = calloc(n, 1);
	sc_pennyc_acc_t *ld = malloc((n + 1) * sizeof *ld);
	int rc = SC_ENOMEM;
	if (!lead || !ld)
		goto out;
	sc__cfg_leaders(f->code, f->lo, f->hi, lead);
	uint32_t nld = 0, start = f->lo;
	rc = 0;
	for (uint32_t pc = f->lo; pc < f->hi && !rc; pc++) {
		const sc_insn_t *in = &f->code[pc];
		sc_regref_t v[7];
		unsigned k = sc__insn_regs(in, v);
		bool cut = pc == f->lo || lead[pc - f->lo] || always_cuts(in) || always_cuts(&f->code[pc - 1]);
		if (!cut && in->op == SC_OP_ST) {
			sc_pennyc_acc_t w = access_of(in, f->rbase);
			for (uint32_t i = 0; i < nld && !cut; i++)
				cut = sc__pennyc_may_alias(&ld[i], &w);
			if (cut)
				st->alias_cuts++;
			else if (nld)
				st->alias_kept++;
		}
		for (unsigned j = 0; j < k && !cut; j++) /* a predicate live into the region written */
			cut = v[j].def && v[j].pred && sc__live_at(&f->lv, f->lv.in, start, f->nr + (v[j].idx - f->pbase));
		if (cut) {
			start = pc;
			nld = 0;
			f->bnd[pc - f->lo] = true;
		}
		for (unsigned j = 0; j < k; j++)
			for (unsigned i = 0; v[j].def && v[j].pred && i < k; i++)
				if (!v[i].def && v[i].pred && v[i].idx == v[j].idx &&
				    sc__live_at(&f->lv, f->lv.in, pc, f->nr + (v[j].idx - f->pbase)))
					rc = refuse(msg, msgsz, mod, pc,
					            "reads and writes the same live predicate: no region makes it idempotent "
					            "(predicates get no checkpoint)");
		if (in->op == SC_OP_LD)
			ld[nld++] = access_of(in, f->rbase);
		for (unsigned j = 0; j < k; j++) /* a base written: its loads' addresses are unknown now */
			if (v[j].def && !v[j].pred)
				for (uint32_t i = 0; i < nld; i++)
					if (ld[i].base != SC_NOREG && ld[i].base >= v[j].idx - f->rbase &&
					    ld[i].base < v[j].idx - f->rbase + v[j].w)
						ld[i].valid = false;
	}
	if (rc)
		goto out;
	uint32_t r = 0;
	for (uint32_t pc = f->lo; pc < f->hi; pc++) {
		if (f->bnd[pc - f->lo]) {
			f->rs[r] = pc;
			if (r)
				f->re[r - 1] = pc - 1;
			r++;
		}
		f->rid[pc - f->lo] = r - 1;
	}
	f->re[r - 1] = f->hi - 1;
	f->nrg = r;
out:
	free(lead);
	free(ld);
	return rc;
}

/* Region edges: a jump, or a fall-through into another region. */
static int region_edges(fstate_t *f)
{
	uint32_t cap = 2 * f->nrg + 2 * (f->hi - f->lo);
	f->epred = malloc(cap * sizeof *f->epred);
	f->esucc = malloc(cap * sizeof *f->esucc);
	if (!f->epred || !f->esucc)
		return SC_ENOMEM;
	for (uint32_t r = 0; r < f->nrg; r++) {
		uint32_t e = f->re[r];
		const sc_insn_t *in = &f->code[e];
		if (sc__insn_jumps(in)) {
			uint32_t t = SC_BR_TARGET(in->imm);
			if (t >= f->lo && t < f->hi) {
				f->epred[f->nedge] = r;
				f->esucc[f->nedge++] = f->rid[t - f->lo];
			}
		}
		if (sc__insn_falls(in) && e + 1 < f->hi) {
			f->epred[f->nedge] = r;
			f->esucc[f->nedge++] = r + 1;
		}
	}
	return 0;
}

/* The values of f: widths, declared types, definitions. */
static void values(const sc_module_t *m, fstate_t *f)
{
	const sc_func_t *fn = &m->funcs[f->fi];
	for (uint32_t pc = f->lo; pc < f->hi; pc++) {
		sc_regref_t v[7];
		unsigned k = sc__insn_regs(&f->code[pc], v);
		for (unsigned j = 0; j < k; j++) {
			if (v[j].pred)
				continue;
			uint32_t o = v[j].idx - f->rbase;
			if (v[j].w == 2)
				f->wide[o] = 1;
			if (v[j].def) {
				f->ndef[o]++;
				f->defpc[o] = pc;
			}
		}
	}
	for (uint32_t o = 0; o < f->nr; o++) {
		uint8_t t = 0;
		if (sc__reg_type(m, fn, f->rbase + o, false, &t, NULL) || !sc__type_bits(t))
			t = f->wide[o] ? SC_T_B64 : SC_T_B32;
		f->type[o] = t;
	}
}

/* Basic pruning: one unguarded definition that recovery can execute again. */
static bool prunable(const fstate_t *f, uint32_t o)
{
	if (f->ndef[o] != 1 || live_in(f, f->lo, o))
		return false;
	const sc_insn_t *in = &f->code[f->defpc[o]];
	if ((in->guard & SC_GUARD_ON) || SC_NDST(in) != 1 || SC_NSRC(in) != 1 ||
	    (in->mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT)))
		return false;
	unsigned k = SC_OPND_KIND(in->opnd[1]), i = SC_OPND_IDX(sc__opnd(in, 1));
	if (in->op == SC_OP_MOV)
		return k == SC_K_IMM || (k == SC_K_SREG && !sc__sreg_is_time(i));
	if (in->op == SC_OP_LD) {
		unsigned sp = SC_AUX_SPACE(in->aux);
		return (sp == SC_SP_PARAM || sp == SC_SP_CONST) && k == SC_K_ADDR && i == SC_NOREG;
	}
	return false;
}

/* Optimal pruning (pennyprune.c): pruned, rank, sdef and edef of f. */
static int prune_optimal(sc_pass_t *p, fstate_t *f, char *msg, size_t msgsz)
{
	const sc_module_t *m = sc__pass_module(p);
	size_t rn = (size_t)f->nrg * (f->nr ? f->nr : 1);
	if (!(f->sdef = malloc(rn * sizeof *f->sdef)) || !(f->edef = malloc(rn * sizeof *f->edef)) ||
	    !(f->rank = malloc((f->nr + 1) * sizeof *f->rank)))
		return SC_ENOMEM;
	sc_pprune_t x = {.code = f->code, .mcode = f->code, .ncode = m->ncode, .lo = f->lo, .hi = f->hi,
	                 .rbase = f->rbase, .nr = f->nr, .pbase = f->pbase, .np = f->np, .lv = &f->lv, .nrg = f->nrg,
	                 .rs = f->rs, .re = f->re, .wide = f->wide, .lup = f->lup, .pruned = f->pruned,
	                 .rank = f->rank, .sdef = f->sdef, .edef = f->edef};
	int rc = sc__pennyc_prune(&x);
	f->word = x.word;
	if (rc == SC_EINVAL)
		return refuse(msg, msgsz, m->name, f->lo, "internal: optimal pruning failed its verification");
	return rc;
}

/* The colours valid on entry to (vin) and exit from (vout) each region
 * for value o, the read and checkpoint colours fixed: a monotone dataflow
 * (meet: intersection) from "both". record: set acol (what an adjustment
 * reads: a colour valid before it); else false when an adjustment would
 * read an invalid one. */
static bool flow(fstate_t *f, uint32_t o, uint8_t *vin, uint8_t *vout, bool record)
{
	bool ok = true;
	for (uint32_t r = 0; r < f->nrg; r++)
		vout[r] = 3;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t r = 0; r < f->nrg; r++) {
			uint8_t in = 3;
			for (uint32_t e = 0; e < f->nedge; e++)
				if (f->esucc[e] == r)
					in &= vout[f->epred[e]];
			size_t i = (size_t)r * f->nr + o;
			uint8_t out = f->lup[i] != UINT32_MAX ? (uint8_t)(1u << (1 - f->rcol[i])) : in;
			if (record)
				f->acol[i] = (out & 1) || !out ? 0 : 1;
			else if (f->adjv[i] && !(out & (1u << f->acol[i])))
				ok = false;
			if (f->adjv[i] && out)
				out = 3;
			vin[r] = in;
			if (out != vout[r]) {
				vout[r] = out;
				changed = true;
			}
		}
	}
	return ok;
}

/* Storage alternation of value o over f's regions. First, in layout
 * order, each region's read colour (rcol) is chosen from the
 * predecessors already visited: the smallest colour all of them leave
 * valid; a region that checkpoints o writes the other. Then, with those
 * fixed, the valid colours are a monotone dataflow (meet: intersection)
 * solved to its fixed point; where a region's read colour is not valid
 * on entry (a loop's back edge, a join), the predecessors that lack it get
 * an adjustment (it stores o into that colour too, leaving both valid),
 * and the dataflow runs again. Adjustments only add colours, so this ends.
 * acol: the colour an adjustment region after r reads (one r leaves
 * valid before its adjustment). */
static void colour(fstate_t *f, uint32_t o, uint8_t *vin, uint8_t *vout)
{
	uint32_t nr = f->nr;
	for (uint32_t r = 0; r < f->nrg; r++) {
		uint8_t in = 3;
		for (uint32_t e = 0; e < f->nedge; e++)
			if (f->esucc[e] == r && f->epred[e] < r)
				in &= vout[f->epred[e]];
		uint8_t rc = (in & 1) || !in ? 0 : 1;
		f->rcol[(size_t)r * nr + o] = rc;
		vout[r] = f->lup[(size_t)r * nr + o] != UINT32_MAX ? (uint8_t)(1u << (1 - rc)) : in;
	}
	for (;;) {
		flow(f, o, vin, vout, true);
		bool conflict = false;
		for (uint32_t r = 0; r < f->nrg; r++) {
			uint8_t want = (uint8_t)(1u << f->rcol[(size_t)r * nr + o]);
			if ((vin[r] & want) || !live_in(f, f->rs[r], o))
				continue;
			for (uint32_t e = 0; e < f->nedge; e++) {
				size_t i = (size_t)f->epred[e] * nr + o;
				if (f->esucc[e] == r && !(vout[f->epred[e]] & want) && !f->adjv[i]) {
					f->adjv[i] = f->adj[f->epred[e]] = true;
					conflict = true;
				}
			}
		}
		if (!conflict)
			return;
	}
}

/* The other colouring of value o: every region that checkpoints it stores
 * both colours (an adjustment after each), so both are always valid and
 * every region reads colour 0. The number of adjustments of o with the
 * current choice, either way. */
static uint32_t adjustments_of(const fstate_t *f, uint32_t o)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < f->nrg; r++)
		n += f->adjv[(size_t)r * f->nr + o];
	return n;
}

static void colour_all(fstate_t *f, uint32_t o)
{
	for (uint32_t r = 0; r < f->nrg; r++) {
		size_t i = (size_t)r * f->nr + o;
		bool cp = f->lup[i] != UINT32_MAX;
		f->rcol[i] = 0;
		f->acol[i] = cp; /* what r leaves valid before its adjustment: the colour it wrote */
		f->adjv[i] = cp;
		f->adj[r] |= cp;
	}
}

/* Whether every region that reads o finds its read colour valid on
 * entry (the colouring's proof; the valid colours as in colour()). */
static bool colouring_holds(fstate_t *f, uint32_t o, uint8_t *vin, uint8_t *vout)
{
	if (!flow(f, o, vin, vout, false))
		return false;
	for (uint32_t r = 0; r < f->nrg; r++)
		if (live_in(f, f->rs[r], o) && !(vin[r] & (1u << f->rcol[(size_t)r * f->nr + o])))
			return false;
	return true;
}

/* The bytes of one unit of value o: 4 a lane, 8 for a 64-bit value. */
static uint32_t unit_bytes(const fstate_t *f, uint32_t o)
{
	return f->wide[o] ? 2 * GRAIN : GRAIN;
}

/* The checkpoint store of value o's colour c (global or shared memory:
 * from the storage's base register of the value's lane stride). */
static sc_insn_t cp_store(const fstate_t *f, uint32_t o, unsigned c)
{
	uint32_t bits = f->wide[o] ? 64 : sc__type_bits(f->type[o]);
	sc_insn_t st = {.op = SC_OP_ST,
	                .type = bits == 64 ? SC_T_B64 : bits == 8 ? SC_T_B8 : bits == 16 ? SC_T_B16 : SC_T_B32,
	                .aux = SC_AUX_MAKE(f->shr[o] ? SC_SP_SHARED : SC_SP_GLOBAL, 0, 0), .nops = SC_NOPS_MAKE(0, 2),
	                .imm = f->unit[o] + c * unit_bytes(f, o)};
	sc__set_opnd(&st, 0, f->shr[o] ? SC_OPND(SC_K_ADDR32, f->rbase + (f->wide[o] ? f->sbase8 : f->sbase))
	                               : SC_OPND(SC_K_ADDR, f->rbase + (f->wide[o] ? f->base8 : f->base)));
	sc__set_opnd(&st, 1, SC_OPND(f->wide[o] ? SC_K_R64 : SC_K_R32, f->rbase + o));
	return st;
}

/* Analysis of function fi: regions, LUPs, pruning, which values alternate. */
static int analyse(sc_pass_t *p, fstate_t *f, const sc_pennyc_opts_t *opt, sc_pennyc_stats_t *st, char *msg,
                   size_t msgsz)
{
	const sc_module_t *m = sc__pass_module(p);
	const sc_func_t *fn = &m->funcs[f->fi];
	f->lo = fn->entry_pc;
	f->hi = fn->end_pc;
	f->nr = fn->ptx_nregs;
	f->np = fn->ptx_npreds;
	f->rbase = fn->ptx_reg_base;
	f->pbase = fn->ptx_pred_base;
	f->code = sc__pass_insn(p, 0);
	uint32_t n = f->hi - f->lo, nr = f->nr ? f->nr : 1;
	int rc = sc__pass_live(p, f->fi, &f->lv);
	if (rc)
		return rc;
	if (!(f->bnd = calloc(n, 1)) || !(f->rid = calloc(n, sizeof *f->rid)) || !(f->rs = calloc(n, sizeof *f->rs)) ||
	    !(f->re = calloc(n, sizeof *f->re)) || !(f->wide = calloc(nr + 1, 1)) || !(f->type = calloc(nr, 1)) ||
	    !(f->ndef = calloc(nr, sizeof *f->ndef)) || !(f->defpc = calloc(nr, sizeof *f->defpc)) ||
	    !(f->pruned = calloc(nr, 1)) || !(f->alt = calloc(nr, 1)) || !(f->unit = malloc(nr * sizeof *f->unit)) ||
	    !(f->shr = calloc(nr, 1)))
		return SC_ENOMEM;
	values(m, f);
	if ((rc = form_regions(f, st, m->name, msg, msgsz)) || (rc = region_edges(f)))
		return rc;
	size_t rn = (size_t)f->nrg * nr;
	if (!(f->lup = malloc(rn * sizeof *f->lup)) || !(f->rcol = calloc(rn, 1)) || !(f->acol = calloc(rn, 1)) ||
	    !(f->adj = calloc(f->nrg, 1)) || !(f->adjv = calloc(rn, 1)) || !(f->rend = calloc(f->nrg, 1)))
		return SC_ENOMEM;
	for (uint32_t r = 0; r < f->nrg; r++)
		f->rend[r] = sc__insn_ends_block(&f->code[f->re[r]]);
	for (size_t i = 0; i < rn; i++)
		f->lup[i] = UINT32_MAX;
	st->regions += f->nrg;
	/* LUPs: the last definition in a region of a value live out of it */
	for (uint32_t r = 0; r < f->nrg; r++)
		for (uint32_t pc = f->rs[r]; pc <= f->re[r]; pc++) {
			sc_regref_t v[7];
			unsigned k = sc__insn_regs(&f->code[pc], v);
			for (unsigned j = 0; j < k; j++)
				if (v[j].def && !v[j].pred)
					f->lup[(size_t)r * nr + (v[j].idx - f->rbase)] = pc;
		}
	for (uint32_t r = 0; r < f->nrg; r++)
		for (uint32_t o = 0; o < f->nr; o++) {
			uint32_t *l = &f->lup[(size_t)r * nr + o];
			if (*l == UINT32_MAX)
				continue;
			if (!live_out(f, f->re[r], o)) {
				*l = UINT32_MAX;
				continue;
			}
			if (sc__insn_ends_block(&f->code[*l]))
				return refuse(msg, msgsz, m->name, *l, "a register written by a word that ends its block");
			st->cps_needed++;
			if (opt->pruning && !opt->optimal && prunable(f, o))
				f->pruned[o] = true;
		}
	if (opt->pruning && opt->optimal && (rc = prune_optimal(p, f, msg, msgsz)))
		return rc;
	for (size_t i = 0; i < rn; i++)
		if (f->lup[i] != UINT32_MAX && f->pruned[i % nr]) {
			f->lup[i] = UINT32_MAX;
			st->cps_pruned++;
		}
	for (uint32_t o = 0; o < f->nr; o++) {
		f->unit[o] = UINT32_MAX;
		for (uint32_t r = 0; r < f->nrg; r++)
			if (f->lup[(size_t)r * nr + o] != UINT32_MAX && live_in(f, f->rs[r], o))
				f->alt[o] = true;
	}
	uint8_t *vin = malloc(f->nrg), *vout = malloc(f->nrg);
	if (!vin || !vout) {
		free(vin);
		free(vout);
		return SC_ENOMEM;
	}
	for (uint32_t o = 0; o < f->nr && !rc; o++) {
		if (!f->alt[o])
			continue;
		colour(f, o, vin, vout);
		uint32_t ncp = 0;
		for (uint32_t r = 0; r < f->nrg; r++)
			ncp += f->lup[(size_t)r * f->nr + o] != UINT32_MAX;
		if (adjustments_of(f, o) > ncp) /* cheaper: both colours at every checkpoint */
			colour_all(f, o);
		if (!colouring_holds(f, o, vin, vout))
			rc = refuse(msg, msgsz, m->name, f->lo, "internal: storage alternation left a region without a valid "
			            "checkpoint colour");
	}
	free(vin);
	free(vout);
	return rc;
}

/* Whether value o needs storage: a checkpoint, or live into f. */
static bool needs_unit(const fstate_t *f, uint32_t o)
{
	bool need = live_in(f, f->lo, o) && !f->pruned[o];
	for (uint32_t r = 0; r < f->nrg && !need; r++)
		need = f->lup[(size_t)r * f->nr + o] != UINT32_MAX;
	return need;
}

/* Units of f's values: byte offsets in a warp's storage, module-wide from
 * *gbytes in global memory, from *sbytes in shared memory (f->shr). */
static void assign_units(fstate_t *f, uint32_t *gbytes, uint32_t *sbytes, sc_pennyc_stats_t *st)
{
	for (uint32_t o = 0; o < f->nr; o++) {
		if (!needs_unit(f, o))
			continue;
		uint32_t *bytes = f->shr[o] ? sbytes : gbytes;
		f->unit[o] = *bytes;
		*bytes += (f->alt[o] ? 2 : 1) * unit_bytes(f, o);
		st->alternating += f->alt[o];
		st->slots += f->alt[o] ? 2 : 1;
		st->shared_slots += f->shr[o] ? (f->alt[o] ? 2 : 1) : 0;
	}
}

/* ---------------------------------------------------------------- storage placement */

/* A value placement ranks (storage auto): cost, and n bytes a warp. */
typedef struct cand {
	double cost;
	uint32_t fi, o, n;
} cand_t;

static int cand_cmp(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->fi != y->fi ? (x->fi < y->fi ? -1 : 1) : (x->o > y->o) - (x->o < y->o);
}

/* Loop depth of each pc of f: how many back edges (a jump to a pc not
 * after it, in f) span it; flipsim's loops are laid out as such spans. */
static void loop_depth(const fstate_t *f, uint8_t *depth)
{
	for (uint32_t pc = f->lo; pc < f->hi; pc++) {
		const sc_insn_t *in = &f->code[pc];
		uint32_t t = sc__insn_jumps(in) ? SC_BR_TARGET(in->imm) : UINT32_MAX;
		if (t >= f->lo && t <= pc)
			for (uint32_t q = t; q <= pc; q++)
				depth[q - f->lo] += depth[q - f->lo] < 8;
	}
}

/* Value o's checkpoint cost (Penny, §6.1): its stores, each weighted
 * 64^(loop depth): checkpoints, adjustments, the prologue's. */
static double value_cost(const fstate_t *f, uint32_t o, const uint8_t *depth)
{
	double c = live_in(f, f->lo, o) ? (f->alt[o] ? 2 : 1) : 0;
	for (uint32_t r = 0; r < f->nrg; r++) {
		size_t i = (size_t)r * f->nr + o;
		if (f->lup[i] != UINT32_MAX)
			c += pow(64.0, depth[f->lup[i] - f->lo]);
		if (f->adjv[i])
			c += pow(64.0, depth[f->re[r] - f->lo]);
	}
	return c;
}

/* The shared bytes per warp kernel fn can add without lowering its
 * occupancy: its threads per block from .reqntid, .maxntid, the hint, or
 * 256; its registers and static shared memory as loaded. */
static uint32_t kernel_budget(const sc_func_t *fn, const sc_pennyc_opts_t *opt)
{
	if (!opt->cfg)
		return 0;
	const uint32_t *d = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
	uint64_t b = d[0] ? (uint64_t)d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1)
	                  : opt->block_hint ? opt->block_hint : 256;
	uint32_t nw = (uint32_t)((b + 31) / 32), st0 = (fn->smem_static + 15) / 16 * 16;
	const char *lim;
	uint32_t c0 = nw ? sc__occupancy(opt->cfg, nw, fn->regs_total, st0, &lim) : 0;
	if (!c0 && !strcmp(lim, "registers")) /* unalloc mode's "registers+": one CTA (gpu.c run_fit) */
		c0 = sc__occupancy(opt->cfg, nw, 0, st0, &lim) ? 1 : 0;
	if (!c0)
		return 0;
	uint32_t per = opt->cfg->smem_per_sm / c0;
	if (per > opt->cfg->max_smem_per_cta)
		per = opt->cfg->max_smem_per_cta;
	return per > st0 ? (per - st0) / nw / GRAIN * GRAIN : 0;
}

/* Which values' units go to shared memory (f->shr): none (global), all
 * (shared), or (auto) the costliest of the module while the shared bytes
 * per warp stay within every kernel's budget (kernel_budget). */
static int place(const sc_module_t *m, fstate_t *fs, const sc_pennyc_opts_t *opt)
{
	if (opt->storage == SC_PENNY_STORE_GLOBAL)
		return 0;
	uint32_t ncand = 0, cap = 0;
	cand_t *c = NULL;
	uint64_t budget = UINT64_MAX;
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		const sc_func_t *fn = &m->funcs[fi];
		if (fn->is_entry && fn->entry_pc != UINT32_MAX && opt->storage == SC_PENNY_STORE_AUTO) {
			uint32_t b = kernel_budget(fn, opt);
			budget = b < budget ? b : budget;
		}
		fstate_t *f = &fs[fi];
		if (f->hi <= f->lo)
			continue;
		uint8_t *depth = calloc(f->hi - f->lo, 1);
		if (depth && ncand + f->nr > cap) {
			cand_t *x = realloc(c, (ncand + f->nr + 64) * sizeof *x);
			if (x) {
				c = x;
				cap = ncand + f->nr + 64;
			}
		}
		if (!depth || ncand + f->nr > cap) {
			free(depth);
			free(c);
			return SC_ENOMEM;
		}
		loop_depth(f, depth);
		for (uint32_t o = 0; o < f->nr; o++)
			if (needs_unit(f, o))
				c[ncand++] = (cand_t){value_cost(f, o, depth), fi, o, (f->alt[o] ? 2u : 1u) * unit_bytes(f, o)};
		free(depth);
	}
	if (ncand)
		qsort(c, ncand, sizeof *c, cand_cmp);
	uint64_t room = opt->storage == SC_PENNY_STORE_SHARED ? UINT64_MAX : budget;
	for (uint32_t i = 0; i < ncand; i++)
		if (c[i].n <= room) {
			fs[c[i].fi].shr[c[i].o] = true;
			room -= c[i].n;
		}
	/* auto: a function that keeps global values anyway takes the shared
	 * base's prologue only when what moved to shared memory outweighs it */
	for (uint32_t fi = 0; fi < m->nfuncs && opt->storage == SC_PENNY_STORE_AUTO; fi++) {
		double moved = 0;
		bool global = false;
		for (uint32_t i = 0; i < ncand; i++)
			if (c[i].fi == fi) {
				moved += fs[fi].shr[c[i].o] ? c[i].cost : 0;
				global |= !fs[fi].shr[c[i].o];
			}
		for (uint32_t i = 0; i < ncand && global && moved <= SHARED_PROLOGUE; i++)
			if (c[i].fi == fi)
				fs[fi].shr[c[i].o] = false;
	}
	free(c);
	return 0;
}

/* The prologue's computation of the global checkpoint bases: f->base =
 * buf + (smid x max_warps + warpid) x wbytes + lane x 4, and with wide
 * values f->base8 = f->base + lane x 4. */
static int global_base(sc_pass_t *p, fstate_t *f, const sc_pennyc_opts_t *opt, uint32_t wbytes, sc_opnd_t bufc,
                       bool wide)
{
	sc_opnd_t t[4], d, e, b, b8 = 0, cmaxw, cstride, c4;
	int rc = 0;
	for (int i = 0; i < 4 && !rc; i++)
		rc = sc__pass_new_reg(p, f->fi, SC_T_U32, &t[i]);
	if (rc || (rc = sc__pass_new_reg(p, f->fi, SC_T_U64, &d)) || (rc = sc__pass_new_reg(p, f->fi, SC_T_U64, &e)) ||
	    (rc = sc__pass_new_reg(p, f->fi, SC_T_U64, &b)) || (rc = sc__pass_const(p, opt->max_warps, &cmaxw)) ||
	    (rc = sc__pass_const(p, wbytes, &cstride)) || (rc = sc__pass_const(p, 4, &c4)) ||
	    (wide && (rc = sc__pass_new_reg(p, f->fi, SC_T_U64, &b8))))
		return rc;
	f->base = (uint16_t)(SC_OPND_IDX(b) - f->rbase);
	const sc_insn_t pro[] = {
		sc__insn_ops((sc_insn_t){.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1)},
		             (sc_opnd_t[6]){t[0], SC_OPND(SC_K_SREG, SC_SR_SMID)}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1)},
		             (sc_opnd_t[6]){t[1], SC_OPND(SC_K_SREG, SC_SR_WARPID)}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1)},
		             (sc_opnd_t[6]){t[2], SC_OPND(SC_K_SREG, SC_SR_LANEID)}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){t[3], t[0], cmaxw, t[1]}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MUL, .type = SC_T_U32, .sub = SC_MUL_WIDE, .nops = SC_NOPS_MAKE(1, 2)},
		             (sc_opnd_t[6]){d, t[3], cstride}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_WIDE, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){e, t[2], c4, d}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_ADD, .type = SC_T_U64, .nops = SC_NOPS_MAKE(1, 2)},
		             (sc_opnd_t[6]){b, e, bufc}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_WIDE, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){b8, t[2], c4, b}),
	};
	unsigned n = sizeof pro / sizeof *pro - !wide;
	for (unsigned i = 0; i < n && !rc; i++)
		rc = sc__pass_prologue(p, f->fi, &pro[i]);
	f->npro += n;
	if (wide)
		f->base8 = (uint16_t)(SC_OPND_IDX(b8) - f->rbase);
	return rc;
}

/* The prologue's computation of the shared checkpoint bases (shared
 * addresses): the CTA's warps' areas lie at the end of its shared memory,
 * the last warp's first, so that the base needs no warp count: f->sbase =
 * %total_smem_size - (warp in CTA + 1) x smem_warp + lane x 4, the warp in
 * the CTA from the linear thread id; with wide values f->sbase8 = f->sbase
 * + lane x 4. */
static int shared_base(sc_pass_t *p, fstate_t *f, uint32_t smem_warp, bool wide)
{
	sc_opnd_t s[12], sb, sb8 = 0, c5, c4, cneg;
	int rc = 0;
	for (int i = 0; i < 12 && !rc; i++)
		rc = sc__pass_new_reg(p, f->fi, SC_T_U32, &s[i]);
	if (rc || (rc = sc__pass_new_reg(p, f->fi, SC_T_U32, &sb)) || (rc = sc__pass_const(p, 5, &c5)) ||
	    (rc = sc__pass_const(p, 4, &c4)) || (rc = sc__pass_const(p, (uint32_t)-smem_warp, &cneg)) ||
	    (wide && (rc = sc__pass_new_reg(p, f->fi, SC_T_U32, &sb8))))
		return rc;
	f->sbase = (uint16_t)(SC_OPND_IDX(sb) - f->rbase);
#define MOVSR(dst, sr)                                                                              \
	sc__insn_ops((sc_insn_t){.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1)},            \
	             (sc_opnd_t[6]){dst, SC_OPND(SC_K_SREG, sr)})
	const sc_insn_t pro[] = {
		MOVSR(s[0], SC_SR_TID_X), MOVSR(s[1], SC_SR_TID_Y), MOVSR(s[2], SC_SR_TID_Z),
		MOVSR(s[3], SC_SR_NTID_X), MOVSR(s[4], SC_SR_NTID_Y),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){s[5], s[2], s[4], s[1]}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){s[6], s[5], s[3], s[0]}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_SHR, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 2)},
		             (sc_opnd_t[6]){s[7], s[6], c5}),
		MOVSR(s[8], SC_SR_LANEID), MOVSR(s[9], SC_SR_TOTAL_SMEM),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){s[10], s[8], c4, s[9]}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO, .nops = SC_NOPS_MAKE(1, 3)},
		             (sc_opnd_t[6]){s[11], s[7], cneg, s[10]}),
		sc__insn_ops((sc_insn_t){.op = SC_OP_ADD, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 2)},
		             (sc_opnd_t[6]){sb, s[11], cneg}),
	};
#undef MOVSR
	for (unsigned i = 0; i < sizeof pro / sizeof *pro && !rc; i++)
		rc = sc__pass_prologue(p, f->fi, &pro[i]);
	_Static_assert(sizeof pro / sizeof *pro == SHARED_PROLOGUE, "SHARED_PROLOGUE: shared_base's words");
	f->npro += sizeof pro / sizeof *pro;
	if (wide && !rc) {
		const sc_insn_t w8 = sc__insn_ops((sc_insn_t){.op = SC_OP_MAD, .type = SC_T_U32, .sub = SC_MUL_LO,
		                                              .nops = SC_NOPS_MAKE(1, 3)},
		                                  (sc_opnd_t[6]){sb8, s[8], c4, sb});
		rc = sc__pass_prologue(p, f->fi, &w8);
		f->npro++;
		f->sbase8 = (uint16_t)(SC_OPND_IDX(sb8) - f->rbase);
	}
	return rc;
}

/* The insertions into f: prologue (the bases its values' storages need,
 * the live-ins' stores), checkpoints, adjustments. */
static int insert(sc_pass_t *p, fstate_t *f, const sc_pennyc_opts_t *opt, uint32_t wbytes, sc_opnd_t bufc,
                  uint32_t smem_warp, sc_pennyc_stats_t *st, uint32_t *post_cp)
{
	bool any[2] = {false, false}, wide[2] = {false, false}; /* [shared] */
	for (uint32_t o = 0; o < f->nr; o++)
		if (f->unit[o] != UINT32_MAX) {
			any[f->shr[o]] = true;
			wide[f->shr[o]] |= f->wide[o];
		}
	f->base = f->base8 = f->sbase = f->sbase8 = UINT16_MAX;
	int rc = any[0] ? global_base(p, f, opt, wbytes, bufc, wide[0]) : 0;
	if (!rc && any[1])
		rc = shared_base(p, f, smem_warp, wide[1]);
	/* values live into the function (never written before): both colours */
	for (uint32_t o = 0; o < f->nr && !rc; o++)
		if (f->unit[o] != UINT32_MAX && live_in(f, f->lo, o))
			for (unsigned c = 0; c < (f->alt[o] ? 2u : 1u) && !rc; c++) {
				sc_insn_t s = cp_store(f, o, c);
				rc = sc__pass_prologue(p, f->fi, &s);
				f->npro++;
			}
	/* checkpoints after the LUPs, in pc order */
	for (uint32_t r = 0; r < f->nrg && !rc; r++)
		for (uint32_t pc = f->rs[r]; pc <= f->re[r] && !rc; pc++)
			for (uint32_t o = 0; o < f->nr && !rc; o++)
				if (f->lup[(size_t)r * f->nr + o] == pc) {
					unsigned c = f->alt[o] ? 1u - f->rcol[(size_t)r * f->nr + o] : 0u;
					sc_insn_t s = cp_store(f, o, c);
					if (!(rc = sc__pass_insert(p, pc, true, &s))) {
						post_cp[pc]++;
						st->cps++;
					}
				}
	/* adjustments: the colour a successor reads, stored too */
	for (uint32_t r = 0; r < f->nrg && !rc; r++) {
		if (!f->adj[r])
			continue;
		uint32_t e = f->re[r];
		bool pre = f->rend[r];
		for (uint32_t o = 0; o < f->nr && !rc; o++) {
			size_t i = (size_t)r * f->nr + o;
			if (!f->alt[o] || !f->adjv[i])
				continue;
			unsigned written = f->lup[i] != UINT32_MAX ? 1u - f->rcol[i] : 2u;
			/* the colours r leaves valid: its checkpoint's, or those it got */
			unsigned c = written != 2u ? 1u - written : 1u - f->acol[i];
			if (written == 2u && !live_out(f, e, o))
				continue;
			sc_insn_t s = cp_store(f, o, c);
			if (!(rc = sc__pass_insert(p, e, !pre, &s)))
				st->adjustments++;
		}
	}
	return rc;
}

/* ---------------------------------------------------------------- the table */

/* A boundary of the new code: its pc, and where its live-ins' read
 * colours come from (region r of fs, its adjustment, or the prologue). */
typedef struct nb {
	uint32_t pc;
	uint32_t fi, r;
	uint8_t kind; /* 0 region, 1 adjustment, 2 prologue */
} nb_t;

static int nb_cmp(const void *a, const void *b)
{
	const nb_t *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc ? 1 : x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* The recovery slice of pruned value o at boundary b appended to t->sw
 * (new pcs): x->arg its first word, x->bytes its length; false when it
 * has none (a bug) or out of memory (*nomem). Basic pruning: the value's
 * one definition. */
static bool add_slice(sc_pennyc_tab_t *t, const fstate_t *f, const nb_t *b, uint32_t o, const uint32_t *word_at,
                      sc_pennyc_ent_t *x, bool *nomem)
{
	size_t k = (size_t)b->r * f->nr + o;
	uint32_t first = !f->sdef ? UINT32_MAX : b->kind == 1 ? f->edef[k] : f->sdef[k];
	uint32_t n = !f->sdef ? 1u : first == UINT32_MAX ? 0u : f->word[first].n;
	if (!n)
		return false;
	sc_pennyc_sw_t *y = realloc(t->sw, (t->nsw + n) * sizeof *y);
	if (!y) {
		*nomem = true;
		return false;
	}
	t->sw = y;
	for (uint32_t i = 0; i < n; i++) {
		sc_pennyc_sw_t w = {.pc = word_at[f->sdef ? f->word[first + i].pc : f->defpc[o]]};
		if (f->sdef)
			memcpy(w.from, f->word[first + i].from, sizeof w.from);
		t->sw[t->nsw + i] = w;
	}
	x->arg = t->nsw;
	x->bytes = (uint8_t)n;
	t->nsw += n;
	return true;
}

/* A boundary's n entries: the restored ones first, then the recomputed
 * (slice) ones by key (1 + their value's rank: a slice reads restored
 * values and the slices ranked before it). A stable insertion sort. */
static void order_slices(sc_pennyc_ent_t *e, uint32_t *key, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		sc_pennyc_ent_t x = e[i];
		uint32_t k = key[i], j = i;
		for (; j > 0 && key[j - 1] > k; j--) {
			e[j] = e[j - 1];
			key[j] = key[j - 1];
		}
		e[j] = x;
		key[j] = k;
	}
}

void sc__pennyc_free(sc_pennyc_tab_t *t)
{
	if (!t)
		return;
	free(t->rstart);
	free(t->off);
	free(t->ent);
	free(t->sw);
	free(t);
}

/* The recovery table of the committed module: old pcs mapped through the
 * insertion counts (the commit's layout: per old pc, the prologue at a
 * function entry, the words before, the word, the words after). */
static int build_table(sc_module_t *m, fstate_t *fs, uint32_t oldn, const uint32_t *npro, const uint32_t *npre,
                       const uint32_t *npost, const uint32_t *post_cp, uint64_t buf, uint32_t units,
                       uint32_t maxw, char *msg, size_t msgsz)
{
	uint32_t *pre_at = malloc((oldn + 1) * sizeof *pre_at), *word_at = malloc((oldn + 1) * sizeof *word_at),
	         *post_at = malloc((oldn + 1) * sizeof *post_at), *pro_at = malloc((oldn + 1) * sizeof *pro_at);
	sc_pennyc_tab_t *t = calloc(1, sizeof *t);
	nb_t *nb = NULL;
	uint32_t nnb = 0, cap = 0, nent = 0, capent = 0, *key = NULL;
	sc_live_t lv = {0};
	int rc = SC_ENOMEM;
	if (!pre_at || !word_at || !post_at || !pro_at || !t)
		goto out;
	uint32_t at = 0;
	for (uint32_t pc = 0; pc < oldn; pc++) {
		pro_at[pc] = at;
		for (uint32_t fi = 0; fi < m->nfuncs; fi++)
			if (fs[fi].hi > fs[fi].lo && fs[fi].lo == pc)
				at += npro[fi];
		pre_at[pc] = at;
		at += npre[pc];
		word_at[pc] = at++;
		post_at[pc] = at;
		at += npost[pc];
	}
	if (at != m->ncode) {
		rc = refuse(msg, msgsz, m->name, 0, "internal: the committed code is not laid out as expected");
		goto out;
	}
	t->ncode = m->ncode;
	t->buf = buf;
	t->warp_bytes = units;
	t->max_warps = maxw;
	if (!(t->rstart = malloc((m->ncode + 1) * sizeof *t->rstart)) || !(t->off = calloc(m->ncode + 1, sizeof *t->off)))
		goto out;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		t->rstart[pc] = UINT32_MAX;
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		fstate_t *f = &fs[fi];
		if (f->hi <= f->lo)
			continue;
		nnb = 0;
		uint32_t need = f->nrg * 2 + 1;
		if (need > cap) {
			nb_t *x = realloc(nb, need * sizeof *x);
			if (!x)
				goto out;
			nb = x;
			cap = need;
		}
		nb[nnb++] = (nb_t){.pc = pro_at[f->lo], .fi = fi, .kind = 2};
		for (uint32_t r = 0; r < f->nrg; r++) {
			nb[nnb++] = (nb_t){.pc = pre_at[f->rs[r]], .fi = fi, .r = r, .kind = 0};
			if (!f->adj[r])
				continue;
			uint32_t e = f->re[r];
			if (f->rend[r] && e != f->rs[r])
				nb[nnb++] = (nb_t){.pc = pre_at[e], .fi = fi, .r = r, .kind = 1};
			else if (!f->rend[r])
				nb[nnb++] = (nb_t){.pc = post_at[e] + post_cp[e], .fi = fi, .r = r, .kind = 1};
		}
		qsort(nb, nnb, sizeof *nb, nb_cmp);
		const sc_func_t *fn = &m->funcs[fi];
		uint32_t *k = realloc(key, (fn->ptx_nregs + 1) * sizeof *k);
		if (!k)
			goto out;
		key = k;
		sc__live_free(&lv);
		const sc_insn_t *vcode = m->code_ptx ? m->code_ptx : m->code; /* unalloc mode: the code is virtual */
		if ((rc = sc__live(vcode, fn->entry_pc, fn->end_pc, fn->ptx_reg_base, fn->ptx_nregs, fn->ptx_pred_base,
		                   fn->ptx_npreds, &lv)))
			goto out;
		rc = SC_ENOMEM;
		for (uint32_t i = 0; i < nnb; i++) {
			uint32_t b = nb[i].pc, end = i + 1 < nnb ? nb[i + 1].pc : fn->end_pc;
			if (i + 1 < nnb && nb[i + 1].pc == b)
				continue; /* an empty prologue, or adjustment words that joined their region */
			for (uint32_t pc = b; pc < end; pc++)
				t->rstart[pc] = b;
			t->off[b] = nent;
			for (uint32_t o = 0; o < fn->ptx_nregs; o++) {
				bool wide = o < f->nr ? f->wide[o] : o == f->base || o == f->base8;
				if (o > 0 && (o - 1 < f->nr ? f->wide[o - 1] : o - 1 == f->base || o - 1 == f->base8))
					continue; /* the upper slot of a 64-bit value */
				if (!sc__live_at(&lv, lv.in, b, o) && !(wide && sc__live_at(&lv, lv.in, b, o + 1)))
					continue;
				uint16_t vs = fn->vslot ? fn->vslot[o]
				                        : (uint16_t)((fn->ptx_reg_base + o) | (wide ? SC_VSLOT_PAIR : 0));
				if (vs == SC_VSLOT_NONE)
					continue;
				sc_pennyc_ent_t x = {.phys = (uint16_t)(vs & ~SC_VSLOT_PAIR), .w = vs & SC_VSLOT_PAIR ? 2 : 1};
				if (nb[i].kind == 2) {
					x.src = SRC_ZERO;
				} else if (o == f->base || o == f->base8 || o == f->sbase || o == f->sbase8) {
					x.src = o == f->base || o == f->base8 ? SRC_BASE : SRC_SBASE;
					x.bytes = o == f->base8 || o == f->sbase8 ? 8 : 4; /* the lane stride */
				} else if (o < f->nr && f->pruned[o]) {
					bool nomem = false;
					x.src = SRC_SLICE;
					if (!add_slice(t, f, &nb[i], o, word_at, &x, &nomem)) {
						if (!nomem)
							rc = refuse(msg, msgsz, m->name, b, "internal: a pruned value has no recovery slice");
						goto out;
					}
				} else if (o < f->nr && f->unit[o] != UINT32_MAX) {
					size_t k = (size_t)nb[i].r * f->nr + o;
					unsigned c = !f->alt[o] ? 0u : nb[i].kind == 1 ? f->acol[k] : f->rcol[k];
					x.src = f->shr[o] ? SRC_SUNIT : SRC_UNIT;
					x.arg = f->unit[o] + c * unit_bytes(f, o);
					uint32_t bits = f->wide[o] ? 64 : sc__type_bits(f->type[o]);
					x.bytes = (uint8_t)(bits / 8 ? bits / 8 : 4);
				} else {
					char why[96];
					snprintf(why, sizeof why, "internal: register %u is live into a region with no checkpoint", o);
					rc = refuse(msg, msgsz, m->name, b, why);
					goto out;
				}
				if (nent == capent) {
					uint32_t c = capent ? 2 * capent : 256;
					sc_pennyc_ent_t *y = realloc(t->ent, c * sizeof *y);
					if (!y)
						goto out;
					t->ent = y;
					capent = c;
				}
				key[nent - t->off[b]] = x.src != SRC_SLICE ? 0 : 1 + (f->rank ? f->rank[o] : 0);
				t->ent[nent++] = x;
			}
			order_slices(t->ent + t->off[b], key, nent - t->off[b]);
			if (nent - t->off[b] > t->maxent)
				t->maxent = nent - t->off[b];
		}
	}
	t->off[m->ncode] = nent;
	for (uint32_t pc = m->ncode; pc-- > 0;)
		if (t->rstart[pc] != pc)
			t->off[pc] = t->off[pc + 1];
	sc__pennyc_free(m->pennyc);
	m->pennyc = t;
	t = NULL;
	rc = 0;
out:
	sc__live_free(&lv);
	sc__pennyc_free(t);
	free(nb);
	free(key);
	free(pre_at);
	free(word_at);
	free(post_at);
	free(pro_at);
	return rc;
}

/* The buffer as a module-scope .global variable (the emitter declares it)
 * whose address is pool entry `at`. */
static int add_symbol(sc_module_t *m, uint32_t at, uint64_t bytes)
{
	sc__sym_t *y = realloc(m->syms, (m->nsyms + 1) * sizeof *y);
	if (!y)
		return SC_ENOMEM;
	m->syms = y;
	sc__reloc_t *r = realloc(m->reloc, (m->nreloc + 1) * sizeof *r);
	if (!r)
		return SC_ENOMEM;
	m->reloc = r;
	char *name = strdup("__penny_ckpt");
	if (!name)
		return SC_ENOMEM;
	m->syms[m->nsyms] = (sc__sym_t){.name = name, .space = SC_SP_GLOBAL, .role = SC_SYM_VAR, .owner = -1,
	                                .size = (uint32_t)bytes, .align = 2 * GRAIN};
	m->reloc[m->nreloc++] = (sc__reloc_t){.at = at, .pool = true, .sym = m->nsyms++};
	return 0;
}

int sc__pennyc_compile(sc_module_t *m, const sc_pennyc_opts_t *opt, sc_pennyc_stats_t *st, char *msg, size_t msgsz)
{
	sc_pennyc_stats_t local = {0};
	int refused = sc__dcall_refuse(m, "Penny's compiler", msg, msgsz);
	if (refused)
		return refused;
	if (!st)
		st = &local;
	*st = (sc_pennyc_stats_t){0};
	msg[0] = 0;
	uint32_t oldn = m->ncode, units = 0, sunits = 0; /* bytes a warp: global, shared */
	fstate_t *fs = calloc(m->nfuncs + 1, sizeof *fs);
	uint32_t *npro = calloc(m->nfuncs + 1, sizeof *npro), *npre = calloc(oldn + 1, sizeof *npre),
	         *npost = calloc(oldn + 1, sizeof *npost), *post_cp = calloc(oldn + 1, sizeof *post_cp);
	sc_pass_t *p = NULL;
	int rc = SC_ENOMEM;
	if (!fs || !npro || !npre || !npost || !post_cp || (rc = sc__pass_begin(m, &p)))
		goto out;
	rc = 0;
	for (uint32_t fi = 0; fi < m->nfuncs && !rc; fi++) {
		const sc_func_t *fn = &m->funcs[fi];
		fs[fi].fi = fi;
		if (fn->entry_pc == UINT32_MAX || fn->end_pc <= fn->entry_pc)
			continue;
		rc = analyse(p, &fs[fi], opt, st, msg, msgsz);
	}
	if (rc || (rc = place(m, fs, opt)))
		goto out;
	for (uint32_t fi = 0; fi < m->nfuncs; fi++)
		if (fs[fi].hi > fs[fi].lo)
			assign_units(&fs[fi], &units, &sunits, st);
	uint64_t bytes = (uint64_t)opt->num_sms * opt->max_warps * units, buf = 0;
	uint32_t smem_warp = sunits;
	st->bytes = bytes;
	st->smem_warp = smem_warp;
	if (bytes > UINT32_MAX || sunits > (1u << 20)) {
		rc = refuse(msg, msgsz, m->name, 0, "the checkpoint storage would exceed 4 GiB (global) or 1 MiB a warp "
		            "(shared)");
		goto out;
	}
	sc_opnd_t bufc = 0;
	if (units && ((rc = opt->alloc(opt->ctx, bytes, &buf)) || (rc = sc__pass_const(p, buf, &bufc))))
		goto out;
	for (uint32_t fi = 0; fi < m->nfuncs && !rc; fi++) {
		fstate_t *f = &fs[fi];
		if (f->hi <= f->lo)
			continue;
		rc = insert(p, f, opt, units, bufc, smem_warp, st, post_cp);
	}
	if (rc)
		goto out;
	/* the layout of what was inserted, for the table */
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		fstate_t *f = &fs[fi];
		if (f->hi <= f->lo)
			continue;
		npro[fi] = f->npro;
		for (uint32_t pc = f->lo; pc < f->hi; pc++)
			npost[pc] = post_cp[pc];
		for (uint32_t r = 0; r < f->nrg; r++) {
			if (!f->adj[r])
				continue;
			uint32_t e = f->re[r], k = 0;
			for (uint32_t o = 0; o < f->nr; o++) {
				size_t i = (size_t)r * f->nr + o;
				if (f->alt[o] && f->adjv[i] && !(f->lup[i] == UINT32_MAX && !live_out(f, e, o)))
					k++;
			}
			if (f->rend[r])
				npre[e] += k;
			else
				npost[e] += k;
		}
	}
	uint32_t pool_at = units ? SC_OPND_IDX(bufc) : UINT32_MAX;
	uint32_t want = oldn + sc__pass_inserted(p);
	rc = sc__pass_commit(p, msg, msgsz); /* frees the session */
	p = NULL;
	/* The table places the checkpoints by the layout above: a spill round
	 * the commit ran (the checkpoints' registers went past the GPU's
	 * limit, spill.c) moved them, and is refused rather than mistaken. */
	if (!rc && m->ncode != want) {
		snprintf(msg, msgsz, "Penny's compiled mode: the checkpointed code needs more registers than the GPU "
		                     "allows and spills, which compiled mode does not support yet (use mode oracle)");
		rc = SC_EINVAL;
	}
	if (!rc && units)
		rc = add_symbol(m, pool_at, bytes);
	if (!rc)
		rc = build_table(m, fs, oldn, npro, npre, npost, post_cp, buf, units, opt->max_warps, msg, msgsz);
	if (!rc) { /* the shared storage: every kernel's launches add it (gpu.c run_size) */
		m->pennyc->smem_warp = smem_warp;
		for (uint32_t fi = 0; fi < m->nfuncs; fi++)
			if (m->funcs[fi].is_entry)
				m->funcs[fi].smem_warp = smem_warp;
	}
out:
	if (p)
		sc__pass_abort(p);
	for (uint32_t fi = 0; fs && fi < m->nfuncs; fi++)
		fstate_free(&fs[fi]);
	free(fs);
	free(npro);
	free(npre);
	free(npost);
	free(post_cp);
	return rc;
}

/* ---------------------------------------------------------------- recovery */

/* The entry of region rb that holds register slot x, or NULL. */
static const sc_pennyc_ent_t *entry_of(const sc_pennyc_tab_t *t, uint32_t rb, uint32_t x)
{
	for (uint32_t j = t->off[rb]; j < t->off[rb + 1]; j++)
		if (x >= t->ent[j].phys && x < t->ent[j].phys + t->ent[j].w)
			return &t->ent[j];
	return NULL;
}

#define SLICE_WORDS 16 /* at most (pennyprune.c's SLICE_MAX) */

/* Recovery slice sw[x->arg, x->arg + x->bytes) of entry x, on the lanes of
 * mask. Its words run in order, each with its register inputs set just
 * before it: a restored one as the register file held it when the slice
 * began, an intermediate one as the slice's earlier word computed it.
 * Then every register the slice touched gets its value back, and x's
 * register the last word's result: the slice's intermediates clobber no
 * live register, whatever registers the allocator gave them. False when
 * a word stopped the run (a DUE). */
static bool run_slice(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_pennyc_tab_t *t, const sc_pennyc_ent_t *x,
                      uint32_t mask)
{
	enum { MAXS = SLICE_WORDS * 7 * 2 };
	uint16_t slot[MAXS];
	uint32_t save[MAXS][32], res[SLICE_WORDS][2][32], ns = 0, nw = x->bytes < SLICE_WORDS ? x->bytes : SLICE_WORDS;
	const sc_insn_t *code = g->run.mod->code;
	sc_regref_t v[7];
	for (uint32_t i = 0; i < nw; i++) { /* the registers the slice touches, saved */
		unsigned k = sc__insn_regs(&code[t->sw[x->arg + i].pc], v);
		for (unsigned j = 0; j < k; j++)
			for (unsigned q = 0; !v[j].pred && q < v[j].w; q++) {
				uint32_t s = 0, r = v[j].idx + q;
				while (s < ns && slot[s] != r)
					s++;
				if (s == ns) {
					slot[ns] = (uint16_t)r;
					memcpy(save[ns++], &w->rf[(size_t)r * 32], sizeof save[0]);
				}
			}
	}
	unsigned dw = 1;
	for (uint32_t i = 0; i < nw; i++) {
		const sc_pennyc_sw_t *y = &t->sw[x->arg + i];
		const sc_insn_t *in = &code[y->pc];
		unsigned k = sc__insn_regs(in, v);
		for (unsigned j = 0; j < k; j++) {
			if (v[j].def || v[j].pred || v[j].pos >= 6)
				continue;
			for (unsigned q = 0; q < v[j].w; q++) {
				uint32_t *to = &w->rf[(size_t)(v[j].idx + q) * 32], s = 0;
				if (y->from[v[j].pos]) {
					memcpy(to, res[y->from[v[j].pos] - 1][q], sizeof res[0][0]);
					continue;
				}
				while (slot[s] != v[j].idx + q)
					s++;
				memcpy(to, save[s], sizeof save[0]);
			}
		}
		sc_dec_t d;
		sc__decode(g, in, y->pc, true, &d);
		if (d.fn(g, sm, w, &d, mask) < 0 || g->run.halt)
			return false;
		for (unsigned j = 0; j < k; j++)
			if (v[j].def && !v[j].pred) {
				dw = v[j].w;
				for (unsigned q = 0; q < v[j].w; q++)
					memcpy(res[i][q], &w->rf[(size_t)(v[j].idx + q) * 32], sizeof res[0][0]);
			}
	}
	for (uint32_t s = 0; s < ns; s++)
		memcpy(&w->rf[(size_t)slot[s] * 32], save[s], sizeof save[0]);
	for (unsigned q = 0; q < dw && q < x->w; q++)
		memcpy(&w->rf[(size_t)(x->phys + q) * 32], res[nw - 1][q], sizeof res[0][0]);
	return true;
}

void sc__pennyc_recover(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_perr_t *e, uint32_t pc)
{
	const sc_pennyc_tab_t *t = sm->penny->ctab;
	uint32_t rb = pc < t->ncode ? t->rstart[pc] : UINT32_MAX, mask = w->stk[w->sp - 1].mask;
	if (rb == UINT32_MAX)
		return sc__penny_unrecoverable(g, sm, w, pc, "the pc lies in no region");
	/* the patterns of w's registers: a restored word is clean; a lane
	 * outside the mask read across lanes (shfl) keeps its value at the
	 * region's start (it does not execute in the region): its clean bits */
	uint64_t base = (uint64_t)(w->rf - sm->rf);
	for (uint32_t i = 0; i < sm->nerr;) {
		const sc_perr_t *q = &sm->err[i];
		if (q->tgt != SC_TGT_REGFILE || q->word < base || q->word >= base + (uint64_t)g->run.regs * 32) {
			i++;
			continue;
		}
		uint32_t x = (uint32_t)((q->word - base) / 32), lane = (uint32_t)((q->word - base) % 32);
		bool hit = q->tgt == e->tgt && q->word == e->word, in = mask >> lane & 1u;
		if (in && entry_of(t, rb, x)) {
			sm->err[i] = sm->err[--sm->nerr];
		} else if (hit && !in) {
			w->rf[(size_t)x * 32 + lane] ^= (uint32_t)q->data;
			sm->err[i] = sm->err[--sm->nerr];
		} else {
			i++;
		}
	}
	/* the restores */
	uint64_t warp = t->buf + ((uint64_t)sm->id * t->max_warps + w->slot) * t->warp_bytes;
	/* the shared storage: a shared address, and the CTA's bytes */
	uint32_t swarp = g->run.smem - (w->wid + 1) * t->smem_warp, ns = 0;
	uint8_t *cta_smem = sm->smem + w->cta->smem_off;
	uint32_t n = 0;
	for (uint32_t j = t->off[rb]; j < t->off[rb + 1]; j++) {
		const sc_pennyc_ent_t *x = &t->ent[j];
		uint32_t *lo = &w->rf[(size_t)x->phys * 32], *hi = x->w == 2 ? lo + 32 : NULL;
		if (x->src == SRC_SLICE)
			continue; /* after the restores (below) */
		uint32_t lane = x->bytes == 8 ? 8 : 4; /* a unit's lane stride; a base's */
		FOR_LANES(l, mask) {
			uint64_t v = 0;
			if (x->src == SRC_UNIT) {
				const uint8_t *s = sc__gmem_find(&g->gmem, warp + x->arg + l * lane, x->bytes);
				if (!s)
					return sc__penny_unrecoverable(g, sm, w, pc, "its checkpoint storage is gone");
				memcpy(&v, s, x->bytes);
			} else if (x->src == SRC_SUNIT) {
				uint32_t a = swarp + x->arg + l * lane;
				/* a read of shared memory: a code on it checks the word as a load's would */
				if (UNLIKELY(sm->nerr) && sc__prot_has_smem(sm) &&
				    !sc__prot_smem(g, sm, w, w->cta->smem_off + a, x->bytes, false, pc))
					return;
				memcpy(&v, cta_smem + a, x->bytes);
			} else if (x->src == SRC_BASE) {
				v = warp + l * lane;
			} else if (x->src == SRC_SBASE) {
				v = swarp + l * lane;
			}
			lo[l] = (uint32_t)v;
			if (hi)
				hi[l] = (uint32_t)(v >> 32);
		}
		n += x->src == SRC_UNIT;
		ns += x->src == SRC_SUNIT;
	}
	/* the pruned values' recovery slices, in the table's (rank) order: each
	 * reads restored values and the values recomputed before it (a slice
	 * waits as a restore from global memory) */
	for (uint32_t j = t->off[rb]; j < t->off[rb + 1]; j++) {
		const sc_pennyc_ent_t *x = &t->ent[j];
		if (x->src != SRC_SLICE)
			continue;
		if (!run_slice(g, sm, w, t, x, mask))
			return;
		n++;
	}
	sc__penny_rollback(g, sm, w, rb,
	                   (uint64_t)n * g->cfg.latency[SC_LAT_GLOBAL] + (uint64_t)ns * g->cfg.latency[SC_LAT_SHARED]);
}
