/* db.c — opening and migrating the results database, the writer for
 * campaigns, golden runs, kernels, masks and experiments, and the progress
 * queries. The schema (migration step 1 below) is summarised in db_int.h;
 * the metrics it computes are defined in docs/DESIGN.md ("Metrics"). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_int.h"

/* The columns schema 1 gave experiments (schema 11 makes the table again). */
#define EXPERIMENTS_V1_COLUMNS \
	"  campaign_id INTEGER NOT NULL,\n" \
	"  idx         INTEGER NOT NULL,\n" \
	"  outcome     TEXT NOT NULL CHECK (outcome IN ('masked', 'sdc', 'due')),\n" \
	"  reason      TEXT,\n" \
	"  cycles      INTEGER NOT NULL CHECK (cycles >= 0),\n" \
	"  early       INTEGER NOT NULL CHECK (early IN (0, 1)),\n" \
	"  wall        REAL NOT NULL CHECK (wall >= 0),\n" \
	"  worker      INTEGER NOT NULL,\n" \
	"  live_bits   INTEGER CHECK (live_bits IS NULL OR live_bits >= 0),\n"

/* ---- schema ---------------------------------------------------------------
 * Version 1. Every uint64 of the C API is stored as the int64 with the same
 * bits; the CHECKs on cycles, counts and indices hold because those stay
 * below 2^63. The application_id is set by db.c in the same transaction.
 * The table campaigns, named `table`, with the register modes `modes` and
 * the targets `targets` (version 4 made it again with more targets, version
 * 9 with more modes). */
#define CAMPAIGNS_TABLE(table, modes, targets)                                                  \
	"CREATE TABLE " table " (\n"                                                              \
	"  id           INTEGER PRIMARY KEY,\n"                                                   \
	"  name         TEXT NOT NULL,\n"                                                         \
	"  workload     TEXT NOT NULL,\n"                                                         \
	"  gpu          TEXT NOT NULL,\n"                                                         \
	"  regs         TEXT NOT NULL CHECK (regs IN (" modes ")),\n"                               \
	"  config       TEXT NOT NULL CHECK (json_valid(config)),\n"                              \
	"  config_hash  TEXT NOT NULL UNIQUE CHECK (config_hash <> ''),\n"                        \
	"  tool_version TEXT NOT NULL,\n"                                                         \
	"  seed         INTEGER NOT NULL,           -- uint64 bit pattern\n"                      \
	"  target       TEXT NOT NULL CHECK (target IN\n"                                         \
	"                 (" targets ")),\n"                                                      \
	"  sampling     TEXT NOT NULL CHECK (sampling IN ('physical', 'live')),\n"                \
	"  fit_per_bit  REAL NOT NULL CHECK (fit_per_bit >= 0),\n"                                \
	"  confidence   REAL NOT NULL CHECK (confidence > 0 AND confidence < 1),\n"               \
	"  z            REAL NOT NULL CHECK (z > 0), -- normal quantile of confidence\n"          \
	"  n_masks      INTEGER NOT NULL CHECK (n_masks >= 0),\n"                                 \
	"  fields       TEXT NOT NULL DEFAULT '',   -- sampled fields (simt, ibuffer)\n"          \
	"  scope        TEXT NOT NULL DEFAULT 'application', -- or kernel:NAME:INVOCATION\n"     \
	"  created      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"          \
	") STRICT;\n"
#define MODES_V1 "'ptx', 'alloc'"
#define TARGETS_V1 "'regfile', 'pred', 'smem', 'simt', 'ibuffer', 'fu'"
#define TARGETS_V4 TARGETS_V1 ", 'l1d', 'l2', 'const'"
#define TARGETS_V13 TARGETS_V4 ", 'texcache'"

static const char SCHEMA_V1[] =
	CAMPAIGNS_TABLE("campaigns", MODES_V1, TARGETS_V1)
	"\n"
	"CREATE TABLE golden (\n"
	"  campaign_id   INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,\n"
	"  cycles        INTEGER NOT NULL CHECK (cycles >= 0),\n"
	"  thread_insts  INTEGER NOT NULL CHECK (thread_insts >= 0),\n"
	"  warp_insts    INTEGER NOT NULL CHECK (warp_insts >= 0),\n"
	"  ipc           REAL NOT NULL CHECK (ipc >= 0),\n"
	"  clock_mhz     REAL NOT NULL CHECK (clock_mhz > 0),\n"
	"  num_sms       INTEGER NOT NULL CHECK (num_sms > 0),\n"
	"  bits_per_sm   INTEGER NOT NULL CHECK (bits_per_sm >= 0),\n"
	"  output_digest TEXT NOT NULL,\n"
	"  wall_seconds  REAL NOT NULL CHECK (wall_seconds >= 0)\n"
	") STRICT;\n"
	"\n"
	"CREATE TABLE kernels (\n"
	"  campaign_id     INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,\n"
	"  launch_index    INTEGER NOT NULL CHECK (launch_index >= 0),\n"
	"  kernel          TEXT NOT NULL,\n"
	"  start_cycle     INTEGER NOT NULL CHECK (start_cycle >= 0),\n"
	"  end_cycle       INTEGER NOT NULL CHECK (end_cycle >= start_cycle),\n"
	"  grid            TEXT NOT NULL CHECK (grid GLOB '[0-9]*,[0-9]*,[0-9]*'),\n"
	"  block           TEXT NOT NULL CHECK (block GLOB '[0-9]*,[0-9]*,[0-9]*'),\n"
	"  regs_per_thread INTEGER NOT NULL CHECK (regs_per_thread >= 0),\n"
	"  threads_per_sm  INTEGER NOT NULL CHECK (threads_per_sm >= 0),\n"
	"  ctas_per_sm     INTEGER NOT NULL CHECK (ctas_per_sm >= 0),\n"
	"  smem_per_cta    INTEGER NOT NULL CHECK (smem_per_cta >= 0),\n"
	"  df_reg          REAL NOT NULL CHECK (df_reg BETWEEN 0 AND 1),\n"
	"  df_smem         REAL NOT NULL CHECK (df_smem BETWEEN 0 AND 1),\n"
	"  PRIMARY KEY (campaign_id, launch_index)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE INDEX kernels_by_start ON kernels(campaign_id, start_cycle);\n"
	"\n"
	"CREATE TABLE masks (\n"
	"  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,\n"
	"  idx         INTEGER NOT NULL CHECK (idx >= 0),\n"
	"  cycle       INTEGER NOT NULL CHECK (cycle >= 0),\n"
	"  sm          INTEGER NOT NULL CHECK (sm >= 0),\n"
	"  loc         INTEGER NOT NULL,             -- uint64 bit pattern\n"
	"  nbits       INTEGER NOT NULL CHECK (nbits >= 1),\n"
	"  extra       TEXT CHECK (extra IS NULL OR json_valid(extra)),\n"
	"  kernel      INTEGER,                      -- launch_index holding cycle\n"
	"  PRIMARY KEY (campaign_id, idx),\n"
	"  FOREIGN KEY (campaign_id, kernel) REFERENCES kernels(campaign_id, launch_index)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE INDEX masks_by_cycle ON masks(campaign_id, cycle, idx);\n"
	"\n"
	"CREATE TABLE experiments (\n"
	EXPERIMENTS_V1_COLUMNS
	"  PRIMARY KEY (campaign_id, idx),\n"
	"  FOREIGN KEY (campaign_id, idx) REFERENCES masks(campaign_id, idx) ON DELETE CASCADE\n"
	") STRICT, WITHOUT ROWID;\n"
	"\n"
	/* df of a whole campaign: 1 for physical sampling; for live sampling the
	 * target's df weighted by each invocation's share of cycles (NULL without
	 * invocations). */
	"CREATE VIEW campaign_df AS\n"
	"SELECT c.id AS campaign_id,\n"
	"       CASE WHEN c.sampling = 'physical' THEN 1.0\n"
	"            WHEN (SELECT count(e.live_bits) FROM experiments e WHERE e.campaign_id = c.id) > 0\n"
	"            THEN (SELECT avg(e.live_bits) FROM experiments e WHERE e.campaign_id = c.id)\n"
	"                 / (SELECT g.bits_per_sm FROM golden g WHERE g.campaign_id = c.id)\n"
	"            WHEN c.target NOT IN ('regfile', 'pred', 'smem') THEN 1.0\n"
	"            ELSE (SELECT sum(CASE c.target WHEN 'smem' THEN k.df_smem ELSE k.df_reg END\n"
	"                             * (k.end_cycle - k.start_cycle))\n"
	"                         / sum(k.end_cycle - k.start_cycle)\n"
	"                    FROM kernels k WHERE k.campaign_id = c.id)\n"
	"       END AS df\n"
	"  FROM campaigns c;\n"
	"\n"
	/* One 'all' row per campaign (n = 0 before any experiment) and one row
	 * per kernel invocation that masks fall in. avf_lo/avf_hi: Wilson score
	 * interval at the campaign's confidence (z stored with the campaign). */
	"CREATE VIEW avf AS\n"
	"WITH counts AS (\n"
	"  SELECT c.id AS campaign_id, 'all' AS kernel, NULL AS launch_index,\n"
	"         count(e.idx) AS n,\n"
	"         coalesce(sum(e.outcome = 'masked'), 0) AS masked,\n"
	"         coalesce(sum(e.outcome = 'sdc'), 0) AS sdc,\n"
	"         coalesce(sum(e.outcome = 'due'), 0) AS due\n"
	"    FROM campaigns c LEFT JOIN experiments e ON e.campaign_id = c.id\n"
	"   GROUP BY c.id\n"
	"  UNION ALL\n"
	"  SELECT m.campaign_id, CAST(m.kernel AS TEXT), m.kernel,\n"
	"         count(e.idx),\n"
	"         coalesce(sum(e.outcome = 'masked'), 0),\n"
	"         coalesce(sum(e.outcome = 'sdc'), 0),\n"
	"         coalesce(sum(e.outcome = 'due'), 0)\n"
	"    FROM masks m LEFT JOIN experiments e\n"
	"         ON e.campaign_id = m.campaign_id AND e.idx = m.idx\n"
	"   WHERE m.kernel IS NOT NULL\n"
	"   GROUP BY m.campaign_id, m.kernel\n"
	"),\n"
	"rated AS (\n"
	"  SELECT ct.*, c.name AS campaign, c.target, c.confidence, c.z,\n"
	"         CAST(ct.sdc + ct.due AS REAL) / nullif(ct.n, 0) AS p,\n"
	"         c.z * c.z / nullif(ct.n, 0) AS zzn,\n"
	"         CASE WHEN ct.launch_index IS NULL THEN d.df\n"
	"              WHEN c.sampling = 'physical' THEN 1.0\n"
	"              WHEN c.target = 'smem' THEN k.df_smem\n"
	"              WHEN c.target IN ('regfile', 'pred') THEN k.df_reg\n"
	"              ELSE 1.0 END AS df,\n"
	"         k.kernel AS kernel_name\n"
	"    FROM counts ct\n"
	"    JOIN campaigns c ON c.id = ct.campaign_id\n"
	"    JOIN campaign_df d ON d.campaign_id = ct.campaign_id\n"
	"    LEFT JOIN kernels k ON k.campaign_id = ct.campaign_id\n"
	"                       AND k.launch_index = ct.launch_index\n"
	"),\n"
	"wilson AS (\n"
	"  SELECT r.*,\n"
	"         (r.p + r.zzn / 2) / (1 + r.zzn) AS centre,\n"
	"         r.z / (1 + r.zzn) * sqrt(r.p * (1 - r.p) / r.n + r.zzn / (4 * r.n)) AS half\n"
	"    FROM rated r\n"
	")\n"
	"SELECT campaign_id, campaign, target, kernel, launch_index, kernel_name,\n"
	"       n, masked, sdc, due, confidence,\n"
	"       p AS avf,\n"
	"       max(0.0, centre - half) AS avf_lo,\n"
	"       min(1.0, centre + half) AS avf_hi,\n"
	"       df,\n"
	"       df * p AS avf_derated,\n"
	"       df * max(0.0, centre - half) AS avf_derated_lo,\n"
	"       df * min(1.0, centre + half) AS avf_derated_hi\n"
	"  FROM wilson;\n"
	"\n"
	/* FIT of each campaign's structure over the whole GPU. */
	"CREATE VIEW fit AS\n"
	"SELECT a.campaign_id, a.campaign, c.workload, c.gpu, c.regs, c.target, c.sampling,\n"
	"       a.n, g.num_sms * g.bits_per_sm AS bits, c.fit_per_bit,\n"
	"       a.avf, a.df, a.avf_derated,\n"
	"       a.avf_derated * c.fit_per_bit * (g.num_sms * g.bits_per_sm) AS fit,\n"
	"       a.avf_derated_lo * c.fit_per_bit * (g.num_sms * g.bits_per_sm) AS fit_lo,\n"
	"       a.avf_derated_hi * c.fit_per_bit * (g.num_sms * g.bits_per_sm) AS fit_hi,\n"
	"       g.ipc, g.clock_mhz\n"
	"  FROM avf a\n"
	"  JOIN campaigns c ON c.id = a.campaign_id\n"
	"  LEFT JOIN golden g ON g.campaign_id = a.campaign_id\n"
	" WHERE a.kernel = 'all';\n"
	"\n"
	/* GPU FIT per (workload, gpu, regs): the newest campaign (highest id)
	 * with a FIT for each target, summed. fit_lo/fit_hi sum the structures'
	 * interval bounds (a conservative range, not a confidence interval). */
	"CREATE VIEW fit_gpu AS\n"
	"SELECT workload, gpu, regs,\n"
	"       count(*) AS structures,\n"
	"       group_concat(target, ' ') AS targets,\n"
	"       group_concat(campaign_id, ' ') AS campaigns,\n"
	"       sum(fit) AS fit_total, sum(fit_lo) AS fit_lo, sum(fit_hi) AS fit_hi,\n"
	"       avg(ipc) AS ipc, avg(clock_mhz) AS clock_mhz\n"
	"  FROM (SELECT f.*, row_number() OVER (PARTITION BY f.workload, f.gpu, f.regs, f.target,\n"
	"                                                    c.fields\n"
	"                                       ORDER BY f.campaign_id DESC) AS newest\n"
	"          FROM fit f JOIN campaigns c ON c.id = f.campaign_id\n"
	"         WHERE f.fit IS NOT NULL AND c.scope = 'application'\n"
	"         ORDER BY f.workload, f.gpu, f.regs, f.target)\n"
	" WHERE newest = 1\n"
	" GROUP BY workload, gpu, regs;\n"
	"\n"
	/* MITF in instructions = IPC × clock (Hz) × 3600 × 1e9 / FIT (FIT counts
	 * failures per 1e9 hours); NULL when no failure was observed. */
	"CREATE VIEW mitf AS\n"
	"SELECT workload, gpu, regs, targets, ipc, clock_mhz, fit_total,\n"
	"       ipc / fit_total AS ipc_per_fit,\n"
	"       ipc * clock_mhz * 1e6 * 3600 * 1e9 / fit_total AS mitf\n"
	"  FROM fit_gpu;\n";

/* avf_kernel's first CTEs (schemas 2 and 3): per campaign and kernel name,
 * its invocations, first launch, cycles and the profile's df weighted by
 * cycles; and each campaign's cycles. */
#define KERNEL_INV_CTES \
	"inv AS (\n" \
	"  SELECT campaign_id, kernel AS kernel_name, count(*) AS invocations,\n" \
	"         min(launch_index) AS first_launch,\n" \
	"         sum(end_cycle - start_cycle) AS cycles,\n" \
	"         coalesce(sum(df_reg * (end_cycle - start_cycle)) / nullif(sum(end_cycle - start_cycle), 0),\n" \
	"                  avg(df_reg)) AS df_reg,\n" \
	"         coalesce(sum(df_smem * (end_cycle - start_cycle)) / nullif(sum(end_cycle - start_cycle), 0),\n" \
	"                  avg(df_smem)) AS df_smem\n" \
	"    FROM kernels GROUP BY campaign_id, kernel\n" \
	"),\n" \
	"all_cycles AS (\n" \
	"  SELECT campaign_id, sum(end_cycle - start_cycle) AS cycles FROM kernels GROUP BY campaign_id\n" \
	"),\n"

/* ---- schema version 2: per-kernel AVF and the GUFI-style study --------------
 * Views only; no table changes. */
