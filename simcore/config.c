/* GPU configurations: the built-in GTX480 (GUFI's simulated GPU) and the
 * validity check that every configuration, built-in or loaded from JSON
 * (campaigns/camp_gpu.c, the presets in campaigns/gpus/), passes before use.
 * Design: docs/DESIGN.md ("The simulator"). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "simcore.h"

/* The GTX480 as GUFI simulated it (Tselonis & Gizopoulos, "GUFI: a Framework
 * for GPUs Reliability Assessment", Table II: 15 SMs, warp 32, 1536 threads,
 * 8 CTAs, 32768 registers, 48 KB shared memory per SM; section VII and
 * Table V: 48 warps per SM, 2 instruction-buffer entries per warp, SIMT stacks
 * no deeper than the warp size). Limits per CTA and thread are those of
 * compute capability 2.0 (CUDA C Programming Guide, "Compute Capabilities":
 * 63 registers per thread, 1024 threads and 48 KB shared memory per CTA).
 * Fermi has two warp schedulers per SM (NVIDIA Fermi compute architecture
 * whitepaper, GF100; GPGPU-Sim's GTX480 config: -gpgpu_num_sched_per_core 2)
 * and 8 predicate registers per thread (SASS P0-P6 plus PT). An instruction-
 * buffer entry whose valid bit a fault cleared is fetched again (refetch), a
 * modelling choice rather than a measured figure (DESIGN.md, "Instruction
 * buffer"). The figures are the gtx480 column of SC_CONFIG_FIELDS
 * (simcore.h), the latencies the table below.
 *
 * Clocks: the GTX480 runs its core at 700 MHz, its shader (processor) clock
 * at 1401 MHz (NVIDIA GeForce GTX 480 specifications) and its GDDR5 command
 * clock at 924 MHz (3.7 GT/s). GPGPU-Sim models the 700 MHz clock and issues
 * a whole warp per cycle there ("1400/2 = 700" in its config); flipsim
 * counts shader cycles (clock_mhz), so every latency and interval below is
 * in 1401 MHz cycles, and MITF uses 1401 MHz.
 *
 * Latencies (cycles from issue until a dependent instruction may read the
 * result). Fermi has no complete public per-instruction latency table, so
 * the figures combine two public sources and say where each comes from:
 *   - the CUDA C Programming Guide (v4-v6, "Multiprocessor Level"): a
 *     register-to-register arithmetic instruction takes "about 22 clock
 *     cycles" on compute capability 2.x, and an access to off-chip memory
 *     400 to 800 cycles on 1.x and 2.x;
 *   - GPGPU-Sim's GTX480 config (configs/tested-cfgs/SM2_GTX480): per-class
 *     latencies in 700 MHz cycles, ADD,MAX,MUL,MAD,DIV = int 4,13,4,5,145,
 *     fp 4,13,4,5,39, dp 8,19,8,8,330. These exclude GPGPU-Sim's pipeline
 *     stages, so flipsim uses only their differences to ADD, doubled to shader
 *     cycles, on top of the Guide's 22 cycles:
 *       int 22 (ADD 4), imul 24 (MAD 5: +2), fp32 22 (ADD/MUL 4),
 *       fp64 30 (dp ADD/MUL/MAD 8: +8). Integer div/rem have no hardware
 *       unit on Fermi (they compile to instruction sequences), so the imul
 *       class follows mul/mad.
 *   - shared 50: Mei & Chu, "Dissecting GPU Memory Hierarchy through
 *     Microbenchmarking" (IEEE TPDS 2017) measured about 50 cycles for a
 *     Fermi shared-memory load (GPGPU-Sim: -gpgpu_smem_latency 26 core
 *     cycles, 52 shader cycles).
 *   - global, local 70: an L1 hit, GPGPU-Sim's -gpgpu_l1_latency 35 core
 *     cycles. An L1 miss served by L2 takes l2_latency 310: the L1 pass
 *     plus GPGPU-Sim's -gpgpu_l2_rop_latency 120 core cycles, doubled
 *     (70 + 240); an L2 miss adds dram_latency 236: -dram_latency 100 core
 *     cycles (200) plus the GDDR5 row activation and CAS latency of the same
 *     config, tRCD 12 + CL 12 at 924 MHz (36 shader cycles).
 *   - atomic 310: atomics are performed at L2 (Fermi whitepaper: "atomic
 *     operations ... in the L2"), one L2 round trip.
 *   - assumptions (no public measurement isolates them): sfu 40 (4 SFUs per
 *     SM take 8 cycles to issue a warp, plus the pipeline); cvt 22 and warp
 *     22 (conversions and vote run in the ALU pipeline; Fermi has no shfl);
 *     const 22 (Fermi instructions read c[bank][offset] operands directly, so
 *     a constant-cache hit costs an ALU pass); branch 22 (the target is
 *     fetched once the branch leaves the 22-cycle pipeline).
 *
 * Issue and functional units (NVIDIA Fermi compute architecture
 * whitepaper): each of the two schedulers issues one warp-instruction to a
 * group of 16 cores, 16 load/store units or 4 SFUs; a 32-thread warp takes
 * a 16-lane group two shader cycles (issue_cycles 2, one core cycle), and
 * double precision does not dual-issue (dp_solo). The SFU, FP64 and
 * load/store units are shared by the SM (units_per_scheduler 0). Busy
 * cycles per warp (interval) follow the throughputs of the CUDA C
 * Programming Guide's "Arithmetic Instructions" table for compute
 * capability 2.0, per SM per clock: 32 for fp32 and integer add/logic (2),
 * 16 for 32-bit integer multiply and for conversions (4), 4 SFU operations
 * (8), FP64 at 1/8 of FP32 on GeForce GPUs (4 per clock: 8). Memory classes
 * are per transaction: one cache line or one bank-conflict pass per core
 * cycle (2).
 *
 * Memory (GPGPU-Sim's SM2_GTX480 config and the GTX 480 specifications):
 * L1 16 KB of 128-byte lines, 4 ways, beside 48 KB of shared memory
 * (-gpgpu_cache:dl1 32:128:4); 32 shared-memory banks (-gpgpu_shmem_num_banks
 * 32); constant cache 8 KB of 64-byte lines, 2 ways (-gpgpu_const_cache:l1
 * 64:64:2); texture cache 12 KB of 128-byte lines, 24 ways
 * (-gpgpu_tex_cache:l1 4:128:24; GF100 has 12 KB of texture cache per SM);
 * L2 768 KB in 12 slices, 2 per memory channel, of 64 sets of 8
 * ways of 128-byte lines with 32-byte sectors (-gpgpu_cache:dl2
 * S:64:128:8, -gpgpu_n_sub_partition_per_mchannel 2), one sector per core
 * cycle per slice; 6 GDDR5 channels of 64 bits (two 32-bit chips each,
 * -gpgpu_dram_buswidth 4 x -gpgpu_n_mem_per_ctrlr 2), burst length 8, four
 * transfers per 924 MHz command clock (-gpgpu_clock_domains ...:924,
 * -dram_data_command_freq_ratio 4): 6 x 8 B x 4 x 924 MHz = 177.4 GB/s,
 * the GTX 480's specified bandwidth. */
