/* The CUDA runtime on simcore (build/libcudart.so.13): the entry points
 * nvcc's host code and CUDA programs call, on one simulated GPU. Model and
 * deviations: docs/DESIGN.md, "CUDA programs"; what a user sees: README,
 * "Bring your own CUDA program". Every call runs to completion before it
 * returns (launches, copies, streams and events alike), so a program's run
 * is deterministic. State: one process-wide rt_t (a CUDA context has one
 * per process too); device pointers are simcore's global addresses. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "campaigns.h"
#include "cudart.h"
#include "simcore.h"

#define API __attribute__((visibility("default")))

/* ---- the CUDA ABI: the types as nvcc 13's headers lay them out ---- */
typedef int cudaError_t;
typedef struct dim3 { unsigned x, y, z; } dim3;
typedef struct stream *cudaStream_t;
typedef struct event *cudaEvent_t;
typedef struct kernel *cudaKernel_t;

/* X(name, code, description) of every error this runtime returns. */
#define CR_CUDA_ERRORS(X)                                                                          \
	X(cudaSuccess, 0, "no error")                                                                  \
	X(cudaErrorInvalidValue, 1, "invalid argument")                                                \
	X(cudaErrorMemoryAllocation, 2, "out of memory")                                               \
	X(cudaErrorInitializationError, 3, "initialization error")                                    \
	X(cudaErrorCudartUnloading, 4, "driver shutting down")                                         \
	X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument")                         \
	X(cudaErrorInvalidSymbol, 13, "invalid device symbol")                                         \
	X(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor")                        \
	X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy")                   \
	X(cudaErrorInvalidDeviceFunction, 98, "invalid device function")                              \
	X(cudaErrorInvalidDevice, 101, "invalid device ordinal")                                       \
	X(cudaErrorECCUncorrectable, 214, "uncorrectable ECC error encountered")                      \
	X(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed")                                    \
	X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle")                             \
	X(cudaErrorNotReady, 600, "device not ready")                                                  \
	X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered")                   \
	X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated")                     \
	X(cudaErrorAssert, 710, "device-side assert triggered")                                        \
	X(cudaErrorHardwareStackError, 714, "hardware stack error")                                    \
	X(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered")                 \
	X(cudaErrorMisalignedAddress, 716, "misaligned address")                                       \
	X(cudaErrorInvalidPc, 718, "invalid program counter")                                          \
	X(cudaErrorLaunchFailure, 719, "unspecified launch failure")                                   \
	X(cudaErrorNotSupported, 801, "operation not supported")                                       \
	X(cudaErrorUnknown, 999, "unknown error")

enum {
#define X(name, code, text) name = code,
	CR_CUDA_ERRORS(X)
#undef X
};

enum { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice,
       cudaMemcpyDefault };
enum { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };

struct cudaDeviceProp {
	char name[256];
	unsigned char uuid[16];
	char luid[8];
	unsigned luidDeviceNodeMask;
	size_t totalGlobalMem, sharedMemPerBlock;
	int regsPerBlock, warpSize;
	size_t memPitch;
	int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
	size_t totalConstMem;
	int major, minor;
	size_t textureAlignment, texturePitchAlignment;
	int multiProcessorCount, integrated, canMapHostMemory;
	int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3],
	    maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2],
	    maxTexture2DLayered[3], maxTextureCubemapLayered[2];
	int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3],
	    maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
	size_t surfaceAlignment;
	int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
	    unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,
	    streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
	size_t sharedMemPerMultiprocessor;
	int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
	    pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported,
	    canUseHostPointerForRegisteredMem, cooperativeLaunch;
	size_t sharedMemPerBlockOptin;
	int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
	    accessPolicyMaxWindowSize;
	size_t reservedSharedMemPerBlock;
	int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
	    timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
	unsigned gpuDirectRDMAFlushWritesOptions;
	int gpuDirectRDMAWritesOrdering;
	unsigned memoryPoolSupportedHandleTypes;
	int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
	    deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
	unsigned gpuPciDeviceID, gpuPciSubsystemID;
	int hostNumaMultinodeIpcSupported, reserved[56];
};
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp as CUDA 13 lays it out");
_Static_assert(offsetof(struct cudaDeviceProp, multiProcessorCount) == 384, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, maxBlocksPerMultiProcessor) == 688, "cudaDeviceProp layout");

struct cudaFuncAttributes {
	size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
	int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
	    preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight,
	    requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed, reserved[16];
};
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes as CUDA 13 lays it out");

/* ---- the runtime's state ---- */

typedef struct fatbin {
	const void *wrapper;   /* the program's, as registered */
	char *ptx;             /* its PTX (owned) */
	sc_module_t *mod;      /* loaded on the GPU; NULL until first needed */
	bool broken;           /* loading failed (message printed once) */
} fatbin_t;

struct kernel {           /* a registered kernel: the handle __cudaGetKernel gives */
	const void *host_fun;
	char *name;
	uint32_t fb;
};

typedef struct var {
	const void *host_var;
	char *name;
	uint32_t fb;
	size_t size;
} var_t;

typedef struct managed {   /* host mapping at the device address (DESIGN.md) */
	uint64_t base;         /* sc_malloc's address */
	uint64_t addr, len;    /* the page-aligned range mapped on both sides */
} managed_t;

typedef struct hostmem {   /* cudaMallocHost / cudaHostAlloc */
	void *p;
} hostmem_t;

struct stream { int magic; };
struct event { int magic; bool recorded; uint64_t cycle; };
#define STREAM_MAGIC 0x5354524d
#define EVENT_MAGIC 0x45564e54

typedef struct callcfg {
	dim3 grid, block;
	size_t smem;
	void *stream;
} callcfg_t;

typedef struct rt {
	sc_gpu_t *gpu;
	fatbin_t *fb;
	uint32_t nfb, capfb;
	struct kernel **k;
	uint32_t nk, capk;
	var_t *v;
	uint32_t nv, capv;
	managed_t *m;
	uint32_t nm, capm;
	hostmem_t *h;
	uint32_t nh, caph;
	callcfg_t cfg[16];     /* __cudaPushCallConfiguration's stack */
	uint32_t ncfg;
	cudaError_t last, sticky;
	int device;
	uint32_t live_fb;      /* fatbinaries registered and not yet unregistered */
	bool unloaded;         /* the last one went: the runtime is shut down */
} rt_t;

static rt_t R;

