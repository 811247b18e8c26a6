/* doomed_host — a host program on the simcore API whose every experiment
 * fails in host code, whatever its fault did: for the test that such a
 * campaign completes with every experiment a DUE of the right reason
 * (tests/engine/test_daemon.c). flipsim forks each experiment inside the
 * running program, so a process id that changed during the launch means
 * "I am an experiment"; the program then crashes (`segv`: SIGSEGV, DUE
 * crash:SIGSEGV) or hangs (`hang`: waits forever, DUE watchdog). The
 * fault-free run, and the replay that forks the experiments, end normally
 * and print the output's digest. Exits 2 on bad usage or input. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "simcore.h"

enum { N = 1024, BLOCK = 64 };

int main(int argc, char **argv)
{
	static uint32_t a[N], c[N];
	if (argc != 3 || (strcmp(argv[1], "segv") && strcmp(argv[1], "hang"))) {
		fprintf(stderr, "usage: doomed_host segv|hang VADD.ptx\n");
		return 2;
	}
	pid_t me = getpid();
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu;
	sc_module_t *mod;
	uint64_t da, dc;
	int32_t n = N;
	for (int i = 0; i < N; i++)
		a[i] = (uint32_t)i * 2654435761u;
	sc_config_gtx480(&cfg);
	if (sc_gpu_create(&cfg, NULL, &gpu) || sc_module_load_file(gpu, argv[2], &mod)) {
		fprintf(stderr, "doomed_host: cannot load %s\n", argv[2]);
		return 2;
	}
	if (sc_malloc(gpu, sizeof a, &da) || sc_malloc(gpu, sizeof c, &dc) || sc_memcpy_htod(gpu, da, a, sizeof a))
		return 1;
	void *args[] = {&da, &da, &dc, &n};
	int rc = sc_launch(gpu, mod, "vadd", (sc_dim3_t){N / BLOCK, 1, 1}, (sc_dim3_t){BLOCK, 1, 1}, 0, args);
	if (getpid() != me) { /* an experiment, whatever the launch returned */
		if (!strcmp(argv[1], "segv")) {
			signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn it into an exit */
			raise(SIGSEGV);
		}
		for (;;)
			pause();
	}
	if (rc || sc_memcpy_dtoh(gpu, c, dc, sizeof c))
		return 1;
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < sizeof c; i++)
		h = (h ^ ((const unsigned char *)c)[i]) * 0x100000001b3u;
	printf("doomed_host: c fnv1a %016llx\n", (unsigned long long)h);
	sc_gpu_destroy(gpu);
	return 0;
}
