/* Tests of campaigns/camp_campaign.c and the workload "tolerance" key: every
 * default, a table of bad campaigns in tests/campaigns/data/campaign/ with the
 * message fragments each must produce, the canonical text (a golden copy,
 * stable across loads and key order) and its hash, and that every campaign in
 * examples/campaigns/ loads. Run from the repository root. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "campaigns.h"

#define DATA "tests/campaigns/data/"
#define CDATA DATA "campaign/"
#define EXAMPLES "examples/campaigns/"

/* ---- helpers ------------------------------------------------------------- */

/* FNV-1a 64, written again from its definition (offset basis, prime). */
static uint64_t t_fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static void t_hex(char out[17], uint64_t h)
{
	snprintf(out, 17, "%016" PRIx64, h);
}

static void t_file_hash(const char *path, char out[17])
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	int ch;
	while ((ch = fgetc(f)) != EOF) {
		unsigned char b = (unsigned char)ch;
		h = t_fnv(h, &b, 1);
	}
	fclose(f);
	t_hex(out, h);
}

static camp_campaign_t *load_ok(const char *path)
{
	camp_campaign_t *c = NULL;
	char err[1024];
	int rc = camp_campaign_load(path, &c, err, sizeof err);
	cr_assert_eq(rc, 0, "%s: %s", path, err);
	cr_assert_not_null(c);
	return c;
}

/* A scratch folder per test (Criterion runs each test in its own process). */
static char tmp[64];

static void tmp_init(void)
{
	strcpy(tmp, "/tmp/flipsim-campaign-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
}

static void tmp_fini(void)
{
	DIR *d = opendir(tmp);
	struct dirent *e;
	char p[512];
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof p, "%s/%s", tmp, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(tmp);
}

/* Writes `text` to tmp/name and returns the path in a static buffer. */
static const char *put_file(const char *name, const void *text, size_t n)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/%s", tmp, name);
	FILE *f = fopen(p, "wb");
	cr_assert_not_null(f, "%s", p);
	cr_assert_eq(fwrite(text, 1, n, f), n);
	fclose(f);
	return p;
}

static const char *put_text(const char *name, const char *text)
{
	return put_file(name, text, strlen(text));
}

/* The absolute path of the fixture workload, in a static buffer. */
static const char *fixture_workload(void)
{
	static char p[4096];
	cr_assert_not_null(realpath(CDATA "w.json", p));
	return p;
}

/* Loads a campaign written into tmp/c.json; the caller destroys it. */
static camp_campaign_t *load_text(const char *text)
{
	return load_ok(put_text("c.json", text));
}

/* ---- defaults ------------------------------------------------------------ */

Test(campaign, every_default)
{
	camp_campaign_t *c = load_ok(CDATA "min.json");
	sc_gpu_config_t gtx;
	sc_config_gtx480(&gtx);

	cr_expect_str_eq(c->path, CDATA "min.json");
	cr_expect_str_eq(c->name, "min", "the name defaults to the base name without .json");
	cr_expect_str_eq(c->workload_path, fixture_workload());
	cr_assert_not_null(c->workload);
	cr_expect_str_eq(c->workload->name, "w");
	cr_expect_eq(c->workload->nlaunches, 3);
	cr_expect_str_eq(c->gpu_source, "gtx480");
	cr_expect_str_eq(c->gpu.name, "gtx480");
	cr_expect_eq(c->gpu.num_sms, gtx.num_sms);
	cr_expect_eq(c->gpu.regs_per_sm, gtx.regs_per_sm);
	cr_expect_eq(c->regs, CAMP_REGS_PTX);
	cr_expect_eq(c->target, CAMP_TARGET_REGFILE);
	cr_expect_eq(c->fields, 0);
	cr_expect_eq(c->scope, CAMP_SCOPE_APPLICATION);
	cr_expect_null(c->kernel);
	cr_expect_eq(c->invocation, 0);
	cr_expect_eq(c->injections, 2000);
	cr_expect_eq(c->confidence, 0.95);
	cr_expect_eq(c->margin, 0.0);
	cr_expect_eq(c->model, CAMP_MODEL_SINGLE);
	cr_expect_eq(c->model_k, 1);
	/* ptx mode's register file is drawn among the threads' virtual registers */
	cr_expect_eq(c->sampling, CAMP_SAMPLING_LIVE);
	cr_expect_eq(c->seed, 1);
	cr_expect_eq(c->fit_per_bit, 0.001);
	cr_expect_eq(c->timeout_factor, 3.0);
	cr_expect_eq(c->watchdog_seconds, 60.0);
	cr_assert_not_null(c->canonical);
	cr_expect_eq(strlen(c->hash), 16);
	camp_campaign_destroy(c);
	camp_campaign_destroy(NULL);
}

Test(campaign, field_defaults_and_bits, .init = tmp_init, .fini = tmp_fini)
{
	char text[8192];
	const char *w = fixture_workload();

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"simt\"}", w);
	camp_campaign_t *c = load_text(text);
	cr_expect_eq(c->fields, CAMP_FIELD_PC | CAMP_FIELD_RPC | CAMP_FIELD_MASK);
	cr_expect_str_eq(c->name, "c");
	camp_campaign_destroy(c);

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"ibuffer\"}", w);
	c = load_text(text);
	cr_expect_eq(c->fields, CAMP_FIELD_VALID | CAMP_FIELD_INSTR);
	camp_campaign_destroy(c);

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"ibuffer\", "
	         "\"fields\": [\"instr\"]}", w);
	c = load_text(text);
	cr_expect_eq(c->fields, CAMP_FIELD_INSTR);
	camp_campaign_destroy(c);

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"simt\", "
	         "\"fields\": [\"mask\"]}", w);
	c = load_text(text);
	cr_expect_eq(c->fields, CAMP_FIELD_MASK);
	camp_campaign_destroy(c);

	/* Every target without fields. */
	static const char *const plain[] = {"regfile", "pred", "smem", "fu"};
	for (size_t i = 0; i < 4; i++) {
		snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"%s\"}", w, plain[i]);
		c = load_text(text);
		cr_expect_str_eq(camp_target_name(c->target), plain[i]);
		cr_expect_eq(c->fields, 0);
		camp_campaign_destroy(c);
	}
}

