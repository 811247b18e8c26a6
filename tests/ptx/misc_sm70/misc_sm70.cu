// bmsk.clamp.b32 / bmsk.wrap.b32 (asm) with register and immediate operands,
// WARP_SZ (warpSize), %envreg<n> (asm), %globaltimer / _lo / _hi (asm) and
// nanosleep.u32 (__nanosleep) with register and immediate durations.
// Clock readings are output as checks that hold on flipsim (1/true): the
// timer advances, a sleep of t ns lets at least t ns pass.
extern "C" __global__ void misc(const unsigned *pos, const unsigned *width, unsigned *out, unsigned *chk, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned a = pos[i], b = width[i], c, w, k;
	asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
	asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(w) : "r"(a), "r"(b));
	asm("bmsk.wrap.b32 %0, %1, 3;" : "=r"(k) : "r"(a));
	out[4 * i] = c;
	out[4 * i + 1] = w;
	out[4 * i + 2] = k;
	out[4 * i + 3] = warpSize * 2 + (i & 3);

	unsigned e0, e7, e31;
	asm volatile("mov.u32 %0, %%envreg0;" : "=r"(e0));
	asm volatile("mov.u32 %0, %%envreg7;" : "=r"(e7));
	asm volatile("mov.u32 %0, %%envreg31;" : "=r"(e31));
	unsigned long long t0, t1, t2;
	unsigned lo, hi;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	__nanosleep(500 + (i & 7) * 100);
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	asm volatile("nanosleep.u32 2000;");
	asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
	asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
	t2 = (unsigned long long)hi << 32 | lo;
	unsigned ok = 0;
	ok |= (e0 == 0 && e7 == 0 && e31 == 0) << 0;
	ok |= (t1 - t0 >= 500 + (i & 7) * 100) << 1;
	ok |= (t2 - t1 >= 2000) << 2;
	chk[i] = ok;
}
