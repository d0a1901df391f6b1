/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by host/audit*.c only: the model verifier of a signature node. */
#ifndef VFIT_AUDIT_INT_H
#define VFIT_AUDIT_INT_H

#include <stddef.h>

#include "vfit-host/audit.h"

/* Which rule builds the signed node list of a configuration signature. */
enum vfit_audit_rule {
	VFIT_RULE_HEAD = 0,  /* rebuilt from the configuration (HEAD, vfit) */
	VFIT_RULE_2023,      /* the FIT's own hashed-nodes (2020.04 to 2026.01) */
};

/*
 * Does the signature node sig (of configuration conf, or of an image when
 * conf < 0) verify with the key node key of ctl, by rule?  0 if it does,
 * else a short reason in why.  The FIT must have passed vfit_fdt_check().
 */
int vfit_audit_sig_ok(const void *fit, size_t len, int sig, int conf, const void *ctl,
		      int key, enum vfit_audit_rule rule, char *why, size_t wsize);

/* A U-Boot build as the verdicts model it. */
struct vfit_audit_uboot {
	enum vfit_audit_rule rule;  /* node list of configuration signatures */
	int ext_bounds;             /* HEAD's external-data bounds (2026.10 cycle) */
	int rsa_pkcs1_only;         /* a device build without PSS or ECDSA drivers */
};

/* U-Boot's reading of a key's `required` (strcmp of the first string): enum vfit_required. */
int vfit_audit_required(const void *ctl, int key);

#endif
