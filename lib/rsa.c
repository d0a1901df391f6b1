/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA public operation em = s^e mod n from U-Boot's pre-processed key node
 * (spec sections 4.2 and 5.2), with Montgomery arithmetic.
 *
 * Numbers are arrays of limbs, least significant first.  A limb is 64 bits
 * where the compiler has a 128-bit type for the double-width product
 * (x86-64, aarch64) and 32 bits otherwise (32-bit ARM), from the same code.
 * Key sizes are multiples of 64 bits, so nl limbs hold exactly num_bits bits
 * either way and R = 2^num_bits is the Montgomery radix in both builds, which
 * is what the key node's r-squared was computed for.
 *
 * Key rules (checked on every call; the key usually points into an FDT that
 * nobody has vetted):
 *   - 1024 <= num_bits <= VFIT_RSA_MAX_BITS and num_bits % 64 == 0.  U-Boot
 *     keys are 2048/3072/4096; the FIT layer demands the size its algo names.
 *   - n odd with its top bit set, so bit length(n) == num_bits and
 *     R/2 < n < R.
 *   - e odd and >= 3 (any 64-bit value: 3, 17, 65537, ...).
 *   - n0inv == -n^-1 mod 2^32.  We recompute -n^-1 mod 2^LIMB_BITS ourselves
 *     (Newton) and use that; the stored cell must equal its low 32 bits.
 *   - rr < n and mont(rr, 1) == R mod n == R - n.  Since mont(x, 1) is
 *     x * R^-1 mod n and rr < n, this holds iff rr == R^2 mod n exactly.
 * Any failure is VFIT_ERR_KEY.  The signature must be exactly num_bits/8
 * bytes (VFIT_ERR_SIG_LENGTH) and, as big-endian integer, below n
 * (VFIT_ERR_SIG_RANGE).  The latter is stricter than U-Boot, which silently
 * reduces s mod n; an honest signer never produces s >= n.
 *
 * Timing: verification handles public data only (signature, key, digest),
 * so the exponentiation is not constant time.  The padding checks compare
 * in constant time anyway (rsa_pkcs1.c, rsa_pss.c).
 *
 * Stack: vfit_rsa_public() keeps six arrays of VFIT_RSA_MAX_BITS bits
 * (n, s, s*R, acc and the double-width product t), 6 * 512 = 3072 bytes for
 * 4096-bit keys whatever the limb size; the helpers are small leaves.
 * Worst case measured with -fstack-usage (own frames along the deepest
 * call chain, VFIT_RSA_MAX_BITS = 4096):
 *                               x86-64 gcc -O2   Cortex-M4 gcc -Os
 *   vfit_rsa_public                 3368              3220
 *   vfit_rsa_verify_pkcs1           3928              3764
 *   vfit_rsa_verify_pss             4328              4076
 * The arrays scale with VFIT_RSA_MAX_BITS (2048: about half).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfit/rsa.h"

/*
 * Arithmetic paths: -DVFIT_RSA_LIMB32=1 forces 32-bit limbs and
 * -DVFIT_RSA_NO_ASM=1 the portable C where faster paths exist;
 * VFIT_RSA_ADX (x86-64) defaults to whether the compiler targets a CPU with
 * BMI2 and ADX.  Tests build every path on one machine.
 */
#ifndef VFIT_RSA_LIMB32
#define VFIT_RSA_LIMB32 0
#endif
#ifndef VFIT_RSA_NO_ASM
#define VFIT_RSA_NO_ASM 0
#endif
#ifndef VFIT_RSA_ADX
#if defined(__ADX__) && defined(__BMI2__)
#define VFIT_RSA_ADX 1
#else
#define VFIT_RSA_ADX 0
#endif
#endif

#if defined(__SIZEOF_INT128__) && !VFIT_RSA_LIMB32
typedef uint64_t limb_t;
__extension__ typedef unsigned __int128 dlimb_t;
#define LIMB_BITS 64
#else
typedef uint32_t limb_t;
typedef uint64_t dlimb_t;
#define LIMB_BITS 32
#endif

#define LIMB_BYTES (LIMB_BITS / 8)
#define MAX_LIMBS (VFIT_RSA_MAX_BITS / LIMB_BITS)
#define MIN_BITS 1024

_Static_assert(VFIT_RSA_MAX_BITS % 64 == 0 && VFIT_RSA_MAX_BITS >= MIN_BITS,
	       "VFIT_RSA_MAX_BITS must be a multiple of 64, at least 1024");

/* Big-endian byte string of nl limbs (any alignment) to limbs. */
static void load(limb_t *x, const uint8_t *p, size_t nl)
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

