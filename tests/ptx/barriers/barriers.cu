// Named barriers: producer/consumer warp pairs on bar.sync/bar.arrive with
// barrier ids and thread counts (immediates for one pair, registers for the
// other), then barrier.sync, bar.sync 0 (__syncthreads) and bar.warp.sync.

__device__ __forceinline__ void wait_bar(int pair, int id0, int id1)
{
	if (pair == 0) {
		if (id0 == 1)
			asm volatile("bar.sync 1, 64;" ::: "memory");
		else
			asm volatile("bar.sync 2, 64;" ::: "memory");
	} else {
		asm volatile("bar.sync %0, %1;" :: "r"(id1), "r"(64) : "memory");
	}
}

__device__ __forceinline__ void arrive_bar(int pair, int id0, int id1)
{
	if (pair == 0) {
		if (id0 == 1)
			asm volatile("bar.arrive 1, 64;" ::: "memory");
		else
			asm volatile("bar.arrive 2, 64;" ::: "memory");
	} else {
		asm volatile("bar.arrive %0, %1;" :: "r"(id1), "r"(64) : "memory");
	}
}

extern "C" __global__ void pipeline(const int *in, int *out)
{
	__shared__ int buf[2][32];
	__shared__ int res[128];
	int t = threadIdx.x, warp = t >> 5, lane = t & 31, pair = warp >> 1;
	const int *src = in + blockIdx.x * 256 + pair * 128;
	int acc = 0;

	if ((warp & 1) == 0) {			/* producer: fills buf, signals "full" */
		for (int r = 0; r < 4; r++) {
			if (r > 0)
				wait_bar(pair, 2, 4);	/* "free": consumer is done */
			buf[pair][lane] = src[r * 32 + lane] * (r + 1);
			arrive_bar(pair, 1, 3);
		}
	} else {				/* consumer */
		for (int r = 0; r < 4; r++) {
			wait_bar(pair, 1, 3);
			acc += buf[pair][(lane + r) & 31];
			if (r < 3)
				arrive_bar(pair, 2, 4);
		}
	}
	res[t] = acc;
	asm volatile("barrier.sync 0;" ::: "memory");
	int other = res[t ^ 32];
	__syncthreads();
	res[t] = other + lane;
	__syncwarp();
	int v = res[t ^ 1];
	int gi = blockIdx.x * blockDim.x + t;
	out[2 * gi] = acc;
	out[2 * gi + 1] = v;
}
