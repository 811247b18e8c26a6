/* The disassembler (simcore/disasm.c): exact text of instruction forms,
 * words that do not decode, a round trip of every committed PTX file's
 * instructions against their source lines, and `flipsim profile --disasm`. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/runs.h"
#include "harness.h"
#include "sc_int.h"

/* One instruction in a kernel with registers of every kind (ptx mode:
 * %rd<4> are slots 0-7, %r<4> 8-11, %rs<2> 12-13, %p<3> predicates 0-2). */
#define ONE_HEAD                                                                                             \
	H_PTX_HEAD ".global .u32 g;\n.func f()\n{\n\tret;\n}\n"                                                  \
	           ".visible .entry k(.param .u64 a)\n{\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<4>;\n"                \
	           "\t.reg .b16 %rs<2>;\n\t.reg .pred %p<3>;\n\t.shared .align 8 .b8 sm[16];\n"                     \
	           "\t{\n\t.param .b32 rv;\nL:\n\t"
#define ONE_TAIL "\n\t}\n\tret;\n}\n"
#define ONE(line) ONE_HEAD line ONE_TAIL

typedef struct form {
	const char *ptx, *text;
} form_t;

static const form_t forms[] = {
	{"add.s32 %r1, %r2, %r3;", "add.s32 %r9, %r10, %r11"},
	{"@!%p1 add.cc.u32 %r1, %r2, 7;", "@!%p1 add.cc.u32 %r9, %r10, 7"},
	{"addc.cc.u32 %r1, %r2, %r3;", "addc.cc.u32 %r9, %r10, %r11"},
	{"sub.sat.s32 %r1, %r2, -5;", "sub.sat.s32 %r9, %r10, -5"},
	{"madc.hi.u32 %r1, %r2, %r3, %r1;", "madc.hi.u32 %r9, %r10, %r11, %r9"},
	{"mul.wide.s32 %rd1, %r2, 4;", "mul.wide.s32 %rd2, %r10, 4"},
	{"mad.lo.s64 %rd1, %rd2, %rd3, 1;", "mad.lo.s64 %rd2, %rd4, %rd6, 1"},
	{"fma.rn.ftz.sat.f32 %r1, %r2, 0f3F800000, %r3;", "fma.rn.ftz.sat.f32 %r9, %r10, 0f3F800000, %r11"},
	{"div.approx.ftz.f32 %r1, %r2, %r3;", "div.approx.ftz.f32 %r9, %r10, %r11"},
	{"sqrt.rn.f64 %rd1, %rd2;", "sqrt.rn.f64 %rd2, %rd4"},
	{"mul.f64 %rd1, %rd2, 0d4010000000000000;", "mul.f64 %rd2, %rd4, 0d4010000000000000"},
	{"setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;", "setp.lt.and.s32 %p1|%p2, %r9, %r10, !%p0"},
	{"setp.ne.u64 %p1, %rd1, 0;", "setp.ne.u64 %p1, %rd2, 0"},
	{"set.gtu.u32.f32 %r1, %r2, %r3;", "set.gtu.u32.f32 %r9, %r10, %r11"},
	{"selp.b32 %r1, %r2, 0xff, %p1;", "selp.b32 %r9, %r10, 255, %p1"},
	{"slct.f32.s32 %r1, %r2, %r3, %r1;", "slct.f32.s32 %r9, %r10, %r11, %r9"},
	{"testp.notanumber.f64 %p1, %rd1;", "testp.notanumber.f64 %p1, %rd2"},
	{"cvt.rzi.s32.f64 %r1, %rd1;", "cvt.rzi.s32.f64 %r9, %rd2"},
	{"cvt.rn.f16x2.f32 %r1, %r2, %r3;", "cvt.rn.f16x2.f32 %r9, %r10, %r11"},
	{"prmt.b32.f4e %r1, %r2, %r3, %r1;", "prmt.b32.f4e %r9, %r10, %r11, %r9"},
	{"shf.r.clamp.b32 %r1, %r2, %r3, 8;", "shf.r.clamp.b32 %r9, %r10, %r11, 8"},
	{"bfind.shiftamt.u32 %r1, %r2;", "bfind.shiftamt.u32 %r9, %r10"},
	{"lop3.b32 %r1, %r2, %r3, %r1, 0x96;", "lop3.b32 %r9, %r10, %r11, %r9, 150"},
	{"mov.b16 %rs1, 0x3C00;", "mov.b16 %r13, 15360"},
	{"add.f16 %rs1, %rs0, 0x3C00;", "add.f16 %r13, %r12, 0x3C00"},
	{"mov.u32 %r1, %tid.x;", "mov.u32 %r9, %tid.x"},
	{"mov.b64 {%r1, %r2}, %rd1;", "mov.b64 {%r9, %r10}, %rd2"},
	{"mov.b32 %r1, {%rs1, %rs0};", "mov.b32 %r9, {%r13, %r12}"},
	{"cvta.to.global.u64 %rd1, %rd2;", "cvta.to.global.u64 %rd2, %rd4"},
	{"cvta.shared.u64 %rd1, sm;", "cvta.shared.u64 %rd2, 0"},
	{"isspacep.shared %p1, %rd1;", "isspacep.shared %p1, %rd2"},
	{"ld.global.nc.v4.u32 {%r0, %r1, %r2, _}, [%rd1+16];", "ld.global.v4.u32 {%r8, %r9, %r10, _}, [%rd2+16]"},
	{"ld.volatile.shared.u32 %r1, [sm+4];", "ld.volatile.shared.u32 %r9, [0x4]"},
	{"ld.param.u64 %rd1, [a];", "ld.param.u64 %rd2, [0x0]"},
	{"ld.u8 %r1, [%r2+-3];", "ld.u8 %r9, [%r10-3]"},
	{"st.shared.v2.u32 [sm], {%r1, 5};", "st.shared.v2.u32 [0x0], {%r9, 5}"},
	{"st.global.b16 [%rd1], %rs1;", "st.global.b16 [%rd2], %r13"},
	{"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", "atom.global.cas.b32 %r9, [%rd2], %r10, %r11"},
	{"red.shared.add.f32 [sm], %r1;", "red.shared.add.f32 [0x0], %r9"},
	{"@%p2 bra L;", "@%p2 bra 1 (rpc 2)"},
	{"bra.uni L;", "bra.uni 1"},
	{"call.uni f, ();", "call.uni 0 (f)"},
	{"bar.sync 0;", "bar.sync 0"},
	{"barrier.sync.aligned 1, 64;", "bar.sync 1, 64"},
	{"bar.red.popc.u32 %r1, 0, %p1;", "bar.red.popc.u32 %r9, 0, %p1"},
	{"bar.warp.sync -1;", "bar.warp.sync -1"},
	{"membar.gl;", "membar"},
	{"shfl.sync.bfly.b32 %r1|%p1, %r2, 16, 31, -1;", "shfl.sync.bfly.b32 %r9|%p1, %r10, 16, 31, -1"},
	{"shfl.sync.idx.b32 %r1, %r2, %r3, 0x1f, -1;", "shfl.sync.idx.b32 %r9, %r10, %r11, 31, -1"},
	{"vote.sync.ballot.b32 %r1, %p1, -1;", "vote.sync.ballot.b32 %r9, %p1, -1"},
	{"vote.sync.uni.pred %p1, !%p2, -1;", "vote.sync.uni.pred %p1, !%p2, -1"},
	{"activemask.b32 %r1;", "activemask.b32 %r9"},
	{"trap;", "trap"},
	{"exit;", "exit"},
};

