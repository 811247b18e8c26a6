/* Fault targets, injection, pause points and the state hash (fault.c).
 * One warp of 32 threads runs on SM 0, CTA slot 0, warp slot 0, so every
 * location below is computed from the layouts documented in fault.c. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/runs.h"
#include "harness.h"
#include "sc_int.h"

/* h_loop_ptx: %r<6> are slots 0..5 and %rd<4> slots 6..13, 14 registers
 * per thread; r5 is never used. */
static const char *const ptx = h_loop_ptx;

#define REGS 14
#define RF_LOC(slot, reg, lane, bit) (((((uint64_t)(slot) * REGS + (reg)) * 32 + (lane)) * 32) + (bit))

typedef struct plan {
	uint64_t at;
	sc_target_t t;
	unsigned fields;
	uint32_t sm;
	uint64_t loc;
	uint32_t nbits;
	int rc;           /* what sc_inject returned */
	uint64_t hash;    /* state hash at the pause, before injecting */
	uint64_t after;   /* and after */
	uint64_t live[2]; /* live regfile bits of SM 0 and SM 1 */
	bool inject;
} plan_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	cr_assert_eq(cycle, p->at);
	cr_assert_eq(sc_gpu_cycle(g), p->at);
	p->hash = sc_state_hash(g);
	p->live[0] = sc_target_live_bits(g, SC_TGT_REGFILE, 0, 0);
	p->live[1] = sc_target_live_bits(g, SC_TGT_REGFILE, 0, 1);
	if (p->inject) {
		int use = sc_target_in_use(g, p->t, p->fields, p->sm, p->loc, p->nbits);
		cr_expect_eq(sc_state_hash(g), p->hash, "the query changes nothing");
		p->rc = sc_inject(g, p->t, p->fields, p->sm, p->loc, p->nbits);
		cr_expect_eq(use, p->rc, "sc_target_in_use agrees with sc_inject");
	}
	p->after = sc_state_hash(g);
	return UINT64_MAX;
}

/* Runs k on one warp with the plan; returns the launch rc, out[] filled. */
static int run(h_ctx_t *h, plan_t *p, uint32_t out[32])
{
	return h_run_warp(h, ptx, p ? p->at : 0, p ? on_pause : NULL, p, out);
}

Test(fault, target_sizes_follow_the_config)
{
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	uint32_t wb;
	cr_expect_eq(sc_target_bits(&c, SC_TGT_REGFILE, 0, &wb), 32768ull * 32);
	cr_expect_eq(wb, 32);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_SMEM, 0, &wb), 49152ull * 8);
	cr_expect_eq(wb, 8);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_PRED, 0, NULL), 48ull * 8 * 32);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_SIMT, 0, NULL), 48ull * 32 * 96);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_SIMT, SC_F_SIMT_MASK, NULL), 48ull * 32 * 32);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_IBUFFER, SC_F_IB_VALID, NULL), 48ull * 2);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_IBUFFER, 0, NULL), 48ull * 2 * 257);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_FU, 0, NULL), 32ull * 64);
	cr_expect_str_eq(sc_target_name(SC_TGT_IBUFFER), "ibuffer");
}

Test(fault, register_flip_reaches_the_output)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(0, 1, 5, 3), .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &p, out), 0);
	cr_expect_eq(p.rc, 1, "r1 of lane 5 is allocated");
	cr_expect_neq(p.hash, p.after, "the flip changes the state hash");
	cr_expect_eq(p.live[0], (uint64_t)REGS * 32 * 32, "one warp's registers are live on SM 0");
	cr_expect_eq(p.live[1], 0, "SM 1 is idle");
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], (t == 5 ? 5u ^ 8u : t) + 50, "out[%u] = %u", t, out[t]);
	h_fini(&h);
}

Test(fault, adjacent_bits_flip_together)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(0, 1, 7, 4), .nbits = 3, .inject = true};
	cr_assert_eq(run(&h, &p, out), 0);
	cr_expect_eq(p.rc, 1);
	cr_expect_eq(out[7], (7u ^ 0x70u) + 50);
	h_fini(&h);
}

Test(fault, unallocated_register_is_unused)
{
	h_ctx_t h;
	uint32_t out[32];
	/* warp slot 1 belongs to CTA slot 1, which is not resident */
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(1, 1, 5, 3), .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &p, out), 0);
	cr_expect_eq(p.rc, 0);
	cr_expect_eq(p.hash, p.after, "nothing changed");
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 50);
	plan_t q = {.at = 500, .t = SC_TGT_REGFILE, .sm = 3, .loc = RF_LOC(0, 1, 5, 3), .nbits = 1, .inject = true};
	h_fini(&h);
	cr_assert_eq(run(&h, &q, out), 0);
	cr_expect_eq(q.rc, 0, "SM 3 holds no CTA");
	h_fini(&h);
}

