/* The disassembler: an instruction word (the encoding in sc_int.h) as
 * PTX-like text, generated from the instruction table: the guard, the
 * mnemonic with its sub-selector, modifiers and types, then the operands
 * (registers by slot as %r<N>, %rd<N>, %p<N>; constants from the pool;
 * [base+offset]; branch and call targets as pcs), or, for the emitter
 * (emit.c), as PTX the loader reads back: registers by their declared
 * names, symbols and labels by name, calls with their arguments. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sc_int.h"

typedef struct out {
	char *p;
	size_t n, len; /* len: what the whole text takes, even past n */
	const sc_module_t *m;
	const sc_func_t *names; /* registers by their PTX names (sc__reg_name), or NULL: by slot */
	bool ptx_code;          /* the word is from an alloc-mode module's code_ptx */
	const sc__emit_t *em;   /* writing PTX the loader reads back (emit.c), or NULL */
	uint32_t pc;            /* the word's pc (em) */
} out_t;

static void put(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out_t *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->len < o->n ? o->p + o->len : NULL, o->len < o->n ? o->n - o->len : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->len += (size_t)k;
}

/* ---- the mnemonic */

static void put_sub(out_t *o, const sc_insn_t *in, const sc_opinfo_t *oi)
{
	const sc_subsel_t *s = &sc__subs[oi->sub];
	if (oi->sub == SC_SS_MUL && sc__type_is_float(in->type) && in->sub == SC_MUL_LO)
		return; /* mul.f32: .lo/.hi/.wide are the integers' */
	if (in->op == SC_OP_CALL && in->sub == SC_CALL_DYN)
		return; /* a dynamic call (call.c) is written as PTX has it */
	if (in->sub >= s->n)
		put(o, ".sub%u", in->sub);
	else if (s->names[in->sub][0])
		put(o, ".%s", s->names[in->sub]);
}

static void put_space(out_t *o, unsigned sp)
{
	static const char *const names[SC_SP__COUNT] = {".nospace", "", ".global", ".shared", ".local", ".const", ".param"};
	if (sp < SC_SP__COUNT)
		put(o, "%s", names[sp]);
	else
		put(o, ".space%u", sp); /* a flipped field: its number, as .sub%u */
}

/* The modifier flags, in PTX's order: rounding, .approx/.full, .ftz,
 * .sat, .cc, .uni. */
static void put_mods(out_t *o, unsigned mods)
{
	static const char *const rnd[SC_RND__COUNT] = {"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi"};
	static const struct {
		unsigned bit;
		const char *text;
	} flags[] = {{SC_MOD_APPROX, ".approx"}, {SC_MOD_FULL, ".full"}, {SC_MOD_FTZ, ".ftz"},
	             {SC_MOD_SAT, ".sat"},       {SC_MOD_CC_OUT, ".cc"},  {SC_MOD_UNI, ".uni"}};
	unsigned r = mods & SC_MOD_RND_MASK;
	if (r < SC_RND__COUNT)
		put(o, "%s", rnd[r]);
	else
		put(o, ".rnd%u", r); /* a flipped field: its number */
	for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
		if (mods & flags[k].bit)
			put(o, "%s", flags[k].text);
}

static void put_type(out_t *o, unsigned t)
{
	if (t < SC_T__COUNT && sc__type_names[t][0])
		put(o, ".%s", sc__type_names[t]);
}

