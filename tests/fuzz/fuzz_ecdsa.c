/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: ECDSA key loading and verification, each result
 * compared with a reference built on OpenSSL's group arithmetic
 * (EC_POINT_mul, BIGNUM), which aborts the run on any difference.
 *
 * Input: byte 0 picks the curve (bit 0: P-256 or P-384) and the mode
 * (bit 1); the rest is read as the mode says:
 *   raw     x, y (curve size each, or what is left), a digest length byte,
 *           the digest, and the signature: everything as given, so key
 *           checks, lengths and range checks see arbitrary bytes;
 *   signed  private key d, nonce k (curve size each, reduced mod n), a
 *           digest length byte, the digest, then an optional bit to flip in
 *           r || s or the digest: a valid signature (or one bit off it) on
 *           a key and nonce of the fuzzer's choosing, so the arithmetic
 *           runs on edge values (d, k = 1, n-1, 2^k ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "vfit/ecdsa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct cur {
	enum vfit_ec_curve id;
	int nid;
	EC_GROUP *g;
	BIGNUM *p, *n;
	size_t nb;
};

static BN_CTX *ctx;
static struct cur curves[2] = {
	{ VFIT_EC_P256, NID_X9_62_prime256v1, NULL, NULL, NULL, 32 },
	{ VFIT_EC_P384, NID_secp384r1, NULL, NULL, NULL, 48 },
};

static void setup(void)
{
	size_t i;

	if (ctx)
		return;
	ctx = BN_CTX_new();
	for (i = 0; i < 2; i++) {
		curves[i].g = EC_GROUP_new_by_curve_name(curves[i].nid);
		curves[i].p = BN_new();
		curves[i].n = BN_dup(EC_GROUP_get0_order(curves[i].g));
		EC_GROUP_get_curve(curves[i].g, curves[i].p, NULL, NULL, ctx);
	}
}

static void differs(const char *what)
{
	fprintf(stderr, "fuzz_ecdsa: vfit and the OpenSSL reference differ: %s\n", what);
	abort();
}

/* Reads up to n bytes: *len of them are there. */
static const uint8_t *take(const uint8_t **p, size_t *left, size_t n, size_t *len)
{
	const uint8_t *r = *p;

	*len = n < *left ? n : *left;
	*p += *len;
	*left -= *len;
	return r;
}

/* The reference's key check: coordinates below p, point on the curve. */
static EC_POINT *ref_key(const struct cur *c, const uint8_t *x, const uint8_t *y)
{
	BIGNUM *bx = BN_bin2bn(x, (int)c->nb, NULL), *by = BN_bin2bn(y, (int)c->nb, NULL);
	EC_POINT *q = EC_POINT_new(c->g);

	if (BN_cmp(bx, c->p) >= 0 || BN_cmp(by, c->p) >= 0 ||
	    !EC_POINT_set_affine_coordinates(c->g, q, bx, by, ctx) ||
	    EC_POINT_is_on_curve(c->g, q, ctx) != 1) {
		EC_POINT_free(q);
		q = NULL;
	}
	BN_free(bx);
	BN_free(by);
	return q;
}

/* e: the digest's leftmost bits, as many as n has (8 * nb for both curves). */
static BIGNUM *ref_e(const struct cur *c, const uint8_t *d, size_t dlen)
{
	return BN_bin2bn(d, (int)(dlen < c->nb ? dlen : c->nb), NULL);
}

/* The reference verification (SEC 1 §4.1.4) of r || s. */
static enum vfit_result ref_verify(const struct cur *c, const EC_POINT *q, const uint8_t *d,
				   size_t dlen, const uint8_t *sig, size_t slen)
{
	BIGNUM *r, *s, *e, *w, *u1, *u2, *x;
	EC_POINT *pt;
	enum vfit_result res = VFIT_ERR_SIGNATURE;

	if (slen != 2 * c->nb)
		return VFIT_ERR_SIG_LENGTH;
	r = BN_bin2bn(sig, (int)c->nb, NULL);
	s = BN_bin2bn(sig + c->nb, (int)c->nb, NULL);
	if (BN_is_zero(r) || BN_is_zero(s) || BN_cmp(r, c->n) >= 0 || BN_cmp(s, c->n) >= 0) {
		BN_free(r);
		BN_free(s);
		return VFIT_ERR_SIG_RANGE;
	}
	e = ref_e(c, d, dlen);
	w = BN_mod_inverse(NULL, s, c->n, ctx);
	u1 = BN_new();
	u2 = BN_new();
	x = BN_new();
	pt = EC_POINT_new(c->g);
	BN_mod_mul(u1, e, w, c->n, ctx);
	BN_mod_mul(u2, r, w, c->n, ctx);
	if (EC_POINT_mul(c->g, pt, u1, q, u2, ctx) && !EC_POINT_is_at_infinity(c->g, pt) &&
	    EC_POINT_get_affine_coordinates(c->g, pt, x, NULL, ctx) && BN_nnmod(x, x, c->n, ctx) &&
	    !BN_cmp(x, r))
		res = VFIT_OK;
	EC_POINT_free(pt);
	BN_free(r);
	BN_free(s);
	BN_free(e);
	BN_free(w);
	BN_free(u1);
	BN_free(u2);
	BN_free(x);
	return res;
}

