/* Protection: codes on the register file, predicates and shared memory
 * (prot.c). One warp of 32 threads on SM 0, CTA slot 0, warp slot 0, in
 * unalloc mode unless a test says otherwise, so a register's physical word
 * is (slot x REGS + reg) x 32 + lane, and a protected word's codeword bit b
 * is fault-space bit word x n + b (no interleave). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* h_loop_ptx: %r<6> are slots 0..5, %rd<4> 6..13; %r1 = tid waits through
 * the 50-iteration loop for out[tid] = %r1 + 50; %r3 and %r4 are written
 * after it (dead inside); %p1 guards the loop's branch. */
#define RF_WORD(reg, lane) ((uint64_t)(reg) * 32 + (lane))

/* s(u32 *out): thread t stores t + 100 to buf[t], waits at a barrier and a
 * 50-iteration loop, reads buf[t] back (EXTRA may write to it first) and
 * stores it to out[t]. */
#define SMEM_PTX(EXTRA)                            \
	H_PTX_HEAD                                     \
	".visible .entry k(.param .u64 out)\n"         \
	"{\n"                                          \
	"	.reg .b32 %r<9>;\n"                        \
	"	.reg .b64 %rd<4>;\n"                       \
	"	.reg .pred %p<2>;\n"                       \
	"	.shared .align 4 .b8 buf[128];\n"          \
	"	mov.u32 %r1, %tid.x;\n"                    \
	"	shl.b32 %r2, %r1, 2;\n"                    \
	"	mov.u32 %r3, buf;\n"                       \
	"	add.u32 %r4, %r3, %r2;\n"                  \
	"	add.u32 %r5, %r1, 100;\n"                  \
	"	st.shared.u32 [%r4], %r5;\n"               \
	"	bar.sync 0;\n"                             \
	"	mov.u32 %r6, 0;\n"                         \
	"L:\n"                                         \
	"	add.u32 %r6, %r6, 1;\n"                    \
	"	setp.lt.u32 %p1, %r6, 50;\n"               \
	"	@%p1 bra L;\n"                             \
	"	mov.u32 %r8, 7;\n" EXTRA                   \
	"	ld.shared.u32 %r7, [%r4];\n"               \
	"	ld.param.u64 %rd1, [out];\n"               \
	"	cvta.to.global.u64 %rd1, %rd1;\n"          \
	"	mul.wide.u32 %rd2, %r1, 4;\n"              \
	"	add.s64 %rd3, %rd1, %rd2;\n"               \
	"	st.global.u32 [%rd3], %r7;\n"              \
	"	ret;\n"                                    \
	"}\n"

static const char smem_ptx[] = SMEM_PTX("");
static const char smem_byte_ptx[] = SMEM_PTX("	st.shared.u8 [%r4], %r8;\n");
static const char smem_word_ptx[] = SMEM_PTX("	st.shared.u32 [%r4], %r8;\n");

typedef struct plan {
	sc_target_t t;
	uint64_t loc;      /* fault-space bit */
	uint32_t nbits;
	uint64_t pattern;  /* 0: flip the nbits; else sc_inject_model's VALUE pattern */
	int rc;            /* what the injection returned */
	uint64_t hash[2];  /* state hash before and after it */
	char site[1024];
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	(void)cycle;
	p->hash[0] = sc_state_hash(g);
	cr_assert_gt(sc_site_json(g, p->t, 0, 0, p->loc, p->nbits, p->site, sizeof p->site), 0);
	if (p->pattern) {
		sc_fmodel_t m = {.kind = SC_FM_VALUE};
		p->rc = sc_inject_model(g, p->t, 0, 0, p->loc, p->nbits, &m, p->pattern);
	} else {
		p->rc = sc_inject(g, p->t, 0, 0, p->loc, p->nbits);
	}
	p->hash[1] = sc_state_hash(g);
	return UINT64_MAX;
}

typedef struct outcome {
	int rc;              /* launch */
	sc_due_t due;
	sc_prot_t ev;
	uint64_t ev_cycle, cycles;
	uint32_t out[32];
} outcome_t;

/* Runs ptx's k on one warp in register mode `regs` under protection pr,
 * with plan p's fault at cycle 400 (p NULL: none). */
