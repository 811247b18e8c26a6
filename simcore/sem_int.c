/* Integer and bit semantics: the INT unit, and the NUM opcodes (add ... max)
 * when the type is an integer one. One call executes one warp instruction.
 * Interface: sc_int.h ("Semantics interface"); meaning: the PTX ISA, with the
 * choices PTX leaves open written down where they are made. */
#include <limits.h>

#include "sc_int.h"

#define M32 0xffffffffull

/* Visits the lanes of `mask`: a plain loop when the warp is converged, which
 * the compiler can vectorise, otherwise one step per set bit. The hot
 * opcodes get a loop of their own each, so nothing is decided per lane. */
#define LANES(mask, ...)                                                    \
	do {                                                                    \
		uint32_t m_ = (mask);                                               \
		if (m_ == 0xffffffffu) {                                            \
			for (int l = 0; l < 32; l++) {                                  \
				__VA_ARGS__;                                                \
			}                                                               \
		} else {                                                            \
			for (; m_; m_ &= m_ - 1) {                                      \
				int l = __builtin_ctz(m_);                                  \
				__VA_ARGS__;                                                \
			}                                                               \
		}                                                                   \
	} while (0)

/* The operand arrays as restrict locals, so that stores to d do not force
 * reloads of the sources. */
#define OPERANDS(x)                                                         \
	const uint64_t *restrict a = (x)->a;                                    \
	const uint64_t *restrict b = (x)->b;                                    \
	uint64_t *restrict d = (x)->d;                                          \
	(void)a, (void)b

static const uint64_t zeros[32]; /* the c of mul, so that mul is mad + 0 */

/* Width-generic lane loops, inlined by BY_WIDTH with w a constant for the
 * common widths so that masks and sign extensions fold into single
 * instructions. */
#define HOT static inline __attribute__((always_inline))
#define BY_WIDTH(fn, x, w, ...)                                             \
	do {                                                                    \
		switch (w) {                                                        \
		case 32: fn(x, 32, __VA_ARGS__); break;                             \
		case 64: fn(x, 64, __VA_ARGS__); break;                             \
		default: fn(x, w, __VA_ARGS__); break;                              \
		}                                                                   \
	} while (0)

/* Which encodings each opcode accepts: types as a bit set of SC_T_*, sub
 * below nsub, and the modifier bits it may carry at all (the finer rules,
 * such as .sat on s32 only, are checked in sc__sem_int). An opcode without
 * a row has types == 0 and is refused. */
_Static_assert(SC_T__COUNT <= 32, "type sets are 32-bit masks");
#define T(n) (1u << SC_T_##n)
#define T_NUM (T(U16) | T(U32) | T(U64) | T(S16) | T(S32) | T(S64))
#define T_SGN (T(S16) | T(S32) | T(S64))
#define T_CC (T(U32) | T(S32) | T(U64) | T(S64))
#define T_W3264 (T(B32) | T(B64))
#define T_US3264 (T(U32) | T(U64) | T(S32) | T(S64))
#define T_SHIFT (T(B16) | T(B32) | T(B64) | T_NUM)
#define T_LOGIC (T(PRED) | T(B16) | T(B32) | T(B64))
#define M_CC (SC_MOD_CC_IN | SC_MOD_CC_OUT)

typedef struct rule {
	uint32_t types;
	uint8_t nsub;
	uint16_t mods;
} rule_t;

