/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA FITs end to end:
 *   - saved FITs signed by Debian's mkimage 2023.01 (P-256, with sha256,
 *     sha384 and sha1) and by U-Boot HEAD's (P-384, sha384 and sha512) with
 *     their control DTBs (tests/fuzz/ecdsa_seeds.sh) verify, and every one
 *     of their signatures passes OpenSSL's own ECDSA check of the digest
 *     rebuilt here with vfit_conf_nodes()/vfit_conf_digest() (and fails it
 *     with one digest bit flipped, so the check can fail);
 *   - FITs signed by vfit's mkimage (vfit_mkimage_run) with fresh P-256 and
 *     P-384 keys and every hash pairing pass the same OpenSSL check and
 *     vfit_verify();
 *   - tampered copies of the saved FITs and DTBs, each rejected for the
 *     right reason: r and s edited, zero, n, above n; the wrong length; the
 *     key on another curve or another point, x and y swapped, off the
 *     curve, coordinates of the wrong size or >= p; the key's algo and
 *     curve against the signature's row; padding; an RSA signature against
 *     ECDSA keys; and required-mode any/all with an RSA and an ECDSA key
 *     both required, on a FIT carrying a signature of each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "check.h"
#include "vfit-host/host.h"
#include "vfit/fit.h"
#include "../fuzz/fuzz_ctl.h"

#define CORPUS "tests/fuzz/corpus/fuzz_verify/"
#define ROOM 16384

enum { CTL_RSA = 0, CTL256 = 4, CTL384 = 5 };

static struct vfit_verify_result res;

/* ---- blobs --------------------------------------------------------------- */

/* A FIT or control DTB opened into a buffer with room to edit in place. */
static uint8_t *opened(const void *blob)
{
	uint8_t *b = calloc(1, fdt_totalsize(blob) + ROOM);

	if (!b || fdt_open_into(blob, b, (int)(fdt_totalsize(blob) + ROOM)))
		abort();
	return b;
}

/* A saved FIT of the fuzz corpus (its first byte is the fuzz selector). */
static uint8_t *seed(const char *name)
{
	char path[256];
	size_t n;
	char *raw;
	uint8_t *b;

	snprintf(path, sizeof(path), CORPUS "%s", name);
	raw = check_read_file(path, &n);
	memmove(raw, raw + 1, n - 1);   /* libfdt wants the blob aligned */
	b = opened(raw);
	free(raw);
	return b;
}

static uint8_t *ctl_of(int i)
{
	return opened(fuzz_ctl[i].p);
}

static int node(const void *b, const char *path)
{
	int n = fdt_path_offset(b, path);

	if (n < 0) {
		fprintf(stderr, "no node %s\n", path);
		abort();
	}
	return n;
}

/* A property's bytes, to edit in place. */
static uint8_t *prop(void *b, const char *path, const char *name, int *len)
{
	uint8_t *p = fdt_getprop_w(b, node(b, path), name, len);

	if (!p)
		abort();
	return p;
}

static void set(void *b, const char *path, const char *name, const void *v, int len)
{
	if (fdt_setprop(b, node(b, path), name, v, len))
		abort();
}

static void set_str(void *b, const char *path, const char *name, const char *s)
{
	set(b, path, name, s, (int)strlen(s) + 1);
}

static void del(void *b, const char *path, const char *name)
{
	if (fdt_delprop(b, node(b, path), name))
		abort();
}

static enum vfit_result verify(const void *fit, const void *ctl)
{
	return vfit_verify(fit, fdt_totalsize(fit), ctl, fdt_totalsize(ctl), NULL, 0, &res);
}

/* Check records of a kind. */
static unsigned int count(enum vfit_check_kind kind)
{
	unsigned int i, n = 0;

	for (i = 0; i < res.nchecks; i++)
		n += res.check[i].kind == kind;
	return n;
}

/* The result recorded for the first configuration-signature attempt. */
static enum vfit_result first_conf_attempt(void)
{
	unsigned int i;

	for (i = 0; i < res.nchecks; i++)
		if (res.check[i].kind == VFIT_CHECK_CONF_SIG)
			return res.check[i].result;
	return VFIT_ERR_MISSING;
}

