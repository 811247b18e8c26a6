// setp with every float comparison (eq ne lt le gt ge equ neu ltu leu gtu geu
// num nan; f32 with and without .ftz, f64), setp with .and/.or/.xor, {!}c and
// p|q, and set giving f32 1.0/0.0, u32 0xffffffff/0 and s32 -1/0.
#define CMP(name, op, T, C)                                                    \
	__device__ __forceinline__ unsigned name(T a, T b)                         \
	{                                                                          \
		unsigned r;                                                            \
		asm("{\n\t.reg .pred p;\n\tsetp." op " p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" \
		    : "=r"(r) : C(a), C(b));                                           \
		return r;                                                              \
	}
#define CMPS(sfx, T, C, F)                                                                 \
	CMP(eq##sfx, "eq" F, T, C) CMP(ne##sfx, "ne" F, T, C) CMP(lt##sfx, "lt" F, T, C)       \
	CMP(le##sfx, "le" F, T, C) CMP(gt##sfx, "gt" F, T, C) CMP(ge##sfx, "ge" F, T, C)       \
	CMP(equ##sfx, "equ" F, T, C) CMP(neu##sfx, "neu" F, T, C) CMP(ltu##sfx, "ltu" F, T, C) \
	CMP(leu##sfx, "leu" F, T, C) CMP(gtu##sfx, "gtu" F, T, C) CMP(geu##sfx, "geu" F, T, C) \
	CMP(num##sfx, "num" F, T, C) CMP(nan##sfx, "nan" F, T, C)
CMPS(_32, float, "f", ".f32")
CMPS(_32f, float, "f", ".ftz.f32")
CMPS(_64, double, "d", ".f64")

// bit k = k-th comparison in the order eq ne lt le gt ge equ neu ltu leu gtu geu num nan
#define MASK(sfx, a, b)                                                        \
	(eq##sfx(a, b) | ne##sfx(a, b) << 1 | lt##sfx(a, b) << 2 | le##sfx(a, b) << 3 |   \
	 gt##sfx(a, b) << 4 | ge##sfx(a, b) << 5 | equ##sfx(a, b) << 6 | neu##sfx(a, b) << 7 | \
	 ltu##sfx(a, b) << 8 | leu##sfx(a, b) << 9 | gtu##sfx(a, b) << 10 | geu##sfx(a, b) << 11 | \
	 num##sfx(a, b) << 12 | nan##sfx(a, b) << 13)

// x comes from a[i & ma], y from b[(i >> sb) & mb].
extern "C" __global__ void setp32(const unsigned *a, const unsigned *b, unsigned *out,
                                  unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i & ma]), y = __uint_as_float(b[(i >> sb) & mb]);
	unsigned *o = out + i, r;
	float f;
	o[0 * n] = MASK(_32, x, y);
	o[1 * n] = MASK(_32f, x, y);
	asm("set.lt.f32.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
	o[2 * n] = __float_as_uint(f);
	asm("set.gtu.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y));
	o[3 * n] = r;
	asm("set.ne.s32.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y));
	o[4 * n] = r;
	asm("set.eq.ftz.f32.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
	o[5 * n] = __float_as_uint(f);
	asm("{\n\t.reg .pred c;\n\tsetp.nan.f32 c, %2, %2;\n\tset.ge.or.u32.f32 %0, %1, %2, c;\n\t}"
	    : "=r"(r) : "f"(x), "f"(y));
	o[6 * n] = r;
	asm("{\n\t.reg .pred c;\n\tsetp.lt.f32 c, %1, 0f3F800000;\n\tset.leu.and.ftz.f32.f32 %0, %1, %2, !c;\n\t}"
	    : "=f"(f) : "f"(x), "f"(y));
	o[7 * n] = __float_as_uint(f);
	// p|q pairs: bits 0-1 gt.and(num), 2-3 leu.or(x < 0), 4-5 eq.xor.ftz(!(y > 0)), 6-7 lt
	asm("{\n\t.reg .pred c, p, q;\n\t.reg .b32 t;\n\t"
	    "setp.num.f32 c, %1, %2;\n\tsetp.gt.and.f32 p|q, %1, %2, c;\n\t"
	    "selp.b32 %0, 1, 0, p;\n\tselp.b32 t, 2, 0, q;\n\tor.b32 %0, %0, t;\n\t"
	    "setp.lt.f32 c, %1, 0f00000000;\n\tsetp.leu.or.f32 p|q, %1, %2, c;\n\t"
	    "selp.b32 t, 4, 0, p;\n\tor.b32 %0, %0, t;\n\tselp.b32 t, 8, 0, q;\n\tor.b32 %0, %0, t;\n\t"
	    "setp.gt.f32 c, %2, 0f00000000;\n\tsetp.eq.xor.ftz.f32 p|q, %1, %2, !c;\n\t"
	    "selp.b32 t, 16, 0, p;\n\tor.b32 %0, %0, t;\n\tselp.b32 t, 32, 0, q;\n\tor.b32 %0, %0, t;\n\t"
	    "setp.lt.f32 p|q, %1, %2;\n\t"
	    "selp.b32 t, 64, 0, p;\n\tor.b32 %0, %0, t;\n\tselp.b32 t, 128, 0, q;\n\tor.b32 %0, %0, t;\n\t}"
	    : "=r"(r) : "f"(x), "f"(y));
	o[8 * n] = r;
}

extern "C" __global__ void setp64(const unsigned long long *a, const unsigned long long *b, unsigned *out,
                                  unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i & ma]), y = __longlong_as_double(b[(i >> sb) & mb]);
	unsigned *o = out + i, r;
	float f;
	o[0 * n] = MASK(_64, x, y);
	asm("set.lt.f32.f64 %0, %1, %2;" : "=f"(f) : "d"(x), "d"(y));
	o[1 * n] = __float_as_uint(f);
	asm("set.geu.u32.f64 %0, %1, %2;" : "=r"(r) : "d"(x), "d"(y));
	o[2 * n] = r;
	asm("set.nan.s32.f64 %0, %1, %2;" : "=r"(r) : "d"(x), "d"(y));
	o[3 * n] = r;
	// p|q pairs: bits 0-1 ne.and(num), 2-3 le
	asm("{\n\t.reg .pred c, p, q;\n\t.reg .b32 t;\n\t"
	    "setp.num.f64 c, %1, %2;\n\tsetp.ne.and.f64 p|q, %1, %2, c;\n\t"
	    "selp.b32 %0, 1, 0, p;\n\tselp.b32 t, 2, 0, q;\n\tor.b32 %0, %0, t;\n\t"
	    "setp.le.f64 p|q, %1, %2;\n\t"
	    "selp.b32 t, 4, 0, p;\n\tor.b32 %0, %0, t;\n\tselp.b32 t, 8, 0, q;\n\tor.b32 %0, %0, t;\n\t}"
	    : "=r"(r) : "d"(x), "d"(y));
	o[4 * n] = r;
}
