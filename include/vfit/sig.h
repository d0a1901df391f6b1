/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The signature-algorithm seam.  A FIT `algo` is "<hash>,<algorithm>"
 * ("sha256,rsa2048", fit-format.md §3.2).  Each algorithm is one row of a
 * const table: its name, key and signature sizes, how its key node of the
 * control FDT is loaded and how a signature is checked.  The verifier and
 * the host signer both look algorithms up here, so the grammar and the
 * sizes live once; adding an algorithm is one file (lib/fit/fit_<alg>.c)
 * and one row (lib/fit/fit_algo.c).
 */
#ifndef VFIT_SIG_H
#define VFIT_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/ecdsa.h"
#include "vfit/hash.h"
#include "vfit/result.h"
#include "vfit/rsa.h"

enum vfit_sig_kind {
	VFIT_SIG_RSA = 1,
	VFIT_SIG_ECDSA = 2,
};

/*
 * The signature node's `padding`: absent or "pkcs-1.5", or "pss" (RSA
 * only: an ECDSA signature has no padding, so "pss" on one is refused).
 */
enum vfit_padding {
	VFIT_PAD_PKCS1 = 0,
	VFIT_PAD_PSS,
};

struct vfit_sig_algo;

/* A public key loaded from a key node of the control FDT (it may point into it). */
struct vfit_pubkey {
	const struct vfit_sig_algo *algo;
	union {
		struct vfit_rsa_key rsa;
		struct vfit_ecdsa_key ecdsa;  /* a copy of the checked point */
	} u;
};

struct vfit_sig_algo {
	char name[12];             /* "rsa2048": the part after the comma */
	uint16_t key_bits;         /* key size in bits (ECDSA: of the curve's order) */
	uint16_t sig_len;          /* bytes of a signature value */
	uint8_t kind;              /* enum vfit_sig_kind */
	uint8_t curve;             /* enum vfit_ec_curve of an ECDSA row, else VFIT_EC_NONE */
	/*
	 * Reads the algorithm's properties of key node `node` (whose algo
	 * already matched) into *key, checking each one's exact size:
	 * VFIT_ERR_KEY when malformed.
	 */
	enum vfit_result (*load)(const void *ctl, int node, struct vfit_pubkey *key);
	/* Checks sig[0..sig_len) over digest (of hash h) with key. */
	enum vfit_result (*verify)(const struct vfit_pubkey *key, enum vfit_hash h,
				   enum vfit_padding pad, const uint8_t *digest, const uint8_t *sig,
				   size_t sig_len);
};

/* Returns the row named name[0..len), or NULL when unknown or not built in. */
const struct vfit_sig_algo *vfit_sig_algo_find(const char *name, size_t len);

/* Returns row i in table order (NULL past the last), for listings and tests. */
const struct vfit_sig_algo *vfit_sig_algo_at(unsigned int i);

/* A signature `algo` value split: its hash and its algorithm row. */
struct vfit_algo {
	enum vfit_hash hash;       /* sha1, sha256, sha384 or sha512 */
	const struct vfit_sig_algo *sig;
};

/*
 * Parses an algo property value of len bytes (including its NUL): exactly
 * one string "<hash>,<algorithm>" with a signature hash and a row both
 * built in.  Returns VFIT_OK with *algo filled, VFIT_ERR_UNSUPPORTED
 * otherwise.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_algo_parse(const char *s, int len, struct vfit_algo *algo);

/* Whether h is a signature hash (fit-format.md §3.2); the CRCs and MD5 are not. */
static inline bool vfit_sig_hash_ok(enum vfit_hash h)
{
	return h == VFIT_HASH_SHA1 || h == VFIT_HASH_SHA256 || h == VFIT_HASH_SHA384 ||
	       h == VFIT_HASH_SHA512;
}

#endif
