/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pre-load headers on the device side (lib/preload): headers and keys made
 * here with OpenSSL (RSA 1024..4096 PKCS#1 v1.5 and PSS, ECDSA P-256/P-384)
 * verify; the Montgomery constants computed from a bare DER key are the
 * ones OpenSSL's numbers give; every header field, both signatures and the
 * image are changed one at a time and each is refused with its field; the
 * key node's properties are read strictly; no read outside the buffer
 * (the buffers are exactly the file's size: ASan).
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "check.h"
#include "vfit/preload.h"

static const EVP_MD *md(enum vfit_hash h)
{
	return h == VFIT_HASH_SHA1 ? EVP_sha1() : h == VFIT_HASH_SHA384 ? EVP_sha384() :
	       h == VFIT_HASH_SHA512 ? EVP_sha512() : EVP_sha256();
}

static void sign(EVP_PKEY *k, enum vfit_hash h, int pss, const uint8_t *m, size_t len,
		 uint8_t *sig, size_t sig_len)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	uint8_t der[160];
	const uint8_t *p = der;
	size_t n = EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA ? sig_len : sizeof(der);
	ECDSA_SIG *es = NULL;

	REQUIRE(c && EVP_DigestSignInit(c, &pc, md(h), NULL, k) == 1, "sign init");
	if (pss)
		REQUIRE(EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
				EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_MAX) == 1,
			"pss");
	if (EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA) {
		REQUIRE(EVP_DigestSign(c, sig, &n, m, len) == 1 && n == sig_len, "RSA sign");
	} else {
		REQUIRE(EVP_DigestSign(c, der, &n, m, len) == 1 &&
				(es = d2i_ECDSA_SIG(NULL, &p, (long)n)) != NULL, "EC sign");
		BN_bn2binpad(ECDSA_SIG_get0_r(es), sig, (int)sig_len / 2);
		BN_bn2binpad(ECDSA_SIG_get0_s(es), sig + sig_len / 2, (int)sig_len / 2);
		ECDSA_SIG_free(es);
	}
	EVP_MD_CTX_free(c);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* binman's layout: header_size bytes of header, then the image. */
static uint8_t *make(EVP_PKEY *k, enum vfit_hash h, int pss, uint32_t sig, uint32_t hsize,
		     const uint8_t *img, uint32_t len)
{
	uint8_t *b = calloc(1, hsize + len);

	REQUIRE(b != NULL, "calloc");
	memcpy(b + hsize, img, len);
	sign(k, h, pss, img, len, b + 64 + sig, sig);
	put32(b, VFIT_PRELOAD_MAGIC);
	put32(b + 4, 1);
	put32(b + 8, hsize);
	put32(b + 12, len);
	put32(b + 16, 64 + sig);
	vfit_hash(VFIT_HASH_SHA256, b + 64 + sig, sig, b + 32);
	sign(k, h, pss, b, 64, b + 64, sig);
	return b;
}

static EVP_PKEY *gen(const char *type, int bits_or_curve)
{
	EVP_PKEY *k = NULL;

	if (!strcmp(type, "RSA"))
		k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits_or_curve);
	else
		k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", bits_or_curve == 256 ? "P-256" : "P-384");
	REQUIRE(k != NULL, "keygen");
	return k;
}

static void key_of(EVP_PKEY *k, const char *algo, const char *pad, uint32_t sig,
		   struct vfit_preload_key *key)
{
	uint8_t *der = NULL;
	int n = i2d_PublicKey(k, &der);
	const char *field = NULL;
	enum vfit_result r;

	REQUIRE(n > 0, "i2d_PublicKey");
	r = vfit_preload_key_make(algo, pad, sig, true, der, (size_t)n, key, &field);
	CHECK(r == VFIT_OK, "%s %s: key from its DER (%d at %s)", algo, pad ? pad : "-", (int)r,
	      field ? field : "-");
	OPENSSL_free(der);
}

