/* Module variables and kernel facts (simcore/modvar.c), what the CUDA
 * runtime's symbol and attribute calls stand on: on the CUDA runtime tests'
 * PTX (tests/cudart/data/rt_kernels.ptx), a .global and a .const variable
 * found, read and written as kernels see them, the rest not found; a
 * kernel's attributes and occupancy; device ranges. */
#include <criterion/criterion.h>
#include <string.h>

#include "simcore.h"

static sc_gpu_t *gpu;
static sc_module_t *mod;

static void setup(void)
{
	sc_gpu_config_t cfg;
	sc_options_t opt = {.regs = SC_REGS_ALLOC};
	sc_config_gtx480(&cfg);
	cr_assert_eq(sc_gpu_create(&cfg, &opt, &gpu), 0);
	cr_assert_eq(sc_module_load_file(gpu, "tests/cudart/data/rt_kernels.ptx", &mod), 0, "%s", sc_gpu_errmsg(gpu));
}

static void teardown(void) { sc_gpu_destroy(gpu); }

TestSuite(modvar, .init = setup, .fini = teardown);

Test(modvar, variables)
{
	sc_var_info_t g, c, x;
	cr_assert_eq(sc_module_var(mod, "counter", &g), 0);
	cr_assert_eq(g.space, SC_VAR_GLOBAL);
	cr_assert_eq(g.size, 16);
	cr_assert(sc_device_range(gpu, g.addr, 16) && sc_device_range(gpu, g.addr + 12, 4));
	cr_assert(!sc_device_range(gpu, g.addr + 12, 8) && !sc_device_range(gpu, g.addr, 0));
	cr_assert(!sc_device_range(gpu, 0x1000, 4));
	cr_assert_eq(sc_module_var(mod, "scale", &c), 0);
	cr_assert_eq(c.space, SC_VAR_CONST);
	cr_assert_eq(c.size, 8);
	cr_assert_eq(sc_module_var(mod, "nope", &x), SC_ENOTFOUND);
	cr_assert_eq(sc_module_var(mod, "vadd", &x), SC_ENOTFOUND);         /* a kernel */
	cr_assert_eq(sc_module_var(mod, "vadd_param_0", &x), SC_ENOTFOUND); /* a parameter */
	cr_assert_eq(sc_module_var(mod, "_ZZ8blocksumE1s", &x), SC_ENOTFOUND); /* shared */
	cr_assert_eq(sc_module_var(NULL, "counter", &x), SC_ENOTFOUND);
}

/* what the host writes into the bank and the global variable, vadd reads */
Test(modvar, vadd_reads_what_the_host_wrote)
{
	sc_var_info_t g, c;
	float s[2] = {3.0f, 9.0f}, back[2] = {0}, a[4] = {1, 2, 3, 4}, b[4] = {1, 1, 1, 1}, out[4];
	int cnt[4] = {10, 20, 30, 40};
	int32_t n = 4;
	uint64_t da, db, dc;
	cr_assert_eq(sc_module_var(mod, "counter", &g), 0);
	cr_assert_eq(sc_module_var(mod, "scale", &c), 0);
	cr_assert_eq(sc_module_const_copy(mod, c.addr, s, sizeof s, true), 0);
	cr_assert_eq(sc_module_const_copy(mod, c.addr + 4, back, 4, false), 0);
	cr_assert_eq(back[0], 9.0f);
	cr_assert_eq(sc_module_const_copy(mod, c.addr + 4, back, 8, false), SC_EINVAL); /* past the bank */
	cr_assert_eq(sc_memcpy_htod(gpu, g.addr, cnt, sizeof cnt), 0);
	cr_assert(!sc_malloc(gpu, 16, &da) && !sc_malloc(gpu, 16, &db) && !sc_malloc(gpu, 16, &dc));
	cr_assert(!sc_memcpy_htod(gpu, da, a, 16) && !sc_memcpy_htod(gpu, db, b, 16));
	void *args[] = {&da, &db, &dc, &n};
	cr_assert_eq(sc_launch(gpu, mod, "vadd", (sc_dim3_t){1, 1, 1}, (sc_dim3_t){32, 1, 1}, 0, args), 0);
	cr_assert_eq(sc_memcpy_dtoh(gpu, out, dc, 16), 0);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(out[i], (a[i] + b[i]) * 3.0f + (float)cnt[i], "out[%d] = %g", i, out[i]);
}

Test(modvar, kernel_facts)
{
	sc_kernel_info_t k;
	sc_kernel_regs_t r;
	uint32_t ctas = 99;
	cr_assert_eq(sc_kernel_info(gpu, mod, "blocksum", &k), 0);
	cr_assert_eq(sc_kernel_regs(mod, "blocksum", &r), 0);
	cr_assert_eq(k.smem_static, 1024);
	cr_assert_eq(k.regs, r.regs);
	cr_assert_eq(k.param_bytes, 16);
	cr_assert_eq(k.max_threads, 1024);
	cr_assert_eq(k.const_bytes, 8);
	cr_assert_eq(sc_kernel_info(gpu, mod, "nope", &k), SC_ENOTFOUND);
	/* gtx480: 1536 threads per SM, 8 CTAs, 48 KiB of shared memory */
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "blocksum", 256, 0, &ctas), 0);
	cr_assert_eq(ctas, 6);
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "blocksum", 64, 0, &ctas), 0);
	cr_assert_eq(ctas, 8);
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "blocksum", 64, 15 * 1024, &ctas), 0);
	cr_assert_eq(ctas, 3, "16 KiB a CTA: 3 in 48 KiB");
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "blocksum", 64, 48 * 1024, &ctas), 0);
	cr_assert_eq(ctas, 0);
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "blocksum", 2048, 0, &ctas), 0);
	cr_assert_eq(ctas, 0);
	cr_assert_eq(sc_kernel_occupancy(gpu, mod, "nope", 64, 0, &ctas), SC_ENOTFOUND);
	cr_assert_str_eq(sc_gpu_config(gpu)->name, "gtx480");
	cr_assert_eq(sc_gpu_regs(gpu), SC_REGS_ALLOC);
}
