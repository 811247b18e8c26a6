/* Fault targets, injection, pause points and the full-state hash used for
 * exact early termination. Bit layouts of the targets (per SM):
 *
 *   regfile  regs_per_sm words x 32 bits: word w is physical register w
 *            (see "Machine state" in sc_int.h for who owns which word)
 *   pred     max_warps x preds_per_thread words x 32 lanes: word
 *            slot * preds_per_thread + p is predicate p of warp slot `slot`
 *   smem     smem_per_sm bytes x 8 bits
 *   simt     max_warps x simt_stack_depth entries, each the selected fields
 *            of {pc, rpc, mask} (32 bits each, in that order)
 *   ibuffer  max_warps x ib_entries entries, each the selected fields of
 *            {valid (1 bit), instr (256 bits: the sc_insn_t word)}
 *   fu       32 lanes x 64 bits of the result written in the fault's cycle
 *            (a stuck bit: of every result from its cycle on)
 *   l1d      the L1 data cache's lines, each the selected fields of {data,
 *            tag, valid}; const: the constant cache's, of {data, tag}; l2:
 *            the whole L2 as SM 0's space, of {data, tag, valid, dirty}
 *            (per sector); layouts and what each flip does: cachefault.c
 *
 * A location is in use when it belongs to a resident CTA (regfile, pred,
 * smem), a live warp's stack entry below its top (simt) or a live warp's
 * buffer entry (ibuffer: valid bits of every entry, words of valid ones),
 * a valid cache line (data and dirty bits: of a valid sector).
 * CTAs start with zeroed registers, predicates, shared and local memory
 * (sc__cta_start), so nothing outside these can influence the future: the
 * state hash covers exactly what is in use, and faults elsewhere are
 * masked by construction (a stuck bit is the exception: it waits for its
 * location to come into use, so it is forced whenever it may have been
 * written, sc__after_issue and sc__cta_start).
 * Fault models (simcore.h sc_fmodel_t): flips, XOR patterns and clears of
 * whole words, K words `interleave` apart, and stuck bits.
 *
 * ptx mode (SC_REGS_PTX) runs the allocated machine, but its regfile and
 * pred targets are the resident threads' PTX virtual registers (GUFI's ptx
 * mode), laid out per SM as
 *   regfile  warp slot s, ptx slot v (the kernel's numbering, v < its
 *            regs_ptx), lane l: word (s x regs_ptx + v) x 32 + l, 32 bits
 *   pred     warp slot s, ptx predicate p: word s x preds_ptx + p, bit l
 * inside a fixed bound of SC_VREG_SLOTS slots per thread. A word is in use
 * when its warp's CTA is resident; a fault there lands where the
 * allocation keeps that register's value now (sc__vreg_home) or, when the
 * register holds nothing that is read again, nowhere: masked, and `dead`.
 * A virtual register has no fixed storage, so stuck bits and multi-word
 * upsets are refused there. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

const char *sc_target_name(sc_target_t t)
{
	static const char *const n[SC_TGT__COUNT] = {
#define X(name, text) [SC_TGT_##name] = text,
		SC_TARGET_LIST(X)
#undef X
	};
	return (unsigned)t < SC_TGT__COUNT ? n[t] : "unknown";
}

static unsigned simt_fields(unsigned f) { return f ? f & 7u : 7u; }
static unsigned ib_fields(unsigned f) { return f ? f & 3u : 3u; }

static uint32_t simt_entry_bits(unsigned f) { return 32u * (uint32_t)__builtin_popcount(simt_fields(f)); }
static uint32_t ib_entry_bits(unsigned f)
{
	f = ib_fields(f);
	return ((f & SC_F_IB_VALID) ? 1u : 0u) + ((f & SC_F_IB_INSTR) ? 256u : 0u);
}

sc_entry_bit_t sc__simt_bit(const sc_gpu_config_t *c, unsigned fields, uint64_t loc)
{
	uint32_t eb = simt_entry_bits(fields);
	uint64_t e = loc / eb, off = loc % eb;
	unsigned f = simt_fields(fields), k = (unsigned)(off / 32), which = 0;
	for (unsigned i = 0, seen = 0; i < 3; i++) /* the k-th selected field */
		if (f & (1u << i) && seen++ == k)
			which = i;
	return (sc_entry_bit_t){(uint32_t)(e / c->simt_stack_depth), (uint32_t)(e % c->simt_stack_depth), which,
	                        (uint32_t)(off % 32)};
}

sc_entry_bit_t sc__ib_bit(const sc_gpu_config_t *c, unsigned fields, uint64_t loc)
{
	uint32_t eb = ib_entry_bits(fields);
	uint64_t e = loc / eb, off = loc % eb;
	bool has_valid = ib_fields(fields) & SC_F_IB_VALID, valid = has_valid && off == 0;
	return (sc_entry_bit_t){(uint32_t)(e / c->ib_entries), (uint32_t)(e % c->ib_entries), valid ? 0u : 1u,
	                        valid ? 0u : (uint32_t)(off - has_valid)};
}

uint64_t sc_target_bits(const sc_gpu_config_t *c, sc_target_t t, unsigned fields, uint32_t *word_bits)
{
	uint32_t wb = 32;
	uint64_t n = 0;
	switch (t) {
	case SC_TGT_REGFILE: n = (uint64_t)c->regs_per_sm * 32; break;
	case SC_TGT_PRED: n = (uint64_t)c->max_warps_per_sm * c->preds_per_thread * 32; break;
	case SC_TGT_SMEM: n = (uint64_t)c->smem_per_sm * 8; wb = 8; break;
	case SC_TGT_SIMT: n = (uint64_t)c->max_warps_per_sm * c->simt_stack_depth * simt_entry_bits(fields); break;
	case SC_TGT_IBUFFER:
		n = (uint64_t)c->max_warps_per_sm * c->ib_entries * ib_entry_bits(fields);
		wb = ib_fields(fields) == SC_F_IB_VALID ? 1 : 32;
		if (ib_fields(fields) == 3u)
			wb = 1; /* 257-bit entries: only single bits stay inside a word */
		break;
	case SC_TGT_FU: n = 32 * 64; wb = 64; break;
	case SC_TGT_L1D: case SC_TGT_L2: case SC_TGT_CONST: case SC_TGT_TEXCACHE:
		return sc__cache_target_bits(c, NULL, t, fields, word_bits);
	default: return 0;
	}
	if (word_bits)
		*word_bits = wb;
	return n;
}

static bool is_cache(sc_target_t t)
{
	return t == SC_TGT_L1D || t == SC_TGT_L2 || t == SC_TGT_CONST || t == SC_TGT_TEXCACHE;
}

bool sc__virtual(const sc_gpu_t *g, sc_target_t t)
{
	return g->opt.regs == SC_REGS_PTX && (t == SC_TGT_REGFILE || t == SC_TGT_PRED);
}

/* The bits of target t on g's SMs without protection: sc_target_bits, or
 * in ptx mode the bound of the virtual register targets. */
static uint64_t plain_bits(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t *word_bits)
{
	if (!sc__virtual(g, t))
		return sc_target_bits(&g->cfg, t, fields, word_bits);
	if (word_bits)
		*word_bits = 32;
	return (uint64_t)g->cfg.max_warps_per_sm * SC_VREG_SLOTS * 32 * (t == SC_TGT_REGFILE ? 32 : 1);
}

