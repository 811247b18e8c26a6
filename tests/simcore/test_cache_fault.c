/* The caches as fault targets (cachefault.c): which bits are in use, what a
 * data, tag, valid or dirty flip does to the loads, stores, write-backs and
 * host copies that follow, and the state hash while a line is corrupted.
 * One warp of 32 threads on SM 0; the caches are made small (one set) so
 * that every line's slot and every eviction is known. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* The kernels' common parts: a kernel k with the given parameters and
 * registers; a and out loaded, %rd4 = &a[tid], %rd3 = tid * 4; a wait of
 * about 100 loop iterations (about 7,000 cycles) at label l. */
#define K_HEAD(params)                                                        \
	H_PTX_HEAD ".visible .entry k(" params ")\n{\n\t.reg .b32 %r<12>;\n" \
	"\t.reg .b64 %rd<8>;\n\t.reg .pred %p<3>;\n"
#define K_A_OUT                                                               \
	"\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [out];\n"          \
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"            \
	"\tadd.s64 %rd4, %rd1, %rd3;\n"
#define K_WAIT(l)                                                             \
	"\tmov.u32 %r10, 0;\n" l ":\n\tadd.u32 %r10, %r10, 1;\n"           \
	"\tsetp.lt.u32 %p1, %r10, 100;\n\t@%p1 bra " l ";\n"
#define K_END "\tret;\n}\n"

/* out[8 tid + 0..4] = a[tid] (a miss that fills line A), then after the
 * wait a[tid] again (r3), a[32 + tid] (line B, r4), three more lines, and
 * a[tid] twice more (r8, r9). With a one-set, 4-way L1 the four lines after
 * A evict it, so r8 is a refetch (from the L2) and r9 a hit on it. */
static const char ptx_l1[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tld.global.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tld.global.u32 %r3, [%rd4];\n"
	"\tld.global.u32 %r4, [%rd4+128];\n"
	"\tld.global.u32 %r5, [%rd4+256];\n"
	"\tld.global.u32 %r6, [%rd4+384];\n"
	"\tld.global.u32 %r7, [%rd4+512];\n"
	"\tld.global.u32 %r8, [%rd4];\n"
	"\tld.global.u32 %r9, [%rd4];\n"
	"\tmul.wide.u32 %rd5, %r1, 32;\n"
	"\tadd.s64 %rd6, %rd2, %rd5;\n"
	"\tst.global.v4.u32 [%rd6], {%r2, %r3, %r4, %r8};\n"
	"\tst.global.u32 [%rd6+16], %r9;\n" K_END;

#define PAUSE 1000 /* after the first load issued, before the second */
#define NA 256     /* words of a */
#define NOUT 256   /* words of ptx_l1's out: 8 per thread */

typedef struct plan {
	uint64_t at[3];   /* pause points, 0-terminated */
	uint32_t k;       /* the next one */
	sc_target_t t;
	unsigned fields;
	uint64_t loc;
	uint32_t nbits;
	bool inject;      /* at at[0] */
	int use, rc;      /* sc_target_in_use and sc_inject there */
	uint64_t hash[3]; /* state hash at each pause (after injecting) */
	uint32_t nover[3];
	char effect[512]; /* what the fault met first (sc_watch) */
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	cr_assert_eq(cycle, p->at[p->k]);
	if (p->k == 0 && p->inject) {
		uint64_t before = sc_state_hash(g);
		p->use = sc_target_in_use(g, p->t, p->fields, 0, p->loc, p->nbits);
		sc_watch(g, p->t, p->fields, 0, p->loc, p->nbits, p->effect, sizeof p->effect);
		cr_expect_eq(sc_state_hash(g), before, "the query and the watch change nothing");
		p->rc = sc_inject(g, p->t, p->fields, 0, p->loc, p->nbits);
		cr_expect_eq(p->use, p->rc, "sc_target_in_use agrees with sc_inject");
	}
	p->hash[p->k] = sc_state_hash(g);
	p->nover[p->k] = g->ms.nover;
	p->k++;
	return p->k < 3 && p->at[p->k] ? p->at[p->k] : UINT64_MAX;
}

static uint32_t a_val(uint32_t i) { return 0x1000u + i * 7u; }

/* Loads ptx on h (made, not started) and allocates a (NA words a_val(i))
 * and out (nout words of zeros). */
static void load_a_out(h_ctx_t *h, const char *ptx, uint32_t nout, uint64_t *da, uint64_t *dout)
{
	uint32_t a[NA];
	for (uint32_t i = 0; i < NA; i++)
		a[i] = a_val(i);
	h_load_ok(h, ptx);
	*da = h_alloc(h, sizeof a, a);
	*dout = h_alloc(h, (uint64_t)nout * 4, NULL);
}

/* The codes on the caches of the GPUs the helpers below make (suite
 * cache_code sets it; each test runs in a process of its own). */
static sc_protection_t test_prot;

/* gtx480 with a one-set, 4-way L1 of 128-byte lines. */
static void init_small_l1(h_ctx_t *h)
{
	h_init(h);
	h->cfg.l1_bytes = 4 * 128;
	h->cfg.l1_ways = 4;
	h->opt.prot = test_prot;
}

/* What a run of ptx_l1 on the one-set L1 gives: out[NOUT], the L1's
 * misses and the overlay lines left at its end. */
typedef struct l1_got {
	uint32_t out[NOUT];
	uint64_t misses;
	uint32_t nover;
} l1_got_t;

/* Runs ptx_l1 with the plan (NULL: fault-free). */
static void run_l1(plan_t *p, l1_got_t *got)
{
	h_ctx_t h;
	uint64_t da, dout;
	init_small_l1(&h);
	load_a_out(&h, ptx_l1, NOUT, &da, &dout);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	h_read(&h, got->out, dout, NOUT * 4);
	got->misses = h_last(&h)->l1_misses;
	got->nover = h.gpu->ms.nover;
	h_fini(&h);
}

/* A one-bit flip of ptx_l1's L1 at PAUSE. */
static plan_t l1_flip(unsigned fields, uint64_t loc)
{
	return (plan_t){.at = {PAUSE}, .t = SC_TGT_L1D, .fields = fields, .loc = loc, .nbits = 1, .inject = true};
}

#define DATA_BITS (128u * 8)

/* The L2's placement divides by the channel count without a divide
 * (sc__fdiv): the same quotients and remainders as / and %, for divisors
 * of every preset and beyond, at the edges of 32 bits and past them. */
Test(cache_fault, placement_division_is_exact)
{
	const uint32_t ds[] = {1, 2, 3, 5, 6, 7, 8, 10, 12, 40, 80, 96, 132, 1000, 65537, 2147483659u, 4294967295u};
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < sizeof ds / sizeof *ds; i++) {
		sc_fdiv_t f = sc__fdiv_make(ds[i]);
		for (uint32_t k = 0; k < 20000; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			const uint64_t edge[] = {0, 1, ds[i] - 1, ds[i], ds[i] + 1, UINT32_MAX, UINT32_MAX - 1, 1ull << 32,
			                         UINT64_MAX};
			uint64_t v = k < 9 ? edge[k] : k & 1 ? x >> 32 : k % 7 == 0 ? x : (x >> 32) / (k % 5 + 1), r;
			uint64_t q = sc__fdiv(f, v, &r);
			cr_assert_eq(q, v / ds[i], "%llu / %u", (unsigned long long)v, ds[i]);
			cr_assert_eq(r, v % ds[i], "%llu %% %u", (unsigned long long)v, ds[i]);
		}
	}
}

Test(cache_fault, target_sizes_follow_the_config)
{
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	uint32_t wb;
	/* l1d: 128 lines of 1024 data bits, a 28-bit tag (40 - 7 offset - 5
	 * set bits) and a valid bit */
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L1D, 0, &wb), 128ull * (1024 + 28 + 1));
	cr_expect_eq(wb, 1);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L1D, SC_F_CACHE_DATA, &wb), 128ull * 1024);
	cr_expect_eq(wb, 32);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L1D, SC_F_CACHE_TAG, &wb), 128ull * 28);
	cr_expect_eq(wb, 28);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L1D, SC_F_CACHE_DIRTY, NULL), 0, "the L1 holds no dirty data");
	/* const: 128 lines of 64 bytes, 64 sets: 40 - 6 - 6 = 28 tag bits */
	cr_expect_eq(sc_target_bits(&c, SC_TGT_CONST, 0, NULL), 128ull * (512 + 28));
	/* l2: 6144 lines of 4 sectors; 12 slices of 64 sets: 40 - 7 - 6 - 3 = 24 */
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L2, 0, &wb), 6144ull * (1024 + 24 + 4 + 4));
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L2, SC_F_CACHE_VALID, &wb), 6144ull * 4);
	cr_expect_eq(wb, 4);
	cr_expect_eq(sc_target_sms(&c, SC_TGT_L2), 1, "the L2 is SM 0's space");
	cr_expect_eq(sc_target_sms(&c, SC_TGT_L1D), 15);
	cr_expect_str_eq(sc_target_name(SC_TGT_CONST), "const");
	c.l1_bytes = 0;
	cr_expect_eq(sc_target_bits(&c, SC_TGT_L1D, 0, NULL), 0, "no L1, no target");
}

