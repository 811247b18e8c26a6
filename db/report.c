/* report.c — prints the avf, avf_kernel, fit and mitf views (db_report) and
 * the study views (db_report_study) as aligned text, CSV or JSON. The
 * numbers come from the views alone (db.c), so the report, `flipsim status`
 * and a user's own SQL agree; study.c lays out the study's text tables. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_int.h"

/* How the text format shows a column (CSV and JSON print every column of
 * the view as stored). */
typedef enum {
	K_STR,      /* text as is */
	K_INT,      /* integer */
	K_PCT,      /* fraction as "7.00%" */
	K_PCT_IV,   /* col, col2 fractions as "[3.43%, 13.76%]" */
	K_CONF,     /* fraction as "95%" */
	K_FIX3,     /* "%.3f" */
	K_FIX1,     /* "%.1f" */
	K_FIX1_IV,  /* col, col2 as "[%.1f, %.1f]" */
	K_FIX2,     /* "%.2f" */
	K_G4,       /* "%.4g" */
	K_SCI,      /* "%.3e" */
	K_G4_IV,    /* col, col2 as "[%.4g, %.4g]"; col2 NULL: no upper bound, "[%.4g, inf)" */
	K_SCI_IV,   /* the same with "%.3e" */
	K_KERNEL,   /* col 'all' or launch index, col2 kernel name: "3 vadd" */
	K_KNAME,    /* a kernel name, demangled (db_demangle) */
} kind_t;

typedef struct {
	const char *head;
	const char *col, *col2;
	kind_t kind;
} tcol_t;

typedef struct db__table {
	const char *view;
	const char *title;
	const char *where; /* row filter, or NULL */
	const char *order;
	const tcol_t *cols;
	int ncols;
	const char *extra; /* columns after `SELECT *` (", expr AS name"), or NULL */
	bool optional;     /* text and CSV: left out when it has no rows */
} table_t;

static const tcol_t avf_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"target", "target", NULL, K_STR},
	{"kernel", "kernel", "kernel_name", K_KERNEL},
	{"n", "n", NULL, K_INT},
	{"masked", "masked", NULL, K_INT},
	{"sdc", "sdc", NULL, K_INT},
	{"due", "due", NULL, K_INT},
	{"AVF", "avf", NULL, K_PCT},
	{"interval", "avf_lo", "avf_hi", K_PCT_IV},
	{"conf", "confidence", NULL, K_CONF},
	{"df", "df", NULL, K_FIX3},
	{"AVF x df", "avf_derated", NULL, K_PCT},
	{"interval", "avf_derated_lo", "avf_derated_hi", K_PCT_IV},
	{"sampling", "design", NULL, K_STR},
};

/* How the avf table's campaign was sampled (README, "Campaign JSON"):
 * stratified by kernel, sequential with its looks and why it stopped. */
#define AVF_DESIGN \
	", (SELECT trim(CASE WHEN stratified THEN 'stratified' ELSE '' END ||" \
	" CASE WHEN c.looks IS NULL THEN ''" \
	" WHEN c.stop IS NULL THEN ' sequential, ' || c.looks || ' looks'" \
	" ELSE ' stopped at ' || json_extract(c.stop, '$.n') || ' (' || json_extract(c.stop, '$.reason') || ')' END)" \
	" FROM campaigns c WHERE c.id = campaign_id) AS design"

static const tcol_t avf_kernel_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"target", "target", NULL, K_STR},
	{"kernel", "kernel_name", NULL, K_KNAME},
	{"invocations", "invocations", NULL, K_INT},
	{"n", "n", NULL, K_INT},
	{"share", "share", NULL, K_PCT},
	{"masked", "masked", NULL, K_INT},
	{"sdc", "sdc", NULL, K_INT},
	{"due", "due", NULL, K_INT},
	{"AVF", "avf", NULL, K_PCT},
	{"interval", "avf_lo", "avf_hi", K_PCT_IV},
	{"df", "df", NULL, K_FIX3},
	{"AVF x df", "avf_derated", NULL, K_PCT},
	{"contribution", "contribution", NULL, K_PCT},
};