#define EXPECT(got, want, prop) expect_(__LINE__, got, want, prop)
static void expect_(int line, enum vfit_result got, enum vfit_result want, const char *prop)
{
	check_(got == want, __FILE__, line, "result %d (%s), want %d (%s)", got,
	       vfit_result_to_string(got), want, vfit_result_to_string(want));
	if (prop)
		check_(res.err_prop && !strcmp(res.err_prop, prop), __FILE__, line,
		       "property '%s', want '%s'", res.err_prop ? res.err_prop : "(none)", prop);
	if (got != VFIT_OK)
		check_(res.nimages == 0, __FILE__, line, "images handed out on failure");
}

/* ---- curve constants from OpenSSL ---------------------------------------- */

struct curve {
	int bytes;
	uint8_t n[48], p[48];
};

static void curve_get(int nid, struct curve *c)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
	BIGNUM *p = BN_new();

	if (!g || !p || !EC_GROUP_get_curve(g, p, NULL, NULL, NULL))
		abort();
	c->bytes = (EC_GROUP_get_degree(g) + 7) / 8;
	BN_bn2binpad(EC_GROUP_get0_order(g), c->n, c->bytes);
	BN_bn2binpad(p, c->p, c->bytes);
	BN_free(p);
	EC_GROUP_free(g);
}

/* ---- OpenSSL's own check --------------------------------------------------- */

/* The public key of a control-DTB key node as an OpenSSL key. */
static EVP_PKEY *ossl_key(const void *ctl, int key)
{
	const char *curve = fdt_getprop(ctl, key, "ecdsa,curve", NULL);
	const uint8_t *x, *y;
	uint8_t pt[1 + 2 * 48];
	int xl, yl;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *k = NULL;

	x = fdt_getprop(ctl, key, "ecdsa,x-point", &xl);
	y = fdt_getprop(ctl, key, "ecdsa,y-point", &yl);
	if (curve && x && y && xl == yl && xl <= 48) {
		pt[0] = 4;
		memcpy(pt + 1, x, (size_t)xl);
		memcpy(pt + 1 + xl, y, (size_t)yl);
		OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, curve, 0);
		OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pt,
						 (size_t)(1 + 2 * xl));
		params = OSSL_PARAM_BLD_to_param(bld);
		if (params && EVP_PKEY_fromdata_init(c) > 0)
			EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, params);
	}
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(c);
	return k;
}

/* OpenSSL's ECDSA verification of the raw r || s over digest: 1 if valid. */
static int ossl_verify(EVP_PKEY *k, const uint8_t *digest, size_t dlen, const uint8_t *sig,
		       int slen)
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	unsigned char *der = NULL;
	int half = slen / 2, len, ok = 0;

	if (es && c && ECDSA_SIG_set0(es, BN_bin2bn(sig, half, NULL),
				      BN_bin2bn(sig + half, half, NULL)) &&
	    (len = i2d_ECDSA_SIG(es, &der)) > 0 && EVP_PKEY_verify_init(c) > 0)
		ok = EVP_PKEY_verify(c, der, (size_t)len, digest, dlen) == 1;
	OPENSSL_free(der);
	EVP_PKEY_CTX_free(c);
	ECDSA_SIG_free(es);
	return ok;
}

/*
 * The digest a signature node covers, rebuilt here: an image's data, or
 * the configuration message (the node list and the first hashed-strings
 * bytes of the strings block).
 */
static size_t digest_of(const void *fit, int sig, enum vfit_hash h, uint8_t *out)
{
	int parent = fdt_parent_offset(fit, sig), len;
	struct vfit_node_list list;
	struct vfit_hash_ctx c;
	const fdt32_t *hs;
	const void *data;

	if (vfit_hash_init(&c, h))
		abort();
	data = fdt_getprop(fit, parent, "data", &len);
	if (data) {
		vfit_hash_update(&c, data, (size_t)len);
	} else {
		hs = fdt_getprop(fit, sig, "hashed-strings", &len);
		if (!hs || len != 8 || vfit_conf_nodes(fit, parent, &list, NULL) ||
		    vfit_conf_digest(fit, &list, fdt32_to_cpu(hs[1]), &c))
			abort();
	}
	vfit_hash_final(&c, out);
	return vfit_hash_size(h);
}

/*
 * Every signature node of fit against OpenSSL with its key node in ctl
 * (/signature/<key-name-hint>): each must pass, and fail with the digest's
 * first bit flipped.  The number checked.
 */
