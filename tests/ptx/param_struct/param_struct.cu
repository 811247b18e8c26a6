// A struct passed to a kernel by value: .param .align 4 .b8 name[8], read field by
// field (ld.param.u32/.s16/.s8/.u8 at offsets), followed by scalar parameters.

struct packed8 {
	int x;
	short y;
	signed char z;
	unsigned char w;
};

extern "C" __global__ void byvalue(struct packed8 s, int k, int *out)
{
	int t = threadIdx.x;
	out[4 * t] = s.x * t;
	out[4 * t + 1] = s.y + k;
	out[4 * t + 2] = s.z - t;
	out[4 * t + 3] = s.w ^ t;
}
