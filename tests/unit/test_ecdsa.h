/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Body of test_ecdsa.c (the library as built) and test_ecdsa_limb32.c
 * (lib/ecdsa compiled again with 32-bit limbs), checked against OpenSSL:
 *   - the curve constants and the base-point table;
 *   - field arithmetic mod p and mod n on edge values (0, 1, m-1, m, 2^k
 *     boundaries, R-1 where the input may exceed m) and random ones, and
 *     with the result aliasing an input;
 *   - u1*G + u2*Q against EC_POINT_mul() for edge scalars and points that
 *     steer the interleaved sum onto doubling and infinity;
 *   - key loading: OpenSSL's verdict on edge coordinates, points of other
 *     curves (invalid-curve points), lengths;
 *   - every Wycheproof ECDSA P-256/P-384 (P1363) case, with the exact result
 *     code expected and each edge class counted;
 *   - random keys signed by OpenSSL with digests of every length, and
 *     single-bit changes to signature and digest (OpenSSL's verdict too).
 * Random values come from a seed printed at the start (VFIT_TEST_SEED to
 * repeat a run); VFIT_TEST_QUICK runs fewer random rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "../../lib/ecdsa/ec_int.h"
#include "check.h"
#include "json.h"
#include "vfit-host/host.h"
#include "vfit/ecdsa.h"

struct tcurve {
	enum vfit_ec_curve id;
	const char *name;               /* ecdsa,curve */
	const char *ossl;               /* EVP_PKEY_Q_keygen group */
	int nid;
	const struct ec_curve *c;
	const char *wycheproof;
	const char *sha;                /* the Wycheproof file's hash */
	/* a point (x, y) with y so small that y + p is still a coordinate-sized number */
	const char *small_y_x;
	unsigned int small_y;
};

/* The curves built in (VFIT_HAVE_ECDSA_*), then an end mark. */
static const struct tcurve tcurves[] = {
#if VFIT_HAVE_ECDSA_P256
	{ VFIT_EC_P256, "prime256v1", "P-256", NID_X9_62_prime256v1, &vfit_ec_p256_,
	  "ecdsa_secp256r1_sha256_p1363_test.json", "SHA-256",
	  "d7325d7646cd60d80a92738ceb345f844cffaf35841022cab176f692de8de1d7", 5 },
#endif
#if VFIT_HAVE_ECDSA_P384
	{ VFIT_EC_P384, "secp384r1", "P-384", NID_secp384r1, &vfit_ec_p384_,
	  "ecdsa_secp384r1_sha384_p1363_test.json", "SHA-384",
	  "2261b2bf605c22f2f3aef6338719b2c486388ad5240719a5257315969ef01ba27f0a104c89704773a81fd"
	  "abee6ab5c78", 1 },
#endif
	{ VFIT_EC_NONE, NULL, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

/* A small deterministic generator, so a failure can be repeated from its seed. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static void rng_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rng();
}

/* A number in [0, n) from the seeded generator (not OpenSSL's: replayable). */
static void rng_below(BIGNUM *x, const BIGNUM *n, BN_CTX *ctx)
{
	uint8_t buf[80];
	int len = BN_num_bytes(n) + 8;

	rng_bytes(buf, (size_t)len);
	BN_bin2bn(buf, len, x);
	BN_nnmod(x, x, n, ctx);
}

static void rng_seed(void)
{
	const char *s = getenv("VFIT_TEST_SEED");

	rng_state = s && *s ? strtoull(s, NULL, 0) : 0x5eed0f0ecd5aULL;
	if (!rng_state)
		rng_state = 1;
	printf("seed %#llx (VFIT_TEST_SEED to repeat)\n", (unsigned long long)rng_state);
}

static int quick(void)
{
	const char *q = getenv("VFIT_TEST_QUICK");

	return q && *q && strcmp(q, "0");
}

/* ---- conversions between limbs and BIGNUMs ---- */

static void bn_of(BIGNUM *b, const limb_t *x, size_t nl)
{
	uint8_t buf[EC_LIMBS * LIMB_BYTES];
	size_t i, j;

	for (i = 0; i < nl; i++)
		for (j = 0; j < LIMB_BYTES; j++)
			buf[(nl - i) * LIMB_BYTES - 1 - j] = (uint8_t)(x[i] >> (8 * j));
	BN_bin2bn(buf, (int)(nl * LIMB_BYTES), b);
}

/* b must be below 2^(nl * LIMB_BITS). */
static void limbs_of(limb_t *x, const BIGNUM *b, size_t nl)
{
	uint8_t buf[EC_LIMBS * LIMB_BYTES];

	BN_bn2binpad(b, buf, (int)(nl * LIMB_BYTES));
	vfit_ec_load_(x, buf, nl);
}

/* Everything a test needs about one curve, from OpenSSL. */
struct ref {
	const struct tcurve *t;
	const struct ec_curve *c;
	EC_GROUP *g;
	BIGNUM *p, *a, *b, *n, *r, *rinv_p, *rinv_n;
	BN_CTX *ctx;
	size_t nl;
};

static void ref_init(struct ref *f, const struct tcurve *t)
{
	f->t = t;
	f->c = t->c;
	f->nl = t->c->p.nl;
	f->ctx = BN_CTX_new();
	f->g = EC_GROUP_new_by_curve_name(t->nid);
	f->p = BN_new();
	f->a = BN_new();
	f->b = BN_new();
	f->n = BN_dup(EC_GROUP_get0_order(f->g));
	f->r = BN_new();
	f->rinv_p = BN_new();
	f->rinv_n = BN_new();
	EC_GROUP_get_curve(f->g, f->p, f->a, f->b, f->ctx);
	BN_set_bit(f->r, (int)(f->nl * LIMB_BITS));
	BN_mod_inverse(f->rinv_p, f->r, f->p, f->ctx);
	BN_mod_inverse(f->rinv_n, f->r, f->n, f->ctx);
}

static void ref_free(struct ref *f)
{
	EC_GROUP_free(f->g);
	BN_free(f->p);
	BN_free(f->a);
	BN_free(f->b);
	BN_free(f->n);
	BN_free(f->r);
	BN_free(f->rinv_p);
	BN_free(f->rinv_n);
	BN_CTX_free(f->ctx);
}

/* ---- constants ---- */

/* x (nl limbs) must equal want; prints both when not. */
static void same(const char *what, const limb_t *x, const BIGNUM *want, size_t nl)
{
	BIGNUM *b = BN_new();
	char *h = NULL, *w = NULL;

	bn_of(b, x, nl);
	if (BN_cmp(b, want)) {
		h = BN_bn2hex(b);
		w = BN_bn2hex(want);
	}
	CHECK(!h, "%s is %s, should be %s", what, h ? h : "", w ? w : "");
	OPENSSL_free(h);
	OPENSSL_free(w);
	BN_free(b);
}

static void constants(const struct ref *f)
{
	const struct ec_curve *c = f->c;
	BIGNUM *t = BN_new(), *w = BN_new(), *x = BN_new(), *y = BN_new();
	EC_POINT *pt = EC_POINT_new(f->g);
	char what[64];
	size_t i, nl = f->nl;

	CHECK(nl * LIMB_BITS == (size_t)BN_num_bits(f->p) && c->n.nl == nl &&
	      c->bytes == nl * LIMB_BYTES && BN_num_bits(f->n) == BN_num_bits(f->p),
	      "%s: sizes", f->t->name);
	/* a = -3 is built into the doubling formula */
	BN_sub(t, f->p, f->a);
	CHECK(BN_is_word(t, 3), "%s: a != -3", f->t->name);
	same("p", c->p.m, f->p, nl);
	same("n", c->n.m, f->n, nl);
	BN_mod_mul(t, f->r, f->r, f->p, f->ctx);
	same("R^2 mod p", c->p.rr, t, nl);
	BN_mod_mul(t, f->r, f->r, f->n, f->ctx);
	same("R^2 mod n", c->n.rr, t, nl);
	BN_mod_mul(t, f->b, f->r, f->p, f->ctx);
	same("b*R mod p", c->b, t, nl);
	/* m0 * m == -1 mod 2^LIMB_BITS */
	CHECK((limb_t)(c->p.m0 * c->p.m[0]) == (limb_t)-1, "%s: p.m0", f->t->name);
	CHECK((limb_t)(c->n.m0 * c->n.m[0]) == (limb_t)-1, "%s: n.m0", f->t->name);
	/* odd multiples of G, affine, Montgomery form */
	for (i = 0; i < EC_G_TABLE; i++) {
		BN_set_word(w, 2 * i + 1);
		EC_POINT_mul(f->g, pt, w, NULL, NULL, f->ctx);
		EC_POINT_get_affine_coordinates(f->g, pt, x, y, f->ctx);
		BN_mod_mul(t, x, f->r, f->p, f->ctx);
		snprintf(what, sizeof(what), "%s %zuG x", f->t->name, 2 * i + 1);
		same(what, c->g + 2 * i * nl, t, nl);
		BN_mod_mul(t, y, f->r, f->p, f->ctx);
		snprintf(what, sizeof(what), "%s %zuG y", f->t->name, 2 * i + 1);
		same(what, c->g + (2 * i + 1) * nl, t, nl);
	}
	EC_POINT_free(pt);
	BN_free(t);
	BN_free(w);
	BN_free(x);
	BN_free(y);
}

/* ---- field arithmetic ---- */

/* Edge values below 2^bits (some >= m, for the operand that may exceed it), then random ones. */
static size_t edge_values(BIGNUM **v, size_t cap, const BIGNUM *m, size_t bits)
{
	static const int ks[] = { 1, 31, 32, 33, 63, 64, 65, 95, 96, 127, 128, 129, 191, 192, 224,
				  255, 256, 257, 287, 320, 383 };
	BIGNUM *r = BN_new();
	size_t n = 0, i;

#define ADD(expr)                                  \
	do {                                       \
		if (n < cap) {                     \
			v[n] = BN_new();           \
			expr;                      \
			n++;                       \
		}                                  \
	} while (0)
	ADD(BN_zero(v[n]));
	ADD(BN_one(v[n]));
	ADD(BN_set_word(v[n], 2));
	ADD(BN_set_word(v[n], 3));
	ADD((BN_copy(v[n], m), BN_sub_word(v[n], 1)));
	ADD((BN_copy(v[n], m), BN_sub_word(v[n], 2)));
	ADD(BN_rshift1(v[n], m));
	ADD((BN_rshift1(v[n], m), BN_add_word(v[n], 1)));
	ADD(BN_copy(v[n], m));
	ADD((BN_copy(v[n], m), BN_add_word(v[n], 1)));
	BN_zero(r);
	BN_set_bit(r, (int)bits);
	ADD((BN_copy(v[n], r), BN_sub_word(v[n], 1)));          /* R - 1 */
	ADD(BN_sub(v[n], r, m));                                /* R mod m: Montgomery 1 */
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		if ((size_t)ks[i] >= bits)
			continue;
		ADD((BN_zero(v[n]), BN_set_bit(v[n], ks[i])));
		ADD((BN_zero(v[n]), BN_set_bit(v[n], ks[i]), BN_sub_word(v[n], 1)));
		ADD((BN_zero(v[n]), BN_set_bit(v[n], ks[i]), BN_add_word(v[n], 1)));
	}
	while (n < cap) {
		uint8_t buf[EC_LIMBS * LIMB_BYTES];

		rng_bytes(buf, bits / 8);
		/* some with long runs of ones or zeros */
		if (n % 3 == 0)
			memset(buf + rng() % (bits / 16), rng() & 1 ? 0xff : 0, bits / 32);
		ADD(BN_bin2bn(buf, (int)(bits / 8), v[n]));
	}
#undef ADD
	BN_free(r);
	return n;
}

/* Every operation on every pair of values below m (mont also with a >= m) against BIGNUM. */
static void field_one(const struct ref *f, const struct ec_mod *m, const BIGNUM *bm,
		      const BIGNUM *rinv, const char *name)
{
	BIGNUM *v[64], *want = BN_new(), *t = BN_new();
	limb_t a[EC_LIMBS], b[EC_LIMBS], r[EC_LIMBS], r2[EC_LIMBS];
	size_t nv, i, j, nl = m->nl, ops = 0;
	int bad_mul = 0, bad_sqr = 0, bad_add = 0, bad_sub = 0, bad_alias = 0;

	nv = edge_values(v, quick() ? 40 : 64, bm, nl * LIMB_BITS);
	for (i = 0; i < nv; i++) {
		int a_reduced = BN_cmp(v[i], bm) < 0;

		limbs_of(a, v[i], nl);
		if (a_reduced) {
			vfit_ec_sqr_(r, a, m);
			BN_mod_mul(want, v[i], v[i], bm, f->ctx);
			BN_mod_mul(want, want, rinv, bm, f->ctx);
			bn_of(t, r, nl);
			bad_sqr += BN_cmp(t, want) != 0;
			memcpy(r2, a, sizeof(a));
			vfit_ec_sqr_(r2, r2, m);
			bad_alias += memcmp(r, r2, nl * sizeof(limb_t)) != 0;
			ops++;
		}
		for (j = 0; j < nv; j++) {
			if (BN_cmp(v[j], bm) >= 0)
				continue;
			limbs_of(b, v[j], nl);
			/* mont: a < R, b < m */
			vfit_ec_mont_(r, a, b, m);
			BN_mul(want, v[i], v[j], f->ctx);
			BN_mod_mul(want, want, rinv, bm, f->ctx);
			bn_of(t, r, nl);
			bad_mul += BN_cmp(t, want) != 0;
			memcpy(r2, a, sizeof(a));
			vfit_ec_mont_(r2, r2, b, m);
			bad_alias += memcmp(r, r2, nl * sizeof(limb_t)) != 0;
			memcpy(r2, b, sizeof(b));
			vfit_ec_mont_(r2, a, r2, m);
			bad_alias += memcmp(r, r2, nl * sizeof(limb_t)) != 0;
			ops++;
			if (!a_reduced)
				continue;
			vfit_ec_add_(r, a, b, m);
			BN_mod_add(want, v[i], v[j], bm, f->ctx);
			bn_of(t, r, nl);
			bad_add += BN_cmp(t, want) != 0;
			vfit_ec_sub_(r, a, b, m);
			BN_mod_sub(want, v[i], v[j], bm, f->ctx);
			bn_of(t, r, nl);
			bad_sub += BN_cmp(t, want) != 0;
			memcpy(r2, a, sizeof(a));
			vfit_ec_sub_(r2, r2, b, m);
			bad_alias += memcmp(r, r2, nl * sizeof(limb_t)) != 0;
			memcpy(r2, b, sizeof(b));
			vfit_ec_add_(r2, a, r2, m);
			vfit_ec_add_(r, a, b, m);
			bad_alias += memcmp(r, r2, nl * sizeof(limb_t)) != 0;
		}
	}
	CHECK(!bad_mul, "%s %s: %d Montgomery products wrong", f->t->name, name, bad_mul);
	CHECK(!bad_sqr, "%s %s: %d squares wrong", f->t->name, name, bad_sqr);
	CHECK(!bad_add, "%s %s: %d sums wrong", f->t->name, name, bad_add);
	CHECK(!bad_sub, "%s %s: %d differences wrong", f->t->name, name, bad_sub);
	CHECK(!bad_alias, "%s %s: %d results change when the output is an input", f->t->name,
	      name, bad_alias);
	printf("%s mod %s: %zu values, %zu products/squares, sums and differences of each pair\n",
	       f->t->name, name, nv, ops);
	for (i = 0; i < nv; i++)
		BN_free(v[i]);
	BN_free(want);
	BN_free(t);
}

/* ---- points ---- */

/* pt (Jacobian, Montgomery form) as an OpenSSL point; 0 if it is not on the curve. */
static int to_ossl(const struct ref *f, const struct ec_jac *pt, EC_POINT *out)
{
	BIGNUM *x = BN_new(), *y = BN_new(), *z = BN_new(), *t = BN_new();
	int on = 1;

	bn_of(z, pt->z, f->nl);
	if (BN_is_zero(z)) {
		EC_POINT_set_to_infinity(f->g, out);
	} else {
		bn_of(x, pt->x, f->nl);
		bn_of(y, pt->y, f->nl);
		/* out of Montgomery form, then x = X/Z^2, y = Y/Z^3 */
		BN_mod_mul(x, x, f->rinv_p, f->p, f->ctx);
		BN_mod_mul(y, y, f->rinv_p, f->p, f->ctx);
		BN_mod_mul(z, z, f->rinv_p, f->p, f->ctx);
		BN_mod_inverse(z, z, f->p, f->ctx);
		BN_mod_sqr(t, z, f->p, f->ctx);
		BN_mod_mul(x, x, t, f->p, f->ctx);
		BN_mod_mul(t, t, z, f->p, f->ctx);
		BN_mod_mul(y, y, t, f->p, f->ctx);
		on = EC_POINT_set_affine_coordinates(f->g, out, x, y, f->ctx) == 1;
		ERR_clear_error();
	}
	BN_free(x);
	BN_free(y);
	BN_free(z);
	BN_free(t);
	return on;
}

/* vfit_ec_mul2_(u1, u2, q) == u1*G + u2*q; q affine (not infinity). */
static int mul2_ok(const struct ref *f, const BIGNUM *u1, const BIGNUM *u2, const EC_POINT *q)
{
	BIGNUM *x = BN_new(), *y = BN_new();
	limb_t l1[EC_LIMBS], l2[EC_LIMBS], qx[EC_LIMBS], qy[EC_LIMBS];
	EC_POINT *want = EC_POINT_new(f->g), *got = EC_POINT_new(f->g);
	struct ec_jac r;
	int ok;

	EC_POINT_get_affine_coordinates(f->g, q, x, y, f->ctx);
	BN_mod_mul(x, x, f->r, f->p, f->ctx);
	BN_mod_mul(y, y, f->r, f->p, f->ctx);
	limbs_of(qx, x, f->nl);
	limbs_of(qy, y, f->nl);
	limbs_of(l1, u1, f->nl);
	limbs_of(l2, u2, f->nl);
	vfit_ec_mul2_(f->c, &r, l1, l2, qx, qy);
	EC_POINT_mul(f->g, want, u1, q, u2, f->ctx);
	ok = to_ossl(f, &r, got) && EC_POINT_cmp(f->g, got, want, f->ctx) == 0;
	EC_POINT_free(want);
	EC_POINT_free(got);
	BN_free(x);
	BN_free(y);
	return ok;
}

static void points(const struct ref *f)
{
	BIGNUM *u1 = BN_new(), *u2 = BN_new(), *d = BN_new();
	EC_POINT *q = EC_POINT_new(f->g);
	int rounds = quick() ? 8 : 40, i, bad = 0, runs = 0, bad_special = 0, special = 0;
	static const long small[] = { 0, 1, 2, 3, 15, 16, 17, 31, 32, 33 };
	size_t a, b;

	/* random key, random and edge scalars (0, 1, small, n-1, n-2, 2^k) */
	for (i = 0; i < rounds; i++) {
		rng_below(d, f->n, f->ctx);
		EC_POINT_mul(f->g, q, d, NULL, NULL, f->ctx);
		if (EC_POINT_is_at_infinity(f->g, q))
			continue;
		rng_below(u1, f->n, f->ctx);
		rng_below(u2, f->n, f->ctx);
		bad += !mul2_ok(f, u1, u2, q);
		runs++;
		for (a = 0; a < sizeof(small) / sizeof(small[0]); a++) {
			BN_set_word(u1, (BN_ULONG)small[a]);
			BN_sub(u2, f->n, u1);
			if (BN_is_zero(u1))
				BN_sub_word(u2, 1);
			bad += !mul2_ok(f, u1, u2, q);
			bad += !mul2_ok(f, u2, u1, q);
			runs += 2;
		}
	}
	/*
	 * q = G, -G, 2G, 3G and u1, u2 related so that the two digit strings
	 * add the same or opposite points: the sum passes through doublings
	 * inside the addition (H = 0, R = 0) and through infinity (R != 0),
	 * and the result can be infinity itself.
	 */
	for (a = 0; a < 4; a++) {
		static const long mult[] = { 1, -1, 2, 3 };

		BN_set_word(d, (BN_ULONG)labs(mult[a]));
		if (mult[a] < 0)
			BN_sub(d, f->n, d);
		EC_POINT_mul(f->g, q, d, NULL, NULL, f->ctx);
		for (i = 0; i < rounds; i++) {
			rng_below(u1, f->n, f->ctx);
			for (b = 0; b < 4; b++) {
				switch (b) {
				case 0: /* u2 = u1: equal digits */
					BN_copy(u2, u1);
					break;
				case 1: /* u2 = -u1/d: u1 + u2*d == 0, the result is infinity */
					BN_mod_inverse(u2, d, f->n, f->ctx);
					BN_mod_mul(u2, u2, u1, f->n, f->ctx);
					BN_mod_sub(u2, f->n, u2, f->n, f->ctx);
					break;
				case 2: /* u2 = n - u1 */
					BN_sub(u2, f->n, u1);
					break;
				default: /* small u2 */
					BN_set_word(u2, (BN_ULONG)(1 + rng() % 40));
					break;
				}
				bad_special += !mul2_ok(f, u1, u2, q);
				special++;
			}
		}
	}
	CHECK(!bad, "%s: u1*G + u2*Q differs from OpenSSL in %d of %d cases", f->t->name, bad, runs);
	CHECK(!bad_special, "%s: u1*G + u2*Q with Q = G, -G, 2G, 3G differs in %d of %d cases",
	      f->t->name, bad_special, special);
	printf("%s: u1*G + u2*Q: %d random/edge and %d same/opposite-point cases\n", f->t->name,
	       runs, special);
	EC_POINT_free(q);
	BN_free(u1);
	BN_free(u2);
	BN_free(d);
}

/* ---- key loading ---- */

/* What vfit_ecdsa_key_load() must say for (x, y): OpenSSL's on-curve verdict. */
static enum vfit_result key_expect(const struct ref *f, const BIGNUM *x, const BIGNUM *y)
{
	EC_POINT *pt = EC_POINT_new(f->g);
	enum vfit_result r = VFIT_ERR_KEY;

	if (BN_cmp(x, f->p) < 0 && BN_cmp(y, f->p) < 0 &&
	    EC_POINT_set_affine_coordinates(f->g, pt, x, y, f->ctx) &&
	    EC_POINT_is_on_curve(f->g, pt, f->ctx) == 1)
		r = VFIT_OK;
	EC_POINT_free(pt);
	return r;
}

static enum vfit_result key_try(const struct ref *f, const BIGNUM *x, const BIGNUM *y,
				struct vfit_ecdsa_key *k)
{
	uint8_t bx[VFIT_ECDSA_MAX_BYTES], by[VFIT_ECDSA_MAX_BYTES];
	size_t nb = f->c->bytes;

	if (BN_num_bytes(x) > (int)nb || BN_num_bytes(y) > (int)nb)
		return VFIT_ERR_PARAM;
	BN_bn2binpad(x, bx, (int)nb);
	BN_bn2binpad(y, by, (int)nb);
	return vfit_ecdsa_key_load(f->t->id, bx, nb, by, nb, k);
}

static void keys(const struct ref *f)
{
	BIGNUM *v[40], *x = BN_new(), *y = BN_new(), *rhs = BN_new(), *b2 = BN_new();
	struct vfit_ecdsa_key k;
	uint8_t buf[2 * VFIT_ECDSA_MAX_BYTES + 1];
	size_t nv, i, j, nb = f->c->bytes;
	int bad = 0, tried = 0, on = 0, invalid = 0, inv_ok = 0, above = 0;
	EC_POINT *pt = EC_POINT_new(f->g);

	/* edge coordinates: every pair, plus y from x where y^2 is a square */
	nv = edge_values(v, 40, f->p, f->nl * LIMB_BITS);
	for (i = 0; i < nv; i++) {
		for (j = 0; j < nv; j++) {
			bad += key_try(f, v[i], v[j], &k) != key_expect(f, v[i], v[j]);
			tried++;
		}
		if (BN_cmp(v[i], f->p) >= 0)
			continue;
		/* y^2 = x^3 - 3x + b */
		BN_mod_sqr(rhs, v[i], f->p, f->ctx);
		BN_mod_mul(rhs, rhs, v[i], f->p, f->ctx);
		BN_mod_sub(rhs, rhs, v[i], f->p, f->ctx);
		BN_mod_sub(rhs, rhs, v[i], f->p, f->ctx);
		BN_mod_sub(rhs, rhs, v[i], f->p, f->ctx);
		BN_mod_add(rhs, rhs, f->b, f->p, f->ctx);
		if (BN_mod_sqrt(y, rhs, f->p, f->ctx)) {
			enum vfit_result r1 = key_try(f, v[i], y, &k), r2;

			BN_sub(x, f->p, y);
			r2 = key_try(f, v[i], x, &k);
			bad += r1 != VFIT_OK || (!BN_is_zero(y) && r2 != VFIT_OK);
			on += 2;
			/* x + p: the same point mod p, but x is no field element */
			BN_add(x, v[i], f->p);
			if (BN_num_bytes(x) <= (int)nb) {
				bad += key_try(f, x, y, &k) != VFIT_ERR_KEY;
				above++;
			}
		}
		ERR_clear_error();
	}
	/* the same for y, with a point whose y is small (found offline, checked here) */
	BN_hex2bn(&x, f->t->small_y_x);
	BN_set_word(y, f->t->small_y);
	bad += key_try(f, x, y, &k) != VFIT_OK || key_expect(f, x, y) != VFIT_OK;
	BN_add(y, y, f->p);
	bad += key_try(f, x, y, &k) != VFIT_ERR_KEY;
	above++;
	CHECK(!bad, "%s: key load differs from OpenSSL's on-curve check in %d cases", f->t->name,
	      bad);

	/*
	 * Invalid-curve points: on y^2 = x^3 - 3x + b' for b' != b (the curves
	 * an invalid-curve attack uses; with a small subgroup there a verifier
	 * that skips the check leaks or accepts forgeries).
	 */
	for (i = 0; i < (quick() ? 16u : 64u); i++) {
		uint8_t r[VFIT_ECDSA_MAX_BYTES];

		rng_bytes(r, nb);
		BN_bin2bn(r, (int)nb, x);
		BN_mod(x, x, f->p, f->ctx);
		BN_set_word(b2, (BN_ULONG)(1 + i));
		BN_mod_sqr(rhs, x, f->p, f->ctx);
		BN_mod_mul(rhs, rhs, x, f->p, f->ctx);
		BN_mod_sub(rhs, rhs, x, f->p, f->ctx);
		BN_mod_sub(rhs, rhs, x, f->p, f->ctx);
		BN_mod_sub(rhs, rhs, x, f->p, f->ctx);
		BN_mod_add(rhs, rhs, b2, f->p, f->ctx);
		if (!BN_mod_sqrt(y, rhs, f->p, f->ctx)) {
			ERR_clear_error();
			continue;
		}
		invalid++;
		inv_ok += key_try(f, x, y, &k) == VFIT_ERR_KEY && k.curve == VFIT_EC_NONE;
	}
	CHECK(invalid > 0 && inv_ok == invalid, "%s: %d of %d invalid-curve points rejected",
	      f->t->name, inv_ok, invalid);

	/* lengths, curves, NULLs; a failed load leaves no usable key */
	EC_POINT_get_affine_coordinates(f->g, EC_GROUP_get0_generator(f->g), x, y, f->ctx);
	BN_bn2binpad(x, buf, (int)nb);
	BN_bn2binpad(y, buf + nb, (int)nb);
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, nb, buf + nb, nb, &k) == VFIT_OK &&
	      k.curve == f->t->id, "%s: G as key", f->t->name);
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, nb - 1, buf + nb, nb, &k) == VFIT_ERR_KEY &&
	      k.curve == VFIT_EC_NONE, "%s: short x", f->t->name);
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, nb, buf + nb, nb + 1, &k) == VFIT_ERR_KEY,
	      "%s: long y", f->t->name);
	/* y's length alone short: the buffer still holds G's whole y */
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, nb, buf + nb, nb - 1, &k) == VFIT_ERR_KEY &&
	      k.curve == VFIT_EC_NONE, "%s: short y", f->t->name);
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, 0, buf + nb, 0, &k) == VFIT_ERR_KEY,
	      "%s: empty", f->t->name);
	CHECK(vfit_ecdsa_key_load(VFIT_EC_NONE, buf, nb, buf + nb, nb, &k) == VFIT_ERR_UNSUPPORTED,
	      "%s: curve NONE", f->t->name);
	CHECK(vfit_ecdsa_key_load((enum vfit_ec_curve)99, buf, nb, buf + nb, nb, &k) ==
	      VFIT_ERR_UNSUPPORTED, "%s: curve 99", f->t->name);
	CHECK(vfit_ecdsa_key_load(f->t->id, NULL, nb, buf + nb, nb, &k) == VFIT_ERR_PARAM &&
	      vfit_ecdsa_key_load(f->t->id, buf, nb, NULL, nb, &k) == VFIT_ERR_PARAM &&
	      vfit_ecdsa_key_load(f->t->id, buf, nb, buf + nb, nb, NULL) == VFIT_ERR_PARAM,
	      "%s: NULL", f->t->name);
	memset(buf, 0, sizeof(buf));
	CHECK(vfit_ecdsa_key_load(f->t->id, buf, nb, buf + nb, nb, &k) == VFIT_ERR_KEY,
	      "%s: (0, 0) accepted", f->t->name);
	printf("%s keys: %d edge coordinate pairs as OpenSSL, %d on-curve points from x, "
	       "%d with a coordinate + p and %d invalid-curve points rejected\n", f->t->name, tried,
	       on, above, inv_ok);
	for (i = 0; i < nv; i++)
		BN_free(v[i]);
	EC_POINT_free(pt);
	BN_free(x);
	BN_free(y);
	BN_free(rhs);
	BN_free(b2);
}

