/* The timing and resource model (simcore/gpu.c occupancy and dispatch,
 * sm.c scheduling): occupancy limits and their limiter computed here by
 * hand for the gtx480 numbers, launches that cannot fit, determinism across
 * runs and schedulers, instruction counts, latencies seen through skipped
 * idle cycles and %clock64, and scaling with the number of SMs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- occupancy */

/* A kernel that declares `r32` 32-bit and `r64` 64-bit registers (each
 * 64-bit one takes two slots in ptx mode) and `smem` bytes of .shared. */
static void occ_kernel(char *buf, size_t n, unsigned r32, unsigned r64, unsigned smem)
{
	char sh[96] = "";
	if (smem)
		snprintf(sh, sizeof sh, "	.shared .align 16 .b8 big[%u];\n", smem);
	snprintf(buf, n,
	         H_PTX_HEAD ".visible .entry k(.param .u64 out)\n"
	                    "{\n"
	                    "%s"
	                    "	.reg .b32 %%r<%u>;\n"
	                    "	.reg .b64 %%rd<%u>;\n"
	                    "	ld.param.u64 %%rd0, [out];\n"
	                    "	mov.u32 %%r0, %%tid.x;\n"
	                    "	%s\n"
	                    "	st.global.u32 [%%rd0], %%r0;\n"
	                    "	ret;\n"
	                    "}\n",
	         sh, r32, r64, smem ? "mov.u32 %r0, big;" : "");
}

/* gpu.c's occupancy: the smallest of the five limits, the first in this
 * order on a tie. */
static uint32_t occ_model(const sc_gpu_config_t *c, uint32_t threads, uint32_t regs, uint32_t smem,
                          const char **why)
{
	uint32_t nw = (threads + 31) / 32;
	uint32_t lim[5] = {c->max_ctas_per_sm, c->max_threads_per_sm / (nw * 32), c->max_warps_per_sm / nw,
	                   regs ? c->regs_per_sm / (regs * nw * 32) : UINT32_MAX, smem ? c->smem_per_sm / smem : UINT32_MAX};
	static const char *const names[5] = {"ctas", "threads", "warps", "registers", "shared"};
	int best = 0;
	for (int i = 1; i < 5; i++)
		if (lim[i] < lim[best])
			best = i;
	*why = names[best];
	return lim[best];
}

typedef struct occ_case {
	const char *what;
	unsigned r32, r64, smem, dyn, threads;
	uint32_t max_threads_per_sm; /* 0 = gtx480's */
	uint32_t ctas;               /* hand-computed for gtx480 */
	const char *limiter;
} occ_case_t;

/* gtx480: 1536 threads, 8 CTAs, 48 warps, 32768 registers, 48 KB shared. */
static const occ_case_t occ_cases[] = {
	/* 64 threads, 6 slots: ctas 8, threads 1536/64 = 24, registers 32768/384 = 85 */
	{"small CTAs", 4, 1, 0, 0, 64, 0, 8, "ctas"},
	/* 512 threads, 6 slots: threads 1536/512 = 3, registers 32768/3072 = 10 */
	{"big CTAs", 4, 1, 0, 0, 512, 0, 3, "threads"},
	/* 1024 threads: threads 1, registers 32768/6144 = 5 */
	{"max-size CTAs", 4, 1, 0, 0, 1024, 0, 1, "threads"},
	/* 256 threads, 8 + 2 * 30 = 68 slots: registers 32768/17408 = 1, threads 6 */
	{"many registers", 8, 30, 0, 0, 256, 0, 1, "registers"},
	/* 128 threads, 4 + 2 * 20 = 44 slots: registers 32768/5632 = 5, threads 12 */
	{"some registers", 4, 20, 0, 0, 128, 0, 5, "registers"},
	/* 64 threads, 20000 B static shared: shared 49152/20000 = 2 */
	{"big .shared array", 4, 1, 20000, 0, 64, 0, 2, "shared"},
	/* dynamic shared only: 12000 B: 49152/12000 = 4 */
	{"dynamic shared", 4, 1, 0, 12000, 64, 0, 4, "shared"},
	/* static 16 + dynamic 16000 (aligned after the static part): 16016 -> 3 */
	{"static and dynamic shared", 4, 1, 16, 16000, 64, 0, 3, "shared"},
	/* threads per SM lowered to 1024: threads 1024/256 = 4, warps 48/8 = 6 */
	{"thread-limited config", 4, 1, 0, 0, 256, 1024, 4, "threads"},
	/* a partial warp counts as a whole one: 40 threads = 2 warps; threads 1536/64 = 24 */
	{"partial warp", 4, 1, 0, 0, 40, 0, 8, "ctas"},
};

