/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals shared by the lib/fit/ sources: the verification context
 * that carries the inputs, the caller's result and a cursor on the check
 * in progress, and the few helpers more than one file needs.  Nothing
 * here is public API.
 */
#ifndef VFIT_FIT_INT_H
#define VFIT_FIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/crypto.h"
#include "vfit/fit.h"

#include "../byteorder.h"

/*
 * Payload digests of the image being verified, one slot per hash
 * algorithm, so an image is hashed at most once per algorithm however its
 * hash and signature nodes interleave them.
 */
struct vfit_digests {
	int node;                       /* image node the slots belong to, or -1 */
	uint16_t valid;                 /* bit h: the slot of hash h is filled */
	uint8_t d[214];                 /* every digest size end to end (fit_sig.c) */
};

struct vfit_ctx {
#if VFIT_CRYPTO_TABLE
	const struct vfit_crypto *cr;   /* every hash and signature check goes through it */
#endif
	const uint8_t *fit;
	size_t len;                     /* bytes loaded */
	const void *ctl;
	struct vfit_verify_result *res;
	int keys;                       /* /signature in ctl, or < 0 */
	int images;                     /* /images in the FIT */
	/*
	 * Where the check in progress is.  Every step points the cursor at
	 * what it is about to read; when a step fails, vfit_verify() reports
	 * the cursor, so no error path has to pass its location around.
	 */
	struct vfit_diag at;
	bool at_control;                /* the cursor is in the control FDT */
	/* Recorded with each check: the image being verified (NULL: the configuration). */
	const struct vfit_image *img;
	bool required;                  /* signatures are checked for required keys */
	bool conf_enforced;             /* a required key verified the configuration */
	bool allow_cipher;              /* VFIT_VERIFY_ALLOW_CIPHER */
	/*
	 * The configuration message of signature node dnode with hash dhash.
	 * Scalars before the arrays: Thumb-2 reaches small offsets with
	 * 16-bit loads and stores.
	 */
	int dnode;
	enum vfit_hash dhash;
	struct vfit_digests payload;
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	struct vfit_conf_refs refs;     /* what the configuration names */
	struct vfit_node_list list;     /* what the configuration signatures cover */
};

#if VFIT_REPORT
/* Points the cursor at node (in the FIT, or in the control FDT) and prop. */
static inline void vfit_at(struct vfit_ctx *c, int node, const char *prop, bool in_control)
{
	c->at.node = node;
	c->at.prop = prop;
	c->at_control = in_control;
}

static inline void vfit_at_prop(struct vfit_ctx *c, const char *prop)
{
	c->at.prop = prop;
}

/* Records where a step failed into a caller's diag (may be NULL). */
static inline void vfit_diag_set(struct vfit_diag *d, int node, const char *prop)
{
	if (d) {
		d->node = node;
		d->prop = prop;
	}
}

/* VFIT_ERR_LIMIT, saying which limit. */
static inline enum vfit_result vfit_limit(struct vfit_diag *d, enum vfit_limit l)
{
	if (d)
		d->limit = l;
	return VFIT_ERR_LIMIT;
}

/* Appends a check (kind, outcome, FIT node, key node or -1) to the result. */
void vfit_record_(struct vfit_ctx *c, enum vfit_check_kind kind, enum vfit_result r, int node,
		 int key_node);
#else
/* A minimal build keeps every check and leaves the reporting out. */
static inline void vfit_at(struct vfit_ctx *c, int node, const char *prop, bool in_control)
{
	(void)c, (void)node, (void)prop, (void)in_control;
}

static inline void vfit_at_prop(struct vfit_ctx *c, const char *prop)
{
	(void)c, (void)prop;
}

static inline void vfit_diag_set(struct vfit_diag *d, int node, const char *prop)
{
	(void)d, (void)node, (void)prop;
}

static inline enum vfit_result vfit_limit(struct vfit_diag *d, enum vfit_limit l)
{
	(void)d, (void)l;
	return VFIT_ERR_LIMIT;
}

static inline void vfit_record_(struct vfit_ctx *c, enum vfit_check_kind kind,
			       enum vfit_result r, int node, int key_node)
{
	(void)c, (void)kind, (void)r, (void)node, (void)key_node;
}
#endif

/*
 * The properties named in names (NUL-separated, ended by an empty name) of
 * node, in one pass over the node instead of one fdt_getprop() scan per
 * name: v[i] is the i-th name's value and length (p NULL when absent).  As
 * with fdt_getprop(), the first of two equal names wins.
 */
struct vfit_prop {
	const uint8_t *p;
	int len;
};
void vfit_props_(const void *fdt, int node, const char *names, struct vfit_prop *v,
		unsigned int n);
