/* ccp_host.h — what ccp.c and ccp_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef CCP_HOST_H
#define CCP_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

/* The kernel's geometry (ccp.cu): a CTA of BLOCKSIZEX x BLOCKSIZEY threads,
 * each thread UNROLLX points of a row, BLOCKSIZEX apart. */
enum { BLOCKSIZEX = 16, BLOCKSIZEY = 8, UNROLLX = 8, MAXATOMS = 4000 };

/* GUFI Table I: grid 8 x 32, so the plane is 1024 x 256 points. The atom
 * count sets the run time alone (about 1.6 M thread-instructions an atom);
 * 40 atoms keep the default run near 0.5 s of simulation. */
enum { DEF_GX = 8, DEF_GY = 32, DEF_ATOMS = 40 };

static const float SPACING = 0.1f;  /* lattice spacing h, in Angstrom */
static const uint64_t SEED = 0x43435031;  /* "CCP1" */

typedef struct params {
	uint32_t gx, gy;  /* grid */
	int natoms;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

/* Atoms as the kernel reads them, {x, y, dz^2, q}: inside the plane's
 * extent (plus a margin), within 2 A of the plane, charges in [-1, 1). */
static inline void atoms_init(float *atoms, int natoms, uint32_t width, uint32_t height)
{
	uint64_t s = SEED;
	const float zplane = 1.0f;

	for (int a = 0; a < natoms; a++) {
		float x = app_uniform(&s, -1.0f, width * SPACING + 1.0f);
		float y = app_uniform(&s, -1.0f, height * SPACING + 1.0f);
		float z = app_uniform(&s, zplane - 2.0f, zplane + 2.0f);
		float q = app_uniform(&s, -1.0f, 1.0f);
		float dz = z - zplane;
		atoms[4 * a + 0] = x;
		atoms[4 * a + 1] = y;
		atoms[4 * a + 2] = dz * dz;
		atoms[4 * a + 3] = q;
	}
}

/* ---- the CPU reference --------------------------------------------------
 * The kernel's float operations in ccp.ptx's order: coordinates as
 * cvt.rn.f32.u32 then mul; dy*dy + dz^2 and dx*dx + dyz2 and e += q * rs are
 * fma.rn.f32; the dx chain is add.f32; rsqrt.approx.f32 is, in simcore,
 * 1/sqrt computed in double and rounded once to float (simcore/sem_fp.c). */

static inline float rsqrt_sim(float x) { return (float)(1.0 / sqrt((double)x)); }

static inline void energy_cpu(const params_t *pp, const float *atoms, float *grid)
{
	const uint32_t width = pp->gx * BLOCKSIZEX * UNROLLX;
	const uint32_t height = pp->gy * BLOCKSIZEY;
	const float step = SPACING * (float)BLOCKSIZEX;

	for (uint32_t y = 0; y < height; y++)
		for (uint32_t xb = 0; xb < width; xb += BLOCKSIZEX * UNROLLX)
			for (uint32_t tx = 0; tx < BLOCKSIZEX; tx++) {
				uint32_t x = xb + tx;
				float coorx = (float)x * SPACING;
				float coory = (float)y * SPACING;
				float e[UNROLLX] = {0};

				for (int a = 0; a < pp->natoms; a++) {
					const float *at = &atoms[4 * a];
					float dy = coory - at[1];
					float dyz2 = fmaf(dy, dy, at[2]);
					float dx = coorx - at[0];
					for (int k = 0; k < UNROLLX; k++) {
						if (k > 0)
							dx = step + dx;
						e[k] = fmaf(at[3], rsqrt_sim(fmaf(dx, dx, dyz2)), e[k]);
					}
				}
				for (int k = 0; k < UNROLLX; k++)
					grid[y * width + x + k * BLOCKSIZEX] += e[k];
			}
}

/* ---- the output ----------------------------------------------------------- */

/* --grid GXxGY, GX in 1..64 and GY in 1..256, into pp. */
static inline bool parse_grid(const char *s, params_t *pp)
{
	char buf[32], *x;
	long v, w;
	snprintf(buf, sizeof buf, "%s", s);
	if (!(x = strchr(buf, 'x')))
		return false;
	*x = '\0';
	if (!app_parse_long(buf, 1, 64, &v) || !app_parse_long(x + 1, 1, 256, &w))
		return false;
	pp->gx = (uint32_t)v;
	pp->gy = (uint32_t)w;
	return true;
}

/* The result line on stdout: the energy grid of the plane. */
static inline void print_result(const params_t *pp, const float *grid)
{
	const uint32_t width = pp->gx * BLOCKSIZEX * UNROLLX, height = pp->gy * BLOCKSIZEY;
	const size_t npts = (size_t)width * height;
	double sum = 0.0;
	float lo = grid[0], hi = grid[0];
	for (size_t i = 0; i < npts; i++) {
		sum += grid[i];
		lo = grid[i] < lo ? grid[i] : lo;
		hi = grid[i] > hi ? grid[i] : hi;
	}
	printf("ccp: %ux%u points, %d atoms, digest %016llx, sum %.9g, min %.9g, max %.9g\n",
	       width, height, pp->natoms, (unsigned long long)app_fnv1a(grid, npts * sizeof(float)), sum, (double)lo,
	       (double)hi);
}

/* --check: the CPU's energies of atoms against grid, bit for bit; prints OK
 * or the first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const params_t *pp, const float *atoms, const float *grid)
{
	const uint32_t width = pp->gx * BLOCKSIZEX * UNROLLX;
	const size_t npts = (size_t)width * pp->gy * BLOCKSIZEY;
	float *ref = (float *)calloc(npts, sizeof *ref);
	int status = APP_OK;

	if (!ref) {
		fprintf(stderr, "ccp: out of memory\n");
		return APP_FAIL;
	}
	energy_cpu(pp, atoms, ref);
	for (size_t i = 0; i < npts && status == APP_OK; i++)
		if (memcmp(&grid[i], &ref[i], sizeof(float)) != 0) {
			char where[64];
			snprintf(where, sizeof where, "point (%zu, %zu)", i % width, i / width);
			app_print_mismatch_named("ccp", where, &grid[i], &ref[i]);
			status = APP_FAIL;
		}
	if (status == APP_OK)
		printf("ccp: OK (%zu points match the CPU bit for bit)\n", npts);
	free(ref);
	return status;
}

#endif
