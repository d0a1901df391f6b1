/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA verification (SEC 1 v2 §4.1.4) for the curves in ec_p256.c and
 * ec_p384.c: key checks, signature range checks, the scalars u1 = e/s and
 * u2 = r/s mod n, and the final comparison, done without leaving
 * projective coordinates.
 *
 * Stack, worst case of one verification (own frames along the deepest
 * call chain, measured with -fcallgraph-info=su; key loading is below
 * 700 bytes everywhere):
 *                                    x86-64 gcc -O2   Cortex-M4 gcc -Os
 *   P-256 and P-384 built                 5944              3912
 *   P-256 only (VFIT_HAVE_ECDSA_P384=0)   3912              2736
 * More than half of it is vfit_ec_mul2_()'s: the eight odd multiples of Q
 * in Jacobian form and the two signed-digit strings of the scalars.
 */
#include <string.h>

#include "ec_int.h"

static const struct ec_curve *curve_of(enum vfit_ec_curve id)
{
	switch (id) {
#if VFIT_HAVE_ECDSA_P256
	case VFIT_EC_P256:
		return &vfit_ec_p256_;
#endif
#if VFIT_HAVE_ECDSA_P384
	case VFIT_EC_P384:
		return &vfit_ec_p384_;
#endif
	default:
		return NULL;
	}
}

enum vfit_ec_curve vfit_ecdsa_curve(const char *name)
{
	enum vfit_ec_curve id = VFIT_EC_NONE;

	if (!name)
		return VFIT_EC_NONE;
	if (!strcmp(name, "prime256v1"))
		id = VFIT_EC_P256;
	else if (!strcmp(name, "secp384r1"))
		id = VFIT_EC_P384;
	return curve_of(id) ? id : VFIT_EC_NONE;
}

size_t vfit_ecdsa_curve_bytes(enum vfit_ec_curve curve)
{
	const struct ec_curve *c = curve_of(curve);

	return c ? c->bytes : 0;
}

#if VFIT_EC_ANY
/* x = the nl-limb number of big-endian bytes p, in Montgomery form mod m (x < R). */
static void to_mont(limb_t *x, const uint8_t *p, const struct ec_mod *m)
{
	vfit_ec_load_(x, p, m->nl);
	vfit_ec_mont_(x, x, m->rr, m);
}

enum vfit_result vfit_ecdsa_key_load(enum vfit_ec_curve curve, const uint8_t *x, size_t xlen,
				     const uint8_t *y, size_t ylen, struct vfit_ecdsa_key *key)
{
	const struct ec_curve *c = curve_of(curve);
	limb_t xm[EC_LIMBS], ym[EC_LIMBS], lhs[EC_LIMBS], rhs[EC_LIMBS];
	size_t nl;

	if (!key)
		return VFIT_ERR_PARAM;
	key->curve = VFIT_EC_NONE;
	if (!x || !y)
		return VFIT_ERR_PARAM;
	if (!c)
		return VFIT_ERR_UNSUPPORTED;
	nl = c->p.nl;
	if (xlen != c->bytes || ylen != c->bytes)
		return VFIT_ERR_KEY;
	vfit_ec_load_(xm, x, nl);
	vfit_ec_load_(ym, y, nl);
	if (!vfit_ec_less_(xm, c->p.m, nl) || !vfit_ec_less_(ym, c->p.m, nl))
		return VFIT_ERR_KEY;
	/* y^2 == x^3 - 3x + b, in Montgomery form */
	vfit_ec_mont_(xm, xm, c->p.rr, &c->p);
	vfit_ec_mont_(ym, ym, c->p.rr, &c->p);
	vfit_ec_sqr_(lhs, ym, &c->p);
	vfit_ec_sqr_(rhs, xm, &c->p);
	vfit_ec_mont_(rhs, rhs, xm, &c->p);
	vfit_ec_sub_(rhs, rhs, xm, &c->p);
	vfit_ec_sub_(rhs, rhs, xm, &c->p);
	vfit_ec_sub_(rhs, rhs, xm, &c->p);
	vfit_ec_add_(rhs, rhs, c->b, &c->p);
	if (!vfit_ec_equal_(lhs, rhs, nl))
		return VFIT_ERR_KEY;
	memcpy(key->x, x, c->bytes);
	memcpy(key->y, y, c->bytes);
	key->curve = curve;
	return VFIT_OK;
}

