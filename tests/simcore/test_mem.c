/* Memory instructions end to end (simcore/sm.c ex_ldst, ex_atom): ld/st in
 * every state space, vectors, generic addresses through cvta, and atomics
 * under contention whose results are checked against counts and sums
 * computed here on the host. Sub-word loads and stores and atom.cas on one
 * thread are plain-text cases (tests/simcore/insn/mem.txt). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Registers and the global thread index: %r3 = ctaid.x * ntid.x + tid.x,
 * %rd1 = 4 * %r3. */
#define PRO                                                                          \
	"	.reg .b32 %r<20>;\n"                                                         \
	"	.reg .b64 %rd<10>;\n"                                                        \
	"	.reg .pred %p<4>;\n"                                                         \
	"	mov.u32 %r0, %tid.x;\n"                                                      \
	"	mov.u32 %r1, %ntid.x;\n"                                                     \
	"	mov.u32 %r2, %ctaid.x;\n"                                                    \
	"	mad.lo.u32 %r3, %r2, %r1, %r0;\n"                                            \
	"	mul.wide.u32 %rd1, %r3, 4;\n"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* ---------------------------------------------------------------- global */

Test(mem, global_vectors)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 in2, .param .u64 out2)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [in];\n"
		"	ld.param.u64 %rd3, [out];\n"
		"	shl.b64 %rd4, %rd1, 2;           // 16 bytes per thread\n"
		"	add.s64 %rd2, %rd2, %rd4;\n"
		"	add.s64 %rd3, %rd3, %rd4;\n"
		"	ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd2];\n"
		"	st.global.v4.u32 [%rd3], {%r7, %r6, %r5, %r4};\n"
		"	ld.param.u64 %rd5, [in2];\n"
		"	ld.param.u64 %rd6, [out2];\n"
		"	add.s64 %rd5, %rd5, %rd4;\n"
		"	add.s64 %rd6, %rd6, %rd4;\n"
		"	ld.global.nc.v2.u64 {%rd7, %rd8}, [%rd5];\n"
		"	st.global.v2.u64 [%rd6], {%rd8, %rd7};\n"
		"	ld.global.v2.u32 {%r8, _}, [%rd5+8];\n"
		"	st.volatile.global.u32 [%rd3+4], %r8; // overwrite element 1\n"
		"	ret;\n"
		"}\n";
	enum { N = 96 };
	uint32_t in[4 * N], out[4 * N];
	uint64_t in2[2 * N], out2[2 * N];
	for (uint32_t i = 0; i < 4 * N; i++)
		in[i] = i * 2654435761u;
	for (uint32_t i = 0; i < 2 * N; i++)
		in2[i] = 0x0123456789abcdefull * (i + 1);
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, sizeof out, NULL);
	uint64_t din2 = h_alloc(&h, sizeof in2, in2), dout2 = h_alloc(&h, sizeof out2, NULL);
	h_launch_ok(&h, "k", H_D1(3), H_D1(32), 0, H_ARGS(&din, &dout, &din2, &dout2));
	h_read(&h, out, dout, sizeof out);
	h_read(&h, out2, dout2, sizeof out2);
	for (uint32_t t = 0; t < N; t++) {
		cr_expect_eq(out[4 * t + 0], in[4 * t + 3], "thread %u", t);
		cr_expect_eq(out[4 * t + 1], (uint32_t)in2[2 * t + 1], "thread %u", t);
		cr_expect_eq(out[4 * t + 2], in[4 * t + 1], "thread %u", t);
		cr_expect_eq(out[4 * t + 3], in[4 * t + 0], "thread %u", t);
		cr_expect_eq(out2[2 * t], in2[2 * t + 1], "thread %u", t);
		cr_expect_eq(out2[2 * t + 1], in2[2 * t], "thread %u", t);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- shared */

/* Several CTAs resident on one SM each see their own shared memory, static
 * and dynamic, addressed through 32- and 64-bit registers and symbols. */
Test(mem, shared_static_and_dynamic)
{
	static const char ptx[] = H_PTX_HEAD
		".shared .align 4 .u32 s[128];\n"
		".extern .shared .align 8 .b8 dyn[];\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [out];\n"
		"	add.s64 %rd2, %rd2, %rd1;\n"
		"	mad.lo.u32 %r4, %r2, 1000, %r0;  // a value unique to the CTA and thread\n"
		"	shl.b32 %r5, %r0, 2;\n"
		"	mov.u32 %r6, s;\n"
		"	add.u32 %r7, %r6, %r5;\n"
		"	st.shared.u32 [%r7], %r4;        // 32-bit register address\n"
		"	mov.u64 %rd3, dyn;\n"
		"	cvt.u64.u32 %rd4, %r5;\n"
		"	add.s64 %rd5, %rd3, %rd4;\n"
		"	add.u32 %r8, %r4, 500000;\n"
		"	st.shared.u32 [%rd5], %r8;       // 64-bit register address\n"
		"	bar.sync 0;\n"
		"	sub.u32 %r9, %r1, 1;\n"
		"	sub.u32 %r9, %r9, %r0;           // the mirror thread\n"
		"	shl.b32 %r9, %r9, 2;\n"
		"	add.u32 %r10, %r6, %r9;\n"
		"	ld.shared.u32 %r11, [%r10];\n"
		"	cvt.u64.u32 %rd6, %r9;\n"
		"	add.s64 %rd7, %rd3, %rd6;\n"
		"	ld.shared.u32 %r12, [%rd7];\n"
		"	ld.shared.u32 %r13, [s+4];       // symbol + offset: thread 1's\n"
		"	add.u32 %r11, %r11, %r12;\n"
		"	add.u32 %r11, %r11, %r13;\n"
		"	st.global.u32 [%rd2], %r11;\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 4, T = 128 };
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 1; /* all four CTAs resident together */
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, CTAS * T * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), T * 4, H_ARGS(&d));
	cr_expect_geq(h_last(&h)->ctas_per_sm, CTAS, "the test needs all CTAs resident on the SM");
	cr_expect_eq(h_last(&h)->smem_per_cta, 2 * T * 4);
	uint32_t o[CTAS * T];
	h_read(&h, o, d, sizeof o);
	for (uint32_t c = 0; c < CTAS; c++)
		for (uint32_t t = 0; t < T; t++) {
			uint32_t m = T - 1 - t;
			uint32_t want = (c * 1000 + m) + (c * 1000 + m + 500000) + (c * 1000 + 1);
			cr_expect_eq(o[c * T + t], want, "cta %u thread %u: %u, want %u", c, t, o[c * T + t], want);
		}
	h_fini(&h);
}