static int ossl_check_all(const char *what, const void *fit, const void *ctl)
{
	int n = 0, off, depth = 0, len, keys = fdt_subnode_offset(ctl, 0, "signature");
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	const char *name, *algo, *hint;
	const uint8_t *sig;
	struct vfit_algo a;
	EVP_PKEY *k;
	size_t dl;

	for (off = fdt_next_node(fit, 0, &depth); off >= 0 && depth > 0;
	     off = fdt_next_node(fit, off, &depth)) {
		name = fdt_get_name(fit, off, NULL);
		if (!name || strncmp(name, "signature", 9))
			continue;
		algo = fdt_getprop(fit, off, "algo", &len);
		hint = fdt_getprop(fit, off, "key-name-hint", NULL);
		sig = fdt_getprop(fit, off, "value", &len);
		if (!CHECK(algo && hint && sig && !vfit_algo_parse(algo, (int)strlen(algo) + 1, &a),
			   "%s: signature node %d incomplete", what, off))
			continue;
		k = ossl_key(ctl, fdt_subnode_offset(ctl, keys, hint));
		dl = digest_of(fit, off, a.hash, digest);
		CHECK(k && ossl_verify(k, digest, dl, sig, len), "%s: %s by %s: OpenSSL refuses it",
		      what, algo, hint);
		digest[0] ^= 0x80;
		CHECK(k && !ossl_verify(k, digest, dl, sig, len),
		      "%s: %s: OpenSSL accepts a wrong digest", what, algo);
		EVP_PKEY_free(k);
		n++;
	}
	return n;
}

/* ---- the saved FITs ------------------------------------------------------ */

static void saved(void)
{
	uint8_t *f = seed("conf-ecdsa256"), *g = seed("conf-ecdsa384");
	uint8_t *c256 = ctl_of(CTL256), *c384 = ctl_of(CTL384);
	unsigned int i, sigs = 0;

	EXPECT(verify(f, c256), VFIT_OK, NULL);
	CHECK(res.nimages == 4 && !res.unenforced, "P-256: %u images", res.nimages);
	for (i = 0; i < res.nchecks; i++)
		if (res.check[i].kind != VFIT_CHECK_HASH) {
			sigs++;
			CHECK(res.check[i].result == VFIT_OK && res.check[i].required,
			      "P-256: check %u: %d", i, res.check[i].result);
		}
	CHECK(sigs == 4, "P-256: %u signature checks (conf + 3 images)", sigs);
	CHECK(ossl_check_all("mkimage 2023.01, P-256", f, c256) == 4, "P-256: signatures checked");

	EXPECT(verify(g, c384), VFIT_OK, NULL);
	CHECK(res.nimages == 4 && !res.unenforced, "P-384: %u images", res.nimages);
	/* the key node says sha384,ecdsa384: it still serves the kernel's sha512,ecdsa384 */
	for (i = 0; i < res.nchecks; i++)
		if (res.check[i].kind == VFIT_CHECK_IMAGE_SIG)
			CHECK(res.check[i].result == VFIT_OK && res.check[i].key_node >= 0,
			      "P-384: image signature %d", res.check[i].result);
	CHECK(ossl_check_all("U-Boot HEAD, P-384", g, c384) == 2, "P-384: signatures checked");

	/* each with the other's keys */
	EXPECT(verify(f, c384), VFIT_ERR_KEY_ALGO, "value");
	EXPECT(verify(g, c256), VFIT_ERR_KEY_ALGO, "value");
	free(f), free(g), free(c256), free(c384);
}

/* ---- signatures edited ---------------------------------------------------- */

static const char conf_sig[] = "/configurations/conf-1/signature-1";

enum vedit { R_FLIP, S_FLIP, R_ZERO, S_ZERO, R_N, S_N, R_FF, S_NEG };

/* Edits the value r || s (len bytes) on curve c. */
static void value_edit(uint8_t *v, int len, enum vedit e, const struct curve *c)
{
	size_t h = (size_t)len / 2;
	uint8_t *s = v + h;
	BIGNUM *n, *b;

	switch (e) {
	case R_FLIP: v[5] ^= 1; break;
	case S_FLIP: s[h - 1] ^= 0x40; break;
	case R_ZERO: memset(v, 0, h); break;
	case S_ZERO: memset(s, 0, h); break;
	case R_N: memcpy(v, c->n, h); break;
	case S_N: memcpy(s, c->n, h); break;
	case R_FF: memset(v, 0xff, h); break;
	case S_NEG:     /* (r, n - s): the other valid signature of the same digest */
		n = BN_bin2bn(c->n, c->bytes, NULL);
		b = BN_bin2bn(s, (int)h, NULL);
		BN_sub(b, n, b);
		BN_bn2binpad(b, s, (int)h);
		BN_free(n);
		BN_free(b);
		break;
	}
}

