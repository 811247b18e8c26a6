/* The instruction table and the other name tables generated from the
 * X-macro lists in sc_int.h, error strings, and the instruction decoder's
 * validity check (the encoding is drawn in sc_int.h). */
#include <string.h>

#include "sc_int.h"

const sc_opinfo_t sc__ops[SC_OP__COUNT] = {
#define X(name, text, unit, lat, nt, shape, types, stypes, imods, fmods, sub, flags)                        \
	[SC_OP_##name] = {text, SC_U_##unit, SC_LAT_##lat, SC_NT_##nt, SC_SS_##sub, shape, types, stypes, \
	                  {(imods), (fmods)}, (flags)},
	SC_OP_LIST(X)
#undef X
};

/* The names of each sub-selector's values (sc_int.h, SC_SS_LIST). */
static const char *const ss_none[] = {"", NULL};
static const char *const ss_mul[] = {"lo", "hi", "wide", NULL};
static const char *const ss_mul24[] = {"lo", "hi", NULL};
static const char *const ss_prmt[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
static const char *const ss_bfind[] = {"", "shiftamt", NULL};
static const char *const ss_shf[] = {"l.wrap", "r.wrap", "l.clamp", "r.clamp", NULL}; /* SC_SHF_R | SC_SHF_CLAMP */
#define TEXT_OF(name, text) text, /* the text column of an X-macro list */
static const char *const ss_cmp[] = {SC_CMP_LIST(TEXT_OF) NULL};
static const char *const ss_testp[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
static const char *const ss_cvta[] = {"", "to", NULL};
static const char *const ss_atom[] = {SC_ATOM_LIST(TEXT_OF) NULL};
#undef TEXT_OF
static const char *const ss_bar[] = {"sync", "arrive", "red.popc", "red.and", "red.or", "warp.sync", NULL};
static const char *const ss_shfl[] = {"sync.up", "sync.down", "sync.bfly", "sync.idx", NULL};
static const char *const ss_vote[] = {"sync.all", "sync.any", "sync.uni", "sync.ballot", NULL};
static const char *const ss_trap[] = {"", "dup", NULL}; /* trap.dup: flipsim's, SC_TRAP_DUP */
static const char *const ss_match[] = {"any.sync", "all.sync", NULL};
static const char *const ss_redux[] = {"sync.add", "sync.min", "sync.max", "sync.and", "sync.or", "sync.xor", NULL};
static const char *const ss_bmsk[] = {"clamp", "wrap", NULL};

#define SS(names, pos, need) {names, sizeof names / sizeof names[0] - 1, pos, need}
const sc_subsel_t sc__subs[SC_SS__COUNT] = {
	[SC_SS_NONE] = SS(ss_none, SC_SSP_SPACE, NULL),
	[SC_SS_MUL] = SS(ss_mul, SC_SSP_SPACE, "'%s' needs .lo, .hi or .wide"),
	[SC_SS_MUL24] = SS(ss_mul24, SC_SSP_SPACE, "'%s' needs .lo or .hi"),
	[SC_SS_PRMT] = SS(ss_prmt, SC_SSP_TYPE, NULL),
	[SC_SS_BFIND] = SS(ss_bfind, SC_SSP_SPACE, NULL),
	[SC_SS_SHF] = SS(ss_shf, SC_SSP_SPACE, "shf needs one of .l/.r and one of .clamp/.wrap"),
	[SC_SS_CMP] = SS(ss_cmp, SC_SSP_SPACE, "'%s' needs a comparison (.eq .ne .lt ...)"),
	[SC_SS_TESTP] = SS(ss_testp, SC_SSP_SPACE,
	                   "testp needs a class (.finite .infinite .number .notanumber .normal .subnormal)"),
	[SC_SS_CVTA] = SS(ss_cvta, SC_SSP_NAME, NULL),
	[SC_SS_ATOM] = SS(ss_atom, SC_SSP_SPACE,
	                  "'%s' needs an operation (.add .inc .dec .min .max .and .or .xor .exch .cas)"),
	[SC_SS_BAR] = SS(ss_bar, SC_SSP_SPACE, NULL),
	[SC_SS_SHFL] = SS(ss_shfl, SC_SSP_SPACE, "expected shfl.sync.{up,down,bfly,idx}.b32"),
	[SC_SS_VOTE] = SS(ss_vote, SC_SSP_SPACE, "expected vote.sync.{all,any,uni,ballot}"),
	[SC_SS_TRAP] = SS(ss_trap, SC_SSP_SPACE, NULL),
	[SC_SS_MATCH] = SS(ss_match, SC_SSP_NAME, "expected match.{any,all}.sync.{b32,b64}"),
	[SC_SS_REDUX] = SS(ss_redux, SC_SSP_NAME, "expected redux.sync.{add,min,max,and,or,xor}"),
	[SC_SS_BMSK] = SS(ss_bmsk, SC_SSP_NAME, "bmsk needs .clamp or .wrap"),
};
#undef SS

void sc__shape(unsigned op, sc_shape_t *s)
{
	memset(s, 0, sizeof *s);
	const char *c = op < SC_OP__COUNT ? sc__ops[op].shape : "";
	for (; *c; c++) {
		if (*c == '|') { /* the predicate half of a pair destination */
			s->pair = true;
			s->dst[s->ndst++] = *++c;
		} else if (*c == '?') {
			s->opt |= (uint8_t)(1u << (s->nsrc - 1));
		} else {
			s->nops++;
			if (strchr("dqPr", *c))
				s->dst[s->ndst++] = *c;
			else
				s->src[s->nsrc++] = *c;
		}
	}
}

const char *const sc__type_names[SC_T__COUNT] = {
#define X(name, text, bits) [SC_T_##name] = text,
	SC_TYPE_LIST(X)
#undef X
};

const uint8_t sc__type_bits_tab[SC_T__COUNT] = {
#define X(name, text, bits) [SC_T_##name] = bits,
	SC_TYPE_LIST(X)
#undef X
};

const char *const sc__sreg_names[SC_SR__COUNT] = {
#define X(name, text) [SC_SR_##name] = text,
	SC_SREG_LIST(X)
#undef X
};

const char *sc_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) case code: return text;
	SC_ERR_LIST(X)
#undef X
	}
	return "unknown error";
}

