/* The PTX that real CUDA code uses beyond the core set (simcore/ptxext.c):
 * bmsk, match.sync and redux.sync against host models written from the
 * PTX ISA's pseudo-code; nanosleep and %globaltimer against the simulated
 * clock; %envreg and WARP_SZ; device printf (order, formats, the FIFO
 * limit, the state hash) and assert (DUE assert and its message); and the
 * parser's messages for malformed forms. The conformance cases
 * tests/ptx/{warp_match,misc_sm70,printf_fmt} run nvcc's PTX of the same. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- bmsk */

/* The ISA's pseudo-code, step by step. */
static uint32_t bmsk_model(uint32_t a, uint32_t b, bool clamp)
{
	uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
	uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
	bool sum_ovf = sum >= 32, pos_ovf = false, width_ovf = false;
	if (clamp) {
		if (a >= 32) {
			pos_ovf = true;
			mask0 = 0;
		}
		width_ovf = b >= 32;
	}
	if (sum_ovf || pos_ovf || width_ovf)
		mask1 = 0;
	else if (b1 == 0)
		mask1 = ~0u;
	return mask0 & ~mask1;
}

Test(ptxext, bmsk_clamp_wrap)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .u64 in)\n"
		"{\n"
		"	.reg .b32 %r<8>;\n"
		"	.reg .b64 %rd<6>;\n"
		"	mov.u32 %r0, %tid.x;\n"
		"	ld.param.u64 %rd1, [in];\n"
		"	mul.wide.u32 %rd2, %r0, 8;\n"
		"	add.s64 %rd1, %rd1, %rd2;\n"
		"	ld.global.v2.u32 {%r1, %r2}, [%rd1];\n"
		"	bmsk.clamp.b32 %r3, %r1, %r2;\n"
		"	bmsk.wrap.b32 %r4, %r1, %r2;\n"
		"	ld.param.u64 %rd3, [out];\n"
		"	add.s64 %rd3, %rd3, %rd2;\n"
		"	st.global.v2.u32 [%rd3], {%r3, %r4};\n"
		"	ret;\n"
		"}\n";
	enum { N = 256 };
	uint32_t in[2 * N], out[2 * N];
	static const uint32_t edge[] = {0, 1, 5, 16, 31, 32, 33, 40, 63, 64, 0x80000001u, 0xffffffffu};
	uint64_t s = 7;
	for (uint32_t i = 0; i < N; i++) {
		in[2 * i] = i < 144 ? edge[i % 12] : (uint32_t)h_rand(&s) % 70;
		in[2 * i + 1] = i < 144 ? edge[i / 12] : (uint32_t)h_rand(&s) % 70;
	}
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, sizeof out, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(N), 0, H_ARGS(&dout, &din));
	h_read(&h, out, dout, sizeof out);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t a = in[2 * i], b = in[2 * i + 1];
		cr_expect_eq(out[2 * i], bmsk_model(a, b, true), "clamp %u %u: 0x%x", a, b, out[2 * i]);
		cr_expect_eq(out[2 * i + 1], bmsk_model(a, b, false), "wrap %u %u: 0x%x", a, b, out[2 * i + 1]);
	}
	cr_expect_eq(bmsk_model(1, 2, false), 6u); /* the ISA's example */
	h_fini(&h);
}

/* ---------------------------------------------------------------- match, redux */

/* Lanes below n of one warp; lanes with an odd key then run match.any.b64,
 * match.all.b32 and redux in a divergent branch, whose member mask is
 * activemask. out per lane: any32, all32, p(all32), all-equal, p, then
 * the branch's any64, all64, p, and redux add min.u32 max.s32 and or xor. */