/* Before the kernel's first load the L1 holds nothing: every bit of it is
 * unused and a flip there changes nothing; once line A is in, its bits are
 * in use. */
Test(cache_fault, a_fault_in_an_invalid_l1_line_is_unused)
{
	l1_got_t gold, got;
	run_l1(NULL, &gold);
	for (uint32_t slot = 0; slot < 4; slot++) {
		plan_t p = l1_flip(SC_F_CACHE_DATA, slot * DATA_BITS + 3);
		p.at[0] = 5;
		run_l1(&p, &got);
		cr_expect_eq(p.rc, 0, "slot %u: empty at cycle 5", slot);
		cr_expect_arr_eq(got.out, gold.out, sizeof got.out);
	}
	plan_t p = l1_flip(SC_F_CACHE_DATA, 3);
	run_l1(&p, &got);
	cr_expect_eq(p.rc, 1, "line A is valid in slot 0");
	plan_t q = l1_flip(SC_F_CACHE_DATA, DATA_BITS + 3);
	run_l1(&q, &got);
	cr_expect_eq(q.rc, 0, "one line is in: slot 1 is still invalid");
}

/* Bit 0 of byte 12 of line A (lane 3's word): the load that hits A returns
 * lane 3's word with that bit flipped and nothing else changes; once A is
 * evicted the refetch reads memory, which the fault never touched. */
Test(cache_fault, a_data_flip_corrupts_the_hits_until_eviction)
{
	l1_got_t got;
	plan_t p = l1_flip(SC_F_CACHE_DATA, 12 * 8 + 0);
	run_l1(&p, &got);
	cr_assert_eq(p.rc, 1);
	for (uint32_t t = 0; t < 32; t++) {
		const uint32_t *o = &got.out[8 * t];
		cr_expect_eq(o[0], a_val(t), "the first load was before the fault");
		cr_expect_eq(o[1], a_val(t) ^ (t == 3 ? 1u : 0u), "the hit: lane %u", t);
		cr_expect_eq(o[2], a_val(32 + t));
		cr_expect_eq(o[3], a_val(t), "refetched after the eviction: lane %u", t);
		cr_expect_eq(o[4], a_val(t), "a hit on the refetched line: lane %u", t);
	}
	cr_expect_eq(got.nover, 0, "the corrupted line left with its eviction");
	cr_expect(strstr(p.effect, "\"first\":\"read\"") && strstr(p.effect, "\"op\":\"ld.global.u32\""),
	          "the hit reads it: %s", p.effect);
}

/* Bit 0 of line A's tag: A's line number is even (allocations are
 * 256-byte aligned), so the line now answers for the next line, B. The
 * load of A misses and reads memory; the load of B hits and reads A's
 * words (a wrong hit). */
Test(cache_fault, a_tag_flip_gives_a_wrong_hit)
{
	l1_got_t got;
	plan_t p = l1_flip(SC_F_CACHE_TAG, 0);
	run_l1(&p, &got);
	cr_assert_eq(p.rc, 1);
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(got.out[8 * t + 1], a_val(t), "A lost its line: a miss, refetched");
		cr_expect_eq(got.out[8 * t + 2], a_val(t), "B hit A's line: lane %u read A's word", t);
		cr_expect_eq(got.out[8 * t + 3], a_val(t));
	}
}

/* The valid bit of line A: the line is lost, the next load refetches it,
 * and nothing the kernel computes changes. */
Test(cache_fault, a_cleared_valid_bit_loses_the_line)
{
	l1_got_t gold, got;
	run_l1(NULL, &gold);
	plan_t p = l1_flip(SC_F_CACHE_VALID, 0);
	run_l1(&p, &got);
	cr_assert_eq(p.rc, 1);
	cr_expect_arr_eq(got.out, gold.out, sizeof got.out);
	cr_expect_eq(got.misses, gold.misses + 1, "the second load of A missed");
}

/* A flip in a line no load reads again: the state differs while the line
 * holds it, and equals the golden state once the line is evicted. */
static const char ptx_unread[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tld.global.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tld.global.u32 %r4, [%rd4+128];\n"
	"\tld.global.u32 %r5, [%rd4+256];\n"
	"\tld.global.u32 %r6, [%rd4+384];\n"
	"\tld.global.u32 %r7, [%rd4+512];\n"
	"\tadd.u32 %r2, %r2, %r4;\n"
	"\tadd.u32 %r2, %r2, %r5;\n"
	"\tadd.u32 %r2, %r2, %r6;\n"
	"\tadd.u32 %r2, %r2, %r7;\n" K_WAIT("M")
	"\tadd.s64 %rd6, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd6], %r2;\n" K_END;

static void run_unread(plan_t *p)
{
	h_ctx_t h;
	init_small_l1(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_unread, 32, &da, &dout);
	sc_set_pause(h.gpu, p->at[0], on_pause, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_assert_eq(p->k, 3, "every pause point was reached");
	h_fini(&h);
}

Test(cache_fault, the_hash_covers_the_overlay_until_the_line_leaves)
{
	plan_t gold = {.at = {PAUSE, PAUSE + 100, 12000}};
	plan_t p = gold;
	p.t = SC_TGT_L1D;
	p.fields = SC_F_CACHE_DATA;
	p.loc = 40 * 8 + 5;
	p.nbits = 1;
	p.inject = true;
	run_unread(&gold);
	run_unread(&p);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(p.nover[1], 1, "line A carries the flip");
	cr_expect_neq(p.hash[1], gold.hash[1], "a corrupted line is state");
	cr_expect_eq(p.nover[2], 0, "evicted by the four loads after the first pause loop");
	cr_expect_eq(p.hash[2], gold.hash[2], "the corruption left with the line: the golden state again");
}

/* ---- the L2 (no L1: every global access reaches it) ----
 * One slice of one set of 2 ways: the third line to come in evicts the
 * least recent of the other two. */
static void init_small_l2(h_ctx_t *h)
{
	h_init(h);
	h->cfg.l1_bytes = 0;
	h->cfg.dram_channels = 1;
	h->cfg.l2_slices_per_channel = 1;
	h->cfg.l2_bytes = 2 * 128;
	h->cfg.l2_ways = 2;
	h->opt.prot = test_prot;
}

/* out[tid] = tid + 100 (a store: out's line dirty in the L2, slot 0), a
 * pause loop, then, when `evict`, loads of two lines of a (the second
 * evicts out's line) and a store to a third. */
static const char ptx_l2[] = K_HEAD(".param .u64 a, .param .u64 out, .param .u32 evict") K_A_OUT
	"\tld.param.u32 %r9, [evict];\n"
	"\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tadd.u32 %r2, %r1, 100;\n"
	"\tst.global.u32 [%rd5], %r2;\n" K_WAIT("L")
	"\tsetp.eq.u32 %p2, %r9, 0;\n"
	"\t@%p2 bra END;\n"
	"\tld.global.u32 %r4, [%rd4];\n"
	"\tld.global.u32 %r5, [%rd4+128];\n"
	"\tadd.u32 %r4, %r4, %r5;\n"
	"\tst.global.u32 [%rd4+256], %r4;\n"
	"END:\n" K_END;

/* Runs ptx_l2; returns out[] as the host reads it and as memory holds it. */
static void run_l2(plan_t *p, uint32_t evict, uint32_t host[32], uint32_t raw[32], uint32_t *nover_end)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_l2, 32, &da, &dout);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
	h_read(&h, host, dout, 32 * 4);
	memcpy(raw, sc__gmem_find(&h.gpu->gmem, dout, 32 * 4), 32 * 4);
	*nover_end = h.gpu->ms.nover;
	h_fini(&h);
}

/* Bit 0 of byte 20 of out's line (lane 5's word), dirty in the L2: while
 * the line stays, memory is untouched and the host reads the corrupted word
 * through the L2; when it is evicted, the write-back carries the flip into
 * memory. */