static outcome_t run(const char *ptx, sc_regs_t regs, sc_protection_t pr, plan_t *p)
{
	h_ctx_t h;
	outcome_t o;
	memset(&o, 0, sizeof o);
	h_init(&h);
	h.opt.regs = regs;
	h.opt.prot = pr;
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, sizeof o.out, NULL);
	if (p)
		sc_set_pause(h.gpu, 400, on_pause, p);
	o.rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	if (o.rc == 0)
		h_read(&h, o.out, d, sizeof o.out);
	o.due = h_status(&h)->reason;
	o.ev = sc_prot_first(h.gpu, &o.ev_cycle);
	o.cycles = h_last(&h)->cycles;
	h_fini(&h);
	return o;
}

static sc_protection_t rf(sc_code_kind_t c) { return (sc_protection_t){.regfile = c}; }

/* Codeword bit b of register `reg` of lane `lane` under code c. */
static uint64_t rf_loc(sc_code_kind_t c, uint32_t reg, uint32_t lane, uint32_t b)
{
	return RF_WORD(reg, lane) * sc_code_get(c)->n + b;
}

static void expect_clean(const outcome_t *o)
{
	cr_assert_eq(o->rc, 0, "the launch ran to its end");
	for (uint32_t l = 0; l < 32; l++)
		cr_expect_eq(o->out[l], l + 50, "lane %u", l);
}

Test(prot, fault_space_counts_codewords_with_their_check_bits)
{
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	uint32_t wb;
	sc_protection_t p = {.regfile = SC_CODE_SECDED, .pred = SC_CODE_PARITY, .smem = SC_CODE_SECDED64};
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_REGFILE, 0, &wb), 32768ull * 39);
	cr_expect_eq(wb, 39);
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_PRED, 0, &wb), 48ull * 8 * 33);
	cr_expect_eq(wb, 33);
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_SMEM, 0, &wb), 49152ull / 8 * 72);
	cr_expect_eq(wb, 72);
	p.interleave = 4;
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_REGFILE, 0, &wb), 32768ull * 39);
	cr_expect_eq(wb, 4 * 39, "an interleaving group is a fault's word");
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_PRED, 0, &wb), 48ull * 8 * 33);
	cr_expect_eq(wb, 33, "predicates are not interleaved");
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_SIMT, 0, &wb), sc_target_bits(&c, SC_TGT_SIMT, 0, NULL));
	cr_expect_eq(sc_target_bits_prot(&c, NULL, SC_TGT_REGFILE, 0, &wb), 32768ull * 32);
}

