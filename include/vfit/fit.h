/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FIT structure checks, configuration signature messages and verification.
 * The signer (host) and the verifier (device) share the node-list and
 * region code below, so both sides always agree on what is signed.
 *
 * Every function is linear in the size of the FIT (no per-node rescans):
 * a hostile FIT costs a bounded number of passes over its structure.
 */
#ifndef VFIT_FIT_H
#define VFIT_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/crypto.h"
#include "vfit/hash.h"
#include "vfit/result.h"
#include "vfit/sig.h"

/* Which limit a VFIT_ERR_LIMIT hit (see include/vfit/config.h for each). */
enum vfit_limit {
	VFIT_LIMIT_NONE = 0,
	VFIT_LIMIT_DEPTH,          /* VFIT_MAX_DEPTH levels of nodes */
	VFIT_LIMIT_PATH,           /* VFIT_PATH_MAX bytes of a node path */
	VFIT_LIMIT_IMAGES,         /* VFIT_MAX_IMAGES image references */
	VFIT_LIMIT_CONF_REFS,      /* VFIT_MAX_CONF_REFS strings in a configuration */
	VFIT_LIMIT_HASHED_NODES,   /* VFIT_MAX_HASHED_NODES signed nodes */
	VFIT_LIMIT_REGIONS,        /* 18 + 7 * nodes regions of a signed message */
	VFIT_LIMIT_SIGNATURES,     /* VFIT_MAX_SIGNATURES signature nodes */
	VFIT_LIMIT_HASHES,         /* VFIT_MAX_HASHES hash nodes */
	VFIT_LIMIT_KEYS,           /* VFIT_MAX_KEYS required keys */
};

/* Returns the name of l for logs, with its knob ("node depth (VFIT_MAX_DEPTH)", ...). */
const char *vfit_limit_to_string(enum vfit_limit l);

/*
 * Where a check failed: a node offset (or -1), a property name (or NULL),
 * and for VFIT_ERR_LIMIT which limit.  Filled only when VFIT_REPORT.
 */
struct vfit_diag {
	int node;
	const char *prop;
	enum vfit_limit limit;
};

/* ---- structure ----------------------------------------------------------- */

/*
 * What libfdt's fdt_check_full() checks, in one linear pass and without
 * its hang (a property length that wraps the offset back loops it
 * forever): header and sizes within len, every tag valid and moving
 * forward, property names inside the strings block and at most
 * VFIT_PROP_NAME_MAX bytes, balanced nesting, one root.  For any device
 * tree read from outside before libfdt walks it.  Returns VFIT_OK, or
 * VFIT_ERR_TRUNCATED / VFIT_ERR_FORMAT with diag at the node (diag may be
 * NULL).
 */
VFIT_MUST_CHECK
enum vfit_result vfit_fdt_check(const void *fdt, size_t len, struct vfit_diag *diag);

/* Flags for vfit_fit_check(). */
#define VFIT_FIT_ALLOW_AT 1u       /* '@' in node names: unsigned FITs on the host only */

/*
 * Format checks of fit-format.md §6.2 on the bytes actually loaded (len):
 * header, full structure walk, one root with an empty name, nothing after
 * FDT_END, no '@' (unless VFIT_FIT_ALLOW_AT) or '/' in node names, depth
 * and path limits (§7), root description and timestamp, one /images.
 * Returns VFIT_OK or the first check that failed, with diag at it (diag
 * may be NULL).
 */
VFIT_MUST_CHECK
enum vfit_result vfit_fit_check(const void *fit, size_t len, unsigned int flags,
				struct vfit_diag *diag);