static const rule_t rules[SC_OP__COUNT] = {
	[SC_OP_ADD] = {T_NUM, 1, SC_MOD_SAT | M_CC},
	[SC_OP_SUB] = {T_NUM, 1, SC_MOD_SAT | M_CC},
	[SC_OP_MUL] = {T_NUM, 3, 0},
	[SC_OP_MAD] = {T_NUM, 3, SC_MOD_SAT | M_CC},
	[SC_OP_DIV] = {T_NUM, 1, 0},
	[SC_OP_REM] = {T_NUM, 1, 0},
	[SC_OP_ABS] = {T_SGN, 1, 0},
	[SC_OP_NEG] = {T_SGN, 1, 0},
	[SC_OP_MIN] = {T_NUM, 1, 0},
	[SC_OP_MAX] = {T_NUM, 1, 0},
	[SC_OP_MUL24] = {T(U32) | T(S32), 2, 0},
	[SC_OP_MAD24] = {T(U32) | T(S32), 2, SC_MOD_SAT},
	[SC_OP_SAD] = {T_NUM, 1, 0},
	[SC_OP_POPC] = {T_W3264, 1, 0},
	[SC_OP_CLZ] = {T_W3264, 1, 0},
	[SC_OP_BREV] = {T_W3264, 1, 0},
	[SC_OP_BFE] = {T_US3264, 1, 0},
	[SC_OP_BFI] = {T_W3264, 1, 0},
	[SC_OP_BFIND] = {T_US3264, 2, 0},
	[SC_OP_PRMT] = {T(B32), SC_PRMT_RC16 + 1, 0},
	[SC_OP_SHF] = {T(B32), 4, 0},
	[SC_OP_SHL] = {T_SHIFT, 1, 0},
	[SC_OP_SHR] = {T_SHIFT, 1, 0},
	[SC_OP_AND] = {T_LOGIC, 1, 0},
	[SC_OP_OR] = {T_LOGIC, 1, 0},
	[SC_OP_XOR] = {T_LOGIC, 1, 0},
	[SC_OP_NOT] = {T_LOGIC, 1, 0},
	[SC_OP_CNOT] = {T_LOGIC, 1, 0},
	[SC_OP_LOP3] = {T(B32), 1, 0},
	[SC_OP_BMSK] = {T(B32), 2, 0},
};

/* ---- helpers ------------------------------------------------------------ */

static inline uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* The low w bits of v as a signed number (1 <= w <= 64). */
static inline int64_t sext(uint64_t v, unsigned w)
{
	return (int64_t)(v << (64 - w)) >> (64 - w);
}

/* Saturates to the s32 range; returns the zero-extended raw bits. */
static inline uint64_t sat_s32(int64_t v)
{
	if (v > INT32_MAX)
		v = INT32_MAX;
	else if (v < INT32_MIN)
		v = INT32_MIN;
	return (uint32_t)v;
}

/* Upper 64 bits of the 128-bit product, from four 32x32 partial products. */
static inline uint64_t umulhi64(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* Signed version: a negative operand contributes -2^64 * other. */
static inline uint64_t smulhi64(uint64_t a, uint64_t b)
{
	uint64_t h = umulhi64(a, b);
	if ((int64_t)a < 0)
		h -= b;
	if ((int64_t)b < 0)
		h -= a;
	return h;
}

static inline uint64_t rev64(uint64_t v)
{
	v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
	v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
	v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
	return __builtin_bswap64(v);
}

/* ---- add, sub and the carry chain ------------------------------------- */

HOT void add_sub(sc_alu_t *x, unsigned w, bool sub, bool sat)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (sat) /* s32 only */
		LANES(x->mask, d[l] = sat_s32(sub ? sext(a[l], 32) - sext(b[l], 32)
		                                  : sext(a[l], 32) + sext(b[l], 32)));
	else if (sub)
		LANES(x->mask, d[l] = (a[l] - b[l]) & wm);
	else
		LANES(x->mask, d[l] = (a[l] + b[l]) & wm);
}

/* add.cc/addc and sub.cc/subc on 32 or 64 bits. The flag of a lane is the
 * carry-out of add, the borrow-out of sub (PTX: subc d = a - (b + CF)). */
static void add_sub_cc(sc_alu_t *x, unsigned w, bool sub)
{
	OPERANDS(x);
	uint32_t cin = (x->in->mods & SC_MOD_CC_IN) ? x->cc : 0, cout = 0;

	if (w == 32) {
		/* In 64 bits the carry or borrow lands in bit 32. */
		LANES(x->mask, uint64_t ci = (cin >> l) & 1;
		      uint64_t s = sub ? (a[l] & M32) - (b[l] & M32) - ci
		                       : (a[l] & M32) + (b[l] & M32) + ci;
		      d[l] = s & M32; cout |= (uint32_t)((s >> 32) & 1) << l);
	} else if (sub) {
		LANES(x->mask, uint64_t ci = (cin >> l) & 1; uint64_t t = a[l] - b[l];
		      d[l] = t - ci; cout |= (uint32_t)((a[l] < b[l]) | (t < ci)) << l);
	} else {
		LANES(x->mask, uint64_t ci = (cin >> l) & 1; uint64_t t = a[l] + b[l];
		      uint64_t s = t + ci; d[l] = s;
		      cout |= (uint32_t)((t < a[l]) | (s < t)) << l);
	}
	if (x->in->mods & SC_MOD_CC_OUT)
		x->cc = (x->cc & ~x->mask) | cout;
}

