/* parser — the outcome classifier: one fault-injection experiment against
 * the golden (fault-free) run gives Masked, SDC or DUE with a reason string.
 * Design: docs/DESIGN.md ("Data flow"); the rules are listed below.
 * Ownership: the classifier keeps no pointer past a call; every buffer and
 * string it reads is the caller's and is only borrowed for that call. */
#ifndef PARSER_H
#define PARSER_H

#include <stdbool.h>
#include <stdint.h>

#include "simcore.h"

/* ---- errors: 0 on success, a negative code otherwise ------------------- */
#define CLS_ERR_LIST(X) \
	X(INVAL, -1, "invalid argument")

enum {
#define X(name, code, text) CLS_E##name = code,
	CLS_ERR_LIST(X)
#undef X
};

/* Returns a static description of a CLS_E* code. */
const char *cls_strerror(int err);

/* ---- inputs -------------------------------------------------------------- */

typedef enum { CLS_MASKED = 0, CLS_SDC, CLS_DUE } cls_outcome_t;

/* How an output buffer is compared: X(enum, name, bytes per element). The
 * names are the campaign's buffer type names (campaigns.h), plus "raw" for
 * data with no numeric meaning. All are little-endian; the integers are
 * two's complement. */
#define CLS_ELEM_LIST(X) \
	X(RAW, "raw", 1)   /* byte by byte; an element is one byte */ \
	X(F32, "f32", 4)   /* binary32 */ \
	X(F64, "f64", 8)   /* binary64 */ \
	X(I8, "i8", 1)     \
	X(U8, "u8", 1)     \
	X(I16, "i16", 2)   \
	X(U16, "u16", 2)   \
	X(I32, "i32", 4)   \
	X(U32, "u32", 4)   \
	X(I64, "i64", 8)   \
	X(U64, "u64", 8)

typedef enum {
#define X(name, text, bytes) CLS_T_##name,
	CLS_ELEM_LIST(X)
#undef X
	CLS_T__COUNT
} cls_elem_t;

/* Parses an element kind's name ("f32", "i8", "raw"; exact case) into *e.
 * Returns 0, or CLS_EINVAL (and leaves *e alone) for anything else, so a
 * caller may preset *e to CLS_T_RAW for types with no numeric meaning. */
int cls_elem_parse(const char *s, cls_elem_t *e);

/* One output buffer. Each golden buffer is compared as its own elem and
 * rel_tol say (the faulty one's are not consulted). A buffer whose size is
 * not a multiple of its element size is compared as RAW (when either the
 * golden or the faulty one's is not).
 *
 * Integer and RAW elements compare exactly (rel_tol is ignored).
 * rel_tol (F32/F64 only; 0 = exact). Exact means bitwise:
 * -0 and +0 differ, NaNs with different payloads differ. With rel_tol > 0
 * two elements a, b are equal when they are bitwise equal, or both NaN, or
 * neither is NaN nor infinite and |a - b| <= rel_tol * max(|a|, |b|)
 * (computed in double; so -0 == +0, and an infinity equals only itself). */
typedef struct cls_buffer {
	const char *name;
	const uint8_t *data;
	uint64_t bytes;
	cls_elem_t elem;
	double rel_tol;
} cls_buffer_t;

/* What one run left behind. The golden run must have finished normally
 * (due NONE, no signal, no watchdog); the engine reports a watchdog kill as
 * host_timeout with signal 0, since the kill signal is the watchdog's own. */
typedef struct cls_run {
	const cls_buffer_t *out;   /* output buffers, same order and names as golden */
	uint32_t nout;
	const char *stdout_text;   /* application stdout (NULL + 0 when none) */
	uint64_t stdout_len;
	const char *stderr_text;   /* application stderr (NULL + 0 when none) */
	uint64_t stderr_len;
	sc_due_t due;              /* simulator status at the end (NONE: it finished) */
	int signal;                /* > 0: the experiment process died of this signal */
	bool host_timeout;         /* the daemon's wall-clock watchdog killed it */
	int exit_status;           /* host program's exit status (0 for workload runs) */
	bool unused;               /* the fault hit an unused location: not simulated */
	bool early;                /* stopped early: its state re-joined the golden run */
} cls_run_t;

