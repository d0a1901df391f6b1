/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-1 and SHA-256 block functions on the ARMv8 cryptography extensions.
 * Built only when the compiler targets them (-march=armv8-a+crypto, which
 * defines __ARM_FEATURE_SHA2 or __ARM_FEATURE_CRYPTO): such a build
 * promises the instructions, so there is nothing to detect at run time.
 * Elsewhere this file compiles to nothing.
 */
#include "vfit/hash.h"
#include "hash_int.h"

#ifdef VFIT_SHA_ARM

#include <arm_neon.h>

int vfit_sha_accel_ok_(void)
{
	return 1;
}

/* Four big-endian message words from 16 bytes. */
static inline uint32x4_t load_be(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

#if VFIT_HAVE_SHA256 || VFIT_HAVE_SHA224

/*
 * sha256h/sha256h2 do four rounds on ABCD and EFGH given W[t] + K[t] for
 * those rounds (h2 needs the ABCD from before the rounds).  W[t..t+3] for
 * t >= 16 is sha256su0 (W[t-16] + s0(W[t-15])) then sha256su1 (+ W[t-7]
 * + s1(W[t-2])), computed in the register that held W[t-16..t-13].
 */
#define QR(i, m0) do {							\
	uint32x4_t wk_ = vaddq_u32(m0, vld1q_u32(&vfit_sha256_k_[4 * (i)])); \
	uint32x4_t abcd_ = abcd;					\
	abcd = vsha256hq_u32(abcd, efgh, wk_);				\
	efgh = vsha256h2q_u32(efgh, abcd_, wk_);			\
} while (0)
#define QRS(i, m0, m1, m2, m3) do {					\
	QR(i, m0);							\
	m0 = vsha256su1q_u32(vsha256su0q_u32(m0, m1), m2, m3);		\
} while (0)

void vfit_sha256_blocks_accel_(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	uint32x4_t abcd = vld1q_u32(h), efgh = vld1q_u32(h + 4);
	uint32x4_t abcd0, efgh0, m0, m1, m2, m3;

	for (; nblocks; nblocks--, p += 64) {
		abcd0 = abcd;
		efgh0 = efgh;
		m0 = load_be(p);
		m1 = load_be(p + 16);
		m2 = load_be(p + 32);
		m3 = load_be(p + 48);
		QRS(0, m0, m1, m2, m3);
		QRS(1, m1, m2, m3, m0);
		QRS(2, m2, m3, m0, m1);
		QRS(3, m3, m0, m1, m2);
		QRS(4, m0, m1, m2, m3);
		QRS(5, m1, m2, m3, m0);
		QRS(6, m2, m3, m0, m1);
		QRS(7, m3, m0, m1, m2);
		QRS(8, m0, m1, m2, m3);
		QRS(9, m1, m2, m3, m0);
		QRS(10, m2, m3, m0, m1);
		QRS(11, m3, m0, m1, m2);
		QR(12, m0);
		QR(13, m1);
		QR(14, m2);
		QR(15, m3);
		abcd = vaddq_u32(abcd, abcd0);
		efgh = vaddq_u32(efgh, efgh0);
	}
	vst1q_u32(h, abcd);
	vst1q_u32(h + 4, efgh);
}

#endif

#if VFIT_HAVE_SHA1

/*
 * sha1c/sha1p/sha1m do four rounds (Ch, Parity, Maj) on ABCD with E as a
 * scalar; sha1h gives rol30(A), the E of the rounds after next four.  The
 * schedule is sha1su0 (W[t-16] ^ W[t-14] ^ W[t-8]) then sha1su1 (^ W[t-3],
 * rotate by one).
 */
#define Q4(OP, k, m0) do {						\
	uint32_t en_ = vsha1h_u32(vgetq_lane_u32(abcd, 0));		\
	abcd = OP(abcd, e, vaddq_u32(m0, vdupq_n_u32(k)));		\
	e = en_;							\
} while (0)
#define Q4S(OP, k, m0, m1, m2, m3) do {					\
	Q4(OP, k, m0);							\
	m0 = vsha1su1q_u32(vsha1su0q_u32(m0, m1, m2), m3);		\
} while (0)

void vfit_sha1_blocks_accel_(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	uint32x4_t abcd = vld1q_u32(h), abcd0, m0, m1, m2, m3;
	uint32_t e = h[4], e0;

	for (; nblocks; nblocks--, p += 64) {
		abcd0 = abcd;
		e0 = e;
		m0 = load_be(p);
		m1 = load_be(p + 16);
		m2 = load_be(p + 32);
		m3 = load_be(p + 48);
		Q4S(vsha1cq_u32, 0x5a827999, m0, m1, m2, m3);
		Q4S(vsha1cq_u32, 0x5a827999, m1, m2, m3, m0);
		Q4S(vsha1cq_u32, 0x5a827999, m2, m3, m0, m1);
		Q4S(vsha1cq_u32, 0x5a827999, m3, m0, m1, m2);
		Q4S(vsha1cq_u32, 0x5a827999, m0, m1, m2, m3);
		Q4S(vsha1pq_u32, 0x6ed9eba1, m1, m2, m3, m0);
		Q4S(vsha1pq_u32, 0x6ed9eba1, m2, m3, m0, m1);
		Q4S(vsha1pq_u32, 0x6ed9eba1, m3, m0, m1, m2);
		Q4S(vsha1pq_u32, 0x6ed9eba1, m0, m1, m2, m3);
		Q4S(vsha1pq_u32, 0x6ed9eba1, m1, m2, m3, m0);
		Q4S(vsha1mq_u32, 0x8f1bbcdc, m2, m3, m0, m1);
		Q4S(vsha1mq_u32, 0x8f1bbcdc, m3, m0, m1, m2);
		Q4S(vsha1mq_u32, 0x8f1bbcdc, m0, m1, m2, m3);
		Q4S(vsha1mq_u32, 0x8f1bbcdc, m1, m2, m3, m0);
		Q4S(vsha1mq_u32, 0x8f1bbcdc, m2, m3, m0, m1);
		Q4S(vsha1pq_u32, 0xca62c1d6, m3, m0, m1, m2);
		Q4(vsha1pq_u32, 0xca62c1d6, m0);
		Q4(vsha1pq_u32, 0xca62c1d6, m1);
		Q4(vsha1pq_u32, 0xca62c1d6, m2);
		Q4(vsha1pq_u32, 0xca62c1d6, m3);
		abcd = vaddq_u32(abcd, abcd0);
		e += e0;
	}
	vst1q_u32(h, abcd);
	h[4] = e;
}

#endif

#endif