Test(arch, occupancy)
{
	for (size_t i = 0; i < sizeof occ_cases / sizeof occ_cases[0]; i++) {
		const occ_case_t *c = &occ_cases[i];
		char ptx[1024];
		occ_kernel(ptx, sizeof ptx, c->r32, c->r64, c->smem);
		h_ctx_t h;
		h_init(&h);
		if (c->max_threads_per_sm)
			h.cfg.max_threads_per_sm = c->max_threads_per_sm;
		h_load_ok(&h, ptx);
		uint64_t d = h_alloc(&h, 4, NULL);
		h_launch_ok(&h, "k", H_D1(2), H_D1(c->threads), c->dyn, H_ARGS(&d));
		const sc_launch_stats_t *s = h_last(&h);
		uint32_t regs = c->r32 + 2 * c->r64;
		uint32_t smem = c->smem;
		if (c->dyn)
			smem = (smem + 15) / 16 * 16 + c->dyn;
		smem = (smem + 15) / 16 * 16;
		cr_expect_eq(s->regs_per_thread, regs, "%s: %u registers, want %u", c->what, s->regs_per_thread, regs);
		cr_expect_eq(s->smem_per_cta, smem, "%s: %u bytes of shared memory, want %u", c->what, s->smem_per_cta, smem);
		const char *why;
		uint32_t model = occ_model(&h.cfg, c->threads, regs, smem, &why);
		cr_expect_eq(model, c->ctas, "%s: the test's hand count %u disagrees with its model %u", c->what, c->ctas,
		             model);
		cr_expect_eq(s->ctas_per_sm, c->ctas, "%s: %u CTAs per SM, want %u", c->what, s->ctas_per_sm, c->ctas);
		cr_expect_str_eq(s->limiter, c->limiter, "%s: limited by %s, want %s", c->what, s->limiter, c->limiter);
		double occ = (double)(c->ctas * ((c->threads + 31) / 32)) / 48.0;
		cr_expect_float_eq(s->occupancy, occ, 1e-12, "%s: occupancy %g, want %g", c->what, s->occupancy, occ);
		h_fini(&h);
	}
}

/* Launches that cannot place one CTA on an SM fail with SC_ELAUNCH and
 * leave the GPU usable. */
Test(arch, launch_does_not_fit)
{
	h_ctx_t h;
	h_init(&h);
	char ptx[1024];
	/* 1024 threads x (8 + 2*16 = 40 slots) = 40960 registers > 32768: in
	 * ptx mode such a kernel still runs, one CTA per SM in an extended
	 * register file (limiter "registers+"), rather than failing */
	occ_kernel(ptx, sizeof ptx, 8, 16, 0);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 4, NULL);
	h_launch_ok(&h, "k", H_D1(3), H_D1(1024), 0, H_ARGS(&d));
	cr_expect_eq(h_last(&h)->ctas_per_sm, 1);
	cr_expect_str_eq(h_last(&h)->limiter, "registers+");
	uint32_t v;
	h_read(&h, &v, d, 4);
	cr_expect_lt(v, 1024, "a thread's tid.x: %u", v);
	/* 600 threads = 19 warps: 40 * 608 = 24320 registers fit once; threads would allow 2 */
	h_launch_ok(&h, "k", H_D1(1), H_D1(600), 0, H_ARGS(&d));
	cr_expect_eq(h_last(&h)->ctas_per_sm, 1);
	cr_expect_str_eq(h_last(&h)->limiter, "registers");
	/* shared memory beyond the 48 KB a CTA may use */
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 48 * 1024 + 16, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "shared memory") != NULL, "message: %s", sc_gpu_errmsg(h.gpu));
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 48 * 1024, H_ARGS(&d));
	/* block shape */
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(1025), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_DIM(32, 0, 1), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(h_launch(&h, "k", H_DIM(0, 1, 1), H_D1(32), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_DIM(1, 1, 65), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect_eq(sc_synchronize(h.gpu), 0, "a refused launch is not a DUE");
	cr_expect_eq(h_status(&h)->reason, SC_DUE_NONE);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	h_fini(&h);

	/* static shared memory over the per-CTA limit */
	occ_kernel(ptx, sizeof ptx, 4, 1, 48 * 1024 + 16);
	h_init(&h);
	h_load_ok(&h, ptx);
	d = h_alloc(&h, 4, NULL);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d)), SC_ELAUNCH);
	h_fini(&h);

}

