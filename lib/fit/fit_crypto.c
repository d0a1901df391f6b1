/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The backends the library ships (include/vfit/crypto.h).  Each is a
 * const table whose ops ignore `self`: a product that links only
 * vfit_verify() carries the default one and none of the others.
 */
#include "vfit/crypto.h"

enum vfit_result vfit_sig_verify(const struct vfit_pubkey *key, enum vfit_hash h,
				 enum vfit_padding pad, const uint8_t *digest, const uint8_t *sig,
				 size_t sig_len)
{
	return key->algo->verify(key, h, pad, digest, sig, sig_len);
}

static enum vfit_result init_auto(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
				  enum vfit_hash algo)
{
	(void)self;
	return vfit_hash_init(ctx, algo);
}

static enum vfit_result init_portable(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
				      enum vfit_hash algo)
{
	(void)self;
	return vfit_hash_init_impl(ctx, algo, VFIT_IMPL_PORTABLE);
}

/* SHA-1 and SHA-2/256 on the CPU's instructions or not at all; the others have none. */
static enum vfit_result init_cpu(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
				 enum vfit_hash algo)
{
	(void)self;
	return vfit_hash_init_impl(ctx, algo, algo == VFIT_HASH_SHA1 || algo == VFIT_HASH_SHA224 ||
					      algo == VFIT_HASH_SHA256 ? VFIT_IMPL_ACCEL :
					      VFIT_IMPL_PORTABLE);
}

static void update(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx, const void *p,
		   size_t n)
{
	(void)self;
	vfit_hash_update(ctx, p, n);
}

static void final(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx, uint8_t *out)
{
	(void)self;
	vfit_hash_final(ctx, out);
}

static enum vfit_result sig_verify(const struct vfit_crypto *self, const struct vfit_pubkey *key,
				   enum vfit_hash h, enum vfit_padding pad, const uint8_t *digest,
				   const uint8_t *sig, size_t sig_len)
{
	(void)self;
	return vfit_sig_verify(key, h, pad, digest, sig, sig_len);
}

const struct vfit_crypto vfit_crypto_default = { init_auto, update, final, sig_verify };
const struct vfit_crypto vfit_crypto_portable = { init_portable, update, final, sig_verify };
const struct vfit_crypto vfit_crypto_sha_cpu = { init_cpu, update, final, sig_verify };
