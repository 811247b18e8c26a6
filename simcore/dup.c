/* Datapath duplication with checks, and the resilient instructions raLoad,
 * raStore and raSetP (Dagostino et al.; DESIGN.md, "Datapath duplication
 * and resilient instructions"): a pass over the lowered code at module
 * load that replicates the backward register slices (slice.c) of the
 * protected operands into replica registers, then checks them, with plain
 * compares into a sticky predicate and a notifying trap (sw) or with
 * resilient words that compare in one instruction (ra); and the execution
 * of those words (sc__x_res, picked by the decoder). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static const char *const protect_names[] = {"?", "memory", "setp", "all"};
static const char *const variant_names[] = {"sw", "ra"};

const char *sc_dup_protect_name(unsigned p) { return p >= 1 && p <= 3 ? protect_names[p] : "?"; }
const char *sc_dup_variant_name(unsigned v) { return v <= 1 ? variant_names[v] : "?"; }

int sc_dup_protect_parse(const char *name, uint8_t *out)
{
	for (uint8_t i = 1; name && i <= 3; i++)
		if (!strcmp(name, protect_names[i])) {
			*out = i;
			return 0;
		}
	return SC_EINVAL;
}

int sc_dup_variant_parse(const char *name, uint8_t *out)
{
	for (uint8_t i = 0; name && i <= 1; i++)
		if (!strcmp(name, variant_names[i])) {
			*out = i;
			return 0;
		}
	return SC_EINVAL;
}

/* ---------------------------------------------------------------- resilient words */

static bool is_reg(sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED;
}

/* A replica beside its original: the same kind (an immediate's or a
 * special register's replica is itself). */
static bool pair_ok(sc_opnd_t a, sc_opnd_t b)
{
	unsigned k = SC_OPND_KIND(a);
	if (k != SC_OPND_KIND(b))
		return false;
	switch (k) {
	case SC_K_R32: case SC_K_R64: return true;
	case SC_K_ADDR: return SC_OPND_IDX(a) != SC_NOREG && SC_OPND_IDX(b) != SC_NOREG;
	case SC_K_ADDR32: return true;
	case SC_K_IMM: case SC_K_SREG: return a == b;
	default: return false;
	}
}

int sc__res_split(const sc_insn_t *in, sc_res_t *r)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), v = SC_AUX_VEC(in->aux);
	memset(r, 0, sizeof *r);
	if (!(in->mods & SC_MOD_RES) || nd + ns > 6 || ((in->aux >> 3) & 3u) == 3u)
		return -1;
	sc_insn_t *b = &r->base;
	*b = *in;
	b->mods &= (uint16_t)~SC_MOD_RES;
	memset(b->opnd, 0, sizeof b->opnd);
	b->reserved &= SC_RESERVED_HI;
	switch (in->op) {
	case SC_OP_LD: /* d1..dv [d1'..dv'] a a' */
		if (ns != 2 || (nd != v && nd != 2 * v))
			return -1;
		for (unsigned e = 0; e < v; e++)
			sc__set_opnd(b, e, sc__opnd(in, e));
		sc__set_opnd(b, v, sc__opnd(in, nd));
		b->nops = SC_NOPS_MAKE(v, 1);
		r->orig[0] = sc__opnd(in, nd);
		r->rep[0] = sc__opnd(in, nd + 1);
		r->np = 1;
		if (nd == 2 * v) {
			for (unsigned e = 0; e < v; e++) {
				if (!is_reg(sc__opnd(in, e)) || SC_OPND_KIND(sc__opnd(in, e)) != SC_OPND_KIND(sc__opnd(in, v + e)))
					return -1;
				r->odst[e] = sc__opnd(in, e);
				r->rdst[e] = sc__opnd(in, v + e);
			}
			r->nrd = v;
		}
		break;
	case SC_OP_ST: /* a x1..xv a' [x1'..xv'] */
		if (nd != 0 || (ns != v + 2 && ns != 2 * v + 2))
			return -1;
		for (unsigned e = 0; e <= v; e++)
			sc__set_opnd(b, e, sc__opnd(in, e));
		b->nops = SC_NOPS_MAKE(0, v + 1);
		r->np = ns == v + 2 ? 1 : v + 1;
		for (unsigned e = 0; e < r->np; e++) {
			r->orig[e] = sc__opnd(in, e);
			r->rep[e] = sc__opnd(in, v + 1 + e);
		}
		break;
	case SC_OP_SETP: /* p [q] a b [c] a' b' */
		if (nd < 1 || nd > 2 || ns < 4 || ns > 5)
			return -1;
		for (unsigned e = 0; e < nd + ns - 2; e++)
			sc__set_opnd(b, e, sc__opnd(in, e));
		b->nops = SC_NOPS_MAKE(nd, ns - 2);
		r->np = 2;
		for (unsigned e = 0; e < 2; e++) {
			r->orig[e] = sc__opnd(in, nd + e);
			r->rep[e] = sc__opnd(in, nd + ns - 2 + e);
		}
		break;
	default:
		return -1;
	}
	for (unsigned e = 0; e < r->np; e++)
		if (!pair_ok(r->orig[e], r->rep[e]))
			return -1;
	if (in->op == SC_OP_LD && SC_OPND_KIND(r->orig[0]) != SC_K_ADDR && SC_OPND_KIND(r->orig[0]) != SC_K_ADDR32)
		return -1;
	if (in->op == SC_OP_ST && SC_OPND_KIND(r->orig[0]) != SC_K_ADDR && SC_OPND_KIND(r->orig[0]) != SC_K_ADDR32)
		return -1;
	return 0;
}

