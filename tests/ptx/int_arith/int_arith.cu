// Integer arithmetic: add sub mul.lo/hi/wide, mad.lo/hi/wide, mul24/mad24 (lo, hi),
// sad, div/rem, abs neg min max, for s32/u32 and s64/u64 operands.

#define NR32 32
#define NR64 16

extern "C" __global__ void arith32(const int *pa, const int *pb, const int *pc,
				   unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a = pa[i], b = pb[i], c = pc[i];
	unsigned ua = a, ub = b, uc = c;
	unsigned *o = out + i * NR32;
	long long ws = (long long)a * b;
	unsigned long long wu = (unsigned long long)ua * ub;
	unsigned r;

	o[0] = ua + ub;
	o[1] = ua - ub;
	o[2] = ua * ub;
	o[3] = __mulhi(a, b);
	o[4] = __umulhi(ua, ub);
	o[5] = (unsigned)ws;
	o[6] = (unsigned)(ws >> 32);
	o[7] = (unsigned)wu;
	o[8] = (unsigned)(wu >> 32);
	o[9] = ua * ub + uc;
	asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[10] = r;
	asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(uc));
	o[11] = r;
	long long ms;
	asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(ms) : "r"(a), "r"(b), "l"((long long)c * 1048576));
	o[12] = (unsigned)ms;
	o[13] = (unsigned)((unsigned long long)ms >> 32);
	unsigned long long mu;
	asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(mu) : "r"(ua), "r"(ub), "l"(~(unsigned long long)uc));
	o[14] = (unsigned)mu;
	o[15] = (unsigned)(mu >> 32);
	/* nvcc lowers __mul24/__umul24 to mul.lo on masked operands, so use asm */
	asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	o[16] = r;
	asm("mul24.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ub));
	o[17] = r;
	asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	o[18] = r;
	asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ub));
	o[19] = r;
	asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[20] = r;
	asm("mad24.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(uc));
	o[21] = r;
	o[22] = __sad(a, b, uc);
	o[23] = __usad(ua, ub, uc);
	/* divisors of every magnitude; 0 and -1 are replaced (undefined/overflow) */
	int d = b >> (b & 31);
	if (d == 0 || d == -1)
		d = 7;
	unsigned ud = ub >> (ua & 31);
	if (ud == 0)
		ud = 5;
	o[24] = a / d;
	asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(d));	/* C % gives div+mul+sub */
	o[25] = r;
	o[26] = ua / ud;
	asm("rem.u32 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ud));
	o[27] = r;
	o[28] = abs(a);
	o[29] = 0u - ua;
	o[30] = min(a, b) ^ max(b, c);
	o[31] = min(ua, ub) ^ (max(ub, uc) << 1);
}

extern "C" __global__ void arith64(const long long *pa, const long long *pb,
				   unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	long long a = pa[i], b = pb[i];
	unsigned long long ua = a, ub = b;
	unsigned long long *o = out + i * NR64;

	o[0] = ua + ub;
	o[1] = ua - ub;
	o[2] = ua * ub;
	o[3] = __mul64hi(a, b);
	o[4] = __umul64hi(ua, ub);
	long long d = b >> (b & 63);
	if (d == 0 || d == -1)
		d = 11;
	unsigned long long ud = ub >> (ua & 63);
	if (ud == 0)
		ud = 13;
	o[5] = a / d;
	long long rs;
	asm("rem.s64 %0, %1, %2;" : "=l"(rs) : "l"(a), "l"(d));
	o[6] = rs;
	o[7] = ua / ud;
	unsigned long long ru;
	asm("rem.u64 %0, %1, %2;" : "=l"(ru) : "l"(ua), "l"(ud));
	o[8] = ru;
	o[9] = llabs(a);
	o[10] = 0ull - ua;
	o[11] = llmin(a, b);
	o[12] = llmax(a, b);
	o[13] = ullmin(ua, ub);
	o[14] = ullmax(ua, ub);
	o[15] = ua * ub + (ua ^ ub);
}
