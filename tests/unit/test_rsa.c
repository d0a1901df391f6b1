/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA verification against OpenSSL on random keys and messages, every
 * single-bit flip of some signatures, Bleichenbacher e=3 forgeries, every
 * byte of the encoded message changed in turn, and the key checks.
 * VFIT_TEST_QUICK=1 uses fewer keys and messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "check.h"
#include "vfit-host/host.h"

static int quick;

static const struct {
	enum vfit_hash h;
	const char *md;
} hashes[] = {
	{ VFIT_HASH_SHA1, "SHA1" },     { VFIT_HASH_SHA224, "SHA224" },
	{ VFIT_HASH_SHA256, "SHA256" }, { VFIT_HASH_SHA384, "SHA384" },
	{ VFIT_HASH_SHA512, "SHA512" },
};

#define NHASH (sizeof(hashes) / sizeof(hashes[0]))

static EVP_PKEY *keygen(unsigned bits, unsigned long e)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *be = BN_new();
	EVP_PKEY *pkey = NULL;

	if (!ctx || !be || !BN_set_word(be, e) || EVP_PKEY_keygen_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits) <= 0 ||
	    EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, be) <= 0 || EVP_PKEY_keygen(ctx, &pkey) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(ctx);
	BN_free(be);
	return pkey;
}

/* Public key with the same modulus as `like` and exponent e. */
static EVP_PKEY *with_exponent(EVP_PKEY *like, uint64_t e)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *n = NULL, *be = BN_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;
	uint8_t eb[8];
	int i;

	for (i = 0; i < 8; i++)
		eb[i] = (uint8_t)(e >> (56 - 8 * i));
	if (bld && ctx && be && BN_bin2bn(eb, 8, be) &&
	    EVP_PKEY_get_bn_param(like, OSSL_PKEY_PARAM_RSA_N, &n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, be) &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) && EVP_PKEY_fromdata_init(ctx) > 0 &&
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_free(n);
	BN_free(be);
	return pkey;
}

static int to_pub(EVP_PKEY *pkey, struct vfit_rsa_pub *pub, struct vfit_rsa_key *key)
{
	struct vfit_err err = { 0 };

	if (!pkey || vfit_rsa_pub_from_pkey(pkey, pub, &err)) {
		CHECK(0, "key pre-processing failed: %s", err.msg);
		return -1;
	}
	vfit_rsa_pub_key(pub, key);
	return 0;
}

/* pss_salt < -100: PKCS#1 v1.5; otherwise an RSA_PSS_SALTLEN_* value or a length. */
static size_t sign(EVP_PKEY *pkey, const char *md, int pss_salt, const uint8_t *msg,
		   size_t mlen, uint8_t *sig)
{
	EVP_MD_CTX *mctx = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	size_t len = 512;

	if (!mctx || EVP_DigestSignInit_ex(mctx, &pctx, md, NULL, NULL, pkey, NULL) <= 0 ||
	    (pss_salt >= -100 &&
	     (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) <= 0 ||
	      EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, pss_salt) <= 0)) ||
	    EVP_DigestSign(mctx, sig, &len, msg, mlen) <= 0)
		len = 0;
	EVP_MD_CTX_free(mctx);
	return len;
}

/*
 * Raw RSA through OpenSSL, no padding: s^e mod n (public-key "encryption")
 * or, with private, em^d mod n (signing).
 */
