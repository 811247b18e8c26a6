/* ptx mode's fault targets (GUFI's ptx mode): the machine is alloc mode's,
 * but the register file and predicate targets are the resident threads'
 * PTX virtual registers, each found where the allocation keeps its value
 * now (fault.c, regalloc.c sc__vreg_home). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/runs.h"
#include "harness.h"
#include "sc_int.h"

/* The ptx slot of register `name` of kernel k (asserted present). */
static uint32_t slot_of(const sc_module_t *m, const sc_func_t *k, const char *name)
{
	char buf[64];
	for (uint32_t s = 0; s < k->regs_ptx; s++)
		if (sc__reg_name(m, k, s, false, buf, sizeof buf) == 0 && !strcmp(buf, name))
			return s;
	cr_assert_fail("kernel %s has no register %s", k->name, name);
	return 0;
}

/* Bit `bit` of ptx slot s of lane `lane` of warp slot `warp` (fault.c's layout). */
static uint64_t vloc(const sc_func_t *k, uint32_t warp, uint32_t s, uint32_t lane, uint32_t bit)
{
	return (((uint64_t)warp * k->regs_ptx + s) * 32 + lane) * 32 + bit;
}

static void ptx_mode(h_ctx_t *h)
{
	h_init(h);
	h->opt.regs = SC_REGS_PTX;
}

/* ---- a flip of one register of one thread ---- */

typedef struct probe {
	const char *reg; /* flip bit `bit` of this register of lane 3 */
	uint32_t bit;
	int dead, injected;
	char site[1024];
} probe_t;

static uint64_t flip_at(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	probe_t *p = ctx;
	const sc_func_t *k = g->run.fn;
	uint64_t loc = vloc(k, 0, slot_of(g->run.mod, k, p->reg), 3, p->bit);
	p->dead = sc_target_dead(g, SC_TGT_REGFILE, 0, 0, loc, 1);
	cr_assert_gt(sc_site_json(g, SC_TGT_REGFILE, 0, 0, loc, 1, p->site, sizeof p->site), 0);
	p->injected = sc_inject(g, SC_TGT_REGFILE, 0, 0, loc, 1);
	(void)cycle;
	return UINT64_MAX;
}