/* ---- Wycheproof ---- */

enum klass {
	K_SIZE, K_ZERO, K_N, K_ABOVE_N, K_INFINITY, K_XMOD, K_ARITH, K_PUBKEY, K_HASH, K_OTHER,
	K_COUNT
};

static const char *const klass_name[K_COUNT] = {
	"signature size", "r or s = 0", "r or s = n", "r or s > n",
	"point at infinity / duplication", "x(R) mod n edge", "arithmetic edge case",
	"edge-case public key", "special-case hash", "other",
};

static int has_flag(const struct json *t, const char *flag)
{
	const struct json *fl = json_get(t, "flags");
	size_t i;

	for (i = 0; fl && i < fl->len; i++) {
		if (fl->items[i].type == JSON_STRING && !strcmp(fl->items[i].str, flag))
			return 1;
	}
	return 0;
}

/* Hex of up to cap bytes into a fresh buffer; -1 length if malformed. */
static uint8_t *unhex(const char *h, long *len)
{
	size_t n = strlen(h);
	uint8_t *b = malloc(n / 2 + 1);

	*len = b ? check_unhex(h, n, b, n / 2 + 1) : -1;
	return b;
}

/* A group's public key: the hex coordinates to exactly nb bytes. */
static int wp_key(const struct json *pk, size_t nb, struct vfit_ecdsa_key *k,
		  enum vfit_ec_curve id)
{
	uint8_t x[VFIT_ECDSA_MAX_BYTES], y[VFIT_ECDSA_MAX_BYTES];
	BIGNUM *bx = NULL, *by = NULL;
	int ok;