/*
 * Finds names[0..n) among the children of parent in one pass over its
 * subtree: node[i] is the child named names[i], or -1.  Returns VFIT_OK;
 * VFIT_ERR_DUPLICATE for a name two children share (diag->node: the
 * second), where libfdt would find the first while U-Boot's region walk,
 * which works on paths, covers both; VFIT_ERR_FORMAT for an unreadable
 * name.  names must be distinct.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_subnodes(const void *fdt, int parent, const char *const *names,
			       unsigned int n, int *node, struct vfit_diag *diag);

/* ---- what a configuration signature covers (fit-format.md §3.3, §3.4) ---- */

/*
 * The distinct strings a configuration's properties name (except
 * description, compatible and default), in property order: each names an
 * image when /images has a child of that name.
 */
struct vfit_conf_refs {
	unsigned int n;
	const char *name[VFIT_MAX_CONF_REFS];
	int node[VFIT_MAX_CONF_REFS];      /* resolved child of /images, or -1 */
};

/* Stamped with the ABI knobs (vfit/config.h): they take struct vfit_conf_refs. */
#define vfit_conf_refs(...) VFIT_ABI(vfit_conf_refs)(__VA_ARGS__)
#define vfit_conf_list VFIT_ABI(vfit_conf_list)

/*
 * Collects the strings of conf into refs (node[] all -1); returns VFIT_OK,
 * VFIT_ERR_LIMIT past VFIT_MAX_CONF_REFS, VFIT_ERR_FORMAT for an unreadable
 * property.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_conf_refs(const void *fit, int conf, struct vfit_conf_refs *refs,
				struct vfit_diag *diag);

/* Node offsets in the FIT that a configuration signature covers (fit-format.md §3.3). */
struct vfit_node_list {
	unsigned int count;
	int offset[VFIT_MAX_HASHED_NODES];
};

/*
 * U-Boot HEAD's node list from resolved refs: '/', the configuration, then
 * every resolved image, each with its hash*, cipher and dm-verity
 * children.  Returns VFIT_OK; VFIT_ERR_NO_HASH names (diag) an image
 * without hash nodes, VFIT_ERR_NO_IMAGES a configuration that resolves
 * none, VFIT_ERR_LIMIT a list past VFIT_MAX_HASHED_NODES.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_conf_list(const void *fit, int conf, const struct vfit_conf_refs *refs,
				struct vfit_node_list *list, struct vfit_diag *diag);

/*
 * vfit_conf_refs(), resolved under /images with vfit_subnodes(), then
 * vfit_conf_list(): the node list of the configuration at conf.
 * hashed-nodes is never read.  fit must have passed vfit_fit_check().
 * Returns what the first of those that failed returned (VFIT_ERR_MISSING
 * without /images), else VFIT_OK.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_conf_nodes(const void *fit, int conf, struct vfit_node_list *list,
				 struct vfit_diag *diag);

/*
 * Feeds the signed message of fit-format.md §3.4 into ctx: the
 * structure-block regions the node list selects, in blob order, then the
 * first strings_len bytes of the strings block.  One pass over the
 * structure block.  fit must have passed vfit_fit_check().  Returns
 * VFIT_OK; VFIT_ERR_STRINGS_BOUNDS when strings_len exceeds the strings
 * block, VFIT_ERR_LIMIT past the region limit, VFIT_ERR_FORMAT.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_conf_digest(const void *fit, const struct vfit_node_list *list,
				  uint32_t strings_len, struct vfit_hash_ctx *ctx);

/*
 * The same message, skipping the subtrees that hold no listed node:
 * end[off / 4], for the structure offset off of every node, is the offset
 * just past its END_NODE (the host signer indexes the FIT once and signs
 * thousands of configurations without a full pass each).  Returns what
 * vfit_conf_digest() does.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_conf_digest_skip(const void *fit, const struct vfit_node_list *list,
				       uint32_t strings_len, const int32_t *end,
				       struct vfit_hash_ctx *ctx);

/* ---- keys of the control FDT (fit-format.md §4) ---------------------------- */

