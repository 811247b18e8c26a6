# flipsim — one top-level Makefile. Targets: all test run study bench deps asan fuzz clean.
# Source lists are explicit; dependencies come from -MMD.

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP -I simcore -I campaigns -I engine \
           -I masks -I parser -I db -I cudart
LDLIBS  += -luv -lsqlite3 -ljansson -lzstd -lm -ldl -lpthread
BUILD   ?= build
# app.mk fragments (below) bring rules of their own: `make` alone still means all
.DEFAULT_GOAL := all
# Builds use every core: `make` runs one job per CPU. An explicit -j wins
# (make -j1: serial), and sub-makes share the top make's jobs. Test suites
# run one after another all the same (suites, below).
NPROC   := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(NPROC)
endif

SIMCORE_SRC := simcore/isa.c simcore/call.c simcore/ptx_lex.c simcore/ptx_parse.c simcore/cfg.c \
               simcore/sem_int.c simcore/sem_fp.c simcore/sem_cmp.c simcore/mem.c \
               simcore/decode.c simcore/exec.c simcore/ptxext.c simcore/tex.c simcore/sem_fast.c simcore/sm.c simcore/gpu.c simcore/config.c \
               simcore/fault.c simcore/regalloc.c simcore/spill.c simcore/rt.c simcore/statemap.c simcore/disasm.c \
               simcore/memsys.c simcore/cachefault.c simcore/site.c simcore/ecc.c simcore/prot.c simcore/sawp.c simcore/sharp.c simcore/penny.c simcore/pennyc.c simcore/refu.c \
               simcore/pass.c simcore/emit.c simcore/slice.c simcore/dup.c simcore/pennyprune.c simcore/modvar.c
CAMP_SRC    := campaigns/camp_gpu.c campaigns/camp_workload.c campaigns/camp_run.c campaigns/camp_campaign.c \
               campaigns/camp_prot.c
MASKS_SRC   := masks/mask.c masks/stats.c
PARSER_SRC  := parser/classify.c
DB_SRC      := db/db.c db/report.c db/study.c db/demangle.c db/shard.c db/queue.c db/svg.c db/html.c
ENGINE_SRC  := engine/main.c engine/cli.c engine/exec.c engine/golden.c engine/runner.c engine/hostrun.c engine/plan.c \
               engine/worker.c engine/run.c engine/query.c engine/merge.c engine/daemon.c engine/ptxas.c engine/progress.c engine/record.c \
               engine/driver.c engine/profile.c
CUDART_SRC  := cudart/fatbin.c
TEST_SRC    := tests/simcore/test_harness.c tests/simcore/randprog.c tests/simcore/test_pass.c tests/simcore/insn.c tests/simcore/test_insn.c tests/simcore/test_parse.c \
               tests/simcore/test_int.c tests/simcore/test_fp.c tests/simcore/test_mem.c \
               tests/simcore/test_ctl.c tests/simcore/test_calls.c tests/simcore/test_warp.c tests/simcore/test_ptxext.c tests/simcore/test_tex.c tests/simcore/test_arch.c tests/simcore/test_calib.c \
               tests/simcore/test_due.c tests/simcore/test_decode.c tests/simcore/test_fault.c tests/simcore/test_cache_fault.c tests/simcore/test_site.c tests/simcore/test_vregs.c \
               tests/simcore/test_regalloc.c tests/simcore/test_spill.c tests/simcore/test_ibuf.c tests/simcore/test_models.c \
               tests/simcore/test_wide.c \
               tests/simcore/test_isa.c tests/simcore/test_disasm.c tests/simcore/test_statemap.c tests/simcore/test_modvar.c tests/simcore/test_ecc.c tests/simcore/test_prot.c tests/simcore/test_sawp.c tests/simcore/test_sharp.c tests/simcore/test_penny.c tests/simcore/test_pennyc.c tests/simcore/test_refu.c tests/simcore/test_dup.c \
               tests/campaigns/test_campaigns.c \
               tests/campaigns/test_campaign.c tests/campaigns/test_protection.c tests/masks/test_masks.c tests/parser/test_classify.c \
               tests/engine/runs.c tests/engine/test_runner.c tests/engine/test_hostrun.c tests/engine/test_golden.c tests/engine/test_daemon.c tests/engine/test_attribution.c tests/engine/test_stats.c tests/engine/test_progress.c \
               tests/cudart/test_fatbin.c tests/cudart/test_runtime.c \
               tests/db/test_db.c tests/db/test_shard.c tests/db/test_queue.c tests/db/test_svg.c tests/db/tmpdir.c tests/fuzz/test_regress.c tests/fuzz/fuzz_load.c tests/fuzz/fuzz_common.c