/* ---------------------------------------------------------------- local */

Test(mem, local_private_per_thread)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.local .align 8 .b8 buf[64];\n" PRO
		"	ld.param.u64 %rd2, [out];\n"
		"	add.s64 %rd2, %rd2, %rd1;\n"
		"	mov.u64 %rd3, buf;\n"
		"	mov.u32 %r4, 0;\n"
		"	shl.b32 %r5, %r3, 4;\n"
		"L_fill:\n"
		"	add.u32 %r6, %r5, %r4;\n"
		"	mul.wide.u32 %rd4, %r4, 4;\n"
		"	add.s64 %rd5, %rd3, %rd4;\n"
		"	st.local.u32 [%rd5], %r6;\n"
		"	add.u32 %r4, %r4, 1;\n"
		"	setp.lt.u32 %p1, %r4, 16;\n"
		"	@%p1 bra L_fill;\n"
		"	mov.u32 %r7, 0;\n"
		"	mov.u32 %r4, 0;\n"
		"L_sum:\n"
		"	mul.wide.u32 %rd4, %r4, 4;\n"
		"	add.s64 %rd5, %rd3, %rd4;\n"
		"	ld.local.u32 %r6, [%rd5];\n"
		"	add.u32 %r7, %r7, %r6;\n"
		"	add.u32 %r4, %r4, 1;\n"
		"	setp.lt.u32 %p1, %r4, 16;\n"
		"	@%p1 bra L_sum;\n"
		"	and.b32 %r8, %r3, 15;\n"
		"	mul.wide.u32 %rd4, %r8, 4;\n"
		"	add.s64 %rd5, %rd3, %rd4;\n"
		"	ld.local.u32 %r9, [%rd5];\n"
		"	add.u32 %r7, %r7, %r9;\n"
		"	ld.local.v2.u32 {%r10, %r11}, [buf+56];\n"
		"	add.u32 %r7, %r7, %r11;\n"
		"	st.global.u32 [%rd2], %r7;\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 3, T = 96 };
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 1;
	uint32_t o[CTAS * T];
	h_run_u32(&h, ptx, "k", H_D1(CTAS), H_D1(T), o, CTAS * T);
	cr_expect_geq(h_last(&h)->local_per_thread, 64);
	for (uint32_t g = 0; g < CTAS * T; g++) {
		uint32_t want = (256 * g + 120) + (16 * g + (g & 15)) + (16 * g + 15);
		cr_expect_eq(o[g], want, "thread %u: %u, want %u", g, o[g], want);
	}
	h_fini(&h);
}

/* Local memory up to CUDA's 512 KiB per thread runs; one byte more, or
 * more local memory for the threads resident at once than flipsim holds
 * (4 GiB), is a launch error naming the kernel, local memory, the bytes per
 * thread and the limit. The grid bounds the threads resident at once. */
#define LOCAL_PTX(bytes)                                                             \
	H_PTX_HEAD                                                                       \
	".visible .entry k(.param .u64 out)\n"                                          \
	"{\n"                                                                           \
	"	.local .align 8 .b8 buf[" #bytes "];\n" PRO                                 \
	"	ld.param.u64 %rd2, [out];\n"                                                \
	"	add.s64 %rd2, %rd2, %rd1;\n"                                                \
	"	add.u32 %r4, %r3, 7;\n"                                                     \
	"	st.local.u32 [buf+524284], %r4;  // the last word of 512 KiB\n"            \
	"	st.local.u32 [buf], %r3;\n"                                                 \
	"	ld.local.u32 %r5, [buf+524284];\n"                                          \
	"	ld.local.u32 %r6, [buf];\n"                                                 \
	"	add.u32 %r5, %r5, %r6;\n"                                                   \
	"	st.global.u32 [%rd2], %r5;\n"                                               \
	"	ret;\n"                                                                     \
	"}\n"

Test(mem, local_512k_per_thread)
{
	h_ctx_t h;
	h_init(&h);
	uint32_t o[128];
	h_run_u32(&h, LOCAL_PTX(524288), "k", H_D1(2), H_D1(64), o, 128);
	cr_expect_eq(h_last(&h)->local_per_thread, 524288);
	for (uint32_t t = 0; t < 128; t++)
		cr_expect_eq(o[t], 2 * t + 7, "thread %u: %u", t, o[t]);
	h_fini(&h);
}

/* A launch of ptx's kernel k on grid x block that is refused with a
 * message holding want and, when given, also. */
