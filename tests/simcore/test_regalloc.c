/* Liveness and register allocation (simcore/regalloc.c): live sets in
 * straight code, loops, divergent branches, around calls and through
 * guarded definitions; the allocation invariants (no two values live at
 * once share a slot, no read finds another value's write) checked by
 * sc__regalloc_verify on hand-written kernels and on every committed PTX,
 * and shown to catch corrupted allocations; outputs in alloc mode against
 * host models, including the SIMT cases; the public API of the mode; and
 * which virtual register a physical slot holds at a pc (sc__vreg_at). */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* ---------------------------------------------------------------- helpers */

/* Register numbering of every kernel below in ptx mode: %rK is slot K,
 * %rdK slot 16 + 2K, %pK predicate K (value 32 + K in liveness terms). */
#define REGS                                                                          \
	"	.reg .b32 %r<16>;\n"                                                          \
	"	.reg .b64 %rd<8>;\n"                                                          \
	"	.reg .pred %p<4>;\n"
#define R(k) (k)
#define RD(k) (16 + 2 * (k))
#define P(k) (32 + (k))

/* The pc of the instruction on the (unique) PTX line containing `marker`. */
static uint32_t pc_of(const sc_module_t *m, const char *ptx, const char *marker)
{
	const char *at = strstr(ptx, marker);
	cr_assert(at, "marker '%s' not in the PTX", marker);
	cr_assert_null(strstr(at + 1, marker), "marker '%s' is not unique", marker);
	uint32_t line = 1;
	for (const char *c = ptx; c < at; c++)
		line += *c == '\n';
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		if (m->line[pc] == line)
			return pc;
	cr_assert_fail("no instruction on line %u ('%s')", line, marker);
	return 0;
}

/* Liveness of function `fn` of a module loaded in ptx mode. */
static void live_of(const sc_module_t *m, const char *fn, sc_live_t *lv)
{
	const sc_func_t *f = h_func(m, fn);
	cr_assert_eq(sc__live(m->code, f->entry_pc, f->end_pc, f->reg_base, f->nregs, f->pred_base, f->npreds, lv), 0);
}

static bool live_in(const sc_live_t *lv, uint32_t pc, uint32_t v) { return sc__live_at(lv, lv->in, pc, v); }
static bool live_out(const sc_live_t *lv, uint32_t pc, uint32_t v) { return sc__live_at(lv, lv->out, pc, v); }

/* Slot index of operand `pos` of the instruction at pc (after relocation). */
static uint32_t slot_at(const sc_module_t *m, uint32_t pc, unsigned pos)
{
	return SC_OPND_IDX(m->code[pc].opnd[pos]);
}

static void h_init_mode(h_ctx_t *h, sc_regs_t mode)
{
	h_init(h);
	h->opt.regs = mode;
}

/* Runs k(u32 *out) on `n` threads (one block) in `mode`; out gets n words. */
static void run_words(const char *ptx, sc_regs_t mode, uint32_t n, uint32_t words, uint32_t *out, uint32_t *regs)
{
	h_ctx_t h;
	h_init_mode(&h, mode);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, (uint64_t)n * words * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(n), 0, H_ARGS(&d));
	h_read(&h, out, d, (uint64_t)n * words * 4);
	if (regs)
		*regs = h_last(&h)->regs_per_thread;
	if (mode == SC_REGS_ALLOC) {
		char msg[256] = "";
		cr_assert_eq(sc__regalloc_verify(h.mod, msg, sizeof msg), 0, "%s", msg);
	}
	h_fini(&h);
}

static void run_mode(const char *ptx, sc_regs_t mode, uint32_t n, uint32_t *out, uint32_t *regs)
{
	run_words(ptx, mode, n, 1, out, regs);
}

/* %rd1 = out + tid * 4, %r0 = tid */
#define PRO                                                                           \
	"	mov.u32 %r0, %tid.x;\n"                                                       \
	"	ld.param.u64 %rd0, [out];\n"                                                  \
	"	mul.wide.u32 %rd2, %r0, 4;\n"                                                 \
	"	add.s64 %rd1, %rd0, %rd2;\n"

/* ---------------------------------------------------------------- liveness */

