/* PTX front end: parses a module as nvcc emits it, checks it, and lowers
 * every instruction once to the sc_insn_t encoding (sc_int.h). Symbols and
 * labels are resolved through fixups once the whole module is read, then
 * registers are relocated and reconvergence points computed (cfg.c). The
 * module keeps the names of registers and of each kernel's shared
 * variables, so that a fault site can be named (sc__reg_name). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

typedef struct reg {
	const char *name;    /* prefix for ranges */
	uint32_t nlen;
	uint32_t count;      /* 0: single register; else a %name<count> range */
	uint8_t type;        /* SC_T_* */
	uint32_t first;      /* function-relative slot or predicate index */
	uint32_t depth;      /* block depth of the declaration */
} reg_t;

typedef struct sym {
	char *name;
	uint8_t space;       /* SC_SP_* */
	uint32_t size, align;
	uint8_t *init;       /* initial bytes (NULL = zero) */
	bool is_extern_shared;
	bool is_func;        /* a function name (call target) */
	int32_t func;        /* function index for is_func */
	int32_t owner;       /* function that declared it, -1 for module scope */
	bool bound;          /* call-site .param bound to a callee slot */
	bool dyn;            /* call-site .param of a dynamic call: the caller's local */
	uint32_t use_lo, use_hi; /* dyn: the pcs naming it (layout_locals) */
	bool addr_used;      /* dyn: its address taken as a value */
	uint64_t addr;       /* address in its space (after layout) */
	uint32_t depth;
	bool used_by_func;   /* shared var referenced from a .func */
	uint8_t role;        /* SC_SYM_* (kept in the module for the emitter) */
	bool *used_by;       /* shared var: used_by[kernel function index] */
} sym_t;

typedef struct label {
	const char *name;
	uint32_t len, pc;
} label_t;

/* fixups applied after parsing */
enum { FX_IMM, FX_POOL, FX_LABEL, FX_CALL, FX_FADDR };
typedef struct fixup {
	uint8_t kind;
	bool generic;        /* address wanted in the generic space */
	bool folded;         /* shared variable: per-kernel address already in addend */
	uint32_t pc, pool;   /* instruction, pool entry for FX_POOL */
	sym_t *sym;
	int64_t addend;
	const char *lname;   /* FX_LABEL */
	uint32_t llen, line, col;
	int32_t func;
	int64_t addend0;     /* the offset as written (folding adds to addend) */
} fixup_t;

/* A call's argument list (the module's sc__call_t, by symbol). */
typedef struct pcall {
	uint32_t pc, nret, narg;
	sym_t *s[SC_DCALL_MAXR + SC_DCALL_MAXP];
	/* dynamic calls (call.c): indirect ones through a prototype's sizes,
	 * direct ones on a cycle of the call graph */
	bool dyn, save;
	int32_t caller;
	sym_t *callee;       /* NULL: indirect */
	uint32_t size[SC_DCALL_MAXR + SC_DCALL_MAXP];
	int32_t targets;     /* indirect through a .calltargets list: its proto_t */
} pcall_t;

/* A .callprototype: the sizes of its return values and parameters; or a
 * .calltargets list: the functions (ntargets), the sizes of the first. */
typedef struct proto {
	const char *name;
	uint32_t len;
	int32_t fn;
	uint32_t nret, narg;
	uint32_t size[SC_DCALL_MAXR + SC_DCALL_MAXP]; /* returns, then parameters */
	sym_t **targets;
	uint32_t ntargets;
} proto_t;

/* A function's address in a .global/.const initializer: y->init[off]. */
typedef struct finit {
	sym_t *var, *fsym;
	uint32_t off, line, col;
} finit_t;

typedef struct P {
	const sc_ptx_host_t *host;
	const char *name;
	sc_tok_t *t;
	uint32_t nt, i;
	sc_tok_t *bt[4];     /* the builtins' tokens (add_builtins), kept to the end */
	char *msg;
	size_t msgsz;
	int err;
	sc_module_t *m;
	uint32_t code_cap, pool_cap;
	uint8_t *pool_sym;   /* pool entry i holds a symbol address (not shared) */
	/* symbols */
	sym_t **syms;
	uint32_t nsyms, syms_cap;
	/* current function */
	int32_t fn;
	reg_t *regs;
	uint32_t nregs, regs_cap;
	uint32_t decl_cap;   /* of the current function's decl[] */
	uint32_t depth;
	label_t *labels;
	uint32_t nlabels, labels_cap;
	uint32_t label_floor; /* labels of the current function start here */
	fixup_t *fx;
	uint32_t nfx, fx_cap;
	pcall_t *calls;
	uint32_t ncalls, calls_cap;
	bool *taken;         /* per function: its address is taken */
	proto_t *protos;
	uint32_t nprotos, protos_cap;
	finit_t *finits;
	uint32_t nfinits, finits_cap;
	uint32_t funcs_cap;
	/* symbols referenced by the current function (for layout) */
	uint32_t line, col;
} P;

#define GROW(arr, n, cap)                                                     \
	do {                                                                      \
		if ((n) >= (cap)) {                                                   \
			uint32_t nc_ = (cap) ? (cap) * 2 : 32;                            \
			void *np_ = realloc((arr), nc_ * sizeof *(arr));                  \
			if (!np_) {                                                       \
				p->err = SC_ENOMEM;                                           \
				return -1;                                                    \
			}                                                                 \
			(arr) = np_;                                                      \
			(cap) = nc_;                                                      \
		}                                                                     \
	} while (0)

static int perr(P *p, const sc_tok_t *k, const char *fmt, ...)
{
	if (p->err)
		return -1;
	int n = snprintf(p->msg, p->msgsz, "%s:%u:%u: ", p->name, k->line, k->col);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->msgsz)
		vsnprintf(p->msg + n, p->msgsz - (size_t)n, fmt, ap);
	va_end(ap);
	p->err = SC_EPARSE;
	return -1;
}

static sc_tok_t *peek(P *p) { return &p->t[p->i]; }
static sc_tok_t *next(P *p) { sc_tok_t *k = &p->t[p->i]; if (k->kind != SC_TK_EOF) p->i++; return k; }
static bool is_punct(const sc_tok_t *k, char c) { return k->kind == SC_TK_PUNCT && k->punct == c; }
static bool tok_is(const sc_tok_t *k, const char *s) { return strlen(s) == k->len && memcmp(k->p, s, k->len) == 0; }

static const char *tokstr(const sc_tok_t *k)
{
	static char buf[96];
	if (k->kind == SC_TK_EOF)
		return "end of file";
	uint32_t n = k->len < sizeof buf - 1 ? k->len : sizeof buf - 1;
	memcpy(buf, k->p, n);
	buf[n] = 0;
	return buf;
}

static int expect(P *p, char c)
{
	sc_tok_t *k = next(p);
	if (!is_punct(k, c))
		return perr(p, k, "expected '%c', found '%s'", c, tokstr(k));
	return 0;
}

static char *tokdup(const sc_tok_t *k)
{
	char *s = malloc(k->len + 1);
	if (s) {
		memcpy(s, k->p, k->len);
		s[k->len] = 0;
	}
	return s;
}

static int type_of(const char *s, uint32_t n)
{
	for (int t = 1; t < SC_T__COUNT; t++)
		if (strlen(sc__type_names[t]) == n && memcmp(sc__type_names[t], s, n) == 0)
			return t;
	return -1;
}

static int tok_type(const sc_tok_t *k)
{
	if (k->kind != SC_TK_DIRECTIVE)
		return -1;
	return type_of(k->p + 1, k->len - 1);
}

static unsigned type_bytes(int t) { return t == SC_T_PRED ? 1 : sc__type_bits((unsigned)t) / 8; }

static int get_int(P *p, uint64_t *v)
{
	sc_tok_t *k = next(p);
	bool neg = false;
	if (is_punct(k, '-')) {
		neg = true;
		k = next(p);
	}
	if (k->kind != SC_TK_INT)
		return perr(p, k, "expected an integer, found '%s'", tokstr(k));
	*v = neg ? 0 - k->bits : k->bits; /* unsigned: -2^63 wraps, as PTX's does */
	return 0;
}

/* ---------------------------------------------------------------- pool */
static int pool_add(P *p, uint64_t v, bool dedupe, uint32_t *idx)
{
	sc_module_t *m = p->m;
	/* entries of symbol addresses are placeholders until the fixups run:
	 * a literal must never share one */
	if (dedupe)
		for (uint32_t i = 0; i < m->npool; i++)
			if (m->pool[i] == v && !p->pool_sym[i]) {
				*idx = i;
				return 0;
			}
	if (m->npool >= SC_IDX_LIMIT)
		return perr(p, &p->t[p->i ? p->i - 1 : 0], "too many distinct constants in the module (limit %u)",
		            SC_IDX_LIMIT);
	uint32_t cap = p->pool_cap;
	GROW(m->pool, m->npool, p->pool_cap);
	if (p->pool_cap != cap) {
		uint8_t *ns = realloc(p->pool_sym, p->pool_cap);
		if (!ns) {
			p->err = SC_ENOMEM;
			return -1;
		}
		p->pool_sym = ns;
	}
	p->pool_sym[m->npool] = !dedupe;
	m->pool[m->npool] = v;
	*idx = m->npool++;
	return 0;
}

/* ---------------------------------------------------------------- symbols */
static sym_t *sym_find(P *p, const char *s, uint32_t n)
{
	/* innermost first: function-scope symbols of the current function, then module */
	for (uint32_t i = p->nsyms; i-- > 0;) {
		sym_t *y = p->syms[i];
		if (y->owner != -1 && y->owner != p->fn)
			continue;
		if (strlen(y->name) == n && memcmp(y->name, s, n) == 0)
			return y;
	}
	return NULL;
}

static sym_t *sym_new(P *p, const sc_tok_t *k)
{
	if (p->nsyms >= p->syms_cap) {
		uint32_t nc = p->syms_cap ? p->syms_cap * 2 : 64;
		sym_t **ns = realloc(p->syms, nc * sizeof *ns);
		if (!ns) {
			p->err = SC_ENOMEM;
			return NULL;
		}
		p->syms = ns;
		p->syms_cap = nc;
	}
	sym_t *y = calloc(1, sizeof *y);
	if (!y || !(y->name = tokdup(k))) {
		free(y);
		p->err = SC_ENOMEM;
		return NULL;
	}
	y->owner = p->fn;
	y->depth = p->depth;
	y->func = -1;
	p->syms[p->nsyms++] = y;
	return y;
}

static void sym_free(sym_t *y)
{
	if (y) {
		free(y->name);
		free(y->init);
		free(y->used_by);
		free(y);
	}
}

/* ---------------------------------------------------------------- registers */
static reg_t *reg_find(P *p, const sc_tok_t *k, uint32_t *idx)
{
	for (uint32_t i = p->nregs; i-- > 0;) {
		reg_t *r = &p->regs[i];
		if (r->count == 0) {
			if (r->nlen == k->len && memcmp(r->name, k->p, k->len) == 0) {
				*idx = 0;
				return r;
			}
		} else if (k->len > r->nlen && memcmp(r->name, k->p, r->nlen) == 0) {
			uint32_t v = 0, j = r->nlen;
			if (k->len - j > 9)
				continue;
			for (; j < k->len && isdigit((unsigned char)k->p[j]); j++)
				v = v * 10 + (uint32_t)(k->p[j] - '0');
			if (j == k->len && v < r->count && !(k->p[r->nlen] == '0' && k->len - r->nlen > 1)) {
				*idx = v;
				return r;
			}
		}
	}
	return NULL;
}

/* ---------------------------------------------------------------- operands */
enum { O_NONE, O_REG, O_NOTPRED, O_INT, O_F32, O_F64, O_FLOAT, O_SYM, O_ADDR, O_VEC, O_SINK, O_SREG, O_PAIR };
typedef struct popnd {
	uint8_t kind;
	reg_t *reg;
	uint32_t ridx;
	sym_t *sym;
	int64_t off;
	uint64_t bits;
	double fval;
	int sreg;
	uint32_t nvec, vcap; /* elements parsed, slots allocated (all zeroed) */
	struct popnd *vec; /* O_VEC elements, O_PAIR: [0] | [1] */
	const sc_tok_t *tok;
	const sc_tok_t *label; /* O_SYM not yet known: maybe a label */
} popnd_t;

static int parse_sreg(const sc_tok_t *k)
{
	for (int s = 0; s < SC_SR__COUNT; s++)
		if (strlen(sc__sreg_names[s]) + 1 == k->len && memcmp(sc__sreg_names[s], k->p + 1, k->len - 1) == 0)
			return s;
	/* %tid without component means .x in some PTX; not emitted by nvcc */
	return -1;
}

static int parse_simple(P *p, popnd_t *o);
static int parse_vector(P *p, const sc_tok_t *k, popnd_t *o);

/* ", {a, b, ...}]" after a texture or surface handle, into o->vec. */
static int parse_coords(P *p, popnd_t *o)
{
	next(p);
	sc_tok_t *b = next(p);
	if (!is_punct(b, '{'))
		return perr(p, b, "expected '{' and the coordinates after the handle, found '%s'", tokstr(b));
	int rc = parse_vector(p, b, o);
	o->kind = O_ADDR;
	return rc ? rc : expect(p, ']');
}

static int parse_addr(P *p, popnd_t *o)
{
	/* after '[' : reg | sym | int, optional + int / +-int / - int */
	sc_tok_t *k = next(p);
	o->kind = O_ADDR;
	o->tok = k;
	uint32_t idx;
	reg_t *r = k->kind == SC_TK_IDENT ? reg_find(p, k, &idx) : NULL; /* register without '%' */
	if (k->kind == SC_TK_REG || r) {
		if (!r)
			r = reg_find(p, k, &idx);
		if (!r)
			return perr(p, k, "undeclared register '%s'", tokstr(k));
		if (r->type == SC_T_PRED)
			return perr(p, k, "predicate '%s' used as an address", tokstr(k));
		o->reg = r;
		o->ridx = idx;
	} else if (k->kind == SC_TK_IDENT) {
		sym_t *y = sym_find(p, k->p, k->len);
		if (!y || y->is_func)
			return perr(p, k, "unknown variable '%s' in address", tokstr(k));
		o->sym = y;
	} else if (k->kind == SC_TK_INT) {
		o->off = (int64_t)k->bits;
	} else {
		return perr(p, k, "expected a register, variable or integer address, found '%s'", tokstr(k));
	}
	while (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
		bool neg = next(p)->punct == '-';
		if (is_punct(peek(p), '-')) {
			next(p);
			neg = !neg;
		}
		sc_tok_t *n = next(p);
		if (n->kind != SC_TK_INT)
			return perr(p, n, "expected an integer offset, found '%s'", tokstr(n));
		o->off = (int64_t)((uint64_t)o->off + (neg ? 0 - n->bits : n->bits));
	}
	if (is_punct(peek(p), ',')) /* [handle, {coordinates}] of tex, suld, sust: vec holds them */
		return parse_coords(p, o);
	return expect(p, ']');
}

/* After an item of a list: 1 at its closing character `end`, 0 after a
 * ',' (either consumed), else -1 with an error naming what was expected
 * (`where`: what list, e.g. " in vector operand"). */
static int list_next(P *p, char end, const char *where)
{
	sc_tok_t *s = next(p);
	if (is_punct(s, end))
		return 1;
	if (is_punct(s, ','))
		return 0;
	return perr(p, s, "expected ',' or '%c'%s, found '%s'", end, where, tokstr(s));
}

/* "{a, b, ...}" after the '{' k: registers, '_' or constants. */
static int parse_vector(P *p, const sc_tok_t *k, popnd_t *o)
{
	popnd_t *v = calloc(4, sizeof *v);
	if (!v) {
		p->err = SC_ENOMEM;
		return -1;
	}
	o->kind = O_VEC;
	o->vec = v;
	o->vcap = 4;
	for (;;) {
		if (o->nvec == 4)
			return perr(p, k, "vector operand with more than 4 elements");
		if (is_punct(peek(p), '{')) /* before recursing: "{{{{..." is deep */
			return perr(p, peek(p), "vector elements must be registers, '_' or constants");
		popnd_t *e = &v[o->nvec];
		if (parse_simple(p, e))
			return -1;
		if (e->kind != O_REG && e->kind != O_SINK && e->kind != O_INT && e->kind != O_F32 && e->kind != O_F64)
			return perr(p, e->tok, "vector elements must be registers, '_' or constants");
		o->nvec++;
		int end = list_next(p, '}', " in vector operand");
		if (end)
			return end < 0 ? -1 : 0;
	}
}

/* "-" then a number. */
static int parse_negative(P *p, popnd_t *o)
{
	sc_tok_t *n = next(p);
	if (n->kind == SC_TK_INT) {
		o->kind = O_INT;
		o->bits = 0 - n->bits;
	} else if (n->kind == SC_TK_FLOAT) {
		o->kind = O_FLOAT;
		o->fval = -n->fval;
	} else {
		return perr(p, n, "expected a number after '-', found '%s'", tokstr(n));
	}
	return 0;
}

/* Whether k names a declared register; o is that register when it does. */
static bool reg_operand(P *p, const sc_tok_t *k, popnd_t *o)
{
	uint32_t idx;
	reg_t *r = reg_find(p, k, &idx);
	if (!r)
		return false;
	o->kind = O_REG;
	o->reg = r;
	o->ridx = idx;
	return true;
}

/* %name: a declared register, else a special register. */
static int parse_reg_operand(P *p, const sc_tok_t *k, popnd_t *o)
{
	if (reg_operand(p, k, o))
		return 0;
	int s = parse_sreg(k);
	if (s < 0)
		return perr(p, k, "undeclared register '%s'", tokstr(k));
	o->kind = O_SREG;
	o->sreg = s;
	return 0;
}

/* A name: '_', a register declared without '%' (".reg .pred p;" in inline
 * asm), or a symbol (maybe a label not seen yet), with an optional +N. */
static int parse_name_operand(P *p, const sc_tok_t *k, popnd_t *o)
{
	if (tok_is(k, "_")) {
		o->kind = O_SINK;
		return 0;
	}
	if (reg_operand(p, k, o))
		return 0;
	sym_t *y = sym_find(p, k->p, k->len);
	if (!y && tok_is(k, "WARP_SZ")) { /* the PTX constant: the warp size */
		o->kind = O_INT;
		o->bits = 32;
		return 0;
	}
	o->kind = O_SYM;
	o->sym = y;
	o->label = k;
	if (y && (is_punct(peek(p), '+'))) {
		next(p);
		sc_tok_t *n = next(p);
		if (n->kind != SC_TK_INT)
			return perr(p, n, "expected an integer offset, found '%s'", tokstr(n));
		o->off = (int64_t)n->bits;
	}
	return 0;
}

static int parse_simple(P *p, popnd_t *o)
{
	sc_tok_t *k = next(p);
	memset(o, 0, sizeof *o);
	o->tok = k;
	if (is_punct(k, '!')) {
		if (parse_simple(p, o))
			return -1;
		if (o->kind != O_REG || o->reg->type != SC_T_PRED)
			return perr(p, k, "'!' applies only to predicates");
		o->kind = O_NOTPRED;
		return 0;
	}
	if (is_punct(k, '-'))
		return parse_negative(p, o);
	switch (k->kind) {
	case SC_TK_REG: return parse_reg_operand(p, k, o);
	case SC_TK_INT: o->kind = O_INT; o->bits = k->bits; return 0;
	case SC_TK_F32: o->kind = O_F32; o->bits = k->bits; return 0;
	case SC_TK_F64: o->kind = O_F64; o->bits = k->bits; return 0;
	case SC_TK_FLOAT: o->kind = O_FLOAT; o->fval = k->fval; return 0;
	case SC_TK_IDENT: return parse_name_operand(p, k, o);
	case SC_TK_PUNCT:
		if (k->punct == '[')
			return parse_addr(p, o);
		if (k->punct == '{')
			return parse_vector(p, k, o);
		break;
	default: break;
	}
	return perr(p, k, "expected an operand, found '%s'", tokstr(k));
}

/* Frees what an operand owns, nested ones included: a vector's elements
 * may themselves be vectors (refused, but only after parsing), and a pair's
 * first half is a whole operand. Every allocated slot is visited, so an
 * element that failed half-way is freed too. */
static void popnd_free(popnd_t *o)
{
	if (o->kind != O_VEC && o->kind != O_PAIR && o->kind != O_ADDR) /* an address's coordinates: tex */
		return;
	for (uint32_t i = 0; o->vec && i < o->vcap; i++)
		popnd_free(&o->vec[i]);
	free(o->vec);
	o->vec = NULL;
}

/* ---------------------------------------------------------------- encoding helpers */
typedef struct L { /* one instruction being lowered */
	sc_insn_t in;
	uint32_t nops;
	const sc_tok_t *mn;
	popnd_t *o;
	uint32_t no;
} L;

static int add_fixup(P *p, fixup_t f)
{
	GROW(p->fx, p->nfx, p->fx_cap);
	f.addend0 = f.addend;
	p->fx[p->nfx++] = f;
	return 0;
}

static int reg_opnd(P *p, const popnd_t *o, sc_opnd_t *out)
{
	reg_t *r = o->reg;
	if (r->type == SC_T_PRED) {
		*out = SC_OPND(o->kind == O_NOTPRED ? SC_K_PREDN : SC_K_PRED, r->first + o->ridx);
		return 0;
	}
	unsigned bits = sc__type_bits(r->type);
	if (bits > 64)
		return perr(p, o->tok, "128-bit registers are not supported");
	uint32_t slot = r->first + o->ridx * (bits == 64 ? 2 : 1);
	*out = SC_OPND(bits == 64 ? SC_K_R64 : SC_K_R32, slot);
	return 0;
}

