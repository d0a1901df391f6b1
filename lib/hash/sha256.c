/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 and SHA-224 (FIPS 180-4).  The portable block function keeps the
 * message schedule as a rolling window of 16 words (W[t] overwrites
 * W[t-16]) and renames the eight working variables instead of moving them.
 * Size-optimised builds (-Os, or -DVFIT_SHA_COMPACT) get a plain loop of
 * 64 rounds instead of the 16-way unrolled form.
 */
#include "vfit/hash.h"
#include "hash_int.h"

#if VFIT_HAVE_SHA256 || VFIT_HAVE_SHA224

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
/* Ch and Maj with one operation fewer than the textbook forms */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BS0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define BS1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SS0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SS1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))

#ifdef VFIT_SHA256_ARMV7_ASM

/* lib/hash/sha256_armv7.S: NEON schedule, ARM rounds; a port for ARMv7-A builds it instead. */
void vfit_sha256_blocks_armv7(void *st, const uint8_t *p, size_t nblocks);
#define sha256_blocks vfit_sha256_blocks_armv7

#elif defined(VFIT_SHA_COMPACT)

static void sha256_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *h = st;
	uint32_t w[64], s[64 + 8], *v, t1, t2;
	unsigned int t, i;

	for (; nblocks; nblocks--, p += 64) {
		for (t = 0; t < 64; t++)
			w[t] = t < 16 ? ld_be32(p + 4 * t) :
			       SS1(w[t - 2]) + w[t - 7] + SS0(w[t - 15]) + w[t - 16];
		/*
		 * The working variables a..h are v[0..7] of a window that moves
		 * down one word per round: the renaming costs no copies.
		 */
		v = s + 64;
		memcpy(v, h, 8 * sizeof(*v));
		for (t = 0; t < 64; t++) {
			t1 = v[7] + BS1(v[4]) + CH(v[4], v[5], v[6]) + vfit_sha256_k_[t] + w[t];
			t2 = BS0(v[0]) + MAJ(v[0], v[1], v[2]);
			v--;
			v[4] += t1;
			v[0] = t1 + t2;
		}
		for (i = 0; i < 8; i++)
			h[i] += v[i];
	}
}

#else

/*
 * Round t of a 16-round group starting at vfit_sha256_k_[j]; W(t) yields W[j + t].
 * Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), and this round's a ^ b is the
 * next round's b ^ c (the names shift by one), so bc carries it over and
 * Maj costs three operations.
 */
#define RND(a, b, c, d, e, f, g, h, t, W) do {				\
	uint32_t t1_ = h + BS1(e) + CH(e, f, g) + vfit_sha256_k_[j + (t)] + W(t);	\
	uint32_t ab_ = a ^ b;						\
	d += t1_;							\
	h = t1_ + BS0(a) + (b ^ (ab_ & bc));				\
	bc = ab_;							\
} while (0)

#define R16(W) do {							\
	RND(a, b, c, d, e, f, g, h, 0, W);				\
	RND(h, a, b, c, d, e, f, g, 1, W);				\
	RND(g, h, a, b, c, d, e, f, 2, W);				\
	RND(f, g, h, a, b, c, d, e, 3, W);				\
	RND(e, f, g, h, a, b, c, d, 4, W);				\
	RND(d, e, f, g, h, a, b, c, 5, W);				\
	RND(c, d, e, f, g, h, a, b, 6, W);				\
	RND(b, c, d, e, f, g, h, a, 7, W);				\
	RND(a, b, c, d, e, f, g, h, 8, W);				\
	RND(h, a, b, c, d, e, f, g, 9, W);				\
	RND(g, h, a, b, c, d, e, f, 10, W);				\
	RND(f, g, h, a, b, c, d, e, 11, W);				\
	RND(e, f, g, h, a, b, c, d, 12, W);				\
	RND(d, e, f, g, h, a, b, c, 13, W);				\
	RND(c, d, e, f, g, h, a, b, 14, W);				\
	RND(b, c, d, e, f, g, h, a, 15, W);				\
} while (0)

/* First 16 rounds use the message words as loaded ... */
#define WLOAD(t) w[t]
/* ... later ones W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], in place. */
#define WNEXT(t) (w[t] += SS1(w[((t) + 14) & 15]) + w[((t) + 9) & 15] + \
			  SS0(w[((t) + 1) & 15]))

