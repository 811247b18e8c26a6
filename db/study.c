/* study.c — the study's text tables (`flipsim report R.db --study`): the
 * views study, study_gpu and study_kernel (db.c, schema step 2) pivoted into
 * GUFI's section VI presentation, applications × structures. The numbers
 * are the views' own, and the summary rows (means, the ratio of means of
 * IPC/FIT with its range) are computed here; a campaign with fewer
 * experiments than planned is marked `*`. Design: docs/DESIGN.md ("Metrics"). */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"

/* ---- an aligned text table ------------------------------------------------ */

/* Cells are appended row by row (the first row is the header); every column
 * is as wide as its widest cell; the first `left` columns align left. */
typedef struct {
	int ncols, left;
	size_t ncells, cap;
	char **cells;
	bool oom;
} grid_t;

static void grid_put(grid_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void grid_put(grid_t *g, const char *fmt, ...)
{
	if (g->oom)
		return;
	if (g->ncells == g->cap) {
		size_t ncap = g->cap ? 2 * g->cap : 64;
		char **grown = realloc(g->cells, ncap * sizeof *grown);
		if (!grown) {
			g->oom = true;
			return;
		}
		g->cells = grown;
		g->cap = ncap;
	}
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(g->cells[g->ncells] = strdup(buf)))
		g->oom = true;
	else
		g->ncells++;
}

static void grid_free(grid_t *g)
{
	for (size_t i = 0; i < g->ncells; i++)
		free(g->cells[i]);
	free(g->cells);
	memset(g, 0, sizeof *g);
}

/* Prints the title and the table, then frees the cells. Returns 0 or
 * DB_ENOMEM (recorded on db). */
static int grid_print(db_t *db, grid_t *g, const char *title, FILE *out)
{
	int err = 0;
	size_t *width = calloc((size_t)g->ncols, sizeof *width);
	if (g->oom || !width) {
		err = db__fail(db, DB_ENOMEM, "out of memory formatting the study");
		goto out;
	}
	assert(g->ncells % (size_t)g->ncols == 0); /* whole rows only */
	for (size_t i = 0; i < g->ncells; i++) {
		size_t len = strlen(g->cells[i]);
		if (len > width[i % (size_t)g->ncols])
			width[i % (size_t)g->ncols] = len;
	}
	fprintf(out, "%s\n", title);
	for (size_t i = 0; i < g->ncells; i++) {
		int c = (int)(i % (size_t)g->ncols);
		int w = c < g->left ? -(int)width[c] : (int)width[c];
		if (c == g->ncols - 1 && w < 0)
			w = 0; /* no trailing blanks */
		fprintf(out, "%s%*s%s", c ? "  " : "", w, g->cells[i], c == g->ncols - 1 ? "\n" : "");
	}
	if (g->ncells == (size_t)g->ncols)
		fprintf(out, "(no rows)\n");
out:
	free(width);
	grid_free(g);
	return err;
}

/* ---- the study's rows ---------------------------------------------------------- */

void db__study_free(db__study_t *s)
{
	for (int i = 0; i < s->napps; i++) {
		free(s->apps[i].workload);
		free(s->apps[i].gpu);
	}
	for (int i = 0; i < s->nstructures; i++)
		free(s->structures[i]);
	for (int i = 0; i < s->nmodes; i++)
		free(s->modes[i]);
	for (size_t i = 0; i < s->nkernels; i++) {
		free(s->kernels[i].name);
		free(s->kernels[i].contribution);
	}
	free(s->apps);
	free(s->structures);
	free(s->modes);
	free(s->cells);
	free(s->gpus);
	free(s->kernels);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* arr grown to n + 1 elements of size sz, the last one zeroed; NULL (arr
 * untouched) when out of memory. */
static void *grow(void *arr, size_t n, size_t sz)
{
	char *grown = realloc(arr, (n + 1) * sz);
	if (grown)
		memset(grown + n * sz, 0, sz);
	return grown;
}

/* Index of name in (*list)[0 .. *n), appending a copy when absent; -1 when
 * out of memory. */
static int intern(char ***list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*list)[i], name))
			return i;
	char **grown = grow(*list, (size_t)*n, sizeof *grown);
	if (!grown)
		return -1;
	*list = grown;
	if (!(grown[*n] = strdup(name)))
		return -1;
	return (*n)++;
}

