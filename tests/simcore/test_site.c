/* Decoded fault sites and the watch (site.c): one warp of 32 threads on SM
 * 0, CTA slot 0, warp slot 0, paused at a known cycle; every expected field
 * follows from the kernel below and the layouts documented in fault.c. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* %r<6> are slots 0..5, %rd<4> slots 6..13 (14 per thread), %p<2>
 * predicates 0..1. r1 = tid, then a 50-iteration loop on r2 (r1 is not
 * read in it), then out[tid] = r1 + r2 + acc[tid], acc a named shared
 * variable after pad (both used: the layout keeps only used ones). r4 is
 * written after the loop before any read of it. */
static const char ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	.shared .align 4 .b8 pad[16];\n"
	"	.shared .align 4 .b32 acc[32];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, 0;\n"
	"L:\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	setp.lt.u32 %p1, %r2, 50;\n"
	"	@%p1 bra L;\n"
	"	add.u32 %r3, %r1, %r2;\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	st.shared.u32 [pad+4], %r4;\n"
	"	mul.wide.u32 %rd2, %r4, 4;\n"
	"	mov.u64 %rd0, acc;\n"
	"	add.s64 %rd0, %rd0, %rd2;\n"
	"	ld.shared.u32 %r5, [%rd0];\n"
	"	add.u32 %r3, %r3, %r5;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r3;\n"
	"	ret;\n"
	"}\n";

#define REGS 14
#define RF_LOC(reg, lane, bit) ((((uint64_t)(reg) * 32 + (lane)) * 32) + (bit))

typedef struct probe {
	uint64_t at;
	sc_target_t t;
	unsigned fields;
	uint64_t loc;
	uint32_t nbits;
	bool watch, inject, may_fail; /* may_fail: the launch may end in a DUE */
	char site[1024], effect[1024];
} probe_t;

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	probe_t *p = ctx;
	(void)cycle;
	uint64_t h = sc_state_hash(g);
	cr_assert_gt(sc_site_json(g, p->t, p->fields, 0, p->loc, p->nbits, p->site, sizeof p->site), 0);
	if (p->watch)
		sc_watch(g, p->t, p->fields, 0, p->loc, p->nbits, p->effect, sizeof p->effect);
	cr_expect_eq(sc_state_hash(g), h, "decoding and watching change nothing");
	if (p->inject) {
		int use = sc_target_in_use(g, p->t, p->fields, 0, p->loc, p->nbits);
		cr_expect_eq(sc_inject(g, p->t, p->fields, 0, p->loc, p->nbits), use, "flipped exactly when in use");
	}
	return UINT64_MAX;
}

static void run(probe_t *p, uint32_t out[32])
{
	h_ctx_t h;
	int rc = h_run_warp(&h, ptx, p->at, on_pause, p, out);
	if (!p->may_fail)
		cr_assert_eq(rc, 0);
	h_fini(&h);
}

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	cr_assert_not_null(j, "not JSON: %s (%s)", text, e.text);
	cr_assert(!strpbrk(text, " \t\n"), "no blank inside: %s", text);
	return j;
}

static const char *str(const json_t *j, const char *key) { return json_string_value(json_object_get(j, key)); }
static long long num(const json_t *j, const char *key) { return json_integer_value(json_object_get(j, key)); }

Test(site, register_word_names_its_warp_lane_and_virtual_register)
{
	uint32_t out[32];
	probe_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(1, 5, 3), .nbits = 1, .watch = true, .inject = true};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect_str_eq(str(j, "target"), "regfile");
	cr_expect_str_eq(str(j, "kernel"), "k");
	cr_expect_eq(num(j, "launch"), 0);
	cr_expect(json_is_true(json_object_get(j, "in_use")));
	cr_expect_eq(num(j, "phys"), 1 * 32 + 5);
	cr_expect_eq(num(j, "warp"), 0);
	cr_expect_eq(num(j, "lane"), 5);
	cr_expect_eq(num(j, "reg"), 1);
	cr_expect_str_eq(str(j, "vreg"), "%r1");
	cr_expect_eq(num(j, "bit"), 3);
	cr_expect_str_eq(str(j, "before"), "0x00000005", "r1 = tid = 5");
	cr_expect_str_eq(str(j, "after"), "0x0000000d");
	json_t *cta = json_object_get(j, "cta");
	cr_expect_eq(json_array_size(cta), 3);
	json_decref(j);
	/* in the loop r1 is not read: the add after the loop reads it first */
	j = parse(p.effect);
	cr_expect_str_eq(str(j, "first"), "read", "%s", p.effect);
	cr_expect_str_eq(str(j, "op"), "add.u32");
	cr_expect_eq(num(j, "ptx_line"), h_line_of(ptx, "add.u32 %r3, %r1, %r2"));
	cr_expect_gt(num(j, "cycle"), 500);
	json_decref(j);
	cr_expect_eq(out[5], (5u ^ 8u) + 50 + 0);
}