/* name[c] [.volatile] [.sub] [.space] [.sub] [.bool] [.vN] [mods] types [.sub] */
static void put_mnemonic(out_t *o, const sc_insn_t *in, const sc_opinfo_t *oi)
{
	static const char *const bools[] = {"", ".and", ".or", ".xor"};
	unsigned pos = sc__subs[oi->sub].pos;
	put(o, "%s%s", oi->name, (in->mods & SC_MOD_CC_IN) ? "c" : "");
	if (in->mods & SC_MOD_VOLATILE)
		put(o, ".volatile");
	if (pos == SC_SSP_NAME)
		put_sub(o, in, oi);
	if (oi->flags & SC_OF_SPACE) {
		unsigned sp = SC_AUX_SPACE(in->aux);
		/* a parameter of a .func or a call lives in local memory; it is
		 * written as the .param it was declared */
		int32_t r = o->em ? o->em->reloc_pc[o->pc] : -1;
		if (r >= 0 && sp == SC_SP_LOCAL && o->m->syms[o->m->reloc[r].sym].space == SC_SP_PARAM)
			sp = SC_SP_PARAM;
		put_space(o, sp);
	}
	if (pos == SC_SSP_SPACE)
		put_sub(o, in, oi);
	if (in->op == SC_OP_SETP || in->op == SC_OP_SET)
		put(o, "%s", bools[SC_AUX_BOOL(in->aux)]);
	if ((oi->flags & SC_OF_VEC) && in->op != SC_OP_MOV && SC_AUX_VEC(in->aux) > 1)
		put(o, ".v%u", SC_AUX_VEC(in->aux));
	put_mods(o, in->mods);
	if (oi->nt == SC_NT_T || oi->nt == SC_NT_TS || (in->op == SC_OP_BAR && in->type)) /* bar.red's .u32/.pred */
		put_type(o, in->type);
	if (oi->nt == SC_NT_S || oi->nt == SC_NT_TS)
		put_type(o, in->stype);
	if (pos == SC_SSP_TYPE)
		put_sub(o, in, oi);
}

/* ---- operands */

/* The type a constant at a position of shape character k is read as. */
static unsigned kind_type(const sc_insn_t *in, char k)
{
	switch (k) {
	case 's': return in->stype;
	case 'u': return SC_T_U32;
	case 'x': return SC_T_B32;
	case 'g': return SC_T_U64;
	case 'p': case 'P': return SC_T_PRED;
	default: return in->type;
	}
}

/* A constant as nvcc writes one: f32 and f64 as 0f/0d bits, the halves'
 * bits in hex, integers in decimal (negative when the 64 bits are). */
static void put_imm(out_t *o, uint64_t v, unsigned t)
{
	if (t == SC_T_F32)
		put(o, "0f%08" PRIX32, (uint32_t)v);
	else if (t == SC_T_F64)
		put(o, "0d%016" PRIX64, v);
	else if (sc__type_is_float(t))
		put(o, "0x%" PRIX64, v);
	else if ((int64_t)v < 0)
		put(o, "%" PRId64, (int64_t)v);
	else
		put(o, "%" PRIu64, v);
}

/* Register slot i (pred: predicate i) as "%r<i>"-style text (prefix: r, rd,
 * p), or by its PTX name when the text asks for names and it has one. */
static void put_reg(out_t *o, const char *prefix, unsigned i, bool pred)
{
	char name[64];
	if (o->em) {
		o->em->reg(o->em, i, pred, name, sizeof name);
		put(o, "%s", name);
	} else if (o->names && sc__reg_name(o->m, o->names, i, pred, name, sizeof name) == 0)
		put(o, "%s", name);
	else
		put(o, "%%%s%u", prefix, i);
}

/* Relocation r: the symbol's name and its offset as written, in brackets
 * for an address. */
static void put_sym(out_t *o, int32_t r, bool addr)
{
	const sc__reloc_t *x = &o->m->reloc[r];
	put(o, "%s%s", addr ? "[" : "", o->em->sym_name[x->sym]);
	if (x->addend)
		put(o, "%s%" PRId64, x->addend < 0 ? "" : "+", x->addend);
	put(o, "%s", addr ? "]" : "");
}

/* Whether slot i is the frame pointer of the function the word being
 * written back belongs to (ptx_parse.c, frame_relative): the emitter
 * writes ptx-mode code. */
static bool frame_ptr(const out_t *o, unsigned i)
{
	const sc_func_t *f = o->em ? sc__func_at(o->m, o->pc) : NULL;
	return f && f->stack_frame && i == f->ptx_reg_base + sc__frame_value(f);
}

