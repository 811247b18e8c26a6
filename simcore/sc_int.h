/* simcore internals: the decoded instruction format, the instruction table,
 * the module representation and the machine state.
 * Design: docs/DESIGN.md ("The simulator"). Everything here is private
 * to simcore/; the public API is simcore.h. */
#ifndef SC_INT_H
#define SC_INT_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ecc.h"
#include "simcore.h"

struct sc_warp;

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Every lane l set in mask m, lowest first. */
#define FOR_LANES(l, m) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

/* ======================================================================
 * Instruction encoding (what the instruction buffer holds)
 *
 * Every PTX instruction is lowered once to one fixed 256-bit word, the
 * sc_insn_t below, stored little-endian exactly as laid out (no bitfields,
 * so the layout is the same on every compiler). The instruction buffer of a
 * warp holds copies of these words; a fault flips bits in a copy, and what
 * issues is what the (possibly flipped) bits decode to: sc__insn_check()
 * rejects words that do not decode (DUE invalid_instruction).
 *
 *  255        240 239     224 223                                    128
 * +-------------+-----------+------------------------------------------+
 * |  reserved   |   guard   |  opnd[5] opnd[4] ... opnd[0] (16 b each)  |
 * +-------------+-----------+------------------------------------------+
 *  127                                                               64
 * +-------------------------------------------------------------------+
 * |  imm: memory offset | branch target (31..0) + reconvergence pc   |
 * |       (63..32) | call target | immediate operand of ld/st etc.   |
 * +-------------------------------------------------------------------+
 *  63    60 59    56 55   48 47          32 31    24 23   16 15    8 7    0
 * +--------+--------+-------+--------------+--------+-------+-------+------+
 * |  nsrc  |  ndst  |  aux  |     mods     |  sub   | stype | type  |  op  |
 * +--------+--------+-------+--------------+--------+-------+-------+------+
 *
 *  op     opcode (SC_OP_*)                 type/stype  SC_T_* (stype: source
 *  sub    per-op selector (see enums)      type of cvt/setp/set/slct)
 *  mods   bits 3..0 rounding (SC_RND_*), 4 ftz, 5 sat, 6 cc_in, 7 cc_out,
 *         8 approx, 9 full, 10 uni, 11 volatile, 12 resilient (ld, st,
 *         setp only: raLoad/raStore/raSetP, dup.c), 15..13 reserved (0)
 *  aux    bits 2..0 state space (SC_SP_*), 4..3 log2 vector width,
 *         6..5 boolean combiner of setp/set (SC_BOOL_*), 7 reserved (0)
 *  guard  bit 15 guarded, bit 14 negated, bits 13..0 predicate register
 *  opnd   bits 15..12 kind (SC_K_*), bits 11..0 the low 12 bits of the
 *         index; its high bits 13..12 are bits 2j+1..2j of `reserved`
 *         (word bits 241+2j..240+2j) for operand j. The 14-bit index:
 *         R32/R64: first 32-bit slot; PRED/PREDN: predicate register;
 *         IMM: entry of the module's constant pool; SREG: SC_SR_*;
 *         ADDR: base register slot (R64; SC_NOREG 0x3fff = none), offset
 *         in imm; ADDR32: base R32 slot, and base + imm wraps modulo 2^32.
 *         Destinations come first (ndst of them), then sources.
 *  reserved  bits 11..0 the operands' high index bits (above), bits
 *         15..12 reserved (0).
 * So a module has at most SC_IDX_LIMIT (16383) register slots, predicates
 * and constants: an index names one of 0..16382, and 16383 is left to
 * SC_NOREG. Code reads and writes operands only through sc__opnd() and
 * sc__set_opnd(), which put the index together (sc__opnd_idx(): the index
 * alone); the kind alone is in the 16-bit word (SC_OPND_KIND works on
 * either). A fault that flips a high index bit names another register (or
 * one past the file, which sc__insn_check refuses), as a flip of a low bit
 * does. Design: docs/DESIGN.md, "Operand indices".
 * ====================================================================== */

typedef struct sc_insn {
	uint8_t op, type, stype, sub;
	uint16_t mods;
	uint8_t aux;
	uint8_t nops; /* ndst in bits 3..0, nsrc in bits 7..4 */
	uint64_t imm;
	uint16_t opnd[6];
	uint16_t guard;
	uint16_t reserved;
} sc_insn_t;

_Static_assert(sizeof(sc_insn_t) == 32, "sc_insn_t must be 256 bits");
_Static_assert(offsetof(sc_insn_t, imm) == 8, "imm at byte 8");
_Static_assert(offsetof(sc_insn_t, opnd) == 16, "operands at byte 16");
_Static_assert(offsetof(sc_insn_t, guard) == 28, "guard at byte 28");

#define SC_MOD_RND_MASK 0x000fu
#define SC_MOD_FTZ 0x0010u
#define SC_MOD_SAT 0x0020u
#define SC_MOD_CC_IN 0x0040u
#define SC_MOD_CC_OUT 0x0080u
#define SC_MOD_APPROX 0x0100u
#define SC_MOD_FULL 0x0200u
#define SC_MOD_UNI 0x0400u
#define SC_MOD_VOLATILE 0x0800u
#define SC_MOD_RES 0x1000u /* resilient: replica operands follow (dup.c) */
#define SC_MOD_RESERVED 0xe000u
/* trap's sub: 0 a program's trap (DUE trap), SC_TRAP_DUP the notification
 * of datapath duplication's checks (DUE dup_mismatch) */
#define SC_TRAP_DUP 1u

#define SC_AUX_SPACE(a) ((a) & 7u)
#define SC_AUX_VEC(a) (1u << (((a) >> 3) & 3u)) /* 1, 2 or 4 (8 invalid) */
#define SC_AUX_BOOL(a) (((a) >> 5) & 3u)
#define SC_AUX_MAKE(space, vlog2, boolop) ((uint8_t)((space) | ((vlog2) << 3) | ((boolop) << 5)))

#define SC_NDST(in) ((in)->nops & 15u)
#define SC_NSRC(in) ((in)->nops >> 4)
#define SC_NOPS_MAKE(ndst, nsrc) ((uint8_t)((ndst) | ((nsrc) << 4)))

#define SC_GUARD_ON 0x8000u
#define SC_GUARD_NEG 0x4000u
#define SC_GUARD_REG(g) ((g) & 0x3fffu)
#define SC_GUARD_WITH(g, r) ((uint16_t)(((g) & 0xc000u) | (r))) /* g naming predicate r */

/* An operand put together (sc__opnd): the 16-bit word in bits 15..0 and the
 * index's high bits 13..12 in bits 17..16. */
typedef uint32_t sc_opnd_t;
#define SC_IDX_LIMIT 0x3fffu /* slots, predicates, constants per module */
#define SC_OPND_KIND(o) (((unsigned)(o) >> 12) & 15u)
#define SC_OPND_IDX(o) (((unsigned)(o) & 0x0fffu) | (((unsigned)(o) >> 4) & 0x3000u))
#define SC_OPND(kind, idx) sc__opnd_make((kind), (idx))
static inline sc_opnd_t sc__opnd_make(unsigned kind, unsigned idx)
{
	return (kind << 12) | (idx & 0x0fffu) | ((idx & 0x3000u) << 4);
}
#define SC_NOREG 0x3fffu /* ADDR without base register */
#define SC_RESERVED_HI 0xf000u /* bits of `reserved` that must be 0 */

/* Operand j of in (j < 6), its index whole. */
static inline sc_opnd_t sc__opnd(const sc_insn_t *in, unsigned j)
{
	return in->opnd[j] | (((uint32_t)in->reserved << (16 - 2 * j)) & 0x30000u);
}
/* Its index alone (the ld/st paths, which read the kind from the word). */
static inline unsigned sc__opnd_idx(const sc_insn_t *in, unsigned j)
{
	return (in->opnd[j] & 0x0fffu) | (((unsigned)in->reserved << (12 - 2 * j)) & 0x3000u);
}
static inline void sc__set_opnd(sc_insn_t *in, unsigned j, sc_opnd_t o)
{
	in->opnd[j] = (uint16_t)o;
	in->reserved = (uint16_t)((in->reserved & ~(3u << (2 * j))) | (((o >> 16) & 3u) << (2 * j)));
}
/* in with its six operands set to v (a compound literal's zeros: none). */
static inline sc_insn_t sc__insn_ops(sc_insn_t in, const sc_opnd_t v[6])
{
	for (unsigned j = 0; j < 6; j++)
		sc__set_opnd(&in, j, v[j]);
	return in;
}
/* Sets operands 0..n-1 of in to v[0..n-1]. */
static inline void sc__set_opnds(sc_insn_t *in, unsigned n, const sc_opnd_t *v)
{
	for (unsigned j = 0; j < n; j++)
		sc__set_opnd(in, j, v[j]);
}

/* Branch immediates: target in the low 32 bits, reconvergence pc above. */
#define SC_BR_TARGET(imm) ((uint32_t)(imm))
#define SC_BR_RPC(imm) ((uint32_t)((imm) >> 32))
#define SC_PC_NONE 0xffffffffu /* no reconvergence point (path exits) */
#define SC_PC_CALL 0xfffffffeu /* the rpc of a dynamic call's entry (call.c) */

/* Operand kinds. */
enum {
	SC_K_NONE = 0, /* absent, or the sink "_" as a destination */
	SC_K_R32,      /* one 32-bit slot (also holds .b8/.b16 registers) */
	SC_K_R64,      /* two consecutive slots: low word first */
	SC_K_PRED,     /* predicate register */
	SC_K_PREDN,    /* negated predicate source (!%p) */
	SC_K_IMM,      /* constant-pool entry (64-bit raw bits) */
	SC_K_SREG,     /* special register */
	SC_K_ADDR,     /* [base + imm]: base is an R64 slot or SC_NOREG */
	SC_K_ADDR32,   /* [base + imm] mod 2^32: base is an R32 slot */
	SC_K__COUNT
};

/* Data types. Widths in bits via sc__type_bits(). */
#define SC_TYPE_LIST(X)                                                    \
	X(NONE, "", 0) X(PRED, "pred", 1)                                      \
	X(B8, "b8", 8) X(B16, "b16", 16) X(B32, "b32", 32) X(B64, "b64", 64)   \
	X(U8, "u8", 8) X(U16, "u16", 16) X(U32, "u32", 32) X(U64, "u64", 64)   \
	X(S8, "s8", 8) X(S16, "s16", 16) X(S32, "s32", 32) X(S64, "s64", 64)   \
	X(F16, "f16", 16) X(F16X2, "f16x2", 32) X(BF16, "bf16", 16)            \
	X(BF16X2, "bf16x2", 32) X(F32, "f32", 32) X(F64, "f64", 64)            \
	X(B128, "b128", 128)

enum {
#define X(name, text, bits) SC_T_##name,
	SC_TYPE_LIST(X)
#undef X
	SC_T__COUNT
};

/* Rounding modifiers (mods bits 3..0). */
enum {
	SC_RND_NONE = 0, SC_RND_RN, SC_RND_RZ, SC_RND_RM, SC_RND_RP,
	SC_RND_RNI, SC_RND_RZI, SC_RND_RMI, SC_RND_RPI, SC_RND__COUNT
};

/* State spaces (aux bits 2..0). */
enum {
	SC_SP_NONE = 0, SC_SP_GENERIC, SC_SP_GLOBAL, SC_SP_SHARED,
	SC_SP_LOCAL, SC_SP_CONST, SC_SP_PARAM, SC_SP__COUNT
};

/* Boolean combiners of setp/set (aux bits 6..5). */
enum { SC_BOOL_NONE = 0, SC_BOOL_AND, SC_BOOL_OR, SC_BOOL_XOR };

/* sub: mul/mad variant. */
enum { SC_MUL_LO = 0, SC_MUL_HI, SC_MUL_WIDE };

/* sub: comparison of setp/set/slct(n/a). */
#define SC_CMP_LIST(X)                                                     \
	X(EQ, "eq") X(NE, "ne") X(LT, "lt") X(LE, "le") X(GT, "gt") X(GE, "ge") \
	X(LO, "lo") X(LS, "ls") X(HI, "hi") X(HS, "hs")                          \
	X(EQU, "equ") X(NEU, "neu") X(LTU, "ltu") X(LEU, "leu") X(GTU, "gtu")   \
	X(GEU, "geu") X(NUM, "num") X(NAN, "nan")
enum {
#define X(name, text) SC_CMP_##name,
	SC_CMP_LIST(X)
#undef X
	SC_CMP__COUNT
};

/* sub: atom/red operation. */
#define SC_ATOM_LIST(X)                                                    \
	X(ADD, "add") X(INC, "inc") X(DEC, "dec") X(MIN, "min") X(MAX, "max")  \
	X(AND, "and") X(OR, "or") X(XOR, "xor") X(EXCH, "exch") X(CAS, "cas")
enum {
#define X(name, text) SC_ATOM_##name,
	SC_ATOM_LIST(X)
#undef X
	SC_ATOM__COUNT
};

/* sub: shfl mode, vote mode, bar kind, shf mode, prmt mode, testp class,
 * cvta direction, bfind .shiftamt. */
enum { SC_SHFL_UP = 0, SC_SHFL_DOWN, SC_SHFL_BFLY, SC_SHFL_IDX };
enum { SC_VOTE_ALL = 0, SC_VOTE_ANY, SC_VOTE_UNI, SC_VOTE_BALLOT };
enum {
	SC_BAR_SYNC = 0, SC_BAR_ARRIVE, SC_BAR_RED_POPC, SC_BAR_RED_AND,
	SC_BAR_RED_OR, SC_BAR_WARP_SYNC
};
/* shf: bit 0 = right (else left), bit 1 = clamp (else wrap). */
#define SC_SHF_R 1u
#define SC_SHF_CLAMP 2u
enum {
	SC_PRMT_DEFAULT = 0, SC_PRMT_F4E, SC_PRMT_B4E, SC_PRMT_RC8,
	SC_PRMT_ECL, SC_PRMT_ECR, SC_PRMT_RC16
};
enum {
	SC_TESTP_FINITE = 0, SC_TESTP_INFINITE, SC_TESTP_NUMBER,
	SC_TESTP_NOTANUMBER, SC_TESTP_NORMAL, SC_TESTP_SUBNORMAL
};
enum { SC_CVTA_TO_GENERIC = 0, SC_CVTA_FROM_GENERIC = 1 }; /* space in aux */
#define SC_BFIND_SHIFTAMT 1u

/* Special registers. */
#define SC_SREG_LIST(X)                                                    \
	X(TID_X, "tid.x") X(TID_Y, "tid.y") X(TID_Z, "tid.z")                  \
	X(NTID_X, "ntid.x") X(NTID_Y, "ntid.y") X(NTID_Z, "ntid.z")            \
	X(CTAID_X, "ctaid.x") X(CTAID_Y, "ctaid.y") X(CTAID_Z, "ctaid.z")      \
	X(NCTAID_X, "nctaid.x") X(NCTAID_Y, "nctaid.y") X(NCTAID_Z, "nctaid.z") \
	X(LANEID, "laneid") X(WARPID, "warpid") X(NWARPID, "nwarpid")          \
	X(SMID, "smid") X(NSMID, "nsmid") X(GRIDID, "gridid")                  \
	X(LANEMASK_EQ, "lanemask_eq") X(LANEMASK_LE, "lanemask_le")            \
	X(LANEMASK_LT, "lanemask_lt") X(LANEMASK_GE, "lanemask_ge")            \
	X(LANEMASK_GT, "lanemask_gt") X(CLOCK, "clock") X(CLOCK_HI, "clock_hi") \
	X(CLOCK64, "clock64") X(DYN_SMEM, "dynamic_smem_size")                 \
	X(TOTAL_SMEM, "total_smem_size")                                        \
	X(GLOBALTIMER, "globaltimer") X(GLOBALTIMER_LO, "globaltimer_lo")      \
	X(GLOBALTIMER_HI, "globaltimer_hi") SC_ENVREG_LIST(X)
/* %envreg0..31: what the driver would set; 0 here (no driver sets them). */
#define SC_ENVREG_LIST(X)                                                  \
	X(ENVREG0, "envreg0") X(ENVREG1, "envreg1") X(ENVREG2, "envreg2")      \
	X(ENVREG3, "envreg3") X(ENVREG4, "envreg4") X(ENVREG5, "envreg5")      \
	X(ENVREG6, "envreg6") X(ENVREG7, "envreg7") X(ENVREG8, "envreg8")      \
	X(ENVREG9, "envreg9") X(ENVREG10, "envreg10") X(ENVREG11, "envreg11")  \
	X(ENVREG12, "envreg12") X(ENVREG13, "envreg13") X(ENVREG14, "envreg14") \
	X(ENVREG15, "envreg15") X(ENVREG16, "envreg16") X(ENVREG17, "envreg17") \
	X(ENVREG18, "envreg18") X(ENVREG19, "envreg19") X(ENVREG20, "envreg20") \
	X(ENVREG21, "envreg21") X(ENVREG22, "envreg22") X(ENVREG23, "envreg23") \
	X(ENVREG24, "envreg24") X(ENVREG25, "envreg25") X(ENVREG26, "envreg26") \
	X(ENVREG27, "envreg27") X(ENVREG28, "envreg28") X(ENVREG29, "envreg29") \
	X(ENVREG30, "envreg30") X(ENVREG31, "envreg31")
enum {
#define X(name, text) SC_SR_##name,
	SC_SREG_LIST(X)
#undef X
	SC_SR__COUNT
};
/* The special registers that read the clock: never the same value twice. */
static inline bool sc__sreg_is_time(unsigned i)
{
	return i == SC_SR_CLOCK || i == SC_SR_CLOCK_HI || i == SC_SR_CLOCK64 || i == SC_SR_GLOBALTIMER ||
	       i == SC_SR_GLOBALTIMER_LO || i == SC_SR_GLOBALTIMER_HI;
}

/* Execution units: which part of the simulator carries out an opcode.
 *   NUM  integer or floating point by type (sc__sem_int / sc__sem_fp)
 *   INT  sc__sem_int       FP  sc__sem_fp      CMP sc__sem_cmp
 *   MOV, MEM, CTL, WARP    carried out by sm.c itself */
enum {
	SC_U_NUM, SC_U_INT, SC_U_FP, SC_U_CMP, SC_U_MOV, SC_U_MEM, SC_U_CTL, SC_U_WARP
};

/* ======================================================================
 * The instruction table
 *
 * One row per PTX instruction holds everything that is regular about it;
 * lowering (ptx_parse.c), the operand check, sc__insn_valid (isa.c), the
 * disassembler (disasm.c), block ends (cfg.c) and operand roles
 * (regalloc.c) are generated from the rows. A row reads
 *
 *   X(NAME, "mnemonic", UNIT, LAT, NT, "shape", TYPES, STYPES, IMODS, FMODS, SUB, FLAGS)
 *
 *  NAME     the opcode is SC_OP_NAME; "mnemonic" its PTX base name
 *  UNIT     executing unit (SC_U_*, above); LAT its latency class
 *           (SC_LAT_*; sm.c picks FP32/FP64/SFU for floating types)
 *  NT       type modifiers written in PTX:
 *             NONE  none checked          T   one, in .type
 *             S     one, in .stype (the destination is a predicate)
 *             TS    two, in .type then .stype
 *  shape    the operands as written, one character each, destinations
 *           first (a pair "p|q" is one operand):
 *             d  destination of .type      q  destination, a 32-bit register
 *             P  destination predicate     r  destination, any register
 *             a  source of .type           s  source of .stype
 *             u  source .u32               x  source .b32, any register
 *             p  source predicate (!p too) g  source .u64, any register
 *             m  [address]                 L  label      F  function
 *             |P after a destination: an optional predicate "d|p"
 *             ?  after a source: it may be left out
 *           Lowering a regular row, the parser lowers a source first as
 *           .type and then, for u, x and (with NT TS) s, again as its own
 *           type (as the hand-written lowering did); it checks that a
 *           register has the size of the type of its position (d a: .type,
 *           q u: 32 bits, s: .stype, P p: a predicate; r x g: anything).
 *  TYPES    the .type values the semantics define (SC_TS_* bit set);
 *  STYPES   the .stype values they define (lowering checks only how
 *           many types are written: the rest is the semantics' word)
 *  IMODS    modifiers (SC_M_*) lowering accepts with an integer .type,
 *  FMODS    and with a floating-point .type (the semantics' finer rules
 *           are in sc__insn_valid)
 *  SUB      the sub-selector (SC_SS_*): the words lowered into `sub`
 *  FLAGS    SC_OF_*:
 *             RND     a float rounding (.rn .rz .rm .rp) means something
 *             CARRY   .cc writes, and the c-forms read, the carry flag
 *             JUMP    goes to the pc in imm; ends a basic block
 *             CALL    calls the function at the pc in imm
 *             END     ends the thread's path (no successor); ends a block
 *             XLANE   reads its first source in lanes that need not
 *                     execute it (shfl): regalloc pins that value
 *             SPACE   has a state space (aux bits 2..0)
 *             VEC     takes .v2/.v4
 *             LOAD, STORE  reads / writes memory
 *             SIDE    has effects beyond its destination registers
 *             WIDE    a register wider than an integer .type is accepted
 *
 * Adding an ALU instruction (say `foo`, d = f(a, b) on .u32/.s32):
 *  1. one row here: X(FOO, "foo", INT, INT, T, "daa", SC_TS(U32) | SC_TS(S32),
 *     SC_TS_ANY, 0, 0, NONE, 0), with a one-line comment;
 *  2. one handler: a case in sem_int.c (or sem_fp.c, sem_cmp.c) that
 *     computes d from a and b (while sem_int.c keeps its rules[], the
 *     row's types go there too);
 *  3. one test of its results (tests/simcore).
 * Lowering, the operand and modifier checks, sc__insn_valid, the
 * disassembler and regalloc follow from the row. Anything irregular (an
 * operand only some forms have, a modifier that depends on another) is
 * written in ptx_parse.c's lower_* functions and isa.c's finer rules.
 * Opcode numbers are part of the encoding: a row placed before others
 * renumbers them, and so changes what a flipped op field decodes to (the
 * outcomes of instruction-buffer campaigns); append when those must stay
 * comparable.
 * ====================================================================== */