/* An address operand read as its base register. */
static sc_opnd_t as_reg(sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_ADDR ? SC_OPND(SC_K_R64, SC_OPND_IDX(o)) : k == SC_K_ADDR32 ? SC_OPND(SC_K_R32, SC_OPND_IDX(o)) : o;
}

int sc__x_res(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	sc_res_t r;
	if (sc__res_split(d->in, &r))
		return SC_X_BAD;
	/* the checks come before any access, in the lanes that execute */
	uint64_t a[32], b[32];
	for (unsigned e = 0; e < r.np && exec; e++) {
		sc__rd(g, sm, w, as_reg(r.orig[e]), exec, a);
		sc__rd(g, sm, w, as_reg(r.rep[e]), exec, b);
		FOR_LANES(l, exec)
			if (a[l] != b[l]) {
				sc__due(g, SC_DUE_DUP_MISMATCH, sm, w, (int)l, d->pc, 0,
				        "resilient %s: operand %u differs from its replica (lane %u: %#llx, replica %#llx)",
				        d->in->op == SC_OP_LD ? "raLoad" : d->in->op == SC_OP_ST ? "raStore" : "raSetP", e, l,
				        (unsigned long long)a[l], (unsigned long long)b[l]);
				return SC_X_HALT;
			}
	}
	sc_dec_t bd;
	sc__decode(g, &r.base, d->pc, true, &bd);
	int rc = bd.fn(g, sm, w, &bd, exec);
	/* raLoad's second write: the replicas take the one access's values */
	for (unsigned e = 0; e < r.nrd && exec && !g->run.halt && rc != SC_X_BAD; e++) {
		sc__rd(g, sm, w, r.odst[e], exec, a);
		sc__wr(w, r.rdst[e], exec, a);
	}
	return rc;
}

/* ---------------------------------------------------------------- the pass */

typedef struct {
	sc_pass_t *p;
	const sc_dup_protection_t *dp;
	uint32_t fi;
	const sc_func_t *f;
	const sc_insn_t *code; /* the session's words, by old pc */
	uint32_t lo, hi;
	sc_rdefs_t rd;
	uint8_t *prot;         /* per pc - lo: PROT_* */
	bool *cone;
	sc_opnd_t *rep;        /* per slot / predicate (after nslots): its replica, 0 none */
	uint32_t nslots;
	sc_opnd_t pe;          /* the sticky error predicate (sw checks), 0 none yet */
	sc_opnd_t zero;
} dctx_t;

enum { PROT_NONE = 0, PROT_MEM, PROT_SETP };

/* The address operand's position in a memory word, -1 when none. */
static int addr_pos(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), n = nd + SC_NSRC(in);
	for (unsigned j = nd; j < n && j < 6; j++) {
		unsigned k = SC_OPND_KIND(sc__opnd(in, j));
		if (k == SC_K_ADDR || k == SC_K_ADDR32)
			return (int)j;
	}
	return -1;
}

static bool has_base(const sc_insn_t *in)
{
	int a = addr_pos(in);
	return a >= 0 && (SC_OPND_KIND(sc__opnd(in, a)) == SC_K_ADDR32 || SC_OPND_IDX(sc__opnd(in, a)) != SC_NOREG);
}

