/* cuda_host — a CUDA program without nvcc, for the CUDA runtime's tests
 * (tests/cudart/test_runtime.c): it registers a committed fatbinary as
 * nvcc's generated host code does (__cudaRegisterFatBinary, ...Function, ...Var,
 * ...End) and calls the runtime as nvcc's host code and a program would.
 * Usage: cuda_host FATBIN CASE. Each case checks its own results, prints
 * what the tests compare and exits 0; 1 on a wrong result (the line says
 * which); 2 on bad usage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the CUDA runtime's ABI, as its headers declare it ---- */
typedef int cudaError_t;
typedef struct dim3 { unsigned x, y, z; } dim3;
typedef void *cudaStream_t, *cudaEvent_t, *cudaKernel_t;
enum { H2H = 0, H2D, D2H, D2D, DEFAULT };

void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **h);
void __cudaUnregisterFatBinary(void **h);
void __cudaRegisterFunction(void **h, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize);
void __cudaRegisterVar(void **h, char *host_var, char *device_address, const char *device_name, int ext,
                       size_t size, int constant, int global);
char __cudaInitModule(void **h);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *host_fun);
cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int kind);
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, int kind, cudaStream_t st);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind);
cudaError_t cudaGetSymbolAddress(void **p, const void *sym);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int kind);
cudaError_t cudaFuncSetCacheConfig(const void *f, int c);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t smem);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(int limit, size_t v);
cudaError_t cudaDeviceGetLimit(size_t *v, int limit);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetSymbolSize(size_t *n, const void *sym);
cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off, int kind, cudaStream_t s);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off, int kind, cudaStream_t s);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *f, int block, size_t smem,
                                                                   unsigned flags);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
const char *cudaGetErrorName(cudaError_t e);
void cudaGraphCreate(void); /* exported by CUDA 13's runtime, not by flipsim's */
/* the names nvcc --default-stream per-thread calls */
cudaError_t cudaMemcpy_ptds(void *d, const void *s, size_t n, int kind);
cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n, size_t off, int kind);
cudaError_t cudaMemcpy2D_ptds(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int kind);
cudaError_t cudaMemset_ptds(void *p, int v, size_t n);
cudaError_t cudaMemcpyAsync_ptsz(void *d, const void *s, size_t n, int kind, cudaStream_t st);
cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *src, size_t n, size_t off, int kind,
                                         cudaStream_t s);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *sym, size_t n, size_t off, int kind,
                                           cudaStream_t s);
cudaError_t cudaLaunchKernel_ptsz(const void *f, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s);

/* cudaDeviceProp and cudaFuncAttributes: the fields the cases read, at
 * CUDA 13's offsets (the rest as padding). */
typedef struct prop {
	char name[256];
	unsigned char pad0[288 - 256];
	size_t totalGlobalMem, sharedMemPerBlock;
	int regsPerBlock, warpSize;
	unsigned char pad1[384 - 312];
	int multiProcessorCount;
	unsigned char pad2[688 - 388];
	int maxBlocksPerMultiProcessor;
	unsigned char pad3[1008 - 692];
} prop_t;
cudaError_t cudaGetDeviceProperties(prop_t *p, int d);
typedef struct fattr {
	size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
	int maxThreadsPerBlock, numRegs, rest[28];
} fattr_t;
cudaError_t cudaFuncGetAttributes(fattr_t *a, const void *f);

/* ---- what nvcc's host code would define: host shadows of the device things ---- */
static char host_vadd, host_blocksum, host_inc, host_poke; /* the kernels' host addresses */
static int counter[4];                                       /* __device__ int counter[4] */
static float scale[2];                                       /* __constant__ float scale[2] */

static struct { uint32_t magic, version; const void *data; void *unused; } wrapper = {0x466243b1u, 1, NULL, NULL};
static void **handle;

