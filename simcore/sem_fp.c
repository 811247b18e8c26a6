/* Floating-point semantics: add sub mul mad div abs neg min max on float
 * types and the FP unit (fma rcp sqrt rsqrt sin cos lg2 ex2 tanh copysign),
 * plus the f16/bf16 rounding helpers that sem_cmp.c shares. Interface:
 * sc_int.h ("Semantics interface"); semantics: the PTX ISA chapters
 * "Floating-Point Instructions" and "Half Precision Floating-Point". */

/* Numerics, where PTX leaves room or this file had to choose:
 * - f32/f64 rounded operations use host IEEE arithmetic; .rz .rm .rp wrap the
 *   lane loop in fesetround(), the .rn path never calls it.
 * - The .approx/.full variants are correctly rounded (div, rcp, sqrt), or
 *   computed in double and rounded once to f32 (rsqrt sin cos lg2 ex2 tanh).
 *   rsqrt.approx.f64 and rcp.approx.ftz.f64 are correctly rounded f64.
 * - NaN results: f32 gives the canonical 0x7fffffff, f16/bf16 0x7fff (PTX
 *   leaves single and half NaNs unspecified). f64 keeps payloads, as PTX
 *   says: the result is the first NaN operand (a, then b, then c) made
 *   quiet, and an invalid operation on numbers gives 0x7fffffffffffffff.
 *   abs/neg.f64 pass a NaN through unchanged; min/max give the canonical NaN
 *   of the type when both inputs are NaN; rcp/rsqrt.approx.ftz.f64 map NaN
 *   to 0x7fffffff00000000 as the ISA says.
 * - .ftz flushes subnormal inputs, and results after rounding, to zero of
 *   the same sign (f32; f16/bf16 where the bit is set); .sat clamps to
 *   [0, 1], NaN and negative results (-0 included) giving +0.
 * - f16/bf16 arithmetic rounds the exact (or innocuously double-rounded)
 *   result once to the half format, in the instruction's rounding mode.
 * - Modifiers PTX does not allow on an op are ignored, except a rounding
 *   mode where none (or another kind) is allowed: that returns -1. The
 *   helpers below take SC_RND_RN/RZ/RM/RP; any other value means RN. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "sc_int.h"

__extension__ typedef unsigned __int128 u128;

#define NAN32 0x7fffffffu
#define NAN64 0x7fffffffffffffffull
#define NAN64_APPROX 0x7fffffff00000000ull /* rcp/rsqrt.approx.ftz.f64 */
#define NAN16 0x7fffu
#define SIGN64 0x8000000000000000ull
#define EXP64 0x7ff0000000000000ull
#define QUIET64 0x0008000000000000ull

/* Iterates l over the lanes of x->mask (x must be in scope). */
#define LANES(...)                                                           \
	for (uint32_t m_ = x->mask; m_; m_ &= m_ - 1) {                          \
		const unsigned l = (unsigned)__builtin_ctz(m_);                      \
		__VA_ARGS__                                                          \
	}

static const int fe_modes[SC_RND_RP + 1] = {
	[SC_RND_NONE] = FE_TONEAREST, [SC_RND_RN] = FE_TONEAREST,
	[SC_RND_RZ] = FE_TOWARDZERO, [SC_RND_RM] = FE_DOWNWARD, [SC_RND_RP] = FE_UPWARD,
};

static inline bool isnan64(uint64_t u) { return (u & ~SIGN64) > EXP64; }

/* ---- f16 / bf16 ------------------------------------------------------- */

/* Rounds (-1)^neg * sig * 2^exp (sig != 0) to the binary format with mbits
 * stored significand bits and ebits exponent bits (at most 31 bits in all),
 * IEEE style: subnormals, and overflow to infinity or to the largest finite
 * value as the rounding mode says. Returns the encoding. */