static const tcol_t fit_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"workload", "workload", NULL, K_STR},
	{"gpu", "gpu", NULL, K_STR},
	{"regs", "regs", NULL, K_STR},
	{"target", "target", NULL, K_STR},
	{"n", "n", NULL, K_INT},
	{"bits", "bits", NULL, K_INT},
	{"FIT/bit", "fit_per_bit", NULL, K_G4},
	{"AVF x df", "avf_derated", NULL, K_PCT},
	{"FIT", "fit", NULL, K_FIX1},
	{"interval", "fit_lo", "fit_hi", K_FIX1_IV},
	{"fail/insn", "fail_per_insn", NULL, K_PCT},
	{"interval", "fail_per_insn_lo", "fail_per_insn_hi", K_PCT_IV},
};

static const tcol_t avf_insn_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"rank", "rank", NULL, K_INT},
	{"pc", "pc", NULL, K_INT},
	{"PTX line", "ptx_line", NULL, K_INT},
	{"instruction", "insn", NULL, K_STR},
	{"first reads", "reads", NULL, K_INT},
	{"sdc", "sdc", NULL, K_INT},
	{"due", "due", NULL, K_INT},
	{"failed", "failure_rate", NULL, K_PCT},
	{"of failures", "failure_share", NULL, K_PCT},
	{"contribution", "contribution", NULL, K_PCT},
};

static const tcol_t avf_vreg_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"rank", "rank", NULL, K_INT},
	{"kernel", "kernel", NULL, K_KNAME},
	{"register", "vreg", NULL, K_STR},
	{"n", "n", NULL, K_INT},
	{"sdc", "sdc", NULL, K_INT},
	{"due", "due", NULL, K_INT},
	{"failed", "failure_rate", NULL, K_PCT},
	{"of failures", "failure_share", NULL, K_PCT},
	{"contribution", "contribution", NULL, K_PCT},
};

static const tcol_t sdc_severity_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"output", "output", NULL, K_STR},
	{"corrupted", "corrupted_elements", NULL, K_STR},
	{"max rel. error", "max_rel_error", NULL, K_STR},
	{"SDCs", "sdcs", NULL, K_INT},
};

static const tcol_t protection_cols[] = {
	{"id", "campaign_id", NULL, K_INT},
	{"campaign", "campaign", NULL, K_STR},
	{"target", "target", NULL, K_STR},
	{"codes", "codes", NULL, K_STR},
	{"n", "n", NULL, K_INT},
	{"corrected", "corrected", NULL, K_INT},
	{"miscorrected", "miscorrected", NULL, K_INT},
	{"detected", "detected", NULL, K_INT},
	{"undetected", "undetected", NULL, K_INT},
	{"recovered", "recovered", NULL, K_INT},
	{"uncovered", "uncovered", NULL, K_INT},
	{"detected DUE", "detected_due", NULL, K_INT},
	{"AVF", "avf", NULL, K_PCT},
	{"SDC AVF", "sdc_avf", NULL, K_PCT},
	{"DUE AVF", "due_avf", NULL, K_PCT},
	{"detected AVF", "detected_avf", NULL, K_PCT},
};

