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
static const char *const ss_cmp[] = {
#define X(name, text) text,
	SC_CMP_LIST(X)
#undef X
	NULL};
static const char *const ss_testp[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
static const char *const ss_cvta[] = {"", "to", NULL};
static const char *const ss_atom[] = {
#define X(name, text) text,
	SC_ATOM_LIST(X)
#undef X
	NULL};
static const char *const ss_bar[] = {"sync", "arrive", "red.popc", "red.and", "red.or", "warp.sync", NULL};
static const char *const ss_shfl[] = {"sync.up", "sync.down", "sync.bfly", "sync.idx", NULL};
static const char *const ss_vote[] = {"sync.all", "sync.any", "sync.uni", "sync.ballot", NULL};

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

static bool opnd_ok(uint16_t o, uint32_t nregs, uint32_t npreds, uint32_t npool)
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
	    ((in->aux >> 3) & 3u) == 3u || (in->aux & 0x80u) || in->reserved)
		return -1;
	unsigned n = SC_NDST(in) + SC_NSRC(in);
	if (n > 6)
		return -1;
	for (unsigned i = 0; i < 6; i++) {
		if (i >= n && in->opnd[i] != 0)
			return -1;
		if (!opnd_ok(in->opnd[i], nregs, npreds, npool))
			return -1;
	}
	if (in->guard & SC_GUARD_ON) {
		if ((in->guard & 0x3000u) || SC_GUARD_REG(in->guard) >= npreds)
			return -1;
	} else if (in->guard) {
		return -1;
	}
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
		unsigned k = SC_OPND_KIND(in->opnd[j]), i = SC_OPND_IDX(in->opnd[j]);
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