static uint32_t round_pack(unsigned neg, uint64_t sig, int exp, unsigned mbits, unsigned ebits,
                           int rnd)
{
	const int bias = (1 << (ebits - 1)) - 1;
	const uint32_t sign = (uint32_t)neg << (mbits + ebits);
	const uint32_t inf = ((1u << ebits) - 1) << mbits;
	const int e = 63 - __builtin_clzll(sig) + exp; /* value in [2^e, 2^(e+1)) */
	uint32_t bits;

	if (e > bias)
		goto overflow;
	int q = e - (int)mbits; /* exponent of the last kept bit */
	if (q < 1 - bias - (int)mbits)
		q = 1 - bias - (int)mbits;
	const int shift = q - exp;
	uint64_t m;
	if (shift <= 0) {
		m = sig << -shift;
	} else {
		uint64_t rb, st;
		if (shift < 64) {
			m = sig >> shift;
			rb = (sig >> (shift - 1)) & 1;
			st = sig & ((1ull << (shift - 1)) - 1);
		} else {
			m = 0;
			rb = shift == 64 ? sig >> 63 : 0;
			st = shift == 64 ? sig & (~0ull >> 1) : sig;
		}
		switch (rnd) {
		case SC_RND_RZ: break;
		case SC_RND_RM: m += neg && (rb | st); break;
		case SC_RND_RP: m += !neg && (rb | st); break;
		default: m += rb && (st || (m & 1)); break;
		}
	}
	/* Subnormals have q + mbits + bias - 1 == 0; a significand that rounded
	 * up to the next power of two carries into the exponent by itself. */
	bits = (uint32_t)(((uint64_t)(q + (int)mbits + bias - 1) << mbits) + m);
	if (bits < inf)
		return sign | bits;
overflow:
	switch (rnd) {
	case SC_RND_RZ: return sign | (inf - 1);
	case SC_RND_RM: return sign | (neg ? inf : inf - 1);
	case SC_RND_RP: return sign | (neg ? inf - 1 : inf);
	default: return sign | inf;
	}
}

/* Rounds a double to a small format; NaN gives that format's canonical NaN. */
static uint32_t double_to_small(double v, unsigned mbits, unsigned ebits, int rnd)
{
	const uint64_t u = sc__bits64(v);
	const unsigned neg = (unsigned)(u >> 63);
	const int be = (int)((u >> 52) & 0x7ff);
	const uint64_t f = u & 0xfffffffffffffull;
	const uint32_t sign = (uint32_t)neg << (mbits + ebits);

	if (be == 0x7ff)
		return f ? ((1u << (mbits + ebits)) - 1) : sign | (((1u << ebits) - 1) << mbits);
	if (be == 0)
		return f ? round_pack(neg, f, -1074, mbits, ebits, rnd) : sign;
	return round_pack(neg, f | (1ull << 52), be - 1075, mbits, ebits, rnd);
}

float sc__half_to_float(uint16_t h)
{
	const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	const uint32_t e = (h >> 10) & 31, f = h & 1023u;

	if (e == 31) /* infinity, or NaN with its payload kept */
		return sc__f32_of(sign | 0x7f800000u | (f << 13) | (f ? 0x00400000u : 0));
	if (e == 0) /* zero or subnormal: f * 2^-24, exact in float */
		return (sign ? -1.0f : 1.0f) * ((float)f * 0x1p-24f);
	return sc__f32_of(sign | ((e + 112) << 23) | (f << 13));
}

/* f32 bits to f16 bits, round to nearest even, in integers only (the
 * fast path of sc__float_to_half; independent of the FPU's mode). */
static inline uint32_t f32_to_f16_rn(uint32_t u)
{
	const uint32_t sign = (u >> 16) & 0x8000u;
	uint32_t a = u & 0x7fffffffu;

	if (a >= 0x47800000u) /* >= 2^16: infinity, or NaN */
		return a > 0x7f800000u ? NAN16 : sign | 0x7c00u;
	if (a < 0x38800000u) { /* below 2^-14: an f16 subnormal or zero */
		if (a <= 0x33000000u) /* at most 2^-25, half the smallest: 0 */
			return sign;
		const uint32_t m = (a & 0x7fffffu) | 0x800000u; /* a = m 2^(e - 150) */
		const unsigned sh = 126 - (a >> 23);             /* units of 2^-24: 14..24 */
		const uint32_t rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
		uint32_t h = m >> sh;
		h += rem > half || (rem == half && (h & 1));
		return sign | h;
	}
	/* Rebias the exponent (127 -> 15) and round the 13 dropped bits: adding
	 * 0xfff plus the kept last bit carries exactly when they are above half,
	 * or at half with an odd last bit; a carry may run into the exponent, up
	 * to infinity. */
	a += (uint32_t)(15 - 127) * 0x800000u + 0xfffu + ((a >> 13) & 1);
	return sign | (a >> 13);
}