	ok = BN_hex2bn(&bx, json_get_str(pk, "wx")) && BN_hex2bn(&by, json_get_str(pk, "wy")) &&
	     BN_bn2binpad(bx, x, (int)nb) > 0 && BN_bn2binpad(by, y, (int)nb) > 0 &&
	     vfit_ecdsa_key_load(id, x, nb, y, nb, k) == VFIT_OK;
	BN_free(bx);
	BN_free(by);
	return ok;
}

static void wycheproof(const struct ref *f)
{
	char path[512];
	struct json *doc;
	const struct json *groups;
	size_t g, i, nb = f->c->bytes, total = 0;
	unsigned valid_ok = 0, valid = 0, invalid_ok = 0, invalid = 0;
	unsigned kv[K_COUNT] = { 0 }, kv_ok[K_COUNT] = { 0 }, ki[K_COUNT] = { 0 },
		 ki_ok[K_COUNT] = { 0 };
	char *text;
	BIGNUM *r = BN_new(), *s = BN_new();

	snprintf(path, sizeof(path), "%s/wycheproof/%s", check_vectors_dir(), f->t->wycheproof);
	text = check_read_file(path, NULL);
	doc = json_parse(text);
	free(text);
	if (!CHECK(doc != NULL, "%s: JSON", path))
		return;
	groups = json_get(doc, "testGroups");
	for (g = 0; groups && g < groups->len; g++) {
		const struct json *grp = &groups->items[g], *tests = json_get(grp, "tests");
		const struct json *pk = json_get(grp, "publicKey");
		struct vfit_ecdsa_key key;
		const EVP_MD *md = EVP_get_digestbyname(json_get_str(grp, "sha"));

		CHECK(!strcmp(json_get_str(grp, "sha"), f->t->sha) && md, "%s group %zu: hash %s",
		      f->t->wycheproof, g, json_get_str(grp, "sha"));
		if (!CHECK(wp_key(pk, nb, &key, f->t->id), "%s group %zu: key rejected",
			   f->t->wycheproof, g))
			continue;
		for (i = 0; tests && i < tests->len; i++) {
			const struct json *t = &tests->items[i];
			const char *result = json_get_str(t, "result"), *comment;
			long id = json_get_int(t, "tcId", -1), mlen, slen;
			uint8_t *msg = unhex(json_get_str(t, "msg"), &mlen);
			uint8_t *sig = unhex(json_get_str(t, "sig"), &slen);
			uint8_t digest[EVP_MAX_MD_SIZE];
			unsigned int dlen = 0;
			enum vfit_result want, got;
			enum klass k;
			int is_valid = !strcmp(result, "valid");

			comment = json_get_str(t, "comment");
			total++;
			if (!CHECK(msg && sig && mlen >= 0 && slen >= 0 &&
				   EVP_Digest(msg, (size_t)mlen, digest, &dlen, md, NULL),
				   "%s tcId %ld: bad test data", f->t->wycheproof, id)) {
				free(msg);
				free(sig);
				continue;
			}
			CHECK(is_valid || !strcmp(result, "invalid"), "%s tcId %ld: result %s",
			      f->t->wycheproof, id, result);
			/* the exact code: length, then range, then the signature itself */
			if ((size_t)slen != 2 * nb) {
				want = VFIT_ERR_SIG_LENGTH;
				k = K_SIZE;
			} else {
				BN_bin2bn(sig, (int)nb, r);
				BN_bin2bn(sig + nb, (int)nb, s);
				if (BN_is_zero(r) || BN_is_zero(s)) {
					want = VFIT_ERR_SIG_RANGE;
					k = K_ZERO;
				} else if (!BN_cmp(r, f->n) || !BN_cmp(s, f->n)) {
					want = VFIT_ERR_SIG_RANGE;
					k = K_N;
				} else if (BN_cmp(r, f->n) > 0 || BN_cmp(s, f->n) > 0) {
					want = VFIT_ERR_SIG_RANGE;
					k = K_ABOVE_N;
				} else {
					want = is_valid ? VFIT_OK : VFIT_ERR_SIGNATURE;
					if (strstr(comment, "infinity") ||
					    has_flag(t, "PointDuplication") ||
					    has_flag(t, "EdgeCaseShamirMultiplication"))
						k = K_INFINITY;
					else if (strstr(comment, ", x = ") ||
						 strstr(comment, "x-coordinate 0"))
						k = K_XMOD;
					else if (has_flag(t, "EdgeCasePublicKey"))
						k = K_PUBKEY;
					else if (has_flag(t, "SpecialCaseHash"))
						k = K_HASH;
					else if (has_flag(t, "ArithmeticError") ||
						 has_flag(t, "ModularInverse") ||
						 has_flag(t, "SmallRandS"))
						k = K_ARITH;
					else
						k = K_OTHER;
				}
			}
			CHECK((want == VFIT_OK) == is_valid, "%s tcId %ld: a %s case is malformed",
			      f->t->wycheproof, id, result);
			got = vfit_ecdsa_verify(&key, digest, dlen, sig, (size_t)slen);
			CHECK(got == want, "%s tcId %ld (%s, %s): %s, expected %s", f->t->wycheproof,
			      id, result, comment, vfit_result_to_string(got),
			      vfit_result_to_string(want));
			if (is_valid) {
				valid++;
				kv[k]++;
				valid_ok += got == VFIT_OK;
				kv_ok[k] += got == VFIT_OK;
			} else {
				invalid++;
				ki[k]++;
				invalid_ok += got == want;
				ki_ok[k] += got == want;
			}
			free(msg);
			free(sig);
		}
	}
	CHECK((long)total == json_get_int(doc, "numberOfTests", -1), "%s: %zu of %ld tests run",
	      f->t->wycheproof, total, json_get_int(doc, "numberOfTests", -1));
	printf("%s: %zu cases: valid accepted %u/%u, invalid rejected (exact code) %u/%u\n",
	       f->t->wycheproof, total, valid_ok, valid, invalid_ok, invalid);
	for (i = 0; i < K_COUNT; i++) {
		if (kv[i] + ki[i])
			printf("  %-32s valid accepted %3u/%-3u invalid rejected %3u/%u\n",
			       klass_name[i], kv_ok[i], kv[i], ki_ok[i], ki[i]);
	}
	json_free(doc);
	BN_free(r);
	BN_free(s);
}

