/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot state blob, 96 bytes, big-endian like an FDT:
 *   0  "VFBS"        magic
 *   4  u32 version   3 (older ones are refused as VERSION: 1 had no chain
 *                    digest, 2 no failed flags and no recovery record)
 *   8  u32 seq       bumped whenever the state changes (not at every boot)
 *  12  u8 active     slot tried first
 *  13  u8 booted     chain of the last boot: 0, 1, 2 recovery, 0xff none
 *  14  u8 status[2]  per slot: 1 good, 2 trying, 3 bad
 *  16  u8 tries[2]   boots left for a slot on trial
 *  18  u8 failed[2]  1: the slot is bad because its chain failed verification
 *  20  zero to 32
 *  32  digest of the chain booted last (zeros: none)
 *  64  SHA-256 of bytes 0..63
 * A blob that fails any check is not trusted at all (the flow then starts
 * from the default state; slots are still verified on every boot, so the
 * state only steers the order, never what is trusted).
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/boot.h"

#include "../byteorder.h"

#define STATE_MAGIC "VFBS"
#define STATE_VERSION 3u
#define STATE_BODY 64
#define STATE_FLAGS_END 32

void vfit_boot_state_default(struct vfit_boot_state *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->active = 0;
	s->booted = VFIT_BOOT_NONE;
	for (i = 0; i < VFIT_BOOT_SLOTS; i++)
		s->status[i] = VFIT_SLOT_GOOD;
}

void vfit_boot_state_encode(const struct vfit_boot_state *s, uint8_t out[VFIT_BOOT_STATE_SIZE])
{
	unsigned int i;

	memset(out, 0, VFIT_BOOT_STATE_SIZE);
	memcpy(out, STATE_MAGIC, 4);
	st_be32(out + 4, STATE_VERSION);
	st_be32(out + 8, s->seq);
	out[12] = s->active;
	out[13] = s->booted;
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		out[14 + i] = s->status[i];
		out[16 + i] = s->tries[i];
		out[18 + i] = s->failed[i];
	}
	memcpy(out + STATE_FLAGS_END, s->chain, VFIT_BOOT_DIGEST);
	vfit_hash(VFIT_HASH_SHA256, out, STATE_BODY, out + STATE_BODY);
}

enum vfit_state_check vfit_boot_state_decode(const uint8_t *in, size_t len,
					     struct vfit_boot_state *s)
{
	uint8_t sum[32];
	unsigned int i;

	if (len != VFIT_BOOT_STATE_SIZE)
		return VFIT_STATE_SIZE;
	if (memcmp(in, STATE_MAGIC, 4))
		return VFIT_STATE_MAGIC;
	if (ld_be32(in + 4) != STATE_VERSION)
		return VFIT_STATE_VERSION;
	if (vfit_hash(VFIT_HASH_SHA256, in, STATE_BODY, sum) ||
	    memcmp(sum, in + STATE_BODY, sizeof(sum)))
		return VFIT_STATE_CHECKSUM;
	for (i = 20; i < STATE_FLAGS_END; i++)
		if (in[i])
			return VFIT_STATE_FIELD;
	if (in[12] >= VFIT_BOOT_SLOTS || (in[13] > VFIT_CHAIN_RECOVERY && in[13] != VFIT_BOOT_NONE))
		return VFIT_STATE_FIELD;
	for (i = 0; i < VFIT_BOOT_SLOTS; i++)
		if (in[14 + i] < VFIT_SLOT_GOOD || in[14 + i] > VFIT_SLOT_BAD || in[18 + i] > 1 ||
		    (in[18 + i] && in[14 + i] != VFIT_SLOT_BAD))
			return VFIT_STATE_FIELD;
	s->seq = ld_be32(in + 8);
	s->active = in[12];
	s->booted = in[13];
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		s->status[i] = in[14 + i];
		s->tries[i] = in[16 + i];
		s->failed[i] = in[18 + i];
	}
	memcpy(s->chain, in + STATE_FLAGS_END, VFIT_BOOT_DIGEST);
	return VFIT_STATE_OK;
}

enum vfit_boot_why vfit_boot_state_confirmable(const struct vfit_boot_state *s)
{
	if (s->booted == VFIT_BOOT_NONE)
		return VFIT_WHY_NOT_BOOTED;
	if (s->booted < VFIT_BOOT_SLOTS && s->status[s->booted] == VFIT_SLOT_BAD)
		return VFIT_WHY_BOOTED_BAD;
	return VFIT_WHY_NONE;
}
