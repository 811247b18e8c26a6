/* REFU (refu.c; DESIGN.md, "REFU"). One warp of 32 threads on SM 0: a
 * prologue (ld.param, mov and cvta: not replayed; mul.wide and add.s64: the
 * address), a burst of eight independent adds of tid, a chain of seven
 * dependent adds summing them from the last one back, the store.
 * out[t] = 8t + 36 (REFU_PTX("add.u32", "add.u32")). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

#define REFU_PTX(A, B)                          \
	H_PTX_HEAD                              \
	".visible .entry k(.param .u64 out)\n"  \
	"{\n"                                   \
	"	.reg .b32 %r<20>;\n"            \
	"	.reg .b64 %rd<4>;\n"            \
	"	ld.param.u64 %rd1, [out];\n"    \
	"	mov.u32 %r1, %tid.x;\n"         \
	"	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	mul.wide.u32 %rd2, %r1, 4;\n"   \
	"	add.s64 %rd3, %rd1, %rd2;\n"    \
	"	" A " %r2, %r1, 1;\n"           \
	"	" B " %r3, %r1, 2;\n"           \
	"	" A " %r4, %r1, 3;\n"           \
	"	" B " %r5, %r1, 4;\n"           \
	"	" A " %r6, %r1, 5;\n"           \
	"	" B " %r7, %r1, 6;\n"           \
	"	" A " %r8, %r1, 7;\n"           \
	"	" B " %r9, %r1, 8;\n"           \
	"	add.u32 %r10, %r9, %r8;\n"      \
	"	add.u32 %r11, %r10, %r7;\n"     \
	"	add.u32 %r12, %r11, %r6;\n"     \
	"	add.u32 %r13, %r12, %r5;\n"     \
	"	add.u32 %r14, %r13, %r4;\n"     \
	"	add.u32 %r15, %r14, %r3;\n"     \
	"	add.u32 %r16, %r15, %r2;\n"     \
	"	st.global.u32 [%rd3], %r16;\n"  \
	"	ret;\n"                         \
	"}\n"

static const char refu_ptx[] = REFU_PTX("add.u32", "add.u32");
/* The burst alternating the logic and add sub-units, after the add.s64. */
static const char refu_xor_ptx[] = REFU_PTX("xor.b32", "add.u32");

/* What a pause does: nothing, a transient FU flip at cycle `at`, or a
 * stuck FU bit from the first pause on. */
typedef struct plan {
	enum { NONE, FLIP, STUCK } kind;
	uint64_t at;
	uint32_t lane, bit, value;
	int rc;
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	if (p->kind == FLIP && cycle < p->at)
		return p->at;
	uint64_t loc = (uint64_t)p->lane * 64 + p->bit;
	sc_fmodel_t m = {.kind = SC_FM_STUCK, .value = p->value};
	p->rc = p->kind == FLIP ? sc_inject(g, SC_TGT_FU, 0, 0, loc, 1) : sc_inject_model(g, SC_TGT_FU, 0, 0, loc, 1, &m, 0);
	return UINT64_MAX;
}

typedef struct outcome {
	int rc;
	sc_status_t st;
	sc_prot_t ev;
	uint64_t cycles, ev_cycle;
	sc_refu_stats_t refu;
	int applied;
	uint32_t fu_pc, op; /* the instruction the FU fault hit (applied) */
	uint32_t out[64];
} outcome_t;

static sc_protection_t refu_on(uint32_t b) { return (sc_protection_t){.refu = {.on = true, .replay_buffer = b}}; }

/* Runs the kernel on nt threads (one CTA) with pr, ns schedulers per SM
 * and plan p (NULL: fault-free). */
static outcome_t run_ptx(const char *ptx, sc_protection_t pr, uint32_t ns, plan_t *p, uint32_t nt)
{
	h_ctx_t h;
	outcome_t o;
	memset(&o, 0, sizeof o);
	h_init(&h);
	h.cfg.schedulers_per_sm = ns;
	h.opt.prot = pr;
	h_load_ok(&h, ptx);
	uint64_t dout = h_alloc(&h, sizeof o.out, NULL);
	if (p)
		sc_set_pause(h.gpu, h.gpu->cycle + 1, on_pause, p);
	o.rc = h_launch(&h, "k", H_D1(1), H_D1(nt), 0, H_ARGS(&dout));
	h_read(&h, o.out, dout, sizeof o.out);
	o.st = *h_status(&h);
	o.ev = sc_prot_first(h.gpu, &o.ev_cycle);
	o.cycles = h_last(&h)->cycles;
	o.refu = h_last(&h)->refu;
	o.applied = sc_fu_applied(h.gpu);
	o.fu_pc = h.gpu->fu.pc;
	o.op = o.applied ? h.gpu->run.mod->code[o.fu_pc].op : 0;
	h_fini(&h);
	return o;
}

