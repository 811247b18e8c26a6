// f16 conversions from cuda_fp16.h on sm_75: f32/f64 -> f16 in each rounding
// mode (.ftz, .sat), f16 -> f32/f64, f16 <-> s8..s64/u8..u64 with
// .rni .rzi .rmi .rpi / .rn .rz .rm .rp; overflow, subnormal and NaN cases.
#include <cuda_fp16.h>

#define CVT(name, op, RT, RC, ST, SC)                                          \
	__device__ __forceinline__ RT name(ST a)                                   \
	{ RT r; asm(op " %0, %1;" : "=" RC(r) : SC(a)); return r; }
CVT(f2h_rp_ftz, "cvt.rp.ftz.f16.f32", unsigned short, "h", float, "f")
CVT(f2h_rm_ftz, "cvt.rm.ftz.f16.f32", unsigned short, "h", float, "f")
CVT(f2h_rn_sat, "cvt.rn.sat.f16.f32", unsigned short, "h", float, "f")
CVT(d2h_rz, "cvt.rz.f16.f64", unsigned short, "h", double, "d")
CVT(d2h_rm, "cvt.rm.f16.f64", unsigned short, "h", double, "d")
CVT(d2h_rp, "cvt.rp.f16.f64", unsigned short, "h", double, "d")
CVT(s8_2h, "cvt.rn.f16.s8", unsigned short, "h", unsigned, "r")
CVT(u8_2h, "cvt.rm.f16.u8", unsigned short, "h", unsigned, "r")
CVT(h2d, "cvt.f64.f16", double, "d", unsigned short, "h")

__device__ __forceinline__ unsigned canon(__half h) { return __hisnan(h) ? 0x7fffu : __half_as_ushort(h); }
__device__ __forceinline__ unsigned canon(unsigned short h) { return canon(__ushort_as_half(h)); }

// f16 -> other types. Results go to o32/o64[k * stride + off + i].
extern "C" __global__ void from_half(const unsigned short *a, unsigned *o32, unsigned long long *o64,
                                     unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	__half x = __ushort_as_half(a[i]);
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	float f = __half2float(x);
	p[0 * s] = isnan(f) ? 0x7fffffffu : __float_as_uint(f);
	p[1 * s] = __half2int_rn(x);
	p[2 * s] = __half2int_rz(x);
	p[3 * s] = __half2int_rd(x);
	p[4 * s] = __half2int_ru(x);
	p[5 * s] = __half2uint_rn(x);
	p[6 * s] = __half2uint_rz(x);
	p[7 * s] = (int)__half2short_rn(x);
	p[8 * s] = (int)__half2short_rd(x);
	p[9 * s] = __half2ushort_ru(x);
	p[10 * s] = __half2ushort_rz(x);
	p[11 * s] = (int)__half2char_rz(x);
	p[12 * s] = __half2uchar_rz(x);
	double d = h2d(a[i]);
	q[0 * s] = isnan(d) ? 0x7fffffffffffffffull : __double_as_longlong(d);
	q[1 * s] = __half2ll_rn(x);
	q[2 * s] = __half2ll_ru(x);
	q[3 * s] = __half2ull_rz(x);
	q[4 * s] = __half2ull_rd(x);
}

// other types -> f16: f from fs[i] (f32 bits), v from vs[i] (64-bit int),
// d from ds[i] (f64 bits). Results (f16 bits) go to o32[k * stride + off + i].
extern "C" __global__ void to_half(const unsigned *fs, const unsigned long long *vs, const unsigned long long *ds,
                                   unsigned *o32, unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float f = __uint_as_float(fs[i]);
	unsigned long long v = vs[i];
	double d = __longlong_as_double(ds[i]);
	unsigned *p = o32 + off + i;
	unsigned s = stride;
	p[0 * s] = canon(__float2half_rn(f));
	p[1 * s] = canon(__float2half_rz(f));
	p[2 * s] = canon(__float2half_rd(f));
	p[3 * s] = canon(__float2half_ru(f));
	p[4 * s] = canon(f2h_rp_ftz(f));
	p[5 * s] = canon(f2h_rm_ftz(f));
	p[6 * s] = f2h_rn_sat(f) & 0x7fffu;   // .sat: sign of zero ignored
	p[7 * s] = canon(__double2half(d));
	p[8 * s] = canon(d2h_rz(d));
	p[9 * s] = canon(d2h_rm(d));
	p[10 * s] = canon(d2h_rp(d));
	p[11 * s] = canon(__int2half_rn((int)v));
	p[12 * s] = canon(__int2half_rz((int)v));
	p[13 * s] = canon(__int2half_rd((int)v));
	p[14 * s] = canon(__int2half_ru((int)v));
	p[15 * s] = canon(__uint2half_rn((unsigned)v));
	p[16 * s] = canon(__short2half_rz((short)v));
	p[17 * s] = canon(__ushort2half_rd((unsigned short)v));
	p[18 * s] = canon(__ll2half_ru((long long)v));
	p[19 * s] = canon(__ull2half_rn(v));
	p[20 * s] = canon(__ll2half_rz((long long)v));
	p[21 * s] = canon(s8_2h((unsigned)v));
	p[22 * s] = canon(u8_2h((unsigned)v));
	__half2 h2 = __floats2half2_rn(f, __uint_as_float((unsigned)v));
	p[23 * s] = canon(__low2half(h2)) | canon(__high2half(h2)) << 16;
	h2 = __float2half2_rn(f);
	p[24 * s] = canon(__low2half(h2)) | canon(__high2half(h2)) << 16;
}
