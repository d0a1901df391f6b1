/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSASSA-PSS verification (RFC 8017 section 9.1.2, fit-format.md §5.4) with MGF1.
 * Kept apart from PKCS#1 v1.5 so that a PKCS#1-only product does not link
 * it; building with VFIT_HAVE_RSA_PSS=0 leaves only the "unsupported" answer.
 *
 * Key sizes are multiples of 64 bits with the top bit set (rsa.c), so
 * emBits = num_bits - 1 = 8k - 1: EM is k bytes and exactly its top bit must
 * be zero.  The salt length is enforced exactly, or taken from the encoding
 * with VFIT_PSS_SALT_ANY (U-Boot's FIT rule: any length, including 0).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfit/rsa.h"
#include "../hash/hash_int.h"

#if VFIT_HAVE_RSA_PSS

static int is_sha(enum vfit_hash h)
{
	return h == VFIT_HASH_SHA1 || h == VFIT_HASH_SHA224 || h == VFIT_HASH_SHA256 ||
	       h == VFIT_HASH_SHA384 || h == VFIT_HASH_SHA512;
}

/*
 * db[0 .. len) ^= MGF1(seed), the counter appended as 4 big-endian bytes.
 * c and block (VFIT_HASH_MAX_SIZE bytes) are the caller's, to share stack.
 */
static void mgf1_xor(struct vfit_hash_ctx *c, uint8_t *block, enum vfit_hash mgf, uint8_t *db,
		     size_t len, const uint8_t *seed, size_t seed_len)
{
	size_t mlen = vfit_hash_size(mgf), off, i;
	uint32_t counter = 0;
	uint8_t ctr[4];

	for (off = 0; off < len; off += mlen, counter++) {
		st_be32(ctr, counter);
		vfit_hash_init(c, mgf);
		vfit_hash_update(c, seed, seed_len);
		vfit_hash_update(c, ctr, sizeof(ctr));
		vfit_hash_final(c, block);
		for (i = 0; i < mlen && off + i < len; i++)
			db[off + i] ^= block[i];
	}
}

enum vfit_result vfit_rsa_verify_pss(const struct vfit_rsa_key *key, enum vfit_hash hash,
				     enum vfit_hash mgf_hash, int salt_len,
				     const uint8_t *digest, const uint8_t *sig,
				     size_t sig_len)
{
	static const uint8_t zeros[8];
	uint8_t em[VFIT_RSA_MAX_BITS / 8], h[VFIT_HASH_MAX_SIZE];
	size_t k, hlen, db_len, min_salt, i;
	struct vfit_hash_ctx c;
	enum vfit_result r;
	unsigned diff = 0;

	/* Probing both hashes up front also rejects ones left out of the build. */
	if (!is_sha(hash) || !is_sha(mgf_hash) || vfit_hash_init(&c, mgf_hash) ||
	    vfit_hash_init(&c, hash))
		return VFIT_ERR_UNSUPPORTED;
	if (!digest || salt_len < VFIT_PSS_SALT_ANY)
		return VFIT_ERR_PARAM;
	r = vfit_rsa_public(key, sig, sig_len, em);
	if (r != VFIT_OK)
		return r;

	k = key->num_bits / 8;
	hlen = vfit_hash_size(hash);
	min_salt = salt_len == VFIT_PSS_SALT_ANY ? 0 : (size_t)salt_len;
	if (k < hlen + min_salt + 2 || em[k - 1] != 0xbc || (em[0] & 0x80))
		return VFIT_ERR_SIGNATURE;

	/* EM = maskedDB || H || 0xbc; unmask DB in place (H lies after it). */
	db_len = k - hlen - 1;
	mgf1_xor(&c, h, mgf_hash, em, db_len, em + db_len, hlen);
	em[0] &= 0x7f;

	/* DB = 00 .. 00 01 salt */
	for (i = 0; i < db_len && em[i] == 0; i++)
		;
	if (i == db_len || em[i] != 0x01)
		return VFIT_ERR_SIGNATURE;
	i++;
	if (salt_len != VFIT_PSS_SALT_ANY && db_len - i != min_salt)
		return VFIT_ERR_SIGNATURE;

	/* H' = Hash(8 zero bytes || mHash || salt) */
	vfit_hash_init(&c, hash);
	vfit_hash_update(&c, zeros, sizeof(zeros));
	vfit_hash_update(&c, digest, hlen);
	vfit_hash_update(&c, em + i, db_len - i);
	vfit_hash_final(&c, h);
	for (i = 0; i < hlen; i++)
		diff |= h[i] ^ em[db_len + i];
	return diff ? VFIT_ERR_SIGNATURE : VFIT_OK;
}

#else

enum vfit_result vfit_rsa_verify_pss(const struct vfit_rsa_key *key, enum vfit_hash hash,
				     enum vfit_hash mgf_hash, int salt_len,
				     const uint8_t *digest, const uint8_t *sig,
				     size_t sig_len)
{
	(void)key, (void)hash, (void)mgf_hash, (void)salt_len;
	(void)digest, (void)sig, (void)sig_len;
	return VFIT_ERR_UNSUPPORTED;
}

#endif
