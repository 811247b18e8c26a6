// Warp shuffles shfl.sync .idx/.up/.down/.bfly: widths 32 and below, sources outside
// the segment (own value), the |p output (asm), 64-bit values, and divergent code
// with partial member masks that reads only active lanes.

#define FULL 0xffffffffu

extern "C" __global__ void shuffles(const int *in, int *out)
{
	int gi = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31;
	int v = in[gi];
	int *o = out + 14 * gi;

	o[0] = __shfl_sync(FULL, v, (lane * 7 + 3) & 31);
	o[1] = __shfl_sync(FULL, v, 40);		/* srcLane taken modulo the width */
	o[2] = __shfl_sync(FULL, v, lane + 2, 8);
	o[3] = __shfl_up_sync(FULL, v, 3);
	o[4] = __shfl_up_sync(FULL, v, 2, 16);
	o[5] = __shfl_down_sync(FULL, v, 5);
	o[6] = __shfl_down_sync(FULL, v, 3, 4);
	o[7] = __shfl_xor_sync(FULL, v, 1);
	o[8] = __shfl_xor_sync(FULL, v, 6, 8);
	o[9] = __shfl_xor_sync(FULL, v, 16, 8);	/* only later groups read earlier ones */

	long long w = ((long long)v * 1048576) ^ gi;
	long long wr = __shfl_sync(FULL, w, 31 - lane);
	o[10] = (int)(wr >> 20) ^ (int)wr;

	int r, p;
	asm("{ .reg .pred %%q;\n\t"
	    "shfl.sync.down.b32 %0|%%q, %2, 7, 0x1f, 0xffffffff;\n\t"
	    "selp.u32 %1, 1, 0, %%q; }" : "=r"(r), "=r"(p) : "r"(v));
	o[11] = r * 2 + p;

	if (lane < 16) {
		r = __shfl_xor_sync(0x0000ffffu, v, 1);
		r += __shfl_down_sync(0x0000ffffu, v, 4, 16);
		r ^= __shfl_sync(0x0000ffffu, v, 15 - lane);
	} else {
		r = __shfl_up_sync(0xffff0000u, v, 1, 16);
	}
	o[12] = r;
	if (lane & 1)
		r = __shfl_sync(0xaaaaaaaau, v * 3, (lane + 2) & 31);
	else
		r = -1;
	o[13] = r;
}
