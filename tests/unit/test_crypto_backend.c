/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The crypto backend seam (include/vfit/crypto.h): a second backend, over
 * OpenSSL 3 EVP, swapped in for whole vfit_verify_with() runs on the fuzz
 * seeds (FITs signed by Debian's mkimage: RSA PKCS#1 v1.5 and PSS, ECDSA
 * P-256 and P-384, image signatures).  Two instances of it share every op
 * and differ only in their state, which each op reaches through the table
 * it is called with (crypto.h): their own counters, which show that every
 * hash and every signature check went through the one passed and none
 * through the other, and a switch that refuses every signature, which
 * shows that the verdict is the backend's.  The shipped backends
 * (portable, CPU SHA) verify the same FITs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "check.h"
#include "vfit/crypto.h"
#include "vfit/fit.h"
#include "../fuzz/fuzz_ctl.h"

#define CORPUS "tests/fuzz/corpus/fuzz_verify/"

/* What went through one EVP backend. */
struct counts {
	unsigned int inits, finals, sigs;
	size_t bytes;
};

/* The table first, then the state its ops find through it. */
struct evp_backend {
	struct vfit_crypto ops;
	struct counts *n;
	bool deny;              /* refuse every signature */
};

static struct counts n_evp, n_deny;

static const struct evp_backend *backend(const struct vfit_crypto *self)
{
	return (const struct evp_backend *)self;
}

static const EVP_MD *evp_md(enum vfit_hash h)
{
	switch (h) {
	case VFIT_HASH_MD5: return EVP_md5();
	case VFIT_HASH_SHA1: return EVP_sha1();
	case VFIT_HASH_SHA224: return EVP_sha224();
	case VFIT_HASH_SHA256: return EVP_sha256();
	case VFIT_HASH_SHA384: return EVP_sha384();
	case VFIT_HASH_SHA512: return EVP_sha512();
	default: return NULL;   /* the CRCs: OpenSSL has none */
	}
}

/* EVP for what OpenSSL hashes; the CRCs through the portable code, still counted. */
static enum vfit_result evp_init(const struct vfit_crypto *self, struct vfit_hash_ctx *c,
				 enum vfit_hash algo)
{
	const EVP_MD *md = evp_md(algo);
	EVP_MD_CTX *x;

	backend(self)->n->inits++;
	if (!md)
		return vfit_hash_init_impl(c, algo, VFIT_IMPL_PORTABLE);
	x = EVP_MD_CTX_new();
	if (!x || !EVP_DigestInit_ex(x, md, NULL)) {
		EVP_MD_CTX_free(x);
		return VFIT_ERR_UNSUPPORTED;
	}
	c->algo = algo;
	c->u.backend = x;
	return VFIT_OK;
}

static void evp_update(const struct vfit_crypto *self, struct vfit_hash_ctx *c, const void *p,
		       size_t len)
{
	backend(self)->n->bytes += len;
	if (!evp_md(c->algo))
		vfit_hash_update(c, p, len);
	else
		REQUIRE(EVP_DigestUpdate(c->u.backend, p, len), "EVP_DigestUpdate");
}

static void evp_final(const struct vfit_crypto *self, struct vfit_hash_ctx *c, uint8_t *out)
{
	backend(self)->n->finals++;
	if (!evp_md(c->algo)) {
		vfit_hash_final(c, out);
		return;
	}
	REQUIRE(EVP_DigestFinal_ex(c->u.backend, out, NULL), "EVP_DigestFinal_ex");
	EVP_MD_CTX_free(c->u.backend);
}

/* The loaded key as an OpenSSL key: RSA (n, e) or an EC point on its named curve. */
static EVP_PKEY *evp_key(const struct vfit_pubkey *key)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *pc = NULL;
	EVP_PKEY *pk = NULL;
	BIGNUM *mod = NULL, *e = NULL;
	uint8_t pub[1 + 2 * VFIT_ECDSA_MAX_BYTES];
	size_t sz;
	int rsa = key->algo->kind == VFIT_SIG_RSA;

	if (rsa) {
		mod = BN_bin2bn(key->u.rsa.modulus, (int)(key->u.rsa.num_bits / 8), NULL);
		e = BN_new();
		REQUIRE(e && BN_set_word(e, key->u.rsa.exponent), "exponent");
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, mod);
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e);
	} else {
		sz = vfit_ecdsa_curve_bytes(key->u.ecdsa.curve);
		pub[0] = 4;
		memcpy(pub + 1, key->u.ecdsa.x, sz);
		memcpy(pub + 1 + sz, key->u.ecdsa.y, sz);
		OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
						key->u.ecdsa.curve == VFIT_EC_P256 ? "prime256v1" :
						"secp384r1", 0);
		OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, 1 + 2 * sz);
	}
	params = OSSL_PARAM_BLD_to_param(b);
	pc = EVP_PKEY_CTX_new_from_name(NULL, rsa ? "RSA" : "EC", NULL);
	REQUIRE(params && pc && EVP_PKEY_fromdata_init(pc) > 0 &&
		EVP_PKEY_fromdata(pc, &pk, EVP_PKEY_PUBLIC_KEY, params) > 0, "key to OpenSSL");
	EVP_PKEY_CTX_free(pc);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_free(mod);
	BN_free(e);
	return pk;
}