static const char straight[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mov.u32 %r1, 5;            // def r1\n"
	"	mov.u32 %r2, 7;            // def r2\n"
	"	add.u32 %r3, %r1, %r2;     // last use of r1 and r2\n"
	"	mul.lo.u32 %r4, %r3, %r3;  // last use of r3\n"
	"	st.global.u32 [%rd1], %r4; // store\n"
	"	ret;\n}\n";

Test(live, straight_line)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, straight);
	sc_live_t lv;
	live_of(m, "k", &lv);
	uint32_t d1 = pc_of(m, straight, "def r1"), d2 = pc_of(m, straight, "def r2");
	uint32_t add = pc_of(m, straight, "last use of r1"), mul = pc_of(m, straight, "last use of r3");
	uint32_t st = pc_of(m, straight, "// store");
	cr_expect_not(live_in(&lv, d1, R(1)), "r1 is not live before its definition");
	cr_expect(live_out(&lv, d1, R(1)));
	cr_expect(live_in(&lv, d2, R(1)) && live_out(&lv, d2, R(2)));
	cr_expect(live_in(&lv, add, R(1)) && live_in(&lv, add, R(2)));
	cr_expect_not(live_out(&lv, add, R(1)), "r1 dies at its last use");
	cr_expect_not(live_out(&lv, add, R(2)));
	cr_expect(live_out(&lv, add, R(3)));
	cr_expect_not(live_out(&lv, mul, R(3)));
	cr_expect(live_in(&lv, st, RD(1)) && live_in(&lv, st, R(4)), "address base and stored value are uses");
	cr_expect_not(live_out(&lv, st, RD(1)));
	/* the 64-bit address stays live from its definition to the store */
	for (uint32_t pc = pc_of(m, straight, "add.s64") + 1; pc <= st; pc++)
		cr_expect(live_in(&lv, pc, RD(1)), "rd1 live at pc %u", pc);
	cr_expect_not(live_in(&lv, lv.lo, RD(1)), "nothing is live at the entry");
	sc__live_free(&lv);
	h_fini(&h);
}

static const char loop[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mov.u32 %r5, 100;          // def bound\n"
	"	mov.u32 %r6, 0;            // def acc\n"
	"	mov.u32 %r7, 0;            // def i\n"
	"L_head:\n"
	"	mul.lo.u32 %r8, %r7, 3;    // temp\n"
	"	add.u32 %r6, %r6, %r8;     // acc +=\n"
	"	add.u32 %r7, %r7, 1;       // i++\n"
	"	setp.lt.u32 %p1, %r7, %r0; // compare\n"
	"	@%p1 bra L_head;           // back edge\n"
	"	add.u32 %r9, %r6, %r5;     // after loop\n"
	"	st.global.u32 [%rd1], %r9;\n"
	"	ret;\n}\n";

Test(live, loop_carried_values)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, loop);
	sc_live_t lv;
	live_of(m, "k", &lv);
	uint32_t head = pc_of(m, loop, "// temp"), back = pc_of(m, loop, "back edge");
	uint32_t after = pc_of(m, loop, "after loop");
	for (uint32_t pc = head; pc <= back; pc++) {
		/* defined before the loop, used after it: live all through */
		cr_expect(live_in(&lv, pc, R(5)), "bound live at pc %u", pc);
		/* loop-carried: live around the back edge */
		cr_expect(live_in(&lv, pc, R(6)), "acc live at pc %u", pc);
		cr_expect(live_in(&lv, pc, R(0)), "tid live at pc %u", pc);
	}
	cr_expect(live_out(&lv, back, R(7)), "i is live across the back edge");
	cr_expect(live_in(&lv, head, R(7)));
	cr_expect_not(live_in(&lv, head, R(8)), "the temporary is dead across the back edge");
	cr_expect_not(live_out(&lv, back, P(1)));
	cr_expect(live_in(&lv, back, P(1)), "a guard is a use");
	cr_expect_not(live_in(&lv, after, R(7)), "i dies with the loop");
	sc__live_free(&lv);
	h_fini(&h);
}

/* Odd lanes take the "then" side; r6 is defined before the branch and
 * again on the then side, and is used after the join; r5 lives only on the
 * else side; r10 only on the then side. */
static const char diverge[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	and.b32 %r2, %r0, 1;\n"
	"	setp.eq.u32 %p1, %r2, 0;\n"
	"	mov.u32 %r5, 7;            // def else-only\n"
	"	mov.u32 %r6, 100;          // def joined\n"
	"	@%p1 bra L_else;           // branch\n"
	"	mul.lo.u32 %r10, %r0, 9;   // then-only temp\n"
	"	add.u32 %r6, %r10, 1000;   // then def\n"
	"	bra.uni L_join;            // then end\n"
	"L_else:\n"
	"	add.u32 %r11, %r5, %r0;    // else use\n"
	"	add.u32 %r6, %r6, %r11;    // else def\n"
	"L_join:\n"
	"	st.global.u32 [%rd1], %r6; // join\n"
	"	ret;\n}\n";

static uint32_t diverge_model(uint32_t t) { return (t & 1) ? t * 9 + 1000 : 100 + 7 + t; }

Test(live, divergent_branches)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, diverge);
	sc_live_t lv;
	live_of(m, "k", &lv);
	uint32_t br = pc_of(m, diverge, "// branch"), then_temp = pc_of(m, diverge, "then-only temp");
	uint32_t then_def = pc_of(m, diverge, "then def"), else_use = pc_of(m, diverge, "else use");
	uint32_t join = pc_of(m, diverge, "// join");
	cr_expect(live_out(&lv, br, R(5)), "r5 is live into the else side");
	cr_expect_not(live_in(&lv, then_temp, R(5)), "and not on the then side");
	cr_expect_not(live_in(&lv, then_def, R(5)));
	cr_expect(live_in(&lv, else_use, R(6)), "r6's first value reaches the join through the else side");
	cr_expect_not(live_in(&lv, then_temp, R(6)), "the then side redefines r6 before any use");
	cr_expect(live_out(&lv, then_def, R(6)));
	cr_expect(live_in(&lv, join, R(6)));
	cr_expect_not(live_in(&lv, join, R(10)) || live_in(&lv, else_use, R(10)), "r10 lives on the then side only");
	sc__live_free(&lv);
	h_fini(&h);
}