static const char SCHEMA_V2[] =
	/* One row per campaign × kernel name (all invocations of the kernel
	 * together, GUFI Table IV), also for kernels no mask fell in (n = 0).
	 * df as campaign_df, restricted to the kernel: 1 for physical sampling;
	 * for live, the kernel's mean live_bits over bits_per_sm, else its
	 * invocations' df weighted by cycles. contribution = df × (sdc + due) /
	 * the campaign's experiments: the kernel's part of the campaign's AVF
	 * (under physical sampling the parts add up to it). */
	"CREATE VIEW avf_kernel AS\n"
	"WITH " KERNEL_INV_CTES
	"counts AS (\n"
	"  SELECT m.campaign_id, k.kernel AS kernel_name,\n"
	"         count(e.idx) AS n,\n"
	"         coalesce(sum(e.outcome = 'masked'), 0) AS masked,\n"
	"         coalesce(sum(e.outcome = 'sdc'), 0) AS sdc,\n"
	"         coalesce(sum(e.outcome = 'due'), 0) AS due,\n"
	"         count(e.live_bits) AS live_n, avg(e.live_bits) AS live_bits\n"
	"    FROM masks m\n"
	"    JOIN kernels k ON k.campaign_id = m.campaign_id AND k.launch_index = m.kernel\n"
	"    LEFT JOIN experiments e ON e.campaign_id = m.campaign_id AND e.idx = m.idx\n"
	"   GROUP BY m.campaign_id, k.kernel\n"
	"),\n"
	"totals AS (\n"
	"  SELECT campaign_id, count(*) AS n FROM experiments GROUP BY campaign_id\n"
	"),\n"
	"rated AS (\n"
	"  SELECT i.campaign_id, c.name AS campaign, c.target, i.kernel_name, i.invocations,\n"
	"         i.first_launch, i.cycles,\n"
	"         CAST(i.cycles AS REAL) / nullif(ac.cycles, 0) AS cycle_share,\n"
	"         coalesce(ct.n, 0) AS n, coalesce(ct.masked, 0) AS masked,\n"
	"         coalesce(ct.sdc, 0) AS sdc, coalesce(ct.due, 0) AS due,\n"
	"         coalesce(t.n, 0) AS campaign_n, c.confidence, c.z,\n"
	"         CAST(ct.sdc + ct.due AS REAL) / nullif(ct.n, 0) AS p,\n"
	"         c.z * c.z / nullif(ct.n, 0) AS zzn,\n"
	"         CASE WHEN c.sampling = 'physical' THEN 1.0\n"
	"              WHEN ct.live_n > 0\n"
	"              THEN ct.live_bits / (SELECT g.bits_per_sm FROM golden g WHERE g.campaign_id = c.id)\n"
	"              WHEN c.target = 'smem' THEN i.df_smem\n"
	"              WHEN c.target IN ('regfile', 'pred') THEN i.df_reg\n"
	"              ELSE 1.0 END AS df\n"
	"    FROM inv i\n"
	"    JOIN campaigns c ON c.id = i.campaign_id\n"
	"    JOIN all_cycles ac ON ac.campaign_id = i.campaign_id\n"
	"    LEFT JOIN counts ct ON ct.campaign_id = i.campaign_id AND ct.kernel_name = i.kernel_name\n"
	"    LEFT JOIN totals t ON t.campaign_id = i.campaign_id\n"
	"),\n"
	"wilson AS (\n"
	"  SELECT r.*,\n"
	"         (r.p + r.zzn / 2) / (1 + r.zzn) AS centre,\n"
	"         r.z / (1 + r.zzn) * sqrt(r.p * (1 - r.p) / r.n + r.zzn / (4 * r.n)) AS half\n"
	"    FROM rated r\n"
	")\n"
	"SELECT campaign_id, campaign, target, kernel_name, invocations, first_launch, cycles,\n"
	"       cycle_share, n, masked, sdc, due, confidence,\n"
	"       CAST(n AS REAL) / nullif(campaign_n, 0) AS share,\n"
	"       p AS avf,\n"
	"       max(0.0, centre - half) AS avf_lo,\n"
	"       min(1.0, centre + half) AS avf_hi,\n"
	"       df,\n"
	"       df * p AS avf_derated,\n"
	"       df * max(0.0, centre - half) AS avf_derated_lo,\n"
	"       df * min(1.0, centre + half) AS avf_derated_hi,\n"
	"       df * CAST(sdc + due AS REAL) / nullif(campaign_n, 0) AS contribution\n"
	"  FROM wilson;\n"
	"\n"
	/* The study (GUFI section VI): per (workload, gpu, structure) the
	 * newest application-scope campaign with experiments. A structure is a
	 * target with its sampled fields, and for the register-mode dependent
	 * targets (regfile, pred) the mode: 'regfile-ptx', 'regfile-alloc',
	 * 'simt-mask', 'ibuffer-valid', 'smem'. structure_rank orders them. */
	"CREATE VIEW study AS\n"
	"WITH cand AS (\n"
	"  SELECT f.campaign_id, f.workload, f.gpu, f.regs, f.target, c.fields,\n"
	"         f.target || CASE WHEN c.fields <> '' THEN '-' || replace(c.fields, ',', '+') ELSE '' END\n"
	"                  || CASE WHEN f.target IN ('regfile', 'pred') THEN '-' || f.regs ELSE '' END\n"
	"             AS structure,\n"
	"         2 * CASE f.target WHEN 'regfile' THEN 0 WHEN 'pred' THEN 1 WHEN 'smem' THEN 2\n"
	"                           WHEN 'simt' THEN 3 WHEN 'ibuffer' THEN 4 ELSE 5 END\n"
	"           + (f.target IN ('regfile', 'pred') AND f.regs = 'alloc') AS structure_rank\n"
	"    FROM fit f JOIN campaigns c ON c.id = f.campaign_id\n"
	"   WHERE c.scope = 'application' AND f.n > 0\n"
	"),\n"
	"newest AS (\n"
	"  SELECT cand.*, row_number() OVER (PARTITION BY workload, gpu, structure\n"
	"                                    ORDER BY campaign_id DESC) AS newest\n"
	"    FROM cand\n"
	")\n"
	"SELECT s.workload, s.gpu, s.structure, s.structure_rank, s.target, s.fields, s.regs,\n"
	"       s.campaign_id, f.campaign, f.sampling, f.n, a.masked, a.sdc, a.due, a.confidence,\n"
	"       a.avf, a.avf_lo, a.avf_hi, a.df, a.avf_derated, a.avf_derated_lo, a.avf_derated_hi,\n"
	"       f.bits, f.fit_per_bit, f.fit, f.fit_lo, f.fit_hi, f.ipc, f.clock_mhz\n"
	"  FROM newest s\n"
	"  JOIN fit f ON f.campaign_id = s.campaign_id\n"
	"  JOIN avf a ON a.campaign_id = s.campaign_id AND a.kernel = 'all'\n"
	" WHERE s.newest = 1;\n"
	"\n"
	/* The GPU's FIT per (workload, gpu, register mode): the register file
	 * (and predicate file) of that mode plus every other structure of the
	 * study, whatever mode it ran in; IPC from the golden run of that mode's
	 * register structures. GUFI sums its sass-mode register file, our alloc
	 * mode. fit_lo/fit_hi add the bounds (a conservative range). */
	"CREATE VIEW study_gpu AS\n"
	"WITH modes AS (\n"
	"  SELECT DISTINCT workload, gpu, regs FROM study WHERE target IN ('regfile', 'pred')\n"
	"),\n"
	"summed AS (\n"
	"  SELECT m.workload, m.gpu, m.regs,\n"
	"         count(*) AS structures,\n"
	"         group_concat(s.structure, ' ') AS structure_list,\n"
	"         sum(s.fit) AS fit_total, sum(s.fit_lo) AS fit_lo, sum(s.fit_hi) AS fit_hi,\n"
	"         avg(CASE WHEN s.target IN ('regfile', 'pred') THEN s.ipc END) AS ipc,\n"
	"         avg(CASE WHEN s.target IN ('regfile', 'pred') THEN s.clock_mhz END) AS clock_mhz\n"
	"    FROM modes m\n"
	"    JOIN study s ON s.workload = m.workload AND s.gpu = m.gpu\n"
	"     AND (s.target NOT IN ('regfile', 'pred') OR s.regs = m.regs)\n"
	"   GROUP BY m.workload, m.gpu, m.regs\n"
	")\n"
	"SELECT workload, gpu, regs, structures, structure_list, fit_total, fit_lo, fit_hi,\n"
	"       ipc, clock_mhz,\n"
	"       ipc / nullif(fit_total, 0) AS ipc_per_fit,\n"
	"       ipc * clock_mhz * 1e6 * 3600 * 1e9 / nullif(fit_total, 0) AS mitf\n"
	"  FROM summed;\n"
	"\n"
	/* Table IV: each study cell broken down by kernel name. */
	"CREATE VIEW study_kernel AS\n"
	"SELECT s.workload, s.gpu, s.structure, s.structure_rank, s.campaign_id, k.kernel_name,\n"
	"       k.invocations, k.first_launch, k.cycle_share, k.n, k.masked, k.sdc, k.due, k.share,\n"
	"       k.avf, k.avf_lo, k.avf_hi, k.df, k.avf_derated, k.contribution\n"
	"  FROM study s JOIN avf_kernel k ON k.campaign_id = s.campaign_id;\n";

/* ---- schema version 3 -------------------------------------------------------
 * Two changes of issue 10: the table `daemons` (item 11: the `flipsim run`
 * processes and their heartbeats, db.h "daemons") and the live estimator
 * (item 2), views only. Live sampling draws a fault over the bits in use on its SM at
 * its cycle (an SM with none gives Masked `unused`), so a failure there says
 * nothing about the share of the structure in use; experiment i is weighed
 * by w_i = live_bits_i / bits_per_sm (1 under physical sampling), and with
 * f_i = 1 for SDC or DUE:
 *     avf_derated = (1/n) Σ w_i f_i   (unbiased for the physical AVF)
 *     df          = (1/n) Σ w_i       (the measured share in use)
 *     avf         = Σ w_i f_i / Σ w_i = avf_derated / df (AVF of the bits
 *                                        in use; (sdc+due)/n when physical)
 * Intervals: Wilson's score interval of an estimate x at an effective
 * sample size ne = x(1-x) / v, v the estimate's variance from the sample
 * (Korn and Graubard's interval for weighted proportions): for avf_derated
 * v = s²/n, s² = (1/n) Σ (w_i f_i - avf_derated)², which is at most
 * x(1-x) because w_i f_i lies in [0,1], so ne >= n; for avf the delta
 * method's v = Σ (w_i (f_i - avf))² / (Σ w_i)². When v is 0 (no failure,
 * or every product equal) ne is n, or for avf Kish's (Σ w)² / Σ w², so the
 * interval keeps Wilson's width at k = 0 instead of collapsing to a point.
 * Under physical sampling (w = 1) both are exactly the Wilson interval at n.
 * Live campaigns without live_bits (written by other tools) keep the
 * profile's df_reg/df_smem and df × Wilson. The per-invocation rows of avf
 * and the rows of avf_kernel use the same estimator over their experiments. */

/* The experiments of each campaign and invocation: counts by outcome and
 * the sums of the weights the estimator needs (avf and avf_kernel). */
#define WEIGHTED_GROUPS_CTE \
	"grouped AS (\n" \
	"  SELECT campaign_id, launch_index, count(*) AS n,\n" \
	"         sum(outcome = 'masked') AS masked, sum(outcome = 'sdc') AS sdc, sum(outcome = 'due') AS due,\n" \
	"         count(w) AS nw, sum(w) AS sw, sum(w * fail) AS swf, sum(w * w) AS sw2,\n" \
	"         sum(w * w * fail) AS sw2f\n" \
	"    FROM exp_weight GROUP BY campaign_id, launch_index\n" \
	"),\n"

/* The estimator over a CTE `sums` with columns n, k (= sdc + due), sw, swf,
 * sw2, sw2f (Σ w, Σ w f, Σ w², Σ w² f), measured (live sampling with
 * live_bits), weighted (physical, or measured), df (as the view reports it)
 * and z; adds p (avf), d (avf_derated), their effective sample sizes ne_p,
 * ne_d and Wilson centres and half-widths (c_p, h_p, c_d, h_d). A spread
 * below 1e-9 of the estimate squared is rounding noise of equal products
 * (sums of squares minus a squared mean), taken as none. */
#define ESTIMATE_CTES \
	"est AS (\n" \
	"  SELECT s.*,\n" \
	"         CASE WHEN s.weighted THEN s.swf / nullif(s.sw, 0)\n" \
	"              ELSE CAST(s.k AS REAL) / nullif(s.n, 0) END AS p,\n" \
	"         CASE WHEN s.weighted THEN s.swf / nullif(s.n, 0)\n" \
	"              ELSE s.df * s.k / nullif(s.n, 0) END AS d\n" \
	"    FROM sums s\n" \
	"),\n" \
	"spread AS (\n" \
	"  SELECT e.*,\n" \
	"         (1 - 2 * e.p) * e.sw2f + e.p * e.p * e.sw2 AS uu,\n" /* Σ (w (f - p))² */ \
	"         e.sw2f / nullif(e.n, 0) - e.d * e.d AS s2\n"         /* (1/n) Σ (w f - d)² */ \
	"    FROM est e\n" \
	"),\n" \
	"neff AS (\n" \
	"  SELECT s.*,\n" \
	"         CASE WHEN NOT s.measured THEN s.n\n" \
	"              WHEN s.uu > 1e-9 * s.p * s.p * s.sw2 THEN s.p * (1 - s.p) * s.sw * s.sw / s.uu\n" \
	"              ELSE s.sw * s.sw / nullif(s.sw2, 0) END AS ne_p,\n" \
	"         CASE WHEN NOT s.measured THEN s.n\n" \
	"              WHEN s.s2 > 1e-9 * s.d * s.d THEN max(s.n, s.n * s.d * (1 - s.d) / s.s2)\n" \
	"              ELSE s.n END AS ne_d\n" \
	"    FROM spread s\n" \
	"),\n" \
	"wilson AS (\n" \
	"  SELECT w.*,\n" \
	"         (w.p + w.z * w.z / (2 * w.ne_p)) / (1 + w.z * w.z / w.ne_p) AS c_p,\n" \
	"         w.z / (1 + w.z * w.z / w.ne_p)\n" \
	"           * sqrt(w.p * (1 - w.p) / w.ne_p + w.z * w.z / (4 * w.ne_p * w.ne_p)) AS h_p,\n" \
	"         (w.d + w.z * w.z / (2 * w.ne_d)) / (1 + w.z * w.z / w.ne_d) AS c_d,\n" \
	"         w.z / (1 + w.z * w.z / w.ne_d)\n" \
	"           * sqrt(w.d * (1 - w.d) / w.ne_d + w.z * w.z / (4 * w.ne_d * w.ne_d)) AS h_d\n" \
	"    FROM neff w\n" \
	")\n"

/* The AVF columns every estimator view ends with. */
#define ESTIMATE_COLUMNS \
	"       p AS avf,\n" \
	"       max(0.0, c_p - h_p) AS avf_lo,\n" \
	"       min(1.0, c_p + h_p) AS avf_hi,\n" \
	"       df,\n" \
	"       d AS avf_derated,\n" \
	"       CASE WHEN measured THEN max(0.0, c_d - h_d) ELSE df * max(0.0, c_p - h_p) END\n" \
	"         AS avf_derated_lo,\n" \
	"       CASE WHEN measured THEN min(1.0, c_d + h_d) ELSE df * min(1.0, c_p + h_p) END\n" \
	"         AS avf_derated_hi"

/* The CTEs of view avf (schema 3; schema 7 reuses them): its rows up to
 * the estimator's `wilson`. */
#define AVF_V3_CTES \
WEIGHTED_GROUPS_CTE \
	"counts AS (\n" \
	"  SELECT c.id AS campaign_id, 'all' AS kernel, NULL AS launch_index,\n" \
	"         coalesce(sum(g.n), 0) AS n, coalesce(sum(g.masked), 0) AS masked,\n" \
	"         coalesce(sum(g.sdc), 0) AS sdc, coalesce(sum(g.due), 0) AS due,\n" \
	"         sum(g.sw) AS sw, sum(g.swf) AS swf, sum(g.sw2) AS sw2, sum(g.sw2f) AS sw2f\n" \
	"    FROM campaigns c LEFT JOIN grouped g ON g.campaign_id = c.id\n" \
	"   GROUP BY c.id\n" \
	"  UNION ALL\n" \
	"  SELECT l.campaign_id, CAST(l.kernel AS TEXT), l.kernel,\n" \
	"         coalesce(g.n, 0), coalesce(g.masked, 0), coalesce(g.sdc, 0), coalesce(g.due, 0),\n" \
	"         g.sw, g.swf, g.sw2, g.sw2f\n" \
	"    FROM (SELECT DISTINCT campaign_id, kernel FROM masks WHERE kernel IS NOT NULL) l\n" \
	"    LEFT JOIN grouped g ON g.campaign_id = l.campaign_id AND g.launch_index = l.kernel\n" \
	"),\n" \
	"camp AS (\n" \
	"  SELECT c.id AS campaign_id,\n" \
	"         c.sampling = 'physical' OR coalesce(max(g.nw), 0) > 0 AS weighted\n" \
	"    FROM campaigns c LEFT JOIN grouped g ON g.campaign_id = c.id\n" \
	"   GROUP BY c.id\n" \
	"),\n" \
	"sums AS (\n" \
	"  SELECT ct.*, ct.sdc + ct.due AS k, c.name AS campaign, c.target, c.confidence, c.z,\n" \
	"         cp.weighted, c.sampling = 'live' AND cp.weighted AS measured,\n" \
	"         CASE WHEN c.sampling = 'physical' THEN 1.0\n" \
	"              WHEN cp.weighted THEN coalesce(ct.sw, 0) / nullif(ct.n, 0)\n" \
	"              WHEN c.target NOT IN ('regfile', 'pred', 'smem') THEN 1.0\n" \
	"              WHEN ct.launch_index IS NOT NULL\n" \
	"              THEN CASE c.target WHEN 'smem' THEN k.df_smem ELSE k.df_reg END\n" \
	"              ELSE (SELECT sum(CASE c.target WHEN 'smem' THEN q.df_smem ELSE q.df_reg END\n" \
	"                               * (q.end_cycle - q.start_cycle))\n" \
	"                           / sum(q.end_cycle - q.start_cycle)\n" \
	"                      FROM kernels q WHERE q.campaign_id = c.id)\n" \
	"         END AS df,\n" \
	"         k.kernel AS kernel_name\n" \
	"    FROM counts ct\n" \
	"    JOIN campaigns c ON c.id = ct.campaign_id\n" \
	"    JOIN camp cp ON cp.campaign_id = ct.campaign_id\n" \
	"    LEFT JOIN kernels k ON k.campaign_id = ct.campaign_id\n" \
	"                       AND k.launch_index = ct.launch_index\n" \
	"),\n" \
	ESTIMATE_CTES

/* The CTEs of view avf_kernel (schema 3; schema 7 reuses them). */
#define AVF_KERNEL_V3_CTES \
KERNEL_INV_CTES \
	WEIGHTED_GROUPS_CTE \
	"counts AS (\n" \
	"  SELECT g.campaign_id, k.kernel AS kernel_name, sum(g.n) AS n, sum(g.masked) AS masked,\n" \
	"         sum(g.sdc) AS sdc, sum(g.due) AS due,\n" \
	"         sum(g.sw) AS sw, sum(g.swf) AS swf, sum(g.sw2) AS sw2, sum(g.sw2f) AS sw2f\n" \
	"    FROM grouped g\n" \
	"    JOIN kernels k ON k.campaign_id = g.campaign_id AND k.launch_index = g.launch_index\n" \
	"   GROUP BY g.campaign_id, k.kernel\n" \
	"),\n" \
	"camp AS (\n" \
	"  SELECT c.id AS campaign_id, coalesce(sum(g.n), 0) AS n,\n" \
	"         c.sampling = 'physical' OR coalesce(max(g.nw), 0) > 0 AS weighted\n" \
	"    FROM campaigns c LEFT JOIN grouped g ON g.campaign_id = c.id\n" \
	"   GROUP BY c.id\n" \
	"),\n" \
	"sums AS (\n" \
	"  SELECT i.campaign_id, c.name AS campaign, c.target, i.kernel_name, i.invocations,\n" \
	"         i.first_launch, i.cycles,\n" \
	"         CAST(i.cycles AS REAL) / nullif(ac.cycles, 0) AS cycle_share,\n" \
	"         coalesce(ct.n, 0) AS n, coalesce(ct.masked, 0) AS masked,\n" \
	"         coalesce(ct.sdc, 0) AS sdc, coalesce(ct.due, 0) AS due,\n" \
	"         coalesce(ct.sdc + ct.due, 0) AS k, ct.sw, ct.swf, ct.sw2, ct.sw2f,\n" \
	"         cp.n AS campaign_n, c.confidence, c.z,\n" \
	"         cp.weighted, c.sampling = 'live' AND cp.weighted AS measured,\n" \
	"         CASE WHEN c.sampling = 'physical' THEN 1.0\n" \
	"              WHEN cp.weighted THEN coalesce(ct.sw, 0) / nullif(ct.n, 0)\n" \
	"              WHEN c.target = 'smem' THEN i.df_smem\n" \
	"              WHEN c.target IN ('regfile', 'pred') THEN i.df_reg\n" \
	"              ELSE 1.0 END AS df\n" \
	"    FROM inv i\n" \
	"    JOIN campaigns c ON c.id = i.campaign_id\n" \
	"    JOIN camp cp ON cp.campaign_id = i.campaign_id\n" \
	"    JOIN all_cycles ac ON ac.campaign_id = i.campaign_id\n" \
	"    LEFT JOIN counts ct ON ct.campaign_id = i.campaign_id AND ct.kernel_name = i.kernel_name\n" \
	"),\n" \
	ESTIMATE_CTES

