/* Running a declarative workload on the simulator through simcore.h alone:
 * PTX, buffers, launches with their arguments, outputs, and the line between
 * bad input (an error) and a DUE of the simulated program (a result).
 * Format: docs/DESIGN.md ("Workload JSON"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaigns.h"

/* Scalars are stored little-endian and handed to sc_launch as host values. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "campaigns/camp_run.c assumes a little-endian host"
#endif

static double clock_seconds(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* Maps a simulator error that is not about the input to a campaigns code. */
static int sim_error(const camp_workload_t *w, sc_gpu_t *gpu, int rc, const char *what,
                     char *err, size_t errsz)
{
	const char *m = sc_gpu_errmsg(gpu);
	snprintf(err, errsz, "%s: %s: %s%s%s", w->path, what, sc_strerror(rc), *m ? ": " : "",
	         m);
	return rc == SC_ENOMEM ? CAMP_ENOMEM : CAMP_ESIM;
}

/* What a workload argument is, as the workload wrote it: {"f32": 1.5}. */
static void arg_text(const camp_workload_t *w, const camp_arg_t *a, char *buf, size_t n)
{
	const char *t = camp_type_name(a->type);
	if (a->kind == CAMP_ARG_BUFFER) {
		snprintf(buf, n, "buffer '%s'", w->buffers[a->buffer].name);
	} else if (a->kind == CAMP_ARG_ITER) {
		snprintf(buf, n, "{\"%s\": \"$iter\"}", t);
	} else if (a->type == CAMP_T_F32 || a->type == CAMP_T_F64) {
		float f;
		double d;
		memcpy(&f, a->bytes, 4);
		memcpy(&d, a->bytes, 8);
		snprintf(buf, n, "{\"%s\": %.17g}", t, a->type == CAMP_T_F32 ? (double)f : d);
	} else {
		uint64_t u = 0;
		uint32_t bytes = camp_type_size(a->type), sh = 64 - 8 * bytes;
		memcpy(&u, a->bytes, bytes);
		if (t[0] == 'i')
			snprintf(buf, n, "{\"%s\": %" PRId64 "}", t, (int64_t)(u << sh) >> sh);
		else
			snprintf(buf, n, "{\"%s\": %" PRIu64 "}", t, u);
	}
}

/* Whether an argument may fill a parameter of PTX element type `pt` (sizes
 * already agree). PTX's .u and .s types differ only in how instructions read
 * them, so any integer of the size fits either; .b takes any value of its
 * size; .f32 and .f64 take only a float of their size, an integer parameter
 * never a float; a buffer is an address, an integer. Half-precision types
 * (.f16, .bf16, .f16x2...) have no workload type: an integer of their size
 * gives the bits. Fills `want` with what would fit. */
static int arg_fits(const camp_arg_t *a, const char *pt, char *want, size_t n)
{
	int arg_float = a->kind != CAMP_ARG_BUFFER && camp_type_name(a->type)[0] == 'f';
	const char *bits = pt + strcspn(pt, "0123456789");
	if (!strcmp(pt, "f32") || !strcmp(pt, "f64")) {
		snprintf(want, n, "a floating-point {\"%s\": ...}", pt);
		return arg_float;
	}
	if (pt[0] == 'b' && pt[1] != 'f')
		return 1;
	if (pt[0] == 'u' || pt[0] == 's')
		snprintf(want, n, "an integer {\"u%s\": ...} or {\"i%s\": ...}%s", bits, bits,
		         strcmp(bits, "64") ? "" : " or a buffer");
	else
		snprintf(want, n, "its bits as an integer of %s bits", bits);
	return !arg_float;
}

/* Argument ai of launch li against the kernel's parameter ai: its size,
 * then its kind. */
