/* The plain-text instruction tests (format: tests/simcore/insn/README.md).
 * Each case of a case file becomes a small PTX kernel that loads its
 * inputs per thread, runs the case's instruction lines and stores its
 * outputs; it is loaded, launched and checked through simcore.h alone, so
 * that the parser, the lowering, the instruction word and the semantics are
 * tested together. Ownership: the caller owns `report`; nothing else leaks. */
#ifndef TEST_INSN_H
#define TEST_INSN_H

#include <stdio.h>

/* Runs every case of `text`, naming it `name` in messages, on a GPU of its
 * own. Writes one report per failed case to `report` ("NAME:LINE: ..."),
 * and the number of cases read to *ncases. Returns the number of failed
 * cases; a malformed case, or one that checks nothing, counts as failed. */
int insn_run_text(const char *name, const char *text, FILE *report, unsigned *ncases);

/* The same for the file at `path`; a file that cannot be read is one
 * failure. */
int insn_run_file(const char *path, FILE *report, unsigned *ncases);

#endif
