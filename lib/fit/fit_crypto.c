/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The backends the library ships (include/vfit/crypto.h).  Each is a
 * const table: a product that links only vfit_verify() carries the
 * default one and none of the others.
 */
#include "vfit/crypto.h"

enum vfit_result vfit_sig_verify(const struct vfit_pubkey *key, enum vfit_hash h,
				 enum vfit_padding pad, const uint8_t *digest, const uint8_t *sig,
				 size_t sig_len)
{
	return key->algo->verify(key, h, pad, digest, sig, sig_len);
}

const struct vfit_crypto vfit_crypto_default = {
	vfit_hash_init, vfit_hash_update, vfit_hash_final, vfit_sig_verify,
};

const struct vfit_crypto vfit_crypto_portable = {
	vfit_hash_init_portable, vfit_hash_update, vfit_hash_final, vfit_sig_verify,
};

const struct vfit_crypto vfit_crypto_sha_cpu = {
	vfit_hash_init_cpu, vfit_hash_update, vfit_hash_final, vfit_sig_verify,
};
