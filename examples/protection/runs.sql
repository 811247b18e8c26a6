-- The views penny.sql, refu.sql and summary.sql read (TEMP: they live in
-- the connection, never in the database; study.sh feeds this file first).
--
-- runs: one row per campaign of gen.sh, its name APP-TARGET-SCHEME-MODEL
-- [-GPU] split into its parts (GPU: gtx480 unless a variant is named),
-- with its counts, protection events and golden run, and the scheme it is
-- measured against: orig (no protection, faults on the original registers
-- only) for the ISA extension's dup_ schemes, none for every other.
--
-- pooled: one row per target, GPU, model and scheme with its baseline
-- campaign on the same application: the counts summed over the
-- applications (with the same faults per campaign the pooled proportion is
-- the mean over the applications), each with Wilson's interval at 95 %
-- (avf_ci, sdc_ci, due_ci), the reduction of the pooled AVF, SDC and DUE
-- against the baseline's with Katz's log interval for a ratio of two
-- proportions (the rule of three when nothing failed; '-' for the
-- baseline itself or when the baseline has no failure), and the mean over
-- the applications of golden cycles against the baseline's (cyc, the
-- fault-free cost on the same GPU).
CREATE TEMP VIEW runs AS
WITH a AS (
  SELECT a.campaign_id, a.campaign AS name, a.target, a.n, a.sdc, a.due, a.detected,
         ps.corrected, ps.miscorrected, ps.undetected, ps.recovered, ps.uncovered,
         g.cycles AS golden_cycles, g.ipc,
         substr(a.campaign, instr(a.campaign, '-') + 1) AS r1
    FROM avf a JOIN protection_summary ps USING (campaign_id) JOIN golden g USING (campaign_id)
   WHERE a.kernel = 'all'
), b AS (
  SELECT *, substr(name, 1, instr(name, '-') - 1) AS app, substr(r1, instr(r1, '-') + 1) AS r2 FROM a
), c AS (
  SELECT *, substr(r2, 1, instr(r2, '-') - 1) AS scheme, substr(r2, instr(r2, '-') + 1) AS r3 FROM b
)
SELECT campaign_id, name, app, target, scheme,
       CASE WHEN instr(r3, '-') > 0 THEN substr(r3, 1, instr(r3, '-') - 1) ELSE r3 END AS model,
       CASE WHEN instr(r3, '-') > 0 THEN substr(r3, instr(r3, '-') + 1) ELSE 'gtx480' END AS gpu,
       CASE WHEN scheme LIKE 'dup\_%' ESCAPE '\' THEN 'orig' ELSE 'none' END AS baseline,
       n, sdc, due, detected, corrected, miscorrected, undetected, recovered, uncovered, golden_cycles, ipc
  FROM c;

CREATE TEMP VIEW pooled AS
WITH p AS (
  SELECT r.target, r.gpu, r.model, r.scheme, r.baseline, count(*) AS apps,
         sum(r.n) AS na, sum(r.sdc) AS sa, sum(r.due) AS da, sum(r.detected) AS deta,
         sum(r.corrected) AS corrected, sum(r.miscorrected) AS miscorrected,
         sum(r.undetected) AS undetected, sum(r.recovered) AS recovered, sum(r.uncovered) AS uncovered,
         sum(b.n) AS nb, sum(b.sdc) AS sb, sum(b.due) AS db,
         avg(1.0 * r.golden_cycles / b.golden_cycles) AS cyc
    FROM runs r JOIN runs b
      ON b.app = r.app AND b.target = r.target AND b.model = r.model AND b.gpu = r.gpu AND b.scheme = r.baseline
   GROUP BY r.target, r.gpu, r.model, r.scheme
), m(k) AS (VALUES ('avf'), ('sdc'), ('due')
), x AS (
  SELECT p.*, m.k,
         CASE m.k WHEN 'avf' THEN sa + da WHEN 'sdc' THEN sa ELSE da END AS xa,
         CASE m.k WHEN 'avf' THEN sb + db WHEN 'sdc' THEN sb ELSE db END AS xb
    FROM p, m
), y AS (
  SELECT *, (1.0 * xa / na) / (1.0 * xb / nb) AS rr,
         sqrt(CASE WHEN xa > 0 THEN (1 - 1.0 * xa / na) / xa ELSE 0 END + (1 - 1.0 * xb / nb) / xb) AS se
    FROM x
), f AS (
  SELECT *,
         printf('[%.2f, %.2f]',
                100 * max(0.0, (xa + 1.92) / (na + 3.84) - 1.96 * sqrt(1.0 * xa * (na - xa) / na + 0.96) / (na + 3.84)),
                100 * min(1.0, (xa + 1.92) / (na + 3.84) + 1.96 * sqrt(1.0 * xa * (na - xa) / na + 0.96) / (na + 3.84)))
           AS ci,
         CASE WHEN scheme = baseline OR xb = 0 THEN '-'
              WHEN xa = 0 THEN printf('100.0 [%.1f, 100.0]', 100 * (1 - (3.0 / na) / (1.0 * xb / nb)))
              ELSE printf('%.1f [%.1f, %.1f]', 100 * (1 - rr), 100 * (1 - rr * exp(1.96 * se)),
                          100 * (1 - rr * exp(-1.96 * se))) END AS red
    FROM y
)
SELECT target, gpu, model, scheme, baseline, apps, na AS n, sa AS sdc, da AS due, deta AS detected,
       corrected, miscorrected, undetected, recovered, uncovered, nb AS base_n, sb AS base_sdc, db AS base_due, cyc,
       max(CASE k WHEN 'avf' THEN ci END) AS avf_ci, max(CASE k WHEN 'sdc' THEN ci END) AS sdc_ci,
       max(CASE k WHEN 'due' THEN ci END) AS due_ci,
       max(CASE k WHEN 'avf' THEN red END) AS avf_red, max(CASE k WHEN 'sdc' THEN red END) AS sdc_red,
       max(CASE k WHEN 'due' THEN red END) AS due_red
  FROM f
 GROUP BY target, gpu, model, scheme;
