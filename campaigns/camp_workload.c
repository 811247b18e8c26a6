/* Workload JSON: parsing and validation into plain structs, and the
 * initial contents of buffers (zeros, file, values, iota, random).
 * Format: docs/DESIGN.md ("Workload JSON"); the random generator is the
 * one tests/ptx/ref_common.h documents (xoshiro256** seeded by splitmix64). */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "camp_int.h"
#include "masks.h"

/* Buffers hold at most this many bytes each (the simulator's memory is host
 * memory; larger inputs are surely mistakes). */
#define MAX_BUFFER_BYTES (UINT64_C(1) << 32)
#define MAX_DIM 2147483647
#define MAX_REPEAT 2147483647
#define MAX_NAME 63

static const struct {
	const char *name;
	uint8_t bytes, is_float, is_signed;
} types[CAMP_T__COUNT] = {
#define X(name, text, bytes, fl, sg) [CAMP_T_##name] = {text, bytes, fl, sg},
	CAMP_TYPE_LIST(X)
#undef X
};

const char *camp_type_name(camp_type_t t)
{
	return (unsigned)t < CAMP_T__COUNT ? types[t].name : "?";
}

uint32_t camp_type_size(camp_type_t t)
{
	return (unsigned)t < CAMP_T__COUNT ? types[t].bytes : 0;
}

static int type_from_name(const char *s, camp_type_t *t)
{
	for (int i = 0; i < CAMP_T__COUNT; i++)
		if (!strcmp(s, types[i].name)) {
			*t = (camp_type_t)i;
			return 1;
		}
	return 0;
}

/* ---- little-endian element storage ------------------------------------- */

static void store_le(uint8_t *dst, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
}

/* Stores a value already in range: integers as 64-bit patterns (truncated
 * to the type, i.e. wrapping), floats from a double rounded to the type. */
static void store_int(uint8_t *dst, camp_type_t t, uint64_t v)
{
	store_le(dst, v, types[t].bytes);
}

static void store_float(uint8_t *dst, camp_type_t t, double d)
{
	if (t == CAMP_T_F32) {
		float f = (float)d;
		uint32_t bits;
		memcpy(&bits, &f, sizeof bits);
		store_le(dst, bits, 4);
	} else {
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		store_le(dst, bits, 8);
	}
}

/* The random generator is masks/'s xoshiro256** with the plain seeding the
 * workload format specifies (mask_rng_seed); tests/ptx/ref_common.h is an
 * independent implementation the conformance suite checks it against. */

/* ---- parsing context and messages -------------------------------------- */

typedef struct ctx {
	const char *file;  /* the JSON file as given */
	char *err;
	size_t errsz;
	camp_workload_t *w;
} ctx_t;

#define fail(c, path, ...) camp__fail_at((c)->err, (c)->errsz, (c)->file, (path), __VA_ARGS__)
#define check_keys(c, path, obj, known) camp__check_keys((c)->err, (c)->errsz, (c)->file, (path), (obj), (known))
#define require(c, path, obj, key, out) camp__require((c)->err, (c)->errsz, (c)->file, (path), (obj), (key), (out))

static int nomem(ctx_t *c)
{
	snprintf(c->err, c->errsz, "%s: out of memory", c->file);
	return CAMP_ENOMEM;
}

/* JSON paths are built in fixed buffers; paths are short (names <= 63). */
typedef char path_t[256];

/* Formats a JSON path into dst (vsnprintf: truncation is harmless here). */
static void at(char *dst, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(dst, sizeof(path_t), fmt, ap);
	va_end(ap);
}

/* ---- numbers ------------------------------------------------------------ */

static int64_t int_min(camp_type_t t)
{
	unsigned bits = 8u * types[t].bytes;
	return types[t].is_signed ? (int64_t)(-(UINT64_C(1) << (bits - 1))) : 0;
}

