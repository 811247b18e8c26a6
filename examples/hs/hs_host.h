/* hs_host.h — what hs.c and hs_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef HS_HOST_H
#define HS_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum { BLOCK_SIZE = 16 };

/* GUFI's input: two 512 x 512 matrices; Table I's grid 43 x 43 is
 * ceil(512 / (16 - 2 * 2)), a pyramid of 2 steps, and its single launch
 * means 2 time steps in all. */
enum { DEF_SIZE = 512, DEF_PYRAMID = 2, DEF_ITERS = 2 };

static const uint64_t SEED = 0x48535031;  /* "HSP1" */

typedef struct params {
	int size, pyramid, iters;
} params_t;

/* The RC model's constants for one cell (HotSpot's chip: 16 x 16 mm,
 * 0.5 mm thick silicon), rounded to float once as the kernel gets them. */
typedef struct model {
	float cap, rx, ry, rz, step;
} model_t;

static inline void model_init(model_t *m, int size)
{
	const double chip = 0.016, t_chip = 0.0005, k_si = 100.0, spec_heat_si = 1.75e6;
	const double factor_chip = 0.5, max_pd = 3.0e6, precision = 0.001;
	const double h = chip / size, w = chip / size;
	const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);

	m->cap = (float)(factor_chip * spec_heat_si * t_chip * w * h);
	m->rx = (float)(w / (2.0 * k_si * t_chip * h));
	m->ry = (float)(h / (2.0 * k_si * t_chip * w));
	m->rz = (float)(t_chip / (k_si * h * w));
	m->step = (float)(precision / max_slope);
}

/* ---- deterministic input ------------------------------------------------ */

/* Temperatures 320..345 K and power 0..1 mW per cell (HotSpot's sample
 * inputs are of this order). */
static inline void input_init(float *temp, float *power, size_t n)
{
	uint64_t s = SEED;
	for (size_t i = 0; i < n; i++) {
		temp[i] = app_uniform(&s, 320.0f, 345.0f);
		power[i] = app_uniform(&s, 0.0f, 1e-3f);
	}
}

/* ---- the CPU reference --------------------------------------------------
 * One explicit step over the whole chip, in hs.ptx's operation order:
 * step/Cap is div.rn.f32, 1/R rcp.rn.f32; per cell (S + N) - (c + c) and
 * (E + W) - (c + c) are add/sub.f32, then four fma.rn.f32: ry_1 * . + power,
 * rx_1 * . + that, rz_1 * (80 - c) + that, step_div_cap * that + c. A missing
 * neighbour on the chip's edge is the cell itself. */
static inline void step_cpu(const model_t *m, int n, const float *t, const float *pw, float *out)
{
	const float sdc = m->step / m->cap;
	const float rx_1 = 1.0f / m->rx, ry_1 = 1.0f / m->ry, rz_1 = 1.0f / m->rz;

	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			int no = y > 0 ? y - 1 : 0, so = y < n - 1 ? y + 1 : n - 1;
			int we = x > 0 ? x - 1 : 0, ea = x < n - 1 ? x + 1 : n - 1;
			float c = t[y * n + x];
			float f = fmaf(ry_1, (t[so * n + x] + t[no * n + x]) - (c + c), pw[y * n + x]);
			f = fmaf(rx_1, (t[y * n + ea] + t[y * n + we]) - (c + c), f);
			f = fmaf(rz_1, 80.0f - c, f);
			out[y * n + x] = fmaf(sdc, f, c);
		}
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the final field out. */
static inline void print_result(const params_t *pp, const float *out)
{
	const size_t ncells = (size_t)pp->size * pp->size;
	double sum = 0.0;
	float lo = out[0], hi = out[0];
	for (size_t i = 0; i < ncells; i++) {
		sum += out[i];
		lo = out[i] < lo ? out[i] : lo;
		hi = out[i] > hi ? out[i] : hi;
	}
	printf("hs: %dx%d cells, %d steps (pyramid %d), digest %016llx, mean %.9g, min %.9g, max %.9g\n",
	       pp->size, pp->size, pp->iters, pp->pyramid, (unsigned long long)app_fnv1a(out, ncells * sizeof(float)),
	       sum / (double)ncells, (double)lo, (double)hi);
}

/* --check: the CPU's steps from temp and power against out, bit for bit;
 * prints OK or the first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(const params_t *pp, const model_t *m, const float *temp, const float *power,
                               const float *out)
{
	const size_t ncells = (size_t)pp->size * pp->size, bytes = ncells * sizeof(float);
	float *ref[2] = {(float *)malloc(bytes), (float *)malloc(bytes)};
	int status = APP_OK;

	if (!ref[0] || !ref[1]) {
		fprintf(stderr, "hs: out of memory\n");
		status = APP_FAIL;
		goto out;
	}
	memcpy(ref[0], temp, bytes);
	for (int t = 0; t < pp->iters; t++)
		step_cpu(m, pp->size, ref[t & 1], power, ref[(t + 1) & 1]);
	for (size_t i = 0; i < ncells; i++) {
		const float *r = ref[pp->iters & 1];
		if (memcmp(&out[i], &r[i], sizeof(float)) != 0) {
			char where[64];
			snprintf(where, sizeof where, "cell (%zu, %zu)", i / (size_t)pp->size, i % (size_t)pp->size);
			app_print_mismatch_named("hs", where, &out[i], &r[i]);
			status = APP_FAIL;
			goto out;
		}
	}
	printf("hs: OK (%zu cells match the CPU bit for bit)\n", ncells);
out:
	free(ref[1]);
	free(ref[0]);
	return status;
}

#endif