Test(campaign, explicit_values)
{
	camp_campaign_t *c = load_ok(CDATA "order_a.json");
	cr_expect_str_eq(c->name, "ordered");
	cr_expect_str_eq(c->gpu.name, "v100");
	cr_expect_eq(c->target, CAMP_TARGET_SIMT);
	cr_expect_eq(c->fields, CAMP_FIELD_PC | CAMP_FIELD_RPC);
	cr_expect_eq(c->scope, CAMP_SCOPE_KERNEL);
	cr_expect_str_eq(c->kernel, "k1");
	cr_expect_eq(c->invocation, 1, "k1 is launched by launches 0 and 2: invocation 1 exists");
	cr_expect_eq(c->injections, 0, "margin given: the engine computes the sample size");
	cr_expect_eq(c->confidence, 0.99);
	cr_expect_eq(c->margin, 0.01);
	cr_expect_eq(c->model, CAMP_MODEL_ADJACENT);
	cr_expect_eq(c->model_k, 4);
	cr_expect_eq(c->sampling, CAMP_SAMPLING_LIVE);
	cr_expect_eq(c->seed, 42);
	cr_expect_eq(c->fit_per_bit, 0.002);
	cr_expect_eq(c->timeout_factor, 2.5);
	cr_expect_eq(c->watchdog_seconds, 30.0);
	camp_campaign_destroy(c);
}

Test(campaign, multi_and_kernel_scope, .init = tmp_init, .fini = tmp_fini)
{
	char text[8192];
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"smem\", \"scope\": "
	         "{\"kernel\": \"k2\", \"invocation\": 2}, \"fault_model\": {\"kind\": \"multi\", "
	         "\"faults\": 8}, \"injections\": 10000000, \"seed\": 0, \"timeout_factor\": 1.5}",
	         fixture_workload());
	camp_campaign_t *c = load_text(text);
	cr_expect_eq(c->scope, CAMP_SCOPE_KERNEL);
	cr_expect_str_eq(c->kernel, "k2");
	cr_expect_eq(c->invocation, 2, "k2 repeats 3 times: invocations 0..2");
	cr_expect_eq(c->model, CAMP_MODEL_MULTI);
	cr_expect_eq(c->model_k, 8);
	cr_expect_eq(c->injections, 10000000);
	cr_expect_eq(c->seed, 0);
	cr_expect_eq(c->timeout_factor, 1.5);
	camp_campaign_destroy(c);

	/* The invocation defaults to 0. */
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"fu\", \"scope\": "
	         "{\"kernel\": \"k1\"}, \"fault_model\": {\"kind\": \"adjacent\", \"bits\": 32}}",
	         fixture_workload());
	c = load_text(text);
	cr_expect_eq(c->scope, CAMP_SCOPE_KERNEL);
	cr_expect_eq(c->invocation, 0);
	cr_expect_eq(c->model_k, 32);
	camp_campaign_destroy(c);
}

/* "strata" and "stop" are read, and enter the identity only when given:
 * a campaign without them keeps its hash. */
Test(campaign, strata_and_stop, .init = tmp_init, .fini = tmp_fini)
{
	char text[8192], plain[17], h[17];
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\", \"strata\": \"kernel\", "
	         "\"stop\": {\"relative_margin\": 0.1}, \"injections\": 5000}", fixture_workload());
	camp_campaign_t *c = load_text(text);
	cr_expect_eq(c->strata, CAMP_STRATA_KERNEL);
	cr_expect_eq(c->stop_looks, CAMP_DEFAULT_LOOKS);
	cr_expect_eq(c->stop_relative, 0.1);
	cr_expect_eq(c->stop_absolute, 0);
	cr_expect_eq(c->injections, 5000, "the most injections");
	cr_expect(strstr(c->canonical, "\"strata\":\"kernel\""), "%s", c->canonical);
	cr_expect(strstr(c->canonical, "\"stop\":{\"looks\":5,\"relative_margin\":0.1"), "%s", c->canonical);
	snprintf(h, sizeof h, "%s", c->hash);
	camp_campaign_destroy(c);

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\", \"strata\": \"none\", "
	         "\"stop\": {\"absolute_margin\": 0.02, \"looks\": 3}}", fixture_workload());
	c = load_text(text);
	cr_expect_eq(c->strata, CAMP_STRATA_NONE);
	cr_expect_eq(c->stop_looks, 3);
	cr_expect_eq(c->stop_absolute, 0.02);
	cr_expect(!strstr(c->canonical, "strata"), "\"none\" is the default: %s", c->canonical);
	camp_campaign_destroy(c);

	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\", \"injections\": 5000}",
	         fixture_workload());
	c = load_text(text);
	cr_expect_eq(c->strata, CAMP_STRATA_NONE);
	cr_expect_eq(c->stop_looks, 0);
	cr_expect(!strstr(c->canonical, "stop"), "%s", c->canonical);
	snprintf(plain, sizeof plain, "%s", c->hash);
	camp_campaign_destroy(c);
	cr_expect_str_neq(plain, h);
	cr_expect_str_eq(camp_strata_name(CAMP_STRATA_KERNEL), "kernel");
}

Test(campaign, gpu_file_relative_to_campaign)
{
	camp_campaign_t *c = load_ok(CDATA "min_gpufile.json");
	size_t n = strlen(c->gpu_source);
	const char *tail = "/campaigns/gpus/gtx480.json";
	cr_expect(c->gpu_source[0] == '/' && n > strlen(tail) &&
	          !strcmp(c->gpu_source + n - strlen(tail), tail), "%s", c->gpu_source);
	cr_expect_str_eq(c->gpu.name, "gtx480");
	camp_campaign_destroy(c);
}

/* ---- bad campaigns --------------------------------------------------------- */