static void store(uint8_t *p, const limb_t *x, size_t nl)
{
	size_t i, j;

	for (i = 0; i < nl; i++) {
		uint8_t *q = p + (nl - 1 - i) * LIMB_BYTES;
		limb_t v = x[i];

		for (j = LIMB_BYTES; j-- > 0; v >>= 8)
			q[j] = (uint8_t)v;
	}
}

/* x -= n, returning the borrow. */
static limb_t sub(limb_t *x, const limb_t *n, size_t nl)
{
	limb_t borrow = 0;
	size_t i;

	for (i = 0; i < nl; i++) {
		limb_t a = x[i], b = n[i];
		limb_t d = a - b - borrow;

		borrow = (a < b) | ((a == b) & borrow);
		x[i] = d;
	}
	return borrow;
}

/* Whether x >= n. */
static int geq(const limb_t *x, const limb_t *n, size_t nl)
{
	size_t i = nl;

	while (i-- > 0) {
		if (x[i] != n[i])
			return x[i] > n[i];
	}
	return 1;
}

/*
 * Every product goes through mul_add_row(), t[0 .. n) += a * b[0 .. n)
 * returning the limb carried out, so that is the one loop worth making fast.
 */
#if defined(__x86_64__) && defined(__GNUC__) && LIMB_BITS == 64 && !VFIT_RSA_NO_ASM
/*
 * One step in x86-64 assembly (baseline ISA).  The product and the add of
 * t[j] do not depend on the carry, so the serial chain per limb is only
 * add + adc: about twice the speed of what compilers make of the 128-bit C.
 */
#define MUL_ADD_1(off)                                          \
	"movq " off "(%[b]), %%rax\n\t"                        \
	"mulq %[a]\n\t"                                         \
	"addq " off "(%[t]), %%rax\n\t"                        \
	"adcq $0, %%rdx\n\t"                                    \
	"addq %[c], %%rax\n\t"                                  \
	"adcq $0, %%rdx\n\t"                                    \
	"movq %%rax, " off "(%[t])\n\t"                        \
	"movq %%rdx, %[c]\n\t"

static inline limb_t mul_add_1(limb_t *t, const limb_t *b, limb_t a, limb_t c)
{
	__asm__("" MUL_ADD_1("0")
		: [c] "+&r"(c)
		: [a] "r"(a), [b] "r"(b), [t] "r"(t)
		: "rax", "rdx", "cc", "memory");
	return c;
}

#if VFIT_RSA_ADX
/*
 * Built for a CPU with BMI2 and ADX (-mbmi2 -madx, or a -march that has
 * them): mulx leaves the flags alone, and adcx/adox carry through CF and OF
 * separately, so t[j] + lo(a*b[j]) (CF chain) and + hi(a*b[j-1]) (OF chain)
 * run side by side.  The loop control uses lea and jrcxz only, which keep
 * both flags.  About 25% faster than the mulq rows.  (A run-time CPUID
 * check instead was measured: CPUID traps to the hypervisor on virtual
 * machines, 4.7 us here, two leaves ~40% of an RSA-2048 verify, and lib/
 * may not cache the answer.)
 */
#define ADX_1(off)                                              \
	"mulxq " off "(%[b]), %[lo], %[hi]\n\t"                \
	"adcxq " off "(%[t]), %[lo]\n\t"                       \
	"adoxq %[c], %[lo]\n\t"                                 \
	"movq %[lo], " off "(%[t])\n\t"                        \
	"movq %[hi], %[c]\n\t"

static limb_t mul_add_row(limb_t *t, const limb_t *b, size_t n, limb_t a)
{
	size_t j = n & ~(size_t)3, blocks = n / 4;
	limb_t c = 0, lo, hi, zero;
	limb_t *tp = t;
	const limb_t *bp = b;

	if (blocks) {
		__asm__("xorl %k[z], %k[z]\n\t" /* also clears CF and OF */
			"1:\n\t"
			ADX_1("0") ADX_1("8") ADX_1("16") ADX_1("24")
			"leaq 32(%[b]), %[b]\n\t"
			"leaq 32(%[t]), %[t]\n\t"
			"leaq -1(%%rcx), %%rcx\n\t"
			"jrcxz 2f\n\t"
			"jmp 1b\n\t"
			"2:\n\t"
			"adcxq %[z], %[c]\n\t"
			"adoxq %[z], %[c]\n\t"
			: [c] "+&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(zero),
			  [b] "+&r"(bp), [t] "+&r"(tp), "+c"(blocks)
			: "d"(a)
			: "cc", "memory");
	}
	for (; j < n; j++)
		c = mul_add_1(t + j, b + j, a, c);
	return c;
}
#else
static inline limb_t mul_add_8(limb_t *t, const limb_t *b, limb_t a, limb_t c)
{
	__asm__("" MUL_ADD_1("0") MUL_ADD_1("8") MUL_ADD_1("16") MUL_ADD_1("24")
		MUL_ADD_1("32") MUL_ADD_1("40") MUL_ADD_1("48") MUL_ADD_1("56")
		: [c] "+&r"(c)
		: [a] "r"(a), [b] "r"(b), [t] "r"(t)
		: "rax", "rdx", "cc", "memory");
	return c;
}