Test(fault, out_of_range_is_an_error)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = 32768ull * 32, .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &p, out), 0);
	cr_expect_eq(p.rc, SC_EINVAL);
	h_fini(&h);
	plan_t q = {.at = 500, .t = SC_TGT_REGFILE, .sm = 15, .loc = 0, .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &q, out), 0);
	cr_expect_eq(q.rc, SC_EINVAL);
	h_fini(&h);
}

Test(fault, state_hash_is_deterministic_and_exact)
{
	h_ctx_t h;
	uint32_t out[32];
	plan_t a = {.at = 700}, b = {.at = 700};
	cr_assert_eq(run(&h, &a, out), 0);
	h_fini(&h);
	cr_assert_eq(run(&h, &b, out), 0);
	h_fini(&h);
	cr_expect_eq(a.hash, b.hash, "same workload, same pause: same hash");
	plan_t c = {.at = 701};
	cr_assert_eq(run(&h, &c, out), 0);
	h_fini(&h);
	/* flipping the same bit twice restores the golden state and hash */
	plan_t d = {.at = 700, .t = SC_TGT_REGFILE, .loc = RF_LOC(0, 3, 9, 0), .nbits = 1, .inject = true};
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t dd = h_alloc(&h, 32 * 4, NULL);
	sc_set_pause(h.gpu, d.at, on_pause, &d);
	cr_assert_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&dd)), 0);
	cr_expect_eq(d.hash, a.hash);
	cr_expect_neq(d.after, a.hash);
	h_fini(&h);
}

/* A fault in a register the program never reads again is masked, and the
 * state re-joins the golden run once the CTA is gone: in a second launch
 * the hashes are equal again, which is what early termination relies on. */
typedef struct two {
	uint64_t inject_at, check_at;
	bool inject;
	int rc;
	uint64_t hash;
} two_t;

static uint64_t on_two(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	two_t *p = ctx;
	if (cycle == p->inject_at) {
		if (p->inject)
			p->rc = sc_inject(g, SC_TGT_REGFILE, 0, 0, RF_LOC(0, 5, 2, 1), 1);
		return p->check_at;
	}
	p->hash = sc_state_hash(g);
	return UINT64_MAX;
}

Test(fault, dead_fault_rejoins_the_golden_state)
{
	uint64_t hashes[2];
	for (int faulty = 0; faulty < 2; faulty++) {
		h_ctx_t h;
		h_init(&h);
		h_load_ok(&h, ptx);
		uint64_t d = h_alloc(&h, 32 * 4, NULL);
		two_t p = {.inject_at = 300, .inject = faulty};
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		uint64_t end = sc_gpu_cycle(h.gpu);
		h_fini(&h);
		h_init(&h);
		h_load_ok(&h, ptx);
		d = h_alloc(&h, 32 * 4, NULL);
		p.check_at = end + 400; /* inside the second launch */
		sc_set_pause(h.gpu, p.inject_at, on_two, &p);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		if (faulty)
			cr_expect_eq(p.rc, 1, "r5 is allocated, though never used");
		cr_expect_neq(p.hash, 0);
		hashes[faulty] = p.hash;
		h_fini(&h);
	}
	cr_expect_eq(hashes[0], hashes[1]);
}

/* Lane 5 leaves the active mask of the warp's only SIMT entry: it never
 * executes again, so the stack empties while the lane has not exited,
 * which the model reports as a SIMT-stack DUE rather than a silent loss. */
Test(fault, simt_mask_bit_loses_a_lane)
{
	h_ctx_t h;
	uint32_t out[32];
	/* entry 0 of warp slot 0, mask field only: bit 5 is lane 5 */
	plan_t p = {.at = 500, .t = SC_TGT_SIMT, .fields = SC_F_SIMT_MASK, .loc = 5, .nbits = 1, .inject = true};
	cr_expect_eq(run(&h, &p, out), SC_EDUE);
	cr_expect_eq(p.rc, 1);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_SIMT_UNDERFLOW);
	h_fini(&h);
	/* entry 1 does not exist (no divergence): not in use */
	plan_t q = {.at = 500, .t = SC_TGT_SIMT, .fields = SC_F_SIMT_MASK, .loc = 32 + 5, .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &q, out), 0);
	cr_expect_eq(q.rc, 0);
	h_fini(&h);
}

