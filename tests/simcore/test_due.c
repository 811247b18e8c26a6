/* Detected unrecoverable errors (simcore/sm.c sc__due, gpu.c): every DUE
 * reason reached through sc_launch with SC_EDUE and a status that names
 * the SM, warp, lane, pc and address; the sticky state after a DUE; words
 * of the instruction encoding that must not decode (sc__insn_check), and
 * module code corrupted after loading, as a fault in the instruction
 * memory would leave it. The host process must survive all of it. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* pc of the n-th (from 0) instruction with opcode op in the module. */
static uint32_t find_op(const sc_module_t *m, unsigned op, unsigned n)
{
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		if (m->code[pc].op == op && n-- == 0)
			return pc;
	cr_assert_fail("no instruction %s number %u in the module", sc__ops[op].name, n);
	return 0;
}

/* pc of the first memory instruction op in state space `space`. */
static uint32_t find_mem(const sc_module_t *m, unsigned op, unsigned space)
{
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		if (m->code[pc].op == op && SC_AUX_SPACE(m->code[pc].aux) == space)
			return pc;
	cr_assert_fail("no %s in space %u", sc__ops[op].name, space);
	return 0;
}

/* Launches and expects a DUE of `reason`; checks the fields every DUE has
 * and that the GPU is sticky afterwards. Returns the status. */
static const sc_status_t *expect_due(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn,
                                     void *const *args, sc_due_t reason)
{
	int rc = h_launch(h, kernel, grid, block, dyn, args);
	const sc_status_t *s = h_status(h);
	cr_assert_eq(rc, SC_EDUE, "%s: rc %d (%s), want SC_EDUE for %s; status %s: %s", kernel, rc, sc_strerror(rc),
	             sc_due_name(reason), sc_due_name(s->reason), s->detail);
	cr_assert_eq(s->reason, reason, "%s: reason %s (%s), want %s", kernel, sc_due_name(s->reason), s->detail,
	             sc_due_name(reason));
	cr_expect_str_eq(s->kernel, kernel);
	cr_expect_neq(s->detail[0], '\0', "a DUE explains itself");
	cr_expect(strstr(sc_gpu_errmsg(h->gpu), sc_due_name(reason)) != NULL, "message '%s'", sc_gpu_errmsg(h->gpu));
	cr_expect_lt(s->sm, (int32_t)h->cfg.num_sms);
	cr_expect_lt(s->warp, (int32_t)h->cfg.max_warps_per_sm);
	cr_expect_lt(s->lane, 32);
	const sc_launch_stats_t *ls = h_last(h);
	cr_expect(s->cycle >= ls->start_cycle && s->cycle <= ls->end_cycle, "DUE at cycle %llu outside [%llu, %llu]",
	          (unsigned long long)s->cycle, (unsigned long long)ls->start_cycle, (unsigned long long)ls->end_cycle);
	/* sticky: as a CUDA context, the GPU refuses further launches */
	cr_expect_eq(sc_synchronize(h->gpu), SC_EDUE);
	cr_expect_eq(h_launch(h, kernel, grid, block, dyn, args), SC_ESTICKY);
	cr_expect_eq(h_launch(h, kernel, grid, block, dyn, args), SC_ESTICKY);
	cr_expect_eq(h_status(h)->reason, reason, "the first DUE's status stays");
	return s;
}

/* Out-of-bounds and misaligned accesses in every space; thread `bad` of
 * block 64 misbehaves. */
