// Shifts: shf.l/.r .wrap/.clamp (__funnelshift_l/r/lc/rc), shl and shr .u/.s on
// 16/32/64-bit values, with in-range counts from C and out-of-range counts via asm.

extern "C" __global__ void shifts(const unsigned *plo, const unsigned *phi, const unsigned *pn,
				  unsigned *o32, unsigned long long *o64, unsigned short *o16, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned lo = plo[i], hi = phi[i], c = pn[i];	/* c in 0..70 */
	unsigned *o = o32 + 12 * i;
	unsigned long long x = ((unsigned long long)hi << 32) | lo;
	unsigned r;

	o[0] = __funnelshift_l(lo, hi, c);
	o[1] = __funnelshift_r(lo, hi, c);
	o[2] = __funnelshift_lc(lo, hi, c);
	o[3] = __funnelshift_rc(lo, hi, c);
	o[4] = lo << (c & 31);
	o[5] = lo >> (c & 31);
	o[6] = (unsigned)((int)lo >> (c & 31));
	asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(lo), "r"(c));	/* counts >= 32 give 0 */
	o[7] = r;
	asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(lo), "r"(c));
	o[8] = r;
	asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(lo), "r"(c));	/* counts >= 32 fill with sign */
	o[9] = r;
	asm("shf.l.clamp.b32 %0, %1, %2, 7;" : "=r"(r) : "r"(lo), "r"(hi));
	o[10] = r;
	asm("shf.r.wrap.b32 %0, %1, %2, 45;" : "=r"(r) : "r"(lo), "r"(hi));
	o[11] = r;

	unsigned long long *q = o64 + 6 * i, r64;
	q[0] = x << (c & 63);
	q[1] = x >> (c & 63);
	q[2] = (unsigned long long)((long long)x >> (c & 63));
	asm("shl.b64 %0, %1, %2;" : "=l"(r64) : "l"(x), "r"(c));
	q[3] = r64;
	asm("shr.u64 %0, %1, %2;" : "=l"(r64) : "l"(x), "r"(c));
	q[4] = r64;
	asm("shr.s64 %0, %1, %2;" : "=l"(r64) : "l"(x), "r"(c));
	q[5] = r64;

	unsigned short h = (unsigned short)lo, r16;
	unsigned short *s = o16 + 4 * i;
	asm("shl.b16 %0, %1, %2;" : "=h"(r16) : "h"(h), "r"(c & 31));
	s[0] = r16;
	asm("shr.u16 %0, %1, %2;" : "=h"(r16) : "h"(h), "r"(c & 31));
	s[1] = r16;
	asm("shr.s16 %0, %1, %2;" : "=h"(r16) : "h"(h), "r"(c & 31));
	s[2] = r16;
	s[3] = (unsigned short)(h << (c & 15)) ^ (unsigned short)((short)h >> (c & 15));
}
