/* Decoded fault sites and the watch on a faulty location (issue 13):
 * what bit `loc` of a target's space is at the current pause point, and
 * what the fault then meets first.
 *
 * A site is written as one compact JSON object (sc_site_json): the
 * target, the SM, whether the location is in use, and by structure the
 * coordinates a reader asks for: the kernel and its invocation, the CTA,
 * the warp, the lane; the register (physical word, thread slot and the
 * PTX virtual register it holds), the predicate, the shared-memory byte
 * and its variable, the SIMT entry and field, the instruction-buffer
 * entry, field and instruction, the cache's set, way, field and address.
 * Then the flipped bits and the value of the word holding them before and
 * after the flip. No string in it holds a space, tab or newline (they are
 * escaped), so it travels as one word of a text line (rt.c's X line).
 *
 * The watch (sc_watch) follows a register, predicate or shared byte after
 * the fault: the first instruction whose executing lanes read a corrupted
 * copy, or the first that overwrites every corrupted bit before any read.
 * It costs nothing in a run without it: issue() and the shared-memory
 * path test one flag. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sc_int.h"

/* ------------------------------------------------------------ JSON text */
typedef struct jw {
	char *b;
	size_t n, len;
	bool bad, first;
	const sc_fmodel_t *fm;  /* the fault's model (NULL: a flip), for "after" */
	uint64_t pattern;       /* its VALUE pattern */
} jw_t;

