/* lps — GUFI's LPS (3-D Laplace) as a host program on simcore.h: Jacobi
 * sweeps of the GPU_laplace3d kernel (lps.cu) over an NX x NY x NZ grid with
 * fixed boundary values, one launch per sweep. Prints the final grid's
 * FNV-1a digest; with --check compares it bit for bit with the same sweeps
 * on the CPU. Usage, shape and figures: examples/lps/README.md. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "lps_host.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "lps needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x planes x sweeps (the default run: 1.2 M cycles,
 * 121 per CTA and plane). */
static const uint64_t CYCLES_PER_WORK = 12000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/lps/lps.ptx";
static const char KERNEL[] = "_Z13GPU_laplace3diiiiPfS_";

/* ---- the simulated GPU -------------------------------------------------- */

/* Copies between the packed host grid and the device's pitched rows. */
static int copy_grid(sc_gpu_t *gpu, const params_t *pp, int pitch, uint64_t dev, float *host, bool in)
{
	for (size_t row = 0; row < (size_t)pp->ny * pp->nz; row++) {
		uint64_t d = dev + row * pitch * sizeof(float);
		float *h = host + row * pp->nx;
		int err = in ? sc_memcpy_htod(gpu, d, h, pp->nx * sizeof(float))
		             : sc_memcpy_dtoh(gpu, h, d, pp->nx * sizeof(float));
		if (err)
			return err;
	}
	return 0;
}

/* Runs the sweeps: one launch each, u1 and u2 swapped after each, as the
 * benchmark's host does. *result gets the buffer holding the last sweep.
 * Returns 0 or an SC_E* code, naming the failed call in a->what. */
static int run_gpu(app_t *a, const params_t *pp, int32_t pitch, uint64_t du[2], int *result)
{
	const sc_dim3_t grid = {(uint32_t)((pp->nx + BLOCK_X - 1) / BLOCK_X),
	                        (uint32_t)((pp->ny + BLOCK_Y - 1) / BLOCK_Y), 1};
	int32_t nx = pp->nx, ny = pp->ny, nz = pp->nz;
	int src = 0;

	for (int r = 0; r < pp->repeat; r++) {
		void *args[] = {&nx, &ny, &nz, &pitch, &du[src], &du[1 - src]};
		APP_TRY(a, sc_launch(a->gpu, a->mod, KERNEL, grid, (sc_dim3_t){BLOCK_X, BLOCK_Y, 1}, 0, args),
		        "launch GPU_laplace3d");
		src = 1 - src;
	}
	*result = src;
	return 0;
}

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: lps [--ptx FILE] [--check] [--stats] [--size NXxNYxNZ] [--repeat R]\n"
	        "  defaults: --ptx %s --size %dx%dx%d --repeat %d\n"
	        "  each of NX, NY, NZ in 1..1024; R sweeps (one launch each) in 1..100\n",
	        DEFAULT_PTX, DEF_NX, DEF_NY, DEF_NZ, DEF_REPEAT);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (app_option(app, argc, argv, &i))
			continue;
		if (!strcmp(a, "--size") && i + 1 < argc) {
			if (!parse_size(argv[++i], pp))
				return false;
		} else if (!strcmp(a, "--repeat") && i + 1 < argc) {
			if (!app_parse_int(argv[++i], 1, 100, &pp->repeat))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.nx = DEF_NX, .ny = DEF_NY, .nz = DEF_NZ, .repeat = DEF_REPEAT};
	app_t a = {.name = "lps", .ptx = DEFAULT_PTX};
	uint64_t du[2] = {0, 0};
	float *u = NULL, *out = NULL;
	int err, result, status = APP_FAIL;

	if (!parse_args(argc, argv, &a, &pp))
		return usage();
	/* Rows padded to whole warps, as cudaMallocPitch would pad them. */
	const int32_t pitch = (pp.nx + BLOCK_X - 1) / BLOCK_X * BLOCK_X;
	const size_t npts = (size_t)pp.nx * pp.ny * pp.nz;
	const uint64_t bytes = npts * sizeof(float);
	const uint64_t dbytes = (uint64_t)pitch * pp.ny * pp.nz * sizeof(float);
	const uint64_t ctas = (uint64_t)((pp.nx + BLOCK_X - 1) / BLOCK_X) * ((pp.ny + BLOCK_Y - 1) / BLOCK_Y);
	uint64_t budget = CYCLES_PER_WORK * ctas * (uint64_t)pp.nz * (uint64_t)pp.repeat;
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	u = malloc(bytes);
	out = malloc(bytes);
	if (!u || !out) {
		fprintf(stderr, "lps: out of memory\n");
		goto out;
	}
	input_init(u, npts);

	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	if ((err = app_malloc(&a, dbytes, &du[0])) != 0 || (err = app_malloc(&a, dbytes, &du[1])) != 0) {
		status = app_report(&a, err, "allocate the grids");
		goto out;
	}
	if ((err = sc_memset(a.gpu, du[0], 0, dbytes)) != 0 || (err = sc_memset(a.gpu, du[1], 0, dbytes)) != 0 ||
	    (err = copy_grid(a.gpu, &pp, pitch, du[0], u, true)) != 0) {
		status = app_report(&a, err, "copy the grid in");
		goto out;
	}
	if ((err = run_gpu(&a, &pp, pitch, du, &result)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}
	if ((err = copy_grid(a.gpu, &pp, pitch, du[result], out, false)) != 0) {
		status = app_report(&a, err, "copy the grid out");
		goto out;
	}

	print_result(&pp, out);
	if (a.stats)
		app_print_launch_stats(&a);
	status = a.check ? check_result(&pp, u, out) : APP_OK;

out:
	app_close(&a);
	free(out);
	free(u);
	return status;
}
