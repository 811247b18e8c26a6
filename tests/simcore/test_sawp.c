/* SAWP and the other instruction-buffer schemes (sawp.c; DESIGN.md,
 * "SAWP"). One CTA on SM 0; a pause steps cycle by cycle until a warp is
 * about to issue the instruction on a given PTX line with that word in its
 * buffer's entry 0, and flips bits of that word there (the ibuffer
 * target's instr field: entry slot x ib_entries, 256 bits each). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/runs.h"
#include "harness.h"
#include "sc_int.h"

/* out[t] = t + 100 after a 20-iteration loop every warp runs alike. */
static const char straight[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r3, 0;\n"
	"L:\n"
	"	add.u32 %r3, %r3, 1;\n"
	"	setp.lt.u32 %p1, %r3, 20;\n"
	"	@%p1 bra L;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

/* Warp 0 runs a 100-iteration loop alone while the others wait at the
 * barrier: it runs far ahead of the SM's mean. out[t] = t + 100. */
static const char lag[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r3, 0;\n"
	"	setp.ge.u32 %p2, %r1, 32;\n"
	"	@%p2 bra W;\n"
	"L:\n"
	"	add.u32 %r3, %r3, 1;\n"
	"	setp.lt.u32 %p1, %r3, 100;\n"
	"	@%p1 bra L;\n"
	"W:\n"
	"	bar.sync 0;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

#define DST_BIT 128u     /* bit 0 of sc_insn_t.opnd[0]: the add's destination */
#define RESERVED_BIT 252 /* in sc_insn_t.reserved, bits 15..12 (always 0) */
#define NT 256           /* threads: 8 warps */

/* What the pause looks for and does: warp slot `slot` (-1: any) about to
 * issue the instruction on PTX line `line`, with at least min_exec issued
 * (sawp only) and, when want_x >= 0, entry 0's exist bit equal to it.
 * There it flips `bits` (a mask over the word's bits bit0, bit0 + 1, ...)
 * unless it is 0, notes what it saw and stops pausing. */
typedef struct plan {
	uint32_t line;
	int slot;
	uint64_t min_exec;
	int want_x;
	uint32_t bit0, bits;
	/* found */
	uint64_t at;
	int x, rc, found_slot;
	uint32_t count;  /* the linked table entry's counter */
} plan_t;

/* Whether warp slot s of SM 0 matches p. */
static bool matches(const sc_gpu_t *g, const plan_t *p, uint32_t s)
{
	const sc_warp_t *w = &g->sms[0].warps[s];
	if (w->state != SC_W_ACTIVE || !w->sp)
		return false;
	uint32_t pc = w->stk[w->sp - 1].pc;
	if (pc >= g->run.mod->ncode || g->run.mod->line[pc] != p->line || w->ib_pc != pc ||
	    w->ib[0].valid != (SC_IB_VALID | SC_IB_HELD))
		return false;
	const sc_sawp_t *sw = g->sms[0].sawp;
	if (sw && sw->nexec[s] < p->min_exec)
		return false;
	return p->want_x < 0 || sc__sawp_entry(g, 0, s, 0, NULL) == p->want_x;
}

static uint64_t on_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	plan_t *p = ctx;
	uint32_t nslots = g->run.ctas_per_sm * g->run.nwarps;
	for (uint32_t s = 0; s < nslots; s++) {
		if ((p->slot >= 0 && s != (uint32_t)p->slot) || !matches(g, p, s))
			continue;
		p->at = cycle;
		p->found_slot = (int)s;
		uint32_t t = 0;
		p->x = sc__sawp_entry(g, 0, s, 0, &t);
		if (p->x >= 0)
			sc__sawp_table(g, 0, t, &p->count, NULL);
		for (uint32_t b = 0; b < 32 && p->bits; b++)
			if (p->bits >> b & 1) {
				uint64_t loc = (uint64_t)s * g->cfg.ib_entries * 256 + p->bit0 + b;
				p->rc = sc_inject(g, SC_TGT_IBUFFER, SC_F_IB_INSTR, 0, loc, 1);
			}
		return UINT64_MAX;
	}
	return cycle + 1;
}

typedef struct outcome {
	int rc;
	sc_due_t due;
	sc_prot_t ev;
	uint64_t cycles;
	uint32_t out[NT];
	uint64_t hist[SC_IB_SIM_BINS];
	uint64_t warp_insts;
} outcome_t;

/* Runs ptx's k on one CTA of nt threads under ib, with plan p (NULL: none). */
static outcome_t run(const char *ptx, uint32_t nt, sc_ib_protection_t ib, plan_t *p, bool sim)
{
	h_ctx_t h;
	outcome_t o;
	memset(&o, 0, sizeof o);
	h_init(&h);
	h.opt.prot.ibuffer = ib;
	h.opt.ib_similarity = sim;
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, nt * 4, NULL);
	if (p)
		sc_set_pause(h.gpu, 1, on_pause, p);
	o.rc = h_launch(&h, "k", H_D1(1), H_D1(nt), 0, H_ARGS(&d));
	if (o.rc == 0)
		h_read(&h, o.out, d, nt * 4);
	o.due = h_status(&h)->reason;
	o.ev = sc_prot_first(h.gpu, NULL);
	o.cycles = h_last(&h)->cycles;
	o.warp_insts = h_last(&h)->warp_insts;
	memcpy(o.hist, h_last(&h)->ib_distinct, sizeof o.hist);
	h_fini(&h);
	return o;
}

