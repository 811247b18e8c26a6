/* fuzz_load — what each harness does with one input, shared by the
 * libFuzzer harnesses and the regression suite (test_regress.c), so a
 * minimized finding replays exactly. Design: tests/fuzz/README.md. */
#include "fuzz_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaigns.h"
#include "fuzz_common.h"

#define BUDGET 20000    /* cycles: turns endless loops into DUE timeout */
#define ARENA 65536     /* bytes every pointer-sized argument points into */
#define MAXPARAMS 64
#define FILL_MAX (1u << 20) /* bytes: larger buffers are not filled */

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
	if (sc_malloc(gpu, ARENA, &arena))
		return;
	if (sc_memset(gpu, arena, 0, ARENA))
		goto out;
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

static int ptx_one(const char *text, sc_regs_t regs, int run, char *err, size_t errsz)
{
	sc_gpu_config_t cfg;
	sc_config_gtx480(&cfg);
	sc_options_t opt = {.cycle_budget = BUDGET, .regs = regs};
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod = NULL;
	int rc = sc_gpu_create(&cfg, &opt, &gpu);
	if (rc) {
		snprintf(err, errsz, "sc_gpu_create: %s", sc_strerror(rc));
		return FZ_BROKEN;
	}
	rc = sc_module_load_text(gpu, "fuzz.ptx", text, &mod);
	snprintf(err, errsz, "%s", rc ? sc_gpu_errmsg(gpu) : "");
	if (rc == 0 && run)
		run_first(gpu, mod);
	else if (rc != 0 && !err[0])
		rc = FZ_BROKEN; /* every refusal says why */
	sc_gpu_destroy(gpu);
	return rc;
}

int fz_ptx(const uint8_t *data, size_t size, char *err, size_t errsz)
{
	char *text = malloc(size + 1);
	if (!text)
		return SC_ENOMEM;
	memcpy(text, data, size);
	text[size] = '\0';
	char err2[512];
	int rc = ptx_one(text, SC_REGS_UNALLOC, 0, err, errsz);
	int rc2 = ptx_one(text, SC_REGS_ALLOC, 1, err2, sizeof err2);
	free(text);
	if (rc2 == FZ_BROKEN || (rc2 && !rc)) {
		snprintf(err, errsz, "alloc mode: %s", err2);
		return FZ_BROKEN;
	}
	return rc;
}

int fz_workload(const uint8_t *data, size_t size, char *err, size_t errsz)
{
	camp_workload_t *w = NULL;
	if (fz_write_input(data, size)) {
		snprintf(err, errsz, "cannot write the input into the scratch tree");
		return FZ_BROKEN;
	}
	err[0] = '\0';
	int rc = camp_workload_load(fz_input_path(), &w, err, errsz);
	if ((rc == 0 && !w) || (rc != 0 && (w || !err[0])))
		rc = FZ_BROKEN;
	/* a run's first step: every buffer's initial contents (small ones) */
	for (uint32_t i = 0; rc == 0 && i < w->nbuffers; i++) {
		const camp_buffer_t *b = &w->buffers[i];
		uint64_t bytes = b->count * camp_type_size(b->type);
		if (b->count > FILL_MAX || bytes > FILL_MAX)
			continue;
		void *dst = malloc(bytes);
		if (!dst)
			continue;
		err[0] = '\0';
		int frc = camp_buffer_fill(b, dst, err, errsz);
		free(dst);
		if (frc && !err[0])
			rc = FZ_BROKEN;
	}
	camp_workload_destroy(w);
	return rc;
}

int fz_campaign(const uint8_t *data, size_t size, char *err, size_t errsz)
{
	camp_campaign_t *c = NULL;
	if (fz_write_input(data, size)) {
		snprintf(err, errsz, "cannot write the input into the scratch tree");
		return FZ_BROKEN;
	}
	err[0] = '\0';
	int rc = camp_campaign_load(fz_input_path(), &c, err, errsz);
	if ((rc == 0 && (!c || !c->canonical)) || (rc != 0 && (c || !err[0])))
		rc = FZ_BROKEN;
	camp_campaign_destroy(c);
	return rc;
}
