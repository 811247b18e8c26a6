/* Floating-point helpers shared by the C references of the fp_/cvt_/half_
 * conformance cases (tests/ptx/README.md, "Floating point"). Host float and
 * double arithmetic is IEEE 754 on x86-64 SSE; directed rounding goes through
 * fesetround around volatile operands (compile with -frounding-math). Formats
 * the host lacks (f16, bf16) are rounded by fp_round() from exact values. */
#ifndef REF_FP_H
#define REF_FP_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_common.h"

/* PTX rounding modifiers, in this order everywhere: .rn .rz .rm .rp
 * (integer rounding .rni .rzi .rmi .rpi uses the same index). */
enum { RN, RZ, RM, RP };

static const int fp_fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static inline void fp_setround(int m) { fesetround(fp_fe_mode[m]); }
static inline void fp_resetround(void) { fesetround(FE_TONEAREST); }

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* The kernels replace every NaN they output by these patterns, so no case
 * depends on NaN payloads (PTX leaves single-precision NaNs unspecified). */
#define CANON_NAN32 0x7fffffffu
#define CANON_NAN64 0x7fffffffffffffffull
#define CANON_NAN16 0x7fffu

static inline uint32_t canon32(float f) { return isnan(f) ? CANON_NAN32 : f2u(f); }
static inline uint64_t canon64(double d) { return isnan(d) ? CANON_NAN64 : d2u(d); }

