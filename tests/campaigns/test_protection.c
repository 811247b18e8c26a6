/* Tests of the "protection" object (campaigns/camp_prot.c): the campaign
 * key in both shapes, every bad input with its message and JSON path, the
 * identity (unchanged without the key or with nothing protected, changed
 * with a code), the fault space with check bits, the file form that exec
 * and profile read (camp_protection_load), and the runtime job file's
 * "protection" record read back by a program's GPU. Run from the
 * repository root. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "../engine/runs.h"
#include "campaigns.h"

#define CDATA "tests/campaigns/data/campaign/"

static char tmp[64];

static void tmp_init(void) { runs_tmpdir(tmp, sizeof tmp, "prot"); }

static void tmp_fini(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	cr_expect_eq(system(cmd), 0);
}

/* Writes text to tmp/name; the path in a static buffer. */
static const char *put_text(const char *name, const char *text)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", tmp, name);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f, "%s", p);
	fputs(text, f);
	fclose(f);
	return p;
}

/* A campaign on the fixture workload: target, regs, fault model and the
 * "protection" value (NULL: no key) as JSON text, in tmp/c.json. */
static const char *campaign(const char *target, const char *regs, const char *model, const char *prot)
{
	static char text[4096];
	char w[4096];
	cr_assert_not_null(realpath(CDATA "w.json", w));
	int n = snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"%s\", \"regs\": \"%s\", "
	                 "\"fault_model\": %s", w, target, regs, model);
	snprintf(text + n, sizeof text - (size_t)n, "%s%s}", prot ? ", \"protection\": " : "", prot ? prot : "");
	return put_text("c.json", text);
}

static camp_campaign_t *load_ok(const char *path)
{
	camp_campaign_t *c = NULL;
	char err[1024];
	cr_assert_eq(camp_campaign_load(path, &c, err, sizeof err), 0, "%s", err);
	return c;
}

static const char *single = "{\"kind\": \"single\"}";

Test(protection, both_shapes_and_canonical_text, .init = tmp_init, .fini = tmp_fini)
{
	camp_campaign_t *c = load_ok(campaign("regfile", "alloc", single,
	                                      "{\"regfile\": {\"code\": \"secded\"}, \"pred\": \"parity\", "
	                                      "\"smem\": {\"code\": \"secded64\"}, \"interleave\": 2}"));
	cr_expect_eq(c->prot.regfile, SC_CODE_SECDED);
	cr_expect_eq(c->prot.pred, SC_CODE_PARITY);
	cr_expect_eq(c->prot.smem, SC_CODE_SECDED64);
	cr_expect_eq(c->prot.interleave, 2);
	cr_expect(strstr(c->canonical, "\"protection\":{\"interleave\":2,\"pred\":\"parity\",\"regfile\":\"secded\","
	                               "\"smem\":\"secded64\"}"), "%s", c->canonical);
	cr_expect_eq(camp_protection_code(&c->prot, CAMP_TARGET_PRED), SC_CODE_PARITY);
	cr_expect_eq(camp_protection_code(&c->prot, CAMP_TARGET_SIMT), SC_CODE_NONE);
	camp_campaign_destroy(c);
}

/* The fault space counts check bits: a secded regfile has 39 bits per 32,
 * and an adjacent fault may span an interleaving group of codewords. */
Test(protection, fault_space_has_check_bits, .init = tmp_init, .fini = tmp_fini)
{
	camp_campaign_t *c = load_ok(campaign("regfile", "alloc", single, NULL));
	uint32_t wb;
	uint64_t plain = camp_campaign_bits(c, &wb);
	cr_expect_eq(wb, 32);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", "{\"kind\": \"adjacent\", \"bits\": 2}",
	                     "{\"regfile\": \"secded\", \"interleave\": 2}"));
	cr_expect_eq(camp_campaign_bits(c, &wb), plain / 32 * 39);
	cr_expect_eq(wb, 78, "two interleaved codewords");
	camp_campaign_destroy(c);
	c = load_ok(campaign("smem", "ptx", single, "{\"smem\": \"secded64\"}"));
	cr_expect_eq(camp_campaign_bits(c, &wb), (uint64_t)c->gpu.smem_per_sm * 8 / 64 * 72);
	camp_campaign_destroy(c);
}

/* Without the key, or with a key that protects nothing, the identity is
 * the one campaigns had before protection existed; a code changes it. */
