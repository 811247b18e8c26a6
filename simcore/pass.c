/* Passes over the lowered code: an editing session on a module's virtual-
 * register code (insert, duplicate, replace, new registers and constants)
 * and the commit that rebuilds the code, remaps every pc, renumbers the
 * registers, recomputes reconvergence, re-runs the allocation and checks
 * the result; and the diagnostic passes built on it (nop insertion,
 * duplication with comparison). Design: docs/DESIGN.md, "Passes over the
 * lowered code". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

typedef struct ilist {
	sc_insn_t *v;
	uint32_t n, cap;
} ilist_t;

struct sc_pass {
	sc_module_t *m;
	const sc_insn_t *code;   /* the virtual code being edited (code_ptx or code) */
	uint32_t ncode;
	ilist_t *pre, *post;     /* per pc: inserted before / after it */
	ilist_t *pro;            /* per function: its prologue */
	sc_insn_t *repl;         /* per pc: the original word, or its replacement */
	uint32_t *add_regs, *add_preds; /* per function: slots / predicates added */
	sc__reg_decl_t **ndecl;  /* per function: declarations of the new registers */
	uint32_t *nndecl;
	uint64_t *pool;          /* the module's pool, then the constants added */
	uint32_t npool, poolcap;
	uint8_t *pool_sym;       /* per entry of the module's pool: a symbol's address */
	uint32_t ninserted;
	uint32_t *local_end;     /* per function: end of the local memory given it (sc__pass_local), or NULL */
	uint32_t local_new;      /* bytes given above m->local_all */
};

static int pfail(char *msg, size_t n, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int pfail(char *msg, size_t n, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (n)
		vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return rc;
}

void sc__pass_abort(sc_pass_t *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; p->pre && p->post && i < p->ncode; i++) {
		free(p->pre[i].v);
		free(p->post[i].v);
	}
	for (uint32_t i = 0; p->pro && p->ndecl && p->nndecl && i < p->m->nfuncs; i++) {
		free(p->pro[i].v);
		for (uint32_t j = 0; j < p->nndecl[i]; j++)
			free(p->ndecl[i][j].name);
		free(p->ndecl[i]);
	}
	free(p->pre);
	free(p->post);
	free(p->pro);
	free(p->repl);
	free(p->add_regs);
	free(p->add_preds);
	free(p->ndecl);
	free(p->nndecl);
	free(p->pool);
	free(p->pool_sym);
	free(p->local_end);
	free(p);
}

int sc__pass_begin(sc_module_t *m, sc_pass_t **out)
{
	sc_pass_t *p = calloc(1, sizeof *p);
	*out = NULL;
	if (!p)
		return SC_ENOMEM;
	p->m = m;
	p->code = m->code_ptx ? m->code_ptx : m->code;
	p->ncode = m->ncode;
	uint32_t nf = m->nfuncs, nc = m->ncode;
	p->pre = calloc(nc + 1, sizeof *p->pre);
	p->post = calloc(nc + 1, sizeof *p->post);
	p->pro = calloc(nf + 1, sizeof *p->pro);
	p->repl = malloc((nc + 1) * sizeof *p->repl);
	p->add_regs = calloc(nf + 1, sizeof *p->add_regs);
	p->add_preds = calloc(nf + 1, sizeof *p->add_preds);
	p->ndecl = calloc(nf + 1, sizeof *p->ndecl);
	p->nndecl = calloc(nf + 1, sizeof *p->nndecl);
	p->poolcap = m->npool + 16;
	p->pool = malloc(p->poolcap * sizeof *p->pool);
	p->pool_sym = calloc(m->npool + 1, 1);
	if (!p->pool_sym || !p->pre || !p->post || !p->pro || !p->repl || !p->add_regs || !p->add_preds || !p->ndecl || !p->nndecl ||
	    !p->pool) {
		p->ncode = 0; /* nothing to free per pc */
		sc__pass_abort(p);
		return SC_ENOMEM;
	}
	memcpy(p->repl, p->code, nc * sizeof *p->repl);
	memcpy(p->pool, m->pool, m->npool * sizeof *p->pool);
	for (uint32_t i = 0; i < m->nreloc; i++)
		if (m->reloc[i].pool)
			p->pool_sym[m->reloc[i].at] = 1;
	p->npool = m->npool;
	*out = p;
	return 0;
}

