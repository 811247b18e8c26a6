/* The runner of the plain-text instruction tests (insn.h; the format is in
 * tests/simcore/insn/README.md). A case is read into names (registers with
 * per-thread values, or global buffers) and instruction lines; the lines
 * decide which names are outputs (written) and, unless annotated, their
 * types. The kernel made for a case loads every name from a per-thread
 * record, skips the instruction lines in the lanes the launch turns off,
 * and stores the outputs; it is run converged and, unless the case says
 * otherwise, diverged, where the lanes turned off must keep a sentinel.
 * Only simcore.h's public API is used, so the runner outlives rewrites of
 * the simulator's internals. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "insn.h"

enum {
	MAXT = 256,       /* threads of a case (one CTA) */
	MAXNAMES = 32,    /* names of a case */
	MAXLINES = 64,    /* instruction lines of a case */
	MAXREPORT = 8     /* mismatches reported per run */
};
#define SENT 0x5a5a5a5a5a5a5a5aull /* what outputs hold in lanes turned off */
#define ALL_ON 0xffffffffu
#define DIVERGED 0x00f0a005u      /* lanes on in the diverged run */

/* ---- PTX types ---------------------------------------------------------- */

typedef enum { K_INT, K_FLOAT, K_RAW, K_PRED } tkind_t; /* K_RAW: bits only (halves) */

typedef struct ptype {
	const char *name;
	unsigned bits;
	tkind_t kind;
} ptype_t;

static const ptype_t ptypes[] = {
	{"pred", 1, K_PRED}, {"b8", 8, K_INT}, {"b16", 16, K_INT}, {"b32", 32, K_INT}, {"b64", 64, K_INT},
	{"u8", 8, K_INT}, {"u16", 16, K_INT}, {"u32", 32, K_INT}, {"u64", 64, K_INT}, {"s8", 8, K_INT},
	{"s16", 16, K_INT}, {"s32", 32, K_INT}, {"s64", 64, K_INT}, {"f16", 16, K_RAW}, {"f16x2", 32, K_RAW},
	{"bf16", 16, K_RAW}, {"bf16x2", 32, K_RAW}, {"f32", 32, K_FLOAT}, {"f64", 64, K_FLOAT},
};

static const ptype_t *ptype_find(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof ptypes / sizeof ptypes[0]; i++)
		if (strlen(ptypes[i].name) == n && !memcmp(ptypes[i].name, s, n))
			return &ptypes[i];
	return NULL;
}

static const ptype_t *ptype(const char *s) { return ptype_find(s, strlen(s)); }

static uint64_t width_mask(const ptype_t *t) { return t->bits >= 64 ? ~0ull : (1ull << t->bits) - 1; }

/* The integer type of twice the width (mul.wide's destination). */
static const ptype_t *ptype_twice(const ptype_t *t)
{
	char s[16];
	snprintf(s, sizeof s, "%c%u", t->name[0], 2 * t->bits);
	return ptype(s);
}

/* ---- cases -------------------------------------------------------------- */

typedef struct span {
	const char *p;
	unsigned n;
} span_t;

typedef enum { R_UNUSED, R_IN, R_OUT } role_t;

typedef struct iname {
	char id[32];
	const ptype_t *t;        /* register type (u64 for a buffer) */
	role_t role;
	unsigned line;           /* of its value line */
	span_t text;             /* its values, read once the type is known */
	uint32_t n;              /* 1 (every thread) or one value per thread */
	uint64_t *v;
	uint8_t *any;            /* an output's values that are ? (not checked) */
	const ptype_t *et;       /* a buffer's element type; NULL for registers */
	span_t exp_text;         /* a buffer's expected contents ([NAME] = ...) */
	unsigned exp_line;
	uint32_t nexp;
	uint64_t *exp;
	uint8_t *exp_any;
	uint64_t dptr;           /* a buffer's device address in this run */
} iname_t;

typedef struct icase {
	const char *file;
	unsigned line;           /* first line */
	char title[120];         /* the last comment line before it */
	span_t text[MAXLINES];
	unsigned tline[MAXLINES];
	unsigned ntext;
	iname_t names[MAXNAMES];
	unsigned nnames;
	unsigned threads;        /* 0 until known */
	bool diverge;
	int due;                 /* expected DUE reason, -1 for none */
	bool has_error;
	char error[120];         /* expected fragment of the load error */
	bool started;            /* a line of it was read */
	bool broken;             /* a syntax error was reported */
} icase_t;

typedef struct runner {
	const char *file;
	FILE *rep;
	h_ctx_t h;
	unsigned failed;
	bool case_failed;        /* the current case has reported */
} runner_t;

static void vreport(runner_t *r, const icase_t *c, unsigned line, const char *fmt, va_list ap)
{
	if (!r->case_failed) {
		r->failed++;
		r->case_failed = true;
		if (c->ntext)
			fprintf(r->rep, "%s:%u: case '%.*s'%s%s\n", c->file, c->line, (int)c->text[0].n, c->text[0].p,
			        c->title[0] ? " # " : "", c->title);
	}
	fprintf(r->rep, "%s:%u: ", c->file, line);
	vfprintf(r->rep, fmt, ap);
	fputc('\n', r->rep);
}

/* Reports a failure of case c at `line` (the first report of a case also
 * names it). Returns -1, for the syntax checks. */