Test(alloc, divergent_branches_keep_both_sides)
{
	/* The warp runs both sides one after the other. r6 (defined on the then
	 * side, live at the join) and r5 (live on the else side) are live
	 * together on the else path, so they never share a slot; r10 lives on
	 * the then side only, so it may take the slot of r0 or r5, which the
	 * else side still reads: the then side writes only odd lanes, and the
	 * else side reads them in even lanes. */
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, diverge);
	uint32_t s5 = slot_at(m, pc_of(m, diverge, "def else-only"), 0);
	uint32_t s6 = slot_at(m, pc_of(m, diverge, "then def"), 0);
	uint32_t s10 = slot_at(m, pc_of(m, diverge, "then-only temp"), 0);
	uint32_t s0 = slot_at(m, pc_of(m, diverge, "else use"), 2);
	cr_expect_neq(s5, s6, "a value live out of one side and one live on the other side share slot %u", s5);
	cr_expect_neq(s0, s6);
	cr_expect(s10 == s5 || s10 == s0, "the then-only temporary shares a slot the else side reads (%u; r0 %u, r5 %u)",
	          s10, s0, s5);
	h_fini(&h);
	uint32_t out[64], ref[64], regs_ptx, regs_alloc;
	run_mode(diverge, SC_REGS_UNALLOC, 64, ref, &regs_ptx);
	run_mode(diverge, SC_REGS_ALLOC, 64, out, &regs_alloc);
	for (uint32_t t = 0; t < 64; t++) {
		cr_expect_eq(ref[t], diverge_model(t), "ptx mode, thread %u", t);
		cr_expect_eq(out[t], diverge_model(t), "alloc mode, thread %u", t);
	}
	cr_expect_lt(regs_alloc, regs_ptx);
}

/* @p mov r3, 5 keeps r3's old value live: lanes where p is false still
 * read the 1 written before it. r4 is dead before the guarded definition
 * and must not take r3's slot. */
static const char guarded[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mov.u32 %r3, 1;            // first def\n"
	"	and.b32 %r4, %r0, 3;       // r4\n"
	"	setp.eq.u32 %p2, %r4, 0;   // last use of r4\n"
	"	mul.lo.u32 %r7, %r0, 2;    // def r7\n"
	"	@%p2 mov.u32 %r3, 5;       // guarded def\n"
	"	add.u32 %r8, %r3, %r7;     // use\n"
	"	st.global.u32 [%rd1], %r8;\n"
	"	ret;\n}\n";

static uint32_t guarded_model(uint32_t t) { return ((t & 3) == 0 ? 5 : 1) + 2 * t; }

Test(live, guarded_definition_does_not_kill)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, guarded);
	sc_live_t lv;
	live_of(m, "k", &lv);
	uint32_t g = pc_of(m, guarded, "guarded def"), first = pc_of(m, guarded, "first def");
	cr_expect(live_in(&lv, g, R(3)), "the old r3 stays live through @p mov");
	cr_expect(live_in(&lv, g, P(2)), "the guard is read");
	cr_expect(live_out(&lv, first, R(3)), "so the first definition is live");
	for (uint32_t pc = first + 1; pc <= g; pc++)
		cr_expect(live_in(&lv, pc, R(3)), "r3 live at pc %u", pc);
	/* an unguarded definition does kill */
	uint32_t d7 = pc_of(m, guarded, "def r7");
	cr_expect_not(live_in(&lv, d7, R(7)));
	sc__live_free(&lv);
	h_fini(&h);

	uint32_t out[32];
	run_mode(guarded, SC_REGS_ALLOC, 32, out, NULL);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], guarded_model(t), "thread %u", t);
	h_init_mode(&h, SC_REGS_ALLOC);
	m = h_load_ok(&h, guarded);
	uint32_t s3 = slot_at(m, g, 0);
	cr_expect_neq(slot_at(m, pc_of(m, guarded, "// r4"), 0), s3);
	cr_expect_neq(slot_at(m, pc_of(m, guarded, "def r7"), 0), s3);
	h_fini(&h);
}

