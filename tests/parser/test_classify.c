/* The outcome classifier (parser/classify.c): the table of cases in
 * tests/parser/cases.txt (its syntax is described at the top of that file;
 * one Criterion test per case), a check that the table covers every
 * simulator DUE reason, and direct tests of what the table cannot express:
 * name tables, saturation, odd sizes, truncation, unaligned data, asserts;
 * and the severity of an SDC (cls_severity, cls_text_diff, and
 * cls_severity_json read back with jansson). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaigns.h"
#include "parser.h"

#define CASES "tests/parser/cases.txt"

/* ---- the case table: data ------------------------------------------------ */

#define T_MAXOUT 8
#define T_MAXBYTES 512
#define T_MAXTEXT 256

typedef struct t_out {
	char name[32];
	cls_elem_t elem;
	double tol;
	uint8_t data[T_MAXBYTES];
	uint32_t bytes;
} t_out_t;

typedef struct t_run {
	t_out_t out[T_MAXOUT];
	uint32_t nout;
	char text[2][T_MAXTEXT];  /* stdout, stderr */
	uint32_t textlen[2];
	bool has_text[2];         /* false: passed as NULL + 0 */
	sc_due_t due;
	int signal;
	bool watchdog, unused, early;
	int exit_status;
} t_run_t;

typedef struct t_case {
	unsigned line;            /* of the block's first line */
	char title[160];          /* the last comment before it */
	t_run_t run[2];           /* golden, faulty */
	bool has_expect;
	cls_outcome_t outcome;
	char reason[96];
	uint64_t first;
	uint32_t ndiff;
} t_case_t;

typedef struct t_table {
	t_case_t *cases;
	size_t n, cap;
	const char *path;         /* the file being read */
	char err[512];            /* "PATH:LINE: message" after a failure */
} t_table_t;

/* ---- the case table: lexing one line ------------------------------------- */

typedef enum { K_END, K_WORD, K_STR, K_LBR, K_RBR, K_BAD } kind_t;

typedef struct tok {
	kind_t kind;
	char text[T_MAXTEXT];
	uint32_t len;
} tok_t;

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Commas separate like blanks. On K_BAD, t->text holds the complaint. */
static kind_t lex(const char **pp, tok_t *t)
{
	const char *p = *pp;
	while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n')
		p++;
	t->len = 0;
	t->text[0] = 0;
	if (!*p)
		t->kind = K_END;
	else if (*p == '[' || *p == ']')
		t->kind = *p++ == '[' ? K_LBR : K_RBR;
	else if (*p == '"') {
		t->kind = K_STR;
		for (p++; *p != '"'; p++) {
			int c = (unsigned char)*p;
			if (!c) {
				*pp = p;
				snprintf(t->text, sizeof t->text, "unterminated string");
				return t->kind = K_BAD;
			}
			if (c == '\\') {
				switch (*++p) {
				case 'n': c = '\n'; break;
				case 't': c = '\t'; break;
				case '"': c = '"'; break;
				case '\\': c = '\\'; break;
				case 'x':
					if (hexval(p[1]) < 0 || hexval(p[2]) < 0) {
						snprintf(t->text, sizeof t->text, "\\x needs two hex digits");
						return t->kind = K_BAD;
					}
					c = hexval(p[1]) * 16 + hexval(p[2]);
					p += 2;
					break;
				default:
					snprintf(t->text, sizeof t->text, "unknown escape \\%c", *p ? *p : '0');
					return t->kind = K_BAD;
				}
			}
			if (t->len + 1 >= sizeof t->text) {
				snprintf(t->text, sizeof t->text, "string longer than %zu bytes",
				         sizeof t->text - 1);
				return t->kind = K_BAD;
			}
			t->text[t->len++] = (char)c;
		}
		p++;
		t->text[t->len] = 0;
	} else {
		t->kind = K_WORD;
		while (*p && !strchr(" \t\r\n,[]\"", *p)) {
			if (t->len + 1 < sizeof t->text)
				t->text[t->len++] = *p;
			p++;
		}
		t->text[t->len] = 0;
	}
	*pp = p;
	return t->kind;
}

/* ---- the case table: parsing --------------------------------------------- */

static const struct {
	const char *name;
	int sig;
} sig_names[] = {
	{"SIGSEGV", SIGSEGV}, {"SIGABRT", SIGABRT}, {"SIGBUS", SIGBUS}, {"SIGFPE", SIGFPE},
	{"SIGKILL", SIGKILL}, {"SIGILL", SIGILL},   {"SIGTERM", SIGTERM},
};

static bool parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 0);
	if (!*s || *end || errno || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return false;
	unsigned long long x = strtoull(s, &end, base);
	if (*end || errno)
		return false;
	*v = x;
	return true;
}

