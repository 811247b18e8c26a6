-- REFU by injection, which its paper never does: the functional units'
-- results (target fu: one lane-bit of the result an instruction writes in
-- the fault's cycle; a transient single-bit fault, or a lane stuck at 1
-- from the fault's cycle on) without REFU and with a replay buffer of B
-- entries. Per row, pooled over the applications (the same faults per
-- campaign: the pooled share is the mean): AVF, SDC and DUE, each with
-- Wilson's 95 % interval; the detected DUEs (refu_mismatch: a replay's
-- result differed); the faults on instructions REFU does not replay (mov,
-- cvta, loads, stores, warp and control instructions: prot event
-- uncovered); the reductions of SDC and DUE against no REFU (Katz's
-- interval; negative: more); the golden run's cycles against the
-- unprotected one's (the replays' stalls); and the mean cycles from a
-- detected fault to its replay's detection. Then each application's SDC
-- and DUE without and with REFU. Input: runs.sql's views over the database
-- study.sh writes. sqlite3.
.mode markdown
.headers on
SELECT p.model, p.scheme, p.apps,
       printf('%.2f', 100.0 * (p.sdc + p.due) / p.n) AS "AVF %", p.avf_ci AS "95 % CI",
       printf('%.2f', 100.0 * p.sdc / p.n) AS "SDC %", p.sdc_ci AS "SDC CI",
       printf('%.2f', 100.0 * p.due / p.n) AS "DUE %", p.due_ci AS "DUE CI",
       printf('%.2f', 100.0 * p.detected / p.n) AS "detected %",
       printf('%.2f', 100.0 * p.uncovered / p.n) AS "uncovered %",
       p.sdc_red AS "SDC reduction %, 95 % CI", p.due_red AS "DUE reduction %, 95 % CI",
       printf('%.2f', 100 * (p.cyc - 1)) AS "cycle overhead %",
       (SELECT CASE WHEN count(*) > 0 THEN printf('%.1f', avg(e.prot_cycle - m.cycle)) ELSE '-' END
          FROM experiments e JOIN runs r USING (campaign_id) JOIN masks m USING (campaign_id, idx)
         WHERE r.target = 'fu' AND r.gpu = p.gpu AND r.model = p.model AND r.scheme = p.scheme
           AND e.reason = 'refu_mismatch') AS "detection latency (cycles)"
  FROM pooled p
 WHERE p.target = 'fu' AND p.gpu = 'gtx480'
 ORDER BY p.model DESC, p.scheme;

SELECT r.app, r.model,
       printf('%.1f', 100.0 * r.sdc / r.n) AS "none SDC %", printf('%.1f', 100.0 * r.due / r.n) AS "none DUE %",
       q.scheme, printf('%.1f', 100.0 * q.sdc / q.n) AS "SDC %", printf('%.1f', 100.0 * q.due / q.n) AS "DUE %",
       printf('%.1f', 100.0 * q.detected / q.n) AS "detected %", printf('%.1f', 100.0 * q.uncovered / q.n) AS "uncovered %"
  FROM runs r JOIN runs q ON q.app = r.app AND q.target = r.target AND q.model = r.model AND q.gpu = r.gpu
 WHERE r.target = 'fu' AND r.gpu = 'gtx480' AND r.scheme = 'none' AND q.scheme LIKE 'refu%'
 ORDER BY r.model DESC, r.app, q.scheme;
