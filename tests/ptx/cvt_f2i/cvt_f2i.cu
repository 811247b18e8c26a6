// cvt float -> integer: f32 and f64 to s8 s16 s32 s64 u8 u16 u32 u64 with
// .rni .rzi .rmi .rpi, .ftz (f32), redundant .sat, destinations in 16-, 32-
// and 64-bit registers (sign/zero extension); out-of-range, inf and NaN inputs.
#define CVT(name, op, RT, RC, ST, SC)                                          \
	__device__ __forceinline__ RT name(ST a)                                   \
	{ RT r; asm(op " %0, %1;" : "=" RC(r) : SC(a)); return r; }
#define F4(name, dt, st, RT, RC, ST, SC)                                       \
	CVT(name##_rni, "cvt.rni." dt "." st, RT, RC, ST, SC)                      \
	CVT(name##_rzi, "cvt.rzi." dt "." st, RT, RC, ST, SC)                      \
	CVT(name##_rmi, "cvt.rmi." dt "." st, RT, RC, ST, SC)                      \
	CVT(name##_rpi, "cvt.rpi." dt "." st, RT, RC, ST, SC)
F4(s8_f, "s8", "f32", unsigned, "r", float, "f") F4(s16_f, "s16", "f32", unsigned, "r", float, "f")
F4(u8_f, "u8", "f32", unsigned, "r", float, "f") F4(u16_f, "u16", "f32", unsigned, "r", float, "f")
F4(s8_d, "s8", "f64", unsigned, "r", double, "d") F4(s16_d, "s16", "f64", unsigned, "r", double, "d")
F4(u8_d, "u8", "f64", unsigned, "r", double, "d") F4(u16_d, "u16", "f64", unsigned, "r", double, "d")
CVT(rni_ftz_s32, "cvt.rni.ftz.s32.f32", unsigned, "r", float, "f")
CVT(rzi_ftz_s32, "cvt.rzi.ftz.s32.f32", unsigned, "r", float, "f")
CVT(rmi_ftz_s32, "cvt.rmi.ftz.s32.f32", unsigned, "r", float, "f")
CVT(rpi_ftz_s32, "cvt.rpi.ftz.s32.f32", unsigned, "r", float, "f")
CVT(rpi_ftz_u32, "cvt.rpi.ftz.u32.f32", unsigned, "r", float, "f")
CVT(rmi_ftz_s8, "cvt.rmi.ftz.s8.f32", unsigned, "r", float, "f")
CVT(rpi_ftz_u16, "cvt.rpi.ftz.u16.f32", unsigned, "r", float, "f")
CVT(rzi_sat_s32_f, "cvt.rzi.sat.s32.f32", unsigned, "r", float, "f")
CVT(rni_sat_u8_f, "cvt.rni.sat.u8.f32", unsigned, "r", float, "f")
CVT(rmi_s8_h, "cvt.rmi.s8.f32", unsigned short, "h", float, "f")
CVT(rpi_u16_h, "cvt.rpi.u16.f32", unsigned short, "h", float, "f")
CVT(rpi_ftz_s64, "cvt.rpi.ftz.s64.f32", unsigned long long, "l", float, "f")
CVT(rmi_ftz_u64, "cvt.rmi.ftz.u64.f32", unsigned long long, "l", float, "f")
CVT(rmi_s16_l, "cvt.rmi.s16.f32", unsigned long long, "l", float, "f")
CVT(rpi_u32_l, "cvt.rpi.u32.f32", unsigned long long, "l", float, "f")
CVT(rzi_sat_s32_d, "cvt.rzi.sat.s32.f64", unsigned, "r", double, "d")
CVT(rni_s16_dh, "cvt.rni.s16.f64", unsigned short, "h", double, "d")
CVT(rmi_s32_dl, "cvt.rmi.s32.f64", unsigned long long, "l", double, "d")

// Results go to o32[k * stride + off + i] and o64[k * stride + off + i].
extern "C" __global__ void f2i_f32(const unsigned *a, unsigned *o32, unsigned long long *o64,
                                   unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i]);
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	p[0 * s] = s8_f_rni(x); p[1 * s] = s8_f_rzi(x); p[2 * s] = s8_f_rmi(x); p[3 * s] = s8_f_rpi(x);
	p[4 * s] = s16_f_rni(x); p[5 * s] = s16_f_rzi(x); p[6 * s] = s16_f_rmi(x); p[7 * s] = s16_f_rpi(x);
	p[8 * s] = __float2int_rn(x); p[9 * s] = __float2int_rz(x);
	p[10 * s] = __float2int_rd(x); p[11 * s] = __float2int_ru(x);
	p[12 * s] = u8_f_rni(x); p[13 * s] = u8_f_rzi(x); p[14 * s] = u8_f_rmi(x); p[15 * s] = u8_f_rpi(x);
	p[16 * s] = u16_f_rni(x); p[17 * s] = u16_f_rzi(x); p[18 * s] = u16_f_rmi(x); p[19 * s] = u16_f_rpi(x);
	p[20 * s] = __float2uint_rn(x); p[21 * s] = __float2uint_rz(x);
	p[22 * s] = __float2uint_rd(x); p[23 * s] = __float2uint_ru(x);
	p[24 * s] = rni_ftz_s32(x); p[25 * s] = rzi_ftz_s32(x); p[26 * s] = rmi_ftz_s32(x);
	p[27 * s] = rpi_ftz_s32(x); p[28 * s] = rpi_ftz_u32(x); p[29 * s] = rmi_ftz_s8(x);
	p[30 * s] = rpi_ftz_u16(x); p[31 * s] = rzi_sat_s32_f(x); p[32 * s] = rni_sat_u8_f(x);
	p[33 * s] = rmi_s8_h(x); p[34 * s] = rpi_u16_h(x);
	q[0 * s] = __float2ll_rn(x); q[1 * s] = __float2ll_rz(x);
	q[2 * s] = __float2ll_rd(x); q[3 * s] = __float2ll_ru(x);
	q[4 * s] = __float2ull_rn(x); q[5 * s] = __float2ull_rz(x);
	q[6 * s] = __float2ull_rd(x); q[7 * s] = __float2ull_ru(x);
	q[8 * s] = rpi_ftz_s64(x); q[9 * s] = rmi_ftz_u64(x);
	q[10 * s] = rmi_s16_l(x); q[11 * s] = rpi_u32_l(x);
}

extern "C" __global__ void f2i_f64(const unsigned long long *a, unsigned *o32, unsigned long long *o64,
                                   unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i]);
	unsigned *p = o32 + off + i;
	unsigned long long *q = o64 + off + i;
	unsigned s = stride;
	p[0 * s] = s8_d_rni(x); p[1 * s] = s8_d_rzi(x); p[2 * s] = s8_d_rmi(x); p[3 * s] = s8_d_rpi(x);
	p[4 * s] = s16_d_rni(x); p[5 * s] = s16_d_rzi(x); p[6 * s] = s16_d_rmi(x); p[7 * s] = s16_d_rpi(x);
	p[8 * s] = __double2int_rn(x); p[9 * s] = __double2int_rz(x);
	p[10 * s] = __double2int_rd(x); p[11 * s] = __double2int_ru(x);
	p[12 * s] = u8_d_rni(x); p[13 * s] = u8_d_rzi(x); p[14 * s] = u8_d_rmi(x); p[15 * s] = u8_d_rpi(x);
	p[16 * s] = u16_d_rni(x); p[17 * s] = u16_d_rzi(x); p[18 * s] = u16_d_rmi(x); p[19 * s] = u16_d_rpi(x);
	p[20 * s] = __double2uint_rn(x); p[21 * s] = __double2uint_rz(x);
	p[22 * s] = __double2uint_rd(x); p[23 * s] = __double2uint_ru(x);
	p[24 * s] = rzi_sat_s32_d(x); p[25 * s] = rni_s16_dh(x);
	q[0 * s] = __double2ll_rn(x); q[1 * s] = __double2ll_rz(x);
	q[2 * s] = __double2ll_rd(x); q[3 * s] = __double2ll_ru(x);
	q[4 * s] = __double2ull_rn(x); q[5 * s] = __double2ull_rz(x);
	q[6 * s] = __double2ull_rd(x); q[7 * s] = __double2ull_ru(x);
	q[8 * s] = rmi_s32_dl(x);
}