static const char match_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out, .param .u64 keys, .param .u32 n)\n"
	"{\n"
	"	.reg .b32 %r<30>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<6>;\n"
	"	mov.u32 %r0, %tid.x;\n"
	"	ld.param.u32 %r1, [n];\n"
	"	setp.ge.u32 %p0, %r0, %r1;\n"
	"	@%p0 bra DONE;\n"
	"	ld.param.u64 %rd1, [keys];\n"
	"	mul.wide.u32 %rd2, %r0, 8;\n"
	"	add.s64 %rd1, %rd1, %rd2;\n"
	"	ld.global.u64 %rd3, [%rd1];\n"
	"	cvt.u32.u64 %r2, %rd3;\n"
	"	activemask.b32 %r3;\n"
	"	match.any.sync.b32 %r4, %r2, %r3;\n"
	"	match.all.sync.b32 %r5|%p1, %r2, %r3;\n"
	"	selp.u32 %r6, 1, 0, %p1;\n"
	"	and.b32 %r7, %r2, 0;\n"
	"	match.all.sync.b32 %r8|%p2, %r7, %r3;\n"
	"	selp.u32 %r9, 1, 0, %p2;\n"
	"	mov.u32 %r10, 0;\n"
	"	mov.u32 %r11, 0;\n"
	"	mov.u32 %r12, 0;\n"
	"	mov.u32 %r13, 0;\n"
	"	mov.u32 %r14, 0;\n"
	"	mov.u32 %r15, 0;\n"
	"	mov.u32 %r16, 0;\n"
	"	mov.u32 %r17, 0;\n"
	"	mov.u32 %r18, 0;\n"
	"	mov.u32 %r19, 0;\n"
	"	and.b32 %r20, %r2, 1;\n"
	"	setp.eq.u32 %p3, %r20, 0;\n"
	"	@%p3 bra SKIP;\n"
	"	activemask.b32 %r21;\n"
	"	shr.u64 %rd4, %rd3, 8;\n"
	"	match.any.sync.b64 %r10, %rd4, %r21;\n"
	"	match.all.sync.b64 %r11|%p4, %rd4, %r21;\n"
	"	selp.u32 %r12, 1, 0, %p4;\n"
	"	shr.u32 %r22, %r2, 3;\n"
	"	redux.sync.add.u32 %r13, %r22, %r21;\n"
	"	redux.sync.min.u32 %r14, %r22, %r21;\n"
	"	redux.sync.max.s32 %r15, %r2, %r21;\n"
	"	redux.sync.and.b32 %r16, %r2, %r21;\n"
	"	redux.sync.or.b32 %r17, %r22, %r21;\n"
	"	redux.sync.xor.b32 %r18, %r2, %r21;\n"
	"	redux.sync.min.s32 %r19, %r2, %r21;\n"
	"SKIP:\n"
	"	ld.param.u64 %rd5, [out];\n"
	"	mul.wide.u32 %rd6, %r0, 64;\n"
	"	add.s64 %rd5, %rd5, %rd6;\n"
	"	st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r8};\n"
	"	st.global.v4.u32 [%rd5+16], {%r9, %r10, %r11, %r12};\n"
	"	st.global.v4.u32 [%rd5+32], {%r13, %r14, %r15, %r16};\n"
	"	st.global.v4.u32 [%rd5+48], {%r17, %r18, %r19, %r0};\n"
	"DONE:\n"
	"	ret;\n"
	"}\n";

static void match_check(const uint64_t *keys, uint32_t n, const uint32_t *o)
{
	uint32_t act = n >= 32 ? ~0u : (1u << n) - 1, odd = 0;
	for (uint32_t l = 0; l < n; l++)
		odd |= (uint32_t)(keys[l] & 1) << l;
	for (uint32_t l = 0; l < n; l++) {
		const uint32_t *w = o + 16 * l;
		uint32_t any = 0, all = 1;
		for (uint32_t j = 0; j < n; j++) {
			any |= (uint32_t)((uint32_t)keys[j] == (uint32_t)keys[l]) << j;
			all &= (uint32_t)keys[j] == (uint32_t)keys[0];
		}
		cr_expect_eq(w[0], any, "n=%u lane %u any32 0x%x want 0x%x", n, l, w[0], any);
		cr_expect_eq(w[1], all ? act : 0, "n=%u lane %u all32", n, l);
		cr_expect_eq(w[2], all, "n=%u lane %u p(all32)", n, l);
		cr_expect_eq(w[3], act, "n=%u lane %u all of zeros", n, l);
		cr_expect_eq(w[4], 1u, "n=%u lane %u p(all of zeros)", n, l);
		if (!(odd >> l & 1)) {
			for (int k = 5; k < 15; k++)
				cr_expect_eq(w[k], 0u, "n=%u lane %u word %d outside the branch", n, l, k);
			continue;
		}
		uint32_t any64 = 0, all64 = 1, add = 0, mn = ~0u, orr = 0, xr = 0, an = ~0u;
		int32_t mx = INT32_MIN, smn = INT32_MAX;
		uint32_t first = (uint32_t)__builtin_ctz(odd);
		for (uint32_t j = 0; j < n; j++) {
			if (!(odd >> j & 1))
				continue;
			uint64_t kj = keys[j] >> 8;
			uint32_t v = (uint32_t)keys[j], s = v >> 3;
			any64 |= (uint32_t)(kj == keys[l] >> 8) << j;
			all64 &= kj == keys[first] >> 8;
			add += s;
			mn = s < mn ? s : mn;
			mx = (int32_t)v > mx ? (int32_t)v : mx;
			smn = (int32_t)v < smn ? (int32_t)v : smn;
			an &= v;
			orr |= s;
			xr ^= v;
		}
		cr_expect_eq(w[5], any64, "n=%u lane %u any64 0x%x want 0x%x", n, l, w[5], any64);
		cr_expect_eq(w[6], all64 ? odd : 0, "n=%u lane %u all64", n, l);
		cr_expect_eq(w[7], all64, "n=%u lane %u p(all64)", n, l);
		cr_expect_eq(w[8], add, "n=%u lane %u redux.add", n, l);
		cr_expect_eq(w[9], mn, "n=%u lane %u redux.min.u32", n, l);
		cr_expect_eq(w[10], (uint32_t)mx, "n=%u lane %u redux.max.s32", n, l);
		cr_expect_eq(w[11], an, "n=%u lane %u redux.and", n, l);
		cr_expect_eq(w[12], orr, "n=%u lane %u redux.or", n, l);
		cr_expect_eq(w[13], xr, "n=%u lane %u redux.xor", n, l);
		cr_expect_eq(w[14], (uint32_t)smn, "n=%u lane %u redux.min.s32", n, l);
	}
}

