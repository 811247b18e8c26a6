/* fuzz_ptx — libFuzzer harness for the PTX front end: each input is loaded
 * with sc_module_load_text in ptx and in alloc register mode (lexer, parser,
 * checks, lowering, liveness and allocation), and when it loads, its first
 * kernel runs one small CTA under a cycle budget. A DUE is a result; only a
 * crash, leak, sanitizer report or hang is a finding. Design:
 * tests/fuzz/README.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

#define BUDGET 20000    /* cycles: turns endless loops into DUE timeout */
#define ARENA 65536     /* bytes every pointer-sized argument points into */
#define MAXPARAMS 64

/* Runs the module's first kernel on a 1x1x1 grid of 32 threads; every
 * 8-byte parameter is the device address of a zeroed arena, others zero. */
static void run_first(sc_gpu_t *gpu, sc_module_t *mod)
{
	const char *k = sc_kernel_name(mod, 0);
	uint32_t n = 0;
	const uint32_t *sizes = NULL;
	if (!k || sc_kernel_params(mod, k, &n, &sizes) || n > MAXPARAMS)
		return;
	uint64_t arena = 0;
	if (sc_malloc(gpu, ARENA, &arena) || sc_memset(gpu, arena, 0, ARENA))
		return;
	static uint8_t vals[MAXPARAMS][256];
	void *args[MAXPARAMS];
	for (uint32_t i = 0; i < n; i++) {
		if (sizes[i] > sizeof vals[i])
			goto out; /* a large struct parameter: not worth the launch */
		memset(vals[i], 0, sizeof vals[i]);
		if (sizes[i] == 8)
			memcpy(vals[i], &arena, 8);
		args[i] = vals[i];
	}
	sc_dim3_t grid = {1, 1, 1}, block = {32, 1, 1};
	(void)sc_launch(gpu, mod, k, grid, block, 0, args);
out:
	(void)sc_free(gpu, arena);
}

static void load(const char *text, sc_regs_t regs, int run)
{
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_options_t opt = {.cycle_budget = BUDGET, .regs = regs};
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod = NULL;
	if (sc_gpu_create(&cfg, &opt, &gpu))
		abort();
	int rc = sc_module_load_text(gpu, "fuzz.ptx", text, &mod);
	if (rc == 0 && run)
		run_first(gpu, mod);
	else if (rc != 0 && !sc_gpu_errmsg(gpu)[0])
		abort(); /* every refusal says why */
	sc_gpu_destroy(gpu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	load(text, SC_REGS_PTX, 0);
	load(text, SC_REGS_ALLOC, 1);
	free(text);
	return 0;
}