const char *sc_due_name(sc_due_t reason)
{
	static const char *const names[SC_DUE__COUNT] = {
#define X(name, text) [SC_DUE_##name] = text,
		SC_DUE_LIST(X)
#undef X
	};
	return (unsigned)reason < SC_DUE__COUNT ? names[reason] : "unknown";
}

static bool opnd_ok(sc_opnd_t o, uint32_t nregs, uint32_t npreds, uint32_t npool)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	switch (k) {
	case SC_K_NONE: return i == 0;
	case SC_K_R32: return i < nregs;
	case SC_K_R64: return i + 1 < nregs;
	case SC_K_PRED: case SC_K_PREDN: return i < npreds;
	case SC_K_IMM: return i < npool;
	case SC_K_SREG: return i < SC_SR__COUNT;
	case SC_K_ADDR: return i == SC_NOREG || i + 1 < nregs;
	case SC_K_ADDR32: return i < nregs;
	}
	return false;
}

/* Every field of the word is checked: a flipped bit either still decodes
 * to a meaningful instruction or makes the word invalid. */
int sc__insn_check(const sc_insn_t *in, uint32_t nregs, uint32_t npreds, uint32_t npool, uint32_t ncode)
{
	if (in->op == SC_OP_INVALID || in->op >= SC_OP__COUNT || in->type >= SC_T__COUNT ||
	    in->stype >= SC_T__COUNT || (in->mods & SC_MOD_RESERVED) ||
	    (in->mods & SC_MOD_RND_MASK) >= SC_RND__COUNT || SC_AUX_SPACE(in->aux) >= SC_SP__COUNT ||
	    ((in->aux >> 3) & 3u) == 3u || (in->aux & 0x80u) || (in->reserved & SC_RESERVED_HI))
		return -1;
	unsigned n = SC_NDST(in) + SC_NSRC(in);
	if (n > 6)
		return -1;
	for (unsigned i = 0; i < 6; i++) {
		if (i >= n && sc__opnd(in, i) != 0)
			return -1;
		if (!opnd_ok(sc__opnd(in, i), nregs, npreds, npool))
			return -1;
	}
	if (in->guard & SC_GUARD_ON) {
		if (SC_GUARD_REG(in->guard) >= npreds)
			return -1;
	} else if (in->guard) {
		return -1;
	}
	sc_res_t res; /* raLoad, raStore, raSetP: only in their shapes (dup.c) */
	if (UNLIKELY(in->mods & SC_MOD_RES) && sc__res_split(in, &res))
		return -1;
	if (in->op == SC_OP_BRA || in->op == SC_OP_CALL) {
		uint32_t rpc = SC_BR_RPC(in->imm);
		if (SC_BR_TARGET(in->imm) >= ncode || (rpc != SC_PC_NONE && rpc >= ncode))
			return -1;
	}
	return 0;
}

