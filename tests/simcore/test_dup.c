/* Datapath duplication (simcore/slice.c, simcore/dup.c): reaching
 * definitions and slices on small kernels, the cones the pass replicates,
 * detection of a flipped original or replica register (sw and ra), raSetP,
 * the resilient bit refused where it does not belong, and random kernels
 * transformed in every variant with unchanged outputs and a verified
 * allocation. DESIGN.md, "Datapath duplication and resilient
 * instructions". */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* out[tid] += 1, through a protected load and store; and an unrelated
 * word (r3) no protected operand needs. */
static const char inc_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<5>;\n"
	"	.reg .b64 %rd<5>;\n"
	"	ld.param.u64 %rd1, [out];\n"  /* 0 */
	"	mov.u32 %r1, %tid.x;\n"       /* 1 */
	"	mul.wide.u32 %rd2, %r1, 4;\n" /* 2 */
	"	add.s64 %rd3, %rd1, %rd2;\n"  /* 3 */
	"	add.u32 %r3, %r1, 9;\n"       /* 4: in no cone */
	"	ld.global.u32 %r2, [%rd3];\n" /* 5 */
	"	add.u32 %r2, %r2, 1;\n"       /* 6 */
	"	st.global.u32 [%rd3], %r2;\n" /* 7 */
	"	ret;\n"
	"}\n";

/* A loop of tid % 4 + 1 iterations deciding a branch: its setp compares
 * r2 with r4 (r2 loop-carried). */
static const char loop_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<5>;\n"
	"	.reg .pred %p<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"     /* 0 */
	"	mov.u32 %r1, %tid.x;\n"          /* 1 */
	"	and.b32 %r4, %r1, 3;\n"          /* 2 */
	"	mov.u32 %r2, 0;\n"               /* 3 */
	"	mov.u32 %r3, 0;\n"               /* 4 */
	"L:\n"
	"	add.u32 %r3, %r3, 5;\n"          /* 5 */
	"	add.u32 %r2, %r2, 1;\n"          /* 6 */
	"	setp.le.u32 %p1, %r2, %r4;\n"    /* 7 */
	"	@%p1 bra L;\n"                   /* 8 */
	"	mul.wide.u32 %rd2, %r1, 4;\n"    /* 9 */
	"	add.s64 %rd3, %rd1, %rd2;\n"     /* 10 */
	"	st.global.u32 [%rd3], %r3;\n"    /* 11 */
	"	ret;\n"
	"}\n";

static sc_module_t *load(h_ctx_t *h, const char *ptx, sc_regs_t mode, uint8_t protect, uint8_t variant)
{
	h_init(h);
	h->opt.regs = mode;
	h->opt.prot.dup = (sc_dup_protection_t){.protect = protect, .variant = variant};
	return h_load_ok(h, ptx);
}

/* ---------------------------------------------------------------- slices */

static void cone_of(const char *ptx, uint32_t pc, uint32_t mask, bool *cone, uint32_t n)
{
	h_ctx_t h;
	sc_module_t *m = load(&h, ptx, SC_REGS_UNALLOC, 0, 0);
	const sc_func_t *f = h_func(m, "k");
	sc_rdefs_t rd;
	cr_assert_eq(sc__rdefs(m->code, f->entry_pc, f->end_pc, f->reg_base + f->nregs, f->pred_base + f->npreds, &rd), 0);
	memset(cone, 0, n);
	cr_assert_eq(sc__slice(&rd, m->code, f->entry_pc + pc, mask, NULL, NULL, cone), 0);
	sc__rdefs_free(&rd);
	h_fini(&h);
}

Test(dup, slice_of_a_store_address_and_data)
{
	bool cone[16];
	/* the store's address (operand 0): ld.param, mov tid, mul.wide, add */
	cone_of(inc_ptx, 7, 1u, cone, 16);
	bool want_addr[9] = {1, 1, 1, 1, 0, 0, 0, 0, 0};
	for (int i = 0; i < 9; i++)
		cr_expect_eq(cone[i], want_addr[i], "address cone, pc %d", i);
	/* address and data: the load and the add too, through the load's address */
	cone_of(inc_ptx, 7, 3u, cone, 16);
	bool want_all[9] = {1, 1, 1, 1, 0, 1, 1, 0, 0};
	for (int i = 0; i < 9; i++)
		cr_expect_eq(cone[i], want_all[i], "address and data cone, pc %d", i);
}

