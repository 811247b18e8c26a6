/* PTX lexer: text to a flat token array with line and column numbers.
 * Mnemonics keep their dotted modifiers in one token ("ld.global.v4.f32",
 * also "L1::no_allocate"); registers keep theirs ("%tid.x"). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Reports the literal at k, which runs on over identifier characters from
 * `from`, as "NAME:LINE:COL: PRE 'TEXT'POST". Returns NULL, for lex_number. */
static const char *bad_number(const char *name, const sc_tok_t *k, const char *from, const char *pre,
                              const char *post, char *msg, size_t msgsz)
{
	while (is_id_char((unsigned char)*from))
		from++;
	int n = from - k->p > 64 ? 64 : (int)(from - k->p);
	snprintf(msg, msgsz, "%s:%u:%u: %s '%.*s%s'%s", name, k->line, k->col, pre, n, k->p,
	         from - k->p > 64 ? "..." : "", post);
	return NULL;
}

/* Digits of `base` from p into *v; *over is set when the value does not fit
 * in 64 bits. Returns the end of the digits. */
static const char *scan_digits(const char *p, unsigned base, uint64_t *v, bool *over)
{
	uint64_t x = 0;
	*over = false;
	for (;; p++) {
		int c = (unsigned char)*p;
		unsigned d = isdigit(c) ? (unsigned)(c - '0') : isxdigit(c) ? (unsigned)(tolower(c) - 'a' + 10) : base;
		if (d >= base)
			break;
		if (x > (UINT64_MAX - d) / base)
			*over = true;
		x = x * base + d;
	}
	*v = x;
	return p;
}

/* 0f/0d raw float bits: exactly 8 or 16 hex digits. */
static const char *lex_float_bits(const char *name, const char *p, sc_tok_t *k, char *msg, size_t msgsz)
{
	int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
	bool over;
	const char *q = scan_digits(p + 2, 16, &k->bits, &over);
	if (q - (p + 2) != digits || is_id_char((unsigned char)*q)) {
		snprintf(msg, msgsz, "%s:%u:%u: malformed %s literal (expected %d hex digits)", name, k->line, k->col,
		         digits == 8 ? "0f" : "0d", digits);
		return NULL;
	}
	k->kind = digits == 8 ? SC_TK_F32 : SC_TK_F64;
	return q;
}

/* A number at p (a digit): 0f/0d float bits, a decimal float, or an integer
 * (0x hex, 0b binary, 0 octal, decimal; optional U) that must fit in 64
 * bits. Fills k and returns the end, or NULL with "NAME:LINE:COL: ..." in
 * msg. */
static const char *lex_number(const char *name, const char *p, sc_tok_t *k, char *msg, size_t msgsz)
{
	if (p[0] == '0' && strchr("fFdD", p[1]) && p[1] && isxdigit((unsigned char)p[2]))
		return lex_float_bits(name, p, k, msg, msgsz);
	const char *r = p;
	while (isdigit((unsigned char)*r))
		r++;
	if (*r == '.' || *r == 'e' || *r == 'E') {
		char *e;
		k->fval = strtod(p, &e);
		k->kind = SC_TK_FLOAT;
		if (is_id_char((unsigned char)*e))
			return bad_number(name, k, e, "malformed number", "", msg, msgsz);
		if (isinf(k->fval))
			return bad_number(name, k, e, "floating-point literal", " is out of range", msg, msgsz);
		return e;
	}
	unsigned base = 10;
	const char *d = p, *what = "malformed decimal literal";
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, d = p + 2, what = "malformed hexadecimal literal";
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, d = p + 2, what = "malformed binary literal";
	else if (p[0] == '0' && isdigit((unsigned char)p[1]))
		base = 8, d = p + 1, what = "malformed octal literal";
	bool over;
	const char *q = scan_digits(d, base, &k->bits, &over);
	k->kind = SC_TK_INT;
	if (q == d)
		return bad_number(name, k, q, what, "", msg, msgsz);
	if (*q == 'U' || *q == 'u')
		q++;
	if (is_id_char((unsigned char)*q))
		return bad_number(name, k, q, base == 10 ? "malformed number" : what, "", msg, msgsz);
	if (over)
		return bad_number(name, k, q, "integer literal", " does not fit in 64 bits", msg, msgsz);
	return q;
}