/* Grows array *a of *cap elements of size sz to hold n + 1. */
static bool grow(void *a, uint32_t n, uint32_t *cap, size_t sz)
{
	void **p = a;
	if (n < *cap)
		return true;
	uint32_t c = *cap ? *cap * 2 : 16;
	void *q = realloc(*p, c * sz);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	fputs("flipsim: cudart: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* An entry point the runtime does not provide (unsupported.c, generated from
 * exports.txt by unsupported.sh): the program ends naming it. */
_Noreturn void cr__unsupported(const char *name);
_Noreturn void cr__unsupported(const char *name)
{
	die("%s is not supported (README, \"Bring your own CUDA program\", lists what is)", name);
}

/* Records err as the last error (a sticky one stays) and returns it. */
static cudaError_t ret(cudaError_t err)
{
	if (err != cudaSuccess)
		R.last = err;
	return err;
}

/* The GPU this process simulates: under flipsim the job's (sc_gpu_create
 * takes it from FLIPSIM_RT); run directly, FLIPSIM_GPU (a preset name or
 * GPU JSON file, default gtx480) and FLIPSIM_REGS (ptx, alloc or unalloc,
 * default ptx). Bad values end the program with exit 2. */
static sc_gpu_t *gpu(void)
{
	if (R.gpu)
		return R.gpu;
	const char *name = getenv("FLIPSIM_GPU"), *regs = getenv("FLIPSIM_REGS");
	sc_gpu_config_t cfg;
	sc_options_t opt = {.regs = SC_REGS_PTX};
	char err[512];
	if (camp_gpu_load(name && *name ? name : "gtx480", &cfg, err, sizeof err))
		die("FLIPSIM_GPU: %s", err);
	if (regs && *regs && sc_regs_parse(regs, &opt.regs))
		die("FLIPSIM_REGS: expected ptx, alloc or unalloc, got '%s'", regs);
	int rc = sc_gpu_create(&cfg, &opt, &R.gpu);
	if (rc)
		die("cannot create the simulated GPU: %s", sc_strerror(rc));
	return R.gpu;
}

/* The module of fatbinary i, loaded on first use; NULL when its PTX does
 * not load (the reason printed once). */
static sc_module_t *module(uint32_t i)
{
	fatbin_t *f = &R.fb[i];
	if (f->mod || f->broken)
		return f->mod;
	char name[64];
	snprintf(name, sizeof name, "fatbin%u.ptx", i);
	int rc = sc_module_load_text(gpu(), name, f->ptx, &f->mod);
	if (rc) {
		f->broken = true;
		f->mod = NULL;
		fprintf(stderr, "flipsim: cudart: the program's PTX does not load: %s: %s\n", sc_strerror(rc),
		        sc_gpu_errmsg(R.gpu));
	}
	return f->mod;
}

/* cudaError_t of a simcore error, the DUE's for SC_EDUE (sticky then). */
static cudaError_t from_sc(int rc)
{
	switch (rc) {
	case 0: return cudaSuccess;
	case SC_ENOMEM: return cudaErrorMemoryAllocation;
	case SC_EINVAL: return cudaErrorInvalidValue;
	case SC_ENOTFOUND: return cudaErrorInvalidDeviceFunction;
	case SC_ELAUNCH: return cudaErrorInvalidConfiguration;
	case SC_EPARSE: return cudaErrorInvalidPtx;
	case SC_EDUE:
	case SC_ESTICKY: break;
	default: return cudaErrorUnknown;
	}
	cudaError_t e;
	switch (sc_gpu_status(R.gpu)->reason) {
	case SC_DUE_ILLEGAL_ADDRESS:
	case SC_DUE_WRONG_SPACE: e = cudaErrorIllegalAddress; break;
	case SC_DUE_MISALIGNED_ADDRESS: e = cudaErrorMisalignedAddress; break;
	case SC_DUE_INVALID_INSTRUCTION: e = cudaErrorIllegalInstruction; break;
	case SC_DUE_INVALID_PC:
	case SC_DUE_BAD_CALL_TARGET: e = cudaErrorInvalidPc; break; /* a call to no function */
	case SC_DUE_SIMT_OVERFLOW:
	case SC_DUE_SIMT_UNDERFLOW:
	case SC_DUE_STACK_OVERFLOW: e = cudaErrorHardwareStackError; break;
	case SC_DUE_TIMEOUT: e = cudaErrorLaunchTimeout; break;
	case SC_DUE_ASSERT: e = cudaErrorAssert; break;
	case SC_DUE_ECC_UNCORRECTABLE:
	case SC_DUE_PARITY_ERROR: e = cudaErrorECCUncorrectable; break;
	default: e = cudaErrorLaunchFailure; break;
	}
	R.sticky = e;
	return e;
}

/* The start of every call that uses the device: a sticky error ends it. */
#define DEVICE_CALL()                                 \
	do {                                              \
		if (R.sticky || R.unloaded)                   \
			return ret(R.unloaded ? cudaErrorCudartUnloading : R.sticky); \
	} while (0)

/* ---- registration (what nvcc's generated host code calls) ---- */

API void **__cudaRegisterFatBinary(void *wrapper)
{
	char err[512];
	if (!grow(&R.fb, R.nfb, &R.capfb, sizeof *R.fb))
		die("out of memory");
	fatbin_t *f = &R.fb[R.nfb];
	*f = (fatbin_t){.wrapper = wrapper};
	int rc = cr_wrapper_ptx(wrapper, &f->ptx, NULL, err, sizeof err);
	if (rc)
		die("the program's fatbinary: %s", err);
	R.nfb++;
	R.live_fb++;
	/* the handle nvcc's host code passes back: an index, never dereferenced by it */
	return (void **)(uintptr_t)R.nfb;
}

static uint32_t fb_index(void **handle)
{
	uintptr_t i = (uintptr_t)handle;
	if (i < 1 || i > R.nfb)
		die("a registration with an unknown fatbinary handle %p", (void *)handle);
	return (uint32_t)(i - 1);
}

API void __cudaRegisterFatBinaryEnd(void **handle)
{
	fb_index(handle);
	gpu(); /* the GPU exists from the program's start, as a CUDA context would by its first call */
}

static void release(void);

/* At exit (nvcc's host code registers it with atexit): the last one shuts the
 * runtime down and frees the GPU, whose end the injection runtime records
 * (simcore/rt.c); later device calls get cudaErrorCudartUnloading. */
API void __cudaUnregisterFatBinary(void **handle)
{
	fb_index(handle);
	if (R.live_fb && --R.live_fb == 0) {
		release();
		R.unloaded = true;
		for (uint32_t i = 0; i < R.nk; i++) {
			free(R.k[i]->name);
			free(R.k[i]);
		}
		for (uint32_t i = 0; i < R.nv; i++)
			free(R.v[i].name);
		for (uint32_t i = 0; i < R.nfb; i++)
			free(R.fb[i].ptx);
		free(R.k), free(R.v), free(R.fb), free(R.m), free(R.h);
		R.k = NULL, R.v = NULL, R.fb = NULL, R.m = NULL, R.h = NULL;
		R.nk = R.nv = R.nfb = R.nh = 0;
		R.capk = R.capv = R.capfb = R.capm = R.caph = 0;
	}
}

API void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                                int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize)
{
	(void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
	struct kernel *k = calloc(1, sizeof *k);
	if (!k || !grow(&R.k, R.nk, &R.capk, sizeof *R.k) || !(k->name = strdup(device_name)))
		die("out of memory");
	k->host_fun = host_fun;
	k->fb = fb_index(handle);
	R.k[R.nk++] = k;
}

API void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                           size_t size, int constant, int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	if (!grow(&R.v, R.nv, &R.capv, sizeof *R.v))
		die("out of memory");
	var_t *v = &R.v[R.nv];
	*v = (var_t){.host_var = host_var, .name = strdup(device_name), .fb = fb_index(handle), .size = size};
	if (!v->name)
		die("out of memory");
	R.nv++;
}

