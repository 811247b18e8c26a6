/* The "protection" object: error-correcting codes on the register file,
 * the predicate file, shared memory and the caches' data (README,
 * "Campaign JSON"; the codes:
 * simcore.h, sc_protection_t). A campaign holds it under the key
 * "protection"; `flipsim exec` and `flipsim profile` read the same object
 * from a file (--protection), so both go through camp__parse_protection. */
#include <string.h>

#include <jansson.h>

#include "camp_int.h"

static const char *const code_list = "none, parity, hamming, secded, secded64 or dected";

/* One structure's code at PATH.KEY: {"code": NAME} or the bare NAME; a
 * cache's (tag not NULL) also {"code": NAME, "tag": "none" | "parity"}. */
static int parse_code(char *err, size_t errsz, const char *file, const char *path, const char *key, json_t *v,
                      sc_code_kind_t *out, sc_code_kind_t *tag)
{
	static const char *const keys[] = {"code", NULL}, *const cache_keys[] = {"code", "tag", NULL};
	char p[96];
	json_t *name = v, *t;
	int rc;
	snprintf(p, sizeof p, "%s.%s", path, key);
	if (json_is_object(v)) {
		if ((rc = camp__check_keys(err, errsz, file, p, v, tag ? cache_keys : keys)) ||
		    (rc = camp__require(err, errsz, file, p, v, "code", &name)))
			return rc;
		if (tag && (t = json_object_get(v, "tag")) &&
		    (!json_is_string(t) || sc_code_parse(json_string_value(t), tag) ||
		     (*tag != SC_CODE_NONE && *tag != SC_CODE_PARITY))) {
			snprintf(p, sizeof p, "%s.%s.tag", path, key);
			return camp__fail_at(err, errsz, file, p, "expected none or parity (a parity bit on each line's tag)");
		}
		snprintf(p, sizeof p, "%s.%s.code", path, key);
	}
	if (!json_is_string(name) || sc_code_parse(json_string_value(name), out))
		return camp__fail_at(err, errsz, file, p, "expected a code name (%s)%s", code_list,
		                     name == v ? " or {\"code\": NAME}" : "");
	return 0;
}

/* An unsigned field KEY of the ibuffer object at p, at most max, into *out
 * (absent: left 0, the default). */
static int parse_u32(char *err, size_t errsz, const char *file, const char *p, json_t *v, const char *key,
                     uint32_t max, uint32_t *out)
{
	json_t *n = json_object_get(v, key);
	if (!n)
		return 0;
	json_int_t x = json_is_integer(n) ? json_integer_value(n) : -1;
	if (x < 1 || x > max) {
		char q[128];
		snprintf(q, sizeof q, "%s.%s", p, key);
		return camp__fail_at(err, errsz, file, q, "expected an integer in 1..%u", max);
	}
	*out = (uint32_t)x;
	return 0;
}

/* "ibuffer": {"scheme": S, "table_entries": T, "threshold": N,
 * "progress_window": W, "reissue_penalty": C} (SAWP: README, "Protection"). */
static int parse_ibuffer(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                         sc_ib_protection_t *out)
{
	static const char *const keys[] = {"scheme", "table_entries", "threshold", "progress_window", "reissue_penalty",
	                                   NULL};
	char p[96], q[128];
	json_t *s;
	int rc;
	snprintf(p, sizeof p, "%s.ibuffer", path);
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, p, "expected an object {\"scheme\": S, ...}");
	if ((rc = camp__check_keys(err, errsz, file, p, v, keys)) || (rc = camp__require(err, errsz, file, p, v, "scheme", &s)))
		return rc;
	snprintf(q, sizeof q, "%s.scheme", p);
	if (!json_is_string(s) || sc_ib_scheme_parse(json_string_value(s), &out->scheme))
		return camp__fail_at(err, errsz, file, q, "expected none, parity, ecc, sawp, sawp_min or sawp_fs");
	if ((rc = parse_u32(err, errsz, file, p, v, "table_entries", SC_IB_TABLE_MAX, &out->table_entries)) ||
	    (rc = parse_u32(err, errsz, file, p, v, "threshold", 1u << 20, &out->threshold)) ||
	    (rc = parse_u32(err, errsz, file, p, v, "progress_window", 1u << 30, &out->progress_window)))
		return rc;
	return parse_u32(err, errsz, file, p, v, "reissue_penalty", 1u << 20, &out->reissue_penalty);
}

/* "sharp": true, false, or {"request_queue": Q, "warp_table": T, "ecc":
 * "secded"} (README, "Protection"). */
