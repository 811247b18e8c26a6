/* campaigns — GPU-config, workload and campaign JSON: loading, validation,
 * GPU presets, and running a declarative workload on the simulator.
 * Design: docs/DESIGN.md ("Workload JSON", "Campaign JSON").
 * Ownership: every camp_*_t returned through an out-pointer belongs to the
 * caller and is freed with its camp_*_destroy (NULL is a no-op); jansson
 * objects never leave this folder. Error messages go to caller-supplied
 * buffers as one line, naming the file and the JSON path or line:column. */
#ifndef CAMPAIGNS_H
#define CAMPAIGNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simcore.h"

/* ---- errors: 0 on success, a negative code otherwise ------------------- */
#define CAMP_ERR_LIST(X)                                                  \
	X(NOMEM, -1, "out of memory")                                         \
	X(INPUT, -2, "invalid input")  /* bad JSON, PTX, kernel, launch... */ \
	X(IO, -3, "cannot read or write a file")                              \
	X(SIM, -4, "unexpected simulator error")

enum {
#define X(name, code, text) CAMP_E##name = code,
	CAMP_ERR_LIST(X)
#undef X
};

/* Returns a static description of a CAMP_E* code. */
const char *camp_strerror(int err);

/* ---- GPU configurations -------------------------------------------------- */

/* Loads a GPU configuration into *out. `name_or_path` is a file path when it
 * contains '/' or ends in ".json", otherwise the name of a built-in preset
 * (embedded in the binary, so it works from any directory). Every key of
 * sc_gpu_config_t is required, plus "name" and "sources"; unknown keys are
 * rejected; the result has passed sc_config_check. Returns 0, CAMP_EINPUT
 * (message in err), or CAMP_ENOMEM. */
int camp_gpu_load(const char *name_or_path, sc_gpu_config_t *out, char *err, size_t errsz);

/* The preset names, NULL-terminated, in a fixed order; static storage. */
const char *const *camp_gpu_names(void);

/* ---- workloads ---------------------------------------------------------- */

/* Element types of buffers and scalar arguments: X(enum, name, bytes, is_float, is_signed). */
#define CAMP_TYPE_LIST(X)                                                 \
	X(U8, "u8", 1, 0, 0)                                                  \
	X(I8, "i8", 1, 0, 1)                                                  \
	X(U16, "u16", 2, 0, 0)                                                \
	X(I16, "i16", 2, 0, 1)                                                \
	X(U32, "u32", 4, 0, 0)                                                \
	X(I32, "i32", 4, 0, 1)                                                \
	X(U64, "u64", 8, 0, 0)                                                \
	X(I64, "i64", 8, 0, 1)                                                \
	X(F32, "f32", 4, 1, 1)                                                \
	X(F64, "f64", 8, 1, 1)

typedef enum {
#define X(name, text, bytes, fl, sg) CAMP_T_##name,
	CAMP_TYPE_LIST(X)
#undef X
	CAMP_T__COUNT
} camp_type_t;

/* The type's name ("f32") and size in bytes. */
const char *camp_type_name(camp_type_t t);
uint32_t camp_type_size(camp_type_t t);

typedef enum {
	CAMP_INIT_ZERO,    /* no "init" */
	CAMP_INIT_FILE,    /* {"file": P}: raw little-endian bytes */
	CAMP_INIT_VALUES,  /* {"values": [...]} */
	CAMP_INIT_IOTA,    /* {"iota": {"start": S, "step": D}} */
	CAMP_INIT_RANDOM   /* {"random": {"seed": N, "min": A, "max": B}} */
} camp_init_t;

/* Integer iota and random bounds are kept as 64-bit two's-complement
 * patterns (`u`); float ones as doubles (`f`). */
typedef union camp_num {
	uint64_t u;
	double f;
} camp_num_t;

typedef struct camp_buffer {
	char *name;
	camp_type_t type;
	uint64_t count;        /* elements, >= 1 */
	camp_init_t init;
	char *file;            /* FILE: path resolved against the JSON's folder */
	uint8_t *values;       /* VALUES: count elements, little-endian, converted */
	camp_num_t start, step;     /* IOTA */
	uint64_t seed;              /* RANDOM */
	camp_num_t min, max;        /* RANDOM, defaults already applied */
	double tolerance;           /* "tolerance": relative, f32/f64 outputs only; 0 = exact */
} camp_buffer_t;

