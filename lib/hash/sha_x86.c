/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-1 and SHA-256 block functions on the x86 SHA extensions (SHA-NI).
 * The functions carry their own target attribute, so the file builds with
 * the project's ordinary flags; callers use them only after
 * vfit_sha_accel_ok_() saw the instructions in CPUID.  On other
 * architectures this file compiles to nothing.
 */
#include "vfit/hash.h"
#include "hash_int.h"

#ifdef VFIT_SHA_X86

#include <cpuid.h>
#include <immintrin.h>

#define TARGET __attribute__((target("sha,sse4.1,ssse3")))

/*
 * CPUID.(7,0):EBX bit 29 is the SHA extensions; CPUID.1:ECX bit 9 is
 * SSSE3 (pshufb) and bit 19 SSE4.1 (pblendw, pextrd), which the code also
 * uses.  Asked afresh every time, as the library keeps no global state;
 * callers ask only for long messages (see accel_use()).
 */
int vfit_sha_accel_ok_(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	if (!(b & 1u << 29))
		return 0;
	__cpuid(1, a, b, c, d);
	return (c & 1u << 9) && (c & 1u << 19);
}

#if VFIT_HAVE_SHA256 || VFIT_HAVE_SHA224

/*
 * sha256rnds2 does two rounds on the state split as ABEF and CDGH, taking
 * W[t] + K[t] for the two rounds in the low 64 bits of its third operand;
 * the upper pair is moved down for the next two rounds.  The schedule
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16] for four words at a
 * time is sha256msg1 (the W[t-16] + s0 part), the W[t-7] terms shifted in
 * with palignr, and sha256msg2 (the s1 part, which needs the words just
 * computed).  m0..m3 hold W in a rotating window of four words each.
 */
#define RNDS4(m, i) do {						\
	msg = _mm_add_epi32(m, _mm_loadu_si128((const __m128i *)&vfit_sha256_k_[4 * (i)])); \
	cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);			\
	msg = _mm_shuffle_epi32(msg, 0x0e);				\
	abef = _mm_sha256rnds2_epu32(abef, cdgh, msg);			\
} while (0)
/* next += W[t-7..t-4], then the s1 terms from cur */
#define SCHED2(next, cur, prev) do {					\
	next = _mm_add_epi32(next, _mm_alignr_epi8(cur, prev, 4));	\
	next = _mm_sha256msg2_epu32(next, cur);				\
} while (0)
#define SCHED1(prev, cur) (prev = _mm_sha256msg1_epu32(prev, cur))
/* A middle group: four rounds with m0, extend m1, start on m3 */
#define STEP(i, m0, m1, m3) do {					\
	RNDS4(m0, i);							\
	SCHED2(m1, m0, m3);						\
	SCHED1(m3, m0);							\
} while (0)

TARGET void vfit_sha256_blocks_accel_(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i abef, cdgh, t, abef0, cdgh0, msg, m0, m1, m2, m3;

	/* h[0..3] = A B C D and h[4..7] = E F G H into ABEF and CDGH */
	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0xb1);
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 0x1b);
	abef = _mm_alignr_epi8(t, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, t, 0xf0);

	for (; nblocks; nblocks--, p += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

		RNDS4(m0, 0);
		RNDS4(m1, 1);
		SCHED1(m0, m1);
		RNDS4(m2, 2);
		SCHED1(m1, m2);
		STEP(3, m3, m0, m2);
		STEP(4, m0, m1, m3);
		STEP(5, m1, m2, m0);
		STEP(6, m2, m3, m1);
		STEP(7, m3, m0, m2);
		STEP(8, m0, m1, m3);
		STEP(9, m1, m2, m0);
		STEP(10, m2, m3, m1);
		STEP(11, m3, m0, m2);
		STEP(12, m0, m1, m3);
		RNDS4(m1, 13);
		SCHED2(m2, m1, m0);
		RNDS4(m2, 14);
		SCHED2(m3, m2, m1);
		RNDS4(m3, 15);

		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}

	/* back to A B C D and E F G H */
	t = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)h, _mm_blend_epi16(t, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)(h + 4), _mm_alignr_epi8(cdgh, t, 8));
}

