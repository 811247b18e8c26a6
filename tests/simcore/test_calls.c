/* Indirect calls, function addresses and recursion (simcore/call.c): a
 * function pointer read from an initialized .global and passed as a kernel
 * parameter, a guarded call whose lanes name different functions, the
 * DUEs of a pointer that names no function and of one whose parameters
 * differ from the prototype, the call stack's limit (cudaLimitStackSize)
 * and its overflow, and what recursion leaves of the warp's state. The
 * conformance cases tests/ptx/calls_{indirect,recursive} run nvcc's PTX. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* twice, sq and wide (another prototype), a table of them, and k: out[t]
 * = f(t) through a pointer parameter; k2: out[t] = tbl[t % 2](t) for t <
 * 20, 7 for the others (a guarded call); down(n) = n + down(n - 1),
 * recursion n deep (n live across the call). */
static const char ptx[] = H_PTX_HEAD
	".func (.param .b32 r) twice(.param .b32 a)\n"
	"{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [a];\n\tadd.s32 %r2, %r1, %r1;\n\tst.param.b32 [r], %r2;\n\tret;\n}\n"
	".func (.param .b32 r) sq(.param .b32 a)\n"
	"{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [a];\n\tmul.lo.s32 %r2, %r1, %r1;\n\tst.param.b32 [r], %r2;\n\tret;\n}\n"
	".func (.param .b64 r) wide(.param .b32 a)\n"
	"{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, 1;\n\tst.param.b64 [r], %rd1;\n\tret;\n}\n"
	".func (.param .b32 r) down(.param .b32 n)\n"
	"{\n\t.reg .b32 %r<4>;\n\t.reg .pred %p1;\n\tld.param.u32 %r1, [n];\n\tsetp.eq.s32 %p1, %r1, 0;\n"
	"\tmov.u32 %r3, 0;\n\t@%p1 bra DONE;\n\tsub.s32 %r2, %r1, 1;\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r2;\n\t.param .b32 x;\n\tcall.uni (x), down, (a);\n"
	"\tld.param.b32 %r3, [x];\n\t}\n\tadd.s32 %r3, %r3, %r1;\n"
	"DONE:\n\tst.param.b32 [r], %r3;\n\tret;\n}\n"
	".global .align 8 .u64 fp = twice;\n"
	".global .align 8 .u64 dp = down;\n"
	".global .align 8 .u64 tbl[3] = {twice, sq, generic(wide)};\n"
	".visible .entry k(.param .u64 out, .param .u64 f)\n"
	"{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd1, [f];\n\tld.param.u64 %rd2, [out];\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r1;\n\t.param .b32 r;\n"
	"\tp: .callprototype (.param .b32 _) _ (.param .b32 _);\n\tcall (r), %rd1, (a), p;\n"
	"\tld.param.b32 %r2, [r];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n"
	".visible .entry k2(.param .u64 out)\n"
	"{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<7>;\n\t.reg .pred %p1;\n"
	"\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd2, [out];\n\tmov.u32 %r2, 7;\n"
	"\tand.b32 %r3, %r1, 1;\n\tmul.wide.u32 %rd5, %r3, 8;\n\tmov.u64 %rd6, tbl;\n\tadd.s64 %rd5, %rd6, %rd5;\n"
	"\tld.global.u64 %rd1, [%rd5];\n\tsetp.lt.u32 %p1, %r1, 20;\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r1;\n\t.param .b32 r;\n"
	"\tp: .callprototype (.param .b32 _) _ (.param .b32 _);\n\t@%p1 call (r), %rd1, (a), p;\n"
	"\t@%p1 ld.param.b32 %r2, [r];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n"
	".visible .entry k3(.param .u64 out, .param .u32 n)\n"
	"{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [n];\n\tadd.s32 %r2, %r2, %r1;\n\tld.param.u64 %rd2, [out];\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r2;\n\t.param .b32 r;\n\tcall.uni (r), down, (a);\n"
	"\tld.param.b32 %r2, [r];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n";

/* k4: k through a .calltargets list of twice and sq. */
static const char ptx_targets[] =
	".visible .entry k4(.param .u64 out, .param .u64 f)\n"
	"{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd1, [f];\n\tld.param.u64 %rd2, [out];\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r1;\n\t.param .b32 r;\n"
	"\tt: .calltargets twice, sq;\n\tcall (r), %rd1, (a), t;\n"
	"\tld.param.b32 %r2, [r];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n";

