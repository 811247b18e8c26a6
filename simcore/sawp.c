/* The instruction buffer's protection: parity on every entry's word, and
 * what corrects a word whose parity is wrong (DESIGN.md, "SAWP"; Tan et
 * al., "SAWP: similarity-aware protection of the instruction buffer",
 * CF'13). Schemes (simcore.h's SC_IB_SCHEME_LIST): none, parity (a DUE),
 * ecc (a private ECC per entry), and the SAWP variants, where an SM's
 * table of T ECCs is shared by the entries holding identical words.
 *
 * The model stores no check bit. At its fill an entry holds the clean word
 * of its pc (ib[k] holds pc ib_pc + k, fetched from the module's code), so
 * its parity bit is the parity of that word, and an issue finds the
 * parity wrong exactly when the word differs from the module's in an odd
 * number of bits. Fault-free, that check never runs (issue() calls
 * sc__ib_check only while w->ib_dirty is set), and schemes without a
 * table cost nothing at all. Only the SAWP variants keep state in a
 * fault-free run: the links of the entries to the table, updated when a
 * word enters or leaves the buffer (sm.c's fill, flush, shift and leave
 * events), since which entries a fault finds protected depends on them.
 *
 * SAWP (per SM, sc_sawp_t in sc_int.h). A fill compares the new word with
 * the words of the buffer entries the table's IDs point to; a pointed-to
 * entry matches only while it is still linked to that table entry and
 * holds the very word whose ECC the table keeps (a corrupted word does
 * not match, whatever its parity). A hit links the new entry (X = 1,
 * I = k, counter[k]++, ID[k] := the new entry). A miss allocates: the
 * progress check first (sawp, sawp_fs: the warp's issued instructions
 * within progress_window of the mean of the SM's live warps, else the
 * entry stays unprotected), then a victim: a free entry (counter 0),
 * else the least-shared one whose counter is at most the threshold
 * (sawp_min: the least-shared one, whatever its counter), the lowest
 * index on a tie; none: unprotected. An eviction unlinks every entry
 * linked to the victim (the broadcast that clears their X bits). A word
 * leaving the buffer unlinks its entry; a shift renames the IDs of the
 * entries it moves. X and I are hardened, the table's ECC fields are
 * checked by their own decoder: neither is a fault target.
 *
 * The state hash (fault.c) leaves all of this out, and stays exact: the
 * links decide nothing but how an issue handles a wrong parity, which
 * needs a corrupted word in the buffer; while one is there the hash
 * differs from golden anyway (it covers the valid entries' words), and
 * once it has left (issued, restored or flushed) and no fault is pending
 * (rt.c compares states only after an experiment's last fault) nothing
 * is left for the links that differ from golden's to act on. Nor do they
 * change the timing: only a restored word costs cycles. The same makes
 * `unused` and `dead` exact (both judge single faults): a fault's effect
 * on the links alone is masked. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static const char *const scheme_names[SC_IB__COUNT] = {
#define X(name, text) [SC_IB_##name] = text,
	SC_IB_SCHEME_LIST(X)
#undef X
};

const char *sc_ib_scheme_name(sc_ib_scheme_t s) { return (unsigned)s < SC_IB__COUNT ? scheme_names[s] : "?"; }

int sc_ib_scheme_parse(const char *name, sc_ib_scheme_t *out)
{
	int i = sc__name_index(scheme_names, SC_IB__COUNT, name);
	if (i < 0)
		return SC_EINVAL;
	*out = (sc_ib_scheme_t)i;
	return 0;
}

sc_ib_protection_t sc_ib_params(const sc_protection_t *p, const sc_gpu_config_t *cfg)
{
	sc_ib_protection_t q = p ? p->ibuffer : (sc_ib_protection_t){0};
	if (!q.table_entries)
		q.table_entries = q.scheme == SC_IB_SAWP_FS ? 12 : 4;
	if (!q.threshold)
		q.threshold = 4;
	if (!q.progress_window)
		q.progress_window = 64;
	if (!q.reissue_penalty && cfg)
		q.reissue_penalty = cfg->latency[SC_LAT_BRANCH];
	return q;
}

static bool has_table(sc_ib_scheme_t s) { return s >= SC_IB_SAWP; }

/* ------------------------------------------------------------ the tables */
int sc__sawp_create(sc_gpu_t *g)
{
	const sc_gpu_config_t *c = &g->cfg;
	uint32_t nent = c->max_warps_per_sm * c->ib_entries;
	g->prot.ib = sc_ib_params(&g->opt.prot, c);
	if (g->opt.ib_similarity && !(g->ibsim = malloc(nent * sizeof *g->ibsim)))
		return SC_ENOMEM;
	if (!has_table(g->prot.ib.scheme))
		return 0;
	uint32_t T = g->prot.ib.table_entries;
	for (uint32_t i = 0; i < c->num_sms; i++) {
		sc_sawp_t *s = calloc(1, sizeof *s);
		g->sms[i].sawp = s;
		if (!s || !(s->tab = calloc(T, sizeof *s->tab)) || !(s->nexec = calloc(c->max_warps_per_sm, 8)) ||
		    !(s->x = calloc(nent, 1)) || !(s->idx = calloc(nent, 1)))
			return SC_ENOMEM;
		s->p = g->prot.ib;
		s->nent = nent;
	}
	return 0;
}