EXAMPLE_BIN := $(BUILD)/examples/iterate $(BUILD)/examples/texscale
# Each application under examples/ may bring its own fragment (examples/README.md,
# "Adding an application"): it appends its host program to EXAMPLE_BIN and
# gives the rule that builds it. examples/common/app.mk comes first: it names
# the shared module (APP_OBJ) the applications' rules link.
include examples/common/app.mk
include $(sort $(filter-out examples/common/app.mk,$(wildcard examples/*/app.mk)))

SIMCORE_OBJ := $(SIMCORE_SRC:%.c=$(BUILD)/%.o)
CAMP_OBJ    := $(CAMP_SRC:%.c=$(BUILD)/%.o) $(BUILD)/campaigns/gpus_embed.o
# everything but simcore and main(): linked into flipsim and the unit tests
CORE_OBJ    := $(CAMP_OBJ) $(MASKS_SRC:%.c=$(BUILD)/%.o) $(PARSER_SRC:%.c=$(BUILD)/%.o) $(DB_SRC:%.c=$(BUILD)/%.o) \
               $(filter-out $(BUILD)/engine/main.o,$(ENGINE_SRC:%.c=$(BUILD)/%.o)) $(CUDART_SRC:%.c=$(BUILD)/%.o)
GPU_PRESETS := $(sort $(wildcard campaigns/gpus/*.json))
ENGINE_OBJ  := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ    := $(TEST_SRC:%.c=$(BUILD)/%.o)

# Floating-point semantics change the rounding mode at run time.
$(BUILD)/simcore/sem_fp.o $(BUILD)/simcore/sem_cmp.o $(BUILD)/simcore/sem_fast.o: CFLAGS += -frounding-math
$(BUILD)/pic/simcore/sem_fp.o $(BUILD)/pic/simcore/sem_cmp.o $(BUILD)/pic/simcore/sem_fast.o: CFLAGS += -frounding-math
# The lane loops of the execution path are written to vectorise; -O2's
# very-cheap cost model leaves most of them scalar.
$(BUILD)/simcore/sem_fast.o $(BUILD)/simcore/exec.o $(BUILD)/simcore/sem_int.o $(BUILD)/simcore/memsys.o: CFLAGS += -fvect-cost-model=dynamic
$(BUILD)/pic/simcore/sem_fast.o $(BUILD)/pic/simcore/exec.o $(BUILD)/pic/simcore/sem_int.o $(BUILD)/pic/simcore/memsys.o: CFLAGS += -fvect-cost-model=dynamic
# The simulator's hot path (the issue loop, the handlers, the memory
# system) at -O3 unless OPT asks for something else (make asan's -O1):
# about 6 % fewer host instructions on vadd 1M (README, "Benchmark").
HOT_OBJ := $(addsuffix .o,sm gpu exec memsys sem_fast)
ifeq ($(OPT),-O2)
$(addprefix $(BUILD)/simcore/,$(HOT_OBJ)) $(addprefix $(BUILD)/pic/simcore/,$(HOT_OBJ)): CFLAGS += -O3
endif

.PHONY: all test run bench deps asan fuzz fuzz-bins clean unit ptx-tests pass-tests spill-tests e2e-tests html-tests study protection-study test-bins suites slurm-test
all: $(BUILD)/flipsim $(BUILD)/libsimcore.a $(BUILD)/libcudart.so.13 $(EXAMPLE_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# GPU presets are compiled into the binary (campaigns/embed.sh).
$(BUILD)/campaigns/gpus_embed.c: campaigns/embed.sh $(GPU_PRESETS)
	@mkdir -p $(dir $@)
	sh campaigns/embed.sh $@ $(GPU_PRESETS)

$(BUILD)/campaigns/gpus_embed.o: $(BUILD)/campaigns/gpus_embed.c
	$(CC) $(CFLAGS) -c $< -o $@

# The CUDA runtime (cudart/, README "Bring your own CUDA program"): a shared
# library built from position-independent copies of simcore's objects under
# $(BUILD)/pic/ (flipsim and libsimcore.a keep their non-PIC objects), with
# the version node nvcc 13 programs bind to; its version script keeps every
# name but the runtime's local. Every other name the CUDA 13
# runtime exports (cudart/exports.txt) gets a function that names itself and
# exits 2 (cudart/unsupported.sh).
CUDART_LIB_SRC := cudart/runtime.c cudart/fatbin.c campaigns/camp_gpu.c
CUDART_PIC_OBJ := $(SIMCORE_SRC:%.c=$(BUILD)/pic/%.o) $(CUDART_LIB_SRC:%.c=$(BUILD)/pic/%.o) \
                  $(BUILD)/pic/campaigns/gpus_embed.o $(BUILD)/pic/cudart/unsupported.o
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/pic/campaigns/gpus_embed.o: $(BUILD)/campaigns/gpus_embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/pic/cudart/unsupported.c: cudart/unsupported.sh cudart/exports.txt $(BUILD)/pic/cudart/runtime.o
	sh cudart/unsupported.sh cudart/exports.txt $(BUILD)/pic/cudart/runtime.o $@

$(BUILD)/pic/cudart/unsupported.o: $(BUILD)/pic/cudart/unsupported.c
	$(CC) $(CFLAGS) -fPIC -Wno-missing-prototypes -c $< -o $@

$(BUILD)/libcudart.so.13: $(CUDART_PIC_OBJ) cudart/libcudart.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=cudart/libcudart.map -o $@ \
		$(CUDART_PIC_OBJ) $(LDFLAGS) -ljansson -lzstd -lm

# The shared libsimcore for make install: the same position-independent
# objects as the CUDA runtime's, exporting the public API (sc_ and a
# lower-case letter; simcore's internal sc__ names stay local).
SHARED_OBJ := $(SIMCORE_SRC:%.c=$(BUILD)/pic/%.o)
$(BUILD)/libsimcore.so.0: $(SHARED_OBJ) simcore/libsimcore.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libsimcore.so.0 -Wl,--version-script=simcore/libsimcore.map -o $@ \
		$(SHARED_OBJ) $(LDFLAGS) -lm

$(BUILD)/libsimcore.a: $(SIMCORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/flipsim: $(BUILD)/engine/main.o $(CORE_OBJ) $(BUILD)/libsimcore.a
	$(CC) $(CFLAGS) -o $@ $(BUILD)/engine/main.o $(CORE_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/unit-tests: $(TEST_OBJ) $(CORE_OBJ) $(BUILD)/libsimcore.a
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(CORE_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lcriterion $(LDLIBS)

$(BUILD)/examples/iterate: examples/iterate/iterate.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# texscale: the texture example (examples/README.md); texscale-texcache.json runs on it
$(BUILD)/examples/texscale: examples/texscale/texscale.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# deps: install the libraries (and pkg-config) with apt-get when any is missing.
DEPS_PKGS := libuv1-dev libjansson-dev libsqlite3-dev libcriterion-dev libzstd-dev pkg-config
deps:
	@missing=""; for p in $(DEPS_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# a host program for tests/engine/test_hostrun.c
$(BUILD)/tests/vadd_host: tests/engine/data/vadd_host.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# a host program whose every experiment crashes or hangs (tests/engine/test_daemon.c)
$(BUILD)/tests/doomed_host: tests/engine/data/doomed_host.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# host programs that put the golden run's limits to the test (tests/engine/test_golden.c)
$(BUILD)/tests/golden_host: tests/engine/data/golden_host.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# a CUDA program without nvcc: it registers a committed fatbinary as nvcc's
# generated host code does and loads build/libcudart.so.13 from its folder's parent
# (tests/cudart/test_runtime.c)
$(BUILD)/tests/cuda_host $(BUILD)/tests/tex_host: $(BUILD)/tests/%: tests/cudart/data/%.c $(BUILD)/libcudart.so.13
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -L$(BUILD) -l:libcudart.so.13 -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS)

# programs whose .nv_fatbin holds a fixture, for the ELF checks of
# tests/cudart/test_fatbin.c: as built with -cudart shared, -cudart static,
# and with machine code only
CUDART_DATA := tests/cudart/data
$(BUILD)/tests/elf_shared: $(CUDART_DATA)/elf_host.c $(CUDART_DATA)/rt_kernels.zstd.fatbin $(BUILD)/libcudart.so.13
	$(CC) $(CFLAGS) -DBLOB='"$(CUDART_DATA)/rt_kernels.zstd.fatbin"' -o $@ $< -L$(BUILD) -Wl,--no-as-needed \
		-l:libcudart.so.13 $(LDFLAGS)
$(BUILD)/tests/elf_static: $(CUDART_DATA)/elf_host.c $(CUDART_DATA)/rt_kernels.zstd.fatbin
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DBLOB='"$(CUDART_DATA)/rt_kernels.zstd.fatbin"' -o $@ $< $(LDFLAGS)
$(BUILD)/tests/elf_sass: $(CUDART_DATA)/elf_host.c $(CUDART_DATA)/rt_kernels.sass.fatbin $(BUILD)/libcudart.so.13
	$(CC) $(CFLAGS) -DBLOB='"$(CUDART_DATA)/rt_kernels.sass.fatbin"' -o $@ $< -L$(BUILD) -Wl,--no-as-needed \
		-l:libcudart.so.13 $(LDFLAGS)

# The simulator's semantic suites run a second time with every module in
# alloc register mode (the fault, arch and engine suites pin ptx-mode
# register numbers and counts, so they run in ptx mode only).
ALLOC_SUITES := @(sem_int|sem_fp|sem_cmp|insn|mem|ctl|calls|warp|due|parse)/*
# examples/campaigns/ name build/examples/ programs (test_campaign.c loads them all)
TEST_BIN := $(BUILD)/unit-tests $(BUILD)/flipsim $(BUILD)/libcudart.so.13 $(BUILD)/tests/cuda_host $(BUILD)/tests/tex_host \
            $(BUILD)/tests/elf_shared \
            $(BUILD)/tests/elf_static $(BUILD)/tests/elf_sass $(BUILD)/tests/vadd_host $(BUILD)/tests/doomed_host $(BUILD)/tests/golden_host $(EXAMPLE_BIN) \
            build/examples/iterate
# UNIT_FILTER: a Criterion filter for the first run (make asan's below)
unit: $(TEST_BIN)
	FLIPSIM=$(BUILD)/flipsim FLIPSIM_TEST_HOST=$(BUILD)/tests/vadd_host $(BUILD)/unit-tests --jobs 2 \
		$(if $(UNIT_FILTER),--filter '$(UNIT_FILTER)')
	$(if $(SKIP_ALLOC_RERUN),,FLIPSIM_TEST_REGS=alloc $(BUILD)/unit-tests --jobs 2 --filter '$(ALLOC_SUITES)')

ptx-tests: $(BUILD)/flipsim
	bash tests/ptx/run.sh $(BUILD)/flipsim $(BUILD)

pass-tests: $(BUILD)/flipsim $(EXAMPLE_BIN)
	bash tests/pass/run.sh $(BUILD)

spill-tests: $(BUILD)/flipsim $(EXAMPLE_BIN)
	bash tests/spill/run.sh $(BUILD)

e2e-tests: $(BUILD)/flipsim $(EXAMPLE_BIN) $(BUILD)/libcudart.so.13 $(BUILD)/tests/vadd_host
	bash tests/e2e.sh $(BUILD)
	bash tests/e2e_protection.sh $(BUILD)
	bash tests/cudart/nvcc.sh $(BUILD)

# make html-tests: `report --html/--svg/--csv DIR` on three small campaigns, the
# page rendered in headless Chromium (tests/html/run.sh; without chromium the
# browser checks are skipped with a message, unless FLIPSIM_REQUIRE_CHROMIUM=1,
# which .ci/run sets after installing it).
html-tests: $(BUILD)/flipsim
	bash tests/html/run.sh $(BUILD)

# make slurm-test: examples/slurm on a throw-away Slurm of this machine
# (munged, slurmctld, slurmd; installs slurm-wlm and munge when missing):
# a campaign as a job array of 4 shards and a dependent merge job, checked
# against a single-machine run. .ci/run runs it.
slurm-test: deps $(BUILD)/flipsim
	bash tests/slurm/run.sh $(BUILD)

# test-bins: every program the suites need, built in parallel; suites: the
# suites one after another, so that their output does not interleave.
test-bins: $(TEST_BIN)

suites:
	$(MAKE) unit
	$(MAKE) ptx-tests
	$(MAKE) pass-tests
	$(MAKE) spill-tests
	$(MAKE) e2e-tests

# html-tests runs after the suites, outside make asan's (its C is the
# report's, which the unit suite's svg tests cover there).
test: deps
	$(MAKE) test-bins
	$(MAKE) suites
	$(MAKE) html-tests
	$(MAKE) install-test
	$(MAKE) cuda-tests

# The CUDA versions of the GUFI applications (examples/README.md, "The CUDA
# versions"): their outputs against the simcore programs' and the study's
# two drivers against each other. Each script skips with one line when nvcc
# or flipsim's CUDA runtime (libcudart.so.13 beside flipsim) is absent.
.PHONY: cuda-tests
cuda-tests: $(BUILD)/flipsim $(EXAMPLE_BIN) cuda-apps $(BUILD)/libcudart.so.13
	bash examples/cuda-check.sh $(BUILD)
	bash examples/campaigns/gufi/driver-check.sh $(BUILD)

# make run: the default campaign, 2000 register-file injections on vadd,
# into a fresh database, ending with its AVF/FIT/MITF report.
run: deps
	$(MAKE) $(BUILD)/flipsim
	rm -f $(BUILD)/run.db $(BUILD)/run.db-wal $(BUILD)/run.db-shm
	$(BUILD)/flipsim run examples/campaigns/vadd-regfile.json --db $(BUILD)/run.db -j 2

# make study [INJECTIONS=n] [JOBS=j] [CAMPAIGNS="NAME..."] [DRIVER=cuda]: GUFI's 55 campaigns
# (examples/campaigns/gufi/) into build/study/study-n.db, then their tables;
# DRIVER=cuda runs the CUDA versions of the programs (study-n-cuda.db).
INJECTIONS ?= 2000
study: deps
	$(MAKE) all $(if $(filter cuda,$(DRIVER)),cuda-apps)
	DRIVER=$(DRIVER) JOBS=$(JOBS) sh examples/campaigns/gufi/study.sh $(BUILD) $(INJECTIONS) $(CAMPAIGNS)

# make protection-study [PROTECTION_INJECTIONS=n | INJECTIONS=n] [JOBS=j]
# [APPS="app..."] [PARTS="part..."]: the codes on the register file, shared
# memory and the caches, SAWP on the instruction buffer, SHARP, Penny and the
# ISA extension on the register file and REFU on the functional units (or
# the parts PARTS names: codes sawp sharp caches penny dup refu), on the GUFI
# applications (or those APPS names), (examples/protection/, README.md there), into
# build/protection/protection-n.db, then its tables (with sqlite3) and profiles.
PROTECTION_INJECTIONS ?= $(if $(filter command line,$(origin INJECTIONS)),$(INJECTIONS),500)
protection-study: deps
	$(MAKE) all
	JOBS=$(JOBS) sh examples/protection/study.sh $(BUILD) $(PROTECTION_INJECTIONS)

# make bench [BASELINE=REV-or-flipsim]: with a baseline (a git revision, built
# in a scratch worktree, or another flipsim) every row is measured side by side.
bench: deps
	$(MAKE) $(BUILD)/flipsim
	+bash tests/bench.sh $(BUILD)/flipsim $(BASELINE)  # '+': the make it runs shares the jobs

ASAN_MAKE := BUILD=build-asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
             LDFLAGS="-fsanitize=address,undefined"
# Under the sanitizers the pass suite (tests/pass/run.sh) runs one pass of
# each kind (insertion, duplication, Penny, resilient instructions) rather
# than all of them, and the pass and spill suites run two of the GUFI
# applications (PROGRAMS_APPS) besides every conformance case. The unit
# suite leaves out the longest sweeps whose paths other tests take too: the
# runner's five every-fault-masked sweeps, the duplication's, compiled
# Penny's and the protected caches' fork/early sweeps (the optimal one
# stays), the L2's (the L1's and the constant cache's stay), two of the
# daemon's three kill-20-times tests, the daemon's status test (a whole
# 2000-injection campaign) and the portable handlers' comparison (the
# specialised one stays), and the runner's fork/early sweeps run every 4th
# of their masks (FLIPSIM_TEST_THIN, tests/engine/runs.h). The same code at
# a fraction of the cost, which keeps CI within its time (fresh-clone CI
# runs took 1972 s, then 1844 s, with less left out; 1290 s and 1575 s
# before the thinning).
ASAN_PASSES := nop-all dup penny protect-dup-all-ra
ASAN_APPS := vaddg hs
ASAN_UNIT_FILTER := */!(*_masks_every_single_bit_fault|protected_dup_*|protected_pennyc_fork_*|protected_l*_fork_*|cache_l2_*|sig*_20_times_then_resume|status_running_stopped_finished|portable_handlers_equal_generic)
asan: deps
	$(MAKE) build/examples/iterate $(EXAMPLE_BIN)
	$(MAKE) $(ASAN_MAKE) test-bins
	PASSES="$(ASAN_PASSES)" PROGRAMS_APPS="$(ASAN_APPS)" FLIPSIM_TEST_THIN=4 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		E2E_SKIP_EXAMPLES=1 $(MAKE) $(ASAN_MAKE) UNIT_FILTER='$(ASAN_UNIT_FILTER)' SKIP_ALLOC_RERUN=1 suites

# make fuzz [FUZZ_SECONDS=600] [FUZZ_TARGETS="ptx workload campaign"] [FUZZ_CC=clang]: the
# libFuzzer harnesses of tests/fuzz/ built with clang into build-fuzz/, each
# run for FUZZ_SECONDS from the committed examples (tests/fuzz/README.md).
# Not part of make test: it needs clang's libFuzzer, and exits 2 without it.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= ptx workload campaign
FUZZ_BIN     := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_CC      ?= clang
fuzz:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz: $(FUZZ_CC) not found (Debian: apt-get install clang)"; exit 2; }
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (int)(d && n) * 0; }\n' | \
	  $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null || \
	  { echo "make fuzz: $(FUZZ_CC) cannot link libFuzzer (Debian: apt-get install clang, libclang-rt-dev)"; exit 2; }
	$(MAKE) $(EXAMPLE_BIN) build/examples/iterate  # host programs the GUFI campaigns name
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) FUZZ_TARGETS="$(FUZZ_TARGETS)" \
	        OPT="-O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	        LDFLAGS="-fsanitize=fuzzer,address,undefined" fuzz-bins
	sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-bins: $(FUZZ_BIN)
.PRECIOUS: $(BUILD)/tests/fuzz/%.o

$(BUILD)/tests/fuzz/fuzz_common.o: CFLAGS += -DFUZZ_ROOT='"$(CURDIR)"'
FUZZ_OBJ := $(BUILD)/tests/fuzz/fuzz_load.o $(BUILD)/tests/fuzz/fuzz_common.o
$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_OBJ) $(CORE_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(FUZZ_OBJ) $(CORE_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) $(LDLIBS)

# make install [PREFIX=/usr/local] [DESTDIR=]: flipsim, libsimcore (static and
# shared), the CUDA runtime (lib/flipsim/libcudart.so.13, where the installed
# flipsim finds it for CUDA programs), the header simcore.h, the
# pkg-config file simcore.pc (`cc prog.c $(pkg-config --cflags --libs
# simcore)`), the man page flipsim.1 (made from the commands' --help by
# tools/mkman.sh) and the bash completion. make install-test installs into a
# temporary prefix and checks each part (tests/install.sh).
PREFIX  ?= /usr/local
BINDIR  := $(DESTDIR)$(PREFIX)/bin
LIBDIR  := $(DESTDIR)$(PREFIX)/lib
INCDIR  := $(DESTDIR)$(PREFIX)/include/flipsim
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
SC_VER  := $(shell sed -n 's/^\#define SC_VERSION "\(.*\)"/\1/p' simcore/simcore.h)

$(BUILD)/flipsim.1: tools/mkman.sh $(BUILD)/flipsim
	sh tools/mkman.sh $(BUILD)/flipsim >$@.tmp && mv $@.tmp $@

.PHONY: install install-test
install: $(BUILD)/flipsim $(BUILD)/libsimcore.a $(BUILD)/libsimcore.so.0 $(BUILD)/libcudart.so.13 $(BUILD)/flipsim.1
	install -d $(BINDIR) $(LIBDIR)/pkgconfig $(LIBDIR)/flipsim $(INCDIR) $(MANDIR) $(COMPDIR)
	install -m 755 $(BUILD)/flipsim $(BINDIR)/flipsim
	install -m 644 $(BUILD)/libsimcore.a $(LIBDIR)/libsimcore.a
	install -m 755 $(BUILD)/libsimcore.so.0 $(LIBDIR)/libsimcore.so.0
	ln -sf libsimcore.so.0 $(LIBDIR)/libsimcore.so
	install -m 755 $(BUILD)/libcudart.so.13 $(LIBDIR)/flipsim/libcudart.so.13
	install -m 644 simcore/simcore.h $(INCDIR)/simcore.h
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include/flipsim' '' \
	  'Name: simcore' 'Description: the GPU SM simulator and fault-injection runtime of flipsim (simcore.h)' \
	  'Version: $(SC_VER)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lsimcore -lm' >$(LIBDIR)/pkgconfig/simcore.pc
	install -m 644 $(BUILD)/flipsim.1 $(MANDIR)/flipsim.1
	install -m 644 completions/flipsim.bash $(COMPDIR)/flipsim

install-test: deps $(BUILD)/flipsim $(BUILD)/libsimcore.a $(BUILD)/libsimcore.so.0 $(BUILD)/libcudart.so.13
	bash tests/install.sh $(BUILD)

clean:
	rm -rf build build-asan build-fuzz

-include $(CUDART_PIC_OBJ:.o=.d) $(SIMCORE_OBJ:.o=.d) $(CORE_OBJ:.o=.d) $(ENGINE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(APP_OBJ:.o=.d)
