/* lps — GUFI's LPS (3-D Laplace) as a host program on simcore.h: Jacobi
 * sweeps of the GPU_laplace3d kernel (lps.cu) over an NX x NY x NZ grid with
 * fixed boundary values, one launch per sweep. Prints the final grid's
 * FNV-1a digest; with --check compares it bit for bit with the same sweeps
 * on the CPU. Usage, shape and figures: examples/lps/README.md. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simcore.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "lps needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

enum { BLOCK_X = 32, BLOCK_Y = 4 };

/* GUFI's input, the benchmark's default: a 100^3 grid, one sweep; Table
 * I's grid 4 x 25 is ceil(100 / 32) x 100 / 4. */
enum { DEF_NX = 100, DEF_NY = 100, DEF_NZ = 100, DEF_REPEAT = 1 };

static const uint64_t SEED = 0x4c505331;  /* "LPS1" */

/* A hang ends as a DUE timeout: about a hundred times the run's cycles,
 * which grow with CTAs x planes x sweeps (the default run: 1.2 M cycles,
 * 121 per CTA and plane). */
static const uint64_t CYCLES_PER_WORK = 12000;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/lps/lps.ptx";
static const char KERNEL[] = "_Z13GPU_laplace3diiiiPfS_";

/* Exit statuses (examples/README.md, "iterate"). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BADINPUT = 2, EXIT_DUE = 3 };

typedef struct params {
	int nx, ny, nz, repeat;
	const char *ptx;
	bool check, stats;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi): 24 random bits make an exact float in [0, 1). */
static float uniform(uint64_t *s, float lo, float hi)
{
	float u = (float)(splitmix64(s) >> 40) * 0x1p-24f;
	return lo + (hi - lo) * u;
}


/* Every point uniform in [0, 1): the boundary keeps its values, the
 * interior relaxes towards their harmonic mean. The grid is packed
 * (x fastest, then y, then z); the device copy has rows `pitch` wide. */
static void input_init(float *u, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		u[i] = uniform(&s, 0.0f, 1.0f);
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}


/* ---- the CPU reference --------------------------------------------------
 * One sweep in lps.ptx's order: six add.f32 left to right, W + E + N + S +
 * below + above, then mul.f32 by 1/6 rounded to float (0x3e2aaaab); no
 * fused operation. Boundary points copy their value. */
static void sweep_cpu(int nx, int ny, int nz, const float *u1, float *u2)
{
	const float sixth = 1.0f / 6.0f;
	const size_t sy = (size_t)nx, sz = (size_t)nx * ny;

	for (int k = 0; k < nz; k++)
		for (int j = 0; j < ny; j++)
			for (int i = 0; i < nx; i++) {
				size_t p = i + j * sy + k * sz;
				if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1)
					u2[p] = u1[p];
				else
					u2[p] = (u1[p - 1] + u1[p + 1] + u1[p - sy] + u1[p + sy] + u1[p - sz] +
					         u1[p + sz]) * sixth;
			}
}

/* ---- the simulated GPU -------------------------------------------------- */

