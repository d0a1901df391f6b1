/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exchange every command goes through: marshalling of the header and
 * of a password session, and the checks of a response's header and session
 * area (TPM 2.0 Part 1, "Command/Response Structure"), before any command
 * looks at its parameters.
 */
#include "tpm_int.h"

void vfit_tpm_init(struct vfit_tpm *tpm, const struct vfit_tpm_transport *tr)
{
	tpm->tr = *tr;
	tpm->rc = 0;
	tpm->commands = 0;
}

void vfit_tpm_cmd_begin_(struct vfit_tpm *tpm, struct tpm_wr *w, int sessions, uint32_t cc)
{
	w->buf = tpm->buf;
	w->cap = sizeof(tpm->buf);
	w->len = 0;
	w->bad = 0;
	wr_u16(w, sessions ? TPM_ST_SESSIONS : TPM_ST_NO_SESSIONS);
	wr_u32(w, 0);                   /* commandSize, set by vfit_tpm_exchange_ */
	wr_u32(w, cc);
}

int vfit_tpm_auth_ok_(const struct vfit_tpm_auth *a)
{
	return a && a->password_len <= VFIT_TPM_MAX_PASSWORD && (a->password || !a->password_len);
}

void vfit_tpm_cmd_auth_(struct tpm_wr *w, const struct vfit_tpm_auth *a)
{
	/* authorizationSize, then TPMS_AUTH_COMMAND: handle, empty nonce, attributes, password */
	wr_u32(w, 4u + 2u + 1u + 2u + a->password_len);
	wr_u32(w, VFIT_TPM_RS_PW);
	wr_u16(w, 0);
	wr_u8(w, 0x01);                 /* continueSession: the PW session has no state to lose */
	wr_u16(w, a->password_len);
	wr_bytes(w, a->password, a->password_len);
}

static enum vfit_tpm_result transport(struct vfit_tpm *tpm, size_t cmd_len, size_t *rsp_len)
{
	enum vfit_tpm_result r;

	*rsp_len = 0;
	tpm->commands++;
	r = tpm->tr.xfer(tpm->tr.ctx, tpm->buf, cmd_len, tpm->buf, sizeof(tpm->buf), rsp_len);
	if (r == VFIT_TPM_OK)
		return *rsp_len <= sizeof(tpm->buf) ? VFIT_TPM_OK : VFIT_TPM_ERR_TRANSPORT;
	if (r == VFIT_TPM_ERR_NO_TPM || r == VFIT_TPM_ERR_TIMEOUT)
		return r;
	return VFIT_TPM_ERR_TRANSPORT;
}

enum vfit_tpm_result vfit_tpm_exchange_(struct vfit_tpm *tpm, struct tpm_wr *w, int sessions,
				  struct tpm_rd *params)
{
	struct tpm_rd r;
	size_t len;
	uint16_t tag;
	uint32_t size, rc, psize;
	enum vfit_tpm_result res;

	params->p = NULL;
	params->left = 0;
	params->bad = 1;
	tpm->rc = 0;
	/* No command here exceeds the buffer (the largest, an NV_Write chunk, is ~560 bytes). */
	if (w->bad)
		return VFIT_TPM_ERR_SPACE;
	st_be32(w->buf + 2, (uint32_t)w->len);
	res = transport(tpm, w->len, &len);
	if (res != VFIT_TPM_OK)
		return res;

	r.p = tpm->buf;
	r.left = len;
	r.bad = 0;
	tag = rd_u16(&r);
	size = rd_u32(&r);
	rc = rd_u32(&r);
	if (r.bad || size != len)
		return VFIT_TPM_ERR_MALFORMED;
	if (rc != VFIT_TPM_RC_SUCCESS) {
		/* An error response is the bare header (Part 1, "Response Header Validation"). */
		if ((tag != TPM_ST_NO_SESSIONS && tag != TPM_ST_RSP_COMMAND) || r.left)
			return VFIT_TPM_ERR_MALFORMED;
		tpm->rc = rc;
		return VFIT_TPM_ERR_RC;
	}
	if (tag != (sessions ? TPM_ST_SESSIONS : TPM_ST_NO_SESSIONS))
		return VFIT_TPM_ERR_MALFORMED;
	if (sessions) {
		struct tpm_rd s;
		uint16_t nonce, hmac;

		/* None of these commands returns a handle: parameterSize comes first. */
		psize = rd_u32(&r);
		if (r.bad || psize > r.left)
			return VFIT_TPM_ERR_MALFORMED;
		s.p = r.p + psize;
		s.left = r.left - psize;
		s.bad = 0;
		r.left = psize;
		/* A password session answers with an empty nonce and an empty HMAC. */
		rd_tpm2b(&s, 0, &nonce);
		rd_u8(&s);
		rd_tpm2b(&s, 0, &hmac);
		if (rd_end(&s) != VFIT_TPM_OK)
			return VFIT_TPM_ERR_MALFORMED;
	}
	*params = r;
	return VFIT_TPM_OK;
}