static const uint32_t gtx480_latency[SC_LAT__COUNT] = {
	[SC_LAT_INT] = 22,     [SC_LAT_IMUL] = 24,    [SC_LAT_FP32] = 22,    [SC_LAT_FP64] = 30,
	[SC_LAT_SFU] = 40,     [SC_LAT_CVT] = 22,     [SC_LAT_SHARED] = 50,  [SC_LAT_GLOBAL] = 70,
	[SC_LAT_LOCAL] = 70,   [SC_LAT_CONST] = 22,   [SC_LAT_ATOMIC] = 310, [SC_LAT_BRANCH] = 22,
	[SC_LAT_WARP] = 22,
};

static const uint32_t gtx480_interval[SC_LAT__COUNT] = {
	[SC_LAT_INT] = 2,      [SC_LAT_IMUL] = 4,     [SC_LAT_FP32] = 2,     [SC_LAT_FP64] = 8,
	[SC_LAT_SFU] = 8,      [SC_LAT_CVT] = 4,      [SC_LAT_SHARED] = 2,   [SC_LAT_GLOBAL] = 2,
	[SC_LAT_LOCAL] = 2,    [SC_LAT_CONST] = 2,    [SC_LAT_ATOMIC] = 2,   [SC_LAT_BRANCH] = 2,
	[SC_LAT_WARP] = 2,
};