static const struct {
	const char *file, *frag1, *frag2;
} bad_campaigns[] = {
	{"bad_syntax.json", "bad_syntax.json:4:8:", "'}' expected"},
	{"bad_duplicate_key.json", "bad_duplicate_key.json:5:", "duplicate object key"},
	{"bad_not_object.json", "bad_not_object.json: at $:", "expected an object"},
	{"bad_unknown_key.json", "bad_unknown_key.json: at $:",
	 "unknown key 'injection' (expected name, workload, gpu, regs, target, fields, scope, "
	 "injections, confidence, margin, fault_model, sampling, seed, fit_per_bit, "
	 "timeout_factor, watchdog_seconds, golden_watchdog_seconds, golden_cycle_budget, strata, stop, protection, regs_subset)"},
	{"bad_missing_workload.json", "at $:", "missing key 'workload'"},
	{"bad_missing_target.json", "at $:", "missing key 'target'"},
	{"bad_name_type.json", "at $.name:", "expected a string of 1..127 characters"},
	{"bad_name_empty.json", "at $.name:", "expected a string of 1..127 characters"},
	{"bad_workload_type.json", "at $.workload:", "expected the path of a workload JSON file "
	 "(*.json) or {\"exec\": [PROGRAM, ARG...], \"cwd\": DIR}"},
	{"bad_workload_exe.json", "at $.workload:", "'vadd': expected the path of a workload JSON"},
	{"bad_exec_type.json", "at $.workload.exec:", "expected a non-empty array of strings"},
	{"bad_exec_empty.json", "at $.workload.exec:", "expected a non-empty array of strings"},
	{"bad_exec_arg_type.json", "at $.workload.exec:", "element 1 is not one"},
	{"bad_exec_missing.json", "at $.workload.exec:", "absent-program' is not an executable file: No "
	 "such file"},
	{"bad_exec_not_executable.json", "at $.workload.exec:", "bad_syntax.json' is not an executable file"},
	{"bad_exec_cwd.json", "at $.workload.cwd:", "absent-folder' is not a folder"},
	{"bad_exec_unknown_key.json", "at $.workload:", "unknown key 'args' (expected exec, cwd)"},
	{"bad_workload_missing.json", "at $.workload:", "cannot read '" CDATA "absent.json': No "
	 "such file"},
	{"bad_workload_invalid.json", "bad_workload_invalid.json: at $.workload: /",
	 "campaign/tol_bad_int.json: at $.tolerance.d: buffer 'd' is u32"},
	{"bad_gpu_unknown.json", "at $.gpu:", "unknown GPU 'gtx999' (known: gtx480"},
	{"bad_gpu_file.json", "at $.gpu: /", "gpu_warp_size.json: at $.warp_size: expected 32"},
	{"bad_gpu_type.json", "at $.gpu:", "preset name or a GPU config file"},
	{"bad_regs_other.json", "at $.regs:", "expected \"ptx\", \"alloc\" or \"unalloc\""},
	{"bad_sampling_ptx.json", "at $.sampling:", "expected \"live\": in ptx mode regfile faults land in the "
	 "resident threads' virtual registers"},
	{"bad_model_ptx_stuck.json", "at $.fault_model.kind:", "\"stuck_at\" needs physical storage, and in ptx "
	 "mode a virtual register has none of its own"},
	{"bad_target.json", "at $.target:", "expected one of regfile, pred, smem, simt, ibuffer, "
	 "fu, l1d, l2, const or texcache"},
	{"bad_target_no_cache.json", "at $.target:", "GPU 'quadro_fx5800' has no l1d"},
	{"bad_target_no_texcache.json", "at $.target:", "GPU 'v100' has no texcache"}, /* its L1 serves textures */
	{"bad_target_type.json", "at $.target:", "expected one of regfile"},
	{"bad_fields_regfile.json", "at $.fields:", "target 'regfile' has no fields"},
	{"bad_fields_empty.json", "at $.fields:", "non-empty array of field names (simt: pc, rpc "
	 "or mask)"},
	{"bad_fields_type.json", "at $.fields:", "non-empty array of field names"},
	{"bad_fields_unknown.json", "at $.fields[1]:", "field of target ibuffer: valid or instr"},
	{"bad_fields_dup.json", "at $.fields[2]:", "field 'pc' is listed twice"},
	{"bad_fields_l1d_dirty.json", "at $.fields[1]:", "field of target l1d: data, tag or valid"},
	{"bad_scope_string.json", "at $.scope:", "expected \"application\" or {\"kernel\""},
	{"bad_scope_type.json", "at $.scope:", "expected \"application\" or {\"kernel\""},
	{"bad_scope_kernel_type.json", "at $.scope.kernel:", "expected a kernel name"},
	{"bad_scope_kernel_unknown.json", "at $.scope.kernel:",
	 "does not launch kernel 'nosuch' (launched: k1, k2)"},
	{"bad_scope_invocation.json", "at $.scope.invocation:",
	 "0..2 (the workload launches 'k2' 3 times)"},
	{"bad_scope_invocation_neg.json", "at $.scope.invocation:", "0..1"},
	{"bad_scope_no_kernel.json", "at $.scope:", "missing key 'kernel'"},
	{"bad_scope_unknown_key.json", "at $.scope:", "unknown key 'launch' (expected kernel, "
	 "invocation)"},
	{"bad_injections_zero.json", "at $.injections:", "expected an integer in 1..10000000"},
	{"bad_injections_big.json", "at $.injections:", "expected an integer in 1..10000000"},
	{"bad_injections_real.json", "at $.injections:", "expected an integer in 1..10000000"},
	{"bad_injections_margin.json", "at $:", "either \"injections\" or \"margin\""},
	{"bad_margin_range.json", "at $.margin:", "(0, 1)"},
	{"bad_margin_type.json", "at $.margin:", "(0, 1)"},
	{"bad_confidence_range.json", "at $.confidence:", "(0, 1)"},
	{"bad_model_type.json", "at $.fault_model:", "\"kind\": \"single\""},
	{"bad_model_kind.json", "at $.fault_model.kind:", "\"single\", \"adjacent\", \"multi\", \"random_value\""},
	{"bad_model_no_kind.json", "at $.fault_model:", "missing key 'kind'"},
	{"bad_model_single_extra.json", "at $.fault_model:", "unknown key 'bits' (expected kind)"},
	{"bad_model_adjacent_bits.json", "at $.fault_model.bits:", "2..32"},
	{"bad_model_adjacent_one.json", "at $.fault_model.bits:", "2..32"},
	{"bad_model_adjacent_no_bits.json", "at $.fault_model:", "missing key 'bits'"},
	{"bad_model_adjacent_word.json", "at $.fault_model.bits:", "l2 with these fields has words of one bit "
	 "(choose one field, e.g. \"fields\": [\"data\"])"},
	{"bad_model_multi_faults.json", "at $.fault_model.faults:", "2..8"},
	{"bad_model_multi_bits.json", "at $.fault_model:", "unknown key 'bits' (expected kind, "
	 "faults)"},
	{"bad_model_mcu_words.json", "at $.fault_model.words:", "2..8"},
	{"bad_model_mcu_room.json", "at $.fault_model.interleave:", "8 words 1000 apart do not fit in one SM's pred"},
	{"bad_model_stuck_value.json", "at $.fault_model.value:", "0..1"},
	{"bad_model_stuck_no_value.json", "at $.fault_model:", "missing key 'value'"},
	{"bad_model_stuck_from_start.json", "at $.fault_model.from_start:", "expected true"},
	{"bad_model_stuck_target.json", "at $.fault_model.kind:", "\"stuck_at\" does not apply to simt"},
	{"bad_model_zero_cache.json", "at $.fault_model.kind:", "use \"random_value\""},
	{"bad_model_intermittent_duration.json", "at $.fault_model.duration:", "fewer cycles than the period (10)"},
	{"bad_model_intermittent_no_period.json", "at $.fault_model:", "missing key 'period'"},
	{"bad_model_value_extra.json", "at $.fault_model:", "unknown key 'value'"},
	{"bad_sampling.json", "at $.sampling:", "expected \"physical\" or \"live\""},
	{"bad_seed_negative.json", "at $.seed:", "integer in 0.."},
	{"bad_seed_real.json", "at $.seed:", "integer in 0.."},
	{"bad_fit_zero.json", "at $.fit_per_bit:", "number > 0"},
	{"bad_fit_type.json", "at $.fit_per_bit:", "number > 0"},
	{"bad_timeout_low.json", "at $.timeout_factor:", "1.5.."},
	{"bad_watchdog_zero.json", "at $.watchdog_seconds:", "(0, "},
	{"bad_golden_watchdog_zero.json", "at $.golden_watchdog_seconds:", "seconds in (0, 604800]"},
	{"bad_golden_budget_zero.json", "at $.golden_cycle_budget:", "integer number of GPU cycles >= 1"},
	{"bad_golden_budget_real.json", "at $.golden_cycle_budget:", "integer number of GPU cycles >= 1"},
	{"bad_strata.json", "at $.strata:", "expected \"kernel\" (one stratum per kernel name) or \"none\""},
	{"bad_strata_scope.json", "at $.strata:", "strata need \"scope\": \"application\""},
	{"bad_stop_type.json", "at $.stop:", "expected {\"relative_margin\": R} or {\"absolute_margin\": A}"},
	{"bad_stop_both.json", "at $.stop:", "give exactly one of the two margins"},
	{"bad_stop_none.json", "at $.stop:", "give exactly one of the two margins"},
	{"bad_stop_margin.json", "at $.stop.relative_margin:", "expected a number in (0, 1)"},
	{"bad_stop_looks.json", "at $.stop.looks:", "expected an integer in 1..20"},
	{"bad_stop_key.json", "at $.stop:", "unknown key 'after' (expected relative_margin, absolute_margin, looks)"},
	{"bad_stop_with_margin.json", "at $.margin:", "give \"injections\" as the maximum"},
	{"absent.json", "absent.json: cannot read", "No such file"},
};