/* ECDSA: FIT's raw r || s as the DER that OpenSSL verifies. */
static size_t ecdsa_der(const uint8_t *sig, size_t len, uint8_t *der)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	uint8_t *p = der;
	int dl;

	REQUIRE(s && ECDSA_SIG_set0(s, BN_bin2bn(sig, (int)len / 2, NULL),
				    BN_bin2bn(sig + len / 2, (int)len / 2, NULL)), "r, s");
	dl = i2d_ECDSA_SIG(s, &p);
	ECDSA_SIG_free(s);
	REQUIRE(dl > 0, "DER signature");
	return (size_t)dl;
}

static enum vfit_result evp_verify(const struct vfit_crypto *self, const struct vfit_pubkey *key,
				   enum vfit_hash h, enum vfit_padding pad, const uint8_t *digest,
				   const uint8_t *sig, size_t sig_len)
{
	EVP_PKEY *pk;
	EVP_PKEY_CTX *vc;
	uint8_t der[2 * VFIT_ECDSA_MAX_BYTES + 16];
	int ok;

	backend(self)->n->sigs++;
	if (backend(self)->deny)
		return VFIT_ERR_SIGNATURE;
	pk = evp_key(key);
	vc = EVP_PKEY_CTX_new(pk, NULL);
	REQUIRE(vc && EVP_PKEY_verify_init(vc) > 0 &&
		EVP_PKEY_CTX_set_signature_md(vc, evp_md(h)) > 0, "verify context");
	if (key->algo->kind == VFIT_SIG_RSA) {
		REQUIRE(EVP_PKEY_CTX_set_rsa_padding(vc, pad == VFIT_PAD_PSS ?
						     RSA_PKCS1_PSS_PADDING :
						     RSA_PKCS1_PADDING) > 0, "padding");
		if (pad == VFIT_PAD_PSS)
			REQUIRE(EVP_PKEY_CTX_set_rsa_pss_saltlen(vc, RSA_PSS_SALTLEN_AUTO) > 0 &&
				EVP_PKEY_CTX_set_rsa_mgf1_md(vc, evp_md(h)) > 0, "PSS");
		ok = EVP_PKEY_verify(vc, sig, sig_len, digest, vfit_hash_size(h));
	} else {
		ok = EVP_PKEY_verify(vc, der, ecdsa_der(sig, sig_len, der), digest,
				     vfit_hash_size(h));
	}
	EVP_PKEY_CTX_free(vc);
	EVP_PKEY_free(pk);
	return ok == 1 ? VFIT_OK : VFIT_ERR_SIGNATURE;
}

/* The same ops twice: only the state differs. */
static const struct evp_backend evp = {
	{ evp_init, evp_update, evp_final, evp_verify }, &n_evp, false
};
static const struct evp_backend denying = {
	{ evp_init, evp_update, evp_final, evp_verify }, &n_deny, true
};

static struct vfit_verify_result res, ref;

/* A fuzz seed: its first byte picks the control DTB (tests/fuzz/fuzz_ctl.h). */
static uint8_t *seed(const char *name, size_t *len, int *ctl)
{
	char path[256];
	char *raw;
	size_t sz;

	snprintf(path, sizeof(path), CORPUS "%s", name);
	raw = check_read_file(path, &sz);
	*ctl = (uint8_t)raw[0] % FUZZ_NCTL;
	*len = sz - 1;
	memmove(raw, raw + 1, sz - 1);
	return (uint8_t *)raw;
}