/* Writes "PATH:LINE: message" into tb->err; returns -1. */
static int fail(t_table_t *tb, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(t_table_t *tb, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(tb->err, sizeof tb->err, "%s:%u: ", tb->path, line);
	va_start(ap, fmt);
	vsnprintf(tb->err + k, sizeof tb->err - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

#define FAIL(...) return fail(tb, line, __VA_ARGS__)

/* One element of an f32/f64 output: a number for strtod or b:HEX bits. */
static int parse_elem(t_table_t *tb, unsigned line, t_out_t *o, const char *w)
{
	uint32_t esz = o->elem == CLS_T_F32 ? 4 : o->elem == CLS_T_F64 ? 8 : 1;
	uint64_t bits;
	if (o->bytes + esz > T_MAXBYTES)
		FAIL("output %s longer than %d bytes", o->name, T_MAXBYTES);
	if (o->elem == CLS_T_RAW) {
		const char *h = strncmp(w, "0x", 2) == 0 ? w + 2 : w;
		if (strlen(h) > 2 || !parse_u64(h, 16, &bits))
			FAIL("expected a hex byte (ff or 0xff), got '%s'", w);
		o->data[o->bytes++] = (uint8_t)bits;
		return 0;
	}
	if (strncmp(w, "b:", 2) == 0) {
		if (strlen(w + 2) > 2 * esz || !parse_u64(w + 2, 16, &bits))
			FAIL("expected b: and at most %u hex digits, got '%s'", 2 * esz, w);
	} else {
		char *end;
		double d = strtod(w, &end);
		if (!*w || *end)
			FAIL("expected a number or b:HEX, got '%s'", w);
		if (o->elem == CLS_T_F32) {
			float f = (float)d;
			uint32_t b32;
			memcpy(&b32, &f, 4);
			bits = b32;
		} else
			memcpy(&bits, &d, 8);
	}
	if (esz == 4) {
		uint32_t b32 = (uint32_t)bits;
		memcpy(o->data + o->bytes, &b32, 4);
	} else
		memcpy(o->data + o->bytes, &bits, 8);
	o->bytes += esz;
	return 0;
}

/* `out NAME TYPE [tol=X] [ELEM...]`, after the word "out". */
static int parse_out(t_table_t *tb, unsigned line, t_run_t *r, const char **p)
{
	tok_t t;
	if (r->nout == T_MAXOUT)
		FAIL("more than %d outputs", T_MAXOUT);
	t_out_t *o = &r->out[r->nout++];
	memset(o, 0, sizeof *o);
	if (lex(p, &t) != K_WORD || t.len >= sizeof o->name)
		FAIL("expected an output name after 'out'");
	memcpy(o->name, t.text, t.len + 1);
	if (lex(p, &t) != K_WORD)
		FAIL("expected raw, f32 or f64 after 'out %s'", o->name);
	if (strcmp(t.text, "raw") == 0)
		o->elem = CLS_T_RAW;
	else if (strcmp(t.text, "f32") == 0)
		o->elem = CLS_T_F32;
	else if (strcmp(t.text, "f64") == 0)
		o->elem = CLS_T_F64;
	else
		FAIL("expected raw, f32 or f64, got '%s'", t.text);
	kind_t k = lex(p, &t);
	if (k == K_WORD && strncmp(t.text, "tol=", 4) == 0) {
		char *end;
		o->tol = strtod(t.text + 4, &end);
		if (!t.text[4] || *end || !(o->tol >= 0))
			FAIL("expected tol=NUMBER >= 0, got '%s'", t.text);
		if (o->elem == CLS_T_RAW)
			FAIL("tol= applies to f32 and f64 outputs only");
		k = lex(p, &t);
	}
	if (k != K_LBR)
		FAIL("expected '[' to open the elements of output %s", o->name);
	while ((k = lex(p, &t)) == K_WORD)
		if (parse_elem(tb, line, o, t.text))
			return -1;
	if (k != K_RBR)
		FAIL("expected an element or ']' in output %s", o->name);
	return 0;
}

/* The items of one golden:/faulty:/both: line, from p, into r. */
static int parse_items(t_table_t *tb, unsigned line, t_run_t *r, const char *p)
{
	tok_t t;
	long v;
	for (;;) {
		kind_t k = lex(&p, &t);
		if (k == K_END)
			return 0;
		if (k == K_BAD)
			FAIL("%s", t.text);
		if (k != K_WORD)
			FAIL("expected an item (out, stdout, due=, ...)");
		const char *w = t.text;
		if (strcmp(w, "out") == 0) {
			if (parse_out(tb, line, r, &p))
				return -1;
		} else if (strcmp(w, "stdout") == 0 || strcmp(w, "stderr") == 0) {
			int i = w[3] == 'e';
			kind_t k2 = lex(&p, &t);
			if (k2 == K_BAD)
				FAIL("%s", t.text);
			if (k2 != K_STR)
				FAIL("expected a \"string\" after %s", i ? "stderr" : "stdout");
			memcpy(r->text[i], t.text, t.len);
			r->textlen[i] = t.len;
			r->has_text[i] = true;
		} else if (strncmp(w, "due=", 4) == 0) {
			int d;
			for (d = 0; d < SC_DUE__COUNT; d++)
				if (strcmp(w + 4, sc_due_name((sc_due_t)d)) == 0)
					break;
			if (d == SC_DUE__COUNT)
				FAIL("unknown DUE reason '%s'", w + 4);
			r->due = (sc_due_t)d;
		} else if (strncmp(w, "signal=", 7) == 0) {
			size_t i;
			for (i = 0; i < sizeof sig_names / sizeof sig_names[0]; i++)
				if (strcmp(w + 7, sig_names[i].name) == 0)
					break;
			if (i < sizeof sig_names / sizeof sig_names[0])
				r->signal = sig_names[i].sig;
			else if (parse_int(w + 7, 1, 1000, &v))
				r->signal = (int)v;
			else
				FAIL("expected signal=NAME or signal=N (1..1000), got '%s'", w);
		} else if (strncmp(w, "exit=", 5) == 0) {
			if (!parse_int(w + 5, 0, 255, &v))
				FAIL("expected exit=N (0..255), got '%s'", w);
			r->exit_status = (int)v;
		} else if (strcmp(w, "watchdog") == 0)
			r->watchdog = true;
		else if (strcmp(w, "unused") == 0)
			r->unused = true;
		else if (strcmp(w, "early") == 0)
			r->early = true;
		else
			FAIL("unknown item '%s'", w);
	}
}

/* `OUTCOME REASON [first=N] [ndiff=N]` */
static int parse_expect(t_table_t *tb, unsigned line, t_case_t *c, const char *p)
{
	tok_t t;
	uint64_t v;
	if (c->has_expect)
		FAIL("a second expect: line");
	c->has_expect = true;
	if (lex(&p, &t) != K_WORD || cls_outcome_parse(t.text, &c->outcome) != 0)
		FAIL("expected masked, sdc or due after 'expect:'");
	kind_t k = lex(&p, &t);
	if ((k != K_WORD && k != K_STR) || t.len >= sizeof c->reason)
		FAIL("expected a reason after the outcome");
	memcpy(c->reason, t.text, t.len + 1);
	while ((k = lex(&p, &t)) == K_WORD) {
		if (strncmp(t.text, "first=", 6) == 0 && parse_u64(t.text + 6, 10, &v))
			c->first = v;
		else if (strncmp(t.text, "ndiff=", 6) == 0 && parse_u64(t.text + 6, 10, &v) &&
		         v <= UINT32_MAX)
			c->ndiff = (uint32_t)v;
		else
			FAIL("expected first=N or ndiff=N, got '%s'", t.text);
	}
	if (k != K_END)
		FAIL("unexpected text after the reason");
	return 0;
}

static int finish_case(t_table_t *tb, t_case_t *c)
{
	unsigned line = c->line;
	if (!c->has_expect)
		FAIL("block has no expect: line");
	tb->n++;
	return 0;
}

static void table_free(t_table_t *tb)
{
	free(tb->cases);
	tb->cases = NULL;
	tb->n = tb->cap = 0;
}

/* Reads the whole table; returns 0, or -1 with tb->err set. */
static int table_load(t_table_t *tb, const char *path)
{
	memset(tb, 0, sizeof *tb);
	tb->path = path;
	FILE *fp = fopen(path, "r");
	if (!fp) {
		snprintf(tb->err, sizeof tb->err, "%s: %s (run from the repository root)", path,
		         strerror(errno));
		return -1;
	}
	char *buf = NULL, title[160] = "";
	size_t bufsz = 0;
	unsigned line = 0;
	t_case_t *c = NULL;  /* the block being read */
	int rc = 0;
	while (getline(&buf, &bufsz, fp) >= 0) {
		line++;
		const char *p = buf + strspn(buf, " \t");
		if (*p == '\n' || *p == '\r' || !*p) {
			if (c && (rc = finish_case(tb, c)) != 0)
				goto done;
			c = NULL;
			continue;
		}
		if (*p == '#') {
			p += 1 + strspn(p + 1, " \t");
			snprintf(title, sizeof title, "%.*s", (int)strcspn(p, "\r\n"), p);
			continue;
		}
		if (!c) {
			if (tb->n == tb->cap) {
				size_t cap = tb->cap ? 2 * tb->cap : 32;
				t_case_t *nc = realloc(tb->cases, cap * sizeof *nc);
				if (!nc) {
					snprintf(tb->err, sizeof tb->err, "out of memory");
					rc = -1;
					goto done;
				}
				tb->cases = nc;
				tb->cap = cap;
			}
			c = &tb->cases[tb->n];
			memset(c, 0, sizeof *c);
			c->line = line;
			memcpy(c->title, title, sizeof title);
		}
		size_t key = strcspn(p, ": \t\r\n");
		const char *rest = p + key + 1;
		if (p[key] != ':') {
			rc = fail(tb, line, "expected golden:, faulty:, both: or expect:");
		} else if (key == 6 && strncmp(p, "golden", 6) == 0)
			rc = parse_items(tb, line, &c->run[0], rest);
		else if (key == 6 && strncmp(p, "faulty", 6) == 0)
			rc = parse_items(tb, line, &c->run[1], rest);
		else if (key == 4 && strncmp(p, "both", 4) == 0) {
			rc = parse_items(tb, line, &c->run[0], rest);
			if (!rc)
				rc = parse_items(tb, line, &c->run[1], rest);
		} else if (key == 6 && strncmp(p, "expect", 6) == 0)
			rc = parse_expect(tb, line, c, rest);
		else {
			rc = fail(tb, line, "unknown key '%.*s:'", (int)key, p);
		}
		if (rc)
			goto done;
	}
	if (c)
		rc = finish_case(tb, c);
done:
	free(buf);
	fclose(fp);
	return rc;
}

/* ---- the case table: running --------------------------------------------- */

/* A cls_run_t viewing r; bufs must hold T_MAXOUT. */
static void to_run(const t_run_t *r, cls_buffer_t *bufs, cls_run_t *out)
{
	for (uint32_t i = 0; i < r->nout; i++)
		bufs[i] = (cls_buffer_t){r->out[i].name, r->out[i].data, r->out[i].bytes,
		                         r->out[i].elem, r->out[i].tol};
	*out = (cls_run_t){
		.out = bufs,
		.nout = r->nout,
		.stdout_text = r->has_text[0] ? r->text[0] : NULL,
		.stdout_len = r->textlen[0],
		.stderr_text = r->has_text[1] ? r->text[1] : NULL,
		.stderr_len = r->textlen[1],
		.due = r->due,
		.signal = r->signal,
		.host_timeout = r->watchdog,
		.exit_status = r->exit_status,
		.unused = r->unused,
		.early = r->early,
	};
}

static void run_case(const t_case_t *c, cls_verdict_t *v)
{
	cls_buffer_t gb[T_MAXOUT], fb[T_MAXOUT];
	cls_run_t g, f;
	to_run(&c->run[0], gb, &g);
	to_run(&c->run[1], fb, &f);
	memset(v, 0xa5, sizeof *v);  /* the classifier must set every field */
	cls_classify(&g, &f, v);
}

typedef struct case_param {
	size_t index;
} case_param_t;

static void free_params(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

/* One test per case. An unreadable table gives no parameters here; the
 * table_is_sound test below reports why. */
ParameterizedTestParameters(cases, table)
{
	t_table_t tb;
	size_t n = table_load(&tb, CASES) == 0 ? tb.n : 0;
	table_free(&tb);
	case_param_t *p = n ? cr_malloc(n * sizeof *p) : NULL;
	if (!p)
		n = 0;
	for (size_t i = 0; i < n; i++)
		p[i].index = i;
	return cr_make_param_array(case_param_t, p, n, free_params);
}

ParameterizedTest(case_param_t *prm, cases, table)
{
	t_table_t tb;
	cr_assert(table_load(&tb, CASES) == 0, "%s", tb.err);
	cr_assert(prm->index < tb.n);
	const t_case_t *c = &tb.cases[prm->index];
	cls_verdict_t v;
	run_case(c, &v);
	bool ok = v.outcome == c->outcome && strcmp(v.reason, c->reason) == 0 &&
	          v.first_diff == c->first && v.ndiff == c->ndiff;
	cr_expect(ok, "%s:%u (%s):\n  got  %s \"%s\" first=%llu ndiff=%u\n  want %s \"%s\" first=%llu ndiff=%u",
	          CASES, c->line, c->title, cls_outcome_name(v.outcome), v.reason,
	          (unsigned long long)v.first_diff, v.ndiff, cls_outcome_name(c->outcome),
	          c->reason, (unsigned long long)c->first, c->ndiff);
	table_free(&tb);
}

/* The table parses, is large enough, and names every simulator DUE reason
 * and every masked reason in some expectation, so a new SC_DUE reason fails
 * here until a case for it is added. */
Test(cases, table_is_sound)
{
	t_table_t tb;
	cr_assert(table_load(&tb, CASES) == 0, "%s", tb.err);
	cr_expect(tb.n >= 30, "only %zu cases", tb.n);
	const char *need[SC_DUE__COUNT + 8];
	size_t nneed = 0;
	for (int d = 1; d < SC_DUE__COUNT; d++)
		need[nneed++] = sc_due_name((sc_due_t)d);
	const char *fixed[] = {"no_effect", "unused", "early", "watchdog", "exit_status",
	                       "stdout", "stderr"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		need[nneed++] = fixed[i];
	for (size_t i = 0; i < nneed; i++) {
		bool found = false;
		for (size_t j = 0; j < tb.n && !found; j++)
			found = strcmp(tb.cases[j].reason, need[i]) == 0;
		cr_expect(found, "no case in %s expects reason '%s'", CASES, need[i]);
	}
	table_free(&tb);
}

/* The table parser rejects what it does not understand, naming the line. */
Test(cases, parser_errors)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"golden: out c f32 [1.0\nexpect: masked no_effect\n", ":1: expected an element or ']'"},
		{"golden: out c i32 [1]\nexpect: masked no_effect\n", ":1: expected raw, f32 or f64"},
		{"golden: out c raw [100]\nexpect: masked no_effect\n", ":1: expected a hex byte"},
		{"faulty: due=oops\nexpect: due oops\n", ":1: unknown DUE reason 'oops'"},
		{"faulty: signal=SIGNOPE\nexpect: due x\n", ":1: expected signal=NAME"},
		{"faulty: watchdog\n", ":1: block has no expect: line"},
		{"faulty: watchdog\nexpect: bad watchdog\n", ":2: expected masked, sdc or due"},
		{"faulty: stdout \"a\nexpect: masked no_effect\n", ":1: unterminated string"},
		{"faulty: exit=1\nresult: due exit_status\n", ":2: unknown key 'result:'"},
		{"golden: out c raw tol=0.1 [00]\nexpect: masked no_effect\n", ":1: tol= applies"},
	};
	char path[] = "/tmp/flipsim_cases_XXXXXX";
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int fd = mkstemp(path);
		cr_assert(fd >= 0);
		FILE *fp = fdopen(fd, "w");
		fputs(bad[i].text, fp);
		fclose(fp);
		t_table_t tb;
		int rc = table_load(&tb, path);
		remove(path);
		strcpy(path, "/tmp/flipsim_cases_XXXXXX");
		cr_expect(rc == -1 && strstr(tb.err, bad[i].want), "case %zu: got '%s', want '%s'", i,
		          tb.err, bad[i].want);
		table_free(&tb);
	}
}

/* ---- direct tests ---------------------------------------------------------- */

static cls_verdict_t classify(const cls_run_t *g, const cls_run_t *f)
{
	cls_verdict_t v;
	memset(&v, 0xa5, sizeof v);
	cls_classify(g, f, &v);
	return v;
}

Test(classify, outcome_names)
{
	static const char *const names[] = {"masked", "sdc", "due"};
	for (int i = 0; i < 3; i++) {
		cls_outcome_t o = (cls_outcome_t)-1;
		cr_expect_str_eq(cls_outcome_name((cls_outcome_t)i), names[i]);
		cr_expect_eq(cls_outcome_parse(names[i], &o), 0);
		cr_expect_eq(o, (cls_outcome_t)i);
	}
	cls_outcome_t o = CLS_SDC;
	cr_expect_eq(cls_outcome_parse("DUE", &o), 0);
	cr_expect_eq(o, CLS_DUE);
	cr_expect_eq(cls_outcome_parse("Masked", &o), 0);
	cr_expect_eq(o, CLS_MASKED);
	o = CLS_SDC;
	cr_expect_eq(cls_outcome_parse("", &o), CLS_EINVAL);
	cr_expect_eq(cls_outcome_parse("mask", &o), CLS_EINVAL);
	cr_expect_eq(cls_outcome_parse("sdcx", &o), CLS_EINVAL);
	cr_expect_eq(cls_outcome_parse(NULL, &o), CLS_EINVAL);
	cr_expect_eq(o, CLS_SDC, "a failed parse leaves *o alone");
	cr_expect_str_eq(cls_outcome_name((cls_outcome_t)7), "unknown");
	cr_expect_str_eq(cls_strerror(CLS_EINVAL), "invalid argument");
	cr_expect_str_eq(cls_strerror(0), "success");
}

/* Straight from the enum, so a reason added to SC_DUE_LIST is covered even
 * before the table has a case for it. */
Test(classify, every_due_reason)
{
	cls_run_t g = {0};
	for (int d = 1; d < SC_DUE__COUNT; d++) {
		cls_run_t f = {.due = (sc_due_t)d};
		cls_verdict_t v = classify(&g, &f);
		cr_expect_eq(v.outcome, CLS_DUE);
		cr_expect_str_eq(v.reason, sc_due_name((sc_due_t)d));
		cr_expect_eq(v.first_diff, 0);
		cr_expect_eq(v.ndiff, 0);
	}
}

/* A Masked run whose error a code corrected is Masked "corrected", also
 * when it ended early; nothing else changes its reason. */
Test(classify, corrected_reason)
{
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "no_effect", SC_PROT_CORRECTED), "corrected");
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "early", SC_PROT_CORRECTED), "corrected");
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "no_effect", SC_PROT_NONE), "no_effect");
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "early", SC_PROT_MISCORRECTED), "early",
	                 "a miscorrection that did no harm is the program's masking, not the code's");
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "no_effect", SC_PROT_UNDETECTED), "no_effect");
	cr_expect_str_eq(cls_prot_reason(CLS_MASKED, "unused", SC_PROT_CORRECTED), "unused");
	cr_expect_str_eq(cls_prot_reason(CLS_SDC, "output:c", SC_PROT_CORRECTED), "output:c");
	cr_expect_str_eq(cls_prot_reason(CLS_DUE, "ecc_uncorrectable", SC_PROT_DETECTED), "ecc_uncorrectable");
}

