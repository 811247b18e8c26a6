/* Shards and merges (db/shard.c): a database that runs one shard plans its
 * share; merging parts gives every experiment once, agrees with a single
 * database holding them all, changes nothing the second time, and refuses
 * parts that ran another campaign, leaving the output as it was. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "tmpdir.h"

static char dir[64];

static void setup(void) { tmpdir_make(dir, sizeof dir, "flipsim-shard"); }

static void teardown(void) { tmpdir_remove(dir); }

TestSuite(shard, .init = setup, .fini = teardown);

static const char *path_of(const char *name)
{
	static char p[4][128];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static db_t *open_db(const char *name)
{
	db_t *db = NULL;
	char err[512];
	int rc = db_open(path_of(name), true, &db, err, sizeof err);
	cr_assert_eq(rc, 0, "db_open: %d %s", rc, err);
	return db;
}

enum { NMASKS = 40 };

/* Campaign "c" (hash h, tool version v) with its golden run (cycles), one
 * kernel invocation, all NMASKS masks and the experiments idx = shard (mod
 * nshards) (every one when nshards is 0): idx % 5 == 0 is an SDC, idx % 7
 * == 0 a DUE, the rest Masked. Returns the campaign's id. */
static int64_t part(db_t *db, const char *h, const char *v, uint64_t cycles, uint32_t shard, uint32_t nshards)
{
	db_campaign_t c = {.name = "c", .workload = "vadd", .gpu = "gtx480", .regs = "ptx",
	                   .config = "{\"workload\":\"vadd\"}", .config_hash = h, .tool_version = v, .seed = 7,
	                   .target = "regfile", .sampling = "physical", .fit_per_bit = 0.001, .confidence = 0.95,
	                   .n_masks = NMASKS};
	int64_t id = 0;
	bool existed;
	cr_assert_eq(db_campaign_get_or_create(db, &c, &id, &existed), 0, "%s", db_errmsg(db));
	db_golden_t g = {.cycles = cycles, .thread_insts = 5000, .warp_insts = 200, .ipc = 5, .clock_mhz = 1401,
	                 .num_sms = 15, .bits_per_sm = 1 << 20, .wall_seconds = 0.5};
	snprintf(g.output_digest, sizeof g.output_digest, "%s", "0123456789abcdef");
	cr_assert_eq(db_golden_put(db, id, &g), 0, "%s", db_errmsg(db));
	db_kernel_t k = {.launch_index = 0, .kernel = "vadd", .start_cycle = 0, .end_cycle = cycles,
	                 .grid = {4, 1, 1}, .block = {256, 1, 1}, .regs_per_thread = 10, .threads_per_sm = 1536,
	                 .ctas_per_sm = 6, .smem_per_cta = 0, .df_reg = 0.5, .df_smem = 0};
	cr_assert_eq(db_kernels_put(db, id, &k, 1), 0, "%s", db_errmsg(db));
	db_mask_t m[NMASKS];
	db_experiment_t e[NMASKS];
	uint32_t ne = 0;
	for (uint32_t i = 0; i < NMASKS; i++) {
		m[i] = (db_mask_t){.idx = i, .cycle = 10 * i, .sm = i % 15, .loc = 1000 + i, .nbits = 1};
		if (nshards && i % nshards != shard)
			continue;
		e[ne++] = (db_experiment_t){.idx = i, .outcome = i % 5 == 0 ? DB_SDC : i % 7 == 0 ? DB_DUE : DB_MASKED,
		                            .reason = i % 5 && i % 7 ? "output_equal" : "output_differs", .cycles = 10,
		                            .wall = 0.01 * i, .worker = (int)shard};
	}
	cr_assert_eq(db_masks_put(db, id, m, NMASKS), 0, "%s", db_errmsg(db));
	if (nshards)
		cr_assert_eq(db_shard_claim(db, id, shard, nshards, "node", 1.0), 0, "%s", db_errmsg(db));
	uint32_t ins = 0;
	cr_assert_eq(db_experiments_put(db, id, e, ne, &ins), 0, "%s", db_errmsg(db));
	cr_assert_eq(ins, ne);
	return id;
}

/* The four parts of campaign "c" (hash h), closed. */
static void four_parts(const char *h)
{
	for (uint32_t i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof name, "part-%u.db", i);
		db_t *db = open_db(name);
		part(db, h, "0.1.0", 400, i, 4);
		db_close(db);
	}
}

/* The campaign's progress in db (its only campaign). */
static db_progress_t progress(db_t *db)
{
	db_campaign_info_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_campaigns_list(db, &list, &n), 0, "%s", db_errmsg(db));
	cr_assert_eq(n, 1);
	db_progress_t p = list[0].progress;
	db_campaigns_free(list, n);
	return p;
}

