/* texscale — the texture example: a C program on simcore.h that puts a
 * W x H float image in an array, samples it through a texture object
 * (normalized coordinates, linear filtering, clamp addressing) and upscales
 * it S times in each direction (texscale.cu). Prints the result's FNV-1a
 * digest and sum; with --check compares every pixel with bilinear
 * interpolation on the CPU, within the texture unit's 8-bit weights
 * (examples/README.md, "texscale"). The texture cache's fault target
 * (`texcache`) has its example campaign on it:
 * examples/campaigns/texscale-texcache.json. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

enum {
	W = 64, H = 48, /* the image */
	S = 4,          /* the upscaling factor */
	BX = 16, BY = 16,
};

/* 8-bit weights: a pixel may differ from exact interpolation by the image's
 * range (1) times half a weight step, in each of two directions. */
static const float TOL = 2.0f / 256;
static const uint64_t CYCLE_BUDGET = 50000000;
static const char DEFAULT_PTX[] = "examples/texscale/texscale.ptx";
static const char KERNEL[] = "_Z7upscaleyPfii";

static float texel(const float *img, int x, int y)
{
	x = x < 0 ? 0 : x >= W ? W - 1 : x;
	y = y < 0 ? 0 : y >= H ? H - 1 : y;
	return img[y * W + x];
}

/* CUDA's linear filtering of a 2-D texture at normalized (u, v), clamped. */
static float bilinear(const float *img, float u, float v)
{
	float xb = u * W - 0.5f, yb = v * H - 0.5f;
	int i = (int)floorf(xb), j = (int)floorf(yb);
	float a = xb - floorf(xb), b = yb - floorf(yb);
	return (1 - a) * (1 - b) * texel(img, i, j) + a * (1 - b) * texel(img, i + 1, j) +
	       (1 - a) * b * texel(img, i, j + 1) + a * b * texel(img, i + 1, j + 1);
}

static int usage(void)
{
	fprintf(stderr, "usage: texscale [--ptx FILE] [--check] [--stats]\n  defaults: --ptx %s\n", DEFAULT_PTX);
	return APP_BADINPUT;
}

int main(int argc, char **argv)
{
	app_t app = {.name = "texscale", .ptx = DEFAULT_PTX};
	for (int i = 1; i < argc; i++)
		if (!app_option(&app, argc, argv, &i))
			return usage();
	const int ow = W * S, oh = H * S;
	float *img = malloc(sizeof(float) * W * H), *out = malloc(sizeof(float) * ow * oh);
	int err, status = APP_FAIL;
	sc_array_t arr = {.ch = {.bits = {32}, .kind = SC_CHAN_FLOAT}, .width = W, .height = H};
	uint64_t tex = 0, dout = 0;
	if (!img || !out) {
		fprintf(stderr, "texscale: out of memory\n");
		goto out;
	}
	for (int y = 0; y < H; y++) /* smooth waves and a bright square */
		for (int x = 0; x < W; x++)
			img[y * W + x] = 0.5f + 0.25f * sinf(x * 0.3f) * cosf(y * 0.2f) +
			                 (x >= 20 && x < 30 && y >= 10 && y < 22 ? 0.25f : 0.0f);

	sc_options_t opt = {.cycle_budget = CYCLE_BUDGET};
	if ((status = app_open(&app, &opt, app.ptx)) != APP_OK)
		goto out;
	status = APP_FAIL;
	sc_resource_t res = {.kind = SC_RES_ARRAY};
	sc_tex_desc_t desc = {.addr = {SC_ADDR_CLAMP, SC_ADDR_CLAMP, SC_ADDR_CLAMP},
	                      .filter = SC_FILTER_LINEAR, .read = SC_READ_ELEMENT, .normalized = true};
	if ((err = sc_array_alloc(app.gpu, &arr)) != 0 || (err = app_malloc(&app, sizeof(float) * ow * oh, &dout)) != 0) {
		status = app_report(&app, err, "allocate the image and the result");
		goto out;
	}
	res.array = arr;
	if ((err = sc_memcpy_htod(app.gpu, arr.dptr, img, sizeof(float) * W * H)) != 0 ||
	    (err = sc_texture_create(app.gpu, &res, &desc, &tex)) != 0) {
		status = app_report(&app, err, "fill the image and create its texture object");
		goto out;
	}
	int32_t w32 = ow, h32 = oh;
	void *args[] = {&tex, &dout, &w32, &h32};
	if ((err = sc_launch(app.gpu, app.mod, KERNEL, (sc_dim3_t){(ow + BX - 1) / BX, (oh + BY - 1) / BY, 1},
	                     (sc_dim3_t){BX, BY, 1}, 0, args)) != 0) {
		status = app_report(&app, err, "launch upscale");
		goto out;
	}
	if ((err = sc_memcpy_dtoh(app.gpu, out, dout, sizeof(float) * ow * oh)) != 0) {
		status = app_report(&app, err, "copy the result out");
		goto out;
	}
	uint64_t h = 0xcbf29ce484222325ull;
	double sum = 0;
	for (size_t i = 0; i < (size_t)ow * oh; i++) {
		uint32_t b;
		memcpy(&b, &out[i], sizeof b);
		for (int k = 0; k < 4; k++)
			h = (h ^ ((b >> (8 * k)) & 0xffu)) * 0x100000001b3ull;
		sum += out[i];
	}
	printf("texscale: %dx%d -> %dx%d, sum %.6f, digest %016llx\n", W, H, ow, oh, sum, (unsigned long long)h);
	if (app.stats)
		app_print_launch_stats(&app);
	status = APP_OK;
	for (int y = 0; y < oh && app.check; y++)
		for (int x = 0; x < ow; x++) {
			float want = bilinear(img, (x + 0.5f) / ow, (y + 0.5f) / oh), got = out[y * ow + x];
			if (!(fabsf(got - want) <= TOL)) {
				fprintf(stderr, "texscale: pixel (%d, %d) is %.6f, bilinear interpolation gives %.6f\n", x, y,
				        got, want);
				status = APP_FAIL;
				y = oh;
				break;
			}
		}
	if (app.check && status == APP_OK)
		printf("texscale: check passed (every pixel within %.4f of bilinear interpolation)\n", TOL);
out:
	if (tex)
		sc_texture_destroy(app.gpu, tex);
	if (arr.dptr)
		sc_array_free(app.gpu, &arr);
	app_close(&app);
	free(out);
	free(img);
	return status;
}