Test(cache_fault, a_dirty_l2_data_flip_reaches_memory_at_write_back)
{
	uint32_t host[32], raw[32], nover;
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_DATA, .loc = 20 * 8, .nbits = 1, .inject = true};
	run_l2(&p, 0, host, raw, &nover);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(nover, 1, "no eviction: the line keeps its corruption");
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(raw[t], t + 100, "memory holds what was stored");
		cr_expect_eq(host[t], (t + 100) ^ (t == 5 ? 1u : 0u), "the host reads through the L2: lane %u", t);
	}
	cr_expect(strstr(p.effect, "\"first\":\"read\"") && !strstr(p.effect, "\"pc\""),
	          "read by the host, no instruction: %s", p.effect);
	plan_t q = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_DATA, .loc = 20 * 8, .nbits = 1, .inject = true};
	run_l2(&q, 1, host, raw, &nover);
	cr_assert_eq(q.rc, 1);
	cr_expect_eq(nover, 0, "evicted");
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(raw[t], (t + 100) ^ (t == 5 ? 1u : 0u), "written back: lane %u", t);
		cr_expect_eq(host[t], raw[t]);
	}
	cr_expect(strstr(q.effect, "\"first\":\"written_back\""), "%s", q.effect);
}

/* A store over the corrupted byte overwrites the corruption. */
static const char ptx_store[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tadd.u32 %r3, %r1, 500;\n"
	"\tst.global.u32 [%rd4], %r3;\n"
	"\tld.global.u32 %r4, [%rd4];\n"
	"\tst.global.u32 [%rd5], %r4;\n" K_END;

Test(cache_fault, a_store_clears_the_corruption)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint32_t out[32];
	uint64_t da, dout;
	load_a_out(&h, ptx_store, 32, &da, &dout);
	/* line A (a[0..31]) is clean in the L2, slot 0; lane 7's word */
	plan_t p = {.at = {PAUSE, PAUSE + 1}, .t = SC_TGT_L2, .fields = SC_F_CACHE_DATA, .loc = 28 * 8 + 3, .nbits = 1,
	            .inject = true};
	sc_set_pause(h.gpu, p.at[0], on_pause, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(p.nover[1], 1);
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 500, "the store overwrote the corrupted byte: lane %u", t);
	cr_expect_eq(h.gpu->ms.nover, 0, "nothing corrupted is left");
	cr_expect(strstr(p.effect, "\"first\":\"overwritten\""), "%s", p.effect);
	h_fini(&h);
}

/* ---- the constant cache ---- */
static const char ptx_const[] = H_PTX_HEAD
	".const .align 4 .b32 coef[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};\n"
	".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<3>;\n"
	"\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tand.b32 %r5, %r1, 15;\n"
	"\tmul.wide.u32 %rd3, %r5, 4;\n"
	"\tmov.u64 %rd1, coef;\n"
	"\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tld.const.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tld.const.u32 %r3, [%rd4];\n"
	"\tmul.wide.u32 %rd5, %r1, 8;\n"
	"\tadd.s64 %rd6, %rd2, %rd5;\n"
	"\tst.global.v2.u32 [%rd6], {%r2, %r3};\n" K_END;

/* Bit 4 of byte 8 of the constant cache's line 0 (coef[2]): the second
 * load of lanes 2 and 18 reads 3 ^ 16; a fault in another, empty line is
 * unused. */
Test(cache_fault, a_const_data_flip_corrupts_the_constant_loads)
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.const_bytes = 2 * 64;
	h.cfg.const_ways = 2;
	h_load_ok(&h, ptx_const);
	uint64_t dout = h_alloc(&h, 64 * 4, NULL);
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_CONST, .fields = SC_F_CACHE_DATA, .loc = 8 * 8 + 4, .nbits = 1,
	            .inject = true};
	sc_set_pause(h.gpu, p.at[0], on_pause, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	cr_assert_eq(p.rc, 1);
	uint32_t out[64];
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++) {
		uint32_t v = (t & 15) + 1;
		cr_expect_eq(out[2 * t], v);
		cr_expect_eq(out[2 * t + 1], v ^ ((t & 15) == 2 ? 16u : 0u), "lane %u", t);
	}
	h_fini(&h);
	h_init(&h);
	h.cfg.const_bytes = 2 * 64;
	h.cfg.const_ways = 2;
	h_load_ok(&h, ptx_const);
	dout = h_alloc(&h, 64 * 4, NULL);
	plan_t q = {.at = {PAUSE}, .t = SC_TGT_CONST, .fields = SC_F_CACHE_DATA, .loc = 512 + 8 * 8 + 4, .nbits = 1,
	            .inject = true};
	sc_set_pause(h.gpu, q.at[0], on_pause, &q);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	cr_expect_eq(q.rc, 0, "the second way holds no line");
	h_fini(&h);
}

/* ---- live bits ---- */
/* Lanes 0..15 store: out's line holds two valid, dirty sectors of four. */
static const char ptx_half[] = K_HEAD(".param .u64 out")
	"\tld.param.u64 %rd1, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.lt.u32 %p2, %r1, 16;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\t@%p2 st.global.u32 [%rd3], %r1;\n" K_WAIT("L") K_END;

typedef struct live_check {
	int checked;
} live_check_t;

/* For each selection of fields: the bits sc_target_live_bits counts are
 * the words sc_target_in_use accepts, word by word (what live sampling
 * draws from), and the count is what the line holds. */
static uint64_t check_live(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)cycle;
	static const struct {
		unsigned fields;
		uint64_t want; /* one line with a tag, sectors 0 and 1 valid */
	} sel[] = {
		{SC_F_CACHE_DATA, 2 * 32 * 8},
		{SC_F_CACHE_TAG, 40 - 7}, /* one slice of one set: no set or slice bits */
		{SC_F_CACHE_VALID, 4},
		{SC_F_CACHE_DIRTY, 2},
		{0, 2 * 32 * 8 + 33 + 4 + 2},
	};
	for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++) {
		uint32_t wb;
		uint64_t n = sc_target_bits(&g->cfg, SC_TGT_L2, sel[i].fields, &wb), live = 0;
		for (uint64_t b = 0; b < n; b += wb)
			live += sc_target_in_use(g, SC_TGT_L2, sel[i].fields, 0, b, wb) == 1 ? wb : 0;
		cr_expect_eq(sc_target_live_bits(g, SC_TGT_L2, sel[i].fields, 0), live, "fields %u", sel[i].fields);
		cr_expect_eq(live, sel[i].want, "fields %u", sel[i].fields);
	}
	((live_check_t *)ctx)->checked = 1;
	return UINT64_MAX;
}

Test(cache_fault, live_bits_are_the_words_in_use)
{
	h_ctx_t h;
	init_small_l2(&h);
	h_load_ok(&h, ptx_half);
	uint64_t dout = h_alloc(&h, 32 * 4, NULL);
	live_check_t c = {0};
	sc_set_pause(h.gpu, PAUSE, check_live, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	cr_expect(c.checked);
	h_fini(&h);
}

/* ---- the L2's corruption reaching the L1 and atomics ---- */
typedef struct l2_flip {
	uint64_t addr;   /* a byte of the line to corrupt */
	uint32_t bit;    /* the bit of that byte; under a code (n codeword bits,
	                    0: none) the bit of the codeword of addr's word */
	int rc;
	uint32_t n;
} l2_flip_t;

/* Flips `bit` of the L2's copy of byte f->addr (fields: data only). */
static uint64_t flip_l2_byte(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)cycle;
	l2_flip_t *f = ctx;
	uint32_t slice;
	size_t slot = sc__l2_find(g, f->addr, &slice);
	cr_assert_neq(slot, SIZE_MAX, "the line is in the L2");
	const sc_cache_t *c = &g->ms.l2[slice];
	uint64_t line = (uint64_t)slice * c->sets * c->ways + slot;
	uint64_t loc = f->n ? line * 32 * f->n + (f->addr & 127) / 4 * f->n + f->bit
	                    : line * (128 * 8) + (f->addr & 127) * 8 + f->bit;
	f->rc = sc_inject(g, SC_TGT_L2, SC_F_CACHE_DATA, 0, loc, 1);
	return UINT64_MAX;
}