static sc_ib_protection_t scheme(sc_ib_scheme_t s) { return (sc_ib_protection_t){.scheme = s}; }

static void expect_right(const outcome_t *o, uint32_t nt, uint32_t add)
{
	cr_expect_eq(o->rc, 0, "rc %d, DUE %s", o->rc, sc_due_name(o->due));
	for (uint32_t t = 0; t < nt && o->rc == 0; t++)
		cr_expect_eq(o->out[t], t + add, "out[%u] = %u, want %u", t, o->out[t], t + add);
}

/* Every out[t] of the nt is v. */
static void expect_all(const outcome_t *o, uint32_t nt, uint32_t v)
{
	cr_expect_eq(o->rc, 0, "rc %d, DUE %s", o->rc, sc_due_name(o->due));
	for (uint32_t t = 0; t < nt && o->rc == 0; t++)
		cr_expect_eq(o->out[t], v, "out[%u] = %u, want %u", t, o->out[t], v);
}

/* A plan flipping `bits` from bit0 of the add's word in warp slot 0. */
static plan_t at_add(const char *ptx, uint32_t bit0, uint32_t bits)
{
	return (plan_t){.line = h_line_of(ptx, "add.u32 %r2"), .want_x = -1, .bit0 = bit0, .bits = bits};
}

/* ---------------------------------------------------------------- fault-free */

Test(sawp, fault_free_runs_match_none)
{
	outcome_t none = run(straight, NT, scheme(SC_IB_NONE), NULL, false);
	expect_right(&none, NT, 100);
	for (int s = SC_IB_PARITY; s < SC_IB__COUNT; s++) {
		outcome_t o = run(straight, NT, scheme((sc_ib_scheme_t)s), NULL, false);
		cr_expect_eq(o.cycles, none.cycles, "%s: %llu cycles, none %llu", sc_ib_scheme_name((sc_ib_scheme_t)s),
		             (unsigned long long)o.cycles, (unsigned long long)none.cycles);
		cr_expect_eq(o.ev, SC_PROT_NONE);
		expect_right(&o, NT, 100);
		o = run(lag, NT, scheme((sc_ib_scheme_t)s), NULL, false);
		cr_expect_eq(o.rc, 0);
	}
}

/* Every cycle of a run: each table entry's counter is the number of
 * buffer entries linked to it, and a linked entry's word is valid. */
