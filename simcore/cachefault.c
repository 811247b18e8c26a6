/* The caches as fault targets (l1d, l2, const, texcache): their bit layouts, what a
 * flip of each field does, and the overlay that lets a corrupted line show
 * in the loads it serves. The design and its limits: docs/DESIGN.md,
 * "Caches as fault targets".
 *
 * memsys.c keeps tags and times only: a line returns the memory at its
 * tag's address, which is what a fault-free run needs. A fault that changes
 * what a line returns gives it an overlay entry {slot, x}, x as long as the
 * line, and from then on the line returns memory XOR x:
 *
 *   data flip      x ^= the bit
 *   tag flip       the line now answers for address B instead of A (same
 *                  set and slice); x becomes mem(A) ^ x ^ mem(B) over the
 *                  bytes it holds, so loads of B read A's bytes (a wrong
 *                  hit) and loads of A miss (refetched)
 *   valid 1 -> 0   the line (l1d) or sector (l2) is gone with its x:
 *                  refetched; an L2 sector's dirty bit goes with it
 *   valid 0 -> 1   (l2 sectors of a line that holds a tag) the sector is
 *                  held again, with the memory's bytes
 *   dirty flip     (l2) the sector is written back on eviction, or not
 *
 * Loads read each byte from the first level that holds its line, as the
 * caches are when the load issues (L1, constant or texture cache, then
 * L2; a texel of tex or tld4 through the texture cache, or the L1 where
 * the GPU has none); a store
 * overwrites x where it writes (a global store also evicts the L1's line);
 * an atomic, performed at L2, reads the corrupted bytes and writes them; an
 * L2 line written back carries x into memory over its dirty sectors; a
 * per-SM line filled from the L2 takes the L2 line's x with its data; the
 * host reads and writes global memory through the L2. x is kept zero over
 * an L2 line's invalid sectors, and an entry whose x is all zero is
 * removed, so a state whose corruption is gone hashes as the golden one.
 *
 * Under a code on a cache's data (sc_protection_t.l1d, l2, cc; DESIGN.md,
 * "Codes on the caches") an entry also holds each codeword's error
 * pattern (err): data flips go into x and the pattern, check-bit flips
 * into the pattern only, and every read above decodes the codewords it
 * reads first (the section "codewords" below). The entry then stays while
 * a pattern is not zero, and the patterns are in the state hash.
 *
 * Bit layout of a line (the selected fields, in this order):
 *
 *   l1d    data (line bytes x 8: byte i's bit b at 8i + b; under a code
 *          the line's codewords, n bits per k data bits) | tag | valid (1)
 *   const  data | tag
 *   texcache data | tag
 *   l2     data | tag | valid (one per sector) | dirty (one per sector)
 *
 * l1d, const and texcache: per SM, line k is slot k of that SM's cache (slot = set x
 * ways + way, ways in recency order: way 0 the most recent). l2: the whole
 * L2 is SM 0's space, line k = slot k % lines_per_slice of slice k /
 * lines_per_slice. A tag is the physical address's bits above the set
 * index and the line offset (l2: and above log2(slices) more), of a
 * SC_CACHE_ADDR_BITS-bit address; bit j of the field is bit j of the
 * line's number above its set bits. The constant and local regions of the
 * caches' address space (SC_CACHE_CONST, SC_CACHE_LOCAL) lie above it, so
 * a flipped tag stays in its region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static uint32_t floor_log2(uint32_t v) { return v ? 31u - (uint32_t)__builtin_clz(v) : 0; }

static bool sectored(const sc_cache_t *c) { return c->valid != NULL; }
static uint32_t log2_sector(const sc_gpu_t *g) { return floor_log2(g->cfg.l2_sector); }
static uint32_t line_bytes(const sc_cache_t *c) { return 1u << c->shift; }

/* ------------------------------------------------------------ the overlay */

static sc_ovl_t *ovl_find(const sc_cache_t *c, size_t slot)
{
	for (uint32_t i = 0; i < c->nover; i++)
		if (c->ovl[i].slot == slot)
			return &c->ovl[i];
	return NULL;
}

static const uint8_t *ovl_x(const sc_cache_t *c, size_t slot)
{
	const sc_ovl_t *o = c->nover ? ovl_find(c, slot) : NULL;
	return o ? o->x : NULL;
}

/* Whether c is one of the SMs' constant caches. */
static bool is_cc(const sc_gpu_t *g, const sc_cache_t *c)
{
	return g->ms.cc && c >= g->ms.cc && c < g->ms.cc + g->cfg.num_sms;
}

/* Whether c is one of the SMs' texture caches. */
static bool is_tc(const sc_gpu_t *g, const sc_cache_t *c)
{
	return g->ms.tc && c >= g->ms.tc && c < g->ms.tc + g->cfg.num_sms;
}

/* The code on cache c's data (NULL: none): per SM, the L1 or the constant
 * cache (the texture cache has none); sectored, the L2. */
static const sc_code_t *code_of(const sc_gpu_t *g, const sc_cache_t *c)
{
	return is_tc(g, c) ? NULL : g->prot.code[sectored(c) ? 4 : is_cc(g, c) ? 5 : 3];
}

/* Codewords per line of c under code k. */
static uint32_t ncw(const sc_cache_t *c, const sc_code_t *k) { return line_bytes(c) * 8 / k->k; }

/* Whether entry o holds an error pattern. */
static bool has_err(const sc_gpu_t *g, const sc_cache_t *c, const sc_ovl_t *o)
{
	const sc_code_t *k = o->err ? code_of(g, c) : NULL;
	for (uint32_t i = 0; k && i < ncw(c, k); i++)
		if (o->err[i].data || o->err[i].check)
			return true;
	return false;
}

static void count(sc_gpu_t *g, const sc_cache_t *c, int d)
{
	g->ms.nover += (uint32_t)d;
	if (sectored(c))
		g->ms.l2_nover += (uint32_t)d;
}

/* The entry of the line in slot, created with x all zero when it has none;
 * NULL when out of memory. Entries move when one is made or deleted. */
static sc_ovl_t *ovl_entry(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	sc_ovl_t *o = ovl_find(c, slot);
	if (o)
		return o;
	if (c->nover == c->ovcap) {
		uint32_t cap = c->ovcap ? c->ovcap * 2 : 4;
		sc_ovl_t *n = realloc(c->ovl, cap * sizeof *n);
		if (!n)
			return NULL;
		c->ovl = n;
		c->ovcap = cap;
	}
	uint8_t *x = calloc(1, line_bytes(c));
	if (!x)
		return NULL;
	c->ovl[c->nover] = (sc_ovl_t){slot, x, NULL, false};
	count(g, c, 1);
	return &c->ovl[c->nover++];
}

static uint8_t *ovl_get(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	sc_ovl_t *o = ovl_entry(g, c, slot);
	return o ? o->x : NULL;
}

static void ovl_del(sc_gpu_t *g, sc_cache_t *c, sc_ovl_t *o)
{
	free(o->x);
	free(o->err);
	*o = c->ovl[--c->nover];
	count(g, c, -1);
	/* a followed data fault whose corruption left every cache unread */
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && !g->ms.nover)
		sc__watch_hit(g, SC_WATCH_OVERWRITTEN, SC_PC_NONE);
}

/* Removes the entries whose x is all zero and that hold no error pattern
 * (a check bit's flip leaves x zero: the entry stays until it is read). */
static void ovl_tidy(sc_gpu_t *g, sc_cache_t *c)
{
	for (uint32_t i = 0; i < c->nover;) {
		const uint8_t *x = c->ovl[i].x;
		uint32_t n = line_bytes(c), k = 0;
		while (k < n && !x[k])
			k++;
		if (k == n && !has_err(g, c, &c->ovl[i]) && !c->ovl[i].tagerr)
			ovl_del(g, c, &c->ovl[i]);
		else
			i++;
	}
}

/* An overlay of the hooks below that cannot be allocated would lose a
 * fault's effect without a word: the experiment stops instead. */
static uint8_t *ovl_need(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	uint8_t *x = ovl_get(g, c, slot);
	if (!x) {
		fputs("flipsim: out of memory for a cache fault's overlay\n", stderr);
		abort();
	}
	return x;
}

void sc__ovl_free(sc_cache_t *c)
{
	for (uint32_t i = 0; i < c->nover; i++) {
		free(c->ovl[i].x);
		free(c->ovl[i].err);
	}
	free(c->ovl);
	c->ovl = NULL;
	c->nover = c->ovcap = 0;
}

/* ------------------------------------------------------------ memory */

