/* SHARP (sharp.c; DESIGN.md, "SHARP"). One warp of 32 threads on SM 0 in
 * alloc mode: it loads in[t] from DRAM while %r2 = t + 0x12340000 waits
 * for it, so %r2's registers are protected inside the window. A pause
 * steps cycle by cycle to the moment a plan asks for and injects there;
 * registers are found by their values (the allocation picks the slots). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

#define KEEP 0x12340000u
#define IN(t) (0x55000000u + (t))

/* out[t] = in[t] + t + KEEP; the load's destination %r3 is written inside
 * the window (at the load's issue). PRE runs before the load, WIN inside
 * the window (before the load's value is used). */
#define LOAD_PTX(DECL, PRE, WIN)                     \
	H_PTX_HEAD                                       \
	".visible .entry k(.param .u64 in, .param .u64 out)\n" \
	"{\n"                                            \
	"	.reg .b32 %r<8>;\n"                          \
	"	.reg .b64 %rd<7>;\n" DECL                    \
	"	mov.u32 %r1, %tid.x;\n"                      \
	"	add.u32 %r2, %r1, 0x12340000;\n"             \
	"	ld.param.u64 %rd1, [in];\n"                  \
	"	cvta.to.global.u64 %rd1, %rd1;\n"            \
	"	mul.wide.u32 %rd2, %r1, 4;\n"                \
	"	add.s64 %rd3, %rd1, %rd2;\n" PRE             \
	"	ld.global.u32 %r3, [%rd3];\n" WIN            \
	"	add.u32 %r4, %r3, %r2;\n"                    \
	"	ld.param.u64 %rd4, [out];\n"                 \
	"	cvta.to.global.u64 %rd4, %rd4;\n"            \
	"	add.s64 %rd5, %rd4, %rd2;\n"                 \
	"	st.global.u32 [%rd5], %r4;\n"                \
	"	ret;\n"                                      \
	"}\n"

static const char load_ptx[] = LOAD_PTX("", "", "");

enum when { BEFORE, IN_WINDOW, IN_RECORDING, AT };

typedef struct plan {
	enum when when;
	uint32_t value;     /* lane 3's value of the register to hit (0: none) */
	uint32_t bit, nbits;
	bool smem;          /* hit the shared word holding that register's group 0 */
	int rc, in_use, dead;
	uint64_t at;        /* AT: the cycle to inject at; then the cycle it did */
	bool done;
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	const sc_sharp_t *s = g->sms[0].sharp;
	int r = h_slot_of(g, p->value);
	bool open = s && s->state[0] == SC_SHARP_OPEN;
	bool ready = p->when == AT            ? r >= 0 && cycle >= p->at
	             : p->when == BEFORE      ? r >= 0
	             : p->when == IN_WINDOW   ? r >= 0 && open && cycle >= s->rec[0] && cycle + 50 < s->off[0]
	                                      : r >= 0 && open && cycle < s->rec[0];
	if (!ready)
		return cycle + 1;
	uint64_t loc = ((uint64_t)r * 32 + 3) * 32 + p->bit;
	sc_target_t t = SC_TGT_REGFILE;
	if (p->smem) { /* group 0 of vector r (warp slot 0 holds vectors 0..R-1) */
		loc = ((uint64_t)((uint32_t)r << 3) % s->words) * 32 + p->bit;
		t = SC_TGT_SMEM;
	}
	p->in_use = sc_target_in_use(g, t, 0, 0, loc, p->nbits);
	p->dead = sc_target_dead(g, t, 0, 0, loc, p->nbits);
	p->rc = sc_inject(g, t, 0, 0, loc, p->nbits);
	p->at = cycle;
	p->done = true;
	return UINT64_MAX;
}

typedef struct outcome {
	int rc;
	sc_due_t due;
	sc_prot_t ev;
	uint64_t cycles;
	uint32_t regs;
	sc_sharp_stats_t st;
	uint32_t out[32];
} outcome_t;

static sc_protection_t sharp_on(void) { return (sc_protection_t){.sharp = {.on = true}}; }

/* Runs k on one CTA of nt (at most 256) threads under pr in alloc mode
 * with plan p (NULL: none), `launches` times (the later ones find in[] in
 * L2); out[] holds the first warp's outputs. */
