/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The crypto backend seam: every hash and every signature check the
 * verifier makes goes through one struct vfit_crypto, so a SoC with a hash
 * engine or a public-key accelerator plugs in without editing lib/ (as
 * MCUboot's bootutil crypto backends and U-Boot's crypto uclasses do).
 *
 * Every op takes the table it was called through as its first argument,
 * as BearSSL's class methods take their context.  A backend with state of
 * its own (a device handle, a file, counters) puts struct vfit_crypto as
 * the first member of its own struct, passes a pointer to that member,
 * and converts `self` back in its ops (C11 6.7.2.1: a pointer to a struct,
 * suitably converted, points to its first member, and back); the verifier
 * never looks past the table.  There is no `void *` beside it: the table
 * is the context.  State that changes during a run sits behind a pointer
 * in that struct, so the table itself can stay const.
 *
 * Backends shipped with the library (all const, nothing global mutable):
 *   vfit_crypto_default   portable C; SHA-1/SHA-224/SHA-256 switch to the
 *                         CPU's SHA instructions (x86 SHA-NI, ARMv8 CE)
 *                         for long messages when the CPU has them
 *   vfit_crypto_portable  portable C only
 *   vfit_crypto_sha_cpu   SHA-1/SHA-224/SHA-256 on the CPU's instructions
 *                         from the first byte (their init fails when the
 *                         CPU or the build has none); the rest portable
 * Their ops ignore `self`, so a backend may copy one of them and replace
 * some ops (host/verify/fit_sparse.c replaces hash_update).
 * vfit_verify() uses vfit_crypto_default; vfit_verify_with() takes any.
 * With VFIT_CRYPTO_TABLE=0 (vfit/config.h) there is no seam: vfit_verify()
 * calls the library's own hash and signature code directly and
 * vfit_verify_with() does not exist.
 *
 * A backend must compute exactly what the portable code computes: a
 * hash backend the digest (it may keep a per-hash handle in
 * ctx->u.backend; every hash started is finished), a signature backend
 * the verdict on a key the verifier already loaded and checked (struct
 * vfit_pubkey: the RSA modulus and exponent, or the ECDSA curve and point).
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
	enum vfit_result (*hash_init)(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
				      enum vfit_hash algo);
	/* Adds p[0..n) to the message; returns nothing (a backend that fails records it). */
	void (*hash_update)(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
			    const void *p, size_t n);
	/* Writes vfit_hash_size(algo) bytes and ends ctx; returns nothing. */
	void (*hash_final)(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
			   uint8_t *out);
	/* Checks sig[0..sig_len) over digest (of hash h) with key: VFIT_OK or why not. */
	enum vfit_result (*sig_verify)(const struct vfit_crypto *self,
				       const struct vfit_pubkey *key, enum vfit_hash h,
				       enum vfit_padding pad, const uint8_t *digest,
				       const uint8_t *sig, size_t sig_len);
};

extern const struct vfit_crypto vfit_crypto_default;
extern const struct vfit_crypto vfit_crypto_portable;
extern const struct vfit_crypto vfit_crypto_sha_cpu;

/*
 * The portable signature check, the algorithm row of the key
 * (lib/fit/fit_algo.c): returns VFIT_OK, or why the signature does not
 * verify.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_sig_verify(const struct vfit_pubkey *key, enum vfit_hash h,
				 enum vfit_padding pad, const uint8_t *digest, const uint8_t *sig,
				 size_t sig_len);

#endif
