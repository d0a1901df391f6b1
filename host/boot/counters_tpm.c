/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TPM 2.0 backend of the rollback counters, through tpm2-tss ESAPI.
 *
 * Design
 * ------
 * Index layout.  Counter name N gets the slot s = the first two bytes
 * (big-endian) of SHA-256(N), and two NV indexes in the platform range of
 * the TCG handle registry:
 *     counter  0x01500000 + 2s      (TPM2_NT_COUNTER, 8 bytes)
 *     baseline 0x01500000 + 2s + 1  (ordinary, 48 bytes, written once)
 * Two names can share a slot; the baseline records SHA-256(N), so such a
 * collision is detected (provisioning and reading fail, naming both the
 * index and the name) instead of two chains silently sharing a counter.
 *
 * Why a baseline.  The TPM keeps an NV counter monotonic by itself, but a
 * counter cannot be read before its first NV_Increment, and the first
 * increment does not start from 0: it continues from the largest value the
 * TPM has recorded for counters (swtpm: of deleted ones; the test deletes a
 * counter at 5 and sees ours start at 6), so that undefining and
 * redefining an index can never move it backwards.  Provisioning therefore increments the new
 * counter once, reads that raw value B and writes
 *     "VFCB" | version 1 (4 bytes) | B (8 bytes) | SHA-256(name) (32 bytes)
 * into the baseline index, then NV_WriteLock()s it: with TPMA_NV_WRITEDEFINE
 * the lock lasts until the index is deleted, which nobody can do (below).
 * The rollback index is raw - B.  Reading 0 therefore means "provisioned,
 * never advanced"; advancing to v means NV_Increment until raw == B + v, one
 * command per step, so an advance is capped at VFIT_CTR_TPM_MAX_STEP steps:
 * rollback indexes for a TPM-backed device are small security version
 * numbers, not dates.  A power cut during an advance leaves raw somewhere
 * between the old and the new target, a value that is still valid and
 * below the target; the next advance completes it.  TPMA_NV_ORDERLY is not
 * set, so each increment reaches non-volatile memory before the TPM answers.
 *
 * Attributes (both indexes):
 *   TPMA_NV_PLATFORMCREATE  defined with platform authorization: the owner
 *                           cannot undefine it, and TPM2_Clear does not
 *                           delete it.
 *   TPMA_NV_POLICY_DELETE   TPM2_NV_UndefineSpace is refused outright;
 *                           only UndefineSpaceSpecial could delete, with a
 *                           policy session whose digest equals authPolicy.
 *                           authPolicy is SHA-256 of a fixed string, not
 *                           the end of any policy chain: matching it needs
 *                           a SHA-256 preimage, so the indexes can never be
 *                           deleted, not even by the platform (a deleted
 *                           and redefined baseline would let the rollback
 *                           index restart at 0), and their authValue never
 *                           changes (NV_ChangeAuth needs that policy too).
 *                           The price: the slots are spent for the life of
 *                           the TPM.
 *   TPMA_NV_AUTHWRITE       only the index authValue authorises an
 *                           increment (no OWNERWRITE/PPWRITE): the OS, even
 *                           with owner or platform authorization, cannot
 *                           move the counter, not even forward (which would
 *                           lock the device out of valid images).
 *   TPMA_NV_AUTHREAD        the bootloader reads with the authValue in an
 *                           HMAC session, so the TPM's response is
 *                           authenticated too (ESAPI checks the response
 *                           HMAC): a bus interposer cannot fake the value.
 *   TPMA_NV_OWNERREAD|PPREAD reading is harmless, so the OS may inspect.
 *   TPMA_NV_NO_DA           wrong-auth attempts do not count towards
 *                           dictionary-attack lockout: otherwise the OS
 *                           could lock the TPM out with bad guesses and the
 *                           bootloader could no longer advance.  Guessing
 *                           is instead made hopeless by a 32-byte random
 *                           authValue.
 * Baseline only: TPMA_NV_WRITEDEFINE (permanent write lock) and
 * TPMA_NV_WRITEALL (all 48 bytes at once).  Reading checks the complete
 * public area of both indexes (type, attributes including WRITTEN and
 * WRITELOCKED, nameAlg, size, policy), so an index the OS defined at
 * one of these handles is refused, and the authValue must match too.
 *
 * Auth.  The authValue is 32 random bytes in a file (the device's ROM
 * directory in the simulator; on hardware, a secret only the bootloader can
 * reach).  It travels only as an HMAC key of an unbound, unsalted HMAC
 * session, never in clear.
 *
 * Threat model.  Defeated: an OS (owner and lockout authorization, even
 * platform authorization) that wants to move a counter backwards or
 * forwards, delete or redefine it, rewrite its baseline, or exhaust auth
 * attempts; rewriting storage or replaying old state, which does not touch
 * the TPM.  Not defeated: code that runs with the authValue (a compromised
 * bootloader can advance counters, never lower them), someone who reads the
 * authValue out of ROM, physical attacks on the TPM or replacing it.  Provisioning is a
 * factory step that needs the platform hierarchy; real firmware disables
 * that hierarchy (phEnable) before starting the OS.  swtpm leaves platform
 * authorization empty, which is what provisioning here relies on.
 * Unprovisioned names are an error, not 0, so a device cannot silently run
 * without a counter.  An unreachable TPM is an error (status 2), never a
 * fallback to the file store.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#include "vfit/hash.h"