/* ---- mul and mad -------------------------------------------------------- */

/* d = part(a * b) + c, where part is .lo, .hi or .wide; mul passes c = 0. */
HOT void mul_mad(sc_alu_t *x, unsigned w, const uint64_t *restrict c, bool sgn,
                 unsigned sub, bool sat)
{
	OPERANDS(x);
	uint64_t wm = wmask(w), wm2 = wmask(2 * w);

	if (sub == SC_MUL_LO) {
		LANES(x->mask, d[l] = (a[l] * b[l] + c[l]) & wm);
	} else if (sub == SC_MUL_WIDE) { /* w <= 32: the product fits */
		if (sgn)
			LANES(x->mask, d[l] = ((uint64_t)(sext(a[l], w) * sext(b[l], w)) + c[l]) & wm2);
		else
			LANES(x->mask, d[l] = ((a[l] & wm) * (b[l] & wm) + c[l]) & wm2);
	} else if (sat) { /* mad.hi.sat.s32 */
		LANES(x->mask, int64_t p = sext(a[l], 32) * sext(b[l], 32);
		      d[l] = sat_s32((p >> 32) + sext(c[l], 32)));
	} else if (w == 64) {
		if (sgn)
			LANES(x->mask, d[l] = smulhi64(a[l], b[l]) + c[l]);
		else
			LANES(x->mask, d[l] = umulhi64(a[l], b[l]) + c[l]);
	} else {
		/* Bits 2w-1..w of the 2w-bit product: a logical shift of the
		 * 64-bit product gives them for either signedness. */
		if (sgn)
			LANES(x->mask,
			      d[l] = (((uint64_t)(sext(a[l], w) * sext(b[l], w)) >> w) + c[l]) & wm);
		else
			LANES(x->mask, d[l] = ((((a[l] & wm) * (b[l] & wm)) >> w) + c[l]) & wm);
	}
}

/* mad.lo.cc / mad.hi.cc / madc.lo / madc.hi (.cc): the carry is that of the
 * addition of c (and the carry-in) to the selected half of the product. */
static void mad_cc(sc_alu_t *x, unsigned w, bool sgn, bool hi)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c;
	uint32_t cin = (x->in->mods & SC_MOD_CC_IN) ? x->cc : 0, cout = 0;

	LANES(x->mask, uint64_t ci = (cin >> l) & 1, p;
	      if (w == 32) {
		      if (!hi)
			      p = a[l] * b[l];
		      else if (sgn)
			      p = (uint64_t)(sext(a[l], 32) * sext(b[l], 32)) >> 32;
		      else
			      p = ((a[l] & M32) * (b[l] & M32)) >> 32;
		      uint64_t s = (p & M32) + (c[l] & M32) + ci;
		      d[l] = s & M32;
		      cout |= (uint32_t)(s >> 32) << l;
	      } else {
		      p = !hi ? a[l] * b[l] : sgn ? smulhi64(a[l], b[l]) : umulhi64(a[l], b[l]);
		      uint64_t t = p + c[l], s = t + ci;
		      d[l] = s;
		      cout |= (uint32_t)((t < p) | (s < t)) << l;
	      });
	if (x->in->mods & SC_MOD_CC_OUT)
		x->cc = (x->cc & ~x->mask) | cout;
}

/* ---- div and rem --------------------------------------------------------
 * PTX leaves division by zero unspecified; flipsim defines it so that runs
 * are deterministic: the quotient is all ones (unsigned) or -1 (signed, the
 * same bits) and the remainder is a. The one overflowing signed case,
 * MIN / -1, wraps: quotient MIN, remainder 0. */
