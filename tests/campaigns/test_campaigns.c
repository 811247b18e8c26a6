/* Tests of campaigns/: GPU presets and files, workload parsing (every init
 * kind, arguments), a table of bad inputs in tests/campaigns/data/ with the
 * message fragments each must produce, and workloads run on the simulator
 * (outputs, DUE as a result, bad input as an error). Run from the repository
 * root; links with libsimcore. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "../engine/runs.h"
#include "campaigns.h"

#define DATA "tests/campaigns/data/"

/* ---- GPU configurations ------------------------------------------------- */

/* Field by field, from the one list of fields (SC_CONFIG_FIELDS). */
static void expect_same_config(const sc_gpu_config_t *a, const sc_gpu_config_t *b)
{
#define SAME_NAME(f) cr_expect_str_eq(a->f, b->f);
#define SAME_U32(f) cr_expect_eq(a->f, b->f, #f ": %u != %u", a->f, b->f);
#define SAME_SCHED(f) cr_expect_eq(a->f, b->f, #f);
#define SAME_IBINV(f) cr_expect_eq(a->f, b->f, #f);
#define SAME_LAT(f)                                                                         \
	for (int i = 0; i < SC_LAT__COUNT; i++)                                                 \
		cr_expect_eq(a->f[i], b->f[i], #f " class %d: %u != %u", i, a->f[i], b->f[i]);
#define SAME_MHZ(f) cr_expect_eq(a->f, b->f, #f);
#define X(kind, field, lo, hi, gtx480) SAME_##kind(field)
	SC_CONFIG_FIELDS(X)
#undef X
}

Test(gpu, builtin_gtx480_is_gufi_table2)
{
	sc_gpu_config_t c;
	char msg[256];
	sc_config_gtx480(&c);
	cr_assert_eq(sc_config_check(&c, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(c.num_sms, 15);
	cr_expect_eq(c.warp_size, 32);
	cr_expect_eq(c.max_threads_per_sm, 1536);
	cr_expect_eq(c.max_ctas_per_sm, 8);
	cr_expect_eq(c.regs_per_sm, 32768);
	cr_expect_eq(c.smem_per_sm, 48 * 1024);
	cr_expect_eq(c.max_warps_per_sm, 48);
	cr_expect_eq(c.ib_entries, 2);
	cr_expect_eq(c.clock_mhz, 1401.0);
}

Test(gpu, every_preset_loads_and_passes_check)
{
	const char *const *names = camp_gpu_names();
	int n = 0;
	for (; names[n]; n++) {
		sc_gpu_config_t c;
		char err[512], msg[256];
		cr_assert_eq(camp_gpu_load(names[n], &c, err, sizeof err), 0, "%s: %s", names[n], err);
		cr_expect_eq(sc_config_check(&c, msg, sizeof msg), 0, "%s: %s", names[n], msg);
		cr_expect_str_eq(c.name, names[n]);
	}
	cr_expect_eq(n, 5);
}

Test(gpu, gtx480_preset_equals_builtin)
{
	sc_gpu_config_t builtin, preset, file;
	char err[512];
	sc_config_gtx480(&builtin);
	cr_assert_eq(camp_gpu_load("gtx480", &preset, err, sizeof err), 0, "%s", err);
	expect_same_config(&preset, &builtin);
	/* The file the preset was embedded from, loaded as a path. */
	cr_assert_eq(camp_gpu_load("campaigns/gpus/gtx480.json", &file, err, sizeof err), 0,
	             "%s", err);
	expect_same_config(&file, &builtin);
}

Test(gpu, preset_figures)
{
	sc_gpu_config_t c;
	char err[512];
	cr_assert_eq(camp_gpu_load("tesla_c2050", &c, err, sizeof err), 0, "%s", err);
	cr_expect_eq(c.num_sms, 14);
	cr_assert_eq(camp_gpu_load("quadro_fx5800", &c, err, sizeof err), 0, "%s", err);
	cr_expect(c.num_sms == 30 && c.max_threads_per_sm == 1024 && c.max_ctas_per_sm == 8 &&
	          c.regs_per_sm == 16384 && c.smem_per_sm == 16384 && c.max_warps_per_sm == 32);
	cr_assert_eq(camp_gpu_load("v100", &c, err, sizeof err), 0, "%s", err);
	cr_expect(c.num_sms == 80 && c.max_threads_per_sm == 2048 && c.max_ctas_per_sm == 32 &&
	          c.regs_per_sm == 65536 && c.smem_per_sm == 96 * 1024 &&
	          c.max_warps_per_sm == 64 && c.schedulers_per_sm == 4);
	cr_assert_eq(camp_gpu_load("h100", &c, err, sizeof err), 0, "%s", err);
	cr_expect(c.num_sms == 132 && c.smem_per_sm == 228 * 1024 &&
	          c.max_smem_per_cta == 227 * 1024 && c.schedulers_per_sm == 4);
}

Test(gpu, unknown_name_lists_presets)
{
	sc_gpu_config_t c;
	char err[512];
	cr_assert_eq(camp_gpu_load("gtx999", &c, err, sizeof err), CAMP_EINPUT);
	cr_expect(strncmp(err, "unknown GPU 'gtx999' (known: ", 29) == 0, "%s", err);
	for (const char *const *n = camp_gpu_names(); *n; n++)
		cr_expect(strstr(err, *n) != NULL, "%s lacks %s", err, *n);
}

Test(gpu, file_by_path)
{
	sc_gpu_config_t c;
	char err[512];
	cr_assert_eq(camp_gpu_load(DATA "gpu_ok.json", &c, err, sizeof err), 0, "%s", err);
	cr_expect_eq(c.num_sms, 15);
}

static const struct {
	const char *file, *frag1, *frag2;
} bad_gpus[] = {
	{"gpu_syntax.json", "gpu_syntax.json:3:17:", "string or '}' expected"},
	{"gpu_unknown_key.json", "gpu_unknown_key.json: at $:", "unknown key 'tolerance'"},
	{"gpu_missing_key.json", "at $:", "missing key 'clock_mhz'"},
	{"gpu_missing_two_keys.json", "at $:", "missing key 'num_sms'"}, /* the uint32 keys first */
	{"gpu_latency_range.json", "at $.latency.fp32:", "expected an integer in 1..100000"},
	{"gpu_latency_unknown.json", "at $.latency:", "unknown key 'fp16'"},
	{"gpu_latency_missing.json", "at $.latency:", "missing key 'warp'"},
	{"gpu_warp_size.json", "at $.warp_size:", "expected 32"},
	{"gpu_ib_range.json", "at $.ib_entries:", "expected an integer in 1..16"},
	{"gpu_scheduler.json", "at $.scheduler:", "\"lrr\" or \"gto\""},
	{"gpu_ibuffer_invalid.json", "at $.ibuffer_invalid:", "expected \"refetch\" or \"skip\" or \"stall\""},
	{"gpu_warps_threads.json", "at $.max_warps_per_sm:", "max_threads_per_sm"},
	{"gpu_type.json", "at $.num_sms:", "expected an integer"},
	{"gpu_negative.json", "at $.regs_per_sm:", "expected an integer in"},
	{"gpu_l1_line.json", "at $.l1_line:", "expected a power of two, got 100"},
	{"gpu_l2_bytes.json", "at $.l2_bytes:", "power-of-two number of sets of 8 ways of 128-byte lines in each L2 slice"},
	{"gpu_tex_line.json", "at $.tex_line:", "expected at most l2_line (128), got 256"},
	{"gpu_tex_bytes.json", "at $.tex_bytes:", "expected 0 or a power-of-two number of sets of 24 ways of 128-byte lines, got 10240"},
	{"gpu_interval_unknown.json", "at $.interval:", "unknown key 'tex'"},
	{"gpu_absent.json", "gpu_absent.json: cannot read", "No such file"},
};

Test(gpu, bad_files)
{
	for (size_t i = 0; i < sizeof bad_gpus / sizeof bad_gpus[0]; i++) {
		sc_gpu_config_t c;
		char err[512], path[256];
		snprintf(path, sizeof path, DATA "%s", bad_gpus[i].file);
		cr_expect_eq(camp_gpu_load(path, &c, err, sizeof err), CAMP_EINPUT, "%s", path);
		cr_expect(strstr(err, bad_gpus[i].frag1) && strstr(err, bad_gpus[i].frag2),
		          "%s: got \"%s\", want \"%s\" and \"%s\"", path, err, bad_gpus[i].frag1,
		          bad_gpus[i].frag2);
	}
}

Test(gpu, check_rejects_each_range)
{
	sc_gpu_config_t c;
	char msg[256];
	sc_config_gtx480(&c);
	c.simt_stack_depth = 1;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "simt_stack_depth: expected an integer in 2..1024") != NULL, "%s", msg);
	sc_config_gtx480(&c);
	c.schedulers_per_sm = 9;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "schedulers_per_sm") != NULL, "%s", msg);
	sc_config_gtx480(&c);
	c.latency[SC_LAT_GLOBAL] = 100001;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "latency.global") != NULL, "%s", msg);
	sc_config_gtx480(&c);
	c.max_smem_per_cta = c.smem_per_sm + 1;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect(strstr(msg, "max_smem_per_cta") != NULL, "%s", msg);
	sc_config_gtx480(&c);
	c.num_sms = 0;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	sc_config_gtx480(&c);
	c.name[0] = '\0';
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	sc_config_gtx480(&c);
	c.clock_mhz = NAN;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
}

