// cvt integer -> float: s8 s16 s32 s64 u8 u16 u32 u64 to f32 and f64 with
// .rn .rz .rm .rp (ties, inexact 32/64-bit values), .sat to float, sources
// narrower than their 16/32-bit register (only the low bits count).
#define CVT(name, op, RT, RC, ST, SC)                                          \
	__device__ __forceinline__ RT name(ST a)                                   \
	{ RT r; asm(op " %0, %1;" : "=" RC(r) : SC(a)); return r; }
CVT(f_s8_rn, "cvt.rn.f32.s8", float, "f", unsigned, "r")
CVT(f_s8_rm, "cvt.rm.f32.s8", float, "f", unsigned, "r")
CVT(f_u8_rz, "cvt.rz.f32.u8", float, "f", unsigned, "r")
CVT(f_u8_rp, "cvt.rp.f32.u8", float, "f", unsigned, "r")
CVT(f_s16_rn, "cvt.rn.f32.s16", float, "f", unsigned, "r")
CVT(f_s16_rp, "cvt.rp.f32.s16", float, "f", unsigned, "r")
CVT(f_u16_rm, "cvt.rm.f32.u16", float, "f", unsigned, "r")
CVT(f_u16_rz, "cvt.rz.f32.u16", float, "f", unsigned, "r")
CVT(f_s32_sat, "cvt.rn.sat.f32.s32", float, "f", unsigned, "r")
CVT(f_u64_sat, "cvt.rz.sat.f32.u64", float, "f", unsigned long long, "l")
CVT(f_s16_h, "cvt.rn.f32.s16", float, "f", unsigned short, "h")
CVT(f_u8_h, "cvt.rp.f32.u8", float, "f", unsigned short, "h")
CVT(d_s8_rn, "cvt.rn.f64.s8", double, "d", unsigned, "r")
CVT(d_u16_rz, "cvt.rz.f64.u16", double, "d", unsigned, "r")
CVT(d_s32_rm, "cvt.rm.f64.s32", double, "d", unsigned, "r")
CVT(d_s64_sat, "cvt.rn.sat.f64.s64", double, "d", unsigned long long, "l")

// Results go to o32[k * stride + off + i] (f32 bits) and o64[...] (f64 bits).
extern "C" __global__ void i2f(const unsigned long long *a, unsigned *o32, unsigned long long *o64,
                               unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long v = a[i];
	unsigned w = (unsigned)v;
	unsigned short h = (unsigned short)v;
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	p[0 * s] = __float_as_uint(f_s8_rn(w));
	p[1 * s] = __float_as_uint(f_s8_rm(w));
	p[2 * s] = __float_as_uint(f_u8_rz(w));
	p[3 * s] = __float_as_uint(f_u8_rp(w));
	p[4 * s] = __float_as_uint(f_s16_rn(w));
	p[5 * s] = __float_as_uint(f_s16_rp(w));
	p[6 * s] = __float_as_uint(f_u16_rm(w));
	p[7 * s] = __float_as_uint(f_u16_rz(w));
	p[8 * s] = __float_as_uint(__int2float_rn((int)w));
	p[9 * s] = __float_as_uint(__int2float_rz((int)w));
	p[10 * s] = __float_as_uint(__int2float_rd((int)w));
	p[11 * s] = __float_as_uint(__int2float_ru((int)w));
	p[12 * s] = __float_as_uint(__uint2float_rn(w));
	p[13 * s] = __float_as_uint(__uint2float_rz(w));
	p[14 * s] = __float_as_uint(__uint2float_rd(w));
	p[15 * s] = __float_as_uint(__uint2float_ru(w));
	p[16 * s] = __float_as_uint(__ll2float_rn((long long)v));
	p[17 * s] = __float_as_uint(__ll2float_rz((long long)v));
	p[18 * s] = __float_as_uint(__ll2float_rd((long long)v));
	p[19 * s] = __float_as_uint(__ll2float_ru((long long)v));
	p[20 * s] = __float_as_uint(__ull2float_rn(v));
	p[21 * s] = __float_as_uint(__ull2float_rz(v));
	p[22 * s] = __float_as_uint(__ull2float_rd(v));
	p[23 * s] = __float_as_uint(__ull2float_ru(v));
	p[24 * s] = __float_as_uint(f_s32_sat(w)) & 0x7fffffffu;   // .sat: sign of zero ignored
	p[25 * s] = __float_as_uint(f_u64_sat(v));
	p[26 * s] = __float_as_uint(f_s16_h(h));
	p[27 * s] = __float_as_uint(f_u8_h(h));
	q[0 * s] = __double_as_longlong(d_s8_rn(w));
	q[1 * s] = __double_as_longlong(d_u16_rz(w));
	q[2 * s] = __double_as_longlong(__int2double_rn((int)w));
	q[3 * s] = __double_as_longlong(__uint2double_rn(w));
	q[4 * s] = __double_as_longlong(d_s32_rm(w));
	q[5 * s] = __double_as_longlong(__ll2double_rn((long long)v));
	q[6 * s] = __double_as_longlong(__ll2double_rz((long long)v));
	q[7 * s] = __double_as_longlong(__ll2double_rd((long long)v));
	q[8 * s] = __double_as_longlong(__ll2double_ru((long long)v));
	q[9 * s] = __double_as_longlong(__ull2double_rn(v));
	q[10 * s] = __double_as_longlong(__ull2double_rz(v));
	q[11 * s] = __double_as_longlong(__ull2double_rd(v));
	q[12 * s] = __double_as_longlong(__ull2double_ru(v));
	q[13 * s] = __double_as_longlong(d_s64_sat(v)) & 0x7fffffffffffffffull;
}
