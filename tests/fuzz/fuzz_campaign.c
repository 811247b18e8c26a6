/* fuzz_campaign — libFuzzer harness for camp_campaign_load: each input is
 * written as a campaign JSON file where the committed examples' relative
 * references resolve (fuzz_common.h), so the workload and GPU files it names
 * load too. Design: tests/fuzz/README.md. */
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
	camp_campaign_t *c = NULL;
	if (fz_write_input(data, size))
		abort();
	err[0] = '\0';
	int rc = camp_campaign_load(fz_input_path(), &c, err, sizeof err);
	if (verbose)
		fprintf(stderr, "rc %d: %s\n", rc, err);
	if (rc == 0 && (!c || !c->canonical))
		abort();
	if (rc != 0 && (c || !err[0] || (rc != CAMP_EINPUT && rc != CAMP_ENOMEM && rc != CAMP_EIO)))
		abort();
	camp_campaign_destroy(c);
	return 0;
}