uint16_t sc__double_to_half(double f, int rnd) { return (uint16_t)double_to_small(f, 10, 5, rnd); }

uint16_t sc__float_to_half(float f, int rnd)
{
	if (rnd == SC_RND_RN || rnd == SC_RND_NONE)
		return (uint16_t)f32_to_f16_rn(sc__bits32(f));
	return sc__double_to_half((double)f, rnd);
}

float sc__bf16_to_float(uint16_t h) { return sc__f32_of((uint32_t)h << 16); }

/* f32 bits to bf16 bits, round to nearest even (carry as above). */
static inline uint32_t f32_to_bf16_rn(uint32_t u)
{
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return NAN16;
	return (u + 0x7fffu + ((u >> 16) & 1)) >> 16;
}

uint16_t sc__double_to_bf16(double f, int rnd) { return (uint16_t)double_to_small(f, 7, 8, rnd); }

uint16_t sc__float_to_bf16(float f, int rnd)
{
	if (rnd == SC_RND_RN || rnd == SC_RND_NONE)
		return (uint16_t)f32_to_bf16_rn(sc__bits32(f));
	return sc__double_to_bf16((double)f, rnd);
}

/* ---- f32 -------------------------------------------------------------- */

/* Reads an f32 operand; keep is 0x80000000 under .ftz (a subnormal becomes
 * a zero of its sign), all ones otherwise. */
static inline float in32(uint64_t v, uint32_t keep)
{
	uint32_t u = (uint32_t)v;
	if (!(u & 0x7f800000u))
		u &= keep;
	return sc__f32_of(u);
}

static uint32_t post32(uint32_t u, unsigned fl)
{
	if ((fl & SC_MOD_FTZ) && !(u & 0x7f800000u))
		u &= 0x80000000u;
	if (fl & SC_MOD_SAT) {
		if (u >= 0x80000000u || u == NAN32) /* negative, -0 or NaN */
			u = 0;
		else if (u > 0x3f800000u)
			u = 0x3f800000u;
	}
	return u;
}

/* Writes an f32 result: canonical NaN, then .ftz and .sat (fl). */
static inline uint64_t out32(float r, unsigned fl)
{
	uint32_t u = sc__bits32(r);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		u = NAN32;
	if (fl)
		u = post32(u, fl);
	return u;
}

/* min/max of f32 bit patterns (PTX: one NaN input gives the
 * other input, two give NaN; -0 < +0). Equal values are either identical
 * or zeros of both signs, where OR gives -0 and AND gives +0. */
static inline uint32_t min32(uint32_t a, uint32_t b)
{
	const bool na = (a & 0x7fffffffu) > 0x7f800000u, nb = (b & 0x7fffffffu) > 0x7f800000u;
	if (na | nb)
		return na && nb ? NAN32 : na ? b : a;
	const float fa = sc__f32_of(a), fb = sc__f32_of(b);
	return fa < fb ? a : fb < fa ? b : a | b;
}

static inline uint32_t max32(uint32_t a, uint32_t b)
{
	const bool na = (a & 0x7fffffffu) > 0x7f800000u, nb = (b & 0x7fffffffu) > 0x7f800000u;
	if (na | nb)
		return na && nb ? NAN32 : na ? b : a;
	const float fa = sc__f32_of(a), fb = sc__f32_of(b);
	return fa > fb ? a : fb > fa ? b : a & b;
}

/* The rounded f32 operations; false for other opcodes. Inlined twice, once
 * with constant flags (keep all ones, fl 0) for the common plain case. */
