/* Textures and surfaces through the sc_* API (simcore/tex.c): the objects'
 * checks, tex point and linear fetches under each addressing mode against
 * a host model, the two-word lowering of .v4 with destinations that are
 * also sources, suld/sust with each out-of-range mode, txq/suq, the DUEs
 * (invalid handle, .trap, freed memory), the parser's messages, the PTX
 * writer, an L1 flip reaching suld but not tex, and the texture cache (its
 * timing; a flip there reaching tex until the line leaves, in the state
 * hash; the L1 serving textures where the GPU has none). The CUDA
 * programs of tests/cudart (tex_host, textures.cu) cover the rest. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sc_int.h"

/* ---------------------------------------------------------------- objects */
Test(tex, channel_descriptions)
{
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{32, 32, 32, 32}, SC_CHAN_FLOAT}), 16u);
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{8, 0, 0, 0}, SC_CHAN_UNSIGNED}), 1u);
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{16, 16, 0, 0}, SC_CHAN_FLOAT}), 4u);
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{32, 32, 32, 0}, SC_CHAN_FLOAT}), 0u, "three channels");
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{8, 0, 8, 0}, SC_CHAN_SIGNED}), 0u, "a gap");
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{8, 16, 0, 0}, SC_CHAN_SIGNED}), 0u, "mixed widths");
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{8, 0, 0, 0}, SC_CHAN_FLOAT}), 0u, "8-bit float");
	cr_expect_eq(sc_chan_bytes(&(sc_chan_desc_t){{24, 0, 0, 0}, SC_CHAN_SIGNED}), 0u);
}

static const sc_tex_desc_t clamp_point = {{SC_ADDR_CLAMP, SC_ADDR_CLAMP, SC_ADDR_CLAMP}, SC_FILTER_POINT,
                                          SC_READ_ELEMENT, false, {0, 0, 0, 0}};

Test(tex, objects_are_checked)
{
	h_ctx_t h;
	h_init(&h);
	h_start(&h);
	uint64_t buf = h_alloc(&h, 256, NULL), t, s;
	sc_resource_t r = {.kind = SC_RES_LINEAR, .dptr = buf, .ch = {{32, 0, 0, 0}, SC_CHAN_FLOAT}, .bytes = 256};
	cr_assert_eq(sc_texture_create(h.gpu, &r, &clamp_point, &t), 0);
	r.bytes = 260; /* past the allocation */
	cr_expect_eq(sc_texture_create(h.gpu, &r, &clamp_point, &s), SC_EINVAL);
	cr_expect(strstr(sc_gpu_errmsg(h.gpu), "not inside one allocation"), "%s", sc_gpu_errmsg(h.gpu));
	r = (sc_resource_t){.kind = SC_RES_PITCH2D, .dptr = buf, .ch = {{32, 0, 0, 0}, SC_CHAN_SIGNED}, .width = 8,
	                    .height = 4, .pitch = 16};
	cr_expect_eq(sc_texture_create(h.gpu, &r, &clamp_point, &s), SC_EINVAL, "pitch below a row");
	r.pitch = 64;
	sc_tex_desc_t d = clamp_point;
	d.filter = SC_FILTER_LINEAR;
	cr_expect_eq(sc_texture_create(h.gpu, &r, &d, &s), SC_EINVAL, "linear filtering of integers");
	d.filter = SC_FILTER_POINT, d.read = SC_READ_NORMALIZED;
	cr_expect_eq(sc_texture_create(h.gpu, &r, &d, &s), SC_EINVAL, "normalized 32-bit integers");
	cr_assert_eq(sc_surface_create(h.gpu, &r, &s), 0);
	cr_expect_neq(s, t);
	sc_resource_t rb;
	sc_tex_desc_t db;
	cr_expect_eq(sc_texture_info(h.gpu, t, &rb, &db), 0);
	cr_expect(rb.kind == SC_RES_LINEAR && rb.bytes == 256 && db.addr[1] == SC_ADDR_CLAMP);
	cr_expect_eq(sc_texture_destroy(h.gpu, s), SC_EINVAL, "a surface is no texture");
	cr_expect_eq(sc_texture_destroy(h.gpu, t), 0);
	cr_expect_eq(sc_texture_destroy(h.gpu, t), SC_EINVAL, "destroyed twice");
	cr_expect_eq(sc_texture_info(h.gpu, t, NULL, NULL), SC_EINVAL);
	cr_expect_eq(sc_surface_destroy(h.gpu, s), 0);
	sc_array_t a = {.ch = {{16, 16, 16, 16}, SC_CHAN_FLOAT}, .width = 5, .height = 3, .depth = 2};
	cr_assert_eq(sc_array_alloc(h.gpu, &a), 0);
	cr_expect(sc_device_range(h.gpu, a.dptr, 5 * 3 * 2 * 8));
	cr_expect_eq(sc_array_free(h.gpu, &a), 0);
	a.ch.bits[3] = 0;
	cr_expect_eq(sc_array_alloc(h.gpu, &a), SC_EINVAL);
	h_fini(&h);
}

