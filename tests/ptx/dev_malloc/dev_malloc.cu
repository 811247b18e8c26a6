// Device malloc/free (the .extern .func malloc and free nvcc declares):
// blocks of per-thread sizes written and read back, kept across launches in
// a pointer table and freed by the next kernel, 16-byte alignment, NULL for
// a request larger than the heap, free(NULL). Pointers are output only as
// checks (1/true): their values are the implementation's.
extern "C" __global__ void fill(unsigned long long *table, unsigned *sum, unsigned *chk, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int len = (i % 5 + 1) * 3;
	unsigned *p = (unsigned *)malloc(len * sizeof(unsigned));
	unsigned ok = p != 0;
	ok |= ((unsigned long long)p % 16 == 0) << 1;
	unsigned s = 0;
	if (p) {
		for (int k = 0; k < len; k++)
			p[k] = (unsigned)(i * 1000 + k);
		for (int k = 0; k < len; k++)
			s += p[k];
	}
	void *huge = malloc(1ull << 40);
	ok |= (huge == 0) << 2;
	free(0);
	table[i] = (unsigned long long)p;
	sum[i] = s;
	chk[i] = ok;
}

extern "C" __global__ void drain(unsigned long long *table, unsigned *sum2, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned *p = (unsigned *)table[i];
	int len = (i % 5 + 1) * 3;
	unsigned s = 0;
	for (int k = len - 1; k >= 0; k--)
		s = s * 3 + p[k];
	free(p);
	// the space is free again: a new block fits
	unsigned *q = (unsigned *)malloc(64);
	if (q) {
		q[15] = s;
		s = q[15] + 1;
		free(q);
	}
	sum2[i] = s;
}