static void div_rem(sc_alu_t *x, unsigned w, bool sgn, bool rem)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (!sgn) {
		if (rem)
			LANES(x->mask, uint64_t p = a[l] & wm, q = b[l] & wm; d[l] = q ? p % q : p);
		else
			LANES(x->mask, uint64_t p = a[l] & wm, q = b[l] & wm; d[l] = q ? p / q : wm);
		return;
	}
	/* Below 64 bits the operands are exact in int64_t, so MIN / -1 cannot
	 * overflow there and only needs care at 64 bits. */
	LANES(x->mask, int64_t p = sext(a[l], w), q = sext(b[l], w); uint64_t r;
	      if (q == 0)
		      r = rem ? (uint64_t)p : wm;
	      else if (q == -1)
		      r = rem ? 0 : 0 - (uint64_t)p;
	      else
		      r = (uint64_t)(rem ? p % q : p / q);
	      d[l] = r & wm);
}

/* ---- abs, neg, min, max, sad ------------------------------------------- */

HOT void abs_neg(sc_alu_t *x, unsigned w, bool neg)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (neg)
		LANES(x->mask, d[l] = (0 - a[l]) & wm);
	else /* |MIN| wraps to MIN */
		LANES(x->mask, d[l] = (sext(a[l], w) < 0 ? 0 - a[l] : a[l]) & wm);
}

HOT void min_max(sc_alu_t *x, unsigned w, bool sgn, bool max)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (sgn && max)
		LANES(x->mask, d[l] = (sext(a[l], w) > sext(b[l], w) ? a[l] : b[l]) & wm);
	else if (sgn)
		LANES(x->mask, d[l] = (sext(a[l], w) < sext(b[l], w) ? a[l] : b[l]) & wm);
	else if (max)
		LANES(x->mask, uint64_t p = a[l] & wm, q = b[l] & wm; d[l] = p > q ? p : q);
	else
		LANES(x->mask, uint64_t p = a[l] & wm, q = b[l] & wm; d[l] = p < q ? p : q);
}

HOT void sad(sc_alu_t *x, unsigned w, bool sgn)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c;
	uint64_t wm = wmask(w);

	LANES(x->mask,
	      bool lt = sgn ? sext(a[l], w) < sext(b[l], w) : (a[l] & wm) < (b[l] & wm);
	      d[l] = (c[l] + (lt ? b[l] - a[l] : a[l] - b[l])) & wm);
}

/* ---- mul24, mad24 ------------------------------------------------------- */

/* The 48-bit product of the low 24 bits (sign-extended from bit 23 for s32);
 * .lo keeps bits 31..0, .hi bits 47..16; mad24 adds c in 32 bits. */
static void mul24(sc_alu_t *x, const uint64_t *restrict c, bool sgn, bool hi, bool sat)
{
	OPERANDS(x);
	unsigned sh = hi ? 16 : 0;

	if (sat) /* mad24.hi.sat.s32 */
		LANES(x->mask, int64_t p = sext(a[l], 24) * sext(b[l], 24);
		      d[l] = sat_s32((p >> 16) + sext(c[l], 32)));
	else if (sgn)
		LANES(x->mask, uint64_t p = (uint64_t)(sext(a[l], 24) * sext(b[l], 24));
		      d[l] = ((p >> sh) + c[l]) & M32);
	else
		LANES(x->mask, uint64_t p = (a[l] & 0xffffff) * (b[l] & 0xffffff);
		      d[l] = ((p >> sh) + c[l]) & M32);
}

/* ---- bit counting and fields ------------------------------------------- */

static void popc_clz_brev(sc_alu_t *x, unsigned op, unsigned w)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (op == SC_OP_POPC)
		LANES(x->mask, d[l] = (uint64_t)__builtin_popcountll(a[l] & wm));
	else if (op == SC_OP_CLZ)
		LANES(x->mask, uint64_t v = a[l] & wm;
		      d[l] = v ? (uint64_t)__builtin_clzll(v) - (64 - w) : w);
	else /* the low w bits end up at the top of the 64-bit reversal */
		LANES(x->mask, d[l] = rev64(a[l]) >> (64 - w));
}

/* bfind: index of the most significant 1 (of the most significant 0 for a
 * negative signed value); 0xffffffff when there is none; .shiftamt turns the
 * index i into w-1-i. */
static void bfind(sc_alu_t *x, unsigned w, bool sgn, bool shiftamt)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	LANES(x->mask, uint64_t v = a[l] & wm;
	      if (sgn && (v >> (w - 1)))
		      v = ~v & wm;
	      uint64_t i = 63 - (uint64_t)__builtin_clzll(v | 1);
	      d[l] = !v ? M32 : shiftamt ? (w - 1) - i : i);
}