Test(shard, share_sizes)
{
	cr_assert_eq(db_shard_size(40, 0, 4), 10);
	cr_assert_eq(db_shard_size(42, 1, 4), 11);
	cr_assert_eq(db_shard_size(42, 2, 4), 10);
	cr_assert_eq(db_shard_size(3, 5, 8), 0);
	cr_assert_eq(db_shard_size(17, 0, 0), 17);
	uint64_t sum = 0;
	for (uint32_t i = 0; i < 7; i++)
		sum += db_shard_size(1000, i, 7);
	cr_assert_eq(sum, 1000);
}

Test(shard, a_shard_database_plans_its_share)
{
	db_t *db = open_db("p.db");
	int64_t id = part(db, "h1", "0.1.0", 400, 1, 4);
	db_progress_t p = progress(db);
	cr_assert_eq(p.nshards, 4);
	cr_assert_eq(p.shard, 1);
	cr_assert_eq(p.n_masks, 10);
	cr_assert_eq(p.done, 10);
	/* claiming again is fine; another shard, another count are not */
	cr_assert_eq(db_shard_claim(db, id, 1, 4, "node", 2.0), 0, "%s", db_errmsg(db));
	cr_assert_eq(db_shard_claim(db, id, 2, 4, "node", 2.0), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(db), "runs shard 1 of 4"), "%s", db_errmsg(db));
	cr_assert_eq(db_shard_claim(db, id, 1, 8, "node", 2.0), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(db), "holds shards of 4"), "%s", db_errmsg(db));
	cr_assert_eq(db_shard_claim(db, id, 4, 4, "node", 2.0), DB_EINVAL);
	db_shard_t *s = NULL;
	size_t n = 0;
	cr_assert_eq(db_shards_list(db, id, &s, &n), 0);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(s[0].origin, "run");
	cr_assert_eq(s[0].planned, 10);
	cr_assert_eq(s[0].done, 10);
	free(s);
	db_close(db);
}

Test(shard, an_unsharded_database_cannot_become_a_shard)
{
	db_t *db = open_db("full.db");
	int64_t id = part(db, "h1", "0.1.0", 400, 0, 0);
	cr_assert_eq(db_shard_claim(db, id, 0, 4, "node", 2.0), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(db), "experiments outside shard 0 of 4"), "%s", db_errmsg(db));
	db_close(db);
}