Test(ptxext, match_redux_partial_and_divergent)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, match_ptx);
	uint64_t keys[32], s = 99;
	uint32_t out[32 * 16];
	uint64_t dk = h_alloc(&h, sizeof keys, NULL), dout = h_alloc(&h, sizeof out, NULL);
	static const uint32_t ns[] = {32, 31, 17, 1};
	for (int round = 0; round < 8; round++)
		for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
			uint32_t n = ns[ni];
			for (uint32_t l = 0; l < 32; l++) /* few distinct values, some with equal low or high parts */
				keys[l] = round == 0 ? 0x500000003ull
				          : (h_rand(&s) % 4) | (h_rand(&s) % 3) << 8 | (round & 1 ? 0 : h_rand(&s) << 40) |
				                (round == 2 ? 0x80000000ull : 0);
			sc_memcpy_htod(h.gpu, dk, keys, sizeof keys);
			memset(out, 0, sizeof out);
			sc_memcpy_htod(h.gpu, dout, out, sizeof out);
			uint32_t nn = n;
			h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout, &dk, &nn));
			h_read(&h, out, dout, sizeof out);
			match_check(keys, n, out);
		}
	h_fini(&h);
}

/* ---------------------------------------------------------------- clocks, envreg, WARP_SZ */

Test(ptxext, nanosleep_globaltimer_envreg_warpsz)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .u32 ns)\n"
		"{\n"
		"	.reg .b32 %r<12>;\n"
		"	.reg .b64 %rd<12>;\n"
		"	ld.param.u32 %r1, [ns];\n"
		"	mov.u64 %rd1, %clock64;\n"
		"	mov.u64 %rd2, %globaltimer;\n"
		"	nanosleep.u32 %r1;\n"
		"	mov.u64 %rd3, %clock64;\n"
		"	mov.u32 %r2, %globaltimer_lo;\n"
		"	mov.u32 %r3, %globaltimer_hi;\n"
		"	mov.u32 %r4, %envreg0;\n"
		"	mov.u32 %r5, %envreg31;\n"
		"	mov.u32 %r6, WARP_SZ;\n"
		"	add.u32 %r7, %r6, WARP_SZ;\n"
		"	nanosleep.u32 0;\n"
		"	ld.param.u64 %rd4, [out];\n"
		"	st.global.v2.u64 [%rd4], {%rd1, %rd2};\n"
		"	st.global.u64 [%rd4+16], %rd3;\n"
		"	st.global.v4.u32 [%rd4+32], {%r2, %r3, %r4, %r5};\n"
		"	st.global.v2.u32 [%rd4+48], {%r6, %r7};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	double mhz = h.cfg.clock_mhz;
	uint64_t d = h_alloc(&h, 56, NULL);
	static const uint32_t sleeps[] = {0, 1, 1000, 12345, 2000000};
	uint64_t first_delta = 0;
	for (size_t i = 0; i < sizeof sleeps / sizeof sleeps[0]; i++) {
		uint32_t ns = sleeps[i];
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &ns));
		uint8_t b[56];
		h_read(&h, b, d, sizeof b);
		uint64_t c0, t0, c1;
		uint32_t u[6];
		memcpy(&c0, b, 8);
		memcpy(&t0, b + 8, 8);
		memcpy(&c1, b + 16, 8);
		memcpy(u, b + 32, sizeof u);
		/* %globaltimer is the cycle count in ns of the simulated clock */
		cr_expect(t0 >= (uint64_t)((double)c0 * 1000.0 / mhz) && t0 <= (uint64_t)((double)(c0 + 64) * 1000.0 / mhz),
		          "globaltimer %llu at clock %llu", (unsigned long long)t0, (unsigned long long)c0);
		/* the warp sleeps ceil(ns * MHz / 1000) cycles (PTX caps ns at 1 ms) */
		uint32_t capped = ns < 1000000 ? ns : 1000000;
		uint64_t want = (uint64_t)((double)capped * mhz / 1000.0 + 0.999999);
		uint64_t delta = c1 - c0;
		cr_expect(delta >= want && delta <= want + 64, "nanosleep %u: %llu cycles, want about %llu", ns,
		          (unsigned long long)delta, (unsigned long long)want);
		if (i == 0)
			first_delta = delta;
		uint64_t lohi = (uint64_t)u[1] << 32 | u[0];
		cr_expect(lohi >= t0, "globaltimer_lo/hi %llu before globaltimer %llu", (unsigned long long)lohi,
		          (unsigned long long)t0);
		cr_expect_eq(u[2], 0u, "%%envreg0");
		cr_expect_eq(u[3], 0u, "%%envreg31");
		cr_expect_eq(u[4], 32u, "WARP_SZ");
		cr_expect_eq(u[5], 64u, "WARP_SZ + WARP_SZ");
	}
	cr_expect(first_delta < 64, "nanosleep 0 took %llu cycles", (unsigned long long)first_delta);
	h_fini(&h);
}

