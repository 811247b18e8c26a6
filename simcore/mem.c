/* Simulated global memory: a sorted list of allocations, each backed by its
 * own host buffer, with guard gaps between them so that an overrun lands
 * outside every allocation (DUE illegal_address). See sc_int.h. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

#define ALLOC_ALIGN 256ull
#define ALLOC_GAP 4096ull

int sc__gmem_alloc(sc_gmem_t *g, uint64_t bytes, uint64_t *base)
{
	if (bytes == 0)
		bytes = 1;
	if (bytes > (1ull << 40))
		return SC_EINVAL;
	if (g->n == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 16;
		sc_alloc_t *a = realloc(g->a, cap * sizeof *a);
		if (!a)
			return SC_ENOMEM;
		g->a = a;
		g->cap = cap;
	}
	uint8_t *data = calloc(1, bytes);
	if (!data)
		return SC_ENOMEM;
	if (g->next_base == 0)
		g->next_base = SC_GLOBAL_BASE;
	/* Addresses only grow, so the array stays sorted by appending. */
	uint64_t b = g->next_base;
	g->next_base = (b + bytes + ALLOC_GAP + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
	g->a[g->n++] = (sc_alloc_t){b, bytes, data};
	*base = b;
	return 0;
}

static int find_index(const sc_gmem_t *g, uint64_t addr)
{
	uint32_t lo = 0, hi = g->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (g->a[mid].base + g->a[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < g->n && addr >= g->a[lo].base)
		return (int)lo;
	return -1;
}

uint32_t sc__gmem_nlines(const sc_gmem_t *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < m->n; i++)
		n += (m->a[i].size + SC_LINE - 1) / SC_LINE;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void sc__trace_touch(sc_gpu_t *g, uint64_t addr, uint32_t size)
{
	sc_trace_t *t = g->trace;
	uint32_t i = g->gmem.hint; /* sc__gmem_find just found the allocation */
	const sc_alloc_t *a = &g->gmem.a[i];
	if (t->broken || g->gmem.freed) {
		t->broken = true; /* allocation indices moved under the trace */
		return;
	}
	if (i >= t->n) {
		uint64_t **nl = realloc(t->last, (size_t)g->gmem.n * sizeof *nl);
		if (!nl) {
			t->broken = true;
			return;
		}
		memset(nl + t->n, 0, (size_t)(g->gmem.n - t->n) * sizeof *nl);
		t->last = nl;
		t->n = g->gmem.n;
	}
	if (!t->last[i] && !(t->last[i] = calloc((a->size + SC_LINE - 1) / SC_LINE, sizeof **t->last))) {
		t->broken = true;
		return;
	}
	uint64_t off = addr - a->base;
	for (uint64_t l = off / SC_LINE; l <= (off + size - 1) / SC_LINE; l++)
		t->last[i][l] = g->cycle + 1;
}

int sc__gmem_free(sc_gmem_t *g, uint64_t base)
{
	int i = find_index(g, base);
	if (i < 0 || g->a[i].base != base)
		return SC_EINVAL;
	free(g->a[i].data);
	memmove(&g->a[i], &g->a[i + 1], (g->n - (uint32_t)i - 1) * sizeof g->a[0]);
	g->freed = true;
	g->n--;
	g->hint = 0;
	return 0;
}

void sc__gmem_release(sc_gmem_t *g)
{
	for (uint32_t i = 0; i < g->n; i++)
		free(g->a[i].data);
	free(g->a);
	memset(g, 0, sizeof *g);
}

uint8_t *sc__gmem_find(sc_gmem_t *g, uint64_t addr, uint64_t bytes)
{
	if (g->hint < g->n) {
		const sc_alloc_t *a = &g->a[g->hint];
		if (addr >= a->base && addr - a->base <= a->size && bytes <= a->size - (addr - a->base))
			return a->data + (addr - a->base);
	}
	int i = find_index(g, addr);
	if (i < 0)
		return NULL;
	const sc_alloc_t *a = &g->a[i];
	if (bytes > a->size - (addr - a->base))
		return NULL;
	g->hint = (uint32_t)i;
	return a->data + (addr - a->base);
}