/* ---------------------------------------------------------------- tex.2d */
/* k(tex, coords float2 [n], out float4 [n]): a float, linear, normalized... whatever the object says */
static const char tex2d_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 t, .param .u64 c, .param .u64 o)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .f32 %f<8>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	ld.param.u64 %rd1, [t];\n"
	"	ld.param.u64 %rd2, [c];\n"
	"	ld.param.u64 %rd3, [o];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mul.wide.u32 %rd4, %r1, 8;\n"
	"	add.s64 %rd5, %rd2, %rd4;\n"
	"	ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
	"	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];\n" /* the first half is read by the second */
	"	mul.wide.u32 %rd6, %r1, 16;\n"
	"	add.s64 %rd7, %rd3, %rd6;\n"
	"	st.global.v4.f32 [%rd7], {%f1, %f2, %f3, %f4};\n"
	"	ret;\n"
	"}\n";

enum { TW = 4, TH = 3, NC = 64 };
static float texels[TH][TW][2]; /* float2 texels: (x + 10 y, -x) */

/* The host model of a 2-D float2 fetch (CUDA's texture-fetching appendix). */
static int64_t model_index(int64_t i, int n, sc_addr_mode_t m, bool norm)
{
	if (!norm && (m == SC_ADDR_WRAP || m == SC_ADDR_MIRROR))
		m = SC_ADDR_CLAMP;
	if (m == SC_ADDR_WRAP)
		return ((i % n) + n) % n;
	if (m == SC_ADDR_MIRROR) {
		int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
		return k < n ? k : 2 * n - 1 - k;
	}
	if (m == SC_ADDR_CLAMP)
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	return i < 0 || i >= n ? -1 : i;
}

static void model_texel(const sc_tex_desc_t *d, int64_t i, int64_t j, float v[4])
{
	i = model_index(i, TW, d->addr[0], d->normalized);
	j = model_index(j, TH, d->addr[1], d->normalized);
	if (i < 0 || j < 0) {
		memcpy(v, d->border, 16);
		return;
	}
	v[0] = texels[j][i][0], v[1] = texels[j][i][1], v[2] = 0, v[3] = 1;
}

static void model_fetch(const sc_tex_desc_t *d, float x, float y, float out[4])
{
	if (d->normalized)
		x *= TW, y *= TH;
	bool lin = d->filter == SC_FILTER_LINEAR;
	if (lin)
		x -= 0.5f, y -= 0.5f;
	float fx = floorf(x), fy = floorf(y), a = lin ? roundf((x - fx) * 256) / 256 : 0,
	      b = lin ? roundf((y - fy) * 256) / 256 : 0;
	float t00[4], t10[4], t01[4], t11[4];
	model_texel(d, (int64_t)fx, (int64_t)fy, t00);
	model_texel(d, (int64_t)fx + 1, (int64_t)fy, t10);
	model_texel(d, (int64_t)fx, (int64_t)fy + 1, t01);
	model_texel(d, (int64_t)fx + 1, (int64_t)fy + 1, t11);
	for (int c = 0; c < 4; c++)
		out[c] = lin ? (1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] + a * b * t11[c]
		             : t00[c];
}

static void run_tex2d(sc_regs_t regs, const sc_tex_desc_t *d, float got[NC][4], float coords[NC][2])
{
	h_ctx_t h;
	h_init(&h);
	h.opt.regs = regs;
	h_load_ok(&h, tex2d_ptx);
	for (int y = 0; y < TH; y++)
		for (int x = 0; x < TW; x++)
			texels[y][x][0] = (float)(x + 10 * y), texels[y][x][1] = (float)-x;
	sc_array_t a = {.ch = {{32, 32, 0, 0}, SC_CHAN_FLOAT}, .width = TW, .height = TH};
	cr_assert_eq(sc_array_alloc(h.gpu, &a), 0);
	cr_assert_eq(sc_memcpy_htod(h.gpu, a.dptr, texels, sizeof texels), 0);
	sc_resource_t r = {.kind = SC_RES_ARRAY, .array = a};
	uint64_t t, dc = h_alloc(&h, NC * 8, coords), dout = h_alloc(&h, NC * 16, NULL);
	cr_assert_eq(sc_texture_create(h.gpu, &r, d, &t), 0, "%s", sc_gpu_errmsg(h.gpu));
	h_launch_ok(&h, "k", H_D1(1), H_D1(NC), 0, H_ARGS(&t, &dc, &dout));
	h_read(&h, got, dout, NC * 16);
	h_fini(&h);
}

Test(tex, fetch_2d_every_mode_against_the_model)
{
	float coords[NC][2], got[NC][4], want[4];
	uint64_t s = 99;
	for (int m = 0; m < 4; m++)
		for (int f = 0; f < 2; f++)
			for (int n = 0; n < 2; n++) {
				sc_tex_desc_t d = {{m, m, m}, f, SC_READ_ELEMENT, n, {0.5f, -2, 3, 4}};
				for (int i = 0; i < NC; i++) {
					float lo = n ? -1.5f : -3, hi = n ? 2.5f : 7;
					coords[i][0] = lo + (hi - lo) * (float)(h_rand(&s) % 10000) / 10000;
					coords[i][1] = lo + (hi - lo) * (float)(h_rand(&s) % 10000) / 10000;
				}
				run_tex2d(SC_REGS_PTX, &d, got, coords);
				for (int i = 0; i < NC; i++) {
					model_fetch(&d, coords[i][0], coords[i][1], want);
					for (int c = 0; c < 4; c++)
						cr_expect(fabsf(got[i][c] - want[c]) <= 1e-5f * fmaxf(1, fabsf(want[c])),
						          "mode %d filter %d norm %d (%g, %g).%d: %g, want %g", m, f, n, coords[i][0],
						          coords[i][1], c, got[i][c], want[c]);
				}
			}
}