/* The number of field bits that lie inside a w-bit word: min(len, w - pos),
 * 0 when pos >= w. pos and len are 0..255. */
static inline unsigned field_bits(unsigned pos, unsigned len, unsigned w)
{
	return pos >= w ? 0 : len < w - pos ? len : w - pos;
}

/* bfe: d = a[pos +: len] zero- or sign-extended. The sign is bit
 * min(pos + len - 1, w - 1) of a for s types with len != 0, else 0; it also
 * fills the positions of field bits that lie beyond the msb of a. */
static void bfe(sc_alu_t *x, unsigned w, bool sgn)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c;
	uint64_t wm = wmask(w);

	LANES(x->mask, unsigned pos = b[l] & 0xff, len = c[l] & 0xff;
	      unsigned n = field_bits(pos, len, w);
	      uint64_t field = n ? (a[l] >> pos) & wmask(n) : 0;
	      unsigned top = pos + len - 1 < w - 1 ? pos + len - 1 : w - 1;
	      bool sbit = sgn && len && ((a[l] >> top) & 1);
	      d[l] = field | (sbit ? wm & ~wmask(n) : 0));
}

/* bfi: b with its bits pos .. pos+len-1 (those inside the word) replaced by
 * the low bits of a; pos = c, len = e. */
static void bfi(sc_alu_t *x, unsigned w)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c, *restrict e = x->e;
	uint64_t wm = wmask(w);

	LANES(x->mask, unsigned pos = c[l] & 0xff;
	      unsigned n = field_bits(pos, e[l] & 0xff, w);
	      uint64_t m = n ? wmask(n) << pos : 0;
	      d[l] = (b[l] & wm & ~m) | (n ? (a[l] << pos) & m : 0));
}

/* ---- prmt, shf, shifts -------------------------------------------------- */

/* Source byte (0..7 of {b, a}) of each result byte for the six fixed modes,
 * by c[1:0]; nibble k is result byte k (the PTX ISA tables, read d.b3..b0). */
static const uint16_t prmt_modes[6][4] = {
	{0x3210, 0x4321, 0x5432, 0x6543}, /* f4e: forward 4 extract */
	{0x5670, 0x6701, 0x7012, 0x0123}, /* b4e: backward 4 extract */
	{0x0000, 0x1111, 0x2222, 0x3333}, /* rc8: replicate byte */
	{0x3210, 0x3211, 0x3222, 0x3333}, /* ecl: edge clamp left */
	{0x0000, 0x1110, 0x2210, 0x3210}, /* ecr: edge clamp right */
	{0x1010, 0x3232, 0x1010, 0x3232}, /* rc16: replicate half-word */
};

/* One result byte of prmt: source byte sel[2:0] of src, or with sel[3] set
 * its sign bit replicated over the byte. */
static inline uint64_t prmt_byte(uint64_t src, unsigned sel)
{
	uint64_t v = (src >> (8 * (sel & 7))) & 0xff;
	return (sel & 8) ? (0 - (v >> 7)) & 0xff : v;
}

static inline uint64_t prmt_1(uint64_t a, uint64_t b, unsigned ctl)
{
	uint64_t src = (b << 32) | (a & M32);
	return prmt_byte(src, ctl) | prmt_byte(src, ctl >> 4) << 8 |
	       prmt_byte(src, ctl >> 8) << 16 | prmt_byte(src, ctl >> 12) << 24;
}

/* Generic: four selectors in c[15:0]. Modes: the selectors come from the
 * table by c[1:0] and never replicate a sign. */
static void prmt(sc_alu_t *x, unsigned mode)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c;

	if (mode == SC_PRMT_DEFAULT) {
		LANES(x->mask, d[l] = prmt_1(a[l], b[l], (unsigned)c[l]));
	} else {
		const uint16_t *sel = prmt_modes[mode - 1];
		LANES(x->mask, d[l] = prmt_1(a[l], b[l], sel[c[l] & 3]));
	}
}

/* shf: funnel shift of the 64-bit {b:a} by n = min(c, 32) (.clamp) or c mod
 * 32 (.wrap); .l keeps the upper word, .r the lower. */
