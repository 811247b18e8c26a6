/* Reference for warp_match: match.any/all and redux.sync as the PTX ISA
 * defines them, over the lanes of each warp that take part (threads below
 * n; in the divergent parts, those whose condition holds). */
#include "../ref_common.h"

enum { N = 256 };

/* The lanes of warp w (threads 32w..32w+31) below n, as a mask. */
static uint32_t live(int w, int n)
{
	uint32_t m = 0;
	for (int l = 0; l < 32; l++)
		m |= (uint32_t)(32 * w + l < n) << l;
	return m;
}

static uint32_t any_of(const uint64_t *v, int base, uint32_t act, uint64_t x)
{
	uint32_t m = 0;
	for (int l = 0; l < 32; l++)
		if ((act >> l & 1) && v[base + l] == x)
			m |= 1u << l;
	return m;
}

/* match.all: act when every lane in act holds the same value, else 0. */
static uint32_t all_of(const uint64_t *v, int base, uint32_t act, int *pred)
{
	int first = __builtin_ctz(act);
	*pred = 1;
	for (int l = 0; l < 32; l++)
		if ((act >> l & 1) && v[base + l] != v[base + first])
			*pred = 0;
	return *pred ? act : 0;
}

static void matchk(const uint32_t *keys, const uint64_t *wide, uint32_t *out, int n)
{
	static uint64_t k[N], k8[N], w[N], w1[N], wlo[N];
	for (int i = 0; i < N; i++) {
		k[i] = keys[i];
		k8[i] = keys[i] >> 8;
		w[i] = wide[i];
		w1[i] = wide[i] >> 1;
		wlo[i] = wide[i] & 1;
	}
	for (int wp = 0; wp < N / 32; wp++) {
		uint32_t act = live(wp, n), odd = 0;
		int b = 32 * wp;
		for (int l = 0; l < 32; l++)
			odd |= (uint32_t)((act >> l & 1) && (keys[b + l] & 1)) << l;
		for (int l = 0; l < 32; l++) {
			if (!(act >> l & 1))
				continue;
			uint32_t *o = out + 8 * (b + l);
			int pred;
			o[0] = any_of(k, b, act, k[b + l]);
			o[1] = all_of(k, b, act, &pred);
			o[2] = (uint32_t)pred;
			o[3] = all_of(k8, b, act, &pred);
			o[4] = (uint32_t)pred;
			o[5] = any_of(w, b, act, w[b + l]);
			if (odd >> l & 1) {
				o[6] = any_of(w1, b, odd, w1[b + l]);
				o[7] = all_of(wlo, b, odd, &pred) | (uint32_t)pred << 31;
			}
		}
	}
}

static void reduxk(const uint32_t *vals, uint32_t *out, int n)
{
	for (int wp = 0; wp < N / 32; wp++) {
		uint32_t act = live(wp, n), sub = 0;
		int b = 32 * wp;
		uint32_t add = 0, mn = UINT32_MAX, mx = 0, an = ~0u, orr = 0, xr = 0, sadd = 0;
		int32_t smn = INT32_MAX, smx = INT32_MIN;
		for (int l = 0; l < 32; l++) {
			if (!(act >> l & 1))
				continue;
			uint32_t v = vals[b + l];
			add += v;
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
			smn = (int32_t)v < smn ? (int32_t)v : smn;
			smx = (int32_t)v > smx ? (int32_t)v : smx;
			an &= v | 0x10u;
			orr |= v & 0xf0u;
			if (v & 2) {
				sub |= 1u << l;
				xr ^= v;
				sadd += (uint32_t)((int32_t)v >> 4);
			}
		}
		for (int l = 0; l < 32; l++) {
			if (!(act >> l & 1))
				continue;
			uint32_t *o = out + 8 * (b + l);
			o[0] = add;
			o[1] = mn;
			o[2] = mx;
			o[3] = (uint32_t)smn;
			o[4] = (uint32_t)smx;
			o[5] = an;
			o[6] = orr;
			o[7] = sub >> l & 1 ? xr + sadd : 0;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static uint32_t keys[N], vals[N], mout[N * 8], rout[N * 8];
	static uint64_t wide[N];
	REF_RANDOM_INT(uint32_t, keys, N, 61, 0, 5);
	REF_RANDOM_INT(uint64_t, wide, N, 62, 0, 7);
	REF_RANDOM_INT(uint32_t, vals, N, 63, 0, 4294967295ll);
	matchk(keys, wide, mout, 200);
	reduxk(vals, rout, 231);
	ref_write(argv[1], "mout", mout, sizeof mout);
	ref_write(argv[1], "rout", rout, sizeof rout);
	return 0;
}