static int failures;
#define CHECK(cond)                                                       \
	do {                                                                  \
		if (!(cond)) {                                                    \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
			failures++;                                                   \
		}                                                                 \
	} while (0)

static void *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *d = n > 0 ? malloc((size_t)n) : NULL;
	if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
		free(d);
		d = NULL;
	}
	fclose(f);
	return d;
}

/* As nvcc's __sti____cudaRegisterAll does. */
static void register_all(const void *blob)
{
	wrapper.data = blob;
	handle = __cudaRegisterFatBinary(&wrapper);
	__cudaRegisterFunction(handle, &host_vadd, &host_vadd, "vadd", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFunction(handle, &host_blocksum, &host_blocksum, "blocksum", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFunction(handle, &host_inc, &host_inc, "inc", -1, 0, 0, 0, 0, 0);
	__cudaRegisterFunction(handle, &host_poke, &host_poke, "poke", -1, 0, 0, 0, 0, 0);
	__cudaRegisterVar(handle, (char *)counter, (char *)counter, "counter", 0, sizeof counter, 0, 0);
	__cudaRegisterVar(handle, (char *)scale, (char *)scale, "scale", 0, sizeof scale, 1, 0);
	__cudaRegisterFatBinaryEnd(handle);
}

/* A launch as nvcc 13's <<<>>> makes it: push, then the kernel's host function pops and launches. */
static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args, cudaStream_t stream)
{
	static cudaKernel_t k;
	dim3 g, b;
	size_t smem;
	cudaStream_t s;
	if (__cudaPushCallConfiguration(grid, block, 0, stream))
		return -1;
	if (__cudaGetKernel(&k, fn))
		return -2;
	if (__cudaPopCallConfiguration(&g, &b, &smem, &s))
		return -3;
	return __cudaLaunchKernel(k, g, b, args, smem, s);
}

enum { N = 1000 };

static uint64_t fnv(const void *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3u;
	return h;
}

/* vadd through every symbol entry point; prints the output's digest. */
static void case_vadd(cudaStream_t stream)
{
	static float a[N], b[N], c[N];
	float *da, *db, *dc;
	int n = N, cnt[4] = {1, 2, 3, 4}, back[4] = {0};
	float s[2] = {2.0f, -1.0f};
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1.0f - (float)i;
	}
	CHECK(!cudaMalloc((void **)&da, sizeof a) && !cudaMalloc((void **)&db, sizeof b) && !cudaMalloc((void **)&dc, sizeof c));
	CHECK(!cudaMemcpy(da, a, sizeof a, H2D) && !cudaMemcpyAsync(db, b, sizeof b, H2D, stream));
	CHECK(!cudaMemcpyToSymbol(scale, s, sizeof s, 0, H2D));
	CHECK(!cudaMemcpyToSymbol(counter, cnt, sizeof cnt, 0, DEFAULT));
	void *args[] = {&da, &db, &dc, &n};
	CHECK(launch(&host_vadd, (dim3){(N + 127) / 128, 1, 1}, (dim3){128, 1, 1}, args, stream) == 0);
	CHECK(!cudaMemcpy(c, dc, sizeof c, DEFAULT));
	for (int i = 0; i < N; i++)
		if (c[i] != (a[i] + b[i]) * s[0] + (float)cnt[i & 3]) {
			printf("FAIL c[%d] = %g\n", i, c[i]);
			failures++;
			break;
		}
	float s1 = 0;
	CHECK(!cudaMemcpyFromSymbol(&s1, scale, sizeof s1, sizeof(float), D2H) && s1 == -1.0f);
	CHECK(!cudaMemcpyFromSymbol(back, counter, sizeof back, 0, D2H) && !memcmp(back, cnt, sizeof cnt));
	size_t sz = 0;
	int one = 9;
	CHECK(!cudaGetSymbolSize(&sz, counter) && sz == sizeof counter && !cudaGetSymbolSize(&sz, scale) && sz == 8);
	CHECK(!cudaMemcpyToSymbolAsync(counter, &one, 4, 0, H2D, stream));
	CHECK(!cudaMemcpyFromSymbolAsync(&back[1], counter, 4, 0, D2H, stream) && back[1] == 9);
	CHECK(!cudaMemcpyToSymbol(counter, cnt, 4, 0, H2D));
	int *dcount, two[2];
	CHECK(!cudaGetSymbolAddress((void **)&dcount, counter));
	CHECK(!cudaMemcpy(two, dcount + 2, sizeof two, D2H) && two[0] == 3 && two[1] == 4);
	void *nowhere;
	CHECK(cudaGetSymbolAddress(&nowhere, scale) == 13); /* the constant bank has no address */
	CHECK(cudaMemcpyToSymbol(&n, s, 4, 0, H2D) == 13);  /* not a registered symbol */
	CHECK(cudaMemcpyToSymbol(counter, cnt, sizeof cnt, 4, H2D) == 1); /* past its end */
	printf("vadd c fnv1a %016llx\n", (unsigned long long)fnv(c, sizeof c));
	CHECK(!cudaFree(da) && !cudaFree(db) && !cudaFree(dc));
}