static int raw_rsa(EVP_PKEY *pkey, int private, const uint8_t *in, size_t k, uint8_t *out)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	size_t olen = k;
	int ok = ctx && (private ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_encrypt_init(ctx)) > 0 &&
		 EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
		 (private ? EVP_PKEY_sign(ctx, out, &olen, in, k) :
			    EVP_PKEY_encrypt(ctx, out, &olen, in, k)) > 0 &&
		 olen == k;

	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* Random s < n (top byte below n's), plus the edge values 0, 1, n-1. */
static void raw_public_checks(EVP_PKEY *pkey, const struct vfit_rsa_key *key, int rounds)
{
	size_t k = key->num_bits / 8;
	uint8_t s[512], a[512], b[512];
	int r;

	for (r = 0; r < rounds + 3; r++) {
		if (r < rounds) {
			check_rand_bytes(s, k);
			s[0] %= key->modulus[0];
		} else if (r == rounds) {
			memset(s, 0, k);
		} else if (r == rounds + 1) {
			memset(s, 0, k);
			s[k - 1] = 1;
		} else {
			memcpy(s, key->modulus, k);
			s[k - 1] ^= 1; /* n is odd: n - 1 */
		}
		if (!CHECK(raw_rsa(pkey, 0, s, k, b) == 0, "OpenSSL raw public op failed"))
			return;
		CHECK(vfit_rsa_public(key, s, k, a) == VFIT_OK && !memcmp(a, b, k),
		      "%u-bit e=%llu: s^e mod n differs from OpenSSL (round %d)", key->num_bits,
		      (unsigned long long)key->exponent, r);
	}
}

/* Signatures from OpenSSL over random messages, verified by lib/. */
static void sign_verify(EVP_PKEY *pkey, const struct vfit_rsa_key *key, int msgs)
{
	uint8_t msg[300], sig[512], digest[64], other[64];
	size_t k = key->num_bits / 8;
	int m;

	for (m = 0; m < msgs; m++) {
		unsigned hi = (unsigned)m % NHASH, ho = (hi + 1) % NHASH;
		enum vfit_hash h = hashes[hi].h;
		size_t mlen = (size_t)m * 7 % sizeof(msg), hlen = vfit_hash_size(h), slen;
		int max_salt = (int)(k - hlen - 2);

		check_rand_bytes(msg, sizeof(msg));
		vfit_hash(h, msg, mlen, digest);
		vfit_hash(hashes[ho].h, msg, mlen, other);

		slen = sign(pkey, hashes[hi].md, -1000, msg, mlen, sig);
		CHECK(slen == k && vfit_rsa_verify_pkcs1(key, h, digest, sig, slen) == VFIT_OK,
		      "%u-bit %s PKCS#1 v1.5: OpenSSL signature rejected", key->num_bits,
		      hashes[hi].md);
		CHECK(vfit_rsa_verify_pkcs1(key, hashes[ho].h, other, sig, slen) ==
			      VFIT_ERR_SIGNATURE,
		      "PKCS#1 v1.5 accepted under the wrong hash");
		digest[m % hlen] ^= 0x10;
		CHECK(vfit_rsa_verify_pkcs1(key, h, digest, sig, slen) == VFIT_ERR_SIGNATURE,
		      "PKCS#1 v1.5 accepted for another digest");
		digest[m % hlen] ^= 0x10;

		/* PSS, salt = hLen and salt = maximum, alternating. */
		slen = sign(pkey, hashes[hi].md, m & 1 ? RSA_PSS_SALTLEN_MAX : RSA_PSS_SALTLEN_DIGEST,
			    msg, mlen, sig);
		CHECK(slen == k, "PSS signing failed");
		CHECK(vfit_rsa_verify_pss(key, h, h, m & 1 ? max_salt : (int)hlen, digest, sig,
					  slen) == VFIT_OK,
		      "%u-bit %s PSS: OpenSSL signature rejected", key->num_bits, hashes[hi].md);
		CHECK(vfit_rsa_verify_pss(key, h, h, VFIT_PSS_SALT_ANY, digest, sig, slen) == VFIT_OK,
		      "PSS with SALT_ANY rejected");
		CHECK(vfit_rsa_verify_pss(key, h, h, m & 1 ? max_salt - 1 : (int)hlen + 1, digest,
					  sig, slen) == VFIT_ERR_SIGNATURE,
		      "PSS accepted with the wrong salt length");
		CHECK(vfit_rsa_verify_pss(key, hashes[ho].h, hashes[ho].h, VFIT_PSS_SALT_ANY, other,
					  sig, slen) == VFIT_ERR_SIGNATURE,
		      "PSS accepted under the wrong hash");
		CHECK(vfit_rsa_verify_pkcs1(key, h, digest, sig, slen) == VFIT_ERR_SIGNATURE,
		      "PSS signature accepted as PKCS#1 v1.5");
	}
}

/* Every single-bit flip of one PKCS#1 and one PSS signature is rejected. */
static void bit_flips(EVP_PKEY *pkey, const struct vfit_rsa_key *key)
{
	uint8_t msg[] = "bit flips", sig[512], digest[32];
	size_t k = key->num_bits / 8, bit;
	unsigned bad = 0, n = 0;
	int pass;

	vfit_hash(VFIT_HASH_SHA256, msg, sizeof(msg), digest);
	for (pass = 0; pass < 2; pass++) {
		size_t len = sign(pkey, "SHA256", pass ? 32 : -1000, msg, sizeof(msg), sig);

		if (!CHECK(len == k, "signing failed"))
			return;
		for (bit = 0; bit < 8 * k; bit++) {
			enum vfit_result r;

			sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			r = pass ? vfit_rsa_verify_pss(key, VFIT_HASH_SHA256, VFIT_HASH_SHA256,
						       VFIT_PSS_SALT_ANY, digest, sig, k)
				 : vfit_rsa_verify_pkcs1(key, VFIT_HASH_SHA256, digest, sig, k);
			sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			bad += r == VFIT_OK;
			n++;
		}
	}
	CHECK(bad == 0, "%u-bit: %u of %u single-bit flips accepted", key->num_bits, bad, n);
}

static void random_keys(void)
{
	static const struct {
		unsigned bits, count, quick_count;
		unsigned long e;
	} plan[] = {
		{ 2048, 4, 1, 65537 }, { 3072, 3, 1, 65537 }, { 4096, 2, 1, 65537 },
		{ 2048, 1, 1, 3 },     { 3072, 1, 1, 3 },     { 4096, 1, 0, 3 },
		{ 2048, 1, 0, 17 },
	};
	static const uint64_t odd_exponents[] = { 5, 0x10001, 0xffffffffffffffffull,
						  0x8000000000000001ull, 0x123456789abcdefull };
	size_t p, i;
	unsigned c;

	for (p = 0; p < sizeof(plan) / sizeof(plan[0]); p++) {
		unsigned count = quick ? plan[p].quick_count : plan[p].count;

		for (c = 0; c < count; c++) {
			EVP_PKEY *pkey = keygen(plan[p].bits, plan[p].e);
			struct vfit_rsa_pub pub;
			struct vfit_rsa_key key;

			if (to_pub(pkey, &pub, &key)) {
				EVP_PKEY_free(pkey);
				continue;
			}
			raw_public_checks(pkey, &key, quick ? 4 : 16);
			sign_verify(pkey, &key, quick ? 10 : 30);
			if (c == 0)
				bit_flips(pkey, &key);
			/* The same modulus under other exponents, up to 64 bits. */
			for (i = 0; c == 0 && plan[p].e == 65537 && i < 5; i++) {
				EVP_PKEY *pe = with_exponent(pkey, odd_exponents[i]);
				struct vfit_rsa_pub pube;
				struct vfit_rsa_key keye;

				if (!to_pub(pe, &pube, &keye))
					raw_public_checks(pe, &keye, 2);
				EVP_PKEY_free(pe);
			}
			EVP_PKEY_free(pkey);
		}
	}
}

/* ---- Bleichenbacher e=3 forgeries ------------------------------------------ */

/* floor(cbrt(x)), bit by bit. */
static BIGNUM *cube_root(const BIGNUM *x, BN_CTX *ctx)
{
	BIGNUM *r = BN_new(), *t = BN_new();
	int bit;

	BN_zero(r);
	for (bit = BN_num_bits(x) / 3 + 1; bit >= 0; bit--) {
		BN_set_bit(r, bit);
		BN_sqr(t, r, ctx);
		BN_mul(t, t, r, ctx);
		if (BN_cmp(t, x) > 0)
			BN_clear_bit(r, bit);
	}
	BN_free(t);
	return r;
}

/* The odd y with y^3 = d mod 2^bits (d odd), by Hensel lifting one bit at a time. */
static BIGNUM *cube_root_mod2k(const BIGNUM *d, int bits, BN_CTX *ctx)
{
	BIGNUM *y = BN_new(), *t = BN_new();
	int i;

	BN_one(y);
	for (i = 1; i < bits; i++) {
		BN_sqr(t, y, ctx);
		BN_mul(t, t, y, ctx);
		BN_sub(t, t, d);
		if (BN_is_bit_set(t, i))
			BN_set_bit(y, i);
	}
	BN_free(t);
	return y;
}

static const uint8_t sha256_prefix[19] = { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
					   0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
					   0x01, 0x05, 0x00, 0x04, 0x20 };

/*
 * Hal Finney's forgery: EM = 00 01 FF 00 DigestInfo digest GARBAGE, made a
 * perfect cube by rounding the cube root of the value with zero garbage up.
 * A parser that stops after the digest accepts it.
 */
static void forgery_garbage_after(const struct vfit_rsa_key *key, const uint8_t *digest)
{
	size_t k = key->num_bits / 8, i;
	uint8_t em[512], sig[512], out[512];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *x, *s, *t = BN_new();

	memset(em, 0, k);
	em[1] = 0x01;
	em[2] = 0xff;
	memcpy(em + 4, sha256_prefix, 19);
	memcpy(em + 23, digest, 32);
	x = BN_bin2bn(em, (int)k, NULL);
	s = cube_root(x, ctx);
	BN_sqr(t, s, ctx);
	BN_mul(t, t, s, ctx);
	if (BN_cmp(t, x) < 0)
		BN_add_word(s, 1);
	BN_bn2binpad(s, sig, (int)k);
	CHECK(vfit_rsa_public(key, sig, k, out) == VFIT_OK && !memcmp(out, em, 55),
	      "forgery construction failed: s^3 does not start with the crafted prefix");
	for (i = 55; i < k && !out[i]; i++)
		;
	CHECK(i < k, "forgery has no garbage");
	CHECK(vfit_rsa_verify_pkcs1(key, VFIT_HASH_SHA256, digest, sig, k) == VFIT_ERR_SIGNATURE,
	      "e=3 forgery with garbage after the digest accepted");
	BN_free(x);
	BN_free(s);
	BN_free(t);
	BN_CTX_free(ctx);
}

/*
 * The variant with garbage in the padding: EM = 00 01 GARBAGE 00 DigestInfo
 * digest.  The low bits of s fix s^3's tail (cube root mod 2^m, the tail is
 * odd), the high bits come from the real cube root of 00 01 FF.. so the top
 * of s^3 reads 00 01.  A parser that skips any non-zero padding accepts it.
 */
static void forgery_garbage_in_padding(const struct vfit_rsa_key *key, const uint8_t *digest)
{
	size_t k = key->num_bits / 8, tail = 1 + 19 + 32;
	uint8_t em[512], sig[512], out[512];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *d, *lo, *hi, *top = BN_new();
	int m = (int)(8 * tail), i;

	memset(em, 0xff, k);
	em[0] = 0x00;
	em[1] = 0x01;
	em[k - tail] = 0x00;
	memcpy(em + k - tail + 1, sha256_prefix, 19);
	memcpy(em + k - 32, digest, 32);
	d = BN_bin2bn(em + k - tail, (int)tail, NULL);
	lo = cube_root_mod2k(d, m, ctx);
	BN_bin2bn(em, (int)k, top);
	hi = cube_root(top, ctx);
	for (i = 0; i < m; i++)
		BN_clear_bit(hi, i);
	BN_add(hi, hi, lo);
	BN_bn2binpad(hi, sig, (int)k);
	CHECK(vfit_rsa_public(key, sig, k, out) == VFIT_OK && out[0] == 0 && out[1] == 1 &&
		      !memcmp(out + k - tail, em + k - tail, tail),
	      "forgery construction failed: s^3 is not 00 01 .. 00 DigestInfo digest");
	CHECK(vfit_rsa_verify_pkcs1(key, VFIT_HASH_SHA256, digest, sig, k) == VFIT_ERR_SIGNATURE,
	      "e=3 forgery with garbage in the padding accepted");
	BN_free(d);
	BN_free(lo);
	BN_free(hi);
	BN_free(top);
	BN_CTX_free(ctx);
}

static void forgeries(void)
{
	static const unsigned sizes[] = { 2048, 3072 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EVP_PKEY *pkey = keygen(sizes[i], 3);
		struct vfit_rsa_pub pub;
		struct vfit_rsa_key key;
		uint8_t digest[32];
		uint8_t msg[8] = "forged";

		if (to_pub(pkey, &pub, &key)) {
			EVP_PKEY_free(pkey);
			continue;
		}
		/* The padding variant needs an odd tail: pick a message with an odd digest. */
		do {
			msg[7]++;
			vfit_hash(VFIT_HASH_SHA256, msg, sizeof(msg), digest);
		} while (!(digest[31] & 1));
		forgery_garbage_after(&key, digest);
		forgery_garbage_in_padding(&key, digest);
		EVP_PKEY_free(pkey);
	}
}

/* ---- every byte of the encoded message -------------------------------------- */

/* What the byte at i of EM = 00 01 FF.. 00 DigestInfo H is (t_at: DigestInfo, d_at: H). */
static const char *em_class(size_t i, size_t t_at, size_t d_at)
{
	return i == 0 ? "leading 00" : i == 1 ? "block type 01" : i + 1 < t_at ? "padding FF"
	       : i + 1 == t_at ? "separator 00" : i < d_at ? "DigestInfo" : "digest";
}

/*
 * Signatures over encoded messages that are right but for one byte: each
 * position of EM changed in turn (the leading 00 too, whose loss no
 * standard vector shows), built with the private key so that only the
 * encoding check can refuse them.  The unchanged EM signed the same way
 * must pass, or the refusals prove nothing.
 */
static void encoding_bytes(void)
{
	EVP_PKEY *pkey = keygen(2048, 65537);
	struct vfit_rsa_pub pub;
	struct vfit_rsa_key key;
	uint8_t em[256], sig[256], digest[64];
	size_t k = 256, h, i;

	if (to_pub(pkey, &pub, &key)) {
		EVP_PKEY_free(pkey);
		return;
	}
	for (h = 0; h < NHASH; h++) {
		size_t hlen = vfit_hash_size(hashes[h].h), tlen, t_at, d_at;
		const EVP_MD *md = EVP_get_digestbyname(hashes[h].md);
		uint8_t *der = NULL;
		X509_SIG *xs = X509_SIG_new();
		X509_ALGOR *alg;
		ASN1_OCTET_STRING *oct;
		int dlen = 0;

		check_rand_bytes(digest, hlen);
		/* DigestInfo from OpenSSL's DER encoder, not from lib/'s table. */
		X509_SIG_getm(xs, &alg, &oct);
		REQUIRE(md && X509_ALGOR_set0(alg, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL,
					      NULL) &&
				ASN1_OCTET_STRING_set(oct, digest, (int)hlen) &&
				(dlen = i2d_X509_SIG(xs, &der)) > 0,
			"DigestInfo for %s", hashes[h].md);
		tlen = (size_t)dlen;
		d_at = k - hlen;
		t_at = k - tlen;
		memset(em, 0xff, k);
		em[0] = 0x00;
		em[1] = 0x01;
		em[t_at - 1] = 0x00;
		memcpy(em + t_at, der, tlen);
		OPENSSL_free(der);
		X509_SIG_free(xs);
		REQUIRE(!memcmp(em + d_at, digest, hlen), "DigestInfo ends with the digest");
		REQUIRE(!raw_rsa(pkey, 1, em, k, sig), "raw RSA private operation");
		CHECK(vfit_rsa_verify_pkcs1(&key, hashes[h].h, digest, sig, k) == VFIT_OK,
		      "%s: the well-formed EM signed raw is refused", hashes[h].md);
		for (i = 0; i < k; i++) {
			/* 00 -> 01 keeps EM below n (n's top byte is at least 0x80). */
			em[i] ^= 0x01;
			CHECK(!raw_rsa(pkey, 1, em, k, sig) &&
				      vfit_rsa_verify_pkcs1(&key, hashes[h].h, digest, sig, k) ==
					      VFIT_ERR_SIGNATURE,
			      "%s: EM byte %zu (%s) changed: not refused", hashes[h].md, i,
			      em_class(i, t_at, d_at));
			em[i] ^= 0x01;
		}
	}
	EVP_PKEY_free(pkey);
}

/* ---- key and argument checks --------------------------------------------- */

/*
 * A key in lib/'s form from n alone, computed with OpenSSL's BIGNUMs (not
 * with the host's pre-processing, which refuses what is tested here):
 * num_bits as declared, rr = 2^(2*num_bits) mod n (plus n when rr_plus_n),
 * n0inv = -n^-1 mod 2^32.  -1 when n or rr does not fit.
 */
static int bn_key(const BIGNUM *n, unsigned bits, int rr_plus_n, uint8_t *mod, uint8_t *rr,
		  struct vfit_rsa_key *k)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *r2 = BN_new(), *b32 = BN_new(), *inv = BN_new();
	int ok = ctx && r2 && b32 && inv && BN_set_bit(r2, (int)(2 * bits)) &&
		 BN_mod(r2, r2, n, ctx) && (!rr_plus_n || BN_add(r2, r2, n)) &&
		 BN_set_bit(b32, 32) && BN_mod_inverse(inv, n, b32, ctx) && BN_sub(inv, b32, inv) &&
		 BN_bn2binpad(n, mod, (int)bits / 8) > 0 && BN_bn2binpad(r2, rr, (int)bits / 8) > 0;

	k->num_bits = bits;
	k->n0inv = ok ? (uint32_t)BN_get_word(inv) : 0;
	k->exponent = 65537;
	k->modulus = mod;
	k->rr = rr;
	BN_free(r2);
	BN_free(b32);
	BN_free(inv);
	BN_CTX_free(ctx);
	return ok ? 0 : -1;
}