/* ---------------------------------------------------------------- printf */

/* nvcc's declaration of vprintf and its calling sequence: format f and
 * arguments a (registers), the result into r. */
#define VPRINTF_DECL \
	".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
#define VPRINTF_CALL(f, a, r)                                                                                 \
	"	{\n	.param .b64 param0;\n	st.param.b64 [param0+0], " f ";\n	.param .b64 param1;\n"                 \
	"	st.param.b64 [param1+0], " a ";\n	.param .b32 retval0;\n	call.uni (retval0), vprintf, (param0, param1);\n" \
	"	ld.param.b32 " r ", [retval0+0];\n	}\n"

/* nvcc's calling sequence: the format in .global, the arguments packed in
 * a local buffer (int at 0, double at 8, a string pointer at 16). Every
 * thread prints twice (a loop), so the order shows CTA, warp, printf
 * sequence, lane. */
static const char printf_ptx[] = H_PTX_HEAD
	VPRINTF_DECL
	".global .align 1 .b8 fmt[21] = {37, 100, 32, 37, 46, 50, 102, 32, 37, 115, 32, 37, 53, 120, 124, 37, 37, 10, 0};\n"
	".global .align 1 .b8 word[3] = {104, 105, 0};\n"
	".visible .entry k(.param .u64 out, .param .u32 v)\n"
	"{\n"
	"	.local .align 8 .b8 buf[32];\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<12>;\n"
	"	.reg .f64 %fd<2>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, %ctaid.x;\n"
	"	mad.lo.u32 %r3, %r2, 1000, %r1;\n"
	"	ld.param.u32 %r9, [v];\n"
	"	add.u32 %r3, %r3, %r9;\n"
	"	mov.u32 %r4, 0;\n"
	"LOOP:\n"
	"	mov.u64 %rd1, buf;\n"
	"	cvta.local.u64 %rd2, %rd1;\n"
	"	add.u32 %r5, %r3, %r4;\n"
	"	st.local.u32 [buf], %r5;\n"
	"	cvt.rn.f64.u32 %fd1, %r4;\n"
	"	st.local.f64 [buf+8], %fd1;\n"
	"	mov.u64 %rd3, word;\n"
	"	cvta.global.u64 %rd4, %rd3;\n"
	"	st.local.u64 [buf+16], %rd4;\n"
	"	st.local.u32 [buf+24], %r1;\n"
	"	mov.u64 %rd5, fmt;\n"
	"	cvta.global.u64 %rd6, %rd5;\n"
	VPRINTF_CALL("%rd6", "%rd2", "%r6")
	"	add.u32 %r4, %r4, 1;\n"
	"	setp.lt.u32 %p1, %r4, 2;\n"
	"	@%p1 bra LOOP;\n"
	"	ld.param.u64 %rd7, [out];\n"
	"	mul.wide.u32 %rd8, %r1, 4;\n"
	"	add.s64 %rd7, %rd7, %rd8;\n"
	"	st.global.u32 [%rd7], %r6;\n"
	"	ret;\n"
	"}\n";

/* What the launch should print: CTA by CTA, warp by warp, each printf of
 * the loop for every lane in turn. */
static char *printf_expected(uint32_t ctas, uint32_t threads, uint32_t v)
{
	size_t cap = 1 << 16, len = 0;
	char *s = malloc(cap);
	for (uint32_t c = 0; c < ctas; c++)
		for (uint32_t w = 0; w * 32 < threads; w++)
			for (uint32_t it = 0; it < 2; it++)
				for (uint32_t t = w * 32; t < threads && t < w * 32 + 32; t++)
					len += (size_t)snprintf(s + len, cap - len, "%d %.2f %s %5x|%%\n", (int)(c * 1000 + t + v + it),
					                        (double)it, "hi", t);
	return s;
}

