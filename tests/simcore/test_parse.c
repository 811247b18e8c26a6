/* The PTX front end (simcore/ptx_lex.c, ptx_parse.c): a whole nvcc module
 * run end to end against a host model, hand-written snippets of the forms
 * nvcc emits, a table of bad inputs that must fail with "name:LINE:COL:" of
 * the offending token, and every committed PTX file of the repository;
 * the names a module keeps for fault sites (registers, shared variables). */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* ======================================================================
 * A whole nvcc module: tests/simcore/data/parse_full.ptx (from
 * parse_full.cu): .func calls with params and return values, a .local
 * depot, .const/.global variables with initializers and .align, static and
 * .extern .shared, .pragma, .maxntid/.minnctapersm, inline-asm blocks with
 * scoped .reg, multi-line call statements in { // callseq } blocks.
 * ====================================================================== */

static const float pf_coef[4] = {0.5f, 1.5f, -2.0f, 4.0f};
static const int pf_table[5] = {3, 1, 4, 1, 5};

static int pf_mix(int a, int b, float c) { return (a * 31) ^ (b + 7) ^ (int)c; }

static int pf_walk(int n, int seed)
{
	int buf[16], s = 0;
	for (int k = 0; k < 16; k++)
		buf[k] = seed * k + pf_table[k % 5];
	for (int k = 0; k < n; k++)
		s += buf[(k * 7 + seed) & 15];
	return s;
}

static int pf_full(int t, int n)
{
	int v = 3 * (63 - t) + (((t + 1) & 63) + 100);
	v += t > 31 ? 1 : 2;
	if (t & 1) {
		float c = pf_coef[t & 3] * (float)t;
		v += pf_mix(t, n, c);
	} else {
		v -= pf_walk(t & 15, n);
	}
	return v;
}

Test(parse, nvcc_module)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	sc_module_t *m = NULL;
	int rc = sc_module_load_file(h.gpu, "tests/simcore/data/parse_full.ptx", &m);
	cr_assert_eq(rc, 0, "load: %s", sc_gpu_errmsg(h.gpu));
	h.mod = m;

	uint32_t np;
	const uint32_t *sizes;
	cr_assert_eq(sc_kernel_params(m, "_Z4fullPii", &np, &sizes), 0);
	cr_assert_eq(np, 2);
	cr_expect_eq(sizes[0], 8);
	cr_expect_eq(sizes[1], 4);
	cr_expect_eq(sc_kernel_params(m, "_Z3mixiif", &np, &sizes), SC_ENOTFOUND, ".func is not a kernel");

	int n = 5;
	uint64_t out = h_alloc(&h, 64 * 4, NULL);
	/* three CTAs: every CTA writes the same out[], counter[] sees them all */
	h_launch_ok(&h, "_Z4fullPii", H_D1(3), H_D1(64), 256, H_ARGS(&out, &n));
	int got[64];
	h_read(&h, got, out, sizeof got);
	for (int t = 0; t < 64; t++)
		cr_expect_eq(got[t], pf_full(t, n), "thread %d: got %d, want %d", t, got[t], pf_full(t, n));

	const sc_launch_stats_t *s = h_last(&h);
	cr_expect_eq(s->smem_per_cta, 512, "256 B static + 256 B dynamic, got %u", s->smem_per_cta);
	cr_expect_geq(s->local_per_thread, 64, "walk's 64-byte depot");

	uint64_t dump = h_alloc(&h, 9 * 4, NULL);
	h_launch_ok(&h, "_Z4dumpPj", H_D1(1), H_D1(32), 0, H_ARGS(&dump));
	uint32_t d[9];
	h_read(&h, d, dump, sizeof d);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(d[i], 3 * 64 / 4, "counter[%d] = %u", i, d[i]);
	for (int i = 0; i < 5; i++)
		cr_expect_eq(d[4 + i], (uint32_t)pf_table[i], "table[%d] = %u", i, d[4 + i]);

	/* .maxntid 256 */
	cr_expect_eq(h_launch(&h, "_Z4fullPii", H_D1(1), H_D1(288), 256, H_ARGS(&out, &n)), SC_ELAUNCH);
	h_fini(&h);
}

/* ======================================================================
 * Hand-written forms
 * ====================================================================== */

/* Variables with initializers and alignment; literals in every notation. */
Test(parse, variables_and_literals)
{
	static const char ptx[] = H_PTX_HEAD
		"/* a block comment\n"
		"   over two lines */\n"
		".global .align 64 .b8 aligned[4];\n"
		".global .u32 gv[2][2] = {{7, 8}, {9, 0x10}};\n"
		".const .align 8 .f32 cf[3] = {1.5, 0f40000000, -3};\n"
		".const .f64 cd = 0d3FF8000000000000;\n"
		".global .s16 gs[2] = {-2, 017};\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<12>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	.reg .f32 %f<4>;\n"
		"	.reg .f64 %fd<2>;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u64 %rd2, aligned;\n"
		"	cvt.u32.u64 %r1, %rd2;\n"
		"	and.b32 %r1, %r1, 63;      // 0 when 64-byte aligned\n"
		"	st.global.u32 [%rd1], %r1;\n"
		"	ld.global.u32 %r2, [gv+4];\n"
		"	ld.global.u32 %r3, [gv+12];\n"
		"	st.global.u32 [%rd1+4], %r2;\n"
		"	st.global.u32 [%rd1+8], %r3;\n"
		"	ld.const.f32 %f1, [cf];\n"
		"	ld.const.f32 %f2, [cf+4];\n"
		"	ld.const.f32 %f3, [cf+8];\n"
		"	add.f32 %f1, %f1, %f2;\n"
		"	add.f32 %f1, %f1, %f3;     // 1.5 + 2 - 3\n"
		"	st.global.f32 [%rd1+12], %f1;\n"
		"	ld.const.f64 %fd1, [cd];\n"
		"	cvt.rzi.s32.f64 %r4, %fd1; // 1.5 -> 1\n"
		"	st.global.u32 [%rd1+16], %r4;\n"
		"	ld.global.s16 %r5, [gs];\n"
		"	st.global.u32 [%rd1+20], %r5;\n"
		"	ld.global.s16 %r5, [gs+2];\n"
		"	st.global.u32 [%rd1+24], %r5;\n"
		"	mov.u32 %r6, 0b1011;\n"
		"	add.u32 %r6, %r6, 0xFFU;\n"
		"	add.s32 %r6, %r6, -1;\n"
		"	st.global.u32 [%rd1+28], %r6;\n"
		"	mov.b32 %r7, 0f3F800000;\n"
		"	st.global.u32 [%rd1+32], %r7;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	uint32_t o[9];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(1), o, 9);
	cr_expect_eq(o[0], 0, ".align 64 variable at an address with low bits %u", o[0]);
	cr_expect_eq(o[1], 8);
	cr_expect_eq(o[2], 16);
	float f;
	memcpy(&f, &o[3], 4);
	cr_expect_eq(f, 0.5f, "const f32 sum %g", (double)f);
	cr_expect_eq(o[4], 1);
	cr_expect_eq((int32_t)o[5], -2);
	cr_expect_eq(o[6], 15, "octal 017");
	cr_expect_eq(o[7], 11 + 255 - 1);
	cr_expect_eq(o[8], 0x3f800000u);
	h_fini(&h);
}