/* The pc of the instruction a snippet of ONE() lowers to. */
static uint32_t snippet_pc(const sc_module_t *m)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry)
			return m->funcs[i].entry_pc;
	cr_assert_fail("no kernel");
	return 0;
}

Test(disasm, forms)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char ptx[1024], text[128];
		snprintf(ptx, sizeof ptx, "%s%s%s", ONE_HEAD, forms[i].ptx, ONE_TAIL);
		sc_module_t *m = h_load_ok(&h, ptx);
		uint32_t pc = snippet_pc(m);
		if (!strncmp(forms[i].ptx, "@%p2 bra", 8) || !strncmp(forms[i].ptx, "bra.uni", 7))
			pc = m->funcs[1].entry_pc; /* the branch is the kernel's first word: "L:" is pc 1 */
		int n = sc_disasm_pc(m, pc, text, sizeof text);
		cr_expect_eq(n, (int)strlen(forms[i].text), "%s: length %d, '%s'", forms[i].ptx, n, text);
		cr_expect_str_eq(text, forms[i].text, "%s: '%s'", forms[i].ptx, text);
	}
	h_fini(&h);
}

/* Words sc__insn_check refuses print as their bytes; fields past what the
 * table names print as numbers; the text is truncated like snprintf's. */
Test(disasm, flipped_words)
{
	char text[128];
	sc_insn_t in = {.op = SC_OP_ADD, .type = SC_T_S32, .nops = SC_NOPS_MAKE(1, 2)};
	in.opnd[0] = SC_OPND(SC_K_R32, 1);
	in.opnd[1] = SC_OPND(SC_K_R32, 2);
	in.opnd[2] = SC_OPND(SC_K_IMM, 0);
	sc__disasm(NULL, &in, text, sizeof text);
	cr_expect_str_eq(text, "add.s32 %r1, %r2, pool[0]");
	in.sub = 9;
	in.mods = SC_MOD_CC_IN | SC_MOD_UNI;
	sc__disasm(NULL, &in, text, sizeof text);
	cr_expect_str_eq(text, "addc.sub9.uni.s32 %r1, %r2, pool[0]");
	cr_expect_eq(sc__insn_valid(&in), 0);

	in.reserved = 0x8000; /* no longer decodes */
	int n = sc__disasm(NULL, &in, text, sizeof text);
	cr_expect_str_eq(text, "<invalid word 0x010c000940040021000000000000000001100210005000000000000000000080>");
	cr_expect_eq(n, (int)strlen(text));

	in.reserved = 0;
	in.opnd[3] = SC_OPND(SC_K_R32, 3); /* past the operand count */
	sc__disasm(NULL, &in, text, sizeof text);
	cr_expect(strncmp(text, "<invalid word 0x", 16) == 0, "%s", text);

	in.opnd[3] = 0;
	in.sub = 0;
	in.mods = 0;
	char small[8];
	n = sc__disasm(NULL, &in, small, sizeof small);
	cr_expect_eq(n, (int)strlen("add.s32 %r1, %r2, pool[0]"));
	cr_expect_str_eq(small, "add.s32");
	cr_expect_eq(sc__disasm(NULL, &in, NULL, 0), n);

	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ONE("nop;"));
	cr_expect_eq(sc_disasm_pc(m, m->ncode, text, sizeof text), SC_EINVAL);
	h_fini(&h);
}

