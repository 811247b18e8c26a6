/* The memory system's timing: coalescing of a warp's access into cache
 * lines and sectors, shared-memory bank conflicts, each SM's L1 data and
 * constant caches, the L2 slices shared by all SMs and the DRAM channels
 * behind them. The data itself lives in the GPU's memories (mem.c); these
 * structures hold tags, sector masks and times only, so what a fault-free
 * program computes never depends on them, only when it does. (Faults in
 * the caches add data: the overlay of cachefault.c, which a fault-free run
 * never has, behind one test of a counter at each hook.)
 *
 * Time: every figure is in cycles of the configuration's clock_mhz, except
 * the DRAM buses, which count ticks of 1/1024 cycle (a GDDR5 burst is a
 * fraction of a shader cycle's multiple). Requests arrive in the order the
 * event loop issues them, which is the order of time, so each shared
 * resource is a server with a "free from" time: an L2 slice's port, a DRAM
 * channel's data bus. Idle cycles cost nothing: nothing here steps. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static uint32_t log2u(uint32_t v) { return (uint32_t)__builtin_ctz(v); }

static int cache_init(sc_cache_t *c, uint32_t bytes, uint32_t line, uint32_t ways, bool sectored)
{
	memset(c, 0, sizeof *c);
	if (!bytes)
		return 0;
	c->ways = ways;
	c->sets = bytes / line / ways;
	c->shift = log2u(line);
	size_t n = (size_t)c->sets * ways;
	c->tag = calloc(n, sizeof *c->tag);
	c->ready = calloc(n, sizeof *c->ready);
	if (sectored) {
		c->valid = calloc(n, 1);
		c->dirty = calloc(n, 1);
	}
	return c->tag && c->ready && (!sectored || (c->valid && c->dirty)) ? 0 : SC_ENOMEM;
}

static void cache_free(sc_cache_t *c)
{
	sc__ovl_free(c);
	free(c->tag);
	free(c->ready);
	free(c->valid);
	free(c->dirty);
}

static void cache_clear(sc_gpu_t *g, sc_cache_t *c)
{
	size_t n = (size_t)c->sets * c->ways;
	if (!n)
		return;
	if (c->nover)
		sc__ovl_clear(g, c);
	memset(c->tag, 0, n * sizeof *c->tag);
	memset(c->ready, 0, n * sizeof *c->ready);
	if (c->valid) {
		memset(c->valid, 0, n);
		memset(c->dirty, 0, n);
	}
}

int sc__memsys_create(sc_gpu_t *g)
{
	const sc_gpu_config_t *c = &g->cfg;
	sc_memsys_t *ms = &g->ms;
	uint32_t n = c->num_sms;
	ms->nchan = c->dram_channels;
	ms->nslices = c->dram_channels * c->l2_slices_per_channel;
	ms->by_chan = sc__fdiv_make(ms->nchan);
	ms->by_spc = sc__fdiv_make(c->l2_slices_per_channel);
	/* one sector request holds the bus for whole bursts: a burst moves
	 * bus_bytes x burst bytes in burst / rate memory clocks */
	uint32_t atom = c->dram_bus_bytes * c->dram_burst;
	uint32_t bursts = (c->l2_sector + atom - 1) / atom;
	ms->sector_ticks = (uint64_t)((double)bursts * c->dram_burst / c->dram_rate * c->clock_mhz / c->mem_mhz *
	                              (1 << SC_TICK_SHIFT) + 0.5);
	ms->l1 = calloc(n, sizeof *ms->l1);
	ms->cc = calloc(n, sizeof *ms->cc);
	ms->tc = calloc(n, sizeof *ms->tc);
	ms->l2 = calloc(ms->nslices, sizeof *ms->l2);
	ms->port = calloc(ms->nslices, sizeof *ms->port);
	ms->bus = calloc(ms->nchan, sizeof *ms->bus);
	if (!ms->l1 || !ms->cc || !ms->tc || !ms->l2 || !ms->port || !ms->bus)
		return SC_ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (cache_init(&ms->l1[i], c->l1_bytes, c->l1_line, c->l1_ways, false) ||
		    cache_init(&ms->cc[i], c->const_bytes, c->const_line, c->const_ways, false) ||
		    cache_init(&ms->tc[i], c->tex_bytes, c->tex_line, c->tex_ways, false))
			return SC_ENOMEM;
	for (uint32_t i = 0; i < ms->nslices; i++)
		if (cache_init(&ms->l2[i], c->l2_bytes / ms->nslices, c->l2_line, c->l2_ways, true))
			return SC_ENOMEM;
	return 0;
}