/* Immediate bits of a literal for an operand of type t. */
static int imm_bits(P *p, const popnd_t *o, int t, uint64_t *v)
{
	bool f32 = t == SC_T_F32, f64 = t == SC_T_F64;
	switch (o->kind) {
	case O_INT:
		if (f32) {
			float f = (float)(int64_t)o->bits;
			uint32_t u;
			memcpy(&u, &f, 4);
			*v = u;
		} else if (f64) {
			double d = (double)(int64_t)o->bits;
			memcpy(v, &d, 8);
		} else {
			*v = o->bits;
		}
		return 0;
	case O_F32:
		if (f64) {
			uint32_t u = (uint32_t)o->bits;
			float f;
			memcpy(&f, &u, 4);
			double d = f;
			memcpy(v, &d, 8);
		} else {
			*v = o->bits;
		}
		return 0;
	case O_F64:
		if (f32) {
			double d;
			memcpy(&d, &o->bits, 8);
			float f = (float)d;
			uint32_t u;
			memcpy(&u, &f, 4);
			*v = u;
		} else {
			*v = o->bits;
		}
		return 0;
	case O_FLOAT:
		if (f64) {
			memcpy(v, &o->fval, 8);
		} else {
			float f = (float)o->fval;
			uint32_t u;
			memcpy(&u, &f, 4);
			*v = u;
		}
		return 0;
	}
	return perr(p, o->tok, "expected a constant");
}

/* Encodes operand o (a register, constant, special register or variable
 * address) as operand slot `slot` of the instruction; t is the type a
 * constant is read as. */
static int enc_value_to(P *p, sc_opnd_t *dst, const popnd_t *o, int t)
{
	uint32_t idx;
	uint64_t v;
	switch (o->kind) {
	case O_REG:
	case O_NOTPRED:
		return reg_opnd(p, o, dst);
	case O_SINK:
		*dst = SC_OPND(SC_K_NONE, 0);
		return 0;
	case O_SREG:
		*dst = SC_OPND(SC_K_SREG, (uint32_t)o->sreg);
		return 0;
	case O_INT: case O_F32: case O_F64: case O_FLOAT:
		if (imm_bits(p, o, t, &v) || pool_add(p, v, true, &idx))
			return -1;
		*dst = SC_OPND(SC_K_IMM, idx);
		return 0;
	case O_SYM:
		if (!o->sym || o->sym->is_func)
			return perr(p, o->tok, "unknown symbol '%s'", tokstr(o->tok));
		if (pool_add(p, 0, false, &idx))
			return -1;
		*dst = SC_OPND(SC_K_IMM, idx);
		return add_fixup(p, (fixup_t){.kind = FX_POOL, .pc = p->m->ncode, .pool = idx, .sym = o->sym,
		                              .addend = o->off, .line = o->tok->line, .col = o->tok->col,
		                              .func = p->fn});
	}
	return perr(p, o->tok, "operand '%s' is not a value here", tokstr(o->tok));
}
static int enc_value(P *p, L *l, uint32_t slot, const popnd_t *o, int t)
{
	sc_opnd_t v = 0;
	int rc = enc_value_to(p, &v, o, t);
	sc__set_opnd(&l->in, slot, v);
	return rc;
}

static void note_shared_use(P *p, sym_t *y)
{
	if (y->space != SC_SP_SHARED || p->fn < 0)
		return;
	if (!p->m->funcs[p->fn].is_entry)
		y->used_by_func = true;
}

/* Encodes an address operand into slot `slot` and imm. `space` is the
 * instruction's state space (SC_SP_GENERIC when none was written). */
static int enc_addr(P *p, L *l, uint32_t slot, const popnd_t *o, int *space)
{
	if (o->kind != O_ADDR || o->vec)
		return perr(p, o->tok, "expected an address in brackets, found '%s'", tokstr(o->tok));
	sc_opnd_t base = SC_OPND(SC_K_ADDR, SC_NOREG);
	if (o->reg) {
		popnd_t r = *o;
		r.kind = O_REG;
		sc_opnd_t ro;
		if (reg_opnd(p, &r, &ro))
			return -1;
		base = SC_OPND(SC_OPND_KIND(ro) == SC_K_R64 ? SC_K_ADDR : SC_K_ADDR32, SC_OPND_IDX(ro));
	}
	sc__set_opnd(&l->in, slot, base);
	l->in.imm = (uint64_t)o->off;
	if (o->sym) {
		sym_t *y = o->sym;
		int sp = y->space;
		if (*space == SC_SP_GENERIC && sp != SC_SP_GENERIC) {
			/* a variable named in a generic access: use its generic address */
		} else if (*space == SC_SP_PARAM && sp == SC_SP_LOCAL) {
			/* function parameters live in the thread's local frame */
			*space = SC_SP_LOCAL;
		} else if (*space != sp) {
			return perr(p, o->tok, "variable '%s' is not in the %s state space", y->name,
			            *space == SC_SP_GLOBAL ? "global" : *space == SC_SP_SHARED ? "shared" :
			            *space == SC_SP_LOCAL ? "local" : *space == SC_SP_CONST ? "const" : "param");
		}
		note_shared_use(p, y);
		return add_fixup(p, (fixup_t){.kind = FX_IMM, .generic = *space == SC_SP_GENERIC, .pc = p->m->ncode,
		                              .sym = y, .addend = o->off, .line = o->tok->line,
		                              .col = o->tok->col, .func = p->fn});
	}
	return 0;
}

/* ---------------------------------------------------------------- modifiers */
typedef struct mods {
	int types[3];
	int ntypes;
	int rnd;
	uint16_t flags;
	int space;
	int vec;
	const sc_tok_t *k;
	char word[24][40];   /* remaining words, to be consumed by the op */
	bool used[24];
	int nword;
} mods_t;

static bool is_ignored_qualifier(const char *w)
{
	static const char *const q[] = {
		"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "relaxed", "acquire", "release",
		"acq_rel", "sc", "weak", "mmio", "cta", "gpu", "sys", "cluster", "aligned", "sync",
		"noftz", NULL};
	for (int i = 0; q[i]; i++)
		if (!strcmp(w, q[i]))
			return true;
	return !strncmp(w, "L1::", 4) || !strncmp(w, "L2::", 4);
}

/* One word of a mnemonic: a type, a rounding, a flag, a state space or a
 * vector width, else kept in m->word for the instruction to take. */