sc_module_t *sc__pass_module(const sc_pass_t *p) { return p->m; }
uint32_t sc__pass_ncode(const sc_pass_t *p) { return p->ncode; }
const sc_insn_t *sc__pass_insn(const sc_pass_t *p, uint32_t pc) { return pc < p->ncode ? &p->repl[pc] : NULL; }
uint32_t sc__pass_inserted(const sc_pass_t *p) { return p->ninserted; }

int sc__pass_func_of(const sc_pass_t *p, uint32_t pc)
{
	const sc_func_t *f = sc__func_at(p->m, pc);
	return f ? (int)(f - p->m->funcs) : -1;
}

static int push(ilist_t *l, const sc_insn_t *in)
{
	if (l->n == l->cap) {
		uint32_t c = l->cap ? l->cap * 2 : 4;
		sc_insn_t *v = realloc(l->v, c * sizeof *v);
		if (!v)
			return SC_ENOMEM;
		l->v = v;
		l->cap = c;
	}
	l->v[l->n++] = *in;
	return 0;
}

int sc__pass_insert(sc_pass_t *p, uint32_t pc, bool after, const sc_insn_t *in)
{
	if (pc >= p->ncode)
		return SC_EINVAL;
	int rc = push(after ? &p->post[pc] : &p->pre[pc], in);
	p->ninserted += rc == 0;
	return rc;
}

int sc__pass_prologue(sc_pass_t *p, uint32_t fi, const sc_insn_t *in)
{
	if (fi >= p->m->nfuncs || p->m->funcs[fi].entry_pc == UINT32_MAX)
		return SC_EINVAL;
	int rc = push(&p->pro[fi], in);
	p->ninserted += rc == 0;
	return rc;
}

int sc__pass_replace(sc_pass_t *p, uint32_t pc, const sc_insn_t *in)
{
	if (pc >= p->ncode)
		return SC_EINVAL;
	p->repl[pc] = *in;
	return 0;
}

int sc__pass_dup(sc_pass_t *p, uint32_t pc) { return pc < p->ncode ? sc__pass_insert(p, pc, true, &p->repl[pc]) : SC_EINVAL; }

int sc__pass_new_reg(sc_pass_t *p, uint32_t fi, unsigned type, sc_opnd_t *opnd)
{
	sc_module_t *m = p->m;
	if (fi >= m->nfuncs || m->funcs[fi].entry_pc == UINT32_MAX || type == SC_T_NONE || type >= SC_T__COUNT ||
	    type == SC_T_B128)
		return SC_EINVAL;
	const sc_func_t *f = &m->funcs[fi];
	bool pred = type == SC_T_PRED;
	uint32_t w = sc__type_bits(type) == 64 ? 2 : 1;
	uint32_t own = pred ? f->ptx_npreds + p->add_preds[fi] : f->ptx_nregs + p->add_regs[fi];
	uint32_t slot = (pred ? f->ptx_pred_base : f->ptx_reg_base) + own;
	if (slot + w > SC_IDX_LIMIT)
		return SC_EINVAL;
	sc__reg_decl_t *d = realloc(p->ndecl[fi], (p->nndecl[fi] + 1) * sizeof *d);
	if (!d)
		return SC_ENOMEM;
	p->ndecl[fi] = d;
	char name[32];
	snprintf(name, sizeof name, "%%sc_%s%u", pred ? "p" : w == 2 ? "rd" : "r", own);
	d = &d[p->nndecl[fi]];
	if (!(d->name = strdup(name)))
		return SC_ENOMEM;
	d->count = 0;
	d->type = (uint8_t)type;
	d->first = own;
	p->nndecl[fi]++;
	if (pred)
		p->add_preds[fi]++;
	else
		p->add_regs[fi] += w;
	*opnd = SC_OPND(pred ? SC_K_PRED : w == 2 ? SC_K_R64 : SC_K_R32, slot);
	return 0;
}

int sc__pass_const(sc_pass_t *p, uint64_t v, sc_opnd_t *opnd)
{
	for (uint32_t i = 0; i < p->npool; i++)
		if (p->pool[i] == v && (i >= p->m->npool || !p->pool_sym[i])) {
			*opnd = SC_OPND(SC_K_IMM, i);
			return 0;
		}
	if (p->npool >= SC_IDX_LIMIT)
		return SC_EINVAL;
	if (p->npool == p->poolcap) {
		uint64_t *n = realloc(p->pool, p->poolcap * 2 * sizeof *n);
		if (!n)
			return SC_ENOMEM;
		p->pool = n;
		p->poolcap *= 2;
	}
	p->pool[p->npool] = v;
	*opnd = SC_OPND(SC_K_IMM, p->npool++);
	return 0;
}