uint64_t sc__space_bits(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t *word_bits)
{
	if (is_cache(t)) /* a code there widens the lines' data field */
		return sc__cache_target_bits(&g->cfg, &g->opt.prot, t, fields, word_bits);
	uint32_t wb;
	uint64_t n = plain_bits(g, t, fields, &wb);
	if (sc__coded(g, t))
		return sc__prot_bits(g, t, n, word_bits);
	if (word_bits)
		*word_bits = wb;
	return n;
}

uint32_t sc_target_sms(const sc_gpu_config_t *c, sc_target_t t) { return t == SC_TGT_L2 ? 1 : c->num_sms; }

/* ---------------------------------------------------------------- in use */
static bool warp_live(const sc_warp_t *w) { return w->state == SC_W_ACTIVE || w->state == SC_W_BAR; }

static const sc_cta_t *cta_of_slot(const sc_gpu_t *g, const sc_sm_t *sm, uint32_t slot)
{
	if (slot >= g->run.ctas_per_sm || !sm->ctas[slot].used)
		return NULL;
	return &sm->ctas[slot];
}

/* A located bit: where it lives in memory, or NULL when not in use. */
typedef struct bitref {
	uint8_t *byte;     /* byte holding the bit; NULL for a virtual register
	                      that holds nothing read again (in use, masked) */
	uint32_t bit;      /* bit within it */
	sc_warp_t *warp;   /* owning warp (IB faults mark it dirty) */
} bitref_t;

int sc__virtual_at(const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, sc_vbit_t *out)
{
	const sc_run_t *r = &g->run;
	const sc_sm_t *sm = &g->sms[smi];
	bool pred = t == SC_TGT_PRED;
	uint32_t per = !r->fn ? 0 : pred ? r->fn->preds_ptx : r->fn->regs_ptx; /* slots per thread */
	uint64_t word = loc / 32, lanes = pred ? 1 : 32;
	if (!per || !r->nwarps)
		return -1;
	uint64_t slot = word / (per * lanes);
	if (slot >= (uint64_t)r->ctas_per_sm * r->nwarps || !cta_of_slot(g, sm, (uint32_t)(slot / r->nwarps)))
		return -1;
	*out = (sc_vbit_t){.warp = &sm->warps[slot], .vs = (uint32_t)(word / lanes % per),
	                   .lane = pred ? (uint32_t)(loc % 32) : (uint32_t)(word % 32), .bit = (uint32_t)(loc % 32)};
	if (UNLIKELY(g->regs_original) && !pred && r->fn->dup_done && out->vs >= r->fn->dup_nregs)
		return -1; /* a replica: outside the space (regs_subset original) */
	return warp_live(out->warp) && sc__vreg_home(r->mod, r->fn, out->warp, out->lane, out->vs, pred, &out->phys) == 0;
}

/* ptx mode: the virtual register bit loc (layout at the top). */
static bool locate_virtual(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, bitref_t *out)
{
	sc_vbit_t v;
	int rc = sc__virtual_at(g, t, sm->id, loc, &v);
	if (rc < 0)
		return false;
	if (rc == 0)
		return true; /* in use, holding nothing read again */
	sc_warp_t *w = &sm->warps[v.warp->slot];
	if (t == SC_TGT_PRED) {
		out->byte = (uint8_t *)&w->pf[v.phys] + v.lane / 8;
		out->bit = v.lane % 8;
	} else {
		out->byte = (uint8_t *)&w->rf[(size_t)v.phys * 32 + v.lane] + v.bit / 8;
		out->bit = v.bit % 8;
	}
	out->warp = w;
	return true;
}

static bool locate_phys(sc_gpu_t *g, sc_target_t t, unsigned fields, sc_sm_t *sm, uint64_t loc, bitref_t *out);

static bool locate(sc_gpu_t *g, sc_target_t t, unsigned fields, sc_sm_t *sm, uint64_t loc, bitref_t *out)
{
	if (!sc__virtual(g, t))
		return locate_phys(g, t, fields, sm, loc, out);
	memset(out, 0, sizeof *out);
	return locate_virtual(g, t, sm, loc, out);
}

/* Whether the register file's words are those of regs_subset original in
 * alloc mode (holds_original decides which). */
static bool original_alloc(const sc_gpu_t *g)
{
	return UNLIKELY(g->regs_original) && g->run.fn && g->run.fn->dup_done && !sc__virtual(g, SC_TGT_REGFILE);
}

/* regs_subset original, alloc mode: whether physical register file word
 * `word` of sm holds, for its lane, the value of an original virtual
 * register live now (sc__vreg_home), not a replica's nor nothing. */
static bool holds_original(const sc_gpu_t *g, const sc_sm_t *sm, uint64_t word)
{
	const sc_run_t *r = &g->run;
	for (uint32_t s = 0; s < g->cfg.max_warps_per_sm; s++) {
		const sc_warp_t *w = &sm->warps[s];
		uint64_t base = w->rf ? (uint64_t)(w->rf - sm->rf) : UINT64_MAX;
		if (!warp_live(w) || word < base || word >= base + (uint64_t)r->regs * 32)
			continue;
		uint32_t reg = (uint32_t)((word - base) / 32), lane = (uint32_t)((word - base) % 32), phys;
		for (uint32_t v = 0; v < r->fn->dup_nregs; v++)
			if (sc__vreg_home(r->mod, r->fn, w, lane, v, false, &phys) == 0 && phys == reg)
				return true;
		return false;
	}
	return false;
}

/* The words of sm's register file holds_original accepts, as a bitmap of
 * rf_words bits (NULL: no memory), and their number in *count: found from
 * the warps' side, each live warp's lanes' original registers' homes, in
 * one pass, where asking holds_original word by word costs a search over
 * the registers for each of the file's words. */
static uint64_t *original_map(const sc_gpu_t *g, const sc_sm_t *sm, uint64_t *count)
{
	const sc_run_t *r = &g->run;
	uint64_t cta_words = (uint64_t)r->nwarps * r->regs * 32, n = 0;
	uint64_t *map = calloc(sm->rf_words / 64 + 1, sizeof *map);
	*count = 0;
	if (!map)
		return NULL;
	for (uint32_t s = 0; cta_words && s < g->cfg.max_warps_per_sm; s++) {
		const sc_warp_t *w = &sm->warps[s];
		uint64_t base = w->rf ? (uint64_t)(w->rf - sm->rf) : UINT64_MAX;
		if (!warp_live(w) || base >= sm->rf_words || !cta_of_slot(g, sm, (uint32_t)(base / cta_words)))
			continue;
		for (uint32_t v = 0; v < r->fn->dup_nregs; v++)
			for (uint32_t lane = 0, phys; lane < 32; lane++) {
				if (sc__vreg_home(r->mod, r->fn, w, lane, v, false, &phys) || phys >= r->regs)
					continue;
				uint64_t word = base + (uint64_t)phys * 32 + lane;
				if (word < sm->rf_words && !(map[word / 64] >> (word % 64) & 1)) {
					map[word / 64] |= UINT64_C(1) << (word % 64);
					n++;
				}
			}
	}
	*count = n;
	return map;
}

/* sc_live_loc under regs_subset original: the draw picks a word of
 * original_map, then a start of nbits inside its wb bits. */
