/* campaigns internals shared by the JSON loaders (camp_gpu.c,
 * camp_workload.c). Public API: campaigns.h. */
#ifndef CAMP_INT_H
#define CAMP_INT_H

#include <stddef.h>
#include <stdio.h>

#include "campaigns.h"

/* Writes "FILE: at PATH: <message>" into err and returns CAMP_EINPUT: the
 * one shape of every content error (PATH is a JSON path like $.a[2].b). */
int camp__fail_at(char *err, size_t errsz, const char *file, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

typedef struct json_t json_t;

/* Rejects keys of object `obj` (at JSON path `path`) not in the
 * NULL-terminated `known`: "FILE: at PATH: unknown key 'k' (expected a, b)".
 * Returns 0 or CAMP_EINPUT. */
int camp__check_keys(char *err, size_t errsz, const char *file, const char *path, json_t *obj,
                     const char *const *known);
/* *out = obj[key], or CAMP_EINPUT "FILE: at PATH: missing key 'key'". */
int camp__require(char *err, size_t errsz, const char *file, const char *path, json_t *obj, const char *key,
                  json_t **out);

/* Opens a regular file for reading, as fopen(path, "rb"); NULL with errno
 * set otherwise, EINVAL for anything but a regular file. Every file a
 * loader reads goes through it: a FIFO would block open() and /dev/zero
 * would never end, and input must not hang a loader. */
FILE *camp__fopen_regular(const char *path);

/* Reads a JSON file into *root (caller decrefs), rejecting duplicate keys.
 * Returns 0, or CAMP_EINPUT with "FILE: cannot read: ..." when the file
 * cannot be opened or "FILE:LINE:COL: ..." for a syntax error. */
int camp__load_json(const char *path, json_t **root, char *err, size_t errsz);

/* The protection object at JSON path `path` of file into *out (camp_prot.c;
 * format: README, "Campaign JSON"): interleave 0 becomes 1, both meaning
 * none. Returns 0 or CAMP_EINPUT naming the file and the path. */
int camp__parse_protection(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                           sc_protection_t *out);
/* sc_protection_check of p on that GPU and register mode, its message as
 * "FILE: at PATH: ...". Returns 0 or CAMP_EINPUT. */
int camp__check_protection(char *err, size_t errsz, const char *file, const char *path, const sc_protection_t *p,
                           const sc_gpu_config_t *cfg, sc_regs_t regs);
/* p as the canonical text holds it: every key, codes by name (new
 * reference, NULL when out of memory). */
json_t *camp__protection_json(const sc_protection_t *p);

#endif
