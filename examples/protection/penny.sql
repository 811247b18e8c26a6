-- Penny (ASPLOS'20) by injection, which its paper never does: the register
-- file (alloc mode) under Penny's detection codes with rollback (oracle
-- mode: penny_parity (33,32), penny_hamming (38,32), penny_secded (39,32)
-- used to detect only; compiled mode's pennyc_ rows when gen.sh writes
-- them) beside no protection, parity alone (a detected error is a DUE) and
-- SECDED correcting, against single-bit faults and adjacent faults of 2
-- and 3 bits. Per row, pooled over the applications (the same faults per
-- campaign: the pooled share is the mean): AVF with Wilson's 95 % interval,
-- its SDC and DUE parts, the runs whose first protection event was a
-- rollback (recovered), a correction, a detection without rollback, a
-- miscorrection or an undetected error, the DUEs penny_unrecoverable (a
-- detected error with no checkpoint: must be 0), and the AVF's reduction
-- against no protection (Katz's interval). Then Penny's recovery latency:
-- over the Masked runs Penny rolled back, the whole run's cycles against
-- the golden run's (the fault's cycle + the experiment's cycles, which
-- count from the fault; 0 for a run that re-joined the golden state).
-- Input: runs.sql's views over the database study.sh writes. sqlite3.
.mode markdown
.headers on
SELECT p.model, p.scheme, p.apps,
       printf('%.2f', 100.0 * (p.sdc + p.due) / p.n) AS "AVF %", p.avf_ci AS "95 % CI",
       printf('%.2f', 100.0 * p.sdc / p.n) AS "SDC %", printf('%.2f', 100.0 * p.due / p.n) AS "DUE %",
       printf('%.2f', 100.0 * p.recovered / p.n) AS "recovered %",
       printf('%.2f', 100.0 * p.corrected / p.n) AS "corrected %",
       printf('%.2f', 100.0 * p.detected / p.n) AS "detected %",
       printf('%.2f', 100.0 * p.miscorrected / p.n) AS "miscorr. %",
       printf('%.2f', 100.0 * p.undetected / p.n) AS "undet. %",
       (SELECT count(*) FROM experiments e JOIN runs r USING (campaign_id)
         WHERE r.target = p.target AND r.gpu = p.gpu AND r.model = p.model AND r.scheme = p.scheme
           AND e.reason = 'penny_unrecoverable') AS unrecoverable,
       p.avf_red AS "AVF reduction %, 95 % CI"
  FROM pooled p
 WHERE p.target = 'regfile' AND p.gpu = 'gtx480' AND p.model IN ('single', 'adj2', 'adj3')
   AND (p.scheme IN ('none', 'parity', 'secded') OR p.scheme LIKE 'penny%')
 ORDER BY CASE p.model WHEN 'single' THEN 0 WHEN 'adj2' THEN 1 ELSE 2 END,
          CASE p.scheme WHEN 'none' THEN 0 WHEN 'parity' THEN 1 WHEN 'secded' THEN 2 ELSE 3 END, p.scheme;

SELECT r.model, r.scheme, count(*) AS "recovered runs",
       sum(e.early) AS "re-joined",
       printf('%.1f', avg(CASE WHEN e.early THEN 0 ELSE m.cycle + e.cycles - r.golden_cycles END)) AS "mean latency (cycles)",
       min(CASE WHEN e.early THEN 0 ELSE m.cycle + e.cycles - r.golden_cycles END) AS "min",
       max(CASE WHEN e.early THEN 0 ELSE m.cycle + e.cycles - r.golden_cycles END) AS "max",
       printf('%.4f', 100.0 * avg(CASE WHEN e.early THEN 0 ELSE 1.0 * (m.cycle + e.cycles - r.golden_cycles) END
                                  / r.golden_cycles)) AS "mean, % of golden cycles"
  FROM experiments e JOIN runs r USING (campaign_id) JOIN masks m USING (campaign_id, idx)
 WHERE r.target = 'regfile' AND r.gpu = 'gtx480' AND r.scheme LIKE 'penny%'
   AND e.prot = 'recovered' AND e.outcome = 'masked'
 GROUP BY r.model, r.scheme
 ORDER BY CASE r.model WHEN 'single' THEN 0 WHEN 'adj2' THEN 1 ELSE 2 END, r.scheme;