int sc__pass_live(const sc_pass_t *p, uint32_t fi, sc_live_t *lv)
{
	if (fi >= p->m->nfuncs || p->m->funcs[fi].entry_pc == UINT32_MAX)
		return SC_EINVAL;
	const sc_func_t *f = &p->m->funcs[fi];
	return sc__live(p->code, f->entry_pc, f->end_pc, f->ptx_reg_base, f->ptx_nregs, f->ptx_pred_base, f->ptx_npreds,
	                lv);
}

/* Per-thread local memory: CUDA's limit (gpu.c refuses more at launch). */
#define PASS_LOCAL_MAX (512u << 10)

int sc__pass_local(sc_pass_t *p, uint32_t fi, uint32_t bytes, uint32_t align, uint32_t *offset)
{
	sc_module_t *m = p->m;
	if (fi >= m->nfuncs || m->funcs[fi].entry_pc == UINT32_MAX || !align || align > 16 || (align & (align - 1)) ||
	    bytes > PASS_LOCAL_MAX)
		return SC_EINVAL;
	uint64_t off = ((uint64_t)m->local_all + p->local_new + align - 1) / align * align;
	if (off + bytes > PASS_LOCAL_MAX)
		return SC_EINVAL;
	if (!p->local_end && !(p->local_end = calloc(m->nfuncs + 1, sizeof *p->local_end)))
		return SC_ENOMEM;
	p->local_new = (uint32_t)(off + bytes - m->local_all);
	p->local_end[fi] = (uint32_t)(off + bytes);
	*offset = (uint32_t)off;
	return 0;
}

/* The local memory the session gave: m->local_all grows over it, each
 * function's local_pass_end covers its own, and each kernel's local_total
 * everything it reaches (nothing else moves). */
static void place_local(const sc_pass_t *p, const bool *reach)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs;
	if (!p->local_end)
		return;
	m->local_all = (m->local_all + p->local_new + 15) / 16 * 16;
	for (uint32_t i = 0; i < nf; i++)
		if (p->local_end[i] > m->funcs[i].local_pass_end)
			m->funcs[i].local_pass_end = p->local_end[i];
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (!f->is_entry)
			continue;
		for (uint32_t j = 0; j < nf; j++)
			if ((j == i || reach[(size_t)i * nf + j]) && m->funcs[j].local_pass_end > f->local_total)
				f->local_total = m->funcs[j].local_pass_end;
	}
}

/* ---------------------------------------------------------------- commit */

/* Whether an inserted (or replaced) word of function fi is one the commit
 * can place: an instruction the execution side defines, no call, its
 * registers in fi's window (new ones included), its constants in the pool,
 * a jump's target a pc of fi. */
static int check_word(const sc_pass_t *p, uint32_t fi, const sc_insn_t *in, uint32_t at, char *msg, size_t n)
{
	const sc_module_t *m = p->m;
	const sc_func_t *f = &m->funcs[fi];
	char text[128];
	sc__disasm(NULL, in, text, sizeof text);
	if (in->op == SC_OP_INVALID || in->op >= SC_OP__COUNT || in->op == SC_OP_CALL || !sc__insn_valid(in))
		return pfail(msg, n, SC_EINVAL, "%s: '%s': inserted word '%s' at pc %u is not an instruction a pass may add",
		             m->name, f->name, text, at);
	sc_regref_t v[7];
	unsigned k = sc__insn_regs(in, v);
	for (unsigned j = 0; j < k; j++) {
		uint32_t base = v[j].pred ? f->ptx_pred_base : f->ptx_reg_base;
		uint32_t lim = v[j].pred ? f->ptx_npreds + p->add_preds[fi] : f->ptx_nregs + p->add_regs[fi];
		if (v[j].idx < base || v[j].idx + v[j].w > base + lim)
			return pfail(msg, n, SC_EINVAL, "%s: '%s': '%s' at pc %u names a register outside the function", m->name,
			             f->name, text, at);
	}
	for (unsigned j = 0; j < SC_NDST(in) + SC_NSRC(in) && j < 6; j++)
		if (SC_OPND_KIND(in->opnd[j]) == SC_K_IMM && SC_OPND_IDX(sc__opnd(in, j)) >= p->npool)
			return pfail(msg, n, SC_EINVAL, "%s: '%s': '%s' at pc %u names no constant", m->name, f->name, text, at);
	if (sc__insn_jumps(in) && (SC_BR_TARGET(in->imm) < f->entry_pc || SC_BR_TARGET(in->imm) >= f->end_pc))
		return pfail(msg, n, SC_EINVAL, "%s: '%s': '%s' at pc %u jumps out of the function", m->name, f->name, text,
		             at);
	return 0;
}