static limb_t mul_add_row(limb_t *t, const limb_t *b, size_t n, limb_t a)
{
	limb_t c = 0;
	size_t j = 0;

	for (; j + 8 <= n; j += 8)
		c = mul_add_8(t + j, b + j, a, c);
	for (; j < n; j++)
		c = mul_add_1(t + j, b + j, a, c);
	return c;
}
#endif
#else
/* *t += a * *b + c, returning the high limb as the next carry. */
static inline limb_t mul_add_step(limb_t *t, const limb_t *b, limb_t a, limb_t c)
{
	/* At most (2^w-1)^2 + 2(2^w-1) = 2^2w - 1: no overflow. */
	dlimb_t p = (dlimb_t)a * *b + *t + c;

	*t = (limb_t)p;
	return (limb_t)(p >> LIMB_BITS);
}

static limb_t mul_add_row(limb_t *t, const limb_t *b, size_t n, limb_t a)
{
	limb_t c = 0;
	size_t j;

	for (j = 0; j < n; j++)
		c = mul_add_step(t + j, b + j, a, c);
	return c;
}
#endif

/* t[0 .. 2nl) = a * b, schoolbook. */
static void mul(limb_t *t, const limb_t *a, const limb_t *b, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++)
		t[i] = 0;
	for (i = 0; i < nl; i++)
		t[i + nl] = mul_add_row(t + i, b, nl, a[i]);
}

/*
 * t[0 .. 2nl) = a^2: each cross product a[i]*a[j] (i < j) is computed once,
 * the sum is doubled by a one-bit shift while the squares a[i]^2 are added.
 * About half the multiplications of mul().
 */
static void sqr(limb_t *t, const limb_t *a, size_t nl)
{
	limb_t hi = 0;
	dlimb_t c = 0;
	size_t i;

	for (i = 0; i < nl; i++)
		t[i] = 0;
	for (i = 0; i < nl; i++)
		t[i + nl] = mul_add_row(t + 2 * i + 1, a + i + 1, nl - i - 1, a[i]);
	for (i = 0; i < nl; i++) {
		dlimb_t sq = (dlimb_t)a[i] * a[i];
		limb_t lo = t[2 * i], up = t[2 * i + 1];

		c += (limb_t)sq + (dlimb_t)(limb_t)(lo << 1 | hi);
		t[2 * i] = (limb_t)c;
		c >>= LIMB_BITS;
		c += (limb_t)(sq >> LIMB_BITS) +
		     (dlimb_t)(limb_t)(up << 1 | lo >> (LIMB_BITS - 1));
		t[2 * i + 1] = (limb_t)c;
		c >>= LIMB_BITS;
		hi = up >> (LIMB_BITS - 1);
	}
}

/*
 * Montgomery reduction: out = T * R^-1 mod n, up to one multiple of n, for
 * the T < R^2 held in t[0 .. 2nl) (t is destroyed).  Each round adds
 * m*n*2^(w*i) with m chosen so that limb i becomes zero (m = t[i] * n0,
 * n0 = -n^-1 mod 2^w); after nl rounds T + M*n is divisible by R and the
 * quotient is < (R^2 + R*n)/R = R + n.  `top` holds the one bit that can
 * leave the top limb; if it is set the value is >= R > n and subtracting
 * n once brings it below R.  So outputs stay < R ("almost reduced"), which
 * is all the next multiplication needs; callers reduce fully at the end.
 */
static void redc(limb_t *out, limb_t *t, const limb_t *n, limb_t n0, size_t nl)
{
	limb_t top = 0;
	size_t i;

	for (i = 0; i < nl; i++) {
		limb_t c = mul_add_row(t + i, n, nl, t[i] * n0);
		dlimb_t s = (dlimb_t)t[i + nl] + c + top;

		t[i + nl] = (limb_t)s;
		top = (limb_t)(s >> LIMB_BITS);
	}
	memcpy(out, t + nl, nl * sizeof(limb_t));
	if (top)
		sub(out, n, nl);
}

