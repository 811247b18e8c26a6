/* tex_host — the CUDA runtime's arrays, texture and surface objects without
 * nvcc (tests/cudart/test_runtime.c): registers tex_kernels.zstd.fatbin as
 * nvcc's host code does and calls every texture entry point flipsim
 * implements, with the struct layouts of CUDA 13's headers written out here.
 * Usage: tex_host FATBIN. Prints "textures ok" and exits 0; a wrong result
 * prints "FAIL line: condition" and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cudaError_t;
typedef struct dim3 { unsigned x, y, z; } dim3;
enum { H2D = 1, D2H = 2, D2D = 3 };
struct cudaChannelFormatDesc { int x, y, z, w, f; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
typedef struct cudaArray *cudaArray_t;
struct cudaMemcpy3DParms {
	cudaArray_t srcArray;
	struct cudaPos srcPos;
	struct cudaPitchedPtr srcPtr;
	cudaArray_t dstArray;
	struct cudaPos dstPos;
	struct cudaPitchedPtr dstPtr;
	struct cudaExtent extent;
	int kind;
};
struct cudaResourceDesc {
	int resType; /* array 0, linear 2, pitch2D 3 */
	union {
		struct { cudaArray_t array; } array;
		struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
		struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
		int reserved[32];
	} res;
	unsigned flags;
};
struct cudaTextureDesc {
	int addressMode[3], filterMode, readMode, sRGB;
	float borderColor[4];
	int normalizedCoords;
	unsigned maxAnisotropy;
	int mipmapFilterMode;
	float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
	int disableTrilinearOptimization, seamlessCubemap;
};

void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **h);
void __cudaUnregisterFatBinary(void **h);
void __cudaRegisterFunction(void **h, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize);
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t smem, void *s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int kind);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int kind);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f);
cudaError_t cudaMallocArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d, size_t w, size_t h, unsigned fl);
cudaError_t cudaMalloc3DArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d, struct cudaExtent e, unsigned fl);
cudaError_t cudaFreeArray(cudaArray_t a);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *d, struct cudaExtent *e, unsigned *fl, cudaArray_t a);
cudaError_t cudaMemcpyToArray(cudaArray_t a, size_t wo, size_t ho, const void *s, size_t n, int kind);
cudaError_t cudaMemcpyFromArray(void *d, cudaArray_t a, size_t wo, size_t ho, size_t n, int kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t a, size_t wo, size_t ho, const void *s, size_t sp, size_t w, size_t h,
                                int kind);
cudaError_t cudaMemcpy2DFromArray(void *d, size_t dp, cudaArray_t a, size_t wo, size_t ho, size_t w, size_t h,
                                  int kind);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaCreateTextureObject(uint64_t *t, const struct cudaResourceDesc *r, const struct cudaTextureDesc *d,
                                    const void *view);
cudaError_t cudaDestroyTextureObject(uint64_t t);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *r, uint64_t t);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *d, uint64_t t);
cudaError_t cudaCreateSurfaceObject(uint64_t *s, const struct cudaResourceDesc *r);
cudaError_t cudaDestroySurfaceObject(uint64_t s);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *r, uint64_t s);

static char host_fetch, host_linear, host_surf;
static struct { uint32_t magic, version; const void *data; void *unused; } wrapper = {0x466243b1u, 1, NULL, NULL};

static int failures;
#define CHECK(cond)                                                       \
	do {                                                                  \
		if (!(cond)) {                                                    \
			printf("FAIL %d: %s\n", __LINE__, #cond);                     \
			failures++;                                                   \
		}                                                                 \
	} while (0)

static void *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return n ? buf : NULL;
}

static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args)
{
	cudaError_t e = cudaLaunchKernel(fn, grid, block, args, 0, NULL);
	return e ? e : cudaDeviceSynchronize();
}

enum { W = 4, H = 3, NC = 8 };

/* a 2-D float2 array, point sampling, clamp: tex_fetch at texel centres and
 * outside; the descriptions come back as given */