static int parse_sharp(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                       sc_sharp_protection_t *out)
{
	static const char *const keys[] = {"request_queue", "warp_table", "ecc", NULL};
	char p[96], q[128];
	int rc;
	snprintf(p, sizeof p, "%s.sharp", path);
	if (json_is_boolean(v)) {
		out->on = json_is_true(v);
		return 0;
	}
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, p, "expected true, false or an object {\"request_queue\": Q, "
		                     "\"warp_table\": T, \"ecc\": \"secded\"}, each key optional");
	if ((rc = camp__check_keys(err, errsz, file, p, v, keys)))
		return rc;
	out->on = true;
	if ((rc = parse_u32(err, errsz, file, p, v, "request_queue", SC_SHARP_MAX, &out->request_queue)) ||
	    (rc = parse_u32(err, errsz, file, p, v, "warp_table", SC_SHARP_MAX, &out->warp_table)))
		return rc;
	json_t *e = json_object_get(v, "ecc");
	snprintf(q, sizeof q, "%s.ecc", p);
	if (e && (!json_is_string(e) || strcmp(json_string_value(e), "secded")))
		return camp__fail_at(err, errsz, file, q, "expected \"secded\" (SHARP stores SECDED (39,32) check bits)");
	return 0;
}

/* "dup": {"protect": "memory" | "setp" | "all", "variant": "sw" | "ra",
 * "atomics": false} (README, "Protection"). */
static int parse_dup(char *err, size_t errsz, const char *file, const char *path, json_t *v, sc_dup_protection_t *out)
{
	static const char *const keys[] = {"protect", "variant", "atomics", NULL};
	char p[96], q[128];
	json_t *x;
	int rc;
	snprintf(p, sizeof p, "%s.dup", path);
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, p, "expected an object {\"protect\": \"memory\" | \"setp\" | \"all\", "
		                     "\"variant\": \"sw\" | \"ra\", \"atomics\": false}");
	if ((rc = camp__check_keys(err, errsz, file, p, v, keys)) || (rc = camp__require(err, errsz, file, p, v, "protect", &x)))
		return rc;
	snprintf(q, sizeof q, "%s.protect", p);
	if (!json_is_string(x) || sc_dup_protect_parse(json_string_value(x), &out->protect))
		return camp__fail_at(err, errsz, file, q, "expected memory (load and store addresses and store data), setp "
		                     "(the compared registers of branch-deciding setps) or all");
	snprintf(q, sizeof q, "%s.variant", p);
	if ((x = json_object_get(v, "variant")) && (!json_is_string(x) || sc_dup_variant_parse(json_string_value(x), &out->variant)))
		return camp__fail_at(err, errsz, file, q, "expected sw (plain checks and a notifying trap) or ra (resilient "
		                     "raLoad, raStore, raSetP)");
	snprintf(q, sizeof q, "%s.atomics", p);
	if ((x = json_object_get(v, "atomics")) && !json_is_boolean(x))
		return camp__fail_at(err, errsz, file, q, "expected true or false (protect atom/red addresses and data too)");
	out->atomics = x && json_is_true(x);
	return 0;
}

int camp__parse_protection(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                           sc_protection_t *out)
{
	static const char *const keys[] = {"regfile", "pred", "smem", "l1d", "l2", "const", "interleave", "ibuffer",
	                                   "sharp", "dup", NULL};
	sc_code_kind_t *code[6] = {&out->regfile, &out->pred, &out->smem, &out->l1d, &out->l2, &out->cc};
	sc_code_kind_t *tag[6] = {NULL, NULL, NULL, &out->l1d_tag, &out->l2_tag, &out->cc_tag};
	char p[96];
	int rc;
	*out = (sc_protection_t){.interleave = 1};
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, path, "expected an object {\"regfile\": {\"code\": C}, \"pred\": "
		                     "{\"code\": C}, \"smem\": {\"code\": C}, \"l1d\": ..., \"l2\": ..., \"const\": ..., "
		                     "\"interleave\": I}, each key optional");
	if ((rc = camp__check_keys(err, errsz, file, path, v, keys)))
		return rc;
	for (int i = 0; i < 6; i++) {
		json_t *c = json_object_get(v, keys[i]);
		if (c && (rc = parse_code(err, errsz, file, path, keys[i], c, code[i], tag[i])))
			return rc;
	}
	json_t *ib = json_object_get(v, "ibuffer"), *sh = json_object_get(v, "sharp");
	if (ib && (rc = parse_ibuffer(err, errsz, file, path, ib, &out->ibuffer)))
		return rc;
	if (sh && (rc = parse_sharp(err, errsz, file, path, sh, &out->sharp)))
		return rc;
	json_t *du = json_object_get(v, "dup");
	if (du && (rc = parse_dup(err, errsz, file, path, du, &out->dup)))
		return rc;
	json_t *il = json_object_get(v, "interleave");
	if (!il)
		return 0;
	json_int_t n = json_is_integer(il) ? json_integer_value(il) : -1;
	snprintf(p, sizeof p, "%s.interleave", path);
	if (n < 0 || n > 8 || (n & (n - 1)))
		return camp__fail_at(err, errsz, file, p, "expected 1, 2, 4 or 8 (codewords that physically adjacent "
		                     "bits are spread over; 0 or 1: none)");
	/* 0 and 1 both mean none: one value, so that they are one identity */
	out->interleave = n < 2 ? 1 : (uint32_t)n;
	return 0;
}