/* ---------------------------------------------------------------- counts */

/* Straight-line code: every warp issues each instruction once. */
Test(arch, instruction_counts)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r1;\n"
		"	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	mul.wide.u32 %rd2, %r1, 4;\n"
		"	add.s64 %rd3, %rd1, %rd2;\n"
		"	st.global.u32 [%rd3], %r1;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 96 * 4, NULL);
	h_launch_ok(&h, "k", H_D1(2), H_D1(80), 0, H_ARGS(&d)); /* 3 warps per CTA, the last of 16 threads */
	const sc_launch_stats_t *s = h_last(&h);
	cr_expect_eq(s->warp_insts, 6 * 3 * 2, "warp instructions %llu", (unsigned long long)s->warp_insts);
	cr_expect_eq(s->thread_insts, 6 * 80 * 2, "thread instructions %llu", (unsigned long long)s->thread_insts);
	cr_expect_eq(s->grid.x, 2);
	cr_expect_eq(s->block.x, 80);
	cr_expect_str_eq(s->kernel, "k");
	cr_expect_eq(s->cycles, s->end_cycle - s->start_cycle);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	sc_gpu_stats_t tot;
	sc_gpu_stats(h.gpu, &tot);
	cr_expect_eq(tot.launches, 2);
	cr_expect_eq(sc_launch_count(h.gpu), 2);
	cr_expect_eq(tot.warp_insts, 36 + 6);
	cr_expect_eq(tot.thread_insts, 960 + 192);
	cr_expect_eq(tot.cycles, sc_launch_stats(h.gpu, 0)->cycles + sc_launch_stats(h.gpu, 1)->cycles);
	cr_expect_geq(sc_launch_stats(h.gpu, 1)->start_cycle, sc_launch_stats(h.gpu, 0)->end_cycle);
	cr_expect_null(sc_launch_stats(h.gpu, 2));
	h_fini(&h);
}

/* ---------------------------------------------------------------- determinism */

/* A workload with divergence, shared memory, barriers and atomics:
 * out[gid] = sum over a data-dependent loop; total via atomics. */
static const char work_ptx[] = H_PTX_HEAD
	".visible .entry work(.param .u64 in, .param .u64 out, .param .u64 total)\n"
	"{\n"
	"	.shared .align 4 .u32 sh[128];\n"
	"	.reg .b32 %r<16>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<4>;\n"
	"	mov.u32 %r0, %tid.x;\n"
	"	mov.u32 %r1, %ctaid.x;\n"
	"	mad.lo.u32 %r2, %r1, 128, %r0;\n"
	"	ld.param.u64 %rd1, [in];\n"
	"	mul.wide.u32 %rd2, %r2, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	ld.global.u32 %r3, [%rd3];\n"
	"	and.b32 %r4, %r3, 15;           // trip count 0..15\n"
	"	mov.u32 %r5, 0;\n"
	"	mov.u32 %r6, %r3;\n"
	"L_loop:\n"
	"	setp.ge.u32 %p1, %r5, %r4;\n"
	"	@%p1 bra L_done;\n"
	"	mad.lo.u32 %r6, %r6, 1664525, 1013904223;\n"
	"	add.u32 %r5, %r5, 1;\n"
	"	bra.uni L_loop;\n"
	"L_done:\n"
	"	shl.b32 %r7, %r0, 2;\n"
	"	mov.u32 %r8, sh;\n"
	"	add.u32 %r8, %r8, %r7;\n"
	"	st.shared.u32 [%r8], %r6;\n"
	"	bar.sync 0;\n"
	"	xor.b32 %r9, %r0, 1;\n"
	"	shl.b32 %r9, %r9, 2;\n"
	"	mov.u32 %r10, sh;\n"
	"	add.u32 %r10, %r10, %r9;\n"
	"	ld.shared.u32 %r11, [%r10];\n"
	"	add.u32 %r12, %r6, %r11;\n"
	"	ld.param.u64 %rd4, [out];\n"
	"	add.s64 %rd5, %rd4, %rd2;\n"
	"	st.global.u32 [%rd5], %r12;\n"
	"	ld.param.u64 %rd6, [total];\n"
	"	red.global.add.u32 [%rd6], %r4;\n"
	"	ret;\n"
	"}\n";

