/* Tests of masks/: Leveugle sample sizes, the normal quantile, Wilson
 * intervals and FIT against values computed independently (40-digit
 * arithmetic, other arrangements of the formulas), the seeded random stream,
 * and mask generation: determinism, order independence, uniformity, ranges
 * and every fault model. No timing, no files. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "masks.h"

/* ---- sample size ---------------------------------------------------------- */

static uint64_t sample_size(double conf, double margin, double pop, double p)
{
	uint64_t n = 0;
	cr_assert_eq(mask_sample_size(conf, margin, pop, p, &n), 0, "conf %g margin %g pop %g p %g",
	             conf, margin, pop, p);
	return n;
}

Test(masks, sample_size_infinite_population)
{
	cr_expect_eq(sample_size(0.99, 0.03, 0, 0.5), 1844); /* 1843.03 */
	cr_expect_eq(sample_size(0.95, 0.01, 0, 0.5), 9604); /* 9603.65 */
	cr_expect_eq(sample_size(0.95, 0.05, 0, 0.5), 385);  /* 384.15 */
	cr_expect_eq(sample_size(0.95, 0.05, 0, 0.1), 139);  /* 138.29 */
	cr_expect_eq(sample_size(0.999, 0.001, 0, 0.5), 2706892);
	cr_expect_eq(sample_size(0.99, 0.03, INFINITY, 0.5), 1844);
}

