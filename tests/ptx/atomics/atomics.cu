// Atomics under contention on global and shared memory (atom.*, red via asm): add sub
// inc dec min max and or xor exch cas in 32/64-bit integer and f32/f64 forms; only
// order-independent results are output (old values as tickets, sums, invariants).

__device__ int cas_max32(int *p, int v)
{
	int old = *p;
	while (old < v) {
		int prev = atomicCAS(p, old, v);
		if (prev == old)
			break;
		old = prev;
	}
	return old;
}

__device__ unsigned long long cas_max64(unsigned long long *p, unsigned long long v)
{
	unsigned long long old = *p;
	while (old < v) {
		unsigned long long prev = atomicCAS(p, old, v);
		if (prev == old)
			break;
		old = prev;
	}
	return old;
}

extern "C" __global__ void atom_global(const int *xs, int *ai, unsigned *au,
				       unsigned long long *aul, long long *asl,
				       float *af, double *ad, unsigned *seen, int *olds)
{
	int gi = blockIdx.x * blockDim.x + threadIdx.x;
	int n = blockDim.x * gridDim.x;
	int x = xs[gi];
	unsigned ux = (unsigned)x * 2654435761u;
	unsigned long long ul = ((unsigned long long)ux << 32) | (unsigned)(x * 7919);

	atomicAdd(&ai[0], x);
	atomicSub(&ai[1], x);
	olds[gi] = atomicMin(&ai[2], x);
	olds[n + gi] = atomicMax(&ai[3], x);
	int prev = atomicExch(&ai[4], gi);
	atomicAdd(&ai[5], prev);
	cas_max32(&ai[6], x * 3 + 1);
	/* nvcc keeps unused atomics as atom; red only comes from asm */
	asm volatile("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %0; red.global.add.s32 [%%a], %1; }"
		     :: "l"(&ai[7]), "r"(x) : "memory");

	unsigned ticket = atomicAdd(&au[0], 1u);
	atomicOr(&seen[ticket], 1u);
	atomicAdd(&au[2], atomicInc(&au[1], 100u));
	atomicAdd(&au[4], atomicDec(&au[3], 50u));
	atomicMin(&au[5], ux);
	atomicMax(&au[6], ux);
	olds[2 * n + gi] = atomicAnd(&au[7], ux | 0x11111111u);
	olds[3 * n + gi] = atomicOr(&au[8], ux & 0x88888888u);
	atomicXor(&au[9], ux);
	asm volatile("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %0; red.global.xor.b32 [%%a], %1; }"
		     :: "l"(&au[10]), "r"(ux >> 3) : "memory");

	atomicAdd(&aul[0], ul >> 7);
	atomicMin(&aul[1], ul);
	atomicMax(&aul[2], ul);
	atomicAnd(&aul[3], ul | 0x0f0f0f0f0f0f0f0full);
	atomicOr(&aul[4], ul & 0x4000400040004000ull);
	atomicXor(&aul[5], ul);
	cas_max64(&aul[6], ul ^ 0x5555555555555555ull);
	atomicMin(&asl[0], (long long)x * 1000000007ll);
	atomicMax(&asl[1], (long long)x * 1000000007ll);
	asm volatile("{ .reg .u64 %%a; cvta.to.global.u64 %%a, %0; red.global.add.u64 [%%a], %1; }"
		     :: "l"(&aul[7]), "l"(ul) : "memory");

	atomicAdd(&af[0], (float)x * 0.25f);			/* every partial sum is exact */
	float ft = atomicAdd(&af[1], 1.0f);
	atomicOr(&seen[(int)ft], 2u);
	atomicAdd(&ad[0], (double)x * 0.125);
	double dt = atomicAdd(&ad[1], 1.0);
	atomicOr(&seen[(int)dt], 4u);
}

