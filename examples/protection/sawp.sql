-- SAWP's experiment (Tan et al., CF'13, section 5.1, Fig. 9a): the
-- instruction buffer's AVF under each scheme, averaged over the
-- applications, and normalised to no protection application by
-- application. Input: the database study.sh writes. sqlite3 -markdown.
.mode markdown
.headers on
WITH c AS (
  SELECT substr(a.campaign, 1, instr(a.campaign, '-') - 1) AS app,
         substr(a.campaign, instr(a.campaign, '-ibuffer-') + 9) AS sm, a.n, a.sdc, a.due, a.avf,
         ps.recovered, ps.detected
    FROM avf a JOIN protection_summary ps USING (campaign_id)
   WHERE a.kernel = 'all' AND a.target = 'ibuffer'
), s AS (
  SELECT *, substr(sm, 1, length(sm) - length('-single')) AS scheme FROM c
), base AS (
  SELECT app, avf AS avf0 FROM s WHERE scheme = 'none'
)
SELECT scheme, count(*) AS apps,
       printf('%.2f', 100 * avg(avf)) AS "AVF %",
       printf('%.2f', 100 * avg(1.0 * sdc / n)) AS "SDC %",
       printf('%.2f', 100 * avg(1.0 * due / n)) AS "DUE %",
       printf('%.2f', 100 * avg(1.0 * recovered / n)) AS "recovered %",
       printf('%.1f', 100 * (1 - avg(CASE WHEN avf0 > 0 THEN avf / avf0 END))) AS "AVF reduction %",
       sum(avf0 > 0) AS "apps with AVF > 0"
  FROM s JOIN base USING (app)
 GROUP BY scheme
 ORDER BY CASE scheme WHEN 'none' THEN 0 WHEN 'parity' THEN 1 WHEN 'ecc' THEN 2 WHEN 'sawp_fs' THEN 3
          WHEN 'sawp' THEN 4 ELSE 5 END;
