/* Reference for mem_ops: vector, narrow and generic-address memory traffic of
 * mem_ops.cu; shared-window offsets are checked as differences, the generic
 * round trips and isspacep as flags. */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static float a[512], oa[512];
	static int32_t b[256], ob[256], c[512], oc[512];
	static double d[256], od[256];
	static int8_t i8[128], o8[128];
	static uint8_t u8[128];
	static int16_t i16[128];
	static uint16_t u16[128], o16[128];
	static int64_t i64[128], o64[256];
	static int32_t o32[768], g[256], vol[256], gout[2048];

	ref_random_f32(a, 512, 141, -100, 100);
	REF_RANDOM_INT(int32_t, b, 256, 142, -500000000, 500000000);
	REF_RANDOM_INT(int32_t, c, 512, 143, -1000000, 1000000);
	ref_random_f64(d, 256, 144, -1000, 1000);
	for (int i = 0; i < 128; i++) {
		const float *x = a + 4 * i;
		float *ya = oa + 4 * i;
		ya[0] = x[3];
		ya[1] = x[0] + 1.0f;
		ya[2] = x[1] * 2.0f;
		ya[3] = -x[2];
		ob[2 * i] = b[2 * i + 1] - b[2 * i];
		ob[2 * i + 1] = b[2 * i] ^ i;
		const int32_t *z = c + 4 * i;
		oc[4 * i] = z[3];
		oc[4 * i + 1] = z[2] + z[1];
		oc[4 * i + 2] = z[0];
		oc[4 * i + 3] = i;
		od[2 * i] = d[2 * i + 1] * 0.5;
		od[2 * i + 1] = d[2 * i] - d[2 * i + 1];
	}

	REF_RANDOM_INT(int8_t, i8, 128, 145, -128, 127);
	REF_RANDOM_INT(uint8_t, u8, 128, 146, 0, 255);
	REF_RANDOM_INT(int16_t, i16, 128, 147, -32768, 32767);
	REF_RANDOM_INT(uint16_t, u16, 128, 148, 0, 65535);
	REF_RANDOM_INT(int64_t, i64, 128, 149, -4611686018427387904LL, 4611686018427387904LL);
	for (int i = 0; i < 128; i++) {
		o32[4 * i] = i8[i];
		o32[4 * i + 1] = u8[i];
		o32[4 * i + 2] = i16[i];
		o32[4 * i + 3] = u16[i];
		o8[i] = (int8_t)(i16[i] >> 4);	/* gcc: >> is arithmetic */
		o16[i] = (uint16_t)(u8[i] * 257 + i8[i]);
		o64[i] = i64[i] + i8[i] - (int64_t)u16[i] * 65536;
		o64[128 + i] = (int64_t)(int32_t)i64[i] ^ (int64_t)u16[i];
		o32[512 + 2 * i] = i8[i];
		o32[512 + 2 * i + 1] = i16[i];
	}

	REF_RANDOM_INT(int32_t, g, 256, 150, -1000, 1000);
	for (int gi = 0; gi < 256; gi++) {
		int t = gi % 128;
		int32_t sh = t * 10, old, old2, old3;
		if (t & 1) {		/* p points to shared */
			old = sh;
			sh = old * 3 + t;
		} else {		/* p points to global */
			old = g[gi];
			g[gi] = old * 3 + t;
		}
		old2 = sh;
		sh = old2 * 3 + 1;
		old3 = g[gi];
		g[gi] = old3 * 3 + 2;
		int32_t v = old + old2;
		vol[gi] = v * 2;
		int32_t *o = gout + 8 * gi;
		o[0] = old3;
		o[1] = sh;
		o[2] = 4 * t;
		o[3] = (t & 1) ? 1 : 2;
		o[4] = v;
		o[5] = old;
		o[6] = 4 * t;
		o[7] = 3;
	}

	ref_write(argv[1], "oa", oa, sizeof oa);
	ref_write(argv[1], "ob", ob, sizeof ob);
	ref_write(argv[1], "oc", oc, sizeof oc);
	ref_write(argv[1], "od", od, sizeof od);
	ref_write(argv[1], "o32", o32, sizeof o32);
	ref_write(argv[1], "o8", o8, sizeof o8);
	ref_write(argv[1], "o16", o16, sizeof o16);
	ref_write(argv[1], "o64", o64, sizeof o64);
	ref_write(argv[1], "g", g, sizeof g);
	ref_write(argv[1], "vol", vol, sizeof vol);
	ref_write(argv[1], "gout", gout, sizeof gout);
	return 0;
}
