/* Passes over the lowered code (simcore/pass.c): the commit's remapping of
 * targets, entries, lines and registers on hand-written kernels, its
 * refusals, and the diagnostic passes on random programs and on every
 * committed PTX module: outputs unchanged, the allocation verified,
 * instruction counts as inserted. tests/pass/run.sh runs the workloads. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

static void start_mode(h_ctx_t *h, sc_regs_t mode)
{
	h_init(h);
	h->opt.regs = mode;
}

static void apply_ok(sc_module_t *m, const char *pass)
{
	char msg[256] = "";
	int rc = sc__pass_apply(m, pass, msg, sizeof msg);
	cr_assert_eq(rc, 0, "%s: %s", pass, msg);
	if (m->regs == SC_REGS_ALLOC)
		cr_assert_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s: %s", pass, msg);
}

/* Runs k(out) of ptx on `n` threads of one block, `words` words each, after
 * `pass` (NULL: none); warp-instructions in *winsts. */
static void run_k(const char *ptx, sc_regs_t mode, const char *pass, uint32_t n, uint32_t words, uint32_t *out,
                  uint64_t *winsts)
{
	h_ctx_t h;
	start_mode(&h, mode);
	sc_module_t *m = h_load_ok(&h, ptx);
	if (pass)
		apply_ok(m, pass);
	uint64_t d = h_alloc(&h, (uint64_t)n * words * 4, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(n), 0, H_ARGS(&d));
	h_read(&h, out, d, (uint64_t)n * words * 4);
	if (winsts)
		*winsts = h_last(&h)->warp_insts;
	h_fini(&h);
}

/* ---------------------------------------------------------------- the commit */

/* A loop whose head is the kernel's first instruction: a prologue runs
 * once, words inserted before the head run on every iteration. */
static const char loop_at_entry[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"L:\n"
	"	add.u32 %r2, %r2, 1; // HEAD\n"
	"	setp.lt.u32 %p1, %r2, 5;\n"
	"	@%p1 bra L;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	ld.param.u64 %rd0, [out];\n"
	"	mul.wide.u32 %rd1, %r1, 8;\n"
	"	add.s64 %rd2, %rd0, %rd1;\n"
	"	st.global.u32 [%rd2], %r2;\n"
	"	st.global.u32 [%rd2+4], %r3;\n"
	"	ret;\n"
	"}\n";

Test(pass, prologue_once_inserted_words_per_iteration)
{
	for (int mode = 0; mode < 2; mode++) {
		h_ctx_t h;
		start_mode(&h, mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC);
		sc_module_t *m = h_load_ok(&h, loop_at_entry);
		uint32_t old_n = m->ncode, head_line = h_line_of(loop_at_entry, "HEAD");
		sc_pass_t *p;
		cr_assert_eq(sc__pass_begin(m, &p), 0);
		sc_opnd_t r3 = SC_OPND(SC_K_R32, 3), c100, c1;
		cr_assert_eq(sc__pass_const(p, 100, &c100), 0);
		cr_assert_eq(sc__pass_const(p, 1, &c1), 0);
		/* prologue: r3 += 100; before the head: r3 += 1 */
		sc_insn_t pro = {.op = SC_OP_ADD, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 2), .opnd = {r3, r3, c100}};
		sc_insn_t body = pro;
		body.opnd[2] = c1;
		cr_assert_eq(sc__pass_prologue(p, 0, &pro), 0);
		cr_assert_eq(sc__pass_insert(p, 0, false, &body), 0);
		cr_assert_eq(sc__pass_inserted(p), 2);
		char msg[256] = "";
		cr_assert_eq(sc__pass_commit(p, msg, sizeof msg), 0, "%s", msg);
		cr_expect_eq(m->ncode, old_n + 2);
		const sc_func_t *f = h_func(m, "k");
		cr_expect_eq(f->entry_pc, 0);
		cr_expect_eq(m->code[0].op, SC_OP_ADD);
		/* the branch goes to the word inserted before the head, after the prologue */
		for (uint32_t pc = 0; pc < m->ncode; pc++)
			if (m->code[pc].op == SC_OP_BRA)
				cr_expect_eq(SC_BR_TARGET(m->code[pc].imm), 1);
		cr_expect_eq(m->line[0], head_line, "inserted words carry their instruction's line");
		cr_expect_eq(m->line[1], head_line);
		uint64_t d = h_alloc(&h, 32 * 8, NULL);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		uint32_t out[64];
		h_read(&h, out, d, sizeof out);
		for (int t = 0; t < 32; t++) {
			cr_expect_eq(out[2 * t], 5);
			cr_expect_eq(out[2 * t + 1], 105, "thread %d: r3 = %u", t, out[2 * t + 1]);
		}
		h_fini(&h);
	}
}

