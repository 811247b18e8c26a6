/* Register spilling (DESIGN.md, "Spilling"): when a kernel's allocation
 * needs more 32-bit slots per thread than the GPU allows
 * (max_regs_per_thread, m->max_regs), virtual registers go to local
 * memory, as ptxas spills them, through a pass over the virtual code
 * (pass.c) whose commit re-runs the allocation; rounds repeat until every
 * kernel fits or nothing more can be spilled.
 *
 * Where: the points over the limit of a function are the pcs where a
 * value whose slot reaches past the limit is live after the instruction
 * or defined by it, and the calls whose callee (or anything it calls) has
 * a window reaching past it (what is live across such a call pushes the
 * callee's window up). A candidate is a register live after one of those
 * points that is live *through* some instruction that does not name it:
 * only then does spilling it take it out of the register file anywhere
 * (a value that lives only from an instruction to the next, as the
 * spill code's own temporaries do, would just be replaced by another), so
 * no round spills what an earlier one made, and the rounds end.
 *
 * Never spilled: predicates (they do not count against
 * max_regs_per_thread: the limit is on 32-bit registers); a .func's value
 * read before any write (live at its entry: it keeps what the last call
 * left, which a fresh spill slot would not; a kernel's such value starts
 * at zero, so its slot is zeroed in the kernel's prologue); a value another lane reads (shfl's source: pinned by the
 * allocation, since an inactive source lane must yield what ptx mode
 * yields); a register declared narrower than 32 bits (its temporary
 * would have to be declared so too, and a 32-bit spill of it would not be
 * PTX); a value defined by an instruction that jumps or does not fall
 * through.
 *
 * Which: the cost of a candidate is the sum over its definitions and uses
 * of 8^d, d the loop depth of the pc (the number of distinct backward
 * jumps whose span [target, jump] holds it, up to 5); its benefit is the
 * length of its live range (the pcs after which it is live). The
 * candidates are taken by cost / length, lowest first (ties: function,
 * then register, in order), until their slots reach the largest excess
 * of a kernel over the limit. Deterministic: no hashing, no addresses.
 *
 * How: each spilled register gets a slot of its width (4 or 8 bytes,
 * aligned so) in its function's local memory (sc__pass_local); at every
 * instruction naming it, a fresh register of its declared type takes its
 * place: loaded (ld.local) before the instruction when it reads the
 * register or writes it under a guard (the lanes the guard leaves must
 * store back what they had), and stored (st.local) after it when it
 * writes it. The spill code is ordinary code: its accesses go through the
 * L1/L2 timing model and its local memory is a fault target as any other.
 * The spilled register itself is no longer named by any instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

#define MAX_DEPTH 5

typedef struct cand {
	uint32_t fi, v, w;
	bool zero;  /* a kernel's value read before written: its slot starts at 0 */
	double pri;
} cand_t;

typedef struct cands {
	cand_t *v;
	uint32_t n, cap;
} cands_t;

static inline bool bit(const uint64_t *b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }

/* The slot end (past the last slot) of value v of f, 0 when unallocated. */
static uint32_t slot_end(const sc_func_t *f, uint32_t v)
{
	if (!f->vslot || f->vslot[v] == SC_VSLOT_NONE)
		return 0;
	return (uint32_t)(f->vslot[v] & ~SC_VSLOT_PAIR) + (f->vslot[v] & SC_VSLOT_PAIR ? 2u : 1u);
}

/* top[i]: the highest slot (+1) of function i's window and of every
 * window it can reach. */
static void window_tops(const sc_module_t *m, const bool *reach, uint32_t *top)
{
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < nf; i++) {
		top[i] = m->funcs[i].reg_base + m->funcs[i].nregs;
		for (uint32_t j = 0; j < nf; j++)
			if (reach[(size_t)i * nf + j] && m->funcs[j].reg_base + m->funcs[j].nregs > top[i])
				top[i] = m->funcs[j].reg_base + m->funcs[j].nregs;
	}
}

static int func_at_entry(const sc_module_t *m, uint32_t pc)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry_pc == pc)
			return (int)i;
	return -1;
}