/* .ftz: subnormal inputs and results become zero of the same sign. */
static inline float ftz32(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* .sat for f32 results: clamp to [0, 1], NaN -> +0. The kernels clear the
 * sign bit of saturated results, so the sign of a zero is never compared. */
static inline float sat32(float f)
{
	if (isnan(f) || f < 0.0f)
		return 0.0f;
	return f > 1.0f ? 1.0f : f;
}

/* IEEE operations in a given rounding mode. */
static inline float add32(float a, float b, int m)
{
	volatile float x = a, y = b, r;
	fp_setround(m); r = x + y; fp_resetround();
	return r;
}
static inline float sub32(float a, float b, int m)
{
	volatile float x = a, y = b, r;
	fp_setround(m); r = x - y; fp_resetround();
	return r;
}
static inline float mul32(float a, float b, int m)
{
	volatile float x = a, y = b, r;
	fp_setround(m); r = x * y; fp_resetround();
	return r;
}
static inline float div32(float a, float b, int m)
{
	volatile float x = a, y = b, r;
	fp_setround(m); r = x / y; fp_resetround();
	return r;
}
static inline float sqrt32(float a, int m)
{
	volatile float x = a, r;
	fp_setround(m); r = sqrtf(x); fp_resetround();
	return r;
}
static inline float fma32(float a, float b, float c, int m)
{
	volatile float x = a, y = b, z = c, r;
	fp_setround(m); r = fmaf(x, y, z); fp_resetround();
	return r;
}
static inline double add64(double a, double b, int m)
{
	volatile double x = a, y = b, r;
	fp_setround(m); r = x + y; fp_resetround();
	return r;
}
static inline double sub64(double a, double b, int m)
{
	volatile double x = a, y = b, r;
	fp_setround(m); r = x - y; fp_resetround();
	return r;
}
static inline double mul64(double a, double b, int m)
{
	volatile double x = a, y = b, r;
	fp_setround(m); r = x * y; fp_resetround();
	return r;
}
static inline double div64(double a, double b, int m)
{
	volatile double x = a, y = b, r;
	fp_setround(m); r = x / y; fp_resetround();
	return r;
}
static inline double sqrt64(double a, int m)
{
	volatile double x = a, r;
	fp_setround(m); r = sqrt(x); fp_resetround();
	return r;
}
static inline double fma64(double a, double b, double c, int m)
{
	volatile double x = a, y = b, z = c, r;
	fp_setround(m); r = fma(x, y, z); fp_resetround();
	return r;
}
static inline float d2f(double a, int m)
{
	volatile double x = a;
	volatile float r;
	fp_setround(m); r = (float)x; fp_resetround();
	return r;
}

/* Rounds the exact value (-1)^neg * mag * 2^exp to a binary format with
 * `prec` significand bits (hidden bit included) and `ebits` exponent bits,
 * IEEE style (subnormals, overflow to infinity or to the largest finite value
 * as the mode says), and returns its encoding. mag == 0 gives a zero of the
 * given sign. */
static inline uint64_t fp_round(int neg, unsigned __int128 mag, int exp, int prec, int ebits, int mode)
{
	const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, emax = bias;
	const uint64_t sign = (uint64_t)(neg != 0) << (prec - 1 + ebits);
	const uint64_t inf = sign | ((((uint64_t)1 << ebits) - 1) << (prec - 1));
	const uint64_t maxf = sign | ((((uint64_t)1 << ebits) - 2) << (prec - 1)) | (((uint64_t)1 << (prec - 1)) - 1);
	if (mag == 0)
		return sign;
	int p = 127;
	while (!((mag >> p) & 1))
		p--;
	int e = p + exp;                     /* value in [2^e, 2^(e+1)) */
	int q = e - (prec - 1);              /* exponent of the last kept bit */
	if (q < emin - (prec - 1))
		q = emin - (prec - 1);
	int shift = q - exp;
	uint64_t m;
	int up = 0;
	if (shift <= 0) {
		m = (uint64_t)(mag << -shift);
	} else {
		unsigned __int128 rem, half;
		if (shift >= 128) {
			m = 0;
			rem = mag;
			half = (unsigned __int128)1 << 127;   /* above any rem: below half */
			if (shift > 128)
				half = ~(unsigned __int128)0;
		} else {
			m = (uint64_t)(mag >> shift);
			rem = mag & (((unsigned __int128)1 << shift) - 1);
			half = (unsigned __int128)1 << (shift - 1);
		}
		switch (mode) {
		case RN: up = rem > half || (rem == half && (m & 1)); break;
		case RZ: up = 0; break;
		case RM: up = neg && rem != 0; break;
		default: up = !neg && rem != 0; break;
		}
	}
	m += (uint64_t)up;
	if (m == (uint64_t)1 << prec) {
		m >>= 1;
		q++;
	}
	if (m == 0)
		return sign;
	if (m < (uint64_t)1 << (prec - 1))   /* subnormal */
		return sign | m;
	int ef = q + prec - 1;
	if (ef > emax) {
		switch (mode) {
		case RN: return inf;
		case RZ: return maxf;
		case RM: return neg ? inf : maxf;
		default: return neg ? maxf : inf;
		}
	}
	return sign | ((uint64_t)(ef + bias) << (prec - 1)) | (m - ((uint64_t)1 << (prec - 1)));
}

/* Rounds a finite double, or infinity, to f16 (prec 11, ebits 5). NaN maps to
 * CANON_NAN16. For exact results of wider computations pass a value that is
 * either exact or rounded to odd (see rto_add64). */
static inline uint16_t f16_from_double(double v, int mode)
{
	if (isnan(v))
		return CANON_NAN16;
	if (isinf(v))
		return v < 0 ? 0xfc00 : 0x7c00;
	uint64_t b = d2u(v);
	int neg = (int)(b >> 63), be = (int)((b >> 52) & 0x7ff);
	uint64_t f = b & 0xfffffffffffffull;
	if (be == 0)
		return (uint16_t)fp_round(neg, f, -1074, 11, 5, mode);
	return (uint16_t)fp_round(neg, f | (1ull << 52), be - 1075, 11, 5, mode);
}

static inline double f16_to_double(uint16_t h)
{
	int neg = h >> 15, e = (h >> 10) & 31, f = h & 1023;
	double v;
	if (e == 31)
		v = f ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(f, -24);
	else
		v = ldexp(f | 1024, e - 25);
	return neg ? -v : v;
}

static inline int f16_isnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/* a + b correctly rounded to odd in double: exact when the sum fits, else
 * the truncated sum with its last bit set. Rounding that to a format with at
 * least two bits fewer gives the correctly rounded sum, in any mode. Exact
 * zero sums take their sign from rounding mode `m`, as IEEE says. */
static inline double rto_add64(double a, double b, int m)
{
	volatile double x = a, y = b, r;
	fesetround(FE_TOWARDZERO);
	feclearexcept(FE_INEXACT);
	r = x + y;
	int inexact = fetestexcept(FE_INEXACT) != 0;
	fp_resetround();
	if (r == 0.0 && !inexact)
		return add64(a, b, m);
	if (inexact && isfinite(r))
		r = u2d(d2u(r) | 1);
	return r;
}

/* Checks a condition while building the expected outputs; a failure means
 * the reference or its inputs are wrong, never the simulator. */
#define REF_CHECK(cond)                                                        \
	do {                                                                       \
		if (!(cond)) {                                                         \
			fprintf(stderr, "ref: %s:%d: check failed: %s\n", __FILE__,        \
			        __LINE__, #cond);                                          \
			exit(1);                                                           \
		}                                                                      \
	} while (0)

#endif