Test(masks, sample_size_finite_population)
{
	/* n = N / (1 + e^2 (N-1) / (t^2 p (1-p))), evaluated with 40 digits. */
	static const struct {
		double conf, margin, pop;
		uint64_t n;
	} cases[] = {
		{0.95, 0.05, 10000, 370},      /* 369.97 */
		{0.95, 0.05, 100, 80},         /* 79.51 */
		{0.99, 0.01, 1e6, 16317},      /* 16316.61 */
		{0.90, 0.02, 5000, 1264},      /* 1263.81 */
		{0.99, 0.03, 15728640, 1843},  /* GTX480 register file bits: 1842.81 */
		{0.95, 0.05, 1, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_expect_eq(sample_size(cases[i].conf, cases[i].margin, cases[i].pop, 0.5), cases[i].n,
		             "case %zu", i);
	/* A finite population never needs more samples than it has. */
	for (double pop = 1; pop < 2000; pop += 37)
		cr_expect_leq(sample_size(0.99, 0.01, pop, 0.5), (uint64_t)pop);
}

Test(masks, sample_size_bad_arguments)
{
	uint64_t n = 77;
	cr_expect_eq(mask_sample_size(0, 0.05, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(1, 0.05, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(1.5, 0.05, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 1, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, -0.1, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, 0, 0, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, 0, 1, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, -5, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, 0.5, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(NAN, 0.05, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, NAN, 0, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, NAN, 0.5, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, 0, NAN, &n), -1);
	cr_expect_eq(mask_sample_size(0.95, 0.05, 0, 0.5, NULL), -1);
	cr_expect_eq(mask_sample_size(0.999999, 1e-12, 0, 0.5, &n), -1); /* beyond 2^64 */
	cr_expect_eq(n, 77, "a failed call leaves *n alone");
	cr_expect_str_eq(mask_strerror(MASK_EINVAL), "invalid argument");
}

/* ---- normal quantile ---------------------------------------------------- */

Test(masks, quantile_known_values)
{
	/* Reference values with 20 digits (sqrt(2) erfinv(2p - 1), 40-digit). */
	static const struct {
		double p, x;
	} cases[] = {
		{0.975, 1.9599639845400542355},  {0.995, 2.575829303548900761},
		{0.9, 1.281551565544600467},     {0.999, 3.0902323061678135415},
		{0.001, -3.0902323061678135415}, {1e-10, -6.3613409024040562047},
		{0.02425, -1.9729610513118848503}, {0.3, -0.52440051270804078404},
		{0.84134474606854293, 0.99999999999999992319},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_expect(fabs(mask_normal_quantile(cases[i].p) - cases[i].x) < 1e-9, "p=%g: %.17g != %.17g",
		          cases[i].p, mask_normal_quantile(cases[i].p), cases[i].x);
	cr_expect_eq(mask_normal_quantile(0.5), 0.0);
	cr_expect(isinf(mask_normal_quantile(0)) && mask_normal_quantile(0) < 0);
	cr_expect(isinf(mask_normal_quantile(1)) && mask_normal_quantile(1) > 0);
	cr_expect(isnan(mask_normal_quantile(-0.1)));
	cr_expect(isnan(mask_normal_quantile(1.1)));
	cr_expect(isnan(mask_normal_quantile(NAN)));
}

Test(masks, quantile_symmetric_and_round_trip)
{
	/* Exactly odd where 1 - p is exact: p = j / 2^24. */
	for (double j = 1; j < (1 << 23); j = floor(j * 1.3) + 1) {
		double p = ldexp(j, -24);
		cr_assert_eq(mask_normal_quantile(p), -mask_normal_quantile(1 - p), "p=%g", p);
	}
	for (int i = 1; i < 1000; i++) {
		double p = i / 1000.0;
		double x = mask_normal_quantile(p);
		cr_expect(fabs(x + mask_normal_quantile(1 - p)) < 1e-12, "p=%g", p);
		/* Phi(x) = erfc(-x / sqrt 2) / 2 must give p back. */
		double back = 0.5 * erfc(-x / sqrt(2.0));
		cr_expect(fabs(back - p) < 1e-13, "p=%g back %.17g", p, back);
	}
	for (double p = 1e-300; p < 0.01; p *= 3.1) { /* the far tail, relatively */
		double back = 0.5 * erfc(-mask_normal_quantile(p) / sqrt(2.0));
		cr_expect(fabs(back - p) < 1e-12 * p, "p=%g back %.17g", p, back);
	}
}

/* ---- Wilson ----------------------------------------------------------------- */

/* The same interval in another arrangement: (2k + z^2 -+ z sqrt(z^2 + 4k(n-k)/n)) / (2(n + z^2)). */
static void wilson_alt(double k, double n, double z, double *lo, double *hi)
{
	double a = 2 * k + z * z, b = z * sqrt(z * z + 4 * k * (n - k) / n), d = 2 * (n + z * z);
	*lo = (a - b) / d;
	*hi = (a + b) / d;
}

Test(masks, wilson_known_values)
{
	static const struct {
		uint64_t k, n;
		double conf, lo, hi;
	} cases[] = {
		{0, 10, 0.95, 0.0, 0.2775327999},
		{5, 10, 0.95, 0.2365930905, 0.7634069095},
		{10, 10, 0.95, 0.7224672001, 1.0},
		{607, 10000, 0.95, 0.05618656282, 0.06555081814},
		{1, 1000, 0.99, 0.0001174163536, 0.00846056622},
		{96, 1000, 0.90, 0.08174888308, 0.1124312975},
		{3, 7, 0.95, 0.1582198553, 0.7495416355},
		{1843, 1844, 0.99, 0.9953977617, 0.9999363279},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double lo, hi;
		mask_wilson(cases[i].k, cases[i].n, cases[i].conf, &lo, &hi);
		cr_expect(fabs(lo - cases[i].lo) < 1e-4 && fabs(hi - cases[i].hi) < 1e-4,
		          "case %zu: [%.10f, %.10f]", i, lo, hi);
		cr_expect(fabs(lo - cases[i].lo) < 1e-9 && fabs(hi - cases[i].hi) < 1e-9,
		          "case %zu (tight): [%.10f, %.10f]", i, lo, hi);
	}
	double lo, hi;
	mask_wilson(0, 10, 0.95, &lo, &hi);
	cr_expect_eq(lo, 0.0);
	mask_wilson(10, 10, 0.95, &lo, &hi);
	cr_expect_eq(hi, 1.0);
}

Test(masks, wilson_against_other_arrangement)
{
	static const double confs[] = {0.9, 0.95, 0.99};
	static const uint64_t ns[] = {1, 2, 17, 385, 1844, 100000};
	for (size_t c = 0; c < 3; c++)
		for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
			for (uint64_t k = 0; k <= ns[j]; k += 1 + ns[j] / 13) {
				double lo, hi, alo, ahi;
				double z = mask_normal_quantile(0.5 + confs[c] / 2);
				mask_wilson(k, ns[j], confs[c], &lo, &hi);
				wilson_alt((double)k, (double)ns[j], z, &alo, &ahi);
				cr_expect(fabs(lo - alo) < 1e-12 && fabs(hi - ahi) < 1e-12,
				          "k=%lu n=%lu: [%g, %g] vs [%g, %g]", (unsigned long)k,
				          (unsigned long)ns[j], lo, hi, alo, ahi);
				cr_expect(lo >= 0 && lo <= (double)k / ns[j] && hi <= 1 && hi >= (double)k / ns[j]);
			}
}

Test(masks, wilson_edges)
{
	double lo, hi;
	mask_wilson(0, 0, 0.95, &lo, &hi);
	cr_expect(lo == 0 && hi == 1);
	mask_wilson(3, 2, 0.95, &lo, &hi);
	cr_expect(isnan(lo) && isnan(hi));
	mask_wilson(1, 2, 1.0, &lo, &hi);
	cr_expect(isnan(lo) && isnan(hi));
	mask_wilson(1, 2, 0.0, &lo, &hi);
	cr_expect(isnan(lo) && isnan(hi));
}

/* ---- FIT -------------------------------------------------------------------- */

Test(masks, fit_gufi_register_file)
{
	/* GTX480: 15 SMs x 32768 registers x 32 bits, AVF 6.07%, 0.001 FIT/bit:
	 * GUFI reports 955 FIT (exactly 954.728448). */
	double fit = mask_fit(0.0607, 0.001, 15.0 * 32768 * 32);
	cr_expect(fabs(fit - 954.728448) < 1e-6, "%.9f", fit);
	cr_expect_eq(lround(fit), 955);
	cr_expect_eq(mask_fit(0, 0.001, 1e9), 0.0);
	cr_expect(fabs(mask_fit(1, 0.001, 1000) - 1) < 1e-15);
}

/* ---- random numbers ------------------------------------------------------- */

Test(masks, rng_deterministic_per_seed_and_index)
{
	mask_rng_t a, b;
	mask_rng_seed2(&a, 42, 7);
	mask_rng_seed2(&b, 42, 7);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(mask_rng_next(&a), mask_rng_next(&b));

	/* Different indexes and seeds: first outputs all distinct. */
	enum { N = 2000 };
	static uint64_t first[2 * N];
	for (uint64_t i = 0; i < N; i++) {
		mask_rng_seed2(&a, 42, i);
		first[i] = mask_rng_next(&a);
		mask_rng_seed2(&a, 43, i);
		first[N + i] = mask_rng_next(&a);
	}
	for (int i = 0; i < 2 * N; i++)
		for (int j = i + 1; j < 2 * N; j++)
			cr_assert_neq(first[i], first[j], "streams %d and %d start alike", i, j);

	/* Seed and index are not interchangeable. */
	mask_rng_seed2(&a, 1, 2);
	mask_rng_seed2(&b, 2, 1);
	cr_expect_neq(mask_rng_next(&a), mask_rng_next(&b));
	cr_expect_neq(a.s[0] | a.s[1] | a.s[2] | a.s[3], 0);
}

Test(masks, rng_matches_published_algorithms)
{
	/* xoshiro256** reference sequence from state {1, 2, 3, 4}. */
	mask_rng_t r = {{1, 2, 3, 4}};
	static const uint64_t ref[] = {11520, 0, 1509978240, 1215971899390074240u};
	for (int i = 0; i < 4; i++)
		cr_expect_eq(mask_rng_next(&r), ref[i], "output %d", i);

	/* The documented seeding scheme, evaluated independently: a change here
	 * changes every campaign's masks. */
	static const struct {
		uint64_t seed, index, s[4], out[3];
	} pin[] = {
		{0, 0, {0x568a9b0b1a2c05ec, 0x44e5b8b147ef718b, 0x458563ab55521133, 0x7aec644539b6c0f9},
		 {0x30bb94d28b7ab90c, 0x16a17f40c767e533, 0xe3e4b8ec5f525c28}},
		{2024, 17, {0x1f86712dc261371c, 0x8caa88df0f41f061, 0x0b828a423315afd4, 0xaf0be3ae06408197},
		 {0xfd079ad74ba089d7, 0x552b0e57b1b2dee5, 0x07ce033e038b382b}},
		{0xdeadbeef, 123456789,
		 {0x52e41fe1ac12f3d9, 0x03211b6677fa2880, 0x191d14cf7cf20952, 0xdbe04ff8814a0e9e},
		 {0x68e8818b7c8f403f, 0xfd6e62afdb75f966, 0x24de5f6dd242c0d7}},
	};
	for (size_t i = 0; i < sizeof pin / sizeof pin[0]; i++) {
		mask_rng_seed2(&r, pin[i].seed, pin[i].index);
		for (int j = 0; j < 4; j++)
			cr_expect_eq(r.s[j], pin[i].s[j], "case %zu word %d", i, j);
		for (int j = 0; j < 3; j++)
			cr_expect_eq(mask_rng_next(&r), pin[i].out[j], "case %zu output %d", i, j);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

Test(masks, rng_seeded_states_share_no_word)
{
	/* An additive scheme (state = key + index * step) would hand index i+1
	 * the words of index i shifted by one; ours must not. */
	enum { N = 4000 };
	static uint64_t words[2 * N * 4];
	size_t n = 0;
	for (uint64_t seed = 42; seed <= 43; seed++)
		for (uint64_t i = 0; i < N; i++) {
			mask_rng_t r;
			mask_rng_seed2(&r, seed, i);
			for (int j = 0; j < 4; j++)
				words[n++] = r.s[j];
		}
	qsort(words, n, sizeof words[0], cmp_u64);
	for (size_t i = 1; i < n; i++)
		cr_assert_neq(words[i], words[i - 1]);
}

Test(masks, rng_neighbouring_streams_do_not_overlap)
{
	/* Index i's stream must not be index i+1's shifted by a few draws. */
	mask_rng_t a, b;
	uint64_t xa[64], xb[64];
	mask_rng_seed2(&a, 9, 100);
	mask_rng_seed2(&b, 9, 101);
	for (int i = 0; i < 64; i++) {
		xa[i] = mask_rng_next(&a);
		xb[i] = mask_rng_next(&b);
	}
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 64; j++)
			cr_assert_neq(xa[i], xb[j]);
}

Test(masks, rng_bits_balanced)
{
	mask_rng_t r;
	mask_rng_seed2(&r, 5, 0);
	int ones[64] = {0};
	enum { N = 20000 };
	for (int i = 0; i < N; i++) {
		uint64_t v = mask_rng_next(&r);
		for (int b = 0; b < 64; b++)
			ones[b] += (v >> b) & 1;
	}
	for (int b = 0; b < 64; b++) /* sd = 70.7: 6 sd */
		cr_expect(ones[b] > N / 2 - 425 && ones[b] < N / 2 + 425, "bit %d: %d", b, ones[b]);
}

/* Pearson's chi-square of `counts` against equal expectation. */
static double chi_square(const uint64_t *counts, int buckets, uint64_t total)
{
	double e = (double)total / buckets, x = 0;
	for (int i = 0; i < buckets; i++)
		x += (counts[i] - e) * (counts[i] - e) / e;
	return x;
}

Test(masks, rng_below_uniform_and_in_range)
{
	/* Bounds of 16 buckets: 15 degrees of freedom, P(chi2 > 50) ~ 1e-5; the
	 * seed is fixed, so the test is deterministic. */
	static const uint64_t ns[] = {16, 48, 1000003, 3ull << 62, UINT64_MAX, (1ull << 63) + 1};
	for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
		mask_rng_t r;
		mask_rng_seed2(&r, 12345, j);
		uint64_t counts[16] = {0};
		enum { N = 64000 };
		for (int i = 0; i < N; i++) {
			uint64_t v = mask_rng_below(&r, ns[j]);
			cr_assert_lt(v, ns[j]);
			/* Bucket by v * 16 / n, without overflow. */
			uint64_t b = ns[j] % 16 == 0 ? v / (ns[j] / 16)
			                             : (uint64_t)((double)v / (double)ns[j] * 16);
			counts[b > 15 ? 15 : b]++;
		}
		double x = chi_square(counts, 16, N);
		cr_expect_lt(x, 50.0, "n=%lu: chi2 %.2f", (unsigned long)ns[j], x);
	}

	/* Without Lemire's rejection, n = 3 * 2^62 maps two draws onto every
	 * value divisible by 3 and one onto the others: residues mod 3 would
	 * come out 1/2, 1/4, 1/4. */
	mask_rng_t r;
	mask_rng_seed2(&r, 77, 0);
	uint64_t res[3] = {0};
	for (int i = 0; i < 30000; i++)
		res[mask_rng_below(&r, 3ull << 62) % 3]++;
	cr_expect_lt(chi_square(res, 3, 30000), 20.0, "%lu %lu %lu", (unsigned long)res[0],
	             (unsigned long)res[1], (unsigned long)res[2]);

	mask_rng_seed2(&r, 1, 1);
	uint64_t counts[3] = {0};
	for (int i = 0; i < 30000; i++) {
		cr_assert_eq(mask_rng_below(&r, 1), 0);
		counts[mask_rng_below(&r, 3)]++;
	}
	cr_expect_lt(chi_square(counts, 3, 30000), 20.0);
	cr_expect_eq(mask_rng_below(&r, 0), 0);
}

/* ---- mask generation ------------------------------------------------------ */

static const mask_interval_t two_busy[] = {{1000, 1100}, {5000, 5300}};

static mask_space_t space(void)
{
	mask_space_t sp = {.busy = two_busy, .nbusy = 2, .num_sms = 15,
	                   .bits_per_sm = 32768 * 32, .word_bits = 32, .live = false};
	return sp;
}

static int in_busy(const mask_space_t *sp, uint64_t c)
{
	for (uint32_t i = 0; i < sp->nbusy; i++)
		if (c >= sp->busy[i].start && c < sp->busy[i].end)
			return 1;
	return 0;
}

static void check_mask(const mask_space_t *sp, const mask_model_t *mo, const mask_t *m)
{
	uint32_t want = mo->kind == MASK_MULTI ? mo->k : 1;
	cr_assert_eq(m->nfaults, want);
	for (uint32_t i = 0; i < m->nfaults; i++) {
		const mask_fault_t *f = &m->f[i];
		cr_assert(in_busy(sp, f->cycle), "cycle %lu outside the busy union", (unsigned long)f->cycle);
		cr_assert_lt(f->sm, sp->num_sms);
		cr_assert_eq(f->nbits, mo->kind == MASK_ADJACENT ? mo->k : 1);
		if (!sp->live)
			cr_assert_lt(f->loc, sp->bits_per_sm);
		if (!sp->live && mo->kind == MASK_ADJACENT)
			cr_assert_eq(f->loc / sp->word_bits, (f->loc + f->nbits - 1) / sp->word_bits,
			             "bits %lu..+%u cross a word", (unsigned long)f->loc, f->nbits);
		if (i > 0)
			cr_assert_lt(m->f[i - 1].cycle, f->cycle, "cycles not sorted and distinct");
	}
	for (uint32_t i = m->nfaults; i < MASK_MAX_FAULTS; i++)
		cr_assert(m->f[i].cycle == 0 && m->f[i].sm == 0 && m->f[i].loc == 0 && m->f[i].nbits == 0);
}

Test(masks, generate_deterministic_and_order_independent)
{
	mask_space_t sp = space();
	static const mask_model_t models[] = {{MASK_SINGLE, 0, 0, false}, {MASK_ADJACENT, 3, 0, false}, {MASK_MULTI, 4, 0, false}};
	enum { N = 1000 };
	static mask_t fwd[N], bwd[N];
	for (size_t mi = 0; mi < 3; mi++) {
		for (uint64_t i = 0; i < N; i++)
			cr_assert_eq(mask_generate(&sp, &models[mi], 2024, i, &fwd[i]), 0);
		for (uint64_t i = N; i-- > 0;)
			cr_assert_eq(mask_generate(&sp, &models[mi], 2024, i, &bwd[i]), 0);
		for (uint64_t i = 0; i < N; i++) {
			cr_assert_eq(memcmp(&fwd[i], &bwd[i], sizeof fwd[i]), 0, "model %zu mask %lu", mi,
			             (unsigned long)i);
			cr_assert_eq(fwd[i].index, i);
			check_mask(&sp, &models[mi], &fwd[i]);
		}
		/* Neighbouring masks and other seeds differ. */
		int same = 0;
		for (uint64_t i = 1; i < N; i++)
			same += fwd[i].f[0].cycle == fwd[i - 1].f[0].cycle && fwd[i].f[0].loc == fwd[i - 1].f[0].loc;
		cr_expect_eq(same, 0);
		mask_t other;
		cr_assert_eq(mask_generate(&sp, &models[mi], 2025, 0, &other), 0);
		cr_expect_neq(memcmp(&other, &fwd[0], sizeof other), 0);
	}
}

Test(masks, generate_cycles_uniform_over_busy_union)
{
	mask_space_t sp = space(); /* 100 + 300 cycles: 25% / 75% */
	mask_model_t mo = {MASK_SINGLE, 0, 0, false};
	enum { N = 40000 };
	uint64_t first = 0, buckets[16] = {0}, sms[15] = {0}, locs[16] = {0};
	for (uint64_t i = 0; i < N; i++) {
		mask_t m;
		cr_assert_eq(mask_generate(&sp, &mo, 7, i, &m), 0);
		check_mask(&sp, &mo, &m);
		uint64_t c = m.f[0].cycle;
		first += c < 1100;
		/* 16 buckets of 25 cycles over the union. */
		uint64_t off = c < 1100 ? c - 1000 : 100 + (c - 5000);
		buckets[off / 25]++;
		sms[m.f[0].sm]++;
		locs[m.f[0].loc / (sp.bits_per_sm / 16)]++;
	}
	double share = (double)first / N; /* sd 0.0022 */
	cr_expect(share > 0.24 && share < 0.26, "first interval share %.4f", share);
	cr_expect_lt(chi_square(buckets, 16, N), 50.0);
	cr_expect_lt(chi_square(sms, 15, N), 50.0);
	cr_expect_lt(chi_square(locs, 16, N), 50.0);
}

Test(masks, generate_covers_edges)
{
	/* Tiny space: every cycle, SM and bit must come up, ends included. */
	static const mask_interval_t busy[] = {{0, 2}, {2, 2}, {10, 13}};
	mask_space_t sp = {.busy = busy, .nbusy = 3, .num_sms = 3, .bits_per_sm = 5, .word_bits = 0};
	mask_model_t mo = {MASK_SINGLE, 0, 0, false};
	int seen_cycle[13] = {0}, seen_sm[3] = {0}, seen_loc[5] = {0};
	for (uint64_t i = 0; i < 500; i++) {
		mask_t m;
		cr_assert_eq(mask_generate(&sp, &mo, 1, i, &m), 0);
		check_mask(&sp, &mo, &m);
		seen_cycle[m.f[0].cycle] = 1;
		seen_sm[m.f[0].sm] = 1;
		seen_loc[m.f[0].loc] = 1;
	}
	for (int c = 0; c < 13; c++)
		cr_expect_eq(seen_cycle[c], c < 2 || c >= 10, "cycle %d", c);
	for (int s = 0; s < 3; s++)
		cr_expect(seen_sm[s]);
	for (int b = 0; b < 5; b++)
		cr_expect(seen_loc[b]);
}

Test(masks, generate_adjacent_stays_in_word)
{
	mask_space_t sp = space();
	sp.bits_per_sm = 12 * 32; /* 12 words of 32 bits */
	for (uint32_t k = 2; k <= 32; k++) {
		mask_model_t mo = {MASK_ADJACENT, k, 0, false};
		int seen_first[32] = {0};
		for (uint64_t i = 0; i < 400; i++) {
			mask_t m;
			cr_assert_eq(mask_generate(&sp, &mo, 3, i, &m), 0);
			check_mask(&sp, &mo, &m);
			seen_first[m.f[0].loc % 32] = 1;
		}
		/* Valid starts are 0 .. 32-k, and for small k all of them occur. */
		for (uint32_t s = 0; s < 32; s++)
			if (s > 32 - k)
				cr_expect_eq(seen_first[s], 0, "k=%u start %u", k, s);
			else if (k >= 24)
				cr_expect_eq(seen_first[s], 1, "k=%u start %u never drawn", k, s);
	}
	/* k == word_bits: the whole word. */
	sp.word_bits = 8;
	sp.bits_per_sm = 64;
	mask_model_t whole = {MASK_ADJACENT, 8, 0, false};
	for (uint64_t i = 0; i < 100; i++) {
		mask_t m;
		cr_assert_eq(mask_generate(&sp, &whole, 3, i, &m), 0);
		cr_expect_eq(m.f[0].loc % 8, 0);
	}
}

Test(masks, generate_multi_distinct_sorted)
{
	mask_space_t sp = space();
	for (uint32_t k = 2; k <= MASK_MAX_FAULTS; k++) {
		mask_model_t mo = {MASK_MULTI, k, 0, false};
		for (uint64_t i = 0; i < 500; i++) {
			mask_t m;
			cr_assert_eq(mask_generate(&sp, &mo, 11, i, &m), 0);
			check_mask(&sp, &mo, &m);
		}
	}
	/* A union of exactly k cycles must use all of them. */
	static const mask_interval_t busy[] = {{3, 5}, {9, 10}, {20, 25}};
	mask_space_t tight = {.busy = busy, .nbusy = 3, .num_sms = 1, .bits_per_sm = 32, .word_bits = 32};
	mask_model_t eight = {MASK_MULTI, 8, 0, false};
	static const uint64_t all[8] = {3, 4, 9, 20, 21, 22, 23, 24};
	for (uint64_t i = 0; i < 50; i++) {
		mask_t m;
		cr_assert_eq(mask_generate(&tight, &eight, 5, i, &m), 0);
		for (int j = 0; j < 8; j++)
			cr_assert_eq(m.f[j].cycle, all[j]);
	}
	/* Each k-subset equally likely: 2 of 4 cycles, 6 subsets. */
	static const mask_interval_t four[] = {{0, 4}};
	mask_space_t sp4 = {.busy = four, .nbusy = 1, .num_sms = 1, .bits_per_sm = 1};
	mask_model_t two = {MASK_MULTI, 2, 0, false};
	uint64_t pairs[16] = {0};
	for (uint64_t i = 0; i < 12000; i++) {
		mask_t m;
		cr_assert_eq(mask_generate(&sp4, &two, 5, i, &m), 0);
		pairs[m.f[0].cycle * 4 + m.f[1].cycle]++;
	}
	uint64_t sub[6];
	int n = 0;
	for (int a = 0; a < 4; a++)
		for (int b = a + 1; b < 4; b++)
			sub[n++] = pairs[a * 4 + b];
	cr_expect_lt(chi_square(sub, 6, 12000), 25.0);
}

Test(masks, generate_live_uses_full_64_bits)
{
	mask_space_t sp = space();
	sp.live = true;
	sp.bits_per_sm = 0; /* not used in live mode */
	static const mask_model_t models[] = {{MASK_SINGLE, 0, 0, false}, {MASK_ADJACENT, 4, 0, false}, {MASK_MULTI, 3, 0, false}};
	for (size_t mi = 0; mi < 3; mi++) {
		uint64_t any = 0, all = UINT64_MAX;
		int above32 = 0;
		for (uint64_t i = 0; i < 1000; i++) {
			mask_t m;
			cr_assert_eq(mask_generate(&sp, &models[mi], 8, i, &m), 0);
			check_mask(&sp, &models[mi], &m);
			for (uint32_t j = 0; j < m.nfaults; j++) {
				any |= m.f[j].loc;
				all &= m.f[j].loc;
				above32 += m.f[j].loc > UINT32_MAX;
			}
		}
		cr_expect_eq(any, UINT64_MAX, "some bit never set");
		cr_expect_eq(all, 0, "some bit always set");
		cr_expect_gt(above32, 900);
	}
}

Test(masks, generate_invalid_inputs)
{
	mask_t m, untouched;
	memset(&m, 0xab, sizeof m);
	untouched = m;
	mask_space_t good = space();
	mask_model_t single = {MASK_SINGLE, 0, 0, false};
	cr_assert_eq(mask_generate(&good, &single, 1, 0, &m), 0);
	memset(&m, 0xab, sizeof m);

	cr_expect_eq(mask_generate(NULL, &single, 1, 0, &m), -1);
	cr_expect_eq(mask_generate(&good, NULL, 1, 0, &m), -1);
	cr_expect_eq(mask_generate(&good, &single, 1, 0, NULL), -1);

	mask_space_t sp = good;
	sp.busy = NULL;
	cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1);
	sp = good;
	sp.nbusy = 0;
	cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1);
	sp = good;
	sp.num_sms = 0;
	cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1);
	sp = good;
	sp.bits_per_sm = 0;
	cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1);
	sp = good;
	sp.bits_per_sm = 100; /* not a multiple of 32 */
	cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1);

	static const mask_interval_t unsorted[] = {{50, 60}, {10, 20}};
	static const mask_interval_t overlap[] = {{10, 20}, {15, 30}};
	static const mask_interval_t reversed[] = {{20, 10}};
	static const mask_interval_t empty[] = {{5, 5}, {9, 9}};
	const mask_interval_t *bad[] = {unsorted, overlap, reversed, empty};
	const uint32_t nbad[] = {2, 2, 1, 2};
	for (int i = 0; i < 4; i++) {
		sp = good;
		sp.busy = bad[i];
		sp.nbusy = nbad[i];
		cr_expect_eq(mask_generate(&sp, &single, 1, 0, &m), -1, "busy case %d", i);
	}

	static const mask_model_t bad_models[] = {
		{MASK_ADJACENT, 0, 0, false}, {MASK_ADJACENT, 1, 0, false}, {MASK_ADJACENT, 33, 0, false},
		{MASK_MULTI, 0, 0, false},    {MASK_MULTI, 1, 0, false},    {MASK_MULTI, 9, 0, false},
		{(mask_kind_t)99, 1, 0, false},     {MASK_MCU, 1, 0, false},      {MASK_MCU, 9, 0, false},
	};
	for (size_t i = 0; i < sizeof bad_models / sizeof bad_models[0]; i++)
		cr_expect_eq(mask_generate(&good, &bad_models[i], 1, 0, &m), -1, "model %zu", i);

	/* ADJACENT: k <= 32 even in wider words, and words at least k bits wide. */
	sp = good;
	sp.word_bits = 64;
	mask_model_t adj33 = {MASK_ADJACENT, 33, 0, false}, adj32 = {MASK_ADJACENT, 32, 0, false};
	cr_expect_eq(mask_generate(&sp, &adj33, 1, 0, &m), -1);
	cr_expect_eq(mask_generate(&sp, &adj32, 1, 0, &untouched), 0);
	memset(&untouched, 0xab, sizeof untouched);
	mask_model_t adj = {MASK_ADJACENT, 4, 0, false};
	sp = good;
	sp.word_bits = 0;
	cr_expect_eq(mask_generate(&sp, &adj, 1, 0, &m), -1);
	sp.word_bits = 2;
	cr_expect_eq(mask_generate(&sp, &adj, 1, 0, &m), -1);
	sp.live = true;
	cr_expect_eq(mask_generate(&sp, &adj, 1, 0, &m), -1);
	sp.word_bits = 0; /* live, word size left to the injector */
	cr_expect_eq(mask_generate(&sp, &adj, 1, 0, &untouched), 0);
	memset(&untouched, 0xab, sizeof untouched);

	/* MULTI needs k distinct cycles. */
	static const mask_interval_t three[] = {{0, 2}, {7, 8}};
	sp = good;
	sp.busy = three;
	sp.nbusy = 2;
	mask_model_t multi4 = {MASK_MULTI, 4, 0, false}, multi3 = {MASK_MULTI, 3, 0, false};
	cr_expect_eq(mask_generate(&sp, &multi4, 1, 0, &m), -1);
	cr_expect_eq(memcmp(&m, &untouched, sizeof m), 0, "failed calls leave *out alone");
	cr_expect_eq(mask_generate(&sp, &multi3, 1, 0, &m), 0);
}

/* ---- value, MCU and stuck-at models ------------------------------------------ */

/* n masks of one model: reproducible from (seed, index), whole words. */
static void gen_all(const mask_space_t *sp, const mask_model_t *mo, uint64_t seed, mask_t *m, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		mask_t again;
		cr_assert_eq(mask_generate(sp, mo, seed, i, &m[i]), 0, "mask %u", i);
		cr_assert_eq(mask_generate(sp, mo, seed, i, &again), 0);
		cr_assert_eq(memcmp(&m[i], &again, sizeof again), 0, "mask %u is not a function of (seed, index)", i);
		cr_assert_eq(m[i].nfaults, 1);
		cr_assert(in_busy(sp, m[i].f[0].cycle));
		cr_assert_lt(m[i].f[0].sm, sp->num_sms);
	}
}

