/* Control-flow graph of each function and immediate post-dominators, used
 * as the SIMT reconvergence point of every conditional branch (stored in
 * the high half of the branch's imm, see sc_int.h). The algorithm is the
 * iterative dominator computation of Cooper, Harvey and Kennedy run on the
 * reverse CFG, with one virtual exit node that every exit, trap and final
 * ret flows to. */
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

typedef struct block {
	uint32_t first, last;   /* pcs */
	uint32_t succ[2];
	uint32_t nsucc;
	uint32_t *pred;
	uint32_t npred, cappred;
	int32_t order;          /* reverse post-order index on the reverse CFG */
	int32_t ipdom;
} block_t;

static bool ends_block(const sc_insn_t *in)
{
	return in->op == SC_OP_BRA || in->op == SC_OP_EXIT || in->op == SC_OP_TRAP || in->op == SC_OP_RET;
}

static int add_pred(block_t *b, uint32_t p)
{
	if (b->npred == b->cappred) {
		uint32_t c = b->cappred ? b->cappred * 2 : 4;
		uint32_t *n = realloc(b->pred, c * sizeof *n);
		if (!n)
			return -1;
		b->pred = n;
		b->cappred = c;
	}
	b->pred[b->npred++] = p;
	return 0;
}

static int32_t intersect(const block_t *bl, int32_t a, int32_t b)
{
	while (a != b) {
		while (bl[a].order < bl[b].order)
			a = bl[a].ipdom;
		while (bl[b].order < bl[a].order)
			b = bl[b].ipdom;
	}
	return a;
}

static int func_reconverge(sc_module_t *m, const sc_func_t *f)
{
	uint32_t n = f->end_pc - f->entry_pc;
	uint32_t *blk_of = NULL;
	bool *leader = calloc(n + 1, sizeof *leader);
	block_t *bl = NULL;
	uint32_t *stack = NULL, *post = NULL;
	int rc = -1;
	if (!leader)
		goto out;
	leader[0] = true;
	for (uint32_t i = 0; i < n; i++) {
		const sc_insn_t *in = &m->code[f->entry_pc + i];
		if (in->op == SC_OP_BRA) {
			uint32_t t = SC_BR_TARGET(in->imm);
			if (t >= f->entry_pc && t < f->end_pc)
				leader[t - f->entry_pc] = true;
		}
		if (ends_block(in) && i + 1 < n)
			leader[i + 1] = true;
	}
	uint32_t nb = 0;
	for (uint32_t i = 0; i < n; i++)
		nb += leader[i];
	/* block nb is the virtual exit */
	bl = calloc(nb + 1, sizeof *bl);
	blk_of = malloc(n * sizeof *blk_of);
	stack = malloc((nb + 1) * 2 * sizeof *stack);
	post = malloc((nb + 1) * sizeof *post);
	if (!bl || !blk_of || !stack || !post)
		goto out;
	uint32_t b = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (leader[i] && i) {
			bl[b].last = f->entry_pc + i - 1;
			b++;
		}
		if (leader[i])
			bl[b].first = f->entry_pc + i;
		blk_of[i] = b;
	}
	bl[b].last = f->end_pc - 1;
	uint32_t vexit = nb;
	for (b = 0; b < nb; b++) {
		const sc_insn_t *in = &m->code[bl[b].last];
		bool guarded = in->guard & SC_GUARD_ON;
		uint32_t fall = bl[b].last + 1 < f->end_pc ? blk_of[bl[b].last + 1 - f->entry_pc] : vexit;
		block_t *x = &bl[b];
		if (in->op == SC_OP_BRA) {
			uint32_t t = SC_BR_TARGET(in->imm);
			x->succ[x->nsucc++] = (t >= f->entry_pc && t < f->end_pc) ? blk_of[t - f->entry_pc] : vexit;
			if (guarded)
				x->succ[x->nsucc++] = fall;
		} else if (in->op == SC_OP_EXIT || in->op == SC_OP_TRAP || in->op == SC_OP_RET) {
			x->succ[x->nsucc++] = vexit;
			if (guarded && fall != vexit)
				x->succ[x->nsucc++] = fall;
		} else {
			x->succ[x->nsucc++] = fall;
		}
		for (uint32_t s = 0; s < x->nsucc; s++)
			if (add_pred(&bl[x->succ[s]], b))
				goto out;
	}
	/* post-order of the reverse CFG from the virtual exit (iterative DFS) */
	for (b = 0; b <= nb; b++) {
		bl[b].order = -1;
		bl[b].ipdom = -1;
	}
	uint32_t sp = 0, np = 0;
	bool *seen = leader; /* reuse: n + 1 >= nb + 1 entries */
	memset(seen, 0, (n + 1) * sizeof *seen);
	stack[sp++] = vexit;
	stack[sp++] = 0;
	seen[vexit] = true;
	while (sp) {
		uint32_t it = stack[sp - 1], v = stack[sp - 2];
		if (it < bl[v].npred) {
			stack[sp - 1]++;
			uint32_t w = bl[v].pred[it];
			if (!seen[w]) {
				seen[w] = true;
				stack[sp++] = w;
				stack[sp++] = 0;
			}
		} else {
			sp -= 2;
			bl[v].order = (int32_t)np;
			post[np++] = v;
		}
	}
	/* dominators on the reverse graph: "predecessors" there are successors */
	bl[vexit].ipdom = (int32_t)vexit;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = np; k-- > 0;) {
			uint32_t v = post[k];
			if (v == vexit)
				continue;
			int32_t nd = -1;
			for (uint32_t s = 0; s < bl[v].nsucc; s++) {
				uint32_t w = bl[v].succ[s];
				if (bl[w].ipdom < 0)
					continue;
				nd = nd < 0 ? (int32_t)w : intersect(bl, nd, (int32_t)w);
			}
			if (nd >= 0 && bl[v].ipdom != nd) {
				bl[v].ipdom = nd;
				changed = true;
			}
		}
	}
	for (b = 0; b < nb; b++) {
		sc_insn_t *in = &m->code[bl[b].last];
		if (in->op != SC_OP_BRA)
			continue;
		uint32_t rpc = SC_PC_NONE;
		if (bl[b].ipdom >= 0 && (uint32_t)bl[b].ipdom != vexit)
			rpc = bl[bl[b].ipdom].first;
		in->imm = ((uint64_t)rpc << 32) | SC_BR_TARGET(in->imm);
	}
	rc = 0;
out:
	if (bl)
		for (b = 0; b <= nb; b++)
			free(bl[b].pred);
	free(bl);
	free(blk_of);
	free(leader);
	free(stack);
	free(post);
	return rc;
}

int sc__cfg_reconverge(sc_module_t *m)
{
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const sc_func_t *f = &m->funcs[i];
		if (f->entry_pc == UINT32_MAX || f->end_pc <= f->entry_pc)
			continue;
		if (func_reconverge(m, f))
			return SC_ENOMEM;
	}
	return 0;
}
