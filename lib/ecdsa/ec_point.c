/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Point arithmetic in Jacobian coordinates and the double scalar
 * multiplication u1*G + u2*Q of ECDSA verification.
 *
 * Formulas (a = -3), from the Explicit-Formulas Database: doubling
 * dbl-2001-b, scaled (4M + 4S, see jac_dbl()), addition add-1998-cmo-2
 * (12M + 4S, or 8M + 3S when the second point is affine).  The addition formula fails
 * when both inputs are the same point (H = 0, R = 0: it would return
 * infinity), and for an infinity input; jac_add() checks for these and for
 * opposite points (H = 0, R != 0), since in u1*G + u2*Q an attacker picks
 * u1, u2 (through r, s and the digest) and can steer an intermediate sum
 * onto them.
 *
 * The scalars are recoded in width-w NAF and processed together
 * (interleaving, "Shamir's trick"): 256 or 384 doublings shared, one
 * addition per nonzero digit, about one digit in w + 1.  The odd multiples
 * of G are affine constants (ec_p256.c, ec_p384.c; w = 7, or 5 in
 * size-optimised builds); Q .. 15Q (w = 5) are computed per verification,
 * in Jacobian form (converting them to affine costs an inversion, more
 * than it saves).
 */
#include <string.h>

#include "ec_arith.h"

#if VFIT_EC_ANY

static void fmul(const struct ec_curve *c, limb_t *r, const limb_t *a, const limb_t *b)
{
	vfit_ec_mont_(r, a, b, &c->p);
}

static void fsqr(const struct ec_curve *c, limb_t *r, const limb_t *a)
{
	vfit_ec_sqr_(r, a, &c->p);
}

#if VFIT_EC_COMPACT
static void fadd(const struct ec_curve *c, limb_t *r, const limb_t *a, const limb_t *b)
{
	vfit_ec_add_(r, a, b, &c->p);
}

static void fsub(const struct ec_curve *c, limb_t *r, const limb_t *a, const limb_t *b)
{
	vfit_ec_sub_(r, a, b, &c->p);
}

static void fhalf(const struct ec_curve *c, limb_t *r, const limb_t *a)
{
	half_n(r, a, &c->p, c->p.nl);
}
#else
/* Inlined: about 5% of a verification is the calls otherwise. */
#define fadd(c, r, a, b) SIZED(add_n, (c)->p.nl, r, a, b, &(c)->p)
#define fsub(c, r, a, b) SIZED(sub_n, (c)->p.nl, r, a, b, &(c)->p)
#define fhalf(c, r, a) SIZED(half_n, (c)->p.nl, r, a, &(c)->p)
#endif

/*
 * r = 2a; r may be a.  dbl-2001-b with its result scaled by 1/2 (the same
 * point: (X, Y, Z) ~ (X/4, Y/8, Z/2)), which turns 3*alpha into 3/2*alpha
 * and drops the factors 2, 4 and 8 elsewhere: 8 additions instead of 14:
 *   alpha = 3/2 (X - delta)(X + delta), delta = Z^2, gamma = Y^2, beta = X*gamma
 *   X3 = alpha^2 - 2 beta, Y3 = alpha (beta - X3) - gamma^2, Z3 = Y*Z.
 * Doubling infinity (Z = 0) gives Z3 = 0 again.
 */
static void jac_dbl(const struct ec_curve *c, struct ec_jac *r, const struct ec_jac *a)
{
	limb_t delta[EC_LIMBS], gamma[EC_LIMBS], beta[EC_LIMBS], alpha[EC_LIMBS], t[EC_LIMBS];

	fsqr(c, delta, a->z);
	fsqr(c, gamma, a->y);
	fmul(c, beta, a->x, gamma);
	fsub(c, t, a->x, delta);
	fadd(c, alpha, a->x, delta);
	fmul(c, alpha, t, alpha);
	fhalf(c, t, alpha);
	fadd(c, alpha, alpha, t);
	/* the last use of a's coordinates */
	fmul(c, r->z, a->y, a->z);
	fsqr(c, t, alpha);
	fsub(c, t, t, beta);
	fsub(c, r->x, t, beta);
	fsub(c, t, beta, r->x);
	fmul(c, t, alpha, t);
	fsqr(c, gamma, gamma);
	fsub(c, r->y, t, gamma);
}

/* Montgomery form of 1: R mod p = R - p, as R/2 < p < R. */
static void mont_one(const struct ec_curve *c, limb_t *r)
{
	limb_t borrow = 0;
	size_t j;

	for (j = 0; j < c->p.nl; j++) {
		dlimb_t s = (dlimb_t)0 - c->p.m[j] - borrow;

		r[j] = (limb_t)s;
		borrow = (limb_t)(s >> LIMB_BITS) & 1;
	}
}

/*
 * r = a + b with b = (bx, by, bz), or the affine (bx, by) when bz is NULL;
 * r may be a.  b is never infinity: it is a multiple of G or Q smaller
 * than their order n.
 */
