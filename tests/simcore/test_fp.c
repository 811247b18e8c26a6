/* Unit tests of the floating-point, comparison and conversion semantics
 * (simcore/sem_fp.c, simcore/sem_cmp.c). Table-driven: each row is one
 * instruction as lowering builds it, with operands and the expected result
 * as bit patterns derived by hand (checked with exact rational arithmetic),
 * never computed by the code under test. */
#include <criterion/criterion.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define TWO 0x40000000u
#define HALF 0x3f000000u
#define MAXF 0x7f7fffffu
#define INF 0x7f800000u
#define NINF 0xff800000u
#define QNAN 0x7fc00001u
#define CNAN 0x7fffffffu
#define NZ 0x80000000u
#define MINN 0x00800000u /* 2^-126 */
#define SUB1 0x00000001u /* 2^-149 */
#define NSUB1 0x80000001u

/* f64 constants */
#define D1 0x3ff0000000000000ull
#define DMAX 0x7fefffffffffffffull
#define DINF 0x7ff0000000000000ull
#define DNINF 0xfff0000000000000ull
#define DCNAN 0x7fffffffffffffffull
#define DNZ 0x8000000000000000ull

/* ====================================================================== */

Test(sem_fp, f32_add_sub_rounding)
{
	static const tcase_t t[] = {
		/* 1 + 2^-24 is a tie: to even (1.0) */
		OPR(ADD, F32, 0, ONE, 0x33800000u, 0, ONE),
		OPR(ADD, F32, R(RN), ONE, 0x33800000u, 0, ONE),
		/* 1 + 2^-24 (1 + 2^-23) is above the tie */
		OPR(ADD, F32, R(RN), ONE, 0x33800001u, 0, 0x3f800001u),
		OPR(ADD, F32, R(RZ), ONE, 0x33800001u, 0, ONE),
		OPR(ADD, F32, R(RM), ONE, 0x33800001u, 0, ONE),
		OPR(ADD, F32, R(RP), ONE, 0x33800001u, 0, 0x3f800001u),
		/* (1 + 2^-23) + 2^-24: tie, to the even 1 + 2^-22 */
		OPR(ADD, F32, R(RN), 0x3f800001u, 0x33800000u, 0, 0x3f800002u),
		OPR(ADD, F32, R(RZ), 0x3f800001u, 0x33800000u, 0, 0x3f800001u),
		/* 1 + 2^-30 in the directed modes */
		OPR(ADD, F32, R(RP), ONE, 0x30800000u, 0, 0x3f800001u),
		OPR(ADD, F32, R(RM), ONE, 0x30800000u, 0, ONE),
		OPR(ADD, F32, R(RN), ONE, 0x30800000u, 0, ONE),
		/* negative: -1 - 2^-30 */
		OPR(ADD, F32, R(RM), 0xbf800000u, 0xb0800000u, 0, 0xbf800001u),
		OPR(ADD, F32, R(RP), 0xbf800000u, 0xb0800000u, 0, 0xbf800000u),
		OPR(ADD, F32, R(RZ), 0xbf800000u, 0xb0800000u, 0, 0xbf800000u),
		OPR(SUB, F32, R(RM), 0xbf800000u, 0x30800000u, 0, 0xbf800001u),
		OPR(SUB, F32, R(RN), ONE, 0x33800001u, 0, 0x3f7fffffu), /* 1 - 2^-24 - 2^-47 */
		OPR(SUB, F32, R(RP), ONE, 0x33800001u, 0, 0x3f7fffffu),
		/* overflow: infinity or the largest finite value by mode */
		OPR(ADD, F32, R(RN), MAXF, MAXF, 0, INF),
		OPR(ADD, F32, R(RZ), MAXF, MAXF, 0, MAXF),
		OPR(ADD, F32, R(RM), MAXF, MAXF, 0, MAXF),
		OPR(ADD, F32, R(RP), MAXF, MAXF, 0, INF),
		OPR(ADD, F32, R(RN), 0xff7fffffu, 0xff7fffffu, 0, NINF),
		OPR(ADD, F32, R(RZ), 0xff7fffffu, 0xff7fffffu, 0, 0xff7fffffu),
		OPR(ADD, F32, R(RM), 0xff7fffffu, 0xff7fffffu, 0, NINF),
		OPR(ADD, F32, R(RP), 0xff7fffffu, 0xff7fffffu, 0, 0xff7fffffu),
		/* exact zero sums: +0, but -0 under .rm */
		OPR(ADD, F32, R(RN), ONE, 0xbf800000u, 0, 0),
		OPR(ADD, F32, R(RM), ONE, 0xbf800000u, 0, NZ),
		OPR(ADD, F32, 0, NZ, NZ, 0, NZ),
		/* NaN results are the canonical NaN */
		OPR(ADD, F32, 0, INF, NINF, 0, CNAN),
		OPR(ADD, F32, 0, QNAN, ONE, 0, CNAN),
		OPR(SUB, F32, R(RZ), ONE, 0xffc00abcu, 0, CNAN),
		OPR(ADD, F32, 0, INF, ONE, 0, INF),
	};
	RUN(t);
}

Test(sem_fp, f32_mul_subnormal_ftz_sat)
{
	static const tcase_t t[] = {
		OPR(MUL, F32, 0, MINN, HALF, 0, 0x00400000u),     /* 2^-127 subnormal */
		OPR(MUL, F32, FTZ, MINN, HALF, 0, 0),             /* flushed result */
		OPR(MUL, F32, FTZ, 0x80800000u, HALF, 0, NZ),     /* sign kept */
		OPR(MUL, F32, R(RN), SUB1, HALF, 0, 0),           /* 2^-150: tie to even 0 */
		OPR(MUL, F32, R(RP), SUB1, HALF, 0, SUB1),
		OPR(MUL, F32, R(RM), NSUB1, HALF, 0, NSUB1),
		OPR(MUL, F32, R(RZ), NSUB1, HALF, 0, NZ),
		OPR(MUL, F32, R(RN), 0x00000003u, HALF, 0, 0x00000002u), /* 1.5 ulp: to even 2 */
		OPR(MUL, F32, R(RN), 0x00000005u, HALF, 0, 0x00000002u), /* 2.5 ulp: to even 2 */
		OPR(MUL, F32, 0, 0x00000005u, 0x41000000u, 0, 0x00000028u), /* 5 * 8, exact */
		OPR(MUL, F32, 0, 0, INF, 0, CNAN),
		OPR(MUL, F32, 0, NZ, ONE, 0, NZ),
		/* .ftz on inputs */
		OPR(ADD, F32, 0, SUB1, 0, 0, SUB1),
		OPR(ADD, F32, FTZ, SUB1, 0, 0, 0),
		OPR(ADD, F32, FTZ, NSUB1, NZ, 0, NZ),      /* -0 + -0 */
		OPR(ADD, F32, FTZ, 0x007fffffu, MINN, 0, 0x00800000u + 0u), /* flushed: 0 + 2^-126 */
		OPR(MUL, F32, FTZ, 0x007fffffu, 0x4b000000u, 0, 0),        /* 0 * 2^23 */
		OPR(MUL, F32, 0, 0x007fffffu, 0x40000000u, 0, 0x00fffffeu),
		/* .sat: [0, 1], NaN and negatives to +0 */
		OPR(ADD, F32, SAT, 0x3f400000u, HALF, 0, ONE),      /* 1.25 */
		OPR(ADD, F32, SAT, 0xbf800000u, HALF, 0, 0),        /* -0.5 */
		OPR(ADD, F32, SAT, HALF, 0x3e800000u, 0, 0x3f400000u), /* 0.75 stays */
		OPR(ADD, F32, SAT, INF, NINF, 0, 0),                /* NaN */
		OPR(MUL, F32, SAT, NZ, ONE, 0, 0),                  /* -0 */
		OPR(MUL, F32, SAT, INF, ONE, 0, ONE),
		OPR(MUL, F32, SAT | FTZ | R(RP), MINN, HALF, 0, 0), /* flushed, then clamped */
		OPR(SUB, F32, SAT | R(RN), ONE, 0x3f800001u, 0, 0),
	};
	RUN(t);
}

Test(sem_fp, f32_fma_single_rounding)
{
	/* a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b + c = 2^-24 exactly, while a
	 * rounded a*b (a tie, to even 1 + 2^-11) plus c gives 0. */
	static const tcase_t t[] = {
		OPR(FMA, F32, R(RN), 0x3f800800u, 0x3f800800u, 0xbf801000u, 0x33800000u),
		OPR(MAD, F32, R(RN), 0x3f800800u, 0x3f800800u, 0xbf801000u, 0x33800000u),
		OPR(MAD, F32, 0, 0x3f800800u, 0x3f800800u, 0xbf801000u, 0x33800000u),
		OPR(FMA, F32, R(RZ), 0x3f800800u, 0x3f800800u, 0xbf801000u, 0x33800000u),
		/* 1 * 1 + 2^-24: tie; rp goes up */
		OPR(FMA, F32, R(RN), ONE, ONE, 0x33800000u, ONE),
		OPR(FMA, F32, R(RP), ONE, ONE, 0x33800000u, 0x3f800001u),
		OPR(FMA, F32, R(RM), 0xbf800000u, ONE, 0xb3800000u, 0xbf800001u),
		/* product overflow cancelled by the exact sum: max*2 - max = max */
		OPR(FMA, F32, R(RN), MAXF, TWO, 0xff7fffffu, MAXF),
		OPR(FMA, F32, R(RN), 0, INF, ONE, CNAN),
		OPR(FMA, F32, FTZ | R(RN), SUB1, 0x4b000000u, ONE, ONE),   /* subnormal a flushed */
		OPR(FMA, F32, R(RN), SUB1, 0x4b000000u, 0, 0x00800000u),   /* 2^-149 * 2^23 */
		OPR(FMA, F32, SAT | R(RN), TWO, TWO, 0, ONE),
		{SC_OP_MUL, SC_T_F32, 0, SC_MUL_HI, 0, 0, ONE, ONE, 0, ERR, 0, 0, "mul.hi.f32"},
		{SC_OP_MAD, SC_T_F32, 0, SC_MUL_WIDE, 0, 0, ONE, ONE, 0, ERR, 0, 0, "mad.wide.f32"},
	};
	RUN(t);
}