/* Operand o of in; k: its shape character (the type of a constant). */
static void put_opnd(out_t *o, const sc_module_t *m, const sc_insn_t *in, sc_opnd_t op, char k)
{
	unsigned i = SC_OPND_IDX(op);
	int64_t off = (int64_t)in->imm;
	switch (SC_OPND_KIND(op)) {
	case SC_K_NONE: put(o, "_"); return;
	case SC_K_R32: put_reg(o, "r", i, false); return;
	case SC_K_R64: put_reg(o, "rd", i, false); return;
	case SC_K_PRED: put_reg(o, "p", i, true); return;
	case SC_K_PREDN: put(o, "!"); put_reg(o, "p", i, true); return;
	case SC_K_SREG:
		if (i < SC_SR__COUNT)
			put(o, "%%%s", sc__sreg_names[i]);
		else
			put(o, "%%sreg%u", i); /* a flipped index: its number */
		return;
	case SC_K_IMM:
		if (o->em && i < m->npool && o->em->reloc_pool[i] >= 0)
			put_sym(o, o->em->reloc_pool[i], false);
		else if (o->em && i < m->npool && sc__func_of_addr(m, m->pool[i]))
			put(o, "%s", sc__func_of_addr(m, m->pool[i])->name); /* mov.u64 %rd, f */
		else if (m && i < m->npool)
			put_imm(o, m->pool[i], kind_type(in, k));
		else
			put(o, "pool[%u]", i);
		return;
	case SC_K_ADDR:
		if ((i == SC_NOREG || frame_ptr(o, i)) && o->em && o->em->reloc_pc[o->pc] >= 0) {
			put_sym(o, o->em->reloc_pc[o->pc], true);
			return;
		}
		if (i == SC_NOREG) {
			put(o, o->em ? "[%" PRIu64 "]" : "[0x%" PRIx64 "]", in->imm);
			return;
		}
		put(o, "[");
		put_reg(o, "rd", i, false);
		break;
	case SC_K_ADDR32:
		put(o, "[");
		put_reg(o, "r", i, false);
		break;
	default:
		put(o, "?%u", SC_OPND_KIND(op));
		return;
	}
	if (off)
		put(o, "%s%" PRId64, off < 0 ? "" : "+", off);
	put(o, "]");
}

/* Operands [from, to) of in as "a, b" or, grouped, "{a, b}"; ks: their
 * shape characters (the last one repeats). */
static void put_list(out_t *o, const sc_module_t *m, const sc_insn_t *in, unsigned from, unsigned to, const char *ks,
                     unsigned nk, bool group)
{
	if (group)
		put(o, "{");
	for (unsigned j = from; j < to && j < 6; j++) {
		unsigned ki = j - from < nk ? j - from : nk - 1;
		put(o, "%s", j > from ? ", " : "");
		put_opnd(o, m, in, sc__opnd(in, j), nk ? ks[ki] : 'a');
	}
	if (group)
		put(o, "}");
}

/* The name of the function that starts at pc, or NULL. */
static const char *func_at(const sc_module_t *m, uint32_t pc)
{
	for (uint32_t i = 0; m && i < m->nfuncs; i++)
		if (m->funcs[i].entry_pc == pc)
			return m->funcs[i].name;
	return NULL;
}

/* A call as PTX: (returns), name, (arguments). */
static void put_call(out_t *o, const sc_module_t *m, const sc_insn_t *in)
{
	int32_t c = o->em->call_pc[o->pc];
	bool ind = in->sub == SC_CALL_DYN && SC_NSRC(in) == 1; /* through a register and a prototype */
	const char *f = func_at(m, SC_BR_TARGET(in->imm));
	const sc__call_t *k = c >= 0 ? &m->calls[c] : NULL;
	put(o, " (");
	for (uint32_t j = 0; k && j < k->nret; j++)
		put(o, "%s%s", j ? ", " : "", o->em->sym_name[k->sym[j]]);
	put(o, "), ");
	if (ind)
		put_opnd(o, m, in, sc__opnd(in, 0), 'g');
	else
		put(o, "%s", f ? f : "?");
	put(o, ", (");
	for (uint32_t j = 0; k && j < k->narg; j++)
		put(o, "%s%s", j ? ", " : "", o->em->sym_name[k->sym[k->nret + j]]);
	put(o, ")");
	if (ind)
		put(o, ", $P%u", o->pc); /* the emitter's .callprototype or .calltargets label */
}

