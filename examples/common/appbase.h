/* appbase — what every example program shares, the simcore programs
 * (app.h) and their CUDA versions (cuda_app.h) alike: the exit statuses,
 * number parsing, the seeded inputs' generator, the output digest and the
 * --check failure line. Plain C with C linkage, no simcore, no CUDA. */
#ifndef APPBASE_H
#define APPBASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses. APP_BADINPUT covers bad usage and an unreadable, unparsable
 * or mismatching PTX file (the programs' only input file). */
enum { APP_OK = 0, APP_FAIL = 1, APP_BADINPUT = 2, APP_DUE = 3 };

/* Parse s, a whole decimal number in [lo, hi], into *v; return false, *v
 * untouched, when s is anything else. */
bool app_parse_long(const char *s, long lo, long hi, long *v);
bool app_parse_int(const char *s, int lo, int hi, int *v);

/* Prints on stdout the --check failure line of program `name` for the float
 * at `where` ("c[3]"): both values and their bit patterns. */
void app_print_mismatch_named(const char *name, const char *where, const float *gpu, const float *cpu);

/* splitmix64: the next number of a seeded sequence, the same on every machine. */
uint64_t app_splitmix64(uint64_t *state);

/* Uniform in [lo, hi): lo + (hi - lo) * u with u from the top 24 bits of
 * app_splitmix64, exact in float. */
float app_uniform(uint64_t *state, float lo, float hi);

/* a[0..n) then b[0..n) uniform in [-1, 1), from one stream seeded with seed. */
void app_uniform_pair(float *a, float *b, size_t n, uint64_t seed);

/* FNV-1a, 64 bits: the digest the programs print for their outputs. */
uint64_t app_fnv1a(const void *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
