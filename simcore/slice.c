/* Reaching definitions and backward register slices over one function's
 * virtual-register code (the pass framework's code: code_ptx, or code in
 * unalloc mode). A definition is one register destination of one
 * instruction (sc__insn_regs' view: address bases and negated predicates
 * are only read); a guarded definition may not run, so it kills nothing.
 * Registers are slot ranges (a 64-bit register is two slots) and
 * predicates a second name space after them, so a definition reaches a
 * read when their ranges overlap. The CFG is the code's own: a word falls
 * through unless it ends a block unguarded (sc__insn_falls), and a jump
 * also reaches its target; calls are not followed (a pass over code with
 * calls must refuse it or treat the call's results itself). Used by the
 * datapath-duplication pass (dup.c); DESIGN.md, "Datapath duplication and
 * resilient instructions". */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

void sc__rdefs_free(sc_rdefs_t *rd)
{
	if (!rd)
		return;
	free(rd->def_pc);
	free(rd->def_ref);
	free(rd->first);
	free(rd->in);
	free(rd->by_slot);
	free(rd->slot_first);
	memset(rd, 0, sizeof *rd);
}

/* The name-space index of a reference's first slot. */
static uint32_t slot_of(const sc_rdefs_t *rd, sc_regref_t r) { return r.pred ? rd->nregs + r.idx : r.idx; }

int sc__rdefs(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t nregs, uint32_t npreds, sc_rdefs_t *rd)
{
	memset(rd, 0, sizeof *rd);
	rd->lo = lo;
	rd->hi = hi;
	rd->nregs = nregs;
	rd->npreds = npreds;
	uint32_t n = hi - lo, nslots = nregs + npreds, nd = 0;
	sc_regref_t v[7];
	/* 1. the definitions, in pc order */
	rd->first = malloc((n + 1) * sizeof *rd->first);
	rd->slot_first = calloc(nslots + 2, sizeof *rd->slot_first);
	if (!rd->first || !rd->slot_first)
		goto nomem;
	for (uint32_t pc = lo; pc < hi; pc++) {
		rd->first[pc - lo] = nd;
		unsigned k = sc__insn_regs(&code[pc], v);
		for (unsigned j = 0; j < k; j++)
			if (v[j].def) {
				uint32_t s = slot_of(rd, v[j]);
				if (s + v[j].w > nslots) {
					sc__rdefs_free(rd);
					return SC_EINVAL;
				}
				nd++;
				for (unsigned q = 0; q < v[j].w; q++)
					rd->slot_first[s + q + 1]++;
			}
	}
	rd->first[n] = nd;
	rd->ndef = nd;
	rd->words = (nd + 63) / 64;
	for (uint32_t s = 0; s < nslots; s++)
		rd->slot_first[s + 1] += rd->slot_first[s];
	rd->def_pc = malloc((nd + 1) * sizeof *rd->def_pc);
	rd->def_ref = malloc((nd + 1) * sizeof *rd->def_ref);
	rd->by_slot = malloc((rd->slot_first[nslots] + 1) * sizeof *rd->by_slot);
	rd->in = calloc((size_t)n * rd->words + 1, sizeof *rd->in);
	uint32_t *fill = calloc(nslots + 1, sizeof *fill);
	uint64_t *cur = calloc(rd->words + 1, sizeof *cur);
	if (!rd->def_pc || !rd->def_ref || !rd->by_slot || !rd->in || !fill || !cur) {
		free(fill);
		free(cur);
		goto nomem;
	}
	for (uint32_t pc = lo, d = 0; pc < hi; pc++) {
		unsigned k = sc__insn_regs(&code[pc], v);
		for (unsigned j = 0; j < k; j++)
			if (v[j].def) {
				uint32_t s = slot_of(rd, v[j]);
				rd->def_pc[d] = pc;
				rd->def_ref[d] = v[j];
				for (unsigned q = 0; q < v[j].w; q++)
					rd->by_slot[rd->slot_first[s + q] + fill[s + q]++] = d;
				d++;
			}
	}
	free(fill);
	/* 2. forward dataflow to the fixed point: out = gen + (in - kill) */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t pc = lo; pc < hi; pc++) {
			const sc_insn_t *in = &code[pc];
			memcpy(cur, rd->in + (size_t)(pc - lo) * rd->words, rd->words * sizeof *cur);
			for (uint32_t d = rd->first[pc - lo]; d < rd->first[pc - lo + 1]; d++) {
				if (!(in->guard & SC_GUARD_ON)) {
					uint32_t s = slot_of(rd, rd->def_ref[d]);
					for (unsigned q = 0; q < rd->def_ref[d].w; q++)
						for (uint32_t i = rd->slot_first[s + q]; i < rd->slot_first[s + q + 1]; i++)
							cur[rd->by_slot[i] >> 6] &= ~(1ull << (rd->by_slot[i] & 63));
				}
			}
			for (uint32_t d = rd->first[pc - lo]; d < rd->first[pc - lo + 1]; d++)
				cur[d >> 6] |= 1ull << (d & 63);
			uint32_t succ[2], ns = 0;
			if (sc__insn_falls(in) && pc + 1 < hi)
				succ[ns++] = pc + 1;
			if (sc__insn_jumps(in) && SC_BR_TARGET(in->imm) >= lo && SC_BR_TARGET(in->imm) < hi)
				succ[ns++] = SC_BR_TARGET(in->imm);
			for (uint32_t i = 0; i < ns; i++) {
				uint64_t *t = rd->in + (size_t)(succ[i] - lo) * rd->words;
				for (uint32_t w = 0; w < rd->words; w++)
					if (cur[w] & ~t[w]) {
						t[w] |= cur[w];
						changed = true;
					}
			}
		}
	}
	free(cur);
	return 0;