/* The verdict. reason, by outcome:
 *   masked  "no_effect" | "unused" | "early"
 *   sdc     "output:<name>" (the first differing output, in order; a name
 *           too long for the field is cut) | "stdout" | "stderr"
 *   due     "crash:SIGSEGV" (a signal the classifier knows by name, else
 *           "crash:signal N") | "watchdog" | sc_due_name() of the simulator's
 *           reason ("illegal_address", "timeout", "trap", ...) | "exit_status"
 * first_diff and ndiff are set for an SDC on an output and are 0 otherwise. */
typedef struct cls_verdict {
	cls_outcome_t outcome;
	char reason[96];
	uint64_t first_diff;  /* index of the first differing element (byte for RAW);
	                         when sizes differ and the common part is equal, the
	                         shorter buffer's element count */
	uint32_t ndiff;       /* differing elements in the common part plus the
	                         surplus elements of the longer one; saturates at
	                         UINT32_MAX */
} cls_verdict_t;

/* Classifies `faulty` against `golden` into *out. The first rule that
 * applies decides:
 *   1. faulty->unused                 masked  unused
 *   2. faulty->early                  masked  early
 *   3. faulty->signal > 0             due     crash:<signal>
 *   4. faulty->host_timeout           due     watchdog
 *   5. faulty->due != SC_DUE_NONE     due     <sc_due_name(due)>
 *   6. exit statuses differ           due     exit_status   (a host program
 *                                             that detected its own failure)
 *   7. an output differs (contents    sdc     output:<name>, the first one in
 *      or size)                               order; first_diff and ndiff
 *   8. stdout differs                 sdc     stdout
 *   9. stderr differs                 sdc     stderr
 *  10. otherwise                      masked  no_effect
 * Texts compare byte for byte; NULL + 0 equals an empty text. A golden run
 * that did not finish normally, or output lists that differ in count or
 * names, are the caller's bug: asserted in debug builds; otherwise the
 * golden run is compared as if it had finished, and an output missing from
 * the faulty run counts as differing in size. Never fails. */
void cls_classify(const cls_run_t *golden, const cls_run_t *faulty, cls_verdict_t *out);

/* The reason of an experiment of outcome o and reason `reason` whose first
 * protection event (sc_prot_first) was prot: a Masked run whose error a code
 * corrected is Masked "corrected", one whose instruction-buffer word was
 * re-issued corrected (SAWP) Masked "recovered", in place of "no_effect" or
 * "early" (the code, not the program, masked it; an early end stays flagged
 * as such by the caller). Any other reason is returned as it is. */
const char *cls_prot_reason(cls_outcome_t o, const char *reason, sc_prot_t prot);

/* ---- severity: how big an SDC is ------------------------------------------ */

/* The corruption of one output buffer, elements compared exactly as
 * cls_classify compares them (kind, rel_tol and the RAW fallback of
 * cls_buffer_t): an element equal within rel_tol is not corrupted.
 *   elements   the longer buffer's element count (= the golden one's when
 *              the sizes agree), so corrupted <= elements
 *   corrupted  differing elements of the common part, plus every surplus
 *              element of the longer buffer
 *   first      index of the first corrupted element; when only the sizes
 *              differ, the shorter buffer's count; 0 when corrupted == 0
 *              (as cls_verdict_t's first_diff, which it equals)
 *   max_abs    the largest |f - g| over the corrupted elements of the
 *   max_rel    common part, and the largest |f - g| / |g| (f faulty, g
 *              golden); 0 when none. Surplus elements have no counterpart
 *              and add nothing to either (size_differs says they exist).
 *   size_differs  the buffers' byte sizes differ
 * Per element, a and b corrupted:
 *   F32/F64   in double (an F32 pair's difference is exact unless the two
 *             exponents are more than 28 apart; then rounded to nearest).
 *             NaN against a number, or an infinity against anything else:
 *             abs = rel = +inf. Two NaNs (different payloads), or -0
 *             against +0: abs = rel = 0 (bitwise, not numerically,
 *             different). A difference that overflows is +inf.
 *   integers  |f - g| is computed exactly as a 64-bit unsigned number (it
 *             always fits, even for i64 extremes), then converted to
 *             double: exact up to 2^53, rounded to nearest above.
 *   RAW       elements are bytes, read as unsigned 0..255.
 *   rel       abs / |g|, with |g| exact as for abs; abs == 0 gives 0, and
 *             g == 0 with abs > 0 gives +inf.
 * So max_abs and max_rel are never NaN or negative; +inf is possible.
 * faulty may be NULL: a missing output (0 bytes). Never fails. */