static int bit(const limb_t *e, size_t i)
{
	return (int)(e[i / LIMB_BITS] >> (i % LIMB_BITS) & 1);
}

/*
 * w = s^-1 * R mod n (Montgomery form) as s^(n-2), n being prime; s in
 * [1, n-1].  The top bit of n - 2 is set (n > R/2).  Size-optimised builds
 * square and multiply bit by bit; others slide a window of up to 4 bits
 * over the exponent, multiplying by the odd powers s^1 .. s^15: for P-256
 * 58 multiplications (with the table's 8) instead of 168.
 */
static void inverse(const struct ec_mod *n, limb_t *w, const limb_t *s)
{
	limb_t e[EC_LIMBS], two[EC_LIMBS] = { 2 }, zero[EC_LIMBS] = { 0 };
	size_t i = n->nl * LIMB_BITS - 1, sz = n->nl * sizeof(limb_t);
#if VFIT_EC_COMPACT
	limb_t sr[EC_LIMBS];

	vfit_ec_sub_(e, zero, two, n);
	vfit_ec_mont_(sr, s, n->rr, n);
	memcpy(w, sr, sz);
	while (i-- > 0) {
		vfit_ec_sqr_(w, w, n);
		if (bit(e, i))
			vfit_ec_mont_(w, w, sr, n);
	}
#else
	limb_t odd[8][EC_LIMBS], s2[EC_LIMBS];
	size_t lo, k;
	int started = 0;

	vfit_ec_sub_(e, zero, two, n);
	vfit_ec_mont_(odd[0], s, n->rr, n);
	vfit_ec_sqr_(s2, odd[0], n);
	for (k = 1; k < 8; k++)
		vfit_ec_mont_(odd[k], odd[k - 1], s2, n);
	/* bits above i are done; the first window (at the top bit, set) sets w */
	for (i++; i > 0; i = lo) {
		unsigned int v = 0;

		lo = i - 1;
		if (!bit(e, lo)) {
			vfit_ec_sqr_(w, w, n);
			continue;
		}
		/* the window e[lo .. i-1]: at most 4 bits, ending in a 1 */
		lo = i >= 4 ? i - 4 : 0;
		while (!bit(e, lo))
			lo++;
		for (k = i; k-- > lo;) {
			v = v << 1 | (unsigned int)bit(e, k);
			if (started)
				vfit_ec_sqr_(w, w, n);
		}
		if (started)
			vfit_ec_mont_(w, w, odd[v / 2], n);
		else
			memcpy(w, odd[v / 2], sz);
		started = 1;
	}
#endif
}

/* Whether r in [1, n-1]. */
static int in_range(const limb_t *r, const struct ec_mod *n)
{
	return !vfit_ec_is_zero_(r, n->nl) && vfit_ec_less_(r, n->m, n->nl);
}

/*
 * Whether the affine x of pt (not infinity), reduced mod n, is r: whether
 * X == x' * Z^2 for x' = r or, when r + n < p, x' = r + n (x < p, and
 * n < p < 2n for both curves).
 */
static int x_matches(const struct ec_curve *c, const struct ec_jac *pt, const limb_t *r)
{
	limb_t zz[EC_LIMBS], t[EC_LIMBS], pn[EC_LIMBS], zero[EC_LIMBS] = { 0 };
	size_t nl = c->p.nl;

	vfit_ec_sqr_(zz, pt->z, &c->p);
	vfit_ec_mont_(t, r, c->p.rr, &c->p);
	vfit_ec_mont_(t, t, zz, &c->p);
	if (vfit_ec_equal_(t, pt->x, nl))
		return 1;
	vfit_ec_sub_(pn, zero, c->n.m, &c->p);
	if (!vfit_ec_less_(r, pn, nl))
		return 0;
	vfit_ec_add_(t, r, c->n.m, &c->p);
	vfit_ec_mont_(t, t, c->p.rr, &c->p);
	vfit_ec_mont_(t, t, zz, &c->p);
	return vfit_ec_equal_(t, pt->x, nl);
}