static int original_loc(const sc_gpu_t *g, const sc_sm_t *sm, uint64_t draw, uint32_t nbits, uint32_t wb,
                        uint64_t *loc)
{
	uint64_t count, *map = original_map(g, sm, &count);
	if (!map)
		return SC_ENOMEM;
	int rc = 0;
	if (count) {
		uint64_t k = draw % count;
		uint32_t start = (uint32_t)((draw / count) % (wb - nbits + 1));
		for (uint64_t i = 0, c; i <= sm->rf_words / 64; i++, k -= c)
			if (k < (c = (uint64_t)__builtin_popcountll(map[i]))) {
				uint64_t m = map[i];
				for (; k; k--)
					m &= m - 1;
				*loc = (i * 64 + (uint64_t)__builtin_ctzll(m)) * wb + start;
				rc = 1;
				break;
			}
	}
	free(map);
	return rc;
}

static bool locate_phys(sc_gpu_t *g, sc_target_t t, unsigned fields, sc_sm_t *sm, uint64_t loc, bitref_t *out)
{
	const sc_gpu_config_t *c = &g->cfg;
	const sc_run_t *r = &g->run;
	memset(out, 0, sizeof *out);
	switch (t) {
	case SC_TGT_REGFILE: {
		uint64_t word = loc / 32;
		uint64_t cta_words = (uint64_t)r->nwarps * r->regs * 32;
		if (!r->fn || !cta_words || !cta_of_slot(g, sm, (uint32_t)(word / cta_words)) || word >= sm->rf_words)
			return false;
		if (UNLIKELY(g->regs_original) && r->fn->dup_done && !holds_original(g, sm, word))
			return false;
		out->byte = (uint8_t *)&sm->rf[word] + (loc % 32) / 8;
		out->bit = loc % 8;
		return true;
	}
	case SC_TGT_PRED: {
		uint64_t word = loc / 32;
		uint32_t slot = (uint32_t)(word / c->preds_per_thread), p = (uint32_t)(word % c->preds_per_thread);
		if (!r->fn || p >= r->preds || !r->nwarps || !cta_of_slot(g, sm, slot / r->nwarps))
			return false;
		out->byte = (uint8_t *)&sm->pf[(size_t)slot * r->preds + p] + (loc % 32) / 8;
		out->bit = loc % 8;
		return true;
	}
	case SC_TGT_SMEM: {
		uint64_t b = loc / 8;
		uint8_t *ecc = UNLIKELY(sm->sharp) && r->fn ? sc__sharp_ecc_byte(sm, b) : NULL;
		if (ecc) { /* a word holding SHARP's check bits: in use, even outside the CTAs */
			out->byte = ecc;
			out->bit = loc % 8;
			return true;
		}
		if (!r->fn || !r->smem || !cta_of_slot(g, sm, (uint32_t)(b / r->smem)))
			return false;
		out->byte = &sm->smem[b];
		out->bit = loc % 8;
		return true;
	}
	case SC_TGT_SIMT: {
		sc_entry_bit_t b = sc__simt_bit(c, fields, loc);
		sc_warp_t *w = &sm->warps[b.slot];
		if (!r->fn || b.slot >= c->max_warps_per_sm || !warp_live(w) || b.ent >= w->sp)
			return false;
		sc_simt_t *s = &w->stk[b.ent];
		uint32_t *field = b.field == 0 ? &s->pc : b.field == 1 ? &s->rpc : &s->mask;
		out->byte = (uint8_t *)field + b.bit / 8;
		out->bit = b.bit % 8;
		out->warp = w;
		return true;
	}
	case SC_TGT_IBUFFER: {
		sc_entry_bit_t b = sc__ib_bit(c, fields, loc);
		sc_warp_t *w = &sm->warps[b.slot];
		if (!r->fn || b.slot >= c->max_warps_per_sm || !warp_live(w))
			return false;
		if (b.field == 0) {
			out->byte = &w->ib[b.ent].valid;
			out->bit = 0;
		} else {
			if (!(w->ib[b.ent].valid & SC_IB_VALID))
				return false; /* the word of an invalid entry is never issued */
			out->byte = (uint8_t *)&w->ib[b.ent].insn + b.bit / 8;
			out->bit = b.bit % 8;
		}
		out->warp = w;
		return true;
	}
	default:
		return false;
	}
}

uint8_t *sc__locate_plain(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, bool *in_use, uint32_t *bit)
{
	bitref_t ref;
	*in_use = locate(g, t, 0, sm, loc, &ref);
	*bit = ref.bit;
	return *in_use ? ref.byte : NULL;
}

static int flip(sc_gpu_t *g, sc_target_t t, unsigned fields, sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	bitref_t refs[64];
	if (nbits == 0 || nbits > 64)
		return SC_EINVAL;
	if (sc__coded(g, t))
		return sc__prot_fault(g, t, sm, loc, nbits, nbits == 64 ? UINT64_MAX : (UINT64_C(1) << nbits) - 1);
	if (is_cache(t))
		return sc__cache_fault(g, t, fields, sm->id, loc, nbits, true);
	/* all bits must be in use; an adjacent-bit fault lies inside one word */
	for (uint32_t i = 0; i < nbits; i++)
		if (!locate(g, t, fields, sm, loc + i, &refs[i]))
			return 0;
	for (uint32_t i = 0; i < nbits; i++) {
		if (!refs[i].byte)
			continue; /* a virtual register holding nothing read again */
		*refs[i].byte ^= (uint8_t)(1u << refs[i].bit);
		if (refs[i].warp && t == SC_TGT_IBUFFER)
			refs[i].warp->ib_dirty = true;
		if (UNLIKELY(sm->sharp) && t == SC_TGT_REGFILE)
			sc__sharp_rf_fault(g, sm, (uint64_t)(loc + i) / 32, 1u << ((loc + i) % 32));
	}
	if (t == SC_TGT_IBUFFER || t == SC_TGT_SIMT)
		sc__sm_refresh_units(g, sm);
	return 1;
}

/* Arms an FU fault of kind op on `lanes` of SM sm from now. */
static void fu_arm(sc_gpu_t *g, uint32_t sm, uint32_t lanes, sc_fm_kind_t op, uint64_t bits, const sc_fmodel_t *m)
{
	g->after = true;
	g->fu.armed = true;
	g->fu.applied = false;
	g->fu.op = (uint8_t)op;
	g->fu.sm = sm;
	g->fu.lanes = lanes;
	g->fu.bits = bits;
	g->fu.value = m ? m->value : 0;
	g->fu.period = m ? m->period : 0;
	g->fu.duration = m ? m->duration : 0;
	g->fu.cycle = g->cycle;
}

int sc_inject(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits)
{
	uint32_t wb;
	uint64_t n = sc__space_bits(g, t, fields, &wb);
	if (sm >= sc_target_sms(&g->cfg, t) || !n || loc >= n || nbits == 0 || loc + nbits > n)
		return SC_EINVAL;
	if (t == SC_TGT_FU) {
		fu_arm(g, sm, 1u << (loc / 64), SC_FM_FLIP, UINT64_C(1) << (loc % 64), NULL);
		return 1;
	}
	return flip(g, t, fields, &g->sms[sm], loc, nbits);
}

/* ---------------------------------------------------------------- fault models */

int sc_model_supported(sc_target_t t, sc_fm_kind_t k)
{
	if ((unsigned)t >= SC_TGT__COUNT)
		return 0;
	switch (k) {
	case SC_FM_FLIP:
	case SC_FM_VALUE: return 1;
	case SC_FM_ZERO: return !is_cache(t); /* a cache word's value is not read here */
	case SC_FM_STUCK: return t == SC_TGT_REGFILE || t == SC_TGT_PRED || t == SC_TGT_SMEM || t == SC_TGT_FU;
	}
	return 0;
}