static uint64_t int_max(camp_type_t t)
{
	unsigned bits = 8u * types[t].bytes;
	if (types[t].is_signed)
		return (UINT64_C(1) << (bits - 1)) - 1;
	return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static int int_fits(camp_type_t t, json_int_t v)
{
	if (v < 0)
		return types[t].is_signed && v >= int_min(t);
	return (uint64_t)v <= int_max(t);
}

static const char *range_text(camp_type_t t, char *buf, size_t n)
{
	snprintf(buf, n, "%" PRId64 "..%" PRIu64, int_min(t), int_max(t));
	return buf;
}

/* An integer of type t: returns its 64-bit two's-complement pattern. */
static int get_int(ctx_t *c, const char *path, json_t *v, camp_type_t t, uint64_t *out)
{
	char r[64];
	if (!json_is_integer(v) || !int_fits(t, json_integer_value(v)))
		return fail(c, path, "expected an integer in %s (%s)", range_text(t, r, sizeof r),
		            types[t].name);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* Rounds d to float as strtof would round the decimal text d came from.
 * Both agree unless d lies exactly halfway between two floats: then the text
 * may have been just above or below and the double cannot say; reject. */
static int round_f32(double d, float *out)
{
	float f = (float)d;
	if (isinf(f))
		return -1;
	if ((double)f != d) {
		float g = nextafterf(f, d > (double)f ? INFINITY : -INFINITY);
		if (!isinf(g) && ((double)f + (double)g) / 2 == d)
			return -2;
	}
	*out = f;
	return 0;
}

/* A JSON number for a float type, converted as strtod would (doubles come
 * from jansson's strtod; integers convert exactly rounded). */
static int get_float(ctx_t *c, const char *path, json_t *v, camp_type_t t, double *out)
{
	if (!json_is_number(v))
		return fail(c, path, "expected a number (%s)", types[t].name);
	if (t == CAMP_T_F64) {
		*out = json_is_integer(v) ? (double)json_integer_value(v) : json_real_value(v);
		return 0;
	}
	float f;
	if (json_is_integer(v)) {
		f = (float)json_integer_value(v);
	} else {
		int rc = round_f32(json_real_value(v), &f);
		if (rc == -1)
			return fail(c, path, "expected a number in the f32 range (magnitude below "
			            "3.4028235e38)");
		if (rc == -2)
			return fail(c, path, "%.17g lies halfway between two f32 values, so its "
			            "rounding depends on digits a double cannot hold; write the "
			            "intended f32 value", json_real_value(v));
	}
	*out = f;
	return 0;
}

/* A number for the random bounds or iota of a float buffer (any finite double). */
/* ---- buffers ------------------------------------------------------------ */

static int valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > MAX_NAME || s[0] == '.' || s[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.'))
			return 0;
	}
	return 1;
}

/* Resolves p against the folder of the JSON file (absolute p stays). */
static char *resolve(const char *json_path, const char *p)
{
	const char *slash = strrchr(json_path, '/');
	if (p[0] == '/' || !slash)
		return strdup(p);
	size_t dn = (size_t)(slash - json_path) + 1, pn = strlen(p) + 1;
	char *r = malloc(dn + pn);
	if (r) {
		memcpy(r, json_path, dn);
		memcpy(r + dn, p, pn);
	}
	return r;
}

static int parse_init_file(ctx_t *c, const char *path, json_t *v, camp_buffer_t *b)
{
	if (!json_is_string(v) || json_string_length(v) == 0)
		return fail(c, path, "expected a file name (a non-empty string)");
	b->file = resolve(c->file, json_string_value(v));
	if (!b->file)
		return nomem(c);
	struct stat st;
	if (stat(b->file, &st) != 0)
		return fail(c, path, "cannot read '%s': %s", b->file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(c, path, "'%s' is not a regular file", b->file);
	uint64_t want = b->count * types[b->type].bytes;
	if ((uint64_t)st.st_size != want)
		return fail(c, path, "'%s' holds %jd bytes, expected %" PRIu64 " (%" PRIu64
		            " x %s)", b->file, (intmax_t)st.st_size, want, b->count,
		            types[b->type].name);
	b->init = CAMP_INIT_FILE;
	return 0;
}

static int parse_init_values(ctx_t *c, const char *path, json_t *v, camp_buffer_t *b)
{
	path_t p;
	if (!json_is_array(v))
		return fail(c, path, "expected an array of %" PRIu64 " values", b->count);
	if ((uint64_t)json_array_size(v) != b->count)
		return fail(c, path, "expected exactly %" PRIu64 " values (count), got %zu",
		            b->count, json_array_size(v));
	unsigned sz = types[b->type].bytes;
	b->values = malloc(b->count * sz);
	if (!b->values)
		return nomem(c);
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *e = json_array_get(v, i);
		int rc;
		at(p, "%s[%zu]", path, i);
		if (types[b->type].is_float) {
			double d;
			rc = get_float(c, p, e, b->type, &d);
			if (!rc)
				store_float(b->values + i * sz, b->type, d);
		} else {
			uint64_t x;
			rc = get_int(c, p, e, b->type, &x);
			if (!rc)
				store_int(b->values + i * sz, b->type, x);
		}
		if (rc)
			return rc;
	}
	b->init = CAMP_INIT_VALUES;
	return 0;
}

/* The i-th iota value of a float buffer, rounded to its type. */
static double iota_float(const camp_buffer_t *b, uint64_t i)
{
	double d = b->start.f + (double)i * b->step.f;
	return b->type == CAMP_T_F32 ? (double)(float)d : d;
}

static int parse_init_iota(ctx_t *c, const char *path, json_t *v, camp_buffer_t *b)
{
	static const char *const keys[] = {"start", "step", NULL};
	path_t p;
	json_t *start, *step;
	int rc;
	if (!json_is_object(v))
		return fail(c, path, "expected {\"start\": S, \"step\": D}");
	if ((rc = check_keys(c, path, v, keys)) || (rc = require(c, path, v, "start", &start)) ||
	    (rc = require(c, path, v, "step", &step)))
		return rc;
	if (types[b->type].is_float) {
		at(p, "%s.start", path);
		if (!json_is_number(start))
			return fail(c, p, "expected a number");
		at(p, "%s.step", path);
		if (!json_is_number(step))
			return fail(c, p, "expected a number");
		b->start.f = json_number_value(start);
		b->step.f = json_number_value(step);
		/* Linear, so the extremes are the ends. */
		if (!isfinite(iota_float(b, 0)) || !isfinite(iota_float(b, b->count - 1)))
			return fail(c, path, "the values leave the %s range", types[b->type].name);
	} else {
		at(p, "%s.start", path);
		if ((rc = get_int(c, p, start, b->type, &b->start.u)))
			return rc;
		/* The step is taken modulo 2^bits, so accept either reading of it. */
		at(p, "%s.step", path);
		unsigned bits = 8u * types[b->type].bytes;
		json_int_t d = json_is_integer(step) ? json_integer_value(step) : 0;
		if (!json_is_integer(step) ||
		    (bits < 64 && (d < -(json_int_t)(INT64_C(1) << (bits - 1)) ||
		                   d > (json_int_t)((INT64_C(1) << bits) - 1))))
			return fail(c, p, "expected an integer in %" PRId64 "..%" PRIu64 " (%s, "
			            "wrapping)", bits < 64 ? -(INT64_C(1) << (bits - 1)) : INT64_MIN,
			            bits < 64 ? (UINT64_C(1) << bits) - 1 : (uint64_t)INT64_MAX,
			            types[b->type].name);
		b->step.u = (uint64_t)d;
	}
	b->init = CAMP_INIT_IOTA;
	return 0;
}

static int parse_init_random(ctx_t *c, const char *path, json_t *v, camp_buffer_t *b)
{
	static const char *const keys[] = {"seed", "min", "max", NULL};
	path_t p;
	json_t *seed, *mn, *mx;
	int rc;
	if (!json_is_object(v))
		return fail(c, path, "expected {\"seed\": N, \"min\": A, \"max\": B}");
	if ((rc = check_keys(c, path, v, keys)) || (rc = require(c, path, v, "seed", &seed)))
		return rc;
	at(p, "%s.seed", path);
	if (!json_is_integer(seed) || json_integer_value(seed) < 0)
		return fail(c, p, "expected an integer in 0..%" PRId64, INT64_MAX);
	b->seed = (uint64_t)json_integer_value(seed);
	mn = json_object_get(v, "min");
	mx = json_object_get(v, "max");
	if (types[b->type].is_float) {
		b->min.f = 0.0;
		b->max.f = 1.0;
		at(p, "%s.min", path);
		if (mn && !json_is_number(mn))
			return fail(c, p, "expected a number");
		at(p, "%s.max", path);
		if (mx && !json_is_number(mx))
			return fail(c, p, "expected a number");
		if (mn)
			b->min.f = json_number_value(mn);
		if (mx)
			b->max.f = json_number_value(mx);
		if (!(b->min.f <= b->max.f))
			return fail(c, path, "expected min <= max, got %.17g > %.17g", b->min.f,
			            b->max.f);
		if (!isfinite(b->max.f - b->min.f))
			return fail(c, path, "max - min overflows a double");
		if (b->type == CAMP_T_F32) {
			float f;
			if (round_f32(b->min.f, &f) == -1 || round_f32(b->max.f, &f) == -1)
				return fail(c, path, "min and max must lie in the f32 range");
		}
	} else {
		b->min.u = (uint64_t)int_min(b->type);
		b->max.u = int_max(b->type);
		at(p, "%s.min", path);
		if (mn && (rc = get_int(c, p, mn, b->type, &b->min.u)))
			return rc;
		at(p, "%s.max", path);
		if (mx && (rc = get_int(c, p, mx, b->type, &b->max.u)))
			return rc;
		int gt = types[b->type].is_signed ? (int64_t)b->min.u > (int64_t)b->max.u
		                                  : b->min.u > b->max.u;
		if (gt)
			return fail(c, path, "expected min <= max");
	}
	b->init = CAMP_INIT_RANDOM;
	return 0;
}

static int parse_buffer(ctx_t *c, const char *name, json_t *v, camp_buffer_t *b)
{
	static const char *const keys[] = {"type", "count", "init", NULL};
	path_t path, p;
	json_t *type, *count, *init;
	int rc;

	at(path, "$.buffers.%s", name);
	if (!valid_name(name)) {
		at(path, "$.buffers[\"%.64s\"]", name);
		return fail(c, path, "a buffer name is 1..%d letters, digits, '_', '-' or '.', "
		            "not starting with '.' or '-' (it names the dump file)", MAX_NAME);
	}
	if (!(b->name = strdup(name)))
		return nomem(c);
	if (!json_is_object(v))
		return fail(c, path, "expected {\"type\": T, \"count\": N, \"init\": {...}}");
	if ((rc = check_keys(c, path, v, keys)) || (rc = require(c, path, v, "type", &type)) ||
	    (rc = require(c, path, v, "count", &count)))
		return rc;
	at(p, "%s.type", path);
	if (!json_is_string(type) || !type_from_name(json_string_value(type), &b->type))
		return fail(c, p, "expected one of u8, i8, u16, i16, u32, i32, u64, i64, f32, f64");
	at(p, "%s.count", path);
	uint64_t max_count = MAX_BUFFER_BYTES / types[b->type].bytes;
	if (!json_is_integer(count) || json_integer_value(count) < 1 ||
	    (uint64_t)json_integer_value(count) > max_count)
		return fail(c, p, "expected an integer in 1..%" PRIu64, max_count);
	b->count = (uint64_t)json_integer_value(count);

	b->init = CAMP_INIT_ZERO;
	init = json_object_get(v, "init");
	if (!init)
		return 0;
	at(p, "%s.init", path);
	if (!json_is_object(init) || json_object_size(init) != 1)
		return fail(c, p, "expected an object with one key: file, values, iota or random");
	const char *kind = json_object_iter_key(json_object_iter(init));
	json_t *arg = json_object_iter_value(json_object_iter(init));
	path_t ip;
	at(ip, "%s.%s", p, kind);
	if (!strcmp(kind, "file"))
		return parse_init_file(c, ip, arg, b);
	if (!strcmp(kind, "values"))
		return parse_init_values(c, ip, arg, b);
	if (!strcmp(kind, "iota"))
		return parse_init_iota(c, ip, arg, b);
	if (!strcmp(kind, "random"))
		return parse_init_random(c, ip, arg, b);
	return fail(c, p, "unknown key '%s' (expected file, values, iota or random)", kind);
}

static int parse_buffers(ctx_t *c, json_t *v)
{
	camp_workload_t *w = c->w;
	if (!json_is_object(v) || json_object_size(v) == 0)
		return fail(c, "$.buffers", "expected an object of buffers, {\"name\": {\"type\": T, "
		            "\"count\": N}, ...}");
	w->buffers = calloc(json_object_size(v), sizeof *w->buffers);
	if (!w->buffers)
		return nomem(c);
	const char *k;
	json_t *b;
	/* jansson keeps keys in file order: buffers are allocated in that order. */
	json_object_foreach(v, k, b) {
		int rc = parse_buffer(c, k, b, &w->buffers[w->nbuffers++]);
		if (rc)
			return rc;
	}
	return 0;
}

static int find_buffer(const camp_workload_t *w, const char *name)
{
	for (uint32_t i = 0; i < w->nbuffers; i++)
		if (!strcmp(w->buffers[i].name, name))
			return (int)i;
	return -1;
}

const camp_buffer_t *camp_workload_buffer(const camp_workload_t *w, const char *name)
{
	int i = find_buffer(w, name);
	return i < 0 ? NULL : &w->buffers[i];
}

static int unknown_buffer(ctx_t *c, const char *path, const char *name)
{
	char list[300] = "";
	size_t off = 0;
	for (uint32_t i = 0; i < c->w->nbuffers && off < sizeof list; i++)
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? ", " : "",
		                        c->w->buffers[i].name);
	return fail(c, path, "unknown buffer '%s' (buffers: %s)", name, list);
}