/* Type sets: bit SC_T_x. */
_Static_assert(SC_T__COUNT <= 32, "type sets are 32-bit masks");
#define SC_TS(n) (1u << SC_T_##n)
#define SC_TS_ANY ((1u << SC_T__COUNT) - 1)
#define SC_TS_NUM (SC_TS(U16) | SC_TS(U32) | SC_TS(U64) | SC_TS(S16) | SC_TS(S32) | SC_TS(S64))
#define SC_TS_SGN (SC_TS(S16) | SC_TS(S32) | SC_TS(S64))
#define SC_TS_B3264 (SC_TS(B32) | SC_TS(B64))
#define SC_TS_US3264 (SC_TS(U32) | SC_TS(U64) | SC_TS(S32) | SC_TS(S64))
#define SC_TS_SHIFT (SC_TS(B16) | SC_TS(B32) | SC_TS(B64) | SC_TS_NUM)
#define SC_TS_LOGIC (SC_TS(PRED) | SC_TS(B16) | SC_TS(B32) | SC_TS(B64))
#define SC_TS_HALF (SC_TS(F16) | SC_TS(F16X2) | SC_TS(BF16) | SC_TS(BF16X2))
#define SC_TS_F3264 (SC_TS(F32) | SC_TS(F64))
#define SC_TS_FLOAT (SC_TS_F3264 | SC_TS_HALF)
/* integers of 16 bits and more (.b .u .s): what comparisons and selects take */
#define SC_TS_BITS (SC_TS(B16) | SC_TS(B32) | SC_TS(B64) | SC_TS_NUM)
#define SC_TS_SEL (SC_TS_BITS | SC_TS_F3264)
/* the destination types of set: the value of "true" */
#define SC_TS_SETD (SC_TS(U32) | SC_TS(S32) | SC_TS(B32) | SC_TS(U16) | SC_TS(S16) | SC_TS(B16) | SC_TS(F32) | \
                    SC_TS_HALF)
/* conversions: .u/.s integers and scalar floats (and pairs as results) */
#define SC_TS_INT (SC_TS(U8) | SC_TS(S8) | SC_TS_NUM)
#define SC_TS_SCALAR (SC_TS_INT | SC_TS(F16) | SC_TS(BF16) | SC_TS_F3264)
/* memory: 8 to 64 bits; atomics 32 or 64 */
#define SC_TS_MEM (SC_TS_ANY & ~(SC_TS(NONE) | SC_TS(PRED) | SC_TS(B128)))
#define SC_TS_ATOM (SC_TS_B3264 | SC_TS_US3264 | SC_TS(F16X2) | SC_TS(BF16X2) | SC_TS_F3264)

/* Modifier sets, as short names for the table. */
#define SC_M_RND SC_MOD_RND_MASK
#define SC_M_FTZ SC_MOD_FTZ
#define SC_M_SAT SC_MOD_SAT
#define SC_M_CC SC_MOD_CC_OUT
#define SC_M_APX SC_MOD_APPROX
#define SC_M_FULL SC_MOD_FULL
#define SC_M_UNI SC_MOD_UNI
#define SC_M_VOL SC_MOD_VOLATILE
#define SC_M_FARITH (SC_M_RND | SC_M_FTZ | SC_M_SAT)
#define SC_M_FUNARY (SC_M_RND | SC_M_FTZ | SC_M_APX | SC_M_SAT)

enum { SC_NT_NONE, SC_NT_T, SC_NT_S, SC_NT_TS };

enum {
	SC_OF_RND = 1u << 0,
	SC_OF_CARRY = 1u << 1,
	SC_OF_JUMP = 1u << 2,
	SC_OF_CALL = 1u << 3,
	SC_OF_END = 1u << 4,
	SC_OF_XLANE = 1u << 5,
	SC_OF_SPACE = 1u << 6,
	SC_OF_VEC = 1u << 7,
	SC_OF_LOAD = 1u << 8,
	SC_OF_STORE = 1u << 9,
	SC_OF_SIDE = 1u << 10,
	SC_OF_WIDE = 1u << 11,
};
#define SC_OF_BLOCK_END (SC_OF_JUMP | SC_OF_END)
#define SC_OF_MEM (SC_OF_SPACE | SC_OF_LOAD | SC_OF_STORE | SC_OF_SIDE)
#define SC_OF_CTL (SC_OF_SIDE | SC_OF_END)

/* Sub-selectors: the words of a mnemonic that become the sub field, one
 * name per value ("" for the value written without a word; SHF and BAR
 * are parsed by hand). isa.c gives each its names. */
#define SC_SS_LIST(X)                                                      \
	X(NONE) X(MUL) X(MUL24) X(PRMT) X(BFIND) X(SHF) X(CMP) X(TESTP)        \
	X(CVTA) X(ATOM) X(BAR) X(SHFL) X(VOTE) X(TRAP) X(MATCH) X(REDUX) X(BMSK)
enum {
#define X(name) SC_SS_##name,
	SC_SS_LIST(X)
#undef X
	SC_SS__COUNT
};

/* Where the disassembler writes the word: after the name (cvta.to.global),
 * after the state space (atom.global.add) or after the types (prmt.b32.f4e). */
enum { SC_SSP_NAME, SC_SSP_SPACE, SC_SSP_TYPE };

typedef struct sc_subsel {
	const char *const *names; /* by value, NULL-terminated; "a.b" is two words */
	uint8_t n;                /* values */
	uint8_t pos;              /* SC_SSP_* */
	const char *need;         /* required: the message when absent ('%s': the mnemonic) */
} sc_subsel_t;

extern const sc_subsel_t sc__subs[SC_SS__COUNT];

