/* simcore — the embedded streaming-multiprocessor simulator as a library.
 * Design: docs/DESIGN.md ("The simulator"); internal layouts in sc_int.h.
 * Ownership: the caller owns every sc_gpu_t it creates (sc_gpu_destroy) and
 * the modules loaded into it are owned by the GPU and freed with it. Strings
 * returned by the library stay valid until the owning object is destroyed. */
#ifndef SIMCORE_H
#define SIMCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SC_VERSION "0.1.0"

/* ---- errors: 0 on success, a negative code otherwise ------------------- */
#define SC_ERR_LIST(X)                                                    \
	X(NOMEM, -1, "out of memory")                                         \
	X(INVAL, -2, "invalid argument")                                      \
	X(PARSE, -3, "invalid or unsupported PTX")                            \
	X(NOTFOUND, -4, "no such kernel")                                     \
	X(LAUNCH, -5, "launch configuration exceeds the GPU's resources")     \
	X(DUE, -6, "the simulated program stopped with a detected error")     \
	X(IO, -7, "cannot read or write a file")                              \
	X(STICKY, -8, "an earlier launch ended in a DUE; the GPU is unusable")

enum {
#define X(name, code, text) SC_E##name = code,
	SC_ERR_LIST(X)
#undef X
};

/* Returns a static description of an SC_E* code. */
const char *sc_strerror(int err);

/* ---- abnormal ends of the simulated program (DUE reasons) -------------- */
#define SC_DUE_LIST(X)                                                    \
	X(NONE, "none")                                                       \
	X(ILLEGAL_ADDRESS, "illegal_address")                                 \
	X(MISALIGNED_ADDRESS, "misaligned_address")                           \
	X(WRONG_SPACE, "wrong_state_space")                                   \
	X(INVALID_INSTRUCTION, "invalid_instruction")                         \
	X(INVALID_PC, "invalid_pc")                                           \
	X(SIMT_OVERFLOW, "simt_stack_overflow")                               \
	X(SIMT_UNDERFLOW, "simt_stack_underflow")                             \
	X(BARRIER_DEADLOCK, "barrier_deadlock")                               \
	X(TIMEOUT, "timeout")                                                 \
	X(TRAP, "trap")                                                       \
	X(IBUFFER_STALL, "ibuffer_stall") /* ibuffer_invalid "stall" */      \
	X(ECC_UNCORRECTABLE, "ecc_uncorrectable") /* a code detected what it    \
	                                             cannot correct */          \
	X(PARITY_ERROR, "parity_error") /* a parity code detected an error */  \
	X(IBUFFER_PARITY, "ibuffer_parity") /* an instruction-buffer word's   \
	                                       parity error nothing corrects */ \
	X(PENNY_UNRECOVERABLE, "penny_unrecoverable") /* Penny detected an     \
	                                       error and holds no snapshot of \
	                                       its region: the model's checker */ \
	X(REFU_MISMATCH, "refu_mismatch") /* REFU: a replayed ALU result    \
	                                     differs from the stored one */ \
	X(DUP_MISMATCH, "dup_mismatch") /* datapath duplication: an original  \
	                                   and its replica differ */ \
	X(ASSERT, "assert") /* a device assert() failed (__assertfail) */ \
	X(BAD_CALL_TARGET, "bad_call_target") /* an indirect call through a \
	                                  value that names no function, or one \
	                                  whose parameters differ from the   \
	                                  call's prototype (call.c) */       \
	X(STACK_OVERFLOW, "stack_overflow") /* the per-thread call stack of  \
	                                  recursive or indirect calls is full \
	                                  (cudaLimitStackSize, call.c) */ \
	X(INVALID_HANDLE, "invalid_handle") /* tex/suld/sust/txq on a handle \
	                                       that names no such object */

typedef enum {
#define X(name, text) SC_DUE_##name,
	SC_DUE_LIST(X)
#undef X
	SC_DUE__COUNT
} sc_due_t;

/* Returns the stable lower-case name of a DUE reason ("illegal_address"). */
const char *sc_due_name(sc_due_t reason);

/* Where and why the simulated program stopped; reason NONE while healthy. */
typedef struct sc_status {
	sc_due_t reason;
	uint64_t cycle;   /* GPU cycle of the event */
	int32_t sm;       /* SM index, -1 when not tied to one */
	int32_t warp;     /* warp slot within the SM, -1 when none */
	int32_t lane;     /* lane, -1 when the whole warp */
	uint32_t pc;      /* instruction index in the module */
	uint32_t line;    /* PTX source line of that instruction, 0 if unknown */
	uint64_t addr;    /* offending address for memory reasons */
	char kernel[64];  /* kernel running when it happened */
	char detail[160]; /* one human-readable line */
} sc_status_t;

/* ---- GPU configuration -------------------------------------------------- */

/* Warp-scheduling policies: X(enum suffix, name in GPU JSON). */
#define SC_SCHED_LIST(X)                                                  \
	X(LRR, "lrr")         /* loose round robin */                         \
	X(GTO, "gto")         /* greedy then oldest */

typedef enum {
#define X(name, text) SC_SCHED_##name,
	SC_SCHED_LIST(X)
#undef X
	SC_SCHED__COUNT
} sc_sched_t;

/* The scheduler names as messages quote them, '"lrr" or "gto"': the list
 * joined with a leading " or " that the + 4 skips. */
#define SC__CHOICE(name, text) " or \"" text "\""
#define SC_SCHED_CHOICES (SC_SCHED_LIST(SC__CHOICE) + 4)

/* What an issue does with an instruction-buffer entry whose valid bit a
 * fault cleared (DESIGN.md, "Instruction buffer"): X(enum suffix, name in
 * GPU JSON). */
#define SC_IBINV_LIST(X)                                                  \
	X(REFETCH, "refetch") /* fetch the word again: latency.branch */      \
	X(SKIP, "skip")       /* go on at pc + 1 without executing it */      \
	X(STALL, "stall")     /* never issue again: DUE ibuffer_stall */

typedef enum {
#define X(name, text) SC_IBINV_##name,
	SC_IBINV_LIST(X)
#undef X
	SC_IBINV__COUNT
} sc_ibinv_t;

#define SC_IBINV_CHOICES (SC_IBINV_LIST(SC__CHOICE) + 4)

/* Latency classes: cycles from issue until the result may be read. */
#define SC_LAT_LIST(X)                                                    \
	X(INT, "int")         /* integer/logic ALU */                         \
	X(IMUL, "imul")       /* integer multiply, mad, div, rem */           \
	X(FP32, "fp32")                                                       \
	X(FP64, "fp64")                                                       \
	X(SFU, "sfu")         /* rcp sqrt rsqrt sin cos lg2 ex2, f32 div */   \
	X(CVT, "cvt")         /* conversions */                               \
	X(SHARED, "shared")                                                   \
	X(GLOBAL, "global")                                                   \
	X(LOCAL, "local")                                                     \
	X(CONST, "const")     /* .const and .param */                         \
	X(ATOMIC, "atomic")                                                   \
	X(BRANCH, "branch")   /* control transfer: also refetch penalty */    \
	X(WARP, "warp")       /* shfl, vote, activemask */

typedef enum {
#define X(name, text) SC_LAT_##name,
	SC_LAT_LIST(X)
#undef X
	SC_LAT__COUNT
} sc_lat_t;

/* The GPU configuration's fields, declared once. The struct below, the
 * built-in GTX480 and the range check (config.c), the GPU JSON reader
 * (campaigns/camp_gpu.c), the GPU in a campaign's identity
 * (campaigns/camp_campaign.c) and the 'config' record of runtime job files
 * (rt.c) are generated from this list, in its order.
 *
 *   X(kind, field, lo, hi, gtx480)
 *   kind    NAME   char[hi + 1] holding lo..hi characters; GPU JSON follows
 *                  it with "sources", the texts the figures come from
 *           U32    uint32_t in lo..hi (lo == hi: exactly that value)
 *           SCHED  sc_sched_t, by its SC_SCHED_LIST name in JSON
 *           IBINV  sc_ibinv_t, by its SC_IBINV_LIST name in JSON (what an
 *                  issue does with an entry whose valid bit a fault cleared)
 *           LAT    uint32_t[SC_LAT__COUNT], each in lo..hi; in JSON an
 *                  object keyed by the SC_LAT_LIST names
 *           MHZ    double in lo..hi, a clock frequency in MHz
 *   field   the member, and its key in GPU JSON
 *   gtx480  the built-in GTX480's value (config.c cites the sources; LAT:
 *           config.c's table gtx480_latency)
 * Cross-field constraints are written out in config.c. */