static outcome_t run_n(sc_protection_t pr, uint32_t ns, plan_t *p, uint32_t nt)
{
	return run_ptx(refu_ptx, pr, ns, p, nt);
}

static outcome_t run(sc_protection_t pr, uint32_t ns, plan_t *p) { return run_n(pr, ns, p, 32); }

static void expect_clean_n(const outcome_t *o, uint32_t nt)
{
	cr_assert_eq(o->rc, 0, "the launch ran to its end");
	cr_assert_eq(o->st.reason, SC_DUE_NONE);
	for (uint32_t t = 0; t < nt; t++)
		cr_expect_eq(o->out[t], 8 * t + 36, "lane %u", t);
}

static void expect_clean(const outcome_t *o) { expect_clean_n(o, 32); }

/* The instructions REFU replays: ALU ones (NUM, INT, FP, CMP units). */
Test(refu, covers_alu_instructions_only)
{
	cr_expect(sc__refu_covers(SC_OP_ADD));
	cr_expect(sc__refu_covers(SC_OP_MUL));
	cr_expect(sc__refu_covers(SC_OP_SETP));
	cr_expect(sc__refu_covers(SC_OP_CVT));
	cr_expect(!sc__refu_covers(SC_OP_MOV));
	cr_expect(!sc__refu_covers(SC_OP_LD));
	cr_expect(!sc__refu_covers(SC_OP_ST));
	cr_expect(!sc__refu_covers(SC_OP_BRA));
	cr_expect(!sc__refu_covers(SC_OP_SHFL));
	cr_expect(!sc__refu_covers(SC_OP__COUNT));
}

/* Fault-free, the outputs are the unprotected run's for every B; every
 * buffered instruction replays (the launch drains the buffer). */
Test(refu, fault_free_outputs_are_unchanged)
{
	outcome_t base = run((sc_protection_t){0}, 2, NULL);
	expect_clean(&base);
	cr_expect_eq(base.refu.buffered, 0, "unprotected: no statistics");
	for (uint32_t b = 1; b <= SC_REFU_MAX; b++) {
		outcome_t o = run(refu_on(b), 2, NULL);
		expect_clean(&o);
		cr_expect_arr_eq(o.out, base.out, sizeof o.out);
		cr_expect_eq(o.ev, SC_PROT_NONE);
		cr_expect_eq(o.refu.buffered, 2 + 8 + 7, "B %u: mul.wide, the add.s64 and 15 adds", b);
		cr_expect_eq(o.refu.replays, o.refu.buffered);
		cr_expect_eq(o.refu.busy_cycles, 4 + 16 * 2, "mul.wide 4 cycles, 16 adds 2 each");
		/* two schedulers: the replays take the other scheduler's idle ALU */
		cr_expect_eq(o.cycles, base.cycles, "B %u: %llu against %llu cycles", b, (unsigned long long)o.cycles,
		             (unsigned long long)base.cycles);
	}
}

/* One scheduler, one ALU: the add.s64 and the burst are nine covered
 * instructions of the add sub-unit issued back to back, each occupying it
 * 2 cycles at an issue every 2 cycles. The first B fill the buffer; then
 * each one waits for the forced replay of the oldest on the sub-unit (2
 * more cycles): the last add, which the chain waits for, issues
 * 2 x (9 - B) cycles later. The rest replays in the chain's 22-cycle
 * dependences at no cost. */
Test(refu, one_alu_costs_two_cycles_per_instruction_past_the_buffer)
{
	outcome_t base = run((sc_protection_t){0}, 1, NULL);
	expect_clean(&base);
	for (uint32_t b = 1; b <= SC_REFU_MAX; b++) {
		outcome_t o = run(refu_on(b), 1, NULL);
		expect_clean(&o);
		cr_expect_eq(o.cycles - base.cycles, 2 * (9 - b), "B %u: %llu against %llu cycles", b,
		             (unsigned long long)o.cycles, (unsigned long long)base.cycles);
		cr_expect_gt(o.refu.forced, 0, "B %u: a full buffer forced replays", b);
		cr_expect_eq(o.refu.stall_cycles, 0, "B %u: the forced replay frees an entry at once", b);
		cr_expect_eq(o.refu.sub_wait_cycles, 2 * (9 - b), "B %u: each add waits 2 cycles for a replay", b);
	}
	outcome_t one = run(refu_on(1), 1, NULL);
	cr_expect_eq(one.refu.forced, one.refu.replays, "B 1: an entry fills the buffer: every replay is forced");
}

