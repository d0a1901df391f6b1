/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA signature verification over NIST P-256 and P-384 (docs/fit-format.md
 * §4.3, §5.5): the key is the affine point of a control-DTB key node
 * (ecdsa,x-point / ecdsa,y-point), the signature FIT's raw r || s.
 * A key is checked once, when it is loaded; vfit_ecdsa_verify() trusts a
 * key that vfit_ecdsa_key_load() filled in.
 */
#ifndef VFIT_ECDSA_H
#define VFIT_ECDSA_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/result.h"

enum vfit_ec_curve {
	VFIT_EC_NONE = 0,       /* unknown, not built in, or key not loaded */
	VFIT_EC_P256 = 1,       /* "prime256v1", FIT ecdsa256 */
	VFIT_EC_P384 = 2,       /* "secp384r1", FIT ecdsa384 */
};

/* Largest coordinate (and r, s) size in bytes: P-384's. */
#define VFIT_ECDSA_MAX_BYTES 48

/* A loaded public key: the curve and the checked affine point. */
struct vfit_ecdsa_key {
	enum vfit_ec_curve curve;
	uint8_t x[VFIT_ECDSA_MAX_BYTES];  /* big-endian, vfit_ecdsa_curve_bytes() long */
	uint8_t y[VFIT_ECDSA_MAX_BYTES];
};

/*
 * Returns the curve of an `ecdsa,curve` string (OpenSSL's short names, as
 * U-Boot writes them): VFIT_EC_NONE if unknown or not built in
 * (VFIT_HAVE_ECDSA_P256 / VFIT_HAVE_ECDSA_P384).
 */
enum vfit_ec_curve vfit_ecdsa_curve(const char *name);

/* Returns the bytes of a coordinate, of r and of s: 32, 48, or 0 for VFIT_EC_NONE. */
size_t vfit_ecdsa_curve_bytes(enum vfit_ec_curve curve);

/*
 * Checks the point (x, y), fills key and returns VFIT_OK.  Each coordinate
 * must be exactly the curve size, below the field prime, and the point on
 * the curve (which also excludes the point at infinity, having no affine
 * form, and (0, 0), the usual stand-in for it): VFIT_ERR_KEY otherwise.  An unknown or
 * disabled curve is VFIT_ERR_UNSUPPORTED; NULL pointers VFIT_ERR_PARAM.
 * On any failure key->curve is VFIT_EC_NONE.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_ecdsa_key_load(enum vfit_ec_curve curve, const uint8_t *x, size_t xlen,
				     const uint8_t *y, size_t ylen, struct vfit_ecdsa_key *key);

/*
 * ECDSA verification (SEC 1 §4.1.4, FIPS 186-5 §6.4.2) of the digest with
 * the signature r || s: returns VFIT_OK when it verifies.  r and s are
 * each exactly the curve size (VFIT_ERR_SIG_LENGTH otherwise), both in
 * [1, n-1] (VFIT_ERR_SIG_RANGE).  The digest may have
 * any length: as the standards say, its leftmost bits up to the bit length
 * of the group order n are the integer e (a longer digest is truncated, a
 * shorter one is taken whole).  VFIT_ERR_SIGNATURE when u1*G + u2*Q is the
 * point at infinity or its x mod n differs from r.  A key that was not
 * loaded is VFIT_ERR_KEY, one whose curve is not built in
 * VFIT_ERR_UNSUPPORTED; NULL pointers are VFIT_ERR_PARAM.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_ecdsa_verify(const struct vfit_ecdsa_key *key, const uint8_t *digest,
				   size_t digest_len, const uint8_t *sig, size_t sig_len);

#endif
