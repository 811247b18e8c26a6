/* Protection: error-correcting codes on the register file, the predicate
 * file and shared memory (DESIGN.md, "Protection"; the codes: ecc.c). The
 * caches' codes keep their patterns in the overlay (cachefault.c) and
 * decode through sc__prot_check, as this file's reads do.
 *
 * The model costs nothing in a fault-free run. No check bit is stored:
 * every word holds a codeword until a fault changes it, and a fault's
 * effect on a codeword is its error pattern e alone (ecc.h). Each SM keeps
 * the patterns of its corrupted words in a small table (sm->err, sm->nerr;
 * empty, and never looked at, in a fault-free run):
 *   - a fault adds its bits to its word's pattern; data bits flip in the
 *     storage too, check bits live only in the table;
 *   - a read decodes the pattern before anything the instruction does
 *     (issue() calls sc__prot_read, ld/st/atom sc__prot_shared for shared
 *     memory): corrected (the data bits restored), miscorrected (the
 *     decoder's pattern applied), undetected (left as it is), each ending
 *     the entry, or detected: a DUE, ecc_uncorrectable or parity_error;
 *   - a write of a whole word makes a fresh codeword: the entry goes
 *     (sc__prot_written, bar.red's results, a shared-memory store); a
 *     narrower write is a read-modify-write, decoded first (a predicate
 *     written by some lanes, a byte store into a 32-bit granule);
 *   - a CTA's start clears its storage, and a launch's the whole table.
 * The table is in the state hash (fault.c), so early termination compares
 * a run with a pending corrected error unequal to golden until the read.
 *
 * Words and their keys (sc_perr_t.word): regfile, the index of the 32-bit
 * word in sm->rf (one lane's register); pred, the index in sm->pf (a warp's
 * predicate, its 32 lanes' bits); smem, the granule's index in sm->smem
 * (32 or 64 bits).
 *
 * The fault space of a protected structure (sc_target_bits_prot) counts
 * codewords of n bits instead of data words of k bits; interleaving groups
 * I codewords: bit o of group G is bit o / I of codeword G x I + o % I.
 * Codeword c's data bit b is the unprotected space's bit c x k + b (for
 * shared memory too, whose unprotected words are bytes), so locating and
 * the "in use" and "dead" tests go through the unprotected layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecc.h"
#include "sc_int.h"

static const char *const prot_names[SC_PROT__COUNT] = {
#define X(name, text) [SC_PROT_##name] = text,
	SC_PROT_LIST(X)
#undef X
};

const char *sc_prot_name(sc_prot_t e) { return (unsigned)e < SC_PROT__COUNT ? prot_names[e] : "?"; }

int sc__name_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int sc_prot_parse(const char *name, sc_prot_t *out)
{
	int i = sc__name_index(prot_names, SC_PROT__COUNT, name);
	if (i < 0)
		return SC_EINVAL;
	*out = (sc_prot_t)i;
	return 0;
}

bool sc_protection_on(const sc_protection_t *p)
{
	return p && (p->regfile != SC_CODE_NONE || p->pred != SC_CODE_NONE || p->smem != SC_CODE_NONE ||
	             p->l1d != SC_CODE_NONE || p->l2 != SC_CODE_NONE || p->cc != SC_CODE_NONE ||
	             p->l1d_tag != SC_CODE_NONE || p->l2_tag != SC_CODE_NONE || p->cc_tag != SC_CODE_NONE ||
	             p->ibuffer.scheme != SC_IB_NONE || p->sharp.on || p->penny.on || p->refu.on || p->dup.protect);
}

/* sc_protection_check's part for SHARP. */
static int sharp_check(const sc_protection_t *p, sc_regs_t regs, char *msg, size_t n)
{
	const sc_sharp_protection_t *s = &p->sharp;
	if (!s->on) {
		if (s->request_queue || s->warp_table || s->ecc != SC_CODE_NONE) {
			snprintf(msg, n, "protection: sharp: parameters given but sharp is off");
			return SC_EINVAL;
		}
		return 0;
	}
	if (s->ecc != SC_CODE_NONE && s->ecc != SC_CODE_SECDED) {
		snprintf(msg, n, "protection: sharp: ecc %s: SHARP stores SECDED (39,32) check bits (expected secded)",
		         sc_code_name(s->ecc));
		return SC_EINVAL;
	}
	if (s->request_queue > SC_SHARP_MAX || s->warp_table > SC_SHARP_MAX) {
		snprintf(msg, n, "protection: sharp: request_queue and warp_table are at most %u", SC_SHARP_MAX);
		return SC_EINVAL;
	}
	if (p->regfile != SC_CODE_NONE) {
		snprintf(msg, n, "protection: sharp protects the register file itself: regfile code must be none, not %s",
		         sc_code_name(p->regfile));
		return SC_EINVAL;
	}
	if (p->smem != SC_CODE_NONE) {
		snprintf(msg, n, "protection: sharp keeps its check bits in shared memory, whose own code (%s) is not "
		                 "modelled with it: smem code must be none", sc_code_name(p->smem));
		return SC_EINVAL;
	}
	if (regs != SC_REGS_ALLOC) {
		snprintf(msg, n, "protection: sharp protects the physical registers of a warp: use regs alloc, not %s",
		         sc_regs_name(regs));
		return SC_EINVAL;
	}
	return 0;
}

