/* engine/ internals: the flipsim CLI's commands and their shared conventions.
 * Design: ../shared/DESIGN.md ("Principles": bad input exits 2).
 *
 *   exit status   meaning
 *   -----------   -------------------------------------------------------
 *   0             success
 *   1             internal failure (out of memory, I/O error writing results)
 *   2             bad input: command line, JSON, PTX, unknown kernel or GPU,
 *                 launch configuration the GPU cannot hold
 *   3             the simulated program ended in a DUE (the run itself worked)
 *
 * Every message on stderr is one line starting "flipsim: "; a usage error
 * adds a second line, "try 'flipsim CMD --help'". */
#ifndef ENG_INT_H
#define ENG_INT_H

#include <stdio.h>

enum { ENG_EXIT_OK = 0, ENG_EXIT_INTERNAL = 1, ENG_EXIT_INPUT = 2, ENG_EXIT_DUE = 3 };

/* Prints "flipsim: <message>" on stderr. */
void eng_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reports a usage error of command `cmd` (NULL for the top level) and
 * returns ENG_EXIT_INPUT. */
int eng_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* `flipsim exec`: argv[0] is "exec". Returns the exit status. */
int eng_exec_main(int argc, char **argv);
void eng_exec_help(FILE *out);

#endif