/* The ALU's sub-units are independent: with the add.s64 and the burst
 * alternating adds and xors, each replay runs on its sub-unit beside the
 * next primary of the other one, at no cost, where the adds alone cost
 * 2 x (9 - B). */
Test(refu, replays_run_beside_primaries_of_another_sub_unit)
{
	outcome_t base = run_ptx(refu_xor_ptx, (sc_protection_t){0}, 1, NULL, 32);
	cr_assert_eq(base.rc, 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(base.out[t], (t ^ 1) + (t + 2) + (t ^ 3) + (t + 4) + (t ^ 5) + (t + 6) + (t ^ 7) + (t + 8));
	for (uint32_t b = 1; b <= SC_REFU_MAX; b++) {
		outcome_t o = run_ptx(refu_xor_ptx, refu_on(b), 1, NULL, 32);
		cr_expect_arr_eq(o.out, base.out, sizeof o.out);
		cr_expect_eq(o.cycles, base.cycles, "B %u: %llu against %llu cycles", b, (unsigned long long)o.cycles,
		             (unsigned long long)base.cycles);
		cr_expect_eq(o.refu.sub_wait_cycles, 0, "B %u", b);
		cr_expect_eq(o.refu.replays, o.refu.buffered);
	}
}

/* Two warps, one per scheduler, issue in the same cycles: with one entry,
 * scheduler 0's instruction fills the buffer and scheduler 1's covered
 * instruction waits for it to drain (stall cycles). */
Test(refu, a_full_buffer_holds_covered_instructions_back)
{
	outcome_t base = run_n((sc_protection_t){0}, 2, NULL, 64), one = run_n(refu_on(1), 2, NULL, 64);
	expect_clean_n(&base, 64);
	expect_clean_n(&one, 64);
	cr_expect_gt(one.refu.stall_cycles, 0);
	cr_expect_gt(one.cycles, base.cycles);
}

/* A transient FU flip (lane 3, bit 4) at every cycle of the run: one on a
 * replayed instruction ends in refu_mismatch at its replay, after the
 * flip, at the flipped instruction; one on an uncovered instruction
 * (ld.param, mov, cvta) does not (event uncovered), and ends as it would
 * unprotected. */
Test(refu, a_transient_fu_fault_is_detected_on_covered_instructions_only)
{
	outcome_t base = run((sc_protection_t){0}, 2, NULL);
	int covered = 0, uncovered = 0, sdc_before = 0;
	for (uint64_t at = 1; at < base.cycles; at++) {
		plan_t p = {.kind = FLIP, .at = at, .lane = 3, .bit = 4}, q = p;
		outcome_t o = run(refu_on(2), 2, &p), u = run((sc_protection_t){0}, 2, &q);
		cr_assert_eq(p.rc, 1);
		cr_assert_eq(o.applied, u.applied, "cycle %llu", (unsigned long long)at);
		if (!o.applied) {
			expect_clean(&o);
			continue;
		}
		if (sc__refu_covers(o.op)) {
			covered++;
			cr_expect_eq(o.st.reason, SC_DUE_REFU_MISMATCH, "cycle %llu, pc %u", (unsigned long long)at, o.fu_pc);
			cr_expect_eq(o.st.pc, o.fu_pc);
			cr_expect_eq(o.st.lane, 3);
			cr_expect_gt(o.st.cycle, at, "detected at the replay, after the primary");
			cr_expect_eq(o.ev, SC_PROT_DETECTED);
			cr_expect_eq(o.ev_cycle, o.st.cycle);
			sdc_before += u.st.reason == SC_DUE_NONE && u.out[3] != 8 * 3 + 36;
		} else {
			uncovered++;
			cr_expect_neq(o.st.reason, SC_DUE_REFU_MISMATCH, "cycle %llu, pc %u", (unsigned long long)at, o.fu_pc);
			cr_expect_eq(o.ev, SC_PROT_UNCOVERED, "the fault is unprotected, and said so");
			cr_expect_eq(o.ev_cycle, at);
			cr_expect_eq(u.ev, SC_PROT_NONE, "no event without REFU");
			cr_expect_eq(o.st.reason, u.st.reason);
			cr_expect_arr_eq(o.out, u.out, sizeof o.out, "as unprotected");
		}
	}
	cr_expect_gt(covered, 10, "%d flips on replayed instructions", covered);
	cr_expect_geq(uncovered, 2, "%d flips on ld.param, mov or cvta", uncovered);
	cr_expect_gt(sdc_before, 0, "unprotected, some were SDCs");
}

/* A stuck-at-0 bit 4 in lane `lane` of one scheduler's units (lane mod the
 * schedulers): the chain's sums with bit 4 set are wrong where it acts. */
static outcome_t stuck(sc_protection_t pr, uint32_t ns, uint32_t lane)
{
	plan_t p = {.kind = STUCK, .lane = lane, .bit = 4, .value = 0};
	outcome_t o = run(pr, ns, &p);
	cr_assert_eq(p.rc, 1);
	return o;
}

/* One scheduler: the replay runs on the faulty unit, computes the same
 * wrong sums and the error escapes, as unprotected. */
Test(refu, a_stuck_lane_replayed_on_the_same_unit_escapes)
{
	outcome_t u = stuck((sc_protection_t){0}, 1, 2), o = stuck(refu_on(2), 1, 2);
	cr_assert_eq(u.rc, 0);
	cr_expect_neq(u.out[2], 8 * 2 + 36, "unprotected: an SDC");
	cr_expect_eq(o.rc, 0);
	cr_expect_eq(o.st.reason, SC_DUE_NONE);
	cr_expect_arr_eq(o.out, u.out, sizeof o.out);
	cr_expect_eq(o.refu.replays, o.refu.buffered);
}

/* Two schedulers: lane 2 sits in scheduler 0's units, where the warp's
 * primaries run, and the replays take scheduler 1's ALU: detected. Lane 3
 * sits in scheduler 1's: the primaries are right and the wrong replay is
 * what differs (detected too: the run's output would have been right). */
Test(refu, a_stuck_lane_replayed_on_another_unit_is_detected)
{
	outcome_t o = stuck(refu_on(2), 2, 2);
	cr_expect_eq(o.st.reason, SC_DUE_REFU_MISMATCH);
	cr_expect_eq(o.st.lane, 2);
	outcome_t r = stuck(refu_on(2), 2, 3);
	cr_expect_eq(r.st.reason, SC_DUE_REFU_MISMATCH);
	cr_expect_eq(r.st.lane, 3);
	/* unprotected, the same fault: the warp's results come from scheduler
	 * 0's units, where lane 3 is not stuck (masked); lane 2 is an SDC */
	outcome_t u = stuck((sc_protection_t){0}, 2, 3);
	cr_expect_eq(u.rc, 0);
	cr_expect_eq(u.out[3], 8 * 3 + 36, "unprotected, lane 3 of scheduler 1's units acts on nothing");
	outcome_t v = stuck((sc_protection_t){0}, 2, 2);
	cr_expect_neq(v.out[2], 8 * 2 + 36, "unprotected, lane 2 of scheduler 0's units: an SDC");
}

/* The buffer's entries are state: at a pause with entries waiting, the
 * SM's part of the state hash changes with what a fault did to one (its
 * stored result's lanes, or a stuck bit's), and with the entries. */
static uint64_t on_hash(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	uint64_t *h = ctx;
	sc_refu_t *r = g->sms[0].refu;
	if (r->n < 2)
		return cycle + 1;
	h[0] = sc_state_hash_part(g, 1);
	r->e[0].bad = 1u << 3;
	h[1] = sc_state_hash_part(g, 1);
	r->e[0].bad = 0;
	r->e[0].chg = 1u << 3;
	h[2] = sc_state_hash_part(g, 1);
	r->e[0].chg = 0;
	r->n--;
	h[3] = sc_state_hash_part(g, 1);
	r->n++;
	h[4] = sc_state_hash_part(g, 1);
	return UINT64_MAX;
}

Test(refu, buffer_entries_are_in_the_state_hash)
{
	h_ctx_t h;
	uint64_t hs[5] = {0};
	h_init(&h);
	h.cfg.schedulers_per_sm = 1; /* one ALU: the burst's entries wait */
	h.opt.prot = refu_on(4);
	h_load_ok(&h, refu_ptx);
	uint64_t dout = h_alloc(&h, 128, NULL);
	sc_set_pause(h.gpu, 1, on_hash, hs);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	h_fini(&h);
	cr_assert_neq(hs[0], 0, "a pause found two entries");
	cr_expect_neq(hs[0], hs[1]);
	cr_expect_neq(hs[0], hs[2]);
	cr_expect_neq(hs[1], hs[2]);
	cr_expect_neq(hs[0], hs[3]);
	cr_expect_eq(hs[0], hs[4], "restored");
}