/* ---- random cross-checks with OpenSSL ---- */

/* The raw r || s of a DER signature, each nb bytes. */
static int raw_sig(const uint8_t *der, size_t len, uint8_t *sig, size_t nb)
{
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &der, (long)len);
	int ok = s && BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, (int)nb) > 0 &&
		 BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + nb, (int)nb) > 0;

	ECDSA_SIG_free(s);
	return ok;
}

/* OpenSSL's verdict on raw r || s: 1 valid, 0 not. */
static int ossl_verify(EVP_PKEY *pkey, const uint8_t *digest, size_t dlen, const uint8_t *sig,
		       size_t nb)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, (int)nb, NULL), *ss = BN_bin2bn(sig + nb, (int)nb, NULL);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	uint8_t der[160], *p = der;
	int len, ok = 0;

	if (s && r && ss && ECDSA_SIG_set0(s, r, ss)) {
		r = ss = NULL;
		len = i2d_ECDSA_SIG(s, &p);
		ok = len > 0 && ctx && EVP_PKEY_verify_init(ctx) > 0 &&
		     EVP_PKEY_verify(ctx, der, (size_t)len, digest, dlen) == 1;
	}
	BN_free(r);
	BN_free(ss);
	ECDSA_SIG_free(s);
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return ok;
}

