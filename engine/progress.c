/* What `flipsim run` and `flipsim status` say about a campaign in progress:
 * durations as h:mm:ss, the progress line fitted to the terminal's width,
 * the timestamped log line written when stderr is no terminal, and the
 * running / stopped / finished verdict from a daemon's heartbeat (README:
 * the `run` and `status` paragraphs; db/README.md: `daemons`). Pure
 * functions of their arguments, so that the tests give widths, clocks and
 * hosts of their choosing. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "eng_int.h"

const char *eng_hms(double s, char *buf, size_t n)
{
	if (!isfinite(s) || s < 0 || s > 1e9) {
		snprintf(buf, n, "-");
		return buf;
	}
	uint64_t t = (uint64_t)llround(s);
	snprintf(buf, n, "%" PRIu64 ":%02u:%02u", t / 3600, (unsigned)(t / 60 % 60), (unsigned)(t % 60));
	return buf;
}

const char *eng_iso_time(double unix_s, char *buf, size_t n)
{
	time_t t = (time_t)unix_s;
	struct tm tm;
	if (!isfinite(unix_s) || !gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "-");
	return buf;
}

double eng_wall_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int eng_term_width(int fd)
{
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* ---- the progress line ----------------------------------------------------
 * Segments in display order, each with a rank: when the line is wider than
 * the terminal, the lowest ranks go first, so that a narrow terminal still
 * shows done/total and the ETA. */
enum { SEG_MAX = 8, SEG_LEN = 96 };

typedef struct segs {
	char text[SEG_MAX][SEG_LEN];
	int rank[SEG_MAX];
	int n;
} segs_t;

static void seg(segs_t *s, int rank, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void seg(segs_t *s, int rank, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->text[s->n], SEG_LEN, fmt, ap);
	va_end(ap);
	s->rank[s->n++] = rank;
}

static void progress_segs(const eng_progress_t *p, segs_t *s)
{
	char eta[32], all[32];
	s->n = 0;
	if (p->count > 1)
		seg(s, 3, "[%d/%d]", p->index + 1, p->count);
	seg(s, 2, "%s", p->name);
	seg(s, 9, "%" PRIu64 "/%" PRIu64, p->done, p->total);
	seg(s, 6, "%.0f/s", p->rate);
	seg(s, 8, "ETA %s", eng_hms(p->eta, eta, sizeof eta));
	if (p->count > 1)
		seg(s, 5, "run ETA %s", eng_hms(p->eta_all, all, sizeof all));
	seg(s, 4, "masked %" PRIu64 " sdc %" PRIu64 " due %" PRIu64, p->masked, p->sdc, p->due);
	if (isnan(p->avf))
		seg(s, 7, "AVF -");
	else
		seg(s, 7, "AVF %.2f%% [%.2f, %.2f]", 100 * p->avf, 100 * p->avf_lo, 100 * p->avf_hi);
}

/* The segments whose keep[i] is set, joined by two spaces. */
static size_t join(const segs_t *s, const bool *keep, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < s->n; i++)
		if (keep[i]) {
			int k = snprintf(buf + len, n - len, "%s%s", len ? "  " : "", s->text[i]);
			len = k < 0 || (size_t)k >= n - len ? n - 1 : len + (size_t)k;
		}
	return len;
}

char *eng_progress_line(const eng_progress_t *p, int width, char *buf, size_t n)
{
	segs_t s;
	bool keep[SEG_MAX];
	progress_segs(p, &s);
	for (int i = 0; i < s.n; i++)
		keep[i] = true;
	/* the last column stays free: writing it makes some terminals wrap */
	size_t room = width > 1 ? (size_t)width - 1 : 1;
	for (int rank = 1; join(&s, keep, buf, n) > room && rank < 9; rank++)
		for (int i = 0; i < s.n; i++)
			if (s.rank[i] == rank)
				keep[i] = false;
	if (strlen(buf) > room)
		buf[room < n ? room : n - 1] = '\0';
	return buf;
}

char *eng_progress_log(const eng_progress_t *p, double now, char *buf, size_t n)
{
	segs_t s;
	bool keep[SEG_MAX];
	char when[32];
	progress_segs(p, &s);
	for (int i = 0; i < s.n; i++)
		keep[i] = true;
	size_t k = (size_t)snprintf(buf, n, "%s ", eng_iso_time(now, when, sizeof when));
	if (k < n)
		join(&s, keep, buf + k, n - k);
	return buf;
}

/* ---- running, stopped or finished ------------------------------------------ */

const char *eng_state_name(eng_state_t s)
{
	static const char *const names[] = {"stopped", "running", "finished"};
	return (unsigned)s < 3 ? names[s] : "?";
}

bool eng_pid_alive(int64_t pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

eng_state_t eng_campaign_state(const db_progress_t *p, const db_daemon_t *d, double now, const char *host,
                               bool (*alive)(int64_t pid))
{
	if ((p->n_masks > 0 && p->done >= p->n_masks) || p->stop[0]) /* a sequential campaign may stop before */
		return ENG_FINISHED;
	if (!d || d->ended || d->interval <= 0)
		return ENG_STOPPED;
	/* a heartbeat missed three times over: the daemon is gone, wherever it ran */
	if (now - d->heartbeat > ENG_STALE_BEATS * d->interval)
		return ENG_STOPPED;
	/* on this host a dead pid says so at once (no need to wait for staleness) */
	if (host && !strcmp(host, d->host) && alive && !alive(d->pid))
		return ENG_STOPPED;
	return ENG_RUNNING;
}
