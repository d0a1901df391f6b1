/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit's rules about trust: what the hashes, signatures and keys of
 * a FIT and its control DTB protect, and whether the device boots it by
 * default.  Each rule is one class of weakness this project's verifier
 * refuses or U-Boot lets boot silently (fit-format.md §2.3, §3.1, §3.3,
 * §4.4, §6.2, §8, §11.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/cipher.h"
#include "vfit/fit.h"
#include "vfit-host/tools.h"
#include "audit_int.h"

static void rule_hashes(struct vfit_audit *a)
{
	int i, k;
	char node[256];

	for (i = 0; i < a->nimg; i++) {
		struct vfit_audit_image *im = &a->img[i];
		int nh = 0, strong = 0, sha1 = -1, weak = -1;

		for (k = 0; k < a->nhash; k++) {
			if (a->hash[k].image != i)
				continue;
			nh++;
			if (a->hash[k].weak) {
				if (weak < 0)
					weak = k;
			} else if (!strcmp(a->hash[k].algo, "sha1")) {
				if (sha1 < 0)
					sha1 = k;
			} else {
				strong = 1;
			}
		}
		if (!vfit_audit_signed_conf_uses(a, i))
			continue;
		snprintf(node, sizeof(node), "/images/%s", im->name);
		if (!nh)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_NO_HASH, node, NULL, NULL,
				       "image '%s' has no hash node: U-Boot HEAD and vfit refuse every "
				       "signed configuration using it", im->name);
		else if (weak >= 0 && sha1 < 0 && !strong)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_WEAK_HASH_ONLY,
				       a->hash[weak].path, "algo", NULL,
				       "%s is the only hash of signed image '%s': four chosen bytes forge "
				       "it (vfit refuses: WEAK_HASH; U-Boot boots it)", a->hash[weak].algo,
				       im->name);
		else if (sha1 >= 0 && !strong)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_SHA1,
				       a->hash[sha1].path, "algo", NULL,
				       "sha1 is the strongest hash of signed image '%s' (chosen-prefix "
				       "collisions are practical)", im->name);
	}
}

static void rule_confs(struct vfit_audit *a)
{
	int c, j, best = VFIT_PROT_NONE, def = -1;
	char node[256];

	for (c = 0; c < a->nconf; c++) {
		struct vfit_audit_conf *cf = &a->conf[c];
		char imgs[200] = "";
		int isig = 0;

		snprintf(node, sizeof(node), "/configurations/%s", cf->name);
		if (cf->is_default)
			def = c;
		if ((int)cf->prot < best)
			best = (int)cf->prot;
		if (vfit_audit_conf_signed(a, c))
			continue;
		for (j = 0; j < (int)cf->nref; j++)
			if (vfit_audit_image_signed(a, cf->ref[j])) {
				isig = 1;
				if (strlen(imgs) + strlen(a->img[cf->ref[j]].name) + 3 < sizeof(imgs))
					snprintf(imgs + strlen(imgs), sizeof(imgs) - strlen(imgs), "%s%s",
						 imgs[0] ? ", " : "", a->img[cf->ref[j]].name);
			}
		if (isig)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_IMAGE_SIG_ONLY,
				       node, NULL, NULL,
				       "only image signatures (%s): their load, entry, type, compression "
				       "and which images boot together are unsigned", imgs);
		else
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_UNSIGNED_CONFIG,
				       node, NULL, NULL,
				       "configuration '%s' is not signed: whoever can write the FIT "
				       "chooses what it boots", cf->name);
	}
	if (def >= 0 && (int)a->conf[def].prot > best)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_DEFAULT_WEAKER,
			       "/configurations", "default", NULL,
			       "default configuration '%s' is less protected than another "
			       "configuration of this FIT", a->conf[def].name);
	for (j = 0; j < a->nimg; j++) {
		snprintf(node, sizeof(node), "/images/%s", a->img[j].name);
		if (!a->img[j].refs)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_UNREFERENCED_IMAGE,
				       node, NULL, NULL,
				       "image '%s' is referenced by no configuration: no configuration "
				       "signature covers it, yet `bootm ADDR:%s` loads it", a->img[j].name,
				       a->img[j].name);
	}
}

