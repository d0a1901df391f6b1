/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replay of a TCG2 crypto-agile event log (layout in tpm_log.c): the value a
 * PCR must hold after the log's extends.  Host tools and tests use it; a
 * stage that only writes its log does not link it.
 */
#include "tpm_int.h"

static const uint8_t spec_id_signature[16] = "Spec ID Event03";     /* with its NUL */
static const uint8_t startup_locality[16] = "StartupLocality";

static uint16_t rd_le16(struct tpm_rd *r)
{
	const uint8_t *p = rd_bytes(r, 2);

	return p ? ld_le16(p) : 0;
}

static uint32_t rd_le32(struct tpm_rd *r)
{
	uint32_t lo = rd_le16(r);

	return lo | (uint32_t)rd_le16(r) << 16;
}

struct spec_id {
	uint32_t n;
	uint16_t alg[TPM_MAX_LIST];
	uint16_t size[TPM_MAX_LIST];
};

/* The Spec ID event: the algorithms of the log and their digest sizes. */
static int parse_spec_id(struct tpm_rd *r, struct spec_id *s)
{
	static const uint8_t zero[20];
	struct tpm_rd e;
	const uint8_t *digest, *sig;
	uint32_t pcr, type, size, i, j;

	pcr = rd_le32(r);
	type = rd_le32(r);
	digest = rd_bytes(r, 20);
	size = rd_le32(r);
	e.p = rd_bytes(r, size);
	e.left = size;
	e.bad = r->bad;
	if (r->bad || pcr != 0 || type != VFIT_TPM_EV_NO_ACTION || memcmp(digest, zero, 20))
		return 0;
	sig = rd_bytes(&e, 16);
	rd_bytes(&e, 4 + 4);                    /* platformClass, version, errata, uintnSize */
	s->n = rd_le32(&e);
	if (e.bad || memcmp(sig, spec_id_signature, 16) || !s->n || s->n > TPM_MAX_LIST)
		return 0;
	for (i = 0; i < s->n; i++) {
		size_t known;

		s->alg[i] = rd_le16(&e);
		s->size[i] = rd_le16(&e);
		known = vfit_tpm_alg_digest_size(s->alg[i]);
		if (!s->size[i] || s->size[i] > VFIT_TPM_MAX_DIGEST || (known && known != s->size[i]))
			return 0;
		for (j = 0; j < i; j++)
			if (s->alg[j] == s->alg[i])
				return 0;
	}
	rd_bytes(&e, rd_u8(&e));                /* vendorInfo */
	return rd_end(&e) == VFIT_TPM_OK;
}

enum vfit_tpm_result vfit_tpm_log_replay(const void *log, size_t len, uint32_t pcr, uint16_t alg,
					 uint8_t out[VFIT_TPM_MAX_DIGEST], uint32_t *events)
{
	struct spec_id s;
	struct tpm_rd r;
	struct vfit_hash_ctx h;
	uint8_t value[VFIT_TPM_MAX_DIGEST];
	size_t dsize = vfit_tpm_alg_digest_size(alg);
	uint32_t extended = 0, target, i, j;

	if ((!log && len) || !out || pcr >= VFIT_TPM_PCR_COUNT || !dsize)
		return VFIT_TPM_ERR_PARAM;
	r.p = log;
	r.left = len;
	r.bad = 0;
	if (!parse_spec_id(&r, &s))
		return VFIT_TPM_ERR_LOG;
	for (target = 0; target < s.n && s.alg[target] != alg; target++)
		;
	if (target == s.n || vfit_hash_init(&h, vfit_tpm_alg_hash(alg)))
		return VFIT_TPM_ERR_UNSUPPORTED;
	/* PC Client reset values: PCRs 17..22 (dynamic RTM) hold all ones until a DRTM event. */
	memset(value, pcr >= 17 && pcr <= 22 ? 0xFF : 0, sizeof(value));
	while (r.left) {
		uint32_t epcr = rd_le32(&r), type = rd_le32(&r), count = rd_le32(&r), esize;
		const uint8_t *digest = NULL, *event;
		uint16_t seen[TPM_MAX_LIST];

		if (r.bad || epcr >= VFIT_TPM_PCR_COUNT || count > s.n)
			return VFIT_TPM_ERR_LOG;
		for (i = 0; i < count; i++) {
			uint16_t a = rd_le16(&r);
			const uint8_t *dg;

			for (j = 0; j < s.n && s.alg[j] != a; j++)
				;
			if (j == s.n)
				return VFIT_TPM_ERR_LOG;
			seen[i] = a;
			for (j = 0; j < i; j++)
				if (seen[j] == a)
					return VFIT_TPM_ERR_LOG;
			for (j = 0; s.alg[j] != a; j++)
				;
			dg = rd_bytes(&r, s.size[j]);
			if (a == alg)
				digest = dg;
		}
		esize = rd_le32(&r);
		event = rd_bytes(&r, esize);
		if (r.bad)
			return VFIT_TPM_ERR_LOG;
		if (type == VFIT_TPM_EV_NO_ACTION) {
			/* Informational, never extended; StartupLocality sets PCR 0's reset value. */
			if (epcr == 0 && pcr == 0 && esize == 17 && !memcmp(event, startup_locality, 16)) {
				if (extended)
					return VFIT_TPM_ERR_LOG;
				value[dsize - 1] = event[16];
			}
			continue;
		}
		if (!digest)
			return VFIT_TPM_ERR_LOG;        /* an extend this bank would miss */
		if (epcr != pcr)
			continue;
		vfit_hash_init(&h, vfit_tpm_alg_hash(alg));
		vfit_hash_update(&h, value, dsize);
		vfit_hash_update(&h, digest, dsize);
		vfit_hash_final(&h, value);
		extended++;
	}
	memcpy(out, value, dsize);
	if (events)
		*events = extended;
	return VFIT_TPM_OK;
}
