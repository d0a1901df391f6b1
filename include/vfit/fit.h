/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FIT structure checks, configuration signature messages and verification.
 * The signer (host) and the verifier (device) share the node-list and
 * region code below, so both sides always agree on what is signed.
 */
#ifndef VFIT_FIT_H
#define VFIT_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/hash.h"
#include "vfit/result.h"
#include "vfit/rsa.h"

/* Largest FIT (header totalsize) accepted, like CONFIG_FIT_SIGNATURE_MAX_SIZE. */
#ifndef VFIT_SIGNATURE_MAX_SIZE
#define VFIT_SIGNATURE_MAX_SIZE 0x10000000u
#endif
/* Nesting depth and path length limits of U-Boot's region walk (fit-format.md §3.4, 7). */
#define VFIT_MAX_DEPTH 32
#define VFIT_PATH_MAX 200
/* Nodes in a whole FIT (bounds the duplicate-name check; real FITs have far fewer). */
#ifndef VFIT_MAX_NODES
#define VFIT_MAX_NODES 4096
#endif
/* Images of one configuration, and signatures/hashes recorded in a result. */
#ifndef VFIT_MAX_IMAGES
#define VFIT_MAX_IMAGES 16
#endif
#ifndef VFIT_MAX_CHECKS
#define VFIT_MAX_CHECKS 48
#endif
/* Required keys in a control FDT. */
#define VFIT_MAX_KEYS 32

#define VFIT_MAX_HASHED_NODES 100

/* Node offsets in the FIT that a configuration signature covers (fit-format.md §3.3). */
struct vfit_node_list {
	unsigned int count;
	int offset[VFIT_MAX_HASHED_NODES];
};

/*
 * Format checks of fit-format.md §6.2 on the bytes actually loaded (len): header,
 * full structure walk, one root with an empty name, no '@' in node names,
 * depth and path limits (fit-format.md §7), root description and timestamp.
 */
enum vfit_result vfit_fit_check(const void *fit, size_t len);

/*
 * U-Boot HEAD's node list for the configuration at conf_offset: '/', the
 * configuration, then every image named by any of its properties except
 * description/compatible/default, each with its hash*, cipher and dm-verity
 * children.  hashed-nodes is never read.  fit must have passed vfit_fit_check().
 */
enum vfit_result vfit_conf_nodes(const void *fit, int conf_offset, struct vfit_node_list *list);

/*
 * Feeds the signed message of fit-format.md §3.4 into ctx: the structure-block
 * regions the node list selects, in blob order, then the first strings_len
 * bytes of the strings block.  fit must have passed vfit_fit_check().
 */
enum vfit_result vfit_conf_digest(const void *fit, const struct vfit_node_list *list,
				  uint32_t strings_len, struct vfit_hash_ctx *ctx);

/* ---- algorithms and keys -------------------------------------------- */

/* A signature `algo` such as "sha256,rsa2048", split (fit-format.md §3.2). */
struct vfit_algo {
	enum vfit_hash hash;   /* sha1, sha256, sha384 or sha512 */
	uint32_t rsa_bits;     /* 2048, 3072 or 4096 */
};

/*
 * Parses an algo property value of len bytes (including its NUL).
 * VFIT_ERR_UNSUPPORTED for anything unknown or compiled out (ECDSA included).
 */
enum vfit_result vfit_algo_parse(const char *s, int len, struct vfit_algo *algo);

/* What a key node under /signature of the control FDT is required for (fit-format.md §4.4). */
enum vfit_required {
	VFIT_REQ_NONE = 0,
	VFIT_REQ_CONF,
	VFIT_REQ_IMAGE,
};

/* Sanity of a control FDT of len bytes: header, structure, /signature shape. */
enum vfit_result vfit_control_check(const void *ctl, size_t len);

/* The `required` value of a key node. */
enum vfit_required vfit_key_required(const void *ctl, int key_node);

/*
 * Loads the RSA key at key_node for a signature whose algo property is
 * (algo, algo_len): the key's algo must equal it exactly (VFIT_ERR_KEY_ALGO),
 * rsa,num-bits must be the algorithm's size, modulus and r-squared exactly
 * num-bits/8 bytes, n0-inverse one cell (VFIT_ERR_KEY otherwise).  A missing
 * or short rsa,exponent means 65537, as in U-Boot.  key points into ctl.
 */
enum vfit_result vfit_key_load(const void *ctl, int key_node, const char *algo, int algo_len,
			       struct vfit_rsa_key *key);

/* ---- the verifier ----------------------------------------------------- */

/* Flags for vfit_verify(). */
#define VFIT_VERIFY_ALLOW_UNENFORCED 1u  /* accept when the control FDT requires nothing */

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
	/* Where the first fatal error happened. */
	bool in_control;            /* the error is in the control FDT, not the FIT */
	int err_node;               /* node offset, -1 if none */
	char err_path[VFIT_PATH_MAX];  /* its path ("" if unknown) */
	const char *err_prop;       /* property name, NULL if none */
	int err_key;                /* a required key that verified nothing (control FDT), or -1 */
	/* Nothing was enforced: no key in the control FDT is required. */
	bool unenforced;
	/*
	 * A required key verified a signature of the configuration, so its
	 * properties (load, entry, rollback-index, ...) are authenticated;
	 * false under an image-signature-only policy.
	 */
	bool conf_verified;
	unsigned int nchecks;       /* recorded checks (at most VFIT_MAX_CHECKS) */
	unsigned int checks_dropped;
	struct vfit_check check[VFIT_MAX_CHECKS];
	unsigned int nimages;       /* 0 unless result == VFIT_OK */
	struct vfit_image image[VFIT_MAX_IMAGES];
};

/*
 * Verifies the FIT in fit[0..len) (len: the bytes actually loaded) against
 * the keys of the control FDT ctl[0..ctl_len), for configuration conf
 * (NULL: /configurations/default), with U-Boot HEAD's rules and stricter
 * bounds.  Fills *res; res->image[] is filled only when everything
 * verified (VFIT_OK).  When no key of the control FDT is required the
 * result is VFIT_ERR_UNENFORCED, unless flags has
 * VFIT_VERIFY_ALLOW_UNENFORCED (then VFIT_OK with res->unenforced set,
 * after hashes and optional signatures were checked as U-Boot does).
 * Pointers in *res point into fit or ctl; stack use is bounded (a few KiB).
 */
enum vfit_result vfit_verify(const void *fit, size_t len, const void *ctl, size_t ctl_len,
			     const char *conf, unsigned int flags, struct vfit_verify_result *res);

#endif