int camp__check_protection(char *err, size_t errsz, const char *file, const char *path, const sc_protection_t *p,
                           const sc_gpu_config_t *cfg, sc_regs_t regs)
{
	static const char prefix[] = "protection: ";
	char msg[256];
	if (!sc_protection_check(p, cfg, regs, msg, sizeof msg))
		return 0;
	/* the JSON path already says where: the simulator's own prefix goes */
	const char *m = strncmp(msg, prefix, sizeof prefix - 1) ? msg : msg + sizeof prefix - 1;
	return camp__fail_at(err, errsz, file, path, "%s", m);
}

json_t *camp__protection_json(const sc_protection_t *p)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:I}", "regfile", sc_code_name(p->regfile), "pred",
	                      sc_code_name(p->pred), "smem", sc_code_name(p->smem), "interleave",
	                      (json_int_t)p->interleave);
	/* the caches' codes only when there is one: older campaigns keep their
	 * identity */
	const struct {
		const char *key;
		sc_code_kind_t code, tag;
	} cache[3] = {{"l1d", p->l1d, p->l1d_tag}, {"l2", p->l2, p->l2_tag}, {"const", p->cc, p->cc_tag}};
	for (int i = 0; o && i < 3; i++)
		if (cache[i].tag != SC_CODE_NONE) /* an object only then */
			json_object_set_new(o, cache[i].key, json_pack("{s:s, s:s}", "code", sc_code_name(cache[i].code), "tag",
			                                               sc_code_name(cache[i].tag)));
		else if (cache[i].code != SC_CODE_NONE)
			json_object_set_new(o, cache[i].key, json_string(sc_code_name(cache[i].code)));
	const sc_ib_protection_t *ib = &p->ibuffer;
	if (o && ib->scheme != SC_IB_NONE) /* only then: codes alone keep their identity */
		json_object_set_new(o, "ibuffer",
		                    json_pack("{s:s, s:I, s:I, s:I, s:I}", "scheme", sc_ib_scheme_name(ib->scheme),
		                              "table_entries", (json_int_t)ib->table_entries, "threshold",
		                              (json_int_t)ib->threshold, "progress_window", (json_int_t)ib->progress_window,
		                              "reissue_penalty", (json_int_t)ib->reissue_penalty));
	if (o && p->sharp.on) { /* the same: only when on, with its defaults filled in */
		sc_sharp_protection_t sh = sc_sharp_params(p);
		json_object_set_new(o, "sharp", json_pack("{s:I, s:I, s:s}", "request_queue", (json_int_t)sh.request_queue,
		                                          "warp_table", (json_int_t)sh.warp_table, "ecc",
		                                          sc_code_name(sh.ecc)));
	}
	if (o && p->dup.protect) /* the same: only when on */
		json_object_set_new(o, "dup", json_pack("{s:s, s:s, s:b}", "protect", sc_dup_protect_name(p->dup.protect),
		                                        "variant", sc_dup_variant_name(p->dup.variant), "atomics",
		                                        p->dup.atomics));
	return o;
}

int camp_protection_load(const char *path, const sc_gpu_config_t *cfg, sc_regs_t regs, sc_protection_t *out,
                         char *err, size_t errsz)
{
	json_t *root;
	int rc = camp__load_json(path, &root, err, errsz);
	if (rc)
		return rc;
	rc = camp__parse_protection(err, errsz, path, "$", root, out);
	json_decref(root);
	return rc ? rc : camp__check_protection(err, errsz, path, "$", out, cfg, regs);
}

sc_code_kind_t camp_protection_code(const sc_protection_t *p, camp_target_t t)
{
	switch (t) {
	case CAMP_TARGET_REGFILE: return p->regfile;
	case CAMP_TARGET_PRED: return p->pred;
	case CAMP_TARGET_SMEM: return p->smem;
	case CAMP_TARGET_L1D: return p->l1d;
	case CAMP_TARGET_L2: return p->l2;
	case CAMP_TARGET_CONST: return p->cc;
	default: return SC_CODE_NONE;
	}
}
