/* Kernels with more register slots, predicates and constants than a 12-bit
 * operand index holds (sc_int.h, "Instruction encoding": 14-bit indices,
 * limit SC_IDX_LIMIT). The PTX is generated here, as unrolled nvcc -O3
 * code names thousands of virtual registers, and every output is checked
 * against the same computation in C, in ptx and in alloc mode (where the
 * allocation spills what does not fit max_regs_per_thread). Then the new
 * index bits: their encoding and disassembly, as an instruction-buffer
 * fault target, and the limits' messages. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* A growing text. */
typedef struct text {
	char *s;
	size_t n, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		cr_assert_geq(k, 0);
		if (t->s && t->n + (size_t)k < t->cap) {
			t->n += (size_t)k;
			return;
		}
		t->cap = (t->cap + (size_t)k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
}

/* The two constants of value i of a chain of seed s: distinct across
 * values and seeds (so that each becomes its own constant-pool entry). */
static uint32_t mul_of(uint32_t s, uint32_t i) { return 0x9e3779b1u * (s * 100003u + 2 * i + 1) | 1u; }
static uint32_t add_of(uint32_t s, uint32_t i) { return 0x85ebca77u * (s * 100003u + 2 * i + 2) + 0x165667b1u; }

/* A chain of n values: v_i = x * mul_i + add_i in register %<reg>i, and
 * acc = acc * 3 + v_i in order, each v_i read `window` definitions after
 * its own (window n: all n live at once); for the first np values also
 * @(acc > 2^31) acc += i + 1 through predicate %<pred>i. x and acc are
 * registers named in full. */
static void gen_chain(text_t *t, const char *reg, const char *pred, uint32_t n, uint32_t np, uint32_t seed,
                      const char *x, const char *acc, uint32_t window)
{
	put(t, "\tmov.u32 %s, 0;\n", acc);
	for (uint32_t s = 0; s < n + window; s++) {
		if (s < n)
			put(t, "\tmad.lo.u32 %%%s%u, %s, %u, %u;\n", reg, s, x, mul_of(seed, s), add_of(seed, s));
		if (s < window)
			continue;
		uint32_t i = s - window;
		put(t, "\tmad.lo.u32 %s, %s, 3, %%%s%u;\n", acc, acc, reg, i);
		if (i < np) {
			put(t, "\tsetp.gt.u32 %%%s%u, %s, 2147483648;\n", pred, i, acc);
			put(t, "\t@%%%s%u add.u32 %s, %s, %u;\n", pred, i, acc, acc, i + 1);
		}
	}
}

static uint32_t ref_chain(uint32_t x, uint32_t n, uint32_t np, uint32_t seed)
{
	uint32_t *v = malloc(n * sizeof *v), acc = 0;
	cr_assert_not_null(v);
	for (uint32_t i = 0; i < n; i++)
		v[i] = x * mul_of(seed, i) + add_of(seed, i);
	for (uint32_t i = 0; i < n; i++) {
		acc = acc * 3 + v[i];
		if (i < np && acc > 0x80000000u)
			acc += i + 1;
	}
	free(v);
	return acc;
}

/* out[tid] = acc: the store of every kernel below (%rd<4> declared). */
static void gen_store(text_t *t, const char *tid, const char *acc)
{
	put(t, "\tld.param.u64 %%rd1, [out];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n");
	put(t, "\tmul.wide.u32 %%rd2, %s, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n", tid);
	put(t, "\tst.global.u32 [%%rd3], %s;\n\tret;\n}\n", acc);
}

/* The kernel: WIDE_N values all live at once (and so WIDE_N + 2 32-bit
 * slots before the 64-bit ones), WIDE_P predicates, 2 WIDE_N + 2
 * constants. The tests below name its words by these numbers. */
#define WIDE_N 4300u
#define WIDE_P 4120u
#define WIDE_SEED 1u

static char *wide_ptx(void)
{
	text_t t = {0};
	put(&t, H_PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n");
	put(&t, "\t.reg .b32 %%r<%u>;\n\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<%u>;\n", WIDE_N + 2, WIDE_P);
	char tid[16], acc[16];
	snprintf(tid, sizeof tid, "%%r%u", WIDE_N);
	snprintf(acc, sizeof acc, "%%r%u", WIDE_N + 1);
	put(&t, "\tmov.u32 %s, %%tid.x;\n", tid);
	gen_chain(&t, "r", "p", WIDE_N, WIDE_P, WIDE_SEED, tid, acc, WIDE_N);
	gen_store(&t, tid, acc);
	return t.s;
}

/* Unrolled code as nvcc writes it: SPILL_N registers each read right after
 * it is written, then SPILL_L values live at once, more than gtx480's 63
 * registers a thread: alloc mode spills, its spill code numbered past
 * 4095. out[tid] = the first chain's sum + the second's. */
#define SPILL_N 4300u
#define SPILL_L 72u

static char *spill_ptx(void)
{
	text_t t = {0};
	put(&t, H_PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n");
	put(&t, "\t.reg .b32 %%r<%u>;\n\t.reg .b32 %%s<%u>;\n\t.reg .b32 %%t<4>;\n", SPILL_N, SPILL_L);
	put(&t, "\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<2>;\n\tmov.u32 %%t1, %%tid.x;\n");
	gen_chain(&t, "r", "p", SPILL_N, 1, 5, "%t1", "%t2", 1);
	gen_chain(&t, "s", "p", SPILL_L, 0, 6, "%t1", "%t3", SPILL_L);
	put(&t, "\tadd.u32 %%t2, %%t2, %%t3;\n");
	gen_store(&t, "%t1", "%t2");
	return t.s;
}

/* A .func of FUNC_N registers, above the 4095 slots one function could
 * have before, called by a kernel of few registers. */
#define FUNC_N 4300u
#define FUNC_SEED 2u

/* The .func's head: res = the chain of x over n registers %q. */
static void gen_func(text_t *t, const char *name, uint32_t n, uint32_t seed)
{
	put(t, ".func (.param .b32 res) %s(.param .b32 x)\n{\n", name);
	put(t, "\t.reg .b32 %%q<%u>;\n\t.reg .b32 %%x<3>;\n\t.reg .pred %%f<2>;\n", n);
	put(t, "\tld.param.u32 %%x1, [x];\n");
	gen_chain(t, "q", "f", n, 1, seed, "%x1", "%x2", 1);
	put(t, "\tst.param.u32 [res], %%x2;\n\tret;\n}\n");
}

/* A call of f(%t1) into %t3 (as nvcc writes it). */
static void gen_call(text_t *t, const char *f)
{
	put(t, "\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %%t1;\n\t.param .b32 r;\n");
	put(t, "\tcall.uni (r), %s, (a);\n\tld.param.b32 %%t3, [r];\n\t}\n", f);
}

static char *func_ptx(void)
{
	text_t t = {0};
	put(&t, H_PTX_HEAD);
	gen_func(&t, "big", FUNC_N, FUNC_SEED);
	put(&t, ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %%t<4>;\n\t.reg .b64 %%rd<4>;\n");
	put(&t, "\tmov.u32 %%t1, %%tid.x;\n");
	gen_call(&t, "big");
	gen_store(&t, "%t1", "%t3");
	return t.s;
}

/* A kernel of SUM_N registers that calls a .func of SUM_N: each below
 * 4095 slots, the module (the function's window above every kernel's
 * slots) above. out[tid] = the kernel's chain of tid + the function's. */
#define SUM_N 2200u

static char *sum_ptx(void)
{
	text_t t = {0};
	put(&t, H_PTX_HEAD);
	gen_func(&t, "g", SUM_N, 3);
	put(&t, ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %%r<%u>;\n\t.reg .b32 %%t<4>;\n", SUM_N);
	put(&t, "\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<2>;\n\tmov.u32 %%t1, %%tid.x;\n");
	gen_chain(&t, "r", "p", SUM_N, 1, 4, "%t1", "%t2", 1);
	gen_call(&t, "g");
	put(&t, "\tadd.u32 %%t2, %%t2, %%t3;\n");
	gen_store(&t, "%t1", "%t2");
	return t.s;
}

/* sum_ptx with the call made through a function address taken after the
 * kernel's chain, so the address's constant-pool entry is past 4095 too. */
static char *sum_indirect_ptx(void)
{
	text_t t = {0};
	put(&t, H_PTX_HEAD);
	gen_func(&t, "g", SUM_N, 3);
	put(&t, ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %%r<%u>;\n\t.reg .b32 %%t<4>;\n", SUM_N);
	put(&t, "\t.reg .b64 %%rd<4>;\n\t.reg .b64 %%fp;\n\t.reg .pred %%p<2>;\n\tmov.u32 %%t1, %%tid.x;\n");
	gen_chain(&t, "r", "p", SUM_N, 1, 4, "%t1", "%t2", 1);
	put(&t, "\tmov.u64 %%fp, g;\n\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %%t1;\n\t.param .b32 r;\n");
	put(&t, "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n");
	put(&t, "\tcall (r), %%fp, (a), proto;\n\tld.param.b32 %%t3, [r];\n\t}\n");
	put(&t, "\tadd.u32 %%t2, %%t2, %%t3;\n");
	gen_store(&t, "%t1", "%t2");
	return t.s;
}

#define NT 64u /* threads: two warps */

/* Runs k of ptx on NT threads in mode (max_regs: the GPU's
 * max_regs_per_thread, 0 for gtx480's); out gets NT words, *kr k's
 * registers, *npool the module's constants. */
static void run_mode(const char *ptx, sc_regs_t mode, uint32_t max_regs, uint32_t *out, sc_kernel_regs_t *kr,
                     uint32_t *npool)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = mode;
	if (max_regs)
		h.cfg.max_regs_per_thread = max_regs;
	sc_module_t *m = h_load_ok(&h, ptx);
	cr_assert_eq(sc_kernel_regs(m, "k", kr), 0);
	*npool = m->npool;
	uint64_t d = h_alloc(&h, NT * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(NT), 0, H_ARGS(&d));
	h_read(&h, out, d, NT * 4);
	h_fini(&h);
}

/* The registers of k in each of unalloc, alloc and ptx mode, and the
 * constants of the last mode run. */
typedef struct regs {
	sc_kernel_regs_t kr[3];
	uint32_t npool;
} regs_t;

/* k of the PTX gen() makes, in the first nmodes of unalloc, alloc, ptx,
 * against want(tid). */
static regs_t expect_modes(char *(*gen)(void), unsigned nmodes, uint32_t max_regs, uint32_t (*want)(uint32_t))
{
	static const sc_regs_t modes[3] = {SC_REGS_UNALLOC, SC_REGS_ALLOC, SC_REGS_PTX};
	char *ptx = gen();
	regs_t r;
	memset(&r, 0, sizeof r);
	uint32_t out[NT];
	for (unsigned i = 0; i < nmodes; i++) {
		memset(out, 0, sizeof out);
		run_mode(ptx, modes[i], max_regs, out, &r.kr[i], &r.npool);
		for (uint32_t t = 0; t < NT; t++)
			cr_assert_eq(out[t], want(t), "mode %s, thread %u", sc_regs_name(modes[i]), t);
	}
	free(ptx);
	return r;
}

static uint32_t want_wide(uint32_t t) { return ref_chain(t, WIDE_N, WIDE_P, WIDE_SEED); }
static uint32_t want_spill(uint32_t t) { return ref_chain(t, SPILL_N, 1, 5) + ref_chain(t, SPILL_L, 0, 6); }
static uint32_t want_func(uint32_t t) { return ref_chain(t, FUNC_N, 1, FUNC_SEED); }
static uint32_t want_sum(uint32_t t) { return ref_chain(t, SUM_N, 1, 4) + ref_chain(t, SUM_N, 1, 3); }

/* 4300 values live at once, in unalloc mode and in alloc mode on a GPU
 * that allows 8192 registers a thread (so that alloc mode's own code names
 * slots past 4095 too; ptx mode runs alloc mode's machine). */
Test(wide, kernel_of_4300_live_registers_and_8600_constants, .timeout = 60)
{
	regs_t r = expect_modes(wide_ptx, 2, 8192, want_wide);
	cr_expect_gt(r.kr[0].regs, 4095u, "unalloc: %u slots", r.kr[0].regs);
	cr_expect_geq(r.kr[0].preds, WIDE_P);
	cr_expect_gt(r.kr[1].regs, 4095u, "alloc: %u slots", r.kr[1].regs);
	cr_expect_eq(r.kr[1].spill_regs, 0u);
	cr_expect_gt(r.npool, 2 * WIDE_N, "%u constants", r.npool);
}

/* Many short-lived registers, then more live at once than gtx480's 63
 * registers a thread: alloc mode spills, its spill code numbered past
 * 4095; every mode. */
Test(wide, spilling_past_4095, .timeout = 60)
{
	regs_t r = expect_modes(spill_ptx, 3, 0, want_spill);
	cr_expect_gt(r.kr[1].regs_ptx, 4095u, "%u ptx slots", r.kr[1].regs_ptx);
	cr_expect_gt(r.kr[1].spill_regs, 0u, "spilled");
	cr_expect_leq(r.kr[1].regs, 63u);
}

Test(wide, function_above_4095_slots, .timeout = 60)
{
	regs_t r = expect_modes(func_ptx, 3, 0, want_func);
	cr_expect_gt(r.kr[0].regs, 4095u, "the kernel and what it calls: %u slots", r.kr[0].regs);
}

Test(wide, module_of_kernel_and_function_above_4095_slots, .timeout = 60)
{
	char *ptx = sum_ptx();
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	sc_module_t *m = h_load_ok(&h, ptx);
	cr_expect_lt(h_func(m, "k")->nregs, 4095u);
	cr_expect_lt(h_func(m, "g")->nregs, 4095u);
	cr_expect_gt(m->nregs_all, 4095u, "%u slots in the module", m->nregs_all);
	h_fini(&h);
	free(ptx);
	expect_modes(sum_ptx, 3, 0, want_sum);
}

/* A function's address in a constant-pool entry past 4095: the indirect
 * call still reaches g, in every mode. */
Test(wide, function_address_in_a_high_pool_entry, .timeout = 60)
{
	regs_t r = expect_modes(sum_indirect_ptx, 3, 0, want_sum);
	cr_expect_gt(r.npool, 4095u, "%u constants", r.npool);
}

/* ---------------------------------------------------------------- limits */

Test(wide, limits_are_stated)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	char ptx[512];
	snprintf(ptx, sizeof ptx, H_PTX_HEAD ".visible .entry k()\n{\n\t.reg .b32 %%r<%u>;\n\tret;\n}\n",
	         SC_IDX_LIMIT + 1);
	cr_assert_neq(h_load(&h, ptx), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "limit 16383 slots"), "%s", sc_gpu_errmsg(h.gpu));
	/* the most a kernel may have loads */
	snprintf(ptx, sizeof ptx, H_PTX_HEAD ".visible .entry k()\n{\n\t.reg .b32 %%r<%u>;\n\tret;\n}\n", SC_IDX_LIMIT);
	cr_expect_eq(h_load(&h, ptx), 0, "%s", sc_gpu_errmsg(h.gpu));
	/* a module's windows: two functions of 9000 slots each */
	snprintf(ptx, sizeof ptx,
	         H_PTX_HEAD ".func f()\n{\n\t.reg .b32 %%a<9000>;\n\tret;\n}\n"
	                    ".func g()\n{\n\t.reg .b32 %%b<9000>;\n\tret;\n}\n"
	                    ".visible .entry k()\n{\n\tcall f;\n\tcall g;\n\tret;\n}\n");
	cr_assert_neq(h_load(&h, ptx), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "needs 18000 register slots") &&
	          strstr(sc_gpu_errmsg(h.gpu), "holds 16383 of each"), "%s", sc_gpu_errmsg(h.gpu));
	/* constants: one more than the pool holds */
	text_t t = {0};
	put(&t, H_PTX_HEAD ".visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n");
	for (uint32_t i = 0; i <= SC_IDX_LIMIT; i++)
		put(&t, "\tadd.u32 %%r1, %%r1, %u;\n", 1000000u + i);
	put(&t, "\tret;\n}\n");
	cr_assert_neq(h_load(&h, t.s), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "too many distinct constants in the module (limit 16383)"), "%s",
	          sc_gpu_errmsg(h.gpu));
	free(t.s);
	h_fini(&h);
}

/* ------------------------------------------------- encoding and disassembly */

/* Few instructions on registers declared past 4095 (unalloc mode: a slot
 * per declared register): out[t] = 3t + 5 (+ 100 for t < 16) + 7. */
static const char high[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4400>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<4200>;\n"
	"	mov.u32 %r4300, %tid.x;\n"
	"	mov.u32 %r203, 7;\n"
	"	mad.lo.u32 %r4299, %r4300, 3, 5;\n"
	"	setp.lt.u32 %p4100, %r4300, 16;\n"
	"	@%p4100 add.u32 %r4299, %r4299, 100;\n"
	"	add.u32 %r4301, %r4299, %r203;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r4300, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r4301;\n"
	"	ret;\n"
	"}\n";

static uint32_t want_high(uint32_t t) { return 3 * t + 5 + (t < 16 ? 100 : 0) + 7; }

/* The pc of the first word of k whose operand j is kind k with index idx
 * (j 6: the guard naming predicate idx). */
static uint32_t pc_naming(const sc_module_t *m, unsigned j, unsigned k, unsigned idx)
{
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		const sc_insn_t *in = &m->code[pc];
		if (j == 6 ? (in->guard & SC_GUARD_ON) && SC_GUARD_REG(in->guard) == idx
		           : SC_OPND_KIND(sc__opnd(in, j)) == k && SC_OPND_IDX(sc__opnd(in, j)) == idx)
			return pc;
	}
	cr_assert_fail("no word names %u:%u at operand %u", k, idx, j);
	return 0;
}

Test(wide, high_indices_encode_and_disassemble)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	sc_module_t *m = h_load_ok(&h, high);
	char buf[160];
	/* mad.lo.u32 %r4299, %r4300, 3, 5: 4299 = 0x10cb, 4300 = 0x10cc */
	uint32_t pc = pc_naming(m, 0, SC_K_R32, 4299);
	const sc_insn_t *in = &m->code[pc];
	cr_expect_eq(in->opnd[0], SC_K_R32 << 12 | 0x0cb, "kind and the low bits in the operand field");
	cr_expect_eq(in->reserved & 3u, 1u, "bits 13..12 of operand 0 in reserved bits 1..0");
	cr_expect_eq((in->reserved >> 2) & 3u, 1u, "operand 1's in bits 3..2");
	cr_expect_eq(in->reserved >> 4, 0u, "the constants' and the unused operands' are 0");
	sc_disasm_pc(m, pc, buf, sizeof buf);
	cr_expect_str_eq(buf, "mad.lo.u32 %r4299, %r4300, 3, 5");
	/* a guard of a predicate above 4095: in its bits 13..12 */
	pc = pc_naming(m, 6, 0, 4100);
	cr_expect_eq(m->code[pc].guard, SC_GUARD_ON | 4100u);
	sc_disasm_pc(m, pc, buf, sizeof buf);
	cr_expect_str_eq(buf, "@%p4100 add.u32 %r4299, %r4299, 100");
	/* the store's base, a 64-bit register above the 32-bit ones */
	pc = pc_naming(m, 0, SC_K_ADDR, 4400 + 6);
	sc_disasm_pc(m, pc, buf, sizeof buf);
	cr_expect_str_eq(buf, "st.global.u32 [%rd4406], %r4301");
	/* no base: SC_NOREG, past every slot */
	pc = pc_naming(m, 1, SC_K_ADDR, SC_NOREG);
	cr_expect_eq(m->code[pc].op, SC_OP_LD);
	sc_disasm_pc(m, pc, buf, sizeof buf);
	cr_expect_str_eq(buf, "ld.param.u64 %rd4402, [0x0]");
	h_fini(&h);
}