/* The computed Montgomery constants against OpenSSL's arithmetic. */
static void constants(EVP_PKEY *k, const struct vfit_preload_key *key)
{
	BIGNUM *n = NULL, *rr = BN_new(), *two = BN_new(), *e2 = BN_new();
	BN_CTX *ctx = BN_CTX_new();
	uint8_t want[512];
	int bytes;

	REQUIRE(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n) == 1 && rr && two && e2 && ctx,
		"bignums");
	bytes = BN_num_bytes(n);
	BN_set_word(two, 2);
	BN_set_word(e2, (BN_ULONG)(16 * bytes));
	REQUIRE(BN_mod_exp(rr, two, e2, n, ctx) == 1, "2^2k mod n");
	BN_bn2binpad(rr, want, bytes);
	CHECK(!memcmp(want, key->rr, (size_t)bytes), "%d-bit r^2 mod n", 8 * bytes);
	CHECK((uint32_t)(key->rsa_key.n0inv * (uint32_t)BN_get_word(n)) == 0xffffffffu ||
		      bytes > 8, "-n^-1 mod 2^32");
	BN_mask_bits(n, 32);
	CHECK(key->rsa_key.n0inv * (uint32_t)BN_get_word(n) == 0xffffffffu, "%d-bit n0inv",
	      8 * bytes);
	BN_free(n);
	BN_free(rr);
	BN_free(two);
	BN_free(e2);
	BN_CTX_free(ctx);
}

static uint8_t img[3000];

static void good(void)
{
	static const struct {
		const char *type;
		int size;
		const char *algo, *pad;
		enum vfit_hash h;
	} cases[] = {
		{ "RSA", 1024, "sha256,rsa1024", "pkcs-1.5", VFIT_HASH_SHA256 },
		{ "RSA", 2048, "sha256,rsa2048", NULL, VFIT_HASH_SHA256 },
		{ "RSA", 2048, "sha1,rsa2048", "pss", VFIT_HASH_SHA1 },
		{ "RSA", 3072, "sha384,rsa3072", "pss", VFIT_HASH_SHA384 },
		{ "RSA", 4096, "sha512,rsa4096", "pkcs-1.5", VFIT_HASH_SHA512 },
		{ "EC", 256, "sha256,ecdsa256", NULL, VFIT_HASH_SHA256 },
		{ "EC", 384, "sha384,ecdsa384", "pkcs-1.5", VFIT_HASH_SHA384 },
	};
	static struct vfit_preload_key key;
	struct vfit_preload_result res;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EVP_PKEY *k = gen(cases[i].type, cases[i].size);
		uint32_t sig = !strcmp(cases[i].type, "RSA") ? (uint32_t)cases[i].size / 8
							      : (uint32_t)cases[i].size / 4;
		int pss = cases[i].pad && !strcmp(cases[i].pad, "pss");
		uint8_t *b = make(k, cases[i].h, pss, sig, 4096, img, sizeof(img));

		key_of(k, cases[i].algo, cases[i].pad, sig, &key);
		if (!strcmp(cases[i].type, "RSA"))
			constants(k, &key);
		CHECK(vfit_preload_check(&key, b, 4096 + sizeof(img), &res) == VFIT_OK &&
			      res.present && res.image_offset == 4096 &&
			      res.image_len == sizeof(img) && res.version == 1,
		      "%s %s verifies (%s)", cases[i].algo, cases[i].pad ? cases[i].pad : "-",
		      res.field ? res.field : "-");
		CHECK(vfit_preload_check(&key, b, 4096 + sizeof(img) + 100, &res) == VFIT_OK &&
			      res.image_len == sizeof(img), "%s: more bytes after the image", cases[i].algo);
		free(b);
		EVP_PKEY_free(k);
	}
}