#define SC_CONFIG_FIELDS(X)                                                                        \
	X(NAME, name, 1, 63, "gtx480")                                                             \
	X(U32, num_sms, 1, 4096, 15)                                                               \
	X(U32, warp_size, 32, 32, 32)                                                              \
	X(U32, max_threads_per_sm, 32, 65536, 1536)                                                \
	X(U32, max_ctas_per_sm, 1, 1024, 8)                                                        \
	X(U32, max_warps_per_sm, 1, 2048, 48)                                                      \
	X(U32, max_threads_per_cta, 1, 65536, 1024)                                                \
	X(U32, regs_per_sm, 1, 16777216, 32768)            /* 32-bit registers in the SM's file */ \
	X(U32, max_regs_per_thread, 1, 65536, 63)          /* limit a kernel may not exceed */     \
	X(U32, smem_per_sm, 1, 16777216, 48 * 1024)        /* bytes of shared memory per SM */     \
	X(U32, max_smem_per_cta, 1, 16777216, 48 * 1024)   /* bytes a single CTA may use */        \
	X(U32, preds_per_thread, 1, 64, 8)                 /* predicate registers per thread */    \
	X(U32, ib_entries, 1, 16, 2)                       /* instruction-buffer entries/warp */   \
	X(IBINV, ibuffer_invalid, 0, SC_IBINV__COUNT - 1, SC_IBINV_REFETCH)                       \
	X(U32, simt_stack_depth, 2, 1024, 32)              /* SIMT reconvergence entries/warp */   \
	X(U32, schedulers_per_sm, 1, 8, 2)                                                         \
	X(SCHED, scheduler, 0, SC_SCHED__COUNT - 1, SC_SCHED_LRR)                                  \
	X(LAT, latency, 1, 100000, gtx480_latency)                                                 \
	X(MHZ, clock_mhz, 1, 100000, 1401.0)           /* the clock `cycles` count; MITF's */ \
	X(MHZ, core_mhz, 1, 100000, 700.0)             /* core / SM front-end clock */     \
	X(MHZ, mem_mhz, 1, 100000, 924.0)              /* DRAM command clock */            \
	X(U32, issue_cycles, 1, 64, 2)                 /* per warp-instruction, per sched. */ \
	X(U32, units_per_scheduler, 0, 1, 0)           /* SFU/FP64/LDST per scheduler? */  \
	X(U32, dp_solo, 0, 1, 1)                       /* FP64 takes every issue slot */   \
	X(LAT, interval, 1, 4096, gtx480_interval)     /* unit busy cycles per class */    \
	X(U32, smem_banks, 1, 64, 32)                                                      \
	X(U32, l1_bytes, 0, 16777216, 16384)           /* L1 data cache per SM; 0: none */ \
	X(U32, l1_line, 16, 4096, 128)                                                     \
	X(U32, l1_ways, 1, 64, 4)                                                          \
	X(U32, const_bytes, 0, 16777216, 8192)         /* constant cache per SM */         \
	X(U32, const_line, 16, 4096, 64)                                                   \
	X(U32, const_ways, 1, 64, 2)                                                       \
	X(U32, tex_bytes, 0, 16777216, 12288)          /* texture cache per SM; 0: the L1 */ \
	X(U32, tex_line, 16, 4096, 128)                                                    \
	X(U32, tex_ways, 1, 64, 24)                                                        \
	X(U32, l2_bytes, 0, 1073741824, 786432)        /* L2 of the whole GPU; 0: none */  \
	X(U32, l2_line, 16, 4096, 128)                                                     \
	X(U32, l2_ways, 1, 64, 8)                                                          \
	X(U32, l2_sector, 4, 4096, 32)                                                     \
	X(U32, l2_slices_per_channel, 1, 16, 2)                                            \
	X(U32, l2_latency, 1, 100000, 310)             /* round trip of an L2 hit */       \
	X(U32, l2_sector_cycles, 1, 1024, 2)           /* slice busy per sector */         \
	X(U32, dram_channels, 1, 256, 6)                                                   \
	X(U32, dram_bus_bytes, 1, 256, 8)              /* per transfer per channel */      \
	X(U32, dram_burst, 1, 64, 8)                   /* transfers per burst */           \
	X(U32, dram_rate, 1, 16, 4)                    /* transfers per mem_mhz clock */   \
	X(U32, dram_latency, 0, 100000, 236)           /* what an L2 miss adds */

#define SC__CFG_MEMBER_NAME(field, hi) char field[(hi) + 1];
#define SC__CFG_MEMBER_U32(field, hi) uint32_t field;
#define SC__CFG_MEMBER_SCHED(field, hi) sc_sched_t field;
#define SC__CFG_MEMBER_IBINV(field, hi) sc_ibinv_t field;
#define SC__CFG_MEMBER_LAT(field, hi) uint32_t field[SC_LAT__COUNT];
#define SC__CFG_MEMBER_MHZ(field, hi) double field;
typedef struct sc_gpu_config {
#define X(kind, field, lo, hi, gtx480) SC__CFG_MEMBER_##kind(field, hi)
	SC_CONFIG_FIELDS(X)
#undef X
} sc_gpu_config_t;

/* Fills *cfg with the built-in GTX480 configuration (GUFI Table II). */
void sc_config_gtx480(sc_gpu_config_t *cfg);

/* Checks a configuration; returns 0 or SC_EINVAL with a message in msg
 * that starts with the field's JSON name ("latency.fp32: ..."). */
int sc_config_check(const sc_gpu_config_t *cfg, char *msg, size_t msgsz);

/* Names as GPU JSON writes them ("gto", "fp32"), static; "?" when out of
 * range. */
const char *sc_sched_name(sc_sched_t s);
const char *sc_ibinv_name(sc_ibinv_t m);
const char *sc_lat_name(sc_lat_t l);

/* Parse a scheduler or ibuffer_invalid name into *out: 0, or SC_EINVAL
 * when unknown. */
int sc_sched_parse(const char *name, sc_sched_t *out);
int sc_ibinv_parse(const char *name, sc_ibinv_t *out);

/* ---- the simulated GPU and its host API --------------------------------- */
typedef struct sc_gpu sc_gpu_t;
typedef struct sc_module sc_module_t;

typedef struct sc_dim3 { uint32_t x, y, z; } sc_dim3_t;

/* Register modes (DESIGN.md, "Register modes"): alloc runs liveness
 * analysis and register allocation when a module loads, so registers per
 * thread, occupancy and the physical register file follow the allocated
 * count; ptx runs that same machine (identical cycles) but its register
 * file and predicate fault targets are the resident threads' PTX virtual
 * registers, each found where the allocation keeps its value (GUFI's ptx
 * mode); unalloc gives every PTX virtual register its own 32-bit slot(s)
 * and sizes occupancy by them: the allocator's reference. */
typedef enum { SC_REGS_UNALLOC = 0, SC_REGS_ALLOC = 1, SC_REGS_PTX = 2 } sc_regs_t;

/* ---- protection: error-correcting codes on storage (DESIGN.md,
 * "Protection") ------------------------------------------------------- */

/* X(NAME, "name", k, r, distance, t): the linear block codes (ecc.h has
 * their construction): k data bits, r check bits, minimum distance,
 * corrects every error of weight <= t. */
#define SC_CODE_LIST(X)                    \
	X(NONE, "none", 0, 0, 0, 0)            \
	X(PARITY, "parity", 32, 1, 2, 0)       \
	X(HAMMING, "hamming", 32, 6, 3, 1)     \
	X(SECDED, "secded", 32, 7, 4, 1)       \
	X(SECDED64, "secded64", 64, 8, 4, 1)   \
	X(DECTED, "dected", 32, 13, 6, 2)

typedef enum {
#define X(name, text, k, r, dist, t) SC_CODE_##name,
	SC_CODE_LIST(X)
#undef X
	SC_CODE__COUNT
} sc_code_kind_t;

/* "none", "parity", "hamming", "secded", "secded64", "dected"; "?" for
 * anything else. Static strings. */
const char *sc_code_name(sc_code_kind_t k);
/* Parses one of those names into *out: 0, or SC_EINVAL for anything else
 * (NULL included). */
int sc_code_parse(const char *name, sc_code_kind_t *out);

/* X(NAME, "name"): the instruction buffer's protection schemes (DESIGN.md,
 * "SAWP"). Each entry's word carries a parity bit; what corrects a word
 * whose parity is wrong: nothing (parity: a DUE), a private ECC per entry
 * (ecc), or an ECC shared through a per-SM table of T entries that only
 * some entries are linked to (the SAWP variants: sawp T = 4 with an
 * eviction threshold and a progress check, sawp_min without either,
 * evicting the least-shared entry, sawp_fs T = 12). */
#define SC_IB_SCHEME_LIST(X) \
	X(NONE, "none")          \
	X(PARITY, "parity")      \
	X(ECC, "ecc")            \
	X(SAWP, "sawp")          \
	X(SAWP_MIN, "sawp_min")  \
	X(SAWP_FS, "sawp_fs")

typedef enum {
#define X(name, text) SC_IB_##name,
	SC_IB_SCHEME_LIST(X)
#undef X
	SC_IB__COUNT
} sc_ib_scheme_t;

/* "none", "parity", ...; "?" out of range. Static strings. */
const char *sc_ib_scheme_name(sc_ib_scheme_t s);
/* Parses those names into *out: 0, or SC_EINVAL (NULL included). */
int sc_ib_scheme_parse(const char *name, sc_ib_scheme_t *out);

#define SC_IB_TABLE_MAX 64

/* The instruction buffer's protection (the SAWP fields apply to the sawp
 * schemes); 0 = the default, sc_ib_params gives the values in force. */
typedef struct sc_ib_protection {
	sc_ib_scheme_t scheme;     /* none (default) ... sawp_fs */
	uint32_t table_entries;    /* T: 4, sawp_fs 12; at most SC_IB_TABLE_MAX */
	uint32_t threshold;        /* evictable while shared by at most this: 4 */
	uint32_t progress_window;  /* instructions off the SM's mean: 64 */
	uint32_t reissue_penalty;  /* cycles a corrected word costs: latency.branch */
} sc_ib_protection_t;