/* the same in alloc register mode, bit for bit, and the same cycles twice */
Test(tex, alloc_mode_and_determinism)
{
	float coords[NC][2], a[NC][4], b[NC][4];
	for (int i = 0; i < NC; i++)
		coords[i][0] = (float)i / 9 - 1, coords[i][1] = (float)(i % 7) / 2 - 1;
	sc_tex_desc_t d = {{SC_ADDR_BORDER, SC_ADDR_MIRROR, 0}, SC_FILTER_LINEAR, SC_READ_ELEMENT, false, {1, 2, 3, 4}};
	run_tex2d(SC_REGS_PTX, &d, a, coords);
	run_tex2d(SC_REGS_ALLOC, &d, b, coords);
	cr_expect_arr_eq(a, b, sizeof a);
}

/* ---------------------------------------------------------------- surfaces */
/* k(surf, out, x0): each lane reads 4 bytes at x = 4 * (tid + x0) with .zero,
 * .clamp and .trap (when x0 is 0), and stores tid with .zero at 4 * (tid + x0) */
static const char surf_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 s, .param .u64 o, .param .u32 x0, .param .u32 trap)\n"
	"{\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .pred %p<2>;\n"
	"	ld.param.u64 %rd1, [s];\n"
	"	ld.param.u64 %rd2, [o];\n"
	"	ld.param.u32 %r1, [x0];\n"
	"	ld.param.u32 %r9, [trap];\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	add.s32 %r3, %r2, %r1;\n"
	"	shl.b32 %r3, %r3, 2;\n"
	"	suld.b.1d.b32.zero {%r4}, [%rd1, {%r3}];\n"
	"	suld.b.1d.b32.clamp {%r5}, [%rd1, {%r3}];\n"
	"	setp.ne.u32 %p1, %r9, 0;\n"
	"	@%p1 suld.b.1d.b32.trap {%r5}, [%rd1, {%r3}];\n"
	"	mul.wide.u32 %rd3, %r2, 8;\n"
	"	add.s64 %rd4, %rd2, %rd3;\n"
	"	st.global.v2.u32 [%rd4], {%r4, %r5};\n"
	"	bar.sync 0;\n"
	"	sust.b.1d.b32.zero [%rd1, {%r3}], {%r2};\n"
	"	ret;\n"
	"}\n";

Test(tex, surface_out_of_range_modes)
{
	enum { W = 16, T = 32 };
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, surf_ptx);
	uint32_t init[W], got[T][2], back[W];
	for (int i = 0; i < W; i++)
		init[i] = 1000 + (uint32_t)i;
	uint64_t buf = h_alloc(&h, sizeof init, init), s, dout = h_alloc(&h, sizeof got, NULL);
	sc_resource_t r = {.kind = SC_RES_LINEAR, .dptr = buf, .ch = {{32, 0, 0, 0}, SC_CHAN_UNSIGNED}, .bytes = W * 4};
	cr_assert_eq(sc_surface_create(h.gpu, &r, &s), 0);
	uint32_t x0 = 4, trap = 0;
	h_launch_ok(&h, "k", H_D1(1), H_D1(T), 0, H_ARGS(&s, &dout, &x0, &trap));
	h_read(&h, got, dout, sizeof got);
	h_read(&h, back, buf, sizeof back);
	for (uint32_t t = 0; t < T; t++) {
		uint32_t x = t + x0;
		cr_expect_eq(got[t][0], x < W ? 1000 + x : 0, "zero: lane %u got %u", t, got[t][0]);
		cr_expect_eq(got[t][1], 1000 + (x < W ? x : W - 1), "clamp: lane %u got %u", t, got[t][1]);
	}
	for (uint32_t x = 0; x < W; x++) /* stores outside were dropped; lanes 0..11 stored at 4..15 */
		cr_expect_eq(back[x], x < x0 ? 1000 + x : x - x0);
	/* .trap outside: DUE illegal_address naming the surface */
	trap = 1;
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(T), 0, H_ARGS(&s, &dout, &x0, &trap)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, SC_DUE_ILLEGAL_ADDRESS);
	cr_expect(strstr(h_status(&h)->detail, "outside the 16x1x1 surface"), "%s", h_status(&h)->detail);
	h_fini(&h);
}

/* a misaligned x is a DUE misaligned_address; an unknown handle, a texture
 * handle given to suld, and memory freed under an object are DUEs too */