typedef struct cls_severity {
	uint64_t elements;
	uint64_t corrupted;
	uint64_t first;
	double max_abs;
	double max_rel;
	bool size_differs;
} cls_severity_t;

void cls_severity(const cls_buffer_t *golden, const cls_buffer_t *faulty, cls_severity_t *out);

/* Where two texts (stdout or stderr of a host program) differ, line by
 * line. A line is the bytes up to and including a '\n', or the bytes after
 * the last '\n' when there are any (so "a\n" is one line, "a\nb" two, ""
 * none, and "b" differs from "b\n"). Line i of one text is compared with
 * line i of the other (by position, not an edit script: a line inserted
 * early makes every later line differ); each line that only the longer
 * text has counts as differing. *first_line is the first differing line,
 * 1-based, or 0 when the texts are equal; *lines_differ how many differ
 * (0 exactly when the texts are equal). NULL + 0 is the empty text. */
void cls_text_diff(const char *g, uint64_t glen, const char *f, uint64_t flen, uint64_t *first_line,
                   uint64_t *lines_differ);

/* The smallest n for which cls_severity_json can write its truncated
 * form, {"outputs":[],"truncated":true}; see there. */
#define CLS_SEVERITY_JSON_MIN 32

/* Writes the severity of `faulty` against `golden` into buf (n bytes,
 * NUL-terminated) as one line of JSON, with only libc:
 *   {"outputs":[{"name":"c","elements":1048576,"corrupted":3,"first":17,
 *                "max_abs":0.5,"max_rel":0.001}, ...],
 *    "stdout":{"first_line":4,"lines":2},"stderr":{...}}
 * "outputs" is always there and lists, in order, only the outputs with
 * corrupted > 0 (an output missing from faulty is compared as 0 bytes),
 * with "size_differs":true added after max_rel when the sizes differ.
 * "stdout" and "stderr" are there only when that text differs (first_line
 * and lines as cls_text_diff gives them). Counts are decimal integers,
 * errors %.17g (they round-trip); +inf is written as the string "inf" (JSON
 * has no infinity; in SQLite, text sorts after every number, so an ORDER BY
 * still ranks it highest), and "nan" would be written for a NaN, which the
 * definitions above never produce. Names are JSON-escaped (", \ and
 * control characters; bytes that are not valid UTF-8 become U+FFFD).
 * Returns the length written (excluding the NUL) when everything fits.
 * Otherwise returns -1 and writes the longest prefix of whole entries
 * (outputs, then stdout, then stderr) that fits, followed by
 * "truncated":true, e.g. {"outputs":[{...}],"truncated":true}; this needs
 * n >= CLS_SEVERITY_JSON_MIN, and a smaller n gets {} (n >= 3) or the empty
 * string (n >= 1). The output is always valid JSON (for n >= 3). Computes
 * each output's severity once, or twice when truncating. */
int cls_severity_json(const cls_run_t *golden, const cls_run_t *faulty, char *buf, size_t n);

/* Returns "masked", "sdc" or "due" (static), or "unknown" for other values. */
const char *cls_outcome_name(cls_outcome_t o);

/* Parses an outcome name ("masked", "sdc", "due", in any letter case) into
 * *o. Returns 0, or CLS_EINVAL (and leaves *o alone) for anything else. */
int cls_outcome_parse(const char *s, cls_outcome_t *o);

#endif
