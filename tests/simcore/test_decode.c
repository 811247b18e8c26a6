/* The decoder's specialised handlers (simcore/sem_fast.c) against the
 * generic path (sc__x_alu / sc__x_mov over sem_*.c): every word the decoder
 * gives a specialised handler, from a systematic sweep of opcodes, types,
 * sub-selectors, modifiers and operand shapes, runs both ways on the same
 * random registers and must leave the same registers, predicates and
 * carry flags and retire the same way. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

enum { NREGS = 64, NPREDS = 8, NPOOL = 4 };

typedef struct bench {
	h_ctx_t h;
	sc_sm_t sm;
	sc_cta_t cta;
	sc_warp_t w;
	uint32_t rf[NREGS * 32], pf[NPREDS];
	uint64_t seed;
} bench_t;


/* Values that reach edge cases: zeros, signs, NaNs, shifts >= 32. */
static uint32_t value(uint64_t *s)
{
	static const uint32_t edge[] = {0, 1, 31, 32, 33, 63, 64, 0x7fffffffu, 0x80000000u, 0xffffffffu,
	                                0x7f800000u, 0xff800000u, 0x7fc00001u, 0x00000001u, 0x3f800000u};
	uint64_t r = h_rand(s);
	return r % 4 == 0 ? edge[(r >> 8) % (sizeof edge / sizeof edge[0])] : (uint32_t)(r >> 16);
}

static void bench_init(bench_t *b)
{
	memset(b, 0, sizeof *b);
	h_init(&b->h);
	h_load_ok(&b->h, H_PTX_HEAD ".visible .entry k() { ret; }\n");
	sc_gpu_t *g = b->h.gpu;
	sc_module_t *m = b->h.mod;
	free(m->pool);
	m->pool = calloc(NPOOL, sizeof *m->pool);
	cr_assert_not_null(m->pool);
	m->npool = NPOOL;
	g->run.mod = m;
	g->run.fn = &m->funcs[0];
	g->run.regs = NREGS;
	g->run.preds = NPREDS;
	g->run.block[0] = 96, g->run.block[1] = 2, g->run.block[2] = 1;
	g->run.grid[0] = 7, g->run.grid[1] = 3, g->run.grid[2] = 1;
	g->cycle = 123456789;
	b->sm.id = 5;
	b->cta.ctaid[0] = 4, b->cta.ctaid[1] = 2;
	b->w.wid = 2;
	b->w.slot = 9;
	b->w.cta = &b->cta;
	b->w.rf = b->rf;
	b->w.pf = b->pf;
	b->seed = 0x9e3779b97f4a7c15ull;
}

static void randomize(bench_t *b)
{
	for (size_t i = 0; i < NREGS * 32; i++)
		b->rf[i] = value(&b->seed);
	for (size_t i = 0; i < NPREDS; i++)
		b->pf[i] = (uint32_t)h_rand(&b->seed);
	b->w.cc = (uint32_t)h_rand(&b->seed);
	for (size_t i = 0; i < NPOOL; i++)
		b->h.mod->pool[i] = h_rand(&b->seed) % 3 ? value(&b->seed) : h_rand(&b->seed);
}

/* Runs word `in` fast and generic on the same state; returns false (after
 * reporting) when they differ. */
static bool same_both_ways(bench_t *b, const sc_insn_t *in, uint32_t exec)
{
	sc_gpu_t *g = b->h.gpu;
	sc_dec_t fast, gen;
	sc__decode(g, in, 0, false, &fast);
	sc__decode(g, in, 0, true, &gen);
	uint32_t rf0[NREGS * 32], pf0[NPREDS], cc0 = b->w.cc;
	memcpy(rf0, b->rf, sizeof rf0);
	memcpy(pf0, b->pf, sizeof pf0);
	int rf = fast.fn(g, &b->sm, &b->w, &fast, exec);
	uint32_t rf1[NREGS * 32], pf1[NPREDS], cc1 = b->w.cc;
	memcpy(rf1, b->rf, sizeof rf1);
	memcpy(pf1, b->pf, sizeof pf1);
	memcpy(b->rf, rf0, sizeof rf0);
	memcpy(b->pf, pf0, sizeof pf0);
	b->w.cc = cc0;
	int rg = gen.fn(g, &b->sm, &b->w, &gen, exec);
	bool same = rf == rg && cc1 == b->w.cc && !memcmp(rf1, b->rf, sizeof rf1) && !memcmp(pf1, b->pf, sizeof pf1);
	if (!same)
		cr_log_error("%s type %u stype %u sub %u mods 0x%x aux 0x%x nops 0x%x opnd %04x %04x %04x %04x exec "
		             "0x%08x: fast rc %d, generic rc %d",
		             sc__ops[in->op].name, in->type, in->stype, in->sub, in->mods, in->aux, in->nops, in->opnd[0],
		             in->opnd[1], in->opnd[2], in->opnd[3], exec, rf, rg);
	return same;
}