Test(sem_fp, f32_div_rcp_sqrt)
{
	static const tcase_t t[] = {
		OPR(DIV, F32, R(RN), ONE, 0x40400000u, 0, 0x3eaaaaabu), /* 1/3 */
		OPR(DIV, F32, R(RZ), ONE, 0x40400000u, 0, 0x3eaaaaaau),
		OPR(DIV, F32, R(RM), ONE, 0x40400000u, 0, 0x3eaaaaaau),
		OPR(DIV, F32, R(RP), ONE, 0x40400000u, 0, 0x3eaaaaabu),
		OPR(DIV, F32, R(RM), 0xbf800000u, 0x40400000u, 0, 0xbeaaaaabu),
		OPR(DIV, F32, R(RZ), 0xbf800000u, 0x40400000u, 0, 0xbeaaaaaau),
		OPR(DIV, F32, APX, ONE, 0x40400000u, 0, 0x3eaaaaabu),
		OPR(DIV, F32, FULL, ONE, 0x40400000u, 0, 0x3eaaaaabu),
		OPR(DIV, F32, APX | FTZ, MINN, 0x40800000u, 0, 0),     /* 2^-128 flushed */
		OPR(DIV, F32, FULL, MINN, 0x40800000u, 0, 0x00200000u),
		OPR(DIV, F32, R(RN), ONE, 0, 0, INF),
		OPR(DIV, F32, R(RN), ONE, NZ, 0, NINF),
		OPR(DIV, F32, R(RN), 0, 0, 0, CNAN),
		OPR(DIV, F32, FTZ | R(RN), ONE, SUB1, 0, INF),          /* 1 / flushed 0 */
		OPR(DIV, F32, R(RN), ONE, SUB1, 0, INF),                /* 2^149 overflows */
		OPR(DIV, F32, R(RZ), ONE, SUB1, 0, MAXF),
		OPR(RCP, F32, R(RN), 0x40400000u, 0, 0, 0x3eaaaaabu),
		OPR(RCP, F32, R(RZ), 0x40400000u, 0, 0, 0x3eaaaaaau),
		OPR(RCP, F32, R(RP), 0xc0400000u, 0, 0, 0xbeaaaaaau),
		OPR(RCP, F32, APX, 0x40400000u, 0, 0, 0x3eaaaaabu),
		OPR(RCP, F32, APX, NINF, 0, 0, NZ),
		OPR(RCP, F32, APX, NZ, 0, 0, NINF),
		OPR(RCP, F32, APX | FTZ, 0x7e800000u, 0, 0, MINN),      /* 1/2^126 is normal */
		OPR(RCP, F32, APX | FTZ, 0x7f000000u, 0, 0, 0),         /* 2^-127 flushed */
		OPR(RCP, F32, APX, 0x7f000000u, 0, 0, 0x00400000u),
		/* sqrt(2) = 0x3fb504f3.4..: nearest and toward zero are below */
		OPR(SQRT, F32, R(RN), TWO, 0, 0, 0x3fb504f3u),
		OPR(SQRT, F32, R(RZ), TWO, 0, 0, 0x3fb504f3u),
		OPR(SQRT, F32, R(RM), TWO, 0, 0, 0x3fb504f3u),
		OPR(SQRT, F32, R(RP), TWO, 0, 0, 0x3fb504f4u),
		OPR(SQRT, F32, APX, TWO, 0, 0, 0x3fb504f3u),
		OPR(SQRT, F32, R(RN), 0xbf800000u, 0, 0, CNAN),
		OPR(SQRT, F32, R(RN), NZ, 0, 0, NZ),
		OPR(SQRT, F32, R(RN), INF, 0, 0, INF),
		OPR(SQRT, F32, R(RN), 0x00000002u, 0, 0, 0x1a800000u), /* sqrt(2^-148) = 2^-74 */
		OPR(SQRT, F32, FTZ | R(RN), 0x00000002u, 0, 0, 0),
		OPR(SQRT, F32, APX | FTZ, NSUB1, 0, 0, NZ),
		BAD(DIV, F32, NONE, 0, APX | R(RN)),
		BAD(SQRT, F32, NONE, 0, FULL | R(RZ)),
		BAD(ADD, F32, NONE, 0, R(RNI)),
		BAD(ADD, F32, NONE, 0, 9),
		BAD(ADD, F32, NONE, 0, 15),
	};
	RUN(t);
}

Test(sem_fp, f32_approx_functions)
{
	static const tcase_t t[] = {
		OPR(SIN, F32, APX, 0, 0, 0, 0),
		OPR(SIN, F32, APX, NZ, 0, 0, NZ),
		OPR(SIN, F32, APX, INF, 0, 0, CNAN),
		OPR(SIN, F32, APX, 0x3fc90fdbu, 0, 0, ONE),      /* sin(pi/2 as f32) rounds to 1 */
		OPR(COS, F32, APX, 0, 0, 0, ONE),
		OPR(COS, F32, APX, NZ, 0, 0, ONE),
		OPR(COS, F32, APX, NINF, 0, 0, CNAN),
		OPR(LG2, F32, APX, 0x41000000u, 0, 0, 0x40400000u), /* lg2(8) = 3 */
		OPR(LG2, F32, APX, 0, 0, 0, NINF),
		OPR(LG2, F32, APX, 0xbf800000u, 0, 0, CNAN),
		OPR(LG2, F32, APX, INF, 0, 0, INF),
		OPR(LG2, F32, APX, SUB1, 0, 0, 0xc3150000u),      /* -149 */
		OPR(LG2, F32, APX | FTZ, SUB1, 0, 0, NINF),       /* lg2(+0) */
		OPR(EX2, F32, APX, 0x41200000u, 0, 0, 0x44800000u), /* 2^10 */
		OPR(EX2, F32, APX, NINF, 0, 0, 0),
		OPR(EX2, F32, APX, INF, 0, 0, INF),
		OPR(EX2, F32, APX, 0xc30c0000u, 0, 0, 0x00000200u), /* 2^-140 subnormal */
		OPR(EX2, F32, APX | FTZ, 0xc30c0000u, 0, 0, 0),
		OPR(EX2, F32, APX, 0x43000000u, 0, 0, INF),         /* 2^128 */
		OPR(TANH, F32, APX, 0, 0, 0, 0),
		OPR(TANH, F32, APX, INF, 0, 0, ONE),
		OPR(TANH, F32, APX, NINF, 0, 0, 0xbf800000u),
		OPR(RSQRT, F32, APX, 0x40800000u, 0, 0, HALF),
		OPR(RSQRT, F32, APX, NZ, 0, 0, NINF),
		OPR(RSQRT, F32, APX, 0, 0, 0, INF),
		OPR(RSQRT, F32, APX, INF, 0, 0, 0),
		OPR(RSQRT, F32, APX, 0xbf800000u, 0, 0, CNAN),
		OPR(RSQRT, F32, APX, 0x00000002u, 0, 0, 0x64800000u), /* 1/sqrt(2^-148) = 2^74 */
		OPR(RSQRT, F32, APX | FTZ, SUB1, 0, 0, INF),
		OPR(RSQRT, F32, APX, 0x40400000u, 0, 0, 0x3f13cd3au), /* 1/sqrt(3) */
		BAD(SIN, F32, NONE, 0, APX | R(RN)),
		BAD(SIN, F64, NONE, 0, APX),
		BAD(TANH, F64, NONE, 0, APX),
	};
	RUN(t);
}

