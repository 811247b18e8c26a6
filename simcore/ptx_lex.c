/* PTX lexer: text to a flat token array with line and column numbers.
 * Mnemonics keep their dotted modifiers in one token ("ld.global.v4.f32",
 * also "L1::no_allocate"); registers keep theirs ("%tid.x"). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

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
			const char *q = p;
			if (c == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D') &&
			    isxdigit((unsigned char)p[2])) {
				int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
				q = p + 2;
				uint64_t v = 0;
				int i;
				for (i = 0; i < digits && isxdigit((unsigned char)q[i]); i++) {
					int d = q[i];
					v = v * 16 + (uint64_t)(isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
				}
				if (i != digits || is_id_char((unsigned char)q[i])) {
					snprintf(msg, msgsz, "%s:%u:%u: malformed %s literal (expected %d hex digits)",
					         name, line, k->col, digits == 8 ? "0f" : "0d", digits);
					goto fail;
				}
				k->kind = digits == 8 ? SC_TK_F32 : SC_TK_F64;
				k->bits = v;
				q += digits;
			} else if (c == '0' && (p[1] == 'x' || p[1] == 'X')) {
				char *e;
				k->bits = strtoull(p + 2, &e, 16);
				q = e;
				if (q == p + 2) {
					snprintf(msg, msgsz, "%s:%u:%u: malformed hexadecimal literal", name, line, k->col);
					goto fail;
				}
				k->kind = SC_TK_INT;
				if (*q == 'U' || *q == 'u')
					q++;
			} else if (c == '0' && (p[1] == 'b' || p[1] == 'B')) {
				char *e;
				k->bits = strtoull(p + 2, &e, 2);
				q = e;
				k->kind = SC_TK_INT;
				if (*q == 'U' || *q == 'u')
					q++;
			} else {
				const char *r = p;
				while (isdigit((unsigned char)*r))
					r++;
				if (*r == '.' || *r == 'e' || *r == 'E') {
					char *e;
					k->fval = strtod(p, &e);
					q = e;
					k->kind = SC_TK_FLOAT;
				} else {
					char *e;
					/* PTX: a leading 0 means octal */
					k->bits = strtoull(p, &e, (p[0] == '0' && isdigit((unsigned char)p[1])) ? 8 : 10);
					q = e;
					k->kind = SC_TK_INT;
					if (*q == 'U' || *q == 'u')
						q++;
				}
			}
			if (is_id_char((unsigned char)*q)) {
				snprintf(msg, msgsz, "%s:%u:%u: malformed number", name, line, k->col);
				goto fail;
			}
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
