/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One interface over every hash, selected by the FIT `algo` name.  An
 * algorithm switched off in vfit/config.h is unknown here: init fails, so
 * a FIT naming it is rejected rather than skipped.
 */
#include "vfit/hash.h"
#include "hash_int.h"

/*
 * Names and sizes, indexed by enum vfit_hash.  The names are one string of
 * NUL-separated entries (entry 0 empty, for INVALID) rather than a pointer
 * table or fixed-width slots: no relocations and no padding, so the long
 * "crc16-ccitt" costs only its own bytes.
 */
static const char names[] = "\0crc32\0md5\0sha1\0sha224\0sha256\0sha384\0sha512\0crc16-ccitt";
static const uint8_t sizes[] = { 0, 4, 16, 20, 28, 32, 48, 64, 2 };

#define NALGOS (sizeof(sizes) / sizeof(sizes[0]))
#define BUILT_IN ((unsigned int)VFIT_HAVE_CRC32 << VFIT_HASH_CRC32 | \
		  (unsigned int)VFIT_HAVE_MD5 << VFIT_HASH_MD5 | \
		  (unsigned int)VFIT_HAVE_SHA1 << VFIT_HASH_SHA1 | \
		  (unsigned int)VFIT_HAVE_SHA224 << VFIT_HASH_SHA224 | \
		  (unsigned int)VFIT_HAVE_SHA256 << VFIT_HASH_SHA256 | \
		  (unsigned int)VFIT_HAVE_SHA384 << VFIT_HASH_SHA384 | \
		  (unsigned int)VFIT_HAVE_SHA512 << VFIT_HASH_SHA512 | \
		  (unsigned int)VFIT_HAVE_CRC16 << VFIT_HASH_CRC16)

/* The name of a known, built-in algorithm, else NULL. */
static const char *info(enum vfit_hash algo)
{
	const char *n = names;
	unsigned int i;

	if ((unsigned int)algo >= NALGOS || !(BUILT_IN >> algo & 1))
		return NULL;
	for (i = 0; i < (unsigned int)algo; i++)
		n += strlen(n) + 1;
	return n;
}

size_t vfit_hash_size(enum vfit_hash algo)
{
	return info(algo) ? sizes[algo] : 0;
}

const char *vfit_hash_name(enum vfit_hash algo)
{
	return info(algo);
}

enum vfit_hash vfit_hash_lookup(const char *name, size_t len)
{
	const char *n = names + 1;
	unsigned int i;

	if (!name)
		return VFIT_HASH_INVALID;
	for (i = 1; i < NALGOS; i++, n += strlen(n) + 1)
		if ((BUILT_IN >> i & 1) && strlen(n) == len && !memcmp(n, name, len))
			return (enum vfit_hash)i;
	return VFIT_HASH_INVALID;
}

int vfit_hash_have_accel(enum vfit_hash algo)
{
#ifdef VFIT_SHA_ACCEL
	switch (algo) {
	case VFIT_HASH_SHA1:
		return VFIT_HAVE_SHA1 && vfit_sha_accel_ok();
	case VFIT_HASH_SHA224:
		return VFIT_HAVE_SHA224 && vfit_sha_accel_ok();
	case VFIT_HASH_SHA256:
		return VFIT_HAVE_SHA256 && vfit_sha_accel_ok();
	default:
		return 0;
	}
#else
	(void)algo;
	return 0;
#endif
}

int vfit_hash_init_impl(struct vfit_hash_ctx *c, enum vfit_hash algo, enum vfit_impl impl)
{
	c->algo = VFIT_HASH_INVALID;
	if (!info(algo))
		return -1;
	switch (algo) {
#if VFIT_HAVE_CRC32
	case VFIT_HASH_CRC32:
		if (impl == VFIT_IMPL_ACCEL)
			return -1;
		c->u.crc = 0;
		break;
#endif
#if VFIT_HAVE_CRC16
	case VFIT_HASH_CRC16:
		if (impl == VFIT_IMPL_ACCEL)
			return -1;
		c->u.crc = 0;
		break;
#endif
#if VFIT_HAVE_MD5
	case VFIT_HASH_MD5:
		if (impl == VFIT_IMPL_ACCEL)
			return -1;
		vfit_md5_init(&c->u.md5);
		break;
#endif
#if VFIT_HAVE_SHA1
	case VFIT_HASH_SHA1:
		if (vfit_sha1_init_impl(&c->u.sha1, impl))
			return -1;
		break;
#endif
#if VFIT_HAVE_SHA224
	case VFIT_HASH_SHA224:
		if (vfit_sha224_init_impl(&c->u.sha256, impl))
			return -1;
		break;
#endif
#if VFIT_HAVE_SHA256
	case VFIT_HASH_SHA256:
		if (vfit_sha256_init_impl(&c->u.sha256, impl))
			return -1;
		break;
#endif
#if VFIT_HAVE_SHA384
	case VFIT_HASH_SHA384:
		if (impl == VFIT_IMPL_ACCEL)
			return -1;
		vfit_sha384_init(&c->u.sha512);
		break;
#endif
#if VFIT_HAVE_SHA512
	case VFIT_HASH_SHA512:
		if (impl == VFIT_IMPL_ACCEL)
			return -1;
		vfit_sha512_init(&c->u.sha512);
		break;
#endif
	default:
		return -1;
	}
	c->algo = algo;
	return 0;
}

