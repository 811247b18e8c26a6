/* GPU configurations: the built-in GTX480 (GUFI's simulated GPU) and the
 * validity check that every configuration, built-in or loaded from JSON
 * (campaigns/camp_gpu.c, the presets in campaigns/gpus/), passes before use.
 * Design: docs/DESIGN.md ("The simulator"). */
#include <math.h>
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
 * and 8 predicate registers per thread (SASS P0-P6 plus PT). The figures are
 * the gtx480 column of SC_CONFIG_FIELDS (simcore.h), the latencies the table
 * below.
 *
 * Clock: the GTX480 runs its core at 700 MHz and its shader (processor) clock
 * at 1401 MHz (NVIDIA GeForce GTX 480 specifications). GPGPU-Sim models the
 * 700 MHz clock and issues a whole warp per cycle there ("1400/2 = 700" in its
 * config); flipsim counts shader cycles, so every latency below is in
 * 1401 MHz cycles, and MITF uses 1401 MHz.
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
 *     Fermi shared-memory load.
 *   - global, local 600: the middle of the Guide's 400-800 cycles; the
 *     simulator models no caches, so one figure stands for every access.
 *   - assumptions (no public measurement isolates them): sfu 40 (4 SFUs per
 *     SM take 8 cycles to issue a warp, plus the pipeline); cvt 22 and warp
 *     22 (conversions and vote run in the ALU pipeline; Fermi has no shfl);
 *     const 22 (Fermi instructions read c[bank][offset] operands directly, so
 *     a .param/.const read costs an ALU pass); atomic 600 (atomics resolve
 *     at the L2/memory side, a global round trip); branch 22 (the target is
 *     fetched once the branch leaves the 22-cycle pipeline). */
static const uint32_t gtx480_latency[SC_LAT__COUNT] = {
	[SC_LAT_INT] = 22,     [SC_LAT_IMUL] = 24,    [SC_LAT_FP32] = 22,    [SC_LAT_FP64] = 30,
	[SC_LAT_SFU] = 40,     [SC_LAT_CVT] = 22,     [SC_LAT_SHARED] = 50,  [SC_LAT_GLOBAL] = 600,
	[SC_LAT_LOCAL] = 600,  [SC_LAT_CONST] = 22,   [SC_LAT_ATOMIC] = 600, [SC_LAT_BRANCH] = 22,
	[SC_LAT_WARP] = 22,
};

void sc_config_gtx480(sc_gpu_config_t *cfg)
{
	memset(cfg, 0, sizeof *cfg);
#define SET_NAME(f, v) snprintf(cfg->f, sizeof cfg->f, "%s", v);
#define SET_U32(f, v) cfg->f = v;
#define SET_SCHED(f, v) cfg->f = v;
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

static const char *const lat_names[SC_LAT__COUNT] = {
#define X(name, text) [SC_LAT_##name] = text,
	SC_LAT_LIST(X)
#undef X
};

const char *sc_sched_name(sc_sched_t s)
{
	return (unsigned)s < SC_SCHED__COUNT ? sched_names[s] : "?";
}

const char *sc_lat_name(sc_lat_t l)
{
	return (unsigned)l < SC_LAT__COUNT ? lat_names[l] : "?";
}

int sc_sched_parse(const char *name, sc_sched_t *out)
{
	for (int i = 0; name && i < SC_SCHED__COUNT; i++)
		if (!strcmp(name, sched_names[i])) {
			*out = (sc_sched_t)i;
			return 0;
		}
	return SC_EINVAL;
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

static int check_sched(sc_sched_t v, const char *key, char *msg, size_t msgsz)
{
	if ((unsigned)v >= SC_SCHED__COUNT) {
		snprintf(msg, msgsz, "%s: expected %s", key, SC_SCHED_CHOICES);
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
#define CHECK_SCHED(f, lo, hi) check_sched(cfg->f, #f, msg, msgsz)
#define CHECK_LAT(f, lo, hi) check_lat(cfg->f, lo, hi, #f, msg, msgsz)
#define CHECK_MHZ(f, lo, hi) check_mhz(cfg->f, lo, hi, #f, msg, msgsz)

/* The first pass checks the name and the fields with a single allowed
 * value (warp_size), the second all other ranges: the order in which a
 * configuration wrong in several fields has always been reported. */
#define FIRST_NAME(lo, hi) 1
#define FIRST_U32(lo, hi) ((lo) == (hi))
#define FIRST_SCHED(lo, hi) 0
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

/* Constraints between fields: each names the field it constrains. */
static int check_cross(const sc_gpu_config_t *cfg, char *msg, size_t msgsz)
{
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