static inline __attribute__((always_inline)) bool f32_basic(sc_alu_t *x, unsigned op, uint32_t keep,
                                                            unsigned fl)
{
	switch (op) {
	case SC_OP_ADD:
		LANES(x->d[l] = out32(in32(x->a[l], keep) + in32(x->b[l], keep), fl);)
		return true;
	case SC_OP_SUB:
		LANES(x->d[l] = out32(in32(x->a[l], keep) - in32(x->b[l], keep), fl);)
		return true;
	case SC_OP_MUL:
		LANES(x->d[l] = out32(in32(x->a[l], keep) * in32(x->b[l], keep), fl);)
		return true;
	case SC_OP_MAD:
	case SC_OP_FMA:
		LANES(x->d[l] = out32(fmaf(in32(x->a[l], keep), in32(x->b[l], keep),
		                           in32(x->c[l], keep)), fl);)
		return true;
	case SC_OP_DIV:
		LANES(x->d[l] = out32(in32(x->a[l], keep) / in32(x->b[l], keep), fl);)
		return true;
	case SC_OP_RCP:
		LANES(x->d[l] = out32(1.0f / in32(x->a[l], keep), fl);)
		return true;
	case SC_OP_SQRT:
		LANES(x->d[l] = out32(sqrtf(in32(x->a[l], keep)), fl);)
		return true;
	default:
		return false;
	}
}

static int fp32(sc_alu_t *x, unsigned op, unsigned rnd)
{
	const unsigned mods = x->in->mods;
	const uint32_t keep = (mods & SC_MOD_FTZ) ? 0x80000000u : 0xffffffffu;
	const unsigned fl = mods & (SC_MOD_FTZ | SC_MOD_SAT);

	switch (op) {
	case SC_OP_MUL:
	case SC_OP_MAD:
		if (x->in->sub != SC_MUL_LO)
			return -1;
		break;
	case SC_OP_ADD:
	case SC_OP_SUB:
	case SC_OP_FMA:
		break;
	case SC_OP_DIV:
	case SC_OP_RCP:
	case SC_OP_SQRT:
		if ((mods & (SC_MOD_APPROX | SC_MOD_FULL)) && rnd != SC_RND_NONE)
			return -1;
		break;
	default:
		if (rnd != SC_RND_NONE)
			return -1;
		break;
	}

	const bool dir = rnd >= SC_RND_RZ;
	if (dir)
		fesetround(fe_modes[rnd]);
	if (!fl ? f32_basic(x, op, 0xffffffffu, 0) : f32_basic(x, op, keep, fl))
		goto done;
	switch (op) {
	case SC_OP_RSQRT:
		LANES(x->d[l] = out32((float)(1.0 / sqrt((double)in32(x->a[l], keep))), fl);)
		break;
	case SC_OP_SIN:
		LANES(x->d[l] = out32((float)sin((double)in32(x->a[l], keep)), fl);)
		break;
	case SC_OP_COS:
		LANES(x->d[l] = out32((float)cos((double)in32(x->a[l], keep)), fl);)
		break;
	case SC_OP_LG2:
		LANES(x->d[l] = out32((float)log2((double)in32(x->a[l], keep)), fl);)
		break;
	case SC_OP_EX2:
		LANES(x->d[l] = out32((float)exp2((double)in32(x->a[l], keep)), fl);)
		break;
	case SC_OP_TANH:
		LANES(x->d[l] = out32((float)tanh((double)in32(x->a[l], keep)), fl);)
		break;
	case SC_OP_ABS:
		LANES(x->d[l] = out32(sc__f32_of(sc__bits32(in32(x->a[l], keep)) & 0x7fffffffu), fl);)
		break;
	case SC_OP_NEG:
		LANES(x->d[l] = out32(sc__f32_of(sc__bits32(in32(x->a[l], keep)) ^ 0x80000000u), fl);)
		break;
	case SC_OP_MIN:
		LANES(x->d[l] = out32(sc__f32_of(min32(sc__bits32(in32(x->a[l], keep)),
		                                   sc__bits32(in32(x->b[l], keep)))), fl);)
		break;
	case SC_OP_MAX:
		LANES(x->d[l] = out32(sc__f32_of(max32(sc__bits32(in32(x->a[l], keep)),
		                                   sc__bits32(in32(x->b[l], keep)))), fl);)
		break;
	case SC_OP_COPYSIGN: /* a bit operation: payloads are kept */
		LANES(x->d[l] = ((uint32_t)x->a[l] & 0x80000000u) | ((uint32_t)x->b[l] & 0x7fffffffu);)
		break;
	default:
		if (dir)
			fesetround(FE_TONEAREST);
		return -1;
	}
done:
	if (dir)
		fesetround(FE_TONEAREST);
	return 0;
}

