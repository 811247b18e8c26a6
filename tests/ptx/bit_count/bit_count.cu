// Bit counting: popc/clz/brev .b32 and .b64 (__popc __popcll __clz __clzll __brev
// __brevll, __ffs), bfind .u32 .s32 .u64 .s64 and bfind.shiftamt (asm).

extern "C" __global__ void bitcount(const unsigned long long *in, unsigned *out32,
				    unsigned long long *out64, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long x = in[i];
	unsigned lo = (unsigned)x;
	unsigned *o = out32 + 16 * i;
	unsigned r;

	o[0] = __popc(lo);
	o[1] = __popcll(x);
	o[2] = __clz(lo);
	o[3] = __clzll(x);
	o[4] = __ffs(lo);
	o[5] = __ffsll(x);
	asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(lo));
	o[6] = r;
	asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(lo));
	o[7] = r;
	asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(x));
	o[8] = r;
	asm("bfind.s64 %0, %1;" : "=r"(r) : "l"(x));
	o[9] = r;
	asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(lo));
	o[10] = r;
	asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(lo));
	o[11] = r;
	asm("bfind.shiftamt.u64 %0, %1;" : "=r"(r) : "l"(x));
	o[12] = r;
	o[13] = __brev(lo);
	o[14] = __popc(~lo) + __clz(~lo);
	o[15] = 0x5a5a5a5a;
	out64[i] = __brevll(x);
}
