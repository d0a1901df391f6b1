/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Verdicts: would this configuration boot?  vfit's comes from its real
 * verifier, vfit_verify().  U-Boot HEAD's and 2023.01's come from their
 * rules as fit-format.md states them (§3.3 node lists, §6.2 format, §6.3
 * required keys and required-mode, §6.4 image keys and hashes, §6.5
 * external-data bounds, §12), evaluated with the device library's own
 * node-list, region-walk and signature primitives, so only the rules
 * differ, not the arithmetic.  tests/interop/audit_verdicts.sh holds these
 * verdicts against U-Boot HEAD's fit_check_sign on the same FITs.
 *
 * What the model does not know, and says so in its reason: whether a
 * given U-Boot build has PSS, ECDSA drivers or FIT_CIPHER.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "audit_int.h"
#include "mkimage_int.h"
#include "vfit/fit.h"

/* The payload of image node img in fit[0..len): data, or external data; NULL if not found. */
static const uint8_t *payload(const void *fit, size_t len, int img, size_t *size, int head,
			      const char **why)
{
	const uint8_t *d;
	uint32_t off, sz;
	uint64_t start;
	int l;

	if (!vfit_fdt_u32(fit, img, "data-position", &off)) {
		start = off;
	} else if (!vfit_fdt_u32(fit, img, "data-offset", &off)) {
		start = ((uint64_t)fdt_totalsize(fit) + 3) / 4 * 4 + off;
	} else {
		d = fdt_getprop(fit, img, "data", &l);
		if (!d) {
			*why = "no image data";
			return NULL;
		}
		*size = (size_t)l;
		return d;
	}
	if (vfit_fdt_u32(fit, img, "data-size", &sz)) {
		*why = "external data without data-size";
		return NULL;
	}
	/* HEAD (2026.10 cycle) reads the cells as signed and bounds them by 256 MiB. */
	if (head && ((int32_t)off < 0 || (int32_t)sz < 0 ||
		     start + sz > VFIT_SIGNATURE_MAX_SIZE)) {
		*why = "FIT external data is out of bounds";
		return NULL;
	}
	if (start + sz > len) {
		*why = "external data beyond the end of the file";
		return NULL;
	}
	*size = sz;
	return (const uint8_t *)fit + start;
}

/* 2023.01's node list: the FIT's own hashed-nodes, which must name the configuration. */
static int list_2023(const void *fit, int sig, int conf, struct vfit_node_list *list,
		     const char **why)
{
	char want[256];
	const char *v, *s;
	int len, node, named = 0;

	v = fdt_getprop(fit, sig, "hashed-nodes", &len);
	if (!v || len <= 0) {
		*why = "Can't get hashed-nodes property";
		return -1;
	}
	if (v[len - 1]) {
		*why = "hashed-nodes property must be null-terminated";
		return -1;
	}
	if (fdt_get_path(fit, conf, want, sizeof(want)))
		want[0] = 0;
	list->count = 0;
	for (s = v; s < v + len; s += strlen(s) + 1) {
		if (list->count == VFIT_MAX_HASHED_NODES) {
			*why = "Number of hashed nodes exceeds maximum";
			return -1;
		}
		named |= !strcmp(s, want);
		node = fdt_path_offset(fit, s);
		if (node >= 0)
			list->offset[list->count++] = node;
	}
	if (!named) {
		*why = "Selected config not in hashed nodes";
		return -1;
	}
	return 0;
}

int vfit_audit_sig_ok(const void *fit, size_t len, int sig, int conf, const void *ctl, int key,
		      enum vfit_audit_rule rule, char *why, size_t wsize)
{
	struct vfit_node_list list;
	const char *algo, *pad, *reason = NULL;
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	const uint8_t *value;
	struct vfit_pubkey pk;
	struct vfit_algo al;
	enum vfit_padding padding = VFIT_PAD_PKCS1;
	int alen, vlen, plen;