unsigned sc__insn_regs(const sc_insn_t *in, sc_regref_t v[7])
{
	unsigned n = 0, nd = SC_NDST(in), no = nd + SC_NSRC(in);
	bool xlane = in->op < SC_OP__COUNT && (sc__ops[in->op].flags & SC_OF_XLANE);
	for (unsigned j = 0; j < no && j < 6; j++) {
		unsigned k = SC_OPND_KIND(in->opnd[j]), i = SC_OPND_IDX(sc__opnd(in, j));
		sc_regref_t o = {.idx = (uint16_t)i, .def = j < nd, .pos = (uint8_t)j, .xlane = xlane && j == nd};
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
		v[n++] = (sc_regref_t){.idx = (uint16_t)SC_GUARD_REG(in->guard), .w = 1, .pred = true, .pos = 6};
	return n;
}

/* ---------------------------------------------------------------- validity
 * What the execution side defines, unit by unit, exactly as sm.c's issue()
 * and its ex_* functions and the semantic units (sem_int.c, sem_fp.c,
 * sem_cmp.c) accept words today: the rows' TYPES, STYPES, modifier sets
 * and sub-selectors, then each unit's finer rules. Operand counts are the
 * units' (an ALU instruction: one or two destinations, up to four
 * sources), not the rows' shapes: the semantics read what is there. */

/* A destination the register writer takes (sm.c wr()). */
static bool dst_ok(sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_NONE || k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED;
}

static bool in_set(uint32_t set, unsigned t) { return t < 32 && ((set >> t) & 1u); }

/* sem_int.c. The parser takes mad's .sat and .cc on mul and mad24's .sat
 * on mul24, which PTX and the semantics do not define. */
static bool int_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned op = in->op, t = in->type, sub = in->sub, mods = in->mods;
	uint16_t allowed = oi->mods[0] | ((oi->mods[0] & SC_MOD_CC_OUT) ? SC_MOD_CC_IN : 0);
	if (!in_set(oi->types, t) || sub >= sc__subs[oi->sub].n || (mods & ~allowed))
		return false;
	bool sat = mods & SC_MOD_SAT, cc = mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT);
	bool hi_only = op == SC_OP_MAD || op == SC_OP_MAD24;
	/* .sat: add/sub.s32 and mad/mad24.hi.s32, without a carry */
	if (sat && (t != SC_T_S32 || cc || !(hi_only || op == SC_OP_ADD || op == SC_OP_SUB) ||
	            (hi_only && sub != SC_MUL_HI)))
		return false;
	/* carries: add, sub, mad.lo/.hi on 32 or 64 bits */
	if (cc && (!(oi->flags & SC_OF_CARRY) || !in_set(SC_TS_US3264, t) || sub == SC_MUL_WIDE))
		return false;
	/* .wide: from 16 or 32 bits */
	return !(sub == SC_MUL_WIDE && oi->sub == SC_SS_MUL && sc__type_bits(t) > 32);
}

/* sem_fp.c: a rounding where the row has SC_OF_RND (.rn .rz .rm .rp only);
 * .approx/.full exclude it; f64 div and sqrt have no .approx/.full. */