/* SHARP (DESIGN.md, "SHARP"; Tan et al., CF'13): while a warp waits on an
 * off-chip (DRAM) access, the SECDED (39,32) check bits of every register
 * of the warp are kept in idle shared-memory words and checked when the
 * access completes. 0 = the default. Needs regs alloc and no regfile or
 * smem code. */
#define SC_SHARP_MAX 1024 /* the largest request_queue and warp_table */

typedef struct sc_sharp_protection {
	bool on;
	uint32_t request_queue;  /* requests waiting for the SM's ECC server: 16 */
	uint32_t warp_table;     /* warps protected at once: 32 */
	sc_code_kind_t ecc;      /* none (the default) or secded */
} sc_sharp_protection_t;

/* Penny (DESIGN.md, "Penny (oracle)"; Penny, ASPLOS'20): the register
 * file (and the predicate file with include_pred) carries a detection-only
 * code, edc, instead of an ECC; a detected error rolls the warp back to the
 * start of its idempotent region, whose live-in registers a checkpoint
 * restores. Mode oracle models the checkpoints as clean snapshots taken at
 * each region boundary (no code is inserted: golden cycles are unchanged).
 * 0 = the default. Needs regs alloc, no regfile code (edc replaces it), no
 * pred code with include_pred, and no SHARP. */
typedef enum { SC_PENNY_ORACLE = 0, SC_PENNY_COMPILED = 1 } sc_penny_mode_t;
typedef enum { SC_PENNY_PRUNE_BASIC = 0, SC_PENNY_PRUNE_NONE = 1, SC_PENNY_PRUNE_OPTIMAL = 2 } sc_penny_prune_t;
/* Compiled mode's checkpoint storage: auto (the default, the paper's:
 * the costliest values in shared memory while the kernel's occupancy
 * allows, the rest in global memory), global, or shared (every one). */
typedef enum { SC_PENNY_STORE_AUTO = 0, SC_PENNY_STORE_GLOBAL = 1, SC_PENNY_STORE_SHARED = 2 } sc_penny_storage_t;

typedef struct sc_penny_protection {
	bool on;
	sc_code_kind_t edc;         /* parity, hamming or secded, used to detect only */
	sc_penny_mode_t mode;       /* oracle, or compiled (checkpoint stores inserted) */
	uint32_t recovery_penalty;  /* cycles a rollback costs besides its restores: 50 */
	bool include_pred;          /* the predicate file too (default: unprotected) */
	sc_penny_prune_t pruning;   /* compiled: basic (0, the default), none or optimal */
	sc_penny_storage_t storage; /* compiled: where checkpoints go: auto, global, shared */
	uint32_t block_size;        /* compiled, auto: threads per block assumed for the
	                               occupancy of a kernel without .reqntid/.maxntid
	                               (0: 256) */
} sc_penny_protection_t;
/* REFU (DESIGN.md, "REFU"; Redundant Execution with idle Functional
 * Units): every ALU instruction (its op's unit NUM, INT, FP or CMP; not
 * mov, memory, warp or control) enters a per-SM replay buffer after it
 * executes and is executed again on an idle unit of its kind, or ahead of
 * the primaries when the buffer is full; a replay whose result differs
 * from the stored one is DUE refu_mismatch. */
#define SC_REFU_MAX 4 /* the largest replay_buffer */

typedef struct sc_refu_protection {
	bool on;
	uint32_t replay_buffer;  /* entries B, 1..SC_REFU_MAX: 2 (0: the default) */
} sc_refu_protection_t;

/* The codes on the storage structures; zero = none anywhere. Every code
 * protects one word: a register of one lane (32 bits), a warp's predicate
 * (its 32 lanes' bits), a shared-memory granule (32 bits, or 64 with
 * secded64), k consecutive data bits of a cache line (l1d, l2, cc: the
 * line's data array; l1d_tag, l2_tag, cc_tag: a parity bit on each line's
 * tag; valid and dirty bits stay unprotected).
 * The check bits are fault-target bits: a protected word is its whole
 * codeword, data bits first (sc_target_bits_prot). interleave I (0 or 1:
 * none) spreads physically adjacent bits over I codewords: bit b of a
 * group of I consecutive codewords is bit b / I of codeword b % I, so an
 * adjacent fault of up to I bits hits each codeword once. */
/* Datapath duplication with checks (DESIGN.md, "Datapath duplication and
 * resilient instructions"; Dagostino et al.): a pass at module load
 * replicates the backward register slices of the protected operands into
 * replica registers and compares them. protect: SC_DUP_MEMORY (addresses
 * with a register base and store data), SC_DUP_SETP (the compared
 * registers of every setp whose predicate guards a bra), SC_DUP_ALL;
 * variant: SC_DUP_SW (plain compares into a sticky predicate, a notifying
 * trap before each protected store or setp and at each exit) or
 * SC_DUP_RA (resilient ld/st/setp words that compare in one instruction).
 * atomics: atom/red addresses and data are protected too (memory, all). */
enum { SC_DUP_MEMORY = 1, SC_DUP_SETP = 2, SC_DUP_ALL = 3 };
enum { SC_DUP_SW = 0, SC_DUP_RA = 1 };

typedef struct sc_dup_protection {
	uint8_t protect;  /* 0: off; SC_DUP_MEMORY, SC_DUP_SETP or SC_DUP_ALL */
	uint8_t variant;  /* SC_DUP_SW or SC_DUP_RA */
	bool atomics;
} sc_dup_protection_t;

/* "memory", "setp", "all" ("?" otherwise) and "sw", "ra"; the parsers:
 * 0 or SC_EINVAL. */
const char *sc_dup_protect_name(unsigned protect);
const char *sc_dup_variant_name(unsigned variant);
int sc_dup_protect_parse(const char *name, uint8_t *out);
int sc_dup_variant_parse(const char *name, uint8_t *out);

typedef struct sc_protection {
	sc_code_kind_t regfile;  /* none, parity, hamming, secded, dected */
	sc_code_kind_t pred;     /* none, parity, hamming, secded, dected */
	sc_code_kind_t smem;     /* none, parity, hamming, secded, secded64, dected */
	sc_code_kind_t l1d;      /* the caches' data: as smem */
	sc_code_kind_t l2;
	sc_code_kind_t cc;       /* the constant cache (target "const") */
	sc_code_kind_t l1d_tag;  /* the caches' tags: none or parity (a parity */
	sc_code_kind_t l2_tag;   /* bit per line's tag, checked at every lookup */
	sc_code_kind_t cc_tag;   /* of its set) */
	uint32_t interleave;     /* 0 or 1, 2, 4, 8 */
	sc_ib_protection_t ibuffer;
	sc_sharp_protection_t sharp;
	sc_penny_protection_t penny;
	sc_refu_protection_t refu;
	sc_dup_protection_t dup; /* datapath duplication (a transform at load) */
} sc_protection_t;

/* p->penny with its defaults filled in (NULL or off: all 0). */
sc_penny_protection_t sc_penny_params(const sc_protection_t *p);
/* "oracle", "compiled"; "?" out of range. */
const char *sc_penny_mode_name(sc_penny_mode_t m);
/* "basic", "none"; "global"; "?" out of range. */
const char *sc_penny_prune_name(sc_penny_prune_t x);
const char *sc_penny_storage_name(sc_penny_storage_t x);
/* "auto", "global", "shared": 0, else SC_EINVAL. */
int sc_penny_storage_parse(const char *s, sc_penny_storage_t *out);

/* p->sharp with its defaults filled in (NULL: off). */
sc_sharp_protection_t sc_sharp_params(const sc_protection_t *p);
/* p->refu with its defaults filled in (NULL: off). */
sc_refu_protection_t sc_refu_params(const sc_protection_t *p);

/* p->ibuffer with its defaults filled in for the GPU cfg (NULL: a
 * reissue_penalty of 0 stays 0). */
sc_ib_protection_t sc_ib_params(const sc_protection_t *p, const sc_gpu_config_t *cfg);

/* Whether p protects anything. */
bool sc_protection_on(const sc_protection_t *p);
/* Checks p against the GPU's sizes and the register mode: 0, or SC_EINVAL
 * with the reason in msg. */
int sc_protection_check(const sc_protection_t *p, const sc_gpu_config_t *cfg, sc_regs_t regs, char *msg, size_t n);

/* The first protection event of a run: what a read of a corrupted
 * protected word found (sc_ecc_outcome_t's cases, ecc.h). */
#define SC_PROT_LIST(X)                                                 \
	X(NONE, "none")                                                     \
	X(CORRECTED, "corrected")       /* the code corrected the error */  \
	X(MISCORRECTED, "miscorrected") /* it "corrected" the wrong bits */ \
	X(DETECTED, "detected")         /* it detected what it cannot fix */ \
	X(UNDETECTED, "undetected")     /* the error is a codeword: unseen */ \
	X(RECOVERED, "recovered")       /* rolled back or re-issued: an \
	                                   instruction-buffer word restored */ \
	X(UNCOVERED, "uncovered")       /* REFU: an FU fault on an instruction \
	                                   it does not replay (ld, mov, cvta) */

typedef enum {
#define X(name, text) SC_PROT_##name,
	SC_PROT_LIST(X)
#undef X
	SC_PROT__COUNT
} sc_prot_t;