Test(cache_fault, a_line_filled_from_the_l2_takes_its_corruption)
{
	h_ctx_t h;
	init_small_l1(&h);
	uint32_t out[NOUT];
	uint64_t da, dout;
	load_a_out(&h, ptx_l1, NOUT, &da, &dout);
	l2_flip_t f = {.addr = da + 4 * 9, .bit = 6}; /* lane 9's word */
	sc_set_pause(h.gpu, PAUSE, flip_l2_byte, &f);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_assert_eq(f.rc, 1);
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++) {
		uint32_t bad = a_val(t) ^ (t == 9 ? 64u : 0u);
		cr_expect_eq(out[8 * t + 1], a_val(t), "the L1's own copy was clean: lane %u", t);
		cr_expect_eq(out[8 * t + 3], bad, "served by the corrupted L2 line: lane %u", t);
		cr_expect_eq(out[8 * t + 4], bad, "the L1 line filled from it: lane %u", t);
	}
	h_fini(&h);
}

/* An atomic at L2 reads the corrupted word (its old value) and writes its
 * result over it: the corruption is in memory then, and gone from the L2. */
static const char ptx_atom[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tld.global.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tatom.global.add.u32 %r3, [%rd4], 1;\n"
	"\tadd.s64 %rd6, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd6], %r3;\n" K_END;

Test(cache_fault, an_atomic_reads_and_writes_the_corrupted_l2_word)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint32_t a[32], out[32];
	uint64_t da, dout;
	load_a_out(&h, ptx_atom, 32, &da, &dout);
	l2_flip_t f = {.addr = da + 4 * 30 + 2, .bit = 0}; /* lane 30's word, bit 16 */
	sc_set_pause(h.gpu, PAUSE, flip_l2_byte, &f);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_assert_eq(f.rc, 1);
	cr_expect_eq(h.gpu->ms.nover, 0, "the atomic's write took the corruption out of the L2");
	h_read(&h, out, dout, sizeof out);
	h_read(&h, a, da, sizeof a);
	for (uint32_t t = 0; t < 32; t++) {
		uint32_t old = a_val(t) ^ (t == 30 ? 1u << 16 : 0u);
		cr_expect_eq(out[t], old, "the old value the atomic read: lane %u", t);
		cr_expect_eq(a[t], old + 1, "what it wrote: lane %u", t);
	}
	h_fini(&h);
}

/* Bit 0 of the tag of out's line, dirty in the L2: the line now answers
 * for the next 128 bytes (out[32..63]), and its eviction writes the stored
 * words there. (out[0..31] keep them too: this GPU keeps no DRAM image to
 * lose them to; with one, a_tag_flip_loses_the_dirty_line_at_its_own_address.) */
Test(cache_fault, a_dirty_line_with_a_flipped_tag_is_written_back_to_the_wrong_address)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint32_t out[64];
	uint64_t da, dout;
	load_a_out(&h, ptx_l2, 64, &da, &dout);
	uint32_t evict = 1;
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_TAG, .loc = 0, .nbits = 1, .inject = true};
	sc_set_pause(h.gpu, p.at[0], on_pause, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
	cr_assert_eq(p.rc, 1);
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(out[32 + t], t + 100, "written back to the flipped address: lane %u", t);
		cr_expect_eq(out[t], t + 100);
	}
	h_fini(&h);
}

/* The host writes global memory through the L2: a copy over a corrupted
 * word replaces it, and reads show what was written. */
Test(cache_fault, a_host_write_clears_the_l2_corruption)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint32_t out[32];
	uint64_t da, dout;
	load_a_out(&h, ptx_l2, 32, &da, &dout);
	uint32_t evict = 0, v = 77;
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_DATA, .loc = 20 * 8 + 1, .nbits = 1,
	            .inject = true};
	sc_set_pause(h.gpu, p.at[0], on_pause, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
	cr_assert_eq(p.rc, 1);
	h_read(&h, out, dout, sizeof out);
	cr_expect_eq(out[5], 105u ^ 2u, "read through the corrupted line");
	cr_assert_eq(sc_memcpy_htod(h.gpu, dout + 5 * 4, &v, 4), 0);
	h_read(&h, out, dout, sizeof out);
	cr_expect_eq(out[5], 77);
	cr_expect_eq(h.gpu->ms.nover, 0);
	h_fini(&h);
}

/* ---- tags ---- */
/* Every bit of the tag of out's line, in the gtx480's L2 (12 slices of 64
 * sets) and in its L1 (32 folded sets): the line then answers for an
 * address that the same set (and slice) holds, and a second flip of the
 * bit gives the line its own address back. */
static uint64_t flip_every_tag_bit(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)cycle;
	uint64_t a = *(uint64_t *)ctx;
	uint32_t slice, tb;
	size_t slot = sc__l2_find(g, a, &slice);
	cr_assert_neq(slot, SIZE_MAX);
	const sc_cache_t *c = &g->ms.l2[slice];
	uint64_t line = (uint64_t)slice * c->sets * c->ways + slot, own = c->tag[slot];
	sc_target_bits(&g->cfg, SC_TGT_L2, SC_F_CACHE_TAG, &tb);
	cr_assert_eq(tb, 24);
	for (uint32_t j = 0; j < tb; j++) {
		cr_assert_eq(sc_inject(g, SC_TGT_L2, SC_F_CACHE_TAG, 0, line * tb + j, 1), 1);
		uint64_t b = (c->tag[slot] - 1) << c->shift;
		uint32_t s2;
		cr_expect_neq(c->tag[slot], own, "bit %u", j);
		cr_expect_eq(sc__l2_find(g, b, &s2), slot, "bit %u: the line answers for its new address", j);
		cr_expect_eq(s2, slice, "bit %u", j);
		cr_expect_eq(sc__l2_place(g, b).set, sc__l2_place(g, a).set, "bit %u", j);
		cr_assert_eq(sc_inject(g, SC_TGT_L2, SC_F_CACHE_TAG, 0, line * tb + j, 1), 1);
		cr_expect_eq(c->tag[slot], own, "bit %u flipped back", j);
	}
	const sc_cache_t *l1 = &g->ms.l1[0];
	size_t s1 = sc__cache_find(l1, a >> l1->shift);
	cr_assert_neq(s1, SIZE_MAX, "a's line is in SM 0's L1");
	sc_target_bits(&g->cfg, SC_TGT_L1D, SC_F_CACHE_TAG, &tb);
	for (uint32_t j = 0; j < tb; j++) {
		uint64_t own1 = l1->tag[s1];
		cr_assert_eq(sc_inject(g, SC_TGT_L1D, SC_F_CACHE_TAG, 0, s1 * tb + j, 1), 1);
		cr_expect_eq(sc__cache_find(l1, l1->tag[s1] - 1), s1, "L1 bit %u: the same set", j);
		sc_inject(g, SC_TGT_L1D, SC_F_CACHE_TAG, 0, s1 * tb + j, 1);
		cr_expect_eq(l1->tag[s1], own1);
	}
	cr_expect_eq(g->ms.nover, 0, "every line is back as it was");
	*(uint64_t *)ctx = 0;
	return UINT64_MAX;
}

Test(cache_fault, a_tag_flip_keeps_the_set_and_slice)
{
	h_ctx_t h;
	h_init(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_l1, NOUT, &da, &dout);
	uint64_t a = da; /* line A, in the L1 and the L2 by PAUSE */
	sc_set_pause(h.gpu, PAUSE, flip_every_tag_bit, &a);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_expect_eq(a, 0, "the pause was reached");
	h_fini(&h);
}

/* ---- dirty data lost (the DRAM image, sc_dram_image) ----
 * ptx_l2 stores out[tid] = tid + 100 over zeros: out's line (slot 0) is
 * dirty in the L2, and the DRAM still holds the zeros. A fault that loses
 * a dirty sector gives memory the DRAM's bytes back. */

/* Runs ptx_l2 with the DRAM image on; out[] as the host reads it after. */
static void run_l2_dimg(plan_t *p, uint32_t evict, uint32_t out[64], uint32_t *ndimg, uint32_t *ndiverged)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_l2, 64, &da, &dout);
	cr_assert_eq(sc_dram_image(h.gpu, 1), 0);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
	h_read(&h, out, dout, 64 * 4);
	*ndimg = h.gpu->ms.ndimg;
	*ndiverged = h.gpu->ms.ndiverged;
	h_fini(&h);
}

/* Fault-free, the image changes nothing and holds exactly the dirty
 * sectors: out's four (evict = 0), or, after the evictions, the one
 * sector of a's third line that the last store dirtied. */
