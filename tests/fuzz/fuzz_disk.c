/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the lib/disk decoders and the boot state blob, on what
 * an attacker who can write the disk puts there.  Input = one selector
 * byte (low 3 bits: what, modulo 6; the rest: a choice for it), then a
 * blob; the blob fills a zeroed block of the size the device reads (short
 * input reads as erased disk), so seeds stay small:
 *   0  GPT: u64 disk size in sectors (little-endian), the header sector
 *      (LBA 1), then the entry array; the header's check, the entry CRC,
 *      every partition looked up by name
 *   1  chain header sector, then u64 partition size (little-endian)
 *   2  a two-copy record (8 KiB) of the kind the choice picks; its payload
 *      decoded as the kind says: boot state, counters or confirmation
 *   3  a boot state blob of the blob's own length
 *   4  a counters payload of the blob's length (get, set of the choice)
 *   5  a confirmation payload of the blob's length
 * 4 and 5 reach the payload decoders without the record's SHA-256 (the
 * state blob has its own: its fields are reached through the seeds).
 * Every block is an exact-size heap block, so ASan sees any access
 * outside it.  What decodes must also make sense (a found partition inside
 * the usable range, a record's payload inside its copy, a decoded state
 * or chain encoding back to the same bytes): a violation aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/boot.h"
#include "vfit/disk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const parts[] = { "vfit-a", "vfit-b", "vfit-recovery", "vfit-state",
				     "vfit-counters" };

/* A heap block of n bytes holding blob[0..min(n, len)) and zeros after it. */
static uint8_t *block(const uint8_t *blob, size_t len, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		abort();
	memset(b, 0, n);
	memcpy(b, blob, len < n ? len : n);
	return b;
}

static uint64_t get_le64(const uint8_t *in, size_t len)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 8 && i < len; i++)
		v |= (uint64_t)in[i] << 8 * i;
	return v;
}

static void gpt(const uint8_t *in, size_t len)
{
	const uint64_t lbas = get_le64(in, len);
	uint8_t *sec, *ents;
	struct vfit_gpt g;
	struct vfit_part p;
	size_t i;

	in += len < 8 ? len : 8;
	len -= len < 8 ? len : 8;
	sec = block(in, len, VFIT_DISK_SECTOR);
	if (vfit_gpt_header(sec, 1, lbas, &g) == VFIT_DISK_OK) {
		if (g.nentries > VFIT_GPT_ENTRIES || vfit_gpt_entries_bytes(&g) > 16384)
			abort();
		len = len > VFIT_DISK_SECTOR ? len - VFIT_DISK_SECTOR : 0;
		ents = block(in + VFIT_DISK_SECTOR, len, vfit_gpt_entries_bytes(&g));
		(void)vfit_gpt_entries_ok(&g, ents);
		/* A CRC is no security boundary: the lookup must be safe on any entries. */
		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
			if (vfit_gpt_find(&g, ents, parts[i], &p) == VFIT_DISK_OK &&
			    (p.first_lba < g.first_lba || p.first_lba > p.last_lba ||
			     p.last_lba > g.last_lba || p.last_lba >= lbas))
				abort();
		free(ents);
	}
	free(sec);
}

static void chain(const uint8_t *in, size_t len)
{
	uint8_t *sec = block(in, len, VFIT_DISK_SECTOR), again[VFIT_DISK_SECTOR];
	uint64_t part = len > VFIT_DISK_SECTOR ? get_le64(in + VFIT_DISK_SECTOR,
							  len - VFIT_DISK_SECTOR) : 0;
	struct vfit_chain c;
	uint32_t i;

	if (vfit_chain_decode(sec, part, &c) == VFIT_DISK_OK) {
		for (i = 0; i < c.count; i++)
			if (c.offset[i] < VFIT_DISK_SECTOR || c.offset[i] + c.size[i] > part ||
			    c.offset[i] + c.size[i] < c.offset[i])
				abort();
		/* Everything a valid header holds is in the decoded fields. */
		vfit_chain_encode(&c, again);
		if (memcmp(again, sec, VFIT_CHAIN_HDR_SIZE))
			abort();
	}
	free(sec);
}

/* The payload sits at the start of a block of the record's payload room, as in a copy. */
static void counters(const uint8_t *pl, uint32_t len, uint8_t pick)
{
	static const char *const names[] = { "kernel", "bootloader", "a" };
	uint8_t *p = block(pl, len, VFIT_REC_PAYLOAD_MAX);
	uint64_t v;
	uint32_t n = len;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		(void)vfit_ctr_get(p, len, names[i], &v);
	if (vfit_ctr_set(p, &n, VFIT_REC_PAYLOAD_MAX, names[pick % 3], pick) == VFIT_DISK_OK &&
	    (n > VFIT_REC_PAYLOAD_MAX || vfit_ctr_get(p, n, names[pick % 3], &v) != VFIT_DISK_OK ||
	     v != pick))
		abort();
	free(p);
}

static void state(const uint8_t *in, size_t len)
{
	uint8_t *b = block(in, len, len), again[VFIT_BOOT_STATE_SIZE];
	struct vfit_boot_state s;

	if (vfit_boot_state_decode(b, len, &s) == VFIT_STATE_OK) {
		vfit_boot_state_encode(&s, again);
		if (memcmp(again, b, VFIT_BOOT_STATE_SIZE))
			abort();
	}
	free(b);
}

static void confirm(const uint8_t *in, size_t len)
{
	uint8_t *b = block(in, len, len);
	struct vfit_confirm c;

	if (vfit_confirm_decode(b, (uint32_t)len, &c) == VFIT_DISK_OK && c.slot > 2)
		abort();
	free(b);
}

static void record(const uint8_t *in, size_t len, uint8_t pick)
{
	static const uint32_t kinds[] = { VFIT_REC_STATE, VFIT_REC_COUNTERS, VFIT_REC_CONFIRM };
	uint8_t *copies = block(in, len, 2 * VFIT_REC_COPY);
	uint32_t kind = kinds[pick % 3], plen, seq;
	const uint8_t *pl;
	unsigned int which;

	if (vfit_rec_decode(copies, kind, &pl, &plen, &seq, &which) == VFIT_DISK_OK) {
		if (which > 1 || plen > VFIT_REC_PAYLOAD_MAX ||
		    pl != copies + which * VFIT_REC_COPY + VFIT_REC_HDR)
			abort();
		if (kind == VFIT_REC_STATE)
			state(pl, plen);
		else if (kind == VFIT_REC_COUNTERS)
			counters(pl, plen, pick);
		else
			confirm(pl, plen);
	}
	free(copies);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch ((data[0] & 7) % 6) {
	case 0:
		gpt(data + 1, size - 1);
		break;
	case 1:
		chain(data + 1, size - 1);
		break;
	case 2:
		record(data + 1, size - 1, data[0] >> 3);
		break;
	case 3:
		state(data + 1, size - 1);
		break;
	case 4:
		if (size - 1 <= VFIT_REC_PAYLOAD_MAX)
			counters(data + 1, (uint32_t)(size - 1), data[0] >> 3);
		break;
	default:
		confirm(data + 1, size - 1);
		break;
	}
	return 0;
}