static void jac_add(const struct ec_curve *c, struct ec_jac *r, const struct ec_jac *a,
		const limb_t *bx, const limb_t *by, const limb_t *bz)
{
	limb_t u1[EC_LIMBS], u2[EC_LIMBS], s1[EC_LIMBS], s2[EC_LIMBS], h[EC_LIMBS];
	limb_t rr[EC_LIMBS], t[EC_LIMBS];
	size_t nl = c->p.nl, sz = nl * sizeof(limb_t);

	if (vfit_ec_is_zero_(a->z, nl)) {
		memcpy(r->x, bx, sz);
		memcpy(r->y, by, sz);
		if (bz)
			memcpy(r->z, bz, sz);
		else
			mont_one(c, r->z);
		return;
	}
	/* U2 = bx * Z1^2, S2 = by * Z1^3 */
	fsqr(c, t, a->z);
	fmul(c, u2, bx, t);
	fmul(c, t, t, a->z);
	fmul(c, s2, by, t);
	if (bz) {
		/* U1 = X1 * Z2^2, S1 = Y1 * Z2^3 */
		fsqr(c, t, bz);
		fmul(c, u1, a->x, t);
		fmul(c, t, t, bz);
		fmul(c, s1, a->y, t);
	} else {
		memcpy(u1, a->x, sz);
		memcpy(s1, a->y, sz);
	}
	fsub(c, h, u2, u1);
	fsub(c, rr, s2, s1);
	if (vfit_ec_is_zero_(h, nl)) {
		/* Same x: a == b (double) or a == -b (infinity). */
		if (vfit_ec_is_zero_(rr, nl))
			jac_dbl(c, r, a);
		else
			memset(r->z, 0, sz);
		return;
	}
	/* Z3 = Z1 * Z2 * H, before r (maybe a) is written */
	fmul(c, r->z, a->z, h);
	if (bz)
		fmul(c, r->z, r->z, bz);
	/* u2 = H^2, s2 = H^3, u1 = V = U1 * H^2 */
	fsqr(c, u2, h);
	fmul(c, s2, u2, h);
	fmul(c, u1, u1, u2);
	/* X3 = R^2 - H^3 - 2V */
	fsqr(c, t, rr);
	fsub(c, t, t, s2);
	fsub(c, t, t, u1);
	fsub(c, r->x, t, u1);
	/* Y3 = R * (V - X3) - S1 * H^3 */
	fsub(c, t, u1, r->x);
	fmul(c, t, rr, t);
	fmul(c, s1, s1, s2);
	fsub(c, r->y, t, s1);
}

/* w bits of k starting at bit i, zeros above the nl limbs. */
static unsigned int window(const limb_t *k, size_t i, size_t nl, unsigned int w)
{
	size_t l = i / LIMB_BITS, s = i % LIMB_BITS;
	limb_t v = l < nl ? k[l] >> s : 0;

	if (s && l + 1 < nl)
		v |= k[l + 1] << (LIMB_BITS - s);
	return (unsigned int)v & ((1u << w) - 1);
}

/*
 * Width-w NAF of k < 2^bits: digits d[0 .. bits] with k = sum d[i] * 2^i,
 * each 0 or odd in [-(2^(w-1) - 1), 2^(w-1) - 1], and the w - 1 digits
 * above a nonzero one all zero.  Scanning upwards with a carry (the + 1 a
 * negative digit leaves for the bits above): where bit i plus the carry
 * is even the digit is 0; else the w bits at i plus the carry are an odd
 * v < 2^w, taken as v or, when v >= 2^(w-1), as v - 2^w with a carry.  A
 * carry needs v >= 2^(w-1) + 1, so the w bits reached a bit of k and
 * i + w <= bits: the last carry always lands in d[bits].
 */
static void wnaf(int8_t *d, const limb_t *k, size_t nl, unsigned int w)
{
	size_t bits = nl * LIMB_BITS, i = 0;
	unsigned int carry = 0, v;

	memset(d, 0, bits + 1);
	while (i <= bits) {
		if (window(k, i, nl, 1) == carry) {
			i++;
			continue;
		}
		v = window(k, i, nl, w) + carry;
		carry = v >> (w - 1);
		d[i] = (int8_t)((int)v - (int)(carry << w));
		i += w;
	}
}

void vfit_ec_mul2_(const struct ec_curve *c, struct ec_jac *r, const limb_t *u1,
		  const limb_t *u2, const limb_t *qx, const limb_t *qy)
{
	struct ec_jac tq[EC_Q_TABLE], q2;
	int8_t d1[EC_MAX_BITS + 1], d2[EC_MAX_BITS + 1];
	limb_t ny[EC_LIMBS], zero[EC_LIMBS] = { 0 };
	size_t nl = c->p.nl, sz = nl * sizeof(limb_t), i;

	/* tq[i] = (2i + 1) * Q */
	memcpy(tq[0].x, qx, sz);
	memcpy(tq[0].y, qy, sz);
	mont_one(c, tq[0].z);
	jac_dbl(c, &q2, &tq[0]);
	for (i = 1; i < EC_Q_TABLE; i++)
		jac_add(c, &tq[i], &tq[i - 1], q2.x, q2.y, q2.z);

	wnaf(d1, u1, nl, EC_G_WINDOW);
	wnaf(d2, u2, nl, EC_Q_WINDOW);
	memset(r->z, 0, sz);
	for (i = nl * LIMB_BITS + 1; i-- > 0;) {
		int g = d1[i], q = d2[i];

		if (!vfit_ec_is_zero_(r->z, nl))
			jac_dbl(c, r, r);
		if (g) {
			const limb_t *gx = c->g + (size_t)((g < 0 ? -g : g) / 2) * 2 * nl;

			if (g < 0)
				fsub(c, ny, zero, gx + nl);
			jac_add(c, r, r, gx, g < 0 ? ny : gx + nl, NULL);
		}
		if (q) {
			const struct ec_jac *t = &tq[(q < 0 ? -q : q) / 2];

			if (q < 0)
				fsub(c, ny, zero, t->y);
			jac_add(c, r, r, t->x, q < 0 ? ny : t->y, t->z);
		}
	}
}

#endif
