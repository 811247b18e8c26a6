// Warp votes and block reductions: vote.sync.all/.any/.uni/.ballot and activemask,
// converged, in a partial last warp and inside divergent branches (member mask =
// the threads on that path); bar.red.popc/.and/.or (__syncthreads_count/and/or).

extern "C" __global__ void votes(const int *in, unsigned *out)
{
	int t = threadIdx.x;
	int gi = blockIdx.x * blockDim.x + t;
	int lane = t & 31;
	int v = in[gi];
	unsigned *o = out + 8 * gi;
	unsigned m = __activemask();		/* all threads of this warp that exist */

	o[0] = m;
	o[1] = __ballot_sync(m, v > 0);
	o[2] = __all_sync(m, v > -900) | __any_sync(m, v > 990) << 1 |
	       __uni_sync(m, lane < 40) << 2 | __uni_sync(m, lane < 8) << 3 |
	       __all_sync(m, lane >= 0) << 4 | __any_sync(m, v == 5000) << 5;

	unsigned odd = __ballot_sync(m, v & 1);
	unsigned r;
	if (v & 1) {
		unsigned a = __activemask();
		r = (a == odd) | __ballot_sync(odd, v > 0) << 1;
		r ^= __all_sync(odd, v > -500) << 31;
	} else {
		unsigned even = m & ~odd;
		r = __popc(__ballot_sync(even, lane > 10)) << 8;
		if (lane < 20) {
			unsigned inner = __activemask();
			r |= (inner == (even & 0x000fffffu)) << 16;
			r |= __any_sync(inner, v < -800) << 17;
		}
	}
	o[3] = r;

	/* loop with per-lane trip counts: the active set shrinks each round */
	unsigned trace = 0;
	for (int k = 0; k < (v & 7); k++)
		trace += __popc(__activemask()) << (k * 4 % 28);
	o[4] = trace;

	o[5] = __syncthreads_count(v > 0);
	o[6] = __syncthreads_and(v > -1000) | __syncthreads_or(v == 777) << 1 |
	       __syncthreads_or(v < 0) << 2 | __syncthreads_and(v < 0) << 3;
	o[7] = __ballot_sync(m, lane & 1) ^ __ballot_sync(m, 0);
}