/* ------------------------------------------- instruction-buffer faults */

typedef struct flip {
	uint32_t pc;   /* the word to hit when its warp is about to issue it */
	unsigned bit;  /* bit of the 256-bit word */
	bool done;
} flip_t;

/* Warp slot 0 of SM 0 about to issue pc, held by its buffer's entry 0:
 * flip the bit there. */
static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	flip_t *f = ctx;
	const sc_warp_t *w = &g->sms[0].warps[0];
	if (w->state != SC_W_ACTIVE || !w->sp || w->stk[w->sp - 1].pc != f->pc || w->ib_pc != f->pc ||
	    w->ib[0].valid != (SC_IB_VALID | SC_IB_HELD))
		return cycle + 1;
	cr_assert_eq(sc_inject(g, SC_TGT_IBUFFER, SC_F_IB_INSTR, 0, f->bit, 1), 1, "the bit flipped");
	f->done = true;
	return UINT64_MAX;
}

/* Runs `high` on one warp with bit `bit` of pc's buffered word flipped:
 * the rc, out, and how many lanes differ from want_high. */
static int run_flipped(uint32_t pc, unsigned bit, sc_due_t *due, uint32_t *wrong)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	h_load_ok(&h, high);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	flip_t f = {.pc = pc, .bit = bit};
	sc_set_pause(h.gpu, 1, on_pause, &f);
	int rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	cr_assert(f.done, "the word was reached");
	uint32_t out[32];
	*wrong = 0;
	if (rc == 0) {
		h_read(&h, out, d, sizeof out);
		for (uint32_t t = 0; t < 32; t++)
			*wrong += out[t] != want_high(t);
	}
	*due = h_status(&h)->reason;
	h_fini(&h);
	return rc;
}

