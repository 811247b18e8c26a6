/* Fault models beyond the bit flip (fault.c sc_inject_model, rt.c): whole-
 * word random and zero values, multi-cell upsets, stuck-at and intermittent
 * bits on storage and on a functional unit's lane, and campaigns of each
 * model through the runner. One warp of 32 threads runs on SM 0, CTA slot
 * 0, warp slot 0, so every location is computed from fault.c's layouts. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/runs.h"
#include "harness.h"
#include "sc_int.h"

/* h_loop_ptx: %r<6> are slots 0..5, %rd<4> 6..13; p1 is the loop's
 * predicate. */

/* No loop: out[tid] = tid + 6, every result of a lane computed once. */
static const char straight_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	add.u32 %r2, %r1, 6;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

/* r5 is cleared at every one of 200 iterations: a word the kernel keeps
 * writing with its bit 0 clear. */
static const char clear_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r2, 0;\n"
	"L:\n"
	"	mov.u32 %r5, 0;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	setp.lt.u32 %p1, %r2, 200;\n"
	"	@%p1 bra L;\n"
	"	ret;\n"
	"}\n";

/* Bit `bit` of register `reg` of lane `lane` of warp slot 0. */
static uint64_t rf_loc(uint32_t reg, uint32_t lane, uint32_t bit) { return ((uint64_t)reg * 32 + lane) * 32 + bit; }

typedef struct plan {
	uint64_t at;
	sc_target_t t;
	uint64_t loc;
	uint32_t nbits;
	sc_fmodel_t m;
	uint64_t pattern;
	bool plain;     /* sc_inject instead of sc_inject_model */
	int rc;
	/* intermittent: the watched bit at every pause after the injection */
	bool sample;
	uint64_t watch;               /* the bit (regfile) */
	uint32_t nsamples, ones_in, zeros_in, ones_out, zeros_out;
} plan_t;

static bool bit_now(const sc_gpu_t *g, uint64_t loc) { return g->sms[0].rf[loc / 32] >> (loc % 32) & 1u; }

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	if (cycle == p->at) {
		p->rc = p->plain ? sc_inject(g, p->t, 0, 0, p->loc, p->nbits)
		                 : sc_inject_model(g, p->t, 0, 0, p->loc, p->nbits, &p->m, p->pattern);
		if (!p->sample)
			return UINT64_MAX;
	}
	/* as the runtime does: a window opening forces the bit */
	sc_stuck_pause(g, cycle);
	if (g->run.fn && g->sms[0].ctas[0].used) {
		bool in = sc__stuck_active(p->at, p->m.period, p->m.duration, cycle, NULL), one = bit_now(g, p->watch);
		p->nsamples++;
		p->ones_in += in && one;
		p->zeros_in += in && !one;
		p->ones_out += !in && one;
		p->zeros_out += !in && !one;
	}
	return cycle + 1;
}

/* Runs a kernel k(u32 *out) on one warp with the plan; returns the launch
 * rc, out[] filled. */
static int run(h_ctx_t *h, const char *ptx, plan_t *p, uint32_t out[32])
{
	return h_run_warp(h, ptx, p->at, on_pause, p, out);
}

/* Runs ptx with plan p: the injection returns rc and, when it changed
 * something, out[t] == t + add for every lane t but those of `lanes`, which
 * hold want[t]. */
static void check(const char *ptx, plan_t *p, int rc, uint32_t add, uint32_t lanes, const uint32_t *want,
                  const char *what)
{
	h_ctx_t h;
	uint32_t out[32];
	cr_assert_eq(run(&h, ptx, p, out), 0, "%s: the launch fails", what);
	cr_expect_eq(p->rc, rc, "%s: the injection returned %d", what, p->rc);
	for (uint32_t t = 0; t < 32 && rc >= 0; t++)
		cr_expect_eq(out[t], lanes >> t & 1 ? want[t] : t + add, "%s: out[%u] = %u", what, t, out[t]);
	h_fini(&h);
}