Test(dup, reaching_definitions_follow_loops)
{
	bool cone[16];
	/* setp r2, r4: r2's definitions before the loop and on the back edge */
	cone_of(loop_ptx, 7, 3u << 1, cone, 16);
	bool want[10] = {0, 1, 1, 1, 0, 0, 1, 0, 0, 0};
	for (int i = 0; i < 10; i++)
		cr_expect_eq(cone[i], want[i], "setp cone, pc %d", i);
	/* the store's data r3: its initial and loop-carried definitions */
	cone_of(loop_ptx, 11, 1u << 1, cone, 16);
	bool want3[12] = {0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0};
	for (int i = 0; i < 12; i++)
		cr_expect_eq(cone[i], want3[i], "data cone, pc %d", i);
}

Test(dup, a_guarded_definition_kills_nothing)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n{\n"
		"	.reg .b32 %r<4>;\n	.reg .b64 %rd<2>;\n	.reg .pred %p<2>;\n"
		"	ld.param.u64 %rd1, [out];\n"      /* 0 */
		"	mov.u32 %r1, %tid.x;\n"           /* 1 */
		"	mov.u32 %r2, 7;\n"                /* 2 */
		"	setp.eq.u32 %p1, %r1, 0;\n"       /* 3 */
		"	@%p1 mov.u32 %r2, 8;\n"           /* 4 */
		"	st.global.u32 [%rd1], %r2;\n"     /* 5 */
		"	ret;\n}\n";
	h_ctx_t h;
	sc_module_t *m = load(&h, ptx, SC_REGS_UNALLOC, 0, 0);
	const sc_func_t *f = h_func(m, "k");
	sc_rdefs_t rd;
	cr_assert_eq(sc__rdefs(m->code, f->entry_pc, f->end_pc, f->reg_base + f->nregs, f->pred_base + f->npreds, &rd), 0);
	uint16_t o = m->code[f->entry_pc + 5].opnd[1];
	sc_regref_t r = {.idx = (uint16_t)SC_OPND_IDX(o), .w = 1};
	uint32_t defs[4];
	cr_assert_eq(sc__rdefs_of(&rd, f->entry_pc + 5, r, defs, 4), 2, "mov 7 and the guarded mov 8 both reach");
	sc__rdefs_free(&rd);
	h_fini(&h);
}

/* ---------------------------------------------------------------- the pass */

static unsigned count_res(const sc_module_t *m, unsigned op)
{
	unsigned n = 0;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		n += m->code[pc].op == op && (m->code[pc].mods & SC_MOD_RES);
	return n;
}

static unsigned count_traps(const sc_module_t *m)
{
	unsigned n = 0;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		n += m->code[pc].op == SC_OP_TRAP && m->code[pc].sub == SC_TRAP_DUP;
	return n;
}

