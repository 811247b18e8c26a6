/* The CUDA runtime (cudart/runtime.c, build/libcudart.so.13) through
 * build/tests/cuda_host, a CUDA program made without nvcc that registers the
 * committed fatbinaries as nvcc's generated host code does: every entry point's case, run
 * directly (FLIPSIM_GPU, FLIPSIM_REGS) and under flipsim (exec, profile and
 * a campaign), plain and zstd alike, deterministic. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DATA "tests/cudart/data/"

typedef struct res {
	int status;      /* exit status, -1 when killed */
	char out[8192], err[8192];
} res_t;

/* build/ (where flipsim lies) + "/" + name into buf. */
static const char *built(const char *name, char *buf, size_t n)
{
	const char *f = getenv("FLIPSIM");
	cr_assert(f && *f, "FLIPSIM must name build/flipsim (make unit sets it)");
	const char *slash = strrchr(f, '/');
	snprintf(buf, n, "%.*s/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", name);
	return buf;
}

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = f ? fread(buf, 1, n - 1, f) : 0;
	buf[k] = 0;
	if (f)
		fclose(f);
}

/* Runs `env CMD...` (a shell command line) capturing stdout and stderr. */
static void run(res_t *r, const char *fmt, ...)
{
	char cmd[2048], dir[] = "/tmp/flipsim-cudart-XXXXXX", o[64], e[64], line[2300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	cr_assert(mkdtemp(dir));
	snprintf(o, sizeof o, "%s/out", dir);
	snprintf(e, sizeof e, "%s/err", dir);
	snprintf(line, sizeof line, "{ %s; } >%s 2>%s", cmd, o, e);
	int st = system(line);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	slurp(o, r->out, sizeof r->out);
	slurp(e, r->err, sizeof r->err);
	unlink(o);
	unlink(e);
	rmdir(dir);
}

/* cuda_host FATBIN CASE run directly, with env assignments before it. */
static void host(res_t *r, const char *env, const char *fatbin, const char *cs)
{
	char h[512];
	run(r, "env %s %s " DATA "rt_kernels.%s.fatbin %s", env, built("tests/cuda_host", h, sizeof h), fatbin, cs);
}

static void host_ok(res_t *r, const char *fatbin, const char *cs)
{
	host(r, "", fatbin, cs);
	cr_assert_eq(r->status, 0, "cuda_host %s %s: exit %d\n%s%s", fatbin, cs, r->status, r->out, r->err);
}

/* registration, push/pop/get-kernel/launch, symbols: the same output from
 * stored and zstd PTX */
Test(cudart, vadd_plain_and_zstd)
{
	res_t a, b;
	host_ok(&a, "plain", "vadd");
	host_ok(&b, "zstd", "vadd");
	cr_assert(strstr(a.out, "vadd c fnv1a "), "%s", a.out);
	cr_assert_str_eq(a.out, b.out);
}

Test(cudart, memory) { res_t r; host_ok(&r, "zstd", "memory"); cr_assert_str_eq(r.out, "memory ok\n"); }

/* arrays, 2-D/3-D copies, texture objects over arrays, linear and pitched
 * memory, surface objects: tex_host registers tex_kernels' fatbinary */
Test(cudart, textures_and_surfaces)
{
	res_t r;
	char h[512];
	run(&r, "%s " DATA "tex_kernels.zstd.fatbin", built("tests/tex_host", h, sizeof h));
	cr_assert_eq(r.status, 0, "tex_host: exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_str_eq(r.out, "textures ok\n");
}

Test(cudart, per_thread_stream_names) { res_t r; host_ok(&r, "zstd", "ptds"); cr_assert_str_eq(r.out, "ptds ok\n"); }

/* (make asan: the case says the mapping is refused, README "Bring your own CUDA program") */
Test(cudart, managed)
{
	res_t r;
	host_ok(&r, "zstd", "managed");
	cr_assert(!strcmp(r.out, "managed ok\n") || !strcmp(r.out, "managed: refused under AddressSanitizer\n"), "%s",
	          r.out);
}

/* device properties describe the preset in use; attributes and occupancy */
Test(cudart, device_follows_the_preset)
{
	res_t r;
	host_ok(&r, "zstd", "device");
	cr_assert(strstr(r.out, "device flipsim gtx480 sms 15 warp 32 smem/block 49152 blocks/sm 8\n"), "%s", r.out);
	/* 1536 threads per SM hold 6 blocks of 256 */
	cr_assert(strstr(r.out, "blocksum smem 1024 max threads 1024 occupancy(256) 6\n"), "%s", r.out);
	host(&r, "FLIPSIM_GPU=v100 FLIPSIM_REGS=alloc", "zstd", "device");
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert(strstr(r.out, "device flipsim v100 sms 80 warp 32"), "%s", r.out);
	cr_assert(strstr(r.out, "occupancy(256) 8\n"), "%s", r.out);
	host(&r, "FLIPSIM_GPU=nope", "zstd", "device");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "flipsim: cudart: FLIPSIM_GPU: unknown GPU 'nope'"), "%s", r.err);
	host(&r, "FLIPSIM_REGS=fast", "zstd", "device");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "FLIPSIM_REGS: expected ptx, alloc or unalloc, got 'fast'"), "%s", r.err);
}

