/* Control flow end to end (simcore/sm.c, cfg.c): SIMT divergence and
 * reconvergence at immediate post-dominators, loops with per-thread trip
 * counts, early exits, calls from divergent code, and CTA barriers
 * (bar.sync with ids and counts, bar.arrive; bar.red is a plain-text case,
 * tests/simcore/insn/warp.txt). Each kernel's per-thread output is checked
 * against a host model; activemask shows where the warp is reconverged. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

/* %r0 = tid.x, %r3 = global index, %rd2 = out + %r3 * BYTES. */
#define PRO(bytes)                                                                   \
	"	.reg .b32 %r<24>;\n"                                                         \
	"	.reg .b64 %rd<8>;\n"                                                         \
	"	.reg .pred %p<8>;\n"                                                         \
	"	mov.u32 %r0, %tid.x;\n"                                                      \
	"	mov.u32 %r1, %ntid.x;\n"                                                     \
	"	mov.u32 %r2, %ctaid.x;\n"                                                    \
	"	mad.lo.u32 %r3, %r2, %r1, %r0;\n"                                            \
	"	mul.wide.u32 %rd1, %r3, " #bytes ";\n"                                   \
	"	ld.param.u64 %rd2, [out];\n"                                                 \
	"	add.s64 %rd2, %rd2, %rd1;\n"

/* Lanes of a warp of `n` threads starting at thread `base` for which
 * pred(t) holds. */
static uint32_t lanes(uint32_t base, uint32_t n, bool (*pred)(uint32_t))
{
	uint32_t m = 0;
	for (uint32_t l = 0; l < 32 && base + l < n; l++)
		if (pred(base + l))
			m |= 1u << l;
	return m;
}

static uint32_t full_mask(uint32_t base, uint32_t n)
{
	uint32_t k = n - base >= 32 ? 32 : n - base;
	return k == 32 ? 0xffffffffu : (1u << k) - 1;
}

/* ---------------------------------------------------------------- if/else */

static bool odd(uint32_t t) { return t & 1; }
static bool odd_b2(uint32_t t) { return (t & 1) && (t & 2); }
static bool even_b4(uint32_t t) { return !(t & 1) && (t & 4); }
static bool even_nb4_b8(uint32_t t) { return !(t & 1) && !(t & 4) && (t & 8); }

/* if (t&1) { if (t&2) A else B; join1 } else { if (t&4) C else { if (t&8) D
 * else E } join2 } join: out = value, masks at A, C, D, join1 and join. */