/* "none", "corrected", ...; "?" out of range. */
const char *sc_prot_name(sc_prot_t e);
/* Parses those names: 0, or SC_EINVAL. */
int sc_prot_parse(const char *name, sc_prot_t *out);
/* The first protection event of the run on g (since its creation, over
 * all launches) and its GPU cycle (*cycle may be NULL); NONE when none. */
sc_prot_t sc_prot_first(const sc_gpu_t *g, uint64_t *cycle);

/* Zero-initialised options are the defaults: no budget, unalloc mode, no
 * protection. */
typedef struct sc_options {
	uint64_t cycle_budget;  /* 0 = unlimited; above it a launch ends as DUE timeout */
	sc_regs_t regs;         /* register mode of every module loaded into the GPU */
	sc_protection_t prot;   /* codes on the storage (checked by sc_gpu_create) */
	bool ib_similarity;     /* sample sc_launch_stats_t.ib_distinct (costs a
	                           scan of the SM's buffers per issuing cycle) */
} sc_options_t;

/* "ptx", "alloc" or "unalloc" (NULL for anything else). */
const char *sc_regs_name(sc_regs_t mode);
/* Parses "ptx", "alloc" or "unalloc"; returns 0, or SC_EINVAL for anything
 * else. */
int sc_regs_parse(const char *name, sc_regs_t *out);

/* Creates a GPU from a checked configuration; *out owned by the caller. */
int sc_gpu_create(const sc_gpu_config_t *cfg, const sc_options_t *opt, sc_gpu_t **out);
void sc_gpu_destroy(sc_gpu_t *gpu);

/* The last error message (file:line:col for PTX), "" when none. */
const char *sc_gpu_errmsg(const sc_gpu_t *gpu);

/* Parses, checks and lowers a PTX module. `name` is used in messages
 * (normally the file path). Module variables are allocated on the GPU.
 * The module is owned by the GPU. */
int sc_module_load_text(sc_gpu_t *gpu, const char *name, const char *text, sc_module_t **out);
int sc_module_load_file(sc_gpu_t *gpu, const char *path, sc_module_t **out);

/* Device memory. Addresses are 64-bit device addresses in the global space.
 * sc_memcpy_dtoh reads through the L2: under a code on the L2's data a
 * detected error in a line it reads fails it with SC_EDUE (the DUE is in
 * sc_gpu_status, and sticks as a launch's does). */
int sc_malloc(sc_gpu_t *gpu, uint64_t bytes, uint64_t *dptr);
int sc_free(sc_gpu_t *gpu, uint64_t dptr);
int sc_memcpy_htod(sc_gpu_t *gpu, uint64_t dst, const void *src, uint64_t bytes);
int sc_memcpy_dtoh(sc_gpu_t *gpu, void *dst, uint64_t src, uint64_t bytes);
int sc_memset(sc_gpu_t *gpu, uint64_t dst, int value, uint64_t bytes);
/* Writes [dst, dst + bytes) in place, without a staging buffer: calls
 * fill(ctx, host) once with `host` the range's bytes in the GPU's memory
 * (their old contents), and counts the range as written, as sc_memcpy_htod
 * does. Returns SC_EINVAL for a range not inside one allocation, otherwise
 * what fill returned (0 for success; a nonzero value is the caller's own). */
int sc_memfill(sc_gpu_t *gpu, uint64_t dst, uint64_t bytes, int (*fill)(void *ctx, void *host), void *ctx);

/* ---- textures and surfaces (tex.c; DESIGN.md, "Textures and surfaces") --
 * A texture or surface object is a handle (a nonzero 64-bit value, what a
 * kernel's cudaTextureObject_t / cudaSurfaceObject_t parameter holds) that
 * names a resource in global memory and, for a texture, how it is sampled.
 * The GPU owns the objects; a resource's memory stays the caller's, and
 * freeing it under a live object makes the kernel's next fetch a DUE. */
typedef enum { SC_CHAN_SIGNED, SC_CHAN_UNSIGNED, SC_CHAN_FLOAT } sc_chan_kind_t;
/* A texel: up to four channels x y z w of bits[i] bits each (0: absent;
 * 8, 16, 32; float: 16 or 32), all of one kind. */
typedef struct sc_chan_desc {
	uint8_t bits[4];
	sc_chan_kind_t kind;
} sc_chan_desc_t;
/* The bytes of one texel, or 0 when the description is not one the
 * simulator samples (channels present after an absent one, mixed widths,
 * a width other than 8, 16, 32, a float of 8, three channels). */
uint32_t sc_chan_bytes(const sc_chan_desc_t *ch);

/* An array (cudaArray): texels of one channel description, rows packed
 * (pitch width * texel bytes), height rows per slice, depth slices; a
 * layered array has depth layers of a 1-D (height 0) or 2-D array. height
 * and depth 0 mean 1-D and 2-D. */
#define SC_ARRAY_LAYERED 1u
typedef struct sc_array {
	uint64_t dptr;       /* sc_array_alloc's; the memory is an sc_malloc allocation */
	sc_chan_desc_t ch;
	uint32_t width, height, depth;
	uint32_t flags;      /* SC_ARRAY_* */
} sc_array_t;
/* Allocates a->dptr for the texels a describes: 0, SC_EINVAL (a bad channel
 * description or extent), SC_ENOMEM. sc_array_free frees it (0 or SC_EINVAL). */
int sc_array_alloc(sc_gpu_t *gpu, sc_array_t *a);
int sc_array_free(sc_gpu_t *gpu, sc_array_t *a);

typedef enum { SC_RES_LINEAR, SC_RES_PITCH2D, SC_RES_ARRAY } sc_res_kind_t;
typedef struct sc_resource {
	sc_res_kind_t kind;
	sc_array_t array;    /* ARRAY: the array (a copy: the array's fields) */
	uint64_t dptr;       /* LINEAR, PITCH2D: the texels' global address */
	sc_chan_desc_t ch;   /* LINEAR, PITCH2D */
	uint64_t bytes;      /* LINEAR: the size in bytes */
	uint32_t width, height; /* PITCH2D: texels per row, rows */
	uint64_t pitch;      /* PITCH2D: bytes from a row to the next */
} sc_resource_t;

/* Addressing, filtering and read modes, numbered as CUDA numbers them. */
typedef enum { SC_ADDR_WRAP, SC_ADDR_CLAMP, SC_ADDR_MIRROR, SC_ADDR_BORDER } sc_addr_mode_t;
typedef enum { SC_FILTER_POINT, SC_FILTER_LINEAR } sc_filter_t;
typedef enum { SC_READ_ELEMENT, SC_READ_NORMALIZED } sc_read_mode_t;
typedef struct sc_tex_desc {
	sc_addr_mode_t addr[3];
	sc_filter_t filter;
	sc_read_mode_t read;
	bool normalized;     /* coordinates in [0, 1) */
	float border[4];     /* the border color */
} sc_tex_desc_t;

/* Creates a texture object over r sampled as d: 0 and *handle, SC_EINVAL
 * with the reason in sc_gpu_errmsg (a resource outside every allocation, a
 * channel description sc_chan_bytes refuses, linear filtering or a
 * normalized read of 32-bit integers, as CUDA refuses them), SC_ENOMEM. */
int sc_texture_create(sc_gpu_t *gpu, const sc_resource_t *r, const sc_tex_desc_t *d, uint64_t *handle);
/* A surface object over an array (or pitched memory): as sc_texture_create. */
int sc_surface_create(sc_gpu_t *gpu, const sc_resource_t *r, uint64_t *handle);
/* Destroys an object: 0, or SC_EINVAL for a handle that names none (of
 * that kind). */
int sc_texture_destroy(sc_gpu_t *gpu, uint64_t handle);
int sc_surface_destroy(sc_gpu_t *gpu, uint64_t handle);
/* What an object was created with: 0, or SC_EINVAL for no such object (d
 * may be NULL; surfaces have no sampling description). */
int sc_texture_info(const sc_gpu_t *gpu, uint64_t handle, sc_resource_t *r, sc_tex_desc_t *d);

/* Launches `kernel` and simulates it to completion (launches are
 * synchronous). args[i] points to the value of the kernel's i-th parameter,
 * of the size the PTX declares (as cudaLaunchKernel). Returns 0, a host-side
 * error (SC_ENOTFOUND, SC_ELAUNCH, SC_EINVAL), or SC_EDUE when the simulated
 * program stopped abnormally: sc_gpu_status() says why, and every later
 * launch returns SC_ESTICKY, as a CUDA context stays broken. */
int sc_launch(sc_gpu_t *gpu, sc_module_t *mod, const char *kernel, sc_dim3_t grid,
              sc_dim3_t block, uint32_t dyn_smem, void *const *args);

/* Returns 0 when no launch has failed, SC_EDUE otherwise. */
int sc_synchronize(sc_gpu_t *gpu);

/* Device printf. Each launch's printf output is written when the launch
 * ends (CUDA flushes its FIFO at synchronisation), in a deterministic
 * order: by CTA (linear id), warp, printf executed, lane. Records past the
 * FIFO's size (cudaLimitPrintfFifoSize; default 1 MiB) are dropped, as
 * CUDA drops them. sc_set_printf_fifo sets the size in bytes (0:
 * SC_EINVAL) for later launches; sc_printf_fifo returns it.
 * sc_set_printf_stream sends the text to f instead of stdout (NULL: kept
 * only); sc_printf_output returns everything flushed since the GPU was
 * created (owned by the GPU, valid until its next launch; "" when none).
 * A failed device assert prints CUDA's message to stderr, or to the
 * stream sc_set_assert_stream names (NULL: none; the DUE's detail holds
 * it either way). */