API char __cudaInitModule(void **handle)
{
	return module(fb_index(handle)) != NULL;
}

API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, void *stream)
{
	if (R.ncfg == sizeof R.cfg / sizeof R.cfg[0])
		return 1;
	R.cfg[R.ncfg++] = (callcfg_t){grid, block, smem, stream};
	return 0;
}

API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream)
{
	if (!R.ncfg)
		return ret(cudaErrorInvalidConfiguration);
	callcfg_t *c = &R.cfg[--R.ncfg];
	*grid = c->grid;
	*block = c->block;
	*smem = c->smem;
	*(void **)stream = c->stream;
	return cudaSuccess;
}

static struct kernel *kernel_of(const void *host_fun)
{
	for (uint32_t i = 0; i < R.nk; i++)
		if (R.k[i]->host_fun == host_fun)
			return R.k[i];
	return NULL;
}

API cudaError_t __cudaGetKernel(cudaKernel_t *out, const void *host_fun)
{
	struct kernel *k = kernel_of(host_fun);
	if (!k)
		return ret(cudaErrorInvalidDeviceFunction);
	*out = k;
	return cudaSuccess;
}

/* ---- managed memory: the host's copy lives at the device address ---- */

static void managed_in(void)
{
	for (uint32_t i = 0; i < R.nm; i++)
		sc_memcpy_htod(R.gpu, R.m[i].addr, (const void *)(uintptr_t)R.m[i].addr, R.m[i].len);
}

static int managed_out(void)
{
	for (uint32_t i = 0; i < R.nm; i++) {
		int rc = sc_memcpy_dtoh(R.gpu, (void *)(uintptr_t)R.m[i].addr, R.m[i].addr, R.m[i].len);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- launches ---- */

static cudaError_t launch(struct kernel *k, dim3 grid, dim3 block, void **args, size_t smem)
{
	DEVICE_CALL();
	if (!k)
		return ret(cudaErrorInvalidDeviceFunction);
	sc_module_t *m = module(k->fb);
	if (!m)
		return ret(cudaErrorInvalidPtx);
	if (smem > UINT32_MAX)
		return ret(cudaErrorInvalidValue);
	managed_in();
	int rc = sc_launch(R.gpu, m, k->name, (sc_dim3_t){grid.x, grid.y, grid.z}, (sc_dim3_t){block.x, block.y, block.z},
	                   (uint32_t)smem, args);
	if (rc == SC_ELAUNCH || rc == SC_ENOTFOUND || rc == SC_EINVAL)
		fprintf(stderr, "flipsim: cudart: launch of %s: %s\n", k->name, sc_gpu_errmsg(R.gpu));
	if (!rc)
		rc = managed_out();
	return ret(from_sc(rc));
}

API cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t smem,
                                   cudaStream_t stream)
{
	(void)stream;
	return launch(k, grid, block, args, smem);
}

API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t smem,
                                        cudaStream_t stream)
{
	return __cudaLaunchKernel(k, grid, block, args, smem, stream);
}

API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                 cudaStream_t stream)
{
	(void)stream;
	return launch(kernel_of(func), grid, block, args, smem);
}

/* ---- memory ---- */

API cudaError_t cudaMalloc(void **p, size_t bytes)
{
	DEVICE_CALL();
	uint64_t d;
	if (!p)
		return ret(cudaErrorInvalidValue);
	if (sc_malloc(gpu(), bytes, &d))
		return ret(cudaErrorMemoryAllocation);
	*p = (void *)(uintptr_t)d;
	return cudaSuccess;
}

static int managed_find(uint64_t base)
{
	for (uint32_t i = 0; i < R.nm; i++)
		if (R.m[i].base == base || R.m[i].addr == base)
			return (int)i;
	return -1;
}

API cudaError_t cudaFree(void *p)
{
	DEVICE_CALL();
	if (!p)
		return cudaSuccess;
	int i = managed_find((uintptr_t)p);
	uint64_t base = i >= 0 ? R.m[i].base : (uintptr_t)p;
	if (sc_free(gpu(), base))
		return ret(cudaErrorInvalidValue);
	if (i >= 0) {
		munmap((void *)(uintptr_t)R.m[i].addr, R.m[i].len);
		R.m[i] = R.m[--R.nm];
	}
	return cudaSuccess;
}

#define PAGE 4096u

/* cudaMallocManaged: device memory whose host copy is mapped at the same
 * address, copied in before each launch and out after it (DESIGN.md). */
API cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags)
{
	(void)flags;
	DEVICE_CALL();
	if (!p || !bytes)
		return ret(cudaErrorInvalidValue);
	uint64_t len = (bytes + PAGE - 1) / PAGE * PAGE, base;
	if (!grow(&R.m, R.nm, &R.capm, sizeof *R.m) || sc_malloc(gpu(), len + PAGE, &base))
		return ret(cudaErrorMemoryAllocation);
	uint64_t addr = (base + PAGE - 1) / PAGE * PAGE;
	void *h = mmap((void *)(uintptr_t)addr, len, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (h == MAP_FAILED || (uintptr_t)h != addr) {
		if (h != MAP_FAILED)
			munmap(h, len);
		sc_free(R.gpu, base);
		fprintf(stderr, "flipsim: cudart: cudaMallocManaged: cannot map host memory at device address 0x%llx\n",
		        (unsigned long long)addr);
		return ret(cudaErrorMemoryAllocation);
	}
	R.m[R.nm++] = (managed_t){base, addr, len};
	*p = h;
	return cudaSuccess;
}

API cudaError_t cudaMallocHost(void **p, size_t bytes)
{
	if (!p)
		return ret(cudaErrorInvalidValue);
	if (!grow(&R.h, R.nh, &R.caph, sizeof *R.h) || !(*p = malloc(bytes ? bytes : 1)))
		return ret(cudaErrorMemoryAllocation);
	R.h[R.nh++].p = *p;
	return cudaSuccess;
}

API cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
	(void)flags;
	return cudaMallocHost(p, bytes);
}

