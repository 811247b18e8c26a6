/* Specialised handlers for the instructions that dominate real kernels:
 * 32-bit integer arithmetic and shifts, 64-bit address arithmetic, integer
 * comparisons, f32 add/sub/mul/fma and register moves, on 32-bit lanes
 * straight from the register file. Each computes exactly what the generic
 * path (sc__x_alu, sem_*.c) computes for the words sc__fast_pick gives it;
 * tests/simcore/test_decode.c compares the two on random values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

#define UNUSED2(g, sm) ((void)(g), (void)(sm))

/* Runs body for lane l of mask: a plain loop when the warp is converged. */
#define LANES(mask, ...)                                                    \
	do {                                                                    \
		uint32_t m_ = (mask);                                               \
		if (m_ == 0xffffffffu) {                                            \
			for (uint32_t l = 0; l < 32; l++) {                             \
				__VA_ARGS__;                                                \
			}                                                               \
		} else {                                                            \
			for (; m_; m_ &= m_ - 1) {                                      \
				uint32_t l = (uint32_t)__builtin_ctz(m_);                   \
				__VA_ARGS__;                                                \
			}                                                               \
		}                                                                   \
	} while (0)

#define HANDLER(name) static int name(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec)

/* The lane loops of the commonest handlers (32-bit arithmetic, f32 add,
 * sub, mul and fma, comparisons, 64-bit address arithmetic, special
 * registers, parameter loads) also built for AVX2 (no FMA), as exec.c's
 * lane_addrs_all is; the loader picks by the host CPU. Twice the lanes per
 * instruction, the same results: IEEE operations one by one (-std=c11
 * keeps -ffp-contract=off), in the same rounding mode. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HOT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define HOT_CLONES
#endif

/* An ALU handler's first statement: a word no lane executes writes nothing
 * and retires at once, as the generic ALU path has it. */
#define ALU_PROLOGUE()                                                      \
	UNUSED2(g, sm);                                                         \
	if (!exec)                                                              \
		return 1


/* An f32 result as sem_fp.c writes it without .ftz/.sat: NaN canonical. */
static inline uint32_t fout(float r)
{
	uint32_t u = sc__bits32(r);
	return (u & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : u;
}

/* ---- 32-bit binary operations: d = f(a, b), b a register or a constant */
#define BIN32(name, expr)                                                   \
	HOT_CLONES HANDLER(name##_rr)                                           \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		uint32_t *r = w->rf + d->o[0];                                      \
		const uint32_t *A = w->rf + d->o[1], *B = w->rf + d->o[2];          \
		LANES(exec, uint32_t a = A[l]; uint32_t b = B[l]; r[l] = (expr));   \
		return (int)d->lat;                                                 \
	}                                                                       \
	HOT_CLONES HANDLER(name##_ri)                                           \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		uint32_t *r = w->rf + d->o[0];                                      \
		const uint32_t *A = w->rf + d->o[1], b = (uint32_t)d->k[2];         \
		LANES(exec, uint32_t a = A[l]; r[l] = (expr));                      \
		return (int)d->lat;                                                 \
	}

BIN32(add32, a + b)
BIN32(sub32, a - b)
BIN32(mul32, a * b)
BIN32(and32, a & b)
BIN32(or32, a | b)
BIN32(xor32, a ^ b)
BIN32(shl32, b < 32 ? a << b : 0)
BIN32(shr32, b < 32 ? a >> b : 0)
BIN32(sar32, (uint32_t)((int32_t)a >> (b < 32 ? b : 31)))
BIN32(minu32, a < b ? a : b)
BIN32(maxu32, a > b ? a : b)
BIN32(mins32, (int32_t)a < (int32_t)b ? a : b)
BIN32(maxs32, (int32_t)a > (int32_t)b ? a : b)
BIN32(fadd, fout(sc__f32_of(a) + sc__f32_of(b)))
BIN32(fsub, fout(sc__f32_of(a) - sc__f32_of(b)))
BIN32(fmul, fout(sc__f32_of(a) * sc__f32_of(b)))

/* ---- three sources, each a register or a constant -------------------- */
/* Source j's 32 lanes: the register's own, or the constant's broadcast
 * into v. Loops over the result then run with unit stride and vectorise. */
static inline const uint32_t *lanes32(const sc_warp_t *w, const sc_dec_t *d, unsigned j, uint32_t v[32])
{
	if (SC_OPND_KIND(d->in->opnd[j]) != SC_K_IMM)
		return w->rf + d->o[j];
	for (uint32_t l = 0; l < 32; l++)
		v[l] = (uint32_t)d->k[j];
	return v;
}

/* Writes t to r's lanes of exec. */
static inline void put32(uint32_t *r, const uint32_t t[32], uint32_t exec)
{
	if (exec == 0xffffffffu)
		memcpy(r, t, 32 * sizeof *t);
	else
		LANES(exec, r[l] = t[l]);
}

/* Pure lane functions are computed for all 32 lanes (every lane's
 * registers exist; nothing traps), then written to the lanes of exec. */
#define TER32(name, expr)                                                   \
	HOT_CLONES HANDLER(name)                                                \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		uint32_t va[32], vb[32], vc[32], t[32];                             \
		const uint32_t *A = lanes32(w, d, 1, va), *B = lanes32(w, d, 2, vb); \
		const uint32_t *C = lanes32(w, d, 3, vc);                           \
		for (uint32_t l = 0; l < 32; l++) {                                 \
			uint32_t a = A[l], b = B[l], c = C[l];                          \
			t[l] = (expr);                                                  \
		}                                                                   \
		put32(w->rf + d->o[0], t, exec);                                    \
		return (int)d->lat;                                                 \
	}