Test(campaign, bad_inputs)
{
	for (size_t i = 0; i < sizeof bad_campaigns / sizeof bad_campaigns[0]; i++) {
		camp_campaign_t *c = (camp_campaign_t *)1;
		char err[1024], path[256];
		snprintf(path, sizeof path, CDATA "%s", bad_campaigns[i].file);
		int rc = camp_campaign_load(path, &c, err, sizeof err);
		cr_expect_eq(rc, CAMP_EINPUT, "%s: rc %d", path, rc);
		cr_expect_null(c, "%s", path);
		cr_expect(strncmp(err, path, strlen(path)) == 0, "%s: message \"%s\" must start "
		          "with the file", path, err);
		cr_expect(strstr(err, bad_campaigns[i].frag1) && strstr(err, bad_campaigns[i].frag2),
		          "%s: got \"%s\", want \"%s\" and \"%s\"", path, err,
		          bad_campaigns[i].frag1, bad_campaigns[i].frag2);
		cr_expect(strchr(err, '\n') == NULL, "%s: one line", path);
	}
}

Test(campaign, small_error_buffer_and_null)
{
	camp_campaign_t *c;
	char err[16];
	cr_expect_eq(camp_campaign_load(CDATA "bad_target.json", &c, err, sizeof err), CAMP_EINPUT);
	cr_expect_eq(strlen(err), sizeof err - 1, "truncated, still terminated");
	cr_expect_eq(camp_campaign_load(CDATA "bad_target.json", &c, NULL, 0), CAMP_EINPUT);
	cr_expect_null(c);
}

/* ---- canonical text and hash ------------------------------------------------ */

/* The GPU part of the canonical text of fixture min.json, between the
 * format and the workload. */
#define MIN_GPU_TEXT                                                                        \
	"\"gpu\":{\"clock_mhz\":1401.0,\"const_bytes\":8192,\"const_line\":64,"               \
	"\"const_ways\":2,\"core_mhz\":700.0,\"dp_solo\":1,\"dram_burst\":8,"                   \
	"\"dram_bus_bytes\":8,\"dram_channels\":6,\"dram_latency\":236,\"dram_rate\":4,"        \
	"\"ib_entries\":2,\"ibuffer_invalid\":\"refetch\","                                     \
	"\"interval\":{\"atomic\":2,\"branch\":2,\"const\":2,\"cvt\":4,"                         \
	"\"fp32\":2,\"fp64\":8,\"global\":2,\"imul\":4,\"int\":2,\"local\":2,\"sfu\":8,"       \
	"\"shared\":2,\"warp\":2},\"issue_cycles\":2,\"l1_bytes\":16384,\"l1_line\":128,"       \
	"\"l1_ways\":4,\"l2_bytes\":786432,\"l2_latency\":310,\"l2_line\":128,"                 \
	"\"l2_sector\":32,\"l2_sector_cycles\":2,\"l2_slices_per_channel\":2,\"l2_ways\":8,"    \
	"\"latency\":{\"atomic\":310,\"branch\":22,\"const\":22,"                               \
	"\"cvt\":22,\"fp32\":22,\"fp64\":30,\"global\":70,\"imul\":24,\"int\":22,"              \
	"\"local\":70,\"sfu\":40,\"shared\":50,\"warp\":22},\"max_ctas_per_sm\":8,"               \
	"\"max_regs_per_thread\":63,\"max_smem_per_cta\":49152,"                                  \
	"\"max_threads_per_cta\":1024,\"max_threads_per_sm\":1536,"                               \
	"\"max_warps_per_sm\":48,\"mem_mhz\":924.0,\"name\":\"gtx480\",\"num_sms\":15,"          \
	"\"preds_per_thread\":8,\"regs_per_sm\":32768,\"scheduler\":\"lrr\","                      \
	"\"schedulers_per_sm\":2,\"simt_stack_depth\":32,\"smem_banks\":32,"                      \
	"\"smem_per_sm\":49152,\"tex_bytes\":12288,\"tex_line\":128,\"tex_ways\":24,"            \
	"\"units_per_scheduler\":0,"                                                             \
	"\"warp_size\":32},\"injections\":2000,\"margin\":null,\"name\":\"min\","                   \
	"\"regs\":\"ptx\",\"sampling\":\"live\",\"scope\":\"application\","                     \
	"\"seed\":1,\"target\":\"regfile\",\"timeout_factor\":3.0,"                                 \
	"\"watchdog_seconds\":60.0,"

