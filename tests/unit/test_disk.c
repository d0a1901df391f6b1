/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/disk, the codecs of the vfit boot disk, on hostile input: GPT
 * headers and entries (CRC, self-location, bounds, overlap, limits,
 * duplicate and misplaced partitions), chain headers (count, order,
 * alignment, overflow, stale entries, CRC), two-copy records (torn,
 * padded, wrong kind, serial-number order across the wrap) and the
 * counters payload (names, duplicates, size, capacity).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vfit/disk.h"
#include "vfit/hash.h"

#define LBAS 20000u

static uint8_t ents[VFIT_GPT_ENTRIES * VFIT_GPT_ENTRY_SIZE];

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static struct vfit_gpt good_gpt(void)
{
	struct vfit_gpt g = { .my_lba = 1, .alt_lba = LBAS - 1, .first_lba = 34,
			      .last_lba = LBAS - 34, .entries_lba = 2,
			      .nentries = VFIT_GPT_ENTRIES, .entry_size = VFIT_GPT_ENTRY_SIZE };

	g.entries_crc = vfit_crc32(0, ents, sizeof(ents));
	return g;
}

static void part(unsigned int i, const char *name, uint64_t first, uint64_t last)
{
	struct vfit_part p = { .first_lba = first, .last_lba = last };

	memcpy(p.type, (const uint8_t[16])VFIT_DISK_TYPE_BYTES, 16);
	memset(p.guid, (int)i + 1, 16);
	vfit_gpt_entry_encode(&p, name, ents + i * VFIT_GPT_ENTRY_SIZE);
}

static enum vfit_disk_result header(const struct vfit_gpt *in)
{
	uint8_t sec[VFIT_DISK_SECTOR];
	struct vfit_gpt out;

	vfit_gpt_header_encode(in, sec);
	return vfit_gpt_header(sec, in->my_lba, LBAS, &out);
}

