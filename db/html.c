/* html.c — `flipsim report R.db --html OUT.html` and `--svg DIR`: the
 * figures of the study (GUFI section VI: outcomes, AVF, FIT, IPC/FIT, the
 * kernels' parts) and of the report (AVF per campaign, the most vulnerable
 * instructions and registers, the protection comparison), each an SVG
 * chart (svg.c) beside its table and the SQL view it comes from. The data
 * come from study.c's loader and report.c's tables: the same numbers as the
 * text report. Figure names and contents: db/README.md ("The HTML report"). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_int.h"

/* One figure: its chart, its table and the queries a reader reproduces it
 * with. Every string it points to is in strs (owned). */
typedef struct {
	db__chart_t chart;
	db__bar_t *bars;
	size_t nbars, capbars;
	const char *series[DB__SVG_MAXSEG];
	char *caption;
	char *sql[2];
	int ncols;
	char **cells; /* the header row, then the rows, ncols each */
	size_t ncells, capcells;
	char **strs;
	size_t nstrs, capstrs;
	bool oom;
} fig_t;

static void *grow_array(void *arr, size_t *cap, size_t need, size_t sz, bool *oom)
{
	if (need <= *cap)
		return arr;
	size_t ncap = *cap ? 2 * *cap : 16;
	void *grown = realloc(arr, ncap * sz);
	if (!grown) {
		*oom = true;
		return arr;
	}
	*cap = ncap;
	return grown;
}

/* A formatted string owned by f (NULL when out of memory). */
static const char *keep(fig_t *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *keep(fig_t *f, const char *fmt, ...)
{
	f->strs = grow_array(f->strs, &f->capstrs, f->nstrs + 1, sizeof *f->strs, &f->oom);
	if (f->oom)
		return NULL;
	char *s;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		f->oom = true;
		return NULL;
	}
	return f->strs[f->nstrs++] = s;
}

/* Appends a bar (zeroed segments, no error bar); NULL when out of memory. */
static db__bar_t *add_bar(fig_t *f, const char *group, const char *label)
{
	f->bars = grow_array(f->bars, &f->capbars, f->nbars + 1, sizeof *f->bars, &f->oom);
	if (f->oom)
		return NULL;
	db__bar_t *b = &f->bars[f->nbars++];
	memset(b, 0, sizeof *b);
	b->group = group;
	b->label = label ? label : "";
	b->lo = b->hi = NAN;
	return b;
}

static void add_cell(fig_t *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_cell(fig_t *f, const char *fmt, ...)
{
	f->cells = grow_array(f->cells, &f->capcells, f->ncells + 1, sizeof *f->cells, &f->oom);
	if (f->oom)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&f->cells[f->ncells], fmt, ap) < 0)
		f->oom = true;
	else
		f->ncells++;
	va_end(ap);
}

static void fig_free(fig_t *f)
{
	for (size_t i = 0; i < f->nstrs; i++)
		free(f->strs[i]);
	for (size_t i = 0; i < f->ncells; i++)
		free(f->cells[i]);
	free(f->strs);
	free(f->cells);
	free(f->bars);
	free(f->caption);
	free(f->sql[0]);
	free(f->sql[1]);
	memset(f, 0, sizeof *f);
}

/* Starts figure f: its name, title, axis, legend and caption. */
static void fig_init(fig_t *f, const char *id, const char *title, const char *axis, const char *const *series,
                     int nseries, double scale, double xmax, const char *caption)
{
	memset(f, 0, sizeof *f);
	f->chart.id = id;
	f->chart.title = title;
	f->chart.axis = axis;
	for (int i = 0; i < nseries; i++)
		f->series[i] = series[i];
	f->chart.series = f->series;
	f->chart.nseries = nseries;
	f->chart.scale = scale;
	f->chart.xmax = xmax;
	if (!(f->caption = strdup(caption)))
		f->oom = true;
}

static void fig_sql(fig_t *f, int i, const char *sql)
{
	if (!(f->sql[i] = strdup(sql)))
		f->oom = true;
}

