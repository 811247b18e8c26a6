-- SAWP's experiment (Tan et al., CF'13, section 5.1, Fig. 9a): the
-- instruction buffer's AVF under each scheme, averaged over the
-- applications, and normalised to no protection application by
-- application; per GPU: gtx480, and its variants with one buffer entry per
-- warp (ib1) and the GTO scheduler (gto). "pooled" is the reduction of the
-- pooled AVF (all the applications' failures over all their faults) with
-- its 95 % interval: the ratio's, on the log scale (Katz); with no failure
-- at all, the upper bound of the scheme's AVF is the rule of three's 3/N.
-- Input: the database study.sh writes. sqlite3 -markdown.
.mode markdown
.headers on
WITH c AS (
  SELECT substr(a.campaign, 1, instr(a.campaign, '-') - 1) AS app,
         substr(a.campaign, instr(a.campaign, '-ibuffer-') + 9) AS sm, a.n, a.sdc, a.due, a.avf,
         ps.recovered, ps.detected
    FROM avf a JOIN protection_summary ps USING (campaign_id)
   WHERE a.kernel = 'all' AND a.target = 'ibuffer'
), s AS (
  SELECT *, substr(sm, 1, instr(sm, '-single') - 1) AS scheme,
         CASE WHEN sm LIKE '%-single-%' THEN substr(sm, instr(sm, '-single-') + 8) ELSE 'gtx480' END AS gpu
    FROM c
), base AS (
  SELECT app, gpu, avf AS avf0, sdc + due AS x0, n AS n0 FROM s WHERE scheme = 'none'
), r AS (
  SELECT gpu, scheme, count(*) AS apps, avg(avf) AS avf, avg(1.0 * sdc / n) AS sdc, avg(1.0 * due / n) AS due,
         avg(1.0 * recovered / n) AS recovered, avg(CASE WHEN avf0 > 0 THEN avf / avf0 END) AS ratio,
         sum(avf0 > 0) AS apps0, sum(sdc + due) AS xa, sum(n) AS na, sum(x0) AS xb, sum(n0) AS nb
    FROM s JOIN base USING (app, gpu)
   GROUP BY gpu, scheme
), p AS (
  SELECT *, (1.0 * xa / na) / (1.0 * xb / nb) AS rr,
         sqrt(CASE WHEN xa > 0 THEN (1 - 1.0 * xa / na) / xa ELSE 0 END + (1 - 1.0 * xb / nb) / xb) AS se
    FROM r
)
SELECT gpu, scheme, apps,
       printf('%.2f', 100 * avf) AS "AVF %",
       printf('%.2f', 100 * sdc) AS "SDC %",
       printf('%.2f', 100 * due) AS "DUE %",
       printf('%.2f', 100 * recovered) AS "recovered %",
       printf('%.1f', 100 * (1 - ratio)) AS "AVF reduction %",
       CASE WHEN scheme = 'none' THEN '-'
            WHEN xa > 0 THEN printf('%.1f [%.1f, %.1f]', 100 * (1 - rr), 100 * (1 - rr * exp(1.96 * se)),
                                    100 * (1 - rr * exp(-1.96 * se)))
            ELSE printf('100.0 [%.1f, 100.0]', 100 * (1 - (3.0 / na) / (1.0 * xb / nb))) END AS "pooled, 95 % CI",
       apps0 AS "apps with AVF > 0"
  FROM p
 ORDER BY CASE gpu WHEN 'gtx480' THEN 0 WHEN 'ib1' THEN 1 ELSE 2 END,
          CASE scheme WHEN 'none' THEN 0 WHEN 'parity' THEN 1 WHEN 'ecc' THEN 2 WHEN 'sawp_fs' THEN 3
          WHEN 'sawp' THEN 4 ELSE 5 END;
