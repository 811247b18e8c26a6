/* Reference for bit_count: population count, leading zeros, bit reverse,
 * find-first-set and bfind (.u/.s, .shiftamt) as the PTX ISA defines them. */
#include "../ref_common.h"

static unsigned popc64(uint64_t x)
{
	unsigned n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static unsigned clz(uint64_t x, int bits)
{
	unsigned n = 0;
	for (int i = bits - 1; i >= 0 && !((x >> i) & 1); i--)
		n++;
	return n;
}

static uint64_t brev(uint64_t x, int bits)
{
	uint64_t r = 0;
	for (int i = 0; i < bits; i++)
		if ((x >> i) & 1)
			r |= 1ull << (bits - 1 - i);
	return r;
}

/* bfind: position of the most significant non-sign bit; 0xffffffff if none. */
static uint32_t bfind(uint64_t a, int bits, int sgn, int shiftamt)
{
	int msb = bits - 1;
	if (bits == 32)
		a &= 0xffffffffu;
	if (sgn && ((a >> msb) & 1))
		a = ~a;
	uint32_t d = 0xffffffffu;
	for (int i = msb; i >= 0; i--)
		if ((a >> i) & 1) {
			d = (uint32_t)i;
			break;
		}
	if (shiftamt && d != 0xffffffffu)
		d = (uint32_t)msb - d;
	return d;
}

static unsigned ffs64(uint64_t x, int bits)
{
	for (int i = 0; i < bits; i++)
		if ((x >> i) & 1)
			return (unsigned)i + 1;
	return 0;
}

static void bitcount(const int64_t *in, uint32_t *out32, uint64_t *out64, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t x = (uint64_t)in[i];
		uint32_t lo = (uint32_t)x;
		uint32_t *o = out32 + 16 * i;
		o[0] = popc64(lo);
		o[1] = popc64(x);
		o[2] = clz(lo, 32);
		o[3] = clz(x, 64);
		o[4] = ffs64(lo, 32);
		o[5] = ffs64(x, 64);
		o[6] = bfind(x, 32, 0, 0);
		o[7] = bfind(x, 32, 1, 0);
		o[8] = bfind(x, 64, 0, 0);
		o[9] = bfind(x, 64, 1, 0);
		o[10] = bfind(x, 32, 0, 1);
		o[11] = bfind(x, 32, 1, 1);
		o[12] = bfind(x, 64, 0, 1);
		o[13] = (uint32_t)brev(lo, 32);
		o[14] = popc64(~lo) + clz(~lo, 32);
		o[15] = 0x5a5a5a5a;
		out64[i] = brev(x, 64);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int64_t rnd[192], small[64];
	static const int64_t edge[16] = {0, 1, -1, 2147483648LL, INT64_MIN, 4294967295LL,
		-4294967296LL, -INT64_MAX, INT64_MAX, 2147483647LL, 4294967296LL,
		6148914691236517205LL, -6148914691236517206LL, 128, -2147483648LL, 1099511627776LL};
	static uint32_t o32r[3072], o32s[1024], o32e[256];
	static uint64_t o64r[192], o64s[64], o64e[16];

	REF_RANDOM_INT(int64_t, rnd, 192, 31, INT64_MIN, INT64_MAX);
	REF_RANDOM_INT(int64_t, small, 64, 32, -70000, 70000);
	bitcount(rnd, o32r, o64r, 192);
	bitcount(small, o32s, o64s, 64);
	bitcount(edge, o32e, o64e, 16);
	ref_write(argv[1], "o32r", o32r, sizeof o32r);
	ref_write(argv[1], "o64r", o64r, sizeof o64r);
	ref_write(argv[1], "o32s", o32s, sizeof o32s);
	ref_write(argv[1], "o64s", o64s, sizeof o64s);
	ref_write(argv[1], "o32e", o32e, sizeof o32e);
	ref_write(argv[1], "o64e", o64e, sizeof o64e);
	return 0;
}