/* sc_protection_check's part for Penny. */
static int penny_check(const sc_protection_t *p, sc_regs_t regs, char *msg, size_t n)
{
	const sc_penny_protection_t *y = &p->penny;
	if (!y->on) {
		if (y->edc != SC_CODE_NONE || y->mode || y->recovery_penalty || y->include_pred || y->pruning || y->storage) {
			snprintf(msg, n, "protection: penny: parameters given but penny is off");
			return SC_EINVAL;
		}
		return 0;
	}
	if (y->edc != SC_CODE_PARITY && y->edc != SC_CODE_HAMMING && y->edc != SC_CODE_SECDED) {
		snprintf(msg, n, "protection: penny: edc %s: expected parity, hamming or secded (a 32-bit register's "
		                 "code, used to detect only)", sc_code_name(y->edc));
		return SC_EINVAL;
	}
	if (y->mode != SC_PENNY_ORACLE && y->mode != SC_PENNY_COMPILED) {
		snprintf(msg, n, "protection: penny: mode %d: expected oracle or compiled", (int)y->mode);
		return SC_EINVAL;
	}
	if (y->mode == SC_PENNY_ORACLE && (y->pruning || y->storage || y->block_size)) {
		snprintf(msg, n, "protection: penny: pruning, storage and block_size are the compiler's: only with mode "
		                 "compiled");
		return SC_EINVAL;
	}
	if (y->mode == SC_PENNY_COMPILED && y->include_pred) {
		snprintf(msg, n, "protection: penny compiled keeps no checkpoint of predicates: include_pred needs mode "
		                 "oracle");
		return SC_EINVAL;
	}
	if ((unsigned)y->pruning > SC_PENNY_PRUNE_OPTIMAL || (unsigned)y->storage > SC_PENNY_STORE_SHARED) {
		snprintf(msg, n, "protection: penny: pruning %d or storage %d out of range", (int)y->pruning, (int)y->storage);
		return SC_EINVAL;
	}
	if (y->block_size > 1024 || (y->block_size && y->storage != SC_PENNY_STORE_AUTO)) {
		snprintf(msg, n, "protection: penny: block_size %u: 1 to 1024, and only with storage auto", y->block_size);
		return SC_EINVAL;
	}
	if (p->regfile != SC_CODE_NONE) {
		snprintf(msg, n, "protection: penny.edc replaces the register file's code: give regfile code none, not %s",
		         sc_code_name(p->regfile));
		return SC_EINVAL;
	}
	if (y->include_pred && p->pred != SC_CODE_NONE) {
		snprintf(msg, n, "protection: penny with include_pred puts its edc on the predicates: give pred code none, "
		                 "not %s", sc_code_name(p->pred));
		return SC_EINVAL;
	}
	if (p->sharp.on) {
		snprintf(msg, n, "protection: penny and sharp both act on the register file's errors: choose one");
		return SC_EINVAL;
	}
	if (regs != SC_REGS_ALLOC) {
		snprintf(msg, n, "protection: penny's regions and checkpoints are on allocated registers: use regs alloc, "
		                 "not %s", sc_regs_name(regs));
		return SC_EINVAL;
	}
	return 0;
}

/* sc_protection_check's part for the instruction buffer. */
static int ib_check(const sc_ib_protection_t *ib, char *msg, size_t n)
{
	if ((unsigned)ib->scheme >= SC_IB__COUNT) {
		snprintf(msg, n, "protection: ibuffer: unknown scheme %d (expected none, parity, ecc, sawp, sawp_min or "
		                 "sawp_fs)", (int)ib->scheme);
		return SC_EINVAL;
	}
	if (ib->table_entries > SC_IB_TABLE_MAX) {
		snprintf(msg, n, "protection: ibuffer: %u table entries: at most %u", ib->table_entries, SC_IB_TABLE_MAX);
		return SC_EINVAL;
	}
	bool table = ib->scheme >= SC_IB_SAWP;
	if (!table && (ib->table_entries || ib->threshold || ib->progress_window)) {
		snprintf(msg, n, "protection: ibuffer: table entries, threshold and progress window belong to the sawp "
		                 "schemes, not %s", sc_ib_scheme_name(ib->scheme));
		return SC_EINVAL;
	}
	if (ib->scheme == SC_IB_SAWP_MIN && (ib->threshold || ib->progress_window)) {
		snprintf(msg, n, "protection: ibuffer: sawp_min has no threshold and no progress check");
		return SC_EINVAL;
	}
	if (ib->reissue_penalty && (ib->scheme == SC_IB_NONE || ib->scheme == SC_IB_PARITY)) {
		snprintf(msg, n, "protection: ibuffer: a reissue penalty needs a correcting scheme (ecc or sawp*), not %s",
		         sc_ib_scheme_name(ib->scheme));
		return SC_EINVAL;
	}
	return 0;
}