/* A saved FIT whose configuration signature value is edited; the result. */
static enum vfit_result with_value(const char *fit_name, int ctl, enum vedit e,
				   const struct curve *c)
{
	uint8_t *f = seed(fit_name), *k = ctl_of(ctl);
	enum vfit_result r;
	uint8_t *v;
	int len;

	v = prop(f, conf_sig, "value", &len);
	value_edit(v, len, e, c);
	r = verify(f, k);
	free(f), free(k);
	return r;
}

static void values(const struct curve *p256, const struct curve *p384)
{
	static const struct {
		const char *what;
		enum vedit e;
		enum vfit_result attempt;   /* what the attempt records */
	} cases[] = {
		{ "r bit flipped", R_FLIP, VFIT_ERR_SIGNATURE },
		{ "s bit flipped", S_FLIP, VFIT_ERR_SIGNATURE },
		{ "r = 0", R_ZERO, VFIT_ERR_SIG_RANGE },
		{ "s = 0", S_ZERO, VFIT_ERR_SIG_RANGE },
		{ "r = n", R_N, VFIT_ERR_SIG_RANGE },
		{ "s = n", S_N, VFIT_ERR_SIG_RANGE },
		{ "r = 2^bits - 1 > n", R_FF, VFIT_ERR_SIG_RANGE },
	};
	unsigned int i, j;

	for (j = 0; j < 2; j++) {
		const char *fit = j ? "conf-ecdsa384" : "conf-ecdsa256";
		const struct curve *c = j ? p384 : p256;
		int ctl = j ? CTL384 : CTL256;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			enum vfit_result r = with_value(fit, ctl, cases[i].e, c);

			CHECK(r == VFIT_ERR_REQUIRED && first_conf_attempt() == cases[i].attempt,
			      "%s: %s: %s (attempt %s)", fit, cases[i].what, vfit_result_to_string(r),
			      vfit_result_to_string(first_conf_attempt()));
		}
		/* ECDSA's malleability: verifies, as with OpenSSL (FIT values are not unique) */
		EXPECT(with_value(fit, ctl, S_NEG, c), VFIT_OK, NULL);
	}
}

/* value of the wrong length: 63 bytes, 65, and P-384's 96 with ecdsa256. */
static void lengths(void)
{
	static const int lens[] = { 63, 65, 96, 0 };
	uint8_t buf[128] = { 1 };
	unsigned int i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint8_t *f = seed("conf-ecdsa256"), *k = ctl_of(CTL256);

		set(f, conf_sig, "value", buf, lens[i]);
		EXPECT(verify(f, k), lens[i] ? VFIT_ERR_SIG_LENGTH : VFIT_ERR_NO_SIGNATURE, "value");
		free(f), free(k);
	}
}

/* ---- keys edited ------------------------------------------------------------ */

enum kedit { SWAP, Y_PLUS_1, NEG_Y, X_IS_P, ZERO, SHORT, LONG, OTHER_KEY };

/* Applies an edit to the point of ctl key node path (coordinates of c->bytes). */
static void key_edit(uint8_t *k, const char *path, enum kedit e, const struct curve *c)
{
	uint8_t t[49] = { 0 };
	int xl, yl, i;
	uint8_t *x = prop(k, path, "ecdsa,x-point", &xl), *y = prop(k, path, "ecdsa,y-point", &yl);
	BIGNUM *p, *b;

	switch (e) {
	case SWAP:
		memcpy(t, x, (size_t)xl);
		memcpy(x, y, (size_t)xl);
		memcpy(y, t, (size_t)xl);
		break;
	case Y_PLUS_1:
		for (i = yl - 1; i >= 0 && ++y[i] == 0; i--)
			;
		break;
	case NEG_Y:     /* (x, p - y): on the curve, the inverse point, not the signer's */
		p = BN_bin2bn(c->p, c->bytes, NULL);
		b = BN_bin2bn(y, yl, NULL);
		BN_sub(b, p, b);
		BN_bn2binpad(b, y, yl);
		BN_free(p);
		BN_free(b);
		break;
	case X_IS_P:
		memcpy(x, c->p, (size_t)c->bytes);
		break;
	case ZERO:
		memset(x, 0, (size_t)xl);
		memset(y, 0, (size_t)yl);
		break;
	case SHORT:
		set(k, path, "ecdsa,x-point", t, c->bytes - 1);
		break;
	case LONG:
		memcpy(t + 1, x, (size_t)xl);
		set(k, path, "ecdsa,x-point", t, c->bytes + 1);
		break;
	case OTHER_KEY:
		break;
	}
}