static void shf(sc_alu_t *x, unsigned mode)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c;
	bool clamp = mode & SC_SHF_CLAMP;

	if (mode & SC_SHF_R)
		LANES(x->mask, uint32_t n = (uint32_t)c[l];
		      n = clamp ? (n < 32 ? n : 32) : n & 31;
		      d[l] = (((b[l] << 32) | (a[l] & M32)) >> n) & M32);
	else
		LANES(x->mask, uint32_t n = (uint32_t)c[l];
		      n = clamp ? (n < 32 ? n : 32) : n & 31;
		      d[l] = (((b[l] << 32) | (a[l] & M32)) << n) >> 32);
}

/* shl/shr: the amount is b as u32; from w on, everything is shifted out
 * (shr of a signed type leaves copies of the sign). */
HOT void shift(sc_alu_t *x, unsigned w, bool sgn, bool right)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	if (!right)
		LANES(x->mask, uint32_t n = (uint32_t)b[l]; d[l] = n < w ? (a[l] << n) & wm : 0);
	else if (!sgn)
		LANES(x->mask, uint32_t n = (uint32_t)b[l]; d[l] = n < w ? (a[l] & wm) >> n : 0);
	else
		LANES(x->mask, uint32_t n = (uint32_t)b[l];
		      d[l] = (uint64_t)(sext(a[l], w) >> (n < w ? n : w - 1)) & wm);
}

/* ---- logic -------------------------------------------------------------- */

/* and/or/xor/not/cnot; a predicate is a 1-bit type, so the same masks keep
 * its values 0/1 (not p = p ^ 1). */
static void logic(sc_alu_t *x, unsigned op, unsigned w)
{
	OPERANDS(x);
	uint64_t wm = wmask(w);

	switch (op) {
	case SC_OP_AND: LANES(x->mask, d[l] = a[l] & b[l] & wm); break;
	case SC_OP_OR: LANES(x->mask, d[l] = (a[l] | b[l]) & wm); break;
	case SC_OP_XOR: LANES(x->mask, d[l] = (a[l] ^ b[l]) & wm); break;
	case SC_OP_NOT: LANES(x->mask, d[l] = ~a[l] & wm); break;
	default: LANES(x->mask, d[l] = (a[l] & wm) == 0); break; /* cnot */
	}
}

/* lop3: the result bit is bit (4 a + 2 b + c) of the 8-bit table, which is
 * PTX's "F(0xF0, 0xCC, 0xAA)". Evaluated without branches as a tree of
 * selects on c, then b, then a, over the table bits spread to full words. */
static inline uint32_t lut_bit(uint32_t lut, unsigned k) { return 0u - ((lut >> k) & 1u); }

static inline uint32_t lop3_1(uint32_t p, uint32_t q, uint32_t s, uint32_t lut)
{
	uint32_t b1 = (q & ((s & lut_bit(lut, 7)) | (~s & lut_bit(lut, 6)))) |
	              (~q & ((s & lut_bit(lut, 5)) | (~s & lut_bit(lut, 4))));
	uint32_t b0 = (q & ((s & lut_bit(lut, 3)) | (~s & lut_bit(lut, 2)))) |
	              (~q & ((s & lut_bit(lut, 1)) | (~s & lut_bit(lut, 0))));
	return (p & b1) | (~p & b0);
}

static void lop3(sc_alu_t *x)
{
	OPERANDS(x);
	const uint64_t *restrict c = x->c, *restrict e = x->e;

	LANES(x->mask, d[l] = lop3_1((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], (uint32_t)e[l]));
}

/* bmsk: b ones from bit a (PTX ISA, bmsk). .wrap takes both modulo 32;
 * .clamp gives 0 from a position of 32 on and all bits up from a for a
 * width of 32 or more; the mask stops at bit 31. */
static uint32_t bmsk_1(uint32_t a, uint32_t b, bool clamp)
{
	uint32_t a1 = a & 31u, b1 = b & 31u;
	if (clamp && a >= 32)
		return 0;
	uint32_t low = ~0u << a1; /* from bit a1 up */
	if (clamp && b >= 32)
		return low;
	if (b1 == 0 || a1 + b1 >= 32)
		return b1 == 0 ? 0 : low;
	return low & ~(~0u << (a1 + b1));
}