static void case_memory(void)
{
	int h[64], g[64], *d, *e;
	for (int i = 0; i < 64; i++)
		h[i] = i * 7;
	CHECK(!cudaMalloc((void **)&d, sizeof h) && !cudaMalloc((void **)&e, sizeof h));
	CHECK(!cudaMemset(d, 0xab, sizeof h) && !cudaMemcpy(g, d, sizeof g, D2H) && (unsigned)g[5] == 0xababababu);
	CHECK(!cudaMemcpy(d, h, sizeof h, DEFAULT) && !cudaMemcpy(e, d, sizeof h, D2D));
	memset(g, 0, sizeof g);
	CHECK(!cudaMemcpy(g, e, sizeof g, DEFAULT) && !memcmp(g, h, sizeof h));
	CHECK(!cudaMemcpy(g, h, sizeof g, H2H));
	CHECK(cudaMemcpy(g, d, sizeof g, H2D) == 1);    /* g is not device memory */
	CHECK(cudaMemcpy(d, h, sizeof h, 7) == 21);     /* no such direction */
	CHECK(cudaMemset(h, 0, sizeof h) == 1);         /* not device memory */
	CHECK(cudaFree(h) == 1);
	/* pitched: 3 rows of 10 ints */
	int *p, rows[30], out[30];
	size_t pitch = 0;
	for (int i = 0; i < 30; i++)
		rows[i] = 1000 + i;
	CHECK(!cudaMallocPitch((void **)&p, &pitch, 10 * sizeof(int), 3) && pitch >= 40 && pitch % 256 == 0);
	CHECK(!cudaMemcpy2D(p, pitch, rows, 40, 40, 3, H2D));
	CHECK(!cudaMemcpy2D(out, 40, p, pitch, 40, 3, D2H) && !memcmp(out, rows, sizeof rows));
	CHECK(cudaMemcpy2D(out, 20, p, pitch, 40, 3, D2H) == 1); /* a row wider than the pitch */
	/* pinned host memory is host memory */
	int *pin, *pin2;
	CHECK(!cudaMallocHost((void **)&pin, 64) && !cudaHostAlloc((void **)&pin2, 64, 0));
	pin[0] = 5;
	CHECK(!cudaMemcpy(d, pin, 4, H2D) && !cudaMemcpy(pin2, d, 4, D2H) && pin2[0] == 5);
	CHECK(!cudaFreeHost(pin) && !cudaFreeHost(pin2) && cudaFreeHost(h) == 1);
	CHECK(!cudaFree(d) && !cudaFree(e) && !cudaFree(p) && !cudaFree(NULL));
	printf("memory ok\n");
}