static int check_all(const sc_pass_t *p, const int32_t *fn_of, char *msg, size_t n)
{
	int rc = 0;
	for (uint32_t pc = 0; pc < p->ncode && !rc; pc++) {
		if (fn_of[pc] < 0) {
			if (p->pre[pc].n || p->post[pc].n || memcmp(&p->repl[pc], &p->code[pc], sizeof p->repl[pc]))
				return pfail(msg, n, SC_EINVAL, "%s: pc %u lies in no function", p->m->name, pc);
			continue;
		}
		uint32_t fi = (uint32_t)fn_of[pc];
		for (uint32_t i = 0; i < p->pre[pc].n && !rc; i++)
			rc = check_word(p, fi, &p->pre[pc].v[i], pc, msg, n);
		for (uint32_t i = 0; i < p->post[pc].n && !rc; i++)
			rc = check_word(p, fi, &p->post[pc].v[i], pc, msg, n);
		if (!rc && memcmp(&p->repl[pc], &p->code[pc], sizeof p->repl[pc])) {
			/* a replaced word keeps its kind of control flow: a call
			 * stays the same call */
			if (p->code[pc].op == SC_OP_CALL) {
				if (memcmp(&p->repl[pc], &p->code[pc], sizeof p->repl[pc]))
					return pfail(msg, n, SC_EINVAL, "%s: the call at pc %u cannot be replaced", p->m->name, pc);
			} else {
				rc = check_word(p, fi, &p->repl[pc], pc, msg, n);
			}
		}
	}
	for (uint32_t fi = 0; fi < p->m->nfuncs && !rc; fi++)
		for (uint32_t i = 0; i < p->pro[fi].n && !rc; i++)
			rc = check_word(p, fi, &p->pro[fi].v[i], p->m->funcs[fi].entry_pc, msg, n);
	return rc;
}

/* The new layout of the ptx numbering: kernels from 0, each .func above
 * every kernel, in order (as the parser lays them out). */
static int new_windows(const sc_pass_t *p, uint32_t *rb, uint32_t *pb, uint32_t *all_r, uint32_t *all_p)
{
	const sc_module_t *m = p->m;
	uint32_t r = 0, q = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry) {
			rb[i] = pb[i] = 0;
			r = r > m->funcs[i].ptx_nregs + p->add_regs[i] ? r : m->funcs[i].ptx_nregs + p->add_regs[i];
			q = q > m->funcs[i].ptx_npreds + p->add_preds[i] ? q : m->funcs[i].ptx_npreds + p->add_preds[i];
		}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (!m->funcs[i].is_entry) {
			rb[i] = r;
			pb[i] = q;
			r += m->funcs[i].ptx_nregs + p->add_regs[i];
			q += m->funcs[i].ptx_npreds + p->add_preds[i];
		}
	*all_r = r;
	*all_p = q;
	return r > SC_IDX_LIMIT || q > SC_IDX_LIMIT ? -1 : 0;
}

/* Renumbers a word of function fi from its old window to its new one. */
static void renumber(const sc_func_t *f, uint32_t rb, uint32_t pb, sc_insn_t *in)
{
	sc_regref_t v[7];
	unsigned k = sc__insn_regs(in, v);
	for (unsigned j = 0; j < k; j++) {
		uint32_t idx = v[j].pred ? v[j].idx - f->ptx_pred_base + pb : v[j].idx - f->ptx_reg_base + rb;
		if (v[j].pos == 6)
			in->guard = SC_GUARD_WITH(in->guard, idx);
		else
			sc__set_opnd(in, v[j].pos, SC_OPND(SC_OPND_KIND(in->opnd[v[j].pos]), idx));
	}
}

/* A kernel's ptx-mode registers: the highest slot of itself and of
 * everything it can call. */