Test(masks, generate_value_and_zero_cover_whole_words)
{
	static mask_t m[2000];
	mask_space_t sp = space();
	mask_model_t value = {.kind = MASK_VALUE}, zero = {.kind = MASK_ZERO};
	gen_all(&sp, &value, 5, m, 2000);
	uint32_t high = 0, ones = 0;
	for (uint32_t i = 0; i < 2000; i++) {
		const mask_fault_t *f = &m[i].f[0];
		cr_assert_eq(f->loc % 32, 0, "a value fault starts at its word's first bit");
		cr_assert_lt(f->loc, sp.bits_per_sm);
		cr_assert_eq(f->nbits, 32);
		cr_assert_lt(f->pattern, UINT64_C(1) << 32, "the pattern stays inside the word");
		high += f->pattern >> 31 & 1;
		ones += (uint32_t)__builtin_popcountll(f->pattern);
	}
	/* uniform patterns: each bit set half the time (4-sigma bounds) */
	cr_expect(high > 1000 - 90 && high < 1000 + 90, "bit 31 set in %u of 2000", high);
	cr_expect(ones > 32000 - 360 && ones < 32000 + 360, "%u bits set of 64000", ones);
	gen_all(&sp, &zero, 5, m, 200);
	for (uint32_t i = 0; i < 200; i++)
		cr_assert(m[i].f[0].loc % 32 == 0 && m[i].f[0].nbits == 32 && m[i].f[0].pattern == 0);
	/* 64-bit words (fu): the pattern uses all 64 bits; live: a 64-bit draw */
	sp.word_bits = 64;
	gen_all(&sp, &value, 5, m, 200);
	uint32_t above = 0;
	for (uint32_t i = 0; i < 200; i++)
		above += m[i].f[0].pattern >> 32 != 0;
	cr_expect_gt(above, 150);
	sp.word_bits = 0;
	cr_expect_eq(mask_generate(&sp, &value, 5, 0, &m[0]), -1, "a value model needs words");
}