static uint64_t check_links(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	int *bad = ctx;
	const sc_sawp_t *s = g->sms[0].sawp;
	uint32_t count[SC_IB_TABLE_MAX] = {0};
	for (uint32_t e = 0; e < s->nent; e++)
		if (s->x[e]) {
			count[s->idx[e]]++;
			const sc_ibent_t *b = &g->sms[0].warps[e / g->cfg.ib_entries].ib[e % g->cfg.ib_entries];
			*bad += !(b->valid & SC_IB_VALID);
		}
	for (uint32_t t = 0; t < s->p.table_entries; t++)
		*bad += count[t] != s->tab[t].count;
	return cycle + 1;
}

Test(sawp, counters_count_the_linked_entries)
{
	/* the defaults, and small tables whose shared entries get evicted */
	const sc_ib_protection_t cases[] = {
		scheme(SC_IB_SAWP), scheme(SC_IB_SAWP_MIN), scheme(SC_IB_SAWP_FS),
		{.scheme = SC_IB_SAWP, .table_entries = 2, .threshold = 3},
		{.scheme = SC_IB_SAWP_MIN, .table_entries = 1},
	};
	for (size_t sc = 0; sc < sizeof cases / sizeof cases[0]; sc++)
		for (int k = 0; k < 2; k++) {
			h_ctx_t h;
			h_init(&h);
			h.opt.prot.ibuffer = cases[sc];
			h_load_ok(&h, k ? lag : straight);
			uint64_t d = h_alloc(&h, NT * 4, NULL);
			int bad = 0;
			sc_set_pause(h.gpu, 1, check_links, &bad);
			h_launch_ok(&h, "k", H_D1(1), H_D1(NT), 0, H_ARGS(&d));
			cr_expect_eq(bad, 0, "case %zu, %s: %d mismatches", sc, k ? "lag" : "straight", bad);
			uint32_t c;
			for (uint32_t t = 0; sc__sawp_table(h.gpu, 0, t, &c, NULL) == 0; t++)
				cr_expect_eq(c, 0, "table entry %u still shared by %u at the end", t, c);
			h_fini(&h);
		}
}

/* ---------------------------------------------------------------- one-bit errors */

/* none: the corrupted word issues: the add writes another register, and
 * %r2 keeps the 0 a CTA starts with. */
