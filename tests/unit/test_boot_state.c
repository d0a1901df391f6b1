/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot state blob's decoder (lib/boot/boot_state.c) on blobs wrong in
 * exactly one way, each with a SHA-256 that matches (computed here with
 * OpenSSL), so that only the check under test can refuse it: the size,
 * the magic, the version, each reserved byte, each field out of range,
 * and the checksum's last byte.  A refused blob leaves the state as it
 * was; a good one decodes to its fields.  Layout (lib/boot/boot_state.c,
 * version 3): flags to byte 32 (failed flags at 18, 19), the chain digest to
 * SUM, its SHA-256 after.  Then what a state lets the OS confirm
 * (vfit_boot_state_confirmable()).
 */
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "vfit/boot.h"

#define SIZE VFIT_BOOT_STATE_SIZE
#define SUM (SIZE - 32)   /* where the SHA-256 of everything before it goes */

static void seal(uint8_t *b)
{
	unsigned int n = 0;

	REQUIRE(EVP_Digest(b, SUM, b + SUM, &n, EVP_sha256(), NULL) && n == 32, "SHA-256");
}

/* A good blob: seq 7, slot B active, A booted, A good, B trying with 2 tries, a chain digest. */
static void good(uint8_t *b)
{
	memset(b, 0, SIZE + 16);
	memcpy(b, "VFBS", 4);
	b[7] = 3;
	memset(b + 32, 0xa5, SUM - 32);
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
	uint8_t b[SIZE + 16];

	good(b);
	b[at] = value;
	if (at < SUM)
		seal(b);
	r = vfit_boot_state_decode(b, len, &s);
	CHECK(r == VFIT_STATE_OK || s.seq == 99, "a refused blob changed the state");
	return r;
}

int main(void)
{
	struct vfit_boot_state s;
	uint8_t b[SIZE + 16];
	unsigned int i;

	good(b);
	CHECK(vfit_boot_state_decode(b, SIZE, &s) == VFIT_STATE_OK && s.seq == 7 && s.active == 1 &&
	      s.booted == 0 && s.status[0] == VFIT_SLOT_GOOD && s.status[1] == VFIT_SLOT_TRYING &&
	      s.tries[0] == 0 && s.tries[1] == 2, "the good blob's fields");
	CHECK(one(0, 'V', SIZE - 1) == VFIT_STATE_SIZE, "one byte short");
	CHECK(one(0, 'V', SIZE + 1) == VFIT_STATE_SIZE, "one byte long");
	CHECK(one(3, 'X', SIZE) == VFIT_STATE_MAGIC, "magic");
	CHECK(one(7, 4, SIZE) == VFIT_STATE_VERSION, "version 4");
	CHECK(one(7, 2, SIZE) == VFIT_STATE_VERSION, "version 2 (no failed flags)");
	CHECK(one(7, 1, SIZE) == VFIT_STATE_VERSION, "version 1 (no chain digest)");
	CHECK(one(4, 1, SIZE) == VFIT_STATE_VERSION, "version's high byte");
	CHECK(one(SIZE - 1, b[SIZE - 1] ^ 1, SIZE) == VFIT_STATE_CHECKSUM,
	      "the checksum's last byte");
	CHECK(one(SUM - 1, 0x5a, SIZE) == VFIT_STATE_OK, "the chain digest is data, covered");
	for (i = 20; i < 32; i++)
		CHECK(one(i, 1, SIZE) == VFIT_STATE_FIELD, "reserved byte %u set", i);
	CHECK(one(12, 2, SIZE) == VFIT_STATE_FIELD, "active slot 2");
	CHECK(one(13, 3, SIZE) == VFIT_STATE_FIELD, "booted chain 3");
	CHECK(one(13, VFIT_CHAIN_RECOVERY, SIZE) == VFIT_STATE_OK, "booted: recovery");
	CHECK(one(13, VFIT_BOOT_NONE, SIZE) == VFIT_STATE_OK, "booted: none");
	/* A failed flag only on a bad slot, and only 0 or 1. */
	CHECK(one(18, 1, SIZE) == VFIT_STATE_FIELD, "slot A good but failed");
	CHECK(one(19, 2, SIZE) == VFIT_STATE_FIELD, "failed flag 2");
	{
		good(b);
		b[15] = VFIT_SLOT_BAD;
		b[19] = 1;
		seal(b);
		CHECK(vfit_boot_state_decode(b, SIZE, &s) == VFIT_STATE_OK && s.failed[1] == 1 &&
		      s.failed[0] == 0, "slot B bad, failed verification");
	}
	CHECK(one(14, 0, SIZE) == VFIT_STATE_FIELD, "slot A status 0");
	CHECK(one(15, VFIT_SLOT_BAD + 1, SIZE) == VFIT_STATE_FIELD, "slot B status past bad");
	CHECK(one(15, VFIT_SLOT_BAD, SIZE) == VFIT_STATE_OK, "slot B bad");
	/* What the OS may confirm: the chain that booted last, a slot or recovery, unless bad. */
	vfit_boot_state_default(&s);
	CHECK(vfit_boot_state_confirmable(&s) == VFIT_WHY_NOT_BOOTED, "nothing booted yet");
	s.booted = 1;
	s.status[1] = VFIT_SLOT_TRYING;
	CHECK(vfit_boot_state_confirmable(&s) == VFIT_WHY_NONE, "slot B on trial");
	s.status[1] = VFIT_SLOT_BAD;
	CHECK(vfit_boot_state_confirmable(&s) == VFIT_WHY_BOOTED_BAD, "slot B bad");
	s.booted = VFIT_CHAIN_RECOVERY;
	CHECK(vfit_boot_state_confirmable(&s) == VFIT_WHY_NONE, "recovery, both slots bad");
	return check_done();
}