static void put_target(out_t *o, const sc_module_t *m, const sc_insn_t *in)
{
	uint32_t t = SC_BR_TARGET(in->imm), rpc = SC_BR_RPC(in->imm);
	if (o->em) {
		if (in->op == SC_OP_CALL)
			put_call(o, m, in);
		else
			put(o, " $L%u", t);
		return;
	}
	put(o, " %u", t);
	const char *f = in->op == SC_OP_CALL ? func_at(m, t) : NULL;
	if (f)
		put(o, " (%s)", f);
	if (in->op == SC_OP_BRA && rpc != SC_PC_NONE)
		put(o, " (rpc %u)", rpc);
}

/* Destinations then sources: a pair "d|p", several destinations or the
 * values of a vector store or a packing move in braces, a bar's missing
 * count left out. */
static void put_operands(out_t *o, const sc_module_t *m, const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned nd = SC_NDST(in), n = nd + SC_NSRC(in);
	sc_shape_t s;
	sc__shape(in->op, &s);
	if (oi->flags & (SC_OF_JUMP | SC_OF_CALL)) {
		put_target(o, m, in);
		return;
	}
	if (n)
		put(o, " ");
	if (s.pair && nd == 2) {
		put_opnd(o, m, in, sc__opnd(in, 0), s.dst[0]);
		if (SC_OPND_KIND(in->opnd[1]) != SC_K_NONE) {
			put(o, "|");
			put_opnd(o, m, in, sc__opnd(in, 1), s.dst[1]);
		}
	} else {
		put_list(o, m, in, 0, nd, s.dst, s.ndst, nd > 1);
	}
	unsigned first = nd;
	if (in->op == SC_OP_ST && n > 1) { /* the address, then the values */
		put(o, "%s", nd ? ", " : "");
		put_opnd(o, m, in, sc__opnd(in, nd), 'm');
		first = nd + 1;
	}
	if (first >= n)
		return;
	put(o, "%s", first ? ", " : "");
	bool group = (in->op == SC_OP_ST && n - first > 1) || (in->op == SC_OP_MOV && n - first > 1 && nd == 1);
	if (in->op == SC_OP_BAR) {
		for (unsigned j = first, k = 0; j < n && j < 6; j++)
			if (SC_OPND_KIND(in->opnd[j]) != SC_K_NONE || j == first) {
				put(o, "%s", k++ ? ", " : "");
				put_opnd(o, m, in, sc__opnd(in, j), 'u');
			}
		return;
	}
	const char *ks = in->op == SC_OP_ST ? s.src + 1 : s.src;
	put_list(o, m, in, first, n, ks, in->op == SC_OP_ST ? s.nsrc - 1u : s.nsrc, group);
}

/* A texture or surface word (tex.c) as the PTX it lowers from, its
 * components outside the word written '_': "tex.2d.v4.f32.f32 {_, _, %r1,
 * %r2}, [%rd1, {%r3, %r4}]" (loads again, but for a .v4 sust's halves). */
