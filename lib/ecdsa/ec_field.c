/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Arithmetic modulo the field prime p and the group order n: Montgomery
 * multiplication and squaring here, addition and subtraction in
 * ec_arith.h; every result fully reduced.
 * Verification handles public data only, so nothing here is constant
 * time; it is correct for every input within the stated bounds, which the
 * callers guarantee (ec_int.h).
 */
#include <string.h>

#include "ec_arith.h"

#if VFIT_EC_ANY

void vfit_ec_load_(limb_t *x, const uint8_t *p, size_t nl)
{
	size_t i, j;

	for (i = 0; i < nl; i++) {
		const uint8_t *q = p + (nl - 1 - i) * LIMB_BYTES;
		limb_t v = 0;

		for (j = 0; j < LIMB_BYTES; j++)
			v = v << 8 | q[j];
		x[i] = v;
	}
}

int vfit_ec_less_(const limb_t *a, const limb_t *b, size_t nl)
{
	while (nl-- > 0) {
		if (a[nl] != b[nl])
			return a[nl] < b[nl];
	}
	return 0;
}

int vfit_ec_is_zero_(const limb_t *a, size_t nl)
{
	limb_t acc = 0;

	while (nl-- > 0)
		acc |= a[nl];
	return acc == 0;
}

int vfit_ec_equal_(const limb_t *a, const limb_t *b, size_t nl)
{
	return !memcmp(a, b, nl * sizeof(limb_t));
}

/* t[0 .. 2nl) = a * b, schoolbook. */
BODY void mul_wide(limb_t *t, const limb_t *a, const limb_t *b, size_t nl)
{
	size_t i, j;

	UNROLL
	for (j = 0; j < nl; j++)
		t[j] = 0;
	UNROLL
	for (i = 0; i < nl; i++) {
		limb_t c = 0;

		UNROLL
		for (j = 0; j < nl; j++) {
			/* (2^w-1)^2 + 2(2^w-1) = 2^2w - 1: no overflow */
			dlimb_t s = (dlimb_t)a[i] * b[j] + t[i + j] + c;

			t[i + j] = (limb_t)s;
			c = (limb_t)(s >> LIMB_BITS);
		}
		t[i + nl] = c;
	}
}

#if VFIT_EC_COMPACT
/*
 * The general product: a squaring of its own saves 6 of the 16 word
 * products (P-256, 64-bit limbs) but is code a size-optimised build does
 * not want.
 */
#define sqr_wide(t, a, nl) mul_wide(t, a, a, nl)
#else
/*
 * t[0 .. 2nl) = a^2: each cross product a[i]*a[j] (i < j) once, the sum
 * doubled by a one-bit shift, then the squares a[i]^2 added.
 */
BODY void sqr_wide(limb_t *t, const limb_t *a, size_t nl)
{
	limb_t c = 0;
	size_t i, j;

	UNROLL
	for (j = 0; j < 2 * nl; j++)
		t[j] = 0;
	UNROLL
	for (i = 0; i + 1 < nl; i++) {
		c = 0;
		UNROLL
		for (j = i + 1; j < nl; j++) {
			dlimb_t s = (dlimb_t)a[i] * a[j] + t[i + j] + c;

			t[i + j] = (limb_t)s;
			c = (limb_t)(s >> LIMB_BITS);
		}
		t[i + nl] = c;
	}
	/*
	 * The cross sum is below 2^(2nl*w - 1), so the shift loses nothing,
	 * and has no product in limb 0, so that stays 0.
	 */
	UNROLL
	for (j = 2 * nl - 1; j > 0; j--)
		t[j] = t[j] << 1 | t[j - 1] >> (LIMB_BITS - 1);
	c = 0;
	UNROLL
	for (i = 0; i < nl; i++) {
		dlimb_t q = (dlimb_t)a[i] * a[i];
		dlimb_t s = (dlimb_t)t[2 * i] + (limb_t)q + c;

		t[2 * i] = (limb_t)s;
		s = (dlimb_t)t[2 * i + 1] + (limb_t)(q >> LIMB_BITS) + (limb_t)(s >> LIMB_BITS);
		t[2 * i + 1] = (limb_t)s;
		c = (limb_t)(s >> LIMB_BITS);
	}
}
#endif