static int mod_word(P *p, const sc_tok_t *k, const char *word, mods_t *m)
{
	static const char *const rn[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
	static const struct { const char *w; uint16_t flag; } flags[] = {
		{"ftz", SC_MOD_FTZ}, {"sat", SC_MOD_SAT}, {"approx", SC_MOD_APPROX}, {"full", SC_MOD_FULL},
		{"cc", SC_MOD_CC_OUT}, {"uni", SC_MOD_UNI}, {"volatile", SC_MOD_VOLATILE}};
	static const struct { const char *w; int sp; } spaces[] = {
		{"global", SC_SP_GLOBAL}, {"shared", SC_SP_SHARED}, {"shared::cta", SC_SP_SHARED},
		{"local", SC_SP_LOCAL}, {"const", SC_SP_CONST}, {"param", SC_SP_PARAM}};
	int t = type_of(word, (uint32_t)strlen(word));
	if (t > 0) {
		if (m->ntypes == 3)
			return perr(p, k, "too many types in '%s'", tokstr(k));
		m->types[m->ntypes++] = t;
		return 0;
	}
	for (int i = 1; i < SC_RND__COUNT; i++)
		if (!strcmp(word, rn[i])) {
			m->rnd = i;
			return 0;
		}
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (!strcmp(word, flags[i].w)) {
			m->flags |= flags[i].flag;
			return 0;
		}
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (!strcmp(word, spaces[i].w)) {
			m->space = spaces[i].sp;
			return 0;
		}
	if (!strcmp(word, "v2") || !strcmp(word, "v4")) {
		m->vec = word[1] - '0';
		return 0;
	}
	if (m->nword == 24)
		return perr(p, k, "too many modifiers in '%s'", tokstr(k));
	strcpy(m->word[m->nword++], word);
	return 0;
}

/* "base.w1.w2..." of token k: base into base[bsz], the words into m. */
static int split_mods(P *p, const sc_tok_t *k, char *base, size_t bsz, mods_t *m)
{
	memset(m, 0, sizeof *m);
	m->k = k;
	m->space = SC_SP_NONE;
	const char *s = k->p, *e = k->p + k->len;
	const char *d = memchr(s, '.', k->len);
	size_t bl = (size_t)((d ? d : e) - s);
	if (bl >= bsz)
		return perr(p, k, "unknown instruction '%s'", tokstr(k));
	memcpy(base, s, bl);
	base[bl] = 0;
	while (d && d < e) {
		const char *w = d + 1;
		const char *nd = w;
		while (nd < e && *nd != '.')
			nd++;
		size_t wl = (size_t)(nd - w);
		char word[40];
		if (wl >= sizeof word || wl == 0)
			return perr(p, k, "malformed modifier in '%s'", tokstr(k));
		memcpy(word, w, wl);
		word[wl] = 0;
		if (mod_word(p, k, word, m))
			return -1;
		d = nd;
	}
	return 0;
}

/* The first word equal to w[0, n) not used yet and not in got[0, ngot). */
static int find_word(const mods_t *m, const char *w, size_t n, const int *got, int ngot)
{
	for (int i = 0; i < m->nword; i++) {
		bool taken = m->used[i];
		for (int j = 0; j < ngot; j++)
			taken |= got[j] == i;
		if (!taken && strlen(m->word[i]) == n && !memcmp(m->word[i], w, n))
			return i;
	}
	return -1;
}

/* Consumes word w if present; "a.b" consumes a and b when both are. */
static bool take(mods_t *m, const char *w)
{
	int got[4], n = 0;
	for (const char *s = w;; s++) {
		const char *e = strchr(s, '.');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		int i = n < 4 ? find_word(m, s, len, got, n) : -1;
		if (i < 0)
			return false;
		got[n++] = i;
		if (!e)
			break;
		s = e;
	}
	for (int j = 0; j < n; j++)
		m->used[got[j]] = true;
	return true;
}

static int take_one(mods_t *m, const char *const *list)
{
	for (int j = 0; list[j]; j++)
		if (take(m, list[j]))
			return j;
	return -1;
}

/* Every modifier must have been understood by the op. */
static int mods_done(P *p, mods_t *m, bool memory_like)
{
	for (int i = 0; i < m->nword; i++) {
		if (m->used[i])
			continue;
		if (memory_like && is_ignored_qualifier(m->word[i]))
			continue;
		return perr(p, m->k, "unsupported modifier '.%s' in '%s'", m->word[i], tokstr(m->k));
	}
	return 0;
}

/* ---------------------------------------------------------------- operand types */
/* PTX's type-checking rules: a register operand must have the size of the
 * type the instruction reads or writes there (any type of that size), a
 * predicate where a predicate is expected and nowhere else; ld, st and cvt
 * also accept integer data registers wider than the instruction type. */
enum { CK_SKIP = -1 };

static int check_one(P *p, const L *l, const popnd_t *o, int t, bool wider)
{
	if (t == CK_SKIP)
		return 0;
	if (o->kind == O_VEC || o->kind == O_PAIR) {
		for (uint32_t i = 0; i < o->nvec; i++)
			if (check_one(p, l, &o->vec[i], t, wider))
				return -1;
		return 0;
	}
	if (o->kind != O_REG && o->kind != O_NOTPRED)
		return 0;
	bool rp = o->reg->type == SC_T_PRED;
	if ((t == SC_T_PRED) != rp)
		return perr(p, o->tok, "'%s' %s a predicate here; '%s' expects %s", tokstr(o->tok), rp ? "is" : "is not",
		            tokstr(l->mn), t == SC_T_PRED ? "a predicate" : "a data register");
	if (rp)
		return 0;
	unsigned rb = sc__type_bits(o->reg->type), tb = sc__type_bits((unsigned)t);
	if (rb == tb || (wider && rb > tb && !sc__type_is_float((unsigned)t)))
		return 0;
	char name[96];
	snprintf(name, sizeof name, "%s", tokstr(o->tok));
	return perr(p, o->tok, "register '%s' is %u-bit; '%s' expects a %u-bit operand here", name, rb, tokstr(l->mn), tb);
}

/* The shape character of parsed operand i (sc_int.h, the table's head);
 * *pair: the character of the predicate half of a pair operand. */
static char shape_at(const sc_shape_t *s, uint32_t i, char *pair)
{
	uint32_t nd = s->ndst - s->pair; /* destinations as written */
	*pair = i == 0 && s->pair ? s->dst[1] : 0;
	if (i < nd)
		return s->dst[i];
	return i - nd < s->nsrc ? s->src[i - nd] : 'a';
}

/* The type whose size a register at a position of kind k must have. */
static int want_type(const sc_insn_t *in, char k)
{
	switch (k) {
	case 'd': case 'a': return in->type;
	case 'q': case 'u': return SC_T_U32;
	case 's': return in->stype;
	case 'P': case 'p': return SC_T_PRED;
	default: return CK_SKIP; /* r x g: any register; m L F: not registers */
	}
}

/* mul.wide/mad.wide write (and mad reads c) at twice the width. */
static int wide_type(int t)
{
	static const uint8_t wide[SC_T__COUNT] = {[SC_T_U16] = SC_T_U32, [SC_T_S16] = SC_T_S32,
	                                         [SC_T_U32] = SC_T_U64, [SC_T_S32] = SC_T_S64,
	                                         [SC_T_U64] = SC_T_B128, [SC_T_S64] = SC_T_B128};
	return wide[t] ? wide[t] : CK_SKIP;
}

/* mov's vector side {a, b, ...}: each element is a part of .type. */
static int mov_elem_type(const sc_insn_t *in, const popnd_t *o)
{
	unsigned eb = sc__type_bits(in->type) / o->nvec;
	return eb == 32 ? SC_T_B32 : eb == 16 ? SC_T_B16 : CK_SKIP;
}

/* The register operands against the row's shape. Irregular: control
 * instructions are not checked, mul/mad.wide, mov's vectors. */
static int check_operands(P *p, const L *l)
{
	const sc_insn_t *in = &l->in;
	const sc_opinfo_t *oi = &sc__ops[in->op];
	if (oi->unit == SC_U_CTL)
		return 0;
	sc_shape_t s;
	sc__shape(in->op, &s);
	bool wide = (in->op == SC_OP_MUL || in->op == SC_OP_MAD) && !sc__type_is_float(in->type) &&
	            in->sub == SC_MUL_WIDE;
	for (uint32_t i = 0; i < l->no && i < 8; i++) {
		const popnd_t *o = &l->o[i];
		if (o->kind == O_ADDR)
			continue;
		char pk, k = shape_at(&s, i, &pk);
		int want = want_type(in, k);
		if (wide && (i == 0 || i == 3))
			want = wide_type(in->type);
		if (in->op == SC_OP_MOV && o->kind == O_VEC && o->nvec)
			want = mov_elem_type(in, o);
		if (o->kind == O_PAIR && pk) {
			if (check_one(p, l, &o->vec[0], want, false) || check_one(p, l, &o->vec[1], want_type(in, pk), false))
				return -1;
			continue;
		}
		if (want == SC_T_B128)
			want = CK_SKIP;
		if (check_one(p, l, o, want, oi->flags & SC_OF_WIDE))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- lowering
 * Every instruction is lowered from its row of the instruction table
 * (sc_int.h): the sub-selector, the number of types, the operands by the
 * row's shape. What a row cannot say is written below, one function per
 * instruction or family: lower_op lists them. */
static int emit(P *p, L *l)
{
	sc_module_t *m = p->m;
	GROW(m->code, m->ncode, p->code_cap);
	if (m->ncode >= (1u << 24))
		return perr(p, l->mn, "module too large");
	uint32_t *nl = realloc(m->line, p->code_cap * sizeof *nl);
	if (!nl) {
		p->err = SC_ENOMEM;
		return -1;
	}
	m->line = nl;
	m->line[m->ncode] = l->mn->line;
	m->code[m->ncode++] = l->in;
	return 0;
}

static int need_ops(P *p, L *l, uint32_t lo, uint32_t hi)
{
	if (l->no < lo || l->no > hi) {
		if (lo == hi)
			return perr(p, l->mn, "'%s' takes %u operands, found %u", tokstr(l->mn), lo, l->no);
		return perr(p, l->mn, "'%s' takes %u to %u operands, found %u", tokstr(l->mn), lo, hi, l->no);
	}
	return 0;
}

static int need_type(P *p, L *l, mods_t *m, int n)
{
	if (m->ntypes != n)
		return perr(p, l->mn, "'%s' needs %d type modifier%s", tokstr(l->mn), n, n == 1 ? "" : "s");
	return 0;
}

static bool is_dst_reg(const popnd_t *o) { return o->kind == O_REG || o->kind == O_SINK; }

static int need_dst(P *p, const popnd_t *o)
{
	if (!is_dst_reg(o))
		return perr(p, o->tok, "destination must be a register");
	return 0;
}

/* d, a, b, ... : one destination then sources, all with type t. */
static int ops_dst_src(P *p, L *l, int t, uint32_t nsrc_min, uint32_t nsrc_max)
{
	if (need_ops(p, l, 1 + nsrc_min, 1 + nsrc_max))
		return -1;
	if (!is_dst_reg(&l->o[0]))
		return perr(p, l->o[0].tok, "destination must be a register");
	for (uint32_t i = 0; i < l->no; i++)
		if (enc_value(p, l, i, &l->o[i], t))
			return -1;
	l->in.nops = SC_NOPS_MAKE(1, l->no - 1);
	return 0;
}

/* The value of sub-selector ss written in the mnemonic, or -1 when none
 * is (an optional selector gives 0 then). */
static int find_sub(mods_t *m, int ss)
{
	const sc_subsel_t *s = &sc__subs[ss];
	bool opt = !s->names[0][0];
	for (int j = opt; s->names[j]; j++)
		if (take(m, s->names[j]))
			return j;
	return opt ? 0 : -1;
}

/* find_sub into in->sub, refusing a missing required selector. */
static int lower_sub(P *p, L *l, mods_t *m, int ss)
{
	int k = find_sub(m, ss);
	if (k < 0)
		return perr(p, l->mn, sc__subs[ss].need, tokstr(l->mn));
	l->in.sub = (uint8_t)k;
	return 0;
}

/* ---- the regular path: rows whose operands are one destination and the
 * sources of the shape */

/* mul/mad: .lo/.hi/.wide for integers, none for floating point. */
static int sub_mul(P *p, L *l, mods_t *m)
{
	int k = find_sub(m, SC_SS_MUL);
	if (sc__type_is_float(l->in.type)) {
		if (k >= 0)
			return perr(p, l->mn, "'.%s' is not allowed on floating-point '%s'", sc__subs[SC_SS_MUL].names[k],
			            sc__ops[l->in.op].name);
		return 0;
	}
	if (k < 0)
		return perr(p, l->mn, sc__subs[SC_SS_MUL].need, tokstr(l->mn));
	l->in.sub = (uint8_t)k;
	return 0;
}

/* shf: one of .l/.r and one of .clamp/.wrap, as two bits. */
static int sub_shf(P *p, L *l, mods_t *m)
{
	bool lft = take(m, "l"), rgt = take(m, "r");
	bool cl = take(m, "clamp"), wr = take(m, "wrap");
	if (lft == rgt || cl == wr)
		return perr(p, l->mn, "%s", sc__subs[SC_SS_SHF].need);
	l->in.sub = (uint8_t)((rgt ? SC_SHF_R : 0) | (cl ? SC_SHF_CLAMP : 0));
	return 0;
}

/* The sub-selector, and what must hold before the types are counted. */
static int lower_pre(P *p, L *l, mods_t *m)
{
	switch (l->in.op) {
	case SC_OP_MUL: case SC_OP_MAD:
		return sub_mul(p, l, m);
	case SC_OP_SHF:
		return sub_shf(p, l, m);
	case SC_OP_CVTA:
		if (lower_sub(p, l, m, SC_SS_CVTA))
			return -1;
		if (m->space == SC_SP_NONE || m->space == SC_SP_GENERIC)
			return perr(p, l->mn, "cvta needs a state space");
		return 0;
	default:
		return lower_sub(p, l, m, sc__ops[l->in.op].sub);
	}
}

/* The shape's operands: each first as .type (ops_dst_src), then u and x
 * positions again as .u32, and an s position as .stype when that is a
 * second type of its own. */
static int lower_operands(P *p, L *l, mods_t *m)
{
	const sc_opinfo_t *oi = &sc__ops[l->in.op];
	sc_shape_t s;
	sc__shape(l->in.op, &s);
	if (s.nops == 0)
		return need_ops(p, l, 0, 0);
	if (ops_dst_src(p, l, l->in.type, s.nsrc - (uint32_t)__builtin_popcount(s.opt), s.nsrc))
		return -1;
	if (oi->nt == SC_NT_TS)
		l->in.stype = (uint8_t)m->types[1];
	for (uint32_t i = 1; i < l->no; i++) {
		char k = s.src[i - 1];
		if ((k == 'u' || k == 'x') && enc_value(p, l, i, &l->o[i], SC_T_U32))
			return -1;
		if (k == 's' && oi->nt == SC_NT_TS && enc_value(p, l, i, &l->o[i], l->in.stype))
			return -1;
	}
	return 0;
}

/* mad.wide: a constant c is read at twice the width. */
static int post_mad_wide(P *p, L *l)
{
	static const uint8_t wide[SC_T__COUNT] = {[SC_T_U16] = SC_T_U32, [SC_T_S16] = SC_T_S32,
	                                         [SC_T_U32] = SC_T_U64, [SC_T_S32] = SC_T_S64};
	int t = l->in.type;
	if (l->o[3].kind == O_REG || !wide[t])
		return 0;
	uint32_t idx;
	uint64_t v;
	if (imm_bits(p, &l->o[3], wide[t], &v) || pool_add(p, v, true, &idx))
		return -1;
	sc__set_opnd(&l->in, 3, SC_OPND(SC_K_IMM, idx));
	return 0;
}

/* What a row cannot say, once the operands are lowered. */
static int lower_post(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	bool isf = sc__type_is_float(in->type);
	switch (in->op) {
	case SC_OP_MAD:
		return !isf && in->sub == SC_MUL_WIDE ? post_mad_wide(p, l) : 0;
	case SC_OP_DIV:
		if (in->type == SC_T_F32 && !m->rnd && !(m->flags & (SC_MOD_APPROX | SC_MOD_FULL)))
			return perr(p, l->mn, "div.f32 needs .approx, .full or a rounding modifier");
		return 0;
	case SC_OP_SELP:
		if (SC_OPND_KIND(in->opnd[3]) != SC_K_PRED && SC_OPND_KIND(in->opnd[3]) != SC_K_PREDN)
			return perr(p, l->o[3].tok, "selp's selector must be a predicate");
		return 0;
	case SC_OP_TESTP: /* the type written is the source's */
		in->stype = in->type;
		in->type = SC_T_PRED;
		return 0;
	case SC_OP_CVTA:
		if (l->o[1].kind == O_SYM && l->o[1].sym)
			note_shared_use(p, l->o[1].sym);
		in->aux = SC_AUX_MAKE(m->space, 0, 0);
		return 0;
	case SC_OP_MALLOC: /* the launch makes the heap */
		p->m->uses_heap = true;
		return 0;
	case SC_OP_REDUX:
		if ((in->sub >= 3) != (in->type == SC_T_B32))
			return perr(p, l->mn, "redux.sync.{and,or,xor} take .b32; .add, .min and .max take .u32 or .s32");
		return 0;
	case SC_OP_RET:
		if (p->m->funcs[p->fn].is_entry)
			in->op = SC_OP_EXIT; /* returning from a kernel ends the thread */
		return 0;
	default:
		return 0;
	}
}

static int lower_regular(P *p, L *l, mods_t *m)
{
	const sc_opinfo_t *oi = &sc__ops[l->in.op];
	if (lower_pre(p, l, m))
		return -1;
	if (oi->nt != SC_NT_NONE && need_type(p, l, m, oi->nt == SC_NT_TS ? 2 : 1))
		return -1;
	if (mods_done(p, m, false) || lower_operands(p, l, m))
		return -1;
	return lower_post(p, l, m);
}

/* ---- the instructions lowered by hand */
static int lower_bra(P *p, L *l, mods_t *m)
{
	if (mods_done(p, m, false) || need_ops(p, l, 1, 1))
		return -1;
	const popnd_t *o = &l->o[0];
	if (o->kind != O_SYM || (o->sym && !o->sym->is_func && o->sym->space != SC_SP_NONE))
		return perr(p, o->tok, "expected a label after 'bra', found '%s'", tokstr(o->tok));
	l->in.imm = ((uint64_t)SC_PC_NONE << 32);
	return add_fixup(p, (fixup_t){.kind = FX_LABEL, .pc = p->m->ncode, .lname = o->tok->p,
	                              .llen = o->tok->len, .line = o->tok->line, .col = o->tok->col,
	                              .func = p->fn});
}

static int lower_ldst(P *p, L *l, mods_t *m)
{
	int op = l->in.op;
	int space = m->space == SC_SP_NONE ? SC_SP_GENERIC : m->space;
	if (take(m, "nc") && space != SC_SP_GLOBAL)
		return perr(p, l->mn, "'.nc' applies only to ld.global");
	if (mods_done(p, m, true) || need_type(p, l, m, 1) || need_ops(p, l, 2, 2))
		return -1;
	int t = m->types[0];
	if (t == SC_T_PRED || sc__type_bits((unsigned)t) > 64)
		return perr(p, l->mn, "'%s': type not supported for memory access", tokstr(l->mn));
	int vec = m->vec ? m->vec : 1;
	const popnd_t *addr = op == SC_OP_LD ? &l->o[1] : &l->o[0];
	const popnd_t *val = op == SC_OP_LD ? &l->o[0] : &l->o[1];
	uint32_t nval = 1;
	if (vec > 1) {
		if (val->kind != O_VEC || val->nvec != (uint32_t)vec)
			return perr(p, val->tok, "'.v%d' needs a vector operand of %d elements", vec, vec);
		nval = (uint32_t)vec;
	} else if (val->kind == O_VEC) {
		return perr(p, val->tok, "vector operand without '.v2'/'.v4'");
	}
	if (op == SC_OP_LD) {
		for (uint32_t i = 0; i < nval; i++) {
			const popnd_t *e = vec > 1 ? &val->vec[i] : val;
			if (!is_dst_reg(e))
				return perr(p, e->tok, "load destination must be a register");
			if (enc_value(p, l, i, e, t))
				return -1;
		}
		if (enc_addr(p, l, nval, addr, &space))
			return -1;
		l->in.nops = SC_NOPS_MAKE(nval, 1);
	} else {
		if (enc_addr(p, l, 0, addr, &space))
			return -1;
		for (uint32_t i = 0; i < nval; i++)
			if (enc_value(p, l, 1 + i, vec > 1 ? &val->vec[i] : val, t))
				return -1;
		l->in.nops = SC_NOPS_MAKE(0, 1 + nval);
		/* call-site .param variables (func -1 until a call binds them) are writable */
		bool callsite = addr->sym && addr->sym->space == SC_SP_PARAM && addr->sym->func < 0;
		if (space == SC_SP_CONST || (space == SC_SP_PARAM && p->m->funcs[p->fn].is_entry && !callsite))
			return perr(p, l->mn, "store to a read-only state space");
	}
	l->in.aux = SC_AUX_MAKE(space, vec == 4 ? 2 : vec == 2 ? 1 : 0, 0);
	l->in.mods = m->flags & SC_MOD_VOLATILE;
	return 0;
}

/* atom.op d, [a], b[, c] and red.op [a], b: the types and operations the
 * parser takes are fewer than the semantics define (no f16x2, and on
 * floats only add, exch, min and max). */
static int lower_atom(P *p, L *l, mods_t *m)
{
	int space = m->space == SC_SP_NONE ? SC_SP_GENERIC : m->space;
	int a = find_sub(m, SC_SS_ATOM);
	if (a < 0)
		return perr(p, l->mn, sc__subs[SC_SS_ATOM].need, tokstr(l->mn));
	if (space != SC_SP_GENERIC && space != SC_SP_GLOBAL && space != SC_SP_SHARED)
		return perr(p, l->mn, "atomics apply to global, shared or generic addresses");
	if (mods_done(p, m, true) || need_type(p, l, m, 1))
		return -1;
	int t = m->types[0];
	if (t == SC_T_F16 || t == SC_T_BF16 || t == SC_T_F16X2 || t == SC_T_BF16X2 || sc__type_bits((unsigned)t) < 32 ||
	    sc__type_bits((unsigned)t) > 64)
		return perr(p, l->mn, "'%s': unsupported atomic type", tokstr(l->mn));
	bool isfloat = t == SC_T_F32 || t == SC_T_F64;
	if (isfloat && a != SC_ATOM_ADD && a != SC_ATOM_EXCH && a != SC_ATOM_MIN && a != SC_ATOM_MAX)
		return perr(p, l->mn, "'%s': operation not defined for floating point", tokstr(l->mn));
	uint32_t nsrc = a == SC_ATOM_CAS ? 2 : 1;
	uint32_t base = l->in.op == SC_OP_ATOM ? 1 : 0;
	if (need_ops(p, l, base + 1 + nsrc, base + 1 + nsrc))
		return -1;
	if (base && enc_value(p, l, 0, &l->o[0], t))
		return -1;
	if (enc_addr(p, l, base, &l->o[base], &space))
		return -1;
	for (uint32_t i = 0; i < nsrc; i++)
		if (enc_value(p, l, base + 1 + i, &l->o[base + 1 + i], t))
			return -1;
	l->in.sub = (uint8_t)a;
	l->in.aux = SC_AUX_MAKE(space, 0, 0);
	l->in.nops = SC_NOPS_MAKE(base, 1 + nsrc);
	return 0;
}

static int parse_param_decl(P *p, bool kernel, int *t, uint64_t *count, uint32_t *align, sc_tok_t **name);

/* NAME: .callprototype [(.param .type _)] _ (.param .type _, ...); the
 * label before it is consumed. */
static int parse_proto(P *p, const sc_tok_t *name)
{
	GROW(p->protos, p->nprotos, p->protos_cap);
	proto_t *pt = &p->protos[p->nprotos];
	memset(pt, 0, sizeof *pt);
	pt->name = name->p;
	pt->len = name->len;
	pt->fn = p->fn;
	for (int part = 0; part < 2; part++) {
		if (part == 1 && !tok_is(next(p), "_"))
			return perr(p, &p->t[p->i - 1], "expected '_' for the function in a .callprototype");
		if (part == 0 && !is_punct(peek(p), '('))
			continue; /* no return value */
		if (expect(p, '('))
			return -1;
		while (!is_punct(peek(p), ')')) {
			int t = 0;
			uint64_t count = 1;
			uint32_t align = 0;
			sc_tok_t *nk = NULL;
			if (parse_param_decl(p, false, &t, &count, &align, &nk))
				return -1;
			if (part ? pt->narg == SC_DCALL_MAXP : pt->nret == SC_DCALL_MAXR)
				return perr(p, nk, "too many parameters in a .callprototype");
			pt->size[pt->nret + pt->narg] = (uint32_t)(count * type_bytes(t));
			*(part ? &pt->narg : &pt->nret) += 1;
			if (is_punct(peek(p), ','))
				next(p);
		}
		next(p);
	}
	p->nprotos++;
	return expect(p, ';');
}

/* NAME: .calltargets f, g, ...; the label before it is consumed. The
 * functions must be declared; their sizes are the first one's. */
static int parse_targets(P *p, const sc_tok_t *name)
{
	GROW(p->protos, p->nprotos, p->protos_cap);
	proto_t *pt = &p->protos[p->nprotos];
	memset(pt, 0, sizeof *pt);
	*pt = (proto_t){.name = name->p, .len = name->len, .fn = p->fn};
	do {
		sc_tok_t *k = next(p);
		sym_t *y = k->kind == SC_TK_IDENT ? sym_find(p, k->p, k->len) : NULL;
		if (!y || !y->is_func)
			return perr(p, k, "expected a declared function in .calltargets, found '%s'", tokstr(k));
		sym_t **t = realloc(pt->targets, (pt->ntargets + 1) * sizeof *t);
		if (!t) {
			p->err = SC_ENOMEM;
			return -1;
		}
		pt->targets = t;
		pt->targets[pt->ntargets++] = y;
	} while (is_punct(peek(p), ',') && next(p));
	const sc_func_t *f = &p->m->funcs[pt->targets[0]->func];
	if (f->nrets > SC_DCALL_MAXR || f->nparams > SC_DCALL_MAXP)
		return perr(p, name, "'%s' takes more parameters than a call passes", f->name);
	pt->nret = f->nrets;
	pt->narg = f->nparams;
	for (uint32_t i = 0; i < f->nrets; i++)
		pt->size[i] = f->ret_size[i];
	for (uint32_t i = 0; i < f->nparams; i++)
		pt->size[f->nrets + i] = f->param_size[i];
	p->nprotos++;
	return expect(p, ';');
}

/* call (rets), %rd, (args), proto: a dynamic call (call.c) whose
 * .param variables are the caller's own local data. */
static int lower_icall(P *p, L *l, mods_t *m)
{
	const popnd_t *rets = &l->o[0], *args = &l->o[2], *pr = &l->o[3];
	if (l->o[1].kind != O_REG)
		return perr(p, l->o[1].tok, "a call through a prototype needs a register holding the function's address");
	if (l->no < 4)
		return perr(p, l->o[1].tok, "an indirect call needs a .callprototype label after its arguments");
	const proto_t *pt = NULL;
	for (uint32_t i = 0; i < p->nprotos && !pt; i++)
		if (p->protos[i].fn == p->fn && p->protos[i].len == pr->tok->len &&
		    !memcmp(p->protos[i].name, pr->tok->p, pr->tok->len))
			pt = &p->protos[i];
	if (!pt)
		return perr(p, pr->tok, "'%s' is not a .callprototype or .calltargets label of this function",
		            tokstr(pr->tok));
	if (rets->nvec != pt->nret || args->nvec != pt->narg)
		return perr(p, pr->tok, "prototype '%s' has %u return values and %u parameters; the call has %u and %u",
		            tokstr(pr->tok), pt->nret, pt->narg, rets->nvec, args->nvec);
	if (enc_value(p, l, 0, &l->o[1], SC_T_U64))
		return -1;
	if (SC_OPND_KIND(l->in.opnd[0]) != SC_K_R64)
		return perr(p, l->o[1].tok, "the function's address is a 64-bit register");
	GROW(p->calls, p->ncalls, p->calls_cap);
	pcall_t *pc = &p->calls[p->ncalls++];
	memset(pc, 0, sizeof *pc);
	*pc = (pcall_t){.pc = p->m->ncode, .nret = pt->nret, .narg = pt->narg, .dyn = true, .caller = p->fn,
	                .targets = pt->ntargets ? (int32_t)(pt - p->protos) : -1};
	for (uint32_t i = 0; i < pt->nret + pt->narg; i++) {
		const popnd_t *o = i < pt->nret ? &rets->vec[i] : &args->vec[i - pt->nret];
		sym_t *y = o->sym;
		if (o->kind != O_SYM || !y || y->space != SC_SP_PARAM || y->owner != p->fn || y->bound || y->dyn)
			return perr(p, o->tok, "call arguments must be .param variables declared at the call");
		if (y->size < pt->size[i])
			return perr(p, o->tok, "'%s' is %u bytes; the prototype expects %u", y->name, y->size, pt->size[i]);
		y->space = SC_SP_LOCAL;
		y->dyn = true;
		y->role = SC_SYM_CALL;
		pc->s[i] = y;
		pc->size[i] = pt->size[i];
	}
	l->in.sub = SC_CALL_DYN;
	l->in.nops = SC_NOPS_MAKE(0, 1);
	l->in.mods = m->flags & SC_MOD_UNI;
	return 0;
}

static int lower_call(P *p, L *l, mods_t *m)
{
	if (mods_done(p, m, false))
		return -1;
	if (l->o[1].kind == O_REG || l->no > 3)
		return lower_icall(p, l, m);
	/* operands were parsed specially: o[0] = ret list (O_VEC of syms) or none,
	 * o[1] = function symbol, o[2] = argument list */
	const popnd_t *fo = &l->o[1];
	if (!fo->sym || !fo->sym->is_func)
		return perr(p, fo->tok, "call target '%s' is not a known function (indirect calls are not supported)",
		            tokstr(fo->tok));
	sc_func_t *f = &p->m->funcs[fo->sym->func];
	const popnd_t *rets = &l->o[0], *args = &l->o[2];
	if (rets->nvec != f->nrets)
		return perr(p, fo->tok, "'%s' returns %u values, the call expects %u", f->name, f->nrets, rets->nvec);
	if (args->nvec != f->nparams)
		return perr(p, fo->tok, "'%s' takes %u parameters, the call passes %u", f->name, f->nparams, args->nvec);
	GROW(p->calls, p->ncalls, p->calls_cap);
	pcall_t *pc = &p->calls[p->ncalls++];
	memset(pc, 0, sizeof *pc);
	pc->pc = p->m->ncode;
	pc->nret = rets->nvec;
	pc->narg = args->nvec;
	pc->caller = p->fn;
	pc->callee = fo->sym;
	pc->targets = -1;
	/* Bind the call-site .param variables to the callee's frame slots. */
	for (int pass = 0; pass < 2; pass++) {
		const popnd_t *lst = pass ? args : rets;
		for (uint32_t i = 0; i < lst->nvec; i++) {
			sym_t *y = lst->vec[i].sym;
			if (lst->vec[i].kind != O_SYM || !y || y->space != SC_SP_PARAM || y->owner != p->fn)
				return perr(p, lst->vec[i].tok, "call arguments must be .param variables declared at the call");
			uint32_t size = pass ? f->param_size[i] : f->ret_size[i];
			if (y->size < size)
				return perr(p, lst->vec[i].tok, "'%s' is %u bytes; '%s' expects %u", y->name, y->size, f->name, size);
			y->space = SC_SP_LOCAL;
			y->bound = true;
			y->role = SC_SYM_CALL;
			pc->s[pass ? rets->nvec + i : i] = y;
			pc->size[pass ? rets->nvec + i : i] = size;
			y->func = fo->sym->func;
			y->addr = pass ? f->param_off[i] : f->ret_off[i]; /* frame-relative; relocated later */
		}
	}
	l->in.nops = SC_NOPS_MAKE(0, 0);
	l->in.mods = m->flags & SC_MOD_UNI;
	return add_fixup(p, (fixup_t){.kind = FX_CALL, .pc = p->m->ncode, .sym = fo->sym, .line = fo->tok->line,
	                              .col = fo->tok->col, .func = p->fn});
}

/* setp.cmp[.bool].stype p[|q], a, b[, c] and set.cmp[.bool].type.stype
 * d, a, b[, c]: c is there exactly when a combiner is. */
static int lower_setp(P *p, L *l, mods_t *m)
{
	static const char *const bools[] = {"and", "or", "xor", NULL};
	sc_insn_t *in = &l->in;
	bool setp = in->op == SC_OP_SETP;
	int c = find_sub(m, SC_SS_CMP);
	int b = take_one(m, bools);
	if (c < 0)
		return perr(p, l->mn, sc__subs[SC_SS_CMP].need, tokstr(l->mn));
	int nt = setp ? 1 : 2;
	if (need_type(p, l, m, nt) || mods_done(p, m, false))
		return -1;
	int ct = m->types[nt - 1];
	in->sub = (uint8_t)c;
	in->stype = (uint8_t)ct;
	in->type = setp ? SC_T_PRED : (uint8_t)m->types[0];
	in->aux = SC_AUX_MAKE(0, 0, b < 0 ? 0 : b + 1);
	uint32_t need = 3 + (b >= 0);
	if (need_ops(p, l, need, need))
		return -1;
	popnd_t *d = &l->o[0];
	uint32_t slot = 1;
	if (setp && d->kind == O_PAIR) {
		if (enc_value(p, l, 0, &d->vec[0], SC_T_PRED) || enc_value(p, l, 1, &d->vec[1], SC_T_PRED))
			return -1;
		slot = 2;
	} else if (need_dst(p, d) || enc_value(p, l, 0, d, in->type)) {
		return -1;
	}
	in->nops = SC_NOPS_MAKE(slot, need - 1);
	if (setp && SC_OPND_KIND(in->opnd[0]) != SC_K_PRED)
		return perr(p, d->tok, "setp writes a predicate");
	for (uint32_t i = 1; i < need; i++)
		if (enc_value(p, l, slot + i - 1, &l->o[i], i == 3 ? SC_T_PRED : ct))
			return -1;
	if (b >= 0 && SC_OPND_KIND(in->opnd[slot + 2]) != SC_K_PRED && SC_OPND_KIND(in->opnd[slot + 2]) != SC_K_PREDN)
		return perr(p, l->o[3].tok, "the combining operand must be a predicate");
	return 0;
}

/* cvt.type.stype d, a (and d, a, b for the f16x2/bf16x2 pairs). */
static int lower_cvt(P *p, L *l, mods_t *m)
{
	if (need_type(p, l, m, 2) || mods_done(p, m, false) || need_ops(p, l, 2, 3))
		return -1;
	l->in.stype = (uint8_t)m->types[1];
	if (need_dst(p, &l->o[0]) || enc_value(p, l, 0, &l->o[0], l->in.type))
		return -1;
	for (uint32_t i = 1; i < l->no; i++)
		if (enc_value(p, l, i, &l->o[i], m->types[1]))
			return -1;
	l->in.nops = SC_NOPS_MAKE(1, l->no - 1);
	return 0;
}

/* mov.v2/.v4 {d...}, {a...}: one scalar move per element; the last one is
 * the instruction returned to the caller. */
static int lower_mov_vec(P *p, L *l, mods_t *m)
{
	int t = l->in.type;
	popnd_t *d = &l->o[0], *s = &l->o[1];
	if (d->kind != O_VEC || s->kind != O_VEC || d->nvec != (uint32_t)m->vec || s->nvec != (uint32_t)m->vec)
		return perr(p, l->mn, "mov.v%d needs vectors of %d elements on both sides", m->vec, m->vec);
	for (uint32_t i = 0; i < d->nvec; i++) {
		if (!is_dst_reg(&d->vec[i]))
			return perr(p, d->vec[i].tok, "destination must be a register");
		if (check_one(p, l, &d->vec[i], t, false) || check_one(p, l, &s->vec[i], t, false))
			return -1;
		L e = *l;
		memset(e.in.opnd, 0, sizeof e.in.opnd);
		e.in.reserved &= SC_RESERVED_HI;
		if (enc_value(p, &e, 0, &d->vec[i], t) || enc_value(p, &e, 1, &s->vec[i], t))
			return -1;
		e.in.nops = SC_NOPS_MAKE(1, 1);
		if (i + 1 < d->nvec) {
			if (emit(p, &e))
				return -1;
		} else {
			l->in = e.in;
		}
	}
	l->no = 0; /* operands checked element by element above */
	return 0;
}

/* mov d, a; mov {d, e, ...}, a (unpack); mov d, {a, b, ...} (pack). */
/* mov.u64 d, f: the function's address (SC_FUNC_BASE, call.c), a pool
 * constant fixed once the module's functions are known (FX_FADDR). */
static int lower_func_addr(P *p, L *l, const popnd_t *d, const popnd_t *s, int t)
{
	uint32_t idx;
	if (sc__type_bits(t) != 64)
		return perr(p, s->tok, "the address of function '%s' is 64 bits: use mov.u64 or mov.b64", tokstr(s->tok));
	if (enc_value(p, l, 0, d, t) || pool_add(p, 0, false, &idx))
		return -1;
	sc__set_opnd(&l->in, 1, SC_OPND(SC_K_IMM, idx));
	l->in.nops = SC_NOPS_MAKE(1, 1);
	return add_fixup(p, (fixup_t){.kind = FX_FADDR, .pool = idx, .sym = s->sym, .line = s->tok->line,
	                              .col = s->tok->col, .func = p->fn});
}

static int lower_mov(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	int t = in->type;
	if (need_type(p, l, m, 1) || mods_done(p, m, false) || need_ops(p, l, 2, 2))
		return -1;
	if (m->vec)
		return lower_mov_vec(p, l, m);
	popnd_t *d = &l->o[0], *s = &l->o[1];
	if (d->kind == O_VEC) {
		if (s->kind == O_VEC)
			return perr(p, d->tok, "mov cannot have vectors on both sides");
		for (uint32_t i = 0; i < d->nvec; i++)
			if (enc_value(p, l, i, &d->vec[i], t))
				return -1;
		if (enc_value(p, l, d->nvec, s, t))
			return -1;
		in->nops = SC_NOPS_MAKE(d->nvec, 1);
	} else if (s->kind == O_VEC) {
		if (need_dst(p, d) || enc_value(p, l, 0, d, t))
			return -1;
		for (uint32_t i = 0; i < s->nvec; i++)
			if (enc_value(p, l, 1 + i, &s->vec[i], t))
				return -1;
		in->nops = SC_NOPS_MAKE(1, s->nvec);
	} else {
		if (!is_dst_reg(d))
			return perr(p, d->tok, "destination must be a register");
		if (s->kind == O_SYM && s->sym && s->sym->is_func)
			return lower_func_addr(p, l, d, s, t);
		if (s->kind == O_SYM && s->sym)
			note_shared_use(p, s->sym);
		if (enc_value(p, l, 0, d, t) || enc_value(p, l, 1, s, t))
			return -1;
		in->nops = SC_NOPS_MAKE(1, 1);
	}
	return 0;
}

static int lower_isspacep(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	if (m->space == SC_SP_NONE || m->space == SC_SP_GENERIC || mods_done(p, m, false) || need_ops(p, l, 2, 2))
		return perr(p, l->mn, "expected isspacep.{global,shared,local,const,param} p, a");
	if (enc_value(p, l, 0, &l->o[0], SC_T_PRED) || enc_value(p, l, 1, &l->o[1], SC_T_U64))
		return -1;
	if (SC_OPND_KIND(in->opnd[0]) != SC_K_PRED)
		return perr(p, l->o[0].tok, "isspacep writes a predicate");
	in->type = SC_T_PRED;
	in->aux = SC_AUX_MAKE(m->space, 0, 0);
	in->nops = SC_NOPS_MAKE(1, 1);
	return 0;
}

/* membar.{gl,cta,sys,gpu} and fence: the scope is dropped. */
static int lower_membar(P *p, L *l, mods_t *m)
{
	(void)(take(m, "gl") || take(m, "cta") || take(m, "sys") || take(m, "gpu"));
	if (take(m, "proxy") || take(m, "mbarrier_init"))
		return perr(p, l->mn, "'%s' is not supported", tokstr(l->mn));
	if (mods_done(p, m, true) || need_ops(p, l, 0, 0))
		return -1;
	return 0;
}

/* bar.red.{popc,and,or} d, a[, b], p: d, id, count (or none), p. */
static int lower_bar_red(P *p, L *l, mods_t *m, bool arrive)
{
	static const char *const ro[] = {"popc", "and", "or", NULL};
	sc_insn_t *in = &l->in;
	int r = take_one(m, ro);
	if (r < 0 || arrive)
		return perr(p, l->mn, "bar.red needs .popc, .and or .or");
	in->sub = (uint8_t)(SC_BAR_RED_POPC + r);
	if (mods_done(p, m, false) || need_ops(p, l, 3, 4))
		return -1;
	if (enc_value(p, l, 0, &l->o[0], r == 0 ? SC_T_U32 : SC_T_PRED) || enc_value(p, l, 1, &l->o[1], SC_T_U32))
		return -1;
	if (l->no == 4 && enc_value(p, l, 2, &l->o[2], SC_T_U32))
		return -1;
	if (l->no == 3)
		sc__set_opnd(in, 2, SC_OPND(SC_K_NONE, 0));
	if (enc_value(p, l, 3, &l->o[l->no - 1], SC_T_PRED))
		return -1;
	in->nops = SC_NOPS_MAKE(1, 3);
	return 0;
}

/* bar.sync/arrive a[, b], barrier.sync, bar.warp.sync a, and bar.red. */
static int lower_bar(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	if (take(m, "warp")) {
		if (!take(m, "sync") || mods_done(p, m, false) || need_ops(p, l, 1, 1))
			return -1;
		in->sub = SC_BAR_WARP_SYNC;
		if (enc_value(p, l, 0, &l->o[0], SC_T_U32))
			return -1;
		in->nops = SC_NOPS_MAKE(0, 1);
		return 0;
	}
	bool red = take(m, "red");
	bool arrive = take(m, "arrive");
	bool sync = take(m, "sync");
	(void)take(m, "aligned");
	if (red)
		return lower_bar_red(p, l, m, arrive);
	if (arrive == sync && !(sync && !arrive))
		return perr(p, l->mn, "'%s' needs .sync, .arrive or .red", tokstr(l->mn));
	in->sub = arrive ? SC_BAR_ARRIVE : SC_BAR_SYNC;
	if (mods_done(p, m, false) || need_ops(p, l, 1, 2))
		return -1;
	if (enc_value(p, l, 0, &l->o[0], SC_T_U32))
		return -1;
	if (l->no == 2 && enc_value(p, l, 1, &l->o[1], SC_T_U32))
		return -1;
	in->nops = SC_NOPS_MAKE(0, l->no);
	return 0;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask: two destinations always
 * (the second none without |p). */
static int lower_shfl(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	int t = in->type;
	if (lower_sub(p, l, m, SC_SS_SHFL) || need_type(p, l, m, 1) || mods_done(p, m, false) || need_ops(p, l, 5, 5))
		return -1;
	popnd_t *d = &l->o[0];
	if (d->kind == O_PAIR) {
		if (enc_value(p, l, 0, &d->vec[0], t) || enc_value(p, l, 1, &d->vec[1], SC_T_PRED))
			return -1;
	} else {
		if (enc_value(p, l, 0, d, t))
			return -1;
		sc__set_opnd(in, 1, SC_OPND(SC_K_NONE, 0));
	}
	for (uint32_t i = 1; i < 5; i++)
		if (enc_value(p, l, 1 + i, &l->o[i], i == 1 ? t : SC_T_U32))
			return -1;
	in->nops = SC_NOPS_MAKE(2, 4);
	return 0;
}

/* vote.sync.mode.type d, p, membermask; split_mods read ".uni" as the flag. */
static int lower_vote(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	int t = in->type;
	int k = find_sub(m, SC_SS_VOTE);
	if (k < 0 && (m->flags & SC_MOD_UNI) && take(m, "sync")) {
		k = SC_VOTE_UNI;
		m->flags &= (uint16_t)~SC_MOD_UNI;
		in->mods &= (uint16_t)~SC_MOD_UNI;
	}
	if (k < 0)
		return perr(p, l->mn, "%s", sc__subs[SC_SS_VOTE].need);
	in->sub = (uint8_t)k;
	if (need_type(p, l, m, 1) || mods_done(p, m, false) || need_ops(p, l, 3, 3))
		return -1;
	if ((k == SC_VOTE_BALLOT) != (t == SC_T_B32))
		return perr(p, l->mn, "vote.ballot takes .b32, the others .pred");
	if (enc_value(p, l, 0, &l->o[0], t) || enc_value(p, l, 1, &l->o[1], SC_T_PRED) ||
	    enc_value(p, l, 2, &l->o[2], SC_T_U32))
		return -1;
	in->nops = SC_NOPS_MAKE(1, 2);
	return 0;
}

/* match.{any,all}.sync.type d[|p], a, membermask: d is 32 bits; only
 * match.all has the predicate. */
static int lower_match(P *p, L *l, mods_t *m)
{
	sc_insn_t *in = &l->in;
	int t = in->type;
	if (lower_sub(p, l, m, SC_SS_MATCH) || need_type(p, l, m, 1) || mods_done(p, m, false) || need_ops(p, l, 3, 3))
		return -1;
	if (t != SC_T_B32 && t != SC_T_B64)
		return perr(p, l->mn, "match takes .b32 or .b64");
	popnd_t *d = &l->o[0];
	if (d->kind == O_PAIR) {
		if (in->sub == 0)
			return perr(p, d->tok, "match.any has no predicate destination");
		if (enc_value(p, l, 0, &d->vec[0], SC_T_B32) || enc_value(p, l, 1, &d->vec[1], SC_T_PRED))
			return -1;
	} else {
		if (enc_value(p, l, 0, d, SC_T_B32))
			return -1;
		sc__set_opnd(in, 1, SC_OPND(SC_K_NONE, 0));
	}
	if (enc_value(p, l, 2, &l->o[1], t) || enc_value(p, l, 3, &l->o[2], SC_T_U32))
		return -1;
	in->nops = SC_NOPS_MAKE(2, 2);
	return 0;
}

/* Rows without a destination: nanosleep.u32 t and assertfail (the body
 * of __assertfail, ptx_parse.c's builtins) take sources of the shape's
 * types (u: .u32, g: .u64). */
static int lower_sources(P *p, L *l, mods_t *m)
{
	const sc_opinfo_t *oi = &sc__ops[l->in.op];
	sc_shape_t s;
	sc__shape(l->in.op, &s);
	if (oi->nt != SC_NT_NONE && need_type(p, l, m, 1))
		return -1;
	if (mods_done(p, m, false) || need_ops(p, l, s.nsrc, s.nsrc))
		return -1;
	if (oi->nt != SC_NT_NONE && !((oi->types >> l->in.type) & 1u))
		return perr(p, l->mn, "'%s': type not supported", tokstr(l->mn));
	for (uint32_t i = 0; i < s.nsrc; i++)
		if (enc_value(p, l, i, &l->o[i], s.src[i] == 'g' ? SC_T_U64 : SC_T_U32))
			return -1;
	l->in.nops = SC_NOPS_MAKE(0, s.nsrc);
	return 0;
}

/* ---- textures and surfaces (the words and their execution: tex.c) */
/* Whether register operands a and b share a slot. */
static bool opnd_overlap(sc_opnd_t a, sc_opnd_t b)
{
	unsigned ka = SC_OPND_KIND(a), kb = SC_OPND_KIND(b);
	if ((ka != SC_K_R32 && ka != SC_K_R64) || (kb != SC_K_R32 && kb != SC_K_R64))
		return false;
	unsigned ia = SC_OPND_IDX(a), ib = SC_OPND_IDX(b);
	return ia <= ib + (kb == SC_K_R64) && ib <= ia + (ka == SC_K_R64);
}

/* The modifier words of tex (.level/.grad, geometry), tld4 (channel,
 * geometry), suld/sust (.b, geometry, out-of-range mode) and txq/suq (the
 * query) into l->in.sub; *ncoord the coordinates the geometry takes. */
static int tex_mods(P *p, L *l, mods_t *m, bool suq, unsigned *ncoord)
{
	static const char *const chans[] = {"r", "g", "b", "a", NULL}, *const oob[] = {"trap", "clamp", "zero", NULL};
	int op = l->in.op, g = -1, x = 0;
	if (op == SC_OP_TXQ) {
		for (int i = 0; i < m->nword && g < 0; i++)
			if ((g = sc__tex_query(m->word[i], suq)) >= 0)
				m->used[i] = true;
		if (g < 0)
			return perr(p, l->mn, "'%s' needs a query (.width, .height, .depth, ...)", tokstr(l->mn));
		l->in.sub = (uint8_t)(g | (suq ? SC_TXQ_SURF : 0));
		return mods_done(p, m, false);
	}
	if (op == SC_OP_TEX && !take(m, "level")) /* one level: the level of detail and */
		take(m, "grad");                      /* gradients select it whatever they are */
	if (op == SC_OP_TLD4 && (x = take_one(m, chans)) < 0)
		return perr(p, l->mn, "'%s' needs a channel (.r, .g, .b or .a)", tokstr(l->mn));
	if (op == SC_OP_SULD || op == SC_OP_SUST) {
		if (take(m, "p"))
			return perr(p, l->mn, "'%s': formatted surface access (.p) is not supported; use .b", tokstr(l->mn));
		if (!take(m, "b"))
			return perr(p, l->mn, "'%s' needs '.b'", tokstr(l->mn));
		x = take_one(m, oob);
		x = x < 0 ? SC_SURF_TRAP : x;
	}
	for (int i = 0; i < m->nword && g < 0; i++)
		if ((g = sc__tex_geom(m->word[i], ncoord)) >= 0)
			m->used[i] = true;
	if (g < 0 || (op == SC_OP_TLD4 && g != SC_TEXG_2D))
		return perr(p, l->mn, "'%s' needs a geometry (%s)", tokstr(l->mn), op == SC_OP_TLD4 ? ".2d" :
		            ".1d, .2d, .3d, .a1d or .a2d");
	l->in.sub = SC_TEX_SUB(g, 0, x);
	return mods_done(p, m, op == SC_OP_SULD || op == SC_OP_SUST);
}

/* Encodes the handle and coordinates of address o from operand slot `at`
 * of e: the coordinates of type ct (an array's index .s32). */
static int tex_addr(P *p, L *e, uint32_t at, const popnd_t *o, unsigned nc, int ct)
{
	if (o->kind != O_ADDR || !o->vec)
		return perr(p, o->tok, "expected [handle, {coordinates}], found '%s'", tokstr(o->tok));
	if (!o->reg || o->off)
		return perr(p, o->tok, "the handle must be a 64-bit register (a texture or surface object; "
		            "texture references are not supported)");
	unsigned g = SC_TEX_GEOM(e->in.sub);
	if (o->nvec != nc && !(nc == 3 && o->nvec == 4))
		return perr(p, o->tok, "'%s' takes %u coordinates, found %u", tokstr(e->mn), nc, o->nvec);
	popnd_t r = *o;
	r.kind = O_REG;
	sc_opnd_t h;
	if (reg_opnd(p, &r, &h))
		return -1;
	sc__set_opnd(&e->in, at, h);
	if (SC_OPND_KIND(h) != SC_K_R64)
		return perr(p, o->tok, "the handle must be a 64-bit register");
	for (unsigned i = 0; i < nc; i++) {
		int t = i == 0 && (g == SC_TEXG_A1D || g == SC_TEXG_A2D) ? SC_T_S32 : ct;
		if (o->vec[i].kind == O_SINK || check_one(p, e, &o->vec[i], t, false))
			return o->vec[i].kind == O_SINK ? perr(p, o->vec[i].tok, "a coordinate cannot be '_'") : -1;
		if (enc_value(p, e, at + 1 + i, &o->vec[i], t))
			return -1;
	}
	return 0;
}

/* tex, tld4, suld (values to registers) and sust (from them) lower to one
 * word per two components (the encoding's six operands); a word whose
 * destination another word reads goes last. txq and suq are one word. */
static int lower_tex(P *p, L *l, mods_t *m)
{
	int op = l->in.op;
	bool st = op == SC_OP_SUST, load = !st && op != SC_OP_TXQ, suq = l->mn->p[0] == 's';
	unsigned nc = 0, extra = 0; /* tex.level's level of detail, tex.grad's two gradients */
	for (int i = 0; op == SC_OP_TEX && i < m->nword; i++)
		extra = !strcmp(m->word[i], "level") ? 1 : !strcmp(m->word[i], "grad") ? 2 : extra;
	int t = l->in.type, ct = m->ntypes > 1 ? m->types[1] : SC_T_S32;
	if (tex_mods(p, l, m, suq, &nc) || need_type(p, l, m, op == SC_OP_TEX || op == SC_OP_TLD4 ? 2 : 1))
		return -1;
	if (!((sc__ops[op].types >> t) & 1u) || (m->ntypes > 1 && !((sc__ops[op].stypes >> ct) & 1u)))
		return perr(p, l->mn, "'%s': type not supported", tokstr(l->mn));
	if (op == SC_OP_TXQ) {
		if (need_ops(p, l, 2, 2) || need_dst(p, &l->o[0]) || check_one(p, l, &l->o[0], SC_T_B32, false))
			return -1;
		const popnd_t *a = &l->o[1];
		if (a->kind != O_ADDR || a->vec || !a->reg || a->off)
			return perr(p, a->tok, "expected [handle] with a 64-bit register");
		popnd_t r = *a;
		r.kind = O_REG;
		sc_opnd_t h;
		if (enc_value(p, l, 0, &l->o[0], t) || reg_opnd(p, &r, &h))
			return -1;
		sc__set_opnd(&l->in, 1, h);
		l->in.nops = SC_NOPS_MAKE(1, 1);
		l->no = 0;
		return SC_OPND_KIND(h) == SC_K_R64 ? 0 : perr(p, a->tok, "the handle must be a 64-bit register");
	}
	unsigned vec = m->vec ? (unsigned)m->vec : 1;
	if (load && op != SC_OP_SULD && vec != 4)
		return perr(p, l->mn, "'%s' needs '.v4'", tokstr(l->mn));
	if (need_ops(p, l, 2 + extra, 2 + extra))
		return -1;
	for (unsigned i = 0; i < extra; i++) /* the level of detail or the gradients: read by no word */
		if (l->o[2 + i].kind == O_ADDR)
			return perr(p, l->o[2 + i].tok, "expected a level of detail or gradients");
	const popnd_t *vals = &l->o[st ? 1 : 0], *addr = &l->o[st ? 0 : 1];
	uint32_t nv = vals->kind == O_VEC ? vals->nvec : 1;
	if (nv != vec)
		return perr(p, vals->tok, "'%s' needs %u value%s in braces", tokstr(l->mn), vec, vec > 1 ? "s" : "");
	L w[2];
	unsigned nw = 0;
	for (unsigned c = 0; c < vec; c += 2) {
		unsigned k = vec - c < 2 ? vec - c : 2;
		bool sinks = !st && vals->kind == O_VEC;
		for (unsigned j = 0; j < k && sinks; j++)
			sinks = vals->vec[c + j].kind == O_SINK;
		if (sinks && (nw || c + 2 < vec)) /* a half that writes nothing (the disassembly's '_'s) */
			continue;
		w[nw] = *l;
		L *e = &w[nw];
		memset(e->in.opnd, 0, sizeof e->in.opnd);
		e->in.reserved = 0; /* and the operands' high index bits */
		e->in.sub = (uint8_t)(l->in.sub | SC_TEX_SUB(0, c, 0));
		e->in.stype = (uint8_t)(m->ntypes > 1 ? ct : 0);
		e->in.aux = SC_AUX_MAKE(0, vec == 4 ? 2 : vec == 2 ? 1 : 0, 0);
		if (tex_addr(p, e, st ? 0 : k, addr, nc, ct))
			return -1;
		for (unsigned j = 0; j < k; j++) {
			const popnd_t *v = vals->kind == O_VEC ? &vals->vec[c + j] : vals;
			uint32_t at = st ? 1 + nc + j : j;
			if ((!st && !is_dst_reg(v)) || (st && v->kind == O_SINK))
				return perr(p, v->tok, st ? "a stored value cannot be '_'" : "destination must be a register");
			if (check_one(p, e, v, t, op == SC_OP_SULD || st) || enc_value(p, e, at, v, t))
				return -1;
		}
		e->in.nops = st ? SC_NOPS_MAKE(0, 1 + nc + k) : SC_NOPS_MAKE(k, 1 + nc);
		nw++;
	}
	if (!st && nw == 2) { /* the word whose destinations the other reads goes last */
		bool hit[2] = {false, false};
		for (unsigned a = 0; a < 2; a++)
			for (unsigned j = 0; j < SC_NDST(&w[a].in); j++)
				for (unsigned s = 2; s < 2 + 1 + nc; s++)
					hit[a] |= opnd_overlap(sc__opnd(&w[a].in, j), sc__opnd(&w[1 - a].in, s));
		if (hit[0] && hit[1])
			return perr(p, l->mn, "'%s': destinations in both halves are also its handle or coordinates; "
			            "use other registers", tokstr(l->mn));
		if (hit[0]) {
			L s = w[0];
			w[0] = w[1];
			w[1] = s;
		}
	}
	if (nw == 2 && emit(p, &w[0]))
		return -1;
	l->in = w[nw - 1].in;
	l->no = 0; /* operands checked above */
	return 0;
}

static int lower_op(P *p, L *l, mods_t *m)
{
	switch (l->in.op) {
	case SC_OP_SETP: case SC_OP_SET: return lower_setp(p, l, m);
	case SC_OP_CVT: return lower_cvt(p, l, m);
	case SC_OP_MOV: return lower_mov(p, l, m);
	case SC_OP_ISSPACEP: return lower_isspacep(p, l, m);
	case SC_OP_LD: case SC_OP_ST: return lower_ldst(p, l, m);
	case SC_OP_ATOM: case SC_OP_RED: return lower_atom(p, l, m);
	case SC_OP_BRA: return lower_bra(p, l, m);
	case SC_OP_CALL: return lower_call(p, l, m);
	case SC_OP_MEMBAR: return lower_membar(p, l, m);
	case SC_OP_BAR: return lower_bar(p, l, m);
	case SC_OP_SHFL: return lower_shfl(p, l, m);
	case SC_OP_VOTE: return lower_vote(p, l, m);
	case SC_OP_MATCH: return lower_match(p, l, m);
	case SC_OP_NANOSLEEP: case SC_OP_ASSERTFAIL: case SC_OP_FREE: return lower_sources(p, l, m);
	case SC_OP_TEX: case SC_OP_TLD4: case SC_OP_TXQ: case SC_OP_SULD: case SC_OP_SUST: return lower_tex(p, l, m);
	default: return lower_regular(p, l, m);
	}
}

/* The opcode of a mnemonic's base name, or -1. */
static int find_op(const char *base)
{
	if (!strcmp(base, "barrier"))
		return SC_OP_BAR;
	if (!strcmp(base, "fence"))
		return SC_OP_MEMBAR;
	if (!strcmp(base, "suq"))
		return SC_OP_TXQ;
	for (int i = 1; i < SC_OP__COUNT; i++)
		if (!strcmp(base, sc__ops[i].name))
			return i;
	return -1;
}

static int lower_insn(P *p, L *l)
{
	char base[32];
	mods_t m;
	if (split_mods(p, l->mn, base, sizeof base, &m))
		return -1;
	int op = find_op(base);
	if (op < 0)
		return perr(p, l->mn, "unsupported instruction '%s'", tokstr(l->mn));
	const sc_opinfo_t *oi = &sc__ops[op];
	sc_insn_t *in = &l->in;
	in->op = (uint8_t)op;
	in->mods = (uint16_t)(m.flags | (uint16_t)m.rnd);
	if (m.space != SC_SP_NONE && !(oi->flags & SC_OF_SPACE))
		return perr(p, l->mn, "state space not allowed on '%s'", base);
	if (m.vec && !(oi->flags & SC_OF_VEC))
		return perr(p, l->mn, "vector modifier not allowed on '%s'", base);
	int t = m.ntypes ? m.types[0] : SC_T_NONE;
	in->type = (uint8_t)t;
	if (lower_op(p, l, &m))
		return -1;
	uint16_t allowed = oi->mods[sc__type_is_float((unsigned)t)];
	if (in->mods & ~allowed & ~SC_MOD_VOLATILE)
		return perr(p, l->mn, "modifier not allowed on '%s'", tokstr(l->mn));
	if ((in->mods & SC_MOD_VOLATILE) && !(allowed & SC_MOD_VOLATILE))
		return perr(p, l->mn, "'.volatile' applies to ld/st only");
	return check_operands(p, l);
}

/* Carry-in forms: addc/subc/madc are add/sub/mad with SC_MOD_CC_IN. */
static const char *carry_alias(const sc_tok_t *k, char *buf, size_t bsz)
{
	static const char *const al[][2] = {{"addc", "add"}, {"subc", "sub"}, {"madc", "mad"}};
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(al[i][0]);
		if (k->len >= n && memcmp(k->p, al[i][0], n) == 0 && (k->len == n || k->p[n] == '.')) {
			snprintf(buf, bsz, "%s%.*s", al[i][1], (int)(k->len - n), k->p + n);
			return buf;
		}
	}
	return NULL;
}

/* "@p " or "@!p " before an instruction, into l->in.guard. */
static int parse_guard(P *p, L *l)
{
	if (!is_punct(peek(p), '@'))
		return 0;
	next(p);
	bool neg = false;
	sc_tok_t *g = next(p);
	if (is_punct(g, '!')) {
		neg = true;
		g = next(p);
	}
	uint32_t idx;
	reg_t *r = g->kind == SC_TK_REG || g->kind == SC_TK_IDENT ? reg_find(p, g, &idx) : NULL;
	if (!r || r->type != SC_T_PRED)
		return perr(p, g, "expected a predicate register after '@', found '%s'", tokstr(g));
	l->in.guard = (uint16_t)(SC_GUARD_ON | (neg ? SC_GUARD_NEG : 0) | (r->first + idx));
	return 0;
}

static int bad_call(P *p)
{
	return perr(p, peek(p), "malformed call: expected 'call (rets), func, (args);'");
}

/* "(a, b, ...)" of a call into lst (at most max elements). */
static int parse_call_list(P *p, popnd_t *lst, uint32_t max)
{
	if (expect(p, '('))
		return -1;
	while (!is_punct(peek(p), ')')) {
		if (lst->nvec == max)
			return perr(p, peek(p), "too many call arguments");
		if (parse_simple(p, &lst->vec[lst->nvec]))
			return -1;
		lst->nvec++;
		if (is_punct(peek(p), ','))
			next(p);
		else if (!is_punct(peek(p), ')'))
			return bad_call(p);
	}
	next(p);
	return 0;
}

/* call[.uni] [(rets),] func [, (args)] ; into o[0] (the return list),
 * o[1] (the function) and o[2] (the arguments). */
static int parse_call(P *p, L *l)
{
	popnd_t *o = l->o;
	o[0].kind = o[2].kind = O_VEC;
	o[0].vec = calloc(8, sizeof(popnd_t));
	o[2].vec = calloc(32, sizeof(popnd_t));
	o[0].vcap = 8;
	o[2].vcap = 32;
	if (!o[0].vec || !o[2].vec) {
		p->err = SC_ENOMEM;
		return -1;
	}
	if (is_punct(peek(p), '(')) {
		if (parse_call_list(p, &o[0], SC_DCALL_MAXR))
			return -1;
		if (!is_punct(peek(p), ','))
			return bad_call(p);
		next(p);
	}
	sc_tok_t *f = peek(p);
	if (f->kind == SC_TK_REG) { /* indirect: call (rets), %rd, (args), proto; */
		if (parse_simple(p, &o[1]))
			return -1;
	} else if (f->kind == SC_TK_IDENT) {
		next(p);
		o[1].kind = O_SYM;
		o[1].tok = f;
		o[1].sym = sym_find(p, f->p, f->len);
	} else {
		return bad_call(p);
	}
	if (is_punct(peek(p), ',') && is_punct(&p->t[p->i + 1], '(')) {
		next(p);
		if (parse_call_list(p, &o[2], SC_DCALL_MAXP))
			return -1;
	}
	l->no = 3;
	if (is_punct(peek(p), ',')) {
		next(p);
		o[3].tok = next(p);
		if (o[3].tok->kind != SC_TK_IDENT)
			return perr(p, o[3].tok, "expected a .callprototype label after the arguments, found '%s'",
			            tokstr(o[3].tok));
		l->no = 4;
	}
	return expect(p, ';');
}

/* "a|b" after a: o becomes the pair. */
static int parse_pair(P *p, popnd_t *o)
{
	sc_tok_t *bar = next(p);
	popnd_t *v = calloc(2, sizeof *v);
	if (!v) {
		p->err = SC_ENOMEM;
		return -1;
	}
	v[0] = *o;
	o->kind = O_PAIR;
	o->vec = v;
	o->vcap = 2;
	o->nvec = 2;
	o->tok = bar;
	return parse_simple(p, &v[1]);
}

/* "a, b|c, ...;" after mnemonic k, into l->o (at most 8); with split
 * (a resilient word, below) "a, b : a', b';", *split the first operand
 * after the ':'. */
static int parse_operands(P *p, const sc_tok_t *k, L *l, uint32_t *split)
{
	if (is_punct(peek(p), ';')) {
		next(p);
		return 0;
	}
	for (;;) {
		if (l->no == 8)
			return perr(p, k, "too many operands");
		popnd_t *o = &l->o[l->no];
		if (parse_simple(p, o) || (is_punct(peek(p), '|') && parse_pair(p, o)))
			return -1;
		l->no++;
		if (split && *split == 0 && is_punct(peek(p), ':')) {
			next(p);
			*split = l->no;
			continue;
		}
		int end = list_next(p, ';', " after an operand");
		if (end)
			return end < 0 ? -1 : 0;
	}
}

/* flipsim's spelling of the resilient words (DESIGN.md, "Datapath
 * duplication and resilient instructions"): ".ra" after the opcode, then
 * the base instruction's operands, ':', and the same operands with the
 * replicas in place: "ld.ra.global.u32 %r1, [%rd1] : %r9, [%rd9];"
 * (raLoad: a destination equal to its original is no second write;
 * raStore.v4 repeats its data: the address alone is compared). Whether
 * mnemonic k says ".ra" (then its text without it in buf). */
static bool ra_mnemonic(const sc_tok_t *k, char *buf, size_t bsz)
{
	const char *d = memchr(k->p, '.', k->len);
	if (!d || (size_t)(k->p + k->len - d) < 3 || memcmp(d, ".ra", 3) ||
	    (d + 3 < k->p + k->len && d[3] != '.'))
		return false;
	snprintf(buf, bsz, "%.*s%.*s", (int)(d - k->p), k->p, (int)(k->p + k->len - d - 3), d + 3);
	return true;
}

/* The resilient word of base b and its replica form r (both lowered). */
static int ra_combine(P *p, L *l, const sc_insn_t *b, const sc_insn_t *r)
{
	sc_insn_t w = *b;
	unsigned nd = SC_NDST(b), ns = SC_NSRC(b), v = SC_AUX_VEC(b->aux), o = 0;
	w.mods |= SC_MOD_RES;
	memset(w.opnd, 0, sizeof w.opnd);
	w.reserved &= SC_RESERVED_HI;
	if (b->op == SC_OP_LD && ns == 1) {
		bool dual = false;
		for (unsigned e = 0; e < nd; e++)
			dual |= sc__opnd(r, e) != sc__opnd(b, e);
		for (unsigned e = 0; e < nd; e++)
			sc__set_opnd(&w, o++, sc__opnd(b, e));
		for (unsigned e = 0; e < nd && dual && o < 6; e++)
			sc__set_opnd(&w, o++, sc__opnd(r, e));
		if (o + 2 > 6)
			return perr(p, l->mn, "raLoad: no room for the replicas");
		sc__set_opnd(&w, o++, sc__opnd(b, nd));
		sc__set_opnd(&w, o++, sc__opnd(r, nd));
		w.nops = SC_NOPS_MAKE(dual ? 2 * nd : nd, 2);
	} else if (b->op == SC_OP_ST && nd == 0) {
		bool full = 2 * v + 2 <= 6;
		for (unsigned e = 0; e < ns; e++)
			sc__set_opnd(&w, o++, sc__opnd(b, e));
		sc__set_opnd(&w, o++, sc__opnd(r, 0));
		for (unsigned e = 1; e < ns && full; e++)
			sc__set_opnd(&w, o++, sc__opnd(r, e));
		w.nops = SC_NOPS_MAKE(0, o);
	} else if (b->op == SC_OP_SETP && nd + ns + 2 <= 6) {
		for (unsigned e = 0; e < nd + ns; e++)
			sc__set_opnd(&w, o++, sc__opnd(b, e));
		sc__set_opnd(&w, o++, sc__opnd(r, nd));
		sc__set_opnd(&w, o++, sc__opnd(r, nd + 1));
		w.nops = SC_NOPS_MAKE(nd, ns + 2);
	} else {
		return perr(p, l->mn, "'.ra' applies to ld, st and setp (raLoad, raStore, raSetP) of at most 6 operands");
	}
	sc_res_t s;
	if (sc__res_split(&w, &s))
		return perr(p, l->mn, "'%s': the replicas do not match the operands", tokstr(l->mn));
	l->in = w;
	return 0;
}

static int parse_instruction(P *p)
{
	L l;
	memset(&l, 0, sizeof l);
	popnd_t ops[8];
	memset(ops, 0, sizeof ops);
	l.o = ops;
	if (parse_guard(p, &l))
		return -1;
	sc_tok_t *k = next(p);
	if (k->kind != SC_TK_IDENT)
		return perr(p, k, "expected an instruction, found '%s'", tokstr(k));
	sc_tok_t alias;
	char abuf[96];
	bool cc_in = carry_alias(k, abuf, sizeof abuf) != NULL;
	if (cc_in) {
		alias = *k;
		alias.p = abuf;
		alias.len = (uint32_t)strlen(abuf);
	}
	l.mn = k;
	char rbuf[96];
	sc_tok_t rtok;
	bool ra = !cc_in && ra_mnemonic(k, rbuf, sizeof rbuf);
	if (ra) {
		rtok = *k;
		rtok.p = rbuf;
		rtok.len = (uint32_t)strlen(rbuf);
	}
	uint32_t split = 0;
	bool is_call = k->len >= 4 && memcmp(k->p, "call", 4) == 0 && (k->len == 4 || k->p[4] == '.');
	int rc = is_call ? parse_call(p, &l) : parse_operands(p, k, &l, ra ? &split : NULL);
	if (!rc && ra && split == 0)
		rc = perr(p, k, "'%s' needs ':' and the replica operands after its operands", tokstr(k));
	if (!rc && ra) { /* the replica form first, as its own word (nothing of it is kept) */
		L r = l;
		r.o = l.o + split;
		r.no = l.no - split;
		r.mn = &rtok;
		l.no = split;
		uint32_t nfx = p->nfx;
		rc = lower_insn(p, &r);
		p->nfx = nfx;
		sc_insn_t rw = r.in;
		if (!rc) {
			l.mn = &rtok;
			rc = lower_insn(p, &l);
			l.mn = k;
		}
		if (!rc)
			rc = ra_combine(p, &l, &l.in, &rw);
		l.no = split + r.no; /* every operand freed below */
	} else if (!rc) {
		l.mn = cc_in ? &alias : k;
		rc = lower_insn(p, &l);
		l.mn = k;
	}
	if (cc_in)
		l.in.mods |= SC_MOD_CC_IN;
	if (!rc && (l.in.mods & (SC_MOD_CC_IN | SC_MOD_CC_OUT)) && sc__type_is_float(l.in.type))
		rc = perr(p, k, "carry modifiers apply to integer types only");
	if (!rc)
		rc = emit(p, &l);
	for (uint32_t i = 0; i < 8; i++)
		popnd_free(&ops[i]);
	return p->err ? -1 : rc;
}

/* ---------------------------------------------------------------- declarations */
static int parse_align(P *p, uint32_t *align)
{
	if (peek(p)->kind == SC_TK_DIRECTIVE && tok_is(peek(p), ".align")) {
		next(p);
		uint64_t a;
		if (get_int(p, &a))
			return -1;
		if (a == 0 || (a & (a - 1)) || a > 4096)
			return perr(p, &p->t[p->i - 1], "alignment must be a power of two up to 4096");
		*align = (uint32_t)a;
	}
	return 0;
}

static int parse_init_values(P *p, sym_t *y, int t)
{
	/* = value | = { v, v, ... } (nested braces flattened) */
	unsigned eb = type_bytes(t);
	y->init = calloc(1, y->size ? y->size : 1);
	if (!y->init) {
		p->err = SC_ENOMEM;
		return -1;
	}
	uint32_t n = 0, depth = 0;
	do {
		sc_tok_t *k = peek(p);
		if (is_punct(k, '{')) {
			next(p);
			depth++;
			continue;
		}
		if (is_punct(k, '}')) {
			next(p);
			if (depth == 0)
				return perr(p, k, "unbalanced '}' in initializer");
			depth--;
			if (depth && is_punct(peek(p), ','))
				next(p);
			continue;
		}
		popnd_t o;
		bool gen = tok_is(k, "generic") && is_punct(&p->t[p->i + 1], '(');
		if (gen)
			p->i += 2;
		if (parse_simple(p, &o) || (gen && expect(p, ')')))
			return -1;
		if ((n + 1) * eb > y->size)
			return perr(p, k, "too many initializers for '%s'", y->name);
		if (o.kind == O_SYM && o.sym && o.sym->is_func) {
			if (eb != 8)
				return perr(p, k, "the address of function '%s' is 64 bits; '%s' has %u-byte elements",
				            tokstr(o.tok), y->name, eb);
			GROW(p->finits, p->nfinits, p->finits_cap);
			p->finits[p->nfinits++] = (finit_t){y, o.sym, n * eb, k->line, k->col};
			n++;
			if (is_punct(peek(p), ','))
				next(p);
			continue;
		}
		if (o.kind == O_SYM)
			return perr(p, k, "initializers with the address of a variable are not supported (function "
			            "addresses are)");
		uint64_t v;
		if (imm_bits(p, &o, t, &v))
			return -1;
		memcpy(y->init + n * eb, &v, eb);
		n++;
		if (is_punct(peek(p), ','))
			next(p);
	} while (depth > 0);
	return 0;
}

/* [.align N] [.v2|.v4] .type name [ '[' N? ']' ]* [= init] */
/* A variable's array dimensions after its name nk: [n][m]... multiply
 * into *count; [] (only .extern .shared may have it) sets *unsized. */
static int parse_dims(P *p, const sc_tok_t *nk, uint64_t *count, bool *unsized)
{
	while (is_punct(peek(p), '[')) {
		next(p);
		if (is_punct(peek(p), ']')) {
			*unsized = true;
			next(p);
			continue;
		}
		uint64_t d;
		if (get_int(p, &d) || expect(p, ']'))
			return -1;
		*count *= d;
		if (*count > (1ull << 31))
			return perr(p, nk, "variable '%s' is too large", tokstr(nk));
	}
	return 0;
}

static int parse_var(P *p, int space, bool is_extern, sym_t **out)
{
	uint32_t align = 0;
	if (parse_align(p, &align))
		return -1;
	int vec = 1;
	if (tok_is(peek(p), ".v2") || tok_is(peek(p), ".v4")) {
		vec = peek(p)->p[2] - '0';
		next(p);
	}
	if (parse_align(p, &align))
		return -1;
	sc_tok_t *tk = next(p);
	int t = tok_type(tk);
	if (t <= 0 || t == SC_T_PRED)
		return perr(p, tk, "expected a data type, found '%s'", tokstr(tk));
	if (t == SC_T_B128)
		return perr(p, tk, ".b128 variables are not supported");
	sc_tok_t *nk = next(p);
	if (nk->kind != SC_TK_IDENT)
		return perr(p, nk, "expected a variable name, found '%s'", tokstr(nk));
	uint64_t count = 1;
	bool unsized = false;
	if (parse_dims(p, nk, &count, &unsized))
		return -1;
	sym_t *y = sym_new(p, nk);
	if (!y)
		return -1;
	y->space = (uint8_t)space;
	uint64_t size = count * vec * type_bytes(t);
	if (size > (1ull << 31))
		return perr(p, nk, "variable '%s' of %llu bytes is too large (at most 2 GiB)", tokstr(nk),
		            (unsigned long long)size);
	y->size = (uint32_t)size;
	y->align = align ? align : type_bytes(t) * (uint32_t)vec;
	if (unsized) {
		if (!(space == SC_SP_SHARED && is_extern))
			return perr(p, nk, "unsized array '%s' (only .extern .shared may be unsized)", y->name);
		y->is_extern_shared = true;
		y->size = 0;
	}
	if (is_punct(peek(p), '=')) {
		next(p);
		if (space != SC_SP_GLOBAL && space != SC_SP_CONST)
			return perr(p, nk, "only .global and .const variables may have initializers");
		if (parse_init_values(p, y, t))
			return -1;
	}
	if (out)
		*out = y;
	return expect(p, ';');
}

/* Keeps declaration r of f, with its name, for sc__reg_name: the parser's
 * own list forgets a block's registers at its end. */
static int keep_decl(P *p, sc_func_t *f, const reg_t *r)
{
	GROW(f->decl, f->ndecl, p->decl_cap);
	sc__reg_decl_t *d = &f->decl[f->ndecl];
	if (!(d->name = malloc(r->nlen + 1))) {
		p->err = SC_ENOMEM;
		return -1;
	}
	memcpy(d->name, r->name, r->nlen);
	d->name[r->nlen] = 0;
	d->count = r->count;
	d->type = r->type;
	d->first = r->first;
	f->ndecl++;
	return 0;
}

static int parse_reg_decl(P *p)
{
	sc_func_t *f = &p->m->funcs[p->fn];
	int vec = 1;
	if (tok_is(peek(p), ".v2") || tok_is(peek(p), ".v4"))
		return perr(p, peek(p), "vector registers are not supported");
	sc_tok_t *tk = next(p);
	int t = tok_type(tk);
	if (t <= 0)
		return perr(p, tk, "expected a register type, found '%s'", tokstr(tk));
	if (t == SC_T_B128)
		return perr(p, tk, ".b128 registers are not supported");
	for (;;) {
		sc_tok_t *nk = next(p);
		if (nk->kind != SC_TK_REG && nk->kind != SC_TK_IDENT)
			return perr(p, nk, "expected a register name, found '%s'", tokstr(nk));
		uint32_t count = 0;
		if (is_punct(peek(p), '<')) {
			next(p);
			uint64_t c;
			if (get_int(p, &c) || expect(p, '>'))
				return -1;
			if (c == 0 || c > 100000)
				return perr(p, nk, "bad register count");
			count = (uint32_t)c;
		}
		GROW(p->regs, p->nregs, p->regs_cap);
		reg_t *r = &p->regs[p->nregs++];
		r->name = nk->p;
		r->nlen = nk->len;
		r->count = count;
		r->type = (uint8_t)t;
		r->depth = p->depth;
		uint32_t n = count ? count : 1;
		if (t == SC_T_PRED) {
			r->first = f->npreds;
			f->npreds += n;
		} else {
			r->first = f->nregs;
			f->nregs += n * (sc__type_bits((unsigned)t) == 64 ? 2 : 1) * (uint32_t)vec;
		}
		if (f->nregs > SC_IDX_LIMIT || f->npreds > SC_IDX_LIMIT)
			return perr(p, nk, "too many registers in '%s' for the instruction encoding (limit %u slots)", f->name,
			            SC_IDX_LIMIT);
		if (keep_decl(p, f, r))
			return -1;
		int end = list_next(p, ';', "");
		if (end)
			return end < 0 ? -1 : 0;
	}
}

/* A directive k inside a function body (already consumed): registers,
 * variables, .pragma, and the debug directives, which are skipped. */
static int body_directive(P *p, sc_tok_t *k)
{
	if (tok_is(k, ".reg"))
		return parse_reg_decl(p);
	if (tok_is(k, ".local") || tok_is(k, ".shared") || tok_is(k, ".param") || tok_is(k, ".const") ||
	    tok_is(k, ".global")) {
		int sp = tok_is(k, ".local") ? SC_SP_LOCAL : tok_is(k, ".shared") ? SC_SP_SHARED :
		         tok_is(k, ".param") ? SC_SP_PARAM : tok_is(k, ".const") ? SC_SP_CONST : SC_SP_GLOBAL;
		sym_t *y;
		if (parse_var(p, sp, false, &y))
			return -1;
		if (sp == SC_SP_SHARED || sp == SC_SP_CONST || sp == SC_SP_GLOBAL)
			y->owner = p->fn;
		return 0;
	}
	if (tok_is(k, ".pragma")) {
		sc_tok_t *s = next(p);
		if (s->kind != SC_TK_STRING || expect(p, ';'))
			return perr(p, s, "expected .pragma \"...\";");
		return 0;
	}
	if (tok_is(k, ".loc") || tok_is(k, ".file")) {
		uint32_t line = k->line;
		while (peek(p)->line == line && peek(p)->kind != SC_TK_EOF)
			next(p);
		return 0;
	}
	return perr(p, k, "unsupported directive '%s' in a function body", tokstr(k));
}

static int parse_body(P *p)
{
	sc_func_t *f = &p->m->funcs[p->fn];
	p->depth = 1;
	while (p->depth > 0) {
		sc_tok_t *k = peek(p);
		if (k->kind == SC_TK_EOF)
			return perr(p, k, "unexpected end of file in the body of '%s'", f->name);
		if (is_punct(k, '{')) {
			next(p);
			p->depth++;
			continue;
		}
		if (is_punct(k, '}')) {
			next(p);
			/* leaving a block drops its registers */
			while (p->nregs && p->regs[p->nregs - 1].depth >= p->depth)
				p->nregs--;
			p->depth--;
			continue;
		}
		if (k->kind == SC_TK_DIRECTIVE) {
			next(p);
			if (body_directive(p, k))
				return -1;
			continue;
		}
		if (k->kind == SC_TK_IDENT && is_punct(&p->t[p->i + 1], ':') && tok_is(&p->t[p->i + 2], ".callprototype")) {
			p->i += 3;
			if (parse_proto(p, k))
				return -1;
			continue;
		}
		if (k->kind == SC_TK_IDENT && is_punct(&p->t[p->i + 1], ':') && tok_is(&p->t[p->i + 2], ".calltargets")) {
			p->i += 3;
			if (parse_targets(p, k))
				return -1;
			continue;
		}
		if (k->kind == SC_TK_IDENT && is_punct(&p->t[p->i + 1], ':') ) {
			next(p);
			next(p);
			for (uint32_t i = p->label_floor; i < p->nlabels; i++)
				if (p->labels[i].len == k->len && !memcmp(p->labels[i].name, k->p, k->len))
					return perr(p, k, "label '%s' defined twice", tokstr(k));
			GROW(p->labels, p->nlabels, p->labels_cap);
			p->labels[p->nlabels++] = (label_t){k->p, k->len, p->m->ncode};
			continue;
		}
		if (parse_instruction(p))
			return -1;
	}
	return 0;
}

/* Room for parameter *n of f's parameter (or return) arrays. */
static int grow_params(P *p, sc_func_t *f, bool rets, uint32_t *cap)
{
	uint32_t n = rets ? f->nrets : f->nparams;
	uint32_t **sz = rets ? &f->ret_size : &f->param_size, **off = rets ? &f->ret_off : &f->param_off;
	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 8;
	uint32_t *a = realloc(*sz, *cap * sizeof *a);
	if (a)
		*sz = a;
	uint32_t *b = a ? realloc(*off, *cap * sizeof *b) : NULL;
	if (b)
		*off = b;
	sc__param_decl_t *d = NULL;
	if (b && !rets && (d = realloc(f->param_decl, *cap * sizeof *d)))
		f->param_decl = d;
	if (!b || (!rets && !d)) {
		p->err = SC_ENOMEM;
		return -1;
	}
	return 0;
}

/* ".param [.align N] [.ptr ...] .type name [ [N] ]": *t, *count, *align
 * and the name's token. */
static int parse_param_decl(P *p, bool kernel, int *t, uint64_t *count, uint32_t *align, sc_tok_t **name)
{
	sc_tok_t *k = next(p);
	if (!tok_is(k, ".param") && !(kernel && tok_is(k, ".reg")))
		return perr(p, k, "expected .param, found '%s'", tokstr(k));
	if (tok_is(k, ".reg"))
		return perr(p, k, ".reg parameters are not supported");
	if (parse_align(p, align))
		return -1;
	sc_tok_t *tk = next(p);
	*t = tok_type(tk);
	if (*t <= 0 || *t == SC_T_PRED)
		return perr(p, tk, "expected a parameter type, found '%s'", tokstr(tk));
	while (tok_is(peek(p), ".ptr") || tok_is(peek(p), ".global") || tok_is(peek(p), ".shared") ||
	       tok_is(peek(p), ".const") || tok_is(peek(p), ".local") || tok_is(peek(p), ".align")) {
		uint32_t a2;
		if (!tok_is(peek(p), ".align"))
			next(p);
		else if (parse_align(p, &a2))
			return -1;
	}
	*name = next(p);
	if ((*name)->kind != SC_TK_IDENT)
		return perr(p, *name, "expected a parameter name, found '%s'", tokstr(*name));
	*count = 1;
	if (is_punct(peek(p), '[')) {
		next(p);
		if (get_int(p, count) || expect(p, ']'))
			return -1;
	}
	return 0;
}

/* Parameter list: ( .param [.align N] [.ptr ...] .type name [ [N] ], ... ) */
static int parse_params(P *p, sc_func_t *f, bool rets, bool kernel)
{
	if (expect(p, '('))
		return -1;
	uint32_t cap = 0;
	uint32_t *n = rets ? &f->nrets : &f->nparams;
	while (!is_punct(peek(p), ')')) {
		int t = 0;
		uint64_t count = 1;
		uint32_t align = 0;
		sc_tok_t *nk = NULL;
		if (parse_param_decl(p, kernel, &t, &count, &align, &nk))
			return -1;
		uint32_t bytes = (uint32_t)(count * type_bytes(t));
		if (!align)
			align = type_bytes(t);
		if (grow_params(p, f, rets, &cap))
			return -1;
		if (!rets) {
			f->param_decl[*n] = (sc__param_decl_t){tokdup(nk), (uint8_t)t, (uint32_t)count};
			if (!f->param_decl[*n].name) {
				p->err = SC_ENOMEM;
				return -1;
			}
		}
		uint32_t o = (f->param_bytes + align - 1) & ~(align - 1);
		(rets ? f->ret_size : f->param_size)[*n] = bytes;
		(rets ? f->ret_off : f->param_off)[*n] = o;
		f->param_bytes = o + bytes;
		(*n)++;
		sym_t *y = sym_new(p, nk);
		if (!y)
			return -1;
		y->space = kernel ? SC_SP_PARAM : SC_SP_LOCAL;
		y->size = bytes;
		y->align = align;
		y->addr = o;
		y->bound = !kernel; /* frame-relative offset, relocated with the frame */
		y->role = kernel ? SC_SYM_KPARAM : rets ? SC_SYM_RET : SC_SYM_PARAM;
		y->func = p->fn;
		if (is_punct(peek(p), ','))
			next(p);
		else if (!is_punct(peek(p), ')'))
			return perr(p, peek(p), "expected ',' or ')', found '%s'", tokstr(peek(p)));
	}
	next(p);
	return 0;
}

/* .pragma "flipsim smem_per_warp N" on a kernel: the shared bytes per
 * warp its launches add at the CTA's end (Penny's shared checkpoints,
 * pennyc.c; the emitter writes it). Any other pragma is ignored. */
static int pragma_smem_warp(P *p, const sc_tok_t *s, sc_func_t *f)
{
	static const char key[] = "\"flipsim smem_per_warp ";
	size_t n = sizeof key - 1;
	if (s->len <= n || memcmp(s->p, key, n))
		return 0;
	char buf[16], *end;
	size_t d = s->len - n - 1; /* the digits before the closing quote */
	memcpy(buf, s->p + n, d < sizeof buf - 1 ? d : sizeof buf - 1);
	buf[d < sizeof buf - 1 ? d : sizeof buf - 1] = 0;
	unsigned long v = strtoul(buf, &end, 10);
	if (!f->is_entry || !d || d >= sizeof buf - 1 || *end || !v || v > (1u << 20) || v % 16)
		return perr(p, s, "expected .pragma \"flipsim smem_per_warp N\" on a kernel, N a multiple of 16 up to 2^20");
	f->smem_warp = (uint32_t)v;
	return 0;
}

/* .maxntid .reqntid .minnctapersm ... between a function's head and body. */
static int parse_perf_directives(P *p, sc_func_t *f)
{
	for (;;) {
		sc_tok_t *k = peek(p);
		if (k->kind != SC_TK_DIRECTIVE)
			return 0;
		next(p);
		uint32_t *dst = tok_is(k, ".maxntid") ? f->maxntid : tok_is(k, ".reqntid") ? f->reqntid : NULL;
		if (dst) {
			for (int d = 0; d < 3; d++) {
				uint64_t v;
				if (get_int(p, &v))
					return -1;
				dst[d] = (uint32_t)v;
				if (!is_punct(peek(p), ','))
					break;
				next(p);
			}
		} else if (tok_is(k, ".minnctapersm") || tok_is(k, ".maxnreg") || tok_is(k, ".maxnctapersm")) {
			uint64_t v;
			if (get_int(p, &v))
				return -1;
			if (tok_is(k, ".minnctapersm"))
				f->minnctapersm = (uint32_t)v;
		} else if (tok_is(k, ".noreturn")) {
		} else if (tok_is(k, ".pragma")) {
			sc_tok_t *s = next(p);
			if (s->kind != SC_TK_STRING || expect(p, ';'))
				return perr(p, s, "expected .pragma \"...\";");
			if (pragma_smem_warp(p, s, f))
				return -1;
		} else {
			return perr(p, k, "unsupported directive '%s' before a function body", tokstr(k));
		}
	}
}

/* The call-target symbol of function idx named nk: the one of an earlier
 * declaration (prev >= 0) when there is one, else a new one. */
static sym_t *func_symbol(P *p, const sc_tok_t *nk, int32_t prev)
{
	if (prev >= 0)
		for (uint32_t i = 0; i < p->nsyms; i++)
			if (p->syms[i]->is_func && p->syms[i]->func == prev)
				return p->syms[i];
	int32_t save = p->fn;
	p->fn = -1;
	sym_t *fs = sym_new(p, nk);
	p->fn = save;
	if (fs) {
		fs->is_func = true;
		fs->owner = -1;
	}
	return fs;
}

/* Kernels end with exit; functions with one ret that every ret reaches. */
static int end_body(P *p, sc_func_t *f, bool is_entry)
{
	sc_module_t *m = p->m;
	L l;
	memset(&l, 0, sizeof l);
	l.mn = &p->t[p->i - 1];
	l.in.op = is_entry ? SC_OP_EXIT : SC_OP_RET;
	bool ends = m->ncode > f->entry_pc && !m->code[m->ncode - 1].guard && m->code[m->ncode - 1].op == l.in.op;
	if (!ends && emit(p, &l))
		return -1;
	f->end_pc = m->ncode;
	if (!is_entry)
		for (uint32_t pc = f->entry_pc; pc + 1 < f->end_pc; pc++)
			if (m->code[pc].op == SC_OP_RET) {
				m->code[pc].op = SC_OP_BRA;
				m->code[pc].imm = ((uint64_t)SC_PC_NONE << 32) | (f->end_pc - 1);
			}
	return 0;
}

/* The label fixups of function idx, now that its labels are known. */
static int resolve_labels(P *p, int32_t idx)
{
	for (uint32_t i = 0; i < p->nfx; i++) {
		fixup_t *x = &p->fx[i];
		if (x->kind != FX_LABEL || x->func != idx)
			continue;
		bool found = false;
		for (uint32_t j = p->label_floor; j < p->nlabels; j++)
			if (p->labels[j].len == x->llen && !memcmp(p->labels[j].name, x->lname, x->llen)) {
				p->m->code[x->pc].imm = ((uint64_t)SC_PC_NONE << 32) | p->labels[j].pc;
				found = true;
			}
		if (!found) {
			sc_tok_t t = {.line = x->line, .col = x->col};
			char nm[80];
			snprintf(nm, sizeof nm, "%.*s", (int)(x->llen < 70 ? x->llen : 70), x->lname);
			return perr(p, &t, "unknown label '%s'", nm);
		}
		x->kind = 0xff; /* done */
	}
	p->nlabels = p->label_floor;
	return 0;
}

/* "{ body }" of function idx named nk, or ";" of a declaration. */
static int parse_func_body(P *p, sc_func_t *f, const sc_tok_t *nk, int32_t prev, sym_t *fs)
{
	sc_module_t *m = p->m;
	int32_t idx = (int32_t)(f - m->funcs);
	if (is_punct(peek(p), ';')) {
		next(p);
		f->entry_pc = f->end_pc = UINT32_MAX; /* declaration only */
		fs->func = prev >= 0 && m->funcs[prev].entry_pc != UINT32_MAX ? prev : idx;
		p->fn = -1;
		return 0;
	}
	if (prev >= 0 && m->funcs[prev].entry_pc != UINT32_MAX)
		return perr(p, nk, "function '%s' defined twice", f->name);
	fs->func = idx;
	if (expect(p, '{'))
		return -1;
	f->entry_pc = m->ncode;
	p->label_floor = p->nlabels;
	if (parse_body(p) || end_body(p, f, f->is_entry) || resolve_labels(p, idx))
		return -1;
	p->fn = -1;
	return 0;
}

static int parse_function(P *p, bool is_entry, bool is_extern)
{
	sc_module_t *m = p->m;
	(void)is_extern;
	GROW(m->funcs, m->nfuncs, p->funcs_cap);
	sc_func_t *f = &m->funcs[m->nfuncs];
	memset(f, 0, sizeof *f);
	f->is_entry = is_entry;
	int32_t idx = (int32_t)m->nfuncs;
	p->fn = idx;
	p->nregs = 0;
	p->decl_cap = 0;
	/* .func (rets) name (params): return values are declared before the
	 * name; they are parsed into the frame */
	if (!is_entry && is_punct(peek(p), '(') && parse_params(p, f, true, false))
		goto uncounted;
	sc_tok_t *nk = next(p);
	if (nk->kind != SC_TK_IDENT) {
		perr(p, nk, "expected a function name, found '%s'", tokstr(nk));
		goto uncounted;
	}
	/* A prototype or earlier declaration of the same function? */
	int32_t prev = -1;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (!strncmp(m->funcs[i].name, nk->p, nk->len) && strlen(m->funcs[i].name) == nk->len)
			prev = (int32_t)i;
	f->name = tokdup(nk);
	if (!f->name) {
		p->err = SC_ENOMEM;
		goto uncounted;
	}
	m->nfuncs++; /* from here on the module owns f and frees it */
	if (is_punct(peek(p), '(') && parse_params(p, f, false, is_entry))
		return -1;
	if (parse_perf_directives(p, f))
		return -1;
	sym_t *fs = func_symbol(p, nk, prev);
	if (!fs)
		return -1;
	return parse_func_body(p, f, nk, prev, fs);

uncounted:
	/* f is not yet in m->nfuncs, so freeing the module would not see what
	 * its return list allocated */
	free(f->ret_size);
	free(f->ret_off);
	f->ret_size = f->ret_off = NULL;
	f->nrets = 0;
	return -1;
}

/* ---------------------------------------------------------------- layout */
static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* Where function i is first called (for messages). */
static sc_tok_t first_call_of(const P *p, uint32_t i)
{
	sc_tok_t t = {.line = 1, .col = 1};
	for (uint32_t x = 0; x < p->nfx; x++)
		if (p->fx[x].kind == FX_CALL && p->fx[x].sym->func == (int32_t)i) {
			t.line = p->fx[x].line;
			t.col = p->fx[x].col;
			break;
		}
	return t;
}

/* ------------------------------------- function addresses, dynamic calls */
static uint64_t sym_address(const P *p, const fixup_t *x);

/* The address of function symbol y (SC_FUNC_BASE), in *a; refuses a
 * kernel's and one never defined. t: where it is named. */
static int func_addr(P *p, const sym_t *y, const sc_tok_t *t, uint64_t *a)
{
	const sc_func_t *f = &p->m->funcs[y->func];
	if (f->is_entry)
		return perr(p, t, "'%s' is a kernel: only the address of a .func can be taken", f->name);
	if (f->entry_pc == UINT32_MAX)
		return perr(p, t, "function '%s' is declared but never defined", f->name);
	*a = SC_FUNC_BASE + 16 * (uint64_t)y->func;
	return 0;
}

/* Function addresses in mov (pool constants) and in initializers; marks
 * p->taken[] (the functions an indirect call may reach). */
static int resolve_func_addrs(P *p)
{
	uint64_t a;
	for (uint32_t i = 0; i < p->nfx; i++) {
		const fixup_t *x = &p->fx[i];
		sc_tok_t t = {.line = x->line, .col = x->col};
		if (x->kind != FX_FADDR)
			continue;
		if (func_addr(p, x->sym, &t, &a))
			return -1;
		p->m->pool[x->pool] = a;
		p->taken[x->sym->func] = p->m->funcs[x->sym->func].addr_taken = true;
	}
	for (uint32_t i = 0; i < p->nprotos; i++) /* what a .calltargets list names may be called */
		for (uint32_t k = 0; k < p->protos[i].ntargets; k++) {
			const sym_t *y = p->protos[i].targets[k];
			sc_tok_t t = {.line = 1, .col = 1};
			if (func_addr(p, y, &t, &a))
				return -1;
			p->taken[y->func] = p->m->funcs[y->func].addr_taken = true;
		}
	for (uint32_t i = 0; i < p->nfinits; i++) {
		const finit_t *x = &p->finits[i];
		sc_tok_t t = {.line = x->line, .col = x->col};
		if (func_addr(p, x->fsym, &t, &a))
			return -1;
		memcpy(x->var->init + x->off, &a, 8);
		p->taken[x->fsym->func] = p->m->funcs[x->fsym->func].addr_taken = true;
	}
	return 0;
}

/* Edges of the indirect calls: from their function to every function
 * whose address is taken. */
static int indirect_edges(P *p, bool *calls)
{
	uint32_t nf = p->m->nfuncs;
	if (!(p->taken = calloc(nf + 1, 1))) {
		p->err = SC_ENOMEM;
		return -1;
	}
	if (resolve_func_addrs(p))
		return -1;
	for (uint32_t i = 0; i < p->ncalls; i++)
		if (p->calls[i].dyn && p->calls[i].caller >= 0)
			for (uint32_t t = 0; t < nf; t++)
				if (p->taken[t])
					calls[(size_t)p->calls[i].caller * nf + t] = true;
	return 0;
}

/* Which calls are dynamic (call.c) and which of those save the caller:
 * a direct call whose callee is on a cycle of the call graph becomes one
 * (the call gives the callee's activation its frame on the stack), its
 * .param variables the caller's own local data, and saves the caller (a
 * saving call made by all of its SIMT entry's lanes runs the callee in
 * that entry: entering a recursion costs no SIMT entries); an indirect
 * call saves its caller when any function whose address is taken reaches
 * it. calls: the closed call graph. */
static void mark_dyn_calls(P *p, const bool *calls)
{
	uint32_t nf = p->m->nfuncs;
	for (uint32_t i = 0; i < p->ncalls; i++) {
		pcall_t *c = &p->calls[i];
		uint32_t caller = (uint32_t)c->caller;
		if (!c->dyn) {
			uint32_t callee = (uint32_t)c->callee->func;
			if (!calls[(size_t)callee * nf + callee])
				continue;
			c->dyn = c->save = true;
			for (uint32_t k = 0; k < c->nret + c->narg; k++) {
				sym_t *y = c->s[k];
				y->bound = false;
				y->dyn = true;
				y->func = -1;
				y->addr = 0;
			}
			continue;
		}
		for (uint32_t t = 0; t < nf; t++)
			if (p->taken[t] && calls[(size_t)t * nf + caller])
				c->save = true;
	}
}

/* The module's dynamic calls (m->dcalls), once local memory is laid out
 * and the call words relocated: each word gets its record's index. */
static int build_dcalls(P *p)
{
	sc_module_t *m = p->m;
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->ncalls; i++)
		n += p->calls[i].dyn;
	if (!n)
		return 0;
	if (!(m->dcalls = calloc(n, sizeof *m->dcalls))) {
		p->err = SC_ENOMEM;
		return -1;
	}
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const pcall_t *c = &p->calls[i];
		if (!c->dyn)
			continue;
		sc__dcall_t *d = &m->dcalls[m->ndcalls];
		uint32_t rb = 0;
		*d = (sc__dcall_t){.pc = c->pc, .caller = c->caller, .callee = c->callee ? c->callee->func : -1,
		                   .saves = c->save, .nret = c->nret, .narg = c->narg};
		for (uint32_t k = 0; k < c->nret + c->narg; k++) {
			fixup_t x = {.sym = c->s[k]};
			uint32_t off = (uint32_t)sym_address(p, &x);
			if (k < c->nret) {
				d->ret_size[k] = c->size[k];
				d->ret_off[k] = off;
				rb += c->size[k];
			} else {
				d->arg_size[k - c->nret] = c->size[k];
				d->arg_off[k - c->nret] = off;
			}
		}
		if (rb > SC_DCALL_RETMAX) {
			sc_tok_t t = {.line = m->line[c->pc], .col = 1};
			return perr(p, &t, "a recursive or indirect call returns %u bytes; flipsim passes at most %u", rb,
			            SC_DCALL_RETMAX);
		}
		if (c->targets >= 0) {
			const proto_t *pt = &p->protos[c->targets];
			if (!(d->targets = calloc(pt->ntargets, sizeof *d->targets))) {
				p->err = SC_ENOMEM;
				return -1;
			}
			for (uint32_t k = 0; k < pt->ntargets; k++)
				d->targets[d->ntargets++] = (uint32_t)pt->targets[k]->func;
		}
		sc_insn_t *in = &m->code[c->pc];
		in->sub = SC_CALL_DYN;
		in->imm = ((uint64_t)m->ndcalls << 32) | (d->callee >= 0 ? m->funcs[d->callee].entry_pc : 0);
		m->ndcalls++;
	}
	return 0;
}

/* Kernels that reach a dynamic call get a call stack (call.c). */
static void stack_users(P *p, const bool *calls)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < p->ncalls; i++) {
		if (!p->calls[i].dyn)
			continue;
		uint32_t f = (uint32_t)p->calls[i].caller;
		for (uint32_t k = 0; k < nf; k++)
			if (m->funcs[k].is_entry && (k == f || calls[(size_t)k * nf + f]))
				m->funcs[k].uses_stack = true;
	}
}