/* The host byte behind cache address ca, or NULL where nothing is (outside
 * every allocation, a local word of a warp not resident, past the constant
 * bank). sc__gmem_find leaves the allocation in gmem.hint for the trace. */
static uint8_t *mem_at(sc_gpu_t *g, uint64_t ca)
{
	const sc_run_t *r = &g->run;
	if (ca >= SC_CACHE_LOCAL) {
		uint64_t area = sc__local_area(g), rel = ca - SC_CACHE_LOCAL;
		if (!r->fn || !r->local || !area)
			return NULL;
		uint64_t unit = rel / area, p = rel % area, o = (p >> 7) * 4 + (p & 3);
		uint32_t maxw = g->cfg.max_warps_per_sm, lane = (uint32_t)(p >> 2) & 31;
		if (unit / maxw >= g->cfg.num_sms || o >= r->local)
			return NULL;
		const sc_warp_t *w = &g->sms[unit / maxw].warps[unit % maxw];
		return w->cta && w->cta->used && w->local ? w->local + (size_t)lane * r->local + o : NULL;
	}
	if (ca >= SC_CACHE_CONST) {
		uint64_t o = ca - SC_CACHE_CONST;
		return r->mod && o < r->mod->cbank_size ? r->mod->cbank + o : NULL;
	}
	return sc__gmem_find(&g->gmem, ca, 1);
}

static uint8_t mem_byte(sc_gpu_t *g, uint64_t ca)
{
	const uint8_t *p = mem_at(g, ca);
	return p ? *p : 0;
}

/* Memory at ca changes to its value XOR x: written like a store. */
static void mem_xor(sc_gpu_t *g, uint64_t ca, uint8_t x)
{
	uint8_t *p = mem_at(g, ca);
	if (!p)
		return;
	*p ^= x;
	if (g->trace && ca < SC_CACHE_CONST)
		sc__trace_touch(g, ca, 1, true);
}

/* The cache address of the first byte of the line in slot. */
static uint64_t line_addr(const sc_cache_t *c, size_t slot) { return (c->tag[slot] - 1) << c->shift; }

/* ------------------------------------------------------------ codewords
 *
 * Under a code on a cache's data (sc_protection_t.l1d, l2, cc) a line is
 * line bits / k codewords, codeword i over bytes [i k/8, (i + 1) k/8). A
 * fault's data bits go into x and into the codeword's pattern (o->err), a
 * check bit into the pattern only. Every read of a codeword decodes it
 * first: the loads a line serves, a per-SM line's fill from the L2, a
 * dirty L2 sector's write-back, an atomic at L2, the host's read. */

/* The SM whose per-SM cache c is; NULL for the L2's slices. */
static const sc_sm_t *sm_of(const sc_gpu_t *g, const sc_cache_t *c)
{
	if (sectored(c))
		return NULL;
	return &g->sms[c - (is_cc(g, c) ? g->ms.cc : is_tc(g, c) ? g->ms.tc : g->ms.l1)];
}

/* Codeword i of the line in entry o of c is read by w at pc (sm: the
 * reading SM; NULL, NULL, SC_PC_NONE: none): its pattern is decoded
 * (prot.c) and ends, and the data bits the decoder flips are applied to
 * x. false after the DUE of a detected error. */
static bool cw_read(sc_gpu_t *g, sc_cache_t *c, sc_ovl_t *o, uint32_t i, const sc_sm_t *sm, const sc_warp_t *w,
                    uint32_t pc)
{
	sc_cwerr_t *e = o->err ? &o->err[i] : NULL;
	if (!e || (!e->data && !e->check))
		return true;
	const sc_code_t *k = code_of(g, c);
	const sc_sm_t *own = sm_of(g, c);
	uint32_t kb = k->k / 8, ways = c->ways;
	sc_prot_where_t at = {.sm = sm, .w = w, .lane = -1, .pc = pc, .addr = line_addr(c, o->slot) + (uint64_t)i * kb};
	if (own)
		snprintf(at.what, sizeof at.what, "codeword %u of the %s cache line (set %zu, way %zu) of SM %u", i,
		         is_cc(g, c) ? "constant" : "L1 data",
		         o->slot / ways, o->slot % ways, own->id);
	else
		snprintf(at.what, sizeof at.what, "codeword %u of the L2 line (slice %u, set %zu, way %zu)", i,
		         (uint32_t)(c - g->ms.l2), o->slot / ways, o->slot % ways);
	/* a followed data fault's codeword is read (a check bit's too) */
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE)
		sc__watch_hit(g, SC_WATCH_READ, pc);
	uint64_t fix;
	if (!sc__prot_check(g, k, e->data, e->check, &at, &fix))
		return false;
	for (uint32_t b = 0; b < kb; b++)
		o->x[i * kb + b] ^= (uint8_t)(fix >> (8 * b));
	*e = (sc_cwerr_t){0, 0};
	return true;
}

/* Byte off of the line in entry o is read: its codeword is decoded. */
static bool byte_read(sc_gpu_t *g, sc_cache_t *c, sc_ovl_t *o, uint32_t off, const sc_sm_t *sm, const sc_warp_t *w,
                      uint32_t pc)
{
	return !o->err || cw_read(g, c, o, off / (code_of(g, c)->k / 8), sm, w, pc);
}

/* The pc of the instruction w executes (SC_PC_NONE: no warp). */
static uint32_t pc_of(const sc_warp_t *w) { return w && w->sp ? w->stk[w->sp - 1].pc : SC_PC_NONE; }

/* ------------------------------------------------------------ tag parity
 *
 * Under a parity bit on the tags (sc_protection_t.l1d_tag, l2_tag,
 * cc_tag) a tag or parity-bit flip sets its line's entry's tagerr (a
 * second clears it: even errors pass). A lookup compares every tag of its
 * set, so any access to the set detects it: the DUE parity_error. A dirty
 * L2 line's write-back reads its tag (the address); a clean line that
 * leaves takes the error with it unread. */

/* Whether c holds a line whose tag's parity is wrong. */
static bool has_tagerr(const sc_cache_t *c)
{
	for (uint32_t i = 0; i < c->nover; i++)
		if (c->ovl[i].tagerr)
			return true;
	return false;
}

static bool l2_has_tagerr(const sc_gpu_t *g)
{
	for (uint32_t i = 0; g->ms.l2_nover && i < g->ms.nslices; i++)
		if (has_tagerr(&g->ms.l2[i]))
			return true;
	return false;
}

/* The DUE of the tag parity error of entry o of c. */
static void tag_due(sc_gpu_t *g, const sc_cache_t *c, const sc_ovl_t *o, const sc_sm_t *sm, const sc_warp_t *w,
                    uint32_t pc)
{
	sc__prot_event(g, SC_PROT_DETECTED);
	sc__due(g, SC_DUE_PARITY_ERROR, sm, w, -1, pc, 0, "parity detected an error in the tag of the %s line (%s%u, "
	        "set %zu, way %zu)", sectored(c) ? "L2" : is_cc(g, c) ? "constant cache" : "L1 data cache",
	        sectored(c) ? "slice " : "SM ", sectored(c) ? (uint32_t)(c - g->ms.l2) : sm_of(g, c)->id,
	        o->slot / c->ways, o->slot % c->ways);
}

/* A lookup of byte ca in c (a per-SM cache, or the L2 when NULL) reads
 * the tags of its set: false after the DUE of a wrong parity there. */
static bool tag_lookup(sc_gpu_t *g, sc_cache_t *c, uint64_t ca, const sc_sm_t *sm, const sc_warp_t *w,
                       uint32_t pc)
{
	size_t set;
	if (c) {
		if (!c->sets)
			return true;
		set = sc__cache_set(c, ca >> c->shift);
	} else {
		if (!g->ms.nslices || !g->ms.l2[0].sets)
			return true;
		sc_l2_place_t pl = sc__l2_place(g, ca);
		c = &g->ms.l2[pl.slice];
		set = pl.set;
	}
	for (uint32_t i = 0; i < c->nover; i++)
		if (c->ovl[i].tagerr && c->ovl[i].slot / c->ways == set) {
			tag_due(g, c, &c->ovl[i], sm, w, pc);
			return false;
		}
	return true;
}

/* ------------------------------------------------------------ memsys hooks */

void sc__ovl_promote(sc_cache_t *c, size_t base, uint32_t w)
{
	for (uint32_t i = 0; i < c->nover; i++) {
		size_t *s = &c->ovl[i].slot;
		if (*s == base + w)
			*s = base;
		else if (*s >= base && *s < base + w)
			(*s)++;
	}
}