Test(protection, identity_only_when_protected, .init = tmp_init, .fini = tmp_fini)
{
	char h0[17];
	camp_campaign_t *c = load_ok(campaign("regfile", "alloc", single, NULL));
	snprintf(h0, sizeof h0, "%s", c->hash);
	cr_expect(!strstr(c->canonical, "protection"), "%s", c->canonical);
	camp_campaign_destroy(c);
	static const char *const same[] = {"{}", "{\"regfile\": \"none\"}", "{\"pred\": {\"code\": \"none\"}, "
	                                   "\"interleave\": 1}"};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		c = load_ok(campaign("regfile", "alloc", single, same[i]));
		cr_expect_str_eq(c->hash, h0, "%s", same[i]);
		camp_campaign_destroy(c);
	}
	static const char *const other[] = {"{\"regfile\": \"secded\"}", "{\"smem\": \"parity\"}",
	                                    "{\"regfile\": \"secded\", \"interleave\": 4}",
	                                    "{\"ibuffer\": {\"scheme\": \"sawp\"}}",
	                                    "{\"ibuffer\": {\"scheme\": \"sawp\", \"table_entries\": 8}}",
	                                    "{\"sharp\": true}", "{\"sharp\": {\"warp_table\": 8}}",
	                                    "{\"refu\": true}", "{\"refu\": {\"replay_buffer\": 4}}"};
	char seen[9][17];
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		c = load_ok(campaign("regfile", "alloc", single, other[i]));
		cr_expect_str_neq(c->hash, h0, "%s", other[i]);
		snprintf(seen[i], sizeof seen[i], "%s", c->hash);
		for (size_t k = 0; k < i; k++)
			cr_expect_str_neq(seen[k], seen[i], "%s", other[i]);
		camp_campaign_destroy(c);
	}
	/* SHARP's defaults written out, or false: one identity each */
	c = load_ok(campaign("regfile", "alloc", single, "{\"sharp\": {\"request_queue\": 16, \"ecc\": \"secded\"}}"));
	cr_expect_str_eq(c->hash, seen[5]);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", single, "{\"sharp\": false}"));
	cr_expect_str_eq(c->hash, h0);
	camp_campaign_destroy(c);
	/* Penny: its own identity, its defaults written out the same */
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\"}}"));
	cr_expect_str_neq(c->hash, h0);
	for (size_t k = 0; k < sizeof other / sizeof *other; k++)
		cr_expect_str_neq(c->hash, seen[k]);
	cr_expect(strstr(c->canonical, "\"penny\":{\"edc\":\"parity\",\"include_pred\":false,\"mode\":\"oracle\","
	                 "\"recovery_penalty\":50}"), "%s", c->canonical);
	char penny[17];
	snprintf(penny, sizeof penny, "%s", c->hash);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"oracle\", "
	                     "\"recovery_penalty\": 50, \"include_pred\": false}}"));
	cr_expect_str_eq(c->hash, penny);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"secded\"}}"));
	cr_expect_str_neq(c->hash, penny);
	camp_campaign_destroy(c);
	/* compiled: its own identity, the compiler's defaults written out */
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\"}}"));
	cr_expect_str_neq(c->hash, penny);
	cr_expect(strstr(c->canonical, "\"mode\":\"compiled\",\"pruning\":\"basic\",\"recovery_penalty\":50,"
	                 "\"storage\":\"auto\"}"), "%s", c->canonical);
	char pennyc[17];
	snprintf(pennyc, sizeof pennyc, "%s", c->hash);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", "
	                     "\"pruning\": \"basic\", \"storage\": \"auto\"}}"));
	cr_expect_str_eq(c->hash, pennyc);
	camp_campaign_destroy(c);
	/* each storage its own identity; block_size only when given */
	static const char *const store[] = {"\"storage\": \"global\"", "\"storage\": \"shared\"", "\"block_size\": 128"};
	char hs[3][17];
	for (int i = 0; i < 3; i++) {
		char pj[160];
		snprintf(pj, sizeof pj, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", %s}}", store[i]);
		c = load_ok(campaign("regfile", "alloc", single, pj));
		cr_expect_str_neq(c->hash, pennyc, "%s", store[i]);
		for (int j = 0; j < i; j++)
			cr_expect_str_neq(c->hash, hs[j], "%s", store[i]);
		snprintf(hs[i], sizeof hs[i], "%s", c->hash);
		if (i == 2)
			cr_expect(strstr(c->canonical, "\"block_size\":128"), "%s", c->canonical);
		camp_campaign_destroy(c);
	}
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", "
	                     "\"pruning\": \"none\"}}"));
	cr_expect_str_neq(c->hash, pennyc);
	char none[17];
	snprintf(none, sizeof none, "%s", c->hash);
	camp_campaign_destroy(c);
	c = load_ok(campaign("regfile", "alloc", single, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", "
	                     "\"pruning\": \"optimal\"}}"));
	cr_expect_str_neq(c->hash, pennyc);
	cr_expect_str_neq(c->hash, none);
	cr_expect(strstr(c->canonical, "\"pruning\":\"optimal\""), "%s", c->canonical);
	camp_campaign_destroy(c);
	/* REFU's default buffer (2) written out, or false: the same */
	c = load_ok(campaign("fu", "alloc", single, "{\"refu\": {\"replay_buffer\": 2}}"));
	camp_campaign_t *d = load_ok(campaign("fu", "alloc", single, "{\"refu\": true}"));
	cr_expect_str_eq(c->hash, d->hash);
	cr_expect(strstr(c->canonical, "\"refu\":{\"replay_buffer\":2}"), "%s", c->canonical);
	camp_campaign_destroy(c);
	camp_campaign_destroy(d);
	c = load_ok(campaign("regfile", "alloc", single, "{\"refu\": false}"));
	cr_expect_str_eq(c->hash, h0);
	camp_campaign_destroy(c);
	/* interleave 0 and 1 both mean none: one identity */
	c = load_ok(campaign("regfile", "alloc", single, "{\"regfile\": \"secded\", \"interleave\": 0}"));
	cr_expect_str_eq(c->hash, seen[0]);
	camp_campaign_destroy(c);
}

