/* The helpers declared in harness.h, shared by the simcore suites. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

void h_init(h_ctx_t *h)
{
	memset(h, 0, sizeof *h);
	sc_config_gtx480(&h->cfg);
	/* make unit runs the semantic suites again in alloc mode */
	const char *regs = getenv("FLIPSIM_TEST_REGS");
	if (regs)
		cr_assert_eq(sc_regs_parse(regs, &h->opt.regs), 0, "FLIPSIM_TEST_REGS: '%s' is not ptx or alloc", regs);
}

void h_start(h_ctx_t *h)
{
	if (h->gpu)
		return;
	char msg[256];
	int rc = sc_config_check(&h->cfg, msg, sizeof msg);
	cr_assert_eq(rc, 0, "bad test configuration: %s", msg);
	rc = sc_gpu_create(&h->cfg, &h->opt, &h->gpu);
	cr_assert_eq(rc, 0, "sc_gpu_create: %s", sc_strerror(rc));
}

void h_fini(h_ctx_t *h)
{
	sc_gpu_destroy(h->gpu);
	h->gpu = NULL;
	h->mod = NULL;
}

int h_load(h_ctx_t *h, const char *ptx)
{
	h_start(h);
	sc_module_t *m = NULL;
	int rc = sc_module_load_text(h->gpu, "t.ptx", ptx, &m);
	if (rc == 0)
		h->mod = m;
	return rc;
}

sc_module_t *h_load_ok(h_ctx_t *h, const char *ptx)
{
	int rc = h_load(h, ptx);
	cr_assert_eq(rc, 0, "PTX load failed (%s): %s", sc_strerror(rc), sc_gpu_errmsg(h->gpu));
	return h->mod;
}

uint64_t h_alloc(h_ctx_t *h, uint64_t bytes, const void *init)
{
	h_start(h);
	uint64_t d = 0;
	cr_assert_eq(sc_malloc(h->gpu, bytes, &d), 0, "sc_malloc(%llu)", (unsigned long long)bytes);
	if (init)
		cr_assert_eq(sc_memcpy_htod(h->gpu, d, init, bytes), 0);
	else
		cr_assert_eq(sc_memset(h->gpu, d, 0, bytes), 0);
	return d;
}

void h_read(h_ctx_t *h, void *dst, uint64_t src, uint64_t bytes)
{
	cr_assert_eq(sc_memcpy_dtoh(h->gpu, dst, src, bytes), 0, "%s", sc_gpu_errmsg(h->gpu));
}

int h_launch(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn_smem,
             void *const *args)
{
	cr_assert(h->gpu && h->mod, "h_launch before a module was loaded");
	return sc_launch(h->gpu, h->mod, kernel, grid, block, dyn_smem, args);
}

void h_launch_ok(h_ctx_t *h, const char *kernel, sc_dim3_t grid, sc_dim3_t block, uint32_t dyn_smem,
                 void *const *args)
{
	int rc = h_launch(h, kernel, grid, block, dyn_smem, args);
	const sc_status_t *s = h_status(h);
	cr_assert_eq(rc, 0, "launch of %s: %s: %s [due %s pc %u sm %d warp %d lane %d: %s]", kernel, sc_strerror(rc),
	             sc_gpu_errmsg(h->gpu), sc_due_name(s->reason), s->pc, s->sm, s->warp, s->lane, s->detail);
}

const sc_status_t *h_status(const h_ctx_t *h) { return sc_gpu_status(h->gpu); }

const sc_func_t *h_func(const sc_module_t *m, const char *name)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (!strcmp(m->funcs[i].name, name))
			return &m->funcs[i];
	cr_assert_fail("no function '%s'", name);
	return NULL;
}

const sc_launch_stats_t *h_last(const h_ctx_t *h)
{
	uint32_t n = sc_launch_count(h->gpu);
	cr_assert(n > 0, "no launch recorded");
	return sc_launch_stats(h->gpu, n - 1);
}

void h_run_u32(h_ctx_t *h, const char *ptx, const char *kernel, sc_dim3_t grid, sc_dim3_t block,
               uint32_t *out, uint32_t n)
{
	h_load_ok(h, ptx);
	uint64_t d = h_alloc(h, (uint64_t)n * 4, NULL);
	h_launch_ok(h, kernel, grid, block, 0, H_ARGS(&d));
	h_read(h, out, d, (uint64_t)n * 4);
}

const char h_loop_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.reg .pred %p<2>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mov.u32 %r2, 0;\n"
	"L:\n"
	"	add.u32 %r2, %r2, 1;\n"
	"	setp.lt.u32 %p1, %r2, 50;\n"
	"	@%p1 bra L;\n"
	"	add.u32 %r3, %r1, %r2;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	mul.wide.u32 %rd2, %r4, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r3;\n"
	"	ret;\n"
	"}\n";

int h_run_warp(h_ctx_t *h, const char *ptx, uint64_t at, sc_pause_fn fn, void *ctx, uint32_t out[32])
{
	h_init(h);
	h_load_ok(h, ptx);
	uint64_t d = h_alloc(h, 32 * 4, NULL);
	if (fn)
		sc_set_pause(h->gpu, at, fn, ctx);
	int rc = h_launch(h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&d));
	if (rc == 0)
		h_read(h, out, d, 32 * 4);
	return rc;
}

int h_slot_of(const sc_gpu_t *g, uint32_t v)
{
	const sc_warp_t *w = &g->sms[0].warps[0];
	for (uint32_t r = 0; r < g->run.regs; r++)
		if (w->rf[r * 32 + 3] == v)
			return (int)r;
	return -1;
}

uint64_t h_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

uint32_t h_line_of(const char *ptx, const char *text)
{
	const char *at = strstr(ptx, text);
	cr_assert(at, "'%s' is in the kernel", text);
	uint32_t line = 1;
	for (const char *c = ptx; c < at; c++)
		line += *c == '\n';
	return line;
}
