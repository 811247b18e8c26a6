/* A module's lowered code written back as PTX that the loader reads: the
 * module's variables, each function's parameters, registers, local
 * variables, labels and instructions (disasm.c writes each word). What
 * lowering drops, and so what the text lacks, is listed in DESIGN.md,
 * "Passes over the lowered code". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_int.h"

/* Whether range declaration x (NAME<N>) names a register called `name`
 * (NAME followed by digits). */
static bool covers(const sc__reg_decl_t *x, const char *name)
{
	size_t n = strlen(x->name);
	if (!x->count || strncmp(x->name, name, n) || !name[n])
		return false;
	for (const char *c = name + n; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

/* The name a declaration of f is written under: its own, or, when an
 * earlier declaration of f could name the same register (blocks reuse
 * names: %p1 in a block beside %p<3>), the name with "_<index>_"
 * appended. */
static void decl_name(const sc_func_t *f, const sc__reg_decl_t *d, char *buf, size_t n)
{
	uint32_t i = (uint32_t)(d - f->decl);
	bool dup = false;
	for (uint32_t j = 0; j < i && !dup; j++)
		dup = !strcmp(f->decl[j].name, d->name) || covers(&f->decl[j], d->name) || covers(d, f->decl[j].name);
	if (dup)
		snprintf(buf, n, "%s_%u_", d->name, i);
	else
		snprintf(buf, n, "%s", d->name);
}

static void reg_name(const sc__emit_t *e, unsigned slot, bool pred, char *buf, size_t n)
{
	uint32_t k;
	const sc_func_t *f = e->f;
	const sc__reg_decl_t *d = sc__reg_decl(f, slot, pred, &k);
	if (!d) { /* no declaration covers it: cannot happen in a loaded module */
		snprintf(buf, n, "%%undeclared%u", slot);
		return;
	}
	char base[64];
	decl_name(f, d, base, sizeof base);
	uint32_t w = !pred && sc__type_bits(d->type) == 64 ? 2 : 1;
	if (d->count)
		snprintf(buf, n, "%s%u", base, k / w);
	else
		snprintf(buf, n, "%s", base);
}

/* Symbol names: a name is kept unless another symbol of the same scope
 * (or a module-scope one, which a function's would shadow) has it. */
static int sym_names(sc__emit_t *e)
{
	const sc_module_t *m = e->m;
	if (!(e->sym_name = calloc(m->nsyms + 1, sizeof *e->sym_name)))
		return SC_ENOMEM;
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const sc__sym_t *y = &m->syms[i];
		bool dup = false;
		for (uint32_t j = 0; j < m->nsyms && !dup; j++)
			dup = j != i && !strcmp(m->syms[j].name, y->name) && m->syms[j].space != SC_SP_NONE &&
			      (m->syms[j].owner == y->owner || m->syms[j].owner < 0) && y->owner >= 0 &&
			      (j < i || m->syms[j].owner < 0);
		size_t n = strlen(y->name) + 16;
		if (!(e->sym_name[i] = malloc(n)))
			return SC_ENOMEM;
		snprintf(e->sym_name[i], n, dup ? "%s_%u" : "%s", y->name, i);
	}
	return 0;
}

static int prepare(sc__emit_t *e, const sc_module_t *m)
{
	*e = (sc__emit_t){.m = m, .reg = reg_name};
	e->reloc_pc = malloc((m->ncode + 1) * sizeof *e->reloc_pc);
	e->reloc_pool = malloc((m->npool + 1) * sizeof *e->reloc_pool);
	e->call_pc = malloc((m->ncode + 1) * sizeof *e->call_pc);
	if (!e->reloc_pc || !e->reloc_pool || !e->call_pc)
		return SC_ENOMEM;
	for (uint32_t pc = 0; pc < m->ncode; pc++)
		e->reloc_pc[pc] = e->call_pc[pc] = -1;
	for (uint32_t i = 0; i < m->npool; i++)
		e->reloc_pool[i] = -1;
	for (uint32_t i = 0; i < m->nreloc; i++)
		(m->reloc[i].pool ? e->reloc_pool : e->reloc_pc)[m->reloc[i].at] = (int32_t)i;
	for (uint32_t i = 0; i < m->ncalls; i++)
		e->call_pc[m->calls[i].pc] = (int32_t)i;
	return sym_names(e);
}

static void release(sc__emit_t *e)
{
	for (uint32_t i = 0; e->sym_name && i < e->m->nsyms; i++)
		free(e->sym_name[i]);
	free(e->sym_name);
	free(e->reloc_pc);
	free(e->reloc_pool);
	free(e->call_pc);
}

/* ".space .align A .b8 name[size] = {...};" for a variable or parameter
 * (as a byte array: the element type is not kept). */
/* A variable whose initializer holds function addresses (call.c): as
 * .u64 words, those by the functions' names. Returns false (nothing
 * written) for any other. */
static bool put_func_addrs(FILE *out, const sc__emit_t *e, uint32_t i)
{
	const sc__sym_t *y = &e->m->syms[i];
	bool any = false;
	uint64_t v;
	for (uint32_t b = 0; y->size % 8 == 0 && y->align % 8 == 0 && b < y->size; b += 8) {
		memcpy(&v, y->init + b, 8);
		any = any || sc__func_of_addr(e->m, v);
	}
	if (!any)
		return false;
	fprintf(out, "[%u] = {", y->size / 8);
	for (uint32_t b = 0; b < y->size; b += 8) {
		memcpy(&v, y->init + b, 8);
		const sc_func_t *f = sc__func_of_addr(e->m, v);
		fprintf(out, "%s", b ? ", " : "");
		if (f)
			fprintf(out, "%s", f->name);
		else
			fprintf(out, "%llu", (unsigned long long)v);
	}
	fprintf(out, "}");
	return true;
}

static void put_var(FILE *out, const sc__emit_t *e, uint32_t i, const char *indent, const char *end)
{
	static const char *const sp[SC_SP__COUNT] = {"", "", ".global", ".shared", ".local", ".const", ".param"};
	const sc__sym_t *y = &e->m->syms[i];
	uint64_t v = 0;
	bool words = false; /* function addresses: .u64 words */
	for (uint32_t b = 0; y->init && y->size % 8 == 0 && y->align % 8 == 0 && b < y->size && !words; b += 8) {
		memcpy(&v, y->init + b, 8);
		words = sc__func_of_addr(e->m, v) != NULL;
	}
	fprintf(out, "%s%s%s .align %u .%s %s", indent, y->is_extern ? ".extern " : "", sp[y->space],
	        y->align ? y->align : 1, words ? "u64" : "b8", e->sym_name[i]);
	if (words)
		;
	else if (y->is_extern)
		fprintf(out, "[]");
	else
		fprintf(out, "[%u]", y->size ? y->size : 1);
	if (y->init && put_func_addrs(out, e, i))
		;
	else if (y->init) {
		fprintf(out, " = {");
		for (uint32_t b = 0; b < y->size; b++)
			fprintf(out, "%s%u", b ? (b % 16 ? ", " : ",\n\t") : "", y->init[b]);
		fprintf(out, "}");
	}
	fprintf(out, "%s", end);
}

/* The parameter list of function fi: its symbols of `role`, in order. */
static void put_params(FILE *out, const sc__emit_t *e, uint32_t fi, uint8_t role)
{
	const sc_module_t *m = e->m;
	const sc_func_t *f = &m->funcs[fi];
	uint32_t n = 0;
	fprintf(out, "(");
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const sc__sym_t *y = &m->syms[i];
		if (y->owner != (int32_t)fi || y->role != role)
			continue;
		fprintf(out, "%s\n\t", n ? "," : "");
		if (role == SC_SYM_KPARAM && n < f->nparams) {
			const sc__param_decl_t *d = &f->param_decl[n];
			fprintf(out, ".param .align %u .%s %s", y->align, sc__type_names[d->type], e->sym_name[i]);
			if (d->count > 1)
				fprintf(out, "[%u]", d->count);
		} else {
			put_var(out, e, i, "", "");
		}
		n++;
	}
	fprintf(out, ")");
}

