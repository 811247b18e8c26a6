// Bit fields: bfe .u32 .s32 .u64 .s64 and bfi .b32 .b64 (asm) with runtime
// position/length, including len 0 and pos+len past the msb; C field extracts.

extern "C" __global__ void bitfield(const unsigned long long *src, const unsigned long long *ins,
				    const unsigned *pos, const unsigned *len,
				    unsigned *out32, unsigned long long *out64, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long a = src[i], b = ins[i];
	unsigned a32 = (unsigned)a, b32 = (unsigned)b;
	unsigned p = pos[i], l = len[i];
	unsigned *o = out32 + 8 * i;
	unsigned long long *q = out64 + 4 * i;
	unsigned r;
	unsigned long long r64;

	asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(p), "r"(l));
	o[0] = r;
	asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(p), "r"(l));
	o[1] = r;
	asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(b32), "r"(a32), "r"(p), "r"(l));
	o[2] = r;
	asm("bfe.u32 %0, %1, 8, 12;" : "=r"(r) : "r"(a32));
	o[3] = r;
	asm("bfe.s32 %0, %1, 28, 8;" : "=r"(r) : "r"(a32));
	o[4] = r;
	asm("bfi.b32 %0, %1, %2, 20, 16;" : "=r"(r) : "r"(b32), "r"(a32));
	o[5] = r;
	/* plain C field extract/insert, which nvcc may turn into bfe/bfi */
	o[6] = (a32 >> 7) & 0x3ff;
	o[7] = (a32 & ~0x0ff0u) | ((b32 << 4) & 0x0ff0u);

	asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r64) : "l"(a), "r"(p), "r"(l));
	q[0] = r64;
	asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r64) : "l"(a), "r"(p + 24), "r"(l));
	q[1] = r64;
	asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r64) : "l"(b), "l"(a), "r"(p + 24), "r"(l));
	q[2] = r64;
	q[3] = (a >> 40) & 0xfff;
}
