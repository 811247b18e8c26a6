/* fuzz_common — builds the scratch tree of fuzz_common.h: symbolic links to
 * the repository's examples and test data around a directory where the
 * harness writes each input. Design: tests/fuzz/README.md. */
#include "fuzz_common.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_ROOT
#define FUZZ_ROOT "."
#endif

static char base[PATH_MAX];   /* $TMPDIR/flipsim-fuzz-PID */
static char dir[PATH_MAX];    /* base/examples/campaigns/gufi: inputs live here */
static char input[PATH_MAX];  /* dir/input.json */

/* Links every entry of src into dst unless dst already has that name. */
static void link_all(const char *src, const char *dst, int dirs_too)
{
	DIR *d = opendir(src);
	if (!d)
		return;
	struct dirent *e;
	char from[PATH_MAX], to[PATH_MAX];
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(from, sizeof from, "%s/%s", src, e->d_name);
		snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
		struct stat st;
		if (stat(from, &st) || (S_ISDIR(st.st_mode) && !dirs_too))
			continue;
		(void)symlink(from, to); /* EEXIST: the first one wins */
	}
	closedir(d);
}

/* Removes the tree: links and files, then the three directories. */
static void cleanup(void)
{
	const char *dirs[] = {dir, NULL, NULL, NULL};
	char ex[PATH_MAX], camp[PATH_MAX];
	snprintf(camp, sizeof camp, "%s/examples/campaigns", base);
	snprintf(ex, sizeof ex, "%s/examples", base);
	dirs[1] = camp;
	dirs[2] = ex;
	dirs[3] = base;
	for (int i = 0; i < 4; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *e;
		char p[PATH_MAX];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(p, sizeof p, "%s/%s", dirs[i], e->d_name);
			(void)unlink(p); /* fails on the real subdirectory, removed next */
		}
		closedir(d);
		(void)rmdir(dirs[i]);
	}
}

const char *fz_input_path(void)
{
	if (input[0])
		return input;
	const char *root = getenv("FLIPSIM_ROOT");
	char absroot[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	if (!realpath(root ? root : FUZZ_ROOT, absroot))
		return NULL;
	const char *tmp = getenv("TMPDIR");
	snprintf(base, sizeof base, "%s/flipsim-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
	snprintf(dir, sizeof dir, "%s/examples/campaigns/gufi", base);
	snprintf(p, sizeof p, "%s/examples", base);
	snprintf(q, sizeof q, "%s/examples/campaigns", base);
	if (mkdir(base, 0700) || mkdir(p, 0700) || mkdir(q, 0700) || mkdir(dir, 0700))
		return NULL;
	atexit(cleanup);
	/* base mirrors the repository: build/ for host programs ("../../../build/
	 * examples/bfs" from gufi/), examples/APP for "../vadd/vadd.json". */
	snprintf(p, sizeof p, "%s/build", absroot);
	snprintf(q, sizeof q, "%s/build", base);
	(void)symlink(p, q);
	snprintf(q, sizeof q, "%s/examples/build", base); /* "../../build/" from campaigns/ */
	(void)symlink(p, q);
	snprintf(p, sizeof p, "%s/examples", absroot);
	snprintf(q, sizeof q, "%s/examples", base);
	link_all(p, q, 1);
	/* gufi/ and campaigns/ themselves hold the flattened data files, so
	 * that "w.json", "dummy.ptx", "tiny-gpu.json", "vadd.ptx", "../dummy.ptx"
	 * and "../vadd/vadd.json" all resolve from the input. */
	static const char *const flat[] = {
		"tests/campaigns/data", "tests/campaigns/data/campaign", "tests/campaigns/data/e2e",
		"tests/engine/data", "examples/campaigns", "examples/campaigns/gufi",
	};
	for (size_t i = 0; i < sizeof flat / sizeof *flat; i++) {
		snprintf(p, sizeof p, "%s/%s", absroot, flat[i]);
		link_all(p, dir, 0);
	}
	snprintf(p, sizeof p, "%s/examples", absroot);
	snprintf(q, sizeof q, "%s/examples/campaigns", base);
	link_all(p, q, 1);
	snprintf(p, sizeof p, "%s/tests/campaigns/data", absroot);
	link_all(p, q, 0);
	/* each application's own files (vadd.ptx, in.bin) beside the input too */
	static const char *const trees[] = {"examples", "tests/ptx"};
	for (size_t t = 0; t < 2; t++) {
		snprintf(p, sizeof p, "%s/%s", absroot, trees[t]);
		DIR *d = opendir(p);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(q, sizeof q, "%s/%s", p, e->d_name);
			link_all(q, dir, 0);
		}
		if (d)
			closedir(d);
	}
	snprintf(input, sizeof input, "%s/input.json", dir);
	(void)unlink(input); /* a data file of that name must not be written through */
	return input;
}

int fz_write_input(const uint8_t *data, size_t size)
{
	const char *path = fz_input_path();
	if (!path)
		return -1;
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = fwrite(data, 1, size, f);
	return fclose(f) || n != size ? -1 : 0;
}
