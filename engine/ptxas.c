/* The register counts NVIDIA's ptxas reports for a PTX file (`ptxas -v`),
 * which `flipsim profile --regs alloc` prints beside ours. ptxas is
 * optional: found through FLIPSIM_PTXAS, PATH or /usr/local/cuda/bin, and
 * when it is missing or fails the counts are simply unknown ("n/a"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng_int.h"

const char *eng_ptxas_find(char *buf, size_t n)
{
	const char *env = getenv("FLIPSIM_PTXAS");
	if (env) {
		if (!*env || access(env, X_OK) != 0)
			return NULL;
		snprintf(buf, n, "%s", env);
		return buf;
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		if (len > 0 && (size_t)snprintf(buf, n, "%.*s/ptxas", (int)len, path) < n && access(buf, X_OK) == 0)
			return buf;
		path = end ? end + 1 : NULL;
	}
	snprintf(buf, n, "/usr/local/cuda/bin/ptxas");
	return access(buf, X_OK) == 0 ? buf : NULL;
}

/* The first sm_NN the file's .target names, in arch ("-arch=sm_NN"). */
static void target_arch(const char *ptx, char *arch, size_t n)
{
	snprintf(arch, n, "-arch=sm_75");
	FILE *f = fopen(ptx, "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *t = strstr(line, ".target");
		char *sm = t ? strstr(t, "sm_") : NULL;
		if (!sm)
			continue;
		size_t k = 3;
		while (sm[k] >= '0' && sm[k] <= '9')
			k++;
		while (sm[k] >= 'a' && sm[k] <= 'z') /* sm_90a */
			k++;
		if (k > 3)
			snprintf(arch, n, "-arch=%.*s", (int)k, sm);
		break;
	}
	fclose(f);
}

void eng_ptxas_free(eng_ptxas_t *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		free(p->kernel[i]);
	free(p->kernel);
	free(p->regs);
	memset(p, 0, sizeof *p);
}

static int add(eng_ptxas_t *p, const char *name, size_t len, uint32_t regs)
{
	char **nk = realloc(p->kernel, (p->n + 1) * sizeof *nk);
	if (!nk)
		return -1;
	p->kernel = nk;
	uint32_t *nr = realloc(p->regs, (p->n + 1) * sizeof *nr);
	if (!nr)
		return -1;
	p->regs = nr;
	if (!(p->kernel[p->n] = strndup(name, len)))
		return -1;
	p->regs[p->n++] = regs;
	return 0;
}

/* ptxas -v's output: runs it on ptx for arch, its stdout and stderr
 * together in a new NUL-terminated buffer. NULL when it cannot run, fails
 * or memory runs out. */
static char *ptxas_output(const char *ptxas, const char *ptx, const char *arch)
{
	int fd[2];
	if (pipe(fd) != 0)
		return NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execl(ptxas, ptxas, "-v", arch, ptx, "-o", "/dev/null", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 16384;
			char *nt = realloc(text, cap);
			if (!nt)
				break;
			text = nt;
		}
		ssize_t r = read(fd[0], text + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	if (!text || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(text);
		return NULL;
	}
	text[len] = 0;
	return text;
}

int eng_ptxas_run(const char *ptxas, const char *ptx, eng_ptxas_t *out)
{
	memset(out, 0, sizeof *out);
	char arch[32];
	target_arch(ptx, arch, sizeof arch);
	char *text = ptxas_output(ptxas, ptx, arch);
	if (!text)
		return -1;
	/* "Compiling entry function 'K' for 'sm_75'" ... "Used N registers" */
	const char *kern = NULL;
	size_t klen = 0;
	int rc = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
		char *e = strstr(line, "Compiling entry function '");
		if (e) {
			kern = e + strlen("Compiling entry function '");
			const char *q = strchr(kern, '\'');
			klen = q ? (size_t)(q - kern) : 0;
			if (!q)
				kern = NULL;
			continue;
		}
		char *u = strstr(line, "Used ");
		unsigned regs;
		if (u && kern && sscanf(u, "Used %u registers", &regs) == 1) {
			rc = add(out, kern, klen, regs);
			kern = NULL;
		}
	}
	free(text);
	if (rc)
		eng_ptxas_free(out);
	return rc;
}

int eng_ptxas_regs(const eng_ptxas_t *p, const char *kernel)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (!strcmp(p->kernel[i], kernel))
			return (int)p->regs[i];
	return -1;
}