static void sha256_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	uint32_t *hs = st;
	uint32_t a, b, c, d, e, f, g, h, bc, w[16];
	unsigned int i, j;

	for (; nblocks; nblocks--, p += 64) {
		a = hs[0], b = hs[1], c = hs[2], d = hs[3];
		e = hs[4], f = hs[5], g = hs[6], h = hs[7];
		for (i = 0; i < 16; i++)
			w[i] = ld_be32(p + 4 * i);
		bc = b ^ c;
		j = 0;
		R16(WLOAD);
		for (j = 16; j < 64; j += 16)
			R16(WNEXT);
		hs[0] += a, hs[1] += b, hs[2] += c, hs[3] += d;
		hs[4] += e, hs[5] += f, hs[6] += g, hs[7] += h;
	}
}

#endif

static enum vfit_result sha2_init(struct vfit_sha256_ctx *c, const uint32_t *iv, uint8_t out_len,
		     enum vfit_impl impl)
{
	int accel = accel_init(impl);

	if (accel < 0)
		return VFIT_ERR_UNSUPPORTED;
	memcpy(c->h, iv, sizeof(c->h));
	c->len = 0;
	c->accel = (uint8_t)accel;
	c->out_len = out_len;
	return VFIT_OK;
}

#if VFIT_HAVE_SHA256
static const uint32_t iv256[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

enum vfit_result vfit_sha256_init_impl(struct vfit_sha256_ctx *c, enum vfit_impl impl)
{
	return sha2_init(c, iv256, 32, impl);
}

void vfit_sha256_init(struct vfit_sha256_ctx *c)
{
	(void)sha2_init(c, iv256, 32, VFIT_IMPL_AUTO); /* AUTO cannot fail */
}
#endif

#if VFIT_HAVE_SHA224
static const uint32_t iv224[8] = {
	0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
	0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
};

enum vfit_result vfit_sha224_init_impl(struct vfit_sha256_ctx *c, enum vfit_impl impl)
{
	return sha2_init(c, iv224, 28, impl);
}

void vfit_sha224_init(struct vfit_sha256_ctx *c)
{
	(void)sha2_init(c, iv224, 28, VFIT_IMPL_AUTO);
}
#endif

static md_blocks_fn sha256_fn(struct vfit_sha256_ctx *c, size_t n)
{
#ifdef VFIT_SHA_ACCEL
	if (accel_use(&c->accel, c->len + n))
		return vfit_sha256_blocks_accel_;
#else
	(void)c;
	(void)n;
#endif
	return sha256_blocks;
}

#ifdef VFIT_SHA_COMPACT
/*
 * Size-optimised builds copy every byte through the block buffer: one
 * loop, one copy, and the copy is a small fraction of a block's rounds.
 */
void vfit_sha256_update(struct vfit_sha256_ctx *c, const void *p, size_t n)
{
	const uint8_t *in = p;
	size_t used, take;

	for (; n; in += take, n -= take) {
		used = (size_t)c->len & 63;
		take = 64 - used < n ? 64 - used : n;
		memcpy(c->buf + used, in, take);
		c->len += take;
		if (!(c->len & 63))
			sha256_fn(c, 0)(c->h, c->buf, 1);
	}
}
#else
void vfit_sha256_update(struct vfit_sha256_ctx *c, const void *p, size_t n)
{
	md_update(c->h, sha256_fn(c, n), c->buf, 64, &c->len, p, n);
}
#endif

/*
 * The padding goes through vfit_sha256_update() like any other bytes: 0x80,
 * zeros up to 56 mod 64, the length in bits big-endian.  Less code than
 * filling the block buffer by hand, and no second path to keep right.
 */
void vfit_sha256_final(struct vfit_sha256_ctx *c, uint8_t *out)
{
	uint8_t pad[64 + 8] = { 0x80 };
	uint64_t bits = c->len << 3;
	size_t n = ((55 - (size_t)c->len) & 63) + 1;
	unsigned int i;

	for (i = 0; i < 8; i++, bits >>= 8)
		pad[n + 7 - i] = (uint8_t)bits;
	vfit_sha256_update(c, pad, n + 8);
	/* big-endian words, a byte at a time: byte i is byte i % 4 of word i / 4 */
	for (i = 0; i < c->out_len; i++)
		out[i] = (uint8_t)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

#endif
