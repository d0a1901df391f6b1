/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hashes for FIT `hash*` nodes and signatures: CRC-32, MD5, SHA-1, SHA-224,
 * SHA-256, SHA-384, SHA-512, CRC-16-CCITT.  Contexts are plain structs of constant size
 * that the caller owns; nothing allocates, nothing is global.
 *
 * SHA-1 and SHA-256 pick the CPU's SHA instructions (x86 SHA-NI, ARMv8
 * crypto extensions) at init time when the CPU has them; tests force either
 * path with the _impl variants.
 */
#ifndef VFIT_HASH_H
#define VFIT_HASH_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "vfit/config.h"
#include "vfit/result.h"

enum vfit_hash {
	VFIT_HASH_INVALID = 0,
	VFIT_HASH_CRC32,
	VFIT_HASH_MD5,
	VFIT_HASH_SHA1,
	VFIT_HASH_SHA224,
	VFIT_HASH_SHA256,
	VFIT_HASH_SHA384,
	VFIT_HASH_SHA512,
	VFIT_HASH_CRC16,        /* FIT "crc16-ccitt"; appended: the values above are stable */
};

#define VFIT_HASH_MAX_SIZE 64

enum vfit_impl {
	VFIT_IMPL_AUTO = 0,     /* accelerated if the CPU has it */
	VFIT_IMPL_PORTABLE,     /* plain C */
	VFIT_IMPL_ACCEL,        /* CPU instructions; init fails without them */
};

/*
 * `accel` in the SHA-1/SHA-256 contexts: 0 portable, 1 CPU instructions,
 * 2 not decided yet (VFIT_IMPL_AUTO checks the CPU only once the message
 * reaches 1 KiB, so short messages never pay for a CPUID, which traps
 * under a hypervisor; until then, and for shorter messages, plain C runs).
 */
struct vfit_sha1_ctx {
	uint32_t h[5];
	uint64_t len;           /* bytes hashed so far */
	uint8_t buf[64];
	uint8_t accel;
};

struct vfit_sha256_ctx {        /* also SHA-224 */
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	uint8_t accel;
	uint8_t out_len;        /* 28 or 32 */
};

struct vfit_sha512_ctx {        /* also SHA-384 */
	uint64_t h[8];
	uint64_t len;
	uint8_t buf[128];
	uint8_t out_len;        /* 48 or 64 */
};

struct vfit_md5_ctx {
	uint32_t h[4];
	uint64_t len;
	uint8_t buf[64];
};

/* Streaming interfaces: init, update any number of times, final. */
void vfit_sha1_init(struct vfit_sha1_ctx *c);
/* SHA-1 on implementation impl: returns VFIT_OK, or VFIT_ERR_UNSUPPORTED without impl. */
enum vfit_result vfit_sha1_init_impl(struct vfit_sha1_ctx *c, enum vfit_impl impl);
void vfit_sha1_update(struct vfit_sha1_ctx *c, const void *p, size_t n);
void vfit_sha1_final(struct vfit_sha1_ctx *c, uint8_t out[20]);

void vfit_sha224_init(struct vfit_sha256_ctx *c);
void vfit_sha256_init(struct vfit_sha256_ctx *c);
/* SHA-224 on implementation impl; returns as vfit_sha1_init_impl(). */
enum vfit_result vfit_sha224_init_impl(struct vfit_sha256_ctx *c, enum vfit_impl impl);
/* SHA-256 on implementation impl; returns as vfit_sha1_init_impl(). */
enum vfit_result vfit_sha256_init_impl(struct vfit_sha256_ctx *c, enum vfit_impl impl);
void vfit_sha256_update(struct vfit_sha256_ctx *c, const void *p, size_t n);
void vfit_sha256_final(struct vfit_sha256_ctx *c, uint8_t *out);

void vfit_sha384_init(struct vfit_sha512_ctx *c);
void vfit_sha512_init(struct vfit_sha512_ctx *c);
void vfit_sha512_update(struct vfit_sha512_ctx *c, const void *p, size_t n);
void vfit_sha512_final(struct vfit_sha512_ctx *c, uint8_t *out);

void vfit_md5_init(struct vfit_md5_ctx *c);
void vfit_md5_update(struct vfit_md5_ctx *c, const void *p, size_t n);
void vfit_md5_final(struct vfit_md5_ctx *c, uint8_t out[16]);

/* Returns the IEEE CRC-32 (zlib) of p[0..n) after crc: pass 0 to start, the result to continue. */
uint32_t vfit_crc32(uint32_t crc, const void *p, size_t n);