TER32(mad32, a * b + c)
TER32(fma32, fout(fmaf(sc__f32_of(a), sc__f32_of(b), sc__f32_of(c))))

/* fma.rn.f32 where the host has AVX2 and FMA (x86-64 since 2013): eight
 * lanes per instruction, the same correctly rounded results as libm's
 * fmaf (which the baseline x86-64 ISA computes in software, lane by lane)
 * and NaNs made canonical as fout does. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FMA_CLONE 1
__attribute__((target("avx2,fma"))) HANDLER(fma32_hw)
{
	ALU_PROLOGUE();
	uint32_t va[32], vb[32], vc[32], t[32];
	const uint32_t *A = lanes32(w, d, 1, va), *B = lanes32(w, d, 2, vb), *C = lanes32(w, d, 3, vc);
	const __m256i abs = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
	for (uint32_t l = 0; l < 32; l += 8) {
		__m256 a = _mm256_loadu_ps((const float *)(A + l)), b = _mm256_loadu_ps((const float *)(B + l));
		__m256 c = _mm256_loadu_ps((const float *)(C + l));
		__m256i u = _mm256_castps_si256(_mm256_fmadd_ps(a, b, c));
		__m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs), inf);
		_mm256_storeu_si256((__m256i *)(t + l), _mm256_blendv_epi8(u, abs, nan));
	}
	put32(w->rf + d->o[0], t, exec);
	return (int)d->lat;
}

/* FLIPSIM_PORTABLE set (to anything but 0) keeps to the baseline ISA's
 * handlers: the same results, for checking that they are. */
