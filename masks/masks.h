/* masks — the statistics of a fault-injection campaign and its fault masks:
 * the Leveugle sample size, Wilson intervals, FIT, a seeded random source, and
 * mask generation from the golden-run profile for the fault models.
 * Design: docs/DESIGN.md ("Data flow", "Campaign JSON", "Metrics").
 * Ownership: nothing here allocates; every result goes to caller-owned memory,
 * and the space a mask is drawn from (busy intervals included) stays the
 * caller's and is only read. Everything is deterministic and thread-safe. */
#ifndef MASKS_H
#define MASKS_H

#include <stdbool.h>
#include <stdint.h>

/* ---- errors: 0 on success, a negative code otherwise ------------------- */
#define MASK_ERR_LIST(X) X(INVAL, -1, "invalid argument")

enum {
#define X(name, code, text) MASK_E##name = code,
	MASK_ERR_LIST(X)
#undef X
};

/* Returns a static description of a MASK_E* code. */
const char *mask_strerror(int err);

/* ---- statistics (stats.c) ----------------------------------------------- */

/* Sample size of Leveugle et al. (DATE 2009) for a population of N fault
 * sites: n = N / (1 + e^2 (N-1) / (t^2 p (1-p))), with e = `margin`, t the
 * two-sided standard-normal quantile of `confidence` (1.96 at 0.95) and p the
 * expected failure proportion (0.5 when unknown: the largest n). population 0
 * (or +inf) means infinite: n = t^2 p (1-p) / e^2. The result is rounded up;
 * a value within 1e-9 (relative) above an integer counts as that integer, so
 * floating-point noise never adds a sample. Returns 0 and stores n in *n, or
 * MASK_EINVAL when confidence, margin or p lies outside (0, 1), population is
 * neither 0 nor >= 1, n is NULL, or the result does not fit in 64 bits. */
int mask_sample_size(double confidence, double margin, double population, double p, uint64_t *n);

/* Returns the inverse of the standard normal CDF at prob, with absolute error
 * below 1e-9 (Acklam's rational approximation refined by one Halley step
 * against erfc): 0.975 gives 1.959963985. prob 0 gives -inf, 1 gives +inf,
 * anything else outside [0, 1] (or NaN) gives NaN. Exactly odd about 0.5. */
double mask_normal_quantile(double prob);

/* Wilson score interval for k successes in n trials at two-sided `confidence`
 * (the interval DESIGN.md attaches to every AVF). Stores the bounds in *lo and
 * *hi, inside [0, 1]: exactly 0 below when k == 0 and exactly 1 above when
 * k == n. n == 0 gives [0, 1]; k > n or confidence outside (0, 1) gives
 * [NaN, NaN]. */
void mask_wilson(uint64_t k, uint64_t n, double confidence, double *lo, double *hi);

/* Returns FIT(structure) = avf * fit_per_bit * bits (GUFI section IV): the
 * failures per 10^9 device-hours of a structure of `bits` bits whose raw
 * upset rate is fit_per_bit (0.001 by default in campaigns). */
double mask_fit(double avf, double fit_per_bit, double bits);

/* ---- stratified and sequential sampling (stats.c) ---------------------- */

/* Equal allocation over nstrata strata: mask `index` belongs to stratum
 * index mod nstrata, so the first n masks give every stratum n / nstrata
 * masks or one more (the first n mod nstrata strata), whatever n is: a
 * campaign stopped, resumed or split at any index stays balanced.
 * mask_stratum returns 0 and mask_stratum_count n when nstrata is 0 or 1. */
uint32_t mask_stratum(uint64_t index, uint32_t nstrata);
/* How many of the masks 0 .. n-1 fall in stratum h (0 when h >= nstrata). */
uint64_t mask_stratum_count(uint64_t n, uint32_t nstrata, uint32_t h);

/* Sequential stopping by a group-sequential design with `looks` looks at
 * the campaign's interval: look j (0 .. looks-1) comes after the first
 * mask_look_n(nmax, looks, j) = ceil(nmax / 2^(looks-1-j)) masks (a
 * geometric schedule ending at nmax), and the campaign stops at the first
 * look whose interval is narrow enough (mask_stop_met), or at nmax. Each
 * look's interval is taken at the confidence mask_look_confidence gives,
 * 1 - (1 - confidence) / looks: by Bonferroni's inequality the chance that
 * any of the looks' intervals misses the AVF is at most 1 - confidence, so
 * the interval at whichever look stops still covers it at `confidence`
 * (however the stopping decision used the data). looks is 1 .. 20;
 * mask_look_n returns 0 for j >= looks, and nmax itself for looks <= 1. */
