/* The linear block codes of flipsim's protection schemes (ecc.c): parity,
 * Hamming SEC, Hsiao SECDED over 32 and 64 bits, and a DECTED BCH code.
 * Internal to simcore/ and its tests. Ownership: the codes are static
 * tables owned by ecc.c; nothing here is ever freed.
 *
 * The model. flipsim never stores check bits: in a fault-free run every
 * stored word is a codeword, and the syndrome of a corrupted word,
 * s = H . (codeword xor e) = H . e, depends only on its error pattern e.
 * So a word's protection is simulated by keeping e alone and decoding it
 * on a read, by syndrome lookup in a table built once per code.
 *
 * An error pattern e is a pair (data_err, check_err): data_err holds the
 * xor of the data bits (bit i = codeword bit i, i < k), check_err the xor
 * of the check bits (bit j = codeword bit k + j, j < r). A code is its
 * parity-check matrix H, one r-bit column per codeword bit:
 *
 *   codeword bit  0 ............ k-1 | k ............ n-1
 *                 data bits 0..k-1   | check bits 0..r-1
 *   H column      col[0] ... col[k-1] | col[k] ... col[n-1]
 *
 *   kind      (n,k)   r  distance  corrects       H
 *   parity    (33,32)  1    2      nothing        every column 1
 *   hamming   (38,32)  6    3      1-bit errors   checks: unit vectors; data:
 *                                                 the 32 smallest non-unit values
 *   secded    (39,32)  7    4      1-bit errors   Hsiao: checks unit vectors,
 *   secded64  (72,64)  8    4      1-bit errors   data odd weight, rows balanced
 *   dected    (45,32) 13    6      1- and 2-bit   BCH(63,51,t=2) over GF(2^6),
 *                                                 shortened to 44 bits, plus
 *                                                 an overall parity bit
 *
 * The decoder corrects every pattern of weight <= t (t = 0, 1, 1, 1, 2):
 * fix[s] is the unique such pattern with syndrome s, or (0, 0) when there
 * is none (distance >= 2t + 1 makes them unique). */
#ifndef SC_ECC_H
#define SC_ECC_H

#include <stdbool.h>
#include <stdint.h>

#include "simcore.h"

/* The codes are simcore.h's SC_CODE_LIST; sc_code_name and sc_code_parse
 * are public there. */

#define SC_ECC_MAXK 64 /* data bits of the widest code */
#define SC_ECC_MAXR 13 /* check bits of the strongest: fix has 2^13 entries */
#define SC_ECC_MAXN (SC_ECC_MAXK + 8)

/* What a read of a word with error pattern e finds. */
typedef enum {
	SC_ECC_CLEAN,        /* e = 0 */
	SC_ECC_CORRECTED,    /* the decoder applied exactly e */
	SC_ECC_MISCORRECTED, /* it applied another pattern: the word is still wrong */
	SC_ECC_DETECTED,     /* a non-zero syndrome it does not (or may not) correct */
	SC_ECC_UNDETECTED    /* e != 0 is a codeword: syndrome 0 */
} sc_ecc_outcome_t;

/* An error pattern; (0, 0) in fix[] means "corrects nothing". */
typedef struct sc_ecc_pattern {
	uint64_t data;
	uint32_t check;
} sc_ecc_pattern_t;

typedef struct sc_code {
	sc_code_kind_t kind;
	uint32_t k, r, n;               /* data, check and codeword bits */
	uint32_t dist, t;               /* minimum distance; corrects weight <= t */
	uint16_t col[SC_ECC_MAXN];      /* H's column of codeword bit i (table above) */
	uint16_t enc[SC_ECC_MAXK];      /* check bits of data bit i alone */
	const sc_ecc_pattern_t *fix;    /* 2^r entries, by syndrome */
} sc_code_t;

/* The code of kind k, its tables built on the first call (not thread-safe:
 * call it once before starting threads; a forked child inherits the
 * tables). NULL for SC_CODE_NONE and out-of-range kinds. Owned by ecc.c. */
const sc_code_t *sc_code_get(sc_code_kind_t k);

/* Codeword bit i (< n) as an error pattern: data bit i, or check bit i - k. */
sc_ecc_pattern_t sc_code_bit(const sc_code_t *c, uint32_t i);

/* The r check bits that make (data, check) a codeword: H . (data, check) = 0.
 * Bits of data at and above k must be zero (asserted). */
uint32_t sc_code_encode(const sc_code_t *c, uint64_t data);
/* The r-bit syndrome H . e of the error pattern (data_err, check_err);
 * bits above k and r must be zero (asserted). */
uint32_t sc_code_syndrome(const sc_code_t *c, uint64_t data_err, uint32_t check_err);

/* Decodes the error pattern e = (data_err, check_err) of a stored word, as
 * the outcome above. rest_data and rest_check (each may be NULL) receive
 * the error the word holds after decoding: 0 for CLEAN and CORRECTED, e xor the
 * applied pattern for MISCORRECTED (itself a non-zero codeword, so no later
 * read detects it), e for DETECTED and UNDETECTED. With detect_only the
 * code serves as an error-detecting code (as Penny uses it): every non-zero
 * syndrome is DETECTED and nothing is corrected. */
sc_ecc_outcome_t sc_code_decode(const sc_code_t *c, uint64_t data_err, uint32_t check_err, bool detect_only,
                                uint64_t *rest_data, uint32_t *rest_check);

#endif
