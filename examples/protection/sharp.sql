-- SHARP's experiment (Tan et al., CF'13, section 5.2, Fig. 11a): the
-- register file's AVF (alloc mode, single-bit faults) under no protection,
-- SECDED on every register (the paper's Full_ECC) and SHARP, averaged over
-- the applications and normalised to no protection application by
-- application, with the golden run's cycles against the unprotected one's
-- (SHARP's only fault-free cost: the checks). "pooled" is the reduction of
-- the pooled AVF with its 95 % interval, as in sawp.sql (Katz's log ratio;
-- the rule of three when nothing failed). Input: the database study.sh
-- writes. sqlite3 -markdown.
.mode markdown
.headers on
WITH c AS (
  SELECT substr(a.campaign, 1, instr(a.campaign, '-') - 1) AS app,
         substr(a.campaign, instr(a.campaign, '-regfile-') + 9) AS cm, a.n, a.sdc, a.due, a.avf,
         ps.corrected, ps.detected, g.cycles
    FROM avf a JOIN protection_summary ps USING (campaign_id) JOIN golden g USING (campaign_id)
   WHERE a.kernel = 'all' AND a.target = 'regfile' AND a.campaign LIKE '%-regfile-%-single'
), s AS (
  SELECT *, substr(cm, 1, length(cm) - length('-single')) AS scheme FROM c
), base AS (
  SELECT app, avf AS avf0, cycles AS cycles0, sdc + due AS x0, n AS n0 FROM s WHERE scheme = 'none'
), r AS (
  SELECT scheme, count(*) AS apps, avg(avf) AS avf, avg(1.0 * sdc / n) AS sdc, avg(1.0 * due / n) AS due,
         avg(1.0 * corrected / n) AS corrected, avg(1.0 * detected / n) AS detected,
         avg(CASE WHEN avf0 > 0 THEN avf / avf0 END) AS ratio, avg(1.0 * cycles / cycles0) AS cyc,
         sum(avf0 > 0) AS apps0, sum(sdc + due) AS xa, sum(n) AS na, sum(x0) AS xb, sum(n0) AS nb
    FROM s JOIN base USING (app)
   WHERE scheme IN ('none', 'secded', 'sharp')
   GROUP BY scheme
), p AS (
  SELECT *, (1.0 * xa / na) / (1.0 * xb / nb) AS rr,
         sqrt(CASE WHEN xa > 0 THEN (1 - 1.0 * xa / na) / xa ELSE 0 END + (1 - 1.0 * xb / nb) / xb) AS se
    FROM r
)
SELECT scheme, apps,
       printf('%.2f', 100 * avf) AS "AVF %",
       printf('%.2f', 100 * sdc) AS "SDC %",
       printf('%.2f', 100 * due) AS "DUE %",
       printf('%.2f', 100 * corrected) AS "corrected %",
       printf('%.2f', 100 * detected) AS "detected %",
       printf('%.1f', 100 * (1 - ratio)) AS "AVF reduction %",
       CASE WHEN scheme = 'none' THEN '-'
            WHEN xa > 0 THEN printf('%.1f [%.1f, %.1f]', 100 * (1 - rr), 100 * (1 - rr * exp(1.96 * se)),
                                    100 * (1 - rr * exp(-1.96 * se)))
            ELSE printf('100.0 [%.1f, 100.0]', 100 * (1 - (3.0 / na) / (1.0 * xb / nb))) END AS "pooled, 95 % CI",
       printf('%.2f', 100 * (cyc - 1)) AS "cycle overhead %",
       apps0 AS "apps with AVF > 0"
  FROM p
 ORDER BY CASE scheme WHEN 'none' THEN 0 WHEN 'secded' THEN 1 ELSE 2 END;