void sc_config_gtx480(sc_gpu_config_t *cfg)
{
	memset(cfg, 0, sizeof *cfg);
#define SET_NAME(f, v) snprintf(cfg->f, sizeof cfg->f, "%s", v);
#define SET_U32(f, v) cfg->f = v;
#define SET_SCHED(f, v) cfg->f = v;
#define SET_IBINV(f, v) cfg->f = v;
#define SET_LAT(f, v) memcpy(cfg->f, v, sizeof cfg->f);
#define SET_MHZ(f, v) cfg->f = v;
#define X(kind, field, lo, hi, gtx480) SET_##kind(field, gtx480)
	SC_CONFIG_FIELDS(X)
#undef X
}

static const char *const sched_names[SC_SCHED__COUNT] = {
#define X(name, text) [SC_SCHED_##name] = text,
	SC_SCHED_LIST(X)
#undef X
};

static const char *const ibinv_names[SC_IBINV__COUNT] = {
#define X(name, text) [SC_IBINV_##name] = text,
	SC_IBINV_LIST(X)
#undef X
};

static const char *const lat_names[SC_LAT__COUNT] = {
#define X(name, text) [SC_LAT_##name] = text,
	SC_LAT_LIST(X)
#undef X
};

const char *sc_sched_name(sc_sched_t s)
{
	return (unsigned)s < SC_SCHED__COUNT ? sched_names[s] : "?";
}

const char *sc_ibinv_name(sc_ibinv_t m)
{
	return (unsigned)m < SC_IBINV__COUNT ? ibinv_names[m] : "?";
}

const char *sc_lat_name(sc_lat_t l)
{
	return (unsigned)l < SC_LAT__COUNT ? lat_names[l] : "?";
}

/* The index of name in names[0..n), -1 when it is not there. */
static int name_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int sc_sched_parse(const char *name, sc_sched_t *out)
{
	int i = name_index(sched_names, SC_SCHED__COUNT, name);
	if (i < 0)
		return SC_EINVAL;
	*out = (sc_sched_t)i;
	return 0;
}

int sc_ibinv_parse(const char *name, sc_ibinv_t *out)
{
	int i = name_index(ibinv_names, SC_IBINV__COUNT, name);
	if (i < 0)
		return SC_EINVAL;
	*out = (sc_ibinv_t)i;
	return 0;
}

/* One check per kind of field (simcore.h, SC_CONFIG_FIELDS). Messages start
 * with the field's name as the GPU JSON spells it ("latency.fp32: ..."), so
 * that camp_gpu.c can report them as JSON paths; keep that form. */
static int check_name(const char *v, size_t size, const char *key, char *msg, size_t msgsz)
{
	if (memchr(v, '\0', size) == NULL || v[0] == '\0') {
		snprintf(msg, msgsz, "%s: expected a string of 1..%zu characters", key, size - 1);
		return SC_EINVAL;
	}
	return 0;
}

static int check_u32(uint32_t v, uint32_t lo, uint32_t hi, const char *key, char *msg, size_t msgsz)
{
	if (lo == hi && v != lo) {
		snprintf(msg, msgsz, "%s: expected %u, got %u", key, lo, v);
		return SC_EINVAL;
	}
	if (v < lo || v > hi) {
		snprintf(msg, msgsz, "%s: expected an integer in %u..%u, got %u", key, lo, hi, v);
		return SC_EINVAL;
	}
	return 0;
}