/* The value of .global u64 `name`[i]. */
static uint64_t var_u64(h_ctx_t *h, const char *name, uint32_t i)
{
	sc_var_info_t v;
	cr_assert_eq(sc_module_var(h->mod, name, &v), 0);
	uint64_t x;
	h_read(h, &x, v.addr + 8 * i, 8);
	return x;
}

/* Launches k with pointer f over 32 threads; the rc. */
static int launch_k(h_ctx_t *h, uint64_t out, uint64_t f)
{
	return h_launch(h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&out, &f));
}

Test(calls, pointer_from_an_initializer_as_a_kernel_parameter)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t fp = var_u64(&h, "fp", 0), out = h_alloc(&h, 32 * 4, NULL);
	cr_expect_eq(fp, var_u64(&h, "tbl", 0), "fp and tbl[0] both name twice");
	cr_expect_neq(fp, var_u64(&h, "tbl", 1));
	cr_assert_eq(launch_k(&h, out, fp), 0, "%s", sc_gpu_errmsg(h.gpu));
	uint32_t got[32];
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(got[t], 2 * t, "thread %u: %u", t, got[t]);
	cr_assert_eq(launch_k(&h, out, var_u64(&h, "tbl", 1)), 0, "%s", sc_gpu_errmsg(h.gpu));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(got[t], t * t, "thread %u: %u", t, got[t]);
	h_fini(&h);
	/* the same address on another GPU (a stable representation) */
	h_ctx_t h2;
	h_init(&h2);
	h2.cfg.num_sms = 2;
	h_load_ok(&h2, ptx);
	cr_expect_eq(var_u64(&h2, "fp", 0), fp);
	h_fini(&h2);
}

/* Lanes 0..19 call twice or sq by parity (one target after the other),
 * lanes 20..31 skip the guarded call; all meet again after it. */
Test(calls, divergent_guarded_indirect_call)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t out = h_alloc(&h, 32 * 4, NULL);
	h_launch_ok(&h, "k2", H_D1(1), H_D1(32), 0, H_ARGS(&out));
	uint32_t got[32];
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(got[t], t >= 20 ? 7 : t % 2 ? t * t : 2 * t, "thread %u: %u", t, got[t]);
	uint64_t cycles = h_last(&h)->cycles;
	h_fini(&h);
	h_init(&h); /* the same launch on a fresh GPU: the same cycles */
	h_load_ok(&h, ptx);
	out = h_alloc(&h, 32 * 4, NULL);
	h_launch_ok(&h, "k2", H_D1(1), H_D1(32), 0, H_ARGS(&out));
	cr_expect_eq(h_last(&h)->cycles, cycles);
	h_fini(&h);
}

/* A corrupted pointer: a DUE that names the value, never a crash. */
Test(calls, pointer_to_no_function_is_a_due)
{
	static const uint64_t bad[] = {0x1234, 0x00f0000000000008ull, 0x00f0000000000000ull + 16 * 999, 0};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		h_ctx_t h;
		h_init(&h);
		h_load_ok(&h, ptx);
		uint64_t out = h_alloc(&h, 32 * 4, NULL);
		cr_assert_eq(launch_k(&h, out, bad[i]), SC_EDUE);
		const sc_status_t *s = h_status(&h);
		cr_expect_eq(s->reason, SC_DUE_BAD_CALL_TARGET);
		cr_expect_str_eq(sc_due_name(s->reason), "bad_call_target");
		cr_expect(strstr(s->detail, "which is the address of no function"), "%s", s->detail);
		h_fini(&h);
	}
}

Test(calls, pointer_to_another_prototype_is_a_due)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t out = h_alloc(&h, 32 * 4, NULL);
	cr_assert_eq(launch_k(&h, out, var_u64(&h, "tbl", 2)), SC_EDUE);
	const sc_status_t *s = h_status(&h);
	cr_expect_eq(s->reason, SC_DUE_BAD_CALL_TARGET);
	cr_expect(strstr(s->detail, "indirect call to 'wide'") && strstr(s->detail, "differ from the call's prototype"),
	          "%s", s->detail);
	h_fini(&h);
}

/* down(n + tid) in 16 threads: every lane a different depth; the call stack holds 1 KiB
 * per thread unless set, and a deeper recursion is DUE stack_overflow. */