/*
 * Montgomery reduction: r = T * R^-1 mod m for T = t[0 .. 2nl) < R*m
 * (destroyed).  Each round adds u*m*2^(w*i) with u chosen so that limb i
 * becomes zero (u = t[i] * m0, m0 = -m^-1 mod 2^w); after nl rounds T + U*m
 * is divisible by R, and the quotient is < (R*m + R*m)/R = 2m: nl limbs
 * and the bit `top`, brought below m by one conditional subtraction.
 */
BODY void redc(limb_t *r, limb_t *t, const struct ec_mod *m, size_t nl)
{
	limb_t top = 0;
	size_t i, j;

	UNROLL
	for (i = 0; i < nl; i++) {
		limb_t u = t[i] * m->m0, c = 0;
		dlimb_t s;

		UNROLL
		for (j = 0; j < nl; j++) {
			s = (dlimb_t)u * m->m[j] + t[i + j] + c;
			t[i + j] = (limb_t)s;
			c = (limb_t)(s >> LIMB_BITS);
		}
		s = (dlimb_t)t[i + nl] + c + top;
		t[i + nl] = (limb_t)s;
		top = (limb_t)(s >> LIMB_BITS);
	}
	reduce_once(r, t + nl, top, m->m, nl);
}

#if !VFIT_EC_COMPACT && LIMB_BITS == 64 && VFIT_HAVE_ECDSA_P256
#define P256_REDC
/*
 * redc() for the P-256 prime, whose limbs are 2^64 - 1, 2^32 - 1, 0 and
 * 0xffffffff00000001: m0 = 1, so u = t[i], and u*p added at limb i is
 * u*2^64 (limb i becomes 0, u carried) + u*(2^32 - 1)*2^64, together
 * u*2^96 = u << 32 at limb i+1 and u >> 32 at limb i+2, then nothing, then
 * u * 0xffffffff00000001 at limbs i+3, i+4.  One multiplication a round
 * instead of four; the value and the bound are redc()'s.
 */
BODY void redc_p256(limb_t *r, limb_t *t, const limb_t *p)
{
	limb_t top = 0;
	size_t i;

	UNROLL
	for (i = 0; i < 4; i++) {
		limb_t u = t[i];
		dlimb_t m3 = (dlimb_t)u * p[3], s;

		s = (dlimb_t)t[i + 1] + (limb_t)(u << 32);
		t[i + 1] = (limb_t)s;
		s = (dlimb_t)t[i + 2] + (u >> 32) + (limb_t)(s >> 64);
		t[i + 2] = (limb_t)s;
		s = (dlimb_t)t[i + 3] + (limb_t)m3 + (limb_t)(s >> 64);
		t[i + 3] = (limb_t)s;
		s = (dlimb_t)t[i + 4] + (limb_t)(m3 >> 64) + (limb_t)(s >> 64) + top;
		t[i + 4] = (limb_t)s;
		top = (limb_t)(s >> 64);
	}
	reduce_once(r, t + 4, top, p, 4);
}
#endif

/* redc(), or its P-256 form where built and m is that prime. */
BODY void reduce(limb_t *r, limb_t *t, const struct ec_mod *m, size_t nl)
{
#ifdef P256_REDC
	if (m->form == EC_FORM_P256) {
		redc_p256(r, t, m->m);
		return;
	}
#endif
	redc(r, t, m, nl);
}

/* a * b < R*m as a < R, b < m. */
BODY void mont_n(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m, size_t nl)
{
	limb_t t[2 * EC_LIMBS];

	mul_wide(t, a, b, nl);
	reduce(r, t, m, nl);
}

BODY void sqr_n(limb_t *r, const limb_t *a, const struct ec_mod *m, size_t nl)
{
	limb_t t[2 * EC_LIMBS];

	sqr_wide(t, a, nl);
	reduce(r, t, m, nl);
}

void vfit_ec_mont_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m)
{
	SIZED(mont_n, m->nl, r, a, b, m);
}

void vfit_ec_sqr_(limb_t *r, const limb_t *a, const struct ec_mod *m)
{
	SIZED(sqr_n, m->nl, r, a, m);
}

void vfit_ec_add_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m)
{
	SIZED(add_n, m->nl, r, a, b, m);
}

void vfit_ec_sub_(limb_t *r, const limb_t *a, const limb_t *b, const struct ec_mod *m)
{
	SIZED(sub_n, m->nl, r, a, b, m);
}

#endif