/* sc_protection_check's part for the caches: an interleaving group of
 * codewords lies inside one line (the L2: one sector), so that a group is
 * in use or not as a whole. */
static int cache_check(const sc_protection_t *p, const sc_gpu_config_t *cfg, char *msg, size_t n)
{
	static const sc_gpu_config_t none; /* without a GPU: the codes' names only */
	if (!cfg)
		cfg = &none;
	const struct {
		const char *what;
		sc_code_kind_t code;
		uint32_t bytes, unit; /* the cache's size, the bytes a group must divide */
	} s[3] = {{"l1d", p->l1d, cfg->l1_bytes, cfg->l1_line},
	          {"l2", p->l2, cfg->l2_bytes, cfg->l2_sector ? cfg->l2_sector : cfg->l2_line},
	          {"const", p->cc, cfg->const_bytes, cfg->const_line}};
	uint32_t il = p->interleave > 1 ? p->interleave : 1;
	const sc_code_kind_t tag[3] = {p->l1d_tag, p->l2_tag, p->cc_tag};
	for (int i = 0; i < 3; i++) {
		if (tag[i] != SC_CODE_NONE && tag[i] != SC_CODE_PARITY) {
			snprintf(msg, n, "protection: %s: tag code %s: a tag takes none or parity", s[i].what,
			         sc_code_name(tag[i]));
			return SC_EINVAL;
		}
		if (s[i].code == SC_CODE_NONE || !s[i].bytes)
			continue;
		uint32_t group = sc_code_get(s[i].code)->k / 8 * il;
		if (s[i].unit % group) {
			snprintf(msg, n, "protection: %s: %u-byte %s are not a whole number of %u-byte interleaved codeword "
			         "groups", s[i].what, s[i].unit, i == 1 && cfg->l2_sector ? "sectors" : "lines", group);
			return SC_EINVAL;
		}
	}
	return 0;
}

/* sc_protection_check's part for REFU. */
static int refu_check(const sc_protection_t *p, char *msg, size_t n)
{
	const sc_refu_protection_t *r = &p->refu;
	if (!r->on && r->replay_buffer) {
		snprintf(msg, n, "protection: refu: parameters given but refu is off");
		return SC_EINVAL;
	}
	if (r->replay_buffer > SC_REFU_MAX) {
		snprintf(msg, n, "protection: refu: replay_buffer %u: expected 1 to %u entries", r->replay_buffer,
		         SC_REFU_MAX);
		return SC_EINVAL;
	}
	return 0;
}

int sc_protection_check(const sc_protection_t *p, const sc_gpu_config_t *cfg, sc_regs_t regs, char *msg, size_t n)
{
	if (ib_check(&p->ibuffer, msg, n) || sharp_check(p, regs, msg, n) || penny_check(p, regs, msg, n) ||
	    refu_check(p, msg, n))
		return SC_EINVAL;
	if (p->dup.protect > SC_DUP_ALL || p->dup.variant > SC_DUP_RA ||
	    (!p->dup.protect && (p->dup.variant || p->dup.atomics))) {
		snprintf(msg, n, "protection: dup: protect must be memory, setp or all and variant sw or ra");
		return SC_EINVAL;
	}
	const struct {
		const char *what;
		sc_code_kind_t code;
	} s[6] = {{"regfile", p->regfile}, {"pred", p->pred}, {"smem", p->smem},
	          {"l1d", p->l1d},         {"l2", p->l2},     {"const", p->cc}};
	for (int i = 0; i < 6; i++) {
		if ((unsigned)s[i].code >= SC_CODE__COUNT) {
			snprintf(msg, n, "protection: %s: unknown code %d", s[i].what, (int)s[i].code);
			return SC_EINVAL;
		}
		if (s[i].code == SC_CODE_SECDED64 && i < 2) {
			snprintf(msg, n, "protection: %s words are 32 bits: secded64 protects 64-bit shared-memory granules only",
			         s[i].what);
			return SC_EINVAL;
		}
	}
	if (p->pred != SC_CODE_NONE && regs == SC_REGS_PTX) {
		snprintf(msg, n, "protection: pred codes protect the physical predicate words: use regs alloc or unalloc, "
		                 "not ptx");
		return SC_EINVAL;
	}
	uint32_t il = p->interleave;
	if (il > 8 || (il & (il - 1))) {
		snprintf(msg, n, "protection: interleave %u: expected 0, 1, 2, 4 or 8", il);
		return SC_EINVAL;
	}
	if (il > 1 && p->regfile != SC_CODE_NONE && regs == SC_REGS_PTX) {
		snprintf(msg, n, "protection: interleave %u: ptx mode's virtual registers have no physical neighbours; use "
		                 "regs alloc", il);
		return SC_EINVAL;
	}
	if (cfg && p->smem != SC_CODE_NONE && cfg->smem_per_sm % (sc_code_get(p->smem)->k / 8 * (il ? il : 1))) {
		snprintf(msg, n, "protection: smem: %u bytes per SM are not a whole number of interleaved granules",
		         cfg->smem_per_sm);
		return SC_EINVAL;
	}
	return cache_check(p, cfg, msg, n);
}