void sc__memsys_destroy(sc_gpu_t *g)
{
	sc_memsys_t *ms = &g->ms;
	sc__dimg_free(g);
	for (uint32_t i = 0; ms->l1 && i < g->cfg.num_sms; i++) {
		cache_free(&ms->l1[i]);
		cache_free(&ms->cc[i]);
		cache_free(&ms->tc[i]);
	}
	for (uint32_t i = 0; ms->l2 && i < ms->nslices; i++)
		cache_free(&ms->l2[i]);
	free(ms->l1);
	free(ms->cc);
	free(ms->tc);
	free(ms->l2);
	free(ms->port);
	free(ms->bus);
	free(ms->patch);
	memset(ms, 0, sizeof *ms);
}

/* A launch starts with empty L1, constant and texture caches (GPGPU-Sim flushes
 * the L1 between kernels); the L2 and the DRAM keep their state. */
void sc__memsys_launch(sc_gpu_t *g)
{
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		cache_clear(g, &g->ms.l1[i]);
		cache_clear(g, &g->ms.cc[i]);
		cache_clear(g, &g->ms.tc[i]);
	}
	memset(&g->ms.count, 0, sizeof g->ms.count);
}

/* ------------------------------------------------------------ tag arrays */
/* A set's ways are kept in recency order, way 0 the most recent, so that
 * LRU needs no timestamps and the state is the same whatever the path that
 * led to it. */
/* x[0..n-1] moves to x[1..n]: for the last way of the usual 4- and 8-way
 * sets a fixed size through a local array, which the compiler turns into a
 * few moves instead of a call. */
static inline __attribute__((always_inline)) void move_up(uint64_t *x, uint32_t n)
{
	uint64_t t[7];
	if (n == 7) {
		memcpy(t, x, 7 * sizeof *t);
		memcpy(x + 1, t, 7 * sizeof *t);
	} else if (n == 3) {
		memcpy(t, x, 3 * sizeof *t);
		memcpy(x + 1, t, 3 * sizeof *t);
	} else {
		memmove(x + 1, x, n * sizeof *x);
	}
}

/* Ways 0..n-1 of the set at base move to 1..n (way n's line is gone, way
 * 0's valid and dirty bytes are 0). An 8-way set's bytes shift as one
 * word when all of them move. */
static inline __attribute__((always_inline)) void shift_ways(sc_cache_t *c, size_t base, uint32_t n)
{
	move_up(c->tag + base, n);
	move_up(c->ready + base, n);
	if (!c->valid)
		return;
	uint8_t *valid = c->valid + base, *dirty = c->dirty + base;
	if (n == 7 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
		uint64_t v, d;
		memcpy(&v, valid, 8);
		memcpy(&d, dirty, 8);
		v <<= 8; /* byte w moves to byte w + 1 */
		d <<= 8;
		memcpy(valid, &v, 8);
		memcpy(dirty, &d, 8);
	} else {
		memmove(valid + 1, valid, n);
		memmove(dirty + 1, dirty, n);
		valid[0] = dirty[0] = 0;
	}
}

