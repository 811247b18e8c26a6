#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tmpdir.h"

void tmpdir_make(char *dir, size_t n, const char *prefix)
{
	snprintf(dir, n, "/tmp/%s-XXXXXX", prefix);
	cr_assert_not_null(mkdtemp(dir));
}

void tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}
