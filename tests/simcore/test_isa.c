/* The instruction table's validity predicate, sc__insn_valid, against the
 * execution side: the semantic units called directly on every op, type,
 * second type, sub-selector and modifier combination (ALU units), and
 * random words of every unit run through a kernel (the word is patched
 * into the kernel's code, so issue() itself says whether it decodes).
 * Seeds are fixed. */
#include <criterion/criterion.h>
#include <glob.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd64(void) { return h_rand(&rng); }

static unsigned rnd(unsigned n) { return (unsigned)(rnd64() % n); }

/* Limits the words below stay within (the run kernel's, see run_init). */
enum { NREGS = 24, NPREDS = 4, NPOOL = 6, NCODE = 8 };

static bool is_alu(unsigned op)
{
	unsigned u = sc__ops[op].unit;
	return u == SC_U_NUM || u == SC_U_INT || u == SC_U_FP || u == SC_U_CMP;
}

/* An operand of kind k with an index every module below has. */
static sc_opnd_t opnd_of(unsigned k)
{
	switch (k) {
	case SC_K_R32: case SC_K_ADDR32: return SC_OPND(k, 16 + rnd(8));
	case SC_K_R64: return SC_OPND(k, 2 * rnd(8));
	case SC_K_PRED: case SC_K_PREDN: return SC_OPND(k, rnd(NPREDS));
	case SC_K_IMM: return SC_OPND(k, rnd(NPOOL));
	case SC_K_SREG: return SC_OPND(k, rnd(SC_SR__COUNT));
	case SC_K_ADDR: return SC_OPND(k, rnd(2) ? SC_NOREG : 2 * rnd(8));
	default: return 0;
	}
}

/* Random operands: ndst destinations and nsrc sources of random kinds
 * (destinations mostly registers). */
static void random_opnds(sc_insn_t *in, unsigned nd, unsigned ns)
{
	memset(in->opnd, 0, sizeof in->opnd);
	in->nops = SC_NOPS_MAKE(nd, ns);
	for (unsigned j = 0; j < nd + ns && j < 6; j++) {
		unsigned k = rnd(SC_K__COUNT);
		if (j < nd && rnd(4))
			k = (unsigned[]){SC_K_R32, SC_K_R64, SC_K_PRED, SC_K_NONE}[rnd(4)];
		sc__set_opnd(in, j, opnd_of(k));
	}
}

/* Modifiers: a rounding (0 .. SC_RND__COUNT-1) and flag bits 4..11. */
static uint16_t mods_of(unsigned rnd_mode, unsigned flags) { return (uint16_t)(rnd_mode | (flags << 4)); }

/* ---- the ALU units: the semantic functions themselves ---------------- */

/* sm.c issue(): destination and source counts, the unit's function, and
 * the writes of one or two destinations. */
static bool alu_accepts(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in);
	if (nd < 1 || nd > 2 || ns > 4)
		return false;
	static sc_alu_t x;
	memset(&x, 0, sizeof x);
	x.in = in;
	x.mask = 1;
	unsigned u = sc__ops[in->op].unit;
	int rc = u == SC_U_CMP                                          ? sc__sem_cmp(&x)
	         : u == SC_U_FP || (u == SC_U_NUM && sc__type_is_float(in->type)) ? sc__sem_fp(&x)
	                                                                 : sc__sem_int(&x);
	for (unsigned j = 0; j < nd; j++) {
		unsigned k = SC_OPND_KIND(in->opnd[j]);
		if (k != SC_K_NONE && k != SC_K_R32 && k != SC_K_R64 && k != SC_K_PRED)
			return false;
	}
	return rc == 0;
}

static void expect_agrees(const sc_insn_t *in, bool want, unsigned long *n, unsigned long *nvalid)
{
	cr_assert_eq(sc__insn_check(in, NREGS, NPREDS, NPOOL, NCODE), 0, "a generated word does not decode (op %s)",
	             sc__ops[in->op].name);
	bool got = sc__insn_valid(in);
	(*n)++;
	*nvalid += got;
	if (got != want)
		cr_assert_eq(got, want,
		             "%s: type %s stype %s sub %u mods 0x%x aux 0x%x nops 0x%02x opnd %04x %04x: "
		             "sc__insn_valid %d, the semantics %d",
		             sc__ops[in->op].name, sc__type_names[in->type], sc__type_names[in->stype], in->sub, in->mods,
		             in->aux, in->nops, in->opnd[0], in->opnd[1], got, want);
}

