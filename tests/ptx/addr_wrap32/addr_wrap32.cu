// 32-bit shared, local and const addresses wrap modulo 2^32 (asm): a base
// register holding "variable - k", below zero, used as [%r+k+i] as Rodinia's nw
// does: ld/st.shared .u32 .v2, atom/red.shared.add, st.local.v2, ld.local, ld.const.

__constant__ int ctab[8] = {3, -5, 7, -11, 13, -17, 19, -23};

// The 32-bit address `addr` minus k, computed in a 32-bit register.
__device__ unsigned below(size_t addr, unsigned k)
{
	unsigned r;
	asm("sub.s32 %0, %1, %2;" : "=r"(r) : "r"((unsigned)addr), "r"(k));
	return r;
}

extern "C" __global__ void wrap_shared(const int *in, int *out)
{
	__shared__ int s[64];
	unsigned t = threadIdx.x, g = blockIdx.x * 64 + t;
	unsigned base = below(__cvta_generic_to_shared(s), 64);
	unsigned mine = base + 4 * t, pair = base + 8 * (t >> 1), next = base + 4 * ((t + 1) & 63);
	int *o = out + 8 * g;
	int v0, v1, v2, old;
	asm volatile("st.shared.u32 [%0+64], %1;" ::"r"(mine), "r"(in[g]) : "memory");
	__syncthreads();
	asm volatile("ld.shared.u32 %0, [%1+68];" : "=r"(v0) : "r"(base) : "memory");
	asm volatile("ld.shared.v2.u32 {%0, %1}, [%2+64];" : "=r"(v1), "=r"(v2) : "r"(pair) : "memory");
	o[0] = v0;
	o[1] = v1 - v2;
	__syncthreads();
	asm volatile("atom.shared.add.u32 %0, [%1+64], %2;" : "=r"(old) : "r"(next), "r"(t) : "memory");
	/* every atom before any red: thread 63's atom and thread 0's red meet on
	 * s[0] from different warps, whose order is otherwise the scheduler's */
	__syncthreads();
	asm volatile("red.shared.add.u32 [%0+64], 1000;" ::"r"(mine) : "memory");
	__syncthreads();
	o[2] = old;
	o[3] = s[t];
	__syncthreads();
	if ((t & 1) == 0)
		asm volatile("st.shared.v2.u32 [%0+64], {%1, %2};" ::"r"(pair), "r"(t), "r"(g) : "memory");
	__syncthreads();
	o[4] = s[t];
}

extern "C" __global__ void wrap_local_const(int *out)
{
	int buf[8];
	unsigned t = threadIdx.x, g = blockIdx.x * 64 + t;
	unsigned lb = below(__cvta_generic_to_local(buf), 32);
	unsigned cb = below(__cvta_generic_to_constant(ctab), 16);
	int *o = out + 8 * g;
	for (unsigned k = 0; k < 4; k++)
		asm volatile("st.local.v2.u32 [%0+32], {%1, %2};" ::"r"(lb + 8 * k), "r"(g * k), "r"(g + k) : "memory");
	int x, y, c0, c1;
	asm volatile("ld.local.u32 %0, [%1+44];" : "=r"(x) : "r"(lb) : "memory");
	asm volatile("ld.local.u32 %0, [%1+32];" : "=r"(y) : "r"(lb + 4 * (t & 7)) : "memory");
	asm("ld.const.u32 %0, [%1+16];" : "=r"(c0) : "r"(cb + 4 * (t & 7)));
	asm("ld.const.u32 %0, [%1+44];" : "=r"(c1) : "r"(cb));
	o[5] = x + y;
	o[6] = c0;
	o[7] = c1;
}
