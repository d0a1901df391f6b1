/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One interface over every hash, selected by the FIT `algo` name.  An
 * algorithm switched off in vfit/config.h is unknown here: init fails, so
 * a FIT naming it is rejected rather than skipped.
 */
#include "vfit/hash.h"
#include "hash_int.h"

/*
 * The built-in algorithms as one string of entries: the enum vfit_hash
 * value (stable, see vfit/hash.h), the digest size, the name's length,
 * then the FIT name with its NUL.  Compiled-out algorithms are not listed
 * at all, so they are unknown to every function here.  One string rather
 * than a table of pointers or fixed-width slots: no relocations and no
 * padding.  The stored length spares strlen() calls, which the compiler
 * cannot evaluate in a freestanding build.
 */
static const char names[] =
#if VFIT_HAVE_CRC32
	"\x01\x04\x05" "crc32\0"
#endif
#if VFIT_HAVE_MD5
	"\x02\x10\x03" "md5\0"
#endif
#if VFIT_HAVE_SHA1
	"\x03\x14\x04" "sha1\0"
#endif
#if VFIT_HAVE_SHA224
	"\x04\x1c\x06" "sha224\0"
#endif
#if VFIT_HAVE_SHA256
	"\x05\x20\x06" "sha256\0"
#endif
#if VFIT_HAVE_SHA384
	"\x06\x30\x06" "sha384\0"
#endif
#if VFIT_HAVE_SHA512
	"\x07\x40\x06" "sha512\0"
#endif
#if VFIT_HAVE_CRC16
	"\x08\x02\x0b" "crc16-ccitt\0"
#endif
	"";

_Static_assert(VFIT_HASH_CRC32 == 1 && VFIT_HASH_MD5 == 2 && VFIT_HASH_SHA1 == 3 &&
	       VFIT_HASH_SHA224 == 4 && VFIT_HASH_SHA256 == 5 && VFIT_HASH_SHA384 == 6 &&
	       VFIT_HASH_SHA512 == 7 && VFIT_HASH_CRC16 == 8, "names[] holds the enum values");

/*
 * The loops below run a compile-time count of times rather than up to an
 * end marker: with one algorithm built in, the compiler reduces them to a
 * single comparison with constants (lookup becomes one memcmp).
 */
#define NBUILT (!!VFIT_HAVE_CRC32 + !!VFIT_HAVE_MD5 + !!VFIT_HAVE_SHA1 + \
		!!VFIT_HAVE_SHA224 + !!VFIT_HAVE_SHA256 + !!VFIT_HAVE_SHA384 + \
		!!VFIT_HAVE_SHA512 + !!VFIT_HAVE_CRC16)
#define NEXT(e) ((e) + 4 + (e)[2])

/* The entry of a built-in algorithm, else NULL. */
static const char *entry(enum vfit_hash algo)
{
	const char *e = names;
	unsigned int i;

	for (i = NBUILT; i > 0; i--, e = NEXT(e))
		if ((unsigned char)e[0] == algo)
			return e;
	return NULL;
}

size_t vfit_hash_size(enum vfit_hash algo)
{
	const char *e = entry(algo);

	return e ? (unsigned char)e[1] : 0;
}

const char *vfit_hash_name(enum vfit_hash algo)
{
	const char *e = entry(algo);

	return e ? e + 3 : NULL;
}

enum vfit_hash vfit_hash_lookup(const char *name, size_t len)
{
	const char *e = names;
	unsigned int i;

	if (!name)
		return VFIT_HASH_INVALID;
	for (i = NBUILT; i > 0; i--, e = NEXT(e))
		if ((unsigned char)e[2] == len && !memcmp(e + 3, name, len))
			return (enum vfit_hash)e[0];
	return VFIT_HASH_INVALID;
}

bool vfit_hash_have_accel(enum vfit_hash algo)
{
#ifdef VFIT_SHA_ACCEL
	switch (algo) {
	case VFIT_HASH_SHA1:
		return VFIT_HAVE_SHA1 && vfit_sha_accel_ok_();
	case VFIT_HASH_SHA224:
		return VFIT_HAVE_SHA224 && vfit_sha_accel_ok_();
	case VFIT_HASH_SHA256:
		return VFIT_HAVE_SHA256 && vfit_sha_accel_ok_();
	default:
		return false;
	}
#else
	(void)algo;
	return false;
#endif
}

enum vfit_result vfit_hash_init_impl(struct vfit_hash_ctx *c, enum vfit_hash algo, enum vfit_impl impl)
{
	c->algo = VFIT_HASH_INVALID;
	/* Only built-in algorithms have a case. */
	switch (algo) {
#if VFIT_HAVE_CRC32
	case VFIT_HASH_CRC32:
		if (impl == VFIT_IMPL_ACCEL)
			return VFIT_ERR_UNSUPPORTED;
		c->u.crc = 0;
		break;
#endif
#if VFIT_HAVE_CRC16
	case VFIT_HASH_CRC16:
		if (impl == VFIT_IMPL_ACCEL)
			return VFIT_ERR_UNSUPPORTED;
		c->u.crc = 0;
		break;
#endif
#if VFIT_HAVE_MD5
	case VFIT_HASH_MD5:
		if (impl == VFIT_IMPL_ACCEL)
			return VFIT_ERR_UNSUPPORTED;
		vfit_md5_init(&c->u.md5);
		break;
#endif
#if VFIT_HAVE_SHA1
	case VFIT_HASH_SHA1:
		if (vfit_sha1_init_impl(&c->u.sha1, impl))
			return VFIT_ERR_UNSUPPORTED;
		break;
#endif
#if VFIT_HAVE_SHA224
	case VFIT_HASH_SHA224:
		if (vfit_sha224_init_impl(&c->u.sha256, impl))
			return VFIT_ERR_UNSUPPORTED;
		break;
#endif
#if VFIT_HAVE_SHA256
	case VFIT_HASH_SHA256:
		if (vfit_sha256_init_impl(&c->u.sha256, impl))
			return VFIT_ERR_UNSUPPORTED;
		break;
#endif
#if VFIT_HAVE_SHA384
	case VFIT_HASH_SHA384:
		if (impl == VFIT_IMPL_ACCEL)
			return VFIT_ERR_UNSUPPORTED;
		vfit_sha384_init(&c->u.sha512);
		break;
#endif
#if VFIT_HAVE_SHA512
	case VFIT_HASH_SHA512:
		if (impl == VFIT_IMPL_ACCEL)
			return VFIT_ERR_UNSUPPORTED;
		vfit_sha512_init(&c->u.sha512);
		break;
#endif
	default:
		return VFIT_ERR_UNSUPPORTED;
	}
	c->algo = algo;
	return VFIT_OK;
}

enum vfit_result vfit_hash_init(struct vfit_hash_ctx *c, enum vfit_hash algo)
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

enum vfit_result vfit_hash(enum vfit_hash algo, const void *p, size_t n, uint8_t *out)
{
	struct vfit_hash_ctx c;

	if (vfit_hash_init(&c, algo))
		return VFIT_ERR_UNSUPPORTED;
	vfit_hash_update(&c, p, n);
	vfit_hash_final(&c, out);
	return VFIT_OK;
}
