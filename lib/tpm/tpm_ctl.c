/* SPDX-License-Identifier: BSD-3-Clause */
/* Startup, capabilities, random bytes and hierarchy control (TPM 2.0 Part 3). */
#include "tpm_int.h"

enum vfit_tpm_result vfit_tpm_startup_clear(struct vfit_tpm *tpm)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;

	vfit_tpm_cmd_begin_(tpm, &w, 0, TPM_CC_Startup);
	wr_u16(&w, 0x0000);             /* TPM_SU_CLEAR */
	r = vfit_tpm_exchange_(tpm, &w, 0, &p);
	if (r == VFIT_TPM_ERR_RC && tpm->rc == VFIT_TPM_RC_INITIALIZE)
		return VFIT_TPM_ERR_INITIALIZED;
	return r == VFIT_TPM_OK ? rd_end(&p) : r;
}

/*
 * GetCapability up to its TPMS_CAPABILITY_DATA's union: moreData, and the
 * capability echoed.  whole: the answer must be complete (moreData 0).
 */
static enum vfit_tpm_result get_capability(struct vfit_tpm *tpm, uint32_t cap, uint32_t property,
					   uint32_t count, bool whole, struct tpm_rd *p)
{
	struct tpm_wr w;
	enum vfit_tpm_result r;
	uint8_t more;

	vfit_tpm_cmd_begin_(tpm, &w, 0, TPM_CC_GetCapability);
	wr_u32(&w, cap);
	wr_u32(&w, property);
	wr_u32(&w, count);
	r = vfit_tpm_exchange_(tpm, &w, 0, p);
	if (r != VFIT_TPM_OK)
		return r;
	more = rd_u8(p);
	if (rd_u32(p) != cap || more > 1 || (whole && more) || p->bad)
		return VFIT_TPM_ERR_MALFORMED;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_get_banks(struct vfit_tpm *tpm, struct vfit_tpm_banks *out)
{
	struct vfit_tpm_banks b;
	struct tpm_rd p;
	enum vfit_tpm_result r, verdict = VFIT_TPM_OK;
	uint32_t n, i, j, k;

	if (!tpm || !out)
		return VFIT_TPM_ERR_PARAM;
	/* Every bank in one answer: one left out would go unextended. */
	r = get_capability(tpm, TPM_CAP_PCRS, 0, 1, true, &p);
	if (r != VFIT_TPM_OK)
		return r;
	memset(&b, 0, sizeof(b));
	n = rd_u32(&p);                         /* TPML_PCR_SELECTION */
	if (n > TPM_MAX_LIST)
		return VFIT_TPM_ERR_MALFORMED;
	for (i = 0; i < n; i++) {
		uint16_t alg = rd_u16(&p);
		uint8_t sel = rd_u8(&p);
		const uint8_t *bits;
		uint32_t mask = 0;

		if (sel > TPM_MAX_SELECT)
			return VFIT_TPM_ERR_MALFORMED;
		bits = rd_bytes(&p, sel);
		if (!bits)
			return VFIT_TPM_ERR_MALFORMED;
		for (k = 0; k < sel; k++)
			mask |= (uint32_t)bits[k] << (8 * k);
		/* The same bank twice would let a bank hide behind an earlier entry. */
		for (j = 0; j < b.count; j++)
			if (b.alg[j] == alg)
				return VFIT_TPM_ERR_MALFORMED;
		if (!mask)
			continue;
		if (!vfit_tpm_alg_digest_size(alg))
			verdict = VFIT_TPM_ERR_UNSUPPORTED;
		else if (b.count == VFIT_TPM_MAX_BANKS)        /* more known algorithms than room */
			verdict = verdict == VFIT_TPM_OK ? VFIT_TPM_ERR_LIMIT : verdict;
		else {
			b.alg[b.count] = alg;
			b.pcr_mask[b.count++] = mask;
		}
	}
	r = rd_end(&p);
	if (r != VFIT_TPM_OK)
		return r;
	if (verdict != VFIT_TPM_OK)
		return verdict;
	/* No active bank: nothing a measurement could go into. */
	if (!b.count)
		return VFIT_TPM_ERR_UNSUPPORTED;
	*out = b;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_get_property(struct vfit_tpm *tpm, uint32_t property, uint32_t *value)
{
	struct tpm_rd p;
	enum vfit_tpm_result r;
	uint32_t n, got, v;

	if (!tpm || !value)
		return VFIT_TPM_ERR_PARAM;
	r = get_capability(tpm, TPM_CAP_TPM_PROPERTIES, property, 1, false, &p);
	if (r != VFIT_TPM_OK)
		return r;
	n = rd_u32(&p);                         /* TPML_TAGGED_TPM_PROPERTY, at most the one asked */
	if (n > 1)
		return VFIT_TPM_ERR_MALFORMED;
	got = n ? rd_u32(&p) : 0;
	v = n ? rd_u32(&p) : 0;
	r = rd_end(&p);
	if (r != VFIT_TPM_OK)
		return r;
	/* The TPM answers with the next property it has when it lacks this one. */
	if (!n || got != property)
		return VFIT_TPM_ERR_UNSUPPORTED;
	*value = v;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_get_random(struct vfit_tpm *tpm, void *out, size_t len)
{
	uint8_t *o = out;

	if (!tpm || (!out && len))
		return VFIT_TPM_ERR_PARAM;
	while (len) {
		struct tpm_wr w;
		struct tpm_rd p;
		enum vfit_tpm_result r;
		const uint8_t *bytes;
		uint16_t ask = len > VFIT_TPM_MAX_DIGEST ? VFIT_TPM_MAX_DIGEST : (uint16_t)len;
		uint16_t got;

		vfit_tpm_cmd_begin_(tpm, &w, 0, TPM_CC_GetRandom);
		wr_u16(&w, ask);
		r = vfit_tpm_exchange_(tpm, &w, 0, &p);
		if (r != VFIT_TPM_OK)
			return r;
		bytes = rd_tpm2b(&p, ask, &got);
		/* Zero bytes would loop for ever. */
		if (rd_end(&p) != VFIT_TPM_OK || !got)
			return VFIT_TPM_ERR_MALFORMED;
		memcpy(o, bytes, got);
		o += got;
		len -= got;
	}
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_hierarchy_control(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
						uint32_t enable, int state)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;

	if (!tpm || !vfit_tpm_auth_ok_(auth) || (state != 0 && state != 1))
		return VFIT_TPM_ERR_PARAM;
	vfit_tpm_cmd_begin_(tpm, &w, 1, TPM_CC_HierarchyControl);
	wr_u32(&w, auth->handle);
	vfit_tpm_cmd_auth_(&w, auth);
	wr_u32(&w, enable);
	wr_u8(&w, (uint8_t)state);
	r = vfit_tpm_exchange_(tpm, &w, 1, &p);
	return r == VFIT_TPM_OK ? rd_end(&p) : r;
}
