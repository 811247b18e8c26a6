/* Register spilling (spill.c; DESIGN.md, "Spilling"): a kernel whose
 * allocation needs more than the GPU's max_regs_per_thread runs with
 * registers spilled to local memory, with the outputs of unalloc mode,
 * within the limit, and with an allocation that still verifies. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "%s (run from the repository root)", path);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

typedef struct run {
	int rc;           /* the launch's */
	uint32_t regs;    /* per thread */
	sc_kernel_regs_t kr;
} run_t;

/* Runs kernel `k` of ptx with (in, out) or (out) arguments on one block of
 * n threads in `mode` with max_regs_per_thread `limit` (0: gtx480's);
 * out gets `words` u32 per thread. Alloc modes must verify. */
static run_t run(const char *ptx, sc_regs_t mode, uint32_t limit, const void *in, uint32_t in_bytes, uint32_t n,
                 uint32_t words, void *out)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = mode;
	if (limit)
		h.cfg.max_regs_per_thread = limit;
	sc_module_t *m = h_load_ok(&h, ptx);
	run_t r = {0};
	cr_assert_eq(sc_kernel_regs(m, "k", &r.kr), 0);
	uint64_t o = h_alloc(&h, (uint64_t)n * words * 4, NULL), a = in ? h_alloc(&h, in_bytes, in) : 0;
	r.rc = in ? h_launch(&h, "k", H_D1(1), H_D1(n), 0, H_ARGS(&a, &o)) : h_launch(&h, "k", H_D1(1), H_D1(n), 0, H_ARGS(&o));
	if (r.rc == 0) {
		h_read(&h, out, o, (uint64_t)n * words * 4);
		r.regs = h_last(&h)->regs_per_thread;
	}
	if (mode != SC_REGS_UNALLOC) {
		char msg[256] = "";
		cr_assert_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s", msg);
	}
	h_fini(&h);
	return r;
}

/* k(out) of ptx on 64 threads: unalloc's outputs in ref, and the run in
 * alloc mode without a lower limit (it fits, nothing spilled). */
static run_t reference(const char *ptx, uint32_t ref[64])
{
	uint32_t got[64];
	run_t u = run(ptx, SC_REGS_UNALLOC, 0, NULL, 0, 64, 1, ref);
	cr_assert_eq(u.rc, 0);
	run_t full = run(ptx, SC_REGS_ALLOC, 0, NULL, 0, 64, 1, got);
	cr_assert_eq(full.rc, 0);
	cr_expect_eq(full.kr.spill_regs, 0);
	cr_expect_arr_eq(got, ref, 64 * sizeof *got);
	return full;
}

/* The reproducer (tests/spill/spill80.ptx): 80 values live at once. */
Test(spill, eighty_live_values_fit_gtx480)
{
	const char *ptx = slurp("tests/spill/spill80.ptx");
	static float a[400000], ref[64], got[64];
	for (uint32_t i = 0; i < 400000; i++)
		a[i] = (float)((i * 2654435761u) % 2001) / 1000.0f - 1.0f;
	run_t u = run(ptx, SC_REGS_UNALLOC, 0, a, sizeof a, 64, 1, ref);
	cr_assert_eq(u.rc, 0);
	cr_expect_eq(u.kr.spill_regs, 0, "unalloc mode never spills");
	sc_regs_t modes[] = {SC_REGS_PTX, SC_REGS_ALLOC};
	for (int i = 0; i < 2; i++) {
		run_t r = run(ptx, modes[i], 0, a, sizeof a, 64, 1, got);
		cr_assert_eq(r.rc, 0, "mode %d: the launch is refused", i);
		cr_expect_arr_eq(got, ref, sizeof ref, "mode %d: outputs differ from unalloc", i);
		cr_expect_leq(r.regs, 63);
		cr_expect_gt(r.kr.spill_regs, 0);
		cr_expect_eq(r.kr.spill_stores, r.kr.spill_regs, "each value is defined once");
		cr_expect_geq(r.kr.spill_loads, r.kr.spill_regs);
		cr_expect_geq(r.kr.spill_bytes, 4 * r.kr.spill_regs);
	}
}

