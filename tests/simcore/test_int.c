/* Tests of sc__sem_int (simcore/sem_int.c): golden cases hand-computed from
 * the PTX ISA text whose registers hold bits PTX cannot put there (the
 * others are the plain-text cases of tests/simcore/insn/), every valid opcode/type/sub/modifier combination against
 * a reference model written in another form (exact 128-bit arithmetic, bit
 * loops following the ISA pseudocode), carry chains, masks, refusals and a
 * fuzz of garbage instruction words. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sc_int.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define ALL 0xffffffffu
#define SENTINEL 0x5a5a5a5a5a5a5a5aull
#define CC_IO (SC_MOD_CC_IN | SC_MOD_CC_OUT)

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static sc_insn_t insn(unsigned op, unsigned type, unsigned sub, unsigned mods)
{
	sc_insn_t in;
	memset(&in, 0, sizeof in);
	in.op = (uint8_t)op;
	in.type = (uint8_t)type;
	in.sub = (uint8_t)sub;
	in.mods = (uint16_t)mods;
	return in;
}

/* An ALU block with every output set to SENTINEL, so writes show. */
static void alu_init(sc_alu_t *x, const sc_insn_t *in, uint32_t mask)
{
	memset(x, 0, sizeof *x);
	x->in = in;
	x->mask = mask;
	for (int l = 0; l < 32; l++)
		x->d[l] = x->d2[l] = SENTINEL;
}

/* Runs `in` with the same sources in all lanes of `mask`; returns the
 * result of the lowest active lane and checks the lanes agree. */
static uint64_t run(const sc_insn_t *in, uint32_t mask, uint64_t a, uint64_t b, uint64_t c,
                    uint64_t e, int *rc)
{
	sc_alu_t x;
	alu_init(&x, in, mask);
	for (int l = 0; l < 32; l++) {
		x.a[l] = a;
		x.b[l] = b;
		x.c[l] = c;
		x.e[l] = e;
	}
	*rc = sc__sem_int(&x);
	int first = __builtin_ctz(mask);
	for (int l = 0; l < 32; l++) {
		if (mask >> l & 1)
			cr_expect_eq(x.d[l], x.d[first], "lane %d differs", l);
		else
			cr_expect_eq(x.d[l], SENTINEL, "inactive lane %d written", l);
		cr_expect_eq(x.d2[l], SENTINEL, "d2 written in lane %d", l);
	}
	return x.d[first];
}

/* ======================================================================
 * Reference model
 * ====================================================================== */

static uint64_t lowbits(u128 v, unsigned w)
{
	return w >= 64 ? (uint64_t)v : (uint64_t)(v & (((u128)1 << w) - 1));
}

/* The value of the low w bits of raw, as the type reads them. */
static i128 tval(uint64_t raw, unsigned w, bool sgn)
{
	uint64_t u = lowbits(raw, w);
	if (sgn && ((u >> (w - 1)) & 1))
		return (i128)u - ((i128)1 << w);
	return (i128)u;
}