void sc__ovl_evict(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	sc_ovl_t *o = ovl_find(c, slot);
	if (!o)
		return;
	if (sectored(c) && c->dirty[slot]) { /* write-back: the corruption reaches memory */
		uint32_t ss = log2_sector(g);
		if (o->tagerr) { /* the write-back's address is the tag */
			tag_due(g, c, o, NULL, NULL, SC_PC_NONE);
			ovl_del(g, c, o);
			return;
		}
		/* the dirty sectors' codewords are read; a clean one's are not */
		const sc_code_t *k = code_of(g, c);
		for (uint32_t i = 0; o->err && i < ncw(c, k); i++)
			if ((c->dirty[slot] >> ((i * (k->k / 8)) >> ss) & 1u) && !cw_read(g, c, o, i, NULL, NULL, SC_PC_NONE)) {
				ovl_del(g, c, o);
				return;
			}
		uint64_t a = line_addr(c, slot);
		bool wrote = false;
		for (uint32_t i = 0; i < line_bytes(c); i++)
			if (o->x[i] && (c->dirty[slot] >> (i >> ss) & 1u)) {
				mem_xor(g, a + i, o->x[i]);
				wrote = true;
			}
		if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && wrote)
			sc__watch_hit(g, SC_WATCH_WRITTEN_BACK, SC_PC_NONE);
	}
	ovl_del(g, c, o);
}

void sc__ovl_remove_way(sc_gpu_t *g, sc_cache_t *c, size_t base, uint32_t w)
{
	sc_ovl_t *o = ovl_find(c, base + w);
	if (o)
		ovl_del(g, c, o);
	for (uint32_t i = 0; i < c->nover; i++)
		if (c->ovl[i].slot > base + w && c->ovl[i].slot < base + c->ways)
			c->ovl[i].slot--;
}

void sc__ovl_clear(sc_gpu_t *g, sc_cache_t *c)
{
	while (c->nover)
		ovl_del(g, c, &c->ovl[c->nover - 1]);
}

/* The L2's x for cache address ca (0 where no line holds it). m memoises
 * the last line looked up. */
typedef struct l2memo {
	uint64_t line;     /* ca >> l2 shift, UINT64_MAX: none yet */
	sc_cache_t *c;     /* its slice */
	sc_ovl_t *o;       /* its entry, NULL when none */
} l2memo_t;

/* The L2's entry for cache address ca (NULL: none), *c its slice. */
static sc_ovl_t *l2_entry(sc_gpu_t *g, uint64_t ca, l2memo_t *m, sc_cache_t **c)
{
	uint32_t shift = g->ms.l2[0].shift;
	if (ca >> shift != m->line) {
		uint32_t slice;
		size_t s = sc__l2_find(g, ca, &slice);
		m->line = ca >> shift;
		m->c = s == SIZE_MAX ? NULL : &g->ms.l2[slice];
		m->o = m->c && m->c->nover ? ovl_find(m->c, s) : NULL;
	}
	*c = m->c;
	return m->o;
}

static uint8_t l2_x(sc_gpu_t *g, uint64_t ca, l2memo_t *m)
{
	sc_cache_t *c;
	sc_ovl_t *o = l2_entry(g, ca, m, &c);
	return o ? o->x[ca & (line_bytes(c) - 1)] : 0;
}

static void tidy_l2(sc_gpu_t *g)
{
	for (uint32_t i = 0; g->ms.l2_nover && i < g->ms.nslices; i++)
		if (g->ms.l2[i].nover)
			ovl_tidy(g, &g->ms.l2[i]);
}

void sc__ovl_fill(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint64_t ca)
{
	if (!g->ms.l2_nover)
		return;
	l2memo_t m = {UINT64_MAX, NULL, NULL};
	uint8_t *x = NULL;
	sc_ovl_t *old = ovl_find(c, slot);
	if (old) /* none expected: the line just came in */
		ovl_del(g, c, old);
	/* the fill looks the line up in the L2 and reads its codewords (the
	 * new line's own are fresh) */
	if (l2_has_tagerr(g) && !tag_lookup(g, NULL, ca, sm_of(g, c), NULL, SC_PC_NONE))
		return;
	bool coded = false;
	for (uint32_t i = 0; g->prot.code[4] && i < line_bytes(c); i++) {
		sc_cache_t *l2;
		sc_ovl_t *o = l2_entry(g, ca + i, &m, &l2);
		if (o && o->err) {
			coded = true;
			if (!byte_read(g, l2, o, (uint32_t)((ca + i) & (line_bytes(l2) - 1)), sm_of(g, c), NULL, SC_PC_NONE))
				return;
		}
	}
	if (coded)
		tidy_l2(g);
	m = (l2memo_t){UINT64_MAX, NULL, NULL};
	for (uint32_t i = 0; i < line_bytes(c); i++) {
		uint8_t v = l2_x(g, ca + i, &m);
		if (v) {
			if (!x)
				x = ovl_need(g, c, slot);
			x[i] = v;
		}
	}
}

/* ------------------------------------------------------------ loads and stores */

/* The caches a warp's access to `space` goes through: the SM's first level
 * (L1 for global and local data, the constant cache for .const; NULL when
 * the GPU has none) and whether the L2 is behind it (global and local data
 * reach the L2 without an L1; constant data only through the constant
 * cache, as memsys.c times it). */
typedef struct path {
	sc_cache_t *first;
	bool l2;
} path_t;

static path_t path_of(sc_gpu_t *g, const sc_sm_t *sm, int space)
{
	sc_memsys_t *ms = &g->ms;
	path_t p = {NULL, false};
	bool has_l2 = ms->nslices && ms->l2[0].sets;
	if (space == SC_SP_GLOBAL || space == SC_SP_LOCAL) {
		p.first = ms->l1[sm->id].sets ? &ms->l1[sm->id] : NULL;
		p.l2 = has_l2;
	} else if (space == SC_SP_CONST && ms->cc[sm->id].sets) {
		p.first = &ms->cc[sm->id];
		p.l2 = has_l2;
	}
	return p;
}

/* Whether some cache on the path has an overlay at all. */
static bool path_dirty(const sc_gpu_t *g, path_t p)
{
	return (p.first && p.first->nover) || (p.l2 && g->ms.l2_nover);
}

/* Lane l's byte o of an access to `space`: its cache address (mem_at gives
 * its host byte). */
static uint64_t byte_ca(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, int space, uint64_t o, uint32_t l)
{
	if (space == SC_SP_LOCAL)
		return sc__local_base(g, sm->id, w->slot) + sc__local_pos(o, l);
	return space == SC_SP_CONST ? SC_CACHE_CONST + o : o;
}

/* What the path's caches hold XOR memory at ca: the first level's line
 * when it has one, else the L2's. m1 memoises the first level's line. */
typedef struct memo {
	uint64_t line;
	bool hit;
	sc_ovl_t *o;
} memo_t;

/* The entry of the line that serves byte ca (NULL: none), *c its cache. */
static sc_ovl_t *path_entry(sc_gpu_t *g, path_t p, uint64_t ca, memo_t *m1, l2memo_t *m2, sc_cache_t **c)
{
	*c = NULL;
	if (p.first) {
		if (ca >> p.first->shift != m1->line) {
			size_t s = sc__cache_find(p.first, ca >> p.first->shift);
			m1->line = ca >> p.first->shift;
			m1->hit = s != SIZE_MAX;
			m1->o = m1->hit && p.first->nover ? ovl_find(p.first, s) : NULL;
		}
		if (m1->hit) {
			*c = p.first;
			return m1->o;
		}
	}
	return p.l2 ? l2_entry(g, ca, m2, c) : NULL;
}

static bool patch_push(sc_memsys_t *ms, uint8_t *p, uint8_t x)
{
	for (uint32_t i = 0; i < ms->npatch; i++)
		if (ms->patch[i].p == p)
			return true; /* another lane read the same byte */
	if (ms->npatch == ms->patchcap) {
		uint32_t cap = ms->patchcap ? ms->patchcap * 2 : 64;
		struct sc_patch *n = realloc(ms->patch, cap * sizeof *n);
		if (!n)
			return false;
		ms->patch = n;
		ms->patchcap = cap;
	}
	ms->patch[ms->npatch++] = (struct sc_patch){p, x};
	*p ^= x;
	return true;
}

static void tidy_path(sc_gpu_t *g, path_t p);

/* An access to byte ca on path p looks it up in the first level, and in
 * the L2 when the first level lacks it: false after a tag's DUE. */
static bool tag_lookup_path(sc_gpu_t *g, path_t p, uint64_t ca, const sc_sm_t *sm, const sc_warp_t *w)
{
	if (p.first && !tag_lookup(g, p.first, ca, sm, w, pc_of(w)))
		return false;
	bool miss = !p.first || sc__cache_find(p.first, ca >> p.first->shift) == SIZE_MAX;
	return !p.l2 || !miss || tag_lookup(g, NULL, ca, sm, w, pc_of(w));
}