typedef enum {
	CAMP_ARG_BUFFER,  /* "name": the buffer's 8-byte device address */
	CAMP_ARG_SCALAR,  /* {"type": value} */
	CAMP_ARG_ITER     /* {"type": "$iter"}: the launch's repeat index */
} camp_arg_kind_t;

typedef struct camp_arg {
	camp_arg_kind_t kind;
	uint32_t buffer;       /* BUFFER: index into buffers */
	camp_type_t type;      /* SCALAR, ITER */
	uint8_t bytes[8];      /* SCALAR: the value, little-endian, type-sized */
} camp_arg_t;

typedef struct camp_launch {
	char *kernel;
	sc_dim3_t grid, block;  /* missing dimensions are 1 */
	uint32_t shared;        /* dynamic shared memory, bytes */
	uint32_t repeat;        /* >= 1 */
	uint32_t nargs;
	camp_arg_t *args;
} camp_launch_t;

typedef struct camp_workload {
	char *path;             /* the JSON file as given (used in messages) */
	char *name;
	char *ptx;              /* resolved against the JSON's folder */
	uint32_t nbuffers;      /* in file order */
	camp_buffer_t *buffers;
	uint32_t nlaunches;
	camp_launch_t *launches;
	uint32_t noutputs;
	uint32_t *outputs;      /* buffer indices, in file order */
} camp_workload_t;

/* Parses and validates a workload JSON file (format: DESIGN.md). Checks
 * everything that does not need the PTX: types, ranges, value counts and
 * representability, init file sizes, buffer references, that the PTX file is
 * readable. Returns 0 and *out (caller owns; camp_workload_destroy),
 * CAMP_EINPUT with a message "FILE:LINE:COL: ..." (syntax) or
 * "FILE: at $.json.path: ..." (content), or CAMP_ENOMEM. */
int camp_workload_load(const char *path, camp_workload_t **out, char *err, size_t errsz);
void camp_workload_destroy(camp_workload_t *w);

/* Returns the buffer named `name`, or NULL. */
const camp_buffer_t *camp_workload_buffer(const camp_workload_t *w, const char *name);

/* Writes buffer b's initial contents (count * element size bytes,
 * little-endian) to dst. The random generator is xoshiro256** seeded through
 * splitmix64 (tests/ptx/ref_common.h documents it). Returns 0, or CAMP_EIO /
 * CAMP_EINPUT when an init file cannot be read or changed size since
 * loading (message in err). */
int camp_buffer_fill(const camp_buffer_t *b, void *dst, char *err, size_t errsz);

/* ---- running a workload -------------------------------------------------- */

typedef struct camp_output {
	uint32_t buffer;        /* index into the workload's buffers */
	uint64_t dptr;          /* its device address in the run */
	uint64_t bytes;
	uint8_t *data;
} camp_output_t;

typedef struct camp_result {
	int due;                /* 1 when a launch stopped with SC_EDUE */
	sc_status_t status;     /* where and why (reason NONE when !due) */
	uint32_t launches_run;  /* sc_launch calls made, repeats counted */
	double sim_seconds;     /* host time spent inside sc_launch */
	double sim_cpu_seconds; /* CPU time of this process inside sc_launch */
	uint32_t noutputs;      /* the workload's outputs; 0 after a DUE */
	camp_output_t *outputs;
	char *printf_text;      /* what device printf wrote (sc_printf_output),
	                           NULL when nothing; campaigns compare it as the
	                           run's stdout */
	uint64_t printf_len;
} camp_result_t;

