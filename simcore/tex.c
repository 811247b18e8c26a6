/* Textures and surfaces: the objects (sc_texture_create and the rest of
 * simcore.h's texture API) and the instructions tex, tld4, txq/suq, suld.b
 * and sust.b. The model, and where it departs from the hardware, is
 * docs/DESIGN.md ("Textures and surfaces").
 *
 * The words (rows TEX, TLD4, TXQ, SULD, SUST at the end of SC_OP_LIST;
 * lowering in ptx_parse.c's lower_tex). One word writes or stores at most
 * two components (six operands hold two destinations, the handle and
 * three coordinates), so a .v4 instruction is two words:
 *
 *   tex   d[, d2], h, c0..     type: the destinations' (f32 s32 u32)
 *   tld4  d[, d2], h, x, y     stype: the coordinates' (f32 s32)
 *   suld  d[, d2], h, c0..     type: the element (b8 .. b64)
 *   sust  h, c0.., v[, v2]     aux: log2 of the instruction's .v width
 *   txq   d, h                 sub: the query (SC_TXQ_SURF: suq)
 *
 * sub of the others (SC_TEX_SUB): bits 2..0 the geometry (SC_TEXG_*), 4..3
 * the first component of the word, 6..5 tld4's channel or the surface
 * out-of-range mode (SC_SURF_*). Coordinates by geometry: 1d {x}, 2d {x,
 * y}, 3d {x, y, z}, a1d {layer, x}, a2d {layer, x, y}; a surface's x is in
 * bytes, as PTX has it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sc_int.h"

/* ------------------------------------------------------------ objects */
uint32_t sc_chan_bytes(const sc_chan_desc_t *ch)
{
	unsigned b = ch->bits[0], n = 0;
	if (b != 8 && b != 16 && b != 32)
		return 0;
	if (ch->kind == SC_CHAN_FLOAT ? b == 8 : ch->kind != SC_CHAN_SIGNED && ch->kind != SC_CHAN_UNSIGNED)
		return 0;
	while (n < 4 && ch->bits[n] == b)
		n++;
	for (unsigned i = n; i < 4; i++)
		if (ch->bits[i])
			return 0;
	return n == 3 ? 0 : n * b / 8; /* the hardware has no 3-channel texels */
}

/* SC_EINVAL with `why` in g->errmsg (sc_gpu_errmsg). */
static int bad(sc_gpu_t *g, const char *why)
{
	snprintf(g->errmsg, sizeof g->errmsg, "%s", why);
	return SC_EINVAL;
}

static uint32_t at_least1(uint32_t n) { return n ? n : 1; }

/* The bytes of array a (0 for a bad description or extent). */
static uint64_t array_bytes(const sc_array_t *a)
{
	uint64_t tb = sc_chan_bytes(&a->ch);
	if (!tb || !a->width || ((a->flags & SC_ARRAY_LAYERED) && !a->depth) || (a->flags & ~SC_ARRAY_LAYERED))
		return 0;
	uint64_t n = tb * a->width * at_least1(a->height) * at_least1(a->depth); /* each factor < 2^32 */
	return n < (1ull << 40) && n / tb / a->width / at_least1(a->height) == at_least1(a->depth) ? n : 0;
}

int sc_array_alloc(sc_gpu_t *g, sc_array_t *a)
{
	uint64_t n = array_bytes(a);
	if (!n)
		return bad(g, "array: a channel description or extent the simulator does not take");
	return sc_malloc(g, n, &a->dptr);
}

int sc_array_free(sc_gpu_t *g, sc_array_t *a) { return sc_free(g, a->dptr); }