/* ---- launches ----------------------------------------------------------- */

static int parse_dims(ctx_t *c, const char *path, json_t *v, sc_dim3_t *d)
{
	uint32_t x[3] = {1, 1, 1};
	if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
		return fail(c, path, "expected an array of 1 to 3 integers, e.g. [256] or [16, 16]");
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *e = json_array_get(v, i);
		if (!json_is_integer(e) || json_integer_value(e) < 1 ||
		    json_integer_value(e) > MAX_DIM) {
			path_t p;
			at(p, "%s[%zu]", path, i);
			return fail(c, p, "expected an integer in 1..%d", MAX_DIM);
		}
		x[i] = (uint32_t)json_integer_value(e);
	}
	d->x = x[0];
	d->y = x[1];
	d->z = x[2];
	return 0;
}

static int parse_arg(ctx_t *c, const char *path, json_t *v, const camp_launch_t *l,
                     camp_arg_t *a)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (!strcmp(s, "$iter"))
			return fail(c, path, "\"$iter\" is a scalar's value: write {\"i32\": \"$iter\"} "
			            "(or another type)");
		int i = find_buffer(c->w, s);
		if (i < 0)
			return unknown_buffer(c, path, s);
		a->kind = CAMP_ARG_BUFFER;
		a->buffer = (uint32_t)i;
		return 0;
	}
	if (!json_is_object(v) || json_object_size(v) != 1)
		return fail(c, path, "expected a buffer name or a scalar {\"<type>\": value}");
	const char *tn = json_object_iter_key(json_object_iter(v));
	json_t *val = json_object_iter_value(json_object_iter(v));
	if (!type_from_name(tn, &a->type))
		return fail(c, path, "unknown scalar type '%s' (expected u8, i8, u16, i16, u32, "
		            "i32, u64, i64, f32 or f64)", tn);
	path_t p;
	at(p, "%s.%s", path, tn);
	if (json_is_string(val)) {
		if (strcmp(json_string_value(val), "$iter"))
			return fail(c, p, "expected a number or \"$iter\"");
		if (!types[a->type].is_float && (uint64_t)(l->repeat - 1) > int_max(a->type))
			return fail(c, p, "\"$iter\" reaches %u, which does not fit %s", l->repeat - 1,
			            types[a->type].name);
		a->kind = CAMP_ARG_ITER;
		return 0;
	}
	int rc;
	if (types[a->type].is_float) {
		double d;
		if ((rc = get_float(c, p, val, a->type, &d)))
			return rc;
		store_float(a->bytes, a->type, d);
	} else {
		uint64_t x;
		if ((rc = get_int(c, p, val, a->type, &x)))
			return rc;
		store_int(a->bytes, a->type, x);
	}
	a->kind = CAMP_ARG_SCALAR;
	return 0;
}