static const char SCHEMA_V3[] =
	"-- issue 10 item 11: daemon heartbeat\n"
	"CREATE TABLE daemons (\n"
	"  id          INTEGER PRIMARY KEY,\n"
	"  pid         INTEGER NOT NULL CHECK (pid > 0),\n"
	"  host        TEXT NOT NULL,\n"
	"  started     REAL NOT NULL,                     -- Unix seconds\n"
	"  heartbeat   REAL NOT NULL,                     -- Unix seconds, last sign of life\n"
	"  interval    REAL NOT NULL CHECK (interval > 0), -- seconds between heartbeats\n"
	"  campaign_id INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,\n"
	"  rate        REAL NOT NULL DEFAULT 0 CHECK (rate >= 0), -- experiments/s of campaign_id\n"
	"  ended       REAL                               -- Unix seconds; NULL while it runs\n"
	") STRICT;\n"
	"CREATE INDEX daemons_by_campaign ON daemons(campaign_id, id);\n"
	"\n"
	"-- issue 10 item 2: live estimator\n"
	"DROP VIEW avf_kernel;\n"
	"DROP VIEW avf;\n"
	"DROP VIEW campaign_df;\n"
	"\n"
	/* One row per experiment: its invocation, failure f and weight w (NULL
	 * for live sampling without live_bits or without a golden run). */
	"CREATE VIEW exp_weight AS\n"
	"SELECT e.campaign_id, e.idx, m.kernel AS launch_index, e.outcome,\n"
	"       e.outcome <> 'masked' AS fail,\n"
	"       CASE WHEN c.sampling = 'physical' THEN 1.0\n"
	"            ELSE CAST(e.live_bits AS REAL) / g.bits_per_sm END AS w\n"
	"  FROM experiments e\n"
	"  JOIN masks m ON m.campaign_id = e.campaign_id AND m.idx = e.idx\n"
	"  JOIN campaigns c ON c.id = e.campaign_id\n"
	"  LEFT JOIN golden g ON g.campaign_id = e.campaign_id;\n"
	"\n"
	/* One 'all' row per campaign (n = 0 before any experiment) and one row
	 * per kernel invocation that masks fall in, each with the estimator
	 * above over its experiments; z is stored with the campaign. A campaign
	 * is `weighted` when physical or when any experiment has a w; NULL
	 * weights then count as 0 (sums skip them, n does not). Without
	 * weights, df is the profile's: the target's df of each invocation, and
	 * for the whole campaign weighted by the invocations' cycles. */
	"CREATE VIEW avf AS\n"
	"WITH " AVF_V3_CTES
	"SELECT campaign_id, campaign, target, kernel, launch_index, kernel_name,\n"
	"       n, masked, sdc, due, confidence,\n"
	ESTIMATE_COLUMNS "\n"
	"  FROM wilson;\n"
	"\n"
	/* df of a whole campaign (its avf row's): 1 for physical sampling, the
	 * mean w for live sampling, else the profile's (NULL without
	 * invocations). */
	"CREATE VIEW campaign_df AS\n"
	"SELECT campaign_id, df FROM avf WHERE kernel = 'all';\n"
	"\n"
	/* One row per campaign × kernel name (all invocations of the kernel
	 * together, GUFI Table IV), also for kernels no mask fell in (n = 0),
	 * with the estimator over the kernel's experiments; without weights,
	 * df is its invocations' df weighted by cycles. contribution = Σ w f /
	 * the campaign's experiments (df × (sdc + due) / them without weights):
	 * the kernel's part of the campaign's avf_derated; the parts add up to
	 * it whenever every mask falls in an invocation. */
	"CREATE VIEW avf_kernel AS\n"
	"WITH " AVF_KERNEL_V3_CTES
	"SELECT campaign_id, campaign, target, kernel_name, invocations, first_launch, cycles,\n"
	"       cycle_share, n, masked, sdc, due, confidence,\n"
	"       CAST(n AS REAL) / nullif(campaign_n, 0) AS share,\n"
	ESTIMATE_COLUMNS ",\n"
	"       CASE WHEN weighted THEN coalesce(swf, 0) ELSE df * k END / nullif(campaign_n, 0)\n"
	"         AS contribution\n"
	"  FROM wilson;\n";

/* Version 4 (issue 12 item 5): the caches as targets. SQLite cannot widen
 * a CHECK in place, so the table campaigns is made again with the wider one
 * and its rows copied. migrate() runs every step with foreign keys off (the
 * DROP would otherwise delete every row that references a campaign), and
 * legacy_alter_table keeps the RENAME from rewriting what names the table
 * (the other tables' references and the views): they name `campaigns`,
 * which the new table then is. */
static const char SCHEMA_V4[] =
	"-- issue 12 item 5: caches as fault targets\n"
	"PRAGMA legacy_alter_table = ON;\n"
	CAMPAIGNS_TABLE("campaigns_v4", MODES_V1, TARGETS_V4)
	"INSERT INTO campaigns_v4 SELECT * FROM campaigns;\n"
	"DROP TABLE campaigns;\n"
	"ALTER TABLE campaigns_v4 RENAME TO campaigns;\n"
	"PRAGMA legacy_alter_table = OFF;\n";

/* View avf_insn (schema 5; schema 7 makes it again over exp_share): the
 * r CTE's extra columns `cols` from the weights view `src`, then the
 * columns up to the contribution, which each schema gives; AVF_INSN_TAIL
 * closes it. */
#define AVF_INSN_HEAD(cols, src) \
	"CREATE VIEW avf_insn AS\n" \
	"WITH tot AS (SELECT campaign_id, count(*) AS n, sum(fail) AS fails FROM exp_weight GROUP BY campaign_id),\n" \
	"r AS (\n" \
	"  SELECT f.campaign_id, f.pc, f.ptx_line, f.op, f.insn, f.outcome, w.fail,\n" \
	"         coalesce(w.w, 0) AS w" cols "\n" \
	"    FROM effects f JOIN " src " w ON w.campaign_id = f.campaign_id AND w.idx = f.idx\n" \
	"   WHERE f.first_event = 'read'\n" \
	")\n" \
	"SELECT r.campaign_id, c.name AS campaign, c.target, r.pc, r.ptx_line, r.op, r.insn,\n" \
	"       count(*) AS reads, sum(r.outcome = 'sdc') AS sdc, sum(r.outcome = 'due') AS due,\n" \
	"       sum(r.fail) AS failures,\n" \
	"       CAST(sum(r.fail) AS REAL) / count(*) AS failure_rate,\n" \
	"       CAST(sum(r.fail) AS REAL) / nullif(t.fails, 0) AS failure_share,\n"
#define AVF_INSN_TAIL \
	"       rank() OVER (PARTITION BY r.campaign_id ORDER BY sum(r.fail) DESC) AS rank\n" \
	"  FROM r JOIN campaigns c ON c.id = r.campaign_id JOIN tot t ON t.campaign_id = r.campaign_id\n" \
	" GROUP BY r.campaign_id, r.pc;\n"

/* The start of view avf_vreg (schema 5; schema 7 makes it again with
 * another contribution). */
#define AVF_VREG_HEAD \
	"CREATE VIEW avf_vreg AS\n" \
	"WITH tot AS (SELECT campaign_id, count(*) AS n, sum(fail) AS fails FROM exp_weight GROUP BY campaign_id)\n" \
	"SELECT s.campaign_id, s.campaign, s.target, s.kernel, s.vreg,\n" \
	"       count(*) AS n, sum(s.outcome = 'sdc') AS sdc, sum(s.outcome = 'due') AS due,\n" \
	"       sum(w.fail) AS failures,\n" \
	"       CAST(sum(w.fail) AS REAL) / count(*) AS failure_rate,\n" \
	"       CAST(sum(w.fail) AS REAL) / nullif(t.fails, 0) AS failure_share,\n"

/* Version 5 (issue 13 items 1 and 2): each experiment's decoded fault site,
 * what the fault met first and an SDC's severity, as JSON objects
 * (README, "Fault sites and effects"), and the views that answer the
 * questions asked of them. Rows stored before have NULL there. */
static const char SCHEMA_V5[] =
	"-- issue 13: fault sites, effects, attribution\n"
	"ALTER TABLE experiments ADD COLUMN site TEXT CHECK (site IS NULL OR json_valid(site));\n"
	"ALTER TABLE experiments ADD COLUMN effect TEXT CHECK (effect IS NULL OR json_valid(effect));\n"
	"ALTER TABLE experiments ADD COLUMN severity TEXT CHECK (severity IS NULL OR json_valid(severity));\n"
	"\n"
	/* One row per experiment: the mask, the outcome and the decoded site
	 * of its (first) fault; columns a structure does not have are NULL. */
	"CREATE VIEW sites AS\n"
	"SELECT e.campaign_id, c.name AS campaign, c.target, e.idx, m.cycle, m.sm, m.loc, m.nbits,\n"
	"       m.kernel AS launch_index, e.outcome, e.reason,\n"
	"       json_extract(e.site, '$.kernel') AS kernel,\n"
	"       json_extract(e.site, '$.in_use') AS in_use,\n"
	"       json_extract(e.site, '$.cta') AS cta,\n"
	"       json_extract(e.site, '$.warp') AS warp,\n"
	"       json_extract(e.site, '$.slot') AS warp_slot,\n"
	"       json_extract(e.site, '$.lane') AS lane,\n"
	"       json_extract(e.site, '$.phys') AS phys,\n"
	"       json_extract(e.site, '$.reg') AS reg,\n"
	"       json_extract(e.site, '$.vreg') AS vreg,\n"
	"       json_extract(e.site, '$.pred') AS pred,\n"
	"       json_extract(e.site, '$.offset') AS smem_offset,\n"
	"       json_extract(e.site, '$.var') AS smem_var,\n"
	"       json_extract(e.site, '$.entry') AS entry,\n"
	"       json_extract(e.site, '$.field') AS field,\n"
	"       json_extract(e.site, '$.slice') AS l2_slice,\n"
	"       json_extract(e.site, '$.set') AS cache_set,\n"
	"       json_extract(e.site, '$.way') AS cache_way,\n"
	"       json_extract(e.site, '$.space') AS space,\n"
	"       json_extract(e.site, '$.address') AS address,\n"
	"       json_extract(e.site, '$.pc') AS pc,\n"
	"       json_extract(e.site, '$.ptx_line') AS ptx_line,\n"
	"       json_extract(e.site, '$.insn') AS insn,\n"
	"       json_extract(e.site, '$.bit') AS bit,\n"
	"       json_extract(e.site, '$.before') AS value_before,\n"
	"       json_extract(e.site, '$.after') AS value_after,\n"
	"       e.site\n"
	"  FROM experiments e\n"
	"  JOIN masks m ON m.campaign_id = e.campaign_id AND m.idx = e.idx\n"
	"  JOIN campaigns c ON c.id = e.campaign_id;\n"
	"\n"
	/* What each fault did: the first instruction that read a corrupted
	 * copy (or overwrote them all first), how long that took, the latency
	 * to a DUE and, for a masked run stopped early, the cycle its state
	 * re-joined the golden one. */
	"CREATE VIEW effects AS\n"
	"SELECT e.campaign_id, e.idx, e.outcome, e.reason, m.cycle AS fault_cycle,\n"
	"       json_extract(e.effect, '$.first') AS first_event,\n"
	"       json_extract(e.effect, '$.cycle') AS event_cycle,\n"
	"       json_extract(e.effect, '$.cycle') - m.cycle AS event_latency,\n"
	"       json_extract(e.effect, '$.pc') AS pc,\n"
	"       json_extract(e.effect, '$.ptx_line') AS ptx_line,\n"
	"       json_extract(e.effect, '$.op') AS op,\n"
	"       json_extract(e.effect, '$.insn') AS insn,\n"
	"       CASE WHEN e.outcome = 'due' THEN e.cycles END AS due_latency,\n"
	"       CASE WHEN e.early AND e.reason = 'early' THEN m.cycle + e.cycles END AS rejoin_cycle,\n"
	"       e.effect, e.severity\n"
	"  FROM experiments e\n"
	"  JOIN masks m ON m.campaign_id = e.campaign_id AND m.idx = e.idx;\n"
	"\n"
	/* Static instructions ranked by the failures whose fault they read
	 * first: reads, failures among them and the part of the campaign's
	 * avf_derated they make (Σ w f / the campaign's experiments, as
	 * avf_kernel's contribution). */
	AVF_INSN_HEAD("", "exp_weight")
	"       sum(r.w * r.fail) / nullif(t.n, 0) AS contribution,\n"
	AVF_INSN_TAIL
	"\n"
	/* The same by the PTX virtual register (or predicate) the fault hit. */
	AVF_VREG_HEAD
	"       sum(coalesce(w.w, 0) * w.fail) / nullif(t.n, 0) AS contribution,\n"
	"       rank() OVER (PARTITION BY s.campaign_id ORDER BY sum(w.fail) DESC) AS rank\n"
	"  FROM sites s\n"
	"  JOIN exp_weight w ON w.campaign_id = s.campaign_id AND w.idx = s.idx\n"
	"  JOIN tot t ON t.campaign_id = s.campaign_id\n"
	" WHERE s.vreg IS NOT NULL\n"
	" GROUP BY s.campaign_id, s.kernel, s.vreg;\n"
	"\n"
	/* One row per corrupted output of each SDC (texts: stdout, stderr,
	 * with their first differing line and how many lines differ). */
	"CREATE VIEW sdc_outputs AS\n"
	"SELECT e.campaign_id, e.idx, json_extract(o.value, '$.name') AS output,\n"
	"       json_extract(o.value, '$.elements') AS elements,\n"
	"       json_extract(o.value, '$.corrupted') AS corrupted,\n"
	"       json_extract(o.value, '$.first') AS first_index,\n"
	"       json_extract(o.value, '$.max_abs') AS max_abs,\n"
	"       json_extract(o.value, '$.max_rel') AS max_rel,\n"
	"       NULL AS first_line, NULL AS lines\n"
	"  FROM experiments e, json_each(e.severity, '$.outputs') o\n"
	" WHERE e.severity IS NOT NULL\n"
	"UNION ALL\n"
	"SELECT e.campaign_id, e.idx, t.key, NULL, NULL, NULL, NULL, NULL,\n"
	"       json_extract(t.value, '$.first_line'), json_extract(t.value, '$.lines')\n"
	"  FROM experiments e, json_each(e.severity) t\n"
	" WHERE e.severity IS NOT NULL AND t.key IN ('stdout', 'stderr');\n"
	"\n"
	/* SDC severity histograms: per campaign and output, how many SDCs
	 * corrupted 1, 2-9, 10-99, 100-999 or more elements, by the largest
	 * relative error's decade ('inf': a golden zero made non-zero, a NaN
	 * or an infinity; the severity JSON writes that error "inf"). */
	"CREATE VIEW sdc_severity AS\n"
	"SELECT o.campaign_id, c.name AS campaign, o.output,\n"
	"       CASE WHEN o.corrupted IS NULL THEN 'lines'\n"
	"            WHEN o.corrupted = 1 THEN '1'\n"
	"            WHEN o.corrupted < 10 THEN '2-9'\n"
	"            WHEN o.corrupted < 100 THEN '10-99'\n"
	"            WHEN o.corrupted < 1000 THEN '100-999'\n"
	"            ELSE '1000+' END AS corrupted_elements,\n"
	"       CASE WHEN o.corrupted IS NULL THEN NULL\n"
	"            WHEN o.max_rel = 'inf' THEN 'inf'\n"
	"            WHEN o.max_rel < 1e-6 THEN '<1e-6'\n"
	"            WHEN o.max_rel < 1e-3 THEN '1e-6..1e-3'\n"
	"            WHEN o.max_rel < 1 THEN '1e-3..1'\n"
	"            ELSE '>=1' END AS max_rel_error,\n"
	"       count(*) AS sdcs\n"
	"  FROM sdc_outputs o JOIN campaigns c ON c.id = o.campaign_id\n"
	" GROUP BY o.campaign_id, o.output, corrupted_elements, max_rel_error;\n";

/* Version 6 (issue 13 item 3, last part, and item 7): an interval on every
 * derived figure the report prints, and a failure probability per executed
 * instruction where FIT per bit means nothing.
 *
 * fit: for `fu` and for `ibuffer` with its instruction words sampled, FIT
 * is NULL (a bit of a functional unit's result, or of flipsim's 256-bit
 * internal instruction encoding, is no storage bit whose raw rate a FIT per
 * bit could scale); fail_per_insn is the probability that one flipped bit
 * of an executed instruction's result (of a buffered instruction word)
 * makes the run fail: failures over the experiments whose fault hit one
 * (reason not 'unused'), with its Wilson interval.
 * fit_gpu: the structures' FITs summed, with a confidence interval: each
 * structure's Wilson interval taken as its estimate's centre ± z se, the
 * centres summed ± z sqrt(Σ se²) (z the largest of the campaigns'), the
 * lower bound kept ≥ 0; for one structure this is its own interval.
 * mitf: IPC/FIT and MITF with the intervals that follow from the FIT's
 * (IPC is measured exactly; no upper bound when the FIT's lower one is 0). */