static bool host_has_fma(void)
{
	const char *p = getenv("FLIPSIM_PORTABLE");
	if (p && *p && strcmp(p, "0") != 0)
		return false;
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

/* ---- 64-bit: add, shl, mul.wide, widening and narrowing cvt ----------- */
static inline uint64_t r64(const uint32_t *p, uint32_t l) { return p[l] | (uint64_t)p[l + 32] << 32; }
static inline void w64(uint32_t *p, uint32_t l, uint64_t v)
{
	p[l] = (uint32_t)v;
	p[l + 32] = (uint32_t)(v >> 32);
}

/* A 64-bit result: computed into t for every lane first (the loop has no
 * stores that could alias its sources, so it vectorises), then written
 * to the lanes of exec. */
#define RES64(exec, r, expr)                                                \
	do {                                                                    \
		uint64_t t[32];                                                     \
		if ((exec) == 0xffffffffu) {                                        \
			for (uint32_t l = 0; l < 32; l++)                               \
				t[l] = (expr);                                              \
			for (uint32_t l = 0; l < 32; l++)                               \
				w64(r, l, t[l]);                                            \
		} else {                                                            \
			LANES(exec, w64(r, l, (expr)));                                 \
		}                                                                   \
	} while (0)

/* A 64-bit result given as its 32-bit halves for all 32 lanes (loops on
 * halves vectorise where 64-bit lanes would not), written to exec's lanes. */
static inline void put64(uint32_t *r, const uint32_t lo[32], const uint32_t hi[32], uint32_t exec)
{
	if (exec == 0xffffffffu) {
		memcpy(r, lo, 32 * sizeof *lo);
		memcpy(r + 32, hi, 32 * sizeof *hi);
	} else {
		LANES(exec, r[l] = lo[l]; r[l + 32] = hi[l]);
	}
}

/* Eight lanes of one 32-bit half of a register as one value: loads and
 * stores of the register file at its own (4-byte) alignment, each clone
 * lowering the operations to its ISA. */
typedef uint32_t v8u __attribute__((vector_size(32), aligned(4), may_alias));
typedef int32_t v8s __attribute__((vector_size(32)));
#define V8(p) (*(v8u *)(p))

/* r = a + b on all 32 lanes of 64-bit registers, in halves with the carry
 * (lo < a unsigned, or lo < b: as a signed comparison with both sign bits
 * flipped, `than` the flipped a or b; the -1 of a true comparison
 * subtracted). Each group of eight lanes is read before it is written, so
 * r may be a or b. */
#define ADD64_FULL(r, A, blo, bhi, than)                                    \
	for (uint32_t h = 0; h < 32; h += 8) {                                  \
		v8u a_ = V8((A) + h), ah_ = V8((A) + 32 + h);                       \
		v8u lo_ = a_ + (blo), hi_ = ah_ + (bhi);                            \
		hi_ -= (v8u)((v8s)(lo_ ^ 0x80000000u) < (than));                    \
		V8((r) + h) = lo_;                                                  \
		V8((r) + 32 + h) = hi_;                                             \
	}

HOT_CLONES HANDLER(add64_rr)
{
	ALU_PROLOGUE();
	const uint32_t *A = w->rf + d->o[1], *B = w->rf + d->o[2];
	uint32_t *r = w->rf + d->o[0];
	if (exec == 0xffffffffu) {
		ADD64_FULL(r, A, V8(B + h), V8(B + 32 + h), (v8s)(a_ ^ 0x80000000u));
		return (int)d->lat;
	}
	uint32_t lo[32], hi[32];
	for (uint32_t l = 0; l < 32; l++) { /* in halves, with the carry */
		lo[l] = A[l] + B[l];
		hi[l] = A[l + 32] + B[l + 32] + (lo[l] < A[l]);
	}
	put64(r, lo, hi, exec);
	return (int)d->lat;
}

/* r = a + k for a 64-bit register a and a constant k, in halves: always
 * inlined, so that its vectors take the calling clone's ISA. */
static inline __attribute__((always_inline)) void add64_k(uint32_t *r, const uint32_t *A, uint64_t k, uint32_t exec)
{
	const uint32_t klo = (uint32_t)k, khi = (uint32_t)(k >> 32);
	if (exec == 0xffffffffu) {
		ADD64_FULL(r, A, klo, khi, (int32_t)(klo ^ 0x80000000u));
		return;
	}
	uint32_t lo[32], hi[32];
	for (uint32_t l = 0; l < 32; l++) {
		lo[l] = A[l] + klo;
		hi[l] = A[l + 32] + khi + (lo[l] < klo);
	}
	put64(r, lo, hi, exec);
}

HOT_CLONES HANDLER(add64_ri)
{
	ALU_PROLOGUE();
	add64_k(w->rf + d->o[0], w->rf + d->o[1], d->k[2], exec);
	return (int)d->lat;
}

/* shl.b64 d, a, n: n is a 32-bit register or a constant. */
HANDLER(shl64)
{
	ALU_PROLOGUE();
	uint32_t *r = w->rf + d->o[0];
	const uint32_t *A = w->rf + d->o[1];
	if (SC_OPND_KIND(d->in->opnd[2]) == SC_K_IMM) { /* one shift for the warp, in halves */
		uint32_t k = (uint32_t)d->k[2], lo[32], hi[32];
		if (k == 0 || k >= 64) {
			for (uint32_t l = 0; l < 32; l++) {
				lo[l] = k ? 0 : A[l];
				hi[l] = k ? 0 : A[l + 32];
			}
		} else if (k < 32) {
			for (uint32_t l = 0; l < 32; l++) {
				lo[l] = A[l] << k;
				hi[l] = A[l + 32] << k | A[l] >> (32 - k);
			}
		} else {
			for (uint32_t l = 0; l < 32; l++) {
				lo[l] = 0;
				hi[l] = A[l] << (k - 32);
			}
		}
		put64(r, lo, hi, exec);
	} else {
		const uint32_t *B = w->rf + d->o[2];
		RES64(exec, r, B[l] < 64 ? r64(A, l) << B[l] : 0);
	}
	return (int)d->lat;
}

/* d(64) = f(a, b) for 32-bit sources, each a register or a constant. */
#define WIDE(name, expr)                                                    \
	HOT_CLONES HANDLER(name)                                                \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		uint32_t va[32], vb[32];                                            \
		const uint32_t *A = lanes32(w, d, 1, va), *B = lanes32(w, d, 2, vb); \
		uint32_t *r = w->rf + d->o[0];                                      \
		RES64(exec, r, (expr));                                             \
		return (int)d->lat;                                                 \
	}

WIDE(mulwide_s32, (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]))
WIDE(mulwide_u32, (uint64_t)A[l] * B[l])

/* d = f(a) for a register a: a 64-bit result (UN64) or a 32-bit one
 * (UN32), the handler of an ALU unit (nothing without lanes). */