static void put_dims(FILE *out, const char *what, const uint32_t *d)
{
	if (d[0])
		fprintf(out, "%s %u, %u, %u\n", what, d[0], d[1] ? d[1] : 1, d[2] ? d[2] : 1);
}

/* Function fi: its head, registers, variables, then every word, a label
 * before each jump target. */
/* An indirect call's .callprototype (label $P<pc>), before the call. */
static void put_proto(FILE *out, const sc_module_t *m, const sc_insn_t *in, uint32_t pc)
{
	uint32_t k = SC_BR_RPC(in->imm);
	if (in->op != SC_OP_CALL || in->sub != SC_CALL_DYN || SC_NSRC(in) != 1 || k >= m->ndcalls)
		return;
	const sc__dcall_t *c = &m->dcalls[k];
	if (c->ntargets) {
		fprintf(out, "$P%u: .calltargets ", pc);
		for (uint32_t j = 0; j < c->ntargets; j++)
			fprintf(out, "%s%s", j ? ", " : "", m->funcs[c->targets[j]].name);
		fprintf(out, ";\n");
		return;
	}
	fprintf(out, "$P%u: .callprototype ", pc);
	for (uint32_t j = 0; j < c->nret; j++)
		fprintf(out, "%s.param .align 8 .b8 _[%u]%s", j ? ", " : "(", c->ret_size[j], j + 1 == c->nret ? ") " : "");
	fprintf(out, "_ (");
	for (uint32_t j = 0; j < c->narg; j++)
		fprintf(out, "%s.param .align 8 .b8 _[%u]", j ? ", " : "", c->arg_size[j]);
	fprintf(out, ");\n");
}

