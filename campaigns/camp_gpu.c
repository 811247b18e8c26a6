/* GPU-configuration JSON: the presets embedded in the binary and files named
 * on the command line, both checked key by key and then by sc_config_check.
 * Format: one key per field of SC_CONFIG_FIELDS (simcore.h), plus
 * "sources"; see the presets in campaigns/gpus/ and DESIGN.md ("Campaign JSON"). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "camp_int.h"

/* The presets, generated at build time from the JSON files in campaigns/gpus/ into
 * $(BUILD)/campaigns/gpus_embed.c by the Makefile (od + sed): parallel
 * arrays, names NULL-terminated, each text NUL-terminated after its size. */
extern const char *const camp__gpu_names[];
extern const char *const camp__gpu_json[];
extern const size_t camp__gpu_json_size[];

const char *camp_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) case code: return text;
	CAMP_ERR_LIST(X)
#undef X
	}
	return "unknown error";
}

const char *const *camp_gpu_names(void)
{
	return camp__gpu_names;
}

typedef struct ctx {
	const char *file;  /* as shown in messages */
	char *err;
	size_t errsz;
} ctx_t;

int camp__check_keys(char *err, size_t errsz, const char *file, const char *path, json_t *obj,
                     const char *const *known)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		size_t i;
		for (i = 0; known[i] && strcmp(k, known[i]); i++)
			;
		if (!known[i]) {
			char list[300] = "";
			size_t off = 0;
			for (size_t j = 0; known[j] && off < sizeof list; j++)
				off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", j ? ", " : "", known[j]);
			return camp__fail_at(err, errsz, file, path, "unknown key '%s' (expected %s)", k, list);
		}
	}
	return 0;
}

int camp__require(char *err, size_t errsz, const char *file, const char *path, json_t *obj, const char *key,
                  json_t **out)
{
	*out = json_object_get(obj, key);
	if (!*out)
		return camp__fail_at(err, errsz, file, path, "missing key '%s'", key);
	return 0;
}

FILE *camp__fopen_regular(const char *path)
{
	/* O_NONBLOCK: opening a FIFO for reading must not wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	int e = EINVAL;
	if (fstat(fd, &st) != 0)
		e = errno;
	else if (S_ISREG(st.st_mode) && fcntl(fd, F_SETFL, 0) == 0) {
		FILE *f = fdopen(fd, "rb");
		if (f)
			return f;
		e = errno;
	}
	close(fd);
	errno = e;
	return NULL;
}

int camp__load_json(const char *path, json_t **root, char *err, size_t errsz)
{
	/* Opened here, not by json_load_file, to tell a missing file from bad JSON. */
	FILE *f = camp__fopen_regular(path);
	if (!f) {
		snprintf(err, errsz, "%s: cannot read: %s", path,
		         errno == EINVAL ? "not a regular file" : strerror(errno));
		return CAMP_EINPUT;
	}
	json_error_t je;
	*root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!*root) {
		snprintf(err, errsz, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return CAMP_EINPUT;
	}
	return 0;
}

int camp__fail_at(char *err, size_t errsz, const char *file, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errsz, "%s: at %s: %s", file, path, msg);
	return CAMP_EINPUT;
}

#define fail(c, path, ...) camp__fail_at((c)->err, (c)->errsz, (c)->file, (path), __VA_ARGS__)

/* The latency classes' names as one text, "int, imul, ...": the list joined
 * with a leading ", " that the + 2 skips. */
#define LAT_KEY(name, text) ", " text
#define LAT_KEYS (SC_LAT_LIST(LAT_KEY) + 2)

/* The keys of a GPU file: one per configuration field (SC_CONFIG_FIELDS);
 * the name brings "sources" with it. */
#define KEY_NAME(f) {#f, "sources", 0}
#define KEY_U32(f) {#f, NULL, 1}
#define KEY_SCHED(f) {#f, NULL, 0}
#define KEY_IBINV(f) {#f, NULL, 0}
#define KEY_LAT(f) {#f, NULL, 0}
#define KEY_MHZ(f) {#f, NULL, 0}
static const struct {
	const char *key, *with;
	int u32;
} keys[] = {
#define X(kind, field, lo, hi, gtx480) KEY_##kind(field),
	SC_CONFIG_FIELDS(X)
#undef X
};
#define N_KEYS (sizeof keys / sizeof keys[0])

