/* campaigns internals shared by the JSON loaders (camp_gpu.c,
 * camp_workload.c). Public API: campaigns.h. */
#ifndef CAMP_INT_H
#define CAMP_INT_H

#include <stddef.h>

#include "campaigns.h"

/* Writes "FILE: at PATH: <message>" into err and returns CAMP_EINPUT: the
 * one shape of every content error (PATH is a JSON path like $.a[2].b). */
int camp__fail_at(char *err, size_t errsz, const char *file, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
