/* The codes of ecc.c held to coding theory: the encoder makes codewords,
 * H has full rank and each code its minimum distance, and the decoder's
 * outcome of every error pattern of weight 1, 2 and 3 (up to 5 when only
 * detecting) is counted against brute-force counts over H's columns. */
#include <criterion/criterion.h>
#include <string.h>

#include "ecc.h"
#include "harness.h"
#include "simcore.h"

static const sc_code_t *code(sc_code_kind_t k)
{
	const sc_code_t *c = sc_code_get(k);
	cr_assert_not_null(c, "%s has tables", sc_code_name(k));
	return c;
}

static uint32_t weight(uint64_t data, uint32_t check)
{
	return (uint32_t)__builtin_popcountll(data) + (uint32_t)__builtin_popcount(check);
}

static uint32_t choose(uint32_t n, uint32_t w)
{
	uint64_t x = 1;
	for (uint32_t i = 0; i < w; i++)
		x = x * (n - i) / (i + 1);
	return (uint32_t)x;
}

/* Whether s is the column of some codeword bit: the syndrome of a 1-bit
 * error, which a single-error-correcting decoder applies. */
static bool is_column(const sc_code_t *c, uint32_t s)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->col[i] == s)
			return true;
	return false;
}

/* ---- every error pattern of weight w ------------------------------------ */

/* A set of w codeword bits: its pattern, and its syndrome as the xor of
 * the bits' columns (not through sc_code_syndrome). */
typedef struct subset {
	const sc_code_t *c;
	sc_ecc_pattern_t e;
	uint32_t s;
} subset_t;

/* Returns false to stop the walk. */
typedef bool (*visit_fn)(const subset_t *x, void *ctx);

static void toggle(subset_t *x, uint32_t i)
{
	sc_ecc_pattern_t b = sc_code_bit(x->c, i);
	x->e.data ^= b.data;
	x->e.check ^= b.check;
	x->s ^= x->c->col[i];
}

static bool walk(subset_t *x, uint32_t left, uint32_t from, visit_fn fn, void *ctx)
{
	if (!left)
		return fn(x, ctx);
	for (uint32_t i = from; i + left <= x->c->n; i++) {
		toggle(x, i);
		bool go = walk(x, left - 1, i + 1, fn, ctx);
		toggle(x, i);
		if (!go)
			return false;
	}
	return true;
}

/* Calls fn on every set of w bits of c's codeword until it returns false;
 * returns whether the walk went through them all. */
static bool each_subset(const sc_code_t *c, uint32_t w, visit_fn fn, void *ctx)
{
	subset_t x = {.c = c};
	return walk(&x, w, 0, fn, ctx);
}

/* The decoder's outcomes over all patterns of one weight. */
typedef struct tally {
	bool detect_only;
	uint32_t n[SC_ECC_UNDETECTED + 1]; /* by outcome */
	uint32_t on_column;                /* patterns whose syndrome is a column */
	uint32_t bad;                      /* rest or syndrome not as ecc.h says */
} tally_t;

/* Whether the rest the decoder left is what ecc.h promises for outcome o. */
static bool rest_ok(const subset_t *x, sc_ecc_outcome_t o, uint64_t rd, uint32_t rc)
{
	switch (o) {
	case SC_ECC_CORRECTED:
		return !rd && !rc;
	case SC_ECC_MISCORRECTED: /* a non-zero codeword, the decoder's pattern of weight <= t away */
		return (rd || rc) && !sc_code_syndrome(x->c, rd, rc) &&
		       weight(rd ^ x->e.data, rc ^ x->e.check) <= x->c->t;
	case SC_ECC_DETECTED:
	case SC_ECC_UNDETECTED:
		return rd == x->e.data && rc == x->e.check;
	default:
		return false; /* CLEAN: never for w >= 1 */
	}
}

static bool count(const subset_t *x, void *ctx)
{
	tally_t *t = ctx;
	uint64_t rd;
	uint32_t rc;
	sc_ecc_outcome_t o = sc_code_decode(x->c, x->e.data, x->e.check, t->detect_only, &rd, &rc);
	t->n[o]++;
	t->on_column += is_column(x->c, x->s);
	t->bad += sc_code_syndrome(x->c, x->e.data, x->e.check) != x->s || !rest_ok(x, o, rd, rc);
	return true;
}

static tally_t tally(sc_code_kind_t k, uint32_t w, bool detect_only)
{
	tally_t t = {.detect_only = detect_only};
	each_subset(code(k), w, count, &t);
	cr_expect_eq(t.bad, 0, "%s, weight %u: syndrome and rest as ecc.h says", sc_code_name(k), w);
	return t;
}

