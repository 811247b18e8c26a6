/* SHARP: SHAred memory to Register Protection (DESIGN.md, "SHARP"; Tan,
 * Li, Fu, CF'13). While a warp waits on an off-chip access, the SECDED
 * (39,32) check bits of each of its registers' lanes are kept in shared-
 * memory words the program has not written, four lanes per word, and
 * checked when the access is done: single errors are corrected in the
 * register file, detected ones are a DUE.
 *
 * Windows. The first access of a warp that reaches DRAM (sc__mem_time:
 * an L1 or L2 hit does not) opens a window and queues a recording request;
 * later ones of the burst extend it (off). At the warp's first issue at or
 * after off the window closes: a check request is queued and the warp
 * waits for its end (chk), the model's only fault-free cost in cycles; at
 * that issue the check runs. A warp that exits closes its window at once.
 * One ECC server per SM serves requests in order from max(now, busy):
 * a recording ceil(R x 8 / 16) cycles (8 words per register vector over 16
 * banks), a check the same plus latency.shared. A recording is dropped when
 * request_queue requests are waiting, when warp_table warps are protected,
 * or when a word it maps to holds another warp's check bits.
 *
 * Mapping. Group g of register vector v (lanes 4g..4g+3; v = slot x R + r,
 * the physical vector) has group id (v << 3) | g and word id mod words. A
 * word the program wrote since its CTA started (valid) takes no check
 * bits: that group is unprotected; a store to a word holding check bits
 * drops them. A register written during the window frees its groups (the
 * check skips them).
 *
 * No check bit is stored (sc_sharp_t in sc_int.h): the recording keeps
 * the registers' values (snap), and the stored word's error pattern (eccx)
 * is what faults did to it, so a check's error pattern per lane is (snap
 * xor the register, eccx's 7 bits), decoded by ecc.c exactly as the stored
 * bits would be. A fault on a register before its recording ends (rec)
 * is recorded into the check bits: it reaches snap too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecc.h"
#include "sc_int.h"

#define BUSY_BIT (1u << 28)

sc_sharp_protection_t sc_sharp_params(const sc_protection_t *p)
{
	sc_sharp_protection_t s = p ? p->sharp : (sc_sharp_protection_t){0};
	if (!s.on)
		return (sc_sharp_protection_t){0};
	if (!s.request_queue)
		s.request_queue = 16;
	if (!s.warp_table)
		s.warp_table = 32;
	s.ecc = SC_CODE_SECDED;
	return s;
}

/* ------------------------------------------------------------ the state */
int sc__sharp_create(sc_gpu_t *g)
{
	const sc_gpu_config_t *c = &g->cfg;
	if (!g->opt.prot.sharp.on)
		return 0;
	uint32_t nw = c->max_warps_per_sm, words = c->smem_per_sm / 4;
	for (uint32_t i = 0; i < c->num_sms; i++) {
		sc_sharp_t *s = calloc(1, sizeof *s);
		g->sms[i].sharp = s;
		if (!s)
			return SC_ENOMEM;
		s->p = sc_sharp_params(&g->opt.prot);
		s->words = words;
		s->qcap = s->p.request_queue + 2 * nw;
		if (!(s->state = calloc(nw, 1)) || !(s->off = calloc(nw, 8)) || !(s->rec = calloc(nw, 8)) ||
		    !(s->chk = calloc(nw, 8)) || !(s->grp = calloc(c->regs_per_sm / 32 + 1, 1)) ||
		    !(s->snap = calloc(c->regs_per_sm + 1, 4)) || !(s->owner = calloc(words + 1, 2)) ||
		    !(s->gid = calloc(words + 1, 4)) || !(s->eccx = calloc(words + 1, 4)) ||
		    !(s->valid = calloc(words + 1, 1)) || !(s->ever = calloc(words + 1, 1)) ||
		    !(s->cta_at = calloc(c->max_ctas_per_sm, 8)) || !(s->q = calloc(s->qcap, 8)))
			return SC_ENOMEM;
	}
	return 0;
}

