/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rollback counters payload of the counters record (format:
 * vfit/disk.h).  Canonical like the host file store: exact size, unique
 * valid names, zero padding; anything else is corrupt and fails closed.
 */
#include <string.h>

#include "vfit/counter.h"
#include "vfit/disk.h"
#include "disk_int.h"

/* A counter name (vfit_counter_name_valid()), NUL-padded to the field. */
static bool name_field_ok(const uint8_t *f)
{
	const uint8_t *nul = memchr(f, 0, VFIT_DISK_CTR_NAME);
	uint32_t i;

	if (!nul || !vfit_counter_name_valid((const char *)f, (size_t)(nul - f)))
		return false;
	for (i = (uint32_t)(nul - f); i < VFIT_DISK_CTR_NAME; i++)
		if (f[i])
			return false;
	return true;
}

static bool name_eq(const uint8_t *f, const char *name)
{
	size_t n = strlen(name);

	return n < VFIT_DISK_CTR_NAME && !memcmp(f, name, n) && !f[n];
}

static enum vfit_disk_result check(const uint8_t *p, uint32_t len)
{
	uint32_t i, j, n = len / VFIT_DISK_CTR_ENTRY;

	if (len % VFIT_DISK_CTR_ENTRY || n > VFIT_DISK_CTR_MAX)
		return VFIT_DISK_BAD;
	for (i = 0; i < n; i++) {
		if (!name_field_ok(p + i * VFIT_DISK_CTR_ENTRY))
			return VFIT_DISK_BAD;
		for (j = 0; j < i; j++)
			if (!memcmp(p + i * VFIT_DISK_CTR_ENTRY, p + j * VFIT_DISK_CTR_ENTRY,
				    VFIT_DISK_CTR_NAME))
				return VFIT_DISK_BAD;
	}
	return VFIT_DISK_OK;
}

enum vfit_disk_result vfit_ctr_get(const uint8_t *payload, uint32_t len, const char *name,
				   uint64_t *value)
{
	uint32_t i;

	if (check(payload, len))
		return VFIT_DISK_BAD;
	for (i = 0; i < len; i += VFIT_DISK_CTR_ENTRY)
		if (name_eq(payload + i, name)) {
			*value = ld_le64(payload + i + VFIT_DISK_CTR_NAME);
			return VFIT_DISK_OK;
		}
	return VFIT_DISK_ABSENT;
}

enum vfit_disk_result vfit_ctr_set(uint8_t *payload, uint32_t *len, uint32_t cap,
				   const char *name, uint64_t value)
{
	size_t n = strlen(name);
	uint32_t i;
	uint8_t *e;

	if (check(payload, *len))
		return VFIT_DISK_BAD;
	for (i = 0; i < *len; i += VFIT_DISK_CTR_ENTRY)
		if (name_eq(payload + i, name)) {
			st_le64(payload + i + VFIT_DISK_CTR_NAME, value);
			return VFIT_DISK_OK;
		}
	if (n >= VFIT_DISK_CTR_NAME)
		return VFIT_DISK_BAD;
	if (cap < *len + VFIT_DISK_CTR_ENTRY || *len + VFIT_DISK_CTR_ENTRY > VFIT_REC_PAYLOAD_MAX)
		return VFIT_DISK_FULL;
	e = payload + *len;
	memset(e, 0, VFIT_DISK_CTR_NAME);
	memcpy(e, name, n);
	if (!name_field_ok(e))
		return VFIT_DISK_BAD;
	st_le64(e + VFIT_DISK_CTR_NAME, value);
	*len += VFIT_DISK_CTR_ENTRY;
	return VFIT_DISK_OK;
}