/*
 * -x^-1 mod 2^w for odd x.  y = x is an inverse mod 8 (odd squares are 1
 * mod 8); each Newton step y = y(2 - xy) doubles the number of correct low
 * bits: 3, 6, 12, 24, 48, 96.
 */
static limb_t neg_inverse(limb_t x)
{
	limb_t y = x;
	int i;

	for (i = 0; i < 5; i++)
		y = (limb_t)(y * (limb_t)(2 - x * y));
	return (limb_t)(0 - y);
}

/*
 * Checks key (see the rules at the top) and loads n and n0.  t and scratch
 * are work space of 2*nl and nl limbs.
 */
static enum vfit_result load_key(const struct vfit_rsa_key *key, limb_t *n, limb_t *n0,
				 limb_t *t, limb_t *scratch)
{
	size_t nb = key->num_bits / 8, nl = key->num_bits / LIMB_BITS, i;
	limb_t carry = 0;

	if (key->num_bits < MIN_BITS || key->num_bits > VFIT_RSA_MAX_BITS ||
	    key->num_bits % 64 != 0)
		return VFIT_ERR_KEY;
	if (!(key->modulus[0] & 0x80) || !(key->modulus[nb - 1] & 1))
		return VFIT_ERR_KEY;
	if (!(key->exponent & 1) || key->exponent < 3)
		return VFIT_ERR_KEY;
	load(n, key->modulus, nl);
	*n0 = neg_inverse(n[0]);
	if ((uint32_t)*n0 != key->n0inv)
		return VFIT_ERR_KEY;

	load(t, key->rr, nl);
	if (geq(t, n, nl))
		return VFIT_ERR_KEY;
	for (i = nl; i < 2 * nl; i++)
		t[i] = 0;
	redc(scratch, t, n, *n0, nl);
	/* scratch + n must be exactly R: all limbs wrap to zero with a carry out. */
	for (i = 0; i < nl; i++) {
		limb_t s = scratch[i] + n[i];
		limb_t c1 = s < n[i];

		s += carry;
		carry = c1 | (s < carry);
		if (s != 0)
			return VFIT_ERR_KEY;
	}
	return carry ? VFIT_OK : VFIT_ERR_KEY;
}

enum vfit_result vfit_rsa_public(const struct vfit_rsa_key *key, const uint8_t *sig,
				 size_t sig_len, uint8_t *em)
{
	limb_t n[MAX_LIMBS], s[MAX_LIMBS], sr[MAX_LIMBS], acc[MAX_LIMBS];
	limb_t t[2 * MAX_LIMBS];
	limb_t n0;
	enum vfit_result r;
	size_t nl;
	int j;

	if (!key || !key->modulus || !key->rr || !sig || !em)
		return VFIT_ERR_PARAM;
	r = load_key(key, n, &n0, t, acc);
	if (r != VFIT_OK)
		return r;
	if (sig_len != key->num_bits / 8)
		return VFIT_ERR_SIG_LENGTH;
	if (memcmp(sig, key->modulus, sig_len) >= 0)
		return VFIT_ERR_SIG_RANGE;
	nl = key->num_bits / LIMB_BITS;

	/*
	 * Left-to-right binary exponentiation in Montgomery form.  sr = s*R
	 * (mont(s, R^2)); acc starts as sr for the top bit of e.  Bits below
	 * the top one square acc and multiply by sr where set; the last bit
	 * (e is odd) multiplies by plain s instead, which also leaves
	 * Montgomery form: mont(x*R, s) = x*s.
	 */
	load(s, sig, nl);
	load(acc, key->rr, nl);
	mul(t, s, acc, nl);
	redc(sr, t, n, n0, nl);
	memcpy(acc, sr, nl * sizeof(limb_t));
	j = 63;
	while (!(key->exponent >> j & 1))
		j--;
	while (--j > 0) {
		sqr(t, acc, nl);
		redc(acc, t, n, n0, nl);
		if (key->exponent >> j & 1) {
			mul(t, acc, sr, nl);
			redc(acc, t, n, n0, nl);
		}
	}
	sqr(t, acc, nl);
	redc(acc, t, n, n0, nl);
	mul(t, acc, s, nl);
	redc(acc, t, n, n0, nl);
	/* acc*s < R*n, so the result is < (R*n + R*n)/R = 2n: one subtraction. */
	if (geq(acc, n, nl))
		sub(acc, n, nl);
	store(em, acc, nl);
	return VFIT_OK;
}
