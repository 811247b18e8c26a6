// f64 add/sub/mul/fma/mad in every rounding mode (.rn .rz .rm .rp and none)
// on adversarial pairs (halfway, overflow, subnormal) and random inputs.
// Operands arrive as 64-bit patterns; NaN results are stored as 0x7fff...ff.
#define MAD(name, op)                                                      \
	__device__ __forceinline__ double name(double a, double b, double c)   \
	{ double r; asm(op " %0, %1, %2, %3;" : "=d"(r) : "d"(a), "d"(b), "d"(c)); return r; }
MAD(mad_rn, "mad.rn.f64") MAD(mad_rz, "mad.rz.f64") MAD(mad_rm, "mad.rm.f64") MAD(mad_rp, "mad.rp.f64")

__device__ __forceinline__ unsigned long long canon(double v)
{
	return isnan(v) ? 0x7fffffffffffffffull : __double_as_longlong(v);
}

// Operand k of thread i is taken from index (i >> shift_k) & mask_k.
extern "C" __global__ void arith64(const unsigned long long *a, const unsigned long long *b,
                                   const unsigned long long *c, unsigned long long *out,
                                   unsigned n, unsigned ma, unsigned sb, unsigned mb, unsigned sc, unsigned mc)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = __longlong_as_double(a[i & ma]);
	double y = __longlong_as_double(b[(i >> sb) & mb]);
	double z = __longlong_as_double(c[(i >> sc) & mc]);
	unsigned long long *o = out + i;
	o[0 * n] = canon(x + y);
	o[1 * n] = canon(__dadd_rn(x, y));
	o[2 * n] = canon(__dadd_rz(x, y));
	o[3 * n] = canon(__dadd_rd(x, y));
	o[4 * n] = canon(__dadd_ru(x, y));
	o[5 * n] = canon(x - y);
	o[6 * n] = canon(__dsub_rn(x, y));
	o[7 * n] = canon(__dsub_rz(x, y));
	o[8 * n] = canon(__dsub_rd(x, y));
	o[9 * n] = canon(__dsub_ru(x, y));
	o[10 * n] = canon(x * y);
	o[11 * n] = canon(__dmul_rn(x, y));
	o[12 * n] = canon(__dmul_rz(x, y));
	o[13 * n] = canon(__dmul_rd(x, y));
	o[14 * n] = canon(__dmul_ru(x, y));
	o[15 * n] = canon(fma(x, y, z));
	o[16 * n] = canon(__fma_rz(x, y, z));
	o[17 * n] = canon(__fma_rd(x, y, z));
	o[18 * n] = canon(__fma_ru(x, y, z));
	o[19 * n] = canon(mad_rn(x, y, z));
	o[20 * n] = canon(mad_rz(x, y, z));
	o[21 * n] = canon(mad_rm(x, y, z));
	o[22 * n] = canon(mad_rp(x, y, z));
}
