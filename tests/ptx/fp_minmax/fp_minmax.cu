// abs neg min max (f32 with and without .ftz, f64), copysign, and testp
// .finite .infinite .number .notanumber .normal .subnormal (f32, f64) on
// signed zeros, subnormals, infinities and NaNs. NaN results are canonicalised.
#define OP1(name, op)                                                      \
	__device__ __forceinline__ float name(float a)                         \
	{ float r; asm(op " %0, %1;" : "=f"(r) : "f"(a)); return r; }
#define OP2(name, op)                                                      \
	__device__ __forceinline__ float name(float a, float b)                \
	{ float r; asm(op " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
OP1(abs_ftz, "abs.ftz.f32") OP1(neg_ftz, "neg.ftz.f32")
OP2(min_ftz, "min.ftz.f32") OP2(max_ftz, "max.ftz.f32")

// testp results packed as bits 0..5: finite infinite number notanumber normal subnormal
#define TESTP(T, TY, C)                                                          \
	__device__ __forceinline__ unsigned testp_all(T v)                         \
	{                                                                          \
		unsigned m;                                                            \
		asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"                           \
		    "testp.finite." TY " p, %1;\n\tselp.b32 %0, 1, 0, p;\n\t"             \
		    "testp.infinite." TY " p, %1;\n\tselp.b32 t, 2, 0, p;\n\tor.b32 %0, %0, t;\n\t" \
		    "testp.number." TY " p, %1;\n\tselp.b32 t, 4, 0, p;\n\tor.b32 %0, %0, t;\n\t" \
		    "testp.notanumber." TY " p, %1;\n\tselp.b32 t, 8, 0, p;\n\tor.b32 %0, %0, t;\n\t" \
		    "testp.normal." TY " p, %1;\n\tselp.b32 t, 16, 0, p;\n\tor.b32 %0, %0, t;\n\t" \
		    "testp.subnormal." TY " p, %1;\n\tselp.b32 t, 32, 0, p;\n\tor.b32 %0, %0, t;\n\t}" \
		    : "=r"(m) : C(v));                                                 \
		return m;                                                              \
	}
TESTP(float, "f32", "f")
TESTP(double, "f64", "d")

__device__ __forceinline__ unsigned canon(float v) { return isnan(v) ? 0x7fffffffu : __float_as_uint(v); }
__device__ __forceinline__ unsigned long long canon(double v)
{
	return isnan(v) ? 0x7fffffffffffffffull : __double_as_longlong(v);
}

// x comes from a[i & ma], y from b[(i >> sb) & mb].
extern "C" __global__ void minmax32(const unsigned *a, const unsigned *b, unsigned *out,
                                    unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i & ma]), y = __uint_as_float(b[(i >> sb) & mb]);
	unsigned *o = out + i;
	o[0 * n] = canon(fabsf(x));
	o[1 * n] = canon(abs_ftz(x));
	o[2 * n] = canon(-x);
	o[3 * n] = canon(neg_ftz(x));
	o[4 * n] = canon(fminf(x, y));
	o[5 * n] = canon(min_ftz(x, y));
	o[6 * n] = canon(fmaxf(x, y));
	o[7 * n] = canon(max_ftz(x, y));
	o[8 * n] = canon(copysignf(x, y));
	o[9 * n] = testp_all(x);
}

extern "C" __global__ void minmax64(const unsigned long long *a, const unsigned long long *b,
                                    unsigned long long *out, unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i & ma]), y = __longlong_as_double(b[(i >> sb) & mb]);
	unsigned long long *o = out + i;
	o[0 * n] = canon(fabs(x));
	o[1 * n] = canon(-x);
	o[2 * n] = canon(fmin(x, y));
	o[3 * n] = canon(fmax(x, y));
	o[4 * n] = canon(copysign(x, y));
	o[5 * n] = testp_all(x);
}