static void case_managed(void)
{
	int *m, n = 300;
#ifdef __SANITIZE_ADDRESS__
	/* AddressSanitizer's shadow gap covers the device addresses (from 4 GiB
	 * up) where managed memory maps the host's copy: refused, by name */
	CHECK(cudaMallocManaged((void **)&m, n * sizeof(int), 1) == 2);
	printf("managed: refused under AddressSanitizer\n");
	return;
#endif
	CHECK(!cudaMallocManaged((void **)&m, n * sizeof(int), 1));
	for (int i = 0; i < n; i++)
		m[i] = i;
	void *args[] = {&m, &n};
	CHECK(!cudaLaunchKernel(&host_inc, (dim3){3, 1, 1}, (dim3){128, 1, 1}, args, 0, NULL));
	CHECK(!cudaDeviceSynchronize());
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += m[i] != i + 1;
	CHECK(bad == 0);
	int h[4];
	CHECK(!cudaMemcpy(h, m + 10, sizeof h, DEFAULT) && h[0] == 11 && h[3] == 14);
	CHECK(!cudaMemset(m, 0, 8) && m[0] == 0 && m[1] == 0 && m[2] == 3);
	CHECK(!cudaFree(m));
	CHECK(cudaLaunchKernel(&n, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, NULL) == 98); /* not a kernel */
	printf("managed ok\n");
}

static void case_device(void)
{
	prop_t pr;
	fattr_t fa;
	int n = -1, d = -1, blocks = -1;
	size_t v = 0;
	CHECK(!cudaGetDeviceCount(&n) && n == 1);
	CHECK(!cudaSetDevice(0) && cudaSetDevice(1) == 101 && !cudaGetDevice(&d) && d == 0);
	CHECK(!cudaGetDeviceProperties(&pr, 0) && cudaGetDeviceProperties(&pr, 1) == 101);
	CHECK(!cudaGetDeviceProperties(&pr, 0));
	printf("device %s sms %d warp %d smem/block %zu blocks/sm %d\n", pr.name, pr.multiProcessorCount, pr.warpSize,
	       pr.sharedMemPerBlock, pr.maxBlocksPerMultiProcessor);
	CHECK(!cudaFuncGetAttributes(&fa, &host_blocksum) && fa.sharedSizeBytes == 1024 && fa.numRegs > 0);
	CHECK(cudaFuncGetAttributes(&fa, &n) == 98);
	CHECK(!cudaFuncSetCacheConfig(&host_blocksum, 1) && cudaFuncSetCacheConfig(&n, 1) == 98);
	CHECK(!cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &host_blocksum, 256, 0));
	int b2 = -1, dv = 0, rv = 0;
	CHECK(!cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&b2, &host_blocksum, 256, 0, 0) && b2 == blocks);
	CHECK(!cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b2, &host_blocksum, 1024, 0) && b2 >= 1);
	CHECK(!cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b2, &host_blocksum, 2048, 0) && b2 == 0);
	CHECK(!cudaDriverGetVersion(&dv) && !cudaRuntimeGetVersion(&rv) && dv == 13000 && rv == 13000);
	CHECK(!cudaThreadSynchronize());
	printf("blocksum smem %zu max threads %d occupancy(256) %d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock, blocks);
	CHECK(!cudaDeviceSetLimit(1, 1 << 22) && !cudaDeviceGetLimit(&v, 1) && v == 1u << 22);
	CHECK(!cudaDeviceSetLimit(2, 1 << 24) && !cudaDeviceGetLimit(&v, 2) && v == 1u << 24);
	CHECK(cudaDeviceSetLimit(1, 0) == 1 && cudaGetLastError() == 1); /* a FIFO of no bytes */
	/* the call stack of recursion and indirect calls: 1 KiB unless set */
	CHECK(!cudaDeviceGetLimit(&v, 0) && v == 1024);
	CHECK(!cudaDeviceSetLimit(0, 4096) && !cudaDeviceGetLimit(&v, 0) && v == 4096);
	CHECK(cudaDeviceSetLimit(0, 0) == 1 && cudaGetLastError() == 1);
	CHECK(__cudaInitModule(handle) == 1);
	/* the blocksum kernel itself: 4 blocks of 256 */
	int in[1024], out[4], *din, *dout;
	for (int i = 0; i < 1024; i++)
		in[i] = i;
	CHECK(!cudaMalloc((void **)&din, sizeof in) && !cudaMalloc((void **)&dout, sizeof out));
	CHECK(!cudaMemcpy(din, in, sizeof in, H2D));
	void *args[] = {&din, &dout};
	CHECK(launch(&host_blocksum, (dim3){4, 1, 1}, (dim3){256, 1, 1}, args, NULL) == 0);
	CHECK(!cudaMemcpy(out, dout, sizeof out, D2H));
	for (int b = 0; b < 4; b++)
		CHECK(out[b] == 256 * 256 * b + 255 * 128);
	CHECK(launch(&host_blocksum, (dim3){1, 1, 1}, (dim3){4096, 1, 1}, args, NULL) == 9); /* too large */
	cudaKernel_t k;
	CHECK(!__cudaGetKernel(&k, &host_blocksum) && __cudaGetKernel(&k, &n) == 98);
	CHECK(!cudaMemset(dout, 0, sizeof out));
	CHECK(!__cudaLaunchKernel_ptsz(k, (dim3){4, 1, 1}, (dim3){256, 1, 1}, args, 0, NULL));
	CHECK(!cudaMemcpy(out, dout, sizeof out, D2H) && out[3] == 256 * 256 * 3 + 255 * 128);
}