static const char SCHEMA_V6[] =
	"-- issue 13: intervals on derived figures, failures per executed instruction\n"
	"DROP VIEW mitf;\n"
	"DROP VIEW fit_gpu;\n"
	"DROP VIEW fit;\n"
	"CREATE VIEW fit AS\n"
	"WITH u AS (\n"
	"  SELECT campaign_id, count(*) - sum(reason IS 'unused') AS m, sum(outcome <> 'masked') AS k\n"
	"    FROM experiments GROUP BY campaign_id\n"
	"),\n"
	"b AS (\n"
	"  SELECT a.*, c.workload, c.gpu, c.regs, c.sampling, c.fit_per_bit, c.z,\n"
	"         g.num_sms * g.bits_per_sm AS bits, g.ipc, g.clock_mhz,\n"
	"         c.target = 'fu' OR (c.target = 'ibuffer' AND c.fields <> 'valid') AS per_insn,\n"
	"         CAST(u.k AS REAL) / nullif(u.m, 0) AS q, u.m\n"
	"    FROM avf a\n"
	"    JOIN campaigns c ON c.id = a.campaign_id\n"
	"    LEFT JOIN golden g ON g.campaign_id = a.campaign_id\n"
	"    LEFT JOIN u ON u.campaign_id = a.campaign_id\n"
	"   WHERE a.kernel = 'all'\n"
	"),\n"
	"w AS (\n"
	"  SELECT b.*, (q + z * z / (2 * m)) / (1 + z * z / m) AS qc,\n"
	"         z / (1 + z * z / m) * sqrt(q * (1 - q) / m + z * z / (4.0 * m * m)) AS qh\n"
	"    FROM b\n"
	")\n"
	"SELECT campaign_id, campaign, workload, gpu, regs, target, sampling,\n"
	"       n, bits, fit_per_bit,\n"
	"       avf, df, avf_derated,\n"
	"       CASE WHEN NOT per_insn THEN avf_derated * fit_per_bit * bits END AS fit,\n"
	"       CASE WHEN NOT per_insn THEN avf_derated_lo * fit_per_bit * bits END AS fit_lo,\n"
	"       CASE WHEN NOT per_insn THEN avf_derated_hi * fit_per_bit * bits END AS fit_hi,\n"
	"       ipc, clock_mhz, per_insn,\n"
	"       CASE WHEN per_insn THEN q END AS fail_per_insn,\n"
	"       CASE WHEN per_insn THEN max(0.0, qc - qh) END AS fail_per_insn_lo,\n"
	"       CASE WHEN per_insn THEN min(1.0, qc + qh) END AS fail_per_insn_hi,\n"
	"       z\n"
	"  FROM w;\n"
	"\n"
	"CREATE VIEW fit_gpu AS\n"
	"WITH s AS (\n"
	"  SELECT workload, gpu, regs,\n"
	"         count(*) AS structures,\n"
	"         group_concat(target, ' ') AS targets,\n"
	"         group_concat(campaign_id, ' ') AS campaigns,\n"
	"         sum(fit) AS fit_total, sum((fit_lo + fit_hi) / 2) AS centre,\n"
	"         sqrt(sum(((fit_hi - fit_lo) / (2 * z)) * ((fit_hi - fit_lo) / (2 * z)))) AS se,\n"
	"         max(z) AS z, avg(ipc) AS ipc, avg(clock_mhz) AS clock_mhz\n"
	"    FROM (SELECT f.*, row_number() OVER (PARTITION BY f.workload, f.gpu, f.regs, f.target,\n"
	"                                                      c.fields\n"
	"                                         ORDER BY f.campaign_id DESC) AS newest\n"
	"            FROM fit f JOIN campaigns c ON c.id = f.campaign_id\n"
	"           WHERE f.fit IS NOT NULL AND c.scope = 'application'\n"
	"           ORDER BY f.workload, f.gpu, f.regs, f.target)\n"
	"   WHERE newest = 1\n"
	"   GROUP BY workload, gpu, regs\n"
	")\n"
	"SELECT workload, gpu, regs, structures, targets, campaigns, fit_total,\n"
	"       max(0.0, centre - z * se) AS fit_lo, centre + z * se AS fit_hi,\n"
	"       ipc, clock_mhz\n"
	"  FROM s;\n"
	"\n"
	"CREATE VIEW mitf AS\n"
	"SELECT workload, gpu, regs, targets, ipc, clock_mhz, fit_total, fit_lo, fit_hi,\n"
	"       ipc / fit_total AS ipc_per_fit,\n"
	"       ipc / fit_hi AS ipc_per_fit_lo,\n"
	"       ipc / nullif(fit_lo, 0) AS ipc_per_fit_hi,\n"
	"       ipc * clock_mhz * 1e6 * 3600 * 1e9 / fit_total AS mitf,\n"
	"       ipc * clock_mhz * 1e6 * 3600 * 1e9 / fit_hi AS mitf_lo,\n"
	"       ipc * clock_mhz * 1e6 * 3600 * 1e9 / nullif(fit_lo, 0) AS mitf_hi\n"
	"  FROM fit_gpu;\n";

/* ---- schema version 7 (issue 13 item 3): stratified and sequential sampling
 * Three columns of campaigns: `strata` ('kernel' or NULL: one stratum per
 * kernel name, equal allocation), `looks` (a sequential campaign's looks,
 * NULL otherwise; its z is then the quantile of 1 - (1 - confidence)/looks,
 * so every interval it shows holds at `confidence` over all its looks
 * together) and `stop` (JSON {"reason": "margin"|"max", "n": N} once a
 * sequential campaign stopped; NULL before). The views avf and avf_kernel
 * are made again with a column `stratified`; for a stratified campaign the
 * 'all' row of avf is the stratified estimator and avf_kernel's
 * contribution is cycle_share × avf_derated. A view exp_share gives each
 * experiment its part in its campaign's estimate (1/n, or W_h/n_h), with
 * which avf_insn and avf_vreg, made again, sum their contributions. Rows
 * of other campaigns are exactly schema 3's (and 5's).
 *
 * The stratified estimator: stratum h (a kernel name with cycles) has the
 * share W_h of the campaign's kernel cycles and n_h experiments; with
 * y = w f (f under physical sampling) and the stratum's means ȳ_h, w̄_h,
 *     avf_derated = Σ W_h ȳ_h,   df = Σ W_h w̄_h,   avf = avf_derated / df.
 * Its interval is Price and Bonett's for a linear function of binomial
 * proportions (2004), with Agresti and Coull's pseudo-counts for any z:
 * each of the m strata gets z²/2m failures in z²/m more experiments,
 *     ỹ_h = (Σ_h y + z²/2m) / ñ_h,   ñ_h = n_h + z²/m,
 *     avf_derated ∈ Σ W_h ỹ_h ± z sqrt(Σ W_h² ỹ_h (1 - ỹ_h) / ñ_h),
 * clipped to [0, 1] and widened to hold the estimate itself. A stratum
 * without failures thus still adds the uncertainty of its own interval
 * (the plug-in variance Σ W_h² s²_h / n_h would add none, and a kernel of
 * 90 % of the cycles with 0 failures in 300 would claim an AVF known to
 * within a third of a percent); with one stratum it is Agresti and Coull's
 * interval. ỹ(1 - ỹ) bounds the variance of values in [0, 1] (live
 * weights), so live campaigns get it too. avf's interval is avf_derated's
 * over df (df, a mean of weights in [0, 1] over every experiment, is taken
 * as known). NULL until every stratum has an experiment. */

/* The strata of each stratified campaign: one row per kernel name with
 * cycles, its cycle share wh and the sums of its experiments (needs inv,
 * all_cycles and grouped); then the campaign's estimate and its interval
 * (the comment above). */
#define STRATA_CTES \
	"strata_h AS (\n" \
	"  SELECT i.campaign_id, CAST(i.cycles AS REAL) / ac.cycles AS wh, c.z,\n" \
	"         coalesce(sum(g.n), 0) AS n, coalesce(sum(g.masked), 0) AS masked,\n" \
	"         coalesce(sum(g.sdc), 0) AS sdc, coalesce(sum(g.due), 0) AS due,\n" \
	"         coalesce(sum(g.sw), 0.0) AS sw, coalesce(sum(g.swf), 0.0) AS swf\n" \
	"    FROM inv i\n" \
	"    JOIN campaigns c ON c.id = i.campaign_id AND c.strata IS NOT NULL\n" \
	"    JOIN all_cycles ac ON ac.campaign_id = i.campaign_id\n" \
	"    JOIN kernels k ON k.campaign_id = i.campaign_id AND k.kernel = i.kernel_name\n" \
	"    LEFT JOIN grouped g ON g.campaign_id = k.campaign_id AND g.launch_index = k.launch_index\n" \
	"   WHERE i.cycles > 0\n" \
	"   GROUP BY i.campaign_id, i.kernel_name\n" \
	"),\n" \
	"strata_adj AS (\n" /* the pseudo-counts: z²/2m failures in z²/m experiments */ \
	"  SELECT h.*, (h.swf + h.z * h.z / (2 * m.m)) / (h.n + h.z * h.z / m.m) AS yt,\n" \
	"         h.n + h.z * h.z / m.m AS nt\n" \
	"    FROM strata_h h\n" \
	"    JOIN (SELECT campaign_id, count(*) AS m FROM strata_h GROUP BY campaign_id) m\n" \
	"      ON m.campaign_id = h.campaign_id\n" \
	"),\n" \
	"strata_all AS (\n" \
	"  SELECT campaign_id, max(z) AS z, sum(n) AS n, sum(masked) AS masked, sum(sdc) AS sdc, sum(due) AS due,\n" \
	"         CASE WHEN min(n) > 0 THEN sum(wh * swf / n) END AS d,\n" \
	"         CASE WHEN min(n) > 0 THEN sum(wh * sw / n) END AS df,\n" \
	"         sum(wh * yt) AS dt, sum(wh * wh * yt * (1 - yt) / nt) AS v\n" \
	"    FROM strata_adj GROUP BY campaign_id\n" \
	"),\n" \
	"strata_w AS (\n" \
	"  SELECT a.*, a.d / nullif(a.df, 0) AS p,\n" \
	"         min(a.d, max(0.0, a.dt - a.z * sqrt(a.v))) AS lo_d,\n" \
	"         max(a.d, min(1.0, a.dt + a.z * sqrt(a.v))) AS hi_d\n" \
	"    FROM strata_all a\n" \
	"),\n" \
	"strat AS (SELECT id AS sid, strata IS NOT NULL AS stratified FROM campaigns)\n"

/* View avf's query of schema 7 (schema 8 wraps it): as schema 3, but a
 * stratified campaign's 'all' row is the stratified estimator (its
 * invocations' rows stay each one's own: cycles are uniform within a
 * kernel's invocations). */
#define AVF_V7_QUERY \
	"WITH " AVF_V3_CTES ",\n" \
	KERNEL_INV_CTES \
	STRATA_CTES \
	"SELECT campaign_id, campaign, target, kernel, launch_index, kernel_name,\n" \
	"       n, masked, sdc, due, confidence,\n" \
	ESTIMATE_COLUMNS ",\n" \
	"       0 AS stratified\n" \
	"  FROM wilson JOIN strat ON sid = campaign_id\n" \
	" WHERE NOT (stratified AND kernel = 'all')\n" \
	"UNION ALL\n" \
	"SELECT c.id, c.name, c.target, 'all', NULL, NULL,\n" \
	"       coalesce(a.n, 0), coalesce(a.masked, 0), coalesce(a.sdc, 0), coalesce(a.due, 0), c.confidence,\n" \
	"       a.p, a.lo_d / a.df, min(1.0, a.hi_d / a.df), a.df, a.d, a.lo_d, a.hi_d, 1\n" \
	"  FROM campaigns c LEFT JOIN strata_w a ON a.campaign_id = c.id\n" \
	" WHERE c.strata IS NOT NULL"

/* The columns version 7 added to the table campaigns, named `table`
 * (version 9 made it again). */
#define CAMPAIGNS_V7_COLUMNS(table)                                                                  \
	"ALTER TABLE " table " ADD COLUMN strata TEXT CHECK (strata IS NULL OR strata = 'kernel');\n"         \
	"ALTER TABLE " table " ADD COLUMN looks INTEGER CHECK (looks IS NULL OR looks BETWEEN 1 AND 20);\n"   \
	"ALTER TABLE " table " ADD COLUMN stop TEXT CHECK (stop IS NULL OR json_valid(stop));\n"

static const char SCHEMA_V7[] =
	"-- issue 13 item 3: stratified and sequential sampling\n"
	CAMPAIGNS_V7_COLUMNS("campaigns")
	"DROP VIEW avf_kernel;\n"
	"DROP VIEW avf;\n"
	"\n"
	"CREATE VIEW avf AS\n"
	AVF_V7_QUERY ";\n"
	"\n"
	/* As schema 3; a stratified campaign's kernel contributes its cycle
	 * share times its own avf_derated. */
	"CREATE VIEW avf_kernel AS\n"
	"WITH " AVF_KERNEL_V3_CTES ",\n"
	"strat AS (SELECT id AS sid, strata IS NOT NULL AS stratified FROM campaigns)\n"
	"SELECT campaign_id, campaign, target, kernel_name, invocations, first_launch, cycles,\n"
	"       cycle_share, n, masked, sdc, due, confidence,\n"
	"       CAST(n AS REAL) / nullif(campaign_n, 0) AS share,\n"
	ESTIMATE_COLUMNS ",\n"
	"       CASE WHEN stratified THEN cycle_share * d\n"
	"            WHEN weighted THEN coalesce(swf, 0) / nullif(campaign_n, 0)\n"
	"            ELSE df * k / nullif(campaign_n, 0) END AS contribution,\n"
	"       stratified\n"
	"  FROM wilson JOIN strat ON sid = campaign_id;\n"
	"\n"
	/* Each experiment's part in its campaign's estimate: 1/n, or for a
	 * stratified campaign W_h / n_h of its kernel h (NULL for a mask outside
	 * every invocation); avf_insn and avf_vreg sum their contributions with
	 * it, so a stratified campaign's parts add up to its stratified AVF. */
	"CREATE VIEW exp_share AS\n"
	"WITH e AS (\n"
	"  SELECT w.*, k.kernel AS kernel_name, c.strata IS NOT NULL AS stratified\n"
	"    FROM exp_weight w JOIN campaigns c ON c.id = w.campaign_id\n"
	"    LEFT JOIN kernels k ON k.campaign_id = w.campaign_id AND k.launch_index = w.launch_index\n"
	"),\n"
	"nh AS (SELECT campaign_id, kernel_name, count(*) AS n FROM e GROUP BY campaign_id, kernel_name),\n"
	"n AS (SELECT campaign_id, count(*) AS n FROM e GROUP BY campaign_id),\n"
	"kc AS (SELECT campaign_id, kernel, sum(end_cycle - start_cycle) AS cycles FROM kernels\n"
	"        GROUP BY campaign_id, kernel),\n"
	"tc AS (SELECT campaign_id, sum(end_cycle - start_cycle) AS cycles FROM kernels GROUP BY campaign_id)\n"
	"SELECT e.campaign_id, e.idx, e.launch_index, e.kernel_name, e.outcome, e.fail, e.w, e.stratified,\n"
	"       CASE WHEN NOT e.stratified THEN 1.0 / n.n\n"
	"            ELSE CAST(kc.cycles AS REAL) / nullif(tc.cycles, 0) / nh.n END AS share\n"
	"  FROM e JOIN n ON n.campaign_id = e.campaign_id\n"
	"  LEFT JOIN nh ON nh.campaign_id = e.campaign_id AND nh.kernel_name IS e.kernel_name\n"
	"  LEFT JOIN kc ON kc.campaign_id = e.campaign_id AND kc.kernel = e.kernel_name\n"
	"  LEFT JOIN tc ON tc.campaign_id = e.campaign_id;\n"
	"\n"
	"DROP VIEW avf_insn;\n"
	"DROP VIEW avf_vreg;\n"
	/* As schema 5; contribution: each experiment's w f times its share. */
	AVF_INSN_HEAD(", w.stratified, w.share", "exp_share")
	"       CASE WHEN max(r.stratified) THEN sum(r.w * r.fail * r.share)\n"
	"            ELSE sum(r.w * r.fail) / nullif(t.n, 0) END AS contribution,\n"
	AVF_INSN_TAIL
	"\n"
	AVF_VREG_HEAD
	"       CASE WHEN max(w.stratified) THEN sum(coalesce(w.w, 0) * w.fail * w.share)\n"
	"            ELSE sum(coalesce(w.w, 0) * w.fail) / nullif(t.n, 0) END AS contribution,\n"
	"       rank() OVER (PARTITION BY s.campaign_id ORDER BY sum(w.fail) DESC) AS rank\n"
	"  FROM sites s\n"
	"  JOIN exp_share w ON w.campaign_id = s.campaign_id AND w.idx = s.idx\n"
	"  JOIN tot t ON t.campaign_id = s.campaign_id\n"
	" WHERE s.vreg IS NOT NULL\n"
	" GROUP BY s.campaign_id, s.kernel, s.vreg;\n";

/* View protection_summary (schema 8; schema 10 makes it again with the
 * caches' codes and SHARP in `codes`): the p CTE's columns of schema 8 and
 * `pcols` more, then `codes`, the expression of the codes column. */
#define PROT_SUMMARY_VIEW(pcols, codes) PROT_SUMMARY_VIEW_EV(pcols, "", codes)
/* The same with `evcols`, more columns of the ev CTE (each ",\n..."),
 * after recovered (schema 11: uncovered). */
#define PROT_SUMMARY_VIEW_EV(pcols, evcols, codes) \
	"CREATE VIEW protection_summary AS\n" \
	"WITH p AS (\n" \
	"  SELECT id, json_extract(config, '$.protection') AS protection,\n" \
	"         json_extract(config, '$.protection.regfile') AS rf, json_extract(config, '$.protection.pred') AS pr,\n" \
	"         json_extract(config, '$.protection.smem') AS sm, json_extract(config, '$.protection.interleave') AS il,\n" \
	"         json_extract(config, '$.protection.ibuffer.scheme') AS ib\n" \
	pcols \
	"    FROM campaigns\n" \
	"),\n" \
	"ev AS (\n" \
	"  SELECT c.id AS campaign_id, c.name AS campaign, c.target, count(e.idx) AS n,\n" \
	"         coalesce(sum(e.prot IS NULL), 0) AS no_event,\n" \
	"         coalesce(sum(e.prot = 'corrected'), 0) AS corrected,\n" \
	"         coalesce(sum(e.prot = 'miscorrected'), 0) AS miscorrected,\n" \
	"         coalesce(sum(e.prot = 'detected'), 0) AS detected,\n" \
	"         coalesce(sum(e.prot = 'undetected'), 0) AS undetected,\n" \
	"         coalesce(sum(e.prot = 'recovered'), 0) AS recovered" evcols "\n" \
	"    FROM campaigns c LEFT JOIN experiments e ON e.campaign_id = c.id\n" \
	"   GROUP BY c.id\n" \
	")\n" \
	"SELECT ev.*, p.protection,\n" \
	codes \
	"       a.sdc, a.due, a.detected AS detected_due, a.avf, a.sdc_avf, a.due_avf, a.detected_avf\n" \
	"  FROM ev JOIN p ON p.id = ev.campaign_id\n" \
	"  JOIN avf a ON a.campaign_id = ev.campaign_id AND a.kernel = 'all';\n"

#define PROT_CODES_V8 \
	"       rtrim(CASE WHEN p.rf <> 'none' THEN 'regfile ' || p.rf || ', ' ELSE '' END ||\n" \
	"             CASE WHEN p.pr <> 'none' THEN 'pred ' || p.pr || ', ' ELSE '' END ||\n" \
	"             CASE WHEN p.sm <> 'none' THEN 'smem ' || p.sm || ', ' ELSE '' END ||\n" \
	"             CASE WHEN p.ib IS NOT NULL AND p.ib <> 'none' THEN 'ibuffer ' || p.ib || ', ' ELSE '' END ||\n" \
	"             CASE WHEN p.il > 1 THEN 'interleave ' || p.il ELSE '' END, ', ') AS codes,\n"

/* View avf of schema 8: schema 7's rows, the DUEs whose reason is in the
 * SQL list `reasons` (detected) and the AVF split (schema 11 makes it
 * again with REFU's reason). */