static int say(runner_t *r, const icase_t *c, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(r, c, line, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- lexing helpers ----------------------------------------------------- */

static bool id_start(int c) { return isalpha(c) || c == '_'; }
static bool id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static span_t trim(span_t s)
{
	while (s.n && isspace((unsigned char)*s.p))
		s.p++, s.n--;
	while (s.n && isspace((unsigned char)s.p[s.n - 1]))
		s.n--;
	return s;
}

static bool span_is(span_t s, const char *w) { return strlen(w) == s.n && !memcmp(s.p, w, s.n); }

/* The next identifier of [*p, e) that is a word of its own (not a
 * modifier, a register or the letters of a number): its span, and *p
 * after it.
 * Returns false when there is none. */
static bool next_word(const char **p, const char *e, const char *start, span_t *w)
{
	for (const char *q = *p; q < e; q++) {
		if (!id_start((unsigned char)*q))
			continue;
		const char *b = q;
		while (q < e && id_char((unsigned char)*q))
			q++;
		char prev = b > start ? b[-1] : ' ';
		if (isalnum((unsigned char)prev) || prev == '_' || prev == '$' || prev == '%' || prev == '.') {
			q--;
			continue;
		}
		*w = (span_t){b, (unsigned)(q - b)};
		*p = q;
		return true;
	}
	*p = e;
	return false;
}

static iname_t *name_find(icase_t *c, span_t w)
{
	for (unsigned i = 0; i < c->nnames; i++)
		if (span_is(w, c->names[i].id))
			return &c->names[i];
	return NULL;
}

/* ---- values ------------------------------------------------------------- */

/* A float literal of t (f32 or f64) as strtod reads it, with an optional
 * trailing f after a digit: 1.5, -0.0, inf, 0x1p-149, 2.5f. */
static int float_literal(const char *s, const ptype_t *t, uint64_t *out)
{
	char buf[64], *end;
	snprintf(buf, sizeof buf, "%s", s);
	size_t n = strlen(buf);
	if (n > 1 && (buf[n - 1] == 'f' || buf[n - 1] == 'F') && (isdigit((unsigned char)buf[n - 2]) || buf[n - 2] == '.'))
		buf[n - 1] = 0;
	errno = 0;
	double d = strtod(buf, &end);
	if (*end || end == buf)
		return -1;
	if (t->bits == 64) {
		memcpy(out, &d, 8);
		return 0;
	}
	float f = (float)d;
	uint32_t u;
	memcpy(&u, &f, 4);
	*out = u;
	return 0;
}

/* One literal of type t: integers in decimal or 0x hex, negative ones in
 * two's complement of the width; predicates 0, 1, true, false; floats as
 * float_literal reads them, or exact bits in 0x hex. Returns 0, or -1 with
 * the reason in *why. */
static int parse_literal(const char *s, const ptype_t *t, uint64_t *out, const char **why)
{
	*why = "not a literal of the type";
	if (t->kind == K_PRED) {
		*out = !strcmp(s, "1") || !strcmp(s, "true");
		return *out || !strcmp(s, "0") || !strcmp(s, "false") ? 0 : -1;
	}
	bool neg = s[0] == '-';
	const char *digits = s + neg;
	bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
	if (t->kind == K_FLOAT && !(hex && !neg && !strpbrk(s, "pP.")))
		return float_literal(s, t, out);
	char *end;
	errno = 0;
	unsigned long long v = strtoull(digits, &end, hex ? 16 : 10);
	if (*end || end == digits || !isdigit((unsigned char)*digits))
		return -1;
	uint64_t m = width_mask(t);
	*why = "does not fit the type's width";
	if (errno || (neg ? v != 0 && v - 1 > m >> 1 : v > m))
		return -1;
	*out = (neg ? 0 - (uint64_t)v : (uint64_t)v) & m;
	return 0;
}

/* The values of s, each a literal of t or LITERAL*COUNT, separated by
 * blanks or commas, into a new array *out of *n; with `any`, a value may be
 * ? (not checked), marked in the new array *any. */
static int parse_values(runner_t *r, const icase_t *c, unsigned line, span_t s, const ptype_t *t, uint64_t **out,
                        uint8_t **any, uint32_t *n)
{
	uint64_t *v = NULL;
	uint8_t *q = NULL;
	uint32_t cnt = 0;
	const char *p = s.p, *e = s.p + s.n;
	for (;;) {
		while (p < e && (isspace((unsigned char)*p) || *p == ','))
			p++;
		if (p == e)
			break;
		char tok[64];
		unsigned k = 0;
		while (p < e && !isspace((unsigned char)*p) && *p != ',' && k + 1 < sizeof tok)
			tok[k++] = *p++;
		tok[k] = 0;
		char *star = strchr(tok, '*');
		unsigned long rep = 1;
		if (star) {
			*star = 0;
			rep = strtoul(star + 1, NULL, 10);
		}
		uint64_t x = 0;
		const char *why = "bad count";
		bool dontcare = any && !strcmp(tok, "?");
		if (rep == 0 || rep > 4096 || cnt + rep > 4096 || (!dontcare && parse_literal(tok, t, &x, &why))) {
			free(v);
			free(q);
			return say(r, c, line, "'%s' is not a value of type %s (%s)", tok, t->name, why);
		}
		v = realloc(v, (cnt + rep) * sizeof *v);
		q = realloc(q, cnt + rep);
		while (rep--) {
			q[cnt] = dontcare;
			v[cnt++] = x;
		}
	}
	if (!cnt)
		return say(r, c, line, "no values");
	*out = v;
	*n = cnt;
	if (any)
		*any = q;
	else
		free(q);
	return 0;
}

/* ---- reading a case ----------------------------------------------------- */

static const char *const reserved[] = {"threads", "diverge", "due", "error", NULL};

/* "NAME[:SPEC] = ..." or "[NAME] = ...": the left side (blanks removed) and
 * the right side; false for anything else (an instruction line). */
static bool split_assign(span_t s, char *lhs, size_t lsz, span_t *rhs)
{
	const char *p = s.p, *e = s.p + s.n;
	unsigned k = 0;
	bool br = p < e && *p == '[';
	p += br;
	if (p == e || !id_start((unsigned char)*p))
		return false;
	while (p < e && (id_char((unsigned char)*p) || *p == ':' || *p == '.') && k + 2 < lsz)
		lhs[k++] = *p++;
	if (br) {
		if (p == e || *p != ']')
			return false;
		p++;
	}
	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p == e || *p != '=' || (p + 1 < e && p[1] == '='))
		return false;
	lhs[k] = 0;
	if (br)
		memmove(lhs + 1, lhs, k + 1), lhs[0] = '[';
	*rhs = trim((span_t){p + 1, (unsigned)(e - p - 1)});
	return true;
}

static int directive(runner_t *r, icase_t *c, const char *key, span_t v, unsigned line)
{
	char s[128];
	snprintf(s, sizeof s, "%.*s", (int)v.n, v.p);
	if (!strcmp(key, "threads")) {
		char *end;
		unsigned long n = strtoul(s, &end, 10);
		if (*end || n == 0 || n > MAXT)
			return say(r, c, line, "threads must be 1..%d", MAXT);
		c->threads = (unsigned)n;
	} else if (!strcmp(key, "diverge")) {
		if (strcmp(s, "yes") && strcmp(s, "no"))
			return say(r, c, line, "diverge is yes or no");
		c->diverge = !strcmp(s, "yes");
	} else if (!strcmp(key, "due")) {
		for (int i = 1; i < SC_DUE__COUNT; i++)
			if (!strcmp(s, sc_due_name((sc_due_t)i)))
				c->due = i;
		if (c->due < 0)
			return say(r, c, line, "unknown DUE reason '%s'", s);
	} else {
		c->has_error = true;
		snprintf(c->error, sizeof c->error, "%.*s", (int)sizeof c->error - 1, s);
	}
	return 0;
}

/* NAME[:TYPE] or NAME:global.TYPE = VALUES */
static int value_line(runner_t *r, icase_t *c, const char *lhs, span_t rhs, unsigned line)
{
	const char *colon = strchr(lhs, ':');
	size_t n = colon ? (size_t)(colon - lhs) : strlen(lhs);
	if (n >= sizeof c->names[0].id || (strchr(lhs, '.') && !colon))
		return say(r, c, line, "bad name '%s'", lhs);
	if (name_find(c, (span_t){lhs, (unsigned)n}))
		return say(r, c, line, "'%.*s' given twice", (int)n, lhs);
	if (c->nnames == MAXNAMES)
		return say(r, c, line, "more than %d names", MAXNAMES);
	iname_t *x = &c->names[c->nnames++];
	memset(x, 0, sizeof *x);
	memcpy(x->id, lhs, n);
	x->line = line;
	x->text = rhs;
	if (!colon)
		return 0;
	const char *spec = colon + 1;
	if (!strncmp(spec, "global.", 7)) {
		x->et = ptype(spec + 7);
		x->t = ptype("u64");
		if (!x->et || x->et->kind == K_PRED)
			return say(r, c, line, "bad element type in '%s'", spec);
	} else if (!(x->t = ptype(spec))) {
		return say(r, c, line, "unknown type '%s'", spec);
	}
	return 0;
}

/* One line of a case: a directive, a value line, an expected buffer or an
 * instruction line. */
static int case_line(runner_t *r, icase_t *c, span_t s, unsigned line)
{
	char lhs[64];
	span_t rhs;
	if (!c->started)
		c->line = line;
	c->started = true;
	if (!split_assign(s, lhs, sizeof lhs, &rhs)) {
		if (c->ntext == MAXLINES)
			return say(r, c, line, "more than %d instruction lines", MAXLINES);
		c->tline[c->ntext] = line;
		c->text[c->ntext++] = s;
		return 0;
	}
	for (int i = 0; reserved[i]; i++)
		if (!strcmp(lhs, reserved[i]))
			return directive(r, c, lhs, rhs, line);
	if (lhs[0] != '[')
		return value_line(r, c, lhs, rhs, line);
	iname_t *x = name_find(c, (span_t){lhs + 1, (unsigned)strlen(lhs + 1)});
	if (!x || !x->et)
		return say(r, c, line, "[%s] = names no buffer declared above (NAME:global.TYPE = ...)", lhs + 1);
	x->exp_text = rhs;
	x->exp_line = line;
	return 0;
}

/* ---- what the instruction lines make of the names ----------------------- */

/* A mnemonic split at its dots: the base, its type suffixes, and the
 * modifiers the operand rules below depend on. */
typedef struct mnem {
	char base[16];
	const ptype_t *ty[4];
	unsigned nty;
	bool wide, red, vec;
} mnem_t;

static void mnem_read(span_t s, mnem_t *m)
{
	memset(m, 0, sizeof *m);
	const char *p = s.p, *e = s.p + s.n;
	for (bool first = true; p < e; first = false) {
		const char *q = p;
		while (q < e && *q != '.')
			q++;
		span_t w = {p, (unsigned)(q - p)};
		const ptype_t *t = ptype_find(w.p, w.n);
		if (first)
			snprintf(m->base, sizeof m->base, "%.*s", (int)w.n, w.p);
		else if (t && m->nty < 4)
			m->ty[m->nty++] = t;
		m->wide |= span_is(w, "wide");
		m->red |= span_is(w, "red") && !first;
		m->vec |= span_is(w, "v2") || span_is(w, "v4");
		p = q + (q < e);
	}
}

static bool base_in(const mnem_t *m, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(m->base, list[i]))
			return true;
	return false;
}