/* A kernel keeps r5 live across a call; r6 dies before it. */
static const char calls[] = H_PTX_HEAD
	".func (.param .b32 rv) twice(.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	ld.param.b32 %r1, [a];\n"
	"	add.u32 %r2, %r1, %r1;     // callee\n"
	"	st.param.b32 [rv], %r2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mul.lo.u32 %r5, %r0, 3;    // def r5\n"
	"	add.u32 %r6, %r0, 11;      // def r6\n"
	"	{\n"
	"	.param .b32 a;\n"
	"	.param .b32 rv;\n"
	"	st.param.b32 [a], %r6;     // last use of r6\n"
	"	call.uni (rv), twice, (a); // the call\n"
	"	ld.param.b32 %r7, [rv];\n"
	"	}\n"
	"	add.u32 %r8, %r7, %r5;     // use r5\n"
	"	st.global.u32 [%rd1], %r8;\n"
	"	ret;\n}\n";

Test(live, across_calls)
{
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, calls);
	sc_live_t lv;
	live_of(m, "k", &lv);
	uint32_t call = pc_of(m, calls, "the call");
	cr_expect(live_in(&lv, call, R(5)) && live_out(&lv, call, R(5)), "r5 is live across the call");
	cr_expect_not(live_out(&lv, call, R(6)), "r6 is not");
	cr_expect(live_out(&lv, call, RD(1)), "the output address is live across the call too");
	sc__live_free(&lv);
	/* the callee's own liveness, in its own numbering */
	sc_live_t fl;
	live_of(m, "twice", &fl);
	uint32_t c = pc_of(m, calls, "// callee");
	cr_expect(live_in(&fl, c, 1) && !live_out(&fl, c, 1));
	sc__live_free(&fl);
	h_fini(&h);
}

Test(alloc, calls_use_register_windows)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, calls);
	const sc_func_t *k = h_func(m, "k"), *tw = h_func(m, "twice");
	uint32_t call = pc_of(m, calls, "the call");
	uint32_t s5 = slot_at(m, pc_of(m, calls, "def r5"), 0);
	/* every slot live across the call lies below the callee's window */
	sc_live_t lv;
	cr_assert_eq(sc__live(m->code, k->entry_pc, k->end_pc, k->reg_base, k->nregs, k->pred_base, k->npreds, &lv), 0);
	for (uint32_t v = 0; v < k->nregs; v++)
		if (live_out(&lv, call, v))
			cr_expect_lt(v, tw->reg_base, "slot %u live across the call is in the callee's window", v);
	sc__live_free(&lv);
	cr_expect_lt(s5, tw->reg_base);
	cr_expect_lt(tw->reg_base, k->nregs, "the window overlaps the caller's slots that are dead across the call");
	cr_expect_eq(k->regs_total, tw->reg_base + tw->nregs > k->nregs ? tw->reg_base + tw->nregs : k->nregs);
	char msg[256] = "";
	cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s", msg);
	/* a callee window moved onto a live slot is caught */
	sc_func_t *tww = (sc_func_t *)tw;
	uint32_t keep = tww->reg_base;
	tww->reg_base = s5;
	for (uint32_t pc = tw->entry_pc; pc < tw->end_pc; pc++)
		for (int o = 0; o < 6; o++) {
			unsigned kd = SC_OPND_KIND(m->code[pc].opnd[o]);
			if (kd == SC_K_R32)
				m->code[pc].opnd[o] = SC_OPND(kd, SC_OPND_IDX(m->code[pc].opnd[o]) - keep + s5);
		}
	cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), SC_EPARSE);
	cr_expect(strstr(msg, "a call overwrote"), "message: %s", msg);
	h_fini(&h);
	uint32_t out[32];
	run_mode(calls, SC_REGS_ALLOC, 32, out, NULL);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], 2 * (t + 11) + 3 * t, "thread %u", t);
}

/* ---------------------------------------------------------------- invariants */

Test(alloc, verify_catches_shared_live_slots)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, straight);
	char msg[256] = "";
	cr_assert_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s", msg);
	uint32_t d2 = pc_of(m, straight, "def r2"), add = pc_of(m, straight, "last use of r1");
	uint32_t s1 = slot_at(m, pc_of(m, straight, "def r1"), 0);
	cr_assert_neq(slot_at(m, d2, 0), s1, "r1 and r2 are live together");
	/* put r2 in r1's slot at its definition only: one value in two places */
	sc_insn_t keep = m->code[d2];
	m->code[d2].opnd[0] = SC_OPND(SC_K_R32, s1);
	cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), SC_EPARSE);
	cr_expect(strstr(msg, "two places"), "message: %s", msg);
	/* and at its use too: two values live at once in one slot */
	m->code[add].opnd[2] = SC_OPND(SC_K_R32, s1);
	cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), SC_EPARSE);
	cr_expect(strstr(msg, "share slot"), "message: %s", msg);
	m->code[d2] = keep;
	h_fini(&h);
}