static void local_refused(const char *ptx, uint32_t grid, uint32_t block, const char *want, const char *also)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 256, NULL);
	cr_assert_eq(h_launch(&h, "k", H_D1(grid), H_D1(block), 0, H_ARGS(&d)), SC_ELAUNCH);
	const char *m = sc_gpu_errmsg(h.gpu);
	cr_expect(strstr(m, want) && (!also || strstr(m, also)), "message '%s'", m);
	h_fini(&h);
}

Test(mem, local_per_thread_limit)
{
	local_refused(LOCAL_PTX(524289), 1, 32,
	              "kernel 'k' needs 524289 bytes of local memory per thread; CUDA allows at most 524288", NULL);
}

Test(mem, local_total_limit)
{
	/* gtx480: 15 SMs of several blocks of 256 threads, 512 KiB each */
	local_refused(LOCAL_PTX(524288), 10000, 256, "kernel 'k' needs 524288 bytes of local memory per thread, ",
	              " threads resident at once; flipsim holds at most 4096 MiB of local memory");
}

/* ---------------------------------------------------------------- const, param */

Test(mem, const_space)
{
	static const char ptx[] = H_PTX_HEAD
		".const .align 4 .u32 ctab[8] = {11, 22, 33, 44, 55, 66, 77, 88};\n"
		".const .align 8 .b8 cbytes[8] = {1, 2, 3, 4, 5, 6, 7, 0x80};\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [out];\n"
		"	add.s64 %rd2, %rd2, %rd1;\n"
		"	and.b32 %r4, %r3, 7;\n"
		"	mul.wide.u32 %rd3, %r4, 4;\n"
		"	mov.u64 %rd4, ctab;\n"
		"	add.s64 %rd4, %rd4, %rd3;\n"
		"	ld.const.u32 %r5, [%rd4];\n"
		"	ld.const.u32 %r6, [ctab+28];\n"
		"	ld.const.s8 %r7, [cbytes+7];\n"
		"	ld.const.v2.u32 {%r8, %r9}, [cbytes];\n"
		"	add.u32 %r5, %r5, %r6;\n"
		"	add.u32 %r5, %r5, %r7;\n"
		"	add.u32 %r5, %r5, %r9;\n"
		"	st.global.u32 [%rd2], %r5;\n"
		"	ret;\n"
		"}\n";
	static const uint32_t ctab[8] = {11, 22, 33, 44, 55, 66, 77, 88};
	h_ctx_t h;
	h_init(&h);
	uint32_t o[40];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(40), o, 40);
	for (uint32_t t = 0; t < 40; t++) {
		uint32_t want = ctab[t & 7] + 88 + (uint32_t)-128 + 0x80070605u;
		cr_expect_eq(o[t], want, "thread %u: 0x%x", t, o[t]);
	}
	h_fini(&h);
}

Test(mem, kernel_params)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .u8 a, .param .s16 b, .param .u32 c, .param .f64 d,\n"
		"                  .param .align 8 .b8 st[16])\n"
		"{\n"
		"	.reg .b32 %r<8>;\n"
		"	.reg .b64 %rd<8>;\n"
		"	.reg .f64 %fd1;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	ld.param.u8 %r1, [a];\n"
		"	ld.param.s16 %r2, [b];\n"
		"	ld.param.u32 %r3, [c];\n"
		"	ld.param.u32 %r4, [st+4];\n"
		"	st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
		"	ld.param.f64 %fd1, [d];\n"
		"	st.global.f64 [%rd1+16], %fd1;\n"
		"	ld.param.u64 %rd2, [st+8];\n"
		"	st.global.u64 [%rd1+24], %rd2;\n"
		"	mov.u64 %rd3, st;              // param-space address, then generic\n"
		"	cvta.param.u64 %rd4, %rd3;\n"
		"	ld.u32 %r5, [%rd4];\n"
		"	st.global.u32 [%rd1+32], %r5;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint32_t np;
	const uint32_t *sz;
	cr_assert_eq(sc_kernel_params(h.mod, "k", &np, &sz), 0);
	cr_assert_eq(np, 6);
	static const uint32_t want_sz[6] = {8, 1, 2, 4, 8, 16};
	for (int i = 0; i < 6; i++)
		cr_expect_eq(sz[i], want_sz[i], "param %d: %u bytes", i, sz[i]);
	uint64_t d = h_alloc(&h, 40, NULL);
	uint8_t a = 0xfe;
	int16_t b = -1234;
	uint32_t c = 0xdeadbeef;
	double dv = -2.75;
	struct { uint32_t x, y; uint64_t z; } st = {7, 0xcafef00d, 0x1122334455667788ull};
	h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&d, &a, &b, &c, &dv, &st));
	uint32_t o[10];
	h_read(&h, o, d, sizeof o);
	cr_expect_eq(o[0], 0xfe);
	cr_expect_eq(o[1], (uint32_t)-1234);
	cr_expect_eq(o[2], 0xdeadbeef);
	cr_expect_eq(o[3], 0xcafef00d);
	double got;
	memcpy(&got, &o[4], 8);
	cr_expect_eq(got, -2.75);
	uint64_t z;
	memcpy(&z, &o[6], 8);
	cr_expect_eq(z, 0x1122334455667788ull);
	cr_expect_eq(o[8], 7, "generic load of a kernel parameter: %u", o[8]);
	h_fini(&h);
}

/* ---------------------------------------------------------------- generic */

/* cvta to and from the generic space for shared, local, const and global
 * data; generic ld/st land in the right space. */
