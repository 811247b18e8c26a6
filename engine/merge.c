/* `flipsim merge OUT.db PART.db...`: the databases of a campaign's shards
 * (`flipsim run --shard I/N`), or any databases of the same campaigns,
 * merged into OUT (db_merge: one transaction per part; merging again adds
 * nothing). README: "Campaigns on many machines". */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "eng_int.h"

void eng_merge_help(FILE *out)
{
	fputs("usage: flipsim merge OUT.db PART.db... [--quiet]\n"
	      "\n"
	      "Merges the campaigns of the PART databases (each made by `flipsim run\n"
	      "--shard I/N --db PART.db`, or any database of the same campaigns) into\n"
	      "OUT.db, created if missing. A campaign is the same campaign when its\n"
	      "definition is (campaign file content, workload, GPU, flipsim version):\n"
	      "its golden run, kernel invocations and masks must then be equal in every\n"
	      "part, and an experiment already in OUT must have the same outcome; every\n"
	      "experiment is stored once. Merging a part again changes nothing, so merge\n"
	      "the parts as they finish: `flipsim status OUT.db` says which shards are\n"
	      "in. Each part is merged in one transaction: a part that is refused (a\n"
	      "campaign of the same name with another definition or flipsim version, a\n"
	      "different golden run or mask, a schema from another flipsim) leaves OUT\n"
	      "as it was and the merge goes on with no other part. The parts are only\n"
	      "read.\n"
	      "\n"
	      "options:\n"
	      "  --quiet     print nothing but errors\n"
	      "  -h, --help  print this help and exit\n"
	      "\n"
	      "exit status: 0 merged, 1 internal failure, 2 bad usage or a part refused\n"
	      "(missing, not a flipsim database, mismatched)\n", out);
}

int eng_parse_shard(const char *s, uint32_t *shard, uint32_t *nshards)
{
	char *e;
	if (!s || *s < '0' || *s > '9')
		return -1;
	unsigned long i = strtoul(s, &e, 10);
	if (*e != '/' || e[1] < '0' || e[1] > '9')
		return -1;
	unsigned long n = strtoul(e + 1, &e, 10);
	if (*e || n == 0 || n > ENG_MAX_SHARDS || i >= n)
		return -1;
	*shard = (uint32_t)i;
	*nshards = (uint32_t)n;
	return 0;
}

int eng_merge_main(int argc, char **argv)
{
	bool quiet = false;
	int nfiles = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files) {
		eng_errorf("out of memory");
		return eng_exit_status(ENG_EINTERNAL);
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			free(files);
			eng_merge_help(stdout);
			return ENG_EXIT_OK;
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			free(files);
			return eng_usage_error("merge", "unknown option '%s'", argv[i]);
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (nfiles < 2) {
		free(files);
		return eng_usage_error("merge", nfiles ? "missing the databases to merge" : "missing the output database");
	}
	char err[1024], host[256] = "?";
	gethostname(host, sizeof host - 1);
	db_t *db = NULL;
	int rc = db_open(files[0], true, &db, err, sizeof err);
	if (rc) {
		eng_errorf("%s", err);
		free(files);
		return eng_db_status(rc);
	}
	int worst = 0;
	for (int i = 1; i < nfiles; i++) {
		db_merge_stats_t st;
		int mrc = db_merge(db, files[i], host, eng_wall_clock(), &st);
		if (mrc) {
			eng_errorf("%s", db_errmsg(db));
			int e = eng_db_err(mrc);
			worst = e < worst ? e : worst;
			if (mrc == DB_EMOVED)
				break;
			continue;
		}
		if (!quiet)
			printf("%s: %" PRIu64 " campaign%s (%" PRIu64 " new), %" PRIu64 " experiments (%" PRIu64
			       " new), %" PRIu64 " shard%s\n", files[i], st.campaigns, st.campaigns == 1 ? "" : "s",
			       st.new_campaigns, st.experiments, st.new_experiments, st.shards, st.shards == 1 ? "" : "s");
	}
	if ((rc = db_check_file(db))) {
		eng_errorf("%s", db_errmsg(db));
		worst = eng_db_err(rc);
	}
	db_close(db);
	free(files);
	return eng_exit_status(worst);
}