	why[0] = 0;
	/* The node list and region walk rely on the format check (any FIT reaches here). */
	if (vfit_fit_check(fit, len, VFIT_FIT_ALLOW_AT, NULL)) {
		snprintf(why, wsize, "Bad FIT format");
		return -1;
	}
	algo = fdt_getprop(fit, sig, "algo", &alen);
	if (!algo || vfit_algo_parse(algo, alen, &al)) {
		snprintf(why, wsize, "Unknown signature algorithm");
		return -1;
	}
	/* 2023.01 verifies ECDSA only through a hardware driver (STM32MP), not from the DTB. */
	if (rule == VFIT_RULE_2023 && al.sig->kind == VFIT_SIG_ECDSA) {
		snprintf(why, wsize, "2023.01 has no software ECDSA verifier");
		return -1;
	}
	value = fdt_getprop(fit, sig, "value", &vlen);
	if (!value || vlen <= 0) {
		snprintf(why, wsize, "signature has no value");
		return -1;
	}
	if (vfit_key_load(ctl, key, algo, alen, &pk)) {
		snprintf(why, wsize, "key %s does not serve %s", fdt_get_name(ctl, key, NULL), algo);
		return -1;
	}
	pad = fdt_getprop(fit, sig, "padding", &plen);
	if (pad && plen > 0 && !strcmp(pad, "pss") && al.sig->kind == VFIT_SIG_RSA)
		padding = VFIT_PAD_PSS;
	else if (pad && (plen <= 0 || strcmp(pad, "pkcs-1.5")) && al.sig->kind == VFIT_SIG_RSA) {
		snprintf(why, wsize, "unknown padding");
		return -1;
	}
	if (conf < 0) {
		size_t n;
		const uint8_t *p = payload(fit, len, fdt_parent_offset(fit, sig), &n,
					   rule == VFIT_RULE_HEAD, &reason);

		if (!p || vfit_hash(al.hash, p, n, digest)) {
			snprintf(why, wsize, "%s", reason ? reason : "cannot hash the image");
			return -1;
		}
	} else {
		struct vfit_hash_ctx ctx;
		const fdt32_t *hs;
		uint32_t strings = 0;
		int hlen;

		if (rule == VFIT_RULE_HEAD) {
			if (vfit_conf_nodes(fit, conf, &list, NULL)) {
				snprintf(why, wsize, "Failed to build hash node list");
				return -1;
			}
		} else if (list_2023(fit, sig, conf, &list, &reason)) {
			snprintf(why, wsize, "%s", reason);
			return -1;
		}
		hs = fdt_getprop(fit, sig, "hashed-strings", &hlen);
		if (hs && hlen < 8) {
			snprintf(why, wsize, "Invalid hashed-strings property");
			return -1;
		}
		if (hs)
			strings = fdt32_to_cpu(hs[1]);
		if (strings > fdt_size_dt_strings(fit)) {
			snprintf(why, wsize, "Strings region is out of bounds");
			return -1;
		}
		if (vfit_hash_init(&ctx, al.hash) || vfit_conf_digest(fit, &list, strings, &ctx)) {
			snprintf(why, wsize, "Failed to hash configuration");
			return -1;
		}
		vfit_hash_final(&ctx, digest);
	}
	if (pk.algo->verify(&pk, al.hash, padding, digest, value, (size_t)vlen)) {
		snprintf(why, wsize, "Verification failed");
		return -1;
	}
	return 0;
}

