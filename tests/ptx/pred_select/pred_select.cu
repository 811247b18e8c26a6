// Integer compares and selects: setp (eq ne lt le gt ge lo ls hi hs; s16/s32/u32/s64),
// setp.and/.or/.xor with p|q, selp, slct .s32/.f32, set, and/or/xor/not.pred.

#define SETP(op, ty, con, x, y)                                                        \
	asm("{ .reg .pred p; setp." op "." ty " p, %1, %2; selp.u32 %0, 1, 0, p; }"    \
	    : "=r"(t) : con(x), con(y));                                               \
	m = (m << 1) | t;

extern "C" __global__ void compare(const int *pa, const int *pb, const unsigned *pf,
				   unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a = pa[i], b = pb[i];
	long long a64 = (long long)a * 3, b64 = (long long)b * 4;
	short a16 = (short)a, b16 = (short)(b >> 1);
	unsigned *o = out + 12 * i;
	unsigned m = 0, t;

	SETP("eq", "s32", "r", a, b) SETP("ne", "s32", "r", a, b)
	SETP("lt", "s32", "r", a, b) SETP("le", "s32", "r", a, b)
	SETP("gt", "s32", "r", a, b) SETP("ge", "s32", "r", a, b)
	SETP("lo", "u32", "r", a, b) SETP("ls", "u32", "r", a, b)
	SETP("hi", "u32", "r", a, b) SETP("hs", "u32", "r", a, b)
	SETP("lt", "u32", "r", a, b) SETP("ge", "u32", "r", a, b)
	SETP("lt", "s64", "l", a64, b64) SETP("hi", "u64", "l", a64, b64)
	SETP("le", "s16", "h", a16, b16) SETP("hs", "u16", "h", a16, b16)
	SETP("eq", "b32", "r", a, b) SETP("ne", "b64", "l", a64, b64)
	o[0] = m;

	/* combining forms: p = (a op b) BOOL c, q = !(a op b) BOOL c */
	unsigned r;
	asm("{ .reg .pred c, p, q; .reg .u32 x, y;\n\t"
	    "setp.ne.s32 c, %3, 0;\n\t"
	    "setp.lt.and.s32 p|q, %1, %2, c;\n\t"
	    "selp.u32 x, 1, 0, p; selp.u32 y, 2, 0, q; or.b32 %0, x, y;\n\t"
	    "setp.hi.or.u32 p|q, %1, %2, !c;\n\t"
	    "selp.u32 x, 4, 0, p; selp.u32 y, 8, 0, q; or.b32 x, x, y; or.b32 %0, %0, x;\n\t"
	    "setp.eq.xor.s32 p|q, %1, %2, c;\n\t"
	    "selp.u32 x, 16, 0, p; selp.u32 y, 32, 0, q; or.b32 x, x, y; or.b32 %0, %0, x; }"
	    : "=r"(r) : "r"(a), "r"(b), "r"(i & 1));
	o[1] = r;

	/* predicate logic */
	asm("{ .reg .pred p, q, s, u;\n\t"
	    "setp.gt.s32 p, %1, 0;\n\t"
	    "setp.gt.s32 q, %2, 0;\n\t"
	    "and.pred s, p, q;\n\t"
	    "or.pred u, p, q;\n\t"
	    "xor.pred p, s, u;\n\t"
	    "not.pred q, p;\n\t"
	    "selp.u32 %0, 100, 200, q;\n\t"
	    "@s add.u32 %0, %0, 1;\n\t"
	    "@!u add.u32 %0, %0, 2; }"
	    : "=r"(r) : "r"(a), "r"(b));
	o[2] = r;

	/* selp via C conditional, slct with int and float selectors */
	o[3] = a < b ? (unsigned)a * 3u : (unsigned)b ^ 0xffu;
	asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"((int)((unsigned)a - (unsigned)b)));
	o[4] = r;
	float fs = __uint_as_float(pf[i & 31]);
	asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "f"(fs));
	o[5] = r;
	long long s64;
	asm("slct.s64.s32 %0, %1, %2, %3;" : "=l"(s64) : "l"(a64), "l"(b64), "r"(b));
	o[6] = (unsigned)s64 ^ (unsigned)(s64 >> 32);

	/* set: 0xffffffff or 0 in an integer destination, 1.0f or 0 in a float one */
	asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	o[7] = r;
	asm("set.hs.s32.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	o[8] = r;
	float f;
	asm("set.ne.f32.s32 %0, %1, %2;" : "=f"(f) : "r"(a), "r"(b));
	o[9] = __float_as_uint(f);
	asm("{ .reg .pred c; setp.ge.s32 c, %2, 0;\n\t"
	    "set.gt.and.u32.s32 %0, %1, %2, c; }" : "=r"(r) : "r"(a), "r"(b));
	o[10] = r;
	/* C booleans: setp + selp / and */
	o[11] = (a == b) + 2 * (a != 0 && b > 0) + 4 * ((unsigned)a >= (unsigned)b || a < -2);
}
