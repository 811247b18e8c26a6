/* Reference for fp_divsqrt: IEEE div/sqrt/rcp in every rounding mode, f32
 * (with and without .ftz) and f64, with host IEEE arithmetic. */
#include "../ref_fp.h"

enum { DIV, SQRT, RCP };

/* Kernel output order: div, sqrt, rcp; each .rn .rz .rm .rp, then .ftz. */
#define K32 24
#define K64 12

static const uint32_t xa32[32] = {
	0x00000000, 0x80000000, 0x00000001, 0x00000003, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000,
	0x3f800002, 0x3f7fffff, 0x40000000, 0xc0400000, 0x40400000, 0x40a00000, 0x41200000, 0x3eaaaaab,
	0x40490fdb, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x00400000, 0x3f000000, 0x4b000000, 0x0c000000,
	0x72000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x3fb504f3, 0x40800000, 0x3c23d70a, 0x4e6e6b28,
};
static const uint64_t xa64[32] = {
	0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x0000000000000003,
	0x800fffffffffffff, 0x0010000000000000, 0x3ff0000000000000, 0xbff0000000000000,
	0x3ff0000000000001, 0x3fefffffffffffff, 0x4000000000000000, 0xc008000000000000,
	0x4008000000000000, 0x4014000000000000, 0x4024000000000000, 0x3fd5555555555555,
	0x400921fb54442d18, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000,
	0x0008000000000000, 0x3fe0000000000000, 0x4330000000000000, 0x20b0000000000000,
	0x6570000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
	0x3ff6a09e667f3bcd, 0x4010000000000000, 0x3f847ae147ae147b, 0x41cdcd6500000000,
};

static float op32(int op, float x, float y, int m)
{
	switch (op) {
	case DIV: return div32(x, y, m);
	case SQRT: return sqrt32(x, m);
	default: return div32(1.0f, x, m);
	}
}

static void run32(const uint32_t *a, const uint32_t *b, uint32_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		float x0 = u2f(a[i & ma]), y0 = u2f(b[(i >> sb) & mb]);
		for (int k = 0; k < K32; k++) {
			int op = k / 8, ftz = (k / 4) & 1, m = k % 4;
			float x = ftz ? ftz32(x0) : x0, y = ftz ? ftz32(y0) : y0;
			float r = op32(op, x, y, m);
			if (ftz) {
				/* no result may round up to the smallest normal from below */
				REF_CHECK(!(fabsf(r) == 0x1p-126f && fabsf(op32(op, x, y, RZ)) < 0x1p-126f));
				r = ftz32(r);
			}
			out[k * n + i] = canon32(r);
		}
	}
}

static void run64(const uint64_t *a, const uint64_t *b, uint64_t *out, uint32_t n,
                  uint32_t ma, uint32_t sb, uint32_t mb)
{
	for (uint32_t i = 0; i < n; i++) {
		double x = u2d(a[i & ma]), y = u2d(b[(i >> sb) & mb]);
		for (int k = 0; k < K64; k++) {
			int op = k / 4, m = k % 4;
			double r = op == DIV ? div64(x, y, m) : op == SQRT ? sqrt64(x, m) : div64(1.0, x, m);
			out[k * n + i] = canon64(r);
		}
	}
}

static void random_bits64(uint64_t *out, size_t n, uint64_t seed)
{
	uint32_t *w = malloc(8 * n);
	REF_RANDOM_INT(uint32_t, w, 2 * n, seed, 0, 4294967295);
	for (size_t i = 0; i < n; i++)
		out[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
	free(w);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	enum { NX = 1024, NR = 2048 };
	static uint32_t r1a[NR], r1b[NR], r2a[NR], r2b[NR];
	static uint64_t d1a[NR], d1b[NR], d2a[NR], d2b[NR];
	static float f[NR];
	static double d[NR];
	ref_random_f32(f, NR, 51, 0.0, 8.0); for (int i = 0; i < NR; i++) r1a[i] = f2u(f[i]);
	ref_random_f32(f, NR, 52, -4.0, 4.0); for (int i = 0; i < NR; i++) r1b[i] = f2u(f[i]);
	REF_RANDOM_INT(uint32_t, r2a, NR, 53, 0, 4294967295);
	REF_RANDOM_INT(uint32_t, r2b, NR, 54, 0, 4294967295);
	ref_random_f64(d, NR, 55, 0.0, 8.0); for (int i = 0; i < NR; i++) d1a[i] = d2u(d[i]);
	ref_random_f64(d, NR, 56, -4.0, 4.0); for (int i = 0; i < NR; i++) d1b[i] = d2u(d[i]);
	random_bits64(d2a, NR, 57);
	random_bits64(d2b, NR, 58);

	static uint32_t o32x[K32 * NX], o32r1[K32 * NR], o32r2[K32 * NR];
	static uint64_t o64x[K64 * NX], o64r1[K64 * NR], o64r2[K64 * NR];
	run32(xa32, xa32, o32x, NX, 31, 5, 31);
	run32(r1a, r1b, o32r1, NR, NR - 1, 0, NR - 1);
	run32(r2a, r2b, o32r2, NR, NR - 1, 0, NR - 1);
	run64(xa64, xa64, o64x, NX, 31, 5, 31);
	run64(d1a, d1b, o64r1, NR, NR - 1, 0, NR - 1);
	run64(d2a, d2b, o64r2, NR, NR - 1, 0, NR - 1);
	ref_write(argv[1], "o32x", o32x, sizeof o32x);
	ref_write(argv[1], "o32r1", o32r1, sizeof o32r1);
	ref_write(argv[1], "o32r2", o32r2, sizeof o32r2);
	ref_write(argv[1], "o64x", o64x, sizeof o64x);
	ref_write(argv[1], "o64r1", o64r1, sizeof o64r1);
	ref_write(argv[1], "o64r2", o64r2, sizeof o64r2);
	return 0;
}