void sc__sharp_destroy(sc_gpu_t *g)
{
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		sc_sharp_t *s = g->sms[i].sharp;
		if (!s)
			continue;
		void *v[] = {s->state, s->off, s->rec, s->chk, s->grp, s->snap, s->owner, s->gid,
		             s->eccx, s->valid, s->ever, s->cta_at, s->q};
		for (size_t k = 0; k < sizeof v / sizeof *v; k++)
			free(v[k]);
		free(s);
		g->sms[i].sharp = NULL;
	}
}

void sc__sharp_launch(sc_gpu_t *g)
{
	const sc_gpu_config_t *c = &g->cfg;
	for (uint32_t i = 0; i < c->num_sms; i++) {
		sc_sharp_t *s = g->sms[i].sharp;
		if (!s)
			continue;
		uint32_t nw = c->max_warps_per_sm, W = s->words;
		memset(s->state, 0, nw);
		memset(s->grp, 0, c->regs_per_sm / 32 + 1);
		memset(s->owner, 0, (W + 1) * sizeof *s->owner);
		memset(s->eccx, 0, (W + 1) * sizeof *s->eccx);
		memset(s->valid, 0, W + 1);
		memset(s->ever, 0, W + 1);
		s->busy = s->qhead = s->qn = s->ntab = 0;
		s->nvalid = 0;
		s->valid_at = g->cycle;
		memset(&s->st, 0, sizeof s->st);
	}
}

/* ------------------------------------------------------------ the queue */
/* Cycles the server takes to record (and, plus latency.shared, check) a
 * warp's R register vectors: 8 words each over 16 banks. */
static uint64_t rec_cycles(const sc_gpu_t *g) { return ((uint64_t)g->run.regs * 8 + 15) / 16; }

/* Requests still waiting at now (their service starts later). */
static uint32_t waiting(sc_sharp_t *s, uint64_t now)
{
	while (s->qn && s->q[s->qhead] <= now) {
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qn--;
	}
	return s->qn;
}

/* Queues a request of `len` cycles at now: its end. */
static uint64_t serve(sc_sharp_t *s, uint64_t now, uint64_t len)
{
	uint64_t start = s->busy > now ? s->busy : now;
	waiting(s, now);
	if (s->qn < s->qcap) { /* a warp has at most two requests queued: always */
		s->q[(s->qhead + s->qn) % s->qcap] = start;
		s->qn++;
	}
	s->busy = start + len;
	return s->busy;
}

/* ------------------------------------------------------------ groups */
static uint32_t vec_of(const sc_sm_t *sm, const sc_warp_t *w) { return (uint32_t)((w->rf - sm->rf) / 32); }

/* The word of group 0 of vector v; group g's is the g-th after it,
 * wrapping at s->words. */
static uint32_t word0(const sc_sharp_t *s, uint32_t v) { return (uint32_t)(((uint64_t)v << 3) % s->words); }

static uint32_t next_word(const sc_sharp_t *s, uint32_t w) { return w + 1 == s->words ? 0 : w + 1; }

/* Group gid's stored check bits go: its word is free again; the lane-
 * cycles it was protected count (statistics). */
static inline void release(sc_sharp_t *s, uint32_t word, uint64_t now)
{
	uint32_t gid = s->gid[word];
	uint32_t slot = s->owner[word] - 1u;
	s->grp[gid >> 3] &= (uint8_t)~(1u << (gid & 7));
	if (now > s->rec[slot])
		s->st.prot_reg_cycles += 4 * (now - s->rec[slot]);
	s->owner[word] = 0;
	s->eccx[word] = 0;
}

/* Whether `word` holds the bits of group g of vector v of warp slot. */
static bool held(const sc_sharp_t *s, uint32_t slot, uint32_t v, uint32_t g, uint32_t word)
{
	return s->owner[word] == slot + 1 && s->gid[word] == (v << 3 | g);
}

/* Frees the groups of registers [reg, reg + n) of w that lanes mask wrote. */
static void wrote(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t reg, uint32_t n, uint32_t mask)
{
	sc_sharp_t *s = sm->sharp;
	uint32_t v0 = vec_of(sm, w);
	for (uint32_t r = reg; r < reg + n && r < g->run.regs; r++) {
		if (!s->grp[v0 + r])
			continue;
		uint32_t word = word0(s, v0 + r);
		for (uint32_t gr = 0; gr < 8; gr++, word = next_word(s, word))
			if ((mask >> (4 * gr) & 0xfu) && (s->grp[v0 + r] >> gr & 1) && held(s, w->slot, v0 + r, gr, word))
				release(s, word, g->cycle);
	}
}

