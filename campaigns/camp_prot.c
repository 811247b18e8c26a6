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

/* "penny": {"edc": "parity" | "hamming" | "secded", "mode": "oracle" |
 * "compiled", "recovery_penalty": C, "include_pred": B, and with compiled
 * "pruning": "basic" | "none" | "optimal", "storage": "global"} (README, "Protection"). */
static int parse_penny(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                       sc_penny_protection_t *out)
{
	static const char *const keys[] = {"edc", "mode", "recovery_penalty", "include_pred", "pruning", "storage",
	                                   "block_size", NULL};
	char p[96], q[128];
	json_t *e, *m, *ip, *pr, *so;
	int rc;
	snprintf(p, sizeof p, "%s.penny", path);
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, p, "expected an object {\"edc\": \"parity\" | \"hamming\" | "
		                     "\"secded\", \"mode\": \"oracle\" | \"compiled\", \"recovery_penalty\": C, "
		                     "\"include_pred\": B, \"pruning\": \"basic\" | \"none\" | \"optimal\", "
		                     "\"storage\": \"auto\" | \"shared\" | \"global\", \"block_size\": N}");
	if ((rc = camp__check_keys(err, errsz, file, p, v, keys)) || (rc = camp__require(err, errsz, file, p, v, "edc", &e)))
		return rc;
	out->on = true;
	snprintf(q, sizeof q, "%s.edc", p);
	if (!json_is_string(e) || sc_code_parse(json_string_value(e), &out->edc) ||
	    (out->edc != SC_CODE_PARITY && out->edc != SC_CODE_HAMMING && out->edc != SC_CODE_SECDED))
		return camp__fail_at(err, errsz, file, q, "expected parity, hamming or secded (the register file's code, "
		                     "used to detect only)");
	if ((m = json_object_get(v, "mode"))) {
		snprintf(q, sizeof q, "%s.mode", p);
		if (json_is_string(m) && !strcmp(json_string_value(m), "compiled"))
			out->mode = SC_PENNY_COMPILED;
		else if (!json_is_string(m) || strcmp(json_string_value(m), "oracle"))
			return camp__fail_at(err, errsz, file, q, "expected \"oracle\" or \"compiled\"");
	}
	if ((ip = json_object_get(v, "include_pred"))) {
		snprintf(q, sizeof q, "%s.include_pred", p);
		if (!json_is_boolean(ip))
			return camp__fail_at(err, errsz, file, q, "expected true or false");
		out->include_pred = json_is_true(ip);
		if (out->include_pred && out->mode == SC_PENNY_COMPILED)
			return camp__fail_at(err, errsz, file, q, "compiled mode keeps no checkpoint of predicates (its regions "
			                     "cut their anti-dependences instead): include_pred needs mode oracle");
	}
	if ((pr = json_object_get(v, "pruning"))) {
		snprintf(q, sizeof q, "%s.pruning", p);
		if (out->mode != SC_PENNY_COMPILED)
			return camp__fail_at(err, errsz, file, q, "pruning is the compiler's: only with \"mode\": \"compiled\"");
		if (json_is_string(pr) && !strcmp(json_string_value(pr), "none"))
			out->pruning = SC_PENNY_PRUNE_NONE;
		else if (json_is_string(pr) && !strcmp(json_string_value(pr), "optimal"))
			out->pruning = SC_PENNY_PRUNE_OPTIMAL;
		else if (!json_is_string(pr) || strcmp(json_string_value(pr), "basic"))
			return camp__fail_at(err, errsz, file, q, "expected \"basic\" (values recomputable from immediates, "
			                     "special registers, ld.param, ld.const get no checkpoint), \"optimal\" (also values "
			                     "that recovery recomputes from other checkpoints and read-only memory) or \"none\"");
	}
	if ((so = json_object_get(v, "storage"))) {
		snprintf(q, sizeof q, "%s.storage", p);
		if (out->mode != SC_PENNY_COMPILED)
			return camp__fail_at(err, errsz, file, q, "storage is the compiler's: only with \"mode\": \"compiled\"");
		if (!json_is_string(so) || sc_penny_storage_parse(json_string_value(so), &out->storage))
			return camp__fail_at(err, errsz, file, q, "expected \"auto\" (shared memory for the costliest "
			                     "checkpoints while the occupancy allows, global memory for the rest), \"shared\" "
			                     "or \"global\"");
	}
	if (json_object_get(v, "block_size")) {
		snprintf(q, sizeof q, "%s.block_size", p);
		if (out->mode != SC_PENNY_COMPILED || out->storage != SC_PENNY_STORE_AUTO)
			return camp__fail_at(err, errsz, file, q, "block_size is storage auto's occupancy assumption: only with "
			                     "\"mode\": \"compiled\" and \"storage\": \"auto\"");
		if ((rc = parse_u32(err, errsz, file, p, v, "block_size", 1024, &out->block_size)))
			return rc;
	}
	return parse_u32(err, errsz, file, p, v, "recovery_penalty", 1u << 20, &out->recovery_penalty);
}