enum vfit_result vfit_ecdsa_verify(const struct vfit_ecdsa_key *key, const uint8_t *digest,
				   size_t digest_len, const uint8_t *sig, size_t sig_len)
{
	limb_t r[EC_LIMBS], s[EC_LIMBS], e[EC_LIMBS], w[EC_LIMBS];
	/* initialised only for gcc, which cannot see that the loads fill them */
	limb_t qx[EC_LIMBS] = { 0 }, qy[EC_LIMBS] = { 0 };
	uint8_t eb[VFIT_ECDSA_MAX_BYTES] = { 0 };
	const struct ec_curve *c;
	struct ec_jac pt;
	size_t nb;

	if (!key || !digest || !sig)
		return VFIT_ERR_PARAM;
	if (key->curve == VFIT_EC_NONE)
		return VFIT_ERR_KEY;
	c = curve_of(key->curve);
	if (!c)
		return VFIT_ERR_UNSUPPORTED;
	nb = c->bytes;
	if (sig_len != 2 * nb)
		return VFIT_ERR_SIG_LENGTH;
	vfit_ec_load_(r, sig, c->n.nl);
	vfit_ec_load_(s, sig + nb, c->n.nl);
	if (!in_range(r, &c->n) || !in_range(s, &c->n))
		return VFIT_ERR_SIG_RANGE;
	/*
	 * e: the leftmost bits of the digest, as many as n has (8 * nb for
	 * these curves), so a longer digest is cut and a shorter one is
	 * left-padded.  It may exceed n; the Montgomery product below takes
	 * any first operand below R.
	 */
	if (digest_len > nb)
		digest_len = nb;
	memcpy(eb + nb - digest_len, digest, digest_len);
	vfit_ec_load_(e, eb, c->n.nl);

	/* u1 = e * s^-1 (in e), u2 = r * s^-1 (in s), mod n */
	inverse(&c->n, w, s);
	vfit_ec_mont_(e, e, w, &c->n);
	vfit_ec_mont_(s, r, w, &c->n);

	to_mont(qx, key->x, &c->p);
	to_mont(qy, key->y, &c->p);
	vfit_ec_mul2_(c, &pt, e, s, qx, qy);
	/*
	 * Infinity has no x.  Its Z = 0 would make any r match an X of 0
	 * (r * 0^2), and X is whatever the last addition left.
	 */
	if (vfit_ec_is_zero_(pt.z, c->p.nl) || !x_matches(c, &pt, r))
		return VFIT_ERR_SIGNATURE;
	return VFIT_OK;
}
#else
/* No curve built in: every key's curve is unsupported (argument checks as above). */
enum vfit_result vfit_ecdsa_key_load(enum vfit_ec_curve curve, const uint8_t *x, size_t xlen,
				     const uint8_t *y, size_t ylen, struct vfit_ecdsa_key *key)
{
	(void)curve;
	(void)xlen;
	(void)ylen;
	if (!key)
		return VFIT_ERR_PARAM;
	key->curve = VFIT_EC_NONE;
	return x && y ? VFIT_ERR_UNSUPPORTED : VFIT_ERR_PARAM;
}

enum vfit_result vfit_ecdsa_verify(const struct vfit_ecdsa_key *key, const uint8_t *digest,
				   size_t digest_len, const uint8_t *sig, size_t sig_len)
{
	(void)digest_len;
	(void)sig_len;
	if (!key || !digest || !sig)
		return VFIT_ERR_PARAM;
	return key->curve == VFIT_EC_NONE ? VFIT_ERR_KEY : VFIT_ERR_UNSUPPORTED;
}
#endif
