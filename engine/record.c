/* The golden record: what a campaign's golden run gives its workers, so
 * that no worker runs the golden execution for itself (DESIGN.md "Data
 * flow"). The daemon writes it once, after its golden runs, into an
 * anonymous memory file (memfd); each worker inherits the file as a
 * descriptor (`flipsim worker --golden FD`) and maps it read-only and
 * shared, so the experiments it forks share those pages instead of
 * copying their page tables. Nothing is on disk: a daemon that is killed
 * leaves nothing behind, and no later campaign can pick a record up. The
 * header still names its campaign (hash), the flipsim version and the
 * checkpoint interval, and a worker refuses a record that is not its own.
 *
 *   part          contents (native byte order; each part 8-byte aligned)
 *   ------------  ---------------------------------------------------------
 *   head_t        magic, version, campaign hash, sizes, cycles, interval,
 *                 the output digest; a host program's exit status and the
 *                 paths, lengths and digests of its golden stdout and stderr
 *                 (files of the daemon's golden run, alive while it runs)
 *   cycle         n u64: the checkpoints' cycles
 *   part          n x nparts u64: their state hashes (sc_state_hash_part)
 *   line          n x nlines u64: global memory's line hashes (lines only)
 *   touch         nlines u64: last cycle + 1 a line is touched (lines only)
 *   line_addr     nlines u64, line_len nlines u32 (lines only)
 *   out_t         noutputs: a JSON workload's outputs {buffer, dptr, bytes,
 *                 offset of its bytes in the record}, then those bytes
 *   printf        printf_len bytes at printf_off: a JSON workload's device
 *                 printf text (camp_result_t.printf_text)
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eng_int.h"

#define MAGIC "flipsim-golden1"

typedef struct head {
	char magic[16];
	char version[32];           /* SC_VERSION */
	char campaign[24];          /* camp_campaign_t.hash */
	uint64_t size;              /* bytes of the whole record */
	uint64_t interval;          /* checkpoint spacing (0: none recorded) */
	uint64_t cycles;            /* the golden run's clock at its end */
	uint64_t digest;            /* eng_output_digest */
	uint64_t layout;            /* ck.layout */
	uint32_t n, nparts, nlines, lines;
	uint32_t noutputs;
	int32_t exit_status;
	eng_text_t out, err;
	uint64_t printf_off, printf_len;
} head_t;

typedef struct out {
	uint32_t buffer, pad;
	uint64_t dptr, bytes, off;
} out_t;

static uint64_t align8(uint64_t n) { return (n + 7) & ~7ull; }

/* Writing: parts appended at `off`, each padded to 8 bytes. */
typedef struct wr {
	int fd;
	uint64_t off;
	bool bad;
} wr_t;

static void put_raw(wr_t *w, const void *p, uint64_t n)
{
	const char *b = p;
	while (n && !w->bad) {
		ssize_t k = pwrite(w->fd, b, n, (off_t)w->off);
		if (k < 0 && errno == EINTR)
			continue;
		w->bad = k <= 0;
		if (k > 0) {
			b += k;
			n -= (uint64_t)k;
			w->off += (uint64_t)k;
		}
	}
}

static void put(wr_t *w, const void *p, uint64_t n)
{
	static const char zero[8];
	put_raw(w, p, n);
	put_raw(w, zero, align8(n) - n);
}