static const struct {
	const char *target, *regs, *model, *prot, *path, *frag;
} bad[] = {
	{"regfile", "alloc", NULL, "\"secded\"", "at $.protection:", "expected an object {\"regfile\": {\"code\": C}"},
	{"regfile", "alloc", NULL, "{\"regs\": \"secded\"}", "at $.protection:",
	 "unknown key 'regs' (expected regfile, pred, smem, l1d, l2, const, interleave, ibuffer, sharp, penny, refu, dup)"},
	{"regfile", "alloc", NULL, "{\"penny\": true}", "at $.protection.penny:", "expected an object {\"edc\""},
	{"regfile", "alloc", NULL, "{\"penny\": {}}", "at $.protection.penny:", "missing key 'edc'"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"dected\"}}", "at $.protection.penny.edc:",
	 "expected parity, hamming or secded"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"pruning\": \"best\"}}",
	 "at $.protection.penny.pruning:", "expected \"basic\" (values recomputable from immediates, special registers, "
	 "ld.param, ld.const get no checkpoint), \"optimal\" (also values that recovery recomputes"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"pruning\": 2}}",
	 "at $.protection.penny.pruning:", "or \"none\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"pruning\": \"optimal\"}}",
	 "at $.protection.penny.pruning:", "only with \"mode\": \"compiled\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"storage\": \"local\"}}",
	 "at $.protection.penny.storage:", "expected \"auto\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"storage\": 1}}",
	 "at $.protection.penny.storage:", "\"shared\" or \"global\""},
	{"regfile", "alloc", NULL,
	 "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"storage\": \"shared\", \"block_size\": 128}}",
	 "at $.protection.penny.block_size:", "only with \"mode\": \"compiled\" and \"storage\": \"auto\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"block_size\": 128}}",
	 "at $.protection.penny.block_size:", "storage auto's occupancy assumption"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"block_size\": 2048}}",
	 "at $.protection.penny.block_size:", "expected an integer in 1..1024"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"block_size\": \"256\"}}",
	 "at $.protection.penny.block_size:", "expected an integer in 1..1024"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"pruning\": \"none\"}}",
	 "at $.protection.penny.pruning:", "only with \"mode\": \"compiled\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"storage\": \"global\"}}",
	 "at $.protection.penny.storage:", "only with \"mode\": \"compiled\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"include_pred\": true}}",
	 "at $.protection.penny.include_pred:", "include_pred needs mode oracle"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"mode\": \"eager\"}}",
	 "at $.protection.penny.mode:", "expected \"oracle\" or \"compiled\""},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"recovery_penalty\": 0}}",
	 "at $.protection.penny.recovery_penalty:", "expected an integer in 1..1048576"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"include_pred\": 1}}",
	 "at $.protection.penny.include_pred:", "expected true or false"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"slots\": 2}}",
	 "at $.protection.penny:", "unknown key 'slots'"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\"}, \"regfile\": \"secded\"}",
	 "at $.protection.regfile:", "penny.edc replaces the register file's code"},
	{"pred", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\", \"include_pred\": true}, \"pred\": \"parity\"}",
	 "at $.protection.pred:", "penny with include_pred puts its edc on the predicates"},
	{"regfile", "alloc", NULL, "{\"penny\": {\"edc\": \"parity\"}, \"sharp\": true}", "at $.protection.sharp:",
	 "sharp and penny both act on the register file's errors: choose one"},
	{"regfile", "ptx", NULL, "{\"penny\": {\"edc\": \"secded\"}}", "at $.protection:",
	 "penny's regions and checkpoints are on allocated registers: use regs alloc, not ptx"},
	{"regfile", "alloc", "{\"kind\": \"stuck_at\", \"value\": 1}", "{\"penny\": {\"edc\": \"parity\"}}",
	 "at $.fault_model.kind:", "\"stuck_at\" is not modelled on a protected regfile (its words are parity"},
	{"fu", "alloc", NULL, "{\"refu\": 2}", "at $.protection.refu:", "expected true, false or an object "
	 "{\"replay_buffer\": B} (B: 1 to 4 entries, 2 by default)"},
	{"fu", "alloc", NULL, "{\"refu\": {\"replay_buffer\": 5}}", "at $.protection.refu.replay_buffer:",
	 "expected an integer in 1..4"},
	{"fu", "alloc", NULL, "{\"refu\": {\"replay_buffer\": 0}}", "at $.protection.refu.replay_buffer:",
	 "expected an integer in 1..4"},
	{"fu", "alloc", NULL, "{\"refu\": {\"replay_buffer\": \"2\"}}", "at $.protection.refu.replay_buffer:",
	 "expected an integer in 1..4"},
	{"fu", "alloc", NULL, "{\"refu\": {\"recovery\": \"rollback\"}}", "at $.protection.refu:",
	 "unknown key 'recovery' (expected replay_buffer)"},
	{"regfile", "alloc", NULL, "{\"dup\": \"memory\"}", "at $.protection.dup:", "expected an object {\"protect\""},
	{"regfile", "alloc", NULL, "{\"dup\": {}}", "at $.protection.dup:", "missing key 'protect'"},
	{"regfile", "alloc", NULL, "{\"dup\": {\"protect\": \"mem\"}}", "at $.protection.dup.protect:",
	 "expected memory (load and store addresses and store data), setp"},
	{"regfile", "alloc", NULL, "{\"dup\": {\"protect\": \"all\", \"variant\": \"hw\"}}",
	 "at $.protection.dup.variant:", "expected sw (plain checks and a notifying trap) or ra"},
	{"regfile", "alloc", NULL, "{\"dup\": {\"protect\": \"all\", \"atomics\": 1}}",
	 "at $.protection.dup.atomics:", "expected true or false"},
	{"regfile", "alloc", NULL, "{\"dup\": {\"protect\": \"all\", \"replicas\": 2}}", "at $.protection.dup:",
	 "unknown key 'replicas' (expected protect, variant, atomics)"},
	{"regfile", "alloc", NULL, "{\"sharp\": 1}", "at $.protection.sharp:", "expected true, false or an object"},
	{"regfile", "alloc", NULL, "{\"sharp\": {\"queue\": 4}}", "at $.protection.sharp:", "unknown key 'queue'"},
	{"regfile", "alloc", NULL, "{\"sharp\": {\"warp_table\": 0}}", "at $.protection.sharp.warp_table:",
	 "expected an integer in 1..1024"},
	{"regfile", "alloc", NULL, "{\"sharp\": {\"ecc\": \"parity\"}}", "at $.protection.sharp.ecc:",
	 "expected \"secded\""},
	{"regfile", "alloc", NULL, "{\"sharp\": true, \"regfile\": \"secded\"}", "at $.protection:",
	 "sharp protects the register file itself: regfile code must be none, not secded"},
	{"regfile", "unalloc", NULL, "{\"sharp\": true}", "at $.protection:",
	 "sharp protects the physical registers of a warp: use regs alloc, not unalloc"},
	{"l1d", "alloc", NULL, "{\"l1d\": \"secdd\"}", "at $.protection.l1d:",
	 "expected a code name (none, parity, hamming, secded, secded64 or dected) or {\"code\": NAME}"},
	{"const", "alloc", NULL, "{\"const\": {\"code\": \"ecc\"}}", "at $.protection.const.code:",
	 "expected a code name"},
	{"l2", "alloc", NULL, "{\"l2\": {\"code\": \"secded\", \"ways\": 2}}", "at $.protection.l2:",
	 "unknown key 'ways' (expected code, tag)"},
	{"l1d", "alloc", NULL, "{\"l1d\": {\"code\": \"none\", \"tag\": \"secded\"}}", "at $.protection.l1d.tag:",
	 "expected none or parity (a parity bit on each line's tag)"},
	{"regfile", "alloc", NULL, "{\"smem\": {\"code\": \"parity\", \"tag\": \"parity\"}}", "at $.protection.smem:",
	 "unknown key 'tag' (expected code)"},
	{"l2", "alloc", NULL, "{\"l2\": \"secded64\", \"interleave\": 8}", "at $.protection:",
	 "l2: 32-byte sectors are not a whole number of 64-byte interleaved codeword groups"},
	{"regfile", "alloc", NULL, "{\"regfile\": \"secdd\"}", "at $.protection.regfile:",
	 "expected a code name (none, parity, hamming, secded, secded64 or dected) or {\"code\": NAME}"},
	{"regfile", "alloc", NULL, "{\"regfile\": 7}", "at $.protection.regfile:", "expected a code name"},
	{"regfile", "alloc", NULL, "{\"smem\": {\"code\": \"ecc\"}}", "at $.protection.smem.code:",
	 "expected a code name (none, parity, hamming, secded, secded64 or dected)"},
	{"regfile", "alloc", NULL, "{\"pred\": {}}", "at $.protection.pred:", "missing key 'code'"},
	{"regfile", "alloc", NULL, "{\"pred\": {\"code\": \"parity\", \"bits\": 1}}", "at $.protection.pred:",
	 "unknown key 'bits' (expected code)"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": \"sawp\"}", "at $.protection.ibuffer:", "expected an object"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": {}}", "at $.protection.ibuffer:", "missing key 'scheme'"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": {\"scheme\": \"sawq\"}}", "at $.protection.ibuffer.scheme:",
	 "expected none, parity, ecc, sawp, sawp_min or sawp_fs"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": {\"scheme\": \"sawp\", \"table_entries\": 65}}",
	 "at $.protection.ibuffer.table_entries:", "expected an integer in 1..64"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": {\"scheme\": \"sawp\", \"size\": 4}}", "at $.protection.ibuffer:",
	 "unknown key 'size'"},
	{"ibuffer", "alloc", NULL, "{\"ibuffer\": {\"scheme\": \"parity\", \"table_entries\": 4}}", "at $.protection:",
	 "ibuffer: table entries, threshold and progress window belong to the sawp schemes, not parity"},
	{"regfile", "alloc", NULL, "{\"regfile\": \"secded\", \"interleave\": 3}", "at $.protection.interleave:",
	 "expected 1, 2, 4 or 8"},
	{"regfile", "alloc", NULL, "{\"regfile\": \"secded\", \"interleave\": \"2\"}", "at $.protection.interleave:",
	 "expected 1, 2, 4 or 8"},
	{"regfile", "alloc", NULL, "{\"regfile\": \"secded64\"}", "at $.protection:",
	 "regfile words are 32 bits: secded64 protects 64-bit shared-memory granules only"},
	{"pred", "ptx", NULL, "{\"pred\": \"parity\"}", "at $.protection:",
	 "pred codes protect the physical predicate words: use regs alloc or unalloc"},
	{"regfile", "alloc", "{\"kind\": \"zero_value\"}", "{\"regfile\": \"secded\"}", "at $.fault_model.kind:",
	 "\"zero_value\" is not modelled on a protected regfile (its words are secded codewords)"},
	{"smem", "alloc", "{\"kind\": \"stuck_at\", \"value\": 1}", "{\"smem\": \"parity\"}", "at $.fault_model.kind:",
	 "\"stuck_at\" is not modelled on a protected smem"},
	{"pred", "alloc", "{\"kind\": \"intermittent\", \"value\": 0, \"period\": 10, \"duration\": 2}",
	 "{\"pred\": \"hamming\"}", "at $.fault_model.kind:", "\"intermittent\" is not modelled on a protected pred"},
};