#include "counters_int.h"

#define BASELINE_MAGIC "VFCB"
#define BASELINE_VERSION 1
#define BASELINE_SIZE 48

/* authPolicy: no policy session can reach it (see POLICY_DELETE above). */
static const char no_policy_seed[] = "vfit rollback counter: never deleted";

#define ATTR_COMMON (TPMA_NV_PLATFORMCREATE | TPMA_NV_POLICY_DELETE | TPMA_NV_AUTHWRITE | \
		     TPMA_NV_AUTHREAD | TPMA_NV_OWNERREAD | TPMA_NV_PPREAD | TPMA_NV_NO_DA)
#define ATTR_COUNTER (ATTR_COMMON | ((TPMA_NV)TPM2_NT_COUNTER << TPMA_NV_TPM2_NT_SHIFT))
#define ATTR_BASELINE (ATTR_COMMON | ((TPMA_NV)TPM2_NT_ORDINARY << TPMA_NV_TPM2_NT_SHIFT) | \
		       TPMA_NV_WRITEDEFINE | TPMA_NV_WRITEALL)

struct tpm_store {
	struct vfit_ctr_store base;
	TSS2_TCTI_CONTEXT *tcti;
	ESYS_CONTEXT *esys;
	ESYS_TR session;
	TPM2B_AUTH auth;
	const char *conf;       /* the TCTI string, inside base.desc */
};

/* One open NV index. */
struct nv {
	ESYS_TR tr;
	TPM2_HANDLE handle;
	TPMA_NV attrs;
};

uint32_t vfit_ctr_tpm_index(const char *name)
{
	uint8_t h[32];

	vfit_hash(VFIT_HASH_SHA256, name, strlen(name), h);
	return VFIT_CTR_TPM_BASE + 2 * ((uint32_t)h[0] << 8 | h[1]);
}

/*
 * TPM answers (layer 0) and a response HMAC that does not verify are
 * refusals (status 1); anything from the TCTI or ESAPI layers means the
 * TPM could not be talked to (status 2).
 */
static int tpm_fail(struct tpm_store *t, struct vfit_err *e, TSS2_RC rc, const char *what)
{
	int refused = (rc & TSS2_RC_LAYER_MASK) == TSS2_TPM_RC_LAYER ||
		      (rc & 0xffff) == TSS2_BASE_RC_RSP_AUTH_FAILED;

	return vfit_err_set(e, refused ? VFIT_EXIT_REJECT : VFIT_EXIT_USAGE,
			    "TPM %s: %s: %s 0x%x (%s)", t->conf, what,
			    refused ? "TPM refused:" : "cannot reach the TPM:", rc, Tss2_RC_Decode(rc));
}

static void no_policy(TPM2B_DIGEST *d)
{
	d->size = 32;
	vfit_hash(VFIT_HASH_SHA256, no_policy_seed, strlen(no_policy_seed), d->buffer);
}

static int auth_load(const char *path, int create, TPM2B_AUTH *auth, struct vfit_err *e)
{
	uint8_t buf[VFIT_CTR_AUTH_SIZE + 1];
	size_t len;
	int r = vfit_read_small(path, buf, sizeof(buf), &len);

	if (r && errno == ENOENT && create) {
		if (RAND_bytes(buf, VFIT_CTR_AUTH_SIZE) != 1)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: no random bytes for the auth",
					    path);
		if (ctr_write(path, buf, VFIT_CTR_AUTH_SIZE, 0, e))
			return -1;
		r = vfit_read_small(path, buf, sizeof(buf), &len);
	}
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot read TPM counter auth: %s", path,
				    errno == EINVAL ? "not a regular file" : strerror(errno));
	if (len != VFIT_CTR_AUTH_SIZE)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: TPM counter auth must be exactly %d bytes, not %zu%s", path,
				    VFIT_CTR_AUTH_SIZE, len, len > VFIT_CTR_AUTH_SIZE ? "+" : "");
	auth->size = VFIT_CTR_AUTH_SIZE;
	memcpy(auth->buffer, buf, VFIT_CTR_AUTH_SIZE);
	return 0;
}