/* Nothing is spilled, and nothing changes, where everything fits: the
 * code of every committed module is the same with the limit raised out
 * of reach. */
Test(spill, nothing_changes_when_everything_fits)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx"};
	int files = 0;
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		glob_t g;
		if (glob(patterns[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++) {
			h_ctx_t a, b;
			h_init(&a);
			h_init(&b);
			a.opt.regs = b.opt.regs = SC_REGS_ALLOC;
			b.cfg.max_regs_per_thread = 65536;
			b.cfg.regs_per_sm = 65536;
			h_start(&a);
			h_start(&b);
			sc_module_t *ma, *mb;
			cr_assert_eq(sc_module_load_file(a.gpu, g.gl_pathv[j], &ma), 0, "%s", sc_gpu_errmsg(a.gpu));
			cr_assert_eq(sc_module_load_file(b.gpu, g.gl_pathv[j], &mb), 0, "%s", sc_gpu_errmsg(b.gpu));
			cr_expect_eq(ma->ncode, mb->ncode, "%s", g.gl_pathv[j]);
			if (ma->ncode == mb->ncode)
				cr_expect_eq(memcmp(ma->code, mb->code, ma->ncode * sizeof *ma->code), 0, "%s", g.gl_pathv[j]);
			cr_expect_eq(ma->local_all, mb->local_all, "%s", g.gl_pathv[j]);
			for (uint32_t f = 0; f < ma->nfuncs; f++)
				cr_expect_eq(ma->funcs[f].spill_own.regs, 0, "%s", g.gl_pathv[j]);
			files++;
			h_fini(&a);
			h_fini(&b);
		}
		globfree(&g);
	}
	cr_expect_geq(files, 38, "found %d PTX files", files);
}

/* Random kernels (randprog.c) allocated under low limits: the outputs of
 * unalloc mode, within the limit whenever the launch is accepted, and
 * the spill code in the registers' counts. */
Test(spill, random_programs_under_low_limits)
{
	static char ptx[1 << 16];
	static const uint32_t limits[] = {12, 16, 24};
	int spilled = 0, refused = 0, runs = 0;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		h_random_program(seed, ptx, sizeof ptx);
		uint32_t ref[64 * 11], got[64 * 11];
		run_t u = run(ptx, SC_REGS_UNALLOC, 0, NULL, 0, 64, 11, ref);
		cr_assert_eq(u.rc, 0);
		for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) {
			run_t r = run(ptx, SC_REGS_ALLOC, limits[l], NULL, 0, 64, 11, got);
			runs++;
			if (r.rc) {
				refused++;
				cr_expect_gt(r.kr.regs, limits[l]);
				continue;
			}
			cr_expect_arr_eq(got, ref, sizeof ref, "seed %llu, limit %u: outputs differ\n%s",
			                 (unsigned long long)seed, limits[l], ptx);
			cr_expect_leq(r.regs, limits[l], "seed %llu", (unsigned long long)seed);
			spilled += r.kr.spill_regs > 0;
		}
	}
	/* randprog's .funcs read their registers before writing them: those
	 * keep their slots (never spilled), so the lowest limits cannot be
	 * met by every program */
	cr_expect_gt(spilled, runs / 4, "%d of %d runs spilled", spilled, runs);
	cr_expect_lt(refused, runs * 2 / 3, "%d of %d runs refused", refused, runs);
}

/* A .func with more live values than the limit, called from a loop that
 * keeps its own values live across the call: both spill, in their own
 * local memory, and the outputs stay those of unalloc mode. */
