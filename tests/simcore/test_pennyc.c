/* Penny, compiled mode (pennyc.c; DESIGN.md, "Penny (compiled)"): the
 * alias test, region formation at memory anti-dependences, storage
 * alternation on a loop, pruning. The modules are loaded in alloc mode
 * and compiled directly; recovery is tested by injection in
 * tests/engine/test_runner.c (pennyc_masks_every_single_bit_fault). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

static int fake_alloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
	(void)ctx;
	(void)bytes;
	*addr = 0x10000000ull;
	return 0;
}

static int fake_global(void *ctx, uint64_t bytes, const void *init, uint64_t *addr)
{
	(void)init;
	return fake_alloc(ctx, bytes, addr);
}

/* Loads ptx (alloc mode) and compiles it with o (alloc, num_sms and
 * max_warps filled in); the compiler's status. The kernels' shared bytes
 * per warp must be the storage's. */
static int compile_with(const char *ptx, sc_pennyc_opts_t o, sc_pennyc_stats_t *st, char *msg, size_t n)
{
	sc_ptx_host_t host = {.regs = SC_REGS_ALLOC, .alloc_global = fake_global};
	sc_module_t *m = NULL;
	cr_assert_eq(sc__ptx_load(&host, "t.ptx", ptx, &m, msg, n), 0, "%s", msg);
	o.num_sms = 2;
	o.max_warps = 4;
	o.alloc = fake_alloc;
	int rc = sc__pennyc_compile(m, &o, st, msg, n);
	if (!rc) {
		cr_expect(m->pennyc != NULL);
		cr_expect_eq(sc__regalloc_verify(m, msg, n), 0, "%s", msg);
		cr_expect_eq(m->pennyc->smem_warp, st->smem_warp);
		for (uint32_t fi = 0; fi < m->nfuncs; fi++)
			if (m->funcs[fi].is_entry)
				cr_expect_eq(m->funcs[fi].smem_warp, st->smem_warp, "kernel %s", m->funcs[fi].name);
	}
	sc__module_free(m);
	return rc;
}

static int compile(const char *ptx, bool pruning, sc_pennyc_stats_t *st, char *msg, size_t n)
{
	return compile_with(ptx, (sc_pennyc_opts_t){.pruning = pruning, .storage = SC_PENNY_STORE_GLOBAL}, st, msg, n);
}

/* The same with optimal pruning. */
static int compile_opt(const char *ptx, sc_pennyc_stats_t *st, char *msg, size_t n)
{
	return compile_with(ptx, (sc_pennyc_opts_t){.pruning = true, .optimal = true, .storage = SC_PENNY_STORE_GLOBAL},
	                    st, msg, n);
}

/* A load through %rd1 then a store through %rd1 + OFF (the base written
 * in between when BUMP). */
static void ldst(char *ptx, size_t n, int off, bool bump, const char *space)
{
	snprintf(ptx, n,
	         H_PTX_HEAD ".visible .entry k(.param .u64 a)\n{\n"
	         "	.reg .b32 %%r<4>;\n	.reg .b64 %%rd<4>;\n"
	         "	ld.param.u64 %%rd1, [a];\n"
	         "	ld.global.u32 %%r1, [%%rd1];\n"
	         "	add.u32 %%r2, %%r1, 1;\n"
	         "%s"
	         "	st.%s.u32 [%%rd1+%d], %%r2;\n"
	         "	ret;\n}\n",
	         bump ? "	add.u64 %rd1, %rd1, 4;\n" : "", space, off);
}