/* The object r describes, its memory checked to lie in one allocation. */
static int tobj_make(sc_gpu_t *g, const sc_resource_t *r, sc_tobj_t *o)
{
	memset(o, 0, sizeof *o);
	o->res = *r;
	const sc_chan_desc_t *ch = r->kind == SC_RES_ARRAY ? &r->array.ch : &r->ch;
	o->tbytes = sc_chan_bytes(ch);
	if (!o->tbytes)
		return bad(g, "texture: a channel description the simulator does not take");
	o->height = o->depth = 1;
	switch (r->kind) {
	case SC_RES_LINEAR:
		o->base = r->dptr;
		o->width = (uint32_t)(r->bytes / o->tbytes);
		o->pitch = o->slice = r->bytes;
		break;
	case SC_RES_PITCH2D:
		if (r->pitch < (uint64_t)r->width * o->tbytes)
			return bad(g, "texture: the pitch is less than a row's bytes");
		o->base = r->dptr;
		o->width = r->width;
		o->height = r->height;
		o->pitch = r->pitch;
		o->slice = r->pitch * r->height;
		break;
	case SC_RES_ARRAY:
		if (!array_bytes(&r->array))
			return bad(g, "texture: a bad array description");
		o->base = r->array.dptr;
		o->width = r->array.width;
		o->height = at_least1(r->array.height);
		o->depth = at_least1(r->array.depth);
		o->layered = (r->array.flags & SC_ARRAY_LAYERED) != 0;
		o->pitch = (uint64_t)o->width * o->tbytes;
		o->slice = o->pitch * o->height;
		break;
	default:
		return bad(g, "texture: an unknown resource kind");
	}
	if (!o->width || !o->height)
		return bad(g, "texture: an empty resource");
	uint64_t end = (o->depth - 1) * o->slice + (o->height - 1) * o->pitch + (uint64_t)o->width * o->tbytes;
	if (sc__gmem_find(&g->gmem, o->base, end))
		return 0;
	snprintf(g->errmsg, sizeof g->errmsg, "texture: [0x%llx, +%llu) is not inside one allocation",
	         (unsigned long long)o->base, (unsigned long long)end);
	return SC_EINVAL;
}

static int tobj_add(sc_gpu_t *g, const sc_tobj_t *o, uint64_t *handle)
{
	sc_tobjs_t *t = &g->tobj;
	uint32_t i = 0;
	while (i < t->n && t->o[i].kind != SC_TOBJ_FREE)
		i++;
	if (i == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 16;
		sc_tobj_t *n = realloc(t->o, cap * sizeof *n);
		if (!n)
			return SC_ENOMEM;
		t->o = n;
		t->cap = cap;
	}
	t->o[i] = *o;
	t->n += i == t->n;
	*handle = i + 1;
	return 0;
}

static const sc_tobj_t *tobj_get(const sc_gpu_t *g, uint64_t h, int kind)
{
	if (h == 0 || h > g->tobj.n || g->tobj.o[h - 1].kind != kind)
		return NULL;
	return &g->tobj.o[h - 1];
}

int sc_texture_create(sc_gpu_t *g, const sc_resource_t *r, const sc_tex_desc_t *d, uint64_t *handle)
{
	sc_tobj_t o;
	int rc = tobj_make(g, r, &o);
	if (rc)
		return rc;
	const sc_chan_desc_t *ch = r->kind == SC_RES_ARRAY ? &r->array.ch : &r->ch;
	for (int i = 0; i < 3; i++)
		if ((unsigned)d->addr[i] > SC_ADDR_BORDER)
			return bad(g, "texture: an unknown address mode");
	if ((unsigned)d->filter > SC_FILTER_LINEAR || (unsigned)d->read > SC_READ_NORMALIZED)
		return bad(g, "texture: an unknown filter or read mode");
	bool ints = ch->kind != SC_CHAN_FLOAT;
	if (ints && ch->bits[0] == 32 && d->read == SC_READ_NORMALIZED)
		return bad(g, "texture: a normalized read of 32-bit integers");
	if (ints && d->filter == SC_FILTER_LINEAR && d->read != SC_READ_NORMALIZED)
		return bad(g, "texture: linear filtering of integers read as integers");
	o.kind = SC_TOBJ_TEX;
	o.desc = *d;
	return tobj_add(g, &o, handle);
}

int sc_surface_create(sc_gpu_t *g, const sc_resource_t *r, uint64_t *handle)
{
	sc_tobj_t o;
	int rc = tobj_make(g, r, &o);
	if (rc)
		return rc;
	o.kind = SC_TOBJ_SURF;
	return tobj_add(g, &o, handle);
}

static int tobj_destroy(sc_gpu_t *g, uint64_t h, int kind)
{
	if (!tobj_get(g, h, kind))
		return bad(g, kind == SC_TOBJ_TEX ? "no such texture object" : "no such surface object");
	g->tobj.o[h - 1].kind = SC_TOBJ_FREE;
	return 0;
}