static int app_index(const db__study_t *s, const char *workload, const char *gpu)
{
	for (int i = 0; i < s->napps; i++)
		if (!strcmp(s->apps[i].workload, workload) && !strcmp(s->apps[i].gpu, gpu))
			return i;
	return -1;
}

static int cmp_app(const void *a, const void *b)
{
	const db__app_t *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);
	return c ? c : strcmp(x->gpu, y->gpu);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int prepare(db_t *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, st, NULL);
	return rc == SQLITE_OK ? 0 : db__sqlerr(db, rc, "preparing the study");
}

#define NOMEM() db__fail(db, DB_ENOMEM, "out of memory reading the study")

/* The applications (workload and GPU) of the study, sorted. */
static int load_apps(db_t *db, db__study_t *s)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db, "SELECT DISTINCT workload, gpu FROM study", &st), rc;
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		db__app_t *grown = grow(s->apps, (size_t)s->napps, sizeof *grown);
		if (!grown) {
			err = NOMEM();
			goto out;
		}
		s->apps = grown;
		db__app_t *a = &s->apps[s->napps++];
		a->workload = strdup(col_text(st, 0));
		a->gpu = strdup(col_text(st, 1));
		if (!a->workload || !a->gpu) {
			err = NOMEM();
			goto out;
		}
		if (strcmp(a->gpu, s->apps[0].gpu))
			s->many_gpus = true;
	}
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "reading the study");
		goto out;
	}
	if (s->napps > 1)
		qsort(s->apps, (size_t)s->napps, sizeof *s->apps, cmp_app);
out:
	sqlite3_finalize(st);
	return err;
}

/* The applications, sorted; then the study rows, one cell per application
 * and structure. */
static int load_cells(db_t *db, db__study_t *s)
{
	sqlite3_stmt *st = NULL;
	int err = load_apps(db, s), rc;
	if (err)
		return err;
	if ((err = prepare(db,
	                   "SELECT workload, gpu, structure, n, masked, sdc, due, avf_derated,"
	                   " avf_derated_lo, avf_derated_hi, fit, fit_lo, fit_hi" DB_STUDY_EXTRA " FROM study"
	                   " ORDER BY structure_rank, structure, workload, gpu",
	                   &st)))
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		db__cell_t *grown = grow(s->cells, s->ncells, sizeof *grown);
		if (!grown) {
			err = NOMEM();
			goto out;
		}
		s->cells = grown;
		db__cell_t *c = &s->cells[s->ncells++];
		if ((c->structure = intern(&s->structures, &s->nstructures, col_text(st, 2))) < 0) {
			err = NOMEM();
			goto out;
		}
		c->app = app_index(s, col_text(st, 0), col_text(st, 1));
		c->n = sqlite3_column_int64(st, 3);
		c->masked = sqlite3_column_int64(st, 4);
		c->sdc = sqlite3_column_int64(st, 5);
		c->due = sqlite3_column_int64(st, 6);
		c->avf = col_real(st, 7);
		c->lo = col_real(st, 8);
		c->hi = col_real(st, 9);
		c->fit = col_real(st, 10);
		c->fit_lo = col_real(st, 11);
		c->fit_hi = col_real(st, 12);
		c->planned = sqlite3_column_int64(st, 13);
		c->unfinished = sqlite3_column_int(st, 14) != 0;
		s->nunfinished += c->unfinished;
		if (c->app < 0) {
			err = db__fail(db, DB_ESQL, "the study changed while read");
			goto out;
		}
	}
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "reading the study");
out:
	sqlite3_finalize(st);
	return err;
}