static void expect_due(uint64_t s, uint32_t x0, uint64_t free_first, sc_due_t why, const char *detail)
{
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, surf_ptx);
	uint64_t buf = h_alloc(&h, 64, NULL), dout = h_alloc(&h, 256, NULL), obj;
	sc_resource_t r = {.kind = SC_RES_LINEAR, .dptr = buf, .ch = {{32, 0, 0, 0}, SC_CHAN_UNSIGNED}, .bytes = 64};
	cr_assert_eq(sc_surface_create(h.gpu, &r, &obj), 0);
	if (s == 0)
		s = obj;
	if (free_first)
		cr_assert_eq(sc_free(h.gpu, buf), 0);
	uint32_t trap = 0;
	cr_expect_eq(h_launch(&h, "k", H_D1(1), H_D1(4), 0, H_ARGS(&s, &dout, &x0, &trap)), SC_EDUE);
	cr_expect_eq(h_status(&h)->reason, why, "%s", h_status(&h)->detail);
	cr_expect(strstr(h_status(&h)->detail, detail), "%s", h_status(&h)->detail);
	h_fini(&h);
}

Test(tex, dues)
{
	expect_due(77, 0, 0, SC_DUE_INVALID_HANDLE, "handle 77, which names no surface object");
	expect_due(0, 0, 1, SC_DUE_ILLEGAL_ADDRESS, "freed under the object");
	cr_expect_str_eq(sc_due_name(SC_DUE_INVALID_HANDLE), "invalid_handle");
}

/* ---------------------------------------------------------------- txq, suq */
Test(tex, queries)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 o)\n"
		"{\n"
		"	.reg .b32 %r<12>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [t];\n"
		"	ld.param.u64 %rd2, [s];\n"
		"	ld.param.u64 %rd3, [o];\n"
		"	txq.width.b32 %r1, [%rd1];\n"
		"	txq.height.b32 %r2, [%rd1];\n"
		"	txq.channel_data_type.b32 %r3, [%rd1];\n"
		"	txq.channel_order.b32 %r4, [%rd1];\n"
		"	txq.normalized_coords.b32 %r5, [%rd1];\n"
		"	txq.filter_mode.b32 %r6, [%rd1];\n"
		"	txq.addr_mode_0.b32 %r7, [%rd1];\n"
		"	txq.array_size.b32 %r8, [%rd1];\n"
		"	suq.depth.b32 %r9, [%rd2];\n"
		"	suq.memory_layout.b32 %r10, [%rd2];\n"
		"	st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
		"	st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
		"	st.global.v2.u32 [%rd3+32], {%r9, %r10};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	sc_array_t a = {.ch = {{8, 8, 0, 0}, SC_CHAN_UNSIGNED}, .width = 7, .height = 2, .depth = 3,
	                .flags = SC_ARRAY_LAYERED};
	cr_assert_eq(sc_array_alloc(h.gpu, &a), 0);
	sc_resource_t r = {.kind = SC_RES_ARRAY, .array = a};
	sc_tex_desc_t d = {{SC_ADDR_MIRROR, 0, 0}, SC_FILTER_LINEAR, SC_READ_NORMALIZED, true, {0}};
	uint64_t t, s, dout = h_alloc(&h, 40, NULL);
	cr_assert_eq(sc_texture_create(h.gpu, &r, &d, &t), 0);
	cr_assert_eq(sc_surface_create(h.gpu, &r, &s), 0);
	h_launch_ok(&h, "k", H_D1(1), H_D1(1), 0, H_ARGS(&t, &s, &dout));
	uint32_t q[10];
	h_read(&h, q, dout, sizeof q);
	/* OpenCL's CL_UNORM_INT8 and CL_RG */
	const uint32_t want[10] = {7, 2, 0x10D2, 0x10B2, 1, 1, SC_ADDR_MIRROR, 3, 1, 0};
	cr_expect_arr_eq(q, want, sizeof q);
	h_fini(&h);
}