Test(protection, bad_inputs, .init = tmp_init, .fini = tmp_fini)
{
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *path = campaign(bad[i].target, bad[i].regs, bad[i].model ? bad[i].model : single, bad[i].prot);
		camp_campaign_t *c = (camp_campaign_t *)1;
		char err[1024], want[300];
		cr_expect_eq(camp_campaign_load(path, &c, err, sizeof err), CAMP_EINPUT, "%s", bad[i].prot);
		cr_expect_null(c);
		snprintf(want, sizeof want, "%s: %s", path, bad[i].path);
		cr_expect(!strncmp(err, want, strlen(want)) && strstr(err, bad[i].frag), "%s: got \"%s\", want \"%s\" "
		          "then \"%s\"", bad[i].prot, err, want, bad[i].frag);
	}
}

/* The caches' codes: their own keys, in the identity only when set, and
 * the data field's codewords in the fault space. */
Test(protection, cache_codes, .init = tmp_init, .fini = tmp_fini)
{
	camp_campaign_t *c = load_ok(campaign("l1d", "alloc", single, NULL));
	char h0[17];
	snprintf(h0, sizeof h0, "%s", c->hash);
	camp_campaign_destroy(c);
	c = load_ok(campaign("l1d", "alloc", single, "{\"l1d\": \"none\", \"l2\": {\"code\": \"none\"}}"));
	cr_expect_str_eq(c->hash, h0, "no code: the identity of old");
	camp_campaign_destroy(c);
	c = load_ok(campaign("l1d", "alloc", single, "{\"l1d\": {\"code\": \"secded\"}, \"l2\": \"parity\", "
	                     "\"const\": \"dected\"}"));
	cr_expect_str_neq(c->hash, h0);
	cr_expect_eq(c->prot.l1d, SC_CODE_SECDED);
	cr_expect_eq(c->prot.l2, SC_CODE_PARITY);
	cr_expect_eq(c->prot.cc, SC_CODE_DECTED);
	cr_expect(strstr(c->canonical, "\"const\":\"dected\"") && strstr(c->canonical, "\"l1d\":\"secded\"") &&
	          strstr(c->canonical, "\"l2\":\"parity\""), "%s", c->canonical);
	cr_expect_eq(camp_protection_code(&c->prot, CAMP_TARGET_L1D), SC_CODE_SECDED);
	cr_expect_eq(camp_protection_code(&c->prot, CAMP_TARGET_CONST), SC_CODE_DECTED);
	uint32_t wb;
	uint64_t lines = c->gpu.l1_bytes / c->gpu.l1_line;
	cr_expect_eq(camp_campaign_bits(c, &wb), lines * (c->gpu.l1_line / 4 * 39 + 28 + 1), "check bits counted");
	char h1[17];
	snprintf(h1, sizeof h1, "%s", c->hash);
	camp_campaign_destroy(c);
	/* a parity bit on the tags: one more bit per line, another identity */
	c = load_ok(campaign("l1d", "alloc", single, "{\"l1d\": {\"code\": \"secded\", \"tag\": \"parity\"}, "
	                     "\"l2\": \"parity\", \"const\": \"dected\"}"));
	cr_expect_eq(c->prot.l1d_tag, SC_CODE_PARITY);
	cr_expect(strstr(c->canonical, "\"l1d\":{\"code\":\"secded\",\"tag\":\"parity\"}"), "%s", c->canonical);
	cr_expect_str_neq(c->hash, h1);
	cr_expect_eq(camp_campaign_bits(c, &wb), lines * (c->gpu.l1_line / 4 * 39 + 28 + 1 + 1));
	camp_campaign_destroy(c);
}