/* New registers of a kernel and of a .func: the .func's window moves
 * above the kernel's grown one, and the values stay apart. */
static const char with_func[] = H_PTX_HEAD
	".func (.param .b32 rv) g(.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	ld.param.b32 %r1, [a];\n"
	"	mul.lo.u32 %r2, %r1, 3;\n"
	"	st.param.b32 [rv], %r2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	{\n"
	"	.param .b32 a;\n"
	"	.param .b32 rv;\n"
	"	st.param.b32 [a], %r1;\n"
	"	call (rv), g, (a);\n"
	"	ld.param.b32 %r2, [rv];\n"
	"	}\n"
	"	ld.param.u64 %rd0, [out];\n"
	"	mul.wide.u32 %rd1, %r1, 8;\n"
	"	add.s64 %rd2, %rd0, %rd1;\n"
	"	st.global.u32 [%rd2], %r2;\n"
	"	st.global.u32 [%rd2+4], %r1;\n"
	"	ret;\n"
	"}\n";

Test(pass, new_registers_move_function_windows)
{
	uint32_t base[64], got[64];
	run_k(with_func, SC_REGS_UNALLOC, NULL, 32, 2, base, NULL);
	for (int mode = 0; mode < 2; mode++) {
		h_ctx_t h;
		start_mode(&h, mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC);
		sc_module_t *m = h_load_ok(&h, with_func);
		const sc_func_t *g = h_func(m, "g"), *k = h_func(m, "k");
		uint32_t gi = (uint32_t)(g - m->funcs), ki = (uint32_t)(k - m->funcs), g_base = g->ptx_reg_base;
		sc_pass_t *p;
		cr_assert_eq(sc__pass_begin(m, &p), 0);
		sc_opnd_t kr[4], gr;
		for (int i = 0; i < 4; i++)
			cr_assert_eq(sc__pass_new_reg(p, ki, SC_T_B32, &kr[i]), 0);
		cr_assert_eq(sc__pass_new_reg(p, gi, SC_T_B64, &gr), 0);
		cr_expect_eq(SC_OPND_KIND(gr), SC_K_R64);
		/* in k, before the call: fill the new registers with tid; in g,
		 * write its new 64-bit register */
		uint32_t call = 0;
		while (m->code_ptx ? m->code_ptx[call].op != SC_OP_CALL : m->code[call].op != SC_OP_CALL)
			call++;
		for (int i = 0; i < 4; i++) {
			sc_insn_t mv = {.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1),
			                .opnd = {kr[i], SC_OPND(SC_K_R32, 1)}};
			cr_assert_eq(sc__pass_insert(p, call, false, &mv), 0);
		}
		sc_insn_t wide = {.op = SC_OP_MUL, .type = SC_T_U32, .sub = SC_MUL_WIDE, .nops = SC_NOPS_MAKE(1, 2),
		                  .opnd = {gr, SC_OPND(SC_K_R32, g_base + 1), SC_OPND(SC_K_R32, g_base + 1)}};
		cr_assert_eq(sc__pass_insert(p, g->entry_pc + 1, true, &wide), 0);
		char msg[256] = "";
		cr_assert_eq(sc__pass_commit(p, msg, sizeof msg), 0, "%s", msg);
		cr_expect_eq(k->ptx_nregs, 6 + 8 + 4);
		cr_expect_eq(g->ptx_reg_base, 18, "g's window above k's grown one");
		cr_expect_eq(g->ptx_nregs, 4 + 2);
		char name[32];
		cr_expect_eq(sc__reg_name(m, g, g->ptx_reg_base + 4, false, name, sizeof name), 0);
		cr_expect_str_eq(name, "%sc_rd4");
		uint64_t d = h_alloc(&h, sizeof got, NULL);
		h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
		h_read(&h, got, d, sizeof got);
		cr_expect_arr_eq(got, base, sizeof got);
		h_fini(&h);
	}
}