Test(prot, bad_protection_is_refused_with_a_reason)
{
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	char msg[160];
	const struct {
		sc_protection_t p;
		sc_regs_t regs;
		const char *says;
	} bad[] = {
		{{.regfile = SC_CODE_SECDED64}, SC_REGS_ALLOC, "secded64"},
		{{.pred = SC_CODE_PARITY}, SC_REGS_PTX, "ptx"},
		{{.regfile = SC_CODE_SECDED, .interleave = 3}, SC_REGS_ALLOC, "interleave 3"},
		{{.regfile = SC_CODE_SECDED, .interleave = 2}, SC_REGS_PTX, "interleave"},
		{{.smem = (sc_code_kind_t)99}, SC_REGS_ALLOC, "unknown code"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		msg[0] = 0;
		cr_expect_eq(sc_protection_check(&bad[i].p, &c, bad[i].regs, msg, sizeof msg), SC_EINVAL, "case %zu", i);
		cr_expect(strstr(msg, bad[i].says), "case %zu: %s", i, msg);
		sc_options_t o = {.regs = bad[i].regs, .prot = bad[i].p};
		sc_gpu_t *g = NULL;
		cr_expect_eq(sc_gpu_create(&c, &o, &g), SC_EINVAL, "case %zu", i);
	}
	sc_protection_t ok = {.regfile = SC_CODE_DECTED, .pred = SC_CODE_SECDED, .smem = SC_CODE_SECDED64, .interleave = 8};
	cr_expect_eq(sc_protection_check(&ok, &c, SC_REGS_ALLOC, msg, sizeof msg), 0, "%s", msg);
}

/* Codes cost nothing without a fault: the same outputs, the same cycles. */
Test(prot, a_fault_free_run_is_unchanged_by_every_code)
{
	const char *ptx[] = {h_loop_ptx, smem_ptx, smem_byte_ptx};
	for (size_t k = 0; k < 3; k++)
		for (sc_regs_t regs = SC_REGS_UNALLOC; regs <= SC_REGS_ALLOC; regs++) {
			outcome_t base = run(ptx[k], regs, (sc_protection_t){0}, NULL);
			cr_assert_eq(base.rc, 0);
			for (int c = SC_CODE_PARITY; c < SC_CODE__COUNT; c++) {
				sc_protection_t pr = {.smem = (sc_code_kind_t)c, .interleave = 2};
				if (c != SC_CODE_SECDED64)
					pr.regfile = pr.pred = (sc_code_kind_t)c;
				outcome_t o = run(ptx[k], regs, pr, NULL);
				cr_expect_eq(o.rc, 0);
				cr_expect_eq(o.cycles, base.cycles, "kernel %zu, code %s", k, sc_code_name((sc_code_kind_t)c));
				cr_expect_arr_eq(o.out, base.out, sizeof o.out);
				cr_expect_eq(o.ev, SC_PROT_NONE);
			}
		}
}

Test(prot, secded_corrects_a_single_bit_when_the_register_is_read)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_SECDED, 1, 3, 5), .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_SECDED), &p);
	cr_assert_eq(p.rc, 1, "a live word");
	cr_expect_neq(p.hash[1], p.hash[0], "the corrupted word differs from golden until it is read");
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
	cr_expect_gt(o.ev_cycle, 400, "at the read after the loop, not at the fault");
	cr_expect(strstr(p.site, "\"code\":\"secded\"") && strstr(p.site, "\"codeword_bit\":5") &&
	          strstr(p.site, "\"check_bit\":false") && strstr(p.site, "\"lane\":3"), "%s", p.site);
}

Test(prot, without_a_code_the_same_flip_is_an_sdc)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = RF_WORD(1, 3) * 32 + 5, .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, (sc_protection_t){0}, &p);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(o.out[3], (3u ^ 32u) + 50, "the control: the flip reaches the output");
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

Test(prot, a_check_bit_flip_is_corrected_by_secded_and_detected_by_parity)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_SECDED, 1, 3, 32 + 4), .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_SECDED), &p);
	cr_assert_eq(p.rc, 1);
	cr_expect_neq(p.hash[1], p.hash[0], "a check bit is state too: early termination must not call it masked");
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
	cr_expect(strstr(p.site, "\"check_bit\":true") && strstr(p.site, "\"codeword_bit\":36"), "%s", p.site);
	/* a check bit changes no data: the word's value before and after agree */
	const char *b = strstr(p.site, "\"before\":"), *a = strstr(p.site, "\"after\":");
	cr_assert(b && a, "%s", p.site);
	cr_expect_eq(strncmp(b + 9, a + 8, 10), 0, "%s", p.site);

	plan_t q = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_PARITY, 1, 3, 32), .nbits = 1};
	o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_PARITY), &q);
	cr_assert_eq(q.rc, 1);
	cr_expect_neq(o.rc, 0);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
}

Test(prot, parity_detects_one_bit_and_misses_two)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_PARITY, 1, 3, 5), .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_PARITY), &p);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);

	plan_t q = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_PARITY, 1, 3, 5), .nbits = 2};
	o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_PARITY), &q);
	cr_assert_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_UNDETECTED);
	cr_expect_eq(o.out[3], (3u ^ (3u << 5)) + 50, "an even-weight error passes: an SDC");
}

Test(prot, secded_detects_two_adjacent_bits_and_dected_corrects_them)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_SECDED, 1, 3, 7), .nbits = 2};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_SECDED), &p);
	cr_expect_eq(o.due, SC_DUE_ECC_UNCORRECTABLE);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
	cr_expect_gt(o.ev_cycle, 400);

	plan_t q = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_DECTED, 1, 3, 7), .nbits = 2};
	o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_DECTED), &q);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);

	plan_t r = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_DECTED, 1, 3, 7), .nbits = 3};
	o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_DECTED), &r);
	cr_expect_eq(o.due, SC_DUE_ECC_UNCORRECTABLE);
}