/* ---------------------------------------------------------------- parsing */
Test(tex, lowering_messages)
{
	static const struct { const char *insn, *msg; } cases[] = {
		{"tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", "needs a geometry"},
		{"tex.2d.v2.f32.f32 {%f1, %f2}, [%rd1, {%f5, %f6}];", "needs '.v4'"},
		{"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", "takes 2 coordinates"},
		{"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f3}];", "destinations in both halves"},
		{"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [gv, {%f5, %f6}];", "texture references are not supported"},
		{"tex.2d.v4.f64.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", "type not supported"},
		{"tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}];", "needs a geometry (.2d)"},
		{"tld4.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", "needs a channel"},
		{"suld.p.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];", "(.p) is not supported"},
		{"suld.b.2d.b32.trap {%r1, %r4}, [%rd1, {%r2, %r3}];", "needs 1 value"},
		{"sust.b.1d.b32.trap [%rd1, {%r2}], {_};", "a stored value cannot be '_'"},
		{"txq.bogus.b32 %r1, [%rd1];", "needs a query"},
		{"suq.filter_mode.b32 %r1, [%rd1];", "needs a query"},
		{"ld.global.u32 %r1, [%rd1, {%r2}];", "expected an address in brackets"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char ptx[1024];
		snprintf(ptx, sizeof ptx, H_PTX_HEAD ".global .u32 gv;\n.visible .entry k()\n{\n"
		         "	.reg .b32 %%r<8>;\n	.reg .f32 %%f<8>;\n	.reg .b64 %%rd<4>;\n	%s\n	ret;\n}\n",
		         cases[i].insn);
		h_ctx_t h;
		h_init(&h);
		cr_expect_eq(h_load(&h, ptx), SC_EPARSE, "%s: loaded", cases[i].insn);
		cr_expect(strstr(sc_gpu_errmsg(h.gpu), cases[i].msg), "%s: '%s'", cases[i].insn, sc_gpu_errmsg(h.gpu));
		h_fini(&h);
	}
}

/* nvcc's forms load, lower to valid words and disassemble */
Test(tex, nvcc_forms_lower_to_valid_words)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 t)\n"
		"{\n"
		"	.reg .b16 %rs<4>;\n	.reg .b32 %r<20>;\n	.reg .f32 %f<40>;\n	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [t];\n"
		"	tex.3d.v4.f32.f32 {%f14, %f15, %f16, %f17}, [%rd1, {%f1, %f13, %f12, %f12}];\n"
		"	tex.level.2d.v4.f32.f32 {%f19, %f20, %f21, %f22}, [%rd1, {%f1, %f13}], %f18;\n"
		"	tex.grad.2d.v4.f32.f32 {%f19, %f20, %f21, %f22}, [%rd1, {%f1, %f13}], {%f2, %f3}, {%f4, %f5};\n"
		"	tld4.g.2d.v4.f32.f32 {%f23, %f24, %f25, %f26}, [%rd1, {%f1, %f13}];\n"
		"	tex.1d.v4.s32.f32 {%r2, %r3, %r4, %r5}, [%rd1, {%f1}];\n"
		"	tex.a2d.v4.f32.f32 {%f27, %f28, %f29, %f30}, [%rd1, {%r6, %f1, %f13, %f13}];\n"
		"	tex.a1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r6, %r7}];\n"
		"	suld.b.2d.b8.zero {%rs1}, [%rd1, {%r1, %r7}];\n"
		"	suld.b.2d.v4.b32.clamp {%r9, %r10, %r11, %r12}, [%rd1, {%r8, %r7}];\n"
		"	sust.b.3d.v2.b32.trap [%rd1, {%r13, %r17, %r16, %r16}], {%r15, %r14};\n"
		"	sust.b.a2d.v4.b16.trap [%rd1, {%r16, %r18, %r17, %r17}], {%rs1, %rs2, %rs3, %rs1};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ptx);
	unsigned tex = 0;
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		cr_expect(sc__insn_valid(&m->code[pc]), "pc %u", pc);
		tex += m->code[pc].op >= SC_OP_TEX && m->code[pc].op <= SC_OP_SUST;
		char buf[256];
		cr_expect_gt(sc_disasm_pc(m, pc, buf, sizeof buf), 0);
	}
	cr_expect_eq(tex, 2u + 2 + 2 + 2 + 2 + 2 + 2 + 1 + 2 + 1 + 2, "one word per two components");
	h_fini(&h);
}

/* the PTX writer writes the words back as PTX that lowers to the same words */
Test(tex, emitted_ptx_loads_again)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 t)\n"
		"{\n"
		"	.reg .b32 %r<20>;\n	.reg .f32 %f<40>;\n	.reg .b64 %rd<4>;\n"
		"	ld.param.u64 %rd1, [t];\n"
		"	tex.a2d.v4.f32.f32 {%f27, %f28, %f29, %f30}, [%rd1, {%r6, %f1, %f13, %f13}];\n"
		"	tld4.a.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, 0f3F000000}];\n"
		"	suld.b.1d.v2.b64.clamp {%rd2, %rd3}, [%rd1, {%r7}];\n"
		"	sust.b.a1d.v2.b32.zero [%rd1, {%r16, %r18}], {%r15, %r14};\n"
		"	suq.array_size.b32 %r9, [%rd1];\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	sc_module_t *m = h_load_ok(&h, ptx);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(sc_module_emit_ptx(m, f), 0);
	fclose(f);
	cr_expect(strstr(text, "tld4.a.2d.v4.s32.f32 {_, _, %r3, %r4}, [%rd1, {%f1, 0f3F000000}]"), "%s", text);
	h_ctx_t h2;
	h_init(&h2);
	sc_module_t *m2 = h_load_ok(&h2, text);
	cr_assert_eq(m2->ncode, m->ncode);
	for (uint32_t pc = 0; pc < m->ncode; pc++) {
		char a[256], b[256];
		sc_disasm_pc(m, pc, a, sizeof a);
		sc_disasm_pc(m2, pc, b, sizeof b);
		cr_expect_str_eq(a, b, "pc %u", pc);
	}
	free(text);
	h_fini(&h);
	h_fini(&h2);
}

/* ---------------------------------------------------------------- faults */
/* A surface load is a global load: an L1 data flip after the first suld
 * filled the line reaches the second (lane 3, bit 0), as it would an
 * ld.global; a texture fetch of the same word goes through the texture
 * cache, not the L1 (DESIGN.md, "Textures and surfaces"). One warp, a
 * one-set L1. */