/* ---- f64 -------------------------------------------------------------- */

/* The NaN an f64 operation returns: the first NaN operand, quiet, or the
 * canonical NaN when the operands were numbers (c = 0 when absent). */
static uint64_t nan64(uint64_t a, uint64_t b, uint64_t c)
{
	if (isnan64(a))
		return a | QUIET64;
	if (isnan64(b))
		return b | QUIET64;
	if (isnan64(c))
		return c | QUIET64;
	return NAN64;
}

static inline uint64_t out64(double r, uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t u = sc__bits64(r);
	return isnan64(u) ? nan64(a, b, c) : u;
}

static inline uint64_t min64(uint64_t a, uint64_t b)
{
	const bool na = isnan64(a), nb = isnan64(b);
	if (na | nb)
		return na && nb ? NAN64 : na ? b : a;
	const double fa = sc__f64_of(a), fb = sc__f64_of(b);
	return fa < fb ? a : fb < fa ? b : a | b;
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	const bool na = isnan64(a), nb = isnan64(b);
	if (na | nb)
		return na && nb ? NAN64 : na ? b : a;
	const double fa = sc__f64_of(a), fb = sc__f64_of(b);
	return fa > fb ? a : fb > fa ? b : a & b;
}

/* Sign of M^2 * X - 2^160 for M < 2^54, X < 2^54 (never zero where used). */
static int m2x_above(uint64_t M, uint64_t X)
{
	const u128 s = (u128)M * M;
	const u128 p0 = (u128)(uint64_t)s * X;
	const u128 p1 = (u128)(uint64_t)(s >> 64) * X + (p0 >> 64);
	return p1 >= ((u128)1 << 96); /* M^2 X = p1 * 2^64 + low word */
}

/* 1/sqrt(v) correctly rounded to nearest, for finite v > 0. The quotient
 * of the host's two roundings is within an ulp or two; it is corrected by
 * comparing the true value with the midpoints next to it exactly in
 * integers: 1/sqrt(X) > m  <=>  m^2 X < 1. A midpoint (54 significant bits)
 * is never the exact value, so there are no ties. */
static double rsqrt_rn(double v)
{
	int e, k;
	const double f = frexp(v, &e); /* v = f 2^e, f in [0.5, 1) */
	double X;                      /* v = X 4^k, X in [1, 4) */

	if (e & 1) {
		X = 2 * f;
		k = (e - 1) / 2;
	} else {
		X = 4 * f;
		k = (e - 2) / 2;
	}
	if (X == 1.0)
		return ldexp(1.0, -k);
	/* Here 1/sqrt(X) is in (0.5, 1): y = Y 2^-53 with Y in [2^52, 2^53). */
	uint64_t Y = (uint64_t)ldexp(1.0 / sqrt(X), 53);
	const uint64_t Xi = (uint64_t)ldexp(X, 52); /* X = Xi 2^-52 */
	for (int i = 0; i < 8; i++) {               /* m = (2Y +- 1) 2^-54 */
		if (Y < (1ull << 53) - 1 && !m2x_above(2 * Y + 1, Xi))
			Y++;
		else if (Y > (1ull << 52) && m2x_above(2 * Y - 1, Xi))
			Y--;
		else
			break;
	}
	return ldexp((double)Y, -53 - k);
}

static uint64_t rsqrt64(uint64_t a, bool ftz)
{
	if (ftz) {
		if (!(a & EXP64))
			a &= SIGN64;
		if (isnan64(a))
			return NAN64_APPROX;
	} else if (isnan64(a)) {
		return a | QUIET64;
	}
	const double v = sc__f64_of(a);
	if (v == 0)
		return (a & SIGN64) | EXP64; /* 1/sqrt(-0) = -Inf */
	if (v < 0)
		return ftz ? NAN64_APPROX : NAN64;
	if (v == INFINITY)
		return 0;
	return sc__bits64(rsqrt_rn(v));
}

