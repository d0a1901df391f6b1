/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trust state in a TPM 2.0 NV index (layout and attributes:
 * include/vfit/boot_tpm.h; why: docs/trust-state.md).  Everything the TPM
 * answers went through lib/tpm's parser; what the index holds is checked
 * here again before the flow sees it.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/boot_tpm.h"

#include "../byteorder.h"

#define TRUST_MAGIC "VFTS"
#define TRUST_VERSION 1u
#define OFF_STATE 8u
#define OFF_CTR (OFF_STATE + VFIT_BOOT_STATE_SIZE)
#define CTR_ENTRY (VFIT_BOOT_COUNTER_NAME + 8u)
#define OFF_PAD (OFF_CTR + VFIT_TRUST_COUNTERS * CTR_ENTRY)

_Static_assert(OFF_PAD <= VFIT_TRUST_SIZE, "trust state layout");
_Static_assert(VFIT_TRUST_SIZE <= 512, "one NV_Write, atomic on every PC Client TPM");

static const struct vfit_tpm_auth platform = { VFIT_TPM_RH_PLATFORM, NULL, 0 };

enum vfit_boot_why vfit_trust_why(enum vfit_tpm_result r)
{
	switch (r) {
	case VFIT_TPM_OK: return VFIT_WHY_NONE;
	case VFIT_TPM_ERR_NO_TPM: return VFIT_WHY_TPM_ABSENT;
	case VFIT_TPM_ERR_TIMEOUT: return VFIT_WHY_TPM_TIMEOUT;
	case VFIT_TPM_ERR_MALFORMED: return VFIT_WHY_TPM_GARBAGE;
	default: return VFIT_WHY_TPM_ERROR;
	}
}

/* Notes a failed command; returns its reason. */
static enum vfit_boot_why failed(struct vfit_trust *t, const char *what, enum vfit_tpm_result r)
{
	t->what = what;
	t->tr = r;
	t->rc = r == VFIT_TPM_ERR_RC ? t->tpm->rc : 0;
	return vfit_trust_why(r);
}

static enum vfit_boot_why refused(struct vfit_trust *t, const char *what, enum vfit_boot_why w)
{
	t->what = what;
	t->tr = VFIT_TPM_OK;
	t->rc = 0;
	return w;
}

static uint8_t *entry(struct vfit_trust *t, unsigned int i)
{
	return t->nv + OFF_CTR + i * CTR_ENTRY;
}