static void put_tex(out_t *o, const sc_module_t *m, const sc_insn_t *in)
{
	static const char *const chans = "rgba", *const oob[] = {".trap", ".clamp", ".zero", ".?"};
	unsigned g = SC_TEX_GEOM(in->sub), nd = SC_NDST(in), ns = SC_NSRC(in), vec = SC_AUX_VEC(in->aux);
	bool st = in->op == SC_OP_SUST;
	if (in->op == SC_OP_TXQ) {
		put(o, "%s.%s.b32 ", (in->sub & SC_TXQ_SURF) ? "suq" : "txq", sc__tex_query_name(in->sub & ~SC_TXQ_SURF));
		put_opnd(o, m, in, sc__opnd(in, 0), 'q');
		put(o, ", [");
		put_opnd(o, m, in, sc__opnd(in, 1), 'g');
		put(o, "]");
		return;
	}
	put(o, "%s", sc__ops[in->op].name);
	if (in->op == SC_OP_TLD4)
		put(o, ".%c", chans[SC_TEX_X(in->sub)]);
	if (in->op == SC_OP_SULD || st)
		put(o, ".b");
	put(o, ".%s", sc__tex_geom_name(g));
	if (vec > 1)
		put(o, ".v%u", vec);
	put_type(o, in->type);
	if (in->op == SC_OP_TEX || in->op == SC_OP_TLD4)
		put_type(o, in->stype);
	else
		put(o, "%s", oob[SC_TEX_X(in->sub)]);
	unsigned first = st ? 0 : nd, nc = g == SC_TEXG_3D || g == SC_TEXG_A2D ? 3 : g == SC_TEXG_1D ? 1 : 2;
	unsigned k = st ? ns - 1 - nc : nd, at = st ? 1 + nc : 0;
	put(o, " ");
	for (int pass = 0; pass < 2; pass++) {
		if ((pass == 0) == st) { /* the address: [h, {coordinates}] */
			put(o, "%s[", pass ? ", " : "");
			put_opnd(o, m, in, sc__opnd(in, first), 'g');
			put(o, ", {");
			for (unsigned c = 0; c < nc; c++) {
				put(o, "%s", c ? ", " : "");
				put_opnd(o, m, in, sc__opnd(in, first + 1 + c), c == 0 && g >= SC_TEXG_A1D ? 'u' : 's');
			}
			put(o, "}]");
			continue;
		}
		put(o, "%s{", pass ? ", " : "");
		for (unsigned c = 0; c < vec; c++) {
			unsigned e = c - SC_TEX_COMP(in->sub);
			put(o, "%s", c ? ", " : "");
			if (c < SC_TEX_COMP(in->sub) || e >= k)
				put(o, "_");
			else
				put_opnd(o, m, in, sc__opnd(in, at + e), 'd');
		}
		put(o, "}");
	}
}

static int disasm(out_t o, const sc_module_t *m, const sc_insn_t *in)
{
	char *buf = o.p;
	size_t n = o.n;
	if (n)
		buf[0] = 0;
	/* the ptx-mode code of an alloc-mode module numbers registers past the
	 * allocated slots (nregs_all): only the encoding bounds it */
	uint32_t nregs = m && !o.ptx_code ? m->nregs_all : SC_IDX_LIMIT,
	         npreds = m && !o.ptx_code ? m->npreds_all : SC_IDX_LIMIT;
	uint32_t npool = m ? m->npool : SC_IDX_LIMIT, ncode = m ? m->ncode : UINT32_MAX;
	if (sc__insn_check(in, nregs, npreds, npool, ncode)) {
		const unsigned char *b = (const unsigned char *)in;
		put(&o, "<invalid word 0x");
		for (size_t i = 0; i < sizeof *in; i++)
			put(&o, "%02x", b[i]);
		put(&o, ">");
		return (int)o.len;
	}
	const sc_opinfo_t *oi = &sc__ops[in->op];
	sc_res_t res;
	if ((in->mods & SC_MOD_RES) && !sc__res_split(in, &res)) { /* raLoad, raStore, raSetP */
		const sc_insn_t *b = &res.base;
		sc_insn_t r = *b; /* the base with the replicas in place */
		unsigned nd = SC_NDST(b), first = b->op == SC_OP_SETP ? nd : b->op == SC_OP_LD ? nd : 0;
		for (unsigned e = 0; e < res.np; e++)
			sc__set_opnd(&r, first + e, res.rep[e]);
		for (unsigned e = 0; e < res.nrd; e++)
			sc__set_opnd(&r, e, res.rdst[e]);
		if (in->guard & SC_GUARD_ON) {
			put(&o, "@%s", (in->guard & SC_GUARD_NEG) ? "!" : "");
			put_reg(&o, "p", SC_GUARD_REG(in->guard), true);
			put(&o, " ");
		}
		/* "ld.ra.global.u32 %r1, [%rd1] : %r9, [%rd9]" (ptx_parse.c, ra_mnemonic) */
		char mn[96];
		out_t t = o;
		t.p = mn;
		t.n = sizeof mn;
		t.len = 0;
		put_mnemonic(&t, b, oi);
		size_t op = strlen(oi->name);
		put(&o, "%.*s.ra%s", (int)op, mn, mn + op);
		put_operands(&o, m, b, oi);
		put(&o, " :");
		put_operands(&o, m, &r, oi);
		return (int)o.len;
	}
	if (in->guard & SC_GUARD_ON) {
		put(&o, "@%s", (in->guard & SC_GUARD_NEG) ? "!" : "");
		put_reg(&o, "p", SC_GUARD_REG(in->guard), true);
		put(&o, " ");
	}
	if (in->op >= SC_OP_TEX && in->op <= SC_OP_SUST && sc__tex_valid(in)) {
		put_tex(&o, m, in);
		return (int)o.len;
	}
	sc_insn_t mv;
	if (o.em && in->op == SC_OP_ADD && SC_OPND_KIND(in->opnd[1]) == SC_K_R64 && frame_ptr(&o, sc__opnd_idx(in, 1)) &&
	    SC_OPND_KIND(in->opnd[2]) == SC_K_IMM) { /* mov.u64 %rd, var of a stack frame, as written */
		mv = sc__insn_ops((sc_insn_t){.op = SC_OP_MOV, .type = SC_T_U64, .nops = SC_NOPS_MAKE(1, 1)},
		                  (sc_opnd_t[6]){sc__opnd(in, 0), sc__opnd(in, 2)});
		in = &mv;
		oi = &sc__ops[in->op];
	}
	put_mnemonic(&o, in, oi);
	put_operands(&o, m, in, oi);
	return (int)o.len;
}