Test(models, random_value_xors_the_whole_word)
{
	uint32_t want[32] = {[5] = (5u ^ 0xdeadbeefu) + 50};
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = rf_loc(1, 5, 0), .nbits = 32, .m = {.kind = SC_FM_VALUE},
	            .pattern = 0xdeadbeefu};
	check(h_loop_ptx, &p, 1, 50, 1u << 5, want, "r1 of lane 5 ^ 0xdeadbeef");
}

Test(models, zero_value_clears_the_whole_word)
{
	uint32_t want[32] = {[7] = 50};
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = rf_loc(1, 7, 0), .nbits = 32, .m = {.kind = SC_FM_ZERO}};
	check(h_loop_ptx, &p, 1, 50, 1u << 7, want, "r1 of lane 7 cleared");
	/* a whole-word model must stay inside one word */
	p.loc = rf_loc(1, 7, 16);
	check(h_loop_ptx, &p, SC_EINVAL, 50, 0, want, "half of two words");
}

Test(models, mcu_hits_k_words_interleave_apart)
{
	uint32_t want[32] = {[5] = (5u ^ 8u) + 50, [7] = (7u ^ 8u) + 50, [9] = (9u ^ 8u) + 50};
	/* words of the register file are lanes of one register: lanes 5, 7, 9 */
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = rf_loc(1, 5, 3), .nbits = 1,
	            .m = {.kind = SC_FM_FLIP, .words = 3, .interleave = 2}};
	check(h_loop_ptx, &p, 1, 50, 1u << 5 | 1u << 7 | 1u << 9, want, "bit 3 of r1 in lanes 5, 7, 9");
	p.m.interleave = 0; /* names no words */
	check(h_loop_ptx, &p, SC_EINVAL, 50, 0, want, "interleave 0");
}

Test(models, stuck_at_one_survives_every_write)
{
	uint32_t want[32] = {[5] = 5 + 51};
	/* bit 0 of r2 (the loop counter) of lane 5 stuck at 1 from cycle 1,
	 * before the CTA starts (armed, not in use yet): the counter runs 1,
	 * 3, ..., 49, 51 */
	plan_t p = {.at = 1, .t = SC_TGT_REGFILE, .loc = rf_loc(2, 5, 0), .nbits = 1,
	            .m = {.kind = SC_FM_STUCK, .value = 1}};
	check(h_loop_ptx, &p, 1, 50, 1u << 5, want, "r2 of lane 5 odd after every write");
	/* the same bit flipped once is overwritten: the loop still ends at 50 */
	plan_t q = {.at = 500, .t = SC_TGT_REGFILE, .loc = rf_loc(2, 5, 0), .nbits = 1, .plain = true};
	check(h_loop_ptx, &q, 1, 50, 0, want, "a transient flip of the counter");
}

Test(models, stuck_at_zero_predicate_is_seen_by_the_guard)
{
	uint32_t want[32] = {[5] = 5 + 1};
	/* p1 of lane 5 stuck at 0: the guard read after each setp sees it, the
	 * lane leaves the loop after one iteration */
	plan_t p = {.at = 1, .t = SC_TGT_PRED, .loc = 1 * 32 + 5, .nbits = 1, .m = {.kind = SC_FM_STUCK, .value = 0}};
	check(h_loop_ptx, &p, 1, 50, 1u << 5, want, "lane 5 iterates once");
}