int sc_set_printf_fifo(sc_gpu_t *gpu, uint64_t bytes);
uint64_t sc_printf_fifo(const sc_gpu_t *gpu);
void sc_set_printf_stream(sc_gpu_t *gpu, FILE *f);
void sc_set_assert_stream(sc_gpu_t *gpu, FILE *f);

/* Device malloc/free draw on a heap of cudaLimitMallocHeapSize bytes (8
 * MiB unless set), a global allocation made at the first launch of a
 * module that calls malloc and kept to the GPU's end. sc_set_heap_size
 * sets its size before then (SC_EINVAL once it exists, or for 0);
 * sc_heap_size returns it. */
int sc_set_heap_size(sc_gpu_t *gpu, uint64_t bytes);
uint64_t sc_heap_size(const sc_gpu_t *gpu);
/* The per-thread call stack that recursive and indirect calls save their
 * caller's registers and frame on (call.c): cudaLimitStackSize, 1 KiB
 * unless set; it is part of each thread's local memory in launches of
 * kernels that reach such calls. sc_set_stack_size sets it for later
 * launches (SC_EINVAL for 0 or more than SC_STACK_MAX); a full stack is
 * the DUE stack_overflow. */
#define SC_STACK_MAX (1u << 20)
int sc_set_stack_size(sc_gpu_t *gpu, uint64_t bytes);
uint64_t sc_stack_size(const sc_gpu_t *gpu);
const char *sc_printf_output(const sc_gpu_t *gpu, size_t *len);

/* The structured status of the last abnormal stop (reason NONE if none). */
const sc_status_t *sc_gpu_status(const sc_gpu_t *gpu);

/* Per-launch statistics. */
/* Functional-unit kinds of an SM: each scheduler has its own ALU group
 * (integer, fp32, conversions, moves, branches); the SFU, FP64 and
 * load/store units are shared by the SM's schedulers unless the
 * configuration's units_per_scheduler gives each its own. */
#define SC_FU_LIST(X) X(ALU, "alu") X(SFU, "sfu") X(DP, "fp64") X(LDST, "ldst")
typedef enum {
#define X(name, text) SC_FU_##name,
	SC_FU_LIST(X)
#undef X
	SC_FU__COUNT
} sc_fu_t;
const char *sc_fu_name(sc_fu_t fu);
/* The first cycle at or after which unit `fu` of scheduler `sched` of SM
 * `sm` is free (it is busy at every cycle before): 0 when out of range.
 * Schedulers sharing a unit see the same one. */
uint64_t sc_unit_free_cycle(const sc_gpu_t *gpu, uint32_t sm, sc_fu_t fu, uint32_t sched);

#define SC_IB_SIM_BINS 65

/* SHARP's statistics of a launch, summed over the SMs (DESIGN.md,
 * "SHARP"). A window is a warp's wait on off-chip memory. */
#define SC_SHARP_STATS_LIST(X)                                                            \
	X(windows)           /* windows opened (first off-chip access of a burst) */          \
	X(dropped)           /* of them, recordings dropped (queue or table full, a conflict) */ \
	X(checks)            /* checks run at a window's close */                             \
	X(check_cycles)      /* cycles the checks held their warps back */                    \
	X(warp_cycles)       /* resident warp-cycles (CTA lifetimes x warps) */               \
	X(window_cycles)     /* of them, inside recorded windows (ECCs stored) */             \
	X(reg_cycles)        /* resident register-lane cycles */                              \
	X(prot_reg_cycles)   /* of them, whose ECC was stored */                              \
	X(smem_words)        /* 32-bit shared-memory words (x SMs) */                         \
	X(smem_written)      /* of them, written by the program at least once */              \
	X(smem_valid_cycles) /* sum over cycles of the words holding program data */

typedef struct sc_sharp_stats {
#define X(f) uint64_t f;
	SC_SHARP_STATS_LIST(X)
#undef X
} sc_sharp_stats_t;

/* The shares SHARP's statistics of a launch of `cycles` cycles give (0
 * where a count is 0): warp-cycles in recorded windows, register-lane
 * cycles whose check bits were stored, shared-memory words ever written,
 * and words holding program data over time. */
typedef struct sc_sharp_shares {
	double window, regs, smem_written, smem_time;
} sc_sharp_shares_t;
sc_sharp_shares_t sc_sharp_shares(const sc_sharp_stats_t *st, uint64_t cycles);

/* REFU's statistics of a launch, summed over the SMs (DESIGN.md, "REFU"). */
#define SC_REFU_STATS_LIST(X)                                                                \
	X(buffered)     /* instructions put into the replay buffer */                           \
	X(replays)      /* of them, replayed (the rest: lost to a DUE that ended the run) */    \
	X(forced)       /* of the replays, forced by a full buffer ahead of any primary */      \
	X(busy_cycles)  /* cycles the replays occupied (SFU, FP64: also in unit_busy) */         \
	X(stall_cycles) /* warp-cycles covered instructions waited for a full buffer to drain */ \
	X(sub_wait_cycles) /* warp-cycles ALU instructions waited for a replay on their sub-unit */

typedef struct sc_refu_stats {
#define X(f) uint64_t f;
	SC_REFU_STATS_LIST(X)
#undef X
} sc_refu_stats_t;

typedef struct sc_launch_stats {
	char kernel[64];
	sc_dim3_t grid, block;
	uint32_t regs_per_thread;   /* 32-bit registers per thread */
	uint32_t preds_per_thread;
	uint32_t smem_per_cta;      /* static + dynamic bytes */
	uint32_t local_per_thread;  /* bytes */
	/* registers the allocation spilled to local memory (the kernel and
	 * what it calls), bytes of their slots, and the spill stores and
	 * loads in the code (static counts, as ptxas -v); all 0 without */
	uint32_t spill_regs, spill_bytes, spill_stores, spill_loads;
	uint32_t ctas_per_sm;       /* occupancy limit */
	const char *limiter;        /* "threads", "ctas", "warps", "registers", "shared" */
	double occupancy;           /* resident warps / max warps per SM at the limit */
	uint64_t start_cycle, end_cycle, cycles;
	uint64_t warp_insts, thread_insts;
	/* the memory system (memsys.c): L1 lines that hit and missed, L2
	 * sectors that hit, sectors read from DRAM and written back to it,
	 * and the lines of the constant and texture caches that hit and
	 * missed (one per distinct constant address, one per texture line) */
	uint64_t l1_hits, l1_misses, l2_hits, dram_reads, dram_writebacks;
	uint64_t const_hits, const_misses, tex_hits, tex_misses;
	/* cycles the functional units of each kind (sc_fu_t) were busy,
	 * summed over the units and SMs */
	uint64_t unit_busy[SC_FU__COUNT];
	/* with sc_options_t.ib_similarity (else all 0): at every cycle an SM
	 * issues, the number d of distinct words its warps' valid
	 * instruction-buffer entries hold; ib_distinct[d] counts those samples,
	 * the last bin those with SC_IB_SIM_BINS - 1 or more (SAWP's Fig. 3:
	 * a table of T entries covers the samples with d <= T) */
	uint64_t ib_distinct[SC_IB_SIM_BINS];
	sc_sharp_stats_t sharp;     /* SHARP's (all 0 unless it is on) */
	sc_refu_stats_t refu;       /* REFU's (all 0 unless it is on) */
} sc_launch_stats_t;

/* Totals over all launches so far. */
typedef struct sc_gpu_stats {
	uint64_t cycles;            /* GPU cycles spent in kernels */
	uint64_t warp_insts, thread_insts;
	uint32_t launches;
} sc_gpu_stats_t;

void sc_gpu_stats(const sc_gpu_t *gpu, sc_gpu_stats_t *out);
/* Number of launches recorded and the i-th one's statistics (NULL if out of range). */
uint32_t sc_launch_count(const sc_gpu_t *gpu);
const sc_launch_stats_t *sc_launch_stats(const sc_gpu_t *gpu, uint32_t i);

/* Registers per thread of a kernel in ptx mode and in the mode its module
 * was loaded in (equal in ptx mode), over everything the kernel can call. */
typedef struct sc_kernel_regs {
	sc_regs_t mode;
	uint32_t regs_ptx, preds_ptx;   /* ptx mode: one slot per virtual register */
	uint32_t regs, preds;           /* the module's mode: what launches use */
	/* alloc mode: registers spilled to local memory to fit the GPU's
	 * max_regs_per_thread (the kernel and what it calls), bytes of their
	 * slots, spill stores and loads in the code (static); 0 without */
	uint32_t spill_regs, spill_bytes, spill_stores, spill_loads;
} sc_kernel_regs_t;

/* Fills *out for `kernel`; returns 0 or SC_ENOTFOUND. */
int sc_kernel_regs(const sc_module_t *mod, const char *kernel, sc_kernel_regs_t *out);
/* Name of the i-th kernel (.entry) of the module in file order, or NULL
 * past the last; owned by the module. */
const char *sc_kernel_name(const sc_module_t *mod, uint32_t i);

/* Kernel parameter layout, for hosts that build argument lists (workloads). */
int sc_kernel_params(const sc_module_t *mod, const char *kernel, uint32_t *nparams,
                     const uint32_t **sizes);