/* The call graph from the FX_CALL fixups and the indirect calls, closed
 * transitively into *calls (calls[i * nf + j]: i reaches j); marks the
 * dynamic calls and refuses calls of functions declared but never
 * defined. */
static int call_graph(P *p, bool **out)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs;
	bool *calls = *out = calloc((size_t)nf * nf + 1, 1);
	if (!calls) {
		p->err = SC_ENOMEM;
		return -1;
	}
	for (uint32_t i = 0; i < p->nfx; i++)
		if (p->fx[i].kind == FX_CALL)
			calls[(size_t)p->fx[i].func * nf + (uint32_t)p->fx[i].sym->func] = true;
	if (indirect_edges(p, calls))
		return -1;
	for (uint32_t k = 0; k < nf; k++)
		for (uint32_t i = 0; i < nf; i++)
			if (calls[(size_t)i * nf + k])
				for (uint32_t j = 0; j < nf; j++)
					if (calls[(size_t)k * nf + j])
						calls[(size_t)i * nf + j] = true;
	mark_dyn_calls(p, calls);
	for (uint32_t i = 0; i < nf; i++)
		for (uint32_t j = 0; j < nf && m->funcs[i].entry_pc == UINT32_MAX; j++)
			if (calls[(size_t)j * nf + i]) {
				sc_tok_t t = first_call_of(p, i);
				return perr(p, &t, "function '%s' is declared but never defined", m->funcs[i].name);
			}
	m->max_call_depth = nf + 1;
	return 0;
}