int sc_texture_destroy(sc_gpu_t *g, uint64_t h) { return tobj_destroy(g, h, SC_TOBJ_TEX); }
int sc_surface_destroy(sc_gpu_t *g, uint64_t h) { return tobj_destroy(g, h, SC_TOBJ_SURF); }

int sc_texture_info(const sc_gpu_t *g, uint64_t h, sc_resource_t *r, sc_tex_desc_t *d)
{
	const sc_tobj_t *o = tobj_get(g, h, SC_TOBJ_TEX);
	if (!o && !(o = tobj_get(g, h, SC_TOBJ_SURF)))
		return SC_EINVAL;
	if (r)
		*r = o->res;
	if (d)
		*d = o->desc;
	return 0;
}

void sc__tobj_free(sc_gpu_t *g)
{
	free(g->tobj.o);
	g->tobj = (sc_tobjs_t){0};
}

/* ------------------------------------------------------------ names */
static const struct {
	const char *w;
	uint8_t nc;
} geoms[SC_TEXG__COUNT] = {{"1d", 1}, {"2d", 2}, {"3d", 3}, {"a1d", 2}, {"a2d", 3}};

int sc__tex_geom(const char *word, unsigned *ncoord)
{
	for (int i = 0; i < SC_TEXG__COUNT; i++)
		if (!strcmp(word, geoms[i].w)) {
			*ncoord = geoms[i].nc;
			return i;
		}
	return -1;
}

const char *sc__tex_geom_name(unsigned g) { return g < SC_TEXG__COUNT ? geoms[g].w : "?"; }

/* The queries of txq (t) and suq (s). */
#define QUERY_LIST(X)                                                                                               \
	X(WIDTH, "width", 3) X(HEIGHT, "height", 3) X(DEPTH, "depth", 3) X(CTYPE, "channel_data_type", 3)             \
	X(CORDER, "channel_order", 3) X(NORM, "normalized_coords", 1) X(FILTER, "filter_mode", 1)                   \
	X(ADDR0, "addr_mode_0", 1) X(ADDR1, "addr_mode_1", 1) X(ADDR2, "addr_mode_2", 1) X(ASIZE, "array_size", 3) \
	X(LEVELS, "num_mipmap_levels", 1) X(SAMPLES, "num_samples", 1) X(LAYOUT, "memory_layout", 2)
enum {
#define X(n, w, who) Q_##n,
	QUERY_LIST(X)
#undef X
	Q__COUNT
};
static const struct {
	const char *w;
	uint8_t who; /* bit 0 txq, bit 1 suq */
} queries[Q__COUNT] = {
#define X(n, w, who) {w, who},
	QUERY_LIST(X)
#undef X
};

int sc__tex_query(const char *word, bool surface)
{
	for (int i = 0; i < Q__COUNT; i++)
		if (!strcmp(word, queries[i].w) && (queries[i].who & (surface ? 2u : 1u)))
			return i;
	return -1;
}

const char *sc__tex_query_name(unsigned q) { return q < Q__COUNT ? queries[q].w : "?"; }

/* ------------------------------------------------------------ validity */
static bool dst_ok(uint16_t o)
{
	unsigned k = SC_OPND_KIND(o);
	return k == SC_K_NONE || k == SC_K_R32 || k == SC_K_R64;
}

