/* Penny, oracle mode (penny.c; DESIGN.md, "Penny (oracle)"). One warp of
 * 32 threads on SM 0 in alloc mode: %r5 = t + KEEP is written before a
 * 50-iteration loop and read after it, so it is a live-in of every region
 * of the loop; %p2 (lane 3 alone) likewise. A pause injects while the warp
 * loops; registers and predicates are found by their values (the
 * allocation picks the slots). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

#define KEEP 0x12340000u

/* out[t] = t + KEEP + 50 (+1 in lane 3); a barrier after the store. */
static const char ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	add.u32 %r5, %r1, 0x12340000;\n"
	"	setp.eq.u32 %p2, %r1, 3;\n"
	"	mov.u32 %r2, 0;\n"
	"L:\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	setp.lt.u32 %p1, %r2, 50;\n"
	"	@%p1 bra L;\n"
	"	add.u32 %r3, %r5, %r2;\n"
	"	@%p2 add.u32 %r3, %r3, 1;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r3;\n"
	"	bar.sync 0;\n"
	"	ret;\n"
	"}\n";

static uint32_t expected(uint32_t t) { return t + KEEP + 50 + (t == 3); }

typedef struct plan {
	bool pred;           /* hit %p2's word (lane 3's bit) instead of %r5 */
	uint32_t bit, nbits;
	sc_code_kind_t code; /* the code on the target: its codeword width */
	bool drop_region;    /* make the region after the loop one no snapshot holds */
	int rc;              /* sc_inject's */
	uint32_t reg;        /* the slot hit */
	bool listed;         /* the current snapshot's region lists it */
	bool done;
} plan_t;

/* The predicate slot of warp slot 0 holding exactly lane 3's bit, or -1. */
static int pred_of(const sc_gpu_t *g)
{
	const sc_warp_t *w = &g->sms[0].warps[0];
	for (uint32_t p = 0; p < g->run.preds; p++)
		if (w->pf[p] == 1u << 3)
			return (int)p;
	return -1;
}

/* Whether the current snapshot of warp slot 0 lists register (pred:
 * predicate) x among its region's live-ins. */
static bool listed(const sc_gpu_t *g, bool pred, uint32_t x)
{
	const sc_penny_t *p = g->sms[0].penny;
	if (!p)
		return false;
	const sc_penny_snap_t *s = &p->snap[p->cur[0]];
	if (s->pc == UINT32_MAX)
		return false;
	const sc_penny_tab_t *t = p->tab;
	for (uint32_t j = t->off[s->pc]; j < t->off[s->pc + 1]; j++)
		if (t->list[j] == x && (j - t->off[s->pc] >= t->nreg[s->pc]) == pred)
			return true;
	return false;
}

/* The first pc at or after `from` of op (asserted present). */
static uint32_t pc_of(const sc_module_t *m, uint32_t from, int op)
{
	for (uint32_t pc = from; pc < m->ncode; pc++)
		if (m->code[pc].op == op)
			return pc;
	cr_assert_fail("no op %d after pc %u", op, from);
	return 0;
}

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	int x = p->pred ? pred_of(g) : h_slot_of(g, KEEP + 3);
	/* inside the loop, its first iterations done: the warp's snapshot is
	 * the loop header's */
	if (x < 0 || cycle < 200)
		return cycle + 1;
	p->reg = (uint32_t)x;
	p->listed = listed(g, p->pred, p->reg);
	uint32_t n = p->code == SC_CODE_NONE ? 32 : sc_code_get(p->code)->n;
	uint64_t word = p->pred ? p->reg : (uint64_t)p->reg * 32 + 3;
	uint64_t loc = word * n + (p->pred ? 3 : p->bit);
	p->rc = sc_inject(g, p->pred ? SC_TGT_PRED : SC_TGT_REGFILE, 0, 0, loc, p->nbits);
	if (p->drop_region) { /* the add after the loop starts a region no snapshot is of */
		sc_penny_tab_t *t = (sc_penny_tab_t *)g->sms[0].penny->tab;
		uint32_t bra = pc_of(g->run.mod, g->run.fn->entry_pc, SC_OP_BRA);
		t->rstart[bra + 1] = bra;
	}
	p->done = true;
	return UINT64_MAX;
}

typedef struct outcome {
	int rc;
	sc_due_t due;
	sc_prot_t ev;
	uint64_t cycles, insts;
	uint32_t out[32];
} outcome_t;