enum { WCTAS = 40, WT = 128, WN = WCTAS * WT };

static uint32_t work_in(uint32_t i) { return i * 2654435761u + 12345; }

static uint32_t work_val(uint32_t g)
{
	uint32_t x = work_in(g), v = x;
	for (uint32_t k = 0; k < (x & 15); k++)
		v = v * 1664525u + 1013904223u;
	return v;
}

typedef struct work_result {
	uint64_t cycles, warp_insts, thread_insts;
	uint32_t out[WN], total;
} work_result_t;

static void run_work(sc_sched_t sched, uint32_t num_sms, work_result_t *res)
{
	static uint32_t in[WN];
	for (uint32_t i = 0; i < WN; i++)
		in[i] = work_in(i);
	h_ctx_t h;
	h_init(&h);
	h.cfg.scheduler = sched;
	h.cfg.num_sms = num_sms;
	h_load_ok(&h, work_ptx);
	uint64_t din = h_alloc(&h, sizeof in, in), dout = h_alloc(&h, WN * 4, NULL), dt = h_alloc(&h, 4, NULL);
	h_launch_ok(&h, "work", H_D1(WCTAS), H_D1(WT), 0, H_ARGS(&din, &dout, &dt));
	const sc_launch_stats_t *s = h_last(&h);
	res->cycles = s->cycles;
	res->warp_insts = s->warp_insts;
	res->thread_insts = s->thread_insts;
	h_read(&h, res->out, dout, sizeof res->out);
	h_read(&h, &res->total, dt, 4);
	h_fini(&h);
}

static void check_work(const work_result_t *r, const char *what)
{
	uint32_t total = 0;
	for (uint32_t g = 0; g < WN; g++) {
		uint32_t want = work_val(g) + work_val(g ^ 1);
		cr_expect_eq(r->out[g], want, "%s: thread %u: %u, want %u", what, g, r->out[g], want);
		total += work_in(g) & 15;
	}
	cr_expect_eq(r->total, total, "%s: total %u, want %u", what, r->total, total);
}

Test(arch, determinism_and_schedulers)
{
	static work_result_t a, b, c, d;
	run_work(SC_SCHED_LRR, 15, &a);
	run_work(SC_SCHED_LRR, 15, &b);
	run_work(SC_SCHED_GTO, 15, &c);
	run_work(SC_SCHED_GTO, 15, &d);
	check_work(&a, "lrr");
	check_work(&c, "gto");
	cr_expect_eq(a.cycles, b.cycles, "LRR: %llu then %llu cycles", (unsigned long long)a.cycles,
	             (unsigned long long)b.cycles);
	cr_expect_eq(a.warp_insts, b.warp_insts);
	cr_expect_eq(a.thread_insts, b.thread_insts);
	cr_expect(memcmp(a.out, b.out, sizeof a.out) == 0);
	cr_expect_eq(c.cycles, d.cycles, "GTO: %llu then %llu cycles", (unsigned long long)c.cycles,
	             (unsigned long long)d.cycles);
	cr_expect_eq(c.warp_insts, d.warp_insts);
	cr_expect(memcmp(c.out, d.out, sizeof c.out) == 0);
	/* the instructions executed do not depend on the schedule */
	cr_expect_eq(a.warp_insts, c.warp_insts);
	cr_expect_eq(a.thread_insts, c.thread_insts);
}

Test(arch, more_sms_fewer_cycles)
{
	static work_result_t one, four, fifteen;
	run_work(SC_SCHED_LRR, 1, &one);
	run_work(SC_SCHED_LRR, 4, &four);
	run_work(SC_SCHED_LRR, 15, &fifteen);
	check_work(&one, "1 SM");
	check_work(&fifteen, "15 SMs");
	cr_expect_lt(four.cycles, one.cycles, "4 SMs: %llu cycles, 1 SM: %llu", (unsigned long long)four.cycles,
	             (unsigned long long)one.cycles);
	cr_expect_lt(fifteen.cycles, four.cycles, "15 SMs: %llu cycles, 4 SMs: %llu", (unsigned long long)fifteen.cycles,
	             (unsigned long long)four.cycles);
	cr_expect_eq(one.warp_insts, fifteen.warp_insts);
}

