/* Protection: error-correcting codes on the register file, the predicate
 * file and shared memory (DESIGN.md, "Protection"; the codes: ecc.c).
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

int sc_prot_parse(const char *name, sc_prot_t *out)
{
	for (int i = 0; name && i < SC_PROT__COUNT; i++)
		if (!strcmp(name, prot_names[i])) {
			*out = (sc_prot_t)i;
			return 0;
		}
	return SC_EINVAL;
}

bool sc_protection_on(const sc_protection_t *p)
{
	return p && (p->regfile != SC_CODE_NONE || p->pred != SC_CODE_NONE || p->smem != SC_CODE_NONE);
}

int sc_protection_check(const sc_protection_t *p, const sc_gpu_config_t *cfg, sc_regs_t regs, char *msg, size_t n)
{
	const struct {
		const char *what;
		sc_code_kind_t code;
	} s[3] = {{"regfile", p->regfile}, {"pred", p->pred}, {"smem", p->smem}};
	for (int i = 0; i < 3; i++) {
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
	if (cfg && p->smem != SC_CODE_NONE && cfg->smem_per_sm % (sc_code_get(p->smem)->k / 8 * (il ? il : 1))) {
		snprintf(msg, n, "protection: smem: %u bytes per SM are not a whole number of interleaved granules",
		         cfg->smem_per_sm);
		return SC_EINVAL;
	}
	return 0;
}

/* The code on target t under p, or NULL. */
static const sc_code_t *code_of(const sc_protection_t *p, sc_target_t t)
{
	if (!p)
		return NULL;
	switch (t) {
	case SC_TGT_REGFILE: return sc_code_get(p->regfile);
	case SC_TGT_PRED: return sc_code_get(p->pred);
	case SC_TGT_SMEM: return sc_code_get(p->smem);
	default: return NULL;
	}
}

/* Codewords per interleaving group of target t: the predicate file's
 * words are not interleaved (each is a warp's whole predicate). */
static uint32_t group_of(const sc_protection_t *p, sc_target_t t)
{
	return t == SC_TGT_PRED || p->interleave < 2 ? 1 : p->interleave;
}

uint64_t sc_target_bits_prot(const sc_gpu_config_t *cfg, const sc_protection_t *p, sc_target_t t, unsigned fields,
                             uint32_t *word_bits)
{
	const sc_code_t *c = code_of(p, t);
	uint32_t wb;
	uint64_t n = sc_target_bits(cfg, t, fields, &wb);
	if (!c || !n)
		return sc_target_bits(cfg, t, fields, word_bits);
	if (word_bits)
		*word_bits = c->n * group_of(p, t);
	return n / c->k * c->n;
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
	g->prot.code[0] = sc_code_get(p->regfile);
	g->prot.code[1] = sc_code_get(p->pred);
	g->prot.code[2] = sc_code_get(p->smem);
	if (!sc_protection_on(p))
		return 0;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++)
		if (!(g->sms[i].err = calloc(SC_PERR_MAX, sizeof *g->sms[i].err)))
			return SC_ENOMEM;
	return 0;
}

void sc__prot_destroy(sc_gpu_t *g)
{
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++) {
		free(g->sms[i].err);
		g->sms[i].err = NULL;
	}
}
