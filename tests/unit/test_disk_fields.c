/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each refusal of lib/disk on its own: a GPT header, chain header or record
 * copy wrong in exactly one field while everything else holds, its CRC-32
 * or SHA-256 included (computed here with zlib and OpenSSL, not with
 * lib/), and a counters payload over the caller's room.  test_disk builds
 * its bad inputs through the encoders, where one bad field often trips a
 * second check too; here only the check under test can refuse, so
 * dropping any one of them fails a case
 * (tests/mutate/mutants).
 */
#include <string.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "check.h"
#include "vfit/disk.h"

#define LBAS 20000u
#define PART (1u << 20)

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t crc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(0, p, (uInt)n);
}

/* ---- GPT header (UEFI 2.10 §5.3.2) ------------------------------------------ */

struct hdr {
	uint32_t rev, size, nentries, esize;
	uint64_t my, alt, first, last, entries;
};

static struct hdr good(void)
{
	struct hdr h = { 0x00010000u, 92, 128, 128, 1, LBAS - 1, 34, LBAS - 34, 2 };

	return h;
}

/* The header in sec[0..1024) (a size past the sector is read from the next bytes), CRC right. */
static void hdr_make(const struct hdr *h, uint8_t *sec)
{
	memset(sec, 0, 1024);
	memcpy(sec, "EFI PART", 8);
	put32(sec + 8, h->rev);
	put32(sec + 12, h->size);
	put64(sec + 24, h->my);
	put64(sec + 32, h->alt);
	put64(sec + 40, h->first);
	put64(sec + 48, h->last);
	put64(sec + 72, h->entries);
	put32(sec + 80, h->nentries);
	put32(sec + 84, h->esize);
	put32(sec + 16, crc(sec, h->size <= 1024 ? h->size : 1024));
}

static enum vfit_disk_result hdr_check(const struct hdr *h, uint64_t lba)
{
	uint8_t sec[1024];
	struct vfit_gpt g;

	hdr_make(h, sec);
	return vfit_gpt_header(sec, lba, LBAS, &g);
}

#define HDR(what, stmt, lba)                                                          \
	do {                                                                          \
		struct hdr h = good();                                                \
		stmt;                                                                 \
		CHECK(hdr_check(&h, lba) == VFIT_DISK_BAD, "GPT header: %s accepted", what); \
	} while (0)

static void gpt_header(void)
{
	struct hdr o = good();
	uint8_t sec[1024];
	struct vfit_gpt g;

	REQUIRE(hdr_check(&o, 1) == VFIT_DISK_OK, "the good header");
	o.entries = LBAS - 33, o.first = 2;
	REQUIRE(hdr_check(&o, 1) == VFIT_DISK_OK, "entries at the end, usable range from LBA 2");
	o = good();
	o.my = 40, o.entries = 1, o.first = 50;
	REQUIRE(hdr_check(&o, 40) == VFIT_DISK_OK, "a header at LBA 40, entries from LBA 1");
	o = good();
	hdr_make(&o, sec);
	sec[6] = 'X'; /* "EFI PAXT" */
	put32(sec + 16, 0);
	put32(sec + 16, crc(sec, 92));
	CHECK(vfit_gpt_header(sec, 1, LBAS, &g) == VFIT_DISK_BAD, "signature's seventh byte");
	HDR("revision 1.1", h.rev = 0x00010001u, 1);
	HDR("a 91-byte header", h.size = 91, 1);
	HDR("a header larger than its sector", h.size = 600, 1);
	HDR("a header read from another LBA", (void)0, 1000);
	HDR("the alternate header past the disk", h.alt = LBAS, 1);
	HDR("the alternate header at the header's own LBA", h.alt = 1, 1);
	/* Room for more or larger entries before the usable range: only the count or size is wrong. */
	HDR("129 entries", (h.nentries = 129, h.first = 100), 1);
	HDR("256-byte entries", (h.esize = 256, h.first = 100), 1);
	/* Entries at the end: the usable range may start anywhere but in LBA 0 or 1. */
	HDR("usable range from LBA 1", (h.first = 1, h.entries = LBAS - 33, h.last = LBAS - 34), 1);
	HDR("entry array at LBA 0", (h.my = 40, h.entries = 0, h.first = 50), 40);
	HDR("entry array starting past the disk", (h.entries = LBAS, h.last = 1000), 1);
}

/* A vfit entry whose name is vfit-a but for one byte of its UTF-16LE text. */
static void gpt_names(void)
{
	static uint8_t ents[VFIT_GPT_ENTRIES * VFIT_GPT_ENTRY_SIZE];
	struct vfit_gpt g = { .my_lba = 1, .alt_lba = LBAS - 1, .first_lba = 34,
			      .last_lba = LBAS - 34, .entries_lba = 2,
			      .nentries = VFIT_GPT_ENTRIES, .entry_size = VFIT_GPT_ENTRY_SIZE };
	struct vfit_part p = { .first_lba = 2048, .last_lba = 4095 };

	REQUIRE(vfit_guid_parse(VFIT_DISK_TYPE_GUID, p.type) == VFIT_DISK_OK, "type GUID");
	vfit_gpt_entry_encode(&p, "vfit-a", ents);
	REQUIRE(vfit_gpt_find(&g, ents, "vfit-a", &p) == VFIT_DISK_OK, "vfit-a found");
	ents[56 + 1] = 0x01; /* 'v' becomes U+0176 */
	CHECK(vfit_gpt_find(&g, ents, "vfit-a", &p) == VFIT_DISK_ABSENT,
	      "a name that differs in a high byte of UTF-16 taken for vfit-a");
}