/* ndiff saturates: a size difference of 2^33 elements, none of which is
 * read (the common part is empty). */
Test(classify, ndiff_saturates)
{
	static const uint8_t byte = 0;
	cls_buffer_t gb = {"huge", &byte, UINT64_C(1) << 33, CLS_T_RAW, 0};
	cls_buffer_t fb = {"huge", &byte, 0, CLS_T_RAW, 0};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_str_eq(v.reason, "output:huge");
	cr_expect_eq(v.first_diff, 0);
	cr_expect_eq(v.ndiff, UINT32_MAX);
}

/* A buffer whose size is not a multiple of its element size is compared
 * as bytes, so first_diff counts bytes and the tolerance is not applied. */
Test(classify, odd_size_compares_raw)
{
	float a[2] = {1.0f, 2.0f}, b[2] = {1.0f, 2.0001f};
	cls_buffer_t gb = {"c", (const uint8_t *)a, 7, CLS_T_F32, 0.1};
	cls_buffer_t fb = {"c", (const uint8_t *)b, 7, CLS_T_F32, 0.1};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_geq(v.first_diff, 4);
	cr_expect_lt(v.first_diff, 7);
	/* the same values at a whole-element size are within tolerance */
	gb.bytes = fb.bytes = 8;
	v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_MASKED);
}