static int load_gpus(db_t *db, db__study_t *s)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "SELECT workload, gpu, regs, fit_total, ipc, ipc_per_fit, fit_lo, fit_hi,"
	                  " clock_mhz" DB_STUDY_GPU_EXTRA " FROM study_gpu",
	                  &st),
	    rc;
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		db__gpu_t *grown = grow(s->gpus, s->ngpus, sizeof *grown);
		if (!grown) {
			err = NOMEM();
			goto out;
		}
		s->gpus = grown;
		db__gpu_t *g = &s->gpus[s->ngpus++];
		if ((g->mode = intern(&s->modes, &s->nmodes, col_text(st, 2))) < 0) {
			err = NOMEM();
			goto out;
		}
		g->app = app_index(s, col_text(st, 0), col_text(st, 1));
		g->fit = col_real(st, 3);
		g->ipc = col_real(st, 4);
		g->ipc_per_fit = col_real(st, 5);
		g->fit_lo = col_real(st, 6);
		g->fit_hi = col_real(st, 7);
		g->clock_mhz = col_real(st, 8);
		g->unfinished = sqlite3_column_int64(st, 9);
		if (g->app < 0) {
			err = db__fail(db, DB_ESQL, "the study changed while read");
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "reading the study");
		goto out;
	}
	/* Modes in name order ("alloc" before "ptx"), indices remapped. */
	if (s->nmodes > 1) {
		char **sorted = malloc((size_t)s->nmodes * sizeof *sorted);
		if (!sorted) {
			err = NOMEM();
			goto out;
		}
		memcpy(sorted, s->modes, (size_t)s->nmodes * sizeof *sorted);
		qsort(sorted, (size_t)s->nmodes, sizeof *sorted, cmp_str);
		for (size_t i = 0; i < s->ngpus; i++)
			for (int m = 0; m < s->nmodes; m++)
				if (sorted[m] == s->modes[s->gpus[i].mode]) {
					s->gpus[i].mode = m;
					break;
				}
		free(s->modes);
		s->modes = sorted;
	}
out:
	sqlite3_finalize(st);
	return err;
}

static int load_kernels(db_t *db, db__study_t *s)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "SELECT workload, gpu, kernel_name, structure, invocations, first_launch,"
	                  " contribution FROM study_kernel ORDER BY workload, gpu, kernel_name",
	                  &st),
	    rc;
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int app = app_index(s, col_text(st, 0), col_text(st, 1));
		const char *name = col_text(st, 2);
		int structure = -1;
		for (int i = 0; i < s->nstructures; i++)
			if (!strcmp(s->structures[i], col_text(st, 3)))
				structure = i;
		if (app < 0 || structure < 0) {
			err = db__fail(db, DB_ESQL, "the study changed while read");
			goto out;
		}
		db__kernel_t *k = s->nkernels ? &s->kernels[s->nkernels - 1] : NULL;
		if (!k || k->app != app || strcmp(k->name, name)) {
			db__kernel_t *grown = grow(s->kernels, s->nkernels, sizeof *grown);
			if (!grown) {
				err = NOMEM();
				goto out;
			}
			s->kernels = grown;
			k = &s->kernels[s->nkernels++];
			if (!(k->contribution = malloc((size_t)s->nstructures * sizeof *k->contribution)) ||
			    !(k->name = strdup(name))) {
				err = NOMEM();
				goto out;
			}
			k->app = app;
			k->invocations = sqlite3_column_int64(st, 4);
			k->first_launch = sqlite3_column_int64(st, 5);
			for (int i = 0; i < s->nstructures; i++)
				k->contribution[i] = NAN;
		}
		if (sqlite3_column_int64(st, 5) < k->first_launch)
			k->first_launch = sqlite3_column_int64(st, 5);
		k->contribution[structure] = col_real(st, 6);
	}
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "reading the study");
out:
	sqlite3_finalize(st);
	return err;
}