static const char calls[] = H_PTX_HEAD
	".func (.param .b32 rv) f(.param .b32 x)\n{\n"
	"	.reg .b32 %a<24>;\n"
	"	ld.param.b32 %a20, [x];\n"
	"	add.u32 %a0, %a20, 1;\n"
	"	mul.lo.u32 %a1, %a20, 3;\n"
	"	xor.b32 %a2, %a20, 0x55;\n"
	"	add.u32 %a3, %a0, %a1;\n"
	"	add.u32 %a4, %a1, %a2;\n"
	"	mul.lo.u32 %a5, %a3, %a4;\n"
	"	add.u32 %a6, %a5, %a20;\n"
	"	xor.b32 %a7, %a6, %a0;\n"
	"	add.u32 %a8, %a7, %a1;\n"
	"	mul.lo.u32 %a9, %a8, 7;\n"
	"	add.u32 %a10, %a9, %a2;\n"
	"	add.u32 %a11, %a10, %a3;\n"
	"	add.u32 %a12, %a0, %a4;\n"
	"	add.u32 %a12, %a12, %a5;\n"
	"	add.u32 %a12, %a12, %a6;\n"
	"	add.u32 %a12, %a12, %a7;\n"
	"	add.u32 %a12, %a12, %a8;\n"
	"	add.u32 %a12, %a12, %a9;\n"
	"	add.u32 %a12, %a12, %a10;\n"
	"	add.u32 %a12, %a12, %a11;\n"
	"	st.param.b32 [rv], %a12;\n"
	"	ret;\n}\n"
	".visible .entry k(.param .u64 out)\n{\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r0, %tid.x;\n"
	"	ld.param.u64 %rd0, [out];\n"
	"	mul.wide.u32 %rd1, %r0, 4;\n"
	"	add.s64 %rd1, %rd0, %rd1;\n"
	"	add.u32 %r1, %r0, 11;\n"
	"	mul.lo.u32 %r2, %r0, 13;\n"
	"	xor.b32 %r3, %r0, 0x77;\n"
	"	mov.u32 %r4, 0;\n"
	"	mov.u32 %r5, 0;\n"
	"LOOP:\n"
	"	add.u32 %r6, %r0, %r5;\n"
	"	{\n"
	"	.param .b32 a;\n"
	"	.param .b32 rv;\n"
	"	st.param.b32 [a], %r6;\n"
	"	call.uni (rv), f, (a);\n"
	"	ld.param.b32 %r7, [rv];\n"
	"	}\n"
	"	add.u32 %r4, %r4, %r7;\n"
	"	add.u32 %r4, %r4, %r1;\n"
	"	xor.b32 %r4, %r4, %r2;\n"
	"	add.u32 %r4, %r4, %r3;\n"
	"	add.u32 %r5, %r5, 1;\n"
	"	setp.lt.u32 %p0, %r5, 3;\n"
	"	@%p0 bra LOOP;\n"
	"	st.global.u32 [%rd1], %r4;\n"
	"	ret;\n}\n";

Test(spill, func_and_caller_spill)
{
	uint32_t ref[64], got[64];
	run_t full = reference(calls, ref);
	for (uint32_t limit = 8; limit <= 12; limit += 2) {
		cr_assert_gt(full.kr.regs, limit, "the test needs pressure above %u", limit);
		run_t r = run(calls, SC_REGS_PTX, limit, NULL, 0, 64, 1, got);
		cr_assert_eq(r.rc, 0, "limit %u: refused (%u registers)", limit, r.kr.regs);
		cr_expect_leq(r.regs, limit);
		cr_expect_gt(r.kr.spill_regs, 0);
		cr_expect_arr_eq(got, ref, sizeof ref, "limit %u: outputs differ", limit);
	}
	/* the .func's own spill slots, in its own local memory */
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.cfg.max_regs_per_thread = 8;
	sc_module_t *m = h_load_ok(&h, calls);
	const sc_func_t *f = NULL, *k = NULL;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		*(m->funcs[i].is_entry ? &k : &f) = &m->funcs[i];
	cr_assert(f && k);
	cr_expect_gt(f->spill_own.regs, 0, "the .func spills");
	cr_expect_gt(f->local_pass_end, f->frame_off + f->frame_bytes, "above its frame");
	cr_expect_geq(k->local_total, f->local_pass_end, "the kernel's local memory covers it");
	cr_expect_eq(k->spill_total.regs, k->spill_own.regs + f->spill_own.regs);
	h_fini(&h);
}