/* interleave 2: two adjacent bits are one bit in each of two codewords
 * (lanes 2 and 3 of the register), both corrected. */
Test(prot, interleaving_spreads_adjacent_bits_over_codewords)
{
	sc_protection_t pr = {.regfile = SC_CODE_SECDED, .interleave = 2};
	/* group of lanes 2 and 3: bit 2 x 5 of the group is bit 5 of lane 2's
	 * codeword, bit 2 x 5 + 1 bit 5 of lane 3's */
	uint64_t group = RF_WORD(1, 2) / 2;
	plan_t p = {.t = SC_TGT_REGFILE, .loc = group * 2 * 39 + 10, .nbits = 2};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, pr, &p);
	cr_assert_eq(p.rc, 1);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
	cr_expect(strstr(p.site, "\"lane\":2") && strstr(p.site, "\"codeword_bit\":5"), "%s", p.site);
}

/* A pattern of three data bits that Hamming (38,32) decodes to a fourth:
 * the "correction" makes the word worse, silently. */
Test(prot, hamming_miscorrects_some_triple_errors)
{
	const sc_code_t *c = sc_code_get(SC_CODE_HAMMING);
	uint64_t pat = 0;
	for (uint32_t a = 0; a < 30 && !pat; a++)
		for (uint32_t b = a + 1; b < 31 && !pat; b++)
			for (uint32_t d = b + 1; d < 32 && !pat; d++) {
				uint64_t e = (1ull << a) | (1ull << b) | (1ull << d), rest;
				if (sc_code_decode(c, e, 0, false, &rest, NULL) == SC_ECC_MISCORRECTED && rest < (1ull << 32))
					pat = e;
			}
	cr_assert(pat, "Hamming miscorrects some triple errors of data bits");
	uint32_t lo = (uint32_t)__builtin_ctzll(pat), hi = 63u - (uint32_t)__builtin_clzll(pat);
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_HAMMING, 1, 3, lo), .nbits = hi - lo + 1,
	            .pattern = pat >> lo};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_HAMMING), &p);
	cr_assert_eq(p.rc, 1);
	cr_assert_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_MISCORRECTED);
	uint64_t rest;
	sc_code_decode(c, pat, 0, false, &rest, NULL);
	cr_expect_eq(o.out[3], (uint32_t)(3u ^ rest) + 50, "the word keeps the decoder's leftover: an SDC");
}

/* A word overwritten before any read holds a fresh codeword: nothing is
 * detected, and the dead test says so beforehand. */
Test(prot, a_dead_register_is_never_decoded)
{
	plan_t p = {.t = SC_TGT_REGFILE, .loc = rf_loc(SC_CODE_PARITY, 3, 3, 5), .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, rf(SC_CODE_PARITY), &p);
	cr_assert_eq(p.rc, 1);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

typedef struct dead_probe {
	uint64_t loc[2];
	int dead[2];
} dead_probe_t;

static uint64_t probe_dead(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	dead_probe_t *d = ctx;
	(void)cycle;
	for (int i = 0; i < 2; i++)
		d->dead[i] = sc_target_dead(g, SC_TGT_REGFILE, 0, 0, d->loc[i], 1);
	return UINT64_MAX;
}

Test(prot, the_dead_test_sees_through_the_codeword)
{
	h_ctx_t h;
	uint32_t out[32];
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	h.opt.prot = rf(SC_CODE_SECDED);
	h_load_ok(&h, h_loop_ptx);
	uint64_t buf = h_alloc(&h, sizeof out, NULL);
	dead_probe_t d = {.loc = {rf_loc(SC_CODE_SECDED, 4, 3, 33), rf_loc(SC_CODE_SECDED, 1, 3, 33)}};
	sc_set_pause(h.gpu, 400, probe_dead, &d);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&buf));
	h_fini(&h);
	cr_expect_eq(d.dead[0], 1, "a check bit of %%r4, written after the loop");
	cr_expect_eq(d.dead[1], 0, "a check bit of %%r1, read after it");
}