static void tpm_close(struct vfit_ctr_store *s)
{
	struct tpm_store *t = (struct tpm_store *)s;

	if (t->esys && t->session != ESYS_TR_NONE)
		Esys_FlushContext(t->esys, t->session);
	if (t->esys)
		Esys_Finalize(&t->esys);
	if (t->tcti)
		Tss2_TctiLdr_Finalize(&t->tcti);
	explicit_bzero(&t->auth, sizeof(t->auth));
	free(t);
}

static const struct vfit_ctr_ops tpm_ops;

/* Connects, starts the TPM if nobody has yet, and opens an HMAC session. */
static struct tpm_store *tpm_connect(const char *conf, struct vfit_err *e)
{
	TPMT_SYM_DEF sym = { .algorithm = TPM2_ALG_NULL };
	struct tpm_store *t = calloc(1, sizeof(*t));
	TSS2_RC rc;

	if (!t) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "TPM %s: out of memory", conf);
		return NULL;
	}
	t->base.ops = &tpm_ops;
	t->session = ESYS_TR_NONE;
	snprintf(t->base.desc, sizeof(t->base.desc), "tpm %s", conf);
	t->conf = t->base.desc + 4;
	/* tpm2-tss logs every failure on stderr; our error line says it all. */
	setenv("TSS2_LOG", "all+none", 0);
	rc = Tss2_TctiLdr_Initialize(conf, &t->tcti);
	if (rc) {
		t->tcti = NULL;
		vfit_err_set(e, VFIT_EXIT_USAGE, "TPM %s: cannot reach the TPM (TCTI): 0x%x (%s)",
			     conf, rc, Tss2_RC_Decode(rc));
		goto fail;
	}
	rc = Esys_Initialize(&t->esys, t->tcti, NULL);
	if (rc) {
		t->esys = NULL;
		tpm_fail(t, e, rc, "ESAPI init");
		goto fail;
	}
	rc = Esys_Startup(t->esys, TPM2_SU_CLEAR);
	if (rc && rc != TPM2_RC_INITIALIZE) {
		tpm_fail(t, e, rc, "TPM2_Startup");
		goto fail;
	}
	rc = Esys_StartAuthSession(t->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, NULL, TPM2_SE_HMAC, &sym, TPM2_ALG_SHA256,
				   &t->session);
	if (rc) {
		t->session = ESYS_TR_NONE;
		tpm_fail(t, e, rc, "starting an HMAC session");
		goto fail;
	}
	rc = Esys_TRSess_SetAttributes(t->esys, t->session, TPMA_SESSION_CONTINUESESSION, 0xff);
	if (rc) {
		tpm_fail(t, e, rc, "session attributes");
		goto fail;
	}
	return t;
fail:
	tpm_close(&t->base);
	return NULL;
}

static int nv_fail(struct tpm_store *t, struct vfit_err *e, TSS2_RC rc, const char *what,
		   TPM2_HANDLE h, const char *name)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "%s NV index 0x%08x (counter '%s')", what, h, name);
	return tpm_fail(t, e, rc, buf);
}

/*
 * Opens NV index h and checks its public area against attrs (ignoring the
 * bits in `optional`).  *exists = 0 (and returns 0) when there is no such
 * index and exists is not NULL.
 */