/* Integer literals up to 64 bits in every base, with and without U, and
 * the most negative 64-bit value written as a negated literal. */
Test(parse, integer_literal_limits)
{
	static const char ptx[] = H_PTX_HEAD
		".global .u64 gmax = 18446744073709551615;\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u64 %rd2, 0xFFFFFFFFFFFFFFFF;\n"
		"	st.global.u64 [%rd1], %rd2;\n"
		"	mov.u64 %rd2, 01777777777777777777777;\n"
		"	st.global.u64 [%rd1+8], %rd2;\n"
		"	mov.u64 %rd2, 0b1000000000000000000000000000000000000000000000000000000000000001;\n"
		"	st.global.u64 [%rd1+16], %rd2;\n"
		"	mov.s64 %rd2, -9223372036854775808;\n"
		"	st.global.u64 [%rd1+24], %rd2;\n"
		"	add.s64 %rd2, %rd2, 9223372036854775807U;\n"
		"	st.global.u64 [%rd1+32], %rd2;\n"
		"	ld.global.u64 %rd3, [gmax];\n"
		"	st.global.u64 [%rd1+40], %rd3;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t o[6], d = h_alloc(&h, sizeof o, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&d));
	h_read(&h, o, d, sizeof o);
	cr_expect_eq(o[0], UINT64_MAX);
	cr_expect_eq(o[1], UINT64_MAX, "octal: 0x%llx", (unsigned long long)o[1]);
	cr_expect_eq(o[2], 0x8000000000000001ull, "binary: 0x%llx", (unsigned long long)o[2]);
	cr_expect_eq(o[3], 0x8000000000000000ull, "-2^63: 0x%llx", (unsigned long long)o[3]);
	cr_expect_eq(o[4], UINT64_MAX, "-2^63 + 2^63-1: 0x%llx", (unsigned long long)o[4]);
	cr_expect_eq(o[5], UINT64_MAX, "initializer: 0x%llx", (unsigned long long)o[5]);
	h_fini(&h);
}

/* Registers declared in a { } block are gone after it; sibling blocks may
 * reuse the name, and an inner block shadows an outer register. */
Test(parse, block_scoped_registers)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	.reg .b32 %t;\n"
		"	.reg .b64 %rd1;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u32 %t, 5;\n"
		"	{\n"
		"	.reg .b32 %t;\n"
		"	mov.u32 %t, 40;\n"
		"	add.u32 %r1, %t, 1;\n"
		"	}\n"
		"	{\n"
		"	.reg .pred %t;\n"
		"	setp.eq.u32 %t, %r1, 41;\n"
		"	selp.u32 %r2, 100, 200, %t;\n"
		"	}\n"
		"	add.u32 %r1, %r1, %t;\n"
		"	st.global.v2.u32 [%rd1], {%r1, %r2};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	uint32_t o[2];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(1), o, 2);
	cr_expect_eq(o[0], 46, "inner %%t shadows, outer %%t survives: got %u", o[0]);
	cr_expect_eq(o[1], 100);

	static const char bad[] = H_PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	{\n"
		"	.reg .b32 %in;\n"
		"	mov.u32 %in, 1;\n"
		"	}\n"
		"	mov.u32 %in, 2;\n"
		"	ret;\n"
		"}\n";
	cr_expect_eq(h_load(&h, bad), SC_EPARSE);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "t.ptx:10:10:") != NULL, "got '%s'", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
}

/* Inline asm may name registers without '%': as operands, guards and
 * addresses. */
Test(parse, plain_register_names)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	.reg .b64 %rd<3>;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	mul.wide.u32 %rd2, %r1, 4;\n"
		"	// begin inline asm\n"
		"	{\n"
		"	.reg .pred p;\n"
		"	.reg .b64 a;\n"
		"	.reg .b32 v;\n"
		"	add.s64 a, %rd1, %rd2;\n"
		"	setp.lt.u32 p, %r1, 3;\n"
		"	mov.u32 v, 7;\n"
		"	@p mov.u32 v, 9;\n"
		"	@!p add.u32 v, v, %r1;\n"
		"	st.global.u32 [a], v;\n"
		"	}\n"
		"	// end inline asm\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	uint32_t o[8];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(8), o, 8);
	for (uint32_t t = 0; t < 8; t++)
		cr_expect_eq(o[t], t < 3 ? 9 : 7 + t, "thread %u: %u", t, o[t]);
	h_fini(&h);
}