static void rule_sigs(struct vfit_audit *a, const void *fit, size_t len)
{
	char algos[200] = "", img[128], prop[64];
	int i, n = 0;

	for (i = 0; i < a->nsig; i++) {
		struct vfit_audit_sig *s = &a->sig[i];

		if (!s->has_value && !a->from_its)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_UNSIGNED_SIGNATURE,
				       s->path, "value", NULL,
				       "signature node has no value: it was never signed (mkimage "
				       "prints 'Failed to sign' and exits 0 when the key is missing)");
		if (!strncmp(s->algo, "sha1,", 5))
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_SHA1,
				       s->path, "algo", NULL,
				       "signature hash is sha1 (%s)", s->algo);
		if (s->algo[0] && !strstr(algos, s->algo) && strlen(algos) + strlen(s->algo) + 3 <
		    sizeof(algos)) {
			snprintf(algos + strlen(algos), sizeof(algos) - strlen(algos), "%s%s",
				 n ? ", " : "", s->algo);
			n++;
		}
		if (a->ctl_file && s->hint[0] && s->key < 0)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_KEY_NOT_IN_CONTROL,
				       s->path, "key-name-hint", NULL,
				       "key '%s' is not in the control DTB %s: this signature protects "
				       "nothing on that device", s->hint, a->ctl_file);
		/* RSA keys serve exactly their algo (ECDSA keys any hash of their curve). */
		if (s->key >= 0 && !strncmp(a->key[s->key].name, "key-", 4) &&
		    a->key[s->key].algo[0] && s->algo[0] && strcmp(a->key[s->key].algo, s->algo))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_MIXED_ALGORITHMS,
				       s->path, "algo", NULL,
				       "signature algo %s differs from key node %s's algo %s: U-Boot and "
				       "vfit never try that key", s->algo, a->key[s->key].name,
				       a->key[s->key].algo);
		/* mkimage's sign-images left a referenced image out of the signature. */
		if (s->conf && !a->from_its && s->has_value &&
		    fdt_getprop(fit, s->node, "hashed-nodes", NULL) &&
		    vfit_fit_sign_gap(fit, len, s->path, img, sizeof(img), prop, sizeof(prop)))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_HASHED_NODES_GAP,
				       s->path, "hashed-nodes", NULL,
				       "hashed-nodes leaves out image '%s' (%s): U-Boot 2023.01 boots "
				       "it unsigned, U-Boot HEAD and vfit refuse the configuration", img,
				       prop);
	}
	if (n > 1)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_MIXED_ALGORITHMS, "/", NULL, NULL,
			       "signatures use %d algorithms (%s): the weakest decides", n, algos);
}

/* Before signing: what mkimage's sign-images rule (2023.01's default kernel, fdt) will leave out. */
static void rule_its_sign_images(struct vfit_audit *a, const void *fit)
{
	int i, j;

	for (i = 0; i < a->nsig; i++) {
		const struct vfit_audit_sig *s = &a->sig[i];
		const struct vfit_audit_conf *c;
		const char *si;
		int len;

		if (!s->conf)
			continue;
		c = &a->conf[s->owner];
		si = fdt_getprop(fit, s->node, "sign-images", &len);
		for (j = 0; j < (int)c->nref; j++) {
			const char *p = c->ref_prop[j], *q;
			int found = 0;

			if (si && len > 0 && !si[len - 1]) {
				for (q = si; q < si + len; q += strlen(q) + 1)
					found |= !strcmp(q, p);
			} else {
				found = !strcmp(p, "kernel") || !strcmp(p, "fdt");
			}
			if (!found) {
				vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_HASHED_NODES_GAP,
					       s->path, "sign-images",
					       NULL, "sign-images %s '%s' (%s): U-Boot's mkimage will sign "
					       "without it and U-Boot HEAD and vfit refuse the result (vfit "
					       "mkimage signs it)", si ? "leaves out" : "(default kernel, fdt) "
					       "leaves out", a->img[c->ref[j]].name, p);
				break;
			}
		}
	}
}