Test(fault, ibuffer_word_that_does_not_decode_is_a_due)
{
	/* entry 0, both fields: bit 0 is valid, bits 1.. the word; bit 7 of the
	 * opcode byte makes the opcode 128 or more, which does not decode. The
	 * entry holds a word only while the warp has fetched ahead: after a
	 * taken branch it is empty until the next issue refills it. */
	int used = 0;
	for (uint64_t at = 480; at < 560; at++) {
		h_ctx_t h;
		uint32_t out[32];
		plan_t p = {.at = at, .t = SC_TGT_IBUFFER, .loc = 1 + 7, .nbits = 1, .inject = true};
		int rc = run(&h, &p, out);
		if (p.rc == 1) {
			used++;
			cr_expect_eq(rc, SC_EDUE, "cycle %llu", (unsigned long long)at);
			cr_expect_eq(h_status(&h)->reason, SC_DUE_INVALID_INSTRUCTION);
		} else {
			cr_expect_eq(p.rc, 0);
			cr_expect_eq(rc, 0, "an empty entry is refetched: masked");
		}
		h_fini(&h);
	}
	cr_expect_gt(used, 0);
	h_ctx_t h;
	uint32_t out[32];
	/* the valid bit of a live warp's entry is always in use */
	plan_t q = {.at = 500, .t = SC_TGT_IBUFFER, .fields = SC_F_IB_VALID, .loc = 0, .nbits = 1, .inject = true};
	cr_assert_eq(run(&h, &q, out), 0, "an invalidated entry is refetched");
	cr_expect_eq(q.rc, 1);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 50);
	h_fini(&h);
}

Test(fault, fu_fault_corrupts_a_result_of_its_cycle_only)
{
	int applied = 0, idle = 0, changed = 0;
	for (uint64_t at = 300; at < 420; at++) {
		h_ctx_t h;
		uint32_t out[32];
		/* lane 5, bit 0: the loop counter, or a predicate, or an address */
		plan_t p = {.at = at, .t = SC_TGT_FU, .loc = 5 * 64 + 0, .nbits = 1, .inject = true};
		int rc = run(&h, &p, out);
		cr_expect_eq(p.rc, 1);
		if (sc_fu_applied(h.gpu)) {
			applied++;
			bool same = rc == 0;
			for (uint32_t t = 0; t < 32 && same; t++)
				same = out[t] == t + 50;
			changed += !same;
		} else {
			idle++;
			cr_expect_eq(rc, 0);
			for (uint32_t t = 0; t < 32; t++)
				cr_expect_eq(out[t], t + 50, "no result corrupted: golden output");
		}
		h_fini(&h);
	}
	/* one warp issues every ~22 cycles: most cycles have nothing to corrupt */
	cr_expect_gt(applied, 0);
	cr_expect_gt(idle, applied);
	cr_expect_gt(changed, 0, "corrupting the loop counter changes the trip count");
}

/* ---- the injection runtime's forks (rt.c spawn) ----
 * The replay's SM state is shared across its forks (statemap.c); each
 * experiment child must still have registers of its own. */

typedef struct rt_got {
	uint32_t n;
	sc_rt_kind_t kind[4];
	int verdict[4];
} rt_got_t;

static void rt_done(void *ctx, const sc_rt_exp_t *e, const sc_rt_result_t *r)
{
	rt_got_t *got = ctx;
	cr_assert_lt(e->idx, 4);
	got->kind[e->idx] = r->kind;
	got->verdict[e->idx] = r->verdict;
	got->n++;
}

/* Runs k on one warp; out[] and the final state hash. With a plan, in an
 * experiment child it reports whether out[] is the golden one (verdict 0)
 * or not (1) and does not return. */
static uint64_t rt_run(const sc_rt_plan_t *p, rt_got_t *got, uint32_t out[32])
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	sc_gpu_t *g = h.gpu;
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	sc_rt_hooks_t hooks = {.done = rt_done, .ctx = got};
	if (p)
		cr_assert_eq(sc_rt_attach(g, p, &hooks), 0);
	int rc = sc_launch(g, h.mod, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	if (rc == 0)
		sc_memcpy_dtoh(g, out, d, 32 * 4);
	if (p && sc_rt_current(g)) {
		bool golden = rc == 0;
		for (uint32_t t = 0; t < 32; t++)
			golden = golden && out[t] == t + 50;
		sc_rt_child_exit(g, golden ? 0 : 1, NULL);
	}
	cr_assert_eq(rc, 0);
	cr_expect(!p || g->smap.share, "the runtime shares the SM state (statemap.c)");
	if (p)
		sc_rt_finish(g);
	uint64_t hash = sc_state_hash(g);
	h_fini(&h);
	return hash;
}

/* Each experiment child flips a bit of %r1 and runs on, writing registers
 * all the way: the parent's replay must stay the golden run (its outputs
 * and its final state), and every child must see its fault. */
Test(fault, experiment_children_never_write_the_replay_registers)
{
	uint32_t gout[32], out[32];
	uint64_t golden = rt_run(NULL, NULL, gout);
	static const sc_rt_exp_t exp[4] = {
		{.idx = 0, .nfaults = 1, .f = {{.cycle = 100, .sm = 0, .loc = RF_LOC(0, 1, 3, 0), .nbits = 1}}},
		{.idx = 1, .nfaults = 1, .f = {{.cycle = 300, .sm = 0, .loc = RF_LOC(0, 1, 5, 3), .nbits = 1}}},
		{.idx = 2, .nfaults = 1, .f = {{.cycle = 300, .sm = 0, .loc = RF_LOC(0, 1, 9, 1), .nbits = 2}}},
		{.idx = 3, .nfaults = 1, .f = {{.cycle = 600, .sm = 0, .loc = RF_LOC(0, 1, 31, 4), .nbits = 1}}},
	};
	sc_rt_plan_t p = {.target = SC_TGT_REGFILE, .exp = exp, .nexp = 4};
	rt_got_t got = {0};
	cr_expect_eq(rt_run(&p, &got, out), golden, "the replay ends in the golden state");
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], gout[t], "out[%u]", t);
	cr_assert_eq(got.n, 4);
	for (uint32_t i = 0; i < 4; i++) {
		cr_expect_eq(got.kind[i], SC_RT_ENDED, "experiment %u ran to its end", i);
		cr_expect_eq(got.verdict[i], 1, "experiment %u: its fault reached the output", i);
	}
}

