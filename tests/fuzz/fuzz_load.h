/* fuzz_load — one input through the PTX front end, the workload loader or
 * the campaign loader, as the harnesses and tests/fuzz/test_regress.c do it.
 * Design: tests/fuzz/README.md. */
#ifndef FUZZ_LOAD_H
#define FUZZ_LOAD_H

#include <stddef.h>
#include <stdint.h>

/* Returned when a loader broke its contract: a failure without a message,
 * success without a result, or a harness that could not run at all. */
#define FZ_BROKEN (-1000)

/* Each returns the loader's code (0, or its negative SC_E* / CAMP_E*) with
 * the message in err, or FZ_BROKEN. fz_ptx loads the text in ptx and in
 * alloc register mode (alloc must not refuse what ptx mode accepts) and runs
 * the first kernel of the alloc-mode module for one 32-thread CTA under a
 * 20 000-cycle budget. The JSON ones write the input into the scratch tree
 * of fuzz_common.h first; fz_workload then fills every buffer of at most
 * 1 MiB with its initial contents (camp_buffer_fill), as a run would. */
int fz_ptx(const uint8_t *data, size_t size, char *err, size_t errsz);
int fz_workload(const uint8_t *data, size_t size, char *err, size_t errsz);
int fz_campaign(const uint8_t *data, size_t size, char *err, size_t errsz);

#endif