int vfit_hash_init(struct vfit_hash_ctx *c, enum vfit_hash algo)
{
	return vfit_hash_init_impl(c, algo, VFIT_IMPL_AUTO);
}

void vfit_hash_update(struct vfit_hash_ctx *c, const void *p, size_t n)
{
	switch (c->algo) {
#if VFIT_HAVE_CRC32
	case VFIT_HASH_CRC32:
		c->u.crc = vfit_crc32(c->u.crc, p, n);
		break;
#endif
#if VFIT_HAVE_CRC16
	case VFIT_HASH_CRC16:
		c->u.crc = vfit_crc16((uint16_t)c->u.crc, p, n);
		break;
#endif
#if VFIT_HAVE_MD5
	case VFIT_HASH_MD5:
		vfit_md5_update(&c->u.md5, p, n);
		break;
#endif
#if VFIT_HAVE_SHA1
	case VFIT_HASH_SHA1:
		vfit_sha1_update(&c->u.sha1, p, n);
		break;
#endif
#if VFIT_HAVE_SHA224
	case VFIT_HASH_SHA224:
#endif
#if VFIT_HAVE_SHA256
	case VFIT_HASH_SHA256:
#endif
#if VFIT_HAVE_SHA224 || VFIT_HAVE_SHA256
		vfit_sha256_update(&c->u.sha256, p, n);
		break;
#endif
#if VFIT_HAVE_SHA384
	case VFIT_HASH_SHA384:
#endif
#if VFIT_HAVE_SHA512
	case VFIT_HASH_SHA512:
#endif
#if VFIT_HAVE_SHA384 || VFIT_HAVE_SHA512
		vfit_sha512_update(&c->u.sha512, p, n);
		break;
#endif
	default:
		break;
	}
}

void vfit_hash_final(struct vfit_hash_ctx *c, uint8_t *out)
{
	switch (c->algo) {
#if VFIT_HAVE_CRC32
	case VFIT_HASH_CRC32:
		st_be32(out, c->u.crc);
		break;
#endif
#if VFIT_HAVE_CRC16
	case VFIT_HASH_CRC16:
		out[0] = (uint8_t)(c->u.crc >> 8);
		out[1] = (uint8_t)c->u.crc;
		break;
#endif
#if VFIT_HAVE_MD5
	case VFIT_HASH_MD5:
		vfit_md5_final(&c->u.md5, out);
		break;
#endif
#if VFIT_HAVE_SHA1
	case VFIT_HASH_SHA1:
		vfit_sha1_final(&c->u.sha1, out);
		break;
#endif
#if VFIT_HAVE_SHA224
	case VFIT_HASH_SHA224:
#endif
#if VFIT_HAVE_SHA256
	case VFIT_HASH_SHA256:
#endif
#if VFIT_HAVE_SHA224 || VFIT_HAVE_SHA256
		vfit_sha256_final(&c->u.sha256, out);
		break;
#endif
#if VFIT_HAVE_SHA384
	case VFIT_HASH_SHA384:
#endif
#if VFIT_HAVE_SHA512
	case VFIT_HASH_SHA512:
#endif
#if VFIT_HAVE_SHA384 || VFIT_HAVE_SHA512
		vfit_sha512_final(&c->u.sha512, out);
		break;
#endif
	default:
		break;
	}
}

int vfit_hash(enum vfit_hash algo, const void *p, size_t n, uint8_t *out)
{
	struct vfit_hash_ctx c;

	if (vfit_hash_init(&c, algo))
		return -1;
	vfit_hash_update(&c, p, n);
	vfit_hash_final(&c, out);
	return 0;
}