Test(mem, generic_via_cvta)
{
	static const char ptx[] = H_PTX_HEAD
		".const .align 4 .u32 cv[2] = {1000, 2000};\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.shared .align 4 .u32 sv[64];\n"
		"	.local .align 4 .u32 lv[2];\n" PRO
		"	ld.param.u64 %rd2, [out];\n"
		"	cvta.to.global.u64 %rd2, %rd2;\n"
		"	shl.b64 %rd9, %rd1, 3;           // 8 words per thread\n"
		"	add.s64 %rd2, %rd2, %rd9;\n"
		"	// shared: generic store, direct load\n"
		"	mov.u64 %rd3, sv;\n"
		"	add.s64 %rd3, %rd3, %rd1;\n"
		"	cvta.shared.u64 %rd4, %rd3;\n"
		"	add.u32 %r4, %r3, 7;\n"
		"	st.u32 [%rd4], %r4;\n"
		"	ld.shared.u32 %r5, [%rd3];\n"
		"	// and back: generic to shared\n"
		"	cvta.to.shared.u64 %rd5, %rd4;\n"
		"	ld.shared.u32 %r6, [%rd5];\n"
		"	// local: direct store, generic load\n"
		"	mul.lo.u32 %r7, %r3, 3;\n"
		"	st.local.u32 [lv+4], %r7;\n"
		"	mov.u64 %rd6, lv;\n"
		"	cvta.local.u64 %rd6, %rd6;\n"
		"	ld.u32 %r8, [%rd6+4];\n"
		"	// const through a generic pointer, and a variable named in a generic load\n"
		"	mov.u64 %rd7, cv;\n"
		"	cvta.const.u64 %rd7, %rd7;\n"
		"	ld.u32 %r9, [%rd7+4];\n"
		"	ld.u32 %r10, [cv];\n"
		"	// global: generic store through the parameter pointer\n"
		"	ld.param.u64 %rd8, [out];\n"
		"	add.s64 %rd8, %rd8, %rd9;\n"
		"	st.v4.u32 [%rd8], {%r5, %r6, %r8, %r9};\n"
		"	st.global.v2.u32 [%rd2+16], {%r10, %r3};\n"
		"	// generic addresses differ in every space\n"
		"	setp.ne.u64 %p1, %rd4, %rd6;\n"
		"	setp.ne.and.u64 %p1, %rd4, %rd7, %p1;\n"
		"	setp.ne.and.u64 %p1, %rd6, %rd7, %p1;\n"
		"	selp.u32 %r11, 1, 0, %p1;\n"
		"	st.u32 [%rd8+24], %r11;\n"
		"	ret;\n"
		"}\n";
	enum { T = 64 };
	h_ctx_t h;
	h_init(&h);
	uint32_t o[8 * T];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(T), o, 8 * T);
	for (uint32_t t = 0; t < T; t++) {
		const uint32_t *w = &o[8 * t];
		cr_expect_eq(w[0], t + 7, "thread %u", t);
		cr_expect_eq(w[1], t + 7, "thread %u", t);
		cr_expect_eq(w[2], 3 * t, "thread %u", t);
		cr_expect_eq(w[3], 2000, "thread %u", t);
		cr_expect_eq(w[4], 1000, "thread %u", t);
		cr_expect_eq(w[5], t, "thread %u", t);
		cr_expect_eq(w[6], 1, "thread %u", t);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- atomics */

/* 2048 threads in 64 warps over the GPU add 1 to one word: the word ends at
 * 2048 and the old values are exactly 0..2047. Also red and 64-bit adds. */
Test(mem, atomic_global_contention)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 cnt, .param .u64 olds)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [cnt];\n"
		"	ld.param.u64 %rd3, [olds];\n"
		"	add.s64 %rd3, %rd3, %rd1;\n"
		"	atom.global.add.u32 %r4, [%rd2], 1;\n"
		"	st.global.u32 [%rd3], %r4;\n"
		"	red.global.add.u32 [%rd2+4], 3;\n"
		"	mov.b64 %rd4, 0x100000001;\n"
		"	atom.global.add.u64 %rd5, [%rd2+8], %rd4;\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 8, T = 256, N = CTAS * T };
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t dc = h_alloc(&h, 16, NULL), dol = h_alloc(&h, N * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), 0, H_ARGS(&dc, &dol));
	uint32_t c[4];
	h_read(&h, c, dc, 16);
	cr_expect_eq(c[0], N);
	cr_expect_eq(c[1], 3 * N);
	uint64_t c64;
	memcpy(&c64, &c[2], 8);
	cr_expect_eq(c64, (uint64_t)N * 0x100000001ull);
	static uint32_t olds[N];
	h_read(&h, olds, dol, sizeof olds);
	qsort(olds, N, 4, cmp_u32);
	for (uint32_t i = 0; i < N; i++)
		cr_expect_eq(olds[i], i, "the old values are not a permutation of 0..%u (at %u: %u)", N - 1, i, olds[i]);
	h_fini(&h);
}

/* Each CTA of 512 threads (16 warps) counts into one shared word; min and
 * max over shared; a generic atomic on a shared address. */