Test(masks, generate_mcu_leaves_room_for_its_words)
{
	static mask_t m[3000];
	/* 64 words of 8 bits: 3 words 10 apart start in words 0..43 */
	mask_space_t sp = {.busy = two_busy, .nbusy = 2, .num_sms = 2, .bits_per_sm = 64 * 8, .word_bits = 8};
	mask_model_t mcu = {.kind = MASK_MCU, .k = 3, .interleave = 10};
	gen_all(&sp, &mcu, 9, m, 3000);
	uint32_t last = 0, seen_bit[8] = {0};
	for (uint32_t i = 0; i < 3000; i++) {
		const mask_fault_t *f = &m[i].f[0];
		uint64_t word = f->loc / 8;
		cr_assert_leq(word + 2 * 10, 63, "the third word %lu is past the space", (unsigned long)(word + 20));
		cr_assert_eq(f->nbits, 1);
		last += word == 43;
		seen_bit[f->loc % 8]++;
	}
	cr_expect_gt(last, 0, "the last start that fits is drawn");
	for (int b = 0; b < 8; b++)
		cr_expect_gt(seen_bit[b], 250, "bit %d drawn %u times", b, seen_bit[b]);
	mcu.interleave = 32; /* 2 * 32 = 64 words: no room */
	cr_expect_eq(mask_generate(&sp, &mcu, 9, 0, &m[0]), -1);
	mcu.interleave = 0;
	cr_expect_eq(mask_generate(&sp, &mcu, 9, 0, &m[0]), -1);
	sp.live = true; /* live: the runtime places the words */
	mcu.interleave = 32;
	cr_expect_eq(mask_generate(&sp, &mcu, 9, 0, &m[0]), 0);
}

