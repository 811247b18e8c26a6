/* Module variables and kernel facts for a CUDA runtime (simcore.h, "module
 * variables and kernel facts"): what cudaMemcpyToSymbol, cudaGetSymbolAddress,
 * cudaFuncGetAttributes and the occupancy queries need of a loaded module.
 * Nothing here runs during a launch. */
#include <string.h>

#include "sc_int.h"

int sc_module_var(const sc_module_t *m, const char *name, sc_var_info_t *out)
{
	for (uint32_t i = 0; m && name && i < m->nsyms; i++) {
		const sc__sym_t *y = &m->syms[i];
		if (y->owner != -1 || y->role != SC_SYM_VAR || strcmp(y->name, name))
			continue;
		if (y->space != SC_SP_GLOBAL && y->space != SC_SP_CONST)
			continue;
		*out = (sc_var_info_t){y->space == SC_SP_CONST ? SC_VAR_CONST : SC_VAR_GLOBAL, y->addr, y->size};
		return 0;
	}
	return SC_ENOTFOUND;
}

int sc_module_const_copy(sc_module_t *m, uint64_t off, void *buf, uint64_t n, bool write)
{
	if (!m || off > m->cbank_size || n > m->cbank_size - off || (n && !buf))
		return SC_EINVAL;
	if (write)
		memcpy(m->cbank + off, buf, n);
	else
		memcpy(buf, m->cbank + off, n);
	return 0;
}

static const sc_func_t *kernel_of(const sc_module_t *m, const char *name)
{
	for (uint32_t i = 0; m && name && i < m->nfuncs; i++)
		if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, name))
			return &m->funcs[i];
	return NULL;
}

int sc_kernel_info(const sc_gpu_t *g, const sc_module_t *m, const char *kernel, sc_kernel_info_t *out)
{
	const sc_func_t *f = kernel_of(m, kernel);
	sc_kernel_regs_t kr;
	if (!f || sc_kernel_regs(m, kernel, &kr))
		return SC_ENOTFOUND;
	uint32_t mx = g->cfg.max_threads_per_cta;
	if (f->maxntid[0]) {
		uint64_t t = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) * (f->maxntid[2] ? f->maxntid[2] : 1);
		mx = t < mx ? (uint32_t)t : mx;
	}
	*out = (sc_kernel_info_t){.regs = kr.regs, .smem_static = f->smem_static, .local_bytes = f->local_total,
	                          .const_bytes = m->cbank_size, .param_bytes = f->param_bytes, .max_threads = mx};
	return 0;
}

int sc_kernel_occupancy(const sc_gpu_t *g, const sc_module_t *m, const char *kernel, uint32_t threads,
                        uint32_t dyn_smem, uint32_t *ctas)
{
	const sc_func_t *f = kernel_of(m, kernel);
	sc_kernel_regs_t kr;
	if (!f || sc_kernel_regs(m, kernel, &kr))
		return SC_ENOTFOUND;
	/* as a launch sizes it (gpu.c): dynamic shared memory after the static, aligned */
	uint64_t st = f->smem_static;
	if (dyn_smem)
		st = (st + f->dyn_smem_align - 1) / f->dyn_smem_align * f->dyn_smem_align + dyn_smem;
	st = (st + 15) / 16 * 16;
	const char *lim;
	uint32_t nwarps = (threads + 31) / 32;
	if (!threads || threads > g->cfg.max_threads_per_cta || st > g->cfg.max_smem_per_cta)
		*ctas = 0;
	else
		*ctas = sc__occupancy(&g->cfg, nwarps, kr.regs, (uint32_t)st, &lim);
	return 0;
}

const sc_gpu_config_t *sc_gpu_config(const sc_gpu_t *g) { return &g->cfg; }

sc_regs_t sc_gpu_regs(const sc_gpu_t *g) { return g->opt.regs; }

bool sc_device_range(sc_gpu_t *g, uint64_t addr, uint64_t bytes)
{
	return bytes && sc__gmem_find(&g->gmem, addr, bytes) != NULL;
}