/* A read's walk along path p, byte by byte: the memos of the lines it
 * looked up, whether it decoded a codeword, and whether some tag on the
 * path has a parity error (each line's set is then looked up first). */
typedef struct walk {
	path_t p;
	memo_t m1;
	l2memo_t m2;
	uint64_t looked;
	bool coded, tags;
} walk_t;

static walk_t walk_start(sc_gpu_t *g, path_t p)
{
	return (walk_t){p, {UINT64_MAX, false, NULL}, {UINT64_MAX, NULL, NULL}, UINT64_MAX, false,
	                (p.first && has_tagerr(p.first)) || (p.l2 && l2_has_tagerr(g))};
}

/* The x of the line that serves byte ca to w: -1 after the DUE of a tag's
 * parity or a codeword the read decoded. */
static int walk_byte(sc_gpu_t *g, walk_t *k, uint64_t ca, const sc_sm_t *sm, const sc_warp_t *w)
{
	if (UNLIKELY(k->tags) && ca >> 6 != k->looked && !tag_lookup_path(g, k->p, ca, sm, w))
		return -1;
	k->looked = ca >> 6;
	sc_cache_t *c;
	sc_ovl_t *o = path_entry(g, k->p, ca, &k->m1, &k->m2, &c);
	uint32_t at = o ? (uint32_t)(ca & (line_bytes(c) - 1)) : 0;
	if (o && o->err) { /* the codewords the read touches are decoded */
		k->coded = true;
		if (!byte_read(g, c, o, at, sm, w, pc_of(w)))
			return -1;
	}
	return o ? o->x[at] : 0;
}

uint32_t sc__ovl_load(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, int space, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes)
{
	path_t p = path_of(g, sm, space);
	if (!path_dirty(g, p))
		return 0;
	walk_t k = walk_start(g, p);
	g->ms.npatch = 0;
	FOR_LANES(l, exec) {
		for (unsigned i = 0; i < bytes; i++) {
			uint64_t ca = byte_ca(g, sm, w, space, addr[l] - off + i, l);
			int v = walk_byte(g, &k, ca, sm, w);
			if (v < 0) {
				sc__ovl_unpatch(g);
				return 0;
			}
			uint8_t x = (uint8_t)v;
			uint8_t *b = x ? mem_at(g, ca) : NULL;
			if (b && !patch_push(&g->ms, b, x)) {
				fputs("flipsim: out of memory for a cache fault's overlay\n", stderr);
				abort();
			}
		}
	}
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && g->ms.npatch)
		sc__watch_hit(g, SC_WATCH_READ, pc_of(w));
	if (k.coded) /* corrected lines may be golden again */
		tidy_path(g, p);
	return g->ms.npatch;
}

bool sc__ovl_texel(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint64_t a, uint8_t *dst, uint32_t n)
{
	path_t p = path_of(g, sm, SC_SP_GLOBAL);
	if (g->ms.tc[sm->id].sets) /* else the L1 serves textures */
		p.first = &g->ms.tc[sm->id];
	if (!path_dirty(g, p))
		return true;
	walk_t k = walk_start(g, p);
	bool read = false;
	for (uint32_t i = 0; i < n; i++) {
		int v = walk_byte(g, &k, a + i, sm, w);
		if (v < 0)
			return false;
		dst[i] ^= (uint8_t)v;
		read |= v != 0;
	}
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && read)
		sc__watch_hit(g, SC_WATCH_READ, pc_of(w));
	if (k.coded)
		tidy_path(g, p);
	return true;
}

void sc__ovl_unpatch(sc_gpu_t *g)
{
	sc_memsys_t *ms = &g->ms;
	for (uint32_t i = 0; i < ms->npatch; i++)
		*ms->patch[i].p ^= ms->patch[i].x;
	ms->npatch = 0;
}

/* The entry of the line holding byte ca in c (per-SM cache, or the L2 when
 * *c is NULL: then *c becomes its slice), or NULL. */
static sc_ovl_t *byte_entry(sc_gpu_t *g, sc_cache_t **c, uint64_t ca)
{
	size_t s;
	if (*c) {
		s = (*c)->nover ? sc__cache_find(*c, ca >> (*c)->shift) : SIZE_MAX;
	} else {
		uint32_t slice;
		s = g->ms.l2_nover ? sc__l2_find(g, ca, &slice) : SIZE_MAX;
		*c = s == SIZE_MAX ? NULL : &g->ms.l2[slice];
	}
	return s == SIZE_MAX ? NULL : ovl_find(*c, s);
}

/* Clears x over byte ca of the line holding it in c (per-SM cache, or the
 * L2 when c is NULL). Entries left all zero are removed by the caller. */
static void clear_byte(sc_gpu_t *g, sc_cache_t *c, uint64_t ca)
{
	sc_ovl_t *o = byte_entry(g, &c, ca);
	if (o)
		o->x[ca & (line_bytes(c) - 1)] = 0;
}

/* A lane stores bytes ca[0..n) into c (as clear_byte): a coded codeword it
 * covers whole becomes a fresh codeword, one it covers in part is read
 * first (a read-modify-write). false after a DUE. */
static bool store_codewords(sc_gpu_t *g, sc_cache_t *c0, const uint64_t *ca, unsigned n, const sc_sm_t *sm,
                            const sc_warp_t *w)
{
	for (unsigned i = 0; i < n; i++) {
		sc_cache_t *c = c0;
		sc_ovl_t *o = byte_entry(g, &c, ca[i]);
		if (!o || !o->err)
			continue;
		uint32_t kb = code_of(g, c)->k / 8, at = (uint32_t)(ca[i] & (line_bytes(c) - 1));
		uint64_t lo = ca[i] - at % kb;
		unsigned cover = 0;
		for (unsigned j = 0; j < n; j++)
			cover += ca[j] >= lo && ca[j] < lo + kb;
		if (cover >= kb)
			o->err[at / kb] = (sc_cwerr_t){0, 0};
		else if (!cw_read(g, c, o, at / kb, sm, w, pc_of(w)))
			return false;
	}
	return true;
}

static void tidy_path(sc_gpu_t *g, path_t p)
{
	if (p.first && p.first->nover)
		ovl_tidy(g, p.first);
	if (p.l2)
		tidy_l2(g);
}

void sc__ovl_store(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, int space, const uint64_t *addr,
                   uint64_t off, uint32_t exec, unsigned bytes)
{
	path_t p = path_of(g, sm, space);
	if (space == SC_SP_CONST || !path_dirty(g, p))
		return;
	/* a global store evicts the L1's line: its codewords are not read */
	bool rmw1 = p.first && p.first->nover && code_of(g, p.first) && space != SC_SP_GLOBAL;
	bool rmw2 = p.l2 && g->ms.l2_nover && g->prot.code[4];
	bool tags = (p.first && has_tagerr(p.first)) || (p.l2 && l2_has_tagerr(g));
	FOR_LANES(l, exec) {
		uint64_t ca[32] = {0};
		unsigned n = bytes < 32 ? bytes : 32;
		for (unsigned i = 0; i < n; i++)
			ca[i] = byte_ca(g, sm, w, space, addr[l] - off + i, l);
		/* a store looks its lines up in every level it writes */
		if (UNLIKELY(tags) && ((p.first && (!tag_lookup(g, p.first, ca[0], sm, w, pc_of(w)) ||
		                                    !tag_lookup(g, p.first, ca[n - 1], sm, w, pc_of(w)))) ||
		                       (p.l2 && (!tag_lookup(g, NULL, ca[0], sm, w, pc_of(w)) ||
		                                 !tag_lookup(g, NULL, ca[n - 1], sm, w, pc_of(w))))))
			break;
		if ((rmw1 && !store_codewords(g, p.first, ca, n, sm, w)) || (rmw2 && !store_codewords(g, NULL, ca, n, sm, w)))
			break;
		for (unsigned i = 0; i < n; i++) {
			if (p.first)
				clear_byte(g, p.first, ca[i]);
			if (p.l2)
				clear_byte(g, NULL, ca[i]);
		}
	}
	tidy_path(g, p);
}