/* A call parsed before its callee's definition bound its .param
 * variables to the declaration's frame: move them to the definition's. */
static void rebind_call_params(P *p)
{
	sc_module_t *m = p->m;
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (!y->bound || y->func < 0 || m->funcs[y->func].entry_pc != UINT32_MAX)
			continue;
		for (uint32_t j = 0; j < m->nfuncs; j++)
			if (m->funcs[j].entry_pc != UINT32_MAX && !strcmp(m->funcs[j].name, m->funcs[y->func].name)) {
				y->func = (int32_t)j;
				break;
			}
	}
}

/* y placed at `at` or after, as its alignment asks: returns its end,
 * UINT32_MAX past 2 GiB. */
static uint32_t place_local(sym_t *y, uint32_t at)
{
	uint32_t o = align_up(at, y->align);
	y->addr = o; /* relative to the function's local area */
	return (uint64_t)o + y->size > (1ull << 31) ? UINT32_MAX : o + y->size;
}

/* The pcs at which dynamic call c's .param variables are named, in *lo and
 * *hi; false when one's address is taken (it may be used anywhere). */
static bool call_span(const pcall_t *c, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = c->pc;
	for (uint32_t k = 0; k < c->nret + c->narg; k++) {
		const sym_t *y = c->s[k];
		if (y->addr_used)
			return false;
		*lo = y->use_lo < *lo ? y->use_lo : *lo;
		*hi = y->use_hi > *hi ? y->use_hi : *hi;
	}
	return true;
}