void sc__sawp_destroy(sc_gpu_t *g)
{
	free(g->ibsim);
	g->ibsim = NULL;
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		sc_sawp_t *s = g->sms[i].sawp;
		if (!s)
			continue;
		free(s->tab);
		free(s->nexec);
		free(s->x);
		free(s->idx);
		free(s);
		g->sms[i].sawp = NULL;
	}
}

void sc__sawp_launch(sc_gpu_t *g)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_sawp_t *s = g->sms[i].sawp;
		if (!s)
			continue;
		memset(s->tab, 0, s->p.table_entries * sizeof *s->tab);
		memset(s->nexec, 0, g->cfg.max_warps_per_sm * sizeof *s->nexec);
		memset(s->x, 0, s->nent);
	}
}

/* ------------------------------------------------------------ fills */
static bool same_word(const sc_insn_t *a, const sc_insn_t *b) { return !memcmp(a, b, sizeof *a); }

/* The table entry whose ECC protects `in`: one whose ID points to a
 * buffer entry still linked to it and holding its word uncorrupted, that
 * word being `in`; -1 when none. */
static int lookup(const sc_gpu_t *g, const sc_sm_t *sm, const sc_insn_t *in)
{
	const sc_sawp_t *s = sm->sawp;
	uint32_t nib = g->cfg.ib_entries;
	for (uint32_t t = 0; t < s->p.table_entries; t++) {
		const sc_sawp_ent_t *te = &s->tab[t];
		if (!te->count || !s->x[te->id] || s->idx[te->id] != t || !same_word(&te->ref, in))
			continue;
		const sc_ibent_t *b = &sm->warps[te->id / nib].ib[te->id % nib];
		if (b->valid == (SC_IB_VALID | SC_IB_HELD) && same_word(&b->insn, &te->ref))
			return (int)t;
	}
	return -1;
}

/* The progress check: whether warp slot `slot` has issued within
 * progress_window instructions of the mean over the SM's live warps
 * (those of resident CTAs that have not ended). A warp far behind or
 * ahead of the others is unlikely to share its words, so it does not
 * take a table entry from them. */
static bool on_pace(const sc_gpu_t *g, const sc_sm_t *sm, uint32_t slot)
{
	const sc_sawp_t *s = sm->sawp;
	uint64_t n = 0, sum = 0;
	for (uint32_t i = 0; i < g->run.ctas_per_sm * g->run.nwarps; i++)
		if (sm->warps[i].state == SC_W_ACTIVE || sm->warps[i].state == SC_W_BAR) {
			n++;
			sum += s->nexec[i];
		}
	uint64_t mine = s->nexec[slot] * n, band = (uint64_t)s->p.progress_window * n;
	return mine > sum ? mine - sum <= band : sum - mine <= band;
}