static const char mem_ptx[] = H_PTX_HEAD
	".visible .entry glob(.param .u64 p, .param .u32 bad, .param .u32 off)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<6>;\n"
	"	.reg .pred %p1;\n"
	"	ld.param.u64 %rd1, [p];\n"
	"	ld.param.u32 %r1, [bad];\n"
	"	ld.param.u32 %r2, [off];\n"
	"	mov.u32 %r3, %tid.x;\n"
	"	setp.eq.u32 %p1, %r3, %r1;\n"
	"	selp.u32 %r4, %r2, 0, %p1;       // the bad thread adds `off`\n"
	"	mul.wide.u32 %rd2, %r3, 4;\n"
	"	cvt.u64.u32 %rd3, %r4;\n"
	"	add.s64 %rd2, %rd2, %rd3;\n"
	"	add.s64 %rd4, %rd1, %rd2;\n"
	"	ld.global.u32 %r5, [%rd4];\n"
	"	st.global.u32 [%rd4], %r5;\n"
	"	ret;\n"
	"}\n"
	".visible .entry shar(.param .u32 bad, .param .u32 off)\n"
	"{\n"
	"	.shared .align 4 .u32 s[64];\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .pred %p1;\n"
	"	ld.param.u32 %r1, [bad];\n"
	"	ld.param.u32 %r2, [off];\n"
	"	mov.u32 %r3, %tid.x;\n"
	"	setp.eq.u32 %p1, %r3, %r1;\n"
	"	selp.u32 %r4, %r2, 0, %p1;\n"
	"	shl.b32 %r5, %r3, 2;\n"
	"	add.u32 %r5, %r5, %r4;\n"
	"	mov.u32 %r6, s;\n"
	"	add.u32 %r6, %r6, %r5;\n"
	"	st.shared.u32 [%r6], %r3;\n"
	"	ret;\n"
	"}\n"
	".visible .entry loc(.param .u32 bad, .param .u32 off)\n"
	"{\n"
	"	.local .align 4 .u32 l[4];\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p1;\n"
	"	ld.param.u32 %r1, [bad];\n"
	"	ld.param.u32 %r2, [off];\n"
	"	mov.u32 %r3, %tid.x;\n"
	"	setp.eq.u32 %p1, %r3, %r1;\n"
	"	selp.u32 %r4, %r2, 0, %p1;\n"
	"	mov.u64 %rd1, l;\n"
	"	cvt.u64.u32 %rd2, %r4;\n"
	"	add.s64 %rd1, %rd1, %rd2;\n"
	"	ld.local.u32 %r5, [%rd1];\n"
	"	ret;\n"
	"}\n";

Test(due, illegal_address_global)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	uint64_t p = h_alloc(&h, 64 * 4, NULL);
	uint32_t bad = 37, off = 4 * 64; /* thread 37 reads 64 words further: past the buffer */
	const sc_status_t *s = expect_due(&h, "glob", H_D1(1), H_D1(64), 0, H_ARGS(&p, &bad, &off),
	                                  SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(s->addr, p + 4 * 37 + off, "addr 0x%llx", (unsigned long long)s->addr);
	cr_expect_eq(s->pc, find_mem(h.mod, SC_OP_LD, SC_SP_GLOBAL), "pc %u", s->pc);
	cr_expect_eq(s->warp % 2, 1, "thread 37 is in the CTA's second warp (slot %d)", s->warp);
	cr_expect_eq(s->lane, 5);
	cr_expect_geq(s->sm, 0);
	/* the status names the PTX source line of the faulting load */
	uint32_t line = 1;
	for (const char *c = mem_ptx; c < strstr(mem_ptx, "ld.global.u32"); c++)
		line += *c == '\n';
	cr_expect_eq(s->line, line, "line %u, expected %u", s->line, line);
	h_fini(&h);
}

Test(due, illegal_address_null)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	uint64_t p = 0;
	uint32_t bad = 0, off = 0;
	const sc_status_t *s = expect_due(&h, "glob", H_D1(1), H_D1(64), 0, H_ARGS(&p, &bad, &off),
	                                  SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(s->addr, 0);
	cr_expect_eq(s->lane, 0, "the lowest lane faults first");
	h_fini(&h);
}

Test(due, illegal_address_shared)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	uint32_t bad = 3, off = 64 * 4; /* s is 256 bytes: thread 3 writes at 268 */
	const sc_status_t *s = expect_due(&h, "shar", H_D1(1), H_D1(64), 0, H_ARGS(&bad, &off), SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(s->addr, 3 * 4 + 256, "addr %llu", (unsigned long long)s->addr);
	cr_expect_eq(s->lane, 3);
	cr_expect_eq(s->pc, find_mem(h.mod, SC_OP_ST, SC_SP_SHARED));
	h_fini(&h);
}