static BIGNUM *modulus_of(EVP_PKEY *pkey)
{
	BIGNUM *n = NULL;

	return pkey && EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n) ? n : NULL;
}

/*
 * Keys that are consistent (rr and n0inv right for n) but that the key
 * rules refuse: too short, a size that is no multiple of 64 bits, a
 * modulus without its top bit, an r-squared not reduced mod n.  Only
 * the rule under test can refuse them.
 */
static void consistent_keys(void)
{
	static const struct {
		unsigned bits, declared;
		int rr_plus_n;
		const char *what;
	} cases[] = {
		{ 2048, 2048, 0, NULL },
		{ 960, 960, 0, "a 960-bit key" },
		{ 2040, 2040, 0, "a 2040-bit key (not a multiple of 64 bits)" },
		{ 2047, 2048, 0, "a 2047-bit modulus declared as 2048 bits" },
		{ 2048, 2048, 1, "r-squared plus n" },
	};
	uint8_t mod[512], rr[512], sig[512], em[512];
	struct vfit_rsa_key key;
	size_t i;
	int tries;

	memset(sig, 0, sizeof(sig));
	sig[255] = 2;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* rr + n must still fit num_bits: a key where it does, within a few. */
		for (tries = 0; tries < 20; tries++) {
			EVP_PKEY *pkey = keygen(cases[i].bits, 65537);
			BIGNUM *n = modulus_of(pkey);
			int made = n ? bn_key(n, cases[i].declared, cases[i].rr_plus_n, mod, rr, &key) : -1;

			BN_free(n);
			EVP_PKEY_free(pkey);
			if (!made)
				break;
		}
		if (!CHECK(tries < 20, "no key for case %zu", i))
			continue;
		if (!cases[i].what)
			CHECK(vfit_rsa_public(&key, sig, key.num_bits / 8, em) == VFIT_OK,
			      "a key built from n alone refused: the construction is wrong");
		else
			CHECK(vfit_rsa_public(&key, sig, key.num_bits / 8, em) == VFIT_ERR_KEY,
			      "%s accepted", cases[i].what);
	}
}


