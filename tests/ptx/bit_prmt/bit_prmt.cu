// Byte permute: prmt.b32 generic form (__byte_perm and asm with sign-replicate
// selectors) and the modes .f4e .b4e .rc8 .ecl .ecr .rc16 with runtime selectors.

extern "C" __global__ void permute(const unsigned *pa, const unsigned *pb, const unsigned *ps,
				   unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned a = pa[i], b = pb[i], s = ps[i];
	unsigned *o = out + 12 * i;
	unsigned r;

	o[0] = __byte_perm(a, b, s);
	o[1] = __byte_perm(a, b, 0x0123);
	asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[2] = r;
	asm("prmt.b32 %0, %1, %2, 0x8e4b;" : "=r"(r) : "r"(a), "r"(b));
	o[3] = r;
	asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[4] = r;
	asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[5] = r;
	asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[6] = r;
	asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[7] = r;
	asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[8] = r;
	asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	o[9] = r;
	asm("prmt.b32.f4e %0, %1, %2, 2;" : "=r"(r) : "r"(a), "r"(b));
	o[10] = r;
	/* byte swap written with shifts and masks in C */
	o[11] = (a >> 24) | ((a >> 8) & 0xff00) | ((a << 8) & 0xff0000) | (a << 24);
}