/* v as exactly one NUL-terminated string, or NULL. */
const char *vfit_str_(const struct vfit_prop *v);
/* String property name of node as exactly one string, or NULL. */
const char *vfit_prop_str_(const void *fdt, int node, const char *name);
/*
 * Name lists more than one file reads (each stored once):
 * vfit_image_props_, an image node's properties in the order of enum
 * vfit_iprop, the payload properties (not signed, fit-format.md §3.4)
 * first; vfit_sig_props_, a signature node's, whose first two (algo,
 * value) are also a hash node's; vfit_conf_meta_ (below).
 */
extern const char vfit_image_props_[];
enum vfit_iprop { P_DATA, P_POS, P_OFF, P_SIZE, P_LOAD, P_ENTRY, P_TYPE, P_OS, P_ARCH, P_COMP, NP };
extern const char vfit_sig_props_[];
enum vfit_sprop { S_ALGO, S_VALUE, S_PADDING, S_STRINGS, NS };
/* A configuration's properties that name no image; the first alone is "description". */
extern const char vfit_conf_meta_[];

/* The index of name in list (NUL-separated names, ended by an empty one), or -1. */
int vfit_index_(const char *name, const char *list);
/* Whether name is one of such a list. */
static inline bool vfit_in(const char *name, const char *list)
{
	return vfit_index_(name, list) >= 0;
}
/* Whether node's name starts with prefix. */
bool vfit_name_prefix_(const void *fdt, int node, const char *prefix);

/* The index of s in refs->name[], or -1. */
int vfit_ref_index_(const struct vfit_conf_refs *refs, const char *s);

/*
 * Structure walk of fit-format.md §6.2 / §7 on fdt[0..len).  fit_rules
 * adds the FIT rules (the 256 MiB cap, no '@' unless VFIT_FIT_ALLOW_AT in
 * flags, no '/', depth and path limits, FDT_END last).
 */
enum vfit_result vfit_fdt_walk_(const void *fdt, size_t len, bool fit_rules, unsigned int flags,
			       struct vfit_diag *diag);

/*
 * vfit_fit_check() that also finds /images (top[0]) and /configurations
 * (top[1], or -1) in the same pass over the root's children.
 */
enum vfit_result vfit_fit_top_(const void *fit, size_t len, unsigned int flags,
			      struct vfit_diag *diag, int top[2]);

#if VFIT_CRYPTO_TABLE
/* vfit_conf_digest() feeding the message through cr's hash_update. */
enum vfit_result vfit_conf_digest_with_(const void *fit, const struct vfit_node_list *list,
				       uint32_t strings_len, struct vfit_hash_ctx *ctx,
				       const struct vfit_crypto *cr);
#endif

/*
 * The digest with h of what node covers, in *digest: with c->img set the
 * image's payload (node: its image node, one slot per algorithm, see
 * struct vfit_digests), else the configuration message of fit-format.md
 * §3.4 for signature node `node` with hashed-strings hs.
 */
enum vfit_result vfit_digest_(struct vfit_ctx *c, int node, enum vfit_hash h,
			     const struct vfit_prop *hs, const uint8_t **digest);

/*
 * Signature checks of a configuration (c->img NULL) or of the image c->img
 * at node (fit-format.md §6.3, §6.4): role names the keys that must verify it,
 * any = one of them suffices.  VFIT_REQ_NONE checks image signatures with
 * every key for the record only, as U-Boot does.
 */
enum vfit_result vfit_sigs_(struct vfit_ctx *c, int node, enum vfit_required role, bool any);

/* Image data location with the bounds of fit-format.md §2.6 / §6.5, and image checks (§6.4). */
enum vfit_result vfit_image_locate_(struct vfit_ctx *c, struct vfit_image *img);
enum vfit_result vfit_image_verify_(struct vfit_ctx *c, const struct vfit_image *img);

/*
 * vfit_control_check() that also hands out /signature (or -1) and whether
 * its required-mode is "any": one lookup each, not two.
 */
enum vfit_result vfit_control_keys_(const void *ctl, size_t len, struct vfit_diag *diag,
				   int *keys, bool *any);

/* vfit_key_load() for an algo the caller has already parsed into a. */
enum vfit_result vfit_key_load_algo_(const void *ctl, int key_node, const char *algo,
				    int algo_len, const struct vfit_algo *a,
				    struct vfit_pubkey *key);

/* The RSA row's key loader and verifier (lib/fit/fit_rsa.c). */
enum vfit_result vfit_rsa_fit_load_(const void *ctl, int node, struct vfit_pubkey *key);
enum vfit_result vfit_rsa_fit_verify_(const struct vfit_pubkey *key, enum vfit_hash h,
				     enum vfit_padding pad, const uint8_t *digest,
				     const uint8_t *sig, size_t sig_len);

/* The ECDSA rows' key loader and verifier (lib/fit/fit_ecdsa.c). */
enum vfit_result vfit_ecdsa_fit_load_(const void *ctl, int node, struct vfit_pubkey *key);
enum vfit_result vfit_ecdsa_fit_verify_(const struct vfit_pubkey *key, enum vfit_hash h,
				       enum vfit_padding pad, const uint8_t *digest,
				       const uint8_t *sig, size_t sig_len);

#endif
