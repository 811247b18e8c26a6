/* app.c — the host-side code the example programs share (app.h). Every line
 * it prints is part of the programs' output, which campaigns compare with the
 * golden run's: change a format here and every program's output changes. */
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

bool app_option(app_t *a, int argc, char **argv, int *i)
{
	const char *s = argv[*i];

	if (!strcmp(s, "--check"))
		a->check = true;
	else if (!strcmp(s, "--stats"))
		a->stats = true;
	else if (!strcmp(s, "--ptx") && *i + 1 < argc)
		a->ptx = argv[++*i];
	else
		return false;
	return true;
}

int app_open(app_t *a, const sc_options_t *opt, const char *ptx)
{
	char msg[256];
	int err;

	sc_config_gtx480(&a->cfg);
	if ((err = sc_config_check(&a->cfg, msg, sizeof msg)) != 0) {
		fprintf(stderr, "%s: GTX480 preset: %s: %s\n", a->name, sc_strerror(err), msg);
		return APP_FAIL;
	}
	if ((err = sc_gpu_create(&a->cfg, opt, &a->gpu)) != 0)
		return app_report(a, err, "create the GPU");
	if (ptx && (err = sc_module_load_file(a->gpu, ptx, &a->mod)) != 0)
		return app_report(a, err, ptx);
	return 0;
}

int app_malloc(app_t *a, uint64_t bytes, uint64_t *dptr)
{
	assert(a->nbuf < APP_MAXBUF);
	int err = sc_malloc(a->gpu, bytes, &a->buf[a->nbuf]);
	if (err)
		return err;
	if (dptr)
		*dptr = a->buf[a->nbuf];
	a->nbuf++;
	return 0;
}

int app_report(const app_t *a, int err, const char *what)
{
	if (a->gpu && (err == SC_EDUE || err == SC_ESTICKY)) {
		const sc_status_t *st = sc_gpu_status(a->gpu);
		fprintf(stderr,
		        "%s: %s: DUE %s in kernel %s at pc %u, cycle %llu "
		        "(sm %d, warp %d, lane %d, address 0x%llx): %s\n",
		        a->name, what, sc_due_name(st->reason), st->kernel, (unsigned)st->pc,
		        (unsigned long long)st->cycle, (int)st->sm, (int)st->warp, (int)st->lane,
		        (unsigned long long)st->addr, st->detail);
		return APP_DUE;
	}
	const char *msg = a->gpu ? sc_gpu_errmsg(a->gpu) : "";
	fprintf(stderr, "%s: %s: %s%s%s\n", a->name, what, sc_strerror(err), *msg ? ": " : "", msg);
	/* The PTX is the programs' only input file: an unreadable, unparsable or
	 * mismatching module (no such kernel, too big to launch) is bad input. */
	if (err == SC_EIO || err == SC_EPARSE || err == SC_ENOTFOUND || err == SC_ELAUNCH)
		return APP_BADINPUT;
	return APP_FAIL;
}

void app_close(app_t *a)
{
	/* The GPU frees what is left with it; freeing explicitly shows the API. */
	while (a->nbuf > 0)
		sc_free(a->gpu, a->buf[--a->nbuf]);
	sc_gpu_destroy(a->gpu);
	a->gpu = NULL;
}

/* `occupancy` is the simulator's: the warps of ctas_per_sm CTAs (the resource
 * limit) over the SM's maximum; `resident` caps the CTAs per SM by what the
 * grid can give each SM, which is what a small grid really keeps resident.
 * Each launch counts with its share of the cycles. */
