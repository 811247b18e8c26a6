/* Warp-level instructions and special registers (simcore/sm.c ex_warp,
 * sreg_value): shfl.sync in every mode against a host model of the PTX
 * ISA pseudo-code (clamp and segment masks included), and %laneid,
 * %lanemask_*, %tid/%ntid/%ctaid/%nctaid in three dimensions. shfl and vote
 * in divergent code with partial member masks, and activemask, are
 * plain-text cases (tests/simcore/insn/warp.txt). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- shfl */

enum { UP, DOWN, BFLY, IDX };
static const char *const mode_name[] = {"up", "down", "bfly", "idx"};

/* The PTX ISA's shfl.sync pseudo-code for lane `lane` with its b and c;
 * returns the source lane (the lane itself when out of range) and sets *pv. */
static uint32_t shfl_src(int mode, uint32_t lane, uint32_t b, uint32_t c, bool *pv)
{
	uint32_t bval = b & 0x1f, cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
	uint32_t maxl = (lane & segmask) | (cval & ~segmask);
	uint32_t minl = lane & segmask;
	int32_t j;
	switch (mode) {
	case UP: j = (int32_t)lane - (int32_t)bval; *pv = j >= (int32_t)maxl; break;
	case DOWN: j = (int32_t)(lane + bval); *pv = j <= (int32_t)maxl; break;
	case BFLY: j = (int32_t)(lane ^ bval); *pv = j <= (int32_t)maxl; break;
	default: j = (int32_t)(minl | (bval & ~segmask)); *pv = j <= (int32_t)maxl; break;
	}
	return *pv ? (uint32_t)j : lane;
}

/* One kernel per mode: b and c from parameters, each lane's own b is
 * b + lane * bstep; out[lane] = {value read, predicate}. */
#define SHFL_KERNEL(mode)                                                            \
	".visible .entry shfl_" mode "(.param .u64 out, .param .u32 b, .param .u32 bstep, .param .u32 c)\n" \
	"{\n"                                                                            \
	"	.reg .b32 %r<10>;\n"                                                         \
	"	.reg .b64 %rd<4>;\n"                                                         \
	"	.reg .pred %p1;\n"                                                           \
	"	mov.u32 %r0, %laneid;\n"                                                     \
	"	mad.lo.u32 %r1, %r0, 1000, 77;\n"                                            \
	"	ld.param.u32 %r2, [b];\n"                                                    \
	"	ld.param.u32 %r3, [bstep];\n"                                                \
	"	mad.lo.u32 %r2, %r0, %r3, %r2;\n"                                            \
	"	ld.param.u32 %r4, [c];\n"                                                    \
	"	shfl.sync." mode ".b32 %r5|%p1, %r1, %r2, %r4, 0xffffffff;\n"              \
	"	selp.u32 %r6, 1, 0, %p1;\n"                                                  \
	"	ld.param.u64 %rd1, [out];\n"                                                 \
	"	mul.wide.u32 %rd2, %r0, 8;\n"                                                \
	"	add.s64 %rd1, %rd1, %rd2;\n"                                                 \
	"	st.global.v2.u32 [%rd1], {%r5, %r6};\n"                                      \
	"	ret;\n"                                                                      \
	"}\n"