Test(masks, generate_stuck_from_a_cycle_or_from_the_start)
{
	static mask_t m[500];
	mask_space_t sp = space();
	mask_model_t stuck = {.kind = MASK_STUCK}, start = {.kind = MASK_STUCK, .from_start = true};
	mask_model_t single = {.kind = MASK_SINGLE};
	gen_all(&sp, &stuck, 2, m, 500);
	uint32_t distinct = 0;
	for (uint32_t i = 0; i < 500; i++) {
		mask_t s;
		cr_assert_eq(mask_generate(&sp, &single, 2, i, &s), 0);
		cr_assert_eq(memcmp(&s.f[0], &m[i].f[0], sizeof s.f[0]), 0, "stuck_at draws as single");
		distinct += i && m[i].f[0].cycle != m[i - 1].f[0].cycle;
	}
	cr_expect_gt(distinct, 400);
	gen_all(&sp, &start, 2, m, 500);
	for (uint32_t i = 0; i < 500; i++) {
		cr_assert_eq(m[i].f[0].cycle, 1000, "from the start: the first busy cycle");
		cr_assert_lt(m[i].f[0].loc, sp.bits_per_sm);
	}
}

/* ---- stratified and sequential sampling ----------------------------------- */

/* Equal allocation by index: every prefix of the masks is balanced, so a
 * campaign stopped or split at any index keeps each stratum's share. */