/* Every pattern of weight w decodes to outcome o. */
static void expect_all(sc_code_kind_t k, uint32_t w, bool detect_only, sc_ecc_outcome_t o)
{
	tally_t t = tally(k, w, detect_only);
	uint32_t all = choose(code(k)->n, w);
	cr_expect_eq(t.n[o], all, "%s, weight %u%s: %u of %u have outcome %d", sc_code_name(k), w,
	             detect_only ? " (detect only)" : "", t.n[o], all, (int)o);
}

/* ---- names and shapes ----------------------------------------------------- */

Test(ecc, names_and_parse)
{
	static const char *const names[] = {"none", "parity", "hamming", "secded", "secded64", "dected"};
	for (int k = 0; k < SC_CODE__COUNT; k++) {
		sc_code_kind_t got = SC_CODE__COUNT;
		cr_expect_str_eq(sc_code_name((sc_code_kind_t)k), names[k]);
		cr_expect_eq(sc_code_parse(names[k], &got), 0);
		cr_expect_eq(got, (sc_code_kind_t)k);
	}
	sc_code_kind_t got = SC_CODE_DECTED;
	cr_expect_eq(sc_code_parse("secded72", &got), SC_EINVAL);
	cr_expect_eq(sc_code_parse("", &got), SC_EINVAL);
	cr_expect_eq(sc_code_parse(NULL, &got), SC_EINVAL);
	cr_expect_eq(got, SC_CODE_DECTED, "a bad name leaves *out alone");
	cr_expect_str_eq(sc_code_name(SC_CODE__COUNT), "?");
	cr_expect_null(sc_code_get(SC_CODE_NONE));
	cr_expect_null(sc_code_get(SC_CODE__COUNT));
}

/* The rank of H, by elimination over its columns. */
static uint32_t rank(const sc_code_t *c)
{
	uint16_t m[SC_ECC_MAXN];
	uint32_t rk = 0;
	memcpy(m, c->col, c->n * sizeof *m);
	for (uint32_t b = 0; b < c->r; b++) {
		uint32_t p = rk;
		while (p < c->n && !(m[p] >> b & 1))
			p++;
		if (p == c->n)
			continue;
		uint16_t piv = m[p];
		m[p] = m[rk];
		m[rk++] = piv;
		for (uint32_t i = rk; i < c->n; i++)
			if (m[i] >> b & 1)
				m[i] ^= piv;
	}
	return rk;
}

Test(ecc, codes_have_their_shape)
{
	static const struct {
		sc_code_kind_t k;
		uint32_t n, kbits, r, dist, t;
	} want[] = {
		{SC_CODE_PARITY, 33, 32, 1, 2, 0},    {SC_CODE_HAMMING, 38, 32, 6, 3, 1},
		{SC_CODE_SECDED, 39, 32, 7, 4, 1},    {SC_CODE_SECDED64, 72, 64, 8, 4, 1},
		{SC_CODE_DECTED, 45, 32, 13, 6, 2},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const sc_code_t *c = code(want[i].k);
		cr_expect_eq(c->kind, want[i].k);
		cr_expect_eq(c->n, want[i].n);
		cr_expect_eq(c->k, want[i].kbits);
		cr_expect_eq(c->r, want[i].r);
		cr_expect_eq(c->dist, want[i].dist);
		cr_expect_eq(c->t, want[i].t);
		cr_expect_eq(rank(c), c->r, "%s: H has full rank, so the code has dimension k", sc_code_name(c->kind));
		for (uint32_t j = 0; j < c->n; j++)
			cr_expect_eq(c->col[j] >> c->r, 0, "%s: column %u has r bits", sc_code_name(c->kind), j);
	}
	for (sc_code_kind_t k = SC_CODE_PARITY; k <= SC_CODE_SECDED64; k++)
		for (uint32_t j = 0; j < code(k)->r; j++)
			cr_expect_eq(code(k)->col[code(k)->k + j], 1u << j, "%s: check bit %u is a unit column",
			             sc_code_name(k), j);
}

Test(ecc, hsiao_rows_are_balanced)
{
	/* data columns' row weights, as ecc.c's hsiao_columns says */
	static const uint32_t rows39[] = {14, 14, 14, 14, 14, 13, 13};
	static const uint32_t rows72[] = {26, 26, 26, 26, 26, 26, 26, 26};
	const sc_code_t *cs[] = {code(SC_CODE_SECDED), code(SC_CODE_SECDED64)};
	const uint32_t *rows[] = {rows39, rows72};
	uint32_t heavy[2] = {0};
	for (int x = 0; x < 2; x++) {
		const sc_code_t *c = cs[x];
		for (uint32_t i = 0; i < c->k; i++) {
			int w = __builtin_popcount(c->col[i]);
			cr_expect(w == 3 || w == 5, "%s: data column %u has odd weight 3 or 5", sc_code_name(c->kind), i);
			heavy[x] += w == 5;
			for (uint32_t j = 0; j < i; j++)
				cr_expect_neq(c->col[i], c->col[j], "%s: columns %u and %u differ", sc_code_name(c->kind), j, i);
		}
		for (uint32_t b = 0; b < c->r; b++) {
			uint32_t n = 0;
			for (uint32_t i = 0; i < c->k; i++)
				n += c->col[i] >> b & 1;
			cr_expect_eq(n, rows[x][b], "%s: row %u has %u ones", sc_code_name(c->kind), b, n);
		}
	}
	cr_expect_eq(heavy[0], 0, "(39,32) needs 32 of the 35 weight-3 columns");
	cr_expect_eq(heavy[1], 8, "(72,64): all 56 weight-3 columns, then 8 of weight 5");
}