Test(warp, shfl_modes_clamp_segments)
{
	static const char ptx[] = H_PTX_HEAD SHFL_KERNEL("up") SHFL_KERNEL("down") SHFL_KERNEL("bfly")
		SHFL_KERNEL("idx");
	/* c: 0x1f whole warp; 0 (shfl.up's usual); segments of 16, 8, 4, 2 as
	 * CUDA's width argument makes them ((32 - width) << 8 | clamp); a
	 * segment mask with a clamp inside the segment; odd masks. */
	static const uint32_t cs[] = {0x1f, 0x0, 0x101f, 0x180f, 0x181f, 0x1c1f, 0x1e1f, 0x1800, 0x1c00,
	                              0x1007, 0x0c17, 0x1f1f, 0x0005, 0xffffff1f};
	static const uint32_t bs[] = {0, 1, 2, 3, 5, 8, 16, 31, 37};
	static const uint32_t steps[] = {0, 1, 7};
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 32 * 8, NULL);
	unsigned checked = 0;
	for (int mode = 0; mode < 4; mode++) {
		char kname[16];
		snprintf(kname, sizeof kname, "shfl_%s", mode_name[mode]);
		for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++)
			for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; bi++)
				for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++) {
					uint32_t b = bs[bi], st = steps[si], c = cs[ci];
					h_launch_ok(&h, kname, H_D1(1), H_D1(32), 0, H_ARGS(&d, &b, &st, &c));
					uint32_t o[64];
					h_read(&h, o, d, sizeof o);
					for (uint32_t l = 0; l < 32; l++) {
						bool pv;
						uint32_t j = shfl_src(mode, l, b + l * st, c, &pv);
						uint32_t want = j * 1000 + 77;
						cr_expect_eq(o[2 * l], want, "%s b=%u step=%u c=0x%x lane %u: got %u, want %u (lane %u)",
						             mode_name[mode], b, st, c, l, o[2 * l], want, j);
						cr_expect_eq(o[2 * l + 1], (uint32_t)pv, "%s b=%u step=%u c=0x%x lane %u: p=%u", mode_name[mode],
						             b, st, c, l, o[2 * l + 1]);
						checked++;
					}
				}
	}
	cr_expect_eq(checked, 4u * 14 * 9 * 3 * 32);
	h_fini(&h);
}

/* ---------------------------------------------------------------- special registers */

/* A 3-D grid of 3-D blocks: every thread claims a slot with an atomic and
 * records its coordinates; the host checks that each (ctaid, tid) occurs
 * once, with the right dimensions, lane and lane masks. */
Test(warp, special_registers_3d)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out, .param .u64 cnt)\n"
		"{\n"
		"	.reg .b32 %r<24>;\n"
		"	.reg .b64 %rd<6>;\n"
		"	ld.param.u64 %rd1, [cnt];\n"
		"	atom.global.add.u32 %r0, [%rd1], 1;\n"
		"	ld.param.u64 %rd2, [out];\n"
		"	mul.wide.u32 %rd3, %r0, 80;\n"
		"	add.s64 %rd2, %rd2, %rd3;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	mov.u32 %r2, %tid.y;\n"
		"	mov.u32 %r3, %tid.z;\n"
		"	mov.u32 %r4, %ntid.x;\n"
		"	mov.u32 %r5, %ntid.y;\n"
		"	mov.u32 %r6, %ntid.z;\n"
		"	mov.u32 %r7, %ctaid.x;\n"
		"	mov.u32 %r8, %ctaid.y;\n"
		"	mov.u32 %r9, %ctaid.z;\n"
		"	mov.u32 %r10, %nctaid.x;\n"
		"	mov.u32 %r11, %nctaid.y;\n"
		"	mov.u32 %r12, %nctaid.z;\n"
		"	mov.u32 %r13, %laneid;\n"
		"	mov.u32 %r14, %lanemask_eq;\n"
		"	mov.u32 %r15, %lanemask_le;\n"
		"	mov.u32 %r16, %lanemask_lt;\n"
		"	mov.u32 %r17, %lanemask_ge;\n"
		"	mov.u32 %r18, %lanemask_gt;\n"
		"	mov.u32 %r19, %smid;\n"
		"	mov.u32 %r20, %nsmid;\n"
		"	st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
		"	st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r8};\n"
		"	st.global.v4.u32 [%rd2+32], {%r9, %r10, %r11, %r12};\n"
		"	st.global.v4.u32 [%rd2+48], {%r13, %r14, %r15, %r16};\n"
		"	st.global.v4.u32 [%rd2+64], {%r17, %r18, %r19, %r20};\n"
		"	ret;\n"
		"}\n";
	enum { GX = 3, GY = 2, GZ = 2, BX = 5, BY = 4, BZ = 3 };
	enum { NB = BX * BY * BZ, NT = GX * GY * GZ * NB, W = 20 };
	h_ctx_t h;
	h_init(&h);
	h.cfg.num_sms = 4;
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, NT * W * 4, NULL), dc = h_alloc(&h, 4, NULL);
	h_launch_ok(&h, "k", H_DIM(GX, GY, GZ), H_DIM(BX, BY, BZ), 0, H_ARGS(&d, &dc));
	static uint32_t o[NT * W];
	h_read(&h, o, d, sizeof o);
	static uint8_t seen[GX][GY][GZ][BX][BY][BZ];
	memset(seen, 0, sizeof seen);
	for (uint32_t i = 0; i < NT; i++) {
		const uint32_t *w = &o[i * W];
		uint32_t tx = w[0], ty = w[1], tz = w[2], cx = w[6], cy = w[7], cz = w[8];
		cr_assert(tx < BX && ty < BY && tz < BZ && cx < GX && cy < GY && cz < GZ,
		          "slot %u: tid (%u,%u,%u) ctaid (%u,%u,%u) out of range", i, tx, ty, tz, cx, cy, cz);
		cr_expect_eq(seen[cx][cy][cz][tx][ty][tz]++, 0, "thread (%u,%u,%u) of CTA (%u,%u,%u) twice", tx, ty, tz, cx,
		             cy, cz);
		cr_expect(w[3] == BX && w[4] == BY && w[5] == BZ, "slot %u: ntid (%u,%u,%u)", i, w[3], w[4], w[5]);
		cr_expect(w[9] == GX && w[10] == GY && w[11] == GZ, "slot %u: nctaid (%u,%u,%u)", i, w[9], w[10], w[11]);
		uint32_t lin = tx + BX * (ty + BY * tz), lane = lin % 32;
		cr_expect_eq(w[12], lane, "thread %u of a CTA: laneid %u", lin, w[12]);
		cr_expect_eq(w[13], 1u << lane);
		cr_expect_eq(w[14], lane == 31 ? 0xffffffffu : (2u << lane) - 1);
		cr_expect_eq(w[15], (1u << lane) - 1);
		cr_expect_eq(w[16], ~((1u << lane) - 1));
		cr_expect_eq(w[17], lane == 31 ? 0 : ~((2u << lane) - 1));
		cr_expect_lt(w[18], 4, "smid %u", w[18]);
		cr_expect_eq(w[19], 4, "nsmid %u", w[19]);
	}
	h_fini(&h);
}