static i128 clamp_s32(i128 v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

static unsigned bit(uint64_t v, unsigned i) { return i < 64 ? (unsigned)(v >> i) & 1 : 0; }

/* Source byte for result byte k of prmt's fixed modes, as arithmetic on the
 * selector s = c[1:0] (the ISA gives these as tables). */
static unsigned prmt_mode_byte(unsigned mode, unsigned s, unsigned k)
{
	switch (mode) {
	case SC_PRMT_F4E: return k + s;
	case SC_PRMT_B4E: return (s - k) & 7;
	case SC_PRMT_RC8: return s;
	case SC_PRMT_ECL: return k > s ? k : s;
	case SC_PRMT_ECR: return k < s ? k : s;
	default: return (k & 1) | ((s & 1) << 1); /* rc16 */
	}
}

/* One lane of `in` on (a, b, c, e) with carry-in ci: the result and, for
 * .cc forms, the carry/borrow-out. */
static uint64_t ref(const sc_insn_t *in, uint64_t a, uint64_t b, uint64_t c, uint64_t e,
                    unsigned ci, unsigned *co)
{
	unsigned op = in->op, t = in->type, sub = in->sub, mods = in->mods;
	unsigned w = sc__type_bits(t);
	bool sgn = sc__type_is_signed(t), sat = mods & SC_MOD_SAT;
	i128 ta = tval(a, w, sgn), tb = tval(b, w, sgn);
	uint64_t r = 0;

	if (!(mods & SC_MOD_CC_IN))
		ci = 0;
	*co = 0;
	switch (op) {
	case SC_OP_ADD:
	case SC_OP_SUB: {
		if (mods & SC_MOD_CC_OUT || mods & SC_MOD_CC_IN) {
			i128 ua = (i128)lowbits(a, w), ub = (i128)lowbits(b, w);
			i128 s = op == SC_OP_ADD ? ua + ub + ci : ua - ub - ci;
			*co = op == SC_OP_ADD ? (unsigned)(s >> w) : s < 0;
			return lowbits((u128)s, w);
		}
		i128 s = op == SC_OP_ADD ? ta + tb : ta - tb;
		return lowbits((u128)(sat ? clamp_s32(s) : s), w);
	}
	case SC_OP_MUL:
	case SC_OP_MAD: {
		u128 p = sgn ? (u128)(ta * tb) : (u128)lowbits(a, w) * lowbits(b, w);
		u128 part = sub == SC_MUL_LO ? lowbits(p, w)
		            : sub == SC_MUL_HI ? lowbits(p >> w, w) : lowbits(p, 2 * w);
		if (op == SC_OP_MUL)
			return (uint64_t)part;
		if (sat)
			return lowbits((u128)clamp_s32(tval((uint64_t)part, 32, true) + tval(c, 32, true)), 32);
		if (sub == SC_MUL_WIDE)
			return lowbits(part + c, 2 * w);
		u128 s = part + lowbits(c, w) + ci;
		*co = (unsigned)(s >> w);
		return lowbits(s, w);
	}
	case SC_OP_DIV:
	case SC_OP_REM:
		if (tb == 0)
			return op == SC_OP_DIV ? lowbits(~(u128)0, w) : lowbits(a, w);
		return lowbits((u128)(op == SC_OP_DIV ? ta / tb : ta % tb), w);
	case SC_OP_ABS: return lowbits((u128)(ta < 0 ? -ta : ta), w);
	case SC_OP_NEG: return lowbits((u128)-ta, w);
	case SC_OP_MIN: return lowbits((u128)(ta < tb ? ta : tb), w);
	case SC_OP_MAX: return lowbits((u128)(ta > tb ? ta : tb), w);
	case SC_OP_MUL24:
	case SC_OP_MAD24: {
		i128 p = tval(a, 24, sgn) * tval(b, 24, sgn);
		uint64_t part = sub == SC_MUL_HI ? lowbits((u128)p >> 16, 32) : lowbits((u128)p, 32);
		if (op == SC_OP_MUL24)
			return part;
		if (sat)
			return lowbits((u128)clamp_s32(tval(part, 32, true) + tval(c, 32, true)), 32);
		return lowbits((u128)part + c, 32);
	}
	case SC_OP_SAD: {
		i128 diff = ta < tb ? tb - ta : ta - tb;
		return lowbits((u128)diff + c, w);
	}
	case SC_OP_POPC:
		for (unsigned i = 0; i < w; i++)
			r += bit(a, i);
		return r;
	case SC_OP_CLZ:
		while (r < w && !bit(a, w - 1 - (unsigned)r))
			r++;
		return r;
	case SC_OP_BREV:
		for (unsigned i = 0; i < w; i++)
			r |= (uint64_t)bit(a, i) << (w - 1 - i);
		return r;
	case SC_OP_BFIND: {
		uint64_t v = lowbits(a, w);
		if (sgn && bit(v, w - 1))
			v = lowbits(~v, w);
		r = 0xffffffff;
		for (int i = (int)w - 1; i >= 0; i--)
			if (bit(v, (unsigned)i)) {
				r = (uint64_t)i;
				break;
			}
		if ((sub & SC_BFIND_SHIFTAMT) && r != 0xffffffff)
			r = w - 1 - r;
		return r;
	}
	case SC_OP_BFE: { /* the ISA pseudocode, bit by bit */
		unsigned msb = w - 1, pos = b & 0xff, len = c & 0xff, sbit;
		sbit = (!sgn || len == 0) ? 0 : bit(a, pos + len - 1 < msb ? pos + len - 1 : msb);
		for (unsigned i = 0; i <= msb; i++)
			r |= (uint64_t)((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) << i;
		return r;
	}
	case SC_OP_BFI: {
		unsigned msb = w - 1, pos = c & 0xff, len = e & 0xff;
		r = lowbits(b, w);
		for (unsigned i = 0; i < len && pos + i <= msb; i++)
			r = (r & ~(1ull << (pos + i))) | ((uint64_t)bit(a, i) << (pos + i));
		return r;
	}
	case SC_OP_PRMT: {
		uint8_t bytes[8];
		for (unsigned k = 0; k < 4; k++) {
			bytes[k] = (uint8_t)(a >> (8 * k));
			bytes[k + 4] = (uint8_t)(b >> (8 * k));
		}
		for (unsigned k = 0; k < 4; k++) {
			unsigned v;
			if (sub == SC_PRMT_DEFAULT) {
				unsigned nib = (unsigned)(c >> (4 * k)) & 15;
				v = bytes[nib & 7];
				if (nib & 8)
					v = (v & 0x80) ? 0xff : 0x00;
			} else {
				v = bytes[prmt_mode_byte(sub, c & 3, k)];
			}
			r |= (uint64_t)v << (8 * k);
		}
		return r;
	}
	case SC_OP_SHF: {
		uint32_t n = (uint32_t)c;
		n = (sub & SC_SHF_CLAMP) ? (n > 32 ? 32 : n) : n % 32;
		uint64_t v = ((uint64_t)(uint32_t)b << 32) | (uint32_t)a;
		for (unsigned i = 0; i < 32; i++)
			r |= (uint64_t)((sub & SC_SHF_R) ? bit(v, i + n) : bit(v, 32 + i - n)) << i;
		return r;
	}
	case SC_OP_SHL:
	case SC_OP_SHR: {
		uint64_t n = (uint32_t)b;
		for (unsigned i = 0; i < w; i++) {
			unsigned v;
			if (op == SC_OP_SHL)
				v = i >= n ? bit(a, (unsigned)(i - n)) : 0;
			else
				v = i + n < w ? bit(a, (unsigned)(i + n)) : sgn ? bit(a, w - 1) : 0;
			r |= (uint64_t)v << i;
		}
		return r;
	}
	case SC_OP_AND: return lowbits(a & b, w);
	case SC_OP_OR: return lowbits(a | b, w);
	case SC_OP_XOR: return lowbits(a ^ b, w);
	case SC_OP_NOT:
		if (t == SC_T_PRED)
			return !(a & 1);
		return lowbits(~a, w);
	case SC_OP_CNOT: return lowbits(a, w) == 0;
	case SC_OP_LOP3:
		for (unsigned i = 0; i < 32; i++)
			r |= (uint64_t)bit(e & 0xff, bit(a, i) * 4 + bit(b, i) * 2 + bit(c, i)) << i;
		return r;
	case SC_OP_BMSK: { /* bit i is set when it lies in [pos, pos + width) and below 32 */
		uint64_t pos = (uint32_t)a, width = (uint32_t)b;
		if (sub == 1) /* wrap */
			pos &= 31, width &= 31;
		else if (pos >= 32) /* clamp */
			return 0;
		else if (width >= 32)
			width = 32;
		for (unsigned i = 0; i < 32; i++)
			r |= (uint64_t)(i >= pos && i < pos + width) << i;
		return r;
	}
	}
	cr_assert_fail("reference has no opcode %u", op);
	return 0;
}

/* ======================================================================
 * Every valid combination, checked against the reference
 * ====================================================================== */

enum { NCOMBO_MAX = 512 };
static sc_insn_t combos[NCOMBO_MAX];
static size_t ncombos;

static void add_combo(unsigned op, unsigned type, unsigned sub, unsigned mods)
{
	cr_assert_lt(ncombos, NCOMBO_MAX);
	combos[ncombos++] = insn(op, type, sub, mods);
}

static void add_types(unsigned op, const unsigned *types, size_t n, unsigned sub, unsigned mods)
{
	for (size_t i = 0; i < n; i++)
		add_combo(op, types[i], sub, mods);
}

#define TYPES(...) \
	(const unsigned[]){__VA_ARGS__}, sizeof((const unsigned[]){__VA_ARGS__}) / sizeof(unsigned)
#define NUM_TYPES TYPES(SC_T_U16, SC_T_U32, SC_T_U64, SC_T_S16, SC_T_S32, SC_T_S64)
#define CC_TYPES TYPES(SC_T_U32, SC_T_S32, SC_T_U64, SC_T_S64)
#define SGN_TYPES TYPES(SC_T_S16, SC_T_S32, SC_T_S64)
#define BF_TYPES TYPES(SC_T_U32, SC_T_U64, SC_T_S32, SC_T_S64)
#define W_TYPES TYPES(SC_T_B32, SC_T_B64)
#define SHIFT_TYPES TYPES(SC_T_B16, SC_T_B32, SC_T_B64, SC_T_U16, SC_T_U32, SC_T_U64, \
                          SC_T_S16, SC_T_S32, SC_T_S64)
#define LOGIC_TYPES TYPES(SC_T_PRED, SC_T_B16, SC_T_B32, SC_T_B64)

static void build_combos(void)
{
	static const unsigned ccmods[] = {SC_MOD_CC_OUT, SC_MOD_CC_IN, CC_IO};
	ncombos = 0;
	for (unsigned op = SC_OP_ADD; op <= SC_OP_SUB; op++) {
		add_types(op, NUM_TYPES, 0, 0);
		add_combo(op, SC_T_S32, 0, SC_MOD_SAT);
		for (int m = 0; m < 3; m++)
			add_types(op, CC_TYPES, 0, ccmods[m]);
	}
	for (unsigned op = SC_OP_MUL; op <= SC_OP_MAD; op++) {
		add_types(op, NUM_TYPES, SC_MUL_LO, 0);
		add_types(op, NUM_TYPES, SC_MUL_HI, 0);
		add_types(op, TYPES(SC_T_U16, SC_T_U32, SC_T_S16, SC_T_S32), SC_MUL_WIDE, 0);
	}
	add_combo(SC_OP_MAD, SC_T_S32, SC_MUL_HI, SC_MOD_SAT);
	for (int m = 0; m < 3; m++) {
		add_types(SC_OP_MAD, CC_TYPES, SC_MUL_LO, ccmods[m]);
		add_types(SC_OP_MAD, CC_TYPES, SC_MUL_HI, ccmods[m]);
	}
	static const unsigned num_ops[] = {SC_OP_DIV, SC_OP_REM, SC_OP_MIN, SC_OP_MAX, SC_OP_SAD};
	for (int i = 0; i < 5; i++)
		add_types(num_ops[i], NUM_TYPES, 0, 0);
	add_types(SC_OP_ABS, SGN_TYPES, 0, 0);
	add_types(SC_OP_NEG, SGN_TYPES, 0, 0);
	for (unsigned op = SC_OP_MUL24; op <= SC_OP_MAD24; op++)
		for (unsigned sub = SC_MUL_LO; sub <= SC_MUL_HI; sub++)
			add_types(op, TYPES(SC_T_U32, SC_T_S32), sub, 0);
	add_combo(SC_OP_MAD24, SC_T_S32, SC_MUL_HI, SC_MOD_SAT);
	add_types(SC_OP_POPC, W_TYPES, 0, 0);
	add_types(SC_OP_CLZ, W_TYPES, 0, 0);
	add_types(SC_OP_BREV, W_TYPES, 0, 0);
	add_types(SC_OP_BFI, W_TYPES, 0, 0);
	add_types(SC_OP_BFE, BF_TYPES, 0, 0);
	add_types(SC_OP_BFIND, BF_TYPES, 0, 0);
	add_types(SC_OP_BFIND, BF_TYPES, SC_BFIND_SHIFTAMT, 0);
	for (unsigned sub = SC_PRMT_DEFAULT; sub <= SC_PRMT_RC16; sub++)
		add_combo(SC_OP_PRMT, SC_T_B32, sub, 0);
	for (unsigned sub = 0; sub < 4; sub++)
		add_combo(SC_OP_SHF, SC_T_B32, sub, 0);
	add_types(SC_OP_SHL, SHIFT_TYPES, 0, 0);
	add_types(SC_OP_SHR, SHIFT_TYPES, 0, 0);
	for (unsigned op = SC_OP_AND; op <= SC_OP_CNOT; op++)
		add_types(op, LOGIC_TYPES, 0, 0);
	add_combo(SC_OP_LOP3, SC_T_B32, 0, 0);
	add_combo(SC_OP_BMSK, SC_T_B32, 0, 0); /* .clamp */
	add_combo(SC_OP_BMSK, SC_T_B32, 1, 0); /* .wrap */
}

/* Source values: uniform bits, small numbers (shift amounts, positions),
 * edges of every width, and small numbers under junk high bits. */
static uint64_t pick(void)
{
	static const uint64_t edges[] = {
		0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff, 0x800000,
		0xffffff, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x7fffffffffffffff,
		0x8000000000000000, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffff80000000,
		0xffffffff7fffffff, 0xffff8000, 0xffff7fff,
	};
	uint64_t r = rnd();
	switch (r & 7) {
	case 0: return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
	case 1: return (r >> 8) % 80;
	case 2: return (rnd() & ~0xffull) | ((r >> 8) % 80);
	case 3: return 0 - ((r >> 8) % 80);
	case 4: return (uint64_t)(uint32_t)rnd();
	default: return rnd();
	}
}

/* Runs `in` on `warps` random warps with random masks and compares every
 * lane, the carry flags and the untouched lanes with the reference. */
static void check_random(const sc_insn_t *in, int warps)
{
	bool pred = in->type == SC_T_PRED;
	for (int it = 0; it < warps; it++) {
		sc_alu_t x;
		uint32_t mask = (it & 3) == 0 ? ALL : (uint32_t)rnd();
		alu_init(&x, in, mask);
		x.cc = (uint32_t)rnd();
		uint32_t cc0 = x.cc;
		for (int l = 0; l < 32; l++) {
			x.a[l] = pred ? rnd() & 1 : pick();
			x.b[l] = pred ? rnd() & 1 : pick();
			x.c[l] = pick();
			x.e[l] = pick();
		}
		cr_assert_eq(sc__sem_int(&x), 0, "op %u type %u sub %u mods %#x refused", in->op,
		             in->type, in->sub, in->mods);
		uint32_t cc = cc0;
		for (int l = 0; l < 32; l++) {
			if (!(mask >> l & 1)) {
				cr_assert_eq(x.d[l], SENTINEL, "op %u: inactive lane %d written", in->op, l);
				continue;
			}
			unsigned co;
			uint64_t want = ref(in, x.a[l], x.b[l], x.c[l], x.e[l], cc0 >> l & 1, &co);
			cr_assert_eq(x.d[l], want,
			             "op %u type %u sub %u mods %#x: a=%#llx b=%#llx c=%#llx e=%#llx "
			             "cin=%u: got %#llx want %#llx", in->op, in->type, in->sub, in->mods,
			             (unsigned long long)x.a[l], (unsigned long long)x.b[l],
			             (unsigned long long)x.c[l], (unsigned long long)x.e[l],
			             cc0 >> l & 1, (unsigned long long)x.d[l], (unsigned long long)want);
			if (in->mods & SC_MOD_CC_OUT)
				cc = (cc & ~(1u << l)) | (co << l);
		}
		cr_assert_eq(x.cc, cc, "op %u type %u mods %#x: cc %#x want %#x", in->op, in->type,
		             in->mods, x.cc, cc);
		for (int l = 0; l < 32; l++)
			cr_assert_eq(x.d2[l], SENTINEL, "d2 written");
	}
}

static void check_op(unsigned op)
{
	size_t n = 0;
	build_combos();
	rng_state = 0x1234 + op;
	for (size_t i = 0; i < ncombos; i++)
		if (combos[i].op == op) {
			check_random(&combos[i], 300);
			n++;
		}
	cr_assert_gt(n, 0, "no combination of op %u", op);
}

#define RANDOM_TEST(name) \
	Test(sem_int, random_##name) { check_op(SC_OP_##name); }
RANDOM_TEST(ADD)
RANDOM_TEST(SUB)
RANDOM_TEST(MUL)
RANDOM_TEST(MAD)
RANDOM_TEST(DIV)
RANDOM_TEST(REM)
RANDOM_TEST(ABS)
RANDOM_TEST(NEG)
RANDOM_TEST(MIN)
RANDOM_TEST(MAX)
RANDOM_TEST(MUL24)
RANDOM_TEST(MAD24)
RANDOM_TEST(SAD)
RANDOM_TEST(POPC)
RANDOM_TEST(CLZ)
RANDOM_TEST(BREV)
RANDOM_TEST(BFE)
RANDOM_TEST(BFI)
RANDOM_TEST(BFIND)
RANDOM_TEST(PRMT)
RANDOM_TEST(SHF)
RANDOM_TEST(SHL)
RANDOM_TEST(SHR)
RANDOM_TEST(AND)
RANDOM_TEST(OR)
RANDOM_TEST(XOR)
RANDOM_TEST(NOT)
RANDOM_TEST(CNOT)
RANDOM_TEST(LOP3)
RANDOM_TEST(BMSK)

/* ======================================================================
 * Golden cases, hand-computed from the ISA text, whose sources hold bits
 * above the type's width (JUNK, or a wider value in a 16- or 32-bit
 * register): only a fault can put them there, so PTX cannot express them. The
 * other golden cases are plain-text cases: tests/simcore/insn/int.txt and
 * bit.txt, run through the parser and the whole pipeline.
 * ====================================================================== */

typedef struct gold {
	uint8_t op, type, sub;
	uint16_t mods;
	uint64_t a, b, c, e, d;
} gold_t;

#define G(op, t, sub, mods, a, b, c, e, d) \
	{SC_OP_##op, SC_T_##t, sub, mods, a, b, c, e, d}
#define SAT SC_MOD_SAT
#define LO SC_MUL_LO
#define HI SC_MUL_HI
#define WIDE SC_MUL_WIDE
#define JUNK 0xdead000000000000ull /* high bits a narrow register may hold */

static const gold_t golden[] = {
	G(ADD, S32, 0, SAT, JUNK | 0x7fffffff, 1, 0, 0, 0x7fffffff),
	G(ADD, U16, 0, 0, 0x1234ffff, 2, 0, 0, 1),
	G(MUL, S32, LO, 0, JUNK | 3, 0xfffffffe, 0, 0, 0xfffffffa),
	G(MUL, U32, WIDE, 0, JUNK | 2, 0x80000000, 0, 0, 0x100000000),
	G(DIV, S16, 0, 0, 5, 0x10000, 0, 0, 0xffff),
	G(REM, S16, 0, 0, JUNK | 0xfffb, 0, 0, 0, 0xfffb),
	G(DIV, U16, 0, 0, 0xabcd0010, 0x12340004, 0, 0, 4),
	G(ABS, S16, 0, 0, 0x12348000, 0, 0, 0, 0x8000),
	G(MAX, S16, 0, 0, 0xffff, 0x10000, 0, 0, 0),
	G(POPC, B32, 0, 0, 0xffffffff00000001, 0, 0, 0, 1),
	G(CLZ, B32, 0, 0, 0xffffffff00000001, 0, 0, 0, 31),
	G(BREV, B32, 0, 0, JUNK | 0x12345678, 0, 0, 0, 0x1e6a2c48),
	G(BFIND, U32, 0, 0, 0xffffffff00000000, 0, 0, 0, 0xffffffff),
	G(BFI, B32, 0, 0, ~0ull, 0, 0, 32, 0xffffffff),
	G(BFI, B32, 0, 0, 0, JUNK | 0xffffffff, 255, 255, 0xffffffff),
	G(SHF, B32, SC_SHF_CLAMP, 0, 0x80000000, 1, 0x100000001, 0, 3),
	G(SHL, B32, 0, 0, 1, 0x100000001, 0, 0, 2),
	G(SHR, S16, 0, 0, 0x12348000, 1, 0, 0, 0xc000),
	G(SHR, U16, 0, 0, 0x12348000, 1, 0, 0, 0x4000),
	G(SHR, S32, 0, 0, JUNK | 0x80000000, 0xffffffff, 0, 0, 0xffffffff),
	G(OR, B16, 0, 0, 0x12340f00, 0x00f0, 0, 0, 0x0ff0),
	G(NOT, B16, 0, 0, 0x12340000, 0, 0, 0, 0xffff),
	G(CNOT, B16, 0, 0, 0x10000, 0, 0, 0, 1),
};

Test(sem_int, golden)
{
	for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
		const gold_t *g = &golden[i];
		sc_insn_t in = insn(g->op, g->type, g->sub, g->mods);
		int rc;
		/* Converged and diverged warps take different loops. */
		uint64_t full = run(&in, ALL, g->a, g->b, g->c, g->e, &rc);
		cr_expect_eq(rc, 0, "golden %zu (%s) refused", i, sc__ops[g->op].name);
		uint64_t part = run(&in, 0x00f0a005, g->a, g->b, g->c, g->e, &rc);
		cr_expect_eq(rc, 0);
		cr_expect_eq(full, g->d, "golden %zu: %s.%s sub %u mods %#x: got %#llx want %#llx", i,
		             sc__ops[g->op].name, sc__type_names[g->type], g->sub, g->mods,
		             (unsigned long long)full, (unsigned long long)g->d);
		cr_expect_eq(part, g->d, "golden %zu (diverged): got %#llx want %#llx", i,
		             (unsigned long long)part, (unsigned long long)g->d);
	}
}

/* The golden table agrees with the reference model too, so both are
 * checked against the hand-computed values. */
Test(sem_int, golden_vs_reference)
{
	for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
		const gold_t *g = &golden[i];
		sc_insn_t in = insn(g->op, g->type, g->sub, g->mods);
		unsigned co;
		uint64_t want = ref(&in, g->a, g->b, g->c, g->e, 0, &co);
		cr_expect_eq(want, g->d, "reference disagrees with golden %zu: %#llx", i,
		             (unsigned long long)want);
	}
}

/* ======================================================================
 * Carry chains
 * ====================================================================== */

/* One step of a chain: d[l] = op(a[l], b[l], c[l]) with the warp's cc. */
static void step(sc_alu_t *x, unsigned op, unsigned type, unsigned sub, unsigned mods,
                 const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
{
	sc_insn_t in = insn(op, type, sub, mods);
	x->in = &in;
	memcpy(x->a, a, sizeof x->a);
	memcpy(x->b, b, sizeof x->b);
	if (c)
		memcpy(x->c, c, sizeof x->c);
	cr_assert_eq(sc__sem_int(x), 0, "chain step op %u refused", op);
	memcpy(d, x->d, sizeof x->d);
	x->in = NULL;
}

/* 128-bit operands per lane: lanes 0..3 are chosen so that carries
 * propagate through all, none, some and alternate limbs. */
static void chain_operands(u128 *p, u128 *q)
{
	rng_state = 99;
	for (int l = 0; l < 32; l++) {
		p[l] = ((u128)rnd() << 64) | rnd();
		q[l] = ((u128)rnd() << 64) | rnd();
	}
	p[0] = ~(u128)0, q[0] = 1;                                  /* ripples through */
	p[1] = ((u128)0x1111 << 64) | 0x2222, q[1] = 0x3333;       /* no carry */
	p[2] = (u128)0xffffffff, q[2] = 1;                          /* only limb 0 */
	p[3] = ((u128)0xffffffff << 64) | 0xffffffff00000001ull,
	q[3] = ((u128)1 << 64) | 0xffffffffull;                     /* alternate */
	p[4] = 0, q[4] = 1;                                         /* borrows through */
	p[5] = (u128)1 << 96, q[5] = 1;                             /* borrow up to limb 3 */
}

static void limbs32(const u128 *v, int k, uint64_t *out)
{
	for (int l = 0; l < 32; l++)
		out[l] = (uint32_t)(v[l] >> (32 * k));
}

Test(sem_int, add_chain_128_u32)
{
	u128 p[32], q[32];
	uint64_t a[32], b[32], d[4][32];
	sc_alu_t x;
	chain_operands(p, q);
	alu_init(&x, NULL, ALL);
	x.cc = 0xa5a5a5a5; /* stale flags must not leak into add.cc */
	static const unsigned mods[4] = {SC_MOD_CC_OUT, CC_IO, CC_IO, SC_MOD_CC_IN};
	for (int k = 0; k < 4; k++) {
		limbs32(p, k, a);
		limbs32(q, k, b);
		step(&x, SC_OP_ADD, k & 1 ? SC_T_S32 : SC_T_U32, 0, mods[k], a, b, NULL, d[k]);
	}
	for (int l = 0; l < 32; l++) {
		u128 want = p[l] + q[l];
		for (int k = 0; k < 4; k++)
			cr_assert_eq(d[k][l], (uint32_t)(want >> (32 * k)), "lane %d limb %d", l, k);
	}
}

Test(sem_int, sub_chain_96_u32)
{
	u128 p[32], q[32];
	uint64_t a[32], b[32], d[3][32];
	sc_alu_t x;
	chain_operands(p, q);
	alu_init(&x, NULL, ALL);
	static const unsigned mods[3] = {SC_MOD_CC_OUT, CC_IO, SC_MOD_CC_IN};
	for (int k = 0; k < 3; k++) {
		limbs32(p, k, a);
		limbs32(q, k, b);
		step(&x, SC_OP_SUB, SC_T_U32, 0, mods[k], a, b, NULL, d[k]);
	}
	for (int l = 0; l < 32; l++) {
		u128 m96 = ((u128)1 << 96) - 1, pl = p[l] & m96, ql = q[l] & m96;
		u128 want = (pl - ql) & m96;
		for (int k = 0; k < 3; k++)
			cr_assert_eq(d[k][l], (uint32_t)(want >> (32 * k)), "lane %d limb %d", l, k);
	}
	/* The last step had no .cc: the flags are those of the middle step,
	 * which is the borrow out of the low 64 bits. */
	uint32_t mid = 0;
	for (int l = 0; l < 32; l++)
		mid |= (uint32_t)((uint64_t)p[l] < (uint64_t)q[l]) << l;
	cr_assert_eq(x.cc, mid);
}

Test(sem_int, add_sub_chain_128_u64)
{
	u128 p[32], q[32];
	uint64_t a[2][32], b[2][32], s[2][32], dd[2][32];
	sc_alu_t x;
	chain_operands(p, q);
	for (int l = 0; l < 32; l++)
		for (int k = 0; k < 2; k++) {
			a[k][l] = (uint64_t)(p[l] >> (64 * k));
			b[k][l] = (uint64_t)(q[l] >> (64 * k));
		}
	alu_init(&x, NULL, ALL);
	step(&x, SC_OP_ADD, SC_T_U64, 0, SC_MOD_CC_OUT, a[0], b[0], NULL, s[0]);
	step(&x, SC_OP_ADD, SC_T_S64, 0, CC_IO, a[1], b[1], NULL, s[1]);
	uint32_t carry = x.cc;
	step(&x, SC_OP_SUB, SC_T_S64, 0, SC_MOD_CC_OUT, a[0], b[0], NULL, dd[0]);
	step(&x, SC_OP_SUB, SC_T_U64, 0, CC_IO, a[1], b[1], NULL, dd[1]);
	for (int l = 0; l < 32; l++) {
		u128 sum = p[l] + q[l], diff = p[l] - q[l];
		cr_assert_eq(s[0][l], (uint64_t)sum, "lane %d", l);
		cr_assert_eq(s[1][l], (uint64_t)(sum >> 64), "lane %d", l);
		cr_assert_eq(dd[0][l], (uint64_t)diff, "lane %d", l);
		cr_assert_eq(dd[1][l], (uint64_t)(diff >> 64), "lane %d", l);
		cr_assert_eq(carry >> l & 1, (unsigned)(sum < p[l]), "carry lane %d", l);
		cr_assert_eq(x.cc >> l & 1, (unsigned)(p[l] < q[l]), "borrow lane %d", l);
	}
}

/* The ISA's extended-precision multiply, [r3,r2,r1,r0] = [r5,r4] * [r7,r6]. */
Test(sem_int, madc_chain_64x64)
{
	u128 p[32], q[32];
	uint64_t r[8][32], zero[32] = {0};
	sc_alu_t x;
	chain_operands(p, q);
	p[6] = q[6] = ~(u128)0; /* every carry set */
	for (int l = 0; l < 32; l++) {
		r[4][l] = (uint32_t)p[l], r[5][l] = (uint32_t)(p[l] >> 32);
		r[6][l] = (uint32_t)q[l], r[7][l] = (uint32_t)(q[l] >> 32);
	}
	alu_init(&x, NULL, ALL);
	const unsigned U = SC_T_U32, O = SC_MOD_CC_OUT, I = SC_MOD_CC_IN;
	step(&x, SC_OP_MUL, U, LO, 0, r[4], r[6], NULL, r[0]);
	step(&x, SC_OP_MUL, U, HI, 0, r[4], r[6], NULL, r[1]);
	step(&x, SC_OP_MAD, U, LO, O, r[5], r[6], r[1], r[1]);
	step(&x, SC_OP_MAD, U, HI, I, r[5], r[6], zero, r[2]);
	step(&x, SC_OP_MAD, U, LO, O, r[4], r[7], r[1], r[1]);
	step(&x, SC_OP_MAD, U, HI, I | O, r[4], r[7], r[2], r[2]);
	step(&x, SC_OP_ADD, U, 0, I, zero, zero, NULL, r[3]);
	step(&x, SC_OP_MAD, U, LO, O, r[5], r[7], r[2], r[2]);
	step(&x, SC_OP_MAD, U, HI, I, r[5], r[7], r[3], r[3]);
	for (int l = 0; l < 32; l++) {
		u128 want = (u128)(uint64_t)p[l] * (uint64_t)q[l];
		for (int k = 0; k < 4; k++)
			cr_assert_eq(r[k][l], (uint32_t)(want >> (32 * k)), "lane %d word %d", l, k);
	}
}

/* [d2,d1,d0] = [a1,a0] * b on u64 limbs with mad.lo.cc and madc.hi. */
Test(sem_int, madc_chain_128x64)
{
	u128 p[32], q[32];
	uint64_t a0[32], a1[32], b[32], d0[32], d1[32], d2[32], zero[32] = {0};
	sc_alu_t x;
	chain_operands(p, q);
	p[6] = ~(u128)0, q[6] = ~(u128)0;
	for (int l = 0; l < 32; l++)
		a0[l] = (uint64_t)p[l], a1[l] = (uint64_t)(p[l] >> 64), b[l] = (uint64_t)q[l];
	alu_init(&x, NULL, ALL);
	step(&x, SC_OP_MUL, SC_T_U64, LO, 0, a0, b, NULL, d0);
	step(&x, SC_OP_MUL, SC_T_U64, HI, 0, a0, b, NULL, d1);
	step(&x, SC_OP_MAD, SC_T_U64, LO, SC_MOD_CC_OUT, a1, b, d1, d1);
	step(&x, SC_OP_MAD, SC_T_U64, HI, SC_MOD_CC_IN, a1, b, zero, d2);
	for (int l = 0; l < 32; l++) {
		u128 lo = (u128)a0[l] * b[l], hi = (u128)a1[l] * b[l];
		u128 mid = (lo >> 64) + (uint64_t)hi;
		cr_assert_eq(d0[l], (uint64_t)lo, "lane %d", l);
		cr_assert_eq(d1[l], (uint64_t)mid, "lane %d", l);
		cr_assert_eq(d2[l], (uint64_t)((hi >> 64) + (mid >> 64)), "lane %d", l);
	}
}

/* Flags of inactive lanes survive; inactive lanes read no carry. */
Test(sem_int, carry_mask)
{
	sc_insn_t in = insn(SC_OP_ADD, SC_T_U32, 0, CC_IO);
	sc_alu_t x;
	alu_init(&x, &in, 0x0000ffff);
	x.cc = 0xffff0000; /* lanes 16..31 set, 0..15 clear */
	for (int l = 0; l < 32; l++)
		x.a[l] = 0xffffffff, x.b[l] = l & 1;
	cr_assert_eq(sc__sem_int(&x), 0);
	for (int l = 0; l < 16; l++)
		cr_assert_eq(x.d[l], (l & 1) ? 0 : 0xffffffff, "lane %d", l);
	/* Odd active lanes carried out; even ones did not; 16..31 kept. */
	cr_assert_eq(x.cc, 0xffff0000 | 0xaaaa);

	in = insn(SC_OP_ADD, SC_T_U32, 0, SC_MOD_CC_IN); /* addc without .cc */
	alu_init(&x, &in, 0x000000f0);
	x.cc = 0x00000050;
	cr_assert_eq(sc__sem_int(&x), 0);
	cr_assert_eq(x.cc, 0x00000050, "flags written without .cc");
	cr_assert_eq(x.d[4], 1);
	cr_assert_eq(x.d[5], 0);
	cr_assert_eq(x.d[6], 1);
	cr_assert_eq(x.d[7], 0);
	cr_assert_eq(x.d[0], SENTINEL);
}

/* ======================================================================
 * Masks, refusals, garbage
 * ====================================================================== */

Test(sem_int, mask_handling)
{
	static const unsigned ops[] = {SC_OP_ADD, SC_OP_MUL, SC_OP_SHL, SC_OP_AND, SC_OP_MIN,
	                               SC_OP_DIV, SC_OP_PRMT, SC_OP_BFE};
	static const uint32_t masks[] = {0, 1, 0x80000000, 0x0f0f0f0f, 0xfffffffe, ALL};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		for (size_t j = 0; j < sizeof masks / sizeof masks[0]; j++) {
			sc_insn_t in = insn(ops[i], ops[i] == SC_OP_PRMT ? SC_T_B32 : SC_T_U32, 0, 0);
			if (ops[i] == SC_OP_AND)
				in.type = SC_T_B32;
			sc_alu_t x;
			alu_init(&x, &in, masks[j]);
			for (int l = 0; l < 32; l++)
				x.a[l] = (uint64_t)l + 7, x.b[l] = 3, x.c[l] = 4;
			x.cc = 0x12345678;
			cr_assert_eq(sc__sem_int(&x), 0);
			cr_assert_eq(x.cc, 0x12345678);
			for (int l = 0; l < 32; l++)
				if (masks[j] >> l & 1)
					cr_assert_neq(x.d[l], SENTINEL, "op %u lane %d not written", ops[i], l);
				else
					cr_assert_eq(x.d[l], SENTINEL, "op %u lane %d written", ops[i], l);
		}
}

/* Combinations the PTX ISA does not define; each is refused without a
 * write. */
Test(sem_int, undefined_combinations)
{
	static const struct {
		uint8_t op, type, sub;
		uint16_t mods;
	} bad[] = {
		{SC_OP_POPC, SC_T_F32, 0, 0},
		{SC_OP_POPC, SC_T_U32, 0, 0},
		{SC_OP_ADD, SC_T_F32, 0, 0},
		{SC_OP_ADD, SC_T_U8, 0, 0},
		{SC_OP_ADD, SC_T_B32, 0, 0},
		{SC_OP_ADD, SC_T_PRED, 0, 0},
		{SC_OP_ADD, SC_T_B128, 0, 0},
		{SC_OP_ADD, SC_T_NONE, 0, 0},
		{SC_OP_ADD, SC_T_U32, 0, SC_MOD_SAT},
		{SC_OP_ADD, SC_T_S64, 0, SC_MOD_SAT},
		{SC_OP_ADD, SC_T_S32, 0, SC_MOD_SAT | SC_MOD_CC_OUT},
		{SC_OP_ADD, SC_T_U16, 0, SC_MOD_CC_OUT},
		{SC_OP_SUB, SC_T_S16, 0, SC_MOD_CC_IN},
		{SC_OP_ADD, SC_T_U32, 1, 0},
		{SC_OP_ADD, SC_T_U32, 0, SC_MOD_FTZ},
		{SC_OP_ADD, SC_T_U32, 0, SC_RND_RN},
		{SC_OP_ADD, SC_T_U32, 0, SC_MOD_RESERVED},
		{SC_OP_MUL, SC_T_U64, SC_MUL_WIDE, 0},
		{SC_OP_MUL, SC_T_S64, SC_MUL_WIDE, 0},
		{SC_OP_MUL, SC_T_U32, 3, 0},
		{SC_OP_MUL, SC_T_U32, SC_MUL_LO, SC_MOD_CC_OUT},
		{SC_OP_MUL, SC_T_S32, SC_MUL_HI, SC_MOD_SAT},
		{SC_OP_MAD, SC_T_S32, SC_MUL_LO, SC_MOD_SAT},
		{SC_OP_MAD, SC_T_U32, SC_MUL_HI, SC_MOD_SAT},
		{SC_OP_MAD, SC_T_S64, SC_MUL_HI, SC_MOD_SAT},
		{SC_OP_MAD, SC_T_U32, SC_MUL_WIDE, SC_MOD_CC_OUT},
		{SC_OP_MAD, SC_T_U16, SC_MUL_LO, SC_MOD_CC_OUT},
		{SC_OP_MAD, SC_T_S32, SC_MUL_HI, SC_MOD_SAT | SC_MOD_CC_IN},
		{SC_OP_DIV, SC_T_B32, 0, 0},
		{SC_OP_DIV, SC_T_F64, 0, 0},
		{SC_OP_ABS, SC_T_U32, 0, 0},
		{SC_OP_NEG, SC_T_U64, 0, 0},
		{SC_OP_MIN, SC_T_B32, 0, 0},
		{SC_OP_MUL24, SC_T_U64, SC_MUL_LO, 0},
		{SC_OP_MUL24, SC_T_U32, SC_MUL_WIDE, 0},
		{SC_OP_MAD24, SC_T_S32, SC_MUL_LO, SC_MOD_SAT},
		{SC_OP_MAD24, SC_T_U32, SC_MUL_HI, SC_MOD_SAT},
		{SC_OP_SAD, SC_T_B16, 0, 0},
		{SC_OP_CLZ, SC_T_B16, 0, 0},
		{SC_OP_BREV, SC_T_U32, 0, 0},
		{SC_OP_BFE, SC_T_B32, 0, 0},
		{SC_OP_BFE, SC_T_U16, 0, 0},
		{SC_OP_BFI, SC_T_U32, 0, 0},
		{SC_OP_BFIND, SC_T_B32, 0, 0},
		{SC_OP_BFIND, SC_T_U32, 2, 0},
		{SC_OP_PRMT, SC_T_B64, 0, 0},
		{SC_OP_PRMT, SC_T_B32, 7, 0},
		{SC_OP_PRMT, SC_T_B32, 255, 0},
		{SC_OP_SHF, SC_T_B64, 0, 0},
		{SC_OP_SHF, SC_T_B32, 4, 0},
		{SC_OP_SHL, SC_T_B8, 0, 0},
		{SC_OP_SHR, SC_T_PRED, 0, 0},
		{SC_OP_AND, SC_T_U32, 0, 0},
		{SC_OP_XOR, SC_T_S32, 0, 0},
		{SC_OP_NOT, SC_T_B8, 0, 0},
		{SC_OP_LOP3, SC_T_B64, 0, 0},
		{SC_OP_LOP3, SC_T_B32, 1, 0},
		{SC_OP_INVALID, SC_T_U32, 0, 0},
		{SC_OP_FMA, SC_T_F32, 0, 0},
		{SC_OP_SETP, SC_T_U32, 0, 0},
		{SC_OP_MOV, SC_T_U32, 0, 0},
		{SC_OP_LD, SC_T_U32, 0, 0},
		{SC_OP_ACTIVEMASK, SC_T_B32, 0, 0},
		{SC_OP__COUNT, SC_T_U32, 0, 0},
		{255, SC_T_U32, 0, 0},
		{SC_OP_ADD, SC_T__COUNT, 0, 0},
		{SC_OP_ADD, 255, 0, 0},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sc_insn_t in = insn(bad[i].op, bad[i].type, bad[i].sub, bad[i].mods);
		sc_alu_t x;
		alu_init(&x, &in, ALL);
		x.cc = 0x0badcafe;
		cr_expect_eq(sc__sem_int(&x), -1, "case %zu (op %u type %u sub %u mods %#x) accepted",
		             i, bad[i].op, bad[i].type, bad[i].sub, bad[i].mods);
		cr_expect_eq(x.cc, 0x0badcafe, "case %zu wrote cc", i);
		for (int l = 0; l < 32; l++)
			cr_expect_eq(x.d[l], SENTINEL, "case %zu wrote lane %d", i, l);
	}
}

/* Flipped instruction words: anything may come; the answer is 0 or -1 and a
 * refusal writes nothing (ASan/UBSan builds check the "no crash" part). */
Test(sem_int, fuzz_garbage_words)
{
	rng_state = 2024;
	int accepted = 0;
	for (int it = 0; it < 200000; it++) {
		sc_insn_t in;
		uint64_t w[4] = {rnd(), rnd(), rnd(), rnd()};
		memcpy(&in, w, sizeof in);
		if (it & 1) /* half the time a valid opcode with junk elsewhere */
			in.op = (uint8_t)(SC_OP_ADD + rnd() % (SC_OP_LOP3 - SC_OP_ADD + 1));
		if ((it & 3) == 1) { /* and a quarter of those with few junk bits */
			in.type = (uint8_t)(rnd() % SC_T__COUNT);
			in.sub = (rnd() & 1) ? (uint8_t)(rnd() % 8) : 0;
			in.mods = (rnd() & 1) ? in.mods & (SC_MOD_SAT | CC_IO) : 0;
		}
		sc_alu_t x;
		alu_init(&x, &in, (uint32_t)rnd());
		for (int l = 0; l < 32; l++)
			x.a[l] = rnd(), x.b[l] = rnd(), x.c[l] = rnd(), x.e[l] = rnd();
		x.cc = (uint32_t)rnd();
		uint32_t cc0 = x.cc;
		int rc = sc__sem_int(&x);
		cr_assert(rc == 0 || rc == -1, "rc %d", rc);
		if (rc == 0) {
			accepted++;
			continue;
		}
		cr_assert_eq(x.cc, cc0);
		for (int l = 0; l < 32; l++)
			cr_assert_eq(x.d[l], SENTINEL);
	}
	cr_assert_gt(accepted, 1000, "the fuzz should also reach the semantics (%d)", accepted);
}

/* Every combination the reference knows is accepted, and nothing else among
 * the integer opcodes' op/type/sub/{sat,cc} space. */
Test(sem_int, accepted_set_is_exact)
{
	build_combos();
	for (unsigned op = 0; op < SC_OP__COUNT; op++)
		for (unsigned t = 0; t < SC_T__COUNT; t++)
			for (unsigned sub = 0; sub < 8; sub++)
				for (unsigned m = 0; m < 8; m++) {
					unsigned mods = (m & 1 ? SC_MOD_SAT : 0) | (m & 2 ? SC_MOD_CC_IN : 0) |
					                (m & 4 ? SC_MOD_CC_OUT : 0);
					sc_insn_t in = insn(op, t, sub, mods);
					bool listed = false;
					for (size_t i = 0; i < ncombos && !listed; i++)
						listed = !memcmp(&combos[i], &in, sizeof in);
					sc_alu_t x;
					alu_init(&x, &in, ALL);
					int rc = sc__sem_int(&x);
					cr_assert_eq(rc, listed ? 0 : -1, "%s.%s sub %u mods %#x: rc %d",
					             sc__ops[op].name, sc__type_names[t], sub, mods, rc);
				}
}
