/* Campaign JSON: parsing and validation into camp_campaign_t (defaults
 * filled, workload and GPU loaded), and the canonical text and hash that
 * identify an experiment definition. Format: docs/DESIGN.md ("Campaign
 * JSON") and the README; modes 1 and 2 are GUFI's (scope kernel/application). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "camp_int.h"

#define MAX_NAME 127
#define DEFAULT_INJECTIONS 2000
#define DEFAULT_CONFIDENCE 0.95
#define DEFAULT_SEED 1
#define DEFAULT_FIT_PER_BIT 0.001
#define DEFAULT_TIMEOUT_FACTOR 3.0
#define MIN_TIMEOUT_FACTOR 1.5
#define MAX_TIMEOUT_FACTOR 10000.0   /* keeps factor x cycles far inside uint64 */
#define DEFAULT_WATCHDOG 60.0
#define MAX_WATCHDOG 604800.0        /* a week: longer is surely a typo */
/* Bump when the canonical layout changes. Format 1 named the workload by
 * absolute path and the raw bytes of its JSON (moving or re-indenting
 * started the campaign again); it is still built as legacy_hash so that a
 * database written then is resumed (db_campaign_get_or_create). */
#define CANONICAL_FORMAT 2
#define LEGACY_FORMAT 1

/* The engine hands targets and field bits straight to simcore's injector. */
#define X(name, text, what) \
	_Static_assert((int)CAMP_TARGET_##name == (int)SC_TGT_##name, "target order: " text);
CAMP_TARGET_LIST(X)
#undef X
_Static_assert(CAMP_FIELD_PC == SC_F_SIMT_PC && CAMP_FIELD_RPC == SC_F_SIMT_RPC &&
               CAMP_FIELD_MASK == SC_F_SIMT_MASK && CAMP_FIELD_VALID == SC_F_IB_VALID &&
               CAMP_FIELD_INSTR == SC_F_IB_INSTR && CAMP_FIELD_DATA == SC_F_CACHE_DATA &&
               CAMP_FIELD_TAG == SC_F_CACHE_TAG && CAMP_FIELD_LINE_VALID == SC_F_CACHE_VALID &&
               CAMP_FIELD_DIRTY == SC_F_CACHE_DIRTY, "field bits follow simcore.h");

/* ---- names -------------------------------------------------------------- */

static const char *const target_names[CAMP_TARGET__COUNT] = {
#define X(name, text, what) [CAMP_TARGET_##name] = text,
	CAMP_TARGET_LIST(X)
#undef X
};

static const char *const model_names[] = {"single", "adjacent", "multi", "random_value", "zero_value", "mcu",
                                           "stuck_at", "intermittent"};
static const char *const sampling_names[] = {"physical", "live"};
static const char *const strata_names[] = {"none", "kernel"};
static const char *const regs_names[] = {"ptx", "alloc", "unalloc"};

/* Field names by bit position, per target; NULL-terminated. */
static const char *const simt_fields[] = {"pc", "rpc", "mask", NULL};
static const char *const ibuffer_fields[] = {"valid", "instr", NULL};
static const char *const l1d_fields[] = {"data", "tag", "valid", NULL};
static const char *const l2_fields[] = {"data", "tag", "valid", "dirty", NULL};
static const char *const const_fields[] = {"data", "tag", NULL};

static const char *const *target_fields(camp_target_t t)
{
	switch (t) {
	case CAMP_TARGET_SIMT: return simt_fields;
	case CAMP_TARGET_IBUFFER: return ibuffer_fields;
	case CAMP_TARGET_L1D: return l1d_fields;
	case CAMP_TARGET_L2: return l2_fields;
	case CAMP_TARGET_CONST:
	case CAMP_TARGET_TEXCACHE: return const_fields;
	default: return NULL;
	}
}

#define NAME_OF(table, i) \
	((unsigned)(i) < sizeof table / sizeof table[0] ? table[i] : "?")

const char *camp_target_name(camp_target_t t)
{
	return NAME_OF(target_names, t);
}

sc_fm_kind_t camp_model_kind(camp_model_t m)
{
	switch (m) {
	case CAMP_MODEL_RANDOM_VALUE: return SC_FM_VALUE;
	case CAMP_MODEL_ZERO_VALUE: return SC_FM_ZERO;
	case CAMP_MODEL_STUCK_AT:
	case CAMP_MODEL_INTERMITTENT: return SC_FM_STUCK;
	default: return SC_FM_FLIP;
	}
}

const char *camp_model_name(camp_model_t m)
{
	return NAME_OF(model_names, m);
}

const char *camp_sampling_name(camp_sampling_t s)
{
	return NAME_OF(sampling_names, s);
}

const char *camp_strata_name(camp_strata_t s)
{
	return NAME_OF(strata_names, s);
}

const char *camp_regs_name(camp_regs_t r)
{
	return NAME_OF(regs_names, r);
}

uint64_t camp_campaign_bits(const camp_campaign_t *c, uint32_t *word_bits)
{
	return sc_target_bits_prot(&c->gpu, &c->prot, (sc_target_t)c->target, c->fields, word_bits);
}

sc_regs_t camp_regs_sim(camp_regs_t r)
{
	static const sc_regs_t sim[] = {[CAMP_REGS_PTX] = SC_REGS_PTX, [CAMP_REGS_ALLOC] = SC_REGS_ALLOC,
	                                [CAMP_REGS_UNALLOC] = SC_REGS_UNALLOC};
	return (unsigned)r < sizeof sim / sizeof sim[0] ? sim[r] : SC_REGS_PTX;
}

const char *camp_field_name(camp_target_t t, uint32_t bit)
{
	const char *const *f = target_fields(t);
	for (unsigned i = 0; f && f[i]; i++)
		if (bit == 1u << i)
			return f[i];
	return NULL;
}

int camp_target_parse(const char *name, camp_target_t *t)
{
	for (int i = 0; i < CAMP_TARGET__COUNT; i++)
		if (!strcmp(name, target_names[i])) {
			*t = (camp_target_t)i;
			return 0;
		}
	return CAMP_EINPUT;
}

/* ---- FNV-1a, 64 bits ---------------------------------------------------- */

#define FNV_PRIME UINT64_C(0x100000001b3)

uint64_t camp_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

static void hex64(char out[17], uint64_t h)
{
	snprintf(out, 17, "%016" PRIx64, h);
}

/* ---- parsing context and messages --------------------------------------- */

typedef struct ctx {
	const char *file;  /* the campaign file as given */
	char *err;
	size_t errsz;
	camp_campaign_t *c;
	json_t *workload;  /* the campaign's "workload" value as written (borrowed) */
	/* digests already taken, by file name pointer: both canonical formats
	 * name the same files, and each is read once */
	struct digest {
		const char *file;
		char hex[17];
	} *digests;
	uint32_t ndigests;
} ctx_t;

#define fail(x, path, ...) camp__fail_at((x)->err, (x)->errsz, (x)->file, (path), __VA_ARGS__)
#define check_keys(x, path, obj, known) camp__check_keys((x)->err, (x)->errsz, (x)->file, (path), (obj), (known))
#define require(x, path, obj, key, out) camp__require((x)->err, (x)->errsz, (x)->file, (path), (obj), (key), (out))

static int nomem(ctx_t *x)
{
	snprintf(x->err, x->errsz, "%s: out of memory", x->file);
	return CAMP_ENOMEM;
}

/* "a, b or c" from a NULL-terminated list, into buf. */
static const char *or_list(const char *const *names, char *buf, size_t n)
{
	size_t off = 0, k = 0;
	while (names[k])
		k++;
	buf[0] = '\0';
	for (size_t i = 0; i < k && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
		                        i == 0 ? "" : i + 1 == k ? " or " : ", ", names[i]);
	return buf;
}

/* Index of string v in the NULL-terminated names, or -1 (also for non-strings). */
static int lookup(json_t *v, const char *const *names, size_t n)
{
	if (!json_is_string(v))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(json_string_value(v), names[i]))
			return (int)i;
	return -1;
}