/* Whether function f's dynamic calls name their .param variables in
 * ranges of pcs that never overlap (a call sequence after another, as
 * nvcc writes them), so that they may share one area. */
static bool calls_disjoint(const P *p, int32_t f)
{
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const pcall_t *a = &p->calls[i];
		uint32_t alo, ahi, blo, bhi;
		if (!a->dyn || a->caller != f)
			continue;
		if (!call_span(a, &alo, &ahi))
			return false;
		for (uint32_t j = i + 1; j < p->ncalls; j++) {
			const pcall_t *b = &p->calls[j];
			if (b->dyn && b->caller == f && (!call_span(b, &blo, &bhi) || (blo <= ahi && alo <= bhi)))
				return false;
		}
	}
	return true;
}

/* Each function's own .local variables, one after the other, then the
 * .param variables of its dynamic calls (call.c), which are its local data
 * too: when the calls name them in disjoint ranges of pcs, every call's
 * start at the same offset, as a GPU's parameter space is reused call
 * after call (a recursive function's frame then holds one call's
 * arguments, not all of them). */
static int layout_locals(P *p)
{
	sc_module_t *m = p->m;
	sc_tok_t t = {.line = 1, .col = 1};
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		y->use_lo = UINT32_MAX;
		if (y->space != SC_SP_LOCAL || y->bound || y->owner < 0 || y->dyn)
			continue;
		sc_func_t *f = &m->funcs[y->owner];
		if ((f->local_own = place_local(y, f->local_own)) == UINT32_MAX)
			return perr(p, &t, "the .local variables of '%s' exceed 2 GiB per thread", f->name);
	}
	for (uint32_t i = 0; i < p->nfx; i++) {
		sym_t *y = p->fx[i].sym;
		if ((p->fx[i].kind != FX_IMM && p->fx[i].kind != FX_POOL) || !y->dyn)
			continue;
		y->use_lo = p->fx[i].pc < y->use_lo ? p->fx[i].pc : y->use_lo;
		y->use_hi = p->fx[i].pc > y->use_hi ? p->fx[i].pc : y->use_hi;
		y->addr_used |= p->fx[i].kind == FX_POOL;
	}
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		sc_func_t *f = &m->funcs[fi];
		bool share = calls_disjoint(p, (int32_t)fi);
		uint32_t base = align_up(f->local_own, 16), end = f->local_own;
		for (uint32_t i = 0; i < p->ncalls; i++) {
			const pcall_t *c = &p->calls[i];
			if (!c->dyn || c->caller != (int32_t)fi)
				continue;
			uint32_t at = share ? base : end;
			for (uint32_t k = 0; k < c->nret + c->narg && at != UINT32_MAX; k++)
				at = place_local(c->s[k], at);
			if (at == UINT32_MAX)
				return perr(p, &t, "the .local variables of '%s' exceed 2 GiB per thread", f->name);
			end = at > end ? at : end;
		}
		f->local_own = end;
	}
	return 0;
}

