/* The fatbinary reader: PTX out of what nvcc embeds in a CUDA program, and
 * the checks flipsim makes on a program's ELF file before running it.
 * Layouts as nvcc 13 writes them (read from its output; docs/DESIGN.md,
 * "CUDA programs", says how they were found). All fields little-endian.
 *
 * Wrapper (the struct nvcc's generated host code passes to __cudaRegisterFatBinary, in the
 * program's .nvFatBinSegment section):
 *   +0  u32 magic 0x466243b1   +4 u32 version (1 or 2)
 *   +8  u64 address of the fatbinary container   +16 u64 (unused here)
 * Container (in .nv_fatbin; several lie one after another, 8-aligned):
 *   +0  u32 magic 0xba55ed50   +4 u16 version 1   +6 u16 header size H
 *   +8  u64 bytes of entries after the header
 * Entry (at H, then one after another):
 *   +0  u16 kind: 1 PTX, 2 ELF (a cubin)   +2 u16 version 0x0101
 *   +4  u32 entry header size E            +8 u64 payload bytes (padded)
 *   +16 u32 compressed bytes (0: stored)   +28 u32 architecture (75: sm_75)
 *   +40 u64 flags: 0x8000 zstd, 0x2000 the other compressor (nvcc
 *           --compress-mode=speed), no bit of 0xf000: stored as is
 *   +56 u64 uncompressed bytes (compressed entries; E >= 64)
 *   payload at E: PTX text, NUL-padded, or a compressed frame. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "cudart.h"

#define KIND_PTX 1
#define FLAG_ZSTD 0x8000u
#define FLAG_COMPRESS_MASK 0xf000u
#define MAX_PTX (256u << 20) /* a decompressed PTX text larger than this is refused */

const char *cr_strerror(int err)
{
	switch (err) {
	case 0: return "success";
#define X(name, code, text) \
	case code: return text;
		CR_ERR_LIST(X)
#undef X
	default: return "unknown error";
	}
}