static int check_arg(const camp_workload_t *w, sc_module_t *mod, uint32_t li, uint32_t ai,
                     uint32_t size, char *err, size_t errsz)
{
	const camp_launch_t *l = &w->launches[li];
	const camp_arg_t *a = &l->args[ai];
	uint32_t want = a->kind == CAMP_ARG_BUFFER ? 8 : camp_type_size(a->type);
	if (size != want) {
		if (a->kind == CAMP_ARG_BUFFER)
			snprintf(err, errsz, "%s: at $.launches[%u].args[%u]: buffer '%s' is "
			         "passed as an 8-byte pointer, but parameter %u of kernel '%s' "
			         "is %u bytes", w->path, li, ai, w->buffers[a->buffer].name, ai,
			         l->kernel, size);
		else
			snprintf(err, errsz, "%s: at $.launches[%u].args[%u]: %s is %u bytes, "
			         "but parameter %u of kernel '%s' is %u bytes", w->path, li, ai,
			         camp_type_name(a->type), want, ai, l->kernel, size);
		return CAMP_EINPUT;
	}
	sc_param_info_t pi;
	char given[96], fits[96];
	int rc = sc_kernel_param(mod, l->kernel, ai, &pi);
	if (rc) {
		snprintf(err, errsz, "%s: at $.launches[%u].args[%u]: %s", w->path, li, ai, sc_strerror(rc));
		return CAMP_ESIM;
	}
	if (arg_fits(a, pi.type, fits, sizeof fits))
		return 0;
	arg_text(w, a, given, sizeof given);
	snprintf(err, errsz, "%s: at $.launches[%u].args[%u]: parameter %u of kernel '%s', %s, is "
	         ".%s%s: it takes %s, not %s", w->path, li, ai, ai, l->kernel, pi.name, pi.type,
	         pi.count > 1 ? "[]" : "", fits, given);
	return CAMP_EINPUT;
}

/* Checks every launch's arguments against the kernel's parameters before
 * anything runs, so a mistake in the last launch costs no simulation. */
static int check_launches(const camp_workload_t *w, sc_module_t *mod, char *err, size_t errsz)
{
	for (uint32_t li = 0; li < w->nlaunches; li++) {
		const camp_launch_t *l = &w->launches[li];
		uint32_t n = 0;
		const uint32_t *sizes = NULL;
		int rc = sc_kernel_params(mod, l->kernel, &n, &sizes);
		if (rc == SC_ENOTFOUND) {
			snprintf(err, errsz, "%s: at $.launches[%u].kernel: no kernel '%s' in %s",
			         w->path, li, l->kernel, w->ptx);
			return CAMP_EINPUT;
		}
		if (rc) {
			snprintf(err, errsz, "%s: at $.launches[%u].kernel: %s", w->path, li,
			         sc_strerror(rc));
			return CAMP_ESIM;
		}
		if (n != l->nargs) {
			snprintf(err, errsz, "%s: at $.launches[%u].args: kernel '%s' takes %u "
			         "parameter%s, the workload passes %u", w->path, li, l->kernel, n,
			         n == 1 ? "" : "s", l->nargs);
			return CAMP_EINPUT;
		}
		for (uint32_t ai = 0; ai < n; ai++)
			if ((rc = check_arg(w, mod, li, ai, sizes[ai], err, errsz)))
				return rc;
	}
	return 0;
}

/* sc_memfill's callback: the buffer's initial contents straight into the
 * GPU's memory (a file is read in place, not through a staging copy). */
struct fill_ctx {
	const camp_buffer_t *b;
	char *err;
	size_t errsz;
	int rc; /* camp_buffer_fill's result: a CAMP_E* code, kept apart from SC_E* */
};

static int fill_buffer(void *ctx, void *host)
{
	struct fill_ctx *c = ctx;
	c->rc = camp_buffer_fill(c->b, host, c->err, c->errsz);
	return c->rc ? 1 : 0;
}

/* Allocates and initialises every buffer; dptr[i] valid where alloc[i]. */
static int setup_buffers(const camp_workload_t *w, sc_gpu_t *gpu, uint64_t *dptr,
                         uint8_t *alloc, char *err, size_t errsz)
{
	for (uint32_t i = 0; i < w->nbuffers; i++) {
		const camp_buffer_t *b = &w->buffers[i];
		uint64_t bytes = b->count * camp_type_size(b->type);
		int rc = sc_malloc(gpu, bytes, &dptr[i]);
		if (rc)
			return sim_error(w, gpu, rc, b->name, err, errsz);
		alloc[i] = 1;
		if (b->init == CAMP_INIT_ZERO) {
			rc = sc_memset(gpu, dptr[i], 0, bytes);
			if (rc)
				return sim_error(w, gpu, rc, b->name, err, errsz);
			continue;
		}
		struct fill_ctx fc = {b, err, errsz, 0};
		rc = sc_memfill(gpu, dptr[i], bytes, fill_buffer, &fc);
		if (fc.rc)
			return fc.rc;
		if (rc)
			return sim_error(w, gpu, rc, b->name, err, errsz);
	}
	return 0;
}