/* What a key node under /signature of the control FDT is required for (§4.4). */
enum vfit_required {
	VFIT_REQ_NONE = 0,
	VFIT_REQ_CONF,
	VFIT_REQ_IMAGE,
};

/*
 * Sanity of a control FDT of len bytes: header, structure, /signature
 * shape, and its policy properties, which must say exactly what they mean
 * or the whole control FDT is refused (VFIT_ERR_CONTROL, diag at the node
 * and property): each key's `required` absent or exactly one string
 * "conf" or "image", /signature's `required-mode` absent or exactly "any"
 * or "all", at most VFIT_MAX_KEYS required keys.  Returns VFIT_OK or
 * VFIT_ERR_CONTROL.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_control_check(const void *ctl, size_t len, struct vfit_diag *diag);

/*
 * Returns the `required` value of a key node of a control FDT that passed
 * vfit_control_check() (VFIT_REQ_NONE when absent).
 */
enum vfit_required vfit_key_required(const void *ctl, int key_node);

/*
 * Returns a key's name for reports: its key-name-hint, else its node's
 * name (NULL for a bad offset).
 */
const char *vfit_key_name(const void *ctl, int key_node);

/*
 * Loads the key at key_node for a signature whose algo property is
 * (algo, algo_len), if the key serves it (else VFIT_ERR_KEY_ALGO): an RSA
 * key's algo must equal it exactly (without algo: VFIT_ERR_KEY).  An ECDSA
 * key serves its own row with any hash: its algo, when present, must name
 * the signature's row ("sha1,ecdsa256" serves "sha384,ecdsa256"); without
 * algo, as mkimage 2023.01 writes ECDSA keys, its ecdsa,curve must be the
 * row's.  Then the row loads and checks the key's properties (an RSA key
 * points into ctl, an ECDSA key is a copy of its checked point).  Returns
 * VFIT_OK with *key filled, VFIT_ERR_UNSUPPORTED for an algo not built
 * in, else why the key does not serve or is malformed.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_key_load(const void *ctl, int key_node, const char *algo, int algo_len,
			       struct vfit_pubkey *key);

/* ---- the verifier ----------------------------------------------------- */

/* Flags for vfit_verify(). */
#define VFIT_VERIFY_ALLOW_UNENFORCED 1u  /* accept when the control FDT requires nothing */
/*
 * Accept images with a `cipher` node (else VFIT_ERR_UNSUPPORTED at it):
 * their data, hashes and image signatures are the ciphertext, which the
 * caller then decrypts with vfit_cipher_decrypt() (vfit/cipher.h).  Only
 * under a configuration signature by a required key, which covers the
 * cipher node (IV, key name) and data-size-unciphered: an image signature
 * covers the ciphertext alone.
 */
#define VFIT_VERIFY_ALLOW_CIPHER 2u

/* One signature or hash check, in the order performed. */
enum vfit_check_kind {
	VFIT_CHECK_CONF_SIG = 1,    /* configuration signature with a required key */
	VFIT_CHECK_IMAGE_SIG,       /* image signature */
	VFIT_CHECK_HASH,            /* image hash node */
};

struct vfit_check {
	uint8_t kind;               /* enum vfit_check_kind */
	uint8_t required;           /* the key was required (failure is fatal) */
	enum vfit_result result;    /* VFIT_OK: '+' */
	int node;                   /* signature or hash node in the FIT */
	int key_node;               /* key node in the control FDT, -1 for none/hashes */
	const char *algo;           /* "sha256,rsa2048" / "sha256": points into the FIT */
	const char *key_name;       /* key-name-hint of the key (else the signature's) */
	const char *image;          /* image unit name for image checks, else NULL */
};