/* Wraps the message of a nested loader (workload, GPU): "FILE: at PATH: inner". */
static int nested(ctx_t *x, const char *path, int rc, const char *inner)
{
	if (rc == CAMP_ENOMEM)
		return nomem(x);
	snprintf(x->err, x->errsz, "%s: at %s: %s", x->file, path, inner);
	return rc ? rc : CAMP_EINPUT;
}

/* ---- paths -------------------------------------------------------------- */

/* p joined to the folder of the campaign file (absolute p stays). */
static char *relative_to(const char *file, const char *p)
{
	const char *slash = strrchr(file, '/');
	if (p[0] == '/' || !slash)
		return strdup(p);
	size_t dn = (size_t)(slash - file) + 1, pn = strlen(p) + 1;
	char *r = malloc(dn + pn);
	if (r) {
		memcpy(r, file, dn);
		memcpy(r + dn, p, pn);
	}
	return r;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* The file's base name without ".json" (the default campaign name). */
static char *default_name(const char *file)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	size_t n = strlen(base);
	if (n > 5 && ends_with(base, ".json"))
		n -= 5;
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, base, n);
		r[n] = '\0';
	}
	return r;
}

/* FNV-1a of a whole file's bytes, as 16 hex digits (read once per load). */
static int digest_file(ctx_t *x, const char *jpath, const char *file, char out[17])
{
	for (uint32_t i = 0; i < x->ndigests; i++)
		if (x->digests[i].file == file) {
			memcpy(out, x->digests[i].hex, 17);
			return 0;
		}
	struct digest *d = realloc(x->digests, (x->ndigests + 1) * sizeof *d);
	if (!d)
		return nomem(x);
	x->digests = d;
	FILE *f = camp__fopen_regular(file);
	if (!f)
		return fail(x, jpath, "cannot read '%s': %s", file,
		            errno == EINVAL ? "not a regular file" : strerror(errno));
	unsigned char buf[65536];
	uint64_t h = CAMP_FNV_OFFSET;
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		h = camp_fnv1a(h, buf, got);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return fail(x, jpath, "cannot read '%s': read error", file);
	hex64(out, h);
	d[x->ndigests].file = file;
	memcpy(d[x->ndigests++].hex, out, 17);
	return 0;
}

/* ---- keys ---------------------------------------------------------------- */

static int parse_name(ctx_t *x, json_t *v)
{
	if (!v)
		return (x->c->name = default_name(x->file)) ? 0 : nomem(x);
	size_t n = json_is_string(v) ? json_string_length(v) : 0;
	const char *s = json_is_string(v) ? json_string_value(v) : "";
	int ok = n >= 1 && n <= MAX_NAME && strlen(s) == n;
	for (size_t i = 0; ok && i < n; i++)
		ok = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f;
	if (!ok)
		return fail(x, "$.name", "expected a string of 1..%d characters, no control "
		            "characters", MAX_NAME);
	return (x->c->name = strdup(s)) ? 0 : nomem(x);
}

/* "workload": {"exec": [PROGRAM, ARG...], "cwd": DIR}. PROGRAM and DIR
 * are relative to the campaign file; PROGRAM is not looked up in PATH. */
static int parse_exec(ctx_t *x, json_t *v)
{
	static const char *const keys[] = {"exec", "cwd", NULL};
	static const char *const expect = "expected a non-empty array of strings: the program "
	                                  "and its arguments";
	camp_campaign_t *c = x->c;
	json_t *argv, *cwd;
	int rc;
	if ((rc = check_keys(x, "$.workload", v, keys)) ||
	    (rc = require(x, "$.workload", v, "exec", &argv)))
		return rc;
	size_t n = json_is_array(argv) ? json_array_size(argv) : 0;
	if (n == 0 || n > 256)
		return fail(x, "$.workload.exec", "%s (at most 256)", expect);
	for (size_t i = 0; i < n; i++) {
		json_t *a = json_array_get(argv, i);
		if (!json_is_string(a) || strlen(json_string_value(a)) != json_string_length(a) ||
		    (i == 0 && json_string_length(a) == 0))
			return fail(x, "$.workload.exec", "%s; element %zu is not one", expect, i);
	}
	camp_exec_t *e = calloc(1, sizeof *e);
	if (!e || !(e->argv = calloc(n + 1, sizeof *e->argv))) {
		free(e);
		return nomem(x);
	}
	c->exec = e;
	e->argc = (uint32_t)n;
	const char *prog = json_string_value(json_array_get(argv, 0));
	char *joined = relative_to(x->file, prog);
	if (!joined)
		return nomem(x);
	e->argv[0] = realpath(joined, NULL);
	struct stat st;
	if (!e->argv[0] || stat(e->argv[0], &st) || !S_ISREG(st.st_mode) || access(e->argv[0], X_OK)) {
		int err = errno;
		rc = err == ENOMEM ? nomem(x) : fail(x, "$.workload.exec", "'%s' is not an executable file%s%s", joined,
		                                     e->argv[0] ? "" : ": ", e->argv[0] ? "" : strerror(err));
		free(joined);
		return rc;
	}
	free(joined);
	for (size_t i = 1; i < n; i++)
		if (!(e->argv[i] = strdup(json_string_value(json_array_get(argv, i)))))
			return nomem(x);
	cwd = json_object_get(v, "cwd");
	if (cwd && (!json_is_string(cwd) || json_string_length(cwd) == 0))
		return fail(x, "$.workload.cwd", "expected a folder (a non-empty string)");
	joined = cwd ? relative_to(x->file, json_string_value(cwd)) : relative_to(x->file, ".");
	if (!joined)
		return nomem(x);
	e->cwd = realpath(joined, NULL);
	if (!e->cwd || stat(e->cwd, &st) || !S_ISDIR(st.st_mode)) {
		rc = fail(x, "$.workload.cwd", "'%s' is not a folder", joined);
		free(joined);
		return rc;
	}
	free(joined);
	return (c->workload_path = strdup(e->argv[0])) ? 0 : nomem(x);
}