Test(due, illegal_address_local)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	uint32_t bad = 40, off = 1024;
	const sc_status_t *s = expect_due(&h, "loc", H_D1(1), H_D1(64), 0, H_ARGS(&bad, &off), SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(s->addr, 1024, "addr %llu", (unsigned long long)s->addr);
	cr_expect_eq(s->lane, 8);
	cr_expect_eq(s->pc, find_mem(h.mod, SC_OP_LD, SC_SP_LOCAL));
	h_fini(&h);
}

Test(due, misaligned_address)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	uint64_t p = h_alloc(&h, 128 * 4, NULL);
	uint32_t bad = 20, off = 2;
	const sc_status_t *s = expect_due(&h, "glob", H_D1(1), H_D1(64), 0, H_ARGS(&p, &bad, &off),
	                                  SC_DUE_MISALIGNED_ADDRESS);
	cr_expect_eq(s->addr, p + 20 * 4 + 2);
	cr_expect_eq(s->lane, 20);
	h_fini(&h);

	/* shared, in a second GPU (the first is sticky now) */
	h_init(&h);
	h_load_ok(&h, mem_ptx);
	off = 1;
	s = expect_due(&h, "shar", H_D1(1), H_D1(64), 0, H_ARGS(&bad, &off), SC_DUE_MISALIGNED_ADDRESS);
	cr_expect_eq(s->addr, 20 * 4 + 1);
	h_fini(&h);
}

/* A vector access must be aligned to its whole size. */
Test(due, misaligned_vector)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p)\n"
		"{\n"
		"	.reg .b32 %r<4>;\n"
		"	.reg .b64 %rd1;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd1+8];\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t p = h_alloc(&h, 64, NULL);
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&p), SC_DUE_MISALIGNED_ADDRESS);
	cr_expect_eq(s->addr, p + 8);
	h_fini(&h);
}

/* Stores through generic pointers into read-only windows, and an atomic
 * on local memory. */
Test(due, wrong_state_space)
{
	static const char ptx[] = H_PTX_HEAD
		".const .align 4 .u32 c[4] = {1, 2, 3, 4};\n"
		".visible .entry to_const()\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .b64 %rd<3>;\n"
		"	mov.u64 %rd1, c;\n"
		"	cvta.const.u64 %rd2, %rd1;\n"
		"	ld.u32 %r1, [%rd2+4];          // reading is fine\n"
		"	st.u32 [%rd2+8], %r1;\n"
		"	ret;\n"
		"}\n"
		".visible .entry to_param(.param .u32 x)\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .b64 %rd<3>;\n"
		"	mov.u64 %rd1, x;\n"
		"	cvta.param.u64 %rd2, %rd1;\n"
		"	st.u32 [%rd2], %r1;\n"
		"	ret;\n"
		"}\n"
		".visible .entry atom_local()\n"
		"{\n"
		"	.local .align 4 .u32 l;\n"
		"	.reg .b32 %r1;\n"
		"	.reg .b64 %rd<3>;\n"
		"	mov.u64 %rd1, l;\n"
		"	cvta.local.u64 %rd2, %rd1;\n"
		"	atom.add.u32 %r1, [%rd2], 1;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	const sc_status_t *s = expect_due(&h, "to_const", H_D1(2), H_D1(32), 0, NULL, SC_DUE_WRONG_SPACE);
	cr_expect_eq(s->pc, find_op(h.mod, SC_OP_ST, 0));
	cr_expect_eq(s->addr, 8, "offset in the const space: %llu", (unsigned long long)s->addr);
	cr_expect_eq(s->lane, 0);
	h_fini(&h);

	h_init(&h);
	h_load_ok(&h, ptx);
	uint32_t x = 5;
	s = expect_due(&h, "to_param", H_D1(1), H_D1(32), 0, H_ARGS(&x), SC_DUE_WRONG_SPACE);
	cr_expect_eq(s->pc, find_op(h.mod, SC_OP_ST, 1));
	h_fini(&h);

	h_init(&h);
	h_load_ok(&h, ptx);
	s = expect_due(&h, "atom_local", H_D1(1), H_D1(32), 0, NULL, SC_DUE_WRONG_SPACE);
	cr_expect_eq(s->pc, find_op(h.mod, SC_OP_ATOM, 0));
	h_fini(&h);
}

