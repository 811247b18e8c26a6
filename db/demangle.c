/* demangle.c — kernel names as people read them. nvcc gives C++ kernels
 * Itanium-mangled names (_Z6VecAddPKfS0_Pfi); the database keeps them as
 * they are, and text tables and messages show them demangled (db_demangle).
 * The demangler is libstdc++'s __cxa_demangle, loaded at run time from the
 * C++ runtime that every Debian system has (apt links it): flipsim needs no
 * C++ toolchain to build, and without the runtime names stay mangled. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

typedef char *(*cxa_demangle_t)(const char *mangled, char *buf, size_t *n, int *status);

static cxa_demangle_t cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void load_demangler(void)
{
	/* never closed: the handle lives as long as the process */
	void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (lib)
		cxa_demangle = (cxa_demangle_t)dlsym(lib, "__cxa_demangle");
}

/* Where the parameter list of a demangled function name starts (its '('
 * outside template arguments), or NULL. "(anonymous namespace)" is a name. */
static const char *param_list(const char *s)
{
	static const char anon[] = "(anonymous namespace)";
	int depth = 0;
	for (const char *p = s; *p; p++) {
		if (!strncmp(p, anon, sizeof anon - 1)) {
			p += sizeof anon - 2;
		} else if (*p == '<') {
			depth++;
		} else if (*p == '>' && depth > 0) {
			depth--;
		} else if (*p == '(' && depth == 0) {
			return p;
		}
	}
	return NULL;
}

/* The short form of a demangled function: its qualified name with template
 * arguments, no return type, no parameters, no blank after a comma:
 * "void sort<unsigned int, 1u>(unsigned int*)" -> "sort<unsigned int,1u>". */
static void short_name(const char *full, char *buf, size_t n)
{
	const char *end = param_list(full), *start = full;
	if (!end)
		end = full + strlen(full);
	int depth = 0;
	for (const char *p = full; p < end; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth > 0)
			depth--;
		else if (*p == ' ' && depth == 0)
			start = p + 1;  /* the return type of a template function ends here */
	}
	size_t o = 0;
	for (const char *p = start; p < end && o + 1 < n; p++)
		if (!(*p == ' ' && p > start && p[-1] == ','))
			buf[o++] = *p;
	buf[o] = '\0';
}

const char *db_demangle(const char *name, bool full, char *buf, size_t n)
{
	if (!name || n == 0 || strncmp(name, "_Z", 2))
		return name;
	pthread_once(&cxa_once, load_demangler);
	if (!cxa_demangle)
		return name;
	int status = -1;
	char *d = cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !d) {
		free(d);
		return name;
	}
	if (full) {
		size_t len = strlen(d);
		if (len >= n)
			len = n - 1;
		memcpy(buf, d, len);
		buf[len] = '\0';
	} else {
		short_name(d, buf, n);
	}
	free(d);
	return buf[0] ? buf : name;
}
