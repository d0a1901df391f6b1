/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The crypto backend seam: every hash and every signature check the
 * verifier makes goes through one struct vfit_crypto, so a SoC with a hash
 * engine or a public-key accelerator plugs in without editing lib/ (as
 * MCUboot's bootutil crypto backends and U-Boot's crypto uclasses do).
 *
 * Backends shipped with the library (all const, nothing global mutable):
 *   vfit_crypto_default   portable C; SHA-1/SHA-224/SHA-256 switch to the
 *                         CPU's SHA instructions (x86 SHA-NI, ARMv8 CE)
 *                         for long messages when the CPU has them
 *   vfit_crypto_portable  portable C only
 *   vfit_crypto_sha_cpu   SHA-1/SHA-224/SHA-256 on the CPU's instructions
 *                         from the first byte (their init fails when the
 *                         CPU or the build has none); the rest portable
 * vfit_verify() uses vfit_crypto_default; vfit_verify_with() takes any.
 *
 * A backend must compute exactly what the portable code computes: a
 * hash backend the digest (it may keep its own state or a handle in
 * ctx->u.backend), a signature backend the verdict on a key the verifier
 * already loaded and checked (struct vfit_pubkey: the RSA modulus and
 * exponent, or the ECDSA curve and point).
 */
#ifndef VFIT_CRYPTO_H
#define VFIT_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/hash.h"
#include "vfit/result.h"
#include "vfit/sig.h"

struct vfit_crypto {
	/* Starts ctx for algo: VFIT_OK, or VFIT_ERR_UNSUPPORTED when the backend cannot hash algo. */
	enum vfit_result (*hash_init)(struct vfit_hash_ctx *ctx, enum vfit_hash algo);
	void (*hash_update)(struct vfit_hash_ctx *ctx, const void *p, size_t n);
	/* Writes vfit_hash_size(algo) bytes and ends ctx. */
	void (*hash_final)(struct vfit_hash_ctx *ctx, uint8_t *out);
	/* Checks sig[0..sig_len) over digest (of hash h) with key: VFIT_OK or why not. */
	enum vfit_result (*sig_verify)(const struct vfit_pubkey *key, enum vfit_hash h,
				       enum vfit_padding pad, const uint8_t *digest,
				       const uint8_t *sig, size_t sig_len);
};

extern const struct vfit_crypto vfit_crypto_default;
extern const struct vfit_crypto vfit_crypto_portable;
extern const struct vfit_crypto vfit_crypto_sha_cpu;

/* The portable signature check: the algorithm row of the key (lib/fit/fit_algo.c). */
VFIT_MUST_CHECK
enum vfit_result vfit_sig_verify(const struct vfit_pubkey *key, enum vfit_hash h,
				 enum vfit_padding pad, const uint8_t *digest, const uint8_t *sig,
				 size_t sig_len);

/* The hash inits of vfit_crypto_portable and vfit_crypto_sha_cpu (lib/hash/hash.c). */
enum vfit_result vfit_hash_init_portable(struct vfit_hash_ctx *ctx, enum vfit_hash algo);
enum vfit_result vfit_hash_init_cpu(struct vfit_hash_ctx *ctx, enum vfit_hash algo);

#endif