/* ---------------------------------------------------------------- control */

Test(due, trap)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .pred %p1;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	setp.eq.u32 %p1, %r1, 45;\n"
		"	@%p1 trap;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	const sc_status_t *s = expect_due(&h, "k", H_D1(3), H_D1(64), 0, NULL, SC_DUE_TRAP);
	cr_expect_eq(s->pc, find_op(h.mod, SC_OP_TRAP, 0));
	cr_expect_geq(s->sm, 0);
	cr_expect_geq(s->warp, 0);
	h_fini(&h);
}

Test(due, timeout)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry spin()\n"
		"{\n"
		"L_forever:\n"
		"	bra.uni L_forever;\n"
		"}\n"
		".visible .entry quick()\n"
		"{\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h.opt.cycle_budget = 50000;
	h_load_ok(&h, ptx);
	h_launch_ok(&h, "quick", H_D1(1), H_D1(32), 0, NULL); /* well within the budget */
	const sc_status_t *s = expect_due(&h, "spin", H_D1(2), H_D1(32), 0, NULL, SC_DUE_TIMEOUT);
	cr_expect_leq(s->cycle, 50000);
	cr_expect_geq(s->cycle, 50000 - 1000, "timeout at cycle %llu", (unsigned long long)s->cycle);
	cr_expect_gt(h_last(&h)->warp_insts, 1000 / 22, "the loop ran until the budget");
	h_fini(&h);
}

/* Half of the warps skip bar.sync 0 and wait at bar.sync 1: nobody can go on. */
Test(due, barrier_deadlock_split)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .pred %p1;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	setp.lt.u32 %p1, %r1, 64;\n"
		"	@%p1 bra L_other;\n"
		"	bar.sync 0;\n"
		"	bra.uni L_end;\n"
		"L_other:\n"
		"	bar.sync 1;\n"
		"L_end:\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(128), 0, NULL, SC_DUE_BARRIER_DEADLOCK);
	cr_expect_geq(s->sm, 0, "the deadlocked CTA's SM");
	h_fini(&h);
}

/* bar.sync with a thread count the CTA cannot reach, or not a multiple of
 * the warp size. */
Test(due, barrier_deadlock_count)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u32 n)\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	ld.param.u32 %r1, [n];\n"
		"	bar.sync 2, %r1;\n"
		"	ret;\n"
		"}\n";
	static const uint32_t counts[] = {96, 4096, 48};
	for (int i = 0; i < 3; i++) {
		h_ctx_t h;
		h_init(&h);
		h_load_ok(&h, ptx);
		uint32_t n = 64;
		h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&n)); /* the whole CTA: fine */
		n = counts[i];
		const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&n), SC_DUE_BARRIER_DEADLOCK);
		cr_expect_eq(s->pc, find_op(h.mod, SC_OP_BAR, 0), "count %u: pc %u", n, s->pc);
		h_fini(&h);
	}
}

/* A CTA whose warps exit while others wait on a counted barrier for them. */
Test(due, barrier_deadlock_after_exit)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .pred %p1;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	setp.ge.u32 %p1, %r1, 32;\n"
		"	@%p1 exit;\n"
		"	bar.sync 0, 64;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	expect_due(&h, "k", H_D1(1), H_D1(64), 0, NULL, SC_DUE_BARRIER_DEADLOCK);
	h_fini(&h);
}

/* Nested if/else needs more SIMT entries than a stack of three holds; one
 * level fits. */