API cudaError_t cudaFreeHost(void *p)
{
	for (uint32_t i = 0; i < R.nh; i++)
		if (R.h[i].p == p) {
			free(p);
			R.h[i] = R.h[--R.nh];
			return cudaSuccess;
		}
	return ret(p ? cudaErrorInvalidValue : cudaSuccess);
}

static bool on_device(const void *p, size_t n)
{
	return sc_device_range(gpu(), (uintptr_t)p, n ? n : 1);
}

/* One copy of n bytes; kind as cudaMemcpy's (Default: from the pointers). */
static cudaError_t copy(void *dst, const void *src, size_t n, int kind)
{
	DEVICE_CALL();
	if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
		return ret(cudaErrorInvalidMemcpyDirection);
	if (!n)
		return cudaSuccess;
	bool dd = on_device(dst, n), sd = on_device(src, n);
	if (kind != cudaMemcpyDefault && (dd != (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) ||
	                                  sd != (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)))
		return ret(cudaErrorInvalidValue);
	int rc = 0;
	managed_in();
	if (dd && sd) {
		void *tmp = malloc(n);
		if (!tmp)
			return ret(cudaErrorMemoryAllocation);
		rc = sc_memcpy_dtoh(R.gpu, tmp, (uintptr_t)src, n);
		if (!rc)
			rc = sc_memcpy_htod(R.gpu, (uintptr_t)dst, tmp, n);
		free(tmp);
	} else if (dd) {
		rc = sc_memcpy_htod(R.gpu, (uintptr_t)dst, src, n);
	} else if (sd) {
		rc = sc_memcpy_dtoh(R.gpu, dst, (uintptr_t)src, n);
	} else {
		memmove(dst, src, n);
	}
	if (!rc)
		rc = managed_out();
	return ret(from_sc(rc));
}

API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) { return copy(dst, src, n, kind); }

API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t stream)
{
	(void)stream;
	return copy(dst, src, n, kind);
}

API cudaError_t cudaMemset(void *p, int value, size_t n)
{
	DEVICE_CALL();
	if (!n)
		return cudaSuccess;
	if (!on_device(p, n))
		return ret(cudaErrorInvalidValue);
	managed_in();
	int rc = sc_memset(R.gpu, (uintptr_t)p, value, n);
	if (!rc)
		rc = managed_out();
	return ret(from_sc(rc));
}

API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t stream)
{
	(void)stream;
	return cudaMemset(p, value, n);
}

#define PITCH_ALIGN 512

API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	if (!pitch)
		return ret(cudaErrorInvalidValue);
	size_t pt = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
	cudaError_t e = cudaMalloc(p, pt * (height ? height : 1));
	if (!e)
		*pitch = pt;
	return e;
}

API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                             int kind)
{
	if (width > dpitch || width > spitch)
		return ret(cudaErrorInvalidValue);
	for (size_t r = 0; r < height; r++) {
		cudaError_t e = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
		if (e)
			return e;
	}
	return cudaSuccess;
}

/* ---- symbols ---- */

static var_t *var_of(const void *host_var)
{
	for (uint32_t i = 0; i < R.nv; i++)
		if (R.v[i].host_var == host_var)
			return &R.v[i];
	return NULL;
}

/* The start of every symbol call: the variable's facts on the GPU, or the
 * error the call returns (recorded): sticky, or cudaErrorInvalidSymbol. */
static cudaError_t symbol(const void *sym, sc_module_t **m, sc_var_info_t *vi)
{
	DEVICE_CALL();
	var_t *v = var_of(sym);
	if (!v)
		return ret(cudaErrorInvalidSymbol);
	if (!(*m = module(v->fb)))
		return ret(cudaErrorInvalidPtx);
	return sc_module_var(*m, v->name, vi) ? ret(cudaErrorInvalidSymbol) : cudaSuccess;
}

static cudaError_t symbol_copy(const void *sym, void *buf, size_t n, size_t off, int kind, bool to)
{
	sc_module_t *m;
	sc_var_info_t vi;
	cudaError_t e = symbol(sym, &m, &vi);
	if (e)
		return e;
	if (off > vi.size || n > vi.size - off)
		return ret(cudaErrorInvalidValue);
	void *d = (void *)(uintptr_t)(vi.addr + off);
	if (vi.space == SC_VAR_GLOBAL) {
		bool dev = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && on_device(buf, n));
		return to ? copy(d, buf, n, dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
		          : copy(buf, d, n, dev ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost);
	}
	/* .const: the bank is host-side; a device buffer goes through the host */
	bool dev = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && on_device(buf, n));
	void *tmp = malloc(n ? n : 1);
	if (!tmp)
		return ret(cudaErrorMemoryAllocation);
	int rc = 0;
	if (to) {
		if (dev)
			rc = sc_memcpy_dtoh(R.gpu, tmp, (uintptr_t)buf, n);
		if (!rc)
			rc = sc_module_const_copy(m, vi.addr + off, dev ? tmp : buf, n, true);
	} else {
		rc = sc_module_const_copy(m, vi.addr + off, dev ? tmp : buf, n, false);
		if (!rc && dev)
			rc = sc_memcpy_htod(R.gpu, (uintptr_t)buf, tmp, n);
	}
	free(tmp);
	return ret(from_sc(rc));
}

API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind)
{
	return symbol_copy(sym, (void *)src, n, off, kind, true);
}

API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind)
{
	return symbol_copy(sym, dst, n, off, kind, false);
}

API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off, int kind,
                                        cudaStream_t stream)
{
	(void)stream;
	return cudaMemcpyToSymbol(sym, src, n, off, kind);
}

API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off, int kind,
                                          cudaStream_t stream)
{
	(void)stream;
	return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}

API cudaError_t cudaGetSymbolAddress(void **p, const void *sym)
{
	sc_module_t *m;
	sc_var_info_t vi;
	cudaError_t e = symbol(sym, &m, &vi);
	if (e)
		return e;
	if (vi.space != SC_VAR_GLOBAL) /* the constant bank has no global address here (DESIGN.md) */
		return ret(cudaErrorInvalidSymbol);
	*p = (void *)(uintptr_t)vi.addr;
	return cudaSuccess;
}

API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
	sc_module_t *m;
	sc_var_info_t vi;
	cudaError_t e = symbol(sym, &m, &vi);
	if (e)
		return e;
	*size = vi.size;
	return cudaSuccess;
}

/* ---- kernels' attributes ---- */