/* a * b in GF(2^6) modulo x^6 + x + 1, bit by bit */
static uint32_t gf64_mul(uint32_t a, uint32_t b)
{
	uint32_t p = 0;
	for (int i = 5; i >= 0; i--) {
		p <<= 1;
		if (p & 0x40)
			p ^= 0x43;
		if (b >> i & 1)
			p ^= a;
	}
	return p;
}

Test(ecc, dected_is_the_extended_bch_code)
{
	const sc_code_t *c = code(SC_CODE_DECTED);
	bool seen[44] = {false};
	uint32_t parity = 0;
	for (uint32_t j = 0; j < c->n; j++) {
		uint32_t x = c->col[j] & 0x3f, y = c->col[j] >> 6 & 0x3f;
		if (c->col[j] == 1u << 12) {
			parity++;
			continue;
		}
		cr_expect(c->col[j] >> 12 & 1, "column %u has the overall parity row", j);
		cr_expect_eq(y, gf64_mul(gf64_mul(x, x), x), "column %u is (b, b^3)", j);
		uint32_t i = 0, a = 1; /* b = alpha^i for which i? */
		while (i < 63 && a != x)
			a = gf64_mul(a, 2), i++;
		cr_expect_lt(i, 44, "column %u: b is alpha^%u of the shortened code", j, i);
		if (i < 44) {
			cr_expect_not(seen[i], "position %u once", i);
			seen[i] = true;
		}
	}
	cr_expect_eq(parity, 1);
	cr_expect_eq(c->col[c->n - 1], 1u << 12, "the overall parity bit is the last check bit");
}

/* ---- the encoder ------------------------------------------------------- */

static uint64_t data_mask(const sc_code_t *c) { return c->k == 64 ? ~0ull : (1ull << c->k) - 1; }

Test(ecc, encoder_makes_codewords)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (sc_code_kind_t k = SC_CODE_PARITY; k < SC_CODE__COUNT; k++) {
		const sc_code_t *c = code(k);
		uint64_t m = data_mask(c);
		uint32_t cm = (1u << c->r) - 1, bad = 0;
		for (int i = 0; i < 2000; i++) {
			uint64_t a = h_rand(&seed) & m, b = h_rand(&seed) & m, ed = h_rand(&seed) & m;
			uint32_t ca = sc_code_encode(c, a), cb = sc_code_encode(c, b), ec = (uint32_t)h_rand(&seed) & cm;
			bad += ca >> c->r != 0;
			bad += sc_code_syndrome(c, a, ca) != 0;
			bad += sc_code_encode(c, a ^ b) != (ca ^ cb);
			/* the syndrome of a corrupted codeword is its error pattern's */
			bad += sc_code_syndrome(c, a ^ ed, ca ^ ec) != sc_code_syndrome(c, ed, ec);
			bad += sc_code_syndrome(c, a ^ ed, ca ^ ec) !=
			       (sc_code_syndrome(c, a, 0) ^ sc_code_syndrome(c, ed, 0) ^ sc_code_syndrome(c, 0, ca ^ ec));
		}
		cr_expect_eq(bad, 0, "%s: codewords have syndrome 0, and encoder and syndrome are linear",
		             sc_code_name(k));
		cr_expect_eq(sc_code_encode(c, 0), 0);
		cr_expect_eq(sc_code_decode(c, 0, 0, false, NULL, NULL), SC_ECC_CLEAN);
	}
	/* parity: the check bit makes the weight even */
	cr_expect_eq(sc_code_encode(code(SC_CODE_PARITY), 0x7), 1);
	cr_expect_eq(sc_code_encode(code(SC_CODE_PARITY), 0x3), 0);
}

/* ---- decoding every pattern of weight 1, 2, 3 -------------------------- */

Test(ecc, single_bit_errors)
{
	expect_all(SC_CODE_PARITY, 1, false, SC_ECC_DETECTED);
	for (sc_code_kind_t k = SC_CODE_HAMMING; k < SC_CODE__COUNT; k++)
		expect_all(k, 1, false, SC_ECC_CORRECTED);
}