static void ptx_totals(sc_module_t *m, const bool *reach)
{
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (!f->is_entry)
			continue;
		f->regs_ptx = f->ptx_reg_base + f->ptx_nregs;
		f->preds_ptx = f->ptx_pred_base + f->ptx_npreds;
		for (uint32_t j = 0; j < nf; j++)
			if (reach[(size_t)i * nf + j]) {
				const sc_func_t *g = &m->funcs[j];
				f->regs_ptx = g->ptx_reg_base + g->ptx_nregs > f->regs_ptx ? g->ptx_reg_base + g->ptx_nregs : f->regs_ptx;
				f->preds_ptx = g->ptx_pred_base + g->ptx_npreds > f->preds_ptx ? g->ptx_pred_base + g->ptx_npreds
				                                                               : f->preds_ptx;
			}
		f->regs_total = f->regs_ptx;
		f->preds_total = f->preds_ptx;
	}
}

/* Everything derived from the old code that the commit recomputes (or
 * that is computed again on first use). */
static void drop_derived(sc_module_t *m)
{
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		sc_func_t *f = &m->funcs[i];
		sc__live_free(f->live);
		free(f->live);
		f->live = NULL;
		f->live_done = false;
		free(f->vslot);
		f->vslot = NULL;
		sc__live_free(f->vlive);
		free(f->vlive);
		f->vlive = NULL;
		free(f->vpin);
		f->vpin = NULL;
		f->vlive_done = false;
	}
	free(m->code_ptx);
	m->code_ptx = NULL;
	sc__penny_tab_free(m->penny); /* Penny's regions: built again at launch */
	m->penny = NULL;
}

/* Appends l's words at *at, each with the line `line`. */
static void place(sc_insn_t *code, uint32_t *line, uint32_t *at, const ilist_t *l, uint32_t ln)
{
	for (uint32_t i = 0; i < l->n; i++) {
		code[*at] = l->v[i];
		line[(*at)++] = ln;
	}
}

/* Adds the new registers' declarations to each function's list. */
static int keep_decls(sc_pass_t *p)
{
	for (uint32_t i = 0; i < p->m->nfuncs; i++) {
		sc_func_t *f = &p->m->funcs[i];
		if (!p->nndecl[i])
			continue;
		sc__reg_decl_t *d = realloc(f->decl, (f->ndecl + p->nndecl[i]) * sizeof *d);
		if (!d)
			return SC_ENOMEM;
		memcpy(d + f->ndecl, p->ndecl[i], p->nndecl[i] * sizeof *d);
		f->decl = d;
		f->ndecl += p->nndecl[i];
		p->nndecl[i] = 0; /* the names belong to the module now */
	}
	return 0;
}

/* The new code in a fresh array: per old pc, the function's prologue when
 * the pc is a function's entry, then what was inserted before, the word,
 * what was inserted after. start[pc]: where old pc's code begins
 * (prologue included: function entries and calls go there); jto[pc]:
 * where a jump to old pc goes (after the prologue); opos[pc]: where the
 * word itself went. */
static int build(sc_pass_t *p, const int32_t *entry_of, sc_insn_t **ncode_out,
                 uint32_t **nline_out, uint32_t *start, uint32_t *jto, uint32_t *opos, uint32_t *nn)
{
	sc_module_t *m = p->m;
	uint32_t n = p->ninserted + p->ncode;
	sc_insn_t *code = malloc((n ? n : 1) * sizeof *code);
	uint32_t *line = malloc((n ? n : 1) * sizeof *line);
	if (!code || !line) {
		free(code);
		free(line);
		return SC_ENOMEM;
	}
	uint32_t at = 0;
	for (uint32_t pc = 0; pc < p->ncode; pc++) {
		uint32_t ln = m->line ? m->line[pc] : 0;
		start[pc] = at;
		if (entry_of[pc] >= 0)
			place(code, line, &at, &p->pro[entry_of[pc]], ln);
		jto[pc] = at;
		place(code, line, &at, &p->pre[pc], ln);
		opos[pc] = at;
		code[at] = p->repl[pc];
		line[at++] = ln;
		place(code, line, &at, &p->post[pc], ln);
	}
	start[p->ncode] = jto[p->ncode] = at;
	*ncode_out = code;
	*nline_out = line;
	*nn = at;
	return 0;
}

/* Jump and call targets into the new pcs; reconvergence pcs are
 * recomputed (cfg.c). */
static void remap_targets(sc_insn_t *code, uint32_t n, const uint32_t *start, const uint32_t *jto)
{
	for (uint32_t pc = 0; pc < n; pc++) {
		sc_insn_t *in = &code[pc];
		if (sc__insn_jumps(in))
			in->imm = ((uint64_t)SC_PC_NONE << 32) | jto[SC_BR_TARGET(in->imm)];
		else if (in->op == SC_OP_CALL)
			in->imm = ((uint64_t)SC_PC_NONE << 32) | start[SC_BR_TARGET(in->imm)];
	}
}