Test(calls, recursion_depth_and_stack_limit)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	cr_expect_eq(sc_stack_size(h.gpu), 1024);
	uint64_t out = h_alloc(&h, 32 * 4, NULL);
	/* 15 calls of 64 bytes at most: a record of 48 (header, live values,
	 * parameters) and down's own frame of 16 (its call's .param variables) */
	uint32_t n = 0, got[32];
	h_launch_ok(&h, "k3", H_D1(1), H_D1(16), 0, H_ARGS(&out, &n));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 16; t++)
		cr_expect_eq(got[t], (n + t) * (n + t + 1) / 2, "thread %u: %u", t, got[t]);
	n = 200;
	cr_assert_eq(h_launch(&h, "k3", H_D1(1), H_D1(20), 0, H_ARGS(&out, &n)), SC_EDUE);
	const sc_status_t *s = h_status(&h);
	cr_expect_eq(s->reason, SC_DUE_STACK_OVERFLOW);
	cr_expect_str_eq(sc_due_name(s->reason), "stack_overflow");
	cr_expect(strstr(s->detail, "call stack overflow") && strstr(s->detail, "cudaLimitStackSize") &&
	          strstr(s->detail, "of the 1024 bytes per thread"), "%s", s->detail);
	h_fini(&h);
	/* a larger stack holds it */
	h_init(&h);
	h_start(&h);
	cr_expect_eq(sc_set_stack_size(h.gpu, 0), SC_EINVAL);
	cr_expect_eq(sc_set_stack_size(h.gpu, SC_STACK_MAX + 1ull), SC_EINVAL);
	cr_assert_eq(sc_set_stack_size(h.gpu, 64 * 1024), 0);
	cr_expect_eq(sc_stack_size(h.gpu), 64 * 1024);
	h_load_ok(&h, ptx);
	out = h_alloc(&h, 32 * 4, NULL);
	h_launch_ok(&h, "k3", H_D1(1), H_D1(20), 0, H_ARGS(&out, &n));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 20; t++)
		cr_expect_eq(got[t], (n + t) * (n + t + 1) / 2, "thread %u: %u", t, got[t]);
	h_fini(&h);
}

/* A .calltargets list: its functions are called, another one with the
 * same parameters is DUE bad_call_target. */
Test(calls, calltargets_list)
{
	char text[sizeof ptx + sizeof ptx_targets];
	snprintf(text, sizeof text, "%s%s", ptx, ptx_targets);
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, text);
	uint64_t out = h_alloc(&h, 32 * 4, NULL), f = var_u64(&h, "tbl", 1);
	uint32_t got[32];
	h_launch_ok(&h, "k4", H_D1(1), H_D1(32), 0, H_ARGS(&out, &f));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(got[t], t * t, "thread %u: %u", t, got[t]);
	f = var_u64(&h, "dp", 0); /* down: the prototype fits, the list does not name it */
	cr_assert_eq(h_launch(&h, "k4", H_D1(1), H_D1(32), 0, H_ARGS(&out, &f)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_BAD_CALL_TARGET);
	cr_expect(strstr(h_status(&h)->detail, "indirect call to 'down', which is not in the call's .calltargets list"),
	          "%s", h_status(&h)->detail);
	/* written back as PTX (sc_module_emit_ptx) and loaded again, the list
	 * still holds */
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	cr_assert_eq(sc_module_emit_ptx(h.mod, mf), 0);
	fclose(mf);
	cr_expect(strstr(buf, ".calltargets twice, sq;") && strstr(buf, "tbl[3] = {twice, sq, wide}"), "%s", buf);
	h_fini(&h);
	h_init(&h);
	h_load_ok(&h, buf);
	free(buf);
	out = h_alloc(&h, 32 * 4, NULL);
	f = var_u64(&h, "tbl", 0);
	h_launch_ok(&h, "k4", H_D1(1), H_D1(32), 0, H_ARGS(&out, &f));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(got[t], 2 * t, "thread %u: %u", t, got[t]);
	f = var_u64(&h, "dp", 0);
	cr_assert_eq(h_launch(&h, "k4", H_D1(1), H_D1(32), 0, H_ARGS(&out, &f)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_BAD_CALL_TARGET);
	h_fini(&h);
	/* through k (a prototype), down is a fine target: sum 0..t */
	h_init(&h);
	h_load_ok(&h, ptx);
	out = h_alloc(&h, 32 * 4, NULL);
	f = var_u64(&h, "dp", 0);
	h_launch_ok(&h, "k", H_D1(1), H_D1(16), 0, H_ARGS(&out, &f));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 16; t++)
		cr_expect_eq(got[t], t * (t + 1) / 2, "thread %u: %u", t, got[t]);
	h_fini(&h);
}

