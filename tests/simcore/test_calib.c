/* Calibration kernels (issue 12, item 4): microbenchmarks of known
 * behaviour whose measured latencies and throughputs must be the GPU
 * configuration's own parameters: pointer chases served by L1, L2 and
 * DRAM, a streaming copy against the DRAM channels' bandwidth, L1-resident
 * loads against the load/store unit, shared-memory bank conflicts, the
 * constant cache and the issue rate. Each measures the difference of two
 * launches that differ only in how many steps they take, so that fixed
 * costs (launch, parameters, warm-up, drain) cancel, and computes what it
 * expects from the configuration, never from a recorded result. The timing
 * model: docs/DESIGN.md ("The microarchitecture model"). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- helpers */

/* A growing string for generated PTX; the test frees s. */
typedef struct sb {
	char *s;
	size_t len, cap;
} sb_t;

static void sb_add(sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sb_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		cr_assert_not_null(b->s);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Steps per loop iteration. The loop counter (%r31, from the parameter
 * iters) is decremented and tested in the shadow of the first two steps,
 * so between iterations only the branch and its refetch (latency.branch)
 * stand, hidden under the last step's latency: a step costs what its load
 * costs (the 22-cycle constant-cache hit leaves the branch 2 cycles per
 * iteration, 0.6 % of a step). */
enum { UNROLL = 16 };

static void loop_open(sb_t *b) { sb_add(b, "\tld.param.u32 %%r31, [iters];\nLOOP:\n"); }

static void loop_step(sb_t *b, unsigned j)
{
	if (j == 0)
		sb_add(b, "\tsub.u32 %%r31, %%r31, 1;\n");
	if (j == 1)
		sb_add(b, "\tsetp.ne.u32 %%p1, %%r31, 0;\n");
	if (j == UNROLL - 1)
		sb_add(b, "\t@%%p1 bra LOOP;\n");
}

/* The gtx480 GPU of h_init, with a cycle budget far above what any test
 * here simulates (a few million cycles per GPU), so that a timing model
 * that never lets a kernel finish fails the test instead of hanging it. */
static void calib_init(h_ctx_t *h)
{
	h_init(h);
	h->opt.cycle_budget = 50000000;
}

/* Launches and returns the launch's cycles. */
static uint64_t run(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, void *const *args)
{
	h_launch_ok(h, kernel, grid, block, 0, args);
	return h_last(h)->cycles;
}

/* Expects `got` within a fraction `rel` of `want`, naming the measurement. */
static void expect_near(const char *what, double got, double want, double rel)
{
	cr_log_info("%s: measured %.3f, expected %.3f", what, got, want);
	cr_expect(fabs(got - want) <= rel * want, "%s: measured %.3f, expected %.3f (within %.0f %%)", what, got, want,
	          rel * 100);
}

/* Cycles of clock_mhz that a DRAM channel takes to move one L2 sector:
 * whole bursts of dram_bus_bytes x dram_burst bytes, a burst taking
 * dram_burst / dram_rate memory clocks. */
static double sector_transfer(const sc_gpu_config_t *c)
{
	double bursts = ceil((double)c->l2_sector / (c->dram_bus_bytes * c->dram_burst));
	return bursts * c->dram_burst / c->dram_rate * c->clock_mhz / c->mem_mhz;
}

/* L2 sectors a load's miss asks for: the whole L1 line it fills, or the
 * one sector an aligned 8-byte load touches where there is no L1. */
static uint32_t miss_sectors(const sc_gpu_config_t *c) { return c->l1_bytes ? c->l1_line / c->l2_sector : 1; }

/* ---------------------------------------------------------------- pointer chase */

/* One thread follows `iters` x UNROLL dependent 64-bit loads from p and
 * stores where it ended. */
static char *chase_ptx(void)
{
	sb_t b = {0};
	sb_add(&b, "%s", H_PTX_HEAD ".visible .entry chase(.param .u64 p, .param .u32 iters, .param .u64 out)\n{\n"
	                            "\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
	                            "\tld.param.u64 %rd1, [p];\n");
	loop_open(&b);
	for (unsigned j = 0; j < UNROLL; j++) {
		sb_add(&b, "\tld.global.u64 %%rd1, [%%rd1];\n");
		loop_step(&b, j);
	}
	sb_add(&b, "\tld.param.u64 %%rd2, [out];\n\tst.global.u64 [%%rd2], %%rd1;\n\tret;\n}\n");
	return b.s;
}

/* `nodes` nodes `stride` bytes apart, visited in a random cyclic order:
 * word 0 of node order[i] holds the address of node order[i + 1]. */
typedef struct chase {
	h_ctx_t h;
	uint32_t nodes, stride, *order;
	uint64_t base, out;
} chase_t;

static void chase_init(chase_t *c, uint32_t bytes, uint32_t stride, uint64_t seed)
{
	calib_init(&c->h);
	c->nodes = bytes / stride;
	c->stride = stride;
	c->order = malloc(c->nodes * sizeof *c->order);
	cr_assert_not_null(c->order);
	for (uint32_t i = 0; i < c->nodes; i++)
		c->order[i] = i;
	for (uint32_t i = c->nodes - 1; i > 0; i--) {
		uint32_t k = (uint32_t)(h_rand(&seed) % (i + 1)), t = c->order[i];
		c->order[i] = c->order[k];
		c->order[k] = t;
	}
	char *ptx = chase_ptx();
	h_load_ok(&c->h, ptx);
	free(ptx);
	c->base = h_alloc(&c->h, bytes, NULL);
	uint64_t *img = calloc(bytes / 8, 8);
	cr_assert_not_null(img);
	for (uint32_t i = 0; i < c->nodes; i++)
		img[(uint64_t)c->order[i] * stride / 8] = c->base + (uint64_t)c->order[(i + 1) % c->nodes] * stride;
	cr_assert_eq(sc_memcpy_htod(c->h.gpu, c->base, img, bytes), 0);
	free(img);
	c->out = h_alloc(&c->h, 8, NULL);
}

static void chase_fini(chase_t *c)
{
	free(c->order);
	h_fini(&c->h);
}

/* Chases iters x UNROLL steps from the node at position `from` of the
 * order; checks where it ended and returns the launch's cycles. */
static uint64_t chase_run(chase_t *c, uint32_t from, uint32_t iters)
{
	uint64_t p = c->base + (uint64_t)c->order[from % c->nodes] * c->stride, end;
	uint64_t cycles = run(&c->h, "chase", H_D1(1), H_D1(1), H_ARGS(&p, &iters, &c->out));
	h_read(&c->h, &end, c->out, 8);
	uint32_t to = (uint32_t)((from + (uint64_t)iters * UNROLL) % c->nodes);
	uint64_t want = c->base + (uint64_t)c->order[to] * c->stride;
	cr_expect_eq(end, want, "chase of %u steps from position %u ended at 0x%llx, want 0x%llx (position %u)",
	             iters * UNROLL, from, (unsigned long long)end, (unsigned long long)want, to);
	return cycles;
}

/* A quarter of L1, one node per line: the first pass in a launch brings
 * the chain into L1 (from L2, where an earlier launch left it), the
 * remaining steps hit: latency.global each. */
Test(calib, chase_l1_hit)
{
	h_ctx_t probe;
	calib_init(&probe);
	const sc_gpu_config_t *k = &probe.cfg;
	chase_t c;
	chase_init(&c, k->l1_bytes / 4, k->l1_line, 11);
	uint32_t warm = c.nodes / UNROLL, n = 16;
	chase_run(&c, 0, warm);
	uint64_t a = chase_run(&c, 0, warm + n), b = chase_run(&c, 0, warm + 2 * n);
	expect_near("L1 hit: cycles per chase step", (double)(b - a) / (n * UNROLL), k->latency[SC_LAT_GLOBAL], 0.10);
	chase_fini(&c);
}

/* A third of L2, 16 times L1, one node per line: after a launch that walks
 * the whole chain, a launch's steps all miss L1 (each line once per launch)
 * and hit L2: l2_latency each. */
Test(calib, chase_l2_hit)
{
	h_ctx_t probe;
	calib_init(&probe);
	const sc_gpu_config_t *k = &probe.cfg;
	uint32_t bytes = k->l2_bytes / 3 / k->l2_line * k->l2_line, line = k->l2_line;
	chase_t c;
	chase_init(&c, bytes, line, 12);
	cr_assert_geq(bytes, 16 * k->l1_bytes, "footprint %u bytes is not far beyond L1", bytes);
	uint32_t n = c.nodes / UNROLL / 4;
	chase_run(&c, 0, c.nodes / UNROLL);
	uint64_t a = chase_run(&c, 0, n), b = chase_run(&c, 0, 2 * n);
	expect_near("L2 hit: cycles per chase step", (double)(b - a) / (n * UNROLL), k->l2_latency, 0.10);
	chase_fini(&c);
}

/* 8 MB, one node per line, and every measured step on a node no launch
 * has touched: each misses L2 and finds its DRAM channel idle, which moves
 * the sectors of the L1 line it fills one after another. */
Test(calib, chase_dram_miss)
{
	h_ctx_t probe;
	calib_init(&probe);
	const sc_gpu_config_t *k = &probe.cfg;
	chase_t c;
	chase_init(&c, 8u << 20, k->l2_line, 13);
	cr_assert_geq(c.nodes * c.stride, 8 * k->l2_bytes, "8 MB is not far beyond L2");
	uint32_t n = 8, steps = n * UNROLL;
	chase_run(&c, 3 * steps, 1); /* elsewhere in the chain: both measured launches follow one */
	uint64_t a = chase_run(&c, 0, n), b = chase_run(&c, steps, 2 * n);
	double want = k->l2_latency + k->dram_latency + miss_sectors(k) * sector_transfer(k);
	expect_near("DRAM miss: cycles per chase step", (double)(b - a) / steps, want, 0.10);
	chase_fini(&c);
}

/* ---------------------------------------------------------------- streaming copy */

/* dst[i] = src[i] for n 16-byte elements, a grid-stride loop. */
static const char copy_ptx[] = H_PTX_HEAD
	".visible .entry copy(.param .u64 src, .param .u64 dst, .param .u32 n)\n"
	"{\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, %ntid.x;\n"
	"	mov.u32 %r3, %ctaid.x;\n"
	"	mad.lo.u32 %r4, %r3, %r2, %r1;\n"
	"	mov.u32 %r5, %nctaid.x;\n"
	"	mul.lo.u32 %r5, %r5, %r2;\n"
	"	ld.param.u32 %r6, [n];\n"
	"	ld.param.u64 %rd1, [src];\n"
	"	ld.param.u64 %rd2, [dst];\n"
	"L:\n"
	"	setp.ge.u32 %p1, %r4, %r6;\n"
	"	@%p1 bra DONE;\n"
	"	mul.wide.u32 %rd3, %r4, 16;\n"
	"	add.s64 %rd4, %rd1, %rd3;\n"
	"	add.s64 %rd5, %rd2, %rd3;\n"
	"	ld.global.v4.u32 {%r7, %r8, %r9, %r10}, [%rd4];\n"
	"	st.global.v4.u32 [%rd5], {%r7, %r8, %r9, %r10};\n"
	"	add.u32 %r4, %r4, %r5;\n"
	"	bra.uni L;\n"
	"DONE:\n"
	"	ret;\n"
	"}\n";

/* Copies `bytes` on a fresh GPU (empty caches, idle channels) with enough
 * CTAs to fill every SM; checks the copy and returns the cycles. */
static uint64_t copy_cycles(uint32_t bytes)
{
	h_ctx_t h;
	calib_init(&h);
	h_load_ok(&h, copy_ptx);
	uint32_t *src = malloc(bytes), *dst = malloc(bytes);
	cr_assert(src && dst);
	uint64_t seed = bytes;
	for (uint32_t i = 0; i < bytes / 4; i++)
		src[i] = (uint32_t)h_rand(&seed);
	uint64_t dsrc = h_alloc(&h, bytes, src), ddst = h_alloc(&h, bytes, NULL);
	const sc_gpu_config_t *k = &h.cfg;
	uint32_t per_sm = k->max_threads_per_sm / 256;
	if (per_sm > k->max_ctas_per_sm)
		per_sm = k->max_ctas_per_sm;
	uint32_t n = bytes / 16;
	uint64_t cycles = run(&h, "copy", H_D1(k->num_sms * per_sm), H_D1(256), H_ARGS(&dsrc, &ddst, &n));
	h_read(&h, dst, ddst, bytes);
	cr_expect(memcmp(src, dst, bytes) == 0, "copy of %u bytes: the destination differs from the source", bytes);
	free(src);
	free(dst);
	h_fini(&h);
	return cycles;
}

/* Bytes read plus bytes written per cycle, between a copy of 16 MB and
 * one of 8 MB, against what the DRAM channels can move in whole L2
 * sectors: dram_channels x l2_sector bytes per sector_transfer(). The L2
 * holds write-backs still pending at the end equally in both. */
Test(calib, streaming_copy_bandwidth)
{
	h_ctx_t probe;
	calib_init(&probe);
	const sc_gpu_config_t *k = &probe.cfg;
	uint32_t small = 8u << 20, big = 16u << 20;
	uint64_t a = copy_cycles(small), b = copy_cycles(big);
	double got = 2.0 * (big - small) / (double)(b - a);
	double peak = k->dram_channels * k->l2_sector / sector_transfer(k);
	cr_log_info("streaming copy: %.3f bytes per cycle, %.1f %% of %.3f", got, 100 * got / peak, peak);
	/* 100 % plus 0.1 %: a simulator may keep a sector's transfer time to a
	 * fraction of a cycle, rounded */
	cr_expect(got >= 0.70 * peak && got <= 1.001 * peak,
	          "streaming copy: measured %.3f bytes per cycle (read + write), expected 70-100 %% of the DRAM peak %.3f",
	          got, peak);
}

/* ---------------------------------------------------------------- L1-resident loads */

/* 1024 threads; thread t of warp w, lane l loads, UNROLL times per
 * iteration, the words at a + l*lane_b + (w%4)*warp_b + j*step_b (j < UNROLL),
 * and stores the sum of its last iteration's words. */
static char *l1loop_ptx(uint32_t lane_b, uint32_t warp_b, uint32_t step_b)
{
	sb_t b = {0};
	sb_add(&b, "%s", H_PTX_HEAD ".visible .entry l1loop(.param .u64 a, .param .u32 iters, .param .u64 out)\n{\n"
	                            "\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
	                            "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 31;\n"
	                            "\tshr.u32 %r3, %r1, 5;\n\tand.b32 %r3, %r3, 3;\n");
	sb_add(&b, "\tmul.lo.u32 %%r2, %%r2, %u;\n\tmad.lo.u32 %%r2, %%r3, %u, %%r2;\n", lane_b, warp_b);
	sb_add(&b, "\tld.param.u64 %%rd1, [a];\n\tcvt.u64.u32 %%rd2, %%r2;\n\tadd.s64 %%rd1, %%rd1, %%rd2;\n");
	loop_open(&b);
	for (unsigned j = 0; j < UNROLL; j++) {
		sb_add(&b, "\tld.global.u32 %%r%u, [%%rd1+%u];\n", 8 + j, j * step_b);
		loop_step(&b, j);
	}
	sb_add(&b, "\tmov.u32 %%r4, 0;\n");
	for (unsigned j = 0; j < UNROLL; j++)
		sb_add(&b, "\tadd.u32 %%r4, %%r4, %%r%u;\n", 8 + j);
	sb_add(&b, "\tld.param.u64 %%rd3, [out];\n\tmul.wide.u32 %%rd4, %%r1, 4;\n\tadd.s64 %%rd3, %%rd3, %%rd4;\n"
	           "\tst.global.u32 [%%rd3], %%r4;\n\tret;\n}\n");
	return b.s;
}

/* Cycles per warp-load of the l1loop kernel with this layout on one SM,
 * and in *lines the lines one warp-load touches. */
static double l1loop_per_load(uint32_t lane_b, uint32_t warp_b, uint32_t step_b, uint32_t *lines)
{
	enum { THREADS = 1024, WARPS = THREADS / 32, WORDS = 2048 };
	h_ctx_t h;
	calib_init(&h);
	char *ptx = l1loop_ptx(lane_b, warp_b, step_b);
	h_load_ok(&h, ptx);
	free(ptx);
	static uint32_t img[WORDS], out[THREADS];
	for (uint32_t i = 0; i < WORDS; i++)
		img[i] = i * 2654435761u;
	uint64_t a = h_alloc(&h, sizeof img, img), o = h_alloc(&h, sizeof out, NULL);
	const sc_gpu_config_t *k = &h.cfg;
	uint32_t span = 3 * warp_b + 31 * lane_b + (UNROLL - 1) * step_b + 4;
	cr_assert_leq(span, sizeof img);
	cr_assert_leq(span, k->l1_bytes / 2, "%u bytes do not stay in L1", span);
	*lines = 0;
	for (uint32_t l = 0; l < 32; l++) { /* distinct lines of warp 0's first load */
		uint32_t line = l * lane_b / k->l1_line, seen = 0;
		for (uint32_t m = 0; m < l; m++)
			seen |= m * lane_b / k->l1_line == line;
		*lines += !seen;
	}
	uint32_t n = 4, iters = n;
	run(&h, "l1loop", H_D1(1), H_D1(THREADS), H_ARGS(&a, &iters, &o)); /* into L2 */
	uint64_t c1 = run(&h, "l1loop", H_D1(1), H_D1(THREADS), H_ARGS(&a, &iters, &o));
	iters = 2 * n;
	uint64_t c2 = run(&h, "l1loop", H_D1(1), H_D1(THREADS), H_ARGS(&a, &iters, &o));
	h_read(&h, out, o, sizeof out);
	for (uint32_t t = 0; t < THREADS; t++) {
		uint32_t want = 0, at = (t % 32) * lane_b + (t / 32 % 4) * warp_b;
		for (uint32_t j = 0; j < UNROLL; j++)
			want += img[(at + j * step_b) / 4];
		cr_expect_eq(out[t], want, "l1loop (lane %u, warp %u, step %u bytes): thread %u summed 0x%x, want 0x%x",
		             lane_b, warp_b, step_b, t, out[t], want);
	}
	h_fini(&h);
	return (double)(c2 - c1) / ((double)WARPS * UNROLL * n);
}

/* 32 warps of one SM load from 8 KB in L1, each warp-load one line:
 * the load/store unit takes one line per interval.global cycles. Then each
 * lane in its own line: 32 lines per warp-load, 32 times slower. The
 * coalesced loop measures a few per cent above the unit's rate: its 3 loop
 * instructions per 16 loads sometimes take both schedulers' issue slots of
 * a cycle while the unit is free. */
Test(calib, l1_resident_throughput)
{
	h_ctx_t probe;
	calib_init(&probe);
	const sc_gpu_config_t *k = &probe.cfg;
	uint32_t line = k->l1_line, lines_c, lines_s;
	double coal = l1loop_per_load(4, UNROLL * line, line, &lines_c);
	double strided = l1loop_per_load(line, 0, 4, &lines_s);
	cr_assert_eq(lines_c, 1, "a warp's 32 consecutive words touch %u lines", lines_c);
	cr_assert_eq(lines_s, 32);
	expect_near("L1-resident coalesced: cycles per warp-load", coal, lines_c * k->interval[SC_LAT_GLOBAL], 0.15);
	expect_near("L1-resident strided: cycles per warp-load", strided, lines_s * k->interval[SC_LAT_GLOBAL], 0.15);
	expect_near("L1-resident strided / coalesced", strided / coal, (double)lines_s / lines_c, 0.15);
}

/* ---------------------------------------------------------------- shared-memory banks */

/* The chase that banks and cchase share: each lane follows %r4 through
 * UNROLL dependent loads of `space` per iteration, then stores where it
 * ended, as an offset from %r5, at out[%tid.x] (%r1). */
static void lane_chase(sb_t *b, const char *space)
{
	loop_open(b);
	for (unsigned j = 0; j < UNROLL; j++) {
		sb_add(b, "\tld.%s.u32 %%r4, [%%r4];\n", space);
		loop_step(b, j);
	}
	sb_add(b, "\tsub.u32 %%r4, %%r4, %%r5;\n\tld.param.u64 %%rd1, [out];\n\tmul.wide.u32 %%rd2, %%r1, 4;\n"
	          "\tadd.s64 %%rd1, %%rd1, %%rd2;\n\tst.global.u32 [%%rd1], %%r4;\n\tret;\n}\n");
}

/* One warp; lane l chases the word s*l of shared memory, which holds its
 * own address: every step a dependent load of the same 32 addresses. */
static char *banks_ptx(uint32_t smem)
{
	sb_t b = {0};
	sb_add(&b, H_PTX_HEAD ".visible .entry banks(.param .u32 s, .param .u32 iters, .param .u64 out)\n{\n"
	                      "\t.shared .align 4 .b8 sh[%u];\n"
	                      "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<2>;\n"
	                      "\tmov.u32 %%r1, %%tid.x;\n\tld.param.u32 %%r2, [s];\n\tmul.lo.u32 %%r3, %%r1, %%r2;\n"
	                      "\tshl.b32 %%r3, %%r3, 2;\n\tmov.u32 %%r5, sh;\n\tadd.u32 %%r4, %%r5, %%r3;\n"
	                      "\tst.shared.u32 [%%r4], %%r4;\n\tbar.sync 0;\n",
	       smem);
	lane_chase(&b, "shared");
	return b.s;
}

/* Passes a warp's access to words s*l (l < 32) needs: the most distinct
 * words that fall into one bank. */
static uint32_t bank_degree(uint32_t s, uint32_t banks)
{
	uint32_t worst = 0;
	for (uint32_t bank = 0; bank < banks; bank++) {
		uint32_t distinct = 0;
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t w = s * l, seen = 0;
			for (uint32_t m = 0; m < l; m++)
				seen |= s * m == w;
			distinct += w % banks == bank && !seen;
		}
		if (distinct > worst)
			worst = distinct;
	}
	return worst;
}