#define UNARY(name, store)                                                  \
	HANDLER(name)                                                           \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		uint32_t *r = w->rf + d->o[0];                                      \
		const uint32_t *A = w->rf + d->o[1];                                \
		store;                                                              \
		return (int)d->lat;                                                 \
	}
#define UN64(name, expr) UNARY(name, RES64(exec, r, (expr)))
#define UN32(name, expr) UNARY(name, LANES(exec, r[l] = (expr)))

/* widening cvt: the low half is the source, the high half its sign or 0 */
#define WIDEN(name, high)                                                   \
	UNARY(name, uint32_t hi[32];                                            \
	      for (uint32_t l = 0; l < 32; l++) hi[l] = (high);                 \
	      put64(r, A, hi, exec))
WIDEN(cvt_s64_s32, (uint32_t)((int32_t)A[l] >> 31))
WIDEN(cvt_u64_u32, 0)
UN32(cvt_narrow, A[l])

/* mov of a 32-bit register (the MOV unit: its latency even without lanes). */
HANDLER(copy32)
{
	UNUSED2(g, sm);
	if (!exec)
		return (int)d->lat;
	uint32_t *r = w->rf + d->o[0];
	const uint32_t *A = w->rf + d->o[1];
	LANES(exec, r[l] = A[l]);
	return (int)d->lat;
}


HANDLER(mov_imm32)
{
	UNUSED2(g, sm);
	uint32_t *r = w->rf + d->o[0];
	const uint32_t v = (uint32_t)d->k[1];
	LANES(exec, r[l] = v);
	return (int)d->lat;
}

HANDLER(mov64)
{
	UNUSED2(g, sm);
	uint32_t *r = w->rf + d->o[0];
	const uint32_t *A = w->rf + d->o[1];
	LANES(exec, r[l] = A[l]; r[l + 32] = A[l + 32]);
	return (int)d->lat;
}

HANDLER(mov_imm64)
{
	UNUSED2(g, sm);
	uint32_t *r = w->rf + d->o[0];
	const uint64_t v = d->k[1];
	LANES(exec, w64(r, l, v));
	return (int)d->lat;
}

/* mov from a special register: the ones that differ between lanes per
 * lane, the others once for the warp. */
HOT_CLONES HANDLER(mov_sreg)
{
	uint32_t *r = w->rf + d->o[0];
	unsigned sr = d->o[1] / 32; /* decode.c: the index x 32 */
	if (sr == SC_SR_TID_X) {
		uint32_t bx = g->run.block[0], t0 = w->wid * 32;
		if (t0 + 32 <= bx) /* the warp lies within one row of the block */
			LANES(exec, r[l] = t0 + l);
		else
			LANES(exec, r[l] = (t0 + l) % bx);
	} else if (sr == SC_SR_LANEID) {
		LANES(exec, r[l] = l);
	} else if (sr == SC_SR_TID_Y || sr == SC_SR_TID_Z || (sr >= SC_SR_LANEMASK_EQ && sr <= SC_SR_LANEMASK_GT)) {
		LANES(exec, r[l] = (uint32_t)sc__sreg(g, sm, w, sr, l));
	} else {
		uint32_t v = exec ? (uint32_t)sc__sreg(g, sm, w, sr, (uint32_t)__builtin_ctz(exec)) : 0;
		LANES(exec, r[l] = v);
	}
	return (int)d->lat;
}

/* cvta between generic and one space on 64-bit registers. */
HOT_CLONES HANDLER(cvta64)
{
	UNUSED2(g, sm);
	static const uint64_t win[SC_SP__COUNT] = {
		[SC_SP_SHARED] = SC_SHARED_WIN, [SC_SP_LOCAL] = SC_LOCAL_WIN, [SC_SP_CONST] = SC_CONST_WIN,
		[SC_SP_PARAM] = SC_PARAM_WIN,
	};
	uint64_t off = win[SC_AUX_SPACE(d->in->aux)];
	if (d->in->sub == SC_CVTA_FROM_GENERIC)
		off = -off;
	add64_k(w->rf + d->o[0], w->rf + d->o[1], off, exec);
	return (int)d->lat;
}

/* ---- setp on 32-bit integers, no combiner: p (and q = !p) ------------- */
static inline void setp_write(sc_warp_t *w, const sc_dec_t *d, uint32_t exec, uint32_t t)
{
	w->pf[d->o[0]] = (w->pf[d->o[0]] & ~exec) | (t & exec);
	if (SC_OPND_KIND(d->in->opnd[1]) == SC_K_PRED)
		w->pf[d->o[1]] = (w->pf[d->o[1]] & ~exec) | (~t & exec);
}

/* p = a CMP b, the operands read as `type` through `conv`: compared on
 * all 32 lanes, the bits of exec written. The lane bits gather in one OR
 * reduction, which the AVX2 clone vectorises (a variable shift per lane);
 * the baseline clone, without that shift, takes it lane by lane. */