/* rel_tol means nothing for RAW buffers: bytes compare exactly. */
Test(classify, raw_ignores_tolerance)
{
	uint8_t a[2] = {100, 200}, b[2] = {100, 201};
	cls_buffer_t gb = {"m", a, 2, CLS_T_RAW, 0.5};
	cls_buffer_t fb = {"m", b, 2, CLS_T_RAW, 0.5};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_eq(v.first_diff, 1);
	cr_expect_eq(v.ndiff, 1);
}

/* Data need not be aligned to its element size. */
Test(classify, unaligned_data)
{
	uint8_t ga[1 + 3 * 8], fa[1 + 3 * 8];
	double gv[3] = {1.0, 2.0, 3.0}, fv[3] = {1.0, 2.0 + 1e-9, 3.5};
	memcpy(ga + 1, gv, sizeof gv);
	memcpy(fa + 1, fv, sizeof fv);
	cls_buffer_t gb = {"d", ga + 1, sizeof gv, CLS_T_F64, 1e-6};
	cls_buffer_t fb = {"d", fa + 1, sizeof fv, CLS_T_F64, 1e-6};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_eq(v.first_diff, 2);
	cr_expect_eq(v.ndiff, 1);
}

/* A long output name is cut to fit, still NUL-terminated. */
Test(classify, long_name_truncated)
{
	char name[200];
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = 0;
	uint8_t a = 0, b = 1;
	cls_buffer_t gb = {name, &a, 1, CLS_T_RAW, 0}, fb = {name, &b, 1, CLS_T_RAW, 0};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_eq(strlen(v.reason), sizeof v.reason - 1);
	cr_expect_eq(strncmp(v.reason, "output:nnnn", 11), 0);
}