/* .reqntid fixes the block shape; .maxntid bounds it. */
Test(parse, reqntid_maxntid)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry fixed(.param .u64 out)\n"
		".reqntid 32, 2\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .b64 %rd<3>;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u32 %r1, %ntid.y;\n"
		"	st.global.u32 [%rd1], %r1;\n"
		"	ret;\n"
		"}\n"
		".visible .entry bounded(.param .u64 out)\n"
		".maxntid 64, 2, 1\n"
		".minnctapersm 4\n"
		"{\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 4, NULL);
	h_launch_ok(&h, "fixed", H_D1(1), H_DIM(32, 2, 1), 0, H_ARGS(&d));
	uint32_t v;
	h_read(&h, &v, d, 4);
	cr_expect_eq(v, 2);
	cr_expect_eq(h_launch(&h, "fixed", H_D1(1), H_DIM(64, 1, 1), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(h_launch(&h, "fixed", H_D1(1), H_DIM(32, 1, 2), 0, H_ARGS(&d)), SC_ELAUNCH);
	h_launch_ok(&h, "bounded", H_D1(1), H_DIM(128, 1, 1), 0, H_ARGS(&d));
	cr_expect_eq(h_launch(&h, "bounded", H_D1(1), H_DIM(129, 1, 1), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(h_launch(&h, "nosuch", H_D1(1), H_D1(1), 0, H_ARGS(&d)), SC_ENOTFOUND);
	h_fini(&h);
}

/* sc_kernel_param: each parameter's name, PTX type and element count. */
Test(parse, kernel_param_declarations)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .f32 x, .param .align 8 .b8 blob[12],\n"
		"                  .param .s16 h)\n"
		"{\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	static const struct {
		const char *name, *type;
		uint32_t count, size;
	} want[] = {{"out", "u64", 1, 8}, {"x", "f32", 1, 4}, {"blob", "b8", 12, 12}, {"h", "s16", 1, 2}};
	for (uint32_t i = 0; i < 4; i++) {
		sc_param_info_t pi;
		cr_assert_eq(sc_kernel_param(h.mod, "k", i, &pi), 0);
		cr_expect_str_eq(pi.name, want[i].name);
		cr_expect_str_eq(pi.type, want[i].type);
		cr_expect_eq(pi.count, want[i].count, "param %u", i);
		cr_expect_eq(pi.size, want[i].size, "param %u", i);
	}
	sc_param_info_t pi;
	cr_expect_eq(sc_kernel_param(h.mod, "k", 4, &pi), SC_EINVAL);
	cr_expect_eq(sc_kernel_param(h.mod, "nosuch", 0, &pi), SC_ENOTFOUND);
	h_fini(&h);
}

/* A .func declared before use and defined later, a call in the one-line
 * form without return values, labels on the instruction's line, predicated
 * ret, and .pragma before and inside a body. */
Test(parse, func_forms)
{
	static const char ptx[] = H_PTX_HEAD
		".pragma \"nounroll\";\n"
		".func store(.param .b64 p, .param .b32 v);\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	.reg .b64 %rd<3>;\n"
		"	.reg .pred %p1;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	mul.wide.u32 %rd2, %r1, 4;\n"
		"	add.s64 %rd2, %rd1, %rd2;\n"
		"	mul.lo.u32 %r2, %r1, %r1;\n"
		"	{ .param .b64 a0; .param .b32 a1;\n"
		"	st.param.b64 [a0], %rd2; st.param.b32 [a1], %r2;\n"
		"	call.uni store, (a0, a1);\n"
		"	}\n"
		"	ret;\n"
		"}\n"
		".func store(.param .b64 p, .param .b32 v)\n"
		"{\n"
		"	.reg .b32 %r<2>;\n"
		"	.reg .b64 %rd1;\n"
		"	.reg .pred %p1;\n"
		"	ld.param.b64 %rd1, [p];\n"
		"	ld.param.b32 %r1, [v];\n"
		"	setp.gt.u32 %p1, %r1, 100;\n"
		"$skip_$1: .pragma \"nounroll\";\n"
		"	@%p1 ret;\n"
		"	st.global.u32 [%rd1], %r1;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	uint32_t o[32];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(32), o, 32);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(o[t], t * t > 100 ? 0 : t * t, "thread %u: %u", t, o[t]);
	h_fini(&h);
}

/* ======================================================================
 * Bad input: each must fail with SC_EPARSE and "t.ptx:LINE:COL: ..." of
 * the offending token. The body line (line 7 in K) starts with a tab, so
 * its first token is at column 2.
 * ====================================================================== */

#define K(pre, line) H_PTX_HEAD pre ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n" line "\n\tret;\n}\n"

typedef struct bad {
	const char *what, *ptx, *where, *msg;
} bad_t;

static const bad_t bad_cases[] = {
	{"unknown instruction", K("", "\tfrob.b32 %r1, %r2;"), "t.ptx:7:2:", "unsupported instruction 'frob.b32'"},
	{"unknown modifier", K("", "\tadd.zz.s32 %r1, %r2, %r3;"), "t.ptx:7:2:", "unsupported modifier '.zz'"},
	{"missing type", K("", "\tadd %r1, %r2, %r3;"), "t.ptx:7:2:", "type modifier"},
	{"too few operands", K("", "\tadd.s32 %r1, %r2;"), "t.ptx:7:2:", "takes 3 operands, found 2"},
	{"too many operands", K("", "\tnot.b32 %r1, %r2, %r3;"), "t.ptx:7:2:", "takes 2 operands, found 3"},
	{"undeclared register", K("", "\tadd.s32 %r1, %q2, %r3;"), "t.ptx:7:15:", "undeclared register '%q2'"},
	{"register out of range", K("", "\tadd.s32 %r1, %r4, %r3;"), "t.ptx:7:15:", "undeclared register '%r4'"},
	{"undefined label", K("", "\tbra L_nowhere;"), "t.ptx:7:6:", "unknown label 'L_nowhere'"},
	{"label defined twice", K("", "L1:\nL1:"), "t.ptx:8:1:", "label 'L1' defined twice"},
	{"unknown variable", K("", "\tld.global.u32 %r1, [nosuch];"), "t.ptx:7:22:", "unknown variable 'nosuch'"},
	{"unknown symbol operand", K("", "\tmov.u32 %r1, nosuch;"), "t.ptx:7:15:", "unknown symbol 'nosuch'"},
	{"variable in the wrong space", K(".global .u32 g;\n", "\tld.shared.u32 %r1, [g];"), "t.ptx:8:22:",
	 "variable 'g' is not in the shared state space"},
	{"store to .const", K(".const .u32 c;\n", "\tst.const.u32 [c], %r1;"), "t.ptx:8:2:", "store to a read-only state space"},
	{"store to kernel params", K("", "\tst.param.u64 [p], 0;"), "t.ptx:7:2:", "store to a read-only state space"},
	{"predicate as address", K("", "\t.reg .pred %p;\n\tld.global.u32 %r1, [%p];"), "t.ptx:8:22:", "predicate '%p' used as an address"},
	{"setp into a register", K("", "\tsetp.eq.u32 %r1, %r2, %r3;"), "t.ptx:7:14:", "setp writes a predicate"},
	{"guard not a predicate", K("", "\t@%r1 bra L;\nL:"), "t.ptx:7:3:", "expected a predicate register after '@'"},
	{"missing semicolon", K("", "\tadd.s32 %r1, %r2, %r3\n\tadd.s32 %r1, %r2, %r3;"), "t.ptx:8:2:",
	 "expected ',' or ';' after an operand, found 'add.s32'"},
	{"unterminated comment", K("", "\t/* never closed"), "t.ptx:7:2:", "unterminated comment"},
	{"unterminated string", K("", "\t.pragma \"nounroll;"), "t.ptx:7:10:", "unterminated string"},
	{"malformed 0f literal", K("", "\tmov.b32 %r1, 0f3F80;"), "t.ptx:7:15:", "malformed 0f literal"},
	{"malformed 0d literal", K("", "\tmov.b64 %r1, 0d3FF0;"), "t.ptx:7:15:", "malformed 0d literal"},
	{"malformed number", K("", "\tmov.b32 %r1, 12ab;"), "t.ptx:7:15:", "malformed number"},
	{"decimal literal past 64 bits", K("", "\tmov.b32 %r1, 99999999999999999999999999999;"), "t.ptx:7:15:",
	 "integer literal '99999999999999999999999999999' does not fit in 64 bits"},
	{"2^64 with U", K("", "\tmov.b32 %r1, 18446744073709551616U;"), "t.ptx:7:15:",
	 "integer literal '18446744073709551616U' does not fit in 64 bits"},
	{"hex literal past 64 bits", K("", "\tmov.b32 %r1, 0xFFFFFFFFFFFFFFFFFFFF;"), "t.ptx:7:15:",
	 "integer literal '0xFFFFFFFFFFFFFFFFFFFF' does not fit in 64 bits"},
	{"octal literal past 64 bits", K("", "\tmov.b32 %r1, 02000000000000000000000;"), "t.ptx:7:15:",
	 "does not fit in 64 bits"},
	{"binary literal past 64 bits",
	 K("", "\tmov.b32 %r1, 0b10000000000000000000000000000000000000000000000000000000000000000;"), "t.ptx:7:15:",
	 "does not fit in 64 bits"},
	{"negated literal past 64 bits", K("", "\tadd.s32 %r1, %r2, -18446744073709551616;"), "t.ptx:7:21:",
	 "integer literal '18446744073709551616' does not fit in 64 bits"},
	{"literal past 64 bits in an address", K("", "\tld.global.u32 %r1, [0x10000000000000000];"), "t.ptx:7:22:",
	 "does not fit in 64 bits"},
	{"literal past 64 bits in an initializer", H_PTX_HEAD ".global .u64 g = 18446744073709551616;\n", "t.ptx:4:18:",
	 "does not fit in 64 bits"},
	{"0x without digits", K("", "\tmov.b32 %r1, 0x;"), "t.ptx:7:15:", "malformed hexadecimal literal '0x'"},
	{"octal literal with 9", K("", "\tmov.b32 %r1, 0129;"), "t.ptx:7:15:", "malformed octal literal '0129'"},
	{"binary literal with 2", K("", "\tmov.b32 %r1, 0b102;"), "t.ptx:7:15:", "malformed binary literal '0b102'"},
	{"0f literal of 9 digits", K("", "\tmov.b32 %r1, 0f3F8000000;"), "t.ptx:7:15:", "malformed 0f literal"},
	{"0d literal of 17 digits", K("", "\tmov.b64 %r1, 0d3FF00000000000000;"), "t.ptx:7:15:", "malformed 0d literal"},
	{"0d literal of 8 digits", K("", "\tmov.b64 %r1, 0d3FF00000;"), "t.ptx:7:15:", "expected 16 hex digits"},
	{"decimal float out of range", K("", "\t.reg .f64 %fd1;\n\tmov.f64 %fd1, 1e999;"), "t.ptx:8:16:",
	 "floating-point literal '1e999' is out of range"},
	{"stray character", K("", "\tmov.b32 %r1, #1;"), "t.ptx:7:15:", "unexpected character '#'"},
	{"unsupported directive in a body", K("", "\t.section .debug_info { }"), "t.ptx:7:2:", "unsupported directive '.section'"},
	{"unsupported module directive", H_PTX_HEAD ".section .debug_abbrev { }\n", "t.ptx:4:1:", "unsupported directive '.section'"},
	{".b128 register", K("", "\t.reg .b128 %q;"), "t.ptx:7:7:", ".b128 registers are not supported"},
	{".b128 variable", K(".global .b128 g;\n", ""), "t.ptx:4:9:", ".b128 variables are not supported"},
	{"vector register", K("", "\t.reg .v4 .b32 %v;"), "t.ptx:7:7:", "vector registers are not supported"},
	{"missing .version", ".target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", "t.ptx:3:10:",
	 "'.version' and '.target' must come first"},
	{"missing .target", ".version 7.0\n.address_size 64\n.entry k()\n{\n\tret;\n}\n", "t.ptx:3:1:",
	 "'.version' and '.target' must come first"},
	{"empty module", "// nothing\n", "t.ptx:2:1:", "'.version' and '.target' are missing"},
	{"old PTX version", ".version 5.0\n.target sm_75\n", "t.ptx:1:10:", "PTX ISA version 5.0 is not supported"},
	{"old target", ".version 7.0\n.target sm_20\n", "t.ptx:2:9:", "target 'sm_20' is not supported"},
	{"bad .address_size", ".version 7.0\n.target sm_75\n.address_size 32\n", "t.ptx:3:15:", "only .address_size 64"},
	{"no kernel", H_PTX_HEAD ".func f()\n{\n\tret;\n}\n", "t.ptx:8:1:", "defines no kernel"},
	{"kernel defined twice", H_PTX_HEAD ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n", "t.ptx:8:8:",
	 "function 'k' defined twice"},
	{"unexpected end of file", H_PTX_HEAD ".entry k()\n{\n\tret;\n", "t.ptx:7:1:", "unexpected end of file"},
	{"initializer on .shared", H_PTX_HEAD ".shared .u32 s = 1;\n", "t.ptx:4:14:", "only .global and .const variables"},
	{"too many initializers", H_PTX_HEAD ".global .u32 g[2] = {1, 2, 3};\n", "t.ptx:4:28:", "too many initializers for 'g'"},
	{"unsized non-extern array", H_PTX_HEAD ".global .u32 g[];\n", "t.ptx:4:14:", "unsized array 'g'"},
	{"variable past 2 GiB", K("", "\t.local .b64 a[2147483648];"), "t.ptx:7:14:",
	 "variable 'a' of 17179869184 bytes is too large (at most 2 GiB)"},
	{"local variables past 2 GiB", K("", "\t.local .b8 a[2147483648];\n\t.local .b8 b[2147483648];"), "t.ptx:1:1:",
	 "the .local variables of 'k' exceed 2 GiB per thread"},
	{"bad alignment", H_PTX_HEAD ".global .align 3 .u32 g;\n", "t.ptx:4:16:", "alignment must be a power of two"},
	{"called but never defined", H_PTX_HEAD ".func f();\n.entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n", "t.ptx:7:11:",
	 "declared but never defined"},
	{"indirect call without a prototype",
	 K("", "\t.reg .b64 %rd1;\n\t{ .param .b32 a;\n\tcall.uni %rd1, (a);\n\t}"), "t.ptx:9:11:",
	 "an indirect call needs a .callprototype label after its arguments"},
	{"indirect call through an unknown prototype",
	 K("", "\t.reg .b64 %rd1;\n\t{ .param .b32 a;\n\tcall %rd1, (a), nope;\n\t}"), "t.ptx:9:18:",
	 "'nope' is not a .callprototype or .calltargets label of this function"},
	{"indirect call with the wrong argument count",
	 K("", "\t.reg .b64 %rd1;\n\tp: .callprototype _ (.param .b32 _, .param .b32 _);\n\t{ .param .b32 a;\n"
	       "\tcall %rd1, (a), p;\n\t}"), "t.ptx:10:18:", "prototype 'p' has 0 return values and 2 parameters; "
	 "the call has 0 and 1"},
	{"indirect call through a 32-bit register",
	 K("", "\tp: .callprototype _ ();\n\tcall %r1, (), p;"), "t.ptx:8:7:", "64-bit"},
	{"call targets naming no function",
	 K("", "\tt: .calltargets nope;"), "t.ptx:7:18:", "expected a declared function in .calltargets, found 'nope'"},
	{"call prototype with a .reg", K("", "\tproto: .callprototype _ (.reg .b32 _);"), "t.ptx:7:27:",
	 "expected .param, found '.reg'"},
	{"function address in 32 bits", H_PTX_HEAD ".func f()\n{\n\tret;\n}\n.entry k()\n{\n\t.reg .b32 %r1;\n"
	 "\tmov.u32 %r1, f;\n\tret;\n}\n", "t.ptx:11:15:", "the address of function 'f' is 64 bits"},
	{"address of a kernel", H_PTX_HEAD ".entry k()\n{\n\t.reg .b64 %rd1;\n\tmov.u64 %rd1, k;\n\tret;\n}\n",
	 "t.ptx:7:16:", "'k' is a kernel: only the address of a .func can be taken"},
	{"address of a function never defined", H_PTX_HEAD ".func f();\n.global .u64 t = f;\n.entry k()\n{\n\tret;\n}\n",
	 "t.ptx:5:18:", "function 'f' is declared but never defined"},
	{"function address in a 32-bit initializer", H_PTX_HEAD ".func f()\n{\n\tret;\n}\n.global .u32 t = f;\n",
	 "t.ptx:8:18:", "the address of function 'f' is 64 bits; 't' has 4-byte elements"},
	{"variable address initializer", H_PTX_HEAD ".global .u32 g;\n.global .u64 t = g;\n", "t.ptx:5:18:",
	 "initializers with the address of a variable are not supported"},
	{"call of a non-function", K(".global .u32 g;\n", "\tcall.uni g, ();"), "t.ptx:8:11:", "not a known function"},
	{"call argument count", H_PTX_HEAD ".func f(.param .b32 a)\n{\n\tret;\n}\n.entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n",
	 "t.ptx:10:11:", "'f' takes 1 parameters, the call passes 0"},
	{"mul without .lo", K("", "\tmul.s32 %r1, %r2, %r3;"), "t.ptx:7:2:", "needs .lo, .hi or .wide"},
	{"div.f32 without rounding", K("", "\t.reg .f32 %f<3>;\n\tdiv.f32 %f1, %f2, %f2;"), "t.ptx:8:2:", "div.f32 needs"},
	{"float carry", K("", "\t.reg .f32 %f<3>;\n\tadd.cc.f32 %f1, %f2, %f2;"), "t.ptx:8:2:", "modifier not allowed"},
	{"shfl without .sync", K("", "\tshfl.up.b32 %r1, %r2, 1, 0, -1;"), "t.ptx:7:2:", "shfl.sync"},
	{"state space on add", K("", "\tadd.global.s32 %r1, %r2, %r3;"), "t.ptx:7:2:", "state space not allowed"},
	{"atomic on .local", K("", "\t.local .u32 l;\n\tatom.local.add.u32 %r1, [l], 1;"), "t.ptx:8:2:",
	 "atomics apply to global, shared or generic"},
	{"bra to a variable", K(".global .u32 g;\n", "\tbra g;"), "t.ptx:8:6:", "expected a label after 'bra'"},
	{"ld.v2 with a scalar", K("", "\tld.global.v2.u32 %r1, [%r2];"), "t.ptx:7:19:", "'.v2' needs a vector operand"},
	{"64-bit register in a 32-bit add", K("", "\t.reg .b64 %rd1;\n\tadd.s32 %rd1, %r1, %r2;"), "t.ptx:8:10:",
	 "register '%rd1' is 64-bit; 'add.s32' expects a 32-bit operand"},
	{"32-bit source of a 64-bit op", K("", "\t.reg .b64 %rd<3>;\n\tadd.s64 %rd1, %rd2, %r1;"), "t.ptx:8:22:",
	 "register '%r1' is 32-bit"},
	{"f32 register in an f64 op", K("", "\t.reg .f32 %f1;\n\t.reg .f64 %fd1;\n\tadd.f64 %fd1, %fd1, %f1;"),
	 "t.ptx:9:22:", "expects a 64-bit operand"},
	{"predicate as data", K("", "\t.reg .pred %p1;\n\tadd.s32 %r1, %p1, %r2;"), "t.ptx:8:15:",
	 "'%p1' is a predicate here"},
	{"data register as the selector of selp", K("", "\tselp.b32 %r1, %r2, %r3, %r1;"), "t.ptx:7:26:",
	 "selector must be a predicate"},
	{"mul.wide destination too narrow", K("", "\tmul.wide.s32 %r1, %r2, %r3;"), "t.ptx:7:15:",
	 "expects a 64-bit operand"},
	{"narrow cvt source register", K("", "\t.reg .b16 %rs1;\n\tcvt.u32.u64 %r1, %rs1;"), "t.ptx:8:19:",
	 "register '%rs1' is 16-bit; 'cvt.u32.u64' expects a 64-bit operand"},
	{"float ld into a wider register", K("", "\t.reg .f64 %fd1;\n\t.reg .b64 %rd1;\n\tld.global.f32 %fd1, [%rd1];"),
	 "t.ptx:9:16:", "expects a 32-bit operand"},
};

Test(parse, bad_input_table)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_t *c = &bad_cases[i];
		sc_module_t *m = NULL;
		int rc = sc_module_load_text(h.gpu, "t.ptx", c->ptx, &m);
		const char *msg = sc_gpu_errmsg(h.gpu);
		cr_expect_eq(rc, SC_EPARSE, "%s: rc %d (%s), message '%s'", c->what, rc, sc_strerror(rc), msg);
		cr_expect(strncmp(msg, c->where, strlen(c->where)) == 0, "%s: message '%s' does not start with '%s'",
		          c->what, msg, c->where);
		cr_expect(strstr(msg, c->msg) != NULL, "%s: message '%s' lacks '%s'", c->what, msg, c->msg);
	}
	/* a failed load leaves the GPU usable */
	h_load_ok(&h, K("", ""));
	h_fini(&h);
}

