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

#include "boot_int.h"

#define TRUST_MAGIC "VFTS"
#define TRUST_VERSION 1u
#define OFF_STATE 8u
#define OFF_CTR (OFF_STATE + VFIT_BOOT_STATE_SIZE)
#define CTR_ENTRY (VFIT_BOOT_COUNTER_NAME + 8u)
#define OFF_PAD (OFF_CTR + VFIT_TRUST_COUNTERS * CTR_ENTRY)
#define REQ_MAGIC "VFRQ"
#define REQ_VERSION 1u
#define REQ_END 14u

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

/* The two indices the factory defines: the trust state and the OS's requests. */
struct index_def {
	uint32_t index, attrs;
	uint16_t size;
	const char *what;
	enum vfit_boot_why missing, wrong;
};

static const struct index_def trust_def = {
	VFIT_TRUST_INDEX, VFIT_TRUST_ATTRS, VFIT_TRUST_SIZE, "NV_ReadPublic",
	VFIT_WHY_NV_MISSING, VFIT_WHY_NV_ATTRIBUTES,
};
static const struct index_def req_def = {
	VFIT_TRUST_REQ_INDEX, VFIT_TRUST_REQ_ATTRS, VFIT_TRUST_REQ_SIZE,
	"NV_ReadPublic, request index", VFIT_WHY_REQ_MISSING, VFIT_WHY_REQ_ATTRIBUTES,
};

/* The exact public area the factory defines (WRITTEN aside). */
static void expected(struct vfit_tpm_nv_public *p, const struct index_def *d)
{
	memset(p, 0, sizeof(*p));
	p->index = d->index;
	p->name_alg = VFIT_TPM_ALG_SHA256;
	p->attributes = d->attrs | (VFIT_TPM_NT_ORDINARY << VFIT_TPMA_NV_TPM_NT_SHIFT);
	p->data_size = d->size;
}

/* The index exactly as the factory defined it; *written: it holds data. */
static enum vfit_boot_why check_public(struct vfit_trust *t, const struct index_def *d,
				       bool *written)
{
	struct vfit_tpm_nv_public want, got;
	enum vfit_tpm_result r;

	expected(&want, d);
	r = vfit_tpm_nv_read_public(t->tpm, d->index, &got);
	if (r == VFIT_TPM_ERR_RC && vfit_tpm_rc_base(t->tpm->rc) == VFIT_TPM_RC_HANDLE)
		return refused(t, d->what, d->missing);
	if (r)
		return failed(t, d->what, r);
	*written = (got.attributes & VFIT_TPMA_NV_WRITTEN) != 0;
	if (got.name_alg != want.name_alg || got.data_size != want.data_size ||
	    got.auth_policy_size || (got.attributes & ~VFIT_TPMA_NV_WRITTEN) != want.attributes)
		return refused(t, d->what, d->wrong);
	return VFIT_WHY_NONE;
}

/*
 * The active banks, each one the stage can hash (t->hashes): a bank left
 * unextended is one the OS can forge.  The bank that cannot be names itself.
 */
static enum vfit_boot_why check_banks(struct vfit_trust *t)
{
	enum vfit_tpm_result r = vfit_tpm_get_banks(t->tpm, &t->banks);
	uint16_t alg;

	if (r == VFIT_TPM_ERR_UNSUPPORTED || r == VFIT_TPM_ERR_LIMIT)
		return refused(t, "GetCapability(PCRS)", VFIT_WHY_TPM_BANKS);
	if (r)
		return failed(t, "GetCapability(PCRS)", r);
	if (vfit_tpm_banks_hashes(&t->banks, &t->hashes, &alg))
		return refused(t, vfit_tpm_alg_to_string(alg), VFIT_WHY_TPM_BANKS);
	return VFIT_WHY_NONE;
}

/* A request as the OS wrote it: each field in range, the rest zero. */
static enum vfit_trust_req req_decode(const uint8_t *in, struct vfit_boot_request *rq)
{
	if (all_zero(in, VFIT_TRUST_REQ_SIZE))
		return VFIT_TRUST_REQ_NONE;
	if (memcmp(in, REQ_MAGIC, 4) || ld_be32(in + 4) != REQ_VERSION ||
	    !all_zero(in + REQ_END, VFIT_TRUST_REQ_SIZE - REQ_END) ||
	    (in[12] > VFIT_CHAIN_RECOVERY && in[12] != VFIT_BOOT_NONE) ||
	    (in[13] >= VFIT_BOOT_SLOTS && in[13] != VFIT_BOOT_NONE) ||
	    (in[12] == VFIT_BOOT_NONE && in[13] == VFIT_BOOT_NONE))
		return VFIT_TRUST_REQ_MALFORMED;
	rq->seq = ld_be32(in + 8);
	rq->confirm = in[12];
	rq->install = in[13];
	return VFIT_TRUST_REQ_VALID;
}