static void keys(const struct curve *p256, const struct curve *p384)
{
	static const struct {
		const char *what;
		enum kedit e;
		enum vfit_result attempt;
	} cases[] = {
		{ "x and y swapped", SWAP, VFIT_ERR_KEY },
		{ "y + 1: off the curve", Y_PLUS_1, VFIT_ERR_KEY },
		{ "x = p", X_IS_P, VFIT_ERR_KEY },
		{ "(0, 0)", ZERO, VFIT_ERR_KEY },
		{ "x one byte short", SHORT, VFIT_ERR_KEY },
		{ "x one byte long", LONG, VFIT_ERR_KEY },
		{ "-Q (x, p - y): on the curve, wrong key", NEG_Y, VFIT_ERR_SIGNATURE },
	};
	unsigned int i, j;

	for (j = 0; j < 2; j++) {
		const char *fit = j ? "conf-ecdsa384" : "conf-ecdsa256";
		const char *key = j ? "/signature/ec384" : "/signature/ecdev";
		const struct curve *c = j ? p384 : p256;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			uint8_t *f = seed(fit), *k = ctl_of(j ? CTL384 : CTL256);
			enum vfit_result r;

			key_edit(k, key, cases[i].e, c);
			r = verify(f, k);
			/* A malformed key is a structural reason and kept; a wrong one is REQUIRED. */
			CHECK(r == (cases[i].attempt == VFIT_ERR_KEY ? VFIT_ERR_KEY : VFIT_ERR_REQUIRED) &&
			      first_conf_attempt() == cases[i].attempt, "%s: %s: %s (attempt %s)", fit,
			      cases[i].what, vfit_result_to_string(r),
			      vfit_result_to_string(first_conf_attempt()));
			free(f), free(k);
		}
	}
}

/*
 * The key's curve and algo against the signature's row (vfit_key_load):
 * a 2023.01 key without algo serves its curve; with algo, its row; a node
 * that contradicts itself is malformed.
 */
static void algos(void)
{
	static const char ecdev[] = "/signature/ecdev", ec384[] = "/signature/ec384";
	uint8_t *f, *k;

#define CASE(fit_name, ctl, edit, want)                      \
	do {                                                 \
		f = seed(fit_name);                          \
		k = ctl_of(ctl);                             \
		edit;                                        \
		EXPECT(verify(f, k), want, NULL);            \
		free(f), free(k);                            \
	} while (0)

	/* no algo: the curve decides */
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "ecdsa,curve", "secp384r1"),
	     VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "ecdsa,curve", "brainpoolP256r1"),
	     VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa256", CTL256, del(k, ecdev, "ecdsa,curve"), VFIT_ERR_KEY);
	CASE("conf-ecdsa256", CTL256, set(k, ecdev, "ecdsa,curve", "prime256v1", 10),
	     VFIT_ERR_KEY);   /* no NUL: not a string */
	/* a P-256 key for an ecdsa384 signature (the algo edited in place, same length) */
	CASE("conf-ecdsa256", CTL256, memcpy(prop(f, conf_sig, "algo", NULL) + 12, "384", 3),
	     VFIT_ERR_KEY_ALGO);
	/* algo present: its row, any hash */
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "algo", "sha1,ecdsa256"), VFIT_OK);
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "algo", "sha256,ecdsa384"),
	     VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "algo", "sha256,rsa2048"),
	     VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa256", CTL256, set_str(k, ecdev, "algo", "md5,ecdsa256"),
	     VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa384", CTL384, del(k, ec384, "algo"), VFIT_OK);
	CASE("conf-ecdsa384", CTL384, set_str(k, ec384, "algo", "sha256,ecdsa384"), VFIT_OK);
	/* algo ecdsa256 on a secp384r1 node: contradicts itself */
	CASE("conf-ecdsa384", CTL384,
	     (set_str(k, ec384, "algo", "sha384,ecdsa256"),
	      memcpy(prop(f, conf_sig, "algo", NULL) + 12, "256", 3)),
	     VFIT_ERR_KEY);
	/*
	 * algo ecdsa256 with the P-256 key's own point but ecdsa,curve secp384r1:
	 * the point alone would verify; the node contradicts itself
	 */
	CASE("conf-ecdsa256", CTL256,
	     (set_str(k, ecdev, "algo", "sha256,ecdsa256"),
	      set_str(k, ecdev, "ecdsa,curve", "secp384r1")),
	     VFIT_ERR_KEY);
	/* a P-384 key for P-256 */
	CASE("conf-ecdsa256", CTL384, (void)0, VFIT_ERR_KEY_ALGO);
	/* an RSA signature with only ECDSA keys required, and the other way round */
	CASE("conf-sha256", CTL256, (void)0, VFIT_ERR_KEY_ALGO);
	CASE("conf-ecdsa256", CTL_RSA, (void)0, VFIT_ERR_KEY_ALGO);
	/* padding: none for ECDSA; U-Boot's default name passes */
	CASE("conf-ecdsa256", CTL256, set_str(f, conf_sig, "padding", "pkcs-1.5"), VFIT_OK);
	CASE("conf-ecdsa256", CTL256, set_str(f, conf_sig, "padding", "pss"),
	     VFIT_ERR_UNSUPPORTED);
	CHECK(res.err_prop && !strcmp(res.err_prop, "padding"), "pss: blamed on padding");
	CASE("conf-ecdsa256", CTL256, set_str(f, conf_sig, "padding", "none"),
	     VFIT_ERR_UNSUPPORTED);
	/* an ECDSA image signature tampered: the required image key fails */
	CASE("conf-ecdsa256", CTL256, prop(f, "/images/fdt-1/signature-1", "value", NULL)[40] ^= 1,
	     VFIT_ERR_REQUIRED);