/* XORs `pat` into the nbits bits from loc (one word): 1 when they are all
 * in use (then changed), 0 when not. ZERO passes pat 0 and clears them. */
static int xor_word(sc_gpu_t *g, sc_target_t t, unsigned fields, sc_sm_t *sm, uint64_t loc, uint32_t nbits,
                    uint64_t pat, bool zero)
{
	if (is_cache(t)) { /* runs of set bits, each one flip */
		if (sc__cache_fault(g, t, fields, sm->id, loc, nbits, false) != 1)
			return 0;
		for (uint32_t i = 0; i < nbits;) {
			uint32_t k = 0;
			while (i + k < nbits && (pat >> (i + k) & 1))
				k++;
			if (k && sc__cache_fault(g, t, fields, sm->id, loc + i, k, true) < 0)
				return SC_EINVAL;
			i += k ? k : 1;
		}
		return 1;
	}
	if (sc__coded(g, t)) /* a codeword's bits: zero is refused there */
		return sc__prot_fault(g, t, sm, loc, nbits, pat);
	bitref_t refs[64];
	for (uint32_t i = 0; i < nbits; i++)
		if (!locate(g, t, fields, sm, loc + i, &refs[i]))
			return 0;
	for (uint32_t i = 0; i < nbits; i++) {
		uint8_t m = (uint8_t)(1u << refs[i].bit), old = refs[i].byte ? *refs[i].byte : 0;
		if (!refs[i].byte)
			continue; /* a virtual register holding nothing read again */
		if (zero)
			*refs[i].byte &= (uint8_t)~m;
		else if (pat >> i & 1)
			*refs[i].byte ^= m;
		if (UNLIKELY(sm->sharp) && t == SC_TGT_REGFILE && old != *refs[i].byte)
			sc__sharp_rf_fault(g, sm, (uint64_t)(loc + i) / 32, 1u << ((loc + i) % 32));
		if (refs[i].warp && t == SC_TGT_IBUFFER)
			refs[i].warp->ib_dirty = true;
	}
	if (t == SC_TGT_IBUFFER || t == SC_TGT_SIMT)
		sc__sm_refresh_units(g, sm);
	return 1;
}

bool sc__stuck_active(uint64_t start, uint64_t period, uint64_t duration, uint64_t now, uint64_t *next)
{
	uint64_t off = now >= start ? now - start : 0;
	if (next)
		*next = now < start ? start : period ? start + (off / period + 1) * period : UINT64_MAX;
	if (now < start)
		return false;
	return !period || off % period < duration;
}

/* Forces the stuck bit (g->stuck) to its value when it is in use. */
static void stuck_force(sc_gpu_t *g, sc_sm_t *sm)
{
	bitref_t ref;
	if (!locate(g, (sc_target_t)g->stuck.target, 0, sm, g->stuck.loc, &ref))
		return;
	uint8_t m = (uint8_t)(1u << ref.bit);
	*ref.byte = g->stuck.value ? (uint8_t)(*ref.byte | m) : (uint8_t)(*ref.byte & ~m);
}

void sc__stuck_apply(sc_gpu_t *g, const sc_sm_t *sm, uint64_t now)
{
	if (sm->id == g->stuck.sm && sc__stuck_active(g->stuck.start, g->stuck.period, g->stuck.duration, now, NULL))
		stuck_force(g, &g->sms[sm->id]);
}

uint64_t sc_stuck_pause(sc_gpu_t *g, uint64_t cycle)
{
	uint64_t next;
	if (!g->stuck.on || !g->stuck.period)
		return UINT64_MAX;
	if (sc__stuck_active(g->stuck.start, g->stuck.period, g->stuck.duration, cycle, &next))
		stuck_force(g, &g->sms[g->stuck.sm]);
	return next;
}

static int arm_stuck(sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, const sc_fmodel_t *m)
{
	if (g->stuck.on || (g->fu.armed && g->fu.op == SC_FM_STUCK) || m->value > 1 ||
	    (m->period && (m->duration == 0 || m->duration > m->period)))
		return SC_EINVAL; /* one permanent fault per run */
	if (t == SC_TGT_FU) {
		fu_arm(g, smi, 1u << (loc / 64), SC_FM_STUCK, loc % 64, m);
		return 1;
	}
	g->stuck.on = true;
	g->after = true;
	g->stuck.target = (uint8_t)t;
	g->stuck.sm = smi;
	g->stuck.value = m->value;
	g->stuck.loc = loc;
	g->stuck.start = g->cycle;
	g->stuck.period = m->period;
	g->stuck.duration = m->duration;
	stuck_force(g, &g->sms[smi]);
	return 1;
}

int sc_inject_model(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits,
                    const sc_fmodel_t *m, uint64_t pattern)
{
	static const sc_fmodel_t flip_model = {.kind = SC_FM_FLIP};
	uint32_t wb;
	uint64_t n = sc__space_bits(g, t, fields, &wb);
	if (!m)
		m = &flip_model;
	uint32_t words = m->words > 1 ? m->words : 1;
	if (smi >= sc_target_sms(&g->cfg, t) || !n || loc >= n || nbits == 0 || nbits > 64 || loc + nbits > n ||
	    !sc_model_supported(t, m->kind) || (words > 1 && (m->interleave == 0 || m->kind == SC_FM_STUCK)) ||
	    (sc__virtual(g, t) && (words > 1 || m->kind == SC_FM_STUCK)) ||
	    (sc__coded(g, t) && (m->kind == SC_FM_ZERO || m->kind == SC_FM_STUCK)) ||
	    (m->kind != SC_FM_FLIP && loc / wb != (loc + nbits - 1) / wb))
		return SC_EINVAL;
	if (m->kind == SC_FM_STUCK)
		return nbits == 1 ? arm_stuck(g, t, smi, loc, m) : SC_EINVAL;
	uint64_t stride = (uint64_t)m->interleave * wb;
	uint64_t pat = m->kind == SC_FM_VALUE ? pattern : nbits == 64 ? UINT64_MAX : (UINT64_C(1) << nbits) - 1;
	if (t == SC_TGT_FU) { /* words are lanes */
		uint32_t lanes = 0;
		for (uint32_t j = 0; j < words && loc + j * stride < n; j++)
			lanes |= 1u << ((loc + j * stride) / 64);
		fu_arm(g, smi, lanes, m->kind, pat << (loc % 64), m);
		return 1;
	}
	int hit = 0;
	for (uint32_t j = 0; j < words && loc + j * stride + nbits <= n; j++) {
		int rc = xor_word(g, t, fields, &g->sms[smi], loc + j * stride, nbits, pat, m->kind == SC_FM_ZERO);
		if (rc < 0)
			return rc;
		hit |= rc;
	}
	return hit;
}

int sc_fu_applied(const sc_gpu_t *g) { return g->fu.applied; }