Test(mem, atomic_shared_contention)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .u64 olds)\n"
		"{\n"
		"	.shared .align 4 .u32 sc[4];\n" PRO
		"	setp.ne.u32 %p1, %r0, 0;\n"
		"	@%p1 bra L_init_done;\n"
		"	st.shared.u32 [sc], 0;\n"
		"	st.shared.u32 [sc+4], 0x7fffffff;\n"
		"	st.shared.u32 [sc+8], 0x80000000;\n"
		"	st.shared.u32 [sc+12], 0;\n"
		"L_init_done:\n"
		"	bar.sync 0;\n"
		"	atom.shared.add.u32 %r4, [sc], 1;\n"
		"	ld.param.u64 %rd2, [olds];\n"
		"	add.s64 %rd2, %rd2, %rd1;\n"
		"	st.global.u32 [%rd2], %r4;\n"
		"	mul.lo.u32 %r5, %r3, 7919;\n"
		"	rem.u32 %r5, %r5, 1000;\n"
		"	sub.s32 %r5, %r5, 500;\n"
		"	atom.shared.min.s32 %r6, [sc+4], %r5;\n"
		"	atom.shared.max.s32 %r6, [sc+8], %r5;\n"
		"	mov.u64 %rd3, sc;\n"
		"	cvta.shared.u64 %rd3, %rd3;\n"
		"	atom.add.u32 %r7, [%rd3+12], %r0;\n"
		"	bar.sync 0;\n"
		"	@%p1 bra L_end;\n"
		"	ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [sc];\n"
		"	ld.param.u64 %rd4, [out];\n"
		"	mul.wide.u32 %rd5, %r2, 16;\n"
		"	add.s64 %rd4, %rd4, %rd5;\n"
		"	st.global.v4.u32 [%rd4], {%r8, %r9, %r10, %r11};\n"
		"L_end:\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 3, T = 512 };
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 1;
	h_load_ok(&h, ptx);
	uint64_t dout = h_alloc(&h, CTAS * 16, NULL), dol = h_alloc(&h, CTAS * T * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), 0, H_ARGS(&dout, &dol));
	int32_t o[CTAS * 4];
	h_read(&h, o, dout, sizeof o);
	static uint32_t olds[CTAS * T];
	h_read(&h, olds, dol, sizeof olds);
	for (uint32_t c = 0; c < CTAS; c++) {
		int32_t mn = INT32_MAX, mx = INT32_MIN;
		for (uint32_t t = 0; t < T; t++) {
			uint32_t g = c * T + t;
			int32_t v = (int32_t)((g * 7919u) % 1000u) - 500;
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
		cr_expect_eq(o[4 * c + 0], T, "cta %u count %d", c, o[4 * c]);
		cr_expect_eq(o[4 * c + 1], mn, "cta %u min %d, want %d", c, o[4 * c + 1], mn);
		cr_expect_eq(o[4 * c + 2], mx, "cta %u max %d, want %d", c, o[4 * c + 2], mx);
		cr_expect_eq(o[4 * c + 3], T * (T - 1) / 2, "cta %u generic sum %d", c, o[4 * c + 3]);
		qsort(&olds[c * T], T, 4, cmp_u32);
		for (uint32_t t = 0; t < T; t++)
			cr_expect_eq(olds[c * T + t], t, "cta %u: old values not a permutation", c);
	}
	h_fini(&h);
}

/* atom.cas: a CAS loop that increments under contention (lanes of a warp
 * fail and retry in divergent code). Its semantics on one thread are a
 * plain-text case (tests/simcore/insn/mem.txt). */
Test(mem, atomic_cas)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry loop(.param .u64 p, .param .u64 tries)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [p];\n"
		"	mov.u32 %r7, 0;\n"
		"L_retry:\n"
		"	add.u32 %r7, %r7, 1;\n"
		"	ld.volatile.global.u32 %r4, [%rd2];\n"
		"	add.u32 %r5, %r4, 1;\n"
		"	atom.global.cas.b32 %r6, [%rd2], %r4, %r5;\n"
		"	setp.ne.u32 %p1, %r6, %r4;\n"
		"	@%p1 bra L_retry;\n"
		"	ld.param.u64 %rd3, [tries];\n"
		"	add.s64 %rd3, %rd3, %rd1;\n"
		"	st.global.u32 [%rd3], %r7;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	enum { CTAS = 4, T = 64, N = CTAS * T };
	uint64_t cnt = h_alloc(&h, 4, NULL), tries = h_alloc(&h, N * 4, NULL);
	h_launch_ok(&h, "loop", H_D1(CTAS), H_D1(T), 0, H_ARGS(&cnt, &tries));
	uint32_t c;
	h_read(&h, &c, cnt, 4);
	cr_expect_eq(c, N, "CAS-loop count %u, want %u", c, N);
	uint32_t tr[N], total = 0;
	h_read(&h, tr, tries, sizeof tr);
	for (uint32_t i = 0; i < N; i++) {
		cr_expect_geq(tr[i], 1);
		total += tr[i];
	}
	cr_expect_geq(total, N, "every successful CAS is one try");
	h_fini(&h);
}

/* atom.inc wraps to 0 past its bound, atom.dec to the bound at 0 or above
 * it: the final value does not depend on the order of the lanes. */