static int parse_workload_key(ctx_t *x, json_t *v)
{
	camp_campaign_t *c = x->c;
	static const char *const expect = "expected the path of a workload JSON file (*.json) or "
	                                  "{\"exec\": [PROGRAM, ARG...], \"cwd\": DIR}";
	if (json_is_object(v))
		return parse_exec(x, v);
	if (!json_is_string(v) || json_string_length(v) == 0)
		return fail(x, "$.workload", "%s", expect);
	const char *s = json_string_value(v);
	if (!ends_with(s, ".json"))
		return fail(x, "$.workload", "'%s': %s", s, expect);
	char *joined = relative_to(x->file, s);
	if (!joined)
		return nomem(x);
	c->workload_path = realpath(joined, NULL);
	if (!c->workload_path) {
		int e = errno;
		int rc = e == ENOMEM ? nomem(x) : fail(x, "$.workload", "cannot read '%s': %s",
		                                        joined, strerror(e));
		free(joined);
		return rc;
	}
	free(joined);
	char inner[1024];
	int rc = camp_workload_load(c->workload_path, &c->workload, inner, sizeof inner);
	return rc ? nested(x, "$.workload", rc, inner) : 0;
}

static int is_gpu_path(const char *s)
{
	return strchr(s, '/') != NULL || ends_with(s, ".json");
}

static int parse_gpu(ctx_t *x, json_t *v)
{
	camp_campaign_t *c = x->c;
	const char *s = "gtx480";
	if (v) {
		if (!json_is_string(v) || json_string_length(v) == 0)
			return fail(x, "$.gpu", "expected a GPU preset name or a GPU config file");
		s = json_string_value(v);
	}
	if (is_gpu_path(s)) {
		char *joined = relative_to(x->file, s);
		if (!joined)
			return nomem(x);
		/* An unresolvable path stays as joined: the loader says why it cannot read. */
		c->gpu_source = realpath(joined, NULL);
		if (c->gpu_source)
			free(joined);
		else
			c->gpu_source = joined;
	} else if (!(c->gpu_source = strdup(s))) {
		return nomem(x);
	}
	char inner[1024];
	int rc = camp_gpu_load(c->gpu_source, &c->gpu, inner, sizeof inner);
	return rc ? nested(x, "$.gpu", rc, inner) : 0;
}

/* The GPU has the target (a preset without an L1 has no l1d), and an
 * adjacent-bit fault fits in one of its words. */
static int check_target_on_gpu(ctx_t *x)
{
	const camp_campaign_t *c = x->c;
	uint32_t wb = 0;
	uint64_t bits = camp_campaign_bits(c, &wb);
	if (!bits)
		return fail(x, "$.target", "GPU '%s' has no %s (its size in the GPU configuration is 0)", c->gpu.name,
		            target_names[c->target]);
	if (c->model == CAMP_MODEL_ADJACENT && wb < 2)
		return fail(x, "$.fault_model.bits", "adjacent bits stay inside one word, and %s with these fields has "
		            "words of one bit (choose one field, e.g. \"fields\": [\"%s\"])", target_names[c->target],
		            target_fields(c->target) ? target_fields(c->target)[0] : "?");
	if (!sc_model_supported((sc_target_t)c->target, camp_model_kind(c->model)))
		return fail(x, "$.fault_model.kind", "\"%s\" does not apply to %s (%s)", model_names[c->model],
		            target_names[c->target], c->model == CAMP_MODEL_ZERO_VALUE
		            ? "a cache word's value is not read: use \"random_value\""
		            : "a permanent fault needs regfile, pred, smem or fu");
	if (c->model == CAMP_MODEL_MCU &&
	    (uint64_t)(c->model_k - 1) * c->model_interleave >= bits / wb)
		return fail(x, "$.fault_model.interleave", "%u words %u apart do not fit in one SM's %s", c->model_k,
		            c->model_interleave, target_names[c->target]);
	if (c->model == CAMP_MODEL_ADJACENT && c->model_k > wb)
		return fail(x, "$.fault_model.bits", "expected at most %u: adjacent bits stay inside one word of %s (%u "
		            "bits)", wb, target_names[c->target], wb);
	return 0;
}

/* "protection": parsed early (a typo is found before the workload loads),
 * checked against the GPU and register mode once the GPU is known. */
static int parse_protection(ctx_t *x, json_t *v)
{
	x->c->prot = (sc_protection_t){0};
	return v ? camp__parse_protection(x->err, x->errsz, x->file, "$.protection", v, &x->c->prot) : 0;
}

/* The codes fit the GPU and register mode, and the fault model acts on
 * the codewords: the simulator does not model a cleared or stuck codeword
 * (the check bits a zero_value would clear, or that a stuck bit's word
 * rewrites, are not stored). */
static int check_protection(ctx_t *x)
{
	const camp_campaign_t *c = x->c;
	int rc = camp__check_protection(x->err, x->errsz, x->file, "$.protection", &c->prot, &c->gpu,
	                                camp_regs_sim(c->regs));
	if (rc)
		return rc;
	sc_code_kind_t code = camp_protection_code(&c->prot, c->target);
	sc_fm_kind_t kind = camp_model_kind(c->model);
	if (code != SC_CODE_NONE && (kind == SC_FM_ZERO || kind == SC_FM_STUCK))
		return fail(x, "$.fault_model.kind", "\"%s\" is not modelled on a protected %s (its words are %s "
		            "codewords): use single, adjacent, multi, random_value or mcu, or no code on %s",
		            model_names[c->model], target_names[c->target], sc_code_name(code), target_names[c->target]);
	return 0;
}

/* "regs_subset": "original" (the paper's fault space under datapath
 * duplication: the original registers, not their replicas) or "all" (the
 * default). After the protection, the sampling and the target. */
static int parse_regs_subset(ctx_t *x, json_t *v)
{
	static const char *const names[] = {"all", "original"};
	camp_campaign_t *c = x->c;
	if (!v)
		return 0;
	int i = lookup(v, names, 2);
	if (i < 0)
		return fail(x, "$.regs_subset", "expected \"original\" (only the original registers, not the replicas "
		            "datapath duplication adds) or \"all\"");
	if (i == 0)
		return 0;
	if (!c->prot.dup.protect)
		return fail(x, "$.regs_subset", "\"original\" needs replicas to leave out: \"protection\": {\"dup\": ...}");
	if (c->target != CAMP_TARGET_REGFILE)
		return fail(x, "$.regs_subset", "\"original\" restricts the regfile target, not %s", target_names[c->target]);
	if (c->sampling != CAMP_SAMPLING_LIVE)
		return fail(x, "$.regs_subset", "\"original\" draws among the words holding original registers now: "
		            "it needs \"sampling\": \"live\" (ptx mode samples live already)");
	if (c->prot.regfile != SC_CODE_NONE || c->prot.sharp.on)
		return fail(x, "$.regs_subset", "\"original\" is not combined with a code on the register file or SHARP");
	c->regs_original = true;
	return 0;
}