static void fig_heads(fig_t *f, const char *const *heads, int n)
{
	f->ncols = n;
	for (int i = 0; i < n; i++)
		add_cell(f, "%s", heads[i]);
}

/* The study query of study.c's view (report.c's table), as a reader types it. */
static void study_sql(db_t *db, fig_t *f, int i, const char *view)
{
	char cmd[1024];
	sqlite3_stmt *st = NULL;
	if (db__table_prepare(db, db__table(view), NULL, &st, cmd, sizeof cmd) == 0)
		fig_sql(f, i, cmd);
	sqlite3_finalize(st);
}

static double frac(int64_t part, int64_t whole)
{
	return whole ? (double)part / (double)whole : NAN;
}

/* ---- the study's figures (views study, study_gpu, study_kernel) ------------------------ */

static const char *app_name(fig_t *f, const db__study_t *s, int app)
{
	char buf[512];
	return keep(f, "%s", db__study_app_label(s, app, buf, sizeof buf));
}

static const char *const outcome_series[] = {"Masked", "SDC", "DUE"};
static const char *const outcome_colors[] = {"#a0cbe8", "#e15759", "#f28e2b"};

/* The bar of application app under the heading *group (drawn above the
 * first bar only: *group is cleared), and the first cells of its table
 * row: the group's name and the application. NULL when out of memory. */
static db__bar_t *app_bar(fig_t *f, const char **group, const char *group_name, const db__study_t *s, int app)
{
	db__bar_t *b = add_bar(f, *group, app_name(f, s, app));
	if (!b)
		return NULL;
	*group = NULL;
	add_cell(f, "%s", group_name);
	add_cell(f, "%s", b->label);
	return b;
}

static void put_interval(fig_t *f, double v, double lo, double hi, double scale, const char *fmt)
{
	char a[64], b[64], c[64];
	if (isnan(v)) {
		add_cell(f, "-");
		add_cell(f, "-");
		return;
	}
	snprintf(a, sizeof a, fmt, scale * v);
	add_cell(f, "%s", a);
	if (isnan(lo) || isnan(hi)) {
		add_cell(f, "-");
		return;
	}
	snprintf(b, sizeof b, fmt, scale * lo);
	snprintf(c, sizeof c, fmt, scale * hi);
	add_cell(f, "[%s, %s]", b, c);
}

/* app_bar of one value with its interval as whiskers, and the cells value
 * and interval (fmt of scale x each). false when out of memory. */
static bool value_bar(fig_t *f, const char **group, const char *group_name, const db__study_t *s, int app, double v,
                      double lo, double hi, const char *fmt)
{
	db__bar_t *b = app_bar(f, group, group_name, s, app);
	if (!b)
		return false;
	b->seg[0] = v;
	b->lo = lo;
	b->hi = hi;
	put_interval(f, v, lo, hi, f->chart.scale, fmt);
	return true;
}

/* GUFI Figures 3-7. */
static void fig_outcomes(db_t *db, const db__study_t *s, fig_t *f)
{
	fig_init(f, "outcomes", "Outcomes per structure and application (GUFI Figures 3-7)",
	         "share of the injected faults, %", outcome_series, 3, 100, 100,
	         "Each bar: one campaign's experiments by outcome, Masked, SDC (silent data corruption) and DUE "
	         "(detected unrecoverable error), as a share of its n; one group per structure. * marks a campaign "
	         "with fewer experiments than planned.");
	f->chart.colors = outcome_colors;
	study_sql(db, f, 0, "study");
	fig_heads(f, (const char *const[]){"structure", "app", "n", "masked", "sdc", "due", "Masked", "SDC", "DUE"},
	          9);
	for (int st = 0; st < s->nstructures; st++) {
		const char *group = keep(f, "%s", s->structures[st]);
		for (size_t i = 0; i < s->ncells; i++) {
			const db__cell_t *c = &s->cells[i];
			db__bar_t *b;
			if (c->structure != st)
				continue;
			if (!(b = app_bar(f, &group, s->structures[st], s, c->app)))
				return;
			b->seg[0] = frac(c->masked, c->n);
			b->seg[1] = frac(c->sdc, c->n);
			b->seg[2] = frac(c->due, c->n);
			add_cell(f, "%" PRId64 "%s", c->n, c->unfinished ? "*" : "");
			add_cell(f, "%" PRId64, c->masked);
			add_cell(f, "%" PRId64, c->sdc);
			add_cell(f, "%" PRId64, c->due);
			for (int k = 0; k < 3; k++)
				add_cell(f, "%.2f%%", 100 * b->seg[k]);
		}
	}
}