Test(sem_fp, f32_abs_neg_min_max_copysign)
{
	static const tcase_t t[] = {
		OPR(ABS, F32, 0, NZ, 0, 0, 0),
		OPR(ABS, F32, 0, 0xc0000000u, 0, 0, TWO),
		OPR(ABS, F32, 0, NSUB1, 0, 0, SUB1),
		OPR(ABS, F32, FTZ, NSUB1, 0, 0, 0),
		OPR(ABS, F32, 0, 0xffc00000u, 0, 0, CNAN),
		OPR(NEG, F32, 0, 0, 0, 0, NZ),
		OPR(NEG, F32, 0, TWO, 0, 0, 0xc0000000u),
		OPR(NEG, F32, FTZ, SUB1, 0, 0, NZ),
		OPR(NEG, F32, 0, NINF, 0, 0, INF),
		/* min/max: -0 < +0; one NaN gives the other operand; two give NaN */
		OPR(MIN, F32, 0, 0, NZ, 0, NZ),
		OPR(MIN, F32, 0, NZ, 0, 0, NZ),
		OPR(MAX, F32, 0, 0, NZ, 0, 0),
		OPR(MAX, F32, 0, NZ, 0, 0, 0),
		OPR(MIN, F32, 0, QNAN, ONE, 0, ONE),
		OPR(MIN, F32, 0, ONE, QNAN, 0, ONE),
		OPR(MAX, F32, 0, QNAN, NINF, 0, NINF),
		OPR(MAX, F32, 0, NINF, QNAN, 0, NINF),
		OPR(MIN, F32, 0, QNAN, 0xffc00000u, 0, CNAN),
		OPR(MAX, F32, 0, QNAN, QNAN, 0, CNAN),
		OPR(MIN, F32, 0, NINF, MAXF, 0, NINF),
		OPR(MAX, F32, 0, INF, MAXF, 0, INF),
		OPR(MIN, F32, 0, ONE, TWO, 0, ONE),
		OPR(MIN, F32, 0, TWO, ONE, 0, ONE),
		OPR(MAX, F32, 0, ONE, TWO, 0, TWO),
		OPR(MAX, F32, 0, 0xc0000000u, 0xbf800000u, 0, 0xbf800000u),
		OPR(MIN, F32, 0, SUB1, 0, 0, 0),
		OPR(MIN, F32, FTZ, NSUB1, 0, 0, NZ),   /* -0 (flushed) vs +0 */
		OPR(MAX, F32, FTZ, SUB1, NZ, 0, 0),
		OPR(MAX, F32, FTZ, SUB1, 0x00000002u, 0, 0),
		/* copysign: the sign of a, the rest of b */
		OPR(COPYSIGN, F32, 0, 0xbf800000u, TWO, 0, 0xc0000000u),
		OPR(COPYSIGN, F32, 0, ONE, NZ, 0, 0),
		OPR(COPYSIGN, F32, 0, NZ, QNAN, 0, 0xffc00001u),
		OPR(COPYSIGN, F32, 0, 0, NINF, 0, INF),
		BAD(ABS, F32, NONE, 0, R(RN)),
		BAD(MIN, F32, NONE, 0, R(RZ)),
		BAD(REM, F32, NONE, 0, 0),
		BAD(POPC, F32, NONE, 0, 0),
		BAD(SETP, F32, NONE, 0, 0),
	};
	RUN(t);
}

Test(sem_fp, f64_arith)
{
	static const tcase_t t[] = {
		OPR(ADD, F64, R(RN), D1, 0x3ca0000000000000ull, 0, D1), /* 1 + 2^-53: tie */
		OPR(ADD, F64, R(RP), D1, 0x3ca0000000000000ull, 0, 0x3ff0000000000001ull),
		OPR(ADD, F64, R(RN), 0x3ff0000000000001ull, 0x3ca0000000000000ull, 0, 0x3ff0000000000002ull),
		OPR(ADD, F64, R(RM), 0xbff0000000000000ull, 0xbc30000000000000ull, 0, 0xbff0000000000001ull),
		OPR(ADD, F64, R(RZ), 0xbff0000000000000ull, 0xbc30000000000000ull, 0, 0xbff0000000000000ull),
		OPR(SUB, F64, R(RN), D1, D1, 0, 0),
		OPR(SUB, F64, R(RM), D1, D1, 0, DNZ),
		OPR(MUL, F64, R(RN), DMAX, 0x4000000000000000ull, 0, DINF),
		OPR(MUL, F64, R(RZ), DMAX, 0x4000000000000000ull, 0, DMAX),
		OPR(MUL, F64, R(RM), DMAX, 0x4000000000000000ull, 0, DMAX),
		OPR(MUL, F64, R(RP), DMAX, 0x4000000000000000ull, 0, DINF),
		OPR(MUL, F64, R(RM), DMAX, 0xc000000000000000ull, 0, DNINF),
		OPR(MUL, F64, R(RN), 0x0000000000000001ull, 0x3fe0000000000000ull, 0, 0), /* 2^-1075 */
		OPR(MUL, F64, R(RP), 0x0000000000000001ull, 0x3fe0000000000000ull, 0, 1),
		OPR(MUL, F64, R(RN), 0x0010000000000000ull, 0x3fe0000000000000ull, 0, 0x0008000000000000ull),
		/* fma: a = b = 1 + 2^-27, c = -(1 + 2^-26): 2^-54, where mul+add gives 0 */
		OPR(FMA, F64, R(RN), 0x3ff0000002000000ull, 0x3ff0000002000000ull, 0xbff0000004000000ull,
		    0x3c90000000000000ull),
		OPR(MAD, F64, R(RN), 0x3ff0000002000000ull, 0x3ff0000002000000ull, 0xbff0000004000000ull,
		    0x3c90000000000000ull),
		OPR(FMA, F64, R(RP), D1, D1, 0x3ca0000000000000ull, 0x3ff0000000000001ull),
		/* 1/3 = 0x3fd5555555555555.55..: rn and rz agree, rp is above */
		OPR(DIV, F64, R(RN), D1, 0x4008000000000000ull, 0, 0x3fd5555555555555ull),
		OPR(DIV, F64, R(RZ), D1, 0x4008000000000000ull, 0, 0x3fd5555555555555ull),
		OPR(DIV, F64, R(RP), D1, 0x4008000000000000ull, 0, 0x3fd5555555555556ull),
		OPR(DIV, F64, R(RM), 0xbff0000000000000ull, 0x4008000000000000ull, 0, 0xbfd5555555555556ull),
		OPR(RCP, F64, R(RN), 0x4008000000000000ull, 0, 0, 0x3fd5555555555555ull),
		OPR(RCP, F64, R(RP), 0x4008000000000000ull, 0, 0, 0x3fd5555555555556ull),
		/* sqrt(2) = 0x3ff6a09e667f3bcc.9..: nearest is above */
		OPR(SQRT, F64, R(RN), 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bcdull),
		OPR(SQRT, F64, R(RZ), 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bccull),
		OPR(SQRT, F64, R(RM), 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bccull),
		OPR(SQRT, F64, R(RP), 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bcdull),
		/* NaN: the first NaN operand made quiet, or the canonical NaN */
		OPR(ADD, F64, R(RN), 0x7ff0000000000001ull, D1, 0, 0x7ff8000000000001ull),
		OPR(ADD, F64, R(RN), D1, 0xfff8000000000abcull, 0, 0xfff8000000000abcull),
		OPR(MUL, F64, R(RN), 0x7ff8000000000123ull, 0xfff8000000000456ull, 0, 0x7ff8000000000123ull),
		OPR(ADD, F64, R(RN), DINF, DNINF, 0, DCNAN),
		OPR(MUL, F64, R(RN), 0, DINF, 0, DCNAN),
		OPR(SQRT, F64, R(RN), 0xbff0000000000000ull, 0, 0, DCNAN),
		OPR(FMA, F64, R(RN), 0, DINF, 0x7ff4000000000007ull, 0x7ffc000000000007ull),
		OPR(DIV, F64, R(RN), 0, 0, 0, DCNAN),
		BAD(DIV, F64, NONE, 0, APX),
		BAD(SQRT, F64, NONE, 0, APX),
		BAD(ADD, F64, NONE, 0, R(RPI)),
		BAD(EX2, F64, NONE, 0, APX),
	};
	RUN(t);
}