/* streams and events in order; elapsed time is simulated, so the same each run */
Test(cudart, events_are_deterministic)
{
	res_t a, b;
	host_ok(&a, "zstd", "events");
	host_ok(&b, "zstd", "events");
	cr_assert_str_eq(a.out, b.out);
	float ms = 0;
	const char *e = strstr(a.out, "elapsed ");
	cr_assert(e && sscanf(e, "elapsed %f ms", &ms) == 1 && ms > 0, "%s", a.out);
}

Test(cudart, due_is_sticky_until_reset)
{
	res_t r;
	host_ok(&r, "zstd", "due");
	cr_assert_str_eq(r.out, "launch cudaErrorIllegalAddress (700)\nan illegal memory access was encountered\n");
}

Test(cudart, errors)
{
	res_t r;
	host_ok(&r, "zstd", "errors");
	cr_assert_str_eq(r.out, "cudaSuccess / no error / cudaErrorInvalidDevice / unrecognized error code\n");
}

Test(cudart, an_unsupported_entry_point_names_itself)
{
	res_t r;
	host(&r, "", "zstd", "unsupported");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "flipsim: cudart: cudaGraphCreate is not supported"), "%s", r.err);
}

Test(cudart, unusable_fatbinaries_are_refused_at_registration)
{
	res_t r;
	host(&r, "", "speed", "vadd");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "--no-compress"), "%s", r.err);
	host(&r, "", "sass", "vadd");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "no PTX") && strstr(r.err, "nvcc -cudart shared -arch=sm_75"), "%s", r.err);
}

/* ---- under flipsim ---- */

Test(cudart, flipsim_exec_passes_output_through)
{
	res_t d, x, s;
	char f[512], h[512];
	host_ok(&d, "zstd", "vadd");
	run(&x, "%s exec --gpu v100 %s " DATA "rt_kernels.zstd.fatbin vadd", built("flipsim", f, sizeof f),
	    built("tests/cuda_host", h, sizeof h));
	cr_assert_eq(x.status, 0, "%s%s", x.out, x.err);
	cr_assert_str_eq(x.out, d.out);
	/* --stats: one more line, the run's statistics */
	run(&s, "%s exec --stats %s " DATA "rt_kernels.plain.fatbin events", f, h);
	cr_assert_eq(s.status, 0, "%s%s", s.out, s.err);
	cr_assert(strstr(s.out, "{\"program\":") && strstr(s.out, "\"launches\":[{\"kernel\":\"vadd\""), "%s", s.out);
	/* the program's device is the job's GPU: v100 here */
	run(&x, "%s exec --gpu v100 %s " DATA "rt_kernels.zstd.fatbin device", f, h);
	cr_assert(strstr(x.out, "device flipsim v100 sms 80"), "%s", x.out);
	/* a DUE: exit 3, the reason on stderr */
	run(&x, "%s exec %s " DATA "rt_kernels.zstd.fatbin due", f, h);
	cr_assert_eq(x.status, 3, "%s%s", x.out, x.err);
	cr_assert(strstr(x.err, "DUE (illegal_address)"), "%s", x.err);
}

Test(cudart, flipsim_refuses_static_and_ptx_less_programs)
{
	res_t x;
	char f[512], h[512];
	run(&x, "%s exec %s", built("flipsim", f, sizeof f), built("tests/elf_static", h, sizeof h));
	cr_assert_eq(x.status, 2);
	cr_assert(strstr(x.err, "-cudart static") && strstr(x.err, "nvcc -cudart shared -arch=sm_75"), "%s", x.err);
	run(&x, "%s profile %s", f, built("tests/elf_sass", h, sizeof h));
	cr_assert_eq(x.status, 2);
	cr_assert(strstr(x.err, "no PTX"), "%s", x.err);
}

Test(cudart, profile_and_a_campaign)
{
	res_t p, c;
	char f[512], h[512], dir[] = "/tmp/flipsim-cudart-camp-XXXXXX", json[128], db[128];
	run(&p, "%s profile %s " DATA "rt_kernels.zstd.fatbin events", built("flipsim", f, sizeof f),
	    built("tests/cuda_host", h, sizeof h));
	cr_assert_eq(p.status, 0, "%s%s", p.out, p.err);
	cr_assert(strstr(p.out, "vadd ") && strstr(p.out, "exit status 0"), "%s", p.out);
	cr_assert(mkdtemp(dir));
	snprintf(json, sizeof json, "%s/c.json", dir);
	snprintf(db, sizeof db, "%s/c.db", dir);
	char *cwd = getcwd(NULL, 0), *prog = realpath(h, NULL);
	FILE *j = fopen(json, "w");
	cr_assert(j && cwd && prog);
	fprintf(j, "{\"name\": \"cuda-host\", \"workload\": {\"exec\": [\"%s\", \"" DATA "rt_kernels.zstd.fatbin\", "
	        "\"events\"], \"cwd\": \"%s\"}, \"target\": \"regfile\", \"injections\": 60, \"seed\": 3}\n", prog, cwd);
	fclose(j);
	run(&c, "%s run %s --db %s -j 2 && %s report %s --csv", f, json, db, f, db);
	cr_assert_eq(c.status, 0, "%s%s", c.out, c.err);
	/* the avf table's row: 60 experiments, each with an outcome */
	cr_assert(strstr(c.out, ",cuda-host,regfile,all,,,60,"), "%s", c.out);
	run(&c, "rm -rf %s", dir);
	free(cwd);
	free(prog);
}