/* Calls check(m, path) on every committed PTX file, loaded in alloc mode;
 * expects to find them all (run from the repository root). */
static void each_committed_module(void (*check)(sc_module_t *m, const char *path))
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx", "tests/simcore/data/*.ptx"};
	int files = 0;
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		glob_t g;
		if (glob(patterns[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++) {
			h_ctx_t h;
			h_init_mode(&h, SC_REGS_ALLOC);
			h_start(&h);
			sc_module_t *m;
			int rc = sc_module_load_file(h.gpu, g.gl_pathv[j], &m);
			cr_assert_eq(rc, 0, "%s: %s", g.gl_pathv[j], sc_gpu_errmsg(h.gpu));
			check(m, g.gl_pathv[j]);
			files++;
			h_fini(&h);
		}
		globfree(&g);
	}
	cr_expect_geq(files, 38, "found %d PTX files (run from the repository root)", files);
}

static void verify_and_shrink(sc_module_t *m, const char *path)
{
	char msg[256] = "";
	cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s", msg);
	const char *k;
	for (uint32_t n = 0; (k = sc_kernel_name(m, n)) != NULL; n++) {
		sc_kernel_regs_t kr;
		cr_assert_eq(sc_kernel_regs(m, k, &kr), 0);
		cr_expect_eq(kr.mode, SC_REGS_ALLOC);
		cr_expect_leq(kr.regs, kr.regs_ptx, "%s %s: %u > %u", path, k, kr.regs, kr.regs_ptx);
		cr_expect_leq(kr.preds, kr.preds_ptx, "%s %s", path, k);
		cr_expect_gt(kr.regs, 0);
	}
}

Test(alloc, every_committed_kernel_verifies_and_shrinks) { each_committed_module(verify_and_shrink); }

/* Even lanes shuffle r3 from odd lanes, which are inactive then: they
 * took the other side, which the warp runs first, and r3 is dead there, so
 * without pinning the odd lanes' r6 could overwrite r3's slot before the
 * even lanes read it. Pinned, r3 holds what it holds in ptx mode. */
static const char shfl[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mul.lo.u32 %r3, %r0, 5;     // def src\n"
	"	and.b32 %r9, %r0, 1;\n"
	"	setp.eq.u32 %p1, %r9, 0;\n"
	"	@%p1 bra L_even;\n"
	"	mul.lo.u32 %r6, %r0, 7;     // odd lanes\n"
	"	bra.uni L_join;\n"
	"L_even:\n"
	"	shfl.sync.bfly.b32 %r6, %r3, 1, 31, 0x55555555; // the shuffle\n"
	"L_join:\n"
	"	st.global.u32 [%rd1], %r6;\n"
	"	ret;\n}\n";

Test(alloc, shuffle_sources_are_pinned)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, shfl);
	uint32_t src = slot_at(m, pc_of(m, shfl, "the shuffle"), 2);
	const sc_func_t *k = h_func(m, "k");
	for (uint32_t pc = k->entry_pc; pc < k->end_pc; pc++) {
		const sc_insn_t *in = &m->code[pc];
		for (unsigned o = 0; o < SC_NDST(in); o++) {
			unsigned kd = SC_OPND_KIND(in->opnd[o]), i = SC_OPND_IDX(in->opnd[o]);
			if (pc == pc_of(m, shfl, "def src") || (kd != SC_K_R32 && kd != SC_K_R64))
				continue;
			cr_expect(i + (kd == SC_K_R64) < src || i > src, "pc %u writes the pinned slot %u", pc, src);
		}
	}
	h_fini(&h);
	uint32_t a[32], b[32];
	run_mode(shfl, SC_REGS_UNALLOC, 32, a, NULL);
	run_mode(shfl, SC_REGS_ALLOC, 32, b, NULL);
	for (uint32_t t = 0; t < 32; t++) {
		cr_expect_eq(a[t], (t & 1) ? 7 * t : 5 * (t ^ 1), "thread %u", t);
		cr_expect_eq(b[t], a[t], "thread %u", t);
	}
}

/* ---------------------------------------------------------------- the mode */