static int parse_regs(ctx_t *x, json_t *v)
{
	int i = v ? lookup(v, regs_names, 3) : CAMP_REGS_PTX;
	if (i < 0)
		return fail(x, "$.regs", "expected \"ptx\", \"alloc\" or \"unalloc\"");
	x->c->regs = (camp_regs_t)i;
	return 0;
}

static int parse_target(ctx_t *x, json_t *v)
{
	static const char *const names[CAMP_TARGET__COUNT + 1] = {
#define X(name, text, what) text,
		CAMP_TARGET_LIST(X)
#undef X
		NULL};
	char list[128];
	int i = lookup(v, names, CAMP_TARGET__COUNT);
	if (i < 0)
		return fail(x, "$.target", "expected one of %s", or_list(names, list, sizeof list));
	x->c->target = (camp_target_t)i;
	return 0;
}

static int parse_fields(ctx_t *x, json_t *v)
{
	camp_campaign_t *c = x->c;
	const char *const *names = target_fields(c->target);
	char list[64], p[64];
	if (!names) {
		if (v)
			return fail(x, "$.fields", "target '%s' has no fields (only simt, ibuffer, l1d, l2, "
			            "const and texcache do)", target_names[c->target]);
		c->fields = 0;
		return 0;
	}
	unsigned n = 0;
	while (names[n])
		n++;
	if (!v) {
		c->fields = (1u << n) - 1;
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return fail(x, "$.fields", "expected a non-empty array of field names (%s: %s)",
		            target_names[c->target], or_list(names, list, sizeof list));
	c->fields = 0;
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *e = json_array_get(v, i);
		int f = lookup(e, names, n);
		snprintf(p, sizeof p, "$.fields[%zu]", i);
		if (f < 0)
			return fail(x, p, "expected a field of target %s: %s", target_names[c->target],
			            or_list(names, list, sizeof list));
		if (c->fields & (1u << f))
			return fail(x, p, "field '%s' is listed twice", names[f]);
		c->fields |= 1u << f;
	}
	return 0;
}

/* Mode 1 names a kernel the workload launches and one of its invocations
 * (repeats counted), so both are checked against the launch list here. */
/* A host program's launches are known from its golden run: the plan checks
 * kernel and invocation there. */
static int scope_of_host(ctx_t *x, json_t *v, const char *k)
{
	camp_campaign_t *c = x->c;
	json_t *inv = json_object_get(v, "invocation");
	if (inv && (!json_is_integer(inv) || json_integer_value(inv) < 0 ||
	            json_integer_value(inv) > (json_int_t)UINT32_MAX))
		return fail(x, "$.scope.invocation", "expected an integer >= 0");
	c->invocation = inv ? (uint32_t)json_integer_value(inv) : 0;
	if (!(c->kernel = strdup(k)))
		return nomem(x);
	c->scope = CAMP_SCOPE_KERNEL;
	return 0;
}

/* A kernel the workload does not launch: the message lists those it does. */
static int scope_not_launched(ctx_t *x, const char *k)
{
	const camp_workload_t *w = x->c->workload;
	char list[300] = "";
	size_t off = 0;
	for (uint32_t i = 0; i < w->nlaunches && off < sizeof list; i++) {
		uint32_t j;
		for (j = 0; j < i && strcmp(w->launches[j].kernel, w->launches[i].kernel); j++)
			;
		if (j == i)
			off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
			                        off ? ", " : "", w->launches[i].kernel);
	}
	return fail(x, "$.scope.kernel", "the workload does not launch kernel '%s' "
	            "(launched: %s)", k, list);
}

static int parse_scope(ctx_t *x, json_t *v)
{
	static const char *const keys[] = {"kernel", "invocation", NULL};
	static const char *const expect = "expected \"application\" or {\"kernel\": NAME, "
	                                  "\"invocation\": I}";
	camp_campaign_t *c = x->c;
	const camp_workload_t *w = c->workload;
	json_t *kernel, *inv;
	int rc;

	c->scope = CAMP_SCOPE_APPLICATION;
	if (!v)
		return 0;
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "application"))
			return fail(x, "$.scope", "%s", expect);
		return 0;
	}
	if (!json_is_object(v))
		return fail(x, "$.scope", "%s", expect);
	if ((rc = check_keys(x, "$.scope", v, keys)) ||
	    (rc = require(x, "$.scope", v, "kernel", &kernel)))
		return rc;
	if (!json_is_string(kernel) || json_string_length(kernel) == 0)
		return fail(x, "$.scope.kernel", "expected a kernel name (a non-empty string)");
	const char *k = json_string_value(kernel);
	if (!w)
		return scope_of_host(x, v, k);
	uint64_t count = 0;
	for (uint32_t i = 0; i < w->nlaunches; i++)
		if (!strcmp(w->launches[i].kernel, k))
			count += w->launches[i].repeat;
	if (count == 0)
		return scope_not_launched(x, k);
	c->invocation = 0;
	if ((inv = json_object_get(v, "invocation"))) {
		if (!json_is_integer(inv) || json_integer_value(inv) < 0 ||
		    (uint64_t)json_integer_value(inv) >= count ||
		    json_integer_value(inv) > (json_int_t)UINT32_MAX)
			return fail(x, "$.scope.invocation", "expected an integer in 0..%" PRIu64
			            " (the workload launches '%s' %" PRIu64 " time%s)", count - 1, k,
			            count, count == 1 ? "" : "s");
		c->invocation = (uint32_t)json_integer_value(inv);
	}
	if (!(c->kernel = strdup(k)))
		return nomem(x);
	c->scope = CAMP_SCOPE_KERNEL;
	return 0;
}

/* A number in the open interval (0, 1). */
static int get_fraction(ctx_t *x, const char *path, json_t *v, double *out)
{
	if (!json_is_number(v) || !(json_number_value(v) > 0 && json_number_value(v) < 1))
		return fail(x, path, "expected a number in (0, 1), exclusive");
	*out = json_number_value(v);
	return 0;
}

