/* The PTX that real CUDA code uses beyond the core set: match.sync,
 * redux.sync, device printf (vprintf) and assert (__assertfail), and the
 * clock conversions of nanosleep and %globaltimer. The rows are at the end
 * of sc_int.h's SC_OP_LIST; the bodies flipsim gives vprintf and
 * __assertfail are in ptx_parse.c; the model is docs/DESIGN.md ("Device
 * printf and assert"). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

#define PRINTF_FIFO_DEFAULT (1u << 20) /* cudaLimitPrintfFifoSize's default */
#define STR_MAX 4096                   /* the longest format or %s string read */

/* ------------------------------------------------------------ clocks */
uint64_t sc__sleep_cycles(const sc_gpu_t *g, uint32_t ns)
{
	double c = (double)ns * g->cfg.clock_mhz / 1000.0;
	uint64_t n = (uint64_t)c;
	return n + ((double)n < c);
}

uint64_t sc__globaltimer(const sc_gpu_t *g, uint64_t cycle)
{
	return (uint64_t)((double)cycle * 1000.0 / g->cfg.clock_mhz);
}

/* ------------------------------------------------------------ validity */
static bool wr_ok(sc_opnd_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_NONE || k == SC_K_R32 || k == SC_K_R64 || k == SC_K_PRED;
}

enum { REDUX_ADD = 0, REDUX_MIN, REDUX_MAX, REDUX_AND, REDUX_OR, REDUX_XOR };

bool sc__ext_valid(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), t = in->type;
	switch (in->op) {
	case SC_OP_MATCH:
		return (t == SC_T_B32 || t == SC_T_B64) && in->sub < 2 && nd == 2 && ns == 2 && wr_ok(in->opnd[0]) &&
		       wr_ok(in->opnd[1]);
	case SC_OP_REDUX:
		if (in->sub > REDUX_XOR || nd != 1 || ns != 2 || !wr_ok(in->opnd[0]))
			return false;
		return in->sub >= REDUX_AND ? t == SC_T_B32 : t == SC_T_U32 || t == SC_T_S32;
	case SC_OP_NANOSLEEP: return t == SC_T_U32 && nd == 0 && ns == 1;
	case SC_OP_VPRINTF: return nd == 1 && ns == 2 && wr_ok(in->opnd[0]);
	case SC_OP_ASSERTFAIL: return nd == 0 && ns == 4;
	case SC_OP_MALLOC: return t == SC_T_U64 && nd == 1 && ns == 1 && wr_ok(in->opnd[0]);
	case SC_OP_FREE: return t == SC_T_U64 && nd == 0 && ns == 1;
	case SC_OP_TEX: case SC_OP_TLD4: case SC_OP_TXQ: case SC_OP_SULD: case SC_OP_SUST: return sc__tex_valid(in);
	}
	return false;
}

/* ------------------------------------------------------------ warp-level */
/* match: d = the lanes of act whose a equals this lane's (any), or act
 * when all agree (all; d2 = whether they do). */
static void match(sc_alu_t *x, const sc_insn_t *in, uint32_t act, uint32_t exec)
{
	uint64_t m = in->type == SC_T_B32 ? 0xffffffffu : ~0ull;
	if (in->sub == 0) {
		FOR_LANES(l, exec) {
			uint32_t same = 0;
			FOR_LANES(j, act)
				same |= (uint32_t)(((x->a[j] ^ x->a[l]) & m) == 0) << j;
			x->d[l] = same;
			x->d2[l] = 0;
		}
		return;
	}
	bool all = true;
	uint64_t v = act ? x->a[__builtin_ctz(act)] : 0;
	FOR_LANES(j, act)
		all &= ((x->a[j] ^ v) & m) == 0;
	FOR_LANES(l, exec) {
		x->d[l] = all ? act : 0;
		x->d2[l] = all;
	}
}