static bool fp_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned t = in->type, rnd = in->mods & SC_MOD_RND_MASK;
	bool approx = in->mods & (SC_MOD_APPROX | SC_MOD_FULL);
	if (!in_set(oi->types, t) || rnd > SC_RND_RP)
		return false;
	if (oi->sub == SC_SS_MUL && in->sub != SC_MUL_LO) /* mul, mad */
		return false;
	if (rnd != SC_RND_NONE && (!(oi->flags & SC_OF_RND) || (approx && (oi->mods[1] & SC_MOD_APPROX))))
		return false;
	return !(approx && t == SC_T_F64 && (in->op == SC_OP_DIV || in->op == SC_OP_SQRT));
}

/* setp/set: integer comparisons (eq .. hs) on .b/.u/.s 16 to 64 bits,
 * float ones (eq .. ge, equ .. nan) on the float types; set's "true" is
 * packed per element when the source is a pair. */
static bool setp_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned st = in->stype, t = in->type, c = in->sub;
	if (!in_set(oi->stypes, st) || !in_set(oi->types, t) || c >= sc__subs[SC_SS_CMP].n)
		return false;
	if (in_set(SC_TS_BITS, st) ? c > SC_CMP_HS : c > SC_CMP_GE && c < SC_CMP_EQU)
		return false;
	if (in->op == SC_OP_SETP)
		return true;
	bool pair = st == SC_T_F16X2 || st == SC_T_BF16X2, dpair = t == SC_T_F16X2 || t == SC_T_BF16X2;
	if (!pair)
		return !dpair;
	return dpair || t == SC_T_U32 || t == SC_T_S32 || t == SC_T_B32;
}

/* cvt: the rounding must suit the conversion; pairs come from two f32. */
static bool cvt_valid(const sc_insn_t *in)
{
	unsigned st = in->stype, dt = in->type, rnd = in->mods & SC_MOD_RND_MASK;
	if (dt == SC_T_F16X2 || dt == SC_T_BF16X2)
		return st == SC_T_F32 && rnd <= SC_RND_RP;
	bool si = in_set(SC_TS_INT, st), di = in_set(SC_TS_INT, dt);
	bool sf = in_set(SC_TS_SCALAR & ~SC_TS_INT, st), df = in_set(SC_TS_SCALAR & ~SC_TS_INT, dt);
	if (si && di)
		return rnd == SC_RND_NONE;
	if (si && df)
		return rnd <= SC_RND_RP;
	if (sf && di)
		return rnd == SC_RND_NONE || rnd >= SC_RND_RNI;
	if (sf && df)
		return rnd >= SC_RND_RNI ? st == dt : st != dt || rnd == SC_RND_NONE;
	return false;
}

/* sem_cmp.c */
static bool cmp_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	switch (in->op) {
	case SC_OP_SETP: case SC_OP_SET: return setp_valid(in, oi);
	case SC_OP_CVT: return cvt_valid(in);
	case SC_OP_TESTP: return in_set(oi->stypes, in->stype) && in->sub < sc__subs[SC_SS_TESTP].n;
	default: return in_set(oi->types, in->type) && in_set(oi->stypes, in->stype); /* selp, slct */
	}
}

/* issue(): one or two destinations the writer takes, up to four sources;
 * then the unit. */
static bool alu_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in);
	if (nd < 1 || nd > 2 || ns > 4 || !dst_ok(in->opnd[0]) || (nd == 2 && !dst_ok(in->opnd[1])))
		return false;
	switch (oi->unit) {
	case SC_U_CMP: return cmp_valid(in, oi);
	case SC_U_FP: return fp_valid(in, oi);
	case SC_U_NUM: return sc__type_is_float(in->type) ? fp_valid(in, oi) : int_valid(in, oi);
	default: return int_valid(in, oi);
	}
}

/* ex_mov: cvta and isspacep take one destination and one source (cvta a
 * real space); mov copies one register, packs 2-4 sources into one or
 * unpacks one into 2-4, .type being 1 to 64 bits for the latter. */
