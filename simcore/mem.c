/* Simulated global memory: a sorted list of allocations, each backed by its
 * own host buffer, with guard gaps between them so that an overrun lands
 * outside every allocation (DUE illegal_address). See sc_int.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sc_int.h"

#define ALLOC_ALIGN 256ull
#define ALLOC_GAP 4096ull
void *sc__map_huge(size_t *len)
{
	size_t keep = (*len + SC_HUGE_PAGE - 1) & ~(SC_HUGE_PAGE - 1), span = keep + SC_HUGE_PAGE;
	uint8_t *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	uint8_t *a = (uint8_t *)(((uintptr_t)p + SC_HUGE_PAGE - 1) & ~(uintptr_t)(SC_HUGE_PAGE - 1));
	size_t head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	if (span - head > keep)
		munmap(a + keep, span - head - keep);
#ifdef MADV_HUGEPAGE
	madvise(a, keep, MADV_HUGEPAGE); /* advice only: without it, 4 KiB pages */
#endif
	*len = keep;
	return a;
}

/* Zeroed host memory for an allocation of `bytes`. Large ones get a
 * mapping of their own on 2 MiB pages (sc__map_huge): filling a 16 MB
 * input then takes 8 page faults instead of 4,096 (*mapped: the mapping's
 * length); small ones come from calloc (*mapped = 0). NULL when out of
 * memory. */
static uint8_t *host_alloc(uint64_t bytes, size_t *mapped)
{
	*mapped = 0;
	if (bytes < 2 * SC_HUGE_PAGE)
		return calloc(1, bytes);
	size_t len = (size_t)bytes;
	uint8_t *a = sc__map_huge(&len);
	if (a)
		*mapped = len;
	return a;
}

static void host_free(sc_alloc_t *a)
{
	if (a->mapped)
		munmap(a->data, a->mapped);
	else
		free(a->data);
}

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
	size_t mapped;
	uint8_t *data = host_alloc(bytes, &mapped);
	if (!data)
		return SC_ENOMEM;
	if (g->next_base == 0)
		g->next_base = SC_GLOBAL_BASE;
	/* Addresses only grow, so the array stays sorted by appending. */
	uint64_t b = g->next_base;
	g->next_base = (b + bytes + ALLOC_GAP + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
	g->a[g->n++] = (sc_alloc_t){b, bytes, data, mapped};
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

uint64_t sc__gmem_layout(const sc_gmem_t *m)
{
	uint64_t sig = 0xcbf29ce484222325ull;
	for (uint32_t a = 0; a < m->n; a++)
		sig = (sig ^ m->a[a].base ^ (m->a[a].size << 20)) * 0x100000001b3ull;
	return sig;
}

/* ------------------------------------------------------------------ trace */

int sc__trace_on(sc_gpu_t *g, bool touch)
{
	if (!g->trace && !(g->trace = calloc(1, sizeof *g->trace)))
		return SC_ENOMEM;
	g->trace->touch |= touch;
	return 0;
}

void sc__trace_free(sc_gpu_t *g)
{
	sc_trace_t *t = g->trace;
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n; i++) {
		free(t->last[i]);
		free(t->wrote[i]);
	}
	free(t->last);
	free(t->wrote);
	free(t->lh);
	free(t);
	g->trace = NULL;
}

/* The marks of allocation i (lines of `size` bytes), allocated on first
 * use; NULL when out of memory (the trace is then broken). */
static uint64_t *marks(sc_trace_t *t, uint64_t **arr, uint32_t i, uint64_t size)
{
	if (!arr[i] && !(arr[i] = calloc((size + SC_LINE - 1) / SC_LINE, sizeof *arr[i])))
		t->broken = t->wbroken = true;
	return arr[i];
}

/* Room for the marks of every allocation there is. */
static bool cover(sc_gpu_t *g, sc_trace_t *t)
{
	uint32_t n = g->gmem.n;
	if (n <= t->n)
		return true;
	uint64_t **nl = realloc(t->last, (size_t)n * sizeof *nl);
	if (nl)
		t->last = nl;
	uint64_t **nw = nl ? realloc(t->wrote, (size_t)n * sizeof *nw) : NULL;
	if (!nw) {
		t->broken = t->wbroken = true;
		return false;
	}
	t->wrote = nw;
	memset(nl + t->n, 0, (size_t)(n - t->n) * sizeof *nl);
	memset(nw + t->n, 0, (size_t)(n - t->n) * sizeof *nw);
	t->n = n;
	return true;
}

/* Marks bytes [off, off + size) of allocation i written (write) and
 * touched (touch, when touches are recorded) at the current cycle. */
static void mark(sc_gpu_t *g, uint32_t i, uint64_t off, uint64_t size, bool write, bool touch)
{
	sc_trace_t *t = g->trace;
	touch = touch && t->touch;
	if (g->gmem.freed) { /* allocation indices moved under the trace */
		t->broken |= touch;
		t->wbroken |= write;
		return;
	}
	if (!cover(g, t))
		return;
	uint64_t asz = g->gmem.a[i].size, lo = off / SC_LINE, hi = (off + size - 1) / SC_LINE, stamp = g->cycle + 1;
	uint64_t *w = write && !t->wbroken ? marks(t, t->wrote, i, asz) : NULL;
	uint64_t *l = touch && !t->broken ? marks(t, t->last, i, asz) : NULL;
	for (uint64_t k = lo; w && k <= hi; k++)
		w[k] = stamp;
	for (uint64_t k = lo; l && k <= hi; k++)
		l[k] = stamp;
}

void sc__trace_mark(sc_gpu_t *g, uint64_t addr, uint32_t size, bool write)
{
	uint32_t i = g->gmem.hint; /* sc__gmem_find just found the allocation */
	mark(g, i, addr - g->gmem.a[i].base, size, write, true);
}

void sc__trace_wrote(sc_gpu_t *g, uint64_t addr, uint64_t bytes)
{
	if (!g->trace || !bytes)
		return;
	uint32_t i = g->gmem.hint; /* host_range's sc__gmem_find found it */
	mark(g, i, addr - g->gmem.a[i].base, bytes, true, false);
}

int sc__gmem_free(sc_gmem_t *g, uint64_t base)
{
	int i = find_index(g, base);
	if (i < 0 || g->a[i].base != base)
		return SC_EINVAL;
	host_free(&g->a[i]);
	memmove(&g->a[i], &g->a[i + 1], (g->n - (uint32_t)i - 1) * sizeof g->a[0]);
	g->freed = true;
	g->n--;
	g->hint = 0;
	return 0;
}

void sc__gmem_release(sc_gmem_t *g)
{
	for (uint32_t i = 0; i < g->n; i++)
		host_free(&g->a[i]);
	free(g->a);
	memset(g, 0, sizeof *g);
}

uint8_t *sc__gmem_find(sc_gmem_t *g, uint64_t addr, uint64_t bytes)
{
	uint8_t *p = sc__gmem_in(g, g->hint, addr, bytes);
	if (p)
		return p;
	int i = find_index(g, addr);
	if (i < 0)
		return NULL;
	const sc_alloc_t *a = &g->a[i];
	if (bytes > a->size - (addr - a->base))
		return NULL;
	g->hint = (uint32_t)i;
	return a->data + (addr - a->base);
}