/* A file that does not exist or is not text. */
Test(parse, load_file_errors)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	sc_module_t *m;
	cr_expect_eq(sc_module_load_file(h.gpu, "tests/simcore/data/no_such_file.ptx", &m), SC_EIO);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "no_such_file.ptx") != NULL);
	h_fini(&h);
}

/* Every committed PTX file parses: the conformance cases and the examples. */
Test(parse, repository_ptx_files)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx"};
	size_t total = 0;
	for (size_t p = 0; p < 2; p++) {
		glob_t g;
		memset(&g, 0, sizeof g);
		int grc = glob(patterns[p], 0, NULL, &g);
		cr_assert(grc == 0 || grc == GLOB_NOMATCH);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			h_ctx_t h;
			h_init(&h);
			h_start(&h);
			sc_module_t *m = NULL;
			int rc = sc_module_load_file(h.gpu, g.gl_pathv[i], &m);
			cr_expect_eq(rc, 0, "%s: %s", g.gl_pathv[i], sc_gpu_errmsg(h.gpu));
			h_fini(&h);
			total++;
		}
		globfree(&g);
	}
	cr_expect_geq(total, 3, "found only %zu PTX files (run from the repository root)", total);
}

/* mov.v2/.v4 with brace-enclosed elements lowers to one move per element. */
Test(parse, mov_vector)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<9>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	add.u32 %r2, %r1, 100;\n"
		"	mul.lo.u32 %r3, %r1, 3;\n"
		"	xor.b32 %r4, %r1, 7;\n"
		"	mov.v4.u32 {%r5, %r6, %r7, %r8}, {%r4, %r3, %r2, %r1};\n"
		"	mov.v2.b32 {%r1, %r2}, {%r6, %r5};\n"
		"	sub.u32 %r8, %r8, %r1;\n"
		"	add.u32 %r8, %r8, %r2;\n"
		"	add.u32 %r8, %r8, %r7;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	cvta.to.global.u64 %rd1, %rd1;\n"
		"	mov.u32 %r5, %tid.x;\n"
		"	mul.wide.u32 %rd3, %r5, 4;\n"
		"	add.s64 %rd1, %rd1, %rd3;\n"
		"	st.global.u32 [%rd1], %r8;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	uint32_t o[32];
	h_run_u32(&h, ptx, "k", H_D1(1), H_D1(32), o, 32);
	/* r8 = t - 3t + (t ^ 7) + (t + 100) */
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(o[t], t - 3 * t + (t ^ 7) + t + 100, "thread %u: %u", t, o[t]);
	h_fini(&h);
}