#define AVF_V8_VIEW(reasons) \
	"CREATE VIEW avf AS\n" \
	"WITH det AS (\n" \
	"  SELECT e.campaign_id, m.kernel AS launch_index, count(*) AS n\n" \
	"    FROM experiments e JOIN masks m ON m.campaign_id = e.campaign_id AND m.idx = e.idx\n" \
	"   WHERE e.outcome = 'due' AND e.reason IN (" reasons ")\n" \
	"   GROUP BY e.campaign_id, m.kernel\n" \
	"),\n" \
	"det_all AS (SELECT campaign_id, sum(n) AS n FROM det GROUP BY campaign_id),\n" \
	"r AS (\n" \
	"  SELECT a.*, CASE WHEN a.kernel = 'all' THEN coalesce(da.n, 0) ELSE coalesce(d.n, 0) END AS detected\n" \
	"    FROM (" AVF_V7_QUERY ") a\n" \
	"    LEFT JOIN det_all da ON da.campaign_id = a.campaign_id\n" \
	"    LEFT JOIN det d ON d.campaign_id = a.campaign_id AND d.launch_index = a.launch_index\n" \
	")\n" \
	"SELECT r.*,\n" \
	"       r.avf * coalesce(CAST(r.sdc AS REAL) / nullif(r.sdc + r.due, 0), 0) AS sdc_avf,\n" \
	"       r.avf * coalesce(CAST(r.due AS REAL) / nullif(r.sdc + r.due, 0), 0) AS due_avf,\n" \
	"       r.avf * coalesce(CAST(r.detected AS REAL) / nullif(r.sdc + r.due, 0), 0) AS detected_avf\n" \
	"  FROM r;\n"

/* The protection events experiments.prot took in schema 8 (simcore's
 * SC_PROT_LIST but none). */
#define PROT_EVENTS_V8 "'corrected', 'miscorrected', 'detected', 'undetected', 'recovered'"

/* ---- schema version 8 (issue 14): protection events ----------------------
 * experiments.prot: the first protection event of the run (NULL: none) and
 * prot_cycle its cycle. View avf gains the detected DUEs (DB_DETECTED_REASONS)
 * and the AVF split by outcome: sdc_avf + due_avf = avf, detected_avf is
 * the part of due_avf a code detected. The split is in proportion to the
 * row's failure counts, so for a physical, unstratified campaign it is
 * exactly sdc/n, due/n and detected/n; for weighted rows it shares the
 * estimator's avf out by counts. protection_summary: each campaign's
 * experiments by protection event (no_event: none), its codes (NULL
 * protection and '' codes for an unprotected one) and its avf row's split. */
static const char SCHEMA_V8[] =
	"-- issue 14: protection events\n"
	"ALTER TABLE experiments ADD COLUMN prot TEXT\n"
	"  CHECK (prot IS NULL OR prot IN (" PROT_EVENTS_V8 "));\n"
	"ALTER TABLE experiments ADD COLUMN prot_cycle INTEGER CHECK (prot_cycle IS NULL OR prot_cycle >= 0);\n"
	"DROP VIEW avf;\n"
	"\n"
	AVF_V8_VIEW(DB_DETECTED_REASONS_V8)
	"\n"
	PROT_SUMMARY_VIEW("", PROT_CODES_V8);

/* Version 9: campaigns in unalloc register mode (a campaign key since the
 * register modes came) could not be stored: version 1's CHECK named ptx
 * and alloc only. The table is made again as in version 4. */
static const char SCHEMA_V9[] =
	"-- campaigns in unalloc register mode\n"
	"PRAGMA legacy_alter_table = ON;\n"
	CAMPAIGNS_TABLE("campaigns_v9", MODES_V1 ", 'unalloc'", TARGETS_V4)
	CAMPAIGNS_V7_COLUMNS("campaigns_v9")
	"INSERT INTO campaigns_v9 SELECT * FROM campaigns;\n"
	"DROP TABLE campaigns;\n"
	"ALTER TABLE campaigns_v9 RENAME TO campaigns;\n"
	"PRAGMA legacy_alter_table = OFF;\n";

/* Version 10: protection_summary's codes name the caches' codes (a tag
 * parity too) and SHARP, which campaigns gained with schema 9's code. */
#define PROT_CACHE_CODE(key, as)                                                                                 \
	"       , CASE json_type(config, '$.protection." key "') WHEN 'object'\n"                                         \
	"           THEN json_extract(config, '$.protection." key ".code') || ' (tag ' ||\n"                              \
	"                json_extract(config, '$.protection." key ".tag') || ')'\n"                                       \
	"           ELSE json_extract(config, '$.protection." key "') END AS " as "\n"
#define PROT_CODE_ITEM(col, name) "             CASE WHEN p." col " IS NOT NULL AND p." col " <> 'none' THEN '" name " ' || p." col " || ', ' ELSE '' END ||\n"

static const char SCHEMA_V10[] =
	"-- issue 14: the caches' codes and SHARP in protection_summary\n"
	"DROP VIEW protection_summary;\n"
	PROT_SUMMARY_VIEW(PROT_CACHE_CODE("l1d", "l1") PROT_CACHE_CODE("l2", "l2") PROT_CACHE_CODE("const", "cc")
	                  "       , json_extract(config, '$.protection.sharp') AS sh\n",
	                  "       rtrim(" PROT_CODE_ITEM("rf", "regfile") PROT_CODE_ITEM("pr", "pred")
	                  PROT_CODE_ITEM("sm", "smem") PROT_CODE_ITEM("l1", "l1d") PROT_CODE_ITEM("l2", "l2")
	                  PROT_CODE_ITEM("cc", "const") PROT_CODE_ITEM("ib", "ibuffer")
	                  "             CASE WHEN p.sh IS NOT NULL THEN 'sharp, ' ELSE '' END ||\n"
	                  "             CASE WHEN p.il > 1 THEN 'interleave ' || p.il ELSE '' END, ', ') AS codes,\n");

/* ---- schema version 11 (issue 15): REFU -----------------------------------
 * experiments.prot takes `uncovered` (REFU: a functional-unit fault on an
 * instruction it does not replay): the table is made again with the new
 * CHECK, as schema 4 and 9 made campaigns again (legacy_alter_table keeps
 * the RENAME from rewriting the views, which name `experiments`). View avf
 * counts DUEs refu_mismatch, penny_unrecoverable and dup_mismatch as
 * detected (DB_DETECTED_REASONS_V11); protection_summary counts uncovered
 * and names Penny (its edc, "pred too" with include_pred, "compiled"),
 * REFU (its buffer) and datapath duplication (its set and variant) in
 * codes. A later scheme adds its events to PROT_EVENTS, its detected
 * reasons to DB_DETECTED_REASONS and its name to the codes the same way,
 * in a step of its own. */
#define PROT_EVENTS_V11 PROT_EVENTS_V8 ", 'uncovered'"

static const char SCHEMA_V11[] =
	"-- issue 15: REFU, Penny, datapath duplication (prot uncovered; their DUEs detected; them in the codes)\n"
	"PRAGMA legacy_alter_table = ON;\n"
	"CREATE TABLE experiments_v11 (\n"
	EXPERIMENTS_V1_COLUMNS
	"  site        TEXT CHECK (site IS NULL OR json_valid(site)),\n"
	"  effect      TEXT CHECK (effect IS NULL OR json_valid(effect)),\n"
	"  severity    TEXT CHECK (severity IS NULL OR json_valid(severity)),\n"
	"  prot        TEXT CHECK (prot IS NULL OR prot IN (" PROT_EVENTS_V11 ")),\n"
	"  prot_cycle  INTEGER CHECK (prot_cycle IS NULL OR prot_cycle >= 0),\n"
	"  PRIMARY KEY (campaign_id, idx),\n"
	"  FOREIGN KEY (campaign_id, idx) REFERENCES masks(campaign_id, idx) ON DELETE CASCADE\n"
	") STRICT, WITHOUT ROWID;\n"
	"INSERT INTO experiments_v11 SELECT * FROM experiments;\n"
	"DROP TABLE experiments;\n"
	"ALTER TABLE experiments_v11 RENAME TO experiments;\n"
	"PRAGMA legacy_alter_table = OFF;\n"
	"DROP VIEW avf;\n"
	AVF_V8_VIEW(DB_DETECTED_REASONS_V11)
	"DROP VIEW protection_summary;\n"
	PROT_SUMMARY_VIEW_EV(PROT_CACHE_CODE("l1d", "l1") PROT_CACHE_CODE("l2", "l2") PROT_CACHE_CODE("const", "cc")
	                     "       , json_extract(config, '$.protection.sharp') AS sh\n"
	                     "       , json_extract(config, '$.protection.refu.replay_buffer') AS rb\n"
	                     "       , json_extract(config, '$.protection.penny.edc') AS pn\n"
	                     "       , json_extract(config, '$.protection.penny.include_pred') AS pnp\n"
	                     "       , json_extract(config, '$.protection.penny.mode') AS pnm\n"
	                     "       , json_extract(config, '$.protection.dup.protect') AS dp\n"
	                     "       , json_extract(config, '$.protection.dup.variant') AS dv\n",
	                     ",\n         coalesce(sum(e.prot = 'uncovered'), 0) AS uncovered",
	                     "       rtrim(" PROT_CODE_ITEM("rf", "regfile") PROT_CODE_ITEM("pr", "pred")
	                     PROT_CODE_ITEM("sm", "smem") PROT_CODE_ITEM("l1", "l1d") PROT_CODE_ITEM("l2", "l2")
	                     PROT_CODE_ITEM("cc", "const") PROT_CODE_ITEM("ib", "ibuffer")
	                     "             CASE WHEN p.pn IS NOT NULL THEN 'penny ' || p.pn ||\n"
	                     "                  CASE WHEN p.pnm = 'compiled' THEN ' compiled' ELSE '' END ||\n"
	                     "                  CASE WHEN p.pnp THEN ' (pred too)' ELSE '' END || ', ' ELSE '' END ||\n"
	                     "             CASE WHEN p.dp IS NOT NULL THEN 'dup ' || p.dp || ' ' || p.dv || ', ' ELSE '' END ||\n"
	                     "             CASE WHEN p.sh IS NOT NULL THEN 'sharp, ' ELSE '' END ||\n"
	                     "             CASE WHEN p.rb IS NOT NULL THEN 'refu ' || p.rb || ', ' ELSE '' END ||\n"
	                     "             CASE WHEN p.il > 1 THEN 'interleave ' || p.il ELSE '' END, ', ') AS codes,\n");

static const char SCHEMA_V12[] =
	"-- issue 17 item 1: shards of campaigns (run --shard I/N) and merged databases\n"
	"CREATE TABLE shards (\n"
	"  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,\n"
	"  shard       INTEGER NOT NULL CHECK (shard >= 0),\n"
	"  nshards     INTEGER NOT NULL CHECK (nshards > shard),\n"
	"  origin      TEXT NOT NULL CHECK (origin IN ('run', 'merge')), -- ran here, or merged in\n"
	"  source      TEXT,                              -- merge: the part database\n"
	"  host        TEXT NOT NULL,                     -- run: where; merge: where merged\n"
	"  updated     REAL NOT NULL,                     -- Unix seconds\n"
	"  PRIMARY KEY (campaign_id, shard)\n"
	") STRICT, WITHOUT ROWID;\n"
	"\n"
	"-- issue 17 item 3: the campaign queue that flipsim daemon runs\n"
	"CREATE TABLE queue (\n"
	"  id          INTEGER PRIMARY KEY,\n"
	"  file        TEXT NOT NULL,                      -- campaign file, absolute path\n"
	"  name        TEXT NOT NULL,                      -- its campaign's name when submitted\n"
	"  config_hash TEXT NOT NULL,                      -- its identity when submitted\n"
	"  state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),\n"
	"  submitted   REAL NOT NULL,                      -- Unix seconds\n"
	"  started     REAL,\n"
	"  finished    REAL,\n"
	"  campaign_id INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,\n"
	"  message     TEXT                                -- why it failed or stopped\n"
	") STRICT;\n"
	"CREATE INDEX queue_by_state ON queue(state, id);\n";

/* Version 13: campaigns on the texture caches (target texcache), made
 * again as in version 9 with the target in the CHECK. */
static const char SCHEMA_V13[] =
	"-- issue 16: the texture caches as a fault target\n"
	"PRAGMA legacy_alter_table = ON;\n"
	CAMPAIGNS_TABLE("campaigns_v13", MODES_V1 ", 'unalloc'", TARGETS_V13)
	CAMPAIGNS_V7_COLUMNS("campaigns_v13")
	"INSERT INTO campaigns_v13 SELECT * FROM campaigns;\n"
	"DROP TABLE campaigns;\n"
	"ALTER TABLE campaigns_v13 RENAME TO campaigns;\n"
	"PRAGMA legacy_alter_table = OFF;\n";

/* Step v brings the schema from version v-1 to v. Released steps never
 * change; a new version appends one. */
static const char *const migrations[] = {
	NULL,
	SCHEMA_V1,
	SCHEMA_V2,
	SCHEMA_V3,
	SCHEMA_V4,
	SCHEMA_V5,
	SCHEMA_V6,
	SCHEMA_V7,
	SCHEMA_V8,
	SCHEMA_V9,
	SCHEMA_V10,
	SCHEMA_V11,
	SCHEMA_V12,
	SCHEMA_V13,
};
_Static_assert(sizeof migrations / sizeof migrations[0] == DB_SCHEMA_VERSION + 1,
               "one migration step per schema version");

const char *db__migration(int64_t v)
{
	return v >= 1 && v <= DB_SCHEMA_VERSION ? migrations[v] : NULL;
}

/* ---- errors --------------------------------------------------------------- */

const char *db_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) case code: return text;
	DB_ERR_LIST(X)
#undef X
	}
	return "unknown error";
}

int db__fail(db_t *db, int code, const char *fmt, ...)
{
	int off = snprintf(db->msg, sizeof db->msg, "%s: ", db->path);
	if (off < 0 || (size_t)off >= sizeof db->msg)
		return code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(db->msg + off, sizeof db->msg - (size_t)off, fmt, ap);
	va_end(ap);
	return code;
}

int db__sqlerr(db_t *db, int rc, const char *what)
{
	int code;
	switch (rc & 0xff) {
	case SQLITE_NOMEM: code = DB_ENOMEM; break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED: code = DB_EBUSY; break;
	case SQLITE_READONLY: code = DB_EREADONLY; break;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
	case SQLITE_TOOBIG: code = DB_EINVAL; break;
	case SQLITE_NOTADB: code = DB_ENOTDB; break;
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_CORRUPT:
	case SQLITE_PROTOCOL: code = DB_EIO; break;
	default: code = DB_ESQL; break;
	}
	const char *detail = db->sql ? sqlite3_errmsg(db->sql) : sqlite3_errstr(rc);
	if (code == DB_EBUSY)
		return db__fail(db, code, "%s: %s (another process held a lock past the busy timeout)",
		                what, detail);
	/* "disk I/O error" alone does not say why: a write that failed is a full
	 * disk or a file size limit (SQLite says SQLITE_FULL only for ENOSPC). */
	int sys = db->sql && code == DB_EIO ? sqlite3_system_errno(db->sql) : 0;
	if (rc == SQLITE_IOERR_WRITE || rc == SQLITE_IOERR_TRUNCATE || rc == SQLITE_IOERR_SHMSIZE ||
	    (rc & 0xff) == SQLITE_FULL)
		return db__fail(db, code, "%s: %s (%s%sthe disk is full or the file reached a size limit)", what, detail,
		                sys ? strerror(sys) : "", sys ? ": " : "");
	if (sys)
		return db__fail(db, code, "%s: %s (%s)", what, detail, strerror(sys));
	return db__fail(db, code, "%s: %s", what, detail);
}

const char *db_errmsg(const db_t *db)
{
	return db ? db->msg : "";
}

/* ---- small helpers ---------------------------------------------------------- */

static int64_t i64(uint64_t v)
{
	int64_t r;
	memcpy(&r, &v, sizeof r);
	return r;
}

static uint64_t u64(int64_t v)
{
	uint64_t r;
	memcpy(&r, &v, sizeof r);
	return r;
}

static double col_real_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int exec(db_t *db, const char *sql, const char *what)
{
	int rc = sqlite3_exec(db->sql, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : db__sqlerr(db, rc, what);
}

static int prepare(db_t *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, st, NULL);
	return rc == SQLITE_OK ? 0 : db__sqlerr(db, rc, "preparing a statement");
}

int db__prepare(db_t *db, const char *sql, sqlite3_stmt **st) { return prepare(db, sql, st); }

void db__column_text(sqlite3_stmt *st, int i, char *dst, size_t n)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	snprintf(dst, n, "%s", s ? (const char *)s : "");
}

/* Reads the single integer a statement such as "PRAGMA user_version"
 * returns. */
static int query_int(db_t *db, const char *sql, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db, sql, &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else
		err = db__sqlerr(db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "reading the database header");
	sqlite3_finalize(st);
	return err;
}

/* Starts a write transaction; read-only handles, and a writer whose file
 * was deleted or replaced (db_check_file), fail at once. */
static int begin_write(db_t *db)
{
	if (db->readonly)
		return db__fail(db, DB_EREADONLY, "opened read-only; cannot store results");
	int err = db_check_file(db);
	return err ? err : exec(db, "BEGIN IMMEDIATE", "starting a write transaction");
}

static int commit(db_t *db)
{
	return exec(db, "COMMIT", "committing");
}

/* Commits a write transaction, then checks that it went to the file at the
 * path: a commit to a deleted or replaced file is no commit for the user. */
static int commit_write(db_t *db)
{
	int err = commit(db);
	return err ? err : db_check_file(db);
}

static void rollback(db_t *db)
{
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
}

int db__begin_write(db_t *db) { return begin_write(db); }
int db__commit_write(db_t *db) { return commit_write(db); }
void db__rollback(db_t *db) { rollback(db); }

/* Rejects a NULL handle or bad arguments before any work. */
static int check_args(db_t *db, bool ok)
{
	if (!db)
		return DB_EINVAL;
	if (!ok)
		return db__fail(db, DB_EINVAL, "invalid argument");
	return 0;
}

/* ---- the normal quantile ------------------------------------------------------ */