Test(masks, strata_equal_allocation_at_every_prefix)
{
	for (uint32_t h = 0; h < 7; h++)
		cr_expect_eq(mask_stratum(h + 7 * 1000, 7), h);
	cr_expect_eq(mask_stratum(12345, 0), 0);
	cr_expect_eq(mask_stratum(12345, 1), 0);
	for (uint64_t n = 0; n < 200; n++) {
		uint64_t counted[5] = {0}, sum = 0;
		for (uint64_t i = 0; i < n; i++)
			counted[mask_stratum(i, 5)]++;
		for (uint32_t h = 0; h < 5; h++) {
			cr_assert_eq(mask_stratum_count(n, 5, h), counted[h], "n %lu h %u", (unsigned long)n, h);
			cr_assert(counted[h] == n / 5 || counted[h] == n / 5 + 1);
			sum += counted[h];
		}
		cr_assert_eq(sum, n);
	}
	cr_expect_eq(mask_stratum_count(10, 5, 5), 0, "no such stratum");
	cr_expect_eq(mask_stratum_count(10, 1, 0), 10);
	cr_expect_eq(mask_stratum_count(10, 0, 0), 10);
}

/* The looks: a geometric schedule ending at the maximum, never past it,
 * and Bonferroni's confidence per look. */
Test(masks, look_schedule_and_confidence)
{
	static const uint64_t want[] = {250, 500, 1000, 2000, 4000};
	for (uint32_t j = 0; j < 5; j++)
		cr_expect_eq(mask_look_n(4000, 5, j), want[j]);
	cr_expect_eq(mask_look_n(4000, 5, 5), 0, "no sixth look");
	cr_expect_eq(mask_look_n(1000, 4, 0), 125);
	cr_expect_eq(mask_look_n(1001, 4, 0), 126, "rounded up");
	cr_expect_eq(mask_look_n(3, 5, 0), 1, "at least one mask");
	cr_expect_eq(mask_look_n(777, 1, 0), 777);
	for (uint32_t looks = 1; looks <= 20; looks++)
		for (uint32_t j = 0; j < looks; j++) {
			uint64_t n = mask_look_n(10000000, looks, j);
			cr_assert_leq(n, 10000000);
			cr_assert(j == 0 || n > mask_look_n(10000000, looks, j - 1));
		}
	cr_expect_float_eq(mask_look_confidence(0.95, 5), 0.99, 1e-15);
	cr_expect_eq(mask_look_confidence(0.95, 1), 0.95);
	cr_expect_eq(mask_look_confidence(0.95, 0), 0.95);
}