/* ---------------------------------------------------------------- latency */

/* One thread chases a chain of dependent global loads: each must wait the
 * full global latency, and the idle cycles between are skipped, not
 * stepped (a latency of 100000 cycles per load would otherwise show as
 * millions of empty steps; only the count of cycles is checked here). */
Test(arch, idle_cycles_and_latency)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry chase(.param .u64 p, .param .u64 out)\n"
		"{\n"
		"	.reg .b64 %rd<8>;\n"
		"	.reg .b32 %r<4>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.global.u64 %rd2, [%rd1];\n"
		"	ld.global.u64 %rd3, [%rd2];\n"
		"	ld.global.u64 %rd4, [%rd3];\n"
		"	ld.global.u32 %r1, [%rd4];\n"
		"	ld.param.u64 %rd5, [out];\n"
		"	st.global.u32 [%rd5], %r1;\n"
		"	ret;\n"
		"}\n";
	static const uint32_t lats[] = {600, 5000, 100000};
	for (size_t i = 0; i < 3; i++) {
		h_ctx_t h;
		h_init(&h);
		h.cfg.latency[SC_LAT_GLOBAL] = lats[i];
		h_load_ok(&h, ptx);
		uint64_t a = h_alloc(&h, 32, NULL);
		uint64_t chain[4] = {a + 8, a + 16, a + 24, 0xabcd1234u};
		cr_assert_eq(sc_memcpy_htod(h.gpu, a, chain, sizeof chain), 0);
		uint64_t o = h_alloc(&h, 4, NULL);
		h_launch_ok(&h, "chase", H_D1(1), H_D1(1), 0, H_ARGS(&a, &o));
		uint32_t v;
		h_read(&h, &v, o, 4);
		cr_expect_eq(v, 0xabcd1234u);
		const sc_launch_stats_t *s = h_last(&h);
		uint64_t lower = 4ull * lats[i];
		/* the rest: two .param loads, the store, exit, at most a few hundred cycles */
		uint64_t upper = lower + 1000;
		cr_expect_geq(s->cycles, lower, "latency %u: %llu cycles < 4 dependent loads", lats[i],
		              (unsigned long long)s->cycles);
		cr_expect_leq(s->cycles, upper, "latency %u: %llu cycles", lats[i], (unsigned long long)s->cycles);
		cr_expect_eq(s->warp_insts, 8);
		h_fini(&h);
	}
}

/* A kernel without predicates: the scoreboard still holds back a read of
 * the last register slot until its load returns, in both register modes
 * (the slot after the registers is where the predicates would begin). */
Test(arch, last_register_waits_without_predicates)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p)\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	.reg .b64 %rd<2>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.global.u32 %r2, [%rd1];\n"
		"	add.s32 %r1, %r2, 1;\n"
		"	st.global.u32 [%rd1], %r1;\n"
		"	ret;\n"
		"}\n";
	static const sc_regs_t modes[] = {SC_REGS_UNALLOC, SC_REGS_ALLOC};
	for (size_t m = 0; m < 2; m++) {
		h_ctx_t h;
		h_init(&h);
		h.opt.regs = modes[m];
		h_load_ok(&h, ptx);
		uint32_t v = 41;
		uint64_t a = h_alloc(&h, 4, &v);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&a));
		h_read(&h, &v, a, 4);
		cr_expect_eq(v, 42);
		const sc_launch_stats_t *s = h_last(&h);
		cr_expect_geq(s->cycles, h.cfg.latency[SC_LAT_GLOBAL], "%s mode: %llu cycles, less than one global load",
		              m ? "alloc" : "ptx", (unsigned long long)s->cycles);
		h_fini(&h);
	}
}