static int parse_launch(ctx_t *c, size_t idx, json_t *v, camp_launch_t *l)
{
	static const char *const keys[] = {"kernel", "grid", "block", "shared", "repeat", "args",
	                                   NULL};
	path_t path, p;
	json_t *kernel, *grid, *block, *args, *x;
	int rc;

	at(path, "$.launches[%zu]", idx);
	if (!json_is_object(v))
		return fail(c, path, "expected {\"kernel\": K, \"grid\": [..], \"block\": [..], "
		            "\"args\": [..]}");
	if ((rc = check_keys(c, path, v, keys)) || (rc = require(c, path, v, "kernel", &kernel)) ||
	    (rc = require(c, path, v, "grid", &grid)) ||
	    (rc = require(c, path, v, "block", &block)) ||
	    (rc = require(c, path, v, "args", &args)))
		return rc;
	at(p, "%s.kernel", path);
	if (!json_is_string(kernel) || json_string_length(kernel) == 0)
		return fail(c, p, "expected a kernel name (a non-empty string)");
	if (!(l->kernel = strdup(json_string_value(kernel))))
		return nomem(c);
	at(p, "%s.grid", path);
	if ((rc = parse_dims(c, p, grid, &l->grid)))
		return rc;
	at(p, "%s.block", path);
	if ((rc = parse_dims(c, p, block, &l->block)))
		return rc;
	l->shared = 0;
	if ((x = json_object_get(v, "shared"))) {
		at(p, "%s.shared", path);
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > (json_int_t)UINT32_MAX)
			return fail(c, p, "expected an integer in 0..%u (bytes of dynamic shared "
			            "memory)", UINT32_MAX);
		l->shared = (uint32_t)json_integer_value(x);
	}
	l->repeat = 1;
	if ((x = json_object_get(v, "repeat"))) {
		at(p, "%s.repeat", path);
		if (!json_is_integer(x) || json_integer_value(x) < 1 ||
		    json_integer_value(x) > MAX_REPEAT)
			return fail(c, p, "expected an integer in 1..%d", MAX_REPEAT);
		l->repeat = (uint32_t)json_integer_value(x);
	}
	at(p, "%s.args", path);
	if (!json_is_array(args))
		return fail(c, p, "expected an array of arguments (buffer names and scalars)");
	if (json_array_size(args) > 0) {
		l->args = calloc(json_array_size(args), sizeof *l->args);
		if (!l->args)
			return nomem(c);
	}
	for (size_t i = 0; i < json_array_size(args); i++) {
		path_t ap;
		at(ap, "%s.args[%zu]", path, i);
		if ((rc = parse_arg(c, ap, json_array_get(args, i), l, &l->args[l->nargs++])))
			return rc;
	}
	return 0;
}