static void random_sigs(const struct ref *f)
{
	static const size_t dlens[] = { 1, 20, 28, 32, 48, 64 };
	int keys = quick() ? 3 : 12, i, good = 0, runs = 0, flips = 0, flip_ok = 0, agree = 0;
	int cut = 0, cut_ok = 0, high_s = 0;
	size_t nb = f->c->bytes, d;

	for (i = 0; i < keys; i++) {
		EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", f->t->ossl);
		EVP_PKEY_CTX *sctx = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
		struct vfit_ecdsa_pub pub;
		struct vfit_ecdsa_key key;
		struct vfit_err err = { 0 };

		if (!CHECK(sctx && EVP_PKEY_sign_init(sctx) > 0 &&
			   vfit_ecdsa_pub_from_pkey(pkey, &pub, &err) == 0 &&
			   vfit_ecdsa_pub_key(&pub, &key) == VFIT_OK, "%s: key %d: %s", f->t->name, i,
			   err.msg)) {
			EVP_PKEY_CTX_free(sctx);
			EVP_PKEY_free(pkey);
			continue;
		}
		for (d = 0; d < sizeof(dlens) / sizeof(dlens[0]); d++) {
			uint8_t digest[64], der[160], sig[2 * VFIT_ECDSA_MAX_BYTES];
			size_t dl = sizeof(der), bit;
			BIGNUM *s;

			rng_bytes(digest, dlens[d]);
			if (!CHECK(EVP_PKEY_sign(sctx, der, &dl, digest, dlens[d]) > 0 &&
				   raw_sig(der, dl, sig, nb), "%s: OpenSSL signing", f->t->name))
				continue;
			runs++;
			good += vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) == VFIT_OK;
			/* one changed bit of the signature: both reject */
			bit = rng() % (16 * nb);
			sig[bit / 8] ^= (uint8_t)(1 << bit % 8);
			flips++;
			flip_ok += vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) != VFIT_OK;
			agree += (vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) == VFIT_OK) ==
				 ossl_verify(pkey, digest, dlens[d], sig, nb);
			sig[bit / 8] ^= (uint8_t)(1 << bit % 8);
			/* one changed digest bit: rejected if it is in the leftmost nb bytes */
			bit = rng() % (8 * dlens[d]);
			digest[bit / 8] ^= (uint8_t)(1 << bit % 8);
			if (bit / 8 < nb) {
				flips++;
				flip_ok += vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) !=
					   VFIT_OK;
			} else {
				cut++;
				cut_ok += vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) ==
					  VFIT_OK;
			}
			agree += (vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) == VFIT_OK) ==
				 ossl_verify(pkey, digest, dlens[d], sig, nb);
			digest[bit / 8] ^= (uint8_t)(1 << bit % 8);
			/* (r, n - s) is valid too */
			s = BN_bin2bn(sig + nb, (int)nb, NULL);
			BN_sub(s, f->n, s);
			BN_bn2binpad(s, sig + nb, (int)nb);
			BN_free(s);
			high_s += vfit_ecdsa_verify(&key, digest, dlens[d], sig, 2 * nb) == VFIT_OK;
		}
		EVP_PKEY_CTX_free(sctx);
		EVP_PKEY_free(pkey);
	}
	CHECK(good == runs, "%s: %d of %d OpenSSL signatures verified", f->t->name, good, runs);
	CHECK(high_s == runs, "%s: %d of %d (r, n-s) verified", f->t->name, high_s, runs);
	CHECK(flip_ok == flips, "%s: %d of %d one-bit changes rejected", f->t->name, flip_ok, flips);
	CHECK(cut_ok == cut, "%s: %d of %d changes beyond the truncated digest accepted",
	      f->t->name, cut_ok, cut);
	CHECK(agree == 2 * runs, "%s: OpenSSL disagrees on %d of %d changed inputs", f->t->name,
	      2 * runs - agree, 2 * runs);
	printf("%s: %d OpenSSL signatures (digests of 1..64 bytes) verified, %d one-bit changes "
	       "rejected, %d changes past the truncation accepted, as OpenSSL\n", f->t->name, runs,
	       flip_ok, cut_ok);
}