Test(models, stuck_at_fu_lane_corrupts_every_result_of_its_unit)
{
	uint32_t want[32] = {[4] = 8};
	/* bit 1 of every result of lane 4 stuck at 0: r1 = 4 has it clear,
	 * r2 = 10 loses it (8); the addresses (multiples of 4 from an aligned
	 * base) have it clear already. Lane 4 sits in the units of scheduler
	 * 4 mod 2 = 0, which the one warp (slot 0) issues to. */
	plan_t p = {.at = 1, .t = SC_TGT_FU, .loc = 4 * 64 + 1, .nbits = 1, .m = {.kind = SC_FM_STUCK, .value = 0}};
	check(straight_ptx, &p, 1, 6, 1u << 4, want, "lane 4's sum loses bit 1");
	/* lane 5 sits in scheduler 1's units: the warp never computes there,
	 * and r2 = 11 keeps its bit 1 */
	plan_t q = {.at = 1, .t = SC_TGT_FU, .loc = 5 * 64 + 1, .nbits = 1, .m = {.kind = SC_FM_STUCK, .value = 0}};
	check(straight_ptx, &q, 1, 6, 0, want, "lane 5 of the other scheduler's units acts on nothing");
	/* one permanent fault per run */
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, straight_ptx);
	sc_fmodel_t m = {.kind = SC_FM_STUCK, .value = 1};
	cr_expect_eq(sc_inject_model(h.gpu, SC_TGT_FU, 0, 0, 5 * 64, 1, &m, 0), 1);
	cr_expect_eq(sc_inject_model(h.gpu, SC_TGT_REGFILE, 0, 0, 0, 1, &m, 0), SC_EINVAL);
	cr_expect_eq(sc_model_supported(SC_TGT_SIMT, SC_FM_STUCK), 0);
	cr_expect_eq(sc_model_supported(SC_TGT_L2, SC_FM_ZERO), 0);
	cr_expect_eq(sc_model_supported(SC_TGT_L2, SC_FM_VALUE), 1);
	h_fini(&h);
}

Test(models, intermittent_bit_is_forced_only_in_its_windows)
{
	h_ctx_t h;
	uint32_t out[32];
	/* bit 0 of r5 of lane 5 stuck at 1 for 30 cycles of every 100: r5 is
	 * cleared at every iteration, so outside the windows the bit drops */
	plan_t p = {.at = 300, .t = SC_TGT_REGFILE, .loc = rf_loc(5, 5, 0), .nbits = 1, .sample = true,
	            .m = {.kind = SC_FM_STUCK, .value = 1, .period = 100, .duration = 30}};
	p.watch = p.loc;
	cr_assert_eq(run(&h, clear_ptx, &p, out), 0);
	cr_expect_eq(p.rc, 1);
	cr_expect_gt(p.nsamples, 1000, "the run went on for many windows (%u samples)", p.nsamples);
	cr_expect_gt(p.ones_in, 0);
	cr_expect_eq(p.zeros_in, 0, "%u samples inside a window saw the bit clear", p.zeros_in);
	cr_expect_gt(p.zeros_out, p.ones_out, "outside the windows the kernel's writes clear it");
	h_fini(&h);
}

/* ---- campaigns of each model through the runner ---- */

/* A campaign of vadd4k (tests/engine/data) on `target` with fault model
 * `model` (JSON), run by fork and by re-simulation: equal outcomes. */