static int nv_open(struct tpm_store *t, TPM2_HANDLE h, TPMA_NV attrs, TPMA_NV optional,
		   uint16_t size, const char *name, struct nv *nv, int *exists, struct vfit_err *e)
{
	TPM2B_NV_PUBLIC *pub = NULL;
	TPM2B_DIGEST policy;
	TSS2_RC rc;
	int ok;

	nv->handle = h;
	nv->tr = ESYS_TR_NONE;
	rc = Esys_TR_FromTPMPublic(t->esys, h, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &nv->tr);
	if ((rc & ~(TPM2_RC_N_MASK | TPM2_RC_P | TPM2_RC_S)) == TPM2_RC_HANDLE) {
		nv->tr = ESYS_TR_NONE;
		if (exists) {
			*exists = 0;
			return 0;
		}
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: counter '%s' is not provisioned (no NV index 0x%08x)",
				    t->conf, name, h);
	}
	if (rc) {
		nv->tr = ESYS_TR_NONE;
		return nv_fail(t, e, rc, "looking up", h, name);
	}
	if (exists)
		*exists = 1;
	rc = Esys_NV_ReadPublic(t->esys, nv->tr, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &pub,
				NULL);
	if (rc)
		return nv_fail(t, e, rc, "reading the public area of", h, name);
	nv->attrs = pub->nvPublic.attributes;
	no_policy(&policy);
	ok = (nv->attrs & ~optional) == attrs && pub->nvPublic.nameAlg == TPM2_ALG_SHA256 &&
	     pub->nvPublic.dataSize == size && pub->nvPublic.authPolicy.size == policy.size &&
	     !memcmp(pub->nvPublic.authPolicy.buffer, policy.buffer, policy.size);
	free(pub);
	if (!ok)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: NV index 0x%08x (counter '%s') has attributes 0x%08x, "
				    "size or policy that vfit does not define; refusing it",
				    t->conf, h, name, nv->attrs);
	rc = Esys_TR_SetAuth(t->esys, nv->tr, &t->auth);
	if (rc)
		return nv_fail(t, e, rc, "setting the auth of", h, name);
	return 0;
}

static void nv_close(struct tpm_store *t, struct nv *nv)
{
	if (nv->tr != ESYS_TR_NONE)
		Esys_TR_Close(t->esys, &nv->tr);
	nv->tr = ESYS_TR_NONE;
}

static int nv_read(struct tpm_store *t, struct nv *nv, uint8_t *buf, uint16_t size,
		   const char *name, struct vfit_err *e)
{
	TPM2B_MAX_NV_BUFFER *data = NULL;
	TSS2_RC rc;

	rc = Esys_NV_Read(t->esys, nv->tr, nv->tr, t->session, ESYS_TR_NONE, ESYS_TR_NONE, size, 0,
			  &data);
	if (rc)
		return nv_fail(t, e, rc, "reading", nv->handle, name);
	if (data->size != size) {
		free(data);
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: NV index 0x%08x (counter '%s') returned %u bytes", t->conf,
				    nv->handle, name, data->size);
	}
	memcpy(buf, data->buffer, size);
	free(data);
	return 0;
}

static int raw_read(struct tpm_store *t, struct nv *ctr, const char *name, uint64_t *raw,
		    struct vfit_err *e)
{
	uint8_t b[8];

	if (nv_read(t, ctr, b, 8, name, e))
		return -1;
	*raw = ctr_get_be(b, 8);
	return 0;
}

static void baseline_encode(const char *name, uint64_t raw, uint8_t out[BASELINE_SIZE])
{
	memcpy(out, BASELINE_MAGIC, 4);
	out[4] = 0;
	out[5] = 0;
	out[6] = 0;
	out[7] = BASELINE_VERSION;
	ctr_put_be(out + 8, raw, 8);
	vfit_hash(VFIT_HASH_SHA256, name, strlen(name), out + 16);
}

/* Checks a baseline's content against name and returns its raw value. */
static int baseline_decode(struct tpm_store *t, const uint8_t in[BASELINE_SIZE],
			   const char *name, TPM2_HANDLE h, uint64_t *raw, struct vfit_err *e)
{
	uint8_t want[BASELINE_SIZE];

	baseline_encode(name, ctr_get_be(in + 8, 8), want);
	if (memcmp(in, want, 8))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: NV index 0x%08x is not a vfit counter baseline", t->conf,
				    h);
	if (memcmp(in + 16, want + 16, 32))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: NV index 0x%08x belongs to another counter name than '%s' "
				    "(slot collision: rename the counter)", t->conf, h, name);
	*raw = ctr_get_be(in + 8, 8);
	return 0;
}

/* Opens a provisioned counter: both indexes, checked, and the baseline value. */
static int counter_open(struct tpm_store *t, const char *name, struct nv *ctr, uint64_t *base,
			struct vfit_err *e)
{
	uint32_t h = vfit_ctr_tpm_index(name);
	uint8_t b[BASELINE_SIZE];
	struct nv bl;
	int r;