static void array_texture(void)
{
	float img[H][W][2], back[H][W][2];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			img[y][x][0] = (float)(x + 10 * y), img[y][x][1] = -(float)x;
	struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 32, 0, 0, 2), gd;
	CHECK(cd.x == 32 && cd.y == 32 && cd.z == 0 && cd.f == 2);
	cudaArray_t a;
	CHECK(!cudaMallocArray(&a, &cd, W, H, 0));
	CHECK(!cudaMemcpy2DToArray(a, 0, 0, img, sizeof img[0], sizeof img[0], H, H2D));
	CHECK(!cudaMemcpy2DFromArray(back, sizeof back[0], a, 0, 0, sizeof back[0], H, D2H) && !memcmp(img, back, sizeof img));
	CHECK(cudaMemcpy2DToArray(a, 8, 0, img, sizeof img[0], sizeof img[0], H, H2D) == 1); /* past the row */
	struct cudaExtent ext;
	unsigned fl = 7;
	CHECK(!cudaArrayGetInfo(&gd, &ext, &fl, a) && gd.y == 32 && ext.width == W && ext.height == H && !ext.depth && !fl);
	struct cudaResourceDesc rd = {0}, rb;
	rd.resType = 0;
	rd.res.array.array = a;
	struct cudaTextureDesc td = {{1, 1, 1}, 0, 0, 0, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0}, tb;
	uint64_t t;
	CHECK(!cudaCreateTextureObject(&t, &rd, &td, NULL) && t);
	CHECK(!cudaGetTextureObjectResourceDesc(&rb, t) && rb.resType == 0 && rb.res.array.array == a);
	CHECK(!cudaGetTextureObjectTextureDesc(&tb, t) && tb.addressMode[2] == 1 && !tb.normalizedCoords);
	float c[NC][2] = {{0.5f, 0.5f}, {3.5f, 2.5f}, {1.2f, 1.9f}, {-4, -4}, {9, 1.5f}, {2.5f, 7}, {0, 0}, {3.99f, 0}};
	float *dc, *dout, out[NC][4];
	cudaMalloc((void **)&dc, sizeof c);
	cudaMalloc((void **)&dout, sizeof out);
	cudaMemcpy(dc, c, sizeof c, H2D);
	void *args[] = {&t, &dc, &dout};
	CHECK(!launch(&host_fetch, (dim3){1, 1, 1}, (dim3){NC, 1, 1}, args));
	cudaMemcpy(out, dout, sizeof out, D2H);
	for (int i = 0; i < NC; i++) {
		int x = (int)c[i][0], y = (int)c[i][1];
		x = c[i][0] < 0 ? 0 : x > W - 1 ? W - 1 : x;
		y = c[i][1] < 0 ? 0 : y > H - 1 ? H - 1 : y;
		CHECK(out[i][0] == img[y][x][0] && out[i][1] == img[y][x][1] && out[i][2] == 0 && out[i][3] == 1);
	}
	CHECK(!cudaDestroyTextureObject(t) && cudaDestroyTextureObject(t) == 1);
	CHECK(!cudaFreeArray(a) && !cudaFree(dc) && !cudaFree(dout));
}

/* tex1Dfetch over linear memory and a 2-D fetch over pitched memory */
static void linear_and_pitched(void)
{
	float lin[6][4], out[NC][4], *dl, *dout;
	for (int i = 0; i < 6; i++)
		for (int k = 0; k < 4; k++)
			lin[i][k] = (float)(i * 4 + k);
	cudaMalloc((void **)&dl, sizeof lin);
	cudaMalloc((void **)&dout, sizeof out);
	cudaMemcpy(dl, lin, sizeof lin, H2D);
	struct cudaResourceDesc rd = {0};
	rd.resType = 2;
	rd.res.linear.devPtr = dl;
	rd.res.linear.desc = cudaCreateChannelDesc(32, 32, 32, 32, 2);
	rd.res.linear.sizeInBytes = sizeof lin;
	struct cudaTextureDesc td = {{1, 1, 1}, 0, 0, 0, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0};
	uint64_t t;
	CHECK(!cudaCreateTextureObject(&t, &rd, &td, NULL));
	void *args[] = {&t, &dout};
	CHECK(!launch(&host_linear, (dim3){1, 1, 1}, (dim3){NC, 1, 1}, args));
	cudaMemcpy(out, dout, sizeof out, D2H);
	for (int i = 0; i < NC; i++) /* index i - 1: -1 and 6, 7 are outside, zeros */
		for (int k = 0; k < 4; k++)
			CHECK(out[i][k] == (i >= 1 && i <= 6 ? lin[i - 1][k] : 0.f));
	cudaDestroyTextureObject(t);
	/* a three-channel description is refused, as CUDA refuses it */
	rd.res.linear.desc = cudaCreateChannelDesc(32, 32, 32, 0, 2);
	CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL) == 20);
	/* pitched: 3 rows of 2 float4 texels */
	float *dp;
	size_t pitch;
	CHECK(!cudaMallocPitch((void **)&dp, &pitch, 2 * 16, 3));
	CHECK(!cudaMemcpy2D(dp, pitch, lin, 32, 32, 3, H2D));
	rd.resType = 3;
	rd.res.pitch2D.devPtr = dp;
	rd.res.pitch2D.desc = cudaCreateChannelDesc(32, 32, 32, 32, 2);
	rd.res.pitch2D.width = 2;
	rd.res.pitch2D.height = 3;
	rd.res.pitch2D.pitchInBytes = pitch;
	CHECK(!cudaCreateTextureObject(&t, &rd, &td, NULL));
	float c[NC][2] = {{0.5f, 0.5f}, {1.5f, 2.5f}, {1.5f, 0.5f}, {0.5f, 1.5f}, {5, 5}, {-1, 1}, {1, 2}, {0, 2}};
	float *dc;
	cudaMalloc((void **)&dc, sizeof c);
	cudaMemcpy(dc, c, sizeof c, H2D);
	void *a2[] = {&t, &dc, &dout};
	CHECK(!launch(&host_fetch, (dim3){1, 1, 1}, (dim3){NC, 1, 1}, a2));
	cudaMemcpy(out, dout, sizeof out, D2H);
	for (int i = 0; i < NC; i++) {
		int x = c[i][0] < 0 ? 0 : c[i][0] > 1 ? 1 : (int)c[i][0], y = c[i][1] > 2 ? 2 : (int)c[i][1];
		CHECK(out[i][0] == lin[2 * y + x][0] && out[i][3] == lin[2 * y + x][3]);
	}
	cudaDestroyTextureObject(t);
	cudaFree(dl);
	cudaFree(dp);
	cudaFree(dc);
	cudaFree(dout);
}

