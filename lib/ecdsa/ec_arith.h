/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bodies of the field operations that more than one file runs:
 * addition, subtraction and halving, which the point formulas call too
 * often to pay for a function call each in fast builds (ec_point.c inlines
 * them there), and the final conditional subtraction.  Static inline: a file
 * that includes this and does not call them gets no code.
 */
#ifndef VFIT_EC_ARITH_H
#define VFIT_EC_ARITH_H

#include "ec_int.h"

#if VFIT_EC_COMPACT
#define BODY static inline
/* The one loop, for any limb count. */
#define SIZED(f, nl, ...) f(__VA_ARGS__, nl)
#define UNROLL
#else
#define BODY static inline __attribute__((always_inline))
/*
 * A copy of the body per curve size with its limb count a constant, and
 * the loops unrolled: twice the speed of gcc's rolled 128-bit loops.
 */
#define SIZED(f, nl, ...) \
	((nl) == 256 / LIMB_BITS ? f(__VA_ARGS__, 256 / LIMB_BITS) : f(__VA_ARGS__, EC_LIMBS))
#define UNROLL _Pragma("GCC unroll 12")
#endif

/*
 * r = t - m if that does not borrow beyond `top` (the limb above t), else
 * t: the one conditional subtraction that brings t < 2m below m.  Chosen
 * by mask: after an addition it goes either way at random, and a
 * mispredicted branch costs more than the whole subtraction.
 */
BODY void reduce_once(limb_t *r, const limb_t *t, limb_t top, const limb_t *m, size_t nl)
{
	limb_t d[EC_LIMBS], borrow = 0, keep;
	size_t j;

	UNROLL
	for (j = 0; j < nl; j++) {
		/* a borrow sets all high bits of the double-width difference */
		dlimb_t s = (dlimb_t)t[j] - m[j] - borrow;

		d[j] = (limb_t)s;
		borrow = (limb_t)(s >> LIMB_BITS) & 1;
	}
	keep = (limb_t)0 - (borrow & ~top & 1);
	UNROLL
	for (j = 0; j < nl; j++)
		r[j] = (t[j] & keep) | (d[j] & ~keep);
}

/* a + b < 2m: the sum with its carry, reduced once. */
BODY void add_n(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m, size_t nl)
{
	limb_t t[EC_LIMBS], c = 0;
	size_t j;

	UNROLL
	for (j = 0; j < nl; j++) {
		dlimb_t s = (dlimb_t)a[j] + b[j] + c;

		t[j] = (limb_t)s;
		c = (limb_t)(s >> LIMB_BITS);
	}
	reduce_once(r, t, c, m->m, nl);
}

/* a - b, plus m if that borrowed (then a - b + m is in (0, m)); by mask, as above. */
BODY void sub_n(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m, size_t nl)
{
	limb_t t[EC_LIMBS], borrow = 0, c = 0, mask;
	size_t j;

	UNROLL
	for (j = 0; j < nl; j++) {
		dlimb_t s = (dlimb_t)a[j] - b[j] - borrow;

		t[j] = (limb_t)s;
		borrow = (limb_t)(s >> LIMB_BITS) & 1;
	}
	mask = (limb_t)0 - borrow;
	UNROLL
	for (j = 0; j < nl; j++) {
		dlimb_t s = (dlimb_t)t[j] + (m->m[j] & mask) + c;

		r[j] = (limb_t)s;
		c = (limb_t)(s >> LIMB_BITS);
	}
}

/* a / 2 mod m for a < m, m odd: a or a + m is even; (a + m) / 2 < m. */
BODY void half_n(limb_t *r, const limb_t *a, const struct ec_mod *m, size_t nl)
{
	limb_t t[EC_LIMBS], mask = (limb_t)0 - (a[0] & 1), c = 0;
	size_t j;

	UNROLL
	for (j = 0; j < nl; j++) {
		dlimb_t s = (dlimb_t)a[j] + (m->m[j] & mask) + c;

		t[j] = (limb_t)s;
		c = (limb_t)(s >> LIMB_BITS);
	}
	UNROLL
	for (j = 0; j + 1 < nl; j++)
		r[j] = t[j] >> 1 | t[j + 1] << (LIMB_BITS - 1);
	r[nl - 1] = t[nl - 1] >> 1 | c << (LIMB_BITS - 1);
}

#endif