void sc__ovl_atomic(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, uint64_t a, unsigned bytes,
                    uint8_t *p)
{
	uint32_t slice;
	if (l2_has_tagerr(g) && !tag_lookup(g, NULL, a, sm, w, pc))
		return;
	size_t s = g->ms.l2_nover && g->ms.nslices && g->ms.l2[0].sets ? sc__l2_find(g, a, &slice) : SIZE_MAX;
	sc_cache_t *c = s == SIZE_MAX ? NULL : &g->ms.l2[slice];
	sc_ovl_t *o = c ? ovl_find(c, s) : NULL;
	if (!o)
		return;
	for (unsigned i = 0; o->err && i < bytes; i++) /* read, then written: decoded first */
		if (!byte_read(g, c, o, (uint32_t)((a + i) & (line_bytes(c) - 1)), sm, w, pc))
			return;
	bool read = false;
	for (unsigned i = 0; i < bytes; i++) {
		uint8_t *x = &o->x[(a + i) & (line_bytes(c) - 1)];
		read |= *x != 0;
		p[i] ^= *x;
		*x = 0;
	}
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && read)
		sc__watch_hit(g, SC_WATCH_READ, SC_PC_NONE); /* an atomic at L2 */
	ovl_tidy(g, c);
}

/* ------------------------------------------------------------ the host */

/* Calls fn for every byte of an L2 overlay line inside [lo, lo + n) of
 * global memory. */
static void host_range(sc_gpu_t *g, uint64_t lo, uint64_t n, void (*fn)(uint8_t *x, uint64_t at, void *ctx),
                       void *ctx)
{
	for (uint32_t k = 0; g->ms.l2_nover && k < g->ms.nslices; k++) {
		sc_cache_t *c = &g->ms.l2[k];
		for (uint32_t i = 0; i < c->nover; i++) {
			uint64_t a = line_addr(c, c->ovl[i].slot);
			for (uint32_t j = 0; a < SC_CACHE_CONST && j < line_bytes(c); j++)
				if (a + j >= lo && a + j - lo < n)
					fn(&c->ovl[i].x[j], a + j - lo, ctx);
		}
	}
}

static void read_byte(uint8_t *x, uint64_t at, void *ctx) { ((uint8_t *)ctx)[at] ^= *x; }
static void any_byte(uint8_t *x, uint64_t at, void *ctx)
{
	(void)at;
	*(bool *)ctx |= *x != 0;
}
static void write_byte(uint8_t *x, uint64_t at, void *ctx)
{
	(void)at;
	(void)ctx;
	*x = 0;
}

/* The coded codewords of the L2 overlapping global [lo, lo + n): read
 * (decoded) by the host, or (read false) overwritten by it: a host write
 * replaces every codeword it touches [simplification: a partial one is not
 * read first]. false after a DUE. */
static bool host_codewords(sc_gpu_t *g, uint64_t lo, uint64_t n, bool read)
{
	for (uint32_t k = 0; g->prot.code[4] && g->ms.l2_nover && k < g->ms.nslices; k++) {
		sc_cache_t *c = &g->ms.l2[k];
		uint32_t kb = g->prot.code[4]->k / 8;
		for (uint32_t i = 0; i < c->nover; i++) {
			sc_ovl_t *o = &c->ovl[i];
			uint64_t a = line_addr(c, o->slot);
			for (uint32_t j = 0; o->err && a < SC_CACHE_CONST && j < line_bytes(c); j += kb) {
				if (a + j + kb <= lo || a + j >= lo + n)
					continue;
				if (!read)
					o->err[j / kb] = (sc_cwerr_t){0, 0};
				else if (!cw_read(g, c, o, j / kb, NULL, NULL, SC_PC_NONE))
					return false;
			}
		}
	}
	return true;
}

/* The host's access to global [lo, lo + n) looks up each of its lines in
 * the L2: false after a tag's DUE. */
static bool host_tags(sc_gpu_t *g, uint64_t lo, uint64_t n)
{
	if (!n || !l2_has_tagerr(g))
		return true;
	uint32_t shift = g->ms.l2[0].shift;
	for (uint64_t ln = lo >> shift; ln <= (lo + n - 1) >> shift; ln++)
		if (!tag_lookup(g, NULL, ln << shift, NULL, NULL, SC_PC_NONE))
			return false;
	return true;
}

bool sc__ovl_host_read(sc_gpu_t *g, uint8_t *dst, uint64_t src, uint64_t bytes)
{
	if (!host_tags(g, src, bytes))
		return false;
	if (g->prot.code[4]) {
		if (!host_codewords(g, src, bytes, true))
			return false;
		tidy_l2(g);
	}
	host_range(g, src, bytes, read_byte, dst);
	bool read = false;
	if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_CACHE && (host_range(g, src, bytes, any_byte, &read), read))
		sc__watch_hit(g, SC_WATCH_READ, SC_PC_NONE); /* the host reads through the L2 */
	return true;
}

void sc__ovl_host_write(sc_gpu_t *g, uint64_t dst, uint64_t bytes)
{
	host_codewords(g, dst, bytes, false);
	host_range(g, dst, bytes, write_byte, NULL);
	for (uint32_t k = 0; g->ms.l2_nover && k < g->ms.nslices; k++)
		if (g->ms.l2[k].nover)
			ovl_tidy(g, &g->ms.l2[k]);
}

/* ------------------------------------------------------------ the DRAM image
 *
 * Memory is what every level above DRAM agrees on; a dirty L2 sector's
 * newer bytes are in memory at once. The DRAM's older bytes of such a
 * sector are kept in a table by sector number, taken before the first
 * store to a sector without an entry and dropped when the sector is
 * written back. Invariant: a global sector without an entry has DRAM ==
 * memory. A fault that loses a dirty sector (its line's tag or the
 * sector's valid bit flips) gives memory the entry's bytes back at once; a
 * dirty bit flipped off leaves the sector clean with an entry (diverged),
 * and its eviction, with no write-back, gives them back then. Global
 * memory only: local memory is the CTA's own and starts at zero. */

static uint32_t sector_bytes(const sc_gpu_t *g) { return 1u << log2_sector(g); }

static uint32_t dimg_slot0(const sc_memsys_t *ms, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (ms->dimg_cap - 1);
}

/* The slot of sector number sn, or UINT32_MAX. */
static uint32_t dimg_find(const sc_memsys_t *ms, uint64_t sn)
{
	if (!ms->ndimg)
		return UINT32_MAX;
	for (uint32_t i = dimg_slot0(ms, sn + 1);; i = (i + 1) & (ms->dimg_cap - 1)) {
		if (ms->dimg_key[i] == sn + 1)
			return i;
		if (!ms->dimg_key[i])
			return UINT32_MAX;
	}
}