bool sc__tag_parity(const sc_protection_t *p, sc_target_t t)
{
	sc_code_kind_t k = !p ? SC_CODE_NONE : t == SC_TGT_L1D ? p->l1d_tag : t == SC_TGT_L2 ? p->l2_tag
	                   : t == SC_TGT_CONST ? p->cc_tag : SC_CODE_NONE;
	return k == SC_CODE_PARITY;
}

const sc_code_t *sc__code_of(const sc_protection_t *p, sc_target_t t)
{
	if (!p)
		return NULL;
	switch (t) {
	case SC_TGT_REGFILE: return sc_code_get(p->penny.on ? p->penny.edc : p->regfile);
	case SC_TGT_PRED: return sc_code_get(p->penny.on && p->penny.include_pred ? p->penny.edc : p->pred);
	case SC_TGT_SMEM: return sc_code_get(p->smem);
	case SC_TGT_L1D: return sc_code_get(p->l1d);
	case SC_TGT_L2: return sc_code_get(p->l2);
	case SC_TGT_CONST: return sc_code_get(p->cc);
	default: return NULL;
	}
}

/* Codewords per interleaving group of target t: the predicate file's
 * words are not interleaved (each is a warp's whole predicate). */
static uint32_t group_of(const sc_protection_t *p, sc_target_t t)
{
	return t == SC_TGT_PRED || p->interleave < 2 ? 1 : p->interleave;
}

/* The space of `plain` unprotected bits under code c: codewords, and
 * *word_bits (may be NULL) an interleaving group's bits. */
static uint64_t coded_bits(const sc_code_t *c, const sc_protection_t *p, sc_target_t t, uint64_t plain,
                           uint32_t *word_bits)
{
	if (word_bits)
		*word_bits = c->n * group_of(p, t);
	return plain / c->k * c->n;
}

uint64_t sc_target_bits_prot(const sc_gpu_config_t *cfg, const sc_protection_t *p, sc_target_t t, unsigned fields,
                             uint32_t *word_bits)
{
	if (t == SC_TGT_L1D || t == SC_TGT_L2 || t == SC_TGT_CONST || t == SC_TGT_TEXCACHE) /* a line's data field only */
		return sc__cache_target_bits(cfg, p, t, fields, word_bits);
	const sc_code_t *c = sc__code_of(p, t);
	uint64_t n = sc_target_bits(cfg, t, fields, word_bits);
	return c && n ? coded_bits(c, p, t, n, word_bits) : n;
}

sc_prot_t sc_prot_first(const sc_gpu_t *g, uint64_t *cycle)
{
	if (cycle)
		*cycle = g->prot.ev ? g->prot.cycle : 0;
	return (sc_prot_t)g->prot.ev;
}

/* ------------------------------------------------------------ the tables */
int sc__prot_create(sc_gpu_t *g)
{
	const sc_protection_t *p = &g->opt.prot;
	static const sc_target_t t[6] = {SC_TGT_REGFILE, SC_TGT_PRED, SC_TGT_SMEM, SC_TGT_L1D, SC_TGT_L2, SC_TGT_CONST};
	for (int i = 0; i < 6; i++) /* Penny's edc stands as the register file's code */
		g->prot.code[i] = sc__code_of(p, t[i]);
	if (sc__sawp_create(g) || sc__sharp_create(g) || sc__penny_create(g) || sc__refu_create(g))
		return SC_ENOMEM;
	for (uint32_t i = 0; (g->prot.code[0] || g->prot.code[1] || g->prot.code[2]) && i < g->cfg.num_sms; i++)
		if (!(g->sms[i].err = calloc(SC_PERR_MAX, sizeof *g->sms[i].err)))
			return SC_ENOMEM;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) { /* issue()'s tests for all of them (sm.c) */
		sc_sm_t *sm = &g->sms[i];
		sm->pre_issue = g->ibsim || sm->refu || g->prot.ib.scheme != SC_IB_NONE || sm->sharp || sm->penny;
		sm->hooks = sm->pre_issue || sm->err || sm->sawp;
	}
	return 0;
}