/* Random words, decodable or not, into buffers of every size: the text is
 * always terminated, and as long as the returned length says. */
Test(disasm, random_words)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	char buf[200];
	for (int i = 0; i < 200000; i++) {
		sc_insn_t in;
		unsigned char *b = (unsigned char *)&in;
		for (size_t j = 0; j < sizeof in; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			b[j] = (unsigned char)x;
		}
		if (i & 1) { /* mostly decodable: fields in range, operands past the count zero */
			in.op = (uint8_t)(1 + in.op % (SC_OP__COUNT - 1));
			in.type %= SC_T__COUNT;
			in.stype %= SC_T__COUNT;
			in.mods = (uint16_t)((in.mods & 0x0ff0u) | (in.mods % SC_RND__COUNT));
			in.aux = SC_AUX_MAKE(in.aux % SC_SP__COUNT, (in.aux >> 3) % 3, (in.aux >> 5) & 3);
			in.nops = SC_NOPS_MAKE(in.nops % 4, (in.nops >> 4) % 4);
			for (unsigned j = 0; j < 6; j++)
				in.opnd[j] = j < SC_NDST(&in) + SC_NSRC(&in) ? SC_OPND(1 + in.opnd[j] % 3u, in.opnd[j] & 0xffu) : 0;
			in.guard = in.guard & SC_GUARD_ON ? (uint16_t)(in.guard & 0xc0ffu) : 0;
			in.reserved = 0;
			in.imm &= 0xffffffffull;
		}
		size_t n = (size_t)(x % sizeof buf);
		int len = sc__disasm(NULL, &in, buf, n);
		cr_assert_gt(len, 0);
		if (n)
			cr_assert_eq(strlen(buf), (size_t)len < n ? (size_t)len : n - 1);
	}
}

