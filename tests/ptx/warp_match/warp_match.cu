// match.any.sync / match.all.sync .b32 .b64 (__match_any_sync, __match_all_sync,
// with match.all's predicate) and redux.sync .add .min .max (.u32 .s32) and
// .and .or .xor (.b32) (__reduce_*_sync), in full, partial and divergent warps.
// Built for sm_80 (redux.sync needs it).
extern "C" __global__ void matchk(const unsigned *keys, const unsigned long long *wide, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned k = keys[i];
	unsigned long long w = wide[i];
	unsigned act = __activemask();
	unsigned *o = out + 8 * i;
	int pred = 0;
	o[0] = __match_any_sync(act, k);
	o[1] = __match_all_sync(act, k, &pred);
	o[2] = pred;
	o[3] = __match_all_sync(act, k >> 8, &pred); // the high bits: all zero
	o[4] = pred;
	o[5] = __match_any_sync(act, w);
	o[6] = 0;
	o[7] = 0;
	if (k & 1) {
		unsigned sub = __activemask();
		o[6] = __match_any_sync(sub, w >> 1);
		o[7] = __match_all_sync(sub, w & 1, &pred) | (pred << 31);
	}
}

extern "C" __global__ void reduxk(const unsigned *vals, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned v = vals[i];
	unsigned act = __activemask();
	unsigned *o = out + 8 * i;
	o[0] = __reduce_add_sync(act, v);
	o[1] = __reduce_min_sync(act, v);
	o[2] = __reduce_max_sync(act, v);
	o[3] = (unsigned)__reduce_min_sync(act, (int)v);
	o[4] = (unsigned)__reduce_max_sync(act, (int)v);
	o[5] = __reduce_and_sync(act, v | 0x10u);
	o[6] = __reduce_or_sync(act, v & 0xf0u);
	o[7] = 0;
	if (v & 2) {
		unsigned sub = __activemask();
		o[7] = __reduce_xor_sync(sub, v) + __reduce_add_sync(sub, (int)v >> 4);
	}
}
