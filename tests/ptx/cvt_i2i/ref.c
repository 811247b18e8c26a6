/* Reference for cvt_i2i: integer <-> integer cvt. The source value is the
 * low `abits` bits of the source register, sign-extended for signed source
 * types and zero-extended otherwise. With .sat it is clamped to the
 * destination range; without, its low `dbits` bits are kept. The result is
 * then sign-extended (signed destination types) or zero-extended to the
 * destination register width (16, 32 or 64 bits). */
#include "../ref_fp.h"

/* Kernel output order: { dbits, dsigned, abits, asigned, sat, register width } */
static const struct { int db, ds, ab, as, sat, reg; } ops[] = {
	{8, 0, 32, 1, 0, 32},
	{8, 1, 32, 1, 0, 32},
	{16, 0, 32, 1, 0, 32},
	{16, 1, 32, 0, 0, 32},
	{16, 1, 64, 0, 0, 32},
	{8, 0, 64, 0, 0, 32},
	{32, 1, 64, 1, 0, 32},
	{32, 0, 64, 0, 0, 32},
	{64, 1, 32, 1, 0, 64},
	{64, 0, 32, 1, 0, 64},
	{64, 1, 32, 0, 0, 64},
	{64, 0, 32, 0, 0, 64},
	{32, 1, 8, 1, 0, 32},
	{32, 0, 8, 0, 0, 32},
	{32, 1, 16, 1, 0, 32},
	{32, 0, 16, 0, 0, 32},
	{64, 1, 8, 1, 0, 64},
	{64, 0, 16, 1, 0, 64},
	{64, 1, 16, 0, 0, 64},
	{16, 1, 8, 1, 0, 16},
	{16, 0, 8, 0, 0, 16},
	{8, 1, 16, 1, 0, 16},
	{8, 0, 16, 1, 0, 16},
	{16, 1, 64, 1, 0, 16},
	{32, 0, 16, 1, 0, 32},
	{32, 1, 16, 0, 0, 32},
	{8, 0, 32, 1, 1, 32},
	{8, 1, 32, 1, 1, 32},
	{16, 0, 32, 1, 1, 32},
	{16, 1, 32, 1, 1, 32},
	{8, 1, 32, 0, 1, 32},
	{32, 0, 32, 1, 1, 32},
	{32, 1, 32, 0, 1, 32},
	{32, 1, 64, 1, 1, 32},
	{32, 0, 64, 1, 1, 32},
	{32, 0, 64, 0, 1, 32},
	{64, 1, 64, 0, 1, 64},
	{64, 0, 64, 1, 1, 64},
	{16, 1, 64, 1, 1, 32},
	{8, 0, 64, 0, 1, 32},
	{8, 1, 16, 1, 1, 16},
	{8, 0, 8, 1, 1, 32},
	{16, 0, 8, 1, 1, 16},
	{8, 1, 8, 0, 1, 32},
	{64, 0, 32, 1, 1, 64},
	{16, 0, 32, 0, 1, 16},
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Adversarial 64-bit sources: every boundary of every width, seen as the
 * low 8/16/32/64 bits, with both signs. */
static const uint64_t xv[64] = {
	0x0000000000000000, 0x0000000000000001, 0x000000000000007f, 0x0000000000000080,
	0x00000000000000ff, 0x0000000000000100, 0x000000000000017f, 0x0000000000000180,
	0x0000000000007fff, 0x0000000000008000, 0x000000000000ffff, 0x0000000000010000,
	0x0000000000017fff, 0x0000000000018000, 0x000000007fffffff, 0x0000000080000000,
	0x00000000ffffffff, 0x0000000100000000, 0x000000017fffffff, 0x0000000180000000,
	0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0xfffffffffffffffe,
	0xffffffffffffff80, 0xffffffffffffff7f, 0xffffffffffff8000, 0xffffffffffff7fff,
	0xffffffff80000000, 0xffffffff7fffffff, 0x00000000ffffff80, 0x00000000ffff8000,
	0xffffffff00000000, 0xffffffff000000ff, 0x123456789abcdef0, 0xfedcba9876543210,
	0x0000000012348765, 0x00000000fffe0001, 0x000000000000ff01, 0x00000000000080ff,
	0x000000000000007f, 0x000000000000007e, 0x00000000000000ff, 0x00000000000000fe,
	0x0000000000007fff, 0x0000000000007ffe, 0x000000000000ffff, 0x000000000000fffe,
	0xffffffffffffff81, 0xffffffffffffff01, 0xffffffffffff8001, 0xffffffffffff0001,
	0x80000000000000ff, 0x7fffffff00000080, 0x00000001ffffffff, 0x0000000080000001,
	0x00000000000000fe, 0x000000000000fffe, 0x00000000fffffffe, 0x8000000080008080,
	0x4000000040004040, 0x000000007fffff7f, 0xffffffff8000007f, 0x0000000000000003,
};

static uint64_t convert(uint64_t v, int db, int ds, int ab, int as, int sat, int reg)
{
	uint64_t am = ab == 64 ? ~0ull : (1ull << ab) - 1, dm = db == 64 ? ~0ull : (1ull << db) - 1;
	uint64_t x = v & am;
	int neg = as && ((x >> (ab - 1)) & 1);
	if (neg)
		x |= ~am;                            /* the source value, two's complement */
	uint64_t r;
	if (sat) {
		/* compare as signed 128-bit values */
		__int128 s = neg ? (__int128)(int64_t)x : (__int128)x;
		__int128 lo = ds ? -((__int128)1 << (db - 1)) : 0;
		__int128 hi = ds ? ((__int128)1 << (db - 1)) - 1 : ((__int128)1 << db) - 1;
		if (s < lo) s = lo;
		if (s > hi) s = hi;
		r = (uint64_t)s & dm;
	} else {
		r = x & dm;
	}
	if (ds && db < 64 && ((r >> (db - 1)) & 1))
		r |= ~dm;                            /* sign-extend */
	return reg == 64 ? r : r & ((1ull << reg) - 1);
}

enum { NXV = 64, NR = 1024, NT = NXV + 2 * NR };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	/* inputs in launch order: values, random bits, i64 in [-70000, 70000] */
	static uint64_t in[NT];
	static uint32_t w[2 * NR];
	static int64_t s[NR];
	memcpy(in, xv, sizeof xv);
	REF_RANDOM_INT(uint32_t, w, 2 * NR, 141, 0, 4294967295);
	for (int i = 0; i < NR; i++)
		in[NXV + i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	ref_random_i64(s, NR, 142, -70000, 70000);
	for (int i = 0; i < NR; i++)
		in[NXV + NR + i] = (uint64_t)s[i];
	static uint64_t out[NOPS * NT];
	for (int i = 0; i < NT; i++)
		for (size_t k = 0; k < NOPS; k++)
			out[k * NT + i] = convert(in[i], ops[k].db, ops[k].ds, ops[k].ab, ops[k].as, ops[k].sat, ops[k].reg);
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
