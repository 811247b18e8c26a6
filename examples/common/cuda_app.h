/* cuda_app — what the CUDA versions of the example programs share
 * (examples/<app>/<app>_cuda.cu; examples/README.md, "The CUDA versions"):
 * the --check option, CUDA errors as the simcore programs' messages and exit
 * statuses (app.h), and appbase.h's inputs and digests. Only the CUDA
 * runtime API: these programs run on a GPU or on flipsim's libcudart. */
#ifndef CUDA_APP_H
#define CUDA_APP_H

#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "appbase.h"

/* Takes argv[i] when it is --check (setting *check); returns whether it did.
 * --ptx and --stats of the simcore programs are not options here: the
 * kernels are in the program, and flipsim's statistics come from `flipsim
 * exec --stats PROGRAM`. */
static inline bool cuda_app_option(const char *arg, bool *check)
{
	if (strcmp(arg, "--check"))
		return false;
	*check = true;
	return true;
}

/* The exit status of a failed CUDA call, as app_report maps simcore's
 * errors: an error the kernel raised on the device (a DUE, sticky) is
 * APP_DUE; kernels that cannot be loaded or launched as the program asks are
 * APP_BADINPUT; anything else APP_FAIL. */
static inline int cuda_app_status(cudaError_t e)
{
	switch (e) {
	case cudaErrorIllegalAddress:
	case cudaErrorMisalignedAddress:
	case cudaErrorIllegalInstruction:
	case cudaErrorInvalidPc:
	case cudaErrorHardwareStackError:
	case cudaErrorLaunchTimeout:
	case cudaErrorLaunchFailure:
	case cudaErrorECCUncorrectable:
	case cudaErrorAssert:
	case cudaErrorInvalidAddressSpace:
		return APP_DUE;
	case cudaErrorInvalidPtx:
	case cudaErrorInvalidDeviceFunction:
	case cudaErrorInvalidConfiguration:
	case cudaErrorNoKernelImageForDevice:
	case cudaErrorInvalidKernelImage:
		return APP_BADINPUT;
	default:
		return APP_FAIL;
	}
}

/* Prints on stderr "NAME: WHAT: cudaErrorX: its description" and returns
 * the exit status (cuda_app_status). */
static inline int cuda_app_report(const char *name, cudaError_t e, const char *what)
{
	fprintf(stderr, "%s: %s: %s: %s\n", name, what, cudaGetErrorName(e), cudaGetErrorString(e));
	return cuda_app_status(e);
}

/* Evaluates a CUDA runtime call; when it fails, reports it (naming `what`)
 * and returns its exit status from the enclosing function. After a launch,
 * CUDA_TRY(name, cudaGetLastError(), "launch K") catches what the launch
 * raised. The programs end after a failed call, so the device buffers made
 * so far are left to the process's exit (after a DUE, a CUDA context is
 * unusable anyway). */
#define CUDA_TRY(name, call, what)                                \
	do {                                                          \
		cudaError_t e_ = (call);                                  \
		if (e_ != cudaSuccess)                                    \
			return cuda_app_report((name), e_, (what));           \
	} while (0)

#endif