static const char fault_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 s, .param .u64 t, .param .u64 o)\n"
	"{\n"
	"	.reg .b32 %r<12>;\n	.reg .f32 %f<8>;\n	.reg .b64 %rd<8>;\n	.reg .pred %p<2>;\n"
	"	ld.param.u64 %rd1, [s];\n	ld.param.u64 %rd2, [t];\n	ld.param.u64 %rd3, [o];\n"
	"	mov.u32 %r1, %tid.x;\n	shl.b32 %r2, %r1, 2;\n"
	"	suld.b.1d.b32.trap {%r3}, [%rd1, {%r2}];\n"
	"	mov.u32 %r10, 0;\n"
	"L:\n	add.u32 %r10, %r10, 1;\n	setp.lt.u32 %p1, %r10, 100;\n	@%p1 bra L;\n"
	"	suld.b.1d.b32.trap {%r4}, [%rd1, {%r2}];\n"
	"	tex.1d.v4.u32.s32 {%r5, %r6, %r7, %r8}, [%rd2, {%r1}];\n"
	"	mul.wide.u32 %rd4, %r1, 16;\n	add.s64 %rd5, %rd3, %rd4;\n"
	"	st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r1};\n"
	"	ret;\n"
	"}\n";

static int fault_rc;
static uint64_t inject_l1(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	(void)ctx, (void)cycle;
	fault_rc = sc_inject(g, SC_TGT_L1D, SC_F_CACHE_DATA, 0, 12 * 8, 1);
	return UINT64_MAX;
}

Test(tex, an_l1_flip_reaches_suld_not_tex)
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.l1_bytes = 4 * 128;
	h.cfg.l1_ways = 4;
	h_load_ok(&h, fault_ptx);
	uint32_t a[32], out[32][4];
	for (uint32_t i = 0; i < 32; i++)
		a[i] = 0x1000u + 7 * i;
	uint64_t da = h_alloc(&h, sizeof a, a), dout = h_alloc(&h, sizeof out, NULL), s, t;
	sc_resource_t r = {.kind = SC_RES_LINEAR, .dptr = da, .ch = {{32, 0, 0, 0}, SC_CHAN_UNSIGNED}, .bytes = sizeof a};
	cr_assert_eq(sc_surface_create(h.gpu, &r, &s), 0);
	cr_assert_eq(sc_texture_create(h.gpu, &r, &clamp_point, &t), 0);
	sc_set_pause(h.gpu, 1000, inject_l1, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(32), 0, H_ARGS(&s, &t, &dout));
	h_read(&h, out, dout, sizeof out);
	cr_assert_eq(fault_rc, 1, "the line was in the L1 at the pause");
	for (uint32_t l = 0; l < 32; l++) {
		cr_expect_eq(out[l][0], a[l], "before the fault: lane %u", l);
		cr_expect_eq(out[l][1], a[l] ^ (l == 3), "the corrupted hit: lane %u", l);
		cr_expect_eq(out[l][2], a[l], "the texture cache serves tex: lane %u", l);
	}
	h_fini(&h);
}

/* ---------------------------------------------------------------- the texture cache
 * out[4 tid + 0..3]: tex of word tid (a miss that fills line A), then after
 * the wait the same fetch again (r4), four fetches of the next lines (with
 * a one-set, 4-way cache they evict A), a second wait, and word tid once
 * more (r5, a refetch). */
static const char tc_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 t, .param .u64 o)\n"
	"{\n"
	"	.reg .b32 %r<20>;\n	.reg .b64 %rd<8>;\n	.reg .pred %p<2>;\n"
	"	ld.param.u64 %rd2, [t];\n	ld.param.u64 %rd3, [o];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	tex.1d.v4.u32.s32 {%r3, _, _, _}, [%rd2, {%r1}];\n"
	"	mov.u32 %r10, 0;\n"
	"L:\n	add.u32 %r10, %r10, 1;\n	setp.lt.u32 %p1, %r10, 100;\n	@%p1 bra L;\n"
	"	tex.1d.v4.u32.s32 {%r4, _, _, _}, [%rd2, {%r1}];\n"
	"	add.u32 %r11, %r1, 32;\n	tex.1d.v4.u32.s32 {%r12, _, _, _}, [%rd2, {%r11}];\n"
	"	add.u32 %r11, %r1, 64;\n	tex.1d.v4.u32.s32 {%r13, _, _, _}, [%rd2, {%r11}];\n"
	"	add.u32 %r11, %r1, 96;\n	tex.1d.v4.u32.s32 {%r14, _, _, _}, [%rd2, {%r11}];\n"
	"	add.u32 %r11, %r1, 128;\n	tex.1d.v4.u32.s32 {%r15, _, _, _}, [%rd2, {%r11}];\n"
	"	add.u32 %r12, %r12, %r13;\n	add.u32 %r12, %r12, %r14;\n	add.u32 %r12, %r12, %r15;\n"
	"	mov.u32 %r10, 0;\n"
	"M:\n	add.u32 %r10, %r10, 1;\n	setp.lt.u32 %p1, %r10, 100;\n	@%p1 bra M;\n"
	"	tex.1d.v4.u32.s32 {%r5, _, _, _}, [%rd2, {%r1}];\n"
	"	mul.wide.u32 %rd4, %r1, 16;\n	add.s64 %rd5, %rd3, %rd4;\n"
	"	st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r12};\n"
	"	ret;\n"
	"}\n";

