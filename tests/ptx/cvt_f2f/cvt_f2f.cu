// cvt float -> float: f64 -> f32 with .rn .rz .rm .rp (.ftz, .sat), f32 -> f64
// (.ftz), round to integral cvt.rni/.rzi/.rmi/.rpi .f32.f32 (.ftz) and
// .f64.f64, and cvt.sat to [0, 1]. NaN results are canonicalised.
#define CVT(name, op, RT, RC, ST, SC)                                          \
	__device__ __forceinline__ RT name(ST a)                                   \
	{ RT r; asm(op " %0, %1;" : "=" RC(r) : SC(a)); return r; }
CVT(d2f_rn_ftz, "cvt.rn.ftz.f32.f64", float, "f", double, "d")
CVT(d2f_rz_ftz, "cvt.rz.ftz.f32.f64", float, "f", double, "d")
CVT(d2f_rn_sat, "cvt.rn.sat.f32.f64", float, "f", double, "d")
CVT(d_sat, "cvt.sat.f64.f64", double, "d", double, "d")
CVT(f2d_ftz, "cvt.ftz.f64.f32", double, "d", float, "f")
CVT(rni_ftz, "cvt.rni.ftz.f32.f32", float, "f", float, "f")
CVT(rzi_ftz, "cvt.rzi.ftz.f32.f32", float, "f", float, "f")
CVT(rmi_ftz, "cvt.rmi.ftz.f32.f32", float, "f", float, "f")
CVT(rpi_ftz, "cvt.rpi.ftz.f32.f32", float, "f", float, "f")
CVT(f_sat_ftz, "cvt.ftz.sat.f32.f32", float, "f", float, "f")
CVT(rni_sat, "cvt.rni.sat.f32.f32", float, "f", float, "f")

__device__ __forceinline__ unsigned canon(float v) { return isnan(v) ? 0x7fffffffu : __float_as_uint(v); }
__device__ __forceinline__ unsigned long long canon(double v)
{
	return isnan(v) ? 0x7fffffffffffffffull : __double_as_longlong(v);
}
// .sat results: the sign bit is cleared, so -0 and +0 compare equal
__device__ __forceinline__ unsigned sat(float v) { return __float_as_uint(v) & 0x7fffffffu; }
__device__ __forceinline__ unsigned long long sat(double v) { return __double_as_longlong(v) & 0x7fffffffffffffffull; }

// Results go to o32[k * stride + off + i] and o64[k * stride + off + i].
extern "C" __global__ void from_f64(const unsigned long long *a, unsigned *o32, unsigned long long *o64,
                                    unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i]);
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	p[0 * s] = canon(__double2float_rn(x));
	p[1 * s] = canon(__double2float_rz(x));
	p[2 * s] = canon(__double2float_rd(x));
	p[3 * s] = canon(__double2float_ru(x));
	p[4 * s] = canon(d2f_rn_ftz(x));
	p[5 * s] = canon(d2f_rz_ftz(x));
	p[6 * s] = sat(d2f_rn_sat(x));
	q[0 * s] = canon(rint(x));
	q[1 * s] = canon(trunc(x));
	q[2 * s] = canon(floor(x));
	q[3 * s] = canon(ceil(x));
	q[4 * s] = sat(d_sat(x));
}

extern "C" __global__ void from_f32(const unsigned *a, unsigned *o32, unsigned long long *o64,
                                    unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i]);
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	q[0 * s] = canon((double)x);
	q[1 * s] = canon(f2d_ftz(x));
	p[0 * s] = canon(rintf(x));
	p[1 * s] = canon(truncf(x));
	p[2 * s] = canon(floorf(x));
	p[3 * s] = canon(ceilf(x));
	p[4 * s] = canon(rni_ftz(x));
	p[5 * s] = canon(rzi_ftz(x));
	p[6 * s] = canon(rmi_ftz(x));
	p[7 * s] = canon(rpi_ftz(x));
	p[8 * s] = sat(__saturatef(x));
	p[9 * s] = sat(f_sat_ftz(x));
	p[10 * s] = sat(rni_sat(x));
}
