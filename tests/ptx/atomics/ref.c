/* Reference for atomics: the final values of every contended location, which
 * do not depend on the order the atomics were applied in. inc/dec are applied
 * in thread order: all threads use one limit, so the sequence of old values is
 * the same whatever the order, and so is their sum. */
#include "../ref_common.h"

#define N 512
#define BLOCK 128

static uint32_t inc(uint32_t *p, uint32_t lim)
{
	uint32_t old = *p;
	*p = old >= lim ? 0 : old + 1;
	return old;
}

static uint32_t dec(uint32_t *p, uint32_t lim)
{
	uint32_t old = *p;
	*p = (old == 0 || old > lim) ? lim : old - 1;
	return old;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t xs[N];
	int32_t ai[8] = {0, 0, INT32_MAX, INT32_MIN, 5, 0, INT32_MIN, 0};
	uint32_t au[11] = {0, 0, 0, 20, 0, 0xffffffffu, 0, 0xffffffffu, 0, 0, 0};
	uint64_t aul[8] = {0, ~0ull, 0, ~0ull, 0, 0, 0, 0};
	int64_t asl[2] = {INT64_MAX, INT64_MIN};
	float af[2] = {0, 0};
	double ad[2] = {0, 0};
	static uint32_t seen[N];
	uint32_t bad = 0;
	static int32_t oi[24];
	static uint32_t ou[48];
	static uint64_t oul[12];
	static float of[4];
	static double od[4];

	REF_RANDOM_INT(int32_t, xs, N, 151, -1000, 1000);

	for (int gi = 0; gi < N; gi++) {
		int32_t x = xs[gi];
		uint32_t ux = (uint32_t)x * 2654435761u;
		uint64_t ul = ((uint64_t)ux << 32) | (uint32_t)(x * 7919);
		int64_t sx = (int64_t)x * 1000000007LL;
		ai[0] += x;
		ai[1] -= x;
		if (x < ai[2]) ai[2] = x;
		if (x > ai[3]) ai[3] = x;
		ai[5] += gi;			/* exch chain, folded by atom_global_fin */
		if (x * 3 + 1 > ai[6]) ai[6] = x * 3 + 1;
		ai[7] += x;
		au[0]++;
		au[2] += inc(&au[1], 100);
		au[4] += dec(&au[3], 50);
		if (ux < au[5]) au[5] = ux;
		if (ux > au[6]) au[6] = ux;
		au[7] &= ux | 0x11111111u;
		au[8] |= ux & 0x88888888u;
		au[9] ^= ux;
		au[10] ^= ux >> 3;
		aul[0] += ul >> 7;
		if (ul < aul[1]) aul[1] = ul;
		if (ul > aul[2]) aul[2] = ul;
		aul[3] &= ul | 0x0f0f0f0f0f0f0f0full;
		aul[4] |= ul & 0x4000400040004000ull;
		aul[5] ^= ul;
		if ((ul ^ 0x5555555555555555ull) > aul[6]) aul[6] = ul ^ 0x5555555555555555ull;
		aul[7] += ul;
		if (sx < asl[0]) asl[0] = sx;
		if (sx > asl[1]) asl[1] = sx;
		af[0] += (float)x * 0.25f;
		af[1] += 1.0f;
		ad[0] += (double)x * 0.125;
		ad[1] += 1.0;
		seen[gi] = 7;			/* three complete sets of tickets */
	}
	ai[4] += ai[5];
	ai[5] = 0;

	for (int b = 0; b < N / BLOCK; b++) {
		int32_t si[6] = {0, 0, INT32_MAX, INT32_MIN, -1, 0};
		uint32_t su[11] = {0, 3, 0, 0, 0, 0xffffffffu, 0, 0, 0, 0xffffffffu, 0};
		uint64_t sul[3] = {0, ~0ull, 0};
		float sf = 0;
		double sd = 0;
		for (int t = 0; t < BLOCK; t++) {
			int32_t x = xs[b * BLOCK + t];
			uint32_t ux = (uint32_t)x * 2246822519u;
			uint64_t ul = ((uint64_t)ux << 29) ^ (uint32_t)x;
			si[0] += x;
			si[1] -= x * 2;
			if (x < si[2]) si[2] = x;
			if (x > si[3]) si[3] = x;
			si[5] += t;
			su[0]++;
			su[2] += inc(&su[1], 37);
			su[4] += dec(&su[3], 9);
			if (ux < su[5]) su[5] = ux;
			if (ux > su[6]) su[6] = ux;
			su[7] |= ux & 0x01010101u;
			su[8] ^= ux;
			su[9] &= ux | 0x80808080u;
			su[10] += ux & 0xffff;
			sul[0] += ul;
			if (ul < sul[1]) sul[1] = ul;
			if (ul > sul[2]) sul[2] = ul;
			sf += (float)(x & 63) * 0.5f;
			sd += (double)x * 0.25;
		}
		int32_t *o = oi + 6 * b;
		o[0] = si[0]; o[1] = si[1]; o[2] = si[2]; o[3] = si[3];
		o[4] = si[4] + si[5];
		o[5] = si[0];
		for (int k = 0; k < 11; k++)
			ou[12 * b + k] = su[k];
		ou[12 * b + 11] = 1;
		for (int k = 0; k < 3; k++)
			oul[3 * b + k] = sul[k];
		of[b] = sf;
		od[b] = sd;
	}

	ref_write(argv[1], "ai", ai, sizeof ai);
	ref_write(argv[1], "au", au, sizeof au);
	ref_write(argv[1], "aul", aul, sizeof aul);
	ref_write(argv[1], "asl", asl, sizeof asl);
	ref_write(argv[1], "af", af, sizeof af);
	ref_write(argv[1], "ad", ad, sizeof ad);
	ref_write(argv[1], "seen", seen, sizeof seen);
	ref_write(argv[1], "bad", &bad, sizeof bad);
	ref_write(argv[1], "oi", oi, sizeof oi);
	ref_write(argv[1], "ou", ou, sizeof ou);
	ref_write(argv[1], "oul", oul, sizeof oul);
	ref_write(argv[1], "of", of, sizeof of);
	ref_write(argv[1], "od", od, sizeof od);
	return 0;
}