Test(mem, atomic_inc_dec_wrap)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p, .param .u64 olds)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [p];\n"
		"	ld.param.u64 %rd3, [olds];\n"
		"	add.s64 %rd3, %rd3, %rd1;\n"
		"	atom.global.inc.u32 %r4, [%rd2], 5;\n"
		"	atom.global.dec.u32 %r5, [%rd2+4], 4;\n"
		"	atom.global.inc.u32 %r6, [%rd2+8], 3;   // starts above the bound\n"
		"	atom.global.dec.u32 %r7, [%rd2+12], 3;  // starts above the bound\n"
		"	st.global.u32 [%rd3], %r4;\n"
		"	ret;\n"
		"}\n";
	enum { N = 13 };
	uint32_t init[4] = {0, 2, 10, 10};
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 16, init), dol = h_alloc(&h, N * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(N), 0, H_ARGS(&d, &dol));
	/* host model: apply N operations in sequence */
	uint32_t inc = 0, dec = 2, inc2 = 10, dec2 = 10, seq[N];
	for (int i = 0; i < N; i++) {
		seq[i] = inc;
		inc = inc >= 5 ? 0 : inc + 1;
		dec = (dec == 0 || dec > 4) ? 4 : dec - 1;
		inc2 = inc2 >= 3 ? 0 : inc2 + 1;
		dec2 = (dec2 == 0 || dec2 > 3) ? 3 : dec2 - 1;
	}
	uint32_t o[4], olds[N];
	h_read(&h, o, d, 16);
	cr_expect_eq(o[0], inc, "inc: %u, want %u", o[0], inc);
	cr_expect_eq(o[1], dec, "dec: %u, want %u", o[1], dec);
	cr_expect_eq(o[2], inc2, "inc from above: %u, want %u", o[2], inc2);
	cr_expect_eq(o[3], dec2, "dec from above: %u, want %u", o[3], dec2);
	h_read(&h, olds, dol, sizeof olds);
	qsort(olds, N, 4, cmp_u32);
	qsort(seq, N, 4, cmp_u32);
	for (int i = 0; i < N; i++)
		cr_expect_eq(olds[i], seq[i], "old values of inc differ at %d", i);
	h_fini(&h);
}

/* Bitwise atomics and exch over 1024 threads. */
Test(mem, atomic_bitwise_exch)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p, .param .u64 olds)\n"
		"{\n" PRO
		"	ld.param.u64 %rd2, [p];\n"
		"	and.b32 %r4, %r3, 31;\n"
		"	shl.b32 %r5, 1, %r4;\n"
		"	atom.global.or.b32 %r6, [%rd2], %r5;\n"
		"	not.b32 %r7, %r5;\n"
		"	atom.global.and.b32 %r6, [%rd2+4], %r7;\n"
		"	atom.global.xor.b32 %r6, [%rd2+8], %r3;\n"
		"	add.u32 %r8, %r3, 100;\n"
		"	atom.global.exch.b32 %r9, [%rd2+12], %r8;\n"
		"	ld.param.u64 %rd3, [olds];\n"
		"	add.s64 %rd3, %rd3, %rd1;\n"
		"	st.global.u32 [%rd3], %r9;\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 4, T = 256, N = CTAS * T };
	uint32_t init[4] = {0, 0xffffffffu, 0x5a5a5a5au, 7};
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 16, init), dol = h_alloc(&h, N * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), 0, H_ARGS(&d, &dol));
	uint32_t o[4];
	h_read(&h, o, d, 16);
	uint32_t x = 0x5a5a5a5au;
	for (uint32_t i = 0; i < N; i++)
		x ^= i;
	cr_expect_eq(o[0], 0xffffffffu);
	cr_expect_eq(o[1], 0);
	cr_expect_eq(o[2], x);
	/* exch: the final word and the N old values are {7} + {100 .. 100+N-1} */
	static uint32_t all[N + 1];
	h_read(&h, all, dol, N * 4);
	all[N] = o[3];
	qsort(all, N + 1, 4, cmp_u32);
	cr_expect_eq(all[0], 7);
	for (uint32_t i = 1; i <= N; i++)
		cr_expect_eq(all[i], 100 + i - 1, "exch values lost or duplicated at %u", i);
	h_fini(&h);
}

/* Floating-point atomic adds of values whose sums are exact in any order. */
Test(mem, atomic_float_add_exact)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p)\n"
		"{\n"
		"	.shared .align 4 .f32 sf;\n"
		"	.reg .f32 %f<4>;\n"
		"	.reg .f64 %fd<3>;\n" PRO
		"	ld.param.u64 %rd2, [p];\n"
		"	cvt.rn.f32.u32 %f1, %r3;\n"
		"	mul.f32 %f1, %f1, 0f3E800000;      // 0.25 * gid\n"
		"	atom.global.add.f32 %f2, [%rd2], %f1;\n"
		"	cvt.rn.f64.u32 %fd1, %r3;\n"
		"	mul.f64 %fd1, %fd1, 0d3FE0000000000000; // 0.5 * gid\n"
		"	atom.global.add.f64 %fd2, [%rd2+8], %fd1;\n"
		"	setp.ne.u32 %p1, %r0, 0;\n"
		"	@!%p1 st.shared.f32 [sf], 0f00000000;\n"
		"	bar.sync 0;\n"
		"	red.shared.add.f32 [sf], 0f3F000000;   // 0.5 per thread\n"
		"	bar.sync 0;\n"
		"	@%p1 bra L_end;\n"
		"	ld.shared.f32 %f3, [sf];\n"
		"	mul.wide.u32 %rd3, %r2, 4;\n"
		"	add.s64 %rd3, %rd2, %rd3;\n"
		"	st.global.f32 [%rd3+16], %f3;\n"
		"L_end:\n"
		"	ret;\n"
		"}\n";
	enum { CTAS = 4, T = 256, N = CTAS * T };
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 16 + CTAS * 4, NULL);
	h_launch_ok(&h, "k", H_D1(CTAS), H_D1(T), 0, H_ARGS(&d));
	float f;
	double fd;
	float per[CTAS];
	h_read(&h, &f, d, 4);
	h_read(&h, &fd, d + 8, 8);
	h_read(&h, per, d + 16, sizeof per);
	float wf = 0;
	double wd = 0;
	for (uint32_t i = 0; i < N; i++) {
		wf += 0.25f * (float)i;
		wd += 0.5 * i;
	}
	cr_expect_eq(f, wf, "f32 sum %.9g, want %.9g", (double)f, (double)wf);
	cr_expect_eq(fd, wd, "f64 sum %.17g, want %.17g", fd, wd);
	for (int c = 0; c < CTAS; c++)
		cr_expect_eq(per[c], 0.5f * T, "cta %d shared sum %g", c, (double)per[c]);
	h_fini(&h);
}