uint64_t mask_look_n(uint64_t nmax, uint32_t looks, uint32_t j);
double mask_look_confidence(double confidence, uint32_t looks);

/* The stopping rule: true when the interval [lo, hi] of estimate x has a
 * half-width (hi - lo) / 2 of at most `absolute` (when > 0) or of at most
 * `relative` × x (when > 0; never met while x is 0: no failure yet says
 * nothing about the relative error). NaN bounds never meet it. */
bool mask_stop_met(double x, double lo, double hi, double relative, double absolute);

/* ---- random numbers (mask.c) -------------------------------------------- */

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
typedef struct mask_rng {
	uint64_t s[4];
} mask_rng_t;

/* Seeds *r from (campaign seed, mask index) alone, so each mask has its own
 * stream and masks can be generated in any order. Scheme, with splitmix64's
 * step next(x) { x += 0x9e3779b97f4a7c15; return mix(x); } and its finaliser
 * mix(z) { z = (z ^ z>>30) * 0xbf58476d1ce4e5b9; z = (z ^ z>>27) *
 * 0x94d049bb133111eb; return z ^ z>>31; }:
 *     key = next(seed)              (first splitmix64 output from seed)
 *     x   = mix(key ^ index)        (a second splitmix64's starting state)
 *     s[0..3] = next(x) four times.
 * mix is a bijection, so for one seed distinct indexes give distinct starting
 * states, scattered over 2^64 values; streams overlap or collide only with
 * probability ~2^-64 per pair. The state is never all zero (four outputs of
 * a bijection on distinct inputs). */
void mask_rng_seed2(mask_rng_t *r, uint64_t seed, uint64_t index);

/* Seeds *r with four successive splitmix64 outputs from `seed`: the stream
 * of the workload JSON's "random" init (README, "Workload JSON"). */
void mask_rng_seed(mask_rng_t *r, uint64_t seed);

/* Returns the next 64 uniform bits of the stream and advances it. */
uint64_t mask_rng_next(mask_rng_t *r);

/* Returns a value uniform in [0, n) without bias (Lemire's multiply-shift
 * with rejection; usually one draw). n == 0 returns 0 and draws nothing. */
uint64_t mask_rng_below(mask_rng_t *r, uint64_t n);

/* ---- fault models and masks (mask.c) ------------------------------------ */

typedef enum {
	MASK_SINGLE = 0, /* one bit flip */
	MASK_ADJACENT,   /* k adjacent bits of one word flip together (k in 2..32) */
	MASK_MULTI,      /* k single-bit flips at k distinct cycles (k in 2..8) */
	MASK_VALUE,      /* a whole word takes a random value: XOR with `pattern` */
	MASK_ZERO,       /* a whole word is cleared (the XOR is its value then) */
	MASK_MCU,        /* one bit position in k words `interleave` words apart
	                    (k in 2..8): a multi-cell upset */
	MASK_STUCK       /* one bit stuck (permanent or intermittent: the
	                    runtime's model says which and at what value) */
} mask_kind_t;

typedef struct mask_model {
	mask_kind_t kind;
	uint32_t k;          /* ADJACENT: bits; MULTI: faults; MCU: words; else ignored */
	uint32_t interleave; /* MCU: words between two hit words (1: consecutive) */
	bool from_start;     /* STUCK: every fault starts at the busy union's first
	                        cycle instead of a drawn one */
} mask_model_t;

/* [start, end) in GPU cycles. */
typedef struct mask_interval {
	uint64_t start, end;
} mask_interval_t;

/* The space a campaign samples; the engine fills it from the golden-run
 * profile. Activation cycles are uniform over the union of `busy` (one kernel
 * invocation = GUFI mode 1, or every invocation = mode 2), the SM is uniform
 * over num_sms, and the location uniform over the SM's target bit space. */