/* A new anonymous file: a memfd, else an unnamed file in $TMPDIR. */
static int anon_file(void)
{
	int fd = memfd_create("flipsim-golden", MFD_CLOEXEC);
	if (fd >= 0)
		return fd;
	const char *t = getenv("TMPDIR");
	return open(t && *t ? t : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

static void head_fill(head_t *h, const camp_campaign_t *c, const eng_golden_t *g)
{
	const sc_rt_ckpts_t *ck = &g->ck;
	memset(h, 0, sizeof *h);
	snprintf(h->magic, sizeof h->magic, "%s", MAGIC);
	snprintf(h->version, sizeof h->version, "%s", SC_VERSION);
	snprintf(h->campaign, sizeof h->campaign, "%s", c->hash);
	h->interval = ck->interval;
	h->cycles = g->cycles;
	h->digest = eng_output_digest(g);
	h->layout = ck->layout;
	h->n = ck->n;
	h->nparts = ck->n ? ck->nparts : 0;
	h->lines = ck->n && ck->lines && ck->line;
	h->nlines = h->lines ? ck->nlines : 0;
	h->noutputs = g->res ? g->res->noutputs : 0;
	h->exit_status = g->exit_status;
	h->out = g->out;
	h->err = g->err;
}

int eng_golden_share(const eng_golden_t *g, const camp_campaign_t *c, int *fd, char *err, size_t errsz)
{
	head_t h;
	head_fill(&h, c, g);
	const sc_rt_ckpts_t *ck = &g->ck;
	wr_t w = {.fd = anon_file()};
	if (w.fd < 0) {
		snprintf(err, errsz, "cannot create the golden record: %s", strerror(errno));
		return ENG_EINTERNAL;
	}
	put(&w, &h, sizeof h);
	put(&w, ck->cycle, h.n * sizeof *ck->cycle);
	put(&w, ck->part, (uint64_t)h.n * h.nparts * sizeof *ck->part);
	if (h.lines) {
		put(&w, ck->line, (uint64_t)h.n * h.nlines * sizeof *ck->line);
		put(&w, ck->touch, h.nlines * sizeof *ck->touch);
		put(&w, ck->line_addr, h.nlines * sizeof *ck->line_addr);
		put(&w, ck->line_len, h.nlines * sizeof *ck->line_len);
	}
	uint64_t data = w.off + align8((uint64_t)h.noutputs * sizeof(out_t));
	for (uint32_t i = 0; i < h.noutputs; i++) {
		const camp_output_t *o = &g->res->outputs[i];
		out_t r = {.buffer = o->buffer, .dptr = o->dptr, .bytes = o->bytes, .off = data};
		put(&w, &r, sizeof r);
		data += align8(o->bytes);
	}
	for (uint32_t i = 0; i < h.noutputs; i++)
		put(&w, g->res->outputs[i].data, g->res->outputs[i].bytes);
	if (g->res && g->res->printf_len) {
		h.printf_off = w.off;
		h.printf_len = g->res->printf_len;
		put(&w, g->res->printf_text, h.printf_len);
	}
	h.size = w.off;
	if (!w.bad && pwrite(w.fd, &h, sizeof h, 0) != sizeof h)
		w.bad = true;
	if (w.bad) {
		snprintf(err, errsz, "cannot write the golden record: %s", strerror(errno ? errno : ENOSPC));
		close(w.fd);
		return ENG_EINTERNAL;
	}
	*fd = w.fd;
	return 0;
}

/* Reading: the next part of n bytes, or NULL past the end. */
typedef struct rd {
	const char *map;
	uint64_t off, size;
} rd_t;

static void *take(rd_t *r, uint64_t n)
{
	if (n > r->size - r->off || align8(n) > r->size - r->off)
		return r->off = r->size, NULL;
	void *p = (void *)(r->map + r->off);
	r->off += align8(n);
	return p;
}

/* The checkpoints of the record into g->ck (pointing into the map). */
static bool read_ckpts(rd_t *r, const head_t *h, sc_rt_ckpts_t *ck)
{
	const uint64_t *cycle = take(r, h->n * sizeof *cycle);
	ck->part = take(r, (uint64_t)h->n * h->nparts * sizeof *ck->part);
	if (!cycle || (h->n && !ck->part))
		return false;
	memcpy(ck->cycle, cycle, h->n * sizeof *cycle);
	ck->n = h->n;
	ck->nparts = h->nparts;
	ck->interval = h->interval;
	ck->lines = (int)h->lines;
	ck->layout = h->layout;
	if (!h->lines)
		return true;
	ck->nlines = h->nlines;
	ck->line = take(r, (uint64_t)h->n * h->nlines * sizeof *ck->line);
	ck->touch = take(r, h->nlines * sizeof *ck->touch);
	ck->line_addr = take(r, h->nlines * sizeof *ck->line_addr);
	ck->line_len = take(r, h->nlines * sizeof *ck->line_len);
	return ck->line && ck->touch && ck->line_addr && ck->line_len;
}

/* A JSON workload's outputs into g->res (their bytes in the map). */
static bool read_outputs(rd_t *r, const head_t *h, eng_golden_t *g)
{
	const out_t *o = take(r, (uint64_t)h->noutputs * sizeof *o);
	if (h->noutputs && !o)
		return false;
	if (!(g->res = calloc(1, sizeof *g->res)) ||
	    !(g->res->outputs = calloc(h->noutputs ? h->noutputs : 1, sizeof *g->res->outputs)))
		return false;
	g->res->noutputs = h->noutputs;
	for (uint32_t i = 0; i < h->noutputs; i++) {
		if (o[i].off > r->size || o[i].bytes > r->size - o[i].off)
			return false;
		g->res->outputs[i] = (camp_output_t){.buffer = o[i].buffer, .dptr = o[i].dptr, .bytes = o[i].bytes,
		                                     .data = (uint8_t *)(r->map + o[i].off)};
	}
	if (h->printf_off > r->size || h->printf_len > r->size - h->printf_off)
		return false;
	g->res->printf_text = h->printf_len ? (char *)(r->map + h->printf_off) : NULL; /* the map's */
	g->res->printf_len = h->printf_len;
	return true;
}

/* The header's checks: 0, or the message in err. */
static int head_check(const head_t *h, uint64_t size, const camp_campaign_t *c, uint64_t interval, char *err,
                      size_t errsz)
{
	const char *what = NULL;
	if (size < sizeof *h || strcmp(h->magic, MAGIC) || h->size != size)
		what = "not a golden record";
	else if (strcmp(h->version, SC_VERSION))
		what = "written by another flipsim version";
	else if (strcmp(h->campaign, c->hash))
		what = "the record of another campaign";
	else if (h->interval != interval)
		what = "recorded at another checkpoint interval";
	else if (h->n > SC_RT_MAX_CKPT || (!eng_driver_for(c)->outputs && h->noutputs))
		what = "inconsistent";
	if (!what)
		return 0;
	snprintf(err, errsz, "%s: cannot use the golden record: %s", c->path, what);
	return ENG_EINTERNAL;
}

int eng_golden_open(int fd, const camp_campaign_t *c, uint64_t interval, eng_golden_t *g, char *err, size_t errsz)
{
	memset(g, 0, sizeof *g);
	g->cfg = c->gpu;
	struct stat st;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(head_t)) {
		snprintf(err, errsz, "%s: cannot use the golden record (descriptor %d): %s", c->path, fd,
		         st.st_size < (off_t)sizeof(head_t) ? "too short" : strerror(errno));
		return ENG_EINTERNAL;
	}
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		snprintf(err, errsz, "%s: cannot map the golden record: %s", c->path, strerror(errno));
		return ENG_EINTERNAL;
	}
	g->map = map;
	g->map_len = (size_t)st.st_size;
	const head_t *h = map;
	int rc = head_check(h, (uint64_t)st.st_size, c, interval, err, errsz);
	if (rc)
		return rc;
	rd_t r = {.map = map, .off = align8(sizeof *h), .size = h->size};
	if (!read_ckpts(&r, h, &g->ck) || (eng_driver_for(c)->outputs && !read_outputs(&r, h, g))) {
		snprintf(err, errsz, "%s: cannot use the golden record: truncated or out of memory", c->path);
		return ENG_EINTERNAL;
	}
	g->cycles = h->cycles;
	g->digest = h->digest;
	g->exit_status = h->exit_status;
	g->out = h->out;
	g->err = h->err;
	return 0;
}

void eng_golden_unmap(eng_golden_t *g)
{
	if (g->res)
		free(g->res->outputs);
	free(g->res);
	munmap(g->map, g->map_len);
	memset(g, 0, sizeof *g);
}