Test(ctl, nested_if_else)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO(32)
		"	mov.u32 %r10, 0;\n"
		"	mov.u32 %r11, 0;\n"
		"	mov.u32 %r12, 0;\n"
		"	mov.u32 %r13, 0;\n"
		"	and.b32 %r4, %r0, 1;\n"
		"	setp.eq.u32 %p1, %r4, 0;\n"
		"	@%p1 bra L_even;\n"
		"	and.b32 %r4, %r0, 2;\n"
		"	setp.eq.u32 %p2, %r4, 0;\n"
		"	@%p2 bra L_b;\n"
		"	mov.u32 %r5, 1;\n"
		"	activemask.b32 %r10;\n"
		"	bra.uni L_join1;\n"
		"L_b:\n"
		"	mov.u32 %r5, 2;\n"
		"L_join1:\n"
		"	add.u32 %r5, %r5, 10;\n"
		"	activemask.b32 %r11;\n"
		"	bra.uni L_join;\n"
		"L_even:\n"
		"	and.b32 %r4, %r0, 4;\n"
		"	setp.ne.u32 %p3, %r4, 0;\n"
		"	@!%p3 bra L_notc;\n"
		"	mov.u32 %r5, 3;\n"
		"	activemask.b32 %r10;\n"
		"	bra.uni L_join2;\n"
		"L_notc:\n"
		"	and.b32 %r4, %r0, 8;\n"
		"	setp.ne.u32 %p4, %r4, 0;\n"
		"	@%p4 bra L_d;\n"
		"	mov.u32 %r5, 5;\n"
		"	bra.uni L_join2;\n"
		"L_d:\n"
		"	mov.u32 %r5, 4;\n"
		"	activemask.b32 %r12;\n"
		"L_join2:\n"
		"	add.u32 %r5, %r5, 20;\n"
		"	activemask.b32 %r11;\n"
		"L_join:\n"
		"	add.u32 %r5, %r5, 100;\n"
		"	activemask.b32 %r13;\n"
		"	st.global.v2.u32 [%rd2], {%r5, %r10};\n"
		"	st.global.v4.u32 [%rd2+16], {%r11, %r12, %r13, %r3};\n"
		"	ret;\n"
		"}\n";
	enum { T = 80 }; /* the last warp is partial */
	h_ctx_t h;
	h_init(&h);
	uint32_t o[8 * T];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(T), o, 8 * T);
	for (uint32_t t = 0; t < T; t++) {
		const uint32_t *w = &o[8 * t];
		uint32_t base = t & ~31u;
		uint32_t v, ma = 0, mj = 0, md = 0;
		if (t & 1) {
			v = (t & 2) ? 1 : 2;
			v += 10;
			if (t & 2)
				ma = lanes(base, T, odd_b2);
			mj = lanes(base, T, odd);
		} else {
			if (t & 4) {
				v = 3;
				ma = lanes(base, T, even_b4);
			} else if (t & 8) {
				v = 4;
				md = lanes(base, T, even_nb4_b8);
			} else {
				v = 5;
			}
			v += 20;
			mj = full_mask(base, T) & ~lanes(base, T, odd);
		}
		v += 100;
		cr_expect_eq(w[0], v, "thread %u: value %u, want %u", t, w[0], v);
		cr_expect_eq(w[1], ma, "thread %u: mask in A/C 0x%08x, want 0x%08x", t, w[1], ma);
		cr_expect_eq(w[4], mj, "thread %u: mask at the inner join 0x%08x, want 0x%08x", t, w[4], mj);
		cr_expect_eq(w[5], md, "thread %u: mask in D 0x%08x, want 0x%08x", t, w[5], md);
		cr_expect_eq(w[6], full_mask(base, T), "thread %u: not reconverged: 0x%08x", t, w[6]);
		cr_expect_eq(w[7], t);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- loops */

/* for (i = 0; i < trip(t); i++) { if (i % 3 == 0) continue;
 *   if (i * t > 200) break; s += i; }  with trip(t) = t % 37. */
static void loop_model(uint32_t t, uint32_t *s, uint32_t *iters)
{
	*s = 0;
	*iters = 0;
	for (uint32_t i = 0; i < t % 37; i++) {
		(*iters)++;
		if (i % 3 == 0)
			continue;
		if (i * t > 200)
			break;
		*s += i;
	}
}

Test(ctl, loops_break_continue)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO(16)
		"	rem.u32 %r4, %r3, 37;          // trip count\n"
		"	mov.u32 %r5, 0;                // i\n"
		"	mov.u32 %r6, 0;                // s\n"
		"	mov.u32 %r7, 0;                // iterations\n"
		"	mov.u32 %r9, 0;                // largest warp divergence seen in the loop\n"
		"L_head:\n"
		"	setp.ge.u32 %p1, %r5, %r4;\n"
		"	@%p1 bra L_exit;\n"
		"	add.u32 %r7, %r7, 1;\n"
		"	rem.u32 %r8, %r5, 3;\n"
		"	setp.eq.u32 %p2, %r8, 0;\n"
		"	@%p2 bra L_continue;\n"
		"	mul.lo.u32 %r8, %r5, %r3;\n"
		"	setp.gt.u32 %p3, %r8, 200;\n"
		"	@%p3 bra L_exit;                // break\n"
		"	add.u32 %r6, %r6, %r5;\n"
		"L_continue:\n"
		"	add.u32 %r5, %r5, 1;\n"
		"	bra.uni L_head;\n"
		"L_exit:\n"
		"	activemask.b32 %r10;\n"
		"	st.global.v4.u32 [%rd2], {%r6, %r7, %r10, %r5};\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 2, T = 96, N = CTAS * T };
	h_ctx_t h;
	h_init(&h);
	uint32_t o[4 * N];
	h_run_u32(&h, ptx, "k", H_D1(CTAS), H_D1(T), o, 4 * N);
	for (uint32_t g = 0; g < N; g++) {
		uint32_t s, it;
		loop_model(g, &s, &it);
		cr_expect_eq(o[4 * g], s, "thread %u: sum %u, want %u", g, o[4 * g], s);
		cr_expect_eq(o[4 * g + 1], it, "thread %u: %u iterations, want %u", g, o[4 * g + 1], it);
		cr_expect_eq(o[4 * g + 2], 0xffffffffu, "thread %u: not reconverged after the loop: 0x%08x", g,
		             o[4 * g + 2]);
	}
	h_fini(&h);
}

/* A loop where every lane has its own trip count 0..31 and leaves one by
 * one: each exit is a divergence, far more than the SIMT stack's depth if
 * every one took an entry. */
