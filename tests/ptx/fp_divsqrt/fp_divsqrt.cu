// IEEE div, sqrt and rcp in every rounding mode: f32 (also with .ftz) and f64,
// on adversarial pairs (subnormal ties, overflow, zeros, infinities, NaN) and
// random inputs. NaN results are stored as all-ones-payload NaNs.
#define OP1(name, op)                                                      \
	__device__ __forceinline__ float name(float a)                         \
	{ float r; asm(op " %0, %1;" : "=f"(r) : "f"(a)); return r; }
#define OP2(name, op)                                                      \
	__device__ __forceinline__ float name(float a, float b)                \
	{ float r; asm(op " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
OP2(div_rn_ftz, "div.rn.ftz.f32") OP2(div_rz_ftz, "div.rz.ftz.f32")
OP2(div_rm_ftz, "div.rm.ftz.f32") OP2(div_rp_ftz, "div.rp.ftz.f32")
OP1(sqrt_rn_ftz, "sqrt.rn.ftz.f32") OP1(sqrt_rz_ftz, "sqrt.rz.ftz.f32")
OP1(sqrt_rm_ftz, "sqrt.rm.ftz.f32") OP1(sqrt_rp_ftz, "sqrt.rp.ftz.f32")
OP1(rcp_rn_ftz, "rcp.rn.ftz.f32") OP1(rcp_rz_ftz, "rcp.rz.ftz.f32")
OP1(rcp_rm_ftz, "rcp.rm.ftz.f32") OP1(rcp_rp_ftz, "rcp.rp.ftz.f32")

__device__ __forceinline__ unsigned canon(float v) { return isnan(v) ? 0x7fffffffu : __float_as_uint(v); }
__device__ __forceinline__ unsigned long long canon(double v)
{
	return isnan(v) ? 0x7fffffffffffffffull : __double_as_longlong(v);
}

// x comes from a[i & ma], y from b[(i >> sb) & mb]; sqrt and rcp use x.
extern "C" __global__ void div32(const unsigned *a, const unsigned *b, unsigned *out,
                                 unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i & ma]), y = __uint_as_float(b[(i >> sb) & mb]);
	unsigned *o = out + i;
	o[0 * n] = canon(x / y);
	o[1 * n] = canon(__fdiv_rz(x, y));
	o[2 * n] = canon(__fdiv_rd(x, y));
	o[3 * n] = canon(__fdiv_ru(x, y));
	o[4 * n] = canon(div_rn_ftz(x, y));
	o[5 * n] = canon(div_rz_ftz(x, y));
	o[6 * n] = canon(div_rm_ftz(x, y));
	o[7 * n] = canon(div_rp_ftz(x, y));
	o[8 * n] = canon(sqrtf(x));
	o[9 * n] = canon(__fsqrt_rz(x));
	o[10 * n] = canon(__fsqrt_rd(x));
	o[11 * n] = canon(__fsqrt_ru(x));
	o[12 * n] = canon(sqrt_rn_ftz(x));
	o[13 * n] = canon(sqrt_rz_ftz(x));
	o[14 * n] = canon(sqrt_rm_ftz(x));
	o[15 * n] = canon(sqrt_rp_ftz(x));
	o[16 * n] = canon(__frcp_rn(x));
	o[17 * n] = canon(__frcp_rz(x));
	o[18 * n] = canon(__frcp_rd(x));
	o[19 * n] = canon(__frcp_ru(x));
	o[20 * n] = canon(rcp_rn_ftz(x));
	o[21 * n] = canon(rcp_rz_ftz(x));
	o[22 * n] = canon(rcp_rm_ftz(x));
	o[23 * n] = canon(rcp_rp_ftz(x));
}

extern "C" __global__ void div64(const unsigned long long *a, const unsigned long long *b,
                                 unsigned long long *out, unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i & ma]), y = __longlong_as_double(b[(i >> sb) & mb]);
	unsigned long long *o = out + i;
	o[0 * n] = canon(x / y);
	o[1 * n] = canon(__ddiv_rz(x, y));
	o[2 * n] = canon(__ddiv_rd(x, y));
	o[3 * n] = canon(__ddiv_ru(x, y));
	o[4 * n] = canon(sqrt(x));
	o[5 * n] = canon(__dsqrt_rz(x));
	o[6 * n] = canon(__dsqrt_rd(x));
	o[7 * n] = canon(__dsqrt_ru(x));
	o[8 * n] = canon(__drcp_rn(x));
	o[9 * n] = canon(__drcp_rz(x));
	o[10 * n] = canon(__drcp_rd(x));
	o[11 * n] = canon(__drcp_ru(x));
}
