/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internal helpers of the TPM layer: a bounded big-endian writer for
 * commands, a bounded reader for responses (both with a sticky error flag,
 * so a sequence of calls is checked once at its end), and the exchange that
 * checks a response's header and session area.
 */
#ifndef VFIT_TPM_INT_H
#define VFIT_TPM_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfit/tpm.h"

#include "../byteorder.h"

#define TPM_ST_RSP_COMMAND 0x00C4u      /* TPM 1.2 tag a TPM 2.0 answers a bad tag with */
#define TPM_ST_NO_SESSIONS 0x8001u
#define TPM_ST_SESSIONS    0x8002u
#define TPM_HEADER_SIZE    10u

/* Command codes (TPM 2.0 Part 2, TPM_CC) */
#define TPM_CC_NV_UndefineSpace  0x00000122u
#define TPM_CC_HierarchyControl  0x00000121u
#define TPM_CC_NV_DefineSpace    0x0000012Au
#define TPM_CC_NV_Increment      0x00000134u
#define TPM_CC_NV_Write          0x00000137u
#define TPM_CC_NV_WriteLock      0x00000138u
#define TPM_CC_Startup           0x00000144u
#define TPM_CC_NV_Read           0x0000014Eu
#define TPM_CC_NV_ReadLock       0x0000014Fu
#define TPM_CC_NV_ReadPublic     0x00000169u
#define TPM_CC_GetCapability     0x0000017Au
#define TPM_CC_GetRandom         0x0000017Bu
#define TPM_CC_PCR_Read          0x0000017Eu
#define TPM_CC_PCR_Extend        0x00000182u

#define TPM_CAP_PCRS             0x00000005u
#define TPM_CAP_TPM_PROPERTIES   0x00000006u

/* More entries than any TPM has hash algorithms: a bound for hostile counts. */
#define TPM_MAX_LIST 16u
/* sizeofSelect: PCRs 0..31 at most. */
#define TPM_MAX_SELECT 4u

struct tpm_wr {
	uint8_t *buf;
	size_t len, cap;
	int bad;                /* something did not fit */
};

struct tpm_rd {
	const uint8_t *p;
	size_t left;
	int bad;                /* something was read beyond the end */
};

static inline void wr_bytes(struct tpm_wr *w, const void *p, size_t n)
{
	if (w->bad || n > w->cap - w->len) {
		w->bad = 1;
		return;
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static inline void wr_u8(struct tpm_wr *w, uint8_t v)
{
	wr_bytes(w, &v, 1);
}

static inline void wr_u16(struct tpm_wr *w, uint16_t v)
{
	uint8_t b[2];

	st_be16(b, v);
	wr_bytes(w, b, 2);
}

static inline void wr_u32(struct tpm_wr *w, uint32_t v)
{
	uint8_t b[4];

	st_be32(b, v);
	wr_bytes(w, b, 4);
}

/* NULL (and bad set) when fewer than n bytes are left. */
static inline const uint8_t *rd_bytes(struct tpm_rd *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || n > r->left) {
		r->bad = 1;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return p;
}

static inline uint8_t rd_u8(struct tpm_rd *r)
{
	const uint8_t *p = rd_bytes(r, 1);

	return p ? p[0] : 0;
}

static inline uint16_t rd_u16(struct tpm_rd *r)
{
	const uint8_t *p = rd_bytes(r, 2);

	return p ? ld_be16(p) : 0;
}

static inline uint32_t rd_u32(struct tpm_rd *r)
{
	const uint8_t *p = rd_bytes(r, 4);

	return p ? ld_be32(p) : 0;
}

/* A TPM2B: its size (at most max, else bad) and bytes. */
static inline const uint8_t *rd_tpm2b(struct tpm_rd *r, size_t max, uint16_t *size)
{
	uint16_t n = rd_u16(r);

	*size = 0;
	if (n > max) {
		r->bad = 1;
		return NULL;
	}
	*size = n;
	return rd_bytes(r, n);
}

/* Starts a command in tpm->buf: tag, size (set by vfit_tpm_exchange_), command code, handles. */
void vfit_tpm_cmd_begin_(struct vfit_tpm *tpm, struct tpm_wr *w, int sessions, uint32_t cc);
/* The authorization area of one password session. */
void vfit_tpm_cmd_auth_(struct tpm_wr *w, const struct vfit_tpm_auth *a);

/*
 * Sends the command in w, checks the response's header (tag, size,
 * response code) and, for a session command, its parameterSize and the
 * password session's response; params then spans exactly the response
 * parameters.  VFIT_TPM_ERR_RC with tpm->rc for an error response.
 */
enum vfit_tpm_result vfit_tpm_exchange_(struct vfit_tpm *tpm, struct tpm_wr *w, int sessions,
				  struct tpm_rd *params);

/* The usual end of a parse: everything read, nothing beyond. */
static inline enum vfit_tpm_result rd_end(const struct tpm_rd *r)
{
	return r->bad || r->left ? VFIT_TPM_ERR_MALFORMED : VFIT_TPM_OK;
}

/* Whether a password fits a session (NULL only with length 0). */
int vfit_tpm_auth_ok_(const struct vfit_tpm_auth *a);

/* Checks d: 1..VFIT_TPM_MAX_BANKS digests of known algorithms, no bank twice. */
int vfit_tpm_digests_ok_(const struct vfit_tpm_digests *d);

#endif