API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func)
{
	DEVICE_CALL();
	struct kernel *k = kernel_of(func);
	sc_module_t *m = k ? module(k->fb) : NULL;
	sc_kernel_info_t ki;
	if (!k || !m || sc_kernel_info(gpu(), m, k->name, &ki))
		return ret(k && !m ? cudaErrorInvalidPtx : cudaErrorInvalidDeviceFunction);
	const sc_gpu_config_t *c = sc_gpu_config(R.gpu);
	*a = (struct cudaFuncAttributes){.sharedSizeBytes = ki.smem_static, .constSizeBytes = ki.const_bytes,
	                                 .localSizeBytes = ki.local_bytes, .maxThreadsPerBlock = (int)ki.max_threads,
	                                 .numRegs = (int)ki.regs, .ptxVersion = CR_ARCH, .binaryVersion = CR_ARCH,
	                                 .maxDynamicSharedSizeBytes = (int)(c->max_smem_per_cta - ki.smem_static),
	                                 .preferredShmemCarveout = -1};
	return cudaSuccess;
}

/* The L1/shared split is the GPU preset's: the preference is accepted and
 * changes nothing (DESIGN.md). */
API cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
	DEVICE_CALL();
	if (!kernel_of(func) || config < 0 || config > 3)
		return ret(kernel_of(func) ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
	return cudaSuccess;
}

API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block, size_t smem)
{
	DEVICE_CALL();
	struct kernel *k = kernel_of(func);
	sc_module_t *m = k ? module(k->fb) : NULL;
	uint32_t ctas;
	if (!n || block <= 0 || smem > UINT32_MAX)
		return ret(cudaErrorInvalidValue);
	if (!m || sc_kernel_occupancy(gpu(), m, k->name, (uint32_t)block, (uint32_t)smem, &ctas))
		return ret(k && !m ? cudaErrorInvalidPtx : cudaErrorInvalidDeviceFunction);
	*n = (int)ctas;
	return cudaSuccess;
}

API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int block,
                                                                       size_t smem, unsigned flags)
{
	(void)flags;
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, func, block, smem);
}

/* ---- streams and events: in order, each call complete on return ---- */

/* A new stream or event (both start with their magic) into *out. */
static cudaError_t handle_new(void *out, size_t size, int magic)
{
	if (!out)
		return ret(cudaErrorInvalidValue);
	int *h = calloc(1, size);
	if (!h)
		return ret(cudaErrorMemoryAllocation);
	*h = magic;
	memcpy(out, &h, sizeof h); /* out is a cudaStream_t * or cudaEvent_t * */
	return cudaSuccess;
}

API cudaError_t cudaStreamCreate(cudaStream_t *s) { return handle_new(s, sizeof **s, STREAM_MAGIC); }

API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
	(void)flags;
	return cudaStreamCreate(s);
}

static bool stream_ok(cudaStream_t s)
{
	/* 0 and the two special handles (legacy 1, per-thread 2) are the default stream */
	return (uintptr_t)s <= 2 || s->magic == STREAM_MAGIC;
}

API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	DEVICE_CALL();
	return stream_ok(s) ? cudaSuccess : ret(cudaErrorInvalidResourceHandle);
}

API cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }

API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
	if ((uintptr_t)s <= 2 || s->magic != STREAM_MAGIC)
		return ret(cudaErrorInvalidResourceHandle);
	s->magic = 0;
	free(s);
	return cudaSuccess;
}

API cudaError_t cudaEventCreate(cudaEvent_t *e) { return handle_new(e, sizeof **e, EVENT_MAGIC); }

API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
	(void)flags;
	return cudaEventCreate(e);
}

API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
	DEVICE_CALL();
	if (!e || e->magic != EVENT_MAGIC || !stream_ok(s))
		return ret(cudaErrorInvalidResourceHandle);
	e->recorded = true;
	e->cycle = sc_gpu_cycle(gpu());
	return cudaSuccess;
}

API cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
	DEVICE_CALL();
	return e && e->magic == EVENT_MAGIC ? cudaSuccess : ret(cudaErrorInvalidResourceHandle);
}

API cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

/* Simulated milliseconds between two recorded events: GPU cycles over the
 * preset's clock_mhz. */
API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	DEVICE_CALL();
	if (!ms || !a || !b || a->magic != EVENT_MAGIC || b->magic != EVENT_MAGIC)
		return ret(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
	if (!a->recorded || !b->recorded)
		return ret(cudaErrorInvalidResourceHandle);
	double cyc = (double)b->cycle - (double)a->cycle;
	*ms = (float)(cyc / (sc_gpu_config(gpu())->clock_mhz * 1e3));
	return cudaSuccess;
}

API cudaError_t cudaEventDestroy(cudaEvent_t e)
{
	if (!e || e->magic != EVENT_MAGIC)
		return ret(cudaErrorInvalidResourceHandle);
	e->magic = 0;
	free(e);
	return cudaSuccess;
}

/* ---- the device ---- */

API cudaError_t cudaDeviceSynchronize(void)
{
	DEVICE_CALL();
	gpu();
	return cudaSuccess;
}

API cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

API cudaError_t cudaGetDeviceCount(int *n)
{
	if (!n)
		return ret(cudaErrorInvalidValue);
	*n = 1;
	return cudaSuccess;
}

API cudaError_t cudaSetDevice(int d)
{
	if (d != 0)
		return ret(cudaErrorInvalidDevice);
	R.device = d;
	return cudaSuccess;
}

API cudaError_t cudaGetDevice(int *d)
{
	if (!d)
		return ret(cudaErrorInvalidValue);
	*d = R.device;
	return cudaSuccess;
}

API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
	if (!p)
		return ret(cudaErrorInvalidValue);
	if (d != 0)
		return ret(cudaErrorInvalidDevice);
	const sc_gpu_config_t *c = sc_gpu_config(gpu());
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "flipsim %s", c->name);
	p->totalGlobalMem = (size_t)1 << 40; /* what sc_malloc takes in one allocation */
	p->sharedMemPerBlock = c->max_smem_per_cta;
	p->sharedMemPerBlockOptin = c->max_smem_per_cta;
	p->regsPerBlock = (int)(c->regs_per_sm < 65536 ? c->regs_per_sm : 65536);
	p->regsPerMultiprocessor = (int)c->regs_per_sm;
	p->warpSize = (int)c->warp_size;
	p->memPitch = INT32_MAX;
	p->maxThreadsPerBlock = (int)c->max_threads_per_cta;
	p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
	p->maxThreadsDim[2] = 64;
	p->maxGridSize[0] = INT32_MAX;
	p->maxGridSize[1] = p->maxGridSize[2] = 65535;
	p->totalConstMem = 65536;
	p->major = CR_ARCH / 10;
	p->minor = CR_ARCH % 10;
	p->textureAlignment = 512;
	p->texturePitchAlignment = PITCH_ALIGN;
	p->multiProcessorCount = (int)c->num_sms;
	p->canMapHostMemory = 0;
	p->memoryBusWidth = (int)(c->dram_channels * c->dram_bus_bytes * 8);
	p->l2CacheSize = (int)c->l2_bytes;
	p->maxThreadsPerMultiProcessor = (int)c->max_threads_per_sm;
	p->globalL1CacheSupported = c->l1_bytes > 0;
	p->localL1CacheSupported = c->l1_bytes > 0;
	p->sharedMemPerMultiprocessor = c->smem_per_sm;
	p->managedMemory = 1;
	p->unifiedAddressing = 1;
	p->maxBlocksPerMultiProcessor = (int)c->max_ctas_per_sm;
	p->hostNumaId = -1;
	p->deviceNumaId = -1;
	return cudaSuccess;
}

