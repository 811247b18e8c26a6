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
 * whitepaper, GF100; GPGPU-Sim's GTX480 config: -gpgpu_num_sched_per_core 2).
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
void sc_config_gtx480(sc_gpu_config_t *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	snprintf(cfg->name, sizeof cfg->name, "%s", "gtx480");
	cfg->num_sms = 15;
	cfg->warp_size = 32;
	cfg->max_threads_per_sm = 1536;
	cfg->max_ctas_per_sm = 8;
	cfg->max_warps_per_sm = 48;
	cfg->max_threads_per_cta = 1024;
	cfg->regs_per_sm = 32768;
	cfg->max_regs_per_thread = 63;
	cfg->smem_per_sm = 48 * 1024;
	cfg->max_smem_per_cta = 48 * 1024;
	cfg->preds_per_thread = 8;   /* SASS P0-P6 plus PT */
	cfg->ib_entries = 2;
	cfg->simt_stack_depth = 32;
	cfg->schedulers_per_sm = 2;
	cfg->scheduler = SC_SCHED_LRR;
	cfg->latency[SC_LAT_INT] = 22;
	cfg->latency[SC_LAT_IMUL] = 24;
	cfg->latency[SC_LAT_FP32] = 22;
	cfg->latency[SC_LAT_FP64] = 30;
	cfg->latency[SC_LAT_SFU] = 40;
	cfg->latency[SC_LAT_CVT] = 22;
	cfg->latency[SC_LAT_SHARED] = 50;
	cfg->latency[SC_LAT_GLOBAL] = 600;
	cfg->latency[SC_LAT_LOCAL] = 600;
	cfg->latency[SC_LAT_CONST] = 22;
	cfg->latency[SC_LAT_ATOMIC] = 600;
	cfg->latency[SC_LAT_BRANCH] = 22;
	cfg->latency[SC_LAT_WARP] = 22;
	cfg->clock_mhz = 1401.0;
}

/* Each field's accepted range. Messages start with the field's name as the
 * GPU JSON spells it ("latency.fp32: ..."), so that camp_gpu.c can report
 * them as JSON paths; keep that form. */
#define U32_FIELDS(X)                                          \
	X(num_sms, 1, 4096)                                        \
	X(max_threads_per_sm, 32, 65536)                           \
	X(max_ctas_per_sm, 1, 1024)                                \
	X(max_warps_per_sm, 1, 2048)                               \
	X(max_threads_per_cta, 1, 65536)                           \
	X(regs_per_sm, 1, 16777216)                                \
	X(max_regs_per_thread, 1, 65536)                           \
	X(smem_per_sm, 1, 16777216)                                \
	X(max_smem_per_cta, 1, 16777216)                           \
	X(preds_per_thread, 1, 64)                                 \
	X(ib_entries, 1, 16)                                       \
	X(simt_stack_depth, 2, 1024)                               \
	X(schedulers_per_sm, 1, 8)

#define LAT_MIN 1u
#define LAT_MAX 100000u

static const char *const lat_names[SC_LAT__COUNT] = {
#define X(name, text) [SC_LAT_##name] = text,
	SC_LAT_LIST(X)
#undef X
};

int sc_config_check(const sc_gpu_config_t *cfg, char *msg, size_t msgsz)
{
	char dummy[1];
	if (!msg || msgsz == 0) {
		msg = dummy;
		msgsz = sizeof dummy;
	}
	msg[0] = '\0';
	if (!cfg) {
		snprintf(msg, msgsz, "no configuration");
		return SC_EINVAL;
	}
	if (memchr(cfg->name, '\0', sizeof cfg->name) == NULL || cfg->name[0] == '\0') {
		snprintf(msg, msgsz, "name: expected a string of 1..%zu characters",
		         sizeof cfg->name - 1);
		return SC_EINVAL;
	}
	if (cfg->warp_size != 32) {
		snprintf(msg, msgsz, "warp_size: expected 32, got %u", cfg->warp_size);
		return SC_EINVAL;
	}
#define X(field, lo, hi)                                                        \
	if (cfg->field < (uint32_t)(lo) || cfg->field > (uint32_t)(hi)) {          \
		snprintf(msg, msgsz, #field ": expected an integer in %u..%u, got %u",  \
		         (unsigned)(lo), (unsigned)(hi), cfg->field);                    \
		return SC_EINVAL;                                                       \
	}
	U32_FIELDS(X)
#undef X
	if (cfg->scheduler != SC_SCHED_LRR && cfg->scheduler != SC_SCHED_GTO) {
		snprintf(msg, msgsz, "scheduler: expected \"lrr\" or \"gto\"");
		return SC_EINVAL;
	}
	for (int i = 0; i < SC_LAT__COUNT; i++) {
		if (cfg->latency[i] < LAT_MIN || cfg->latency[i] > LAT_MAX) {
			snprintf(msg, msgsz, "latency.%s: expected an integer in %u..%u, got %u",
			         lat_names[i], LAT_MIN, LAT_MAX, cfg->latency[i]);
			return SC_EINVAL;
		}
	}
	if (!isfinite(cfg->clock_mhz) || cfg->clock_mhz < 1.0 || cfg->clock_mhz > 100000.0) {
		snprintf(msg, msgsz, "clock_mhz: expected a number in 1..100000, got %g",
		         cfg->clock_mhz);
		return SC_EINVAL;
	}
	/* Cross-field constraints: each names the field it constrains. */
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
