/* The outcome classifier: the precedence of rules documented at
 * cls_classify in parser.h, then element-wise output comparison (exact or
 * relative-tolerance, parser.h at cls_buffer_t) and text comparison; and an
 * SDC's severity (parser.h at cls_severity), measured by the same
 * comparison. Buffers are read as little-endian, which every supported host is. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

const char *cls_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) case code: return text;
	CLS_ERR_LIST(X)
#undef X
	}
	return "unknown error";
}

static const char *const outcome_names[] = {
	[CLS_MASKED] = "masked",
	[CLS_SDC] = "sdc",
	[CLS_DUE] = "due",
};

#define NOUTCOMES (sizeof outcome_names / sizeof outcome_names[0])

const char *cls_outcome_name(cls_outcome_t o)
{
	return (unsigned)o < NOUTCOMES ? outcome_names[o] : "unknown";
}

/* ASCII-only case folding: locale must not change what a name means. */
static bool name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

int cls_outcome_parse(const char *s, cls_outcome_t *o)
{
	if (!s)
		return CLS_EINVAL;
	for (unsigned i = 0; i < NOUTCOMES; i++)
		if (name_eq(s, outcome_names[i])) {
			*o = (cls_outcome_t)i;
			return 0;
		}
	return CLS_EINVAL;
}

/* ---- verdicts ------------------------------------------------------------ */

/* Signals that a crashed experiment is likely to die of. Numbers differ
 * between systems, so the table is built from the <signal.h> names. */