/* A kernel that reaches no dynamic call keeps its local memory; one that
 * does gets the stack on top of it. */
Test(calls, only_kernels_that_reach_dynamic_calls_get_a_stack)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ptx);
	cr_expect(h_func(m, "k")->uses_stack);
	cr_expect(h_func(m, "k3")->uses_stack);
	cr_expect(h_func(m, "twice")->addr_taken);
	cr_expect(h_func(m, "down")->addr_taken);
	cr_expect(!h_func(m, "k3")->addr_taken);
	h_fini(&h);
	h_init(&h);
	m = h_load_ok(&h, H_PTX_HEAD ".func f()\n{\n\tret;\n}\n.visible .entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n");
	cr_expect(!h_func(m, "k")->uses_stack);
	cr_expect_eq(m->ndcalls, 0);
	h_fini(&h);
}

/* Penny's compiler and spilling do not transform dynamic calls: they
 * refuse the module, naming the call. */
Test(calls, transformations_refuse_dynamic_calls)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ptx);
	char msg[256] = "";
	cr_expect_eq(sc__pennyc_compile(m, &(sc_pennyc_opts_t){.storage = SC_PENNY_STORE_GLOBAL}, NULL, msg, sizeof msg),
	             SC_EINVAL);
	cr_expect(strstr(msg, "t.ptx: 'down' makes a recursive call (PTX line ") &&
	          strstr(msg, "Penny's compiler does not transform recursive or indirect calls"), "%s", msg);
	h_fini(&h);
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.cfg.max_regs_per_thread = 4; /* the kernels need more: a spill round would run */
	cr_expect_neq(h_load(&h, ptx), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "spilling (max_regs) does not transform recursive or indirect calls"),
	          "%s", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
}

/* The warp's call-stack depth is state: the state hash sees it (early
 * termination compares hashes). */
static uint64_t csp_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)cycle;
	uint64_t *hs = ctx;
	sc_warp_t *w = &g->sms[0].warps[0];
	hs[0] = sc_state_hash(g);
	hs[2] = w->csp;
	w->csp += 16;
	hs[1] = sc_state_hash(g);
	w->csp -= 16;
	return UINT64_MAX;
}

Test(calls, call_stack_depth_in_state_hash)
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 1;
	h_load_ok(&h, ptx);
	uint64_t out = h_alloc(&h, 32 * 4, NULL), hs[3] = {0, 0, 0};
	uint32_t n = 0;
	sc_set_pause(h.gpu, 300, csp_pause, hs);
	h_launch_ok(&h, "k3", H_D1(1), H_D1(16), 0, H_ARGS(&out, &n));
	cr_expect_gt(hs[2], 0, "paused inside the recursion");
	cr_expect_neq(hs[0], hs[1]);
	h_fini(&h);
}

/* acc(up, n): each activation keeps n in its own .local buf and hands the
 * deeper call a pointer to it; back from the call it adds what its caller's
 * buf holds (n + 1) and 1000 x its own (n). Static frames would make the
 * pointer name the deeper activation's buf: n, not n + 1. */