static const tcol_t mitf_cols[] = {
	{"workload", "workload", NULL, K_STR},
	{"gpu", "gpu", NULL, K_STR},
	{"regs", "regs", NULL, K_STR},
	{"targets", "targets", NULL, K_STR},
	{"IPC", "ipc", NULL, K_FIX2},
	{"clock MHz", "clock_mhz", NULL, K_G4},
	{"FIT", "fit_total", NULL, K_FIX1},
	{"interval", "fit_lo", "fit_hi", K_FIX1_IV},
	{"IPC/FIT", "ipc_per_fit", NULL, K_G4},
	{"interval", "ipc_per_fit_lo", "ipc_per_fit_hi", K_G4_IV},
	{"MITF (instructions)", "mitf", NULL, K_SCI},
	{"interval", "mitf_lo", "mitf_hi", K_SCI_IV},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const table_t tables[] = {
	{"avf",
	 "AVF (Wilson score intervals at each campaign's confidence; live sampling: AVF of the bits in use, df their\n"
	 "measured share, AVF x df = mean of live_bits / bits_per_sm x failed, the structure's AVF; stratified: each\n"
	 "kernel weighted by its share of the cycles; sequential: the interval holds over all its looks; stopped at n\n"
	 "(margin: narrow enough, max: the most injections))",
	 "kernel = 'all'", "campaign_id", avf_cols, COUNT(avf_cols), AVF_DESIGN, false},
	{"protection_summary",
	 "Protection: the codes and schemes of protected campaigns, the first event one met in each run (corrected,\n"
	 "miscorrected, detected: a DUE ecc_uncorrectable, parity_error, ibuffer_parity, refu_mismatch,\n"
	 "penny_unrecoverable or dup_mismatch, undetected: a codeword error, recovered: an instruction-buffer word\n"
	 "re-issued corrected or a Penny rollback, uncovered: an FU fault on an instruction REFU does not replay), the\n"
	 "DUEs they detected and the AVF split into SDC and DUE, detected DUEs a part of the latter",
	 "protection IS NOT NULL", "campaign_id", protection_cols, COUNT(protection_cols), NULL, true},
	{"avf_kernel",
	 "AVF per kernel: its invocations together (share: of the experiments; contribution: to the campaign's AVF;\n"
	 "per invocation: SQL view avf)",
	 NULL, "campaign_id, first_launch", avf_kernel_cols, COUNT(avf_kernel_cols), NULL, false},
	{"fit",
	 "FIT per structure (AVF x df x FIT/bit x bits; fu and instruction words: the failure probability per\n"
	 "executed instruction hit instead, fail/insn, as their bits are no storage a FIT/bit could scale)",
	 NULL, "campaign_id", fit_cols, COUNT(fit_cols), NULL, false},
	{"mitf",
	 "MITF per workload, GPU and register mode (newest application-scope campaign per target and fields; FIT:\n"
	 "the structures' sum with a confidence interval from theirs, IPC/FIT and MITF with the intervals it gives)",
	 NULL, "workload, gpu, regs", mitf_cols, COUNT(mitf_cols), NULL, false},
	{"avf_insn",
	 "Most vulnerable static instructions: the first instruction to read a fault (top 10 per campaign by failures,\n"
	 "those with any; failed: of the faults it read first; contribution: to the campaign's AVF x df; all of them:\n"
	 "SQL view avf_insn)",
	 "rank <= 10 AND failures > 0", "campaign_id, rank, pc", avf_insn_cols, COUNT(avf_insn_cols), NULL, true},
	{"avf_vreg",
	 "Most vulnerable PTX registers: the virtual register a fault hit (top 10 per campaign by failures, those\n"
	 "with any; SQL view avf_vreg)",
	 "rank <= 10 AND failures > 0", "campaign_id, rank, kernel, vreg", avf_vreg_cols, COUNT(avf_vreg_cols), NULL, true},
	{"sdc_severity",
	 "SDC severity: corrupted elements of each output and the largest relative error (SQL views sdc_outputs,\n"
	 "sdc_severity)",
	 NULL, "campaign_id, output, corrupted_elements, max_rel_error", sdc_severity_cols, COUNT(sdc_severity_cols),
	 NULL, true},
};

/* The study's views; their text form is study.c's. */
static const table_t study_tables[] = {
	{"study", NULL, NULL, "structure_rank, structure, workload, gpu", NULL, 0, DB_STUDY_EXTRA, false},
	{"study_gpu", NULL, NULL, "regs, workload, gpu", NULL, 0, DB_STUDY_GPU_EXTRA, false},
	{"study_kernel", NULL, NULL, "workload, gpu, structure_rank, structure, first_launch, kernel_name", NULL, 0, NULL,
	 false},
};

int db__column_index(sqlite3_stmt *st, const char *name)
{
	int n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++)
		if (strcmp(sqlite3_column_name(st, i), name) == 0)
			return i;
	return -1;
}