static int known_top(const char *k)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (!strcmp(k, keys[i].key) || (keys[i].with && !strcmp(k, keys[i].with)))
			return 1;
	return 0;
}

/* Every key must be there. The uint32 keys are looked for first, then the
 * others: the order in which a file missing several has always been told. */
static int check_present(ctx_t *c, json_t *root)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < N_KEYS; i++) {
			if (keys[i].u32 != (pass == 0))
				continue;
			if (!json_object_get(root, keys[i].key))
				return fail(c, "$", "missing key '%s'", keys[i].key);
			if (keys[i].with && !json_object_get(root, keys[i].with))
				return fail(c, "$", "missing key '%s'", keys[i].with);
		}
	return 0;
}

static int get_u32(ctx_t *c, const char *path, json_t *v, uint32_t *out)
{
	if (!json_is_integer(v))
		return fail(c, path, "expected an integer");
	json_int_t x = json_integer_value(v);
	if (x < 0 || x > (json_int_t)UINT32_MAX)
		return fail(c, path, "expected an integer in 0..%u", UINT32_MAX);
	*out = (uint32_t)x;
	return 0;
}

/* One reader per kind of field. Each checks the JSON type (and that an
 * integer fits); the ranges are sc_config_check's. */
static int read_name(ctx_t *c, json_t *root, const char *key, char *out, size_t size)
{
	char path[128];
	json_t *v = json_object_get(root, key);
	snprintf(path, sizeof path, "$.%s", key);
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= size)
		return fail(c, path, "expected a string of 1..%zu characters", size - 1);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);

	/* "sources" documents the figures; it must be there, and be text. */
	v = json_object_get(root, "sources");
	if (!json_is_array(v) || json_array_size(v) == 0)
		return fail(c, "$.sources", "expected a non-empty array of strings");
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *s = json_array_get(v, i);
		if (!json_is_string(s) || json_string_length(s) == 0) {
			snprintf(path, sizeof path, "$.sources[%zu]", i);
			return fail(c, path, "expected a non-empty string");
		}
	}
	return 0;
}

static int read_u32(ctx_t *c, json_t *root, const char *key, uint32_t *out)
{
	char path[128];
	snprintf(path, sizeof path, "$.%s", key);
	return get_u32(c, path, json_object_get(root, key), out);
}

/* An enumerated field: a string that parse() knows (0), one of `choices`. */
static int read_enum(ctx_t *c, json_t *root, const char *key, const char *choices, int (*parse)(const char *, void *),
                     void *out)
{
	char path[128];
	json_t *v = json_object_get(root, key);
	snprintf(path, sizeof path, "$.%s", key);
	if (!json_is_string(v) || parse(json_string_value(v), out) != 0)
		return fail(c, path, "expected %s", choices);
	return 0;
}

static int parse_sched(const char *s, void *out) { return sc_sched_parse(s, out); }
static int parse_ibinv(const char *s, void *out) { return sc_ibinv_parse(s, out); }

static int read_lat(ctx_t *c, json_t *root, const char *key, uint32_t *out)
{
	char path[128], at[32];
	const char *k;
	json_t *v, *lat = json_object_get(root, key);
	snprintf(at, sizeof at, "$.%s", key);
	if (!json_is_object(lat))
		return fail(c, at, "expected an object with the keys %s", LAT_KEYS);
	json_object_foreach(lat, k, v) {
		int i;
		for (i = 0; i < SC_LAT__COUNT && strcmp(k, sc_lat_name((sc_lat_t)i)); i++)
			;
		if (i == SC_LAT__COUNT)
			return fail(c, at, "unknown key '%s'", k);
		snprintf(path, sizeof path, "%s.%s", at, k);
		int rc = get_u32(c, path, v, &out[i]);
		if (rc)
			return rc;
	}
	for (int i = 0; i < SC_LAT__COUNT; i++)
		if (!json_object_get(lat, sc_lat_name((sc_lat_t)i)))
			return fail(c, at, "missing key '%s'", sc_lat_name((sc_lat_t)i));
	return 0;
}

static int read_mhz(ctx_t *c, json_t *root, const char *key, double *out)
{
	char path[128];
	json_t *v = json_object_get(root, key);
	snprintf(path, sizeof path, "$.%s", key);
	if (!json_is_number(v))
		return fail(c, path, "expected a number (MHz)");
	*out = json_number_value(v);
	return 0;
}