/* ---------------------------------------------------------------- job files
 * A host program started with FLIPSIM_RT reads its job file in
 * sc_gpu_create (rt.c). Each field is checked as it is read: a corrupt file
 * is refused at once, exit 2 and a message naming the file, line and
 * field, without allocating what a bad count asks for. */

/* Writes a valid inject job for gtx480 (15 SMs: 17 state parts) with three
 * checkpoints and three experiments to path. */
static void job_write_valid(const char *path)
{
	static sc_rt_ckpts_t ck;
	static uint64_t part[3 * 17];
	static const sc_rt_exp_t exp[3] = {
		{.idx = 0, .nfaults = 1, .f = {{.cycle = 150, .sm = 1, .loc = 7, .nbits = 1}}},
		{.idx = 1, .nfaults = 2, .f = {{.cycle = 250, .sm = 2, .loc = 9, .nbits = 1}, {.cycle = 260, .sm = 3, .loc = 1, .nbits = 2}}},
		{.idx = 2, .nfaults = 1, .f = {{.cycle = 250, .sm = 14, .loc = 3, .nbits = 64}}},
	};
	ck.n = 3;
	ck.nparts = 17;
	ck.part = part;
	for (uint32_t i = 0; i < 3; i++)
		ck.cycle[i] = 100 * (i + 1);
	for (uint32_t i = 0; i < 3 * 17; i++)
		part[i] = 0x9e3779b97f4a7c15ull * (i + 1);
	sc_rt_job_t j = {.mode = SC_RT_INJECT, .regs = SC_REGS_UNALLOC, .stdout_path = "/dev/null",
	                 .stderr_path = "/dev/null", .out_dir = "/tmp"};
	sc_config_gtx480(&j.cfg);
	j.plan = (sc_rt_plan_t){.target = SC_TGT_REGFILE, .ck = &ck, .exp = exp, .nexp = 3};
	cr_assert_eq(sc_rt_job_write(path, &j), 0);
}

static char *slurp_text(const char *path)
{
	FILE *f = fopen(path, "r");
	cr_assert(f, "cannot open %s", path);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strdup(buf);
}

/* Creates a GPU in a child with FLIPSIM_RT=path (fd 3 /dev/null as the
 * result channel); returns its wait status, its stderr in err and its peak
 * resident memory in KiB. A child still running after 30 s is killed; one
 * that needs more than 1 GiB of address space fails (not under ASan). */