/* ======================================================================
 * Names for fault sites: every ptx-mode slot back to its declaration, and
 * shared offsets back to variables, in the layout the kernel gets.
 * ====================================================================== */

/* Expects the register of f at ptx slot `slot` to be `name` of `type`,
 * the 32 bits `half` of it. */
static void expect_reg(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred, const char *name,
                       uint8_t type, unsigned half)
{
	char buf[32];
	uint8_t t = 0;
	unsigned hf = 9;
	cr_expect_eq(sc__reg_name(m, f, slot, pred, buf, sizeof buf), 0, "%s slot %u", f->name, slot);
	cr_expect_str_eq(buf, name, "%s slot %u", f->name, slot);
	cr_expect_eq(sc__reg_type(m, f, slot, pred, &t, &hf), 0);
	cr_expect_eq(t, type, "%s %s: type %u", f->name, name, t);
	cr_expect_eq(hf, half, "%s slot %u: half %u", f->name, slot, hf);
}

static void expect_no_reg(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred)
{
	char buf[32] = "x";
	cr_expect_eq(sc__reg_name(m, f, slot, pred, buf, sizeof buf), -1, "%s slot %u", f->name, slot);
	cr_expect_str_eq(buf, "");
	cr_expect_eq(sc__reg_type(m, f, slot, pred, NULL, NULL), -1);
}