/* Runs a workload on `gpu` (which should be fresh: statistics accumulate):
 * loads the PTX, allocates and initialises every buffer, performs each launch
 * `repeat` times in order, and copies the outputs back. A DUE of the simulated
 * program is a result, not an error: the remaining launches are skipped and
 * the result says why. Returns 0 and *out (caller owns; camp_result_destroy);
 * CAMP_EINPUT for bad input (PTX that does not parse, unknown kernel,
 * argument count, size or kind mismatch with the PTX parameter, launch
 * configuration the GPU cannot hold), message in err naming the file and JSON
 * path; CAMP_ENOMEM; CAMP_EIO; CAMP_ESIM. Every
 * device buffer it allocated is freed before it returns. */
int camp_workload_run(const camp_workload_t *w, sc_gpu_t *gpu, camp_result_t **out,
                      char *err, size_t errsz);
void camp_result_destroy(camp_result_t *r);

/* ---- campaigns ----------------------------------------------------------- */

/* Target structures: X(enum, name, what). The names are the JSON values. */
#define CAMP_TARGET_LIST(X)                                                \
	X(REGFILE, "regfile", "physical register file")                       \
	X(PRED, "pred", "predicate register file")                            \
	X(SMEM, "smem", "shared memory")                                      \
	X(SIMT, "simt", "SIMT reconvergence stacks (fields pc, rpc, mask)")   \
	X(IBUFFER, "ibuffer", "instruction buffers (fields valid, instr)")    \
	X(FU, "fu", "functional-unit results")                                \
	X(L1D, "l1d", "L1 data caches (fields data, tag, valid)")             \
	X(L2, "l2", "the L2 cache, shared (fields data, tag, valid, dirty)")  \
	X(CONST, "const", "constant caches (fields data, tag)")              \
	X(TEXCACHE, "texcache", "texture caches (fields data, tag)")

typedef enum {
#define X(name, text, what) CAMP_TARGET_##name,
	CAMP_TARGET_LIST(X)
#undef X
	CAMP_TARGET__COUNT
} camp_target_t;

/* Field bits of camp_campaign_t.fields: SIMT stack entries, instruction-
 * buffer entries and cache lines. Other targets have no fields (fields == 0). */
enum {
	CAMP_FIELD_PC = 1, CAMP_FIELD_RPC = 2, CAMP_FIELD_MASK = 4,  /* simt */
	CAMP_FIELD_VALID = 1, CAMP_FIELD_INSTR = 2,                  /* ibuffer */
	CAMP_FIELD_DATA = 1, CAMP_FIELD_TAG = 2,                     /* l1d, l2, const */
	CAMP_FIELD_LINE_VALID = 4, CAMP_FIELD_DIRTY = 8              /* l1d and l2; l2 */
};

typedef enum { CAMP_REGS_PTX, CAMP_REGS_ALLOC, CAMP_REGS_UNALLOC } camp_regs_t;

typedef enum {
	CAMP_SCOPE_APPLICATION,  /* GUFI mode 2: every kernel invocation */
	CAMP_SCOPE_KERNEL        /* GUFI mode 1: one invocation of one kernel */
} camp_scope_t;

typedef enum {
	CAMP_MODEL_SINGLE,    /* one bit */
	CAMP_MODEL_ADJACENT,  /* k adjacent bits of one word at one cycle */
	CAMP_MODEL_MULTI,     /* k single-bit faults spread in time */
	CAMP_MODEL_RANDOM_VALUE, /* one word takes a random value */
	CAMP_MODEL_ZERO_VALUE,   /* one word is cleared */
	CAMP_MODEL_MCU,          /* one bit in k words `interleave` words apart */
	CAMP_MODEL_STUCK_AT,     /* one bit holds a value to the end of the run */
	CAMP_MODEL_INTERMITTENT  /* one bit holds a value duration cycles every period */
} camp_model_t;

typedef enum {
	CAMP_SAMPLING_PHYSICAL,  /* uniform over the whole structure */
	CAMP_SAMPLING_LIVE       /* allocated parts only, then derated */
} camp_sampling_t;

/* How an application-scope campaign spreads its masks ("strata"). */
typedef enum {
	CAMP_STRATA_NONE,    /* cycles uniform over every invocation (default) */
	CAMP_STRATA_KERNEL   /* one stratum per kernel name, equal allocation */
} camp_strata_t;

/* The most looks of a sequential campaign ("stop": {"looks": J}). */
#define CAMP_MAX_LOOKS 20
#define CAMP_DEFAULT_LOOKS 5