/* depth[pc - entry]: f's loop depth at each pc (the header comment). */
static void loop_depth(const sc_insn_t *code, const sc_func_t *f, uint8_t *depth)
{
	uint32_t n = f->end_pc - f->entry_pc;
	memset(depth, 0, n);
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		if (!sc__insn_jumps(&code[pc]))
			continue;
		uint32_t t = SC_BR_TARGET(code[pc].imm);
		if (t < f->entry_pc || t > pc)
			continue;
		/* one loop per header: the outermost backward jump to t counts */
		bool later = false;
		for (uint32_t q = pc + 1; q < f->end_pc && !later; q++)
			later = sc__insn_jumps(&code[q]) && SC_BR_TARGET(code[q].imm) == t;
		if (later)
			continue;
		for (uint32_t q = t; q <= pc; q++)
			if (depth[q - f->entry_pc] < MAX_DEPTH)
				depth[q - f->entry_pc]++;
	}
}

static int push_cand(cands_t *c, cand_t x)
{
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 64;
		cand_t *v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return SC_ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = x;
	return 0;
}

/* Per-value facts of one function for the choice. */
typedef struct fscan {
	double *cost;
	uint32_t *len;
	uint8_t *through, *hot, *bad;
} fscan_t;

/* The values of f's operands at pc: marks cost, bad and hot (defined
 * past the limit). */
static void scan_operands(const sc_module_t *m, const sc_func_t *f, const sc_live_t *lv, uint32_t pc, double wt,
                          fscan_t *s, bool *over)
{
	const sc_insn_t *in = &m->code_ptx[pc];
	sc_regref_t ov[8];
	unsigned k = sc__insn_regs(in, ov);
	bool jumpy = sc__insn_jumps(in) || !sc__insn_falls(in);
	for (unsigned j = 0; j < k; j++) {
		if (ov[j].pred)
			continue;
		uint32_t v = ov[j].idx - lv->reg_base;
		s->cost[v] += wt;
		if (ov[j].xlane || (ov[j].def && jumpy))
			s->bad[v] = 1;
		if (ov[j].def && slot_end(f, v) > m->max_regs)
			*over = true;
	}
}

/* Whether `in` is spill code: ld/st.local of a spill slot. */
static bool spill_code(const sc_module_t *m, const sc_insn_t *in)
{
	if ((in->op != SC_OP_LD && in->op != SC_OP_ST) || SC_AUX_SPACE(in->aux) != SC_SP_LOCAL || !m->spilled)
		return false;
	sc_opnd_t a = sc__opnd(in, in->op == SC_OP_LD ? SC_NDST(in) : 0);
	return SC_OPND_KIND(a) == SC_K_ADDR && SC_OPND_IDX(a) == SC_NOREG && in->imm >= m->spill_base;
}

/* Whether pc names value v, or is spill code (which a temporary of
 * another spilled register at the same instruction lives across). */
static bool names(const sc_module_t *m, const sc_insn_t *in, const sc_live_t *lv, uint32_t v)
{
	if (spill_code(m, in))
		return true;
	sc_regref_t ov[8];
	unsigned k = sc__insn_regs(in, ov);
	for (unsigned j = 0; j < k; j++)
		if (!ov[j].pred && ov[j].idx - lv->reg_base == v)
			return true;
	return false;
}