/* Whether operand `pos` of m is written. */
static bool writes(const mnem_t *m, unsigned pos)
{
	static const char *const none[] = {"st", "red", "bra", "call", "ret", "exit", "trap", "membar", "fence",
	                                   "nop", "prefetch", NULL};
	if (pos != 0 || base_in(m, none))
		return false;
	return !(!strcmp(m->base, "bar") || !strcmp(m->base, "barrier")) || m->red;
}

/* The type operand `pos` of `nops` has, by the PTX ISA's operand rules;
 * NULL when the mnemonic says nothing (the name must be annotated). */
static const ptype_t *pos_type(const mnem_t *m, unsigned pos, unsigned nops)
{
	const ptype_t *first = m->nty ? m->ty[0] : NULL, *last = m->nty ? m->ty[m->nty - 1] : NULL;
	const ptype_t *P = ptype("pred"), *U32 = ptype("u32");
	const char *b = m->base;
	static const char *const amount[] = {"shl", "shr", NULL}, *const count[] = {"popc", "clz", "bfind", NULL};
	if (!strcmp(b, "setp"))
		return pos == 0 || pos == 3 ? P : last;
	if (!strcmp(b, "set"))
		return pos == 3 ? P : pos == 0 ? first : last;
	if (!strcmp(b, "selp"))
		return pos == 3 ? P : first;
	if (!strcmp(b, "slct"))
		return pos == 3 ? last : first;
	if (!strcmp(b, "testp") || !strcmp(b, "isspacep"))
		return pos == 0 ? P : !strcmp(b, "testp") ? first : ptype("u64");
	if (!strcmp(b, "cvt"))
		return pos == 0 ? first : last;
	if ((!strcmp(b, "mul") || !strcmp(b, "mad")) && m->wide && first)
		return pos == 0 || pos == 3 ? ptype_twice(first) : first;
	if ((base_in(m, amount) && pos == 2) || (!strcmp(b, "bfe") && pos >= 2) || (!strcmp(b, "bfi") && pos >= 3) ||
	    (!strcmp(b, "shf") && pos == 3) || (base_in(m, count) && pos == 0))
		return U32;
	if (!strcmp(b, "shfl"))
		return pos <= 1 ? first : U32;
	if (!strcmp(b, "vote"))
		return pos == 0 ? first : pos == 1 ? P : U32;
	if (!strcmp(b, "bar") || !strcmp(b, "barrier"))
		return m->red && pos == 0 ? first : m->red && pos + 1 == nops ? P : U32;
	if (base_in(m, (const char *const[]){"ld", "st", "atom", "red", "mov", NULL}))
		return first;
	return pos == 0 ? first : last;
}

