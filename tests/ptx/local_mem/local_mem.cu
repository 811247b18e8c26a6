// Local memory: per-thread arrays indexed by runtime values (__local_depot,
// ld.local/st.local, %SPL), in a kernel and in a __noinline__ function reached
// through a generic pointer (cvta.local).

__device__ __noinline__ int histo_max(const int *v, int n)
{
	int h[16];
	for (int k = 0; k < 16; k++)
		h[k] = 0;
#pragma unroll 1
	for (int k = 0; k < n; k++)
		h[v[k] & 15]++;
	int best = 0;
	for (int k = 1; k < 16; k++)
		if (h[k] > h[best])
			best = k;
	return best * 100 + h[best];
}

extern "C" __global__ void localmem(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a[24];
	unsigned long long w[6];
#pragma unroll 1
	for (int k = 0; k < 24; k++)
		a[k] = in[(i * 7 + k * 13) % n];
	for (int k = 0; k < 6; k++)
		w[k] = 0;
	/* runtime indices: a permutation walk through the array */
	int idx = in[i] & 31;
	int s = 0;
#pragma unroll 1
	for (int k = 0; k < 40; k++) {
		idx = (idx * 5 + a[idx % 24]) & 1023;
		s += a[idx % 24];
		a[(idx >> 3) % 24] ^= k;
		w[idx % 6] += (unsigned)idx;
	}
	out[4 * i] = s;
	out[4 * i + 1] = histo_max(a, 24);
	out[4 * i + 2] = (int)(w[i % 6] ^ (w[(i + 1) % 6] << 3));
	out[4 * i + 3] = a[in[i] & 15];
}