nomem:
	sc__rdefs_free(rd);
	return SC_ENOMEM;
}

uint32_t sc__rdefs_of(const sc_rdefs_t *rd, uint32_t pc, sc_regref_t r, uint32_t *out, uint32_t max)
{
	if (pc < rd->lo || pc >= rd->hi)
		return 0;
	const uint64_t *set = rd->in + (size_t)(pc - rd->lo) * rd->words;
	uint32_t s = slot_of(rd, r), n = 0;
	for (unsigned q = 0; q < r.w; q++)
		for (uint32_t i = rd->slot_first[s + q]; i < rd->slot_first[s + q + 1]; i++) {
			uint32_t d = rd->by_slot[i];
			if (!((set[d >> 6] >> (d & 63)) & 1u))
				continue;
			bool seen = false; /* a 64-bit definition sits in both slots' lists */
			for (uint32_t j = 0; j < n && j < max && !seen; j++)
				seen = out[j] == d;
			if (!seen) {
				if (n < max)
					out[n] = d;
				n++;
			}
		}
	return n;
}

int sc__slice(const sc_rdefs_t *rd, const sc_insn_t *code, uint32_t pc, uint32_t opmask,
              bool (*follow)(const sc_insn_t *in, void *ctx), void *ctx, bool *cone)
{
	uint32_t cap = 64, top = 0;
	/* the work list: (pc, reference) reads still to resolve */
	struct item {
		uint32_t pc;
		sc_regref_t r;
	} *work = malloc(cap * sizeof *work);
	uint32_t *defs = malloc((rd->ndef + 1) * sizeof *defs);
	int rc = SC_ENOMEM;
	if (!work || !defs)
		goto out;
	sc_regref_t v[7];
	unsigned k = sc__insn_regs(&code[pc], v);
	for (unsigned j = 0; j < k; j++)
		if (!v[j].def && v[j].pos < 6 && ((opmask >> v[j].pos) & 1u))
			work[top++] = (struct item){pc, v[j]};
	while (top) {
		struct item it = work[--top];
		uint32_t nd = sc__rdefs_of(rd, it.pc, it.r, defs, rd->ndef);
		for (uint32_t i = 0; i < nd; i++) {
			uint32_t dp = rd->def_pc[defs[i]];
			if (cone[dp - rd->lo])
				continue;
			cone[dp - rd->lo] = true;
			if (follow && !follow(&code[dp], ctx))
				continue;
			k = sc__insn_regs(&code[dp], v);
			for (unsigned j = 0; j < k; j++) {
				if (v[j].def || v[j].pos == 6) /* the guard stays the original's */
					continue;
				if (top == cap) {
					struct item *nw = realloc(work, 2 * cap * sizeof *work);
					if (!nw)
						goto out;
					work = nw;
					cap *= 2;
				}
				work[top++] = (struct item){dp, v[j]};
			}
		}
	}
	rc = 0;
out:
	free(work);
	free(defs);
	return rc;
}