#define TC_WORDS 160 /* five lines */
#define TC_PAUSE 1000 /* in the first wait */

typedef struct tc_plan {
	uint64_t at[3];   /* pauses: the fault (at[0]), in the first wait, in the second */
	uint32_t k;
	sc_target_t t;
	uint64_t loc;     /* a data bit (fields data only) */
	bool inject;
	int rc;
	uint64_t hash[3];
} tc_plan_t;

static uint64_t tc_pause(sc_gpu_t *g, void *ctx, uint64_t cycle)
{
	tc_plan_t *p = ctx;
	(void)cycle;
	if (p->k == 0 && p->inject)
		p->rc = sc_inject(g, p->t, SC_F_CACHE_DATA, 0, p->loc, 1);
	p->hash[p->k++] = sc_state_hash(g);
	return p->k < 3 ? p->at[p->k] : UINT64_MAX;
}

/* The texture cache's line hits and misses in tc_run's launch. */
static uint64_t tc_hits, tc_misses;

/* Runs ptx (tc_ptx's parameters) on gtx480 with `threads` threads, a
 * one-set, 4-way texture cache of tex_bytes (0: none) and an L1 of
 * l1_bytes in one set; out[32][4]; returns the cycles (tc_hits and
 * tc_misses the counts). */
static uint64_t tc_run(const char *ptx, uint32_t threads, uint32_t tex_bytes, uint32_t l1_bytes, tc_plan_t *p,
                       uint32_t out[32][4])
{
	h_ctx_t h;
	h_init(&h);
	h.cfg.tex_bytes = tex_bytes;
	h.cfg.tex_ways = 4;
	h.cfg.l1_bytes = l1_bytes;
	h.cfg.l1_ways = 4;
	h_load_ok(&h, ptx);
	uint32_t a[TC_WORDS];
	for (uint32_t i = 0; i < TC_WORDS; i++)
		a[i] = 0x1000u + 7 * i;
	uint64_t da = h_alloc(&h, sizeof a, a), dout = h_alloc(&h, 32 * 16, NULL), t;
	sc_resource_t r = {.kind = SC_RES_LINEAR, .dptr = da, .ch = {{32, 0, 0, 0}, SC_CHAN_UNSIGNED}, .bytes = sizeof a};
	cr_assert_eq(sc_texture_create(h.gpu, &r, &clamp_point, &t), 0);
	if (p)
		sc_set_pause(h.gpu, p->at[0], tc_pause, p);
	h_launch_ok(&h, "k", H_D1(1), H_D1(threads), 0, H_ARGS(&t, &dout));
	h_read(&h, out, dout, 32 * 16);
	uint64_t cycles = h_last(&h)->cycles;
	tc_hits = h_last(&h)->tex_hits;
	tc_misses = h_last(&h)->tex_misses;
	h_fini(&h);
	for (uint32_t l = 0; ptx == tc_ptx && l < threads; l++) {
		uint32_t sum = 0;
		for (uint32_t j = 1; j <= 4; j++)
			sum += 0x1000u + 7 * (l + 32 * j);
		cr_expect_eq(out[l][3], sum, "the other lines: lane %u", l);
	}
	return cycles;
}

/* Word tid, then (once it is there) word tid again: a hit where the first
 * filled the line. */
static const char tc_time_ptx[] = H_PTX_HEAD
	".visible .entry k(.param .u64 t, .param .u64 o)\n"
	"{\n"
	"	.reg .b32 %r<20>;\n	.reg .b64 %rd<8>;\n"
	"	ld.param.u64 %rd2, [t];\n	ld.param.u64 %rd3, [o];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	tex.1d.v4.u32.s32 {%r3, _, _, _}, [%rd2, {%r1}];\n"
	"	and.b32 %r11, %r3, 0;\n	add.u32 %r11, %r11, %r1;\n"
	"	tex.1d.v4.u32.s32 {%r4, _, _, _}, [%rd2, {%r11}];\n"
	"	mul.wide.u32 %rd4, %r1, 16;\n	add.s64 %rd5, %rd3, %rd4;\n"
	"	st.global.v4.u32 [%rd5], {%r3, %r4, %r1, %r1};\n"
	"	ret;\n"
	"}\n";

/* The second fetch hits at an L1 hit's latency, as on a GPU whose L1
 * serves textures; without either cache it goes to the L2 again. */
Test(tex, the_texture_cache_times_hits_and_misses)
{
	uint32_t out[32][4];
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	uint64_t tc = tc_run(tc_time_ptx, 32, 4 * 128, 0, NULL, out), l1 = tc_run(tc_time_ptx, 32, 0, 4 * 128, NULL, out);
	uint64_t none = tc_run(tc_time_ptx, 32, 0, 0, NULL, out);
	cr_expect_eq(out[5][1], 0x1000u + 7 * 5);
	cr_expect_eq(tc, l1, "the texture cache times as the L1 does");
	cr_expect_eq(none - tc, (uint64_t)(c.l2_latency - c.latency[SC_LAT_GLOBAL]), "an L2 round trip for the hit");
}