static void case_events(void)
{
	cudaStream_t s;
	cudaEvent_t a, b;
	float ms = -1;
	CHECK(!cudaStreamCreate(&s) && !cudaEventCreate(&a) && !cudaEventCreateWithFlags(&b, 2));
	CHECK(!cudaEventRecord(a, s));
	case_vadd(s);
	CHECK(!cudaEventRecord(b, s) && !cudaEventSynchronize(b) && !cudaStreamSynchronize(s));
	CHECK(!cudaEventQuery(b) && !cudaStreamQuery(s) && !cudaStreamQuery(NULL));
	cudaStream_t s2;
	int *d, v = 0;
	CHECK(!cudaStreamCreateWithFlags(&s2, 1) && !cudaMalloc((void **)&d, 4));
	CHECK(!cudaMemsetAsync(d, 1, 4, s2) && !cudaMemcpy(&v, d, 4, D2H) && v == 0x01010101);
	CHECK(!cudaStreamDestroy(s2) && cudaStreamDestroy(NULL) == 400);
	CHECK(!cudaEventElapsedTime(&ms, a, b) && ms > 0);
	printf("elapsed %.6f ms\n", ms);
	CHECK(!cudaStreamDestroy(s) && !cudaEventDestroy(a) && !cudaEventDestroy(b));
	CHECK(cudaEventElapsedTime(&ms, a, NULL) == 400);
}

static void case_due(void)
{
	int *bad = (int *)(uintptr_t)16, *d;
	void *args[] = {&bad};
	cudaError_t e = launch(&host_poke, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, NULL);
	printf("launch %s (%d)\n", cudaGetErrorName(e), e);
	CHECK(e == 700);
	CHECK(cudaDeviceSynchronize() == 700 && cudaMalloc((void **)&d, 4) == 700);
	CHECK(cudaGetLastError() == 700 && cudaGetLastError() == 700); /* sticky */
	printf("%s\n", cudaGetErrorString(cudaPeekAtLastError()));
	CHECK(!cudaDeviceReset());
	CHECK(cudaGetLastError() == 0 && !cudaMalloc((void **)&d, 4));
	void *ok[] = {&d};
	int v = 0;
	CHECK(launch(&host_poke, (dim3){1, 1, 1}, (dim3){1, 1, 1}, ok, NULL) == 0 && !cudaMemcpy(&v, d, 4, D2H) && v == 42);
}