/* GUFI Figure 8. */
static void fig_avf(db_t *db, const db__study_t *s, fig_t *f)
{
	fig_init(f, "avf", "AVF per structure and application, with its confidence interval (GUFI Figure 8)",
	         "AVF (AVF x df, the structure's AVF), %; whiskers: the interval", (const char *const[]){"AVF"}, 1, 100,
	         0,
	         "Bars: the structure's AVF, (SDC + DUE) / n under physical sampling, under live sampling the mean of "
	         "live_bits / bits_per_sm x failed (column avf_derated); whiskers: its Wilson interval at the "
	         "campaign's confidence (avf_derated_lo, avf_derated_hi).");
	study_sql(db, f, 0, "study");
	fig_heads(f, (const char *const[]){"structure", "app", "AVF", "interval", "n"}, 5);
	for (int st = 0; st < s->nstructures; st++) {
		const char *group = keep(f, "%s", s->structures[st]);
		for (size_t i = 0; i < s->ncells; i++) {
			const db__cell_t *c = &s->cells[i];
			if (c->structure != st)
				continue;
			if (!value_bar(f, &group, s->structures[st], s, c->app, c->avf, c->lo, c->hi, "%.2f%%"))
				return;
			add_cell(f, "%" PRId64 "%s", c->n, c->unfinished ? "*" : "");
		}
	}
}

/* GUFI Figure 9: each structure, then the GPU in each register mode. */
static void fig_fit(db_t *db, const db__study_t *s, fig_t *f)
{
	fig_init(f, "fit", "FIT per structure and for the GPU (GUFI Figure 9)",
	         "FIT (failures in 10^9 device-hours); whiskers: the interval", (const char *const[]){"FIT"}, 1, 1, 0,
	         "FIT of a structure: AVF x df x FIT/bit x bits (view study, from view fit); GPU MODE: the register "
	         "file (and predicates) in register mode MODE plus every other structure (view study_gpu, fit_total "
	         "with fit_lo, fit_hi). Instruction words and functional units have no FIT (no storage a FIT/bit "
	         "scales).");
	study_sql(db, f, 0, "study");
	study_sql(db, f, 1, "study_gpu");
	fig_heads(f, (const char *const[]){"structure", "app", "FIT", "interval"}, 4);
	for (int st = 0; st < s->nstructures; st++) {
		const char *group = keep(f, "%s", s->structures[st]);
		for (size_t i = 0; i < s->ncells; i++) {
			const db__cell_t *c = &s->cells[i];
			if (c->structure == st && !isnan(c->fit) &&
			    !value_bar(f, &group, s->structures[st], s, c->app, c->fit, c->fit_lo, c->fit_hi, "%.1f"))
				return;
		}
	}
	for (int m = 0; m < s->nmodes; m++) {
		const char *name = keep(f, "GPU %s", s->modes[m]), *group = name;
		for (size_t i = 0; i < s->ngpus; i++) {
			const db__gpu_t *g = &s->gpus[i];
			if (g->mode == m && !isnan(g->fit) &&
			    !value_bar(f, &group, name ? name : "", s, g->app, g->fit, g->fit_lo, g->fit_hi, "%.1f"))
				return;
		}
	}
}