/* tc_ptx's fetches in --stats: the first misses, the second hits, the
 * four next lines miss, the last misses (its line was evicted); without a
 * texture cache the L1 serves them and the texture counts stay 0. */
Test(tex, the_texture_cache_counts_hits_and_misses)
{
	uint32_t out[32][4];
	tc_run(tc_ptx, 32, 4 * 128, 0, NULL, out);
	cr_expect_eq(tc_hits, 1);
	cr_expect_eq(tc_misses, 6);
	tc_run(tc_ptx, 32, 0, 4 * 128, NULL, out);
	cr_expect_eq(tc_hits + tc_misses, 0, "no texture cache: %llu hits, %llu misses", (unsigned long long)tc_hits,
	             (unsigned long long)tc_misses);
}

/* A data flip in the line that holds word 3 (lane 3's texel, bit 0) is
 * read by the fetch after it; the fetch after the line's eviction reads
 * memory again. */
Test(tex, a_texcache_flip_reaches_tex_until_the_line_leaves)
{
	uint32_t gold[32][4], out[32][4];
	tc_plan_t p = {.at = {TC_PAUSE, TC_PAUSE + 100, TC_PAUSE + 200}, .t = SC_TGT_TEXCACHE, .loc = 12 * 8,
	               .inject = true};
	uint64_t cg = tc_run(tc_ptx, 32, 4 * 128, 0, NULL, gold);
	uint64_t cp = tc_run(tc_ptx, 32, 4 * 128, 0, &p, out);
	cr_assert_eq(p.rc, 1, "line A is in the texture cache at the pause");
	cr_expect_eq(cp, cg, "the same time");
	for (uint32_t l = 0; l < 32; l++) {
		uint32_t a = 0x1000u + 7 * l;
		cr_expect_eq(out[l][0], a, "before the fault: lane %u", l);
		cr_expect_eq(out[l][1], a ^ (l == 3), "the corrupted hit: lane %u", l);
		cr_expect_eq(out[l][2], a, "refetched after the eviction: lane %u", l);
	}
	/* a line not held (slot 1 of the set: only A is there): masked */
	tc_plan_t q = p;
	q.k = 0, q.loc = 128 * 8 + 12 * 8;
	tc_run(tc_ptx, 32, 4 * 128, 0, &q, out);
	cr_expect_eq(q.rc, 0, "an invalid line's bit is unused");
	cr_expect_arr_eq(out, gold, sizeof out);
}

/* 16 threads read bytes 0..63 of line A: a flip in byte 100 is never read.
 * The state hash holds it while the line is there and is the golden run's
 * once the fetches of the other lines evicted it (early termination). */
Test(tex, the_hash_covers_the_texcache_until_the_line_leaves)
{
	uint32_t gold[32][4], out[32][4];
	tc_plan_t g = {.at = {TC_PAUSE, TC_PAUSE + 100, 0}};
	uint64_t cg = tc_run(tc_ptx, 16, 4 * 128, 0, NULL, gold);
	g.at[2] = cg - 100; /* in the second wait, after the evicting fetches */
	tc_plan_t p = g;
	p.t = SC_TGT_TEXCACHE, p.loc = 100 * 8 + 2, p.inject = true;
	tc_run(tc_ptx, 16, 4 * 128, 0, &g, gold);
	tc_run(tc_ptx, 16, 4 * 128, 0, &p, out);
	cr_assert_eq(p.rc, 1);
	cr_expect_arr_eq(out, gold, sizeof out, "never read: masked");
	cr_expect_neq(p.hash[1], g.hash[1], "a corrupted line is state");
	cr_expect_eq(p.hash[2], g.hash[2], "the corruption left with the line");
}

/* Without a texture cache (tex_bytes 0: V100, H100) the L1 serves
 * textures: its flip reaches tex, and there is no texcache target. */
Test(tex, the_l1_serves_textures_without_a_texture_cache)
{
	uint32_t out[32][4];
	tc_plan_t p = {.at = {TC_PAUSE, TC_PAUSE + 100, TC_PAUSE + 200}, .t = SC_TGT_L1D, .loc = 12 * 8, .inject = true};
	tc_run(tc_ptx, 32, 0, 4 * 128, &p, out);
	cr_assert_eq(p.rc, 1);
	for (uint32_t l = 0; l < 32; l++)
		cr_expect_eq(out[l][1], (0x1000u + 7 * l) ^ (l == 3), "lane %u", l);
	sc_gpu_config_t c;
	sc_config_gtx480(&c);
	cr_expect_eq(sc_target_bits(&c, SC_TGT_TEXCACHE, 0, NULL), 4ull * 24 * (128 * 8 + 31), "4 sets of 24 ways, 31-bit tags");
	c.tex_bytes = 0;
	cr_expect_eq(sc_target_bits(&c, SC_TGT_TEXCACHE, 0, NULL), 0u);
	cr_expect_str_eq(sc_target_name(SC_TGT_TEXCACHE), "texcache");
}