static enum vfit_result try_key(const struct vfit_rsa_key *key, const uint8_t *sig)
{
	uint8_t em[512];

	return vfit_rsa_public(key, sig, key->num_bits / 8, em);
}

static void key_checks(void)
{
	EVP_PKEY *pkey = keygen(2048, 65537);
	struct vfit_rsa_pub pub, bad;
	struct vfit_rsa_key key, kb;
	uint8_t sig[512], em[512], digest[32] = { 0 };
	size_t k = 256;

	if (to_pub(pkey, &pub, &key)) {
		EVP_PKEY_free(pkey);
		return;
	}
	memset(sig, 0x11, sizeof(sig));
	CHECK(try_key(&key, sig) == VFIT_OK, "good key rejected");

#define BAD_KEY(what, stmt)                                                     \
	do {                                                                    \
		bad = pub;                                                      \
		vfit_rsa_pub_key(&bad, &kb);                                    \
		stmt;                                                           \
		CHECK(try_key(&kb, sig) == VFIT_ERR_KEY, "%s accepted", what);  \
	} while (0)

	BAD_KEY("n0inv off by one", kb.n0inv ^= 1);
	BAD_KEY("n0inv high bit", kb.n0inv ^= 0x80000000u);
	BAD_KEY("rr low bit", bad.rr[k - 1] ^= 1);
	BAD_KEY("rr high byte", bad.rr[0] ^= 0x20);
	BAD_KEY("rr = n", memcpy(bad.rr, bad.modulus, k));
	BAD_KEY("rr = R mod n", memset(bad.rr, 0, k); bad.rr[k - 1] = 1);
	BAD_KEY("even modulus", bad.modulus[k - 1] ^= 1);
	BAD_KEY("modulus without top bit", bad.modulus[0] &= 0x7f);
	BAD_KEY("modulus changed", bad.modulus[100] ^= 4);
	BAD_KEY("num_bits 2112", kb.num_bits = 2112);
	BAD_KEY("num_bits 2040", kb.num_bits = 2040);
	BAD_KEY("num_bits 2016", kb.num_bits = 2016);
	BAD_KEY("num_bits 960", kb.num_bits = 960);
	BAD_KEY("num_bits 0", kb.num_bits = 0);
	BAD_KEY("num_bits above maximum", kb.num_bits = VFIT_RSA_MAX_BITS + 64);
	BAD_KEY("e = 1", kb.exponent = 1);
	BAD_KEY("e = 0", kb.exponent = 0);
	BAD_KEY("e even", kb.exponent = 65536);
	BAD_KEY("e = 2^64 - 2", kb.exponent = ~(uint64_t)1);
#undef BAD_KEY

	CHECK(vfit_rsa_public(&key, sig, k - 1, em) == VFIT_ERR_SIG_LENGTH, "short signature");
	CHECK(vfit_rsa_public(&key, sig, k + 1, em) == VFIT_ERR_SIG_LENGTH, "long signature");
	CHECK(vfit_rsa_public(&key, sig, 0, em) == VFIT_ERR_SIG_LENGTH, "empty signature");
	CHECK(vfit_rsa_public(&key, pub.modulus, k, em) == VFIT_ERR_SIG_RANGE, "s = n accepted");
	memset(sig, 0xff, k);
	CHECK(vfit_rsa_public(&key, sig, k, em) == VFIT_ERR_SIG_RANGE, "s = 2^k - 1 accepted");
	CHECK(vfit_rsa_verify_pkcs1(&key, VFIT_HASH_SHA256, digest, sig, k) == VFIT_ERR_SIG_RANGE,
	      "PKCS#1 passes the range error through");
	CHECK(vfit_rsa_public(NULL, sig, k, em) == VFIT_ERR_PARAM, "NULL key");
	CHECK(vfit_rsa_public(&key, NULL, k, em) == VFIT_ERR_PARAM, "NULL signature");
	CHECK(vfit_rsa_public(&key, sig, k, NULL) == VFIT_ERR_PARAM, "NULL output");
	CHECK(vfit_rsa_verify_pkcs1(&key, VFIT_HASH_SHA256, NULL, sig, k) == VFIT_ERR_PARAM,
	      "NULL digest");
	CHECK(vfit_rsa_verify_pkcs1(&key, VFIT_HASH_MD5, digest, sig, k) == VFIT_ERR_UNSUPPORTED,
	      "PKCS#1 with MD5");
	CHECK(vfit_rsa_verify_pkcs1(&key, VFIT_HASH_CRC32, digest, sig, k) ==
		      VFIT_ERR_UNSUPPORTED,
	      "PKCS#1 with CRC-32");
	CHECK(vfit_rsa_verify_pss(&key, VFIT_HASH_MD5, VFIT_HASH_SHA256, 0, digest, sig, k) ==
		      VFIT_ERR_UNSUPPORTED,
	      "PSS with MD5");
	CHECK(vfit_rsa_verify_pss(&key, VFIT_HASH_SHA256, VFIT_HASH_INVALID, 0, digest, sig, k) ==
		      VFIT_ERR_UNSUPPORTED,
	      "PSS with no MGF hash");
	CHECK(vfit_rsa_verify_pss(&key, VFIT_HASH_SHA256, VFIT_HASH_MD5, 0, digest, sig, k) ==
		      VFIT_ERR_UNSUPPORTED,
	      "PSS with MD5 in MGF1");
	CHECK(vfit_rsa_verify_pss(&key, VFIT_HASH_SHA256, VFIT_HASH_SHA256, -2, digest, sig, k) ==
		      VFIT_ERR_PARAM,
	      "PSS with salt length -2");
	/* A salt that cannot fit (k - hLen - 2 + 1) is a mismatch, not an overflow. */
	memset(sig, 0x11, k);
	CHECK(vfit_rsa_verify_pss(&key, VFIT_HASH_SHA256, VFIT_HASH_SHA256, (int)k - 33, digest,
				  sig, k) == VFIT_ERR_SIGNATURE,
	      "PSS with an impossible salt length");
	EVP_PKEY_free(pkey);
}

