/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Verdicts: would this configuration boot?  vfit's comes from its real
 * verifier, vfit_verify(), run as vfit's boot flow runs it (encrypted
 * images accepted under a configuration signature, then decrypted with
 * the control DTB's /cipher keys).  U-Boot HEAD's and 2023.01's come from
 * their rules as fit-format.md states them (§3.3 node lists, §6.2
 * format, §6.3 required keys and required-mode, §6.4 image keys and
 * hashes, §6.5 external-data bounds, §12), evaluated with the model
 * verifier of host/audit/audit_sig.c.  tests/interop/audit_verdicts.sh holds
 * these verdicts against U-Boot HEAD's fit_check_sign and Debian's
 * U-Boot on the same FITs.
 *
 * What the model does not know, and says so in its reason: whether a
 * given U-Boot build has PSS, ECDSA drivers or FIT_CIPHER.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/cipher.h"
#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "audit_int.h"

/* A U-Boot build as the verdicts model it. */
struct vfit_audit_uboot {
	enum vfit_audit_rule rule;  /* node list of configuration signatures */
	int ext_bounds;             /* HEAD's external-data bounds (2026.10 cycle) */
	int rsa_pkcs1_only;         /* a device build without PSS or ECDSA drivers */
};

/* Every hash* node of an image as U-Boot checks it (uboot-ignore honoured). */
static int hashes_ok(const void *fit, size_t len, int img, int head, char *why, size_t wsize)
{
	uint8_t d[VFIT_HASH_MAX_SIZE];
	const char *reason = NULL;
	const uint8_t *p;
	size_t n;
	int sub;

	p = vfit_audit_payload(fit, len, img, &n, head, &reason);
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
		if (a->f[i].cls == VFIT_VA_UNIT_ADDRESS) {
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

/*
 * vfit's boot flow after the verifier accepted: each encrypted image is
 * decrypted with its key from the control DTB whose keys verified it
 * (lib/boot/boot_load.c), and one that is also compressed is refused.
 * 0, or -1 with the reason in why; *n counts the images decrypted.
 */
static int decrypt_all(struct vfit_audit *a, const struct vfit_verify_result *res,
		       const void *fit, const void *ctl, unsigned int *n, char *why, size_t wsize)
{
	struct vfit_cipher ci;
	unsigned int i;
	char reason[160];
	uint8_t *out;
	int r;

	*n = 0;
	for (i = 0; i < res->nimages; i++) {
		const struct vfit_image *im = &res->image[i];

		if (fdt_subnode_offset(fit, im->node, "cipher") < 0)
			continue;
		if (vfit_audit_cipher_key(fit, im->node, ctl, &ci, reason, sizeof(reason))) {
			snprintf(why, wsize, "image '%s' cannot be decrypted: %s", im->name, reason);
			return -1;
		}
		if (im->compression && strcmp(im->compression, "none")) {
			snprintf(why, wsize, "image '%s' is encrypted and compressed: the boot flow "
				 "decrypts only uncompressed images", im->name);
			return -1;
		}
		out = malloc(ci.plain_len ? ci.plain_len : 1);
		if (!out) {
			a->oom = 1;
			snprintf(why, wsize, "out of memory");
			return -1;
		}
		r = vfit_cipher_decrypt(&ci, im->data, im->size, out, ci.plain_len);
		free(out);
		if (r) {
			snprintf(why, wsize, "image '%s': decryption: %s", im->name,
				 vfit_result_to_string(r));
			return -1;
		}
		(*n)++;
	}
	return 0;
}

/*
 * vfit's verdict on configuration conf (NULL: the default), as its boot
 * flow runs the verifier: encrypted images accepted under a configuration
 * signature by a required key, then decrypted.
 */
static void vfit_v(struct vfit_audit *a, const char *conf, const void *fit, size_t len,
		   const void *ctl, size_t ctl_len, struct vfit_verify_result *res,
		   struct vfit_audit_verdict *v)
{
	unsigned int n;

	v->accept = vfit_verify(fit, len, ctl, ctl_len, conf, VFIT_VERIFY_ALLOW_CIPHER, res) ==
		    VFIT_OK;
	if (!v->accept && res->result == VFIT_ERR_UNSUPPORTED && strstr(res->err_path, "/cipher")) {
		snprintf(v->why, sizeof(v->why), "encrypted image at %.100s: decrypted only under a "
			 "configuration signature by a required key", res->err_path);
		return;
	}
	if (!v->accept) {
		snprintf(v->why, sizeof(v->why), "%.60s%s%.100s%s%.30s",
			 vfit_result_to_string(res->result), res->err_path[0] ? " at " : "",
			 res->err_path, res->err_prop ? " " : "", res->err_prop ? res->err_prop : "");
		return;
	}
	if (decrypt_all(a, res, fit, ctl, &n, v->why, sizeof(v->why))) {
		v->accept = 0;
		return;
	}
	snprintf(v->why, sizeof(v->why), "verified: %u image%s", res->nimages,
		 res->nimages == 1 ? "" : "s");
	if (n)
		snprintf(v->why + strlen(v->why), sizeof(v->why) - strlen(v->why),
			 ", %u decrypted with /cipher keys", n);
}

void vfit_audit_verdicts(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			 size_t ctl_len)
{
	static const struct vfit_audit_uboot head = { VFIT_RULE_HEAD, 1, 0 },
		u2023 = { VFIT_RULE_2023, 0, 0 }, debian = { VFIT_RULE_HEAD, 0, 1 };
	struct vfit_verify_result *res = malloc(sizeof(*res));
	char empty[128];
	int i;

	if (!res) {
		a->oom = 1;
		return;
	}
	/* No control DTB: a device whose control DTB holds no key. */
	if (!ctl) {
		fdt_create_empty_tree(empty, sizeof(empty));
		ctl = empty;
		ctl_len = fdt_totalsize(empty);
	}
	for (i = 0; i < a->nconf; i++) {
		struct vfit_audit_conf *c = &a->conf[i];

		vfit_v(a, c->name, fit, len, ctl, ctl_len, res, &c->verdict[VFIT_AUDIT_VFIT]);
		uboot(a, c, fit, len, ctl, &head, &c->verdict[VFIT_AUDIT_HEAD]);
		uboot(a, c, fit, len, ctl, &u2023, &c->verdict[VFIT_AUDIT_2023]);
		uboot(a, c, fit, len, ctl, &debian, &c->verdict[VFIT_AUDIT_DEBIAN]);
	}
	/* What the device boots when nothing names a configuration. */
	vfit_v(a, NULL, fit, len, ctl, ctl_len, res, &a->default_verdict);
	a->have_verdicts = 1;
	free(res);
}