/* A function on a cycle of the call graph gives each activation its own
 * .local data (its variables and its dynamic calls' .param ones) on the
 * call stack, at its frame pointer: a 64-bit register after its own that
 * the call writes (call.c). A pointer to that data, handed to a deeper
 * activation, names the caller's data, as on a GPU. */
static int stack_frames(P *p, const bool *calls)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->is_entry || f->entry_pc == UINT32_MAX || !calls[(size_t)i * nf + i] || !f->local_own)
			continue;
		/* declared last, as %__frame, for what names registers (disasm) */
		sc__reg_decl_t *d = realloc(f->decl, (f->ndecl + 1) * sizeof *d);
		char *name = strdup("%__frame");
		if (d)
			f->decl = d;
		if (!d || !name) {
			free(name);
			p->err = SC_ENOMEM;
			return -1;
		}
		d[f->ndecl++] = (sc__reg_decl_t){.name = name, .type = SC_T_B64, .first = f->nregs};
		f->stack_frame = align_up(f->local_own, 16);
		f->has_fp = true;
		f->fp_slot = f->nregs; /* function-relative until layout_frames */
		f->nregs += 2;
	}
	return 0;
}

/* Registers: kernels from 0, each .func above every kernel; local memory:
 * the largest kernel's own, then every .func's frame. */
static int layout_frames(P *p)
{
	sc_module_t *m = p->m;
	uint32_t rb = 0, pb = 0, klocal = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry) {
			rb = rb > m->funcs[i].nregs ? rb : m->funcs[i].nregs;
			pb = pb > m->funcs[i].npreds ? pb : m->funcs[i].npreds;
			klocal = klocal > m->funcs[i].local_own ? klocal : m->funcs[i].local_own;
		}
	uint32_t fo = align_up(klocal, 16);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->is_entry)
			continue;
		f->reg_base = rb;
		f->pred_base = pb;
		f->fp_slot += f->has_fp ? rb : 0;
		rb += f->nregs;
		pb += f->npreds;
		f->frame_off = fo;
		f->frame_bytes = align_up(f->param_bytes, 16) + (f->stack_frame ? 0 : f->local_own);
		if ((uint64_t)fo + f->param_bytes + 16 + f->local_own > (1ull << 31)) {
			sc_tok_t t = {.line = 1, .col = 1};
			return perr(p, &t, "the module's local memory (.local variables and call frames) exceeds 2 GiB "
			            "per thread");
		}
		fo = align_up(fo + f->frame_bytes, 16);
	}
	if (rb > SC_IDX_LIMIT || pb > SC_IDX_LIMIT) {
		sc_tok_t t = {.line = 1, .col = 1};
		return perr(p, &t, "the module needs %u register slots and %u predicates; the encoding holds %u of each", rb,
		            pb, SC_IDX_LIMIT);
	}
	m->nregs_all = rb;
	m->npreds_all = pb;
	m->local_all = fo;
	return 0;
}

/* A kernel's registers, predicates and local memory over everything it
 * can call. */
static void kernel_totals(P *p, const bool *calls)
{
	sc_module_t *m = p->m;
	uint32_t nf = m->nfuncs;
	for (uint32_t i = 0; i < nf; i++) {
		sc_func_t *f = &m->funcs[i];
		if (!f->is_entry)
			continue;
		f->regs_total = f->nregs;
		f->preds_total = f->npreds;
		f->local_total = f->local_own;
		for (uint32_t j = 0; j < nf; j++)
			if (calls[(size_t)i * nf + j]) {
				sc_func_t *g = &m->funcs[j];
				f->uses_funcs = true;
				if (g->reg_base + g->nregs > f->regs_total)
					f->regs_total = g->reg_base + g->nregs;
				if (g->pred_base + g->npreds > f->preds_total)
					f->preds_total = g->pred_base + g->npreds;
				if (g->frame_off + g->frame_bytes > f->local_total)
					f->local_total = g->frame_off + g->frame_bytes;
			}
	}
}

/* Whether function i names shared variable y (an address, not a call). */
static bool names_sym(const P *p, uint32_t i, const sym_t *y)
{
	for (uint32_t x = 0; x < p->nfx; x++)
		if (p->fx[x].sym == y && p->fx[x].func == (int32_t)i &&
		    (p->fx[x].kind == FX_IMM || p->fx[x].kind == FX_POOL))
			return true;
	return false;
}

/* Whether kernel i's shared memory starts with the variables .funcs use:
 * it calls functions, or names one of those variables itself. */
static bool has_common_shared(const P *p, uint32_t i)
{
	if (p->m->funcs[i].uses_funcs)
		return true;
	for (uint32_t s = 0; s < p->nsyms; s++) {
		const sym_t *y = p->syms[s];
		if (y->space == SC_SP_SHARED && y->used_by_func && !y->is_extern_shared && names_sym(p, i, y))
			return true;
	}
	return false;
}

/* Adds y at off to kernel f's list of shared variables. */
static int keep_smem_var(P *p, sc_func_t *f, uint32_t *cap, const sym_t *y, uint32_t off)
{
	GROW(f->smem_var, f->nsmem_var, *cap);
	if (!(f->smem_var[f->nsmem_var].name = strdup(y->name))) {
		p->err = SC_ENOMEM;
		return -1;
	}
	f->smem_var[f->nsmem_var].off = off;
	f->smem_var[f->nsmem_var].size = y->size; /* 0 when extern */
	f->smem_var[f->nsmem_var++].dynamic = y->is_extern_shared;
	return 0;
}

/* Kernel i's own shared variables (those its fixups name), after the
 * common ones when it uses them: their addresses are folded into the
 * fixups. The kernel's list of variables (sc__smem_var) follows the
 * layout: common, own, then extern ones at the dynamic offset. */
static int layout_kernel_shared(P *p, uint32_t i, uint32_t common)
{
	sc_func_t *f = &p->m->funcs[i];
	bool with_common = has_common_shared(p, i);
	uint32_t end = with_common ? common : 0, cap = 0;
	uint32_t dyn_align = 16;
	for (uint32_t s = 0; s < p->nsyms && with_common; s++) {
		sym_t *y = p->syms[s];
		if (y->space == SC_SP_SHARED && !y->is_extern_shared && y->used_by_func &&
		    keep_smem_var(p, f, &cap, y, (uint32_t)y->addr))
			return -1;
	}
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (y->space != SC_SP_SHARED || y->used_by_func || !names_sym(p, i, y))
			continue;
		if (y->is_extern_shared) {
			dyn_align = dyn_align > y->align ? dyn_align : y->align;
			continue;
		}
		end = align_up(end, y->align);
		for (uint32_t x = 0; x < p->nfx; x++)
			if (p->fx[x].sym == y && p->fx[x].func == (int32_t)i) {
				p->fx[x].addend += end;
				p->fx[x].folded = true;
			}
		if (keep_smem_var(p, f, &cap, y, end))
			return -1;
		end += y->size;
	}
	f->smem_static = end;
	f->dyn_smem_align = dyn_align;
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (y->is_extern_shared && !y->used_by_func && names_sym(p, i, y) &&
		    keep_smem_var(p, f, &cap, y, align_up(end, dyn_align)))
			return -1;
	}
	return 0;
}

/* Shared variables: those used by functions first, from 0, for all
 * kernels; then each kernel's own, after them; extern (dynamic) shared
 * memory after a kernel's static shared data. */
static int layout_shared(P *p)
{
	sc_module_t *m = p->m;
	uint32_t common = 0;
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (y->space == SC_SP_SHARED && !y->is_extern_shared && y->used_by_func) {
			common = align_up(common, y->align);
			y->addr = common;
			common += y->size;
		}
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry && layout_kernel_shared(p, i, common))
			return -1;
	for (uint32_t x = 0; x < p->nfx; x++) {
		fixup_t *fx = &p->fx[x];
		if ((fx->kind == FX_IMM || fx->kind == FX_POOL) && fx->sym->is_extern_shared) {
			if (fx->func < 0 || !m->funcs[fx->func].is_entry) {
				sc_tok_t t = {.line = fx->line, .col = fx->col};
				return perr(p, &t, "dynamic shared memory used from a device function is not supported");
			}
			sc_func_t *f = &m->funcs[fx->func];
			fx->addend += align_up(f->smem_static, f->dyn_smem_align);
			fx->folded = true;
		}
	}
	return 0;
}

/* The .const bank, and the .global variables in the GPU's memory. */
static int layout_globals(P *p)
{
	sc_module_t *m = p->m;
	uint32_t cb = 0;
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (y->space == SC_SP_CONST) {
			cb = align_up(cb, y->align);
			y->addr = cb;
			cb += y->size;
		}
	}
	m->cbank_size = cb;
	m->cbank = calloc(1, cb ? cb : 1);
	if (!m->cbank) {
		p->err = SC_ENOMEM;
		return -1;
	}
	for (uint32_t s = 0; s < p->nsyms; s++) {
		sym_t *y = p->syms[s];
		if (y->space == SC_SP_CONST && y->init)
			memcpy(m->cbank + y->addr, y->init, y->size);
		if (y->space == SC_SP_GLOBAL) {
			int rc = p->host->alloc_global(p->host->ctx, y->size, y->init, &y->addr);
			if (rc) {
				p->err = rc;
				snprintf(p->msg, p->msgsz, "%s: cannot allocate global variable '%s'", p->name, y->name);
				return -1;
			}
		}
	}
	return 0;
}

static int layout(P *p)
{
	bool *calls = NULL;
	int rc = call_graph(p, &calls);
	if (!rc) {
		rebind_call_params(p);
		rc = layout_locals(p) ? -1 : 0;
		if (!rc)
			rc = stack_frames(p, calls) || layout_frames(p) ? -1 : 0;
	}
	if (!rc) {
		kernel_totals(p, calls);
		stack_users(p, calls);
		rc = layout_shared(p) || layout_globals(p) ? -1 : 0;
	}
	free(calls);
	return rc;
}

static uint64_t sym_address(const P *p, const fixup_t *x)
{
	const sym_t *y = x->sym;
	const sc_module_t *m = p->m;
	uint64_t a = y->space == SC_SP_SHARED && x->folded ? 0 : y->addr;
	if (y->space == SC_SP_LOCAL) {
		int32_t f = y->bound ? y->func : y->owner;
		const sc_func_t *fn = &m->funcs[f];
		if (!fn->is_entry && (y->bound || !fn->stack_frame)) /* else: from the frame pointer */
			a += fn->frame_off + (y->bound ? 0 : align_up(fn->param_bytes, 16));
	}
	a += (uint64_t)x->addend;
	if (x->generic) {
		switch (y->space) {
		case SC_SP_SHARED: a += SC_SHARED_WIN; break;
		case SC_SP_LOCAL: a += SC_LOCAL_WIN; break;
		case SC_SP_CONST: a += SC_CONST_WIN; break;
		case SC_SP_PARAM: a += SC_PARAM_WIN; break;
		default: break;
		}
	}
	return a;
}

/* The function whose stack frame holds x's variable, or NULL when its
 * address is static. */
static const sc_func_t *frame_of(const P *p, const fixup_t *x)
{
	const sym_t *y = x->sym;
	if (y->space != SC_SP_LOCAL || y->bound || y->owner < 0 || !p->m->funcs[y->owner].stack_frame)
		return NULL;
	return &p->m->funcs[y->owner];
}

/* Fixup x names a variable of a stack frame (frame_of): its address is
 * the frame pointer's value plus sym_address, so [var+off] reads the
 * frame pointer and mov %rd, var becomes add.u64 %rd, fp, off. Before the
 * function's registers are relocated. */