int sc__disasm(const sc_module_t *m, const sc_insn_t *in, char *buf, size_t n)
{
	return disasm((out_t){buf, n, 0, m, NULL, false, NULL, 0}, m, in);
}

int sc__disasm_emit(const sc__emit_t *e, uint32_t pc, char *buf, size_t n)
{
	const sc_module_t *m = e->m;
	const sc_insn_t *in = m->code_ptx ? &m->code_ptx[pc] : &m->code[pc];
	return disasm((out_t){buf, n, 0, m, NULL, true, e, pc}, m, in);
}

int sc__disasm_ptx(const sc_module_t *m, uint32_t pc, char *buf, size_t n)
{
	if (!m || pc >= m->ncode) {
		if (n)
			buf[0] = 0;
		return -1;
	}
	const sc_insn_t *in = m->code_ptx ? &m->code_ptx[pc] : &m->code[pc];
	return disasm((out_t){buf, n, 0, m, sc__func_at(m, pc), m->code_ptx != NULL, NULL, 0}, m, in);
}

int sc_disasm_pc(const sc_module_t *mod, uint32_t pc, char *buf, size_t n)
{
	if (!mod || pc >= mod->ncode)
		return SC_EINVAL;
	return sc__disasm(mod, &mod->code[pc], buf, n);
}

int sc_module_disasm(const sc_module_t *mod, FILE *out)
{
	if (!mod || !out)
		return SC_EINVAL;
	char text[256];
	fprintf(out, "// %s: %s register mode, %u instructions\n", mod->name, sc_regs_name(mod->regs), mod->ncode);
	for (uint32_t i = 0; i < mod->nfuncs; i++) {
		const sc_func_t *f = &mod->funcs[i];
		if (f->entry_pc == UINT32_MAX)
			continue;
		fprintf(out, "\n%s %s  // pcs %u-%u\n//     pc   line\n", f->is_entry ? ".entry" : ".func", f->name, f->entry_pc,
		        f->end_pc ? f->end_pc - 1 : 0);
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
			sc__disasm(mod, &mod->code[pc], text, sizeof text);
			fprintf(out, "%8u %6u   %s\n", pc, mod->line[pc], text);
		}
	}
	return ferror(out) ? SC_EIO : 0;
}
