/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key material on the host (host/keys/): public keys in the forms the
 * device library and U-Boot's key nodes hold, keys in an OpenSSL engine
 * (PKCS#11), and new key pairs.
 */
#ifndef VFIT_HOST_KEYS_H
#define VFIT_HOST_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "vfit/vfit.h"
#include "vfit-host/err.h"

/* ---- keys (host/keys/keys.c) -------------------------------------------- */

/* An RSA public key in U-Boot's pre-processed form (fit-format.md §4.2). */
struct vfit_rsa_pub {
	uint32_t num_bits;
	uint32_t n0inv;                          /* -n^-1 mod 2^32 */
	uint64_t exponent;
	uint8_t modulus[VFIT_RSA_MAX_BITS / 8];  /* num_bits/8 bytes, big-endian */
	uint8_t rr[VFIT_RSA_MAX_BITS / 8];       /* 2^(2*num_bits) mod n, same form */
};

/* Pre-processes an OpenSSL RSA public (or private) key. */
int vfit_rsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_rsa_pub *pub, struct vfit_err *e);
/* The device library's view of pub (pointers into pub). */
void vfit_rsa_pub_key(const struct vfit_rsa_pub *pub, struct vfit_rsa_key *key);
/*
 * Writes /signature/key-<name> into an FDT opened for writing, exactly as
 * mkimage -K does (property order, cells, algo, optional required), replacing
 * an existing node's properties in place.  Returns 0 or a negative libfdt
 * error (-FDT_ERR_NOSPACE: grow the blob and retry).  To match mkimage's
 * file byte for byte, grow as it does: totalsize (and the file) += 1024,
 * then 2048, 3072, ... cumulatively, keeping what the failed attempt wrote,
 * and count an attempt on which the FIT ran out of space as a retry too
 * (mkimage grows the -K DTB on every retry of its FIT pass).
 */
int vfit_rsa_keynode_write(void *fdt, const char *name, const struct vfit_rsa_pub *pub,
			   const char *algo, const char *required);

/* ---- ECDSA keys (host/keys/keys_ecdsa.c) -------------------------------- */

/* An ECDSA public key as the key node holds it (docs/fit-format.md §4.3). */
struct vfit_ecdsa_pub {
	enum vfit_ec_curve curve;
	const char *curve_name;                 /* ecdsa,curve: "prime256v1", "secp384r1" */
	size_t len;                             /* bytes per coordinate: 32, 48 */
	uint8_t x[VFIT_ECDSA_MAX_BYTES];        /* ecdsa,x-point: big-endian, len bytes */
	uint8_t y[VFIT_ECDSA_MAX_BYTES];        /* ecdsa,y-point */
};

/*
 * The curve of an OpenSSL key: P-256 or P-384 by name, else -1 with e set
 * (not EC, explicit parameters, another curve).
 */
int vfit_ecdsa_pkey_curve(const EVP_PKEY *pkey, enum vfit_ec_curve *curve, struct vfit_err *e);
/* The key node's ecdsa,curve string of a curve ("prime256v1", "secp384r1"), or NULL. */
const char *vfit_ecdsa_curve_name(enum vfit_ec_curve curve);
/* The public point of an OpenSSL EC key (public or private) on P-256 or P-384. */
int vfit_ecdsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_ecdsa_pub *pub,
			     struct vfit_err *e);
/* The device library's loaded key for pub: vfit_ecdsa_key_load()'s result. */
enum vfit_result vfit_ecdsa_pub_key(const struct vfit_ecdsa_pub *pub, struct vfit_ecdsa_key *key);
/*
 * Writes /signature/<name> (no "key-" prefix, unlike RSA) into an FDT
 * opened for writing, creating /signature if needed and updating an
 * existing node's properties in place.  With algo NULL it is mkimage
 * 2023.01's node, byte for byte: ecdsa,curve, ecdsa,x-point, ecdsa,y-point
 * only (then required must be NULL: 2023.01 never writes it, so its -r
 * marks no ECDSA key required).  With algo it is v2025.01's and later:
 * key-name-hint = name first, algo and the optional required last.
 * Note that 2023.01 itself refuses a DTB without /signature (it adds no
 * key) and fails when the node exists; the caller decides whether to
 * follow it.  Returns 0 or a negative libfdt error (-FDT_ERR_NOSPACE: grow
 * the blob and retry, as for vfit_rsa_keynode_write()).
 */
int vfit_ecdsa_keynode_write(void *fdt, const char *name, const struct vfit_ecdsa_pub *pub,
			     const char *algo, const char *required);

/* ---- keys in an OpenSSL engine (host/keys/engine.c) --------------------- */

/*
 * mkimage -N: the engine stays open for as long as keys loaded from it
 * are used.  MKIMAGE_SIGN_PIN is given to it as its PIN.
 */
struct vfit_engine;
struct vfit_engine *vfit_engine_open(const char *id, struct vfit_err *e);
/* The private key, or with public != 0 the public key, named key_id. */
EVP_PKEY *vfit_engine_key(struct vfit_engine *g, const char *key_id, int public,
			  struct vfit_err *e);
void vfit_engine_close(struct vfit_engine *g);

/* ---- new keys (host/keys/keygen.c) -------------------------------------- */

/*
 * New RSA key pair DIR/NAME.key (0600) + DIR/NAME.crt (self-signed,
 * CN=NAME); DIR is made (0700) when missing (both keygen calls).
 */
int vfit_keygen(const char *dir, const char *name, unsigned int bits, int force,
		struct vfit_err *e);
/* New ECDSA key DIR/NAME.pem (PKCS#8 PEM, 0600) on P-256 or P-384: what mkimage reads. */
int vfit_keygen_ecdsa(const char *dir, const char *name, enum vfit_ec_curve curve, int force,
		      struct vfit_err *e);

#endif