void app_print_kernel_stats(const app_t *a)
{
	const sc_gpu_t *gpu = a->gpu;
	const sc_gpu_config_t *cfg = &a->cfg;
	sc_gpu_stats_t tot;
	uint32_t nl = sc_launch_count(gpu);
	double occ = 0, res = 0;

	sc_gpu_stats(gpu, &tot);
	for (uint32_t i = 0; i < nl; i++) {
		const sc_launch_stats_t *l = sc_launch_stats(gpu, i);
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = !strcmp(sc_launch_stats(gpu, j)->kernel, l->kernel);
		if (seen)
			continue;
		uint32_t count = 0;
		uint64_t cyc = 0, ti = 0;
		double kocc = 0, kres = 0;
		const sc_launch_stats_t *last = l;
		for (uint32_t j = i; j < nl; j++) {
			const sc_launch_stats_t *m = sc_launch_stats(gpu, j);
			if (strcmp(m->kernel, l->kernel))
				continue;
			uint64_t ctas = (uint64_t)m->grid.x * m->grid.y * m->grid.z;
			uint32_t warps = (m->block.x * m->block.y * m->block.z + cfg->warp_size - 1) / cfg->warp_size;
			uint64_t per_sm = (ctas + cfg->num_sms - 1) / cfg->num_sms;
			if (per_sm > m->ctas_per_sm)
				per_sm = m->ctas_per_sm;
			count++;
			cyc += m->cycles;
			ti += m->thread_insts;
			kocc += m->occupancy * (double)m->cycles;
			kres += (double)(per_sm * warps) / cfg->max_warps_per_sm * (double)m->cycles;
			last = m;
		}
		occ += kocc;
		res += kres;
		fprintf(stderr,
		        "%s: kernel %s: %u launches, grid %ux%ux%u..%ux%ux%u, block %ux%ux%u, "
		        "%u regs, %u B smem, limiter %s, %llu cycles, %llu thread-insts, IPC %.2f, "
		        "occupancy %.2f%% (resident %.2f%%)\n",
		        a->name, l->kernel, count, l->grid.x, l->grid.y, l->grid.z, last->grid.x, last->grid.y,
		        last->grid.z, l->block.x, l->block.y, l->block.z, l->regs_per_thread, l->smem_per_cta, l->limiter,
		        (unsigned long long)cyc, (unsigned long long)ti, cyc ? (double)ti / (double)cyc : 0.0,
		        cyc ? 100.0 * kocc / (double)cyc : 0.0, cyc ? 100.0 * kres / (double)cyc : 0.0);
	}
	fprintf(stderr,
	        "%s: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%% (resident %.2f%%)\n",
	        a->name, tot.launches, (unsigned long long)tot.cycles, (unsigned long long)tot.thread_insts,
	        (unsigned long long)tot.warp_insts, tot.cycles ? (double)tot.thread_insts / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * occ / (double)tot.cycles : 0.0,
	        tot.cycles ? 100.0 * res / (double)tot.cycles : 0.0);
}

void app_print_launch_stats(const app_t *a)
{
	sc_gpu_stats_t t;
	double occ = 0.0;

	sc_gpu_stats(a->gpu, &t);
	for (uint32_t i = 0; i < sc_launch_count(a->gpu); i++) {
		const sc_launch_stats_t *s = sc_launch_stats(a->gpu, i);
		fprintf(stderr,
		        "%s: launch %u %s grid %ux%ux%u block %ux%ux%u regs %u smem %u "
		        "ctas/sm %u (%s) occupancy %.4f cycles %llu thread-insts %llu\n",
		        a->name, (unsigned)i, s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x,
		        s->block.y, s->block.z, s->regs_per_thread, s->smem_per_cta, s->ctas_per_sm,
		        s->limiter, s->occupancy, (unsigned long long)s->cycles,
		        (unsigned long long)s->thread_insts);
		if (t.cycles)
			occ += s->occupancy * (double)s->cycles / (double)t.cycles;
	}
	fprintf(stderr,
	        "%s: %u launches, %llu cycles, %llu thread-insts, %llu warp-insts, IPC %.2f, "
	        "average warp occupancy %.2f%%\n",
	        a->name, (unsigned)t.launches, (unsigned long long)t.cycles,
	        (unsigned long long)t.thread_insts, (unsigned long long)t.warp_insts,
	        t.cycles ? (double)t.thread_insts / (double)t.cycles : 0.0, 100.0 * occ);
}

void app_print_mismatch(const app_t *a, const char *where, const float *gpu, const float *cpu)
{
	app_print_mismatch_named(a->name, where, gpu, cpu);
}
