/* The SMs' most-written state as three mappings per GPU, shared across the
 * injection runtime's fork()s so that neither side copies it on write.
 * Design: sc_int.h, "SM state across fork()". Linux only (mremap). */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sc_int.h"

#define MAP_PROT (PROT_READ | PROT_WRITE)

/* The GPUs of this process whose state is MAP_SHARED (linked through
 * smap.next), for the fork handler, which has no other way to find them:
 * a process-wide list, since fork() is. Guarded by map_lock, which the
 * prepare handler holds across fork() so that the child sees a list
 * nobody was changing. */
static sc_gpu_t *shared_gpus;
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t map_once = PTHREAD_ONCE_INIT;

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (n + pg - 1) / pg * pg;
}

static void *map_new(size_t len, bool shared)
{
	void *p = mmap(NULL, len, MAP_PROT, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Replaces m by a new zeroed mapping of at least `bytes` (shared as the
 * GPU's state is); *old gets the previous one for the caller to copy from
 * and unmap. 0 or SC_ENOMEM (m unchanged). */
static int replace(sc_shmap_t *m, bool shared, size_t bytes, sc_shmap_t *old)
{
	/* a private mapping of 1 MiB or more on 2 MiB pages (sc__map_huge): a
	 * GTX480's register files are 1.9 MB, read all over by every cycle's
	 * warps, and 4 KiB pages make most register reads a TLB miss. Shared
	 * mappings (shmem has no such advice by default) and the children's
	 * copies keep 4 KiB pages. */
	size_t len = page_round(bytes ? bytes : 1);
	void *base = !shared && len >= SC_HUGE_PAGE / 2 ? sc__map_huge(&len) : map_new(len, shared);
	if (!base)
		return SC_ENOMEM;
	*old = *m;
	m->base = base;
	m->len = len;
	m->shared = shared;
	return 0;
}

static void drop(sc_shmap_t *m)
{
	if (m->base)
		munmap(m->base, m->len);
	if (m->spare)
		munmap(m->spare, m->spare_len);
	*m = (sc_shmap_t){0};
}

/* Every SM's file resized to `words` in a new mapping of `words` per SM;
 * every SM pointed at its slice. */
static int rf_remap(sc_gpu_t *g, uint64_t words)
{
	sc_shmap_t *m = &g->smap.m[SC_MAP_RF], old;
	size_t bytes = (size_t)g->cfg.num_sms * words * sizeof(uint32_t);
	int rc = replace(m, g->smap.share, bytes, &old);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		g->sms[i].rf = (uint32_t *)m->base + i * words;
		g->sms[i].rf_words = (uint32_t)words;
	}
	g->smap.rf_stride = words;
	if (old.base) /* (the spare stays: sc__state_arm remakes one of the wrong size) */
		munmap(old.base, old.len);
	return 0;
}

/* The files' words are not kept across a resize, nor zeroed: between
 * launches nothing reads them, and every CTA zeroes its window when it
 * starts (fault.c's targets and state hash read only resident CTAs'
 * windows). */
int sc__rf_map(sc_gpu_t *g, uint64_t words)
{
	if (g->smap.m[SC_MAP_RF].base && words <= g->smap.rf_stride) {
		for (uint32_t i = 0; i < g->cfg.num_sms; i++)
			g->sms[i].rf_words = (uint32_t)words;
		return 0;
	}
	pthread_mutex_lock(&map_lock); /* no fork() sees half a mapping */
	int rc = rf_remap(g, words);
	pthread_mutex_unlock(&map_lock);
	return rc;
}

void *sc__state_map(sc_gpu_t *g, int which, size_t bytes)
{
	sc_shmap_t *m = &g->smap.m[which], old;
	if (m->base && m->len >= bytes) /* big enough: kept as it is */
		return m->base;
	pthread_mutex_lock(&map_lock);
	int rc = replace(m, g->smap.share, bytes, &old);
	if (!rc && old.base)
		munmap(old.base, old.len);
	pthread_mutex_unlock(&map_lock);
	return rc ? NULL : m->base;
}

void sc__state_unmap(sc_gpu_t *g)
{
	sc_statemap_t *s = &g->smap;
	pthread_mutex_lock(&map_lock);
	for (sc_gpu_t **p = &shared_gpus; *p; p = &(*p)->smap.next)
		if (*p == g) {
			*p = s->next;
			break;
		}
	for (int i = 0; i < SC_MAP__COUNT; i++)
		drop(&s->m[i]);
	s->share = s->armed = false;
	pthread_mutex_unlock(&map_lock);
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++)
		g->sms[i].rf = NULL;
}

/* m's pages replaced, at the same address, by `own` (a mapping of m->len
 * bytes holding what m should hold): pointers into m stay valid. Falls
 * back to a private copy in place; false when not even that can be had. */
static bool move_over(sc_shmap_t *m, void *own, bool own_shared)
{
	if (mremap(own, m->len, m->len, MREMAP_MAYMOVE | MREMAP_FIXED, m->base) != MAP_FAILED) {
		m->shared = own_shared;
		return true;
	}
	void *keep = map_new(m->len, false);
	if (!keep)
		return false;
	memcpy(keep, own, m->len);
	if (mmap(m->base, m->len, MAP_PROT, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return false;
	memcpy(m->base, keep, m->len);
	munmap(keep, m->len);
	m->shared = false;
	return true;
}

/* In a child, at once: a shared mapping becomes the child's own, at the
 * same address: the spare's pages when the runtime armed this fork (they
 * hold the mapping as fork() found it), else a private copy. The parent's
 * spare is never the child's to use again. A child that cannot get its own
 * copy would write its parent's state: it exits. */
static void own_copy(sc_shmap_t *m, bool armed)
{
	bool spare = armed && m->spare && m->spare_len == m->len;
	void *own = spare ? m->spare : m->shared ? map_new(m->len, false) : NULL;
	if (m->spare && !spare)
		munmap(m->spare, m->spare_len);
	m->spare = NULL;
	m->spare_len = 0;
	if (!m->shared || !m->base)
		return;
	if (!own)
		_exit(1);
	if (!spare)
		memcpy(own, m->base, m->len);
	if (!move_over(m, own, spare))
		_exit(1);
}

static void fork_prepare(void) { pthread_mutex_lock(&map_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&map_lock); }

static void fork_child(void)
{
	for (sc_gpu_t **p = &shared_gpus; *p;) {
		sc_statemap_t *s = &(*p)->smap;
		bool still = false;
		for (int i = 0; i < SC_MAP__COUNT; i++) {
			own_copy(&s->m[i], s->armed);
			still |= s->m[i].shared;
		}
		s->armed = false;
		if (still) {
			p = &s->next;
		} else { /* private copies now: off the list */
			s->share = false;
			*p = s->next;
		}
	}
	pthread_mutex_unlock(&map_lock);
}

static void map_register(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

/* m made shared in place (its contents kept, at the same address). */
static int to_shared(sc_shmap_t *m)
{
	if (!m->base || m->shared)
		return 0;
	void *own = map_new(m->len, true);
	if (!own)
		return SC_ENOMEM;
	memcpy(own, m->base, m->len);
	if (mremap(own, m->len, m->len, MREMAP_MAYMOVE | MREMAP_FIXED, m->base) == MAP_FAILED) {
		munmap(own, m->len);
		return SC_ENOMEM;
	}
	m->shared = true;
	return 0;
}

int sc__state_share(sc_gpu_t *g)
{
	sc_statemap_t *s = &g->smap;
	if (s->share)
		return 0;
	pthread_once(&map_once, map_register);
	pthread_mutex_lock(&map_lock);
	int rc = 0;
	for (int i = 0; i < SC_MAP__COUNT && !rc; i++)
		rc = to_shared(&s->m[i]);
	/* on the list even after a failure, once: a mapping already shared
	 * must be unshared at every fork */
	sc_gpu_t *p = shared_gpus;
	while (p && p != g)
		p = p->smap.next;
	if (!p) {
		s->next = shared_gpus;
		shared_gpus = g;
	}
	s->share = rc == 0;
	pthread_mutex_unlock(&map_lock);
	return rc;
}

void sc__state_arm(sc_gpu_t *g)
{
	sc_statemap_t *s = &g->smap;
	if (!s->share)
		return;
	bool ok = true;
	for (int i = 0; i < SC_MAP__COUNT; i++) {
		sc_shmap_t *m = &s->m[i];
		if (!m->base || !m->shared)
			continue;
		if (m->spare && m->spare_len != m->len) { /* resized */
			munmap(m->spare, m->spare_len);
			m->spare = NULL;
		}
		if (!m->spare && (m->spare = map_new(m->len, true)) != NULL)
			m->spare_len = m->len;
		/* Here, not in the child: this process has every page of both
		 * mapped (the first copy makes the spare's pages, once), a child
		 * would take a fault for each; it maps only the pages it touches. */
		if (m->spare)
			memcpy(m->spare, m->base, m->len);
		ok = ok && m->spare;
	}
	s->armed = ok;
}

void sc__state_disarm(sc_gpu_t *g) { g->smap.armed = false; }
