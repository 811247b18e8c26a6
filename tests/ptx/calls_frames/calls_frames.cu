// Recursive device functions whose activations hand pointers to their own
// local data to deeper calls: each activation must have a frame of its own.
struct node {
	int v;
	const node *next;
};

// The deepest call sums the values of every frame above it, through the
// chain of pointers to the callers' locals.
__device__ __noinline__ int walk(const node *prev, int n, int x)
{
	node me;
	me.v = n * n + x;
	me.next = prev;
	if (n > 0)
		return walk(&me, n - 1, x);
	int s = 0;
	for (const node *q = &me; q; q = q->next)
		s = s * 3 + q->v;
	return s;
}

// Each call writes into its caller's array and reads it after the deeper
// calls have returned.
__device__ __noinline__ int chain(int *up, int n, int seed)
{
	int a[4];
	for (int i = 0; i < 4; i++)
		a[i] = seed * 3 + i + n;
	int r = 0;
	if (n > 0)
		r = chain(a, n - 1, seed + 1);
	if (up)
		up[n & 3] += a[(n + 1) & 3];
	return r * 5 + a[0] + a[1] + a[2] + a[3] + (up ? up[0] : 0);
}

// Mutual recursion, each function with its own array.
__device__ __noinline__ int pong(int *p, int n);
__device__ __noinline__ int ping(int *p, int n)
{
	int b[3] = {n, n * 2, p ? p[1] : 7};
	int r = n > 0 ? pong(b, n - 1) : 1;
	if (p)
		p[0] ^= b[2] + r;
	return r + b[0] + b[1] + b[2];
}
__device__ __noinline__ int pong(int *p, int n)
{
	int c[2] = {p[0] + 1, n};
	int r = n > 0 ? ping(c, n - 1) : 2;
	p[1] += c[0] * 2 + c[1];
	return r * 3 + c[0];
}

extern "C" __global__ void frames(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	out[3 * i] = walk(0, x & 7, x >> 8);
	out[3 * i + 1] = chain(0, (x >> 3) & 7, x & 255);
	out[3 * i + 2] = ping(0, (x >> 6) & 7);
}
