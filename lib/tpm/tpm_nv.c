/* SPDX-License-Identifier: BSD-3-Clause */
/* NV index commands (TPM 2.0 Part 3, "Non-volatile Storage"). */
#include "tpm_int.h"

static int is_nv_index(uint32_t index)
{
	return (index >> 24) == (VFIT_TPM_HR_NV_INDEX >> 24);
}

/* Marshals a TPM2B_NV_PUBLIC. */
static void wr_nv_public(struct tpm_wr *w, const struct vfit_tpm_nv_public *pub)
{
	wr_u16(w, (uint16_t)(4 + 2 + 4 + 2 + pub->auth_policy_size + 2));
	wr_u32(w, pub->index);
	wr_u16(w, pub->name_alg);
	wr_u32(w, pub->attributes);
	wr_u16(w, pub->auth_policy_size);
	wr_bytes(w, pub->auth_policy, pub->auth_policy_size);
	wr_u16(w, pub->data_size);
}

enum vfit_tpm_result vfit_tpm_nv_read_public(struct vfit_tpm *tpm, uint32_t index,
					     struct vfit_tpm_nv_public *out)
{
	struct vfit_tpm_nv_public pub;
	struct tpm_wr w;
	struct tpm_rd p, in;
	enum vfit_tpm_result r;
	const uint8_t *b, *name;
	uint16_t size, nsize;
	size_t dsize;

	if (!tpm || !out || !is_nv_index(index))
		return VFIT_TPM_ERR_PARAM;
	vfit_tpm_cmd_begin_(tpm, &w, 0, TPM_CC_NV_ReadPublic);
	wr_u32(&w, index);
	r = vfit_tpm_exchange_(tpm, &w, 0, &p);
	if (r != VFIT_TPM_OK)
		return r;
	b = rd_tpm2b(&p, p.left, &size);        /* TPM2B_NV_PUBLIC: its size must be its contents' */
	name = rd_tpm2b(&p, 2 + VFIT_TPM_MAX_DIGEST, &nsize);
	if (rd_end(&p) != VFIT_TPM_OK)
		return VFIT_TPM_ERR_MALFORMED;
	in.p = b;
	in.left = size;
	in.bad = 0;
	memset(&pub, 0, sizeof(pub));
	pub.index = rd_u32(&in);
	pub.name_alg = rd_u16(&in);
	pub.attributes = rd_u32(&in);
	b = rd_tpm2b(&in, VFIT_TPM_MAX_DIGEST, &pub.auth_policy_size);
	if (b)
		memcpy(pub.auth_policy, b, pub.auth_policy_size);
	pub.data_size = rd_u16(&in);
	if (rd_end(&in) != VFIT_TPM_OK || pub.index != index)
		return VFIT_TPM_ERR_MALFORMED;
	/* The Name is nameAlg || H(public area): its algorithm and size agree with the area. */
	dsize = vfit_tpm_alg_digest_size(pub.name_alg);
	if (nsize < 2 || ld_be16(name) != pub.name_alg ||
	    (dsize && nsize != 2 + dsize))
		return VFIT_TPM_ERR_MALFORMED;
	*out = pub;
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_nv_define_space(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					      const void *index_auth, size_t index_auth_len,
					      const struct vfit_tpm_nv_public *pub)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;

	if (!tpm || !vfit_tpm_auth_ok_(auth) || !pub || !is_nv_index(pub->index) ||
	    pub->auth_policy_size > VFIT_TPM_MAX_DIGEST || index_auth_len > VFIT_TPM_MAX_PASSWORD ||
	    (!index_auth && index_auth_len))
		return VFIT_TPM_ERR_PARAM;
	vfit_tpm_cmd_begin_(tpm, &w, 1, TPM_CC_NV_DefineSpace);
	wr_u32(&w, auth->handle);
	vfit_tpm_cmd_auth_(&w, auth);
	wr_u16(&w, (uint16_t)index_auth_len);
	wr_bytes(&w, index_auth, index_auth_len);
	wr_nv_public(&w, pub);
	r = vfit_tpm_exchange_(tpm, &w, 1, &p);
	return r == VFIT_TPM_OK ? rd_end(&p) : r;
}

/* Commands whose handles are (authHandle, nvIndex) and whose parameters are in w after this. */
static int nv_begin(struct vfit_tpm *tpm, struct tpm_wr *w, uint32_t cc,
		    const struct vfit_tpm_auth *auth, uint32_t index)
{
	if (!tpm || !vfit_tpm_auth_ok_(auth) || !is_nv_index(index))
		return 0;
	vfit_tpm_cmd_begin_(tpm, w, 1, cc);
	wr_u32(w, auth->handle);
	wr_u32(w, index);
	vfit_tpm_cmd_auth_(w, auth);
	return 1;
}