/* ---------------------------------------------------------------- 32-bit addresses */

/* An address formed from a 32-bit register wraps modulo 2^32, as PTX
 * arithmetic does: nw (Rodinia, nvcc 13) keeps "array - 64" in a 32-bit
 * register and loads [%r+68], which reads offset 4. Every space a 32-bit
 * register can address: shared (scalar, vector, atom, red), local, const,
 * param, and a 32-bit generic address; and a 64-bit base that wraps modulo
 * 2^64. Each variable is the only one of its space, so it lies at offset 0
 * and "variable - k" wraps below zero. */
Test(mem, addr32_wraps)
{
	static const char ptx[] = H_PTX_HEAD
		".const .align 4 .u32 ctab[4] = {11, 22, 33, 44};\n"
		".visible .entry k(.param .u64 out, .param .u32 pk)\n"
		"{\n"
		"	.shared .align 8 .u32 s[64];\n"
		"	.local .align 8 .b8 buf[16];\n" PRO
		"	ld.param.u64 %rd2, [out];\n"
		"	mul.wide.u32 %rd1, %r3, 32;      // 8 words per thread\n"
		"	add.s64 %rd2, %rd2, %rd1;\n"
		"	mov.u32 %r4, s;\n"
		"	add.s32 %r4, %r4, -64;           // 0xffffffc0\n"
		"	shl.b32 %r5, %r0, 2;\n"
		"	add.u32 %r6, %r4, %r5;\n"
		"	add.u32 %r7, %r0, 100;\n"
		"	st.shared.u32 [%r6+64], %r7;     // s[t] = t + 100\n"
		"	bar.sync 0;\n"
		"	ld.shared.u32 %r8, [%r4+68];     // s[1]\n"
		"	ld.shared.v2.u32 {%r9, %r10}, [%r4+72]; // s[2], s[3]\n"
		"	add.u32 %r9, %r9, %r10;\n"
		"	st.global.v2.u32 [%rd2], {%r8, %r9};\n"
		"	bar.sync 0;\n"
		"	atom.shared.add.u32 %r11, [%r6+64], 1000;\n"
		"	red.shared.add.u32 [%r6+64], 1;\n"
		"	ld.shared.u32 %r12, [%r6+64];\n"
		"	st.global.v2.u32 [%rd2+8], {%r11, %r12};\n"
		"	mov.u32 %r13, buf;\n"
		"	add.s32 %r13, %r13, -16;\n"
		"	st.local.v2.u32 [%r13+24], {%r7, %r5};\n"
		"	ld.local.u32 %r14, [%r13+28];    // buf[12..15] = 4t\n"
		"	mov.u32 %r15, ctab;\n"
		"	add.s32 %r15, %r15, -8;\n"
		"	ld.const.u32 %r16, [%r15+20];    // ctab[3]\n"
		"	st.global.v2.u32 [%rd2+16], {%r14, %r16};\n"
		"	mov.u32 %r17, pk;\n"
		"	add.s32 %r17, %r17, -4096;\n"
		"	ld.param.u32 %r18, [%r17+4096];\n"
		"	cvta.shared.u32 %r19, %r6;\n"
		"	ld.u32 %r19, [%r19+64];          // generic: s[t] again\n"
		"	add.u32 %r18, %r18, %r19;\n"
		"	mov.u64 %rd3, s;\n"
		"	add.s64 %rd3, %rd3, -64;\n"
		"	ld.shared.u32 %r1, [%rd3+68];    // 64-bit base: wraps modulo 2^64\n"
		"	st.global.v2.u32 [%rd2+24], {%r18, %r1};\n"
		"	ret;\n"
		"}\n";
	enum { T = 32 };
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint32_t pk = 5000000, o[8 * T];
	uint64_t d = h_alloc(&h, sizeof o, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(T), 0, H_ARGS(&d, &pk));
	h_read(&h, o, d, sizeof o);
	for (uint32_t t = 0; t < T; t++) {
		const uint32_t *w = &o[8 * t];
		cr_expect_eq(w[0], 101, "thread %u: [%%r+68] read %u", t, w[0]);
		cr_expect_eq(w[1], 102 + 103, "thread %u: v2 read %u", t, w[1]);
		cr_expect_eq(w[2], t + 100, "thread %u: atom returned %u", t, w[2]);
		cr_expect_eq(w[3], t + 1101, "thread %u: after atom and red %u", t, w[3]);
		cr_expect_eq(w[4], 4 * t, "thread %u: local %u", t, w[4]);
		cr_expect_eq(w[5], 44, "thread %u: const %u", t, w[5]);
		cr_expect_eq(w[6], pk + t + 1101, "thread %u: param + generic %u", t, w[6]);
		cr_expect_eq(w[7], 1102, "thread %u: 64-bit base %u", t, w[7]); /* s[1] after atom, red */
	}
	h_fini(&h);
}