/* Realistic sizes: one flipped bit among 64 Ki floats, within and beyond
 * tolerance. */
Test(classify, large_buffer)
{
	enum { N = 65536 };
	float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	cr_assert(a && b);
	for (int i = 0; i < N; i++)
		a[i] = b[i] = (float)i * 0.5f - 100.0f;
	uint32_t bits;
	memcpy(&bits, &b[40000], 4);
	bits ^= 1u;  /* lowest mantissa bit */
	memcpy(&b[40000], &bits, 4);
	cls_buffer_t gb = {"c", (uint8_t *)a, N * 4, CLS_T_F32, 0};
	cls_buffer_t fb = {"c", (uint8_t *)b, N * 4, CLS_T_F32, 0};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cls_verdict_t v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_SDC);
	cr_expect_eq(v.first_diff, 40000);
	cr_expect_eq(v.ndiff, 1);
	gb.rel_tol = 1e-6;
	v = classify(&g, &f);
	cr_expect_eq(v.outcome, CLS_MASKED);
	cr_expect_str_eq(v.reason, "no_effect");
	cr_expect_eq(v.first_diff, 0);
	cr_expect_eq(v.ndiff, 0);
	free(a);
	free(b);
}

/* The tolerance comes from the golden buffer, not the faulty one. */
Test(classify, tolerance_from_golden)
{
	float a = 1.0f, b = 1.001f;
	cls_buffer_t gb = {"c", (uint8_t *)&a, 4, CLS_T_F32, 0.01};
	cls_buffer_t fb = {"c", (uint8_t *)&b, 4, CLS_T_F32, 0};
	cls_run_t g = {.out = &gb, .nout = 1}, f = {.out = &fb, .nout = 1};
	cr_expect_eq(classify(&g, &f).outcome, CLS_MASKED);
	gb.rel_tol = 0;
	fb.rel_tol = 0.01;
	cr_expect_eq(classify(&g, &f).outcome, CLS_SDC);
}

#ifndef NDEBUG
/* A golden run that did not finish normally is the caller's bug. */
Test(classify, golden_due_asserts, .signal = SIGABRT, .init = cr_redirect_stderr)
{
	cls_run_t g = {.due = SC_DUE_TRAP}, f = {0};
	cls_verdict_t v;
	cls_classify(&g, &f, &v);
}
#endif

/* ---- severity ---------------------------------------------------------------- */

/* Every campaign buffer type has a classifier element kind of the same
 * name (the engine maps one to the other by name), of the same size. */
Test(severity, elem_names)
{
	for (int t = 0; t < CAMP_T__COUNT; t++) {
		cls_elem_t e = CLS_T__COUNT;
		cr_expect_eq(cls_elem_parse(camp_type_name((camp_type_t)t), &e), 0, "%s",
		             camp_type_name((camp_type_t)t));
		/* an element of the type's size compares as that kind, not RAW */
		uint8_t a[8] = {0}, b[8] = {0};
		b[camp_type_size((camp_type_t)t) - 1] = 1;
		cls_buffer_t gb = {"x", a, camp_type_size((camp_type_t)t), e, 0};
		cls_buffer_t fb = {"x", b, camp_type_size((camp_type_t)t), e, 0};
		cls_severity_t s;
		cls_severity(&gb, &fb, &s);
		cr_expect_eq(s.elements, 1, "%s", camp_type_name((camp_type_t)t));
	}
	cls_elem_t e = CLS_T_F32;
	cr_expect_eq(cls_elem_parse("raw", &e), 0);
	cr_expect_eq(e, CLS_T_RAW);
	cr_expect_eq(cls_elem_parse("F32", &e), CLS_EINVAL);
	cr_expect_eq(cls_elem_parse("i128", &e), CLS_EINVAL);
	cr_expect_eq(cls_elem_parse(NULL, &e), CLS_EINVAL);
	cr_expect_eq(e, CLS_T_RAW, "a failed parse leaves *e alone");
}

/* cls_severity of g against f (f NULL: missing). Every field must be set,
 * and the counts must be the classifier's verdict on the same pair. */
static cls_severity_t severity(const cls_buffer_t *g, const cls_buffer_t *f)
{
	cls_severity_t s;
	memset(&s, 0xa5, sizeof s);
	cls_severity(g, f, &s);
	cls_buffer_t none = {g->name, NULL, 0, g->elem, 0};  /* what the engine passes */
	cls_run_t gr = {.out = g, .nout = 1}, fr = {.out = f ? f : &none, .nout = 1};
	cls_verdict_t v = classify(&gr, &fr);
	if (s.corrupted == 0)
		cr_expect_eq(v.outcome, CLS_MASKED, "severity and verdict disagree on %s", g->name);
	else {
		cr_expect_eq(v.outcome, CLS_SDC, "severity and verdict disagree on %s", g->name);
		cr_expect_eq(v.first_diff, s.first);
		cr_expect_eq(v.ndiff, s.corrupted > UINT32_MAX ? UINT32_MAX : s.corrupted);
	}
	return s;
}

#define BUF(name, arr, elem, tol) ((cls_buffer_t){name, (const uint8_t *)(arr), sizeof(arr), elem, tol})

/* Every field of s against the expected ones (infinities compare equal). */
#define EXPECT_SEV(s, n, k, at, abs, rel, sd) expect_sev(s, n, k, at, abs, rel, sd, __LINE__)
static void expect_sev(cls_severity_t s, uint64_t n, uint64_t k, uint64_t at, double abs, double rel,
                       bool sd, int line)
{
	bool ok = s.elements == n && s.corrupted == k && s.first == at && s.max_abs == abs &&
	          s.max_rel == rel && s.size_differs == sd;
	cr_expect(ok,
	          "line %d:\n  got  elements %llu corrupted %llu first %llu max_abs %.17g max_rel %.17g size_differs %d"
	          "\n  want elements %llu corrupted %llu first %llu max_abs %.17g max_rel %.17g size_differs %d",
	          line, (unsigned long long)s.elements, (unsigned long long)s.corrupted,
	          (unsigned long long)s.first, s.max_abs, s.max_rel, s.size_differs, (unsigned long long)n,
	          (unsigned long long)k, (unsigned long long)at, abs, rel, sd);
}

