/* lps_host.h — what lps.c and lps_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef LPS_HOST_H
#define LPS_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum { BLOCK_X = 32, BLOCK_Y = 4 };

/* GUFI's input, the benchmark's default: a 100^3 grid, one sweep; Table
 * I's grid 4 x 25 is ceil(100 / 32) x 100 / 4. */
enum { DEF_NX = 100, DEF_NY = 100, DEF_NZ = 100, DEF_REPEAT = 1 };

static const uint64_t SEED = 0x4c505331;  /* "LPS1" */

typedef struct params {
	int nx, ny, nz, repeat;
} params_t;

/* ---- deterministic input ------------------------------------------------ */

/* Every point uniform in [0, 1): the boundary keeps its values, the
 * interior relaxes towards their harmonic mean. The grid is packed
 * (x fastest, then y, then z); the device copy has rows `pitch` wide. */
static inline void input_init(float *u, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++)
		u[i] = app_uniform(&s, 0.0f, 1.0f);
}

/* ---- the CPU reference --------------------------------------------------
 * One sweep in lps.ptx's order: six add.f32 left to right, W + E + N + S +
 * below + above, then mul.f32 by 1/6 rounded to float (0x3e2aaaab); no
 * fused operation. Boundary points copy their value. */
static inline void sweep_cpu(int nx, int ny, int nz, const float *u1, float *u2)
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

#endif
