/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two-copy records (state, counters; format: vfit/disk.h).  A copy is
 * valid only whole: magic, kind, length, zero padding and SHA-256 all
 * check, so a torn or edited copy is ignored and the other one wins; with
 * neither valid the caller fails closed.
 */
#include <string.h>

#include "vfit/disk.h"
#include "vfit/hash.h"
#include "disk_int.h"

#define REC_MAGIC "VFITREC"  /* with its NUL: 8 bytes */

static bool copy_ok(const uint8_t *c, uint32_t kind)
{
	uint8_t sum[32];
	uint32_t len = ld_le32(c + 16), i;

	if (memcmp(c, REC_MAGIC, 8) || ld_le32(c + 8) != kind || len > VFIT_REC_PAYLOAD_MAX ||
	    ld_le32(c + 20))
		return false;
	for (i = VFIT_REC_HDR + len + VFIT_REC_SUM; i < VFIT_REC_COPY; i++)
		if (c[i])
			return false;
	/* A build without SHA-256 can check no copy: fail closed. */
	return !vfit_hash(VFIT_HASH_SHA256, c, VFIT_REC_HDR + len, sum) &&
	       !memcmp(sum, c + VFIT_REC_HDR + len, sizeof(sum));
}

enum vfit_disk_result vfit_rec_decode(const uint8_t *copies, uint32_t kind,
				      const uint8_t **payload, uint32_t *len, uint32_t *seq,
				      unsigned int *which)
{
	bool ok0 = copy_ok(copies, kind), ok1 = copy_ok(copies + VFIT_REC_COPY, kind);
	const uint8_t *c;

	if (!ok0 && !ok1)
		return VFIT_DISK_BAD;
	*which = ok0 ? 0 : 1;
	/* Both valid: the later in serial-number order (seq wraps). */
	if (ok0 && ok1 && (int32_t)(ld_le32(copies + VFIT_REC_COPY + 12) - ld_le32(copies + 12)) > 0)
		*which = 1;
	c = copies + (size_t)*which * VFIT_REC_COPY;
	*seq = ld_le32(c + 12);
	*len = ld_le32(c + 16);
	*payload = c + VFIT_REC_HDR;
	return VFIT_DISK_OK;
}

enum vfit_disk_result vfit_rec_encode(uint32_t kind, uint32_t seq, const void *payload,
				      uint32_t len, uint8_t *copy)
{
	if (len > VFIT_REC_PAYLOAD_MAX)
		return VFIT_DISK_FULL;
	memset(copy, 0, VFIT_REC_COPY);
	memcpy(copy, REC_MAGIC, 8);
	st_le32(copy + 8, kind);
	st_le32(copy + 12, seq);
	st_le32(copy + 16, len);
	if (len)
		memmove(copy + VFIT_REC_HDR, payload, len);
	return vfit_hash(VFIT_HASH_SHA256, copy, VFIT_REC_HDR + len, copy + VFIT_REC_HDR + len) ?
	       VFIT_DISK_BAD : VFIT_DISK_OK;
}