Test(ptxext, printf_order_formats_result)
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 2; /* CTAs run at once and finish in another order than their ids */
	h_load_ok(&h, printf_ptx);
	FILE *f = tmpfile();
	cr_assert(f);
	sc_set_printf_stream(h.gpu, f);
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	uint32_t v = 5;
	h_launch_ok(&h, "k", H_D1(3), H_D1(40), 0, H_ARGS(&d, &v));
	char *want = printf_expected(3, 40, 5);
	size_t len;
	const char *got = sc_printf_output(h.gpu, &len);
	cr_expect_eq(len, strlen(want));
	cr_expect_str_eq(got, want);
	/* the stream got the same text */
	char *back = calloc(1, len + 1);
	rewind(f);
	cr_expect_eq(fread(back, 1, len + 1, f), len);
	cr_expect_str_eq(back, want);
	uint32_t r[40];
	h_read(&h, r, d, sizeof r);
	for (int i = 0; i < 40; i++)
		cr_expect_eq(r[i], 4u, "printf's result: the argument count"); /* %d %f %s %x */
	free(back);
	free(want);
	fclose(f);
	h_fini(&h);
}

Test(ptxext, printf_fifo_drops_the_rest)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, printf_ptx);
	sc_set_printf_stream(h.gpu, NULL);
	cr_expect_eq(sc_printf_fifo(h.gpu), 1u << 20, "CUDA's default");
	cr_expect_eq(sc_set_printf_fifo(h.gpu, 0), SC_EINVAL);
	/* a record: 16 + 32 argument bytes + the format (19) and "hi" (3) rounded to 8: 72 bytes */
	cr_expect_eq(sc_set_printf_fifo(h.gpu, 72 * 10 + 71), 0);
	cr_expect_eq(sc_printf_fifo(h.gpu), 72u * 10 + 71);
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	uint32_t v = 0;
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &v));
	size_t len;
	const char *got = sc_printf_output(h.gpu, &len);
	char *want = printf_expected(1, 32, 0);
	/* the first 10 records made (lanes 0..9 of the first printf) are kept */
	size_t keep = 0;
	for (int i = 0; i < 10; i++)
		keep = (size_t)(strchr(want + keep, '\n') - want) + 1;
	cr_expect_eq(len, keep);
	cr_expect(!strncmp(got, want, keep));
	/* the next launch has the FIFO again */
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &v));
	sc_printf_output(h.gpu, &len);
	cr_expect_eq(len, 2 * keep);
	free(want);
	h_fini(&h);
}

/* What printf wrote is state: two runs that printed different text never
 * hash alike, two that printed the same do. */
Test(ptxext, printf_in_state_hash)
{
	uint64_t hs[3];
	static const uint32_t vs[3] = {1, 1, 2};
	for (int i = 0; i < 3; i++) {
		h_ctx_t h;
		h_init(&h);
		h_load_ok(&h, printf_ptx);
		sc_set_printf_stream(h.gpu, NULL);
		uint64_t d = h_alloc(&h, 64 * 4, NULL);
		uint32_t v = vs[i];
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &v));
		/* the kernel's memory output does not depend on v */
		hs[i] = sc_state_hash(h.gpu);
		h_fini(&h);
	}
	cr_expect_eq(hs[0], hs[1]);
	cr_expect_neq(hs[0], hs[2]);
}

/* Conversions, flags, widths, precisions and lengths, one record each,
 * against the host's printf of the same values. */