static void req_encode(const struct vfit_boot_request *rq, uint8_t out[VFIT_TRUST_REQ_SIZE])
{
	memset(out, 0, VFIT_TRUST_REQ_SIZE);
	memcpy(out, REQ_MAGIC, 4);
	st_be32(out + 4, REQ_VERSION);
	st_be32(out + 8, rq->seq);
	out[12] = rq->confirm;
	out[13] = rq->install;
}

/*
 * Both indices checked and read (with the platform's authorization at
 * power-on, with each index's own empty password for the OS).  TPM_LOCK:
 * the platform hierarchy is disabled, so this power-on had no reset.
 */
static enum vfit_boot_why read_indices(struct vfit_trust *t, bool power_on)
{
	const struct vfit_tpm_auth own = { VFIT_TRUST_INDEX, NULL, 0 };
	const struct vfit_tpm_auth own_req = { VFIT_TRUST_REQ_INDEX, NULL, 0 };
	uint8_t req[VFIT_TRUST_REQ_SIZE];
	enum vfit_tpm_result r;
	enum vfit_boot_why w;
	bool req_written = false;

	w = check_public(t, &trust_def, &t->written);
	if (w)
		return w;
	if (t->written) {
		r = vfit_tpm_nv_read(t->tpm, power_on ? &platform : &own, t->index, 0, t->nv,
				     VFIT_TRUST_SIZE);
		if (r == VFIT_TPM_ERR_RC && vfit_tpm_rc_base(t->tpm->rc) == VFIT_TPM_RC_HIERARCHY) {
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
	memcpy(t->held, t->nv, VFIT_TRUST_SIZE);
	t->req_state = VFIT_TRUST_REQ_NONE;
	w = check_public(t, &req_def, &req_written);
	if (w || !req_written)
		return w;
	r = vfit_tpm_nv_read(t->tpm, power_on ? &platform : &own_req, VFIT_TRUST_REQ_INDEX, 0, req,
			     sizeof(req));
	if (r)
		return failed(t, "NV_Read, request index", r);
	t->req_state = req_decode(req, &t->req);
	return VFIT_WHY_NONE;
}

static void trust_init(struct vfit_trust *t, struct vfit_tpm *tpm)
{
	memset(t, 0, sizeof(*t));
	t->tpm = tpm;
	t->index = VFIT_TRUST_INDEX;
}

enum vfit_boot_why vfit_trust_open(struct vfit_trust *t, struct vfit_tpm *tpm,
				   struct vfit_tpm_log *log, void *log_mem, size_t log_cap)
{
	enum vfit_tpm_result r;
	enum vfit_boot_why w;

	trust_init(t, tpm);
	r = vfit_tpm_startup_clear(tpm);
	if (r && r != VFIT_TPM_ERR_INITIALIZED)
		return failed(t, "Startup", r);
	w = check_banks(t);
	if (!w)
		w = read_indices(t, true);
	if (w)
		return w;
	if (log) {
		r = vfit_tpm_log_init(log, log_mem, log_cap, &t->banks);
		if (r)
			return refused(t, "event log", VFIT_WHY_MEASURE);
		t->log = log;
	}
	return VFIT_WHY_NONE;
}

enum vfit_boot_why vfit_trust_attach(struct vfit_trust *t, struct vfit_tpm *tpm)
{
	enum vfit_tpm_result r;

	trust_init(t, tpm);
	r = vfit_tpm_startup_clear(tpm);
	if (r && r != VFIT_TPM_ERR_INITIALIZED)
		return failed(t, "Startup", r);
	return read_indices(t, false);
}

enum vfit_io vfit_trust_commit(struct vfit_trust *t, bool keep)
{
	enum vfit_tpm_result r = VFIT_TPM_OK;

	if (!t->staged)
		return VFIT_IO_OK;
	if (keep) {
		r = vfit_tpm_nv_write(t->tpm, &platform, t->index, 0, t->nv, VFIT_TRUST_SIZE);
		if (r)
			failed(t, "NV_Write", r);
		else
			memcpy(t->held, t->nv, VFIT_TRUST_SIZE);
	}
	/* Kept or dropped, the shadow is again what the TPM holds. */
	memcpy(t->nv, t->held, VFIT_TRUST_SIZE);
	t->staged = false;
	if (r)
		return VFIT_IO_ERROR;
	t->written |= keep;
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
	if (len != VFIT_BOOT_STATE_SIZE)
		return VFIT_IO_TOO_BIG;
	memcpy(t->nv + OFF_STATE, buf, len);
	t->staged = true;
	return VFIT_IO_OK;
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
	size_t len = strlen(name);
	int free_at, i = find(t, name, &free_at);
	uint8_t *e;

	if (!vfit_counter_name_valid(name, len))
		return VFIT_IO_ERROR;
	if (i < 0 && free_at < 0) {
		refused(t, "no free counter entry", VFIT_WHY_COUNTER_FULL);
		return VFIT_IO_TOO_BIG;
	}
	e = entry(t, (unsigned int)(i < 0 ? free_at : i));
	/* Monotonic by this code: nothing else can write the index. */
	if (i >= 0 && value < ld_be64(e + VFIT_BOOT_COUNTER_NAME)) {
		refused(t, "counter would move backwards", VFIT_WHY_NV_WRITE);
		return VFIT_IO_ERROR;
	}
	memset(e, 0, CTR_ENTRY);
	memcpy(e, name, len);
	st_be64(e + VFIT_BOOT_COUNTER_NAME, value);
	t->staged = true;
	return VFIT_IO_OK;
}

enum vfit_io vfit_trust_measure(struct vfit_trust *t, unsigned int pcr, uint32_t type,
				const struct vfit_digest_set *digests, const void *event, size_t len)
{
	struct vfit_tpm_digests d;
	enum vfit_tpm_result r = vfit_tpm_digests_from(&t->banks, digests, &d);

	if (!r)
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

	trust_init(t, tpm);
	expected(&pub, &trust_def);
	r = vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &pub);
	if (r)
		return failed(t, "NV_DefineSpace", r);
	expected(&pub, &req_def);
	r = vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &pub);
	return r ? failed(t, "NV_DefineSpace, request index", r) : VFIT_WHY_NONE;
}