/* rcp.approx.ftz.f64: 1/a correctly rounded, subnormals flushed. */
static uint64_t rcp64_approx(uint64_t a)
{
	if (!(a & EXP64))
		a &= SIGN64;
	if (isnan64(a))
		return NAN64_APPROX;
	uint64_t u = sc__bits64(1.0 / sc__f64_of(a));
	if (!(u & EXP64))
		u &= SIGN64;
	return u;
}

static int fp64(sc_alu_t *x, unsigned op, unsigned rnd)
{
	const unsigned mods = x->in->mods;
	const bool approx = (mods & (SC_MOD_APPROX | SC_MOD_FULL)) != 0;

	switch (op) {
	case SC_OP_MUL:
	case SC_OP_MAD:
		if (x->in->sub != SC_MUL_LO)
			return -1;
		break;
	case SC_OP_ADD:
	case SC_OP_SUB:
	case SC_OP_FMA:
		break;
	case SC_OP_DIV:
	case SC_OP_SQRT:
		if (approx)
			return -1;
		break;
	case SC_OP_RCP: /* .approx means rcp.approx.ftz.f64 */
		if (approx && rnd != SC_RND_NONE)
			return -1;
		break;
	case SC_OP_RSQRT:
	case SC_OP_ABS:
	case SC_OP_NEG:
	case SC_OP_MIN:
	case SC_OP_MAX:
	case SC_OP_COPYSIGN:
		if (rnd != SC_RND_NONE)
			return -1;
		break;
	default:
		return -1;
	}

	const bool dir = rnd >= SC_RND_RZ;
	if (dir)
		fesetround(fe_modes[rnd]);
	switch (op) {
	case SC_OP_ADD:
		LANES(x->d[l] = out64(sc__f64_of(x->a[l]) + sc__f64_of(x->b[l]), x->a[l], x->b[l], 0);)
		break;
	case SC_OP_SUB:
		LANES(x->d[l] = out64(sc__f64_of(x->a[l]) - sc__f64_of(x->b[l]), x->a[l], x->b[l], 0);)
		break;
	case SC_OP_MUL:
		LANES(x->d[l] = out64(sc__f64_of(x->a[l]) * sc__f64_of(x->b[l]), x->a[l], x->b[l], 0);)
		break;
	case SC_OP_MAD:
	case SC_OP_FMA:
		LANES(x->d[l] = out64(fma(sc__f64_of(x->a[l]), sc__f64_of(x->b[l]), sc__f64_of(x->c[l])),
		                      x->a[l], x->b[l], x->c[l]);)
		break;
	case SC_OP_DIV:
		LANES(x->d[l] = out64(sc__f64_of(x->a[l]) / sc__f64_of(x->b[l]), x->a[l], x->b[l], 0);)
		break;
	case SC_OP_RCP:
		if (approx)
			LANES(x->d[l] = rcp64_approx(x->a[l]);)
		else
			LANES(x->d[l] = out64(1.0 / sc__f64_of(x->a[l]), x->a[l], 0, 0);)
		break;
	case SC_OP_SQRT:
		LANES(x->d[l] = out64(sqrt(sc__f64_of(x->a[l])), x->a[l], 0, 0);)
		break;
	case SC_OP_RSQRT: {
		const bool ftz = (mods & SC_MOD_FTZ) != 0;
		LANES(x->d[l] = rsqrt64(x->a[l], ftz);)
		break;
	}
	case SC_OP_ABS: /* PTX: a NaN passes through unchanged */
		LANES(x->d[l] = isnan64(x->a[l]) ? x->a[l] : x->a[l] & ~SIGN64;)
		break;
	case SC_OP_NEG:
		LANES(x->d[l] = isnan64(x->a[l]) ? x->a[l] : x->a[l] ^ SIGN64;)
		break;
	case SC_OP_MIN:
		LANES(x->d[l] = min64(x->a[l], x->b[l]);)
		break;
	case SC_OP_MAX:
		LANES(x->d[l] = max64(x->a[l], x->b[l]);)
		break;
	case SC_OP_COPYSIGN:
		LANES(x->d[l] = (x->a[l] & SIGN64) | (x->b[l] & ~SIGN64);)
		break;
	}
	if (dir)
		fesetround(FE_TONEAREST);
	return 0;
}