Test(ctl, loop_lanes_leave_one_by_one)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO(4)
		"	and.b32 %r4, %r0, 31;\n"
		"	mul.lo.u32 %r4, %r4, 3;        // 0..93 iterations\n"
		"	mov.u32 %r5, 0;\n"
		"	mov.u32 %r6, 1;\n"
		"L_head:\n"
		"	setp.ge.u32 %p1, %r5, %r4;\n"
		"	@%p1 bra L_exit;\n"
		"	mad.lo.u32 %r6, %r6, 3, %r5;\n"
		"	add.u32 %r5, %r5, 1;\n"
		"	bra.uni L_head;\n"
		"L_exit:\n"
		"	st.global.u32 [%rd2], %r6;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h.cfg.simt_stack_depth = 4;
	uint32_t o[64];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(64), o, 64);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t v = 1;
		for (uint32_t i = 0; i < (t & 31) * 3; i++)
			v = v * 3 + i;
		cr_expect_eq(o[t], v, "thread %u", t);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- exits */

static bool mult5(uint32_t t) { return t % 5 == 0; }

/* Some threads return early, one whole warp exits, the rest go on through
 * divergent code and a barrier: activemask shows only the live lanes. */
Test(ctl, early_exit)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO(8)
		"	setp.ge.u32 %p1, %r0, 96;      // warp 3 leaves at once\n"
		"	@%p1 bra L_warp_exit;\n"
		"	rem.u32 %r4, %r0, 5;\n"
		"	setp.ne.u32 %p2, %r4, 0;\n"
		"	@%p2 bra L_live;\n"
		"	mov.u32 %r5, 7;\n"
		"	st.global.u32 [%rd2], %r5;\n"
		"	ret;                          // returns from a kernel: the thread exits\n"
		"L_live:\n"
		"	and.b32 %r6, %r0, 1;\n"
		"	setp.eq.u32 %p3, %r6, 0;\n"
		"	@%p3 mov.u32 %r7, 1000;\n"
		"	@!%p3 mov.u32 %r7, 2000;\n"
		"	bar.sync 0;\n"
		"	add.u32 %r7, %r7, %r0;\n"
		"	activemask.b32 %r8;\n"
		"	st.global.v2.u32 [%rd2], {%r7, %r8};\n"
		"	exit;\n"
		"L_warp_exit:\n"
		"	mov.u32 %r5, 9;\n"
		"	st.global.u32 [%rd2], %r5;\n"
		"	exit;\n"
		"}\n";
	enum { T = 128 };
	h_ctx_t h;
	h_init(&h);
	uint32_t o[2 * T];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(T), o, 2 * T);
	for (uint32_t t = 0; t < T; t++) {
		if (t >= 96) {
			cr_expect_eq(o[2 * t], 9, "thread %u", t);
			cr_expect_eq(o[2 * t + 1], 0, "thread %u", t);
		} else if (t % 5 == 0) {
			cr_expect_eq(o[2 * t], 7, "thread %u", t);
			cr_expect_eq(o[2 * t + 1], 0, "thread %u", t);
		} else {
			uint32_t base = t & ~31u;
			cr_expect_eq(o[2 * t], ((t & 1) ? 2000 : 1000) + t, "thread %u", t);
			uint32_t m = full_mask(base, T) & ~lanes(base, T, mult5);
			cr_expect_eq(o[2 * t + 1], m, "thread %u: mask 0x%08x, want 0x%08x", t, o[2 * t + 1], m);
		}
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- calls */

/* collatz(n): steps to reach 1, capped at 50 — a loop with divergence of
 * its own inside a .func, called from both sides of a divergent branch. */
static uint32_t collatz(uint32_t n)
{
	uint32_t s = 0;
	while (n > 1 && s < 50) {
		n = (n & 1) ? 3 * n + 1 : n / 2;
		s++;
	}
	return s;
}

Test(ctl, calls_from_divergent_code)
{
	static const char ptx[] = H_PTX_HEAD
		".func (.param .b32 r) collatz(.param .b32 n)\n"
		"{\n"
		"	.reg .b32 %r<6>;\n"
		"	.reg .pred %p<4>;\n"
		"	ld.param.b32 %r1, [n];\n"
		"	mov.u32 %r2, 0;\n"
		"L_head:\n"
		"	setp.le.u32 %p1, %r1, 1;\n"
		"	setp.ge.or.u32 %p1, %r2, 50, %p1;\n"
		"	@%p1 bra L_done;\n"
		"	and.b32 %r3, %r1, 1;\n"
		"	setp.eq.u32 %p2, %r3, 0;\n"
		"	@%p2 bra L_even;\n"
		"	mad.lo.u32 %r1, %r1, 3, 1;\n"
		"	bra.uni L_next;\n"
		"L_even:\n"
		"	shr.u32 %r1, %r1, 1;\n"
		"L_next:\n"
		"	add.u32 %r2, %r2, 1;\n"
		"	bra.uni L_head;\n"
		"L_done:\n"
		"	st.param.b32 [r], %r2;\n"
		"	ret;\n"
		"}\n"
		".func (.param .b32 m) mask_here()\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	activemask.b32 %r1;\n"
		"	st.param.b32 [m], %r1;\n"
		"	ret;\n"
		"}\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO(16)
		"	and.b32 %r4, %r0, 3;\n"
		"	setp.eq.u32 %p1, %r4, 0;\n"
		"	@%p1 bra L_other;\n"
		"	{\n"
		"	.param .b32 a;\n"
		"	.param .b32 rv;\n"
		"	st.param.b32 [a], %r3;\n"
		"	call.uni (rv), collatz, (a);\n"
		"	ld.param.b32 %r5, [rv];\n"
		"	}\n"
		"	{\n"
		"	.param .b32 rv;\n"
		"	call (rv), mask_here, ();\n"
		"	ld.param.b32 %r6, [rv];\n"
		"	}\n"
		"	bra.uni L_join;\n"
		"L_other:\n"
		"	add.u32 %r7, %r3, 1000;\n"
		"	{\n"
		"	.param .b32 a;\n"
		"	.param .b32 rv;\n"
		"	st.param.b32 [a], %r7;\n"
		"	call (rv), collatz, (a);\n"
		"	ld.param.b32 %r5, [rv];\n"
		"	}\n"
		"	add.u32 %r5, %r5, 100;\n"
		"	{\n"
		"	.param .b32 rv;\n"
		"	call (rv), mask_here, ();\n"
		"	ld.param.b32 %r6, [rv];\n"
		"	}\n"
		"L_join:\n"
		"	activemask.b32 %r8;\n"
		"	st.global.v2.u32 [%rd2], {%r5, %r6};\n"
		"	st.global.u32 [%rd2+8], %r8;\n"
		"	ret;\n"
		"}\n";
	enum { T = 64 };
	h_ctx_t h;
	h_init(&h);
	uint32_t o[4 * T];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(T), o, 4 * T);
	for (uint32_t t = 0; t < T; t++) {
		uint32_t want = (t & 3) ? collatz(t) : collatz(t + 1000) + 100;
		uint32_t m = (t & 3) ? 0xeeeeeeeeu : 0x11111111u;
		cr_expect_eq(o[4 * t], want, "thread %u: %u, want %u", t, o[4 * t], want);
		cr_expect_eq(o[4 * t + 1], m, "thread %u: mask in the callee 0x%08x, want 0x%08x", t, o[4 * t + 1], m);
		cr_expect_eq(o[4 * t + 2], 0xffffffffu, "thread %u: not reconverged after the calls", t);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- barriers */

/* Tree reduction in shared memory over 256 threads with bar.sync. */
Test(ctl, barrier_reduction)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 in, .param .u64 out)\n"
		"{\n"
		"	.shared .align 4 .u32 buf[256];\n"
		"	.reg .b32 %r<12>;\n"
		"	.reg .b64 %rd<8>;\n"
		"	.reg .pred %p<3>;\n"
		"	mov.u32 %r0, %tid.x;\n"
		"	mov.u32 %r1, %ctaid.x;\n"
		"	mad.lo.u32 %r2, %r1, 256, %r0;\n"
		"	ld.param.u64 %rd1, [in];\n"
		"	mul.wide.u32 %rd2, %r2, 4;\n"
		"	add.s64 %rd1, %rd1, %rd2;\n"
		"	ld.global.u32 %r3, [%rd1];\n"
		"	mov.u32 %r4, buf;\n"
		"	shl.b32 %r5, %r0, 2;\n"
		"	add.u32 %r5, %r4, %r5;\n"
		"	st.shared.u32 [%r5], %r3;\n"
		"	bar.sync 0;\n"
		"	mov.u32 %r6, 128;\n"
		"L_step:\n"
		"	setp.ge.u32 %p1, %r0, %r6;\n"
		"	@%p1 bra L_skip;\n"
		"	shl.b32 %r7, %r6, 2;\n"
		"	add.u32 %r7, %r5, %r7;\n"
		"	ld.shared.u32 %r8, [%r7];\n"
		"	ld.shared.u32 %r9, [%r5];\n"
		"	add.u32 %r9, %r9, %r8;\n"
		"	st.shared.u32 [%r5], %r9;\n"
		"L_skip:\n"
		"	bar.sync 0;\n"
		"	shr.u32 %r6, %r6, 1;\n"
		"	setp.ne.u32 %p2, %r6, 0;\n"
		"	@%p2 bra L_step;\n"
		"	setp.ne.u32 %p1, %r0, 0;\n"
		"	@%p1 bra L_end;\n"
		"	ld.shared.u32 %r10, [buf];\n"
		"	ld.param.u64 %rd3, [out];\n"
		"	mul.wide.u32 %rd4, %r1, 4;\n"
		"	add.s64 %rd3, %rd3, %rd4;\n"
		"	st.global.u32 [%rd3], %r10;\n"
		"L_end:\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 5, T = 256 };
	static uint32_t in[CTAS * T];
	for (uint32_t i = 0; i < CTAS * T; i++)
		in[i] = i * 2654435761u >> 7;
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 2;
	h_load_ok(&h, ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, CTAS * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), 0, H_ARGS(&din, &dout));
	uint32_t o[CTAS];
	h_read(&h, o, dout, sizeof o);
	for (uint32_t c = 0; c < CTAS; c++) {
		uint32_t s = 0;
		for (uint32_t t = 0; t < T; t++)
			s += in[c * T + t];
		cr_expect_eq(o[c], s, "cta %u: %u, want %u", c, o[c], s);
	}
	h_fini(&h);
}