	ctr->tr = ESYS_TR_NONE;
	if (nv_open(t, h + 1, ATTR_BASELINE | TPMA_NV_WRITTEN | TPMA_NV_WRITELOCKED, 0,
		    BASELINE_SIZE, name, &bl, NULL, e)) {
		nv_close(t, &bl);
		return -1;
	}
	r = nv_read(t, &bl, b, BASELINE_SIZE, name, e) ||
	    baseline_decode(t, b, name, h + 1, base, e);
	nv_close(t, &bl);
	if (r)
		return -1;
	if (nv_open(t, h, ATTR_COUNTER | TPMA_NV_WRITTEN, 0, 8, name, ctr, NULL, e)) {
		nv_close(t, ctr);
		return -1;
	}
	return 0;
}

/* The rollback index of a counter, checked against its baseline. */
static int index_read(struct tpm_store *t, struct nv *ctr, uint64_t base, const char *name,
		      uint64_t *raw, uint64_t *value, struct vfit_err *e)
{
	if (raw_read(t, ctr, name, raw, e))
		return -1;
	if (*raw < base)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "TPM %s: counter '%s' raw value %llu is below its baseline %llu",
				    t->conf, name, (unsigned long long)*raw, (unsigned long long)base);
	*value = *raw - base;
	return 0;
}

static int tpm_read(struct vfit_ctr_store *s, const char *name, uint64_t *value,
		    struct vfit_err *e)
{
	struct tpm_store *t = (struct tpm_store *)s;
	uint64_t base, raw;
	struct nv ctr;
	int r;

	if (counter_open(t, name, &ctr, &base, e))
		return -1;
	r = index_read(t, &ctr, base, name, &raw, value, e);
	nv_close(t, &ctr);
	return r;
}

static int increment(struct tpm_store *t, struct nv *ctr, const char *name, struct vfit_err *e)
{
	TSS2_RC rc = Esys_NV_Increment(t->esys, ctr->tr, ctr->tr, t->session, ESYS_TR_NONE,
				       ESYS_TR_NONE);

	return rc ? nv_fail(t, e, rc, "incrementing", ctr->handle, name) : 0;
}

static int tpm_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
		       uint64_t *old_value, uint64_t *new_value, struct vfit_err *e)
{
	struct tpm_store *t = (struct tpm_store *)s;
	uint64_t base, raw, now;
	struct nv ctr;
	int r = -1;

	if (counter_open(t, name, &ctr, &base, e))
		return -1;
	if (index_read(t, &ctr, base, name, &raw, old_value, e))
		goto out;
	*new_value = *old_value;
	if (value <= *old_value) {
		r = 0;
		goto out;
	}
	if (value - *old_value > VFIT_CTR_TPM_MAX_STEP || value > UINT64_MAX - base) {
		vfit_err_set(e, VFIT_EXIT_REJECT,
			     "TPM %s: counter '%s' cannot advance from %llu to %llu: more than %d "
			     "increments", t->conf, name, (unsigned long long)*old_value,
			     (unsigned long long)value, VFIT_CTR_TPM_MAX_STEP);
		goto out;
	}
	for (; raw < base + value; raw++)
		if (increment(t, &ctr, name, e))
			goto out;
	/* Read back what the TPM holds now rather than trusting the loop. */
	if (index_read(t, &ctr, base, name, &raw, &now, e))
		goto out;
	if (now != value) {
		vfit_err_set(e, VFIT_EXIT_REJECT,
			     "TPM %s: counter '%s' is %llu after advancing to %llu", t->conf, name,
			     (unsigned long long)now, (unsigned long long)value);
		goto out;
	}
	*new_value = now;
	r = 0;
out:
	nv_close(t, &ctr);
	return r;
}

static const struct vfit_ctr_ops tpm_ops = {
	.read = tpm_read,
	.advance = tpm_advance,
	.close = tpm_close,
};

struct vfit_ctr_store *vfit_ctr_tpm_open(const char *tcti, const char *auth_path,
					 struct vfit_err *e)
{
	struct tpm_store *t;
	TPM2B_AUTH auth;

	if (auth_load(auth_path, 0, &auth, e))
		return NULL;
	t = tpm_connect(tcti, e);
	if (t)
		t->auth = auth;
	explicit_bzero(&auth, sizeof(auth));
	return t ? &t->base : NULL;
}