int sc_target_in_use(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits)
{
	sc_gpu_t *g = (sc_gpu_t *)cg; /* locate() only reads */
	uint64_t n = sc__space_bits(g, t, fields, NULL);
	if (smi >= sc_target_sms(&g->cfg, t) || !n || loc >= n || nbits == 0 || nbits > 64 || loc + nbits > n)
		return SC_EINVAL;
	if (t == SC_TGT_FU)
		return 1;
	if (is_cache(t))
		return sc__cache_fault(g, t, fields, smi, loc, nbits, false);
	if (sc__coded(g, t))
		return sc__prot_in_use(g, t, &g->sms[smi], loc, nbits);
	bitref_t ref;
	for (uint32_t i = 0; i < nbits; i++)
		if (!locate(g, t, fields, &g->sms[smi], loc + i, &ref))
			return 0;
	return 1;
}

/* ---------------------------------------------------------------- dead values */

/* The liveness of kernel f's own registers, computed once and kept in the
 * module (the only thing written through the const pointers); NULL when
 * it cannot decide: no memory, or the kernel reads other lanes' registers
 * (shfl), which per-thread liveness does not see. */
static const sc_live_t *kernel_live(const sc_module_t *m, const sc_func_t *cf)
{
	sc_func_t *f = (sc_func_t *)cf;
	if (f->live_done)
		return f->live;
	f->live_done = true;
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
		if (m->code[pc].op == SC_OP_SHFL)
			return NULL;
	sc_live_t *lv = calloc(1, sizeof *lv);
	if (lv && sc__live(m->code, f->entry_pc, f->end_pc, f->reg_base, f->nregs, f->pred_base, f->npreds, lv) == 0) {
		f->live = lv;
		return lv;
	}
	sc__live_free(lv);
	free(lv);
	return NULL;
}

/* Whether value v (or the 64-bit value below it, when hi2) may be read by
 * lane `lane` of w again: live before the pc of any SIMT entry holding
 * the lane. -1: cannot tell (a pc outside the kernel). */
static int lane_reads(const sc_live_t *lv, const sc_warp_t *w, uint32_t lane, uint32_t v, bool hi2)
{
	if (!(w->live >> lane & 1u))
		return 0; /* exited */
	for (uint32_t i = 0; i < w->sp; i++) {
		if (!(w->stk[i].mask >> lane & 1u))
			continue;
		uint32_t pc = w->stk[i].pc;
		if (pc < lv->lo || pc >= lv->hi)
			return -1;
		if (sc__live_at(lv, lv->in, pc, v) || (hi2 && sc__live_at(lv, lv->in, pc, v - 1)))
			return 1;
	}
	return 0;
}

/* ptx mode: every bit in use and in a virtual register holding nothing
 * read again. */
static int virtual_dead(sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, uint32_t nbits)
{
	bitref_t ref;
	for (uint32_t i = 0; i < nbits; i++)
		if (!locate(g, t, 0, &g->sms[smi], loc + i, &ref) || ref.byte)
			return 0;
	return 1;
}

int sc_target_dead(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits)
{
	sc_gpu_t *g = (sc_gpu_t *)cg;
	(void)fields; /* registers and predicates only: no fields */
	if (smi >= g->cfg.num_sms)
		return 0;
	if (g->sms[smi].sharp) /* SHARP's checks read every register of a warp, dead or not */
		return 0;
	if (sc__coded(g, t))
		return sc__prot_dead(g, t, &g->sms[smi], loc, nbits);
	return sc__dead_plain(g, t, smi, loc, nbits);
}

int sc__dead_plain(sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, uint32_t nbits)
{
	const sc_run_t *r = &g->run;
	bitref_t ref;
	if (nbits == 0 || loc + nbits > plain_bits(g, t, 0, NULL))
		return 0;
	for (uint32_t i = 0; i < nbits; i++)
		if (!locate(g, t, 0, &g->sms[smi], loc + i, &ref))
			return 0;
	if (sc__virtual(g, t))
		return virtual_dead(g, t, smi, loc, nbits);
	if ((t != SC_TGT_REGFILE && t != SC_TGT_PRED) || !r->fn || r->fn->uses_funcs)
		return 0;
	const sc_func_t *f = r->fn;
	const sc_live_t *lv = kernel_live(r->mod, f);
	if (!lv)
		return 0;
	const sc_sm_t *sm = &g->sms[smi];
	uint64_t word = loc / 32;
	if (t == SC_TGT_REGFILE) {
		/* register `reg` of lane `lane` of the warp whose block holds the word */
		for (uint32_t s = 0; s < g->cfg.max_warps_per_sm; s++) {
			const sc_warp_t *w = &sm->warps[s];
			uint64_t base = w->rf ? (uint64_t)(w->rf - sm->rf) : UINT64_MAX;
			if (!warp_live(w) || word < base || word >= base + (uint64_t)r->regs * 32)
				continue;
			uint32_t reg = (uint32_t)((word - base) / 32), lane = (uint32_t)((word - base) % 32);
			if (w->ncalls || reg < f->reg_base || reg >= f->reg_base + f->nregs)
				return 0;
			uint32_t v = reg - f->reg_base;
			return lane_reads(lv, w, lane, v, v > 0) == 0;
		}
		return 0;
	}
	/* pred: predicate p of warp slot `slot`, one bit per lane */
	uint32_t slot = (uint32_t)(word / g->cfg.preds_per_thread), p = (uint32_t)(word % g->cfg.preds_per_thread);
	const sc_warp_t *w = &sm->warps[slot];
	if (slot >= g->cfg.max_warps_per_sm || !warp_live(w) || w->ncalls || p < f->pred_base ||
	    p >= f->pred_base + f->npreds)
		return 0;
	for (uint32_t b = 0; b < nbits; b++)
		if (lane_reads(lv, w, (uint32_t)((loc + b) % 32), lv->nregs + p - f->pred_base, false) != 0)
			return 0;
	return 1;
}

/* Live bits: the in-use locations, counted in target-space order. */
uint64_t sc_target_live_bits(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t smi)
{
	sc_gpu_t *g = (sc_gpu_t *)cg; /* locate() does not modify anything */
	uint32_t wb;
	uint64_t n = sc_target_bits(&g->cfg, t, fields, &wb);
	if (smi >= sc_target_sms(&g->cfg, t) || t == SC_TGT_FU)
		return t == SC_TGT_FU ? n : 0;
	if (is_cache(t))
		return sc__cache_live_bits(g, t, fields, smi);
	if (sc__coded(g, t))
		return sc__prot_live_bits(g, t, &g->sms[smi]);
	uint64_t live = 0;
	bitref_t ref;
	if (t == SC_TGT_REGFILE && original_alloc(g)) {
		uint64_t *map = original_map(g, &g->sms[smi], &live);
		free(map);
		return live * wb;
	}
	/* step word by word: use is decided per word (per entry field); in
	 * ptx mode, the physical words the virtual registers weigh by */
	for (uint64_t b = 0; b < n; b += wb)
		if (locate_phys(g, t, fields, &g->sms[smi], b, &ref))
			live += wb;
	return live;
}

/* virtual_word under regs_subset original: the k-th word of an original
 * virtual register (own slot below dup_nregs) of the resident warps. */
static uint64_t original_word(const sc_gpu_t *g, uint32_t smi, uint64_t k, uint64_t *count)
{
	const sc_run_t *r = &g->run;
	uint64_t orig = (uint64_t)r->fn->dup_nregs * 32, per = orig * r->nwarps, n = 0, at = UINT64_MAX;
	for (uint32_t c = 0; per && c < r->ctas_per_sm; c++)
		if (cta_of_slot(g, &g->sms[smi], c)) {
			if (k >= n && k - n < per) {
				uint64_t i = k - n, warp = i / orig, vs = i % orig / 32, lane = i % 32;
				at = (((uint64_t)c * r->nwarps + warp) * r->fn->regs_ptx + vs) * 32 + lane;
			}
			n += per;
		}
	*count = n;
	return at;
}