/* Every type, second type (comparisons and conversions; four random ones
 * elsewhere), sub value up to past the selector's end, rounding and flag
 * combination of .ftz .sat .cc .approx .full (with .uni or .volatile on a
 * random quarter), one R32 destination and the row's sources. */
Test(isa, alu_semantics_exhaustive)
{
	unsigned long n = 0, nvalid = 0;
	for (unsigned op = 1; op < SC_OP__COUNT; op++) {
		if (!is_alu(op))
			continue;
		const sc_opinfo_t *oi = &sc__ops[op];
		sc_shape_t s;
		sc__shape(op, &s);
		bool cmp = oi->unit == SC_U_CMP;
		unsigned nsub = sc__subs[oi->sub].n + 2;
		for (unsigned t = 0; t < SC_T__COUNT; t++)
			for (unsigned st = cmp ? 0 : rnd(SC_T__COUNT); st < SC_T__COUNT; st += cmp ? 1 : SC_T__COUNT)
				for (unsigned sub = 0; sub < nsub; sub++)
					for (unsigned r = 0; r < SC_RND__COUNT; r++)
						for (unsigned f = 0; f < 64; f += cmp ? 1 + rnd(8) : 1) {
							sc_insn_t in = {.op = (uint8_t)op, .type = (uint8_t)t, .stype = (uint8_t)st,
							                .sub = (uint8_t)sub, .aux = SC_AUX_MAKE(0, 0, rnd(4))};
							unsigned flags = f; /* ftz sat cc_in cc_out approx full */
							if (!rnd(4))
								flags |= 0x40u << rnd(2);           /* uni or volatile */
							in.mods = mods_of(r, flags);
							in.nops = SC_NOPS_MAKE(1, s.nsrc ? s.nsrc : 1);
							in.opnd[0] = SC_OPND(SC_K_R32, 16);
							for (unsigned j = 1; j <= SC_NSRC(&in); j++)
								in.opnd[j] = SC_OPND(SC_K_R32, 17);
							expect_agrees(&in, alu_accepts(&in), &n, &nvalid);
						}
	}
	cr_log_info("%lu ALU words, %lu valid", n, nvalid);
	cr_expect_gt(nvalid, n / 50, "too few valid words (%lu of %lu): the sweep is not reaching the semantics", nvalid,
	             n);
}

/* Random words of the ALU units: every field random within what decodes,
 * destination and source counts and kinds included. */
Test(isa, alu_semantics_random)
{
	unsigned long n = 0, nvalid = 0;
	rng = 11;
	for (int i = 0; i < 400000; i++) {
		sc_insn_t in = {0};
		do
			in.op = (uint8_t)(1 + rnd(SC_OP__COUNT - 1));
		while (!is_alu(in.op));
		in.type = (uint8_t)rnd(SC_T__COUNT);
		in.stype = (uint8_t)rnd(SC_T__COUNT);
		in.sub = (uint8_t)(rnd(4) ? rnd(24) : rnd(256));
		in.mods = mods_of(rnd(SC_RND__COUNT), rnd(256));
		in.aux = SC_AUX_MAKE(rnd(SC_SP__COUNT), rnd(3), rnd(4));
		unsigned nd = rnd(4), ns = rnd(7 - nd);
		random_opnds(&in, nd, ns);
		expect_agrees(&in, alu_accepts(&in), &n, &nvalid);
	}
	cr_log_info("%lu random ALU words, %lu valid", n, nvalid);
	cr_expect_gt(nvalid, n / 100);
}

/* ---- every unit: the word issued by a kernel ------------------------- */

/* A kernel with 24 register slots, 4 predicates, a pool of 6 constants,
 * 64 bytes of every state space, and a nop the test replaces. */
