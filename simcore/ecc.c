/* The linear codes of the protection schemes: their parity-check matrices,
 * encoders and syndrome decoders (the model and the table of codes: ecc.h).
 * Every table is built once, by the first sc_code_get: the columns by each
 * code's construction, the encoder by solving H for the check bits, and
 * the decoder's syndrome table from the patterns of weight <= t. */
#include <assert.h>
#include <string.h>

#include "sc_int.h"

static const char *const code_names[SC_CODE__COUNT] = {
#define X(name, text, k, r, dist, t) [SC_CODE_##name] = text,
	SC_CODE_LIST(X)
#undef X
};

const char *sc_code_name(sc_code_kind_t k)
{
	return (unsigned)k < SC_CODE__COUNT ? code_names[k] : "?";
}

int sc_code_parse(const char *name, sc_code_kind_t *out)
{
	int i = sc__name_index(code_names, SC_CODE__COUNT, name);
	if (i < 0)
		return SC_EINVAL;
	*out = (sc_code_kind_t)i;
	return 0;
}

/* ---- linear algebra over GF(2) -------------------------------------------
 * An echelon basis of r-bit vectors: vec[b] is 0 or a vector whose highest
 * set bit is b, and how[b] says which of the added vectors it is the xor of
 * (bit j: the j-th vector offered to basis_add). */
typedef struct basis {
	uint16_t vec[16], how[16];
} basis_t;

/* What is left of v after the basis clears every bit it can; *how gets the
 * added vectors whose xor was cleared. 0 when v is in the span. */
static uint16_t reduce(const basis_t *bs, uint16_t v, uint16_t *how)
{
	*how = 0;
	for (int b = 15; b >= 0; b--)
		if ((v >> b & 1) && bs->vec[b]) {
			v ^= bs->vec[b];
			*how ^= bs->how[b];
		}
	return v;
}

/* Offers v, the j-th vector: adds it unless the basis spans it already.
 * Returns whether it was independent of those before it. */
static bool basis_add(basis_t *bs, uint16_t v, uint32_t j)
{
	uint16_t how;
	v = reduce(bs, v, &how);
	if (!v)
		return false;
	int b = 31 - __builtin_clz(v);
	bs->vec[b] = v;
	bs->how[b] = (uint16_t)(how ^ 1u << j);
	return true;
}

/* ---- the columns of H, one construction per code ------------------------ */

/* Check bit j is checked by row j alone: the syndrome of a check-bit flip
 * names it directly, and the encoder of data bit i is its column. */
static void unit_checks(sc_code_t *c)
{
	for (uint32_t j = 0; j < c->r; j++)
		c->col[c->k + j] = (uint16_t)(1u << j);
}

static void parity_columns(sc_code_t *c)
{
	unit_checks(c);
	for (uint32_t i = 0; i < c->k; i++)
		c->col[i] = 1;
}

/* Distinct non-zero columns give distance 3; the non-unit ones, taken in
 * increasing order, keep the data bits off the check bits' syndromes. */
static void hamming_columns(sc_code_t *c)
{
	unit_checks(c);
	uint16_t v = 3;
	for (uint32_t i = 0; i < c->k; i++, v++) {
		while (!(v & (v - 1)))
			v++;
		c->col[i] = v;
	}
}

/* The unused column of weight w (0 when none is left) whose rows are the
 * lightest so far (least sum of row weights; ties: the smallest value). */
static uint16_t hsiao_pick(uint32_t r, int w, const bool *used, const uint32_t *row)
{
	uint16_t best = 0;
	uint32_t best_sum = UINT32_MAX;
	for (uint32_t v = 1; v < 1u << r; v++) {
		if (__builtin_popcount(v) != w || used[v])
			continue;
		uint32_t sum = 0;
		for (uint32_t b = 0; b < r; b++)
			sum += (v >> b & 1) ? row[b] : 0;
		if (sum < best_sum) {
			best = (uint16_t)v;
			best_sum = sum;
		}
	}
	return best;
}

