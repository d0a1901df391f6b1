/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PCR_Extend and PCR_Read (TPM 2.0 Part 3, "Integrity Collection"), the
 * banks' digest sizes, and the library's hashes that digest into them.
 */
#include "tpm_int.h"

size_t vfit_tpm_alg_digest_size(uint16_t alg)
{
	switch (alg) {
	case VFIT_TPM_ALG_SHA1: return 20;
	case VFIT_TPM_ALG_SHA256: return 32;
	case VFIT_TPM_ALG_SHA384: return 48;
	case VFIT_TPM_ALG_SHA512: return 64;
	case VFIT_TPM_ALG_SM3_256: return 32;
	}
	return 0;
}

enum vfit_hash vfit_tpm_alg_hash(uint16_t alg)
{
	switch (alg) {
	case VFIT_TPM_ALG_SHA1: return VFIT_HASH_SHA1;
	case VFIT_TPM_ALG_SHA256: return VFIT_HASH_SHA256;
	case VFIT_TPM_ALG_SHA384: return VFIT_HASH_SHA384;
	case VFIT_TPM_ALG_SHA512: return VFIT_HASH_SHA512;
	}
	return VFIT_HASH_INVALID;
}

enum vfit_tpm_result vfit_tpm_banks_hashes(const struct vfit_tpm_banks *b, uint32_t *hashes,
					   uint16_t *alg)
{
	uint32_t i, set = 0;

	if (!b || !hashes || !alg || !b->count || b->count > VFIT_TPM_MAX_BANKS)
		return VFIT_TPM_ERR_PARAM;
	for (i = 0; i < b->count; i++) {
		enum vfit_hash h = vfit_tpm_alg_hash(b->alg[i]);

		/* vfit_hash_size() is 0 for a hash compiled out of this build. */
		if (h == VFIT_HASH_INVALID || !vfit_hash_size(h)) {
			*alg = b->alg[i];
			return VFIT_TPM_ERR_UNSUPPORTED;
		}
		set |= VFIT_HASH_BIT(h);
	}
	*hashes = set;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_digests_from(const struct vfit_tpm_banks *b,
					   const struct vfit_digest_set *s, struct vfit_tpm_digests *d)
{
	uint32_t i;

	if (!b || !s || !d || !b->count || b->count > VFIT_TPM_MAX_BANKS)
		return VFIT_TPM_ERR_PARAM;
	memset(d, 0, sizeof(*d));
	for (i = 0; i < b->count; i++) {
		const uint8_t *v = vfit_digest_set_get(s, vfit_tpm_alg_hash(b->alg[i]));

		if (!v)
			return VFIT_TPM_ERR_UNSUPPORTED;
		d->d[i].alg = b->alg[i];
		memcpy(d->d[i].digest, v, vfit_tpm_alg_digest_size(b->alg[i]));
	}
	d->count = b->count;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_digests_of(const struct vfit_tpm_banks *b, const void *data,
					 size_t len, struct vfit_tpm_digests *d)
{
	struct vfit_hash_set hs;
	struct vfit_digest_set s;
	enum vfit_tpm_result r;
	uint32_t hashes;
	uint16_t alg;

	if (!data && len)
		return VFIT_TPM_ERR_PARAM;
	r = vfit_tpm_banks_hashes(b, &hashes, &alg);
	if (r != VFIT_TPM_OK)
		return r;
	if (vfit_hash_set_init(&hs, hashes))
		return VFIT_TPM_ERR_UNSUPPORTED;
	vfit_hash_set_update(&hs, data, len);
	vfit_hash_set_final(&hs, &s);
	return vfit_tpm_digests_from(b, &s, d);
}

int vfit_tpm_digests_ok_(const struct vfit_tpm_digests *d)
{
	uint32_t i, j;

	if (!d || !d->count || d->count > VFIT_TPM_MAX_BANKS)
		return 0;
	for (i = 0; i < d->count; i++) {
		if (!vfit_tpm_alg_digest_size(d->d[i].alg))
			return 0;
		for (j = 0; j < i; j++)
			if (d->d[j].alg == d->d[i].alg)
				return 0;
	}
	return 1;
}

enum vfit_tpm_result vfit_tpm_pcr_extend(struct vfit_tpm *tpm, uint32_t pcr, const struct vfit_tpm_digests *d)
{
	static const struct vfit_tpm_auth empty = { 0, NULL, 0 };
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;
	uint32_t i;

	if (!tpm || pcr >= VFIT_TPM_PCR_COUNT || !vfit_tpm_digests_ok_(d))
		return VFIT_TPM_ERR_PARAM;
	vfit_tpm_cmd_begin_(tpm, &w, 1, TPM_CC_PCR_Extend);
	wr_u32(&w, pcr);                        /* the PCR handle is its number */
	vfit_tpm_cmd_auth_(&w, &empty);
	wr_u32(&w, d->count);                   /* TPML_DIGEST_VALUES */
	for (i = 0; i < d->count; i++) {
		wr_u16(&w, d->d[i].alg);
		wr_bytes(&w, d->d[i].digest, vfit_tpm_alg_digest_size(d->d[i].alg));
	}
	r = vfit_tpm_exchange_(tpm, &w, 1, &p);
	return r == VFIT_TPM_OK ? rd_end(&p) : r;
}

enum vfit_tpm_result vfit_tpm_pcr_read(struct vfit_tpm *tpm, uint32_t pcr, uint16_t alg,
				       uint8_t out[VFIT_TPM_MAX_DIGEST], uint32_t *update_counter)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;
	size_t dsize = vfit_tpm_alg_digest_size(alg);
	uint32_t counter, n, i, k, selected = 0, digests;
	const uint8_t *digest = NULL;

	if (!tpm || !out || pcr >= VFIT_TPM_PCR_COUNT || !dsize)
		return VFIT_TPM_ERR_PARAM;
	vfit_tpm_cmd_begin_(tpm, &w, 0, TPM_CC_PCR_Read);
	wr_u32(&w, 1);                          /* TPML_PCR_SELECTION of one bank, one PCR */
	wr_u16(&w, alg);
	wr_u8(&w, 3);
	for (k = 0; k < 3; k++)
		wr_u8(&w, (uint8_t)(k == pcr / 8 ? 1u << (pcr % 8) : 0));
	r = vfit_tpm_exchange_(tpm, &w, 0, &p);
	if (r != VFIT_TPM_OK)
		return r;
	counter = rd_u32(&p);
	/*
	 * pcrSelectionOut: what the digests below are of.  Only the PCR asked
	 * may be in it; empty when the bank does not hold it.
	 */
	n = rd_u32(&p);
	if (n > TPM_MAX_LIST)
		return VFIT_TPM_ERR_MALFORMED;
	for (i = 0; i < n; i++) {
		uint16_t a = rd_u16(&p);
		uint8_t sel = rd_u8(&p);
		const uint8_t *bits;

		if (sel > TPM_MAX_SELECT)
			return VFIT_TPM_ERR_MALFORMED;
		bits = rd_bytes(&p, sel);
		if (!bits)
			return VFIT_TPM_ERR_MALFORMED;
		for (k = 0; k < sel * 8u; k++) {
			if (!(bits[k / 8] >> (k % 8) & 1))
				continue;
			if (a != alg || k != pcr || selected)
				return VFIT_TPM_ERR_MALFORMED;
			selected = 1;
		}
	}
	digests = rd_u32(&p);                   /* TPML_DIGEST: one per selected PCR */
	if (digests != selected)
		return VFIT_TPM_ERR_MALFORMED;
	if (digests) {
		uint16_t size;

		digest = rd_tpm2b(&p, VFIT_TPM_MAX_DIGEST, &size);
		if (size != dsize)
			return VFIT_TPM_ERR_MALFORMED;
	}
	r = rd_end(&p);
	if (r != VFIT_TPM_OK)
		return r;
	if (!selected)
		return VFIT_TPM_ERR_UNSUPPORTED;
	memcpy(out, digest, dsize);
	if (update_counter)
		*update_counter = counter;
	return VFIT_TPM_OK;
}