static int parse_launches(ctx_t *c, json_t *v)
{
	camp_workload_t *w = c->w;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return fail(c, "$.launches", "expected a non-empty array of launches");
	w->launches = calloc(json_array_size(v), sizeof *w->launches);
	if (!w->launches)
		return nomem(c);
	for (size_t i = 0; i < json_array_size(v); i++) {
		int rc = parse_launch(c, i, json_array_get(v, i), &w->launches[w->nlaunches++]);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_outputs(ctx_t *c, json_t *v)
{
	camp_workload_t *w = c->w;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return fail(c, "$.outputs", "expected a non-empty array of buffer names");
	w->outputs = calloc(json_array_size(v), sizeof *w->outputs);
	if (!w->outputs)
		return nomem(c);
	for (size_t i = 0; i < json_array_size(v); i++) {
		path_t p;
		json_t *e = json_array_get(v, i);
		at(p, "$.outputs[%zu]", i);
		if (!json_is_string(e))
			return fail(c, p, "expected a buffer name");
		int b = find_buffer(w, json_string_value(e));
		if (b < 0)
			return unknown_buffer(c, p, json_string_value(e));
		for (uint32_t j = 0; j < w->noutputs; j++)
			if (w->outputs[j] == (uint32_t)b)
				return fail(c, p, "buffer '%s' is listed twice", json_string_value(e));
		w->outputs[w->noutputs++] = (uint32_t)b;
	}
	return 0;
}

/* "tolerance": {"<output>": rel, ...}: how far a float output may move, relative
 * to the golden value, and still count as correct (the classifier applies it). */
static int parse_tolerance(ctx_t *c, json_t *v)
{
	camp_workload_t *w = c->w;
	const char *k;
	json_t *x;
	if (!json_is_object(v))
		return fail(c, "$.tolerance", "expected an object {\"<output buffer>\": relative "
		            "tolerance, ...}");
	json_object_foreach(v, k, x) {
		path_t p;
		int b = find_buffer(w, k);
		at(p, "$.tolerance.%s", k);
		if (b < 0)
			return unknown_buffer(c, p, k);
		uint32_t j;
		for (j = 0; j < w->noutputs && w->outputs[j] != (uint32_t)b; j++)
			;
		if (j == w->noutputs)
			return fail(c, p, "buffer '%s' is not an output (tolerances apply to outputs)",
			            k);
		if (!types[w->buffers[b].type].is_float)
			return fail(c, p, "buffer '%s' is %s: tolerances apply only to f32 and f64 "
			            "outputs (integers compare exactly)", k,
			            types[w->buffers[b].type].name);
		if (!json_is_number(x) || !(json_number_value(x) >= 0) || !isfinite(json_number_value(x)))
			return fail(c, p, "expected a number >= 0 (relative tolerance; 0 = exact)");
		w->buffers[b].tolerance = json_number_value(x);
	}
	return 0;
}

static int parse_workload(ctx_t *c, json_t *root)
{
	static const char *const keys[] = {"name", "ptx", "buffers", "launches", "outputs",
	                                   "tolerance", NULL};
	camp_workload_t *w = c->w;
	json_t *name, *ptx, *buffers, *launches, *outputs;
	int rc;

	if (!json_is_object(root))
		return fail(c, "$", "expected an object");
	if ((rc = check_keys(c, "$", root, keys)) || (rc = require(c, "$", root, "name", &name)) ||
	    (rc = require(c, "$", root, "ptx", &ptx)) ||
	    (rc = require(c, "$", root, "buffers", &buffers)) ||
	    (rc = require(c, "$", root, "launches", &launches)) ||
	    (rc = require(c, "$", root, "outputs", &outputs)))
		return rc;
	if (!json_is_string(name) || json_string_length(name) == 0)
		return fail(c, "$.name", "expected a non-empty string");
	if (!(w->name = strdup(json_string_value(name))))
		return nomem(c);
	if (!json_is_string(ptx) || json_string_length(ptx) == 0)
		return fail(c, "$.ptx", "expected the PTX file's name (a non-empty string)");
	if (!(w->ptx = resolve(c->file, json_string_value(ptx))))
		return nomem(c);
	FILE *f = camp__fopen_regular(w->ptx);
	if (!f)
		return fail(c, "$.ptx", "cannot read '%s': %s", w->ptx,
		            errno == EINVAL ? "not a regular file" : strerror(errno));
	fclose(f);
	if ((rc = parse_buffers(c, buffers)) || (rc = parse_launches(c, launches)) ||
	    (rc = parse_outputs(c, outputs)))
		return rc;
	json_t *tol = json_object_get(root, "tolerance");
	return tol ? parse_tolerance(c, tol) : 0;
}

int camp_workload_load(const char *path, camp_workload_t **out, char *err, size_t errsz)
{
	char dummy[1];
	ctx_t c = {path, err ? err : dummy, err ? errsz : sizeof dummy, NULL};
	json_t *root;
	int rc;

	*out = NULL;
	if (c.errsz)
		c.err[0] = '\0';
	if ((rc = camp__load_json(path, &root, c.err, c.errsz)))
		return rc;
	c.w = calloc(1, sizeof *c.w);
	if (!c.w || !(c.w->path = strdup(path))) {
		rc = nomem(&c);
		goto fail;
	}
	if ((rc = parse_workload(&c, root)))
		goto fail;
	json_decref(root);
	*out = c.w;
	return 0;
fail:
	json_decref(root);
	camp_workload_destroy(c.w);
	return rc;
}

void camp_workload_destroy(camp_workload_t *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->nbuffers; i++) {
		free(w->buffers[i].name);
		free(w->buffers[i].file);
		free(w->buffers[i].values);
	}
	for (uint32_t i = 0; i < w->nlaunches; i++) {
		free(w->launches[i].kernel);
		free(w->launches[i].args);
	}
	free(w->buffers);
	free(w->launches);
	free(w->outputs);
	free(w->name);
	free(w->ptx);
	free(w->path);
	free(w);
}

/* ---- initial contents --------------------------------------------------- */

static int fill_file(const camp_buffer_t *b, uint8_t *dst, uint64_t bytes, char *err,
                     size_t errsz)
{
	FILE *f = camp__fopen_regular(b->file);
	if (!f) {
		snprintf(err, errsz, "%s: cannot read: %s", b->file,
		         errno == EINVAL ? "not a regular file" : strerror(errno));
		return CAMP_EINPUT;
	}
	size_t got = fread(dst, 1, (size_t)bytes, f);
	int extra = fgetc(f) != EOF;
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		snprintf(err, errsz, "%s: read error", b->file);
		return CAMP_EIO;
	}
	if (got != bytes || extra) {
		snprintf(err, errsz, "%s: changed size since the workload was loaded (expected %"
		         PRIu64 " bytes)", b->file, bytes);
		return CAMP_EINPUT;
	}
	return 0;
}