static void jw_raw(jw_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jw_raw(jw_t *w, const char *fmt, ...)
{
	if (w->bad)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(w->b + w->len, w->n - w->len, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= w->n - w->len)
		w->bad = true;
	else
		w->len += (size_t)k;
}

static void jw_key(jw_t *w, const char *key)
{
	jw_raw(w, "%s\"%s\":", w->first ? "" : ",", key);
	w->first = false;
}

/* A JSON string: quotes, backslashes, controls and blanks escaped. */
static void jw_str(jw_t *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_raw(w, "\"");
	for (; *s && !w->bad; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			jw_raw(w, "\\%c", ch);
		else if (ch <= ' ' || ch == 0x7f)
			jw_raw(w, "\\u%04x", ch);
		else
			jw_raw(w, "%c", ch);
	}
	jw_raw(w, "\"");
}

static void jw_u64(jw_t *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_raw(w, "%llu", (unsigned long long)v);
}

static void jw_bool(jw_t *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_raw(w, "%s", v ? "true" : "false");
}

/* A value as a hex string of its width (JSON numbers lose 64-bit values). */
static void jw_hex(jw_t *w, const char *key, uint64_t v, uint32_t bits)
{
	jw_key(w, key);
	jw_raw(w, "\"0x%0*llx\"", (int)((bits + 3) / 4), (unsigned long long)v);
}

/* Closes the object; on overflow writes the shortest object that still
 * says what it is. Returns the length, or -1 when even that did not fit. */
static int jw_end(jw_t *w, const char *target)
{
	jw_raw(w, "}");
	if (!w->bad)
		return (int)w->len;
	int k = snprintf(w->b, w->n, "{\"target\":\"%s\",\"truncated\":true}", target);
	return k >= 0 && (size_t)k < w->n ? k : -1;
}

/* ------------------------------------------------------------ helpers */
static bool warp_live(const sc_warp_t *w) { return w->state == SC_W_ACTIVE || w->state == SC_W_BAR; }

/* Where a lane stands: "pc" and "ptx_line"; false (nothing written) for
 * no instruction of m. */
static bool at_pc(jw_t *j, const sc_module_t *m, uint32_t pc)
{
	if (pc == SC_PC_NONE || pc >= m->ncode)
		return false;
	jw_u64(j, "pc", pc);
	if (m->line)
		jw_u64(j, "ptx_line", m->line[pc]);
	return true;
}

/* "vreg": the PTX name of f's register (pred: predicate) at ptx slot
 * `slot`, and "half": 1 for a 64-bit register's upper word; nothing when
 * no declaration names it. */
static void vreg_name(jw_t *j, const sc_module_t *m, const sc_func_t *f, uint32_t slot, bool pred)
{
	char name[64];
	unsigned half = 0;
	if (!f || sc__reg_name(m, f, slot, pred, name, sizeof name) != 0)
		return;
	jw_str(j, "vreg", name);
	if (!pred && sc__reg_type(m, f, slot, false, NULL, &half) == 0 && half)
		jw_u64(j, "half", half);
}

/* The warp whose register block holds physical word `word` (slot k's
 * block starts at word k x regs x 32, sc__cta_start), when its CTA is
 * resident (the word is in use, as fault.c's locate() has it); else NULL.
 * The warp itself may have exited. */
static const sc_warp_t *warp_of_word(const sc_gpu_t *g, const sc_sm_t *sm, uint64_t word)
{
	const sc_run_t *r = &g->run;
	uint64_t per = (uint64_t)r->regs * 32;
	if (!r->fn || !per || !r->nwarps || word >= sm->rf_words)
		return NULL;
	uint64_t slot = word / per;
	if (slot >= (uint64_t)r->ctas_per_sm * r->nwarps || !sm->ctas[slot / r->nwarps].used)
		return NULL;
	return &sm->warps[slot];
}

/* The kernel, its invocation and the warp's CTA, warp and lane. */
static void warp_coords(jw_t *j, const sc_gpu_t *g, const sc_warp_t *w, int lane)
{
	const sc_cta_t *c = w->cta;
	if (c)
		jw_raw(j, ",\"cta\":[%u,%u,%u]", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	jw_u64(j, "warp", w->wid);
	jw_u64(j, "slot", w->slot);
	if (!warp_live(w))
		jw_str(j, "warp_state", "exited");
	if (lane >= 0)
		jw_u64(j, "lane", (uint64_t)lane);
	(void)g;
}

/* The PTX name of the register (or predicate) in thread slot `slot` that
 * lane `lane` of w holds now: ptx mode, the slot's own register; alloc
 * mode, the virtual register live there at the lane's pc (null: a dead
 * value, no virtual register). Inside calls the frame whose window holds
 * the slot decides (sc__vreg_in_frames). A 64-bit register's upper word
 * is named with "half": 1. */
static void vreg(jw_t *j, const sc_gpu_t *g, const sc_warp_t *w, uint32_t lane, uint32_t slot, bool pred)
{
	const sc_module_t *m = g->run.mod;
	uint32_t pc = sc__lane_pc(w, lane), ps = slot;
	const sc_func_t *owner = NULL;
	if (!at_pc(j, m, pc))
		return;
	int rc = sc__vreg_in_frames(m, pc, w->calls, w->ncalls, slot, pred, &ps, &owner);
	if (rc == 1) {
		jw_key(j, "vreg");
		jw_raw(j, "null");
		return;
	}
	if (rc == 0) /* else not known (no memory for liveness): no key */
		vreg_name(j, m, owner, ps, pred);
}

/* ------------------------------------------------------------ by target */
/* The value of the `bits`-bit word of the target holding `loc` (bits
 * counted from the word's start), read bit by bit through locate(). */
typedef bool (*bit_reader)(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc, int *v);

static void before_after(jw_t *j, uint64_t value, uint32_t bits, uint32_t lo, uint32_t nbits)
{
	uint64_t m = (nbits >= 64 ? ~0ull : ((1ull << nbits) - 1)) << lo, after;
	if (bits < 64)
		m &= (1ull << bits) - 1;
	switch (j->fm ? j->fm->kind : SC_FM_FLIP) {
	case SC_FM_VALUE: after = value ^ ((j->pattern << lo) & m); break;
	case SC_FM_ZERO: after = value & ~m; break;
	case SC_FM_STUCK: after = j->fm->value ? value | m : value & ~m; break;
	default: after = value ^ m;
	}
	jw_hex(j, "before", value, bits);
	jw_hex(j, "after", after, bits);
}

static void site_regfile(jw_t *j, const sc_gpu_t *g, const sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	uint64_t word = loc / 32;
	jw_u64(j, "phys", word);
	const sc_warp_t *w = warp_of_word(g, sm, word);
	if (!w) {
		jw_bool(j, "in_use", false);
		return;
	}
	uint64_t off = word - (uint64_t)(w->rf - sm->rf);
	uint32_t reg = (uint32_t)(off / 32), lane = (uint32_t)(off % 32);
	jw_bool(j, "in_use", true);
	warp_coords(j, g, w, (int)lane);
	jw_u64(j, "reg", reg);
	vreg(j, g, w, lane, reg, false);
	jw_u64(j, "bit", loc % 32);
	before_after(j, sm->rf[word], 32, (uint32_t)(loc % 32), nbits);
}

/* ptx mode: a bit of a thread's virtual register (or predicate), where
 * the allocation keeps its value now ("reg"/"pred", the physical slot),
 * or null when it holds nothing read again. */
static void site_virtual(jw_t *j, const sc_gpu_t *g, sc_target_t t, uint32_t smi, uint64_t loc, uint32_t nbits)
{
	const sc_module_t *m = g->run.mod;
	bool pred = t == SC_TGT_PRED;
	sc_vbit_t v;
	int rc = sc__virtual_at(g, t, smi, loc, &v);
	jw_u64(j, "virtual", loc / 32);
	if (rc < 0) {
		jw_bool(j, "in_use", false);
		return;
	}
	jw_bool(j, "in_use", true);
	warp_coords(j, g, v.warp, (int)v.lane);
	at_pc(j, m, sc__lane_pc(v.warp, v.lane));
	vreg_name(j, m, sc__ptx_owner(m, g->run.fn, v.vs, pred), v.vs, pred);
	if (rc == 0) {
		jw_key(j, pred ? "pred" : "reg");
		jw_raw(j, "null"); /* dead: the flip changes nothing */
		jw_u64(j, "bit", v.bit);
		return;
	}
	jw_u64(j, pred ? "pred" : "reg", v.phys);
	jw_u64(j, "bit", v.bit);
	before_after(j, pred ? v.warp->pf[v.phys] : v.warp->rf[(size_t)v.phys * 32 + v.lane], 32, v.bit, nbits);
}

/* The warp of predicate p of slot `slot`, when its CTA is resident. */
static const sc_warp_t *pred_warp(const sc_gpu_t *g, const sc_sm_t *sm, uint32_t slot, uint32_t p)
{
	const sc_run_t *r = &g->run;
	if (!r->fn || p >= r->preds || !r->nwarps || slot >= (uint64_t)r->ctas_per_sm * r->nwarps ||
	    !sm->ctas[slot / r->nwarps].used)
		return NULL;
	return &sm->warps[slot];
}

static void site_pred(jw_t *j, const sc_gpu_t *g, const sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	uint64_t word = loc / 32;
	uint32_t slot = (uint32_t)(word / g->cfg.preds_per_thread), p = (uint32_t)(word % g->cfg.preds_per_thread);
	uint32_t lane = (uint32_t)(loc % 32);
	const sc_warp_t *w = pred_warp(g, sm, slot, p);
	jw_u64(j, "pred", p);
	if (!w) {
		jw_bool(j, "in_use", false);
		return;
	}
	jw_bool(j, "in_use", true);
	warp_coords(j, g, w, (int)lane);
	vreg(j, g, w, lane, p, true);
	jw_u64(j, "bit", lane);
	before_after(j, w->pf[p], 32, lane, nbits);
}

static void site_smem(jw_t *j, const sc_gpu_t *g, const sc_sm_t *sm, uint64_t loc, uint32_t nbits)
{
	const sc_run_t *r = &g->run;
	uint64_t byte = loc / 8;
	jw_u64(j, "phys", byte);
	uint32_t cslot = r->smem ? (uint32_t)(byte / r->smem) : UINT32_MAX;
	if (!r->fn || !r->smem || cslot >= r->ctas_per_sm || !sm->ctas[cslot].used) {
		jw_bool(j, "in_use", false);
		return;
	}
	const sc_cta_t *c = &sm->ctas[cslot];
	uint32_t off = (uint32_t)(byte % r->smem), voff = 0;
	const char *var = NULL;
	jw_bool(j, "in_use", true);
	jw_raw(j, ",\"cta\":[%u,%u,%u]", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	jw_u64(j, "offset", off);
	if (sc__smem_var(r->mod, r->fn, off, &var, &voff) == 0 && var) {
		jw_str(j, "var", var);
		jw_u64(j, "var_offset", voff);
	}
	jw_u64(j, "bit", loc % 8);
	before_after(j, sm->smem[byte], 8, (uint32_t)(loc % 8), nbits);
}

/* Warp slot `slot` of sm when a kernel runs and the warp is live, else NULL. */
static const sc_warp_t *live_warp(const sc_gpu_t *g, const sc_sm_t *sm, uint32_t slot)
{
	return g->run.fn && slot < g->cfg.max_warps_per_sm && warp_live(&sm->warps[slot]) ? &sm->warps[slot] : NULL;
}

/* A warp's stack or buffer entry: in use (used; then its warp's
 * coordinates), or not (its slot). Returns used. */
static bool entry_in_use(jw_t *j, const sc_gpu_t *g, const sc_warp_t *w, uint32_t slot, bool used)
{
	if (!used) {
		jw_u64(j, "slot", slot);
		jw_bool(j, "in_use", false);
		return false;
	}
	jw_bool(j, "in_use", true);
	warp_coords(j, g, w, -1);
	return true;
}

static void site_simt(jw_t *j, const sc_gpu_t *g, const sc_sm_t *sm, unsigned fields, uint64_t loc, uint32_t nbits)
{
	static const char *const names[3] = {"pc", "rpc", "mask"};
	sc_entry_bit_t b = sc__simt_bit(&g->cfg, fields, loc);
	jw_u64(j, "entry", b.ent);
	jw_str(j, "field", names[b.field]);
	const sc_warp_t *w = live_warp(g, sm, b.slot);
	if (!entry_in_use(j, g, w, b.slot, w && b.ent < w->sp))
		return;
	const sc_simt_t *s = &w->stk[b.ent];
	uint32_t v = b.field == 0 ? s->pc : b.field == 1 ? s->rpc : s->mask;
	jw_u64(j, "bit", b.bit);
	before_after(j, v, 32, b.bit, nbits);
}

static void site_ibuffer(jw_t *j, const sc_gpu_t *g, const sc_sm_t *sm, unsigned fields, uint64_t loc,
                         uint32_t nbits)
{
	sc_entry_bit_t b = sc__ib_bit(&g->cfg, fields, loc);
	bool valid_bit = b.field == 0;
	jw_u64(j, "entry", b.ent);
	jw_str(j, "field", valid_bit ? "valid" : "instr");
	const sc_warp_t *w = live_warp(g, sm, b.slot);
	if (!entry_in_use(j, g, w, b.slot, w && (valid_bit || (w->ib[b.ent].valid & SC_IB_VALID))))
		return;
	const sc_ibent_t *ib = &w->ib[b.ent];
	if (w->ib_pc != UINT32_MAX)
		jw_u64(j, "pc", (uint64_t)w->ib_pc + b.ent);
	if (ib->valid & SC_IB_VALID) {
		char text[160];
		if (sc__insn_check(&ib->insn, g->run.regs, g->run.preds, g->run.mod->npool, g->run.mod->ncode) == 0 &&
		    sc__disasm(g->run.mod, &ib->insn, text, sizeof text) >= 0)
			jw_str(j, "insn", text);
	}
	if (valid_bit) {
		jw_u64(j, "bit", 0);
		before_after(j, ib->valid & SC_IB_VALID, 1, 0, 1);
		return;
	}
	/* the 32-bit chunk of the word holding the bit */
	uint32_t chunk;
	memcpy(&chunk, (const uint8_t *)&ib->insn + b.bit / 32 * 4, 4);
	jw_u64(j, "bit", b.bit);
	before_after(j, chunk, 32, b.bit % 32, nbits);
}

static void site_cache(jw_t *j, const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t sm, uint64_t loc,
                       uint32_t nbits)
{
	sc_cache_site_t c;
	if (!sc__cache_site(g, t, fields, sm, loc, &c)) {
		jw_bool(j, "in_use", false);
		return;
	}
	if (t == SC_TGT_L2)
		jw_u64(j, "slice", c.cache);
	jw_u64(j, "set", c.set);
	jw_u64(j, "way", c.way);
	jw_str(j, "field", c.field);
	jw_bool(j, "in_use", c.in_use);
	if (c.addr != UINT64_MAX) {
		const char *space = c.addr >= SC_CACHE_LOCAL ? "local" : c.addr >= SC_CACHE_CONST ? "const" : "global";
		uint64_t a = c.addr >= SC_CACHE_LOCAL ? c.addr - SC_CACHE_LOCAL
		             : c.addr >= SC_CACHE_CONST ? c.addr - SC_CACHE_CONST
		                                        : c.addr;
		jw_str(j, "space", space);
		jw_hex(j, "address", a, 40);
	}
	jw_u64(j, "bit", c.bit);
	if (c.code != SC_CODE_NONE) {
		/* a codeword's bit, as for the register file: a check bit's flip
		 * leaves the data as it was (bit: its codeword's first data bit);
		 * the other bits of an adjacent fault may lie in other codewords */
		jw_str(j, "code", sc_code_name(c.code));
		jw_u64(j, "codeword_bit", c.codeword_bit);
		jw_bool(j, "check_bit", c.check_bit);
		if (c.check_bit)
			return;
		nbits = 1;
	}
	before_after(j, c.value, c.value_bits, c.value_lo, nbits);
}

/* FU: the lane and bit at injection; once the cycle ran, the instruction
 * whose result it corrupted (sc__fu_apply recorded its pc). */
static void site_fu(jw_t *j, const sc_gpu_t *g, uint64_t loc)
{
	jw_u64(j, "lane", loc / 64);
	jw_u64(j, "bit", loc % 64);
	if (!g->fu.applied)
		return;
	const sc_module_t *m = g->run.mod;
	char text[160];
	jw_bool(j, "applied", true);
	jw_u64(j, "pc", g->fu.pc);
	if (m && g->fu.pc < m->ncode) {
		if (m->line)
			jw_u64(j, "ptx_line", m->line[g->fu.pc]);
		if (sc__disasm_ptx(m, g->fu.pc, text, sizeof text) >= 0)
			jw_str(j, "insn", text);
	}
}

int sc_site_json(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits,
                 char *buf, size_t n)
{
	return sc_site_json_model(g, t, fields, smi, loc, nbits, NULL, 0, buf, n);
}

int sc_site_json_model(const sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits,
                       const sc_fmodel_t *m, uint64_t pattern, char *buf, size_t n)
{
	if (!g || !buf || n == 0 || (unsigned)t >= SC_TGT__COUNT || smi >= g->cfg.num_sms)
		return -1;
	jw_t j = {.b = buf, .n = n, .first = true, .fm = m, .pattern = pattern};
	const sc_sm_t *sm = &g->sms[smi];
	jw_raw(&j, "{");
	jw_str(&j, "target", sc_target_name(t));
	jw_u64(&j, "sm", smi);
	if (g->run.fn) {
		jw_str(&j, "kernel", g->run.fn->name);
		jw_u64(&j, "launch", g->run.launch_index);
	}
	jw_u64(&j, "nbits", nbits);
	if (sc__coded(g, t)) {
		/* a codeword's bit: the word it protects is described below, with
		 * the data bits from this one that are in it (none for a check
		 * bit: its flip leaves the word's value as it was) */
		sc_codebit_t cb = sc__prot_codebit(g, t, loc);
		bool check = cb.bit >= cb.k;
		jw_str(&j, "code", sc_code_name(cb.code));
		jw_u64(&j, "codeword_bit", cb.bit);
		jw_bool(&j, "check_bit", check);
		loc = cb.plain + (check ? 0 : cb.bit);
		nbits = check ? 0 : cb.il > 1 ? 1 : nbits < cb.k - cb.bit ? nbits : cb.k - cb.bit;
	}
	if (sc__virtual(g, t)) {
		site_virtual(&j, g, t, smi, loc, nbits);
		return jw_end(&j, sc_target_name(t));
	}
	switch (t) {
	case SC_TGT_REGFILE: site_regfile(&j, g, sm, loc, nbits); break;
	case SC_TGT_PRED: site_pred(&j, g, sm, loc, nbits); break;
	case SC_TGT_SMEM: site_smem(&j, g, sm, loc, nbits); break;
	case SC_TGT_SIMT: site_simt(&j, g, sm, fields, loc, nbits); break;
	case SC_TGT_IBUFFER: site_ibuffer(&j, g, sm, fields, loc, nbits); break;
	case SC_TGT_FU: site_fu(&j, g, loc); break;
	default: site_cache(&j, g, t, fields, smi, loc, nbits); break;
	}
	return jw_end(&j, sc_target_name(t));
}

/* ------------------------------------------------------------ the watch */
/* The watch's buffer: {"followed": on} until something happens. */
static void watch_pending(sc_watch_t *wt)
{
	if (wt->out && wt->outn)
		snprintf(wt->out, wt->outn, "{\"followed\":%s}", wt->on ? "true" : "false");
}

/* Watches `kind` at (sm, slot, idx; lanes for registers) from now on,
 * into the buffer sc_watch was given. */
static void watch_set(sc_watch_t *wt, sc_watch_kind_t kind, uint32_t sm, uint32_t slot, uint32_t idx, uint32_t lanes)
{
	*wt = (sc_watch_t){.on = true, .want = true, .kind = (uint8_t)kind, .sm = sm, .slot = slot, .idx = idx,
	                   .lanes = lanes, .out = wt->out, .outn = wt->outn};
}

void sc_watch(sc_gpu_t *g, sc_target_t t, unsigned fields, uint32_t smi, uint64_t loc, uint32_t nbits, char *out,
              size_t n)
{
	(void)fields;
	const sc_run_t *r = &g->run;
	sc_watch_t *wt = &g->watch;
	*wt = (sc_watch_t){.want = true, .out = out, .outn = out ? n : 0};
	if (sc__coded(g, t)) { /* a codeword is read whole: followed as its word */
		sc_codebit_t cb = sc__prot_codebit(g, t, loc);
		loc = t == SC_TGT_PRED || cb.bit >= cb.k ? cb.plain : cb.plain + cb.bit;
		nbits = t == SC_TGT_PRED ? 32 : 1;
	}
	uint64_t word = loc / 32;
	uint32_t bits = (uint32_t)((nbits >= 32 ? ~0ull : (1ull << nbits) - 1) << (loc % 32));
	if (smi < g->cfg.num_sms && r->fn && nbits >= 1 && nbits <= 32) {
		const sc_sm_t *sm = &g->sms[smi];
		sc_vbit_t v;
		if (sc__virtual(g, t)) {
			/* the physical slot holding the virtual register's value now */
			if ((loc % 32) + nbits <= 32 && sc__virtual_at(g, t, smi, loc, &v) == 1)
				sc__watch_reg(g, smi, v.warp->slot, t == SC_TGT_PRED, v.phys,
				              t == SC_TGT_PRED ? bits : 1u << v.lane);
		} else if (t == SC_TGT_REGFILE) {
			const sc_warp_t *w = warp_of_word(g, sm, word);
			uint64_t off = w ? word - (uint64_t)(w->rf - sm->rf) : 0;
			if (w)
				sc__watch_reg(g, smi, w->slot, false, (uint32_t)(off / 32), 1u << (off % 32));
		} else if (t == SC_TGT_PRED) {
			uint32_t slot = (uint32_t)(word / g->cfg.preds_per_thread), p = (uint32_t)(word % g->cfg.preds_per_thread);
			if (pred_warp(g, sm, slot, p))
				sc__watch_reg(g, smi, slot, true, p, bits);
		} else if (t == SC_TGT_L1D || t == SC_TGT_L2 || t == SC_TGT_CONST || t == SC_TGT_TEXCACHE) {
			/* a data bit of a valid line: followed to the first load that
			 * reads it, or until the corruption leaves the caches */
			sc_cache_site_t c;
			if (sc__cache_site(g, t, fields, smi, loc, &c) && c.in_use && !strcmp(c.field, "data"))
				watch_set(wt, SC_WATCH_CACHE, smi, 0, 0, 0);
		} else if (t == SC_TGT_SIMT) {
			sc_entry_bit_t b = sc__simt_bit(&g->cfg, fields, loc);
			const sc_warp_t *w = live_warp(g, sm, b.slot);
			if (w && b.ent < w->sp)
				watch_set(wt, SC_WATCH_SIMT, smi, b.slot, b.ent, 0);
		} else if (t == SC_TGT_IBUFFER) {
			/* a bit of an instruction word: followed to the issue of its pc */
			sc_entry_bit_t b = sc__ib_bit(&g->cfg, fields, loc);
			const sc_warp_t *w = live_warp(g, sm, b.slot);
			if (w && b.field == 1 && (w->ib[b.ent].valid & SC_IB_VALID) && w->ib_pc != UINT32_MAX)
				watch_set(wt, SC_WATCH_IB, smi, b.slot, w->ib_pc + b.ent, 0);
		} else if (t == SC_TGT_SMEM) {
			uint64_t byte = loc / 8;
			uint32_t cslot = r->smem ? (uint32_t)(byte / r->smem) : UINT32_MAX;
			if (cslot < r->ctas_per_sm && sm->ctas[cslot].used && (loc % 8) + nbits <= 8)
				watch_set(wt, SC_WATCH_SMEM, smi, cslot, (uint32_t)(byte % r->smem), 0);
		} /* other targets are not followed (an FU result is, once applied) */
	}
	watch_pending(wt);
}

void sc__watch_reg(sc_gpu_t *g, uint32_t sm, uint32_t slot, bool pred, uint32_t idx, uint32_t lanes)
{
	watch_set(&g->watch, pred ? SC_WATCH_PRED : SC_WATCH_REG, sm, slot, idx, lanes);
	watch_pending(&g->watch);
}

/* The watch saw its event: written out now, while the module is there. */
void sc__watch_hit(sc_gpu_t *g, sc_watch_state_t st, uint32_t pc)
{
	sc_watch_t *wt = &g->watch;
	const sc_module_t *m = g->run.mod;
	wt->on = false;
	if (!wt->out || !wt->outn)
		return;
	jw_t j = {.b = wt->out, .n = wt->outn, .first = true};
	jw_raw(&j, "{");
	static const char *const names[] = {[SC_WATCH_READ] = "read", [SC_WATCH_OVERWRITTEN] = "overwritten",
	                                    [SC_WATCH_CLEARED] = "cleared", [SC_WATCH_WRITTEN_BACK] = "written_back"};
	jw_str(&j, "first", names[st]);
	jw_u64(&j, "cycle", g->cycle);
	if (pc == SC_PC_NONE) { /* no instruction: cleared, evicted, written back, read by the host */
		if (jw_end(&j, "effect") < 0)
			wt->out[0] = 0;
		return;
	}
	jw_u64(&j, "pc", pc);
	if (m && pc < m->ncode) {
		char text[160];
		if (m->line)
			jw_u64(&j, "ptx_line", m->line[pc]);
		if (sc__disasm_ptx(m, pc, text, sizeof text) >= 0) {
			char op[48];
			size_t k = strcspn(text, " ");
			snprintf(op, sizeof op, "%.*s", (int)(k < sizeof op ? k : sizeof op - 1), text);
			jw_str(&j, "op", op);
			jw_str(&j, "insn", text);
		}
	}
	if (jw_end(&j, "effect") < 0)
		wt->out[0] = 0;
}

void sc__watch_issue(sc_gpu_t *g, const sc_warp_t *w, const sc_insn_t *in, uint32_t active, uint32_t pc)
{
	sc_watch_t *wt = &g->watch;
	if (wt->kind == SC_WATCH_IB && in) {
		/* the corrupted word issues (read), or its pc issues a clean word
		 * fetched again since (overwritten) */
		const sc_module_t *m = g->run.mod;
		if (pc == wt->idx && pc < m->ncode)
			sc__watch_hit(g, memcmp(in, &m->code[pc], sizeof *in) ? SC_WATCH_READ : SC_WATCH_OVERWRITTEN, pc);
		return;
	}
	if (wt->kind == SC_WATCH_SIMT) {
		/* an issue reads the top entry (its pc, its mask, and its rpc when
		 * the pc advances); an entry at or above the top was popped */
		if (w->sp == wt->idx + 1)
			sc__watch_hit(g, SC_WATCH_READ, pc);
		else if (w->sp <= wt->idx)
			sc__watch_hit(g, SC_WATCH_OVERWRITTEN, pc);
		return;
	}
	if (!in || (wt->kind != SC_WATCH_REG && wt->kind != SC_WATCH_PRED))
		return;
	uint32_t exec = active;
	if (in->guard & SC_GUARD_ON) {
		uint32_t pm = w->pf[SC_GUARD_REG(in->guard)];
		exec &= (in->guard & SC_GUARD_NEG) ? ~pm : pm;
	}
	bool pred = wt->kind == SC_WATCH_PRED;
	sc_regref_t v[7];
	unsigned n = sc__insn_regs(in, v);
	uint32_t written = 0;
	for (unsigned i = 0; i < n; i++) {
		if (v[i].pred != pred || wt->idx < v[i].idx || wt->idx >= v[i].idx + v[i].w)
			continue;
		/* the guard is read by every active lane; a cross-lane source
		 * (shfl) by lanes that need not execute; the rest by exec's */
		uint32_t readers = v[i].pos == 6 ? active : v[i].xlane ? (exec ? wt->lanes : 0) : exec;
		if (!v[i].def && (readers & wt->lanes)) {
			sc__watch_hit(g, SC_WATCH_READ, pc);
			return;
		}
		if (v[i].def)
			written |= exec;
	}
	/* every corrupted copy overwritten before being read */
	if ((written & wt->lanes) == wt->lanes)
		sc__watch_hit(g, SC_WATCH_OVERWRITTEN, pc);
	else if (written & wt->lanes)
		wt->lanes &= ~written;
}

void sc__watch_cta(sc_gpu_t *g, const sc_sm_t *sm, const sc_cta_t *cta)
{
	const sc_watch_t *wt = &g->watch;
	if (wt->kind == SC_WATCH_CACHE)
		return; /* a CTA's start clears no cache line */
	uint32_t cslot = wt->kind == SC_WATCH_SMEM ? wt->slot : g->run.nwarps ? wt->slot / g->run.nwarps : UINT32_MAX;
	if (sm->id == wt->sm && cslot == cta->slot)
		sc__watch_hit(g, SC_WATCH_CLEARED, SC_PC_NONE);
}

void sc__watch_shared(sc_gpu_t *g, const sc_sm_t *sm, const sc_warp_t *w, bool write, const uint64_t *addr,
                      uint64_t off, uint32_t exec, unsigned bytes)
{
	sc_watch_t *wt = &g->watch;
	if (sm->id != wt->sm || !w->cta || w->cta->slot != wt->slot)
		return;
	for (uint32_t m = exec; m; m &= m - 1) {
		uint64_t a = addr[__builtin_ctz(m)] - off;
		if (wt->idx >= a && wt->idx < a + bytes) {
			sc__watch_hit(g, write ? SC_WATCH_OVERWRITTEN : SC_WATCH_READ, w->sp ? w->stk[w->sp - 1].pc : SC_PC_NONE);
			return;
		}
	}
}