/* Way w of the set at base becomes way 0, ways 0..w-1 moving down one. */
static void promote(sc_cache_t *c, size_t base, uint32_t w)
{
	if (w == 0)
		return;
	if (UNLIKELY(c->nover))
		sc__ovl_promote(c, base, w);
	uint64_t t = c->tag[base + w], r = c->ready[base + w];
	uint8_t v = c->valid ? c->valid[base + w] : 0, d = c->valid ? c->dirty[base + w] : 0;
	shift_ways(c, base, w);
	c->tag[base] = t;
	c->ready[base] = r;
	if (c->valid) {
		c->valid[base] = v;
		c->dirty[base] = d;
	}
}

/* The way of the set at base holding line ln, or c->ways when none. */
static inline uint32_t find_way(const sc_cache_t *c, size_t base, uint64_t ln)
{
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->tag[base + w] == ln + 1)
			return w;
	return c->ways;
}

/* The slot of line ln (now the set's way 0) or SIZE_MAX when absent. */
static inline __attribute__((always_inline)) size_t lookup(sc_cache_t *c, uint32_t set, uint64_t ln)
{
	size_t base = (size_t)set * c->ways;
	uint32_t w = find_way(c, base, ln);
	if (w == c->ways)
		return SIZE_MAX;
	promote(c, base, w);
	return base;
}

/* Puts line ln in way 0 of its set; the least recent line leaves (its tag
 * and dirty sectors in *old_tag and *old_dirty). Returns the slot. The
 * other ways move down one place (shift_ways, as promote moves them). */
static size_t insert(sc_gpu_t *g, sc_cache_t *c, uint32_t set, uint64_t ln, uint64_t *old_tag, uint8_t *old_dirty)
{
	size_t base = (size_t)set * c->ways;
	uint32_t last = c->ways - 1;
	if (UNLIKELY(c->nover))
		sc__ovl_evict(g, c, base + last);
	if (UNLIKELY(g->ms.ndimg) && c->valid)
		sc__dimg_evict(g, c, base + last);
	*old_tag = c->tag[base + last];
	*old_dirty = c->dirty ? c->dirty[base + last] : 0;
	if (UNLIKELY(c->nover) && last)
		sc__ovl_promote(c, base, last);
	shift_ways(c, base, last);
	c->tag[base] = ln + 1;
	c->ready[base] = 0;
	return base;
}

/* Way w of the set at base becomes invalid and the least recent. */
static void drop_way(sc_gpu_t *g, sc_cache_t *c, size_t base, uint32_t w)
{
	if (UNLIKELY(c->nover))
		sc__ovl_remove_way(g, c, base, w);
	memmove(&c->tag[base + w], &c->tag[base + w + 1], (c->ways - 1 - w) * sizeof *c->tag);
	memmove(&c->ready[base + w], &c->ready[base + w + 1], (c->ways - 1 - w) * sizeof *c->ready);
	c->tag[base + c->ways - 1] = 0;
	c->ready[base + c->ways - 1] = 0;
}

static void invalidate(sc_gpu_t *g, sc_cache_t *c, uint32_t set, uint64_t ln)
{
	size_t base = (size_t)set * c->ways;
	uint32_t w = find_way(c, base, ln);
	if (w < c->ways)
		drop_way(g, c, base, w);
}

void sc__cache_drop(sc_gpu_t *g, sc_cache_t *c, size_t slot)
{
	drop_way(g, c, slot - slot % c->ways, (uint32_t)(slot % c->ways));
}

/* The set of line ln in a per-SM cache: its low bits folded with the next
 * ones, so that power-of-two strides spread over the sets. */
static uint32_t l1_set(const sc_cache_t *c, uint64_t ln)
{
	uint32_t bits = log2u(c->sets);
	return (uint32_t)((ln ^ (ln >> bits)) & (c->sets - 1));
}

uint32_t sc__cache_set(const sc_cache_t *c, uint64_t ln) { return l1_set(c, ln); }