/* The table entry a miss takes: a free one, else the least-shared one the
 * scheme may evict (sawp_min: any; else a counter at most the
 * threshold), the lowest index on a tie; -1 when none. */
static int victim(const sc_sawp_t *s)
{
	int best = -1;
	for (uint32_t t = 0; t < s->p.table_entries; t++)
		if (best < 0 || s->tab[t].count < s->tab[best].count)
			best = (int)t;
	if (best >= 0 && s->tab[best].count && s->p.scheme != SC_IB_SAWP_MIN && s->tab[best].count > s->p.threshold)
		return -1;
	return best;
}

/* Table entry t is taken for another word: every entry linked to it loses
 * its protection (X = 0). */
static void evict(sc_sawp_t *s, uint32_t t)
{
	for (uint32_t e = 0; e < s->nent; e++)
		if (s->x[e] && s->idx[e] == t)
			s->x[e] = 0;
	s->tab[t].count = 0;
}

void sc__sawp_fill(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t k)
{
	sc_sawp_t *s = sm->sawp;
	uint32_t e = w->slot * g->cfg.ib_entries + k;
	const sc_insn_t *in = &w->ib[k].insn;
	int t = lookup(g, sm, in);
	if (t < 0) {
		if (s->p.scheme != SC_IB_SAWP_MIN && !on_pace(g, sm, w->slot))
			return;
		if ((t = victim(s)) < 0)
			return;
		evict(s, (uint32_t)t);
		s->tab[t].ref = *in;
	}
	s->x[e] = 1;
	s->idx[e] = (uint8_t)t;
	s->tab[t].count++;
	s->tab[t].id = e;
}

/* ------------------------------------------------------------ leaving */
static void unlink_entry(sc_sawp_t *s, uint32_t e)
{
	if (s->x[e]) {
		s->tab[s->idx[e]].count--;
		s->x[e] = 0;
	}
}

void sc__sawp_leave(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t k)
{
	unlink_entry(sm->sawp, w->slot * g->cfg.ib_entries + k);
}

void sc__sawp_flush(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w)
{
	for (uint32_t k = 0; k < g->cfg.ib_entries; k++)
		sc__sawp_leave(g, sm, w, k);
}

void sc__sawp_shift(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w)
{
	sc_sawp_t *s = sm->sawp;
	uint32_t nib = g->cfg.ib_entries, e0 = w->slot * nib;
	unlink_entry(s, e0);
	for (uint32_t e = e0; e + 1 < e0 + nib; e++) {
		s->x[e] = s->x[e + 1];
		s->idx[e] = s->idx[e + 1];
		for (uint32_t t = 0; t < s->p.table_entries; t++)
			if (s->tab[t].id == e + 1)
				s->tab[t].id = e;
	}
	s->x[e0 + nib - 1] = 0;
}

/* ------------------------------------------------------------ the issue check */
/* The bits in which two words differ. */
static uint32_t distance(const sc_insn_t *a, const sc_insn_t *b)
{
	uint64_t x[4], y[4];
	memcpy(x, a, sizeof x);
	memcpy(y, b, sizeof y);
	uint32_t n = 0;
	for (int i = 0; i < 4; i++)
		n += (uint32_t)__builtin_popcountll(x[i] ^ y[i]);
	return n;
}

/* Whether an ECC covers entry 0 of w: its private one (ecc) or a table
 * entry it is linked to. */
static bool ecc_covers(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w)
{
	if (g->prot.ib.scheme == SC_IB_ECC)
		return true;
	return sm->sawp && sm->sawp->x[w->slot * g->cfg.ib_entries];
}