/* The candidates of function fi (header comment) appended to c. */
static int scan_func(const sc_module_t *m, uint32_t fi, const uint32_t *top, cands_t *c)
{
	const sc_func_t *f = &m->funcs[fi];
	uint32_t L = m->max_regs, n = f->end_pc - f->entry_pc;
	sc_live_t lv;
	int rc = sc__live(m->code_ptx, f->entry_pc, f->end_pc, f->ptx_reg_base, f->ptx_nregs, f->ptx_pred_base,
	                  f->ptx_npreds, &lv);
	if (rc)
		return rc == SC_ENOMEM ? rc : SC_EPARSE;
	uint32_t nr = lv.nregs;
	fscan_t s = {.cost = calloc(nr + 1, sizeof *s.cost), .len = calloc(nr + 1, sizeof *s.len),
	             .through = calloc(nr + 1, 1), .hot = calloc(nr + 1, 1), .bad = calloc(nr + 1, 1)};
	uint8_t *depth = malloc(n + 1);
	rc = SC_ENOMEM;
	if (!s.cost || !s.len || !s.through || !s.hot || !s.bad || !depth)
		goto out;
	loop_depth(m->code_ptx, f, depth);
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		const uint64_t *out = lv.out + (size_t)(pc - lv.lo) * lv.words, *in = lv.in + (size_t)(pc - lv.lo) * lv.words;
		double wt = 1;
		for (unsigned d = 0; d < depth[pc - f->entry_pc]; d++)
			wt *= 8;
		bool over = false;
		scan_operands(m, f, &lv, pc, wt, &s, &over);
		const sc_insn_t *insn = &m->code_ptx[pc];
		if (insn->op == SC_OP_CALL) {
			int g = func_at_entry(m, SC_BR_TARGET(insn->imm));
			over |= g >= 0 && top[g] > L;
		}
		for (uint32_t v = 0; v < nr; v++) {
			if (!bit(out, v))
				continue;
			s.len[v]++;
			over |= slot_end(f, v) > L;
			if (bit(in, v) && !s.through[v] && !names(m, insn, &lv, v))
				s.through[v] = 1;
		}
		if (!over)
			continue;
		for (uint32_t v = 0; v < nr; v++)
			if (bit(out, v))
				s.hot[v] = 1;
	}
	rc = 0;
	for (uint32_t v = 0; v < nr && !rc; v++) {
		uint8_t type;
		bool entry = lv.hi > lv.lo && bit(lv.in, v);
		if (!s.hot[v] || !s.through[v] || s.bad[v] || !f->vslot || f->vslot[v] == SC_VSLOT_NONE ||
		    (entry && !f->is_entry))
			continue;
		if (sc__reg_type(m, f, f->ptx_reg_base + v, false, &type, NULL) || sc__type_bits(type) < 32)
			continue;
		uint32_t w = f->vslot[v] & SC_VSLOT_PAIR ? 2 : 1;
		rc = push_cand(c, (cand_t){.fi = fi, .v = v, .w = w, .zero = entry,
		                           .pri = s.cost[v] / (s.len[v] ? s.len[v] : 1)});
	}
out:
	free(s.cost);
	free(s.len);
	free(s.through);
	free(s.hot);
	free(s.bad);
	free(depth);
	sc__live_free(&lv);
	return rc;
}

static int cand_cmp(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;
	if (x->pri != y->pri)
		return x->pri < y->pri ? -1 : 1;
	if (x->fi != y->fi)
		return x->fi < y->fi ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/* One spilled register's rewrite at every instruction of its function
 * naming it (the header comment); counts into st / ld. */
static int rewrite(sc_pass_t *p, const cand_t *c, uint32_t off, uint32_t *st, uint32_t *ld)
{
	const sc_module_t *m = sc__pass_module(p);
	const sc_func_t *f = &m->funcs[c->fi];
	uint32_t slot = f->ptx_reg_base + c->v;
	uint8_t type;
	if (sc__reg_type(m, f, slot, false, &type, NULL))
		return SC_EINVAL;
	sc_opnd_t addr = SC_OPND(SC_K_ADDR, SC_NOREG);
	uint16_t bt = c->w == 2 ? SC_T_B64 : SC_T_B32;
	if (c->zero) { /* the kernel's prologue: the zero its registers start with */
		sc_opnd_t t, zero;
		int rc = sc__pass_new_reg(p, c->fi, type, &t);
		if (rc || (rc = sc__pass_const(p, 0, &zero)))
			return rc;
		sc_insn_t mv = {.op = SC_OP_MOV, .type = (uint8_t)bt, .nops = SC_NOPS_MAKE(1, 1)};
		sc_insn_t s = {.op = SC_OP_ST, .type = (uint8_t)bt, .nops = SC_NOPS_MAKE(0, 2), .imm = off,
		               .aux = SC_AUX_MAKE(SC_SP_LOCAL, 0, 0)};
		sc__set_opnds(&mv, 2, (sc_opnd_t[]){t, zero});
		sc__set_opnds(&s, 2, (sc_opnd_t[]){addr, t});
		if ((rc = sc__pass_prologue(p, c->fi, &mv)) || (rc = sc__pass_prologue(p, c->fi, &s)))
			return rc;
		(*st)++;
	}
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		sc_insn_t in = *sc__pass_insn(p, pc);
		sc_regref_t ov[8];
		unsigned k = sc__insn_regs(&in, ov);
		bool use = false, def = false;
		for (unsigned j = 0; j < k; j++)
			if (!ov[j].pred && ov[j].idx == slot) {
				use |= !ov[j].def;
				def |= ov[j].def;
			}
		if (!use && !def)
			continue;
		sc_opnd_t t;
		int rc = sc__pass_new_reg(p, c->fi, type, &t);
		if (rc)
			return rc;
		for (unsigned j = 0; j < k; j++)
			if (!ov[j].pred && ov[j].idx == slot)
				sc__set_opnd(&in, ov[j].pos, SC_OPND(SC_OPND_KIND(in.opnd[ov[j].pos]), SC_OPND_IDX(t)));
		bool guarded = in.guard & SC_GUARD_ON;
		if (use || guarded) {
			sc_insn_t l = {.op = SC_OP_LD, .type = (uint8_t)bt, .nops = SC_NOPS_MAKE(1, 1), .imm = off,
			               .aux = SC_AUX_MAKE(SC_SP_LOCAL, 0, 0)};
			sc__set_opnds(&l, 2, (sc_opnd_t[]){t, addr});
			if ((rc = sc__pass_insert(p, pc, false, &l)))
				return rc;
			(*ld)++;
		}
		if (def) {
			sc_insn_t s = {.op = SC_OP_ST, .type = (uint8_t)bt, .nops = SC_NOPS_MAKE(0, 2), .imm = off,
			               .aux = SC_AUX_MAKE(SC_SP_LOCAL, 0, 0)};
			sc__set_opnds(&s, 2, (sc_opnd_t[]){addr, t});
			if ((rc = sc__pass_insert(p, pc, true, &s)))
				return rc;
			(*st)++;
		}
		if ((rc = sc__pass_replace(p, pc, &in)))
			return rc;
	}
	return 0;
}

