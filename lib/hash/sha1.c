/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-1 (FIPS 180-4), kept for old FIT images that still name it.  The 80
 * rounds are unrolled in groups of five so the five working variables only
 * ever change names, with the schedule in a rolling window of 16 words;
 * size-optimised builds (VFIT_SHA_COMPACT) loop over the rounds instead.
 */
#include "vfit/hash.h"
#include "hash_int.h"

#if VFIT_HAVE_SHA1

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define F0(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))			/* Ch */
#define F1(b, c, d) ((b) ^ (c) ^ (d))				/* Parity */
#define F2(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))	/* Maj */

#ifdef VFIT_SHA_COMPACT

static void sha1_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	static const uint32_t k[4] = { 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6 };
	uint32_t *h = st;
	uint32_t a, b, c, d, e, f, w[16];
	unsigned int t;

	for (; nblocks; nblocks--, p += 64) {
		a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
		for (t = 0; t < 80; t++) {
			if (t < 16)
				w[t] = ld_be32(p + 4 * t);
			else
				w[t & 15] = ROL(w[(t + 13) & 15] ^ w[(t + 8) & 15] ^
						w[(t + 2) & 15] ^ w[t & 15], 1);
			if (t < 20)
				f = F0(b, c, d);
			else if (t >= 40 && t < 60)
				f = F2(b, c, d);
			else
				f = F1(b, c, d);
			f += ROL(a, 5) + e + k[t / 20] + w[t & 15];
			e = d;
			d = c;
			c = ROL(b, 30);
			b = a;
			a = f;
		}
		h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
	}
}

#else

/* W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), stored over W[t-16] */
#define WNEXT(t) (w[(t) & 15] = ROL(w[((t) + 13) & 15] ^ w[((t) + 8) & 15] ^ \
				    w[((t) + 2) & 15] ^ w[(t) & 15], 1))
#define WLOAD(t) w[t]

#define RND(a, b, c, d, e, F, k, W, t) do {				\
	e += ROL(a, 5) + F(b, c, d) + (k) + W(t);			\
	b = ROL(b, 30);							\
} while (0)

#define R5(F, k, W, t) do {						\
	RND(a, b, c, d, e, F, k, W, (t));				\
	RND(e, a, b, c, d, F, k, W, (t) + 1);				\
	RND(d, e, a, b, c, F, k, W, (t) + 2);				\
	RND(c, d, e, a, b, F, k, W, (t) + 3);				\
	RND(b, c, d, e, a, F, k, W, (t) + 4);				\
} while (0)

#define R20(F, k, t) do {						\
	R5(F, k, WNEXT, (t));						\
	R5(F, k, WNEXT, (t) + 5);					\
	R5(F, k, WNEXT, (t) + 10);					\
	R5(F, k, WNEXT, (t) + 15);					\
} while (0)

static void sha1_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	uint32_t a, b, c, d, e, w[16];
	unsigned int i;

	for (; nblocks; nblocks--, p += 64) {
		a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
		for (i = 0; i < 16; i++)
			w[i] = ld_be32(p + 4 * i);
		R5(F0, 0x5a827999, WLOAD, 0);
		R5(F0, 0x5a827999, WLOAD, 5);
		R5(F0, 0x5a827999, WLOAD, 10);
		RND(a, b, c, d, e, F0, 0x5a827999, WLOAD, 15);
		RND(e, a, b, c, d, F0, 0x5a827999, WNEXT, 16);
		RND(d, e, a, b, c, F0, 0x5a827999, WNEXT, 17);
		RND(c, d, e, a, b, F0, 0x5a827999, WNEXT, 18);
		RND(b, c, d, e, a, F0, 0x5a827999, WNEXT, 19);
		R20(F1, 0x6ed9eba1, 20);
		R20(F2, 0x8f1bbcdc, 40);
		R20(F1, 0xca62c1d6, 60);
		h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
	}
}

#endif

static const uint32_t iv1[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};

enum vfit_result vfit_sha1_init_impl(struct vfit_sha1_ctx *c, enum vfit_impl impl)
{
	int accel = accel_init(impl);

	if (accel < 0)
		return VFIT_ERR_UNSUPPORTED;
	memcpy(c->h, iv1, sizeof(c->h));
	c->len = 0;
	c->accel = (uint8_t)accel;
	return VFIT_OK;
}

void vfit_sha1_init(struct vfit_sha1_ctx *c)
{
	(void)vfit_sha1_init_impl(c, VFIT_IMPL_AUTO); /* AUTO cannot fail */
}

static md_blocks_fn sha1_fn(struct vfit_sha1_ctx *c, size_t n)
{
#ifdef VFIT_SHA_ACCEL
	if (accel_use(&c->accel, c->len + n))
		return vfit_sha1_blocks_accel_;
#else
	(void)c;
	(void)n;
#endif
	return sha1_blocks;
}

void vfit_sha1_update(struct vfit_sha1_ctx *c, const void *p, size_t n)
{
	md_update(c->h, sha1_fn(c, n), c->buf, 64, &c->len, p, n);
}

void vfit_sha1_final(struct vfit_sha1_ctx *c, uint8_t out[20])
{
	unsigned int i;

	md_final(c->h, sha1_fn(c, 0), c->buf, 64, c->len, 8, 1);
	for (i = 0; i < 5; i++)
		st_be32(out + 4 * i, c->h[i]);
}

#endif