Test(severity, f32_one_element)
{
	float g[4] = {1.0f, 2.0f, 3.0f, 4.0f}, f[4] = {1.0f, 2.5f, 3.0f, 4.0f};
	cls_buffer_t gb = BUF("c", g, CLS_T_F32, 0), fb = BUF("c", f, CLS_T_F32, 0);
	/* exact: 2.5 - 2 and 0.5 / 2 */
	EXPECT_SEV(severity(&gb, &fb), 4, 1, 1, 0.5, 0.25, false);
}

/* Identical buffers: nothing corrupted, every error 0. */
Test(severity, identical)
{
	double g[3] = {1.0, -0.0, NAN};
	cls_buffer_t gb = BUF("d", g, CLS_T_F64, 0);
	EXPECT_SEV(severity(&gb, &gb), 3, 0, 0, 0, 0, false);
}

/* The largest errors may come from different elements; an element within
 * the tolerance is not corrupted and adds no error. */
Test(severity, f64_maxima_and_tolerance)
{
	double g[4] = {1.0, 100.0, 0.5, 8.0}, f[4] = {1.0 + 1e-9, 101.0, 0.75, 8.0};
	cls_buffer_t gb = BUF("d", g, CLS_T_F64, 1e-6), fb = BUF("d", f, CLS_T_F64, 1e-6);
	/* abs from element 1, rel from element 2 (0.25 / 0.5) */
	EXPECT_SEV(severity(&gb, &fb), 4, 2, 1, 1.0, 0.5, false);
	/* exact comparison: the first element counts too, its error is tiny */
	gb.rel_tol = 0;
	EXPECT_SEV(severity(&gb, &fb), 4, 3, 0, 1.0, 0.5, false);
}

Test(severity, nan_and_infinity)
{
	uint32_t qnan = 0x7fc00000, qnan2 = 0x7fc00001;
	float nan1, nan2;
	memcpy(&nan1, &qnan, 4);
	memcpy(&nan2, &qnan2, 4);
	float g[1] = {2.0f}, f[1] = {nan1};
	cls_buffer_t gb = BUF("c", g, CLS_T_F32, 0), fb = BUF("c", f, CLS_T_F32, 0);
	EXPECT_SEV(severity(&gb, &fb), 1, 1, 0, INFINITY, INFINITY, false);
	/* NaN in golden, a number in faulty: the same */
	EXPECT_SEV(severity(&fb, &gb), 1, 1, 0, INFINITY, INFINITY, false);
	/* two NaNs differing in payload: corrupted (exact), no numeric error */
	g[0] = nan2;
	EXPECT_SEV(severity(&gb, &fb), 1, 1, 0, 0, 0, false);
	/* an infinity against a finite value and against the other infinity */
	g[0] = INFINITY;
	f[0] = 1e30f;
	EXPECT_SEV(severity(&gb, &fb), 1, 1, 0, INFINITY, INFINITY, false);
	f[0] = -INFINITY;
	EXPECT_SEV(severity(&gb, &fb), 1, 1, 0, INFINITY, INFINITY, false);
}

Test(severity, golden_zero)
{
	double g[3] = {0.0, 0.0, 4.0}, f[3] = {0.5, -0.0, 4.0};
	cls_buffer_t gb = BUF("d", g, CLS_T_F64, 0), fb = BUF("d", f, CLS_T_F64, 0);
	/* -0 is bitwise different from +0 */
	EXPECT_SEV(severity(&gb, &fb), 3, 2, 0, 0.5, INFINITY, false);
	/* -0 against +0 alone: corrupted, but errors 0 (not 0/0) */
	f[0] = 0.0;
	EXPECT_SEV(severity(&gb, &fb), 3, 1, 1, 0, 0, false);
}

Test(severity, signed_integers)
{
	/* elements of 4 bytes, not bytes */
	int32_t g[3] = {-5, 7, 9}, f[3] = {3, 7, 9};
	cls_buffer_t gb = BUF("n", g, CLS_T_I32, 0), fb = BUF("n", f, CLS_T_I32, 0);
	EXPECT_SEV(severity(&gb, &fb), 3, 1, 0, 8.0, 8.0 / 5.0, false);

	int8_t g8[2] = {-128, 0}, f8[2] = {127, 0};
	cls_buffer_t g8b = BUF("b", g8, CLS_T_I8, 0), f8b = BUF("b", f8, CLS_T_I8, 0);
	EXPECT_SEV(severity(&g8b, &f8b), 2, 1, 0, 255.0, 255.0 / 128.0, false);

	int16_t g16[1] = {-300}, f16[1] = {-301};
	cls_buffer_t g16b = BUF("h", g16, CLS_T_I16, 0), f16b = BUF("h", f16, CLS_T_I16, 0);
	EXPECT_SEV(severity(&g16b, &f16b), 1, 1, 0, 1.0, 1.0 / 300.0, false);

	/* the widest difference there is: exact in 64 bits, 2^64 - 1 rounds
	 * to 2^64; relative 2^64 / 2^63 */
	int64_t g64[1] = {INT64_MIN}, f64[1] = {INT64_MAX};
	cls_buffer_t g64b = BUF("q", g64, CLS_T_I64, 0), f64b = BUF("q", f64, CLS_T_I64, 0);
	EXPECT_SEV(severity(&g64b, &f64b), 1, 1, 0, 18446744073709551616.0, 2.0, false);
}

Test(severity, unsigned_integers)
{
	/* 2^60 + 1 and 2^60 are the same double: the difference is taken
	 * before converting. UINT64_MAX - 0 rounds to 2^64. */
	uint64_t g[2] = {(UINT64_C(1) << 60) + 1, UINT64_MAX}, f[2] = {UINT64_C(1) << 60, 0};
	cls_buffer_t gb = BUF("u", g, CLS_T_U64, 0), fb = BUF("u", f, CLS_T_U64, 0);
	EXPECT_SEV(severity(&gb, &fb), 2, 2, 0, 18446744073709551616.0, 1.0, false);
	f[1] = UINT64_MAX;
	EXPECT_SEV(severity(&gb, &fb), 2, 1, 0, 1.0, 1.0 / 1152921504606846976.0 /* 2^60 */, false);

	/* unsigned, not signed: 0xffff is 65535, golden 0 gives +inf */
	uint16_t g16[2] = {0, 1}, f16[2] = {0xffff, 1};
	cls_buffer_t g16b = BUF("w", g16, CLS_T_U16, 0), f16b = BUF("w", f16, CLS_T_U16, 0);
	EXPECT_SEV(severity(&g16b, &f16b), 2, 1, 0, 65535.0, INFINITY, false);
}

/* Integers compare exactly whatever rel_tol says, in elements, and the
 * verdict's first_diff counts elements (severity() checks it). */