static outcome_t run(sc_protection_t pr, plan_t *p)
{
	h_ctx_t h;
	outcome_t o;
	memset(&o, 0, sizeof o);
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = pr;
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, sizeof o.out, NULL);
	if (p)
		sc_set_pause(h.gpu, 1, on_pause, p);
	o.rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	if (o.rc == 0)
		h_read(&h, o.out, d, sizeof o.out);
	o.due = h_status(&h)->reason;
	o.ev = sc_prot_first(h.gpu, NULL);
	o.cycles = h_last(&h)->cycles;
	o.insts = h_last(&h)->warp_insts;
	if (p)
		cr_assert(p->done, "the pause found the warp in its loop");
	h_fini(&h);
	return o;
}

static sc_protection_t penny(sc_code_kind_t edc, bool pred)
{
	return (sc_protection_t){.penny = {.on = true, .edc = edc, .include_pred = pred}};
}

static void expect_clean(const outcome_t *o)
{
	cr_assert_eq(o->rc, 0, "the launch ran to its end (%s)", sc_due_name(o->due));
	for (uint32_t l = 0; l < 32; l++)
		cr_expect_eq(o->out[l], expected(l), "lane %u", l);
}

Test(penny, regions_start_at_leaders_and_after_memory_writes_and_barriers)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = penny(SC_CODE_PARITY, true);
	sc_module_t *m = h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 128, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	const sc_penny_tab_t *t = m->penny;
	cr_assert_not_null(t, "the regions were built at the launch");
	const sc_func_t *f = h_func(m, "k");
	uint32_t e = f->entry_pc, bra = pc_of(m, e, SC_OP_BRA), L = SC_BR_TARGET(m->code[bra].imm);
	uint32_t st = pc_of(m, e, SC_OP_ST), bar = pc_of(m, e, SC_OP_BAR);
	uint32_t starts[] = {e, L, bra + 1, st + 1, bar + 1};
	for (size_t i = 0; i < sizeof starts / sizeof *starts; i++)
		cr_expect_eq(t->rstart[starts[i]], starts[i], "pc %u starts a region", starts[i]);
	uint32_t n = 0;
	for (uint32_t pc = e; pc < f->end_pc; pc++)
		n += t->rstart[pc] == pc;
	cr_expect_eq(n, 5, "the five region starts and no other");
	for (uint32_t pc = L; pc <= bra; pc++)
		cr_expect_eq(t->rstart[pc], L, "the loop's body is one region");
	cr_expect_eq(t->rstart[st], bra + 1, "the store ends the region after the loop");
	cr_expect_eq(t->off[e + 1] - t->off[e], 0, "nothing is live at a kernel's entry");
	/* the loop header's live-ins: %r1, %r5, %r2 and %p2 (the loop
	 * counter and the kept values) */
	/* (3 or 4: a slot some 64-bit value starts at brings its upper slot
	 * along, an over-approximation that restores a dead slot at worst) */
	cr_expect(t->nreg[L] == 3 || t->nreg[L] == 4, "%u registers", t->nreg[L]);
	cr_expect_eq(t->off[L + 1] - t->off[L] - t->nreg[L], 1, "one predicate");
	cr_expect_geq(t->maxlive, 4);
	h_fini(&h);
}

Test(penny, a_fault_free_run_is_unchanged)
{
	outcome_t base = run((sc_protection_t){0}, NULL);
	expect_clean(&base);
	sc_code_kind_t edc[] = {SC_CODE_PARITY, SC_CODE_HAMMING, SC_CODE_SECDED};
	for (int i = 0; i < 3; i++)
		for (int pred = 0; pred < 2; pred++) {
			outcome_t o = run(penny(edc[i], pred), NULL);
			expect_clean(&o);
			cr_expect_eq(o.cycles, base.cycles, "%s: golden cycles", sc_code_name(edc[i]));
			cr_expect_eq(o.insts, base.insts);
			cr_expect_eq(o.ev, SC_PROT_NONE);
		}
}

/* The snapshot lists %r5, and the flip of it is read after the loop:
 * restored, the region run again, the output the fault-free one. */