Test(due, simt_stack_overflow)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u32 nest)\n"
		"{\n"
		"	.reg .b32 %r<5>;\n"
		"	.reg .pred %p<3>;\n"
		"	ld.param.u32 %r4, [nest];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	and.b32 %r2, %r1, 1;\n"
		"	setp.eq.u32 %p1, %r2, 0;\n"
		"	@%p1 bra L_else;\n"
		"	add.u32 %r3, %r1, 1;\n"
		"	bra.uni L_join;\n"
		"L_else:\n"
		"	setp.ne.u32 %p2, %r4, 0;\n"
		"	and.b32 %r2, %r1, 2;\n"
		"	setp.eq.and.u32 %p2, %r2, 0, %p2;\n"
		"	@%p2 bra L_inner_else;\n"
		"	add.u32 %r3, %r1, 2;\n"
		"	bra.uni L_inner_join;\n"
		"L_inner_else:\n"
		"	add.u32 %r3, %r1, 3;\n"
		"L_inner_join:\n"
		"	add.u32 %r3, %r3, 4;\n"
		"L_join:\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h.cfg.simt_stack_depth = 3;
	h_load_ok(&h, ptx);
	uint32_t nest = 0;
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&nest));
	nest = 1;
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&nest), SC_DUE_SIMT_OVERFLOW);
	cr_expect_eq(s->pc, find_op(h.mod, SC_OP_BRA, 2), "the inner branch: pc %u", s->pc);
	cr_expect_eq(s->lane, -1, "a whole-warp event");
	h_fini(&h);

	/* the default depth holds it */
	h_init(&h);
	h_load_ok(&h, ptx);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&nest));
	h_fini(&h);
}

/* ---------------------------------------------------------------- corrupted code */

static const char plain_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p1;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.lt.u32 %p1, %r1, 1000;\n"
	"	@%p1 bra L_go;\n"
	"	bra.uni L_end;\n"
	"L_go:\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"L_end:\n"
	"	ret;\n"
	"}\n";

/* Every word the front end produces decodes; words with a flipped field do
 * not. */
Test(due, insn_check_words)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	sc_module_t *m = NULL;
	cr_assert_eq(sc_module_load_file(h.gpu, "tests/simcore/data/parse_full.ptx", &m), 0, "%s", sc_gpu_errmsg(h.gpu));
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		cr_expect_eq(sc__insn_check(&m->code[pc], m->nregs_all, m->npreds_all, m->npool, m->ncode), 0,
		             "word %u (%s) of parse_full.ptx does not decode", pc, sc__ops[m->code[pc].op].name);
	h.mod = h_load_ok(&h, plain_ptx);
	m = h.mod;
	uint32_t R = m->nregs_all, P = m->npreds_all, N = m->npool, C = m->ncode;
	for (uint32_t pc = 0; pc < C; pc++)
		cr_expect_eq(sc__insn_check(&m->code[pc], R, P, N, C), 0, "word %u does not decode", pc);

	const sc_insn_t add = m->code[find_op(m, SC_OP_ADD, 0)];
	const sc_insn_t bra = m->code[find_op(m, SC_OP_BRA, 0)];
	const sc_insn_t st = m->code[find_op(m, SC_OP_ST, 0)];
	sc_insn_t w;
