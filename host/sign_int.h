/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the signing files share (host/sign_keys.c, sign.c, fit_conf.c):
 * the loaded keys, the signer's state and a parsed signature algo.  Not
 * installed.
 */
#ifndef VFIT_SIGN_INT_H
#define VFIT_SIGN_INT_H

#include <openssl/evp.h>

#include "mkimage_int.h"
#include "vfit/fit.h"

#define MAX_KEYS 32

struct key {
	char *name;        /* key-name-hint, or the -G file for nameless nodes */
	uint8_t kind;      /* enum vfit_sig_kind it was loaded for: RSA or ECDSA */
	EVP_PKEY *priv;    /* NULL: not found (with --allow-missing-keys) */
	EVP_PKEY *pub;     /* for -K: NAME.crt (-k RSA) or the private key */
	struct vfit_rsa_pub rsa;
	struct vfit_ecdsa_pub ec;
};

struct vfit_signer {
	const struct vfit_mkimage *m;
	struct key keys[MAX_KEYS];
	int nkeys;
	uint32_t ts;
	char last_conf[256];
	char last_key[256];
	struct vfit_engine *eng;  /* -N, opened with the first key */
	int warned;               /* the missing "pkcs11:" prefix was reported */
	int ec_later;             /* this run writes v2025.01's ECDSA key nodes (ecdsa_key_write) */
};

struct algo {
	enum vfit_hash hash;
	const struct vfit_sig_algo *sig;  /* the row of the device library's table */
	char str[64];      /* the full algo string (a copy: the FIT moves while signing) */
	char hint[128];    /* key-name-hint: names the -K key node */
	int pss;
};

/*
 * The key for a signature node, loaded once per name and kind (an RSA and
 * an ECDSA key may share a name: NAME.key and NAME.pem).  Returns NULL
 * with *skip set when the key is missing and --allow-missing-keys was
 * given (host/sign_keys.c).
 */
struct key *vfit_signer_key(struct vfit_signer *s, const char *name, const void *fit, int node,
			    uint8_t kind, int *skip, struct vfit_err *e);
/* Key lookup, algorithm and size checks shared by both kinds of signature (host/sign.c). */
struct key *vfit_sign_prepare(struct vfit_signer *s, const char *name, const void *fit, int node,
			      struct algo *a, int *skip, struct vfit_err *e);
/*
 * Signs a digest, records the node's properties in ed and writes (-K) the
 * key node.  nodes is NULL for an image signature; a configuration's key
 * is required "conf", an image's "image" (host/sign.c).
 */
int vfit_sign_write(struct vfit_signer *s, const char *name, const void *fit, int node,
		    struct key *k, const struct algo *a, const uint8_t *digest, const char *nodes,
		    size_t nodes_len, uint32_t strings, struct vfit_edits *ed,
		    struct vfit_fdtbuf *keydtb, struct vfit_err *e);

#endif