static const char ptx_frames[] = H_PTX_HEAD
	".func (.param .b32 r) acc(.param .b64 up, .param .b32 n)\n"
	"{\n\t.local .align 4 .b8 buf[4];\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<3>;\n"
	"\tld.param.u64 %rd1, [up];\n\tld.param.u32 %r1, [n];\n\tmov.u64 %rd2, buf;\n\tst.local.u32 [buf], %r1;\n"
	"\tsetp.eq.s32 %p1, %r1, 0;\n\tmov.u32 %r3, 0;\n\t@%p1 bra DONE;\n\tsub.s32 %r2, %r1, 1;\n"
	"\t{ .param .b64 a;\n\tst.param.b64 [a], %rd2;\n\t.param .b32 b;\n\tst.param.b32 [b], %r2;\n"
	"\t.param .b32 x;\n\tcall.uni (x), acc, (a, b);\n\tld.param.b32 %r3, [x];\n\t}\n"
	"DONE:\n\tsetp.eq.s64 %p2, %rd1, 0;\n\t@%p2 bra END;\n\tld.local.u32 %r4, [%rd1];\n\tadd.s32 %r3, %r3, %r4;\n"
	"\tld.local.u32 %r5, [buf];\n\tmul.lo.s32 %r5, %r5, 1000;\n\tadd.s32 %r3, %r3, %r5;\n"
	"END:\n\tst.param.b32 [r], %r3;\n\tret;\n}\n"
	".visible .entry k5(.param .u64 out)\n"
	"{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd1, 0;\n\tld.param.u64 %rd2, [out];\n"
	"\t{ .param .b64 a;\n\tst.param.b64 [a], %rd1;\n\t.param .b32 b;\n\tst.param.b32 [b], %r1;\n"
	"\t.param .b32 x;\n\tcall.uni (x), acc, (a, b);\n\tld.param.b32 %r2, [x];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n";

/* Runs k5 over 8 threads of text in mode regs and checks acc(0, t). */
static void frames_run(const char *text, sc_regs_t regs)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = regs;
	h_load_ok(&h, text);
	uint64_t out = h_alloc(&h, 8 * 4, NULL);
	uint32_t got[8];
	h_launch_ok(&h, "k5", H_D1(1), H_D1(8), 0, H_ARGS(&out));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 8; t++)
		cr_expect_eq(got[t], t * (t + 1) / 2 + 1000 * t * (t - (t > 0)) / 2, "%s mode, thread %u: %u",
		             sc_regs_name(regs), t, got[t]);
	h_fini(&h);
}

/* Each activation of a recursive function has its own .local data: a
 * pointer to the caller's, handed down, names the caller's (in every
 * register mode, and in the PTX written back, which names the variable
 * as the source did). */
Test(calls, each_activation_has_its_own_frame)
{
	frames_run(ptx_frames, SC_REGS_UNALLOC);
	frames_run(ptx_frames, SC_REGS_ALLOC);
	frames_run(ptx_frames, SC_REGS_PTX);
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx_frames);
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	cr_assert_eq(sc_module_emit_ptx(h.mod, mf), 0);
	fclose(mf);
	h_fini(&h);
	cr_expect(strstr(buf, "mov.u64 %rd2, buf;") && strstr(buf, "st.local.u32 [buf], %r1;") &&
	          strstr(buf, "ld.local.u32 %r5, [buf];"), "%s", buf);
	frames_run(buf, SC_REGS_UNALLOC);
	free(buf);
}

/* In a function that may recurse, a .local variable's address is taken by
 * mov.u64 or used as [var+offset]; anything else is refused with the line. */
Test(calls, recursive_frame_address_forms)
{
	char text[sizeof ptx_frames + 64];
	snprintf(text, sizeof text, "%s", ptx_frames);
	char *at = strstr(text, "mov.u64 %rd2, buf;");
	cr_assert(at);
	memmove(at + 25, at + 18, strlen(at + 18) + 1);
	memcpy(at, "cvta.local.u64 %rd2, buf;", 25);
	h_ctx_t h;
	h_init(&h);
	cr_expect_neq(h_load(&h, text), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "t.ptx:12:23: ") &&
	          strstr(sc_gpu_errmsg(h.gpu), "'acc' may recurse: the address of its .local variable 'buf' is taken by "
	                                       "mov.u64 only"), "%s", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
}

/* tri(n) = tri(n-1) + tri(n-2) + tri(n-3), 1 below 3: three call
 * sequences one after another, whose .param variables share one area of
 * tri's frame; pair(n) = pair(n-1) + 2 pair(n-2), n below 2: its two calls'
 * sequences interleave (both arguments stored before either call), so each
 * keeps its own .param variables. */