/* Folds the order-dependent parts into order-independent ones. */
extern "C" __global__ void atom_global_fin(int *ai, const unsigned *au, const int *olds,
					   int n, unsigned *bad)
{
	if (threadIdx.x != 0)
		return;
	ai[4] += ai[5];		/* last exchanged value + all earlier ones */
	ai[5] = 0;
	unsigned b = 0;
	for (int k = 0; k < n; k++) {
		b += olds[k] < ai[2];				/* min only decreases */
		b += olds[n + k] > ai[3];			/* max only increases */
		b += (au[7] & ~(unsigned)olds[2 * n + k]) != 0;	/* and clears bits */
		b += ((unsigned)olds[3 * n + k] & ~au[8]) != 0;	/* or sets bits */
	}
	bad[0] = b;
}

extern "C" __global__ void atom_shared(const int *xs, int *oi, unsigned *ou,
				       unsigned long long *oul, float *of, double *od)
{
	__shared__ int si[6];
	__shared__ unsigned su[11];
	__shared__ unsigned long long sul[3];
	__shared__ float sf;
	__shared__ double sd;
	__shared__ unsigned seen[256];
	int t = threadIdx.x;
	int gi = blockIdx.x * blockDim.x + t;
	int x = xs[gi];
	unsigned ux = (unsigned)x * 2246822519u;
	unsigned long long ul = ((unsigned long long)ux << 29) ^ (unsigned)x;

	if (t == 0) {
		si[0] = 0; si[1] = 0; si[2] = 2147483647; si[3] = -2147483647 - 1;
		si[4] = -1; si[5] = 0;
		su[0] = 0; su[1] = 3; su[2] = 0; su[3] = 0; su[4] = 0;
		su[5] = 0xffffffffu; su[6] = 0; su[7] = 0; su[8] = 0;
		su[9] = 0xffffffffu; su[10] = 0;
		sul[0] = 0; sul[1] = ~0ull; sul[2] = 0;
		sf = 0.0f;
		sd = 0.0;
	}
	seen[t] = 0;
	__syncthreads();

	atomicAdd(&si[0], x);
	atomicSub(&si[1], x * 2);
	atomicMin(&si[2], x);
	atomicMax(&si[3], x);
	int prev = atomicExch(&si[4], t);
	atomicAdd(&si[5], prev);
	unsigned ticket = atomicAdd(&su[0], 1u);
	seen[ticket] = 1;				/* tickets are unique */
	atomicAdd(&su[2], atomicInc(&su[1], 37u));
	atomicAdd(&su[4], atomicDec(&su[3], 9u));
	atomicMin(&su[5], ux);
	atomicMax(&su[6], ux);
	atomicOr(&su[7], ux & 0x01010101u);
	atomicXor(&su[8], ux);
	atomicAnd(&su[9], ux | 0x80808080u);
	asm volatile("red.shared.add.u32 [%0], %1;"
		     :: "r"((unsigned)__cvta_generic_to_shared(&su[10])), "r"(ux & 0xffff) : "memory");
	atomicAdd(&sul[0], ul);
	atomicMin(&sul[1], ul);
	cas_max64(&sul[2], ul);
	atomicAdd(&sf, (float)(x & 63) * 0.5f);
	atomicAdd(&sd, (double)x * 0.25);
	__syncthreads();

	unsigned all = __syncthreads_and(seen[t] == 1);
	if (t == 0) {
		int *o = oi + 6 * blockIdx.x;
		o[0] = si[0]; o[1] = si[1]; o[2] = si[2]; o[3] = si[3];
		o[4] = si[4] + si[5]; o[5] = cas_max32(&si[0], 0);
		unsigned *u = ou + 12 * blockIdx.x;
		for (int k = 0; k < 11; k++)
			u[k] = su[k];
		u[11] = all;
		oul[3 * blockIdx.x] = sul[0];
		oul[3 * blockIdx.x + 1] = sul[1];
		oul[3 * blockIdx.x + 2] = sul[2];
		of[blockIdx.x] = sf;
		od[blockIdx.x] = sd;
	}
}