static const char names_ptx[] = H_PTX_HEAD
	".func (.param .b32 rv) twice(.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %q<2>;\n"
	"	.reg .pred %c;\n"
	"	ld.param.b32 %q0, [a];\n"
	"	setp.gt.u32 %c, %q0, 3;\n"
	"	@%c add.u32 %q1, %q0, %q0;\n"
	"	st.param.b32 [rv], %q1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .f32 %f<3>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	.reg .b32 acc;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	cvt.rn.f32.u32 %f1, %r1;\n"
	"	setp.lt.u32 %p2, %r1, 7;\n"
	"	selp.u32 acc, 1, 2, %p2;\n"
	"	{\n"
	"	.reg .b32 %t;\n"
	"	.reg .pred %p<2>;\n"
	"	setp.eq.u32 %p1, acc, 1;\n"
	"	selp.u32 %t, 5, 6, %p1;\n"
	"	add.u32 acc, acc, %t;\n"
	"	}\n"
	"	{\n"
	"	.param .b32 a;\n"
	"	.param .b32 rv;\n"
	"	st.param.b32 [a], acc;\n"
	"	call.uni (rv), twice, (a);\n"
	"	ld.param.b32 %r2, [rv];\n"
	"	}\n"
	"	cvt.rzi.u32.f32 %r3, %f1;\n"
	"	add.u32 %r2, %r2, %r3;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd1, %rd1, %rd2;\n"
	"	st.global.u32 [%rd1], %r2;\n"
	"	ret;\n"
	"}\n";