#undef CASE
}

/* ---- required-mode across RSA and ECDSA --------------------------------------- */

/* Signs digest (SHA-256) with key: RSA PKCS#1 v1.5, or ECDSA as raw r || s. */
static void sign_digest(EVP_PKEY *key, const uint8_t *digest, uint8_t *out, size_t *len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(key, NULL);
	uint8_t der[80];
	size_t dl = sizeof(der);
	const unsigned char *p = der;
	ECDSA_SIG *es;

	if (!c || EVP_PKEY_sign_init(c) <= 0)
		abort();
	if (EVP_PKEY_is_a(key, "RSA")) {
		EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
		EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
		if (EVP_PKEY_sign(c, out, len, digest, 32) <= 0)
			abort();
	} else {
		if (EVP_PKEY_sign(c, der, &dl, digest, 32) <= 0 ||
		    !(es = d2i_ECDSA_SIG(NULL, &p, (long)dl)))
			abort();
		BN_bn2binpad(ECDSA_SIG_get0_r(es), out, 32);
		BN_bn2binpad(ECDSA_SIG_get0_s(es), out + 32, 32);
		*len = 64;
		ECDSA_SIG_free(es);
	}
	EVP_PKEY_CTX_free(c);
}

/*
 * conf-sha256 re-signed with two configuration signatures over the same
 * message: signature-1 sha256,rsa2048 by rsa (key "dev"), signature-2
 * sha256,ecdsa256 by ec (key "ecx"; ec NULL: no signature-2).  The second
 * node is added first: a new node changes what the first signature covers.
 */
static uint8_t *mixed_fit(EVP_PKEY *rsa, EVP_PKEY *ec)
{
	static const char sig2[] = "/configurations/conf-1/signature-2";
	uint8_t *f = seed("conf-sha256"), digest[32], out[256];
	int conf = node(f, "/configurations/conf-1"), len;
	const void *nodes;
	void *copy;
	fdt32_t hs[2];
	size_t ol;

	hs[0] = 0;
	if (ec) {
		/* a copy: the blob moves under fdt_setprop() */
		nodes = fdt_getprop(f, node(f, conf_sig), "hashed-nodes", &len);
		copy = nodes ? malloc((size_t)len) : NULL;
		if (!copy)
			abort();
		memcpy(copy, nodes, (size_t)len);
		if (fdt_add_subnode(f, conf, "signature-2") < 0)
			abort();
		set(f, sig2, "hashed-nodes", copy, len);
		free(copy);
		set_str(f, sig2, "algo", "sha256,ecdsa256");
		set_str(f, sig2, "key-name-hint", "ecx");
		set(f, sig2, "value", out, 64);
		hs[1] = cpu_to_fdt32(fdt_size_dt_strings(f));
		set(f, sig2, "hashed-strings", hs, 8);
	}
	hs[1] = cpu_to_fdt32(fdt_size_dt_strings(f));
	set(f, conf_sig, "hashed-strings", hs, 8);
	digest_of(f, node(f, conf_sig), VFIT_HASH_SHA256, digest);
	ol = sizeof(out);
	sign_digest(rsa, digest, out, &ol);
	set(f, conf_sig, "value", out, (int)ol);
	if (ec) {
		sign_digest(ec, digest, out, &ol);
		set(f, sig2, "value", out, (int)ol);
	}
	return f;
}