/* Records that the words of operand text o are used (with type t unless
 * annotated, written when w). Returns -1 after reporting. */
static int use_words(runner_t *r, icase_t *c, unsigned line, span_t o, const ptype_t *t, bool w)
{
	const char *p = o.p, *e = o.p + o.n;
	span_t word;
	while (next_word(&p, e, o.p, &word)) {
		iname_t *x = name_find(c, word);
		if (!x)
			continue;
		if (x->et && w)
			return say(r, c, line, "'%s' is a buffer; it cannot be written", x->id);
		if (w)
			x->role = R_OUT;
		else if (x->role == R_UNUSED)
			x->role = R_IN;
		if (!x->t)
			x->t = t;
	}
	return 0;
}

/* Operand `pos` of m: a register, !pred, a|pred, {a, b}, [address+k], or
 * anything else (immediates, labels, special registers). */
static int use_operand(runner_t *r, icase_t *c, unsigned line, const mnem_t *m, span_t o, unsigned pos, unsigned nops,
                       unsigned nvec)
{
	o = trim(o);
	bool w = writes(m, pos);
	const ptype_t *t = pos_type(m, pos, nops);
	if (t && nvec > 1 && !m->vec && !strcmp(m->base, "mov")) { /* packing: {lo, hi} are halves */
		char name[16];
		snprintf(name, sizeof name, "b%u", t->bits / nvec);
		t = ptype(name);
	}
	if (o.n && o.p[0] == '[')
		return use_words(r, c, line, o, ptype("u64"), false);
	if (o.n && o.p[0] == '!')
		return use_words(r, c, line, o, ptype("pred"), w);
	const char *bar = memchr(o.p, '|', o.n);
	if (bar) {
		span_t a = {o.p, (unsigned)(bar - o.p)}, b = {bar + 1, (unsigned)(o.p + o.n - bar - 1)};
		return use_words(r, c, line, a, t, w) || use_words(r, c, line, b, ptype("pred"), w) ? -1 : 0;
	}
	return use_words(r, c, line, o, t, w);
}