#define SETPX(name, type, conv, expr)                                       \
	HOT_CLONES HANDLER(name)                                                \
	{                                                                       \
		ALU_PROLOGUE();                                                     \
		unsigned nd = SC_NDST(d->in);                                       \
		uint32_t va[32], vb[32];                                            \
		const uint32_t *A = lanes32(w, d, nd, va), *B = lanes32(w, d, nd + 1, vb); \
		uint32_t t = 0;                                                     \
		for (uint32_t l = 0; l < 32; l++) {                                 \
			type a = conv(A[l]), b = conv(B[l]);                            \
			t |= (uint32_t)(expr) << l;                                     \
		}                                                                   \
		setp_write(w, d, exec, t);                                          \
		return (int)d->lat;                                                 \
	}
#define SETP32(name, type, expr) SETPX(name, type, (type), expr)

SETP32(setp_eq, uint32_t, a == b)
SETP32(setp_ne, uint32_t, a != b)
SETP32(setp_ltu, uint32_t, a < b)
SETP32(setp_leu, uint32_t, a <= b)
SETP32(setp_gtu, uint32_t, a > b)
SETP32(setp_geu, uint32_t, a >= b)
SETP32(setp_lts, int32_t, a < b)
SETP32(setp_les, int32_t, a <= b)
SETP32(setp_gts, int32_t, a > b)
SETP32(setp_ges, int32_t, a >= b)

/* ---- setp on f32 (no .ftz), no combiner: ordered comparisons are false
 * on NaN, unordered ones (...u) true, as sem_cmp.c's ------------------- */
#define SETPF(name, expr) SETPX(name, float, sc__f32_of, expr)

SETPF(setpf_eq, a == b)
SETPF(setpf_ne, a < b || a > b)
SETPF(setpf_lt, a < b)
SETPF(setpf_le, a <= b)
SETPF(setpf_gt, a > b)
SETPF(setpf_ge, a >= b)
SETPF(setpf_equ, !(a < b || a > b))
SETPF(setpf_neu, a != b)
SETPF(setpf_ltu, !(a >= b))
SETPF(setpf_leu, !(a > b))
SETPF(setpf_gtu, !(a <= b))
SETPF(setpf_geu, !(a < b))
SETPF(setpf_num, a == a && b == b)
SETPF(setpf_nan, a != a || b != b)

/* ---- predicates: a source's lane bits, negated for !%p ---------------- */
static inline uint32_t pbits(const sc_warp_t *w, const sc_dec_t *d, unsigned j)
{
	uint32_t p = w->pf[d->o[j]];
	return SC_OPND_KIND(d->in->opnd[j]) == SC_K_PREDN ? ~p : p;
}

static inline int pwrite(sc_warp_t *w, const sc_dec_t *d, uint32_t exec, uint32_t bits)
{
	w->pf[d->o[0]] = (w->pf[d->o[0]] & ~exec) | (bits & exec);
	return (int)d->lat;
}

HANDLER(and_pred) { UNUSED2(g, sm); return exec ? pwrite(w, d, exec, pbits(w, d, 1) & pbits(w, d, 2)) : 1; }
HANDLER(or_pred) { UNUSED2(g, sm); return exec ? pwrite(w, d, exec, pbits(w, d, 1) | pbits(w, d, 2)) : 1; }
HANDLER(xor_pred) { UNUSED2(g, sm); return exec ? pwrite(w, d, exec, pbits(w, d, 1) ^ pbits(w, d, 2)) : 1; }
HANDLER(not_pred) { UNUSED2(g, sm); return exec ? pwrite(w, d, exec, ~pbits(w, d, 1)) : 1; }

/* selp on 32 bits: d = c ? a : b, c a predicate. */
HANDLER(selp32)
{
	ALU_PROLOGUE();
	uint32_t va[32], vb[32], c = pbits(w, d, 3);
	const uint32_t *A = lanes32(w, d, 1, va), *B = lanes32(w, d, 2, vb);
	uint32_t *r = w->rf + d->o[0];
	LANES(exec, r[l] = (c >> l) & 1 ? A[l] : B[l]);
	return (int)d->lat;
}

UN32(neg_s32, 0u - A[l])
UN32(abs_s32, (int32_t)A[l] < 0 ? 0u - A[l] : A[l])

/* ---- picking ----------------------------------------------------------- */
static bool is_r32(sc_opnd_t o) { return SC_OPND_KIND(o) == SC_K_R32; }
static bool is_r64(sc_opnd_t o) { return SC_OPND_KIND(o) == SC_K_R64; }
static bool is_imm(sc_opnd_t o) { return SC_OPND_KIND(o) == SC_K_IMM; }
static bool is_r32i(sc_opnd_t o) { return is_r32(o) || is_imm(o); }

