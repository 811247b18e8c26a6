/* Reference for calls_frames: the recursive device functions of
 * calls_frames.cu, in C (each C activation has its own locals, as each
 * simulated one must). */
#include "../ref_common.h"

struct node {
	int v;
	const struct node *next;
};

static int walk(const struct node *prev, int n, int x)
{
	struct node me = {n * n + x, prev};
	if (n > 0)
		return walk(&me, n - 1, x);
	int s = 0;
	for (const struct node *q = &me; q; q = q->next)
		s = (int)((uint32_t)s * 3u + (uint32_t)q->v);
	return s;
}

static int chain(int *up, int n, int seed)
{
	int a[4];
	for (int i = 0; i < 4; i++)
		a[i] = seed * 3 + i + n;
	int r = n > 0 ? chain(a, n - 1, seed + 1) : 0;
	if (up)
		up[n & 3] += a[(n + 1) & 3];
	return (int)((uint32_t)r * 5u + (uint32_t)(a[0] + a[1] + a[2] + a[3] + (up ? up[0] : 0)));
}

static int pong(int *p, int n);
static int ping(int *p, int n)
{
	int b[3] = {n, n * 2, p ? p[1] : 7};
	int r = n > 0 ? pong(b, n - 1) : 1;
	if (p)
		p[0] ^= b[2] + r;
	return r + b[0] + b[1] + b[2];
}

static int pong(int *p, int n)
{
	int c[2] = {p[0] + 1, n};
	int r = n > 0 ? ping(c, n - 1) : 2;
	p[1] += c[0] * 2 + c[1];
	return (int)((uint32_t)r * 3u + (uint32_t)c[0]);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { N = 256 };
	static int32_t in[N], out[3 * N];
	REF_RANDOM_INT(int32_t, in, N, 177, 0, 1000000);
	for (int i = 0; i < N; i++) {
		int x = in[i];
		out[3 * i] = walk(NULL, x & 7, x >> 8);
		out[3 * i + 1] = chain(NULL, (x >> 3) & 7, x & 255);
		out[3 * i + 2] = ping(NULL, (x >> 6) & 7);
	}
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