Test(dup, the_variants_shape_the_code)
{
	for (int mode = 0; mode < 2; mode++) {
		sc_regs_t rm = mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
		h_ctx_t h;
		sc_module_t *m = load(&h, inc_ptx, rm, 0, 0);
		uint32_t n0 = m->ncode;
		h_fini(&h);
		/* ra memory: raLoad (with the dual write: the load is in the
		 * store data's cone) and raStore; replicas of ld.param (a copy),
		 * mov tid, mul.wide, add, and the add after the load: 5 words */
		m = load(&h, inc_ptx, rm, SC_DUP_MEMORY, SC_DUP_RA);
		cr_expect_eq(count_res(m, SC_OP_LD), 1);
		cr_expect_eq(count_res(m, SC_OP_ST), 1);
		cr_expect_eq(count_traps(m), 0, "ra needs no notification");
		cr_expect_eq(m->ncode, n0 + 5);
		const sc_insn_t *ld = NULL;
		for (uint32_t pc = 0; pc < m->ncode; pc++)
			if (m->code[pc].op == SC_OP_LD && (m->code[pc].mods & SC_MOD_RES))
				ld = &m->code[pc];
		cr_assert(ld);
		cr_expect_eq(SC_NDST(ld), 2, "raLoad writes the destination and its replica");
		cr_expect_eq(SC_NSRC(ld), 2);
		h_fini(&h);
		/* sw memory: the 5 replicas plus the replica load, a check of the
		 * load's address, two of the store's, two traps (store, exit) and
		 * the prologue's clear */
		m = load(&h, inc_ptx, rm, SC_DUP_MEMORY, SC_DUP_SW);
		cr_expect_eq(count_res(m, SC_OP_LD) + count_res(m, SC_OP_ST), 0);
		cr_expect_eq(count_traps(m), 2);
		cr_expect_eq(m->ncode, n0 + 6 + 3 + 2 + 1);
		h_fini(&h);
	}
}

Test(dup, the_resilient_bit_only_where_it_belongs)
{
	h_ctx_t h;
	sc_module_t *m = load(&h, inc_ptx, SC_REGS_UNALLOC, SC_DUP_ALL, SC_DUP_RA);
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		sc_insn_t w = m->code[pc];
		bool res = w.mods & SC_MOD_RES;
		cr_assert_eq(sc__insn_check(&w, m->nregs_all, m->npreds_all, m->npool, m->ncode), 0);
		w.mods ^= SC_MOD_RES; /* what an instruction-buffer fault on the bit makes */
		int rc = sc__insn_check(&w, m->nregs_all, m->npreds_all, m->npool, m->ncode);
		if (!res) /* a plain word marked resilient: refused */
			cr_expect_neq(rc, 0, "pc %u (op %s) accepted the resilient bit", pc, sc__ops[w.op].name);
		else if (w.op == SC_OP_LD) /* an unmarked raLoad: a load of two addresses, malformed */
			cr_expect(!sc__insn_valid(&w), "pc %u: an unmarked raLoad is not a plain ld", pc);
		/* an unmarked raStore stores its replicas too, an unmarked raSetP
		 * reads a replica as its predicate c: other behaviour, as on the
		 * paper's hardware when the resilient bit flips */
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- detection */

typedef struct flip {
	uint32_t pc;    /* flip when the warp is about to issue this pc */
	uint32_t slot;  /* the register (unalloc: its slot) */
	uint32_t bit;
	bool done;
} flip_t;

static uint64_t on_cycle(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	flip_t *f = ctx;
	sc_warp_t *w = &g->sms[0].warps[0];
	if (!f->done && w->sp && w->stk[w->sp - 1].pc == f->pc) {
		w->rf[(size_t)f->slot * 32 + (f->bit >> 5) * 32] ^= 1u << (f->bit & 31); /* lane 0 */
		f->done = true;
	}
	return f->done ? UINT64_MAX : cycle + 1;
}

/* Runs k on a warp of the module as protected, flipping at f; the launch's
 * rc and the DUE reason. */
static sc_due_t run_flip(const char *ptx, uint8_t protect, uint8_t variant, flip_t *f, bool (*pick)(const sc_module_t *, flip_t *))
{
	h_ctx_t h;
	sc_module_t *m = load(&h, ptx, SC_REGS_UNALLOC, protect, variant);
	cr_assert(pick(m, f), "the word to flip before is there");
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	sc_set_pause(h.gpu, 1, on_cycle, f);
	int rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	sc_due_t r = rc ? h_status(&h)->reason : SC_DUE_NONE;
	cr_expect(f->done, "the flip happened");
	h_fini(&h);
	return r;
}

static bool replica_of_addr; /* flip the replica instead of the original */

/* ra: before the raLoad, its address base (or replica); sw: before the
 * first check of the load's address. */
static bool pick_load(const sc_module_t *m, flip_t *f)
{
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		const sc_insn_t *in = &m->code[pc];
		if (in->op == SC_OP_LD && (in->mods & SC_MOD_RES)) {
			f->pc = pc;
			f->slot = SC_OPND_IDX(in->opnd[SC_NDST(in) + (replica_of_addr ? 1 : 0)]);
			return true;
		}
		if (in->op == SC_OP_SETP && SC_AUX_BOOL(in->aux) == SC_BOOL_OR && in->stype == SC_T_B64) {
			f->pc = pc;
			f->slot = SC_OPND_IDX(in->opnd[replica_of_addr ? 2 : 1]);
			return true;
		}
	}
	return false;
}