static void gpt(void)
{
	uint8_t sec[VFIT_DISK_SECTOR], g16[16];
	struct vfit_gpt g, out;
	struct vfit_part p;

	CHECK(vfit_guid_parse("7f6d1a3c-91b2-4c57-a6e0-3b8d5e2f4c19", g16) == VFIT_DISK_OK &&
	      g16[0] == 0x3c && g16[3] == 0x7f && g16[4] == 0xb2 && g16[6] == 0x57 &&
	      g16[8] == 0xa6 && g16[15] == 0x19, "GUID text to GPT byte order");
	CHECK(vfit_guid_parse(VFIT_DISK_TYPE_GUID, g16) == VFIT_DISK_OK &&
	      !memcmp(g16, (const uint8_t[16])VFIT_DISK_TYPE_BYTES, 16),
	      "VFIT_DISK_TYPE_BYTES is VFIT_DISK_TYPE_GUID in GPT byte order");
	CHECK(vfit_guid_parse("7f6d1a3c-91b2-4c57-a6e0-3b8d5e2f4c1", g16) == VFIT_DISK_BAD &&
	      vfit_guid_parse("7f6d1a3c91b2-4c57-a6e0-3b8d5e2f4c19x", g16) == VFIT_DISK_BAD &&
	      vfit_guid_parse("7f6d1a3c-91b2-4c57-a6e0-3b8d5e2f4c1g", g16) == VFIT_DISK_BAD,
	      "malformed GUIDs");
	CHECK(!strcmp(vfit_disk_result_to_string(VFIT_DISK_FULL), "does not fit") &&
	      !strcmp(vfit_disk_result_to_string((enum vfit_disk_result)99), "unknown result"),
	      "result names");

	memset(ents, 0, sizeof(ents));
	part(0, "vfit-a", 2048, 4095);
	part(1, "vfit-b", 4096, 6143);
	g = good_gpt();
	CHECK(header(&g) == VFIT_DISK_OK, "a good header");
	vfit_gpt_header_encode(&g, sec);
	CHECK(vfit_gpt_header(sec, 1, LBAS, &out) == VFIT_DISK_OK && out.last_lba == LBAS - 34,
	      "fields read back");
	CHECK(vfit_gpt_header(sec, 2, LBAS, &out) == VFIT_DISK_BAD, "read from another LBA");
	CHECK(vfit_gpt_header(sec, 1, LBAS - 100, &out) == VFIT_DISK_BAD, "alternate beyond the disk");
	sec[100] ^= 1;
	CHECK(vfit_gpt_header(sec, 1, LBAS, &out) == VFIT_DISK_OK, "bytes past the header size are not covered");
	sec[40] ^= 1;
	CHECK(vfit_gpt_header(sec, 1, LBAS, &out) == VFIT_DISK_BAD, "header CRC");
	g = good_gpt(), g.nentries = 129;
	CHECK(header(&g) == VFIT_DISK_BAD, "more than 128 entries");
	g = good_gpt(), g.nentries = 0;
	CHECK(header(&g) == VFIT_DISK_BAD, "no entries");
	g = good_gpt(), g.entry_size = 256;
	CHECK(header(&g) == VFIT_DISK_BAD, "entries of another size");
	g = good_gpt(), g.first_lba = 20;
	CHECK(header(&g) == VFIT_DISK_BAD, "usable range over the entry array");
	g = good_gpt(), g.last_lba = LBAS;
	CHECK(header(&g) == VFIT_DISK_BAD, "usable range past the disk");
	g = good_gpt(), g.first_lba = 5000, g.last_lba = 4000;
	CHECK(header(&g) == VFIT_DISK_BAD, "empty usable range");
	g = good_gpt(), g.entries_lba = LBAS - 10;
	CHECK(header(&g) == VFIT_DISK_BAD, "entry array past the end of the disk");
	g = good_gpt(), g.entries_lba = 1;
	CHECK(header(&g) == VFIT_DISK_BAD, "entry array over the header");
	g = good_gpt(), g.entries_lba = 0xffffffffffffffffull;
	CHECK(header(&g) == VFIT_DISK_BAD, "entry array LBA wraps");

	g = good_gpt();
	CHECK(vfit_gpt_entries_ok(&g, ents), "entry CRC");
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_OK && p.first_lba == 4096 &&
	      p.last_lba == 6143, "found by name");
	CHECK(vfit_gpt_find(&g, ents, "vfit-recovery", &p) == VFIT_DISK_ABSENT, "absent name");
	CHECK(vfit_gpt_find(&g, ents, "vfit-", &p) == VFIT_DISK_ABSENT, "a prefix is not the name");
	ents[VFIT_GPT_ENTRY_SIZE] ^= 1;   /* vfit-b's type */
	CHECK(!vfit_gpt_entries_ok(&g, ents), "entry CRC catches a change");
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_ABSENT, "another type is not ours");
	part(1, "vfit-a", 4096, 6143);
	CHECK(vfit_gpt_find(&g, ents, "vfit-a", &p) == VFIT_DISK_BAD, "two partitions, one name");
	part(1, "vfit-b", 30, 6143);
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_BAD, "before the usable range");
	part(1, "vfit-b", 4096, LBAS - 33);
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_BAD, "after the usable range");
	part(1, "vfit-b", 6143, 4096);
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_BAD, "reversed range");
	part(1, "vfit-b", 4096, 6143);
	part(2, "vfit-state", 6144, 8191);
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_OK, "a neighbour ends before");
	part(2, "vfit-state", 6143, 8191);
	CHECK(vfit_gpt_find(&g, ents, "vfit-b", &p) == VFIT_DISK_BAD &&
	      vfit_gpt_find(&g, ents, "vfit-state", &p) == VFIT_DISK_BAD, "one shared sector");
	part(2, "rootfs", 1000, 9000);
	ents[2 * VFIT_GPT_ENTRY_SIZE] ^= 1;   /* another type: still a partition */
	CHECK(vfit_gpt_find(&g, ents, "vfit-a", &p) == VFIT_DISK_BAD, "inside another type's");
	memset(ents + 2 * VFIT_GPT_ENTRY_SIZE, 0, VFIT_GPT_ENTRY_SIZE);
}

static enum vfit_disk_result chain(const struct vfit_chain *c, uint64_t part_bytes)
{
	uint8_t sec[VFIT_DISK_SECTOR];
	struct vfit_chain out;