static const char run_ptx[] = H_PTX_HEAD
	".const .align 16 .b8 cb[64];\n"
	".visible .entry k(.param .u64 a0, .param .u64 a1, .param .u64 a2, .param .u64 a3,\n"
	"                  .param .u64 a4, .param .u64 a5, .param .u64 a6, .param .u64 a7)\n"
	"{\n"
	"\t.reg .b64 %rd<8>;\n\t.reg .b32 %r<8>;\n\t.reg .pred %p<4>;\n"
	"\t.shared .align 16 .b8 sm[64];\n\t.local .align 16 .b8 lc[64];\n"
	"\tmov.u64 %rd1, sm;\n\tmov.u64 %rd2, lc;\n\tmov.u64 %rd3, cb;\n"
	"\tadd.u32 %r1, %r1, 1;\n\tadd.u32 %r1, %r1, 2;\n\tadd.u32 %r1, %r1, 3;\n"
	"\tnop;\n\texit;\n"
	"}\n";

typedef struct run {
	h_ctx_t h;
	uint64_t buf;      /* 64 bytes of global memory */
	uint32_t pc;       /* the nop */
	unsigned long due; /* launches that ended in another DUE */
} run_t;

static void run_init(run_t *r)
{
	h_init(&r->h);
	r->h.opt.regs = SC_REGS_UNALLOC; /* the operand numbers above are ptx mode's */
	r->h.cfg.num_sms = 1;
	sc_module_t *m = h_load_ok(&r->h, run_ptx);
	cr_assert_eq(m->nregs_all, NREGS);
	cr_assert_eq(m->npreds_all, NPREDS);
	cr_assert_eq(m->npool, NPOOL);
	cr_assert_eq(m->ncode, NCODE);
	r->pc = 6;
	cr_assert_eq(m->code[r->pc].op, SC_OP_NOP);
	r->buf = h_alloc(&r->h, 64, NULL);
}

/* Issues `in` in one thread: 1 when it ran, 0 when it did not decode, -1
 * when the launch ended in another DUE first (a memory fault, a barrier
 * that cannot complete, a trap ...). */
static int run_word(run_t *r, sc_insn_t in)
{
	r->h.mod->code[r->pc] = in;
	uint64_t a[8] = {r->buf};
	int rc = h_launch(&r->h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]));
	if (rc == 0)
		return 1;
	cr_assert_eq(rc, SC_EDUE, "launch: %s", sc_strerror(rc));
	sc_due_t reason = h_status(&r->h)->reason;
	h_fini(&r->h); /* a DUE is sticky: start again */
	run_init(r);
	return reason == SC_DUE_INVALID_INSTRUCTION ? 0 : -1;
}

/* The address of a memory word: [imm] in a space where 64 bytes exist. */
static void mem_address(run_t *r, sc_insn_t *in, unsigned slot)
{
	unsigned sp = SC_AUX_SPACE(in->aux);
	in->imm = sp == SC_SP_GLOBAL || sp == SC_SP_GENERIC ? r->buf : 0;
	if (slot < SC_NDST(in) + SC_NSRC(in) && rnd(4))
		sc__set_opnd(in, slot, SC_OPND(SC_K_ADDR, SC_NOREG));
}

/* A random member of a type set (SC_T_NONE when empty). */
static uint8_t pick_type(uint32_t set)
{
	unsigned n = (unsigned)__builtin_popcount(set), k = n ? rnd(n) : 0;
	for (unsigned t = 0; t < SC_T__COUNT; t++)
		if (((set >> t) & 1u) && k-- == 0)
			return (uint8_t)t;
	return SC_T_NONE;
}

/* A random word for op, its fields mostly among the row's; memory words
 * get an address that resolves, control words a target in the kernel. */