double db_z_of_confidence(double c)
{
	if (!(c > 0 && c < 1))
		return NAN;
	/* Solve erfc(z/√2) = 1 - c by bisection: erfc is monotone, and 200
	 * halvings of [0, 40] reach the last bit of a double. */
	double lo = 0, hi = 40, tail = 1 - c;
	for (int i = 0; i < 200 && lo < hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (mid == lo || mid == hi)
			break;
		if (erfc(mid * 0.70710678118654752440) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* SQLite builds without the math functions still evaluate the views. */
static void sql_sqrt(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	double x = sqlite3_value_double(argv[0]);
	if (x < 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, sqrt(x));
}

static int ensure_sqrt(db_t *db)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db->sql, "SELECT sqrt(4.0)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	int rc = sqlite3_create_function(db->sql, "sqrt", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                                 NULL, sql_sqrt, NULL, NULL);
	return rc == SQLITE_OK ? 0 : db__sqlerr(db, rc, "registering sqrt");
}

/* ---- opening ------------------------------------------------------------------ */

typedef struct {
	int64_t app_id;
	int64_t version;
	int64_t objects; /* rows of sqlite_schema */
} ident_t;

static int identify(db_t *db, ident_t *id)
{
	int err = query_int(db, "PRAGMA application_id", &id->app_id);
	if (err == DB_ENOTDB)
		return db__fail(db, DB_ENOTDB, "not a flipsim database (not an SQLite file)");
	if (!err)
		err = query_int(db, "PRAGMA user_version", &id->version);
	if (!err)
		err = query_int(db, "SELECT count(*) FROM sqlite_master", &id->objects);
	return err;
}

/* 1: ours, 0: empty (ours to initialise), <0: refused with a message. */
static int judge(db_t *db, const ident_t *id)
{
	if (id->app_id == DB_APPLICATION_ID) {
		if (id->version > DB_SCHEMA_VERSION)
			return db__fail(db, DB_ENEWER,
			                "written by a newer flipsim (schema %" PRId64 "; this one reads up to %d)",
			                id->version, DB_SCHEMA_VERSION);
		return 1;
	}
	if (id->app_id == 0 && id->version == 0 && id->objects == 0)
		return 0;
	return db__fail(db, DB_ENOTDB, "not a flipsim database (application_id 0x%08" PRIx32 ")",
	                (uint32_t)id->app_id);
}

static int set_journal_wal(db_t *db)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db, "PRAGMA journal_mode=WAL", &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		err = db__sqlerr(db, rc, "switching to WAL");
	} else if (sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), "wal") != 0) {
		err = db__fail(db, DB_EIO, "cannot switch to WAL (journal mode stays %s)",
		               (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return err;
}

/* migrate()'s write transaction: the header read again first, in case
 * another process got there in between, then the missing steps, then the
 * references checked. */
static int migrate_steps(db_t *db)
{
	int err = begin_write(db);
	if (err)
		return err;
	ident_t id = {0};
	err = identify(db, &id);
	if (!err) {
		int verdict = judge(db, &id);
		err = verdict < 0 ? verdict : 0;
	}
	if (!err && id.version < DB_SCHEMA_VERSION && id.app_id != DB_APPLICATION_ID) {
		char sql[64];
		snprintf(sql, sizeof sql, "PRAGMA application_id = %d", DB_APPLICATION_ID);
		err = exec(db, sql, "setting the application_id");
	}
	for (int64_t v = id.version + 1; !err && v <= DB_SCHEMA_VERSION; v++) {
		char sql[64];
		err = exec(db, migrations[v], "creating the schema");
		snprintf(sql, sizeof sql, "PRAGMA user_version = %" PRId64, v);
		if (!err)
			err = exec(db, sql, "setting the schema version");
	}
	int64_t broken = 0;
	if (!err)
		err = query_int(db, "SELECT count(*) FROM pragma_foreign_key_check", &broken);
	if (!err && broken)
		err = db__fail(db, DB_ESQL, "migrating to schema %d left %" PRId64 " broken references", DB_SCHEMA_VERSION,
		               broken);
	if (!err)
		err = commit_write(db);
	if (err)
		rollback(db);
	return err;
}

/* Brings an empty or older database to DB_SCHEMA_VERSION in one write
 * transaction (migrate_steps), with foreign keys off while it runs: a step
 * may make a table again (SCHEMA_V4). */
static int migrate(db_t *db)
{
	int64_t fk = 0;
	int err = query_int(db, "PRAGMA foreign_keys", &fk);
	if (!err && fk)
		err = exec(db, "PRAGMA foreign_keys = OFF", "configuring the connection");
	if (!err)
		err = migrate_steps(db);
	if (fk) {
		int e2 = exec(db, "PRAGMA foreign_keys = ON", "configuring the connection");
		err = err ? err : e2;
	}
	return err;
}

/* Whether path's folder exists and this process may create files in it;
 * when not, a message that says which and why in why[n]. */
static bool folder_writable(const char *path, char *why, size_t n)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		slash[slash == dir] = 0;
	if (access(dir, W_OK) == 0)
		return true;
	int e = errno;
	if (why && e == ENOENT)
		snprintf(why, n, "its folder %s does not exist", dir);
	else if (why && e == ENOTDIR)
		snprintf(why, n, "its folder %s is not a folder", dir);
	else if (why)
		snprintf(why, n, "its folder is read-only (the database and its -wal and -shm files are created "
		         "there); results cannot be stored");
	return false;
}

static const char *const file_suffix[DB__NFILES] = {"", "-wal", "-shm"};

static void file_path(const char *path, int k, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", path, file_suffix[k]);
}

static bool wal_exists(const char *path)
{
	char wal[4200];
	file_path(path, DB__WAL, wal, sizeof wal);
	return access(wal, F_OK) == 0;
}

/* "file:PATH?mode=ro&immutable=1" with PATH percent-encoded where a URI
 * needs it. Returns false when it does not fit. */
static bool immutable_uri(const char *path, char *uri, size_t n)
{
	size_t k = (size_t)snprintf(uri, n, "file:");
	for (const char *p = path; *p && k + 4 < n; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			k += (size_t)snprintf(uri + k, n - k, "%%%02X", (unsigned char)*p);
		else
			uri[k++] = *p;
	}
	int m = k < n ? snprintf(uri + k, n - k, "?mode=ro&immutable=1") : -1;
	return m > 0 && (size_t)m < n - k;
}

/* The path must name an existing file (a missing one is fine for a writer,
 * which creates it), not a folder. */
static int check_path(db_t *db, bool create, bool *exists)
{
	struct stat sb;
	*exists = stat(db->path, &sb) == 0;
	if (!*exists && (!create || errno != ENOENT)) {
		int e = errno;
		return db__fail(db, e == ENOENT ? DB_ENOTFOUND : DB_EIO, "%s", strerror(e));
	}
	if (*exists && S_ISDIR(sb.st_mode))
		return db__fail(db, DB_EIO, "is a directory");
	return 0;
}

static int open_sql(db_t *db, const char *name, int flags)
{
	int rc = sqlite3_open_v2(name, &db->sql, flags, NULL);
	if (rc != SQLITE_OK)
		return db__sqlerr(db, rc, "cannot open");
	sqlite3_extended_result_codes(db->sql, 1);
	sqlite3_busy_timeout(db->sql, 5000);
	return 0;
}

/* A view compiles: every table and column it reads exists. */
static int view_compiles(db_t *db, const char *name)
{
	char sql[200];
	snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" LIMIT 0", name);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL);
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) != SQLITE_ERROR)
		return db__sqlerr(db, rc, "reading the schema");
	return db__fail(db, DB_ENOTDB, "a damaged flipsim database (view %s: %s)", name, sqlite3_errmsg(db->sql));
}

/* The file holds every table, index and view that migration steps
 * 1..version create, and its views compile: a damaged file is refused,
 * never repaired or half-read. The reference is those steps run in an
 * in-memory database. */
static int check_schema(db_t *db, int64_t version)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *want = NULL, *have = NULL;
	int code = 0, rc = sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	for (int64_t v = 1; rc == SQLITE_OK && v <= version; v++)
		rc = sqlite3_exec(ref, migrations[v], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(ref, "SELECT type, name FROM sqlite_master"
		                        " WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY rowid", -1, &want, NULL);
	if (rc != SQLITE_OK) {
		code = db__fail(db, rc == SQLITE_NOMEM ? DB_ENOMEM : DB_ESQL, "building the reference schema: %s",
		                ref ? sqlite3_errmsg(ref) : sqlite3_errstr(rc));
		goto out;
	}
	if ((code = prepare(db, "SELECT count(*) FROM sqlite_master WHERE type = ?1 AND name = ?2", &have)))
		goto out;
	while (!code && (rc = sqlite3_step(want)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(want, 0);
		const char *name = (const char *)sqlite3_column_text(want, 1);
		sqlite3_reset(have);
		sqlite3_bind_text(have, 1, type, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(have, 2, name, -1, SQLITE_TRANSIENT);
		int hr = sqlite3_step(have);
		if (hr != SQLITE_ROW)
			code = db__sqlerr(db, hr, "reading the schema");
		else if (sqlite3_column_int64(have, 0) == 0)
			code = db__fail(db, DB_ENOTDB, "a damaged flipsim database (schema %" PRId64 " lacks the %s %s)",
			                version, type, name);
		else if (!strcmp(type, "view"))
			code = view_compiles(db, name);
	}
out:
	sqlite3_finalize(have);
	sqlite3_finalize(want);
	sqlite3_close(ref);
	return code;
}

/* Reads the file's identity and decides whether it may be opened: 0 with
 * *id filled, or the refusal. Reads only: nothing is written to a file that
 * is not ours, too new or damaged. */
static int accept_file(db_t *db, bool create, ident_t *id)
{
	int code = identify(db, id);
	if (code)
		return code;
	int verdict = judge(db, id);
	if (verdict < 0)
		return verdict;
	if ((code = ensure_sqrt(db)))
		return code;
	if (id->version > 0)
		return check_schema(db, id->version);
	if (verdict == 0)
		return create ? 0 : db__fail(db, DB_ENOTDB, "not a flipsim database (empty)");
	if (create && id->objects == 0)
		return 0; /* our id, nothing else yet: ours to initialise */
	return db__fail(db, DB_ENOTDB, "a damaged flipsim database (schema version 0 with %" PRId64 " objects)",
	                id->objects);
}

static int32_t be32(const unsigned char *b)
{
	uint32_t v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	int32_t r;
	memcpy(&r, &v, sizeof r);
	return r;
}

/* With no -wal beside it the file's header is current: a reader refuses a
 * file that is not SQLite, another application's or a newer flipsim's from
 * the header alone, before SQLite would create a -wal and -shm beside it.
 * Returns 0 when SQLite should look, or the refusal. */
static int peek_header(db_t *db)
{
	unsigned char h[100];
	FILE *f = wal_exists(db->path) ? NULL : fopen(db->path, "rb");
	if (!f)
		return 0;
	size_t n = fread(h, 1, sizeof h, f);
	fclose(f);
	if (n < sizeof h)
		return 0;
	if (memcmp(h, "SQLite format 3", 16) != 0)
		return db__fail(db, DB_ENOTDB, "not a flipsim database (not an SQLite file)");
	ident_t id = {.app_id = be32(h + 68), .version = be32(h + 60), .objects = -1};
	int verdict = id.app_id ? judge(db, &id) : 0; /* id 0: SQLite counts the objects */
	return verdict < 0 ? verdict : 0;
}

/* A reader of an older schema reads a private temporary copy of the file
 * (an SQLite temporary database: memory, spilling to a temporary file)
 * brought to the current schema, so that every view exists; the file itself
 * is closed unchanged. */
static int read_upgraded_copy(db_t *db)
{
	sqlite3 *tmp = NULL;
	int rc = sqlite3_open_v2("", &tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(tmp, "main", db->sql, "main") : NULL;
	if (b) {
		rc = sqlite3_backup_step(b, -1);
		sqlite3_backup_finish(b);
	}
	if (!b || rc != SQLITE_DONE) {
		int code = db__fail(db, DB_EIO, "reading schema %d: cannot copy the file of an older schema: %s",
		                    DB_SCHEMA_VERSION, tmp ? sqlite3_errmsg(tmp) : sqlite3_errstr(rc));
		sqlite3_close(tmp);
		return code;
	}
	sqlite3_close_v2(db->sql);
	db->sql = tmp;
	sqlite3_extended_result_codes(tmp, 1);
	db->readonly = false; /* the copy, not the file */
	int code = ensure_sqrt(db);
	if (!code)
		code = migrate(db);
	db->readonly = true;
	return code;
}

/* A reader: SQLITE_OPEN_READONLY, never a migration or any other write. */
static int open_reader(db_t *db)
{
	bool exists;
	int code = check_path(db, false, &exists);
	if (code || (code = peek_header(db)))
		return code;
	/* A WAL file without its -wal (fully checkpointed) in a folder where
	 * no -shm can be created: nobody can write it now, so it is read as an
	 * immutable file. */
	char uri[4200];
	const char *name = db->path;
	int flags = SQLITE_OPEN_READONLY;
	if (!wal_exists(db->path) && !folder_writable(db->path, NULL, 0) && immutable_uri(db->path, uri, sizeof uri)) {
		name = uri;
		flags |= SQLITE_OPEN_URI;
	}
	if ((code = open_sql(db, name, flags)))
		return code;
	db->readonly = true;
	ident_t id;
	if ((code = accept_file(db, false, &id)))
		return code;
	if (id.version < DB_SCHEMA_VERSION && (code = read_upgraded_copy(db)))
		return code;
	return exec(db, "PRAGMA foreign_keys=ON; PRAGMA query_only=ON", "configuring the connection");
}

/* Records the files the writer holds open, for db_check_file. SQLite's own
 * check (its inode of the file it opened against the path's) catches a
 * file replaced between its open and ours. */
static int watch_files(db_t *db)
{
	for (int k = 0; k < DB__NFILES; k++) {
		char p[4200];
		struct stat sb;
		file_path(db->path, k, p, sizeof p);
		db__file_id_t *f = &db->files[k];
		f->known = stat(p, &sb) == 0;
		f->dev = f->known ? sb.st_dev : 0;
		f->ino = f->known ? sb.st_ino : 0;
	}
	int moved = 0;
	sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_HAS_MOVED, &moved);
	if (moved || !db->files[DB__MAIN].known)
		return db__fail(db, DB_EMOVED, "the database file was deleted or replaced while it was being opened");
	db->watched = true;
	return 0;
}

/* The writer: creates a missing file, migrates an older one, switches to
 * WAL, and proves that it can write now. */
static int open_writer(db_t *db)
{
	bool exists;
	char why[4200];
	int code = check_path(db, true, &exists);
	if (code)
		return code;
	/* refused before SQLite opens it: not a byte written */
	if (exists && access(db->path, W_OK) != 0)
		return db__fail(db, DB_EREADONLY, "read-only (no write permission); results cannot be stored");
	if (!folder_writable(db->path, why, sizeof why))
		return db__fail(db, errno == ENOENT ? DB_ENOTFOUND : DB_EREADONLY, "%s", why);
	if ((code = open_sql(db, db->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)))
		return code;
	if (sqlite3_db_readonly(db->sql, "main") == 1)
		return db__fail(db, DB_EREADONLY, "read-only (no write permission); results cannot be stored");
	ident_t id;
	int64_t wal = 0;
	if ((code = accept_file(db, true, &id)) ||
	    (code = exec(db, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", "configuring the connection")) ||
	    (code = query_int(db, "SELECT journal_mode = 'wal' FROM pragma_journal_mode", &wal)) ||
	    (!wal && (code = set_journal_wal(db))))
		return code;
	if (id.version < DB_SCHEMA_VERSION)
		code = migrate(db);
	else if (!(code = begin_write(db))) /* fail now, not hours later */
		code = commit(db);
	if (code) {
		rollback(db);
		return code;
	}
	return watch_files(db);
}

int db_open(const char *path, bool create, db_t **out, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = '\0';
	if (!out || !path || !*path) {
		if (err && errsz)
			snprintf(err, errsz, "db_open: no path");
		return DB_EINVAL;
	}
	*out = NULL;
	db_t *db = calloc(1, sizeof *db);
	if (!db || !(db->path = strdup(path))) {
		if (err && errsz)
			snprintf(err, errsz, "%s: out of memory", path);
		db_close(db);
		return DB_ENOMEM;
	}
	int code = create ? open_writer(db) : open_reader(db);
	if (code) {
		if (err && errsz)
			snprintf(err, errsz, "%s", db->msg);
		db_close(db);
		return code;
	}
	*out = db;
	return 0;
}

/* ---- the file under a writer ------------------------------------------------- */

/* Copies what the connection holds (every committed transaction) to a new
 * file: PATH.recovered-PID beside the path, else in $TMPDIR or /tmp. Writes
 * "saved in FILE" or why it could not into note[n]. */
static void save_copy(db_t *db, char *note, size_t n)
{
	const char *base = strrchr(db->path, '/'), *tmp = getenv("TMPDIR");
	base = base ? base + 1 : db->path;
	char copy[2][4400];
	snprintf(copy[0], sizeof copy[0], "%s.recovered-%ld", db->path, (long)getpid());
	snprintf(copy[1], sizeof copy[1], "%s/%s.recovered-%ld", tmp && *tmp ? tmp : "/tmp", base, (long)getpid());
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "VACUUM INTO ?1", -1, &st, NULL);
	for (int i = 0; i < 2 && rc == SQLITE_OK; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, copy[i], -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_DONE) {
			sqlite3_finalize(st);
			snprintf(note, n, "everything committed so far is saved in %.400s: move it to %.400s and run the "
			         "same command to resume", copy[i], db->path);
			return;
		}
	}
	snprintf(note, n, "the committed results could not be saved (%s)", sqlite3_errmsg(db->sql));
	sqlite3_finalize(st);
}

/* The file at the path (k = DB__MAIN), or its -wal or -shm, is no longer the
 * one this writer has open. What was committed lives only in the open
 * files now: it is copied out, and SQLite is kept from touching the names
 * again (no checkpoint on close, no unlinking of a -wal or -shm that may be
 * another database's). Our own -wal and -shm names are removed, so that no
 * later open applies this WAL to the file now at the path. */
static int orphaned(db_t *db, int k, bool replaced)
{
	db->lost = true;
	int one = 1;
	sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_PERSIST_WAL, &one);
	sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	char note[900];
	save_copy(db, note, sizeof note);
	for (int s = DB__WAL; s < DB__NFILES; s++) {
		char p[4200];
		struct stat sb;
		file_path(db->path, s, p, sizeof p);
		if (db->files[s].known && stat(p, &sb) == 0 && sb.st_dev == db->files[s].dev &&
		    sb.st_ino == db->files[s].ino)
			unlink(p);
	}
	static const char *const what[DB__NFILES] = {"the database file", "its -wal file", "its -shm file"};
	snprintf(db->lost_msg, sizeof db->lost_msg, "%s was %s while flipsim had it open%s; %.880s", what[k],
	         replaced ? "replaced by another file" : "deleted or moved away",
	         replaced && k == DB__MAIN ? " (the file now there is left untouched)" : "", note);
	return db__fail(db, DB_EMOVED, "%s", db->lost_msg);
}

int db_check_file(db_t *db)
{
	if (!db || !db->watched)
		return 0;
	if (db->lost)
		return db__fail(db, DB_EMOVED, "%s", db->lost_msg);
	for (int k = 0; k < DB__NFILES; k++) {
		const db__file_id_t *f = &db->files[k];
		char p[4200];
		struct stat sb;
		file_path(db->path, k, p, sizeof p);
		bool here = f->known && stat(p, &sb) == 0;
		if (!f->known || (!here && errno != ENOENT && errno != ENOTDIR))
			continue; /* not opened, or cannot tell (an unreadable folder): writes still reach it */
		if (!here || sb.st_dev != f->dev || sb.st_ino != f->ino)
			return orphaned(db, k, here);
	}
	return 0;
}

void db_close(db_t *db)
{
	if (!db)
		return;
	sqlite3_close_v2(db->sql);
	free(db->path);
	free(db);
}

int db_set_busy_timeout(db_t *db, int ms)
{
	if (!db || ms < 0)
		return DB_EINVAL;
	sqlite3_busy_timeout(db->sql, ms);
	return 0;
}

/* ---- campaigns -------------------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* A JSON object, or NULL for none (NULL or ""); the statement stores only
 * valid JSON (json_valid), so a garbled one becomes NULL, never an error. */
static void bind_json(sqlite3_stmt *st, int i, const char *s) { bind_text(st, i, s && *s ? s : NULL); }

/* Inside a write transaction: the campaign stored under c->legacy_hash,
 * if any and if none has c->config_hash yet, takes c's config and hash. */
static int adopt_legacy(db_t *db, const db_campaign_t *c)
{
	if (!c->legacy_hash || !*c->legacy_hash || !strcmp(c->legacy_hash, c->config_hash))
		return 0;
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "UPDATE campaigns SET config = ?1, config_hash = ?2 WHERE config_hash = ?3"
	                  " AND NOT EXISTS (SELECT 1 FROM campaigns WHERE config_hash = ?2)",
	                  &st);
	if (err)
		return err;
	bind_text(st, 1, c->config);
	bind_text(st, 2, c->config_hash);
	bind_text(st, 3, c->legacy_hash);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "adopting the campaign stored by an older flipsim");
	sqlite3_finalize(st);
	return err;
}