/* %dynamic_smem_size, %total_smem_size and %warpid/%nwarpid. */
Test(warp, special_registers_misc)
{
	static const char ptx[] = H_PTX_HEAD
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.shared .align 4 .b8 s[100];\n"
		"	.reg .b32 %r<8>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	mov.u32 %r0, %tid.x;\n"
		"	mov.u32 %r1, %dynamic_smem_size;\n"
		"	mov.u32 %r2, %total_smem_size;\n"
		"	mov.u32 %r3, %warpid;\n"
		"	mov.u32 %r4, %nwarpid;\n"
		"	mov.u32 %r5, s;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	mul.wide.u32 %rd2, %r0, 16;\n"
		"	add.s64 %rd1, %rd1, %rd2;\n"
		"	st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
		"	ret;\n"
		"}\n";
	h_ctx_t h;
	h_init(&h);
	h_load_ok(&h, ptx);
	uint64_t d = h_alloc(&h, 64 * 16, NULL);
	h_launch_ok(&h, "k", H_D1(1), H_D1(64), 200, H_ARGS(&d));
	uint32_t o[256];
	h_read(&h, o, d, sizeof o);
	for (uint32_t t = 0; t < 64; t++) {
		cr_expect_eq(o[4 * t], 200, "dynamic_smem_size %u", o[4 * t]);
		cr_expect_geq(o[4 * t + 1], 300, "total_smem_size %u", o[4 * t + 1]);
		cr_expect_lt(o[4 * t + 2], o[4 * t + 3], "warpid %u of %u", o[4 * t + 2], o[4 * t + 3]);
		cr_expect_eq(o[4 * t + 2], o[4 * (t & ~31u) + 2], "warpid differs within a warp");
	}
	cr_expect_neq(o[2], o[4 * 32 + 2], "two warps with one warpid");
	h_fini(&h);
}
