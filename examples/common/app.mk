# common: the modules the host programs in examples/ link: app.o (simcore's
# programs, examples/common/app.h) and appbase.o (theirs and the CUDA
# versions', appbase.h). The top-level Makefile includes this fragment before
# the applications'.
APPBASE_OBJ := $(BUILD)/examples/common/appbase.o
APP_OBJ := $(BUILD)/examples/common/app.o $(APPBASE_OBJ)
APP_CFLAGS := -I examples/common

$(APP_OBJ): examples/common/app.h examples/common/appbase.h

# The CUDA versions (examples/README.md, "The CUDA versions"): an
# application's app.mk adds $(eval $(call CUDA_APP,<app>)), which builds
# $(BUILD)/examples/<app>_cuda from examples/<app>/<app>_cuda.cu with nvcc
# for the shared CUDA runtime (libcudart.so.13: a GPU's, or flipsim's), and
# appbase.c compiled by nvcc's host compiler (no $(CFLAGS): sanitizer builds
# leave these programs alone). `make cuda-apps` builds them all; without
# nvcc it says so and builds nothing.
NVCC      ?= /usr/local/cuda/bin/nvcc
NVCCFLAGS ?= -O2
NVCC_PATH := $(shell command -v $(NVCC) 2>/dev/null)

define CUDA_APP
$(if $(NVCC_PATH),cuda-apps: $(BUILD)/examples/$(1)_cuda)
$(BUILD)/examples/$(1)_cuda: examples/$(1)/$(1)_cuda.cu examples/$(1)/$(1).cu examples/$(1)/$(1)_host.h \
                             examples/common/cuda_app.h examples/common/appbase.h examples/common/appbase.c
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(NVCCFLAGS) -cudart shared -arch=sm_75 -I examples/common -o $$@ $$< examples/common/appbase.c
endef

.PHONY: cuda-apps
cuda-apps:
ifeq ($(NVCC_PATH),)
	@echo "cuda-apps: skipped: no nvcc at $(NVCC) (set NVCC=/path/to/nvcc to build examples/*/*_cuda.cu)"
endif
