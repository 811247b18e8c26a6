/* Helpers for the simcore Criterion suites (test_parse.c ... test_due.c):
 * a GPU built from the gtx480 preset with optional tweaks, PTX loaded from
 * a string, buffers, and launches that hand back the rc and the status.
 * Ownership: an h_ctx_t owns its GPU (h_fini); everything else is the GPU's. */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "simcore.h"

/* The three lines every hand-written PTX snippet starts with. */
#define H_PTX_HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

#define H_DIM(x, y, z) ((sc_dim3_t){(x), (y), (z)})
#define H_D1(x) H_DIM((x), 1, 1)
/* Kernel argument list: H_ARGS(&a, &b) */
#define H_ARGS(...) ((void *const[]){__VA_ARGS__})

typedef struct h_ctx {
	sc_gpu_config_t cfg; /* gtx480 after h_init; tweak before the first load */
	sc_options_t opt;    /* cycle budget, register mode */
	sc_gpu_t *gpu;       /* created by the first h_load */
	sc_module_t *mod;    /* the last module loaded */
} h_ctx_t;

/* gtx480 configuration, no cycle budget, no GPU yet; ptx register mode, or
 * the mode $FLIPSIM_TEST_REGS names (ptx or alloc). */
void h_init(h_ctx_t *h);
/* Creates the GPU now from h->cfg and h->opt (asserts success). */
void h_start(h_ctx_t *h);
void h_fini(h_ctx_t *h);

/* Loads PTX text (module name "t.ptx"); returns the rc, and on error the
 * message is sc_gpu_errmsg(h->gpu). h_load_ok asserts success. */
int h_load(h_ctx_t *h, const char *ptx);
sc_module_t *h_load_ok(h_ctx_t *h, const char *ptx);

/* Device buffer of `bytes`, filled from init (or zeros when NULL). */
uint64_t h_alloc(h_ctx_t *h, uint64_t bytes, const void *init);
void h_read(h_ctx_t *h, void *dst, uint64_t src, uint64_t bytes);

/* Launches `kernel` of the last module; returns the rc of sc_launch. */
int h_launch(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn_smem,
             void *const *args);
/* Launch that must succeed (asserts rc 0, printing the message otherwise). */
void h_launch_ok(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn_smem,
                 void *const *args);
const sc_status_t *h_status(const h_ctx_t *h);
/* Statistics of the last launch. */
const sc_launch_stats_t *h_last(const h_ctx_t *h);

/* The function (.entry or .func) of m called `name` (asserts there is
 * one); the internal sc_func_t of sc_int.h. */
const struct sc_func *h_func(const sc_module_t *m, const char *name);

/* k(u32 *out) for one warp: r1 = tid is written first, then r2 counts a
 * 50-iteration loop (p1 its predicate), then out[tid] = r1 + r2 (the
 * address comes from a fresh %tid in r4). Registers %r<6>, %rd<4>,
 * %p<2>. The fault suites compute their locations from it. */
extern const char h_loop_ptx[];
/* Starts a GPU (h_init), loads ptx and runs its k(u32 *out) on one warp of
 * one CTA with a 32-element out, pausing at `at` with fn (NULL: no pause).
 * Returns the launch's rc; out[] filled when it is 0. */
int h_run_warp(h_ctx_t *h, const char *ptx, uint64_t at, sc_pause_fn fn, void *ctx, uint32_t out[32]);
/* The PTX line (1-based) of ptx holding `text` (asserted present). */
uint32_t h_line_of(const char *ptx, const char *text);

/* The register slot whose lane 3 holds v in warp slot 0 of SM 0, or -1:
 * how the alloc-mode suites find a register the allocation placed. */
int h_slot_of(const sc_gpu_t *g, uint32_t v);

/* The next value of a xorshift64 stream in *state (never 0): random
 * words and values for the tests, the same on every machine. */
uint64_t h_rand(uint64_t *state);
/* A random program of seed `seed` into ptx (n bytes, randprog.c): kernel
 * k(.param .u64 out) on one block, each thread storing 11 words at out +
 * 44 tid; .funcs f0 and f1, branches, loops, calls. */
void h_random_program(uint64_t seed, char *ptx, size_t n);
/* The same kernel without the .funcs and calls (passes that refuse calls). */
void h_random_kernel(uint64_t seed, char *ptx, size_t n);

/* One-call form for kernels of the shape k(u32 *out): loads ptx, runs it
 * with `out` of n u32 zeros, and copies the result to out. Asserts success. */
void h_run_u32(h_ctx_t *h, const char *ptx, const char *kernel, sc_dim3_t grid, sc_dim3_t block,
               uint32_t *out, uint32_t n);

#endif