void sc__prot_destroy(sc_gpu_t *g)
{
	sc__sawp_destroy(g);
	sc__sharp_destroy(g);
	sc__penny_destroy(g);
	sc__refu_destroy(g);
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		free(g->sms[i].err);
		g->sms[i].err = NULL;
	}
}

/* ------------------------------------------------------------ codewords */

uint64_t sc__prot_bits(const sc_gpu_t *g, sc_target_t t, uint64_t plain, uint32_t *word_bits)
{
	return coded_bits(sc__prot_code(g, t), &g->opt.prot, t, plain, word_bits);
}

sc_codebit_t sc__prot_codebit(const sc_gpu_t *g, sc_target_t t, uint64_t loc)
{
	const sc_code_t *c = sc__prot_code(g, t);
	uint64_t il = group_of(&g->opt.prot, t), gb = il * c->n;
	uint64_t cw = loc / gb * il + loc % gb % il;
	return (sc_codebit_t){.plain = cw * c->k, .bit = (uint32_t)(loc % gb / il), .k = c->k, .n = c->n,
	                      .il = (uint32_t)il, .code = c->kind};
}

/* The key of the word whose storage holds byte p (prot.c's header). */
static uint32_t key_of(const sc_gpu_t *g, const sc_sm_t *sm, int t, const uint8_t *p)
{
	if (t == SC_TGT_REGFILE)
		return (uint32_t)((p - (const uint8_t *)sm->rf) / 4);
	if (t == SC_TGT_PRED)
		return (uint32_t)((p - (const uint8_t *)sm->pf) / 4);
	return (uint32_t)((size_t)(p - sm->smem) / (sc__prot_code(g, t)->k / 8));
}

/* The storage of entry e's data bits. */
static uint8_t *storage(const sc_sm_t *sm, const sc_perr_t *e, uint32_t k)
{
	if (e->tgt == SC_TGT_REGFILE)
		return (uint8_t *)&sm->rf[e->word];
	if (e->tgt == SC_TGT_PRED)
		return (uint8_t *)&sm->pf[e->word];
	return sm->smem + (size_t)e->word * (k / 8);
}

static void xor_data(const sc_sm_t *sm, const sc_perr_t *e, uint32_t k, uint64_t pat)
{
	uint8_t *p = storage(sm, e, k);
	for (uint32_t i = 0; i < k / 8; i++)
		p[i] ^= (uint8_t)(pat >> (8 * i));
}

static int perr_find(const sc_sm_t *sm, int t, uint32_t word)
{
	for (uint32_t i = 0; i < sm->nerr; i++)
		if (sm->err[i].tgt == t && sm->err[i].word == word)
			return (int)i;
	return -1;
}

static void perr_drop(sc_sm_t *sm, uint32_t i) { sm->err[i] = sm->err[--sm->nerr]; }

/* XORs (data, check) into word's pattern; false when the table is full. */
static bool perr_add(sc_sm_t *sm, int t, uint32_t word, uint64_t data, uint32_t check)
{
	int i = perr_find(sm, t, word);
	if (i < 0) {
		if (sm->nerr == SC_PERR_MAX)
			return false;
		i = (int)sm->nerr++;
		sm->err[i] = (sc_perr_t){.tgt = (uint8_t)t, .word = word};
	}
	sc_perr_t *e = &sm->err[i];
	e->data ^= data;
	e->check ^= check;
	if (!e->data && !e->check)
		perr_drop(sm, (uint32_t)i);
	return true;
}

int sc__prot_fault(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits, uint64_t pat)
{
	int hit = 0;
	for (uint32_t i = 0; i < nbits; i++) {
		if (!(pat >> i & 1))
			continue;
		sc_codebit_t cb = sc__prot_codebit(g, t, loc + i);
		bool data = cb.bit < cb.k, use;
		uint32_t bit;
		uint8_t *p = sc__locate_plain(g, t, sm, data ? cb.plain + cb.bit : cb.plain, &use, &bit);
		if (!use)
			continue;
		hit = 1;
		if (!p)
			continue; /* ptx mode: a virtual register holding nothing read again */
		if (data)
			*p ^= (uint8_t)(1u << bit);
		if (!perr_add(sm, t, key_of(g, sm, t, p), data ? UINT64_C(1) << cb.bit : 0, data ? 0 : 1u << (cb.bit - cb.k)))
			return SC_EINVAL;
	}
	return hit;
}