/* An enumerated field: one of `count` values, named in `choices`. */
static int check_enum(unsigned v, unsigned count, const char *choices, const char *key, char *msg, size_t msgsz)
{
	if (v >= count) {
		snprintf(msg, msgsz, "%s: expected %s", key, choices);
		return SC_EINVAL;
	}
	return 0;
}

static int check_lat(const uint32_t *v, uint32_t lo, uint32_t hi, const char *key, char *msg,
                     size_t msgsz)
{
	for (int i = 0; i < SC_LAT__COUNT; i++) {
		if (v[i] < lo || v[i] > hi) {
			snprintf(msg, msgsz, "%s.%s: expected an integer in %u..%u, got %u", key, lat_names[i],
			         lo, hi, v[i]);
			return SC_EINVAL;
		}
	}
	return 0;
}

static int check_mhz(double v, double lo, double hi, const char *key, char *msg, size_t msgsz)
{
	if (!isfinite(v) || v < lo || v > hi) {
		snprintf(msg, msgsz, "%s: expected a number in %g..%g, got %g", key, lo, hi, v);
		return SC_EINVAL;
	}
	return 0;
}

#define CHECK_NAME(f, lo, hi) check_name(cfg->f, sizeof cfg->f, #f, msg, msgsz)
#define CHECK_U32(f, lo, hi) check_u32(cfg->f, lo, hi, #f, msg, msgsz)
#define CHECK_SCHED(f, lo, hi) check_enum(cfg->f, SC_SCHED__COUNT, SC_SCHED_CHOICES, #f, msg, msgsz)
#define CHECK_IBINV(f, lo, hi) check_enum(cfg->f, SC_IBINV__COUNT, SC_IBINV_CHOICES, #f, msg, msgsz)
#define CHECK_LAT(f, lo, hi) check_lat(cfg->f, lo, hi, #f, msg, msgsz)
#define CHECK_MHZ(f, lo, hi) check_mhz(cfg->f, lo, hi, #f, msg, msgsz)

/* The first pass checks the name and the fields with a single allowed
 * value (warp_size), the second all other ranges: the order in which a
 * configuration wrong in several fields has always been reported. */
#define FIRST_NAME(lo, hi) 1
#define FIRST_U32(lo, hi) ((lo) == (hi))
#define FIRST_SCHED(lo, hi) 0
#define FIRST_IBINV(lo, hi) 0
#define FIRST_LAT(lo, hi) 0
#define FIRST_MHZ(lo, hi) 0