/* ---- API ---- */

/* Names, sizes and argument checks; a curve that is not built in is unsupported. */
static void api(void)
{
	static const struct {
		enum vfit_ec_curve id;
		const char *name;
		size_t bytes;
		int built;
	} all[] = {
		{ VFIT_EC_P256, "prime256v1", 32, VFIT_HAVE_ECDSA_P256 },
		{ VFIT_EC_P384, "secp384r1", 48, VFIT_HAVE_ECDSA_P384 },
	};
	struct vfit_ecdsa_key k;
	uint8_t d[32] = { 0 }, sig[96] = { 1 }, pt[48] = { 1 };
	size_t i;

	for (i = 0; i < 2; i++) {
		size_t nb = all[i].bytes;

		CHECK(vfit_ecdsa_curve(all[i].name) == (all[i].built ? all[i].id : VFIT_EC_NONE) &&
		      vfit_ecdsa_curve_bytes(all[i].id) == (all[i].built ? nb : 0),
		      "%s: name or size", all[i].name);
		memset(&k, 0, sizeof(k));
		CHECK(vfit_ecdsa_verify(&k, d, 32, sig, 2 * nb) == VFIT_ERR_KEY, "unloaded key");
		k.curve = all[i].id;
		CHECK(vfit_ecdsa_verify(NULL, d, 32, sig, 2 * nb) == VFIT_ERR_PARAM &&
		      vfit_ecdsa_verify(&k, NULL, 32, sig, 2 * nb) == VFIT_ERR_PARAM &&
		      vfit_ecdsa_verify(&k, d, 32, NULL, 2 * nb) == VFIT_ERR_PARAM, "NULL");
		if (all[i].built) {
			CHECK(vfit_ecdsa_verify(&k, d, 32, sig, 2 * nb - 1) == VFIT_ERR_SIG_LENGTH &&
			      vfit_ecdsa_verify(&k, d, 32, sig, 2 * nb + 1) == VFIT_ERR_SIG_LENGTH &&
			      vfit_ecdsa_verify(&k, d, 32, sig, 0) == VFIT_ERR_SIG_LENGTH,
			      "%s: lengths", all[i].name);
		} else {
			CHECK(vfit_ecdsa_verify(&k, d, 32, sig, 2 * nb) == VFIT_ERR_UNSUPPORTED &&
			      vfit_ecdsa_key_load(all[i].id, pt, nb, pt, nb, &k) ==
			      VFIT_ERR_UNSUPPORTED && k.curve == VFIT_EC_NONE,
			      "%s: not built in, but not unsupported", all[i].name);
		}
	}
	CHECK(vfit_ecdsa_curve("secp256r1") == VFIT_EC_NONE &&
	      vfit_ecdsa_curve("secp521r1") == VFIT_EC_NONE && vfit_ecdsa_curve("") == VFIT_EC_NONE &&
	      vfit_ecdsa_curve(NULL) == VFIT_EC_NONE && vfit_ecdsa_curve_bytes(VFIT_EC_NONE) == 0,
	      "unknown curve names");
	k.curve = (enum vfit_ec_curve)99;
	CHECK(vfit_ecdsa_verify(&k, d, 32, sig, 64) == VFIT_ERR_UNSUPPORTED, "unknown curve");
	CHECK(vfit_ecdsa_key_load(VFIT_EC_P256, NULL, 32, pt, 32, &k) == VFIT_ERR_PARAM &&
	      vfit_ecdsa_key_load(VFIT_EC_P256, pt, 32, pt, 32, NULL) == VFIT_ERR_PARAM, "NULL");
}

static int ecdsa_run(const char *path)
{
	size_t i;

	rng_seed();
	printf("%s: %d-bit limbs, %s field code\n", path, LIMB_BITS,
	       VFIT_EC_COMPACT ? "compact" : "unrolled");
	api();
	for (i = 0; tcurves[i].id != VFIT_EC_NONE; i++) {
		struct ref f;

		ref_init(&f, &tcurves[i]);
		constants(&f);
		field_one(&f, &f.c->p, f.p, f.rinv_p, "p");
		field_one(&f, &f.c->n, f.n, f.rinv_n, "n");
		points(&f);
		keys(&f);
		wycheproof(&f);
		random_sigs(&f);
		ref_free(&f);
	}
	return check_done();
}