/* Every range of the list, one field at a time just outside it: the message
 * names the field as JSON does and gives the range. */
Test(gpu, check_names_every_field_and_its_range)
{
	sc_gpu_config_t c;
	char msg[256], want[256];
#define OUTSIDE_U32(f, lo, hi)                                                                  \
	sc_config_gtx480(&c);                                                                   \
	c.f = (hi) + 1;                                                                         \
	if ((lo) == (hi))                                                                       \
		snprintf(want, sizeof want, #f ": expected %u, got %u", (unsigned)(lo), c.f);    \
	else                                                                                    \
		snprintf(want, sizeof want, #f ": expected an integer in %u..%u, got %u",        \
		         (unsigned)(lo), (unsigned)(hi), c.f);                                   \
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL, #f);                      \
	cr_expect_str_eq(msg, want);
#define OUTSIDE_NAME(f, lo, hi)                                                                 \
	sc_config_gtx480(&c);                                                                   \
	memset(c.f, 'a', sizeof c.f);                                                           \
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);                          \
	cr_expect_str_eq(msg, #f ": expected a string of 1..63 characters");
#define OUTSIDE_SCHED(f, lo, hi)                                                                \
	sc_config_gtx480(&c);                                                                   \
	c.f = SC_SCHED__COUNT;                                                                  \
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);                          \
	cr_expect_str_eq(msg, #f ": expected \"lrr\" or \"gto\"");
#define OUTSIDE_IBINV(f, lo, hi)                                                                \
	sc_config_gtx480(&c);                                                                   \
	c.f = SC_IBINV__COUNT;                                                                  \
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);                          \
	cr_expect_str_eq(msg, #f ": expected \"refetch\" or \"skip\" or \"stall\"");
#define OUTSIDE_LAT(f, lo, hi)                                                                  \
	for (int i = 0; i < SC_LAT__COUNT; i++) {                                               \
		sc_config_gtx480(&c);                                                           \
		c.f[i] = (lo) - 1;                                                              \
		snprintf(want, sizeof want, #f ".%s: expected an integer in %u..%u, got 0",      \
		         sc_lat_name((sc_lat_t)i), (unsigned)(lo), (unsigned)(hi));              \
		cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);                  \
		cr_expect_str_eq(msg, want);                                                    \
	}
#define OUTSIDE_MHZ(f, lo, hi)                                                                  \
	sc_config_gtx480(&c);                                                                   \
	c.f = (hi) * 2.0;                                                                       \
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);                          \
	cr_expect_str_eq(msg, #f ": expected a number in 1..100000, got 200000");
#define X(kind, field, lo, hi, gtx480) OUTSIDE_##kind(field, lo, hi)
	SC_CONFIG_FIELDS(X)
#undef X
}

