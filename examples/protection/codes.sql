-- GUFI's future work (its section VI): the register file and shared memory
-- under each code and fault model, averaged over the applications: AVF and
-- its SDC and DUE parts, the detected DUEs, the runs whose first protection
-- event was a correction, a miscorrection or an undetected error, and the
-- structure's FIT. Input: the database study.sh writes. sqlite3 -markdown.
.mode markdown
.headers on
WITH c AS (
  SELECT a.campaign, a.target, a.n, a.sdc, a.due, a.avf, a.detected,
         ps.corrected, ps.miscorrected, ps.undetected, f.fit,
         substr(a.campaign, instr(a.campaign, '-') + 1) AS rest
    FROM avf a JOIN protection_summary ps USING (campaign_id) JOIN fit f USING (campaign_id)
   WHERE a.kernel = 'all' AND a.target IN ('regfile', 'smem')
), k AS (
  SELECT *, substr(rest, instr(rest, '-') + 1) AS cm FROM c
), m AS (
  SELECT *, substr(cm, 1, instr(cm, '-') - 1) AS code, substr(cm, instr(cm, '-') + 1) AS model FROM k
)
SELECT target, model, code, count(*) AS apps,
       printf('%.2f', 100 * avg(avf)) AS "AVF %",
       printf('%.2f', 100 * avg(1.0 * sdc / n)) AS "SDC %",
       printf('%.2f', 100 * avg(1.0 * due / n)) AS "DUE %",
       printf('%.2f', 100 * avg(1.0 * detected / n)) AS "detected %",
       printf('%.2f', 100 * avg(1.0 * corrected / n)) AS "corrected %",
       printf('%.2f', 100 * avg(1.0 * miscorrected / n)) AS "miscorr. %",
       printf('%.2f', 100 * avg(1.0 * undetected / n)) AS "undet. %",
       printf('%.1f', avg(fit)) AS "FIT"
  FROM m
 GROUP BY target, model, code
 ORDER BY target, CASE model WHEN 'single' THEN 0 WHEN 'adj2' THEN 1 WHEN 'adj3' THEN 2 ELSE 3 END,
          CASE code WHEN 'none' THEN 0 WHEN 'parity' THEN 1 WHEN 'secded' THEN 2 ELSE 3 END;