static const struct {
	int sig;
	const char *name;
} signal_names[] = {
	{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
	{SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
	{SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},
	{SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
	{SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
};

static void set(cls_verdict_t *v, cls_outcome_t o, const char *reason)
{
	v->outcome = o;
	snprintf(v->reason, sizeof v->reason, "%s", reason);
}

static void set_crash(cls_verdict_t *v, int sig)
{
	v->outcome = CLS_DUE;
	for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
		if (signal_names[i].sig == sig) {
			snprintf(v->reason, sizeof v->reason, "crash:%s", signal_names[i].name);
			return;
		}
	snprintf(v->reason, sizeof v->reason, "crash:signal %d", sig);
}

/* ---- element kinds ------------------------------------------------------- */

static const struct {
	const char *name;
	uint32_t size;
} elems[] = {
#define X(name, text, bytes) [CLS_T_##name] = {text, bytes},
	CLS_ELEM_LIST(X)
#undef X
};

int cls_elem_parse(const char *s, cls_elem_t *e)
{
	if (!s)
		return CLS_EINVAL;
	for (unsigned i = 0; i < CLS_T__COUNT; i++)
		if (strcmp(s, elems[i].name) == 0) {
			*e = (cls_elem_t)i;
			return 0;
		}
	return CLS_EINVAL;
}

static uint32_t elem_size(cls_elem_t elem)
{
	return (unsigned)elem < CLS_T__COUNT ? elems[elem].size : 1;
}

static bool elem_is_signed(cls_elem_t elem)
{
	return elem == CLS_T_I8 || elem == CLS_T_I16 || elem == CLS_T_I32 || elem == CLS_T_I64;
}

/* ---- comparing elements -------------------------------------------------- */

/* The tolerant rule of parser.h, for two values already known to differ
 * bitwise. */
static bool close_enough(double a, double b, double tol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return false;  /* bitwise equal infinities never get here */
	return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* An element as a double (F32/F64 only). */
static double load_float(const uint8_t *p, cls_elem_t elem)
{
	if (elem == CLS_T_F32) {
		float x;
		memcpy(&x, p, 4);
		return x;
	}
	double x;
	memcpy(&x, p, 8);
	return x;
}

/* An integer element of esz bytes as 64 bits, sign-extended when sgn. */
static uint64_t load_int(const uint8_t *p, uint32_t esz, bool sgn)
{
	uint64_t x = 0;
	memcpy(&x, p, esz);  /* little-endian host: the low bytes */
	if (sgn && esz < 8) {
		uint64_t m = UINT64_C(1) << (8 * esz - 1);
		x = (x ^ m) - m;
	}
	return x;
}

/* Bitwise equality of one element; fixed-size copies compile to plain
 * loads, where memcmp of a variable size stays a call per element. */
static bool bits_equal(const uint8_t *a, const uint8_t *b, uint32_t esz)
{
	switch (esz) {
	case 8: {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		return x == y;
	}
	case 4: {
		uint32_t x, y;
		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		return x == y;
	}
	case 2: {
		uint16_t x, y;
		memcpy(&x, a, 2);
		memcpy(&y, b, 2);
		return x == y;
	}
	default: return *a == *b;
	}
}

static bool elem_equal(const uint8_t *a, const uint8_t *b, cls_elem_t elem, uint32_t esz, double tol)
{
	if (bits_equal(a, b, esz))
		return true;
	if (!(tol > 0) || (elem != CLS_T_F32 && elem != CLS_T_F64))
		return false;  /* exact: integers, RAW, and tol == 0 */
	return close_enough(load_float(a, elem), load_float(b, elem), tol);
}

/* abs -> rel by parser.h's rule; mag is |golden|. */
static double rel_of(double abs, double mag)
{
	return abs == 0 ? 0 : mag == 0 ? INFINITY : abs / mag;
}

static void float_err(double g, double f, double *abs, double *rel)
{
	if (isnan(g) || isnan(f) || isinf(g) || isinf(f)) {
		/* two NaNs differ in payload only; otherwise no finite error */
		*abs = *rel = isnan(g) && isnan(f) ? 0 : INFINITY;
		return;
	}
	*abs = fabs(f - g);
	*rel = rel_of(*abs, fabs(g));
}

/* Exact in 64 bits: the difference of two n-bit integers fits in n bits
 * unsigned, and so does the magnitude of the most negative one. Signed
 * values arrive sign-extended; flipping the sign bit orders them as
 * unsigned numbers. */
static void int_err(uint64_t g, uint64_t f, bool sgn, double *abs, double *rel)
{
	uint64_t bias = sgn ? UINT64_C(1) << 63 : 0;
	uint64_t d = (f ^ bias) > (g ^ bias) ? f - g : g - f;
	uint64_t mag = sgn && (g & bias) ? 0 - g : g;
	*abs = (double)d;
	*rel = rel_of(*abs, (double)mag);
}

/* The errors of one corrupted element pair. */
static void elem_err(const uint8_t *g, const uint8_t *f, cls_elem_t elem, uint32_t esz, double *abs,
                     double *rel)
{
	if (elem == CLS_T_F32 || elem == CLS_T_F64)
		float_err(load_float(g, elem), load_float(f, elem), abs, rel);
	else {
		bool sgn = elem_is_signed(elem);
		int_err(load_int(g, esz, sgn), load_int(f, esz, sgn), sgn, abs, rel);
	}
}

/* ---- comparing outputs --------------------------------------------------- */

/* Bytes compared with one memcmp before looking at elements: most of an
 * SDC's buffer is usually intact. A multiple of every element size. */
#define SCAN_CHUNK 4096

/* Corrupted elements of the common part, from element i0 to n, into s.
 * Errors are never NaN (parser.h), so plain > keeps the maxima. */
static void scan_range(const uint8_t *g, const uint8_t *f, uint64_t i0, uint64_t n, cls_elem_t elem,
                       uint32_t esz, double tol, bool errs, cls_severity_t *s)
{
	uint64_t corrupted = s->corrupted;
	double max_abs = s->max_abs, max_rel = s->max_rel;
	for (uint64_t i = i0; i < n; i++) {
		const uint8_t *a = g + i * esz, *b = f + i * esz;
		if (elem_equal(a, b, elem, esz, tol))
			continue;
		if (corrupted++ == 0)
			s->first = i;
		if (errs) {
			double abs, rel;
			elem_err(a, b, elem, esz, &abs, &rel);
			max_abs = abs > max_abs ? abs : max_abs;
			max_rel = rel > max_rel ? rel : max_rel;
		}
	}
	s->corrupted = corrupted;
	s->max_abs = max_abs;
	s->max_rel = max_rel;
}

/* The comparison behind both cls_classify and cls_severity, into *s as
 * parser.h defines cls_severity_t. With errs false max_abs and max_rel stay
 * 0: the classifier needs only the counts. */
static void scan(const cls_buffer_t *g, const cls_buffer_t *f, bool errs, cls_severity_t *s)
{
	static const cls_buffer_t missing = {0};
	if (!f)
		f = &missing;
	memset(s, 0, sizeof *s);
	cls_elem_t elem = g->elem;
	uint32_t esz = elem_size(elem);
	if (g->bytes % esz || f->bytes % esz) {
		elem = CLS_T_RAW;
		esz = 1;
	}
	uint64_t ng = g->bytes / esz, nf = f->bytes / esz;
	uint64_t n = ng < nf ? ng : nf;
	s->elements = ng > nf ? ng : nf;
	s->size_differs = g->bytes != f->bytes;
	for (uint64_t i = 0; i < n; i += SCAN_CHUNK / esz) {
		uint64_t end = n - i < SCAN_CHUNK / esz ? n : i + SCAN_CHUNK / esz;
		if (memcmp(g->data + i * esz, f->data + i * esz, (end - i) * esz) != 0)
			scan_range(g->data, f->data, i, end, elem, esz, g->rel_tol, errs, s);
	}
	if (ng != nf) {
		if (s->corrupted == 0)
			s->first = n;
		s->corrupted += s->elements - n;
	}
}

void cls_severity(const cls_buffer_t *golden, const cls_buffer_t *faulty, cls_severity_t *out)
{
	scan(golden, faulty, true, out);
}

/* Compares faulty buffer f (NULL: missing) against golden g. Returns true
 * and fills v's first_diff and ndiff when they differ. */
static bool output_differs(const cls_buffer_t *g, const cls_buffer_t *f, cls_verdict_t *v)
{
	cls_severity_t s;
	scan(g, f, false, &s);
	if (s.corrupted == 0)
		return false;  /* identical, or equal within tolerance */
	v->first_diff = s.first;
	v->ndiff = s.corrupted > UINT32_MAX ? UINT32_MAX : (uint32_t)s.corrupted;
	return true;
}

static bool text_differs(const char *a, uint64_t na, const char *b, uint64_t nb)
{
	assert((a || na == 0) && (b || nb == 0));
	return na != nb || (na > 0 && memcmp(a, b, na) != 0);
}

/* Rule 7 of cls_classify: the first differing output, in order. */
static bool outputs_differ(const cls_run_t *g, const cls_run_t *f, cls_verdict_t *v)
{
	for (uint32_t i = 0; i < g->nout; i++) {
		const cls_buffer_t *gb = &g->out[i];
		const cls_buffer_t *fb = i < f->nout ? &f->out[i] : NULL;
		assert(!fb || (fb->name && gb->name && strcmp(fb->name, gb->name) == 0));
		if (output_differs(gb, fb, v)) {
			v->outcome = CLS_SDC;
			snprintf(v->reason, sizeof v->reason, "output:%s", gb->name ? gb->name : "");
			return true;
		}
	}
	return false;
}

void cls_classify(const cls_run_t *golden, const cls_run_t *faulty, cls_verdict_t *out)
{
	const cls_run_t *g = golden, *f = faulty;
	memset(out, 0, sizeof *out);
	assert(g->due == SC_DUE_NONE && g->signal <= 0 && !g->host_timeout);
	assert(g->nout == f->nout);

	if (f->unused)
		set(out, CLS_MASKED, "unused");
	else if (f->early)
		set(out, CLS_MASKED, "early");
	else if (f->signal > 0)
		set_crash(out, f->signal);
	else if (f->host_timeout)
		set(out, CLS_DUE, "watchdog");
	else if (f->due != SC_DUE_NONE)
		set(out, CLS_DUE, sc_due_name(f->due));
	else if (f->exit_status != g->exit_status)
		set(out, CLS_DUE, "exit_status");
	else if (outputs_differ(g, f, out))
		;  /* verdict filled in */
	else if (text_differs(g->stdout_text, g->stdout_len, f->stdout_text, f->stdout_len))
		set(out, CLS_SDC, "stdout");
	else if (text_differs(g->stderr_text, g->stderr_len, f->stderr_text, f->stderr_len))
		set(out, CLS_SDC, "stderr");
	else
		set(out, CLS_MASKED, "no_effect");
}

const char *cls_prot_reason(cls_outcome_t o, const char *reason, sc_prot_t prot)
{
	bool masked_by_run = !strcmp(reason, "no_effect") || !strcmp(reason, "early");
	if (o != CLS_MASKED || !masked_by_run)
		return reason;
	return prot == SC_PROT_CORRECTED ? "corrected" : prot == SC_PROT_RECOVERED ? "recovered" : reason;
}

/* ---- severity of texts --------------------------------------------------- */

/* The next line of [*p, end) as parser.h defines lines: *p moves past it.
 * Returns its length, '\n' included; 0 when the text is used up. */
static uint64_t next_line(const char **p, const char *end)
{
	if (*p >= end)
		return 0;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	uint64_t len = nl ? (uint64_t)(nl + 1 - *p) : (uint64_t)(end - *p);
	*p += len;
	return len;
}

void cls_text_diff(const char *g, uint64_t glen, const char *f, uint64_t flen, uint64_t *first_line,
                   uint64_t *lines_differ)
{
	*first_line = *lines_differ = 0;
	if (!text_differs(g, glen, f, flen))
		return;
	const char *pg = g ? g : "", *pf = f ? f : "";  /* NULL + 0 is not arithmetic */
	const char *gend = pg + glen, *fend = pf + flen;
	for (uint64_t line = 1;; line++) {
		const char *a = pg, *b = pf;
		uint64_t na = next_line(&pg, gend), nb = next_line(&pf, fend);
		if (!na && !nb)
			return;
		if (na != nb || memcmp(a, b, na) != 0) {
			if (!*first_line)
				*first_line = line;
			++*lines_differ;
		}
	}
}

/* ---- severity as JSON ---------------------------------------------------- */

/* Writes like snprintf: pos counts every byte, buf gets those that fit
 * before its last byte (kept for the NUL). */
typedef struct jw {
	char *buf;
	size_t n, pos;
} jw_t;

static void jw_mem(jw_t *w, const char *s, size_t len)
{
	if (w->n && w->pos < w->n - 1) {
		size_t room = w->n - 1 - w->pos;
		memcpy(w->buf + w->pos, s, len < room ? len : room);
	}
	w->pos += len;
}

static void jw_put(jw_t *w, const char *s)
{
	jw_mem(w, s, strlen(s));
}

static void jw_u64(jw_t *w, const char *key, uint64_t v)
{
	char t[64];
	jw_mem(w, t, (size_t)snprintf(t, sizeof t, ",\"%s\":%llu", key, (unsigned long long)v));
}

/* %.17g round-trips a double (in the C locale, which flipsim never leaves);
 * JSON has no inf or nan, so they become strings (parser.h). */
static void jw_num(jw_t *w, const char *key, double v)
{
	char t[64];
	if (isnan(v))
		snprintf(t, sizeof t, ",\"%s\":\"nan\"", key);
	else if (isinf(v))
		snprintf(t, sizeof t, ",\"%s\":\"%sinf\"", key, v < 0 ? "-" : "");
	else
		snprintf(t, sizeof t, ",\"%s\":%.17g", key, v);
	jw_put(w, t);
}

/* The length of the valid UTF-8 sequence at s (s[0] >= 0x80), 0 if it is
 * not one (bad lead or continuation byte, overlong, surrogate, > U+10FFFF).
 * Stops at a NUL, which is never a continuation byte. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t len;
	uint32_t cp, min;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : len;
}

/* s as a JSON string, quotes included. */
static void jw_str(jw_t *w, const char *s)
{
	jw_put(w, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		char t[8];
		size_t len;
		if (*p == '"' || *p == '\\') {
			char e[2] = {'\\', (char)*p};
			jw_mem(w, e, 2);
		} else if (*p < 0x20)
			jw_mem(w, t, (size_t)snprintf(t, sizeof t, "\\u%04x", *p));
		else if (*p < 0x80)
			jw_mem(w, (const char *)p, 1);
		else if ((len = utf8_seq(p)) != 0) {
			jw_mem(w, (const char *)p, len);
			p += len;
			continue;
		} else
			jw_put(w, "\\ufffd");
		p++;
	}
	jw_put(w, "\"");
}

static void jw_output(jw_t *w, const char *name, const cls_severity_t *s)
{
	jw_put(w, "{\"name\":");
	jw_str(w, name);
	jw_u64(w, "elements", s->elements);
	jw_u64(w, "corrupted", s->corrupted);
	jw_u64(w, "first", s->first);
	jw_num(w, "max_abs", s->max_abs);
	jw_num(w, "max_rel", s->max_rel);
	if (s->size_differs)
		jw_put(w, ",\"size_differs\":true");
	jw_put(w, "}");
}

/* ,"stdout":{...} when the texts differ; false when they do not. */
static bool jw_text(jw_t *w, const char *key, const char *g, uint64_t glen, const char *f, uint64_t flen)
{
	uint64_t first, lines;
	cls_text_diff(g, glen, f, flen, &first, &lines);
	if (!lines)
		return false;
	char t[96];
	snprintf(t, sizeof t, ",\"%s\":{\"first_line\":%llu,\"lines\":%llu}", key, (unsigned long long)first,
	         (unsigned long long)lines);
	jw_put(w, t);
	return true;
}

/* Ends a truncated object: room for "]" and this, reserved by json_body. */
#define JSON_TRUNC_TAIL ",\"truncated\":true}"

/* Everything but the closing "}". An entry that ends past limit is taken
 * back and ends the body (outputs' "]" still written); returns true then. */
static bool json_body(jw_t *w, const cls_run_t *g, const cls_run_t *f, size_t limit)
{
	jw_put(w, "{\"outputs\":[");
	bool any = false;
	for (uint32_t i = 0; i < g->nout; i++) {
		cls_severity_t s;
		cls_severity(&g->out[i], i < f->nout ? &f->out[i] : NULL, &s);
		if (!s.corrupted)
			continue;
		size_t mark = w->pos;
		if (any)
			jw_put(w, ",");
		jw_output(w, g->out[i].name, &s);
		if (w->pos > limit) {
			w->pos = mark;
			jw_put(w, "]");
			return true;
		}
		any = true;
	}
	jw_put(w, "]");
	size_t mark = w->pos;
	if (jw_text(w, "stdout", g->stdout_text, g->stdout_len, f->stdout_text, f->stdout_len) &&
	    w->pos > limit) {
		w->pos = mark;
		return true;
	}
	mark = w->pos;
	if (jw_text(w, "stderr", g->stderr_text, g->stderr_len, f->stderr_text, f->stderr_len) &&
	    w->pos > limit) {
		w->pos = mark;
		return true;
	}
	return false;
}

int cls_severity_json(const cls_run_t *golden, const cls_run_t *faulty, char *buf, size_t n)
{
	jw_t w = {buf, n, 0};
	json_body(&w, golden, faulty, SIZE_MAX);
	jw_put(&w, "}");
	if (w.pos < n && w.pos <= INT_MAX) {
		buf[w.pos] = 0;
		return (int)w.pos;
	}
	if (n < CLS_SEVERITY_JSON_MIN) {
		if (n)
			snprintf(buf, n, "%s", n >= 3 ? "{}" : "");
		return -1;
	}
	/* n - 1 for the NUL, then "]" and the tail */
	size_t limit = n - 1 - 1 - (sizeof JSON_TRUNC_TAIL - 1);
	w.pos = 0;
	if (json_body(&w, golden, faulty, limit))
		jw_put(&w, JSON_TRUNC_TAIL);
	else
		jw_put(&w, "}");  /* all of it fits n but is longer than INT_MAX */
	buf[w.pos < n ? w.pos : n - 1] = 0;
	return -1;
}