static int check_fields(const sc_gpu_config_t *cfg, int first, char *msg, size_t msgsz)
{
	int rc;
#define X(kind, field, lo, hi, gtx480)                                                \
	if (FIRST_##kind(lo, hi) == first && (rc = CHECK_##kind(field, lo, hi)) != 0) \
		return rc;
	SC_CONFIG_FIELDS(X)
#undef X
	return 0;
}

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* A cache of `bytes` in `parts` equal parts (slices) of `ways`-way sets of
 * `line`-byte lines: lines a power of two, and a power-of-two number of
 * sets in each part, so that a lookup is a shift and a mask. */
static int check_cache(const char *pre, uint32_t bytes, uint32_t line, uint32_t ways, uint32_t parts, char *msg,
                       size_t msgsz)
{
	if (!pow2(line)) {
		snprintf(msg, msgsz, "%s_line: expected a power of two, got %u", pre, line);
		return SC_EINVAL;
	}
	uint64_t per = (uint64_t)line * ways * parts;
	if (bytes && (bytes % per || !pow2(bytes / per))) {
		snprintf(msg, msgsz,
		         "%s_bytes: expected 0 or a power-of-two number of sets of %u ways of %u-byte lines%s, got %u", pre,
		         ways, line, parts > 1 ? " in each L2 slice" : "", bytes);
		return SC_EINVAL;
	}
	return 0;
}

static int check_memory(const sc_gpu_config_t *cfg, char *msg, size_t msgsz)
{
	int rc;
	uint32_t slices = cfg->dram_channels * cfg->l2_slices_per_channel;
	if ((rc = check_cache("l1", cfg->l1_bytes, cfg->l1_line, cfg->l1_ways, 1, msg, msgsz)) ||
	    (rc = check_cache("const", cfg->const_bytes, cfg->const_line, cfg->const_ways, 1, msg, msgsz)) ||
	    (rc = check_cache("tex", cfg->tex_bytes, cfg->tex_line, cfg->tex_ways, 1, msg, msgsz)) ||
	    (rc = check_cache("l2", cfg->l2_bytes, cfg->l2_line, cfg->l2_ways, slices, msg, msgsz)))
		return rc;
	if (!pow2(cfg->l2_sector) || cfg->l2_sector > cfg->l2_line || cfg->l2_line / cfg->l2_sector > 8) {
		snprintf(msg, msgsz, "l2_sector: expected a power of two that divides l2_line (%u) into at most 8, got %u",
		         cfg->l2_line, cfg->l2_sector);
		return SC_EINVAL;
	}
	if (cfg->l1_line != cfg->l2_line || cfg->const_line > cfg->l2_line) {
		snprintf(msg, msgsz, "%s: expected %s l2_line (%u), got %u", cfg->l1_line != cfg->l2_line ? "l1_line" : "const_line",
		         cfg->l1_line != cfg->l2_line ? "the same as" : "at most", cfg->l2_line,
		         cfg->l1_line != cfg->l2_line ? cfg->l1_line : cfg->const_line);
		return SC_EINVAL;
	}
	if (cfg->tex_line > cfg->l2_line) {
		snprintf(msg, msgsz, "tex_line: expected at most l2_line (%u), got %u", cfg->l2_line, cfg->tex_line);
		return SC_EINVAL;
	}
	if (!pow2(cfg->smem_banks)) {
		snprintf(msg, msgsz, "smem_banks: expected a power of two, got %u", cfg->smem_banks);
		return SC_EINVAL;
	}
	return 0;
}

/* Constraints between fields: each names the field it constrains. */
static int check_cross(const sc_gpu_config_t *cfg, char *msg, size_t msgsz)
{
	int rc;
	if ((rc = check_memory(cfg, msg, msgsz)) != 0)
		return rc;
	if ((uint64_t)cfg->max_warps_per_sm * cfg->warp_size < cfg->max_threads_per_sm) {
		snprintf(msg, msgsz,
		         "max_warps_per_sm: %u warps of %u threads hold fewer than "
		         "max_threads_per_sm (%u)",
		         cfg->max_warps_per_sm, cfg->warp_size, cfg->max_threads_per_sm);
		return SC_EINVAL;
	}
	if (cfg->max_threads_per_cta > cfg->max_threads_per_sm) {
		snprintf(msg, msgsz,
		         "max_threads_per_cta: %u exceeds max_threads_per_sm (%u)",
		         cfg->max_threads_per_cta, cfg->max_threads_per_sm);
		return SC_EINVAL;
	}
	if (cfg->max_regs_per_thread > cfg->regs_per_sm) {
		snprintf(msg, msgsz, "max_regs_per_thread: %u exceeds regs_per_sm (%u)",
		         cfg->max_regs_per_thread, cfg->regs_per_sm);
		return SC_EINVAL;
	}
	if (cfg->max_smem_per_cta > cfg->smem_per_sm) {
		snprintf(msg, msgsz, "max_smem_per_cta: %u exceeds smem_per_sm (%u)",
		         cfg->max_smem_per_cta, cfg->smem_per_sm);
		return SC_EINVAL;
	}
	return 0;
}

int sc_config_check(const sc_gpu_config_t *cfg, char *msg, size_t msgsz)
{
	char dummy[1];
	int rc;
	if (!msg || msgsz == 0) {
		msg = dummy;
		msgsz = sizeof dummy;
	}
	msg[0] = '\0';
	if (!cfg) {
		snprintf(msg, msgsz, "no configuration");
		return SC_EINVAL;
	}
	if ((rc = check_fields(cfg, 1, msg, msgsz)) != 0 || (rc = check_fields(cfg, 0, msg, msgsz)) != 0)
		return rc;
	return check_cross(cfg, msg, msgsz);
}