static const char ptx_share[] = H_PTX_HEAD
	".func (.param .b32 r) tri(.param .b32 n)\n"
	"{\n\t.reg .b32 %r<8>;\n\t.reg .pred %p1;\n"
	"\tld.param.u32 %r1, [n];\n\tsetp.lt.s32 %p1, %r1, 3;\n\tmov.u32 %r7, 1;\n\t@%p1 bra DONE;\n"
	"\tsub.s32 %r2, %r1, 1;\n\tsub.s32 %r3, %r1, 2;\n\tsub.s32 %r4, %r1, 3;\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r2;\n\t.param .b32 x;\n\tcall.uni (x), tri, (a);\n"
	"\tld.param.b32 %r5, [x];\n\t}\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r3;\n\t.param .b32 x;\n\tcall.uni (x), tri, (a);\n"
	"\tld.param.b32 %r6, [x];\n\t}\n\tadd.s32 %r7, %r5, %r6;\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r4;\n\t.param .b32 x;\n\tcall.uni (x), tri, (a);\n"
	"\tld.param.b32 %r5, [x];\n\t}\n\tadd.s32 %r7, %r7, %r5;\n"
	"DONE:\n\tst.param.b32 [r], %r7;\n\tret;\n}\n"
	".func (.param .b64 r) pair(.param .b64 n)\n"
	"{\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p1;\n"
	"\tld.param.u64 %rd1, [n];\n\tmov.u64 %rd7, %rd1;\n\tsetp.lt.u64 %p1, %rd1, 2;\n\t@%p1 bra DONE;\n"
	"\tsub.s64 %rd2, %rd1, 1;\n\tsub.s64 %rd3, %rd1, 2;\n"
	"\t{ .param .b64 a1;\n\t.param .b64 a2;\n\t.param .b64 x1;\n\t.param .b64 x2;\n"
	"\tst.param.b64 [a1], %rd2;\n\tst.param.b64 [a2], %rd3;\n"
	"\tcall.uni (x1), pair, (a1);\n\tcall.uni (x2), pair, (a2);\n"
	"\tld.param.b64 %rd5, [x1];\n\tld.param.b64 %rd6, [x2];\n\t}\n"
	"\tshl.b64 %rd6, %rd6, 1;\n\tadd.s64 %rd7, %rd5, %rd6;\n"
	"DONE:\n\tst.param.b64 [r], %rd7;\n\tret;\n}\n"
	".visible .entry k6(.param .u64 out)\n"
	"{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<8>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd2, [out];\n"
	"\t{ .param .b32 a;\n\tst.param.b32 [a], %r1;\n\t.param .b32 x;\n\tcall.uni (x), tri, (a);\n"
	"\tld.param.b32 %r2, [x];\n\t}\n"
	"\tcvt.u64.u32 %rd5, %r1;\n"
	"\t{ .param .b64 a;\n\tst.param.b64 [a], %rd5;\n\t.param .b64 x;\n\tcall.uni (x), pair, (a);\n"
	"\tld.param.b64 %rd6, [x];\n\t}\n"
	"\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n"
	"\tst.global.u64 [%rd4+8], %rd6;\n\tret;\n}\n";

static uint32_t tri(uint32_t n) { return n < 3 ? 1 : tri(n - 1) + tri(n - 2) + tri(n - 3); }
static uint64_t pair(uint64_t n) { return n < 2 ? n : pair(n - 1) + 2 * pair(n - 2); }

/* A function's dynamic calls share one area for their .param variables
 * when their call sequences follow each other, and keep their own when
 * they interleave: the frames take what one call needs, and the results
 * stay right either way. */
Test(calls, call_sequences_share_their_parameters)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ptx_share);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!strcmp(m->funcs[i].name, "tri"))
			cr_expect_eq(m->funcs[i].stack_frame, 16, "tri: three calls of 8 bytes in one area");
		if (!strcmp(m->funcs[i].name, "pair"))
			cr_expect_eq(m->funcs[i].stack_frame, 32, "pair: two interleaved calls of 16 bytes each");
	}
	uint64_t out = h_alloc(&h, 12 * 16, NULL);
	uint8_t got[12 * 16];
	h_launch_ok(&h, "k6", H_D1(1), H_D1(12), 0, H_ARGS(&out));
	h_read(&h, got, out, sizeof got);
	for (uint32_t t = 0; t < 12; t++) {
		uint32_t a;
		uint64_t b;
		memcpy(&a, got + 16 * t, 4);
		memcpy(&b, got + 16 * t + 8, 8);
		cr_expect_eq(a, tri(t), "tri(%u): %u", t, a);
		cr_expect_eq(b, pair(t), "pair(%u): %llu", t, (unsigned long long)b);
	}
	h_fini(&h);
}