Test(alloc, options_and_names)
{
	sc_regs_t r = SC_REGS_ALLOC;
	cr_expect_eq(sc_regs_parse("ptx", &r), 0);
	cr_expect_eq(r, SC_REGS_PTX);
	cr_expect_eq(sc_regs_parse("unalloc", &r), 0);
	cr_expect_eq(r, SC_REGS_UNALLOC);
	cr_expect_eq(sc_regs_parse("alloc", &r), 0);
	cr_expect_eq(r, SC_REGS_ALLOC);
	cr_expect_eq(sc_regs_parse("sass", &r), SC_EINVAL);
	cr_expect_eq(sc_regs_parse(NULL, &r), SC_EINVAL);
	cr_expect_str_eq(sc_regs_name(SC_REGS_PTX), "ptx");
	cr_expect_str_eq(sc_regs_name(SC_REGS_UNALLOC), "unalloc");
	cr_expect_str_eq(sc_regs_name(SC_REGS_ALLOC), "alloc");
	cr_expect_null(sc_regs_name((sc_regs_t)7));
	sc_options_t zero = {0};
	cr_expect_eq(zero.regs, SC_REGS_UNALLOC, "zero-initialised options mean unalloc mode");
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_gpu_t *g = NULL;
	sc_options_t bad = {.regs = (sc_regs_t)3};
	cr_expect_eq(sc_gpu_create(&cfg, &bad, &g), SC_EINVAL);
	cr_expect_null(g);
	/* unalloc mode: both counts the same */
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, straight);
	sc_kernel_regs_t kr;
	cr_assert_eq(sc_kernel_regs(m, "k", &kr), 0);
	cr_expect_eq(kr.mode, SC_REGS_UNALLOC);
	cr_expect_eq(kr.regs, kr.regs_ptx);
	cr_expect_eq(kr.regs_ptx, 32, "16 x b32 + 8 x b64");
	cr_expect_eq(sc_kernel_regs(m, "nope", &kr), SC_ENOTFOUND);
	cr_expect_str_eq(sc_kernel_name(m, 0), "k");
	cr_expect_null(sc_kernel_name(m, 1));
	h_fini(&h);
	/* ptx mode loads the module allocated: it runs alloc mode's machine */
	sc_options_t po = {.regs = SC_REGS_PTX};
	cr_assert_eq(sc_gpu_create(&cfg, &po, &g), 0);
	cr_assert_eq(sc_module_load_text(g, "straight", straight, &m), 0, "%s", sc_gpu_errmsg(g));
	cr_assert_eq(sc_kernel_regs(m, "k", &kr), 0);
	cr_expect_eq(kr.mode, SC_REGS_ALLOC);
	cr_expect_eq(kr.regs_ptx, 32);
	cr_expect_lt(kr.regs, kr.regs_ptx);
	sc_gpu_destroy(g);
}

Test(alloc, counts_follow_the_allocation)
{
	/* straight: tid, out (2), address (2), r1/r2 then r3 then r4: at most
	 * 2 + 2 + 2 + 1 = 7 slots live at once (tid dies at the mul.wide) */
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, straight);
	sc_kernel_regs_t kr;
	cr_assert_eq(sc_kernel_regs(m, "k", &kr), 0);
	cr_expect_eq(kr.regs_ptx, 32);
	cr_expect_leq(kr.regs, 6, "allocated %u slots", kr.regs);
	cr_expect_geq(kr.regs, 4, "rd1 and two 32-bit values are live at the add");
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	h_launch_ok(&h, "k", H_D1(2), H_D1(64), 0, H_ARGS(&d));
	const sc_launch_stats_t *l = h_last(&h);
	cr_expect_eq(l->regs_per_thread, kr.regs, "launches use the allocated count");
	uint32_t out[64];
	h_read(&h, out, d, sizeof out);
	for (int t = 0; t < 64; t++)
		cr_expect_eq(out[t], 144u);
	h_fini(&h);
}

Test(alloc, max_regs_per_thread_is_a_launch_error)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	h.cfg.max_regs_per_thread = 3;
	sc_module_t *m = h_load_ok(&h, straight);
	(void)m;
	uint64_t d = h_alloc(&h, 64 * 4, NULL);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d)), SC_ELAUNCH);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "max_regs_per_thread"), "%s", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
	/* ptx mode applies no limit */
	h_init(&h);
	h.cfg.max_regs_per_thread = 3;
	h_load_ok(&h, straight);
	d = h_alloc(&h, 64 * 4, NULL);
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d)), 0);
	h_fini(&h);
}

Test(alloc, loop_outputs_match_ptx_mode)
{
	uint32_t a[64], b[64], ra, rb;
	run_mode(loop, SC_REGS_UNALLOC, 64, a, &ra);
	run_mode(loop, SC_REGS_ALLOC, 64, b, &rb);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t acc = 0, i = 0;
		do {
			acc += i * 3;
			i++;
		} while (i < t);
		cr_expect_eq(a[t], acc + 100, "thread %u", t);
		cr_expect_eq(b[t], a[t], "thread %u", t);
	}
	cr_expect_lt(rb, ra);
}

/* ---------------------------------------------------------------- random programs */

/* Random kernels (h_random_program, randprog.c): each thread stores
 * %r1..%r11; both modes must store the same words, and every allocation
 * must verify. */