/* Each change of a fixed header must be refused at field. */
static void tampered(void)
{
	static struct vfit_preload_key key;
	struct vfit_preload_result res;
	EVP_PKEY *k = gen("RSA", 2048);
	const size_t total = 1024 + sizeof(img);
	uint8_t *b = make(k, VFIT_HASH_SHA256, 0, 256, 1024, img, sizeof(img)), *t;
	static const struct {
		size_t off;
		uint8_t x;
		const char *field;
		enum vfit_result r;
	} cases[] = {
		{ 3, 0x01, "magic", VFIT_ERR_NO_SIGNATURE }, { 7, 0x03, "version", VFIT_ERR_FORMAT },
		{ 8, 0x01, "header_size", VFIT_ERR_TRUNCATED },
		{ 10, 0x04, "header_size", VFIT_ERR_FORMAT },   /* 1024 -> 0 */
		{ 12, 0x01, "image_size", VFIT_ERR_TRUNCATED },
		{ 18, 0x02, "offset_img_sig", VFIT_ERR_FORMAT }, { 20, 0x80, "flags", VFIT_ERR_FORMAT },
		{ 24, 0x01, "reserved", VFIT_ERR_FORMAT }, { 31, 0x01, "reserved", VFIT_ERR_FORMAT },
		{ 32, 0x01, "header signature", VFIT_ERR_SIGNATURE },
		{ 100, 0x01, "header signature", VFIT_ERR_SIGNATURE },
		{ 400, 0x01, "sha256_img_sig", VFIT_ERR_HASH },
		{ 600, 0x01, "padding", VFIT_ERR_FORMAT }, { 1023, 0x01, "padding", VFIT_ERR_FORMAT },
		{ 1024, 0x01, "image signature", VFIT_ERR_SIGNATURE },
		{ total - 1, 0x01, "image signature", VFIT_ERR_SIGNATURE },
	};
	size_t i;

	key_of(k, "sha256,rsa2048", NULL, 256, &key);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = malloc(total);
		REQUIRE(t != NULL, "malloc");
		memcpy(t, b, total);
		t[cases[i].off] ^= cases[i].x;
		CHECK(vfit_preload_check(&key, t, total, &res) == cases[i].r && res.field &&
			      !strcmp(res.field, cases[i].field) && !res.image_len == (cases[i].r != VFIT_ERR_NO_SIGNATURE),
		      "byte %zu changed: %s (got %d at %s)", cases[i].off, cases[i].field,
		      (int)res.result, res.field ? res.field : "-");
		free(t);
	}
	for (i = 0; i < total; i += 97) {
		t = malloc(i ? i : 1);
		REQUIRE(t != NULL, "malloc");
		memcpy(t, b, i);
		CHECK(vfit_preload_check(&key, t, i, &res) != VFIT_OK, "truncated to %zu", i);
		free(t);
	}
	/* Not mandatory: no header is the whole image; a bad header is still refused. */
	key.mandatory = false;
	CHECK(vfit_preload_check(&key, img, sizeof(img), &res) == VFIT_OK && !res.present &&
		      res.image_offset == 0 && res.image_len == sizeof(img), "optional: no header");
	b[100] ^= 1;
	CHECK(vfit_preload_check(&key, b, total, &res) == VFIT_ERR_SIGNATURE,
	      "optional: a bad header is refused");
	CHECK(vfit_preload_check(NULL, b, total, &res) == VFIT_ERR_PARAM, "no key");
	free(b);
	EVP_PKEY_free(k);
}

static uint8_t ctl[4096];

static enum vfit_result node(const char *algo, int algo_len, const char *pad, int size_len,
			     uint32_t size, const uint8_t *pub, int pub_len, const char *mand,
			     const char **prop)
{
	static struct vfit_preload_key key;
	struct vfit_diag d = { .node = -1 };
	enum vfit_result r;

	FDT(fdt_create(ctl, sizeof(ctl)));
	FDT(fdt_finish_reservemap(ctl));
	FDT(fdt_begin_node(ctl, ""));
	FDT(fdt_begin_node(ctl, "image"));
	FDT(fdt_begin_node(ctl, "pre-load"));
	FDT(fdt_begin_node(ctl, "sig"));
	if (algo)
		FDT(fdt_property(ctl, "algo-name", algo, algo_len ? algo_len : (int)strlen(algo) + 1));
	if (pad)
		FDT(fdt_property_string(ctl, "padding-name", pad));
	if (size_len) {
		fdt32_t v[2] = { cpu_to_fdt32(size), 0 };

		FDT(fdt_property(ctl, "signature-size", v, size_len));
	}
	if (pub)
		FDT(fdt_property(ctl, "public-key", pub, pub_len));
	if (mand)
		FDT(fdt_property_string(ctl, "mandatory", mand));
	FDT(fdt_end_node(ctl));
	FDT(fdt_end_node(ctl));
	FDT(fdt_end_node(ctl));
	FDT(fdt_end_node(ctl));
	FDT(fdt_finish(ctl));
	r = vfit_preload_key_load(ctl, &key, &d);
	*prop = d.prop;
	return r;
}

