/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared body of test_rsa_c64.c, test_rsa_limb32.c and test_rsa_adx.c: each
 * compiles lib/rsa/rsa.c once more with one arithmetic path forced, its
 * vfit_rsa_public renamed to path_public, and includes this file.  The
 * path's s^e mod n is compared with OpenSSL's BN_mod_exp for random odd
 * moduli of every accepted size class (Montgomery arithmetic needs an odd
 * modulus, not an RSA key, so no key generation), several exponents up to
 * 64 bits, random and edge-case s; corrupted keys must still be refused.
 * The random numbers come from check_rand(): a printed, replayable seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "check.h"
#include "vfit-host/host.h"

static EVP_PKEY *path_pkey(const BIGNUM *n, uint64_t e)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *be = BN_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;
	uint8_t eb[8];
	int i;

	for (i = 0; i < 8; i++)
		eb[i] = (uint8_t)(e >> (56 - 8 * i));
	if (bld && ctx && be && BN_bin2bn(eb, 8, be) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, be) &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) && EVP_PKEY_fromdata_init(ctx) > 0 &&
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_free(be);
	return pkey;
}

/* One modulus and exponent: rounds random s plus 0, 1, n-1. */
static void path_one(const char *path, unsigned bits, uint64_t e, int rounds, BN_CTX *bn)
{
	BIGNUM *n = BN_new(), *s = BN_new(), *r = BN_new(), *be = BN_new();
	uint8_t sig[512], want[512], got[512];
	struct vfit_rsa_pub pub;
	struct vfit_rsa_key key;
	struct vfit_err err = { 0 };
	size_t k = bits / 8;
	EVP_PKEY *pkey;
	int i, bad = 0;

	/* Odd, exactly `bits` long. */
	check_rand_bytes(sig, k);
	sig[0] |= 0x80;
	sig[k - 1] |= 1;
	BN_bin2bn(sig, (int)k, n);
	BN_set_word(be, 0);
	for (i = 0; i < 64; i++) {
		if (e >> i & 1)
			BN_set_bit(be, i);
	}
	pkey = path_pkey(n, e);
	if (!CHECK(pkey && vfit_rsa_pub_from_pkey(pkey, &pub, &err) == 0, "%s: key: %s", path,
		   err.msg))
		goto out;
	vfit_rsa_pub_key(&pub, &key);
	for (i = 0; i < rounds + 3; i++) {
		if (i < rounds) {
			check_rand_bytes(sig, k);
			BN_bin2bn(sig, (int)k, s);
			BN_nnmod(s, s, n, bn);
		} else if (i == rounds)
			BN_zero(s);
		else if (i == rounds + 1)
			BN_one(s);
		else
			BN_sub(s, n, BN_value_one());
		BN_mod_exp(r, s, be, n, bn);
		BN_bn2binpad(s, sig, (int)k);
		BN_bn2binpad(r, want, (int)k);
		bad += path_public(&key, sig, k, got) != VFIT_OK || memcmp(got, want, k);
	}
	CHECK(bad == 0, "%s: %u-bit e=%llu: %d of %d results differ from BN_mod_exp", path, bits,
	      (unsigned long long)e, bad, rounds + 3);
	key.n0inv ^= 1;
	CHECK(path_public(&key, sig, k, got) == VFIT_ERR_KEY, "%s: bad n0inv accepted", path);
	key.n0inv ^= 1;
	pub.rr[k - 1] ^= 1;
	CHECK(path_public(&key, sig, k, got) == VFIT_ERR_KEY, "%s: bad rr accepted", path);
out:
	EVP_PKEY_free(pkey);
	BN_free(n);
	BN_free(s);
	BN_free(r);
	BN_free(be);
}

static int path_run(const char *path)
{
	/* 1088 and 1216 bits: 17 and 19 limbs, the rows' tails and redc's general loop */
	static const unsigned sizes[] = { 1024, 1088, 1216, 1536, 2048, 3072, 4096 };
	const char *q = getenv("VFIT_TEST_QUICK");
	int moduli = q && *q && strcmp(q, "0") ? 2 : 6;
	uint64_t exps[4] = { 3, 17, 65537, 0 };
	BN_CTX *bn = BN_CTX_new();
	size_t i, j;
	int m;

	check_seed(1);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (m = 0; m < moduli; m++) {
			exps[3] = check_rand() | 1;
			for (j = 0; j < 4; j++)
				path_one(path, sizes[i], exps[j], 8, bn);
		}
	}
	BN_CTX_free(bn);
	printf("%s, %d-bit limbs: %d moduli x 4 exponents x 11 values for each of 1024..4096 bits\n",
	       path, LIMB_BITS, moduli);
	return check_done();
}