/* Splits the operands of instruction line s (after its guard and mnemonic)
 * at the commas outside brackets and braces. */
static unsigned split_operands(span_t s, span_t *ops, unsigned max)
{
	const char *p = s.p, *e = s.p + s.n, *b = p;
	unsigned n = 0, depth = 0;
	for (; p <= e; p++) {
		bool end = p == e || *p == ';';
		if (!end && (*p == '[' || *p == '{'))
			depth++;
		else if (!end && (*p == ']' || *p == '}'))
			depth--;
		if ((end || (*p == ',' && depth == 0)) && n < max) {
			span_t o = trim((span_t){b, (unsigned)(p - b)});
			if (o.n || n)
				ops[n++] = o;
			b = p + 1;
		}
		if (end)
			break;
	}
	return n;
}

/* Reads instruction line s: its guard, mnemonic and operands. Labels,
 * directives and braces use no names. */
static int use_line(runner_t *r, icase_t *c, span_t s, unsigned line)
{
	s = trim(s);
	if (!s.n || s.p[s.n - 1] == ':' || s.p[0] == '.' || s.p[0] == '{' || s.p[0] == '}')
		return 0;
	const char *p = s.p, *e = s.p + s.n;
	if (*p == '@') {
		const char *q = p;
		while (q < e && !isspace((unsigned char)*q))
			q++;
		if (use_words(r, c, line, (span_t){p, (unsigned)(q - p)}, ptype("pred"), false))
			return -1;
		while (q < e && isspace((unsigned char)*q))
			q++;
		p = q;
	}
	const char *q = p;
	while (q < e && !isspace((unsigned char)*q) && *q != ';')
		q++;
	mnem_t m;
	mnem_read((span_t){p, (unsigned)(q - p)}, &m);
	span_t ops[16];
	unsigned n = split_operands((span_t){q, (unsigned)(e - q)}, ops, 16);
	for (unsigned i = 0; i < n; i++) {
		if (ops[i].n && ops[i].p[0] == '{') { /* vector elements: each at this position */
			span_t el[8];
			unsigned k = split_operands((span_t){ops[i].p + 1, ops[i].n - 2}, el, 8);
			for (unsigned j = 0; j < k; j++)
				if (use_operand(r, c, line, &m, el[j], i, n, k))
					return -1;
		} else if (use_operand(r, c, line, &m, ops[i], i, n, 1)) {
			return -1;
		}
	}
	return 0;
}

/* Once a case is read: roles and types from its lines, then its values,
 * then its thread count. Returns -1 after reporting. */
static int case_finish(runner_t *r, icase_t *c)
{
	for (unsigned i = 0; i < c->ntext; i++)
		if (use_line(r, c, c->text[i], c->tline[i]))
			return -1;
	bool checks = c->due >= 0 || c->has_error;
	for (unsigned i = 0; i < c->nnames; i++) {
		iname_t *x = &c->names[i];
		if (x->role == R_UNUSED)
			return say(r, c, x->line, "'%s' is not used by the instruction lines", x->id);
		if (!x->t)
			return say(r, c, x->line, "cannot tell the type of '%s' from the instruction; write %s:TYPE", x->id, x->id);
		if (parse_values(r, c, x->line, x->text, x->et ? x->et : x->t, &x->v, x->role == R_OUT ? &x->any : NULL, &x->n))
			return -1;
		if (x->exp_line && parse_values(r, c, x->exp_line, x->exp_text, x->et, &x->exp, &x->exp_any, &x->nexp))
			return -1;
		if (x->exp_line && x->nexp > x->n)
			return say(r, c, x->exp_line, "[%s] expects %u elements of a buffer of %u", x->id, x->nexp, x->n);
		checks |= x->role == R_OUT || x->nexp;
		if (!x->et && x->n > 1 && !c->threads)
			c->threads = x->n;
	}
	if (!c->ntext)
		return say(r, c, c->line, "no instruction lines");
	if (!checks)
		return say(r, c, c->line, "the case checks nothing: no output, [buffer], due or error");
	if (!c->threads)
		c->threads = 32;
	for (unsigned i = 0; i < c->nnames; i++)
		if (!c->names[i].et && c->names[i].n != 1 && c->names[i].n != c->threads)
			return say(r, c, c->names[i].line, "'%s' has %u values for %u threads", c->names[i].id, c->names[i].n,
			           c->threads);
	return 0;
}

/* ---- the kernel --------------------------------------------------------- */

/* Instruction line s with its names as registers (%_NAME), its mnemonic
 * (the first word after a guard) untouched, and a ';' when it needs one. */
static void emit_line(FILE *f, icase_t *c, span_t s)
{
	s = trim(s);
	const char *p = s.p, *e = s.p + s.n;
	bool mn = false;
	span_t w;
	for (const char *q = p; next_word(&q, e, s.p, &w); p = q) {
		fwrite(p, 1, (size_t)(w.p - p), f);
		bool guard = w.p > s.p && (w.p[-1] == '@' || (w.p[-1] == '!' && w.p - 1 > s.p && w.p[-2] == '@'));
		iname_t *x = mn || guard ? name_find(c, w) : NULL;
		mn |= !guard;
		if (x)
			fprintf(f, "%%_%s", x->id);
		else
			fwrite(w.p, 1, w.n, f);
	}
	fwrite(p, 1, (size_t)(e - p), f);
	char last = s.n ? s.p[s.n - 1] : ';';
	fputs(last == ';' || last == ':' || span_is(s, "{") || span_is(s, "}") ? "\n" : ";\n", f);
}