Test(campaign, canonical_golden)
{
	camp_campaign_t *c = load_ok(CDATA "min.json");
	char wj[17], ptx[17], in[17], want[4096], h[17];
	t_file_hash(CDATA "w.json", wj);
	t_file_hash(DATA "dummy.ptx", ptx);
	t_file_hash(CDATA "in.bin", in);
	/* format 2: the workload's parsed content, its files by digest, no path */
	snprintf(want, sizeof want,
	         "{\"confidence\":0.94999999999999996,\"fault_model\":{\"kind\":\"single\"},"
	         "\"fields\":[],\"fit_per_bit\":0.001,\"format\":2," MIN_GPU_TEXT
	         "\"workload\":{\"buffer_order\":[\"a\",\"c\",\"d\"],\"buffers\":{\"a\":{\"count\":4,"
	         "\"init\":{\"file\":{\"fnv1a64\":\"%s\"}},\"type\":\"f32\"},\"c\":{\"count\":4,"
	         "\"type\":\"f32\"},\"d\":{\"count\":4,\"type\":\"u32\"}},\"launches\":[{\"args\":[\"a\","
	         "\"c\"],\"block\":[4],\"grid\":[1],\"kernel\":\"k1\"},{\"args\":[\"c\",\"d\"],"
	         "\"block\":[4],\"grid\":[1],\"kernel\":\"k2\",\"repeat\":3},{\"args\":[\"a\",\"c\"],"
	         "\"block\":[4],\"grid\":[1],\"kernel\":\"k1\"}],\"name\":\"w\",\"outputs\":[\"c\","
	         "\"d\"],\"ptx\":{\"fnv1a64\":\"%s\"},\"tolerance\":{\"c\":9.9999999999999995e-7}}}",
	         in, ptx);
	cr_expect_str_eq(c->canonical, want);
	t_hex(h, t_fnv(UINT64_C(0xcbf29ce484222325), c->canonical, strlen(c->canonical)));
	cr_expect_str_eq(c->hash, h, "hash is FNV-1a 64 of the canonical text");
	/* format 1, what databases written before format 2 hold: the legacy hash
	 * must be exactly theirs for those campaigns to be resumed */
	snprintf(want, sizeof want,
	         "{\"confidence\":0.94999999999999996,\"fault_model\":{\"kind\":\"single\"},"
	         "\"fields\":[],\"fit_per_bit\":0.001,\"format\":1," MIN_GPU_TEXT
	         "\"workload\":{\"inputs_fnv1a64\":{\"a\":\"%s\"},"
	         "\"json_fnv1a64\":\"%s\",\"path\":\"%s\",\"ptx_fnv1a64\":\"%s\"}}",
	         in, wj, fixture_workload(), ptx);
	t_hex(h, t_fnv(UINT64_C(0xcbf29ce484222325), want, strlen(want)));
	cr_expect_str_eq(c->legacy_hash, h, "legacy hash is FNV-1a 64 of the format-1 text");
	camp_campaign_destroy(c);
}

Test(campaign, canonical_other_shapes)
{
	camp_campaign_t *c = load_ok(CDATA "order_a.json");
	static const char *const parts[] = {
		"\"fields\":[\"pc\",\"rpc\"]", "\"scope\":{\"invocation\":1,\"kernel\":\"k1\"}",
		"\"injections\":null,\"margin\":0.01,", "\"confidence\":0.98999999999999999,",
		"\"fault_model\":{\"bits\":4,\"kind\":\"adjacent\"}", "\"sampling\":\"live\"",
		"\"name\":\"v100\",\"num_sms\":80,", "\"seed\":42,", "\"target\":\"simt\"",
	};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		cr_expect(strstr(c->canonical, parts[i]) != NULL, "%s lacks %s", c->canonical,
		          parts[i]);
	camp_campaign_destroy(c);
}

Test(campaign, canonical_stable)
{
	/* Two loads of one file. */
	camp_campaign_t *a = load_ok(CDATA "min.json"), *b = load_ok(CDATA "min.json");
	cr_expect_str_eq(a->canonical, b->canonical);
	cr_expect_str_eq(a->hash, b->hash);
	camp_campaign_destroy(b);
	/* Every default written out, keys in another order, 3.0 for 3, 1e-3 for 0.001,
	 * the workload as "./w.json". */
	b = load_ok(CDATA "min_explicit.json");
	cr_expect_str_eq(a->canonical, b->canonical);
	cr_expect_str_eq(a->hash, b->hash);
	camp_campaign_destroy(b);
	/* The preset by file instead of by name: the GPU is compared by content. */
	b = load_ok(CDATA "min_gpufile.json");
	cr_expect_str_eq(a->canonical, b->canonical);
	camp_campaign_destroy(b);
	camp_campaign_destroy(a);

	/* Non-default values, keys (also nested) and fields in another order. */
	a = load_ok(CDATA "order_a.json");
	b = load_ok(CDATA "order_b.json");
	cr_expect_str_eq(a->canonical, b->canonical);
	cr_expect_str_eq(a->hash, b->hash);
	camp_campaign_destroy(a);
	camp_campaign_destroy(b);
}

static const char workload_text[] =
	"{\"name\": \"t\", \"ptx\": \"k.ptx\", \"buffers\": {\n"
	"  \"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"file\": \"a.bin\"}},\n"
	"  \"c\": {\"type\": \"f32\", \"count\": 4}},\n"
	" \"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [4], \"args\": [\"a\", "
	"\"c\"]}],\n"
	" \"outputs\": [\"c\"]%s}\n";

/* Writes the workload in tmp/: w.json (with extra top-level text), k.ptx, a.bin. */
static void put_workload(const char *extra, const char *ptx, const char *bin)
{
	char text[1024];
	snprintf(text, sizeof text, workload_text, extra);
	put_text("w.json", text);
	put_text("k.ptx", ptx);
	put_file("a.bin", bin, 16);
}

static void load_hash(const char *campaign, char out[17])
{
	camp_campaign_t *c = load_text(campaign);
	memcpy(out, c->hash, 17);
	camp_campaign_destroy(c);
}

/* The golden run's limits: their defaults, given values, and no part in the
 * campaign's identity (a resume with other limits is the same campaign). */
Test(campaign, golden_limits, .init = tmp_init, .fini = tmp_fini)
{
	char text[8192], h0[17], h[17];
	const char *w = fixture_workload();
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\"}", w);
	camp_campaign_t *c = load_text(text);
	cr_expect_eq(c->golden_watchdog_seconds, 3600.0);
	cr_expect_eq(c->golden_cycle_budget, 10000000000ull);
	memcpy(h0, c->hash, 17);
	camp_campaign_destroy(c);
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\", "
	         "\"golden_watchdog_seconds\": 2.5, \"golden_cycle_budget\": 123456}", w);
	c = load_text(text);
	cr_expect_eq(c->golden_watchdog_seconds, 2.5);
	cr_expect_eq(c->golden_cycle_budget, 123456);
	camp_campaign_destroy(c);
	load_hash(text, h);
	cr_expect_str_eq(h, h0, "the limits are not part of the identity");
}