size_t sc__cache_find(const sc_cache_t *c, uint64_t ln)
{
	if (!c->sets)
		return SIZE_MAX;
	size_t base = (size_t)l1_set(c, ln) * c->ways;
	uint32_t w = find_way(c, base, ln);
	return w < c->ways ? base + w : SIZE_MAX;
}

/* ------------------------------------------------------------ L2 and DRAM */
/* Where byte address a lives: lines interleave over the slices of a
 * channel, and chunks of slices_per_channel lines over the channels. */
typedef sc_l2_place_t place_t;

static inline __attribute__((always_inline)) place_t place(const sc_gpu_t *g, uint64_t a)
{
	const sc_gpu_config_t *c = &g->cfg;
	const sc_memsys_t *ms = &g->ms;
	uint64_t line = a >> log2u(c->l2_line), sub, chan;
	uint64_t chunk = sc__fdiv(ms->by_spc, line, &sub);
	uint64_t row = sc__fdiv(ms->by_chan, chunk, &chan);
	uint32_t sets = ms->l2[0].sets;
	return (place_t){(uint32_t)chan * c->l2_slices_per_channel + (uint32_t)sub, (uint32_t)chan,
	                 sets ? (uint32_t)(row & (sets - 1)) : 0, line};
}

sc_l2_place_t sc__l2_place(const sc_gpu_t *g, uint64_t a) { return place(g, a); }

size_t sc__l2_find(const sc_gpu_t *g, uint64_t a, uint32_t *slice)
{
	place_t p = place(g, a);
	const sc_cache_t *l2 = &g->ms.l2[p.slice];
	*slice = p.slice;
	if (!l2->sets)
		return SIZE_MAX;
	size_t base = (size_t)p.set * l2->ways;
	uint32_t w = find_way(l2, base, p.line);
	return w < l2->ways ? base + w : SIZE_MAX;
}

/* n sectors over channel ch's bus from cycle t on; returns the cycle the
 * last one has crossed. */
static uint64_t dram(sc_memsys_t *ms, uint32_t ch, uint32_t n, uint64_t t)
{
	uint64_t tick = t << SC_TICK_SHIFT, start = ms->bus[ch] > tick ? ms->bus[ch] : tick;
	ms->bus[ch] = start + n * ms->sector_ticks;
	return (ms->bus[ch] + (1u << SC_TICK_SHIFT) - 1) >> SC_TICK_SHIFT;
}

/* The number of sectors in a line's sector mask: one load from a table
 * (masks have 8 bits) instead of the popcount's arithmetic. */
#define POP2(n) n, n + 1, n + 1, n + 2
#define POP4(n) POP2(n), POP2(n + 1), POP2(n + 1), POP2(n + 2)
#define POP6(n) POP4(n), POP4(n + 1), POP4(n + 1), POP4(n + 2)
static const uint8_t pop8[256] = {POP6(0), POP6(1), POP6(1), POP6(2)};
#undef POP2
#undef POP4
#undef POP6

enum { ACC_READ, ACC_WRITE, ACC_ATOMIC };

/* One line's sectors `mask` at L2, from cycle t (the SM's issue). Returns
 * the cycle the data is back at the SM (reads, atomics); writes return t. */
