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

/* One function's CFG under construction: block nb is the virtual exit. */
typedef struct cfg {
	sc_insn_t *code;        /* the module's */
	uint32_t lo, hi, n;     /* the function's pcs [lo, hi), n of them */
	bool *leader;           /* n + 1: pc lo + i starts a block */
	uint32_t *blk_of;       /* n: block of each pc */
	block_t *bl;            /* nb + 1 */
	uint32_t nb;
	uint32_t *stack, *post; /* DFS scratch; blocks in post-order */
	uint32_t np;
} cfg_t;

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

/* Leaders: the entry, every jump target, every pc after a block end. */
static void find_leaders(cfg_t *c)
{
	c->leader[0] = true;
	for (uint32_t i = 0; i < c->n; i++) {
		const sc_insn_t *in = &c->code[c->lo + i];
		if (sc__insn_jumps(in)) {
			uint32_t t = SC_BR_TARGET(in->imm);
			if (t >= c->lo && t < c->hi)
				c->leader[t - c->lo] = true;
		}
		if (sc__insn_ends_block(in) && i + 1 < c->n)
			c->leader[i + 1] = true;
	}
}

void sc__cfg_leaders(const sc_insn_t *code, uint32_t lo, uint32_t hi, bool *leader)
{
	cfg_t c = {.code = (sc_insn_t *)code, .lo = lo, .hi = hi, .n = hi - lo, .leader = leader};
	if (c.n)
		find_leaders(&c);
}

/* The blocks between leaders, and the block of each pc. */
static int make_blocks(cfg_t *c)
{
	for (uint32_t i = 0; i < c->n; i++)
		c->nb += c->leader[i];
	c->bl = calloc(c->nb + 1, sizeof *c->bl);
	c->blk_of = malloc(c->n * sizeof *c->blk_of);
	c->stack = malloc((c->nb + 1) * 2 * sizeof *c->stack);
	c->post = malloc((c->nb + 1) * sizeof *c->post);
	if (!c->bl || !c->blk_of || !c->stack || !c->post)
		return -1;
	uint32_t b = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		if (c->leader[i] && i) {
			c->bl[b].last = c->lo + i - 1;
			b++;
		}
		if (c->leader[i])
			c->bl[b].first = c->lo + i;
		c->blk_of[i] = b;
	}
	c->bl[b].last = c->hi - 1;
	return 0;
}

/* Successors of each block (and so predecessors): a jump's target (the
 * virtual exit when it leaves the function), the path's end, and the next
 * block when the last instruction can fall through. */
static int link_blocks(cfg_t *c)
{
	uint32_t vexit = c->nb;
	for (uint32_t b = 0; b < c->nb; b++) {
		block_t *x = &c->bl[b];
		const sc_insn_t *in = &c->code[x->last];
		uint32_t fall = x->last + 1 < c->hi ? c->blk_of[x->last + 1 - c->lo] : vexit;
		if (sc__insn_jumps(in)) {
			uint32_t t = SC_BR_TARGET(in->imm);
			x->succ[x->nsucc++] = (t >= c->lo && t < c->hi) ? c->blk_of[t - c->lo] : vexit;
			if (sc__insn_falls(in))
				x->succ[x->nsucc++] = fall;
		} else if (in->op == SC_OP_TRAP && (in->guard & SC_GUARD_ON)) {
			/* a trap that fires ends the whole launch (a DUE), so no
			 * warp ever waits at a reconvergence point past it: for the
			 * post-dominators only its fall-through counts (dup.c puts
			 * @PE trap.dup inside divergent regions) */
			x->succ[x->nsucc++] = fall;
		} else if (sc__insn_ends_block(in)) {
			x->succ[x->nsucc++] = vexit;
			if (sc__insn_falls(in) && fall != vexit)
				x->succ[x->nsucc++] = fall;
		} else {
			x->succ[x->nsucc++] = fall;
		}
		for (uint32_t s = 0; s < x->nsucc; s++)
			if (add_pred(&c->bl[x->succ[s]], b))
				return -1;
	}
	return 0;
}

/* Post-order of the reverse CFG from the virtual exit (iterative DFS). */
static void post_order(cfg_t *c)
{
	block_t *bl = c->bl;
	uint32_t vexit = c->nb, sp = 0;
	for (uint32_t b = 0; b <= c->nb; b++) {
		bl[b].order = -1;
		bl[b].ipdom = -1;
	}
	bool *seen = c->leader; /* reuse: n + 1 >= nb + 1 entries */
	memset(seen, 0, (c->n + 1) * sizeof *seen);
	c->stack[sp++] = vexit;
	c->stack[sp++] = 0;
	seen[vexit] = true;
	while (sp) {
		uint32_t it = c->stack[sp - 1], v = c->stack[sp - 2];
		if (it < bl[v].npred) {
			c->stack[sp - 1]++;
			uint32_t w = bl[v].pred[it];
			if (!seen[w]) {
				seen[w] = true;
				c->stack[sp++] = w;
				c->stack[sp++] = 0;
			}
		} else {
			sp -= 2;
			bl[v].order = (int32_t)c->np;
			c->post[c->np++] = v;
		}
	}
}

/* Dominators on the reverse graph: "predecessors" there are successors. */
static void post_dominators(cfg_t *c)
{
	block_t *bl = c->bl;
	uint32_t vexit = c->nb;
	bl[vexit].ipdom = (int32_t)vexit;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = c->np; k-- > 0;) {
			uint32_t v = c->post[k];
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
}

/* Each jump's reconvergence pc: the first pc of its block's immediate
 * post-dominator, none when that is the virtual exit. */
static void store_rpcs(cfg_t *c)
{
	for (uint32_t b = 0; b < c->nb; b++) {
		sc_insn_t *in = &c->code[c->bl[b].last];
		if (!sc__insn_jumps(in))
			continue;
		uint32_t rpc = SC_PC_NONE;
		if (c->bl[b].ipdom >= 0 && (uint32_t)c->bl[b].ipdom != c->nb)
			rpc = c->bl[c->bl[b].ipdom].first;
		in->imm = ((uint64_t)rpc << 32) | SC_BR_TARGET(in->imm);
	}
}

static int func_reconverge(sc_module_t *m, const sc_func_t *f)
{
	cfg_t c = {.code = m->code, .lo = f->entry_pc, .hi = f->end_pc, .n = f->end_pc - f->entry_pc};
	int rc = -1;
	c.leader = calloc(c.n + 1, sizeof *c.leader);
	if (!c.leader)
		goto out;
	find_leaders(&c);
	if (make_blocks(&c) || link_blocks(&c))
		goto out;
	post_order(&c);
	post_dominators(&c);
	store_rpcs(&c);
	rc = 0;
out:
	if (c.bl)
		for (uint32_t b = 0; b <= c.nb; b++)
			free(c.bl[b].pred);
	free(c.bl);
	free(c.blk_of);
	free(c.leader);
	free(c.stack);
	free(c.post);
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