/* Several fields wrong at once: the name and warp_size are reported before
 * the other ranges, as they always were. */
Test(gpu, check_reports_warp_size_before_other_ranges)
{
	sc_gpu_config_t c;
	char msg[256];
	sc_config_gtx480(&c);
	c.num_sms = 0;
	c.warp_size = 16;
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect_str_eq(msg, "warp_size: expected 32, got 16");
	c.name[0] = '\0';
	cr_expect_eq(sc_config_check(&c, msg, sizeof msg), SC_EINVAL);
	cr_expect_str_eq(msg, "name: expected a string of 1..63 characters");
}

/* The 'config' record of a runtime job file: the fields in list order, the
 * name on its own line. */
Test(gpu, job_file_config_record)
{
	char path[512], line[512], name[128];
	runs_tmpfile(path, sizeof path, "job");
	sc_rt_job_t j = {.mode = SC_RT_GOLDEN, .regs = SC_REGS_UNALLOC};
	sc_config_gtx480(&j.cfg);
	cr_assert_eq(sc_rt_job_write(path, &j), 0);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	for (int i = 0; i < 3; i++)
		cr_assert(fgets(line, sizeof line, f));
	cr_assert(fgets(name, sizeof name, f));
	fclose(f);
	unlink(path);
	cr_expect_str_eq(line, "config 15 32 1536 8 48 1024 32768 63 49152 49152 8 2 0 32 2 0 "
	                       "22 24 22 30 40 22 50 70 70 22 310 22 22 1401 700 924 2 0 1 "
	                       "2 4 2 8 8 4 2 2 2 2 2 2 2 32 16384 128 4 8192 64 2 12288 128 24 "
	                       "786432 128 8 32 2 310 2 6 8 8 4 236\n");
	cr_expect_str_eq(name, "name gtx480\n");
}

/* ---- the random generator, written again from its specification -------- */