#define READ_NAME(f) read_name(c, root, #f, cfg->f, sizeof cfg->f)
#define READ_U32(f) read_u32(c, root, #f, &cfg->f)
#define READ_SCHED(f) read_enum(c, root, #f, SC_SCHED_CHOICES, parse_sched, &cfg->f)
#define READ_IBINV(f) read_enum(c, root, #f, SC_IBINV_CHOICES, parse_ibinv, &cfg->f)
#define READ_LAT(f) read_lat(c, root, #f, cfg->f)
#define READ_MHZ(f) read_mhz(c, root, #f, &cfg->f)

static int parse_config(ctx_t *c, json_t *root, sc_gpu_config_t *cfg)
{
	const char *k;
	json_t *v;
	int rc;

	if (!json_is_object(root))
		return fail(c, "$", "expected an object");
	json_object_foreach(root, k, v)
		if (!known_top(k))
			return fail(c, "$", "unknown key '%s'", k);
	if ((rc = check_present(c, root)) != 0)
		return rc;

	memset(cfg, 0, sizeof *cfg);
#define X(kind, field, lo, hi, gtx480)      \
	if ((rc = READ_##kind(field)) != 0) \
		return rc;
	SC_CONFIG_FIELDS(X)
#undef X

	/* The simulator's own check is the one authority on ranges; its messages
	 * start with the field's name, which is also the JSON key. */
	char msg[256];
	if (sc_config_check(cfg, msg, sizeof msg) != 0) {
		snprintf(c->err, c->errsz, "%s: at $.%s", c->file, msg);
		return CAMP_EINPUT;
	}
	return 0;
}

static int parse_text(ctx_t *c, const char *text, size_t len, sc_gpu_config_t *out)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(c->err, c->errsz, "%s:%d:%d: %s", c->file, je.line, je.column, je.text);
		return CAMP_EINPUT;
	}
	sc_gpu_config_t cfg;
	int rc = parse_config(c, root, &cfg);
	json_decref(root);
	if (rc == 0)
		*out = cfg;
	return rc;
}

/* Reads a whole file; *text is NUL-terminated and owned by the caller. */
static int read_all(ctx_t *c, const char *path, char **text, size_t *len)
{
	FILE *f = camp__fopen_regular(path);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f) {
		snprintf(c->err, c->errsz, "%s: cannot read: %s", path,
		         errno == EINVAL ? "not a regular file" : strerror(errno));
		return CAMP_EINPUT;
	}
	for (;;) {
		if (cap - n < 4096 + 1) {
			size_t ncap = cap ? cap * 2 : 16384;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(c->err, c->errsz, "%s: out of memory", path);
				return CAMP_ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	int saved = errno;
	fclose(f);
	if (bad) {
		free(buf);
		snprintf(c->err, c->errsz, "%s: cannot read: %s", path, strerror(saved));
		return CAMP_EINPUT;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

static int is_path(const char *s)
{
	size_t n = strlen(s);
	return strchr(s, '/') != NULL || (n >= 5 && !strcmp(s + n - 5, ".json"));
}

int camp_gpu_load(const char *name_or_path, sc_gpu_config_t *out, char *err, size_t errsz)
{
	char dummy[1];
	ctx_t c = {name_or_path, err ? err : dummy, err ? errsz : sizeof dummy};
	if (c.errsz)
		c.err[0] = '\0';

	if (is_path(name_or_path)) {
		char *text;
		size_t len;
		int rc = read_all(&c, name_or_path, &text, &len);
		if (rc)
			return rc;
		rc = parse_text(&c, text, len, out);
		free(text);
		return rc;
	}

	for (size_t i = 0; camp__gpu_names[i]; i++) {
		if (strcmp(camp__gpu_names[i], name_or_path))
			continue;
		char label[128];
		snprintf(label, sizeof label, "campaigns/gpus/%s.json", camp__gpu_names[i]);
		c.file = label;
		return parse_text(&c, camp__gpu_json[i], camp__gpu_json_size[i], out);
	}

	size_t off = (size_t)snprintf(c.err, c.errsz, "unknown GPU '%s' (known:", name_or_path);
	for (size_t i = 0; camp__gpu_names[i] && off < c.errsz; i++)
		off += (size_t)snprintf(c.err + off, c.errsz - off, "%s %s", i ? "," : "",
		                        camp__gpu_names[i]);
	if (off < c.errsz)
		snprintf(c.err + off, c.errsz - off, ")");
	return CAMP_EINPUT;
}
