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

/* How an output buffer is compared. */
typedef enum {
	CLS_T_RAW = 0,  /* byte by byte; an element is one byte */
	CLS_T_F32,      /* little-endian binary32 elements */
	CLS_T_F64       /* little-endian binary64 elements */
} cls_elem_t;

/* One output buffer. Each golden buffer is compared as its own elem and
 * rel_tol say (the faulty one's are not consulted). A buffer whose size is
 * not a multiple of its element size is compared as RAW.
 *
 * rel_tol (F32/F64 only; 0 = exact, ignored for RAW). Exact means bitwise:
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

/* Returns "masked", "sdc" or "due" (static), or "unknown" for other values. */
const char *cls_outcome_name(cls_outcome_t o);

/* Parses an outcome name ("masked", "sdc", "due", in any letter case) into
 * *o. Returns 0, or CLS_EINVAL (and leaves *o alone) for anything else. */
int cls_outcome_parse(const char *s, cls_outcome_t *o);

#endif