	vfit_chain_encode(c, sec);
	return vfit_chain_decode(sec, part_bytes, &out);
}

static void chains(void)
{
	struct vfit_chain c = { 2, { 4096, 8192 }, { 4000, 1000 } }, out;
	uint8_t sec[VFIT_DISK_SECTOR];

	CHECK(chain(&c, 1 << 20) == VFIT_DISK_OK, "a good chain");
	vfit_chain_encode(&c, sec);
	CHECK(!vfit_chain_decode(sec, 1 << 20, &out) && out.count == 2 && out.offset[1] == 8192 &&
	      out.size[0] == 4000, "fields read back");
	CHECK(chain(&c, 9000) == VFIT_DISK_BAD, "past the partition");
	CHECK(chain(&c, 9192) == VFIT_DISK_OK, "ends exactly at the partition end");
	c.offset[1] = 7680;
	CHECK(chain(&c, 1 << 20) == VFIT_DISK_BAD, "overlapping FITs");
	c.offset[1] = 8100;
	CHECK(chain(&c, 1 << 20) == VFIT_DISK_BAD, "unaligned FIT");
	c.offset[0] = 0, c.offset[1] = 8192;
	CHECK(chain(&c, 1 << 20) == VFIT_DISK_BAD, "a FIT over the header");
	c.offset[0] = 4096, c.size[1] = 0xffffffffffffff00ull;
	CHECK(chain(&c, 1 << 20) == VFIT_DISK_BAD, "size wraps");
	c.size[1] = 0;
	CHECK(chain(&c, 1 << 20) == VFIT_DISK_BAD, "empty FIT");
	c.size[1] = 1000, c.count = 5;
	vfit_chain_encode(&c, sec);
	put32(sec + 12, 5);
	put32(sec + 80, vfit_crc32(0, sec, 80));
	CHECK(vfit_chain_decode(sec, 1 << 20, &out) == VFIT_DISK_BAD, "more than four FITs");
	c.count = 2;
	vfit_chain_encode(&c, sec);
	put64(sec + 48, 12288);   /* entry 2 set though count is 2 */
	put32(sec + 80, vfit_crc32(0, sec, 80));
	CHECK(vfit_chain_decode(sec, 1 << 20, &out) == VFIT_DISK_BAD, "stale unused entry");
	vfit_chain_encode(&c, sec);
	sec[30] ^= 1;
	CHECK(vfit_chain_decode(sec, 1 << 20, &out) == VFIT_DISK_BAD, "CRC");
	vfit_chain_encode(&c, sec);
	sec[0] = 'X';
	CHECK(vfit_chain_decode(sec, 1 << 20, &out) == VFIT_DISK_BAD, "magic");
	memset(sec, 0, sizeof(sec));
	CHECK(vfit_chain_decode(sec, 1 << 20, &out) == VFIT_DISK_BAD, "an erased header");
}

/*
 * A copy is valid only whole: each byte of its header (magic, kind, seq,
 * len, zero word), payload and checksum changed in turn leaves the other
 * copy, and with no other copy the record is corrupt.  The SHA-256 is
 * compared on all 32 bytes, its last ones too.
 */
static void record_bytes(void)
{
	static uint8_t r[2 * VFIT_REC_COPY], one[2 * VFIT_REC_COPY];
	const uint32_t len = 5, end = VFIT_REC_HDR + len + VFIT_REC_SUM;
	const uint8_t *pl;
	uint32_t got, seq, i;
	unsigned int which;

	memset(one, 0, sizeof(one));
	REQUIRE(!vfit_rec_encode(VFIT_REC_COUNTERS, 3, "older", len, r) &&
		!vfit_rec_encode(VFIT_REC_COUNTERS, 4, "newer", len, r + VFIT_REC_COPY),
		"two copies");
	for (i = 0; i < end; i++) {
		uint8_t *b = r + VFIT_REC_COPY + i;
		const char *what = i < 8 ? "magic" : i < 12 ? "kind" : i < 16 ? "seq" :
				   i < 20 ? "len" : i < 24 ? "zero word" :
				   i < VFIT_REC_HDR + len ? "payload" : "checksum";

		*b ^= 0x80;
		CHECK(!vfit_rec_decode(r, VFIT_REC_COUNTERS, &pl, &got, &seq, &which) &&
		      which == 0 && seq == 3 && !memcmp(pl, "older", len),
		      "newer copy's byte %u (%s) changed: the older copy not chosen", i, what);
		memcpy(one, r + VFIT_REC_COPY, VFIT_REC_COPY);
		CHECK(vfit_rec_decode(one, VFIT_REC_COUNTERS, &pl, &got, &seq, &which) ==
			      VFIT_DISK_BAD,
		      "byte %u (%s) changed: the copy alone still valid", i, what);
		*b ^= 0x80;
	}
}