/* h_loop_ptx on one warp in ptx mode, with p's flip at cycle `at`. */
static void loop_run(probe_t *p, uint64_t at, uint32_t out[32], uint64_t *cycles)
{
	h_ctx_t h;
	ptx_mode(&h);
	h_load_ok(&h, h_loop_ptx);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	if (p)
		sc_set_pause(h.gpu, at, flip_at, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	h_read(&h, out, d, 32 * 4);
	if (cycles)
		*cycles = h_last(&h)->cycles;
	h_fini(&h);
}

/* The loop counts %r2 to 50 while %r1 (= tid) waits for the final add:
 * at a cycle inside the loop, %r1 is live and %r3 (written after it) dead. */
Test(vregs, a_live_register_flips_its_value)
{
	uint32_t out[32];
	uint64_t cycles;
	loop_run(NULL, 0, out, &cycles);
	for (uint32_t i = 0; i < 32; i++)
		cr_assert_eq(out[i], i + 50);
	probe_t p = {.reg = "%r1", .bit = 4};
	loop_run(&p, cycles / 2, out, NULL);
	cr_expect_eq(p.injected, 1);
	cr_expect_eq(p.dead, 0, "%%r1 is read after the loop");
	cr_expect(strstr(p.site, "\"vreg\":\"%r1\"") && strstr(p.site, "\"lane\":3") && strstr(p.site, "\"before\":\"0x00000003\"") &&
	          strstr(p.site, "\"after\":\"0x00000013\""), "%s", p.site);
	for (uint32_t i = 0; i < 32; i++)
		cr_expect_eq(out[i], i == 3 ? (3u ^ 16u) + 50 : i + 50, "out[%u]", i);
}

Test(vregs, a_dead_register_is_masked_and_dead)
{
	uint32_t out[32];
	uint64_t cycles;
	loop_run(NULL, 0, out, &cycles);
	const char *dead[] = {"%r3", "%rd1", "%rd3"};
	for (size_t r = 0; r < sizeof dead / sizeof dead[0]; r++) {
		probe_t p = {.reg = dead[r], .bit = 7};
		loop_run(&p, cycles / 2, out, NULL);
		cr_expect_eq(p.injected, 1, "%s: in use (its warp is resident)", dead[r]);
		cr_expect_eq(p.dead, 1, "%s is written after the loop before it is read", dead[r]);
		cr_expect(strstr(p.site, "\"reg\":null") != NULL, "%s", p.site);
		for (uint32_t i = 0; i < 32; i++)
			cr_expect_eq(out[i], i + 50, "%s: out[%u]", dead[r], i);
	}
}

/* ---- every home is a live physical word, and no two share one ---- */

typedef struct homes {
	uint64_t every;   /* pause every this many cycles */
	bool exact;       /* no divergence: live physical words are exactly the homes */
	uint64_t pauses, homes, words, upper;
} homes_t;

static uint64_t check_homes(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	homes_t *c = ctx;
	const sc_run_t *r = &g->run;
	c->pauses++;
	for (uint32_t smi = 0; smi < g->cfg.num_sms; smi++) {
		sc_sm_t *sm = &g->sms[smi];
		uint8_t *mark = calloc(sm->rf_words, 1);
		cr_assert(mark);
		uint64_t in_use = 0, draws = 0, loc;
		for (uint32_t slot = 0; slot < r->ctas_per_sm * r->nwarps; slot++)
			for (uint32_t v = 0; v < r->fn->regs_ptx; v++)
				for (uint32_t lane = 0; lane < 32; lane++) {
					sc_vbit_t b;
					int rc = sc__virtual_at(g, SC_TGT_REGFILE, smi, vloc(r->fn, slot, v, lane, 0), &b);
					in_use += rc >= 0;
					if (rc != 1)
						continue;
					uint64_t word = (uint64_t)(b.warp->rf - sm->rf) + (uint64_t)b.phys * 32 + lane;
					cr_assert_lt(word, sm->rf_words);
					cr_assert_eq(mark[word], 0, "cycle %llu, sm %u: two virtual registers in physical word %llu",
					             (unsigned long long)cycle, smi, (unsigned long long)word);
					mark[word] = 1;
					c->homes++;
				}
		/* a live draw lands on each word in use exactly once */
		while (draws < in_use + 1 && sc_live_loc(g, SC_TGT_REGFILE, 0, smi, draws, 32, &loc) == 1) {
			cr_assert_eq(sc_target_in_use(g, SC_TGT_REGFILE, 0, smi, loc, 32), 1);
			draws++;
		}
		cr_assert_eq(draws, in_use ? in_use + 1 : 0, "draws wrap after the words in use");
		g->opt.regs = SC_REGS_ALLOC; /* the physical file's own liveness (sc_target_dead) */
		for (uint64_t w = 0; w < sm->rf_words; w++) {
			if (sc_target_in_use(g, SC_TGT_REGFILE, 0, smi, w * 32, 32) != 1) {
				cr_assert_eq(mark[w], 0, "a home outside the resident warps");
				continue;
			}
			const sc_warp_t *ow = &sm->warps[w / ((uint64_t)r->regs * 32)];
			if (ow->state != SC_W_ACTIVE && ow->state != SC_W_BAR) {
				/* an exited warp's registers: never read again (sc_target_dead
				 * does not decide them) */
				cr_assert_eq(mark[w], 0, "a home in an exited warp");
				continue;
			}
			int dead = sc_target_dead(g, SC_TGT_REGFILE, 0, smi, w * 32, 32);
			c->words++;
			if (mark[w])
				cr_assert_eq(dead, 0, "cycle %llu: physical word %llu holds a live virtual register but is dead",
				             (unsigned long long)cycle, (unsigned long long)w);
			else if (!dead && c->exact) {
				/* sc_target_dead keeps a word above a live one (it may be a
				 * 64-bit value's upper half): that is all it keeps besides */
				char site[1024] = "";
				if (!(w >= 32 && mark[w - 32]))
					sc_site_json(g, SC_TGT_REGFILE, 0, smi, w * 32, 1, site, sizeof site);
				cr_assert(w >= 32 && mark[w - 32], "cycle %llu: live physical word %llu holds no virtual register: %s",
				          (unsigned long long)cycle, (unsigned long long)w, site);
				c->upper++;
			}
		}
		g->opt.regs = SC_REGS_PTX;
		free(mark);
	}
	return cycle + c->every;
}

Test(vregs, homes_are_the_live_physical_words_of_a_loop)
{
	h_ctx_t h;
	ptx_mode(&h);
	h_load_ok(&h, h_loop_ptx);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	homes_t c = {.every = 97, .exact = true};
	sc_set_pause(h.gpu, 1, check_homes, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	cr_log_info("loop: %llu pauses, %llu homes, %llu words in use, %llu kept as upper halves",
	            (unsigned long long)c.pauses, (unsigned long long)c.homes, (unsigned long long)c.words,
	            (unsigned long long)c.upper);
	cr_expect_gt(c.pauses, 10);
	cr_expect_gt(c.homes, 0);
	h_fini(&h);
}

/* vadd (examples/vadd) on 16 CTAs of 256: 64-bit pointers, several CTAs per SM. */
Test(vregs, homes_are_the_live_physical_words_of_vadd)
{
	h_ctx_t h;
	ptx_mode(&h);
	char *text = runs_slurp("examples/vadd/vadd.ptx");
	h_load_ok(&h, text);
	free(text);
	enum { N = 4096 };
	float *in = malloc(N * sizeof *in);
	for (int i = 0; i < N; i++)
		in[i] = (float)i;
	uint64_t a = h_alloc(&h, N * 4, in), b = h_alloc(&h, N * 4, in), o = h_alloc(&h, N * 4, NULL);
	uint32_t n = N;
	homes_t c = {.every = 211, .exact = true};
	sc_set_pause(h.gpu, 1, check_homes, &c);
	h_launch_ok(&h, "vadd", H_D1(N / 256), H_D1(256), 0, H_ARGS(&a, &b, &o, &n));
	h_read(&h, in, o, N * 4);
	for (int i = 0; i < N; i++)
		cr_assert_eq(in[i], 2.0f * (float)i);
	cr_expect_gt(c.homes, 0);
	cr_expect_gt(c.upper, 0, "vadd's 64-bit pointers have upper halves");
	free(in);
	h_fini(&h);
}

/* Divergent branches with 64-bit values on both sides: homes stay unique
 * and live (sc_target_dead keeps more here: any SIMT entry's pc counts). */
static const char diverge_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	and.b32 %r2, %r1, 1;\n"
	"	setp.eq.u32 %p1, %r2, 0;\n"
	"	cvt.u64.u32 %rd1, %r1;\n"
	"	@%p1 bra EVEN;\n"
	"	mul.lo.u64 %rd2, %rd1, 3;\n"
	"	mov.u32 %r3, 0;\n"
	"ODD:\n"
	"	add.u64 %rd2, %rd2, %rd1;\n"
	"	add.u32 %r3, %r3, 1;\n"
	"	setp.lt.u32 %p2, %r3, 20;\n"
	"	@%p2 bra ODD;\n"
	"	bra.uni JOIN;\n"
	"EVEN:\n"
	"	shl.b64 %rd2, %rd1, 4;\n"
	"	mov.u32 %r4, 7;\n"
	"	add.u64 %rd2, %rd2, 9;\n"
	"JOIN:\n"
	"	cvt.u32.u64 %r5, %rd2;\n"
	"	ld.param.u64 %rd3, [out];\n"
	"	cvta.to.global.u64 %rd3, %rd3;\n"
	"	mul.wide.u32 %rd4, %r1, 4;\n"
	"	add.s64 %rd5, %rd3, %rd4;\n"
	"	st.global.u32 [%rd5], %r5;\n"
	"	ret;\n"
	"}\n";

Test(vregs, homes_stay_unique_and_live_under_divergence)
{
	h_ctx_t h;
	ptx_mode(&h);
	h_load_ok(&h, diverge_ptx);
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	homes_t c = {.every = 31};
	sc_set_pause(h.gpu, 1, check_homes, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&d));
	uint32_t out[64];
	h_read(&h, out, d, sizeof out);
	for (uint32_t i = 0; i < 64; i++)
		cr_assert_eq(out[i], i & 1 ? 3 * i + 20 * i : 16 * i + 9, "out[%u]", i);
	cr_expect_gt(c.homes, 0);
	h_fini(&h);
}

/* ---- inside a call: the frame that owns a register decides ---- */

/* k adds tid + 100 (%r2, kept across the call) to f(tid) = 3 tid after a
 * 200-iteration loop; %r5 is never read. */
static const char call_ptx[] = H_PTX_HEAD
	".func (.param .b32 ret) f(.param .b32 x)\n"
	"{\n"
	"	.reg .b32 %r<5>;\n"
	"	.reg .pred %p<2>;\n"
	"	ld.param.u32 %r1, [x];\n"
	"	mul.lo.u32 %r2, %r1, 3;\n"
	"	mov.u32 %r3, 0;\n"
	"L:\n"
	"	add.u32 %r3, %r3, 1;\n"
	"	setp.lt.u32 %p1, %r3, 200;\n"
	"	@%p1 bra L;\n"
	"	st.param.u32 [ret], %r2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	mov.u32 %r5, 9;\n"
	"	{\n"
	"	.param .b32 param0;\n"
	"	st.param.b32 [param0], %r1;\n"
	"	.param .b32 retval0;\n"
	"	call.uni (retval0), f, (param0);\n"
	"	ld.param.b32 %r3, [retval0];\n"
	"	}\n"
	"	add.u32 %r4, %r3, %r2;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r4;\n"
	"	ret;\n"
	"}\n";

typedef struct call_probe {
	uint32_t vs;     /* ptx slot to flip (bit 5 of lane 3) once the warp is in f */
	bool done;
	int dead;
	homes_t homes;
} call_probe_t;

static uint64_t in_call(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	call_probe_t *p = ctx;
	const sc_warp_t *w = &g->sms[0].warps[0];
	if (p->done || w->ncalls == 0)
		return p->done ? UINT64_MAX : cycle + 5;
	check_homes(g, &p->homes, cycle); /* unique homes inside the call too */
	uint64_t loc = vloc(g->run.fn, 0, p->vs, 3, 5);
	p->dead = sc_target_dead(g, SC_TGT_REGFILE, 0, 0, loc, 1);
	cr_assert_eq(sc_inject(g, SC_TGT_REGFILE, 0, 0, loc, 1), 1);
	p->done = true;
	return UINT64_MAX;
}

Test(vregs, a_caller_register_is_found_inside_the_call)
{
	const char *regs[] = {"%r2", "%r5"};
	for (int i = 0; i < 2; i++) {
		h_ctx_t h;
		ptx_mode(&h);
		sc_module_t *m = h_load_ok(&h, call_ptx);
		const sc_func_t *k = h_func(m, "k");
		call_probe_t p = {.vs = slot_of(m, k, regs[i]), .homes = {.every = 1}};
		uint64_t d = h_alloc(&h, 32 * 4, NULL);
		sc_set_pause(h.gpu, 1, in_call, &p);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		uint32_t out[32];
		h_read(&h, out, d, sizeof out);
		cr_assert(p.done, "the warp entered f");
		bool live = i == 0; /* %r2 is added after the call; %r5 never read */
		cr_expect_eq(p.dead, !live, "%s", regs[i]);
		for (uint32_t t = 0; t < 32; t++)
			cr_expect_eq(out[t], 3 * t + ((t + 100) ^ (live && t == 3 ? 32u : 0u)), "%s: out[%u]", regs[i], t);
		h_fini(&h);
	}
}

/* A kernel over gtx480's limit (tests/spill/spill80.ptx) runs spilled:
 * its spill temporaries are virtual registers with homes while they are
 * live, its spilled registers have none (they are in local memory), and
 * the live physical words are still exactly the homes. */
Test(vregs, homes_are_the_live_physical_words_of_a_spilled_kernel)
{
	h_ctx_t h;
	ptx_mode(&h);
	char *text = runs_slurp("tests/spill/spill80.ptx");
	sc_module_t *m = h_load_ok(&h, text);
	free(text);
	sc_kernel_regs_t kr;
	cr_assert_eq(sc_kernel_regs(m, "k", &kr), 0);
	cr_assert_gt(kr.spill_regs, 0, "the kernel spills");
	enum { N = 400000 };
	float *in = calloc(N, sizeof *in);
	cr_assert(in);
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 7) * 0.25f;
	uint64_t a = h_alloc(&h, N * 4, in), o = h_alloc(&h, 64 * 4, NULL);
	homes_t c = {.every = 97, .exact = true};
	sc_set_pause(h.gpu, 1, check_homes, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&a, &o));
	cr_expect_gt(c.pauses, 10);
	cr_expect_gt(c.homes, 0);
	free(in);
	h_fini(&h);
}