/* Entry 0 holds pc's word from its fill on (SC_IB_HELD with the valid bit:
 * a stale word made valid by a flipped valid bit carries its own parity,
 * and issues as it is). The ECC is a SEC code: it restores a one-bit
 * error; a parity error of three or more bits is reported as detected
 * and uncorrectable (a SEC-DED decoder would miscorrect some of them). */
int sc__ib_check(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc)
{
	sc_ibent_t *b = &w->ib[0];
	const sc_module_t *mod = g->run.mod;
	if (w->ib_pc != pc || b->valid != (SC_IB_VALID | SC_IB_HELD) || pc >= mod->ncode)
		return SC_IBC_ISSUE;
	uint32_t d = distance(&b->insn, &mod->code[pc]);
	if (!(d & 1))
		return SC_IBC_ISSUE;
	bool ecc = ecc_covers(g, sm, w);
	if (ecc && d == 1) {
		b->insn = mod->code[pc];
		sc__prot_event(g, SC_PROT_RECOVERED);
		return SC_IBC_RESTORED;
	}
	sc__prot_event(g, SC_PROT_DETECTED);
	sc__due(g, SC_DUE_IBUFFER_PARITY, sm, w, -1, pc, 0,
	        "the instruction-buffer word of pc %u has a parity error (%u bits) that %s", pc, d,
	        ecc ? "its ECC cannot correct" : "no ECC covers");
	return SC_IBC_DUE;
}

/* ------------------------------------------------------------ similarity */
static int word_cmp(const void *a, const void *b)
{
	return memcmp(*(const sc_insn_t *const *)a, *(const sc_insn_t *const *)b, sizeof(sc_insn_t));
}

void sc__ib_sample(sc_gpu_t *g, sc_sm_t *sm, uint64_t now)
{
	uint32_t n = 0, nib = g->cfg.ib_entries;
	sm->ibsim_at = now;
	for (uint32_t i = 0; i < g->run.ctas_per_sm * g->run.nwarps; i++) {
		const sc_warp_t *w = &sm->warps[i];
		if ((w->state != SC_W_ACTIVE && w->state != SC_W_BAR) || w->ib_pc == UINT32_MAX)
			continue; /* ended, or not fetched yet: what it holds is an earlier warp's */
		for (uint32_t k = 0; k < nib; k++)
			if (w->ib[k].valid & SC_IB_VALID)
				g->ibsim[n++] = &w->ib[k].insn;
	}
	qsort(g->ibsim, n, sizeof *g->ibsim, word_cmp);
	uint32_t distinct = 0;
	for (uint32_t i = 0; i < n; i++)
		distinct += i == 0 || word_cmp(&g->ibsim[i - 1], &g->ibsim[i]) != 0;
	g->run.ib_distinct[distinct < SC_IB_SIM_BINS ? distinct : SC_IB_SIM_BINS - 1]++;
}

/* ------------------------------------------------------------ for tests */
int sc__sawp_entry(const sc_gpu_t *g, uint32_t sm, uint32_t slot, uint32_t k, uint32_t *idx)
{
	if (sm >= g->cfg.num_sms || !g->sms[sm].sawp || slot >= g->cfg.max_warps_per_sm || k >= g->cfg.ib_entries)
		return -1;
	const sc_sawp_t *s = g->sms[sm].sawp;
	uint32_t e = slot * g->cfg.ib_entries + k;
	if (idx)
		*idx = s->idx[e];
	return s->x[e];
}

int sc__sawp_table(const sc_gpu_t *g, uint32_t sm, uint32_t t, uint32_t *count, uint32_t *id)
{
	if (sm >= g->cfg.num_sms || !g->sms[sm].sawp || t >= g->sms[sm].sawp->p.table_entries)
		return -1;
	const sc_sawp_ent_t *te = &g->sms[sm].sawp->tab[t];
	if (count)
		*count = te->count;
	if (id)
		*id = te->id;
	return 0;
}