Test(pass, commit_refuses_bad_words_and_keeps_the_module)
{
	h_ctx_t h;
	start_mode(&h, SC_REGS_ALLOC);
	sc_module_t *m = h_load_ok(&h, with_func);
	const sc_func_t *k = h_func(m, "k"), *g = h_func(m, "g");
	uint32_t ki = (uint32_t)(k - m->funcs), n0 = m->ncode;
	sc_insn_t before[64];
	memcpy(before, m->code, n0 * sizeof *before);
	const struct {
		sc_insn_t in;
		uint32_t pc;
		const char *what;
	} bad[] = {
		{{.op = SC_OP_MOV, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 1),
		  .opnd = {SC_OPND(SC_K_R32, 100), SC_OPND(SC_K_R32, 1)}}, k->entry_pc, "outside the function"},
		{{.op = SC_OP_CALL, .imm = 0}, k->entry_pc, "not an instruction a pass may add"},
		{{.op = SC_OP_BRA, .imm = 0}, k->entry_pc, "jumps out of the function"},
		{{.op = SC_OP_ADD, .type = SC_T_U32, .nops = SC_NOPS_MAKE(1, 2),
		  .opnd = {SC_OPND(SC_K_R32, 1), SC_OPND(SC_K_R32, 1), SC_OPND(SC_K_IMM, 4000)}}, k->entry_pc, "no constant"},
		{{.op = SC_OP_ADD, .type = SC_T_PRED, .nops = SC_NOPS_MAKE(1, 2),
		  .opnd = {SC_OPND(SC_K_R32, 1), SC_OPND(SC_K_R32, 1), SC_OPND(SC_K_R32, 1)}}, k->entry_pc,
		 "not an instruction"},
	};
	cr_assert_lt(n0, 64);
	cr_assert_eq(g->entry_pc, 0, "g comes first: pc 0 is outside k");
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		sc_pass_t *p;
		cr_assert_eq(sc__pass_begin(m, &p), 0);
		cr_assert_eq(sc__pass_insert(p, bad[i].pc, false, &bad[i].in), 0);
		char msg[256] = "";
		cr_expect_eq(sc__pass_commit(p, msg, sizeof msg), SC_EINVAL, "case %zu", i);
		cr_expect(strstr(msg, bad[i].what), "case %zu: '%s'", i, msg);
		cr_expect_eq(m->ncode, n0);
		cr_expect_arr_eq(m->code, before, n0 * sizeof *before, "case %zu: the module changed", i);
	}
	(void)ki;
	h_fini(&h);
}

/* ---------------------------------------------------------------- diagnostic passes */

/* Random programs (randprog.c) in both register modes: every pass keeps
 * the outputs; nop-all issues exactly twice the warp-instructions (each
 * issue of an original word follows a nop's issue by the same lanes),
 * nop-leaders and dup more than none. */