void sc__sharp_written(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_regref_t v[7];
	unsigned n = sc__insn_regs(in, v);
	for (unsigned j = 0; j < n && exec; j++)
		if (v[j].def && !v[j].pred)
			wrote(g, sm, w, v[j].idx, v[j].w, exec);
}

void sc__sharp_wrote_reg(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask)
{
	unsigned k = SC_OPND_KIND(o);
	if (sm->sharp->state[w->slot] == SC_SHARP_OPEN && (k == SC_K_R32 || k == SC_K_R64))
		wrote(g, sm, w, SC_OPND_IDX(o), k == SC_K_R64 ? 2 : 1, mask);
}

/* ------------------------------------------------------------ windows */
/* Whether w's recording finds its words free of other warps' bits. */
static bool conflict_free(const sc_gpu_t *g, const sc_sharp_t *s, uint32_t v0, uint32_t slot)
{
	if ((uint64_t)g->cfg.regs_per_sm / 32 * 8 <= s->words)
		return true; /* every group has a word of its own */
	uint32_t word = word0(s, v0);
	for (uint32_t k = 0; k < g->run.regs * 8; k++, word = next_word(s, word))
		if (!s->valid[word] && s->owner[word] && s->owner[word] != slot + 1)
			return false;
	return true;
}

/* Records w's registers: every group whose word the program has not
 * written takes the group's check bits. */
static void record(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w)
{
	sc_sharp_t *s = sm->sharp;
	uint32_t v0 = vec_of(sm, w), R = g->run.regs;
	uint32_t word = word0(s, v0);
	for (uint32_t r = 0; r < R; r++) {
		s->grp[v0 + r] = 0;
		for (uint32_t gr = 0; gr < 8; gr++, word = next_word(s, word)) {
			uint32_t gid = (v0 + r) << 3 | gr;
			if (s->valid[word])
				continue;
			if (s->owner[word]) /* a smaller shared memory than the mapping: its own earlier group */
				release(s, word, g->cycle);
			s->owner[word] = (uint16_t)(w->slot + 1);
			s->gid[word] = gid;
			s->eccx[word] = 0;
			s->grp[v0 + r] |= (uint8_t)(1u << gr);
		}
	}
	memcpy(s->snap + (size_t)v0 * 32, w->rf, (size_t)R * 32 * sizeof *s->snap);
}

void sc__sharp_offchip(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint64_t done)
{
	sc_sharp_t *s = sm->sharp;
	uint32_t slot = w->slot;
	uint64_t now = g->cycle;
	if (s->state[slot] != SC_SHARP_IDLE) { /* the burst goes on */
		if (done > s->off[slot])
			s->off[slot] = done;
		return;
	}
	s->st.windows++;
	s->off[slot] = done;
	if (waiting(s, now) >= s->p.request_queue || s->ntab >= s->p.warp_table ||
	    !conflict_free(g, s, vec_of(sm, w), slot)) {
		s->st.dropped++;
		s->state[slot] = SC_SHARP_DROPPED;
		return;
	}
	s->state[slot] = SC_SHARP_OPEN;
	s->ntab++;
	s->rec[slot] = serve(s, now, rec_cycles(g));
	record(g, sm, w);
}

/* The check of w's stored groups against its registers; ends the window.
 * false after the DUE of a detected error. */
