/* fuzz_common — the scratch tree the JSON harnesses write their inputs into.
 * Design: tests/fuzz/README.md ("Where inputs are written"). The input file
 * sits where the committed examples' relative references (workload, ptx,
 * gpu, init files, host programs) resolve, so mutated seeds get past the
 * "no such file" errors and reach the loaders' deeper checks. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Builds the scratch tree once per process (removed at exit) and returns
 * the path of the input file inside it (static storage), or NULL. */
const char *fz_input_path(void);

/* Writes data[0..size) to the input file; returns 0 or -1. */
int fz_write_input(const uint8_t *data, size_t size);

#endif