int sc__pass_commit(sc_pass_t *p, char *msg, size_t msgsz)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs, nc = p->ncode;
	int32_t *fn_of = malloc((nc + 1) * sizeof *fn_of), *entry_of = malloc((nc + 1) * sizeof *entry_of);
	uint32_t *start = malloc((nc + 1) * sizeof *start), *jto = malloc((nc + 1) * sizeof *jto);
	uint32_t *opos = malloc((nc + 1) * sizeof *opos);
	uint32_t *rb = calloc(nf + 1, sizeof *rb), *pb = calloc(nf + 1, sizeof *pb);
	sc_insn_t *code = NULL;
	uint32_t *line = NULL, nn = 0, all_r, all_p;
	bool *reach = NULL;
	int rc = SC_ENOMEM;
	if (msgsz)
		msg[0] = 0;
	if (!fn_of || !entry_of || !start || !jto || !opos || !rb || !pb)
		goto out;
	for (uint32_t pc = 0; pc < nc; pc++)
		fn_of[pc] = entry_of[pc] = -1;
	for (uint32_t i = 0; i < nf; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX || f->end_pc <= f->entry_pc)
			continue;
		entry_of[f->entry_pc] = (int32_t)i;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
			fn_of[pc] = (int32_t)i;
	}
	/* 1. everything that can be refused, before the module changes */
	if ((rc = check_all(p, fn_of, msg, msgsz)))
		goto out;
	if (new_windows(p, rb, pb, &all_r, &all_p)) {
		rc = pfail(msg, msgsz, SC_EINVAL, "%s: the transformed module needs more than %u register slots or predicates",
		           m->name, SC_IDX_LIMIT);
		goto out;
	}
	/* 2. the new code: placed, registers renumbered, targets remapped */
	if ((rc = build(p, entry_of, &code, &line, start, jto, opos, &nn)))
		goto out;
	for (uint32_t i = 0; i < nf; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		for (uint32_t pc = start[f->entry_pc]; pc < start[f->end_pc]; pc++)
			renumber(f, rb[i], pb[i], &code[pc]);
	}
	remap_targets(code, nn, start, jto);
	if ((rc = keep_decls(p)))
		goto out;
	/* the emitter's records of symbols named by words, and of calls */
	for (uint32_t i = 0; i < m->nreloc; i++)
		if (!m->reloc[i].pool)
			m->reloc[i].at = opos[m->reloc[i].at];
	for (uint32_t i = 0; i < m->ncalls; i++)
		m->calls[i].pc = opos[m->calls[i].pc];
	/* 3. the module takes the new code in the ptx numbering */
	drop_derived(m);
	free(m->code);
	free(m->line);
	m->code = code;
	m->line = line;
	m->ncode = nn;
	code = NULL;
	line = NULL;
	free(m->pool);
	m->pool = p->pool;
	m->npool = p->npool;
	p->pool = NULL;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		f->entry_pc = start[f->entry_pc];
		f->end_pc = start[f->end_pc];
		f->ptx_nregs += p->add_regs[i];
		f->ptx_npreds += p->add_preds[i];
		f->ptx_reg_base = rb[i];
		f->ptx_pred_base = pb[i];
		f->reg_base = rb[i];
		f->pred_base = pb[i];
		f->nregs = f->ptx_nregs;
		f->npreds = f->ptx_npreds;
	}
	m->nregs_all = all_r;
	m->npreds_all = all_p;
	rc = SC_ENOMEM;
	if (!(reach = sc__call_closure(m)))
		goto out;
	ptx_totals(m, reach);
	place_local(p, reach);
	/* 4. reconvergence, allocation and its proof, the decoder's check */
	sc__cfg_reconverge(m);
	if (m->regs == SC_REGS_ALLOC && (rc = sc__regalloc(m, msg, msgsz)))
		goto out;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		if (sc__insn_check(&m->code[pc], m->nregs_all, m->npreds_all, m->npool, m->ncode)) {
			char text[128];
			sc__disasm(m, &m->code[pc], text, sizeof text);
			rc = pfail(msg, msgsz, SC_EPARSE, "%s: the transformed word at pc %u does not decode: %s", m->name, pc,
			           text);
			goto out;
		}
	/* 5. what no longer fits the GPU's registers, spilled (spill.c) */
	if (m->regs == SC_REGS_ALLOC && !m->spilling && (rc = sc__spill(m, msg, msgsz)))
		goto out;
	rc = 0;
