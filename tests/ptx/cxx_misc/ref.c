/* Reference for cxx_misc: three repeats of flip::step with iter = 0, 1, 2 on the
 * same buffer, then scale<-3> on the result. */
#include "../ref_common.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	static int32_t data[256];
	static int64_t out[128];
	REF_RANDOM_INT(int32_t, data, 256, 191, -100000, 100000);
	for (int iter = 0; iter < 3; iter++)
		for (int i = 0; i < 256; i++) {
			int32_t v = data[i], s = 0;
			for (int k = 0; k <= (i & 7); k++)
				s += (v >> k) & 3;	/* gcc: >> is arithmetic */
			data[i] = v * 2 + s + iter * 1000;
		}
	for (int i = 0; i < 128; i++)
		out[i] = (int64_t)data[i] * -3;
	ref_write(argv[1], "data", data, sizeof data);
	ref_write(argv[1], "out", out, sizeof out);
	return 0;
}