Test(dup, a_flipped_address_register_is_detected)
{
	for (uint8_t v = 0; v < 2; v++)
		for (int rep = 0; rep < 2; rep++) {
			replica_of_addr = rep;
			flip_t f = {.bit = 2}; /* +4 bytes: a neighbour's word, still in the buffer */
			sc_due_t r = run_flip(inc_ptx, SC_DUP_MEMORY, v, &f, pick_load);
			cr_expect_eq(r, SC_DUE_DUP_MISMATCH, "variant %s, %s flipped: %s", sc_dup_variant_name(v),
			             rep ? "replica" : "original", sc_due_name(r));
		}
}

/* raSetP: before it, the original compared register r2 (or its replica). */
static bool pick_setp(const sc_module_t *m, flip_t *f)
{
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		const sc_insn_t *in = &m->code[pc];
		if (in->op == SC_OP_SETP && (in->mods & SC_MOD_RES)) {
			f->pc = pc;
			f->slot = SC_OPND_IDX(in->opnd[replica_of_addr ? 3 : 1]);
			return true;
		}
	}
	return false;
}

Test(dup, raSetP_compares_its_sources)
{
	h_ctx_t h;
	sc_module_t *m = load(&h, loop_ptx, SC_REGS_ALLOC, SC_DUP_SETP, SC_DUP_RA);
	cr_expect_eq(count_res(m, SC_OP_SETP), 1, "the loop's setp");
	cr_expect_eq(count_res(m, SC_OP_LD) + count_res(m, SC_OP_ST), 0, "setp protects no memory word");
	h_fini(&h);
	uint32_t a[32], b[32];
	h_init(&h);
	h_run_u32(&h, loop_ptx, "k", H_D1(1), H_D1(32), a, 32);
	h_fini(&h);
	h_init(&h);
	h.opt.prot.dup = (sc_dup_protection_t){.protect = SC_DUP_SETP, .variant = SC_DUP_RA};
	h_run_u32(&h, loop_ptx, "k", H_D1(1), H_D1(32), b, 32);
	h_fini(&h);
	cr_expect_arr_eq(a, b, sizeof a);
	for (int rep = 0; rep < 2; rep++) {
		replica_of_addr = rep;
		flip_t f = {.bit = 0};
		sc_due_t r = run_flip(loop_ptx, SC_DUP_SETP, SC_DUP_RA, &f, pick_setp);
		cr_expect_eq(r, SC_DUE_DUP_MISMATCH, "%s flipped: %s", rep ? "replica" : "original", sc_due_name(r));
	}
}