/* ---- round trip ------------------------------------------------------- */

/* The statement of a source line: no guard, label, ';' or comment. */
static void statement(const char *line, char *out, size_t n, bool *guard, bool *neg)
{
	while (isspace((unsigned char)*line))
		line++;
	*guard = *line == '@';
	*neg = *guard && line[1] == '!';
	if (*guard) {
		while (*line && !isspace((unsigned char)*line))
			line++;
		while (isspace((unsigned char)*line))
			line++;
	}
	size_t k = 0;
	for (; *line && *line != ';' && strncmp(line, "//", 2) && k + 1 < n; line++)
		out[k++] = *line;
	while (k && isspace((unsigned char)out[k - 1]))
		k--;
	out[k] = 0;
}

/* The mnemonic's words that say something in the lowered word: aliases
 * resolved, the qualifiers lowering drops left out. */
static int mnemonic_words(const char *mn, char words[12][24])
{
	static const char *const dropped[] = {"nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "relaxed", "acquire",
	                                      "release", "acq_rel", "sc", "weak", "mmio", "cta", "gpu", "sys", "gl",
	                                      "cluster", "aligned", "noftz", "v2", "v4", NULL};
	int n = 0;
	char buf[128];
	snprintf(buf, sizeof buf, "%s", mn);
	for (char *w = strtok(buf, "."); w && n < 12; w = strtok(NULL, ".")) {
		bool drop = !strncmp(w, "L1::", 4) || !strncmp(w, "L2::", 4);
		for (int i = 0; dropped[i]; i++)
			drop |= !strcmp(w, dropped[i]);
		if (!strcmp(w, "shared::cta"))
			w = "shared";
		if (n == 0 && !strcmp(w, "barrier"))
			w = "bar";
		if (n == 0 && !strcmp(w, "fence"))
			w = "membar";
		if (!drop)
			snprintf(words[n++], 24, "%s", w);
	}
	return n;
}

static bool same_words(char a[12][24], int na, char b[12][24], int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		bool found = false;
		for (int j = 0; j < nb && !found; j++)
			found = !strcmp(a[i], b[j]);
		if (!found)
			return false;
	}
	return true;
}

/* Splits "a, {b, c}, [d+1]" at top-level commas; '|' pairs stay one. */
static int split_operands(char *s, char *ops[8])
{
	int n = 0, depth = 0;
	char *start = s;
	for (char *c = s;; c++) {
		if (*c == '{' || *c == '[' || *c == '(')
			depth++;
		else if (*c == '}' || *c == ']' || *c == ')')
			depth--;
		if ((*c == ',' && depth == 0) || !*c) {
			bool end = !*c;
			*c = 0;
			while (isspace((unsigned char)*start))
				start++;
			if (*start && n < 8)
				ops[n++] = start;
			if (end)
				break;
			start = c + 1;
		}
	}
	return n;
}

/* What the register of a source operand prints as in ptx mode. */
static const char *reg_prefix(const char *o)
{
	if (!strncmp(o, "%rd", 3) || !strncmp(o, "%fd", 3))
		return "%rd";
	if (!strncmp(o, "%p", 2))
		return "%p";
	if (!strncmp(o, "%rs", 3) || !strncmp(o, "%r", 2) || !strncmp(o, "%f", 2) || !strncmp(o, "%h", 2))
		return "%r";
	return NULL;
}