Test(cache_fault, the_dram_image_holds_the_dirty_sectors)
{
	uint32_t out[64], ndimg, ndiv;
	for (uint32_t evict = 0; evict < 2; evict++) {
		run_l2_dimg(NULL, evict, out, &ndimg, &ndiv);
		for (uint32_t t = 0; t < 32; t++)
			cr_expect_eq(out[t], t + 100);
		cr_expect_eq(ndimg, evict ? 4 : 4, "evict %u: %u entries", evict, ndimg);
		cr_expect_eq(ndiv, 0);
	}
}

/* The valid bit of out's first sector (lanes 0..7): the sector leaves the
 * L2 with its stored words, never written back. */
Test(cache_fault, a_cleared_valid_bit_loses_a_dirty_sector)
{
	uint32_t out[64], ndimg, ndiv;
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_VALID, .loc = 0, .nbits = 1, .inject = true};
	run_l2_dimg(&p, 0, out, &ndimg, &ndiv);
	cr_assert_eq(p.rc, 1);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t < 8 ? 0 : t + 100, "lane %u: %u", t, out[t]);
	cr_expect_eq(ndimg, 3, "the other three sectors are still dirty");
}

/* A tag flip of the dirty line: its stored words go to the flipped
 * address at eviction (out[32..63]), and out[0..31] keep the DRAM's zeros
 * (compare a_dirty_line_with_a_flipped_tag_is_written_back_to_the_wrong_address,
 * without the image). */
Test(cache_fault, a_tag_flip_loses_the_dirty_line_at_its_own_address)
{
	uint32_t out[64], ndimg, ndiv;
	plan_t p = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = SC_F_CACHE_TAG, .loc = 0, .nbits = 1, .inject = true};
	run_l2_dimg(&p, 1, out, &ndimg, &ndiv);
	cr_assert_eq(p.rc, 1);
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(out[32 + t], t + 100, "written back to the flipped address: lane %u", t);
		cr_expect_eq(out[t], 0, "lost at its own: lane %u", t);
	}
	cr_expect_eq(ndiv, 0);
}

/* The dirty bit of out's first sector cleared: the sector is clean with
 * its newer words in the L2 (the host still reads them); when the line is
 * evicted nothing is written back and the words are lost. */
Test(cache_fault, a_cleared_dirty_bit_loses_the_sector_at_eviction)
{
	uint32_t out[64], ndimg, ndiv;
	unsigned f = SC_F_CACHE_DIRTY;
	plan_t p = {.at = {PAUSE, PAUSE + 10}, .t = SC_TGT_L2, .fields = f, .loc = 0, .nbits = 1, .inject = true};
	run_l2_dimg(&p, 0, out, &ndimg, &ndiv);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(ndiv, 1, "diverged while the line stays");
	cr_expect_neq(p.hash[0], 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 100, "the L2 still holds it: lane %u", t);
	plan_t q = {.at = {PAUSE}, .t = SC_TGT_L2, .fields = f, .loc = 0, .nbits = 1, .inject = true};
	run_l2_dimg(&q, 1, out, &ndimg, &ndiv);
	cr_assert_eq(q.rc, 1);
	cr_expect_eq(ndiv, 0);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t < 8 ? 0 : t + 100, "evicted without write-back: lane %u", t);
}

/* The state hash sees a diverged sector's DRAM bytes (sc__dimg_hash): 0
 * in a fault-free run, where the image holds the dirty sectors only. */
typedef struct dplan {
	bool inject;
	uint64_t dh[2];
} dplan_t;

static uint64_t on_dimg(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	dplan_t *p = ctx;
	if (cycle == PAUSE) {
		p->dh[0] = sc__dimg_hash(g);
		if (p->inject)
			cr_expect_eq(sc_inject(g, SC_TGT_L2, SC_F_CACHE_DIRTY, 0, 0, 1), 1);
		return PAUSE + 10;
	}
	p->dh[1] = sc__dimg_hash(g);
	return UINT64_MAX;
}

Test(cache_fault, the_hash_covers_a_diverged_sector)
{
	for (int inject = 0; inject < 2; inject++) {
		h_ctx_t h;
		init_small_l2(&h);
		uint64_t da, dout;
		uint32_t evict = 0;
		load_a_out(&h, ptx_l2, 64, &da, &dout);
		cr_assert_eq(sc_dram_image(h.gpu, 1), 0);
		dplan_t p = {.inject = inject};
		sc_set_pause(h.gpu, PAUSE, on_dimg, &p);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
		cr_expect_eq(h.gpu->ms.ndimg, 4);
		cr_expect_eq(p.dh[0], 0, "fault-free: nothing diverged");
		if (inject)
			cr_expect_neq(p.dh[1], 0, "the diverged sector is hashed");
		else
			cr_expect_eq(p.dh[1], 0);
		h_fini(&h);
	}
}

/* A store to a diverged sector makes it dirty again, its entry (the
 * DRAM's zeros) kept: nothing is diverged after it. */
