/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-512 and SHA-384 (FIPS 180-4): the SHA-256 structure on 64-bit words,
 * 80 rounds and 128-byte blocks.  Same layout as lib/sha256.c: a rolling
 * 16-word schedule and 16-way unrolled rounds, or one compact loop in
 * size-optimised builds.
 */
#include "vfit/hash.h"
#include "hash_int.h"

#if VFIT_HAVE_SHA512 || VFIT_HAVE_SHA384

/* Round constants; sha512_pair.c reads them too. */
const uint64_t vfit_sha512_k_[80] = {
	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
	0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
	0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
	0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
	0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
	0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
	0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
	0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
	0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
	0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
	0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
	0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
	0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
	0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BS0(x) (ROR(x, 28) ^ ROR(x, 34) ^ ROR(x, 39))
#define BS1(x) (ROR(x, 14) ^ ROR(x, 18) ^ ROR(x, 41))
#define SS0(x) (ROR(x, 1) ^ ROR(x, 8) ^ ((x) >> 7))
#define SS1(x) (ROR(x, 19) ^ ROR(x, 61) ^ ((x) >> 6))

#ifdef VFIT_SHA_COMPACT

static void sha512_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	uint64_t *h = st;
	uint64_t v[8], w[16], t1, t2;
	unsigned int t, i;

	for (; nblocks; nblocks--, p += 128) {
		memcpy(v, h, sizeof(v));
		for (t = 0; t < 80; t++) {
			if (t < 16)
				w[t] = ld_be64(p + 8 * t);
			else
				w[t & 15] += SS1(w[(t + 14) & 15]) + w[(t + 9) & 15] +
					     SS0(w[(t + 1) & 15]);
			t1 = v[7] + BS1(v[4]) + CH(v[4], v[5], v[6]) + vfit_sha512_k_[t] + w[t & 15];
			t2 = BS0(v[0]) + MAJ(v[0], v[1], v[2]);
			for (i = 7; i > 0; i--)
				v[i] = v[i - 1];
			v[4] += t1;
			v[0] = t1 + t2;
		}
		for (i = 0; i < 8; i++)
			h[i] += v[i];
	}
}

#else

/*
 * Round t of a 16-round group starting at round j; W(t) yields W[j + t].
 * Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), and this round's a ^ b is the
 * next round's b ^ c (the names shift by one), so bc carries it over and
 * Maj costs three operations.
 */
#define RND(a, b, c, d, e, f, g, h, t, W) do {				\
	uint64_t t1_ = h + BS1(e) + CH(e, f, g) + vfit_sha512_k_[j + (t)] + W(t);	\
	uint64_t ab_ = a ^ b;						\
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

#define WLOAD(t) w[t]
#define WNEXT(t) (w[t] += SS1(w[((t) + 14) & 15]) + w[((t) + 9) & 15] + \
			  SS0(w[((t) + 1) & 15]))

static void sha512_blocks(void *st, const uint8_t *p, size_t nblocks)
{
	uint64_t *hs = st;
	uint64_t a, b, c, d, e, f, g, h, bc, w[16];
	unsigned int i, j;

	for (; nblocks; nblocks--, p += 128) {
		a = hs[0], b = hs[1], c = hs[2], d = hs[3];
		e = hs[4], f = hs[5], g = hs[6], h = hs[7];
		for (i = 0; i < 16; i++)
			w[i] = ld_be64(p + 8 * i);
		bc = b ^ c;
		j = 0;
		R16(WLOAD);
		for (j = 16; j < 80; j += 16)
			R16(WNEXT);
		hs[0] += a, hs[1] += b, hs[2] += c, hs[3] += d;
		hs[4] += e, hs[5] += f, hs[6] += g, hs[7] += h;
	}
}

#endif

static void sha512_start(struct vfit_sha512_ctx *c, const uint64_t *iv, uint8_t out_len)
{
	memcpy(c->h, iv, sizeof(c->h));
	c->len = 0;
	c->out_len = out_len;
}

#if VFIT_HAVE_SHA512
static const uint64_t iv512[8] = {
	0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
	0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};

void vfit_sha512_init(struct vfit_sha512_ctx *c)
{
	sha512_start(c, iv512, 64);
}
#endif

#if VFIT_HAVE_SHA384
static const uint64_t iv384[8] = {
	0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
	0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
};

void vfit_sha384_init(struct vfit_sha512_ctx *c)
{
	sha512_start(c, iv384, 48);
}
#endif

void vfit_sha512_update(struct vfit_sha512_ctx *c, const void *p, size_t n)
{
	md_update(c->h, sha512_blocks, c->buf, 128, &c->len, p, n);
}

void vfit_sha512_final(struct vfit_sha512_ctx *c, uint8_t *out)
{
	unsigned int i;

	md_final(c->h, sha512_blocks, c->buf, 128, c->len, 16, 1);
	for (i = 0; i < c->out_len / 8u; i++)
		st_be64(out + 8 * i, c->h[i]);
}

#endif
