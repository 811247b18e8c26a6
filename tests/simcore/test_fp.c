/* Unit tests of the floating-point, comparison and conversion semantics
 * (simcore/sem_fp.c, simcore/sem_cmp.c) on instruction words built here:
 * refused combinations, registers with bits above their type, garbage
 * words, the half-precision rounding helpers, and random operands against
 * the host's IEEE arithmetic. The hand-derived tables of instructions and
 * results are plain-text cases (tests/simcore/insn/, run through the parser
 * and the whole pipeline). */
#include <criterion/criterion.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

#define LANE 7 /* the lane the tables run on: not 0, to catch indexing slips */
#define SENT 0x5a5a5a5a5a5a5a5aull /* what lanes outside the mask must keep */
#define ERR (-1)

typedef struct tcase {
	uint8_t op, type, stype, sub;
	uint16_t mods;
	uint8_t aux;
	uint64_t a, b, c;
	int rc;       /* expected return */
	uint64_t d;   /* expected result when rc == 0 */
	uint64_t d2;  /* expected q of setp */
	const char *what;
} tcase_t;

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static sc_insn_t mkinsn(const tcase_t *k)
{
	sc_insn_t in;
	memset(&in, 0, sizeof in);
	in.op = k->op;
	in.type = k->type;
	in.stype = k->stype;
	in.sub = k->sub;
	in.mods = k->mods;
	in.aux = k->aux;
	return in;
}

static int dispatch(sc_alu_t *x)
{
	const sc_insn_t *in = x->in;
	if (in->op >= SC_OP__COUNT)
		return -1;
	return sc__ops[in->op].unit == SC_U_CMP ? sc__sem_cmp(x) : sc__sem_fp(x);
}

/* Runs one row on lane LANE and checks the result, the untouched lanes and
 * the rounding mode left behind. */
static void run_case(const tcase_t *k)
{
	const sc_insn_t in = mkinsn(k);
	static sc_alu_t x;
	for (int i = 0; i < 32; i++) {
		x.a[i] = x.b[i] = x.c[i] = x.e[i] = 0;
		x.d[i] = x.d2[i] = SENT;
	}
	x.in = &in;
	x.mask = 1u << LANE;
	x.a[LANE] = k->a;
	x.b[LANE] = k->b;
	x.c[LANE] = k->c;
	const int rc = dispatch(&x);
	cr_expect_eq(rc, k->rc, "%s: returned %d, expected %d", k->what, rc, k->rc);
	cr_expect_eq(fegetround(), FE_TONEAREST, "%s: rounding mode not restored", k->what);
	for (int i = 0; i < 32; i++)
		if (i != LANE)
			cr_expect(x.d[i] == SENT && x.d2[i] == SENT, "%s: lane %d written", k->what, i);
	if (rc != 0 || k->rc != 0)
		return;
	cr_expect_eq(x.d[LANE], k->d, "%s: got %#llx, expected %#llx", k->what,
	             (unsigned long long)x.d[LANE], (unsigned long long)k->d);
	if (k->op == SC_OP_SETP)
		cr_expect_eq(x.d2[LANE], k->d2, "%s: q is %#llx, expected %#llx", k->what,
		             (unsigned long long)x.d2[LANE], (unsigned long long)k->d2);
}

static void run_table(const tcase_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_case(&t[i]);
}

#define RUN(t) run_table(t, sizeof t / sizeof t[0])