static outcome_t run_n(sc_protection_t pr, plan_t *p, int launches, uint32_t nt)
{
	h_ctx_t h;
	outcome_t o;
	uint32_t in[256];
	memset(&o, 0, sizeof o);
	for (uint32_t t = 0; t < 256; t++)
		in[t] = IN(t);
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = pr;
	h_load_ok(&h, load_ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, sizeof in, NULL);
	for (int k = 0; k < launches; k++) {
		if (p && k == launches - 1)
			sc_set_pause(h.gpu, h.gpu->cycle + 1, on_pause, p);
		o.rc = h_launch(&h, "k", H_D1(1), H_D1(nt), 0, H_ARGS(&din, &dout));
		if (o.rc)
			break;
	}
	if (o.rc == 0)
		h_read(&h, o.out, dout, sizeof o.out);
	o.due = h_status(&h)->reason;
	o.ev = sc_prot_first(h.gpu, NULL);
	o.cycles = h_last(&h)->cycles;
	o.regs = h_last(&h)->regs_per_thread;
	o.st = h_last(&h)->sharp;
	h_fini(&h);
	return o;
}

static outcome_t run(sc_protection_t pr, plan_t *p, int launches) { return run_n(pr, p, launches, 32); }

static void expect_clean(const outcome_t *o)
{
	cr_assert_eq(o->rc, 0, "the launch ran to its end");
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(o->out[t], IN(t) + t + KEEP, "lane %u", t);
}

Test(sharp, a_fault_free_run_differs_only_by_the_check)
{
	outcome_t base = run((sc_protection_t){0}, NULL, 1), o = run(sharp_on(), NULL, 1);
	expect_clean(&base);
	expect_clean(&o);
	cr_expect_arr_eq(o.out, base.out, sizeof o.out);
	cr_expect_eq(o.ev, SC_PROT_NONE);
	cr_expect_eq(o.st.windows, 1, "one load from DRAM: one window");
	cr_expect_eq(o.st.dropped, 0);
	cr_expect_eq(o.st.checks, 1);
	/* the check: ceil(R x 8 / 16) cycles plus latency.shared (50), then
	 * the next issue edge (every 2 cycles on gtx480) */
	uint64_t chk = (o.regs * 8 + 15) / 16 + 50;
	cr_expect_eq(o.st.check_cycles, chk);
	cr_expect_eq(o.cycles - base.cycles, (chk + 1) / 2 * 2, "R %u: %llu against %llu cycles", o.regs,
	             (unsigned long long)o.cycles, (unsigned long long)base.cycles);
	cr_expect_eq(base.st.windows, 0, "unprotected: no statistics");
	cr_expect_gt(o.st.window_cycles, 400, "the warp waited on DRAM, protected");
	cr_expect_gt(o.st.prot_reg_cycles, 0);
	cr_expect_lt(o.st.prot_reg_cycles, o.st.reg_cycles);
	cr_expect_eq(o.st.smem_words, 15 * 48 * 1024 / 4);
	cr_expect_eq(o.st.smem_written, 0, "the kernel writes no shared memory");
}

Test(sharp, a_single_bit_fault_inside_the_window_is_corrected)
{
	plan_t p = {.when = IN_WINDOW, .value = 3 + KEEP, .bit = 5, .nbits = 1};
	outcome_t o = run(sharp_on(), &p, 1);
	cr_assert(p.done, "the window was found");
	cr_assert_eq(p.rc, 1);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);

	plan_t q = {.when = AT, .at = p.at, .value = p.value, .bit = 5, .nbits = 1};
	o = run((sc_protection_t){0}, &q, 1);
	cr_expect_eq(q.at, p.at);
	cr_assert(q.done);
	cr_expect_eq(o.out[3], IN(3) + ((3 + KEEP) ^ 32u), "the control: unprotected, the flip reaches the output");
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