/* Operand shapes: destinations, then sources (K: kind letter). */
static const char *const shapes[] = {
	"r=rr", "r=ri", "r=ir", "r=rrr", "r=rir", "r=iri", "r=r", "r=i", "r=s", "r=d", "d=dd", "d=di", "d=dr",
	"d=rr", "d=ri", "d=ir", "d=r", "d=d", "d=i", "r=dr", "p=rr", "p=ri", "p=ir", "pp=rr", "pn=ri", "p=rrp",
	"p=dd", "rr=rr", "p=pp", "p=pq", "p=qp", "p=p", "p=q", "r=rrp", "r=rir", "r=irq", "r=iip", "r=rrq",
	"d=Dd", "d=dD", "d=Di", "d=D", "r=Rr", "r=rR", "r=Ri", "r=RRR",
};

/* Builds operand j of kind letter c (R and D: the register of operand 0,
 * a source that is also the destination); false for a shape that needs
 * more than 6 operands. */
static uint16_t opnd(char c, unsigned j, unsigned sreg)
{
	switch (c) {
	case 'r': return SC_OPND(SC_K_R32, 2 * j + 1);
	case 'd': return SC_OPND(SC_K_R64, 16 + 2 * j);
	case 'R': return SC_OPND(SC_K_R32, 1);
	case 'D': return SC_OPND(SC_K_R64, 16);
	case 'i': return SC_OPND(SC_K_IMM, j % NPOOL);
	case 'p': return SC_OPND(SC_K_PRED, j + 1);
	case 'q': return SC_OPND(SC_K_PREDN, j + 2);
	case 's': return SC_OPND(SC_K_SREG, sreg);
	}
	return SC_OPND(SC_K_NONE, 0);
}

static bool make_word(sc_insn_t *in, const char *shape, unsigned sreg)
{
	const char *eq = strchr(shape, '=');
	unsigned nd = (unsigned)(eq - shape), ns = (unsigned)strlen(eq + 1), j = 0;
	for (const char *p = shape; *p; p++)
		if (*p != '=') {
			in->opnd[j] = opnd(*p, j, sreg);
			j++;
		}
	in->nops = SC_NOPS_MAKE(nd, ns);
	return true;
}

/* Every word sc__fast_pick gives a handler, on random registers and four
 * exec masks: the handler's registers, predicates and result equal the
 * generic path's. Returns through Criterion's expectations. */
static void sweep(void)
{
	static bench_t b;
	bench_init(&b);
	static const uint16_t mods[] = {0, SC_RND_RN, SC_RND_RZ, SC_MOD_SAT, SC_MOD_FTZ, SC_MOD_CC_OUT};
	static const uint8_t aux[] = {0, SC_SP_GLOBAL, SC_SP_SHARED, SC_SP_PARAM, SC_SP_GENERIC,
	                              SC_AUX_MAKE(0, 0, SC_BOOL_AND)};
	static const unsigned sregs[] = {SC_SR_TID_X, SC_SR_TID_Y, SC_SR_LANEID, SC_SR_CTAID_X, SC_SR_NTID_X,
	                                 SC_SR_LANEMASK_LT, SC_SR_CLOCK, SC_SR_SMID};
	unsigned picked = 0, failed = 0;
	sc_exec_fn seen[128];
	unsigned nseen = 0;
	for (unsigned op = 1; op < SC_OP__COUNT; op++) {
		bool cmp = sc__ops[op].unit == SC_U_CMP;
		unsigned nsub = op == SC_OP_SETP ? SC_CMP__COUNT : 4;
		for (unsigned t = 0; t < SC_T__COUNT; t++)
			for (unsigned st = 0; st < (cmp ? SC_T__COUNT : 1u); st++)
				for (unsigned sub = 0; sub < nsub; sub++)
					for (unsigned mi = 0; mi < sizeof mods / sizeof mods[0]; mi++)
						for (unsigned ai = 0; ai < sizeof aux; ai++)
							for (unsigned si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
								sc_insn_t in = {.op = (uint8_t)op, .type = (uint8_t)t, .stype = (uint8_t)st,
								                .sub = (uint8_t)sub, .mods = mods[mi], .aux = aux[ai]};
								unsigned sreg = sregs[(op + t + sub + si) % (sizeof sregs / sizeof sregs[0])];
								make_word(&in, shapes[si], sreg);
								sc_exec_fn fn = sc__fast_pick(&in);
								if (!fn)
									continue;
								picked++;
								unsigned k = 0;
								while (k < nseen && seen[k] != fn)
									k++;
								if (k == nseen && nseen < 128)
									seen[nseen++] = fn;
								static const uint32_t masks[] = {0xffffffffu, 0x0f0f00f1u, 0x80000000u, 0};
								for (unsigned e = 0; e < 4; e++) {
									randomize(&b);
									failed += !same_both_ways(&b, &in, masks[e]);
								}
							}
	}
	cr_log_info("%u words with a specialised handler, %u handlers", picked, nseen);
	cr_expect_eq(failed, 0, "%u runs differ between the specialised and the generic handler", failed);
	/* the sweep reaches every specialised handler but ld_param (sem_fast.c
	 * has 80; ld_param_equals_generic below) */
	cr_expect_geq(nseen, 79, "only %u specialised handlers reached", nseen);
	h_fini(&b.h);
}