static uint64_t l2_access(sc_gpu_t *g, uint64_t a, uint8_t mask, int kind, uint64_t t)
{
	const sc_gpu_config_t *c = &g->cfg;
	sc_memsys_t *ms = &g->ms;
	place_t p = place(g, a);
	uint32_t n = pop8[mask];
	uint64_t ts = ms->port[p.slice] > t ? ms->port[p.slice] : t;
	ms->port[p.slice] = ts + (uint64_t)n * c->l2_sector_cycles;
	uint32_t hit_lat = kind == ACC_ATOMIC ? c->latency[SC_LAT_ATOMIC] : c->l2_latency;
	sc_cache_t *l2 = &ms->l2[p.slice];
	if (!l2->sets) { /* no L2: every access goes to DRAM */
		ms->count.dram += n;
		uint64_t end = dram(ms, p.chan, n, ts);
		return kind == ACC_WRITE ? t : end + hit_lat + c->dram_latency;
	}
	size_t s = lookup(l2, p.set, p.line);
	if (s == SIZE_MAX) {
		uint64_t old;
		uint8_t dirty;
		s = insert(g, l2, p.set, p.line, &old, &dirty);
		if (dirty) { /* write back the victim: same slice, same channel */
			uint32_t wb = pop8[dirty];
			ms->count.dram_wb += wb;
			dram(ms, p.chan, wb, ts);
		}
	}
	uint8_t missing = (uint8_t)(mask & ~l2->valid[s]);
	if (UNLIKELY(ms->ndiverged) && kind != ACC_READ)
		sc__dimg_dirtied(g, l2, s, mask);
	if (kind == ACC_WRITE) { /* write-back, allocating without a fetch */
		l2->valid[s] |= mask;
		l2->dirty[s] |= mask;
		ms->count.l2_hits += n;
		return t;
	}
	if (kind == ACC_ATOMIC)
		l2->dirty[s] |= mask;
	uint32_t k = pop8[missing];
	ms->count.l2_hits += n - k;
	if (!k)
		return ts + hit_lat > l2->ready[s] ? ts + hit_lat : l2->ready[s];
	ms->count.dram += k;
	uint64_t done = dram(ms, p.chan, k, ts) + hit_lat + c->dram_latency;
	l2->valid[s] |= missing;
	if (done > l2->ready[s])
		l2->ready[s] = done;
	return done;
}

/* ------------------------------------------------------------ coalescing */
typedef struct txn {
	uint64_t line;
	uint8_t sectors;
} txn_t;

/* The distinct lines of 2^shift bytes that the lanes' accesses of `bytes`
 * touch, each with the sectors (2^sshift bytes) it touches (left 0 for a
 * warp's single aligned line unless `sectors`), in the order of the lanes.
 * Returns how many (at most 64). Inlined: a call cost as much as the
 * usual one-line case itself. */
static inline __attribute__((always_inline)) uint32_t coalesce(const uint64_t *addr, uint64_t off,
                                                               const sc_bounds_t *bd, uint32_t exec, unsigned bytes,
                                                               uint32_t shift, uint32_t sshift, bool sectors, txn_t *t)
{
	uint32_t n = 0;
	uint64_t lmask = (1ull << shift) - 1;
	if (bd && bytes <= (1u << sshift) && !(bytes & (bytes - 1)) && !(bd->any & (bytes - 1)) &&
	    (bd->lo - off) >> shift == (bd->hi - off) >> shift) {
		/* the usual case, one aligned line for the warp (off is aligned) */
		uint32_t sec = 0;
		if (sectors && bd->dense == bytes) { /* back to back: every sector from lo's to hi's */
			uint32_t s0 = (uint32_t)(((bd->lo - off) & lmask) >> sshift);
			sec = (2u << (((bd->hi - off) & lmask) >> sshift)) - (1u << s0);
		} else if (sectors && exec == 0xffffffffu) /* a loop without the lane scan */
			for (uint32_t l = 0; l < 32; l++)
				sec |= 1u << (((addr[l] - off) & lmask) >> sshift);
		else if (sectors)
			FOR_LANES(l, exec)
				sec |= 1u << (((addr[l] - off) & lmask) >> sshift);
		t[0] = (txn_t){(bd->lo - off) >> shift, (uint8_t)sec};
		return 1;
	}
	FOR_LANES(l, exec) {
		uint64_t a = addr[l] - off, e = a + bytes - 1;
		for (uint64_t ln = a >> shift; ln <= e >> shift; ln++) {
			uint64_t lo = ln == a >> shift ? a & lmask : 0, hi = ln == e >> shift ? e & lmask : lmask;
			uint8_t sec = (uint8_t)(((2u << (hi >> sshift)) - 1) & ~((1u << (lo >> sshift)) - 1));
			uint32_t j = n;
			if (n && t[n - 1].line == ln)
				j = n - 1;
			else
				for (j = 0; j < n && t[j].line != ln; j++)
					;
			if (j == n)
				t[n++] = (txn_t){ln, 0};
			t[j].sectors |= sec;
		}
	}
	return n;
}

