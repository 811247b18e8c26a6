// f16 and f16x2 arithmetic from cuda_fp16.h on sm_75: add sub mul fma (plain,
// .rn, .sat, .ftz), neg abs, min/max (lowered to f32 min/max), setp/set
// comparisons (ordered, unordered, .ftz, f16x2 p|q). NaN results -> 0x7fff.
#include <cuda_fp16.h>

#define H2(name, op)                                                           \
	__device__ __forceinline__ unsigned short name(unsigned short a, unsigned short b) \
	{ unsigned short r; asm(op " %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); return r; }
H2(add_ftz, "add.ftz.f16") H2(mul_rn_ftz, "mul.rn.ftz.f16")
__device__ __forceinline__ unsigned short fma_rn_ftz(unsigned short a, unsigned short b, unsigned short c)
{
	unsigned short r;
	asm("fma.rn.ftz.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(c));
	return r;
}
__device__ __forceinline__ unsigned short neg_ftz(unsigned short a)
{
	unsigned short r;
	asm("neg.ftz.f16 %0, %1;" : "=h"(r) : "h"(a));
	return r;
}
__device__ __forceinline__ unsigned fma2_rn_ftz(unsigned a, unsigned b, unsigned c)
{
	unsigned r;
	asm("fma.rn.ftz.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
}
#define HCMP(name, op)                                                         \
	__device__ __forceinline__ unsigned name(unsigned short a, unsigned short b) \
	{                                                                          \
		unsigned r;                                                            \
		asm("{\n\t.reg .pred p;\n\tsetp." op ".f16 p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" \
		    : "=r"(r) : "h"(a), "h"(b));                                       \
		return r;                                                              \
	}
HCMP(lt_ftz, "lt.ftz") HCMP(eq_ftz, "eq.ftz") HCMP(neu_ftz, "neu.ftz") HCMP(geu_ftz, "geu.ftz")

__device__ __forceinline__ unsigned canon(__half h) { return __hisnan(h) ? 0x7fffu : __half_as_ushort(h); }
__device__ __forceinline__ unsigned canon(unsigned short h) { return canon(__ushort_as_half(h)); }
__device__ __forceinline__ unsigned canon2(__half2 h)
{
	return canon(__low2half(h)) | canon(__high2half(h)) << 16;
}
__device__ __forceinline__ __half2 mk2(__half lo, __half hi) { return __halves2half2(lo, hi); }
__device__ __forceinline__ unsigned bits2(__half2 h) { return *reinterpret_cast<unsigned *>(&h); }

// Operand k of thread i is taken from index (i >> shift_k) & mask_k. f16x2
// operations use the pairs p = (x, z), q = (y, x), r = (z, y) (low, high).
extern "C" __global__ void harith(const unsigned short *a, const unsigned short *b, const unsigned short *c,
                                  unsigned *out, unsigned n, unsigned ma, unsigned sb, unsigned mb,
                                  unsigned sc, unsigned mc)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned short xs = a[i & ma], ys = b[(i >> sb) & mb], zs = c[(i >> sc) & mc];
	__half x = __ushort_as_half(xs), y = __ushort_as_half(ys), z = __ushort_as_half(zs);
	unsigned *o = out + i;
	o[0 * n] = canon(__hadd(x, y));
	o[1 * n] = canon(__hsub(x, y));
	o[2 * n] = canon(__hmul(x, y));
	o[3 * n] = canon(__hfma(x, y, z));
	o[4 * n] = canon(__hadd_rn(x, y));
	o[5 * n] = canon(__hsub_rn(x, y));
	o[6 * n] = canon(__hmul_rn(x, y));
	o[7 * n] = __half_as_ushort(__hadd_sat(x, y)) & 0x7fffu;   // .sat: sign of zero ignored
	o[8 * n] = __half_as_ushort(__hfma_sat(x, y, z)) & 0x7fffu;
	o[9 * n] = canon(add_ftz(xs, ys));
	o[10 * n] = canon(mul_rn_ftz(xs, ys));
	o[11 * n] = canon(fma_rn_ftz(xs, ys, zs));
	o[12 * n] = canon(__hneg(x));
	o[13 * n] = canon(__habs(x));
	o[14 * n] = canon(neg_ftz(xs));
	o[15 * n] = canon(__hmin(x, y));
	o[16 * n] = canon(__hmax(x, y));
	o[17 * n] = __heq(x, y) | __hne(x, y) << 1 | __hlt(x, y) << 2 | __hle(x, y) << 3 |
	            __hgt(x, y) << 4 | __hge(x, y) << 5 | __hequ(x, y) << 6 | __hneu(x, y) << 7 |
	            __hltu(x, y) << 8 | __hleu(x, y) << 9 | __hgtu(x, y) << 10 | __hgeu(x, y) << 11 |
	            (__hisnan(x) ? 1u : 0u) << 12;
	o[18 * n] = lt_ftz(xs, ys) | eq_ftz(xs, ys) << 1 | neu_ftz(xs, ys) << 2 | geu_ftz(xs, ys) << 3;
	unsigned r;
	asm("set.le.u32.f16 %0, %1, %2;" : "=r"(r) : "h"(xs), "h"(ys));
	o[19 * n] = r;
	unsigned short hs;
	asm("set.ne.f16.f16 %0, %1, %2;" : "=h"(hs) : "h"(xs), "h"(ys));
	o[20 * n] = hs;
	__half2 p = mk2(x, z), q = mk2(y, x), s = mk2(z, y);
	o[21 * n] = canon2(__hadd2(p, q));
	o[22 * n] = canon2(__hsub2(p, q));
	o[23 * n] = canon2(__hmul2(p, q));
	o[24 * n] = canon2(__hfma2(p, q, s));
	o[25 * n] = bits2(__hadd2_sat(p, q)) & 0x7fff7fffu;
	o[26 * n] = canon2(__hmin2(p, q));
	o[27 * n] = bits2(__heq2(p, q));
	o[28 * n] = bits2(__hltu2(p, q));
	o[29 * n] = __hbgt2(p, q);
	o[30 * n] = __heq2_mask(p, q);
	o[31 * n] = canon2(__hneg2(p));
	o[32 * n] = canon2(__habs2(p));
	unsigned f = fma2_rn_ftz(bits2(p), bits2(q), bits2(s));
	o[33 * n] = canon(__ushort_as_half((unsigned short)f)) | canon(__ushort_as_half((unsigned short)(f >> 16))) << 16;
	asm("{\n\t.reg .pred p, q;\n\t.reg .b32 t;\n\tsetp.gtu.f16x2 p|q, %1, %2;\n\t"
	    "selp.b32 %0, 1, 0, p;\n\tselp.b32 t, 2, 0, q;\n\tor.b32 %0, %0, t;\n\t}"
	    : "=r"(r) : "r"(bits2(p)), "r"(bits2(q)));
	o[34 * n] = r;
}