/* Parameter i of `kernel` as the PTX declares it: its name, the PTX type of
 * one element without the dot ("u32", "f32", "b8"...), the element count (N
 * of an array `NAME[N]`, else 1) and its size in bytes. The strings belong
 * to the module. Returns 0, SC_ENOTFOUND (no such kernel) or SC_EINVAL (i
 * past the last parameter). */
typedef struct sc_param_info {
	const char *name;
	const char *type;
	uint32_t count, size;
} sc_param_info_t;
int sc_kernel_param(const sc_module_t *mod, const char *kernel, uint32_t i, sc_param_info_t *out);

/* The instruction at pc as PTX-like text (registers by slot: %r<N>,
 * %rd<N>, %p<N>; branch targets as pcs) into buf, truncated to n bytes.
 * Returns the length of the whole text, or SC_EINVAL past the code. */
int sc_disasm_pc(const sc_module_t *mod, uint32_t pc, char *buf, size_t n);
/* Every function of the module: each instruction's pc, source line and
 * text. Returns 0, or SC_EIO when writing failed. */
int sc_module_disasm(const sc_module_t *mod, FILE *out);
/* The module's code as PTX that sc_module_load_* reads back and runs the
 * same (DESIGN.md, "Passes over the lowered code": what it cannot say):
 * module variables, every function with its parameters, registers,
 * variables, labels and instructions, after any pass. Returns 0, SC_EIO
 * when writing failed, SC_ENOMEM. */
int sc_module_emit_ptx(const sc_module_t *mod, FILE *out);

/* ---- fault injection (DESIGN.md "Principles"; layouts in fault.c) -------
 * A target is a bit space per SM. Bit `loc` of target t in SM s names one
 * physical bit; fields restrict SIMT, IB and cache targets to parts of an
 * entry. The L2 is shared: its whole bit space is SM 0's, and the other
 * SMs hold none of it (sc_target_sms). Every function here acts on the
 * state at the current pause point. */
#define SC_TARGET_LIST(X)                                                 \
	X(REGFILE, "regfile") X(PRED, "pred") X(SMEM, "smem") X(SIMT, "simt") \
	X(IBUFFER, "ibuffer") X(FU, "fu") X(L1D, "l1d") X(L2, "l2")           \
	X(CONST, "const") X(TEXCACHE, "texcache")

typedef enum {
#define X(name, text) SC_TGT_##name,
	SC_TARGET_LIST(X)
#undef X
	SC_TGT__COUNT
} sc_target_t;

/* Fields (0 = all of them). */
#define SC_F_SIMT_PC 1u
#define SC_F_SIMT_RPC 2u
#define SC_F_SIMT_MASK 4u
#define SC_F_IB_VALID 1u
#define SC_F_IB_INSTR 2u
#define SC_F_CACHE_DATA 1u    /* l1d, l2, const, texcache: the line's bytes */
#define SC_F_CACHE_TAG 2u     /* l1d, l2, const, texcache: its address tag */
#define SC_F_CACHE_VALID 4u   /* l1d: one bit per line; l2: one per sector */
#define SC_F_CACHE_DIRTY 8u   /* l2: one bit per sector (L1 and the constant
                                 and texture caches hold no dirty data) */
/* Cache tags name the address bits above the set index and the line offset
 * of a physical address this wide (l2: and above the slice's share). */
#define SC_CACHE_ADDR_BITS 40u

const char *sc_target_name(sc_target_t t);
/* Bits per SM of target t restricted to `fields`; *word_bits gets the width
 * of one word (adjacent multi-bit faults stay inside a word). 0 if invalid. */
uint64_t sc_target_bits(const sc_gpu_config_t *cfg, sc_target_t t, unsigned fields, uint32_t *word_bits);
/* The same under protection p (NULL: none): a protected structure's words
 * are its codewords (check bits included), *word_bits the bits of an
 * interleaving group (adjacent faults stay inside it). */
uint64_t sc_target_bits_prot(const sc_gpu_config_t *cfg, const sc_protection_t *p, sc_target_t t, unsigned fields,
                             uint32_t *word_bits);
/* How many SMs hold target t's bit space: num_sms, or 1 for the L2 (SM 0
 * holds all of it). A structure's bits over the GPU are this times
 * sc_target_bits, and faults are drawn on SMs 0 .. this - 1. */
uint32_t sc_target_sms(const sc_gpu_config_t *cfg, sc_target_t t);

/* Flips nbits consecutive bits from bit `loc` of target t in SM `sm` now.
 * Returns 1 when the location is in use (allocated to a resident CTA, a
 * live SIMT entry, a live warp's buffer entry, a valid cache line or
 * sector) and was flipped, 0 when it is not in use (nothing changes: the
 * fault is masked by construction), and SC_EINVAL for arguments outside
 * the space (for the L2: an SM other than 0). For SC_TGT_FU the fault is
 * armed for the current cycle: it corrupts bit (loc % 64) of lane (loc / 64)
 * of the result of an instruction that issues on `sm` in this cycle, and
 * sc_fu_applied() says afterwards whether one did. */
int sc_inject(sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits);
/* Fault models beyond the bit flip (README "Campaign JSON", DESIGN.md
 * "Fault models"). A fault of kind m at `loc` (nbits bits from it, inside
 * one word of sc_target_bits' word_bits):
 *   FLIP   the bits flip (sc_inject);
 *   VALUE  the bits of `pattern` among them flip: the word takes a random
 *          value when pattern is uniform (the mask draws it);
 *   ZERO   the bits are cleared (XOR with their value now);
 *   STUCK  bit loc (nbits 1) holds `value` from now to the end of the run
 *          (period 0), or during the first `duration` cycles of every
 *          `period` from now (intermittent; outside them the stored value
 *          is left as it is). Storage (regfile, pred, smem): the bit is
 *          forced now, after every instruction the SM issues, after a CTA
 *          starts and at each window's start, so every read sees it; FU:
 *          bit (loc % 64) of every result of lane loc / 64 on the SM.
 * words K > 1 (FLIP, VALUE, ZERO): a multi-cell upset, the same bits of K
 * words `interleave` words apart (the FU: lanes), words past the space's
 * end left out. */
typedef enum { SC_FM_FLIP = 0, SC_FM_VALUE, SC_FM_ZERO, SC_FM_STUCK } sc_fm_kind_t;
typedef struct sc_fmodel {
	sc_fm_kind_t kind;
	uint32_t value;      /* STUCK: 0 or 1 */
	uint64_t period;     /* STUCK: 0 (permanent), or the intermittent's period */
	uint64_t duration;   /* STUCK intermittent: active cycles per period, 1..period */
	uint32_t words;      /* 0 or 1: one word; K: K words */
	uint32_t interleave; /* words between two hit words, >= 1 when words > 1 */
} sc_fmodel_t;
/* Injects fault model m (NULL: FLIP) now. Returns 1 when some word hit was
 * in use and changed or, for STUCK, once the fault is armed (whether the
 * bit is in use then or later); 0 when no word was in use; SC_EINVAL for
 * arguments outside the space, a model the target does not support (STUCK
 * beyond regfile, pred, smem and fu; ZERO on caches) or a second STUCK. */
int sc_inject_model(sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits,
                    const sc_fmodel_t *m, uint64_t pattern);
/* An intermittent storage fault's windows, at a pause at `cycle`: forces
 * the bit when a window is open (one opening now included: a read in this
 * cycle must see it) and returns the next window's first cycle, UINT64_MAX
 * when no such fault is armed. Whoever pauses the run (the injection
 * runtime) pauses at each. */
uint64_t sc_stuck_pause(sc_gpu_t *gpu, uint64_t cycle);
/* 1 when target t supports model kind k (sc_inject_model), else 0. */
int sc_model_supported(sc_target_t t, sc_fm_kind_t k);
/* Keeps a DRAM image beside memory from now on (on; off drops it): the
 * DRAM's own bytes of every global L2 sector written since it was last
 * written back, so that an l2 tag, valid or dirty fault that loses a dirty
 * sector gives memory its older DRAM bytes back (docs/DESIGN.md, "Caches
 * as fault targets"). Costs a copy per sector a store makes dirty; the
 * injection runtime turns it on for l2 campaigns. Call before the launches
 * whose stores it must see. 0, or SC_ENOMEM. */
int sc_dram_image(sc_gpu_t *gpu, int on);
/* Live sampling: maps a uniform 64-bit draw onto the bits of t in use in
 * SM `sm` now and flips nbits there (whole word-aligned groups). Returns 1,
 * or 0 when nothing is in use. */
int sc_inject_live(sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t draw, uint32_t nbits);
/* Live sampling: the bit of t that sc_inject_live's draw lands on now, in
 * *loc; 1, or 0 when nothing is in use (then *loc is not set). */
int sc_live_loc(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t draw, uint32_t nbits,
                uint64_t *loc);
/* The fault site of nbits bits from `loc` of t in SM `sm` as it is now, as
 * one compact JSON object in buf (no blank inside it; README, "Fault
 * sites and effects", lists the keys): the kernel, its invocation and SM;
 * whether the location is in use; by structure the CTA, warp, lane,
 * register and the PTX virtual register it holds (alloc mode: the one live
 * there, null for none), predicate, shared byte and variable, SIMT entry
 * and field, buffer entry, field and instruction, cache set, way, field
 * and address; FU: lane and bit, and once the cycle has run (sc_fu_applied)
 * the instruction. Then the bit and the word holding it before and after
 * the flip. Call before sc_inject. Returns the length, or -1 (buf too
 * small even for a truncated object, or bad arguments). */