/* ------------------------------------------------------------ by space */
/* Global and local memory: through the L1 (when there is one; its lines
 * are the L2's, config.c checks), line by line, one line per interval of the load/store unit. Loads fill the L1
 * with whole lines; stores write through to L2 and evict the L1's copy
 * (Fermi's global policy), except local stores, which the L1 keeps.
 * Inlined into sc__mem_time's two calls: the call and its ten arguments
 * cost some 35 host instructions an access. */
static inline __attribute__((always_inline)) uint32_t global_time(sc_gpu_t *g, sc_sm_t *sm, uint64_t base,
                                                                 const uint64_t *addr, uint64_t off,
                                                                 const sc_bounds_t *bd, uint32_t exec,
                                                                 unsigned bytes, int kind, int cls)
{
	const sc_gpu_config_t *c = &g->cfg;
	sc_memsys_t *ms = &g->ms;
	sc_cache_t *l1 = &ms->l1[sm->id];
	uint64_t now = g->cycle, done = now + c->latency[cls];
	uint32_t shift = log2u(c->l1_line), sshift = log2u(c->l2_sector);
	uint8_t whole = (uint8_t)((1u << (c->l2_line >> sshift)) - 1);
	txn_t t[64];
	uint32_t n = coalesce(addr, off, bd, exec, bytes, shift, sshift, kind != ACC_READ || !l1->sets, t);
	uint32_t iv = c->interval[cls];
	ms->occ = n * iv;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = base + (t[i].line << shift), ti = now + (uint64_t)i * iv, end;
		uint64_t ln = t[i].line + (base >> shift);
		uint32_t set = l1->sets ? l1_set(l1, ln) : 0;
		if (kind == ACC_READ && l1->sets) {
			size_t s = lookup(l1, set, ln);
			if (s != SIZE_MAX) {
				ms->count.l1_hits++;
				end = ti + c->latency[cls];
				end = end > l1->ready[s] ? end : l1->ready[s];
			} else {
				uint64_t old;
				uint8_t dirty;
				ms->count.l1_misses++;
				s = insert(g, l1, set, ln, &old, &dirty);
				end = l1->ready[s] = l2_access(g, a, whole, ACC_READ, ti);
				if (UNLIKELY(ms->nover))
					sc__ovl_fill(g, l1, s, a);
			}
		} else if (kind == ACC_READ) {
			end = l2_access(g, a, t[i].sectors, ACC_READ, ti);
		} else {
			if (l1->sets) {
				if (cls == SC_LAT_LOCAL) {
					size_t s = lookup(l1, set, ln);
					if (s == SIZE_MAX) {
						uint64_t old;
						uint8_t dirty;
						s = insert(g, l1, set, ln, &old, &dirty);
						l1->ready[s] = ti;
					}
				} else {
					invalidate(g, l1, set, ln);
				}
			}
			end = l2_access(g, a, t[i].sectors, kind, ti);
			if (kind == ACC_WRITE)
				end = ti + c->latency[cls];
		}
		done = end > done ? end : done;
	}
	return (uint32_t)(done - now);
}

/* Shared memory: the lanes' words spread over smem_banks banks of 4
 * bytes; a bank serves one word per pass (lanes reading the same word share
 * it), so a warp takes as many passes as its busiest bank has words. */