int sc__prot_in_use(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	for (uint32_t i = 0; i < nbits; i++) {
		bool use;
		uint32_t bit;
		sc__locate_plain(g, t, sm, sc__prot_codebit(g, t, loc + i).plain, &use, &bit);
		if (use)
			return 1;
	}
	return 0;
}

/* A codeword is read whole: a predicate word by any lane's read, so its
 * value is dead only when every lane's is. */
int sc__prot_dead(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	int any = 0;
	for (uint32_t i = 0; i < nbits; i++) {
		sc_codebit_t cb = sc__prot_codebit(g, t, loc + i);
		bool use;
		uint32_t bit;
		sc__locate_plain(g, t, sm, cb.plain, &use, &bit);
		if (!use)
			continue;
		if (sc__dead_plain(g, t, sm->id, cb.plain, t == SC_TGT_PRED ? 32 : 1) != 1)
			return 0;
		any = 1;
	}
	return any;
}

/* Whether group G (interleave codewords) has a codeword in use. */
static bool group_in_use(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t G)
{
	const sc_code_t *c = sc__prot_code(g, t);
	uint32_t il = group_of(&g->opt.prot, t);
	for (uint32_t j = 0; j < il; j++) {
		bool use;
		uint32_t bit;
		sc__locate_plain(g, t, sm, (G * il + j) * c->k, &use, &bit);
		if (use)
			return true;
	}
	return false;
}

/* The groups of t on sm; with ptx mode's virtual registers, the words in
 * use are counted by sc_live_loc's way (fault.c): here by locating. */
static uint64_t ngroups(sc_gpu_t *g, sc_target_t t, uint32_t *gbits)
{
	uint64_t n = sc__space_bits(g, t, 0, gbits);
	return n / *gbits;
}

uint64_t sc__prot_live_bits(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm)
{
	uint32_t gb;
	uint64_t n = ngroups(g, t, &gb), live = 0;
	if (sc__virtual(g, t)) { /* the physical words the virtual registers weigh by */
		const sc_code_t *c = sc__prot_code(g, t);
		uint64_t words = sc_target_bits(&g->cfg, t, 0, NULL) / c->k;
		for (uint64_t wd = 0; wd < words; wd++)
			live += sc__in_use_phys(g, t, sm, wd * c->k) ? c->n : 0;
		return live;
	}
	for (uint64_t G = 0; G < n; G++)
		if (group_in_use(g, t, sm, G))
			live += gb;
	return live;
}

int sc__prot_live_loc(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t draw, uint32_t nbits, uint64_t *loc)
{
	uint32_t gb;
	uint64_t n = ngroups(g, t, &gb), live = 0;
	if (nbits > gb)
		return SC_EINVAL;
	if (sc__virtual(g, t)) /* a virtual word in use, then a start in its codeword */
		return sc__virtual_live_loc(g, t, sm->id, draw, nbits, gb, loc);
	for (uint64_t G = 0; G < n; G++)
		live += group_in_use(g, t, sm, G);
	if (!live)
		return 0;
	uint64_t k = draw % live;
	uint32_t start = (uint32_t)((draw / live) % (gb - nbits + 1));
	for (uint64_t G = 0; G < n; G++)
		if (group_in_use(g, t, sm, G) && k-- == 0) {
			*loc = G * gb + start;
			return 1;
		}
	return 0;
}

/* ------------------------------------------------------------ reads and writes */

void sc__prot_event(sc_gpu_t *g, sc_prot_t ev)
{
	if (!g->prot.ev) {
		g->prot.ev = (uint8_t)ev;
		g->prot.cycle = g->cycle;
	}
}

static const char *const tnames[] = {[SC_TGT_REGFILE] = "register", [SC_TGT_PRED] = "predicate",
                                     [SC_TGT_SMEM] = "shared-memory granule"};

bool sc__prot_check(sc_gpu_t *g, const sc_code_t *c, uint64_t data, uint32_t check, const sc_prot_where_t *at,
                    uint64_t *fix)
{
	uint64_t rest;
	sc_ecc_outcome_t o = sc_code_decode(c, data, check, at->edc, &rest, NULL);
	if (o == SC_ECC_DETECTED && at->edc)
		return false; /* the caller's recovery records what follows */
	if (o == SC_ECC_DETECTED) {
		sc__prot_event(g, SC_PROT_DETECTED);
		sc__due(g, c->kind == SC_CODE_PARITY ? SC_DUE_PARITY_ERROR : SC_DUE_ECC_UNCORRECTABLE, at->sm, at->w,
		        at->lane, at->pc, at->addr,
		        "%s detected an error it cannot correct in %s (data pattern 0x%llx, check 0x%x)",
		        sc_code_name(c->kind), at->what, (unsigned long long)data, check);
		return false;
	}
	/* what the decoder flips: the whole pattern when it corrects, another
	 * one when it miscorrects (rest, a codeword, stays), nothing when the
	 * pattern is a codeword */
	*fix = data ^ rest;
	sc__prot_event(g, o == SC_ECC_CORRECTED      ? SC_PROT_CORRECTED
	                  : o == SC_ECC_MISCORRECTED ? SC_PROT_MISCORRECTED
	                                             : SC_PROT_UNDETECTED);
	return true;
}