/* GUFI Figure 10. */
static void fig_ipc_fit(db_t *db, const db__study_t *s, fig_t *f)
{
	fig_init(f, "ipc-fit", "IPC/FIT per application and register mode (GUFI Figure 10)",
	         "IPC/FIT (thread-instructions per cycle per FIT); whiskers: IPC / FIT's bounds",
	         (const char *const[]){"IPC/FIT"}, 1, 1, 0,
	         "IPC: thread-instructions per cycle in the golden run of that register mode; FIT: the GPU's (view "
	         "study_gpu, ipc_per_fit); whiskers IPC / fit_hi .. IPC / fit_lo, none where fit_lo is 0 (no upper "
	         "bound). No bar where the FIT is 0.");
	study_sql(db, f, 0, "study_gpu");
	fig_heads(f, (const char *const[]){"mode", "app", "IPC/FIT", "interval", "IPC", "FIT"}, 6);
	for (int m = 0; m < s->nmodes; m++) {
		const char *group = keep(f, "%s", s->modes[m]);
		for (size_t i = 0; i < s->ngpus; i++) {
			const db__gpu_t *g = &s->gpus[i];
			if (g->mode != m || isnan(g->ipc_per_fit))
				continue;
			bool bounded = g->fit_hi > 0 && g->fit_lo > 0;
			if (!value_bar(f, &group, s->modes[m], s, g->app, g->ipc_per_fit, bounded ? g->ipc / g->fit_hi : NAN,
			               bounded ? g->ipc / g->fit_lo : NAN, "%.4g"))
				return;
			add_cell(f, "%.2f", g->ipc);
			add_cell(f, "%.1f", g->fit);
		}
	}
}

/* GUFI Table IV as a figure: each application's AVF of a structure split
 * into its kernels' parts (12 kernels by name, the rest as "other"). */
static void fig_kernels(db_t *db, const db__study_t *s, fig_t *f)
{
	fig_init(f, "kernels", "AVF per kernel: each kernel's part of the AVF (GUFI Table IV)",
	         "contribution to the structure's AVF, %", NULL, 0, 100, 0,
	         "Each bar: one application's AVF of a structure (AVF x df) split into its kernels' contributions "
	         "(view study_kernel, column contribution; the parts add up to the AVF of the figure above when every "
	         "fault falls in a kernel).");
	study_sql(db, f, 0, "study_kernel");
	fig_heads(f, (const char *const[]){"structure", "app", "kernel", "invocations", "contribution"}, 5);
	char name[256];
	for (size_t k = 0; k < s->nkernels; k++) {
		const char *kn = db_demangle(s->kernels[k].name, false, name, sizeof name);
		int i = 0;
		while (i < f->chart.nseries && strcmp(f->series[i], kn))
			i++;
		if (i == f->chart.nseries && i < DB__SVG_MAXSEG - 1)
			f->series[f->chart.nseries++] = keep(f, "%s", kn);
	}
	if ((size_t)f->chart.nseries < s->nkernels) {
		bool more = false;
		for (size_t k = 0; k < s->nkernels && !more; k++) {
			const char *kn = db_demangle(s->kernels[k].name, false, name, sizeof name);
			more = true;
			for (int i = 0; i < f->chart.nseries && more; i++)
				more = strcmp(f->series[i], kn) != 0;
		}
		if (more)
			f->series[f->chart.nseries++] = "other";
	}
	for (int st = 0; st < s->nstructures; st++) {
		const char *group = keep(f, "%s", s->structures[st]);
		for (int a = 0; a < s->napps; a++) {
			db__bar_t *b = NULL;
			for (size_t k = 0; k < s->nkernels; k++) {
				const db__kernel_t *kr = &s->kernels[k];
				if (kr->app != a || isnan(kr->contribution[st]))
					continue;
				if (!b && !(b = add_bar(f, group, app_name(f, s, a))))
					return;
				group = NULL;
				const char *kn = db_demangle(kr->name, false, name, sizeof name);
				int i = 0;
				while (i < f->chart.nseries - 1 && strcmp(f->series[i], kn))
					i++;
				b->seg[i] += kr->contribution[st];
				add_cell(f, "%s", s->structures[st]);
				add_cell(f, "%s", b->label);
				add_cell(f, "%s", kn);
				add_cell(f, "%" PRId64, kr->invocations);
				add_cell(f, "%.2f%%", 100 * kr->contribution[st]);
			}
		}
	}
}