/* Whether a word in a cone is replicated (its replica reads the replicas
 * of its sources) or only copied after it (mov r', r: a leaf the slice
 * stops at): a computation into registers, or a load that is not
 * volatile, is replicated; an atomic's result, a clock read, a carry
 * chain, a cross-lane word or a call's result is copied. */
static bool replicable(const sc_insn_t *in, void *ctx)
{
	(void)ctx;
	const sc_opinfo_t *oi = &sc__ops[in->op];
	/* a parameter or constant read without a base register is copied:
	 * the emitter's symbol records do not follow inserted words */
	if (in->op == SC_OP_LD)
		return !(in->mods & SC_MOD_VOLATILE) && has_base(in);
	if (oi->unit > SC_U_MOV || (oi->flags & (SC_OF_SIDE | SC_OF_XLANE | SC_OF_BLOCK_END | SC_OF_CALL)) ||
	    (in->mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT)))
		return false;
	return !sc__insn_reads_clock(in);
}


/* The operand positions of a protected word whose slices are replicated
 * and which the checks compare. */
static uint32_t prot_mask(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), n = nd + SC_NSRC(in);
	if (in->op == SC_OP_SETP)
		return (1u << nd) | (1u << (nd + 1));
	if (in->op == SC_OP_LD)
		return 1u << addr_pos(in);
	uint32_t m = 0; /* st, atom, red: the address and every source */
	for (unsigned j = nd; j < n && j < 6; j++)
		m |= 1u << j;
	return m;
}

/* The protected words of the function (ctx->prot). */
static int find_protected(dctx_t *c)
{
	const sc_dup_protection_t *dp = c->dp;
	for (uint32_t pc = c->lo; pc < c->hi; pc++) {
		const sc_insn_t *in = &c->code[pc];
		bool mem = (dp->protect & SC_DUP_MEMORY) &&
		           (in->op == SC_OP_LD || in->op == SC_OP_ST ||
		            (dp->atomics && (in->op == SC_OP_ATOM || in->op == SC_OP_RED))) &&
		           has_base(in);
		if (mem)
			c->prot[pc - c->lo] = PROT_MEM;
		/* setp: every setp whose predicate guards a bra it reaches */
		if ((dp->protect & SC_DUP_SETP) && in->op == SC_OP_BRA && (in->guard & SC_GUARD_ON)) {
			sc_regref_t g = {.idx = (uint16_t)SC_GUARD_REG(in->guard), .w = 1, .pred = true, .pos = 6};
			uint32_t defs[64], n = sc__rdefs_of(&c->rd, pc, g, defs, 64);
			for (uint32_t i = 0; i < n && i < 64; i++) {
				uint32_t dpc = c->rd.def_pc[defs[i]];
				if (c->code[dpc].op == SC_OP_SETP && c->prot[dpc - c->lo] == PROT_NONE)
					c->prot[dpc - c->lo] = PROT_SETP;
			}
		}
	}
	return 0;
}

/* The replica of register operand o (0 when it has none). */
static sc_opnd_t rep_of(const dctx_t *c, sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	switch (k) {
	case SC_K_R32: case SC_K_R64: return i < c->nslots && c->rep[i] ? SC_OPND(k, SC_OPND_IDX(c->rep[i])) : 0;
	case SC_K_ADDR: return i != SC_NOREG && i < c->nslots && c->rep[i] ? SC_OPND(k, SC_OPND_IDX(c->rep[i])) : 0;
	case SC_K_ADDR32: return i < c->nslots && c->rep[i] ? SC_OPND(k, SC_OPND_IDX(c->rep[i])) : 0;
	case SC_K_PRED: case SC_K_PREDN:
		return c->rep[c->nslots + i] ? SC_OPND(k, SC_OPND_IDX(c->rep[c->nslots + i])) : 0;
	default: return 0;
	}
}