/* A host program as the workload ("workload": {"exec": [PROGRAM, ARG...],
 * "cwd": DIR}): run as argv in cwd; it drives the simulated GPU through
 * simcore.h and its stdout, stderr and exit status are its outputs. */
typedef struct camp_exec {
	char **argv;               /* argv[0]: the program, absolute; NULL-terminated */
	uint32_t argc;
	char *cwd;                 /* absolute; default: the campaign file's folder */
} camp_exec_t;

/* The most injections a campaign may plan ("injections", or the sample size
 * that "margin" gives), and the golden run's default limits. */
#define CAMP_MAX_INJECTIONS 10000000
#define CAMP_GOLDEN_SECONDS 3600.0
#define CAMP_GOLDEN_CYCLES UINT64_C(10000000000)

/* A loaded campaign, every default filled in (each field says its default).
 * Required JSON keys: workload, target. */
typedef struct camp_campaign {
	char *path;                /* the campaign file as given (used in messages) */
	char *name;                /* default: the file's base name without ".json" */
	char *workload_path;       /* absolute, symbolic links resolved (the program for exec) */
	camp_workload_t *workload; /* loaded from workload_path; owned; NULL with exec */
	camp_exec_t *exec;         /* a host program as the workload, or NULL; owned */
	char *gpu_source;          /* preset name (default gtx480) or the file's resolved path */
	sc_gpu_config_t gpu;
	camp_regs_t regs;          /* register mode, default PTX */
	sc_protection_t prot;      /* "protection": codes on the storage, default none;
	                              part of the identity only when it protects something */
	camp_target_t target;
	uint32_t fields;           /* CAMP_FIELD_* bits, default all; 0 for other targets */
	camp_scope_t scope;        /* default APPLICATION */
	char *kernel;              /* SCOPE_KERNEL: the kernel's name; NULL otherwise */
	uint32_t invocation;       /* SCOPE_KERNEL: which launch of it, from 0 */
	uint64_t injections;       /* 1..10^7 (default 2000), or 0: compute from margin */
	double confidence;         /* (0, 1), default 0.95; sample size and intervals */
	double margin;             /* (0, 1) when injections == 0; 0 otherwise */
	camp_model_t model;        /* default SINGLE */
	uint32_t model_k;          /* bits (ADJACENT), faults (MULTI), words (MCU); else 1 */
	uint32_t model_interleave; /* MCU: words between hit words, default 1; else 0 */
	uint32_t model_value;      /* STUCK_AT, INTERMITTENT: 0 or 1 */
	uint64_t model_period;     /* INTERMITTENT: cycles, >= 2 */
	uint64_t model_duration;   /* INTERMITTENT: active cycles per period, 1..period-1 */
	bool model_from_start;     /* STUCK_AT, INTERMITTENT: from the first busy cycle
	                              (default false: from a drawn cycle) */
	camp_sampling_t sampling;  /* default PHYSICAL */
	bool regs_original;        /* "regs_subset": "original" (protection dup):
	                              regfile faults only in original registers */
	camp_strata_t strata;      /* default NONE; KERNEL only with SCOPE_APPLICATION */
	/* Sequential stopping ("stop"): stop_looks is 0 without it, else the
	 * looks (1..CAMP_MAX_LOOKS, default CAMP_DEFAULT_LOOKS) at the AVF's
	 * interval before `injections` (the maximum) is reached; the campaign
	 * stops at the first whose half-width is at most stop_relative × AVF
	 * or stop_absolute (one of them > 0, the other 0). masks.h,
	 * mask_look_n, mask_stop_met. */
	uint32_t stop_looks;
	double stop_relative;
	double stop_absolute;
	uint64_t seed;             /* default 1 */
	double fit_per_bit;        /* intrinsic FIT per bit, > 0, default 0.001 */
	double timeout_factor;     /* cycle budget = factor x golden cycles; 1.5..10000, 3 */
	double watchdog_seconds;   /* wall clock per experiment, (0, 604800], default 60 */
	/* Limits of the golden run (not part of the identity below: they change
	 * no result, only how long a golden run may take before it is refused). */
	double golden_watchdog_seconds; /* wall clock, (0, 604800], default CAMP_GOLDEN_SECONDS */
	uint64_t golden_cycle_budget;   /* GPU cycles, >= 1, default CAMP_GOLDEN_CYCLES */
	bool golden_ib_similarity;      /* not a key: profile --ib-similarity of a host
	                                   program (eng_golden_exec samples ib_distinct) */
	/* The resolved definition as compact JSON with sorted keys (format 2):
	 * a workload JSON as its parsed content with the PTX and input files
	 * replaced by FNV-1a digests of their bytes (no path, no formatting);
	 * a host program as argv and cwd as the campaign file writes them plus
	 * the digest of the executable; the GPU as a full object. The same
	 * experiment definition always gives the same bytes, wherever the
	 * project lies; `hash` is its 64-bit FNV-1a in 16 lower-case hex
	 * digits. legacy_hash: the same for format 1 (absolute paths, raw JSON
	 * bytes), which databases written before format 2 hold. */
	char *canonical;
	char hash[17];
	char legacy_hash[17];
} camp_campaign_t;

