/* golden_host — host programs on the simcore API whose golden run (or
 * output) puts flipsim's limits to the test (tests/engine/test_hostrun.c):
 *   hang PTX          runs vadd, prints its digest, then never exits
 *   background PTX    runs vadd, leaves a child running that holds stdout,
 *                     stderr and flipsim's result channel open, exits 0
 *   spin SPIN_PTX     launches tests/engine/data/spin.ptx: never ends
 *   big PTX MIB       runs vadd, then prints MIB MiB of text to stdout
 *   cat PTX FILE      runs vadd, then prints FILE (an input to edit)
 * Exits 3 after a DUE, 2 on bad usage or input. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simcore.h"

enum { N = 1024, BLOCK = 64 };

static int usage(void)
{
	fprintf(stderr, "usage: golden_host hang|background|spin PTX | big PTX MIB | cat PTX FILE\n");
	return 2;
}

/* vadd on a (a + a) into c; prints c's digest. 0, or an exit status. */
static int vadd(sc_gpu_t *gpu, sc_module_t *mod)
{
	static uint32_t a[N], c[N];
	uint64_t da, dc;
	int32_t n = N;
	for (int i = 0; i < N; i++)
		a[i] = (uint32_t)i * 2654435761u;
	if (sc_malloc(gpu, sizeof a, &da) || sc_malloc(gpu, sizeof c, &dc) || sc_memcpy_htod(gpu, da, a, sizeof a))
		return 1;
	void *args[] = {&da, &da, &dc, &n};
	if (sc_launch(gpu, mod, "vadd", (sc_dim3_t){N / BLOCK, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0, args))
		return 3;
	if (sc_memcpy_dtoh(gpu, c, dc, sizeof c))
		return 1;
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < sizeof c; i++)
		h = (h ^ ((const unsigned char *)c)[i]) * 0x100000001b3u;
	printf("golden_host: c fnv1a %016llx\n", (unsigned long long)h);
	return 0;
}

static int spin(sc_gpu_t *gpu, sc_module_t *mod)
{
	uint64_t dout;
	if (sc_malloc(gpu, 32 * sizeof(uint32_t), &dout))
		return 1;
	void *args[] = {&dout};
	if (sc_launch(gpu, mod, "spin", (sc_dim3_t){1, 1, 1}, (sc_dim3_t){32, 1, 1}, 0, args)) {
		fprintf(stderr, "golden_host: DUE %s\n", sc_due_name(sc_gpu_status(gpu)->reason));
		return 3;
	}
	return 0;
}

static int big(long mib)
{
	static char line[65];
	for (long i = 0; i < mib * 16384; i++) { /* 64-byte lines */
		snprintf(line, sizeof line, "%063ld\n", i);
		fputs(line, stdout);
	}
	return 0;
}

static int cat(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 2;
	int ch;
	while ((ch = getc(f)) != EOF)
		putchar(ch);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return usage();
	const char *mode = argv[1];
	bool extra = !strcmp(mode, "big") || !strcmp(mode, "cat");
	if (argc != (extra ? 4 : 3))
		return usage();
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu;
	sc_module_t *mod;
	sc_config_gtx480(&cfg);
	if (sc_gpu_create(&cfg, NULL, &gpu) || sc_module_load_file(gpu, argv[2], &mod)) {
		fprintf(stderr, "golden_host: cannot load %s\n", argv[2]);
		return 2;
	}
	int rc = !strcmp(mode, "spin") ? spin(gpu, mod) : vadd(gpu, mod);
	if (rc)
		return rc;
	sc_gpu_destroy(gpu);
	if (!strcmp(mode, "big"))
		return big(atol(argv[3]));
	if (!strcmp(mode, "cat"))
		return cat(argv[3]);
	fflush(stdout);
	if (!strcmp(mode, "background") && fork() == 0) {
		sleep(600); /* a child left behind, holding every descriptor */
		_exit(0);
	}
	if (!strcmp(mode, "hang"))
		for (;;)
			pause();
	return 0;
}
