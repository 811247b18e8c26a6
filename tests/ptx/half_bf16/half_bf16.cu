// bf16 from cuda_bf16.h on sm_75, where nvcc has no bf16 instructions: the
// header lowers conversions to integer rounding code and arithmetic to f32
// fma.rn + software round-to-nearest-even (ties, overflow, NaN -> 0x7fff).
#include <cuda_bf16.h>

__device__ __forceinline__ unsigned canon(__nv_bfloat16 h)
{
	return __hisnan(h) ? 0x7fffu : __bfloat16_as_ushort(h);
}
__device__ __forceinline__ unsigned canon2(__nv_bfloat162 h)
{
	return canon(__low2bfloat16(h)) | canon(__high2bfloat16(h)) << 16;
}

// x from a[i & ma], y from b[(i >> sb) & mb]; bf16x2 ops use (x, y) and (y, x).
extern "C" __global__ void bfarith(const unsigned short *a, const unsigned short *b, unsigned *out,
                                   unsigned n, unsigned ma, unsigned sb, unsigned mb)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	__nv_bfloat16 x = __ushort_as_bfloat16(a[i & ma]), y = __ushort_as_bfloat16(b[(i >> sb) & mb]);
	unsigned *o = out + i;
	o[0 * n] = canon(__hadd(x, y));
	o[1 * n] = canon(__hsub(x, y));
	o[2 * n] = canon(__hmul(x, y));
	o[3 * n] = canon(__hneg(x));
	o[4 * n] = canon(__habs(x));
	o[5 * n] = canon(__hmin(x, y));
	o[6 * n] = canon(__hmax(x, y));
	o[7 * n] = __heq(x, y) | __hne(x, y) << 1 | __hlt(x, y) << 2 | __hle(x, y) << 3 |
	           __hgt(x, y) << 4 | __hge(x, y) << 5 | __hequ(x, y) << 6 | __hneu(x, y) << 7 |
	           __hltu(x, y) << 8 | __hleu(x, y) << 9 | __hgtu(x, y) << 10 | __hgeu(x, y) << 11 |
	           (__hisnan(x) ? 1u : 0u) << 12;
	float f = __bfloat162float(x);
	o[8 * n] = isnan(f) ? 0x7fffffffu : __float_as_uint(f);
	__nv_bfloat162 p = __halves2bfloat162(x, y), q = __halves2bfloat162(y, x);
	o[9 * n] = canon2(__hadd2(p, q));
	o[10 * n] = canon2(__hmul2(p, q));
	o[11 * n] = canon2(__hsub2(p, q));
	o[12 * n] = __bfloat162int_rn(x);
}

// conversions to bf16: f from fs[i] (f32 bits), d from ds[i] (f64 bits), v from vs[i].
extern "C" __global__ void bfcvt(const unsigned *fs, const unsigned long long *ds, const unsigned long long *vs,
                                 unsigned *out, unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float f = __uint_as_float(fs[i]);
	double d = __longlong_as_double(ds[i]);
	unsigned long long v = vs[i];
	unsigned *o = out + off + i, s = stride;
	o[0 * s] = canon(__float2bfloat16(f));
	o[1 * s] = canon(__float2bfloat16_rz(f));
	o[2 * s] = canon(__float2bfloat16_rd(f));
	o[3 * s] = canon(__float2bfloat16_ru(f));
	o[4 * s] = canon(__double2bfloat16(d));
	o[5 * s] = canon(__int2bfloat16_rn((int)v));
	o[6 * s] = canon(__int2bfloat16_rz((int)v));
	o[7 * s] = canon(__ll2bfloat16_rd((long long)v));
	o[8 * s] = canon(__ull2bfloat16_rn(v));
	o[9 * s] = canon2(__floats2bfloat162_rn(f, __uint_as_float((unsigned)v)));
}