Test(alloc, random_programs_match_ptx_mode)
{
	static char ptx[1 << 16];
	int shared_slots = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		h_random_program(seed, ptx, sizeof ptx);
		uint32_t a[64 * 11], b[64 * 11], ra, rb;
		run_words(ptx, SC_REGS_UNALLOC, 64, 11, a, &ra);
		run_words(ptx, SC_REGS_ALLOC, 64, 11, b, &rb);
		cr_assert_arr_eq(a, b, sizeof a, "seed %llu: alloc outputs differ from ptx mode\n%s", (unsigned long long)seed, ptx);
		cr_expect_leq(rb, ra);
		shared_slots += rb < 11 + 2 + 4;
	}
	cr_expect_gt(shared_slots, 0, "the allocator shares slots in some program");
}

/* ---------------------------------------------------------------- names */

/* r1 and r2 share a slot: the copy's destination takes its dying source's
 * slot first (the mov partner). p1 and the 64-bit rd1 for the other
 * kinds. */
static const char share[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n{\n" REGS PRO
	"	mov.u32 %r1, 5;            // def r1\n"
	"	add.u32 %r1, %r1, %r0;     // r1 read\n"
	"	mov.u32 %r2, %r1;          // the copy\n"
	"	mul.lo.u32 %r3, %r2, %r2;  // r2 read\n"
	"	setp.lt.u32 %p1, %r3, 50;  // def p1\n"
	"	selp.u32 %r4, 1, 2, %p1;   // p1 read\n"
	"	st.global.u32 [%rd1], %r4; // store\n"
	"	ret;                       // the end\n}\n";

/* sc__vreg_at must find `name` (ptx slot want) in phys at the marked pc. */
static void expect_vreg(const sc_module_t *m, const char *ptx, const char *at, uint32_t phys, bool pred,
                        uint32_t want, const char *name)
{
	uint32_t pc = pc_of(m, ptx, at), got = UINT32_MAX;
	cr_expect_eq(sc__vreg_at(m, pc, phys, pred, &got), 0, "'%s': slot %u holds no register", at, phys);
	cr_expect_eq(got, want, "'%s': slot %u holds ptx slot %u, not %u", at, phys, got, want);
	char buf[16];
	cr_expect_eq(sc__reg_name(m, sc__func_at(m, pc), got, pred, buf, sizeof buf), 0);
	cr_expect_str_eq(buf, name, "'%s': slot %u", at, phys);
}

static void expect_no_vreg(const sc_module_t *m, const char *ptx, const char *at, uint32_t phys, bool pred)
{
	uint32_t got = UINT32_MAX;
	cr_expect_eq(sc__vreg_at(m, pc_of(m, ptx, at), phys, pred, &got), 1, "'%s': slot %u holds ptx slot %u", at,
	             phys, got);
}

Test(names, alloc_slot_holds_one_register_at_a_time)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, share);
	uint32_t s1 = slot_at(m, pc_of(m, share, "def r1"), 0);
	cr_assert_eq(slot_at(m, pc_of(m, share, "the copy"), 0), s1, "the copy coalesces r1 and r2");
	expect_no_vreg(m, share, "def r1", s1, false);
	expect_vreg(m, share, "r1 read", s1, false, R(1), "%r1");
	expect_vreg(m, share, "the copy", s1, false, R(1), "%r1");
	expect_vreg(m, share, "r2 read", s1, false, R(2), "%r2");
	expect_no_vreg(m, share, "the end", s1, false);
	/* both halves of rd1 (the store's address) */
	uint32_t d1 = slot_at(m, pc_of(m, share, "add.s64 %rd1"), 0);
	expect_vreg(m, share, "store", d1, false, RD(1), "%rd1");
	expect_vreg(m, share, "store", d1 + 1, false, RD(1) + 1, "%rd1");
	unsigned half = 9;
	cr_expect_eq(sc__reg_type(m, h_func(m, "k"), RD(1) + 1, false, NULL, &half), 0);
	cr_expect_eq(half, 1);
	/* a predicate */
	uint32_t p1 = slot_at(m, pc_of(m, share, "def p1"), 0);
	expect_no_vreg(m, share, "def p1", p1, true);
	expect_vreg(m, share, "p1 read", p1, true, 1, "%p1");
	expect_no_vreg(m, share, "store", p1, true);
	/* outside the kernel's window, or no function at the pc */
	const sc_func_t *k = h_func(m, "k");
	expect_no_vreg(m, share, "r1 read", k->reg_base + k->nregs, false);
	uint32_t got;
	cr_expect_eq(sc__vreg_at(m, m->ncode, s1, false, &got), 1);
	/* computed lazily, once; prepare leaves the answers as they are */
	cr_expect(k->vlive_done);
	cr_expect_eq(sc__vreg_prepare(m), 0);
	expect_vreg(m, share, "r2 read", s1, false, R(2), "%r2");
	h_fini(&h);
}