static uint32_t NT; /* texture and surface objects' records (below) */

/* Frees the managed mappings and the GPU (with its memory and modules). */
static void release(void)
{
	for (uint32_t i = 0; i < R.nm; i++)
		munmap((void *)(uintptr_t)R.m[i].addr, R.m[i].len);
	R.nm = 0;
	NT = 0; /* the GPU's texture and surface objects go with it */
	sc_gpu_destroy(R.gpu);
	R.gpu = NULL;
	for (uint32_t i = 0; i < R.nfb; i++) {
		R.fb[i].mod = NULL;
		R.fb[i].broken = false;
	}
}

/* Frees every allocation and the GPU; the next call starts a fresh one
 * (modules load again on first use), with no sticky error. */
API cudaError_t cudaDeviceReset(void)
{
	release();
	R.sticky = R.last = cudaSuccess;
	return cudaSuccess;
}

API cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

/* The printf FIFO, the device heap and the call stack are the simulator's
 * (sc_set_printf_fifo, sc_set_heap_size: the heap's size is fixed once a
 * kernel that calls malloc has launched, as on a GPU; sc_set_stack_size:
 * the per-thread stack of recursive and indirect calls). */
API cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
	if (limit < cudaLimitStackSize || limit > cudaLimitMallocHeapSize)
		return ret(cudaErrorNotSupported);
	if (limit == cudaLimitPrintfFifoSize && sc_set_printf_fifo(gpu(), value))
		return ret(cudaErrorInvalidValue);
	if (limit == cudaLimitMallocHeapSize && sc_set_heap_size(gpu(), value))
		return ret(cudaErrorInvalidValue);
	if (limit == cudaLimitStackSize && sc_set_stack_size(gpu(), value))
		return ret(cudaErrorInvalidValue);
	return cudaSuccess;
}

API cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
	if (!value)
		return ret(cudaErrorInvalidValue);
	if (limit < cudaLimitStackSize || limit > cudaLimitMallocHeapSize)
		return ret(cudaErrorNotSupported);
	*value = limit == cudaLimitPrintfFifoSize   ? (size_t)sc_printf_fifo(gpu())
	         : limit == cudaLimitMallocHeapSize ? (size_t)sc_heap_size(gpu())
	                                            : (size_t)sc_stack_size(gpu());
	return cudaSuccess;
}

/* ---- errors ---- */

API cudaError_t cudaGetLastError(void)
{
	cudaError_t e = R.last;
	R.last = R.sticky; /* a sticky error stays */
	return e;
}

API cudaError_t cudaPeekAtLastError(void) { return R.last; }

API const char *cudaGetErrorString(cudaError_t e)
{
	switch (e) {
#define X(name, code, text) \
	case code: return text;
		CR_CUDA_ERRORS(X)
#undef X
	default: return "unrecognized error code";
	}
}

API const char *cudaGetErrorName(cudaError_t e)
{
	switch (e) {
#define X(name, code, text) \
	case code: return #name;
		CR_CUDA_ERRORS(X)
#undef X
	default: return "cudaErrorUnknown";
	}
}

API cudaError_t cudaDriverGetVersion(int *v)
{
	if (!v)
		return ret(cudaErrorInvalidValue);
	*v = 13000;
	return cudaSuccess;
}

API cudaError_t cudaRuntimeGetVersion(int *v) { return cudaDriverGetVersion(v); }

/* ---- arrays, textures and surfaces (simcore's objects: tex.c) ----
 * A cudaArray is an sc_array_t: rows packed, so a row of an array is
 * width * texel bytes long and a copy into it is cudaMemcpy2D's. The
 * descriptions a program created an object with are kept to give back. */
enum { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear, cudaResourceTypePitch2D };
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayTextureGather 0x08

struct cudaChannelFormatDesc {
	int x, y, z, w;
	int f; /* cudaChannelFormatKind: Signed 0, Unsigned 1, Float 2 as sc_chan_kind_t */
};
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaArray { int magic; unsigned flags; struct cudaExtent ext; sc_array_t a; };
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
	int resType;
	union {
		struct { cudaArray_t array; } array;
		struct { void *mipmap; } mipmap;
		struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
		struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
		struct { int reserved[32]; } reserved;
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
/* the sizes and offsets of CUDA 13's driver_types.h and texture_types.h */
_Static_assert(sizeof(struct cudaChannelFormatDesc) == 20, "cudaChannelFormatDesc as CUDA 13 lays it out");
_Static_assert(sizeof(struct cudaResourceDesc) == 144 && offsetof(struct cudaResourceDesc, flags) == 136 &&
               offsetof(struct cudaResourceDesc, res.linear.sizeInBytes) == 40 &&
               offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56, "cudaResourceDesc layout");
_Static_assert(sizeof(struct cudaTextureDesc) == 72 && offsetof(struct cudaTextureDesc, borderColor) == 24 &&
               offsetof(struct cudaTextureDesc, normalizedCoords) == 40, "cudaTextureDesc layout");
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160 && offsetof(struct cudaMemcpy3DParms, dstArray) == 64 &&
               offsetof(struct cudaMemcpy3DParms, extent) == 128 && offsetof(struct cudaMemcpy3DParms, kind) == 152,
               "cudaMemcpy3DParms layout");
#define ARRAY_MAGIC 0x41525259

typedef struct texrec { /* what an object was created with, by handle */
	uint64_t h;
	bool surf;
	struct cudaResourceDesc rd;
	struct cudaTextureDesc td;
} texrec_t;
static texrec_t *T;
static uint32_t CAPT;

API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
	return (struct cudaChannelFormatDesc){x, y, z, w, f};
}