/* ---- text ---------------------------------------------------------------- */

static void cell_text(sqlite3_stmt *st, const tcol_t *c, int i1, int i2, char *buf, size_t sz)
{
	bool null1 = sqlite3_column_type(st, i1) == SQLITE_NULL;
	bool null2 = i2 >= 0 && sqlite3_column_type(st, i2) == SQLITE_NULL;
	double v1 = sqlite3_column_double(st, i1);
	double v2 = i2 >= 0 ? sqlite3_column_double(st, i2) : 0;
	char name[128];
	if (null1 && c->kind != K_KERNEL) {
		snprintf(buf, sz, "-");
		return;
	}
	switch (c->kind) {
	case K_STR: snprintf(buf, sz, "%s", (const char *)sqlite3_column_text(st, i1)); break;
	case K_INT: snprintf(buf, sz, "%" PRId64, (int64_t)sqlite3_column_int64(st, i1)); break;
	case K_PCT: snprintf(buf, sz, "%.2f%%", 100 * v1); break;
	case K_CONF: snprintf(buf, sz, "%g%%", 100 * v1); break;
	case K_FIX3: snprintf(buf, sz, "%.3f", v1); break;
	case K_FIX2: snprintf(buf, sz, "%.2f", v1); break;
	case K_FIX1: snprintf(buf, sz, "%.1f", v1); break;
	case K_G4: snprintf(buf, sz, "%.4g", v1); break;
	case K_SCI: snprintf(buf, sz, "%.3e", v1); break;
	case K_PCT_IV:
		if (null2)
			snprintf(buf, sz, "-");
		else
			snprintf(buf, sz, "[%.2f%%, %.2f%%]", 100 * v1, 100 * v2);
		break;
	case K_FIX1_IV:
		if (null2)
			snprintf(buf, sz, "-");
		else
			snprintf(buf, sz, "[%.1f, %.1f]", v1, v2);
		break;
	case K_G4_IV:
	case K_SCI_IV: {
		const char *f = c->kind == K_G4_IV ? "%.4g" : "%.3e";
		char lo[32], hi[32];
		snprintf(lo, sizeof lo, f, v1);
		snprintf(hi, sizeof hi, f, v2);
		snprintf(buf, sz, null2 ? "[%s, inf)" : "[%s, %s]", lo, hi);
		break;
	}
	case K_KNAME:
		snprintf(buf, sz, "%s", db_demangle((const char *)sqlite3_column_text(st, i1), false, name,
		                                    sizeof name));
		break;
	case K_KERNEL:
		if (null2)
			snprintf(buf, sz, "%s", (const char *)sqlite3_column_text(st, i1));
		else
			snprintf(buf, sz, "%s %s", (const char *)sqlite3_column_text(st, i1),
			         db_demangle((const char *)sqlite3_column_text(st, i2), false, name, sizeof name));
		break;
	}
}

static bool right_aligned(kind_t k)
{
	return k != K_STR && k != K_KNAME && k != K_KERNEL && k != K_PCT_IV && k != K_FIX1_IV && k != K_G4_IV &&
	       k != K_SCI_IV;
}

/* A text table as print_text gathers it: where each column's values are in
 * the statement, the cell texts (ncols per row, owned) and each column's
 * width, at least its heading's. */
typedef struct {
	int idx1[16], idx2[16];
	size_t width[16];
	char **cells;
	size_t rows, cap;
} text_t;