out:
	free(fn_of);
	free(entry_of);
	free(start);
	free(jto);
	free(opos);
	free(rb);
	free(pb);
	free(code);
	free(line);
	free(reach);
	if (rc == SC_ENOMEM && msgsz && !msg[0])
		snprintf(msg, msgsz, "%s: out of memory", m->name);
	sc__pass_abort(p);
	return rc;
}

/* ---------------------------------------------------------------- diagnostic passes */

/* nop before every instruction (all) or before every block leader: the
 * entry, each jump target and each pc after a block end. Every issue of
 * an original instruction is then preceded by one issue of a nop by the
 * same warp with the same lanes (all), so warp-instructions double. */
static int pass_nop(sc_pass_t *p, bool all)
{
	const sc_module_t *m = p->m;
	const sc_insn_t nop = {.op = SC_OP_NOP};
	bool *lead = calloc(p->ncode + 1, 1);
	if (!lead)
		return SC_ENOMEM;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX || f->end_pc <= f->entry_pc)
			continue;
		lead[f->entry_pc] = true;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
			const sc_insn_t *in = sc__pass_insn(p, pc);
			if (sc__insn_jumps(in))
				lead[SC_BR_TARGET(in->imm)] = true;
			if (sc__insn_ends_block(in) && pc + 1 < f->end_pc)
				lead[pc + 1] = true;
		}
	}
	int rc = 0;
	for (uint32_t pc = 0; pc < p->ncode && !rc; pc++)
		if ((all || lead[pc]) && sc__pass_func_of(p, pc) >= 0)
			rc = sc__pass_insert(p, pc, false, &nop);
	free(lead);
	return rc;
}

/* Whether dup replicates the word: a computation into registers whose
 * only effect is its destinations (no memory, no control, no carry flag,
 * no other lane's value, no clock). */
static bool dup_candidate(const sc_insn_t *in)
{
	const sc_opinfo_t *oi = &sc__ops[in->op];
	if (oi->unit > SC_U_MOV || (oi->flags & (SC_OF_SIDE | SC_OF_LOAD | SC_OF_STORE | SC_OF_XLANE | SC_OF_BLOCK_END |
	                                        SC_OF_CALL)) ||
	    (in->mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT)))
		return false;
	unsigned nd = SC_NDST(in), no = nd + SC_NSRC(in), regs = 0;
	for (unsigned j = 0; j < no && j < 6; j++) {
		unsigned k = SC_OPND_KIND(in->opnd[j]), i = SC_OPND_IDX(sc__opnd(in, j));
		if (k == SC_K_SREG && sc__sreg_is_time(i))
			return false;
		regs += j < nd && (k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED);
	}
	return regs > 0;
}

/* The compare of an original destination d with its replica r folded into
 * the sticky predicate err: setp.ne.or.bN err, d, r, err for registers;
 * xor.pred t, d, r then or.pred err, err, t for predicates. */
static int dup_compare(sc_pass_t *p, uint32_t fi, uint32_t pc, uint16_t guard, sc_opnd_t d, sc_opnd_t r, sc_opnd_t err,
                       unsigned bits)
{
	if (SC_OPND_KIND(d) == SC_K_PRED) {
		sc_opnd_t t;
		int rc = sc__pass_new_reg(p, fi, SC_T_PRED, &t);
		if (rc)
			return rc;
		sc_insn_t x = {.op = SC_OP_XOR, .type = SC_T_PRED, .nops = SC_NOPS_MAKE(1, 2), .guard = guard};
		sc_insn_t o = {.op = SC_OP_OR, .type = SC_T_PRED, .nops = SC_NOPS_MAKE(1, 2), .guard = guard};
		sc__set_opnds(&x, 3, (sc_opnd_t[]){t, d, r});
		sc__set_opnds(&o, 3, (sc_opnd_t[]){err, err, t});
		return sc__pass_insert(p, pc, true, &x) || sc__pass_insert(p, pc, true, &o) ? SC_ENOMEM : 0;
	}
	sc_insn_t c = {.op = SC_OP_SETP, .type = SC_T_PRED, .sub = SC_CMP_NE,
	               .stype = bits == 64 ? SC_T_B64 : bits == 16 ? SC_T_B16 : SC_T_B32,
	               .aux = SC_AUX_MAKE(0, 0, SC_BOOL_OR), .nops = SC_NOPS_MAKE(1, 3), .guard = guard};
	sc__set_opnds(&c, 4, (sc_opnd_t[]){err, d, r, err});
	return sc__pass_insert(p, pc, true, &c);
}