Test(ptxext, printf_conversions)
{
	static const char ptx_head[] = H_PTX_HEAD
		VPRINTF_DECL
		".visible .entry k(.param .u64 fmt, .param .u64 args)\n"
		"{\n"
		"	.reg .b32 %r<2>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [fmt];\n"
		"	ld.param.u64 %rd2, [args];\n"
		VPRINTF_CALL("%rd1", "%rd2", "%r1")
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx_head);
	sc_set_printf_stream(h.gpu, NULL);
	uint64_t dstr = h_alloc(&h, 8, "str\0\0\0\0");
	struct {
		const char *fmt;
		int kind; /* 0 int, 1 long long, 2 double, 3 string, 4 int int (width *), 5 none, 6 char */
		long long i;
		double d;
		const char *want;
	} cases[] = {
		{"[%d]", 0, -42, 0, "[-42]"},
		{"[%+5d|%-5d|%05d]", 4, 17, 0, NULL},
		{"[%u %x %X %o %#x]", 0, -1, 0, NULL},
		{"[%lld %llx]", 1, -1234567890123ll, 0, NULL},
		{"[%ld %lu]", 1, 1ll << 40, 0, NULL},
		{"[%hd %hhd %hx %hhu]", 0, 70000 + 200, 0, NULL},
		{"[%f %e %g %.3f %10.2E %a]", 2, 0, -1234.5678, NULL},
		{"[%s|%6s|%-6s|%.2s]", 3, 0, 0, NULL},
		{"[%c%c]", 6, 'A', 0, NULL},
		{"[%*d]", 4, 6, 0, NULL},
		{"[100%% %q]", 5, 0, 0, "[100% %q]"},
		{"[%p]", 1, 0x1234, 0, "[0x1234]"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint8_t args[128] = {0};
		char want[512];
		const char *f = cases[c].fmt;
		int32_t i32 = (int32_t)cases[c].i;
		int n;
		switch (cases[c].kind) {
		case 0:
			for (int k = 0; k < 5; k++)
				memcpy(args + 4 * k, &i32, 4);
			n = snprintf(want, sizeof want, f, i32, i32, i32, i32, i32);
			break;
		case 1:
			memcpy(args, &cases[c].i, 8);
			memcpy(args + 8, &cases[c].i, 8);
			n = snprintf(want, sizeof want, f, cases[c].i, cases[c].i);
			break;
		case 2:
			for (int k = 0; k < 6; k++)
				memcpy(args + 8 * k, &cases[c].d, 8);
			n = snprintf(want, sizeof want, f, cases[c].d, cases[c].d, cases[c].d, cases[c].d, cases[c].d,
			             cases[c].d);
			break;
		case 3:
			for (int k = 0; k < 4; k++)
				memcpy(args + 8 * k, &dstr, 8);
			n = snprintf(want, sizeof want, f, "str", "str", "str", "str");
			break;
		case 4:
			for (int k = 0; k < 6; k++)
				memcpy(args + 4 * k, &i32, 4);
			n = snprintf(want, sizeof want, f, i32, i32, i32, i32, i32, i32);
			break;
		case 6:
			memcpy(args, &i32, 4);
			i32 = 'z';
			memcpy(args + 4, &i32, 4);
			n = snprintf(want, sizeof want, f, 'A', 'z');
			break;
		default:
			n = 0;
			break;
		}
		(void)n;
		if (cases[c].want)
			snprintf(want, sizeof want, "%s", cases[c].want);
		uint64_t dfmt = h_alloc(&h, strlen(f) + 1, f), dargs = h_alloc(&h, sizeof args, args);
		size_t before;
		sc_printf_output(h.gpu, &before);
		h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&dfmt, &dargs));
		size_t len;
		const char *got = sc_printf_output(h.gpu, &len);
		cr_expect_eq(len - before, strlen(want), "%s: got '%.*s', want '%s'", f, (int)(len - before), got + before,
		             want);
		cr_expect(!strncmp(got + before, want, strlen(want)), "%s: got '%.*s', want '%s'", f, (int)(len - before),
		          got + before, want);
	}
	h_fini(&h);
}

/* A format at an address outside every allocation: the load's DUE. */
Test(ptxext, printf_bad_format_address)
{
	static const char ptx[] = H_PTX_HEAD
		VPRINTF_DECL
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r<2>;\n"
		"	.reg .b64 %rd<2>;\n"
		"	mov.u64 %rd1, 12345678;\n"
		VPRINTF_CALL("%rd1", "%rd1", "%r1")
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(NULL)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_ILLEGAL_ADDRESS);
	h_fini(&h);
}

/* ---------------------------------------------------------------- assert */

static const char assert_ptx[] = H_PTX_HEAD
	".extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);\n"
	".global .align 1 .b8 msg[6] = {120, 32, 60, 32, 51, 0};\n"
	".global .align 1 .b8 file[5] = {97, 46, 99, 117, 0};\n"
	".global .align 1 .b8 fn[7] = {118, 111, 105, 100, 32, 107, 0};\n"
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.lt.u32 %p1, %r1, 3;\n"
	"	@%p1 bra OK;\n"
	"	mov.u64 %rd1, msg;\n"
	"	cvta.global.u64 %rd2, %rd1;\n"
	"	mov.u64 %rd3, file;\n"
	"	cvta.global.u64 %rd4, %rd3;\n"
	"	mov.u64 %rd5, fn;\n"
	"	cvta.global.u64 %rd6, %rd5;\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd2;\n"
	"	.param .b64 param1;\n"
	"	st.param.b64 [param1+0], %rd4;\n"
	"	.param .b32 param2;\n"
	"	st.param.b32 [param2+0], 12;\n"
	"	.param .b64 param3;\n"
	"	st.param.b64 [param3+0], %rd6;\n"
	"	.param .b64 param4;\n"
	"	st.param.b64 [param4+0], 1;\n"
	"	call.uni __assertfail, (param0, param1, param2, param3, param4);\n"
	"	}\n"
	"OK:\n"
	"	ld.param.u64 %rd7, [out];\n"
	"	st.global.u32 [%rd7], %r1;\n"
	"	ret;\n"
	"}\n";

