/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA public operation em = s^e mod n from U-Boot's pre-processed key node
 * (fit-format.md §4.2 and §5.2), with Montgomery arithmetic.
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
 * Worst case measured with -fcallgraph-info=su (own frames along the
 * deepest call chain, VFIT_RSA_MAX_BITS = 4096):
 *                               x86-64 gcc -O2   Cortex-M4 gcc -Os
 *   vfit_rsa_public                 3640              3204
 *   vfit_rsa_verify_pkcs1           4200              3748
 *   vfit_rsa_verify_pss             4600              4060
 * The arrays scale with VFIT_RSA_MAX_BITS (2048: about half).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfit/rsa.h"

/*
 * Arithmetic paths: -DVFIT_RSA_LIMB32=1 forces 32-bit limbs and
 * -DVFIT_RSA_NO_ASM=1 the portable C where faster paths exist.  On x86-64
 * the mulx/adcx/adox rows are used when the CPU has BMI2 and ADX:
 * always when the compiler targets such a CPU (-madx -mbmi2, or a -march
 * that has them), else chosen at run time in hosted ELF builds (below),
 * else never; -DVFIT_RSA_ADX=1 or =0 forces the choice.  Tests build every
 * path on one machine.
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
#elif defined(__x86_64__) && defined(__ELF__) && __STDC_HOSTED__ && !VFIT_RSA_NO_ASM && \
	!VFIT_RSA_LIMB32
#define RSA_ADX_RUNTIME 1
#define VFIT_RSA_ADX 1
#else
#define VFIT_RSA_ADX 0
#endif
#endif
#ifndef RSA_ADX_RUNTIME
#define RSA_ADX_RUNTIME 0
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

/*
 * Big-endian byte string of nl limbs (any alignment) to limbs, and back.
 * With 64-bit limbs on a little-endian GNU C target a limb is one
 * unaligned load and a byte swap: compilers do not turn the byte loop into
 * that, and three loads and a store of a 2048-bit number in bytes were 2%
 * of a verification.
 */
#if LIMB_BITS == 64 && defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static void load(limb_t *x, const uint8_t *p, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		limb_t v;

		memcpy(&v, p + (nl - 1 - i) * LIMB_BYTES, LIMB_BYTES);
		x[i] = __builtin_bswap64(v);
	}
}

static void store(uint8_t *p, const limb_t *x, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		limb_t v = __builtin_bswap64(x[i]);

		memcpy(p + (nl - 1 - i) * LIMB_BYTES, &v, LIMB_BYTES);
	}
}
#else
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
#endif