int sc__ptx_lex(const char *name, const char *text, sc_tok_t **toks, uint32_t *ntoks, char *msg,
                size_t msgsz)
{
	uint32_t n = 0, cap = 1024, line = 1;
	const char *p = text, *bol = text;
	sc_tok_t *t = malloc(cap * sizeof *t);
	if (!t)
		return SC_ENOMEM;
	for (;;) {
		/* whitespace and comments */
		for (;;) {
			if (*p == '\n') {
				line++;
				bol = ++p;
			} else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
				p++;
			} else if (p[0] == '/' && p[1] == '/') {
				while (*p && *p != '\n')
					p++;
			} else if (p[0] == '/' && p[1] == '*') {
				const char *q = p + 2;
				uint32_t cline = line, ccol = (uint32_t)(p - bol) + 1; /* where it opens */
				while (*q && !(q[0] == '*' && q[1] == '/')) {
					if (*q == '\n') {
						line++;
						bol = q + 1;
					}
					q++;
				}
				if (!*q) {
					snprintf(msg, msgsz, "%s:%u:%u: unterminated comment", name, cline, ccol);
					goto fail;
				}
				p = q + 2;
			} else {
				break;
			}
		}
		if (n + 1 >= cap) {
			sc_tok_t *nt = realloc(t, 2 * cap * sizeof *t);
			if (!nt) {
				free(t);
				return SC_ENOMEM;
			}
			t = nt;
			cap *= 2;
		}
		sc_tok_t *k = &t[n];
		memset(k, 0, sizeof *k);
		k->p = p;
		k->line = line;
		k->col = (uint32_t)(p - bol) + 1;
		int c = (unsigned char)*p;
		if (!c) {
			k->kind = SC_TK_EOF;
			n++;
			break;
		}
		if (isdigit(c)) {
			const char *q = lex_number(name, p, k, msg, msgsz);
			if (!q)
				goto fail;
			k->len = (uint32_t)(q - p);
			p = q;
		} else if (is_id_start(c)) {
			const char *q = p + 1;
			for (;;) {
				if (is_id_char((unsigned char)*q) || (*q == '.' && is_id_char((unsigned char)q[1])))
					q++;
				else if (q[0] == ':' && q[1] == ':' && is_id_char((unsigned char)q[2]))
					q += 2;
				else
					break;
			}
			if (q == p + 1 && (c == '.' || c == '%')) {
				snprintf(msg, msgsz, "%s:%u:%u: stray '%c'", name, line, k->col, c);
				goto fail;
			}
			k->kind = c == '.' ? SC_TK_DIRECTIVE : c == '%' ? SC_TK_REG : SC_TK_IDENT;
			k->len = (uint32_t)(q - p);
			p = q;
		} else if (c == '"') {
			const char *q = p + 1;
			while (*q && *q != '"' && *q != '\n')
				q++;
			if (*q != '"') {
				snprintf(msg, msgsz, "%s:%u:%u: unterminated string", name, line, k->col);
				goto fail;
			}
			k->kind = SC_TK_STRING;
			k->len = (uint32_t)(q + 1 - p);
			p = q + 1;
		} else if (strchr(",;:{}[]()<>+-!@|=", c)) {
			k->kind = SC_TK_PUNCT;
			k->punct = (char)c;
			k->len = 1;
			p++;
		} else {
			snprintf(msg, msgsz, "%s:%u:%u: unexpected character '%c'", name, line, k->col,
			         isprint(c) ? c : '?');
			goto fail;
		}
		n++;
	}
	*toks = t;
	*ntoks = n;
	return 0;
fail:
	free(t);
	return SC_EPARSE;
}