/*
 * Returns the CRC-16/XMODEM (FIT crc16-ccitt) of p[0..n) after crc: pass 0
 * to start, the result to continue.
 */
uint16_t vfit_crc16(uint16_t crc, const void *p, size_t n);

/* Any of the above through one context. */
struct vfit_hash_ctx {
	enum vfit_hash algo;
	union {
		uint32_t crc;
		struct vfit_md5_ctx md5;
		struct vfit_sha1_ctx sha1;
		struct vfit_sha256_ctx sha256;
		struct vfit_sha512_ctx sha512;
		void *backend;          /* a crypto backend's own state (vfit/crypto.h) */
	} u;
};

/*
 * Starts c for algo (with VFIT_IMPL_AUTO): returns VFIT_OK, or
 * VFIT_ERR_UNSUPPORTED if the algorithm is unknown, not built in, or impl
 * is unavailable.  For an algorithm the build has (SHA-256 always) and
 * VFIT_IMPL_AUTO or PORTABLE these cannot fail.
 */
enum vfit_result vfit_hash_init(struct vfit_hash_ctx *c, enum vfit_hash algo);
/* The same on implementation impl; returns as vfit_hash_init(). */
enum vfit_result vfit_hash_init_impl(struct vfit_hash_ctx *c, enum vfit_hash algo, enum vfit_impl impl);
void vfit_hash_update(struct vfit_hash_ctx *c, const void *p, size_t n);
/* Writes vfit_hash_size(algo) bytes; the CRCs are written big-endian, as FIT stores them. */
void vfit_hash_final(struct vfit_hash_ctx *c, uint8_t *out);
/* The digest of p[0..n) into out in one call; returns as vfit_hash_init(). */
enum vfit_result vfit_hash(enum vfit_hash algo, const void *p, size_t n, uint8_t *out);

size_t vfit_hash_size(enum vfit_hash algo);       /* returns the digest bytes, 0 for unknown */
const char *vfit_hash_name(enum vfit_hash algo);  /* returns "sha256", ...; NULL for unknown */
/* Returns the hash of the FIT name name[0..len) (exact, no NUL), VFIT_HASH_INVALID otherwise. */
enum vfit_hash vfit_hash_lookup(const char *name, size_t len);

/* Whether the accelerated path for algo exists on this CPU (tests, bench). */
bool vfit_hash_have_accel(enum vfit_hash algo);

/*
 * Several hashes of one message in one pass over its bytes: SHA-1, SHA-256,
 * SHA-384 and SHA-512, any of them (measured boot extends each active PCR
 * bank with that bank's digest of the same image).  The message is fed to
 * every hash a piece at a time, each piece while it is in the cache; with
 * both SHA-384 and SHA-512 the two share each block's message schedule, and
 * on arm64 run side by side in the two lanes of NEON registers.
 */
#define VFIT_HASH_BIT(h) (1u << (h))
/* Bytes each hash of a set takes at a time: a piece stays in a 32 KiB L1 cache. */
#define VFIT_HASH_SET_PIECE 8192u
#define VFIT_HASH_SET_ALL (VFIT_HASH_BIT(VFIT_HASH_SHA1) | VFIT_HASH_BIT(VFIT_HASH_SHA256) | \
			   VFIT_HASH_BIT(VFIT_HASH_SHA384) | VFIT_HASH_BIT(VFIT_HASH_SHA512))

/* The digests of a hash set (a digest is valid where hashes has its bit). */
struct vfit_digest_set {
	uint32_t hashes;
	uint8_t sha1[20];
	uint8_t sha256[32];
	uint8_t sha384[48];
	uint8_t sha512[64];
};

struct vfit_hash_set {
	uint32_t hashes;
	struct vfit_sha1_ctx sha1;
	struct vfit_sha256_ctx sha256;
	struct vfit_sha512_ctx sha384, sha512;
};

/*
 * Starts the hashes of `hashes` (VFIT_HASH_BIT of each).  Returns VFIT_OK,
 * or VFIT_ERR_UNSUPPORTED for none, or one outside VFIT_HASH_SET_ALL or
 * not built in.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_hash_set_init(struct vfit_hash_set *s, uint32_t hashes);
void vfit_hash_set_update(struct vfit_hash_set *s, const void *p, size_t n);
void vfit_hash_set_final(struct vfit_hash_set *s, struct vfit_digest_set *out);
/* Returns the digest of hash h in d, or NULL when d does not hold it. */
const uint8_t *vfit_digest_set_get(const struct vfit_digest_set *d, enum vfit_hash h);

#endif