static uint32_t shared_time(sc_gpu_t *g, const uint64_t *addr, uint64_t off, uint32_t exec, unsigned bytes)
{
	const sc_gpu_config_t *c = &g->cfg;
	uint32_t nb = c->smem_banks, passes = 1, words = 0;
	uint64_t seen[64 * 2];
	uint8_t per_bank[64] = {0};
	FOR_LANES(l, exec) {
		uint64_t a = (addr[l] - off) >> 2, e = (addr[l] - off + bytes - 1) >> 2;
		for (uint64_t wd = a; wd <= e && words < 128; wd++) {
			uint32_t j;
			for (j = 0; j < words && seen[j] != wd; j++)
				;
			if (j < words)
				continue;
			seen[words++] = wd;
			uint32_t b = (uint32_t)(wd & (nb - 1));
			if (++per_bank[b] > passes)
				passes = per_bank[b];
		}
	}
	g->ms.occ = passes * c->interval[SC_LAT_SHARED];
	return c->latency[SC_LAT_SHARED] + (passes - 1) * c->interval[SC_LAT_SHARED];
}

/* Line ln of a read-only per-SM cache c (constant, texture), wanted at
 * cycle ti: its slot, filled from the L2 on a miss (ready once the L2 sectors
 * it spans are back). */
static size_t ro_line(sc_gpu_t *g, sc_cache_t *c, uint64_t ln, uint64_t ti, uint64_t count[2])
{
	const sc_gpu_config_t *cf = &g->cfg;
	uint32_t set = l1_set(c, ln);
	size_t s = lookup(c, set, ln);
	count[s == SIZE_MAX]++;
	if (s != SIZE_MAX)
		return s;
	uint64_t old;
	uint8_t dirty;
	s = insert(g, c, set, ln, &old, &dirty);
	uint32_t sshift = log2u(cf->l2_sector), line = 1u << c->shift;
	uint32_t first = (uint32_t)((ln << c->shift) & (cf->l2_line - 1)) >> sshift;
	uint32_t cnt = line >= cf->l2_sector ? line >> sshift : 1;
	c->ready[s] = l2_access(g, ln << c->shift, (uint8_t)(((1u << cnt) - 1) << first), ACC_READ, ti);
	if (UNLIKELY(g->ms.nover))
		sc__ovl_fill(g, c, s, ln << c->shift);
	return s;
}

/* The constant cache: one pass per distinct address (a broadcast when the
 * lanes agree); a line that misses comes from L2. */
static uint32_t const_time(sc_gpu_t *g, sc_sm_t *sm, const uint64_t *addr, uint64_t off, uint32_t exec)
{
	const sc_gpu_config_t *c = &g->cfg;
	sc_memsys_t *ms = &g->ms;
	sc_cache_t *cc = &ms->cc[sm->id];
	uint64_t now = g->cycle, seen[32], done = 0;
	uint32_t n = 0, iv = c->interval[SC_LAT_CONST];
	FOR_LANES(l, exec) {
		uint64_t a = addr[l] - off;
		uint32_t j;
		for (j = 0; j < n && seen[j] != a; j++)
			;
		if (j < n)
			continue;
		seen[n] = a;
		uint64_t ti = now + (uint64_t)n * iv, end = ti + c->latency[SC_LAT_CONST];
		n++;
		if (cc->sets) {
			size_t s = ro_line(g, cc, (SC_CACHE_CONST + a) >> cc->shift, ti, ms->count.cnst);
			end = end > cc->ready[s] ? end : cc->ready[s];
		}
		done = end > done ? end : done;
	}
	ms->occ = n * iv;
	return n ? (uint32_t)(done - now) : c->latency[SC_LAT_CONST];
}

/* The texture cache (tex, tld4): per SM and read-only, the lanes' texel
 * addresses coalesced into its lines, one line per interval of the
 * load/store unit; a hit costs an L1 hit (latency.global), a miss fills
 * the line from the L2 as the constant cache does. The timing follows each
 * lane's first texel (tex.c). A GPU without one (tex_bytes 0) fetches
 * textures through its L1, as a global load. */
