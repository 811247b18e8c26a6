/* elf_host — a program whose .nv_fatbin section holds the fatbinary BLOB
 * (a committed fixture), as nvcc's programs carry theirs: linked with
 * build/libcudart.so.13 it looks like one built with -cudart shared,
 * without it like one built with -cudart static. The ELF checks of
 * tests/cudart/test_fatbin.c read it; it is never run. */
__asm__(".section .nv_fatbin, \"a\"\n"
        ".balign 8\n"
        ".incbin \"" BLOB "\"\n"
        ".previous\n");

int main(void)
{
	return 0;
}