/* ptx mode: a fault drawn on a spilled virtual register lands nowhere
 * (its value is in local memory, which local-memory faults reach): no
 * instruction names it any more, so it keeps no slot (vslot), and
 * sc__vreg_home finds it no register-file home at any pc (masked). The
 * registers that lose their slots are exactly those counted spilled. */
Test(spill, spilled_registers_have_no_home)
{
	h_ctx_t a, b;
	h_init(&a);
	h_init(&b);
	a.opt.regs = b.opt.regs = SC_REGS_ALLOC;
	b.cfg.max_regs_per_thread = 8;
	sc_module_t *ma = h_load_ok(&a, calls), *mb = h_load_ok(&b, calls);
	uint32_t total = 0;
	for (uint32_t i = 0; i < ma->nfuncs; i++) {
		const sc_func_t *fa = &ma->funcs[i], *fb = &mb->funcs[i];
		uint32_t lost = 0;
		for (uint32_t v = 0; v < fa->ptx_nregs; v++)
			if (fa->vslot[v] != SC_VSLOT_NONE && !(v > 0 && fa->vslot[v - 1] != SC_VSLOT_NONE &&
			                                        (fa->vslot[v - 1] & SC_VSLOT_PAIR)))
				lost += fb->vslot[v] == SC_VSLOT_NONE;
		cr_expect_eq(lost, fb->spill_own.regs, "'%s'", fa->name);
		total += lost;
	}
	cr_expect_gt(total, 0);
	h_fini(&a);
	h_fini(&b);
}

/* The choice weighs uses by loop depth: %r2, used once but inside the
 * loop, costs more than %r1, used four times after it (8 against 5 per
 * live pc, both live throughout), so one register too many spills %r1
 * and keeps %r2 (without the weight %r2 would go: 2 against 5). */
static const char loopy[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n"
	"	.reg .b32 %r<16>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r0, %tid.x;\n"
	"	ld.param.u64 %rd0, [out];\n"
	"	mul.wide.u32 %rd1, %r0, 4;\n"
	"	add.s64 %rd1, %rd0, %rd1;\n"
	"	mul.lo.u32 %r1, %r0, 3;\n"
	"	mul.lo.u32 %r2, %r0, 5;\n"
	"	mov.u32 %r3, 0;\n"
	"	mov.u32 %r4, 0;\n"
	"LOOP:\n"
	"	add.u32 %r3, %r3, %r2;\n"
	"	st.global.u32 [%rd1], %r3;\n"
	"	add.u32 %r4, %r4, 1;\n"
	"	setp.lt.u32 %p0, %r4, 10;\n"
	"	@%p0 bra LOOP;\n"
	"	add.u32 %r3, %r3, %r1;\n"
	"	xor.b32 %r3, %r3, %r1;\n"
	"	add.u32 %r3, %r3, %r1;\n"
	"	mul.lo.u32 %r3, %r3, %r1;\n"
	"	st.global.u32 [%rd1], %r3;\n"
	"	ret;\n}\n";

Test(spill, loop_depth_weighs_the_choice)
{
	uint32_t ref[64], got[64];
	run_t full = reference(loopy, ref);
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.cfg.max_regs_per_thread = full.kr.regs - 1;
	sc_module_t *m = h_load_ok(&h, loopy);
	const sc_func_t *k = &m->funcs[0];
	cr_expect_eq(k->spill_own.regs, 1, "one register spills");
	cr_expect_eq(k->vslot[1], SC_VSLOT_NONE, "%%r1 (used after the loop) is spilled");
	cr_expect_neq(k->vslot[2], SC_VSLOT_NONE, "%%r2 (used in the loop) keeps its slot");
	h_fini(&h);
	run_t r = run(loopy, SC_REGS_ALLOC, full.kr.regs - 1, NULL, 0, 64, 1, got);
	cr_assert_eq(r.rc, 0);
	cr_expect_arr_eq(got, ref, sizeof ref);
}