/* redux: d = a reduced over act, in every lane. */
static void redux(sc_alu_t *x, const sc_insn_t *in, uint32_t act, uint32_t exec)
{
	bool sgn = in->type == SC_T_S32;
	uint32_t r = in->sub == REDUX_AND ? ~0u : in->sub == REDUX_MIN ? (sgn ? INT32_MAX : UINT32_MAX)
	             : in->sub == REDUX_MAX ? (sgn ? (uint32_t)INT32_MIN : 0) : 0;
	FOR_LANES(j, act) {
		uint32_t v = (uint32_t)x->a[j];
		bool lt = sgn ? (int32_t)v < (int32_t)r : v < r;
		switch (in->sub) {
		case REDUX_ADD: r += v; break;
		case REDUX_MIN: r = lt ? v : r; break;
		case REDUX_MAX: r = lt || v == r ? r : v; break;
		case REDUX_AND: r &= v; break;
		case REDUX_OR: r |= v; break;
		default: r ^= v; break;
		}
	}
	FOR_LANES(l, exec)
		x->d[l] = r;
}

/* match and redux: the value (x->a) and the member mask follow the
 * destinations; the lanes that take part are those executing that the
 * member mask names (the first executing lane's mask, as vote reads it). */
int sc__x_match_redux(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	if (UNLIKELY(!sc__ext_valid(in))) /* a word a fault made */
		return SC_X_BAD;
	if (!exec)
		return (int)d->lat;
	sc_alu_t *x = &g->alu;
	unsigned nd = SC_NDST(in);
	sc__rd(g, sm, w, sc__opnd(in, nd), exec, x->a);
	sc__rd(g, sm, w, sc__opnd(in, nd + 1), exec, x->b);
	uint32_t act = exec & (uint32_t)x->b[__builtin_ctz(exec)];
	if (in->op == SC_OP_MATCH)
		match(x, in, act, exec);
	else
		redux(x, in, act, exec);
	if (!sc__wr(w, sc__opnd(in, 0), exec, x->d) || (nd == 2 && !sc__wr(w, sc__opnd(in, 1), exec, x->d2)))
		return SC_X_BAD;
	return (int)d->lat;
}

/* ------------------------------------------------------------ device memory */
/* The pc a DUE of vprintf or assertfail names: the call in the program
 * (their bodies are flipsim's, ptx_parse.c's builtins). */
static uint32_t caller_pc(const sc_warp_t *w, uint32_t pc)
{
	return w->ncalls ? w->calls[w->ncalls - 1] - 1 : pc;
}

/* The NUL-terminated string at generic address a (at most STR_MAX - 1
 * bytes kept) into buf: false after the DUE of a bad address. */
static bool read_str(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint32_t l, uint64_t a, char *buf)
{
	size_t n = 0;
	for (;;) {
		char c;
		if (!sc__mem_peek(g, sm, w, pc, l, a + n, &c, 1))
			return false;
		if (c == 0 || n == STR_MAX - 1)
			break;
		buf[n++] = c;
	}
	buf[n] = 0;
	return true;
}

/* ------------------------------------------------------------ formatting */
typedef struct out {
	char *p;
	size_t len, cap;
	bool nomem;
} out_t;

/* Makes *p (of *cap bytes) hold `need` bytes; false when out of memory. */
static bool grow(char **p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 256;
	while (c < need)
		c *= 2;
	char *np = realloc(*p, c);
	if (!np)
		return false;
	*p = np;
	*cap = c;
	return true;
}