/* Every slot of k and of the .func it calls, in both register modes: the
 * names are those of the ptx-mode slots, whatever the allocation did. */
Test(parse, register_names)
{
	for (int mode = 0; mode < 2; mode++) {
		h_ctx_t h;
		h_init(&h);
		h.opt.regs = mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
		sc_module_t *m = h_load_ok(&h, names_ptx);
		const sc_func_t *k = h_func(m, "k"), *tw = h_func(m, "twice");
		/* declaration order: %r<4> 0-3, %f<3> 4-6, %rd<3> 7-12, acc 13, %t 14 */
		cr_assert_eq(k->ptx_nregs, 15);
		cr_assert_eq(k->ptx_npreds, 5);
		char nm[8];
		for (uint32_t i = 0; i < 4; i++) {
			snprintf(nm, sizeof nm, "%%r%u", i);
			expect_reg(m, k, k->ptx_reg_base + i, false, nm, SC_T_B32, 0);
		}
		for (uint32_t i = 0; i < 3; i++) {
			snprintf(nm, sizeof nm, "%%f%u", i);
			expect_reg(m, k, k->ptx_reg_base + 4 + i, false, nm, SC_T_F32, 0);
			snprintf(nm, sizeof nm, "%%rd%u", i);
			expect_reg(m, k, k->ptx_reg_base + 7 + 2 * i, false, nm, SC_T_B64, 0);
			expect_reg(m, k, k->ptx_reg_base + 8 + 2 * i, false, nm, SC_T_B64, 1);
			snprintf(nm, sizeof nm, "%%p%u", i);
			expect_reg(m, k, k->ptx_pred_base + i, true, nm, SC_T_PRED, 0);
		}
		expect_reg(m, k, k->ptx_reg_base + 13, false, "acc", SC_T_B32, 0);
		expect_reg(m, k, k->ptx_reg_base + 14, false, "%t", SC_T_B32, 0);
		/* the block's own %p<2> after the outer %p<3> */
		expect_reg(m, k, k->ptx_pred_base + 3, true, "%p0", SC_T_PRED, 0);
		expect_reg(m, k, k->ptx_pred_base + 4, true, "%p1", SC_T_PRED, 0);
		expect_no_reg(m, k, k->ptx_reg_base + 15, false);
		expect_no_reg(m, k, k->ptx_pred_base + 5, true);
		/* the .func's slots lie in its own window, above the kernel's */
		cr_expect_geq(tw->ptx_reg_base, k->ptx_nregs);
		expect_reg(m, tw, tw->ptx_reg_base, false, "%q0", SC_T_B32, 0);
		expect_reg(m, tw, tw->ptx_reg_base + 1, false, "%q1", SC_T_B32, 0);
		expect_reg(m, tw, tw->ptx_pred_base, true, "%c", SC_T_PRED, 0);
		expect_no_reg(m, tw, tw->ptx_reg_base + 2, false);
		expect_no_reg(m, k, tw->ptx_reg_base + 1, false);
		if (tw->ptx_reg_base > 0)
			expect_no_reg(m, tw, tw->ptx_reg_base - 1, false);
		/* a short buffer gets the start of the name */
		char b3[3];
		cr_expect_eq(sc__reg_name(m, k, k->ptx_reg_base + 9, false, b3, sizeof b3), 0);
		cr_expect_str_eq(b3, "%r");
		cr_expect_eq(sc__func_at(m, k->entry_pc), k);
		cr_expect_eq(sc__func_at(m, tw->end_pc - 1), tw);
		cr_expect_null(sc__func_at(m, m->ncode));
		/* and the module still runs */
		uint64_t d = h_alloc(&h, 32 * 4, NULL);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		uint32_t o[32];
		h_read(&h, o, d, sizeof o);
		for (uint32_t t = 0; t < 32; t++) {
			uint32_t acc = t < 7 ? 1 + 5 : 2 + 6;
			cr_expect_eq(o[t], (acc > 3 ? 2 * acc : 0) + t, "mode %d thread %u: %u", mode, t, o[t]);
		}
		h_fini(&h);
	}
}

