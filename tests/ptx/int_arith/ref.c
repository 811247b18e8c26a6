/* Reference for int_arith: the 32- and 64-bit integer operations of
 * int_arith.cu, computed with PTX semantics (wrapping, truncating division). */
#include "../ref_common.h"

#define NR32 32
#define NR64 16

typedef unsigned __int128 u128;
typedef __int128 s128;

static int32_t sra32(int32_t x, unsigned n) { return x < 0 ? ~(~x >> n) : x >> n; }
static int64_t sra64(int64_t x, unsigned n) { return x < 0 ? ~(~x >> n) : x >> n; }

/* 24-bit operands: low 24 bits, sign- or zero-extended; 48-bit product. */
static uint64_t mul24(uint32_t a, uint32_t b, int sgn)
{
	int64_t x = a & 0xffffff, y = b & 0xffffff;
	if (sgn) {
		if (x & 0x800000) x -= 0x1000000;
		if (y & 0x800000) y -= 0x1000000;
	}
	return (uint64_t)(x * y);
}

static void arith32(const int32_t *pa, const int32_t *pb, const int32_t *pc, uint32_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		int32_t a = pa[i], b = pb[i], c = pc[i];
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b, uc = (uint32_t)c;
		uint32_t *o = out + i * NR32;
		uint64_t ws = (uint64_t)((int64_t)a * b);
		uint64_t wu = (uint64_t)ua * ub;
		o[0] = ua + ub;
		o[1] = ua - ub;
		o[2] = ua * ub;
		o[3] = (uint32_t)(ws >> 32);
		o[4] = (uint32_t)(wu >> 32);
		o[5] = (uint32_t)ws;
		o[6] = (uint32_t)(ws >> 32);
		o[7] = (uint32_t)wu;
		o[8] = (uint32_t)(wu >> 32);
		o[9] = ua * ub + uc;
		o[10] = (uint32_t)(ws >> 32) + uc;
		o[11] = (uint32_t)(wu >> 32) + uc;
		uint64_t ms = ws + (uint64_t)((int64_t)c * (1 << 20));
		o[12] = (uint32_t)ms;
		o[13] = (uint32_t)(ms >> 32);
		uint64_t mu = wu + ~(uint64_t)uc;
		o[14] = (uint32_t)mu;
		o[15] = (uint32_t)(mu >> 32);
		o[16] = (uint32_t)mul24(ua, ub, 1);
		o[17] = (uint32_t)mul24(ua, ub, 0);
		o[18] = (uint32_t)(mul24(ua, ub, 1) >> 16);
		o[19] = (uint32_t)(mul24(ua, ub, 0) >> 16);
		o[20] = (uint32_t)mul24(ua, ub, 1) + uc;
		o[21] = (uint32_t)(mul24(ua, ub, 0) >> 16) + uc;
		o[22] = uc + (a < b ? ub - ua : ua - ub);
		o[23] = uc + (ua < ub ? ub - ua : ua - ub);
		int32_t d = sra32(b, ub & 31);
		if (d == 0 || d == -1)
			d = 7;
		uint32_t ud = ub >> (ua & 31);
		if (ud == 0)
			ud = 5;
		o[24] = (uint32_t)(a / d);
		o[25] = (uint32_t)(a % d);
		o[26] = ua / ud;
		o[27] = ua % ud;
		o[28] = a < 0 ? 0u - ua : ua;
		o[29] = 0u - ua;
		int32_t mn = a < b ? a : b, mx = b > c ? b : c;
		o[30] = (uint32_t)mn ^ (uint32_t)mx;
		uint32_t umn = ua < ub ? ua : ub, umx = ub > uc ? ub : uc;
		o[31] = umn ^ (umx << 1);
	}
}

static void arith64(const int64_t *pa, const int64_t *pb, uint64_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		int64_t a = pa[i], b = pb[i];
		uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
		uint64_t *o = out + i * NR64;
		o[0] = ua + ub;
		o[1] = ua - ub;
		o[2] = ua * ub;
		o[3] = (uint64_t)(((s128)a * b) >> 64);
		o[4] = (uint64_t)(((u128)ua * ub) >> 64);
		int64_t d = sra64(b, ub & 63);
		if (d == 0 || d == -1)
			d = 11;
		uint64_t ud = ub >> (ua & 63);
		if (ud == 0)
			ud = 13;
		o[5] = (uint64_t)(a / d);
		o[6] = (uint64_t)(a % d);
		o[7] = ua / ud;
		o[8] = ua % ud;
		o[9] = a < 0 ? 0 - ua : ua;
		o[10] = 0 - ua;
		o[11] = (uint64_t)(a < b ? a : b);
		o[12] = (uint64_t)(a > b ? a : b);
		o[13] = ua < ub ? ua : ub;
		o[14] = ua > ub ? ua : ub;
		o[15] = ua * ub + (ua ^ ub);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t a32[256], b32[256], c32[256];
	static uint32_t out32[256 * NR32], out32e[16 * NR32];
	static const int32_t a32e[16] = {0, 1, -1, INT32_MIN, INT32_MAX, 8388607, 8388608, 16777215,
		-8388608, 12345, -12345, 65536, 65535, 1073741824, 7, -7};
	static const int32_t b32e[16] = {5, -1, -1, INT32_MIN, INT32_MAX, 8388607, -8388609, 16777215,
		3, INT32_MIN, 99, -65536, 65535, 1073741824, -7, INT32_MAX};
	static const int32_t c32e[16] = {0, -1, 1, INT32_MAX, INT32_MIN, 100, -100, 0,
		1, -1, 1000000, 0, -65535, 3, 5, INT32_MIN};
	static int64_t a64[128], b64[128];
	static uint64_t out64[128 * NR64], out64e[8 * NR64];
	static const int64_t a64e[8] = {0, -1, INT64_MIN, INT64_MAX, 4294967296LL, -4294967295LL,
		123456789012LL, 3};
	static const int64_t b64e[8] = {1, INT64_MIN, INT64_MIN, -1, 4294967295LL, 4294967296LL,
		-10, INT64_MAX};

	REF_RANDOM_INT(int32_t, a32, 256, 11, INT32_MIN, INT32_MAX);
	REF_RANDOM_INT(int32_t, b32, 256, 12, INT32_MIN, INT32_MAX);
	REF_RANDOM_INT(int32_t, c32, 256, 13, INT32_MIN, INT32_MAX);
	REF_RANDOM_INT(int64_t, a64, 128, 14, INT64_MIN, INT64_MAX);
	REF_RANDOM_INT(int64_t, b64, 128, 15, INT64_MIN, INT64_MAX);

	arith32(a32, b32, c32, out32, 256);
	arith32(a32e, b32e, c32e, out32e, 16);
	arith64(a64, b64, out64, 128);
	arith64(a64e, b64e, out64e, 8);

	ref_write(argv[1], "out32", out32, sizeof out32);
	ref_write(argv[1], "out32e", out32e, sizeof out32e);
	ref_write(argv[1], "out64", out64, sizeof out64);
	ref_write(argv[1], "out64e", out64e, sizeof out64e);
	return 0;
}