/* Without protection the same flip is no DUE of the kind: the control. */
Test(dup, the_flip_without_protection_is_not_detected)
{
	flip_t f = {.bit = 2};
	h_ctx_t h;
	sc_module_t *m = load(&h, inc_ptx, SC_REGS_UNALLOC, 0, 0);
	f.pc = h_func(m, "k")->entry_pc + 5;
	f.slot = SC_OPND_IDX(m->code[f.pc].opnd[1]);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	sc_set_pause(h.gpu, 1, on_cycle, &f);
	int rc = h_launch(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	cr_expect(f.done);
	cr_expect_eq(rc, 0, "an unprotected wrong address in the buffer: a silent corruption");
	h_fini(&h);
}

/* ---------------------------------------------------------------- random kernels */

Test(dup, random_kernels_keep_outputs_in_every_variant)
{
	static char ptx[1 << 16];
	for (uint64_t seed = 1; seed <= 24; seed++) {
		h_random_kernel(seed, ptx, sizeof ptx);
		sc_regs_t mode = seed & 1 ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
		uint32_t a[64 * 11], b[64 * 11];
		h_ctx_t h;
		h_init(&h);
		h.opt.regs = mode;
		h_run_u32(&h, ptx, "k", H_D1(1), H_D1(64), a, 64 * 11);
		h_fini(&h);
		for (uint8_t p = SC_DUP_MEMORY; p <= SC_DUP_ALL; p++)
			for (uint8_t v = 0; v < 2; v++) {
				h_init(&h);
				h.opt.regs = mode;
				h.opt.prot.dup = (sc_dup_protection_t){.protect = p, .variant = v};
				h_run_u32(&h, ptx, "k", H_D1(1), H_D1(64), b, 64 * 11);
				char msg[256] = "";
				if (mode == SC_REGS_ALLOC)
					cr_assert_eq(sc__regalloc_verify(h.mod, msg, sizeof msg), 0, "%s", msg);
				h_fini(&h);
				cr_assert_arr_eq(a, b, sizeof a, "seed %llu, %s %s: outputs differ\n%s", (unsigned long long)seed,
				                 sc_dup_protect_name(p), sc_dup_variant_name(v), ptx);
			}
	}
}

Test(dup, calls_are_refused_clearly)
{
	static char ptx[1 << 16];
	uint64_t seed = 1;
	do /* a program whose kernel calls */
		h_random_program(seed++, ptx, sizeof ptx);
	while (!strstr(strstr(ptx, ".entry k"), "call ("));
	h_ctx_t h;
	h_init(&h);
	h.opt.prot.dup = (sc_dup_protection_t){.protect = SC_DUP_ALL};
	cr_expect_neq(h_load(&h, ptx), 0);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "does not follow values through calls"), "%s", sc_gpu_errmsg(h.gpu));
	h_fini(&h);
}

/* The resilient words' PTX spelling (".ra", then ':' and the replica
 * operands): every variant of a random kernel emits, reloads without the
 * protection into the same words, and runs the same. */
Test(dup, emitted_variants_reload_word_for_word)
{
	static char ptx[1 << 16], text[1 << 18];
	for (uint64_t seed = 1; seed <= 6; seed++) {
		h_random_kernel(seed, ptx, sizeof ptx);
		for (uint8_t p = SC_DUP_MEMORY; p <= SC_DUP_ALL; p++)
			for (uint8_t v = 0; v < 2; v++) {
				h_ctx_t h;
				sc_module_t *m = load(&h, ptx, SC_REGS_UNALLOC, p, v);
				FILE *f = fmemopen(text, sizeof text, "w");
				cr_assert_eq(sc_module_emit_ptx(m, f), 0);
				fputc(0, f);
				fclose(f);
				if (v == SC_DUP_RA && p != SC_DUP_SETP)
					cr_expect(strstr(text, "st.ra.global"), "the stores are raStores:\n%s", text);
				h_ctx_t h2;
				sc_module_t *m2 = load(&h2, text, SC_REGS_UNALLOC, 0, 0);
				cr_assert_eq(m2->ncode, m->ncode, "seed %llu %s %s", (unsigned long long)seed, sc_dup_protect_name(p),
				             sc_dup_variant_name(v));
				for (uint32_t pc = 0; pc < m->ncode; pc++) {
					cr_expect_eq(m2->code[pc].op, m->code[pc].op, "pc %u", pc);
					cr_expect_eq(m2->code[pc].mods, m->code[pc].mods, "pc %u", pc);
					cr_expect_eq(m2->code[pc].nops, m->code[pc].nops, "pc %u", pc);
					cr_expect_eq(m2->code[pc].sub, m->code[pc].sub, "pc %u", pc);
				}
				h_fini(&h2);
				h_fini(&h);
			}
	}
}