static int dimg_grow(sc_gpu_t *g)
{
	sc_memsys_t *ms = &g->ms;
	uint32_t cap = ms->dimg_cap ? ms->dimg_cap * 2 : 1024, sb = sector_bytes(g);
	uint64_t *key = calloc(cap, sizeof *key);
	uint8_t *bytes = malloc((size_t)cap * sb);
	if (!key || !bytes) {
		free(key);
		free(bytes);
		return SC_ENOMEM;
	}
	for (uint32_t i = 0; i < ms->dimg_cap; i++) {
		if (!ms->dimg_key[i])
			continue;
		uint32_t j = (uint32_t)((ms->dimg_key[i] * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
		while (key[j])
			j = (j + 1) & (cap - 1);
		key[j] = ms->dimg_key[i];
		memcpy(bytes + (size_t)j * sb, ms->dimg_bytes + (size_t)i * sb, sb);
	}
	free(ms->dimg_key);
	free(ms->dimg_bytes);
	ms->dimg_key = key;
	ms->dimg_bytes = bytes;
	ms->dimg_cap = cap;
	return 0;
}

/* An entry for sector sn holding memory's bytes now, unless it has one. */
static void dimg_take(sc_gpu_t *g, uint64_t sn)
{
	sc_memsys_t *ms = &g->ms;
	if (dimg_find(ms, sn) != UINT32_MAX)
		return;
	if ((ms->ndimg + 1) * 4 > ms->dimg_cap * 3 && dimg_grow(g)) {
		fputs("flipsim: out of memory for the DRAM image\n", stderr);
		abort(); /* going on would lose a fault's effect without a word */
	}
	uint32_t i = dimg_slot0(ms, sn + 1), sb = sector_bytes(g);
	while (ms->dimg_key[i])
		i = (i + 1) & (ms->dimg_cap - 1);
	ms->dimg_key[i] = sn + 1;
	uint8_t *b = ms->dimg_bytes + (size_t)i * sb;
	uint64_t a = sn << log2_sector(g);
	const uint8_t *p = sc__gmem_find(&g->gmem, a, sb);
	if (p)
		memcpy(b, p, sb);
	else
		for (uint32_t k = 0; k < sb; k++)
			b[k] = mem_byte(g, a + k);
	ms->ndimg++;
}

/* Removes slot i (backward-shift deletion keeps every probe chain whole). */
static void dimg_del(sc_memsys_t *ms, uint32_t i, uint32_t sb)
{
	uint32_t mask = ms->dimg_cap - 1;
	for (uint32_t j = (i + 1) & mask; ms->dimg_key[j]; j = (j + 1) & mask) {
		uint32_t h = dimg_slot0(ms, ms->dimg_key[j]);
		/* j's entry may move to i when its home h is not in (i, j] */
		if (((j - h) & mask) >= ((j - i) & mask)) {
			ms->dimg_key[i] = ms->dimg_key[j];
			memcpy(ms->dimg_bytes + (size_t)i * sb, ms->dimg_bytes + (size_t)j * sb, sb);
			i = j;
		}
	}
	ms->dimg_key[i] = 0;
	ms->ndimg--;
}

/* Sector sn's newer bytes are lost: memory gets the DRAM's back, when it
 * has an entry. `clean`: the L2 held the sector clean (so it had diverged). */
static void dimg_lose(sc_gpu_t *g, uint64_t sn, bool clean)
{
	sc_memsys_t *ms = &g->ms;
	uint32_t i = dimg_find(ms, sn), sb = sector_bytes(g);
	if (i == UINT32_MAX)
		return;
	ms->ndiverged -= clean;
	uint64_t a = sn << log2_sector(g);
	const uint8_t *b = ms->dimg_bytes + (size_t)i * sb;
	for (uint32_t k = 0; k < sb; k++) {
		uint8_t *p = mem_at(g, a + k);
		if (p && *p != b[k])
			mem_xor(g, a + k, (uint8_t)(*p ^ b[k]));
	}
	dimg_del(ms, i, sb);
}

/* Sector sn is written back: the DRAM has memory's bytes. */
static void dimg_drop(sc_gpu_t *g, uint64_t sn)
{
	uint32_t i = dimg_find(&g->ms, sn);
	if (i != UINT32_MAX)
		dimg_del(&g->ms, i, sector_bytes(g));
}

int sc_dram_image(sc_gpu_t *g, int on)
{
	if (!g)
		return SC_EINVAL;
	if (!on) {
		sc__dimg_free(g);
		return 0;
	}
	if (!g->ms.dimg_cap && dimg_grow(g))
		return SC_ENOMEM;
	g->ms.dimg = g->ms.nslices && g->ms.l2[0].sets && g->ms.l2[0].valid;
	return 0;
}

void sc__dimg_free(sc_gpu_t *g)
{
	sc_memsys_t *ms = &g->ms;
	free(ms->dimg_key);
	free(ms->dimg_bytes);
	ms->dimg_key = NULL;
	ms->dimg_bytes = NULL;
	ms->dimg = false;
	ms->ndimg = ms->dimg_cap = ms->ndiverged = 0;
}

void sc__dimg_store(sc_gpu_t *g, uint64_t a, uint64_t n)
{
	if (!n)
		return;
	uint32_t ss = log2_sector(g);
	for (uint64_t sn = a >> ss; sn <= (a + n - 1) >> ss; sn++)
		dimg_take(g, sn);
}

void sc__dimg_store_lanes(sc_gpu_t *g, const uint64_t *addr, uint64_t off, uint32_t exec, unsigned bytes)
{
	uint32_t ss = log2_sector(g);
	uint64_t last = UINT64_MAX;
	FOR_LANES(l, exec) {
		uint64_t a = addr[l] - off, sn = a >> ss;
		if (sn == last && (a + bytes - 1) >> ss == sn)
			continue; /* lanes in order mostly share sectors */
		sc__dimg_store(g, a, bytes);
		last = (a + bytes - 1) >> ss;
	}
}

void sc__dimg_host_write(sc_gpu_t *g, uint64_t a, uint64_t n)
{
	sc_memsys_t *ms = &g->ms;
	if (!n)
		return;
	uint32_t ss = log2_sector(g), sb = sector_bytes(g);
	for (uint64_t sn = a >> ss; sn <= (a + n - 1) >> ss; sn++) {
		uint32_t i = dimg_find(ms, sn);
		if (i == UINT32_MAX)
			continue;
		uint64_t s0 = sn << ss, lo = a > s0 ? a : s0, hi = a + n < s0 + sb ? a + n : s0 + sb;
		for (uint64_t b = lo; b < hi; b++)
			ms->dimg_bytes[(size_t)i * sb + (b - s0)] = mem_byte(g, b);
	}
}

/* The number of sector `sec` of the line in slot. */
static uint64_t sector_no(const sc_gpu_t *g, const sc_cache_t *c, size_t slot, uint32_t sec)
{
	return (line_addr(c, slot) >> log2_sector(g)) + sec;
}

void sc__dimg_evict(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	if (!c->tag[slot])
		return;
	uint32_t nsec = line_bytes(c) >> log2_sector(g);
	for (uint32_t k = 0; k < nsec; k++) {
		if (!(c->valid[slot] >> k & 1u))
			continue;
		uint64_t sn = sector_no(g, c, slot, k);
		if (c->dirty[slot] >> k & 1u)
			dimg_drop(g, sn); /* written back */
		else
			dimg_lose(g, sn, true); /* an entry: its newer bytes were never written back */
	}
}

void sc__dimg_dirtied(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint8_t mask)
{
	uint8_t clean = (uint8_t)(mask & c->valid[slot] & ~c->dirty[slot]);
	for (uint32_t k = 0; clean >> k; k++)
		if ((clean >> k & 1u) && dimg_find(&g->ms, sector_no(g, c, slot, k)) != UINT32_MAX)
			g->ms.ndiverged--;
}

/* The flips that lose a sector's newer bytes, or make a sector diverge. */
static void dimg_tag_flip(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint64_t old_line_addr)
{
	uint32_t ss = log2_sector(g), nsec = line_bytes(c) >> ss;
	for (uint32_t k = 0; g->ms.ndimg && k < nsec; k++)
		if (c->valid[slot] >> k & 1u) /* the line answers for another address now */
			dimg_lose(g, (old_line_addr >> ss) + k, !(c->dirty[slot] >> k & 1u));
}

static void dimg_dirty_flip(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint32_t k)
{
	if (!(c->valid[slot] >> k & 1u) || dimg_find(&g->ms, sector_no(g, c, slot, k)) == UINT32_MAX)
		return;
	if (c->dirty[slot] >> k & 1u) /* set again: dirty with its entry, as before */
		g->ms.ndiverged--;
	else /* cleared: clean, its DRAM bytes older than memory's */
		g->ms.ndiverged++;
}

/* ------------------------------------------------------------ the hashes */

/* One entry of an overlay or of the DRAM image: its key and its n bytes.
 * The entries' hashes are added, so that equal sets hash alike whatever
 * order their entries were made in. */
static uint64_t entry_hash(uint64_t key, const uint8_t *x, uint32_t n)
{
	uint64_t h = key;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t v = 0;
		memcpy(&v, x + k, n - k < 8 ? n - k : 8);
		h = (h ^ v) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h * 0x9e3779b97f4a7c15ull;
}

uint64_t sc__dimg_hash(const sc_gpu_t *g)
{
	const sc_memsys_t *ms = &g->ms;
	if (!ms->ndiverged) /* a fault-free run: the entries are the dirty sectors' */
		return 0;
	uint64_t sum = ms->ndiverged;
	uint32_t sb = sector_bytes(g);
	for (uint32_t i = 0; i < ms->dimg_cap; i++)
		if (ms->dimg_key[i])
			sum += entry_hash(0x13198a2e03707344ull ^ ms->dimg_key[i], ms->dimg_bytes + (size_t)i * sb, sb);
	return sum;
}

/* The error patterns of entry o (0 when it has none): each codeword's
 * pattern mixed with its index, so that a check bit's flip, which leaves x
 * as it was, hashes unlike the golden line. */
static uint64_t err_hash(const sc_gpu_t *g, const sc_cache_t *c, const sc_ovl_t *o)
{
	const sc_code_t *k = o->err ? code_of(g, c) : NULL;
	uint64_t h = 0;
	for (uint32_t i = 0; k && i < ncw(c, k); i++) {
		const sc_cwerr_t *e = &o->err[i];
		if (e->data || e->check) {
			uint64_t v[2] = {e->data, (uint64_t)e->check << 32 | i};
			h += entry_hash(0x452821e638d01377ull ^ o->slot, (const uint8_t *)v, sizeof v);
		}
	}
	return h;
}

uint64_t sc__ovl_hash(const sc_gpu_t *g, const sc_cache_t *c)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < c->nover; i++)
		sum += entry_hash(0x243f6a8885a308d3ull ^ c->ovl[i].slot ^ (uint64_t)c->ovl[i].tagerr << 63, c->ovl[i].x,
		                  line_bytes(c)) +
		       err_hash(g, c, &c->ovl[i]);
	return sum;
}