/* One launch of l, repeat index `iter`. Returns 0, 1 for a DUE, or an error. */
static int launch_once(const camp_workload_t *w, uint32_t li, uint32_t iter, sc_gpu_t *gpu,
                       sc_module_t *mod, const uint64_t *dptr, camp_result_t *res,
                       char *err, size_t errsz)
{
	const camp_launch_t *l = &w->launches[li];
	uint64_t *store = calloc(l->nargs ? l->nargs : 1, sizeof *store);
	void **argv = calloc(l->nargs ? l->nargs : 1, sizeof *argv);
	if (!store || !argv) {
		free(store);
		free(argv);
		snprintf(err, errsz, "%s: out of memory", w->path);
		return CAMP_ENOMEM;
	}

	for (uint32_t ai = 0; ai < l->nargs; ai++) {
		const camp_arg_t *a = &l->args[ai];
		uint8_t *p = (uint8_t *)&store[ai];
		if (a->kind == CAMP_ARG_BUFFER) {
			memcpy(p, &dptr[a->buffer], 8);
		} else if (a->kind == CAMP_ARG_SCALAR) {
			memcpy(p, a->bytes, camp_type_size(a->type));
		} else if (a->type == CAMP_T_F32) {
			float f = (float)iter;
			memcpy(p, &f, 4);
		} else if (a->type == CAMP_T_F64) {
			double d = (double)iter;
			memcpy(p, &d, 8);
		} else {
			uint64_t x = iter;  /* fits: checked when loading */
			memcpy(p, &x, camp_type_size(a->type));
		}
		argv[ai] = p;
	}

	double t0 = now_seconds(), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	int rc = sc_launch(gpu, mod, l->kernel, l->grid, l->block, l->shared, argv);
	res->sim_seconds += now_seconds() - t0;
	res->sim_cpu_seconds += clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
	free(store);
	free(argv);
	res->launches_run++;
	switch (rc) {
	case 0:
		return 0;
	case SC_EDUE:
		res->due = 1;
		res->status = *sc_gpu_status(gpu);
		return 1;
	case SC_ELAUNCH:
	case SC_EINVAL:
	case SC_ENOTFOUND: {
		const char *m = sc_gpu_errmsg(gpu);
		snprintf(err, errsz, "%s: at $.launches[%u]: kernel '%s', grid [%u, %u, %u], "
		         "block [%u, %u, %u], shared %u: %s", w->path, li, l->kernel, l->grid.x,
		         l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z, l->shared,
		         *m ? m : sc_strerror(rc));
		return CAMP_EINPUT;
	}
	default:
		return sim_error(w, gpu, rc, l->kernel, err, errsz);
	}
}

static int copy_outputs(const camp_workload_t *w, sc_gpu_t *gpu, const uint64_t *dptr,
                        camp_result_t *res, char *err, size_t errsz)
{
	res->outputs = calloc(w->noutputs, sizeof *res->outputs);
	if (!res->outputs) {
		snprintf(err, errsz, "%s: out of memory", w->path);
		return CAMP_ENOMEM;
	}
	for (uint32_t i = 0; i < w->noutputs; i++) {
		const camp_buffer_t *b = &w->buffers[w->outputs[i]];
		camp_output_t *o = &res->outputs[res->noutputs++];
		o->buffer = w->outputs[i];
		o->dptr = dptr[w->outputs[i]];
		o->bytes = b->count * camp_type_size(b->type);
		o->data = malloc((size_t)o->bytes);
		if (!o->data) {
			snprintf(err, errsz, "%s: output '%s': out of memory", w->path, b->name);
			return CAMP_ENOMEM;
		}
		int rc = sc_memcpy_dtoh(gpu, o->data, dptr[w->outputs[i]], o->bytes);
		if (rc == SC_EDUE) { /* the L2's code detected an error the read met */
			res->due = 1;
			res->status = *sc_gpu_status(gpu);
			return 0;
		}
		if (rc)
			return sim_error(w, gpu, rc, b->name, err, errsz);
	}
	return 0;
}