/* Inside a write transaction: inserts c unless a campaign has its
 * config_hash already; *made says whether it did (and *id is then set). */
static int insert_campaign(db_t *db, const db_campaign_t *c, double z, int64_t *id, bool *made)
{
	sqlite3_stmt *ins = NULL;
	int err = prepare(db,
	                  "INSERT INTO campaigns (name, workload, gpu, regs, config, config_hash,"
	                  " tool_version, seed, target, sampling, fit_per_bit, confidence, z, n_masks,"
	                  " fields, scope, strata, looks)"
	                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
	                  " ON CONFLICT (config_hash) DO NOTHING",
	                  &ins);
	if (err)
		return err;
	bind_text(ins, 1, c->name);
	bind_text(ins, 2, c->workload);
	bind_text(ins, 3, c->gpu);
	bind_text(ins, 4, c->regs);
	bind_text(ins, 5, c->config);
	bind_text(ins, 6, c->config_hash);
	bind_text(ins, 7, c->tool_version);
	sqlite3_bind_int64(ins, 8, i64(c->seed));
	bind_text(ins, 9, c->target);
	bind_text(ins, 10, c->sampling);
	sqlite3_bind_double(ins, 11, c->fit_per_bit);
	sqlite3_bind_double(ins, 12, c->confidence);
	sqlite3_bind_double(ins, 13, z);
	sqlite3_bind_int64(ins, 14, i64(c->n_masks));
	bind_text(ins, 15, c->fields ? c->fields : "");
	bind_text(ins, 16, c->scope ? c->scope : "application");
	if (c->strata)
		bind_text(ins, 17, c->strata);
	if (c->looks)
		sqlite3_bind_int64(ins, 18, c->looks);
	int rc = sqlite3_step(ins);
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "storing the campaign");
	*made = !err && sqlite3_changes(db->sql) == 1;
	if (*made)
		*id = sqlite3_last_insert_rowid(db->sql);
	sqlite3_finalize(ins);
	return err;
}

/* The campaign stored under c->config_hash: its id, or DB_ECONFLICT when
 * its configuration is not c's (a hash collision or a corrupt row). */
static int find_campaign(db_t *db, const db_campaign_t *c, int64_t *id)
{
	sqlite3_stmt *sel = NULL;
	int err = prepare(db, "SELECT id, config FROM campaigns WHERE config_hash = ?1", &sel);
	if (err)
		return err;
	bind_text(sel, 1, c->config_hash);
	int rc = sqlite3_step(sel);
	if (rc != SQLITE_ROW) {
		err = db__sqlerr(db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "finding the campaign");
	} else {
		*id = sqlite3_column_int64(sel, 0);
		if (strcmp((const char *)sqlite3_column_text(sel, 1), c->config) != 0)
			err = db__fail(db, DB_ECONFLICT, "campaign %" PRId64 " has config_hash %s but another configuration",
			               *id, c->config_hash);
	}
	sqlite3_finalize(sel);
	return err;
}

int db_campaign_get_or_create(db_t *db, const db_campaign_t *c, int64_t *id, bool *existed)
{
	int err = check_args(db, c && id && c->config && c->config_hash);
	if (err)
		return err;
	/* a sequential campaign's intervals hold at `confidence` over all its
	 * looks together (Bonferroni): each is taken at 1 - (1 - c)/looks */
	double z = db_z_of_confidence(c->looks > 1 ? 1 - (1 - c->confidence) / c->looks : c->confidence);
	if (c->looks > 20)
		return db__fail(db, DB_EINVAL, "campaign %s: %u looks, more than 20", c->name ? c->name : "?", c->looks);
	if (!isfinite(z))
		return db__fail(db, DB_EINVAL, "campaign %s: confidence %g is not in (0,1)",
		                c->name ? c->name : "?", c->confidence);
	bool made = false;
	if ((err = begin_write(db)))
		return err;
	if ((err = adopt_legacy(db, c)) || (err = insert_campaign(db, c, z, id, &made)) ||
	    (!made && (err = find_campaign(db, c, id))) || (err = commit_write(db))) {
		rollback(db);
		return err;
	}
	if (existed)
		*existed = !made;
	return 0;
}

/* ---- golden run and kernels ----------------------------------------------------------- */

int db_golden_put(db_t *db, int64_t campaign, const db_golden_t *g)
{
	int err = check_args(db, g != NULL);
	if (err)
		return err;
	if (!memchr(g->output_digest, '\0', sizeof g->output_digest))
		return db__fail(db, DB_EINVAL, "golden run: output digest is not terminated");
	sqlite3_stmt *ins = NULL;
	db_golden_t old;
	if ((err = begin_write(db)))
		return err;
	if ((err = prepare(db,
	                   "INSERT INTO golden (campaign_id, cycles, thread_insts, warp_insts, ipc,"
	                   " clock_mhz, num_sms, bits_per_sm, output_digest, wall_seconds)"
	                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
	                   " ON CONFLICT (campaign_id) DO NOTHING",
	                   &ins)))
		goto fail;
	sqlite3_bind_int64(ins, 1, campaign);
	sqlite3_bind_int64(ins, 2, i64(g->cycles));
	sqlite3_bind_int64(ins, 3, i64(g->thread_insts));
	sqlite3_bind_int64(ins, 4, i64(g->warp_insts));
	sqlite3_bind_double(ins, 5, g->ipc);
	sqlite3_bind_double(ins, 6, g->clock_mhz);
	sqlite3_bind_int64(ins, 7, g->num_sms);
	sqlite3_bind_int64(ins, 8, i64(g->bits_per_sm));
	bind_text(ins, 9, g->output_digest);
	sqlite3_bind_double(ins, 10, g->wall_seconds);
	int rc = sqlite3_step(ins);
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "storing the golden run");
		goto fail;
	}
	if (sqlite3_changes(db->sql) == 0) {
		if ((err = db_golden_get(db, campaign, &old)))
			goto fail;
		if (old.cycles != g->cycles || old.thread_insts != g->thread_insts ||
		    old.warp_insts != g->warp_insts || old.ipc != g->ipc ||
		    old.clock_mhz != g->clock_mhz || old.num_sms != g->num_sms ||
		    old.bits_per_sm != g->bits_per_sm ||
		    strcmp(old.output_digest, g->output_digest) != 0) {
			err = db__fail(db, DB_ECONFLICT,
			               "campaign %" PRId64 ": this golden run (%" PRIu64 " cycles, digest %s)"
			               " differs from the stored one (%" PRIu64 " cycles, digest %s)",
			               campaign, g->cycles, g->output_digest, old.cycles, old.output_digest);
			goto fail;
		}
	}
	if ((err = commit_write(db)))
		goto fail;
	sqlite3_finalize(ins);
	return 0;

fail:
	sqlite3_finalize(ins);
	rollback(db);
	return err;
}

int db_golden_get(db_t *db, int64_t campaign, db_golden_t *g)
{
	int err = check_args(db, g != NULL);
	if (err)
		return err;
	sqlite3_stmt *st = NULL;
	if ((err = prepare(db,
	                   "SELECT cycles, thread_insts, warp_insts, ipc, clock_mhz, num_sms,"
	                   " bits_per_sm, output_digest, wall_seconds FROM golden WHERE campaign_id = ?1",
	                   &st)))
		return err;
	sqlite3_bind_int64(st, 1, campaign);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		memset(g, 0, sizeof *g);
		g->cycles = u64(sqlite3_column_int64(st, 0));
		g->thread_insts = u64(sqlite3_column_int64(st, 1));
		g->warp_insts = u64(sqlite3_column_int64(st, 2));
		g->ipc = sqlite3_column_double(st, 3);
		g->clock_mhz = sqlite3_column_double(st, 4);
		g->num_sms = (uint32_t)sqlite3_column_int64(st, 5);
		g->bits_per_sm = u64(sqlite3_column_int64(st, 6));
		snprintf(g->output_digest, sizeof g->output_digest, "%s",
		         (const char *)sqlite3_column_text(st, 7));
		g->wall_seconds = sqlite3_column_double(st, 8);
	} else if (rc == SQLITE_DONE) {
		err = db__fail(db, DB_ENOTFOUND, "campaign %" PRId64 " has no golden run", campaign);
	} else {
		err = db__sqlerr(db, rc, "reading the golden run");
	}
	sqlite3_finalize(st);
	return err;
}

static void dim3_text(char *buf, size_t sz, const uint32_t d[3])
{
	snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, d[0], d[1], d[2]);
}

/* How store_row left a row. */
enum { ROW_STORED, ROW_STORE_FAILED, ROW_COMPARE_FAILED, ROW_DIFFERS };

/* Binds one row's values to a put's INSERT and to its SELECT, which number
 * their parameters alike. */
typedef void row_binder_t(sqlite3_stmt *st, int64_t campaign, const void *row);

/* Stores one row through `ins` (INSERT ... ON CONFLICT DO NOTHING); when a
 * row with its key is there already, `sel` (SELECT count(*) of the rows
 * equal in every column) must find it, so that a put may be repeated but
 * never changes what is stored. Returns a ROW_* with the step's code in *rc. */
static int store_row(db_t *db, sqlite3_stmt *ins, sqlite3_stmt *sel, row_binder_t *bind, int64_t campaign,
                     const void *row, int *rc)
{
	sqlite3_reset(ins);
	bind(ins, campaign, row);
	if ((*rc = sqlite3_step(ins)) != SQLITE_DONE)
		return ROW_STORE_FAILED;
	if (sqlite3_changes(db->sql) == 1)
		return ROW_STORED;
	sqlite3_reset(sel);
	bind(sel, campaign, row);
	if ((*rc = sqlite3_step(sel)) != SQLITE_ROW)
		return ROW_COMPARE_FAILED;
	return sqlite3_column_int64(sel, 0) == 1 ? ROW_STORED : ROW_DIFFERS;
}

static void bind_kernel(sqlite3_stmt *st, int64_t campaign, const void *row)
{
	const db_kernel_t *k = row;
	char grid[40], block[40];
	dim3_text(grid, sizeof grid, k->grid);
	dim3_text(block, sizeof block, k->block);
	sqlite3_bind_int64(st, 1, campaign);
	sqlite3_bind_int64(st, 2, k->launch_index);
	bind_text(st, 3, k->kernel);
	sqlite3_bind_int64(st, 4, i64(k->start_cycle));
	sqlite3_bind_int64(st, 5, i64(k->end_cycle));
	bind_text(st, 6, grid);
	bind_text(st, 7, block);
	sqlite3_bind_int64(st, 8, k->regs_per_thread);
	sqlite3_bind_int64(st, 9, k->threads_per_sm);
	sqlite3_bind_int64(st, 10, k->ctas_per_sm);
	sqlite3_bind_int64(st, 11, k->smem_per_cta);
	sqlite3_bind_double(st, 12, k->df_reg);
	sqlite3_bind_double(st, 13, k->df_smem);
}

int db_kernels_put(db_t *db, int64_t campaign, const db_kernel_t *k, uint32_t n)
{
	int err = check_args(db, k || n == 0);
	if (err)
		return err;
	sqlite3_stmt *ins = NULL, *sel = NULL;
	if ((err = begin_write(db)))
		return err;
	if ((err = prepare(db,
	                   "INSERT INTO kernels (campaign_id, launch_index, kernel, start_cycle,"
	                   " end_cycle, grid, block, regs_per_thread, threads_per_sm, ctas_per_sm,"
	                   " smem_per_cta, df_reg, df_smem)"
	                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
	                   " ON CONFLICT (campaign_id, launch_index) DO NOTHING",
	                   &ins)) ||
	    (err = prepare(db,
	                   "SELECT count(*) FROM kernels WHERE campaign_id = ?1 AND launch_index = ?2"
	                   " AND kernel = ?3 AND start_cycle = ?4 AND end_cycle = ?5 AND grid = ?6"
	                   " AND block = ?7 AND regs_per_thread = ?8 AND threads_per_sm = ?9"
	                   " AND ctas_per_sm = ?10 AND smem_per_cta = ?11 AND df_reg = ?12"
	                   " AND df_smem = ?13",
	                   &sel)))
		goto fail;
	for (uint32_t i = 0; i < n && !err; i++) {
		int rc, how = store_row(db, ins, sel, bind_kernel, campaign, &k[i], &rc);
		if (how == ROW_STORE_FAILED)
			err = db__sqlerr(db, rc, "storing a kernel invocation");
		else if (how == ROW_COMPARE_FAILED)
			err = db__sqlerr(db, rc, "comparing a kernel invocation");
		else if (how == ROW_DIFFERS)
			err = db__fail(db, DB_ECONFLICT,
			               "campaign %" PRId64 ": kernel invocation %" PRIu32 " (%s) differs from the stored one",
			               campaign, k[i].launch_index, k[i].kernel);
	}
	if (err || (err = commit_write(db)))
		goto fail;
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	return 0;

fail:
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	rollback(db);
	return err;
}

/* ---- masks ---------------------------------------------------------------------------- */

static void bind_mask(sqlite3_stmt *st, int64_t campaign, const void *row)
{
	const db_mask_t *m = row;
	sqlite3_bind_int64(st, 1, campaign);
	sqlite3_bind_int64(st, 2, i64(m->idx));
	sqlite3_bind_int64(st, 3, i64(m->cycle));
	sqlite3_bind_int64(st, 4, m->sm);
	sqlite3_bind_int64(st, 5, i64(m->loc));
	sqlite3_bind_int64(st, 6, m->nbits);
	bind_text(st, 7, m->extra);
}

int db_masks_put(db_t *db, int64_t campaign, const db_mask_t *m, uint64_t n)
{
	int err = check_args(db, m || n == 0);
	if (err)
		return err;
	sqlite3_stmt *ins = NULL, *sel = NULL;
	if ((err = begin_write(db)))
		return err;
	/* The kernel is the lowest launch index whose [start, end) holds the
	 * cycle (launches of one program do not overlap; if they ever did, the
	 * earlier launch wins). */
	if ((err = prepare(db,
	                   "INSERT INTO masks (campaign_id, idx, cycle, sm, loc, nbits, extra, kernel)"
	                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	                   "  (SELECT min(launch_index) FROM kernels WHERE campaign_id = ?1"
	                   "    AND start_cycle <= ?3 AND ?3 < end_cycle))"
	                   " ON CONFLICT (campaign_id, idx) DO NOTHING",
	                   &ins)) ||
	    (err = prepare(db,
	                   "SELECT count(*) FROM masks WHERE campaign_id = ?1 AND idx = ?2"
	                   " AND cycle = ?3 AND sm = ?4 AND loc = ?5 AND nbits = ?6 AND extra IS ?7",
	                   &sel)))
		goto fail;
	for (uint64_t i = 0; i < n && !err; i++) {
		int rc, how = store_row(db, ins, sel, bind_mask, campaign, &m[i], &rc);
		if (how == ROW_STORE_FAILED) {
			char what[64];
			snprintf(what, sizeof what, "storing mask %" PRIu64, m[i].idx);
			err = db__sqlerr(db, rc, what);
		} else if (how == ROW_COMPARE_FAILED)
			err = db__sqlerr(db, rc, "comparing a mask");
		else if (how == ROW_DIFFERS)
			err = db__fail(db, DB_ECONFLICT,
			               "campaign %" PRId64 ": mask %" PRIu64
			               " differs from the stored one (was the mask generator changed?)",
			               campaign, m[i].idx);
	}
	if (err || (err = commit_write(db)))
		goto fail;
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	return 0;

fail:
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	rollback(db);
	return err;
}

#define PENDING_WHERE                                                        \
	" FROM masks m WHERE m.campaign_id = ?1 AND NOT EXISTS"                 \
	" (SELECT 1 FROM experiments e WHERE e.campaign_id = m.campaign_id"     \
	"  AND e.idx = m.idx)"

/* One row of the pending-masks query into *mk; its extra text is copied to
 * *strs, which moves past it. Returns false when the text does not fit
 * before strend (the rows changed since they were counted). */
static bool pending_row(sqlite3_stmt *sel, db_mask_t *mk, char **strs, const char *strend)
{
	mk->idx = u64(sqlite3_column_int64(sel, 0));
	mk->cycle = u64(sqlite3_column_int64(sel, 1));
	mk->sm = (uint32_t)sqlite3_column_int64(sel, 2);
	mk->loc = u64(sqlite3_column_int64(sel, 3));
	mk->nbits = (uint32_t)sqlite3_column_int64(sel, 4);
	mk->extra = NULL;
	if (sqlite3_column_type(sel, 5) != SQLITE_NULL) {
		const unsigned char *s = sqlite3_column_text(sel, 5);
		size_t len = (size_t)sqlite3_column_bytes(sel, 5);
		if (!s || len + 1 > (size_t)(strend - *strs))
			return false;
		memcpy(*strs, s, len + 1);
		mk->extra = *strs;
		*strs += len + 1;
	}
	mk->kernel = sqlite3_column_type(sel, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(sel, 6);
	return true;
}

/* Reads the `count` pending masks into arr, whose `strbytes` bytes after the
 * last mask hold their extra texts. */
static int pending_rows(db_t *db, sqlite3_stmt *sel, int64_t campaign, db_mask_t *arr, uint64_t count,
                        uint64_t strbytes)
{
	char *strs = (char *)(arr + count), *strend = strs + strbytes;
	uint64_t i = 0;
	int rc;
	sqlite3_bind_int64(sel, 1, campaign);
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW && i < count)
		if (!pending_row(sel, &arr[i++], &strs, strend))
			return db__fail(db, DB_ESQL, "pending masks changed while read");
	if (rc != SQLITE_DONE || i != count)
		return rc == SQLITE_ROW || rc == SQLITE_DONE ? db__fail(db, DB_ESQL, "pending masks changed while read")
		                                             : db__sqlerr(db, rc, "reading pending masks");
	return 0;
}