/* ptx mode: the k-th virtual word in use on SM smi (the resident CTAs'
 * warps, each per x lanes words), or UINT64_MAX past the last; *count
 * gets how many there are. */
static uint64_t virtual_word(const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t k, uint64_t *count)
{
	const sc_run_t *r = &g->run;
	bool pred = t == SC_TGT_PRED;
	uint64_t per = !r->fn ? 0 : (pred ? r->fn->preds_ptx : (uint64_t)r->fn->regs_ptx * 32) * r->nwarps, n = 0;
	uint64_t at = UINT64_MAX;
	if (UNLIKELY(g->regs_original) && !pred && r->fn && r->fn->dup_done)
		return original_word(g, smi, k, count);
	for (uint32_t c = 0; per && c < r->ctas_per_sm; c++)
		if (cta_of_slot(g, &g->sms[smi], c)) {
			if (k >= n && k - n < per)
				at = (uint64_t)c * per + (k - n);
			n += per;
		}
	*count = n;
	return at;
}

int sc__virtual_live_loc(const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t draw, uint32_t nbits, uint32_t wb,
                         uint64_t *loc)
{
	uint64_t words;
	virtual_word(g, t, smi, 0, &words);
	if (!words)
		return 0;
	uint32_t start = (uint32_t)((draw / words) % (wb - nbits + 1));
	*loc = virtual_word(g, t, smi, draw % words, &words) * wb + start;
	return 1;
}

bool sc__in_use_phys(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc)
{
	bitref_t ref;
	return locate_phys(g, t, 0, sm, loc, &ref);
}

int sc_live_loc(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t smi, uint64_t draw, uint32_t nbits,
                uint64_t *loc)
{
	sc_gpu_t *g = (sc_gpu_t *)cg; /* locate() and the cache walk only read */
	uint32_t wb;
	uint64_t n = sc__space_bits(g, t, fields, &wb);
	if (smi >= sc_target_sms(&g->cfg, t) || !n || nbits == 0 || nbits > wb)
		return SC_EINVAL;
	if (t == SC_TGT_FU) {
		*loc = draw % n;
		return 1;
	}
	if (sc__coded(g, t))
		return sc__prot_live_loc(g, t, &g->sms[smi], draw, nbits, loc);
	uint64_t words;
	if (sc__virtual(g, t)) /* a word among the resident threads' virtual registers */
		return sc__virtual_live_loc(g, t, smi, draw, nbits, 32, loc);
	if (t == SC_TGT_REGFILE && original_alloc(g)) /* one map for the count and the pick */
		return original_loc(g, &g->sms[smi], draw, nbits, wb, loc);
	uint64_t live = sc_target_live_bits(g, t, fields, smi);
	if (!live)
		return 0;
	/* the draw picks a word among the live ones, then a start inside it */
	words = live / wb;
	uint64_t k = draw % words;
	uint32_t start = (uint32_t)((draw / words) % (wb - nbits + 1));
	if (is_cache(t)) {
		uint64_t b = sc__cache_live_word(g, t, fields, smi, k, wb);
		if (b == UINT64_MAX)
			return 0;
		*loc = b + start;
		return 1;
	}
	bitref_t ref;
	for (uint64_t b = 0; b < n; b += wb)
		if (locate(g, t, fields, &g->sms[smi], b, &ref) && k-- == 0) {
			*loc = b + start;
			return 1;
		}
	return 0;
}

int sc_inject_live(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t smi, uint64_t draw, uint32_t nbits)
{
	uint64_t loc;
	int rc = sc_live_loc(g, t, fields, smi, draw, nbits, &loc);
	if (rc != 1)
		return rc;
	if (t == SC_TGT_FU)
		return sc_inject(g, t, fields, smi, loc, nbits);
	return flip(g, t, fields, &g->sms[smi], loc, nbits);
}

/* Applies the FU fault to lane l of the result `in` wrote (operand kind k,
 * register or predicate i): true when the result holds bits it acts on;
 * *changed when that changes its value. With write false the result stays
 * (REFU: a stuck lane of another unit, what it would do is all). */
static bool fu_lane(sc_gpu_t *g, sc_warp_t *w, unsigned k, unsigned i, uint32_t l, bool write, bool *changed)
{
	uint32_t width = k == SC_K_R32 ? 32 : k == SC_K_R64 ? 64 : k == SC_K_PRED ? 1 : 0;
	if (!width)
		return false;
	uint64_t v = k == SC_K_PRED ? (w->pf[i] >> l & 1u) : w->rf[(size_t)i * 32 + l];
	if (k == SC_K_R64)
		v |= (uint64_t)w->rf[(size_t)(i + 1) * 32 + l] << 32;
	uint64_t keep = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1, old = v;
	switch (g->fu.op) {
	case SC_FM_ZERO: v = 0; break;
	case SC_FM_STUCK:
		if (g->fu.bits >= width)
			return false;
		v = g->fu.value ? v | UINT64_C(1) << g->fu.bits : v & ~(UINT64_C(1) << g->fu.bits);
		break;
	default:
		if (!(g->fu.bits & keep))
			return false; /* the bits are outside this result: that datapath is idle */
		v ^= g->fu.bits & keep;
	}
	*changed = v != old;
	if (!write)
		return true;
	if (k == SC_K_PRED) {
		w->pf[i] = (w->pf[i] & ~(1u << l)) | (uint32_t)(v & 1) << l;
		return true;
	}
	w->rf[(size_t)i * 32 + l] = (uint32_t)v;
	if (k == SC_K_R64)
		w->rf[(size_t)(i + 1) * 32 + l] = (uint32_t)(v >> 32);
	return true;
}

uint32_t sc__fu_stuck_unit(const sc_gpu_t *g, const sc_sm_t *sm, unsigned fu)
{
	uint32_t lane = g->fu.lanes ? (uint32_t)__builtin_ctz(g->fu.lanes) : 0;
	return sm->uslot[lane % g->cfg.schedulers_per_sm][fu];
}

/* Whether the stuck lane acts on the result of `in`, issued by w's
 * scheduler: it sits in one unit of its kind (sc__fu_stuck_unit). */
static bool stuck_here(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t pc)
{
	sc_fu_t fu;
	if (!w->ib_dirty && pc < g->run.mod->ncode) { /* the word as loaded: its decoded unit */
		fu = g->dec[pc].fu;
	} else { /* a word a fault changed: decoded again */
		sc_dec_t d;
		sc__decode(g, in, pc, false, &d);
		fu = d.fu;
	}
	return sm->uslot[w->slot % g->cfg.schedulers_per_sm][fu] == sc__fu_stuck_unit(g, sm, fu);
}

/* A transient FU fault done with (applied, or its cycle passed): issue()
 * still calls sc__after_issue for a stuck bit or REFU's buffer. */
static void fu_disarm(sc_gpu_t *g)
{
	g->fu.armed = false;
	g->after = g->stuck.on || g->opt.prot.refu.on;
}