static int job_run(const char *path, char *err, size_t errsz, long *maxrss_kb)
{
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		int nul = open("/dev/null", O_WRONLY);
		dup2(nul, 3);
		alarm(30);
#ifndef __SANITIZE_ADDRESS__
		/* a regression fails here instead of taking the machine's memory */
		struct rlimit lim = {1ul << 30, 1ul << 30};
		setrlimit(RLIMIT_AS, &lim);
#endif
		setenv(SC_RT_ENV, path, 1);
		sc_gpu_config_t cfg;
		sc_config_gtx480(&cfg);
		sc_options_t opt = {0};
		sc_gpu_t *g = NULL;
		_exit(sc_gpu_create(&cfg, &opt, &g) ? 1 : 0);
	}
	close(pfd[1]);
	size_t n = 0;
	ssize_t k;
	while ((k = read(pfd[0], err + n, errsz - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = '\0';
	close(pfd[0]);
	int st;
	struct rusage ru;
	cr_assert_eq(wait4(pid, &st, 0, &ru), pid);
	*maxrss_kb = ru.ru_maxrss;
	return st;
}

typedef struct bad_job {
	const char *what;
	const char *line, *repl; /* replace the line starting with `line` by repl ("" deletes it) */
	const char *msg;         /* fragment of the message, after "PATH:LINE: " */
} bad_job_t;

static const bad_job_t bad_jobs[] = {
	{"huge parts count", "plan ", "plan 0 0 0 0 0 0 4294967295 0\n", "'plan' record, field nparts: 4294967295 is outside 0..17"},
	{"parts count past 64 bits", "plan ", "plan 0 0 0 0 0 0 99999999999999999999999 0\n", "field nparts: expected an integer"},
	{"negative parts count", "plan ", "plan 0 0 0 0 0 0 -1 0\n", "field nparts: expected an integer, found '-1'"},
	{"parts count of other SMs", "plan ", "plan 0 0 0 0 0 0 4 0\n", "field nparts: 4, but 15 SMs make 17 parts"},
	{"bad target", "plan ", "plan 99 0 0 0 0 0 17 0\n", "field target: 99 is outside"},
	{"plan fields missing", "plan ", "plan 0 0 0\n", "field budget: expected an integer, found ''"},
	{"text after the plan", "plan ", "plan 0 0 0 0 0 0 17 0 0 junk\n", "unexpected text after its fields"},
	{"a second plan", "stdout ", "plan 0 0 0 0 0 0 17 0 0\n", "a second 'plan' record"},
	{"plan before config", "config ", "", "'plan' record before the 'config' record"},
	{"too many SMs", "config ", "config 99999 32 1536 8 48 1024 32768 63 49152 49152 7 2 0 32 2 0 1 1 1 1 1 1 1 1 1 1 1 1 1 700 "
	 "700 924 2 0 1 2 4 2 8 8 4 2 2 2 2 2 2 2 32 16384 128 4 8192 64 2 12288 128 24 786432 128 8 32 2 310 2 6 8 8 4 236\n",
	 "'config' record: num_sms"},
	{"short checkpoint", "c 200 ", "c 200 1 2 3\n", "'c' record, field part: expected an integer, found ''"},
	{"checkpoint cycle going back", "c 300 ", "c 50 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "field cycle: 50 is outside 200.."},
	{"checkpoint without plan", "plan ", "", "checkpoint without a 'plan' record"},
	{"huge fault count", "x 1 ", "x 1 1000000 250 2 9 1\n", "'x' record, field nfaults: 1000000 is outside 1..8"},
	{"zero bits", "x 0 ", "x 0 1 150 1 7 0\n", "field nbits: 0 is outside 1..64"},
	{"experiments out of order", "x 0 ", "x 0 1 900 1 7 1 0\n", "'x' record, field cycle: 250 is outside 900.."},
	{"truncated fault", "x 2 ", "x 2 1 250 14\n", "field loc: expected an integer, found ''"},
	{"bad mode", "mode ", "mode replay\n", "'mode' record: expected golden or inject"},
	{"no end", "end", "", "truncated (no 'end' record)"},
	{"unknown record", "end", "frob 1\nend\n", "unknown record 'frob'"},
	{"empty outdir", "outdir ", "outdir \n", "'outdir' record: expected 1.."},
	{"stuck at 2", "model ", "model 3 2 0 0 0 0\n", "'model' record, field value: 2 is outside 0..1"},
	{"window longer than its period", "model ", "model 3 1 10 20 0 0\n", "field duration: 20 is outside 0..10"},
	{"mcu without interleave", "model ", "model 0 0 0 0 2 0\n", "field interleave: 0 is outside 1.."},
	{"stuck mcu", "model ", "model 3 1 0 0 2 1\n", "'model' record: regfile does not take this fault model"},
	{"unknown model", "model ", "model 9 0 0 0 0 0\n", "field kind: 9 is outside 0..3"},
	{"model before plan", "plan ", "model 0 0 0 0 0 0\n", "'model' record before the 'plan' record"},
	{"bad pattern", "x 0 ", "x 0 1 150 1 7 1 zz\n", "'x' record, field pattern: expected an integer"},
	{"unknown ibuffer scheme", "regs ", "regs unalloc\nprotection none none none 0 sawp_max 4 4 64 9\n",
	 "'protection' record: expected an instruction-buffer scheme"},
	{"SAWP table too large", "regs ", "regs unalloc\nprotection none none none 0 sawp 65 4 64 9\n",
	 "'protection' record, field table_entries: 65 is outside 0..64"},
	{"SAWP penalty missing", "regs ", "regs unalloc\nprotection none none none 0 sawp 4 4 64\n",
	 "'protection' record, field reissue_penalty: expected an integer"},
	{"no code after the SAWP fields", "regs ", "regs unalloc\nprotection none none none 0 sawp 4 4 64 9 x\n",
	 "'protection' record: expected a code name"},
	{"two caches' codes", "regs ", "regs unalloc\nprotection none none none 0 none 0 0 0 0 secded parity\n",
	 "'protection' record: expected a code name"},
	{"no tag code after the caches' codes", "regs ", "regs unalloc\nprotection none none none 0 none 0 0 0 0 secded "
	 "parity dected x\n", "'protection' record: expected a code name"},
	{"text after the tags' codes", "regs ", "regs unalloc\nprotection none none none 0 none 0 0 0 0 secded parity "
	 "dected parity none none x\n", "'protection' record: unexpected text after its fields"},
	{"SHARP queue too long", "regs ", "regs alloc\nprotection none none none 0 none 0 0 0 0 sharp 1025 32 secded\n",
	 "'protection' record, field request_queue: 1025 is outside 0..1024"},
	{"SHARP code missing", "regs ", "regs alloc\nprotection none none none 0 none 0 0 0 0 sharp 16 32\n",
	 "'protection' record: expected SHARP's code name"},
	{"Penny's edc unknown", "regs ", "regs alloc\npenny dected oracle 50 0\n",
	 "'penny' record: expected an edc (parity, hamming, secded) and a mode"},
	{"Penny compiled without its fields", "regs ", "regs alloc\npenny parity compiled 50 0\n",
	 "'penny' record: expected pruning (basic, none, optimal) and storage (auto, shared, global)"},
	{"Penny compiled, local storage", "regs ", "regs alloc\npenny parity compiled 50 0 basic local 0\n",
	 "'penny' record: expected pruning (basic, none, optimal) and storage (auto, shared, global)"},
	{"Penny compiled, pruning best", "regs ", "regs alloc\npenny parity compiled 50 0 best auto 0\n",
	 "'penny' record: expected pruning (basic, none, optimal) and storage (auto, shared, global)"},
	{"Penny compiled without its block size", "regs ", "regs alloc\npenny parity compiled 50 0 basic shared\n",
	 "'penny' record, field block_size: expected an integer"},
	{"Penny compiled, a block size beside shared storage", "regs ",
	 "regs alloc\npenny parity compiled 50 0 basic shared 128\n",
	 "'penny' record, field block_size: 128 is outside 0..0"},
	{"Penny compiled, block size 2048", "regs ", "regs alloc\npenny parity compiled 50 0 basic auto 2048\n",
	 "'penny' record, field block_size: 2048 is outside 0..1024"},
	{"Penny's mode unknown", "regs ", "regs alloc\npenny parity eager 50 0\n",
	 "'penny' record: mode eager: expected oracle or compiled"},
	{"Penny include_pred 2", "regs ", "regs alloc\npenny parity oracle 50 2\n",
	 "'penny' record, field include_pred: 2 is outside 0..1"},
	{"Penny's fields missing", "regs ", "regs alloc\npenny parity oracle\n",
	 "'penny' record, field recovery_penalty: expected an integer"},
	{"text after Penny's fields", "regs ", "regs alloc\npenny parity oracle 50 0 x\n",
	 "'penny' record: unexpected text after its fields"},
	{"a second Penny record", "regs ", "regs alloc\npenny parity oracle 50 0\npenny parity oracle 50 0\n",
	 "a second 'penny' record"},
	{"text after SHARP's tail", "regs ", "regs alloc\nprotection none none none 0 none 0 0 0 0 sharp 16 32 secded "
	 "x\n", "'protection' record: unexpected text after its fields"},
};

/* Replaces (or deletes) the first line of text starting with `line`. */
static char *job_edit(const char *text, const char *line, const char *repl)
{
	const char *at = text;
	while (strncmp(at, line, strlen(line))) {
		at = strchr(at, '\n');
		cr_assert(at, "no line '%s' in the job", line);
		at++;
	}
	const char *after = strchr(at, '\n');
	after = after ? after + 1 : at + strlen(at);
	char *out = malloc(strlen(text) + strlen(repl) + 1);
	cr_assert(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, repl, after);
	return out;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
}

Test(fault, job_file_fields_are_checked)
{
	char path[512];
	runs_tmpfile(path, sizeof path, "job");
	job_write_valid(path);
	char *valid = slurp_text(path);
	static char err[8192];
	long rss;
	int st = job_run(path, err, sizeof err, &rss);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the valid job is refused (status 0x%x): %s", st, err);
	for (size_t i = 0; i < sizeof bad_jobs / sizeof bad_jobs[0]; i++) {
		const bad_job_t *b = &bad_jobs[i];
		char *text = job_edit(valid, b->line, b->repl);
		write_text(path, text);
		free(text);
		st = job_run(path, err, sizeof err, &rss);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status 0x%x, want exit 2; stderr: %s", b->what, st, err);
		cr_expect(strstr(err, path) && strstr(err, b->msg), "%s: message '%s' lacks the job file or '%s'", b->what,
		          err, b->msg);
		cr_expect_lt(rss, 256 * 1024, "%s: the runtime held %ld KiB", b->what, rss);
	}
	/* the instruction buffer's protection reads back */
	char *prot = job_edit(valid, "regs ", "regs unalloc\nprotection none none none 0 sawp_fs 12 3 32 7\n");
	write_text(path, prot);
	free(prot);
	st = job_run(path, err, sizeof err, &rss);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a SAWP protection record is refused (0x%x): %s", st, err);
	prot = job_edit(valid, "regs ", "regs unalloc\nprotection none none none 0 none 0 0 0 0 secded parity dected\n");
	write_text(path, prot);
	free(prot);
	st = job_run(path, err, sizeof err, &rss);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the caches' codes are refused (0x%x): %s", st, err);
	/* cut in the middle of a checkpoint line */
	const char *cut = strstr(valid, "\nc 200 ");
	cr_assert(cut);
	char *text = strndup(valid, (size_t)(cut - valid) + 12);
	write_text(path, text);
	free(text);
	st = job_run(path, err, sizeof err, &rss);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2 && strstr(err, "'c' record, field part"), "cut file: 0x%x %s", st, err);
	/* more checkpoints than the runtime keeps */
	size_t cap = strlen(valid) + 1100 * 64;
	char *many = malloc(cap);
	cr_assert(many);
	char *end = strstr(valid, "x 0 ");
	int n = sprintf(many, "%.*s", (int)(end - valid), valid);
	for (int k = 0; k < 1100; k++)
		n += sprintf(many + n, "c %d 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", 400 + k);
	strcpy(many + n, end);
	write_text(path, many);
	free(many);
	st = job_run(path, err, sizeof err, &rss);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2 && strstr(err, "more than 1024 checkpoints"), "1100 checkpoints: 0x%x %s",
	          st, err);
	free(valid);
	unlink(path);
}

/* ---- the incremental memory hash (sc__gmem_hash_at, rt.c's checkpoints) ---- */

/* Lines of global memory written since the last hash: which sc__gmem_hash_at
 * must hash again, all the others it takes from its cache. */
typedef struct dirty {
	uint64_t base[3], size[3];
	bool *line[3];
	uint64_t n;
} dirty_t;

static void dirty_mark(dirty_t *d, int a, uint64_t off, uint64_t len)
{
	for (uint64_t l = off / SC_LINE; l <= (off + len - 1) / SC_LINE; l++)
		if (!d->line[a][l]) {
			d->line[a][l] = true;
			d->n++;
		}
}

static void dirty_clear(dirty_t *d)
{
	for (int a = 0; a < 3; a++)
		memset(d->line[a], 0, (d->size[a] + SC_LINE - 1) / SC_LINE);
	d->n = 0;
}

/* The incremental hash and its lines equal a full rehash, and only the
 * written lines were hashed again. The hash is taken one cycle after the
 * writes, as at a pause point (a line written in the pause's own cycle
 * counts as written after it). */
static void expect_hash(sc_gpu_t *g, dirty_t *d, const char *when)
{
	g->cycle++;
	uint32_t nl = sc__gmem_nlines(&g->gmem);
	uint64_t *full = malloc(nl * sizeof *full);
	cr_assert(full);
	uint64_t want = sc__gmem_hash(g, full);
	cr_expect_eq(sc__gmem_hash_at(g, g->cycle), want, "%s: the incremental hash differs", when);
	cr_expect_eq(memcmp(g->trace->lh, full, nl * sizeof *full), 0, "%s: a line hash differs", when);
	cr_expect_eq(g->trace->rehashed, d->n, "%s: %llu lines hashed again, %llu written", when,
	             (unsigned long long)g->trace->rehashed, (unsigned long long)d->n);
	cr_expect_eq(sc_state_hash_part(g, sc_state_parts(g) - 1), want);
	dirty_clear(d);
	free(full);
}

/* sc_memfill's callback for the tests: copies a source buffer in. */
typedef struct {
	const uint8_t *src;
	uint64_t len;
} fill_src_t;

static int fill_from(void *ctx, void *host)
{
	const fill_src_t *f = ctx;
	memcpy(host, f->src, f->len);
	return 0;
}

Test(fault, incremental_memory_hash_equals_a_full_rehash)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	dirty_t d = {.size = {1000, 5000, 70001}};
	for (int a = 0; a < 3; a++) {
		d.base[a] = h_alloc(&h, d.size[a], NULL);
		cr_assert(d.line[a] = calloc((d.size[a] + SC_LINE - 1) / SC_LINE, 1));
	}
	cr_assert_eq(sc__trace_on(h.gpu, false), 0);
	sc_gpu_t *g = h.gpu;
	d.n = sc__gmem_nlines(&g->gmem); /* no cache yet: every line */
	expect_hash(g, &d, "first");
	srand(11);
	static uint8_t buf[70001];
	for (int round = 0; round < 40; round++) {
		for (int w = rand() % 6; w > 0; w--) {
			int a = rand() % 3;
			uint64_t off = (uint64_t)rand() % d.size[a], len = 1 + (uint64_t)rand() % (d.size[a] - off);
			if (rand() % 8 == 0)
				len = len > 600 ? 600 : len;
			for (uint64_t i = 0; i < len; i++)
				buf[i] = (uint8_t)rand();
			int kind = rand() % 3;
			if (kind == 0)
				cr_assert_eq(sc_memcpy_htod(g, d.base[a] + off, buf, len), 0);
			else if (kind == 1)
				cr_assert_eq(sc_memset(g, d.base[a] + off, rand(), len), 0);
			else
				cr_assert_eq(sc_memfill(g, d.base[a] + off, len, fill_from, &(fill_src_t){buf, len}), 0);
			dirty_mark(&d, a, off, len);
		}
		expect_hash(g, &d, "host writes");
	}
	/* a kernel's stores: out[0..32) of the third buffer, one line */
	uint64_t out = d.base[2] + 2 * SC_LINE;
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&out));
	dirty_mark(&d, 2, 2 * SC_LINE, 32 * 4);
	expect_hash(g, &d, "a kernel's stores");
	/* a cache started from hashes known elsewhere (an experiment starts
	 * from a golden checkpoint's row) */
	uint32_t nl = sc__gmem_nlines(&g->gmem);
	uint64_t *row = malloc(nl * sizeof *row);
	cr_assert(row);
	sc__gmem_hash(g, row);
	sc__gmem_cache_seed(g, row, nl, sc__gmem_layout(&g->gmem), g->cycle);
	cr_assert_eq(sc_memset(g, d.base[0] + 10, 7, 300), 0);
	dirty_mark(&d, 0, 10, 300);
	expect_hash(g, &d, "from a seeded row");
	/* a new allocation changes the layout: everything again */
	h_alloc(&h, 100, NULL);
	d.n = sc__gmem_nlines(&g->gmem);
	expect_hash(g, &d, "a new allocation");
	free(row);
	for (int a = 0; a < 3; a++)
		free(d.line[a]);
	h_fini(&h);
}