#define BAD(base, what, stmt)                                                                  \
	do {                                                                                       \
		w = (base);                                                                            \
		stmt;                                                                                  \
		cr_expect_eq(sc__insn_check(&w, R, P, N, C), -1, "%s still decodes", what);            \
	} while (0)
	BAD(add, "op 0xff", w.op = 0xff);
	BAD(add, "op INVALID", w.op = SC_OP_INVALID);
	BAD(add, "op one past the table", w.op = SC_OP__COUNT);
	BAD(add, "type past the table", w.type = SC_T__COUNT);
	BAD(add, "stype past the table", w.stype = 0x80);
	BAD(add, "reserved modifier bit", w.mods |= 0x8000);
	BAD(add, "rounding mode 15", w.mods |= 0x000f);
	BAD(add, "reserved aux bit", w.aux |= 0x80);
	BAD(add, "state space 7", w.aux |= 7);
	BAD(add, "vector width 8", w.aux |= 3u << 3);
	BAD(add, "reserved bits of the half-word", w.reserved = 0x1000);
	BAD(add, "register past the file by a high index bit", w.reserved = 1);
	BAD(add, "seven operands", w.nops = SC_NOPS_MAKE(1, 6));
	BAD(add, "register past the file", w.opnd[0] = SC_OPND(SC_K_R32, R));
	BAD(add, "64-bit register ending past the file", w.opnd[0] = SC_OPND(SC_K_R64, R - 1));
	BAD(add, "predicate past the file", w.opnd[1] = SC_OPND(SC_K_PRED, P));
	BAD(add, "constant past the pool", w.opnd[2] = SC_OPND(SC_K_IMM, N));
	BAD(add, "special register past the table", w.opnd[2] = SC_OPND(SC_K_SREG, SC_SR__COUNT));
	BAD(add, "operand kind 15", w.opnd[1] = SC_OPND(15, 0));
	BAD(add, "operand beyond the count", w.opnd[5] = SC_OPND(SC_K_R32, 0));
	BAD(add, "guard on a missing predicate", w.guard = (uint16_t)(SC_GUARD_ON | P));
	BAD(add, "guard predicate past the file by a high index bit", w.guard = (uint16_t)(SC_GUARD_ON | 0x1000));
	BAD(add, "guard bits without the guard flag", w.guard = 1);
	BAD(bra, "branch past the code", w.imm = (w.imm & ~0xffffffffull) | C);
	BAD(bra, "reconvergence past the code", w.imm = (w.imm & 0xffffffffull) | ((uint64_t)C << 32));
	BAD(st, "address register past the file", w.opnd[0] = SC_OPND(SC_K_ADDR, R - 1));
#undef BAD
	/* flips that leave a meaningful instruction still decode */
	w = add;
	w.op = SC_OP_SUB;
	cr_expect_eq(sc__insn_check(&w, R, P, N, C), 0);
	w = st;
	w.imm += 4;
	cr_expect_eq(sc__insn_check(&w, R, P, N, C), 0);
	h_fini(&h);
}

/* An undecodable word in the code the warps fetch ends as invalid_instruction. */
Test(due, invalid_instruction)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, plain_ptx);
	uint32_t pc = find_op(h.mod, SC_OP_ADD, 0);
	h.mod->code[pc].op = 0xff;
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d), SC_DUE_INVALID_INSTRUCTION);
	cr_expect_eq(s->pc, pc);
	/* the detail shows the word (sc__disasm) */
	cr_expect(strstr(s->detail, "<invalid word 0xff"), "%s", s->detail);
	h_fini(&h);

	/* a word that decodes to a combination no unit defines: its text */
	h_init(&h);
	h_load_ok(&h, plain_ptx);
	pc = find_op(h.mod, SC_OP_ADD, 0);
	h.mod->code[pc].type = SC_T_B8; /* add.u32 %r2, %r1, 100 becomes add.b8 */
	d = h_alloc(&h, 64 * 4, NULL);
	s = expect_due(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d), SC_DUE_INVALID_INSTRUCTION);
	cr_expect(strstr(s->detail, "add.b8 %r"), "%s", s->detail);
	cr_expect(strstr(s->detail, "do not decode"), "%s", s->detail);
	h_fini(&h);
}