/* A read of entry i's word by `lane` of w (-1: the warp): decoded, and the
 * entry ends; false after the DUE of a detected error. Under Penny's edc
 * (a register read: rw, the reading warp, not NULL) a detected error rolls
 * rw back (penny.c) and also returns false: the instruction does not
 * execute. */
static bool decode(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, sc_warp_t *rw, uint32_t i, int lane, uint32_t pc)
{
	sc_perr_t e = sm->err[i];
	const sc_code_t *c = sc__prot_code(g, (sc_target_t)e.tgt);
	sc_prot_where_t at = {.sm = sm, .w = w, .lane = lane, .pc = pc};
	at.edc = rw && UNLIKELY(sm->penny) && sc__penny_covers(g, (sc_target_t)e.tgt);
	snprintf(at.what, sizeof at.what, "%s %u of SM %u", tnames[e.tgt], e.word, sm->id);
	uint64_t fix;
	if (!sc__prot_check(g, c, e.data, e.check, &at, &fix)) {
		if (at.edc)
			sc__penny_recover(g, sm, rw, &e, pc);
		return false;
	}
	xor_data(sm, &e, c->k, fix);
	perr_drop(sm, i);
	return true;
}

/* Where entry e lies in warp w's registers: the register slot and lane, or
 * false when it is not w's. */
static bool reg_of(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_perr_t *e, uint32_t *reg,
                   uint32_t *lane)
{
	uint64_t base = (uint64_t)(w->rf - sm->rf), n = (uint64_t)g->run.regs * 32;
	if (e->tgt != SC_TGT_REGFILE || e->word < base || e->word >= base + n)
		return false;
	*reg = (uint32_t)((e->word - base) / 32);
	*lane = (uint32_t)((e->word - base) % 32);
	return true;
}

static bool pred_of(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_perr_t *e, uint32_t *p)
{
	uint64_t base = (uint64_t)(w->pf - sm->pf);
	if (e->tgt != SC_TGT_PRED || e->word < base || e->word >= base + g->run.preds)
		return false;
	*p = (uint32_t)(e->word - base);
	return true;
}

/* Whether `in`, executing in lanes exec of warp w (active: the top mask),
 * reads entry e: a register lane (the guard by every active lane, a
 * cross-lane source by any lane once one executes, others by exec's), a
 * predicate word (by any reading lane, or by a write of some lanes only:
 * the word's other lanes are kept, a read-modify-write). *lane: the lane. */
static bool reads(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_perr_t *e,
                  const sc_regref_t *v, unsigned n, uint32_t exec, uint32_t active, int *lane)
{
	uint32_t reg, l, p;
	bool isreg = reg_of(g, sm, w, e, &reg, &l), ispred = !isreg && pred_of(g, sm, w, e, &p);
	*lane = isreg ? (int)l : -1;
	for (unsigned j = 0; j < n && (isreg || ispred); j++) {
		uint32_t readers = v[j].pos == 6 ? active : v[j].xlane ? (exec ? 0xffffffffu : 0) : exec;
		if (isreg && !v[j].pred && !v[j].def && reg >= v[j].idx && reg < v[j].idx + v[j].w && (readers >> l & 1))
			return true;
		if (ispred && v[j].pred && v[j].idx == p && (v[j].def ? exec && exec != 0xffffffffu : readers != 0))
			return true;
	}
	return false;
}

/* Decodes the entries that the refs v[0..n) read. */
static bool read_refs(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_regref_t *v, unsigned n, uint32_t exec,
                      uint32_t active, uint32_t pc)
{
	for (uint32_t i = 0; i < sm->nerr;) {
		int lane;
		if (!reads(g, sm, w, &sm->err[i], v, n, exec, active, &lane))
			i++;
		else if (!decode(g, sm, w, w, i, lane, pc))
			return false; /* decode dropped entry i otherwise: i is the next */
	}
	return true;
}

bool sc__prot_read(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t *exec, uint32_t active,
                   uint32_t pc)
{
	sc_regref_t v[7];
	unsigned n = sc__insn_regs(in, v);
	/* the guard first: every active lane reads it, and exec follows from
	 * the value its decoding leaves */
	for (unsigned j = 0; j < n; j++)
		if (v[j].pos == 6) {
			if (!read_refs(g, sm, w, &v[j], 1, *exec, active, pc))
				return false;
			uint32_t pm = w->pf[SC_GUARD_REG(in->guard)];
			*exec = active & ((in->guard & SC_GUARD_NEG) ? ~pm : pm);
		}
	return read_refs(g, sm, w, v, n, *exec, active, pc);
}