/* Formats the statement's current row into x's next row of cells. */
static int gather_row(db_t *db, const table_t *t, sqlite3_stmt *st, text_t *x)
{
	size_t nc = (size_t)t->ncols;
	if (x->rows == x->cap) {
		size_t ncap = x->cap ? 2 * x->cap : 16;
		char **grown = realloc(x->cells, ncap * nc * sizeof *x->cells);
		if (!grown)
			return db__fail(db, DB_ENOMEM, "out of memory formatting the report");
		x->cells = grown;
		x->cap = ncap;
	}
	char **row = &x->cells[x->rows * nc];
	for (int c = 0; c < t->ncols; c++) {
		char buf[256];
		cell_text(st, &t->cols[c], x->idx1[c], x->idx2[c], buf, sizeof buf);
		if (!(row[c] = strdup(buf))) {
			for (int d = c + 1; d < t->ncols; d++)
				row[d] = NULL;
			x->rows++;
			return db__fail(db, DB_ENOMEM, "out of memory formatting the report");
		}
		if (strlen(row[c]) > x->width[c])
			x->width[c] = strlen(row[c]);
	}
	x->rows++;
	return 0;
}

/* The title, the headings and the rows, each column as wide as its widest
 * cell. */
static void print_cells(const table_t *t, const text_t *x, FILE *out)
{
	fprintf(out, "%s\n", t->title);
	for (size_t r = 0; r <= x->rows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r ? x->cells[(r - 1) * (size_t)t->ncols + (size_t)c] : t->cols[c].head;
			int w = right_aligned(t->cols[c].kind) ? (int)x->width[c] : -(int)x->width[c];
			/* A left-aligned last column is not padded: no trailing blanks. */
			if (c == t->ncols - 1 && w < 0)
				w = 0;
			fprintf(out, "%s%*s", c ? "  " : "", w, s);
		}
		fputc('\n', out);
	}
	if (x->rows == 0)
		fprintf(out, "(no rows)\n");
}

/* Cells are gathered first so that every column is as wide as its widest
 * cell. */
static int print_text(db_t *db, const table_t *t, sqlite3_stmt *st, FILE *out)
{
	text_t x = {.cells = NULL};
	int err = 0, rc;
	for (int c = 0; c < t->ncols; c++) {
		x.idx1[c] = db__column_index(st, t->cols[c].col);
		x.idx2[c] = t->cols[c].col2 ? db__column_index(st, t->cols[c].col2) : -1;
		if (x.idx1[c] < 0 || (t->cols[c].col2 && x.idx2[c] < 0))
			return db__fail(db, DB_ESQL, "view %s lacks column %s", t->view, t->cols[c].col);
		x.width[c] = strlen(t->cols[c].head);
	}
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW)
		err = gather_row(db, t, st, &x);
	if (!err && rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "reading the report");
	if (!err)
		print_cells(t, &x, out);
	for (size_t i = 0; i < x.rows * (size_t)t->ncols; i++)
		free(x.cells[i]);
	free(x.cells);
	return err;
}

/* ---- CSV (RFC 4180 quoting) --------------------------------------------- */

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int print_csv(db_t *db, sqlite3_stmt *st, FILE *out)
{
	int n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		csv_field(out, sqlite3_column_name(st, i));
	}
	fputc('\n', out);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			if (sqlite3_column_type(st, i) != SQLITE_NULL)
				csv_field(out, (const char *)sqlite3_column_text(st, i));
		}
		fputc('\n', out);
	}
	return rc == SQLITE_DONE ? 0 : db__sqlerr(db, rc, "reading the report");
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *json_value(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT: {
		json_t *v = json_real(sqlite3_column_double(st, i)); /* NULL for inf/nan */
		return v ? v : json_null();
	}
	case SQLITE_TEXT: return json_string((const char *)sqlite3_column_text(st, i));
	default: return json_null();
	}
}