/* The rows. */
#define SC_OP_LIST(X)                                                                                             \
	X(INVALID, "<invalid>", CTL, BRANCH, NONE, "", 0, 0, 0, 0, NONE, 0)                                           \
	/* integer or float by type */                                                                                \
	/* d = a + b (.cc/addc via mods) */                                                                           \
	X(ADD, "add", NUM, INT, T, "daa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, SC_M_SAT | SC_M_CC, SC_M_FARITH, NONE, \
	  SC_OF_RND | SC_OF_CARRY)                                                                                      \
	/* d = a - b (.cc/subc via mods) */                                                                           \
	X(SUB, "sub", NUM, INT, T, "daa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, SC_M_SAT | SC_M_CC, SC_M_FARITH, NONE, \
	  SC_OF_RND | SC_OF_CARRY)                                                                                      \
	/* d = a * b (.lo/.hi/.wide in sub) */                                                                        \
	X(MUL, "mul", NUM, IMUL, T, "daa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, SC_M_SAT | SC_M_CC, SC_M_FARITH, MUL, \
	  SC_OF_RND)                                                                                                   \
	/* d = a * b + c */                                                                                           \
	X(MAD, "mad", NUM, IMUL, T, "daaa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, SC_M_SAT | SC_M_CC, SC_M_FARITH,     \
	  MUL, SC_OF_RND | SC_OF_CARRY)                                                                                 \
	/* d = a / b */                                                                                               \
	X(DIV, "div", NUM, IMUL, T, "daa", SC_TS_NUM | SC_TS_F3264, SC_TS_ANY, 0,                                     \
	  SC_M_RND | SC_M_FTZ | SC_M_APX | SC_M_FULL, NONE, SC_OF_RND)                                                 \
	X(ABS, "abs", NUM, INT, T, "da", SC_TS_SGN | SC_TS_FLOAT, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* |a| */       \
	X(NEG, "neg", NUM, INT, T, "da", SC_TS_SGN | SC_TS_FLOAT, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* -a */        \
	X(MIN, "min", NUM, INT, T, "daa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                   \
	X(MAX, "max", NUM, INT, T, "daa", SC_TS_NUM | SC_TS_FLOAT, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                   \
	/* integer and bit operations */                                                                              \
	X(REM, "rem", INT, IMUL, T, "daa", SC_TS_NUM, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0) /* a % b */                    \
	/* 24x24 multiply, .lo/.hi */                                                                                 \
	X(MUL24, "mul24", INT, IMUL, T, "daa", SC_TS(U32) | SC_TS(S32), SC_TS_ANY, SC_M_SAT, SC_M_SAT, MUL24, 0)      \
	X(MAD24, "mad24", INT, IMUL, T, "daaa", SC_TS(U32) | SC_TS(S32), SC_TS_ANY, SC_M_SAT, SC_M_SAT, MUL24, 0)     \
	X(SAD, "sad", INT, INT, T, "daaa", SC_TS_NUM, SC_TS_ANY, 0, 0, NONE, 0)         /* |a - b| + c */             \
	X(POPC, "popc", INT, INT, T, "qa", SC_TS_B3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* bits set */            \
	X(CLZ, "clz", INT, INT, T, "qa", SC_TS_B3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* leading zeros */         \
	X(BREV, "brev", INT, INT, T, "da", SC_TS_B3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* bit reverse */         \
	X(BFE, "bfe", INT, INT, T, "dauu", SC_TS_US3264, SC_TS_ANY, 0, 0, NONE, 0) /* a[b +: c], extended */          \
	X(BFI, "bfi", INT, INT, T, "daauu", SC_TS_B3264, SC_TS_ANY, 0, 0, NONE, 0) /* b, a put at [c +: e] */         \
	X(BFIND, "bfind", INT, INT, T, "qa", SC_TS_US3264, SC_TS_ANY, 0, 0, BFIND, 0) /* msb index */                 \
	X(PRMT, "prmt", INT, INT, T, "daaa", SC_TS(B32), SC_TS_ANY, 0, 0, PRMT, 0) /* bytes of {b,a} by c */          \
	X(SHF, "shf", INT, INT, T, "daau", SC_TS(B32), SC_TS_ANY, 0, 0, SHF, 0)    /* funnel shift {b:a} by c */      \
	X(SHL, "shl", INT, INT, T, "dau", SC_TS_SHIFT, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                               \
	X(SHR, "shr", INT, INT, T, "dau", SC_TS_SHIFT, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                               \
	X(AND, "and", INT, INT, T, "daa", SC_TS_LOGIC, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                               \
	X(OR, "or", INT, INT, T, "daa", SC_TS_LOGIC, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                                 \
	X(XOR, "xor", INT, INT, T, "daa", SC_TS_LOGIC, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0)                               \
	X(NOT, "not", INT, INT, T, "da", SC_TS_LOGIC, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                             \
	X(CNOT, "cnot", INT, INT, T, "da", SC_TS_LOGIC, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0) /* a == 0 */              \
	X(LOP3, "lop3", INT, INT, T, "daaax", SC_TS(B32), SC_TS_ANY, 0, 0, NONE, 0) /* LUT e on a, b, c */            \
	/* floating point only */                                                                                     \
	X(FMA, "fma", FP, FP32, T, "daaa", SC_TS_FLOAT, SC_TS_ANY, SC_M_FARITH, SC_M_FARITH, NONE, SC_OF_RND)          \
	X(RCP, "rcp", FP, SFU, T, "da", SC_TS_F3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, SC_OF_RND)                       \
	X(SQRT, "sqrt", FP, SFU, T, "da", SC_TS_F3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, SC_OF_RND)                     \
	X(RSQRT, "rsqrt", FP, SFU, T, "da", SC_TS_F3264, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                          \
	X(SIN, "sin", FP, SFU, T, "da", SC_TS(F32), SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                               \
	X(COS, "cos", FP, SFU, T, "da", SC_TS(F32), SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                               \
	X(LG2, "lg2", FP, SFU, T, "da", SC_TS(F32), SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                               \
	X(EX2, "ex2", FP, SFU, T, "da", SC_TS(F32) | SC_TS_HALF, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                  \
	X(TANH, "tanh", FP, SFU, T, "da", SC_TS(F32) | SC_TS_HALF, SC_TS_ANY, 0, SC_M_FUNARY, NONE, 0)                \
	X(COPYSIGN, "copysign", FP, FP32, T, "daa", SC_TS_F3264, SC_TS_ANY, 0, SC_M_FTZ, NONE, 0) /* |b|, a's sign */ \
	/* comparisons, selects, conversions */                                                                       \
	/* p[|q] = a cmp b [bool c] */                                                                                \
	X(SETP, "setp", CMP, INT, S, "P|Pssp?", SC_TS_ANY, SC_TS_BITS | SC_TS_FLOAT, SC_M_FTZ, SC_M_FTZ, CMP, 0)      \
	/* d = a cmp b [bool c] ? true : 0 */                                                                         \
	X(SET, "set", CMP, INT, TS, "dssp?", SC_TS_SETD, SC_TS_BITS | SC_TS_FLOAT, SC_M_FTZ, SC_M_FTZ, CMP, 0)        \
	X(SELP, "selp", CMP, INT, T, "daap", SC_TS_SEL, SC_TS_ANY, 0, 0, NONE, 0) /* c ? a : b */                     \
	/* c >= 0 ? a : b */                                                                                          \
	X(SLCT, "slct", CMP, INT, TS, "daas", SC_TS_SEL, SC_TS(S32) | SC_TS(F32), SC_M_FTZ, SC_M_FTZ, NONE, 0)        \
	/* p = class test of a */                                                                                     \
	X(TESTP, "testp", CMP, FP32, S, "Ps", SC_TS_ANY, SC_TS_F3264, 0, 0, TESTP, 0)                                 \
	/* d(type) = a(stype) converted; d = {a, b} for f16x2/bf16x2 */                                               \
	X(CVT, "cvt", CMP, CVT, TS, "dss?", SC_TS_SCALAR | SC_TS(F16X2) | SC_TS(BF16X2), SC_TS_SCALAR, SC_M_FARITH,   \
	  SC_M_FARITH, NONE, SC_OF_WIDE)                                                                               \
	/* moves: copy, pack {a,b,..} or unpack */                                                                    \
	X(MOV, "mov", MOV, INT, T, "da", SC_TS_ANY, SC_TS_ANY, 0, 0, NONE, SC_OF_VEC)                                  \
	/* address to (.to: from) generic */                                                                          \
	X(CVTA, "cvta", MOV, INT, T, "da", SC_TS_ANY, SC_TS_ANY, 0, 0, CVTA, SC_OF_SPACE)                              \
	/* p = generic address a lies in the space */                                                                 \
	X(ISSPACEP, "isspacep", MOV, INT, NONE, "Pg", SC_TS_ANY, SC_TS_ANY, 0, 0, NONE, SC_OF_SPACE)                   \
	/* memory */                                                                                                  \
	X(LD, "ld", MEM, GLOBAL, T, "dm", SC_TS_MEM, SC_TS_ANY, SC_M_VOL, SC_M_VOL, NONE,                             \
	  SC_OF_SPACE | SC_OF_VEC | SC_OF_LOAD | SC_OF_WIDE)                                                              \
	X(ST, "st", MEM, GLOBAL, T, "ma", SC_TS_MEM, SC_TS_ANY, SC_M_VOL, SC_M_VOL, NONE,                             \
	  SC_OF_SPACE | SC_OF_VEC | SC_OF_STORE | SC_OF_SIDE | SC_OF_WIDE)                                                 \
	X(ATOM, "atom", MEM, ATOMIC, T, "dmaa?", SC_TS_ATOM, SC_TS_ANY, 0, 0, ATOM, SC_OF_MEM)                         \
	X(RED, "red", MEM, ATOMIC, T, "maa?", SC_TS_ATOM, SC_TS_ANY, 0, 0, ATOM, SC_OF_MEM)                            \
	/* control */                                                                                                 \
	X(BRA, "bra", CTL, BRANCH, NONE, "L", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, NONE, SC_OF_JUMP)              \
	X(CALL, "call", CTL, BRANCH, NONE, "F", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, NONE,                       \
	  SC_OF_CALL | SC_OF_SIDE)                                                                                      \
	X(RET, "ret", CTL, BRANCH, NONE, "", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, NONE, SC_OF_CTL)                \
	X(EXIT, "exit", CTL, BRANCH, NONE, "", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, NONE, SC_OF_CTL)              \
	X(TRAP, "trap", CTL, BRANCH, NONE, "", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, TRAP, SC_OF_CTL)              \
	/* bar.sync/arrive a[, b], bar.red d, a[, b], p, barrier.sync, bar.warp.sync a */                             \
	X(BAR, "bar", CTL, BRANCH, NONE, "uu?", SC_TS_ANY, SC_TS_ANY, 0, 0, BAR, SC_OF_SIDE)                           \
	/* membar and fence: ordering only */                                                                         \
	X(MEMBAR, "membar", CTL, INT, NONE, "", SC_TS_ANY, SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)                          \
	X(NOP, "nop", CTL, INT, NONE, "", SC_TS_ANY, SC_TS_ANY, SC_M_UNI, SC_M_UNI, NONE, 0)                          \
	/* warp-level */                                                                                              \
	/* d[|p] = a of the lane the mode selects */                                                                  \
	X(SHFL, "shfl", WARP, WARP, T, "d|Pauuu", SC_TS_ANY, SC_TS_ANY, 0, 0, SHFL, SC_OF_XLANE)                       \
	X(VOTE, "vote", WARP, WARP, T, "dpu", SC_TS_ANY, SC_TS_ANY, 0, 0, VOTE, 0)                                    \
	X(ACTIVEMASK, "activemask", WARP, WARP, T, "r", SC_TS_ANY, SC_TS_ANY, 0, 0, NONE, 0)                         \
	/* appended (ptxext.c): d[|p] = the lanes whose a equals this lane's (any) or all lanes if all agree */ \
	X(MATCH, "match", WARP, WARP, T, "q|Pau", SC_TS_B3264, SC_TS_ANY, 0, 0, MATCH, 0)                             \
	/* d = the reduction of a over the lanes in exec and b */                                                    \
	X(REDUX, "redux", WARP, WARP, T, "dau", SC_TS(U32) | SC_TS(S32) | SC_TS(B32), SC_TS_ANY, 0, 0, REDUX, 0)     \
	X(BMSK, "bmsk", INT, INT, T, "duu", SC_TS(B32), SC_TS_ANY, 0, 0, BMSK, 0) /* b ones from bit a */            \
	/* the warp sleeps a nanoseconds of simulated time */                                                        \
	X(NANOSLEEP, "nanosleep", CTL, BRANCH, T, "u", SC_TS(U32), SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)               \
	/* d = vprintf(a: format, b: arguments): the body flipsim gives an undefined vprintf (ptx_parse.c) */       \
	X(VPRINTF, "vprintf", CTL, BRANCH, T, "qgg", SC_TS(B32), SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)                  \
	/* __assertfail(message, file, line, function): the body of an undefined __assertfail; ends in a DUE */    \
	X(ASSERTFAIL, "assertfail", CTL, BRANCH, NONE, "ggug", SC_TS_ANY, SC_TS_ANY, 0, 0, NONE, SC_OF_CTL)          \
	/* d = malloc(a) from the device heap (0 when it has no room); free(a): the bodies of undefined ones */    \
	X(MALLOC, "malloc", CTL, BRANCH, T, "dg", SC_TS(U64), SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)                     \
	X(FREE, "free", CTL, BRANCH, T, "g", SC_TS(U64), SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)                         \
	/* appended (tex.c; sub and operands there): d[,d2] = components of the texels at coordinates a.. of */     \
	/* the texture handle g; tld4: one channel of the 4 texels of a bilinear footprint */                    \
	X(TEX, "tex", CTL, BRANCH, TS, "rrgsss", SC_TS(F32) | SC_TS(S32) | SC_TS(U32), SC_TS(F32) | SC_TS(S32), 0,   \
	  0, NONE, SC_OF_SIDE | SC_OF_VEC)                                                                                      \
	X(TLD4, "tld4", CTL, BRANCH, TS, "rrgss", SC_TS(F32) | SC_TS(S32) | SC_TS(U32), SC_TS(F32), 0, 0, NONE,     \
	  SC_OF_SIDE | SC_OF_VEC)                                                                                               \
	/* d = an attribute of the texture or surface g (txq, suq) */                                               \
	X(TXQ, "txq", CTL, BRANCH, T, "qg", SC_TS(B32), SC_TS_ANY, 0, 0, NONE, SC_OF_SIDE)                            \
	/* d[,d2] = elements of surface g at x (bytes), y, z; sust: stores the sources after the coordinates */   \
	X(SULD, "suld", CTL, BRANCH, T, "rrgxxx", SC_TS_B3264 | SC_TS(B8) | SC_TS(B16), SC_TS_ANY, 0, 0, NONE,     \
	  SC_OF_SIDE | SC_OF_VEC)                                                                                               \
	X(SUST, "sust", CTL, BRANCH, T, "gxxxxx", SC_TS_B3264 | SC_TS(B8) | SC_TS(B16), SC_TS_ANY, 0, 0, NONE,     \
	  SC_OF_SIDE | SC_OF_VEC)

enum {
#define X(name, text, unit, lat, nt, shape, types, stypes, imods, fmods, sub, flags) SC_OP_##name,
	SC_OP_LIST(X)
#undef X
	SC_OP__COUNT
};

typedef struct sc_opinfo {
	const char *name;
	uint8_t unit;
	uint8_t lat;
	uint8_t nt;             /* SC_NT_* */
	uint8_t sub;            /* SC_SS_* */
	const char *shape;
	uint32_t types, stypes; /* SC_TS_* sets */
	uint16_t mods[2];       /* [0] integer .type, [1] floating-point .type */
	uint16_t flags;         /* SC_OF_* */
} sc_opinfo_t;

extern const sc_opinfo_t sc__ops[SC_OP__COUNT];
extern const char *const sc__type_names[SC_T__COUNT];
extern const uint8_t sc__type_bits_tab[SC_T__COUNT];
extern const char *const sc__sreg_names[SC_SR__COUNT];

/* Bit casts between register words and IEEE values (an f32 is the low 32
 * bits of its word). */
static inline float sc__f32_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t sc__bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double sc__f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t sc__bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline unsigned sc__type_bits(unsigned t) { return t < SC_T__COUNT ? sc__type_bits_tab[t] : 0; }
static inline bool sc__type_is_float(unsigned t)
{
	return t == SC_T_F16 || t == SC_T_F16X2 || t == SC_T_BF16 || t == SC_T_BF16X2 ||
	       t == SC_T_F32 || t == SC_T_F64;
}
static inline bool sc__type_is_signed(unsigned t) { return t >= SC_T_S8 && t <= SC_T_S64; }

/* The operand characters of a row's shape (see the table's head), split
 * into destinations and sources: a pair "d|P" gives dst "dP" with pair
 * set; an optional source is marked in opt (bit = source index). */
typedef struct sc_shape {
	char dst[3], src[6];
	uint8_t ndst, nsrc, nops;  /* nops: operands as written (a pair is one) */
	bool pair;
	uint8_t opt;
} sc_shape_t;
void sc__shape(unsigned op, sc_shape_t *s);

/* Control flow after an instruction of lowered code (cfg.c, regalloc.c):
 * whether it goes to SC_BR_TARGET(imm), and whether it can go on to the
 * next pc (it does not end its path, or a guard may skip it). */
static inline bool sc__insn_jumps(const sc_insn_t *in) { return sc__ops[in->op].flags & SC_OF_JUMP; }
static inline bool sc__insn_ends_block(const sc_insn_t *in) { return sc__ops[in->op].flags & SC_OF_BLOCK_END; }
/* Whether in reads a clock special register (a value no re-execution
 * reproduces). */
static inline bool sc__insn_reads_clock(const sc_insn_t *in)
{
	for (unsigned j = 0; j < SC_NDST(in) + SC_NSRC(in) && j < 6; j++) {
		unsigned k = SC_OPND_KIND(in->opnd[j]), i = SC_OPND_IDX(sc__opnd(in, j));
		if (k == SC_K_SREG && (i == SC_SR_CLOCK || i == SC_SR_CLOCK_HI || i == SC_SR_CLOCK64))
			return true;
	}
	return false;
}
static inline bool sc__insn_falls(const sc_insn_t *in)
{
	return !sc__insn_ends_block(in) || (in->guard & SC_GUARD_ON);
}

/* A register operand of an instruction and its role. Destinations (the
 * first ndst operands) are written, except an address base or a negated
 * predicate, which are only read; sources, address bases and the guard
 * are read. */
typedef struct sc_regref {
	uint16_t idx;  /* slot, or predicate */
	uint8_t w;     /* slots: 1 or 2; predicates 1 */
	bool pred;
	bool def;      /* written */
	bool xlane;    /* read in lanes that need not execute it (SC_OF_XLANE) */
	uint8_t pos;   /* operand position, 6 = the guard */
} sc_regref_t;
/* The register operands of `in`: destinations, then sources, address
 * bases and the guard. Returns how many (at most 7). */
unsigned sc__insn_regs(const sc_insn_t *in, sc_regref_t v[7]);

/* ======================================================================
 * Semantics interface (sem_int.c, sem_fp.c, sem_cmp.c)
 *
 * The dispatcher in sm.c reads each source operand into a lane array as raw
 * bits, zero-extended from the register (R32: 32 bits, R64: 64 bits, PRED:
 * 0/1, IMM: the pool's 64 bits as written in the PTX, SREG: its value), calls
 * the unit's function, then writes d (and d2) back truncated to the
 * destination register: R32 keeps the low 32 bits, R64 all 64, PRED bit 0.
 * Results of types narrower than 32 bits must be returned zero-extended.
 * Sources a, b, c, e are the instruction's sources in PTX order (e is the
 * fourth: bfi's len, lop3's third input ... see the opcode comments).
 * Only lanes in `mask` are read or written. `cc` holds each lane's carry
 * flag (bit = lane) for .cc/addc chains: read with SC_MOD_CC_IN, set with
 * SC_MOD_CC_OUT.
 * Each function returns 0, or -1 for an opcode/type/modifier combination it
 * does not define (the caller turns that into a DUE invalid_instruction, so
 * lowering must never produce such a combination from valid PTX).
 * ====================================================================== */
typedef struct sc_alu {
	const sc_insn_t *in;
	uint32_t mask;
	uint32_t cc;
	uint64_t a[32], b[32], c[32], e[32];
	uint64_t d[32], d2[32];
} sc_alu_t;

int sc__sem_int(sc_alu_t *x); /* unit INT, and NUM with an integer/bit type */
int sc__sem_fp(sc_alu_t *x);  /* unit FP, and NUM with a floating type */
int sc__sem_cmp(sc_alu_t *x); /* unit CMP: setp set selp slct testp cvt */

/* f16/bf16 helpers shared by sem_fp.c and sem_cmp.c (in sem_fp.c). */
float sc__half_to_float(uint16_t h);
uint16_t sc__float_to_half(float f, int rnd);   /* rnd: SC_RND_RN/RZ/RM/RP */
uint16_t sc__double_to_half(double f, int rnd);
float sc__bf16_to_float(uint16_t h);
uint16_t sc__float_to_bf16(float f, int rnd);
uint16_t sc__double_to_bf16(double f, int rnd);

/* Checks that an encoded word decodes to an executable instruction of a
 * module with `nregs` slots, `npreds` predicates, `npool` constants and
 * `ncode` instructions. Returns 0, or -1 when it does not decode. */
int sc__insn_check(const sc_insn_t *in, uint32_t nregs, uint32_t npreds, uint32_t npool,
                   uint32_t ncode);

/* Whether a word sc__insn_check accepts is one the execution side defines:
 * an op/type/stype/sub/modifier/state-space/operand-count combination and
 * destination kinds that sm.c and the semantic units carry out (isa.c
 * lists the rules). Returns 1, or 0 for a word that raises DUE
 * invalid_instruction when it issues with at least one lane active. Today
 * some of those checks come after other effects: ld's destinations after
 * the memory access (an address fault wins), an unpacking mov's or a
 * two-destination word's second destination after the first is written.
 * Lowering never produces a word this refuses from PTX the semantics
 * define; it does let through a few forms PTX does not define (mul.sat,
 * mul.cc, mul24.sat, abs.rn.f32 and other roundings on float unary
 * instructions, add.b32, popc.b16 and other types outside the row's
 * TYPES), which then fail here. */
int sc__insn_valid(const sc_insn_t *in);

/* The word as PTX-like text (disasm.c): "[@[!]%pN ]mnemonic operands",
 * registers by slot, constants from m's pool (m may be NULL), targets as
 * pcs; "<invalid word 0x...>" (the 32 bytes in memory order) for a word
 * sc__insn_check refuses with m's limits. Writes at most n bytes into buf,
 * terminated; returns the length of the whole text (as snprintf). Where
 * the simulator names an instruction in a DUE it can say which one. */
int sc__disasm(const sc_module_t *m, const sc_insn_t *in, char *buf, size_t n);
/* The instruction at pc as the PTX has it: the ptx-mode word (code_ptx in
 * alloc mode) with its registers by their declared names (sc__reg_name),
 * "%f3" rather than slot "%r12". Returns as sc__disasm, -1 for no such pc. */
int sc__disasm_ptx(const sc_module_t *m, uint32_t pc, char *buf, size_t n);

/* Writing a module back as PTX (emit.c): what the disassembler needs to
 * write a word of the virtual-register code (code_ptx, or code in unalloc
 * mode) the way the loader reads it: registers by declared names,
 * symbols where the word names one, labels and call argument lists. */
typedef struct sc__emit {
	const sc_module_t *m;
	int32_t *reloc_pc;             /* per pc: its relocation (m->reloc), -1 none */
	int32_t *reloc_pool;           /* per pool entry: the same */
	int32_t *call_pc;              /* per pc: its call record (m->calls), -1 none */
	char **sym_name;               /* per symbol: its name in the text (unique) */
	const struct sc_func *f;       /* the function being written */
	/* the name of virtual register `slot` (pred: predicate) of f */
	void (*reg)(const struct sc__emit *e, unsigned slot, bool pred, char *buf, size_t n);
} sc__emit_t;
/* The word at pc as PTX text (no ';'), as sc__disasm. */
int sc__disasm_emit(const sc__emit_t *e, uint32_t pc, char *buf, size_t n);

/* ======================================================================
 * Modules (ptx_parse.c builds them; gpu.c owns them)
 *
 * A module's code is one flat array of sc_insn_t; a pc is an index into
 * it. Each function (.entry or .func) occupies [entry_pc, end_pc). Register
 * slots: every function numbers its own registers from 0 in declaration
 * order (64-bit registers take two slots); at the end of parsing, kernels
 * keep base 0 and each .func gets a module-wide base above every kernel's
 * slots, so code shared by several kernels addresses the same slots.
 * In alloc mode (regalloc.c) the operands are then renumbered: nregs and
 * reg_base (npreds, pred_base) describe the allocated slots and a .func's
 * window above what its callers keep live across calls; code_ptx and the
 * ptx_* fields keep the numbering above.
 * Predicates are numbered the same way. Per-thread local memory holds, in
 * order, the kernel's own .local variables, then every .func's frame
 * (its formal .param arguments and return values, then its .local data).
 * ====================================================================== */

/* Address windows of the generic address space (bytes). Global allocations
 * start at SC_GLOBAL_BASE; shared, local, const and param addresses are
 * offsets in their own spaces and appear in generic space at these bases. */
#define SC_SHARED_WIN 0x10000000ull
#define SC_LOCAL_WIN 0x20000000ull
#define SC_CONST_WIN 0x30000000ull
#define SC_PARAM_WIN 0x38000000ull
#define SC_WIN_SIZE 0x01000000ull
#define SC_GLOBAL_BASE 0x100000000ull
/* A function's address (mov %rd, f; a .global/.const initializer naming
 * f): SC_FUNC_BASE + 16 * its index in the module's funcs[], a value no
 * memory window or global allocation holds, the same in every run and on
 * every GPU (call.c). */
#define SC_FUNC_BASE 0x00f0000000000000ull

/* call's sub: SC_CALL_DIRECT (imm: the callee's entry pc), or
 * SC_CALL_DYN: a call through the per-thread call stack (call.c), imm's
 * low word the callee's entry pc (0 when indirect), its high word the
 * index of the call's sc__dcall_t; an indirect call reads the callee's
 * address from its one source, an R64. */
enum { SC_CALL_DIRECT = 0, SC_CALL_DYN = 1 };
/* What a dynamic call needs at run time: the arguments and return values
 * lie in the caller's own local memory (its call-site .param variables)
 * at arg_off/ret_off, and move to and from the callee's frame at the call
 * and its return; with `save`, the caller's registers, predicates and
 * frame go on the thread's call stack too (the callee may reach the
 * caller again). */
#define SC_DCALL_MAXR 8  /* return values */
#define SC_DCALL_MAXP 32 /* parameters */
#define SC_DCALL_RETMAX 256 /* bytes of return values */
typedef struct sc__dcall {
	uint32_t pc;
	int32_t caller, callee;        /* funcs[]; callee -1: indirect */
	bool saves;
	uint32_t nret, narg;
	uint32_t ret_size[SC_DCALL_MAXR], ret_off[SC_DCALL_MAXR];
	uint32_t arg_size[SC_DCALL_MAXP], arg_off[SC_DCALL_MAXP];
	/* save: the caller's slots and predicates live after the call
	 * (module-wide numbers), which its record holds (sc__dcall_live) */
	uint32_t *save, nsave, nsavep;  /* nsave slots, then nsavep predicates */
	uint32_t *targets, ntargets;   /* through a .calltargets list: the functions it allows */
} sc__dcall_t;

/* A parameter as declared: `.param .TYPE NAME[COUNT]` (sc_kernel_param). */
typedef struct sc__param_decl {
	char *name;
	uint8_t type;                  /* SC_T_* of one element */
	uint32_t count;                /* 1, or N of NAME[N] */
} sc__param_decl_t;

/* A register declaration as written, scoped ones included (every block
 * gets slots of its own): `.reg .f32 %f<5>;` is {"%f", 5, SC_T_F32,
 * first}, `.reg .b32 v;` {"v", 0, SC_T_B32, first}. first is the
 * function-relative slot (a 64-bit register takes two) or, for .pred,
 * predicate index, as the function numbers them in ptx mode. */
typedef struct sc__reg_decl {
	char *name;
	uint32_t count;                /* N of NAME<N>; 0: a single register NAME */
	uint8_t type;                  /* SC_T_* */
	uint32_t first;
} sc__reg_decl_t;

/* A shared variable in a kernel's shared memory: the CTA's bytes [off,
 * off + size); extern (dynamic) shared memory runs from off to the end of
 * what the launch gives (size 0). */
typedef struct sc__smem_var {
	char *name;
	uint32_t off, size;
	bool dynamic;
} sc__smem_var_t;

/* Spilling (spill.c): registers (virtual registers) spilled, bytes of
 * their local-memory slots, and the spill stores and loads in the code
 * (static counts, as ptxas -v gives them). */
typedef struct sc__spill_stats {
	uint32_t regs, bytes, stores, loads;
} sc__spill_stats_t;

typedef struct sc_func {
	char *name;
	bool is_entry;
	uint32_t entry_pc, end_pc;
	uint32_t nregs, npreds;        /* own slots / predicates */
	uint32_t reg_base, pred_base;  /* module-wide base after relocation */
	/* kernel parameters (is_entry) or formal params + return values */
	uint32_t nparams;
	uint32_t *param_size, *param_off;
	sc__param_decl_t *param_decl;  /* nparams entries */
	uint32_t param_bytes;
	uint32_t nrets;
	uint32_t *ret_size, *ret_off;
	uint32_t local_own;            /* bytes of own .local data */
	uint32_t frame_off;            /* .func: offset of its frame in local memory */
	uint32_t frame_bytes;          /* .func: params + rets + own locals (not
	                                  those on the stack: stack_frame) */
	/* .func on a cycle of the call graph (call.c): each activation's own
	 * .local data, stack_frame bytes, lies on the call stack, addressed
	 * from its frame pointer, a 64-bit register (slot fp_slot, when
	 * has_fp) that the call writes */
	uint32_t stack_frame;
	uint32_t fp_slot;
	bool has_fp;
	uint32_t smem_static;          /* kernel: static shared bytes */
	uint32_t dyn_smem_align;       /* kernel: alignment of extern .shared */
	uint32_t smem_warp;            /* kernel: shared bytes per warp the launch adds
	                                  at the CTA's end (Penny's checkpoints, pennyc.c;
	                                  emitted as .pragma "flipsim smem_per_warp N") */
	bool uses_funcs;               /* kernel: reaches any .func */
	bool uses_stack;               /* kernel: reaches a dynamic call (call.c) */
	bool addr_taken;               /* .func: an indirect call may reach it */
	uint32_t maxntid[3], reqntid[3], minnctapersm;
	/* totals for a kernel, over everything it can call */
	uint32_t regs_total, preds_total, local_total;
	/* alloc mode (regalloc.c) keeps the ptx-mode numbers: the kernel's
	 * totals and the function's own slots as code_ptx addresses them */
	uint32_t regs_ptx, preds_ptx;
	/* datapath duplication (dup.c): the own ptx slots of the original
	 * registers (the replicas follow them); dup_done when transformed */
	uint32_t dup_nregs;
	bool dup_done;
	/* liveness of a kernel's own registers for sc_target_dead (fault.c),
	 * computed on first use; NULL when not computed or not usable */
	struct sc_live *live;
	bool live_done;
	/* the function's own slots as code_ptx (ptx mode: code) addresses
	 * them, in both modes */
	uint32_t ptx_reg_base, ptx_nregs, ptx_pred_base, ptx_npreds;
	/* names (sc__reg_name): every .reg declaration, in order */
	sc__reg_decl_t *decl;
	uint32_t ndecl;
	/* kernel: the shared variables in its layout, by offset (a dynamic
	 * one last; several extern names share its offset) */
	sc__smem_var_t *smem_var;
	uint32_t nsmem_var;
	/* alloc mode (regalloc.c): vslot[v] is where ptx value v (sc_live_t's
	 * numbering on code_ptx: slots, then predicates) sits, a module-wide
	 * slot or predicate, | SC_VSLOT_PAIR for a 64-bit value;
	 * SC_VSLOT_NONE for a slot no operand names. vlive: liveness of those
	 * values on code_ptx (live-in sets only), computed on first use
	 * (sc__vreg_at) or by sc__vreg_prepare; NULL when not yet or no
	 * memory. */
	uint16_t *vslot;
	struct sc_live *vlive;
	uint64_t *vpin;                /* values other lanes read (shfl), as vlive's */
	bool vlive_done;
	/* local memory a pass gave the function (sc__pass_local): it lies
	 * below local_pass_end, above every frame (0: none) */
	uint32_t local_pass_end;
	/* spilling (spill.c): the function's own, and for a kernel the
	 * totals over itself and everything it can call */
	sc__spill_stats_t spill_own, spill_total;
} sc_func_t;

/* The ptx-mode value of f's frame pointer (function-relative: the last
 * two of its own slots, ptx_parse.c's stack_frames), or UINT32_MAX when f
 * has no stack frame. */
static inline uint32_t sc__frame_value(const sc_func_t *f)
{
	return f->stack_frame ? f->ptx_nregs - 2 : UINT32_MAX;
}
#define SC_VSLOT_NONE 0xffffu
#define SC_VSLOT_PAIR 0x8000u

/* What the emitter (emit.c) needs of the PTX that lowering folds into
 * numbers: every symbol as declared, where the code names one (a
 * relocation), and each call's argument list. */
enum {
	SC_SYM_VAR = 0, /* a variable (.global .const .shared .local, call-site .param: CALL) */
	SC_SYM_KPARAM,  /* a kernel parameter */
	SC_SYM_PARAM,   /* a .func's formal parameter */
	SC_SYM_RET,     /* a .func's return value */
	SC_SYM_CALL     /* a .param variable a call passes or returns */
};
typedef struct sc__sym {
	char *name;
	uint8_t space;                 /* SC_SP_* as declared (parameters: SC_SP_PARAM) */
	uint8_t role;                  /* SC_SYM_* */
	int32_t owner;                 /* declaring function, -1: module scope */
	uint32_t size, align;
	uint8_t *init;                 /* initial bytes, NULL: none */
	bool is_extern;                /* .extern .shared (size 0) */
	uint64_t addr;                 /* module scope .global: its device address;
	                                  .const: its offset in the bank */
} sc__sym_t;
/* The imm of the word at pc (pool: pool entry `at`) is the address of
 * symbol sym plus addend, as written. */
typedef struct sc__reloc {
	uint32_t at;
	bool pool;
	uint32_t sym;
	int64_t addend;
} sc__reloc_t;
/* The call at pc returns into syms[0, nret) and passes syms[nret, nret + narg). */
typedef struct sc__call {
	uint32_t pc, nret, narg;
	uint32_t sym[40];
} sc__call_t;

struct sc_module {
	char *name;
	sc__sym_t *syms;               /* emit.c's view of the PTX (above) */
	uint32_t nsyms;
	sc__reloc_t *reloc;
	uint32_t nreloc;
	sc__call_t *calls;
	uint32_t ncalls;
	sc_insn_t *code;
	uint32_t ncode;
	uint32_t *line;                /* source line of each instruction */
	uint64_t *pool;
	uint32_t npool;
	sc_func_t *funcs;
	uint32_t nfuncs;
	uint8_t *cbank;                /* .const bank */
	uint32_t cbank_size;
	uint32_t nregs_all, npreds_all;/* slots used by the whole module */
	uint32_t local_all;            /* bytes: largest kernel local + all frames */
	uint32_t max_call_depth;
	sc__dcall_t *dcalls;           /* calls through the call stack (call.c) */
	uint32_t ndcalls;
	bool uses_heap;          /* calls malloc (a builtin body): the device heap */
	sc_regs_t regs;                /* the register mode it was lowered in */
	sc_insn_t *code_ptx;           /* alloc mode: the code before allocation */
	struct sc_penny_tab *penny;    /* Penny's regions (penny.c), built at its
	                                  first launch under Penny; NULL before */
	uint32_t max_regs;             /* alloc mode: spill above this many slots per thread (0: never) */
	bool spilling;                 /* a spill round is committing (spill.c) */
	bool spilled;                  /* spill slots lie at local addresses from spill_base up */
	uint32_t spill_base;
	struct sc_pennyc_tab *pennyc;  /* Penny compiled: the recovery table
	                                  (pennyc.c), made with the checkpoints */
	struct sc_module *next;
};

/* What the PTX loader needs from the GPU it loads into, passed in so that
 * the parser never calls back into gpu.c: the register mode, and where a
 * module's .global variables go. */
typedef struct sc_ptx_host {
	sc_regs_t regs;
	uint32_t max_regs;  /* alloc mode: spill to fit this many slots per thread (0: never) */
	/* Allocates `bytes` of global memory holding a copy of `init` (NULL:
	 * zeros); 0 and the address in *addr, or an SC_E* code. */
	int (*alloc_global)(void *ctx, uint64_t bytes, const void *init, uint64_t *addr);
	void *ctx;
} sc_ptx_host_t;

/* Parses and lowers PTX text into a module whose global variables are
 * allocated through `host`. Returns 0 or SC_EPARSE/SC_ENOMEM with the
 * message (NAME:LINE:COL: ...) in msg. */
int sc__ptx_load(const sc_ptx_host_t *host, const char *name, const char *text, sc_module_t **out,
                 char *msg, size_t msgsz);
void sc__module_free(sc_module_t *m);

/* ---- names of registers and shared variables (ptx_parse.c, regalloc.c) ----
 * What a fault site held, for people: slots back to the PTX registers and
 * shared offsets back to variables. None of it runs per instruction; all
 * of it is owned by the module (sc__module_free).
 *
 * Slots here are ptx-mode slots: module-wide, as code_ptx (in ptx mode,
 * code) addresses them, in f's window [f->ptx_reg_base, + ptx_nregs)
 * (predicates: ptx_pred_base, ptx_npreds). A 64-bit register %rd2 takes
 * two slots; both are named "%rd2", and sc__reg_type says which half. */

/* The function whose code holds pc, or NULL. */
const sc_func_t *sc__func_at(const sc_module_t *m, uint32_t pc);
/* Writes the name of f's register (pred: predicate) at ptx slot `slot`
 * into buf (at most n bytes, terminated): "%f3" for slot 3 of %f<5>,
 * "%rd2" for either slot of %rd2, a single register by its plain name
 * (where { } blocks reuse a name, each declaration has slots of its own).
 * Returns 0, or -1 (buf "") when no declaration of f covers the slot. */
int sc__reg_name(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred, char *buf, size_t n);
/* The declaration of f covering ptx slot `slot` (pred: predicate), with
 * the slot's offset from its first slot in *k; NULL when none does. */
const sc__reg_decl_t *sc__reg_decl(const sc_func_t *f, uint32_t slot, bool pred, uint32_t *k);
/* The declared type (SC_T_*, SC_T_PRED for predicates) of the register at
 * `slot` in *type, and in *half which 32 bits of a 64-bit register the
 * slot holds (0 low, 1 high; 0 for anything narrower); either may be
 * NULL. Returns 0, or -1 as sc__reg_name. */
int sc__reg_type(const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred, uint8_t *type,
                 unsigned *half);

/* The ptx-mode slot (predicate) of the virtual register that physical slot
 * `phys_slot` (a thread's absolute slot; pred: predicate) holds for the
 * function at pc (sc__func_at), when the instruction at pc is the next to
 * run (a lane's: the topmost SIMT entry holding the lane): *ptx_slot
 * names it through sc__reg_name with that function.
 * alloc mode: the value allocated there that is live into pc (read before
 * written on some path from pc); for a 64-bit value the ptx slot of the
 * same half (first slot + 1 for the high one). ptx mode: the identity,
 * live or not, as every virtual register keeps its slot. Returns 0; 1 for
 * no virtual register: a dead slot (alloc), no function at pc, or a slot
 * outside the function's window (below a .func's window lie its callers'
 * registers: see sc__vreg_in_frames); or SC_ENOMEM (which is -1) when
 * the function's liveness, computed on first use (written through m; not
 * thread-safe), cannot be. */
int sc__vreg_at(const sc_module_t *m, uint32_t pc, uint32_t phys_slot, bool pred, uint32_t *ptx_slot);
/* As sc__vreg_at for a thread stopped at pc inside calls: calls[0 ..
 * ncalls) are its return pcs, outermost first (sc_warp_t's calls). The
 * innermost frame whose function's window holds phys_slot decides, at its
 * own pc (a caller at its call, return pc - 1): callees' windows lie
 * above what their callers keep live across the call. ptx mode: a slot in
 * the window of a .func that is not running is that .func's register
 * (it keeps its value until the next call). *owner (may be NULL): the
 * function to name *ptx_slot with. Returns as sc__vreg_at. */
int sc__vreg_in_frames(const sc_module_t *m, uint32_t pc, const uint32_t *calls, uint32_t ncalls,
                       uint32_t phys_slot, bool pred, uint32_t *ptx_slot, const sc_func_t **owner);
/* Computes now what sc__vreg_at would compute on first use, for every
 * function (call it before fork() so that children share it). Returns 0
 * or SC_ENOMEM. */
int sc__vreg_prepare(sc_module_t *m);
/* ptx mode's fault targets: where kernel-numbered ptx slot vs (pred: the
 * predicate) of lane `lane` of warp w, running kernel k, keeps its value
 * now on the allocated machine: *phys, the physical slot (predicate)
 * holding it, when some path from the lane's pc reads that value before
 * writing it (a shfl source always: its slot is pinned); the upper word of
 * a 64-bit register is the upper slot of its pair. Returns 0; 1 when the
 * register holds nothing that is read again (dead, never named, exited
 * lane): a fault in it is masked; SC_ENOMEM. m must be allocated. */
/* The function of m whose ptx window holds the kernel-numbered slot vs
 * (pred: predicate) of a thread of kernel k (kernels number from 0, .funcs
 * above them all), or NULL. */
const sc_func_t *sc__ptx_owner(const sc_module_t *m, const sc_func_t *k, uint32_t vs, bool pred);
int sc__vreg_home(const sc_module_t *m, const sc_func_t *k, const struct sc_warp *w, uint32_t lane, uint32_t vs, bool pred,
                  uint32_t *phys);

/* The shared variable of kernel k at byte `offset` of the CTA's shared
 * memory: 0 with its name (owned by the module) in *name and the offset
 * inside it in *var_offset (either may be NULL), or -1 when the offset
 * lies in no variable (padding, beyond the static data of a kernel with
 * no extern shared, or k not a kernel). */
int sc__smem_var(const sc_module_t *m, const sc_func_t *k, uint32_t offset, const char **name,
                 uint32_t *var_offset);

/* ---- liveness and register allocation (regalloc.c) ----
 * Values of a function: its register slots [reg_base, reg_base + nregs)
 * are values 0 .. nregs-1 (a 64-bit register is the value of its first
 * slot), its predicates [pred_base, pred_base + npreds) the values nregs ..
 * nregs+npreds-1. in/out hold, for each pc of [lo, hi), the values live
 * before and after the instruction: `words` 64-bit words per pc. */
typedef struct sc_live {
	uint32_t lo, hi;
	uint32_t reg_base, nregs, pred_base, npreds;
	uint32_t nv, words;
	uint64_t *in, *out;
} sc_live_t;

/* Liveness of the instructions code[lo, hi) (one function). Returns 0,
 * SC_ENOMEM, or SC_EINVAL when an operand lies outside the given registers.
 * Free with sc__live_free (also after a failure). */
int sc__live(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t reg_base, uint32_t nregs, uint32_t pred_base,
             uint32_t npreds, sc_live_t *lv);
void sc__live_free(sc_live_t *lv);
static inline bool sc__live_at(const sc_live_t *lv, const uint64_t *set, uint32_t pc, uint32_t v)
{
	const uint64_t *w = set + (size_t)(pc - lv->lo) * lv->words;
	return (w[v >> 6] >> (v & 63)) & 1u;
}

/* Allocates the registers of every function of m (lowered in ptx mode,
 * relocated, reconvergence computed, ptx_* and *_ptx set, as
 * sc__ptx_load does) and rewrites its code; keeps the
 * ptx-mode code in m->code_ptx and checks the result with
 * sc__regalloc_verify. Returns 0, SC_ENOMEM, or SC_EPARSE with msg. */
int sc__regalloc(sc_module_t *m, char *msg, size_t msgsz);
/* Checks an allocated module against its code_ptx: values live at once
 * never overlap, and along every CFG path each read of a value finds the
 * slot last written by that value (or never written, or not by a call).
 * Returns 0, SC_ENOMEM, SC_EINVAL (no ptx code kept), or SC_EPARSE with
 * the first violation in msg. */
int sc__regalloc_verify(const sc_module_t *m, char *msg, size_t msgsz);

/* ---- passes over the lowered code (pass.c; DESIGN.md, "Passes over the
 * lowered code") ----
 * An editing session on a module's virtual-register code: code_ptx in
 * alloc mode (the allocation is re-run at commit), code in unalloc mode.
 * pcs are those of that code as it was when the session began; register
 * operands use its ptx numbering (module-wide: f->ptx_reg_base + own
 * slot, predicates from f->ptx_pred_base), a word being read in the
 * numbering of the function that holds it. Jump targets in inserted words
 * are old pcs of the same function. Nothing changes in the module until
 * sc__pass_commit, which frees the session in every case. */
typedef struct sc_pass sc_pass_t;
/* Starts a session on m. 0 or SC_ENOMEM. */
int sc__pass_begin(sc_module_t *m, sc_pass_t **out);
/* Ends a session without changing the module (NULL: no-op). */
void sc__pass_abort(sc_pass_t *p);
sc_module_t *sc__pass_module(const sc_pass_t *p);
/* Instructions of the code edited, and the word at old pc (with any
 * replacement), NULL past the end. */
uint32_t sc__pass_ncode(const sc_pass_t *p);
const sc_insn_t *sc__pass_insn(const sc_pass_t *p, uint32_t pc);
/* Index of the function holding old pc, -1 for none. */
int sc__pass_func_of(const sc_pass_t *p, uint32_t pc);
/* Words inserted so far (prologues included). */
uint32_t sc__pass_inserted(const sc_pass_t *p);
/* Inserts a copy of `in` before old pc (after: after it), after what was
 * inserted there before. Jumps to pc land on the words inserted before
 * it; words inserted after a block end run only when it falls through
 * (a guarded bra whose guard fails). 0, SC_EINVAL or SC_ENOMEM. */
int sc__pass_insert(sc_pass_t *p, uint32_t pc, bool after, const sc_insn_t *in);
/* Appends `in` to function fi's prologue: words that run once when the
 * function is entered (launch or call), before anything inserted before
 * its first instruction; a jump to that instruction does not run them. */
int sc__pass_prologue(sc_pass_t *p, uint32_t fi, const sc_insn_t *in);
/* Replaces the word at old pc (a call cannot be replaced). */
int sc__pass_replace(sc_pass_t *p, uint32_t pc, const sc_insn_t *in);
/* Inserts a copy of the word at old pc right after it. */
int sc__pass_dup(sc_pass_t *p, uint32_t pc);
/* A new register of function fi of SC_T_* `type` (64-bit types take two
 * slots, SC_T_PRED a predicate): its operand (R32, R64 or PRED) in
 * *opnd. It is declared "%sc_rN" ("%sc_rdN", "%sc_pN") for names and the
 * emitter. 0, SC_EINVAL (no such function, a bad type, no slot left) or
 * SC_ENOMEM. */
int sc__pass_new_reg(sc_pass_t *p, uint32_t fi, unsigned type, sc_opnd_t *opnd);
/* A constant-pool entry holding v (an existing one when equal): its IMM
 * operand in *opnd. */
int sc__pass_const(sc_pass_t *p, uint64_t v, sc_opnd_t *opnd);
/* Liveness of function fi's registers on the code edited, before any
 * edit (sc__live with the function's ptx window). */
int sc__pass_live(const sc_pass_t *p, uint32_t fi, sc_live_t *lv);
/* `bytes` of thread-local memory for function fi, aligned to `align` (a
 * power of two, at most 16): *offset is its address in the thread's
 * local space, for ld.local/st.local [offset]. The storage lies above
 * every existing frame and variable (nothing moves; m->local_all grows)
 * and is the function's alone: at commit, f->local_pass_end and the
 * local_total of every kernel that reaches f grow to cover it. 0,
 * SC_EINVAL (no such function, a bad alignment, over 512 KiB) or
 * SC_ENOMEM. */
int sc__pass_local(sc_pass_t *p, uint32_t fi, uint32_t bytes, uint32_t align, uint32_t *offset);
/* Applies the edits: checks every inserted word (sc__insn_valid, no call,
 * registers in its function's window, constants in the pool, jumps inside
 * the function), places them, renumbers each function's registers into
 * its new window, remaps every pc (jump and call targets, each function's
 * entry_pc and end_pc, the line table: inserted words carry the line of
 * the instruction they are attached to; the emitter's relocations and
 * call records), drops what was derived from the
 * old code (liveness caches, vslot), recomputes reconvergence, re-runs
 * the allocation with its proof (sc__regalloc, sc__regalloc_verify) in
 * alloc mode, checks every word with sc__insn_check, and in alloc mode
 * spills what no longer fits m->max_regs (sc__spill). Returns 0, or
 * SC_EINVAL / SC_EPARSE / SC_ENOMEM with msg; after SC_EINVAL the module
 * is unchanged, after the others it must be freed. */
int sc__pass_commit(sc_pass_t *p, char *msg, size_t msgsz);
/* The diagnostic passes (tests, FLIPSIM_PASS): "nop-leaders", "nop-all"
 * and "dup" (DESIGN.md). sc__pass_name(i): the i-th name, NULL past the
 * last. sc__pass_apply runs one on m and commits: as sc__pass_commit. */
const char *sc__pass_name(unsigned i);
int sc__pass_apply(sc_module_t *m, const char *name, char *msg, size_t msgsz);

/* Register spilling (spill.c; DESIGN.md, "Spilling"): while a kernel of
 * m (alloc mode, m->max_regs set) needs more than m->max_regs slots per
 * thread after allocation, spills the cheapest virtual registers at the
 * points over the limit to local memory through a pass (each definition
 * stored, each use loaded into a fresh register) and commits it, which
 * re-runs the allocation. Stops when every kernel fits or nothing more
 * can be spilled (the launch then refuses the kernel). Nothing happens
 * while m->spilling (its own commits). Returns 0, or as sc__pass_commit
 * (the module must then be freed). */
int sc__spill(sc_module_t *m, char *msg, size_t msgsz);

/* ---- reaching definitions and backward slices (slice.c) ----
 * Over code[lo, hi) of one function, registers in slots [0, nregs) and
 * predicates [0, npreds) of the numbering its words use (a pass: the
 * function's ptx window). A definition is a register destination of one
 * word (sc__insn_regs); a guarded one kills nothing. */
typedef struct sc_rdefs {
	uint32_t lo, hi, nregs, npreds;
	uint32_t ndef, words;      /* definitions; 64-bit words per set */
	uint32_t *def_pc;          /* definition -> its pc */
	sc_regref_t *def_ref;      /* definition -> the destination it writes */
	uint32_t *first;           /* pc - lo -> its first definition (n + 1) */
	uint64_t *in;              /* pc - lo -> definitions reaching its entry */
	uint32_t *by_slot;         /* the definitions of each slot, by slot_first */
	uint32_t *slot_first;      /* slot (predicates after nregs) -> by_slot */
} sc_rdefs_t;
/* 0, SC_ENOMEM, or SC_EINVAL (a destination outside the window). */
int sc__rdefs(const sc_insn_t *code, uint32_t lo, uint32_t hi, uint32_t nregs, uint32_t npreds, sc_rdefs_t *rd);
void sc__rdefs_free(sc_rdefs_t *rd);
/* The definitions reaching the read r at pc: how many; the first max of
 * them in out (definition indices). */
uint32_t sc__rdefs_of(const sc_rdefs_t *rd, uint32_t pc, sc_regref_t r, uint32_t *out, uint32_t max);
/* The backward slice of the source operands of the word at pc whose
 * positions are set in opmask: marks cone[dp - lo] for every word dp
 * whose definition reaches them, transitively through the sources of
 * those words (not their guards), except past a word for which follow
 * (NULL: always) says false. cone is the caller's (hi - lo flags), and
 * words already marked are not visited again. 0 or SC_ENOMEM. */
int sc__slice(const sc_rdefs_t *rd, const sc_insn_t *code, uint32_t pc, uint32_t opmask,
              bool (*follow)(const sc_insn_t *in, void *ctx), void *ctx, bool *cone);

/* ---- datapath duplication (dup.c; DESIGN.md, "Datapath duplication and
 * resilient instructions") ----
 * A resilient word (SC_MOD_RES) is its base instruction's operands, then
 * the replicas, with the base's vector width in aux:
 *   raLoad  (ld):   d1..dv [d1'..dv'] a a'      ndst v or 2v, nsrc 2
 *   raStore (st):   a x1..xv a' [x1'..xv']      nsrc v + 2 or 2v + 2
 *   raSetP  (setp): p [q] a b [c] a' b'         nsrc 4 or 5
 * sc__res_split gives the base word, the pairs it compares (an address
 * as its base register) and raLoad's replica destinations: 0, or -1 when
 * `in` has no resilient shape (sc__insn_check refuses it then). */
typedef struct sc_res {
	sc_insn_t base;
	sc_opnd_t orig[3], rep[3]; /* the compared operands */
	unsigned np;
	sc_opnd_t odst[2], rdst[2]; /* raLoad: each destination and its replica */
	unsigned nrd;
} sc_res_t;
int sc__res_split(const sc_insn_t *in, sc_res_t *r);
/* Applies the protection's transform to a loaded module (the pass at
 * load, gpu.c): 0, or SC_EINVAL / SC_EPARSE / SC_ENOMEM with msg. */
int sc__dup_apply(sc_module_t *m, const sc_dup_protection_t *dp, char *msg, size_t msgsz);

/* reach[i * nfuncs + j]: function i of m can call j, directly or not
 * (by the call targets in m->code); NULL when out of memory. Free it. */
bool *sc__call_closure(const sc_module_t *m);

/* Immediate post-dominator reconvergence (cfg.c): fills the reconvergence
 * pc of every conditional branch of each function. Returns 0. */
int sc__cfg_reconverge(sc_module_t *m);

/* ---- global memory (mem.c) ---- */
typedef struct sc_alloc {
	uint64_t base, size;
	uint8_t *data;
	size_t mapped;       /* a mapping of its own (large allocations, mem.c): its length; 0 from calloc */
} sc_alloc_t;

typedef struct sc_gmem {
	sc_alloc_t *a;       /* sorted by base */
	uint32_t n, cap;
	uint64_t next_base;
	uint32_t hint;       /* index of the last allocation found */
	uint32_t at[16];     /* sc__gmem_find_at: the last one found per key % 16 */
	bool freed;          /* an allocation was freed: indices have moved */
} sc_gmem_t;

/* Global memory in lines of SC_LINE bytes, each allocation on its own: the
 * unit in which golden checkpoints record memory and in which an experiment
 * whose only difference lies in memory no one touches again can be
 * finished without simulating (rt.c). */
#define SC_LINE 256u
/* Memory trace (rt.c turns it on: golden recording, replays, experiments):
 * per line of each allocation, the last cycle a global store or atomic, or a
 * host copy or memset, wrote it (always) and the last cycle any global
 * access touched it (golden recording only, for mem_final). A line written
 * at cycle c carries c + 1, so a line whose mark is at most the cycle of a
 * pause point was not written since that pause. Every path that writes
 * global memory must mark it: exec.c's per-lane resolve() and its warp-wide
 * fast_span() (sc__trace_touch, for every lane's access, loads included
 * when touches are recorded) and the host copies of gpu.c (sc__trace_wrote).
 *
 * The line-hash cache: every line's hash (sc__gmem_hash's per-line values)
 * as of the pause at cycle `at`, for the allocation layout `sig`
 * (sc__gmem_layout). sc__gmem_hash_at rehashes only the lines written
 * since; `base` is where the hashes as of `at` are read from: lh itself,
 * or a golden checkpoint's row that an experiment starts from. */
typedef struct sc_trace {
	uint32_t n;            /* allocations covered, by index in sc_gmem_t */
	uint64_t **last;       /* per allocation: per line, last touch cycle + 1 (0 = never); touch only */
	uint64_t **wrote;      /* per allocation: per line, last write cycle + 1 (0 = never) */
	bool touch;            /* record touches too (golden recording with lines) */
	bool broken;           /* touches: an allocation was freed (indices moved) */
	bool wbroken;          /* writes: the same (the cache is then of no use) */
	uint64_t *lh;          /* the cache: nlh line hashes (owned) */
	const uint64_t *base;  /* the hashes as of `at` (lh or borrowed); NULL: no cache */
	uint32_t nlh;
	uint64_t at, sig;
	uint64_t rehashed;     /* lines hashed by the last sc__gmem_hash_at (tests) */
} sc_trace_t;
/* A global access of `size` bytes at addr, in the allocation sc__gmem_find
 * just found (g->trace set): sc__trace_touch (below sc_gpu_t) calls it for
 * writes, and for loads only while touches are recorded. */
void sc__trace_mark(sc_gpu_t *g, uint64_t addr, uint32_t size, bool write);
/* The host wrote [addr, addr + bytes), inside one allocation (no-op without a trace). */
void sc__trace_wrote(sc_gpu_t *g, uint64_t addr, uint64_t bytes);
/* Turns the trace on (touch: record touches too). 0 or SC_ENOMEM. */
int sc__trace_on(sc_gpu_t *g, bool touch);
void sc__trace_free(sc_gpu_t *g);
/* Lines of global memory now (all allocations). */
uint32_t sc__gmem_nlines(const sc_gmem_t *m);
/* A signature of the allocation layout (bases and sizes) the lines are cut from. */
uint64_t sc__gmem_layout(const sc_gmem_t *m);
/* The global-memory part of the state hash (fault.c); fills lines[], one
 * hash per line in allocation order, when not NULL. */
uint64_t sc__gmem_hash(const sc_gpu_t *g, uint64_t *lines);
/* The same value at the pause of cycle `at`, through the trace's cache: only
 * lines written since the cache's cycle are hashed again when the cache
 * fits the layout; afterwards g->trace->lh holds every line's hash as of
 * `at`. Without a usable trace it hashes everything (and fills the cache
 * when it can). */
uint64_t sc__gmem_hash_at(sc_gpu_t *g, uint64_t at);
/* Starts the cache from hashes known elsewhere: base[0..n) as of cycle at
 * for layout sig (borrowed until the next sc__gmem_hash_at). */
void sc__gmem_cache_seed(sc_gpu_t *g, const uint64_t *base, uint32_t n, uint64_t sig, uint64_t at);

/* A private zeroed mapping of *len bytes rounded up to 2 MiB pages (the
 * rounded length back in *len), aligned to and advised for them where the
 * kernel has them; NULL when out of memory. Free with munmap. */
#define SC_HUGE_PAGE ((size_t)2 << 20)
void *sc__map_huge(size_t *len);

int sc__gmem_alloc(sc_gmem_t *g, uint64_t bytes, uint64_t *base);
int sc__gmem_free(sc_gmem_t *g, uint64_t base);
void sc__gmem_release(sc_gmem_t *g);
/* Host pointer for [addr, addr+bytes) inside one allocation, or NULL. */
uint8_t *sc__gmem_find(sc_gmem_t *g, uint64_t addr, uint64_t bytes);
/* Host pointer for [addr, addr+bytes) when allocation i holds it, else NULL. */
static inline uint8_t *sc__gmem_in(const sc_gmem_t *g, uint32_t i, uint64_t addr, uint64_t bytes)
{
	if (i >= g->n)
		return NULL;
	const sc_alloc_t *a = &g->a[i];
	return addr >= a->base && addr - a->base <= a->size && bytes <= a->size - (addr - a->base)
	           ? a->data + (addr - a->base)
	           : NULL;
}
/* sc__gmem_find, trying first the allocation that the last search with the
 * same key found (the global accesses of an instruction, keyed by its pc,
 * mostly stay in one buffer). Allocations do not overlap, so one that
 * holds the range is the one sc__gmem_find would find; g->hint ends the
 * same either way. */
static inline uint8_t *sc__gmem_find_at(sc_gmem_t *g, uint32_t key, uint64_t addr, uint64_t bytes)
{
	uint32_t *h = &g->at[key % 16];
	uint8_t *p = sc__gmem_in(g, *h, addr, bytes);
	if (p) {
		g->hint = *h;
		return p;
	}
	p = sc__gmem_find(g, addr, bytes);
	if (p)
		*h = g->hint;
	return p;
}

/* ---- PTX tokens (ptx_lex.c) ---- */
enum {
	SC_TK_EOF = 0, SC_TK_IDENT, SC_TK_DIRECTIVE, SC_TK_REG, SC_TK_INT,
	SC_TK_F32, SC_TK_F64, SC_TK_FLOAT, SC_TK_STRING, SC_TK_PUNCT
};

typedef struct sc_tok {
	uint8_t kind;
	char punct;         /* SC_TK_PUNCT: the character */
	uint32_t len;
	const char *p;      /* text of the token (not terminated) */
	uint32_t line, col;
	uint64_t bits;      /* INT value (two's complement), F32/F64 raw bits */
	double fval;        /* SC_TK_FLOAT (decimal literal) */
} sc_tok_t;

/* Splits text into tokens (comments dropped, SC_TK_EOF last). Returns 0,
 * or SC_EPARSE with "NAME:LINE:COL: ..." in msg, or SC_ENOMEM. */
int sc__ptx_lex(const char *name, const char *text, sc_tok_t **toks, uint32_t *ntoks, char *msg,
                size_t msgsz);

/* ======================================================================
 * Machine state (sm.c runs it, gpu.c owns it)
 *
 * Per SM: a physical register file of regs_per_sm 32-bit words; CTA slot k
 * of a launch owns words [k * W * R * 32, (k + 1) * W * R * 32), with W warps
 * per CTA and R slots per thread; register r of lane l of the warp in slot
 * s is rf[(s * R + r) * 32 + l]. The predicate file holds one 32-bit word
 * (one bit per lane) per predicate per warp slot. Shared memory: CTA slot k
 * owns [k * S, k * S + S) for S bytes per CTA. These are the fault targets.
 * ====================================================================== */
enum { SC_W_IDLE = 0, SC_W_ACTIVE, SC_W_BAR, SC_W_DONE };

typedef struct sc_simt {
	uint32_t pc, rpc, mask;
} sc_simt_t;

/* An instruction-buffer entry. `valid` holds two bits: SC_IB_VALID, the
 * entry's valid bit (the fault target: fault.c flips bit 0), and
 * SC_IB_HELD, set while the entry holds the word fetched for its pc since
 * the last flush. Fault-free an entry is empty (0) or both; a 1->0 flip
 * leaves SC_IB_HELD alone, so an issue can tell a valid bit a fault cleared
 * (the word is there, marked invalid: cfg.ibuffer_invalid decides) from an
 * entry not yet filled (fetched at no cost, as always), and a 0->1 flip
 * makes an empty entry's stale word valid. Hardware needs no second bit for
 * this; GPGPU-Sim has one (an entry's instruction pointer next to its valid
 * flag). */
enum { SC_IB_VALID = 1, SC_IB_HELD = 2 };

typedef struct sc_ibent {
	sc_insn_t insn;
	uint8_t valid;
} sc_ibent_t;

struct sc_cta;

typedef struct sc_warp {
	/* what every issue reads first, in one host cache line (the struct
	 * is line-aligned) */
	uint8_t state;
	bool ib_dirty;          /* a fault touched the IB: check words before issue */
	uint8_t bar_id, bar_kind;
	uint32_t sp;            /* SIMT stack entries in use */
	uint32_t ib_pc;         /* pc held by ib[0] */
	uint32_t slot;          /* warp slot in the SM */
	sc_simt_t *stk;         /* right after ib, in the same block (gpu.c) */
	sc_ibent_t *ib;
	uint32_t *rf;           /* register 0 of lane 0 */
	uint32_t *pf;           /* predicate 0 */
	uint64_t *ready;        /* scoreboard: cycle each slot, then each predicate, is readable */
	uint32_t live;          /* lanes not exited */
	uint32_t cc;            /* carry flag per lane */
	/* the rest */
	sc_opnd_t bar_dst;      /* bar.red destination operand */
	uint32_t bar_mask;      /* lanes that executed the bar.red */
	uint32_t wid;           /* warp index in its CTA */
	uint32_t ncalls;
	uint32_t *calls;        /* return pcs */
	uint32_t csp;           /* the running lanes' call-stack depth in bytes (call.c) */
	uint64_t age;           /* dispatch order (GTO) */
	uint8_t *local;         /* lane 0's local memory; lane l at local + l * local_size */
	struct sc_cta *cta;
} __attribute__((aligned(64))) sc_warp_t;

/* The pc lane `lane` of w stands at: its innermost SIMT entry's (the
 * instruction it runs next), SC_PC_NONE when no entry holds it. */
static inline uint32_t sc__lane_pc(const sc_warp_t *w, uint32_t lane)
{
	for (uint32_t i = w->sp; i-- > 0;)
		if (w->stk[i].mask >> lane & 1u)
			return w->stk[i].pc;
	return SC_PC_NONE;
}

typedef struct sc_bar {
	uint32_t arrived;       /* warps */
	uint32_t expected;      /* warps; 0 = every live warp of the CTA */
	uint32_t popc;
	bool all, any;
} sc_bar_t;

typedef struct sc_cta {
	bool used;
	uint32_t slot;
	uint32_t ctaid[3];
	uint32_t nwarps, nthreads, done;
	uint32_t smem_off;
	uint8_t *local;
	sc_bar_t bar[16];
} sc_cta_t;

typedef struct sc_sm {
	uint32_t id;
	uint32_t *rf;
	uint32_t rf_words;      /* regs_per_sm, or more in ptx mode (see gpu.c) */
	uint32_t *pf;
	uint8_t *smem;
	sc_warp_t *warps;       /* max_warps_per_sm */
	sc_cta_t *ctas;         /* max_ctas_per_sm */
	uint32_t nctas;         /* resident */
	uint32_t *last;         /* per scheduler: last warp slot issued */
	uint64_t *wnext;        /* per warp slot: earliest issue cycle, UINT64_MAX
	                         * unless SC_W_ACTIVE (kept apart from sc_warp_t so
	                         * that the scheduler's scans stay in cache) */
	uint64_t *next;         /* next cycle with work, UINT64_MAX when none: in
	                         * g->sm_next, where the event loop's scan over the
	                         * SMs reads one or two host cache lines */
	uint64_t *sfree;        /* per scheduler: first cycle it may issue again */
	uint64_t *smin;         /* per scheduler: a lower bound of its warps' wnext */
	struct sc_wheel *wh;    /* the warps by wnext, for launches of at most 64 slots */
	uint8_t *nunit;         /* per warp slot: the unit its next instruction
	                         * needs, as an index in ufree (uslot of the
	                         * warp's scheduler), kept with wnext */
	uint64_t *ufree;        /* per functional unit (sc__unit_slot): first cycle it is free */
	uint8_t uslot[8][SC_FU__COUNT]; /* sc__unit_slot(cfg, fu, s) as [s][fu], set at creation */
	uint64_t *ready_mem;
	uint8_t *local_mem;
	uint32_t *call_mem;
	bool pre_issue;         /* a scheme (or the similarity profile) acts before
	                           each issue: sc__prot_create sets it (sm.c) */
	bool hooks;             /* a scheme acts around each issue (pre_issue, err
	                           or sawp): sc__prot_create sets it (sm.c) */
	uint32_t nerr;          /* protection (prot.c): corrupted protected words, */
	struct sc_perr *err;    /* SC_PERR_MAX of them; NULL without protection */
	struct sc_sawp *sawp;   /* the SAWP table (sawp.c); NULL unless a sawp scheme */
	struct sc_sharp *sharp; /* SHARP's state (sharp.c); NULL unless it is on */
	struct sc_penny *penny; /* Penny's snapshots (penny.c); NULL unless it is on */
	struct sc_refu *refu;   /* REFU's replay buffer (refu.c); NULL unless it is on */
	uint64_t ibsim_at;      /* the last cycle sc__ib_sample looked at */
} sc_sm_t;

/* SAWP (sawp.c; DESIGN.md, "SAWP"): an SM's ECC table and the links of its
 * instruction-buffer entries to it. Buffer entry e = slot x ib_entries +
 * position. An entry with x[e] = 1 is linked to table entry idx[e]; a
 * table entry's count is the number of buffer entries linked to it (free
 * at 0). A table entry holds the word whose ECC it keeps (ref: the ECC of
 * a word is that of any identical word) and id, the buffer entry it was
 * last linked to, whose word new fills are compared with. */
typedef struct sc_sawp_ent {
	sc_insn_t ref;
	uint32_t id;
	uint32_t count;
} sc_sawp_ent_t;

typedef struct sc_sawp {
	sc_ib_protection_t p;   /* the parameters in force (sc_ib_params) */
	uint32_t nent;          /* buffer entries: max_warps x ib_entries */
	uint8_t *x;             /* per buffer entry: the exist bit */
	uint8_t *idx;           /* per buffer entry: I */
	uint64_t *nexec;        /* per warp slot: instructions issued since its
	                           CTA started (the progress check) */
	sc_sawp_ent_t *tab;     /* T entries */
} sc_sawp_t;

/* SHARP (sharp.c; DESIGN.md, "SHARP"): an SM's windows, its request queue
 * and the check bits it keeps in shared memory.
 *
 *   per warp slot     state (below), off (completion of its last off-chip
 *                     access), rec (cycle its check bits are stored: a fault
 *                     before it is recorded into them), chk (its check's end)
 *   per reg. vector   grp[slot x R + r]: bit g set while group g (lanes
 *                     4g..4g+3) of the vector has its check bits stored
 *   per rf word       snap: the value the check bits were computed from
 *   per smem word     owner (slot + 1, 0: free), gid (group id
 *                     (vector << 3) | g; word = gid mod words), eccx (the
 *                     stored word's error pattern: bits 7i..7i+6 lane i's
 *                     check bits, bit 28 the busy bit; 0 fault-free),
 *                     valid (the program wrote the word since its CTA
 *                     started), ever (it wrote it during the launch)
 *
 * No check bit is stored: fault-free, a group's stored bits are the code of
 * snap, so a check finds the error pattern (snap xor the register, eccx's
 * bits) and decodes it (ecc.c). */
enum { SC_SHARP_IDLE = 0, SC_SHARP_OPEN, SC_SHARP_DROPPED, SC_SHARP_CHECK };

typedef struct sc_sharp {
	sc_sharp_protection_t p;  /* in force (sc_sharp_params) */
	uint32_t words;           /* 32-bit shared-memory words */
	uint8_t *state;           /* per warp slot */
	uint64_t *off, *rec, *chk;
	uint8_t *grp;             /* regs_per_sm / 32 vectors */
	uint32_t *snap;           /* regs_per_sm words */
	uint16_t *owner;
	uint32_t *gid, *eccx;
	uint8_t *valid, *ever;
	uint64_t *cta_at;         /* per CTA slot: its start cycle (statistics) */
	uint64_t busy;            /* the ECC server is busy until then */
	uint64_t *q;              /* start cycles of the queued requests, a ring */
	uint32_t qhead, qn, qcap;
	uint32_t ntab;            /* warps in the table */
	uint64_t nvalid, valid_at;/* valid words, since cycle valid_at */
	sc_sharp_stats_t st;
} sc_sharp_t;
/* REFU (refu.c; DESIGN.md, "REFU"): an SM's replay buffer, oldest entry
 * first. An entry is an ALU instruction that executed and waits for its
 * replay: its warp slot and pc, its unit kind and class (the interval its
 * replay occupies a unit) and the unit slot (sc__unit_slot) its primary ran
 * on, and when; an ALU instruction's sub-unit (add, logic, mul, cvt: the
 * ALU is split into independent sub-units, each busy for an instruction's
 * interval). What a functional-unit fault did to it: bad, the lanes whose stored
 * result differs from the correct one; chg, the lanes a stuck bit changes
 * when it forces the correct result (a replay on the faulty unit gives
 * those). Fault-free both are 0. mark_* carry sc__fu_apply's finding to
 * the entry issue() makes next. */
enum { SC_REFU_SUB_ADD, SC_REFU_SUB_LOGIC, SC_REFU_SUB_MUL, SC_REFU_SUB_CVT, SC_REFU_NSUB };

typedef struct sc_refu_ent {
	uint32_t slot, pc;
	uint8_t fu, cls, sub, unit;
	uint32_t bad, chg;
	uint64_t at;              /* its primary's issue cycle */
} sc_refu_ent_t;

typedef struct sc_refu {
	uint32_t cap, n;          /* B, and entries waiting */
	sc_refu_ent_t e[SC_REFU_MAX];
	uint64_t pbusy[8][SC_REFU_NSUB]; /* per scheduler's ALU, per sub-unit: busy with */
	uint64_t rbusy[8][SC_REFU_NSUB]; /* a primary, with a replay, until then */
	uint32_t mark_bad, mark_chg;
	sc_refu_stats_t st;
} sc_refu_t;

/* A coded cache line's error pattern of one codeword (cachefault.c): the
 * data bits a fault flipped (also in x) and the check bits (only here). */
typedef struct sc_cwerr {
	uint64_t data;
	uint32_t check;
} sc_cwerr_t;

/* A line whose data a fault changed (cachefault.c): what the line returns
 * is the memory at its tag's address XOR x, for every byte of the line.
 * In a fault-free run no cache has one. Under a code on the cache, err
 * holds the pattern of each of the line's codewords (line bits / k of
 * them; NULL until a fault hits a codeword): decoded when the codeword is
 * read. The entry stays while x or a pattern is not zero. */
typedef struct sc_ovl {
	size_t slot;              /* set * ways + way (ways in recency order) */
	uint8_t *x;               /* the line's bytes (1 << shift) */
	sc_cwerr_t *err;          /* per codeword, or NULL */
	bool tagerr;              /* under tag parity: the tag's parity is wrong */
} sc_ovl_t;

/* The memory system's timing state (memsys.c): tags, sector masks and
 * times, never data. A set's ways are in recency order, way 0 the most
 * recent; tag: line number + 1, 0 when the way is invalid. The overlay is
 * the one exception to "never data": lines a fault corrupted, consulted
 * only while g->ms.nover is not 0 (cachefault.c). */
typedef struct sc_cache {
	uint64_t *tag;
	uint64_t *ready;          /* cycle the line's data is there */
	uint8_t *valid, *dirty;   /* sectored caches (L2): sectors held, written */
	uint32_t sets, ways, shift;
	uint32_t nover, ovcap;    /* the overlay: nover lines in ovl, unordered */
	sc_ovl_t *ovl;
} sc_cache_t;

#define SC_TICK_SHIFT 10      /* DRAM bus times count 1/1024 cycles */

/* Division by a divisor d fixed at creation without a divide instruction
 * where the dividend fits 32 bits: q = (m x) >> 64 with m = ceil(2^64 / d)
 * is exact for every 32-bit x and 2 <= d < 2^32 (Lemire, Kaser, Kurz,
 * "Faster remainder by direct computation", 2019); m = 0 for d = 1. */
typedef struct sc_fdiv {
	uint64_t m;
	uint32_t d;
} sc_fdiv_t;

static inline sc_fdiv_t sc__fdiv_make(uint32_t d)
{
	return (sc_fdiv_t){d > 1 ? UINT64_MAX / d + 1 : 0, d};
}

/* x / f.d, its remainder in *rem. */
static inline uint64_t sc__fdiv(sc_fdiv_t f, uint64_t x, uint64_t *rem)
{
	uint64_t q = f.d == 1 ? x : x >> 32 == 0 ? (uint64_t)(((unsigned __int128)f.m * x) >> 64) : x / f.d;
	*rem = x - q * f.d;
	return q;
}

typedef struct sc_memsys {
	sc_cache_t *l1, *cc;      /* per SM: L1 data, constant */
	sc_cache_t *tc;           /* per SM: texture (no sets: the L1 serves textures) */
	sc_cache_t *l2;           /* per slice */
	uint64_t *port;           /* per slice: cycle its port is free again */
	uint64_t *bus;            /* per channel: tick (1/1024 cycle) its bus is free */
	uint32_t nslices, nchan;
	sc_fdiv_t by_chan, by_spc; /* x / nchan and x / l2_slices_per_channel (place) */
	uint64_t sector_ticks;    /* bus time of one sector */
	uint32_t occ;             /* load/store unit cycles of the access just timed */
	struct {
		uint64_t l1_hits, l1_misses, l2_hits, dram, dram_wb;
		uint64_t cnst[2], tex[2]; /* constant and texture cache lines: hits, misses */
	} count;                  /* sectors (L2, DRAM) and lines (caches) of this launch */
	uint32_t nover;           /* overlay lines in all caches (0: fault-free) */
	uint32_t l2_nover;        /* of them in the L2 */
	uint32_t npatch, patchcap;
	struct sc_patch { uint8_t *p; uint8_t x; } *patch; /* bytes a load's overlay XORed into memory */
	/* The DRAM image (cachefault.c): for each global L2 sector whose DRAM
	 * bytes differ from memory's, the DRAM's. Kept while dimg is on (the
	 * runtime turns it on for l2 campaigns; sc_dram_image). */
	bool dimg;
	uint32_t ndimg, dimg_cap;  /* entries; slots, a power of two */
	uint32_t ndiverged;        /* entries of sectors the L2 holds clean */
	uint64_t *dimg_key;        /* sector number + 1, 0: empty slot */
	uint8_t *dimg_bytes;       /* l2_sector bytes per slot */
} sc_memsys_t;

/* sm.c: recomputes every warp's sm->nunit after a fault changed what a
 * warp issues next (its SIMT stack or instruction buffer). */
void sc__sm_refresh_units(const sc_gpu_t *g, sc_sm_t *sm);

/* memsys.c */
int sc__memsys_create(sc_gpu_t *g);
void sc__memsys_destroy(sc_gpu_t *g);
void sc__memsys_launch(sc_gpu_t *g);
/* The active lanes' lowest and highest address and the bitwise or of all;
 * dense: the size per lane for which all 32 lanes are active and their
 * accesses lie back to back in lane order (addr[l] = lo + l * dense, so
 * they touch [lo, hi + dense) once each), else 0. */
typedef struct sc_bounds {
	uint64_t lo, hi, any;
	uint32_t dense;
} sc_bounds_t;
/* The latency of a warp's access (op SC_OP_LD, SC_OP_ST or an atomic) to
 * `space` at the lanes' addresses minus off, `bytes` per lane, issued at
 * g->cycle; sets g->ms.occ to the load/store unit's busy cycles. bd: the
 * addresses' bounds when the caller has them (NULL: not known). */
uint32_t sc__mem_time(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, int space, int op, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes, const sc_bounds_t *bd);
/* The latency of a texture fetch (tex, tld4) whose lanes in exec read
 * their first texel at addr: through the SM's texture cache, or its L1 when
 * the GPU has none (tex_bytes 0); sets g->ms.occ as sc__mem_time does. */
uint32_t sc__tex_time(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const uint64_t *addr, uint32_t exec);
/* The caches' address space: global addresses as they are (below 2^48),
 * the constant bank from SC_CACHE_CONST and local memory from
 * SC_CACHE_LOCAL (sc__local_base, below sc_gpu_t). */
#define SC_CACHE_CONST (1ull << 61)
#define SC_CACHE_LOCAL (1ull << 62)
/* The slot of line ln in per-SM cache c (L1, constant), or SIZE_MAX when
 * absent; changes nothing (no recency update). */
size_t sc__cache_find(const sc_cache_t *c, uint64_t ln);
/* The set of line ln in per-SM cache c (its sets > 0). */
uint32_t sc__cache_set(const sc_cache_t *c, uint64_t ln);
/* Where the L2 keeps cache address a: its slice, the DRAM channel behind
 * it, its set in the slice, and its line number (a >> log2 l2_line). */
typedef struct sc_l2_place {
	uint32_t slice, chan, set;
	uint64_t line;
} sc_l2_place_t;
sc_l2_place_t sc__l2_place(const sc_gpu_t *g, uint64_t a);
/* The L2 slot holding cache address a (*slice its slice), or SIZE_MAX;
 * changes nothing. */
size_t sc__l2_find(const sc_gpu_t *g, uint64_t a, uint32_t *slice);
/* Invalidates the line in `slot` of c as a global store does: the way
 * becomes the least recent of its set. */
void sc__cache_drop(sc_gpu_t *g, sc_cache_t *c, size_t slot);

/* cachefault.c: the caches as fault targets and the overlay of corrupted
 * lines (its design at the top of the file). Every hook below is called
 * only while g->ms.nover is not 0 (or, for one cache, c->nover), so that
 * fault-free runs never reach them.
 *   memsys.c keeps the overlay's slots in step with the recency order:
 *   sc__ovl_promote (ways 0..w-1 move down one, w becomes 0), sc__ovl_evict
 *   (the line in slot leaves: an L2 line's dirty sectors carry its
 *   corruption to memory), sc__ovl_remove_way (way w invalidated, the ways
 *   after it move up), sc__ovl_clear (the cache flushed), sc__ovl_fill (a
 *   per-SM cache's line in slot was just filled from the L2: it takes the
 *   L2 line's corruption with its data). */
void sc__ovl_promote(sc_cache_t *c, size_t base, uint32_t w);
void sc__ovl_evict(sc_gpu_t *g, sc_cache_t *c, size_t slot);
void sc__ovl_remove_way(sc_gpu_t *g, sc_cache_t *c, size_t base, uint32_t w);
void sc__ovl_clear(sc_gpu_t *g, sc_cache_t *c);
void sc__ovl_fill(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint64_t ca);
void sc__ovl_free(sc_cache_t *c);
/*   exec.c: a load's bytes (`bytes` per lane from addr[l] - off in `space`,
 *   after the data was read): sc__ovl_load XORs into memory what the lines
 *   that serve the load hold differently, as the caches are before the
 *   access, and returns how many bytes it changed (0: none; the load is
 *   right as it is); the caller reads again and calls sc__ovl_unpatch. A
 *   store's bytes overwrite the corruption of the lines holding them
 *   (sc__ovl_store); an atomic at L2 reads the L2's corrupted bytes and
 *   writes them (sc__ovl_atomic: applied to memory at p, then cleared). */
uint32_t sc__ovl_load(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, int space, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes);
void sc__ovl_unpatch(sc_gpu_t *g);
/*   tex.c: a texel's n bytes at global address a, read from memory into
 *   dst by w on sm, take the corruption of the lines that serve them (the
 *   texture cache, or the L1 where the GPU has none, then the L2); false
 *   after the DUE of a tag's parity or a codeword on the way. */
bool sc__ovl_texel(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint64_t a, uint8_t *dst, uint32_t n);
void sc__ovl_store(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, int space, const uint64_t *addr,
                   uint64_t off, uint32_t exec, unsigned bytes);
void sc__ovl_atomic(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, uint64_t a, unsigned bytes,
                    uint8_t *p);
/*   gpu.c: the host reads global memory through the L2 (its corrupted
 *   lines show in the copy; false after the DUE of a codeword the L2's
 *   code detected) and its writes overwrite the L2's corruption. */
bool sc__ovl_host_read(sc_gpu_t *g, uint8_t *dst, uint64_t src, uint64_t bytes);
void sc__ovl_host_write(sc_gpu_t *g, uint64_t dst, uint64_t bytes);
/* The DRAM image (cachefault.c): sc__dimg_store and _store_lanes, called
 * while it is on (g->ms.dimg), before a kernel's store or atomic writes
 * global bytes [a, a + n): sectors without an entry get one (their DRAM
 * bytes are memory's). The others while it has entries (g->ms.ndimg):
 * sc__dimg_host_write after the host wrote global [a, a + n) (it writes
 * through to DRAM too); sc__dimg_evict when the L2 line in slot leaves (a
 * dirty sector is written back, a clean one with an entry loses its newer
 * bytes). sc__dimg_free, sc__dimg_hash (0 while nothing diverged). */
void sc__dimg_store(sc_gpu_t *g, uint64_t a, uint64_t n);
void sc__dimg_store_lanes(sc_gpu_t *g, const uint64_t *addr, uint64_t off, uint32_t exec, unsigned bytes);
void sc__dimg_host_write(sc_gpu_t *g, uint64_t a, uint64_t n);
void sc__dimg_evict(sc_gpu_t *g, sc_cache_t *c, size_t slot);
/* The sectors `mask` of the L2 line in slot are about to be made dirty by
 * a store or an atomic: a diverged one is dirty with its entry again. */
void sc__dimg_dirtied(sc_gpu_t *g, sc_cache_t *c, size_t slot, uint8_t mask);
void sc__dimg_free(sc_gpu_t *g);
uint64_t sc__dimg_hash(const sc_gpu_t *g);
/*   fault.c: the overlay's part of the state hash (independent of the
 *   entries' order); the cache targets' bit spaces (fields as in
 *   sc_target_bits), their use and their faults. sc__cache_fault flips
 *   nbits from loc when apply (every bit must be in use) and returns 1, or
 *   0 when a bit is not in use (SC_EINVAL: no such space, SC_ENOMEM);
 *   sc__cache_live_bits counts the bits in use. */
uint64_t sc__ovl_hash(const sc_gpu_t *g, const sc_cache_t *c);
uint64_t sc__cache_target_bits(const sc_gpu_config_t *cfg, const sc_protection_t *p, sc_target_t t, unsigned fields,
                               uint32_t *word_bits);
int sc__cache_fault(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, uint32_t nbits,
                    bool apply);
uint64_t sc__cache_live_bits(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm);
/* The first bit of the k-th word of wb bits in use (live sampling), or
 * UINT64_MAX when there are not that many. */
uint64_t sc__cache_live_word(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t k, uint32_t wb);

/* The launch in progress. */
typedef struct sc_run {
	const sc_module_t *mod;
	const sc_func_t *fn;
	uint32_t grid[3], block[3];
	uint32_t nthreads, nwarps;      /* per CTA */
	uint32_t regs, preds;           /* per thread */
	uint32_t smem;                  /* per CTA, static + dynamic */
	uint32_t dyn_smem;
	uint32_t local;                 /* bytes per thread */
	uint32_t stack_base, stack;     /* the call stack in local memory (call.c) */
	uint32_t call_depth;            /* return pcs a warp holds (sc__call_depth) */
	uint32_t ctas_per_sm;
	uint64_t total_ctas, next_cta, done_ctas;
	uint8_t *params;
	uint32_t param_bytes;
	uint32_t launch_index;
	uint32_t next_sm;               /* round-robin dispatch pointer */
	uint64_t warp_insts, thread_insts;
	uint64_t unit_busy[SC_FU__COUNT];  /* see sc_launch_stats_t */
	uint64_t ib_distinct[SC_IB_SIM_BINS]; /* see sc_launch_stats_t */
	uint64_t age;
	bool halt;                      /* a DUE stopped the launch */
} sc_run_t;

typedef struct sc_dec sc_dec_t; /* decoded instruction, below */

/* The device heap of malloc/free (ptxext.c): one global allocation of
 * `size` bytes made at the first launch of a module that calls malloc
 * (cudaLimitMallocHeapSize, 8 MiB unless sc_set_heap_size said otherwise),
 * kept to the end of the GPU as CUDA keeps it. Its blocks are kept on the
 * host, sorted by offset: first fit, 16-byte aligned, lanes in lane order,
 * so that every run allocates alike. The state hash includes them. */
typedef struct sc_hblk {
	uint64_t off, len;
} sc_hblk_t;

typedef struct sc_heap {
	uint64_t base, size;    /* base 0: not made yet */
	uint64_t want;          /* sc_set_heap_size (0: 8 MiB) */
	sc_hblk_t *blk;
	uint32_t n, cap;
} sc_heap_t;

/* Texture and surface objects (tex.c): a table owned by the GPU, handle =
 * slot + 1 (as CUDA's small integers); a destroyed slot has kind 0 and is
 * reused. A texel (x, y, z) of an object lies at base + z * slice + y *
 * pitch + x * tbytes; width, height and depth are at least 1. The table
 * is the host's description (the driver's), not state a fault reaches. */
enum { SC_TOBJ_FREE = 0, SC_TOBJ_TEX, SC_TOBJ_SURF };
typedef struct sc_tobj {
	uint8_t kind;           /* SC_TOBJ_* */
	uint8_t layered;        /* depth counts layers */
	uint32_t tbytes;        /* bytes per texel */
	uint64_t base, pitch, slice;
	uint32_t width, height, depth;
	sc_resource_t res;      /* as created (sc_texture_info) */
	sc_tex_desc_t desc;
} sc_tobj_t;

typedef struct sc_tobjs {
	sc_tobj_t *o;
	uint32_t n, cap;
} sc_tobjs_t;

/* Device printf (ptxext.c). Each vprintf a lane executes is formatted at
 * once into `text` and recorded with its sort key; at the end of the launch
 * (CUDA flushes its FIFO at synchronisation) the records are written in key
 * order: CTA (linear id), warp, the launch's printf sequence number, lane.
 * A record takes bytes of the FIFO (sc__printf_rec_bytes); past fifo_size
 * the launch's further records are dropped, as CUDA drops them. `hash`
 * covers every record the launch made so far, in the order made: the state
 * hash (fault.c) includes it, so that two runs whose printf output differs
 * never look converged. */
typedef struct sc_printf_rec {
	uint64_t cta;
	uint32_t wid, lane;
	uint64_t seq;
	size_t off, len;        /* the text in sc_printf_t.text */
} sc_printf_rec_t;

typedef struct sc_printf {
	char *text;
	size_t len, cap;
	sc_printf_rec_t *rec;
	size_t nrec, rec_cap;
	uint64_t seq;           /* vprintf executions in the launch */
	uint64_t used;          /* FIFO bytes the launch's records take */
	uint64_t fifo_size;     /* sc_set_printf_fifo (0 until set: 1 MiB) */
	uint64_t hash;
	char *out;              /* everything flushed since the GPU was created */
	size_t out_len, out_cap;
	FILE *stream;           /* where flushes go; stdout unless set */
	bool stream_set;
	FILE *astream;          /* where assert messages go; stderr unless set */
	bool astream_set;
} sc_printf_t;

/* What the GPU tells whoever runs it (the injection runtime installs them;
 * each may be NULL): observe, the host API showed the program something the
 * GPU computed; gone, the GPU is being destroyed (before anything is freed). */
typedef struct sc_gpu_hooks {
	void (*observe)(void *ctx);
	void (*gone)(void *ctx, sc_gpu_t *g);
} sc_gpu_hooks_t;

/* SM state across fork() (statemap.c). What experiments write most lives
 * in three page-aligned mappings per GPU:
 *
 *   SC_MAP_RF      every SM's register file; SM i's is base + i * rf_stride
 *                  (the most words any launch needed so far)
 *   SC_MAP_SM      every SM's warps, CTAs, scheduler state, SIMT stacks and
 *                  instruction buffers (sized by the configuration, once)
 *   SC_MAP_LAUNCH  every SM's predicate files, scoreboards and call stacks
 *                  (sized by each launch)
 *
 *   mode     mappings                  who turns it on
 *   private  MAP_PRIVATE|MAP_ANONYMOUS sc_gpu_create (a library, `exec`)
 *   shared   MAP_SHARED|MAP_ANONYMOUS  sc_rt_attach (the fork-at-cycle parent)
 *
 * A private mapping is copied on write after a fork(), page by page, in
 * the child and then again in the parent (~4 us a page). A shared one is
 * not: fork() write-protects nothing. Parent and child must still never
 * share state, so a fork handler (pthread_atfork, the one place that
 * unshares) gives every child its own mappings at the same addresses
 * before fork() returns (pointers into them stay valid): the runtime's
 * spares when rt.c armed this fork, else private copies (a child that
 * cannot have one exits 1). A spare is a shared mapping of the same size;
 * sc__state_arm copies into it right before the fork (the parent has both
 * mapped: one memcpy, no faults) and the child mremaps it over the
 * original, then maps only the pages it touches. The parent waits for each
 * experiment child before it forks the next, so one spare per mapping
 * suffices. (Shared and local memory stay ordinary allocations: large, and
 * copied on write only where a kernel uses them.) */
enum { SC_MAP_RF, SC_MAP_SM, SC_MAP_LAUNCH, SC_MAP__COUNT };

typedef struct sc_shmap {
	void *base;             /* the mapping, NULL when none */
	size_t len;             /* its bytes, whole pages */
	bool shared;            /* MAP_SHARED */
	void *spare;            /* shared, spare_len bytes; NULL until armed once */
	size_t spare_len;
} sc_shmap_t;

typedef struct sc_statemap {
	sc_shmap_t m[SC_MAP__COUNT];
	uint64_t rf_stride;     /* words per SM in SC_MAP_RF, >= every rf_words */
	bool share;             /* new mappings shared; on statemap.c's list */
	bool armed;             /* the next fork's child takes the spares */
	struct sc_gpu *next;    /* statemap.c's list of shared GPUs */
} sc_statemap_t;

/* The watch on a faulty location (site.c, issue 13): the first instruction
 * that reads it, or the one that overwrites it first. On in experiment
 * children only (sc_watch); issue() and the shared-memory path test `on`. */
typedef enum { SC_WATCH_REG = 1, SC_WATCH_PRED, SC_WATCH_SMEM, SC_WATCH_IB, SC_WATCH_SIMT, SC_WATCH_CACHE } sc_watch_kind_t;
typedef enum {
	SC_WATCH_PENDING, SC_WATCH_READ, SC_WATCH_OVERWRITTEN, SC_WATCH_CLEARED, SC_WATCH_WRITTEN_BACK
} sc_watch_state_t;
typedef struct sc_watch {
	bool on;                        /* watching now */
	bool want;                      /* an experiment asked: an FU fault's result is watched once applied */
	uint8_t kind;                   /* sc_watch_kind_t */
	uint32_t sm, slot;              /* SM and warp slot (reg, pred); CTA slot (smem) */
	uint32_t idx;                   /* register slot, predicate, byte offset in the CTA's shared memory,
	                                   the pc whose buffered word is corrupted (ib), or the SIMT entry */
	uint32_t lanes;                 /* reg, pred: the lanes whose copy is corrupted */
	char *out;                      /* sc_watch's buffer: what was seen, as JSON */
	size_t outn;
} sc_watch_t;

struct sc_gpu {
	sc_gpu_config_t cfg;
	sc_options_t opt;
	struct {
		const sc_code_t *code[6];   /* regfile, pred, smem, l1d, l2, const
		                               (prot.c); NULL: none */
		sc_ib_protection_t ib;      /* the instruction buffer's (sc_ib_params) */
		uint8_t ev;                 /* the first event, sc_prot_t */
		uint64_t cycle;             /* and its cycle */
	} prot;
	sc_gmem_t gmem;
	sc_trace_t *trace;              /* golden memory trace (rt.c), NULL when off */
	const sc_gpu_hooks_t *hooks;    /* NULL: none installed */
	void *hook_ctx;
	sc_module_t *mods;
	sc_sm_t *sms;
	uint64_t *sm_next;              /* per SM: sc_sm_t.next points here */
	sc_statemap_t smap;             /* the SMs' most-written state */
	uint64_t cycle;                 /* GPU clock, over all launches */
	sc_status_t status;
	char errmsg[512];
	sc_launch_stats_t *stats;
	uint32_t nstats, stats_cap;
	sc_gpu_stats_t totals;
	sc_run_t run;
	sc_printf_t pf;                 /* device printf (ptxext.c) */
	sc_heap_t heap;                 /* device malloc (ptxext.c) */
	uint32_t stack_want;            /* sc_set_stack_size (0: 1 KiB) */
	sc_tobjs_t tobj;                /* texture and surface objects (tex.c) */
	sc_alu_t alu;                   /* scratch for the semantics units */
	/* fault injection (fault.c) */
	uint64_t pause_at;              /* next pause point, UINT64_MAX when none */
	sc_pause_fn pause_fn;
	void *pause_ctx;
	bool regs_original;             /* sampling sees only original registers (fault.c,
	                                   sc_rt_plan_t.regs_original) */
	bool after;                     /* issue() calls sc__after_issue after each result:
	                                   fu.armed, stuck.on or REFU on (one test on the hot path) */
	struct {
		bool armed, applied;
		uint8_t op;                 /* sc_fm_kind_t: what it does to a result */
		uint32_t sm, lanes;         /* the lanes hit (a mask) */
		uint32_t value;             /* STUCK: the bit's value */
		uint64_t bits;              /* FLIP, VALUE: the result bits to flip; STUCK:
		                               the stuck bit's index */
		uint64_t cycle;             /* its cycle; STUCK: the first one */
		uint64_t period, duration;  /* STUCK: intermittent windows (period 0: none) */
		uint32_t pc;                /* applied: the first instruction it corrupted */
	} fu;                           /* a functional-unit fault waiting for its cycle
	                                   (STUCK: armed to the end of the run) */
	struct {
		bool on;                    /* issue() and CTA starts force the bit */
		uint8_t target;             /* sc_target_t: regfile, pred or smem */
		uint32_t sm, value;
		uint64_t loc;               /* the bit in the target's space */
		uint64_t start, period, duration; /* as fu's */
	} stuck;                        /* a stuck-at storage bit (fault.c) */
	sc_watch_t watch;               /* what a fault's location meets next (site.c) */
	uint64_t vec[4][32];            /* scratch: the elements of a vector ld/st */
	const sc_insn_t **ibsim;        /* sc__ib_sample's scratch: a word per buffer
	                                   entry; NULL unless opt.ib_similarity */
	sc_dec_t *dec;                  /* the launch's code, decoded (decode.c) */
	uint32_t dec_cap;
	sc_memsys_t ms;                 /* caches and DRAM timing (memsys.c) */
};

/* ======================================================================
 * Decoded instructions (decode.c builds them, sm.c issues them)
 *
 * At each launch every word of the module's code is decoded once into an
 * sc_dec_t: the handler that executes it and what the handler would
 * otherwise work out per issue (operand slots, immediates, the latency, the
 * scoreboard entries the issue waits on). g->dec[pc] is the decoded form of
 * mod->code[pc]. The instruction buffer still holds the words: a warp whose
 * buffer a fault touched (ib_dirty) has the word it issues decoded again,
 * so what issues is always what the buffer's bits decode to.
 *
 * A handler executes the instruction for the lanes in exec (0 when the
 * guard is false for every lane: most handlers then do nothing) and says
 * how the issue retires it:
 *   n >= 1        done; destinations readable n cycles after issue, the
 *                 warp goes on at pc + 1
 *   SC_X_JUMP     the handler set the top SIMT entry's pc (bra with every
 *                 lane, call, ret)
 *   SC_X_DIVERGE  the handler rewrote the SIMT stack (divergent bra)
 *   SC_X_EXIT     lanes exited; the stack is settled
 *   SC_X_BAR      the warp arrived at a barrier; pc already advanced
 *   SC_X_HALT     the launch halted (a DUE was raised) or the warp is done,
 *                 or the handler scheduled the warp's next issue itself
 *                 (nanosleep)
 *   SC_X_BAD      the word's fields do not make an executable instruction
 *                 (DUE invalid_instruction)
 * ====================================================================== */
enum { SC_X_BAD = -6, SC_X_HALT, SC_X_BAR, SC_X_EXIT, SC_X_DIVERGE, SC_X_JUMP };

typedef int (*sc_exec_fn)(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);

#define SC_DEC_RDY_MAX 13 /* 6 operands of up to 2 slots, and the guard */

/* The warps of an SM by their wnext, when a launch has at most 64 warp
 * slots (sm.c): a slot is in `ready` when its wnext is at or before `at`
 * (the wheel's time), in bucket[t % 64] when its wnext t is in (at, at +
 * 64], in `far` when later (never: nowhere). Picking a warp and finding a
 * scheduler's next cycle are then bit arithmetic instead of scans. It is
 * derived from wnext (which the state hash covers) and changes no decision. */
typedef struct sc_wheel {
	/* what every SM cycle reads first (with two schedulers' masks), in
	 * one host cache line: the struct is line-aligned (gpu.c) */
	uint64_t occ;           /* bit b: bucket[b] is not empty */
	uint64_t ready, far;
	uint64_t far_min;       /* no slot in far has an earlier wnext */
	uint64_t at;
	bool on;
	uint64_t smask[8];      /* per scheduler: its slots */
	uint64_t bucket[64];
} sc_wheel_t;

static inline void sc__wheel_put(sc_wheel_t *wh, uint32_t slot, uint64_t t)
{
	uint64_t bit = 1ull << slot;
	if (t == UINT64_MAX)
		return;
	if (t <= wh->at) {
		wh->ready |= bit;
	} else if (t - wh->at <= 64) {
		wh->bucket[t & 63] |= bit;
		wh->occ |= 1ull << (t & 63);
	} else {
		wh->far |= bit;
		wh->far_min = t < wh->far_min ? t : wh->far_min;
	}
}

static inline void sc__wheel_take(sc_wheel_t *wh, uint32_t slot, uint64_t t)
{
	uint64_t bit = 1ull << slot;
	if (t == UINT64_MAX)
		return;
	if (t <= wh->at) {
		wh->ready &= ~bit;
	} else if (t - wh->at <= 64) {
		if (!(wh->bucket[t & 63] &= ~bit))
			wh->occ &= ~(1ull << (t & 63));
	} else {
		wh->far &= ~bit;
	}
}

/* Every write of a warp's wnext: the wheel follows. */
static inline void sc__set_wnext(sc_sm_t *sm, uint32_t slot, uint64_t t)
{
	if (sm->wh->on) {
		sc__wheel_take(sm->wh, slot, sm->wnext[slot]);
		sc__wheel_put(sm->wh, slot, t);
	}
	sm->wnext[slot] = t;
}

/* Warp `slot` of sm may issue from cycle t on (t no later than before):
 * its scheduler's lower bound follows. */
static inline void sc__wake(const sc_gpu_t *g, sc_sm_t *sm, uint32_t slot, uint64_t t)
{
	uint32_t s = slot % g->cfg.schedulers_per_sm;
	sc__set_wnext(sm, slot, t);
	if (sm->smin[s] > t)
		sm->smin[s] = t;
}

/* Without a popcnt instruction in the baseline ISA, __builtin_popcount is
 * a library call; this is a few inline instructions. */
static inline uint32_t sc__popcount32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Schedulers act on the edges of their clock, every issue_cycles cycles:
 * the first edge at or after cycle t. */
static inline uint64_t sc__issue_edge(const sc_gpu_t *g, uint64_t t)
{
	uint32_t ic = g->cfg.issue_cycles;
	return ic == 1 ? t : ic == 2 ? (t + 1) & ~1ull : (t + ic - 1) / ic * ic;
}

/* The index in sc_sm_t.ufree of the unit of kind fu that scheduler s uses. */
static inline uint32_t sc__unit_slot(const sc_gpu_config_t *c, unsigned fu, uint32_t s)
{
	return fu * c->schedulers_per_sm + (fu == SC_FU_ALU || c->units_per_scheduler ? s : 0);
}

struct sc_dec {
	sc_exec_fn fn;
	const sc_insn_t *in;      /* the word decoded */
	uint32_t pc;
	uint32_t lat;             /* the unit's result latency, in cycles */
	uint8_t cls;              /* latency class (sc_lat_t); memory: resolved at issue */
	uint8_t fu;               /* functional unit kind (SC_FU_*) */
	uint32_t o[6];            /* R32/R64/ADDR32/ADDR: first slot * 32; PRED: index */
	uint64_t k[6];            /* IMM: the constant's 64 bits */
	uint16_t rdy[SC_DEC_RDY_MAX]; /* scoreboard entries an issue waits on, */
	uint8_t nrdy;
	uint8_t nwr;              /* the first nwr of them also marked at retirement */
};

/* decode.c: decodes word `in` at pc into d (a generic handler when
 * `generic`: the test of the specialised handlers compares the two). */
void sc__decode(const sc_gpu_t *g, const sc_insn_t *in, uint32_t pc, bool generic, sc_dec_t *d);
/* Decodes the code of the launch in g->run into g->dec. 0 or SC_ENOMEM. */
int sc__decode_launch(sc_gpu_t *g);

/* The handlers of the units (exec.c and sm.c) and the specialised ones
 * (sem_fast.c, picked by sc__fast_pick, NULL when none fits the word). */
int sc__x_alu(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_mov(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_ldst(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_atom(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_warp(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_ctl(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
/* ptxext.c: the instructions appended for real CUDA code (match, redux,
 * vprintf, assertfail; nanosleep is sc__x_ctl's), their validity, and
 * device printf's records. */
int sc__x_match_redux(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_vprintf(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_assertfail(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_malloc_free(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
/* Dynamic calls and their returns (call.c): a call with sub SC_CALL_DYN,
 * and a ret whose return pc follows one. */
int sc__x_dcall(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
int sc__x_dret(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
/* Sizes g->run's call stack for kernel f (stack_base, stack, local,
 * call_depth) at launch. */
void sc__call_size(sc_gpu_t *g, const sc_func_t *f);
/* Whether w's next ret (w->ncalls > 0) ends a dynamic call. */
bool sc__dret_at(const sc_module_t *m, const sc_warp_t *w);
/* Finds what each saving dynamic call of m saves (sc__dcall_t's save),
 * on m's code as it is now (after lowering, again after allocation).
 * Returns 0 or SC_ENOMEM. */
int sc__dcall_live(sc_module_t *m);
/* The functions call word `in` may enter, into out[] (m->nfuncs at
 * most): its callee, or for an indirect call every function whose address
 * is taken. Returns how many. */
uint32_t sc__call_targets(const sc_module_t *m, const sc_insn_t *in, uint32_t *out);
/* Whether call word `in` saves its caller's live registers on the call
 * stack (a callee may reach the caller again): nothing of the caller's
 * window is clobbered across it. */
bool sc__call_saves(const sc_module_t *m, const sc_insn_t *in);
/* Transformations of the lowered code (passes, Penny's compiler,
 * spilling) do not follow dynamic calls: SC_EINVAL with the message
 * naming `what` and the first such call when m has one, else 0. */
int sc__dcall_refuse(const sc_module_t *m, const char *what, char *msg, size_t msgsz);
/* The function whose address is v (SC_FUNC_BASE), if its address is
 * taken, else NULL: how the emitter writes such a value back as a name. */
const sc_func_t *sc__func_of_addr(const sc_module_t *m, uint64_t v);
/* Makes the heap for a launch of m when m calls malloc: 0 or SC_ENOMEM. */
int sc__heap_prepare(sc_gpu_t *g, const sc_module_t *m);
/* The heap's blocks as a hash (0 while there is no heap). */
uint64_t sc__heap_hash(const sc_gpu_t *g);
bool sc__ext_valid(const sc_insn_t *in);
/* tex.c: tex, tld4, txq/suq, suld and sust (their encoding at the top of
 * tex.c), their validity, and the names lowering reads. */
int sc__x_tex(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
bool sc__tex_valid(const sc_insn_t *in);
/* The geometry word of a tex/suld/sust ("1d", "2d", "3d", "a1d", "a2d"):
 * its SC_TEXG_* value and *ncoord the coordinates it takes, or -1. */
enum { SC_TEXG_1D, SC_TEXG_2D, SC_TEXG_3D, SC_TEXG_A1D, SC_TEXG_A2D, SC_TEXG__COUNT };
int sc__tex_geom(const char *word, unsigned *ncoord);
/* The query word of txq (surface false) or suq (true): its value, or -1. */
int sc__tex_query(const char *word, bool surface);
/* The words of geometry g and query q as lowering reads them ("?" for none). */
const char *sc__tex_geom_name(unsigned g);
const char *sc__tex_query_name(unsigned q);
/* sub of a tex/tld4/suld/sust word: geometry, the first component the
 * word writes or stores, and tld4's channel or suld/sust's out-of-range
 * mode (SC_SURF_*); txq's sub is the query, bit 7 for suq. */
#define SC_TEX_SUB(geom, comp, x) ((uint8_t)((geom) | ((comp) << 3) | ((x) << 5)))
#define SC_TEX_GEOM(sub) ((sub) & 7u)
#define SC_TEX_COMP(sub) (((sub) >> 3) & 3u)
#define SC_TEX_X(sub) (((sub) >> 5) & 3u)
#define SC_TXQ_SURF 0x80u
enum { SC_SURF_TRAP, SC_SURF_CLAMP, SC_SURF_ZERO };
void sc__tobj_free(sc_gpu_t *g);
/* The cycles nanosleep.u32 t sleeps: t ns of the simulated clock, rounded up. */
uint64_t sc__sleep_cycles(const sc_gpu_t *g, uint32_t ns);
/* %globaltimer: nanoseconds of the simulated clock at `cycle`. */
uint64_t sc__globaltimer(const sc_gpu_t *g, uint64_t cycle);
void sc__printf_flush(sc_gpu_t *g);
void sc__printf_free(sc_gpu_t *g);
/* Reads `size` bytes at generic address addr for lane l as a load would
 * (exec.c): false after the DUE of a bad address. */
bool sc__mem_peek(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint32_t l, uint64_t addr, void *dst,
                  uint32_t size);
int sc__x_bad(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
/* dup.c: a resilient word (SC_MOD_RES): compares originals and replicas,
 * DUE dup_mismatch on a difference, else runs the base instruction (and
 * raLoad's second write). */
int sc__x_res(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_dec_t *d, uint32_t exec);
sc_exec_fn sc__fast_pick(const sc_insn_t *in);
/* Operand access (exec.c): sc__rd reads operand o of all 32 lanes as raw
 * bits, zero-extended (SREG: the lanes of mask only); sc__wr writes the
 * lanes of mask, truncated to the register, false when o is not a writable
 * register (only a corrupted word can do that). */
void sc__rd(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask, uint64_t *v);
bool sc__wr(sc_warp_t *w, sc_opnd_t o, uint32_t mask, const uint64_t *v);
sc_lat_t sc__alu_class(const sc_insn_t *in);
/* The value of special register sr for lane l of warp w. */
uint64_t sc__sreg(const sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, unsigned sr, uint32_t l);
/* Local memory in the caches' address space: warp slot `slot` of SM `sm`
 * owns sc__local_area bytes from sc__local_base, lane l's byte o at
 * sc__local_pos(o, l) of them (word i of each lane side by side, as the
 * hardware interleaves it, so that a warp's access to one local word is
 * one line). */
static inline uint64_t sc__local_area(const sc_gpu_t *g)
{
	return ((uint64_t)g->run.local * 32 + g->cfg.l1_line - 1) & ~((uint64_t)g->cfg.l1_line - 1);
}
static inline uint64_t sc__local_base(const sc_gpu_t *g, uint32_t sm, uint32_t slot)
{
	return SC_CACHE_LOCAL + ((uint64_t)sm * g->cfg.max_warps_per_sm + slot) * sc__local_area(g);
}
static inline uint64_t sc__local_pos(uint64_t o, uint32_t lane) { return (o >> 2) * 128 + lane * 4 + (o & 3); }

/* The memory trace's hook in the load/store path (mem.c sc__trace_mark). */
static inline void sc__trace_touch(sc_gpu_t *g, uint64_t addr, uint32_t size, bool write)
{
	if (write || g->trace->touch)
		sc__trace_mark(g, addr, size, write);
}

/* fault.c: what faults do once an instruction wrote its results (when
 * g->after): the stuck bit is forced again (sc__stuck_apply), an armed FU
 * fault corrupts the result (sc__fu_apply). */
void sc__after_issue(sc_gpu_t *g, const sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                     uint64_t now);
/* fault.c: forces the stuck storage bit of g->stuck on SM sm when it is
 * active at cycle now (g->stuck.on). */
void sc__stuck_apply(sc_gpu_t *g, const sc_sm_t *sm, uint64_t now);
/* Whether a STUCK fault from `start` with windows (period, duration) is
 * active at cycle now; the first window start after now in *next (UINT64_MAX:
 * none) when next is not NULL. */
bool sc__stuck_active(uint64_t start, uint64_t period, uint64_t duration, uint64_t now, uint64_t *next);
/* Whether target t is, on g, the virtual register space of ptx mode
 * (fault.c's header); its bound: SC_VREG_SLOTS slots per thread, the
 * instruction encoding's register numbers. */
bool sc__virtual(const sc_gpu_t *g, sc_target_t t);
#define SC_VREG_SLOTS 4096u
/* A bit of ptx mode's virtual register space: the warp, the ptx slot
 * (predicate) of the kernel's numbering, the lane, the bit in the
 * register (pred: the lane), and where its value is (sc__vreg_home). */
typedef struct sc_vbit {
	const struct sc_warp *warp;
	uint32_t vs, lane, bit, phys;
} sc_vbit_t;
/* Decodes loc of virtual target t on SM smi: -1 not in use (no resident
 * CTA there), 0 in use but holding nothing read again, 1 with *out's phys
 * holding the value. */
int sc__virtual_at(const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, sc_vbit_t *out);
/* fault.c: corrupts the result the instruction just wrote, when an armed
 * FU fault waits for this SM and cycle. */
void sc__fu_apply(sc_gpu_t *g, const sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t exec, uint32_t pc,
                  uint64_t now);
/* The unit slot a stuck FU lane L (the fault in g->fu) sits in for unit
 * kind fu on sm: lane L of the units scheduler L mod schedulers_per_sm
 * issues to (DESIGN.md "Fault models"). */
uint32_t sc__fu_stuck_unit(const sc_gpu_t *g, const sc_sm_t *sm, unsigned fu);
/* The watch (site.c): warp w issues `in`, the word its buffer gives for
 * pc, with its active lanes `active` (before decoding: a word that does not
 * decode is read too; in NULL: a pc outside the program, which only reads
 * the SIMT stack); a shared access of `bytes` at the lanes' CTA offsets
 * addr[l] - off. */
void sc__watch_issue(sc_gpu_t *g, const sc_warp_t *w, const sc_insn_t *in, uint32_t active, uint32_t pc);
/* Follows register (or predicate) idx of `lanes` of warp slot `slot` of
 * SM sm from now on, into the buffer sc_watch was given. */
void sc__watch_reg(sc_gpu_t *g, uint32_t sm, uint32_t slot, bool pred, uint32_t idx, uint32_t lanes);
/* A CTA starts in slot cta->slot of sm: a watched location of the CTA that
 * held the slot is cleared with it (sc__cta_start zeroes it). */
void sc__watch_cta(sc_gpu_t *g, const sc_sm_t *sm, const sc_cta_t *cta);
/* The watched location met its first event (sc_watch_state_t) at pc
 * (SC_PC_NONE: no instruction, e.g. an eviction or the host's read). */
void sc__watch_hit(sc_gpu_t *g, sc_watch_state_t state, uint32_t pc);
void sc__watch_shared(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, bool write, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes);
/* A bit of the simt or ibuffer target's space decoded by the layouts of
 * fault.c: warp slot, entry, field (simt: 0 pc, 1 rpc, 2 mask; ibuffer:
 * 0 valid, 1 instr) and the bit inside that field. The slot may be out of
 * range: the caller checks it against max_warps_per_sm. */
typedef struct sc_entry_bit {
	uint32_t slot, ent, field, bit;
} sc_entry_bit_t;
sc_entry_bit_t sc__simt_bit(const sc_gpu_config_t *c, unsigned fields, uint64_t loc);
sc_entry_bit_t sc__ib_bit(const sc_gpu_config_t *c, unsigned fields, uint64_t loc);
/* A cache target's bit decoded (cachefault.c): cache (SM's, or L2 slice),
 * set, way, field ("data", "tag", "valid", "dirty"), bit in the field, the
 * line's device address (UINT64_MAX for none), whether in use, and the
 * value of the field's word holding the bit (data: its byte). false when
 * loc is outside the space. */
typedef struct sc_cache_site {
	uint32_t cache, set, way, bit;   /* a tag's parity bit: bit = the tag's bits */
	const char *field;
	uint64_t addr;
	bool in_use;
	uint64_t value;
	uint32_t value_bits, value_lo; /* the word's width and the bit of loc in it */
	sc_code_kind_t code;           /* data under a code: the code (else NONE), */
	uint32_t codeword_bit;         /* loc's bit in its codeword, */
	bool check_bit;                /* whether a check bit (bit: the codeword's first data bit) */
} sc_cache_site_t;
bool sc__cache_site(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc,
                    sc_cache_site_t *out);

/* Telling the injection runtime: the program was shown something the GPU
 * computed (the host API's reads; it ends early termination). */
static inline void sc__gpu_observe(const sc_gpu_t *g)
{
	if (g->hooks && g->hooks->observe)
		g->hooks->observe(g->hook_ctx);
}

/* rt.c, env mode (a host program started by flipsim with FLIPSIM_RT), the
 * one way into the runtime sc_gpu_create knows: env_config gives the first
 * GPU of the process the campaign's configuration and register mode and
 * returns the runtime's token (NULL when not under flipsim, or for any
 * later GPU); env_attach(token, g) joins the created GPU, installing its
 * hooks. */
void *sc__rt_env_config(sc_gpu_config_t *cfg, sc_options_t *opt);
void sc__rt_env_attach(void *env, sc_gpu_t *g);

/* statemap.c (the design: sc_statemap_t). rf_map: every SM's register
 * file resized to `words` (the first call maps them, later ones map anew
 * only when the files outgrow their slices; contents are not kept: every
 * CTA zeroes its window when it starts), 0 or SC_ENOMEM with the files
 * unchanged. state_map: mapping `which` (SC_MAP_SM, SC_MAP_LAUNCH) with
 * room for `bytes`: the current one when it has, else a new zeroed one;
 * NULL when out of memory (what a launch's state held before is never
 * read: every CTA zeroes its warps' predicates and scoreboard when it
 * starts, and fault.c reads only resident CTAs' state); state_unmap: frees every mapping and spare. share: the mappings
 * shared across fork() from now on, 0 or SC_ENOMEM (then some stay
 * private). arm: the next fork's child takes the spares (made here, when
 * shared); disarm, right after that fork in the parent. */
int sc__rf_map(sc_gpu_t *g, uint64_t words);
void *sc__state_map(sc_gpu_t *g, int which, size_t bytes);
void sc__state_unmap(sc_gpu_t *g);
int sc__state_share(sc_gpu_t *g);
void sc__state_arm(sc_gpu_t *g);
void sc__state_disarm(sc_gpu_t *g);

/* sm.c */
void sc__sm_cycle(sc_gpu_t *g, sc_sm_t *sm, uint64_t now);
void sc__sm_cycle_wheel(sc_gpu_t *g, sc_sm_t *sm, uint32_t nslots, uint64_t now);
void sc__cta_start(sc_gpu_t *g, sc_sm_t *sm, sc_cta_t *cta, uint64_t linear, uint64_t now);
void sc__due(sc_gpu_t *g, sc_due_t reason, const sc_sm_t *sm, const sc_warp_t *w, int lane, uint32_t pc,
             uint64_t addr, const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* DUE invalid_instruction for word `in` at pc: fmt takes the pc (%u) and
 * the word's text (%s, sc__disasm). */
void sc__due_insn(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, const sc_insn_t *in,
                  const char *fmt);

/* ======================================================================
 * Protection (prot.c): the error-pattern table of each SM
 * ====================================================================== */
#define SC_PERR_MAX 512 /* entries per SM: 8 faults x 8 MCU words x 8 interleaved codewords */
typedef struct sc_perr {
	uint8_t tgt;        /* SC_TGT_REGFILE, SC_TGT_PRED, SC_TGT_SMEM */
	uint32_t word;      /* its key (prot.c's header) */
	uint64_t data;      /* the error pattern: data bits */
	uint32_t check;     /* and check bits */
} sc_perr_t;

/* The index of `name` among names[0..n) (the name tables of the X lists:
 * codes, protection events, instruction-buffer schemes), or -1; NULL
 * matches nothing. */
int sc__name_index(const char *const *names, int n, const char *name);

/* Allocates the tables when g->opt.prot protects something: 0 or SC_ENOMEM. */
int sc__prot_create(sc_gpu_t *g);
void sc__prot_destroy(sc_gpu_t *g);
/* The code on target t of g, NULL when none. */
static inline const sc_code_t *sc__prot_code(const sc_gpu_t *g, sc_target_t t)
{
	switch (t) {
	case SC_TGT_REGFILE: return g->prot.code[0];
	case SC_TGT_PRED: return g->prot.code[1];
	case SC_TGT_SMEM: return g->prot.code[2];
	case SC_TGT_L1D: return g->prot.code[3];
	case SC_TGT_L2: return g->prot.code[4];
	case SC_TGT_CONST: return g->prot.code[5];
	default: return NULL;
	}
}
/* Whether target t is coded and its errors live in prot.c's table (the
 * caches' codes live in their overlay entries: cachefault.c). */
static inline bool sc__coded(const sc_gpu_t *g, sc_target_t t)
{
	return t != SC_TGT_L1D && t != SC_TGT_L2 && t != SC_TGT_CONST && t != SC_TGT_TEXCACHE && sc__prot_code(g, t) != NULL;
}
/* The code on target t under p (NULL: none, or p NULL); whether cache
 * target t's tags carry a parity bit under p. */
const sc_code_t *sc__code_of(const sc_protection_t *p, sc_target_t t);
bool sc__tag_parity(const sc_protection_t *p, sc_target_t t);
/* Where a decoded codeword was read, for the DUE of a detected error:
 * the SM, warp and lane (NULL, NULL, -1 when none: an eviction, the host),
 * the pc, the address, and the word in words ("register 5 of SM 0"). */
typedef struct sc_prot_where {
	const sc_sm_t *sm;
	const sc_warp_t *w;
	int lane;
	uint32_t pc;
	uint64_t addr;
	bool edc;         /* the code serves to detect only (Penny): a detected
	                     error is neither an event nor a DUE, the caller
	                     recovers */
	char what[96];
} sc_prot_where_t;
/* Decodes a read codeword's error pattern (data, check) under code c and
 * records the protection event. Detected: the DUE (parity_error for
 * parity, ecc_uncorrectable for the others) and false. Otherwise true and
 * *fix the data bits the decoder flips (the whole data pattern when it
 * corrects, another pattern when it miscorrects, 0 when undetected): the
 * caller applies them and drops the pattern. */
bool sc__prot_check(sc_gpu_t *g, const sc_code_t *c, uint64_t data, uint32_t check, const sc_prot_where_t *at,
                    uint64_t *fix);
/* The fault space of a protected target whose unprotected space has
 * `plain` bits (fault.c's plain_bits): codewords, and *word_bits the bits
 * of an interleaving group. */
uint64_t sc__prot_bits(const sc_gpu_t *g, sc_target_t t, uint64_t plain, uint32_t *word_bits);
/* The fault space of target t on g, protection included (fault.c). */
uint64_t sc__space_bits(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t *word_bits);
/* fault.c's unprotected layout, for prot.c: the byte holding bit loc and
 * the bit in it (NULL with *in_use set: a virtual register holding nothing
 * read again), and the dead test. */
uint8_t *sc__locate_plain(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, bool *in_use, uint32_t *bit);
int sc__dead_plain(sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, uint32_t nbits);
/* ptx mode's live draw over the virtual words in use, each wb bits wide;
 * whether the physical bit loc is in use. */
int sc__virtual_live_loc(const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t draw, uint32_t nbits, uint32_t wb,
                         uint64_t *loc);
bool sc__in_use_phys(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc);
/* A protected target's bits from loc (codeword layout), as fault.c's
 * counterparts without protection: the fault XORs `pat` into the nbits
 * bits (1 when any lies in a word in use, 0 when none does, SC_EINVAL when
 * the table is full); in use, dead (every bit in use is in a dead word),
 * the live bits and the bit a live draw lands on. */
int sc__prot_fault(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits, uint64_t pat);
int sc__prot_in_use(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits);
int sc__prot_dead(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t loc, uint32_t nbits);
uint64_t sc__prot_live_bits(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm);
int sc__prot_live_loc(sc_gpu_t *g, sc_target_t t, sc_sm_t *sm, uint64_t draw, uint32_t nbits, uint64_t *loc);
/* Where bit loc of a protected target lies: its codeword's data bit 0 in
 * the unprotected layout (the site and the watch follow that word), the
 * bit in the codeword and whether it is a check bit. */
typedef struct sc_codebit {
	uint64_t plain;   /* unprotected loc of the codeword's first data bit */
	uint32_t bit;     /* codeword bit: data 0..k-1, then check bits */
	uint32_t k, n;    /* data bits, codeword bits */
	uint32_t il;      /* codewords per interleaving group */
	sc_code_kind_t code;
} sc_codebit_t;
sc_codebit_t sc__prot_codebit(const sc_gpu_t *g, sc_target_t t, uint64_t loc);

/* Before warp w executes `in` (exec: its executing lanes, active: the
 * stack's top mask), with sm->nerr set: decodes every corrupted protected
 * register or predicate the instruction reads (a predicate it writes in
 * some lanes only is read too), the guard first, then *exec recomputed
 * from the guard's decoded value. false after a DUE. */
bool sc__prot_read(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint32_t *exec, uint32_t active,
                   uint32_t pc);
/* After it: the registers and predicates it wrote hold fresh codewords. */
void sc__prot_written(sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t exec);
/* Register operand o of w was written in lanes `mask` (bar.red's result). */
void sc__prot_wrote_reg(sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask);
/* A shared-memory access of `bytes` bytes at byte `off` of sm->smem by a
 * lane of w: a read (or atomic) decodes the granules it touches, a write
 * replaces the granules it covers and decodes those it covers in part.
 * false after a DUE. */
bool sc__prot_smem(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint64_t off, uint32_t bytes, bool write,
                   uint32_t pc);
/* Whether sm's table holds a shared-memory entry. */
bool sc__prot_has_smem(const sc_sm_t *sm);
/* A CTA starts: its registers, predicates and shared memory are fresh. */
void sc__prot_cta(const sc_gpu_t *g, sc_sm_t *sm, const sc_cta_t *cta);
/* A launch starts: every table is emptied. */
void sc__prot_launch(sc_gpu_t *g);
/* sm's table for the state hash (fault.c): 0 entries hash as nothing. */
uint64_t sc__prot_hash(const sc_sm_t *sm);
/* Records ev as the run's first protection event, unless it has one. */
void sc__prot_event(sc_gpu_t *g, sc_prot_t ev);

/* ======================================================================
 * Penny, oracle mode (penny.c; DESIGN.md, "Penny (oracle)")
 * ====================================================================== */
/* A module's regions: rstart[pc] is the first pc of pc's region (pc itself
 * at a boundary; UINT32_MAX outside every function); a boundary's live-in
 * registers are list[off[pc] .. off[pc] + nreg[pc]) (32-bit slots, both
 * halves of a 64-bit value) and its live-in predicates the rest of
 * list[off[pc] .. off[pc + 1]). */
typedef struct sc_penny_tab {
	uint32_t ncode;
	uint32_t *rstart;
	uint32_t *off;            /* ncode + 1 */
	uint16_t *nreg;
	uint16_t *list;
	uint32_t maxlive;         /* the longest list */
} sc_penny_tab_t;

/* A snapshot: the region start it was taken at (UINT32_MAX: none), the
 * SIMT depth and the top mask then. */
typedef struct sc_penny_snap {
	uint32_t pc, sp, mask;
} sc_penny_snap_t;

/* An SM's snapshots: two per warp slot (current and previous: double
 * buffering), each holding its list's values lane by lane. */
typedef struct sc_penny {
	sc_penny_protection_t p;  /* in force (sc_penny_params) */
	const sc_penny_tab_t *tab;/* the launch's module's (compiled mode: NULL) */
	const struct sc_pennyc_tab *ctab; /* compiled mode: the launch's module's */
	uint32_t nslots, cap;     /* warp slots; words per snapshot (maxlive x 32) */
	sc_penny_snap_t *snap;    /* [slot][2] */
	uint32_t *val;            /* [slot][2][cap]: entry j lane l at j x 32 + l */
	uint8_t *cur;             /* per slot: its current snapshot, 0 or 1 */
	uint8_t *resume;          /* per slot: rolled back; its next issue (the
	                             region start) keeps the snapshot it has */
} sc_penny_t;

/* ======================================================================
 * Penny, compiled mode (pennyc.c; DESIGN.md, "Penny (compiled)")
 * ====================================================================== */
/* What the compiler needs of the GPU: the global checkpoint storage is
 * indexed by %smid and %warpid (num_sms x max_warps warp slots), allocated
 * through alloc (sc_ptx_host_t's alloc_global without an initial image);
 * storage auto sizes the shared one by cfg's occupancy (block_hint: the
 * threads per block assumed without .reqntid/.maxntid; 0: 256). */
typedef struct sc_pennyc_opts {
	bool pruning;               /* basic pruning */
	bool optimal;               /* with pruning: optimal pruning (pennyprune.c) */
	sc_penny_storage_t storage;
	uint32_t block_hint;
	const sc_gpu_config_t *cfg; /* storage auto: the occupancy limits */
	uint32_t num_sms, max_warps;
	int (*alloc)(void *ctx, uint64_t bytes, uint64_t *addr);
	void *ctx;
} sc_pennyc_opts_t;

/* What the compiler did to a module. */
typedef struct sc_pennyc_stats {
	uint32_t regions;           /* regions formed */
	uint32_t alias_cuts;        /* stores that started a region (may alias a load before) */
	uint32_t alias_kept;        /* stores after loads in a region, proven not to alias them */
	uint32_t cps_needed;        /* LUPs of values live out of their regions */
	uint32_t cps_pruned;        /* of those, recomputed at recovery instead */
	uint32_t cps;               /* checkpoint stores inserted at LUPs */
	uint32_t adjustments;       /* stores of storage alternation's adjustment regions */
	uint32_t alternating;       /* values given two slots */
	uint32_t slots;             /* slots (units) in all */
	uint32_t shared_slots;      /* of those, in shared memory */
	uint64_t bytes;             /* global checkpoint storage */
	uint32_t smem_warp;         /* shared checkpoint bytes per warp */
} sc_pennyc_stats_t;

/* Whether `in` has an effect a Penny region may not repeat (a store,
 * atomic, barrier, fence, call, or the end of a thread): oracle regions
 * end after it, and compiled ones around it but a plain store, which the
 * alias test decides (penny.c, pennyc.c). */
static inline bool sc__penny_side(const sc_insn_t *in)
{
	return (sc__ops[in->op].flags & (SC_OF_SIDE | SC_OF_CALL)) != 0;
}

/* A memory access, as region formation compares them (base: own slot or
 * SC_NOREG; valid: the base was not written since). */
typedef struct sc_pennyc_acc {
	uint8_t space;
	uint16_t base;
	bool valid;
	int64_t off;
	uint32_t size;
} sc_pennyc_acc_t;
/* Whether a store may overwrite what a load read (the alias analysis). */
bool sc__pennyc_may_alias(const sc_pennyc_acc_t *ld, const sc_pennyc_acc_t *st);

/* A live-in of a region: physical slot(s), and where recovery gets it:
 * src 0 the checkpoint unit at byte arg of the warp's global storage
 * (bytes wide), 1 the global checkpoint base recomputed (bytes: its lane
 * stride, 4 or 8), 2 the recovery slice sw[arg .. arg + bytes) executed
 * again (a pruned value), 3 zero (the function's own prologue), 4 the unit
 * at byte arg of the warp's shared storage, 5 a shared checkpoint base
 * recomputed. */
typedef struct sc_pennyc_ent {
	uint16_t phys;
	uint8_t w, src, bytes;
	uint32_t arg;
} sc_pennyc_ent_t;

/* A compiled module's regions (rstart as sc_penny_tab_t's) and live-ins
 * ent[off[pc] .. off[pc + 1]); the global storage: buf + (smid x max_warps
 * + warpid) x warp_bytes; the shared one, in the CTA's shared memory:
 * total - (warp in CTA + 1) x smem_warp; a unit at byte arg of it, lane l
 * at arg + l x 4 (x 8 for 8 bytes). */
/* A word of a recovery slice: its pc in the compiled code, and per operand
 * position where its input comes from (sc_pprune_word_t's from). */
typedef struct sc_pennyc_sw {
	uint32_t pc;
	uint8_t from[6];
} sc_pennyc_sw_t;

typedef struct sc_pennyc_tab {
	uint32_t ncode;
	uint32_t *rstart, *off;
	sc_pennyc_ent_t *ent;
	sc_pennyc_sw_t *sw;         /* the recovery slices' words */
	uint32_t nsw;
	uint32_t maxent;
	uint64_t buf;
	uint32_t warp_bytes, max_warps; /* global: bytes a warp slot */
	uint32_t smem_warp;             /* shared: bytes a warp */
} sc_pennyc_tab_t;

/* The address expression of a memory word as region formation compares
 * it (base: own slot counted from rbase). */
sc_pennyc_acc_t sc__pennyc_access(const sc_insn_t *in, uint32_t rbase);

/* Optimal pruning of one function's checkpoints (pennyprune.c; DESIGN.md,
 * "Penny (compiled)", Pruning). In: the function's virtual code and its
 * liveness, its regions, its values' widths, and the LUPs of values live
 * out of their regions (lup[r x nr + o], UINT32_MAX: none); mcode[0,
 * ncode): the whole module, whose stores decide which loads read only.
 * Out: pruned[o] (no checkpoint: recomputed), rank[o] (recovery
 * recomputes in rank order), and per region the recovery slice of a
 * pruned value live at its start (sdef) and at its end (edef: after its
 * last word, or before it when it ends its block): the index in word[] of
 * its first word (word[i].n words, the last one defining the value),
 * UINT32_MAX where none; ncycle: values committed to break a cycle. 0,
 * SC_ENOMEM, or SC_EINVAL when the result fails its verification (a bug).
 * Free word with free(). */
typedef struct sc_pprune_word {
	uint32_t pc;      /* old pc of an original word, executed again */
	uint8_t n;        /* on a slice's first word: its length */
	uint8_t from[6];  /* per operand position: 0 the register as restored,
	                     j + 1 the result of the slice's word j */
} sc_pprune_word_t;
typedef struct sc_pprune {
	const sc_insn_t *code, *mcode;
	uint32_t ncode, lo, hi, rbase, nr, pbase, np;
	const sc_live_t *lv;
	uint32_t nrg;
	const uint32_t *rs, *re;
	const uint8_t *wide;
	const uint32_t *lup;
	bool *pruned;
	uint32_t *rank, *sdef, *edef;
	sc_pprune_word_t *word;
	uint32_t nword, capword;
	uint32_t ncycle;
} sc_pprune_t;
int sc__pennyc_prune(sc_pprune_t *f);

/* Penny's compiler over m (alloc mode): regions, checkpoint stores,
 * storage alternation, pruning, the storage variable and m->pennyc. 0,
 * SC_ENOMEM, SC_EINVAL (refused: msg says why; m unchanged) or the
 * commit's SC_EPARSE (m must be freed). */
int sc__pennyc_compile(sc_module_t *m, const sc_pennyc_opts_t *opt, sc_pennyc_stats_t *st, char *msg, size_t msgsz);
void sc__pennyc_free(sc_pennyc_tab_t *t);
/* The compiler over module m with g's parameters and the given pruning
 * (gpu.c): 0 or as sc__pennyc_compile, the message in g->errmsg. */
int sc__gpu_pennyc(sc_gpu_t *g, sc_module_t *m, sc_penny_prune_t pruning, sc_penny_storage_t storage,
                   uint32_t block_hint);
/* CTAs per SM for blocks of nwarps warps, regs registers a thread and smem
 * shared bytes (0: no limit of that kind); *limiter: the tightest limit. */
uint32_t sc__occupancy(const sc_gpu_config_t *c, uint32_t nwarps, uint32_t regs, uint32_t smem, const char **limiter);
/* A detected read by w at pc, compiled mode: the live-ins restored from
 * the checkpoints, the rollback; penny_unrecoverable without a region. */
void sc__pennyc_recover(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_perr_t *e, uint32_t pc);
/* The rollback both modes end with: w's top entry back to region start
 * rb after its restores, which take restore_cycles (penny.c). */
void sc__penny_rollback(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t rb, uint64_t restore_cycles);
void sc__penny_unrecoverable(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t pc, const char *why);

/* Allocates each SM's state when Penny is on: 0 or SC_ENOMEM. */
int sc__penny_create(sc_gpu_t *g);
void sc__penny_destroy(sc_gpu_t *g);
/* A launch starts: builds the module's regions (once per module) and
 * sizes the snapshots. 0, SC_ENOMEM or SC_ELAUNCH (no liveness). */
int sc__penny_launch(sc_gpu_t *g);
void sc__penny_tab_free(sc_penny_tab_t *t);
/* Whether pc starts a region (sm->penny set, its launch prepared). */
static inline bool sc__penny_boundary(const sc_sm_t *sm, uint32_t pc)
{
	const sc_penny_tab_t *t = sm->penny->tab;
	return t && pc < t->ncode && t->rstart[pc] == pc; /* compiled: no snapshots */
}
/* Warp w issues the boundary pc: the snapshot of its region's live-ins. */
void sc__penny_snap(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t pc);
/* A read by w at pc found entry e's error: the rollback, or the DUE
 * penny_unrecoverable when no snapshot covers it. */
void sc__penny_recover(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_perr_t *e, uint32_t pc);
/* Whether Penny's edc is the code of target t's words. */
bool sc__penny_covers(const sc_gpu_t *g, sc_target_t t);
/* A CTA starts in sm: its warps hold no snapshot. */
void sc__penny_cta(sc_sm_t *sm, const sc_cta_t *cta, uint32_t nwarps);
/* Penny's part of the state hash. */
uint64_t sc__penny_hash(const sc_gpu_t *g, const sc_sm_t *sm);
/* sm.c: warp w issues again at the earliest at cycle t (and when the
 * operands of its next instruction are ready). */
void sc__warp_wait(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t t);
/* cfg.c: leader[i] set for each pc lo + i of [lo, hi) that starts a basic
 * block (leader has hi - lo entries, zeroed by the caller). */
void sc__cfg_leaders(const sc_insn_t *code, uint32_t lo, uint32_t hi, bool *leader);

/* ======================================================================
 * The instruction buffer's protection (sawp.c; DESIGN.md, "SAWP")
 * ====================================================================== */
/* Sets g->prot.ib and, under a sawp scheme, allocates each SM's table
 * (sc_sawp_t), and the scratch of opt.ib_similarity: 0 or SC_ENOMEM. */
int sc__sawp_create(sc_gpu_t *g);
void sc__sawp_destroy(sc_gpu_t *g);
/* A launch starts: every table is free, no entry is linked. */
void sc__sawp_launch(sc_gpu_t *g);
/* SHARP (sharp.c). Create allocates each SM's state when it is on (0 or
 * SC_ENOMEM); launch clears it. */
int sc__sharp_create(sc_gpu_t *g);
void sc__sharp_destroy(sc_gpu_t *g);
void sc__sharp_launch(sc_gpu_t *g);
/* w's global or local access, issued at g->cycle, reached DRAM and
 * completes at `done`: opens a window (recording) or extends it. */
void sc__sharp_offchip(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint64_t done);
/* Before w issues at now (its state not idle): closes a window whose
 * accesses are done (queues the check; false: the warp waits for it) and
 * runs a finished check (false after its DUE). */
bool sc__sharp_issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc, uint64_t now);
/* `in`, executed by lanes exec of w, wrote its destinations; a write of
 * operand o in lanes mask (bar.red's release). */
void sc__sharp_written(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t exec);
void sc__sharp_wrote_reg(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, sc_opnd_t o, uint32_t mask);
/* The program stored `bytes` per lane at the shared addresses addr - off. */
void sc__sharp_smem_write(sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, const uint64_t *addr, uint64_t off,
                          uint32_t exec, unsigned bytes);
/* A CTA starts or ends (its shared words become invalid), a warp exits
 * (its window closes and is checked, at no cost in cycles). */
void sc__sharp_cta(sc_gpu_t *g, sc_sm_t *sm, const sc_cta_t *cta, bool start, uint64_t now);
void sc__sharp_exit(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint64_t now);
/* A fault changed register file word `word` by x (fault.c). */
void sc__sharp_rf_fault(sc_gpu_t *g, sc_sm_t *sm, uint64_t word, uint32_t x);
/* The byte of the stored check-bit word holding shared-memory byte b, NULL
 * when b's word holds none (fault.c: such words are in use). */
uint8_t *sc__sharp_ecc_byte(sc_sm_t *sm, uint64_t b);
/* SHARP's part of the state hash; its launch statistics summed into *st. */
uint64_t sc__sharp_hash(const sc_gpu_t *g, const sc_sm_t *sm);
void sc__sharp_stats(const sc_gpu_t *g, sc_sharp_stats_t *st);

/* REFU (refu.c). Create allocates each SM's buffer when it is on (0 or
 * SC_ENOMEM); launch empties it. */
int sc__refu_create(sc_gpu_t *g);
void sc__refu_destroy(sc_gpu_t *g);
void sc__refu_launch(sc_gpu_t *g);
/* Whether REFU replays instructions of opcode op: its unit is NUM, INT, FP
 * or CMP. */
static inline bool sc__refu_covers(unsigned op)
{
	if (op >= SC_OP__COUNT)
		return false;
	unsigned u = sc__ops[op].unit;
	return u == SC_U_NUM || u == SC_U_INT || u == SC_U_FP || u == SC_U_CMP;
}
/* Before w issues `in` at now: false when the buffer is full and `in` is
 * covered (the warp waits for the forced replay that frees an entry). */
bool sc__refu_issue(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, const sc_insn_t *in, uint64_t now);
/* The covered instruction `in` at pc of w, issued at now, enters the
 * buffer (with what sc__fu_apply marked): from sc__after_issue. */
void sc__refu_push(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, const sc_insn_t *in, uint32_t pc,
                   uint64_t now);
/* The SM's cycle with REFU on (gpu.c calls it instead of sc__sm_cycle):
 * forced replays, the schedulers' issue, then replays on the units left
 * idle. */
void sc__refu_cycle(sc_gpu_t *g, sc_sm_t *sm, uint64_t now);
/* Whether some SM's buffer still holds entries (the launch drains them). */
bool sc__refu_pending(const sc_gpu_t *g);
uint64_t sc__refu_hash(const sc_gpu_t *g, const sc_sm_t *sm);
void sc__refu_stats(const sc_gpu_t *g, sc_refu_stats_t *st);

/* With sm->sawp set, sm.c's buffer events. Fill: entry k of w just took
 * the word fetched for its pc (it was empty or its occupant left). Flush:
 * every entry of w leaves (a flush, the warp's end). Shift: entry 0 leaves
 * and entry k + 1 becomes entry k, the last one empty (ib_advance, before
 * its prefetch). Leave: entry k leaves. */
void sc__sawp_fill(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t k);
void sc__sawp_flush(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w);
void sc__sawp_shift(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w);
void sc__sawp_leave(const sc_gpu_t *g, sc_sm_t *sm, const sc_warp_t *w, uint32_t k);
/* What the issue of w's word for pc finds, under a scheme other than
 * none and with w->ib_dirty set: SC_IBC_ISSUE (its parity holds: an even
 * error slips through), SC_IBC_RESTORED (an ECC restored the word: the
 * warp issues it again later) or SC_IBC_DUE (raised). */
enum { SC_IBC_ISSUE, SC_IBC_RESTORED, SC_IBC_DUE };
int sc__ib_check(sc_gpu_t *g, sc_sm_t *sm, sc_warp_t *w, uint32_t pc);
/* With opt.ib_similarity, at the first fetch of cycle now on sm: counts
 * the distinct words of its valid buffer entries into run.ib_distinct. */
void sc__ib_sample(sc_gpu_t *g, sc_sm_t *sm, uint64_t now);
/* For tests, -1 when SM sm has no table or an index is out of range.
 * sc__sawp_entry: the exist bit of buffer entry k of warp slot `slot` (and
 * *idx its I); sc__sawp_table: 0, with table entry t's counter and ID. */
int sc__sawp_entry(const sc_gpu_t *g, uint32_t sm, uint32_t slot, uint32_t k, uint32_t *idx);
int sc__sawp_table(const sc_gpu_t *g, uint32_t sm, uint32_t t, uint32_t *count, uint32_t *id);

#endif
