/* Regression cases from make fuzz (tests/fuzz/regress/cases.txt): each
 * minimized input goes through the same code as its harness
 * (fuzz_load.c) and must give the recorded result and message, without a
 * crash, hang, leak or sanitizer report. Run from the repository root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <criterion/criterion.h>

#include "campaigns.h"
#include "fuzz_load.h"

#define DIR "tests/fuzz/regress/"

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot open %s", path);
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			cr_assert(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*size = n;
	return buf;
}

/* The code a case names: "ok", or an SC_E* / CAMP_E* name in lower case. */
static int code_of(const char *harness, const char *name)
{
	if (!strcmp(name, "ok"))
		return 0;
	if (!strcmp(harness, "ptx")) {
#define X(n, code, text) if (!strcasecmp(name, #n)) return code;
		SC_ERR_LIST(X)
#undef X
	} else {
#define X(n, code, text) if (!strcasecmp(name, #n)) return code;
		CAMP_ERR_LIST(X)
#undef X
	}
	cr_assert_fail("unknown result '%s' for %s", name, harness);
	return 1;
}

Test(fuzz, regressions)
{
	FILE *f = fopen(DIR "cases.txt", "r");
	cr_assert(f, "cannot open " DIR "cases.txt");
	char line[1024];
	int cases = 0, lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char harness[32], file[256], want[32];
		int used = 0;
		cr_assert_eq(sscanf(line, "%31s %255s %31s %n", harness, file, want, &used), 3,
		             "cases.txt:%d: expected HARNESS FILE RC [FRAGMENT]", lineno);
		const char *frag = line + used;
		char path[512];
		snprintf(path, sizeof path, DIR "%s/%s", harness, file);
		size_t size;
		uint8_t *data = slurp(path, &size);
		char err[1024];
		int rc = !strcmp(harness, "ptx")        ? fz_ptx(data, size, err, sizeof err)
		         : !strcmp(harness, "workload") ? fz_workload(data, size, err, sizeof err)
		         : !strcmp(harness, "campaign") ? fz_campaign(data, size, err, sizeof err)
		                                        : FZ_BROKEN - 1;
		free(data);
		cr_assert_neq(rc, FZ_BROKEN - 1, "cases.txt:%d: unknown harness '%s'", lineno, harness);
		cr_expect_eq(rc, code_of(harness, want), "%s: got %d (%s), expected %s", path, rc, err, want);
		cr_expect(strstr(err, frag) != NULL, "%s: message '%s' lacks '%s'", path, err, frag);
		cases++;
	}
	fclose(f);
	cr_expect_gt(cases, 0);
}
