/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Several hashes of one message in one pass (vfit/hash.h): each piece of
 * the message goes to every hash while it is still in the cache, and
 * SHA-384 with SHA-512 share their message schedule (sha512_pair.c).
 */
#include "vfit/hash.h"
#include "hash_int.h"

#define HAS(s, h) ((s)->hashes & VFIT_HASH_BIT(h))

enum vfit_result vfit_hash_set_init(struct vfit_hash_set *s, uint32_t hashes)
{
	unsigned int h;

	if (!hashes || hashes & ~(uint32_t)VFIT_HASH_SET_ALL)
		return VFIT_ERR_UNSUPPORTED;
	for (h = VFIT_HASH_SHA1; h <= VFIT_HASH_SHA512; h++)
		if (hashes & VFIT_HASH_BIT(h) && !vfit_hash_size((enum vfit_hash)h))
			return VFIT_ERR_UNSUPPORTED;
	s->hashes = hashes;
#if VFIT_HAVE_SHA1
	if (HAS(s, VFIT_HASH_SHA1))
		vfit_sha1_init(&s->sha1);
#endif
#if VFIT_HAVE_SHA256
	if (HAS(s, VFIT_HASH_SHA256))
		vfit_sha256_init(&s->sha256);
#endif
#if VFIT_HAVE_SHA384
	if (HAS(s, VFIT_HASH_SHA384))
		vfit_sha384_init(&s->sha384);
#endif
#if VFIT_HAVE_SHA512
	if (HAS(s, VFIT_HASH_SHA512))
		vfit_sha512_init(&s->sha512);
#endif
	return VFIT_OK;
}

#ifdef VFIT_SHA512_PAIR
/*
 * SHA-384 and SHA-512 of the same bytes: they hold the same number of
 * buffered bytes, so whole blocks go through the pair at once and only a
 * buffer's top-up and the tail through each context alone.
 */
static void pair_update(struct vfit_sha512_ctx *x, struct vfit_sha512_ctx *y, const uint8_t *p,
			size_t n)
{
	size_t used = (size_t)(x->len & 127), take = 0, whole;

	if (used) {
		take = 128 - used < n ? 128 - used : n;
		vfit_sha512_update(x, p, take);
		vfit_sha512_update(y, p, take);
	}
	whole = (n - take) & ~(size_t)127;
	if (whole) {
		vfit_sha512_pair_blocks_(x->h, y->h, p + take, whole / 128);
		x->len += whole;
		y->len += whole;
	}
	vfit_sha512_update(x, p + take + whole, n - take - whole);
	vfit_sha512_update(y, p + take + whole, n - take - whole);
}
#endif

static void piece(struct vfit_hash_set *s, const uint8_t *p, size_t n)
{
#if VFIT_HAVE_SHA1
	if (HAS(s, VFIT_HASH_SHA1))
		vfit_sha1_update(&s->sha1, p, n);
#endif
#if VFIT_HAVE_SHA256
	if (HAS(s, VFIT_HASH_SHA256))
		vfit_sha256_update(&s->sha256, p, n);
#endif
#ifdef VFIT_SHA512_PAIR
	if (HAS(s, VFIT_HASH_SHA384) && HAS(s, VFIT_HASH_SHA512)) {
		pair_update(&s->sha384, &s->sha512, p, n);
		return;
	}
#endif
#if VFIT_HAVE_SHA384
	if (HAS(s, VFIT_HASH_SHA384))
		vfit_sha512_update(&s->sha384, p, n);
#endif
#if VFIT_HAVE_SHA512
	if (HAS(s, VFIT_HASH_SHA512))
		vfit_sha512_update(&s->sha512, p, n);
#endif
}

void vfit_hash_set_update(struct vfit_hash_set *s, const void *p, size_t n)
{
	const uint8_t *in = p;
	size_t take;

	for (; n; in += take, n -= take) {
		take = n < VFIT_HASH_SET_PIECE ? n : VFIT_HASH_SET_PIECE;
		piece(s, in, take);
	}
}

void vfit_hash_set_final(struct vfit_hash_set *s, struct vfit_digest_set *out)
{
	out->hashes = s->hashes;
#if VFIT_HAVE_SHA1
	if (HAS(s, VFIT_HASH_SHA1))
		vfit_sha1_final(&s->sha1, out->sha1);
#endif
#if VFIT_HAVE_SHA256
	if (HAS(s, VFIT_HASH_SHA256))
		vfit_sha256_final(&s->sha256, out->sha256);
#endif
#if VFIT_HAVE_SHA384
	if (HAS(s, VFIT_HASH_SHA384))
		vfit_sha512_final(&s->sha384, out->sha384);
#endif
#if VFIT_HAVE_SHA512
	if (HAS(s, VFIT_HASH_SHA512))
		vfit_sha512_final(&s->sha512, out->sha512);
#endif
}

const uint8_t *vfit_digest_set_get(const struct vfit_digest_set *d, enum vfit_hash h)
{
	if ((unsigned int)h >= 32 || !(d->hashes & VFIT_HASH_BIT(h)))
		return NULL;
	switch (h) {
	case VFIT_HASH_SHA1: return d->sha1;
	case VFIT_HASH_SHA256: return d->sha256;
	case VFIT_HASH_SHA384: return d->sha384;
	case VFIT_HASH_SHA512: return d->sha512;
	default: return NULL;
	}
}
