/* ccp — GUFI's CCP (Coulombic potential) as a host program on simcore.h:
 * one launch of the cenergy kernel (ccp.cu) sums q / r over a seeded set of
 * atoms at every point of one lattice plane, then prints the plane's FNV-1a
 * digest and, with --check, compares it bit for bit with the same float
 * arithmetic on the CPU. Usage, shape and figures: examples/ccp/README.md. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "ccp_host.h"

/* The reference's float arithmetic must round to float at every operation,
 * as PTX does. */
#if FLT_EVAL_METHOD != 0
#error "ccp needs FLT_EVAL_METHOD == 0 (SSE on x86; not x87)"
#endif

/* A hang ends as a DUE timeout: the budget is about a hundred times the
 * run's cycles, which grow with atoms x CTAs (the default run takes 0.66 M
 * cycles, 65 per atom and CTA). */
static const uint64_t CYCLES_PER_WORK = 6500;
static const uint64_t MIN_BUDGET = 10000000;

static const char DEFAULT_PTX[] = "examples/ccp/ccp.ptx";
static const char KERNEL[] = "_Z7cenergyifPf";
/* The constant bank the host fills before the launch (see load_module). */
static const char ATOMDECL[] = ".const .align 16 .b8 atominfo[64000]";

/* ---- the simulated GPU -------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 65536);
			if (!nb)
				goto fail;
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

/* simcore has no cudaMemcpyToSymbol: the host fills the __constant__ atom
 * array the way a CUDA host would before the launch by loading the module
 * with the atoms as the initializer of the array's declaration (.b8 bytes,
 * the rest of the bank zero). Returns 0 or an SC_E* code; a PTX file without
 * the declaration is SC_EPARSE. */
static int load_module(app_t *a, const params_t *pp, const float *atoms)
{
	size_t len, nbytes = (size_t)pp->natoms * 16;
	char *text = read_file(a->ptx, &len), *out = NULL, *at;
	const unsigned char *b = (const unsigned char *)atoms;
	int err;

	if (!text) {
		fprintf(stderr, "ccp: %s: %s\n", a->ptx, strerror(errno));
		return SC_EIO;
	}
	at = strstr(text, ATOMDECL);
	if (!at || at[sizeof ATOMDECL - 1] != ';') {
		fprintf(stderr, "ccp: %s: no '%s;' declaration to fill\n", a->ptx, ATOMDECL);
		free(text);
		return SC_EPARSE;
	}
	size_t head = (size_t)(at - text) + sizeof ATOMDECL - 1;
	out = malloc(len + nbytes * 4 + 16);
	if (!out) {
		free(text);
		return SC_ENOMEM;
	}
	memcpy(out, text, head);
	char *o = out + head;
	o += sprintf(o, " = {");
	for (size_t i = 0; i < nbytes; i++)
		o += sprintf(o, i ? ",%u" : "%u", b[i]);
	o += sprintf(o, "}");
	memcpy(o, text + head, len - head + 1);
	err = sc_module_load_text(a->gpu, a->ptx, out, &a->mod);
	free(out);
	free(text);
	return err;
}

/* ---- command line --------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr,
	        "usage: ccp [--ptx FILE] [--check] [--stats] [--grid GXxGY] [--atoms N]\n"
	        "  defaults: --ptx %s --grid %dx%d --atoms %d (N <= %d)\n",
	        DEFAULT_PTX, DEF_GX, DEF_GY, DEF_ATOMS, MAXATOMS);
	return APP_BADINPUT;
}

static bool parse_args(int argc, char **argv, app_t *app, params_t *pp)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		long v;

		if (app_option(app, argc, argv, &i)) {
			continue;
		} else if (!strcmp(a, "--atoms") && i + 1 < argc) {
			if (!app_parse_long(argv[++i], 1, MAXATOMS, &v))
				return false;
			pp->natoms = (int)v;
		} else if (!strcmp(a, "--grid") && i + 1 < argc) {
			if (!parse_grid(argv[++i], pp))
				return false;
		} else {
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	params_t pp = {.gx = DEF_GX, .gy = DEF_GY, .natoms = DEF_ATOMS};
	app_t a = {.name = "ccp", .ptx = DEFAULT_PTX};
	uint64_t dgrid = 0;
	float *atoms = NULL, *grid = NULL;
	int err, status = APP_FAIL;

	if (!parse_args(argc, argv, &a, &pp))
		return usage();
	const uint32_t width = pp.gx * BLOCKSIZEX * UNROLLX, height = pp.gy * BLOCKSIZEY;
	const size_t npts = (size_t)width * height;
	const uint64_t bytes = npts * sizeof(float);
	uint64_t budget = CYCLES_PER_WORK * pp.gx * pp.gy * (uint64_t)pp.natoms;
	sc_options_t opt = {.cycle_budget = budget > MIN_BUDGET ? budget : MIN_BUDGET};

	atoms = calloc((size_t)pp.natoms * 4, sizeof *atoms);
	grid = calloc(npts, sizeof *grid);
	if (!atoms || !grid) {
		fprintf(stderr, "ccp: out of memory\n");
		goto out;
	}
	atoms_init(atoms, pp.natoms, width, height);

	if ((status = app_open(&a, &opt, NULL)) != APP_OK)
		goto out;
	if ((err = load_module(&a, &pp, atoms)) != 0) {
		status = app_report(&a, err, a.ptx);
		goto out;
	}
	if ((err = app_malloc(&a, bytes, &dgrid)) != 0) {
		status = app_report(&a, err, "allocate the energy grid");
		goto out;
	}
	if ((err = sc_memset(a.gpu, dgrid, 0, bytes)) != 0) {
		status = app_report(&a, err, "clear the energy grid");
		goto out;
	}
	int32_t natoms = pp.natoms;
	float spacing = SPACING;
	void *args[] = {&natoms, &spacing, &dgrid};
	if ((err = sc_launch(a.gpu, a.mod, KERNEL, (sc_dim3_t){pp.gx, pp.gy, 1},
	                     (sc_dim3_t){BLOCKSIZEX, BLOCKSIZEY, 1}, 0, args)) != 0) {
		status = app_report(&a, err, "launch cenergy");
		goto out;
	}
	if ((err = sc_memcpy_dtoh(a.gpu, grid, dgrid, bytes)) != 0) {
		status = app_report(&a, err, "copy the energy grid out");
		goto out;
	}

	print_result(&pp, grid);
	if (a.stats)
		app_print_launch_stats(&a);
	status = a.check ? check_result(&pp, atoms, grid) : APP_OK;

out:
	app_close(&a);
	free(grid);
	free(atoms);
	return status;
}