Test(prot, a_predicate_word_is_checked_when_any_lane_reads_it)
{
	/* %p1 is predicate 1 of warp slot 0: word 1, its bit l lane l's */
	sc_protection_t pr = {.pred = SC_CODE_PARITY};
	plan_t p = {.t = SC_TGT_PRED, .loc = 1 * 33 + 9, .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_UNALLOC, pr, &p);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);

	pr.pred = SC_CODE_SECDED;
	plan_t q = {.t = SC_TGT_PRED, .loc = 1 * 39 + 9, .nbits = 1};
	o = run(h_loop_ptx, SC_REGS_UNALLOC, pr, &q);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
}

/* buf[3] is granule 3 of the CTA's shared memory (slot 0, offset 0). */
Test(prot, shared_memory_granules_are_decoded_on_load)
{
	sc_protection_t pr = {.smem = SC_CODE_SECDED};
	plan_t p = {.t = SC_TGT_SMEM, .loc = 3 * 39 + 2, .nbits = 1};
	outcome_t o = run(smem_ptx, SC_REGS_UNALLOC, pr, &p);
	cr_assert_eq(p.rc, 1);
	cr_assert_eq(o.rc, 0);
	cr_expect_eq(o.out[3], 103, "corrected");
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);

	pr.smem = SC_CODE_PARITY;
	plan_t q = {.t = SC_TGT_SMEM, .loc = 3 * 33 + 2, .nbits = 1};
	o = run(smem_ptx, SC_REGS_UNALLOC, pr, &q);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);

	plan_t r = {.t = SC_TGT_SMEM, .loc = 3 * 32 + 2, .nbits = 1};
	o = run(smem_ptx, SC_REGS_UNALLOC, (sc_protection_t){0}, &r);
	cr_expect_eq(o.out[3], 103u ^ 4u, "the control: unprotected, the flip is read");
}

/* A byte store into a corrupted 32-bit granule is a read-modify-write:
 * decoded first (parity: detected); a whole-word store replaces it. */
Test(prot, a_narrow_store_decodes_the_granule_and_a_whole_one_replaces_it)
{
	sc_protection_t pr = {.smem = SC_CODE_PARITY};
	plan_t p = {.t = SC_TGT_SMEM, .loc = 3 * 33 + 20, .nbits = 1};
	outcome_t o = run(smem_byte_ptx, SC_REGS_UNALLOC, pr, &p);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);

	plan_t q = {.t = SC_TGT_SMEM, .loc = 3 * 33 + 20, .nbits = 1};
	o = run(smem_word_ptx, SC_REGS_UNALLOC, pr, &q);
	cr_assert_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_NONE);
	cr_expect_eq(o.out[3], 7);

	pr.smem = SC_CODE_SECDED;
	plan_t r = {.t = SC_TGT_SMEM, .loc = 3 * 39 + 20, .nbits = 1};
	o = run(smem_byte_ptx, SC_REGS_UNALLOC, pr, &r);
	cr_assert_eq(o.rc, 0);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
	cr_expect_eq(o.out[3], (103u & ~0xffu) | 7u, "the corrected granule with its new byte");
}

/* ptx mode: a virtual register's codeword is its home's. */
Test(prot, ptx_mode_codes_the_virtual_registers_homes)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_PTX;
	h_start(&h);
	const sc_module_t *m = h_load_ok(&h, h_loop_ptx);
	const sc_func_t *k = h_func(m, "k");
	uint32_t regs_ptx = k->regs_ptx;
	h_fini(&h);
	uint64_t vword = ((uint64_t)0 * regs_ptx + 1) * 32 + 3; /* %r1 is ptx slot 1 */
	plan_t p = {.t = SC_TGT_REGFILE, .loc = vword * 39 + 5, .nbits = 1};
	outcome_t o = run(h_loop_ptx, SC_REGS_PTX, rf(SC_CODE_SECDED), &p);
	cr_assert_eq(p.rc, 1);
	expect_clean(&o);
	cr_expect_eq(o.ev, SC_PROT_CORRECTED);
	plan_t q = {.t = SC_TGT_REGFILE, .loc = vword * 33 + 5, .nbits = 1};
	o = run(h_loop_ptx, SC_REGS_PTX, rf(SC_CODE_PARITY), &q);
	cr_expect_eq(o.due, SC_DUE_PARITY_ERROR);
}