/* "refu": true, false, or {"replay_buffer": B} (README, "Protection"). */
static int parse_refu(char *err, size_t errsz, const char *file, const char *path, json_t *v,
                      sc_refu_protection_t *out)
{
	static const char *const keys[] = {"replay_buffer", NULL};
	char p[96];
	int rc;
	snprintf(p, sizeof p, "%s.refu", path);
	if (json_is_boolean(v)) {
		out->on = json_is_true(v);
		return 0;
	}
	if (!json_is_object(v))
		return camp__fail_at(err, errsz, file, p, "expected true, false or an object {\"replay_buffer\": B} "
		                     "(B: 1 to %u entries, 2 by default)", SC_REFU_MAX);
	if ((rc = camp__check_keys(err, errsz, file, p, v, keys)))
		return rc;
	out->on = true;
	return parse_u32(err, errsz, file, p, v, "replay_buffer", SC_REFU_MAX, &out->replay_buffer);
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
	                                   "sharp", "penny", "refu", "dup", NULL};
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
	json_t *pn = json_object_get(v, "penny");
	if (pn && (rc = parse_penny(err, errsz, file, path, pn, &out->penny)))
		return rc;
	/* what Penny excludes, at the key that conflicts (regs: sc_protection_check) */
	snprintf(p, sizeof p, "%s.regfile", path);
	if (out->penny.on && out->regfile != SC_CODE_NONE)
		return camp__fail_at(err, errsz, file, p, "penny.edc replaces the register file's code: give one of them "
		                     "(regfile none with penny)");
	snprintf(p, sizeof p, "%s.pred", path);
	if (out->penny.include_pred && out->pred != SC_CODE_NONE)
		return camp__fail_at(err, errsz, file, p, "penny with include_pred puts its edc on the predicates: give one "
		                     "of them (pred none with penny.include_pred)");
	snprintf(p, sizeof p, "%s.sharp", path);
	if (out->penny.on && out->sharp.on)
		return camp__fail_at(err, errsz, file, p, "sharp and penny both act on the register file's errors: choose "
		                     "one");
	json_t *rf = json_object_get(v, "refu");
	if (rf && (rc = parse_refu(err, errsz, file, path, rf, &out->refu)))
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
	if (o && p->penny.on) { /* the same */
		sc_penny_protection_t pn = sc_penny_params(p);
		json_object_set_new(o, "penny", json_pack("{s:s, s:s, s:I, s:b}", "edc", sc_code_name(pn.edc), "mode",
		                                          sc_penny_mode_name(pn.mode), "recovery_penalty",
		                                          (json_int_t)pn.recovery_penalty, "include_pred", pn.include_pred));
		json_t *po = json_object_get(o, "penny");
		if (po && pn.mode == SC_PENNY_COMPILED) { /* oracle campaigns keep their identity */
			json_object_set_new(po, "pruning", json_string(sc_penny_prune_name(pn.pruning)));
			json_object_set_new(po, "storage", json_string(sc_penny_storage_name(pn.storage)));
			if (pn.block_size) /* only when given: campaigns without it keep their identity */
				json_object_set_new(po, "block_size", json_integer(pn.block_size));
		}
	}
	if (o && p->refu.on) /* the same */
		json_object_set_new(o, "refu", json_pack("{s:I}", "replay_buffer",
		                                         (json_int_t)sc_refu_params(p).replay_buffer));
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
	case CAMP_TARGET_REGFILE: return p->penny.on ? p->penny.edc : p->regfile;
	case CAMP_TARGET_PRED: return p->penny.on && p->penny.include_pred ? p->penny.edc : p->pred;
	case CAMP_TARGET_SMEM: return p->smem;
	case CAMP_TARGET_L1D: return p->l1d;
	case CAMP_TARGET_L2: return p->l2;
	case CAMP_TARGET_CONST: return p->cc;
	default: return SC_CODE_NONE;
	}
}