static bool mov_valid(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), bits = sc__type_bits(in->type), sp = SC_AUX_SPACE(in->aux);
	if (in->op != SC_OP_MOV)
		return nd == 1 && ns == 1 && dst_ok(in->opnd[0]) &&
		       (in->op == SC_OP_ISSPACEP || (sp >= SC_SP_GLOBAL && sp <= SC_SP_PARAM));
	if (nd == 1 && ns == 1)
		return dst_ok(in->opnd[0]);
	if (bits == 0 || bits > 64)
		return false;
	if (nd == 1 && ns >= 2 && ns <= 4)
		return dst_ok(in->opnd[0]);
	if (ns != 1 || nd < 2 || nd > 4)
		return false;
	for (unsigned e = 0; e < nd; e++)
		if (!dst_ok(in->opnd[e]))
			return false;
	return true;
}

/* ex_ldst and ex_atom: 1 to 8 bytes (atomics 4 or 8); ld writes 1-4
 * registers from one address, st stores 1-4 sources to one; atom/red
 * take an optional destination, the address and one or two sources, in
 * the global, shared or generic space; inc and dec are .u32 only. */
static bool mem_valid(const sc_insn_t *in, const sc_opinfo_t *oi)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), sp = SC_AUX_SPACE(in->aux);
	if (!in_set(oi->types, in->type))
		return false;
	if (in->op == SC_OP_ST)
		return nd == 0 && ns >= 2 && ns <= 5;
	if (in->op == SC_OP_LD) {
		if (nd == 0 || nd > 4 || ns != 1)
			return false;
		for (unsigned e = 0; e < nd; e++)
			if (!dst_ok(in->opnd[e]))
				return false;
		return true;
	}
	if (nd > 1 || (ns != 2 && ns != 3) || (sp != SC_SP_GLOBAL && sp != SC_SP_SHARED && sp != SC_SP_GENERIC))
		return false;
	if (in->sub >= sc__subs[SC_SS_ATOM].n ||
	    ((in->sub == SC_ATOM_INC || in->sub == SC_ATOM_DEC) && in->type != SC_T_U32))
		return false;
	return nd == 0 || dst_ok(in->opnd[0]);
}

/* ex_warp: the mode, and destinations the writer takes (shfl: both). */
static bool warp_valid(const sc_insn_t *in)
{
	if (in->op == SC_OP_MATCH || in->op == SC_OP_REDUX)
		return sc__ext_valid(in);
	if (in->op != SC_OP_ACTIVEMASK && in->sub >= 4)
		return false;
	return dst_ok(in->opnd[0]) && (in->op != SC_OP_SHFL || dst_ok(in->opnd[1]));
}

int sc__insn_valid(const sc_insn_t *in)
{
	if (in->op == SC_OP_INVALID || in->op >= SC_OP__COUNT)
		return 0;
	const sc_opinfo_t *oi = &sc__ops[in->op];
	if (in->mods & SC_MOD_RES) { /* a resilient word: its base, and destinations the writer takes */
		sc_res_t r;
		if (sc__res_split(in, &r) || !sc__insn_valid(&r.base))
			return 0;
		for (unsigned e = 0; e < r.nrd; e++)
			if (!dst_ok(r.rdst[e]))
				return 0;
		return 1;
	}
	switch (oi->unit) {
	case SC_U_MOV: return mov_valid(in);
	case SC_U_MEM: return mem_valid(in, oi);
	case SC_U_WARP: return warp_valid(in);
	case SC_U_CTL:
		if (in->op >= SC_OP_NANOSLEEP)
			return sc__ext_valid(in);
		if (in->op == SC_OP_CALL && in->sub == SC_CALL_DYN) /* call.c: no destination, an R64 callee or none */
			return in->nops == 0 || (in->nops == SC_NOPS_MAKE(0, 1) && SC_OPND_KIND(in->opnd[0]) == SC_K_R64);
		return in->op != SC_OP_BAR || in->sub <= SC_BAR_WARP_SYNC; /* ex_bar */
	default: return alu_valid(in, oi);
	}
}
