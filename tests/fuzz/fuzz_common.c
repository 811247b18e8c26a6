/* fuzz_common — builds the scratch tree of fuzz_common.h: symbolic links to
 * the repository's examples and test data around a directory where the
 * harness writes each input. Design: tests/fuzz/README.md ("Where inputs
 * are written"). */
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
static char input[PATH_MAX];  /* base/examples/campaigns/gufi/input.json */

/* out = a "/" b; -1 when it does not fit */
static int join(char out[PATH_MAX], const char *a, const char *b)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", a, b);
	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/* Links every entry of src (directories too when dirs_too) into dst,
 * unless dst already has that name: the first one wins. */
static void link_all(const char *src, const char *dst, int dirs_too)
{
	DIR *d = opendir(src);
	if (!d)
		return;
	struct dirent *e;
	char from[PATH_MAX], to[PATH_MAX];
	struct stat st;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || join(from, src, e->d_name) || join(to, dst, e->d_name))
			continue;
		if (stat(from, &st) || (S_ISDIR(st.st_mode) && !dirs_too))
			continue;
		(void)symlink(from, to);
	}
	closedir(d);
}

/* Links the files of every folder of src into dst (examples/APP/vadd.ptx). */
static void link_subdirs(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	if (!d)
		return;
	struct dirent *e;
	char sub[PATH_MAX];
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && !join(sub, src, e->d_name))
			link_all(sub, dst, 0);
	closedir(d);
}

/* Empties a directory of links and files, then removes it. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[PATH_MAX];
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !join(p, dir, e->d_name))
			(void)unlink(p); /* fails on a real subdirectory: removed before */
	closedir(d);
	(void)rmdir(dir);
}

static void cleanup(void)
{
	char p[PATH_MAX];
	static const char *const dirs[] = {"examples/campaigns/gufi", "examples/campaigns", "examples"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (!join(p, base, dirs[i]))
			remove_dir(p);
	remove_dir(base);
}

/* Makes base/rel and returns its path in out. */
static int make_dir(char out[PATH_MAX], const char *rel)
{
	return join(out, base, rel) || mkdir(out, 0700) ? -1 : 0;
}

const char *fz_input_path(void)
{
	if (input[0])
		return input;
	const char *env = getenv("FLIPSIM_ROOT");
	char root[PATH_MAX], ex[PATH_MAX], camp[PATH_MAX], gufi[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	if (!realpath(env && *env ? env : FUZZ_ROOT, root))
		return NULL;
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(base, sizeof base, "%s/flipsim-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
	if (n < 0 || (size_t)n >= sizeof base || mkdir(base, 0700))
		return NULL;
	atexit(cleanup);
	if (make_dir(ex, "examples") || make_dir(camp, "examples/campaigns") ||
	    make_dir(gufi, "examples/campaigns/gufi") || join(p, root, "build"))
		return NULL;
	/* base mirrors the repository: build/ for the host programs
	 * ("../../../build/examples/bfs" from gufi/, "../../build/..." from
	 * campaigns/), examples/APP for "../vadd/vadd.json" */
	if (!join(q, base, "build"))
		(void)symlink(p, q);
	if (!join(q, ex, "build"))
		(void)symlink(p, q);
	if (join(p, root, "examples"))
		return NULL;
	link_all(p, ex, 1);
	link_all(p, camp, 1);
	if (!join(p, root, "tests/campaigns/data"))
		link_all(p, camp, 0); /* "../dummy.ptx" */
	/* gufi/ holds the inputs and, flattened, every file they may name:
	 * "w.json", "dummy.ptx", "tiny-gpu.json", "vadd.ptx", "in.bin" */
	static const char *const flat[] = {
		"tests/campaigns/data", "tests/campaigns/data/campaign", "tests/campaigns/data/e2e",
		"tests/engine/data", "examples/campaigns", "examples/campaigns/gufi",
	};
	for (size_t i = 0; i < sizeof flat / sizeof *flat; i++)
		if (!join(p, root, flat[i]))
			link_all(p, gufi, 0);
	static const char *const trees[] = {"examples", "tests/ptx"};
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
		if (!join(p, root, trees[i]))
			link_subdirs(p, gufi);
	if (join(input, gufi, "input.json")) {
		input[0] = '\0';
		return NULL;
	}
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