/* Parses and validates a campaign JSON file (format: DESIGN.md "Campaign
 * JSON", README), loads its workload (relative to the campaign file) and GPU
 * (a preset, or a file relative to the campaign file), checks the scope
 * against the workload's launches, and builds the canonical text. Returns 0
 * and *out (caller owns; camp_campaign_destroy), CAMP_EINPUT with a message
 * "FILE:LINE:COL: ..." (syntax) or "FILE: at $.path: ..." (content; errors of
 * the workload or GPU file follow, naming that file), or CAMP_ENOMEM. */
int camp_campaign_load(const char *path, camp_campaign_t **out, char *err, size_t errsz);
void camp_campaign_destroy(camp_campaign_t *c);

/* Names as the JSON writes them ("regfile", "adjacent", "live", "ptx"),
 * static; "?" for values out of range. */
const char *camp_target_name(camp_target_t t);
const char *camp_model_name(camp_model_t m);
/* What model m does to the word it hits (simcore's sc_fm_kind_t). */
sc_fm_kind_t camp_model_kind(camp_model_t m);
const char *camp_sampling_name(camp_sampling_t s);
const char *camp_strata_name(camp_strata_t s); /* "none", "kernel" */
const char *camp_regs_name(camp_regs_t r);
/* The simulator's register mode of campaign mode r. */
sc_regs_t camp_regs_sim(camp_regs_t r);

/* Bits per SM of campaign c's fault space (its target, fields and
 * protection: a protected structure counts its check bits,
 * sc_target_bits_prot), the width of a word in *word_bits (may be NULL). */
uint64_t camp_campaign_bits(const camp_campaign_t *c, uint32_t *word_bits);

/* The code campaign protection p puts on target t (NONE for targets no
 * code protects). */
sc_code_kind_t camp_protection_code(const sc_protection_t *p, camp_target_t t);
/* Reads a file holding one protection object (the campaign key
 * "protection": README, "Campaign JSON") into *out and checks it against
 * the GPU cfg and register mode regs (sc_protection_check). Returns 0, or
 * CAMP_EINPUT with a message naming the file and the JSON path ("FILE:
 * at $.pred.code: ..."), or CAMP_ENOMEM. */
int camp_protection_load(const char *path, const sc_gpu_config_t *cfg, sc_regs_t regs, sc_protection_t *out,
                         char *err, size_t errsz);

/* The name of field bit `bit` (one CAMP_FIELD_*) of target t ("rpc"), or NULL
 * when t has no such field. */
const char *camp_field_name(camp_target_t t, uint32_t bit);

/* Parse a target name into *t: 0, or CAMP_EINPUT when unknown. */
int camp_target_parse(const char *name, camp_target_t *t);

/* 64-bit FNV-1a of n bytes, continuing from h (start with CAMP_FNV_OFFSET):
 * the digest in canonical campaign texts and in `flipsim profile`. */
#define CAMP_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
uint64_t camp_fnv1a(uint64_t h, const void *data, size_t n);

#endif