static int parse_size(ctx_t *x, json_t *root)
{
	camp_campaign_t *c = x->c;
	json_t *inj = json_object_get(root, "injections");
	json_t *conf = json_object_get(root, "confidence");
	json_t *margin = json_object_get(root, "margin");
	int rc;

	c->confidence = DEFAULT_CONFIDENCE;
	if (conf && (rc = get_fraction(x, "$.confidence", conf, &c->confidence)))
		return rc;
	if (inj && margin)
		return fail(x, "$", "give either \"injections\" or \"margin\" (with "
		            "\"confidence\"), not both");
	c->margin = 0;
	if (margin) {
		c->injections = 0;  /* computed by the engine (Leveugle) */
		return get_fraction(x, "$.margin", margin, &c->margin);
	}
	c->injections = DEFAULT_INJECTIONS;
	if (inj) {
		if (!json_is_integer(inj) || json_integer_value(inj) < 1 ||
		    json_integer_value(inj) > CAMP_MAX_INJECTIONS)
			return fail(x, "$.injections", "expected an integer in 1..%d", CAMP_MAX_INJECTIONS);
		c->injections = (uint64_t)json_integer_value(inj);
	}
	return 0;
}

/* golden_watchdog_seconds, golden_cycle_budget: not in the canonical text. */
static int parse_golden_limits(ctx_t *x, json_t *root)
{
	camp_campaign_t *c = x->c;
	json_t *v;
	c->golden_watchdog_seconds = CAMP_GOLDEN_SECONDS;
	if ((v = json_object_get(root, "golden_watchdog_seconds"))) {
		if (!json_is_number(v) || !(json_number_value(v) > 0 && json_number_value(v) <= MAX_WATCHDOG))
			return fail(x, "$.golden_watchdog_seconds", "expected a number of seconds in (0, %g]", MAX_WATCHDOG);
		c->golden_watchdog_seconds = json_number_value(v);
	}
	c->golden_cycle_budget = CAMP_GOLDEN_CYCLES;
	if ((v = json_object_get(root, "golden_cycle_budget"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return fail(x, "$.golden_cycle_budget", "expected an integer number of GPU cycles >= 1");
		c->golden_cycle_budget = (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* An integer in [lo, hi] at $.fault_model.KEY (required), into *out. */
static int model_int(ctx_t *x, json_t *v, const char *key, json_int_t lo, json_int_t hi, const char *what,
                     uint64_t *out)
{
	char path[64];
	json_t *k;
	int rc = require(x, "$.fault_model", v, key, &k);
	if (rc)
		return rc;
	snprintf(path, sizeof path, "$.fault_model.%s", key);
	if (!json_is_integer(k) || json_integer_value(k) < lo || json_integer_value(k) > hi)
		return fail(x, path, "expected an integer in %lld..%lld (%s)", (long long)lo, (long long)hi, what);
	*out = (uint64_t)json_integer_value(k);
	return 0;
}

/* "from_start": true|false (optional, default false). */
static int model_from_start(ctx_t *x, json_t *v)
{
	json_t *k = json_object_get(v, "from_start");
	if (k && !json_is_boolean(k))
		return fail(x, "$.fault_model.from_start", "expected true (the fault is there from the first busy "
		            "cycle) or false (from a drawn cycle)");
	x->c->model_from_start = k && json_is_true(k);
	return 0;
}

/* stuck_at and intermittent: the value, the start and the windows. */
static int parse_permanent(ctx_t *x, json_t *v)
{
	static const char *const stuck_keys[] = {"kind", "value", "from_start", NULL};
	static const char *const inter_keys[] = {"kind", "value", "from_start", "period", "duration", NULL};
	camp_campaign_t *c = x->c;
	bool inter = c->model == CAMP_MODEL_INTERMITTENT;
	uint64_t val, per = 0, dur = 0;
	int rc;
	if ((rc = check_keys(x, "$.fault_model", v, inter ? inter_keys : stuck_keys)) ||
	    (rc = model_int(x, v, "value", 0, 1, "the value the bit is stuck at", &val)) ||
	    (rc = model_from_start(x, v)))
		return rc;
	if (inter && ((rc = model_int(x, v, "period", 2, INT64_MAX, "cycles from one active window to the next", &per)) ||
	              (rc = model_int(x, v, "duration", 1, INT64_MAX, "active cycles per period", &dur))))
		return rc;
	if (inter && dur >= per)
		return fail(x, "$.fault_model.duration", "expected fewer cycles than the period (%" PRIu64 "); a fault "
		            "active all the time is {\"kind\": \"stuck_at\"}", per);
	c->model_value = (uint32_t)val;
	c->model_period = per;
	c->model_duration = dur;
	return 0;
}

static int parse_model(ctx_t *x, json_t *v)
{
	static const char *const single_keys[] = {"kind", NULL};
	static const char *const adjacent_keys[] = {"kind", "bits", NULL};
	static const char *const multi_keys[] = {"kind", "faults", NULL};
	static const char *const mcu_keys[] = {"kind", "words", "interleave", NULL};
	static const char *const expect = "expected an object with \"kind\": \"single\", \"adjacent\", \"multi\", "
	                                  "\"random_value\", \"zero_value\", \"mcu\", \"stuck_at\" or "
	                                  "\"intermittent\" (README, \"Campaign JSON\")";
	camp_campaign_t *c = x->c;
	json_t *kind;
	uint64_t k = 1;
	int rc;

	c->model = CAMP_MODEL_SINGLE;
	c->model_k = 1;
	if (!v)
		return 0;
	if (!json_is_object(v))
		return fail(x, "$.fault_model", "%s", expect);
	if ((rc = require(x, "$.fault_model", v, "kind", &kind)))
		return rc;
	int m = lookup(kind, model_names, (int)(sizeof model_names / sizeof *model_names));
	if (m < 0)
		return fail(x, "$.fault_model.kind", "%s", expect);
	c->model = (camp_model_t)m;
	switch (c->model) {
	case CAMP_MODEL_SINGLE:
	case CAMP_MODEL_RANDOM_VALUE:
	case CAMP_MODEL_ZERO_VALUE:
		return check_keys(x, "$.fault_model", v, single_keys);
	case CAMP_MODEL_ADJACENT:
		if ((rc = check_keys(x, "$.fault_model", v, adjacent_keys)) ||
		    (rc = model_int(x, v, "bits", 2, 32, "adjacent bits of one word", &k)))
			return rc;
		break;
	case CAMP_MODEL_MULTI:
		if ((rc = check_keys(x, "$.fault_model", v, multi_keys)) ||
		    (rc = model_int(x, v, "faults", 2, 8, "single-bit faults spread in time", &k)))
			return rc;
		break;
	case CAMP_MODEL_MCU: {
		uint64_t il = 1;
		if ((rc = check_keys(x, "$.fault_model", v, mcu_keys)) ||
		    (rc = model_int(x, v, "words", 2, 8, "physically adjacent words hit at once", &k)))
			return rc;
		if (json_object_get(v, "interleave") &&
		    (rc = model_int(x, v, "interleave", 1, 1024, "words between two hit words: the interleaving "
		                    "factor", &il)))
			return rc;
		c->model_interleave = (uint32_t)il;
		break;
	}
	case CAMP_MODEL_STUCK_AT:
	case CAMP_MODEL_INTERMITTENT:
		return parse_permanent(x, v);
	}
	c->model_k = (uint32_t)k;
	return 0;
}

/* "strata": "kernel" (or "none"); checked against the scope once that is
 * known (check_strata). */
static int parse_strata(ctx_t *x, json_t *v)
{
	x->c->strata = CAMP_STRATA_NONE;
	if (!v)
		return 0;
	int i = lookup(v, strata_names, 2);
	if (i < 0)
		return fail(x, "$.strata", "expected \"kernel\" (one stratum per kernel name) or \"none\"");
	x->c->strata = (camp_strata_t)i;
	return 0;
}

static int check_strata(ctx_t *x)
{
	if (x->c->strata != CAMP_STRATA_NONE && x->c->scope != CAMP_SCOPE_APPLICATION)
		return fail(x, "$.strata", "strata need \"scope\": \"application\" (a single-kernel campaign has "
		            "one stratum)");
	return 0;
}

/* A margin of "stop": a number in (0, 1). */
static int stop_margin(ctx_t *x, json_t *stop, const char *key, double *out)
{
	char path[64];
	json_t *v = json_object_get(stop, key);
	*out = 0;
	snprintf(path, sizeof path, "$.stop.%s", key);
	return v ? get_fraction(x, path, v, out) : 0;
}

/* "stop": {"relative_margin": R} or {"absolute_margin": A}, "looks": J;
 * "injections" is then the maximum ("margin" has no meaning here). */
static int parse_stop(ctx_t *x, json_t *root)
{
	static const char *const keys[] = {"relative_margin", "absolute_margin", "looks", NULL};
	static const char *const expect = "expected {\"relative_margin\": R} or {\"absolute_margin\": A} "
	                                  "(a half-width in (0, 1)), with \"looks\": J optional";
	camp_campaign_t *c = x->c;
	json_t *stop = json_object_get(root, "stop"), *v;
	int rc;

	c->stop_looks = 0;
	c->stop_relative = c->stop_absolute = 0;
	if (!stop)
		return 0;
	if (!json_is_object(stop))
		return fail(x, "$.stop", "%s", expect);
	if ((rc = check_keys(x, "$.stop", stop, keys)) ||
	    (rc = stop_margin(x, stop, "relative_margin", &c->stop_relative)) ||
	    (rc = stop_margin(x, stop, "absolute_margin", &c->stop_absolute)))
		return rc;
	if ((c->stop_relative > 0) == (c->stop_absolute > 0))
		return fail(x, "$.stop", "%s: give exactly one of the two margins", expect);
	if (json_object_get(root, "margin"))
		return fail(x, "$.margin", "a campaign with \"stop\" draws up to \"injections\" faults; \"margin\" "
		            "(a fixed sample size) has no meaning there: give \"injections\" as the maximum");
	c->stop_looks = CAMP_DEFAULT_LOOKS;
	if ((v = json_object_get(stop, "looks"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > CAMP_MAX_LOOKS)
			return fail(x, "$.stop.looks", "expected an integer in 1..%d", CAMP_MAX_LOOKS);
		c->stop_looks = (uint32_t)json_integer_value(v);
	}
	return 0;
}

static int parse_scalars(ctx_t *x, json_t *root)
{
	camp_campaign_t *c = x->c;
	json_t *v;

	/* ptx mode's register targets are the threads' virtual registers, no
	 * physical structure: drawn among those in use, as live sampling does */
	bool virt = c->regs == CAMP_REGS_PTX && (c->target == CAMP_TARGET_REGFILE || c->target == CAMP_TARGET_PRED);
	c->sampling = virt ? CAMP_SAMPLING_LIVE : CAMP_SAMPLING_PHYSICAL;
	if ((v = json_object_get(root, "sampling"))) {
		int i = lookup(v, sampling_names, 2);
		if (i < 0)
			return fail(x, "$.sampling", "expected \"physical\" or \"live\"");
		if (virt && i != CAMP_SAMPLING_LIVE)
			return fail(x, "$.sampling", "expected \"live\": in ptx mode %s faults land in the resident threads' "
			            "virtual registers, drawn among those in use (\"regs\": \"alloc\" samples the physical "
			            "file)", target_names[c->target]);
		c->sampling = (camp_sampling_t)i;
	}
	if (virt && (c->model == CAMP_MODEL_MCU || c->model == CAMP_MODEL_STUCK_AT ||
	             c->model == CAMP_MODEL_INTERMITTENT))
		return fail(x, "$.fault_model.kind", "\"%s\" needs physical storage, and in ptx mode a virtual register "
		            "has none of its own: use \"regs\": \"alloc\"", model_names[c->model]);
	c->seed = DEFAULT_SEED;
	if ((v = json_object_get(root, "seed"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return fail(x, "$.seed", "expected an integer in 0..%" PRId64, INT64_MAX);
		c->seed = (uint64_t)json_integer_value(v);
	}
	c->fit_per_bit = DEFAULT_FIT_PER_BIT;
	if ((v = json_object_get(root, "fit_per_bit"))) {
		if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
			return fail(x, "$.fit_per_bit", "expected a number > 0 (FIT per bit)");
		c->fit_per_bit = json_number_value(v);
	}
	c->timeout_factor = DEFAULT_TIMEOUT_FACTOR;
	if ((v = json_object_get(root, "timeout_factor"))) {
		if (!json_is_number(v) || !(json_number_value(v) >= MIN_TIMEOUT_FACTOR &&
		                            json_number_value(v) <= MAX_TIMEOUT_FACTOR))
			return fail(x, "$.timeout_factor", "expected a number in %g..%g (cycle budget "
			            "= factor x golden cycles)", MIN_TIMEOUT_FACTOR, MAX_TIMEOUT_FACTOR);
		c->timeout_factor = json_number_value(v);
	}
	c->watchdog_seconds = DEFAULT_WATCHDOG;
	if ((v = json_object_get(root, "watchdog_seconds"))) {
		if (!json_is_number(v) || !(json_number_value(v) > 0 && json_number_value(v) <= MAX_WATCHDOG))
			return fail(x, "$.watchdog_seconds", "expected a number of seconds in (0, %g]",
			            MAX_WATCHDOG);
		c->watchdog_seconds = json_number_value(v);
	}
	return parse_golden_limits(x, root);
}

/* ---- canonical text ------------------------------------------------------ */

/* json_object_set_new that remembers a failure, so building reads straight. */
static void put(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(obj, key, v))
		*bad = 1;
}

static json_t *latency_object(const uint32_t *lat, int *bad)
{
	json_t *o = json_object();
	for (int i = 0; o && i < SC_LAT__COUNT; i++)
		put(o, sc_lat_name((sc_lat_t)i), json_integer(lat[i]), bad);
	return o;
}

/* The GPU as an object with the keys of a GPU config file (no "sources"),
 * one per field of SC_CONFIG_FIELDS. */
static json_t *gpu_object(const sc_gpu_config_t *g, int *bad)
{
	json_t *o = json_object();
	if (!o) {
		*bad = 1;
		return NULL;
	}
#define PUT_NAME(f) put(o, #f, json_string(g->f), bad);
#define PUT_U32(f) put(o, #f, json_integer(g->f), bad);
#define PUT_SCHED(f) put(o, #f, json_string(sc_sched_name(g->f)), bad);
#define PUT_IBINV(f) put(o, #f, json_string(sc_ibinv_name(g->f)), bad);
#define PUT_LAT(f) put(o, #f, latency_object(g->f, bad), bad);
#define PUT_MHZ(f) put(o, #f, json_real(g->f), bad);
#define X(kind, field, lo, hi, gtx480) PUT_##kind(field)
	SC_CONFIG_FIELDS(X)
#undef X
	return o;
}

/* A host program as format 2 names it: argv[0] and cwd as the campaign file
 * writes them (relative to it, so moving the project keeps the identity),
 * the other arguments, and the digest of the executable. Format 1 (legacy):
 * the resolved absolute argv[0] and cwd. */
static int exec_object(ctx_t *x, bool legacy, json_t **out)
{
	const camp_exec_t *e = x->c->exec;
	json_t *written = json_object_get(x->workload, "exec"), *cwd = json_object_get(x->workload, "cwd");
	char h[17];
	int bad = 0, rc;
	json_t *o = json_object(), *a = json_array();
	*out = o;
	if (!o || !a) {
		json_decref(a);
		return nomem(x);
	}
	for (uint32_t i = 0; i < e->argc; i++)
		if (json_array_append_new(a, legacy || !written ? json_string(e->argv[i])
		                                                : json_copy(json_array_get(written, i))))
			bad = 1;
	put(o, "exec", a, &bad);
	put(o, "cwd", legacy ? json_string(e->cwd) : cwd ? json_copy(cwd) : json_string("."), &bad);
	if ((rc = digest_file(x, "$.workload.exec", e->argv[0], h)))
		return rc;
	put(o, "exe_fnv1a64", json_string(h), &bad);
	return bad ? nomem(x) : 0;
}

/* Replaces the string at obj[key] (a file name) by {"fnv1a64": digest of
 * `file`}: the identity follows the file's bytes, not its name or folder. */
static int digest_in_place(ctx_t *x, json_t *obj, const char *key, const char *file, int *bad)
{
	char h[17];
	int rc = digest_file(x, "$.workload", file, h);
	if (rc)
		return rc;
	json_t *d = json_object();
	put(d, "fnv1a64", json_string(h), bad);
	put(obj, key, d, bad);
	return 0;
}

/* A workload JSON file as format 2 names it: its parsed content (key order
 * and white space do not count: the canonical text sorts keys), the PTX and
 * input files replaced by digests of their bytes, and the buffers' file
 * order, which lays out memory, kept as "buffer_order". */
static int workload_content(ctx_t *x, json_t **out)
{
	const camp_workload_t *w = x->c->workload;
	char inner[1024];
	int bad = 0, rc = camp__load_json(w->path, out, inner, sizeof inner);
	if (rc)
		return nested(x, "$.workload", rc, inner);
	json_t *o = *out, *buffers = json_object_get(o, "buffers"), *order = json_array();
	if ((rc = digest_in_place(x, o, "ptx", w->ptx, &bad)))
		goto fail;
	for (uint32_t i = 0; i < w->nbuffers; i++) {
		if (!order || json_array_append_new(order, json_string(w->buffers[i].name)))
			bad = 1;
		json_t *init = json_object_get(json_object_get(buffers, w->buffers[i].name), "init");
		if (w->buffers[i].init == CAMP_INIT_FILE &&
		    (rc = digest_in_place(x, init, "file", w->buffers[i].file, &bad)))
			goto fail;
	}
	put(o, "buffer_order", order, &bad);
	return bad ? nomem(x) : 0;
fail:
	json_decref(order);
	return rc;
}

/* Format 1 (legacy): the workload by absolute path and digests of the
 * bytes of its JSON, PTX and input files. */
static int workload_legacy(ctx_t *x, json_t **out)
{
	const camp_workload_t *w = x->c->workload;
	char h[17];
	int bad = 0, rc;
	json_t *o = json_object(), *in = json_object();
	*out = o;
	if (!o || !in) {
		json_decref(in);
		return nomem(x);
	}
	put(o, "path", json_string(x->c->workload_path), &bad);
	if ((rc = digest_file(x, "$.workload", w->path, h)))
		goto fail;
	put(o, "json_fnv1a64", json_string(h), &bad);
	if ((rc = digest_file(x, "$.workload", w->ptx, h)))
		goto fail;
	put(o, "ptx_fnv1a64", json_string(h), &bad);
	for (uint32_t i = 0; i < w->nbuffers; i++) {
		if (w->buffers[i].init != CAMP_INIT_FILE)
			continue;
		if ((rc = digest_file(x, "$.workload", w->buffers[i].file, h)))
			goto fail;
		put(in, w->buffers[i].name, json_string(h), &bad);
	}
	put(o, "inputs_fnv1a64", in, &bad);
	return bad ? nomem(x) : 0;
fail:
	json_decref(in);
	return rc;
}

static int workload_object(ctx_t *x, bool legacy, json_t **out)
{
	if (!x->c->workload)
		return exec_object(x, legacy, out);
	return legacy ? workload_legacy(x, out) : workload_content(x, out);
}

/* The canonical text of format 2, or of format 1 when legacy, into *text
 * (caller frees). */
static int canonical_text(ctx_t *x, bool legacy, char **text)
{
	camp_campaign_t *c = x->c;
	int bad = 0, rc;
	json_t *root = json_object(), *wl = NULL, *v;
	*text = NULL;
	if (!root)
		return nomem(x);
	if ((rc = workload_object(x, legacy, &wl))) {
		json_decref(wl);
		json_decref(root);
		return rc;
	}
	put(root, "format", json_integer(legacy ? LEGACY_FORMAT : CANONICAL_FORMAT), &bad);
	put(root, "name", json_string(c->name), &bad);
	put(root, "workload", wl, &bad);
	put(root, "gpu", gpu_object(&c->gpu, &bad), &bad);
	put(root, "regs", json_string(regs_names[c->regs]), &bad);
	put(root, "target", json_string(target_names[c->target]), &bad);
	if ((v = json_array())) {
		const char *const *names = target_fields(c->target);
		for (unsigned i = 0; names && names[i]; i++)
			if ((c->fields & (1u << i)) && json_array_append_new(v, json_string(names[i])))
				bad = 1;
	}
	put(root, "fields", v, &bad);
	if (c->scope == CAMP_SCOPE_KERNEL) {
		v = json_object();
		if (v) {
			put(v, "kernel", json_string(c->kernel), &bad);
			put(v, "invocation", json_integer(c->invocation), &bad);
		}
	} else {
		v = json_string("application");
	}
	put(root, "scope", v, &bad);
	put(root, "injections", c->injections ? json_integer((json_int_t)c->injections)
	                                      : json_null(), &bad);
	put(root, "confidence", json_real(c->confidence), &bad);
	put(root, "margin", c->injections ? json_null() : json_real(c->margin), &bad);
	if ((v = json_object())) {
		put(v, "kind", json_string(model_names[c->model]), &bad);
		if (c->model == CAMP_MODEL_ADJACENT)
			put(v, "bits", json_integer(c->model_k), &bad);
		else if (c->model == CAMP_MODEL_MULTI)
			put(v, "faults", json_integer(c->model_k), &bad);
		if (c->model == CAMP_MODEL_MCU) {
			put(v, "words", json_integer(c->model_k), &bad);
			put(v, "interleave", json_integer(c->model_interleave), &bad);
		}
		if (c->model == CAMP_MODEL_STUCK_AT || c->model == CAMP_MODEL_INTERMITTENT) {
			put(v, "value", json_integer(c->model_value), &bad);
			put(v, "from_start", json_boolean(c->model_from_start), &bad);
		}
		if (c->model == CAMP_MODEL_INTERMITTENT) {
			put(v, "period", json_integer((json_int_t)c->model_period), &bad);
			put(v, "duration", json_integer((json_int_t)c->model_duration), &bad);
		}
	}
	put(root, "fault_model", v, &bad);
	put(root, "sampling", json_string(sampling_names[c->sampling]), &bad);
	/* only when asked for: campaigns without them (and without protection,
	 * below) keep their identity */
	if (c->strata != CAMP_STRATA_NONE)
		put(root, "strata", json_string(strata_names[c->strata]), &bad);
	if (c->stop_looks && (v = json_object())) {
		if (c->stop_relative > 0)
			put(v, "relative_margin", json_real(c->stop_relative), &bad);
		else
			put(v, "absolute_margin", json_real(c->stop_absolute), &bad);
		put(v, "looks", json_integer(c->stop_looks), &bad);
		put(root, "stop", v, &bad);
	}
	if (sc_protection_on(&c->prot))
		put(root, "protection", camp__protection_json(&c->prot), &bad);
	if (c->regs_original) /* only when asked for: identities without it stay */
		put(root, "regs_subset", json_string("original"), &bad);
	put(root, "seed", json_integer((json_int_t)c->seed), &bad);
	put(root, "fit_per_bit", json_real(c->fit_per_bit), &bad);
	put(root, "timeout_factor", json_real(c->timeout_factor), &bad);
	put(root, "watchdog_seconds", json_real(c->watchdog_seconds), &bad);
	if (!bad)
		*text = json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(root);
	return bad || !*text ? nomem(x) : 0;
}

static int build_canonical(ctx_t *x)
{
	camp_campaign_t *c = x->c;
	char *legacy;
	int rc = canonical_text(x, false, &c->canonical);
	if (!rc)
		rc = canonical_text(x, true, &legacy);
	if (rc)
		return rc;
	hex64(c->hash, camp_fnv1a(CAMP_FNV_OFFSET, c->canonical, strlen(c->canonical)));
	hex64(c->legacy_hash, camp_fnv1a(CAMP_FNV_OFFSET, legacy, strlen(legacy)));
	free(legacy);
	return 0;
}

/* ---- the file -------------------------------------------------------------- */

static int parse_campaign(ctx_t *x, json_t *root)
{
	static const char *const keys[] = {
		"name", "workload", "gpu", "regs", "target", "fields", "scope", "injections",
		"confidence", "margin", "fault_model", "sampling", "seed", "fit_per_bit",
		"timeout_factor", "watchdog_seconds", "golden_watchdog_seconds", "golden_cycle_budget", "strata", "stop",
		"protection", "regs_subset", NULL};
	json_t *workload, *target;
	int rc;

	if (!json_is_object(root))
		return fail(x, "$", "expected an object");
	if ((rc = check_keys(x, "$", root, keys)) ||
	    (rc = require(x, "$", root, "workload", &workload)) ||
	    (rc = require(x, "$", root, "target", &target)))
		return rc;
	x->workload = workload;
	/* Cheap checks first, so a typo is not hidden behind loading the workload. */
	if ((rc = parse_name(x, json_object_get(root, "name"))) ||
	    (rc = parse_regs(x, json_object_get(root, "regs"))) ||
	    (rc = parse_target(x, target)) ||
	    (rc = parse_fields(x, json_object_get(root, "fields"))) ||
	    (rc = parse_size(x, root)) ||
	    (rc = parse_stop(x, root)) ||
	    (rc = parse_strata(x, json_object_get(root, "strata"))) ||
	    (rc = parse_model(x, json_object_get(root, "fault_model"))) ||
	    (rc = parse_protection(x, json_object_get(root, "protection"))) ||
	    (rc = parse_scalars(x, root)) ||
	    (rc = parse_workload_key(x, workload)) ||
	    (rc = parse_gpu(x, json_object_get(root, "gpu"))) ||
	    (rc = check_protection(x)) ||
	    (rc = parse_regs_subset(x, json_object_get(root, "regs_subset"))) ||
	    (rc = check_target_on_gpu(x)) ||
	    (rc = parse_scope(x, json_object_get(root, "scope"))) ||
	    (rc = check_strata(x)))
		return rc;
	return build_canonical(x);
}

int camp_campaign_load(const char *path, camp_campaign_t **out, char *err, size_t errsz)
{
	char dummy[1];
	ctx_t x = {path, err ? err : dummy, err ? errsz : sizeof dummy, NULL, NULL, NULL, 0};
	json_t *root;
	int rc;

	*out = NULL;
	if (x.errsz)
		x.err[0] = '\0';
	if ((rc = camp__load_json(path, &root, x.err, x.errsz)))
		return rc;
	x.c = calloc(1, sizeof *x.c);
	if (!x.c || !(x.c->path = strdup(path))) {
		rc = nomem(&x);
		goto fail;
	}
	if ((rc = parse_campaign(&x, root)))
		goto fail;
	json_decref(root);
	free(x.digests);
	*out = x.c;
	return 0;
fail:
	json_decref(root);
	free(x.digests);
	camp_campaign_destroy(x.c);
	return rc;
}

void camp_campaign_destroy(camp_campaign_t *c)
{
	if (!c)
		return;
	camp_workload_destroy(c->workload);
	if (c->exec) {
		for (uint32_t i = 0; i < c->exec->argc; i++)
			free(c->exec->argv[i]);
		free(c->exec->argv);
		free(c->exec->cwd);
		free(c->exec);
	}
	free(c->canonical);
	free(c->kernel);
	free(c->gpu_source);
	free(c->workload_path);
	free(c->name);
	free(c->path);
	free(c);
}