/* 3-D int surfaces: cudaMemcpy3D in, surf_double, cudaMemcpy3D and
 * cudaMemcpyFromArray out */
static void surfaces(void)
{
	enum { X = 5, Y = 3, Z = 2 };
	int in[Z][Y][X], out[Z][Y][X], flat[Z][Y][X];
	for (int z = 0; z < Z; z++)
		for (int y = 0; y < Y; y++)
			for (int x = 0; x < X; x++)
				in[z][y][x] = x + 10 * y + 100 * z;
	struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, 0);
	cudaArray_t a, b;
	CHECK(!cudaMalloc3DArray(&a, &cd, (struct cudaExtent){X, Y, Z}, 2));
	CHECK(!cudaMalloc3DArray(&b, &cd, (struct cudaExtent){X, Y, Z}, 2));
	struct cudaMemcpy3DParms p = {0};
	p.srcPtr = (struct cudaPitchedPtr){in, X * 4, X, Y};
	p.dstArray = a;
	p.extent = (struct cudaExtent){X, Y, Z};
	p.kind = H2D;
	CHECK(!cudaMemcpy3D(&p));
	struct cudaResourceDesc rd = {0}, rb;
	uint64_t sa, sb;
	rd.res.array.array = a;
	CHECK(!cudaCreateSurfaceObject(&sa, &rd));
	rd.res.array.array = b;
	CHECK(!cudaCreateSurfaceObject(&sb, &rd));
	CHECK(!cudaGetSurfaceObjectResourceDesc(&rb, sb) && rb.res.array.array == b);
	void *args[] = {&sa, &sb};
	CHECK(!launch(&host_surf, (dim3){Z, 1, 1}, (dim3){X, Y, 1}, args));
	memset(&p, 0, sizeof p);
	p.srcArray = b;
	p.dstPtr = (struct cudaPitchedPtr){out, X * 4, X, Y};
	p.extent = (struct cudaExtent){X, Y, Z};
	p.kind = D2H;
	CHECK(!cudaMemcpy3D(&p));
	CHECK(!cudaMemcpyFromArray(flat, b, 0, 0, sizeof flat, D2H) && !memcmp(flat, out, sizeof out));
	for (int z = 0; z < Z; z++)
		for (int y = 0; y < Y; y++)
			for (int x = 0; x < X; x++)
				CHECK(out[z][y][x] == 2 * in[z][y][x]);
	CHECK(!cudaMemcpyToArray(a, 4, 1, in, 8, H2D) && cudaMemcpyToArray(a, 0, 6, in, 4, H2D) == 1);
	/* a texture handle is no surface */
	CHECK(cudaDestroySurfaceObject(12345) == 1);
	CHECK(!cudaDestroySurfaceObject(sa) && !cudaDestroySurfaceObject(sb));
	CHECK(!cudaFreeArray(a) && !cudaFreeArray(b));
}

int main(int argc, char **argv)
{
	const void *blob = argc == 2 ? read_file(argv[1]) : NULL;
	if (!blob) {
		fprintf(stderr, "usage: tex_host FATBIN (a readable one)\n");
		return 2;
	}
	wrapper.data = blob;
	void **h = __cudaRegisterFatBinary(&wrapper);
	__cudaRegisterFunction(h, &host_fetch, &host_fetch, "tex_fetch", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFunction(h, &host_linear, &host_linear, "tex_linear", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFunction(h, &host_surf, &host_surf, "surf_double", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFatBinaryEnd(h);
	array_texture();
	linear_and_pitched();
	surfaces();
	CHECK(cudaGetLastError() == 1); /* the refused calls' last error */
	__cudaUnregisterFatBinary(h);
	if (!failures)
		printf("textures ok\n");
	return failures ? 1 : 0;
}