/* d = a OP b with d, a 32-bit registers and b a register or a constant. */
static sc_exec_fn pick_bin32(const sc_insn_t *in, sc_exec_fn rr, sc_exec_fn ri)
{
	if (SC_NSRC(in) != 2 || !is_r32(in->opnd[0]) || !is_r32(in->opnd[1]))
		return NULL;
	return is_r32(in->opnd[2]) ? rr : is_imm(in->opnd[2]) ? ri : NULL;
}

#define PICK(name) pick_bin32(in, name##_rr, name##_ri)

static bool t_us32(unsigned t) { return t == SC_T_U32 || t == SC_T_S32; }

static bool is_p(sc_opnd_t o) { return SC_OPND_KIND(o) == SC_K_PRED || SC_OPND_KIND(o) == SC_K_PREDN; }

/* and or xor not on predicates: whole lane masks at once. */
static sc_exec_fn pick_pred(const sc_insn_t *in)
{
	unsigned ns = SC_NSRC(in);
	if (SC_OPND_KIND(in->opnd[0]) != SC_K_PRED || in->sub != 0 || !is_p(in->opnd[1]))
		return NULL;
	if (in->op == SC_OP_NOT)
		return ns == 1 ? not_pred : NULL;
	if (ns != 2 || !is_p(in->opnd[2]))
		return NULL;
	return in->op == SC_OP_AND ? and_pred : in->op == SC_OP_OR ? or_pred : in->op == SC_OP_XOR ? xor_pred : NULL;
}

static sc_exec_fn pick_int(const sc_insn_t *in)
{
	unsigned t = in->type;
	bool s = t == SC_T_S32;
	if (in->mods || SC_NDST(in) != 1)
		return NULL;
	if (t == SC_T_PRED)
		return pick_pred(in);
	switch (in->op) {
	case SC_OP_NEG: case SC_OP_ABS:
		if (s && in->sub == 0 && SC_NSRC(in) == 1 && is_r32(in->opnd[0]) && is_r32(in->opnd[1]))
			return in->op == SC_OP_NEG ? neg_s32 : abs_s32;
		return NULL;
	case SC_OP_ADD:
		if (t_us32(t) && in->sub == 0)
			return PICK(add32);
		if ((t == SC_T_U64 || t == SC_T_S64) && in->sub == 0 && SC_NSRC(in) == 2 && is_r64(in->opnd[0]) &&
		    is_r64(in->opnd[1]))
			return is_r64(in->opnd[2]) ? add64_rr : is_imm(in->opnd[2]) ? add64_ri : NULL;
		return NULL;
	case SC_OP_SUB: return t_us32(t) && in->sub == 0 ? PICK(sub32) : NULL;
	case SC_OP_MUL:
		if (t_us32(t) && in->sub == SC_MUL_LO)
			return PICK(mul32);
		if (t_us32(t) && in->sub == SC_MUL_WIDE && SC_NSRC(in) == 2 && is_r64(in->opnd[0]) &&
		    is_r32i(in->opnd[1]) && is_r32i(in->opnd[2]))
			return s ? mulwide_s32 : mulwide_u32;
		return NULL;
	case SC_OP_MAD:
		if (t_us32(t) && in->sub == SC_MUL_LO && SC_NSRC(in) == 3 && is_r32(in->opnd[0]) &&
		    is_r32i(in->opnd[1]) && is_r32i(in->opnd[2]) && is_r32i(in->opnd[3]))
			return mad32;
		return NULL;
	case SC_OP_MIN: return t_us32(t) && in->sub == 0 ? (s ? PICK(mins32) : PICK(minu32)) : NULL;
	case SC_OP_MAX: return t_us32(t) && in->sub == 0 ? (s ? PICK(maxs32) : PICK(maxu32)) : NULL;
	case SC_OP_AND: return t == SC_T_B32 && in->sub == 0 ? PICK(and32) : NULL;
	case SC_OP_OR: return t == SC_T_B32 && in->sub == 0 ? PICK(or32) : NULL;
	case SC_OP_XOR: return t == SC_T_B32 && in->sub == 0 ? PICK(xor32) : NULL;
	case SC_OP_SHL:
		if ((t_us32(t) || t == SC_T_B32) && in->sub == 0)
			return PICK(shl32);
		if (t == SC_T_B64 && in->sub == 0 && SC_NSRC(in) == 2 && is_r64(in->opnd[0]) && is_r64(in->opnd[1]) &&
		    is_r32i(in->opnd[2]))
			return shl64;
		return NULL;
	case SC_OP_SHR:
		if ((t == SC_T_U32 || t == SC_T_B32) && in->sub == 0)
			return PICK(shr32);
		return s && in->sub == 0 ? PICK(sar32) : NULL;
	}
	return NULL;
}