/* %clock64 and %clock advance across a dependent load and across launches. */
Test(arch, clock_registers)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p, .param .u64 out)\n"
		"{\n"
		"	.reg .b64 %rd<8>;\n"
		"	.reg .b32 %r<6>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.param.u64 %rd2, [out];\n"
		"	mov.u64 %rd3, %clock64;\n"
		"	mov.u32 %r1, %clock;\n"
		"	ld.global.u32 %r2, [%rd1];\n"
		"	add.u32 %r3, %r2, 1;            // waits for the load\n"
		"	mov.u64 %rd4, %clock64;\n"
		"	mov.u32 %r4, %clock;\n"
		"	mov.u32 %r5, %clock_hi;\n"
		"	st.global.v2.u64 [%rd2], {%rd3, %rd4};\n"
		"	st.global.v4.u32 [%rd2+16], {%r1, %r4, %r5, %r3};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t p = h_alloc(&h, 4, NULL), o = h_alloc(&h, 32, NULL);
	uint64_t c[2][2];
	uint32_t c32[2][4];
	for (int run = 0; run < 2; run++) {
		h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&p, &o));
		h_read(&h, c[run], o, 16);
		h_read(&h, c32[run], o + 16, 16);
		const sc_launch_stats_t *s = h_last(&h);
		cr_expect_geq(c[run][1] - c[run][0], h.cfg.latency[SC_LAT_GLOBAL], "run %d: %%clock64 %llu -> %llu", run,
		              (unsigned long long)c[run][0], (unsigned long long)c[run][1]);
		cr_expect_geq(c[run][0], s->start_cycle);
		cr_expect_leq(c[run][1], s->end_cycle);
		/* %clock, read by the next instruction, is the low word of the clock a cycle or a few later */
		uint32_t d0 = c32[run][0] - (uint32_t)c[run][0], d1 = c32[run][1] - (uint32_t)c[run][1];
		cr_expect(d0 >= 1 && d0 <= 100, "%%clock %u after %%clock64 %llu", c32[run][0], (unsigned long long)c[run][0]);
		cr_expect(d1 >= 1 && d1 <= 100, "%%clock %u after %%clock64 %llu", c32[run][1], (unsigned long long)c[run][1]);
		cr_expect_eq(c32[run][2], (uint32_t)(c[run][1] >> 32));
		cr_expect_eq(c32[run][3], 1);
	}
	cr_expect_gt(c[1][0], c[0][1], "the clock runs on across launches");
	h_fini(&h);
}

/* The functional units: the SM's one SFU (gtx480: 4 lanes, interval.sfu
 * cycles a warp) takes the SFU instructions of both schedulers one after
 * the other, so a kernel of independent ex2 instructions takes at least
 * their count times the interval; the busy cycles counted per unit kind are
 * exactly that product, and both schedulers see the same SFU. A preset with
 * units per scheduler halves the SFU's share of the time. */