#undef STEP

#endif

#if VFIT_HAVE_SHA1

/*
 * sha1rnds4 does four rounds with round function f (0..3 for rounds
 * 0-19, 20-39, ...) on ABCD (A in the top lane), given W[t] with E already
 * added to its top word.  sha1nexte computes that E (A from four rounds
 * earlier, rotated by 30) and adds it to the next four words.  The
 * schedule W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) is
 * sha1msg1 (W[t-16] ^ W[t-14]), a plain xor (W[t-8]) and sha1msg2 (W[t-3]
 * and the rotate).  e0 and e1 alternate between the E value being
 * consumed and the ABCD copy that becomes the next E.
 */
#define RNDS(eu, ek, f) do {						\
	ek = abcd;							\
	abcd = _mm_sha1rnds4_epu32(abcd, eu, f);			\
} while (0)
#define NEXTE(e, m) (e = _mm_sha1nexte_epu32(e, m))
/* Four rounds on cur; finish next, advance the two words after it. */
#define STEP(cur, next, prev, prev2, eu, ek, f) do {			\
	NEXTE(eu, cur);							\
	next = _mm_sha1msg2_epu32(next, cur);				\
	RNDS(eu, ek, f);						\
	prev = _mm_sha1msg1_epu32(prev, cur);				\
	prev2 = _mm_xor_si128(prev2, cur);				\
} while (0)

TARGET void vfit_sha1_blocks_accel_(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	const __m128i bswap = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
	__m128i abcd, abcd0, e0, e1, e00, m0, m1, m2, m3;

	abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	e0 = _mm_set_epi32((int)h[4], 0, 0, 0);

	for (; nblocks; nblocks--, p += 64) {
		abcd0 = abcd;
		e00 = e0;
		/* reversing all 16 bytes puts W[0] big-endian in the top lane */
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

		e0 = _mm_add_epi32(e0, m0);
		RNDS(e0, e1, 0);
		NEXTE(e1, m1);
		RNDS(e1, e0, 0);
		m0 = _mm_sha1msg1_epu32(m0, m1);
		NEXTE(e0, m2);
		RNDS(e0, e1, 0);
		m1 = _mm_sha1msg1_epu32(m1, m2);
		m0 = _mm_xor_si128(m0, m2);
		STEP(m3, m0, m2, m1, e1, e0, 0);
		STEP(m0, m1, m3, m2, e0, e1, 0);
		STEP(m1, m2, m0, m3, e1, e0, 1);
		STEP(m2, m3, m1, m0, e0, e1, 1);
		STEP(m3, m0, m2, m1, e1, e0, 1);
		STEP(m0, m1, m3, m2, e0, e1, 1);
		STEP(m1, m2, m0, m3, e1, e0, 1);
		STEP(m2, m3, m1, m0, e0, e1, 2);
		STEP(m3, m0, m2, m1, e1, e0, 2);
		STEP(m0, m1, m3, m2, e0, e1, 2);
		STEP(m1, m2, m0, m3, e1, e0, 2);
		STEP(m2, m3, m1, m0, e0, e1, 2);
		STEP(m3, m0, m2, m1, e1, e0, 3);
		STEP(m0, m1, m3, m2, e0, e1, 3);
		NEXTE(e1, m1);
		m2 = _mm_sha1msg2_epu32(m2, m1);
		RNDS(e1, e0, 3);
		m3 = _mm_xor_si128(m3, m1);
		NEXTE(e0, m2);
		m3 = _mm_sha1msg2_epu32(m3, m2);
		RNDS(e0, e1, 3);
		NEXTE(e1, m3);
		RNDS(e1, e0, 3);

		/* E after 80 rounds is A from round 76 rotated: nexte adds it */
		e0 = _mm_sha1nexte_epu32(e0, e00);
		abcd = _mm_add_epi32(abcd, abcd0);
	}

	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

#endif

#endif