static void records(void)
{
	static uint8_t r[2 * VFIT_REC_COPY], big[VFIT_REC_PAYLOAD_MAX + 1];
	const uint8_t *pl;
	uint32_t len, seq;
	unsigned int which;

	memset(r, 0, sizeof(r));
	CHECK(vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "erased: corrupt, never empty");
	CHECK(!vfit_rec_encode(VFIT_REC_STATE, 7, "abc", 3, r), "encode");
	CHECK(!vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) && len == 3 &&
	      !memcmp(pl, "abc", 3) && seq == 7 && which == 0, "one copy");
	CHECK(vfit_rec_decode(r, VFIT_REC_COUNTERS, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "wrong kind");
	REQUIRE(vfit_rec_encode(VFIT_REC_STATE, 8, "defg", 4, r + VFIT_REC_COPY) == VFIT_DISK_OK, "set-up");
	CHECK(!vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) && which == 1 &&
	      len == 4, "the newer copy");
	r[VFIT_REC_COPY + 25] ^= 1;
	CHECK(!vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) && which == 0 &&
	      seq == 7, "a torn newer copy: the older one");
	REQUIRE(vfit_rec_encode(VFIT_REC_STATE, 8, "defg", 4, r + VFIT_REC_COPY) == VFIT_DISK_OK, "set-up");
	r[VFIT_REC_COPY + 4000] = 1;
	CHECK(!vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) && which == 0,
	      "non-zero padding invalidates a copy");
	REQUIRE(vfit_rec_encode(VFIT_REC_STATE, 0xffffffffu, "x", 1, r) == VFIT_DISK_OK, "set-up");
	REQUIRE(vfit_rec_encode(VFIT_REC_STATE, 0, "y", 1, r + VFIT_REC_COPY) == VFIT_DISK_OK, "set-up");
	CHECK(!vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) && which == 1 &&
	      pl[0] == 'y', "sequence numbers wrap");
	REQUIRE(vfit_rec_encode(VFIT_REC_STATE, 1, "x", 1, r) == VFIT_DISK_OK, "set-up");
	put32(r + 16, VFIT_REC_COPY);  /* a length beyond the copy */
	r[VFIT_REC_COPY] = 0;
	CHECK(vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "length past the copy");
	CHECK(vfit_rec_encode(VFIT_REC_STATE, 1, big, sizeof(big), r) == VFIT_DISK_FULL,
	      "payload too large");
	record_bytes();
}

