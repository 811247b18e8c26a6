/* The instruction buffer's valid bit as a fault target under each
 * ibuffer_invalid mode (sm.c: fetch, ib_cleared; DESIGN.md, "Instruction
 * buffer"). One warp runs on SM 0, warp slot 0; a pause steps cycle by
 * cycle until the warp's buffer is in the state a test needs (read through
 * sc_int.h) and flips the valid bit of one of its entries there. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* out[t] = t + 100 through an add whose result only the store reads. */
static const char straight[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

/* Lanes 0-15 take THEN, whose last instruction is followed by the
 * reconvergence point JOIN; out[t] = r2, out[32 + t] = the active mask at
 * JOIN (all lanes once the paths have reconverged). THEN's add is its third
 * instruction: a path's first two refill the buffer the branch flushed. */
static const char diverge[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.lt.u32 %p1, %r1, 16;\n"
	"	@%p1 bra THEN;\n"
	"	add.u32 %r2, %r1, 1000;\n"
	"	bra.uni JOIN;\n"
	"THEN:\n"
	"	mov.u32 %r2, 2000;\n"
	"	mov.u32 %r4, 4;\n"
	"	add.u32 %r2, %r2, %r1;\n"
	"JOIN:\n"
	"	activemask.b32 %r3;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	st.global.u32 [%rd3+128], %r3;\n"
	"	ret;\n"
	"}\n";

/* A forward jump over `mov %r2, 2`: r2 = 1 + 10 = 11. After the jump the
 * buffer is flushed, its entries keep the words fetched before it (the
 * jump at entry 0, the skipped mov at entry 1). */
static const char jump[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, 1;\n"
	"	bra.uni L;\n"
	"	mov.u32 %r2, 2;\n"
	"L:\n"
	"	mov.u32 %r3, 3;\n"
	"	add.u32 %r2, %r2, 10;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

/* What the pause looks for: warp slot 0 about to issue the instruction on
 * PTX line `line`, its buffer's entry `ent` in state `state` (sc_ibent_t:
 * SC_IB_VALID | SC_IB_HELD, or 0 for empty). There it flips that entry's
 * valid bit (if inject) and stops pausing. */
typedef struct plan {
	uint32_t line, ent;
	uint8_t state;
	bool inject;
	uint64_t at;   /* the cycle it found, 0 for none */
	uint32_t pc;   /* the instruction's pc */
	int rc;        /* what sc_inject returned */
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	const sc_warp_t *w = &g->sms[0].warps[0];
	if (w->state != SC_W_ACTIVE || !w->sp)
		return cycle + 1;
	uint32_t pc = w->stk[w->sp - 1].pc;
	if (pc >= g->run.mod->ncode || g->run.mod->line[pc] != p->line || w->ib_pc != pc ||
	    w->ib[p->ent].valid != p->state)
		return cycle + 1;
	p->at = cycle;
	p->pc = pc;
	if (p->inject)
		p->rc = sc_inject(g, SC_TGT_IBUFFER, SC_F_IB_VALID, 0, p->ent, 1);
	return UINT64_MAX;
}

/* Runs `ptx` on one warp under `mode` with the plan; out[] gets n words.
 * Returns the launch rc; h is left for h_status and h_last. */
static int run(h_ctx_t *h, const char *ptx, sc_ibinv_t mode, plan_t *p, uint32_t *out, uint32_t n)
{
	h_init(h);
	h->opt.regs = SC_REGS_UNALLOC; /* registers never shared: a skipped write leaves 0 */
	h->cfg.ibuffer_invalid = mode;
	h_load_ok(h, ptx);
	uint64_t d = h_alloc(h, n * 4, NULL);
	sc_set_pause(h->gpu, 1, on_pause, p);
	int rc = h_launch(h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	if (rc == 0)
		h_read(h, out, d, n * 4);
	return rc;
}

/* A full entry at the add: its valid bit goes 1 -> 0 in `mode`. */
static int clear_add(h_ctx_t *h, sc_ibinv_t mode, plan_t *p, uint32_t out[32])
{
	*p = (plan_t){.line = h_line_of(straight, "add.u32 %r2"), .state = SC_IB_VALID | SC_IB_HELD, .inject = true};
	int rc = run(h, straight, mode, p, out, 32);
	cr_assert_neq(p->at, 0, "the warp reaches the add with the add in entry 0");
	cr_expect_eq(p->rc, 1, "the valid bit of a live warp's entry is in use");
	return rc;
}

/* The golden run's cycles, the plan only looking. */
static uint64_t golden_cycles(sc_ibinv_t mode)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p = {.line = h_line_of(straight, "add.u32 %r2"), .state = SC_IB_VALID | SC_IB_HELD};
	cr_assert_eq(run(&h, straight, mode, &p, out, 32), 0);
	cr_assert_neq(p.at, 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_assert_eq(out[t], t + 100);
	uint64_t c = h_last(&h)->cycles;
	h_fini(&h);
	return c;
}

/* Fault-free, the mode changes nothing: no entry loses its valid bit. */
Test(ibuf, modes_agree_without_a_fault)
{
	uint64_t c = golden_cycles(SC_IBINV_REFETCH);
	cr_expect_eq(golden_cycles(SC_IBINV_SKIP), c);
	cr_expect_eq(golden_cycles(SC_IBINV_STALL), c);
}

/* refetch: the same outputs, the add issuing latency.branch cycles later
 * (it was ready when the fault hit, and one warp alone shifts the rest). */
Test(ibuf, refetch_costs_the_fetch_latency)
{
	uint64_t golden = golden_cycles(SC_IBINV_REFETCH);
	h_ctx_t h;
	uint32_t out[32];
	plan_t p;
	cr_assert_eq(clear_add(&h, SC_IBINV_REFETCH, &p, out), 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 100, "out[%u] = %u", t, out[t]);
	cr_expect_eq(h_last(&h)->cycles, golden + h.cfg.latency[SC_LAT_BRANCH], "%llu cycles, golden %llu",
	             (unsigned long long)h_last(&h)->cycles, (unsigned long long)golden);
	h_fini(&h);
}

/* skip: the add never executes, so r2 keeps the zero a CTA starts with,
 * and one instruction fewer issues. */
Test(ibuf, skip_drops_the_instruction)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p;
	cr_assert_eq(clear_add(&h, SC_IBINV_SKIP, &p, out), 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], 0, "out[%u] = %u", t, out[t]);
	uint64_t insts = h_last(&h)->warp_insts;
	h_fini(&h);
	cr_assert_eq(run(&h, straight, SC_IBINV_SKIP, &(plan_t){0}, out, 32), 0);
	cr_expect_eq(insts + 1, h_last(&h)->warp_insts);
	h_fini(&h);
}

/* stall: the DUE at the issue that finds the entry invalid. */
Test(ibuf, stall_is_a_due_at_the_instruction)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p;
	cr_assert_eq(clear_add(&h, SC_IBINV_STALL, &p, out), SC_EDUE);
	const sc_status_t *s = h_status(&h);
	cr_expect_eq(s->reason, SC_DUE_IBUFFER_STALL);
	cr_expect_str_eq(sc_due_name(s->reason), "ibuffer_stall");
	cr_expect_eq(s->pc, p.pc);
	cr_expect_eq(s->line, p.line);
	cr_expect_eq(s->sm, 0);
	cr_expect_eq(s->warp, 0);
	cr_expect_geq(s->cycle, p.at);
	h_fini(&h);
}

/* skip of the last instruction before a reconvergence point: pc + 1 is the
 * entry's rpc, so it pops as after any instruction, and the paths meet at
 * JOIN with every lane. */
Test(ibuf, skip_before_reconvergence_pops)
{
	h_ctx_t h;
	uint32_t out[64];
	plan_t p = {.line = h_line_of(diverge, "add.u32 %r2, %r2, %r1"), .state = SC_IB_VALID | SC_IB_HELD,
	            .inject = true};
	cr_assert_eq(run(&h, diverge, SC_IBINV_SKIP, &p, out, 64), 0);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(p.rc, 1);
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(out[t], t < 16 ? 2000 : t + 1000, "out[%u] = %u", t, out[t]);
		cr_expect_eq(out[32 + t], 0xffffffffu, "the mask at JOIN of lane %u: 0x%08x", t, out[32 + t]);
	}
	h_fini(&h);
}

