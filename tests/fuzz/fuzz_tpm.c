/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/tpm's response parsers and the event log replay on
 * hostile bytes.  Input = one selector byte, then the bytes a fake
 * transport hands back as the TPM's response to every command of that
 * operation (selector 9: the bytes are an event log to replay instead).
 * The log is replayed from an exact-size heap copy, so ASan sees any read
 * beyond it; responses are read only through the bounded reader of
 * lib/tpm/tpm_int.h, and the checks below hold the parsers to what their
 * results promise.  The seeds in corpus/fuzz_tpm are real swtpm 0.7.1
 * responses to each operation and a real log (test_tpm's sequence).
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/tpm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fake {
	const uint8_t *rsp;
	size_t len;
};

static enum vfit_tpm_result fake_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len, uint8_t *rsp,
				      size_t rsp_cap, size_t *rsp_len)
{
	struct fake *f = ctx;

	(void)cmd;
	(void)cmd_len;
	if (f->len > rsp_cap)
		return VFIT_TPM_ERR_TRANSPORT;
	memcpy(rsp, f->rsp, f->len);
	*rsp_len = f->len;
	return VFIT_TPM_OK;
}

/* Results a parser may give on any response; anything else is a bug. */
static void expect_response_result(enum vfit_tpm_result r)
{
	if (r != VFIT_TPM_OK && r != VFIT_TPM_ERR_MALFORMED && r != VFIT_TPM_ERR_RC &&
	    r != VFIT_TPM_ERR_INITIALIZED && r != VFIT_TPM_ERR_UNSUPPORTED && r != VFIT_TPM_ERR_LIMIT &&
	    r != VFIT_TPM_ERR_TRANSPORT)
		abort();
}

static void run(struct vfit_tpm *tpm, unsigned op)
{
	static const struct vfit_tpm_auth platform = { VFIT_TPM_RH_PLATFORM, NULL, 0 };
	struct vfit_tpm_banks b;
	struct vfit_tpm_nv_public pub;
	struct vfit_tpm_digests d = { 2, { { VFIT_TPM_ALG_SHA256, { 1 } }, { VFIT_TPM_ALG_SHA1, { 2 } } } };
	struct vfit_tpm_log log;
	uint8_t buf[600], mem[512];
	uint64_t c;
	uint32_t v, i;
	enum vfit_tpm_result r = VFIT_TPM_OK;

	switch (op) {
	case 0:
		r = vfit_tpm_startup_clear(tpm);
		break;
	case 1:
		r = vfit_tpm_get_banks(tpm, &b);
		if (r == VFIT_TPM_OK) {
			if (b.count > VFIT_TPM_MAX_BANKS)
				abort();
			for (i = 0; i < b.count; i++)
				if (!vfit_tpm_alg_digest_size(b.alg[i]) || !b.pcr_mask[i])
					abort();
			/* What a stage does next: a log for those banks. */
			if (b.count && vfit_tpm_log_init(&log, mem, sizeof(mem), &b) != VFIT_TPM_OK)
				abort();
		}
		break;
	case 2:
		r = vfit_tpm_get_property(tpm, VFIT_TPM_PT_STARTUP_CLEAR, &v);
		break;
	case 3:
		r = vfit_tpm_get_random(tpm, buf, 40);
		break;
	case 4:
		r = vfit_tpm_nv_read_public(tpm, 0x01500010u, &pub);
		if (r == VFIT_TPM_OK && (pub.index != 0x01500010u || pub.auth_policy_size > VFIT_TPM_MAX_DIGEST))
			abort();
		break;
	case 5:
		r = vfit_tpm_nv_read_counter(tpm, &platform, 0x01500010u, &c);
		break;
	case 6:
		r = vfit_tpm_nv_read(tpm, &platform, 0x01500011u, 0, buf, sizeof(buf));    /* two chunks */
		break;
	case 7:
		r = vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, buf, &v);
		break;
	case 8:
		/* Commands that answer with no parameters, and the log they write. */
		b.count = 2;
		b.alg[0] = VFIT_TPM_ALG_SHA1;
		b.alg[1] = VFIT_TPM_ALG_SHA256;
		if (vfit_tpm_log_init(&log, mem, sizeof(mem), &b) != VFIT_TPM_OK)
			abort();
		r = vfit_tpm_measure(tpm, &log, 8, VFIT_TPM_EV_IPL, &d, "kernel", 7);
		if ((r == VFIT_TPM_OK) != (log.len > 69))
			abort();        /* logged exactly when extended */
		expect_response_result(r);
		r = vfit_tpm_nv_write(tpm, &platform, 0x01500011u, 0, buf, 40);
		expect_response_result(r);
		r = vfit_tpm_hierarchy_control(tpm, &platform, VFIT_TPM_RH_PLATFORM, 0);
		break;
	}
	expect_response_result(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vfit_tpm *tpm;
	struct fake f;
	struct vfit_tpm_transport tr = { fake_xfer, &f };
	unsigned op;

	if (size < 1)
		return 0;
	op = data[0] % 10;
	if (op == 9) {
		uint8_t out[VFIT_TPM_MAX_DIGEST];
		uint8_t *copy = malloc(size - 1 ? size - 1 : 1);
		static const uint16_t algs[4] = { VFIT_TPM_ALG_SHA1, VFIT_TPM_ALG_SHA256, VFIT_TPM_ALG_SHA384,
						  VFIT_TPM_ALG_SHA512 };
		enum vfit_tpm_result r;

		if (!copy)
			abort();
		memcpy(copy, data + 1, size - 1);
		/* The selector's high bits pick the PCR and bank to replay. */
		r = vfit_tpm_log_replay(copy, size - 1, (uint32_t)(data[0] / 10) % 24, algs[(data[0] / 40) % 4],
					out, NULL);
		if (r != VFIT_TPM_OK && r != VFIT_TPM_ERR_LOG && r != VFIT_TPM_ERR_UNSUPPORTED)
			abort();
		free(copy);
		return 0;
	}
	tpm = malloc(sizeof(*tpm));
	if (!tpm)
		abort();
	f.rsp = data + 1;
	f.len = size - 1;
	vfit_tpm_init(tpm, &tr);
	run(tpm, op);
	free(tpm);
	return 0;
}