/* A code elsewhere leaves the fault model free: zero_value on an
 * unprotected regfile of a machine whose smem is protected. */
Test(protection, models_free_on_unprotected_targets, .init = tmp_init, .fini = tmp_fini)
{
	camp_campaign_t *c = load_ok(campaign("regfile", "alloc", "{\"kind\": \"zero_value\"}", "{\"smem\": \"secded\"}"));
	cr_expect_eq(c->prot.smem, SC_CODE_SECDED);
	camp_campaign_destroy(c);
}

/* The file form of --protection: the same object at $. */
Test(protection, file_form, .init = tmp_init, .fini = tmp_fini)
{
	sc_gpu_config_t cfg;
	sc_protection_t p;
	char err[1024];
	sc_config_gtx480(&cfg);
	const char *f = put_text("p.json", "{\"regfile\": {\"code\": \"dected\"}, \"interleave\": 8}");
	cr_assert_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	cr_expect_eq(p.regfile, SC_CODE_DECTED);
	cr_expect_eq(p.interleave, 8);
	/* ptx mode's virtual registers have no physical neighbours to interleave with */
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_PTX, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json: at $: interleave 8"), "%s", err);
	f = put_text("p.json", "{\"pred\": \"parity\"}");
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_PTX, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json: at $: pred codes protect the physical predicate words"), "%s", err);
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	f = put_text("p.json", "{\"regfile\": {\"code\": \"secded\"},}");
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_PTX, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json:1:"), "a syntax error names line and column: %s", err);
	f = put_text("p.json", "{\"penny\": {\"edc\": \"hamming\", \"recovery_penalty\": 20, \"include_pred\": true}}");
	cr_assert_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	cr_expect(p.penny.on && p.penny.edc == SC_CODE_HAMMING && p.penny.recovery_penalty == 20 && p.penny.include_pred);
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_UNALLOC, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json: at $: penny's regions and checkpoints are on allocated registers"), "%s", err);
	f = put_text("p.json", "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"pruning\": \"none\", "
	             "\"storage\": \"global\"}}");
	cr_assert_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	cr_expect(p.penny.on && p.penny.mode == SC_PENNY_COMPILED && p.penny.pruning == SC_PENNY_PRUNE_NONE &&
	          p.penny.storage == SC_PENNY_STORE_GLOBAL);
	f = put_text("p.json", "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"storage\": \"shared\"}}");
	cr_assert_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	cr_expect(p.penny.storage == SC_PENNY_STORE_SHARED && !p.penny.block_size);
	f = put_text("p.json", "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"block_size\": 96}}");
	cr_assert_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), 0, "%s", err);
	cr_expect(p.penny.storage == SC_PENNY_STORE_AUTO && p.penny.block_size == 96);
	f = put_text("p.json", "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"storage\": \"auto\", "
	             "\"block_size\": 0}}");
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_ALLOC, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json: at $.penny.block_size: expected an integer in 1..1024"), "%s", err);
	f = put_text("p.json", "[]");
	cr_expect_eq(camp_protection_load(f, &cfg, SC_REGS_PTX, &p, err, sizeof err), CAMP_EINPUT);
	cr_expect(strstr(err, "p.json: at $: expected an object"), "%s", err);
}