/* NV_DefineSpace under the platform hierarchy. */
static int define(struct tpm_store *t, TPM2_HANDLE h, TPMA_NV attrs, uint16_t size,
		  const char *name, struct vfit_err *e)
{
	TPM2B_NV_PUBLIC pub = {
		.nvPublic = {
			.nvIndex = h,
			.nameAlg = TPM2_ALG_SHA256,
			.attributes = attrs,
			.dataSize = size,
		},
	};
	ESYS_TR tr = ESYS_TR_NONE;
	TSS2_RC rc;

	no_policy(&pub.nvPublic.authPolicy);
	rc = Esys_NV_DefineSpace(t->esys, ESYS_TR_RH_PLATFORM, ESYS_TR_PASSWORD, ESYS_TR_NONE,
				 ESYS_TR_NONE, &t->auth, &pub, &tr);
	if (rc)
		return nv_fail(t, e, rc, "defining", h, name);
	Esys_TR_Close(t->esys, &tr);
	return 0;
}

/*
 * Brings one counter to the provisioned state from wherever an earlier,
 * possibly interrupted, provisioning left it.  Until the baseline is
 * locked nothing reads or advances the counter, so redoing the steps is
 * safe.
 */
static int provision_one(struct tpm_store *t, const char *name, struct vfit_err *e)
{
	uint32_t h = vfit_ctr_tpm_index(name);
	struct nv ctr = { .tr = ESYS_TR_NONE }, bl = { .tr = ESYS_TR_NONE };
	TPM2B_MAX_NV_BUFFER data = { .size = BASELINE_SIZE };
	uint8_t b[BASELINE_SIZE];
	uint64_t raw, base;
	int exists, r = -1;
	TSS2_RC rc;

	if (nv_open(t, h + 1, ATTR_BASELINE, TPMA_NV_WRITTEN | TPMA_NV_WRITELOCKED, BASELINE_SIZE,
		    name, &bl, &exists, e))
		goto out;
	if (exists && (bl.attrs & TPMA_NV_WRITELOCKED)) {
		/* Done before: only check that it is ours. */
		r = (nv_read(t, &bl, b, BASELINE_SIZE, name, e) ||
		     baseline_decode(t, b, name, h + 1, &base, e)) ? -1 : 0;
		goto out;
	}
	if (nv_open(t, h, ATTR_COUNTER, TPMA_NV_WRITTEN, 8, name, &ctr, &exists, e))
		goto out;
	if (!exists) {
		if (define(t, h, ATTR_COUNTER, 8, name, e) ||
		    nv_open(t, h, ATTR_COUNTER, TPMA_NV_WRITTEN, 8, name, &ctr, NULL, e))
			goto out;
	}
	if (!(ctr.attrs & TPMA_NV_WRITTEN) && increment(t, &ctr, name, e))
		goto out;
	if (raw_read(t, &ctr, name, &raw, e))
		goto out;
	if (bl.tr == ESYS_TR_NONE) {
		if (define(t, h + 1, ATTR_BASELINE, BASELINE_SIZE, name, e) ||
		    nv_open(t, h + 1, ATTR_BASELINE, TPMA_NV_WRITTEN, BASELINE_SIZE, name, &bl, NULL,
			    e))
			goto out;
	}
	baseline_encode(name, raw, data.buffer);
	rc = Esys_NV_Write(t->esys, bl.tr, bl.tr, t->session, ESYS_TR_NONE, ESYS_TR_NONE, &data, 0);
	if (rc) {
		nv_fail(t, e, rc, "writing the baseline", h + 1, name);
		goto out;
	}
	rc = Esys_NV_WriteLock(t->esys, bl.tr, bl.tr, t->session, ESYS_TR_NONE, ESYS_TR_NONE);
	if (rc) {
		nv_fail(t, e, rc, "locking the baseline", h + 1, name);
		goto out;
	}
	r = 0;
out:
	nv_close(t, &ctr);
	nv_close(t, &bl);
	return r;
}

int vfit_ctr_tpm_provision(const char *tcti, const char *auth_path, const char *const *names,
			   size_t n, struct vfit_err *e)
{
	struct tpm_store *t;
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		if (!vfit_ctr_name_valid(names[i]))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "TPM %s: invalid counter name '%s'",
					    tcti, names[i]);
	/* Connect first: a TPM that cannot be reached leaves no auth file behind. */
	t = tpm_connect(tcti, e);
	if (!t)
		return -1;
	r = auth_load(auth_path, 1, &t->auth, e);
	for (i = 0; i < n && !r; i++)
		r = provision_one(t, names[i], e);
	tpm_close(&t->base);
	return r;
}