/* ---- the report's figures (report.c's tables) ------------------------------------------ */

static double num(sqlite3_stmt *st, const char *col)
{
	int i = db__column_index(st, col);
	return i < 0 || sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static const char *text(sqlite3_stmt *st, const char *col)
{
	int i = db__column_index(st, col);
	const unsigned char *t = i < 0 ? NULL : sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

/* Adds one row's bar to f (the figure's own part). */
typedef void bar_fn(fig_t *f, sqlite3_stmt *st, const char *prev_group);

/* f's table and bars from the report's table of view (where: its filter,
 * NULL for the table's own). */
static int table_fig(db_t *db, fig_t *f, const char *view, const char *where, bar_fn *fn)
{
	const db__table_t *t = db__table(view);
	char cmd[1024];
	sqlite3_stmt *st = NULL;
	int err = db__table_prepare(db, t, where, &st, cmd, sizeof cmd), rc;
	if (err)
		return err;
	fig_sql(f, 0, cmd);
	f->ncols = db__table_ncols(t);
	for (int c = 0; c < f->ncols; c++)
		add_cell(f, "%s", db__table_head(t, c));
	const char *group = NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !f->oom) {
		for (int c = 0; c < f->ncols; c++) {
			char buf[512];
			db__table_cell(t, st, c, buf, sizeof buf);
			add_cell(f, "%s", buf);
		}
		fn(f, st, group);
		if (f->nbars && f->bars[f->nbars - 1].group)
			group = f->bars[f->nbars - 1].group;
	}
	sqlite3_finalize(st);
	if (f->oom)
		return db__fail(db, DB_ENOMEM, "out of memory drawing the report");
	return rc == SQLITE_DONE ? 0 : db__sqlerr(db, rc, "reading the report");
}

/* A group heading for a new campaign: "#id name"; NULL within the same one. */
static const char *campaign_group(fig_t *f, sqlite3_stmt *st, const char *prev)
{
	char head[512];
	snprintf(head, sizeof head, "#%.0f %s", num(st, "campaign_id"), text(st, "campaign"));
	if (prev && !strcmp(prev, head))
		return NULL;
	return keep(f, "%s", head);
}

static void campaign_bar(fig_t *f, sqlite3_stmt *st, const char *prev)
{
	(void)prev;
	db__bar_t *b = add_bar(f, NULL,
	                       keep(f, "#%.0f %s (%s)", num(st, "campaign_id"), text(st, "campaign"), text(st, "target")));
	if (!b)
		return;
	b->seg[0] = num(st, "sdc_avf");
	b->seg[1] = num(st, "due_avf");
	b->lo = num(st, "avf_lo");
	b->hi = num(st, "avf_hi");
}

static const char *const sdc_due_series[] = {"SDC", "DUE"};
static const char *const sdc_due_colors[] = {"#e15759", "#f28e2b"};

static int fig_campaigns(db_t *db, fig_t *f)
{
	fig_init(f, "campaigns", "AVF per campaign, split into SDC and DUE", "AVF, %; whiskers: the interval",
	         sdc_due_series, 2, 100, 0,
	         "Every campaign (view avf, row kernel = 'all'): its AVF (the failing share of the faults in the "
	         "sampled bits; live sampling: of the bits in use) split into SDC and DUE (sdc_avf, due_avf), whiskers "
	         "its Wilson interval (avf_lo, avf_hi); AVF x df in the table.");
	f->chart.colors = sdc_due_colors;
	return table_fig(db, f, "avf", NULL, campaign_bar);
}

static void insn_bar(fig_t *f, sqlite3_stmt *st, const char *prev)
{
	db__bar_t *b = add_bar(f, campaign_group(f, st, prev), keep(f, "%s", text(st, "insn")));
	if (b)
		b->seg[0] = num(st, "contribution");
}

static void vreg_bar(fig_t *f, sqlite3_stmt *st, const char *prev)
{
	char name[256];
	db__bar_t *b = add_bar(f, campaign_group(f, st, prev),
	                       keep(f, "%s %s", db_demangle(text(st, "kernel"), false, name, sizeof name),
	                            text(st, "vreg")));
	if (b)
		b->seg[0] = num(st, "contribution");
}

static const char *const contribution_series[] = {"contribution"};

static int fig_insn(db_t *db, fig_t *f)
{
	fig_init(f, "insn", "Most vulnerable instructions", "contribution to the campaign's AVF x df, %",
	         contribution_series, 1, 100, 0,
	         "The static instructions that read a fault first, the top 10 of each campaign by failures (view "
	         "avf_insn, column contribution: the instruction's part of the campaign's AVF x df).");
	return table_fig(db, f, "avf_insn", NULL, insn_bar);
}

static int fig_vreg(db_t *db, fig_t *f)
{
	fig_init(f, "vreg", "Most vulnerable registers", "contribution to the campaign's AVF x df, %",
	         contribution_series, 1, 100, 0,
	         "The PTX registers (and predicates) a fault hit, the top 10 of each campaign by failures (view "
	         "avf_vreg, column contribution).");
	return table_fig(db, f, "avf_vreg", NULL, vreg_bar);
}

static void protection_bar(fig_t *f, sqlite3_stmt *st, const char *prev)
{
	(void)prev;
	const char *codes = text(st, "codes");
	db__bar_t *b = add_bar(f, NULL,
	                       keep(f, "#%.0f %s (%s): %s", num(st, "campaign_id"), text(st, "campaign"),
	                            text(st, "target"), *codes ? codes : "unprotected"));
	if (!b)
		return;
	double due = num(st, "due_avf"), det = num(st, "detected_avf");
	b->seg[0] = num(st, "sdc_avf");
	b->seg[1] = isnan(det) ? due : due - det;
	b->seg[2] = det;
}

static const char *const protection_series[] = {"SDC", "DUE, undetected", "DUE, detected by the protection"};
static const char *const protection_colors[] = {"#e15759", "#f28e2b", "#59a14f"};

/* The campaigns of every workload, GPU and target that has a protected
 * one, protected or not, side by side. */
static int fig_protection(db_t *db, fig_t *f)
{
	fig_init(f, "protection", "Protection: AVF of the protected and unprotected campaigns of a structure",
	         "AVF, %", protection_series, 3, 100, 0,
	         "Every campaign of a workload, GPU and structure that has a protected campaign (view "
	         "protection_summary; codes: the "
	         "campaign's protection): its AVF split into SDC, DUE the protection did not detect, and DUE it "
	         "detected (sdc_avf, due_avf - detected_avf, detected_avf); the table counts each run's first "
	         "protection event.");
	f->chart.colors = protection_colors;
	return table_fig(db, f, "protection_summary",
	                 "campaign_id IN (SELECT c.id FROM campaigns c JOIN campaigns p USING (workload, gpu, target)"
	                 " JOIN protection_summary s ON s.campaign_id = p.id WHERE s.protection IS NOT NULL)",
	                 protection_bar);
}

/* ---- output ------------------------------------------------------------------------------ */

static void put_table(const fig_t *f, FILE *out)
{
	fputs("<div class=\"tab\"><table>\n<tr>", out);
	for (size_t i = 0; i < f->ncells; i++) {
		const char *s = f->cells[i];
		int c = (int)(i % (size_t)f->ncols);
		if (i == (size_t)f->ncols)
			fputs("</tr>\n<tr>", out);
		else if (i > 0 && c == 0)
			fputs("</tr>\n<tr>", out);
		bool head = i < (size_t)f->ncols;
		bool number = !head && (s[0] == '-' || s[0] == '[' || (s[0] >= '0' && s[0] <= '9'));
		fputs(head ? "<th>" : number ? "<td class=\"n\">" : "<td>", out);
		db__xml_escape(s, out);
		fputs(head ? "</th>" : "</td>", out);
	}
	fputs("</tr>\n</table>", out);
	if (f->ncells <= (size_t)f->ncols)
		fputs("<p>(no rows)</p>", out);
	fputs("</div>\n", out);
}

static void put_figure(const fig_t *f, const char *name, FILE *out)
{
	fprintf(out, "<section id=\"%s\">\n<h2>", f->chart.id);
	db__xml_escape(f->chart.title, out);
	fputs("</h2>\n<p>", out);
	db__xml_escape(f->caption, out);
	fputs("</p>\n<div class=\"fig\">\n", out);
	db__svg_chart(&f->chart, out);
	put_table(f, out);
	fputs("</div>\n", out);
	for (int i = 0; i < 2 && f->sql[i]; i++) {
		fputs("<p class=\"sql\">SQL: <code>sqlite3 ", out);
		db__xml_escape(name, out);
		fputs(" \"", out);
		db__xml_escape(f->sql[i], out);
		fputs("\"</code></p>\n", out);
	}
	fputs("</section>\n", out);
}

static const char style[] =
	"body{font-family:sans-serif;font-size:14px;margin:1.5em;color:#222;max-width:1800px}"
	"h1{font-size:22px}h2{font-size:17px;margin-top:1.6em;border-bottom:1px solid #ccc}"
	".fig{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
	".tab{overflow-x:auto;max-width:100%}"
	"table{border-collapse:collapse;font-size:12px}th,td{padding:2px 6px;border-bottom:1px solid #e4e4e4;"
	"white-space:nowrap}th{text-align:left;background:#f3f3f3}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}"
	".sql code{background:#f6f6f6;padding:1px 4px;font-size:12px}nav a{margin-right:1em}";

/* The campaigns' count and the flipsim versions that ran them (the page's
 * only facts about the database besides the figures). */
static int put_header(db_t *db, const char *name, FILE *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql,
	                            "SELECT count(*), (SELECT group_concat(v, ', ') FROM (SELECT DISTINCT tool_version AS v"
	                            " FROM campaigns ORDER BY v)) FROM campaigns",
	                            -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db__sqlerr(db, rc, "preparing the report");
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db__sqlerr(db, rc, "reading the report");
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>flipsim report: ", out);
	db__xml_escape(name, out);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>flipsim report: ", style);
	db__xml_escape(name, out);
	fprintf(out, "</h1>\n<p>%" PRId64 " campaign%s", (int64_t)sqlite3_column_int64(st, 0),
	        sqlite3_column_int64(st, 0) == 1 ? "" : "s");
	if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
		fputs(", run by flipsim ", out);
		db__xml_escape((const char *)sqlite3_column_text(st, 1), out);
	}
	fputs(". Every figure is drawn from an SQL view of the database; the table beside it holds the same "
	      "numbers, and the command under it prints them (db/README.md describes the views).</p>\n",
	      out);
	sqlite3_finalize(st);
	return 0;
}