/* Per step latency.shared + (degree - 1) x interval.shared; stride 0 is
 * the broadcast of one word to every lane. */
Test(calib, shared_bank_conflicts)
{
	static const uint32_t strides[] = {0, 1, 2, 3, 4, 8, 16, 32};
	h_ctx_t h;
	calib_init(&h);
	const sc_gpu_config_t *k = &h.cfg;
	char *ptx = banks_ptx(4 * (31 * 32 + 1));
	h_load_ok(&h, ptx);
	free(ptx);
	uint64_t o = h_alloc(&h, 32 * 4, NULL);
	for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
		uint32_t s = strides[i], n = 4, iters = n, out[32];
		uint64_t a = run(&h, "banks", H_D1(1), H_D1(32), H_ARGS(&s, &iters, &o));
		iters = 2 * n;
		uint64_t b = run(&h, "banks", H_D1(1), H_D1(32), H_ARGS(&s, &iters, &o));
		h_read(&h, out, o, sizeof out);
		for (uint32_t l = 0; l < 32; l++)
			cr_expect_eq(out[l], 4 * s * l, "stride %u: lane %u ended at offset %u, want %u", s, l, out[l], 4 * s * l);
		uint32_t deg = bank_degree(s, k->smem_banks);
		double want = k->latency[SC_LAT_SHARED] + (deg - 1.0) * k->interval[SC_LAT_SHARED];
		char what[96];
		snprintf(what, sizeof what, "shared stride %u words (%u-way): cycles per step", s, deg);
		expect_near(what, (double)(b - a) / (n * UNROLL), want, 0.05);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- constant cache */

/* One warp; lane l chases the first word of line l % k of a .const table
 * of 32 lines, a word that holds its own address (ctab is the module's
 * only .const variable, so it starts at 0 of the constant space). */
static char *const_ptx(uint32_t line)
{
	uint32_t words = 32 * line / 4;
	sb_t b = {0};
	sb_add(&b, "%s.const .align 4 .u32 ctab[%u] = {", H_PTX_HEAD, words);
	for (uint32_t w = 0; w < words; w++)
		sb_add(&b, "%s%u", w ? ", " : "", w % (line / 4) ? 0 : 4 * w);
	sb_add(&b, "};\n.visible .entry cchase(.param .u32 k, .param .u32 iters, .param .u64 out)\n{\n"
	           "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<2>;\n"
	           "\tmov.u32 %%r1, %%tid.x;\n\tld.param.u32 %%r2, [k];\n\trem.u32 %%r3, %%r1, %%r2;\n"
	           "\tmov.u32 %%r5, ctab;\n\tmad.lo.u32 %%r4, %%r3, %u, %%r5;\n",
	       line);
	lane_chase(&b, "const");
	return b.s;
}

/* Hits in the constant cache: latency.const + (k - 1) x interval.const
 * per step for k distinct addresses (k = 1: the broadcast). */
Test(calib, constant_cache)
{
	static const uint32_t ks[] = {1, 2, 3, 8, 32};
	h_ctx_t h;
	calib_init(&h);
	const sc_gpu_config_t *k = &h.cfg;
	cr_assert_leq(32 * k->const_line, k->const_bytes / 2, "the table does not stay in the constant cache");
	char *ptx = const_ptx(k->const_line);
	h_load_ok(&h, ptx);
	free(ptx);
	uint64_t o = h_alloc(&h, 32 * 4, NULL);
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		uint32_t d = ks[i], n = 4, iters = n, out[32];
		run(&h, "cchase", H_D1(1), H_D1(32), H_ARGS(&d, &iters, &o)); /* the table into L2 */
		uint64_t a = run(&h, "cchase", H_D1(1), H_D1(32), H_ARGS(&d, &iters, &o));
		/* a launch starts with an empty constant cache: each line misses
		 * once, then every step's d addresses hit */
		cr_expect_eq(h_last(&h)->const_misses, d, "%u addresses", d);
		cr_expect_eq(h_last(&h)->const_hits, (uint64_t)d * (n * UNROLL - 1), "%u addresses", d);
		iters = 2 * n;
		uint64_t b = run(&h, "cchase", H_D1(1), H_D1(32), H_ARGS(&d, &iters, &o));
		h_read(&h, out, o, sizeof out);
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t want = l % d * k->const_line;
			cr_expect_eq(out[l], want, "%u addresses: lane %u ended at offset %u, want %u", d, l, out[l], want);
		}
		double want = k->latency[SC_LAT_CONST] + (d - 1.0) * k->interval[SC_LAT_CONST];
		char what[96];
		snprintf(what, sizeof what, "constant cache, %u distinct addresses: cycles per step", d);
		expect_near(what, (double)(b - a) / (n * UNROLL), want, 0.05);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- issue rate */

/* Every thread: eight independent accumulators, UNROLL x 2 adds per
 * iteration (each accumulator's adds 8 instructions apart); stores the sum
 * at its global index. */
static char *alu_ptx(void)
{
	sb_t b = {0};
	sb_add(&b, "%s", H_PTX_HEAD ".visible .entry alu(.param .u32 iters, .param .u64 out)\n{\n"
	                            "\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
	                            "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	                            "\tmad.lo.u32 %r1, %r2, %r3, %r1;\n");
	for (unsigned i = 0; i < 8; i++)
		sb_add(&b, "\tadd.u32 %%r%u, %%r1, %u;\n", 10 + i, i);
	loop_open(&b);
	for (unsigned j = 0; j < UNROLL; j++) {
		sb_add(&b, "\tadd.u32 %%r%u, %%r%u, %%r1;\n", 10 + 2 * j % 8, 10 + 2 * j % 8);
		sb_add(&b, "\tadd.u32 %%r%u, %%r%u, %%r1;\n", 11 + 2 * j % 8, 11 + 2 * j % 8);
		loop_step(&b, j);
	}
	sb_add(&b, "\tmov.u32 %%r4, 0;\n");
	for (unsigned i = 0; i < 8; i++)
		sb_add(&b, "\tadd.u32 %%r4, %%r4, %%r%u;\n", 10 + i);
	sb_add(&b, "\tld.param.u64 %%rd1, [out];\n\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd1, %%rd1, %%rd2;\n"
	           "\tst.global.u32 [%%rd1], %%r4;\n\tret;\n}\n");
	return b.s;
}

/* Every SM full of warps issuing independent adds: thread-instructions
 * per cycle per SM at schedulers_per_sm x warp_size / issue_cycles, never
 * above. */
Test(calib, issue_rate_peak)
{
	h_ctx_t h;
	calib_init(&h);
	const sc_gpu_config_t *k = &h.cfg;
	char *ptx = alu_ptx();
	h_load_ok(&h, ptx);
	free(ptx);
	uint32_t per_sm = k->max_threads_per_sm / 256;
	if (per_sm > k->max_ctas_per_sm)
		per_sm = k->max_ctas_per_sm;
	uint32_t ctas = k->num_sms * per_sm, threads = ctas * 256, n = 8, iters;
	uint32_t *out = malloc(threads * 4);
	cr_assert_not_null(out);
	uint64_t o = h_alloc(&h, threads * 4, NULL);
	double peak = (double)k->schedulers_per_sm * k->warp_size / k->issue_cycles;
	sc_launch_stats_t s[2];
	for (int r = 0; r < 2; r++) {
		iters = n << r;
		run(&h, "alu", H_D1(ctas), H_D1(256), H_ARGS(&iters, &o));
		s[r] = *h_last(&h);
		double ipc = (double)s[r].thread_insts / s[r].cycles / k->num_sms;
		cr_log_info("ALU kernel, %u iterations: IPC %.3f per SM over the whole launch", iters, ipc);
		cr_expect_leq(ipc, peak, "ALU kernel, %u iterations: IPC %.3f per SM above the peak %.3f", iters, ipc, peak);
		h_read(&h, out, o, threads * 4);
		for (uint32_t t = 0; t < threads; t++) {
			uint32_t want = 8 * t + 28 + 2 * UNROLL * iters * t;
			cr_expect_eq(out[t], want, "ALU kernel: thread %u computed %u, want %u", t, out[t], want);
		}
	}
	double ipc = (double)(s[1].thread_insts - s[0].thread_insts) / (s[1].cycles - s[0].cycles) / k->num_sms;
	expect_near("issue: thread-instructions per cycle per SM", ipc, peak, 0.05);
	cr_expect_leq(ipc, peak, "issue: IPC %.3f per SM above the peak %.3f", ipc, peak);
	free(out);
	h_fini(&h);
}