/* Why an image is part of the configuration. */
struct vfit_image {
	const char *name;           /* unit name under /images (points into the FIT) */
	const char *prop;           /* referencing property: "kernel", "fdt", "loadables"... */
	unsigned int index;         /* position in that property's string list */
	int node;                   /* offset of /images/<name> */
	const uint8_t *data;        /* verified payload (NULL until verified) */
	size_t size;
	size_t offset;              /* data - fit */
	uint64_t load, entry;       /* valid if has_load / has_entry */
	bool has_load, has_entry;
	bool external;              /* data-offset / data-position */
	const char *type, *os, *arch, *compression;  /* NULL when absent */
};

struct vfit_verify_result {
	enum vfit_result result;
	const char *conf;           /* selected configuration name (points into the FIT) */
	int conf_node;
	/* Nothing was enforced: no key in the control FDT is required. */
	bool unenforced;
	/*
	 * A required key verified a signature of the configuration, so its
	 * properties (load, entry, rollback-index, ...) are authenticated;
	 * false under an image-signature-only policy.
	 */
	bool conf_verified;
	unsigned int nimages;       /* 0 unless result == VFIT_OK */
	struct vfit_image image[VFIT_MAX_IMAGES];
#if VFIT_REPORT
	/* Where the first fatal error happened. */
	bool in_control;            /* the error is in the control FDT, not the FIT */
	int err_node;               /* node offset, -1 if none */
	char err_path[VFIT_PATH_MAX];  /* its path ("" if unknown) */
	const char *err_prop;       /* property name, NULL if none */
	enum vfit_limit err_limit;  /* for VFIT_ERR_LIMIT: which one */
	int err_key;                /* a required key that verified nothing (control FDT), or -1 */
	unsigned int nchecks;       /* recorded checks (at most VFIT_MAX_CHECKS) */
	unsigned int checks_dropped;
	struct vfit_check check[VFIT_MAX_CHECKS];
#endif
};

#if VFIT_CRYPTO_TABLE
#define vfit_verify_with VFIT_ABI(vfit_verify_with)

/*
 * Verifies the FIT in fit[0..len) (len: the bytes actually loaded) against
 * the keys of the control FDT ctl[0..ctl_len), for configuration conf
 * (NULL: /configurations/default), with U-Boot HEAD's rules and stricter
 * bounds, every hash and signature check through the crypto backend cr
 * (vfit/crypto.h; NULL: VFIT_ERR_PARAM).  Fills *res and returns
 * res->result: VFIT_OK when the FIT verified, else why not; res->image[]
 * is filled only when everything verified.  When no key of the control
 * FDT is required the result is VFIT_ERR_UNENFORCED, unless flags has
 * VFIT_VERIFY_ALLOW_UNENFORCED (then VFIT_OK with res->unenforced set,
 * after hashes and optional signatures were checked as U-Boot does).
 * Pointers in *res point into fit or ctl; stack use is bounded (a few KiB).
 */
VFIT_MUST_CHECK
enum vfit_result vfit_verify_with(const struct vfit_crypto *cr, const void *fit, size_t len,
				  const void *ctl, size_t ctl_len, const char *conf,
				  unsigned int flags, struct vfit_verify_result *res);

/*
 * vfit_verify_with() on the default backend; returns what it returns.
 * Inline, so a device that verifies through the default backend links no
 * second entry point.
 */
VFIT_MUST_CHECK
static inline enum vfit_result vfit_verify(const void *fit, size_t len, const void *ctl,
					   size_t ctl_len, const char *conf, unsigned int flags,
					   struct vfit_verify_result *res)
{
	return vfit_verify_with(&vfit_crypto_default, fit, len, ctl, ctl_len, conf, flags, res);
}
#else
#define vfit_verify VFIT_ABI(vfit_verify)

/*
 * VFIT_CRYPTO_TABLE=0: vfit_verify_with() without the backend, the
 * library's own hash and signature code called directly; returns
 * res->result as vfit_verify_with() does.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_verify(const void *fit, size_t len, const void *ctl, size_t ctl_len,
			     const char *conf, unsigned int flags, struct vfit_verify_result *res);
#endif

#endif
