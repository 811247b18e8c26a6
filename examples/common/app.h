/* app — the host-side code the example programs share: GPU setup (GTX480, a
 * cycle budget), failure and DUE messages with their exit statuses, the
 * --ptx/--check/--stats options and tables; appbase.h the rest. Usage and
 * statuses: examples/README.md. Ownership: an app_t owns its GPU and the
 * buffers app_malloc made (app_close frees them); its strings are the caller's. */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "appbase.h"
#include "simcore.h"

enum { APP_MAXBUF = 16 };  /* device buffers one program may hold */

/* One program's run. Set name and the option defaults before anything else;
 * the rest starts zeroed. */
typedef struct app {
	const char *name;          /* the program: every message starts "name: " */
	const char *ptx;           /* --ptx FILE */
	bool check, stats;         /* --check, --stats */
	sc_gpu_config_t cfg;       /* the preset the GPU was created from */
	sc_gpu_t *gpu;             /* NULL until app_open creates it */
	sc_module_t *mod;          /* the module app_open loaded */
	uint64_t buf[APP_MAXBUF];  /* device buffers in the order app_malloc made them */
	int nbuf;
	const char *what;          /* the call that failed, for app_report */
} app_t;

/* Evaluates an SC_E* call; when it fails, names it in (a)->what and returns
 * its code from the enclosing function. */
#define APP_TRY(a, call, name)                                            \
	do {                                                                  \
		int e_ = (call);                                                  \
		if (e_ != 0) {                                                    \
			(a)->what = (name);                                           \
			return e_;                                                    \
		}                                                                 \
	} while (0)

/* Takes argv[*i] when it is --check, --stats or --ptx FILE (advancing *i past
 * FILE); returns whether it did. A --ptx without FILE is not taken. */
bool app_option(app_t *a, int argc, char **argv, int *i);

/* Creates the GPU from the GTX480 preset with opt and, when ptx is not NULL,
 * loads that file as a->mod. Returns 0, or the exit status after printing why. */
int app_open(app_t *a, const sc_options_t *opt, const char *ptx);

/* sc_malloc that remembers the buffer for app_close: the address goes to
 * a->buf[a->nbuf++] and to *dptr unless dptr is NULL. Returns 0 or an SC_E* code. */
int app_malloc(app_t *a, uint64_t bytes, uint64_t *dptr);

/* Prints on stderr why err happened in `what` (a DUE with where it stopped);
 * returns the exit status it maps to. */
int app_report(const app_t *a, int err, const char *what);

/* Frees the buffers, newest first, and the GPU. */
void app_close(app_t *a);

/* The --stats tables on stderr, then the totals: thread-instructions per
 * cycle and the average warp occupancy (GUFI Table III). By kernel: launches,
 * grids, cycles, IPC and occupancy at the simulator's limit and resident. By
 * launch: one line each, occupancy at the limit only. */
void app_print_kernel_stats(const app_t *a);
void app_print_launch_stats(const app_t *a);

/* Prints on stdout the --check failure line for the float at `where` ("c[3]"):
 * both values and their bit patterns. */
void app_print_mismatch(const app_t *a, const char *where, const float *gpu, const float *cpu);

#endif