static bool check(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint64_t now)
{
	sc_sharp_t *s = sm->sharp;
	const sc_code_t *c = sc_code_get(SC_CODE_SECDED);
	uint32_t v0 = vec_of(sm, w), slot = w->slot;
	bool ok = true;
	if (now > s->rec[slot])
		s->st.window_cycles += now - s->rec[slot];
	for (uint32_t r = 0; r < g->run.regs; r++) {
		if (!s->grp[v0 + r])
			continue;
		size_t i0 = (size_t)(v0 + r) * 32;
		bool same = !memcmp(s->snap + i0, sm->rf + i0, 32 * sizeof *sm->rf);
		uint32_t word = word0(s, v0 + r);
		for (uint32_t gr = 0; gr < 8 && s->grp[v0 + r]; gr++, word = next_word(s, word)) {
			if (!(s->grp[v0 + r] >> gr & 1) || !held(s, slot, v0 + r, gr, word))
				continue;
			uint32_t x = s->eccx[word];
			release(s, word, now);
			if ((x & BUSY_BIT) || (same && !x)) /* a busy bit reading free: the checker skips the word */
				continue;
			for (uint32_t k = 0; k < 4 && ok; k++) {
				uint32_t lane = 4 * gr + k;
				size_t i = (size_t)(v0 + r) * 32 + lane;
				uint32_t ed = s->snap[i] ^ sm->rf[i], ec = x >> (7 * k) & 0x7fu;
				if (!ed && !ec)
					continue;
				sc_prot_where_t at = {.sm = sm, .w = w, .lane = (int)lane, .pc = pc};
				snprintf(at.what, sizeof at.what, "SHARP's check of register %u of lane %u of warp slot %u of SM %u",
				         r, lane, slot, sm->id);
				uint64_t fix;
				if (!(ok = sc__prot_check(g, c, ed, ec, &at, &fix)))
					break;
				sm->rf[i] ^= (uint32_t)fix;
			}
		}
	}
	s->ntab--;
	s->state[slot] = SC_SHARP_IDLE;
	return ok;
}

bool sc__sharp_issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint64_t now)
{
	sc_sharp_t *s = sm->sharp;
	uint32_t slot = w->slot;
	switch (s->state[slot]) {
	case SC_SHARP_OPEN:
		if (now < s->off[slot])
			return true; /* an independent instruction issues inside the window */
		s->chk[slot] = serve(s, now, rec_cycles(g) + g->cfg.latency[SC_LAT_SHARED]);
		s->st.checks++;
		s->st.check_cycles += s->chk[slot] - now;
		s->state[slot] = SC_SHARP_CHECK;
		sc__set_wnext(sm, slot, s->chk[slot]);
		return false;
	case SC_SHARP_DROPPED:
		if (now >= s->off[slot])
			s->state[slot] = SC_SHARP_IDLE;
		return true;
	case SC_SHARP_CHECK:
		return check(g, sm, w, pc, now);
	}
	return true;
}

void sc__sharp_exit(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now)
{
	sc_sharp_t *s = sm->sharp;
	uint8_t st = s->state[w->slot];
	if (st == SC_SHARP_OPEN || st == SC_SHARP_CHECK)
		check(g, sm, w, w->sp ? w->stk[w->sp - 1].pc : 0, now);
	s->state[w->slot] = SC_SHARP_IDLE;
}

/* ------------------------------------------------------------ shared memory */
/* Word `word` becomes valid (true) or not; the time-weighted count. */
static void set_valid(sc_sharp_t *s, uint32_t word, bool v, uint64_t now)
{
	if (s->valid[word] == v)
		return;
	s->st.smem_valid_cycles += s->nvalid * (now - s->valid_at);
	s->valid_at = now;
	s->nvalid += v ? 1 : (uint64_t)-1;
	s->valid[word] = v;
	if (v)
		s->ever[word] = 1;
}

void sc__sharp_smem_write(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const uint64_t *addr, uint64_t off,
                          uint32_t exec, unsigned bytes)
{
	sc_sharp_t *s = sm->sharp;
	uint64_t base = w->cta->smem_off;
	FOR_LANES(l, exec) {
		uint64_t a = base + (addr[l] - off);
		for (uint64_t wd = a / 4; wd * 4 < a + bytes && wd < s->words; wd++) {
			if (s->owner[wd]) /* the program's value replaces the check bits */
				release(s, (uint32_t)wd, g->cycle);
			set_valid(s, (uint32_t)wd, true, g->cycle);
		}
	}
}

void sc__sharp_cta(sc_gpu_t *g, sc_sm_t *sm, const sc_cta_t *cta, bool start, uint64_t now)
{
	sc_sharp_t *s = sm->sharp;
	const sc_run_t *r = &g->run;
	for (uint64_t wd = cta->smem_off / 4; wd < s->words && wd * 4 < (uint64_t)cta->smem_off + r->smem; wd++)
		set_valid(s, (uint32_t)wd, false, now);
	if (start) {
		s->cta_at[cta->slot] = now;
		return;
	}
	uint64_t life = now - s->cta_at[cta->slot];
	s->st.warp_cycles += life * r->nwarps;
	s->st.reg_cycles += life * r->nwarps * r->regs * 32;
}

