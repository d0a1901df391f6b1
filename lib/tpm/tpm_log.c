/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCG2 crypto-agile event log (TCG PC Client Platform Firmware Profile,
 * "Event Logging"): the writer a boot stage fills as it measures
 * (tpm_replay.c reads it back).  The log is little-endian, unlike TPM
 * commands.
 *
 * Layout: one TCG_PCClientPCREvent (SHA-1 format: pcrIndex 0, EV_NO_ACTION,
 * 20 zero bytes, eventSize, TCG_EfiSpecIDEvent), then TCG_PCR_EVENT2
 * entries: pcrIndex, eventType, TPML_DIGEST_VALUES (count, then algorithm
 * and digest per bank), eventSize, event.
 */
#include "tpm_int.h"

static const uint8_t spec_id_signature[16] = "Spec ID Event03";     /* with its NUL */

#define SPEC_ID_HEADER 32u                  /* pcrIndex, eventType, digest[20], eventSize */
#define SPEC_ID_FIXED  (16u + 4 + 4 + 4 + 1) /* signature, class, 4 version bytes, count, vendor size */

enum vfit_tpm_result vfit_tpm_log_init(struct vfit_tpm_log *log, void *mem, size_t cap,
				       const struct vfit_tpm_banks *banks)
{
	uint8_t *p = mem;
	size_t size, event;
	uint32_t i;

	if (!log || !mem || !banks || !banks->count || banks->count > VFIT_TPM_MAX_BANKS)
		return VFIT_TPM_ERR_PARAM;
	for (i = 0; i < banks->count; i++)
		if (!vfit_tpm_alg_digest_size(banks->alg[i]))
			return VFIT_TPM_ERR_UNSUPPORTED;
	event = SPEC_ID_FIXED + 4u * banks->count;
	size = SPEC_ID_HEADER + event;
	if (size > cap)
		return VFIT_TPM_ERR_SPACE;
	memset(p, 0, size);
	st_le32(p + 4, VFIT_TPM_EV_NO_ACTION);         /* pcrIndex 0, digest zero */
	st_le32(p + 28, (uint32_t)event);
	p += SPEC_ID_HEADER;
	memcpy(p, spec_id_signature, 16);               /* platformClass 0: client */
	p[21] = 2;                                      /* specVersionMinor 0, Major 2, */
	p[22] = 2;                                      /* specErrata 2 (PFP 1.05) */
	p[23] = (uint8_t)(sizeof(size_t) / 4);          /* uintnSize: 1 UINT32, 2 UINT64 */
	st_le32(p + 24, banks->count);
	for (i = 0; i < banks->count; i++) {
		st_le16(p + 28 + 4 * i, banks->alg[i]);
		st_le16(p + 30 + 4 * i, (uint16_t)vfit_tpm_alg_digest_size(banks->alg[i]));
	}                                               /* vendorInfoSize 0 */
	log->base = mem;
	log->cap = cap;
	log->len = size;
	log->bank_count = banks->count;
	for (i = 0; i < banks->count; i++)
		log->alg[i] = banks->alg[i];
	return VFIT_TPM_OK;
}

/* Index in d of algorithm alg, or -1. */
static int find_digest(const struct vfit_tpm_digests *d, uint16_t alg)
{
	uint32_t i;

	for (i = 0; i < d->count; i++)
		if (d->d[i].alg == alg)
			return (int)i;
	return -1;
}

/* Size of the entry, or 0 when arguments or banks do not fit the log (*why set). */
static size_t entry_size(const struct vfit_tpm_log *log, uint32_t pcr, const struct vfit_tpm_digests *d,
			 const void *event, size_t event_len, enum vfit_tpm_result *why)
{
	size_t size = 4 + 4 + 4 + 4;
	uint32_t i;

	*why = VFIT_TPM_ERR_PARAM;
	if (!log || !log->base || log->len > log->cap || !log->bank_count ||
	    log->bank_count > VFIT_TPM_MAX_BANKS || pcr >= VFIT_TPM_PCR_COUNT ||
	    (!event && event_len) || !vfit_tpm_digests_ok_(d))
		return 0;
	*why = VFIT_TPM_ERR_LOG;
	if (d->count != log->bank_count)
		return 0;
	for (i = 0; i < log->bank_count; i++) {
		if (find_digest(d, log->alg[i]) < 0)
			return 0;
		size += 2 + vfit_tpm_alg_digest_size(log->alg[i]);
	}
	*why = VFIT_TPM_ERR_SPACE;
	if (event_len > log->cap - log->len || size > log->cap - log->len - event_len)
		return 0;
	return size + event_len;
}

enum vfit_tpm_result vfit_tpm_log_append(struct vfit_tpm_log *log, uint32_t pcr, uint32_t type,
					 const struct vfit_tpm_digests *d, const void *event, size_t event_len)
{
	enum vfit_tpm_result why;
	uint8_t *p;
	uint32_t i;

	if (!entry_size(log, pcr, d, event, event_len, &why))
		return why;
	p = log->base + log->len;
	st_le32(p, pcr);
	st_le32(p + 4, type);
	st_le32(p + 8, log->bank_count);
	p += 12;
	for (i = 0; i < log->bank_count; i++) {
		size_t n = vfit_tpm_alg_digest_size(log->alg[i]);

		st_le16(p, log->alg[i]);
		memcpy(p + 2, d->d[find_digest(d, log->alg[i])].digest, n);
		p += 2 + n;
	}
	st_le32(p, (uint32_t)event_len);
	if (event_len)
		memcpy(p + 4, event, event_len);
	log->len = (size_t)(p + 4 + event_len - log->base);
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_measure(struct vfit_tpm *tpm, struct vfit_tpm_log *log, uint32_t pcr,
				      uint32_t type, const struct vfit_tpm_digests *d,
				      const void *event, size_t event_len)
{
	enum vfit_tpm_result r;

	if (log && !entry_size(log, pcr, d, event, event_len, &r))
		return r;
	r = vfit_tpm_pcr_extend(tpm, pcr, d);
	if (r != VFIT_TPM_OK || !log)
		return r;
	return vfit_tpm_log_append(log, pcr, type, d, event, event_len);
}

enum vfit_tpm_result vfit_tpm_separators(struct vfit_tpm *tpm, struct vfit_tpm_log *log,
					 const struct vfit_tpm_banks *b, uint32_t value)
{
	struct vfit_tpm_digests d;
	enum vfit_tpm_result r;
	uint8_t event[4];
	uint32_t pcr;

	st_le32(event, value);
	r = vfit_tpm_digests_of(b, event, sizeof(event), &d);
	for (pcr = 0; pcr < 8 && r == VFIT_TPM_OK; pcr++)
		r = vfit_tpm_measure(tpm, log, pcr, VFIT_TPM_EV_SEPARATOR, &d, event, sizeof(event));
	return r;
}