static int fill_json(db_t *db, sqlite3_stmt *st, json_t *arr)
{
	int n = sqlite3_column_count(st), rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *row = json_object();
		if (!row || json_array_append_new(arr, row))
			return db__fail(db, DB_ENOMEM, "out of memory formatting the report");
		for (int i = 0; i < n; i++)
			if (json_object_set_new(row, sqlite3_column_name(st, i), json_value(st, i)))
				return db__fail(db, DB_ENOMEM, "out of memory formatting the report");
	}
	return rc == SQLITE_DONE ? 0 : db__sqlerr(db, rc, "reading the report");
}

/* ---- entry points ---------------------------------------------------------- */

/* Prints one table (a view) in format: text and CSV to out, after a blank
 * line when it is not the first; JSON as root's member named after the
 * view. */
static int print_table(db_t *db, int format, const table_t *tab, bool blank, json_t *root, FILE *out)
{
	sqlite3_stmt *st = NULL;
	int code, rc = db__table_prepare(db, tab, NULL, &st, NULL, 0);
	if (rc)
		return rc;
	if (format != DB_JSON && tab->optional) { /* nothing to show: no table */
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc == SQLITE_DONE) {
			sqlite3_finalize(st);
			return 0;
		}
	}
	if (format != DB_JSON && blank)
		fputc('\n', out);
	if (format == DB_TEXT) {
		code = print_text(db, tab, st, out);
	} else if (format == DB_CSV) {
		code = print_csv(db, st, out);
	} else {
		json_t *arr = json_array();
		if (!arr || json_object_set_new(root, tab->view, arr))
			code = db__fail(db, DB_ENOMEM, "out of memory formatting the report");
		else
			code = fill_json(db, st, arr);
	}
	sqlite3_finalize(st);
	return code;
}

/* Prints tabs in format; DB_TEXT of the study (study = true) is study.c's.
 * One read transaction: one snapshot for every table, even while a
 * campaign writes. */
static int report(db_t *db, int format, const table_t *tabs, int ntabs, bool study, FILE *out, char *err,
                  size_t errsz)
{
	int code = 0;
	json_t *root = NULL;
	if (err && errsz)
		err[0] = '\0';
	if (!db || !out || format < DB_TEXT || format > DB_JSON) {
		if (err && errsz)
			snprintf(err, errsz, "db_report: invalid argument");
		return DB_EINVAL;
	}
	int rc = sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		code = db__sqlerr(db, rc, "starting a read transaction");
		goto fail;
	}
	if (format == DB_JSON && !(root = json_object())) {
		code = db__fail(db, DB_ENOMEM, "out of memory formatting the report");
		goto fail;
	}
	if (format == DB_TEXT && study) {
		if ((code = db__study_text(db, out)))
			goto fail;
		ntabs = 0;
	}
	for (int t = 0; t < ntabs; t++)
		if ((code = print_table(db, format, &tabs[t], t > 0, root, out)))
			goto fail;
	if (root && json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) != 0) {
		code = db__fail(db, DB_EIO, "cannot write the report");
		goto fail;
	}
	if (root)
		fputc('\n', out);
	if (fflush(out) != 0 || ferror(out)) {
		code = db__fail(db, DB_EIO, "cannot write the report");
		goto fail;
	}
	sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	json_decref(root);
	return 0;

fail:
	json_decref(root);
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	if (err && errsz)
		snprintf(err, errsz, "%s", db->msg);
	return code;
}

int db_report(db_t *db, int format, FILE *out, char *err, size_t errsz)
{
	return report(db, format, tables, COUNT(tables), false, out, err, errsz);
}

int db_report_study(db_t *db, int format, FILE *out, char *err, size_t errsz)
{
	return report(db, format, study_tables, COUNT(study_tables), true, out, err, errsz);
}

/* ---- the tables for html.c and --csv DIR ------------------------------------- */

