/* Fault sites, effects and severities as a user gets them (README, "Fault
 * sites and effects"): flipsim run on a small vadd campaign, with and
 * without --no-attribution, read back through the views and the report. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs.h"

#define CAMPAIGN "tests/engine/data/vadd4k-regfile.json"

static void fresh(char *buf, size_t n, const char *tag)
{
	snprintf(buf, n, "/tmp/flipsim-attr-%d-%s.db", (int)getpid(), tag);
	unlink(buf);
}

static double q(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW, "%s", sql);
	double v = sqlite3_column_double(s, 0);
	sqlite3_finalize(s);
	return v;
}

static sqlite3 *open_ro(const char *path)
{
	sqlite3 *db;
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	return db;
}

Test(attribution, sites_effects_and_severities_are_stored_and_viewed, .timeout = 300)
{
	char a[512], b[512];
	fresh(a, sizeof a, "on");
	fresh(b, sizeof b, "off");
	const char *on[] = {"run", CAMPAIGN, "--db", a, "-j", "2", "--quiet", NULL};
	const char *off[] = {"run", CAMPAIGN, "--db", b, "-j", "2", "--quiet", "--no-attribution", NULL};
	cr_assert_eq(runs_flipsim(on, NULL), 0);
	cr_assert_eq(runs_flipsim(off, NULL), 0);
	sqlite3 *x = open_ro(a);
	char sql[1200];
	snprintf(sql, sizeof sql, "ATTACH DATABASE '%s' AS off", b);
	cr_assert_eq(sqlite3_exec(x, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(x));
	double n = q(x, "SELECT count(*) FROM experiments");
	cr_assert_eq(n, 600);
	/* the option changes no outcome, cycle count or severity */
	cr_expect_eq(q(x, "SELECT count(*) FROM experiments e JOIN off.experiments f USING (campaign_id, idx)"
	                  " WHERE e.outcome IS f.outcome AND e.reason IS f.reason AND e.cycles = f.cycles"
	                  " AND e.severity IS f.severity"),
	             600);
	cr_expect_eq(q(x, "SELECT count(site) + count(effect) FROM off.experiments"), 0, "--no-attribution");
	/* every experiment has its site; every simulated one its effect */
	cr_expect_eq(q(x, "SELECT count(*) FROM experiments WHERE json_valid(site)"), 600);
	cr_expect_eq(q(x, "SELECT count(*) FROM experiments WHERE effect IS NULL AND reason NOT IN ('unused', 'dead')"),
	             0);
	cr_expect_eq(q(x, "SELECT count(*) FROM sites WHERE in_use AND warp IS NULL"), 0);
	cr_expect_eq(q(x, "SELECT count(*) FROM sites WHERE reason = 'unused' AND in_use"), 0,
	             "an unused location is not in use");
	cr_expect_gt(q(x, "SELECT count(*) FROM sites WHERE vreg GLOB '%r*'"), 0);
	cr_expect_eq(q(x, "SELECT count(*) FROM sites WHERE kernel IS NOT 'vadd' AND in_use"), 0);
	/* the ranked views count what the effects say */
	double reads = q(x, "SELECT count(*) FROM effects WHERE first_event = 'read'");
	cr_expect_gt(reads, 0);
	cr_expect_eq(q(x, "SELECT sum(reads) FROM avf_insn"), reads);
	cr_expect_eq(q(x, "SELECT count(*) FROM avf_insn WHERE rank = 1"), q(x, "SELECT count(*) FROM avf_insn"
	                                                                        " WHERE failures = (SELECT max(failures)"
	                                                                        " FROM avf_insn)"));
	cr_expect_leq(q(x, "SELECT sum(failures) FROM avf_insn"), q(x, "SELECT sdc + due FROM avf WHERE kernel = 'all'"));
	cr_expect_eq(q(x, "SELECT sum(n) FROM avf_vreg"), q(x, "SELECT count(*) FROM sites WHERE vreg IS NOT NULL"));
	/* every SDC has its severity: output c, at least one element corrupted */
	double sdc = q(x, "SELECT count(*) FROM experiments WHERE outcome = 'sdc'");
	cr_expect_gt(sdc, 0);
	cr_expect_eq(q(x, "SELECT count(*) FROM sdc_outputs WHERE output = 'c' AND corrupted >= 1"), sdc);
	cr_expect_eq(q(x, "SELECT sum(sdcs) FROM sdc_severity"), sdc);
	/* DUE latencies are the cycles from the fault to the stop */
	cr_expect_eq(q(x, "SELECT count(*) FROM effects WHERE outcome = 'due' AND due_latency IS NULL"), 0);
	sqlite3_close(x);
	/* the report shows the tables with sites, and leaves them out without */
	const char *rep_a[] = {"report", a, NULL}, *rep_b[] = {"report", b, NULL};
	char out[600];
	snprintf(out, sizeof out, "%s.report", a);
	spawn_opts_t o = {.out = out};
	cr_assert_eq(runs_flipsim(rep_a, &o), 0);
	char *text = runs_slurp(out);
	cr_expect(strstr(text, "Most vulnerable static instructions"), "%s", text);
	cr_expect(strstr(text, "Most vulnerable PTX registers"));
	cr_expect(strstr(text, "SDC severity"));
	free(text);
	cr_assert_eq(runs_flipsim(rep_b, &o), 0);
	text = runs_slurp(out);
	cr_expect(!strstr(text, "Most vulnerable static instructions"), "no sites, no table");
	cr_expect(strstr(text, "SDC severity"), "severities are stored either way");
	free(text);
	unlink(out);
	runs_rm_db(a);
	runs_rm_db(b);
}