static const char ptx_twice[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tadd.u32 %r2, %r1, 100;\n"
	"\tst.global.u32 [%rd5], %r2;\n" K_WAIT("L")
	"\tadd.u32 %r3, %r1, 200;\n"
	"\tst.global.u32 [%rd5], %r3;\n" K_END;

Test(cache_fault, a_store_makes_a_diverged_sector_dirty_again)
{
	h_ctx_t h;
	init_small_l2(&h);
	uint32_t out[32];
	uint64_t da, dout;
	load_a_out(&h, ptx_twice, 32, &da, &dout);
	cr_assert_eq(sc_dram_image(h.gpu, 1), 0);
	dplan_t p = {.inject = true};
	sc_set_pause(h.gpu, PAUSE, on_dimg, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_expect_neq(p.dh[1], 0, "diverged after the flip");
	cr_expect_eq(h.gpu->ms.ndiverged, 0, "dirty again after the second store");
	cr_expect_eq(h.gpu->ms.ndimg, 4);
	cr_expect_eq(sc__dimg_hash(h.gpu), 0);
	h_read(&h, out, dout, sizeof out);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 200, "lane %u", t);
	h_fini(&h);
}

/* ====================================================================
 * Codes on the caches' data (sc_protection_t.l1d, l2, cc): a coded line's
 * data field is its codewords, n bits per k data bits (codeword c of slot
 * s at s x (line bits / k) x n + c x n, data bits first); what a read of a
 * corrupted codeword finds (DESIGN.md, "Codes on the caches").
 * ==================================================================== */

/* Bit b of codeword c of slot 0 under code n bits wide. */
#define CW(c, n, b) ((uint64_t)(c) * (n) + (b))

typedef struct coded {
	int rc;            /* the launch's */
	sc_due_t due;
	sc_prot_t ev;      /* the first protection event */
	uint32_t out[NOUT];
	uint64_t cycles;
	uint32_t nover;    /* overlay lines at the end */
} coded_t;

static void coded_end(h_ctx_t *h, coded_t *r, uint64_t dout, uint32_t nout)
{
	r->due = h_status(h)->reason;
	r->nover = h->gpu->ms.nover;
	if (!r->rc) { /* the host reads through the L2: a read of its codewords */
		r->cycles = h_last(h)->cycles;
		r->rc = sc_memcpy_dtoh(h->gpu, r->out, dout, (uint64_t)nout * 4);
		if (r->rc)
			r->due = h_status(h)->reason;
	}
	r->ev = sc_prot_first(h->gpu, NULL);
	h_fini(h);
}

/* A kernel k(a, out) of one warp on the GPU init makes (test_prot on it),
 * with the plan (NULL: fault-free); out has nout words. */
static void coded_run(void (*init)(h_ctx_t *), const char *ptx, uint32_t nout, plan_t *p, coded_t *r)
{
	h_ctx_t h;
	uint64_t da, dout;
	init(&h);
	load_a_out(&h, ptx, nout, &da, &dout);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	memset(r, 0, sizeof *r);
	r->rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	coded_end(&h, r, dout, nout);
}

/* ptx_l1 on the one-set L1. */
static void coded_l1(plan_t *p, coded_t *r) { coded_run(init_small_l1, ptx_l1, NOUT, p, r); }

static plan_t coded_flip(sc_target_t t, uint64_t loc, uint32_t nbits)
{
	return (plan_t){.at = {PAUSE}, .t = t, .fields = SC_F_CACHE_DATA, .loc = loc, .nbits = nbits, .inject = true};
}

/* A run of fn with nbits flipped from loc of t's data: the code corrects
 * it, no DUE; the run's results. */
static coded_t expect_corrected(void (*fn)(plan_t *, coded_t *), sc_target_t t, uint64_t loc, uint32_t nbits)
{
	coded_t got;
	plan_t p = coded_flip(t, loc, nbits);
	fn(&p, &got);
	cr_assert_eq(p.rc, 1, "%s bit %llu", sc_target_name(t), (unsigned long long)loc);
	cr_expect_eq(got.rc, 0, "%s bit %llu: %s", sc_target_name(t), (unsigned long long)loc, sc_due_name(got.due));
	cr_expect_eq(got.ev, SC_PROT_CORRECTED, "%s bit %llu", sc_target_name(t), (unsigned long long)loc);
	return got;
}

/* A run of fn with nbits flipped from loc of t's data: the code detects
 * it, the run is the DUE `want`. */
static void expect_due(void (*fn)(plan_t *, coded_t *), sc_target_t t, uint64_t loc, uint32_t nbits, sc_due_t want)
{
	coded_t got;
	plan_t p = coded_flip(t, loc, nbits);
	fn(&p, &got);
	cr_assert_eq(p.rc, 1, "%s bit %llu", sc_target_name(t), (unsigned long long)loc);
	cr_expect_eq(got.rc, SC_EDUE, "%s bit %llu", sc_target_name(t), (unsigned long long)loc);
	cr_expect_eq(got.due, want, "%s bit %llu: %s", sc_target_name(t), (unsigned long long)loc, sc_due_name(got.due));
	cr_expect_eq(got.ev, SC_PROT_DETECTED);
}

Test(cache_code, the_data_field_grows_to_the_codewords)
{
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	sc_protection_t p = {.l1d = SC_CODE_SECDED, .l2 = SC_CODE_SECDED64, .cc = SC_CODE_PARITY};
	uint32_t wb;
	char msg[256];
	cr_expect_eq(sc_protection_check(&p, &c, SC_REGS_UNALLOC, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sc_protection_on(&p));
	/* l1d: 128 lines of 32 (39,32) codewords */
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_L1D, SC_F_CACHE_DATA, &wb), 128ull * 32 * 39);
	cr_expect_eq(wb, 39, "an adjacent fault stays inside one codeword");
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_L1D, 0, &wb), 128ull * (32 * 39 + 28 + 1), "tag, valid unprotected");
	cr_expect_eq(wb, 1);
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_L2, SC_F_CACHE_DATA, &wb), 6144ull * 16 * 72);
	cr_expect_eq(wb, 72);
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_L2, SC_F_CACHE_DIRTY, NULL), 6144ull * 4);
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_CONST, SC_F_CACHE_DATA, &wb), 128ull * 16 * 33);
	cr_expect_eq(sc_target_bits_prot(&c, NULL, SC_TGT_L1D, SC_F_CACHE_DATA, &wb), 128ull * 1024);
	cr_expect_eq(wb, 32);
	p.interleave = 4;
	cr_expect_eq(sc_target_bits_prot(&c, &p, SC_TGT_L1D, SC_F_CACHE_DATA, &wb), 128ull * 32 * 39);
	cr_expect_eq(wb, 4 * 39, "a group of interleaved codewords is a word");
	cr_expect_eq(sc_protection_check(&p, &c, SC_REGS_UNALLOC, msg, sizeof msg), 0, "%s", msg);
	p.interleave = 8;
	cr_expect_eq(sc_protection_check(&p, &c, SC_REGS_UNALLOC, msg, sizeof msg), SC_EINVAL,
	             "8 x 64 bits do not fit a 32-byte L2 sector");
	cr_expect(strstr(msg, "l2") != NULL, "%s", msg);
	p.l2 = SC_CODE_SECDED;
	cr_expect_eq(sc_protection_check(&p, &c, SC_REGS_UNALLOC, msg, sizeof msg), 0, "%s", msg);
	p.cc = (sc_code_kind_t)99;
	cr_expect_eq(sc_protection_check(&p, &c, SC_REGS_UNALLOC, msg, sizeof msg), SC_EINVAL);
	cr_expect_eq(sc_model_supported(SC_TGT_L1D, SC_FM_STUCK), 0, "no stuck bits on caches, coded or not");
	cr_expect_eq(sc_model_supported(SC_TGT_L2, SC_FM_ZERO), 0);
}


/* Lane 3's word of line A in the L1 (codeword 3): a SECDED code corrects
 * a data bit and a check bit at the hit that reads it, and the outputs are
 * the golden ones. */
Test(cache_code, l1d_secded_corrects_a_data_or_check_bit)
{
	coded_t gold, got;
	coded_l1(NULL, &gold);
	test_prot.l1d = SC_CODE_SECDED;
	const uint32_t bits[] = {0, 17, 31, 32, 38};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		plan_t p = coded_flip(SC_TGT_L1D, CW(3, 39, bits[i]), 1);
		coded_l1(&p, &got);
		cr_assert_eq(p.rc, 1, "bit %u", bits[i]);
		cr_expect_eq(got.rc, 0, "bit %u: no DUE", bits[i]);
		cr_expect_arr_eq(got.out, gold.out, sizeof got.out, "bit %u: corrected", bits[i]);
		cr_expect_eq(got.ev, SC_PROT_CORRECTED, "bit %u", bits[i]);
		cr_expect_eq(got.nover, 0);
		cr_expect(strstr(p.effect, "\"first\":\"read\"") && strstr(p.effect, "\"op\":\"ld.global.u32\""),
		          "bit %u: the hit reads its codeword: %s", bits[i], p.effect);
	}
}

/* Parity detects one flipped bit, data or check, at the read: a DUE, never
 * an SDC. */
Test(cache_code, l1d_parity_makes_a_single_bit_a_due)
{
	test_prot.l1d = SC_CODE_PARITY;
	expect_due(coded_l1, SC_TGT_L1D, CW(3, 33, 0), 1, SC_DUE_PARITY_ERROR);
	expect_due(coded_l1, SC_TGT_L1D, CW(3, 33, 32), 1, SC_DUE_PARITY_ERROR);
}

Test(cache_code, l1d_secded_detects_two_bits_of_one_codeword)
{
	test_prot.l1d = SC_CODE_SECDED;
	expect_due(coded_l1, SC_TGT_L1D, CW(3, 39, 4), 2, SC_DUE_ECC_UNCORRECTABLE);
	/* two adjacent bits over two interleaved codewords: each corrected */
	test_prot.interleave = 2;
	expect_corrected(coded_l1, SC_TGT_L1D, 2 * 39 + 2 * 4, 2); /* group 1: codewords 2 and 3, bit 4 */
}

/* A check bit's flip leaves the data as it was, yet the state differs from
 * golden while its pattern waits for a read; a line evicted clean takes it
 * away unread: masked, no event, the golden state again. */
Test(cache_code, l1d_a_check_bit_of_a_line_evicted_clean_is_masked)
{
	test_prot.l1d = SC_CODE_PARITY;
	plan_t gold = {.at = {PAUSE, PAUSE + 100, 12000}};
	plan_t p = gold;
	p.t = SC_TGT_L1D;
	p.fields = SC_F_CACHE_DATA;
	p.loc = CW(10, 33, 32);
	p.nbits = 1;
	p.inject = true;
	run_unread(&gold);
	run_unread(&p);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(p.nover[1], 1, "the pattern keeps the entry (x is all zero)");
	cr_expect_neq(p.hash[1], gold.hash[1], "a pending check-bit error is state");
	cr_expect_eq(p.nover[2], 0, "evicted clean: dropped");
	cr_expect_eq(p.hash[2], gold.hash[2], "the golden state again");
	plan_t q = p; /* the pattern itself is state: another check bit hashes otherwise */
	memset(q.hash, 0, sizeof q.hash);
	q.k = 0;
	q.loc = CW(10, 33, 31);
	run_unread(&q);
	cr_assert_eq(q.rc, 1);
	cr_expect_neq(q.hash[1], p.hash[1], "data bit 31 and the check bit: two patterns, two states");
	test_prot.l1d = SC_CODE_SECDED;
	plan_t a = q, b = q;
	a.k = b.k = 0;
	a.loc = CW(10, 39, 32);
	b.loc = CW(10, 39, 33);
	run_unread(&a);
	run_unread(&b);
	cr_expect_neq(a.hash[1], b.hash[1], "check bits 0 and 1 of one codeword: x is zero in both");
}

/* ptx_l2 on the one-slice L2 with test_prot: out as the host reads it
 * (r->out) and as memory holds it (raw). */
static void coded_l2(plan_t *p, uint32_t evict, coded_t *r, uint32_t raw[32])
{
	h_ctx_t h;
	uint64_t da, dout;
	init_small_l2(&h);
	load_a_out(&h, ptx_l2, 32, &da, &dout);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	memset(r, 0, sizeof *r);
	r->rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout, &evict));
	memcpy(raw, sc__gmem_find(&h.gpu->gmem, dout, 32 * 4), 32 * 4);
	coded_end(&h, r, dout, 32);
}