Test(campaign, hash_follows_definition, .init = tmp_init, .fini = tmp_fini)
{
	static const char bin0[16] = "0123456789abcdef", bin1[16] = "0123456789abcdeF";
	static const char base[] = "{\"workload\": \"w.json\", \"target\": \"regfile\", "
	                           "\"seed\": 7}";
	char h0[17], h[17];

	put_workload("", "// ptx 1\n", bin0);
	load_hash(base, h0);
	load_hash(base, h);
	cr_expect_str_eq(h, h0, "same files, same hash");

	load_hash("{\"workload\": \"w.json\", \"target\": \"regfile\", \"seed\": 8}", h);
	cr_expect_str_neq(h, h0, "seed");
	load_hash("{\"workload\": \"w.json\", \"target\": \"pred\", \"seed\": 7}", h);
	cr_expect_str_neq(h, h0, "target");
	load_hash("{\"workload\": \"w.json\", \"target\": \"regfile\", \"seed\": 7, "
	          "\"gpu\": \"tesla_c2050\"}", h);
	cr_expect_str_neq(h, h0, "gpu");
	load_hash("{\"workload\": \"w.json\", \"target\": \"regfile\", \"seed\": 7, "
	          "\"injections\": 2001}", h);
	cr_expect_str_neq(h, h0, "injections");

	put_workload("", "// ptx 2\n", bin0);
	load_hash(base, h);
	cr_expect_str_neq(h, h0, "PTX content");

	put_workload("", "// ptx 1\n", bin1);
	load_hash(base, h);
	cr_expect_str_neq(h, h0, "input file content");

	put_workload(", \"tolerance\": {\"c\": 0.001}", "// ptx 1\n", bin0);
	load_hash(base, h);
	cr_expect_str_neq(h, h0, "workload JSON content");

	put_workload("", "// ptx 1\n", bin0);
	load_hash(base, h);
	cr_expect_str_eq(h, h0, "everything restored, the hash comes back");
}

/* The identity follows content, not formatting or location (issue 10):
 * re-indenting the workload JSON, reordering its keys, renaming its PTX
 * file or moving the whole project keeps the campaign; the buffers' order
 * (it lays out memory) does not. */
static const char workload_reformatted[] =
	"{\"outputs\":[\"c\"],\"launches\":[{\"args\":[\"a\",\"c\"],\"block\":[4],\"grid\":[1],"
	"\"kernel\":\"k\"}],\n\n   \"buffers\":{\"a\":{\"init\":{\"file\":\"./a.bin\"},\"count\":4,"
	"\"type\":\"f32\"},\"c\":{\"count\":4,\"type\":\"f32\"}},\"ptx\":\"k2.ptx\",\"name\":\"t\"}";
static const char workload_swapped[] =
	"{\"name\": \"t\", \"ptx\": \"k.ptx\", \"buffers\": {\n"
	"  \"c\": {\"type\": \"f32\", \"count\": 4},\n"
	"  \"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"file\": \"a.bin\"}}},\n"
	" \"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [4], \"args\": [\"a\", \"c\"]}],\n"
	" \"outputs\": [\"c\"]}\n";

/* Renames the folder tmp to a new name (the project moved). */
static void move_tmp(void)
{
	char to[sizeof tmp];
	cr_assert_lt(snprintf(to, sizeof to, "%s-moved", tmp), (int)sizeof to);
	cr_assert_eq(rename(tmp, to), 0, "rename %s %s", tmp, to);
	strcpy(tmp, to);
}

Test(campaign, identity_follows_content, .init = tmp_init, .fini = tmp_fini)
{
	static const char bin0[16] = "0123456789abcdef";
	static const char base[] = "{\"workload\": \"w.json\", \"target\": \"regfile\"}";
	char h0[17], h[17], old_tmp[64];
	put_workload("", "// ptx 1\n", bin0);
	put_text("k2.ptx", "// ptx 1\n");
	load_hash(base, h0);

	put_text("w.json", workload_reformatted);
	load_hash(base, h);
	cr_expect_str_eq(h, h0, "re-indented, keys reordered, the PTX file renamed: the same campaign");

	strcpy(old_tmp, tmp);
	move_tmp();
	camp_campaign_t *c = load_text(base);
	cr_expect_str_eq(c->hash, h0, "the project moved: the same campaign");
	cr_expect_null(strstr(c->canonical, old_tmp), "no path in %s", c->canonical);
	cr_expect_null(strstr(c->canonical, tmp), "no path in %s", c->canonical);
	camp_campaign_destroy(c);

	put_text("w.json", workload_swapped);
	load_hash(base, h);
	cr_expect_str_neq(h, h0, "buffers in another order lay out memory otherwise: another campaign");
}

Test(campaign, exec_identity_follows_content, .init = tmp_init, .fini = tmp_fini)
{
	static const char base[] = "{\"workload\": {\"exec\": [\"./prog\", \"in.txt\"]}, \"target\": \"regfile\"}";
	char h0[17], h[17];
	put_text("prog", "#!/bin/sh\nexit 0\n");
	cr_assert_eq(chmod(put_text("prog", "#!/bin/sh\nexit 0\n"), 0755), 0);
	load_hash(base, h0);
	move_tmp();
	camp_campaign_t *c = load_text(base);
	cr_expect_str_eq(c->hash, h0, "the project moved: the same campaign");
	cr_expect_null(strstr(c->canonical, tmp), "no path in %s", c->canonical);
	cr_expect(strstr(c->canonical, "\"exec\":[\"./prog\",\"in.txt\"]") != NULL, "%s", c->canonical);
	camp_campaign_destroy(c);
	cr_assert_eq(chmod(put_text("prog", "#!/bin/sh\nexit 1\n"), 0755), 0);
	load_hash(base, h);
	cr_expect_str_neq(h, h0, "another program: another campaign");
}

/* ---- names -------------------------------------------------------------- */