/* ---- the job file's record -------------------------------------------------- */

/* A golden job of gtx480 in register mode regs with protection p, at path. */
static void job_write(const char *path, sc_regs_t regs, sc_protection_t p)
{
	sc_rt_job_t j = {.mode = SC_RT_GOLDEN, .regs = regs, .prot = p};
	sc_config_gtx480(&j.cfg);
	cr_assert_eq(sc_rt_job_write(path, &j), 0);
}

/* A program's sc_gpu_create under the job at path (in a child, result
 * channel on /dev/null): its exit status, 0 when the GPU was created. */
static int job_gpu(const char *path)
{
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);
		dup2(nul, 3);
		dup2(nul, 2);
		setenv(SC_RT_ENV, path, 1);
		sc_gpu_config_t cfg;
		sc_config_gtx480(&cfg);
		sc_gpu_t *g = NULL;
		_exit(sc_gpu_create(&cfg, NULL, &g) ? 1 : 0);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The text of the file at path (at most 8191 bytes) into buf. */
static void read_text(const char *path, char buf[8192])
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	size_t n = fread(buf, 1, 8191, f);
	fclose(f);
	buf[n] = '\0';
}

static bool file_has(const char *path, const char *text)
{
	char buf[8192];
	read_text(path, buf);
	return strstr(buf, text) != NULL;
}

