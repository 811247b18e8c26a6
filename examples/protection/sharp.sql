-- SHARP's experiment (Tan et al., CF'13, section 5.2, Fig. 11a): the
-- register file's AVF (alloc mode, single-bit faults) under no protection,
-- SECDED on every register (the paper's Full_ECC) and SHARP, averaged over
-- the applications and normalised to no protection application by
-- application, with the golden run's cycles against the unprotected one's
-- (SHARP's only fault-free cost: the checks). Input: the database study.sh
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
  SELECT app, avf AS avf0, cycles AS cycles0 FROM s WHERE scheme = 'none'
)
SELECT scheme, count(*) AS apps,
       printf('%.2f', 100 * avg(avf)) AS "AVF %",
       printf('%.2f', 100 * avg(1.0 * sdc / n)) AS "SDC %",
       printf('%.2f', 100 * avg(1.0 * due / n)) AS "DUE %",
       printf('%.2f', 100 * avg(1.0 * corrected / n)) AS "corrected %",
       printf('%.2f', 100 * avg(1.0 * detected / n)) AS "detected %",
       printf('%.1f', 100 * (1 - avg(CASE WHEN avf0 > 0 THEN avf / avf0 END))) AS "AVF reduction %",
       printf('%.2f', 100 * (avg(1.0 * cycles / cycles0) - 1)) AS "cycle overhead %",
       sum(avf0 > 0) AS "apps with AVF > 0"
  FROM s JOIN base USING (app)
 WHERE scheme IN ('none', 'secded', 'sharp')
 GROUP BY scheme
 ORDER BY CASE scheme WHEN 'none' THEN 0 WHEN 'secded' THEN 1 ELSE 2 END;