/* Every hash* node of an image as U-Boot checks it (uboot-ignore honoured). */
static int hashes_ok(const void *fit, size_t len, int img, int head, char *why, size_t wsize)
{
	uint8_t d[VFIT_HASH_MAX_SIZE];
	const char *reason = NULL;
	const uint8_t *p;
	size_t n;
	int sub;

	p = payload(fit, len, img, &n, head, &reason);
	if (!p) {
		snprintf(why, wsize, "%s", reason);
		return -1;
	}
	fdt_for_each_subnode(sub, fit, img) {
		const char *name = fdt_get_name(fit, sub, NULL), *algo;
		const uint8_t *v;
		enum vfit_hash h;
		uint32_t ign;
		int vl;

		if (!name || strncmp(name, "hash", 4))
			continue;
		if (!vfit_fdt_u32(fit, sub, "uboot-ignore", &ign) && ign)
			continue;
		algo = vfit_fdt_str(fit, sub, "algo");
		h = algo ? vfit_hash_lookup(algo, strlen(algo)) : VFIT_HASH_INVALID;
		if (h == VFIT_HASH_INVALID || h == VFIT_HASH_SHA224) {
			snprintf(why, wsize, "Unsupported hash algorithm in '%s'", name);
			return -1;
		}
		v = fdt_getprop(fit, sub, "value", &vl);
		if (!v || (size_t)vl != vfit_hash_size(h) || vfit_hash(h, p, n, d) ||
		    memcmp(d, v, (size_t)vl)) {
			snprintf(why, wsize, "Bad hash value for '%s' hash node in '%s' image node",
				 name, fdt_get_name(fit, img, NULL));
			return -1;
		}
	}
	return 0;
}

/* A signature node the build can check at all (Debian's device build: PKCS#1 v1.5 RSA only). */
static int build_has(const struct vfit_audit_uboot *u, const void *fit, int sig, char *why,
		     size_t wsize)
{
	const char *algo = vfit_fdt_str(fit, sig, "algo"), *pad = vfit_fdt_str(fit, sig, "padding");

	if (!u->rsa_pkcs1_only)
		return 1;
	if (algo && strstr(algo, ",ecdsa")) {
		snprintf(why, wsize, "no ECDSA driver in this build");
		return 0;
	}
	if (pad && !strcmp(pad, "pss")) {
		snprintf(why, wsize, "no RSASSA-PSS in this build");
		return 0;
	}
	return 1;
}

/* U-Boot's verdict on configuration c for the build u. */
static void uboot(const struct vfit_audit *a, const struct vfit_audit_conf *c, const void *fit,
		  size_t len, const void *ctl, const struct vfit_audit_uboot *u,
		  struct vfit_audit_verdict *v)
{
	enum vfit_audit_rule rule = u->rule;
	int sigs = ctl ? fdt_path_offset(ctl, "/signature") : -1, key, sub, i, any, nreq = 0, ok;
	int head = u->ext_bounds, image_keys = 0;
	const char *mode;
	char why[160] = "";