static sc_insn_t random_word(run_t *r, unsigned op)
{
	const sc_opinfo_t *oi = &sc__ops[op];
	sc_insn_t in = {.op = (uint8_t)op};
	in.type = rnd(3) ? pick_type(oi->types) : (uint8_t)rnd(SC_T__COUNT);
	in.stype = rnd(3) ? pick_type(oi->stypes) : (uint8_t)rnd(SC_T__COUNT);
	in.sub = (uint8_t)(rnd(2) ? rnd(sc__subs[oi->sub].n) : rnd(8) ? rnd(12) : rnd(256));
	in.mods = mods_of(rnd(SC_RND__COUNT), rnd(8) ? 0 : rnd(256));
	in.aux = SC_AUX_MAKE(rnd(SC_SP__COUNT), rnd(3), rnd(4));
	unsigned nd = rnd(5), ns = rnd(7 - nd);
	if (rnd(3)) { /* near the row's own counts */
		sc_shape_t s;
		sc__shape(op, &s);
		nd = op == SC_OP_LD || op == SC_OP_MOV ? 1 + rnd(4) * !rnd(2) : s.ndst;
		ns = s.nsrc + !rnd(4) + (op == SC_OP_ST || op == SC_OP_MOV ? rnd(4) : 0);
		ns = ns + nd > 6 ? 6 - nd : ns;
	}
	random_opnds(&in, nd, ns);
	for (unsigned j = 0; j < 6; j++) /* bar ids and counts: 0 */
		if (op == SC_OP_BAR && SC_OPND_KIND(in.opnd[j]) == SC_K_IMM)
			in.opnd[j] = SC_OPND(SC_K_IMM, rnd(3));
	if (sc__ops[op].unit == SC_U_MEM)
		mem_address(r, &in, op == SC_OP_ST ? 0 : nd);
	else if (sc__ops[op].unit == SC_U_CTL)
		in.imm = ((uint64_t)SC_PC_NONE << 32) | (r->pc + 1);
	return in;
}

Test(isa, every_unit_through_a_kernel, .timeout = 300)
{
	run_t r = {0};
	run_init(&r);
	rng = 7;
	unsigned long n = 0, nvalid = 0;
	for (unsigned op = 1; op < SC_OP__COUNT; op++) {
		unsigned tries = is_alu(op) ? 150 : 700, seen[2] = {0, 0};
		for (unsigned i = 0; i < tries; i++) {
			sc_insn_t in = random_word(&r, op);
			cr_assert_eq(sc__insn_check(&in, NREGS, NPREDS, NPOOL, NCODE), 0, "%s: a generated word does not decode",
			             sc__ops[op].name);
			int ran = run_word(&r, in);
			if (ran < 0) {
				r.due++;
				continue;
			}
			seen[ran]++;
			expect_agrees(&in, ran == 1, &n, &nvalid);
		}
		/* these end in a DUE (texture words: no object, invalid_handle; test_tex.c runs them) */
		if (!is_alu(op) && op != SC_OP_RET && op != SC_OP_TRAP && op != SC_OP_ASSERTFAIL &&
		    (op < SC_OP_TEX || op > SC_OP_SUST))
			cr_expect(seen[1] > 0, "%s: no word ran", sc__ops[op].name);
	}
	cr_log_info("%lu words issued, %lu valid, %lu ended in another DUE", n, nvalid, r.due);
	cr_expect_gt(n, 5 * r.due, "too many launches ended in other DUEs (%lu of %lu)", r.due, n + r.due);
	h_fini(&r.h);
}

/* What lowering produces from the repository's PTX is valid. */
Test(isa, lowered_words_are_valid)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx"};
	unsigned long n = 0;
	for (size_t p = 0; p < 2; p++) {
		glob_t g;
		memset(&g, 0, sizeof g);
		cr_assert(glob(patterns[p], 0, NULL, &g) == 0);
		for (size_t i = 0; i < g.gl_pathc; i++)
			for (int mode = 0; mode < 2; mode++) {
				h_ctx_t h;
				h_init(&h);
				h.opt.regs = mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
				h_start(&h);
				sc_module_t *m;
				cr_assert_eq(sc_module_load_file(h.gpu, g.gl_pathv[i], &m), 0, "%s", sc_gpu_errmsg(h.gpu));
				for (uint32_t pc = 0; pc < m->ncode; pc++, n++)
					cr_expect(sc__insn_valid(&m->code[pc]), "%s pc %u (%s) is not valid", g.gl_pathv[i], pc,
					          sc__ops[m->code[pc].op].name);
				h_fini(&h);
			}
		globfree(&g);
	}
	cr_expect_gt(n, 1000);
}
