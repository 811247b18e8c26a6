/* The decoder: each instruction word becomes an sc_dec_t once per launch,
 * with its handler picked from the opcode's unit (or a specialised handler
 * from sem_fast.c), its operands resolved to register-file offsets and
 * constants, and the scoreboard entries an issue of it waits on. The format
 * and the handlers' contract are in sc_int.h ("Decoded instructions"). */
#include <stdlib.h>

#include "sc_int.h"

static sc_exec_fn unit_handler(const sc_insn_t *in)
{
	if (in->op >= SC_OP__COUNT)
		return sc__x_bad;
	switch (in->op) { /* the appended rows' own handlers (ptxext.c) */
	case SC_OP_MATCH: case SC_OP_REDUX: return sc__x_match_redux;
	case SC_OP_VPRINTF: return sc__x_vprintf;
	case SC_OP_ASSERTFAIL: return sc__x_assertfail;
	case SC_OP_MALLOC: case SC_OP_FREE: return sc__x_malloc_free;
	case SC_OP_TEX: case SC_OP_TLD4: case SC_OP_TXQ: case SC_OP_SULD: case SC_OP_SUST: return sc__x_tex;
	}
	switch (sc__ops[in->op].unit) {
	case SC_U_NUM: case SC_U_INT: case SC_U_FP: case SC_U_CMP: return sc__x_alu;
	case SC_U_MOV: return sc__x_mov;
	case SC_U_MEM: return in->op == SC_OP_LD || in->op == SC_OP_ST ? sc__x_ldst : sc__x_atom;
	case SC_U_WARP: return sc__x_warp;
	case SC_U_CTL: return in->op == SC_OP_INVALID ? sc__x_bad : sc__x_ctl;
	}
	return sc__x_bad;
}

/* The latency class of a word (memory: the access resolves it at issue)
 * and the unit that executes it. */
static void unit_class(const sc_insn_t *in, sc_dec_t *d)
{
	d->cls = SC_LAT_INT;
	d->fu = SC_FU_ALU;
	if (in->op >= SC_OP__COUNT)
		return;
	switch (sc__ops[in->op].unit) {
	case SC_U_NUM: case SC_U_INT: case SC_U_FP: case SC_U_CMP: d->cls = (uint8_t)sc__alu_class(in); break;
	case SC_U_WARP: d->cls = SC_LAT_WARP; break;
	case SC_U_CTL: d->cls = SC_LAT_BRANCH; break;
	case SC_U_MEM: {
		int sp = SC_AUX_SPACE(in->aux);
		/* .param and .const reads are operands of the instruction on the
		 * hardware (c[bank][offset]); every other access is the LD/ST's */
		bool operand = in->op == SC_OP_LD && (sp == SC_SP_PARAM || sp == SC_SP_CONST);
		d->cls = operand ? SC_LAT_CONST : SC_LAT_GLOBAL;
		d->fu = operand ? SC_FU_ALU : SC_FU_LDST;
		return;
	}
	}
	d->fu = d->cls == SC_LAT_SFU ? SC_FU_SFU : d->cls == SC_LAT_FP64 ? SC_FU_DP : SC_FU_ALU;
}

/* The scoreboard entries of operand o: a register's slots, a predicate
 * after the launch's register slots (as sc_warp_t.ready lays them out). */
static void ready_entries(const sc_gpu_t *g, sc_opnd_t o, sc_dec_t *d)
{
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o), regs = g->run.regs, preds = g->run.preds;
	/* an index past its file is a word no check admits (tests build such
	 * words): nothing to wait on */
	switch (k) {
	case SC_K_R32: case SC_K_ADDR32:
		if (i < regs)
			d->rdy[d->nrdy++] = (uint16_t)i;
		break;
	case SC_K_ADDR:
		if (i == SC_NOREG)
			break;
		/* fall through */
	case SC_K_R64:
		if (i + 1 < regs) {
			d->rdy[d->nrdy++] = (uint16_t)i;
			d->rdy[d->nrdy++] = (uint16_t)(i + 1);
		}
		break;
	case SC_K_PRED: case SC_K_PREDN:
		if (i < preds)
			d->rdy[d->nrdy++] = (uint16_t)(regs + i);
		break;
	}
}

/* Whether a destination operand o becomes ready later (the scoreboard
 * marks registers and predicates, nothing else). */
static bool marks(sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED;
}

void sc__decode(const sc_gpu_t *g, const sc_insn_t *in, uint32_t pc, bool generic, sc_dec_t *d)
{
	const sc_module_t *mod = g->run.mod;
	d->in = in;
	d->pc = pc;
	unit_class(in, d);
	/* memory latencies depend on the access; control returns its own */
	unsigned u = in->op < SC_OP__COUNT ? sc__ops[in->op].unit : SC_U_CTL;
	d->lat = u == SC_U_MEM || u == SC_U_CTL ? 1 : g->cfg.latency[d->cls];
	d->fn = generic ? NULL : sc__fast_pick(in);
	if (!d->fn)
		d->fn = unit_handler(in);
	if (UNLIKELY(in->mods & SC_MOD_RES)) /* raLoad, raStore, raSetP (dup.c) */
		d->fn = sc__x_res;
	unsigned nd = SC_NDST(in), n = nd + SC_NSRC(in);
	for (unsigned j = 0; j < 6; j++) {
		sc_opnd_t o = sc__opnd(in, j);
		unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
		d->o[j] = k == SC_K_PRED || k == SC_K_PREDN ? i : i * 32;
		d->k[j] = k == SC_K_IMM && i < mod->npool ? mod->pool[i] : 0;
	}
	/* the entries a retiring instruction marks come first: its register
	 * and predicate destinations; then everything an issue waits on */
	d->nrdy = 0;
	for (unsigned j = 0; j < nd && j < 6; j++)
		if (marks(in->opnd[j]))
			ready_entries(g, sc__opnd(in, j), d);
	d->nwr = d->nrdy;
	for (unsigned j = 0; j < n && j < 6; j++)
		if (j >= nd || !marks(in->opnd[j]))
			ready_entries(g, sc__opnd(in, j), d);
	if (in->guard & SC_GUARD_ON)
		d->rdy[d->nrdy++] = (uint16_t)(g->run.regs + SC_GUARD_REG(in->guard));
}

int sc__decode_launch(sc_gpu_t *g)
{
	const sc_module_t *mod = g->run.mod;
	if (mod->ncode > g->dec_cap) {
		sc_dec_t *nd = realloc(g->dec, (size_t)mod->ncode * sizeof *nd);
		if (!nd)
			return SC_ENOMEM;
		g->dec = nd;
		g->dec_cap = mod->ncode;
	}
	for (uint32_t pc = 0; pc < mod->ncode; pc++)
		sc__decode(g, &mod->code[pc], pc, false, &g->dec[pc]);
	return 0;
}
