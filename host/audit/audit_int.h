/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the files of host/audit/ only.  The files call each other one way:
 * audit.c (the run) -> model, rules, verdicts; rules -> model, sig,
 * registry; verdicts -> model, sig; model -> sig.
 */
#ifndef VFIT_AUDIT_INT_H
#define VFIT_AUDIT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vfit-host/audit.h"

struct vfit_cipher;

/* ---- the model verifier (audit_sig.c) ---- */

/* Which rule builds the signed node list of a configuration signature. */
enum vfit_audit_rule {
	VFIT_RULE_HEAD = 0,  /* rebuilt from the configuration (HEAD, vfit) */
	VFIT_RULE_2023,      /* the FIT's own hashed-nodes (2020.04 to 2026.01) */
};

/*
 * Does the signature node sig (of configuration conf, or of an image when
 * conf < 0) verify with the key node key of ctl, by rule?  0 if it does,
 * else -1 and a short reason in why.  The FIT must have passed
 * vfit_fdt_check().
 */
int vfit_audit_sig_ok(const void *fit, size_t len, int sig, int conf, const void *ctl,
		      int key, enum vfit_audit_rule rule, char *why, size_t wsize);
/*
 * The payload of image node img in fit[0..len) as U-Boot finds it (data,
 * or external data; head: with HEAD's bounds), or NULL with *why set.
 */
const uint8_t *vfit_audit_payload(const void *fit, size_t len, int img, size_t *size,
				  int head, const char **why);
/*
 * The key of encrypted image node img, from ctl's /cipher as vfit and
 * U-Boot find it: 0 with *ci filled, or -1 with the reason in why.
 */
int vfit_audit_cipher_key(const void *fit, int img, const void *ctl, struct vfit_cipher *ci,
			  char *why, size_t wsize);

/* ---- the model (audit_model.c) ---- */

/*
 * Fills a's configurations, images, hashes, signatures and keys (ctl
 * NULL: none) and, for a signed FIT, what protects each.  -1 when memory
 * ran out.
 */
int vfit_audit_model(struct vfit_audit *a, const void *fit, size_t len, const void *ctl);
/* U-Boot's reading of a key's `required` (strcmp of the first string): enum vfit_required. */
int vfit_audit_required(const void *ctl, int key);
/* The path of node into buf ("?" if it has none). */
const char *vfit_audit_path(const void *fdt, int node, char *buf, int size);
/* Whether configuration c has a signature node; whether image im has one. */
int vfit_audit_conf_signed(const struct vfit_audit *a, int c);
int vfit_audit_image_signed(const struct vfit_audit *a, int im);
/* Whether a configuration that has a signature node references image im. */
int vfit_audit_signed_conf_uses(const struct vfit_audit *a, int im);

/* ---- the rules (audit_rules_sig.c, audit_rules_image.c) ---- */

/* Hashes, signatures, keys, encrypted images (ctl NULL: none given). */
void vfit_audit_rules_sig(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			  size_t ctl_len);
/* Unit addresses, load ranges, entry points, timestamps, external data, dm-verity. */
void vfit_audit_rules_image(struct vfit_audit *a, const void *fit, size_t len);
/* After the verdicts: the default configuration the device refuses. */
void vfit_audit_rule_default(struct vfit_audit *a);

/* ---- the verdicts (audit_verdict.c) ---- */

/* Every configuration's verdicts and vfit's on the default (sets have_verdicts). */
void vfit_audit_verdicts(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			 size_t ctl_len);

#endif