/* Row builders. R(x) is the rounding field, FTZ/SAT/APX/FULL the flags. */
#define R(r) (SC_RND_##r)
#define FTZ SC_MOD_FTZ
#define SAT SC_MOD_SAT
#define APX SC_MOD_APPROX
#define FULL SC_MOD_FULL
#define OPR(op, ty, mods, a, b, c, d) \
	{SC_OP_##op, SC_T_##ty, 0, 0, (mods), 0, (a), (b), (c), 0, (d), 0, #op "." #ty " " #mods " " #a " " #b " " #c}
#define BAD(op, ty, st, sub, mods) \
	{SC_OP_##op, SC_T_##ty, SC_T_##st, (sub), (mods), 0, 0, 0, 0, ERR, 0, 0, "invalid " #op "." #ty "." #st " " #sub " " #mods}
#define CVT(dt, st, mods, a, d) \
	{SC_OP_CVT, SC_T_##dt, SC_T_##st, 0, (mods), 0, (a), 0, 0, 0, (d), 0, "cvt." #dt "." #st " " #mods " " #a}

/* f32 constants */
#define ONE 0x3f800000u
#define CNAN 0x7fffffffu

/* f64 constants */
#define DINF 0x7ff0000000000000ull

/* ====================================================================== */

/* The instruction tables of these semantics are plain-text cases now,
 * run through the parser and the whole pipeline: tests/simcore/insn/fp32.txt,
 * fp64.txt, f16.txt, cmp.txt and cvt.txt. What stays here is what PTX cannot
 * express: instruction words the parser never builds (refused), and register
 * contents valid PTX cannot make (bits above a narrow value). */

/* Combinations the ISA does not define: refused, nothing written. */
Test(sem_fp, refusals)
{
	static const tcase_t t[] = {
		{SC_OP_MUL, SC_T_F32, 0, SC_MUL_HI, 0, 0, ONE, ONE, 0, ERR, 0, 0, "mul.hi.f32"},
		{SC_OP_MAD, SC_T_F32, 0, SC_MUL_WIDE, 0, 0, ONE, ONE, 0, ERR, 0, 0, "mad.wide.f32"},
		BAD(DIV, F32, NONE, 0, APX | R(RN)),
		BAD(SQRT, F32, NONE, 0, FULL | R(RZ)),
		BAD(ADD, F32, NONE, 0, R(RNI)),
		BAD(ADD, F32, NONE, 0, 9),
		BAD(ADD, F32, NONE, 0, 15),
		BAD(SIN, F32, NONE, 0, APX | R(RN)),
		BAD(SIN, F64, NONE, 0, APX),
		BAD(TANH, F64, NONE, 0, APX),
		BAD(ABS, F32, NONE, 0, R(RN)),
		BAD(MIN, F32, NONE, 0, R(RZ)),
		BAD(REM, F32, NONE, 0, 0),
		BAD(POPC, F32, NONE, 0, 0),
		BAD(SETP, F32, NONE, 0, 0),
		BAD(DIV, F64, NONE, 0, APX),
		BAD(SQRT, F64, NONE, 0, APX),
		BAD(ADD, F64, NONE, 0, R(RPI)),
		BAD(EX2, F64, NONE, 0, APX),
		BAD(RSQRT, F64, NONE, 0, APX | R(RN)),
		BAD(RCP, F64, NONE, 0, APX | FTZ | R(RN)),
		BAD(DIV, F16, NONE, 0, R(RN)),
		BAD(SQRT, BF16, NONE, 0, R(RN)),
		BAD(RCP, F16X2, NONE, 0, 0),
		BAD(ABS, F16, NONE, 0, R(RN)),
		BAD(ADD, F16, NONE, 0, R(RZI)),
		BAD(COPYSIGN, F16, NONE, 0, 0),
		BAD(ADD, B16, NONE, 0, 0),
	};
	RUN(t);
}

/* A half in a 32-bit slot with bits above it (only a fault puts them there). */
Test(sem_fp, bits_above_the_type)
{
	static const tcase_t t[] = {
		OPR(ADD, F16, 0, 0xffff3c00u, 0x12343c00u, 0, 0x4000), /* junk above the half */
	};
	RUN(t);
}

/* rsqrt.approx.f64 against an 80-bit reference wherever that reference is
 * unambiguous (not within a few long-double ulps of a double midpoint). */
Test(sem_fp, f64_rsqrt_random)
{
	const tcase_t k = OPR(RSQRT, F64, APX, 0, 0, 0, 0);
	const sc_insn_t in = mkinsn(&k);
	static sc_alu_t x;
	unsigned checked = 0;
	srand(12345);
	x.in = &in;
	x.mask = 0xffffffffu;
	for (int it = 0; it < 2000; it++) {
		for (int l = 0; l < 32; l++) {
			uint64_t u = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
			x.a[l] = u & 0x7fffffffffffffffull;
			if ((x.a[l] & DINF) == DINF)
				x.a[l] ^= 0x4000000000000000ull;
		}
		cr_assert_eq(sc__sem_fp(&x), 0);
		for (int l = 0; l < 32; l++) {
			const long double r = 1.0L / sqrtl((long double)u2d(x.a[l]));
			const double lo = nextafter((double)r, 0.0), hi = nextafter((double)r, INFINITY);
			const double near = (double)r; /* round to nearest of the 64-bit value */
			/* skip references within 2^-60 relative of a midpoint */
			const long double m1 = ((long double)near + lo) / 2, m2 = ((long double)near + hi) / 2;
			if (fabsl(r - m1) < r * 0x1p-60L || fabsl(r - m2) < r * 0x1p-60L)
				continue;
			checked++;
			cr_expect_eq(x.d[l], d2u(near), "rsqrt(%a) = %a, expected %a", u2d(x.a[l]),
			             u2d(x.d[l]), near);
		}
	}
	cr_expect(checked > 60000);
}

Test(sem_fp, f32_modes_random_lanes)
{
	/* Every lane, every mode: add/sub/mul/div/fma/sqrt against the host's
	 * own IEEE operations, checking the lane plumbing and mode switching. */
	static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
	static const uint8_t ops[] = {SC_OP_ADD, SC_OP_SUB, SC_OP_MUL, SC_OP_DIV, SC_OP_FMA, SC_OP_SQRT};
	static sc_alu_t x;
	sc_insn_t in;
	srand(777);
	for (int it = 0; it < 300; it++) {
		for (int l = 0; l < 32; l++) {
			x.a[l] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
			x.b[l] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
			x.c[l] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
		}
		for (unsigned o = 0; o < sizeof ops; o++) {
			for (int m = 0; m < 4; m++) {
				memset(&in, 0, sizeof in);
				in.op = ops[o];
				in.type = SC_T_F32;
				in.mods = (uint16_t)(SC_RND_RN + m);
				x.in = &in;
				x.mask = (uint32_t)rand() | 1u;
				cr_assert_eq(sc__sem_fp(&x), 0);
				cr_assert_eq(fegetround(), FE_TONEAREST);
				for (int l = 0; l < 32; l++) {
					if (!(x.mask >> l & 1))
						continue;
					volatile float a = u2f((uint32_t)x.a[l]), b = u2f((uint32_t)x.b[l]);
					volatile float c = u2f((uint32_t)x.c[l]), r = 0;
					fesetround(fe[m]);
					switch (ops[o]) {
					case SC_OP_ADD: r = a + b; break;
					case SC_OP_SUB: r = a - b; break;
					case SC_OP_MUL: r = a * b; break;
					case SC_OP_DIV: r = a / b; break;
					case SC_OP_FMA: r = fmaf(a, b, c); break;
					default: r = sqrtf(a); break;
					}
					fesetround(FE_TONEAREST);
					const uint32_t want = isnan(r) ? CNAN : f2u(r);
					cr_expect_eq(x.d[l], want, "op %u mode %d lane %d: %#x vs %#x", ops[o], m, l,
					             (unsigned)x.d[l], want);
				}
			}
		}
	}
}

/* ---- f16 / bf16 --------------------------------------------------------- */

Test(sem_fp, half_helpers)
{
	struct { float f; int rnd; uint16_t h, b; } t[] = {
		/* f, mode, f16, bf16 */
		{1.0f, SC_RND_RN, 0x3c00, 0x3f80},
		{-2.0f, SC_RND_RN, 0xc000, 0xc000},
		{65504.0f, SC_RND_RN, 0x7bff, 0x4780},
		{65520.0f, SC_RND_RN, 0x7c00, 0x4780},   /* f16 tie above max: inf */
		{65520.0f, SC_RND_RZ, 0x7bff, 0x477f},
		{-65520.0f, SC_RND_RP, 0xfbff, 0xc77f},
		{-65520.0f, SC_RND_RM, 0xfc00, 0xc780},
		{0x1p-24f, SC_RND_RN, 0x0001, 0x3380},
		{0x1p-25f, SC_RND_RN, 0x0000, 0x3300},   /* half the smallest subnormal */
		{0x1p-25f, SC_RND_RP, 0x0001, 0x3300},
		{0x3p-25f, SC_RND_RN, 0x0002, 0x33c0},   /* 1.5 ulp: to even */
		{-0x1p-25f, SC_RND_RM, 0x8001, 0xb300},
		{-0x1p-25f, SC_RND_RZ, 0x8000, 0xb300},
		{0x1p-14f, SC_RND_RN, 0x0400, 0x3880},   /* smallest normal */
		{0x1.ff8p-15f, SC_RND_RN, 0x03ff, 0x3880}, /* largest subnormal; bf16 rounds up */
		{0x1.ffcp-15f, SC_RND_RN, 0x0400, 0x3880}, /* tie with 2^-14: to even */
		{0x1.ffcp-15f, SC_RND_RZ, 0x03ff, 0x387f},
		{1.0f + 0x1p-11f, SC_RND_RN, 0x3c00, 0x3f80},
		{1.0f + 0x3p-11f, SC_RND_RN, 0x3c02, 0x3f80},
		{1.0f + 0x1p-8f, SC_RND_RN, 0x3c04, 0x3f80},   /* bf16 tie to even */
		{1.0f + 0x3p-8f, SC_RND_RN, 0x3c0c, 0x3f82},   /* bf16 tie to even, up */
		{1.0f + 0x1p-8f, SC_RND_RP, 0x3c04, 0x3f81},
		{0x1.fffffep127f, SC_RND_RN, 0x7c00, 0x7f80},  /* FLT_MAX */
		{0x1.fffffep127f, SC_RND_RZ, 0x7bff, 0x7f7f},
		{INFINITY, SC_RND_RZ, 0x7c00, 0x7f80},
		{-INFINITY, SC_RND_RN, 0xfc00, 0xff80},
		{NAN, SC_RND_RN, 0x7fff, 0x7fff},
		{-0.0f, SC_RND_RN, 0x8000, 0x8000},
		{0x1p-149f, SC_RND_RN, 0x0000, 0x0000},
		{0x1p-133f, SC_RND_RN, 0x0000, 0x0001},        /* bf16 smallest subnormal */
		{0x1p-149f, SC_RND_RP, 0x0001, 0x0001},
		{1.0f / 3.0f, SC_RND_RN, 0x3555, 0x3eab},
		{1.0f / 3.0f, SC_RND_RZ, 0x3555, 0x3eaa},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		cr_expect_eq(sc__float_to_half(t[i].f, t[i].rnd), t[i].h, "f16(%a, %d) = %#x, expected %#x",
		             t[i].f, t[i].rnd, sc__float_to_half(t[i].f, t[i].rnd), t[i].h);
		cr_expect_eq(sc__double_to_half(t[i].f, t[i].rnd), t[i].h, "f16 from double %a", t[i].f);
		cr_expect_eq(sc__float_to_bf16(t[i].f, t[i].rnd), t[i].b, "bf16(%a, %d) = %#x, expected %#x",
		             t[i].f, t[i].rnd, sc__float_to_bf16(t[i].f, t[i].rnd), t[i].b);
	}
	/* a double just above an f16 tie that a float would round onto it */
	cr_expect_eq(sc__double_to_half(1.0 + 0x1p-11 + 0x1p-40, SC_RND_RN), 0x3c01);
	cr_expect_eq(sc__double_to_bf16(1.0 + 0x1p-8 + 0x1p-40, SC_RND_RN), 0x3f81);
	cr_expect_eq(sc__double_to_half(0x1p-1074, SC_RND_RP), 0x0001);
	cr_expect_eq(sc__double_to_half(-0x1p-1074, SC_RND_RN), 0x8000);
	cr_expect_eq(sc__double_to_bf16(0x1.ffp127, SC_RND_RN), 0x7f80);  /* above max bf16 + half ulp */
	cr_expect_eq(sc__double_to_bf16(0x1.fep127, SC_RND_RZ), 0x7f7f);
	/* decoding */
	cr_expect_eq(f2u(sc__half_to_float(0x0001)), 0x33800000u);
	cr_expect_eq(f2u(sc__half_to_float(0x83ff)), f2u(-0x1.ff8p-15f));
	cr_expect_eq(f2u(sc__half_to_float(0x7bff)), 0x477fe000u);
	cr_expect_eq(f2u(sc__half_to_float(0x8000)), 0x80000000u);
	cr_expect_eq(f2u(sc__half_to_float(0xfc00)), 0xff800000u);
	cr_expect_eq(f2u(sc__half_to_float(0x3555)), f2u(0.333251953125f));
	cr_expect(isnan(sc__half_to_float(0x7c01)));
	cr_expect_eq(f2u(sc__bf16_to_float(0x3f81)), 0x3f810000u);
	cr_expect_eq(f2u(sc__bf16_to_float(0x0001)), 0x00010000u);
}

/* The nearest, or directed, neighbour of a positive double among the finite
 * values of a half format whose positive encodings 0..maxbits are ordered:
 * a reference that only decodes, by bisection. */
static uint16_t ref_round(double v, int rnd, bool bf)
{
	const unsigned maxbits = bf ? 0x7f7f : 0x7bff, inf = maxbits + 1;
	const double top = bf ? 0x1p128 : 0x1p16; /* where the next binade would start */
	unsigned lo = 0, hi = maxbits;
#define DEC(h) ((h) > maxbits ? top : bf ? (double)sc__bf16_to_float((uint16_t)(h)) : (double)sc__half_to_float((uint16_t)(h)))
	if (v >= DEC(maxbits)) {
		lo = maxbits;
	} else {
		while (lo < hi) { /* largest h with DEC(h) <= v */
			const unsigned mid = (lo + hi + 1) / 2;
			if (DEC(mid) <= v)
				lo = mid;
			else
				hi = mid - 1;
		}
	}
	const double a = DEC(lo), b = DEC(lo + 1);
	unsigned r;
	if (a == v)
		r = lo;
	else if (rnd == SC_RND_RZ || rnd == SC_RND_RM)
		r = lo;
	else if (rnd == SC_RND_RP)
		r = lo + 1;
	else if (v - a < b - v)
		r = lo;
	else if (v - a > b - v)
		r = lo + 1;
	else
		r = (lo & 1) ? lo + 1 : lo;
#undef DEC
	return (uint16_t)(r > maxbits ? (rnd == SC_RND_RN || rnd == SC_RND_RP ? inf : maxbits) : r);
}

Test(sem_fp, half_rounding_random)
{
	srand(4242);
	for (int i = 0; i < 200000; i++) {
		/* doubles spread over the f16 and bf16 ranges, with many low bits */
		const double v = ldexp((double)(((uint64_t)rand() << 31 ^ (uint64_t)rand()) | 1), -(rand() % 200) - 10);
		for (int m = SC_RND_RN; m <= SC_RND_RP; m++) {
			cr_assert_eq(sc__double_to_half(v, m), ref_round(v, m, false), "f16 %a mode %d", v, m);
			cr_assert_eq(sc__double_to_bf16(v, m), ref_round(v, m, true), "bf16 %a mode %d", v, m);
			/* negative values: the mirror mode */
			const int mm = m == SC_RND_RM ? SC_RND_RP : m == SC_RND_RP ? SC_RND_RM : m;
			cr_assert_eq(sc__double_to_half(-v, m), 0x8000 | ref_round(v, mm, false), "f16 -%a", v);
		}
	}
	/* every finite f16 survives the round trip */
	for (unsigned h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
			continue;
		cr_assert_eq(sc__float_to_half(sc__half_to_float((uint16_t)h), SC_RND_RZ), h, "%#x", h);
		cr_assert_eq(sc__float_to_bf16(sc__bf16_to_float((uint16_t)h), SC_RND_RN), h, "bf %#x", h);
	}
}

/* The integer round-to-nearest conversions from float agree with the
 * rounding from double (checked above against the bisection reference). */
Test(sem_fp, half_from_float_fast_path)
{
	srand(99);
	for (int i = 0; i < 1000000; i++) {
		uint32_t u = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
		if (i & 1) /* concentrate on the f16 range and its edges */
			u = (u & 0x807fffffu) | ((uint32_t)(96 + rand() % 52) << 23);
		const float f = u2f(u);
		cr_assert_eq(sc__float_to_half(f, SC_RND_RN), sc__double_to_half((double)f, SC_RND_RN), "%#x", u);
		cr_assert_eq(sc__float_to_bf16(f, SC_RND_RN), sc__double_to_bf16((double)f, SC_RND_RN), "%#x", u);
		cr_assert_eq(sc__float_to_half(f, SC_RND_NONE), sc__double_to_half((double)f, SC_RND_RN));
	}
}

/* f16/bf16 add, sub, mul to nearest on random pairs, against the exact
 * double result rounded once (products are exact in double; sums of two
 * halves round there at most innocuously). */
Test(sem_fp, half_arith_random)
{
	static const uint8_t ops[] = {SC_OP_ADD, SC_OP_SUB, SC_OP_MUL};
	static sc_alu_t x;
	sc_insn_t in;
	srand(31337);
	for (int it = 0; it < 2000; it++) {
		for (int l = 0; l < 32; l++) {
			x.a[l] = (uint32_t)rand();
			x.b[l] = (uint32_t)rand();
		}
		for (int ty = 0; ty < 2; ty++) {
			const bool bf = ty == 1;
			for (unsigned o = 0; o < sizeof ops; o++) {
				memset(&in, 0, sizeof in);
				in.op = ops[o];
				in.type = bf ? SC_T_BF16X2 : SC_T_F16X2;
				x.in = &in;
				x.mask = 0xffffffffu;
				cr_assert_eq(sc__sem_fp(&x), 0);
				for (int l = 0; l < 32; l++) {
					for (int e = 0; e < 2; e++) {
						const uint16_t ha = (uint16_t)(x.a[l] >> (16 * e)), hb = (uint16_t)(x.b[l] >> (16 * e));
						const double a = bf ? sc__bf16_to_float(ha) : sc__half_to_float(ha);
						const double b = bf ? sc__bf16_to_float(hb) : sc__half_to_float(hb);
						const double r = ops[o] == SC_OP_ADD ? a + b : ops[o] == SC_OP_SUB ? a - b : a * b;
						const uint16_t want = bf ? sc__double_to_bf16(r, SC_RND_RN) : sc__double_to_half(r, SC_RND_RN);
						const uint16_t got = (uint16_t)(x.d[l] >> (16 * e));
						cr_assert_eq(got, want, "%s op %u: %#x, %#x -> %#x, expected %#x", bf ? "bf16" : "f16",
						             ops[o], ha, hb, got, want);
					}
				}
			}
		}
	}
}

/* ====================================================================== */
/* sem_cmp */

/* The relation of a to b, and what each comparison makes of it, written
 * from the PTX definitions (independently of the implementation). */
enum { REL_LT, REL_EQ, REL_GT, REL_UN };

static int expect_cmp(unsigned cmp, int rel)
{
	const int lt = rel == REL_LT, eq = rel == REL_EQ, gt = rel == REL_GT, un = rel == REL_UN;
	switch (cmp) {
	case SC_CMP_EQ: return eq;
	case SC_CMP_NE: return lt || gt;
	case SC_CMP_LT: return lt;
	case SC_CMP_LE: return lt || eq;
	case SC_CMP_GT: return gt;
	case SC_CMP_GE: return gt || eq;
	case SC_CMP_EQU: return eq || un;
	case SC_CMP_NEU: return lt || gt || un;
	case SC_CMP_LTU: return lt || un;
	case SC_CMP_LEU: return lt || eq || un;
	case SC_CMP_GTU: return gt || un;
	case SC_CMP_GEU: return gt || eq || un;
	case SC_CMP_NUM: return !un;
	case SC_CMP_NAN: return un;
	default: return -1;
	}
}

static const unsigned float_cmps[] = {
	SC_CMP_EQ, SC_CMP_NE, SC_CMP_LT, SC_CMP_LE, SC_CMP_GT, SC_CMP_GE, SC_CMP_EQU,
	SC_CMP_NEU, SC_CMP_LTU, SC_CMP_LEU, SC_CMP_GTU, SC_CMP_GEU, SC_CMP_NUM, SC_CMP_NAN,
};

typedef struct relcase { uint64_t a, b; uint16_t mods; int rel; } relcase_t;

static void check_float_setp(unsigned type, const relcase_t *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < sizeof float_cmps / sizeof float_cmps[0]; j++) {
			const int e = expect_cmp(float_cmps[j], r[i].rel);
			tcase_t k = {SC_OP_SETP, 0, (uint8_t)type, (uint8_t)float_cmps[j], r[i].mods, 0,
			             r[i].a, r[i].b, 0, 0, (uint64_t)e, (uint64_t)!e, "setp float"};
			char what[96];
			snprintf(what, sizeof what, "setp.%u.%s %#llx %#llx mods %#x", float_cmps[j],
			         sc__type_names[type], (unsigned long long)r[i].a, (unsigned long long)r[i].b,
			         r[i].mods);
			k.what = what;
			run_case(&k);
			/* set.u32 and set.f32 give the same truth */
			k.op = SC_OP_SET;
			k.type = SC_T_U32;
			k.d = e ? 0xffffffffu : 0;
			run_case(&k);
			k.type = SC_T_F32;
			k.d = e ? ONE : 0;
			run_case(&k);
		}
	}
}

#define SETP(cmp, st, aux, mods, a, b, c, p, q) \
	{SC_OP_SETP, 0, SC_T_##st, SC_CMP_##cmp, (mods), (aux), (a), (b), (c), 0, (p), (q), \
	 "setp." #cmp "." #st " " #aux " " #a " " #b " " #c}

#define SELP(ty, a, b, c, d) {SC_OP_SELP, SC_T_##ty, 0, 0, 0, 0, (a), (b), (c), 0, (d), 0, "selp." #ty " " #c}
#define SLCT(ty, st, mods, a, b, c, d) \
	{SC_OP_SLCT, SC_T_##ty, SC_T_##st, 0, (mods), 0, (a), (b), (c), 0, (d), 0, "slct." #ty "." #st " " #c}

/* Combinations the ISA does not define: refused, nothing written. */
Test(sem_cmp, refusals)
{
	static const tcase_t t[] = {
		{SC_OP_SETP, 0, SC_T_F32, SC_CMP_LO, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.lo.f32"},
		{SC_OP_SETP, 0, SC_T_F64, SC_CMP_HS, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.hs.f64"},
		{SC_OP_SETP, 0, SC_T_S32, SC_CMP_EQU, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.equ.s32"},
		{SC_OP_SETP, 0, SC_T_U32, SC_CMP_NAN, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.nan.u32"},
		{SC_OP_SETP, 0, SC_T_S32, SC_CMP__COUNT, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.cmp 18"},
		{SC_OP_SETP, 0, SC_T_F32, 200, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.cmp 200"},
		{SC_OP_SETP, 0, SC_T_PRED, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.pred"},
		{SC_OP_SETP, 0, SC_T_U8, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.u8"},
		{SC_OP_SETP, 0, SC_T_B128, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.b128"},
		{SC_OP_SETP, 0, 77, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "setp.type 77"},
		{SC_OP_SET, SC_T_F64, SC_T_F32, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f64"},
		{SC_OP_SET, SC_T_F32, SC_T_F16X2, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f32.f16x2"},
		{SC_OP_SET, SC_T_U16, SC_T_F16X2, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.u16.f16x2"},
		{SC_OP_SET, SC_T_F16X2, SC_T_F32, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f16x2.f32"},
		{SC_OP_SET, SC_T_U32, SC_T_S32, SC_CMP_NUM, 0, 0, 0, 0, 0, ERR, 0, 0, "set.num.s32"},
		{SC_OP_SELP, SC_T_PRED, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.pred"},
		{SC_OP_SELP, SC_T_F16, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.f16"},
		{SC_OP_SELP, SC_T_B8, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.b8"},
		{SC_OP_SLCT, SC_T_B32, SC_T_U32, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "slct.b32.u32"},
		{SC_OP_SLCT, SC_T_B32, SC_T_F64, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "slct.b32.f64"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F16, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "testp.f16"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F32, 6, 0, 0, 0, 0, 0, ERR, 0, 0, "testp class 6"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F32, 255, 0, 0, 0, 0, 0, ERR, 0, 0, "testp class 255"},
		BAD(CVT, S32, F32, 0, R(RN)),
		BAD(CVT, U64, F64, 0, R(RP)),
		BAD(CVT, B32, F32, 0, R(RZI)),
		BAD(CVT, S32, F16X2, 0, R(RZI)),
		BAD(CVT, PRED, F32, 0, R(RZI)),
		BAD(CVT, S32, S8, 0, R(RN)),
		BAD(CVT, S32, S8, 0, R(RZI)),
		BAD(CVT, B32, S32, 0, 0),
		BAD(CVT, S32, B32, 0, 0),
		BAD(CVT, F32, S32, 0, R(RNI)),
		BAD(CVT, F16, U16, 0, R(RZI)),
		BAD(CVT, F32, F32, 0, R(RN)),
		BAD(CVT, F64, F32, 0, R(RNI)),
		BAD(CVT, F32, F64, 0, R(RZI)),
		BAD(CVT, F16, F32, 0, R(RMI)),
		BAD(CVT, F32, F32, 0, 9),
		{SC_OP_CVT, SC_T_F16X2, SC_T_F64, 0, R(RN), 0, 0, 0, 0, ERR, 0, 0, "cvt.f16x2.f64"},
		{SC_OP_CVT, SC_T_F16X2, SC_T_F32, 0, R(RNI), 0, 0, 0, 0, ERR, 0, 0, "cvt.rni.f16x2"},
	};
	RUN(t);
	/* add.s32 goes to sem_int; make sure sem_cmp rejects it if asked */
	const tcase_t add = {SC_OP_ADD, SC_T_S32, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "add via sem_cmp"};
	sc_insn_t in = mkinsn(&add);
	static sc_alu_t x;
	x.in = &in;
	x.mask = 1;
	cr_expect_eq(sc__sem_cmp(&x), -1);
}

/* Sources in slots with bits above their type (only a fault puts them
 * there): only the type's bits count. */
Test(sem_cmp, bits_above_the_type)
{
	static const tcase_t t[] = {
		SETP(LT, S16, 0, 0, 0x1234ffffu, 1, 0, 1, 0),      /* only the low 16 bits */
		SETP(EQ, U16, 0, 0, 0xabcd0001u, 0x00000001u, 0, 1, 0),
		SELP(S16, 0xffff8001u, 0x2u, 1, 0x8001u),
		SLCT(S16, S32, 0, 0x12345678u, 0, 1, 0x5678u),
		CVT(S32, F16, R(RZI), 0xffff4100u, 2),               /* junk above */
		CVT(F32, F16, 0, 0xabcd3c00u, ONE),                       /* junk above */
	};
	RUN(t);
	static const relcase_t r16[] = {{0xffff3c00u, 0x3c00, 0, REL_EQ}};
	check_float_setp(SC_T_F16, r16, 1);
}

/* ---- robustness -------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) { return h_rand(&rng_state); }

/* Garbage instruction words (as a flipped bit pattern may decode) must
 * return 0 or -1, write only masked lanes and leave the rounding mode. */
static void garbage(int (*fn)(sc_alu_t *), bool fields_only)
{
	static sc_alu_t x;
	sc_insn_t in;
	for (int it = 0; it < 100000; it++) {
		uint64_t w[4] = {rng(), rng(), rng(), rng()};
		memcpy(&in, w, sizeof in);
		if (fields_only) { /* plausible words: real opcodes and types, odd modifiers */
			in.op = (uint8_t)(rng() % (SC_OP__COUNT + 2));
			in.type = (uint8_t)(rng() % (SC_T__COUNT + 2));
			in.stype = (uint8_t)(rng() % (SC_T__COUNT + 2));
			in.sub = (uint8_t)(rng() % 24);
			in.mods = (uint16_t)(rng() & 0x03ff);
		}
		x.in = &in;
		x.mask = (uint32_t)rng();
		for (int l = 0; l < 32; l++) {
			const uint64_t r = rng();
			x.a[l] = (l & 1) ? r : r >> 32;
			x.b[l] = rng();
			x.c[l] = rng() & ((l & 2) ? ~0ull : 1);
			x.e[l] = rng();
			x.d[l] = x.d2[l] = SENT;
		}
		const int rc = fn(&x);
		cr_assert(rc == 0 || rc == -1, "returned %d", rc);
		cr_assert_eq(fegetround(), FE_TONEAREST);
		for (int l = 0; l < 32; l++)
			if (!(x.mask >> l & 1))
				cr_assert(x.d[l] == SENT && x.d2[l] == SENT, "op %u lane %d written", in.op, l);
	}
}

Test(sem_fp, garbage_words)
{
	garbage(sc__sem_fp, false);
	garbage(sc__sem_fp, true);
}

Test(sem_cmp, garbage_words)
{
	garbage(sc__sem_cmp, false);
	garbage(sc__sem_cmp, true);
}