static size_t name_len(const char *n)
{
	size_t len = 0;

	while (len < VFIT_BOOT_COUNTER_NAME && n[len])
		len++;
	return len;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* Magic, version, padding, counter entries (each empty or a valid, unique name). */
static bool content_ok(struct vfit_trust *t)
{
	unsigned int i, j;

	if (memcmp(t->nv, TRUST_MAGIC, 4) || ld_be32(t->nv + 4) != TRUST_VERSION ||
	    !all_zero(t->nv + OFF_PAD, VFIT_TRUST_SIZE - OFF_PAD))
		return false;
	for (i = 0; i < VFIT_TRUST_COUNTERS; i++) {
		const char *n = (const char *)entry(t, i);
		size_t len = name_len(n);

		if (!len) {
			if (!all_zero(entry(t, i), CTR_ENTRY))
				return false;
			continue;
		}
		if (!vfit_counter_name_valid(n, len) ||
		    !all_zero(entry(t, i) + len, VFIT_BOOT_COUNTER_NAME - len))
			return false;
		for (j = 0; j < i; j++)
			if (!strncmp(n, (const char *)entry(t, j), VFIT_BOOT_COUNTER_NAME))
				return false;
	}
	return true;
}

/* The exact public area the factory defines (WRITTEN aside). */
static void expected(struct vfit_tpm_nv_public *p, uint32_t index)
{
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->name_alg = VFIT_TPM_ALG_SHA256;
	p->attributes = VFIT_TRUST_ATTRS | (VFIT_TPM_NT_ORDINARY << VFIT_TPMA_NV_TPM_NT_SHIFT);
	p->data_size = VFIT_TRUST_SIZE;
}

static enum vfit_boot_why check_public(struct vfit_trust *t)
{
	struct vfit_tpm_nv_public want, got;
	enum vfit_tpm_result r;

	expected(&want, t->index);
	r = vfit_tpm_nv_read_public(t->tpm, t->index, &got);
	if (r == VFIT_TPM_ERR_RC && vfit_tpm_rc_base(t->tpm->rc) == VFIT_TPM_RC_HANDLE)
		return refused(t, "NV_ReadPublic", VFIT_WHY_NV_MISSING);
	if (r)
		return failed(t, "NV_ReadPublic", r);
	t->written = (got.attributes & VFIT_TPMA_NV_WRITTEN) != 0;
	if (got.name_alg != want.name_alg || got.data_size != want.data_size ||
	    got.auth_policy_size || (got.attributes & ~VFIT_TPMA_NV_WRITTEN) != want.attributes)
		return refused(t, "NV_ReadPublic", VFIT_WHY_NV_ATTRIBUTES);
	return VFIT_WHY_NONE;
}

/* Exactly one active bank, sha256: the digests the verifier computed are sha256. */
static enum vfit_boot_why check_banks(struct vfit_trust *t, struct vfit_tpm_banks *b)
{
	enum vfit_tpm_result r = vfit_tpm_get_banks(t->tpm, b);

	if (r == VFIT_TPM_ERR_UNSUPPORTED || r == VFIT_TPM_ERR_LIMIT)
		return refused(t, "GetCapability(PCRS)", VFIT_WHY_TPM_BANKS);
	if (r)
		return failed(t, "GetCapability(PCRS)", r);
	if (b->count != 1 || b->alg[0] != VFIT_TPM_ALG_SHA256)
		return refused(t, "GetCapability(PCRS)", VFIT_WHY_TPM_BANKS);
	return VFIT_WHY_NONE;
}

enum vfit_boot_why vfit_trust_open(struct vfit_trust *t, struct vfit_tpm *tpm,
				   struct vfit_tpm_log *log, void *log_mem, size_t log_cap)
{
	struct vfit_tpm_banks banks;
	enum vfit_tpm_result r;
	enum vfit_boot_why w;

	memset(t, 0, sizeof(*t));
	t->tpm = tpm;
	t->index = VFIT_TRUST_INDEX;
	r = vfit_tpm_startup_clear(tpm);
	if (r && r != VFIT_TPM_ERR_INITIALIZED)
		return failed(t, "Startup", r);
	w = check_banks(t, &banks);
	if (w)
		return w;
	w = check_public(t);
	if (w)
		return w;
	if (t->written) {
		/* With platform authorization: it fails if someone disabled the hierarchy since reset. */
		r = vfit_tpm_nv_read(tpm, &platform, t->index, 0, t->nv, VFIT_TRUST_SIZE);
		if (r == VFIT_TPM_ERR_RC && vfit_tpm_rc_base(tpm->rc) == VFIT_TPM_RC_HIERARCHY) {
			failed(t, "NV_Read", r);
			return VFIT_WHY_TPM_LOCK;
		}
		if (r)
			return failed(t, "NV_Read", r);
		if (!content_ok(t))
			return refused(t, "NV_Read", VFIT_WHY_NV_CONTENT);
	} else {
		memcpy(t->nv, TRUST_MAGIC, 4);
		st_be32(t->nv + 4, TRUST_VERSION);
	}
	if (log) {
		r = vfit_tpm_log_init(log, log_mem, log_cap, &banks);
		if (r)
			return refused(t, "event log", VFIT_WHY_MEASURE);
		t->log = log;
	}
	return VFIT_WHY_NONE;
}

/* Writes the whole shadow; on failure the shadow is what the TPM holds. */
static enum vfit_io commit(struct vfit_trust *t, const uint8_t *old)
{
	enum vfit_tpm_result r = vfit_tpm_nv_write(t->tpm, &platform, t->index, 0, t->nv,
						   VFIT_TRUST_SIZE);

	if (r) {
		memcpy(t->nv, old, VFIT_TRUST_SIZE);
		failed(t, "NV_Write", r);
		return VFIT_IO_ERROR;
	}
	t->written = true;
	return VFIT_IO_OK;
}

enum vfit_io vfit_trust_state_read(struct vfit_trust *t, void *buf, size_t cap, size_t *len)
{
	if (all_zero(t->nv + OFF_STATE, VFIT_BOOT_STATE_SIZE))
		return VFIT_IO_ABSENT;
	if (cap < VFIT_BOOT_STATE_SIZE)
		return VFIT_IO_TOO_BIG;
	memcpy(buf, t->nv + OFF_STATE, VFIT_BOOT_STATE_SIZE);
	*len = VFIT_BOOT_STATE_SIZE;
	return VFIT_IO_OK;
}

enum vfit_io vfit_trust_state_write(struct vfit_trust *t, const void *buf, size_t len)
{
	uint8_t old[VFIT_TRUST_SIZE];

	if (len != VFIT_BOOT_STATE_SIZE)
		return VFIT_IO_TOO_BIG;
	memcpy(old, t->nv, sizeof(old));
	memcpy(t->nv + OFF_STATE, buf, len);
	return commit(t, old);
}

/* The entry of name, else -1 (and *free the first unused one, or -1). */
static int find(struct vfit_trust *t, const char *name, int *free_at)
{
	unsigned int i;

	*free_at = -1;
	for (i = 0; i < VFIT_TRUST_COUNTERS; i++) {
		const char *n = (const char *)entry(t, i);

		if (!*n && *free_at < 0)
			*free_at = (int)i;
		if (*n && !strncmp(n, name, VFIT_BOOT_COUNTER_NAME))
			return (int)i;
	}
	return -1;
}

enum vfit_io vfit_trust_counter_read(struct vfit_trust *t, const char *name, uint64_t *value)
{
	int free_at, i = find(t, name, &free_at);

	*value = i < 0 ? 0 : ld_be64(entry(t, (unsigned int)i) + VFIT_BOOT_COUNTER_NAME);
	return VFIT_IO_OK;
}

enum vfit_io vfit_trust_counter_advance(struct vfit_trust *t, const char *name, uint64_t value)
{
	uint8_t old[VFIT_TRUST_SIZE], *e;
	size_t len = strlen(name);
	int free_at, i = find(t, name, &free_at);

	if (!vfit_counter_name_valid(name, len))
		return VFIT_IO_ERROR;
	if (i < 0 && free_at < 0) {
		refused(t, "no free counter entry", VFIT_WHY_NV_WRITE);
		return VFIT_IO_ERROR;
	}
	e = entry(t, (unsigned int)(i < 0 ? free_at : i));
	/* Monotonic by this code: nothing else can write the index. */
	if (i >= 0 && value < ld_be64(e + VFIT_BOOT_COUNTER_NAME)) {
		refused(t, "counter would move backwards", VFIT_WHY_NV_WRITE);
		return VFIT_IO_ERROR;
	}
	memcpy(old, t->nv, sizeof(old));
	memset(e, 0, CTR_ENTRY);
	memcpy(e, name, len);
	st_be64(e + VFIT_BOOT_COUNTER_NAME, value);
	return commit(t, old);
}

enum vfit_io vfit_trust_measure(struct vfit_trust *t, unsigned int pcr, uint32_t type,
				const uint8_t digest[VFIT_BOOT_DIGEST], const void *event,
				size_t len)
{
	struct vfit_tpm_digests d;
	enum vfit_tpm_result r;

	memset(&d, 0, sizeof(d));
	d.count = 1;
	d.d[0].alg = VFIT_TPM_ALG_SHA256;
	memcpy(d.d[0].digest, digest, VFIT_BOOT_DIGEST);
	r = vfit_tpm_measure(t->tpm, t->log, pcr, type, &d, event, len);
	if (r) {
		failed(t, "PCR_Extend", r);
		return VFIT_IO_ERROR;
	}
	return VFIT_IO_OK;
}

enum vfit_boot_why vfit_trust_lock(struct vfit_trust *t)
{
	enum vfit_tpm_result r;

	r = vfit_tpm_hierarchy_control(t->tpm, &platform, VFIT_TPM_RH_PLATFORM, 0);
	if (r) {
		failed(t, "HierarchyControl", r);
		return VFIT_WHY_TPM_LOCK;
	}
	return VFIT_WHY_NONE;
}

enum vfit_boot_why vfit_trust_define(struct vfit_trust *t, struct vfit_tpm *tpm)
{
	struct vfit_tpm_nv_public pub;
	enum vfit_tpm_result r;

	memset(t, 0, sizeof(*t));
	t->tpm = tpm;
	t->index = VFIT_TRUST_INDEX;
	expected(&pub, t->index);
	r = vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &pub);
	return r ? failed(t, "NV_DefineSpace", r) : VFIT_WHY_NONE;
}