Test(shard, merged_parts_equal_the_single_database)
{
	four_parts("h1");
	db_t *one = open_db("single.db");
	part(one, "h1", "0.1.0", 400, 0, 0);
	db_progress_t want = progress(one);
	db_close(one);

	db_t *out = open_db("out.db");
	db_merge_stats_t st;
	cr_assert_eq(db_merge(out, path_of("part-0.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(st.new_campaigns, 1);
	cr_assert_eq(st.new_experiments, 10);
	cr_assert_eq(st.new_masks, NMASKS);
	cr_assert_eq(db_merge(out, path_of("part-2.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(st.new_campaigns, 0);
	cr_assert_eq(st.new_experiments, 10);
	cr_assert_eq(st.new_masks, 0);
	/* a partial merge: two shards in, two missing */
	db_shard_t *s = NULL;
	size_t n = 0;
	cr_assert_eq(db_shards_list(out, 1, &s, &n), 0);
	cr_assert_eq(n, 2);
	cr_assert_eq(s[0].shard, 0);
	cr_assert_eq(s[1].shard, 2);
	cr_assert_str_eq(s[1].origin, "merge");
	cr_assert(strstr(s[1].source, "part-2.db"));
	free(s);
	db_progress_t half = progress(out);
	cr_assert_eq(half.n_masks, NMASKS, "a merged database plans the whole campaign");
	cr_assert_eq(half.done, 20);
	cr_assert_eq(db_merge(out, path_of("part-1.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(db_merge(out, path_of("part-3.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	db_progress_t got = progress(out);
	cr_assert_eq(got.done, want.done);
	cr_assert_eq(got.masked, want.masked);
	cr_assert_eq(got.sdc, want.sdc);
	cr_assert_eq(got.due, want.due);
	cr_assert_float_eq(got.avf, want.avf, 1e-15);
	cr_assert_float_eq(got.avf_lo, want.avf_lo, 1e-15);
	cr_assert_float_eq(got.avf_hi, want.avf_hi, 1e-15);
	/* idempotent: every part again adds nothing */
	for (int i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof name, "part-%d.db", i);
		cr_assert_eq(db_merge(out, path_of(name), "here", 4.0, &st), 0, "%s", db_errmsg(out));
		cr_assert_eq(st.new_campaigns + st.new_experiments + st.new_masks, 0);
		cr_assert_eq(st.experiments, 10);
	}
	cr_assert_eq(progress(out).done, NMASKS);
	db_close(out);
}

/* Part 1 changed by SQL after it ran, then merged after part 0: refused
 * naming `what`, the output as it was. */
static void refused_after_change(const char *sql, const char *what)
{
	four_parts("h1");
	sqlite3 *s = NULL;
	cr_assert_eq(sqlite3_open(path_of("part-1.db"), &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(s));
	sqlite3_close(s);
	db_t *out = open_db("out.db");
	db_merge_stats_t st;
	cr_assert_eq(db_merge(out, path_of("part-0.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	int rc = db_merge(out, path_of("part-1.db"), "here", 3.0, &st);
	cr_assert_eq(rc, DB_ECONFLICT, "%d %s", rc, db_errmsg(out));
	cr_assert(strstr(db_errmsg(out), what), "%s", db_errmsg(out));
	cr_assert(strstr(db_errmsg(out), "part-1.db"), "%s", db_errmsg(out));
	db_progress_t p = progress(out);
	cr_assert_eq(p.done, 10, "the refused part added nothing");
	db_shard_t *sh = NULL;
	size_t n = 0;
	cr_assert_eq(db_shards_list(out, 1, &sh, &n), 0);
	cr_assert_eq(n, 1);
	free(sh);
	/* the other parts still merge */
	cr_assert_eq(db_merge(out, path_of("part-2.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(progress(out).done, 20);
	db_close(out);
}

Test(shard, a_part_with_another_golden_run_is_refused)
{
	refused_after_change("UPDATE golden SET cycles = cycles + 1", "golden run differs");
}

Test(shard, a_part_with_another_mask_is_refused)
{
	refused_after_change("UPDATE masks SET loc = loc + 1 WHERE idx = 7", "mask idx 7 differs");
}

Test(shard, a_part_with_another_kernel_invocation_is_refused)
{
	refused_after_change("UPDATE kernels SET end_cycle = end_cycle + 5", "kernel invocation launch_index 0 differs");
}

Test(shard, a_part_by_another_flipsim_is_refused)
{
	refused_after_change("UPDATE campaigns SET tool_version = '0.0.9'", "was run by flipsim 0.0.9");
}

Test(shard, an_experiment_with_another_outcome_is_refused)
{
	four_parts("h1");
	db_t *out = open_db("out.db");
	db_merge_stats_t st;
	cr_assert_eq(db_merge(out, path_of("part-1.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	db_close(out);
	/* a full database of the same campaign whose idx 1 ended otherwise */
	db_t *full = open_db("full.db");
	part(full, "h1", "0.1.0", 400, 0, 0);
	db_close(full);
	sqlite3 *s = NULL;
	cr_assert_eq(sqlite3_open(path_of("full.db"), &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, "UPDATE experiments SET outcome = 'due' WHERE idx = 1", NULL, NULL, NULL),
	             SQLITE_OK);
	sqlite3_close(s);
	out = open_db("out.db");
	cr_assert_eq(db_merge(out, path_of("full.db"), "here", 3.0, &st), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(out), "experiment idx 1 differs"), "%s", db_errmsg(out));
	cr_assert_eq(progress(out).done, 10);
	db_close(out);
}

Test(shard, another_campaign_of_the_same_name_is_refused)
{
	four_parts("h1");
	db_t *other = open_db("other.db");
	part(other, "h2", "0.1.0", 400, 1, 4);
	db_close(other);
	db_t *out = open_db("out.db");
	db_merge_stats_t st;
	cr_assert_eq(db_merge(out, path_of("part-0.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(db_merge(out, path_of("other.db"), "here", 3.0, &st), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(out), "is not the campaign 'c' already merged"), "%s", db_errmsg(out));
	db_campaign_info_t *list = NULL;
	size_t n = 0;
	cr_assert_eq(db_campaigns_list(out, &list, &n), 0);
	cr_assert_eq(n, 1);
	db_campaigns_free(list, n);
	db_close(out);
}

Test(shard, bad_parts_are_refused)
{
	four_parts("h1");
	db_t *out = open_db("out.db");
	db_merge_stats_t st;
	cr_assert_eq(db_merge(out, path_of("none.db"), "here", 3.0, &st), DB_ENOTFOUND);
	cr_assert(strstr(db_errmsg(out), "none.db: no such file"), "%s", db_errmsg(out));
	cr_assert_eq(db_merge(out, path_of("out.db"), "here", 3.0, &st), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(out), "is the output database itself"), "%s", db_errmsg(out));
	FILE *f = fopen(path_of("text.db"), "w");
	cr_assert_not_null(f);
	fputs("not a database\n", f);
	fclose(f);
	cr_assert_neq(db_merge(out, path_of("text.db"), "here", 3.0, &st), 0);
	sqlite3 *s = NULL;
	cr_assert_eq(sqlite3_open(path_of("part-2.db"), &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, "PRAGMA user_version = 11", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	cr_assert_eq(db_merge(out, path_of("part-2.db"), "here", 3.0, &st), DB_ECONFLICT);
	cr_assert(strstr(db_errmsg(out), "schema version 11"), "%s", db_errmsg(out));
	cr_assert_eq(db_merge(out, path_of("part-3.db"), "here", 3.0, &st), 0, "%s", db_errmsg(out));
	cr_assert_eq(progress(out).done, 10);
	db_close(out);
}