/* The rule on fabricated outcomes: one failure in every ten masks (k/n =
 * 0.1 at each look), at most 3200 masks in 5 looks (200, 400, 800, 1600,
 * 3200), a 99 % interval per look (95 % over the 5). Half-widths, Wilson at
 * z = 2.5758: 0.0553 (0.55 of the estimate), 0.0389 (0.39), 0.0274 (0.27),
 * 0.0193 (0.19): a relative margin of 0.25 stops at 1600, 0.30 at 800, 0.01
 * only at the maximum, never past it; an absolute 0.02 at 1600. Without
 * failures a relative margin is never met, an absolute one of 0.05 at the
 * first look (the interval is [0, 0.032]). */
static uint64_t stop_at(uint64_t nmax, uint32_t looks, int every, double rel, double abs)
{
	for (uint32_t j = 0; j < looks; j++) {
		uint64_t n = mask_look_n(nmax, looks, j), k = every ? n / (uint64_t)every : 0;
		double lo, hi;
		mask_wilson(k, n, mask_look_confidence(0.95, looks), &lo, &hi);
		if (mask_stop_met((double)k / (double)n, lo, hi, rel, abs))
			return n;
	}
	return nmax;
}

Test(masks, stop_rule_on_fabricated_outcomes)
{
	cr_expect_eq(stop_at(3200, 5, 10, 0.25, 0), 1600);
	cr_expect_eq(stop_at(3200, 5, 10, 0.30, 0), 800);
	cr_expect_eq(stop_at(3200, 5, 10, 0.01, 0), 3200, "the maximum, never past it");
	cr_expect_eq(stop_at(3200, 5, 0, 0.5, 0), 3200, "no failure: a relative margin is never met");
	cr_expect_eq(stop_at(3200, 5, 0, 0, 0.05), 200);
	cr_expect_eq(stop_at(3200, 5, 10, 0, 0.02), 1600);
	cr_expect(mask_stop_met(0.1, 0.08, 0.12, 0.2, 0), "half-width 0.02 = 0.2 x 0.1");
	cr_expect(!mask_stop_met(0.1, 0.08, 0.1201, 0.2, 0));
	cr_expect(!mask_stop_met(0.0, 0.0, 0.001, 0.5, 0));
	cr_expect(mask_stop_met(0.0, 0.0, 0.001, 0, 0.001));
	cr_expect(!mask_stop_met(NAN, 0.0, 0.001, 0, 0.5), "no estimate yet");
	cr_expect(!mask_stop_met(0.1, 0.0, 1.0, 0, 0), "no margin: never");
}
