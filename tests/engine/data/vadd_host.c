/* vadd_host — the workload of vadd4k-iota.json as a host program on the
 * simcore API, for the test that a host program and a JSON workload give
 * the same outcomes for the same masks (tests/engine/test_hostrun.c).
 * Prints the output's FNV-1a digest; exits 3 after a DUE, 2 on bad input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simcore.h"

enum { N = 4096, BLOCK = 256 };

int main(int argc, char **argv)
{
	static float a[N], b[N], c[N];
	const char *ptx = argc > 1 ? argv[1] : "examples/vadd/vadd.ptx";
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu;
	sc_module_t *mod;
	uint64_t da, db, dc;
	int32_t n = N;

	for (int i = 0; i < N; i++) { /* as the JSON's iota: start + i * step, rounded once */
		a[i] = (float)(-1.0 + (double)i * 0.00048828125);
		b[i] = (float)(0.75 + (double)i * -0.000244140625);
	}
	sc_config_gtx480(&cfg);
	if (sc_gpu_create(&cfg, NULL, &gpu) || sc_module_load_file(gpu, ptx, &mod)) {
		fprintf(stderr, "vadd_host: cannot load %s\n", ptx);
		return 2;
	}
	if (sc_malloc(gpu, sizeof a, &da) || sc_malloc(gpu, sizeof b, &db) || sc_malloc(gpu, sizeof c, &dc) ||
	    sc_memcpy_htod(gpu, da, a, sizeof a) || sc_memcpy_htod(gpu, db, b, sizeof b))
		return 1;
	void *args[] = {&da, &db, &dc, &n};
	int rc = sc_launch(gpu, mod, "vadd", (sc_dim3_t){N / BLOCK, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0, args);
	if (rc == SC_EDUE) {
		fprintf(stderr, "vadd_host: DUE %s\n", sc_due_name(sc_gpu_status(gpu)->reason));
		return 3;
	}
	if (rc || sc_memcpy_dtoh(gpu, c, dc, sizeof c))
		return 1;
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < sizeof c; i++)
		h = (h ^ ((const unsigned char *)c)[i]) * 0x100000001b3u;
	printf("vadd_host: c fnv1a %016llx\n", (unsigned long long)h);
	if (getenv("VADD_HOST_PRINT_PID")) /* a nondeterministic program, for the test */
		printf("pid %ld\n", (long)getpid());
	sc_gpu_destroy(gpu);
	return 0;
}
