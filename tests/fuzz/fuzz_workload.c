/* fuzz_workload — libFuzzer harness for camp_workload_load: each input is
 * written as a workload JSON file into the scratch tree (fuzz_common.h) and
 * loaded. Any outcome but a crash, leak, sanitizer report or hang is fine;
 * a failure must come with a message. Design: tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "campaigns.h"
#include "fuzz_common.h"

/* FLIPSIM_FUZZ_VERBOSE=1 prints each load's message: which inputs get how far */
static int verbose = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (verbose < 0)
		verbose = getenv("FLIPSIM_FUZZ_VERBOSE") != NULL;
	char err[512];
	camp_workload_t *w = NULL;
	if (fz_write_input(data, size))
		abort(); /* the scratch tree is broken: nothing below means anything */
	err[0] = '\0';
	int rc = camp_workload_load(fz_input_path(), &w, err, sizeof err);
	if (verbose)
		fprintf(stderr, "rc %d: %s\n", rc, err);
	if (rc == 0 && !w)
		abort();
	if (rc != 0 && (w || !err[0] || (rc != CAMP_EINPUT && rc != CAMP_ENOMEM && rc != CAMP_EIO)))
		abort();
	camp_workload_destroy(w);
	return 0;
}