/* Every candidate word of function fi replicated just before it into
 * fresh registers (so that it reads the sources the original reads), and
 * each destination compared with its replica after the original, into a
 * sticky error predicate that the prologue clears. */
static int pass_dup_func(sc_pass_t *p, uint32_t fi)
{
	const sc_func_t *f = &p->m->funcs[fi];
	sc_opnd_t err, zero;
	int rc = sc__pass_new_reg(p, fi, SC_T_PRED, &err);
	if (rc || (rc = sc__pass_const(p, 0, &zero)))
		return rc;
	sc_insn_t clr = {.op = SC_OP_SETP, .type = SC_T_PRED, .sub = SC_CMP_NE, .stype = SC_T_U32,
	                 .nops = SC_NOPS_MAKE(1, 2)};
	sc__set_opnds(&clr, 3, (sc_opnd_t[]){err, zero, zero});
	if ((rc = sc__pass_prologue(p, fi, &clr)))
		return rc;
	for (uint32_t pc = f->entry_pc; pc < f->end_pc && !rc; pc++) {
		const sc_insn_t *in = sc__pass_insn(p, pc);
		if (!dup_candidate(in))
			continue;
		/* each replica register has its original's declared type (the
		 * emitter declares it so); 8-bit registers are left alone, as no
		 * compare takes them */
		uint8_t type[4] = {0};
		unsigned nd = SC_NDST(in);
		bool ok = true;
		for (unsigned j = 0; j < nd && ok; j++) {
			unsigned k = SC_OPND_KIND(in->opnd[j]);
			if (k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED)
				ok = sc__reg_type(p->m, f, SC_OPND_IDX(sc__opnd(in, j)), k == SC_K_PRED, &type[j], NULL) == 0 &&
				     sc__type_bits(type[j]) != 8;
		}
		if (!ok)
			continue;
		sc_insn_t rep = *in;
		for (unsigned j = 0; j < nd && !rc; j++) {
			sc_opnd_t r;
			if (type[j] && !(rc = sc__pass_new_reg(p, fi, type[j], &r)))
				sc__set_opnd(&rep, j, r);
		}
		if (rc || (rc = sc__pass_insert(p, pc, false, &rep)))
			break;
		for (unsigned j = 0; j < nd && !rc; j++)
			if (type[j])
				rc = dup_compare(p, fi, pc, in->guard, sc__opnd(in, j), sc__opnd(&rep, j), err, sc__type_bits(type[j]));
	}
	return rc;
}

static int pass_nop_leaders(sc_pass_t *p) { return pass_nop(p, false); }
static int pass_nop_all(sc_pass_t *p) { return pass_nop(p, true); }

static int pass_dup(sc_pass_t *p)
{
	int rc = 0;
	for (uint32_t fi = 0; fi < p->m->nfuncs && !rc; fi++)
		if (p->m->funcs[fi].entry_pc != UINT32_MAX && p->m->funcs[fi].end_pc > p->m->funcs[fi].entry_pc)
			rc = pass_dup_func(p, fi);
	return rc;
}

static const struct {
	const char *name;
	int (*run)(sc_pass_t *p);
} diag[] = {
	{"nop-leaders", pass_nop_leaders},
	{"nop-all", pass_nop_all},
	{"dup", pass_dup},
};

const char *sc__pass_name(unsigned i) { return i < sizeof diag / sizeof *diag ? diag[i].name : NULL; }

int sc__pass_apply(sc_module_t *m, const char *name, char *msg, size_t msgsz)
{
	unsigned i = 0;
	while (sc__pass_name(i) && strcmp(sc__pass_name(i), name))
		i++;
	if (!sc__pass_name(i))
		return pfail(msg, msgsz, SC_EINVAL, "no pass '%s' (nop-leaders, nop-all or dup)", name);
	sc_pass_t *p;
	int rc = sc__dcall_refuse(m, "a pass", msg, msgsz);
	if (rc)
		return rc;
	rc = sc__pass_begin(m, &p);
	if (rc)
		return pfail(msg, msgsz, rc, "%s: out of memory", m->name);
	rc = diag[i].run(p);
	if (rc) {
		sc__pass_abort(p);
		return pfail(msg, msgsz, rc, "%s: pass '%s' failed (%s)", m->name, name, rc == SC_ENOMEM ? "out of memory" : "refused");
	}
	return sc__pass_commit(p, msg, msgsz);
}