/*
 * A control DTB with key-dev (RSA) and ecx (P-256) both required "conf",
 * in required-mode mode (NULL: absent, meaning "all"); ecx in 2023.01's
 * form plus `required` (form 0) or v2025.01's (form 1).
 */
static uint8_t *mixed_ctl(EVP_PKEY *rsa, EVP_PKEY *ec, const char *mode, int form)
{
	uint8_t *k = calloc(1, 4096);
	struct vfit_rsa_pub rp;
	struct vfit_ecdsa_pub ep;
	struct vfit_err e = { 0 };

	if (!k || fdt_create_empty_tree(k, 4096) || vfit_rsa_pub_from_pkey(rsa, &rp, &e) ||
	    vfit_ecdsa_pub_from_pkey(ec, &ep, &e) ||
	    vfit_rsa_keynode_write(k, "dev", &rp, "sha256,rsa2048", "conf") ||
	    vfit_ecdsa_keynode_write(k, "ecx", &ep, form ? "sha256,ecdsa256" : NULL,
				     form ? "conf" : NULL))
		abort();
	if (!form)
		set_str(k, "/signature/ecx", "required", "conf");
	if (mode)
		set_str(k, "/signature", "required-mode", mode);
	return k;
}

static void mixed(void)
{
	EVP_PKEY *ec = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	EVP_PKEY *rsa = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	static const char sig2[] = "/configurations/conf-1/signature-2";
	uint8_t *f, *k;
	int form;

	if (!CHECK(ec && rsa, "keys"))
		return;
	for (form = 0; form < 2; form++) {
		f = mixed_fit(rsa, ec);
		k = mixed_ctl(rsa, ec, NULL, form);
		EXPECT(verify(f, k), VFIT_OK, NULL);           /* default "all": both signed it */
		CHECK(count(VFIT_CHECK_CONF_SIG) == 3, "all: %u attempts (ECDSA by ecx, by dev "
		      "refused, RSA by dev)", count(VFIT_CHECK_CONF_SIG));
		free(k);
		k = mixed_ctl(rsa, ec, "any", form);
		EXPECT(verify(f, k), VFIT_OK, NULL);
		prop(f, sig2, "value", NULL)[3] ^= 1;
		EXPECT(verify(f, k), VFIT_OK, NULL);           /* "any": RSA alone suffices */
		prop(f, conf_sig, "value", NULL)[7] ^= 1;
		EXPECT(verify(f, k), VFIT_ERR_REQUIRED, NULL); /* neither */
		prop(f, sig2, "value", NULL)[3] ^= 1;
		EXPECT(verify(f, k), VFIT_OK, NULL);           /* ECDSA alone suffices */
		free(k);
		k = mixed_ctl(rsa, ec, "all", form);
		EXPECT(verify(f, k), VFIT_ERR_REQUIRED, NULL); /* the RSA one is bad */
		prop(f, conf_sig, "value", NULL)[7] ^= 1;
		prop(f, sig2, "value", NULL)[30] ^= 1;
		EXPECT(verify(f, k), VFIT_ERR_REQUIRED, "value"); /* the ECDSA one is bad */
		CHECK(res.err_key == fdt_path_offset(k, "/signature/ecx") &&
		      !strcmp(res.err_path, sig2), "blamed: key %d at %s", res.err_key, res.err_path);
		/* the RSA signature covered the node signature-2 too */
		CHECK(fdt_del_node(f, node(f, sig2)) == 0, "del");
		EXPECT(verify(f, k), VFIT_ERR_REQUIRED, NULL);
		free(f);
		/* signed by RSA alone: "all" fails (ecx has no signature of its algorithm) */
		f = mixed_fit(rsa, NULL);
		EXPECT(verify(f, k), VFIT_ERR_KEY_ALGO, NULL);
		CHECK(res.err_key == fdt_path_offset(k, "/signature/ecx"), "ecx named");
		free(k);
		k = mixed_ctl(rsa, ec, "any", form);
		EXPECT(verify(f, k), VFIT_OK, NULL);
		free(k);
		free(f);
	}
	EVP_PKEY_free(ec);
	EVP_PKEY_free(rsa);
}