/* add sub mul fma mad on f32, rounding to nearest, no .ftz or .sat. */
static sc_exec_fn pick_fp(const sc_insn_t *in)
{
	unsigned rnd = in->mods & SC_MOD_RND_MASK;
	if (in->type != SC_T_F32 || (in->mods & ~SC_MOD_RND_MASK) || (rnd != SC_RND_NONE && rnd != SC_RND_RN) ||
	    SC_NDST(in) != 1)
		return NULL;
	switch (in->op) {
	case SC_OP_ADD: return PICK(fadd);
	case SC_OP_SUB: return PICK(fsub);
	case SC_OP_MUL: return in->sub == SC_MUL_LO ? PICK(fmul) : NULL;
	case SC_OP_MAD: case SC_OP_FMA:
		if (in->op == SC_OP_MAD && in->sub != SC_MUL_LO)
			return NULL;
		if (SC_NSRC(in) == 3 && is_r32(in->opnd[0]) && is_r32i(in->opnd[1]) && is_r32i(in->opnd[2]) &&
		    is_r32i(in->opnd[3]))
#ifdef FMA_CLONE
			return host_has_fma() ? fma32_hw : fma32;
#else
			return fma32;
#endif
		return NULL;
	}
	return NULL;
}

static sc_exec_fn pick_setp(const sc_insn_t *in)
{
	static const sc_exec_fn u[] = {
		[SC_CMP_EQ] = setp_eq, [SC_CMP_NE] = setp_ne, [SC_CMP_LT] = setp_ltu, [SC_CMP_LE] = setp_leu,
		[SC_CMP_GT] = setp_gtu, [SC_CMP_GE] = setp_geu, [SC_CMP_LO] = setp_ltu, [SC_CMP_LS] = setp_leu,
		[SC_CMP_HI] = setp_gtu, [SC_CMP_HS] = setp_geu,
	};
	static const sc_exec_fn sgn[] = {
		[SC_CMP_LT] = setp_lts, [SC_CMP_LE] = setp_les, [SC_CMP_GT] = setp_gts, [SC_CMP_GE] = setp_ges,
	};
	static const sc_exec_fn f[] = {
		[SC_CMP_EQ] = setpf_eq, [SC_CMP_NE] = setpf_ne, [SC_CMP_LT] = setpf_lt, [SC_CMP_LE] = setpf_le,
		[SC_CMP_GT] = setpf_gt, [SC_CMP_GE] = setpf_ge, [SC_CMP_EQU] = setpf_equ, [SC_CMP_NEU] = setpf_neu,
		[SC_CMP_LTU] = setpf_ltu, [SC_CMP_LEU] = setpf_leu, [SC_CMP_GTU] = setpf_gtu, [SC_CMP_GEU] = setpf_geu,
		[SC_CMP_NUM] = setpf_num, [SC_CMP_NAN] = setpf_nan,
	};
	unsigned st = in->stype, nd = SC_NDST(in), c = in->sub;
	bool fl = st == SC_T_F32 && c < SC_CMP__COUNT && f[c];
	if ((st != SC_T_S32 && st != SC_T_U32 && st != SC_T_B32 && !fl) || (!fl && c > SC_CMP_HS) || in->mods ||
	    SC_AUX_BOOL(in->aux) != SC_BOOL_NONE || nd < 1 || nd > 2 || SC_NSRC(in) != 2)
		return NULL;
	if (SC_OPND_KIND(in->opnd[0]) != SC_K_PRED ||
	    (nd == 2 && SC_OPND_KIND(in->opnd[1]) != SC_K_PRED && SC_OPND_KIND(in->opnd[1]) != SC_K_NONE) ||
	    !is_r32i(in->opnd[nd]) || !is_r32i(in->opnd[nd + 1]))
		return NULL;
	if (fl)
		return f[c];
	if (st == SC_T_S32 && c >= SC_CMP_LT && c <= SC_CMP_GE)
		return sgn[c];
	return u[c];
}

static sc_exec_fn pick_cvt(const sc_insn_t *in)
{
	unsigned st = in->stype, dt = in->type;
	if (in->mods || SC_NDST(in) != 1 || SC_NSRC(in) != 1)
		return NULL;
	bool s32 = st == SC_T_S32 || st == SC_T_U32, d64 = dt == SC_T_S64 || dt == SC_T_U64;
	bool s64 = st == SC_T_S64 || st == SC_T_U64, d32 = dt == SC_T_S32 || dt == SC_T_U32;
	if (s32 && d64 && is_r64(in->opnd[0]) && is_r32(in->opnd[1]))
		return st == SC_T_S32 ? cvt_s64_s32 : cvt_u64_u32;
	if (s64 && d32 && is_r32(in->opnd[0]) && is_r64(in->opnd[1]))
		return cvt_narrow;
	return NULL;
}