Test(arch, functional_units_busy_and_shared)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p)\n"
		"{\n"
		"	.reg .f32 %f<9>;\n"
		"	.reg .b32 %r<3>;\n"
		"	.reg .b64 %rd<2>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	cvt.rn.f32.u32 %f1, %r1;\n"
		"	ex2.approx.f32 %f2, %f1;\n"
		"	ex2.approx.f32 %f3, %f1;\n"
		"	ex2.approx.f32 %f4, %f1;\n"
		"	ex2.approx.f32 %f5, %f1;\n"
		"	ex2.approx.f32 %f6, %f1;\n"
		"	ex2.approx.f32 %f7, %f1;\n"
		"	ex2.approx.f32 %f8, %f1;\n"
		"	st.global.f32 [%rd1], %f8;\n"
		"	ret;\n"
		"}\n";
	const uint32_t warps = 8, sfu_per_warp = 7;
	uint64_t cycles[2];
	for (int per_sched = 0; per_sched < 2; per_sched++) {
		h_ctx_t h;
		h_init(&h);
		h.cfg.units_per_scheduler = (uint32_t)per_sched;
		h_load_ok(&h, ptx);
		uint64_t p = h_alloc(&h, 4, NULL);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32 * warps), 0, H_ARGS(&p));
		const sc_launch_stats_t *s = h_last(&h);
		uint64_t sfu = (uint64_t)warps * sfu_per_warp * h.cfg.interval[SC_LAT_SFU];
		cr_expect_eq(s->unit_busy[SC_FU_SFU], sfu, "SFU busy %llu cycles, want %llu",
		             (unsigned long long)s->unit_busy[SC_FU_SFU], (unsigned long long)sfu);
		cr_expect_eq(s->unit_busy[SC_FU_LDST], (uint64_t)warps * h.cfg.interval[SC_LAT_GLOBAL],
		             "one store per warp, one line each");
		cycles[per_sched] = s->cycles;
		uint64_t f0 = sc_unit_free_cycle(h.gpu, 0, SC_FU_SFU, 0), f1 = sc_unit_free_cycle(h.gpu, 0, SC_FU_SFU, 1);
		if (!per_sched) {
			cr_expect_geq(s->cycles, sfu, "%llu cycles for %llu cycles of one SFU's work",
			              (unsigned long long)s->cycles, (unsigned long long)sfu);
			cr_expect_eq(f0, f1, "the schedulers share the SFU");
		}
		cr_expect(f0 > s->start_cycle && f0 <= s->end_cycle, "SFU free from %llu, launch %llu..%llu",
		          (unsigned long long)f0, (unsigned long long)s->start_cycle, (unsigned long long)s->end_cycle);
		cr_expect_eq(sc_unit_free_cycle(h.gpu, h.cfg.num_sms, SC_FU_SFU, 0), 0, "an SM out of range");
		cr_expect_eq(sc_unit_free_cycle(h.gpu, 0, SC_FU__COUNT, 0), 0, "a unit kind out of range");
		cr_expect_str_eq(sc_fu_name(SC_FU_DP), "fp64");
		h_fini(&h);
	}
	cr_expect_lt(cycles[1], cycles[0], "an SFU per scheduler: %llu cycles, not fewer than one shared (%llu)",
	             (unsigned long long)cycles[1], (unsigned long long)cycles[0]);
}

/* The scheduler finds ready warps through a wheel of buckets by cycle
 * (launches of at most 64 warp slots per SM) or by scanning the slots
 * (FLIPSIM_SCAN_SCHEDULER=1, and launches with more slots): the same
 * decisions either way, under both policies. */
Test(arch, wheel_equals_scan)
{
	static work_result_t wheel[2], scan[2];
	static const sc_sched_t sched[2] = {SC_SCHED_LRR, SC_SCHED_GTO};
	for (int i = 0; i < 2; i++) {
		run_work(sched[i], 15, &wheel[i]);
		setenv("FLIPSIM_SCAN_SCHEDULER", "1", 1);
		run_work(sched[i], 15, &scan[i]);
		unsetenv("FLIPSIM_SCAN_SCHEDULER");
		check_work(&wheel[i], "wheel");
		cr_expect_eq(wheel[i].cycles, scan[i].cycles, "%s: %llu cycles with the wheel, %llu scanning",
		             sc_sched_name(sched[i]), (unsigned long long)wheel[i].cycles,
		             (unsigned long long)scan[i].cycles);
		cr_expect(memcmp(wheel[i].out, scan[i].out, sizeof wheel[i].out) == 0);
	}
}

/* A warp released from a barrier still waits for its next instruction's
 * operands: warp 0 loads from DRAM, reaches the barrier at once and stores
 * the loaded value after it; warp 1 releases the barrier long before the
 * load is back. The store, and so the launch, cannot end before the load. */
Test(arch, barrier_release_waits_for_operands)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 p)\n"
		"{\n"
		"	.reg .b32 %r<4>;\n"
		"	.reg .b64 %rd<3>;\n"
		"	.reg .pred %p<2>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	setp.lt.u32 %p1, %r1, 32;\n"
		"	@%p1 ld.global.u32 %r2, [%rd1];\n"
		"	bar.sync 0;\n"
		"	@%p1 st.global.u32 [%rd1+4], %r2;\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint32_t v[2] = {7, 0};
	uint64_t a = h_alloc(&h, 8, v);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 0, H_ARGS(&a));
	h_read(&h, v, a, 8);
	cr_expect_eq(v[1], 7);
	const sc_launch_stats_t *s = h_last(&h);
	uint64_t miss = (uint64_t)h.cfg.l2_latency + h.cfg.dram_latency;
	cr_expect_geq(s->cycles, miss, "%llu cycles: the store after the barrier did not wait for the load (%llu)",
	              (unsigned long long)s->cycles, (unsigned long long)miss);
	h_fini(&h);
}