static void raw(const struct cur *c, const uint8_t *p, size_t left)
{
	size_t xl, yl, dl, sl, dlen;
	const uint8_t *x = take(&p, &left, c->nb, &xl), *y = take(&p, &left, c->nb, &yl);
	const uint8_t *dl_byte = take(&p, &left, 1, &dl), *d, *sig;
	struct vfit_ecdsa_key key;
	enum vfit_result got, want;
	EC_POINT *q;

	dlen = dl ? dl_byte[0] % 80 : 0;
	d = take(&p, &left, dlen, &dlen);
	sig = take(&p, &left, left, &sl);
	got = vfit_ecdsa_key_load(c->id, x, xl, y, yl, &key);
	if (xl != c->nb || yl != c->nb) {
		if (got != VFIT_ERR_KEY)
			differs("key of the wrong length");
		return;
	}
	q = ref_key(c, x, y);
	if ((got == VFIT_OK) != (q != NULL) || (got != VFIT_OK && got != VFIT_ERR_KEY))
		differs("key check");
	if (q) {
		want = ref_verify(c, q, d, dlen, sig, sl);
		if (vfit_ecdsa_verify(&key, d, dlen, sig, sl) != want)
			differs("verification of raw input");
		EC_POINT_free(q);
	}
}

/* BIGNUM from up to nb input bytes, reduced into [1, n-1]. */
static BIGNUM *scalar(const struct cur *c, const uint8_t *p, size_t len)
{
	BIGNUM *b = BN_bin2bn(p, (int)len, NULL);

	BN_nnmod(b, b, c->n, ctx);
	if (BN_is_zero(b))
		BN_one(b);
	return b;
}

static void signed_input(const struct cur *c, const uint8_t *p, size_t left)
{
	size_t dl, kl, ll, dlen, fl, i;
	const uint8_t *db = take(&p, &left, c->nb, &dl), *kb = take(&p, &left, c->nb, &kl);
	const uint8_t *lb = take(&p, &left, 1, &ll), *digest, *flip;
	BIGNUM *d = scalar(c, db, dl), *k = scalar(c, kb, kl), *r = BN_new(), *s = BN_new();
	BIGNUM *e, *x = BN_new(), *y = BN_new();
	EC_POINT *q = EC_POINT_new(c->g), *rp = EC_POINT_new(c->g);
	uint8_t xy[2 * VFIT_ECDSA_MAX_BYTES], sig[2 * VFIT_ECDSA_MAX_BYTES], dg[80];
	struct vfit_ecdsa_key key;
	enum vfit_result got, want;

	dlen = ll ? lb[0] % 80 : 0;
	digest = take(&p, &left, dlen, &dlen);
	memset(dg, 0, sizeof(dg));
	if (dlen)
		memcpy(dg, digest, dlen);
	flip = take(&p, &left, 2, &fl);
	e = ref_e(c, dg, dlen);
	/* Q = dG, R = kG, r = x(R) mod n, s = (e + r*d) / k mod n */
	EC_POINT_mul(c->g, q, d, NULL, NULL, ctx);
	EC_POINT_mul(c->g, rp, k, NULL, NULL, ctx);
	EC_POINT_get_affine_coordinates(c->g, rp, r, NULL, ctx);
	BN_nnmod(r, r, c->n, ctx);
	BN_mod_mul(s, r, d, c->n, ctx);
	BN_mod_add(s, s, e, c->n, ctx);
	BN_mod_inverse(k, k, c->n, ctx);
	BN_mod_mul(s, s, k, c->n, ctx);
	EC_POINT_get_affine_coordinates(c->g, q, x, y, ctx);
	BN_bn2binpad(x, xy, (int)c->nb);
	BN_bn2binpad(y, xy + c->nb, (int)c->nb);
	BN_bn2binpad(r, sig, (int)c->nb);
	BN_bn2binpad(s, sig + c->nb, (int)c->nb);
	if (vfit_ecdsa_key_load(c->id, xy, c->nb, xy + c->nb, c->nb, &key) != VFIT_OK)
		differs("key d*G refused");
	if (fl == 2) {
		/* bit i of sig || digest */
		i = ((size_t)flip[0] << 8 | flip[1]) % (8 * (2 * c->nb + dlen));
		if (i < 16 * c->nb)
			sig[i / 8] ^= (uint8_t)(1 << i % 8);
		else
			dg[i / 8 - 2 * c->nb] ^= (uint8_t)(1 << i % 8);
	}
	want = ref_verify(c, q, dg, dlen, sig, 2 * c->nb);
	got = vfit_ecdsa_verify(&key, dg, dlen, sig, 2 * c->nb);
	if (got != want || (fl != 2 && !BN_is_zero(r) && !BN_is_zero(s) && got != VFIT_OK))
		differs("verification of a constructed signature");
	EC_POINT_free(q);
	EC_POINT_free(rp);
	BN_free(d);
	BN_free(k);
	BN_free(r);
	BN_free(s);
	BN_free(e);
	BN_free(x);
	BN_free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct cur *c;

	if (size < 1)
		return 0;
	setup();
	c = &curves[data[0] & 1];
	if (data[0] & 2)
		signed_input(c, data + 1, size - 1);
	else
		raw(c, data + 1, size - 1);
	return 0;
}
