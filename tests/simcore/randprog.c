/* Random PTX programs for the allocator's and the passes' tests
 * (harness.h, h_random_program). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>

#include "harness.h"

/* Random kernels over %r1..%r11, %rd4..%rd6 and %p1..%p3: arithmetic,
 * guarded arithmetic, nested if/else and loops with per-thread trip counts,
 * 64-bit products, unpacking moves, calls of two random .func (the second
 * may call the first, calls sit in divergent code and loops), and reads of
 * registers no path has written yet: in a kernel they read the zeros a CTA
 * starts with, in a .func what its previous call left. */
typedef struct gen {
	uint64_t s;
	char *p;
	size_t left;
	int labels;
	int ncallable;       /* functions f0 .. f(n-1) may be called here */
} gen_t;

static uint32_t rnd(gen_t *g, uint32_t n)
{
	g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(g->s >> 33) % n;
}

static void emit(gen_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen_t *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(g->p, g->left, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0 && (size_t)n < g->left, "generated program too long");
	g->p += n;
	g->left -= (size_t)n;
}

static void gen_block(gen_t *g, int depth, int nstmt)
{
	static const char *const ops[] = {"add.u32", "sub.u32", "mul.lo.u32", "xor.b32", "and.b32", "or.b32"};
	for (int i = 0; i < nstmt; i++) {
		uint32_t d = 1 + rnd(g, 11), a = 1 + rnd(g, 11), b = 1 + rnd(g, 11), k = rnd(g, 10);
		const char *op = ops[rnd(g, 6)];
		if (k < 4) {
			emit(g, "\t%s %%r%u, %%r%u, %%r%u;\n", op, d, a, b);
		} else if (k == 4) {
			emit(g, "\t@%s%%p%u %s %%r%u, %%r%u, %u;\n", rnd(g, 2) ? "!" : "", 1 + rnd(g, 3), op, d, a, rnd(g, 100));
		} else if (k == 5) {
			emit(g, "\tsetp.lt.u32 %%p%u, %%r%u, %%r%u;\n", 1 + rnd(g, 3), a, b);
		} else if (k == 6) {
			uint32_t w = 4 + rnd(g, 3);
			emit(g, "\tmul.wide.u32 %%rd%u, %%r%u, %%r%u;\n", w, a, b);
			if (rnd(g, 2))
				emit(g, "\tmov.b64 {%%r%u, %%r%u}, %%rd%u;\n", d, b == d ? 1 + d % 11 : b, w);
			else
				emit(g, "\tadd.s64 %%rd%u, %%rd%u, %%rd%u;\n\tcvt.u32.u64 %%r%u, %%rd%u;\n", w, w,
				     4 + rnd(g, 3), d, w);
		} else if (k == 7 && depth < 3) {
			int l = g->labels++;
			emit(g, "\tand.b32 %%r%u, %%r0, %u;\n\tsetp.eq.u32 %%p%u, %%r%u, 0;\n\t@%%p%u bra L_else%d;\n", 12 + depth,
			     1u << rnd(g, 5), 1 + depth % 3, 12 + depth, 1 + depth % 3, l);
			gen_block(g, depth + 1, 1 + (int)rnd(g, 5));
			emit(g, "\tbra.uni L_join%d;\nL_else%d:\n", l, l);
			gen_block(g, depth + 1, 1 + (int)rnd(g, 5));
			emit(g, "L_join%d:\n", l);
		} else if (k == 9 && g->ncallable && rnd(g, 2)) {
			emit(g, "\t{\n\t.param .b32 a;\n\t.param .b32 rv;\n\tst.param.b32 [a], %%r%u;\n"
			        "\tcall (rv), f%u, (a);\n\tld.param.b32 %%r%u, [rv];\n\t}\n",
			     a, rnd(g, (uint32_t)g->ncallable), d);
		} else if (k == 8 && depth < 3) {
			/* counter %r12+depth, trip count 1 + (tid >> s) % 4 */
			int l = g->labels++;
			uint32_t c = 12 + (uint32_t)depth;
			emit(g, "\tmov.u32 %%r%u, 0;\nL_loop%d:\n", c, l);
			gen_block(g, depth + 1, 1 + (int)rnd(g, 5));
			emit(g,
			     "\tadd.u32 %%r%u, %%r%u, 1;\n\tshr.u32 %%r15, %%r0, %u;\n\tand.b32 %%r15, %%r15, 3;\n"
			     "\tsetp.le.u32 %%p0, %%r%u, %%r15;\n\t@%%p0 bra L_loop%d;\n",
			     c, c, rnd(g, 4), c, l);
		} else {
			emit(g, "\tmov.u32 %%r%u, %%r%u;\n", d, a);
		}
	}
}

static void random_program(uint64_t seed, char *ptx, size_t n, bool funcs)
{
	gen_t g = {.s = seed * 0x9e3779b97f4a7c15ull, .p = ptx, .left = n};
	emit(&g, "%s", H_PTX_HEAD);
	for (int f = 0; f < 2 && funcs; f++) {
		emit(&g, ".func (.param .b32 rv) f%d(.param .b32 a)\n{\n"
		         "\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<8>;\n\t.reg .pred %%p<4>;\n"
		         "\tmov.u32 %%r0, %%tid.x;\n\tld.param.b32 %%r%u, [a];\n", f, 1 + rnd(&g, 11));
		g.ncallable = f;
		gen_block(&g, 1, 2 + (int)rnd(&g, 6));
		emit(&g, "\tst.param.b32 [rv], %%r%u;\n\tret;\n}\n", 1 + rnd(&g, 11));
	}
	g.ncallable = funcs ? 2 : 0;
	emit(&g, ".visible .entry k(.param .u64 out)\n{\n"
	         "\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<8>;\n\t.reg .pred %%p<4>;\n"
	         "\tmov.u32 %%r0, %%tid.x;\n\tld.param.u64 %%rd0, [out];\n"
	         "\tmul.wide.u32 %%rd2, %%r0, 44;\n\tadd.s64 %%rd1, %%rd0, %%rd2;\n");
	/* some registers start from the thread index, the rest from zero */
	for (uint32_t r = 1; r <= 11; r++)
		if (rnd(&g, 2))
			emit(&g, "\tmad.lo.u32 %%r%u, %%r0, %u, %u;\n", r, 1 + rnd(&g, 50), rnd(&g, 1000));
	gen_block(&g, 0, 6 + (int)rnd(&g, 10));
	for (uint32_t r = 1; r <= 11; r++)
		emit(&g, "\tst.global.u32 [%%rd1+%u], %%r%u;\n", 4 * (r - 1), r);
	emit(&g, "\tret;\n}\n");
}

void h_random_program(uint64_t seed, char *ptx, size_t n) { random_program(seed, ptx, n, true); }
void h_random_kernel(uint64_t seed, char *ptx, size_t n) { random_program(seed, ptx, n, false); }
