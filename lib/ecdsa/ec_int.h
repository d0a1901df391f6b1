/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals shared by lib/ecdsa/: multi-precision numbers, arithmetic
 * modulo the field prime p and the group order n, points and the curves.
 * Nothing here is public API.
 *
 * Numbers are arrays of limbs, least significant first.  A limb is 64 bits
 * where the compiler has a 128-bit type for the double-width product
 * (x86-64, aarch64) and 32 bits otherwise (32-bit ARM), from the same code;
 * -DVFIT_EC_LIMB32=1 forces 32-bit limbs (the tests build both).  Curve
 * sizes are multiples of 64 bits, so the limbs hold exactly the curve's bits
 * either way, the Montgomery radix R = 2^bits is the same, and so are the
 * Montgomery-form constants of the curve files.
 *
 * Every field and scalar element is kept fully reduced (in [0, m)), so
 * equality is limb equality and zero is all limbs zero.
 */
#ifndef VFIT_EC_INT_H
#define VFIT_EC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/ecdsa.h"

#ifndef VFIT_EC_LIMB32
#define VFIT_EC_LIMB32 0
#endif

/*
 * Size-optimised builds (-Os, or -DVFIT_EC_COMPACT=1) run one loop for
 * every curve size; other builds give each size its own copy of the field
 * operations with the limb count a constant, which compilers unroll.
 */
#if defined(__OPTIMIZE_SIZE__) && !defined(VFIT_EC_COMPACT)
#define VFIT_EC_COMPACT 1
#endif
#ifndef VFIT_EC_COMPACT
#define VFIT_EC_COMPACT 0
#endif

#if defined(__SIZEOF_INT128__) && !VFIT_EC_LIMB32
typedef uint64_t limb_t;
__extension__ typedef unsigned __int128 dlimb_t;
#define LIMB_BITS 64
/* A 64-bit constant as limbs. */
#define W64(x) ((limb_t)(x))
#else
typedef uint32_t limb_t;
typedef uint64_t dlimb_t;
#define LIMB_BITS 32
#define W64(x) ((limb_t)(uint64_t)(x)), ((limb_t)((uint64_t)(x) >> 32))
#endif

#define LIMB_BYTES (LIMB_BITS / 8)

/* Whether any curve is built in; without one only the API's stubs are. */
#define VFIT_EC_ANY (VFIT_HAVE_ECDSA_P256 || VFIT_HAVE_ECDSA_P384)

#if VFIT_HAVE_ECDSA_P384
#define EC_MAX_BITS 384
#else
#define EC_MAX_BITS 256
#endif
#define EC_LIMBS (EC_MAX_BITS / LIMB_BITS)

/* A modulus for Montgomery arithmetic with R = 2^(nl * LIMB_BITS). */
struct ec_mod {
	limb_t m[EC_LIMBS];
	limb_t rr[EC_LIMBS];    /* R^2 mod m: mont(x, rr) = x*R mod m */
	limb_t m0;              /* -m^-1 mod 2^LIMB_BITS */
	uint8_t nl;             /* limbs */
	uint8_t form;           /* 0, or a shape the reduction can exploit: */
};

#define EC_FORM_P256 1          /* 2^256 - 2^224 + 2^192 + 2^96 - 1 */

/*
 * A short Weierstrass curve y^2 = x^3 - 3x + b of prime order n (cofactor
 * 1, so every point but infinity generates the group), with R/2 < p, n < R.
 */
struct ec_curve {
	struct ec_mod p;
	struct ec_mod n;
	limb_t b[EC_LIMBS];     /* Montgomery form */
	/*
	 * The odd multiples G, 3G, .., (2^(EC_G_WINDOW-1) - 1)G of the base
	 * point as affine x, y pairs in Montgomery form, nl limbs each.
	 */
	const limb_t *g;
	uint8_t bytes;          /* of a coordinate, of r and of s */
};

/*
 * Signed-digit window widths of the scalar multiplication (ec_point.c) and
 * the number of odd multiples each needs: for Q, computed per verification,
 * 5 is the fastest; G's are constants, so fast builds take a wider window
 * (11 fewer additions for P-256, for 1.5 KB more of table, 2.25 KB for
 * P-384) and size-optimised ones the table of Q's width.
 */
#define EC_Q_WINDOW 5
#define EC_Q_TABLE (1 << (EC_Q_WINDOW - 2))
#if VFIT_EC_COMPACT
#define EC_G_WINDOW 5
#else
#define EC_G_WINDOW 7
#endif
#define EC_G_TABLE (1 << (EC_G_WINDOW - 2))

extern const struct ec_curve vfit_ec_p256_;
extern const struct ec_curve vfit_ec_p384_;

/* ---- numbers and field elements (ec_field.c) ---- */

/* Big-endian bytes, nl * LIMB_BYTES of them, to limbs. */
void vfit_ec_load_(limb_t *x, const uint8_t *p, size_t nl);
/* Whether a < b. */
int vfit_ec_less_(const limb_t *a, const limb_t *b, size_t nl);
int vfit_ec_is_zero_(const limb_t *a, size_t nl);
int vfit_ec_equal_(const limb_t *a, const limb_t *b, size_t nl);

/*
 * r = a * b * R^-1 mod m, fully reduced, for a < R and b < m (so a need
 * not be reduced: a digest goes in as it is).  r may be a or b.
 */
void vfit_ec_mont_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m);
/* r = a^2 * R^-1 mod m for a < m; r may be a. */
void vfit_ec_sqr_(limb_t *r, const limb_t *a, const struct ec_mod *m);
/* r = a + b mod m and r = a - b mod m for a, b < m; r may be a or b. */
void vfit_ec_add_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m);
void vfit_ec_sub_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m);

/* ---- points (ec_point.c) ---- */

/* Jacobian coordinates (X/Z^2, Y/Z^3), Montgomery form; Z = 0 is infinity. */
struct ec_jac {
	limb_t x[EC_LIMBS], y[EC_LIMBS], z[EC_LIMBS];
};

/*
 * r = u1*G + u2*q for scalars u1, u2 < n and the affine point q (Montgomery
 * form) on the curve; r may be the point at infinity.
 */
void vfit_ec_mul2_(const struct ec_curve *c, struct ec_jac *r, const limb_t *u1,
		  const limb_t *u2, const limb_t *qx, const limb_t *qy);

#endif
