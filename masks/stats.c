/* The statistics of a campaign: Leveugle sample size, the normal quantile it
 * needs, Wilson score intervals and FIT. Formulas: masks.h and
 * docs/DESIGN.md ("Metrics"). */
#include <math.h>
#include <stdint.h>

#include "masks.h"

const char *mask_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) \
	case code: return text;
		MASK_ERR_LIST(X)
#undef X
	default: return "unknown error";
	}
}

/* Acklam's rational approximation of the normal quantile (relative error
 * below 1.15e-9) on (0, 0.5]: a central rational in (p - 0.5)^2 and a tail
 * rational in sqrt(-2 ln p), joined at P_LOW. */
#define P_LOW 0.02425

static const double qa[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
static const double qb[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
static const double qc[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00,  2.938163982698783e+00};
static const double qd[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};

static double lower_quantile(double p) /* 0 < p <= 0.5 */
{
	double x;
	if (p < P_LOW) {
		double q = sqrt(-2.0 * log(p));
		x = (((((qc[0] * q + qc[1]) * q + qc[2]) * q + qc[3]) * q + qc[4]) * q + qc[5]) /
		    ((((qd[0] * q + qd[1]) * q + qd[2]) * q + qd[3]) * q + 1.0);
	} else {
		double q = p - 0.5, r = q * q;
		x = (((((qa[0] * r + qa[1]) * r + qa[2]) * r + qa[3]) * r + qa[4]) * r + qa[5]) * q /
		    (((((qb[0] * r + qb[1]) * r + qb[2]) * r + qb[3]) * r + qb[4]) * r + 1.0);
	}
	/* One Halley step on Phi(x) - p. For x <= 0, Phi(x) = erfc(-x/sqrt2)/2
	 * has no cancellation, so the step reaches near machine precision. */
	double e = 0.5 * erfc(-x / sqrt(2.0)) - p;
	double u = e * 2.50662827463100050242 * exp(0.5 * x * x); /* sqrt(2 pi) */
	return x - u / (1.0 + 0.5 * x * u);
}

double mask_normal_quantile(double prob)
{
	if (!(prob >= 0.0 && prob <= 1.0))
		return NAN;
	if (prob == 0.0)
		return -INFINITY;
	if (prob == 1.0)
		return INFINITY;
	if (prob == 0.5)
		return 0.0;
	/* 1 - prob is exact for prob in [0.5, 1], so the upper half reuses the
	 * accurate lower tail and the function is odd about 0.5. */
	return prob < 0.5 ? lower_quantile(prob) : -lower_quantile(1.0 - prob);
}

/* Two-sided critical value: t with P(|Z| <= t) = confidence. */
static double two_sided(double confidence)
{
	return -mask_normal_quantile(0.5 * (1.0 - confidence));
}

static int open01(double x)
{
	return x > 0.0 && x < 1.0; /* false for NaN too */
}

int mask_sample_size(double confidence, double margin, double population, double p, uint64_t *n)
{
	if (!n || !open01(confidence) || !open01(margin) || !open01(p))
		return MASK_EINVAL;
	if (!(population == 0.0 || population >= 1.0)) /* rejects NaN and negatives */
		return MASK_EINVAL;
	double t = two_sided(confidence);
	double v = t * t * p * (1.0 - p); /* t^2 p (1-p) */
	double e2 = margin * margin;
	double x;
	if (population == 0.0 || isinf(population))
		x = v / e2;
	else
		x = population / (1.0 + e2 * (population - 1.0) / v);
	double c = ceil(x - x * 1e-9);
	if (c < 1.0)
		c = 1.0;
	if (!(c < 18446744073709551616.0)) /* 2^64 */
		return MASK_EINVAL;
	*n = (uint64_t)c;
	return 0;
}

void mask_wilson(uint64_t k, uint64_t n, double confidence, double *lo, double *hi)
{
	if (k > n || !open01(confidence)) {
		*lo = *hi = NAN;
		return;
	}
	if (n == 0) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	double z = two_sided(confidence), z2 = z * z;
	double nn = (double)n, ph = (double)k / nn;
	double denom = 1.0 + z2 / nn;
	double centre = (ph + z2 / (2.0 * nn)) / denom;
	double half = z / denom * sqrt(ph * (1.0 - ph) / nn + z2 / (4.0 * nn * nn));
	double l = centre - half, h = centre + half;
	*lo = k == 0 ? 0.0 : (l < 0.0 ? 0.0 : l);
	*hi = k == n ? 1.0 : (h > 1.0 ? 1.0 : h);
}

double mask_fit(double avf, double fit_per_bit, double bits)
{
	return avf * fit_per_bit * bits;
}

/* ---- stratified and sequential sampling ----------------------------------- */

uint32_t mask_stratum(uint64_t index, uint32_t nstrata)
{
	return nstrata > 1 ? (uint32_t)(index % nstrata) : 0;
}

uint64_t mask_stratum_count(uint64_t n, uint32_t nstrata, uint32_t h)
{
	if (nstrata <= 1)
		return h == 0 ? n : 0;
	if (h >= nstrata)
		return 0;
	return n / nstrata + (h < n % nstrata);
}

uint64_t mask_look_n(uint64_t nmax, uint32_t looks, uint32_t j)
{
	if (looks <= 1)
		return j == 0 ? nmax : 0;
	if (j >= looks)
		return 0;
	uint32_t shift = looks - 1 - j;
	if (shift >= 64)
		return nmax ? 1 : 0;
	uint64_t d = UINT64_C(1) << shift;
	return nmax / d + (nmax % d != 0);
}

double mask_look_confidence(double confidence, uint32_t looks)
{
	return looks <= 1 ? confidence : 1.0 - (1.0 - confidence) / looks;
}

bool mask_stop_met(double x, double lo, double hi, double relative, double absolute)
{
	if (isnan(x) || isnan(lo) || isnan(hi))
		return false;
	double half = (hi - lo) / 2.0;
	if (absolute > 0.0 && half <= absolute)
		return true;
	return relative > 0.0 && x > 0.0 && half <= relative * x;
}
