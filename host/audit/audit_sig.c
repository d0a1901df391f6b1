/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model verifier under vfit audit's verdicts and protections: one
 * signature node checked with one key of the control DTB by a given
 * rule (U-Boot HEAD's node list, or 2023.01's hashed-nodes), an image's
 * payload as U-Boot finds it, and an encrypted image's key.  Built from
 * the device library's own node-list, region-walk, signature and cipher
 * primitives, so only the rules differ from vfit's, not the arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/cipher.h"
#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "audit_int.h"

const uint8_t *vfit_audit_payload(const void *fit, size_t len, int img, size_t *size,
				  int head, const char **why)
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
		const uint8_t *p = vfit_audit_payload(fit, len, fdt_parent_offset(fit, sig), &n,
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

int vfit_audit_cipher_key(const void *fit, int img, const void *ctl, struct vfit_cipher *ci,
			  char *why, size_t wsize)
{
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };
	enum vfit_result r = vfit_cipher_find(fit, img, ctl, ci, &d);
	char path[256];

	if (!r)
		return 0;
	if (fdt_get_path(ci->err_in_control ? ctl : fit, d.node < 0 ? 0 : d.node, path,
			 (int)sizeof(path)))
		snprintf(path, sizeof(path), "?");
	if (ci->err_in_control && d.node <= 0)
		snprintf(why, wsize, "no /cipher node in the control DTB");
	else if (ci->err_in_control && !d.prop)
		snprintf(why, wsize, "no key node %s/key-%s-%s%s%s in the control DTB", path,
			 ci->algo, ci->key_name, ci->iv_name ? "-" : "",
			 ci->iv_name ? ci->iv_name : "");
	else
		snprintf(why, wsize, "%s%s%s%s: %s", ci->err_in_control ? "control DTB " : "", path,
			 d.prop ? ": " : "", d.prop ? d.prop : "", vfit_result_to_string(r));
	return -1;
}