/* Kernels by application, then by their first launch in the program. */
static int cmp_kernel(const void *a, const void *b)
{
	const db__kernel_t *x = a, *y = b;
	if (x->app != y->app)
		return x->app < y->app ? -1 : 1;
	if (x->first_launch != y->first_launch)
		return x->first_launch < y->first_launch ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* ---- the tables ------------------------------------------------------------------ */

static const db__cell_t *cell_at(const db__study_t *s, int app, int structure)
{
	for (size_t i = 0; i < s->ncells; i++)
		if (s->cells[i].app == app && s->cells[i].structure == structure)
			return &s->cells[i];
	return NULL;
}

static const db__gpu_t *gpu_at(const db__study_t *s, int app, int mode)
{
	for (size_t i = 0; i < s->ngpus; i++)
		if (s->gpus[i].app == app && s->gpus[i].mode == mode)
			return &s->gpus[i];
	return NULL;
}

/* The application's label: "workload", or "workload (gpu)" when the study
 * spans several GPUs. */
const char *db__study_app_label(const db__study_t *s, int app, char *buf, size_t size)
{
	if (!s->many_gpus)
		return s->apps[app].workload;
	snprintf(buf, size, "%s (%s)", s->apps[app].workload, s->apps[app].gpu);
	return buf;
}

static void put_app(grid_t *g, const db__study_t *s, int app)
{
	char buf[300];
	grid_put(g, "%s", db__study_app_label(s, app, buf, sizeof buf));
}

/* The mark of a figure that comes from an unfinished campaign. */
static const char *mark(bool unfinished)
{
	return unfinished ? "*" : "";
}

static bool cell_unfinished(const db__study_t *s, int app, int structure)
{
	const db__cell_t *c = cell_at(s, app, structure);
	return c && c->unfinished;
}

/* The footnote of a table with marks: each unfinished campaign of
 * `structure` (-1: of every structure) with its experiments and the
 * planned count. Prints nothing when there is none. */
static void footnote(const db__study_t *s, int structure, FILE *out)
{
	const char *lead = "* unfinished:";
	for (size_t i = 0; i < s->ncells; i++) {
		const db__cell_t *c = &s->cells[i];
		if (!c->unfinished || (structure >= 0 && c->structure != structure))
			continue;
		char buf[300];
		fprintf(out, "%s %s %s, %" PRId64 " of %" PRId64 " experiments\n", lead, db__study_app_label(s, c->app, buf, sizeof buf),
		        s->structures[c->structure], c->n, c->planned);
		lead = "             ";
	}
}

static double pct(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

/* A mean over the values that are not NaN. */
typedef struct {
	double sum;
	int n;
} mean_t;

static void mean_add(mean_t *m, double v)
{
	if (!isnan(v)) {
		m->sum += v;
		m->n++;
	}
}

/* The rows "mean" and "apps" (how many applications each mean is over) of
 * columns 1 .. ncols-1, values printed with fmt. */
static void put_means(grid_t *g, const mean_t *mean, int ncols, const char *fmt)
{
	grid_put(g, "mean");
	for (int c = 1; c < ncols; c++)
		if (mean[c].n)
			grid_put(g, fmt, mean[c].sum / mean[c].n);
		else
			grid_put(g, "-");
	grid_put(g, "apps");
	for (int c = 1; c < ncols; c++)
		grid_put(g, "%d", mean[c].n);
}

/* Figures 3-7: one block per structure. */
static int outcomes(db_t *db, const db__study_t *s, FILE *out)
{
	fprintf(out, "Outcomes per structure and application, %% of n (GUFI Figures 3-7)\n");
	for (int st = 0; st < s->nstructures; st++) {
		grid_t g = {.ncols = 5, .left = 1};
		grid_put(&g, "app");
		grid_put(&g, "n");
		grid_put(&g, "Masked");
		grid_put(&g, "SDC");
		grid_put(&g, "DUE");
		for (int a = 0; a < s->napps; a++) {
			const db__cell_t *c = cell_at(s, a, st);
			if (!c)
				continue;
			put_app(&g, s, a);
			grid_put(&g, "%" PRId64 "%s", c->n, mark(c->unfinished));
			grid_put(&g, "%.2f%%", pct(c->masked, c->n));
			grid_put(&g, "%.2f%%", pct(c->sdc, c->n));
			grid_put(&g, "%.2f%%", pct(c->due, c->n));
		}
		char title[300];
		snprintf(title, sizeof title, "\n%s", s->structures[st]);
		int err = grid_print(db, &g, title, out);
		if (err)
			return err;
		footnote(s, st, out);
	}
	return 0;
}

/* Figure 8. */
static int avf_table(db_t *db, const db__study_t *s, FILE *out)
{
	grid_t g = {.ncols = 1 + s->nstructures, .left = 1};
	mean_t *mean = calloc((size_t)(1 + s->nstructures), sizeof *mean);
	if (!mean)
		return db__fail(db, DB_ENOMEM, "out of memory formatting the study");
	grid_put(&g, "app");
	for (int st = 0; st < s->nstructures; st++)
		grid_put(&g, "%s", s->structures[st]);
	for (int a = 0; a < s->napps; a++) {
		put_app(&g, s, a);
		for (int st = 0; st < s->nstructures; st++) {
			const db__cell_t *c = cell_at(s, a, st);
			if (!c || isnan(c->avf)) {
				grid_put(&g, "-");
				continue;
			}
			grid_put(&g, "%.2f%% [%.2f, %.2f]%s", 100 * c->avf, 100 * c->lo, 100 * c->hi, mark(c->unfinished));
			mean_add(&mean[1 + st], 100 * c->avf);
		}
	}
	put_means(&g, mean, 1 + s->nstructures, "%.2f%%");
	free(mean);
	int err = grid_print(db, &g,
	                     "\nAVF per structure and application, % with its interval (GUFI Figure 8):\n"
	                     "(SDC + DUE) / n under physical sampling; under live sampling the mean of\n"
	                     "live_bits / bits_per_sm x failed (view avf); the means are over the\n"
	                     "applications that have the structure (how many: row apps)",
	                     out);
	if (!err)
		footnote(s, -1, out);
	return err;
}

/* Figure 9. */
static int fit_table(db_t *db, const db__study_t *s, FILE *out)
{
	int ncols = 1 + s->nstructures + s->nmodes;
	grid_t g = {.ncols = ncols, .left = 1};
	mean_t *mean = calloc((size_t)ncols, sizeof *mean);
	if (!mean)
		return db__fail(db, DB_ENOMEM, "out of memory formatting the study");
	grid_put(&g, "app");
	for (int st = 0; st < s->nstructures; st++)
		grid_put(&g, "%s", s->structures[st]);
	for (int m = 0; m < s->nmodes; m++)
		grid_put(&g, "GPU %s", s->modes[m]);
	for (int a = 0; a < s->napps; a++) {
		put_app(&g, s, a);
		for (int st = 0; st < s->nstructures; st++) {
			const db__cell_t *c = cell_at(s, a, st);
			if (!c || isnan(c->fit)) {
				grid_put(&g, "-");
				continue;
			}
			grid_put(&g, "%.1f%s", c->fit, mark(c->unfinished));
			mean_add(&mean[1 + st], c->fit);
		}
		for (int m = 0; m < s->nmodes; m++) {
			const db__gpu_t *gp = gpu_at(s, a, m);
			if (!gp || isnan(gp->fit)) {
				grid_put(&g, "-");
				continue;
			}
			grid_put(&g, "%.1f%s", gp->fit, mark(gp->unfinished > 0));
			mean_add(&mean[1 + s->nstructures + m], gp->fit);
		}
	}
	put_means(&g, mean, ncols, "%.1f");
	free(mean);
	int err = grid_print(db, &g,
	                     "\nFIT per structure and for the GPU (GUFI Figure 9): AVF x df x FIT/bit x bits;\n"
	                     "GPU MODE = the register file (and predicates) in register mode MODE + every other structure;\n"
	                     "the means are over the applications that have the column (how many: row apps)",
	                     out);
	if (!err)
		footnote(s, -1, out);
	return err;
}

/* The ratio of means of IPC/FIT over a register mode's applications that
 * have both: sum IPC / sum FIT (FIT 0 included), and its range from the
 * summed FIT bounds. */
typedef struct {
	double ipc, fit, fit_lo, fit_hi;
	int n;
} ratio_t;

static void ratio_add(ratio_t *r, const db__gpu_t *gp)
{
	if (!gp || isnan(gp->ipc) || isnan(gp->fit))
		return;
	r->ipc += gp->ipc;
	r->fit += gp->fit;
	r->fit_lo += gp->fit_lo; /* NaN when a bound is missing: no range then */
	r->fit_hi += gp->fit_hi;
	r->n++;
}

/* The rows mean and apps of one mode's three columns. */
static void put_ratio(grid_t *g, const ratio_t *r)
{
	if (!r->n) {
		grid_put(g, "-");
		grid_put(g, "-");
		grid_put(g, "-");
		return;
	}
	grid_put(g, "%.2f", r->ipc / r->n);
	grid_put(g, "%.1f", r->fit / r->n);
	if (r->fit <= 0)
		grid_put(g, "-");
	else if (isnan(r->fit_lo) || isnan(r->fit_hi))
		grid_put(g, "%.4g", r->ipc / r->fit);
	else /* a lower bound of 0 gives "inf" */
		grid_put(g, "%.4g [%.4g, %.4g]", r->ipc / r->fit, r->ipc / r->fit_hi,
		         r->fit_lo > 0 ? r->ipc / r->fit_lo : INFINITY);
}

/* "the 1401-MHz clock" when every IPC of the study counts cycles of one
 * clock, else "each GPU's clock (clock_mhz in study_gpu)". */
static const char *clock_text(const db__study_t *s, char *buf, size_t size)
{
	double clock = NAN;
	for (size_t i = 0; i < s->ngpus; i++) {
		if (isnan(s->gpus[i].clock_mhz))
			continue;
		if (!isnan(clock) && s->gpus[i].clock_mhz != clock)
			return "each GPU's clock (clock_mhz in study_gpu)";
		clock = s->gpus[i].clock_mhz;
	}
	if (isnan(clock))
		return "the GPU's clock";
	snprintf(buf, size, "the %g-MHz clock", clock);
	return buf;
}

/* Figure 10. */
static int ipc_fit_table(db_t *db, const db__study_t *s, FILE *out)
{
	grid_t g = {.ncols = 1 + 3 * s->nmodes, .left = 1};
	ratio_t *ratio = calloc((size_t)s->nmodes + 1, sizeof *ratio);
	if (!ratio)
		return db__fail(db, DB_ENOMEM, "out of memory formatting the study");
	grid_put(&g, "app");
	for (int m = 0; m < s->nmodes; m++) {
		grid_put(&g, "IPC %s", s->modes[m]);
		grid_put(&g, "FIT %s", s->modes[m]);
		grid_put(&g, "IPC/FIT %s", s->modes[m]);
	}
	for (int a = 0; a < s->napps; a++) {
		put_app(&g, s, a);
		for (int m = 0; m < s->nmodes; m++) {
			const db__gpu_t *gp = gpu_at(s, a, m);
			double v[3] = {gp ? gp->ipc : NAN, gp ? gp->fit : NAN, gp ? gp->ipc_per_fit : NAN};
			for (int i = 0; i < 3; i++)
				if (isnan(v[i]))
					grid_put(&g, "-");
				else if (i == 1)
					grid_put(&g, "%.1f%s", v[i], mark(gp->unfinished > 0));
				else
					grid_put(&g, i == 0 ? "%.2f" : "%.4g", v[i]);
			ratio_add(&ratio[m], gp);
		}
	}
	grid_put(&g, "mean");
	for (int m = 0; m < s->nmodes; m++)
		put_ratio(&g, &ratio[m]);
	grid_put(&g, "apps");
	for (int m = 0; m < s->nmodes; m++)
		for (int i = 0; i < 3; i++)
			grid_put(&g, "%d", ratio[m].n);
	free(ratio);
	char title[1024], buf[64];
	snprintf(title, sizeof title,
	         "\nIPC/FIT per application (GUFI Figure 10): IPC = thread-instructions per cycle of %s\n"
	         "in the golden run of that register mode; FIT of the GPU as above; '-' where the FIT is 0.\n"
	         "Row mean: over the applications with an IPC and a FIT (FIT 0 included; how many: row apps);\n"
	         "its IPC/FIT is the ratio of the means, sum IPC / sum FIT, with the range sum IPC / the sum of\n"
	         "the FITs' upper bounds .. / the sum of their lower bounds (every campaign at its interval's end:\n"
	         "a conservative range)",
	         clock_text(s, buf, sizeof buf));
	int err = grid_print(db, &g, title, out);
	if (!err)
		footnote(s, -1, out);
	return err;
}

/* Table IV. */
static int kernel_table(db_t *db, const db__study_t *s, FILE *out)
{
	grid_t g = {.ncols = 3 + s->nstructures, .left = 2};
	grid_put(&g, "app");
	grid_put(&g, "kernel");
	grid_put(&g, "invocations");
	for (int st = 0; st < s->nstructures; st++)
		grid_put(&g, "%s", s->structures[st]);
	for (size_t i = 0; i < s->nkernels; i++) {
		const db__kernel_t *k = &s->kernels[i];
		put_app(&g, s, k->app);
		char name[128];
		grid_put(&g, "%s", db_demangle(k->name, false, name, sizeof name));
		grid_put(&g, "%" PRId64, k->invocations);
		for (int st = 0; st < s->nstructures; st++)
			if (isnan(k->contribution[st]))
				grid_put(&g, "-");
			else
				grid_put(&g, "%.2f%%%s", 100 * k->contribution[st], mark(cell_unfinished(s, k->app, st)));
	}
	int err = grid_print(db, &g,
	                     "\nAVF per kernel (GUFI Table IV): each kernel's part of its application's AVF,\n"
	                     "its (SDC + DUE), each weighed by live_bits / bits_per_sm under live sampling,\n"
	                     "over the campaign's n; a column adds up to the AVF above",
	                     out);
	if (!err)
		footnote(s, -1, out);
	return err;
}

int db__study_load(db_t *db, db__study_t *s)
{
	memset(s, 0, sizeof *s);
	int err = load_cells(db, s);
	if (!err)
		err = load_gpus(db, s);
	if (!err)
		err = load_kernels(db, s);
	if (!err && s->nkernels > 1)
		qsort(s->kernels, s->nkernels, sizeof *s->kernels, cmp_kernel);
	if (err)
		db__study_free(s);
	return err;
}

int db__study_text(db_t *db, FILE *out)
{
	db__study_t s;
	int err = db__study_load(db, &s);
	if (err)
		return err;
	if (s.ncells == 0) {
		fprintf(out, "No study: the database holds no application-scope campaign with results.\n");
		goto out;
	}
	fprintf(out, "Study: %zu campaigns, %d applications, %d structures (the newest application-scope\n"
	             "campaign of each application and structure: SQL views study, study_gpu, study_kernel)\n",
	        s.ncells, s.napps, s.nstructures);
	if (s.nunfinished)
		fprintf(out, "%d of them %s unfinished: their figures are marked * (column unfinished in --csv and\n"
		             "--json)\n",
		        s.nunfinished, s.nunfinished == 1 ? "is" : "are");
	fputc('\n', out);
	if ((err = outcomes(db, &s, out)) || (err = avf_table(db, &s, out)) || (err = fit_table(db, &s, out)) ||
	    (err = ipc_fit_table(db, &s, out)) || (err = kernel_table(db, &s, out)))
		goto out;
out:
	db__study_free(&s);
	return err;
}