Test(ecc, double_bit_errors)
{
	expect_all(SC_CODE_PARITY, 2, false, SC_ECC_UNDETECTED);
	/* SEC: a 2-bit error is miscorrected exactly when its syndrome is
	 * some column (the decoder flips that third bit), else detected */
	tally_t h = tally(SC_CODE_HAMMING, 2, false);
	cr_expect_eq(h.n[SC_ECC_MISCORRECTED], h.on_column);
	cr_expect_eq(h.n[SC_ECC_MISCORRECTED], 528);
	cr_expect_eq(h.n[SC_ECC_DETECTED], choose(38, 2) - 528);
	expect_all(SC_CODE_SECDED, 2, false, SC_ECC_DETECTED);
	expect_all(SC_CODE_SECDED64, 2, false, SC_ECC_DETECTED);
	expect_all(SC_CODE_DECTED, 2, false, SC_ECC_CORRECTED);
}

/* Hsiao: three odd-weight columns sum to an odd, non-zero syndrome (never
 * undetected, never a 2-bit one); it is miscorrected when that syndrome is
 * a column, detected otherwise. */
static void hsiao_triples(sc_code_kind_t k, uint32_t miscorrected)
{
	tally_t t = tally(k, 3, false);
	uint32_t all = choose(code(k)->n, 3);
	cr_expect_eq(t.n[SC_ECC_UNDETECTED], 0, "%s", sc_code_name(k));
	cr_expect_eq(t.n[SC_ECC_CORRECTED], 0, "%s", sc_code_name(k));
	cr_expect_eq(t.n[SC_ECC_MISCORRECTED], t.on_column, "%s: miscorrected = syndrome on a column",
	             sc_code_name(k));
	cr_expect_eq(t.n[SC_ECC_MISCORRECTED], miscorrected, "%s: %u miscorrected", sc_code_name(k),
	             t.n[SC_ECC_MISCORRECTED]);
	cr_expect_eq(t.n[SC_ECC_DETECTED], all - miscorrected, "%s", sc_code_name(k));
}

Test(ecc, triple_bit_errors)
{
	cr_expect_eq(choose(39, 3), 9139);
	cr_expect_eq(choose(72, 3), 59640);
	cr_expect_eq(choose(45, 3), 14190);
	hsiao_triples(SC_CODE_SECDED, 5452);
	hsiao_triples(SC_CODE_SECDED64, 33568);
	expect_all(SC_CODE_DECTED, 3, false, SC_ECC_DETECTED);
}

/* ---- detection only -------------------------------------------------------- */

Test(ecc, detect_only_detects_below_the_distance)
{
	for (sc_code_kind_t k = SC_CODE_HAMMING; k < SC_CODE__COUNT; k++)
		for (uint32_t w = 1; w < code(k)->dist; w++)
			expect_all(k, w, true, SC_ECC_DETECTED);
	/* parity: every odd weight detected, every even one not */
	const sc_code_t *p = code(SC_CODE_PARITY);
	expect_all(SC_CODE_PARITY, 1, true, SC_ECC_DETECTED);
	expect_all(SC_CODE_PARITY, 3, true, SC_ECC_DETECTED);
	expect_all(SC_CODE_PARITY, 2, true, SC_ECC_UNDETECTED);
	uint64_t seed = 42;
	uint32_t bad = 0;
	for (int i = 0; i < 10000; i++) {
		uint64_t d = h_rand(&seed) & data_mask(p);
		uint32_t ch = (uint32_t)h_rand(&seed) & 1;
		if (!d && !ch)
			continue;
		sc_ecc_outcome_t want = weight(d, ch) & 1 ? SC_ECC_DETECTED : SC_ECC_UNDETECTED;
		bad += sc_code_decode(p, d, ch, true, NULL, NULL) != want;
		bad += sc_code_decode(p, d, ch, false, NULL, NULL) != want;
	}
	cr_expect_eq(bad, 0, "parity detects exactly the odd weights");
}

/* ---- minimum distance ---------------------------------------------------- */

static bool stop_at_codeword(const subset_t *x, void *ctx)
{
	(void)ctx;
	return x->s != 0;
}

Test(ecc, minimum_distance)
{
	for (sc_code_kind_t k = SC_CODE_PARITY; k < SC_CODE__COUNT; k++) {
		const sc_code_t *c = code(k);
		for (uint32_t w = 1; w < c->dist; w++)
			cr_expect(each_subset(c, w, stop_at_codeword, NULL), "%s: no %u columns sum to zero",
			          sc_code_name(k), w);
		cr_expect_not(each_subset(c, c->dist, stop_at_codeword, NULL), "%s: some %u columns sum to zero",
		              sc_code_name(k), c->dist);
	}
}