/* Hsiao's SECDED: odd-weight columns make every 1-bit syndrome odd and
 * every 2-bit one even and non-zero, so double errors are never
 * miscorrected. Data columns come from the lightest weight class first
 * (3, then 5: fewest xor inputs) and balance the rows greedily, so that no
 * check bit's parity tree is deeper than needed. Row weights achieved
 * (data columns; the unit check column adds one to each):
 *   (39,32): 14 14 14 14 14 13 13   (max - min = 1, the best 96/7 allows)
 *   (72,64): 26 in every row         (all 56 weight-3 columns, 8 of weight 5)
 * test_ecc.c (hsiao_rows_are_balanced) holds the code to these. */
static void hsiao_columns(sc_code_t *c)
{
	bool used[1u << 8] = {false};
	uint32_t row[SC_ECC_MAXR] = {0};
	assert(c->r <= 8);
	unit_checks(c);
	for (uint32_t i = 0, w = 3; i < c->k;) {
		uint16_t v = hsiao_pick(c->r, (int)w, used, row);
		if (!v) {
			w += 2;
			continue;
		}
		used[v] = true;
		c->col[i++] = v;
		for (uint32_t b = 0; b < c->r; b++)
			row[b] += v >> b & 1;
	}
}

/* DECTED: the binary BCH code of length 63 with zeros alpha and alpha^3
 * in GF(2^6) (x^6 + x + 1), designed distance 5, shortened to positions
 * 0..43, plus an overall parity bit (position 44) for distance 6. Position
 * i < 44 has the column (alpha^i, alpha^3i, 1) (bits 5..0, 11..6, 12), the
 * parity bit (0, 0, 1). The check bits are the parity bit and the first
 * positions independent of it and of each other (0..11, where the cyclic
 * code's systematic encoder puts them): 13 of them shows H has rank 13,
 * so the code has dimension 32. Codeword order: data bits are positions
 * 12..43, check bits 0..11 then the parity bit. */
#define GF64_POLY 0x43u /* x^6 + x + 1 */

static void dected_columns(sc_code_t *c)
{
	uint16_t pow[63], pos[45];
	uint16_t a = 1;
	for (uint32_t i = 0; i < 63; i++) {
		pow[i] = a;
		a = (uint16_t)(a << 1);
		if (a & 0x40u)
			a ^= GF64_POLY;
	}
	for (uint32_t i = 0; i < 44; i++)
		pos[i] = (uint16_t)(pow[i] | pow[3 * i % 63] << 6 | 1u << 12);
	pos[44] = 1u << 12;

	basis_t bs = {0};
	bool check[45];
	check[44] = basis_add(&bs, pos[44], 0);
	for (uint32_t i = 0; i < 44; i++)
		check[i] = basis_add(&bs, pos[i], 0);
	uint32_t d = 0, k = c->k;
	for (uint32_t i = 0; i < 45; i++)
		c->col[check[i] ? k++ : d++] = pos[i];
	assert(d == c->k && k == c->n);
}

/* ---- building the tables -------------------------------------------------- */

/* The check bits of data bit i are the combination of check columns equal
 * to its column, so that data bit and check bits together have syndrome 0;
 * the check columns are a basis (asserted), so exactly one exists. */
static void encoder_build(sc_code_t *c)
{
	basis_t bs = {0};
	for (uint32_t j = 0; j < c->r; j++) {
		bool independent = basis_add(&bs, c->col[c->k + j], j);
		assert(independent);
		(void)independent;
	}
	for (uint32_t i = 0; i < c->k; i++) {
		uint16_t how, left = reduce(&bs, c->col[i], &how);
		assert(!left);
		(void)left;
		c->enc[i] = how;
	}
}

sc_ecc_pattern_t sc_code_bit(const sc_code_t *c, uint32_t i)
{
	assert(i < c->n);
	if (i < c->k)
		return (sc_ecc_pattern_t){1ull << i, 0};
	return (sc_ecc_pattern_t){0, 1u << (i - c->k)};
}

/* Records e as the pattern that syndrome of e corrects; distance >= 2t + 1
 * keeps the syndromes of patterns of weight <= t apart (asserted). */
static void fix_add(const sc_code_t *c, sc_ecc_pattern_t *fix, sc_ecc_pattern_t e)
{
	uint32_t s = sc_code_syndrome(c, e.data, e.check);
	assert(s && !fix[s].data && !fix[s].check);
	fix[s] = e;
}