/* Loads the workload's PTX: a parse or read error is bad input (the
 * simulator's message names the PTX file, line and column), anything else
 * the simulator's failure. */
static int load_ptx(const camp_workload_t *w, sc_gpu_t *gpu, sc_module_t **mod, char *err, size_t errsz)
{
	int rc = sc_module_load_file(gpu, w->ptx, mod);
	if (!rc)
		return 0;
	const char *m = sc_gpu_errmsg(gpu);
	if (rc != SC_EPARSE && rc != SC_EIO)
		return sim_error(w, gpu, rc, w->ptx, err, errsz);
	if (*m)
		snprintf(err, errsz, "%s", m);
	else
		snprintf(err, errsz, "%s: %s", w->ptx, sc_strerror(rc));
	return CAMP_EINPUT;
}

/* Every launch, each as often as it repeats, until the first DUE (which
 * launch_once records in res). Returns 0 or an error. */
static int run_launches(const camp_workload_t *w, sc_gpu_t *gpu, sc_module_t *mod, const uint64_t *dptr,
                        camp_result_t *res, char *err, size_t errsz)
{
	for (uint32_t li = 0; li < w->nlaunches && !res->due; li++) {
		for (uint32_t it = 0; it < w->launches[li].repeat; it++) {
			int rc = launch_once(w, li, it, gpu, mod, dptr, res, err, errsz);
			if (rc == 1)
				break;
			if (rc)
				return rc;
		}
	}
	return 0;
}

int camp_workload_run(const camp_workload_t *w, sc_gpu_t *gpu, camp_result_t **out,
                      char *err, size_t errsz)
{
	char dummy[1];
	sc_module_t *mod = NULL;
	uint64_t *dptr = NULL;
	uint8_t *alloc = NULL;
	camp_result_t *res = NULL;
	int rc;

	*out = NULL;
	if (!err) {
		err = dummy;
		errsz = sizeof dummy;
	}
	err[0] = '\0';

	if ((rc = load_ptx(w, gpu, &mod, err, errsz)) || (rc = check_launches(w, mod, err, errsz)))
		goto done;

	res = calloc(1, sizeof *res);
	dptr = calloc(w->nbuffers, sizeof *dptr);
	alloc = calloc(w->nbuffers, 1);
	if (!res || !dptr || !alloc) {
		snprintf(err, errsz, "%s: out of memory", w->path);
		rc = CAMP_ENOMEM;
		goto done;
	}
	res->status.reason = SC_DUE_NONE;
	if ((rc = setup_buffers(w, gpu, dptr, alloc, err, errsz)))
		goto done;

	if ((rc = run_launches(w, gpu, mod, dptr, res, err, errsz)))
		goto done;
	/* After a DUE the context is broken, as in CUDA: there is nothing to copy. */
	if (!res->due)
		rc = copy_outputs(w, gpu, dptr, res, err, errsz);
	size_t plen;
	const char *ptext = sc_printf_output(gpu, &plen);
	if (!rc && plen && !(res->printf_text = malloc(plen))) {
		snprintf(err, errsz, "%s: out of memory", w->path);
		rc = CAMP_ENOMEM;
	} else if (!rc && plen) {
		memcpy(res->printf_text, ptext, plen);
		res->printf_len = plen;
	}

done:
	for (uint32_t i = 0; alloc && i < w->nbuffers; i++)
		if (alloc[i])
			sc_free(gpu, dptr[i]);
	free(alloc);
	free(dptr);
	if (rc) {
		camp_result_destroy(res);
		return rc;
	}
	*out = res;
	return 0;
}

void camp_result_destroy(camp_result_t *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->noutputs; i++)
		free(r->outputs[i].data);
	free(r->outputs);
	free(r->printf_text);
	free(r);
}
