/* Regression cases from make fuzz (tests/fuzz/regress/cases.txt): each
 * minimized input goes through the same code as its harness
 * (fuzz_load.c) and must give the recorded result and message, without a
 * crash, hang, leak or sanitizer report; and a FIFO as input must not block.
 * Run from the repository root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The code a case names: "ok" or an SC_E* / CAMP_E* name in lower case. */
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

/* A FIFO named as the PTX or the GPU file: open() for reading would wait
 * for a writer forever; the loaders refuse anything but regular files. */
Test(fuzz, fifo_is_refused, .timeout = 20)
{
	char dir[] = "/tmp/flipsim-fifo-XXXXXX", fifo[64], text[512], err[1024];
	cr_assert(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	int n = snprintf(text, sizeof text,
	                 "{\"name\": \"z\", \"ptx\": \"%s\", \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1}},"
	                 " \"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [1], \"args\": [\"a\"]}],"
	                 " \"outputs\": [\"a\"]}", fifo);
	cr_expect_eq(fz_workload((const uint8_t *)text, (size_t)n, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "not a regular file"), "%s", err);
	n = snprintf(text, sizeof text, "{\"workload\": \"../vadd/vadd.json\", \"gpu\": \"%s\", \"target\": \"regfile\"}",
	             fifo);
	cr_expect_eq(fz_campaign((const uint8_t *)text, (size_t)n, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "not a regular file"), "%s", err);
	unlink(fifo);
	rmdir(dir);
}
