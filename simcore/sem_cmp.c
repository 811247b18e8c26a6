/* Comparison, selection and conversion semantics: setp set selp slct testp
 * cvt. Interface: sc_int.h ("Semantics interface"); semantics: the PTX ISA,
 * "Comparison and Selection Instructions", "Half Precision Comparison
 * Instructions" and "cvt". */

/* Choices where PTX leaves room, or where this file is lenient:
 * - cvt to a signed integer type returns the result sign-extended to 64
 *   bits, because PTX sign-extends a signed cvt result to the width of the
 *   destination register (cvt.s8.s32 of -1 into a .b32 register gives
 *   0xffffffff); the caller keeps the register's width. Unsigned and float
 *   results are zero-extended.
 * - A missing rounding modifier where PTX requires one means .rn for
 *   int->float and narrowing float->float, and .rzi (C truncation) for
 *   float->int. A rounding of the wrong kind (.rni on int->float, .rn on
 *   float->int, any on int->int or on a same-type cvt) is rejected (-1);
 *   a float rounding on an exact widening conversion is ignored.
 * - cvt NaN results: f32, f16 and bf16 destinations get the canonical NaN
 *   (0x7fffffff, 0x7fff); an f64 destination keeps the source payload, made
 *   quiet. float->int NaN follows the ISA: 0, or 1 << (width - 1) when the
 *   source is f64 or the destination 64 bits wide.
 * - .ftz applies to f32 inputs and results; .sat on a float destination
 *   clamps to [0, 1] with NaN and negative values (-0 included) giving +0.
 * - Ordering comparisons (lt le gt ge) on .b types compare unsigned.
 * - setp on f16x2/bf16x2 sets p from the low elements and q from the high
 *   ones (PTX "p|q"); set with such a source packs a result per element. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "sc_int.h"

#define NAN32 0x7fffffffu
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

/* The low `bits` (8..64) of v, sign-extended when sgn, else zero-extended. */
static inline uint64_t ival(uint64_t v, unsigned bits, bool sgn)
{
	const unsigned sh = 64 - bits;
	return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

static bool is_int(unsigned t) { return t >= SC_T_U8 && t <= SC_T_S64; }
static bool is_bits_int(unsigned t) { return t >= SC_T_B16 && t <= SC_T_S64 && t != SC_T_U8 && t != SC_T_S8; }
static bool is_scalar_float(unsigned t)
{
	return t == SC_T_F16 || t == SC_T_BF16 || t == SC_T_F32 || t == SC_T_F64;
}

/* Types selp and slct move: .b/.u/.s 16 to 64 bits, .f32, .f64. */
static bool is_sel_type(unsigned t)
{
	return is_bits_int(t) || t == SC_T_F32 || t == SC_T_F64;
}

/* Loads element el (0: bits 15..0, 1: bits 31..16 for half types) of the
 * float operand src of each lane into V, exactly. .ftz (f32 and halves)
 * flushes subnormals to zero of the same sign. Returns -1 for other types. */
static int load_float(const sc_alu_t *x, const uint64_t *src, unsigned t, unsigned el, bool ftz,
                      double *V)
{
	switch (t) {
	case SC_T_F32: {
		const uint32_t keep = ftz ? 0x80000000u : 0xffffffffu;
		LANES(uint32_t u = (uint32_t)src[l]; if (!(u & 0x7f800000u)) u &= keep; V[l] = sc__f32_of(u);)
		return 0;
	}
	case SC_T_F64:
		LANES(V[l] = sc__f64_of(src[l]);)
		return 0;
	case SC_T_F16:
	case SC_T_F16X2: {
		const uint32_t keep = ftz ? 0x8000u : 0xffffu;
		LANES(uint32_t h = (uint32_t)(src[l] >> (16 * el)) & 0xffffu; if (!(h & 0x7c00u)) h &= keep;
		      V[l] = sc__half_to_float((uint16_t)h);)
		return 0;
	}
	case SC_T_BF16:
	case SC_T_BF16X2: {
		const uint32_t keep = ftz ? 0x8000u : 0xffffu;
		LANES(uint32_t h = (uint32_t)(src[l] >> (16 * el)) & 0xffffu; if (!(h & 0x7f80u)) h &= keep;
		      V[l] = sc__bf16_to_float((uint16_t)h);)
		return 0;
	}
	default:
		return -1;
	}
}

/* ---- setp, set ------------------------------------------------------- */

/* The float comparison of each lane into the bit mask t, where AX and BX
 * give lane l's operands as values of type T. Ordered comparisons are false
 * on NaN, unordered ones (...u) true. */
#define FC(T, AX, BX, name, expr)                                            \
	case SC_CMP_##name:                                                      \
		LANES(const T a = (AX), b = (BX); t |= (uint32_t)(expr) << l;)       \
		break;
#define FCMP_SWITCH(T, AX, BX)                                               \
	switch (cmp) {                                                           \
	FC(T, AX, BX, EQ, a == b)                                                \
	FC(T, AX, BX, NE, a < b || a > b)                                        \
	FC(T, AX, BX, LT, a < b)                                                 \
	FC(T, AX, BX, LE, a <= b)                                                \
	FC(T, AX, BX, GT, a > b)                                                 \
	FC(T, AX, BX, GE, a >= b)                                                \
	FC(T, AX, BX, EQU, !(a < b || a > b))                                    \
	FC(T, AX, BX, NEU, a != b)                                               \
	FC(T, AX, BX, LTU, !(a >= b))                                            \
	FC(T, AX, BX, LEU, !(a > b))                                             \
	FC(T, AX, BX, GTU, !(a <= b))                                            \
	FC(T, AX, BX, GEU, !(a < b))                                             \
	FC(T, AX, BX, NUM, a == a && b == b)                                     \
	FC(T, AX, BX, NAN, a != a || b != b)                                     \
	}

static inline float ld32(uint64_t v, uint32_t keep)
{
	uint32_t u = (uint32_t)v;
	if (!(u & 0x7f800000u))
		u &= keep;
	return sc__f32_of(u);
}

static uint32_t fcmp32(const sc_alu_t *x, unsigned cmp, uint32_t keep)
{
	uint32_t t = 0;
	FCMP_SWITCH(float, ld32(x->a[l], keep), ld32(x->b[l], keep))
	return t;
}

static uint32_t fcmp64(const sc_alu_t *x, unsigned cmp)
{
	uint32_t t = 0;
	FCMP_SWITCH(double, sc__f64_of(x->a[l]), sc__f64_of(x->b[l]))
	return t;
}

/* Halves: operands decoded into A and B first. */
static uint32_t fcmp_arr(const sc_alu_t *x, const double *A, const double *B, unsigned cmp)
{
	uint32_t t = 0;
	FCMP_SWITCH(double, A[l], B[l])
	return t;
}
#undef FCMP_SWITCH
#undef FC

/* Integer comparison of type width `bits`. Orderings of signed types
 * compare sign-extended values; everything else compares zero-extended
 * values, which gives the unsigned order (lo ls hi hs on any type). */
static uint32_t icmp(const sc_alu_t *x, unsigned cmp, unsigned bits, bool sgn)
{
	const unsigned sh = 64 - bits;
	const unsigned key = cmp | (sgn && cmp >= SC_CMP_LT && cmp <= SC_CMP_GE ? 0x100u : 0);
	uint32_t t = 0;

	switch (key) {
#define IU(k, expr)                                                          \
	case k:                                                                  \
		LANES(const uint64_t a = x->a[l] << sh >> sh, b = x->b[l] << sh >> sh; \
		      t |= (uint32_t)(expr) << l;)                                   \
		break;
#define IS(k, expr)                                                          \
	case 0x100u | k:                                                         \
		LANES(const int64_t a = (int64_t)(x->a[l] << sh) >> sh,              \
		      b = (int64_t)(x->b[l] << sh) >> sh; t |= (uint32_t)(expr) << l;) \
		break;
	IU(SC_CMP_EQ, a == b)
	IU(SC_CMP_NE, a != b)
	IU(SC_CMP_LT, a < b)
	IU(SC_CMP_LE, a <= b)
	IU(SC_CMP_GT, a > b)
	IU(SC_CMP_GE, a >= b)
	IU(SC_CMP_LO, a < b)
	IU(SC_CMP_LS, a <= b)
	IU(SC_CMP_HI, a > b)
	IU(SC_CMP_HS, a >= b)
	IS(SC_CMP_LT, a < b)
	IS(SC_CMP_LE, a <= b)
	IS(SC_CMP_GT, a > b)
	IS(SC_CMP_GE, a >= b)
#undef IU
#undef IS
	}
	return t;
}

/* Compares a and b of type st with in->sub into t0 (and t1, the upper
 * elements, for f16x2/bf16x2, then *pair is set). Returns 0 or -1. */
static int compare(const sc_alu_t *x, unsigned st, uint32_t *t0, uint32_t *t1, bool *pair)
{
	const unsigned cmp = x->in->sub;
	const bool ftz = (x->in->mods & SC_MOD_FTZ) != 0;

	*pair = false;
	*t1 = 0;
	if (is_bits_int(st)) {
		if (cmp > SC_CMP_HS)
			return -1;
		*t0 = icmp(x, cmp, sc__type_bits(st), sc__type_is_signed(st));
		return 0;
	}
	if (cmp >= SC_CMP__COUNT || (cmp > SC_CMP_GE && cmp < SC_CMP_EQU))
		return -1;
	switch (st) {
	case SC_T_F32:
		*t0 = fcmp32(x, cmp, ftz ? 0x80000000u : 0xffffffffu);
		return 0;
	case SC_T_F64:
		*t0 = fcmp64(x, cmp);
		return 0;
	case SC_T_F16:
	case SC_T_BF16:
	case SC_T_F16X2:
	case SC_T_BF16X2: {
		double A[32], B[32];
		load_float(x, x->a, st, 0, ftz, A);
		load_float(x, x->b, st, 0, ftz, B);
		*t0 = fcmp_arr(x, A, B, cmp);
		if (st == SC_T_F16X2 || st == SC_T_BF16X2) {
			load_float(x, x->a, st, 1, ftz, A);
			load_float(x, x->b, st, 1, ftz, B);
			*t1 = fcmp_arr(x, A, B, cmp);
			*pair = true;
		}
		return 0;
	}
	default:
		return -1;
	}
}

/* Applies the combiner of aux to the comparison masks: p = t0 OP c,
 * q = t1 OP c, where t1 is !t0 for a scalar comparison. */
static void combine(const sc_alu_t *x, uint32_t *t0, uint32_t *t1)
{
	const unsigned bop = SC_AUX_BOOL(x->in->aux);
	uint32_t cm = 0;

	if (bop == SC_BOOL_NONE)
		return;
	LANES(cm |= (uint32_t)(x->c[l] & 1) << l;)
	switch (bop) {
	case SC_BOOL_AND: *t0 &= cm; *t1 &= cm; break;
	case SC_BOOL_OR: *t0 |= cm; *t1 |= cm; break;
	default: *t0 ^= cm; *t1 ^= cm; break;
	}
}

static int setp(sc_alu_t *x)
{
	uint32_t t0, t1;
	bool pair;

	if (compare(x, x->in->stype, &t0, &t1, &pair))
		return -1;
	if (!pair)
		t1 = ~t0;
	combine(x, &t0, &t1);
	LANES(x->d[l] = (t0 >> l) & 1; x->d2[l] = (t1 >> l) & 1;)
	return 0;
}

static int set(sc_alu_t *x)
{
	uint32_t t0, t1, tv;
	bool pair;

	if (compare(x, x->in->stype, &t0, &t1, &pair))
		return -1;
	if (!pair)
		t1 = ~t0;
	combine(x, &t0, &t1);
	switch (x->in->type) { /* the value of "true", per element */
	case SC_T_U32:
	case SC_T_S32:
	case SC_T_B32: tv = pair ? 0xffffu : 0xffffffffu; break;
	case SC_T_U16:
	case SC_T_S16:
	case SC_T_B16: tv = 0xffffu; break;
	case SC_T_F32: tv = 0x3f800000u; break;
	case SC_T_F16:
	case SC_T_F16X2: tv = 0x3c00u; break;
	case SC_T_BF16:
	case SC_T_BF16X2: tv = 0x3f80u; break;
	default: return -1;
	}
	const bool dpair = x->in->type == SC_T_F16X2 || x->in->type == SC_T_BF16X2;
	if (pair) {
		if (tv > 0xffffu || (!dpair && sc__type_bits(x->in->type) != 32))
			return -1;
		LANES(x->d[l] = (((t0 >> l) & 1) ? tv : 0) | (((t1 >> l) & 1) ? tv << 16 : 0);)
	} else {
		if (dpair)
			return -1;
		LANES(x->d[l] = ((t0 >> l) & 1) ? tv : 0;)
	}
	return 0;
}

/* ---- selp, slct, testp ----------------------------------------------- */

static inline uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int selp(sc_alu_t *x)
{
	if (!is_sel_type(x->in->type))
		return -1;
	const uint64_t wm = width_mask(sc__type_bits(x->in->type));
	LANES(x->d[l] = ((x->c[l] & 1) ? x->a[l] : x->b[l]) & wm;)
	return 0;
}

static int slct(sc_alu_t *x)
{
	if (!is_sel_type(x->in->type))
		return -1;
	const uint64_t wm = width_mask(sc__type_bits(x->in->type));
	switch (x->in->stype) {
	case SC_T_S32:
		LANES(x->d[l] = ((int32_t)(uint32_t)x->c[l] >= 0 ? x->a[l] : x->b[l]) & wm;)
		return 0;
	case SC_T_F32: { /* -0 >= 0 holds; NaN >= 0 does not */
		const uint32_t keep = (x->in->mods & SC_MOD_FTZ) ? 0x80000000u : 0xffffffffu;
		LANES(uint32_t u = (uint32_t)x->c[l]; if (!(u & 0x7f800000u)) u &= keep;
		      x->d[l] = (sc__f32_of(u) >= 0.0f ? x->a[l] : x->b[l]) & wm;)
		return 0;
	}
	default:
		return -1;
	}
}

static int testp(sc_alu_t *x)
{
	uint64_t em, fm;

	switch (x->in->stype) {
	case SC_T_F32: em = 0x7f800000u; fm = 0x007fffffu; break;
	case SC_T_F64: em = 0x7ff0000000000000ull; fm = 0x000fffffffffffffull; break;
	default: return -1;
	}
	switch (x->in->sub) {
#define TP(name, expr)                                                       \
	case SC_TESTP_##name:                                                    \
		LANES(const uint64_t e = x->a[l] & em, f = x->a[l] & fm; (void)f; x->d[l] = (expr);) \
		return 0;
	TP(FINITE, e != em)
	TP(INFINITE, e == em && !f)
	TP(NUMBER, !(e == em && f))
	TP(NOTANUMBER, e == em && f)
	TP(NORMAL, (e != 0 && e != em) || (e == 0 && f == 0)) /* PTX: zeros are normal */
	TP(SUBNORMAL, e == 0 && f)
#undef TP
	default:
		return -1;
	}
}

/* ---- cvt ------------------------------------------------------------- */

/* Clamps v (of signedness ss) to the range of a db-bit integer type. */
static uint64_t iclamp(uint64_t v, bool ss, bool ds, unsigned db)
{
	if (ds) {
		const int64_t hi = (int64_t)((1ull << (db - 1)) - 1), lo = -hi - 1;
		if (ss) {
			const int64_t s = (int64_t)v;
			return (uint64_t)(s < lo ? lo : s > hi ? hi : s);
		}
		return v > (uint64_t)hi ? (uint64_t)hi : v;
	}
	const uint64_t hi = width_mask(db);
	if (ss && (int64_t)v < 0)
		return 0;
	return v > hi ? hi : v;
}

static int cvt_i2i(sc_alu_t *x)
{
	const unsigned st = x->in->stype, dt = x->in->type;
	const unsigned sb = sc__type_bits(st), db = sc__type_bits(dt);
	const bool ss = sc__type_is_signed(st), ds = sc__type_is_signed(dt);

	if (x->in->mods & SC_MOD_SAT)
		LANES(x->d[l] = ival(iclamp(ival(x->a[l], sb, ss), ss, ds, db), db, ds);)
	else
		LANES(x->d[l] = ival(ival(x->a[l], sb, ss), db, ds);)
	return 0;
}

/* v rounded to odd at 53 bits: exact when it fits, else truncated with the
 * last bit set when bits were lost. Rounding that to a format of at most 51
 * bits in any mode gives the correctly rounded value of v. */
static double i2d_odd(uint64_t v, bool sgn)
{
	const bool neg = sgn && (int64_t)v < 0;
	const uint64_t u = neg ? -v : v;
	double d;

	if (u >> 53) {
		const int sh = 11 - __builtin_clzll(u);
		d = ldexp((double)((u >> sh) | ((u & ((1ull << sh) - 1)) != 0)), sh);
	} else {
		d = (double)u;
	}
	return neg ? -d : d;
}

static int cvt_i2f(sc_alu_t *x, unsigned rnd)
{
	const unsigned st = x->in->stype, dt = x->in->type, sb = sc__type_bits(st);
	const bool ss = sc__type_is_signed(st), sat = (x->in->mods & SC_MOD_SAT) != 0;
	const int mode = rnd == SC_RND_NONE ? SC_RND_RN : (int)rnd;
	uint64_t V[32];

	/* .sat: every integer is <= 0 or >= 1, so it clamps to 0 or 1 exactly. */
	if (sat)
		LANES(const uint64_t v = ival(x->a[l], sb, ss); V[l] = ss ? (int64_t)v > 0 : v > 0;)
	else
		LANES(V[l] = ival(x->a[l], sb, ss);)
	switch (dt) {
	case SC_T_F64:
	case SC_T_F32: {
		const bool dir = mode != SC_RND_RN;
		if (dir)
			fesetround(fe_modes[mode]);
		if (dt == SC_T_F64 && ss)
			LANES(x->d[l] = sc__bits64((double)(int64_t)V[l]);)
		else if (dt == SC_T_F64)
			LANES(x->d[l] = sc__bits64((double)V[l]);)
		else if (ss)
			LANES(x->d[l] = sc__bits32((float)(int64_t)V[l]);)
		else
			LANES(x->d[l] = sc__bits32((float)V[l]);)
		if (dir)
			fesetround(FE_TONEAREST);
		return 0;
	}
	case SC_T_F16:
		LANES(x->d[l] = sc__double_to_half(i2d_odd(V[l], ss), mode);)
		return 0;
	case SC_T_BF16:
		LANES(x->d[l] = sc__double_to_bf16(i2d_odd(V[l], ss), mode);)
		return 0;
	default:
		return -1;
	}
}

/* Rounds each lane's V to an integral value with an integer rounding. */
static void round_int(const sc_alu_t *x, double *V, unsigned rnd)
{
	switch (rnd) {
	case SC_RND_RNI: LANES(V[l] = nearbyint(V[l]);) break; /* FE_TONEAREST here */
	case SC_RND_RMI: LANES(V[l] = floor(V[l]);) break;
	case SC_RND_RPI: LANES(V[l] = ceil(V[l]);) break;
	default: LANES(V[l] = trunc(V[l]);) break;
	}
}

static int cvt_f2i(sc_alu_t *x, unsigned rnd)
{
	const unsigned st = x->in->stype, dt = x->in->type, db = sc__type_bits(dt);
	const bool ds = sc__type_is_signed(dt);
	const uint64_t nanv = (st != SC_T_F64 && db < 64) ? 0 : ival(1ull << (db - 1), db, ds);
	const double lim = ldexp(1.0, (int)db - ds); /* first value above the range */
	const uint64_t hi = ds ? width_mask(db - 1) : width_mask(db);
	const uint64_t lo = ds ? ival(1ull << (db - 1), db, true) : 0;
	double V[32];

	if (load_float(x, x->a, st, 0, st == SC_T_F32 && (x->in->mods & SC_MOD_FTZ), V))
		return -1;
	round_int(x, V, rnd);
	LANES(
		const double r = V[l];
		if (r != r)
			x->d[l] = nanv;
		else if (r >= lim)
			x->d[l] = hi;
		else if (ds ? r <= -lim : r <= 0)
			x->d[l] = lo;
		else
			x->d[l] = ds ? ival((uint64_t)(int64_t)r, db, true) : (uint64_t)r;
	)
	return 0;
}

/* The quiet f64 NaN carrying the payload of NaN pattern v of type t. */
static uint64_t nan_to_f64(uint64_t v, unsigned t)
{
	switch (t) {
	case SC_T_F32: return ((v & 0x80000000u) << 32) | 0x7ff8000000000000ull | ((v & 0x7fffffu) << 29);
	case SC_T_F16: return ((v & 0x8000u) << 48) | 0x7ff8000000000000ull | ((v & 0x3ffu) << 42);
	case SC_T_BF16: return ((v & 0x8000u) << 48) | 0x7ff8000000000000ull | ((v & 0x7fu) << 45);
	default: return v | QUIET64;
	}
}

/* Whether every value of type s is exactly a value of type d. */
static bool widens(unsigned s, unsigned d)
{
	if (d == SC_T_F64)
		return s != SC_T_F64;
	return d == SC_T_F32 && (s == SC_T_F16 || s == SC_T_BF16);
}

static int cvt_f2f(sc_alu_t *x, unsigned rnd)
{
	const unsigned st = x->in->stype, dt = x->in->type, mods = x->in->mods;
	const bool ftz = (mods & SC_MOD_FTZ) != 0, sat = (mods & SC_MOD_SAT) != 0;
	int mode = SC_RND_RN;
	double V[32];

	if (rnd >= SC_RND_RNI) {
		if (st != dt)
			return -1;
	} else if (st == dt) {
		if (rnd != SC_RND_NONE)
			return -1;
	} else if (!widens(st, dt) && rnd != SC_RND_NONE) {
		mode = (int)rnd;
	}
	load_float(x, x->a, st, 0, ftz && st == SC_T_F32, V);
	if (rnd >= SC_RND_RNI)
		round_int(x, V, rnd);
	if (sat)
		LANES(const double v = V[l]; V[l] = v > 1.0 ? 1.0 : v > 0.0 ? v : 0.0;)
	switch (dt) {
	case SC_T_F64:
		LANES(x->d[l] = V[l] != V[l] ? nan_to_f64(x->a[l], st) : sc__bits64(V[l]);)
		return 0;
	case SC_T_F32: {
		const uint32_t keep = ftz ? 0x80000000u : 0xffffffffu;
		const bool dir = mode != SC_RND_RN;
		if (dir)
			fesetround(fe_modes[mode]);
		LANES(
			uint32_t u = sc__bits32((float)V[l]);
			if ((u & 0x7fffffffu) > 0x7f800000u)
				u = NAN32;
			else if (!(u & 0x7f800000u))
				u &= keep;
			x->d[l] = u;
		)
		if (dir)
			fesetround(FE_TONEAREST);
		return 0;
	}
	case SC_T_F16:
		LANES(x->d[l] = sc__double_to_half(V[l], mode);)
		return 0;
	default: /* SC_T_BF16 */
		LANES(x->d[l] = sc__double_to_bf16(V[l], mode);)
		return 0;
	}
}

/* cvt.frnd.f16x2.f32 d, a, b and the bf16x2 form: d = {cvt(a) high, cvt(b) low}. */
static int cvt_pair(sc_alu_t *x, unsigned rnd)
{
	const bool bf = x->in->type == SC_T_BF16X2;
	const int mode = rnd == SC_RND_NONE ? SC_RND_RN : (int)rnd;
	const uint32_t keep = (x->in->mods & SC_MOD_FTZ) ? 0x80000000u : 0xffffffffu;

	if (x->in->stype != SC_T_F32 || rnd > SC_RND_RP)
		return -1;
	LANES(
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l];
		if (!(a & 0x7f800000u))
			a &= keep;
		if (!(b & 0x7f800000u))
			b &= keep;
		const uint32_t ha = bf ? sc__float_to_bf16(sc__f32_of(a), mode) : sc__float_to_half(sc__f32_of(a), mode);
		const uint32_t hb = bf ? sc__float_to_bf16(sc__f32_of(b), mode) : sc__float_to_half(sc__f32_of(b), mode);
		x->d[l] = ha << 16 | hb;
	)
	return 0;
}