/* Shared memory as three kernels get it: `a` and `b` with padding between
 * them (b's .align 16); `com`, a module variable a .func uses, first in
 * the layout of every kernel that calls the .func or names `com` (k_own
 * does neither, k_com only names it); `dyn`, extern, after a kernel's
 * static data; `z`, of no bytes. Each kernel stores the addresses it uses, and the lookup
 * must agree with them. */
static const char smem_ptx[] = H_PTX_HEAD
	".shared .align 8 .b8 com[12];\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".func touch()\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	mov.u32 %r1, 7;\n"
	"	st.shared.u32 [com+8], %r1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k_call(.param .u64 out)\n"
	"{\n"
	"	.shared .align 4 .b8 a[6];\n"
	"	.shared .align 16 .b8 b[32];\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	call.uni touch, ();\n"
	"	mov.u64 %rd2, a;\n"
	"	st.global.u64 [%rd1], %rd2;\n"
	"	mov.u64 %rd2, b;\n"
	"	st.global.u64 [%rd1+8], %rd2;\n"
	"	mov.u64 %rd2, dyn;\n"
	"	st.global.u64 [%rd1+16], %rd2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k_com(.param .u64 out)\n"
	"{\n"
	"	.shared .align 4 .b8 c[8];\n"
	"	.reg .b32 %r<3>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r1, 1;\n"
	"	st.shared.u32 [c], %r1;\n"
	"	mov.u32 %r1, 2;\n"
	"	st.shared.u32 [com], %r1;\n"
	"	ld.shared.u32 %r2, [c];\n"
	"	st.global.u32 [%rd1+24], %r2;\n"
	"	mov.u64 %rd2, com;\n"
	"	st.global.u64 [%rd1], %rd2;\n"
	"	mov.u64 %rd2, c;\n"
	"	st.global.u64 [%rd1+8], %rd2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k_own(.param .u64 out)\n"
	"{\n"
	"	.shared .align 4 .b8 e[4];\n"
	"	.shared .align 4 .b8 z[0];\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u64 %rd2, e;\n"
	"	st.global.u64 [%rd1], %rd2;\n"
	"	mov.u64 %rd2, z;\n"
	"	st.global.u64 [%rd1+8], %rd2;\n"
	"	ret;\n"
	"}\n";

/* Runs kernel `kn` of smem_ptx; o gets the 4 words it stores. */
static void smem_run(h_ctx_t *h, const char *kn, uint32_t dyn, uint64_t o[4])
{
	uint64_t d = h_alloc(h, 4 * 8, NULL);
	h_launch_ok(h, kn, H_D1(1), H_D1(1), dyn, H_ARGS(&d));
	h_read(h, o, d, 4 * 8);
}

static void expect_var(const sc_module_t *m, const sc_func_t *k, uint32_t off, const char *name, uint32_t in)
{
	const char *nm = NULL;
	uint32_t at = 99;
	cr_expect_eq(sc__smem_var(m, k, off, &nm, &at), 0, "%s: offset %u", k->name, off);
	cr_expect_str_eq(nm ? nm : "(none)", name, "%s: offset %u", k->name, off);
	cr_expect_eq(at, in, "%s: offset %u is byte %u of %s", k->name, off, at, name);
}

static void expect_no_var(const sc_module_t *m, const sc_func_t *k, uint32_t off)
{
	const char *nm = NULL;
	cr_expect_eq(sc__smem_var(m, k, off, &nm, NULL), -1, "%s: offset %u in %s", k->name, off, nm ? nm : "?");
}

Test(parse, shared_variable_names)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, smem_ptx);
	uint64_t o[4];
	/* k_call: com (from the .func), a, padding, b, then dyn */
	const sc_func_t *k = h_func(m, "k_call");
	smem_run(&h, "k_call", 100, o);
	uint32_t a = (uint32_t)o[0], b = (uint32_t)o[1], dyn = (uint32_t)o[2];
	cr_assert_geq(a, 12, "a (%u) after com", a);
	cr_assert_geq(b, a + 8, "padding between a (%u) and b (%u)", a, b);
	cr_assert_geq(dyn, b + 32);
	expect_var(m, k, 0, "com", 0);
	expect_var(m, k, 11, "com", 11);
	expect_var(m, k, a, "a", 0);
	expect_var(m, k, a + 5, "a", 5);
	expect_no_var(m, k, a + 6);
	expect_no_var(m, k, b - 1);
	expect_var(m, k, b, "b", 0);
	expect_var(m, k, b + 31, "b", 31);
	expect_var(m, k, dyn, "dyn", 0);
	expect_var(m, k, dyn + 99, "dyn", 99);
	expect_var(m, k, dyn + 5000, "dyn", 5000); /* the launch's size is not the module's to know */
	cr_expect_eq(k->smem_static, b + 32);
	/* k_com names com without calling the .func: com first, c after it */
	k = h_func(m, "k_com");
	smem_run(&h, "k_com", 0, o);
	uint32_t com = (uint32_t)o[0], c = (uint32_t)o[1];
	cr_expect_eq(o[3] & 0xffffffffu, 1, "c and com do not overlap");
	cr_expect_geq(c, com + 12);
	expect_var(m, k, com + 4, "com", 4);
	expect_var(m, k, c + 3, "c", 3);
	expect_no_var(m, k, c + 8);
	cr_expect_eq(k->smem_static, c + 8);
	/* k_own: e at 0, then z, which holds no byte */
	k = h_func(m, "k_own");
	smem_run(&h, "k_own", 0, o);
	cr_expect_eq(o[0], 0);
	cr_expect_eq(o[1], 4);
	expect_var(m, k, 0, "e", 0);
	expect_var(m, k, 3, "e", 3);
	expect_no_var(m, k, 4);
	/* a .func has no shared layout of its own */
	expect_no_var(m, h_func(m, "touch"), 0);
	h_fini(&h);
}
