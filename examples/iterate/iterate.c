/* iterate — the host-API example: a C program that drives the simulated GPU
 * through simcore.h (setup and messages from examples/common/app.h), with
 * host logic between launches. It takes a few
 * implicit time steps of the 1-D heat equation, each solved by Jacobi sweeps
 * (iterate.cu) until the largest change read back falls below a tolerance,
 * then checks the field against the same arithmetic on the CPU, byte for byte.
 * Usage and exit statuses: examples/README.md ("iterate"). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "app.h"

enum {
	NPTS = 1024,       /* grid points, boundaries included */
	BLOCK = 256,       /* threads per CTA */
	NSTEPS = 4,        /* implicit time steps */
	MAX_ITERS = 1000,  /* Jacobi sweeps per time step at most */
};

/* r = dt/h^2. Not a power of two, so r * s rounds and the check sees whether
 * the multiply-add was fused. Jacobi shrinks the error by about 2r/(1+2r) =
 * 0.87 per sweep: a time step converges to TOL in under a hundred sweeps. */
static const float R = 3.3f;
static const float TOL = 1e-5f;

/* A simulated hang ends as a DUE timeout rather than running forever. The
 * budget is far above what the whole run needs (a few hundred launches of
 * four CTAs each), whether the simulator counts it per launch or in all. */
static const uint64_t CYCLE_BUDGET = 100000000;

static const char DEFAULT_PTX[] = "examples/iterate/iterate.ptx";

/* The field at t = 0: fixed boundaries 1 and 0.25, a hot patch inside. */
static void field_init(float *u)
{
	for (int i = 0; i < NPTS; i++)
		u[i] = (i >= NPTS / 4 && i < NPTS / 2) ? 1.0f : 0.0f;
	u[0] = 1.0f;
	u[NPTS - 1] = 0.25f;
}

/* The buffers rotate: `old` holds the previous time step and stays put while
 * the sweeps alternate between the other two; the converged sweep's output
 * becomes `old` of the next step. With indices 0..2, the buffer that is
 * neither a nor b is 3 - a - b. */
static int third(int a, int b) { return 3 - a - b; }

/* ---- the CPU reference: the kernels' float arithmetic, operation by
 * operation as iterate.ptx does it (fma.rn.f32 then mul.f32; sub, abs). */

static void jacobi_cpu(const float *uold, const float *u, float *unew, float inv)
{
	unew[0] = u[0];
	unew[NPTS - 1] = u[NPTS - 1];
	for (int i = 1; i < NPTS - 1; i++)
		unew[i] = fmaf(u[i - 1] + u[i + 1], R, uold[i]) * inv;
}

static float maxchange_cpu(const float *u, const float *unew)
{
	float m = 0.0f;
	for (int i = 0; i < NPTS; i++) {
		float d = fabsf(unew[i] - u[i]);
		if (d > m)
			m = d;
	}
	return m;
}

static void solve_cpu(float *field, int iters[NSTEPS], float inv)
{
	static float buf[3][NPTS];
	int old = 0;

	memcpy(buf[old], field, sizeof buf[old]);
	for (int step = 0; step < NSTEPS; step++) {
		int src = old, dst = (old + 1) % 3, k = 0;

		while (k < MAX_ITERS) {
			jacobi_cpu(buf[old], buf[src], buf[dst], inv);
			float change = maxchange_cpu(buf[src], buf[dst]);
			k++;
			src = dst;
			dst = third(old, src);
			if (change < TOL)
				break;
		}
		iters[step] = k;
		old = src;
	}
	memcpy(field, buf[old], sizeof buf[old]);
}

/* ---- the simulated GPU ---------------------------------------------------- */

/* a->buf: the three device fields, rotated as in solve_cpu, then the device
 * word that gets the bit pattern of the largest change. */
enum { B_MAXBITS = 3 };

/* Runs the time steps on the GPU: field in, field out, sweeps per step in
 * iters. Returns 0 or an SC_E* code, naming the failing call in a->what. */
static int solve_gpu(app_t *a, float *field, int iters[NSTEPS], float inv)
{
	const sc_dim3_t grid = {(NPTS + BLOCK - 1) / BLOCK, 1, 1};
	const sc_dim3_t block = {BLOCK, 1, 1};
	const uint64_t bytes = sizeof(float) * NPTS;
	int32_t n = NPTS;
	float r = R;
	int old = 0;

	APP_TRY(a, sc_memcpy_htod(a->gpu, a->buf[old], field, bytes), "copy the field in");
	for (int step = 0; step < NSTEPS; step++) {
		int src = old, dst = (old + 1) % 3, k = 0;

		while (k < MAX_ITERS) {
			uint32_t bits;
			float change;
			void *jargs[] = {&a->buf[old], &a->buf[src], &a->buf[dst], &r, &inv, &n};
			void *margs[] = {&a->buf[src], &a->buf[dst], &a->buf[B_MAXBITS], &n};

			APP_TRY(a, sc_launch(a->gpu, a->mod, "jacobi", grid, block, 0, jargs),
			        "launch jacobi");
			APP_TRY(a, sc_memset(a->gpu, a->buf[B_MAXBITS], 0, sizeof bits), "clear the max change");
			APP_TRY(a, sc_launch(a->gpu, a->mod, "maxchange", grid, block, 0, margs),
			        "launch maxchange");
			APP_TRY(a, sc_memcpy_dtoh(a->gpu, &bits, a->buf[B_MAXBITS], sizeof bits),
			        "read the max change");
			memcpy(&change, &bits, sizeof change);
			k++;
			src = dst;
			dst = third(old, src);
			if (change < TOL)
				break;
		}
		iters[step] = k;
		old = src;
	}
	APP_TRY(a, sc_synchronize(a->gpu), "synchronize");
	APP_TRY(a, sc_memcpy_dtoh(a->gpu, field, a->buf[old], bytes), "copy the field out");
	return 0;
}

