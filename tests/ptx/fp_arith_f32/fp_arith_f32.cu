// f32 add/sub/mul/fma/mad in every rounding mode (.rn .rz .rm .rp and none),
// with .ftz, .sat and both, on adversarial pairs (halfway, overflow,
// subnormal) and random inputs. NaN results are stored as 0x7fffffff.
#define OP2(name, op)                                                      \
	__device__ __forceinline__ float name(float a, float b)                \
	{ float r; asm(op " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
#define OP3(name, op)                                                      \
	__device__ __forceinline__ float name(float a, float b, float c)       \
	{ float r; asm(op " %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }

OP3(mad_rn, "mad.rn.f32") OP3(mad_rz, "mad.rz.f32") OP3(mad_rm, "mad.rm.f32") OP3(mad_rp, "mad.rp.f32")
OP2(add_ftz, "add.ftz.f32") OP2(add_rn_ftz, "add.rn.ftz.f32") OP2(add_rz_ftz, "add.rz.ftz.f32")
OP2(add_rm_ftz, "add.rm.ftz.f32") OP2(add_rp_ftz, "add.rp.ftz.f32")
OP2(sub_rn_ftz, "sub.rn.ftz.f32") OP2(sub_rp_ftz, "sub.rp.ftz.f32")
OP2(mul_ftz, "mul.ftz.f32") OP2(mul_rn_ftz, "mul.rn.ftz.f32") OP2(mul_rz_ftz, "mul.rz.ftz.f32")
OP2(mul_rm_ftz, "mul.rm.ftz.f32") OP2(mul_rp_ftz, "mul.rp.ftz.f32")
OP3(fma_rn_ftz, "fma.rn.ftz.f32") OP3(fma_rz_ftz, "fma.rz.ftz.f32")
OP3(fma_rm_ftz, "fma.rm.ftz.f32") OP3(fma_rp_ftz, "fma.rp.ftz.f32") OP3(mad_rn_ftz, "mad.rn.ftz.f32")
OP2(add_sat, "add.sat.f32") OP2(add_rm_ftz_sat, "add.rm.ftz.sat.f32") OP2(sub_rn_sat, "sub.rn.sat.f32")
OP2(mul_sat, "mul.sat.f32") OP2(mul_rp_ftz_sat, "mul.rp.ftz.sat.f32") OP3(fma_rn_sat, "fma.rn.sat.f32")
OP3(fma_rz_ftz_sat, "fma.rz.ftz.sat.f32") OP3(mad_rn_sat, "mad.rn.sat.f32")

__device__ __forceinline__ unsigned canon(float v) { return isnan(v) ? 0x7fffffffu : __float_as_uint(v); }

// Operand k of thread i is taken from index (i >> shift_k) & mask_k, so one
// kernel serves both all-pairs tables and element-wise random vectors.
extern "C" __global__ void arith32(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out,
                                   unsigned n, unsigned ma, unsigned sb, unsigned mb, unsigned sc, unsigned mc)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __uint_as_float(a[i & ma]);
	float y = __uint_as_float(b[(i >> sb) & mb]);
	float z = __uint_as_float(c[(i >> sc) & mc]);
	unsigned *o = out + i;
	o[0 * n] = canon(x + y);
	o[1 * n] = canon(__fadd_rn(x, y));
	o[2 * n] = canon(__fadd_rz(x, y));
	o[3 * n] = canon(__fadd_rd(x, y));
	o[4 * n] = canon(__fadd_ru(x, y));
	o[5 * n] = canon(x - y);
	o[6 * n] = canon(__fsub_rn(x, y));
	o[7 * n] = canon(__fsub_rz(x, y));
	o[8 * n] = canon(__fsub_rd(x, y));
	o[9 * n] = canon(__fsub_ru(x, y));
	o[10 * n] = canon(x * y);
	o[11 * n] = canon(__fmul_rn(x, y));
	o[12 * n] = canon(__fmul_rz(x, y));
	o[13 * n] = canon(__fmul_rd(x, y));
	o[14 * n] = canon(__fmul_ru(x, y));
	o[15 * n] = canon(fmaf(x, y, z));
	o[16 * n] = canon(__fmaf_rz(x, y, z));
	o[17 * n] = canon(__fmaf_rd(x, y, z));
	o[18 * n] = canon(__fmaf_ru(x, y, z));
	o[19 * n] = canon(mad_rn(x, y, z));
	o[20 * n] = canon(mad_rz(x, y, z));
	o[21 * n] = canon(mad_rm(x, y, z));
	o[22 * n] = canon(mad_rp(x, y, z));
	o[23 * n] = canon(add_ftz(x, y));
	o[24 * n] = canon(add_rn_ftz(x, y));
	o[25 * n] = canon(add_rz_ftz(x, y));
	o[26 * n] = canon(add_rm_ftz(x, y));
	o[27 * n] = canon(add_rp_ftz(x, y));
	o[28 * n] = canon(sub_rn_ftz(x, y));
	o[29 * n] = canon(sub_rp_ftz(x, y));
	o[30 * n] = canon(mul_ftz(x, y));
	o[31 * n] = canon(mul_rn_ftz(x, y));
	o[32 * n] = canon(mul_rz_ftz(x, y));
	o[33 * n] = canon(mul_rm_ftz(x, y));
	o[34 * n] = canon(mul_rp_ftz(x, y));
	o[35 * n] = canon(fma_rn_ftz(x, y, z));
	o[36 * n] = canon(fma_rz_ftz(x, y, z));
	o[37 * n] = canon(fma_rm_ftz(x, y, z));
	o[38 * n] = canon(fma_rp_ftz(x, y, z));
	o[39 * n] = canon(mad_rn_ftz(x, y, z));
	// .sat results: the sign bit is cleared, so -0 and +0 compare equal
	o[40 * n] = __float_as_uint(add_sat(x, y)) & 0x7fffffffu;
	o[41 * n] = __float_as_uint(add_rm_ftz_sat(x, y)) & 0x7fffffffu;
	o[42 * n] = __float_as_uint(sub_rn_sat(x, y)) & 0x7fffffffu;
	o[43 * n] = __float_as_uint(mul_sat(x, y)) & 0x7fffffffu;
	o[44 * n] = __float_as_uint(mul_rp_ftz_sat(x, y)) & 0x7fffffffu;
	o[45 * n] = __float_as_uint(fma_rn_sat(x, y, z)) & 0x7fffffffu;
	o[46 * n] = __float_as_uint(fma_rz_ftz_sat(x, y, z)) & 0x7fffffffu;
	o[47 * n] = __float_as_uint(mad_rn_sat(x, y, z)) & 0x7fffffffu;
}