/* Written by flipsim, read by the program's libsimcore: the codes reach
 * the program's GPU, whose creation checks them against the register mode
 * (a pred code in ptx mode is refused there, so only a read record can
 * make it fail). */
Test(protection, job_file_round_trip, .init = tmp_init, .fini = tmp_fini)
{
	char path[256];
	snprintf(path, sizeof path, "%s/job", tmp);
	sc_protection_t p = {.regfile = SC_CODE_SECDED, .pred = SC_CODE_PARITY, .smem = SC_CODE_SECDED64, .interleave = 4};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection secded parity secded64 4\n"));
	cr_expect_eq(job_gpu(path), 0, "a valid protection read back");
	job_write(path, SC_REGS_PTX, p);
	cr_expect_eq(job_gpu(path), 1, "the pred code reached the GPU, which refuses it in ptx mode");
	p = (sc_protection_t){.interleave = 1, .sharp = {.on = true, .warp_table = 8}};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 1 none 0 0 0 0 sharp 0 8 none\n"));
	cr_expect_eq(job_gpu(path), 0, "SHARP read back");
	job_write(path, SC_REGS_UNALLOC, p);
	cr_expect_eq(job_gpu(path), 1, "SHARP reached the GPU, which refuses it outside alloc mode");
	/* the caches' codes after the instruction buffer's fields; a code the
	 * GPU refuses (8 x 64 bits over a 32-byte sector) shows it was read */
	p = (sc_protection_t){.l1d = SC_CODE_SECDED, .l2 = SC_CODE_PARITY, .cc = SC_CODE_DECTED, .interleave = 2};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 2 none 0 0 0 0 secded parity dected\n"));
	cr_expect_eq(job_gpu(path), 0);
	p = (sc_protection_t){.l2 = SC_CODE_SECDED64, .interleave = 8};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect_eq(job_gpu(path), 1, "the l2 code reached the GPU");
	p = (sc_protection_t){.l2_tag = SC_CODE_PARITY};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 0 none 0 0 0 0 none none none none parity none\n"));
	cr_expect_eq(job_gpu(path), 0);
	p = (sc_protection_t){.cc_tag = SC_CODE_SECDED};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect_eq(job_gpu(path), 1, "the const tag code reached the GPU, which takes only parity there");
	/* SHARP's tail after the caches' codes */
	p = (sc_protection_t){.l1d = SC_CODE_SECDED, .sharp = {.on = true, .request_queue = 4}};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 0 none 0 0 0 0 secded none none sharp 4 0 none\n"));
	cr_expect_eq(job_gpu(path), 0, "caches and SHARP read back");
	/* Penny: a record of its own after the codes' */
	p = (sc_protection_t){.penny = {.on = true, .edc = SC_CODE_HAMMING, .recovery_penalty = 9, .include_pred = true}};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 0\npenny hamming oracle 9 1\n"));
	cr_expect_eq(job_gpu(path), 0, "Penny read back");
	job_write(path, SC_REGS_UNALLOC, p);
	cr_expect_eq(job_gpu(path), 1, "Penny reached the GPU, which refuses it outside alloc mode");
	/* REFU: a record of its own, read back (a bad one ends the program) */
	p = (sc_protection_t){.refu = {.on = true, .replay_buffer = 3}};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nprotection none none none 0\nrefu 3\n"));
	cr_expect_eq(job_gpu(path), 0, "REFU read back");
	p.refu.replay_buffer = 0; /* the default, written out */
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\nrefu 2\n"));
	char text[8192];
	read_text(path, text);
	char *at = strstr(text, "\nrefu 2\n");
	cr_assert_not_null(at);
	at[6] = '9'; /* out of 1..4 */
	FILE *jf = fopen(path, "w");
	cr_assert_not_null(jf);
	fputs(text, jf);
	fclose(jf);
	cr_expect_eq(job_gpu(path), 2, "refu 9 is refused: the record is read");
	job_write(path, SC_REGS_ALLOC, (sc_protection_t){.regfile = SC_CODE_PARITY});
	cr_expect(!file_has(path, "refu"), "no refu record without REFU");
	job_write(path, SC_REGS_PTX, (sc_protection_t){0});
	cr_expect(!file_has(path, "protection"), "no record without protection");
	cr_expect(!file_has(path, "penny"), "no record without Penny");
	cr_expect_eq(job_gpu(path), 0);
}

/* Datapath duplication: each variant its own identity (none without the
 * key), "regs_subset" validated against the protection, the target and
 * the sampling, and the job file's own "dup" and "regs_subset" records. */