/* ---- the result record (SC_RT_RESULT_LIST) ---- */

/* A host program's X line: what sc_rt_result_format writes,
 * sc_rt_result_parse reads back; a line with a field missing, one too many
 * or out of its kind's range is refused. */
Test(fault, result_line_round_trip)
{
	sc_rt_result_t r = {.idx = 18446744073709551615ull, .kind = SC_RT_ENDED, .due = SC_DUE_TRAP, .cycles = 1234,
	                    .has_live = 1, .live = 77, .wstatus = 256, .wall = 0.25, .verdict = 2, .reason = "x",
	                    .note = "{\"n\":1}"};
	char line[512];
	sc_rt_result_format(&r, line, sizeof line);
	cr_expect_str_eq(line, "18446744073709551615 3 10 1234 1 77 256 0.250000 - - 0 0", "empty JSON fields as '-'");
	sc_rt_result_t back;
	cr_assert_eq(sc_rt_result_parse(line, &back), 0);
	cr_expect_eq(back.idx, r.idx);
	cr_expect_eq(back.kind, r.kind);
	cr_expect_eq(back.due, r.due);
	cr_expect_eq(back.cycles, r.cycles);
	cr_expect_eq(back.has_live, r.has_live);
	cr_expect_eq(back.live, r.live);
	cr_expect_eq(back.wstatus, r.wstatus);
	cr_expect_eq(back.wall, r.wall);
	cr_expect_str_eq(back.site, "");
	cr_expect_str_eq(back.effect, "");
	cr_expect_eq(back.verdict, -1, "not on the line");
	cr_expect_str_eq(back.reason, "");
	cr_expect_str_eq(back.note, "", "not on the line");
	/* a site and an effect travel as one word each */
	snprintf(r.site, sizeof r.site, "{\"target\":\"regfile\",\"insn\":\"add\\u0020%%r1\"}");
	snprintf(r.effect, sizeof r.effect, "{\"first\":\"read\",\"pc\":7}");
	sc_rt_result_format(&r, line, sizeof line);
	cr_assert_eq(sc_rt_result_parse(line, &back), 0, "%s", line);
	cr_expect_str_eq(back.site, r.site);
	cr_expect_str_eq(back.effect, r.effect);
	cr_expect_eq(sc_rt_result_parse(" 5 0 0 0 0 0 -1 0.5 - - 0 0\n", &back), 0, "as the program sends it");
	/* the first protection event and its cycle */
	r.prot = SC_PROT_MISCORRECTED;
	r.prot_cycle = 99;
	sc_rt_result_format(&r, line, sizeof line);
	cr_assert_eq(sc_rt_result_parse(line, &back), 0, "%s", line);
	cr_expect_eq(back.prot, SC_PROT_MISCORRECTED);
	cr_expect_eq(back.prot_cycle, 99);
	static const char *const bad[] = {"5 0 0 0 0 0 -1", "5 0 0 0 0 0 -1 0.5 - - 0 0 9", "5 6 0 0 0 0 -1 0.5 - - 0 0",
	                                  "5 -1 0 0 0 0 -1 0.5 - - 0 0", "5 0 99 0 0 0 -1 0.5 - - 0 0",
	                                  "x 0 0 0 0 0 -1 0.5 - - 0 0", "5 0 0 0 0 0 -1 0.5", "5 0 0 0 0 0 -1 0.5 - x 0 0",
	                                  "5 0 0 0 0 0 -1 0.5 [] - 0 0", "5 0 0 0 0 0 -1 0.5 - - 9 0",
	                                  "5 0 0 0 0 0 -1 0.5 - - 0", ""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_expect_eq(sc_rt_result_parse(bad[i], &back), SC_EINVAL, "'%s' accepted", bad[i]);
}
