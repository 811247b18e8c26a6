/* cudart — a CUDA runtime on simcore: what nvcc's generated host code and a
 * CUDA program call, implemented on the simulated GPU (build/libcudart.so.13),
 * and the reader of the fatbinaries those programs carry.
 * Design: docs/DESIGN.md ("CUDA programs"), the fatbinary's layout in fatbin.c.
 * Ownership: strings cr_* functions return in *ptx are the caller's (free). */
#ifndef CUDART_H
#define CUDART_H

#include <stddef.h>
#include <stdint.h>

/* Errors: 0 on success, a negative code otherwise. */
#define CR_ERR_LIST(X)                                                      \
	X(NOMEM, -1, "out of memory")                                           \
	X(FORMAT, -2, "not a well-formed fatbinary")                            \
	X(NOPTX, -3, "the fatbinary holds no PTX")                              \
	X(COMPRESS, -4, "the PTX is compressed with a method flipsim cannot read") \
	X(IO, -5, "cannot read the file")

enum {
#define X(name, code, text) CR_E##name = code,
	CR_ERR_LIST(X)
#undef X
};

/* A static description of a CR_E* code. */
const char *cr_strerror(int err);

/* The architecture a program is rebuilt for, and the command that says how
 * (every refusal quotes it). */
#define CR_ARCH 75
#define CR_REBUILD "nvcc -cudart shared -arch=sm_75 ..."

/* The magic numbers of nvcc's fatbinary wrapper (the struct its generated host code
 * pass to __cudaRegisterFatBinary) and of the fatbinary container. */
#define CR_WRAPPER_MAGIC 0x466243b1u
#define CR_FATBIN_MAGIC 0xba55ed50u

/* The PTX of the fatbinary container at data, of at most `avail` bytes
 * (SIZE_MAX: as long as its header says): the kind-1 (PTX) entry of the
 * highest virtual architecture <= CR_ARCH, else the lowest above it,
 * decompressed. *ptx gets the NUL-terminated text (the caller frees it),
 * *arch (may be NULL) its architecture, *used (may be NULL) the bytes the
 * container takes. Returns 0, or a CR_E* code with the reason in err. */
int cr_fatbin_ptx(const void *data, size_t avail, char **ptx, uint32_t *arch, size_t *used, char *err,
                  size_t errsz);

/* The same from nvcc's wrapper struct {magic, version, data, ...}. */
int cr_wrapper_ptx(const void *wrapper, char **ptx, uint32_t *arch, char *err, size_t errsz);

/* What a host program's ELF file says about how it was built. */
typedef struct cr_elf_info {
	int has_fatbin;      /* it has a .nv_fatbin section: a CUDA program */
	int shared_cudart;   /* it needs libcudart.so.13 (nvcc -cudart shared) */
	int ptx;             /* every container in .nv_fatbin carries PTX */
} cr_elf_info_t;

/* Reads the ELF file at path into *out. Returns 0 (for a file that is no
 * 64-bit little-endian ELF too: all fields 0), CR_EIO, or CR_EFORMAT for
 * an ELF file whose sections or fatbinaries are malformed (reason in err). */
int cr_elf_inspect(const char *path, cr_elf_info_t *out, char *err, size_t errsz);

/* Whether the program at path may run on flipsim: 0 (not a CUDA program, or
 * one built as flipsim needs), else CR_E* with one message in err that
 * names the program, says why, and gives the rebuild command. */
int cr_elf_check(const char *path, char *err, size_t errsz);

#endif