/* ---- f16, bf16 and their pairs ---------------------------------------- */

typedef struct hfmt {
	bool bf;          /* bf16, else f16 */
	uint32_t expmask; /* exponent field */
	uint32_t one;     /* 1.0 */
	uint32_t keep;    /* .ftz input mask, as in in32() */
	unsigned fl;      /* .ftz/.sat of the result */
	int rnd;
} hfmt_t;

static inline bool hisnan(uint32_t h, const hfmt_t *f)
{
	return (h & f->expmask) == f->expmask && (h & ~f->expmask & 0x7fffu);
}

/* The exact value of a 16-bit pattern (inputs are flushed by hop()). */
static inline double hdec(uint32_t h, const hfmt_t *f)
{
	return f->bf ? (double)sc__bf16_to_float((uint16_t)h) : (double)sc__half_to_float((uint16_t)h);
}

/* Rounds a double result to the half format. Products of halves are exact
 * in double; sums and fma results are exact unless one term lies far below
 * the other's last bit, where the double rounding (in the same direction, or
 * to nearest with 53 >= 2 * 11 + 2 bits) cannot move a half tie. */
static inline uint32_t henc(double v, const hfmt_t *f)
{
	return f->bf ? sc__double_to_bf16(v, f->rnd) : sc__double_to_half(v, f->rnd);
}

/* Canonical NaN, then .ftz and .sat of a half result. */
static uint32_t hpost(uint32_t h, const hfmt_t *f)
{
	if (hisnan(h, f))
		h = NAN16;
	if ((f->fl & SC_MOD_FTZ) && !(h & f->expmask))
		h &= 0x8000u;
	if (f->fl & SC_MOD_SAT) {
		if (h >= 0x8000u || h == NAN16)
			h = 0;
		else if (h > f->one)
			h = f->one;
	}
	return h;
}

static uint32_t hminmax(uint32_t a, uint32_t b, bool max, const hfmt_t *f)
{
	const bool na = hisnan(a, f), nb = hisnan(b, f);
	if (na | nb)
		return na && nb ? NAN16 : na ? b : a;
	const double fa = hdec(a, f), fb = hdec(b, f);
	if (max)
		return fa > fb ? a : fb > fa ? b : a & b;
	return fa < fb ? a : fb < fa ? b : a | b;
}

/* One element of a half operation; a, b, c are 16-bit patterns. */
static uint32_t hop(unsigned op, uint32_t a, uint32_t b, uint32_t c, const hfmt_t *f)
{
	if (!(a & f->expmask))
		a &= f->keep;
	if (!(b & f->expmask))
		b &= f->keep;
	if (!(c & f->expmask))
		c &= f->keep;
	switch (op) {
	case SC_OP_ADD: return henc(hdec(a, f) + hdec(b, f), f);
	case SC_OP_SUB: return henc(hdec(a, f) - hdec(b, f), f);
	case SC_OP_MUL: return henc(hdec(a, f) * hdec(b, f), f); /* exact */
	case SC_OP_MAD:
	case SC_OP_FMA: return henc(fma(hdec(a, f), hdec(b, f), hdec(c, f)), f);
	case SC_OP_EX2: return henc(exp2(hdec(a, f)), f);
	case SC_OP_TANH: return henc(tanh(hdec(a, f)), f);
	case SC_OP_ABS: return a & 0x7fffu;
	case SC_OP_NEG: return a ^ 0x8000u;
	case SC_OP_MIN: return hminmax(a, b, false, f);
	default: return hminmax(a, b, true, f);
	}
}

/* add/sub/mul to nearest: computed in float, which is exact or rounds
 * innocuously (24 >= 2 * 11 + 2 bits; products of halves, even bf16
 * subnormals, lose nothing that could move a half tie), then rounded to the
 * half format in integers. */
static inline float hf(uint32_t h, const hfmt_t *f)
{
	if (!(h & f->expmask))
		h &= f->keep;
	return f->bf ? sc__bf16_to_float((uint16_t)h) : sc__half_to_float((uint16_t)h);
}