static int frame_relative(P *p, const fixup_t *x, const sc_func_t *f)
{
	sc_insn_t *in = &p->m->code[x->pc];
	sc_tok_t t = {.line = x->line, .col = x->col};
	uint32_t fp = f->fp_slot - f->reg_base;
	if (x->kind == FX_IMM) { /* [var+off]: enc_addr gave it no base register */
		for (unsigned j = 0; j < 6; j++)
			if (SC_OPND_KIND(in->opnd[j]) == SC_K_ADDR)
				sc__set_opnd(in, j, SC_OPND(SC_K_ADDR, fp));
		return 0;
	}
	if (in->op != SC_OP_MOV || SC_NDST(in) != 1 || SC_NSRC(in) != 1 || sc__type_bits(in->type) != 64 ||
	    SC_OPND_KIND(in->opnd[0]) != SC_K_R64)
		return perr(p, &t, "'%s' may recurse: the address of its .local variable '%s' is taken by mov.u64 "
		            "only (each activation has a frame of its own)", f->name, x->sym->name);
	sc_opnd_t d = sc__opnd(in, 0), v = sc__opnd(in, 1);
	*in = sc__insn_ops((sc_insn_t){.op = SC_OP_ADD, .type = SC_T_U64, .nops = SC_NOPS_MAKE(1, 2),
	                               .guard = in->guard},
	                   (sc_opnd_t[6]){d, SC_OPND(SC_K_R64, fp), v});
	return 0;
}

static int apply_fixups(P *p)
{
	sc_module_t *m = p->m;
	for (uint32_t i = 0; i < p->nfx; i++) {
		fixup_t *x = &p->fx[i];
		const sc_func_t *sf = x->kind == FX_IMM || x->kind == FX_POOL ? frame_of(p, x) : NULL;
		if (sf && frame_relative(p, x, sf))
			return -1;
		switch (x->kind) {
		case FX_IMM:
			m->code[x->pc].imm = sym_address(p, x);
			/* a call-site .param accessed before the call bound it to the
			 * callee's frame: the access goes to local memory */
			if ((x->sym->bound || x->sym->dyn) && x->sym->space == SC_SP_LOCAL &&
			    SC_AUX_SPACE(m->code[x->pc].aux) == SC_SP_PARAM)
				m->code[x->pc].aux = (uint8_t)((m->code[x->pc].aux & ~7u) | SC_SP_LOCAL);
			break;
		case FX_POOL: {
			/* mov %rd, var gives the address in the variable's own space */
			fixup_t y = *x;
			y.generic = false;
			m->pool[x->pool] = sym_address(p, &y);
			break;
		}
		case FX_CALL: {
			sc_func_t *f = &m->funcs[x->sym->func];
			m->code[x->pc].imm = ((uint64_t)SC_PC_NONE << 32) | f->entry_pc;
			break;
		}
		default:
			break;
		}
	}
	/* relocate function registers */
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		sc_func_t *f = &m->funcs[i];
		if (f->is_entry || f->entry_pc == UINT32_MAX)
			continue;
		for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
			sc_insn_t *in = &m->code[pc];
			for (int o = 0; o < 6; o++) {
				unsigned k = SC_OPND_KIND(in->opnd[o]), idx = SC_OPND_IDX(sc__opnd(in, o));
				if (k == SC_K_R32 || k == SC_K_R64 || ((k == SC_K_ADDR || k == SC_K_ADDR32) && idx != SC_NOREG))
					sc__set_opnd(in, (unsigned)o, SC_OPND(k, idx + f->reg_base));
				else if (k == SC_K_PRED || k == SC_K_PREDN)
					sc__set_opnd(in, (unsigned)o, SC_OPND(k, idx + f->pred_base));
			}
			if (in->guard & SC_GUARD_ON)
				in->guard = SC_GUARD_WITH(in->guard, SC_GUARD_REG(in->guard) + f->pred_base);
		}
	}
	return 0;
}

/* The symbols, relocations and call argument lists, for the emitter. */
static int keep_symbols(P *p)
{
	sc_module_t *m = p->m;
	uint32_t nr = 0;
	for (uint32_t i = 0; i < p->nfx; i++)
		nr += p->fx[i].kind == FX_IMM || p->fx[i].kind == FX_POOL;
	m->syms = calloc(p->nsyms + 1, sizeof *m->syms);
	m->reloc = calloc(nr + 1, sizeof *m->reloc);
	m->calls = calloc(p->ncalls + 1, sizeof *m->calls);
	if (!m->syms || !m->reloc || !m->calls)
		goto nomem;
	for (uint32_t i = 0; i < p->nsyms; i++) {
		const sym_t *y = p->syms[i];
		sc__sym_t *k = &m->syms[m->nsyms++];
		*k = (sc__sym_t){.space = y->role == SC_SYM_VAR ? y->space : SC_SP_PARAM, .role = y->role, .owner = y->owner,
		                 .size = y->size, .align = y->align, .is_extern = y->is_extern_shared,
		                 .addr = y->addr};
		if (y->is_func)
			k->space = SC_SP_NONE;
		if (!(k->name = strdup(y->name)) || (y->init && !(k->init = malloc(y->size ? y->size : 1))))
			goto nomem;
		if (y->init)
			memcpy(k->init, y->init, y->size);
		p->syms[i]->addr = i; /* no longer needed as an address: the index */
	}
	for (uint32_t i = 0; i < p->nfx; i++) {
		const fixup_t *x = &p->fx[i];
		if (x->kind == FX_IMM || x->kind == FX_POOL)
			m->reloc[m->nreloc++] = (sc__reloc_t){.at = x->kind == FX_POOL ? x->pool : x->pc,
			                                      .pool = x->kind == FX_POOL, .sym = (uint32_t)x->sym->addr,
			                                      .addend = x->addend0};
	}
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const pcall_t *c = &p->calls[i];
		sc__call_t *k = &m->calls[m->ncalls++];
		*k = (sc__call_t){.pc = c->pc, .nret = c->nret, .narg = c->narg};
		for (uint32_t j = 0; j < c->nret + c->narg; j++)
			k->sym[j] = (uint32_t)c->s[j]->addr;
	}
	return 0;
nomem:
	p->err = SC_ENOMEM;
	return -1;
}

/* ---------------------------------------------------------------- module */
/* ".target sm_NN[, ...]" after the directive. */
static int parse_target(P *p)
{
	for (;;) {
		sc_tok_t *t = next(p);
		if (t->kind != SC_TK_IDENT)
			return perr(p, t, "expected a target, found '%s'", tokstr(t));
		if (t->len > 3 && !memcmp(t->p, "sm_", 3)) {
			int sm = atoi(t->p + 3);
			if (sm < 30)
				return perr(p, t, "target '%s' is not supported (sm_30 and later)", tokstr(t));
		} else if (!tok_is(t, "texmode_independent") && !tok_is(t, "debug") &&
		           !(t->len > 8 && !memcmp(t->p, "compute_", 8))) {
			return perr(p, t, "unknown target '%s'", tokstr(t));
		}
		if (tok_is(t, "debug"))
			return perr(p, t, "debug targets (.target debug) are not supported");
		if (!is_punct(peek(p), ','))
			return 0;
		next(p);
	}
}

/* A module directive k other than a declaration: 1 when it was one of
 * .version .target .address_size .file .loc .pragma, 0 when not, -1 on
 * error. */
static int parse_module_directive(P *p, const sc_tok_t *k, bool *seen_version, bool *seen_target)
{
	if (tok_is(k, ".version")) {
		sc_tok_t *v = next(p);
		if (v->kind != SC_TK_FLOAT && v->kind != SC_TK_INT)
			return perr(p, v, "expected a version number, found '%s'", tokstr(v));
		if (v->kind == SC_TK_FLOAT && (v->fval < 6.0 || v->fval >= 10.0))
			return perr(p, v, "PTX ISA version %s is not supported (6.0 to 9.x)", tokstr(v));
		*seen_version = true;
	} else if (tok_is(k, ".target")) {
		if (parse_target(p))
			return -1;
		*seen_target = true;
	} else if (tok_is(k, ".address_size")) {
		uint64_t v;
		sc_tok_t *vk = peek(p);
		if (get_int(p, &v))
			return -1;
		if (v != 64)
			return perr(p, vk, "only .address_size 64 is supported");
	} else if (tok_is(k, ".file") || tok_is(k, ".loc")) {
		uint32_t line = k->line;
		while (peek(p)->line == line && peek(p)->kind != SC_TK_EOF)
			next(p);
	} else if (tok_is(k, ".pragma")) {
		sc_tok_t *s = next(p);
		if (s->kind != SC_TK_STRING || expect(p, ';'))
			return perr(p, s, "expected .pragma \"...\";");
	} else {
		return 0;
	}
	return 1;
}

/* [.visible|.weak|.extern|.common]* then .entry, .func or a variable. */
static int parse_declaration(P *p, sc_tok_t *k, bool seen)
{
	bool is_extern = false;
	while (tok_is(k, ".visible") || tok_is(k, ".weak") || tok_is(k, ".extern") || tok_is(k, ".common")) {
		is_extern |= tok_is(k, ".extern");
		k = next(p);
	}
	if (!seen)
		return perr(p, k, "'.version' and '.target' must come first");
	if (tok_is(k, ".entry") || tok_is(k, ".func"))
		return parse_function(p, tok_is(k, ".entry"), is_extern);
	if (tok_is(k, ".global") || tok_is(k, ".const") || tok_is(k, ".shared")) {
		int sp = tok_is(k, ".global") ? SC_SP_GLOBAL : tok_is(k, ".const") ? SC_SP_CONST : SC_SP_SHARED;
		p->fn = -1;
		return parse_var(p, sp, is_extern, NULL);
	}
	return perr(p, k, "unsupported directive '%s'", tokstr(k));
}

/* The functions CUDA's device runtime provides and nvcc declares .extern:
 * flipsim gives a module that declares and calls one without defining it
 * this body, built on its own instruction (ptxext.c). */
static const struct builtin {
	const char *name;
	uint8_t nparams, nrets;
	uint8_t size[5]; /* the parameters' sizes, then the return value's */
	const char *sig;  /* CUDA's, for the message */
	const char *text;
} builtins[] = {
	{"vprintf", 2, 1, {8, 8, 4}, "(.param .b32) vprintf(.param .b64, .param .b64)",
	 ".func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a)\n"
	 "{\n.reg .b64 %x<2>;\n.reg .b32 %y;\nld.param.b64 %x0, [f];\nld.param.b64 %x1, [a];\n"
	 "vprintf.b32 %y, %x0, %x1;\nst.param.b32 [r], %y;\nret;\n}\n"},
	{"__assertfail", 5, 0, {8, 8, 4, 8, 8},
	 "__assertfail(.param .b64, .param .b64, .param .b32, .param .b64, .param .b64)",
	 ".func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 n, .param .b64 c)\n"
	 "{\n.reg .b64 %x<3>;\n.reg .b32 %y;\nld.param.b64 %x0, [m];\nld.param.b64 %x1, [f];\n"
	 "ld.param.b32 %y, [l];\nld.param.b64 %x2, [n];\nassertfail %x0, %x1, %y, %x2;\nret;\n}\n"},
	{"malloc", 1, 1, {8, 8}, "(.param .b64) malloc(.param .b64)",
	 ".func (.param .b64 r) malloc(.param .b64 n)\n"
	 "{\n.reg .b64 %x<2>;\nld.param.b64 %x0, [n];\nmalloc.u64 %x1, %x0;\nst.param.b64 [r], %x1;\nret;\n}\n"},
	{"free", 1, 0, {8}, "free(.param .b64)",
	 ".func free(.param .b64 p)\n{\n.reg .b64 %x;\nld.param.b64 %x, [p];\nfree.u64 %x;\nret;\n}\n"},
};

/* Function i, declared and never defined, against builtin b's signature. */
static int builtin_check(P *p, const sc_func_t *f, const struct builtin *b)
{
	bool ok = f->nparams == b->nparams && f->nrets == b->nrets;
	for (uint32_t j = 0; ok && j < b->nparams; j++)
		ok = f->param_size[j] == b->size[j];
	if (ok && b->nrets)
		ok = f->ret_size[0] == b->size[b->nparams];
	if (ok)
		return 0;
	sc_tok_t t = {.line = 1, .col = 1};
	for (uint32_t x = 0; x < p->nfx; x++)
		if (p->fx[x].kind == FX_CALL && p->fx[x].sym->func >= 0 && &p->m->funcs[p->fx[x].sym->func] == f) {
			t.line = p->fx[x].line;
			t.col = p->fx[x].col;
			break;
		}
	return perr(p, &t, "'%s' is declared with another signature than CUDA's (%s)", b->name, b->sig);
}

static int add_builtins(P *p)
{
	for (uint32_t b = 0; b < sizeof builtins / sizeof builtins[0]; b++) {
		const sc_func_t *f = NULL;
		for (uint32_t i = 0; i < p->m->nfuncs; i++)
			if (!strcmp(p->m->funcs[i].name, builtins[b].name))
				f = p->m->funcs[i].entry_pc == UINT32_MAX && !f ? &p->m->funcs[i] : NULL;
		if (!f) /* not declared, or defined by the module itself */
			continue;
		if (builtin_check(p, f, &builtins[b]))
			return -1;
		sc_tok_t *save = p->t;
		uint32_t nt = p->nt, at = p->i;
		int rc = sc__ptx_lex(builtins[b].name, builtins[b].text, &p->bt[b], &p->nt, p->msg, p->msgsz);
		if (rc)
			return p->err = rc, -1;
		p->t = p->bt[b];
		p->i = 0;
		sc_tok_t *k = next(p);
		rc = parse_declaration(p, k, true);
		p->t = save;
		p->nt = nt;
		p->i = at;
		if (rc)
			return -1;
	}
	return 0;
}

static int parse_module(P *p)
{
	bool seen_version = false, seen_target = false;
	for (;;) {
		sc_tok_t *k = peek(p);
		if (k->kind == SC_TK_EOF)
			break;
		if (k->kind != SC_TK_DIRECTIVE)
			return perr(p, k, "expected a directive, found '%s'", tokstr(k));
		next(p);
		int rc = parse_module_directive(p, k, &seen_version, &seen_target);
		if (rc < 0 || (rc == 0 && parse_declaration(p, k, seen_version && seen_target)))
			return -1;
	}
	if (!seen_version || !seen_target)
		return perr(p, peek(p), "not a PTX module: '.version' and '.target' are missing");
	bool any = false;
	for (uint32_t i = 0; i < p->m->nfuncs; i++)
		any |= p->m->funcs[i].is_entry;
	if (!any)
		return perr(p, peek(p), "the module defines no kernel (.entry)");
	return add_builtins(p);
}

void sc__module_free(sc_module_t *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		free(m->funcs[i].name);
		for (uint32_t j = 0; m->funcs[i].param_decl && j < m->funcs[i].nparams; j++)
			free(m->funcs[i].param_decl[j].name);
		free(m->funcs[i].param_decl);
		free(m->funcs[i].param_size);
		free(m->funcs[i].param_off);
		free(m->funcs[i].ret_size);
		free(m->funcs[i].ret_off);
		sc__live_free(m->funcs[i].live);
		free(m->funcs[i].live);
		for (uint32_t j = 0; j < m->funcs[i].ndecl; j++)
			free(m->funcs[i].decl[j].name);
		free(m->funcs[i].decl);
		for (uint32_t j = 0; j < m->funcs[i].nsmem_var; j++)
			free(m->funcs[i].smem_var[j].name);
		free(m->funcs[i].smem_var);
		free(m->funcs[i].vslot);
		sc__live_free(m->funcs[i].vlive);
		free(m->funcs[i].vlive);
		free(m->funcs[i].vpin);
	}
	free(m->funcs);
	for (uint32_t i = 0; i < m->nsyms; i++) {
		free(m->syms[i].name);
		free(m->syms[i].init);
	}
	free(m->syms);
	free(m->reloc);
	free(m->calls);
	for (uint32_t i = 0; i < m->ndcalls; i++) {
		free(m->dcalls[i].save);
		free(m->dcalls[i].targets);
	}
	free(m->dcalls);
	sc__penny_tab_free(m->penny);
	sc__pennyc_free(m->pennyc);
	free(m->code);
	free(m->code_ptx);
	free(m->line);
	free(m->pool);
	free(m->cbank);
	free(m->name);
	free(m);
}

/* ---------------------------------------------------------------- names */
const sc_func_t *sc__func_at(const sc_module_t *m, uint32_t pc)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry_pc != UINT32_MAX && pc >= m->funcs[i].entry_pc && pc < m->funcs[i].end_pc)
			return &m->funcs[i];
	return NULL;
}

/* The declaration of f covering ptx slot `slot` (pred: predicate; every
 * declaration has slots of its own), or NULL. *k: the slot's offset from
 * the declaration's first slot. */
static const sc__reg_decl_t *decl_at(const sc_func_t *f, uint32_t slot, bool pred, uint32_t *k)
{
	if (!f)
		return NULL;
	uint32_t base = pred ? f->ptx_pred_base : f->ptx_reg_base, n = pred ? f->ptx_npreds : f->ptx_nregs;
	if (slot < base || slot >= base + n)
		return NULL;
	uint32_t own = slot - base;
	for (uint32_t i = f->ndecl; i-- > 0;) {
		const sc__reg_decl_t *d = &f->decl[i];
		if ((d->type == SC_T_PRED) != pred || own < d->first)
			continue;
		uint32_t w = !pred && sc__type_bits(d->type) == 64 ? 2 : 1;
		if (own - d->first < (d->count ? d->count : 1) * w) {
			*k = own - d->first;
			return d;
		}
	}
	return NULL;
}

const sc__reg_decl_t *sc__reg_decl(const sc_func_t *f, uint32_t slot, bool pred, uint32_t *k)
{
	return decl_at(f, slot, pred, k);
}

int sc__reg_name(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred, char *buf, size_t n)
{
	(void)m;
	uint32_t k;
	const sc__reg_decl_t *d = decl_at(f, slot, pred, &k);
	if (n)
		buf[0] = 0;
	if (!d)
		return -1;
	uint32_t w = !pred && sc__type_bits(d->type) == 64 ? 2 : 1;
	if (d->count)
		snprintf(buf, n, "%s%u", d->name, k / w);
	else
		snprintf(buf, n, "%s", d->name);
	return 0;
}

int sc__reg_type(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred, uint8_t *type,
                 unsigned *half)
{
	(void)m;
	uint32_t k;
	const sc__reg_decl_t *d = decl_at(f, slot, pred, &k);
	if (!d)
		return -1;
	if (type)
		*type = d->type;
	if (half)
		*half = !pred && sc__type_bits(d->type) == 64 ? k % 2 : 0;
	return 0;
}

int sc__smem_var(const sc_module_t *m, const sc_func_t *k, uint32_t offset, const char **name,
                 uint32_t *var_offset)
{
	(void)m;
	for (uint32_t i = 0; k && i < k->nsmem_var; i++) {
		const sc__smem_var_t *v = &k->smem_var[i];
		if (offset >= v->off && (v->dynamic || offset - v->off < v->size)) {
			if (name)
				*name = v->name;
			if (var_offset)
				*var_offset = offset - v->off;
			return 0;
		}
	}
	return -1;
}

int sc__ptx_load(const sc_ptx_host_t *host, const char *name, const char *text, sc_module_t **out,
                 char *msg, size_t msgsz)
{
	P p;
	memset(&p, 0, sizeof p);
	p.host = host;
	p.name = name;
	p.msg = msg;
	p.msgsz = msgsz;
	p.fn = -1;
	msg[0] = 0;
	int rc = sc__ptx_lex(name, text, &p.t, &p.nt, msg, msgsz);
	if (rc)
		return rc;
	p.m = calloc(1, sizeof *p.m);
	if (!p.m || !(p.m->name = strdup(name))) {
		p.err = SC_ENOMEM;
		goto done;
	}
	if (parse_module(&p) || layout(&p) || apply_fixups(&p) || build_dcalls(&p) || keep_symbols(&p)) {
		if (!p.err) /* a failure path without a message must not pass as success */
			perr(&p, &p.t[p.i ? p.i - 1 : 0], "invalid PTX near '%s'", tokstr(&p.t[p.i ? p.i - 1 : 0]));
		goto done;
	}
	sc__cfg_reconverge(p.m);
	if ((p.err = sc__dcall_live(p.m)))
		goto done;
	for (uint32_t i = 0; i < p.m->nfuncs; i++) {
		sc_func_t *f = &p.m->funcs[i];
		f->regs_ptx = f->regs_total;
		f->preds_ptx = f->preds_total;
		f->ptx_reg_base = f->reg_base;
		f->ptx_nregs = f->nregs;
		f->ptx_pred_base = f->pred_base;
		f->ptx_npreds = f->npreds;
	}
	p.m->regs = host->regs;
	p.m->max_regs = host->max_regs;
	if (host->regs == SC_REGS_ALLOC && !(p.err = sc__regalloc(p.m, msg, msgsz)) &&
	    !(p.err = sc__spill(p.m, msg, msgsz)))
		p.err = sc__dcall_live(p.m); /* the allocated slots */
done:
	rc = p.err;
	if (rc == SC_ENOMEM && !msg[0])
		snprintf(msg, msgsz, "%s: out of memory", name);
	for (uint32_t i = 0; i < p.nsyms; i++)
		sym_free(p.syms[i]);
	free(p.syms);
	free(p.regs);
	free(p.labels);
	free(p.fx);
	free(p.calls);
	free(p.taken);
	for (uint32_t i = 0; i < p.nprotos; i++)
		free(p.protos[i].targets);
	free(p.protos);
	free(p.finits);
	free(p.pool_sym);
	free(p.t);
	for (size_t b = 0; b < sizeof p.bt / sizeof p.bt[0]; b++)
		free(p.bt[b]);
	if (rc) {
		sc__module_free(p.m);
		return rc;
	}
	*out = p.m;
	return 0;
}