/* Lane 5's word of out's dirty L2 line: read by the host through the L2
 * (no eviction) or by the write-back (evict): corrected either way. */
Test(cache_code, l2_secded_corrects_at_the_host_read_and_the_write_back)
{
	test_prot.l2 = SC_CODE_SECDED;
	for (uint32_t evict = 0; evict < 2; evict++)
		for (uint32_t b = 0; b < 39; b += 37) { /* data bit 0, check bit 5 */
			coded_t got;
			uint32_t raw[32];
			plan_t p = coded_flip(SC_TGT_L2, CW(5, 39, b), 1);
			coded_l2(&p, evict, &got, raw);
			cr_assert_eq(p.rc, 1);
			cr_expect_eq(got.rc, 0, "evict %u bit %u: %s", evict, b, sc_due_name(got.due));
			cr_expect_eq(got.ev, SC_PROT_CORRECTED, "evict %u bit %u", evict, b);
			for (uint32_t t = 0; t < 32; t++) {
				cr_expect_eq(got.out[t], t + 100, "evict %u bit %u lane %u", evict, b, t);
				cr_expect_eq(raw[t], t + 100, "evict %u bit %u lane %u: memory", evict, b, t);
			}
		}
}

/* ptx_l2 read by the host through the L2, or evicted (a write-back). */
static void l2_host_read(plan_t *p, coded_t *r)
{
	uint32_t raw[32];
	coded_l2(p, 0, r, raw);
}

static void l2_write_back(plan_t *p, coded_t *r)
{
	uint32_t raw[32];
	coded_l2(p, 1, r, raw);
}

Test(cache_code, l2_parity_is_a_due_at_the_host_read_and_the_write_back)
{
	test_prot.l2 = SC_CODE_PARITY;
	expect_due(l2_host_read, SC_TGT_L2, CW(5, 33, 32), 1, SC_DUE_PARITY_ERROR);
	expect_due(l2_write_back, SC_TGT_L2, CW(5, 33, 3), 1, SC_DUE_PARITY_ERROR);
	test_prot.l2 = SC_CODE_SECDED;
	expect_due(l2_write_back, SC_TGT_L2, CW(5, 39, 30), 2, SC_DUE_ECC_UNCORRECTABLE);
}

/* A store that covers a codeword whole writes a fresh one; a narrower one
 * reads it first (a read-modify-write): a parity check bit's flip is then
 * detected. Lane 7's word of line A, clean in the L2. */
static const char ptx_store8[] = K_HEAD(".param .u64 a, .param .u64 out") K_A_OUT
	"\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n" K_WAIT("L")
	"\tadd.u32 %r3, %r1, 500;\n"
	"\tst.global.u8 [%rd4], %r3;\n"
	"\tld.global.u32 %r4, [%rd4];\n"
	"\tst.global.u32 [%rd5], %r4;\n" K_END;

static void coded_store(const char *ptx, plan_t *p, coded_t *r) { coded_run(init_small_l2, ptx, 32, p, r); }

static void store8(plan_t *p, coded_t *r) { coded_store(ptx_store8, p, r); }
static void atom(plan_t *p, coded_t *r) { coded_store(ptx_atom, p, r); }

Test(cache_code, l2_a_partial_store_decodes_first)
{
	test_prot.l2 = SC_CODE_PARITY;
	coded_t got;
	plan_t p = coded_flip(SC_TGT_L2, CW(7, 33, 32), 1);
	coded_store(ptx_store, &p, &got);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(got.rc, 0, "a whole-word store replaced the codeword: %s", sc_due_name(got.due));
	cr_expect_eq(got.ev, SC_PROT_NONE, "never decoded");
	cr_expect_eq(got.out[7], 507);
	cr_expect_eq(got.nover, 0);
	expect_due(store8, SC_TGT_L2, CW(7, 33, 32), 1, SC_DUE_PARITY_ERROR); /* the byte store reads it first */
	/* under SECDED the byte store corrects a data bit of the other bytes */
	test_prot.l2 = SC_CODE_SECDED;
	got = expect_corrected(store8, SC_TGT_L2, CW(7, 39, 20), 1);
	cr_expect_eq(got.out[7], (a_val(7) & ~0xffu) | ((7 + 500) & 0xffu));
}

/* The L1 keeps local data (a local store writes through it): a byte store
 * into a local word the L1 holds reads its codeword first; a word store
 * replaces it. Lane 7's word 0 is codeword 7 of the local line. */
#define PTX_LOCAL(st) H_PTX_HEAD                                                             \
	".visible .entry k(.param .u64 a, .param .u64 out)\n{\n\t.local .align 4 .b8 lv[4];\n" \
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<3>;\n"                       \
	"\tld.param.u64 %rd2, [out];\n\tmov.u32 %r1, %tid.x;\n"                                 \
	"\tadd.u32 %r2, %r1, 40;\n\tst.local.u32 [lv], %r2;\n"                                  \
	"\tld.local.u32 %r3, [lv];\n" K_WAIT("L")                                               \
	"\tadd.u32 %r4, %r1, 500;\n\t" st " [lv], %r4;\n"                                       \
	"\tld.local.u32 %r5, [lv];\n"                                                           \
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"                          \
	"\tst.global.u32 [%rd4], %r5;\n" K_END
static const char ptx_local8[] = PTX_LOCAL("st.local.u8");
static const char ptx_local32[] = PTX_LOCAL("st.local.u32");

static void local8(plan_t *p, coded_t *r) { coded_run(init_small_l1, ptx_local8, 32, p, r); }

Test(cache_code, l1d_a_partial_local_store_decodes_first)
{
	test_prot.l1d = SC_CODE_PARITY;
	coded_t got;
	plan_t p = coded_flip(SC_TGT_L1D, CW(7, 33, 32), 1);
	coded_run(init_small_l1, ptx_local32, 32, &p, &got);
	cr_assert_eq(p.rc, 1, "the local line is in the L1");
	cr_expect_eq(got.rc, 0, "a word store replaced the codeword: %s", sc_due_name(got.due));
	cr_expect_eq(got.out[7], 507);
	expect_due(local8, SC_TGT_L1D, CW(7, 33, 32), 1, SC_DUE_PARITY_ERROR);
}

/* An atomic at L2 reads its word first: decoded. */
Test(cache_code, l2_an_atomic_decodes_its_word)
{
	test_prot.l2 = SC_CODE_SECDED;
	coded_t got = expect_corrected(atom, SC_TGT_L2, CW(30, 39, 16), 1);
	cr_expect_eq(got.out[30], a_val(30), "the old value, corrected");
	test_prot.l2 = SC_CODE_PARITY;
	expect_due(atom, SC_TGT_L2, CW(30, 33, 16), 1, SC_DUE_PARITY_ERROR);
}

/* An L1 line filled from a corrupted L2 line: the fill reads the L2's
 * codewords. A parity error in the L2's copy of lane 9's word is a DUE at
 * the refetch of line A, though the L1's own copy was clean. */
Test(cache_code, an_l1_fill_reads_the_l2_codewords)
{
	test_prot.l2 = SC_CODE_PARITY;
	h_ctx_t h;
	init_small_l1(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_l1, NOUT, &da, &dout);
	l2_flip_t f = {.addr = da + 4 * 9, .bit = 32, .n = 33};
	sc_set_pause(h.gpu, PAUSE, flip_l2_byte, &f);
	int rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	cr_assert_eq(f.rc, 1);
	cr_expect_eq(rc, SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_PARITY_ERROR, "%s", h_status(&h)->detail);
	h_fini(&h);
}

/* The constant cache: coef[2] is codeword 2 of line 0. */
static void coded_const(plan_t *p, coded_t *r)
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.const_bytes = 2 * 64;
	h.cfg.const_ways = 2;
	h.opt.prot = test_prot;
	h_load_ok(&h, ptx_const);
	uint64_t dout = h_alloc(&h, 64 * 4, NULL);
	if (p)
		sc_set_pause(h.gpu, p->at[0], on_pause, p);
	memset(r, 0, sizeof *r);
	r->rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	coded_end(&h, r, dout, 64);
}

