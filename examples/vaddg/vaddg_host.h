/* vaddg_host.h — what vaddg.c and vaddg_cuda.cu share: the launch shape and
 * the seeded input. C and C++. */
#ifndef VADDG_HOST_H
#define VADDG_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "appbase.h"

enum { BLOCK = 256 };

/* GUFI Table I: grid 204 x block 256, so 51 969..52 224 elements; 52 000,
 * not a multiple of the block, keeps the bounds check at work. */
enum { DEF_N = 52000 };

static const uint64_t SEED = 0x56414431;  /* "VAD1" */

/* a and b uniform in [-1, 1), a first, from one stream. */
static inline void input_init(float *a, float *b, size_t n) { app_uniform_pair(a, b, n, SEED); }

#endif
