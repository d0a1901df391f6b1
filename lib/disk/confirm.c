/* SPDX-License-Identifier: BSD-3-Clause */
/* The OS's confirmation of the boot it runs: slot 0, 1, or 2 recovery (format: vfit/disk.h). */
#include "vfit/disk.h"
#include "disk_int.h"

enum vfit_disk_result vfit_confirm_decode(const uint8_t *payload, uint32_t len,
					  struct vfit_confirm *c)
{
	if (!len)
		return VFIT_DISK_ABSENT;
	if (len != VFIT_CONFIRM_SIZE || ld_le32(payload) > 2)
		return VFIT_DISK_BAD;
	c->slot = ld_le32(payload);
	c->seq = ld_le32(payload + 4);
	return VFIT_DISK_OK;
}

void vfit_confirm_encode(const struct vfit_confirm *c, uint8_t out[VFIT_CONFIRM_SIZE])
{
	st_le32(out, c->slot);
	st_le32(out + 4, c->seq);
}