static void campaign_forks_equal_resimulation(const char *name, const char *target, const char *model,
                                              uint64_t injections)
{
	char dir[64], path[128], *wl = realpath("tests/engine/data/vadd4k.json", NULL);
	cr_assert(wl);
	runs_tmpdir(dir, sizeof dir, "models");
	snprintf(path, sizeof path, "%s/campaign.json", dir);
	/* a virtual register (ptx mode) has no storage of its own to be stuck
	 * or to neighbour others: those models run on the physical file */
	bool physical = strstr(model, "stuck_at") || strstr(model, "intermittent") || strstr(model, "mcu");
	runs_writef(path, "{\"name\": \"%s\", \"workload\": \"%s\", \"regs\": \"%s\", \"target\": \"%s\", "
	            "\"injections\": %llu, \"seed\": 3, \"fault_model\": %s}\n", name, wl, physical ? "alloc" : "ptx",
	            target, (unsigned long long)injections, model);
	free(wl);
	setup_t s;
	runs_setup(&s, path);
	snprintf(s.dir, sizeof s.dir, "%s", dir); /* runs_teardown removes it */
	cr_assert_eq(s.p.n, injections);
	got_t f = runs_run(&s, false, false, false), nf = runs_run(&s, true, false, false);
	uint64_t k[3] = {0};
	for (uint64_t i = 0; i < s.p.n; i++) {
		cr_expect_eq(f.o[i].outcome, nf.o[i].outcome, "%s: mask %llu", name, (unsigned long long)i);
		cr_expect_str_eq(f.o[i].reason, nf.o[i].reason, "%s: mask %llu", name, (unsigned long long)i);
		k[f.o[i].outcome]++;
	}
	cr_log_info("%s: masked %llu sdc %llu due %llu", name, (unsigned long long)k[0], (unsigned long long)k[1],
	            (unsigned long long)k[2]);
	cr_expect_gt(k[CLS_SDC] + k[CLS_DUE], 0, "%s: some faults fail", name);
	bool permanent = strstr(model, "stuck_at") || strstr(model, "intermittent");
	for (uint64_t i = 0; permanent && i < s.p.n; i++) {
		cr_expect(!f.o[i].early, "%s: mask %llu stopped early", name, (unsigned long long)i);
		cr_expect(strcmp(f.o[i].reason, "unused") && strcmp(f.o[i].reason, "dead"), "%s: mask %llu is %s", name,
		          (unsigned long long)i, f.o[i].reason);
	}
	free(f.o);
	free(nf.o);
	runs_teardown(&s);
}

Test(models, random_value_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-random", "regfile", "{\"kind\": \"random_value\"}", 60);
}

Test(models, zero_value_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-zero", "regfile", "{\"kind\": \"zero_value\"}", 60);
}

Test(models, mcu_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-mcu", "regfile", "{\"kind\": \"mcu\", \"words\": 4, \"interleave\": 2}",
	                                  60);
}

Test(models, stuck_at_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-stuck", "regfile", "{\"kind\": \"stuck_at\", \"value\": 1}", 40);
}

Test(models, stuck_at_fu_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-stuck-fu", "fu", "{\"kind\": \"stuck_at\", \"value\": 0, "
	                                  "\"from_start\": true}", 30);
}

Test(models, intermittent_campaign, .timeout = 300)
{
	campaign_forks_equal_resimulation("models-inter", "regfile", "{\"kind\": \"intermittent\", \"value\": 1, "
	                                  "\"period\": 64, \"duration\": 16}", 40);
}

/* The model's parameters are part of the campaign's identity. */
Test(models, model_parameters_make_the_identity)
{
	char dir[64], path[128], hash[2][17], *wl = realpath("tests/engine/data/vadd4k.json", NULL);
	cr_assert(wl);
	runs_tmpdir(dir, sizeof dir, "models-id");
	snprintf(path, sizeof path, "%s/campaign.json", dir);
	for (int i = 0; i < 2; i++) {
		runs_writef(path, "{\"workload\": \"%s\", \"target\": \"smem\", \"fault_model\": {\"kind\": \"intermittent\", "
		            "\"value\": 1, \"period\": 64, \"duration\": %d}}\n", wl, 16 + i);
		camp_campaign_t *c;
		char err[512];
		cr_assert_eq(camp_campaign_load(path, &c, err, sizeof err), 0, "%s", err);
		cr_expect(strstr(c->canonical, "\"fault_model\":{\"duration\":") != NULL, "%s", c->canonical);
		cr_expect(strstr(c->canonical, "\"period\":64") && strstr(c->canonical, "\"from_start\":false"), "%s",
		          c->canonical);
		memcpy(hash[i], c->hash, sizeof hash[i]);
		camp_campaign_destroy(c);
	}
	cr_expect_str_neq(hash[0], hash[1], "another duration is another campaign");
	free(wl);
	unlink(path);
	rmdir(dir);
}