bool sc__tex_valid(const sc_insn_t *in)
{
	unsigned nd = SC_NDST(in), ns = SC_NSRC(in), g = SC_TEX_GEOM(in->sub), c = SC_TEX_COMP(in->sub);
	unsigned x = SC_TEX_X(in->sub), vec = SC_AUX_VEC(in->aux), t = in->type;
	if (in->op == SC_OP_TXQ) {
		unsigned q = in->sub & ~SC_TXQ_SURF;
		return t == SC_T_B32 && nd == 1 && ns == 1 && dst_ok(in->opnd[0]) && q < Q__COUNT &&
		       (queries[q].who & ((in->sub & SC_TXQ_SURF) ? 2u : 1u));
	}
	if (g >= SC_TEXG__COUNT || (in->sub & 0x80u) || vec > 4)
		return false;
	unsigned nc = geoms[g].nc, k = in->op == SC_OP_SUST ? ns - 1 - nc : nd;
	if (k < 1 || k > 2 || c + k > vec || ns < 1 + nc)
		return false;
	for (unsigned j = 0; j < nd; j++)
		if (!dst_ok(in->opnd[j]))
			return false;
	switch (in->op) {
	case SC_OP_TEX:
		return (t == SC_T_F32 || t == SC_T_S32 || t == SC_T_U32) && (in->stype == SC_T_F32 || in->stype == SC_T_S32) &&
		       vec == 4 && x == 0 && ns == 1 + nc;
	case SC_OP_TLD4:
		return (t == SC_T_F32 || t == SC_T_S32 || t == SC_T_U32) && in->stype == SC_T_F32 && vec == 4 &&
		       g == SC_TEXG_2D && ns == 1 + nc;
	case SC_OP_SULD: case SC_OP_SUST:
		return t >= SC_T_B8 && t <= SC_T_B64 && x <= SC_SURF_ZERO && (in->op == SC_OP_SUST ? nd == 0 : ns == 1 + nc);
	}
	return false;
}

/* ------------------------------------------------------------ sampling */
/* A texel's four components: values as floats (isf) or 32-bit integers. */
typedef struct texel {
	float f[4];
	uint32_t u[4];
} texel_t;

/* The executing context a fetch needs for its DUEs. */
typedef struct ctx {
	sc_gpu_t *g;
	sc_sm_t *sm;
	sc_warp_t *w;
	uint32_t pc, lane;
	const sc_tobj_t *o;
	bool isf;        /* the texture returns floats */
	uint64_t first;  /* the address of the lane's first texel read (the access's timing) */
	bool any;
} ctx_t;

static bool read_mem(ctx_t *x, uint64_t a, void *dst, uint32_t n)
{
	const uint8_t *p = sc__gmem_find(&x->g->gmem, a, n);
	if (UNLIKELY(!p)) {
		sc__due(x->g, SC_DUE_ILLEGAL_ADDRESS, x->sm, x->w, (int)x->lane, x->pc, a,
		        "%u-byte texture or surface read at 0x%llx is outside every allocation (memory freed under the object?)",
		        n, (unsigned long long)a);
		return false;
	}
	if (UNLIKELY(x->g->trace != NULL))
		sc__trace_touch(x->g, a, n, false);
	memcpy(dst, p, n);
	/* a fault in the caches that serve texels (cachefault.c) */
	return !UNLIKELY(x->g->ms.nover) || sc__ovl_texel(x->g, x->sm, x->w, a, dst, n);
}

/* The texel at (i, j, k), each already in range, into t. */
static bool fetch(ctx_t *x, uint32_t i, uint32_t j, uint32_t k, texel_t *t)
{
	const sc_tobj_t *o = x->o;
	const sc_chan_desc_t *ch = o->res.kind == SC_RES_ARRAY ? &o->res.array.ch : &o->res.ch;
	uint64_t a = o->base + k * o->slice + j * o->pitch + (uint64_t)i * o->tbytes;
	uint8_t raw[16];
	if (!read_mem(x, a, raw, o->tbytes))
		return false;
	if (!x->any) {
		x->first = a;
		x->any = true;
	}
	unsigned b = ch->bits[0], n = o->tbytes * 8 / b;
	bool norm = o->desc.read == SC_READ_NORMALIZED && ch->kind != SC_CHAN_FLOAT;
	for (unsigned c = 0; c < 4; c++) {
		uint32_t v = 0;
		if (c >= n) {
			t->u[c] = c == 3;
			t->f[c] = c == 3 ? 1.0f : 0.0f;
			continue;
		}
		memcpy(&v, raw + c * b / 8, b / 8);
		if (ch->kind == SC_CHAN_FLOAT) {
			t->f[c] = b == 16 ? sc__half_to_float((uint16_t)v) : sc__f32_of(v);
			continue;
		}
		if (ch->kind == SC_CHAN_SIGNED && b < 32)
			v = (uint32_t)((int32_t)(v << (32 - b)) >> (32 - b));
		t->u[c] = v;
		if (norm && ch->kind == SC_CHAN_SIGNED)
			t->f[c] = fmaxf((float)(int32_t)v / (float)((1u << (b - 1)) - 1), -1.0f);
		else if (norm)
			t->f[c] = (float)v / (float)((1u << b) - 1);
	}
	return true;
}