/* Prints why `err` happened; returns the exit status it maps to. */
static int report(const sc_gpu_t *gpu, int err, const char *what)
{
	if (gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(gpu);
		fprintf(stderr,
		        "lps: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return EXIT_DUE;
	}
	const char *msg = gpu ? sc_gpu_errmsg(gpu) : "";
	fprintf(stderr, "lps: %s: %s%s%s\n", what, sc_strerror(err), *msg ? ": " : "", msg);
	if (err == SC_EIO || err == SC_EPARSE || err == SC_ENOTFOUND || err == SC_ELAUNCH)
		return EXIT_BADINPUT;
	return EXIT_FAIL;
}

/* Per-launch figures on stderr, then the application's: IPC over all
 * launches (thread-instructions / cycles) and the paper's average warp
 * occupancy (each launch's occupancy weighted by its share of cycles). */
static void print_stats(const sc_gpu_t *gpu)
{
	sc_gpu_stats_t t;
	double occ = 0.0;

	sc_gpu_stats(gpu, &t);
	for (uint32_t i = 0; i < sc_launch_count(gpu); i++) {
		const sc_launch_stats_t *s = sc_launch_stats(gpu, i);
		fprintf(stderr,
		        "lps: launch %u %s grid %ux%ux%u block %ux%ux%u regs %u smem %u "
		        "ctas/sm %u (%s) occupancy %.4f cycles %llu thread-insts %llu\n",
		        (unsigned)i, s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y,
		        s->block.z, s->regs_per_thread, s->smem_per_cta, s->ctas_per_sm, s->limiter,
		        s->occupancy, (unsigned long long)s->cycles, (unsigned long long)s->thread_insts);
		if (t.cycles)
			occ += s->occupancy * (double)s->cycles / (double)t.cycles;
	}
	fprintf(stderr,
	        "lps: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%%\n",
	        (unsigned)t.launches, (unsigned long long)t.cycles, (unsigned long long)t.thread_insts,
	        (unsigned long long)t.warp_insts,
	        t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0, 100.0 * occ);
}


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
 * Returns 0 or an SC_E* code with *what naming the failed call. */
static int run_gpu(sc_gpu_t *gpu, sc_module_t *mod, const params_t *pp, int32_t pitch,
                   uint64_t du[2], int *result, const char **what)
{
	const sc_dim3_t grid = {(uint32_t)((pp->nx + BLOCK_X - 1) / BLOCK_X),
	                        (uint32_t)((pp->ny + BLOCK_Y - 1) / BLOCK_Y), 1};
	int32_t nx = pp->nx, ny = pp->ny, nz = pp->nz;
	int src = 0, err;

	for (int r = 0; r < pp->repeat; r++) {
		void *args[] = {&nx, &ny, &nz, &pitch, &du[src], &du[1 - src]};
		if ((err = sc_launch(gpu, mod, KERNEL, grid, (sc_dim3_t){BLOCK_X, BLOCK_Y, 1}, 0, args)) != 0) {
			*what = "launch GPU_laplace3d";
			return err;
		}
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
	return EXIT_BADINPUT;
}

static bool parse_int(const char *s, long lo, long hi, int *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return false;
	*v = (int)x;
	return true;
}


static bool parse_size(const char *s, params_t *pp)
{
	char buf[64], *y, *z;
	snprintf(buf, sizeof buf, "%s", s);
	if (!(y = strchr(buf, 'x')) || !(z = strchr(y + 1, 'x')))
		return false;
	*y++ = '\0';
	*z++ = '\0';
	return parse_int(buf, 1, 1024, &pp->nx) && parse_int(y, 1, 1024, &pp->ny) &&
	       parse_int(z, 1, 1024, &pp->nz);
}

static bool parse_args(int argc, char **argv, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--check"))
			pp->check = true;
		else if (!strcmp(a, "--stats"))
			pp->stats = true;
		else if (!strcmp(a, "--ptx") && i + 1 < argc)
			pp->ptx = argv[++i];
		else if (!strcmp(a, "--size") && i + 1 < argc) {
			if (!parse_size(argv[++i], pp))
				return false;
		} else if (!strcmp(a, "--repeat") && i + 1 < argc) {
			if (!parse_int(argv[++i], 1, 100, &pp->repeat))
				return false;
		} else
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.nx = DEF_NX, .ny = DEF_NY, .nz = DEF_NZ, .repeat = DEF_REPEAT, .ptx = DEFAULT_PTX};
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu = NULL;
	sc_module_t *mod;
	uint64_t du[2] = {0, 0};
	float *u = NULL, *out = NULL, *ref[2] = {NULL, NULL};
	const char *what = "";
	int err, result, status = EXIT_FAIL;
	char msg[256];

	if (!parse_args(argc, argv, &pp))
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

	sc_config_gtx480(&cfg);
	if ((err = sc_config_check(&cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "lps: GTX480 preset: %s: %s\n", sc_strerror(err), msg);
		goto out;
	}
	if ((err = sc_gpu_create(&cfg, &opt, &gpu)) != 0) {
		status = report(NULL, err, "create the GPU");
		goto out;
	}
	if ((err = sc_module_load_file(gpu, pp.ptx, &mod)) != 0) {
		status = report(gpu, err, pp.ptx);
		goto out;
	}
	if ((err = sc_malloc(gpu, dbytes, &du[0])) != 0 || (err = sc_malloc(gpu, dbytes, &du[1])) != 0) {
		status = report(gpu, err, "allocate the grids");
		goto out;
	}
	if ((err = sc_memset(gpu, du[0], 0, dbytes)) != 0 || (err = sc_memset(gpu, du[1], 0, dbytes)) != 0 ||
	    (err = copy_grid(gpu, &pp, pitch, du[0], u, true)) != 0) {
		status = report(gpu, err, "copy the grid in");
		goto out;
	}
	if ((err = run_gpu(gpu, mod, &pp, pitch, du, &result, &what)) != 0) {
		status = report(gpu, err, what);
		goto out;
	}
	if ((err = copy_grid(gpu, &pp, pitch, du[result], out, false)) != 0) {
		status = report(gpu, err, "copy the grid out");
		goto out;
	}

	double sum = 0.0;
	float lo = out[0], hi = out[0];
	for (size_t i = 0; i < npts; i++) {
		sum += out[i];
		lo = out[i] < lo ? out[i] : lo;
		hi = out[i] > hi ? out[i] : hi;
	}
	printf("lps: %dx%dx%d points, %d sweep%s, digest %016llx, mean %.9g, min %.9g, max %.9g\n", pp.nx,
	       pp.ny, pp.nz, pp.repeat, pp.repeat == 1 ? "" : "s", (unsigned long long)fnv1a(out, bytes),
	       sum / (double)npts, (double)lo, (double)hi);
	if (pp.stats)
		print_stats(gpu);
	status = EXIT_OK;

	if (pp.check) {
		if (!(ref[0] = malloc(bytes)) || !(ref[1] = malloc(bytes))) {
			fprintf(stderr, "lps: out of memory\n");
			status = EXIT_FAIL;
			goto out;
		}
		memcpy(ref[0], u, bytes);
		for (int r = 0; r < pp.repeat; r++)
			sweep_cpu(pp.nx, pp.ny, pp.nz, ref[r & 1], ref[(r + 1) & 1]);
		const float *rr = ref[pp.repeat & 1];
		for (size_t i = 0; i < npts; i++)
			if (memcmp(&out[i], &rr[i], sizeof(float)) != 0) {
				uint32_t g, c;
				memcpy(&g, &out[i], sizeof g);
				memcpy(&c, &rr[i], sizeof c);
				printf("lps: FAIL: point (%zu, %zu, %zu) = %.9g (0x%08x) on the GPU, "
				       "%.9g (0x%08x) on the CPU\n",
				       i % (size_t)pp.nx, i / (size_t)pp.nx % (size_t)pp.ny,
				       i / ((size_t)pp.nx * pp.ny), (double)out[i], (unsigned)g, (double)rr[i],
				       (unsigned)c);
				status = EXIT_FAIL;
				goto out;
			}
		printf("lps: OK (%zu points match the CPU bit for bit)\n", npts);
	}

out:
	for (int i = 1; i >= 0; i--)
		if (du[i])
			sc_free(gpu, du[i]);
	sc_gpu_destroy(gpu);
	free(ref[1]);
	free(ref[0]);
	free(out);
	free(u);
	return status;
}