/* Bit 5 of %r2's lane 3 flipped `when` under SHARP: not protected, an SDC. */
static void expect_unprotected(enum when when)
{
	plan_t p = {.when = when, .value = 3 + KEEP, .bit = 5, .nbits = 1};
	outcome_t o = run(sharp_on(), &p, 1);
	cr_assert(p.done, "the moment was found (%d)", (int)when);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(o.out[3], IN(3) + ((3 + KEEP) ^ 32u), "recorded with the fault: an SDC");
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

Test(sharp, a_fault_outside_any_window_is_not_protected) { expect_unprotected(BEFORE); }

/* between the window's start and its recording's end: the check bits
 * encode the faulty value */
Test(sharp, a_fault_before_the_recording_ends_is_recorded_into_the_check_bits) { expect_unprotected(IN_RECORDING); }

Test(sharp, a_double_bit_fault_in_one_lane_is_a_due)
{
	plan_t p = {.when = IN_WINDOW, .value = 3 + KEEP, .bit = 7, .nbits = 2};
	outcome_t o = run(sharp_on(), &p, 1);
	cr_assert(p.done);
	cr_expect_neq(o.rc, 0);
	cr_expect_eq(o.due, SC_DUE_ECC_UNCORRECTABLE);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
}

Test(sharp, a_fault_in_a_stored_check_word_is_corrected)
{
	for (uint32_t bit = 0; bit < 29; bit += 7) { /* lanes 0..3's check bits, then the busy bit */
		plan_t p = {.when = IN_WINDOW, .value = 3 + KEEP, .bit = bit, .nbits = 1, .smem = true};
		outcome_t o = run(sharp_on(), &p, 1);
		cr_assert(p.done);
		cr_expect_eq(p.in_use, 1, "a word holding check bits is in use outside any CTA's shared memory");
		cr_expect_eq(p.rc, 1);
		expect_clean(&o);
		cr_expect_eq(o.ev, bit < 28 ? SC_PROT_CORRECTED : SC_PROT_NONE, "bit %u", bit);
	}
	plan_t q = {.when = BEFORE, .value = 3 + KEEP, .bit = 0, .nbits = 1, .smem = true};
	run(sharp_on(), &q, 1);
	cr_assert(q.done);
	cr_expect_eq(q.in_use, 0, "before the window the word holds nothing");
}

Test(sharp, a_register_written_in_the_window_is_skipped)
{
	/* the load's destination is written at its issue: its groups are free */
	plan_t p = {.when = IN_WINDOW, .value = IN(3), .bit = 4, .nbits = 1};
	outcome_t o = run(sharp_on(), &p, 1);
	cr_assert(p.done);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(o.out[3], (IN(3) ^ 16u) + 3 + KEEP, "unprotected: an SDC");
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

Test(sharp, an_l2_hit_opens_no_window)
{
	outcome_t o = run(sharp_on(), NULL, 2);
	expect_clean(&o);
	cr_expect_eq(o.st.windows, 0, "the second launch finds in[] in L2");
	cr_expect_eq(o.st.checks, 0);
	plan_t p = {.when = IN_WINDOW, .value = 3 + KEEP, .bit = 5, .nbits = 1};
	outcome_t f = run(sharp_on(), &p, 2);
	cr_expect_not(p.done, "no window to inject in");
	expect_clean(&f);
}

Test(sharp, the_dead_shortcut_is_off)
{
	/* %r2's lane 3 after its last read is dead; with SHARP it is not */
	plan_t p = {.when = IN_WINDOW, .value = 3 + KEEP, .bit = 5, .nbits = 1};
	run(sharp_on(), &p, 1);
	cr_assert(p.done);
	cr_expect_eq(p.dead, 0);
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = sharp_on();
	h_load_ok(&h, load_ptx);
	int dead = 0;
	for (uint64_t loc = 0; loc < 32 * 32 * 8; loc += 32)
		dead |= sc_target_dead(h.gpu, SC_TGT_REGFILE, 0, 0, loc, 1);
	cr_expect_eq(dead, 0);
	h_fini(&h);
}

static uint64_t find_dead(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	int *n = ctx;
	if (g->sms[0].warps[0].state != SC_W_ACTIVE || cycle < 40)
		return cycle + 1;
	for (uint64_t loc = 0; loc < (uint64_t)g->run.regs * 32 * 32; loc += 32)
		*n += sc_target_dead(g, SC_TGT_REGFILE, 0, 0, loc, 1) == 1;
	return UINT64_MAX;
}

Test(sharp, dead_registers_are_found_without_sharp_and_not_with_it)
{
	for (int on = 0; on < 2; on++) {
		h_ctx_t h;
		int n = 0;
		uint32_t in[32] = {0};
		h_init(&h);
		h.opt.regs = SC_REGS_ALLOC;
		h.opt.prot = on ? sharp_on() : (sc_protection_t){0};
		h_load_ok(&h, load_ptx);
		uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, sizeof in, NULL);
		sc_set_pause(h.gpu, 1, find_dead, &n);
		cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&din, &dout)), 0);
		if (on)
			cr_expect_eq(n, 0, "SHARP's check reads dead registers too");
		else
			cr_expect_gt(n, 0, "the control: some register is dead then");
		h_fini(&h);
	}
}