int db_masks_pending(db_t *db, int64_t campaign, db_mask_t **out, uint64_t *n)
{
	int err = check_args(db, out && n);
	if (err)
		return err;
	*out = NULL;
	*n = 0;
	sqlite3_stmt *cnt = NULL, *sel = NULL;
	db_mask_t *arr = NULL;
	/* One read transaction: the count and the rows see the same snapshot. */
	if ((err = exec(db, "BEGIN", "starting a read transaction")))
		return err;
	if ((err = prepare(db,
	                   "SELECT count(*), coalesce(sum(length(CAST(m.extra AS BLOB)) + 1), 0)"
	                   PENDING_WHERE,
	                   &cnt)) ||
	    (err = prepare(db,
	                   "SELECT m.idx, m.cycle, m.sm, m.loc, m.nbits, m.extra, m.kernel"
	                   PENDING_WHERE " ORDER BY m.cycle, m.idx",
	                   &sel)))
		goto fail;
	sqlite3_bind_int64(cnt, 1, campaign);
	int rc = sqlite3_step(cnt);
	if (rc != SQLITE_ROW) {
		err = db__sqlerr(db, rc, "counting pending masks");
		goto fail;
	}
	uint64_t count = (uint64_t)sqlite3_column_int64(cnt, 0);
	uint64_t strbytes = (uint64_t)sqlite3_column_int64(cnt, 1);
	if (count > 0 && (count > (SIZE_MAX - strbytes) / sizeof *arr ||
	                  !(arr = malloc((size_t)count * sizeof *arr + (size_t)strbytes)))) {
		err = db__fail(db, DB_ENOMEM, "out of memory for %" PRIu64 " pending masks", count);
		goto fail;
	}
	if ((count > 0 && (err = pending_rows(db, sel, campaign, arr, count, strbytes))) || (err = commit(db)))
		goto fail;
	sqlite3_finalize(cnt);
	sqlite3_finalize(sel);
	*out = arr;
	*n = count;
	return 0;

fail:
	free(arr);
	sqlite3_finalize(cnt);
	sqlite3_finalize(sel);
	rollback(db);
	return err;
}

/* ---- experiments ------------------------------------------------------------------------ */

static const char *const outcome_names[] = {"masked", "sdc", "due"};

int db_experiments_put(db_t *db, int64_t campaign, const db_experiment_t *e, uint32_t n,
                       uint32_t *inserted)
{
	int err = check_args(db, e || n == 0);
	if (err)
		return err;
	if (inserted)
		*inserted = 0;
	for (uint32_t i = 0; i < n; i++)
		if ((unsigned)e[i].outcome > DB_DUE)
			return db__fail(db, DB_EINVAL, "experiment %" PRIu64 ": outcome %d is not one of"
			                " masked, sdc, due", e[i].idx, (int)e[i].outcome);
	sqlite3_stmt *ins = NULL;
	uint32_t fresh = 0;
	if ((err = begin_write(db)))
		return err;
	if ((err = prepare(db,
	                   "INSERT INTO experiments (campaign_id, idx, outcome, reason, cycles, early,"
	                   " wall, worker, live_bits, site, effect, severity, prot, prot_cycle)"
	                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, CASE WHEN json_valid(?10) THEN ?10 END,"
	                   " CASE WHEN json_valid(?11) THEN ?11 END, CASE WHEN json_valid(?12) THEN ?12 END,"
	                   " ?13, CASE WHEN ?13 IS NOT NULL THEN ?14 END)"
	                   " ON CONFLICT (campaign_id, idx) DO NOTHING",
	                   &ins)))
		goto fail;
	for (uint32_t i = 0; i < n; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, campaign);
		sqlite3_bind_int64(ins, 2, i64(e[i].idx));
		bind_text(ins, 3, outcome_names[e[i].outcome]);
		bind_text(ins, 4, e[i].reason);
		sqlite3_bind_int64(ins, 5, i64(e[i].cycles));
		sqlite3_bind_int(ins, 6, e[i].early ? 1 : 0);
		sqlite3_bind_double(ins, 7, e[i].wall);
		sqlite3_bind_int(ins, 8, e[i].worker);
		if (e[i].has_live_bits)
			sqlite3_bind_int64(ins, 9, i64(e[i].live_bits));
		else
			sqlite3_bind_null(ins, 9);
		bind_json(ins, 10, e[i].site);
		bind_json(ins, 11, e[i].effect);
		bind_json(ins, 12, e[i].severity);
		bind_text(ins, 13, e[i].prot);
		sqlite3_bind_int64(ins, 14, i64(e[i].prot_cycle));
		int rc = sqlite3_step(ins);
		if (rc == SQLITE_CONSTRAINT_FOREIGNKEY) {
			err = db__fail(db, DB_EINVAL, "experiment %" PRIu64 ": campaign %" PRId64
			               " has no such mask", e[i].idx, campaign);
			goto fail;
		}
		if (rc != SQLITE_DONE) {
			char what[64];
			snprintf(what, sizeof what, "storing experiment %" PRIu64, e[i].idx);
			err = db__sqlerr(db, rc, what);
			goto fail;
		}
		fresh += (uint32_t)sqlite3_changes(db->sql);
	}
	if ((err = commit_write(db)))
		goto fail;
	sqlite3_finalize(ins);
	if (inserted)
		*inserted = fresh;
	return 0;

fail:
	sqlite3_finalize(ins);
	rollback(db);
	return err;
}

/* ---- progress --------------------------------------------------------------------------- */

/* The campaign's counts: masks planned and stored, experiments done by
 * outcome, early ends, unused and dead faults, wall time. */
static int progress_counts(db_t *db, int64_t campaign, db_progress_t *p)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "SELECT c.n_masks,"
	                  " (SELECT count(*) FROM masks m WHERE m.campaign_id = c.id),"
	                  " count(e.idx),"
	                  " coalesce(sum(e.outcome = 'masked'), 0),"
	                  " coalesce(sum(e.outcome = 'sdc'), 0),"
	                  " coalesce(sum(e.outcome = 'due'), 0),"
	                  " coalesce(sum(e.early), 0),"
	                  " coalesce(sum(e.reason = '" DB_REASON_UNUSED "'), 0),"
	                  " coalesce(sum(e.wall), 0.0),"
	                  " coalesce(sum(e.reason = '" DB_REASON_DEAD "'), 0),"
	                  " coalesce(c.looks, 0), coalesce(json_extract(c.stop, '$.reason'), ''),"
	                  " coalesce(json_extract(c.stop, '$.n'), 0),"
	                  " (SELECT s.shard FROM shards s WHERE s.campaign_id = c.id AND s.origin = 'run'),"
	                  " (SELECT s.nshards FROM shards s WHERE s.campaign_id = c.id AND s.origin = 'run'),"
	                  " (SELECT count(*) FROM shards s WHERE s.campaign_id = c.id AND s.origin = 'merge')"
	                  " FROM campaigns c LEFT JOIN experiments e ON e.campaign_id = c.id"
	                  " WHERE c.id = ?1 GROUP BY c.id",
	                  &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, campaign);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		err = db__fail(db, DB_ENOTFOUND, "no campaign %" PRId64, campaign);
	} else if (rc != SQLITE_ROW) {
		err = db__sqlerr(db, rc, "reading progress");
	} else {
		p->n_masks = u64(sqlite3_column_int64(st, 0));
		p->stored = u64(sqlite3_column_int64(st, 1));
		p->done = u64(sqlite3_column_int64(st, 2));
		p->masked = u64(sqlite3_column_int64(st, 3));
		p->sdc = u64(sqlite3_column_int64(st, 4));
		p->due = u64(sqlite3_column_int64(st, 5));
		p->early = u64(sqlite3_column_int64(st, 6));
		p->unused = u64(sqlite3_column_int64(st, 7));
		p->wall = sqlite3_column_double(st, 8);
		p->dead = u64(sqlite3_column_int64(st, 9));
		p->looks = (uint32_t)sqlite3_column_int64(st, 10);
		snprintf(p->stop, sizeof p->stop, "%s", (const char *)sqlite3_column_text(st, 11));
		p->stop_n = u64(sqlite3_column_int64(st, 12));
		/* a database that runs one shard (and merged none in) plans its share */
		if (sqlite3_column_type(st, 14) != SQLITE_NULL && sqlite3_column_int64(st, 15) == 0) {
			p->shard = (uint32_t)sqlite3_column_int64(st, 13);
			p->nshards = (uint32_t)sqlite3_column_int64(st, 14);
			p->n_masks = db_shard_size(p->n_masks, p->shard, p->nshards);
		}
	}
	sqlite3_finalize(st);
	return err;
}

/* The campaign's AVF and its interval. They come from the view, so status
 * and report agree. */
#define AVF_PROGRESS_COLS "avf, avf_lo, avf_hi, df, avf_derated, stratified"

/* The columns AVF_PROGRESS_COLS of st from column c0 into p. */
static void progress_avf_row(sqlite3_stmt *st, int c0, db_progress_t *p)
{
	p->avf = col_real_or_nan(st, c0);
	p->avf_lo = col_real_or_nan(st, c0 + 1);
	p->avf_hi = col_real_or_nan(st, c0 + 2);
	p->df = col_real_or_nan(st, c0 + 3);
	p->avf_derated = col_real_or_nan(st, c0 + 4);
	p->stratified = sqlite3_column_int(st, c0 + 5) != 0;
}

static int progress_avf(db_t *db, int64_t campaign, db_progress_t *p)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "SELECT " AVF_PROGRESS_COLS " FROM avf"
	                  " WHERE campaign_id = ?1 AND kernel = 'all'",
	                  &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, campaign);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		err = db__sqlerr(db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "reading the AVF");
	else
		progress_avf_row(st, 0, p);
	sqlite3_finalize(st);
	return err;
}

/* progress_avf for every campaign of list (in id order) at once: the view
 * avf computes every campaign's rows whatever the WHERE, so one query
 * instead of one per campaign (a database of 500 campaigns took minutes). */
static int progress_avf_all(db_t *db, db_campaign_info_t *list, size_t n)
{
	sqlite3_stmt *st = NULL;
	int err = prepare(db,
	                  "SELECT campaign_id, " AVF_PROGRESS_COLS " FROM avf WHERE kernel = 'all'"
	                  " ORDER BY campaign_id",
	                  &st);
	if (err)
		return err;
	size_t i = 0, seen = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (i < n && list[i].id < id)
			i++;
		if (i < n && list[i].id == id) {
			progress_avf_row(st, 1, &list[i].progress);
			seen++;
		}
	}
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "reading the AVF");
	else if (seen != n)
		err = db__sqlerr(db, SQLITE_ERROR, "reading the AVF");
	sqlite3_finalize(st);
	return err;
}

int db_campaign_stopped(db_t *db, int64_t campaign, const char *reason, uint64_t n)
{
	int err = check_args(db, reason && (!strcmp(reason, "margin") || !strcmp(reason, "max")));
	if (err)
		return err;
	sqlite3_stmt *st = NULL;
	if ((err = begin_write(db)))
		return err;
	if ((err = prepare(db, "UPDATE campaigns SET stop = json_object('reason', ?2, 'n', ?3) WHERE id = ?1", &st)))
		goto fail;
	sqlite3_bind_int64(st, 1, campaign);
	bind_text(st, 2, reason);
	sqlite3_bind_int64(st, 3, i64(n));
	int rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		err = db__sqlerr(db, rc, "recording why the campaign stopped");
	else if (sqlite3_changes(db->sql) != 1)
		err = db__fail(db, DB_ENOTFOUND, "no campaign %" PRId64, campaign);
	sqlite3_finalize(st);
	st = NULL;
	if (!err && !(err = commit_write(db)))
		return 0;
fail:
	sqlite3_finalize(st);
	rollback(db);
	return err;
}

/* The body of db_progress, inside the caller's read transaction. */
static int progress_read(db_t *db, int64_t campaign, db_progress_t *p)
{
	int err = progress_counts(db, campaign, p);
	return err ? err : progress_avf(db, campaign, p);
}

int db_progress(db_t *db, int64_t campaign, db_progress_t *p)
{
	int err = check_args(db, p != NULL);
	if (err)
		return err;
	memset(p, 0, sizeof *p);
	if ((err = exec(db, "BEGIN", "starting a read transaction")))
		return err;
	err = progress_read(db, campaign, p);
	if (!err)
		err = commit(db);
	if (err)
		rollback(db);
	return err;
}

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return strdup(s ? (const char *)s : "");
}

void db_campaigns_free(db_campaign_info_t *list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++) {
		db_campaign_info_t *c = &list[i];
		free(c->name);
		free(c->workload);
		free(c->gpu);
		free(c->regs);
		free(c->target);
		free(c->sampling);
		free(c->config_hash);
		free(c->tool_version);
		free(c->created);
	}
	free(list);
}

/* One row of the campaigns query into *c (zeroed); false when out of memory. */
static bool campaign_info_row(sqlite3_stmt *st, db_campaign_info_t *c)
{
	memset(c, 0, sizeof *c);
	c->id = sqlite3_column_int64(st, 0);
	c->name = dup_col(st, 1);
	c->workload = dup_col(st, 2);
	c->gpu = dup_col(st, 3);
	c->regs = dup_col(st, 4);
	c->target = dup_col(st, 5);
	c->sampling = dup_col(st, 6);
	c->config_hash = dup_col(st, 7);
	c->tool_version = dup_col(st, 8);
	c->created = dup_col(st, 9);
	c->seed = u64(sqlite3_column_int64(st, 10));
	c->fit_per_bit = sqlite3_column_double(st, 11);
	c->confidence = sqlite3_column_double(st, 12);
	return c->name && c->workload && c->gpu && c->regs && c->target && c->sampling && c->config_hash &&
	       c->tool_version && c->created;
}

int db_campaigns_list(db_t *db, db_campaign_info_t **out, size_t *n)
{
	int err = check_args(db, out && n);
	if (err)
		return err;
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = NULL;
	db_campaign_info_t *list = NULL;
	size_t len = 0, cap = 0;
	if ((err = exec(db, "BEGIN", "starting a read transaction")))
		return err;
	if ((err = prepare(db,
	                   "SELECT id, name, workload, gpu, regs, target, sampling, config_hash,"
	                   " tool_version, created, seed, fit_per_bit, confidence"
	                   " FROM campaigns ORDER BY id",
	                   &st)))
		goto fail;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			db_campaign_info_t *grown = realloc(list, ncap * sizeof *list);
			if (!grown) {
				err = db__fail(db, DB_ENOMEM, "out of memory listing campaigns");
				goto fail;
			}
			list = grown;
			cap = ncap;
		}
		if (!campaign_info_row(st, &list[len++])) {
			err = db__fail(db, DB_ENOMEM, "out of memory listing campaigns");
			goto fail;
		}
	}
	if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "listing campaigns");
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	for (size_t i = 0; i < len; i++)
		if ((err = progress_counts(db, list[i].id, &list[i].progress)))
			goto fail;
	if (len && (err = progress_avf_all(db, list, len)))
		goto fail;
	if ((err = commit(db)))
		goto fail;
	*out = list;
	*n = len;
	return 0;

fail:
	sqlite3_finalize(st);
	db_campaigns_free(list, len);
	rollback(db);
	return err;
}

int db_campaign_namesake(db_t *db, const char *name, int64_t id, int64_t *other, char *created, size_t n)
{
	int err = check_args(db, name && other && created && n);
	if (err)
		return err;
	*other = 0;
	created[0] = '\0';
	sqlite3_stmt *st = NULL;
	if ((err = prepare(db, "SELECT id, created FROM campaigns WHERE name = ?1 AND id <> ?2"
	                       " ORDER BY id DESC LIMIT 1", &st)))
		return err;
	bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*other = sqlite3_column_int64(st, 0);
		snprintf(created, n, "%s", (const char *)sqlite3_column_text(st, 1));
	} else if (rc != SQLITE_DONE) {
		err = db__sqlerr(db, rc, "finding campaigns of the same name");
	}
	sqlite3_finalize(st);
	return err;
}

/* ---- daemons ---------------------------------------------------------------------------- */

/* Runs prepared statement st (finalized here) in a write transaction of its
 * own. Returns 0 or a DB_E* code. */
static int write_stmt(db_t *db, sqlite3_stmt *st, const char *what)
{
	int err = begin_write(db);
	if (!err) {
		int rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			err = db__sqlerr(db, rc, what);
	}
	sqlite3_finalize(st);
	if (!err)
		err = commit(db);
	if (err)
		rollback(db);
	return err;
}

int db_daemon_start(db_t *db, const db_daemon_t *d, int64_t *id)
{
	int err = check_args(db, d && id && d->pid > 0 && d->interval > 0);
	sqlite3_stmt *st = NULL;
	if (err || (err = prepare(db, "INSERT INTO daemons (pid, host, started, heartbeat, interval, campaign_id,"
	                              " rate) VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, 0), ?7)", &st)))
		return err;
	sqlite3_bind_int64(st, 1, d->pid);
	bind_text(st, 2, d->host);
	sqlite3_bind_double(st, 3, d->started);
	sqlite3_bind_double(st, 4, d->heartbeat);
	sqlite3_bind_double(st, 5, d->interval);
	sqlite3_bind_int64(st, 6, d->campaign);
	sqlite3_bind_double(st, 7, d->rate);
	if ((err = write_stmt(db, st, "recording the daemon")))
		return err;
	*id = sqlite3_last_insert_rowid(db->sql);
	return 0;
}

int db_daemon_beat(db_t *db, int64_t id, int64_t campaign, double now, double rate)
{
	int err = check_args(db, rate >= 0);
	sqlite3_stmt *st = NULL;
	if (err || (err = prepare(db, "UPDATE daemons SET heartbeat = ?1, campaign_id = nullif(?2, 0), rate = ?3"
	                              " WHERE id = ?4", &st)))
		return err;
	sqlite3_bind_double(st, 1, now);
	sqlite3_bind_int64(st, 2, campaign);
	sqlite3_bind_double(st, 3, rate);
	sqlite3_bind_int64(st, 4, id);
	return write_stmt(db, st, "recording a heartbeat");
}

int db_daemon_end(db_t *db, int64_t id, double now)
{
	int err = check_args(db, true);
	sqlite3_stmt *st = NULL;
	if (err || (err = prepare(db, "UPDATE daemons SET heartbeat = ?1, ended = ?1 WHERE id = ?2", &st)))
		return err;
	sqlite3_bind_double(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	return write_stmt(db, st, "recording the daemon's end");
}

int db_daemon_of(db_t *db, int64_t campaign, db_daemon_t *d)
{
	int err = check_args(db, d != NULL);
	if (err)
		return err;
	memset(d, 0, sizeof *d);
	int64_t has = 0;
	if ((err = query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'daemons'",
	                     &has)))
		return err;
	if (!has)
		return db__fail(db, DB_ENOTFOUND, "no daemon table (schema 2 or older)");
	sqlite3_stmt *st = NULL;
	if ((err = prepare(db, "SELECT id, pid, host, started, heartbeat, interval, rate, ended IS NOT NULL"
	                       " FROM daemons WHERE campaign_id = ?1 ORDER BY id DESC LIMIT 1", &st)))
		return err;
	sqlite3_bind_int64(st, 1, campaign);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		d->id = sqlite3_column_int64(st, 0);
		d->pid = sqlite3_column_int64(st, 1);
		snprintf(d->host, sizeof d->host, "%s", (const char *)sqlite3_column_text(st, 2));
		d->started = sqlite3_column_double(st, 3);
		d->heartbeat = sqlite3_column_double(st, 4);
		d->interval = sqlite3_column_double(st, 5);
		d->rate = sqlite3_column_double(st, 6);
		d->ended = sqlite3_column_int(st, 7) != 0;
		d->campaign = campaign;
	} else {
		err = rc == SQLITE_DONE ? db__fail(db, DB_ENOTFOUND, "no daemon ran campaign %" PRId64, campaign)
		                        : db__sqlerr(db, rc, "reading the daemon");
	}
	sqlite3_finalize(st);
	return err;
}