Test(sem_fp, f64_abs_min_max_approx)
{
	static const tcase_t t[] = {
		OPR(ABS, F64, 0, 0xc000000000000000ull, 0, 0, 0x4000000000000000ull),
		OPR(ABS, F64, 0, DNZ, 0, 0, 0),
		OPR(ABS, F64, 0, 0xfff8000000000001ull, 0, 0, 0xfff8000000000001ull), /* NaN unchanged */
		OPR(NEG, F64, 0, 0, 0, 0, DNZ),
		OPR(NEG, F64, 0, 0x7ff8000000000002ull, 0, 0, 0x7ff8000000000002ull),
		OPR(MIN, F64, 0, 0, DNZ, 0, DNZ),
		OPR(MAX, F64, 0, DNZ, 0, 0, 0),
		OPR(MIN, F64, 0, 0x7ff8000000000001ull, D1, 0, D1),
		OPR(MAX, F64, 0, DNINF, 0x7ff8000000000001ull, 0, DNINF),
		OPR(MIN, F64, 0, 0x7ff8000000000001ull, 0x7ff8000000000002ull, 0, DCNAN),
		OPR(MIN, F64, 0, D1, 0x3ff0000000000001ull, 0, D1),
		OPR(COPYSIGN, F64, 0, DNZ, D1, 0, 0xbff0000000000000ull),
		/* rcp.approx.ftz.f64: correctly rounded, subnormals flushed */
		OPR(RCP, F64, APX | FTZ, 0x4008000000000000ull, 0, 0, 0x3fd5555555555555ull),
		OPR(RCP, F64, APX | FTZ, 1, 0, 0, DINF),
		OPR(RCP, F64, APX | FTZ, 0x8000000000000001ull, 0, 0, DNINF),
		OPR(RCP, F64, APX | FTZ, 0x7fe8000000000000ull, 0, 0, 0),      /* 1/x subnormal */
		OPR(RCP, F64, APX | FTZ, 0x7ff8000000000001ull, 0, 0, 0x7fffffff00000000ull),
		OPR(RCP, F64, APX | FTZ, DNINF, 0, 0, DNZ),
		OPR(RCP, F64, R(RN), 0x7fe8000000000000ull, 0, 0, 0x0005555555555555ull),
		/* rsqrt.approx.f64: correctly rounded; 1.0/sqrt(x) is one ulp off
		 * for 3 and 7 */
		OPR(RSQRT, F64, APX, 0x4010000000000000ull, 0, 0, 0x3fe0000000000000ull),
		OPR(RSQRT, F64, APX, 0x3fd0000000000000ull, 0, 0, 0x4000000000000000ull),
		OPR(RSQRT, F64, APX, 0x4008000000000000ull, 0, 0, 0x3fe279a74590331cull),
		OPR(RSQRT, F64, APX, 0x401c000000000000ull, 0, 0, 0x3fd83091e6a7f7e7ull),
		OPR(RSQRT, F64, APX, 0x4002c9ac506aaf31ull, 0, 0, 0x3fe4e19bbf6b74eeull),
		OPR(RSQRT, F64, APX, 0x3ff48158baed590bull, 0, 0, 0x3fec444fe98b10c0ull),
		OPR(RSQRT, F64, APX, 0x3fb999999999999aull, 0, 0, 0x40094c583ada5b52ull), /* 0.1 */
		OPR(RSQRT, F64, APX, 0x7e37e43c8800759cull, 0, 0, 0x20ca2fe76a3f9475ull), /* 1e300 */
		OPR(RSQRT, F64, APX, 1, 0, 0, 0x6180000000000000ull),                     /* 2^537 */
		OPR(RSQRT, F64, APX, D1, 0, 0, D1),
		OPR(RSQRT, F64, APX, DNZ, 0, 0, DNINF),
		OPR(RSQRT, F64, APX, DINF, 0, 0, 0),
		OPR(RSQRT, F64, APX, 0xbff0000000000000ull, 0, 0, DCNAN),
		OPR(RSQRT, F64, APX, 0x7ff0000000000005ull, 0, 0, 0x7ff8000000000005ull),
		OPR(RSQRT, F64, APX | FTZ, 1, 0, 0, DINF),
		OPR(RSQRT, F64, APX | FTZ, 0x7ff0000000000005ull, 0, 0, 0x7fffffff00000000ull),
		BAD(RSQRT, F64, NONE, 0, APX | R(RN)),
		BAD(RCP, F64, NONE, 0, APX | FTZ | R(RN)),
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

Test(sem_fp, half_arith)
{
	static const tcase_t t[] = {
		OPR(ADD, F16, 0, 0x3c00, 0x3c00, 0, 0x4000),
		OPR(ADD, F16, R(RN), 0x6800, 0x3c00, 0, 0x6800),     /* 2048 + 1: tie to even */
		OPR(ADD, F16, R(RP), 0x6800, 0x3c00, 0, 0x6801),
		OPR(ADD, F16, R(RN), 0x6800, 0x4200, 0, 0x6802),     /* 2048 + 3 = 2051: to 2052 */
		OPR(ADD, F16, R(RZ), 0x6800, 0x4200, 0, 0x6801),
		OPR(ADD, F16, 0, 0xffff3c00u, 0x12343c00u, 0, 0x4000), /* junk above the half */
		OPR(SUB, F16, 0, 0x3c00, 0x3c00, 0, 0),
		OPR(SUB, F16, R(RM), 0x3c00, 0x3c00, 0, 0x8000),
		OPR(MUL, F16, 0, 0x5c00, 0x5c00, 0, 0x7c00),          /* 256 * 256 overflows */
		OPR(MUL, F16, R(RZ), 0x5c00, 0x5c00, 0, 0x7bff),
		OPR(MUL, F16, 0, 0x0001, 0x3800, 0, 0),               /* 2^-25: tie to 0 */
		OPR(MUL, F16, 0, 0x0003, 0x3800, 0, 0x0002),
		OPR(MUL, F16, 0, 0x7c00, 0, 0, 0x7fff),               /* inf * 0 */
		/* fma: (1 + 2^-6)^2 - (1 + 2^-5) = 2^-12 in one rounding */
		OPR(FMA, F16, R(RN), 0x3c10, 0x3c10, 0xbc20, 0x0c00),
		OPR(FMA, F16, R(RN), 0x3c00, 0x3c00, 0x0001, 0x3c00),
		OPR(FMA, F16, R(RP), 0x3c00, 0x3c00, 0x0001, 0x3c01),
		/* .ftz and .sat */
		OPR(ADD, F16, 0, 0x0001, 0x0000, 0, 0x0001),
		OPR(ADD, F16, FTZ, 0x0001, 0x0000, 0, 0),
		OPR(MUL, F16, FTZ, 0x0400, 0x3800, 0, 0),             /* 2^-15 flushed */
		OPR(MUL, F16, FTZ, 0x8400, 0x3800, 0, 0x8000),
		OPR(ADD, F16, SAT, 0x3c00, 0x3c00, 0, 0x3c00),
		OPR(ADD, F16, SAT, 0xbc00, 0x3800, 0, 0),
		OPR(ADD, F16, SAT, 0x7c00, 0xfc00, 0, 0),
		/* pairs: element 0 in the low half */
		OPR(ADD, F16X2, 0, 0x40003c00u, 0xc0003c00u, 0, 0x00004000u),
		OPR(MUL, F16X2, 0, 0x5c003c00u, 0x5c004000u, 0, 0x7c004000u),
		OPR(FMA, F16X2, R(RN), 0x3c103c10u, 0x3c103c10u, 0xbc20bc20u, 0x0c000c00u),
		OPR(NEG, F16X2, 0, 0x3c00bc00u, 0, 0, 0xbc003c00u),
		/* bf16 */
		OPR(ADD, BF16, 0, 0x3f80, 0x3b80, 0, 0x3f80),   /* 1 + 2^-8: tie */
		OPR(ADD, BF16, 0, 0x3f81, 0x3b80, 0, 0x3f82),
		OPR(ADD, BF16, R(RP), 0x3f80, 0x3b80, 0, 0x3f81),
		OPR(MUL, BF16, 0, 0x7f00, 0x4000, 0, 0x7f80),   /* 2^127 * 2 */
		OPR(MUL, BF16, R(RZ), 0x7f7f, 0x4000, 0, 0x7f7f),
		OPR(FMA, BF16, R(RN), 0x3f81, 0x3f81, 0xbf82, 0x3880), /* (1+2^-7)^2-(1+2^-6) = 2^-14 */
		OPR(ADD, BF16X2, 0, 0x3f804000u, 0x3f80c000u, 0, 0x40000000u),
		OPR(ABS, BF16, 0, 0xbf80, 0, 0, 0x3f80),
		OPR(NEG, F16, 0, 0x0000, 0, 0, 0x8000),
		OPR(ABS, F16, FTZ, 0x8001, 0, 0, 0),
		/* min/max */
		OPR(MIN, F16, 0, 0x0000, 0x8000, 0, 0x8000),
		OPR(MAX, F16, 0, 0x8000, 0x0000, 0, 0x0000),
		OPR(MIN, F16, 0, 0x7e00, 0x3c00, 0, 0x3c00),
		OPR(MAX, F16, 0, 0x3c00, 0x7e01, 0, 0x3c00),
		OPR(MIN, F16, 0, 0x7e00, 0xfe00, 0, 0x7fff),
		OPR(MAX, BF16, 0, 0xc000, 0xbf80, 0, 0xbf80),
		OPR(MIN, BF16X2, 0, 0x7fc03f80u, 0x40004000u, 0, 0x40003f80u),
		OPR(MAX, F16X2, 0, 0x7e007e00u, 0x3c007e00u, 0, 0x3c007fffu),
		OPR(EX2, F16, APX, 0x4000, 0, 0, 0x4400),       /* 2^2 */
		OPR(EX2, BF16, APX, 0xbf80, 0, 0, 0x3f00),      /* 2^-1 */
		OPR(TANH, F16, APX, 0x0000, 0, 0, 0x0000),
		OPR(TANH, F16X2, APX, 0x7c00fc00u, 0, 0, 0x3c00bc00u),
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

Test(sem_cmp, setp_f32_every_comparison)
{
	static const relcase_t r[] = {
		{ONE, TWO, 0, REL_LT}, {TWO, ONE, 0, REL_GT}, {ONE, ONE, 0, REL_EQ},
		{0, NZ, 0, REL_EQ}, {NZ, 0, 0, REL_EQ}, {NINF, INF, 0, REL_LT}, {INF, INF, 0, REL_EQ},
		{NINF, NINF, 0, REL_EQ}, {INF, MAXF, 0, REL_GT}, {QNAN, ONE, 0, REL_UN},
		{ONE, QNAN, 0, REL_UN}, {QNAN, QNAN, 0, REL_UN}, {INF, 0xffc00000u, 0, REL_UN},
		{SUB1, 0, 0, REL_GT}, {SUB1, 0, FTZ, REL_EQ}, {NSUB1, SUB1, 0, REL_LT},
		{NSUB1, SUB1, FTZ, REL_EQ}, {0xbf800000u, ONE, 0, REL_LT},
	};
	check_float_setp(SC_T_F32, r, sizeof r / sizeof r[0]);
}

Test(sem_cmp, setp_f64_f16_bf16_every_comparison)
{
	static const relcase_t r64[] = {
		{D1, 0x4000000000000000ull, 0, REL_LT}, {D1, 0x3ff0000000000001ull, 0, REL_LT},
		{0, DNZ, 0, REL_EQ}, {DINF, DMAX, 0, REL_GT}, {DNINF, DINF, 0, REL_LT},
		{0x7ff8000000000000ull, D1, 0, REL_UN}, {D1, 0xfff0000000000001ull, 0, REL_UN},
		{1, 0, 0, REL_GT}, {1, 0, FTZ, REL_GT}, /* no ftz for f64 */
	};
	static const relcase_t r16[] = {
		{0x3c00, 0x4000, 0, REL_LT}, {0x8000, 0x0000, 0, REL_EQ}, {0x7c00, 0x7bff, 0, REL_GT},
		{0x7e00, 0x3c00, 0, REL_UN}, {0x3c00, 0xfc01, 0, REL_UN}, {0x0001, 0x0000, 0, REL_GT},
		{0x0001, 0x0000, FTZ, REL_EQ}, {0xffff3c00u, 0x3c00, 0, REL_EQ}, /* junk above */
	};
	static const relcase_t rbf[] = {
		{0x3f80, 0x4000, 0, REL_LT}, {0x8000, 0x0000, 0, REL_EQ}, {0x7f80, 0x7f7f, 0, REL_GT},
		{0x7fc0, 0x3f80, 0, REL_UN}, {0x0001, 0x0000, 0, REL_GT}, {0xbf80, 0xc000, 0, REL_GT},
	};
	check_float_setp(SC_T_F64, r64, sizeof r64 / sizeof r64[0]);
	check_float_setp(SC_T_F16, r16, sizeof r16 / sizeof r16[0]);
	check_float_setp(SC_T_BF16, rbf, sizeof rbf / sizeof rbf[0]);
}

#define SETP(cmp, st, aux, mods, a, b, c, p, q) \
	{SC_OP_SETP, 0, SC_T_##st, SC_CMP_##cmp, (mods), (aux), (a), (b), (c), 0, (p), (q), \
	 "setp." #cmp "." #st " " #aux " " #a " " #b " " #c}
#define SETV(cmp, dt, st, aux, a, b, c, d) \
	{SC_OP_SET, SC_T_##dt, SC_T_##st, SC_CMP_##cmp, 0, (aux), (a), (b), (c), 0, (d), 0, \
	 "set." #cmp "." #dt "." #st " " #a " " #b}
#define BAND SC_AUX_MAKE(0, 0, SC_BOOL_AND)
#define BOR SC_AUX_MAKE(0, 0, SC_BOOL_OR)
#define BXOR SC_AUX_MAKE(0, 0, SC_BOOL_XOR)

Test(sem_cmp, setp_integer)
{
	static const tcase_t t[] = {
		SETP(LT, S32, 0, 0, 0xffffffffu, 1, 0, 1, 0),
		SETP(LT, U32, 0, 0, 0xffffffffu, 1, 0, 0, 1),
		SETP(GT, U32, 0, 0, 0xffffffffu, 1, 0, 1, 0),
		SETP(LO, S32, 0, 0, 0xffffffffu, 1, 0, 0, 1),      /* unsigned */
		SETP(HI, S32, 0, 0, 0xffffffffu, 1, 0, 1, 0),
		SETP(HS, U32, 0, 0, 5, 5, 0, 1, 0),
		SETP(LS, U32, 0, 0, 6, 5, 0, 0, 1),
		SETP(LE, S32, 0, 0, 0x80000000u, 0x7fffffffu, 0, 1, 0),
		SETP(GE, S32, 0, 0, 0x80000000u, 0x7fffffffu, 0, 0, 1),
		SETP(EQ, B32, 0, 0, 0x12345678u, 0x12345678u, 0, 1, 0),
		SETP(NE, B32, 0, 0, 0x12345678u, 0x12345679u, 0, 1, 0),
		SETP(LT, S16, 0, 0, 0x1234ffffu, 1, 0, 1, 0),      /* only the low 16 bits */
		SETP(EQ, U16, 0, 0, 0xabcd0001u, 0x00000001u, 0, 1, 0),
		SETP(LT, S64, 0, 0, 0x8000000000000000ull, 0, 0, 1, 0),
		SETP(LT, U64, 0, 0, 0x8000000000000000ull, 0, 0, 0, 1),
		SETP(GE, U64, 0, 0, ~0ull, ~0ull, 0, 1, 0),
		SETP(LT, B64, 0, 0, 1, ~0ull, 0, 1, 0),
		SETP(LO, S64, 0, 0, ~0ull, 0, 0, 0, 1),
		SETP(LT, S32, 0, 0, 0x00000000ffffffffull, 0, 0, 1, 0), /* R64 junk ignored */
		/* combiners: p = t OP c, q = !t OP c */
		SETP(LT, S32, BAND, 0, 1, 2, 1, 1, 0),
		SETP(LT, S32, BAND, 0, 1, 2, 0, 0, 0),
		SETP(LT, S32, BAND, 0, 2, 1, 1, 0, 1),
		SETP(LT, S32, BOR, 0, 2, 1, 1, 1, 1),
		SETP(LT, S32, BOR, 0, 2, 1, 0, 0, 1),
		SETP(LT, S32, BOR, 0, 1, 2, 0, 1, 0),
		SETP(LT, S32, BXOR, 0, 1, 2, 1, 0, 1),
		SETP(LT, S32, BXOR, 0, 2, 1, 1, 1, 0),
		SETP(LT, S32, BXOR, 0, 2, 1, 0, 0, 1),
		SETP(NAN, F32, BOR, 0, ONE, ONE, 1, 1, 1),
		SETP(EQ, F32, BAND, 0, QNAN, QNAN, 1, 0, 1),
		/* f16x2/bf16x2: p from the low elements, q from the high */
		SETP(LT, F16X2, 0, 0, 0x40003c00u, 0x3c004000u, 0, 1, 0),
		SETP(LT, F16X2, 0, 0, 0x3c004000u, 0x40003c00u, 0, 0, 1),
		SETP(EQ, F16X2, 0, 0, 0x7e000000u, 0x7e008000u, 0, 1, 0),
		SETP(NEU, F16X2, 0, 0, 0x7e000000u, 0x7e008000u, 0, 0, 1),
		SETP(LT, F16X2, BAND, 0, 0x40003c00u, 0x40004000u, 1, 1, 0),
		SETP(LT, F16X2, BOR, 0, 0x40003c00u, 0x40004000u, 1, 1, 1),
		SETP(GT, BF16X2, 0, 0, 0xbf803f80u, 0xc0000000u, 0, 1, 1),
		SETP(EQ, F16X2, 0, FTZ, 0x80010001u, 0x00000000u, 0, 1, 1),
		/* undefined combinations */
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
	};
	RUN(t);
}

Test(sem_cmp, set)
{
	static const tcase_t t[] = {
		SETV(LT, U32, F32, 0, ONE, TWO, 0, 0xffffffffu),
		SETV(LT, S32, F32, 0, TWO, ONE, 0, 0),
		SETV(LT, F32, S32, 0, 0xffffffffu, 0, 0, ONE),
		SETV(GE, F32, U32, 0, 0, 1, 0, 0),
		SETV(EQ, U32, U64, 0, 5, 5, 0, 0xffffffffu),
		SETV(LT, U32, S32, BAND, 1, 2, 0, 0),
		SETV(LT, U32, S32, BOR, 2, 1, 1, 0xffffffffu),
		SETV(LT, U32, S32, BXOR, 1, 2, 1, 0),
		SETV(NAN, F32, F32, 0, QNAN, ONE, 0, ONE),
		SETV(EQ, U16, F16, 0, 0x3c00, 0x3c00, 0, 0xffffu),
		SETV(EQ, F16, F32, 0, ONE, ONE, 0, 0x3c00),
		SETV(EQ, BF16, F16, 0, 0x3c00, 0x3c00, 0, 0x3f80),
		SETV(LT, F16X2, F16X2, 0, 0x40003c00u, 0x3c004000u, 0, 0x00003c00u),
		SETV(LT, BF16X2, BF16X2, 0, 0x3f804000u, 0x40003f80u, 0, 0x3f800000u),
		SETV(EQ, U32, F16X2, 0, 0x3c003c00u, 0x3c004000u, 0, 0xffff0000u),
		SETV(EQU, S32, BF16X2, 0, 0x7fc03f80u, 0x3f803f80u, 0, 0xffffffffu),
		{SC_OP_SET, SC_T_F64, SC_T_F32, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f64"},
		{SC_OP_SET, SC_T_F32, SC_T_F16X2, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f32.f16x2"},
		{SC_OP_SET, SC_T_U16, SC_T_F16X2, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.u16.f16x2"},
		{SC_OP_SET, SC_T_F16X2, SC_T_F32, SC_CMP_EQ, 0, 0, 0, 0, 0, ERR, 0, 0, "set.f16x2.f32"},
		{SC_OP_SET, SC_T_U32, SC_T_S32, SC_CMP_NUM, 0, 0, 0, 0, 0, ERR, 0, 0, "set.num.s32"},
	};
	RUN(t);
}

Test(sem_cmp, selp_slct_testp)
{
#define SELP(ty, a, b, c, d) {SC_OP_SELP, SC_T_##ty, 0, 0, 0, 0, (a), (b), (c), 0, (d), 0, "selp." #ty " " #c}
#define SLCT(ty, st, mods, a, b, c, d) \
	{SC_OP_SLCT, SC_T_##ty, SC_T_##st, 0, (mods), 0, (a), (b), (c), 0, (d), 0, "slct." #ty "." #st " " #c}
#define TESTP(cls, st, a, d) \
	{SC_OP_TESTP, SC_T_PRED, SC_T_##st, SC_TESTP_##cls, 0, 0, (a), 0, 0, 0, (d), 0, "testp." #cls "." #st " " #a}
	static const tcase_t t[] = {
		SELP(B32, 0x11111111u, 0x22222222u, 1, 0x11111111u),
		SELP(B32, 0x11111111u, 0x22222222u, 0, 0x22222222u),
		SELP(S16, 0xffff8001u, 0x2u, 1, 0x8001u),
		SELP(U64, ~0ull, 0, 1, ~0ull),
		SELP(F64, D1, DNZ, 0, DNZ),
		SELP(F32, ONE, TWO, 1, ONE),
		SLCT(B32, S32, 0, 0xaaaau, 0xbbbbu, 0, 0xaaaau),
		SLCT(B32, S32, 0, 0xaaaau, 0xbbbbu, 0xffffffffu, 0xbbbbu),
		SLCT(B32, S32, 0, 0xaaaau, 0xbbbbu, 0x7fffffffu, 0xaaaau),
		SLCT(U64, F32, 0, ~0ull, 1, NZ, ~0ull),         /* -0 >= 0 */
		SLCT(U64, F32, 0, ~0ull, 1, QNAN, 1),           /* NaN is not >= 0 */
		SLCT(F32, F32, 0, ONE, TWO, 0xbf800000u, TWO),
		SLCT(F32, F32, 0, ONE, TWO, NSUB1, TWO),        /* -2^-149 < 0 */
		SLCT(F32, F32, FTZ, ONE, TWO, NSUB1, ONE),      /* flushed to -0 */
		SLCT(S16, S32, 0, 0x12345678u, 0, 1, 0x5678u),
		TESTP(FINITE, F32, ONE, 1), TESTP(FINITE, F32, INF, 0), TESTP(FINITE, F32, QNAN, 0),
		TESTP(FINITE, F32, SUB1, 1), TESTP(INFINITE, F32, NINF, 1), TESTP(INFINITE, F32, MAXF, 0),
		TESTP(INFINITE, F32, QNAN, 0), TESTP(NUMBER, F32, INF, 1), TESTP(NUMBER, F32, 0xffc00000u, 0),
		TESTP(NOTANUMBER, F32, 0x7f800001u, 1), TESTP(NOTANUMBER, F32, INF, 0),
		TESTP(NORMAL, F32, ONE, 1), TESTP(NORMAL, F32, 0, 1), TESTP(NORMAL, F32, NZ, 1),
		TESTP(NORMAL, F32, SUB1, 0), TESTP(NORMAL, F32, INF, 0), TESTP(NORMAL, F32, QNAN, 0),
		TESTP(NORMAL, F32, MINN, 1), TESTP(SUBNORMAL, F32, SUB1, 1), TESTP(SUBNORMAL, F32, 0x807fffffu, 1),
		TESTP(SUBNORMAL, F32, 0, 0), TESTP(SUBNORMAL, F32, MINN, 0), TESTP(SUBNORMAL, F32, QNAN, 0),
		TESTP(FINITE, F64, DMAX, 1), TESTP(INFINITE, F64, DNINF, 1), TESTP(NOTANUMBER, F64, DCNAN, 1),
		TESTP(NUMBER, F64, DCNAN, 0), TESTP(NORMAL, F64, DNZ, 1), TESTP(NORMAL, F64, 1, 0),
		TESTP(SUBNORMAL, F64, 1, 1), TESTP(SUBNORMAL, F64, 0x0010000000000000ull, 0),
		TESTP(SUBNORMAL, F64, 0x7ff0000000000001ull, 0),
		{SC_OP_SELP, SC_T_PRED, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.pred"},
		{SC_OP_SELP, SC_T_F16, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.f16"},
		{SC_OP_SELP, SC_T_B8, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "selp.b8"},
		{SC_OP_SLCT, SC_T_B32, SC_T_U32, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "slct.b32.u32"},
		{SC_OP_SLCT, SC_T_B32, SC_T_F64, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "slct.b32.f64"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F16, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "testp.f16"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F32, 6, 0, 0, 0, 0, 0, ERR, 0, 0, "testp class 6"},
		{SC_OP_TESTP, SC_T_PRED, SC_T_F32, 255, 0, 0, 0, 0, 0, ERR, 0, 0, "testp class 255"},
		{SC_OP_ADD, SC_T_S32, 0, 0, 0, 0, 0, 0, 0, ERR, 0, 0, "add via sem_cmp"},
	};
#undef SELP
#undef SLCT
#undef TESTP
	/* add.s32 goes to sem_int; make sure sem_cmp rejects it if asked */
	for (size_t i = 0; i + 1 < sizeof t / sizeof t[0]; i++)
		run_case(&t[i]);
	sc_insn_t in = mkinsn(&t[sizeof t / sizeof t[0] - 1]);
	static sc_alu_t x;
	x.in = &in;
	x.mask = 1;
	cr_expect_eq(sc__sem_cmp(&x), -1);
}

/* ---- cvt --------------------------------------------------------------- */

#define SX(v) ((uint64_t)(int64_t)(v)) /* a signed result, sign-extended */

Test(sem_cmp, cvt_float_to_int)
{
	static const tcase_t t[] = {
		/* rounding of .5 cases and negatives */
		CVT(S32, F32, R(RNI), 0x40200000u, 2),          /* 2.5 -> 2 */
		CVT(S32, F32, R(RNI), 0x40600000u, 4),          /* 3.5 -> 4 */
		CVT(S32, F32, R(RNI), 0xc0200000u, SX(-2)),
		CVT(S32, F32, R(RNI), 0xc0600000u, SX(-4)),
		CVT(S32, F32, R(RNI), 0x3f000000u, 0),          /* 0.5 -> 0 */
		CVT(S32, F32, R(RZI), 0x402ccccdu, 2),          /* 2.7 */
		CVT(S32, F32, R(RZI), 0xc02ccccdu, SX(-2)),
		CVT(S32, F32, R(RMI), 0xc0200000u, SX(-3)),
		CVT(S32, F32, R(RMI), 0x40200000u, 2),
		CVT(S32, F32, R(RPI), 0x40066666u, 3),          /* 2.1 */
		CVT(S32, F32, R(RPI), 0xc039999au, SX(-2)),     /* -2.9 */
		CVT(S32, F32, 0, 0xc02ccccdu, SX(-2)),          /* no rounding: .rzi */
		CVT(U32, F32, R(RNI), 0x4f000000u, 0x80000000u),
		/* saturation to the destination range */
		CVT(S32, F32, R(RZI), 0x4f32d05eu, 0x7fffffffu),     /* 3e9 */
		CVT(S32, F32, R(RZI), 0xcf32d05eu, SX(INT32_MIN)),
		CVT(S32, F32, R(RZI), INF, 0x7fffffffu),
		CVT(S32, F32, R(RZI), NINF, SX(INT32_MIN)),
		CVT(U32, F32, R(RZI), 0xbfc00000u, 0),               /* -1.5 */
		CVT(U32, F32, R(RZI), 0x4f9502f9u, 0xffffffffu),     /* 5e9 */
		CVT(U32, F32, R(RNI), NZ, 0),
		CVT(U8, F32, R(RZI), 0x43960000u, 0xff),             /* 300 */
		CVT(U8, F32, R(RZI), 0xc0a00000u, 0),                /* -5 */
		CVT(S8, F32, R(RZI), 0x43480000u, 0x7f),             /* 200 */
		CVT(S8, F32, R(RZI), 0xc3480000u, SX(-128)),
		CVT(S16, F32, R(RNI), 0x46fffe00u, 0x7fff),          /* 32767 */
		CVT(S16, F32, R(RNI), 0x47000000u, 0x7fff),          /* 32768 */
		CVT(U16, F64, R(RZI), 0x40efffe000000000ull, 0xffff),
		CVT(S64, F64, R(RZI), 0xc3e0000000000000ull, 0x8000000000000000ull), /* -2^63 */
		CVT(S64, F64, R(RZI), 0x43e0000000000000ull, 0x7fffffffffffffffull), /* 2^63 */
		CVT(U64, F64, R(RZI), 0x43f0000000000000ull, ~0ull),                 /* 2^64 */
		CVT(U64, F64, R(RZI), 0x43efffffffffffffull, 0xfffffffffffff800ull),
		CVT(S64, F32, R(RPI), 0xdf000000u, 0x8000000000000000ull),           /* -2^63 */
		CVT(U64, F32, R(RMI), 0xbf800000u, 0),
		/* NaN: 0, or 1 << (width - 1) from f64 or into 64 bits */
		CVT(S32, F32, R(RZI), QNAN, 0),
		CVT(U32, F32, R(RNI), 0xffc00000u, 0),
		CVT(U16, F16, R(RNI), 0x7e00, 0),
		CVT(S8, BF16, R(RNI), 0x7fc0, 0),
		CVT(S32, F64, R(RZI), 0x7ff8000000000000ull, SX(INT32_MIN)),
		CVT(U32, F64, R(RZI), 0x7ff8000000000000ull, 0x80000000u),
		CVT(U16, F64, R(RZI), 0x7ff8000000000001ull, 0x8000u),
		CVT(S8, F64, R(RZI), 0xfff8000000000000ull, SX(-128)),
		CVT(S64, F32, R(RZI), QNAN, 0x8000000000000000ull),
		CVT(U64, F32, R(RZI), QNAN, 0x8000000000000000ull),
		CVT(U64, F16, R(RZI), 0x7c01, 0x8000000000000000ull),
		/* .ftz on f32 sources */
		CVT(S32, F32, R(RPI), SUB1, 1),
		CVT(S32, F32, R(RPI) | FTZ, SUB1, 0),
		CVT(S32, F32, R(RMI), NSUB1, SX(-1)),
		CVT(S32, F32, R(RMI) | FTZ, NSUB1, 0),
		/* half sources */
		CVT(S32, F16, R(RNI), 0x4100, 2),                    /* 2.5 */
		CVT(S32, F16, R(RZI), 0xfbff, SX(-65504)),
		CVT(U8, BF16, R(RPI), 0x3fc0, 2),                    /* 1.5 */
		CVT(S32, F16, R(RZI), 0xffff4100u, 2),               /* junk above */
		BAD(CVT, S32, F32, 0, R(RN)),
		BAD(CVT, U64, F64, 0, R(RP)),
		BAD(CVT, B32, F32, 0, R(RZI)),
		BAD(CVT, S32, F16X2, 0, R(RZI)),
		BAD(CVT, PRED, F32, 0, R(RZI)),
	};
	RUN(t);
}

Test(sem_cmp, cvt_int_to_int)
{
	static const tcase_t t[] = {
		CVT(S8, S32, 0, 0xffffffffu, SX(-1)),               /* sign-extended result */
		CVT(S8, S32, 0, 0x17fu, 0x7f),
		CVT(S8, S32, 0, 0x180u, SX(-128)),
		CVT(U8, S32, 0, 0x1ffu, 0xff),
		CVT(U8, S32, SAT, 300, 0xff),
		CVT(U8, S32, SAT, 0xfffffffbu, 0),                  /* -5 */
		CVT(S8, S32, SAT, 200, 0x7f),
		CVT(S8, S32, SAT, 0xffffff38u, SX(-128)),           /* -200 */
		CVT(S8, U32, SAT, 0xffffffffu, 0x7f),
		CVT(S32, S8, 0, 0x80, SX(-128)),
		CVT(S32, S8, 0, 0xffffff7fu, 0x7f),                 /* only the low 8 bits */
		CVT(U32, S8, 0, 0x80, 0xffffff80u),
		CVT(U32, U8, 0, 0xfff0, 0xf0),
		CVT(S32, U32, SAT, 0xffffffffu, 0x7fffffffu),
		CVT(U32, S32, SAT, 0xffffffffu, 0),
		CVT(U32, S32, 0, 0xffffffffu, 0xffffffffu),
		CVT(U64, S32, 0, 0xffffffffu, ~0ull),
		CVT(S64, S32, 0, 0x80000000u, 0xffffffff80000000ull),
		CVT(U64, U32, 0, 0xffffffffu, 0xffffffffu),
		CVT(S64, S64, 0, 0x8000000000000000ull, 0x8000000000000000ull),
		CVT(U64, S64, SAT, ~0ull, 0),
		CVT(S64, U64, SAT, ~0ull, 0x7fffffffffffffffull),
		CVT(U32, U64, SAT, 0x100000000ull, 0xffffffffu),
		CVT(S32, S64, SAT, 0xfffffffe00000000ull, SX(INT32_MIN)),
		CVT(S32, S64, 0, 0xfffffffe80000001ull, SX(-0x7fffffff)),
		CVT(U16, U64, 0, 0x123456789ull, 0x6789),
		CVT(S16, U64, 0, 0x12345f789ull, SX(-2167)),        /* 0xf789 */
		CVT(S16, S16, SAT, 0xffff8000u, SX(-32768)),
		BAD(CVT, S32, S8, 0, R(RN)),
		BAD(CVT, S32, S8, 0, R(RZI)),
		BAD(CVT, B32, S32, 0, 0),
		BAD(CVT, S32, B32, 0, 0),
	};
	RUN(t);
}

Test(sem_cmp, cvt_int_to_float)
{
	static const tcase_t t[] = {
		CVT(F32, S32, R(RN), 16777217, 0x4b800000u),         /* 2^24 + 1: tie */
		CVT(F32, S32, R(RP), 16777217, 0x4b800001u),
		CVT(F32, S32, R(RZ), 16777217, 0x4b800000u),
		CVT(F32, S32, R(RM), 0xfeffffffu, 0xcb800001u),      /* -(2^24 + 1) */
		CVT(F32, S32, 0, 0xffffffffu, 0xbf800000u),          /* no rounding: .rn */
		CVT(F32, U32, R(RN), 0xffffffffu, 0x4f800000u),
		CVT(F32, U32, R(RZ), 0xffffffffu, 0x4f7fffffu),
		CVT(F32, U64, R(RN), ~0ull, 0x5f800000u),
		CVT(F32, U64, R(RZ), ~0ull, 0x5f7fffffu),
		CVT(F32, U64, R(RN), 0x8000008000000001ull, 0x5f000001u), /* just above a tie */
		CVT(F32, S64, R(RM), 0x8000000000000001ull, 0xdf000000u),
		CVT(F32, S64, R(RZ), 0x8000000000000001ull, 0xdeffffffu),
		CVT(F32, U8, R(RN), 0xffffff80u, 0x43000000u),       /* only the low 8 bits: 128 */
		CVT(F32, S8, R(RN), 0x80, 0xc3000000u),              /* -128 */
		CVT(F64, U64, R(RN), ~0ull, 0x43f0000000000000ull),
		CVT(F64, U64, R(RZ), ~0ull, 0x43efffffffffffffull),
		CVT(F64, S64, R(RN), 0x20000000000001ull, 0x4340000000000000ull), /* 2^53 + 1 */
		CVT(F64, S64, R(RP), 0x20000000000001ull, 0x4340000000000001ull),
		CVT(F64, S64, R(RN), 0x8000000000000000ull, 0xc3e0000000000000ull),
		CVT(F64, S32, R(RN), 0x80000000u, 0xc1e0000000000000ull),
		CVT(F16, S32, R(RN), 2049, 0x6800),
		CVT(F16, S32, R(RN), 2051, 0x6802),
		CVT(F16, S32, R(RN), 65520, 0x7c00),
		CVT(F16, S32, R(RZ), 65520, 0x7bff),
		CVT(F16, S32, R(RZ), 70000, 0x7bff),
		CVT(F16, S32, R(RM), 0xfffeee90u, 0xfc00),            /* -70000 */
		CVT(F16, U64, R(RN), ~0ull, 0x7c00),
		CVT(F16, U64, R(RZ), ~0ull, 0x7bff),
		CVT(F16, S16, R(RN), 0xffff, 0xbc00),
		/* 2^62 + 2^54 + 1 is just above a bf16 tie; a double loses the 1 */
		CVT(BF16, S64, R(RN), 0x4040000000000001ull, 0x5e81),
		CVT(BF16, S64, R(RN), 0x4040000000000000ull, 0x5e80),
		CVT(BF16, U32, R(RN), 0x01010000u, 0x4b80),           /* 2^24 + 2^16: tie to even */
		CVT(BF16, U32, R(RP), 0x01000001u, 0x4b81),
		/* .sat: 0 or 1 */
		CVT(F32, S32, R(RN) | SAT, 5, ONE),
		CVT(F32, S32, R(RN) | SAT, 0xfffffffbu, 0),
		CVT(F32, S32, R(RN) | SAT, 0, 0),
		CVT(F16, U32, R(RN) | SAT, 7, 0x3c00),
		BAD(CVT, F32, S32, 0, R(RNI)),
		BAD(CVT, F16, U16, 0, R(RZI)),
	};
	RUN(t);
}

Test(sem_cmp, cvt_float_to_float)
{
	static const tcase_t t[] = {
		/* f64 -> f32 narrowing */
		CVT(F32, F64, R(RN), 0x3ff0000010000000ull, ONE),        /* 1 + 2^-24: tie */
		CVT(F32, F64, R(RN), 0x3ff0000010000001ull, 0x3f800001u),
		CVT(F32, F64, R(RZ), 0x3ff0000010000001ull, ONE),
		CVT(F32, F64, R(RM), 0xbff0000010000001ull, 0xbf800001u),
		CVT(F32, F64, 0, 0x3ff0000010000001ull, 0x3f800001u),    /* no rounding: .rn */
		CVT(F32, F64, R(RN), DMAX, INF),
		CVT(F32, F64, R(RZ), DMAX, MAXF),
		CVT(F32, F64, R(RP), 0xffefffffffffffffull, 0xff7fffffu),
		CVT(F32, F64, R(RN), 0x3690000000000000ull, 0),          /* 2^-150: tie to 0 */
		CVT(F32, F64, R(RP), 0x3690000000000000ull, SUB1),
		CVT(F32, F64, R(RN), 0x37d0000000000000ull, 0x00080000u), /* 2^-130 */
		CVT(F32, F64, R(RN) | FTZ, 0x37d0000000000000ull, 0),
		CVT(F32, F64, R(RN) | FTZ, 0xb7d0000000000000ull, NZ),
		CVT(F32, F64, R(RN), 0x7ff8000000000001ull, CNAN),
		CVT(F32, F64, R(RN) | SAT, 0x4000000000000000ull, ONE),
		CVT(F32, F64, R(RN) | SAT, 0x7ff8000000000001ull, 0),
		/* widening: exact */
		CVT(F64, F32, 0, SUB1, 0x36a0000000000000ull),
		CVT(F64, F32, FTZ, SUB1, 0),
		CVT(F64, F32, FTZ, NSUB1, DNZ),
		CVT(F64, F32, 0, 0x7fc00001u, 0x7ff8000020000000ull),     /* payload kept */
		CVT(F64, F32, 0, 0xff800001u, 0xfff8000020000000ull),     /* made quiet */
		CVT(F64, F32, R(RN), ONE, D1),                            /* rounding ignored */
		CVT(F64, F32, SAT, 0xc0000000u, 0),
		CVT(F32, F16, 0, 0x0001, 0x33800000u),
		CVT(F32, F16, 0, 0x7bff, 0x477fe000u),
		CVT(F32, F16, 0, 0xfc00, NINF),
		CVT(F32, F16, 0, 0x7e01, CNAN),
		CVT(F32, F16, 0, 0xabcd3c00u, ONE),                       /* junk above */
		CVT(F64, F16, 0, 0x7e01, 0x7ff8040000000000ull),
		CVT(F32, BF16, 0, 0x3f81, 0x3f810000u),
		CVT(F64, BF16, 0, 0xff80, DNINF),
		/* to f16 / bf16 */
		CVT(F16, F32, R(RN), 0x477ff000u, 0x7c00),                /* 65520 */
		CVT(F16, F32, R(RZ), 0x477ff000u, 0x7bff),
		CVT(F16, F32, R(RN), 0x33000000u, 0),                     /* 2^-25 */
		CVT(F16, F32, R(RP), 0x33000000u, 0x0001),
		CVT(F16, F32, R(RM), 0xb3000000u, 0x8001),
		CVT(F16, F32, R(RN), 0x3eaaaaabu, 0x3555),
		CVT(F16, F32, R(RN), QNAN, 0x7fff),
		CVT(F16, F32, R(RN) | FTZ, SUB1, 0),
		CVT(F16, F32, R(RP), SUB1, 0x0001),
		CVT(F16, F32, R(RN) | SAT, 0x40000000u, 0x3c00),
		CVT(F16, F64, R(RN), 0x3ff0020000000001ull, 0x3c01),     /* above a tie by 2^-52 */
		CVT(F16, F64, R(RN), 0x3ff0020000000000ull, 0x3c00),
		CVT(BF16, F32, R(RN), 0x3f808000u, 0x3f80),               /* tie */
		CVT(BF16, F32, R(RN), 0x3f818000u, 0x3f82),
		CVT(BF16, F32, R(RZ), 0x3f81ffffu, 0x3f81),
		CVT(BF16, F32, R(RN), MAXF, 0x7f80),
		CVT(BF16, F64, R(RN), 0x3ff0100000000001ull, 0x3f81),
		CVT(BF16, F16, R(RN), 0x3c01, 0x3f80),                    /* 1 + 2^-10 */
		CVT(BF16, F16, R(RN), 0x3c0c, 0x3f82),                    /* 1 + 3*2^-8: tie up */
		CVT(F16, BF16, R(RN), 0x7f00, 0x7c00),                    /* 2^127 */
		CVT(F16, BF16, R(RZ), 0x7f00, 0x7bff),
		CVT(F16, BF16, R(RN), 0x3f81, 0x3c08),
		/* same type: integral rounding */
		CVT(F32, F32, R(RNI), 0x40200000u, TWO),                  /* 2.5 -> 2 */
		CVT(F32, F32, R(RNI), 0x40600000u, 0x40800000u),          /* 3.5 -> 4 */
		CVT(F32, F32, R(RPI), 0xbf000000u, NZ),                   /* -0.5 -> -0 */
		CVT(F32, F32, R(RMI), HALF, 0),
		CVT(F32, F32, R(RMI), 0xbf000000u, 0xbf800000u),
		CVT(F32, F32, R(RZI), 0xbfc00000u, 0xbf800000u),
		CVT(F32, F32, R(RPI), SUB1, ONE),
		CVT(F32, F32, R(RPI) | FTZ, SUB1, 0),
		CVT(F32, F32, R(RNI), 0x4b000001u, 0x4b000001u),          /* already integral */
		CVT(F32, F32, R(RNI), INF, INF),
		CVT(F32, F32, R(RNI), QNAN, CNAN),
		CVT(F32, F32, FTZ, NSUB1, NZ),                            /* plain copy with .ftz */
		CVT(F32, F32, SAT, 0x3fc00000u, ONE),
		CVT(F32, F32, SAT, 0xbf800000u, 0),
		CVT(F32, F32, SAT, QNAN, 0),
		CVT(F32, F32, 0, SUB1, SUB1),
		CVT(F64, F64, R(RNI), 0x4004000000000000ull, 0x4000000000000000ull),
		CVT(F64, F64, R(RPI), 0x3ff0000000000001ull, 0x4000000000000000ull),
		CVT(F64, F64, R(RMI), 0xbff8000000000000ull, 0xc000000000000000ull),
		CVT(F64, F64, R(RZI), 0x7ff0000000000001ull, 0x7ff8000000000001ull),
		CVT(F16, F16, R(RNI), 0x4100, 0x4000),                    /* 2.5 -> 2 */
		CVT(F16, F16, R(RPI), 0x0001, 0x3c00),
		CVT(F16, F16, R(RZI), 0x7bff, 0x7bff),
		CVT(BF16, BF16, R(RPI), 0x3fc0, 0x4000),                  /* 1.5 -> 2 */
		CVT(BF16, BF16, R(RMI), 0xbfc0, 0xc000),
		BAD(CVT, F32, F32, 0, R(RN)),
		BAD(CVT, F64, F32, 0, R(RNI)),
		BAD(CVT, F32, F64, 0, R(RZI)),
		BAD(CVT, F16, F32, 0, R(RMI)),
		BAD(CVT, F32, F32, 0, 9),
	};
	RUN(t);
}

Test(sem_cmp, cvt_pack_half_pairs)
{
	static const tcase_t t[] = {
		CVT(F16X2, F32, R(RN), ONE, 0x3c000000u), /* b is 0 */
		{SC_OP_CVT, SC_T_F16X2, SC_T_F32, 0, R(RN), 0, ONE, TWO, 0, 0, 0x3c004000u, 0, "cvt.rn.f16x2 1 2"},
		{SC_OP_CVT, SC_T_F16X2, SC_T_F32, 0, R(RZ), 0, 0x477ff000u, 0x33000000u, 0, 0, 0x7bff0000u, 0,
		 "cvt.rz.f16x2 65520 2^-25"},
		{SC_OP_CVT, SC_T_F16X2, SC_T_F32, 0, R(RN), 0, 0x477ff000u, QNAN, 0, 0, 0x7c007fffu, 0,
		 "cvt.rn.f16x2 65520 NaN"},
		{SC_OP_CVT, SC_T_BF16X2, SC_T_F32, 0, R(RN), 0, ONE, 0xbf800000u, 0, 0, 0x3f80bf80u, 0,
		 "cvt.rn.bf16x2 1 -1"},
		{SC_OP_CVT, SC_T_BF16X2, SC_T_F32, 0, R(RZ), 0, 0x3f81ffffu, 0x3f808000u, 0, 0, 0x3f813f80u, 0,
		 "cvt.rz.bf16x2"},
		{SC_OP_CVT, SC_T_F16X2, SC_T_F64, 0, R(RN), 0, 0, 0, 0, ERR, 0, 0, "cvt.f16x2.f64"},
		{SC_OP_CVT, SC_T_F16X2, SC_T_F32, 0, R(RNI), 0, 0, 0, 0, ERR, 0, 0, "cvt.rni.f16x2"},
	};
	RUN(t);
}

/* ---- robustness -------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

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

/* A whole warp at once: every lane gets its own operands and result. */
Test(sem_fp, all_lanes)
{
	static sc_alu_t x;
	sc_insn_t in;
	memset(&in, 0, sizeof in);
	in.op = SC_OP_FMA;
	in.type = SC_T_F32;
	in.mods = SC_RND_RN;
	x.in = &in;
	x.mask = 0xffffffffu;
	for (int l = 0; l < 32; l++) {
		x.a[l] = f2u((float)l);
		x.b[l] = f2u(2.0f);
		x.c[l] = f2u(0.5f);
	}
	cr_assert_eq(sc__sem_fp(&x), 0);
	for (int l = 0; l < 32; l++)
		cr_expect_eq(x.d[l], f2u(2.0f * (float)l + 0.5f), "lane %d", l);
	in.op = SC_OP_SETP;
	in.stype = SC_T_S32;
	in.sub = SC_CMP_LT;
	for (int l = 0; l < 32; l++) {
		x.a[l] = (uint32_t)(l - 16);
		x.b[l] = 0;
	}
	cr_assert_eq(sc__sem_cmp(&x), 0);
	for (int l = 0; l < 32; l++) {
		cr_expect_eq(x.d[l], (uint64_t)(l < 16), "lane %d", l);
		cr_expect_eq(x.d2[l], (uint64_t)(l >= 16), "lane %d", l);
	}
}