Test(severity, integers_ignore_tolerance)
{
	uint32_t g[3] = {1, 100, 3}, f[3] = {1, 101, 3};
	cls_buffer_t gb = BUF("n", g, CLS_T_U32, 0.5), fb = BUF("n", f, CLS_T_U32, 0.5);
	EXPECT_SEV(severity(&gb, &fb), 3, 1, 1, 1.0, 0.01, false);
}

Test(severity, sizes_differ)
{
	float g[4] = {1.0f, 2.0f, 3.0f, 4.0f}, f[2] = {1.0f, 2.5f};
	cls_buffer_t gb = BUF("c", g, CLS_T_F32, 0), fb = BUF("c", f, CLS_T_F32, 0);
	/* one corrupted in the common part, two missing that add no error */
	EXPECT_SEV(severity(&gb, &fb), 4, 3, 1, 0.5, 0.25, true);
	/* the faulty one longer, the common part equal: the longer one's count */
	f[1] = 2.0f;
	EXPECT_SEV(severity(&fb, &gb), 4, 2, 2, 0, 0, true);
	/* a missing output */
	EXPECT_SEV(severity(&gb, NULL), 4, 4, 0, 0, 0, true);
	/* a size that is not whole elements: bytes, RAW. The common part, 1.0f
	 * and three bytes of 2.0f, is equal; the 9 surplus golden bytes are not */
	fb.bytes = 7;
	EXPECT_SEV(severity(&gb, &fb), 16, 9, 7, 0, 0, true);
}

Test(severity, raw_bytes)
{
	uint8_t g[3] = {10, 200, 7}, f[3] = {12, 100, 7};
	cls_buffer_t gb = BUF("m", g, CLS_T_RAW, 0.9), fb = BUF("m", f, CLS_T_RAW, 0.9);
	/* unsigned bytes: 200 - 100; 100 / 200 beats 2 / 10; tolerance ignored */
	EXPECT_SEV(severity(&gb, &fb), 3, 2, 0, 100.0, 0.5, false);
}

/* Differences on both sides of the comparison's internal 4 KiB chunks,
 * and the last element, all counted. */
Test(severity, large_buffer)
{
	enum { N = 10000 };
	double *g = malloc(N * sizeof *g), *f = malloc(N * sizeof *f);
	cr_assert(g && f);
	for (int i = 0; i < N; i++)
		g[i] = f[i] = i + 1.0;
	static const int at[] = {511, 512, 1023, 4096, N - 1};
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
		f[at[k]] += (double)k + 1.0;  /* abs error k + 1 */
	cls_buffer_t gb = {"d", (uint8_t *)g, N * 8, CLS_T_F64, 0};
	cls_buffer_t fb = {"d", (uint8_t *)f, N * 8, CLS_T_F64, 0};
	/* rel from element 512: 2 / 513 beats 5 / 10000 */
	EXPECT_SEV(severity(&gb, &fb), N, 5, 511, 5.0, 2.0 / 513.0, false);
	free(g);
	free(f);
}

/* ---- severity of texts ----------------------------------------------------- */

static void text_diff(const char *g, const char *f, uint64_t *first, uint64_t *lines)
{
	*first = *lines = 0xa5a5;
	cls_text_diff(g, g ? strlen(g) : 0, f, f ? strlen(f) : 0, first, lines);
}

Test(severity, texts)
{
	static const struct {
		const char *g, *f;
		uint64_t first, lines;
	} t[] = {
		{"a\nb\nc\n", "a\nb\nc\n", 0, 0},
		{NULL, "", 0, 0},
		{"a\nb\nc\n", "a\nX\nc\n", 2, 1},      /* one changed line */
		{"a\nb\nc\n", "a\nX\nY\n", 2, 2},
		{"a\nb\n", "a\n", 2, 1},               /* a missing trailing line */
		{"a\n", "a\nb\nc\n", 2, 2},            /* extra lines */
		{"a\nb\n", "a\nb", 2, 1},              /* the last newline missing */
		{"a\nb", "a\nc", 2, 1},                /* no final newline on either */
		{NULL, "x", 1, 1},
		{"x\n", NULL, 1, 1},
		{"\n\n", "\n", 2, 1},                  /* empty lines are lines */
		{"a\nb\nc\n", "z\na\nb\nc\n", 1, 4},   /* by position: an insertion shifts all */
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint64_t first, lines;
		text_diff(t[i].g, t[i].f, &first, &lines);
		cr_expect(first == t[i].first && lines == t[i].lines,
		          "case %zu: got first_line %llu lines %llu, want %llu %llu", i,
		          (unsigned long long)first, (unsigned long long)lines,
		          (unsigned long long)t[i].first, (unsigned long long)t[i].lines);
	}
	/* texts with NUL bytes compare by length, not as C strings */
	uint64_t first, lines;
	cls_text_diff("a\0b\n", 4, "a\0c\n", 4, &first, &lines);
	cr_expect_eq(first, 1);
	cr_expect_eq(lines, 1);
}

/* ---- severity as JSON ------------------------------------------------------ */

/* A run pair with something of everything: an intact output, a changed
 * f64 one, one with an awkward name and an infinite relative error, one
 * whose size differs, a changed stdout and an equal stderr. */
typedef struct j_pair {
	double ga[2], gc[3], fc[3];
	int32_t gz[2], fz[2];
	uint8_t gs[4], fs[2];
	cls_buffer_t gb[4], fb[4];
	cls_run_t g, f;
} j_pair_t;

static void j_pair_init(j_pair_t *p)
{
	memset(p, 0, sizeof *p);
	p->ga[0] = 1.0;
	p->ga[1] = 2.0;
	p->gc[0] = 3.0, p->gc[1] = 0.1, p->gc[2] = 5.0;
	memcpy(p->fc, p->gc, sizeof p->fc);
	p->fc[1] = 0.3;  /* abs 0.19999999999999998: needs all 17 digits */
	p->gz[0] = 0, p->gz[1] = -2;
	p->fz[0] = 7, p->fz[1] = -2;
	p->gs[0] = p->fs[0] = 1;
	p->gs[1] = p->fs[1] = 2;
	/* "é" is valid UTF-8; 0xff is not */
	static const char *const names[4] = {"a", "c", "q\"\\\n\xc3\xa9\xff", "s"};
	const void *gd[4] = {p->ga, p->gc, p->gz, p->gs}, *fd[4] = {p->ga, p->fc, p->fz, p->fs};
	uint64_t gn[4] = {16, 24, 8, 4}, fn[4] = {16, 24, 8, 2};
	cls_elem_t el[4] = {CLS_T_F64, CLS_T_F64, CLS_T_I32, CLS_T_U8};
	for (int i = 0; i < 4; i++) {
		p->gb[i] = (cls_buffer_t){names[i], gd[i], gn[i], el[i], 0};
		p->fb[i] = (cls_buffer_t){names[i], fd[i], fn[i], el[i], 0};
	}
	p->g = (cls_run_t){.out = p->gb, .nout = 4, .stdout_text = "x\ny\nz\n", .stdout_len = 6,
	                   .stderr_text = "w\n", .stderr_len = 2};
	p->f = p->g;
	p->f.out = p->fb;
	p->f.stdout_text = "x\nY\n";
	p->f.stdout_len = 4;
}