int camp_buffer_fill(const camp_buffer_t *b, void *dst, char *err, size_t errsz)
{
	char dummy[1];
	unsigned sz = types[b->type].bytes;
	uint64_t bytes = b->count * sz;
	uint8_t *d = dst;
	mask_rng_t r;

	if (!err) {
		err = dummy;
		errsz = sizeof dummy;
	}
	switch (b->init) {
	case CAMP_INIT_ZERO:
		memset(d, 0, (size_t)bytes);
		return 0;
	case CAMP_INIT_FILE:
		return fill_file(b, d, bytes, err, errsz);
	case CAMP_INIT_VALUES:
		memcpy(d, b->values, (size_t)bytes);
		return 0;
	case CAMP_INIT_IOTA:
		for (uint64_t i = 0; i < b->count; i++) {
			if (types[b->type].is_float)
				store_float(d + i * sz, b->type, iota_float(b, i));
			else
				store_int(d + i * sz, b->type, b->start.u + i * b->step.u);
		}
		return 0;
	case CAMP_INIT_RANDOM:
		mask_rng_seed(&r, b->seed);
		if (types[b->type].is_float) {
			/* Built with ISO C (-std=c11): no FMA contraction of min + span * u. */
			double span = b->max.f - b->min.f;
			for (uint64_t i = 0; i < b->count; i++) {
				double u = (double)(mask_rng_next(&r) >> 11) * 0x1.0p-53;
				store_float(d + i * sz, b->type, b->min.f + span * u);
			}
		} else {
			uint64_t span = b->max.u - b->min.u + 1;  /* 0: the full 64-bit range */
			for (uint64_t i = 0; i < b->count; i++) {
				uint64_t x = mask_rng_next(&r);
				store_int(d + i * sz, b->type, b->min.u + (span ? x % span : x));
			}
		}
		return 0;
	}
	snprintf(err, errsz, "buffer '%s': unknown init kind", b->name);
	return CAMP_EINPUT;
}