const db__table_t *db__table(const char *view)
{
	for (int t = 0; t < COUNT(tables); t++)
		if (!strcmp(tables[t].view, view))
			return &tables[t];
	for (int t = 0; t < COUNT(study_tables); t++)
		if (!strcmp(study_tables[t].view, view))
			return &study_tables[t];
	return NULL;
}

int db__table_prepare(db_t *db, const db__table_t *t, const char *where, sqlite3_stmt **st, char *cmd,
                      size_t cmdsz)
{
	char sql[1024];
	if (!where)
		where = t->where;
	snprintf(sql, sizeof sql, "SELECT *%s FROM %s%s%s ORDER BY %s", t->extra ? t->extra : "", t->view,
	         where ? " WHERE " : "", where ? where : "", t->order);
	if (cmd && cmdsz)
		snprintf(cmd, cmdsz, "SELECT * FROM %s%s%s ORDER BY %s", t->view, where ? " WHERE " : "",
		         where ? where : "", t->order);
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, st, NULL);
	return rc == SQLITE_OK ? 0 : db__sqlerr(db, rc, "preparing the report");
}

int db__table_ncols(const db__table_t *t)
{
	return t->ncols;
}

const char *db__table_head(const db__table_t *t, int col)
{
	return t->cols[col].head;
}

void db__table_cell(const db__table_t *t, sqlite3_stmt *st, int col, char *buf, size_t sz)
{
	const tcol_t *c = &t->cols[col];
	int i1 = db__column_index(st, c->col), i2 = c->col2 ? db__column_index(st, c->col2) : -1;
	if (i1 < 0 || (c->col2 && i2 < 0))
		snprintf(buf, sz, "-");
	else
		cell_text(st, c, i1, i2, buf, sz);
}

/* DIR/<view>.csv for each table of tabs: every column of the view, one
 * header line, no blank lines; empty tables as their header alone. Each
 * file is written beside as DIR/.<view>.csv.tmp and renamed. */
static int csv_dir(db_t *db, const table_t *tabs, int ntabs, const char *dir)
{
	for (int t = 0; t < ntabs; t++) {
		char path[4096], tmp[4096];
		snprintf(path, sizeof path, "%s/%s.csv", dir, tabs[t].view);
		snprintf(tmp, sizeof tmp, "%s/.%s.csv.tmp", dir, tabs[t].view);
		sqlite3_stmt *st = NULL;
		int code = db__table_prepare(db, &tabs[t], NULL, &st, NULL, 0);
		if (code)
			return code;
		FILE *f = fopen(tmp, "w");
		if (!f) {
			sqlite3_finalize(st);
			return db__fail(db, DB_EIO, "cannot write %s: %s", tmp, strerror(errno));
		}
		code = print_csv(db, st, f);
		sqlite3_finalize(st);
		if (fclose(f) != 0 && !code)
			code = db__fail(db, DB_EIO, "cannot write %s: %s", tmp, strerror(errno));
		if (!code && rename(tmp, path) != 0)
			code = db__fail(db, DB_EIO, "cannot write %s: %s", path, strerror(errno));
		if (code) {
			unlink(tmp);
			return code;
		}
	}
	return 0;
}

int db_report_csv_dir(db_t *db, bool study, const char *dir, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = '\0';
	if (!db || !dir) {
		if (err && errsz)
			snprintf(err, errsz, "db_report_csv_dir: invalid argument");
		return DB_EINVAL;
	}
	int rc = sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL), code;
	if (rc != SQLITE_OK)
		code = db__sqlerr(db, rc, "starting a read transaction");
	else if (study)
		code = csv_dir(db, study_tables, COUNT(study_tables), dir);
	else
		code = csv_dir(db, tables, COUNT(tables), dir);
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	if (code && err && errsz)
		snprintf(err, errsz, "%s", db->msg);
	return code;
}