Test(campaign, names)
{
	static const char *const targets[] = {"regfile", "pred", "smem", "simt", "ibuffer", "fu", "l1d", "l2", "const", "texcache"};
	cr_assert_eq(CAMP_TARGET__COUNT, 10);
	for (int i = 0; i < CAMP_TARGET__COUNT; i++) {
		camp_target_t t;
		cr_expect_str_eq(camp_target_name((camp_target_t)i), targets[i]);
		cr_expect_eq(camp_target_parse(targets[i], &t), 0);
		cr_expect_eq(t, (camp_target_t)i);
	}
	camp_target_t t;
	cr_expect_eq(camp_target_parse("l3", &t), CAMP_EINPUT);
	cr_expect_str_eq(camp_target_name(CAMP_TARGET__COUNT), "?");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_SIMT, CAMP_FIELD_PC), "pc");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_SIMT, CAMP_FIELD_RPC), "rpc");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_SIMT, CAMP_FIELD_MASK), "mask");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_IBUFFER, CAMP_FIELD_VALID), "valid");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_IBUFFER, CAMP_FIELD_INSTR), "instr");
	cr_expect_null(camp_field_name(CAMP_TARGET_IBUFFER, 4));
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_L1D, CAMP_FIELD_DATA), "data");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_L1D, CAMP_FIELD_TAG), "tag");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_L1D, CAMP_FIELD_LINE_VALID), "valid");
	cr_expect_null(camp_field_name(CAMP_TARGET_L1D, CAMP_FIELD_DIRTY), "the L1 holds no dirty data");
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_L2, CAMP_FIELD_DIRTY), "dirty");
	cr_expect_null(camp_field_name(CAMP_TARGET_CONST, CAMP_FIELD_LINE_VALID));
	cr_expect_str_eq(camp_field_name(CAMP_TARGET_TEXCACHE, CAMP_FIELD_TAG), "tag");
	cr_expect_null(camp_field_name(CAMP_TARGET_TEXCACHE, CAMP_FIELD_LINE_VALID), "read-only: data and tag");
	cr_expect_null(camp_field_name(CAMP_TARGET_REGFILE, 1));
	cr_expect_str_eq(camp_model_name(CAMP_MODEL_SINGLE), "single");
	cr_expect_str_eq(camp_model_name(CAMP_MODEL_ADJACENT), "adjacent");
	cr_expect_str_eq(camp_model_name(CAMP_MODEL_MULTI), "multi");
	cr_expect_str_eq(camp_sampling_name(CAMP_SAMPLING_PHYSICAL), "physical");
	cr_expect_str_eq(camp_sampling_name(CAMP_SAMPLING_LIVE), "live");
	cr_expect_str_eq(camp_regs_name(CAMP_REGS_PTX), "ptx");
	cr_expect_str_eq(camp_regs_name(CAMP_REGS_ALLOC), "alloc");
	cr_expect_str_eq(camp_regs_name((camp_regs_t)7), "?");
}

/* ---- workload "tolerance" --------------------------------------------------- */

static camp_workload_t *load_workload(const char *path)
{
	camp_workload_t *w = NULL;
	char err[512];
	cr_assert_eq(camp_workload_load(path, &w, err, sizeof err), 0, "%s: %s", path, err);
	return w;
}

Test(tolerance, per_output)
{
	camp_workload_t *w = load_workload(CDATA "tol_ok.json");
	cr_expect_eq(camp_workload_buffer(w, "c")->tolerance, 1e-6);
	cr_expect_eq(camp_workload_buffer(w, "e")->tolerance, 0.5);
	cr_expect_eq(camp_workload_buffer(w, "g")->tolerance, 0.0, "0 is allowed: exact");
	cr_expect_eq(camp_workload_buffer(w, "d")->tolerance, 0.0, "absent: exact");
	cr_expect_eq(camp_workload_buffer(w, "a")->tolerance, 0.0);
	camp_workload_destroy(w);

	w = load_workload("examples/vadd/vadd.json");
	for (uint32_t i = 0; i < w->nbuffers; i++)
		cr_expect_eq(w->buffers[i].tolerance, 0.0, "no key: every buffer exact");
	camp_workload_destroy(w);
}

static const struct {
	const char *file, *frag1, *frag2;
} bad_tolerances[] = {
	{"tol_bad_type.json", "at $.tolerance:", "expected an object {\"<output buffer>\""},
	{"tol_bad_unknown.json", "at $.tolerance.zz:", "unknown buffer 'zz' (buffers: a, c, d, "
	 "e, g)"},
	{"tol_bad_not_output.json", "at $.tolerance.a:", "buffer 'a' is not an output"},
	{"tol_bad_int.json", "at $.tolerance.d:", "buffer 'd' is u32: tolerances apply only to "
	 "f32 and f64 outputs"},
	{"tol_bad_negative.json", "at $.tolerance.c:", "expected a number >= 0"},
	{"tol_bad_string.json", "at $.tolerance.e:", "expected a number >= 0"},
};

Test(tolerance, bad_inputs)
{
	for (size_t i = 0; i < sizeof bad_tolerances / sizeof bad_tolerances[0]; i++) {
		camp_workload_t *w = (camp_workload_t *)1;
		char err[512], path[256];
		snprintf(path, sizeof path, CDATA "%s", bad_tolerances[i].file);
		cr_expect_eq(camp_workload_load(path, &w, err, sizeof err), CAMP_EINPUT, "%s", path);
		cr_expect_null(w, "%s", path);
		cr_expect(strncmp(err, path, strlen(path)) == 0, "%s: \"%s\"", path, err);
		cr_expect(strstr(err, bad_tolerances[i].frag1) && strstr(err, bad_tolerances[i].frag2),
		          "%s: got \"%s\", want \"%s\" and \"%s\"", path, err,
		          bad_tolerances[i].frag1, bad_tolerances[i].frag2);
	}
}

/* ---- examples/campaigns/ ----------------------------------------------------- */

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

Test(examples, every_campaign_loads_and_is_listed)
{
	DIR *d = opendir(EXAMPLES);
	cr_assert_not_null(d);
	const char *readme = read_text(EXAMPLES "README.md");
	struct dirent *e;
	int n = 0, targets[CAMP_TARGET__COUNT] = {0};
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char path[512], base[256];
		snprintf(path, sizeof path, EXAMPLES "%s", e->d_name);
		snprintf(base, sizeof base, "%.*s", (int)(len - 5), e->d_name);
		camp_campaign_t *c = load_ok(path);
		cr_expect_str_eq(c->name, base, "%s: the name matches the file", path);
		cr_expect(c->injections == 2000 || c->stop_looks, "%s: 2000 injections (or at most, sequential)", path);
		const char *app = c->workload ? c->workload->name : strrchr(c->exec->argv[0], '/') + 1;
		cr_expect(!strncmp(c->name, app, strlen(app)), "%s: named <app>-<target>", path);
		cr_expect(strstr(c->name, camp_target_name(c->target)) != NULL, "%s", path);
		cr_expect(strstr(readme, e->d_name) != NULL, "README.md does not list %s",
		          e->d_name);
		targets[c->target]++;
		n++;
		camp_campaign_destroy(c);
	}
	closedir(d);
	cr_expect_geq(n, 15);
	for (int i = 0; i < CAMP_TARGET__COUNT; i++)
		cr_expect_gt(targets[i], 0, "no example for %s", camp_target_name((camp_target_t)i));
}