static uint64_t t_splitmix(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

typedef struct { uint64_t s[4]; } t_rng;

static void t_seed(t_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = t_splitmix(&seed);
}

#define ROTL(x, k) (((x) << (k)) | ((x) >> (64 - (k))))

static uint64_t t_next(t_rng *r)
{
	uint64_t *s = r->s, out = ROTL(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ROTL(s[3], 45);
	return out;
}

/* ---- workloads ---------------------------------------------------------- */

static camp_workload_t *load_ok(const char *path)
{
	camp_workload_t *w = NULL;
	char err[512];
	int rc = camp_workload_load(path, &w, err, sizeof err);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_not_null(w);
	return w;
}

/* The initial bytes of buffer `name`, in a static buffer. */
static const uint8_t *fill(const camp_workload_t *w, const char *name, size_t *bytes)
{
	static uint8_t buf[4096];
	char err[256];
	const camp_buffer_t *b = camp_workload_buffer(w, name);
	cr_assert_not_null(b, "no buffer %s", name);
	*bytes = b->count * camp_type_size(b->type);
	cr_assert(*bytes <= sizeof buf);
	memset(buf, 0xa5, sizeof buf);
	cr_assert_eq(camp_buffer_fill(b, buf, err, sizeof err), 0, "%s", err);
	return buf;
}

Test(workload, structure)
{
	camp_workload_t *w = load_ok(DATA "inits.json");
	cr_expect_str_eq(w->name, "inits");
	cr_expect_str_eq(w->ptx, DATA "dummy.ptx");
	cr_expect_eq(w->nbuffers, 17);
	/* Buffers keep file order. */
	cr_expect_str_eq(w->buffers[0].name, "z");
	cr_expect_str_eq(w->buffers[16].name, "ru64");
	cr_expect_eq(w->buffers[0].type, CAMP_T_U16);
	cr_expect_eq(w->buffers[0].count, 3);
	cr_expect_eq(w->buffers[0].init, CAMP_INIT_ZERO);
	cr_expect_eq(w->noutputs, 2);
	cr_expect_eq(w->outputs[0], 0);
	cr_expect_str_eq(w->buffers[w->outputs[1]].name, "ru8");
	cr_assert_eq(w->nlaunches, 2);

	const camp_launch_t *l = &w->launches[0];
	cr_expect_str_eq(l->kernel, "k1");
	cr_expect(l->grid.x == 4 && l->grid.y == 1 && l->grid.z == 1);
	cr_expect(l->block.x == 32 && l->block.y == 2 && l->block.z == 1);
	cr_expect_eq(l->shared, 0);
	cr_expect_eq(l->repeat, 1);
	cr_assert_eq(l->nargs, 6);
	cr_expect(l->args[0].kind == CAMP_ARG_BUFFER && l->args[0].buffer == 0);
	cr_expect(l->args[1].kind == CAMP_ARG_SCALAR && l->args[1].type == CAMP_T_I8 &&
	          l->args[1].bytes[0] == 0xfd);
	cr_expect(l->args[2].type == CAMP_T_U16 && l->args[2].bytes[0] == 0xff &&
	          l->args[2].bytes[1] == 0xff);
	float f;
	memcpy(&f, l->args[3].bytes, 4);
	cr_expect(l->args[3].type == CAMP_T_F32 && f == 0.5f);
	double d;
	memcpy(&d, l->args[4].bytes, 8);
	cr_expect(l->args[4].type == CAMP_T_F64 && d == -1.25);
	uint64_t u;
	memcpy(&u, l->args[5].bytes, 8);
	cr_expect(l->args[5].type == CAMP_T_U64 && u == INT64_MAX);

	l = &w->launches[1];
	cr_expect(l->grid.x == 1 && l->grid.y == 2 && l->grid.z == 3);
	cr_expect(l->block.x == 64 && l->block.y == 1 && l->block.z == 1);
	cr_expect_eq(l->shared, 1024);
	cr_expect_eq(l->repeat, 5);
	cr_assert_eq(l->nargs, 3);
	cr_expect(l->args[0].kind == CAMP_ARG_ITER && l->args[0].type == CAMP_T_I32);
	cr_expect(l->args[1].kind == CAMP_ARG_BUFFER &&
	          !strcmp(w->buffers[l->args[1].buffer].name, "ru8"));
	cr_expect(l->args[2].kind == CAMP_ARG_ITER && l->args[2].type == CAMP_T_F32);
	camp_workload_destroy(w);
	camp_workload_destroy(NULL);
}

Test(workload, init_zero_values_file)
{
	camp_workload_t *w = load_ok(DATA "inits.json");
	size_t n;
	const uint8_t *p;

	p = fill(w, "z", &n);
	cr_expect_eq(n, 6);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(p[i], 0);

	p = fill(w, "v8", &n);
	static const uint8_t v8[] = {0x80, 0x7f, 0x00, 0xff};
	cr_expect_arr_eq(p, v8, 4);

	p = fill(w, "vu64", &n);
	static const uint8_t vu64[] = {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	                               0xff, 0x7f};
	cr_expect_arr_eq(p, vu64, 16);

	p = fill(w, "vi64", &n);
	int64_t vi64[2];
	memcpy(vi64, p, 16);
	cr_expect(vi64[0] == INT64_MIN && vi64[1] == -2);

	p = fill(w, "vf32", &n);
	float vf32[4];
	memcpy(vf32, p, 16);
	cr_expect_eq(vf32[0], 0.1f);
	cr_expect_eq(vf32[1], -2.0f);
	cr_expect_eq(vf32[2], FLT_MAX);
	cr_expect_eq(vf32[3], 0x1p-149f);

	p = fill(w, "vf64", &n);
	double vf64[3];
	memcpy(vf64, p, 24);
	cr_expect_eq(vf64[0], 0.1);
	cr_expect_eq(vf64[1], 1e308);
	cr_expect_eq(vf64[2], 9007199254740992.0); /* 2^53 + 1 rounds to even */

	p = fill(w, "fu32", &n);
	static const uint8_t fu32[] = {1, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde,
	                               4, 3, 2, 1, 0xff, 0xff, 0xff, 0xff};
	cr_expect_arr_eq(p, fu32, 16);
	camp_workload_destroy(w);
}

Test(workload, init_iota)
{
	camp_workload_t *w = load_ok(DATA "inits.json");
	size_t n;
	const uint8_t *p;

	p = fill(w, "io32", &n);
	int32_t io32[4];
	memcpy(io32, p, 16);
	cr_expect(io32[0] == -2 && io32[1] == 1 && io32[2] == 4 && io32[3] == 7);

	p = fill(w, "iou8", &n);
	static const uint8_t iou8[] = {250, 253, 0, 3};
	cr_expect_arr_eq(p, iou8, 4);

	p = fill(w, "iodown", &n);
	static const uint8_t iodown[] = {1, 0, 255};
	cr_expect_arr_eq(p, iodown, 3);

	p = fill(w, "iof32", &n);
	float iof32[4];
	memcpy(iof32, p, 16);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(iof32[i], (float)(0.5 + (double)i * 0.1), "iof32[%d]", i);
	camp_workload_destroy(w);
}

Test(workload, init_random_floats)
{
	camp_workload_t *w = load_ok(DATA "inits.json");
	size_t n;
	const uint8_t *p = fill(w, "rf32", &n);
	float got[64];
	memcpy(got, p, sizeof got);
	t_rng r;
	t_seed(&r, 1);
	for (int i = 0; i < 64; i++) {
		double u = (double)(t_next(&r) >> 11) / 9007199254740992.0;
		float want = (float)(-1.0 + 2.0 * u);
		cr_expect_eq(got[i], want, "rf32[%d]: %a != %a", i, got[i], want);
		cr_expect(got[i] >= -1.0f && got[i] <= 1.0f);
	}

	p = fill(w, "rf64", &n);
	double g64[16];
	memcpy(g64, p, sizeof g64);
	t_seed(&r, 3);
	for (int i = 0; i < 16; i++) {
		double u = (double)(t_next(&r) >> 11) / 9007199254740992.0;
		cr_expect_eq(g64[i], u, "rf64[%d]", i);
	}
	camp_workload_destroy(w);
}

Test(workload, init_random_integers)
{
	camp_workload_t *w = load_ok(DATA "inits.json");
	size_t n;
	t_rng r;

	const uint8_t *p = fill(w, "ri64", &n);
	int64_t i64[16];
	memcpy(i64, p, sizeof i64);
	t_seed(&r, 31);
	for (int i = 0; i < 16; i++) {
		/* The default is the type's full range: span 0, v = min + next. */
		uint64_t want = (uint64_t)INT64_MIN + t_next(&r);
		cr_expect_eq((uint64_t)i64[i], want, "ri64[%d]: %llx != %llx", i,
		             (unsigned long long)i64[i], (unsigned long long)want);
	}

	p = fill(w, "ri32", &n);
	int32_t i32[64];
	memcpy(i32, p, sizeof i32);
	t_seed(&r, 12);
	int seen_lo = 0, seen_hi = 0;
	for (int i = 0; i < 64; i++) {
		int32_t want = (int32_t)(-5 + (int64_t)(t_next(&r) % 11));
		cr_expect_eq(i32[i], want, "ri32[%d]", i);
		seen_lo |= i32[i] == -5;
		seen_hi |= i32[i] == 5;
	}
	cr_expect(seen_lo && seen_hi, "min and max are inclusive");

	p = fill(w, "ru8", &n);
	t_seed(&r, 7);
	for (int i = 0; i < 32; i++) {
		uint8_t want = (uint8_t)(t_next(&r) % 256);
		cr_expect_eq(p[i], want, "ru8[%d]", i);
	}

	p = fill(w, "ru64", &n);
	uint64_t u64[16];
	memcpy(u64, p, sizeof u64);
	t_seed(&r, 9);
	for (int i = 0; i < 16; i++) {
		uint64_t want = 10 + t_next(&r) % (UINT64_C(9223372036854775807) - 9);
		cr_expect_eq(u64[i], want, "ru64[%d]", i);
	}
	camp_workload_destroy(w);
}

/* The published first outputs of splitmix64-seeded xoshiro256** for seed 0
 * pin the generator itself, independently of both implementations. */
Test(workload, random_generator_reference_values)
{
	t_rng r;
	t_seed(&r, 0);
	cr_expect_eq(r.s[0], UINT64_C(0xe220a8397b1dcdaf));
	cr_expect_eq(r.s[1], UINT64_C(0x6e789e6aa1b965f4));
}

static const struct {
	const char *file, *frag1, *frag2;
} bad_workloads[] = {
	{"bad_syntax.json", "bad_syntax.json:4:", "expected"},
	{"bad_duplicate_key.json", "bad_duplicate_key.json:3:", "duplicate object key"},
	{"bad_not_object.json", "at $:", "expected an object"},
	{"bad_absent.json", "bad_absent.json: cannot read", "No such file"},
	{"bad_unknown_top.json", "at $:", "unknown key 'tolerances'"},
	{"bad_missing_ptx.json", "at $:", "missing key 'ptx'"},
	{"bad_ptx_missing_file.json", "at $.ptx:", "data/nope.ptx"},
	{"bad_name_type.json", "at $.name:", "expected a non-empty string"},
	{"bad_buffers_empty.json", "at $.buffers:", "expected an object of buffers"},
	{"bad_buffer_name.json", "at $.buffers[\"a/b\"]:", "letters, digits"},
	{"bad_buffer_unknown_key.json", "at $.buffers.a:", "unknown key 'kind'"},
	{"bad_buffer_missing_count.json", "at $.buffers.a:", "missing key 'count'"},
	{"bad_type.json", "at $.buffers.a.type:", "u8, i8, u16"},
	{"bad_count_zero.json", "at $.buffers.a.count:", "expected an integer in 1.."},
	{"bad_init_kind.json", "at $.buffers.a.init:", "unknown key 'zeros'"},
	{"bad_init_two_keys.json", "at $.buffers.a.init:", "one key"},
	{"bad_values_count.json", "at $.buffers.a.init.values:", "exactly 4 values"},
	{"bad_values_u8_range.json", "at $.buffers.a.init.values[1]:", "integer in 0..255"},
	{"bad_values_int_real.json", "at $.buffers.a.init.values[1]:",
	 "integer in -2147483648..2147483647"},
	{"bad_values_string.json", "at $.buffers.a.init.values[1]:", "expected a number (f32)"},
	{"bad_values_f32_range.json", "at $.buffers.a.init.values[2]:", "f32 range"},
	{"bad_values_f32_tie.json", "at $.buffers.a.init.values[1]:", "halfway between two f32"},
	{"bad_file_size.json", "at $.buffers.a.init.file:", "holds 3 bytes, expected 16"},
	{"bad_file_missing.json", "at $.buffers.a.init.file:", "absent.bin"},
	{"bad_iota_missing_step.json", "at $.buffers.a.init.iota:", "missing key 'step'"},
	{"bad_iota_u8_start.json", "at $.buffers.a.init.iota.start:", "0..255"},
	{"bad_iota_u8_step.json", "at $.buffers.a.init.iota.step:", "-128..255"},
	{"bad_iota_f32_overflow.json", "at $.buffers.a.init.iota:", "f32 range"},
	{"bad_random_no_seed.json", "at $.buffers.a.init.random:", "missing key 'seed'"},
	{"bad_random_seed.json", "at $.buffers.a.init.random.seed:", "integer in 0.."},
	{"bad_random_order.json", "at $.buffers.a.init.random:", "min <= max"},
	{"bad_random_i8_max.json", "at $.buffers.a.init.random.max:", "-128..127"},
	{"bad_random_unknown_key.json", "at $.buffers.a.init.random:", "unknown key 'mean'"},
	{"bad_launches_empty.json", "at $.launches:", "non-empty array"},
	{"bad_launch_unknown_key.json", "at $.launches[0]:", "unknown key 'sharedmem'"},
	{"bad_launch_missing_args.json", "at $.launches[0]:", "missing key 'args'"},
	{"bad_kernel_type.json", "at $.launches[0].kernel:", "kernel name"},
	{"bad_grid_empty.json", "at $.launches[0].grid:", "1 to 3 integers"},
	{"bad_grid_4d.json", "at $.launches[0].grid:", "1 to 3 integers"},
	{"bad_block_zero.json", "at $.launches[0].block[1]:", "integer in 1.."},
	{"bad_repeat_zero.json", "at $.launches[0].repeat:", "integer in 1.."},
	{"bad_shared_negative.json", "at $.launches[0].shared:", "integer in 0.."},
	{"bad_arg_unknown_buffer.json", "bad_arg_unknown_buffer.json: at $.launches[0].args[2]:",
	 "unknown buffer 'q' (buffers: a, b, c)"},
	{"bad_arg_scalar_type.json", "at $.launches[0].args[3]:", "unknown scalar type 'i33'"},
	{"bad_arg_scalar_range.json", "at $.launches[0].args[3].u16:", "0..65535"},
	{"bad_arg_scalar_two_keys.json", "at $.launches[0].args[3]:", "buffer name or a scalar"},
	{"bad_arg_iter_plain.json", "at $.launches[0].args[3]:", "scalar's value"},
	{"bad_arg_iter_word.json", "at $.launches[0].args[3].i32:", "a number or \"$iter\""},
	{"bad_arg_iter_range.json", "at $.launches[0].args[3].u8:", "reaches 299"},
	{"bad_arg_number.json", "at $.launches[0].args[3]:", "buffer name or a scalar"},
	{"bad_outputs_unknown.json", "at $.outputs[0]:", "unknown buffer 'd'"},
	{"bad_outputs_twice.json", "at $.outputs[1]:", "listed twice"},
	{"bad_outputs_empty.json", "at $.outputs:", "non-empty array"},
};

Test(workload, bad_inputs)
{
	for (size_t i = 0; i < sizeof bad_workloads / sizeof bad_workloads[0]; i++) {
		camp_workload_t *w = (camp_workload_t *)1;
		char err[512], path[256];
		snprintf(path, sizeof path, DATA "%s", bad_workloads[i].file);
		int rc = camp_workload_load(path, &w, err, sizeof err);
		cr_expect_eq(rc, CAMP_EINPUT, "%s: rc %d", path, rc);
		cr_expect_null(w, "%s", path);
		cr_expect(strncmp(err, path, strlen(path)) == 0, "%s: message \"%s\" must start "
		          "with the file", path, err);
		cr_expect(strstr(err, bad_workloads[i].frag1) && strstr(err, bad_workloads[i].frag2),
		          "%s: got \"%s\", want \"%s\" and \"%s\"", path, err,
		          bad_workloads[i].frag1, bad_workloads[i].frag2);
		cr_expect(strchr(err, '\n') == NULL, "%s: one line", path);
	}
}

Test(workload, types)
{
	cr_expect_str_eq(camp_type_name(CAMP_T_F32), "f32");
	cr_expect_eq(camp_type_size(CAMP_T_F32), 4);
	cr_expect_eq(camp_type_size(CAMP_T_U8), 1);
	cr_expect_eq(camp_type_size(CAMP_T_I64), 8);
	cr_expect_str_eq(camp_strerror(CAMP_EINPUT), "invalid input");
}

/* ---- running workloads on the simulator (fixtures in data/e2e/) ---------- */

static camp_result_t *run_file(const char *path, int want_rc, char *err, size_t errsz)
{
	camp_workload_t *w = load_ok(path);
	sc_gpu_config_t cfg;
	sc_gpu_t *gpu = NULL;
	camp_result_t *r = NULL;
	sc_options_t opt = {.cycle_budget = 1000000};
	sc_config_gtx480(&cfg);
	cr_assert_eq(sc_gpu_create(&cfg, &opt, &gpu), 0);
	int rc = camp_workload_run(w, gpu, &r, err, errsz);
	cr_expect_eq(rc, want_rc, "%s: rc %d: %s", path, rc, err);
	if (rc)
		cr_expect_null(r);
	sc_gpu_destroy(gpu);
	camp_workload_destroy(w);
	return r;
}

Test(run, outputs_and_iter)
{
	char err[512];
	camp_result_t *r = run_file(DATA "e2e/ok.json", 0, err, sizeof err);
	cr_assert_not_null(r);
	cr_expect_eq(r->due, 0);
	cr_expect_eq(r->status.reason, SC_DUE_NONE);
	cr_expect_eq(r->launches_run, 2);
	cr_expect(r->sim_seconds >= 0.0);
	cr_assert_eq(r->noutputs, 2);
	cr_assert_eq(r->outputs[0].bytes, 4000);
	cr_assert_eq(r->outputs[1].bytes, 8000);
	for (uint32_t i = 0; i < 1000; i++) {
		uint32_t v32;
		uint64_t v64;
		memcpy(&v32, r->outputs[0].data + 4 * i, 4);
		memcpy(&v64, r->outputs[1].data + 8 * i, 8);
		cr_expect_eq(v32, i, "out32[%u] = %u: the last repeat passes $iter = 1", i, v32);
		cr_expect_eq(v64, i);
	}
	camp_result_destroy(r);
	camp_result_destroy(NULL);
}

Test(run, due_is_a_result)
{
	char err[512];
	camp_result_t *r = run_file(DATA "e2e/oob.json", 0, err, sizeof err);
	cr_assert_not_null(r);
	cr_expect_eq(r->due, 1);
	cr_expect_eq(r->status.reason, SC_DUE_ILLEGAL_ADDRESS);
	cr_expect_str_eq(r->status.kernel, "oob");
	cr_expect_eq(r->noutputs, 0);
	camp_result_destroy(r);

	r = run_file(DATA "e2e/spin.json", 0, err, sizeof err);
	cr_assert_not_null(r);
	cr_expect_eq(r->status.reason, SC_DUE_TIMEOUT);
	camp_result_destroy(r);
}

static const struct {
	const char *file, *frag;
} bad_runs[] = {
	{"e2e/bad_ptx.json", "e2e/bad.ptx:13:"},
	{"e2e/unknown_kernel.json", "at $.launches[0].kernel: no kernel 'nosuch'"},
	{"e2e/too_big.json", "at $.launches[0]: kernel 'trapper', grid [1, 1, 1], block [2048, 1, 1]"},
	{"e2e/arg_count.json", "at $.launches[0].args: kernel 'oob' takes 2 parameters"},
	{"e2e/arg_size.json", "at $.launches[0].args[1]: i64 is 8 bytes, but parameter 1"},
	/* the kinds of scalars against the PTX types of params.ptx's parameters */
	{"e2e/arg_int_for_f32.json", "arg_int_for_f32.json: at $.launches[0].args[1]: parameter 1 of "
	 "kernel 'typed', typed_f, is .f32: it takes a floating-point {\"f32\": ...}, not {\"i32\": 2}"},
	{"e2e/arg_int_for_f64.json", "at $.launches[0].args[4]: parameter 4 of kernel 'typed', typed_d, "
	 "is .f64: it takes a floating-point {\"f64\": ...}, not {\"u64\": 1}"},
	{"e2e/arg_float_for_s32.json", "at $.launches[0].args[2]: parameter 2 of kernel 'typed', typed_s, "
	 "is .s32: it takes an integer {\"u32\": ...} or {\"i32\": ...}, not {\"f32\": 7.5}"},
	{"e2e/arg_float_for_u64.json", "at $.launches[0].args[5]: parameter 5 of kernel 'typed', typed_q, "
	 "is .u64: it takes an integer {\"u64\": ...} or {\"i64\": ...} or a buffer, not {\"f64\": 3}"},
	{"e2e/arg_buffer_for_f64.json", "at $.launches[0].args[4]: parameter 4 of kernel 'typed', typed_d, "
	 "is .f64: it takes a floating-point {\"f64\": ...}, not buffer 'other'"},
};

Test(run, bad_input_is_an_error)
{
	for (size_t i = 0; i < sizeof bad_runs / sizeof bad_runs[0]; i++) {
		char err[512], path[256];
		snprintf(path, sizeof path, DATA "%s", bad_runs[i].file);
		camp_result_t *r = run_file(path, CAMP_EINPUT, err, sizeof err);
		cr_expect_null(r);
		cr_expect(strstr(err, bad_runs[i].frag) != NULL, "%s: got \"%s\", want \"%s\"", path,
		          err, bad_runs[i].frag);
	}
}

/* .u and .s parameters take any integer of their size, .b any value of its
 * size, .f32 and .f64 their float; the kernel sees the bits passed. */
Test(run, arg_types_compatible)
{
	char err[512];
	camp_result_t *r = run_file(DATA "e2e/arg_types_ok.json", 0, err, sizeof err);
	cr_assert_not_null(r);
	cr_assert_eq(r->noutputs, 1);
	uint32_t out[4];
	memcpy(out, r->outputs[0].data, sizeof out);
	cr_expect_eq(out[0], 0x3fc00000u, "f = 1.5f");
	cr_expect_eq(out[1], 7u, "{\"u32\": 7} for an .s32");
	cr_expect_eq(out[2], 0x40000000u, "{\"f32\": 2} for a .b32");
	cr_expect_eq(out[3], 0xfffffffdu, "{\"i64\": -3} for a .u64");
	camp_result_destroy(r);
}