/* A word corrupted into another valid instruction runs: a silent change. */
Test(due, valid_but_wrong_instruction)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, plain_ptx);
	uint32_t pc = find_op(h.mod, SC_OP_ADD, 0);
	cr_assert_eq(h.mod->code[pc].type, SC_T_U32);
	h.mod->code[pc].op = SC_OP_SUB; /* add.u32 %r2, %r1, 100 becomes sub */
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d));
	uint32_t o[64];
	h_read(&h, o, d, sizeof o);
	for (uint32_t t = 0; t < 64; t++)
		cr_expect_eq(o[t], t - 100, "thread %u: %u", t, o[t]);
	h_fini(&h);

	/* the store's offset moved by one word: a shifted, still legal, output */
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, plain_ptx);
	m->code[find_op(m, SC_OP_ST, 0)].imm += 4;
	d = h_alloc(&h, 65 * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d));
	uint32_t o2[65];
	h_read(&h, o2, d, sizeof o2);
	cr_expect_eq(o2[0], 0);
	for (uint32_t t = 0; t < 64; t++)
		cr_expect_eq(o2[t + 1], t + 100, "thread %u: %u", t, o2[t + 1]);
	h_fini(&h);
}

/* A branch whose target was corrupted past the end of the code. */
Test(due, invalid_pc)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, plain_ptx);
	uint32_t pc = find_op(m, SC_OP_BRA, 0); /* @%p1 bra L_go: every thread takes it */
	uint32_t bad = m->ncode + 7;
	m->code[pc].imm = (m->code[pc].imm & ~0xffffffffull) | bad;
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d), SC_DUE_INVALID_PC);
	cr_expect_eq(s->pc, bad, "pc %u", s->pc);
	h_fini(&h);
}

/* A word corrupted into ret: in a kernel there is no caller to return to. */
Test(due, simt_stack_underflow_ret)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, plain_ptx);
	uint32_t pc = find_op(m, SC_OP_ADD, 0);
	sc_insn_t ret;
	memset(&ret, 0, sizeof ret);
	ret.op = SC_OP_RET;
	cr_assert_eq(sc__insn_check(&ret, m->nregs_all, m->npreds_all, m->npool, m->ncode), 0);
	m->code[pc] = ret;
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	const sc_status_t *s = expect_due(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d), SC_DUE_SIMT_UNDERFLOW);
	cr_expect_eq(s->pc, pc);
	h_fini(&h);
}

/* After a DUE every launch is refused, whatever the kernel. */
Test(due, sticky_across_kernels)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry boom()\n"
		"{\n"
		"	trap;\n"
		"}\n"
		".visible .entry fine()\n"
		"{\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	h_launch_ok(&h, "fine", H_D1(1), H_D1(1), 0, NULL);
	cr_expect_eq(sc_synchronize(h.gpu), 0);
	expect_due(&h, "boom", H_D1(1), H_D1(1), 0, NULL, SC_DUE_TRAP);
	cr_expect_eq(h_launch(&h, "fine", H_D1(1), H_D1(1), 0, NULL), SC_ESTICKY);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "trap") != NULL, "message '%s'", sc_gpu_errmsg(h.gpu));
	/* a new module on the broken GPU does not help */
	h_load_ok(&h, ptx);
	cr_expect_eq(h_launch(&h, "fine", H_D1(1), H_D1(1), 0, NULL), SC_ESTICKY);
	/* a fresh GPU works */
	h_fini(&h);
	h_init(&h);
	h_load_ok(&h, ptx);
	h_launch_ok(&h, "fine", H_D1(1), H_D1(1), 0, NULL);
	h_fini(&h);
}

/* The reason names are stable strings. */
Test(due, reason_names)
{
	static const char *const names[SC_DUE__COUNT] = {
		"none", "illegal_address", "misaligned_address", "wrong_state_space", "invalid_instruction",
		"invalid_pc", "simt_stack_overflow", "simt_stack_underflow", "barrier_deadlock", "timeout", "trap",
		"ibuffer_stall", "ecc_uncorrectable", "parity_error", "ibuffer_parity", "penny_unrecoverable",
		"refu_mismatch", "dup_mismatch", "assert", "bad_call_target", "stack_overflow",
		"invalid_handle"};
	for (int i = 0; i < SC_DUE__COUNT; i++)
		cr_expect_str_eq(sc_due_name((sc_due_t)i), names[i]);
	cr_expect_str_eq(sc_due_name((sc_due_t)99), "unknown");
}