Test(names, ptx_slot_is_the_register)
{
	h_ctx_t h;
	h_init_mode(&h, SC_REGS_UNALLOC);
	sc_module_t *m = h_load_ok(&h, share);
	const sc_func_t *k = h_func(m, "k");
	cr_expect_eq(sc__vreg_prepare(m), 0);
	for (uint32_t pc = k->entry_pc; pc < k->end_pc; pc++) {
		uint32_t got;
		for (uint32_t s = 0; s < k->nregs; s++) {
			cr_expect_eq(sc__vreg_at(m, pc, s, false, &got), 0);
			cr_expect_eq(got, s, "pc %u slot %u: %u", pc, s, got);
		}
		cr_expect_eq(sc__vreg_at(m, pc, k->nregs, false, &got), 1);
		cr_expect_eq(sc__vreg_at(m, pc, 1, true, &got), 0);
		cr_expect_eq(got, 1);
	}
	cr_expect_null(k->vlive, "ptx mode needs no liveness");
	h_fini(&h);
}

/* Inside `twice`, called from k: r5, live across the call, lies below the
 * callee's window and is k's; the callee's own slots are its own. */
Test(names, registers_of_callers_in_frames)
{
	for (int mode = 0; mode < 2; mode++) {
		h_ctx_t h;
		h_init_mode(&h, mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC);
		sc_module_t *m = h_load_ok(&h, calls);
		const sc_func_t *k = h_func(m, "k"), *tw = h_func(m, "twice"), *own = NULL;
		uint32_t c = pc_of(m, calls, "// callee"), ret[1] = {pc_of(m, calls, "the call") + 1};
		uint32_t s5 = slot_at(m, pc_of(m, calls, "def r5"), 0), q1 = slot_at(m, c, 1), got = UINT32_MAX;
		char buf[16];
		cr_assert_lt(s5, tw->reg_base);
		cr_expect_eq(sc__vreg_at(m, c, s5, false, &got), 1, "mode %d: a caller's slot is not the callee's", mode);
		cr_expect_eq(sc__vreg_in_frames(m, c, ret, 1, s5, false, &got, &own), 0, "mode %d", mode);
		cr_expect_eq(own, k);
		cr_expect_eq(got, R(5), "mode %d: %u", mode, got);
		cr_expect_eq(sc__vreg_in_frames(m, c, ret, 1, q1, false, &got, &own), 0);
		cr_expect_eq(own, tw);
		cr_expect_eq(sc__reg_name(m, own, got, false, buf, sizeof buf), 0);
		cr_expect_str_eq(buf, "%r1", "mode %d", mode);
		/* back in k after the call: the callee's slots */
		uint32_t after = pc_of(m, calls, "use r5");
		if (mode) {
			/* alloc: k's own, whatever it keeps there; twice's r1 is gone */
			uint32_t kg = UINT32_MAX;
			int rc = sc__vreg_at(m, after, q1, false, &kg);
			cr_expect_eq(sc__vreg_in_frames(m, after, NULL, 0, q1, false, &got, &own), rc);
			cr_expect(rc != 0 || (own == k && got == kg));
		} else {
			/* ptx mode: twice keeps its registers until its next call */
			cr_expect_eq(sc__vreg_at(m, after, q1, false, &got), 1);
			cr_expect_eq(sc__vreg_in_frames(m, after, NULL, 0, q1, false, &got, &own), 0);
			cr_expect_eq(own, tw);
			cr_expect_eq(got, q1);
		}
		h_fini(&h);
	}
}

/* Every register an instruction reads is live into it: in alloc mode the
 * slot it reads must name the operand's ptx register, in every committed
 * PTX file, and every ptx operand has a declared name of its width. */
static void check_reads(sc_module_t *m, const char *file)
{
	cr_assert_eq(sc__vreg_prepare(m), 0);
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		const sc_func_t *f = sc__func_at(m, pc);
		sc_regref_t a[7], b[7];
		unsigned na = sc__insn_regs(&m->code[pc], a), nb = sc__insn_regs(&m->code_ptx[pc], b);
		cr_assert_eq(na, nb);
		for (unsigned j = 0; j < na; j++) {
			uint8_t type = 0;
			cr_expect_eq(sc__reg_type(m, f, b[j].idx, b[j].pred, &type, NULL), 0, "%s pc %u: ptx slot %u unnamed",
			             file, pc, b[j].idx);
			cr_expect_eq(b[j].w == 2, sc__type_bits(type) == 64, "%s pc %u", file, pc);
			for (uint32_t h = 0; h < a[j].w && !a[j].def; h++) {
				uint32_t got = UINT32_MAX;
				int rc = sc__vreg_at(m, pc, a[j].idx + h, a[j].pred, &got);
				cr_expect(rc == 0 && got == b[j].idx + h, "%s pc %u: %s %u holds %u (rc %d), not %u", file, pc,
				          a[j].pred ? "predicate" : "slot", a[j].idx + h, got, rc, b[j].idx + h);
			}
		}
	}
}

Test(names, every_read_finds_its_register) { each_committed_module(check_reads); }