/* The slots as the emitter sees them: each a .local variable of its
 * function ("__spillN") and every spill word naming it (a relocation), so
 * that written-back PTX declares them and reloads with the spill code as
 * ordinary code. off[i]: candidate i's slot. 0 or SC_ENOMEM. */
static int keep_symbols(sc_module_t *m, const cand_t *c, const uint32_t *off, uint32_t n)
{
	sc__sym_t *ys = realloc(m->syms, (m->nsyms + n + 1) * sizeof *ys);
	if (!ys)
		return SC_ENOMEM;
	m->syms = ys;
	for (uint32_t i = 0; i < n; i++) {
		const sc_func_t *f = &m->funcs[c[i].fi];
		uint32_t nrel = 0;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
			nrel += spill_code(m, &m->code[pc]) && m->code[pc].imm == off[i];
		sc__reloc_t *rs = realloc(m->reloc, (m->nreloc + nrel + 1) * sizeof *rs);
		if (!rs)
			return SC_ENOMEM;
		m->reloc = rs;
		char name[32];
		snprintf(name, sizeof name, "__spill%u", m->nsyms);
		sc__sym_t *y = &m->syms[m->nsyms];
		*y = (sc__sym_t){.name = strdup(name), .space = SC_SP_LOCAL, .role = SC_SYM_VAR, .owner = (int32_t)c[i].fi,
		                 .size = 4 * c[i].w, .align = 4 * c[i].w};
		if (!y->name)
			return SC_ENOMEM;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
			if (spill_code(m, &m->code[pc]) && m->code[pc].imm == off[i])
				m->reloc[m->nreloc++] = (sc__reloc_t){.at = pc, .sym = m->nsyms};
		m->nsyms++;
	}
	return 0;
}