Test(ptxext, assert_is_a_due_with_cudas_message)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, assert_ptx);
	FILE *f = tmpfile();
	cr_assert(f);
	sc_set_assert_stream(h.gpu, f);
	uint64_t d = h_alloc(&h, 4, NULL);
	uint32_t n = 3;
	h_launch_ok(&h, "k", H_D1(2), H_D1(n), 0, H_ARGS(&d)); /* no thread fails */
	cr_expect_eq(h_launch(&h, "k", H_D1(2), H_D1(8), 0, H_ARGS(&d)), SC_EDUE);
	const sc_status_t *s = h_status(&h);
	cr_expect_eq(s->reason, SC_DUE_ASSERT);
	cr_expect_str_eq(sc_due_name(SC_DUE_ASSERT), "assert");
	cr_expect_str_eq(s->detail, "a.cu:12: void k: block: [0,0,0], thread: [3,0,0] Assertion `x < 3` failed.");
	/* every failing thread of the warp says so */
	char buf[1024] = {0};
	rewind(f);
	cr_expect_gt(fread(buf, 1, sizeof buf - 1, f), 0);
	cr_expect_str_eq(buf, "a.cu:12: void k: block: [0,0,0], thread: [3,0,0] Assertion `x < 3` failed.\n"
	                      "a.cu:12: void k: block: [0,0,0], thread: [4,0,0] Assertion `x < 3` failed.\n"
	                      "a.cu:12: void k: block: [0,0,0], thread: [5,0,0] Assertion `x < 3` failed.\n"
	                      "a.cu:12: void k: block: [0,0,0], thread: [6,0,0] Assertion `x < 3` failed.\n"
	                      "a.cu:12: void k: block: [0,0,0], thread: [7,0,0] Assertion `x < 3` failed.\n");
	fclose(f);
	h_fini(&h);
}

/* ---------------------------------------------------------------- malformed forms */