static uint32_t tex_time(sc_gpu_t *g, sc_sm_t *sm, const uint64_t *addr, uint32_t exec)
{
	const sc_gpu_config_t *c = &g->cfg;
	sc_memsys_t *ms = &g->ms;
	sc_cache_t *tc = &ms->tc[sm->id];
	uint64_t now = g->cycle, done = now + c->latency[SC_LAT_GLOBAL];
	uint32_t iv = c->interval[SC_LAT_GLOBAL];
	txn_t t[64];
	uint32_t n = coalesce(addr, 0, NULL, exec, 1, tc->shift, log2u(c->l2_sector), false, t);
	ms->occ = n * iv;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t ti = now + (uint64_t)i * iv, end = ti + c->latency[SC_LAT_GLOBAL];
		size_t s = ro_line(g, tc, t[i].line, ti, ms->count.tex);
		end = end > tc->ready[s] ? end : tc->ready[s];
		done = end > done ? end : done;
	}
	return (uint32_t)(done - now);
}

/* A global or local access of latency lat, which found g->ms.count.dram at
 * d0 before it: one that reached DRAM opens SHARP's window. */
static inline uint32_t offchip(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t lat, uint64_t d0)
{
	if (UNLIKELY(sm->sharp) && g->ms.count.dram != d0)
		sc__sharp_offchip(g, sm, w, g->cycle + lat);
	return lat;
}

uint32_t sc__mem_time(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, int space, int op, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes, const sc_bounds_t *bd)
{
	const sc_gpu_config_t *c = &g->cfg;
	int kind = op == SC_OP_LD ? ACC_READ : op == SC_OP_ST ? ACC_WRITE : ACC_ATOMIC;
	g->ms.occ = c->interval[SC_LAT_GLOBAL];
	if (!exec)
		return 1;
	switch (space) {
	case SC_SP_SHARED:
		if (UNLIKELY(g->watch.on) && g->watch.kind == SC_WATCH_SMEM)
			sc__watch_shared(g, sm, w, kind == ACC_WRITE, addr, off, exec, bytes);
		if (UNLIKELY(sm->sharp) && kind != ACC_READ) /* the words now hold the program's data */
			sc__sharp_smem_write(g, sm, w, addr, off, exec, bytes);
		return shared_time(g, addr, off, exec, bytes);
	case SC_SP_CONST:
		return const_time(g, sm, addr, off, exec);
	case SC_SP_PARAM:
		g->ms.occ = c->interval[SC_LAT_CONST];
		return c->latency[SC_LAT_CONST];
	case SC_SP_LOCAL: {
		/* each thread's local words interleave with its warp's
		 * (sc__local_pos) */
		uint64_t la[32];
		FOR_LANES(l, exec)
			la[l] = sc__local_pos(addr[l] - off, l);
		uint64_t base = sc__local_base(g, sm->id, w->slot), d0 = g->ms.count.dram;
		return offchip(g, sm, w,
		               global_time(g, sm, base, la, 0, NULL, exec, bytes < 4 ? bytes : 4, kind, SC_LAT_LOCAL), d0);
	}
	}
	uint64_t d0 = g->ms.count.dram;
	return offchip(g, sm, w,
	               global_time(g, sm, 0, addr, off, bd, exec, bytes, kind,
	                           kind == ACC_ATOMIC ? SC_LAT_ATOMIC : SC_LAT_GLOBAL), d0);
}

uint32_t sc__tex_time(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const uint64_t *addr, uint32_t exec)
{
	if (!g->ms.tc[sm->id].sets)
		return sc__mem_time(g, sm, w, SC_SP_GLOBAL, SC_OP_LD, addr, 0, exec, 4, NULL);
	g->ms.occ = g->cfg.interval[SC_LAT_GLOBAL];
	if (!exec)
		return 1;
	uint64_t d0 = g->ms.count.dram;
	return offchip(g, sm, w, tex_time(g, sm, addr, exec), d0);
}
