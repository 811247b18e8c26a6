/* The plain-text instruction tests: one Criterion test per case file of
 * tests/simcore/insn/ (format: its README.md; runner: insn.c), and tests
 * that the runner reports what it must (a wrong expected value, a case
 * that checks nothing, a malformed case) instead of passing silently. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn.h"

#define DIR "tests/simcore/insn/"

/* Runs text (or the file at path when text is NULL); returns the number of
 * failed cases, the report in *out (the caller frees it) and the cases. */
static int run(const char *path, const char *text, char **out, unsigned *ncases)
{
	size_t n = 0;
	FILE *rep = open_memstream(out, &n);
	cr_assert(rep);
	int failed = text ? insn_run_text(path, text, rep, ncases) : insn_run_file(path, rep, ncases);
	fclose(rep);
	return failed;
}

static void run_file(const char *file)
{
	char *report;
	unsigned ncases;
	int failed = run(file, NULL, &report, &ncases);
	cr_expect_eq(failed, 0, "%d of %u cases of %s failed:\n%s", failed, ncases, file, report);
	cr_expect_gt(ncases, 0, "%s holds no case", file);
	free(report);
}


Test(insn, int) { run_file(DIR "int.txt"); }
Test(insn, bit) { run_file(DIR "bit.txt"); }
Test(insn, fp32) { run_file(DIR "fp32.txt"); }
Test(insn, fp64) { run_file(DIR "fp64.txt"); }
Test(insn, f16) { run_file(DIR "f16.txt"); }
Test(insn, cmp) { run_file(DIR "cmp.txt"); }
Test(insn, cvt) { run_file(DIR "cvt.txt"); }
Test(insn, mem) { run_file(DIR "mem.txt"); }
Test(insn, mov) { run_file(DIR "mov.txt"); }
Test(insn, warp) { run_file(DIR "warp.txt"); }

/* ---- the runner reports failures ---------------------------------------- */

/* text has `want` failing cases among `cases`, and its report holds `frag`. */
static void expect_report(const char *text, int want, unsigned cases, const char *frag)
{
	char *report;
	unsigned ncases;
	int failed = run("t.txt", text, &report, &ncases);
	cr_expect_eq(failed, want, "%d failed, expected %d; report:\n%s", failed, want, report);
	cr_expect_eq(ncases, cases, "%u cases read, expected %u", ncases, cases);
	cr_expect(strstr(report, frag), "the report lacks '%s':\n%s", frag, report);
	free(report);
}

Test(insn, wrong_expected_value_fails)
{
	expect_report("# right\nadd.s32 d, a, b\na = 7\nb = -3\nd = 4\n\n"
	              "# wrong\nadd.s32 d, a, b\na = 7\nb = -3\nd = 5\n",
	              1, 2, "t.txt:11: converged run (lanes 0xffffffff), thread 0: d = 0x00000004, expected 0x00000005");
}

Test(insn, wrong_lane_and_sentinel_fail)
{
	/* one thread's expected value wrong; and a guarded write that leaves
	 * the lanes the diverged run turns off untouched is right */
	expect_report("add.u32 d, a, 1\nthreads = 4\na = 1 2 3 4\nd = 2 3 5 5\n", 1, 1, "thread 2: d = 0x00000004");
	expect_report("setp.lt.s32 p|q, a, b\na = -1\nb = 0\np = 1\nq = 1\n", 1, 1, "q = 0, expected 1");
}

Test(insn, malformed_cases_fail)
{
	expect_report("add.s32 d, a, b\na = 7\nb = 1\n", 1, 1, "checks nothing");
	expect_report("add.s32 d, a, b\na = 7\nb = 1\nd = 0x100000000\n", 1, 1, "does not fit");
	expect_report("add.s32 d, a, b\na:u33 = 7\nb = 1\nd = 8\n", 1, 1, "unknown type 'u33'");
	expect_report("add.s32 d, a, b\na = 7\nb = 1\nc = 2\nd = 8\n", 1, 1, "'c' is not used");
	expect_report("add.s32 d, a, b\na = 1 2\nb = 1 2 3\nd = 2\n", 1, 1, "3 values for 2 threads");
	expect_report("add.s32 d, a, b\na = 7\nb = 1\nd = 8\ndue = nonsense\n", 1, 1, "unknown DUE reason");
	expect_report("frobnicate.s32 d, a\na = 7\nd = 8\n", 1, 1, "the PTX was refused");
	expect_report("add.s32 d, a, b\na = x\nb = 1\nd = 2\n", 1, 1, "'x' is not a value of type s32");
	expect_report("[q] = 1\n", 1, 1, "t.txt:1: [q] = names no buffer");
}

Test(insn, due_and_error_expectations)
{
	static const char ok[] = "# misaligned\nld.global.u32 d, [p+2]\np:global.u32 = 1 2\nd = 0\ndue = misaligned_address\n\n"
	                         "# refused\nadd.f32.s32 d, a, b\na = 1\nb = 2\nd = 3\nerror = \n";
	expect_report(ok, 0, 2, "");
	expect_report("ld.global.u32 d, [p]\np:global.u32 = 1 2\nd = 1\ndue = misaligned_address\n", 1, 1,
	              "ran to its end; expected DUE misaligned_address");
	expect_report("add.s32 d, a, b\na = 7\nb = 1\nd = 8\nerror = not allowed\n", 1, 1, "was accepted");
}

Test(insn, buffers)
{
	expect_report("st.global.u8 [p+1], v\np:global.u8 = 0xaa*4\nv:b32 = 0x12345678\n[p] = 0xaa 0x78 0xaa 0xaa\n", 0, 1, "");
	expect_report("st.global.u8 [p+1], v\np:global.u8 = 0xaa*4\nv:b32 = 0x12345678\n[p] = 0xaa 0x77 0xaa 0xaa\n", 1, 1,
	              "[p] element 1 = 0x78, expected 0x77");
}
