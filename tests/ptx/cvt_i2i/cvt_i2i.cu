// Integer <-> integer cvt: truncation to narrower types, sign/zero extension
// from narrower types (low bits of a wider register), results in 16/32/64-bit
// registers, and .sat clamping for narrowing and sign-changing conversions.
#define R16 unsigned short, "h"
#define R32 unsigned, "r"
#define R64 unsigned long long, "l"
#define CVT_(k, op, DT, DC, ST, SC) \
	__device__ __forceinline__ DT cvt##k(ST a) { DT r; asm(op " %0, %1;" : "=" DC(r) : SC(a)); return r; }
#define CVT(k, op, D, S) CVT_(k, op, D, S)

CVT(0, "cvt.u8.s32", R32, R32)
CVT(1, "cvt.s8.s32", R32, R32)
CVT(2, "cvt.u16.s32", R32, R32)
CVT(3, "cvt.s16.u32", R32, R32)
CVT(4, "cvt.s16.u64", R32, R64)
CVT(5, "cvt.u8.u64", R32, R64)
CVT(6, "cvt.s32.s64", R32, R64)
CVT(7, "cvt.u32.u64", R32, R64)
CVT(8, "cvt.s64.s32", R64, R32)
CVT(9, "cvt.u64.s32", R64, R32)
CVT(10, "cvt.s64.u32", R64, R32)
CVT(11, "cvt.u64.u32", R64, R32)
CVT(12, "cvt.s32.s8", R32, R32)
CVT(13, "cvt.u32.u8", R32, R32)
CVT(14, "cvt.s32.s16", R32, R32)
CVT(15, "cvt.u32.u16", R32, R32)
CVT(16, "cvt.s64.s8", R64, R32)
CVT(17, "cvt.u64.s16", R64, R32)
CVT(18, "cvt.s64.u16", R64, R32)
CVT(19, "cvt.s16.s8", R16, R16)
CVT(20, "cvt.u16.u8", R16, R16)
CVT(21, "cvt.s8.s16", R16, R16)
CVT(22, "cvt.u8.s16", R16, R16)
CVT(23, "cvt.s16.s64", R16, R64)
CVT(24, "cvt.u32.s16", R32, R16)
CVT(25, "cvt.s32.u16", R32, R16)
CVT(26, "cvt.sat.u8.s32", R32, R32)
CVT(27, "cvt.sat.s8.s32", R32, R32)
CVT(28, "cvt.sat.u16.s32", R32, R32)
CVT(29, "cvt.sat.s16.s32", R32, R32)
CVT(30, "cvt.sat.s8.u32", R32, R32)
CVT(31, "cvt.sat.u32.s32", R32, R32)
CVT(32, "cvt.sat.s32.u32", R32, R32)
CVT(33, "cvt.sat.s32.s64", R32, R64)
CVT(34, "cvt.sat.u32.s64", R32, R64)
CVT(35, "cvt.sat.u32.u64", R32, R64)
CVT(36, "cvt.sat.s64.u64", R64, R64)
CVT(37, "cvt.sat.u64.s64", R64, R64)
CVT(38, "cvt.sat.s16.s64", R32, R64)
CVT(39, "cvt.sat.u8.u64", R32, R64)
CVT(40, "cvt.sat.s8.s16", R16, R16)
CVT(41, "cvt.sat.u8.s8", R32, R32)
CVT(42, "cvt.sat.u16.s8", R16, R16)
CVT(43, "cvt.sat.s8.u8", R32, R32)
CVT(44, "cvt.sat.u64.s32", R64, R32)
CVT(45, "cvt.sat.u16.u32", R16, R32)

// Op k writes its destination register, zero-extended to 64 bits, to
// out[k * stride + off + i]; sources are the low 16/32/64 bits of a[i].
extern "C" __global__ void i2i(const unsigned long long *a, unsigned long long *out,
                               unsigned n, unsigned stride, unsigned off)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long v = a[i], *o = out + off + i;
	unsigned w = (unsigned)v;
	unsigned short h = (unsigned short)v;
	o[0 * stride] = cvt0(w);
	o[1 * stride] = cvt1(w);
	o[2 * stride] = cvt2(w);
	o[3 * stride] = cvt3(w);
	o[4 * stride] = cvt4(v);
	o[5 * stride] = cvt5(v);
	o[6 * stride] = cvt6(v);
	o[7 * stride] = cvt7(v);
	o[8 * stride] = cvt8(w);
	o[9 * stride] = cvt9(w);
	o[10 * stride] = cvt10(w);
	o[11 * stride] = cvt11(w);
	o[12 * stride] = cvt12(w);
	o[13 * stride] = cvt13(w);
	o[14 * stride] = cvt14(w);
	o[15 * stride] = cvt15(w);
	o[16 * stride] = cvt16(w);
	o[17 * stride] = cvt17(w);
	o[18 * stride] = cvt18(w);
	o[19 * stride] = cvt19(h);
	o[20 * stride] = cvt20(h);
	o[21 * stride] = cvt21(h);
	o[22 * stride] = cvt22(h);
	o[23 * stride] = cvt23(v);
	o[24 * stride] = cvt24(h);
	o[25 * stride] = cvt25(h);
	o[26 * stride] = cvt26(w);
	o[27 * stride] = cvt27(w);
	o[28 * stride] = cvt28(w);
	o[29 * stride] = cvt29(w);
	o[30 * stride] = cvt30(w);
	o[31 * stride] = cvt31(w);
	o[32 * stride] = cvt32(w);
	o[33 * stride] = cvt33(v);
	o[34 * stride] = cvt34(v);
	o[35 * stride] = cvt35(v);
	o[36 * stride] = cvt36(v);
	o[37 * stride] = cvt37(v);
	o[38 * stride] = cvt38(v);
	o[39 * stride] = cvt39(v);
	o[40 * stride] = cvt40(h);
	o[41 * stride] = cvt41(w);
	o[42 * stride] = cvt42(h);
	o[43 * stride] = cvt43(w);
	o[44 * stride] = cvt44(w);
	o[45 * stride] = cvt45(w);
}