enum { F_OUTCOMES, F_AVF, F_FIT, F_IPC_FIT, F_KERNELS, F_CAMPAIGNS, F_INSN, F_VREG, F_PROTECTION, NFIGS };

static int build_figures(db_t *db, fig_t *figs, bool *shown)
{
	db__study_t s;
	int err = db__study_load(db, &s);
	if (err)
		return err;
	fig_outcomes(db, &s, &figs[F_OUTCOMES]);
	fig_avf(db, &s, &figs[F_AVF]);
	fig_fit(db, &s, &figs[F_FIT]);
	fig_ipc_fit(db, &s, &figs[F_IPC_FIT]);
	fig_kernels(db, &s, &figs[F_KERNELS]);
	db__study_free(&s);
	if ((err = fig_campaigns(db, &figs[F_CAMPAIGNS])) || (err = fig_insn(db, &figs[F_INSN])) ||
	    (err = fig_vreg(db, &figs[F_VREG])) || (err = fig_protection(db, &figs[F_PROTECTION])))
		return err;
	for (int i = 0; i < NFIGS; i++) {
		if (figs[i].oom)
			return db__fail(db, DB_ENOMEM, "out of memory drawing the report");
		figs[i].chart.bars = figs[i].bars;
		figs[i].chart.nbars = figs[i].nbars;
		shown[i] = true;
	}
	/* the protection comparison only when a campaign is protected */
	shown[F_PROTECTION] = figs[F_PROTECTION].nbars > 0;
	return 0;
}