/* x -= n, returning the borrow. */
static limb_t sub(limb_t *x, const limb_t *n, size_t nl)
{
	limb_t borrow = 0;
	size_t i;

	for (i = 0; i < nl; i++) {
		/* a borrow sets all high bits of the double-width difference */
		dlimb_t d = (dlimb_t)x[i] - n[i] - borrow;

		x[i] = (limb_t)d;
		borrow = (limb_t)(d >> LIMB_BITS) & 1;
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
 * For a CPU with BMI2 and ADX: mulx leaves the flags alone, and adcx/adox
 * carry through CF and OF separately, so t[j] + lo(a*b[j]) (CF chain) and
 * + hi(a*b[j-1]) (OF chain) run side by side.  The loop control uses lea,
 * mov and jrcxz only, which keep both flags, so one asm statement carries
 * both chains through a whole row: blocks of four steps, then the n % 4
 * single ones (a row of the squaring has any length).  rcx counts up to 0
 * under base pointers past the end of each part: one lea per iteration.
 */
#define ADX_AT(off, t, b)                                       \
	"mulxq " off "(%[" b "],%%rcx,8), %[lo], %[hi]\n\t"    \
	"adcxq " off "(%[" t "],%%rcx,8), %[lo]\n\t"           \
	"adoxq %[c], %[lo]\n\t"                                 \
	"movq %[lo], " off "(%[" t "],%%rcx,8)\n\t"            \
	"movq %[hi], %[c]\n\t"
#define ADX_1(off) ADX_AT(off, "t", "b")
/* Blocks of four steps from label top until rcx reaches 0, then on at label done. */
#define ADX_QUADS(top, done)                                    \
	top ":\n\t"                                            \
	ADX_1("0") ADX_1("8") ADX_1("16") ADX_1("24")          \
	"leaq 4(%%rcx), %%rcx\n\t"                             \
	"jrcxz " done "f\n\t"                                  \
	"jmp " top "b\n"
/* The row's last carry: what is left in both chains, into c. */
#define ADX_FOLD "adcxq %[z], %[c]\n\t" "adoxq %[z], %[c]\n\t"

__attribute__((target("adx,bmi2")))
static limb_t row_adx(limb_t *t, const limb_t *b, size_t n, limb_t a)
{
	size_t ones = n % 4, quads = n - ones, idx = 0 - quads, neg_ones = 0 - ones;
	limb_t c = 0, lo, hi, zero;
	limb_t *tp = t + quads;
	const limb_t *bp = b + quads;

	__asm__ volatile("xorl %k[z], %k[z]\n\t" /* also clears CF and OF */
		"jrcxz 2f\n"
		ADX_QUADS("1", "2")
		"2:\n\t"
		"movq %[neg], %%rcx\n\t"
		"leaq (%[b],%[ones],8), %[b]\n\t"
		"leaq (%[t],%[ones],8), %[t]\n\t"
		"jrcxz 4f\n"
		"3:\n\t"
		ADX_1("0")
		"leaq 1(%%rcx), %%rcx\n\t"
		"jrcxz 4f\n\t"
		"jmp 3b\n"
		"4:\n\t"
		ADX_FOLD
		: [c] "+&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(zero),
		  [b] "+&r"(bp), [t] "+&r"(tp), "+c"(idx)
		: "d"(a), [ones] "r"(ones), [neg] "r"(neg_ones)
		: "cc", "memory");
	return c;
}

#ifndef __OPTIMIZE_SIZE__ /* sqr(): -Os squares with mul() */
/*
 * The squaring's last pass, t = 2*t + sum a[i]^2 * 2^(128i): the doubling
 * ripples through CF, the squares through OF.  Neither carries out of the
 * top: the cross products sum to below a^2/2, and the total is a^2.
 */
__attribute__((target("adx,bmi2")))
static void diag_adx(limb_t *t, const limb_t *a, size_t nl)
{
	size_t idx = 0 - 2 * nl;
	limb_t lo, hi, x0, x1;

	/* volatile: its only effect is on memory, the outputs are scratch */
	__asm__ volatile("xorl %k[x0], %k[x0]\n" /* clears CF and OF */
		"1:\n\t"
		"movq (%[a],%%rcx,4), %%rdx\n\t" /* a[i], i = nl + rcx/2 */
		"mulxq %%rdx, %[lo], %[hi]\n\t"
		"movq (%[t],%%rcx,8), %[x0]\n\t"
		"movq 8(%[t],%%rcx,8), %[x1]\n\t"
		"adcxq %[x0], %[x0]\n\t"
		"adcxq %[x1], %[x1]\n\t"
		"adoxq %[lo], %[x0]\n\t"
		"adoxq %[hi], %[x1]\n\t"
		"movq %[x0], (%[t],%%rcx,8)\n\t"
		"movq %[x1], 8(%[t],%%rcx,8)\n\t"
		"leaq 2(%%rcx), %%rcx\n\t"
		"jrcxz 2f\n\t"
		"jmp 1b\n"
		"2:\n\t"
		: [lo] "=&r"(lo), [hi] "=&r"(hi), [x0] "=&r"(x0), [x1] "=&r"(x1), "+c"(idx)
		: [a] "r"(a + nl), [t] "r"(t + 2 * nl)
		: "rdx", "cc", "memory");
}
#endif

/*
 * redc() below in one asm statement for nl % 4 == 0 (every U-Boot key
 * size): the rows of row_adx() with the outer loop, m = t[i] * n0 and the
 * carry into t[i + nl] in the same asm, no call and no C between rows.
 * Returns the bit carried out of the top limb.
 */
__attribute__((target("adx,bmi2")))
static limb_t redc_rows_adx(limb_t *t, const limb_t *n, size_t nl, limb_t n0)
{
	limb_t top = 0, c, lo, hi, zero;
	limb_t *te = t + nl;            /* end of row i: t + i + nl */
	size_t rows = nl, idx, neg = 0 - nl;

	__asm__ volatile("1:\n\t"
		"movq (%[t],%[neg],8), %%rdx\n\t" /* t[i] */
		"imulq %[n0], %%rdx\n\t"
		"movq %[neg], %%rcx\n\t"
		"xorl %k[c], %k[c]\n\t"
		"xorl %k[z], %k[z]\n" /* also clears CF and OF */
		ADX_QUADS("2", "3")
		"3:\n\t"
		ADX_FOLD
		"btq $0, %[top]\n\t"    /* CF = the carry left over from row i - 1 */
		"adcq %[c], (%[t])\n\t"
		"movl $0, %k[top]\n\t"
		"adcl $0, %k[top]\n\t"
		"leaq 8(%[t]), %[t]\n\t"
		"decq %[rows]\n\t"
		"jnz 1b\n\t"
		: [top] "+&r"(top), [c] "=&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi),
		  [z] "=&r"(zero), [t] "+&r"(te), [rows] "+&r"(rows), "=&c"(idx)
		: [b] "r"(n + nl), [n0] "r"(n0), [neg] "r"(neg)
		: "rdx", "cc", "memory");
	return top;
}

/* mul() for nl % 4 == 0: t[i + nl] = the carry of row i, as redc_rows_adx(). */
__attribute__((target("adx,bmi2")))
static void mul_rows_adx(limb_t *t, const limb_t *a, const limb_t *b, size_t nl)
{
	limb_t c, lo, hi, zero;
	limb_t *te = t + nl;            /* end of row i: t + i + nl */
	const limb_t *ap = a;
	size_t rows = nl, idx, neg = 0 - nl;

	/* volatile: its only effect is on memory */
	__asm__ volatile("1:\n\t"
		"movq (%[a]), %%rdx\n\t"
		"movq %[neg], %%rcx\n\t"
		"xorl %k[c], %k[c]\n\t"
		"xorl %k[z], %k[z]\n" /* also clears CF and OF */
		ADX_QUADS("2", "3")
		"3:\n\t"
		ADX_FOLD
		"movq %[c], (%[t])\n\t"
		"leaq 8(%[t]), %[t]\n\t"
		"leaq 8(%[a]), %[a]\n\t"
		"decq %[rows]\n\t"
		"jnz 1b\n\t"
		: [c] "=&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(zero),
		  [t] "+&r"(te), [a] "+&r"(ap), [rows] "+&r"(rows), "=&c"(idx)
		: [b] "r"(b + nl), [neg] "r"(neg)
		: "rdx", "cc", "memory");
}

#ifndef __OPTIMIZE_SIZE__
/*
 * The cross products of sqr() for nl % 4 == 0: row i is a[i] * a[i+1 ..
 * nl) into t[2i+1 .. i+nl), its carry to t[i + nl], rows 0 .. nl-2 (the
 * last row is empty).  Row i has 3 - i % 4 single steps, then whole blocks
 * of four up to the end (nl - 4 * (i / 4 + 1) limbs), so the counts follow
 * a fixed pattern: `ones` counts 3, 2, 1, 0 and nq (minus the block
 * part's length) goes up by 4 when it wraps.
 */
__attribute__((target("adx,bmi2")))
static void sqr_rows_adx(limb_t *t, const limb_t *a, size_t nl)
{
	const limb_t zero = 0;
	const limb_t *a_last = a + nl - 1, *ap = a, *bq;
	limb_t c, lo, hi, *tq;
	limb_t *te = t + nl;            /* end of row i: t + i + nl */
	size_t nq = 0 - (nl - 4), ones = 3, idx;

	__asm__ volatile("1:\n\t"
		"movq (%[a]), %%rdx\n\t"
		"leaq (%[t],%[nq],8), %[tq]\n\t" /* where the blocks start */
		"leaq (%[b],%[nq],8), %[bq]\n\t"
		"movq %[ones], %%rcx\n\t"
		"negq %%rcx\n\t"
		"xorl %k[c], %k[c]\n\t" /* also clears CF and OF */
		"jrcxz 3f\n"
		"2:\n\t"
		ADX_AT("0", "tq", "bq")
		"leaq 1(%%rcx), %%rcx\n\t"
		"jrcxz 3f\n\t"
		"jmp 2b\n"
		"3:\n\t"
		"movq %[nq], %%rcx\n\t"
		"jrcxz 5f\n"
		ADX_QUADS("4", "5")
		"5:\n\t"
		ADX_FOLD
		"movq %[c], (%[t])\n\t"
		"leaq 8(%[t]), %[t]\n\t"
		"leaq 8(%[a]), %[a]\n\t"
		"subq $1, %[ones]\n\t"
		"jns 6f\n\t"
		"movl $3, %k[ones]\n\t"
		"addq $4, %[nq]\n"
		"6:\n\t"
		"cmpq %[a_last], %[a]\n\t"
		"jne 1b\n\t"
		: [c] "=&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi), [tq] "=&r"(tq), [bq] "=&r"(bq),
		  [t] "+&r"(te), [a] "+&r"(ap), [nq] "+&r"(nq), [ones] "+&r"(ones), "=&c"(idx)
		: [b] "r"(a + nl), [z] "m"(zero), [a_last] "m"(a_last)
		: "rdx", "cc", "memory");
}
#endif
#endif

#if RSA_ADX_RUNTIME
/*
 * Whether this CPU has BMI2 and ADX (CPUID.(7,0):EBX bits 8 and 19), asked
 * once per process: an ifunc, resolved by the loader at start-up, picks
 * the function that answers.  Asking CPUID on every call was measured:
 * it traps to the hypervisor on virtual machines, 4.7 us per leaf here,
 * ~40% of an RSA-2048 verify; and lib/ keeps no state of its own to cache
 * it in.  (The loader's GOT slot is that state, read-only once resolved.)
 */
#include <cpuid.h>

static int adx_yes(void)
{
	return 1;
}

static int adx_no(void)
{
	return 0;
}

/* Named only in the ifunc attribute below: "used" for compilers that do not look there. */
__attribute__((used)) static int (*resolve_cpu_adx(void))(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return adx_no;
	__cpuid_count(7, 0, a, b, c, d);
	return (b >> 8 & 1) && (b >> 19 & 1) ? adx_yes : adx_no;
}

static int cpu_adx(void) __attribute__((ifunc("resolve_cpu_adx")));
#endif

#if !VFIT_RSA_ADX || RSA_ADX_RUNTIME
static inline limb_t mul_add_8(limb_t *t, const limb_t *b, limb_t a, limb_t c)
{
	__asm__("" MUL_ADD_1("0") MUL_ADD_1("8") MUL_ADD_1("16") MUL_ADD_1("24")
		MUL_ADD_1("32") MUL_ADD_1("40") MUL_ADD_1("48") MUL_ADD_1("56")
		: [c] "+&r"(c)
		: [a] "r"(a), [b] "r"(b), [t] "r"(t)
		: "rax", "rdx", "cc", "memory");
	return c;
}

static limb_t row_mulq(limb_t *t, const limb_t *b, size_t n, limb_t a)
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

/* The row the CPU has (adx: what cpu_adx() said for this verification). */
#if RSA_ADX_RUNTIME
#define ROW(adx, t, b, n, a) ((adx) ? row_adx(t, b, n, a) : row_mulq(t, b, n, a))
#define ADX_ON(adx) (adx)
#elif VFIT_RSA_ADX
#define ROW(adx, t, b, n, a) ((void)(adx), row_adx(t, b, n, a))
#define ADX_ON(adx) ((void)(adx), 1)
#else
#define ROW(adx, t, b, n, a) ((void)(adx), row_mulq(t, b, n, a))
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

/*
 * Called twice (mul() and redc(), or mont_mul() below); -Os would copy it
 * into both places, which on Thumb-2 costs 32 bytes more than two calls.
 */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
__attribute__((noinline))
#endif
static limb_t mul_add_row(limb_t *t, const limb_t *b, size_t n, limb_t a)
{
	limb_t c = 0;
	size_t j;

	for (j = 0; j < n; j++)
		c = mul_add_step(t + j, b + j, a, c);
	return c;
}
#define ROW(adx, t, b, n, a) ((void)(adx), mul_add_row(t, b, n, a))
#endif

/* The modulus and the work space of Montgomery multiplication mod n. */
struct mont {
	limb_t n[MAX_LIMBS];
	limb_t t[2 * MAX_LIMBS];        /* double-width product */
	limb_t n0;                      /* -n^-1 mod 2^LIMB_BITS */
	size_t nl;                      /* limbs in n */
#if RSA_ADX_RUNTIME
	int adx;                        /* the mulx/adcx/adox rows (cpu_adx()) */
#define ADX(m) ((m)->adx)
#else
#define ADX(m) 0
#endif
};

#if defined(__OPTIMIZE_SIZE__) && !defined(ADX_ON)
/*
 * Size-optimised builds without the x86-64 ADX rows (a Cortex-M
 * bootloader) interleave the product and the reduction (operand
 * scanning): for each limb a[i], t += a[i] * b, then t += m * n with m =
 * t[i] * n0, which clears limb i.  The m are those redc() would choose
 * after a whole mul() (limb i holds the same sum of products when it is
 * cleared), so the result is the same, and the linked Cortex-M4
 * verifier is 44 bytes smaller than with mul() and redc() apart.  Only
 * t[i + nl] collects the two carries of round i and the one left over
 * (top, at most 2).  The value at the end is (a*b + M*n)/R < R + n for
 * a, b < R, so top is at most 1 there and one subtraction leaves it
 * below R, as redc() does.  out may be a or b.
 */
#define MONT_FUSED 1
static void mont_mul(struct mont *m, limb_t *out, const limb_t *a, const limb_t *b)
{
	limb_t *t = m->t, top = 0;
	size_t nl = m->nl, i;
	dlimb_t s;

	memset(t, 0, nl * sizeof(limb_t));
	for (i = 0; i < nl; i++) {
		s = (dlimb_t)top + ROW(0, t + i, b, nl, a[i]);
		s += ROW(0, t + i, m->n, nl, t[i] * m->n0);
		t[i + nl] = (limb_t)s;
		top = (limb_t)(s >> LIMB_BITS);
	}
	memcpy(out, t + nl, nl * sizeof(limb_t));
	if (top)
		sub(out, m->n, nl);
}

#define mont_sqr(m, x) mont_mul(m, x, x, x)
#else
#define MONT_FUSED 0
/* m->t[0 .. 2nl) = a * b, schoolbook. */
static void mul(struct mont *m, const limb_t *a, const limb_t *b)
{
	limb_t *t = m->t;
	size_t nl = m->nl, i;
	int adx = ADX(m);

	for (i = 0; i < nl; i++)
		t[i] = 0;
#ifdef ADX_ON
	if (ADX_ON(adx) && nl % 4 == 0) {
		mul_rows_adx(t, a, b, nl);
		return;
	}
#endif
	for (i = 0; i < nl; i++)
		t[i + nl] = ROW(adx, t + i, b, nl, a[i]);
}

#ifdef __OPTIMIZE_SIZE__
/*
 * Size-optimised builds (-Os, e.g. a Cortex-M bootloader) square with the
 * general product: sqr() below halves the multiplications but is about
 * 150 bytes of Thumb-2 code, and the caller is the verification of one
 * signature per boot, where that code size costs more than the time.
 */
#define sqr(m, a) mul(m, a, a)
#else
/*
 * t[0 .. 2nl) = a^2: each cross product a[i]*a[j] (i < j) is computed once,
 * the sum is doubled by a one-bit shift while the squares a[i]^2 are added.
 * About half the multiplications of mul().
 */
static void sqr(struct mont *m, const limb_t *a)
{
	limb_t *t = m->t, hi = 0;
	size_t nl = m->nl, i;
	int adx = ADX(m);
	dlimb_t c = 0;

	for (i = 0; i < nl; i++)
		t[i] = 0;
#ifdef ADX_ON
	if (ADX_ON(adx)) {
		if (nl % 4 == 0) {
			sqr_rows_adx(t, a, nl);
			t[2 * nl - 1] = 0;
		} else {
			for (i = 0; i < nl; i++)
				t[i + nl] = ROW(adx, t + 2 * i + 1, a + i + 1, nl - i - 1, a[i]);
		}
		diag_adx(t, a, nl);
		return;
	}
#endif
	for (i = 0; i < nl; i++)
		t[i + nl] = ROW(adx, t + 2 * i + 1, a + i + 1, nl - i - 1, a[i]);
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
#endif

/*
 * Montgomery reduction: out = T * R^-1 mod n, up to one multiple of n, for
 * the T < R^2 held in m->t (destroyed).  Each round adds m*n*2^(w*i) with
 * m chosen so that limb i becomes zero (m = t[i] * n0, n0 = -n^-1 mod 2^w);
 * after nl rounds T + M*n is divisible by R and the quotient is
 * < (R^2 + R*n)/R = R + n.  `top` holds the one bit that can leave the top
 * limb; if it is set the value is >= R > n and subtracting n once brings
 * it below R.  So outputs stay < R ("almost reduced"), which is all the
 * next multiplication needs; callers reduce fully at the end.
 */
static void redc(struct mont *m, limb_t *out)
{
	/* locals: the x86-64 rows' "memory" clobber would reload struct fields */
	limb_t *t = m->t, n0 = m->n0, top = 0;
	size_t nl = m->nl, i = 0;
	int adx = ADX(m);

#ifdef ADX_ON
	if (ADX_ON(adx) && nl % 4 == 0) {
		top = redc_rows_adx(t, m->n, nl, n0);
		i = nl;
	}
#endif
	for (; i < nl; i++) {
		limb_t c = ROW(adx, t + i, m->n, nl, t[i] * n0);
		dlimb_t s = (dlimb_t)t[i + nl] + c + top;

		t[i + nl] = (limb_t)s;
		top = (limb_t)(s >> LIMB_BITS);
	}
	memcpy(out, t + nl, nl * sizeof(limb_t));
	if (top)
		sub(out, m->n, nl);
}

/* out = a * b * R^-1 mod n (almost reduced); out may be a or b. */
static void mont_mul(struct mont *m, limb_t *out, const limb_t *a, const limb_t *b)
{
	mul(m, a, b);
	redc(m, out);
}

/* x = x^2 * R^-1 mod n (almost reduced). */
static void mont_sqr(struct mont *m, limb_t *x)
{
	sqr(m, x);
	redc(m, x);
}

#endif

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
 * Checks key (see the rules at the top), sets up m and loads r-squared
 * into rr.  one is work space of nl limbs; it ends up holding R mod n.
 */
static enum vfit_result load_key(const struct vfit_rsa_key *key, struct mont *m, limb_t *rr,
				 limb_t *one)
{
	size_t nb = key->num_bits / 8, nl = key->num_bits / LIMB_BITS;

	if (key->num_bits < MIN_BITS || key->num_bits > VFIT_RSA_MAX_BITS ||
	    key->num_bits % 64 != 0)
		return VFIT_ERR_KEY;
	if (!(key->modulus[0] & 0x80) || !(key->modulus[nb - 1] & 1))
		return VFIT_ERR_KEY;
	if (!(key->exponent & 1) || key->exponent < 3)
		return VFIT_ERR_KEY;
	m->nl = nl;
#if RSA_ADX_RUNTIME
	m->adx = cpu_adx();
#endif
	load(m->n, key->modulus, nl);
	m->n0 = neg_inverse(m->n[0]);
	if ((uint32_t)m->n0 != key->n0inv)
		return VFIT_ERR_KEY;

	load(rr, key->rr, nl);
	if (geq(rr, m->n, nl))
		return VFIT_ERR_KEY;
	/* one = mont(rr, 1): T is rr with a zero high half. */
#if MONT_FUSED
	memset(one, 0, nl * sizeof(limb_t));
	one[0] = 1;
	mont_mul(m, one, rr, one);
#else
	memcpy(m->t, rr, nl * sizeof(limb_t));
	memset(m->t + nl, 0, nl * sizeof(limb_t));
	redc(m, one);
#endif
	/*
	 * It must be R - n, i.e. 0 - one == n in nl limbs (one < R, and
	 * one == 0 would give 0, never the odd n).
	 */
	memset(m->t, 0, nl * sizeof(limb_t));
	sub(m->t, one, nl);
	return memcmp(m->t, m->n, nl * sizeof(limb_t)) ? VFIT_ERR_KEY : VFIT_OK;
}

enum vfit_result vfit_rsa_public(const struct vfit_rsa_key *key, const uint8_t *sig,
				 size_t sig_len, uint8_t *em)
{
	struct mont m;
	limb_t s[MAX_LIMBS], sr[MAX_LIMBS], acc[MAX_LIMBS];
	unsigned int left = 64;         /* bits of e from its top one down */
	uint64_t e;
	enum vfit_result r;

	if (!key || !key->modulus || !key->rr || !sig || !em)
		return VFIT_ERR_PARAM;
	e = key->exponent;
	r = load_key(key, &m, sr, acc);
	if (r != VFIT_OK)
		return r;
	if (sig_len != key->num_bits / 8)
		return VFIT_ERR_SIG_LENGTH;
	if (memcmp(sig, key->modulus, sig_len) >= 0)
		return VFIT_ERR_SIG_RANGE;

	/*
	 * Left-to-right binary exponentiation in Montgomery form.  sr = s*R
	 * (mont(s, R^2), sr holding R^2 mod n); acc starts as sr for the top
	 * bit of e.  Each lower bit squares acc and, where set, multiplies by
	 * sr; the last bit (e is odd) multiplies by plain s instead, which also
	 * leaves Montgomery form: mont(x*R, s) = x*s.
	 */
	load(s, sig, m.nl);
	mont_mul(&m, sr, s, sr);
	memcpy(acc, sr, m.nl * sizeof(limb_t));
	/* e's bits from the top, each shifted into bit 63 (e >= 3 has a top one). */
	for (; !(e >> 63); e <<= 1)
		left--;
	while (--left) {
		e <<= 1;
		mont_sqr(&m, acc);
		if (e >> 63)
			mont_mul(&m, acc, acc, left > 1 ? sr : s);
	}
	/* acc*s < R*n, so the result is < (R*n + R*n)/R = 2n: one subtraction. */
	if (geq(acc, m.n, m.nl))
		sub(acc, m.n, m.nl);
	store(em, acc, m.nl);
	return VFIT_OK;
}
