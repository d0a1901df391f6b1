/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA signature verification from U-Boot's pre-processed public key
 * (control-DTB key node, fit-format.md §4.2).  The key's byte strings are
 * referenced, not copied: they may point straight into an FDT.
 */
#ifndef VFIT_RSA_H
#define VFIT_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/hash.h"
#include "vfit/result.h"

struct vfit_rsa_key {
	uint32_t num_bits;        /* rsa,num-bits */
	uint32_t n0inv;           /* rsa,n0-inverse: -n^-1 mod 2^32 */
	uint64_t exponent;        /* rsa,exponent */
	const uint8_t *modulus;   /* rsa,modulus: num_bits/8 bytes, big-endian */
	const uint8_t *rr;        /* rsa,r-squared: 2^(2*num_bits) mod n, same form */
};

/* Salt length for vfit_rsa_verify_pss() meaning "whatever the encoding holds" (FIT's rule). */
#define VFIT_PSS_SALT_ANY (-1)

/*
 * em = sig^e mod n, written as num_bits/8 big-endian bytes.  The key is
 * checked on every call (VFIT_ERR_KEY): num_bits a multiple of 64 in
 * 1024..VFIT_RSA_MAX_BITS, n odd with its top bit set, e odd and >= 3,
 * n0inv and rr consistent with n.  sig_len must be num_bits/8
 * (VFIT_ERR_SIG_LENGTH) and sig < n (VFIT_ERR_SIG_RANGE, stricter than
 * U-Boot).  NULL pointers give VFIT_ERR_PARAM.  Returns VFIT_OK with em
 * written, else one of those.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_rsa_public(const struct vfit_rsa_key *key, const uint8_t *sig,
				 size_t sig_len, uint8_t *em);

/*
 * RSASSA-PKCS1-v1_5: rebuilds 00 01 FF.. 00 DigestInfo digest and compares it
 * whole.  hash: SHA-1/224/256/384/512 (VFIT_ERR_UNSUPPORTED otherwise or when
 * not built in); digest holds vfit_hash_size(hash) bytes.  Returns VFIT_OK
 * when the signature verifies, VFIT_ERR_SIGNATURE when the encoding
 * differs, or what vfit_rsa_public() returned.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_rsa_verify_pkcs1(const struct vfit_rsa_key *key, enum vfit_hash hash,
				       const uint8_t *digest, const uint8_t *sig,
				       size_t sig_len);

/*
 * RSASSA-PSS with MGF1(mgf_hash); salt_len exact, or VFIT_PSS_SALT_ANY.
 * Returns as vfit_rsa_verify_pkcs1(); VFIT_ERR_UNSUPPORTED when built
 * with VFIT_HAVE_RSA_PSS=0.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_rsa_verify_pss(const struct vfit_rsa_key *key, enum vfit_hash hash,
				     enum vfit_hash mgf_hash, int salt_len,
				     const uint8_t *digest, const uint8_t *sig,
				     size_t sig_len);

#endif
