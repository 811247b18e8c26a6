/* The fatbinary reader (cudart/fatbin.c) on the committed fatbinaries of
 * tests/cudart/data (assembled from rt_kernels.ptx by make-fixtures.sh):
 * stored and zstd PTX read back as the same text, the best architecture is
 * picked, and what it cannot use (another compressor, no PTX, malformed
 * containers and wrappers, -cudart static programs) is refused with the
 * reason and the rebuild command. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

#define DATA "tests/cudart/data/"

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *d = malloc((size_t)len + 1);
	cr_assert(d && fread(d, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	d[len] = 0;
	*n = (size_t)len;
	return d;
}

/* The PTX of fixture `name`: 0 and the text, or the error in err. */
static int ptx_of(const char *name, char **ptx, uint32_t *arch, char *err, size_t errsz)
{
	size_t n;
	char path[256];
	snprintf(path, sizeof path, DATA "rt_kernels.%s.fatbin", name);
	uint8_t *d = slurp(path, &n);
	size_t used = 0;
	int rc = cr_fatbin_ptx(d, n, ptx, arch, &used, err, errsz);
	if (!rc)
		cr_assert_eq(used, n, "the container takes the whole file");
	free(d);
	return rc;
}

Test(fatbin, stored_and_zstd_give_the_same_ptx)
{
	char *plain, *z, err[512];
	uint32_t arch = 0;
	cr_assert_eq(ptx_of("plain", &plain, &arch, err, sizeof err), 0, "%s", err);
	cr_assert_eq(arch, 75);
	cr_assert_eq(ptx_of("zstd", &z, NULL, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(plain, z);
	cr_assert(strstr(plain, ".visible .entry vadd(") && strstr(plain, ".target sm_75"));
	cr_assert(strstr(plain, ".global .align 4 .b8 counter[16];"));
	free(plain);
	free(z);
}

/* sm_52, sm_75 and sm_86 PTX: the highest at most 75 */
Test(fatbin, picks_the_best_architecture)
{
	char *p, err[512];
	uint32_t arch = 0;
	cr_assert_eq(ptx_of("multi", &p, &arch, err, sizeof err), 0, "%s", err);
	cr_assert_eq(arch, 75);
	cr_assert(strstr(p, ".target sm_75"), "picked: %.200s", p);
	free(p);
}

Test(fatbin, another_compressor_is_refused_naming_no_compress)
{
	char *p, err[512];
	cr_assert_eq(ptx_of("speed", &p, NULL, err, sizeof err), CR_ECOMPRESS);
	cr_assert_null(p);
	cr_assert(strstr(err, "--no-compress") && strstr(err, "nvcc -cudart shared -arch=sm_75"), "%s", err);
}

Test(fatbin, machine_code_only_is_refused_with_the_rebuild_command)
{
	char *p, err[512];
	cr_assert_eq(ptx_of("sass", &p, NULL, err, sizeof err), CR_ENOPTX);
	cr_assert(strstr(err, "no PTX") && strstr(err, CR_REBUILD), "%s", err);
}

/* One malformed copy of the zstd fixture: offset `at` set to `val` (a
 * 64-bit little-endian field when wide), or the length cut to `cut`. */
static int mangle(size_t at, uint64_t val, int wide, size_t cut, char *err, size_t errsz)
{
	size_t n;
	uint8_t *d = slurp(DATA "rt_kernels.zstd.fatbin", &n);
	if (at != SIZE_MAX)
		for (int i = 0; i < (wide ? 8 : 1); i++)
			d[at + (size_t)i] = (uint8_t)(val >> (8 * i));
	char *p = NULL;
	int rc = cr_fatbin_ptx(d, cut ? cut : n, &p, NULL, NULL, err, errsz);
	free(p);
	free(d);
	return rc;
}

Test(fatbin, malformed_containers_are_refused)
{
	char err[512];
	cr_assert_eq(mangle(0, 0x51, 0, 0, err, sizeof err), CR_EFORMAT);                   /* magic */
	cr_assert(strstr(err, "magic 0xba55ed51"), "%s", err);
	cr_assert_eq(mangle(SIZE_MAX, 0, 0, 12, err, sizeof err), CR_EFORMAT);              /* shorter than a header */
	cr_assert_eq(mangle(SIZE_MAX, 0, 0, 100, err, sizeof err), CR_EFORMAT);             /* cut: entries do not fit */
	cr_assert(strstr(err, "do not fit"), "%s", err);
	cr_assert_eq(mangle(16 + 8, 1u << 30, 1, 0, err, sizeof err), CR_EFORMAT);          /* an entry's payload */
	cr_assert(strstr(err, "entry at byte 16"), "%s", err);
	cr_assert_eq(mangle(16 + 4, 8, 0, 0, err, sizeof err), CR_EFORMAT);                 /* an entry header of 8 */
	cr_assert_eq(mangle(16 + 56, 1u << 30, 1, 0, err, sizeof err), CR_EFORMAT);         /* uncompressed size */
	cr_assert_eq(mangle(16 + 56, 100, 1, 0, err, sizeof err), CR_EFORMAT);              /* a wrong one */
	cr_assert(strstr(err, "zstd"), "%s", err);
	cr_assert_eq(mangle(16 + 80, 0xff, 0, 0, err, sizeof err), CR_EFORMAT);             /* no zstd frame */
	cr_assert_eq(mangle(16, 2, 0, 0, err, sizeof err), CR_ENOPTX);                      /* kind 2: no PTX */
	cr_assert_eq(mangle(SIZE_MAX, 0, 0, 0, err, sizeof err), 0, "%s", err);             /* the control */
}

Test(fatbin, wrappers)
{
	size_t n;
	uint8_t *d = slurp(DATA "rt_kernels.zstd.fatbin", &n);
	struct { uint32_t magic, version; const void *data; void *unused; } w = {CR_WRAPPER_MAGIC, 2, d, NULL};
	char *p, err[512];
	cr_assert_eq(cr_wrapper_ptx(&w, &p, NULL, err, sizeof err), 0, "%s", err);
	cr_assert(strstr(p, ".entry blocksum("));
	free(p);
	w.version = 3;
	cr_assert_eq(cr_wrapper_ptx(&w, &p, NULL, err, sizeof err), CR_EFORMAT);
	cr_assert(strstr(err, "version 3"), "%s", err);
	w.version = 1;
	w.magic = 1;
	cr_assert_eq(cr_wrapper_ptx(&w, &p, NULL, err, sizeof err), CR_EFORMAT);
	w.magic = CR_WRAPPER_MAGIC;
	w.data = NULL;
	cr_assert_eq(cr_wrapper_ptx(&w, &p, NULL, err, sizeof err), CR_EFORMAT);
	cr_assert_eq(cr_wrapper_ptx(NULL, &p, NULL, err, sizeof err), CR_EFORMAT);
	free(d);
}

/* ELF checks: build/tests/elf_shared and elf_static carry the zstd
 * fixture in a .nv_fatbin section, one needing libcudart.so.13 and one not
 * (the Makefile builds them from tests/cudart/data/elf_host.c). */
static const char *bin(const char *name, char *buf, size_t n)
{
	const char *f = getenv("FLIPSIM");
	cr_assert(f && *f, "FLIPSIM must name build/flipsim (make unit sets it)");
	snprintf(buf, n, "%.*s/tests/%s", (int)(strrchr(f, '/') ? strrchr(f, '/') - f : 1), strrchr(f, '/') ? f : ".",
	         name);
	return buf;
}

Test(fatbin, elf_checks)
{
	char err[1024], p[512];
	cr_elf_info_t in;
	cr_assert_eq(cr_elf_inspect(bin("elf_shared", p, sizeof p), &in, err, sizeof err), 0, "%s", err);
	cr_assert(in.has_fatbin && in.shared_cudart && in.ptx);
	cr_assert_eq(cr_elf_check(p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(cr_elf_check(bin("elf_static", p, sizeof p), err, sizeof err), CR_EFORMAT);
	cr_assert(strstr(err, "-cudart static") && strstr(err, CR_REBUILD), "%s", err);
	cr_assert_eq(cr_elf_check(bin("elf_sass", p, sizeof p), err, sizeof err), CR_ENOPTX);
	cr_assert(strstr(err, "no PTX") && strstr(err, CR_REBUILD), "%s", err);
	cr_assert_eq(cr_elf_check(bin("vadd_host", p, sizeof p), err, sizeof err), 0, "%s", err); /* no fatbinary */
	cr_assert_eq(cr_elf_inspect(bin("vadd_host", p, sizeof p), &in, err, sizeof err), 0);
	cr_assert(!in.has_fatbin && !in.shared_cudart);
	cr_assert_eq(cr_elf_check(DATA "rt_kernels.ptx", err, sizeof err), 0, "%s", err); /* not ELF */
	cr_assert_eq(cr_elf_check(DATA "no-such-file", err, sizeof err), CR_EIO);
}