Test(pass, random_programs_keep_outputs)
{
	static char ptx[1 << 16];
	for (uint64_t seed = 1; seed <= 60; seed++) {
		h_random_program(seed, ptx, sizeof ptx);
		sc_regs_t mode = seed & 1 ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
		uint32_t a[64 * 11], b[64 * 11];
		uint64_t w0, w;
		run_k(ptx, mode, NULL, 64, 11, a, &w0);
		for (unsigned i = 0; sc__pass_name(i); i++) {
			const char *pass = sc__pass_name(i);
			run_k(ptx, mode, pass, 64, 11, b, &w);
			cr_assert_arr_eq(a, b, sizeof a, "seed %llu, %s: outputs differ\n%s", (unsigned long long)seed, pass, ptx);
			if (!strcmp(pass, "nop-all"))
				cr_assert_eq(w, 2 * w0, "seed %llu: %llu warp-instructions, %llu before", (unsigned long long)seed,
				             (unsigned long long)w, (unsigned long long)w0);
			else
				cr_assert_gt(w, w0, "seed %llu, %s", (unsigned long long)seed, pass);
		}
	}
}

/* dup's shape: every candidate word has a replica just before it writing
 * fresh registers, and one compare per destination after it. */
Test(pass, dup_replicates_and_compares)
{
	h_ctx_t h;
	start_mode(&h, SC_REGS_UNALLOC);
	sc_module_t *m = h_load_ok(&h, with_func);
	uint32_t n0 = m->ncode, alu = 0;
	for (uint32_t pc = 0; pc < n0; pc++) {
		unsigned u = sc__ops[m->code[pc].op].unit;
		alu += u <= SC_U_MOV && !(sc__ops[m->code[pc].op].flags & SC_OF_SIDE);
	}
	cr_assert_eq(alu, 4, "g: mul.lo; k: mov, mul.wide, add.s64 (found %u)", alu);
	apply_ok(m, "dup");
	/* two prologues, and per word: replica + one setp */
	cr_expect_eq(m->ncode, n0 + 2 + 2 * alu);
	uint32_t setp = 0;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		setp += m->code[pc].op == SC_OP_SETP && SC_AUX_BOOL(m->code[pc].aux) == SC_BOOL_OR;
	cr_expect_eq(setp, alu);
	h_fini(&h);
}

/* Every committed PTX module, in alloc mode, takes every pass: the
 * allocation verifies and the instructions are the old plus the inserted,
 * each inserted one on its instruction's line. */
Test(pass, every_committed_module_takes_every_pass)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx", "tests/simcore/data/*.ptx",
	                                       "tests/engine/data/*.ptx"};
	int files = 0;
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		glob_t g;
		if (glob(patterns[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++)
			for (unsigned k = 0; sc__pass_name(k); k++) {
				h_ctx_t h;
				start_mode(&h, SC_REGS_ALLOC);
				h_start(&h);
				sc_module_t *m;
				cr_assert_eq(sc_module_load_file(h.gpu, g.gl_pathv[j], &m), 0, "%s: %s", g.gl_pathv[j],
				             sc_gpu_errmsg(h.gpu));
				uint32_t n0 = m->ncode;
				char msg[256] = "";
				int rc = sc__pass_apply(m, sc__pass_name(k), msg, sizeof msg);
				if (m->ndcalls) { /* recursive or indirect calls: refused, the module unchanged */
					cr_expect_eq(rc, SC_EINVAL, "%s, %s: %s", g.gl_pathv[j], sc__pass_name(k), msg);
					cr_expect(strstr(msg, "does not transform recursive or indirect calls"), "%s", msg);
					cr_expect_eq(m->ncode, n0);
					h_fini(&h);
					continue;
				}
				cr_assert_eq(rc, 0, "%s, %s: %s", g.gl_pathv[j], sc__pass_name(k), msg);
				cr_expect_gt(m->ncode, n0);
				cr_expect_eq(sc__regalloc_verify(m, msg, sizeof msg), 0, "%s: %s", g.gl_pathv[j], msg);
				for (uint32_t pc = 0; pc < m->ncode; pc++)
					cr_expect(m->line[pc] > 0, "%s: pc %u has no line", g.gl_pathv[j], pc);
				files += k == 0;
				h_fini(&h);
			}
		globfree(&g);
	}
	cr_expect_geq(files, 40, "found %d PTX files (run from the repository root)", files);
}