int sc_site_json(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits,
                 char *buf, size_t n);
/* The same for a fault of model m (NULL: a flip) with its VALUE pattern:
 * "after" is the word as the model leaves it (the first word of an MCU). */
int sc_site_json_model(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits,
                       const sc_fmodel_t *m, uint64_t pattern, char *buf, size_t n);
/* Follows the location from now on (regfile, pred, smem; an FU fault's
 * result once applied): the first instruction that reads a corrupted copy,
 * or that overwrites them all first. What it sees is kept up to date in
 * out (n bytes, which must outlive the run) as one compact JSON object:
 * {"first":"read"|"overwritten","cycle","pc","ptx_line","op","insn"},
 * {"first":"cleared","cycle"} (a new CTA took the location's slot), or
 * {"followed":true} while neither has happened, {"followed":false} for a
 * location it does not follow. Call before sc_inject. */
void sc_watch(sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits, char *out,
              size_t n);
/* 1 when sc_inject would flip (every bit of the range is in use), 0 when
 * not, SC_EINVAL outside the space; changes nothing. FU: always 1 (whether
 * a result issues in the cycle is only known by simulating it). */
int sc_target_in_use(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits);
/* 1 when the value at the location can never be read again: regfile and
 * pred only, a location in use (sc_target_in_use) holding a register no
 * thread of its warp reads before writing it, by the liveness of the
 * kernel's code from every pc the thread can resume at (its SIMT stack
 * entries). A fault there is masked, exactly, without simulating. 0 when
 * it may be read, or when that cannot be decided cheaply (the kernel calls
 * functions or shuffles registers between lanes; other targets). */
int sc_target_dead(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits);
/* Bits of t in use in SM `sm` now (for live-sampling derating). */
uint64_t sc_target_live_bits(const sc_gpu_t *gpu, sc_target_t t, unsigned fields, uint32_t sm);
/* 1 when an armed FU fault found a result to corrupt, 0 when it did not. */
int sc_fu_applied(const sc_gpu_t *gpu);

/* Pause points: `fn` is called once the simulation reaches cycle `at` (before
 * any event at or after it is processed; idle cycles may be skipped over,
 * which does not change the state) with the cycle; it returns the next
 * cycle to pause at, or UINT64_MAX for none. The runner forks here. */
typedef uint64_t (*sc_pause_fn)(sc_gpu_t *gpu, void *ctx, uint64_t cycle);
void sc_set_pause(sc_gpu_t *gpu, uint64_t at, sc_pause_fn fn, void *ctx);
void sc_set_cycle_budget(sc_gpu_t *gpu, uint64_t budget);
uint64_t sc_gpu_cycle(const sc_gpu_t *gpu);

/* A 64-bit hash of the whole state that can influence the rest of the run:
 * the clock, the launch in progress, every resident CTA's registers,
 * predicates, shared and local memory, warp state (SIMT stack, call stack,
 * valid instruction-buffer words, scoreboard relative to now), scheduler
 * state, the caches (tags, sectors, pending fills, and the lines a cache
 * fault corrupted), and all of global memory. Equal hashes at the same pause point of
 * two runs of the same workload mean equal futures (up to a 2^-64 chance). */
uint64_t sc_state_hash(const sc_gpu_t *gpu);
/* The same state in parts, to compare piece by piece and stop at the first
 * difference: part 0 the clock and launch, 1..num_sms each SM, the last
 * global memory. sc_state_hash combines them. */
uint32_t sc_state_parts(const sc_gpu_t *gpu);
uint64_t sc_state_hash_part(const sc_gpu_t *gpu, uint32_t part);

/* ---- the injection runtime (rt.c) ---------------------------------------
 * Fault-injection experiments inside the process that simulates. One
 * process replays the golden execution once; at each experiment's first
 * activation cycle it fork()s: the child injects, runs on and reports how
 * it ended, the parent waits and replays on (DESIGN.md "Principles": the
 * golden prefix is never simulated twice). The program that drives the GPU
 * may be flipsim's JSON workload runner or any host program linked with
 * libsimcore: started by flipsim with FLIPSIM_RT naming a job file, such a
 * program joins the runtime by itself in sc_gpu_create (job file and result
 * channel formats: rt.c). One GPU per process takes part: the first one
 * created. Ownership: plans, checkpoints and experiments are the caller's;
 * the runtime borrows them until the run ends. */
#define SC_RT_MAX_FAULTS 8
#define SC_RT_MAX_CKPT 1024
#define SC_RT_ENV "FLIPSIM_RT"  /* environment variable naming a job file */
#define SC_RT_FD 3              /* a host program's result channel */

typedef struct sc_rt_fault {
	uint64_t cycle;   /* activation cycle */
	uint32_t sm;
	uint32_t nbits;   /* consecutive bits from loc */
	uint64_t loc;     /* bit in the target's space, or a live-sampling draw */
	uint64_t pattern; /* SC_FM_VALUE: the bits of the word to flip; else 0 */
} sc_rt_fault_t;

typedef struct sc_rt_exp {
	uint64_t idx;     /* the caller's name for it */
	uint32_t nfaults;
	sc_rt_fault_t f[SC_RT_MAX_FAULTS]; /* sorted by cycle */
} sc_rt_exp_t;

/* Golden state hashes (sc_state_hash_part) every `interval` cycles; with
 * `lines`, global memory also line by line (lines of 256 bytes of each
 * allocation) and, for each line, the last cycle the run touched it. */
typedef struct sc_rt_ckpts {
	uint64_t interval;           /* 0: none recorded */
	int lines;                   /* ask for lines (set before sc_rt_record); cleared
	                                when they cannot be had (allocations changed) */
	uint32_t n, nparts;
	uint64_t cycle[SC_RT_MAX_CKPT];
	uint64_t *part;              /* n × nparts hashes, checkpoint after checkpoint */
	uint32_t nlines;
	uint64_t *line;              /* n × nlines line hashes */
	uint64_t *touch;             /* per line: last cycle a global access touched it, + 1 (0: never) */
	uint64_t *line_addr;         /* per line: its device address */
	uint32_t *line_len;          /* per line: its bytes */
	uint64_t layout;             /* internal: the allocations the lines were cut from */
} sc_rt_ckpts_t;

/* Starts recording checkpoints of gpu into ck (ck->interval and ck->lines
 * set, the rest zero) at every multiple of ck->interval; uses the GPU's
 * pause point. sc_rt_record_end, once the run is over and before the GPU
 * goes, completes the lines (the trace of touches). */
void sc_rt_record(sc_gpu_t *gpu, sc_rt_ckpts_t *ck);
void sc_rt_record_end(sc_gpu_t *gpu, sc_rt_ckpts_t *ck);
void sc_rt_ckpts_free(sc_rt_ckpts_t *ck);

typedef struct sc_rt_plan {
	sc_target_t target;
	unsigned fields;
	int live;                    /* live sampling: loc is a draw (sc_inject_live) */
	uint64_t cycle_budget;       /* per experiment: beyond it DUE timeout (0: none) */
	unsigned watchdog_s;         /* per experiment wall clock: SIGALRM (0: none) */
	int no_early;                /* never stop at a checkpoint */
	int no_dead;                 /* simulate faults in dead values too (sc_target_dead) */
	int no_attr;                 /* no sites nor effects in the results (sc_site_json, sc_watch) */
	int regs_original;           /* regfile, live sampling, protection dup: only the words of
	                                original (not replica) registers are in use (fault.c) */
	sc_fmodel_t model;           /* every fault's model (zero: FLIP); STUCK turns early
	                                termination and the unused and dead shortcuts off */
	const sc_rt_ckpts_t *ck;     /* golden checkpoints; NULL or empty: no early stop */
	const sc_rt_exp_t *exp;      /* sorted by first cycle */
	uint64_t nexp;
} sc_rt_plan_t;

typedef enum {
	SC_RT_UNUSED,     /* single fault in a location not in use: not simulated */
	SC_RT_DEAD,       /* single fault in a value never read again: not simulated */
	SC_RT_EARLY,      /* stopped at a checkpoint: its state re-joined the golden
	                     run, or (verdict >= 0) its outcome was known there */
	SC_RT_ENDED,      /* the program ran to its end (due: the GPU's status) */
	SC_RT_BAD_MASK,   /* a fault outside the target's space */
	SC_RT_NO_REPORT   /* the child ended without reporting (see wstatus) */
} sc_rt_kind_t;

/* An experiment's result, the record that crosses process boundaries:
 * the child's report to its runner (binary, sc_rt_wait checks it) and, on
 * the LINE fields in this order, the X line a host program writes to
 * flipsim (sc_rt_result_format, sc_rt_result_parse). The struct, the line's
 * writer and reader and the report's checks are generated from this list.
 *   X(field, kind, LINE: on the X line, comment)
 * kinds: U64, INT, KIND (sc_rt_kind_t), DUE (sc_due_t), PROT (sc_prot_t), WALL (seconds,
 * "%.6f" on the line), TEXT (96 bytes, NUL-terminated), JSON (an object
 * without blanks, SC_RT_JSON bytes with the NUL; "-" on the line when
 * empty). */