static bool chan_of(const struct cudaChannelFormatDesc *d, sc_chan_desc_t *ch)
{
	int b[4] = {d->x, d->y, d->z, d->w};
	for (int i = 0; i < 4; i++) {
		if (b[i] < 0 || b[i] > 32)
			return false;
		ch->bits[i] = (uint8_t)b[i];
	}
	ch->kind = (sc_chan_kind_t)d->f;
	return d->f >= SC_CHAN_SIGNED && d->f <= SC_CHAN_FLOAT && sc_chan_bytes(ch);
}

static struct cudaChannelFormatDesc desc_of(const sc_chan_desc_t *ch)
{
	return (struct cudaChannelFormatDesc){ch->bits[0], ch->bits[1], ch->bits[2], ch->bits[3], (int)ch->kind};
}

static cudaError_t array_new(cudaArray_t *out, const struct cudaChannelFormatDesc *d, struct cudaExtent e,
                             unsigned flags)
{
	DEVICE_CALL();
	sc_array_t a = {.width = (uint32_t)e.width, .height = (uint32_t)e.height, .depth = (uint32_t)e.depth,
	                .flags = flags & cudaArrayLayered ? SC_ARRAY_LAYERED : 0};
	if (!out || !d || !chan_of(d, &a.ch) || e.width != a.width || e.height != a.height || e.depth != a.depth ||
	    (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather)))
		return ret(cudaErrorInvalidValue);
	struct cudaArray *r = calloc(1, sizeof *r);
	if (!r)
		return ret(cudaErrorMemoryAllocation);
	int rc = sc_array_alloc(gpu(), &a);
	if (rc) {
		free(r);
		return ret(rc == SC_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
	}
	*r = (struct cudaArray){ARRAY_MAGIC, flags, e, a};
	*out = r;
	return cudaSuccess;
}

API cudaError_t cudaMallocArray(cudaArray_t *out, const struct cudaChannelFormatDesc *d, size_t width, size_t height,
                                unsigned flags)
{
	return array_new(out, d, (struct cudaExtent){width, height, 0}, flags);
}

API cudaError_t cudaMalloc3DArray(cudaArray_t *out, const struct cudaChannelFormatDesc *d, struct cudaExtent e,
                                  unsigned flags)
{
	return array_new(out, d, e, flags);
}

static bool array_ok(const struct cudaArray *a) { return a && a->magic == ARRAY_MAGIC; }

API cudaError_t cudaFreeArray(cudaArray_t a)
{
	DEVICE_CALL();
	if (!a)
		return cudaSuccess;
	if (!array_ok(a) || sc_array_free(gpu(), &a->a))
		return ret(cudaErrorInvalidValue);
	a->magic = 0;
	free(a);
	return cudaSuccess;
}

API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *d, struct cudaExtent *e, unsigned *flags, cudaArray_t a)
{
	if (!array_ok(a))
		return ret(cudaErrorInvalidResourceHandle);
	if (d)
		*d = desc_of(&a->a.ch);
	if (e)
		*e = a->ext;
	if (flags)
		*flags = a->flags;
	return cudaSuccess;
}

/* The bytes of a row of a, and the device address of byte x of row y of
 * slice z; false when [x, x + w) of that row or the row is outside. */
static bool array_at(const struct cudaArray *a, size_t x, size_t y, size_t z, size_t w, void **p)
{
	size_t row = (size_t)a->a.width * sc_chan_bytes(&a->a.ch), h = a->a.height ? a->a.height : 1;
	size_t d = a->a.depth ? a->a.depth : 1;
	if (x > row || w > row - x || y >= h || z >= d)
		return false;
	*p = (void *)(uintptr_t)(a->a.dptr + (z * h + y) * row + x);
	return true;
}

static size_t array_row(const struct cudaArray *a) { return (size_t)a->a.width * sc_chan_bytes(&a->a.ch); }

API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t width,
                                    size_t height, int kind)
{
	void *p;
	if (!array_ok(dst) || (height && !array_at(dst, wo, ho + height - 1, 0, width, &p)) ||
	    !array_at(dst, wo, ho, 0, width, &p))
		return ret(cudaErrorInvalidValue);
	return cudaMemcpy2D(p, array_row(dst), src, spitch, width, height, kind);
}

API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src, size_t wo, size_t ho, size_t width,
                                      size_t height, int kind)
{
	void *p;
	if (!array_ok(src) || (height && !array_at(src, wo, ho + height - 1, 0, width, &p)) ||
	    !array_at(src, wo, ho, 0, width, &p))
		return ret(cudaErrorInvalidValue);
	return cudaMemcpy2D(dst, dpitch, p, array_row(src), width, height, kind);
}

/* cudaMemcpyToArray/FromArray: count bytes from (wo, ho) on, rows after
 * rows (the array's rows are packed). */
static cudaError_t array_linear(cudaArray_t a, size_t wo, size_t ho, size_t count, void **p)
{
	size_t row = array_ok(a) ? array_row(a) : 0, rows = row ? (size_t)(a->a.height ? a->a.height : 1) *
	                                                                  (a->a.depth ? a->a.depth : 1) : 0;
	if (!row || wo >= row || ho >= rows || count > (rows - ho) * row - wo)
		return ret(cudaErrorInvalidValue);
	*p = (void *)(uintptr_t)(a->a.dptr + ho * row + wo);
	return cudaSuccess;
}

API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count, int kind)
{
	void *p;
	cudaError_t e = array_linear(dst, wo, ho, count, &p);
	return e ? e : cudaMemcpy(p, src, count, kind);
}

API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wo, size_t ho, size_t count, int kind)
{
	void *p;
	cudaError_t e = array_linear(src, wo, ho, count, &p);
	return e ? e : cudaMemcpy(dst, p, count, kind);
}

/* One side of cudaMemcpy3D: the address of row y of slice z (after the
 * position), rows of `w` bytes. */
static bool side_at(cudaArray_t a, const struct cudaPitchedPtr *pp, struct cudaPos pos, size_t y, size_t z, size_t w,
                    void **p)
{
	if (a)
		return array_ok(a) && array_at(a, pos.x * sc_chan_bytes(&a->a.ch), pos.y + y, pos.z + z, w, p);
	if (!pp->ptr || pos.x > pp->pitch || w > pp->pitch - pos.x || (pp->ysize && pos.y + y >= pp->ysize))
		return false;
	*p = (char *)pp->ptr + ((pos.z + z) * (pp->ysize ? pp->ysize : 1) + pos.y + y) * pp->pitch + pos.x;
	return true;
}