/* Writes path through path.tmp, renamed once complete. */
static FILE *open_tmp(db_t *db, const char *path, char *tmp, size_t tmpsz)
{
	snprintf(tmp, tmpsz, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		db__fail(db, DB_EIO, "cannot write %s: %s", tmp, strerror(errno));
	return f;
}

static int close_tmp(db_t *db, FILE *f, const char *tmp, const char *path)
{
	int code = 0;
	if ((ferror(f) | fclose(f)) != 0)
		code = db__fail(db, DB_EIO, "cannot write %s: %s", tmp, strerror(errno));
	else if (rename(tmp, path) != 0)
		code = db__fail(db, DB_EIO, "cannot write %s: %s", path, strerror(errno));
	if (code)
		unlink(tmp);
	return code;
}

static int write_page(db_t *db, const fig_t *figs, const bool *shown, const char *name, const char *path)
{
	char tmp[4096];
	FILE *out = open_tmp(db, path, tmp, sizeof tmp);
	if (!out)
		return DB_EIO;
	int err = put_header(db, name, out);
	if (err) {
		fclose(out);
		unlink(tmp);
		return err;
	}
	fputs("<nav>", out);
	for (int i = 0; i < NFIGS; i++)
		if (shown[i])
			fprintf(out, "<a href=\"#%s\">%s</a>", figs[i].chart.id, figs[i].chart.id);
	fputs("</nav>\n", out);
	for (int i = 0; i < NFIGS; i++)
		if (shown[i])
			put_figure(&figs[i], name, out);
	fputs("</body>\n</html>\n", out);
	return close_tmp(db, out, tmp, path);
}

static int write_svgs(db_t *db, const fig_t *figs, const bool *shown, const char *dir)
{
	for (int i = 0; i < NFIGS; i++) {
		if (!shown[i])
			continue;
		char path[4096], tmp[4096];
		snprintf(path, sizeof path, "%s/%s.svg", dir, figs[i].chart.id);
		FILE *out = open_tmp(db, path, tmp, sizeof tmp);
		if (!out)
			return DB_EIO;
		db__svg_chart(&figs[i].chart, out);
		int err = close_tmp(db, out, tmp, path);
		if (err)
			return err;
	}
	return 0;
}

int db_report_html(db_t *db, const char *name, const char *html_path, const char *svg_dir, char *err,
                   size_t errsz)
{
	if (err && errsz)
		err[0] = '\0';
	if (!db || !name || (!html_path && !svg_dir)) {
		if (err && errsz)
			snprintf(err, errsz, "db_report_html: invalid argument");
		return DB_EINVAL;
	}
	fig_t figs[NFIGS] = {0};
	bool shown[NFIGS] = {0};
	int code, rc = sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		code = db__sqlerr(db, rc, "starting a read transaction");
	else if (!(code = build_figures(db, figs, shown)) && html_path)
		code = write_page(db, figs, shown, name, html_path);
	if (!code && svg_dir)
		code = write_svgs(db, figs, shown, svg_dir);
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	for (int i = 0; i < NFIGS; i++)
		fig_free(&figs[i]);
	if (code && err && errsz)
		snprintf(err, errsz, "%s", db->msg);
	return code;
}