Test(sawp, none_issues_the_corrupted_word)
{
	plan_t p = at_add(straight, DST_BIT, 1);
	outcome_t o = run(straight, 32, scheme(SC_IB_NONE), &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(p.rc, 1);
	expect_all(&o, 32, 0);
	cr_expect_eq(o.ev, SC_PROT_NONE);
}

Test(sawp, parity_detects_a_one_bit_error)
{
	plan_t p = at_add(straight, DST_BIT, 1);
	outcome_t o = run(straight, 32, scheme(SC_IB_PARITY), &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(o.rc, SC_EDUE);
	cr_expect_eq(o.due, SC_DUE_IBUFFER_PARITY, "DUE %s", sc_due_name(o.due));
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
}

/* ecc restores the word and re-issues it reissue_penalty cycles later. */
Test(sawp, ecc_corrects_and_reissues)
{
	outcome_t golden = run(straight, 32, scheme(SC_IB_ECC), NULL, false);
	plan_t p = at_add(straight, DST_BIT, 1);
	outcome_t o = run(straight, 32, scheme(SC_IB_ECC), &p, false);
	cr_assert_neq(p.at, 0);
	expect_right(&o, 32, 100);
	cr_expect_eq(o.ev, SC_PROT_RECOVERED);
	cr_expect_geq(o.cycles, golden.cycles + 2, "%llu cycles, golden %llu", (unsigned long long)o.cycles,
	              (unsigned long long)golden.cycles);
	/* an explicit penalty is what it costs, one warp alone */
	sc_ib_protection_t slow = {.scheme = SC_IB_ECC, .reissue_penalty = 500};
	p = at_add(straight, DST_BIT, 1);
	o = run(straight, 32, slow, &p, false);
	expect_right(&o, 32, 100);
	cr_expect_geq(o.cycles, golden.cycles + 500);
	cr_expect_lt(o.cycles, golden.cycles + 520);
}

/* sawp, one warp: its entries always find a table entry. */
Test(sawp, sawp_protects_a_lone_warp)
{
	for (int sc = SC_IB_SAWP; sc < SC_IB__COUNT; sc++) {
		plan_t p = at_add(straight, RESERVED_BIT, 1);
		outcome_t o = run(straight, 32, scheme((sc_ib_scheme_t)sc), &p, false);
		cr_assert_neq(p.at, 0);
		cr_expect_eq(p.x, 1, "%s: the add's entry is linked", sc_ib_scheme_name((sc_ib_scheme_t)sc));
		expect_right(&o, 32, 100);
		cr_expect_eq(o.ev, SC_PROT_RECOVERED);
	}
}

/* Three bits: odd, so parity sees it, but beyond what the SEC code
 * corrects: detected and uncorrectable even under ecc. */
Test(sawp, ecc_does_not_correct_three_bits)
{
	plan_t p = at_add(straight, RESERVED_BIT, 7);
	outcome_t o = run(straight, 32, scheme(SC_IB_ECC), &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(o.due, SC_DUE_IBUFFER_PARITY);
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
}

/* Two bits: the parity holds and the corrupted add issues, as with none. */
Test(sawp, even_errors_pass_parity)
{
	for (int sc = SC_IB_PARITY; sc < SC_IB__COUNT; sc++) {
		plan_t p = at_add(straight, DST_BIT, 3);
		outcome_t o = run(straight, 32, scheme((sc_ib_scheme_t)sc), &p, false);
		cr_assert_neq(p.at, 0);
		expect_all(&o, 32, 0);
		cr_expect_eq(o.ev, SC_PROT_NONE, "%s: event %s", sc_ib_scheme_name((sc_ib_scheme_t)sc), sc_prot_name(o.ev));
	}
}

/* ---------------------------------------------------------------- sharing */

/* Eight warps running the same code share table entries. */
static uint64_t note_sharing(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	uint32_t *most = ctx, c;
	for (uint32_t t = 0; sc__sawp_table(g, 0, t, &c, NULL) == 0; t++)
		most[0] = c > most[0] ? c : most[0];
	return cycle + 1;
}

Test(sawp, warps_share_table_entries)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.prot.ibuffer = scheme(SC_IB_SAWP);
	h_load_ok(&h, straight);
	uint64_t d = h_alloc(&h, NT * 4, NULL);
	uint32_t most = 0;
	sc_set_pause(h.gpu, 1, note_sharing, &most);
	h_launch_ok(&h, "k", H_D1(1), H_D1(NT), 0, H_ARGS(&d));
	cr_expect_geq(most, 8, "at most %u entries shared a table entry", most);
	cr_expect_eq(sc__sawp_table(h.gpu, 0, 3, NULL, NULL), 0);
	cr_expect_eq(sc__sawp_table(h.gpu, 0, 4, NULL, NULL), -1, "sawp has 4 table entries");
	h_fini(&h);
	h_init(&h);
	h.opt.prot.ibuffer = scheme(SC_IB_SAWP_FS);
	h_start(&h);
	cr_expect_eq(sc__sawp_table(h.gpu, 0, 11, NULL, NULL), 0);
	cr_expect_eq(sc__sawp_table(h.gpu, 0, 12, NULL, NULL), -1, "sawp_fs has 12");
	h_fini(&h);
}

/* The same word eight times in a row: out[t] = 8. */
static const char repeat[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, 0;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	ret;\n"
	"}\n";

/* Every cycle: how many table entries in use keep the same word (the
 * most over the run). */
static uint64_t note_copies(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	uint32_t *most = ctx;
	const sc_sawp_t *s = g->sms[0].sawp;
	for (uint32_t a = 0; a < s->p.table_entries; a++) {
		uint32_t n = 0;
		for (uint32_t b = 0; b < s->p.table_entries && s->tab[a].count; b++)
			n += s->tab[b].count && !memcmp(&s->tab[a].ref, &s->tab[b].ref, sizeof(sc_insn_t));
		*most = n > *most ? n : *most;
	}
	return cycle + 1;
}

/* A word moving from entry 1 to entry 0 takes its table entry's ID along:
 * the next copy of the word finds it there and shares its ECC, so one
 * table entry serves the whole run of copies. */
Test(sawp, ids_follow_the_shift)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.prot.ibuffer = scheme(SC_IB_SAWP);
	h_load_ok(&h, repeat);
	uint64_t d = h_alloc(&h, 32 * 4, NULL);
	uint32_t most = 0, out[32];
	sc_set_pause(h.gpu, 1, note_copies, &most);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	h_read(&h, out, d, sizeof out);
	cr_expect_eq(out[5], 8);
	cr_expect_eq(most, 1, "%u table entries held the same word", most);
	h_fini(&h);
}

/* A corrupted word matches no fill: once the entry a table entry's ID
 * points to holds a flipped word, other warps filling the same word do
 * not link to it, and the ID stays with the corrupted warp. The watch
 * lasts while that warp has not issued (its issue would restore the word). */
typedef struct corrupt_watch {
	int phase;            /* 0 looking, 1 watching, 2 done */
	uint32_t slot, t, ib_pc;
	uint32_t cycles, moved;
} corrupt_watch_t;

static uint64_t corrupt_id(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	corrupt_watch_t *c = ctx;
	const sc_sawp_t *s = g->sms[0].sawp;
	uint32_t nib = g->cfg.ib_entries;
	if (c->phase == 0) {
		for (uint32_t t = 0; t < s->p.table_entries; t++) {
			const sc_sawp_ent_t *te = &s->tab[t];
			uint32_t slot = te->id / nib;
			if (!te->count || te->id % nib != 1 || !s->x[te->id] || s->idx[te->id] != t || slot == 7)
				continue;
			c->phase = 1;
			c->slot = slot;
			c->t = t;
			c->ib_pc = g->sms[0].warps[slot].ib_pc;
			sc_inject(g, SC_TGT_IBUFFER, SC_F_IB_INSTR, 0, (uint64_t)te->id * 256 + RESERVED_BIT, 1);
			break;
		}
	} else if (c->phase == 1) {
		if (g->sms[0].warps[c->slot].ib_pc != c->ib_pc || !s->tab[c->t].count) {
			c->phase = 2;
		} else {
			c->cycles++;
			c->moved += s->tab[c->t].id / nib != c->slot;
		}
	}
	return cycle + 1;
}

Test(sawp, a_corrupted_word_matches_no_fill)
{
	h_ctx_t h;
	h_init(&h);
	h.opt.prot.ibuffer = scheme(SC_IB_SAWP);
	h_load_ok(&h, straight);
	uint64_t d = h_alloc(&h, NT * 4, NULL);
	corrupt_watch_t c = {0};
	sc_set_pause(h.gpu, 1, corrupt_id, &c);
	h_launch_ok(&h, "k", H_D1(1), H_D1(NT), 0, H_ARGS(&d));
	cr_assert_eq(c.phase, 2, "an ID on a linked entry 1 was found and watched");
	cr_expect_gt(c.cycles, 0);
	cr_expect_eq(c.moved, 0, "another warp linked to the corrupted word's table entry in %u of %u cycles", c.moved,
	             c.cycles);
	h_fini(&h);
}

/* A table of two entries, each shared by more warps than the threshold
 * allows: a word that misses finds nothing to evict and goes unprotected.
 * One warp alone always finds a free entry. */
Test(sawp, a_full_table_leaves_entries_unprotected)
{
	sc_ib_protection_t two = {.scheme = SC_IB_SAWP, .table_entries = 2, .threshold = 1};
	plan_t p = at_add(straight, RESERVED_BIT, 1);
	p.slot = 0;
	outcome_t o = run(straight, NT, two, &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(p.x, 0, "the add's entry is not linked");
	cr_expect_eq(o.due, SC_DUE_IBUFFER_PARITY, "DUE %s", sc_due_name(o.due));
	p = at_add(straight, RESERVED_BIT, 1);
	o = run(straight, 32, two, &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(p.x, 1, "one warp's add is linked");
	expect_right(&o, 32, 100);
	cr_expect_eq(o.ev, SC_PROT_RECOVERED);
}

/* Warp 0 looping far ahead of its waiting CTA fails the progress check:
 * its loop's words miss and go unprotected; a wide window, or sawp_min,
 * protects them. */
Test(sawp, an_off_pace_warp_goes_unprotected)
{
	uint32_t line = h_line_of(lag, "@%p1 bra L"); /* prefetched, unlike the loop's first two */
	plan_t p = {.line = line, .slot = 0, .min_exec = 200, .want_x = -1, .bit0 = RESERVED_BIT, .bits = 1};
	outcome_t o = run(lag, NT, scheme(SC_IB_SAWP), &p, false);
	cr_assert_neq(p.at, 0);
	cr_expect_eq(p.x, 0, "the loop's add is not linked");
	cr_expect_eq(o.due, SC_DUE_IBUFFER_PARITY, "DUE %s", sc_due_name(o.due));
	cr_expect_eq(o.ev, SC_PROT_DETECTED);
	sc_ib_protection_t wide = {.scheme = SC_IB_SAWP, .progress_window = 1000};
	sc_ib_protection_t min = scheme(SC_IB_SAWP_MIN);
	const sc_ib_protection_t *ok[2] = {&wide, &min};
	for (int i = 0; i < 2; i++) {
		p = (plan_t){.line = line, .slot = 0, .min_exec = 200, .want_x = -1, .bit0 = RESERVED_BIT, .bits = 1};
		o = run(lag, NT, *ok[i], &p, false);
		cr_assert_neq(p.at, 0);
		cr_expect_eq(p.x, 1, "case %d: the loop's add is linked", i);
		expect_right(&o, NT, 100);
		cr_expect_eq(o.ev, SC_PROT_RECOVERED);
	}
}

/* ---------------------------------------------------------------- similarity */

/* Warps running the same stream hold few distinct words; the histogram
 * has one sample per issuing cycle: at least one per two issues (two
 * schedulers), at most one per issue. */
Test(sawp, similarity_histogram)
{
	outcome_t off = run(straight, NT, scheme(SC_IB_NONE), NULL, false);
	outcome_t o = run(straight, NT, scheme(SC_IB_NONE), NULL, true);
	cr_expect_eq(o.cycles, off.cycles, "sampling changes nothing");
	uint64_t n = 0, small = 0;
	for (uint32_t i = 0; i < SC_IB_SIM_BINS; i++) {
		n += o.hist[i];
		small += i <= 4 ? o.hist[i] : 0;
		cr_expect_eq(off.hist[i], 0);
	}
	cr_expect_geq(n, (o.warp_insts + 1) / 2, "%llu samples, %llu issues", (unsigned long long)n,
	              (unsigned long long)o.warp_insts);
	cr_expect_leq(n, o.warp_insts);
	cr_expect_gt(small * 2, n, "%llu of %llu samples with at most 4 distinct words", (unsigned long long)small,
	             (unsigned long long)n);
	cr_expect_eq(o.hist[0], 0, "an issuing warp holds its word");
}

/* ---------------------------------------------------------------- configuration */

Test(sawp, scheme_names_round_trip)
{
	for (int s = 0; s < SC_IB__COUNT; s++) {
		sc_ib_scheme_t back;
		cr_expect_eq(sc_ib_scheme_parse(sc_ib_scheme_name((sc_ib_scheme_t)s), &back), 0);
		cr_expect_eq(back, s);
	}
	sc_ib_scheme_t x;
	cr_expect_eq(sc_ib_scheme_parse("sawp_max", &x), SC_EINVAL);
	cr_expect_eq(sc_ib_scheme_parse(NULL, &x), SC_EINVAL);
	cr_expect_str_eq(sc_ib_scheme_name((sc_ib_scheme_t)99), "?");
	cr_expect_str_eq(sc_due_name(SC_DUE_IBUFFER_PARITY), "ibuffer_parity");
	cr_expect_str_eq(sc_prot_name(SC_PROT_RECOVERED), "recovered");
}

Test(sawp, defaults)
{
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_protection_t p = {.ibuffer = {.scheme = SC_IB_SAWP}};
	sc_ib_protection_t q = sc_ib_params(&p, &cfg);
	cr_expect_eq(q.table_entries, 4);
	cr_expect_eq(q.threshold, 4);
	cr_expect_eq(q.progress_window, 64);
	cr_expect_eq(q.reissue_penalty, cfg.latency[SC_LAT_BRANCH]);
	p.ibuffer.scheme = SC_IB_SAWP_FS;
	cr_expect_eq(sc_ib_params(&p, &cfg).table_entries, 12);
	cr_expect(sc_protection_on(&p));
}

Test(sawp, bad_settings_are_refused)
{
	static const struct {
		sc_ib_protection_t ib;
		const char *msg;
	} bad[] = {
		{{.scheme = (sc_ib_scheme_t)17}, "unknown scheme 17"},
		{{.scheme = SC_IB_SAWP, .table_entries = 65}, "65 table entries: at most 64"},
		{{.scheme = SC_IB_ECC, .table_entries = 4}, "belong to the sawp schemes, not ecc"},
		{{.scheme = SC_IB_PARITY, .threshold = 2}, "belong to the sawp schemes, not parity"},
		{{.scheme = SC_IB_SAWP_MIN, .threshold = 2}, "sawp_min has no threshold"},
		{{.scheme = SC_IB_PARITY, .reissue_penalty = 9}, "needs a correcting scheme"},
	};
	char msg[256];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sc_protection_t p = {.ibuffer = bad[i].ib};
		cr_expect_eq(sc_protection_check(&p, NULL, SC_REGS_ALLOC, msg, sizeof msg), SC_EINVAL, "case %zu", i);
		cr_expect(strstr(msg, bad[i].msg), "case %zu: '%s' lacks '%s'", i, msg, bad[i].msg);
	}
	sc_protection_t good = {.ibuffer = {.scheme = SC_IB_SAWP, .table_entries = 8, .threshold = 2,
	                                    .progress_window = 16, .reissue_penalty = 3}};
	cr_expect_eq(sc_protection_check(&good, NULL, SC_REGS_PTX, msg, sizeof msg), 0, "%s", msg);
}

/* The job file carries the scheme and its numbers after the codes. */
Test(sawp, job_file_protection_record)
{
	char path[64];
	runs_tmpfile(path, sizeof path, "sawp-job");
	sc_rt_job_t j = {.mode = SC_RT_GOLDEN, .regs = SC_REGS_ALLOC};
	sc_config_gtx480(&j.cfg);
	j.prot.ibuffer = (sc_ib_protection_t){.scheme = SC_IB_SAWP_FS, .table_entries = 12, .threshold = 3,
	                                      .progress_window = 32, .reissue_penalty = 7};
	cr_assert_eq(sc_rt_job_write(path, &j), 0);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	char line[512];
	bool found = false;
	while (fgets(line, sizeof line, f))
		found |= !strcmp(line, "protection none none none 0 sawp_fs 12 3 32 7\n");
	fclose(f);
	unlink(path);
	cr_expect(found, "the protection record names the scheme and its numbers");
}
