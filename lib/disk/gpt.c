/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPT header and partition entries (UEFI 2.10 §5.3).  The reader accepts
 * only what a vfit disk needs: 512-byte sectors, 128-byte entries, at most
 * 128 of them; everything else is refused rather than guessed at.
 */
#include <string.h>

#include "vfit/disk.h"
#include "vfit/hash.h"
#include "disk_int.h"

#define GPT_SIG "EFI PART"
#define GPT_REV 0x00010000u

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

enum vfit_disk_result vfit_guid_parse(const char *s, uint8_t out[16])
{
	/* Text order of the 16 bytes; the first three groups are little-endian on disk. */
	static const uint8_t pos[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	unsigned int i = 0, b = 0;

	for (; s[i] && b < 16; i++) {
		int hi, lo;

		if ((i == 8 || i == 13 || i == 18 || i == 23) && s[i] == '-')
			continue;
		hi = hexval(s[i]);
		lo = s[i + 1] ? hexval(s[i + 1]) : -1;
		if (hi < 0 || lo < 0)
			return VFIT_DISK_BAD;
		out[pos[b++]] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	return b == 16 && i == 36 && !s[i] ? VFIT_DISK_OK : VFIT_DISK_BAD;
}

static uint32_t header_crc(const uint8_t *sec, uint32_t size)
{
	static const uint8_t zero[4];
	uint32_t crc = disk_crc32(0, sec, 16);

	crc = disk_crc32(crc, zero, 4);
	return disk_crc32(crc, sec + 20, size - 20);
}

enum vfit_disk_result vfit_gpt_header(const uint8_t *sec, uint64_t lba, uint64_t disk_lbas,
				      struct vfit_gpt *g)
{
	uint32_t size = ld_le32(sec + 12);
	uint64_t ent_end;

	if (!VFIT_HAVE_CRC32 || memcmp(sec, GPT_SIG, 8) || ld_le32(sec + 8) != GPT_REV ||
	    size < VFIT_GPT_HDR_SIZE ||
	    size > VFIT_DISK_SECTOR || ld_le32(sec + 16) != header_crc(sec, size))
		return VFIT_DISK_BAD;
	g->my_lba = ld_le64(sec + 24);
	g->alt_lba = ld_le64(sec + 32);
	g->first_lba = ld_le64(sec + 40);
	g->last_lba = ld_le64(sec + 48);
	memcpy(g->disk_guid, sec + 56, 16);
	g->entries_lba = ld_le64(sec + 72);
	g->nentries = ld_le32(sec + 80);
	g->entry_size = ld_le32(sec + 84);
	g->entries_crc = ld_le32(sec + 88);
	if (g->my_lba != lba || g->alt_lba >= disk_lbas || g->alt_lba == lba ||
	    g->nentries == 0 || g->nentries > VFIT_GPT_ENTRIES ||
	    g->entry_size != VFIT_GPT_ENTRY_SIZE)
		return VFIT_DISK_BAD;
	/* Usable range inside the disk; entries inside the disk, outside that range and the header. */
	if (g->first_lba < 2 || g->first_lba > g->last_lba || g->last_lba >= disk_lbas)
		return VFIT_DISK_BAD;
	ent_end = g->entries_lba + (vfit_gpt_entries_bytes(g) + VFIT_DISK_SECTOR - 1) / VFIT_DISK_SECTOR;
	if (g->entries_lba < 1 || g->entries_lba >= disk_lbas || ent_end > disk_lbas ||
	    (g->entries_lba <= lba && lba < ent_end) ||
	    (g->entries_lba <= g->last_lba && g->first_lba < ent_end))
		return VFIT_DISK_BAD;
	return VFIT_DISK_OK;
}

uint32_t vfit_gpt_entries_bytes(const struct vfit_gpt *g)
{
	return g->nentries * g->entry_size;
}

bool vfit_gpt_entries_ok(const struct vfit_gpt *g, const uint8_t *ents)
{
	return VFIT_HAVE_CRC32 && disk_crc32(0, ents, vfit_gpt_entries_bytes(g)) == g->entries_crc;
}

/* Entry name (UTF-16LE, NUL-padded) equal to the ASCII name. */
static bool name_is(const uint8_t *ent, const char *name)
{
	const uint8_t *n = ent + 56;
	size_t i, len = strlen(name);

	if (len >= VFIT_GPT_NAME_CHARS)
		return false;
	for (i = 0; i < VFIT_GPT_NAME_CHARS; i++) {
		uint8_t want = i < len ? (uint8_t)name[i] : 0;

		if (n[2 * i] != want || n[2 * i + 1])
			return false;
		if (!want)
			return true;
	}
	return false;
}

enum vfit_disk_result vfit_gpt_find(const struct vfit_gpt *g, const uint8_t *ents,
				    const char *name, struct vfit_part *p)
{
	static const uint8_t type[16] = VFIT_DISK_TYPE_BYTES, unused[16];
	uint32_t i, at = 0;
	bool found = false;

	for (i = 0; i < g->nentries; i++) {
		const uint8_t *e = ents + (size_t)i * g->entry_size;

		if (memcmp(e, type, 16) || !name_is(e, name))
			continue;
		if (found)
			return VFIT_DISK_BAD;
		found = true;
		at = i;
		memcpy(p->type, e, 16);
		memcpy(p->guid, e + 16, 16);
		p->first_lba = ld_le64(e + 32);
		p->last_lba = ld_le64(e + 40);
		if (p->first_lba < g->first_lba || p->first_lba > p->last_lba ||
		    p->last_lba > g->last_lba)
			return VFIT_DISK_BAD;
	}
	if (!found)
		return VFIT_DISK_ABSENT;
	/* Its sectors are its own: the stage writes there, and must hit nothing else. */
	for (i = 0; i < g->nentries; i++) {
		const uint8_t *e = ents + (size_t)i * g->entry_size;

		if (i != at && memcmp(e, unused, 16) && ld_le64(e + 32) <= p->last_lba &&
		    p->first_lba <= ld_le64(e + 40))
			return VFIT_DISK_BAD;
	}
	return VFIT_DISK_OK;
}

void vfit_gpt_header_encode(const struct vfit_gpt *g, uint8_t *sec)
{
	memset(sec, 0, VFIT_DISK_SECTOR);
	memcpy(sec, GPT_SIG, 8);
	st_le32(sec + 8, GPT_REV);
	st_le32(sec + 12, VFIT_GPT_HDR_SIZE);
	st_le64(sec + 24, g->my_lba);
	st_le64(sec + 32, g->alt_lba);
	st_le64(sec + 40, g->first_lba);
	st_le64(sec + 48, g->last_lba);
	memcpy(sec + 56, g->disk_guid, 16);
	st_le64(sec + 72, g->entries_lba);
	st_le32(sec + 80, g->nentries);
	st_le32(sec + 84, g->entry_size);
	st_le32(sec + 88, g->entries_crc);
	st_le32(sec + 16, header_crc(sec, VFIT_GPT_HDR_SIZE));
}

void vfit_gpt_entry_encode(const struct vfit_part *p, const char *name, uint8_t *ent)
{
	size_t i;

	memset(ent, 0, VFIT_GPT_ENTRY_SIZE);
	memcpy(ent, p->type, 16);
	memcpy(ent + 16, p->guid, 16);
	st_le64(ent + 32, p->first_lba);
	st_le64(ent + 40, p->last_lba);
	for (i = 0; name[i] && i < VFIT_GPT_NAME_CHARS - 1; i++)
		ent[56 + 2 * i] = (uint8_t)name[i];
}