/* Drops the entries of register slots [reg, reg + nw) of w in lanes mask,
 * or predicate `reg` (pred): a full write of their words. */
static void wrote(sc_sm_t *sm, const sc_warp_t *w, bool pred, uint32_t reg, uint32_t nw, uint32_t mask)
{
	uint64_t rbase = (uint64_t)(w->rf - sm->rf), pbase = (uint64_t)(w->pf - sm->pf);
	for (uint32_t i = 0; i < sm->nerr;) {
		const sc_perr_t *e = &sm->err[i];
		bool hit = pred ? e->tgt == SC_TGT_PRED && e->word == pbase + reg && mask
		                : e->tgt == SC_TGT_REGFILE && e->word >= rbase + (uint64_t)reg * 32 &&
		                      e->word < rbase + (uint64_t)(reg + nw) * 32 && (mask >> ((e->word - rbase) % 32) & 1);
		if (hit)
			perr_drop(sm, i);
		else
			i++;
	}
}

void sc__prot_written(sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t exec)
{
	sc_regref_t v[7];
	unsigned n = sc__insn_regs(in, v);
	for (unsigned j = 0; j < n && sm->nerr && exec; j++)
		if (v[j].def)
			wrote(sm, w, v[j].pred, v[j].idx, v[j].w, exec);
}

void sc__prot_wrote_reg(sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask)
{
	unsigned k = SC_OPND_KIND(o);
	if (k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED)
		wrote(sm, w, k == SC_K_PRED, SC_OPND_IDX(o), k == SC_K_R64 ? 2 : 1, mask);
}

bool sc__prot_has_smem(const sc_sm_t *sm)
{
	for (uint32_t i = 0; i < sm->nerr; i++)
		if (sm->err[i].tgt == SC_TGT_SMEM)
			return true;
	return false;
}

bool sc__prot_smem(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint64_t off, uint32_t bytes, bool write,
                   uint32_t pc)
{
	uint32_t gb = sc__prot_code(g, SC_TGT_SMEM)->k / 8;
	for (uint64_t gi = off / gb; gi * gb < off + bytes; gi++) {
		int i = perr_find(sm, SC_TGT_SMEM, (uint32_t)gi);
		if (i < 0)
			continue;
		bool whole = gi * gb >= off && (gi + 1) * gb <= off + bytes;
		if (write && whole)
			perr_drop(sm, (uint32_t)i);
		else if (!decode(g, sm, w, NULL, (uint32_t)i, -1, pc))
			return false;
	}
	return true;
}

void sc__prot_cta(const sc_gpu_t *g, sc_sm_t *sm, const sc_cta_t *cta)
{
	const sc_run_t *r = &g->run;
	uint64_t first = (uint64_t)cta->slot * r->nwarps;
	uint64_t rlo = first * r->regs * 32, rhi = rlo + (uint64_t)r->nwarps * r->regs * 32;
	uint64_t plo = first * r->preds, phi = plo + (uint64_t)r->nwarps * r->preds;
	uint64_t gb = g->prot.code[2] ? g->prot.code[2]->k / 8 : 1;
	uint64_t slo = cta->smem_off / gb, shi = (cta->smem_off + r->smem + gb - 1) / gb;
	for (uint32_t i = 0; i < sm->nerr;) {
		const sc_perr_t *e = &sm->err[i];
		uint64_t lo = e->tgt == SC_TGT_REGFILE ? rlo : e->tgt == SC_TGT_PRED ? plo : slo;
		uint64_t hi = e->tgt == SC_TGT_REGFILE ? rhi : e->tgt == SC_TGT_PRED ? phi : shi;
		if (e->word >= lo && e->word < hi)
			perr_drop(sm, i);
		else
			i++;
	}
}

void sc__prot_launch(sc_gpu_t *g)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		g->sms[i].nerr = 0;
	sc__sawp_launch(g);
	sc__sharp_launch(g);
	sc__refu_launch(g);
}

uint64_t sc__prot_hash(const sc_sm_t *sm)
{
	uint64_t h = sm->nerr; /* a sum of mixed entries: their order does not matter */
	for (uint32_t i = 0; i < sm->nerr; i++) {
		const sc_perr_t *e = &sm->err[i];
		uint64_t x = ((uint64_t)e->tgt << 56 | e->word) ^ e->data * 0x9e3779b97f4a7c15ull ^ (uint64_t)e->check << 32;
		x ^= x >> 31;
		x *= 0xbf58476d1ce4e5b9ull;
		x ^= x >> 29;
		h += x;
	}
	return h;
}