static int put_func(FILE *out, sc__emit_t *e, uint32_t fi)
{
	const sc_module_t *m = e->m;
	const sc_func_t *f = &m->funcs[fi];
	const sc_insn_t *code = m->code_ptx ? m->code_ptx : m->code;
	e->f = f;
	if (f->is_entry) {
		fprintf(out, ".visible .entry %s", f->name);
		put_params(out, e, fi, SC_SYM_KPARAM);
	} else {
		fprintf(out, ".func ");
		put_params(out, e, fi, SC_SYM_RET);
		fprintf(out, " %s", f->name);
		put_params(out, e, fi, SC_SYM_PARAM);
	}
	fprintf(out, "\n");
	put_dims(out, ".maxntid", f->maxntid);
	put_dims(out, ".reqntid", f->reqntid);
	if (f->minnctapersm)
		fprintf(out, ".minnctapersm %u\n", f->minnctapersm);
	if (f->smem_warp) /* Penny's shared checkpoints (pennyc.c): the loader's pragma */
		fprintf(out, ".pragma \"flipsim smem_per_warp %u\";\n", f->smem_warp);
	fprintf(out, "{\n");
	/* the last of a stack frame's is its frame pointer (ptx_parse.c,
	 * stack_frames): the words using it are written as the source had them */
	for (uint32_t i = 0; i < f->ndecl - (f->stack_frame ? 1 : 0); i++) {
		char name[64];
		decl_name(f, &f->decl[i], name, sizeof name);
		fprintf(out, "\t.reg .%s %s", sc__type_names[f->decl[i].type], name);
		if (f->decl[i].count)
			fprintf(out, "<%u>", f->decl[i].count);
		fprintf(out, ";\n");
	}
	for (uint32_t i = 0; i < m->nsyms; i++)
		if (m->syms[i].owner == (int32_t)fi && (m->syms[i].role == SC_SYM_VAR || m->syms[i].role == SC_SYM_CALL) &&
		    m->syms[i].space != SC_SP_NONE)
			put_var(out, e, i, "\t", ";\n");
	bool *label = calloc(f->end_pc - f->entry_pc + 1, 1);
	if (!label)
		return SC_ENOMEM;
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++)
		if (sc__insn_jumps(&code[pc]) && SC_BR_TARGET(code[pc].imm) >= f->entry_pc &&
		    SC_BR_TARGET(code[pc].imm) < f->end_pc)
			label[SC_BR_TARGET(code[pc].imm) - f->entry_pc] = true;
	char text[512];
	for (uint32_t pc = f->entry_pc; pc < f->end_pc; pc++) {
		if (label[pc - f->entry_pc])
			fprintf(out, "$L%u:\n", pc);
		put_proto(out, m, &code[pc], pc);
		sc__disasm_emit(e, pc, text, sizeof text);
		fprintf(out, "\t%s;\n", text);
	}
	free(label);
	fprintf(out, "}\n\n");
	return 0;
}

int sc_module_emit_ptx(const sc_module_t *m, FILE *out)
{
	if (!m || !out)
		return SC_EINVAL;
	sc__emit_t e;
	bool *reach = NULL, *done = NULL;
	int rc = prepare(&e, m);
	if (rc)
		goto out;
	rc = SC_ENOMEM;
	if (!(reach = sc__call_closure(m)) || !(done = calloc(m->nfuncs + 1, 1)))
		goto out;
	fprintf(out, "// %s as flipsim lowered it (%s register mode, %u instructions)\n"
	        ".version 7.0\n.target sm_75\n.address_size 64\n\n",
	        m->name, sc_regs_name(m->regs), m->ncode);
	/* every .func declared first when calls may recurse or go through
	 * addresses (in index order, which the reload keeps) */
	for (uint32_t i = 0; i < m->nfuncs && m->ndcalls; i++)
		if (!m->funcs[i].is_entry && m->funcs[i].entry_pc != UINT32_MAX) {
			fprintf(out, ".func ");
			put_params(out, &e, i, SC_SYM_RET);
			fprintf(out, " %s", m->funcs[i].name);
			put_params(out, &e, i, SC_SYM_PARAM);
			fprintf(out, ";\n");
		}
	for (uint32_t i = 0; i < m->nsyms; i++)
		if (m->syms[i].owner < 0 && m->syms[i].role == SC_SYM_VAR && m->syms[i].space != SC_SP_NONE)
			put_var(out, &e, i, "", ";\n");
	fprintf(out, "\n");
	/* .funcs before their callers where the call graph allows, then the
	 * kernels */
	rc = 0;
	for (bool more = true; more && !rc;) {
		more = false;
		for (uint32_t i = 0; i < m->nfuncs && !rc; i++) {
			const sc_func_t *f = &m->funcs[i];
			if (done[i] || f->is_entry || f->entry_pc == UINT32_MAX)
				continue;
			bool ready = true;
			for (uint32_t j = 0; j < m->nfuncs && ready && !m->ndcalls; j++)
				ready = !reach[(size_t)i * m->nfuncs + j] || done[j];
			if (ready) {
				rc = put_func(out, &e, i);
				done[i] = more = true;
			}
		}
	}
	for (uint32_t i = 0; i < m->nfuncs && !rc; i++)
		if (m->funcs[i].is_entry && m->funcs[i].entry_pc != UINT32_MAX)
			rc = put_func(out, &e, i);
	if (!rc && ferror(out))
		rc = SC_EIO;
out:
	release(&e);
	free(reach);
	free(done);
	return rc;
}