static int cvt(sc_alu_t *x)
{
	const unsigned st = x->in->stype, dt = x->in->type;
	const unsigned rnd = x->in->mods & SC_MOD_RND_MASK;

	if (rnd >= SC_RND__COUNT)
		return -1;
	if (dt == SC_T_F16X2 || dt == SC_T_BF16X2)
		return cvt_pair(x, rnd);
	if (is_int(st) && is_int(dt))
		return rnd == SC_RND_NONE ? cvt_i2i(x) : -1;
	if (is_int(st) && is_scalar_float(dt))
		return rnd <= SC_RND_RP ? cvt_i2f(x, rnd) : -1;
	if (is_scalar_float(st) && is_int(dt))
		return rnd == SC_RND_NONE || rnd >= SC_RND_RNI ? cvt_f2i(x, rnd) : -1;
	if (is_scalar_float(st) && is_scalar_float(dt))
		return cvt_f2f(x, rnd);
	return -1;
}

int sc__sem_cmp(sc_alu_t *x)
{
	switch (x->in->op) {
	case SC_OP_SETP: return setp(x);
	case SC_OP_SET: return set(x);
	case SC_OP_SELP: return selp(x);
	case SC_OP_SLCT: return slct(x);
	case SC_OP_TESTP: return testp(x);
	case SC_OP_CVT: return cvt(x);
	default: return -1;
	}
}
