/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-384 and SHA-512 of the same message side by side: the two differ
 * only in their initial values (and in how much of the state they
 * output), so the message schedule W[t] + K[t] of each block is computed
 * once for both, and on arm64 the rounds of the two run in the two 64-bit
 * lanes of NEON registers: lane 0 holds one state, lane 1 the other.
 * Measured boot with a sha384 and a sha512 bank hashes every image with
 * both (lib/hash/hash_set.c); each alone costs as much as the pair here.
 *
 * NEON has no 64-bit rotate: ror(x, n) is a shift right and a shift left
 * inserted (sli) into it.  Ch and Maj are each one bit select (bsl).
 */
#include "vfit/hash.h"
#include "hash_int.h"

#ifdef VFIT_SHA512_PAIR

#include <arm_neon.h>

#define SROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define SS0(x) (SROR(x, 1) ^ SROR(x, 8) ^ ((x) >> 7))
#define SS1(x) (SROR(x, 19) ^ SROR(x, 61) ^ ((x) >> 6))

/* W[t] + K[t] for the 80 rounds of the block at p: a rolling 16-word window, unrolled by 16. */
#define WNEXT(i) (w[i] += SS1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] + SS0(w[((i) + 1) & 15]))
#define W1(op, t, i) (wk[(t) + (i)] = op(i) + vfit_sha512_k_[(t) + (i)])
#define W16(op, t) do {							\
	W1(op, t, 0); W1(op, t, 1); W1(op, t, 2); W1(op, t, 3);		\
	W1(op, t, 4); W1(op, t, 5); W1(op, t, 6); W1(op, t, 7);		\
	W1(op, t, 8); W1(op, t, 9); W1(op, t, 10); W1(op, t, 11);	\
	W1(op, t, 12); W1(op, t, 13); W1(op, t, 14); W1(op, t, 15);	\
} while (0)

static void schedule(uint64_t wk[80], const uint8_t *p)
{
	uint64_t w[16];
	unsigned int t;

	for (t = 0; t < 16; t++)
		w[t] = ld_be64(p + 8 * t);
#define WLOAD(i) w[i]
	W16(WLOAD, 0);
	for (t = 16; t < 80; t += 16)
		W16(WNEXT, t);
}

#define VROR(x, n) vsliq_n_u64(vshrq_n_u64(x, n), x, 64 - (n))
#define BS0(x) veorq_u64(veorq_u64(VROR(x, 28), VROR(x, 34)), VROR(x, 39))
#define BS1(x) veorq_u64(veorq_u64(VROR(x, 14), VROR(x, 18)), VROR(x, 41))

/*
 * One round on both lanes: Ch(e, f, g) selects f where e is set, else g;
 * Maj(a, b, c) is c where a and b differ, else b.
 */
#define RND(a, b, c, d, e, f, g, h, t) do {				\
	uint64x2_t t1_ = vaddq_u64(vaddq_u64(h, vld1q_dup_u64(&wk[t])),	\
				   vaddq_u64(BS1(e), vbslq_u64(e, f, g))); \
	d = vaddq_u64(d, t1_);						\
	h = vaddq_u64(t1_, vaddq_u64(BS0(a),				\
				     vbslq_u64(veorq_u64(a, b), c, b)));	\
} while (0)

#define R8(t) do {							\
	RND(a, b, c, d, e, f, g, h, (t));				\
	RND(h, a, b, c, d, e, f, g, (t) + 1);				\
	RND(g, h, a, b, c, d, e, f, (t) + 2);				\
	RND(f, g, h, a, b, c, d, e, (t) + 3);				\
	RND(e, f, g, h, a, b, c, d, (t) + 4);				\
	RND(d, e, f, g, h, a, b, c, (t) + 5);				\
	RND(c, d, e, f, g, h, a, b, (t) + 6);				\
	RND(b, c, d, e, f, g, h, a, (t) + 7);				\
} while (0)

/* Interleaves the two states word by word: lane 0 from x, lane 1 from y. */
static inline uint64x2_t pair(const uint64_t *x, const uint64_t *y, unsigned int i)
{
	return vcombine_u64(vcreate_u64(x[i]), vcreate_u64(y[i]));
}

void vfit_sha512_pair_blocks_(uint64_t x[8], uint64_t y[8], const uint8_t *p, size_t nblocks)
{
	uint64x2_t a = pair(x, y, 0), b = pair(x, y, 1), c = pair(x, y, 2), d = pair(x, y, 3);
	uint64x2_t e = pair(x, y, 4), f = pair(x, y, 5), g = pair(x, y, 6), h = pair(x, y, 7);
	uint64x2_t s[8];
	uint64_t wk[80];
	unsigned int t;

	for (; nblocks; nblocks--, p += 128) {
		s[0] = a, s[1] = b, s[2] = c, s[3] = d;
		s[4] = e, s[5] = f, s[6] = g, s[7] = h;
		schedule(wk, p);
		for (t = 0; t < 80; t += 8)
			R8(t);
		a = vaddq_u64(a, s[0]), b = vaddq_u64(b, s[1]);
		c = vaddq_u64(c, s[2]), d = vaddq_u64(d, s[3]);
		e = vaddq_u64(e, s[4]), f = vaddq_u64(f, s[5]);
		g = vaddq_u64(g, s[6]), h = vaddq_u64(h, s[7]);
	}
	x[0] = vgetq_lane_u64(a, 0), y[0] = vgetq_lane_u64(a, 1);
	x[1] = vgetq_lane_u64(b, 0), y[1] = vgetq_lane_u64(b, 1);
	x[2] = vgetq_lane_u64(c, 0), y[2] = vgetq_lane_u64(c, 1);
	x[3] = vgetq_lane_u64(d, 0), y[3] = vgetq_lane_u64(d, 1);
	x[4] = vgetq_lane_u64(e, 0), y[4] = vgetq_lane_u64(e, 1);
	x[5] = vgetq_lane_u64(f, 0), y[5] = vgetq_lane_u64(f, 1);
	x[6] = vgetq_lane_u64(g, 0), y[6] = vgetq_lane_u64(g, 1);
	x[7] = vgetq_lane_u64(h, 0), y[7] = vgetq_lane_u64(h, 1);
}

#endif