/* every per-thread-stream name once */
static void case_ptds(void)
{
	int *d, h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, g[8] = {0}, c[4] = {5, 6, 7, 8}, n = 8;
	cudaStream_t s;
	cudaEvent_t e;
	CHECK(!cudaStreamCreate(&s) && !cudaEventCreate(&e) && !cudaMalloc((void **)&d, sizeof h));
	CHECK(!cudaMemset_ptds(d, 0, sizeof h) && !cudaMemsetAsync_ptsz(d, 0, 4, s));
	CHECK(!cudaMemcpy_ptds(d, h, sizeof h, H2D) && !cudaMemcpyAsync_ptsz(g, d, sizeof g, D2H, s) && g[7] == 8);
	CHECK(!cudaMemcpy2D_ptds(g, 8, d, 16, 8, 2, D2H) && g[0] == 1 && g[1] == 2 && g[2] == 5 && g[3] == 6);
	void *args[] = {&d, &n};
	CHECK(!cudaLaunchKernel_ptsz(&host_inc, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, s));
	CHECK(!cudaEventRecord_ptsz(e, s) && !cudaStreamSynchronize_ptsz(s) && !cudaStreamQuery_ptsz(s));
	CHECK(!cudaMemcpy(g, d, sizeof g, D2H) && g[0] == 2 && g[7] == 9);
	CHECK(!cudaMemcpyToSymbol_ptds(counter, c, sizeof c, 0, H2D) && !cudaMemcpyToSymbolAsync_ptsz(counter, c, 4, 4, H2D, s));
	CHECK(!cudaMemcpyFromSymbol_ptds(g, counter, sizeof c, 0, D2H) && g[0] == 5 && g[1] == 5 && g[3] == 8);
	CHECK(!cudaMemcpyFromSymbolAsync_ptsz(g, counter, 4, 12, D2H, s) && g[0] == 8);
	CHECK(!cudaFree(d) && !cudaStreamDestroy(s) && !cudaEventDestroy(e));
	printf("ptds ok\n");
}

static void case_errors(void)
{
	CHECK(cudaGetLastError() == 0 && cudaPeekAtLastError() == 0);
	CHECK(cudaSetDevice(3) == 101);
	CHECK(cudaPeekAtLastError() == 101 && cudaPeekAtLastError() == 101);
	CHECK(cudaGetLastError() == 101 && cudaGetLastError() == 0);
	printf("%s / %s / %s / %s\n", cudaGetErrorName(0), cudaGetErrorString(0), cudaGetErrorName(101),
	       cudaGetErrorString(12345));
	CHECK(cudaSetDevice(-1) == 101 && !cudaThreadExit() && cudaGetLastError() == 0);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: cuda_host FATBIN vadd|memory|managed|device|events|due|errors|ptds|unsupported\n");
		return 2;
	}
	void *blob = read_file(argv[1]);
	if (!blob) {
		fprintf(stderr, "cuda_host: cannot read %s\n", argv[1]);
		return 2;
	}
	register_all(blob);
	const char *c = argv[2];
	if (!strcmp(c, "vadd"))
		case_vadd(NULL);
	else if (!strcmp(c, "memory"))
		case_memory();
	else if (!strcmp(c, "managed"))
		case_managed();
	else if (!strcmp(c, "device"))
		case_device();
	else if (!strcmp(c, "events"))
		case_events();
	else if (!strcmp(c, "due"))
		case_due();
	else if (!strcmp(c, "errors"))
		case_errors();
	else if (!strcmp(c, "ptds"))
		case_ptds();
	else if (!strcmp(c, "unsupported"))
		cudaGraphCreate();
	else {
		fprintf(stderr, "cuda_host: unknown case '%s'\n", c);
		return 2;
	}
	__cudaUnregisterFatBinary(handle);
	return failures ? 1 : 0;
}