Test(sharp, bad_settings_are_refused)
{
	char msg[256];
	sc_protection_t p = sharp_on();
	cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_ALLOC, msg, sizeof msg), 0);
	cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_UNALLOC, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "regs alloc"), "%s", msg);
	p.regfile = SC_CODE_SECDED;
	cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_ALLOC, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "regfile code must be none"), "%s", msg);
	p = sharp_on();
	p.sharp.ecc = SC_CODE_PARITY;
	cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_ALLOC, msg, sizeof msg), SC_EINVAL);
	p = (sc_protection_t){.sharp = {.request_queue = 4}};
	cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_ALLOC, msg, sizeof msg), SC_EINVAL);
	sc_sharp_protection_t d = sc_sharp_params(&(sc_protection_t){.sharp = {.on = true}});
	cr_expect_eq(d.request_queue, 16);
	cr_expect_eq(d.warp_table, 32);
	cr_expect_eq(d.ecc, SC_CODE_SECDED);
	cr_expect(sc_protection_on(&(sc_protection_t){.sharp = {.on = true}}));
}

Test(sharp, a_full_warp_table_drops_the_recording)
{
	sc_protection_t pr = sharp_on();
	pr.sharp.warp_table = 1;
	outcome_t o = run_n(pr, NULL, 1, 256);
	expect_clean(&o);
	const sc_sharp_stats_t *st = &o.st;
	cr_expect_eq(st->windows, 8, "eight warps, one window each");
	cr_expect_gt(st->dropped, 0, "one warp at a time fits the table");
	cr_expect_eq(st->checks, st->windows - st->dropped);
}

/* load_ptx with a store of buf[t] = t inside the window: shared words
 * 0..31, where warp slot 0's vectors 0..3 keep their check bits (no
 * register but the load's destination is written in the window). */
static const char store_ptx[] = LOAD_PTX("	.shared .align 4 .b32 buf[32];\n",
                                         "	mov.u32 %r5, buf;\n"
                                         "	shl.b32 %r6, %r1, 2;\n"
                                         "	add.u32 %r7, %r5, %r6;\n",
                                         "	st.shared.u32 [%r7], %r1;\n");

typedef struct groups {
	bool seen;
	uint32_t low, high; /* busy groups of vectors 0..3 and of the others */
} groups_t;

static uint64_t count_groups(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	groups_t *c = ctx;
	const sc_sharp_t *s = g->sms[0].sharp;
	if (s->state[0] != SC_SHARP_OPEN || !s->valid[31] || cycle + 50 >= s->off[0])
		return cycle + 1;
	for (uint32_t v = 0; v < g->run.regs; v++)
		*(v < 4 ? &c->low : &c->high) += (uint32_t)__builtin_popcount(s->grp[v]);
	c->seen = true;
	return UINT64_MAX;
}

Test(sharp, a_store_to_a_word_holding_check_bits_drops_them)
{
	h_ctx_t h;
	uint32_t in[32], out[32];
	groups_t c = {0};
	for (uint32_t t = 0; t < 32; t++)
		in[t] = IN(t);
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	h.opt.prot = sharp_on();
	h_load_ok(&h, store_ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, sizeof out, NULL);
	sc_set_pause(h.gpu, 1, count_groups, &c);
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&din, &dout)), 0);
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], IN(t) + t + KEEP);
	cr_assert(c.seen, "the window after the store");
	cr_expect_eq(c.low, 0, "words 0..31 hold the program's data now");
	cr_expect_gt(c.high, 0, "the other vectors keep theirs");
	cr_expect_eq(h_last(&h)->sharp.smem_written, 32);
	cr_expect_gt(h_last(&h)->sharp.smem_valid_cycles, 0);
	h_fini(&h);
}
