/* Seeded fault masks: the xoshiro256** stream of each mask and the drawing of
 * activation cycles, SMs, bit locations and value patterns of the fault
 * models.
 * The seeding scheme and the draw order are a reproducibility contract,
 * written down in masks.h; changing either changes every campaign's masks. */
#include <stdint.h>
#include <string.h>

#include "masks.h"

#define GOLDEN 0x9e3779b97f4a7c15u

/* ---- splitmix64 and xoshiro256** ---------------------------------------- */

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
	*x += GOLDEN;
	return mix64(*x);
}

static uint64_t rotl(uint64_t v, int k)
{
	return (v << k) | (v >> (64 - k));
}

void mask_rng_seed(mask_rng_t *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

void mask_rng_seed2(mask_rng_t *r, uint64_t seed, uint64_t index)
{
	uint64_t key = splitmix64(&seed);
	uint64_t x = mix64(key ^ index);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t mask_rng_next(mask_rng_t *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* The 128-bit product a*b as high and low halves, from 32-bit pieces so that
 * no compiler extension is needed. */
static uint64_t mul_hi_lo(uint64_t a, uint64_t b, uint64_t *lo)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	*lo = (mid << 32) | (uint32_t)p00;
	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Lemire, "Fast random integer generation in an interval" (2019): the high
 * half of x*n is uniform in [0, n) once the low half is rejected when it
 * falls below 2^64 mod n. */
uint64_t mask_rng_below(mask_rng_t *r, uint64_t n)
{
	if (n == 0)
		return 0;
	uint64_t lo, hi = mul_hi_lo(mask_rng_next(r), n, &lo);
	if (lo < n) {
		uint64_t floor = (0 - n) % n; /* 2^64 mod n */
		while (lo < floor)
			hi = mul_hi_lo(mask_rng_next(r), n, &lo);
	}
	return hi;
}

/* ---- the sampled space --------------------------------------------------- */

/* Returns the number of cycles in the busy union, or 0 when the intervals
 * are missing, reversed, unsorted or overlapping. The total cannot overflow:
 * sorted disjoint intervals fit between the first start and the last end. */
static uint64_t busy_cycles(const mask_space_t *sp)
{
	if (!sp->busy || sp->nbusy == 0)
		return 0;
	uint64_t total = 0;
	for (uint32_t i = 0; i < sp->nbusy; i++) {
		const mask_interval_t *b = &sp->busy[i];
		if (b->end < b->start || (i > 0 && b->start < sp->busy[i - 1].end))
			return 0;
		total += b->end - b->start;
	}
	return total;
}

/* Maps an offset in [0, busy_cycles) to its cycle. */
static uint64_t cycle_at(const mask_space_t *sp, uint64_t off)
{
	for (uint32_t i = 0;; i++) {
		uint64_t len = sp->busy[i].end - sp->busy[i].start;
		if (off < len)
			return sp->busy[i].start + off;
		off -= len;
	}
}

static int model_ok(const mask_space_t *sp, const mask_model_t *m, uint64_t total)
{
	switch (m->kind) {
	case MASK_SINGLE:
		return 1;
	case MASK_ADJACENT:
		if (m->k < 2 || m->k > 32)
			return 0;
		if (!sp->live && sp->word_bits == 0)
			return 0;
		return sp->word_bits == 0 || sp->word_bits >= m->k;
	case MASK_MULTI:
		return m->k >= 2 && m->k <= MASK_MAX_FAULTS && total >= m->k;
	case MASK_VALUE:
	case MASK_ZERO:
		return sp->word_bits >= 1 && sp->word_bits <= 64;
	case MASK_MCU:
		if (m->k < 2 || m->k > MASK_MAX_FAULTS || m->interleave == 0 || sp->word_bits == 0)
			return 0;
		/* the first word must leave room for its k - 1 followers */
		return sp->live || (uint64_t)(m->k - 1) * m->interleave < sp->bits_per_sm / sp->word_bits;
	case MASK_STUCK:
		return 1;
	}
	return 0;
}

/* The bit location of one fault: see mask_fault_t.loc. */
static uint64_t draw_loc(const mask_space_t *sp, const mask_model_t *m, mask_rng_t *r)
{
	if (sp->live)
		return mask_rng_next(r);
	uint64_t words = sp->word_bits ? sp->bits_per_sm / sp->word_bits : 0;
	if (m->kind == MASK_VALUE || m->kind == MASK_ZERO)
		return mask_rng_below(r, words) * sp->word_bits;
	if (m->kind == MASK_MCU) {
		uint64_t word = mask_rng_below(r, words - (uint64_t)(m->k - 1) * m->interleave);
		return word * sp->word_bits + mask_rng_below(r, sp->word_bits);
	}
	if (m->kind != MASK_ADJACENT)
		return mask_rng_below(r, sp->bits_per_sm);
	uint64_t word = mask_rng_below(r, words);
	uint64_t first = mask_rng_below(r, sp->word_bits - m->k + 1);
	return word * sp->word_bits + first;
}

int mask_generate(const mask_space_t *sp, const mask_model_t *model, uint64_t seed, uint64_t index,
                  mask_t *out)
{
	if (!sp || !model || !out || sp->num_sms == 0)
		return MASK_EINVAL;
	if (!sp->live && (sp->bits_per_sm == 0 ||
	                  (sp->word_bits != 0 && sp->bits_per_sm % sp->word_bits != 0)))
		return MASK_EINVAL;
	uint64_t total = busy_cycles(sp);
	if (total == 0 || !model_ok(sp, model, total))
		return MASK_EINVAL;

	mask_rng_t r;
	mask_rng_seed2(&r, seed, index);
	mask_t m;
	memset(&m, 0, sizeof m);
	m.index = index;

	uint64_t off[MASK_MAX_FAULTS];
	uint32_t nf = model->kind == MASK_MULTI ? model->k : 1;
	if (model->kind == MASK_STUCK && model->from_start) {
		off[0] = 0; /* drawn from nothing: the stream starts with sm */
	} else if (nf == 1) {
		off[0] = mask_rng_below(&r, total);
	} else {
		/* Floyd: for j in [total-k, total) take t uniform in [0, j]; keep t
		 * unless already taken, then keep j. Every k-subset is equally likely
		 * and exactly k draws are made. */
		for (uint32_t i = 0; i < nf; i++) {
			uint64_t j = total - nf + i, t = mask_rng_below(&r, j + 1);
			for (uint32_t q = 0; q < i; q++)
				if (off[q] == t) {
					t = j;
					break;
				}
			off[i] = t;
		}
		for (uint32_t i = 1; i < nf; i++) /* insertion sort: at most 8 */
			for (uint32_t q = i; q > 0 && off[q - 1] > off[q]; q--) {
				uint64_t tmp = off[q];
				off[q] = off[q - 1];
				off[q - 1] = tmp;
			}
	}

	m.nfaults = nf;
	for (uint32_t i = 0; i < nf; i++) {
		mask_fault_t *f = &m.f[i];
		f->cycle = cycle_at(sp, off[i]);
		f->sm = (uint32_t)mask_rng_below(&r, sp->num_sms);
		f->loc = draw_loc(sp, model, &r);
		f->nbits = model->kind == MASK_ADJACENT ? model->k : 1;
		if (model->kind == MASK_VALUE || model->kind == MASK_ZERO)
			f->nbits = sp->word_bits;
		if (model->kind == MASK_VALUE) {
			uint64_t v = mask_rng_next(&r);
			f->pattern = sp->word_bits < 64 ? v & ((UINT64_C(1) << sp->word_bits) - 1) : v;
		}
	}
	*out = m;
	return 0;
}
