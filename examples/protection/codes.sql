-- GUFI's future work (its section VI): the register file and shared memory
-- (and the caches' data: l1d, l2)
-- under each code and fault model (the codes alone: SHARP and Penny on
-- the register file have their own tables), averaged over the applications: AVF and
-- its SDC and DUE parts, the detected DUEs, the runs whose first protection
-- event was a correction, a miscorrection or an undetected error, and the
-- structure's FIT. The interval is Wilson's at 95 % on the pooled counts
-- (the failures and faults of all the applications): with the same number
-- of faults per campaign the pooled proportion is the mean AVF, and its
-- binomial variance bounds that of the mean of per-application AVFs.
-- Input: the database study.sh writes. sqlite3 -markdown.
.mode markdown
.headers on
WITH c AS (
  SELECT a.campaign, a.target, a.n, a.sdc, a.due, a.avf, a.detected,
         ps.corrected, ps.miscorrected, ps.undetected, f.fit,
         substr(a.campaign, instr(a.campaign, '-') + 1) AS rest
    FROM avf a JOIN protection_summary ps USING (campaign_id) JOIN fit f USING (campaign_id)
   WHERE a.kernel = 'all' AND a.target IN ('regfile', 'smem', 'l1d', 'l2')
), k AS (
  SELECT *, substr(rest, instr(rest, '-') + 1) AS cm FROM c
), m AS (
  SELECT *, substr(cm, 1, instr(cm, '-') - 1) AS code, substr(cm, instr(cm, '-') + 1) AS model FROM k
), codes AS (
  SELECT * FROM m WHERE code IN ('none', 'parity', 'secded', 'dected')
)
SELECT target, model, code, count(*) AS apps,
       printf('%.2f', 100 * avg(avf)) AS "AVF %",
       printf('[%.2f, %.2f]', 100 * max(0.0, (x + 1.92) / (t + 3.84) - 1.96 * sqrt(x * (t - x) / t + 0.96) / (t + 3.84)),
              100 * ((x + 1.92) / (t + 3.84) + 1.96 * sqrt(x * (t - x) / t + 0.96) / (t + 3.84))) AS "95 % CI",
       printf('%.2f', 100 * avg(1.0 * sdc / n)) AS "SDC %",
       printf('%.2f', 100 * avg(1.0 * due / n)) AS "DUE %",
       printf('%.2f', 100 * avg(1.0 * detected / n)) AS "detected %",
       printf('%.2f', 100 * avg(1.0 * corrected / n)) AS "corrected %",
       printf('%.2f', 100 * avg(1.0 * miscorrected / n)) AS "miscorr. %",
       printf('%.2f', 100 * avg(1.0 * undetected / n)) AS "undet. %",
       printf('%.1f', avg(fit)) AS "FIT"
  FROM (SELECT *, 1.0 * sum(sdc + due) OVER w AS x, 1.0 * sum(n) OVER w AS t FROM codes
         WINDOW w AS (PARTITION BY target, model, code))
 GROUP BY target, model, code
 ORDER BY target, CASE model WHEN 'single' THEN 0 WHEN 'adj2' THEN 1 WHEN 'adj3' THEN 2 ELSE 3 END,
          CASE code WHEN 'none' THEN 0 WHEN 'parity' THEN 1 WHEN 'secded' THEN 2 ELSE 3 END;