static void rule_keys(struct vfit_audit *a, const void *ctl, size_t ctl_len)
{
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };
	int i, conf_keys = 0, req = 0, sigs, n0;
	const char *mode;
	char path[256];

	if (!ctl)
		return;
	n0 = a->nf;
	if (vfit_control_check(ctl, ctl_len, &d) == VFIT_ERR_CONTROL)
		vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_REQUIRED_SAYS_NOTHING, d.node >= 0 ?
			       vfit_audit_path(ctl, d.node, path, sizeof(path)) : "/signature", d.prop, NULL,
			       "policy property does not say exactly one thing: vfit refuses the "
			       "control DTB, U-Boot reads only its first string");
	for (i = 0; i < a->nkey; i++) {
		const struct vfit_audit_key *k = &a->key[i];

		snprintf(path, sizeof(path), "/signature/%s", k->name);
		conf_keys += k->required == VFIT_REQ_CONF;
		req += k->required != VFIT_REQ_NONE;
		if (!strncmp(k->name, "key-", 4) && k->bits && k->bits < 2048)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_RSA_KEY_SMALL,
				       path, "rsa,num-bits", NULL,
				       "RSA key of %u bits: factorable; U-Boot and vfit accept only 2048 "
				       "to 4096", k->bits);
		if (!strncmp(k->algo, "sha1,", 5))
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_SHA1, path, "algo", NULL,
				       "key serves sha1 signatures (%s)", k->algo);
	}
	sigs = fdt_path_offset(ctl, "/signature");
	if (!req)
		vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_NO_REQUIRED_KEY,
			       "/signature", "required", NULL,
			       "no key is required: U-Boot boots any FIT whose hashes match (vfit "
			       "refuses: UNENFORCED)");
	mode = sigs >= 0 ? fdt_getprop(ctl, sigs, "required-mode", NULL) : NULL;
	if (mode && conf_keys > 1 && !strcmp(mode, "any"))
		vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_REQUIRED_MODE,
			       "/signature", "required-mode", NULL,
			       "required-mode \"any\" with %d required keys: a signature by any one "
			       "of them (the weakest, or a development key) boots", conf_keys);
	if (mode && conf_keys < 2)
		vfit_audit_add(a, VFIT_AUDIT_INFO, VFIT_VA_REQUIRED_MODE,
			       "/signature", "required-mode", NULL,
			       "required-mode is set but %d key%s required for configurations: it "
			       "changes nothing", conf_keys, conf_keys == 1 ? " is" : "s are");
	for (i = 0; i < a->nkey; i++)
		if (a->key[i].required == VFIT_REQ_IMAGE && a->nkey > 1) {
			snprintf(path, sizeof(path), "/signature/%s", a->key[i].name);
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_REQUIRED_MODE,
				       path, "required", NULL,
				       "required = \"image\": U-Boot accepts an image signature by "
				       "any of the %d keys of the control DTB, not only this one (vfit "
				       "insists on this key)", a->nkey);
		}
	/* These findings are about the control DTB: they name its file. */
	for (; n0 < a->nf; n0++)
		a->f[n0].file = a->ctl_file;
}

/*
 * Encrypted images (§11.1): vfit decrypts them as U-Boot does, after the
 * check, under a configuration signature by a required key (which covers
 * the cipher node, the IV and the plaintext length) and with the key
 * from the control DTB's /cipher.  What stops that is an error; else the
 * finding says what the encryption is and is not.
 */
static void rule_cipher(struct vfit_audit *a, const void *fit, const void *ctl)
{
	struct vfit_cipher ci;
	char node[256], why[200];
	int i;

	for (i = 0; i < a->nimg; i++) {
		const struct vfit_audit_image *x = &a->img[i];

		if (!x->cipher)
			continue;
		snprintf(node, sizeof(node), "/images/%s/cipher", x->name);
		if (!vfit_audit_signed_conf_uses(a, i))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_ENCRYPTED_IMAGE,
				       node, NULL, NULL,
				       "image '%s' is encrypted, but no configuration signature covers "
				       "its cipher node: vfit refuses it (IV and key name would be the "
				       "attacker's), U-Boot decrypts it", x->name);
		else if (ctl && !a->from_its &&
			 vfit_audit_cipher_key(fit, x->node, ctl, &ci, why, sizeof(why)))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_ENCRYPTED_IMAGE,
				       node, NULL, NULL,
				       "image '%s' is encrypted and %s: neither vfit nor U-Boot can "
				       "decrypt it on that device", x->name, why);
		else
			vfit_audit_add(a, VFIT_AUDIT_INFO, VFIT_VA_ENCRYPTED_IMAGE,
				       node, NULL, NULL,
				       "image '%s' is encrypted: vfit and U-Boot decrypt it after the "
				       "signature check; AES-CBC has no integrity of its own (the "
				       "signature is all of it) and the key is in clear in the control "
				       "DTB (whoever reads the boot loader can decrypt)", x->name);
	}
}

void vfit_audit_rules_sig(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			  size_t ctl_len)
{
	rule_hashes(a);
	rule_confs(a);
	rule_sigs(a, fit, len);
	if (a->from_its)
		rule_its_sign_images(a, fit);
	rule_keys(a, ctl, ctl_len);
	rule_cipher(a, fit, ctl);
}

void vfit_audit_rule_default(struct vfit_audit *a)
{
	if (!a->ctl_file || !a->have_verdicts || a->default_verdict.accept)
		return;
	vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_DEFAULT_REFUSED,
		       "/configurations", "default",
		       NULL, "vfit refuses the default configuration%s%s%s with the keys of %s (%s): "
		       "this FIT will not boot on that device", a->default_conf[0] ? " '" : "",
		       a->default_conf, a->default_conf[0] ? "'" : "", a->ctl_file,
		       a->default_verdict.why);
}