static void bmsk(sc_alu_t *x, bool clamp)
{
	OPERANDS(x);
	LANES(x->mask, d[l] = bmsk_1((uint32_t)a[l], (uint32_t)b[l], clamp));
}

/* ---- dispatch ----------------------------------------------------------- */

/* Returns 0, or -1 (having written nothing, cc included) when the word is
 * not an integer instruction PTX defines. */
/* Whether the word's fields make an integer instruction: any field may
 * have been flipped, so every one is checked before use. */
static bool word_ok(const sc_insn_t *in)
{
	unsigned op = in->op, t = in->type, sub = in->sub, mods = in->mods;
	if (op >= SC_OP__COUNT || t >= SC_T__COUNT)
		return false;
	const rule_t *r = &rules[op];
	if (!(r->types & (1u << t)) || sub >= r->nsub || (mods & ~r->mods))
		return false;
	unsigned w = sc__type_bits(t);
	bool sat = mods & SC_MOD_SAT, cc = mods & M_CC;
	/* The finer rules: .sat only on add/sub.s32 and mad(24).hi.s32, never
	 * with a carry; carries only on 32/64-bit add/sub/mad.lo/hi; .wide only
	 * from 16 or 32 bits. */
	bool hi_only = op == SC_OP_MAD || op == SC_OP_MAD24;
	if (sat && (t != SC_T_S32 || cc || (hi_only && sub != SC_MUL_HI)))
		return false;
	if (cc && (!(T_CC & (1u << t)) || sub == SC_MUL_WIDE))
		return false;
	return !(sub == SC_MUL_WIDE && (op == SC_OP_MUL || op == SC_OP_MAD) && w > 32);
}

int sc__sem_int(sc_alu_t *x)
{
	const sc_insn_t *in = x->in;
	if (!word_ok(in))
		return -1;
	unsigned op = in->op, t = in->type, sub = in->sub, mods = in->mods;
	unsigned w = sc__type_bits(t);
	bool sgn = sc__type_is_signed(t), sat = mods & SC_MOD_SAT, cc = mods & M_CC;

	switch (op) {
	case SC_OP_ADD:
	case SC_OP_SUB:
		if (cc)
			add_sub_cc(x, w, op == SC_OP_SUB);
		else
			BY_WIDTH(add_sub, x, w, op == SC_OP_SUB, sat);
		break;
	case SC_OP_MUL: BY_WIDTH(mul_mad, x, w, zeros, sgn, sub, false); break;
	case SC_OP_MAD:
		if (cc)
			mad_cc(x, w, sgn, sub == SC_MUL_HI);
		else
			BY_WIDTH(mul_mad, x, w, x->c, sgn, sub, sat);
		break;
	case SC_OP_DIV:
	case SC_OP_REM: div_rem(x, w, sgn, op == SC_OP_REM); break;
	case SC_OP_ABS:
	case SC_OP_NEG: BY_WIDTH(abs_neg, x, w, op == SC_OP_NEG); break;
	case SC_OP_MIN:
	case SC_OP_MAX: BY_WIDTH(min_max, x, w, sgn, op == SC_OP_MAX); break;
	case SC_OP_MUL24: mul24(x, zeros, sgn, sub == SC_MUL_HI, false); break;
	case SC_OP_MAD24: mul24(x, x->c, sgn, sub == SC_MUL_HI, sat); break;
	case SC_OP_SAD: BY_WIDTH(sad, x, w, sgn); break;
	case SC_OP_POPC:
	case SC_OP_CLZ:
	case SC_OP_BREV: popc_clz_brev(x, op, w); break;
	case SC_OP_BFE: bfe(x, w, sgn); break;
	case SC_OP_BFI: bfi(x, w); break;
	case SC_OP_BFIND: bfind(x, w, sgn, sub & SC_BFIND_SHIFTAMT); break;
	case SC_OP_PRMT: prmt(x, sub); break;
	case SC_OP_SHF: shf(x, sub); break;
	case SC_OP_SHL:
	case SC_OP_SHR: BY_WIDTH(shift, x, w, sgn, op == SC_OP_SHR); break;
	case SC_OP_LOP3: lop3(x); break;
	case SC_OP_BMSK: bmsk(x, sub == 0); break;
	default: logic(x, op, w); break; /* and or xor not cnot: rules allow no other */
	}
	return 0;
}