static bool is_literal(const char *o)
{
	if (!strncmp(o, "0f", 2) || !strncmp(o, "0d", 2) || !strncmp(o, "0F", 2) || !strncmp(o, "0D", 2))
		return strlen(o) == 10 || strlen(o) == 18;
	const char *d = *o == '-' ? o + 1 : o;
	for (const char *c = d; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	return *d && !(d[0] == '0' && d[1]);
}

typedef struct tally {
	unsigned long insns, operands;
} tally_t;

/* One instruction against its source statement: guard, mnemonic words,
 * operand count, register kinds and literals. */
static void check_against(const char *file, uint32_t pc, const char *src, bool sguard, bool sneg, const char *text,
                          tally_t *t)
{
	char s[512], d[512];
	snprintf(s, sizeof s, "%s", src);
	bool dguard = text[0] == '@', dneg = dguard && text[1] == '!';
	const char *dt = dguard ? strchr(text, ' ') + 1 : text;
	snprintf(d, sizeof d, "%s", dt);
	cr_expect(sguard == dguard && sneg == dneg, "%s pc %u: guard of '%s' in '%s'", file, pc, src, text);
	char *sops = strpbrk(s, " \t"), *dops = strchr(d, ' ');
	if (sops)
		*sops++ = 0;
	if (dops)
		*dops++ = 0;
	char sw[12][24], dw[12][24];
	int ns = mnemonic_words(s, sw), nd = mnemonic_words(d, dw);
	if (!strcmp(sw[0], "ret") || !strcmp(sw[0], "call") || (!strcmp(sw[0], "mov") && strstr(src, "{") &&
	                                                         strstr(src, "}") != strrchr(src, '}')))
		return; /* lowered to exit or bra; call lists; a mov.v is several words */
	if (!strcmp(sw[0], "mov") && !strncmp(d, "add.u64", 7) && strstr(src, "__local_depot"))
		return; /* a recursive function's frame: its frame pointer plus the offset (ptx_parse.c) */
	for (int i = 0; i < ns; i++) /* .func parameters live in the local frame */
		if (!strcmp(sw[i], "param") && strstr(text, ".local"))
			snprintf(sw[i], 24, "local");
	if (!strcmp(sw[0], "bar") && ns == 1) /* bar 0 */
		snprintf(sw[ns++], 24, "sync");
	if (!strcmp(sw[0], "vote") && !strcmp(sw[1], "uni"))
		snprintf(sw[1], 24, "sync"), snprintf(sw[2], 24, "uni");
	cr_expect(same_words(sw, ns, dw, nd), "%s pc %u: mnemonic of '%s' in '%s'", file, pc, src, text);
	if (!strcmp(sw[0], "bra"))
		return;
	char *so[8], *dobj[8];
	int nso = sops ? split_operands(sops, so) : 0, ndo = dops ? split_operands(dops, dobj) : 0;
	if (!strcmp(sw[0], "bar") && nso == 3 && ndo == 3) /* bar.red without a count */
		nso = 3;
	cr_expect_eq(nso, ndo, "%s pc %u: %d operands in '%s', %d in '%s'", file, pc, nso, src, ndo, text);
	for (int i = 0; i < nso && i < ndo; i++, t->operands++) {
		const char *rp = reg_prefix(so[i]);
		if (rp && !strchr(so[i], '|') && !strchr(so[i], '.'))
			cr_expect(!strncmp(dobj[i], rp, strlen(rp)) && isdigit((unsigned char)dobj[i][strlen(rp)]),
			          "%s pc %u: operand %d '%s' of '%s' is '%s' in '%s'", file, pc, i, so[i], src, dobj[i], text);
		else if (is_literal(so[i]))
			cr_expect(!strcasecmp(so[i], dobj[i]), "%s pc %u: literal '%s' of '%s' is '%s' in '%s'", file, pc,
			          so[i], src, dobj[i], text);
	}
	t->insns++;
}

static void round_trip(const char *path, tally_t *t)
{
	FILE *f = fopen(path, "r");
	cr_assert(f, "%s", path);
	char **lines = NULL, buf[1024];
	size_t nl = 0;
	while (fgets(buf, sizeof buf, f)) {
		lines = realloc(lines, (nl + 2) * sizeof *lines);
		lines[++nl] = strdup(buf); /* 1-based */
	}
	fclose(f);
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_UNALLOC;
	h_start(&h);
	sc_module_t *m;
	cr_assert_eq(sc_module_load_file(h.gpu, path, &m), 0, "%s", sc_gpu_errmsg(h.gpu));
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		char text[256], src[512];
		bool guard, neg;
		cr_assert_lt(sc_disasm_pc(m, pc, text, sizeof text), (int)sizeof text);
		cr_assert(m->line[pc] >= 1 && m->line[pc] <= nl);
		statement(lines[m->line[pc]], src, sizeof src, &guard, &neg);
		const char *semi = strchr(lines[m->line[pc]], ';');
		if (!isalpha((unsigned char)src[0]) || (semi && strchr(semi + 1, ';')))
			continue; /* the exit or ret lowering adds at a closing brace; several statements */
		check_against(path, pc, src, guard, neg, text, t);
	}
	h_fini(&h);
	for (size_t i = 1; i <= nl; i++)
		free(lines[i]);
	free(lines);
}