static void is_at(enum vfit_result r, const char *p, enum vfit_result want, const char *field,
		  const char *what)
{
	CHECK(r == want && (!field || (p && !strcmp(p, field))), "key node: %s (got %d at %s)",
	      what, (int)r, p ? p : "-");
}

static void key_nodes(void)
{
	EVP_PKEY *k = gen("RSA", 2048);
	uint8_t *der = NULL, bad[300];
	int n = i2d_PublicKey(k, &der);
	const char *p = NULL;

#define NODE(want, field, ...)                                                               \
	do {                                                                                 \
		enum vfit_result r_ = node(__VA_ARGS__, &p);                                   \
		is_at(r_, p, want, field, #__VA_ARGS__);                                       \
	} while (0)
	NODE(VFIT_OK, NULL, "sha256,rsa2048", 0, "pss", 4, 256, der, n, "yes");
	NODE(VFIT_OK, NULL, "sha256,rsa2048", 0, NULL, 4, 256, der, n, NULL);
	NODE(VFIT_ERR_CONTROL, "algo-name", NULL, 0, NULL, 4, 256, der, n, NULL);
	NODE(VFIT_ERR_FORMAT, "algo-name", "sha256,rsa2048", 14, NULL, 4, 256, der, n, NULL);
	NODE(VFIT_ERR_UNSUPPORTED, "algo-name", "sha256,rsa2049", 0, NULL, 4, 256, der, n, NULL);
	NODE(VFIT_ERR_UNSUPPORTED, "algo-name", "md5,rsa2048", 0, NULL, 4, 256, der, n, NULL);
	NODE(VFIT_ERR_UNSUPPORTED, "padding-name", "sha256,rsa2048", 0, "pkcs", 4, 256, der, n, NULL);
	NODE(VFIT_ERR_FORMAT, "mandatory", "sha256,rsa2048", 0, NULL, 4, 256, der, n, "YES");
	NODE(VFIT_ERR_CONTROL, "signature-size", "sha256,rsa2048", 0, NULL, 0, 0, der, n, NULL);
	NODE(VFIT_ERR_FORMAT, "signature-size", "sha256,rsa2048", 0, NULL, 8, 256, der, n, NULL);
	NODE(VFIT_ERR_SIG_LENGTH, "signature-size", "sha256,rsa2048", 0, NULL, 4, 512, der, n, NULL);
	NODE(VFIT_ERR_CONTROL, "public-key", "sha256,rsa2048", 0, NULL, 4, 256, NULL, 0, NULL);
	NODE(VFIT_ERR_KEY, "public-key", "sha256,rsa4096", 0, NULL, 4, 512, der, n, NULL);
	NODE(VFIT_ERR_KEY, "public-key", "sha256,rsa2048", 0, NULL, 4, 256, der, n - 1, NULL);
	memcpy(bad, der, (size_t)n);
	bad[n] = 0;
	NODE(VFIT_ERR_KEY, "public-key", "sha256,rsa2048", 0, NULL, 4, 256, bad, n + 1, NULL);
	bad[0] = 0x31;
	NODE(VFIT_ERR_KEY, "public-key", "sha256,rsa2048", 0, NULL, 4, 256, bad, n, NULL);
	NODE(VFIT_ERR_UNSUPPORTED, "padding-name", "sha256,ecdsa256", 0, "pss", 4, 64, der, n, NULL);
	NODE(VFIT_ERR_KEY, "public-key", "sha256,ecdsa256", 0, NULL, 4, 64, der, 65, NULL);
	memset(bad, 0, 65);
	bad[0] = 4;
	NODE(VFIT_ERR_KEY, "public-key", "sha256,ecdsa256", 0, NULL, 4, 64, bad, 65, NULL);
	FDT(fdt_create_empty_tree(ctl, sizeof(ctl)));
	{
		static struct vfit_preload_key key;

		CHECK(vfit_preload_key_load(ctl, &key, NULL) == VFIT_ERR_MISSING, "no key node");
	}
	OPENSSL_free(der);
	EVP_PKEY_free(k);
}

int main(void)
{
	check_seed(24);
	check_rand_bytes(img, sizeof(img));
	good();
	tampered();
	key_nodes();
	return check_done();
}