void sc__fu_apply(sc_gpu_t *g, const sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                  uint64_t now)
{
	bool stuck = g->fu.op == SC_FM_STUCK;
	if (!stuck && now > g->fu.cycle) {
		fu_disarm(g); /* its cycle passed with nothing to corrupt */
		return;
	}
	uint32_t lanes = exec & g->fu.lanes;
	if (sm->id != g->fu.sm || (!stuck && now != g->fu.cycle) || !lanes || SC_NDST(in) == 0)
		return;
	if (stuck && !sc__stuck_active(g->fu.cycle, g->fu.period, g->fu.duration, now, NULL))
		return;
	sc_opnd_t o = sc__opnd(in, 0);
	unsigned k = SC_OPND_KIND(o), i = SC_OPND_IDX(o);
	bool refu = sm->refu && sc__refu_covers(in->op); /* REFU will replay it */
	bool write = !stuck || stuck_here(g, sm, w, in, pc);
	bool hit = false;
	uint32_t chg = 0;
	for (uint32_t m = lanes; m; m &= m - 1) {
		bool c = false;
		hit |= fu_lane(g, w, k, i, (uint32_t)__builtin_ctz(m), write, &c);
		chg |= (uint32_t)c << __builtin_ctz(m);
	}
	if (refu) { /* what the replay will compare (refu.c) */
		sm->refu->mark_chg = chg;
		sm->refu->mark_bad = write ? chg : 0;
	}
	if (!hit || !write)
		return;
	if (sm->refu && !refu) /* unprotected: REFU does not replay it */
		sc__prot_event(g, SC_PROT_UNCOVERED);
	if (!stuck)
		fu_disarm(g);
	if (g->fu.applied)
		return;
	g->fu.applied = true;
	g->fu.pc = pc;
	/* from now on the corrupted result is a faulty register (the high
	 * half of a 64-bit one when only its bits there change) */
	bool hi = k == SC_K_R64 && !stuck && !(g->fu.bits & UINT32_MAX);
	if (stuck)
		hi = k == SC_K_R64 && g->fu.bits >= 32;
	if (g->watch.want)
		sc__watch_reg(g, sm->id, w->slot, k == SC_K_PRED, k == SC_K_PRED ? i : i + hi, lanes);
}

void sc__after_issue(sc_gpu_t *g, const sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                     uint64_t now)
{
	if (g->stuck.on)
		sc__stuck_apply(g, sm, now);
	if (g->fu.armed)
		sc__fu_apply(g, sm, w, in, exec, pc, now);
	if (sm->refu && sc__refu_covers(in->op)) /* into REFU's replay buffer */
		sc__refu_push(g, sm, w, in, pc, now);
}

/* ---------------------------------------------------------------- pauses */
void sc_set_pause(sc_gpu_t *g, uint64_t at, sc_pause_fn fn, void *ctx)
{
	g->pause_at = fn ? at : UINT64_MAX;
	g->pause_fn = fn;
	g->pause_ctx = ctx;
}

void sc_set_cycle_budget(sc_gpu_t *g, uint64_t budget) { g->opt.cycle_budget = budget; }
uint64_t sc_gpu_cycle(const sc_gpu_t *g)
{
	sc__gpu_observe(g);
	return g->cycle;
}

/* ---------------------------------------------------------------- hash */
typedef struct hasher { uint64_t h; } hasher_t;

static inline void hmix(hasher_t *s, uint64_t v)
{
	uint64_t h = s->h ^ (v * 0x9e3779b97f4a7c15ull);
	h = (h << 31) | (h >> 33);
	s->h = h * 0xbf58476d1ce4e5b9ull;
}

static void hbytes(hasher_t *s, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i = 0;
	/* four independent lanes: the multiplies of one lane do not wait for
	 * another's, which makes hashing large arrays about four times faster */
	if (n >= 64) {
		hasher_t l[4] = {{s->h ^ 1}, {s->h ^ 2}, {s->h ^ 3}, {s->h ^ 4}};
		for (; i + 32 <= n; i += 32) {
			uint64_t v[4];
			memcpy(v, b + i, 32);
			hmix(&l[0], v[0]);
			hmix(&l[1], v[1]);
			hmix(&l[2], v[2]);
			hmix(&l[3], v[3]);
		}
		for (int k = 0; k < 4; k++)
			hmix(s, l[k].h);
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, b + i, 8);
		hmix(s, v);
	}
	uint64_t tail = 0;
	memcpy(&tail, b + i, n - i);
	hmix(s, tail ^ ((uint64_t)n << 56));
}

/* Part 0: the clock and the launch in progress; parts 1..num_sms: each SM;
 * the last part: global memory. */
uint32_t sc_state_parts(const sc_gpu_t *g) { return g->cfg.num_sms + 2; }

/* A time as it matters from now on: how far ahead it is, 0 once past. */
static inline uint64_t ahead(uint64_t t, uint64_t now) { return t > now ? t - now : 0; }

/* A cache's lines: tags (in recency order), sectors, and when data that is
 * still on its way arrives. */
static void hash_cache(const sc_gpu_t *g, const sc_cache_t *c, uint64_t now, hasher_t *s)
{
	size_t n = (size_t)c->sets * c->ways;
	if (!n) /* no such cache in this GPU: no arrays either */
		return;
	hbytes(s, c->tag, n * sizeof *c->tag);
	for (size_t i = 0; i < n; i++)
		if (c->ready[i] > now)
			hmix(s, i << 32 | (c->ready[i] - now));
	if (c->valid) {
		hbytes(s, c->valid, n);
		hbytes(s, c->dirty, n);
	}
	if (c->nover) /* lines a fault corrupted (none in a fault-free run) */
		hmix(s, sc__ovl_hash(g, c));
}

/* The units, schedulers and caches of SM sm: its timing state. */
static void hash_sm_timing(const sc_gpu_t *g, const sc_sm_t *sm, hasher_t *s)
{
	uint64_t now = g->cycle;
	uint32_t ns = g->cfg.schedulers_per_sm;
	for (uint32_t k = 0; k < ns; k++)
		hmix(s, ahead(sm->sfree[k], now));
	for (uint32_t k = 0; k < ns * SC_FU__COUNT; k++)
		hmix(s, ahead(sm->ufree[k], now));
	hash_cache(g, &g->ms.l1[sm->id], now, s);
	hash_cache(g, &g->ms.cc[sm->id], now, s);
	hash_cache(g, &g->ms.tc[sm->id], now, s);
}

/* The L2 slices, their ports and the DRAM buses. */
static void hash_memsys(const sc_gpu_t *g, hasher_t *s)
{
	const sc_memsys_t *ms = &g->ms;
	uint64_t now = g->cycle;
	for (uint32_t i = 0; i < ms->nslices; i++) {
		hash_cache(g, &ms->l2[i], now, s);
		hmix(s, ahead(ms->port[i], now));
	}
	for (uint32_t i = 0; i < ms->nchan; i++)
		hmix(s, ahead(ms->bus[i], now << SC_TICK_SHIFT));
	uint64_t d = sc__dimg_hash(g); /* 0 unless a sector diverged */
	if (d)
		hmix(s, d);
}

