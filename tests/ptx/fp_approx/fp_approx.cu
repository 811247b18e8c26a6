// Approximate f32 ops sin cos lg2 ex2 rsqrt rcp sqrt (.approx, with .ftz),
// div.approx and div.full (with .ftz), __expf, and f64 rsqrt.approx{.ftz} /
// rcp.approx.ftz. Results are quantised so that they also hold on a GPU.
#define OP1(name, op)                                                      \
	__device__ __forceinline__ float name(float a)                         \
	{ float r; asm(op " %0, %1;" : "=f"(r) : "f"(a)); return r; }
#define OP2(name, op)                                                      \
	__device__ __forceinline__ float name(float a, float b)                \
	{ float r; asm(op " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
#define OPD(name, op)                                                      \
	__device__ __forceinline__ double name(double a)                       \
	{ double r; asm(op " %0, %1;" : "=d"(r) : "d"(a)); return r; }
OP1(sin_ftz, "sin.approx.ftz.f32") OP1(cos_ftz, "cos.approx.ftz.f32") OP1(lg2_ftz, "lg2.approx.ftz.f32")
OP1(ex2, "ex2.approx.f32") OP1(ex2_ftz, "ex2.approx.ftz.f32") OP1(rsqrt_ftz, "rsqrt.approx.ftz.f32")
OP1(rcp, "rcp.approx.f32") OP1(rcp_ftz, "rcp.approx.ftz.f32")
OP1(sqrt_apx, "sqrt.approx.f32") OP1(sqrt_apx_ftz, "sqrt.approx.ftz.f32")
OP2(div_apx_ftz, "div.approx.ftz.f32") OP2(div_full, "div.full.f32") OP2(div_full_ftz, "div.full.ftz.f32")
OPD(rsqrt64, "rsqrt.approx.f64") OPD(rsqrt64_ftz, "rsqrt.approx.ftz.f64") OPD(rcp64_ftz, "rcp.approx.ftz.f64")

// Absolute quantisation: round(v * scale) as s32; NaN -> 0x7fffffff.
__device__ __forceinline__ unsigned qabs(float v, float scale)
{
	return isnan(v) ? 0x7fffffffu : (unsigned)__float2int_rn(v * scale);
}
// Relative quantisation: the bit pattern rounded at bit 12 (11 fraction bits
// kept); NaN -> 0x7fffffff.
__device__ __forceinline__ unsigned qrel(float v)
{
	return isnan(v) ? 0x7fffffffu : (__float_as_uint(v) + 0x800u) & 0xfffff000u;
}
// f64: the high word rounded at bit 12 (8 fraction bits kept).
__device__ __forceinline__ unsigned qrel64(double v)
{
	return isnan(v) ? 0x7fffffffu : ((unsigned)__double2hiint(v) + 0x800u) & 0xfffff000u;
}

// Op k reads its own inputs x[k*n + i] (and y[(k-15)*n + i] for divisions).
extern "C" __global__ void approx32(const unsigned *xs, const unsigned *ys, unsigned *out, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned *x = xs + i, *y = ys + i;
	unsigned *o = out + i;
#define X(k) __uint_as_float(x[(k) * n])
#define Y(k) __uint_as_float(y[(k) * n])
	o[0 * n] = qabs(__sinf(X(0)), 4096.0f);
	o[1 * n] = qabs(sin_ftz(X(1)), 4096.0f);
	o[2 * n] = qabs(__cosf(X(2)), 4096.0f);
	o[3 * n] = qabs(cos_ftz(X(3)), 4096.0f);
	o[4 * n] = qabs(__log2f(X(4)), 256.0f);
	o[5 * n] = qabs(lg2_ftz(X(5)), 256.0f);
	o[6 * n] = qrel(ex2(X(6)));
	o[7 * n] = qrel(ex2_ftz(X(7)));
	o[8 * n] = qrel(rsqrtf(X(8)));
	o[9 * n] = qrel(rsqrt_ftz(X(9)));
	o[10 * n] = qrel(rcp(X(10)));
	o[11 * n] = qrel(rcp_ftz(X(11)));
	o[12 * n] = qrel(sqrt_apx(X(12)));
	o[13 * n] = qrel(sqrt_apx_ftz(X(13)));
	o[14 * n] = qrel(__expf(X(14)));
	o[15 * n] = qrel(__fdividef(X(15), Y(0)));
	o[16 * n] = qrel(div_apx_ftz(X(16), Y(1)));
	o[17 * n] = qrel(div_full(X(17), Y(2)));
	o[18 * n] = qrel(div_full_ftz(X(18), Y(3)));
}

extern "C" __global__ void approx64(const unsigned long long *xs, unsigned *out, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	out[0 * n + i] = qrel64(rsqrt64(__longlong_as_double(xs[0 * n + i])));
	out[1 * n + i] = qrel64(rsqrt64_ftz(__longlong_as_double(xs[1 * n + i])));
	out[2 * n + i] = qrel64(rcp64_ftz(__longlong_as_double(xs[2 * n + i])));
}