Test(penny, a_flipped_live_in_register_is_recovered)
{
	outcome_t base = run((sc_protection_t){0}, NULL);
	plan_t p = {.bit = 7, .nbits = 1, .code = SC_CODE_PARITY};
	outcome_t o = run(penny(SC_CODE_PARITY, false), &p);
	cr_expect_eq(p.rc, 1, "the fault hit a register in use");
	cr_expect(p.listed, "the snapshot of the loop's region holds %%r5 (slot %u)", p.reg);
	expect_clean(&o);
	cr_expect_eq(memcmp(o.out, base.out, sizeof o.out), 0, "byte-identical output");
	cr_expect_eq(o.ev, SC_PROT_RECOVERED);
	cr_expect_eq(o.due, SC_DUE_NONE);
	/* the rollback's penalty and its re-executed instructions */
	cr_expect_geq(o.cycles, base.cycles + 50, "%llu cycles against %llu", (unsigned long long)o.cycles,
	              (unsigned long long)base.cycles);
	cr_expect_eq(o.insts, base.insts, "the read starts its region: nothing ran twice");
	/* the same fault unprotected: an SDC in lane 3; under parity alone: a DUE */
	plan_t q = {.bit = 7, .nbits = 1, .code = SC_CODE_NONE};
	o = run((sc_protection_t){0}, &q);
	cr_expect_eq(o.rc, 0);
	cr_expect_eq(o.out[3], expected(3) + (1u << 7), "%%r5's bit 7 (clear) set");
	q = (plan_t){.bit = 7, .nbits = 1, .code = SC_CODE_PARITY};
	o = run((sc_protection_t){.regfile = SC_CODE_PARITY}, &q);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);
}

/* A flip of the parity bit itself: the data is right, the read detects
 * the codeword's error all the same and rolls back. */
Test(penny, a_check_bit_flip_is_recovered_too)
{
	plan_t p = {.bit = 32, .nbits = 1, .code = SC_CODE_PARITY};
	outcome_t o = run(penny(SC_CODE_PARITY, false), &p);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_RECOVERED);
}

/* Two adjacent bits are a codeword of parity: undetected, the run goes on
 * as unprotected; Hamming and SECDED used to detect see them. */
Test(penny, two_adjacent_bits_escape_parity_only)
{
	plan_t p = {.bit = 4, .nbits = 2, .code = SC_CODE_PARITY};
	outcome_t o = run(penny(SC_CODE_PARITY, false), &p);
	cr_expect_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_UNDETECTED);
	cr_expect_eq(o.out[3], expected(3) + (3u << 4), "an SDC, as without protection: 0x%x", o.out[3]);
	sc_code_kind_t edc[] = {SC_CODE_HAMMING, SC_CODE_SECDED};
	for (int i = 0; i < 2; i++) {
		p = (plan_t){.bit = 4, .nbits = 2, .code = edc[i]};
		o = run(penny(edc[i], false), &p);
		expect_clean(&o);
		cr_expect_eq(o.ev, SC_PROT_RECOVERED, "%s", sc_code_name(edc[i]));
	}
	p = (plan_t){.bit = 4, .nbits = 3, .code = SC_CODE_SECDED};
	o = run(penny(SC_CODE_SECDED, false), &p);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_RECOVERED, "secded detects three bits");
}

/* %p2 (lane 3's bit) is read after the loop by a guard: with include_pred
 * it is restored; without, predicates are unprotected (lane 3 loses its
 * +1). */
Test(penny, a_predicate_is_recovered_with_include_pred)
{
	plan_t p = {.pred = true, .nbits = 1, .code = SC_CODE_PARITY};
	outcome_t o = run(penny(SC_CODE_PARITY, true), &p);
	cr_expect_eq(p.rc, 1);
	cr_expect(p.listed, "the snapshot holds %%p2");
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_RECOVERED);
	p = (plan_t){.pred = true, .nbits = 1, .code = SC_CODE_NONE};
	o = run(penny(SC_CODE_PARITY, false), &p);
	cr_expect_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_NONE);
	cr_expect_eq(o.out[3], expected(3) - 1);
}

/* The model's checker: a detection in a region no snapshot is of. */
Test(penny, a_region_without_a_snapshot_is_penny_unrecoverable)
{
	plan_t p = {.bit = 7, .nbits = 1, .code = SC_CODE_PARITY, .drop_region = true};
	outcome_t o = run(penny(SC_CODE_PARITY, false), &p);
	cr_expect_neq(o.rc, 0);
	cr_expect_eq(o.due, SC_DUE_PENNY_UNRECOVERABLE);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
	cr_expect_str_eq(sc_due_name(SC_DUE_PENNY_UNRECOVERABLE), "penny_unrecoverable");
}

