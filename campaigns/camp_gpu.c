/* GPU-configuration JSON: the presets embedded in the binary and files named
 * on the command line, both checked key by key and then by sc_config_check.
 * Format: one key per sc_gpu_config_t field (simcore.h), plus "name" and
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

/* The uint32 fields, in the order the files list them. */
#define U32_KEYS(X)                                                       \
	X(num_sms) X(warp_size) X(max_threads_per_sm) X(max_ctas_per_sm)      \
	X(max_warps_per_sm) X(max_threads_per_cta) X(regs_per_sm)             \
	X(max_regs_per_thread) X(smem_per_sm) X(max_smem_per_cta)             \
	X(preds_per_thread) X(ib_entries) X(simt_stack_depth)                 \
	X(schedulers_per_sm)

static const struct {
	const char *key;
	size_t off;
} u32_keys[] = {
#define X(f) {#f, offsetof(sc_gpu_config_t, f)},
	U32_KEYS(X)
#undef X
};
#define N_U32 (sizeof u32_keys / sizeof u32_keys[0])

static const char *const other_keys[] = {"name", "sources", "scheduler", "latency",
                                         "clock_mhz"};
#define N_OTHER (sizeof other_keys / sizeof other_keys[0])

static const char *const lat_keys[SC_LAT__COUNT] = {
#define X(name, text) [SC_LAT_##name] = text,
	SC_LAT_LIST(X)
#undef X
};

static int known_top(const char *k)
{
	for (size_t i = 0; i < N_U32; i++)
		if (!strcmp(k, u32_keys[i].key))
			return 1;
	for (size_t i = 0; i < N_OTHER; i++)
		if (!strcmp(k, other_keys[i]))
			return 1;
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

static int parse_latency(ctx_t *c, json_t *lat, sc_gpu_config_t *cfg)
{
	char path[128];
	const char *k;
	json_t *v;
	if (!json_is_object(lat))
		return fail(c, "$.latency", "expected an object with the keys int, imul, fp32, "
		            "fp64, sfu, cvt, shared, global, local, const, atomic, branch, warp");
	json_object_foreach(lat, k, v) {
		int i;
		for (i = 0; i < SC_LAT__COUNT && strcmp(k, lat_keys[i]); i++)
			;
		if (i == SC_LAT__COUNT)
			return fail(c, "$.latency", "unknown key '%s'", k);
		snprintf(path, sizeof path, "$.latency.%s", k);
		int rc = get_u32(c, path, v, &cfg->latency[i]);
		if (rc)
			return rc;
	}
	for (int i = 0; i < SC_LAT__COUNT; i++)
		if (!json_object_get(lat, lat_keys[i]))
			return fail(c, "$.latency", "missing key '%s'", lat_keys[i]);
	return 0;
}

static int parse_config(ctx_t *c, json_t *root, sc_gpu_config_t *cfg)
{
	const char *k;
	json_t *v;
	char path[128];
	int rc;

	if (!json_is_object(root))
		return fail(c, "$", "expected an object");
	json_object_foreach(root, k, v)
		if (!known_top(k))
			return fail(c, "$", "unknown key '%s'", k);
	for (size_t i = 0; i < N_U32; i++)
		if (!json_object_get(root, u32_keys[i].key))
			return fail(c, "$", "missing key '%s'", u32_keys[i].key);
	for (size_t i = 0; i < N_OTHER; i++)
		if (!json_object_get(root, other_keys[i]))
			return fail(c, "$", "missing key '%s'", other_keys[i]);

	memset(cfg, 0, sizeof *cfg);
	v = json_object_get(root, "name");
	if (!json_is_string(v) || json_string_length(v) == 0 ||
	    json_string_length(v) >= sizeof cfg->name)
		return fail(c, "$.name", "expected a string of 1..%zu characters",
		            sizeof cfg->name - 1);
	memcpy(cfg->name, json_string_value(v), json_string_length(v) + 1);

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

	for (size_t i = 0; i < N_U32; i++) {
		snprintf(path, sizeof path, "$.%s", u32_keys[i].key);
		rc = get_u32(c, path, json_object_get(root, u32_keys[i].key),
		             (uint32_t *)((char *)cfg + u32_keys[i].off));
		if (rc)
			return rc;
	}

	v = json_object_get(root, "scheduler");
	const char *s = json_is_string(v) ? json_string_value(v) : "";
	if (!strcmp(s, "lrr"))
		cfg->scheduler = SC_SCHED_LRR;
	else if (!strcmp(s, "gto"))
		cfg->scheduler = SC_SCHED_GTO;
	else
		return fail(c, "$.scheduler", "expected \"lrr\" or \"gto\"");

	rc = parse_latency(c, json_object_get(root, "latency"), cfg);
	if (rc)
		return rc;

	v = json_object_get(root, "clock_mhz");
	if (!json_is_number(v))
		return fail(c, "$.clock_mhz", "expected a number (MHz)");
	cfg->clock_mhz = json_number_value(v);

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
