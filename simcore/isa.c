/* The instruction table and the other name tables generated from the
 * X-macro lists in sc_int.h, error strings, and the instruction decoder's
 * validity check (the encoding is drawn in sc_int.h). */
#include "sc_int.h"

const sc_opinfo_t sc__ops[SC_OP__COUNT] = {
#define X(name, text, unit, lat) [SC_OP_##name] = {text, SC_U_##unit, SC_LAT_##lat},
	SC_OP_LIST(X)
#undef X
};

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