/* ------------------------------------------------------------ targets */

enum { F_DATA, F_TAG, F_VALID, F_DIRTY, F__COUNT };

/* A cache target's geometry: its caches (1 per SM, or the L2's slices on
 * SM 0), their lines, and the bits of each selected field per line. Under
 * a code the data field is the line's codewords: n bits per k data bits,
 * in groups of il interleaved codewords (bit o of a group is bit o / il
 * of its codeword o % il), as prot.c lays out a protected structure. */
typedef struct geo {
	uint32_t ncache, lines;       /* caches, lines in each */
	uint32_t line, sets, ways;    /* line bytes */
	uint32_t setbits, tagbits, nsect;
	uint32_t size[F__COUNT];      /* bits per line of each field, 0 when not selected */
	uint32_t entry;               /* bits per line */
	const sc_code_t *code;        /* on the data, NULL: none */
	uint32_t il;                  /* codewords per interleaving group */
	bool tagp;                    /* a parity bit after the tag's bits */
} geo_t;

static unsigned all_fields(sc_target_t t)
{
	return t == SC_TGT_L2 ? 15u : t == SC_TGT_L1D ? 7u : t == SC_TGT_CONST || t == SC_TGT_TEXCACHE ? 3u : 0u;
}

/* false when t is no cache target or the GPU has no such cache; p: the
 * protection (NULL: none). */
static bool geo_of(const sc_gpu_config_t *c, const sc_protection_t *p, sc_target_t t, unsigned fields, geo_t *o)
{
	memset(o, 0, sizeof *o);
	uint32_t bytes, slices = 1;
	switch (t) {
	case SC_TGT_L1D: bytes = c->l1_bytes, o->line = c->l1_line, o->ways = c->l1_ways; break;
	case SC_TGT_CONST: bytes = c->const_bytes, o->line = c->const_line, o->ways = c->const_ways; break;
	case SC_TGT_TEXCACHE: bytes = c->tex_bytes, o->line = c->tex_line, o->ways = c->tex_ways; break;
	case SC_TGT_L2:
		slices = c->dram_channels * c->l2_slices_per_channel;
		bytes = slices ? c->l2_bytes / slices : 0, o->line = c->l2_line, o->ways = c->l2_ways;
		break;
	default: return false;
	}
	if (!bytes || !o->line || !o->ways || !(o->sets = bytes / o->line / o->ways))
		return false;
	fields = fields ? fields & all_fields(t) : all_fields(t);
	o->ncache = slices;
	o->lines = o->sets * o->ways;
	o->setbits = floor_log2(o->sets);
	int tb = (int)SC_CACHE_ADDR_BITS - (int)floor_log2(o->line) - (int)o->setbits -
	         (t == SC_TGT_L2 ? (int)floor_log2(slices) : 0);
	o->tagbits = tb > 1 ? (uint32_t)tb : 1;
	o->nsect = t == SC_TGT_L2 && c->l2_sector ? o->line / c->l2_sector : 1;
	static const unsigned bit[F__COUNT] = {SC_F_CACHE_DATA, SC_F_CACHE_TAG, SC_F_CACHE_VALID, SC_F_CACHE_DIRTY};
	o->code = sc__code_of(p, t);
	o->il = o->code && p->interleave > 1 ? p->interleave : 1;
	uint32_t data = o->code ? o->line * 8 / o->code->k * o->code->n : o->line * 8;
	o->tagp = sc__tag_parity(p, t);
	uint32_t full[F__COUNT] = {data, o->tagbits + o->tagp, t == SC_TGT_L2 ? o->nsect : 1, o->nsect};
	for (int f = 0; f < F__COUNT; f++) {
		o->size[f] = (fields & bit[f]) ? full[f] : 0;
		o->entry += o->size[f];
	}
	return o->entry > 0;
}

uint64_t sc__cache_target_bits(const sc_gpu_config_t *cfg, const sc_protection_t *p, sc_target_t t, unsigned fields,
                               uint32_t *word_bits)
{
	geo_t o;
	if (!geo_of(cfg, p, t, fields, &o))
		return 0;
	/* one field: its natural word (32-bit data words, or a group of
	 * interleaved codewords, a whole tag, a line's valid bits), each word
	 * in use or not as a whole; dirty bits are in use per sector, so each
	 * is a word of its own; mixed fields: single bits */
	uint32_t wb = 1, nf = 0;
	for (int f = 0; f < F__COUNT; f++)
		if (o.size[f]) {
			nf++;
			wb = f == F_DATA ? (o.code ? o.code->n * o.il : o.size[f] % 32 ? 8 : 32) : f == F_DIRTY ? 1 : o.size[f];
		}
	if (word_bits)
		*word_bits = nf == 1 ? wb : 1;
	return (uint64_t)o.entry * o.lines * o.ncache;
}

/* Bit loc of t's space in SM sm: the cache, the slot, the field and the
 * bit within the field. A coded data bit: bit is the line's data bit (a
 * check bit: its codeword's first), cw the codeword, cb the bit in it. */
typedef struct cbit {
	sc_cache_t *c;
	size_t slot;
	int field;
	uint32_t bit;
	uint32_t cw, cb;
	bool check;
} cbit_t;

static bool decode(sc_gpu_t *g, sc_target_t t, const geo_t *o, uint32_t sm, uint64_t loc, cbit_t *b)
{
	uint64_t li = loc / o->entry;
	uint32_t off = (uint32_t)(loc % o->entry);
	uint32_t k = (uint32_t)(li / o->lines);
	if (k >= o->ncache || (t == SC_TGT_L2 && sm != 0))
		return false;
	b->c = t == SC_TGT_L1D ? &g->ms.l1[sm] : t == SC_TGT_CONST ? &g->ms.cc[sm] : t == SC_TGT_TEXCACHE ? &g->ms.tc[sm]
	                                                                                          : &g->ms.l2[k];
	b->slot = (size_t)(li % o->lines);
	for (b->field = 0; b->field < F__COUNT && off >= o->size[b->field]; b->field++)
		off -= o->size[b->field];
	b->bit = off;
	b->check = false;
	if (b->field == F_DATA && o->code) {
		uint32_t gb = o->code->n * o->il, r = off % gb;
		b->cw = off / gb * o->il + r % o->il;
		b->cb = r / o->il;
		b->check = b->cb >= o->code->k;
		b->bit = b->cw * o->code->k + (b->check ? 0 : b->cb);
	}
	return b->field < F__COUNT;
}

/* Whether the bit is in use: it belongs to a valid line (a line with a
 * tag: the model keeps none in an invalid way), and data and dirty bits
 * to a valid sector. */
static bool bit_in_use(const geo_t *o, const cbit_t *b)
{
	const sc_cache_t *c = b->c;
	if (!c->tag[b->slot])
		return false;
	if (!sectored(c) || b->field == F_TAG || b->field == F_VALID)
		return true;
	uint32_t sector = b->field == F_DATA ? b->bit / 8 / (o->line / o->nsect) : b->bit;
	return c->valid[b->slot] >> sector & 1u;
}

/* The line number that the line in slot answers for once bit j of its tag
 * flips: the same set (and L2 slice), bit setbits + j of the number above
 * the set index changed. */
static uint64_t flipped_line(const sc_gpu_t *g, const sc_cache_t *c, const geo_t *o, size_t slot, uint32_t j)
{
	uint64_t ln = c->tag[slot] - 1, set = slot / o->ways;
	if (!sectored(c)) { /* per-SM caches: the set is the low bits folded with the next ones */
		uint64_t hi = (ln >> o->setbits) ^ (1ull << j);
		return hi << o->setbits | (set ^ (hi & (o->sets - 1)));
	}
	/* the L2: memsys.c's place() backwards, with the set's row bits flipped */
	uint64_t spc = g->cfg.l2_slices_per_channel, nchan = g->ms.nchan;
	uint64_t chunk = ln / spc, sub = ln % spc, chan = chunk % nchan, row = chunk / nchan;
	row ^= 1ull << (o->setbits + j);
	return (row * nchan + chan) * spc + sub;
}

/* The line in slot answers for another address: what it returns stays
 * (memory at its old address XOR x), so x is re-expressed over the memory
 * of the new one, for the bytes it holds. */
