/* Reference for addr_wrap32: what the kernels read and write through 32-bit
 * addresses that wrap modulo 2^32 (element i of each variable is reached at
 * its address - k + k + 4i). Unsigned arithmetic mirrors the kernel's. */
#include "../ref_common.h"

static const int32_t ctab[8] = {3, -5, 7, -11, 13, -17, 19, -23};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t in[128], out[1024], out2[1024];
	REF_RANDOM_INT(int32_t, in, 128, 3201, -1000000, 1000000);
	for (uint32_t b = 0; b < 2; b++) {
		uint32_t s[64];
		const int32_t *bi = in + 64 * b;
		for (uint32_t t = 0; t < 64; t++)
			s[t] = (uint32_t)bi[t];
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t *o = (uint32_t *)out + 8 * (64 * b + t);
			o[0] = s[1];
			o[1] = s[2 * (t >> 1)] - s[2 * (t >> 1) + 1];
			o[2] = s[(t + 1) & 63];                /* atom's old value */
			o[3] = s[t] + ((t + 63) & 63) + 1000;  /* atom from t-1, red */
			o[4] = (t & 1) ? 64 * b + t - 1 : t;   /* the v2 store of t & ~1 */
		}
	}
	for (uint32_t g = 0; g < 128; g++) {
		uint32_t buf[8], t = g & 63;
		for (uint32_t k = 0; k < 4; k++) {
			buf[2 * k] = g * k;
			buf[2 * k + 1] = g + k;
		}
		uint32_t *o = (uint32_t *)out2 + 8 * g;
		o[5] = buf[3] + buf[t & 7];
		o[6] = (uint32_t)ctab[t & 7];
		o[7] = (uint32_t)ctab[7];
	}
	ref_write(argv[1], "out", out, sizeof out);
	ref_write(argv[1], "out2", out2, sizeof out2);
	return 0;
}
