/* nw_host.h — what nw.c and nw_cuda.cu share: the shapes, the
 * seeded input and the CPU reference. C and C++. */
#ifndef NW_HOST_H
#define NW_HOST_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appbase.h"

enum {
	BS = 16,           /* tile side and threads per CTA (nw.cu's BS) */
	DEFAULT_N = 512,   /* 32 tiles a side: GUFI's 32 + 31 invocations */
	MAX_N = 4096,
	PENALTY = 10,      /* gap penalty (the original's default) */
	LETTERS = 24,      /* alphabet size, as BLOSUM62's */
};

/* The input, as the original lays it out: two random sequences of n
 * letters, a symmetric substitution table (a seeded stand-in for BLOSUM62:
 * 4..11 on the diagonal, -4..2 off it), ref[i][j] = sub[a[i]][b[j]] for i,
 * j >= 1 (row and column 0 unused), and the score matrix with its borders
 * score[i][0] = -i * PENALTY, score[0][j] = -j * PENALTY. */
static inline void input_make(int n, int32_t *ref, int32_t *score, int *seq_a, int *seq_b, uint64_t seed)
{
	int sub[LETTERS][LETTERS], cols = n + 1;
	uint64_t s = seed;

	for (int x = 0; x < LETTERS; x++)
		for (int y = 0; y <= x; y++)
			sub[x][y] = sub[y][x] = x == y ? 4 + (int)(app_splitmix64(&s) % 8) : -4 + (int)(app_splitmix64(&s) % 7);
	for (int i = 1; i <= n; i++) {
		seq_a[i] = (int)(app_splitmix64(&s) % LETTERS);
		seq_b[i] = (int)(app_splitmix64(&s) % LETTERS);
	}
	memset(ref, 0, sizeof *ref * (size_t)cols * (size_t)cols);
	memset(score, 0, sizeof *score * (size_t)cols * (size_t)cols);
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= n; j++)
			ref[i * cols + j] = sub[seq_a[i]][seq_b[j]];
	for (int i = 0; i <= n; i++) {
		score[i * cols] = -i * PENALTY;
		score[i] = -i * PENALTY;
	}
}

static inline int max3(int a, int b, int c)
{
	int m = a > b ? a : b;
	return m > c ? m : c;
}

/* The CPU reference: the same recurrence, row by row. */
static inline void fill_cpu(int n, const int32_t *ref, int32_t *score)
{
	int cols = n + 1;
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= n; j++)
			score[i * cols + j] = max3(score[(i - 1) * cols + j - 1] + ref[i * cols + j],
			                           score[i * cols + j - 1] - PENALTY,
			                           score[(i - 1) * cols + j] - PENALTY);
}

/* Traces an optimal alignment back from the corner (the original's host
 * part): prefers the diagonal, then the gap in b, then the gap in a. On a
 * matrix that fits no move (a corrupted one) it takes the diagonal, so the
 * walk always ends. Counts matches and gaps. */
static inline void trace(int n, const int32_t *ref, const int32_t *score, const int *seq_a, const int *seq_b,
                  int *matches, int *gaps)
{
	int cols = n + 1, i = n, j = n;

	*matches = *gaps = 0;
	while (i > 0 || j > 0) {
		int here = score[i * cols + j];
		if (i > 0 && j > 0 && here == score[(i - 1) * cols + j - 1] + ref[i * cols + j]) {
			*matches += seq_a[i] == seq_b[j];
			i--;
			j--;
		} else if (i > 0 && here == score[(i - 1) * cols + j] - PENALTY) {
			(*gaps)++;
			i--;
		} else if (j > 0 && here == score[i * cols + j - 1] - PENALTY) {
			(*gaps)++;
			j--;
		} else if (i > 0 && j > 0) {
			i--;
			j--;
		} else if (i > 0) {
			i--;
		} else {
			j--;
		}
	}
}

/* ---- the output ----------------------------------------------------------- */

/* The result line on stdout: the filled score matrix (n + 1 squared cells)
 * and the alignment traced back through it. */
static inline void print_result(long n, const int32_t *ref, const int32_t *score, const int *seq_a,
                                const int *seq_b)
{
	const size_t cells = (size_t)(n + 1) * (size_t)(n + 1);
	int matches, gaps;
	trace((int)n, ref, score, seq_a, seq_b, &matches, &gaps);
	printf("nw: 2 x %ld letters, penalty %d, score %d, alignment: %d matches, %d gaps, digest %016llx\n", n,
	       PENALTY, (int)score[cells - 1], matches, gaps,
	       (unsigned long long)app_fnv1a(score, sizeof *score * cells));
}

/* --check: the CPU's fill of rscore (borders in) against score; prints OK
 * or the first difference on stdout. Returns APP_OK or APP_FAIL. */
static inline int check_result(long n, const int32_t *ref, const int32_t *score, int32_t *rscore)
{
	const size_t cells = (size_t)(n + 1) * (size_t)(n + 1);
	fill_cpu((int)n, ref, rscore);
	for (size_t c = 0; c < cells; c++)
		if (score[c] != rscore[c]) {
			printf("nw: FAIL: score[%zu][%zu] = %d on the GPU, %d on the CPU\n", c / (size_t)(n + 1),
			       c % (size_t)(n + 1), (int)score[c], (int)rscore[c]);
			return APP_FAIL;
		}
	printf("nw: OK (%zu cells match the CPU)\n", cells);
	return APP_OK;
}

#endif
