/* The outcome classifier: the precedence of rules documented at
 * cls_classify in parser.h, then element-wise output comparison (exact or
 * relative-tolerance, parser.h at cls_buffer_t) and text comparison. Buffers
 * are read as little-endian, which every supported host is. */
#include <assert.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

const char *cls_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) case code: return text;
	CLS_ERR_LIST(X)
#undef X
	}
	return "unknown error";
}

static const char *const outcome_names[] = {
	[CLS_MASKED] = "masked",
	[CLS_SDC] = "sdc",
	[CLS_DUE] = "due",
};

#define NOUTCOMES (sizeof outcome_names / sizeof outcome_names[0])

const char *cls_outcome_name(cls_outcome_t o)
{
	return (unsigned)o < NOUTCOMES ? outcome_names[o] : "unknown";
}

/* ASCII-only case folding: locale must not change what a name means. */
static bool name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

int cls_outcome_parse(const char *s, cls_outcome_t *o)
{
	if (!s)
		return CLS_EINVAL;
	for (unsigned i = 0; i < NOUTCOMES; i++)
		if (name_eq(s, outcome_names[i])) {
			*o = (cls_outcome_t)i;
			return 0;
		}
	return CLS_EINVAL;
}

/* ---- verdicts ------------------------------------------------------------ */

/* Signals that a crashed experiment is likely to die of. Numbers differ
 * between systems, so the table is built from the <signal.h> names. */
static const struct {
	int sig;
	const char *name;
} signal_names[] = {
	{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
	{SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
	{SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},
	{SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
	{SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
};

static void set(cls_verdict_t *v, cls_outcome_t o, const char *reason)
{
	v->outcome = o;
	snprintf(v->reason, sizeof v->reason, "%s", reason);
}

static void set_crash(cls_verdict_t *v, int sig)
{
	v->outcome = CLS_DUE;
	for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
		if (signal_names[i].sig == sig) {
			snprintf(v->reason, sizeof v->reason, "crash:%s", signal_names[i].name);
			return;
		}
	snprintf(v->reason, sizeof v->reason, "crash:signal %d", sig);
}

/* ---- comparing outputs --------------------------------------------------- */

/* The tolerant rule of parser.h, for two values already known to differ
 * bitwise. */
static bool close_enough(double a, double b, double tol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return false;  /* bitwise equal infinities never get here */
	return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

static bool elem_equal(const uint8_t *a, const uint8_t *b, cls_elem_t elem, double tol)
{
	switch (elem) {
	case CLS_T_F32: {
		uint32_t x, y;
		float fx, fy;
		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		if (x == y)
			return true;
		if (!(tol > 0))
			return false;
		memcpy(&fx, &x, 4);
		memcpy(&fy, &y, 4);
		return close_enough(fx, fy, tol);
	}
	case CLS_T_F64: {
		uint64_t x, y;
		double dx, dy;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x == y)
			return true;
		if (!(tol > 0))
			return false;
		memcpy(&dx, &x, 8);
		memcpy(&dy, &y, 8);
		return close_enough(dx, dy, tol);
	}
	case CLS_T_RAW:
	default:
		return *a == *b;
	}
}

static uint32_t elem_size(cls_elem_t elem)
{
	switch (elem) {
	case CLS_T_F32: return 4;
	case CLS_T_F64: return 8;
	case CLS_T_RAW:
	default: return 1;
	}
}

/* Compares faulty buffer f (NULL: missing) against golden g. Returns true
 * and fills v's first_diff and ndiff when they differ. */
static bool output_differs(const cls_buffer_t *g, const cls_buffer_t *f, cls_verdict_t *v)
{
	static const cls_buffer_t missing = {0};
	if (!f)
		f = &missing;
	/* The common case, whatever the type: bitwise identical. */
	if (g->bytes == f->bytes && (g->bytes == 0 || memcmp(g->data, f->data, g->bytes) == 0))
		return false;

	cls_elem_t elem = g->elem;
	uint32_t esz = elem_size(elem);
	if (g->bytes % esz || f->bytes % esz) {
		elem = CLS_T_RAW;
		esz = 1;
	}
	uint64_t ng = g->bytes / esz, nf = f->bytes / esz;
	uint64_t n = ng < nf ? ng : nf;
	uint64_t first = UINT64_MAX, ndiff = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!elem_equal(g->data + i * esz, f->data + i * esz, elem, g->rel_tol)) {
			if (first == UINT64_MAX)
				first = i;
			ndiff++;
		}
	if (ng != nf) {
		if (first == UINT64_MAX)
			first = n;
		ndiff += (ng > nf ? ng : nf) - n;
	}
	if (ndiff == 0)
		return false;  /* bitwise different, equal within tolerance */
	v->first_diff = first;
	v->ndiff = ndiff > UINT32_MAX ? UINT32_MAX : (uint32_t)ndiff;
	return true;
}

static bool text_differs(const char *a, uint64_t na, const char *b, uint64_t nb)
{
	assert((a || na == 0) && (b || nb == 0));
	return na != nb || (na > 0 && memcmp(a, b, na) != 0);
}

/* Rule 7 of cls_classify: the first differing output, in order. */
static bool outputs_differ(const cls_run_t *g, const cls_run_t *f, cls_verdict_t *v)
{
	for (uint32_t i = 0; i < g->nout; i++) {
		const cls_buffer_t *gb = &g->out[i];
		const cls_buffer_t *fb = i < f->nout ? &f->out[i] : NULL;
		assert(!fb || (fb->name && gb->name && strcmp(fb->name, gb->name) == 0));
		if (output_differs(gb, fb, v)) {
			v->outcome = CLS_SDC;
			snprintf(v->reason, sizeof v->reason, "output:%s", gb->name ? gb->name : "");
			return true;
		}
	}
	return false;
}

void cls_classify(const cls_run_t *golden, const cls_run_t *faulty, cls_verdict_t *out)
{
	const cls_run_t *g = golden, *f = faulty;
	memset(out, 0, sizeof *out);
	assert(g->due == SC_DUE_NONE && g->signal <= 0 && !g->host_timeout);
	assert(g->nout == f->nout);

	if (f->unused)
		set(out, CLS_MASKED, "unused");
	else if (f->early)
		set(out, CLS_MASKED, "early");
	else if (f->signal > 0)
		set_crash(out, f->signal);
	else if (f->host_timeout)
		set(out, CLS_DUE, "watchdog");
	else if (f->due != SC_DUE_NONE)
		set(out, CLS_DUE, sc_due_name(f->due));
	else if (f->exit_status != g->exit_status)
		set(out, CLS_DUE, "exit_status");
	else if (outputs_differ(g, f, out))
		;  /* verdict filled in */
	else if (text_differs(g->stdout_text, g->stdout_len, f->stdout_text, f->stdout_len))
		set(out, CLS_SDC, "stdout");
	else if (text_differs(g->stderr_text, g->stderr_len, f->stderr_text, f->stderr_len))
		set(out, CLS_SDC, "stderr");
	else
		set(out, CLS_MASKED, "no_effect");
}