/* A replica register for every register the cone's words define. */
static int make_replicas(dctx_t *c)
{
	for (uint32_t pc = c->lo; pc < c->hi; pc++) {
		if (!c->cone[pc - c->lo])
			continue;
		const sc_insn_t *in = &c->code[pc];
		for (unsigned j = 0; j < SC_NDST(in) && j < 6; j++) {
			unsigned k = SC_OPND_KIND(sc__opnd(in, j)), i = SC_OPND_IDX(sc__opnd(in, j));
			if (!is_reg(sc__opnd(in, j)))
				continue;
			uint32_t at = k == SC_K_PRED ? c->nslots + i : i;
			if (c->rep[at])
				continue;
			uint8_t type;
			if (sc__reg_type(sc__pass_module(c->p), c->f, i, k == SC_K_PRED, &type, NULL))
				return SC_EINVAL;
			int rc = sc__pass_new_reg(c->p, c->fi, type, &c->rep[at]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The replica of word in: registers with a replica read and written in
 * their replicas. */
static sc_insn_t replica_word(const dctx_t *c, const sc_insn_t *in)
{
	sc_insn_t r = *in;
	for (unsigned j = 0; j < SC_NDST(in) + SC_NSRC(in) && j < 6; j++) {
		sc_opnd_t q = rep_of(c, sc__opnd(in, j));
		if (q)
			sc__set_opnd(&r, j, q);
	}
	return r;
}

/* mov d', d after pc for every register destination of the word there. */
static int copy_after(dctx_t *c, uint32_t pc, unsigned from)
{
	const sc_insn_t *in = &c->code[pc];
	for (unsigned j = from; j < SC_NDST(in) && j < 6; j++) {
		sc_opnd_t o = sc__opnd(in, j), q = rep_of(c, o);
		if (!q || !is_reg(o))
			continue;
		uint8_t type;
		unsigned k = SC_OPND_KIND(o);
		if (sc__reg_type(sc__pass_module(c->p), c->f, SC_OPND_IDX(o), k == SC_K_PRED, &type, NULL))
			return SC_EINVAL;
		unsigned bits = sc__type_bits(type);
		sc_insn_t mv = {.op = SC_OP_MOV,
		                .type = k == SC_K_PRED ? SC_T_PRED : bits == 64 ? SC_T_B64 : bits == 16 ? SC_T_B16 : bits == 8 ? SC_T_B8 : SC_T_B32,
		                .nops = SC_NOPS_MAKE(1, 1), .guard = in->guard};
		sc__set_opnds(&mv, 2, (sc_opnd_t[]){q, o});
		int rc = sc__pass_insert(c->p, pc, true, &mv);
		if (rc)
			return rc;
	}
	return 0;
}

/* The sticky error predicate, cleared in the prologue (made on first use). */
static int need_pe(dctx_t *c)
{
	if (c->pe)
		return 0;
	int rc = sc__pass_new_reg(c->p, c->fi, SC_T_PRED, &c->pe);
	if (rc || (rc = sc__pass_const(c->p, 0, &c->zero)))
		return rc;
	sc_insn_t clr = {.op = SC_OP_SETP, .type = SC_T_PRED, .sub = SC_CMP_NE, .stype = SC_T_U32,
	                 .nops = SC_NOPS_MAKE(1, 2)};
	sc__set_opnds(&clr, 3, (sc_opnd_t[]){c->pe, c->zero, c->zero});
	return sc__pass_prologue(c->p, c->fi, &clr);
}

static sc_insn_t notify(const dctx_t *c)
{
	return (sc_insn_t){.op = SC_OP_TRAP, .sub = SC_TRAP_DUP, .guard = (uint16_t)(SC_GUARD_ON | SC_OPND_IDX(c->pe))};
}

/* sw checks before pc of the operands in mask against their replicas:
 * setp.ne.or.bN PE, x, x', PE under the word's guard; then, for a word
 * that stores or decides a branch (notify), @PE trap.dup. */
static int sw_checks(dctx_t *c, uint32_t pc, const sc_insn_t *in, uint32_t mask, bool notify_after)
{
	int rc = need_pe(c);
	for (unsigned j = 0; j < 6 && !rc; j++) {
		if (!((mask >> j) & 1u))
			continue;
		sc_opnd_t o = as_reg(sc__opnd(in, j)), q = rep_of(c, sc__opnd(in, j));
		unsigned k = SC_OPND_KIND(o);
		if (!q || (k != SC_K_R32 && k != SC_K_R64))
			continue;
		uint8_t type;
		if (sc__reg_type(sc__pass_module(c->p), c->f, SC_OPND_IDX(o), false, &type, NULL))
			return SC_EINVAL;
		unsigned bits = sc__type_bits(type);
		if (bits == 8) /* no compare takes an 8-bit register */
			continue;
		sc_insn_t chk = {.op = SC_OP_SETP, .type = SC_T_PRED, .sub = SC_CMP_NE,
		                 .stype = k == SC_K_R64 ? SC_T_B64 : bits == 16 ? SC_T_B16 : SC_T_B32,
		                 .aux = SC_AUX_MAKE(0, 0, SC_BOOL_OR), .nops = SC_NOPS_MAKE(1, 3),
		                 .guard = in->guard};
		sc__set_opnds(&chk, 4, (sc_opnd_t[]){c->pe, o, as_reg(q), c->pe});
		rc = sc__pass_insert(c->p, pc, false, &chk);
	}
	if (!rc && notify_after) {
		sc_insn_t t = notify(c);
		rc = sc__pass_insert(c->p, pc, false, &t);
	}
	return rc;
}

/* The resilient form of the protected word at pc, when it has one: 0 and
 * *out, or -1. */
static int resilient_word(const dctx_t *c, uint32_t pc, sc_insn_t *out)
{
	const sc_insn_t *in = &c->code[pc];
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), v = SC_AUX_VEC(in->aux);
	sc_insn_t r = *in;
	r.mods |= SC_MOD_RES;
	memset(r.opnd, 0, sizeof r.opnd);
	r.reserved &= SC_RESERVED_HI;
	sc_opnd_t q;
	switch (in->op) {
	case SC_OP_LD: {
		int a = addr_pos(in);
		if (a != (int)nd || nd != v || !(q = rep_of(c, sc__opnd(in, a))))
			return -1;
		bool dual = c->cone[pc - c->lo] && 2 * v + 2 <= 6;
		for (unsigned e = 0; e < v && dual; e++)
			dual = rep_of(c, sc__opnd(in, e)) != 0;
		unsigned o = 0;
		for (unsigned e = 0; e < v; e++)
			sc__set_opnd(&r, o++, sc__opnd(in, e));
		for (unsigned e = 0; e < v && dual; e++)
			sc__set_opnd(&r, o++, rep_of(c, sc__opnd(in, e)));
		sc__set_opnd(&r, o++, sc__opnd(in, a));
		sc__set_opnd(&r, o++, q);
		r.nops = SC_NOPS_MAKE(dual ? 2 * v : v, 2);
		break;
	}
	case SC_OP_ST: {
		if (nd != 0 || ns != v + 1 || !(q = rep_of(c, sc__opnd(in, 0))))
			return -1;
		bool full = 2 * v + 2 <= 6;
		for (unsigned e = 0; e <= v; e++)
			sc__set_opnd(&r, e, sc__opnd(in, e));
		sc__set_opnd(&r, v + 1, q);
		for (unsigned e = 1; e <= v && full; e++) {
			sc_opnd_t x = sc__opnd(in, e), xq = rep_of(c, x);
			sc__set_opnd(&r, v + 1 + e, xq ? xq : x); /* an immediate is its own replica */
			if (!xq && (SC_OPND_KIND(x) == SC_K_R32 || SC_OPND_KIND(x) == SC_K_R64))
				return -1;
		}
		r.nops = SC_NOPS_MAKE(0, full ? 2 * v + 2 : v + 2);
		break;
	}
	case SC_OP_SETP: {
		if (nd + ns + 2 > 6)
			return -1;
		for (unsigned e = 0; e < nd + ns; e++)
			sc__set_opnd(&r, e, sc__opnd(in, e));
		for (unsigned e = 0; e < 2; e++) {
			sc_opnd_t x = sc__opnd(in, nd + e), xq = rep_of(c, x);
			if (!xq && (SC_OPND_KIND(x) == SC_K_R32 || SC_OPND_KIND(x) == SC_K_R64))
				return -1;
			sc__set_opnd(&r, nd + ns + e, xq ? xq : x);
		}
		r.nops = SC_NOPS_MAKE(nd, ns + 2);
		break;
	}
	default:
		return -1;
	}
	sc_res_t s;
	if (sc__res_split(&r, &s))
		return -1;
	*out = r;
	return 0;
}

static int dup_func(dctx_t *c)
{
	int rc;
	uint32_t n = c->hi - c->lo;
	if ((rc = find_protected(c)))
		return rc;
	for (uint32_t pc = c->lo; pc < c->hi; pc++)
		if (c->prot[pc - c->lo] &&
		    (rc = sc__slice(&c->rd, c->code, pc, prot_mask(&c->code[pc]), replicable, NULL, c->cone)))
			return rc;
	if ((rc = make_replicas(c)))
		return rc;
	bool ra = c->dp->variant == SC_DUP_RA;
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint32_t pc = c->lo + i;
		const sc_insn_t orig = c->code[pc], *in = &orig; /* a replacement changes code[pc] */
		sc_insn_t res;
		bool resilient = ra && c->prot[i] && resilient_word(c, pc, &res) == 0;
		/* 1. the replica of a cone word, right after it */
		if (c->cone[i]) {
			if (resilient && in->op == SC_OP_LD) {
				/* raLoad writes the replicas itself, unless they did not fit */
				if (SC_NDST(&res) == SC_NDST(in))
					rc = copy_after(c, pc, 0);
			} else if (replicable(in, NULL)) {
				sc_insn_t r = replica_word(c, in);
				rc = sc__pass_insert(c->p, pc, true, &r);
			} else {
				rc = copy_after(c, pc, 0);
			}
		}
		if (rc || !c->prot[i])
			continue;
		/* 2. the check of a protected word */
		if (resilient) {
			rc = sc__pass_replace(c->p, pc, &res);
			/* raStore of a vector of 4: the address in the word, the data
			 * by plain checks */
			if (!rc && in->op == SC_OP_ST && SC_NSRC(&res) == SC_AUX_VEC(in->aux) + 2)
				rc = sw_checks(c, pc, in, prot_mask(in) & ~1u, true);
		} else {
			/* the notification before a store or a branch-deciding setp */
			rc = sw_checks(c, pc, in, prot_mask(in), in->op != SC_OP_LD);
		}
	}
	/* 3. the notification at every exit, when there are plain checks */
	for (uint32_t pc = c->lo; pc < c->hi && !rc && c->pe; pc++)
		if (c->code[pc].op == SC_OP_EXIT || (c->code[pc].op == SC_OP_RET && c->f->is_entry)) {
			sc_insn_t t = notify(c);
			rc = sc__pass_insert(c->p, pc, false, &t);
		}
	return rc;
}

int sc__dup_apply(sc_module_t *m, const sc_dup_protection_t *dp, char *msg, size_t msgsz)
{
	if (!dp->protect)
		return 0;
	/* calls: a slice would have to follow values through parameters and
	 * results, and replicas through the callee; refused */
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].uses_funcs) {
			snprintf(msg, msgsz, "%s: kernel %s calls a .func: datapath duplication (protection dup) does not "
			         "follow values through calls", m->name, m->funcs[i].name);
			return SC_EINVAL;
		}
	/* the original registers' own slots, for "regs_subset": "original" */
	uint32_t *orig = calloc(m->nfuncs + 1, sizeof *orig);
	if (!orig) {
		snprintf(msg, msgsz, "%s: out of memory", m->name);
		return SC_ENOMEM;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		orig[i] = m->funcs[i].ptx_nregs;
	sc_pass_t *p;
	int rc = sc__pass_begin(m, &p);
	if (rc) {
		free(orig);
		snprintf(msg, msgsz, "%s: out of memory", m->name);
		return rc;
	}
	for (uint32_t fi = 0; fi < m->nfuncs && !rc; fi++) {
		const sc_func_t *f = &m->funcs[fi];
		if (f->entry_pc == UINT32_MAX || f->end_pc <= f->entry_pc)
			continue;
		dctx_t c = {.p = p, .dp = dp, .fi = fi, .f = f, .code = sc__pass_insn(p, 0), .lo = f->entry_pc,
		            .hi = f->end_pc};
		uint32_t n = c.hi - c.lo;
		c.nslots = f->ptx_reg_base + f->ptx_nregs;
		if ((rc = sc__rdefs(c.code, c.lo, c.hi, c.nslots, f->ptx_pred_base + f->ptx_npreds, &c.rd)))
			break;
		c.prot = calloc(n + 1, 1);
		c.cone = calloc(n + 1, sizeof *c.cone);
		c.rep = calloc(c.nslots + f->ptx_pred_base + f->ptx_npreds + 1, sizeof *c.rep);
		rc = c.prot && c.cone && c.rep ? dup_func(&c) : SC_ENOMEM;
		sc__rdefs_free(&c.rd);
		free(c.prot);
		free(c.cone);
		free(c.rep);
	}
	if (rc) {
		free(orig);
		sc__pass_abort(p);
		snprintf(msg, msgsz, "%s: datapath duplication failed (%s)", m->name, rc == SC_ENOMEM ? "out of memory" : "refused");
		return rc;
	}
	if (!(rc = sc__pass_commit(p, msg, msgsz)))
		for (uint32_t i = 0; i < m->nfuncs; i++) {
			m->funcs[i].dup_nregs = orig[i];
			m->funcs[i].dup_done = true;
		}
	free(orig);
	return rc;
}