static void hash_sm(const sc_gpu_t *g, const sc_sm_t *sm, hasher_t *s)
{
	const sc_run_t *r = &g->run;
	const sc_gpu_config_t *c = &g->cfg;
	uint64_t now = g->cycle;
	if (!r->fn)
		return;
	hmix(s, sm->nctas);
	hmix(s, *sm->next == UINT64_MAX ? UINT64_MAX : *sm->next - now);
	if (sm->nerr) /* corrupted protected words (none in a fault-free run) */
		hmix(s, sc__prot_hash(sm));
	if (sm->sharp) /* windows, queue, stored check bits, written words */
		hmix(s, sc__sharp_hash(g, sm));
	if (sm->penny) /* the snapshots (outside every fault target) */
		hmix(s, sc__penny_hash(g, sm));
	if (sm->refu) /* the replay buffer's entries and what faults did to them */
		hmix(s, sc__refu_hash(g, sm));
	hash_sm_timing(g, sm, s);
	hbytes(s, sm->last, c->schedulers_per_sm * sizeof *sm->last);
	for (uint32_t k = 0; k < r->ctas_per_sm; k++) {
		const sc_cta_t *cta = &sm->ctas[k];
		hmix(s, cta->used);
		if (!cta->used)
			continue;
		hbytes(s, cta->ctaid, sizeof cta->ctaid);
		hmix(s, cta->done);
		hbytes(s, cta->bar, sizeof cta->bar);
		hbytes(s, sm->smem + cta->smem_off, r->smem);
		hbytes(s, cta->local, (size_t)r->nwarps * 32 * r->local);
		for (uint32_t wi = 0; wi < r->nwarps; wi++) {
			uint32_t slot = k * r->nwarps + wi;
			const sc_warp_t *w = &sm->warps[slot];
			hmix(s, w->state);
			hmix(s, sm->wnext[slot] == UINT64_MAX ? UINT64_MAX : sm->wnext[slot] - now);
			if (w->state == SC_W_DONE)
				continue;
			hmix(s, w->live);
			hmix(s, w->cc);
			hmix(s, w->age);
			hmix(s, (uint64_t)w->bar_id << 32 | (uint64_t)w->bar_kind << 16 | (w->bar_dst & 0xffffu) |
			          (uint64_t)(w->bar_dst >> 16) << 40);
			hmix(s, w->bar_mask);
			hmix(s, w->ib_dirty);
			hbytes(s, w->stk, w->sp * sizeof *w->stk);
			hmix(s, w->sp);
			hbytes(s, w->calls, w->ncalls * sizeof *w->calls);
			hmix(s, w->ncalls);
			hmix(s, w->csp);
			hmix(s, w->ib_pc);
			for (uint32_t e = 0; e < c->ib_entries; e++) {
				hmix(s, w->ib[e].valid);
				if (w->ib[e].valid & SC_IB_VALID)
					hbytes(s, &w->ib[e].insn, sizeof w->ib[e].insn);
			}
			hbytes(s, w->rf, (size_t)r->regs * 32 * sizeof *w->rf);
			hbytes(s, w->pf, (size_t)r->preds * sizeof *w->pf);
			for (uint32_t j = 0; j < r->regs + r->preds; j++)
				hmix(s, w->ready[j] > now ? w->ready[j] - now : 0);
		}
	}
}

uint64_t sc_state_hash_part(const sc_gpu_t *g, uint32_t part)
{
	const sc_run_t *r = &g->run;
	hasher_t s = {0x6a09e667f3bcc908ull ^ part};
	if (part == 0) {
		hmix(&s, g->cycle);
		hmix(&s, (uint64_t)(r->fn ? r->fn - r->mod->funcs : -1));
		hmix(&s, r->launch_index);
		hmix(&s, r->next_cta);
		hmix(&s, r->done_ctas);
		hmix(&s, r->next_sm);
		hmix(&s, r->age);
		hmix(&s, g->status.reason);
		if (g->pf.hash) /* what device printf wrote (ptxext.c); 0 when nothing */
			hmix(&s, g->pf.hash);
		if (g->heap.base) /* the device heap's blocks */
			hmix(&s, sc__heap_hash(g));
		hash_memsys(g, &s);
	} else if (part <= g->cfg.num_sms) {
		hash_sm(g, &g->sms[part - 1], &s);
	} else {
		return sc__gmem_hash(g, NULL);
	}
	return s.h;
}

static uint64_t line_hash(const sc_alloc_t *al, uint64_t off)
{
	hasher_t l = {off};
	hbytes(&l, al->data + off, al->size - off < SC_LINE ? al->size - off : SC_LINE);
	return l.h;
}

uint64_t sc__gmem_hash(const sc_gpu_t *g, uint64_t *lines)
{
	hasher_t s = {0x6a09e667f3bcc908ull ^ sc_state_parts(g)};
	uint32_t k = 0;
	for (uint32_t a = 0; a < g->gmem.n; a++) {
		const sc_alloc_t *al = &g->gmem.a[a];
		hmix(&s, al->base);
		hmix(&s, al->size);
		for (uint64_t off = 0; off < al->size; off += SC_LINE) {
			uint64_t h = line_hash(al, off);
			hmix(&s, h);
			if (lines)
				lines[k++] = h;
		}
	}
	return s.h;
}

void sc__gmem_cache_seed(sc_gpu_t *g, const uint64_t *base, uint32_t n, uint64_t sig, uint64_t at)
{
	sc_trace_t *t = g->trace;
	if (!t)
		return;
	t->base = base;
	t->nlh = n;
	t->sig = sig;
	t->at = at;
}

/* The cache's hashes as of t->at, when they fit the memory now. */
static const uint64_t *cache_base(const sc_gpu_t *g, const sc_trace_t *t, uint32_t nl, uint64_t sig)
{
	if (!t->base || t->wbroken || g->gmem.freed || t->nlh != nl || t->sig != sig)
		return NULL;
	return t->base;
}

uint64_t sc__gmem_hash_at(sc_gpu_t *g, uint64_t at)
{
	sc_trace_t *t = g->trace;
	uint32_t nl = sc__gmem_nlines(&g->gmem);
	uint64_t sig = sc__gmem_layout(&g->gmem);
	if (!t)
		return sc__gmem_hash(g, NULL);
	const uint64_t *base = cache_base(g, t, nl, sig);
	if (t->base != t->lh || t->nlh != nl) { /* lh holds nothing to keep */
		free(t->lh);
		t->lh = malloc((nl ? nl : 1) * sizeof *t->lh);
	}
	if (!t->lh) {
		t->base = NULL;
		return sc__gmem_hash(g, NULL);
	}
	hasher_t s = {0x6a09e667f3bcc908ull ^ sc_state_parts(g)};
	uint32_t k = 0;
	t->rehashed = 0;
	for (uint32_t a = 0; a < g->gmem.n; a++) {
		const sc_alloc_t *al = &g->gmem.a[a];
		const uint64_t *w = a < t->n ? t->wrote[a] : NULL;
		hmix(&s, al->base);
		hmix(&s, al->size);
		for (uint64_t off = 0, l = 0; off < al->size; off += SC_LINE, l++, k++) {
			uint64_t h;
			if (base && (!w || w[l] <= t->at)) {
				h = base[k]; /* not written since the cache's pause */
			} else {
				h = line_hash(al, off);
				t->rehashed++;
			}
			/* in place, only what changed: a forked child shares the
			 * cache's pages with its parent until one writes them */
			if (base != t->lh || t->lh[k] != h)
				t->lh[k] = h;
			hmix(&s, h);
		}
	}
	sc__gmem_cache_seed(g, t->lh, nl, sig, at);
	return s.h;
}

uint64_t sc_state_hash(const sc_gpu_t *g)
{
	hasher_t s = {0};
	for (uint32_t i = 0; i < sc_state_parts(g); i++)
		hmix(&s, sc_state_hash_part(g, i));
	return s.h;
}