Test(examples, special_campaigns)
{
	camp_campaign_t *c = load_ok(EXAMPLES "scalarprod-regfile-kernel.json");
	cr_expect_eq(c->scope, CAMP_SCOPE_KERNEL);
	cr_expect_str_eq(c->kernel, "scalarprod");
	cr_expect_eq(c->invocation, 0);
	camp_campaign_destroy(c);
	c = load_ok(EXAMPLES "vadd-regfile-adjacent.json");
	cr_expect_eq(c->model, CAMP_MODEL_ADJACENT);
	cr_expect_eq(c->model_k, 2);
	camp_campaign_destroy(c);
	c = load_ok(EXAMPLES "scalarprod-smem-multi.json");
	cr_expect_eq(c->model, CAMP_MODEL_MULTI);
	cr_expect_eq(c->model_k, 2);
	camp_campaign_destroy(c);
	c = load_ok(EXAMPLES "vadd-ibuffer-valid.json");
	cr_expect_eq(c->fields, CAMP_FIELD_VALID);
	camp_campaign_destroy(c);
	c = load_ok(EXAMPLES "vadd-ibuffer-instr.json");
	cr_expect_eq(c->fields, CAMP_FIELD_INSTR);
	camp_campaign_destroy(c);
	c = load_ok(EXAMPLES "scalarprod-simt.json");
	cr_expect_eq(c->fields, CAMP_FIELD_PC | CAMP_FIELD_RPC | CAMP_FIELD_MASK);
	camp_campaign_destroy(c);
	/* stratified, then stratified and sequential (at most 32000, ±40 %) */
	static const char *const sampled[] = {EXAMPLES "bfs-regfile-strata.json", EXAMPLES "bfs-regfile-stop.json"};
	for (int i = 0; i < 2; i++) {
		c = load_ok(sampled[i]);
		cr_expect_eq(c->strata, CAMP_STRATA_KERNEL, "%s", sampled[i]);
		cr_expect_eq(c->stop_looks, i ? 5u : 0u, "%s", sampled[i]);
		cr_expect_eq(c->stop_relative, i ? 0.4 : 0.0, "%s", sampled[i]);
		cr_expect_eq(c->injections, i ? 32000u : 2000u, "%s", sampled[i]);
		camp_campaign_destroy(c);
	}
}

/* GUFI's 55 campaigns (examples/campaigns/gufi/, written by its gen.sh): 12
 * applications × the register file in ptx and in alloc mode, the SIMT
 * stacks' active masks and the instruction buffers' valid bits, plus shared
 * memory for the 7 applications that use it, those three in alloc mode;
 * each loads, and is what its name says. */
Test(examples, gufi_study_campaigns)
{
	static const char *const apps[] = {"bfs", "ccp", "ge", "hs", "km", "lps",
	                                   "lud", "ms", "nw", "pathf", "spg", "vaddg"};
	static const char *const smem_apps = " hs lps lud ms nw pathf spg ";
	static const struct {
		const char *structure;
		camp_target_t target;
		camp_regs_t regs;
		uint32_t fields;
	} kinds[] = {
		{"regfile-ptx", CAMP_TARGET_REGFILE, CAMP_REGS_PTX, 0},
		{"regfile-alloc", CAMP_TARGET_REGFILE, CAMP_REGS_ALLOC, 0},
		{"simt-mask", CAMP_TARGET_SIMT, CAMP_REGS_ALLOC, CAMP_FIELD_MASK},
		{"ibuffer-valid", CAMP_TARGET_IBUFFER, CAMP_REGS_ALLOC, CAMP_FIELD_VALID},
		{"smem", CAMP_TARGET_SMEM, CAMP_REGS_ALLOC, 0},
	};
	int files = 0, loaded = 0;
	DIR *d = opendir(EXAMPLES "gufi");
	cr_assert_not_null(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		files += len > 5 && !strcmp(e->d_name + len - 5, ".json");
	}
	closedir(d);
	cr_expect_eq(files, 55, "examples/campaigns/gufi holds %d campaigns", files);
	for (size_t a = 0; a < sizeof apps / sizeof *apps; a++) {
		char padded[16];
		snprintf(padded, sizeof padded, " %s ", apps[a]);
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			if (kinds[k].target == CAMP_TARGET_SMEM && !strstr(smem_apps, padded))
				continue;
			char path[256], name[64], err[1024], prog[64];
			snprintf(name, sizeof name, "%s-%s", apps[a], kinds[k].structure);
			snprintf(path, sizeof path, EXAMPLES "gufi/%s.json", name);
			snprintf(prog, sizeof prog, "/build/examples/%s", apps[a]);
			camp_campaign_t *c = NULL;
			int rc = camp_campaign_load(path, &c, err, sizeof err);
			cr_expect_eq(rc, 0, "%s", err);
			if (rc)
				continue;
			loaded++;
			cr_expect_str_eq(c->name, name, "%s", path);
			cr_expect_eq(c->target, kinds[k].target, "%s", path);
			cr_expect_eq(c->regs, kinds[k].regs, "%s", path);
			cr_expect_eq(c->fields, kinds[k].fields, "%s", path);
			cr_expect_eq(c->scope, CAMP_SCOPE_APPLICATION, "%s", path);
			cr_expect(c->injections == 2000 || c->stop_looks, "%s: 2000 injections (or at most, sequential)", path);
			cr_expect_eq(c->model, CAMP_MODEL_SINGLE, "%s", path);
			/* GUFI's ptx mode: the threads' virtual registers, drawn among those in use */
			cr_expect_eq(c->sampling, c->regs == CAMP_REGS_PTX ? CAMP_SAMPLING_LIVE : CAMP_SAMPLING_PHYSICAL, "%s",
			             path);
			cr_expect_str_eq(c->gpu.name, "gtx480", "%s", path);
			cr_expect_float_eq(c->fit_per_bit, 0.001, 1e-15, "%s", path);
			cr_assert_not_null(c->exec, "%s: a host program", path);
			size_t plen = strlen(c->exec->argv[0]), slen = strlen(prog);
			cr_expect(plen > slen && !strcmp(c->exec->argv[0] + plen - slen, prog), "%s: runs %s",
			          path, c->exec->argv[0]);
			camp_campaign_destroy(c);
		}
	}
	cr_expect_eq(loaded, 55);
}
