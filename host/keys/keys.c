/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA public keys in U-Boot's pre-processed form (fit-format.md §4.2): the
 * values the device needs for Montgomery arithmetic without any division,
 * and the control-DTB key node that carries them.
 */
#include <stdio.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "vfit-host/fdtbuf.h"
#include "vfit-host/keys.h"

/* Sizes the device library accepts (lib/rsa.c): a multiple of 64 bits. */
#define RSA_MIN_BITS 1024

/* n0inv = 2^32 - (n^-1 mod 2^32), rr = (2^num_bits)^2 mod n. */
static int derive(const BIGNUM *n, struct vfit_rsa_pub *pub, BN_CTX *ctx)
{
	BIGNUM *w = BN_CTX_get(ctx), *inv = BN_CTX_get(ctx), *r = BN_CTX_get(ctx);
	BIGNUM *rr = BN_CTX_get(ctx), *nw = BN_CTX_get(ctx);
	size_t len = pub->num_bits / 8;

	if (!nw || !BN_set_word(w, 0) || !BN_set_bit(w, 32) || !BN_nnmod(nw, n, w, ctx) ||
	    !BN_mod_inverse(inv, nw, w, ctx) || !BN_sub(inv, w, inv))
		return -1;
	pub->n0inv = (uint32_t)BN_get_word(inv);
	if (!BN_set_word(r, 0) || !BN_set_bit(r, (int)(2 * pub->num_bits)) ||
	    !BN_nnmod(rr, r, n, ctx))
		return -1;
	if (BN_bn2binpad(n, pub->modulus, (int)len) < 0 ||
	    BN_bn2binpad(rr, pub->rr, (int)len) < 0)
		return -1;
	return 0;
}

int vfit_rsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_rsa_pub *pub, struct vfit_err *e)
{
	BIGNUM *n = NULL, *ebn = NULL;
	BN_CTX *ctx = NULL;
	int bits, ret = -1;
	uint8_t eb[8];
	size_t i;

	memset(pub, 0, sizeof(*pub));
	if (!EVP_PKEY_is_a(pkey, "RSA"))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "key is not an RSA key");
	if (!EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n) ||
	    !EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &ebn)) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "cannot read the RSA modulus/exponent");
		goto out;
	}
	bits = BN_num_bits(n);
	if (bits < RSA_MIN_BITS || bits > VFIT_RSA_MAX_BITS || bits % 64) {
		vfit_err_set(e, VFIT_EXIT_REJECT,
			     "unsupported RSA key size %d bits (need a multiple of 64 in %d..%d)",
			     bits, RSA_MIN_BITS, VFIT_RSA_MAX_BITS);
		goto out;
	}
	if (BN_num_bits(ebn) > 64 || !BN_is_odd(ebn) || BN_num_bits(ebn) < 2) {
		vfit_err_set(e, VFIT_EXIT_REJECT,
			     "unsupported RSA public exponent (need odd, >= 3, < 2^64)");
		goto out;
	}
	if (BN_bn2binpad(ebn, eb, sizeof(eb)) < 0)
		goto bn_fail;
	for (i = 0; i < sizeof(eb); i++)
		pub->exponent = pub->exponent << 8 | eb[i];
	pub->num_bits = (uint32_t)bits;
	ctx = BN_CTX_new();
	if (!ctx)
		goto bn_fail;
	BN_CTX_start(ctx);
	if (derive(n, pub, ctx))
		goto bn_fail;
	ret = 0;
	goto out;
bn_fail:
	vfit_err_set(e, VFIT_EXIT_USAGE, "RSA key pre-processing failed (OpenSSL BIGNUM error)");
out:
	if (ctx) {
		BN_CTX_end(ctx);
		BN_CTX_free(ctx);
	}
	BN_free(n);
	BN_free(ebn);
	return ret;
}

void vfit_rsa_pub_key(const struct vfit_rsa_pub *pub, struct vfit_rsa_key *key)
{
	key->num_bits = pub->num_bits;
	key->n0inv = pub->n0inv;
	key->exponent = pub->exponent;
	key->modulus = pub->modulus;
	key->rr = pub->rr;
}

/*
 * mkimage's sequence, one property at a time: libfdt inserts each new
 * property at the front of the node, so the blob ends up in reverse write
 * order exactly as mkimage leaves it; existing properties are resized in
 * place and keep their position.
 */
int vfit_rsa_keynode_write(void *fdt, const char *name, const struct vfit_rsa_pub *pub,
			   const char *algo, const char *required)
{
	int len = (int)(pub->num_bits / 8);
	char node_name[256];
	int sig, node, err;

	if (snprintf(node_name, sizeof(node_name), "key-%s", name) >= (int)sizeof(node_name))
		return -FDT_ERR_BADVALUE;
	sig = vfit_fdt_subnode(fdt, 0, "signature");
	if (sig < 0)
		return sig;
	node = vfit_fdt_subnode(fdt, sig, node_name);
	if (node < 0)
		return node;
	err = fdt_setprop_string(fdt, node, "key-name-hint", name);
	if (!err)
		err = fdt_setprop_u32(fdt, node, "rsa,num-bits", pub->num_bits);
	if (!err)
		err = fdt_setprop_u32(fdt, node, "rsa,n0-inverse", pub->n0inv);
	if (!err)
		err = fdt_setprop_u64(fdt, node, "rsa,exponent", pub->exponent);
	if (!err)
		err = fdt_setprop(fdt, node, "rsa,modulus", pub->modulus, len);
	if (!err)
		err = fdt_setprop(fdt, node, "rsa,r-squared", pub->rr, len);
	if (!err)
		err = fdt_setprop_string(fdt, node, "algo", algo);
	if (!err && required)
		err = fdt_setprop_string(fdt, node, "required", required);
	return err;
}
