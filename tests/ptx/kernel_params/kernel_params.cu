// Kernel parameters of every scalar size in a layout that needs padding: .u8/.u16
// (signed and unsigned char/short), .u32, .u64, .f32, .f64 and pointers (ld.param).

extern "C" __global__ void params(signed char c, unsigned char uc, short s, unsigned short us,
				  int i, double d, unsigned u, signed char c2, long long ll,
				  float f, unsigned long long ull, short s2, const int *p,
				  long long *out, double *outd, float *outf)
{
	int t = threadIdx.x;
	long long *o = out + 12 * t;
	o[0] = c;
	o[1] = uc;
	o[2] = s;
	o[3] = us;
	o[4] = i;
	o[5] = u;
	o[6] = c2 + t;
	o[7] = ll;
	o[8] = (long long)ull;
	o[9] = s2 * t;
	o[10] = p[t];
	o[11] = (long long)(c * uc) + (s ^ us) - (ll >> 3);
	outd[t] = d * (double)(t + 1);
	outf[t] = f + (float)t;
}