/* Index i of an axis of n texels under addressing mode m: the texel's
 * index, or -1 for the border. Wrap and mirror need normalized
 * coordinates (else clamp, as CUDA does); linear memory has no
 * addressing: outside it is the border, zeros. */
static int64_t address(int64_t i, uint32_t n, int m, const sc_tobj_t *o)
{
	if (o->res.kind == SC_RES_LINEAR)
		m = SC_ADDR_BORDER;
	else if (!o->desc.normalized && (m == SC_ADDR_WRAP || m == SC_ADDR_MIRROR))
		m = SC_ADDR_CLAMP;
	switch (m) {
	case SC_ADDR_WRAP:
		i %= n;
		return i < 0 ? i + n : i;
	case SC_ADDR_MIRROR: {
		int64_t p = 2 * (int64_t)n;
		i %= p;
		i = i < 0 ? i + p : i;
		return i < n ? i : p - 1 - i;
	}
	case SC_ADDR_CLAMP: return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
	return i < 0 || i >= n ? -1 : i;
}

/* One axis of a coordinate: the lower texel and the weight of the next
 * (linear filtering: 8 fractional bits, as the hardware's 9-bit weights). */
typedef struct axis {
	int64_t i;
	float a;
} axis_t;

static axis_t axis_of(uint64_t c, bool fcoord, uint32_t n, bool norm, bool linear)
{
	if (!fcoord)
		return (axis_t){(int32_t)c, 0.0f};
	float f = sc__f32_of(c);
	if (isnan(f))
		f = 0.0f;
	if (norm)
		f *= (float)n;
	if (linear)
		f -= 0.5f;
	f = fminf(fmaxf(f, -1073741824.0f), 1073741824.0f);
	float fl = floorf(f);
	float a = linear ? roundf((f - fl) * 256.0f) / 256.0f : 0.0f;
	return (axis_t){(int64_t)fl, a};
}

/* The texel at corner (di, dj, dk) of the footprint, with its addressing:
 * the border color outside. */
static bool corner(ctx_t *x, const axis_t *ax, unsigned dims, const unsigned d[3], int64_t layer, texel_t *t)
{
	const sc_tobj_t *o = x->o;
	uint32_t size[3] = {o->width, o->height, o->depth};
	int64_t idx[3] = {0, 0, layer};
	for (unsigned a = 0; a < dims; a++) {
		idx[a] = address(ax[a].i + d[a], size[a], o->desc.addr[a], o);
		if (idx[a] < 0) {
			bool zero = o->res.kind == SC_RES_LINEAR;
			for (unsigned c = 0; c < 4; c++) {
				float b = zero ? 0.0f : o->desc.border[c];
				t->f[c] = b;
				t->u[c] = !(fabsf(b) < 2147483648.0f) ? (b > 0 ? INT32_MAX : (uint32_t)INT32_MIN) : (uint32_t)(int32_t)b;
			}
			return true;
		}
	}
	return fetch(x, (uint32_t)idx[0], (uint32_t)idx[1], (uint32_t)idx[2], t);
}

/* The axes of a lane's coordinates c[] for the word's geometry: how many
 * are filtered, and the layer (or 0). */
static unsigned axes(const ctx_t *x, unsigned geom, const uint64_t *c, bool fcoord, bool linear, axis_t ax[3],
                     int64_t *layer)
{
	const sc_tobj_t *o = x->o;
	bool norm = o->desc.normalized && fcoord;
	uint32_t size[3] = {o->width, o->height, o->depth};
	bool arr = geom == SC_TEXG_A1D || geom == SC_TEXG_A2D;
	unsigned dims = geom == SC_TEXG_3D ? 3 : geom == SC_TEXG_2D || geom == SC_TEXG_A2D ? 2 : 1;
	*layer = 0;
	if (arr) { /* the layer: an integer, clamped */
		int64_t l = (int32_t)c[0];
		*layer = l < 0 ? 0 : l >= o->depth ? o->depth - 1 : l;
		c++;
	}
	for (unsigned a = 0; a < dims; a++)
		ax[a] = axis_of(c[a], fcoord, size[a], norm, linear);
	return dims;
}

/* tex for one lane: the four components' 32-bit results. */
static bool sample(ctx_t *x, const sc_insn_t *in, const uint64_t *c, uint32_t r[4])
{
	const sc_tobj_t *o = x->o;
	bool fc = in->stype == SC_T_F32, linear = fc && o->desc.filter == SC_FILTER_LINEAR;
	axis_t ax[3];
	int64_t layer;
	unsigned dims = axes(x, SC_TEX_GEOM(in->sub), c, fc, linear, ax, &layer);
	float f[4] = {0, 0, 0, 0};
	texel_t t;
	for (unsigned k = 0; k < (linear ? 1u << dims : 1u); k++) {
		unsigned d[3] = {k & 1u, (k >> 1) & 1u, (k >> 2) & 1u};
		float wgt = 1.0f;
		for (unsigned a = 0; a < dims && linear; a++)
			wgt *= d[a] ? ax[a].a : 1.0f - ax[a].a;
		if (!corner(x, ax, dims, d, layer, &t))
			return false;
		for (unsigned ch = 0; ch < 4 && linear; ch++)
			f[ch] += wgt * t.f[ch];
	}
	for (unsigned ch = 0; ch < 4; ch++)
		r[ch] = !x->isf ? t.u[ch] : sc__bits32(linear ? f[ch] : t.f[ch]);
	return true;
}

/* tld4 for one lane: channel ch of the bilinear footprint's texels, in
 * the order (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
static bool gather(ctx_t *x, const sc_insn_t *in, const uint64_t *c, uint32_t r[4])
{
	static const unsigned order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	axis_t ax[3];
	int64_t layer;
	unsigned dims = axes(x, SC_TEXG_2D, c, true, true, ax, &layer), ch = SC_TEX_X(in->sub);
	for (unsigned k = 0; k < 4; k++) {
		unsigned d[3] = {order[k][0], order[k][1], 0};
		texel_t t;
		if (!corner(x, ax, dims, d, layer, &t))
			return false;
		r[k] = x->isf ? sc__bits32(t.f[ch]) : t.u[ch];
	}
	return true;
}

/* txq/suq's value for object o. OpenCL's channel type and order codes,
 * CUDA's numbering of the modes. */
static uint32_t query(const sc_tobj_t *o, unsigned q)
{
	const sc_chan_desc_t *ch = o->res.kind == SC_RES_ARRAY ? &o->res.array.ch : &o->res.ch;
	unsigned b = ch->bits[0], n = o->tbytes * 8 / b;
	bool norm = o->kind == SC_TOBJ_TEX && o->desc.read == SC_READ_NORMALIZED;
	switch (q) {
	case Q_WIDTH: return o->width;
	case Q_HEIGHT: return o->height;
	case Q_DEPTH: return o->layered ? 1 : o->depth;
	case Q_CTYPE:
		if (ch->kind == SC_CHAN_FLOAT)
			return b == 16 ? 0x10DD : 0x10DE;
		if (norm && b < 32)
			return (ch->kind == SC_CHAN_SIGNED ? 0x10D0 : 0x10D2) + (b == 16);
		return (ch->kind == SC_CHAN_SIGNED ? 0x10D7 : 0x10DA) + (b == 16) + 2 * (b == 32);
	case Q_CORDER: return n == 1 ? 0x10B0 : n == 2 ? 0x10B2 : n == 3 ? 0x10B4 : 0x10B5;
	case Q_NORM: return o->desc.normalized;
	case Q_FILTER: return o->desc.filter;
	case Q_ADDR0: case Q_ADDR1: case Q_ADDR2: return o->desc.addr[q - Q_ADDR0];
	case Q_ASIZE: return o->layered ? o->depth : 0;
	case Q_LEVELS: case Q_SAMPLES: return 1;
	case Q_LAYOUT: return o->res.kind != SC_RES_ARRAY;
	}
	return 0;
}

/* ------------------------------------------------------------ surfaces */
/* The address of a lane's suld/sust part (this word's components) after
 * the out-of-range mode: false after a DUE, *skip for .zero outside. */
static bool surf_addr(ctx_t *x, const sc_insn_t *in, const uint64_t *c, uint64_t *addr, bool *skip)
{
	const sc_tobj_t *o = x->o;
	unsigned geom = SC_TEX_GEOM(in->sub), mode = SC_TEX_X(in->sub);
	unsigned eb = sc__type_bits(in->type) / 8, size = eb * SC_AUX_VEC(in->aux);
	bool arr = geom == SC_TEXG_A1D || geom == SC_TEXG_A2D;
	unsigned dims = geom == SC_TEXG_3D ? 3 : geom == SC_TEXG_2D || geom == SC_TEXG_A2D ? 2 : 1;
	int64_t v[3] = {0, 0, arr ? (int32_t)c[0] : 0};
	int64_t hi[3] = {(int64_t)o->width * o->tbytes - size, (int64_t)o->height - 1, (int64_t)o->depth - 1};
	for (unsigned a = 0; a < dims; a++)
		v[a] = (int32_t)c[a + arr];
	*skip = false;
	for (unsigned a = 0; a < 3; a++) {
		if (v[a] >= 0 && v[a] <= hi[a])
			continue;
		if (mode == SC_SURF_ZERO) {
			*skip = true;
			return true;
		}
		if (mode == SC_SURF_TRAP) {
			sc__due(x->g, SC_DUE_ILLEGAL_ADDRESS, x->sm, x->w, (int)x->lane, x->pc, 0,
			        "surface access at (%lld, %lld, %lld) (x in bytes) is outside the %ux%ux%u surface of %u-byte "
			        "elements", (long long)v[0], (long long)v[1], (long long)v[2], o->width, o->height, o->depth,
			        o->tbytes);
			return false;
		}
		v[a] = v[a] < 0 || hi[a] < 0 ? 0 : hi[a] - (a == 0 ? hi[a] % size : 0);
	}
	if (UNLIKELY(v[0] % size)) {
		sc__due(x->g, SC_DUE_MISALIGNED_ADDRESS, x->sm, x->w, (int)x->lane, x->pc, 0,
		        "surface access of %u bytes at x = %lld bytes is not aligned", size, (long long)v[0]);
		return false;
	}
	*addr = o->base + (uint64_t)v[2] * o->slice + (uint64_t)v[1] * o->pitch + (uint64_t)v[0] +
	        SC_TEX_COMP(in->sub) * eb;
	return true;
}

/* suld/sust of the lanes in exec whose addresses surf_addr gave (act):
 * through the caches' fault overlay and DRAM image as ld/st go. */
static uint32_t surf_access(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t pc,
                            uint32_t act, const uint64_t *addr, uint64_t v[2][32])
{
	unsigned eb = sc__type_bits(in->type) / 8, nc = geoms[SC_TEX_GEOM(in->sub)].nc;
	unsigned k = in->op == SC_OP_SUST ? SC_NSRC(in) - 1u - nc : SC_NDST(in);
	bool st = in->op == SC_OP_SUST;
	for (int pass = 0; pass < 2; pass++) {
		FOR_LANES(l, act) {
			uint8_t *p = sc__gmem_find(&g->gmem, addr[l], eb * k);
			if (UNLIKELY(!p)) {
				sc__due(g, SC_DUE_ILLEGAL_ADDRESS, sm, w, (int)l, pc, addr[l],
				        "%u-byte surface access at 0x%llx is outside every allocation (memory freed under the object?)",
				        eb * k, (unsigned long long)addr[l]);
				return 0;
			}
			if (UNLIKELY(g->trace != NULL))
				sc__trace_touch(g, addr[l], eb * k, st);
			if (st && UNLIKELY(g->ms.dimg))
				sc__dimg_store(g, addr[l], eb * k);
			for (unsigned e = 0; e < k; e++) {
				uint64_t x = 0;
				if (st)
					memcpy(p + e * eb, &v[e][l], eb);
				else
					memcpy(&x, p + e * eb, eb);
				if (!st)
					v[e][l] = x;
			}
		}
		if (st || pass || !UNLIKELY(g->ms.nover) || !sc__ovl_load(g, sm, w, SC_SP_GLOBAL, addr, 0, act, eb * k))
			break;
	}
	if (!st && UNLIKELY(g->ms.nover))
		sc__ovl_unpatch(g);
	if (st && UNLIKELY(g->ms.nover))
		sc__ovl_store(g, sm, w, SC_SP_GLOBAL, addr, 0, act, eb * k);
	return act ? sc__mem_time(g, sm, w, SC_SP_GLOBAL, st ? SC_OP_ST : SC_OP_LD, addr, 0, act, eb * k, NULL) : 1;
}

/* ------------------------------------------------------------ the handler */
int sc__x_tex(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)
{
	const sc_insn_t *in = d->in;
	if (UNLIKELY(!sc__tex_valid(in))) /* a word a fault made */
		return SC_X_BAD;
	if (!exec)
		return 1;
	unsigned nd = SC_NDST(in), nc = in->op == SC_OP_TXQ ? 0 : geoms[SC_TEX_GEOM(in->sub)].nc;
	uint64_t h[32], c[3][32] = {{0}}, v[2][32], addr[32] = {0};
	sc__rd(g, sm, w, sc__opnd(in, nd), exec, h);
	for (unsigned a = 0; a < nc; a++)
		sc__rd(g, sm, w, sc__opnd(in, nd + 1 + a), exec, c[a]);
	bool st = in->op == SC_OP_SUST, surf = st || in->op == SC_OP_SULD;
	unsigned k = st ? SC_NSRC(in) - 1 - nc : nd;
	for (unsigned e = 0; st && e < k; e++)
		sc__rd(g, sm, w, sc__opnd(in, 1 + nc + e), exec, v[e]);
	int kind = surf || (in->op == SC_OP_TXQ && (in->sub & SC_TXQ_SURF)) ? SC_TOBJ_SURF : SC_TOBJ_TEX;
	uint32_t act = 0;
	FOR_LANES(l, exec) {
		ctx_t x = {g, sm, w, d->pc, l, tobj_get(g, h[l], kind), false, 0, false};
		if (UNLIKELY(!x.o)) {
			sc__due(g, SC_DUE_INVALID_HANDLE, sm, w, (int)l, d->pc, 0, "%s on handle %llu, which names no %s object",
			        sc__ops[in->op].name, (unsigned long long)h[l], kind == SC_TOBJ_TEX ? "texture" : "surface");
			return SC_X_HALT;
		}
		const sc_chan_desc_t *ch = x.o->res.kind == SC_RES_ARRAY ? &x.o->res.array.ch : &x.o->res.ch;
		x.isf = ch->kind == SC_CHAN_FLOAT || (x.o->desc.read == SC_READ_NORMALIZED && ch->bits[0] < 32);
		uint64_t cl[3] = {c[0][l], c[1][l], c[2][l]};
		uint32_t r[4];
		if (in->op == SC_OP_TXQ) {
			v[0][l] = query(x.o, in->sub & ~SC_TXQ_SURF);
			continue;
		}
		if (surf) {
			bool skip;
			if (!surf_addr(&x, in, cl, &addr[l], &skip))
				return SC_X_HALT;
			for (unsigned e = 0; !st && skip && e < k; e++)
				v[e][l] = 0;
			act |= (uint32_t)!skip << l;
			continue;
		}
		if (!(in->op == SC_OP_TEX ? sample(&x, in, cl, r) : gather(&x, in, cl, r)))
			return SC_X_HALT;
		for (unsigned e = 0; e < k; e++)
			v[e][l] = r[SC_TEX_COMP(in->sub) + e];
		addr[l] = x.first;
		act |= (uint32_t)x.any << l;
	}
	uint32_t lat = g->cfg.latency[SC_LAT_INT]; /* txq; a fetch that reads only the border */
	if (surf)
		lat = surf_access(g, sm, w, in, d->pc, act, addr, v);
	else if (act)
		lat = sc__tex_time(g, sm, w, addr, act);
	if (g->run.halt)
		return SC_X_HALT;
	for (unsigned e = 0; !st && e < k; e++)
		if (!sc__wr(w, sc__opnd(in, e), exec, v[e]))
			return SC_X_BAD;
	return (int)(lat ? lat : 1);
}