API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
		return ret(cudaErrorInvalidValue);
	cudaArray_t a = p->srcArray ? p->srcArray : p->dstArray;
	if (a && !array_ok(a))
		return ret(cudaErrorInvalidValue);
	/* with an array on either side the width is in elements, else bytes */
	size_t w = a ? p->extent.width * sc_chan_bytes(&a->a.ch) : p->extent.width;
	for (size_t z = 0; z < p->extent.depth; z++)
		for (size_t y = 0; y < p->extent.height; y++) {
			void *s, *d;
			if (!side_at(p->srcArray, &p->srcPtr, p->srcPos, y, z, w, &s) ||
			    !side_at(p->dstArray, &p->dstPtr, p->dstPos, y, z, w, &d))
				return ret(cudaErrorInvalidValue);
			cudaError_t e = copy(d, s, w, p->kind);
			if (e)
				return e;
		}
	return cudaSuccess;
}

/* The simulator's resource for a CUDA one: 0 or the error. */
static cudaError_t resource_of(const struct cudaResourceDesc *rd, sc_resource_t *r)
{
	memset(r, 0, sizeof *r);
	switch (rd->resType) {
	case cudaResourceTypeArray:
		if (!array_ok(rd->res.array.array))
			return cudaErrorInvalidResourceHandle;
		r->kind = SC_RES_ARRAY;
		r->array = rd->res.array.array->a;
		return cudaSuccess;
	case cudaResourceTypeLinear:
		r->kind = SC_RES_LINEAR;
		r->dptr = (uintptr_t)rd->res.linear.devPtr;
		r->bytes = rd->res.linear.sizeInBytes;
		return chan_of(&rd->res.linear.desc, &r->ch) ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
	case cudaResourceTypePitch2D:
		r->kind = SC_RES_PITCH2D;
		r->dptr = (uintptr_t)rd->res.pitch2D.devPtr;
		r->width = (uint32_t)rd->res.pitch2D.width;
		r->height = (uint32_t)rd->res.pitch2D.height;
		r->pitch = rd->res.pitch2D.pitchInBytes;
		return chan_of(&rd->res.pitch2D.desc, &r->ch) ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
	}
	return cudaErrorNotSupported; /* a mipmapped array: flipsim has none */
}

static cudaError_t rec_add(uint64_t h, bool surf, const struct cudaResourceDesc *rd, const struct cudaTextureDesc *td)
{
	if (NT == CAPT && !grow(&T, NT + 1, &CAPT, sizeof *T))
		return cudaErrorMemoryAllocation;
	T[NT] = (texrec_t){.h = h, .surf = surf, .rd = *rd};
	if (td)
		T[NT].td = *td;
	NT++;
	return cudaSuccess;
}

static texrec_t *rec_of(uint64_t h, bool surf)
{
	for (uint32_t i = 0; i < NT; i++)
		if (T[i].h == h && T[i].surf == surf)
			return &T[i];
	return NULL;
}

/* After sc_texture_create or sc_surface_create returned rc: the record and
 * *out, or the error. */
static cudaError_t created(int rc, uint64_t h, bool surf, const struct cudaResourceDesc *rd,
                           const struct cudaTextureDesc *td, uint64_t *out)
{
	if (rc)
		return ret(rc == SC_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
	cudaError_t e = rec_add(h, surf, rd, td);
	if (e) {
		surf ? sc_surface_destroy(gpu(), h) : sc_texture_destroy(gpu(), h);
		return ret(e);
	}
	*out = h;
	return cudaSuccess;
}

API cudaError_t cudaCreateTextureObject(uint64_t *out, const struct cudaResourceDesc *rd,
                                        const struct cudaTextureDesc *td, const void *view)
{
	DEVICE_CALL();
	if (!out || !rd || !td)
		return ret(cudaErrorInvalidValue);
	if (view) /* resource views reinterpret formats: not modelled */
		return ret(cudaErrorNotSupported);
	sc_resource_t r;
	cudaError_t e = resource_of(rd, &r);
	if (e)
		return ret(e);
	sc_tex_desc_t d = {.filter = (sc_filter_t)td->filterMode, .read = (sc_read_mode_t)td->readMode,
	                   .normalized = td->normalizedCoords != 0};
	for (int i = 0; i < 3; i++)
		d.addr[i] = (sc_addr_mode_t)td->addressMode[i];
	memcpy(d.border, td->borderColor, sizeof d.border);
	uint64_t h = 0;
	int rc = sc_texture_create(gpu(), &r, &d, &h);
	return created(rc, h, false, rd, td, out);
}

API cudaError_t cudaCreateSurfaceObject(uint64_t *out, const struct cudaResourceDesc *rd)
{
	DEVICE_CALL();
	if (!out || !rd)
		return ret(cudaErrorInvalidValue);
	if (rd->resType != cudaResourceTypeArray) /* CUDA's surfaces are arrays' */
		return ret(cudaErrorInvalidValue);
	sc_resource_t r;
	cudaError_t e = resource_of(rd, &r);
	if (e)
		return ret(e);
	uint64_t h = 0;
	int rc = sc_surface_create(gpu(), &r, &h);
	return created(rc, h, true, rd, NULL, out);
}

static cudaError_t object_destroy(uint64_t h, bool surf)
{
	DEVICE_CALL();
	texrec_t *t = rec_of(h, surf);
	if (!t || (surf ? sc_surface_destroy(gpu(), h) : sc_texture_destroy(gpu(), h)))
		return ret(cudaErrorInvalidValue);
	*t = T[--NT];
	return cudaSuccess;
}

API cudaError_t cudaDestroyTextureObject(uint64_t h) { return object_destroy(h, false); }
API cudaError_t cudaDestroySurfaceObject(uint64_t h) { return object_destroy(h, true); }

API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *rd, uint64_t h)
{
	texrec_t *t = rec_of(h, false);
	if (!rd || !t)
		return ret(cudaErrorInvalidValue);
	*rd = t->rd;
	return cudaSuccess;
}

API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *rd, uint64_t h)
{
	texrec_t *t = rec_of(h, true);
	if (!rd || !t)
		return ret(cudaErrorInvalidValue);
	*rd = t->rd;
	return cudaSuccess;
}

API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *td, uint64_t h)
{
	texrec_t *t = rec_of(h, false);
	if (!td || !t)
		return ret(cudaErrorInvalidValue);
	*td = t->td;
	return cudaSuccess;
}

/* ---- nvcc --default-stream per-thread ----
 * Built so, a program calls these names; with one stream here they are the
 * functions above under a second name. */
#define ALIAS(name, target) API __typeof__(target) name __attribute__((alias(#target)));
ALIAS(cudaMemcpy_ptds, cudaMemcpy)
ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D)
ALIAS(cudaMemcpyToArray_ptds, cudaMemcpyToArray)
ALIAS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray)
ALIAS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray)
ALIAS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray)
ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D)
ALIAS(cudaMemset_ptds, cudaMemset)
ALIAS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
ALIAS(cudaMemsetAsync_ptsz, cudaMemsetAsync)
ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel)
ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery)
ALIAS(cudaEventRecord_ptsz, cudaEventRecord)
