/* The SMs' register files as one mapping per GPU, and sharing it across the
 * injection runtime's fork()s so that neither side copies it on write.
 * Design: sc_int.h, "Register files across fork()". Linux only (mremap). */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sc_int.h"

#define RF_PROT (PROT_READ | PROT_WRITE)

/* The GPUs of this process whose register files are MAP_SHARED (linked
 * through rfm.next), for the fork handler, which has no other way to find
 * them: a process-wide list, since fork() is. Guarded by rf_lock, which
 * the prepare handler holds across fork() so that the child sees a list
 * nobody was changing. */
static sc_gpu_t *rf_shared;
static pthread_mutex_t rf_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t rf_once = PTHREAD_ONCE_INIT;

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (n + pg - 1) / pg * pg;
}

static uint32_t *map_rf(size_t len, bool shared)
{
	void *p = mmap(NULL, len, RF_PROT, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Maps a region of `words` per SM, shared or not as g->rfm says, with the
 * old files' words up to the new size (new words zero: the mapping's), and
 * points every SM at its slice. */
static int remap(sc_gpu_t *g, uint64_t words)
{
	sc_rfmap_t *m = &g->rfm;
	size_t len = page_round((size_t)g->cfg.num_sms * words * sizeof *m->base);
	uint32_t *base = map_rf(len, m->shared);
	if (!base)
		return SC_ENOMEM;
	for (uint32_t i = 0; i < g->cfg.num_sms; i++) {
		sc_sm_t *sm = &g->sms[i];
		if (m->base)
			memcpy(base + i * words, sm->rf, (words < sm->rf_words ? words : sm->rf_words) * sizeof *base);
		sm->rf = base + i * words;
		sm->rf_words = (uint32_t)words;
	}
	if (m->base)
		munmap(m->base, m->len);
	m->base = base;
	m->len = len;
	return 0;
}

int sc__rf_map(sc_gpu_t *g, uint64_t words)
{
	if (!g->rfm.shared)
		return remap(g, words);
	pthread_mutex_lock(&rf_lock); /* no fork() sees half a mapping */
	int rc = remap(g, words);
	pthread_mutex_unlock(&rf_lock);
	return rc;
}

static void drop_spare(sc_rfmap_t *m)
{
	if (m->spare)
		munmap(m->spare, m->spare_len);
	m->spare = NULL;
	m->spare_len = 0;
	m->armed = false;
}

void sc__rf_unmap(sc_gpu_t *g)
{
	sc_rfmap_t *m = &g->rfm;
	if (m->shared) {
		pthread_mutex_lock(&rf_lock);
		for (sc_gpu_t **p = &rf_shared; *p; p = &(*p)->rfm.next)
			if (*p == g) {
				*p = g->rfm.next;
				break;
			}
		pthread_mutex_unlock(&rf_lock);
	}
	drop_spare(m);
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
	for (uint32_t i = 0; g->sms && i < g->cfg.num_sms; i++)
		g->sms[i].rf = NULL;
}

/* In a child, at once: a shared register file becomes the child's own, at
 * the same address: the spare's pages when the runtime armed it for this
 * fork (it holds the files as fork() found them), else a private copy.
 * The parent's spare is never the child's to use again. A child that
 * cannot get its own copy would write its parent's registers: it exits. */
static void own_copy(sc_rfmap_t *m)
{
	bool spare = m->armed;
	uint32_t *own = spare ? m->spare : map_rf(m->len, false);
	if (m->spare && !spare)
		munmap(m->spare, m->spare_len);
	m->spare = NULL;
	m->spare_len = 0;
	m->armed = false;
	if (!own)
		_exit(1);
	if (!spare)
		memcpy(own, m->base, m->len);
	if (mremap(own, m->len, m->len, MREMAP_MAYMOVE | MREMAP_FIXED, m->base) != MAP_FAILED) {
		m->shared = spare; /* the spare's pages are still the parent's spare */
		return;
	}
	if (mmap(m->base, m->len, RF_PROT, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		_exit(1);
	memcpy(m->base, own, m->len);
	munmap(own, m->len);
	m->shared = false;
}

static void fork_prepare(void) { pthread_mutex_lock(&rf_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&rf_lock); }

static void fork_child(void)
{
	for (sc_gpu_t **p = &rf_shared; *p;) {
		own_copy(&(*p)->rfm);
		if ((*p)->rfm.shared)
			p = &(*p)->rfm.next;
		else
			*p = (*p)->rfm.next; /* a private copy now: off the list */
	}
	pthread_mutex_unlock(&rf_lock);
}

static void rf_register(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

int sc__rf_share(sc_gpu_t *g)
{
	sc_rfmap_t *m = &g->rfm;
	if (m->shared)
		return 0;
	pthread_once(&rf_once, rf_register);
	pthread_mutex_lock(&rf_lock);
	m->shared = true;
	int rc = remap(g, g->sms[0].rf_words);
	if (rc) {
		m->shared = false;
	} else {
		m->next = rf_shared;
		rf_shared = g;
	}
	pthread_mutex_unlock(&rf_lock);
	return rc;
}

void sc__rf_arm(sc_gpu_t *g)
{
	sc_rfmap_t *m = &g->rfm;
	if (!m->shared)
		return;
	if (m->spare_len != m->len)
		drop_spare(m); /* the files were resized */
	if (!m->spare && (m->spare = map_rf(m->len, true)) != NULL)
		m->spare_len = m->len;
	m->armed = m->spare != NULL;
	/* Here, not in the child: this process has every page of both mapped
	 * (the first copy makes the spare's pages, once), a child would take a
	 * fault for each; it maps only the pages it touches. */
	if (m->armed)
		memcpy(m->spare, m->base, m->len);
}

void sc__rf_disarm(sc_gpu_t *g) { g->rfm.armed = false; }