/* skip of a jump: control stays in sequence, so the jumped-over mov runs. */
Test(ibuf, skip_of_a_jump_falls_through)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p = {.line = h_line_of(jump, "bra.uni L"), .state = SC_IB_VALID | SC_IB_HELD, .inject = true};
	cr_assert_eq(run(&h, jump, SC_IBINV_SKIP, &p, out, 32), 0);
	cr_assert_neq(p.at, 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], 12, "out[%u] = %u", t, out[t]);
	h_fini(&h);
}

/* Under every mode, `plan` applied to the jump kernel finds its point,
 * flips a bit in use and leaves out[t] == want. */
static void jump_in_every_mode(const plan_t *plan, uint32_t want)
{
	for (int m = 0; m < SC_IBINV__COUNT; m++) {
		const char *name = sc_ibinv_name((sc_ibinv_t)m);
		h_ctx_t h;
		uint32_t out[32];
		plan_t p = *plan;
		cr_assert_eq(run(&h, jump, (sc_ibinv_t)m, &p, out, 32), 0, "%s", name);
		cr_assert_neq(p.at, 0, "%s", name);
		cr_expect_eq(p.rc, 1, "%s", name);
		for (uint32_t t = 0; t < 32; t++)
			cr_expect_eq(out[t], want, "%s: out[%u] = %u", name, t, out[t]);
		h_fini(&h);
	}
}

/* 0 -> 1, the same in every mode: right after the jump entry 1 is empty
 * but still holds the jumped-over `mov %r2, 2`; made valid, it shifts to
 * entry 0 and issues at the add's pc instead of the add. */
Test(ibuf, set_valid_bit_issues_the_stale_word)
{
	plan_t p = {.line = h_line_of(jump, "mov.u32 %r3, 3"), .ent = 1, .state = 0, .inject = true};
	jump_in_every_mode(&p, 2);
}

/* A cleared valid bit of an entry flushed before it issues is masked in
 * every mode: the jump flushes entry 1, which held the jumped-over mov. */
Test(ibuf, cleared_entry_flushed_before_use_is_masked)
{
	plan_t p = {.line = h_line_of(jump, "bra.uni L"), .ent = 1, .state = SC_IB_VALID | SC_IB_HELD, .inject = true};
	jump_in_every_mode(&p, 11);
}