/* A wrapped 32-bit address outside the space is still illegal, and the DUE
 * names the wrapped (32-bit) address, not a 33-bit sum. */
Test(mem, addr32_wrap_out_of_bounds)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	.shared .align 4 .u32 s[4];\n"
		"	.reg .b32 %r<4>;\n"
		"	mov.u32 %r1, s;\n"
		"	add.s32 %r1, %r1, -64;\n"
		"	ld.shared.u32 %r2, [%r1+4096];   // wraps to 0xfc0: past the array\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(1), 0, NULL), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(h_status(&h)->addr, 0xfc0u, "addr 0x%llx", (unsigned long long)h_status(&h)->addr);
	h_fini(&h);
}

/* The warp-wide memory path checks a warp's addresses as one range; lanes
 * it cannot check that way (bases in different 4 GiB halves, a 32-bit
 * offset that wraps some lanes and not others) go lane by lane, and the
 * first lane out of bounds is the one the DUE names. */
Test(mem, warp_wide_path_falls_back_per_lane)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p, .param .u32 sh)\n"
		"{\n"
		"	.reg .b32 %r<4>;\n"
		"	.reg .b64 %rd<6>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.param.u32 %r3, [sh];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	cvt.u64.u32 %rd2, %r1;\n"
		"	shl.b64 %rd3, %rd2, %r3;      // lane << sh\n"
		"	add.s64 %rd4, %rd1, %rd3;\n"
		"	st.global.u32 [%rd4], %r1;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	uint32_t sh = 2; /* lane * 4: one range, the fast path */
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &sh));
	uint32_t o[32];
	h_read(&h, o, d, sizeof o);
	for (uint32_t l = 0; l < 32; l++)
		cr_expect_eq(o[l], l);
	h_fini(&h);

	h_init(&h);
	h_load_ok(&h, ptx);
	d = h_alloc(&h, 32 * 4, NULL);
	sh = 32; /* lane << 32: upper words differ, lane 1 is the first outside */
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &sh)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_eq(h_status(&h)->lane, 1);
	cr_expect_eq(h_status(&h)->addr, d + (1ull << 32));
	h_fini(&h);

	h_init(&h);
	h_load_ok(&h, ptx);
	d = h_alloc(&h, 32 * 4, NULL);
	sh = 63; /* lane << 63: lane 1's address wraps past 2^64 */
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &sh)), SC_EDUE);
	cr_expect_eq(h_status(&h)->lane, 1);
	cr_expect_eq(h_status(&h)->addr, d + (1ull << 63));
	h_fini(&h);
}

/* sc_memfill: the callback sees the range's bytes in place (their old
 * contents), what it writes is what the GPU holds, its result comes back
 * as it is, and a range outside one allocation is refused without a call. */
static int fill_check(void *ctx, void *host)
{
	int *calls = ctx;
	uint8_t *p = host;
	cr_expect_eq(p[0], 7, "the old contents, in place");
	for (int i = 0; i < 16; i++)
		p[i] = (uint8_t)(100 + i);
	return ++*calls == 2 ? 42 : 0;
}

Test(mem, memfill_in_place)
{
	h_ctx_t h;
	h_init(&h);
	uint64_t d = h_alloc(&h, 64, NULL);
	cr_assert_eq(sc_memset(h.gpu, d, 7, 64), 0);
	int calls = 0;
	cr_expect_eq(sc_memfill(h.gpu, d + 8, 16, fill_check, &calls), 0);
	uint8_t back[64];
	cr_assert_eq(sc_memcpy_dtoh(h.gpu, back, d, 64), 0);
	for (int i = 0; i < 64; i++)
		cr_expect_eq(back[i], i >= 8 && i < 24 ? 100 + (i - 8) : 7, "byte %d", i);
	cr_assert_eq(sc_memset(h.gpu, d + 40, 7, 1), 0);
	cr_expect_eq(sc_memfill(h.gpu, d + 40, 16, fill_check, &calls), 42, "the callback's own result");
	cr_expect_eq(sc_memfill(h.gpu, d + 56, 16, fill_check, &calls), SC_EINVAL, "past the allocation's end");
	cr_expect_eq(calls, 2, "no call for a refused range");
	h_fini(&h);
}

/* Allocations of 4 MiB and more have mappings of their own (mem.c):
 * zeroed, every byte usable, freed and allocated again. */
Test(mem, large_allocation_mapped)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	uint64_t big = (5ull << 20) + 3, d = 0;
	for (int round = 0; round < 2; round++) {
		cr_assert_eq(sc_malloc(h.gpu, big, &d), 0, "%s", sc_gpu_errmsg(h.gpu));
		uint8_t head[8], tail[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8];
		cr_assert_eq(sc_memcpy_dtoh(h.gpu, head, d + big - 4096, 8), 0);
		for (int i = 0; i < 8; i++)
			cr_expect_eq(head[i], 0, "fresh memory is zero");
		cr_assert_eq(sc_memcpy_htod(h.gpu, d + big - 8, tail, 8), 0);
		cr_assert_eq(sc_memcpy_dtoh(h.gpu, back, d + big - 8, 8), 0);
		cr_expect_eq(memcmp(back, tail, 8), 0, "the last bytes");
		cr_expect_neq(sc_memcpy_htod(h.gpu, d + big - 7, tail, 8), 0, "one past the end");
		cr_assert_eq(sc_free(h.gpu, d), 0);
	}
	h_fini(&h);
}