static enum vfit_result run(const struct vfit_crypto *cr, const uint8_t *fit, size_t len,
			    int ctl)
{
	memset(&n_evp, 0, sizeof(n_evp));
	memset(&n_deny, 0, sizeof(n_deny));
	return vfit_verify_with(cr, fit, len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0, &res);
}

/* Whether nothing went through the backend counting into n. */
static bool untouched(const struct counts *n)
{
	return !n->inits && !n->finals && !n->sigs && !n->bytes;
}

/* A whole run through EVP agrees with the default backend, and all of it went through EVP. */
static void same_verdict(const char *name)
{
	size_t len, payload = 0;
	int ctl;
	uint8_t *fit = seed(name, &len, &ctl);
	enum vfit_result want;
	unsigned int i, j;

	want = vfit_verify(fit, len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0, &ref);
	CHECK(want == VFIT_OK, "%s: the default backend verifies it (%s)", name,
	      vfit_result_to_string(want));
	CHECK(run(&evp.ops, fit, len, ctl) == VFIT_OK, "%s: the EVP backend verifies it (%s)",
	      name, vfit_result_to_string(res.result));
	CHECK(res.nimages == ref.nimages && res.nchecks == ref.nchecks,
	      "%s: same images (%u) and checks (%u)", name, res.nimages, res.nchecks);
	/* Each image once, however many properties name it. */
	for (i = 0; i < res.nimages; i++) {
		for (j = 0; j < i && res.image[j].node != res.image[i].node; j++)
			;
		if (j == i)
			payload += res.image[i].size;
	}
	CHECK(n_evp.sigs >= 1 && n_evp.inits >= 1 && n_evp.inits == n_evp.finals,
	      "%s: %u signature checks, %u hashes started and %u finished in the backend", name,
	      n_evp.sigs, n_evp.inits, n_evp.finals);
	CHECK(n_evp.bytes >= payload, "%s: %zu bytes hashed in the backend, payloads %zu", name,
	      n_evp.bytes, payload);
	CHECK(untouched(&n_deny), "%s: nothing went through the other instance", name);
	/*
	 * The verdict is the backend's, decided by its state: the same ops
	 * with the refusing switch set fail the run, and count into their own.
	 */
	CHECK(run(&denying.ops, fit, len, ctl) == VFIT_ERR_REQUIRED && n_deny.sigs >= 1 &&
	      n_deny.inits == n_deny.finals && untouched(&n_evp),
	      "%s: the refusing instance's verdict stands (%s), on its own counters", name,
	      vfit_result_to_string(res.result));
	CHECK(run(&vfit_crypto_portable, fit, len, ctl) == VFIT_OK,
	      "%s: the portable backend verifies it", name);
	/* The CPU SHA backend has no SHA-512 or MD5 instructions to use: portable there. */
	i = (unsigned int)run(&vfit_crypto_sha_cpu, fit, len, ctl);
	CHECK(vfit_hash_have_accel(VFIT_HASH_SHA256) ? i == VFIT_OK :
	      i == VFIT_OK || i == VFIT_ERR_UNSUPPORTED || i == VFIT_ERR_REQUIRED,
	      "%s: the CPU SHA backend (%s)", name, vfit_result_to_string((enum vfit_result)i));
	free(fit);
}

/* A payload byte changed: the EVP hash sees it, as the portable one does. */
static void tampered(void)
{
	size_t len;
	int ctl;
	uint8_t *fit = seed("conf-sha256", &len, &ctl);
	enum vfit_result r;

	REQUIRE(vfit_verify(fit, len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0, &ref) ==
		VFIT_OK && ref.nimages && ref.image[0].size, "conf-sha256 verifies");
	fit[ref.image[0].offset] ^= 1;
	r = run(&evp.ops, fit, len, ctl);
	CHECK(r == VFIT_ERR_HASH && n_evp.inits == n_evp.finals,
	      "tampered payload: EVP backend says %s, every hash finished",
	      vfit_result_to_string(r));
	CHECK(vfit_verify(fit, len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0, &ref) == r,
	      "tampered payload: the default backend agrees");
	CHECK(vfit_verify_with(NULL, fit, len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0,
			       &res) == VFIT_ERR_PARAM, "no backend: VFIT_ERR_PARAM");
	free(fit);
}

int main(void)
{
	static const char *const seeds[] = {
		"conf-sha256", "conf-pss-sha1", "conf-ecdsa256", "conf-ecdsa384", "image-sigs",
		"conf-ext",
	};
	unsigned int i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		same_verdict(seeds[i]);
	tampered();
	return check_done();
}
