// Memory ops: ld/st .v2/.v4, ld.global.nc (const __restrict__), volatile, 8/16/64-bit
// loads/stores with sign/zero extension, generic ld/st reaching shared and global
// through one pointer, cvta/cvta.to (shared, global), isspacep.

extern "C" __global__ void vectors(const float4 *__restrict__ a, const int2 *__restrict__ b,
				   const int4 *__restrict__ c, const double2 *__restrict__ d,
				   float4 *__restrict__ oa, int2 *__restrict__ ob,
				   int4 *__restrict__ oc, double2 *__restrict__ od)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 x = a[i];
	int2 y = b[i];
	int4 z = c[i];
	double2 w = d[i];
	oa[i] = make_float4(x.w, x.x + 1.0f, x.y * 2.0f, -x.z);
	ob[i] = make_int2(y.y - y.x, y.x ^ i);
	oc[i] = make_int4(z.w, z.z + z.y, z.x, i);
	od[i] = make_double2(w.y * 0.5, w.x - w.y);
}

extern "C" __global__ void narrow(const signed char *i8, const unsigned char *u8,
				  const short *i16, const unsigned short *u16,
				  const long long *i64, int *o32, signed char *o8,
				  unsigned short *o16, long long *o64)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	signed char sc = i8[i];
	unsigned char uc = u8[i];
	short ss = i16[i];
	unsigned short us = u16[i];
	o32[4 * i] = sc;
	o32[4 * i + 1] = uc;
	o32[4 * i + 2] = ss;
	o32[4 * i + 3] = us;
	o8[i] = (signed char)(ss >> 4);
	o16[i] = (unsigned short)(uc * 257 + sc);
	o64[i] = i64[i] + sc - (long long)us * 65536;
	/* nvcc loads narrow signed values with ld.u8/u16 + cvt; ask for the
	 * sign-extending forms directly (into wider registers) */
	int r8, r16;
	long long r32;
	unsigned long long ru16;
	asm("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %1; ld.global.s8 %0, [%%a]; }"
	    : "=r"(r8) : "l"(i8 + i));
	asm("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %1; ld.global.s16 %0, [%%a]; }"
	    : "=r"(r16) : "l"(i16 + i));
	asm("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %1; ld.global.s32 %0, [%%a]; }"
	    : "=l"(r32) : "l"(i64 + i));
	asm("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %1; ld.global.u16 %0, [%%a]; }"
	    : "=l"(ru16) : "l"(u16 + i));
	o64[blockDim.x * gridDim.x + i] = r32 ^ (long long)ru16;
	o32[4 * blockDim.x * gridDim.x + 2 * i] = r8;
	o32[4 * blockDim.x * gridDim.x + 2 * i + 1] = r16;
}

/* Reads and updates *p through a generic address; returns the old value. */
__device__ __noinline__ int bump(int *p, int v)
{
	int old = *p;
	*p = old * 3 + v;
	return old;
}

extern "C" __global__ void generic(int *g, volatile int *vol, int *out)
{
	__shared__ int sh[128];
	int t = threadIdx.x;
	int gi = blockIdx.x * blockDim.x + t;
	sh[t] = t * 10;
	__syncthreads();
	int *p = (t & 1) ? &sh[t] : &g[gi];
	int old = bump(p, t);			/* odd threads: shared, even: global */
	int old2 = bump(&sh[t], 1);		/* always shared */
	int old3 = bump(&g[gi], 2);		/* always global */
	vol[gi] = old + old2;
	int v = vol[gi];
	vol[gi] = v * 2;
	size_t s0 = __cvta_generic_to_shared(&sh[0]);
	size_t st = __cvta_generic_to_shared(&sh[t]);
	int *back = (int *)__cvta_shared_to_generic(st);
	unsigned long long sa0, sat, gs, gg;
	asm("cvta.to.shared.u64 %0, %1;" : "=l"(sa0) : "l"(&sh[0]));
	asm("cvta.to.shared.u64 %0, %1;" : "=l"(sat) : "l"(&sh[t]));
	asm("cvta.shared.u64 %0, %1;" : "=l"(gs) : "l"(sat));
	asm("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %1; cvta.global.u64 %0, %%a; }" : "=l"(gg) : "l"(g));
	__syncthreads();
	out[8 * gi] = old3;
	out[8 * gi + 1] = *back;
	out[8 * gi + 2] = (int)(st - s0);
	out[8 * gi + 3] = __isShared(p) + 2 * __isGlobal(p) + 4 * __isLocal(p) + 8 * __isConstant(p);
	out[8 * gi + 4] = v;
	out[8 * gi + 5] = old;
	out[8 * gi + 6] = (int)(sat - sa0);
	out[8 * gi + 7] = (gs == (unsigned long long)&sh[t]) + 2 * (gg == (unsigned long long)g);
}