static int flip_tag(sc_gpu_t *g, const geo_t *o, const cbit_t *b)
{
	sc_cache_t *c = b->c;
	uint64_t from = line_addr(c, b->slot), ln = flipped_line(g, c, o, b->slot, b->bit);
	uint64_t to = ln << c->shift;
	uint8_t *x = ovl_get(g, c, b->slot);
	if (!x)
		return SC_ENOMEM;
	uint32_t ss = log2_sector(g);
	for (uint32_t i = 0; i < line_bytes(c); i++)
		if (!sectored(c) || (c->valid[b->slot] >> (i >> ss) & 1u))
			x[i] ^= mem_byte(g, from + i) ^ mem_byte(g, to + i);
	c->tag[b->slot] = ln + 1;
	if (sectored(c))
		dimg_tag_flip(g, c, b->slot, from);
	ovl_tidy(g, c);
	return 1;
}

/* A sector's valid bit: cleared, the sector is lost with its corruption and
 * its dirty data; set, it is held again with the memory's bytes. */
static int flip_sector(sc_gpu_t *g, const cbit_t *b)
{
	sc_cache_t *c = b->c;
	uint8_t m = (uint8_t)(1u << b->bit);
	c->valid[b->slot] ^= m;
	if (c->valid[b->slot] & m)
		return 1;
	dimg_lose(g, sector_no(g, c, b->slot, b->bit), !(c->dirty[b->slot] & m));
	c->dirty[b->slot] &= (uint8_t)~m;
	sc_ovl_t *ov = ovl_find(c, b->slot);
	if (ov) {
		uint32_t sz = sector_bytes(g);
		memset(ov->x + (size_t)b->bit * sz, 0, sz);
		if (ov->err) { /* the sector's codewords go with it */
			uint32_t kb = code_of(g, c)->k / 8;
			memset(ov->err + (size_t)b->bit * sz / kb, 0, sz / kb * sizeof *ov->err);
		}
		ovl_tidy(g, c);
	}
	return 1;
}

static int flip_bit(sc_gpu_t *g, const geo_t *o, const cbit_t *b)
{
	sc_cache_t *c = b->c;
	switch (b->field) {
	case F_DATA: {
		sc_ovl_t *ov = ovl_entry(g, c, b->slot);
		if (!ov || (o->code && !ov->err && !(ov->err = calloc(ncw(c, o->code), sizeof *ov->err))))
			return SC_ENOMEM;
		if (o->code && b->check) /* a check bit lives in the pattern only */
			ov->err[b->cw].check ^= 1u << (b->cb - o->code->k);
		else if (o->code)
			ov->err[b->cw].data ^= UINT64_C(1) << b->cb;
		if (!b->check)
			ov->x[b->bit / 8] ^= (uint8_t)(1u << (b->bit % 8));
		ovl_tidy(g, c);
		return 1;
	}
	case F_TAG: {
		int rc = o->tagp && b->bit == o->tagbits ? 1 : flip_tag(g, o, b); /* the parity bit: the check only */
		sc_ovl_t *ov = rc == 1 && o->tagp ? ovl_entry(g, c, b->slot) : NULL;
		if (rc == 1 && o->tagp && !ov)
			return SC_ENOMEM;
		if (ov) {
			ov->tagerr = !ov->tagerr;
			ovl_tidy(g, c);
		}
		return rc;
	}
	case F_VALID:
		if (sectored(c))
			return flip_sector(g, b);
		sc__cache_drop(g, c, b->slot); /* a valid line becomes invalid: lost */
		return 1;
	default:
		c->dirty[b->slot] ^= (uint8_t)(1u << b->bit);
		dimg_dirty_flip(g, c, b->slot, b->bit);
		return 1;
	}
}

int sc__cache_fault(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits,
                    bool apply)
{
	geo_t o;
	cbit_t b;
	if (!geo_of(&g->cfg, &g->opt.prot, t, fields, &o) || sm >= g->cfg.num_sms)
		return SC_EINVAL;
	for (uint32_t i = 0; i < nbits; i++)
		if (!decode(g, t, &o, sm, loc + i, &b) || !bit_in_use(&o, &b))
			return 0;
	/* bit by bit, each located again: a flip may move lines */
	for (uint32_t i = 0; apply && i < nbits; i++) {
		if (!decode(g, t, &o, sm, loc + i, &b) || !bit_in_use(&o, &b))
			continue;
		int rc = flip_bit(g, &o, &b);
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* The bits of the line in slot that are in use. */
static uint64_t line_live(const geo_t *o, const sc_cache_t *c, size_t slot)
{
	if (!c->tag[slot])
		return 0;
	uint64_t held = sectored(c) ? sc__popcount32(c->valid[slot]) : 1;
	return o->size[F_TAG] + o->size[F_VALID] + held * (o->size[F_DATA] / o->nsect) + (o->size[F_DIRTY] ? held : 0);
}

uint64_t sc__cache_live_bits(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t sm)
{
	sc_gpu_t *g = (sc_gpu_t *)cg; /* decode() hands out pointers; nothing is written */
	geo_t o;
	cbit_t b;
	uint64_t live = 0;
	if (!geo_of(&g->cfg, &g->opt.prot, t, fields, &o))
		return 0;
	for (uint64_t li = 0; li < (uint64_t)o.lines * o.ncache; li++)
		if (decode(g, t, &o, sm, li * o.entry, &b))
			live += line_live(&o, b.c, b.slot);
	return live;
}

uint64_t sc__cache_live_word(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t k, uint32_t wb)
{
	geo_t o;
	cbit_t b;
	if (!geo_of(&g->cfg, &g->opt.prot, t, fields, &o) || !wb)
		return UINT64_MAX;
	/* whole lines first (a word is in use or not as a whole: it lies in
	 * one field and one sector), then the words of the line that holds it */
	for (uint64_t li = 0; li < (uint64_t)o.lines * o.ncache; li++) {
		if (!decode(g, t, &o, sm, li * o.entry, &b))
			return UINT64_MAX;
		uint64_t words = line_live(&o, b.c, b.slot) / wb;
		if (k >= words) {
			k -= words;
			continue;
		}
		for (uint64_t at = li * o.entry; at < (li + 1) * o.entry; at += wb)
			if (decode(g, t, &o, sm, at, &b) && bit_in_use(&o, &b) && k-- == 0)
				return at;
		return UINT64_MAX;
	}
	return UINT64_MAX;
}

/* ------------------------------------------------------------ sites */
bool sc__cache_site(const sc_gpu_t *cg, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc,
                    sc_cache_site_t *out)
{
	sc_gpu_t *g = (sc_gpu_t *)cg; /* decode() and mem_byte() only read */
	static const char *const names[F__COUNT] = {"data", "tag", "valid", "dirty"};
	geo_t o;
	cbit_t b;
	memset(out, 0, sizeof *out);
	if (!geo_of(&g->cfg, &g->opt.prot, t, fields, &o) || sm >= g->cfg.num_sms || !decode(g, t, &o, sm, loc, &b))
		return false;
	const sc_cache_t *c = b.c;
	out->cache = t == SC_TGT_L2 ? (uint32_t)(loc / o.entry / o.lines) : sm;
	out->set = (uint32_t)(b.slot / o.ways);
	out->way = (uint32_t)(b.slot % o.ways);
	out->field = names[b.field];
	out->bit = b.bit;
	if (b.field == F_DATA && o.code) {
		out->code = o.code->kind;
		out->codeword_bit = b.cb;
		out->check_bit = b.check;
	}
	out->in_use = bit_in_use(&o, &b);
	out->addr = c->tag[b.slot] ? line_addr(c, b.slot) : UINT64_MAX;
	switch (b.field) {
	case F_DATA: { /* the byte the line returns: memory XOR its overlay */
		const uint8_t *x = ovl_x(c, b.slot);
		uint32_t i = b.bit / 8;
		out->value = out->in_use ? (uint8_t)(mem_byte(g, out->addr + i) ^ (x ? x[i] : 0)) : 0;
		out->value_bits = 8;
		out->value_lo = b.bit % 8;
		break;
	}
	case F_TAG:
		out->value = c->tag[b.slot] ? (c->tag[b.slot] - 1) >> o.setbits : 0;
		out->value_bits = o.tagbits;
		out->value_lo = b.bit;
		if (o.tagp) { /* the parity bit is the tag's codeword's check bit */
			out->code = SC_CODE_PARITY;
			out->codeword_bit = b.bit;
			out->check_bit = b.bit == o.tagbits;
		}
		break;
	case F_VALID:
		out->value = sectored(c) ? c->valid[b.slot] : c->tag[b.slot] != 0;
		out->value_bits = sectored(c) ? o.nsect : 1;
		out->value_lo = b.bit;
		break;
	default:
		out->value = c->dirty[b.slot];
		out->value_bits = o.nsect;
		out->value_lo = b.bit;
		break;
	}
	return true;
}