uint8_t *sc__sharp_ecc_byte(sc_sm_t *sm, uint64_t b)
{
	sc_sharp_t *s = sm->sharp;
	if (b / 4 >= s->words || !s->owner[b / 4])
		return NULL;
	return (uint8_t *)&s->eccx[b / 4] + b % 4;
}

void sc__sharp_rf_fault(sc_gpu_t *g, sc_sm_t *sm, uint64_t word, uint32_t x)
{
	sc_sharp_t *s = sm->sharp;
	uint64_t per = (uint64_t)g->run.regs * 32;
	uint64_t slot = per ? word / per : UINT64_MAX;
	if (slot < g->cfg.max_warps_per_sm && s->state[slot] == SC_SHARP_OPEN && g->cycle < s->rec[slot])
		s->snap[word] ^= x; /* not stored yet: the check bits will encode the faulty value */
}

/* ------------------------------------------------------------ hash, stats */
static uint64_t mix(uint64_t h, uint64_t x)
{
	x ^= h + 0x9e3779b97f4a7c15ull + (x << 6);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

static uint64_t ahead(uint64_t t, uint64_t now) { return t > now ? t - now : 0; }

uint64_t sc__sharp_hash(const sc_gpu_t *g, const sc_sm_t *sm)
{
	const sc_sharp_t *s = sm->sharp;
	uint64_t now = g->cycle, h = mix(ahead(s->busy, now), s->ntab);
	uint32_t R = g->run.regs, nslots = g->run.ctas_per_sm * g->run.nwarps;
	for (uint32_t q = 0; q < s->qn; q++)
		h = mix(h, ahead(s->q[(s->qhead + q) % s->qcap], now));
	for (uint32_t slot = 0; slot < nslots && slot < g->cfg.max_warps_per_sm; slot++) {
		if (!s->state[slot])
			continue;
		h = mix(h, (uint64_t)slot << 8 | s->state[slot]);
		h = mix(h, ahead(s->off[slot], now) ^ ahead(s->rec[slot], now) << 20 ^ ahead(s->chk[slot], now) << 40);
		for (uint32_t r = 0; r < R; r++) {
			uint32_t v = slot * R + r;
			h = mix(h, s->grp[v]);
			for (uint32_t gr = 0; gr < 8; gr++)
				if (s->grp[v] >> gr & 1)
					for (uint32_t k = 0; k < 4; k++)
						h = mix(h, s->snap[(size_t)v * 32 + 4 * gr + k]);
		}
	}
	for (uint32_t wd = 0; wd < s->words; wd++)
		if (s->owner[wd] || s->valid[wd])
			h = mix(h, (uint64_t)wd << 32 ^ (uint64_t)s->owner[wd] << 16 ^ s->valid[wd] ^
			               (uint64_t)s->eccx[wd] * 0x100000001b3ull ^ (uint64_t)s->gid[wd] << 40);
	return h;
}

void sc__sharp_stats(const sc_gpu_t *g, sc_sharp_stats_t *st)
{
	memset(st, 0, sizeof *st);
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		const sc_sharp_t *s = g->sms[i].sharp;
		if (!s)
			return;
#define X(f) st->f += s->st.f;
		SC_SHARP_STATS_LIST(X)
#undef X
		st->smem_words += s->words;
		for (uint32_t wd = 0; wd < s->words; wd++)
			st->smem_written += s->ever[wd];
		st->smem_valid_cycles += s->nvalid * (g->cycle - s->valid_at);
	}
}

static double share(uint64_t a, double b) { return b > 0 ? (double)a / b : 0.0; }

sc_sharp_shares_t sc_sharp_shares(const sc_sharp_stats_t *st, uint64_t cycles)
{
	return (sc_sharp_shares_t){.window = share(st->window_cycles, (double)st->warp_cycles),
	                           .regs = share(st->prot_reg_cycles, (double)st->reg_cycles),
	                           .smem_written = share(st->smem_written, (double)st->smem_words),
	                           .smem_time = share(st->smem_valid_cycles, (double)st->smem_words * (double)cycles)};
}