static inline uint32_t hround(float r, const hfmt_t *f)
{
	const uint32_t h = f->bf ? f32_to_bf16_rn(sc__bits32(r)) : f32_to_f16_rn(sc__bits32(r));
	return f->fl ? hpost(h, f) : h;
}

static int hfast(sc_alu_t *x, unsigned op, bool pair, const hfmt_t *f)
{
	const unsigned n = pair ? 2 : 1;
#define HLOOP(expr)                                                          \
	LANES(                                                                   \
		uint32_t r = 0;                                                      \
		for (unsigned e = 0; e < n; e++) {                                   \
			const float a = hf((uint32_t)(x->a[l] >> (16 * e)) & 0xffffu, f); \
			const float b = hf((uint32_t)(x->b[l] >> (16 * e)) & 0xffffu, f); \
			r |= hround(expr, f) << (16 * e);                                \
		}                                                                    \
		x->d[l] = r;                                                         \
	)
	switch (op) {
	case SC_OP_ADD: HLOOP(a + b) break;
	case SC_OP_SUB: HLOOP(a - b) break;
	default: HLOOP(a * b) break;
	}
#undef HLOOP
	return 0;
}

static int fp16(sc_alu_t *x, unsigned op, unsigned rnd, unsigned type)
{
	const unsigned mods = x->in->mods;
	const bool pair = type == SC_T_F16X2 || type == SC_T_BF16X2;
	hfmt_t f = {
		.bf = type == SC_T_BF16 || type == SC_T_BF16X2,
		.keep = (mods & SC_MOD_FTZ) ? 0x8000u : 0xffffu,
		.fl = mods & (SC_MOD_FTZ | SC_MOD_SAT),
		.rnd = rnd == SC_RND_NONE ? SC_RND_RN : (int)rnd,
	};
	f.expmask = f.bf ? 0x7f80u : 0x7c00u;
	f.one = f.bf ? 0x3f80u : 0x3c00u;

	switch (op) {
	case SC_OP_MUL:
	case SC_OP_MAD:
		if (x->in->sub != SC_MUL_LO)
			return -1;
		break;
	case SC_OP_ADD:
	case SC_OP_SUB:
	case SC_OP_FMA:
		break;
	case SC_OP_EX2:
	case SC_OP_TANH:
	case SC_OP_ABS:
	case SC_OP_NEG:
	case SC_OP_MIN:
	case SC_OP_MAX:
		if (rnd != SC_RND_NONE)
			return -1;
		break;
	default:
		return -1;
	}

	if (f.rnd == SC_RND_RN && (op == SC_OP_ADD || op == SC_OP_SUB || op == SC_OP_MUL))
		return hfast(x, op, pair, &f);
	const bool dir = rnd >= SC_RND_RZ;
	if (dir)
		fesetround(fe_modes[rnd]);
	if (pair) {
		LANES(
			const uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l], c = (uint32_t)x->c[l];
			const uint32_t lo = hpost(hop(op, a & 0xffffu, b & 0xffffu, c & 0xffffu, &f), &f);
			const uint32_t hi = hpost(hop(op, a >> 16, b >> 16, c >> 16, &f), &f);
			x->d[l] = lo | hi << 16;
		)
	} else {
		LANES(x->d[l] = hpost(hop(op, x->a[l] & 0xffffu, x->b[l] & 0xffffu, x->c[l] & 0xffffu,
		                          &f), &f);)
	}
	if (dir)
		fesetround(FE_TONEAREST);
	return 0;
}

int sc__sem_fp(sc_alu_t *x)
{
	const sc_insn_t *in = x->in;
	const unsigned rnd = in->mods & SC_MOD_RND_MASK;

	if (rnd > SC_RND_RP) /* integer roundings belong to cvt only */
		return -1;
	switch (in->type) {
	case SC_T_F32: return fp32(x, in->op, rnd);
	case SC_T_F64: return fp64(x, in->op, rnd);
	case SC_T_F16:
	case SC_T_F16X2:
	case SC_T_BF16:
	case SC_T_BF16X2: return fp16(x, in->op, rnd, in->type);
	default: return -1;
	}
}