Test(decode, specialised_handlers_equal_generic)
{
	sweep();
}

/* The same with the host-specific handlers (AVX2/FMA) turned off: the
 * baseline ISA's are checked too, whatever the test machine has. */
Test(decode, portable_handlers_equal_generic)
{
	cr_assert_eq(setenv("FLIPSIM_PORTABLE", "1", 1), 0);
	sweep();
}

/* ld.param of 32- and 64-bit words at every aligned offset of a parameter
 * buffer (sem_fast.c's ld_param), against the generic load: the same
 * registers, result and load/store-unit time. */
Test(decode, ld_param_equals_generic)
{
	static bench_t b;
	bench_init(&b);
	sc_gpu_t *g = b.h.gpu;
	static uint8_t params[64];
	for (unsigned i = 0; i < sizeof params; i++)
		params[i] = (uint8_t)(i * 37 + 11);
	g->run.params = params;
	g->run.param_bytes = sizeof params;
	static const struct {
		uint8_t type;
		char dst;
	} forms[] = {{SC_T_U32, 'r'}, {SC_T_S32, 'r'}, {SC_T_B32, 'r'}, {SC_T_F32, 'r'},
	             {SC_T_U64, 'd'}, {SC_T_S64, 'd'}, {SC_T_B64, 'd'}, {SC_T_F64, 'd'}};
	static const uint32_t masks[] = {0xffffffffu, 0x0f0f00f1u, 0x80000000u, 0};
	unsigned words = 0, failed = 0;
	for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		unsigned bytes = forms[f].dst == 'd' ? 8 : 4;
		for (unsigned off = 0; off + bytes <= sizeof params; off += bytes) {
			sc_insn_t in = {.op = SC_OP_LD, .type = forms[f].type, .aux = SC_SP_PARAM, .imm = off};
			in.opnd[0] = opnd(forms[f].dst, 0, 0);
			sc__set_opnd(&in, 1, SC_OPND(SC_K_ADDR, SC_NOREG));
			in.nops = SC_NOPS_MAKE(1, 1);
			cr_assert_not_null(sc__fast_pick(&in), "ld.param form %u is specialised", f);
			words++;
			for (unsigned e = 0; e < 4; e++) {
				randomize(&b);
				g->ms.occ = 0;
				failed += !same_both_ways(&b, &in, masks[e]);
				uint32_t occ_generic = g->ms.occ;
				sc_dec_t fast;
				sc__decode(g, &in, 0, false, &fast);
				g->ms.occ = 0;
				fast.fn(g, &b.sm, &b.w, &fast, masks[e]);
				failed += g->ms.occ != occ_generic;
			}
		}
	}
	g->run.params = NULL; /* not the GPU's to free */
	g->run.param_bytes = 0;
	cr_expect_eq(words, 4 * 16 + 4 * 8);
	cr_expect_eq(failed, 0, "%u of %u runs differ", failed, words * 8);
	h_fini(&b.h);
}