/* fix: 2^r entries, zeroed. t <= 2 for every code of ecc.h. */
static void fix_build(const sc_code_t *c, sc_ecc_pattern_t *fix)
{
	assert(c->t <= 2);
	for (uint32_t i = 0; i < c->n && c->t >= 1; i++) {
		sc_ecc_pattern_t a = sc_code_bit(c, i);
		fix_add(c, fix, a);
		for (uint32_t j = i + 1; j < c->n && c->t >= 2; j++) {
			sc_ecc_pattern_t b = sc_code_bit(c, j);
			fix_add(c, fix, (sc_ecc_pattern_t){a.data ^ b.data, a.check ^ b.check});
		}
	}
}

typedef struct shape {
	uint32_t k, r, dist, t;
} shape_t;

static const shape_t shapes[SC_CODE__COUNT] = {
#define X(name, text, k, r, dist, t) [SC_CODE_##name] = {k, r, dist, t},
	SC_CODE_LIST(X)
#undef X
};

static void (*const builders[SC_CODE__COUNT])(sc_code_t *) = {
	[SC_CODE_PARITY] = parity_columns, [SC_CODE_HAMMING] = hamming_columns,
	[SC_CODE_SECDED] = hsiao_columns,  [SC_CODE_SECDED64] = hsiao_columns,
	[SC_CODE_DECTED] = dected_columns,
};

/* Every code's syndrome table, one after another. */
#define FIX_ENTRIES (0u SC_CODE_LIST(FIX_SIZE))
#define FIX_SIZE(name, text, k, r, dist, t) +(1u << (r))
static sc_ecc_pattern_t fix_pool[FIX_ENTRIES];
static sc_code_t codes[SC_CODE__COUNT];
static bool built;

static void build_codes(void)
{
	sc_ecc_pattern_t *fix = fix_pool;
	for (int kind = 0; kind < SC_CODE__COUNT; kind++) {
		const shape_t *s = &shapes[kind];
		sc_code_t *c = &codes[kind];
		*c = (sc_code_t){.kind = (sc_code_kind_t)kind, .k = s->k, .r = s->r, .n = s->k + s->r,
		                 .dist = s->dist, .t = s->t, .fix = fix};
		if (builders[kind]) {
			builders[kind](c);
			encoder_build(c);
			fix_build(c, fix);
		}
		fix += 1u << c->r;
	}
	built = true;
}

const sc_code_t *sc_code_get(sc_code_kind_t k)
{
	if (k <= SC_CODE_NONE || k >= SC_CODE__COUNT)
		return NULL;
	if (!built)
		build_codes();
	return &codes[k];
}

/* ---- encoding and decoding ----------------------------------------------- */

/* The xor of t[i] over the bits i set in bits. */
static uint32_t xor_of(const uint16_t *t, uint64_t bits)
{
	uint32_t x = 0;
	for (; bits; bits &= bits - 1)
		x ^= t[__builtin_ctzll(bits)];
	return x;
}

uint32_t sc_code_encode(const sc_code_t *c, uint64_t data)
{
	assert(c->k == 64 || !(data >> c->k));
	return xor_of(c->enc, data);
}

uint32_t sc_code_syndrome(const sc_code_t *c, uint64_t data_err, uint32_t check_err)
{
	assert(c->k == 64 || !(data_err >> c->k));
	assert(!(check_err >> c->r));
	return xor_of(c->col, data_err) ^ xor_of(c->col + c->k, check_err);
}

sc_ecc_outcome_t sc_code_decode(const sc_code_t *c, uint64_t data_err, uint32_t check_err, bool detect_only,
                                uint64_t *rest_data, uint32_t *rest_check)
{
	sc_ecc_pattern_t rest = {data_err, check_err};
	uint32_t s = sc_code_syndrome(c, data_err, check_err);
	sc_ecc_outcome_t o;
	if (!data_err && !check_err) {
		o = SC_ECC_CLEAN;
	} else if (!s) {
		o = SC_ECC_UNDETECTED;
	} else if (detect_only || (!c->fix[s].data && !c->fix[s].check)) {
		o = SC_ECC_DETECTED;
	} else {
		rest.data ^= c->fix[s].data;
		rest.check ^= c->fix[s].check;
		o = rest.data || rest.check ? SC_ECC_MISCORRECTED : SC_ECC_CORRECTED;
	}
	if (rest_data)
		*rest_data = rest.data;
	if (rest_check)
		*rest_check = rest.check;
	return o;
}