/* Spills the chosen candidates c[0, n) in one pass and commits it. */
static int spill_round(sc_module_t *m, const cand_t *c, uint32_t n, char *msg, size_t msgsz)
{
	uint32_t nf = m->nfuncs;
	uint32_t *cnt = calloc((size_t)nf * 4 + 1, sizeof *cnt); /* per function: regs, bytes, st, ld */
	uint32_t *off = calloc(n + 1, sizeof *off);
	sc_pass_t *p = NULL;
	int rc = cnt && off ? sc__pass_begin(m, &p) : SC_ENOMEM;
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint32_t *k = &cnt[(size_t)c[i].fi * 4];
		rc = sc__pass_local(p, c[i].fi, 4 * c[i].w, 4 * c[i].w, &off[i]);
		if (!rc)
			rc = rewrite(p, &c[i], off[i], &k[2], &k[3]);
		k[0]++;
		k[1] += 4 * c[i].w;
	}
	if (rc) {
		sc__pass_abort(p);
		free(cnt);
		free(off);
		if (msgsz)
			snprintf(msg, msgsz, "%s: spilling registers failed (%s)", m->name,
			         rc == SC_ENOMEM ? "out of memory" : "no slot or local memory left");
		return rc;
	}
	if (!m->spilled) {
		m->spilled = true;
		m->spill_base = m->local_all; /* sc__pass_local places everything above */
	}
	m->spilling = true;
	rc = sc__pass_commit(p, msg, msgsz);
	m->spilling = false;
	if (!rc && (rc = keep_symbols(m, c, off, n)) && msgsz)
		snprintf(msg, msgsz, "%s: out of memory", m->name);
	for (uint32_t i = 0; i < nf && !rc; i++) {
		sc__spill_stats_t *o = &m->funcs[i].spill_own;
		o->regs += cnt[i * 4];
		o->bytes += cnt[i * 4 + 1];
		o->stores += cnt[i * 4 + 2];
		o->loads += cnt[i * 4 + 3];
	}
	free(cnt);
	free(off);
	return rc;
}

/* The largest excess of a kernel over the limit (0: all fit), and in
 * rel[] the functions such kernels reach (themselves included). */
static uint32_t excess(const sc_module_t *m, const bool *reach, uint8_t *rel)
{
	uint32_t nf = m->nfuncs, ex = 0;
	memset(rel, 0, nf);
	for (uint32_t i = 0; i < nf; i++) {
		const sc_func_t *k = &m->funcs[i];
		if (!k->is_entry || k->entry_pc == UINT32_MAX || k->regs_total <= m->max_regs)
			continue;
		ex = k->regs_total - m->max_regs > ex ? k->regs_total - m->max_regs : ex;
		for (uint32_t j = 0; j < nf; j++)
			rel[j] |= j == i || reach[(size_t)i * nf + j];
	}
	return ex;
}

/* Each kernel's spill_total: its own and its callees'. */
static void spill_totals(sc_module_t *m, const bool *reach)
{
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *k = &m->funcs[i];
		if (!k->is_entry)
			continue;
		k->spill_total = (sc__spill_stats_t){0};
		for (uint32_t j = 0; j < nf; j++)
			if (j == i || reach[(size_t)i * nf + j]) {
				const sc__spill_stats_t *o = &m->funcs[j].spill_own;
				k->spill_total.regs += o->regs;
				k->spill_total.bytes += o->bytes;
				k->spill_total.stores += o->stores;
				k->spill_total.loads += o->loads;
			}
	}
}

int sc__spill(sc_module_t *m, char *msg, size_t msgsz)
{
	if (m->regs != SC_REGS_ALLOC || !m->max_regs || m->spilling || !m->code_ptx)
		return 0;
	uint32_t nf = m->nfuncs;
	int rc = 0;
	for (;;) {
		bool *reach = sc__call_closure(m);
		uint32_t *top = calloc(nf + 1, sizeof *top);
		uint8_t *rel = calloc(nf + 1, 1);
		cands_t c = {0};
		rc = reach && top && rel ? 0 : SC_ENOMEM;
		uint32_t ex = rc ? 0 : excess(m, reach, rel);
		if (ex && (rc = sc__dcall_refuse(m, "spilling (max_regs)", msg, msgsz)))
			ex = 0;
		if (ex) {
			window_tops(m, reach, top);
			for (uint32_t i = 0; i < nf && !rc; i++)
				if (rel[i] && m->funcs[i].entry_pc != UINT32_MAX && m->funcs[i].end_pc > m->funcs[i].entry_pc)
					rc = scan_func(m, i, top, &c);
		}
		uint32_t n = 0;
		if (!rc && c.n) {
			qsort(c.v, c.n, sizeof *c.v, cand_cmp);
			for (uint32_t got = 0; n < c.n && got < ex; n++)
				got += c.v[n].w;
			rc = spill_round(m, c.v, n, msg, msgsz);
		}
		if (!rc && !n && reach)
			spill_totals(m, reach);
		free(reach);
		free(top);
		free(rel);
		free(c.v);
		if (rc || !n)
			break; /* an error, everything fits, or nothing more can be spilled */
	}
	if (rc == SC_ENOMEM && msgsz && !msg[0])
		snprintf(msg, msgsz, "%s: out of memory", m->name);
	return rc;
}
