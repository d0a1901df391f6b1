/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hash set (vfit/hash.h): several hashes of one message in one pass
 * give, for every subset of SHA-1, SHA-256, SHA-384 and SHA-512, the
 * digests each hash gives alone, whatever the message's length (around
 * the 64- and 128-byte blocks and the set's 8 KiB pieces) and however it
 * is split into updates; and it refuses what it cannot hash.  On arm64
 * (tests/build/aarch64.sh runs this under qemu-aarch64) SHA-384 with
 * SHA-512 take the paired NEON path, which the single hashes never do.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vfit/hash.h"

static const enum vfit_hash algo[] = {
	VFIT_HASH_SHA1, VFIT_HASH_SHA256, VFIT_HASH_SHA384, VFIT_HASH_SHA512,
};
#define NALGO (sizeof(algo) / sizeof(algo[0]))

static uint8_t msg[3 * 8192 + 300];

/* Hashes m[0..len) with the set of subset, fed in updates of `step` bytes (0: one update). */
static int set_digests(uint32_t subset, size_t len, size_t step, struct vfit_digest_set *out)
{
	struct vfit_hash_set s;
	size_t at, n;

	if (vfit_hash_set_init(&s, subset))
		return 0;
	for (at = 0; at < len; at += n) {
		n = step && step < len - at ? step : len - at;
		vfit_hash_set_update(&s, msg + at, n);
	}
	vfit_hash_set_final(&s, out);
	return 1;
}

static void one(uint32_t subset, size_t len, size_t step)
{
	struct vfit_digest_set d;
	uint8_t want[VFIT_HASH_MAX_SIZE];
	unsigned int i;

	memset(&d, 0xA5, sizeof(d));
	if (!CHECK(set_digests(subset, len, step, &d), "set 0x%x refused", (unsigned)subset))
		return;
	CHECK(d.hashes == subset, "set 0x%x says it holds 0x%x", (unsigned)subset, (unsigned)d.hashes);
	for (i = 0; i < NALGO; i++) {
		const uint8_t *got = vfit_digest_set_get(&d, algo[i]);

		if (!(subset & VFIT_HASH_BIT(algo[i]))) {
			CHECK(!got, "set 0x%x hands out %s it did not compute", (unsigned)subset,
			      vfit_hash_name(algo[i]));
			continue;
		}
		REQUIRE(!vfit_hash(algo[i], msg, len, want), "vfit_hash %s", vfit_hash_name(algo[i]));
		CHECK(got && !memcmp(got, want, vfit_hash_size(algo[i])),
		      "%s of %zu bytes in updates of %zu within set 0x%x differs from the hash alone",
		      vfit_hash_name(algo[i]), len, step, (unsigned)subset);
	}
}

int main(void)
{
	static const size_t lens[] = {
		0, 1, 55, 56, 63, 64, 111, 112, 127, 128, 129, 255, 256, 1000, 8191, 8192, 8193,
		2 * 8192 + 128, sizeof(msg),
	};
	static const size_t steps[] = { 0, 1, 17, 64, 127, 128, 129, 8192, 10000 };
	struct vfit_digest_set d;
	struct vfit_hash_set s;
	uint32_t subset;
	unsigned int i, j;

	check_seed(30);
	check_rand_bytes(msg, sizeof(msg));
	/* Every subset of the four, every length, one update. */
	for (subset = 1; subset < 16; subset++) {
		uint32_t bits = 0;

		for (i = 0; i < NALGO; i++)
			if (subset >> i & 1)
				bits |= VFIT_HASH_BIT(algo[i]);
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
			one(bits, lens[i], 0);
	}
	/* All four (on arm64: SHA-384 and SHA-512 paired), split every way. */
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (j = 1; j < sizeof(steps) / sizeof(steps[0]); j++)
			one(VFIT_HASH_SET_ALL, lens[i], steps[j]);
	/* The pair alone, split off its block boundary. */
	one(VFIT_HASH_BIT(VFIT_HASH_SHA384) | VFIT_HASH_BIT(VFIT_HASH_SHA512), sizeof(msg), 100);

	CHECK(vfit_hash_set_init(&s, 0) == VFIT_ERR_UNSUPPORTED, "an empty set");
	CHECK(vfit_hash_set_init(&s, VFIT_HASH_BIT(VFIT_HASH_MD5)) == VFIT_ERR_UNSUPPORTED, "md5");
	CHECK(vfit_hash_set_init(&s, VFIT_HASH_BIT(VFIT_HASH_SHA224) | VFIT_HASH_BIT(VFIT_HASH_SHA256)) ==
	      VFIT_ERR_UNSUPPORTED, "sha224 with sha256");
	CHECK(vfit_hash_set_init(&s, 1u << 31) == VFIT_ERR_UNSUPPORTED, "an unknown hash");
	d.hashes = VFIT_HASH_SET_ALL;
	CHECK(!vfit_digest_set_get(&d, VFIT_HASH_MD5) && !vfit_digest_set_get(&d, VFIT_HASH_INVALID) &&
	      !vfit_digest_set_get(&d, (enum vfit_hash)40), "no digest of a hash outside the set");
	return check_done();
}