static json_t *j_parse(const char *buf)
{
	json_error_t e;
	json_t *j = json_loads(buf, 0, &e);
	cr_assert(j, "invalid JSON at %d: %s\n%s", e.position, e.text, buf);
	return j;
}

static uint64_t j_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(json_is_integer(v), "%s is not an integer", key);
	return (uint64_t)json_integer_value(v);
}

Test(severity, json)
{
	j_pair_t p;
	j_pair_init(&p);
	char buf[1024];
	int len = cls_severity_json(&p.g, &p.f, buf, sizeof buf);
	cr_assert_gt(len, 0);
	cr_expect_eq((size_t)len, strlen(buf));
	json_t *j = j_parse(buf);
	json_t *outs = json_object_get(j, "outputs");
	cr_assert(json_is_array(outs));
	cr_assert_eq(json_array_size(outs), 3, "only the outputs that differ: %s", buf);

	json_t *c = json_array_get(outs, 0);
	cls_severity_t s;
	cls_severity(&p.gb[1], &p.fb[1], &s);
	cr_expect_str_eq(json_string_value(json_object_get(c, "name")), "c");
	cr_expect_eq(j_u64(c, "elements"), 3);
	cr_expect_eq(j_u64(c, "corrupted"), 1);
	cr_expect_eq(j_u64(c, "first"), 1);
	cr_expect_eq(json_real_value(json_object_get(c, "max_abs")), s.max_abs, "round trip of %.17g",
	             s.max_abs);
	cr_expect_eq(json_real_value(json_object_get(c, "max_rel")), s.max_rel);
	cr_expect_eq(s.max_abs, 0.3 - 0.1);
	cr_expect_null(json_object_get(c, "size_differs"));

	json_t *q = json_array_get(outs, 1);
	cr_expect_str_eq(json_string_value(json_object_get(q, "name")), "q\"\\\n\xc3\xa9\xef\xbf\xbd",
	                 "escaped, and the invalid byte replaced by U+FFFD");
	cr_expect_eq(json_number_value(json_object_get(q, "max_abs")), 7.0);
	cr_expect_str_eq(json_string_value(json_object_get(q, "max_rel")), "inf", "golden 0");

	json_t *sz = json_array_get(outs, 2);
	cr_expect_eq(j_u64(sz, "elements"), 4);
	cr_expect_eq(j_u64(sz, "corrupted"), 2);
	cr_expect_eq(j_u64(sz, "first"), 2);
	cr_expect(json_is_true(json_object_get(sz, "size_differs")));

	json_t *so = json_object_get(j, "stdout");
	cr_assert(json_is_object(so), "%s", buf);
	cr_expect_eq(j_u64(so, "first_line"), 2);
	cr_expect_eq(j_u64(so, "lines"), 2);
	cr_expect_null(json_object_get(j, "stderr"), "stderr is equal");
	cr_expect_null(json_object_get(j, "truncated"));
	json_decref(j);
}

/* A masked run: an empty list and nothing else. */
Test(severity, json_no_difference)
{
	j_pair_t p;
	j_pair_init(&p);
	char buf[64];
	int len = cls_severity_json(&p.g, &p.g, buf, sizeof buf);
	cr_expect_eq(len, (int)strlen("{\"outputs\":[]}"));
	json_t *j = j_parse(buf);
	cr_expect_eq(json_object_size(j), 1);
	cr_expect_eq(json_array_size(json_object_get(j, "outputs")), 0);
	json_decref(j);
	/* a faulty run without the outputs: each counted whole */
	p.f.nout = 0;
	p.f.stdout_text = p.g.stdout_text;
	p.f.stdout_len = p.g.stdout_len;
	char big[1024];
	cr_assert_gt(cls_severity_json(&p.g, &p.f, big, sizeof big), 0);
	j = j_parse(big);
	json_t *outs = json_object_get(j, "outputs");
	cr_expect_eq(json_array_size(outs), 4);
	cr_expect_eq(j_u64(json_array_get(outs, 0), "corrupted"), 2);
	json_decref(j);
}

/* Every buffer size short of the whole: -1, valid JSON marked truncated
 * holding a prefix of the whole's entries, nothing written past n. */
Test(severity, json_truncated)
{
	j_pair_t p;
	j_pair_init(&p);
	char whole[1024];
	int len = cls_severity_json(&p.g, &p.f, whole, sizeof whole);
	cr_assert_gt(len, CLS_SEVERITY_JSON_MIN);
	json_t *wj = j_parse(whole);
	json_t *wouts = json_object_get(wj, "outputs");
	size_t prev = 0;
	char buf[1024 + 16];
	for (size_t n = 0; n <= (size_t)len + 1; n++) {
		memset(buf, 0x5a, sizeof buf);
		int rc = cls_severity_json(&p.g, &p.f, buf, n);
		for (size_t i = n; i < sizeof buf; i++)
			cr_assert_eq(buf[i], 0x5a, "n %zu: byte %zu written", n, i);
		if (n == (size_t)len + 1) {
			cr_expect_eq(rc, len);
			cr_expect_str_eq(buf, whole);
			break;
		}
		cr_expect_eq(rc, -1, "n %zu", n);
		if (n == 0)
			continue;
		cr_expect_lt(strlen(buf), n);
		if (n < 3) {
			cr_expect_str_eq(buf, "");
			continue;
		}
		json_t *j = j_parse(buf);
		if (n < CLS_SEVERITY_JSON_MIN) {
			cr_expect_eq(json_object_size(j), 0, "n %zu: %s", n, buf);
			json_decref(j);
			continue;
		}
		cr_expect(json_is_true(json_object_get(j, "truncated")), "n %zu: %s", n, buf);
		json_t *outs = json_object_get(j, "outputs");
		size_t k = json_array_size(outs);
		cr_expect_leq(k, json_array_size(wouts));
		for (size_t i = 0; i < k; i++)
			cr_expect(json_equal(json_array_get(outs, i), json_array_get(wouts, i)), "n %zu", n);
		json_t *so = json_object_get(j, "stdout");
		if (so) {
			cr_expect_eq(k, json_array_size(wouts), "stdout only after every output");
			cr_expect(json_equal(so, json_object_get(wj, "stdout")));
		}
		size_t entries = k + (so != NULL);
		cr_expect_geq(entries, prev, "n %zu: a larger buffer holds as much", n);
		prev = entries;
		json_decref(j);
	}
	cr_expect_eq(prev, json_array_size(wouts), "just short of the whole, only stdout is left out");
	json_decref(wj);
}
