-- Every scheme of the protection study in one table: the codes, SAWP and
-- SHARP (issue 14) and Penny, the ISA extension and REFU (issue 15), each
-- measured the same way (injection, single-bit faults, alloc mode, gtx480,
-- pooled over the applications it ran on) against its own baseline: no
-- protection on the same structure, or for the ISA extension its
-- unprotected program with faults on the original registers only. SDC and
-- DUE reductions separately (Katz's 95 % interval; negative: more), then
-- the AVF's, the golden run's cycles against the baseline's (mean over the
-- applications), and the storage the scheme adds (from its definition, not
-- measured; REFU's: B entries of 3 operands and a result of 32 lanes x
-- 32 bits, a 6-bit warp id, a valid and a re-execute bit, our estimate: the
-- paper gives none). A scheme the database has no campaign of reads "not in this
-- database". Input: runs.sql's views over the database study.sh writes.
.mode markdown
.headers on
WITH s(ord, target, pattern, scheme, protects, storage) AS (VALUES
  (1, 'regfile', 'parity', 'parity (33,32)', 'register file: detects odd errors (DUE)', '1 bit per 32-bit register (3.1 %)'),
  (2, 'regfile', 'secded', 'SECDED (39,32)', 'register file: corrects 1 bit, detects 2', '7 bits per register (21.9 %)'),
  (3, 'regfile', 'dected', 'DECTED (45,32)', 'register file: corrects 2 bits, detects 3', '13 bits per register (40.6 %)'),
  (4, 'smem', 'parity', 'parity (33,32)', 'shared memory: detects odd errors', '1 bit per 32-bit word (3.1 %)'),
  (5, 'smem', 'secded', 'SECDED (39,32)', 'shared memory: corrects 1, detects 2', '7 bits per word (21.9 %)'),
  (6, 'smem', 'dected', 'DECTED (45,32)', 'shared memory: corrects 2, detects 3', '13 bits per word (40.6 %)'),
  (7, 'l1d', 'parity', 'parity (33,32)', 'L1 data array: detects odd errors', '1 bit per 32 data bits (3.1 %); tags none'),
  (8, 'l1d', 'secded', 'SECDED (39,32)', 'L1 data array: corrects 1, detects 2', '7 bits per 32 data bits (21.9 %); tags none'),
  (9, 'l2', 'parity', 'parity (33,32)', 'L2 data array: detects odd errors', '1 bit per 32 data bits (3.1 %); tags none'),
  (10, 'l2', 'secded', 'SECDED (39,32)', 'L2 data array: corrects 1, detects 2', '7 bits per 32 data bits (21.9 %); tags none'),
  (11, 'ibuffer', 'parity', 'parity', 'instruction buffer words: detects odd errors', '1 bit per entry (96 per SM)'),
  (12, 'ibuffer', 'ecc', 'full ECC', 'instruction buffer words: corrects 1 bit (re-issue)', '1 parity bit + an ECC per entry'),
  (13, 'ibuffer', 'sawp_fs', 'SAWP_fs (T = 12)', 'instruction buffer: parity; 12 ECCs shared by equal words', 'per entry parity, X, a 4-bit index; 12 ECCs per SM'),
  (14, 'ibuffer', 'sawp', 'SAWP (T = 4, threshold 4)', 'instruction buffer: parity; 4 shared ECCs', 'per entry parity, X, a 2-bit index; 4 ECCs per SM'),
  (15, 'ibuffer', 'sawp_min', 'SAWP_min (T = 4)', 'instruction buffer: as SAWP, lagging warps too', 'as SAWP'),
  (16, 'regfile', 'sharp', 'SHARP', 'RF of warps waiting on DRAM: SECDED bits in idle smem', 'none in the RF; 16-entry queue, 32-entry warp table'),
  (17, 'regfile', 'penny\_parity', 'Penny, parity EDC, oracle', 'register file: detects odd errors, rolls back', '1 bit per register (3.1 %) + checkpoints'),
  (18, 'regfile', 'penny\_hamming', 'Penny, Hamming EDC, oracle', 'register file: detects 2 bits, rolls back', '6 bits per register (18.8 %) + checkpoints'),
  (19, 'regfile', 'penny\_secded', 'Penny, SECDED EDC, oracle', 'register file: detects 3 bits, rolls back', '7 bits per register (21.9 %) + checkpoints'),
  (20, 'regfile', 'pennyc\_%', 'Penny, compiled', 'register file: EDC, checkpoint stores, rollback', 'the EDC + up to 2 memory slots per checkpointed register'),
  (21, 'regfile', 'dup\_memory\_sw', 'dup Memory, SW', 'RF faults on load/store address and data slices', 'none: registers doubled (replicas), 1 predicate'),
  (22, 'regfile', 'dup\_setp\_sw', 'dup SetP, SW', 'RF faults on the slices of branch-feeding setp', 'as above'),
  (23, 'regfile', 'dup\_all\_sw', 'dup All, SW', 'both', 'as above'),
  (24, 'regfile', 'dup\_memory\_ra', 'dup Memory, raLoad/raStore', 'as dup Memory; raLoad/raStore compare', 'registers doubled; comparators, no storage'),
  (25, 'regfile', 'dup\_setp\_ra', 'dup SetP, raSetP', 'as dup SetP; raSetP compares', 'as above'),
  (26, 'regfile', 'dup\_all\_ra', 'dup All, ra*', 'both', 'as above'),
  (27, 'fu', 'refu1', 'REFU, B = 1', 'ALU, SFU, FP64 results: replayed and compared', '4 104 bits per SM (our estimate)'),
  (28, 'fu', 'refu2', 'REFU, B = 2', 'as above', '8 208 bits per SM'),
  (29, 'fu', 'refu3', 'REFU, B = 3', 'as above', '12 312 bits per SM'),
  (30, 'fu', 'refu4', 'REFU, B = 4', 'as above', '16 416 bits per SM')
), m AS (
  SELECT s.*, p.scheme AS name, p.apps, p.sdc_red, p.due_red, p.avf_red, p.cyc
    FROM s LEFT JOIN pooled p
      ON p.target = s.target AND p.scheme LIKE s.pattern ESCAPE '\' AND p.model = 'single' AND p.gpu = 'gtx480'
)
SELECT m.scheme, m.target AS structure, coalesce(m.name, '-') AS campaigns, m.protects,
       coalesce(m.apps, 0) AS apps,
       coalesce(m.sdc_red, 'not in this database') AS "SDC reduction %, 95 % CI",
       coalesce(m.due_red, '-') AS "DUE reduction %, 95 % CI",
       coalesce(m.avf_red, '-') AS "AVF reduction %, 95 % CI",
       CASE WHEN m.cyc IS NULL THEN '-' ELSE printf('%.2f', 100 * (m.cyc - 1)) END AS "cycle overhead %",
       m.storage AS "storage overhead"
  FROM m
 ORDER BY m.ord, m.name;