Test(pennyc, alias_rules)
{
	const sc_pennyc_acc_t ld = {.space = SC_SP_GLOBAL, .base = 3, .valid = true, .off = 8, .size = 4};
	sc_pennyc_acc_t st = ld;
	cr_expect(sc__pennyc_may_alias(&ld, &st), "the same address");
	st.off = 12;
	cr_expect(!sc__pennyc_may_alias(&ld, &st), "the next word, same base and definition");
	st.off = 10;
	cr_expect(sc__pennyc_may_alias(&ld, &st), "overlapping bytes");
	st.off = 4;
	cr_expect(!sc__pennyc_may_alias(&ld, &st), "the word before");
	st.base = 4;
	cr_expect(sc__pennyc_may_alias(&ld, &st), "another base may point anywhere");
	st = ld;
	st.space = SC_SP_SHARED;
	cr_expect(!sc__pennyc_may_alias(&ld, &st), "global and shared are disjoint");
	st.space = SC_SP_GENERIC;
	cr_expect(sc__pennyc_may_alias(&ld, &st), "generic may be global");
	sc_pennyc_acc_t ld2 = ld;
	ld2.valid = false;
	st = ld;
	st.off = 12;
	cr_expect(sc__pennyc_may_alias(&ld2, &st), "the base written since the load: another definition");
	ld2 = ld;
	ld2.space = SC_SP_CONST;
	cr_expect(!sc__pennyc_may_alias(&ld2, &ld), "constant memory is never written");
	ld2.space = SC_SP_PARAM;
	cr_expect(!sc__pennyc_may_alias(&ld2, &ld), "a kernel parameter is not written by st.global");
	ld2.base = st.base = SC_NOREG;
	ld2.space = st.space = SC_SP_SHARED;
	ld2.off = 0;
	st.off = 4;
	cr_expect(!sc__pennyc_may_alias(&ld2, &st), "two absolute addresses, disjoint");
	st.off = 2;
	cr_expect(sc__pennyc_may_alias(&ld2, &st), "two absolute addresses, overlapping");
}