/* Two independent pairs of warps, each synchronizing on its own barrier id
 * with a thread count: warp 2k writes, bar.sync id, warp 2k+1 reads. A
 * second round swaps the roles through bar.arrive (producers do not wait). */
Test(ctl, barrier_ids_counts_arrive)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.shared .align 4 .u32 box[128];\n"
		"	.shared .align 4 .u32 box2[128];\n" PRO(8)
		"	shr.u32 %r4, %r0, 5;           // warp\n"
		"	and.b32 %r5, %r4, 1;           // 0 producer, 1 consumer\n"
		"	shr.u32 %r6, %r4, 1;\n"
		"	add.u32 %r6, %r6, 1;           // barrier id 1 or 2\n"
		"	and.b32 %r7, %r0, 31;\n"
		"	shl.b32 %r8, %r7, 2;\n"
		"	shl.b32 %r9, %r6, 7;           // 128 bytes per pair\n"
		"	add.u32 %r8, %r8, %r9;\n"
		"	mov.u32 %r10, box;\n"
		"	add.u32 %r10, %r10, %r8;\n"
		"	mov.u32 %r11, box2;\n"
		"	add.u32 %r11, %r11, %r8;\n"
		"	add.u32 %r16, %r6, 2;          // ids 3, 4 for round two\n"
		"	setp.ne.u32 %p1, %r5, 0;\n"
		"	@%p1 bra L_consumer;\n"
		"	mad.lo.u32 %r12, %r0, 7, 3;\n"
		"	st.shared.u32 [%r10 - 128], %r12;\n"
		"	bar.sync %r6, 64;\n"
		"	bar.sync %r16, 64;             // round two: wait for the consumer\n"
		"	ld.shared.u32 %r13, [%r11 - 128];\n"
		"	bra.uni L_done;\n"
		"L_consumer:\n"
		"	bar.sync %r6, 64;\n"
		"	ld.shared.u32 %r13, [%r10 - 128];\n"
		"	mul.lo.u32 %r14, %r13, 2;\n"
		"	st.shared.u32 [%r11 - 128], %r14;\n"
		"	bar.arrive %r16, 64;           // does not wait\n"
		"L_done:\n"
		"	st.global.v2.u32 [%rd2], {%r13, %r6};\n"
		"	ret;\n"
		"}\n";
	enum { T = 128 };
	h_ctx_t h;
	h_init(&h);
	uint32_t o[2 * T];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(T), o, 2 * T);
	for (uint32_t t = 0; t < T; t++) {
		uint32_t warp = t / 32, lane = t % 32;
		uint32_t producer = (warp & ~1u) * 32 + lane;
		uint32_t v = producer * 7 + 3;
		uint32_t want = (warp & 1) ? v : 2 * v;
		cr_expect_eq(o[2 * t], want, "thread %u: %u, want %u", t, o[2 * t], want);
		cr_expect_eq(o[2 * t + 1], warp / 2 + 1, "thread %u: barrier id", t);
	}
	h_fini(&h);
}