/* The request index emptied: the request was acted on, or cannot be. */
static enum vfit_boot_why req_clear(struct vfit_trust *t)
{
	static const uint8_t zero[VFIT_TRUST_REQ_SIZE];
	enum vfit_tpm_result r = vfit_tpm_nv_write(t->tpm, &platform, VFIT_TRUST_REQ_INDEX, 0, zero,
						   sizeof(zero));

	if (r) {
		failed(t, "NV_Write, request index", r);
		return VFIT_WHY_NV_WRITE;
	}
	t->req_state = VFIT_TRUST_REQ_NONE;
	return VFIT_WHY_NONE;
}

enum vfit_boot_why vfit_trust_serve(struct vfit_trust *t, const struct vfit_boot_ops *ops,
				    const struct vfit_boot_layout *layout,
				    struct vfit_boot_scratch *scratch,
				    struct vfit_boot_report *report)
{
	struct vfit_boot_event ev;

	switch (t->req_state) {
	case VFIT_TRUST_REQ_NONE:
		return VFIT_WHY_NONE;
	case VFIT_TRUST_REQ_VALID:
		/* A store that failed halts; a refusal changed nothing and is cleared. */
		t->what = NULL;
		if (vfit_boot_apply_request(ops, layout, scratch, report, &t->req) ==
		    VFIT_BOOT_ERROR && t->what)
			return VFIT_WHY_NV_WRITE;
		break;
	case VFIT_TRUST_REQ_MALFORMED:
		vfit_ev_init_(&ev, VFIT_EV_FAIL, VFIT_CHAIN_NONE, 0);
		ev.why = VFIT_WHY_REQUEST_MALFORMED;
		if (ops->event)
			ops->event(ops->plat, &ev);
		break;
	}
	return req_clear(t);
}

enum vfit_boot_why vfit_trust_ask(struct vfit_trust *t, const struct vfit_boot_request *rq,
				  const uint8_t *owner_auth, uint16_t owner_auth_len)
{
	const struct vfit_tpm_auth owner = { VFIT_TPM_RH_OWNER, owner_auth, owner_auth_len };
	struct vfit_boot_request m = *rq;
	uint8_t buf[VFIT_TRUST_REQ_SIZE];
	enum vfit_tpm_result r;

	if (t->req_state == VFIT_TRUST_REQ_VALID && t->req.seq == rq->seq) {
		if (m.confirm == VFIT_BOOT_NONE)
			m.confirm = t->req.confirm;
		if (m.install == VFIT_BOOT_NONE)
			m.install = t->req.install;
	}
	req_encode(&m, buf);
	r = vfit_tpm_nv_write(t->tpm, &owner, VFIT_TRUST_REQ_INDEX, 0, buf, sizeof(buf));
	if (r)
		return failed(t, "NV_Write, request index, owner authorization", r);
	t->req = m;
	t->req_state = VFIT_TRUST_REQ_VALID;
	return VFIT_WHY_NONE;
}

enum vfit_boot_why vfit_trust_required(const void *rom, bool *required)
{
	int node = fdt_path_offset(rom, "/config"), len = 0;
	const char *v = node < 0 ? NULL : fdt_getprop(rom, node, "vfit,tpm", &len);

	*required = v != NULL;
	if (v && (len != 9 || memcmp(v, "required", 9)))
		return VFIT_WHY_ROM_TPM;
	return VFIT_WHY_NONE;
}