static int compare(const app_t *a, const float *gpu, const int *gpu_iters, const float *cpu,
                   const int *cpu_iters)
{
	int ok = 1;

	for (int step = 0; step < NSTEPS; step++)
		if (gpu_iters[step] != cpu_iters[step]) {
			printf("iterate: FAIL: time step %d took %d sweeps on the GPU, %d on the CPU\n",
			       step, gpu_iters[step], cpu_iters[step]);
			ok = 0;
		}
	for (int i = 0; i < NPTS; i++)
		if (memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0) {
			char where[32];
			snprintf(where, sizeof where, "u[%d]", i);
			app_print_mismatch(a, where, &gpu[i], &cpu[i]);
			ok = 0;
			break;
		}
	return ok;
}

int main(int argc, char **argv)
{
	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET, .regs = SC_REGS_PTX};
	app_t a = {.name = "iterate"};
	static float gpu_field[NPTS], cpu_field[NPTS];
	int gpu_iters[NSTEPS], cpu_iters[NSTEPS], err, status = APP_FAIL;
	/* Rounded to float once on the host, as the kernel receives it. */
	float inv = 1.0f / (1.0f + 2.0f * R);

	/* --stats prints the simulator's timing; without it the output is only
	 * the results, so a fault-injection campaign comparing stdout and stderr
	 * does not count a fault that changes timing but not the answer. */
	a.stats = argc > 1 && !strcmp(argv[1], "--stats");
	if (a.stats) {
		argv++;
		argc--;
	}
	/* --regs ptx|alloc|unalloc: the register mode of the simulated GPU */
	if (argc > 2 && !strcmp(argv[1], "--regs")) {
		if (sc_regs_parse(argv[2], &opt.regs) != 0) {
			fprintf(stderr, "iterate: --regs: expected ptx, alloc or unalloc, got '%s'\n", argv[2]);
			return APP_BADINPUT;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: iterate [--stats] [--regs ptx|alloc|unalloc] [PTXFILE]  (default %s)\n", DEFAULT_PTX);
		return APP_BADINPUT;
	}
	a.ptx = argc > 1 ? argv[1] : DEFAULT_PTX;

	if ((status = app_open(&a, &opt, a.ptx)) != APP_OK)
		goto out;
	for (int b = 0; b < 3; b++)
		if ((err = app_malloc(&a, sizeof(float) * NPTS, NULL)) != 0) {
			status = app_report(&a, err, "allocate a field");
			goto out;
		}
	if ((err = app_malloc(&a, sizeof(uint32_t), NULL)) != 0) {
		status = app_report(&a, err, "allocate the max-change word");
		goto out;
	}

	field_init(gpu_field);
	if ((err = solve_gpu(&a, gpu_field, gpu_iters, inv)) != 0) {
		status = app_report(&a, err, a.what);
		goto out;
	}
	field_init(cpu_field);
	solve_cpu(cpu_field, cpu_iters, inv);

	sc_gpu_stats_t st;
	int total = 0;
	sc_gpu_stats(a.gpu, &st);
	printf("iterate: %d points, r = %g, %d time steps, Jacobi sweeps:", NPTS, (double)R, NSTEPS);
	for (int step = 0; step < NSTEPS; step++) {
		printf(" %d", gpu_iters[step]);
		total += gpu_iters[step];
	}
	printf(" (%d in all; tolerance %g, cap %d per step)\n", total, (double)TOL, MAX_ITERS);
	if (a.stats)
		printf("iterate: %u launches, %llu cycles, %llu thread-instructions, "
		       "%llu warp-instructions, IPC %.3f\n",
	       (unsigned)st.launches, (unsigned long long)st.cycles,
	       (unsigned long long)st.thread_insts, (unsigned long long)st.warp_insts,
	       st.cycles ? (double)st.thread_insts / (double)st.cycles : 0.0);
	if (compare(&a, gpu_field, gpu_iters, cpu_field, cpu_iters)) {
		printf("iterate: OK (field matches the CPU byte for byte)\n");
		status = APP_OK;
	} else {
		status = APP_FAIL;
	}

out:
	app_close(&a);
	return status;
}