Test(site, a_register_written_before_read_is_overwritten)
{
	uint32_t out[32];
	probe_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(4, 9, 0), .nbits = 1, .watch = true, .inject = true};
	run(&p, out);
	json_t *j = parse(p.effect);
	cr_expect_str_eq(str(j, "first"), "overwritten", "%s", p.effect);
	cr_expect_eq(num(j, "ptx_line"), h_line_of(ptx, "mov.u32 %r4, %tid.x"));
	json_decref(j);
	for (uint32_t t = 0; t < 32; t++)
		cr_expect_eq(out[t], t + 50, "masked");
}

Test(site, the_upper_word_of_a_64_bit_register_says_its_half)
{
	uint32_t out[32];
	/* %rd1 is slots 8 and 9 (%rd0 is 6, 7) */
	probe_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(9, 0, 0), .nbits = 1};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect_str_eq(str(j, "vreg"), "%rd1");
	cr_expect_eq(num(j, "half"), 1);
	json_decref(j);
}

Test(site, an_unallocated_word_is_not_in_use)
{
	uint32_t out[32];
	/* warp slot 1 belongs to CTA slot 1, which is not resident */
	probe_t p = {.at = 500, .t = SC_TGT_REGFILE, .loc = RF_LOC(REGS + 1, 5, 3), .nbits = 1, .watch = true};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect(json_is_false(json_object_get(j, "in_use")));
	cr_expect_null(json_object_get(j, "warp"));
	json_decref(j);
	cr_expect_str_eq(p.effect, "{\"followed\":false}");
}

Test(site, predicate_lane_and_its_reading_guard)
{
	uint32_t out[32];
	/* p1 of lane 7: written by setp and read by the guard, every iteration */
	probe_t p = {.at = 500, .t = SC_TGT_PRED, .loc = 1 * 32 + 7, .nbits = 1, .watch = true, .inject = true};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect_eq(num(j, "pred"), 1);
	cr_expect_eq(num(j, "lane"), 7);
	cr_expect_str_eq(str(j, "vreg"), "%p1");
	json_decref(j);
	j = parse(p.effect);
	const char *first = str(j, "first");
	cr_assert_not_null(first, "%s", p.effect);
	if (!strcmp(first, "read"))
		cr_expect_eq(num(j, "ptx_line"), h_line_of(ptx, "@%p1 bra L"), "the guard reads it");
	else
		cr_expect_eq(num(j, "ptx_line"), h_line_of(ptx, "setp.lt.u32"), "setp writes it");
	json_decref(j);
}

Test(site, shared_byte_names_its_variable_and_is_read_by_the_load)
{
	uint32_t out[32];
	/* acc[3] byte 1 (acc after pad[16]): read by lane 3's ld.shared */
	probe_t p = {.at = 500, .t = SC_TGT_SMEM, .loc = (16 + 3 * 4 + 1) * 8 + 2, .nbits = 1, .watch = true,
	             .inject = true};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect_eq(num(j, "offset"), 16 + 3 * 4 + 1);
	cr_expect_str_eq(str(j, "var"), "acc");
	cr_expect_eq(num(j, "var_offset"), 3 * 4 + 1, "%s", p.site);
	cr_expect_str_eq(str(j, "before"), "0x00");
	cr_expect_str_eq(str(j, "after"), "0x04");
	json_decref(j);
	j = parse(p.effect);
	cr_expect_str_eq(str(j, "first"), "read", "%s", p.effect);
	cr_expect_str_eq(str(j, "op"), "ld.shared.u32");
	cr_expect_str_eq(str(j, "insn"), "ld.shared.u32 %r5, [%rd0]", "registers by their PTX names, not slots 5 and 6");
	json_decref(j);
	cr_expect_eq(out[3], 3 + 50 + (4u << 8), "%u", out[3]);
	cr_expect_eq(out[4], 4 + 50);
}