Test(wide, ibuffer_flips_of_the_high_index_bits)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	sc_module_t *m = h_load_ok(&h, high);
	uint32_t mad = pc_naming(m, 0, SC_K_R32, 4299), guarded = pc_naming(m, 6, 0, 4100);
	h_fini(&h);
	sc_due_t due;
	uint32_t wrong;
	/* bit 12 of the destination (word bit 240): %r203 is written instead
	 * (then read as the 7), %r4299 keeps its zero: every lane wrong */
	cr_assert_eq(run_flipped(mad, 240, &due, &wrong), 0);
	cr_expect_eq(wrong, 32u, "a flipped high bit names another register (SDC)");
	/* bit 13 of the destination (word bit 241): slot 0x30cb, past the
	 * file: the word does not decode */
	cr_expect_eq(run_flipped(mad, 241, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
	/* bit 12 of the source %r4300 (word bit 242): %r204, never written,
	 * is read: 5 for every lane */
	cr_assert_eq(run_flipped(mad, 242, &due, &wrong), 0);
	cr_expect_eq(wrong, 31u, "lane 0 reads 0 either way");
	/* bit 13 of the source (word bit 243): past the file */
	cr_expect_eq(run_flipped(mad, 243, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
	/* a high bit of the constant 3 (word bit 244): pool entry 4096 + i,
	 * past the pool */
	cr_expect_eq(run_flipped(mad, 244, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
	/* of an operand past the count (operand 4 of mad's 4, word bit 248) */
	cr_expect_eq(run_flipped(mad, 248, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
	/* the still reserved bits 255..252 */
	cr_expect_eq(run_flipped(mad, 253, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
	/* the guard @%p4100 (0x1004): bit 12 (word bit 236) reads predicate
	 * 4, never set: lanes 0-15 skip the add */
	cr_assert_eq(run_flipped(guarded, 236, &due, &wrong), 0);
	cr_expect_eq(wrong, 16u);
	/* bit 13 (word bit 237): predicate 0x3004, past the file */
	cr_expect_eq(run_flipped(guarded, 237, &due, &wrong), SC_EDUE);
	cr_expect_eq(due, SC_DUE_INVALID_INSTRUCTION);
}