static void put(out_t *o, const char *s, size_t n)
{
	if (!grow(&o->p, &o->cap, o->len + n + 1)) {
		o->nomem = true;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = 0;
}

/* One argument of the buffer at `args`: `size` bytes at the next offset
 * aligned to its size (CUDA's packing: int and char as 4 bytes, long, long
 * long, pointers and doubles (floats promoted) as 8). */
typedef struct argv {
	sc_gpu_t *g;
	sc_sm_t *sm;
	sc_warp_t *w;
	uint32_t pc, lane;
	uint64_t base, off;
	uint64_t str_bytes;     /* %s text, counted into the FIFO */
	int nargs;
} argv_t;

static bool next_arg(argv_t *a, unsigned size, uint64_t *v)
{
	a->off = (a->off + size - 1) / size * size;
	*v = 0;
	if (!sc__mem_peek(a->g, a->sm, a->w, a->pc, a->lane, a->base + a->off, v, size))
		return false;
	a->off += size;
	a->nargs++;
	return true;
}

/* A conversion spec "%[flags][width][.prec][len]conv" at f: appends its
 * text; returns the characters of the spec consumed, 0 after a DUE. */
static size_t convert(argv_t *a, const char *f, out_t *o)
{
	char spec[64], buf[512];
	size_t i = 1, k = 0;
	spec[k++] = '%';
	while (f[i] && strchr("-+ #0", f[i]) && k < 8)
		spec[k++] = f[i++];
	for (int part = 0; part < 2; part++) { /* width, then .precision */
		if (part == 1) {
			if (f[i] != '.')
				break;
			spec[k++] = f[i++];
		}
		if (f[i] == '*') { /* taken from an int argument */
			uint64_t v;
			if (!next_arg(a, 4, &v))
				return 0;
			k += (size_t)snprintf(spec + k, sizeof spec - k, "%d", (int32_t)v);
			i++;
		}
		while (f[i] >= '0' && f[i] <= '9' && k < 40)
			spec[k++] = f[i++];
	}
	unsigned lsize = 4, h = 0; /* L (long double) is read as the double CUDA passes */
	while (f[i] && strchr("hlLqjzt", f[i])) {
		if (strchr("lqjzt", f[i]))
			lsize = 8;
		h += f[i] == 'h';
		i++;
	}
	uint64_t hmask = h >= 2 ? 0xffu : h == 1 ? 0xffffu : 0xffffffffu; /* %hd, %hhx: the promoted int cut */
	char c = f[i];
	if (!c) { /* a lone % at the end: printed as written */
		put(o, f, i);
		return i;
	}
	i++;
	uint64_t v = 0;
	int n = 0;
	switch (c) {
	case 'd': case 'i':
		if (!next_arg(a, lsize, &v))
			return 0;
		memcpy(spec + k, "lld", 4);
		if (lsize == 4 && h)
			v = (v & hmask) ^ ((hmask >> 1) + 1), v = (uint64_t)((int64_t)v - (int64_t)((hmask >> 1) + 1));
		n = snprintf(buf, sizeof buf, spec, lsize == 8 ? (long long)v : (long long)(int32_t)v);
		break;
	case 'u': case 'o': case 'x': case 'X':
		if (!next_arg(a, lsize, &v))
			return 0;
		spec[k] = 'l', spec[k + 1] = 'l', spec[k + 2] = c, spec[k + 3] = 0;
		n = snprintf(buf, sizeof buf, spec, lsize == 8 ? (unsigned long long)v : (unsigned long long)(v & hmask));
		break;
	case 'c':
		if (!next_arg(a, 4, &v))
			return 0;
		spec[k] = 'c', spec[k + 1] = 0;
		n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		if (!next_arg(a, 8, &v))
			return 0;
		spec[k] = c, spec[k + 1] = 0;
		n = snprintf(buf, sizeof buf, spec, sc__f64_of(v));
		break;
	}
	case 'p':
		if (!next_arg(a, 8, &v))
			return 0;
		n = snprintf(buf, sizeof buf, "0x%" PRIx64, v);
		break;
	case 's': {
		if (!next_arg(a, 8, &v))
			return 0;
		char *s = malloc(STR_MAX);
		if (!s) {
			o->nomem = true;
			return i;
		}
		if (v == 0)
			strcpy(s, "(null)");
		else if (!read_str(a->g, a->sm, a->w, a->pc, a->lane, v, s)) {
			free(s);
			return 0;
		}
		a->str_bytes += strlen(s) + 1;
		spec[k] = 's', spec[k + 1] = 0;
		int len = snprintf(NULL, 0, spec, s);
		char *t = len >= 0 ? malloc((size_t)len + 1) : NULL;
		if (t) {
			snprintf(t, (size_t)len + 1, spec, s);
			put(o, t, (size_t)len);
		} else {
			o->nomem = true;
		}
		free(t);
		free(s);
		return i;
	}
	case '%':
		put(o, "%", 1);
		return i;
	default: /* not a conversion CUDA defines: printed as written */
		put(o, f, i);
		return i;
	}
	if (n > 0)
		put(o, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
	return i;
}

/* Formats the printf of lane l: its text in *o and its argument count;
 * false after a DUE (a bad format or argument address). */
static bool format(argv_t *a, uint64_t fmt, out_t *o)
{
	char *f = malloc(STR_MAX);
	if (!f) {
		o->nomem = true;
		return true;
	}
	if (!read_str(a->g, a->sm, a->w, a->pc, a->lane, fmt, f)) {
		free(f);
		return false;
	}
	a->str_bytes += strlen(f) + 1;
	for (size_t i = 0; f[i];) {
		if (f[i] != '%') {
			size_t j = i;
			while (f[j] && f[j] != '%')
				j++;
			put(o, f + i, j - i);
			i = j;
			continue;
		}
		size_t used = convert(a, f + i, o);
		if (!used) {
			free(f);
			return false;
		}
		i += used;
	}
	free(f);
	return true;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t align8(uint64_t v) { return (v + 7) & ~7ull; }

/* Keeps lane l's formatted text as a record when the FIFO has room. */
static void record(sc_gpu_t *g, const sc_warp_t *w, uint32_t l, const out_t *o, const argv_t *a)
{
	sc_printf_t *pf = &g->pf;
	const sc_run_t *r = &g->run;
	uint64_t limit = pf->fifo_size ? pf->fifo_size : PRINTF_FIFO_DEFAULT;
	uint64_t bytes = 16 + align8(a->off) + align8(a->str_bytes); /* header, arguments, strings */
	const uint32_t *c = w->cta->ctaid;
	uint64_t cta = c[0] + (uint64_t)r->grid[0] * (c[1] + (uint64_t)r->grid[1] * c[2]);
	uint64_t seq = pf->seq;
	pf->hash = fnv(pf->hash, &cta, sizeof cta);
	pf->hash = fnv(pf->hash, &w->wid, sizeof w->wid);
	pf->hash = fnv(pf->hash, &l, sizeof l);
	pf->hash = fnv(pf->hash, o->p ? o->p : "", o->len);
	if (bytes > limit || pf->used > limit - bytes)
		return; /* the FIFO is full: dropped */
	if (pf->nrec == pf->rec_cap) {
		size_t cap = pf->rec_cap ? pf->rec_cap * 2 : 64;
		sc_printf_rec_t *nr = realloc(pf->rec, cap * sizeof *nr);
		if (!nr)
			return;
		pf->rec = nr;
		pf->rec_cap = cap;
	}
	if (!grow(&pf->text, &pf->cap, pf->len + o->len + 1))
		return;
	memcpy(pf->text + pf->len, o->p ? o->p : "", o->len);
	pf->rec[pf->nrec++] = (sc_printf_rec_t){.cta = cta, .wid = w->wid, .lane = l, .seq = seq, .off = pf->len,
	                                        .len = o->len};
	pf->len += o->len;
	pf->used += bytes;
}

/* vprintf d, fmt, args: lane by lane, in lane order. d is the argument
 * count (CUDA's printf result), -1 for a NULL format. */
int sc__x_vprintf(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	if (UNLIKELY(!sc__ext_valid(in))) /* a word a fault made */
		return SC_X_BAD;
	if (!exec)
		return 1;
	sc_alu_t *x = &g->alu;
	uint64_t fmt[32], args[32];
	sc__rd(g, sm, w, sc__opnd(in, 1), exec, fmt);
	sc__rd(g, sm, w, sc__opnd(in, 2), exec, args);
	out_t o = {0};
	FOR_LANES(l, exec) {
		if (fmt[l] == 0) {
			x->d[l] = (uint32_t)-1;
			continue;
		}
		argv_t a = {.g = g, .sm = sm, .w = w, .pc = caller_pc(w, d->pc), .lane = l, .base = args[l]};
		o.len = 0;
		if (!format(&a, fmt[l], &o)) {
			free(o.p);
			return SC_X_HALT;
		}
		record(g, w, l, &o, &a);
		x->d[l] = (uint32_t)(o.nomem ? -2 : a.nargs);
	}
	g->pf.seq++;
	free(o.p);
	if (!sc__wr(w, sc__opnd(in, 0), exec, x->d))
		return SC_X_BAD;
	return 1;
}

/* __assertfail(message, file, line, function): each failing lane's message
 * to stderr as CUDA prints it, then the DUE assert (the first lane's). */
int sc__x_assertfail(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	if (UNLIKELY(!sc__ext_valid(in))) /* a word a fault made */
		return SC_X_BAD;
	if (!exec)
		return 1;
	uint32_t at = caller_pc(w, d->pc);
	uint64_t v[4][32];
	for (unsigned j = 0; j < 4; j++)
		sc__rd(g, sm, w, sc__opnd(in, j), exec, v[j]);
	char *s = malloc(3 * STR_MAX), *first = NULL;
	if (!s) {
		sc__due(g, SC_DUE_ASSERT, sm, w, __builtin_ctz(exec), at, 0, "assertion failed");
		return SC_X_HALT;
	}
	char *msg = s, *file = s + STR_MAX, *fn = s + 2 * STR_MAX;
	int lane0 = __builtin_ctz(exec);
	char line[STR_MAX * 3 + 160];
	FOR_LANES(l, exec) {
		if (!read_str(g, sm, w, at, l, v[0][l], msg) || !read_str(g, sm, w, at, l, v[1][l], file) ||
		    !read_str(g, sm, w, at, l, v[3][l], fn)) {
			free(s);
			return SC_X_HALT;
		}
		uint32_t t[3];
		for (unsigned k = 0; k < 3; k++)
			t[k] = (uint32_t)sc__sreg(g, sm, w, SC_SR_TID_X + k, l);
		const uint32_t *c = w->cta->ctaid;
		snprintf(line, sizeof line, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file,
		         (uint32_t)v[2][l], fn, c[0], c[1], c[2], t[0], t[1], t[2], msg);
		FILE *f = g->pf.astream_set ? g->pf.astream : stderr;
		if (f)
			fprintf(f, "%s\n", line);
		if ((int)l == lane0)
			first = strdup(line);
	}
	sc__due(g, SC_DUE_ASSERT, sm, w, lane0, at, 0, "%s", first ? first : "assertion failed");
	free(first);
	free(s);
	return SC_X_HALT;
}

/* ------------------------------------------------------------ malloc, free */
#define HEAP_DEFAULT (8ull << 20) /* cudaLimitMallocHeapSize's default */
#define HEAP_ALIGN 16u

int sc__heap_prepare(sc_gpu_t *g, const sc_module_t *m)
{
	sc_heap_t *h = &g->heap;
	(void)m;
	if (h->base)
		return 0;
	if (!h->want)
		h->want = HEAP_DEFAULT;
	int rc = sc_malloc(g, h->want, &h->base);
	if (rc)
		return h->base = 0, rc;
	h->size = h->want;
	return 0;
}

uint64_t sc__heap_hash(const sc_gpu_t *g)
{
	const sc_heap_t *h = &g->heap;
	uint64_t x = fnv(0xcbf29ce484222325ull, &h->n, sizeof h->n);
	return fnv(x, h->blk, h->n * sizeof *h->blk);
}

/* First fit: the offset of a new block of len bytes, or UINT64_MAX. */
static uint64_t heap_alloc(sc_heap_t *h, uint64_t len)
{
	if (h->n == h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 64;
		sc_hblk_t *nb = realloc(h->blk, cap * sizeof *nb);
		if (!nb)
			return UINT64_MAX;
		h->blk = nb;
		h->cap = cap;
	}
	uint64_t at = 0;
	uint32_t i = 0;
	for (; i < h->n && h->blk[i].off - at < len; i++)
		at = (h->blk[i].off + h->blk[i].len + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
	if (i == h->n && (at > h->size || h->size - at < len))
		return UINT64_MAX;
	memmove(&h->blk[i + 1], &h->blk[i], (h->n - i) * sizeof *h->blk);
	h->blk[i] = (sc_hblk_t){at, len};
	h->n++;
	return at;
}

/* Frees the block at offset off: false when no block starts there. */
static bool heap_free(sc_heap_t *h, uint64_t off)
{
	uint32_t lo = 0, hi = h->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (h->blk[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h->n || h->blk[lo].off != off)
		return false;
	memmove(&h->blk[lo], &h->blk[lo + 1], (h->n - lo - 1) * sizeof *h->blk);
	h->n--;
	return true;
}

/* malloc.u64 d, n and free.u64 p, lane by lane in lane order. malloc(0)
 * and a request the heap cannot hold give 0 (NULL), as on CUDA; free(0)
 * does nothing; freeing anything else than what malloc returned is DUE
 * illegal_address (a GPU's allocator would be corrupted). */
int sc__x_malloc_free(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	if (UNLIKELY(!sc__ext_valid(in)))
		return SC_X_BAD;
	if (!exec)
		return 1;
	sc_heap_t *h = &g->heap;
	sc_alu_t *x = &g->alu;
	bool is_malloc = in->op == SC_OP_MALLOC;
	sc__rd(g, sm, w, sc__opnd(in, is_malloc), exec, x->a);
	FOR_LANES(l, exec) {
		uint64_t v = x->a[l];
		if (is_malloc) {
			uint64_t off = v && h->base ? heap_alloc(h, v) : UINT64_MAX;
			x->d[l] = off == UINT64_MAX ? 0 : h->base + off;
		} else if (v && (!h->base || v < h->base || !heap_free(h, v - h->base))) {
			sc__due(g, SC_DUE_ILLEGAL_ADDRESS, sm, w, (int)l, caller_pc(w, d->pc), v,
			        "free(0x%llx): not a block malloc returned", (unsigned long long)v);
			return SC_X_HALT;
		}
	}
	if (is_malloc && !sc__wr(w, sc__opnd(in, 0), exec, x->d))
		return SC_X_BAD;
	return 1;
}

int sc_set_heap_size(sc_gpu_t *g, uint64_t bytes)
{
	if (!g || bytes == 0 || g->heap.base)
		return SC_EINVAL;
	g->heap.want = bytes;
	return 0;
}

uint64_t sc_heap_size(const sc_gpu_t *g)
{
	return g && g->heap.want ? g->heap.want : HEAP_DEFAULT;
}

/* ------------------------------------------------------------ flushing */
static int rec_cmp(const void *pa, const void *pb)
{
	const sc_printf_rec_t *a = pa, *b = pb;
	if (a->cta != b->cta)
		return a->cta < b->cta ? -1 : 1;
	if (a->wid != b->wid)
		return a->wid < b->wid ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->lane < b->lane ? -1 : a->lane > b->lane;
}

void sc__printf_flush(sc_gpu_t *g)
{
	sc_printf_t *pf = &g->pf;
	if (pf->nrec) {
		qsort(pf->rec, pf->nrec, sizeof *pf->rec, rec_cmp);
		FILE *f = pf->stream_set ? pf->stream : stdout;
		for (size_t i = 0; i < pf->nrec; i++) {
			const sc_printf_rec_t *r = &pf->rec[i];
			if (f)
				fwrite(pf->text + r->off, 1, r->len, f);
			if (!grow(&pf->out, &pf->out_cap, pf->out_len + r->len + 1))
				continue;
			memcpy(pf->out + pf->out_len, pf->text + r->off, r->len);
			pf->out_len += r->len;
			pf->out[pf->out_len] = 0;
		}
		if (f)
			fflush(f);
	}
	pf->nrec = 0;
	pf->len = 0;
	pf->seq = 0;
	pf->used = 0; /* hash goes on: it covers what earlier launches printed too */
}

void sc__printf_free(sc_gpu_t *g)
{
	free(g->pf.text);
	free(g->pf.rec);
	free(g->pf.out);
	memset(&g->pf, 0, sizeof g->pf);
}

/* ------------------------------------------------------------ public */
int sc_set_printf_fifo(sc_gpu_t *g, uint64_t bytes)
{
	if (!g || bytes == 0)
		return SC_EINVAL;
	g->pf.fifo_size = bytes;
	return 0;
}

uint64_t sc_printf_fifo(const sc_gpu_t *g)
{
	return g && g->pf.fifo_size ? g->pf.fifo_size : PRINTF_FIFO_DEFAULT;
}

void sc_set_printf_stream(sc_gpu_t *g, FILE *f)
{
	if (!g)
		return;
	g->pf.stream = f;
	g->pf.stream_set = true;
}

void sc_set_assert_stream(sc_gpu_t *g, FILE *f)
{
	if (!g)
		return;
	g->pf.astream = f;
	g->pf.astream_set = true;
}

const char *sc_printf_output(const sc_gpu_t *g, size_t *len)
{
	if (len)
		*len = g && g->pf.out ? g->pf.out_len : 0;
	return g && g->pf.out ? g->pf.out : "";
}