Test(site, simt_and_instruction_buffer_entries)
{
	uint32_t out[32];
	probe_t p = {.at = 500, .t = SC_TGT_SIMT, .fields = SC_F_SIMT_MASK, .loc = 0 * 32 + 4, .nbits = 1};
	run(&p, out);
	json_t *j = parse(p.site);
	cr_expect_eq(num(j, "entry"), 0);
	cr_expect_str_eq(str(j, "field"), "mask");
	cr_expect_str_eq(str(j, "before"), "0xffffffff");
	cr_expect_str_eq(str(j, "after"), "0xffffffef");
	json_decref(j);
	/* entries 0 and 1: a valid one names the word it holds */
	int valid = 0;
	for (uint64_t e = 0; e < 2; e++) {
		probe_t q = {.at = 500, .t = SC_TGT_IBUFFER, .fields = SC_F_IB_VALID, .loc = e, .nbits = 1, .watch = true};
		run(&q, out);
		j = parse(q.site);
		cr_expect_eq(num(j, "entry"), (long long)e);
		cr_expect_str_eq(str(j, "field"), "valid");
		bool v = !strcmp(str(j, "before"), "0x1");
		valid += v;
		cr_expect_eq(str(j, "insn") != NULL, v, "the word of a valid entry, disassembled: %s", q.site);
		json_decref(j);
		cr_expect_str_eq(q.effect, "{\"followed\":false}", "the buffer is not followed");
	}
	cr_expect_gt(valid, 0, "a warp in a loop holds some word");
}

Test(site, a_site_that_does_not_fit_stays_valid_json)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	char small[40];
	int k = sc_site_json(h.gpu, SC_TGT_REGFILE, 0, 0, 0, 1, small, sizeof small);
	cr_expect_gt(k, 0);
	json_decref(parse(small));
	cr_expect_eq(sc_site_json(h.gpu, SC_TGT_REGFILE, 0, 0, 0, 1, small, 8), -1);
	cr_expect_eq(sc_site_json(h.gpu, SC_TGT_REGFILE, 0, 99, 0, 1, small, sizeof small), -1, "no SM 99");
	h_fini(&h);
}

/* A flipped bit of a buffered instruction word: followed to the next issue
 * of its pc, which issues the corrupted word (read) unless the buffer was
 * flushed and the word fetched again (overwritten). */
Test(site, a_buffered_word_is_read_when_its_pc_issues)
{
	uint32_t out[32];
	int read = 0, in_use = 0;
	for (uint64_t at = 480; at < 520; at += 4) {
		/* entry 0's word, bit 40 */
		probe_t p = {.at = at, .t = SC_TGT_IBUFFER, .fields = SC_F_IB_INSTR, .loc = 40, .nbits = 1, .watch = true,
		             .inject = true, .may_fail = true};
		run(&p, out);
		json_t *s = parse(p.site), *e = parse(p.effect);
		if (json_is_true(json_object_get(s, "in_use"))) {
			in_use++;
			const char *first = str(e, "first");
			if (first) {
				cr_expect_eq(num(e, "pc"), num(s, "pc"), "%s / %s", p.site, p.effect);
				read += !strcmp(first, "read");
			}
		} else {
			cr_expect_str_eq(p.effect, "{\"followed\":false}");
		}
		json_decref(s);
		json_decref(e);
	}
	cr_expect_gt(in_use, 0);
	cr_expect_gt(read, 0, "the corrupted word issues");
}

/* In alloc mode the text of an instruction is the PTX's: the ptx-mode word
 * at its pc with the declared names, not the allocated slots. */
Test(site, alloc_mode_names_the_ptx_instruction)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = SC_REGS_ALLOC;
	sc_module_t *m = h_load_ok(&h, ptx);
	cr_assert_not_null(m->code_ptx, "alloc mode keeps the ptx-mode code");
	long long want = h_line_of(ptx, "add.u32 %r3, %r1, %r2");
	int found = 0;
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		if (m->line[pc] != want)
			continue;
		char text[160];
		cr_assert_gt(sc__disasm_ptx(m, pc, text, sizeof text), 0);
		cr_expect_str_eq(text, "add.u32 %r3, %r1, %r2");
		found++;
	}
	cr_expect_eq(found, 1);
	h_fini(&h);
}

/* A SIMT entry is read by the next issue while it is the top (its pc, its
 * mask); an entry above the top is not in use and not followed. */
Test(site, the_top_simt_entry_is_read_by_the_next_issue)
{
	uint32_t out[32];
	/* lane 4 leaves the active mask while it is live (the run may end in
	 * a DUE when the stack empties with it) */
	probe_t p = {.at = 500, .t = SC_TGT_SIMT, .fields = SC_F_SIMT_MASK, .loc = 0 * 32 + 4, .nbits = 1,
	             .watch = true, .inject = true, .may_fail = true};
	run(&p, out);
	json_t *e = parse(p.effect);
	cr_expect_str_eq(str(e, "first"), "read", "%s", p.effect);
	cr_expect_geq(num(e, "cycle"), 500);
	json_decref(e);
	probe_t q = {.at = 500, .t = SC_TGT_SIMT, .fields = SC_F_SIMT_MASK, .loc = 1 * 32 + 4, .nbits = 1, .watch = true};
	run(&q, out);
	cr_expect_str_eq(q.effect, "{\"followed\":false}");
}