static sc_exec_fn pick_selp(const sc_insn_t *in)
{
	unsigned t = in->type;
	if ((t != SC_T_B32 && t != SC_T_U32 && t != SC_T_S32 && t != SC_T_F32) || SC_NDST(in) != 1 ||
	    SC_NSRC(in) != 3 || !is_r32(in->opnd[0]) || !is_r32i(in->opnd[1]) || !is_r32i(in->opnd[2]) ||
	    !is_p(in->opnd[3]))
		return NULL;
	return selp32;
}

/* mov between registers of one width, of a constant or of a special
 * register; cvta on 64-bit registers. */
static sc_exec_fn pick_mov(const sc_insn_t *in)
{
	if (SC_NDST(in) != 1 || SC_NSRC(in) != 1)
		return NULL;
	sc_opnd_t dst = sc__opnd(in, 0), src = sc__opnd(in, 1);
	if (in->op == SC_OP_CVTA) {
		unsigned sp = SC_AUX_SPACE(in->aux);
		bool known = sp == SC_SP_GLOBAL || sp == SC_SP_SHARED || sp == SC_SP_LOCAL || sp == SC_SP_CONST ||
		             sp == SC_SP_PARAM;
		return known && sc__type_bits(in->type) == 64 && is_r64(dst) && is_r64(src) ? cvta64 : NULL;
	}
	if (in->op != SC_OP_MOV)
		return NULL;
	if (is_r32(dst) && SC_OPND_KIND(src) == SC_K_SREG && SC_OPND_IDX(src) < SC_SR__COUNT)
		return mov_sreg;
	if (is_r32(dst))
		return is_r32(src) ? copy32 : is_imm(src) ? mov_imm32 : NULL;
	if (is_r64(dst))
		return is_r64(src) ? mov64 : is_imm(src) ? mov_imm64 : NULL;
	return NULL;
}

/* ld.param of one 32- or 64-bit word at a constant offset, a kernel
 * parameter: the same word to every lane, with the timing the generic path
 * gives the param space (memsys.c); a word out of range or misaligned (only
 * a corrupted one) takes the generic path, which raises the DUE. */
HOT_CLONES HANDLER(ld_param)
{
	const sc_insn_t *in = d->in;
	const sc_run_t *r = &g->run;
	unsigned bytes = sc__type_bits(in->type) / 8;
	uint64_t a = in->imm;
	if (UNLIKELY(!exec || a >= r->param_bytes || bytes > r->param_bytes - a || (a & (bytes - 1))))
		return sc__x_ldst(g, sm, w, d, exec);
	uint32_t *dst = w->rf + d->o[0], lo, hi = 0;
	memcpy(&lo, r->params + a, 4);
	LANES(exec, dst[l] = lo);
	if (bytes == 8) {
		memcpy(&hi, r->params + a + 4, 4);
		LANES(exec, dst[l + 32] = hi);
	}
	g->ms.occ = g->cfg.interval[SC_LAT_CONST];
	return (int)g->cfg.latency[SC_LAT_CONST];
}

static sc_exec_fn pick_ld(const sc_insn_t *in)
{
	if (in->op != SC_OP_LD || SC_AUX_SPACE(in->aux) != SC_SP_PARAM || SC_NDST(in) != 1 || SC_NSRC(in) != 1)
		return NULL;
	sc_opnd_t dst = sc__opnd(in, 0), src = sc__opnd(in, 1);
	if (SC_OPND_KIND(src) != SC_K_ADDR || SC_OPND_IDX(src) != SC_NOREG)
		return NULL;
	unsigned bits = sc__type_bits(in->type);
	return (bits == 32 && is_r32(dst)) || (bits == 64 && is_r64(dst)) ? ld_param : NULL;
}

sc_exec_fn sc__fast_pick(const sc_insn_t *in)
{
	switch (in->op < SC_OP__COUNT ? sc__ops[in->op].unit : SC_U_CTL) {
	case SC_U_NUM:
		return sc__type_is_float(in->type) ? pick_fp(in) : pick_int(in);
	case SC_U_INT:
		return pick_int(in);
	case SC_U_FP:
		return in->op == SC_OP_FMA ? pick_fp(in) : NULL;
	case SC_U_CMP:
		return in->op == SC_OP_SETP ? pick_setp(in) : in->op == SC_OP_CVT ? pick_cvt(in)
		       : in->op == SC_OP_SELP ? pick_selp(in) : NULL;
	case SC_U_MOV:
		return pick_mov(in);
	case SC_U_MEM:
		return pick_ld(in);
	}
	return NULL;
}