/* ---- chain header (include/vfit/disk.h) -------------------------------------- */

static void chain_make(uint8_t *sec, uint32_t count, const uint64_t *off, const uint64_t *size)
{
	uint32_t i;

	memset(sec, 0, VFIT_DISK_SECTOR);
	memcpy(sec, "VFITCHN", 8);
	put32(sec + 8, 1);
	put32(sec + 12, count);
	for (i = 0; i < VFIT_CHAIN_MAX; i++) {
		put64(sec + 16 + 16 * i, off[i]);
		put64(sec + 24 + 16 * i, size[i]);
	}
	put32(sec + 80, crc(sec, 80));
}

static void chains(void)
{
	uint64_t off[4] = { 4096, 8192, 0, 0 }, size[4] = { 4000, 1000, 0, 0 };
	uint8_t sec[VFIT_DISK_SECTOR];
	struct vfit_chain c;

	chain_make(sec, 2, off, size);
	REQUIRE(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_OK, "the good chain");
	sec[5] = 'X';
	put32(sec + 80, crc(sec, 80));
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "magic's sixth byte");
	chain_make(sec, 2, off, size);
	put32(sec + 8, 2);
	put32(sec + 80, crc(sec, 80));
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "version 2");
	chain_make(sec, 2, off, size);
	put64(sec + 32, 8704); /* FIT 2 moved by a sector: well-formed, CRC stale */
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "a header that no longer has its CRC");
	off[2] = 12288, size[2] = 10, off[3] = 16384, size[3] = 10;
	chain_make(sec, 4, off, size);
	REQUIRE(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_OK, "four FITs");
	chain_make(sec, 5, off, size);
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "a count of five over four good entries");
	off[3] = 0;
	chain_make(sec, 3, off, size);
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "an unused entry with a size only");
	chain_make(sec, 1, (uint64_t[4]){ PART + 512, 0, 0, 0 }, (uint64_t[4]){ 1, 0, 0, 0 });
	CHECK(vfit_chain_decode(sec, PART, &c) == VFIT_DISK_BAD, "a FIT starting past the partition");
}

/* ---- record copies ----------------------------------------------------------- */

/* One copy at r (other half erased) with its SHA-256 over what is there. */
static void rec_make(uint8_t *r, const char *magic, uint32_t kind, uint32_t zero,
		     const char *payload, uint32_t len)
{
	unsigned int n = 0;

	memset(r, 0, 2 * VFIT_REC_COPY);
	memcpy(r, magic, 8);
	put32(r + 8, kind);
	put32(r + 12, 1);
	put32(r + 16, len);
	put32(r + 20, zero);
	memcpy(r + VFIT_REC_HDR, payload, len);
	REQUIRE(EVP_Digest(r, VFIT_REC_HDR + len, r + VFIT_REC_HDR + len, &n, EVP_sha256(), NULL) &&
		n == 32, "SHA-256");
}

static void records(void)
{
	static uint8_t r[2 * VFIT_REC_COPY];
	const uint8_t *pl;
	uint32_t len, seq;
	unsigned int which;

	rec_make(r, "VFITREC", VFIT_REC_COUNTERS, 0, "abc", 3);
	REQUIRE(vfit_rec_decode(r, VFIT_REC_COUNTERS, &pl, &len, &seq, &which) == VFIT_DISK_OK &&
		len == 3, "the good copy");
	CHECK(vfit_rec_decode(r, VFIT_REC_STATE, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "a counters record read as the state");
	rec_make(r, "VFITRAC", VFIT_REC_COUNTERS, 0, "abc", 3);
	CHECK(vfit_rec_decode(r, VFIT_REC_COUNTERS, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "magic's sixth byte");
	rec_make(r, "VFITREC", VFIT_REC_COUNTERS, 1, "abc", 3);
	CHECK(vfit_rec_decode(r, VFIT_REC_COUNTERS, &pl, &len, &seq, &which) == VFIT_DISK_BAD,
	      "the zero word set");
}

/* The counters payload's capacity is the caller's, not only the record's. */
static void counters_cap(void)
{
	uint8_t p[2 * VFIT_DISK_CTR_ENTRY];
	uint32_t len = 0;

	REQUIRE(!vfit_ctr_set(p, &len, VFIT_DISK_CTR_ENTRY, "a", 1), "one counter in room for one");
	CHECK(vfit_ctr_set(p, &len, VFIT_DISK_CTR_ENTRY, "b", 2) == VFIT_DISK_FULL &&
	      len == VFIT_DISK_CTR_ENTRY, "a second counter past the caller's capacity");
}

int main(void)
{
	gpt_header();
	gpt_names();
	chains();
	records();
	counters_cap();
	return check_done();
}
