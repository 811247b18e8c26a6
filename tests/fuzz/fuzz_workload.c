/* fuzz_workload — libFuzzer harness: each input goes through fz_workload (fuzz_load.h).
 * Any outcome but a crash, leak, sanitizer report, hang or broken contract
 * (FZ_BROKEN) is fine. FLIPSIM_FUZZ_VERBOSE=1 prints each input's message:
 * which inputs get how far. Design: tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_load.h"

static int verbose = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	if (verbose < 0)
		verbose = getenv("FLIPSIM_FUZZ_VERBOSE") != NULL;
	int rc = fz_workload(data, size, err, sizeof err);
	if (verbose)
		fprintf(stderr, "rc %d: %s\n", rc, rc ? err : "");
	if (rc == FZ_BROKEN) {
		fprintf(stderr, "fuzz_workload: broken contract: %s\n", err);
		abort();
	}
	return 0;
}