static const char *ld_type(const ptype_t *t)
{
	return t->bits == 8 ? "b8" : t->bits == 16 ? "b16" : t->bits == 64 ? "b64" : "b32";
}

/* Loads every name from the thread's record (8 bytes per name; outputs
 * start as the sentinel), turns off the lanes whose bit of t_on is clear. */
static void emit_prologue(FILE *f, const icase_t *c)
{
	fputs(H_PTX_HEAD ".visible .entry t(.param .u64 t_in, .param .u64 t_out, .param .u32 t_on)\n{\n"
	      "\t.reg .b32 %t_r<3>;\n\t.reg .b64 %t_d<3>;\n\t.reg .pred %t_p;\n", f);
	for (unsigned i = 0; i < c->nnames; i++)
		fprintf(f, "\t.reg .%s %%_%s;\n", c->names[i].t->name, c->names[i].id);
	fprintf(f, "\tmov.u32 %%t_r0, %%tid.x;\n\tld.param.u64 %%t_d0, [t_in];\n"
	        "\tmul.wide.u32 %%t_d1, %%t_r0, %u;\n\tadd.s64 %%t_d0, %%t_d0, %%t_d1;\n", 8 * c->nnames);
	for (unsigned i = 0; i < c->nnames; i++) {
		const iname_t *x = &c->names[i];
		if (x->t->kind == K_PRED)
			fprintf(f, "\tld.global.u32 %%t_r1, [%%t_d0+%u];\n\tsetp.ne.u32 %%_%s, %%t_r1, 0;\n", 8 * i, x->id);
		else
			fprintf(f, "\tld.global.%s %%_%s, [%%t_d0+%u];\n", ld_type(x->t), x->id, 8 * i);
	}
	fputs("\tld.param.u32 %t_r1, [t_on];\n\tmov.u32 %t_r2, %laneid;\n\tshr.b32 %t_r1, %t_r1, %t_r2;\n"
	      "\tand.b32 %t_r1, %t_r1, 1;\n\tsetp.eq.u32 %t_p, %t_r1, 0;\n\t@%t_p bra T_off;\n", f);
}

static void emit_epilogue(FILE *f, const icase_t *c)
{
	fputs("T_off:\n\tld.param.u64 %t_d0, [t_out];\n\tadd.s64 %t_d0, %t_d0, %t_d1;\n", f);
	for (unsigned i = 0; i < c->nnames; i++) {
		const iname_t *x = &c->names[i];
		if (x->role != R_OUT)
			continue;
		if (x->t->kind == K_PRED)
			fprintf(f, "\tselp.u32 %%t_r1, 1, 0, %%_%s;\n\tst.global.u32 [%%t_d0+%u], %%t_r1;\n", x->id, 8 * i);
		else
			fprintf(f, "\tst.global.%s [%%t_d0+%u], %%_%s;\n", ld_type(x->t), 8 * i, x->id);
	}
	fputs("\tret;\n}\n", f);
}

/* The case's kernel "t" as a new string; *first_line gets the generated
 * line of the case's first instruction line. */
static char *make_ptx(icase_t *c, unsigned *first_line)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	emit_prologue(f, c);
	fflush(f);
	*first_line = 1;
	for (size_t i = 0; i < n; i++)
		*first_line += buf[i] == '\n';
	for (unsigned i = 0; i < c->ntext; i++)
		emit_line(f, c, c->text[i]);
	emit_epilogue(f, c);
	fclose(f);
	return buf;
}

/* ---- running and checking ----------------------------------------------- */

static uint64_t sentinel(const ptype_t *t) { return t->kind == K_PRED ? 1 : SENT & width_mask(t); }

static uint64_t value_at(const iname_t *x, unsigned t) { return x->n == 1 ? x->v[0] : x->v[t]; }

/* "0x0000002a", with the float value for f32/f64, into buf. */
static const char *show(char *buf, size_t n, const ptype_t *t, uint64_t v)
{
	if (t->kind == K_PRED)
		snprintf(buf, n, "%u", (unsigned)v);
	else if (t->kind == K_FLOAT && t->bits == 32) {
		float f;
		uint32_t u = (uint32_t)v;
		memcpy(&f, &u, 4);
		snprintf(buf, n, "0x%08x (%.9g)", u, (double)f);
	} else if (t->kind == K_FLOAT) {
		double d;
		memcpy(&d, &v, 8);
		snprintf(buf, n, "0x%016llx (%.17g)", (unsigned long long)v, d);
	} else {
		snprintf(buf, n, "0x%0*llx", (int)(t->bits / 4), (unsigned long long)v);
	}
	return buf;
}

/* The inputs of thread t, for a mismatch report. */
static void show_inputs(const icase_t *c, unsigned t, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < c->nnames && k + 1 < n; i++) {
		const iname_t *x = &c->names[i];
		char v[64];
		if (x->role != R_IN || x->et)
			continue;
		k += (size_t)snprintf(buf + k, n - k, "%s%s = %s", k ? ", " : "; ", x->id, show(v, sizeof v, x->t, value_at(x, t)));
	}
}