Test(pennyc, an_anti_dependence_is_cut_a_proven_non_alias_is_not)
{
	char ptx[2048], msg[512];
	sc_pennyc_stats_t st;
	ldst(ptx, sizeof ptx, 0, false, "global");
	cr_assert_eq(compile(ptx, true, &st, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(st.alias_cuts, 1, "st [%%rd1] after ld [%%rd1]: cut");
	cr_expect_eq(st.alias_kept, 0);
	uint32_t cut_regions = st.regions;
	ldst(ptx, sizeof ptx, 4, false, "global");
	cr_assert_eq(compile(ptx, true, &st, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(st.alias_cuts, 0, "st [%%rd1+4] after ld [%%rd1]: proven apart");
	cr_expect_eq(st.alias_kept, 1);
	cr_expect_eq(st.regions, cut_regions - 1, "one region fewer");
	ldst(ptx, sizeof ptx, 0, true, "global");
	cr_assert_eq(compile(ptx, true, &st, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(st.alias_cuts, 1, "the base written between: cut");
	ldst(ptx, sizeof ptx, 0, false, "shared");
	cr_assert_eq(compile(ptx, true, &st, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(st.alias_cuts, 0, "a shared store after a global load: apart");
}

/* A counted loop: %r2 is live into the loop's region and updated in it,
 * so it alternates between two slots, with an adjustment on the way
 * round; %r1 (tid) and %rd1 (a parameter) are recomputable. */
static const char loop[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r2, 0;\n"
	"	add.u32 %r3, %r1, 1;\n"
	"L:\n"
	"	add.u32 %r2, %r2, %r3;\n"
	"	setp.lt.u32 %p1, %r2, 500;\n"
	"	@%p1 bra L;\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mul.wide.u32 %rd3, %r1, 4;\n"
	"	add.s64 %rd3, %rd2, %rd3;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

Test(pennyc, a_loop_alternates_and_pruning_removes_checkpoints)
{
	char msg[512];
	sc_pennyc_stats_t none, basic;
	cr_assert_eq(compile(loop, false, &none, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(compile(loop, true, &basic, msg, sizeof msg), 0, "%s", msg);
	cr_expect_geq(none.alternating, 1, "the loop counter alternates");
	cr_expect_geq(none.adjustments, 1, "the back edge needs the colour the loop reads");
	cr_expect_eq(none.cps_pruned, 0);
	cr_expect_eq(basic.cps_pruned, 2, "tid and the parameter are recomputed");
	cr_expect_eq(basic.cps + basic.cps_pruned, none.cps);
	cr_expect_eq(basic.cps_needed, none.cps_needed);
	cr_expect_lt(basic.slots, none.slots);
}

/* Runs the loop (module m on h) on 64 threads and checks its outputs. */
static void loop_computes(h_ctx_t *h, int variant)
{
	uint64_t out = h_alloc(h, 64 * 4, NULL);
	h_launch_ok(h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&out));
	uint32_t v[64];
	h_read(h, v, out, sizeof v);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t x = 0;
		do
			x += t + 1;
		while (x < 500);
		cr_expect_eq(v[t], x, "variant %d thread %u", variant, t);
	}
}

/* Outputs of the loop under the compiled transform equal the original's. */
Test(pennyc, the_transformed_loop_computes_the_same)
{
	for (int pass = 0; pass < 2; pass++) {
		h_ctx_t h;
		h_init(&h);
		h.opt.regs = SC_REGS_ALLOC;
		if (pass)
			h.opt.prot.penny = (sc_penny_protection_t){.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED};
		h_start(&h);
		h_load_ok(&h, loop);
		loop_computes(&h, pass);
		h_fini(&h);
	}
}

/* Optimal pruning (pennyprune.c). In the loop above, %r3 = %r1 + 1 is live
 * into the loop's regions: basic pruning keeps its checkpoint, optimal
 * pruning recomputes it from %tid.x (%r1 is live there and never
 * rewritten). %r2 (i = i + step) reads itself and keeps its own. */
Test(pennyc, optimal_pruning_recomputes_what_basic_cannot)
{
	char msg[512];
	sc_pennyc_stats_t basic, opt;
	cr_assert_eq(compile(loop, true, &basic, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(compile_opt(loop, &opt, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(basic.cps_pruned, 2);
	cr_expect_eq(opt.cps_pruned, 3, "tid, the parameter and tid + 1");
	cr_expect_eq(opt.cps_needed, basic.cps_needed);
	cr_expect_eq(opt.cps + opt.cps_pruned, basic.cps + basic.cps_pruned);
}

/* An address from a committed base plus the thread's offset, live across
 * a loop: %rd2 is the parameter plus an offset loaded from global memory
 * that the kernel stores to (not read-only: committed), %rd4 = %rd2 + tid x 4 is recomputed by a
 * slice of three words (mov %tid.x, mul.wide, add) reading %rd2 as
 * restored. With SHIFT the base is overwritten in the loop before the
 * regions that use %rd4 read it: %rd4 must keep its checkpoint. */
static void base_plus_tid(char *ptx, size_t n, bool shift)
{
	snprintf(ptx, n,
	         H_PTX_HEAD ".visible .entry k(.param .u64 a)\n{\n"
	         "	.reg .b32 %%r<8>;\n	.reg .b64 %%rd<8>;\n	.reg .pred %%p<3>;\n"
	         "	ld.param.u64 %%rd1, [a];\n"
	         "	ld.global.u64 %%rd5, [%%rd1];\n"
	         "	add.s64 %%rd2, %%rd1, %%rd5;\n"
	         "	mov.u32 %%r1, %%tid.x;\n"
	         "	mul.wide.u32 %%rd3, %%r1, 4;\n"
	         "	add.s64 %%rd4, %%rd2, %%rd3;\n"
	         "	mov.u32 %%r2, 0;\n"
	         "L:\n"
	         "	add.u32 %%r2, %%r2, 1;\n"
	         "%s"
	         "	setp.lt.u32 %%p1, %%r2, 100;\n"
	         "	@%%p1 bra L;\n"
	         "	st.global.u32 [%%rd4], %%r2;\n"
	         "	st.global.u64 [%%rd1+8], %%rd2;\n"
	         "	ret;\n}\n",
	         shift ? "	add.s64 %rd2, %rd2, 8;\n" : "");
}

Test(pennyc, optimal_pruning_recomputes_an_address_unless_its_base_is_overwritten)
{
	char ptx[2048], msg[512];
	sc_pennyc_stats_t basic[2], opt[2];
	for (int shift = 0; shift < 2; shift++) {
		base_plus_tid(ptx, sizeof ptx, shift);
		cr_assert_eq(compile(ptx, true, &basic[shift], msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(compile_opt(ptx, &opt[shift], msg, sizeof msg), 0, "%s", msg);
		cr_expect_eq(opt[shift].cps_needed, basic[shift].cps_needed);
	}
	/* needed: %rd1, %rd2, %rd4 out of the entry region; %r2 (%rd2) in both */
	cr_expect_eq(basic[0].cps_pruned, 1, "the parameter");
	cr_expect_eq(opt[0].cps_pruned, 2, "the parameter and the address");
	cr_expect_eq(opt[1].cps_pruned, basic[1].cps_pruned, "%%rd2 changes on the way round: %%rd4 is not recomputable");
}

/* Outputs of both kernels under compiled Penny with optimal pruning
 * equal the original's, fault-free. */
Test(pennyc, optimal_pruning_computes_the_same)
{
	char ptx[2048];
	for (int shift = 0; shift < 2; shift++) {
		base_plus_tid(ptx, sizeof ptx, shift);
		for (int pass = 0; pass < 2; pass++) {
			h_ctx_t h;
			h_init(&h);
			h.opt.regs = SC_REGS_ALLOC;
			if (pass)
				h.opt.prot.penny = (sc_penny_protection_t){.on = true, .edc = SC_CODE_PARITY,
				                                           .mode = SC_PENNY_COMPILED,
				                                           .pruning = SC_PENNY_PRUNE_OPTIMAL};
			h_start(&h);
			h_load_ok(&h, ptx);
			uint64_t init[512] = {64};
			uint64_t buf = h_alloc(&h, sizeof init, init), base = 0;
			h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&buf));
			h_read(&h, &base, buf + 8, 8);
			cr_expect_eq(base - buf, 64u + (shift ? 800u : 0u), "shift %d pass %d: the base", shift, pass);
			for (uint32_t t = 0; t < 32; t++) {
				uint32_t v = 0;
				h_read(&h, &v, buf + 64 + t * 4, 4);
				cr_expect_eq(v, 100, "shift %d pass %d: thread %u stored its count", shift, pass, t);
			}
			h_fini(&h);
		}
	}
}

/* Storage: shared puts every slot in shared memory (256 bytes a warp
 * each), global none; auto ranks the values by their stores weighted
 * 64^(loop depth) and fills the shared bytes per warp the kernel can add
 * without losing a CTA per SM (block of 32 threads assumed here: the
 * hint): with room for two slots, the loop counter's two colours (its
 * checkpoint in the loop outweighs everything else); with room for one,
 * a value of the cheapest kind. */
Test(pennyc, storage_shared_global_and_auto_by_cost_and_occupancy)
{
	char msg[512];
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_pennyc_stats_t g, s, a;
	cr_assert_eq(compile_with(loop, (sc_pennyc_opts_t){.storage = SC_PENNY_STORE_GLOBAL}, &g, msg, sizeof msg), 0,
	             "%s", msg);
	cr_assert_eq(compile_with(loop, (sc_pennyc_opts_t){.storage = SC_PENNY_STORE_SHARED}, &s, msg, sizeof msg), 0,
	             "%s", msg);
	cr_expect_eq(g.shared_slots, 0);
	cr_expect_eq(g.smem_warp, 0);
	cr_expect_eq(s.slots, g.slots);
	cr_expect_eq(s.shared_slots, s.slots);
	/* tid, the 64-bit parameter, the counter's two colours, tid + 1: 32-bit
	 * values take 128 bytes a warp (4 a lane), the 64-bit one 256 */
	cr_expect_eq(s.slots, 5, "%u", s.slots);
	cr_expect_eq(s.smem_warp, 4 * 128 + 256, "%u", s.smem_warp);
	cr_expect_eq(s.bytes, 0, "nothing in global memory");
	cr_expect_eq(g.bytes, (uint64_t)2 * 4 * (4 * 128 + 256), "num_sms x max_warps x the warp's bytes");
	/* 8 CTAs of one warp per SM: smem_per_sm / 8 bytes a warp */
	sc_pennyc_opts_t o = {.storage = SC_PENNY_STORE_AUTO, .cfg = &cfg, .block_hint = 32};
	cfg.smem_per_sm = 8 * 512;
	cr_assert_eq(compile_with(loop, o, &a, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(a.shared_slots, 4, "512 bytes: the counter's two colours first (its checkpoint in the loop), then "
	             "the two other 32-bit values; the 64-bit one does not fit (%u)", a.shared_slots);
	cr_expect_eq(a.smem_warp, 512, "%u", a.smem_warp);
	cr_expect_eq(a.slots, g.slots);
	cr_expect_eq(a.bytes, (uint64_t)2 * 4 * 256, "the 64-bit value in global memory");
	cfg.smem_per_sm = 8 * 256;
	cr_assert_eq(compile_with(loop, o, &a, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(a.shared_slots, 2, "256 bytes: the counter (%u)", a.shared_slots);
	cfg.smem_per_sm = 8 * 255;
	cr_assert_eq(compile_with(loop, o, &a, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(a.shared_slots, 0, "128 bytes: the counter does not fit, and a value outside the loop does not pay "
	             "for the shared base's prologue (%u)", a.shared_slots);
	cfg.smem_per_sm = 8 * 127;
	cr_assert_eq(compile_with(loop, o, &a, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(a.shared_slots, 0, "no room for a unit");
	cr_expect_eq(a.smem_warp, 0);
	o.block_hint = 64; /* two warps a CTA: half the bytes a warp */
	cfg.smem_per_sm = 8 * 512;
	cr_assert_eq(compile_with(loop, o, &a, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(a.shared_slots, 2, "%u", a.shared_slots);
}

/* The loop under each storage computes the same; the launch adds one area
 * a warp to the CTA's shared memory (64 threads: two warps). */
Test(pennyc, shared_storage_computes_the_same_and_sizes_the_cta)
{
	for (int k = 0; k < 3; k++) {
		static const sc_penny_storage_t store[] = {SC_PENNY_STORE_GLOBAL, SC_PENNY_STORE_SHARED, SC_PENNY_STORE_AUTO};
		h_ctx_t h;
		h_init(&h);
		h.opt.regs = SC_REGS_ALLOC;
		h.opt.prot.penny = (sc_penny_protection_t){.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED,
		                                           .storage = store[k]};
		h_start(&h);
		sc_module_t *m = h_load_ok(&h, loop);
		uint32_t sw = h_func(m, "k")->smem_warp;
		cr_expect(k == 0 ? sw == 0 : sw >= 256, "storage %d: %u bytes a warp", k, sw);
		loop_computes(&h, k);
		cr_expect_eq(h_last(&h)->smem_per_cta, 2 * sw, "storage %d", k);
		h_fini(&h);
	}
}

/* A launch whose shared memory with the checkpoints no longer fits a CTA
 * is refused, naming the kernel and the bytes. */
Test(pennyc, a_launch_the_shared_checkpoints_do_not_fit_is_refused)
{
	static const char big[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.shared .align 4 .b8 buf[48000];\n"
		"	.reg .b32 %r<4>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	st.shared.u32 [buf], %r1;\n"
		"	bar.sync 0;\n"
		"	ld.shared.u32 %r2, [buf];\n"
		"	add.u32 %r3, %r2, %r1;\n"
		"	cvta.to.global.u64 %rd2, %rd1;\n"
		"	st.global.u32 [%rd2], %r3;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot.penny = (sc_penny_protection_t){.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED,
	                                           .storage = SC_PENNY_STORE_SHARED, .pruning = SC_PENNY_PRUNE_NONE};
	h_start(&h);
	cr_expect_geq(h_func(h_load_ok(&h, big), "k")->smem_warp, 256, "tid checkpointed across the barrier");
	uint64_t out = h_alloc(&h, 64, NULL);
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(512), 0, H_ARGS(&out)), SC_ELAUNCH);
	const char *e = sc_gpu_errmsg(h.gpu);
	cr_expect(strstr(e, "kernel 'k'") && strstr(e, "Penny's checkpoints") && strstr(e, "48000"), "%s", e);
	h_fini(&h);
}

/* The emitter's .pragma "flipsim smem_per_warp N" gives a kernel its shared
 * bytes a warp back (the emitted PTX of a module with shared checkpoints
 * loads with the same launches); it is refused on a .func or with a size
 * that is not a multiple of 16; any other pragma is ignored. */
Test(pennyc, the_smem_per_warp_pragma_loads_back)
{
	static const char *const body = "{\n\tret;\n}\n";
	struct { const char *head; int rc; uint32_t sw; } c[] = {
		{".visible .entry k()\n.pragma \"flipsim smem_per_warp 384\";\n", 0, 384},
		{".visible .entry k()\n.pragma \"nounroll\";\n", 0, 0},
		{".visible .entry k()\n.pragma \"flipsim smem_per_warp 100\";\n", SC_EPARSE, 0},
		{".visible .entry k()\n.pragma \"flipsim smem_per_warp x\";\n", SC_EPARSE, 0},
		{".func f()\n.pragma \"flipsim smem_per_warp 256\";\n", SC_EPARSE, 0},
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		char ptx[512], msg[256];
		snprintf(ptx, sizeof ptx, "%s%s%s", H_PTX_HEAD, c[i].head, body);
		sc_ptx_host_t host = {.regs = SC_REGS_ALLOC, .alloc_global = fake_global};
		sc_module_t *m = NULL;
		int rc = sc__ptx_load(&host, "t.ptx", ptx, &m, msg, sizeof msg);
		cr_expect_eq(rc, c[i].rc, "case %zu: %s", i, rc ? msg : "loaded");
		if (rc) {
			cr_expect(strstr(msg, "flipsim smem_per_warp N"), "case %zu: %s", i, msg);
			continue;
		}
		cr_expect_eq(m->funcs[0].smem_warp, c[i].sw, "case %zu", i);
		sc__module_free(m);
	}
}
