/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internal helpers shared by the hash files: the block
 * buffering every Merkle-Damgard hash needs, and the accelerated block
 * functions.  Everything here is static inline so that linking one hash
 * never drags in the others.
 */
#ifndef VFIT_HASH_INT_H
#define VFIT_HASH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfit/hash.h"
#include "../byteorder.h"

/*
 * Size-optimised builds (-Os, e.g. for Cortex-M) get looped rounds instead
 * of unrolled ones; -DVFIT_SHA_COMPACT asks for them at any level.
 */
#if defined(__OPTIMIZE_SIZE__) && !defined(VFIT_SHA_COMPACT)
#define VFIT_SHA_COMPACT 1
#endif

/* Compresses nblocks whole blocks at p into the chaining state st. */
typedef void (*md_blocks_fn)(void *st, const uint8_t *p, size_t nblocks);

/*
 * Feeds n bytes: tops up a partly filled buffer first, then hands every
 * whole block straight from the input to fn (long inputs are never
 * copied), and keeps the tail.  bs is the block size (a power of two) and
 * *len counts every byte so far, so len % bs is the buffer fill.  One loop
 * with one copy: each pass either compresses whole input blocks (buffer
 * empty) or copies what fits into the buffer, compressing it once full.
 */
static inline void md_update(void *st, md_blocks_fn fn, uint8_t *buf, size_t bs,
			     uint64_t *len, const void *p, size_t n)
{
	const uint8_t *in = p;
	size_t used = (size_t)(*len & (bs - 1)), take;

	*len += n;
	for (; n; in += take, n -= take) {
		if (!used && n >= bs) {
			take = n & ~(bs - 1);
			fn(st, in, n / bs);
			continue;
		}
		take = bs - used < n ? bs - used : n;
		memcpy(buf + used, in, take);
		used = (used + take) & (bs - 1);
		if (!used)
			fn(st, buf, 1);
	}
}

/*
 * Padding: 0x80, zeros, then the message length in bits in the last
 * lenb bytes of the final block (8 for 64-byte blocks, 16 for SHA-512's
 * 128-byte blocks; MD5 stores it little-endian).  If the length does not
 * fit after the 0x80 byte, one extra block of padding follows.
 */
static inline void md_final(void *st, md_blocks_fn fn, uint8_t *buf, size_t bs,
			    uint64_t len, size_t lenb, int big)
{
	size_t used = (size_t)(len & (bs - 1)), i;
	uint64_t bits = len << 3;

	buf[used++] = 0x80;
	if (used > bs - lenb) {
		memset(buf + used, 0, bs - used);
		fn(st, buf, 1);
		used = 0;
	}
	memset(buf + used, 0, bs - 8 - used);
	/* bits = len * 8; in a 16-byte field its top 3 bits spill into the upper half */
	if (lenb == 16)
		st_be64(buf + bs - 16, len >> 61);
	/* The low 64 bits a byte at a time, either order: less code than word stores. */
	for (i = 0; i < 8; i++, bits >>= 8)
		buf[big ? bs - 1 - i : bs - 8 + i] = (uint8_t)bits;
	fn(st, buf, 1);
}

/*
 * Accelerated SHA-1/SHA-256 block functions: x86-64 SHA-NI (lib/sha_x86.c,
 * detected with CPUID at init) or ARMv8 crypto extensions (lib/sha_arm.c,
 * present whenever the compiler targets them).  Build with
 * -DVFIT_HAVE_SHA_ACCEL=0 for a portable-only library.
 */
#ifndef VFIT_HAVE_SHA_ACCEL
#define VFIT_HAVE_SHA_ACCEL 1
#endif

#if VFIT_HAVE_SHA_ACCEL && defined(__GNUC__) && defined(__x86_64__)
#define VFIT_SHA_X86 1
#elif VFIT_HAVE_SHA_ACCEL && defined(__aarch64__) && \
	(defined(__ARM_FEATURE_SHA2) || defined(__ARM_FEATURE_CRYPTO))
#define VFIT_SHA_ARM 1
#endif

#if defined(VFIT_SHA_X86) || defined(VFIT_SHA_ARM)
#define VFIT_SHA_ACCEL 1
/* Whether this CPU runs the accelerated SHA-1/SHA-256 block functions. */
int vfit_sha_accel_ok_(void);
void vfit_sha1_blocks_accel_(void *st, const uint8_t *p, size_t nblocks);
void vfit_sha256_blocks_accel_(void *st, const uint8_t *p, size_t nblocks);
#endif

extern const uint32_t vfit_sha256_k_[64];
extern const uint64_t vfit_sha512_k_[80];

/*
 * SHA-512 blocks compressed into two chaining states at once, a SHA-384 and
 * a SHA-512 one (sha512_pair.c): on arm64, in the two lanes of NEON
 * registers.  Elsewhere the two are hashed one after the other.
 */
#if VFIT_HAVE_SHA384 && VFIT_HAVE_SHA512 && defined(__aarch64__) && defined(__ARM_NEON)
#define VFIT_SHA512_PAIR 1
void vfit_sha512_pair_blocks_(uint64_t x[8], uint64_t y[8], const uint8_t *p, size_t nblocks);
#endif

/*
 * Path selection for SHA-1/SHA-256 contexts (their `accel` field).  An
 * AUTO context puts off the CPU check until the message reaches
 * ACCEL_MIN_LEN bytes: under a hypervisor each CPUID traps and costs
 * microseconds, more than hashing a short message (RSA-PSS's MGF1 hashes
 * dozens of bytes at a time) in plain C.  Below that length, and for the
 * last partial blocks of such a message, the portable code runs.  Both
 * paths keep the state in the same form, so switching mid-message is safe.
 */
enum { ACCEL_NO, ACCEL_YES, ACCEL_LATER };
#define ACCEL_MIN_LEN 1024

/* Initial `accel` for impl, or -1 if the SHA instructions were demanded and are missing. */
static inline int accel_init(enum vfit_impl impl)
{
#ifdef VFIT_SHA_ACCEL
	if (impl == VFIT_IMPL_AUTO)
		return ACCEL_LATER;
	if (impl == VFIT_IMPL_ACCEL)
		return vfit_sha_accel_ok_() ? ACCEL_YES : -1;
	return ACCEL_NO;
#else
	return impl == VFIT_IMPL_ACCEL ? -1 : ACCEL_NO;
#endif
}

/* Whether to use the SHA instructions once the message is total bytes long. */
static inline int accel_use(uint8_t *accel, uint64_t total)
{
#ifdef VFIT_SHA_ACCEL
	if (*accel == ACCEL_LATER && total >= ACCEL_MIN_LEN)
		*accel = vfit_sha_accel_ok_() ? ACCEL_YES : ACCEL_NO;
	return *accel == ACCEL_YES;
#else
	(void)accel;
	(void)total;
	return 0;
#endif
}

#endif