/* A command with no parameters either way. */
static enum vfit_tpm_result nv_simple(struct vfit_tpm *tpm, uint32_t cc,
				      const struct vfit_tpm_auth *auth, uint32_t index)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;

	if (!nv_begin(tpm, &w, cc, auth, index))
		return VFIT_TPM_ERR_PARAM;
	r = vfit_tpm_exchange_(tpm, &w, 1, &p);
	return r == VFIT_TPM_OK ? rd_end(&p) : r;
}

enum vfit_tpm_result vfit_tpm_nv_undefine_space(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
						uint32_t index)
{
	return nv_simple(tpm, TPM_CC_NV_UndefineSpace, auth, index);
}

enum vfit_tpm_result vfit_tpm_nv_increment(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					   uint32_t index)
{
	return nv_simple(tpm, TPM_CC_NV_Increment, auth, index);
}

enum vfit_tpm_result vfit_tpm_nv_write_lock(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					    uint32_t index)
{
	return nv_simple(tpm, TPM_CC_NV_WriteLock, auth, index);
}

enum vfit_tpm_result vfit_tpm_nv_read_lock(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					   uint32_t index)
{
	return nv_simple(tpm, TPM_CC_NV_ReadLock, auth, index);
}

/* One NV_Write of wr[0..n) (wr set) or NV_Read into rd[0..n) at offset. */
static enum vfit_tpm_result nv_chunk(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
				     uint32_t index, uint16_t offset, uint8_t *rd,
				     const uint8_t *wr, uint16_t n)
{
	struct tpm_wr w;
	struct tpm_rd p;
	enum vfit_tpm_result r;
	const uint8_t *b = NULL;
	uint16_t got = n;

	if (!nv_begin(tpm, &w, wr ? TPM_CC_NV_Write : TPM_CC_NV_Read, auth, index))
		return VFIT_TPM_ERR_PARAM;
	wr_u16(&w, n);
	if (wr)
		wr_bytes(&w, wr, n);
	wr_u16(&w, offset);
	r = vfit_tpm_exchange_(tpm, &w, 1, &p);
	if (r != VFIT_TPM_OK)
		return r;
	if (!wr)
		b = rd_tpm2b(&p, n, &got);
	if (rd_end(&p) != VFIT_TPM_OK || got != n)
		return VFIT_TPM_ERR_MALFORMED;
	if (b && n)
		memcpy(rd, b, n);
	return VFIT_TPM_OK;
}

/*
 * len bytes at offset, read into rd or written from wr (one of them),
 * VFIT_TPM_NV_CHUNK bytes per command: TPMs cap one NV transfer.
 */
static enum vfit_tpm_result nv_transfer(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					uint32_t index, uint16_t offset, uint8_t *rd,
					const uint8_t *wr, size_t len)
{
	if ((!rd && !wr && len) || len > 0xFFFFu - offset)
		return VFIT_TPM_ERR_PARAM;
	while (len) {
		uint16_t n = len > VFIT_TPM_NV_CHUNK ? VFIT_TPM_NV_CHUNK : (uint16_t)len;
		enum vfit_tpm_result r = nv_chunk(tpm, auth, index, offset, rd, wr, n);

		if (r != VFIT_TPM_OK)
			return r;
		if (wr)
			wr += n;
		else
			rd += n;
		offset = (uint16_t)(offset + n);
		len -= n;
	}
	return VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_nv_read(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
				      uint32_t index, uint16_t offset, void *out, size_t len)
{
	return nv_transfer(tpm, auth, index, offset, out, NULL, len);
}

enum vfit_tpm_result vfit_tpm_nv_write(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
				       uint32_t index, uint16_t offset, const void *data, size_t len)
{
	return nv_transfer(tpm, auth, index, offset, NULL, data, len);
}

enum vfit_tpm_result vfit_tpm_nv_read_counter(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					      uint32_t index, uint64_t *value)
{
	uint8_t b[8];
	enum vfit_tpm_result r;
	uint64_t v = 0;
	int i;

	if (!value)
		return VFIT_TPM_ERR_PARAM;
	r = vfit_tpm_nv_read(tpm, auth, index, 0, b, sizeof(b));
	if (r != VFIT_TPM_OK)
		return r;
	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	*value = v;
	return VFIT_TPM_OK;
}