	v->accept = 0;
	if (vfit_fit_check(fit, len, VFIT_FIT_ALLOW_AT, NULL)) {
		snprintf(v->why, sizeof(v->why), "Bad FIT format");
		return;
	}
	for (i = 0; i < a->nf; i++)
		if (!strcmp(a->f[i].id, "VA007")) {
			snprintf(v->why, sizeof(v->why), "unit address (@) in %.150s", a->f[i].node);
			return;
		}
	mode = sigs >= 0 ? fdt_getprop(ctl, sigs, "required-mode", NULL) : NULL;
	any = mode && !strcmp(mode, "any");
	ok = 0;
	if (sigs >= 0)
		fdt_for_each_subnode(key, ctl, sigs) {
			int verified = 0;

			image_keys += vfit_audit_required(ctl, key) == VFIT_REQ_IMAGE;
			if (vfit_audit_required(ctl, key) != VFIT_REQ_CONF)
				continue;
			nreq++;
			why[0] = 0;
			fdt_for_each_subnode(sub, fit, c->node) {
				const char *n = fdt_get_name(fit, sub, NULL);

				if (n && !strncmp(n, "signature", 9) &&
				    build_has(u, fit, sub, why, sizeof(why)) &&
				    !vfit_audit_sig_ok(fit, len, sub, c->node, ctl, key, rule, why,
						       sizeof(why))) {
					verified = 1;
					break;
				}
			}
			if (verified) {
				ok++;
				if (any)
					break;
			} else if (!any) {
				snprintf(v->why, sizeof(v->why), "required key %s: %s",
					 fdt_get_name(ctl, key, NULL),
					 why[0] ? why : "No 'signature' subnode found");
				return;
			}
		}
	if (nreq && any && !ok) {
		snprintf(v->why, sizeof(v->why), "Failed to verify 'any' of the required signature(s)");
		return;
	}
	for (i = 0; i < (int)c->nref; i++) {
		const struct vfit_audit_image *im = &a->img[c->ref[i]];

		if (image_keys) {
			int verified = 0;

			fdt_for_each_subnode(sub, fit, im->node) {
				const char *n = fdt_get_name(fit, sub, NULL);

				if (!n || strncmp(n, "signature", 9))
					continue;
				/* U-Boot tries "any key" of the control DTB, not the required one. */
				fdt_for_each_subnode(key, ctl, sigs)
					if (build_has(u, fit, sub, why, sizeof(why)) &&
					    !vfit_audit_sig_ok(fit, len, sub, -1, ctl, key, rule, why,
							       sizeof(why)))
						verified = 1;
			}
			if (!verified) {
				snprintf(v->why, sizeof(v->why), "image '%s': Unable to verify required "
					 "signature", im->name);
				return;
			}
		}
		if (hashes_ok(fit, len, im->node, head, why, sizeof(why))) {
			snprintf(v->why, sizeof(v->why), "%s", why);
			return;
		}
		if (im->cipher) {
			snprintf(v->why, sizeof(v->why), "image '%s' is decrypted with /cipher keys "
				 "(needs FIT_CIPHER)", im->name);
			v->accept = 1;
		}
	}
	v->accept = 1;
	if (!v->why[0])
		snprintf(v->why, sizeof(v->why), "%s", !nreq && !image_keys ?
			 "nothing required: hashes only" : "required signatures verified");
	fdt_for_each_subnode(sub, fit, c->node) {
		const char *algo = vfit_fdt_str(fit, sub, "algo");

		/* HEAD's fit_check_sign verifies ECDSA in software; a board needs a driver. */
		if (nreq && algo && strstr(algo, ",ecdsa")) {
			snprintf(v->why, sizeof(v->why), "required signatures verified (ECDSA: on "
				 "a board only with an ECDSA driver, STM32MP or Caliptra)");
			break;
		}
	}
}

static void vfit_v(const struct vfit_audit_conf *c, const void *fit, size_t len, const void *ctl,
		   size_t ctl_len, struct vfit_verify_result *res, struct vfit_audit_verdict *v)
{
	v->accept = vfit_verify(fit, len, ctl, ctl_len, c->name, 0, res) == VFIT_OK;
	if (v->accept)
		snprintf(v->why, sizeof(v->why), "verified: %u image%s", res->nimages,
			 res->nimages == 1 ? "" : "s");
	else
		snprintf(v->why, sizeof(v->why), "%.60s%s%.100s%s%.30s", vfit_result_to_string(res->result),
			 res->err_path[0] ? " at " : "", res->err_path, res->err_prop ? " " : "",
			 res->err_prop ? res->err_prop : "");
}

void vfit_audit_verdicts(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			 size_t ctl_len)
{
	static const struct vfit_audit_uboot head = { VFIT_RULE_HEAD, 1, 0 },
		u2023 = { VFIT_RULE_2023, 0, 0 }, debian = { VFIT_RULE_HEAD, 0, 1 };
	struct vfit_verify_result *res = malloc(sizeof(*res));
	char empty[128];
	int i;

	if (!res)
		a->oom = 1;
	/* No control DTB: a device whose control DTB holds no key. */
	if (!ctl) {
		fdt_create_empty_tree(empty, sizeof(empty));
		ctl = empty;
		ctl_len = fdt_totalsize(empty);
	}
	for (i = 0; i < a->nconf; i++) {
		struct vfit_audit_conf *c = &a->conf[i];

		if (res)
			vfit_v(c, fit, len, ctl, ctl_len, res, &c->verdict[VFIT_AUDIT_VFIT]);
		uboot(a, c, fit, len, ctl, &head, &c->verdict[VFIT_AUDIT_HEAD]);
		uboot(a, c, fit, len, ctl, &u2023, &c->verdict[VFIT_AUDIT_2023]);
		uboot(a, c, fit, len, ctl, &debian, &c->verdict[VFIT_AUDIT_DEBIAN]);
	}
	free(res);
}