Test(disasm, repository_ptx_round_trip)
{
	static const char *const patterns[] = {"tests/ptx/*/*.ptx", "examples/*/*.ptx"};
	tally_t t = {0};
	for (size_t p = 0; p < 2; p++) {
		glob_t g;
		memset(&g, 0, sizeof g);
		cr_assert(glob(patterns[p], 0, NULL, &g) == 0);
		for (size_t i = 0; i < g.gl_pathc; i++)
			round_trip(g.gl_pathv[i], &t);
		globfree(&g);
	}
	cr_log_info("%lu instructions, %lu operands compared", t.insns, t.operands);
	cr_expect_gt(t.insns, 3000);
}

/* ---- the command line -------------------------------------------------- */

Test(disasm, profile_disasm_cli)
{
	char out[512], errf[512];
	runs_tmpfile(out, sizeof out, "disasm");
	spawn_opts_t o = {.out = out};
	const char *args[] = {"profile", "--disasm", "--regs", "unalloc", "examples/vadd/vadd.ptx", NULL};
	cr_assert_eq(runs_flipsim(args, &o), 0);
	char *s = runs_slurp(out);
	cr_expect(strstr(s, ".entry vadd  // pcs 0-21") != NULL, "%s", s);
	cr_expect(strstr(s, "       9     37   @%p1 bra 21 (rpc 21)\n") != NULL, "%s", s);
	cr_expect(strstr(s, "      20     49   st.global.f32 [%rd30], %r3\n") != NULL, "%s", s);
	free(s);

	/* alloc mode, and ptx mode (the default), which runs the same code */
	const char *alloc[] = {"profile", "--disasm", "--regs", "alloc", "examples/vadd/vadd.ptx", NULL};
	cr_assert_eq(runs_flipsim(alloc, &o), 0);
	s = runs_slurp(out);
	cr_expect(strstr(s, "alloc register mode") != NULL && strstr(s, "ld.param.u64 %rd0, [0x0]") != NULL, "%s", s);
	const char *ptx[] = {"profile", "--disasm", "examples/vadd/vadd.ptx", NULL};
	cr_assert_eq(runs_flipsim(ptx, &o), 0);
	char *p = runs_slurp(out);
	cr_expect_str_eq(p, s);
	free(p);
	free(s);

	int st;
	runs_tmpfile(errf, sizeof errf, "disasm-err");
	spawn_opts_t oe = {.out = out, .err = errf};
	const char *json[] = {"profile", "--disasm", "examples/vadd/vadd.json", NULL};
	char *err = runs_flipsim_err(json, &oe, &st);
	cr_expect_eq(st, 2);
	cr_expect(strstr(err, "--disasm takes one .ptx file") != NULL, "%s", err);
	free(err);
	unlink(errf);
	unlink(out);
}