/* Device buffers: the per-thread records and every declared buffer. */
static int alloc_buffers(runner_t *r, icase_t *c, uint64_t *din, uint64_t *dout)
{
	sc_gpu_t *g = r->h.gpu;
	uint64_t bytes = (uint64_t)c->threads * 8 * c->nnames;
	uint64_t *rec = calloc((size_t)c->threads * c->nnames + 1, 8);
	int rc = sc_malloc(g, bytes + 8, din) || sc_malloc(g, bytes + 8, dout) || sc_memset(g, *dout, 0, bytes + 8);
	for (unsigned i = 0; i < c->nnames && !rc; i++) {
		iname_t *x = &c->names[i];
		if (!x->et)
			continue;
		unsigned es = x->et->bits / 8;
		uint8_t *b = calloc(x->n, es);
		for (uint32_t k = 0; k < x->n; k++)
			memcpy(b + (size_t)k * es, &x->v[k], es);
		rc = sc_malloc(g, (uint64_t)x->n * es, &x->dptr) || sc_memcpy_htod(g, x->dptr, b, (uint64_t)x->n * es);
		free(b);
	}
	for (unsigned t = 0; t < c->threads; t++)
		for (unsigned i = 0; i < c->nnames; i++) {
			const iname_t *x = &c->names[i];
			rec[t * c->nnames + i] = x->et ? x->dptr : x->role == R_OUT ? sentinel(x->t) : value_at(x, t);
		}
	if (!rc && bytes)
		rc = sc_memcpy_htod(g, *din, rec, bytes);
	free(rec);
	return rc ? say(r, c, c->line, "cannot set up device memory: %s", sc_gpu_errmsg(g)) : 0;
}

/* Compares the outputs of every thread: the expected values where the lane
 * was on, the sentinel where it was off. */
static void check_outputs(runner_t *r, icase_t *c, const uint64_t *rec, uint32_t on, unsigned *shown)
{
	for (unsigned i = 0; i < c->nnames; i++) {
		const iname_t *x = &c->names[i];
		if (x->role != R_OUT)
			continue;
		for (unsigned t = 0; t < c->threads; t++) {
			bool lane_on = on >> (t % 32) & 1;
			uint64_t got = rec[t * c->nnames + i] & width_mask(x->t);
			uint64_t want = lane_on ? value_at(x, t) : sentinel(x->t);
			if ((lane_on && x->any[x->n == 1 ? 0 : t]) || got == want || (*shown)++ >= MAXREPORT)
				continue;
			char g[64], w[64], in[512];
			show_inputs(c, t, in, sizeof in);
			say(r, c, x->line, "%s run (lanes 0x%08x), thread %u: %s = %s, expected %s%s%s",
			    on == ALL_ON ? "converged" : "diverged", on, t, x->id, show(g, sizeof g, x->t, got),
			    show(w, sizeof w, x->t, want), lane_on ? "" : " (the lane was off)", in);
		}
	}
}

static void check_buffers(runner_t *r, icase_t *c, unsigned *shown)
{
	for (unsigned i = 0; i < c->nnames; i++) {
		const iname_t *x = &c->names[i];
		if (!x->nexp)
			continue;
		unsigned es = x->et->bits / 8;
		uint8_t *b = calloc(x->n, es);
		if (sc_memcpy_dtoh(r->h.gpu, b, x->dptr, (uint64_t)x->nexp * es))
			say(r, c, x->exp_line, "cannot read [%s] back", x->id);
		for (uint32_t k = 0; k < x->nexp; k++) {
			uint64_t got = 0;
			memcpy(&got, b + (size_t)k * es, es);
			char g[64], w[64];
			if (!x->exp_any[k] && got != x->exp[k] && (*shown)++ < MAXREPORT)
				say(r, c, x->exp_line, "[%s] element %u = %s, expected %s", x->id, k, show(g, sizeof g, x->et, got),
				    show(w, sizeof w, x->et, x->exp[k]));
		}
		free(b);
	}
}

/* A fresh GPU: one SM of the gtx480 preset, in the register mode of
 * $FLIPSIM_TEST_REGS (h_init). */
static void gpu_renew(runner_t *r)
{
	h_fini(&r->h);
	h_init(&r->h);
	r->h.cfg.num_sms = 1;
	h_start(&r->h);
}

/* Launches the case's kernel with lanes `on` and checks the run. Returns
 * false when the GPU had to be renewed (a DUE or a launch error). */