static const char *dup_campaign(const char *regs, const char *extra)
{
	static char text[8192];
	char w[4096];
	cr_assert_not_null(realpath(CDATA "w.json", w));
	snprintf(text, sizeof text, "{\"workload\": \"%s\", \"target\": \"regfile\", \"regs\": \"%s\"%s}", w, regs,
	         extra);
	return put_text("c.json", text);
}

Test(protection, dup_identity_and_regs_subset, .init = tmp_init, .fini = tmp_fini)
{
	camp_campaign_t *c = load_ok(dup_campaign("alloc", ""));
	char h0[17], seen[6][17];
	snprintf(h0, sizeof h0, "%s", c->hash);
	camp_campaign_destroy(c);
	static const char *const v[6] = {"memory\", \"variant\": \"sw", "setp\", \"variant\": \"sw", "all",
	                                 "memory\", \"variant\": \"ra", "setp\", \"variant\": \"ra", "all\", \"variant\": \"ra"};
	for (int i = 0; i < 6; i++) {
		char extra[256];
		snprintf(extra, sizeof extra, ", \"protection\": {\"dup\": {\"protect\": \"%s\"}}", v[i]);
		c = load_ok(dup_campaign("alloc", extra));
		cr_expect_str_neq(c->hash, h0, "%s", v[i]);
		cr_expect(strstr(c->canonical, "\"dup\""), "%s", c->canonical);
		snprintf(seen[i], sizeof seen[i], "%s", c->hash);
		for (int k = 0; k < i; k++)
			cr_expect_str_neq(seen[k], seen[i], "%s", v[i]);
		camp_campaign_destroy(c);
	}
	/* regs_subset: "all" is the default identity, "original" another */
	const char *dup = ", \"protection\": {\"dup\": {\"protect\": \"memory\"}}";
	char extra[512];
	snprintf(extra, sizeof extra, "%s, \"sampling\": \"live\"", dup);
	c = load_ok(dup_campaign("alloc", extra));
	snprintf(h0, sizeof h0, "%s", c->hash);
	cr_expect(!c->regs_original);
	camp_campaign_destroy(c);
	snprintf(extra, sizeof extra, "%s, \"sampling\": \"live\", \"regs_subset\": \"all\"", dup);
	c = load_ok(dup_campaign("alloc", extra));
	cr_expect_str_eq(c->hash, h0);
	camp_campaign_destroy(c);
	snprintf(extra, sizeof extra, "%s, \"sampling\": \"live\", \"regs_subset\": \"original\"", dup);
	c = load_ok(dup_campaign("alloc", extra));
	cr_expect(c->regs_original);
	cr_expect_str_neq(c->hash, h0);
	cr_expect(strstr(c->canonical, "\"regs_subset\":\"original\""), "%s", c->canonical);
	camp_campaign_destroy(c);
	snprintf(extra, sizeof extra, "%s, \"regs_subset\": \"original\"", dup);
	c = load_ok(dup_campaign("ptx", extra)); /* ptx mode samples live already */
	cr_expect(c->regs_original);
	camp_campaign_destroy(c);
	static const struct {
		const char *regs, *extra, *frag;
	} bad[] = {
		{"alloc", ", \"regs_subset\": \"original\"", "needs replicas to leave out"},
		{"alloc", ", \"regs_subset\": \"orig\"", "expected \"original\""},
		{"alloc", ", \"regs_subset\": \"original\", \"protection\": {\"dup\": {\"protect\": \"all\"}}",
		 "needs \"sampling\": \"live\""},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *path = dup_campaign(bad[i].regs, bad[i].extra);
		c = (camp_campaign_t *)1;
		char err[1024], want[300];
		cr_expect_eq(camp_campaign_load(path, &c, err, sizeof err), CAMP_EINPUT, "%s", bad[i].extra);
		cr_expect_null(c);
		snprintf(want, sizeof want, "%s: at $.regs_subset:", path);
		cr_expect(!strncmp(err, want, strlen(want)) && strstr(err, bad[i].frag), "got \"%s\"", err);
	}
}

Test(protection, dup_job_records, .init = tmp_init, .fini = tmp_fini)
{
	char path[256];
	snprintf(path, sizeof path, "%s/job", tmp);
	sc_protection_t p = {.dup = {.protect = SC_DUP_SETP, .variant = SC_DUP_RA, .atomics = true}};
	job_write(path, SC_REGS_ALLOC, p);
	cr_expect(file_has(path, "\ndup setp ra 1\n"), "its own record");
	cr_expect(file_has(path, "\nprotection none none none 0\n"), "the positional record keeps its shape");
	cr_expect_eq(job_gpu(path), 0, "read back");
	/* a bad record is refused: the reader really reads it */
	FILE *f = fopen(path, "r");
	char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	char *at = strstr(text, "dup setp ra");
	cr_assert_not_null(at);
	memcpy(at, "dup setp xx", 11);
	put_text("job", text);
	cr_expect_neq(job_gpu(path), 0, "variant xx refused");
	job_write(path, SC_REGS_ALLOC, (sc_protection_t){0});
	cr_expect(!file_has(path, "dup "), "no record without dup");
}
