/* SPDX-License-Identifier: BSD-3-Clause */
/* The chain header at the start of a slot or recovery partition (format: vfit/disk.h). */
#include <string.h>

#include "vfit/disk.h"
#include "vfit/hash.h"
#include "disk_int.h"

#define CHAIN_MAGIC "VFITCHN"  /* with its NUL: 8 bytes */
#define CHAIN_VERSION 1u
#define CHAIN_CRC_AT 80u

enum vfit_disk_result vfit_chain_decode(const uint8_t *sec, uint64_t part_bytes,
					struct vfit_chain *c)
{
	uint64_t next = VFIT_DISK_SECTOR;
	uint32_t i;

	if (!VFIT_HAVE_CRC32 || memcmp(sec, CHAIN_MAGIC, 8) || ld_le32(sec + 8) != CHAIN_VERSION ||
	    ld_le32(sec + CHAIN_CRC_AT) != disk_crc32(0, sec, CHAIN_CRC_AT))
		return VFIT_DISK_BAD;
	c->count = ld_le32(sec + 12);
	if (c->count > VFIT_CHAIN_MAX)
		return VFIT_DISK_BAD;
	for (i = 0; i < VFIT_CHAIN_MAX; i++) {
		c->offset[i] = ld_le64(sec + 16 + 16 * i);
		c->size[i] = ld_le64(sec + 24 + 16 * i);
		if (i >= c->count) {
			if (c->offset[i] || c->size[i])
				return VFIT_DISK_BAD;
			continue;
		}
		/* In order, sector-aligned, non-empty, inside the partition (no overflow). */
		if (c->offset[i] < next || c->offset[i] % VFIT_DISK_SECTOR || !c->size[i] ||
		    c->offset[i] > part_bytes || c->size[i] > part_bytes - c->offset[i])
			return VFIT_DISK_BAD;
		next = c->offset[i] + c->size[i];
	}
	return VFIT_DISK_OK;
}

void vfit_chain_encode(const struct vfit_chain *c, uint8_t *sec)
{
	uint32_t i;

	memset(sec, 0, VFIT_DISK_SECTOR);
	memcpy(sec, CHAIN_MAGIC, 8);
	st_le32(sec + 8, CHAIN_VERSION);
	st_le32(sec + 12, c->count);
	for (i = 0; i < c->count && i < VFIT_CHAIN_MAX; i++) {
		st_le64(sec + 16 + 16 * i, c->offset[i]);
		st_le64(sec + 24 + 16 * i, c->size[i]);
	}
	st_le32(sec + CHAIN_CRC_AT, disk_crc32(0, sec, CHAIN_CRC_AT));
}