Test(ptxext, parse_errors_name_line_and_form)
{
	static const struct {
		const char *body, *msg;
	} cases[] = {
		{"match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;", "match.any has no predicate destination"},
		{"match.sync.b32 %r1, %r2, 0xffffffff;", "expected match.{any,all}.sync.{b32,b64}"},
		{"match.any.sync.u16 %r1, %r2, 0xffffffff;", "match takes .b32 or .b64"},
		{"redux.sync.and.u32 %r1, %r2, 0xffffffff;", "redux.sync.{and,or,xor} take .b32"},
		{"redux.sync.add.b32 %r1, %r2, 0xffffffff;", "redux.sync.{and,or,xor} take .b32"},
		{"redux.add.u32 %r1, %r2, 0xffffffff;", "expected redux.sync.{add,min,max,and,or,xor}"},
		{"bmsk.b32 %r1, %r2, %r3;", "bmsk needs .clamp or .wrap"},
		{"nanosleep.u32 %r1, %r2;", "nanosleep"},
		{"nanosleep.u64 %rd1;", "type"},
		{"mov.u32 %r1, %envreg32;", "undeclared register '%envreg32'"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char ptx[1024];
		snprintf(ptx, sizeof ptx,
		         H_PTX_HEAD ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\n.reg .pred %%p<2>;\n"
		                    "%s\nret;\n}\n",
		         cases[c].body);
		h_ctx_t h;
		h_init(&h);
		cr_expect_neq(h_load(&h, ptx), 0, "%s loaded", cases[c].body);
		const char *m = sc_gpu_errmsg(h.gpu);
		cr_expect(strstr(m, cases[c].msg) != NULL, "%s: '%s' lacks '%s'", cases[c].body, m, cases[c].msg);
		cr_expect(strstr(m, "t.ptx:9") != NULL, "%s: '%s' lacks the file and line", cases[c].body, m);
		h_fini(&h);
	}
	/* vprintf declared with a signature other than CUDA's */
	static const char bad[] = H_PTX_HEAD
		".extern .func (.param .b64 r) vprintf(.param .b64 a);\n"
		".visible .entry k()\n{\n.reg .b64 %rd<2>;\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0+0], 0;\n.param .b64 retval0;\n"
		"call.uni (retval0), vprintf, (param0);\n}\nret;\n}\n";
	h_ctx_t h;
	h_init(&h);
	cr_expect_neq(h_load(&h, bad), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "t.ptx:12") && strstr(sc_gpu_errmsg(h.gpu), "another signature than CUDA's"),
	          "%s", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
}

/* ---------------------------------------------------------------- malloc, free */

/* k(out, size, freemask): each lane frees its block of a table when
 * freemask names it (table from an earlier launch), then mallocs `size`
 * bytes (0 for none) and stores the pointer in out[lane]. */
static const char heap_ptx[] = H_PTX_HEAD
	".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
	".extern .func free(.param .b64 free_param_0);\n"
	".visible .entry k(.param .u64 out, .param .u64 size, .param .u32 freemask)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<3>;\n"
	"	mov.u32 %r1, %laneid;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mul.wide.u32 %rd2, %r1, 8;\n"
	"	add.s64 %rd1, %rd1, %rd2;\n"
	"	ld.param.u32 %r2, [freemask];\n"
	"	shr.u32 %r3, %r2, %r1;\n"
	"	and.b32 %r3, %r3, 1;\n"
	"	setp.eq.u32 %p1, %r3, 0;\n"
	"	@%p1 bra NOFREE;\n"
	"	ld.global.u64 %rd3, [%rd1];\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd3;\n"
	"	call.uni free, (param0);\n"
	"	}\n"
	"NOFREE:\n"
	"	ld.param.u64 %rd4, [size];\n"
	"	setp.eq.u64 %p2, %rd4, 0;\n"
	"	@%p2 bra DONE;\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd4;\n"
	"	.param .b64 retval0;\n"
	"	call.uni (retval0), malloc, (param0);\n"
	"	ld.param.b64 %rd5, [retval0+0];\n"
	"	}\n"
	"	st.global.u64 [%rd1], %rd5;\n"
	"DONE:\n"
	"	ret;\n"
	"}\n";

Test(ptxext, malloc_first_fit_reuse_exhaustion)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, heap_ptx);
	cr_expect_eq(sc_heap_size(h.gpu), 8u << 20, "CUDA's default");
	cr_expect_eq(sc_set_heap_size(h.gpu, 0), SC_EINVAL);
	cr_expect_eq(sc_set_heap_size(h.gpu, 1024), 0);
	uint64_t d = h_alloc(&h, 32 * 8, NULL), out[32];
	uint64_t size = 100;
	uint32_t none = 0;
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d, &size, &none));
	cr_expect_eq(sc_set_heap_size(h.gpu, 4096), SC_EINVAL, "the heap exists");
	h_read(&h, out, d, sizeof out);
	uint64_t base = out[0];
	cr_assert(base != 0 && base % 16 == 0);
	for (uint32_t l = 0; l < 32; l++) /* 100 bytes at 16-byte steps: 9 fit in 1024 */
		cr_expect_eq(out[l], l < 9 ? base + 112 * l : 0, "lane %u: 0x%llx", l, (unsigned long long)out[l]);
	/* lanes 2 and 3 free theirs; lane 0 takes the first gap that fits 200 */
	uint64_t size2 = 200;
	uint32_t m23 = 0xc;
	h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&d, &size2, &none));
	h_read(&h, out, d, 8);
	cr_expect_eq(out[0], 0, "no gap of 200 bytes yet");
	uint64_t zero = 0;
	h_launch_ok(&h, "k", H_D1(1), H_D1(4), 0, H_ARGS(&d, &zero, &m23));
	h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&d, &size2, &none));
	h_read(&h, out, d, 8);
	cr_expect_eq(out[0], base + 224, "the freed blocks of lanes 2 and 3: 0x%llx", (unsigned long long)out[0]);
	/* free of what malloc did not return: the launch's DUE */
	uint64_t bad = base + 8;
	sc_memcpy_htod(h.gpu, d, &bad, 8);
	uint32_t m0 = 1;
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&d, &zero, &m0)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_ILLEGAL_ADDRESS);
	cr_expect(strstr(h_status(&h)->detail, "not a block malloc returned"), "%s", h_status(&h)->detail);
	h_fini(&h);
}

/* The heap's blocks are state: runs that differ only in what they freed
 * never hash alike. */
Test(ptxext, heap_in_state_hash)
{
	uint64_t hs[3];
	static const uint32_t masks[3] = {1, 1, 2};
	for (int i = 0; i < 3; i++) {
		h_ctx_t h;
		h_init(&h);
		h_load_ok(&h, heap_ptx);
		uint64_t d = h_alloc(&h, 32 * 8, NULL), size = 16, zero = 0;
		uint32_t none = 0, m = masks[i];
		h_launch_ok(&h, "k", H_D1(1), H_D1(2), 0, H_ARGS(&d, &size, &none));
		h_launch_ok(&h, "k", H_D1(1), H_D1(2), 0, H_ARGS(&d, &zero, &m));
		hs[i] = sc_state_hash(h.gpu);
		h_fini(&h);
	}
	cr_expect_eq(hs[0], hs[1]);
	cr_expect_neq(hs[0], hs[2]);
}
