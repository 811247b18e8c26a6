/* A flat temporary folder per test (tests/db/): made with mkdtemp, removed
 * with the files in it. */
#ifndef TESTS_DB_TMPDIR_H
#define TESTS_DB_TMPDIR_H

#include <stddef.h>

/* Makes /tmp/PREFIX-XXXXXX into dir (n bytes); asserts that it worked. */
void tmpdir_make(char *dir, size_t n, const char *prefix);
/* Removes the files of dir (not subfolders: the tests make none), then dir. */
void tmpdir_remove(const char *dir);

#endif