/* Host pre-processing refuses what the device cannot use. */
static void host_checks(void)
{
	static const unsigned sizes[] = { 512, 1056, 2047 };
	struct vfit_rsa_pub pub;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EVP_PKEY *pkey = keygen(sizes[i], 65537);
		struct vfit_err err = { 0 };

		CHECK(pkey && vfit_rsa_pub_from_pkey(pkey, &pub, &err) < 0 &&
			      err.status == VFIT_EXIT_REJECT && strstr(err.msg, "key size"),
		      "%u-bit key: expected a key size error, got '%s'", sizes[i], err.msg);
		EVP_PKEY_free(pkey);
	}
	{
		EVP_PKEY *ec = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
		struct vfit_err err = { 0 };

		CHECK(ec && vfit_rsa_pub_from_pkey(ec, &pub, &err) < 0 &&
			      strstr(err.msg, "not an RSA key"),
		      "EC key: expected 'not an RSA key', got '%s'", err.msg);
		EVP_PKEY_free(ec);
	}
}

int main(void)
{
	const char *q = getenv("VFIT_TEST_QUICK");

	quick = q && *q && strcmp(q, "0");
	check_seed(1);
	key_checks();
	consistent_keys();
	host_checks();
	forgeries();
	encoding_bytes();
	random_keys();
	return check_done();
}