static bool run_once(runner_t *r, icase_t *c, sc_module_t *m, uint32_t on)
{
	uint64_t din = 0, dout = 0;
	if (alloc_buffers(r, c, &din, &dout))
		return false;
	void *args[] = {&din, &dout, &on};
	int rc = sc_launch(r->h.gpu, m, "t", H_D1(1), H_D1(c->threads), 0, args);
	const sc_status_t *s = sc_gpu_status(r->h.gpu);
	if (rc == SC_EDUE && c->due == (int)s->reason)
		return gpu_renew(r), false;
	if (rc == SC_EDUE)
		say(r, c, c->line, "stopped with DUE %s (%s)", sc_due_name(s->reason), s->detail);
	else if (rc)
		say(r, c, c->line, "launch failed: %s: %s", sc_strerror(rc), sc_gpu_errmsg(r->h.gpu));
	else if (c->due >= 0)
		say(r, c, c->line, "ran to its end; expected DUE %s", sc_due_name((sc_due_t)c->due));
	if (rc)
		return gpu_renew(r), false;
	size_t words = (size_t)c->threads * c->nnames;
	uint64_t *rec = calloc(words ? words : 1, 8);
	unsigned shown = 0;
	if (sc_memcpy_dtoh(r->h.gpu, rec, dout, words * 8))
		say(r, c, c->line, "cannot read the outputs back");
	check_outputs(r, c, rec, on, &shown);
	if (on == ALL_ON)
		check_buffers(r, c, &shown);
	free(rec);
	sc_free(r->h.gpu, din);
	sc_free(r->h.gpu, dout);
	for (unsigned i = 0; i < c->nnames; i++)
		if (c->names[i].et)
			sc_free(r->h.gpu, c->names[i].dptr);
	return true;
}

/* Line `line` of text, for a load error that points into the kernel. */
static void show_ptx_line(runner_t *r, const icase_t *c, const char *ptx, const char *msg)
{
	const char *colon = strchr(msg, ':');
	unsigned line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	for (unsigned k = 1; line && *ptx; k++) {
		const char *nl = strchr(ptx, '\n');
		if (k == line) {
			say(r, c, c->line, "  kernel line %u: %.*s", line, (int)(nl ? nl - ptx : (long)strlen(ptx)), ptx);
			return;
		}
		if (!nl)
			return;
		ptx = nl + 1;
	}
}

static void run_case(runner_t *r, icase_t *c)
{
	unsigned first;
	char *ptx = make_ptx(c, &first);
	sc_module_t *m = NULL;
	int rc = sc_module_load_text(r->h.gpu, "case.ptx", ptx, &m);
	const char *msg = sc_gpu_errmsg(r->h.gpu);
	if (c->has_error && rc == 0)
		say(r, c, c->line, "the PTX was accepted; expected an error with '%s'", c->error);
	else if (c->has_error && !strstr(msg, c->error))
		say(r, c, c->line, "the PTX was refused with '%s', not '%s'", msg, c->error);
	else if (c->has_error)
		; /* refused as expected */
	else if (rc) {
		say(r, c, c->line, "the PTX was refused: %s (the case's lines start at kernel line %u)", msg, first);
		show_ptx_line(r, c, ptx, msg);
	} else if (run_once(r, c, m, ALL_ON) && c->diverge && c->due < 0 && c->threads > 1)
		run_once(r, c, m, c->threads < 32 ? DIVERGED & ((1u << c->threads) - 1) : DIVERGED);
	free(ptx);
}

/* ---- files -------------------------------------------------------------- */

static void case_reset(icase_t *c, const char *file)
{
	for (unsigned i = 0; i < c->nnames; i++)
		free(c->names[i].v), free(c->names[i].any), free(c->names[i].exp), free(c->names[i].exp_any);
	memset(c, 0, sizeof *c);
	c->file = file;
	c->due = -1;
	c->diverge = true;
}

/* Ends the case being read (if any) at a blank line or the end. */
static void case_end(runner_t *r, icase_t *c, unsigned *ncases)
{
	if (c->started) {
		(*ncases)++;
		r->case_failed = false;
		if (!c->broken && !case_finish(r, c))
			run_case(r, c);
	}
	case_reset(c, r->file);
	r->case_failed = false;
}

int insn_run_text(const char *name, const char *text, FILE *report, unsigned *ncases)
{
	runner_t r = {.file = name, .rep = report};
	icase_t *c = malloc(sizeof *c);
	memset(c, 0, sizeof *c);
	case_reset(c, name);
	h_init(&r.h);
	gpu_renew(&r);
	*ncases = 0;
	const char *p = text;
	for (unsigned line = 1; *p; line++) {
		const char *nl = strchr(p, '\n');
		span_t s = {p, (unsigned)(nl ? nl - p : (long)strlen(p))};
		p = nl ? nl + 1 : p + s.n;
		const char *hash = memchr(s.p, '#', s.n);
		span_t body = trim((span_t){s.p, hash ? (unsigned)(hash - s.p) : s.n});
		if (hash && !body.n && !c->started) {
			span_t t = trim((span_t){hash + 1, (unsigned)(s.p + s.n - hash - 1)});
			snprintf(c->title, sizeof c->title, "%.*s", (int)t.n, t.p);
		} else if (!body.n && !hash) {
			case_end(&r, c, ncases);
		} else if (body.n && !c->broken && case_line(&r, c, body, line)) {
			c->broken = true;
		}
	}
	case_end(&r, c, ncases);
	case_reset(c, name);
	free(c);
	h_fini(&r.h);
	return (int)r.failed;
}

int insn_run_file(const char *path, FILE *report, unsigned *ncases)
{
	FILE *f = fopen(path, "rb");
	*ncases = 0;
	if (!f) {
		fprintf(report, "%s: cannot open\n", path);
		return 1;
	}
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	char chunk[4096];
	for (size_t k; (k = fread(chunk, 1, sizeof chunk, f)) > 0;)
		fwrite(chunk, 1, k, m);
	fclose(f);
	fclose(m);
	int failed = insn_run_text(path, buf, report, ncases);
	free(buf);
	return failed;
}