/* ---- FITs signed by vfit's mkimage ----------------------------------------- */

static char dir[64];

static void write_text(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void write_key(const char *name, const char *group)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/keys/%s.pem", dir, name);
	f = fopen(path, "w");
	if (!k || !f || !PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL) || fclose(f))
		abort();
	EVP_PKEY_free(k);
}

/* Signs an image and a configuration with algo (key KEY), -K -r into a new DTB; checks it. */
static void vfit_signed(const char *algo, const char *key)
{
	char its[2048], fit_path[256], ctl_path[256], its_path[256], keydir[256];
	struct vfit_mkimage m = { .position = -1 };
	struct vfit_err e = { 0 };
	uint8_t empty[256];
	size_t fl, cl;
	char *f, *c;
	FILE *o;

	snprintf(its, sizeof(its),
		 "/dts-v1/;\n/ { description = \"ecdsa\"; #address-cells = <1>;\n"
		 " images { kernel { data = /incbin/(\"%s/kernel.bin\"); type = \"kernel\";\n"
		 "  arch = \"arm64\"; os = \"linux\"; compression = \"none\"; load = <0>; entry = <0>;\n"
		 "  hash-1 { algo = \"sha256\"; };\n"
		 "  signature-1 { algo = \"%s\"; key-name-hint = \"%s\"; }; }; };\n"
		 " configurations { default = \"c\"; c { kernel = \"kernel\";\n"
		 "  signature-1 { algo = \"%s\"; key-name-hint = \"%s\"; sign-images = \"kernel\"; };"
		 " }; }; };\n", dir, algo, key, algo, key);
	write_text("v.its", its);
	snprintf(its_path, sizeof(its_path), "%s/v.its", dir);
	snprintf(fit_path, sizeof(fit_path), "%s/v.fit", dir);
	snprintf(ctl_path, sizeof(ctl_path), "%s/ctl.dtb", dir);
	fdt_create_empty_tree(empty, sizeof(empty));
	fdt_pack(empty);
	o = fopen(ctl_path, "w");
	if (!o || fwrite(empty, fdt_totalsize(empty), 1, o) != 1 || fclose(o))
		abort();
	m.its = its_path;
	m.out = fit_path;
	snprintf(keydir, sizeof(keydir), "%s/keys", dir);
	m.keydir = keydir;
	m.keydest = ctl_path;
	m.required = 1;
	if (!CHECK(vfit_mkimage_run(&m, &e) == 0, "%s: vfit mkimage: %s", algo, e.msg))
		return;
	f = check_read_file(fit_path, &fl);
	c = check_read_file(ctl_path, &cl);
	EXPECT(vfit_verify(f, fl, c, cl, NULL, 0, &res), VFIT_OK, NULL);
	CHECK(res.nchecks == 3, "%s: %u checks", algo, res.nchecks);
	CHECK(ossl_check_all(algo, f, c) == 2, "%s: both signatures checked by OpenSSL", algo);
	free(f);
	free(c);
}

static void signed_by_vfit(void)
{
	static const char *const p256[] = { "sha256,ecdsa256", "sha1,ecdsa256", "sha384,ecdsa256",
					    "sha512,ecdsa256" };
	static const char *const p384[] = { "sha384,ecdsa384", "sha1,ecdsa384", "sha256,ecdsa384",
					    "sha512,ecdsa384" };
	char cmd[128];
	FILE *d;
	unsigned int i;

	snprintf(dir, sizeof(dir), "/tmp/vfit-ecdsa-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(cmd, sizeof(cmd), "%s/keys", dir);
	if (mkdir(cmd, 0700))
		abort();
	write_key("k256", "P-256");
	write_key("k384", "P-384");
	snprintf(cmd, sizeof(cmd), "%s/kernel.bin", dir);
	d = fopen(cmd, "w");
	if (!d || fputs("kernel bytes\n", d) < 0 || fclose(d))
		abort();
	for (i = 0; i < 4; i++) {
		vfit_signed(p256[i], "k256");
		vfit_signed(p384[i], "k384");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		abort();
}

int main(void)
{
	struct curve p256, p384;

	curve_get(NID_X9_62_prime256v1, &p256);
	curve_get(NID_secp384r1, &p384);
	saved();
	values(&p256, &p384);
	lengths();
	keys(&p256, &p384);
	algos();
	mixed();
	signed_by_vfit();
	return check_done();
}