static uint64_t poke_snapshot(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	uint64_t *h = ctx;
	sc_penny_t *p = g->sms[0].penny;
	if (cycle < 200 || p->snap[p->cur[0]].pc == UINT32_MAX || !p->tab->nreg[p->snap[p->cur[0]].pc])
		return cycle + 1;
	uint32_t *v = p->val + (size_t)p->cur[0] * p->cap; /* entry 0, lane 0 of slot 0's current snapshot */
	h[0] = sc_state_hash(g);
	*v ^= 1;
	h[1] = sc_state_hash(g);
	*v ^= 1;
	h[2] = sc_state_hash(g);
	return UINT64_MAX;
}

Test(penny, snapshots_are_in_the_state_hash)
{
	h_ctx_t h;
	uint64_t hs[3] = {0};
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = penny(SC_CODE_PARITY, false);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 128, NULL);
	sc_set_pause(h.gpu, 1, poke_snapshot, hs);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	cr_expect_neq(hs[0], 0);
	cr_expect_neq(hs[0], hs[1], "a snapshot's value changes the hash");
	cr_expect_eq(hs[0], hs[2]);
	h_fini(&h);
}

Test(penny, bad_settings_are_refused)
{
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	char msg[256];
	const struct {
		sc_protection_t p;
		sc_regs_t regs;
		const char *frag;
	} bad[] = {
		{penny(SC_CODE_PARITY, false), SC_REGS_UNALLOC, "use regs alloc, not unalloc"},
		{penny(SC_CODE_DECTED, false), SC_REGS_ALLOC, "edc dected: expected parity, hamming or secded"},
		{{.regfile = SC_CODE_SECDED, .penny = {.on = true, .edc = SC_CODE_PARITY}}, SC_REGS_ALLOC,
		 "penny.edc replaces the register file's code"},
		{{.pred = SC_CODE_PARITY, .penny = {.on = true, .edc = SC_CODE_PARITY, .include_pred = true}}, SC_REGS_ALLOC,
		 "give pred code none"},
		{{.sharp = {.on = true}, .penny = {.on = true, .edc = SC_CODE_PARITY}}, SC_REGS_ALLOC, "choose one"},
		{{.penny = {.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED, .include_pred = true}},
		 SC_REGS_ALLOC, "include_pred needs mode oracle"},
		{{.penny = {.on = true, .edc = SC_CODE_PARITY, .pruning = SC_PENNY_PRUNE_NONE}}, SC_REGS_ALLOC,
		 "only with mode compiled"},
		{{.penny = {.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED, .pruning = 3}}, SC_REGS_ALLOC,
		 "pruning 3 or storage 0 out of range"},
		{{.penny = {.pruning = SC_PENNY_PRUNE_NONE}}, SC_REGS_ALLOC, "parameters given but penny is off"},
		{{.penny = {.recovery_penalty = 5}}, SC_REGS_ALLOC, "parameters given but penny is off"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(sc_protection_check(&bad[i].p, &cfg, bad[i].regs, msg, sizeof msg), SC_EINVAL, "case %zu", i);
		cr_expect(strstr(msg, bad[i].frag), "case %zu: %s", i, msg);
	}
	sc_protection_t okc = {.penny = {.on = true, .edc = SC_CODE_PARITY, .mode = SC_PENNY_COMPILED,
	                                 .pruning = SC_PENNY_PRUNE_NONE}};
	cr_expect_eq(sc_protection_check(&okc, &cfg, SC_REGS_ALLOC, msg, sizeof msg), 0, "%s", msg);
	okc.penny.pruning = SC_PENNY_PRUNE_OPTIMAL;
	cr_expect_eq(sc_protection_check(&okc, &cfg, SC_REGS_ALLOC, msg, sizeof msg), 0, "%s", msg);
	cr_expect_str_eq(sc_penny_prune_name(SC_PENNY_PRUNE_OPTIMAL), "optimal");
	sc_protection_t ok = penny(SC_CODE_SECDED, true);
	cr_expect_eq(sc_protection_check(&ok, &cfg, SC_REGS_ALLOC, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sc_protection_on(&ok));
	/* the edc is the register file's (and the predicates') code: check
	 * bits in the fault space */
	uint32_t wb;
	cr_expect_eq(sc_target_bits_prot(&cfg, &ok, SC_TGT_REGFILE, 0, &wb), (uint64_t)cfg.regs_per_sm * 39);
	cr_expect_eq(wb, 39);
}