/* ---------------------------------------------------------------- the emitter */

/* m written back as PTX (sc_module_emit_ptx), in a string to free. */
static char *emit_text(const sc_module_t *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert(f);
	cr_assert_eq(sc_module_emit_ptx(m, f), 0);
	fclose(f);
	return text;
}

/* Emits ptx's module (after `pass`, NULL: none) loaded in `mode`. */
static char *emit_of(const char *ptx, sc_regs_t mode, const char *pass)
{
	h_ctx_t h;
	start_mode(&h, mode);
	sc_module_t *m = h_load_ok(&h, ptx);
	if (pass)
		apply_ok(m, pass);
	char *text = emit_text(m);
	h_fini(&h);
	return text;
}

/* Random programs written back, as loaded and after each pass, run the
 * same; written back as loaded, they issue the same warp-instructions. */
Test(pass, emitted_random_programs_run_the_same)
{
	static char ptx[1 << 16];
	for (uint64_t seed = 100; seed < 130; seed++) {
		h_random_program(seed, ptx, sizeof ptx);
		sc_regs_t mode = seed & 1 ? SC_REGS_ALLOC : SC_REGS_UNALLOC;
		uint32_t a[64 * 11], b[64 * 11];
		uint64_t w0, w;
		run_k(ptx, mode, NULL, 64, 11, a, &w0);
		for (int i = -1; i < 0 || sc__pass_name((unsigned)i); i++) {
			const char *pass = i < 0 ? NULL : sc__pass_name((unsigned)i);
			char *text = emit_of(ptx, mode, pass);
			run_k(text, mode, NULL, 64, 11, b, &w);
			cr_assert_arr_eq(a, b, sizeof a, "seed %llu, %s: outputs differ\n%s", (unsigned long long)seed,
			                 pass ? pass : "no pass", text);
			if (!pass)
				cr_assert_eq(w, w0, "seed %llu", (unsigned long long)seed);
			free(text);
		}
	}
}

/* Every committed module written back loads again, in both modes, into
 * the same number of instructions; where it has no .func (whose order
 * the emitter may change), into the same words. */
Test(pass, every_committed_module_emits_and_reloads)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx", "tests/simcore/data/*.ptx",
	                                       "tests/engine/data/*.ptx"};
	int files = 0, same = 0;
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		glob_t g;
		if (glob(patterns[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++)
			for (int mode = 0; mode < 2; mode++) {
				h_ctx_t h;
				start_mode(&h, mode ? SC_REGS_ALLOC : SC_REGS_UNALLOC);
				h_start(&h);
				sc_module_t *m, *m2;
				cr_assert_eq(sc_module_load_file(h.gpu, g.gl_pathv[j], &m), 0, "%s: %s", g.gl_pathv[j],
				             sc_gpu_errmsg(h.gpu));
				char *text = emit_text(m);
				h_ctx_t h2;
				start_mode(&h2, h.opt.regs);
				h_start(&h2);
				int rc = sc_module_load_text(h2.gpu, "emitted.ptx", text, &m2);
				cr_assert_eq(rc, 0, "%s: %s\n%s", g.gl_pathv[j], sc_gpu_errmsg(h2.gpu), text);
				cr_expect_eq(m2->ncode, m->ncode, "%s", g.gl_pathv[j]);
				bool funcs = false;
				for (uint32_t k = 0; k < m->nfuncs; k++)
					funcs |= !m->funcs[k].is_entry;
				if (!funcs && m2->ncode == m->ncode) {
					cr_expect_arr_eq(m2->code, m->code, m->ncode * sizeof *m->code, "%s: the words differ",
					                 g.gl_pathv[j]);
					same++;
				}
				files += mode;
				free(text);
				h_fini(&h2);
				h_fini(&h);
			}
		globfree(&g);
	}
	cr_expect_geq(files, 40, "found %d PTX files (run from the repository root)", files);
	cr_expect_geq(same, 60, "%d modules compared word for word", same);
}
