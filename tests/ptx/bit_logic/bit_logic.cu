// Logic ops: and/or/xor/not/cnot on .b16/.b32/.b64 (asm and C); lop3.b32 via asm
// with several immLut values (nvcc leaves C expressions as and/or/xor/not).

extern "C" __global__ void logic(const unsigned *pa, const unsigned *pb, const unsigned *pc,
				 unsigned *out, unsigned long long *out64, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned a = pa[i], b = pb[i], c = pc[i];
	unsigned *o = out + 16 * i;
	unsigned r;

	o[0] = (a & b) | (~a & c);		/* select */
	o[1] = a ^ b ^ c;			/* 0x96 */
	o[2] = (a & b) | (b & c) | (a & c);	/* majority: 0xe8 */
	o[3] = ~(a | b) & c;
	asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[4] = r;
	asm("lop3.b32 %0, %1, %2, %3, 0x1e;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[5] = r;
	asm("lop3.b32 %0, %1, %2, %3, 0xf0;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[6] = r;
	asm("lop3.b32 %0, %1, %2, %3, 0x6b;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	o[7] = r;
	asm("and.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	o[8] = r;
	asm("or.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c));
	o[9] = r;
	asm("xor.b32 %0, %1, %2;" : "=r"(r) : "r"(b), "r"(c));
	o[10] = r;
	asm("not.b32 %0, %1;" : "=r"(r) : "r"(a));
	o[11] = r;
	asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(a & 0x11));	/* 1 iff the operand is 0 */
	o[12] = r;
	unsigned short h, ha = (unsigned short)a, hb = (unsigned short)b;
	asm("and.b16 %0, %1, %2;" : "=h"(h) : "h"(ha), "h"(hb));
	o[13] = h;
	asm("{ .reg .b16 %%t; xor.b16 %%t, %1, %2; cnot.b16 %%t, %%t; not.b16 %0, %%t; }"
	    : "=h"(h) : "h"(ha), "h"((unsigned short)(ha ^ (c & 1))));
	o[14] = h;
	o[15] = !(a & 0x101) + !c;

	unsigned long long x = ((unsigned long long)a << 32) | b, y = ((unsigned long long)c << 32) | a;
	unsigned long long *q = out64 + 4 * i, r64;
	q[0] = (x & y) ^ ~(x | 0xff00ff00ull);
	asm("or.b64 %0, %1, %2;" : "=l"(r64) : "l"(x), "l"(y));
	q[1] = r64;
	asm("not.b64 %0, %1;" : "=l"(r64) : "l"(y));
	q[2] = r64;
	asm("cnot.b64 %0, %1;" : "=l"(r64) : "l"(x & 0x100000001ull));
	q[3] = r64;
}