static int fail(char *err, size_t errsz, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return code;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* One PTX entry's text, decompressed, into *out. */
static int entry_text(const uint8_t *e, uint32_t ehs, const uint8_t *payload, uint64_t psz, char **out, char *err,
                      size_t errsz)
{
	uint64_t flags = rd64(e + 40);
	uint32_t csize = rd32(e + 16);
	if ((flags & FLAG_COMPRESS_MASK) && (flags & FLAG_COMPRESS_MASK) != FLAG_ZSTD)
		return fail(err, errsz, CR_ECOMPRESS,
		            "its PTX is compressed with a method flipsim does not read (fatbinary flags 0x%llx; nvcc "
		            "--compress-mode=speed does that); rebuild with nvcc's default compression or "
		            "without any: %s --no-compress",
		            (unsigned long long)flags, CR_REBUILD);
	if (!(flags & FLAG_ZSTD)) { /* stored: the text up to its first NUL */
		const uint8_t *nul = memchr(payload, 0, psz);
		size_t n = nul ? (size_t)(nul - payload) : (size_t)psz;
		if (!(*out = malloc(n + 1)))
			return CR_ENOMEM;
		memcpy(*out, payload, n);
		(*out)[n] = 0;
		return 0;
	}
	if (ehs < 64)
		return fail(err, errsz, CR_EFORMAT, "a compressed PTX entry's header has %u bytes, expected 64 or more", ehs);
	uint64_t usize = rd64(e + 56);
	if (csize == 0 || csize > psz)
		return fail(err, errsz, CR_EFORMAT, "a compressed PTX entry says %u compressed bytes in a payload of %llu",
		            csize, (unsigned long long)psz);
	if (usize == 0 || usize > MAX_PTX)
		return fail(err, errsz, CR_EFORMAT, "a compressed PTX entry says %llu bytes uncompressed, expected 1..%u",
		            (unsigned long long)usize, MAX_PTX);
	char *t = malloc(usize + 1);
	if (!t)
		return CR_ENOMEM;
	size_t got = ZSTD_decompress(t, usize, payload, csize);
	if (ZSTD_isError(got) || got != usize) {
		free(t);
		return fail(err, errsz, CR_EFORMAT, "the PTX entry's zstd frame does not decompress to its %llu bytes: %s",
		            (unsigned long long)usize, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
	}
	t[usize] = 0;
	*out = t;
	return 0;
}

/* Whether PTX of architecture a is a better pick than b for CR_ARCH. */
static int better(uint32_t a, uint32_t b)
{
	if ((a <= CR_ARCH) != (b <= CR_ARCH))
		return a <= CR_ARCH;
	return a <= CR_ARCH ? a > b : a < b;
}

int cr_fatbin_ptx(const void *data, size_t avail, char **ptx, uint32_t *arch, size_t *used, char *err, size_t errsz)
{
	const uint8_t *d = data;
	*ptx = NULL;
	if (avail < 16)
		return fail(err, errsz, CR_EFORMAT, "%zu bytes, too short for a fatbinary header (16)", avail);
	if (rd32(d) != CR_FATBIN_MAGIC)
		return fail(err, errsz, CR_EFORMAT, "magic 0x%08x, expected 0x%08x", rd32(d), CR_FATBIN_MAGIC);
	uint16_t hs = rd16(d + 6);
	uint64_t size = rd64(d + 8);
	if (hs < 16 || size > avail || hs > avail - size)
		return fail(err, errsz, CR_EFORMAT, "header of %u bytes and %llu bytes of entries do not fit in %zu", hs,
		            (unsigned long long)size, avail);
	const uint8_t *best = NULL;
	uint32_t best_arch = 0;
	for (uint64_t off = hs; off < hs + size;) {
		if (hs + size - off < 16)
			return fail(err, errsz, CR_EFORMAT, "entry at byte %llu: truncated header", (unsigned long long)off);
		const uint8_t *e = d + off;
		uint32_t ehs = rd32(e + 4);
		uint64_t psz = rd64(e + 8);
		if (ehs < 32 || ehs > hs + size - off || psz > hs + size - off - ehs)
			return fail(err, errsz, CR_EFORMAT,
			            "entry at byte %llu: header of %u bytes and payload of %llu do not fit in the fatbinary",
			            (unsigned long long)off, ehs, (unsigned long long)psz);
		if (rd16(e) == KIND_PTX && ehs >= 48 && (!best || better(rd32(e + 28), best_arch))) {
			best = e;
			best_arch = rd32(e + 28);
		}
		off += ehs + psz;
	}
	if (used)
		*used = hs + size;
	if (!best)
		return fail(err, errsz, CR_ENOPTX, "the fatbinary holds no PTX (only machine code: built for a real "
		            "architecture alone, or with -rdc=true); rebuild with %s",
		            CR_REBUILD);
	if (arch)
		*arch = best_arch;
	return entry_text(best, rd32(best + 4), best + rd32(best + 4), rd64(best + 8), ptx, err, errsz);
}

int cr_wrapper_ptx(const void *wrapper, char **ptx, uint32_t *arch, char *err, size_t errsz)
{
	const uint8_t *w = wrapper;
	*ptx = NULL;
	if (!w)
		return fail(err, errsz, CR_EFORMAT, "no fatbinary wrapper");
	if (rd32(w) != CR_WRAPPER_MAGIC)
		return fail(err, errsz, CR_EFORMAT, "wrapper magic 0x%08x, expected 0x%08x", rd32(w), CR_WRAPPER_MAGIC);
	uint32_t v = rd32(w + 4);
	if (v != 1 && v != 2)
		return fail(err, errsz, CR_EFORMAT, "wrapper version %u, expected 1 or 2", v);
	const void *data = (const void *)(uintptr_t)rd64(w + 8);
	if (!data)
		return fail(err, errsz, CR_EFORMAT, "the wrapper points to no fatbinary");
	return cr_fatbin_ptx(data, SIZE_MAX, ptx, arch, NULL, err, errsz);
}

/* ---- ELF files ---- */

typedef struct elf {
	const uint8_t *d;
	size_t n;
	uint64_t shoff;
	uint16_t shentsize, shnum;
} elf_t;

/* Section i's header, or NULL when it lies outside the file. */
static const uint8_t *shdr(const elf_t *f, uint32_t i)
{
	uint64_t at = f->shoff + (uint64_t)i * f->shentsize;
	return i < f->shnum && at + 64 <= f->n ? f->d + at : NULL;
}

/* Section s's bytes, or NULL when they lie outside the file. */
static const uint8_t *sbytes(const elf_t *f, const uint8_t *s, uint64_t *size)
{
	uint64_t off = rd64(s + 24);
	*size = rd64(s + 32);
	if (rd32(s + 4) == 8 /* SHT_NOBITS */ || off > f->n || *size > f->n - off)
		return NULL;
	return f->d + off;
}

/* Whether the dynamic section dyn (string table strs) needs libcudart.so.13. */
static int needs_cudart(const uint8_t *dyn, uint64_t dsz, const uint8_t *strs, uint64_t ssz)
{
	for (uint64_t o = 0; o + 16 <= dsz; o += 16) {
		uint64_t tag = rd64(dyn + o), val = rd64(dyn + o + 8);
		if (tag == 0)
			break;
		if (tag == 1 /* DT_NEEDED */ && val < ssz && memchr(strs + val, 0, ssz - val) &&
		    !strcmp((const char *)strs + val, "libcudart.so.13"))
			return 1;
	}
	return 0;
}

/* Whether any container of the .nv_fatbin section's bytes carries PTX. */
static int section_ptx(const uint8_t *s, uint64_t n, char *err, size_t errsz)
{
	int any = 0;
	for (uint64_t off = 0; off < n;) {
		if (rd32(s + off) == 0 && n - off >= 4) { /* padding between containers */
			off += 4;
			continue;
		}
		char *ptx = NULL;
		size_t used = 0;
		int rc = cr_fatbin_ptx(s + off, (size_t)(n - off), &ptx, NULL, &used, err, errsz);
		free(ptx);
		if (rc == 0)
			any = 1;
		else if (rc == CR_EFORMAT)
			return rc;
		else if (rc == CR_ECOMPRESS || rc == CR_ENOMEM)
			return rc;
		off += used;
	}
	return any;
}

static int inspect(const elf_t *f, cr_elf_info_t *out, char *err, size_t errsz)
{
	const uint8_t *names = shdr(f, rd16(f->d + 62)); /* e_shstrndx */
	uint64_t nsz = 0;
	const uint8_t *ntab = names ? sbytes(f, names, &nsz) : NULL;
	for (uint32_t i = 0; i < f->shnum; i++) {
		const uint8_t *s = shdr(f, i);
		if (!s)
			return fail(err, errsz, CR_EFORMAT, "section header %u lies outside the file", i);
		uint32_t type = rd32(s + 4), name = rd32(s);
		uint64_t size;
		const uint8_t *b = sbytes(f, s, &size);
		if (type == 6 /* SHT_DYNAMIC */ && b) {
			const uint8_t *strs = shdr(f, rd32(s + 40)); /* sh_link */
			uint64_t ssz;
			const uint8_t *sb = strs ? sbytes(f, strs, &ssz) : NULL;
			if (sb && needs_cudart(b, size, sb, ssz))
				out->shared_cudart = 1;
		}
		if (ntab && name < nsz && memchr(ntab + name, 0, nsz - name) &&
		    !strcmp((const char *)ntab + name, ".nv_fatbin") && b) {
			out->has_fatbin = 1;
			int rc = section_ptx(b, size, err, errsz);
			if (rc < 0)
				return rc;
			out->ptx = rc;
		}
	}
	return 0;
}

int cr_elf_inspect(const char *path, cr_elf_info_t *out, char *err, size_t errsz)
{
	*out = (cr_elf_info_t){0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return fail(err, errsz, CR_EIO, "%s: %s", path, strerror(e));
	}
	if (st.st_size < 64) {
		close(fd);
		return 0;
	}
	uint8_t *d = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (d == MAP_FAILED)
		return fail(err, errsz, CR_EIO, "%s: %s", path, strerror(errno));
	elf_t f = {.d = d, .n = (size_t)st.st_size, .shoff = rd64(d + 40), .shentsize = rd16(d + 58),
	           .shnum = rd16(d + 60)};
	int rc = 0;
	if (!memcmp(d, "\177ELF", 4) && d[4] == 2 /* 64-bit */ && d[5] == 1 /* little-endian */) {
		if (f.shentsize < 64 && f.shnum)
			rc = fail(err, errsz, CR_EFORMAT, "section headers of %u bytes, expected 64", f.shentsize);
		else
			rc = inspect(&f, out, err, errsz);
	}
	munmap(d, (size_t)st.st_size);
	return rc;
}

int cr_elf_check(const char *path, char *err, size_t errsz)
{
	cr_elf_info_t in;
	char why[512];
	int rc = cr_elf_inspect(path, &in, why, sizeof why);
	if (rc)
		return fail(err, errsz, rc, "%s: %s", path, why);
	if (!in.has_fatbin)
		return 0;
	if (!in.shared_cudart)
		return fail(err, errsz, CR_EFORMAT,
		            "%s: a CUDA program linked with the CUDA runtime inside it (nvcc's default, -cudart static); "
		            "flipsim runs CUDA programs through its own libcudart.so.13: rebuild with %s",
		            path, CR_REBUILD);
	if (!in.ptx)
		return fail(err, errsz, CR_ENOPTX,
		            "%s: its fatbinary holds no PTX (only machine code: built for a real architecture alone, or "
		            "with -rdc=true); flipsim simulates PTX: rebuild with %s",
		            path, CR_REBUILD);
	return 0;
}