#define SC_RT_RESULT_LIST(X)                                                                 \
	X(idx, U64, 1, "the caller's name for the experiment")                                  \
	X(kind, KIND, 1, "how it ended")                                                        \
	X(due, DUE, 1, "ENDED: the simulator's stop reason (NONE if healthy)")                   \
	X(cycles, U64, 1, "cycles simulated from the first fault")                              \
	X(has_live, INT, 1, "live sampling: bits of the target in use in")                      \
	X(live, U64, 1, "the first fault's SM at its cycle")                                    \
	X(wstatus, INT, 1, "the child's wait status; -1 when no child ran")                     \
	X(wall, WALL, 1, "host seconds")                                                        \
	X(site, JSON, 1, "the first fault's site (sc_site_json), \"\" when none")             \
	X(effect, JSON, 1, "what the fault met first (sc_watch), \"\" when none")             \
	X(prot, PROT, 1, "the first protection event (sc_prot_first), NONE when none")          \
	X(prot_cycle, U64, 1, "its cycle")                                                     \
	X(verdict, INT, 0, "the child's own verdict (sc_rt_child_exit), or -1")                  \
	X(reason, TEXT, 0, "with verdict")                                                       \
	X(note, JSON, 0, "with verdict: the child's details (sc_rt_child_note)")

#define SC_RT_DECL_U64(f) uint64_t f
#define SC_RT_DECL_INT(f) int f
#define SC_RT_DECL_KIND(f) sc_rt_kind_t f
#define SC_RT_DECL_DUE(f) sc_due_t f
#define SC_RT_DECL_PROT(f) sc_prot_t f
#define SC_RT_DECL_WALL(f) double f
#define SC_RT_DECL_TEXT(f) char f[96]
#define SC_RT_JSON 1024 /* bytes of a JSON field, NUL included */
#define SC_RT_DECL_JSON(f) char f[SC_RT_JSON]

typedef struct sc_rt_result {
#define X(field, kind, line, what) SC_RT_DECL_##kind(field);
	SC_RT_RESULT_LIST(X)
#undef X
} sc_rt_result_t;

/* The LINE fields of r, space-separated, into buf (no newline). */
void sc_rt_result_format(const sc_rt_result_t *r, char *buf, size_t n);
/* Reads what sc_rt_result_format wrote (trailing spaces and a newline
 * allowed) into *r, the other fields cleared (verdict -1). Returns 0, or
 * SC_EINVAL for a missing, extra or out-of-range field. */
int sc_rt_result_parse(const char *line, sc_rt_result_t *r);

typedef struct sc_rt_hooks {
	/* in a new child, before its first fault (e.g. redirect its output) */
	void (*child_start)(void *ctx, const sc_rt_exp_t *e);
	/* in the parent: one experiment finished, in no particular order */
	void (*done)(void *ctx, const sc_rt_exp_t *e, const sc_rt_result_t *r);
	/* in a child, optional (needs checkpoints with lines): at a checkpoint
	 * the state equals the golden one except in n lines of global memory
	 * (device addresses and lengths) that the golden run never touches
	 * again, so they keep their present contents to the end while the rest
	 * of the run is golden. The hook may end the child with its verdict
	 * (sc_rt_child_exit_early) or return to simulate on. */
	void (*mem_final)(void *ctx, sc_gpu_t *gpu, const uint64_t *addr, const uint32_t *len, uint32_t n);
	void *ctx;
} sc_rt_hooks_t;

/* Fork mode: from now on gpu forks one child per experiment of p at its
 * first activation cycle. In the parent the program runs on as golden; in
 * a child it runs on faulty, until it calls sc_rt_child_exit or exits
 * (then the GPU's status is reported). Returns 0 or SC_EINVAL. */
int sc_rt_attach(sc_gpu_t *gpu, const sc_rt_plan_t *p, const sc_rt_hooks_t *h);
/* Fork mode, once the program's run on gpu is over in the parent: the
 * experiments it never reached (activation after the last event) are done
 * as UNUSED. */
void sc_rt_finish(sc_gpu_t *gpu);
/* No-fork mode: this process becomes experiment e on a fresh gpu (faults
 * injected when the run reaches them), reporting on report_fd; h (may be
 * NULL) as for sc_rt_attach, of which only mem_final is used. */
int sc_rt_become(sc_gpu_t *gpu, const sc_rt_plan_t *p, const sc_rt_hooks_t *h, const sc_rt_exp_t *e,
                 int report_fd);
/* No-fork mode, in the parent: waits for child pid and reads its report
 * from rfd (closed); fills *r for e. */
void sc_rt_wait(int pid, int rfd, const sc_rt_exp_t *e, double t0, sc_rt_result_t *r);
/* In an experiment child: the experiment gpu runs; NULL elsewhere. */
const sc_rt_exp_t *sc_rt_current(const sc_gpu_t *gpu);
/* Ends an experiment child: reports kind ENDED with gpu's status and
 * cycles, and the child's verdict when verdict >= 0. */
_Noreturn void sc_rt_child_exit(const sc_gpu_t *gpu, int verdict, const char *reason);
/* In an experiment child, before sc_rt_child_exit*: details of its verdict
 * that travel with the report (note), as one JSON object without blanks
 * (e.g. an SDC's severity); cut to nothing when too long. */
void sc_rt_child_note(const sc_gpu_t *gpu, const char *json);
/* The same, reporting kind EARLY: the verdict was found without running to
 * the end (from mem_final). */
_Noreturn void sc_rt_child_exit_early(const sc_gpu_t *gpu, int verdict, const char *reason);

/* Job files (what flipsim hands a host program through FLIPSIM_RT). */
typedef enum { SC_RT_GOLDEN = 1, SC_RT_INJECT = 2 } sc_rt_mode_t;
typedef struct sc_rt_job {
	sc_rt_mode_t mode;
	sc_gpu_config_t cfg;         /* replace the configuration and register mode */
	sc_regs_t regs;              /* the program asks for                      */
	sc_protection_t prot;        /* replaces the program's protection too */
	uint64_t ck_interval;        /* golden: checkpoint spacing (0: none) */
	uint64_t cycle_budget;       /* golden: beyond it the run ends as DUE timeout (0: none) */
	bool ib_similarity;          /* golden: sample each launch's ib_distinct (S lines) */
	sc_rt_plan_t plan;           /* inject */
	const char *stdout_path;     /* inject: the program's stdout and stderr files */
	const char *stderr_path;
	const char *out_dir;         /* inject: a child writes IDX.out and IDX.err here:
	                                SC_RT_HEADER bytes, "%020llu\n" the length of the
	                                parent's file when it forked (the output's start,
	                                shared with the parent), then what it printed after */
} sc_rt_job_t;
#define SC_RT_HEADER 21
/* Writes job j to path. Returns 0 or SC_EIO. */
int sc_rt_job_write(const char *path, const sc_rt_job_t *j);

/* ---- module variables and kernel facts for a CUDA runtime (modvar.c) ---- */

/* A module-scope variable: .global ones live in device memory at addr,
 * .const ones in the module's constant bank at offset addr. */
typedef enum { SC_VAR_GLOBAL = 0, SC_VAR_CONST = 1 } sc_var_space_t;
typedef struct sc_var_info {
	sc_var_space_t space;
	uint64_t addr;
	uint64_t size;
} sc_var_info_t;
/* Fills *out for the module-scope .global or .const variable `name`;
 * returns 0 or SC_ENOTFOUND. */
int sc_module_var(const sc_module_t *mod, const char *name, sc_var_info_t *out);
/* Copies n bytes between buf and the module's constant bank at offset off
 * (write: into the bank). Host side, between launches, as
 * cudaMemcpyToSymbol; each launch starts with empty constant caches, so
 * the next launch reads the new bytes. 0, or SC_EINVAL outside the bank. */
int sc_module_const_copy(sc_module_t *mod, uint64_t off, void *buf, uint64_t n, bool write);

/* What cudaFuncGetAttributes reports of a kernel, in the module's register
 * mode on gpu's configuration. */
typedef struct sc_kernel_info {
	uint32_t regs;            /* 32-bit registers per thread */
	uint32_t smem_static;     /* bytes of static shared memory */
	uint32_t local_bytes;     /* local memory per thread */
	uint32_t const_bytes;     /* the module's constant bank */
	uint32_t param_bytes;
	uint32_t max_threads;     /* threads per block a launch may have */
} sc_kernel_info_t;
/* Returns 0 or SC_ENOTFOUND. */
int sc_kernel_info(const sc_gpu_t *gpu, const sc_module_t *mod, const char *kernel, sc_kernel_info_t *out);
/* CTAs of `threads` threads and dyn_smem dynamic shared bytes of `kernel`
 * that one SM holds at once (0 when not even one fits) into *ctas; 0 or
 * SC_ENOTFOUND. */
int sc_kernel_occupancy(const sc_gpu_t *gpu, const sc_module_t *mod, const char *kernel, uint32_t threads,
                        uint32_t dyn_smem, uint32_t *ctas);
/* Whether [addr, addr + bytes) lies inside one allocation of global
 * memory (sc_malloc's, or a module's .global variables). */
bool sc_device_range(sc_gpu_t *gpu, uint64_t addr, uint64_t bytes);
/* The GPU's configuration (owned by gpu). */
const sc_gpu_config_t *sc_gpu_config(const sc_gpu_t *gpu);
/* The register mode modules load in on gpu. */
sc_regs_t sc_gpu_regs(const sc_gpu_t *gpu);

#endif