typedef struct mask_space {
	const mask_interval_t *busy; /* sorted by start, disjoint; empty ones allowed */
	uint32_t nbusy;
	uint32_t num_sms;
	uint64_t bits_per_sm; /* size of one SM's (field-restricted) target bit space */
	uint32_t word_bits;   /* words are aligned groups of word_bits bits of that space;
	                         bits_per_sm is a multiple of it; needed by ADJACENT */
	bool live;            /* live sampling: the location is chosen at injection time
	                         among the bits in use then, so a fault's loc is a
	                         uniform 64-bit value and bits_per_sm is not used */
} mask_space_t;

/* Live sampling still draws the SM uniformly over num_sms: a mask depends on
 * (seed, index) alone and is stored before any run, so it cannot know which
 * SMs hold live bits at its cycle. A fault drawn on an SM with none is Masked
 * `unused` at once (nothing is simulated), and the estimator weighs every
 * experiment by live_bits / bits_per_sm of its SM and cycle (db/README.md,
 * "The estimator"), which counts such a draw as the zero it adds to the
 * physical AVF. Drawing the SM by live bits instead would save those samples
 * but make the mask depend on the golden run's occupancy. */

#define MASK_MAX_FAULTS 8

typedef struct mask_fault {
	uint64_t cycle; /* activation cycle, inside the busy union */
	uint32_t sm;    /* in [0, num_sms) */
	uint64_t loc;   /* physical: bit index in [0, bits_per_sm), the first (lowest)
	                   bit for ADJACENT; live: a uniform 64-bit value that the
	                   injector maps onto the live bits (e.g. loc % nlive, or
	                   Lemire's (loc * nlive) >> 64) */
	uint32_t nbits; /* 1, or k for ADJACENT: bits loc .. loc+k-1 flip;
	                   word_bits for VALUE and ZERO (loc is then a word's
	                   first bit, or a live draw) */
	uint64_t pattern; /* VALUE: the bits of the word to flip (uniform over
	                     the word_bits-bit values, so the word's new value
	                     is uniform and independent of the old one); 0 else */
} mask_fault_t;

typedef struct mask {
	uint64_t index;   /* the mask's index in its campaign */
	uint32_t nfaults; /* 1, or k for MULTI */
	mask_fault_t f[MASK_MAX_FAULTS]; /* sorted by cycle; unused entries zero */
} mask_t;

/* Generates mask `index` of the campaign (space, model, seed) into *out. The
 * mask depends on those four only, never on other masks, so a campaign can be
 * split across processes or resumed at any index. Draw order, from the
 * stream mask_rng_seed2(seed, index):
 *   SINGLE, ADJACENT: cycle, sm, then loc (physical ADJACENT: word, then the
 *     first bit uniform among the word_bits - k + 1 starts that keep all k
 *     bits inside that word; live: one 64-bit value);
 *   MULTI: k distinct cycles (Floyd's subset sampling, uniform over k-subsets
 *     of the busy union), sorted, then sm and loc of each fault in order;
 *   VALUE, ZERO: cycle, sm, loc (physical: a word, loc its first bit; live:
 *     one 64-bit value), then for VALUE the pattern (one 64-bit value, its
 *     low word_bits bits kept);
 *   MCU: cycle, sm, loc (physical: the first word uniform among the words
 *     whose k - 1 followers, interleave apart, stay inside the SM's space,
 *     then the bit uniform in the word; live: one 64-bit value);
 *   STUCK: cycle (none with from_start: the first busy cycle), sm, loc as
 *     SINGLE.
 * Cost is O(nbusy) per mask: the busy union is walked, not indexed.
 * Returns 0, or MASK_EINVAL (leaving *out untouched) when an argument is NULL,
 * the busy intervals are not sorted and disjoint or hold no cycle, num_sms is
 * 0, the model's k is out of range, MULTI asks for more cycles than the union
 * holds, or (physical) bits_per_sm is 0 or not a multiple of a non-zero
 * word_bits, or ADJACENT has word_bits < k (checked in live mode too when
 * word_bits is non-zero), VALUE and ZERO have no word_bits (or more than
 * 64), MCU has k outside 2..8, interleave 0 or (physical) no room for k
 * words interleave apart. */
int mask_generate(const mask_space_t *sp, const mask_model_t *model, uint64_t seed, uint64_t index,
                  mask_t *out);

#endif
