/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot state blob's decoder (lib/boot/boot_state.c) on blobs wrong in
 * exactly one way, each with a SHA-256 that matches (computed here with
 * OpenSSL), so that only the check under test can refuse it: the size,
 * the magic, the version, each reserved byte, each field out of range,
 * and the checksum's last byte.  A refused blob leaves the state as it
 * was; a good one decodes to its fields.
 */
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "vfit/boot.h"

static void seal(uint8_t *b)
{
	unsigned int n = 0;

	REQUIRE(EVP_Digest(b, 32, b + 32, &n, EVP_sha256(), NULL) && n == 32, "SHA-256");
}

/* A good blob: seq 7, slot B active, A booted, A good, B trying with 2 tries. */
static void good(uint8_t *b)
{
	memset(b, 0, 80);
	memcpy(b, "VFBS", 4);
	b[7] = 1;
	b[11] = 7;
	b[12] = 1;
	b[13] = 0;
	b[14] = VFIT_SLOT_GOOD;
	b[15] = VFIT_SLOT_TRYING;
	b[17] = 2;
	seal(b);
}

static enum vfit_state_check one(unsigned int at, uint8_t value, size_t len)
{
	struct vfit_boot_state s = { .seq = 99 };
	enum vfit_state_check r;
	uint8_t b[80];

	good(b);
	b[at] = value;
	if (at < 32)
		seal(b);
	r = vfit_boot_state_decode(b, len, &s);
	CHECK(r == VFIT_STATE_OK || s.seq == 99, "a refused blob changed the state");
	return r;
}

int main(void)
{
	struct vfit_boot_state s;
	uint8_t b[80];
	unsigned int i;

	good(b);
	REQUIRE(VFIT_BOOT_STATE_SIZE == 64, "the blob is 64 bytes");
	CHECK(vfit_boot_state_decode(b, 64, &s) == VFIT_STATE_OK && s.seq == 7 && s.active == 1 &&
	      s.booted == 0 && s.status[0] == VFIT_SLOT_GOOD && s.status[1] == VFIT_SLOT_TRYING &&
	      s.tries[0] == 0 && s.tries[1] == 2, "the good blob's fields");
	CHECK(one(0, 0, 63) == VFIT_STATE_SIZE, "63 bytes");
	CHECK(one(0, 'V', 65) == VFIT_STATE_SIZE, "65 bytes");
	CHECK(one(3, 'X', 64) == VFIT_STATE_MAGIC, "magic");
	CHECK(one(7, 2, 64) == VFIT_STATE_VERSION, "version 2");
	CHECK(one(4, 1, 64) == VFIT_STATE_VERSION, "version's high byte");
	CHECK(one(63, b[63] ^ 1, 64) == VFIT_STATE_CHECKSUM, "the checksum's last byte");
	for (i = 18; i < 32; i++)
		CHECK(one(i, 1, 64) == VFIT_STATE_FIELD, "reserved byte %u set", i);
	CHECK(one(12, 2, 64) == VFIT_STATE_FIELD, "active slot 2");
	CHECK(one(13, 2, 64) == VFIT_STATE_FIELD, "booted slot 2");
	CHECK(one(13, VFIT_BOOT_NONE, 64) == VFIT_STATE_OK, "booted: none");
	CHECK(one(14, 0, 64) == VFIT_STATE_FIELD, "slot A status 0");
	CHECK(one(15, VFIT_SLOT_BAD + 1, 64) == VFIT_STATE_FIELD, "slot B status past bad");
	CHECK(one(15, VFIT_SLOT_BAD, 64) == VFIT_STATE_OK, "slot B bad");
	return check_done();
}