Test(cache_code, const_codes_correct_and_detect)
{
	coded_t gold, got;
	coded_const(NULL, &gold);
	cr_assert_eq(gold.rc, 0);
	test_prot.cc = SC_CODE_SECDED;
	got = expect_corrected(coded_const, SC_TGT_CONST, CW(2, 39, 4), 1);
	cr_expect_arr_eq(got.out, gold.out, 64 * 4);
	test_prot.cc = SC_CODE_PARITY;
	expect_due(coded_const, SC_TGT_CONST, CW(2, 33, 32), 1, SC_DUE_PARITY_ERROR);
	test_prot.cc = SC_CODE_SECDED;
	expect_due(coded_const, SC_TGT_CONST, CW(2, 39, 0), 2, SC_DUE_ECC_UNCORRECTABLE);
}

/* A site names the code and the codeword's bit. */
Test(cache_code, a_site_names_the_codeword_bit)
{
	test_prot.l1d = SC_CODE_SECDED;
	h_ctx_t h;
	init_small_l1(&h);
	uint64_t da, dout;
	load_a_out(&h, ptx_l1, NOUT, &da, &dout);
	plan_t p = {.at = {PAUSE}};
	sc_set_pause(h.gpu, PAUSE, on_pause, &p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&da, &dout));
	sc_cache_site_t c;
	cr_assert(sc__cache_site(h.gpu, SC_TGT_L1D, SC_F_CACHE_DATA, 0, CW(3, 39, 33), &c));
	cr_expect_eq(c.code, SC_CODE_SECDED);
	cr_expect_eq(c.codeword_bit, 33);
	cr_expect(c.check_bit);
	cr_expect_eq(c.bit, 3 * 32, "the codeword's first data bit");
	cr_assert(sc__cache_site(h.gpu, SC_TGT_L1D, SC_F_CACHE_DATA, 0, CW(3, 39, 9), &c));
	cr_expect(!c.check_bit);
	cr_expect_eq(c.bit, 3 * 32 + 9);
	h_fini(&h);
}

/* Fault-free, every code gives the outputs and cycles of no code: the L1
 * kernel (L1 and L2), the L2 one with its write-back, the constant one. */
Test(cache_code, a_fault_free_run_is_the_unprotected_one)
{
	void (*const run[])(plan_t *, coded_t *) = {coded_l1, l2_write_back, coded_const};
	for (size_t r = 0; r < 3; r++) {
		coded_t gold, got;
		test_prot = (sc_protection_t){0};
		run[r](NULL, &gold);
		cr_assert_eq(gold.rc, 0);
		for (int k = SC_CODE_PARITY; k < SC_CODE__COUNT; k++) {
			test_prot = (sc_protection_t){.l1d = (sc_code_kind_t)k, .l2 = (sc_code_kind_t)k, .cc = (sc_code_kind_t)k,
			                              .l1d_tag = SC_CODE_PARITY, .l2_tag = SC_CODE_PARITY,
			                              .cc_tag = SC_CODE_PARITY};
			run[r](NULL, &got);
			cr_expect_eq(got.rc, 0, "run %zu %s", r, sc_code_name(k));
			cr_expect_eq(got.cycles, gold.cycles, "run %zu %s", r, sc_code_name(k));
			cr_expect_arr_eq(got.out, gold.out, sizeof got.out, "run %zu %s", r, sc_code_name(k));
			cr_expect_eq(got.ev, SC_PROT_NONE);
		}
	}
}

/* Live sampling over codewords: the live bits are the codewords of the
 * valid sectors, word (codeword) by word, and every draw lands in one. */
static uint64_t check_live_coded(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)cycle;
	uint32_t wb;
	uint64_t n = sc_target_bits_prot(&g->cfg, &g->opt.prot, SC_TGT_L2, SC_F_CACHE_DATA, &wb), live = 0;
	cr_assert_eq(wb, 39);
	for (uint64_t b = 0; b < n; b += wb)
		live += sc_target_in_use(g, SC_TGT_L2, SC_F_CACHE_DATA, 0, b, wb) == 1 ? wb : 0;
	cr_expect_eq(live, 2 * 8 * 39, "two valid sectors of 8 codewords");
	cr_expect_eq(sc_target_live_bits(g, SC_TGT_L2, SC_F_CACHE_DATA, 0), live);
	for (uint64_t d = 0; d < 200; d++) {
		uint64_t loc;
		cr_assert_eq(sc_live_loc(g, SC_TGT_L2, SC_F_CACHE_DATA, 0, d * 7919, 2, &loc), 1);
		cr_expect_eq(loc / wb, (loc + 1) / wb, "an adjacent pair stays in its codeword");
		cr_expect_eq(sc_target_in_use(g, SC_TGT_L2, SC_F_CACHE_DATA, 0, loc, 2), 1);
	}
	((live_check_t *)ctx)->checked = 1;
	return UINT64_MAX;
}

Test(cache_code, live_sampling_draws_codewords_in_use)
{
	test_prot.l2 = SC_CODE_SECDED;
	h_ctx_t h;
	init_small_l2(&h);
	h_load_ok(&h, ptx_half);
	uint64_t dout = h_alloc(&h, 32 * 4, NULL);
	live_check_t c = {0};
	sc_set_pause(h.gpu, PAUSE, check_live_coded, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dout));
	cr_expect(c.checked);
	h_fini(&h);
}

/* ---- a parity bit on the tags ----
 * Line A's tag in the one-set L1 (29 bits with the parity bit last): a
 * flip of a tag bit or of the parity bit is detected by the next lookup of
 * the set, the DUE parity_error; two flips pass and act as without
 * parity (a wrong hit). */
static plan_t tag_flip(sc_target_t t, uint64_t loc, uint32_t nbits)
{
	return (plan_t){.at = {PAUSE}, .t = t, .fields = SC_F_CACHE_TAG, .loc = loc, .nbits = nbits, .inject = true};
}

static void expect_tag_due(void (*fn)(plan_t *, coded_t *), sc_target_t t, uint64_t loc)
{
	coded_t got;
	plan_t p = tag_flip(t, loc, 1);
	fn(&p, &got);
	cr_assert_eq(p.rc, 1, "%s tag bit %llu", sc_target_name(t), (unsigned long long)loc);
	cr_expect_eq(got.rc, SC_EDUE, "%s tag bit %llu", sc_target_name(t), (unsigned long long)loc);
	cr_expect_eq(got.due, SC_DUE_PARITY_ERROR, "%s tag bit %llu: %s", sc_target_name(t), (unsigned long long)loc,
	             sc_due_name(got.due));
	cr_expect_eq(got.ev, SC_PROT_DETECTED);
}

Test(cache_code, tag_parity_adds_a_bit_and_detects_a_flipped_tag)
{
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_protection_t pr = {.l1d_tag = SC_CODE_PARITY};
	uint32_t wb;
	cr_expect_eq(sc_target_bits_prot(&cfg, &pr, SC_TGT_L1D, SC_F_CACHE_TAG, &wb), 128ull * 29);
	cr_expect_eq(wb, 29, "the tag's word holds its parity bit");
	pr.l1d_tag = SC_CODE_SECDED;
	char msg[256];
	cr_expect_eq(sc_protection_check(&pr, &cfg, SC_REGS_UNALLOC, msg, sizeof msg), SC_EINVAL);
	test_prot.l1d_tag = SC_CODE_PARITY;
	expect_tag_due(coded_l1, SC_TGT_L1D, 0);  /* a tag bit: A's line answers for B */
	expect_tag_due(coded_l1, SC_TGT_L1D, 28); /* the parity bit alone */
	/* two tag bits: even, unseen: the wrong hit of no parity */
	coded_t with, without;
	plan_t p = tag_flip(SC_TGT_L1D, 0, 2);
	coded_l1(&p, &with);
	cr_assert_eq(p.rc, 1);
	cr_expect_eq(with.rc, 0);
	cr_expect_eq(with.ev, SC_PROT_NONE);
	test_prot.l1d_tag = SC_CODE_NONE;
	plan_t q = tag_flip(SC_TGT_L1D, 0, 2);
	coded_l1(&q, &without);
	cr_expect_arr_eq(with.out, without.out, sizeof with.out);
}

/* The L2: out's line, dirty; the host's read of out looks its lines up
 * (no eviction), or the kernel's loads of the set do (evict). */
Test(cache_code, tag_parity_on_the_l2_is_checked_by_the_host_and_the_kernel)
{
	test_prot.l2_tag = SC_CODE_PARITY;
	expect_tag_due(l2_host_read, SC_TGT_L2, 3);
	expect_tag_due(l2_write_back, SC_TGT_L2, 3);
	expect_tag_due(l2_write_back, SC_TGT_L2, 33); /* the parity bit: one set of one slice, 33 tag bits */
}