static void counters(void)
{
	static uint8_t p[VFIT_REC_PAYLOAD_MAX];
	uint32_t len = 0, i;
	uint64_t v = 1;
	char name[40];

	CHECK(vfit_ctr_get(p, 0, "kernel", &v) == VFIT_DISK_ABSENT, "empty store");
	CHECK(!vfit_ctr_set(p, &len, sizeof(p), "kernel", 5) && len == VFIT_DISK_CTR_ENTRY, "add");
	CHECK(!vfit_ctr_set(p, &len, sizeof(p), "boot.loader-1_x", 9), "add a second");
	CHECK(!vfit_ctr_set(p, &len, sizeof(p), "kernel", 6) && len == 2 * VFIT_DISK_CTR_ENTRY,
	      "update in place");
	CHECK(!vfit_ctr_get(p, len, "kernel", &v) && v == 6, "read back");
	CHECK(vfit_ctr_get(p, len, "kerne", &v) == VFIT_DISK_ABSENT, "a prefix is another name");
	CHECK(vfit_ctr_set(p, &len, sizeof(p), "a/b", 1) == VFIT_DISK_BAD, "bad character");
	CHECK(vfit_ctr_set(p, &len, sizeof(p), "", 1) == VFIT_DISK_BAD, "empty name");
	CHECK(vfit_ctr_set(p, &len, sizeof(p), "0123456789012345678901234567890123", 1) ==
	      VFIT_DISK_BAD && len == 2 * VFIT_DISK_CTR_ENTRY, "name too long");
	CHECK(vfit_ctr_get(p, len - 1, "kernel", &v) == VFIT_DISK_BAD, "partial entry");
	memcpy(p + VFIT_DISK_CTR_ENTRY, p, VFIT_DISK_CTR_NAME);
	CHECK(vfit_ctr_get(p, len, "kernel", &v) == VFIT_DISK_BAD, "duplicate name");
	len = 0;
	REQUIRE(vfit_ctr_set(p, &len, sizeof(p), "kernel", 1) == VFIT_DISK_OK, "set-up");
	p[10] = 1;
	CHECK(vfit_ctr_get(p, len, "kernel", &v) == VFIT_DISK_BAD, "junk after the name's NUL");
	memset(p, 'k', VFIT_DISK_CTR_NAME);
	CHECK(vfit_ctr_get(p, len, "kernel", &v) == VFIT_DISK_BAD, "a name without its NUL");
	len = 0;
	CHECK(!vfit_ctr_set(p, &len, sizeof(p), "0123456789012345678901234567890", 3) &&
	      !vfit_ctr_get(p, len, "0123456789012345678901234567890", &v) && v == 3,
	      "a name of 31 characters");
	len = 0;
	for (i = 0; i < VFIT_DISK_CTR_MAX; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		if (vfit_ctr_set(p, &len, sizeof(p), name, i))
			break;
	}
	CHECK(i == VFIT_DISK_CTR_MAX, "%u counters fit", VFIT_DISK_CTR_MAX);
	CHECK(vfit_ctr_set(p, &len, sizeof(p), "one-more", 1) == VFIT_DISK_FULL, "then full");
}

static void confirms(void)
{
	struct vfit_confirm c = { 1, 0xfffffffeu }, out = { 7, 7 };
	uint8_t p[VFIT_CONFIRM_SIZE + 1];

	CHECK(vfit_confirm_decode(p, 0, &out) == VFIT_DISK_ABSENT && out.slot == 7,
	      "empty: nothing to confirm");
	vfit_confirm_encode(&c, p);
	CHECK(!vfit_confirm_decode(p, VFIT_CONFIRM_SIZE, &out) && out.slot == 1 &&
	      out.seq == 0xfffffffeu, "slot and seq read back");
	CHECK(p[0] == 1 && p[4] == 0xfe && p[7] == 0xff, "little-endian");
	CHECK(vfit_confirm_decode(p, VFIT_CONFIRM_SIZE - 1, &out) == VFIT_DISK_BAD, "short");
	CHECK(vfit_confirm_decode(p, VFIT_CONFIRM_SIZE + 1, &out) == VFIT_DISK_BAD, "long");
	c.slot = 2;
	vfit_confirm_encode(&c, p);
	CHECK(!vfit_confirm_decode(p, VFIT_CONFIRM_SIZE, &out) && out.slot == 2,
	      "recovery (2) confirmed too");
	c.slot = 3;
	vfit_confirm_encode(&c, p);
	CHECK(vfit_confirm_decode(p, VFIT_CONFIRM_SIZE, &out) == VFIT_DISK_BAD, "no chain 3");
	p[0] = 0;
	p[3] = 1;
	CHECK(vfit_confirm_decode(p, VFIT_CONFIRM_SIZE, &out) == VFIT_DISK_BAD,
	      "a slot number that only its low byte makes 0");
}

int main(void)
{
	gpt();
	chains();
	records();
	counters();
	confirms();
	return check_done();
}
