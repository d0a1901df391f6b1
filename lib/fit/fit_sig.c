/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Signature nodes and the required-key policy, one code path for
 * configurations (fit-format.md §6.3) and images (§6.4).
 *
 * A key node with required = "conf" must verify a signature* subnode of
 * the selected configuration; required-mode "any" needs one such key,
 * anything else all of them.  Keys that are not required are never
 * consulted for configurations, as in U-Boot.
 *
 * Required image keys are enforced more strictly than in U-Boot: there, a
 * key marked required = "image" is satisfied by a signature that verifies
 * with *any* key of the control FDT.  Here every required image key must
 * itself verify a signature of the image, so a product that requires its
 * production key cannot be satisfied by a development key it also carries.
 * Without required image keys, image signatures are checked with every key
 * for the record only, as U-Boot shows them.
 *
 * Work is bounded whatever the FIT holds: at most VFIT_MAX_SIGNATURES
 * signature nodes are tried per node, a payload is hashed at most once
 * per algorithm, and a configuration message once per signature node.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"


/* Where the digest of hash h sits in struct vfit_digests: the sizes end to end. */
static const uint8_t slot[] = {
	[VFIT_HASH_CRC32] = 0, [VFIT_HASH_MD5] = 4, [VFIT_HASH_SHA1] = 20,
	[VFIT_HASH_SHA224] = 40, [VFIT_HASH_SHA256] = 68, [VFIT_HASH_SHA384] = 100,
	[VFIT_HASH_SHA512] = 148, [VFIT_HASH_CRC16] = 212,
};
_Static_assert(sizeof(((struct vfit_digests *)0)->d) == 214, "digest slots");

/*
 * A crypto op: through the backend's table, or with VFIT_CRYPTO_TABLE=0
 * the library's function of the same name (vfit_hash_init, ...), called
 * directly.
 */
#if VFIT_CRYPTO_TABLE
#define OP(c, op, ...) ((c)->cr->op((c)->cr, __VA_ARGS__))
#define CONF_DIGEST(c, strings, h) \
	vfit_conf_digest_with_((c)->fit, &(c)->list, strings, h, (c)->cr)
#else
#define OP(c, op, ...) vfit_##op(__VA_ARGS__)
#define CONF_DIGEST(c, strings, h) vfit_conf_digest((c)->fit, &(c)->list, strings, h)
#endif

/*
 * One hash per call at most, through the backend: the payload of c->img
 * (one slot per algorithm, kept while node stays the same image) or the
 * configuration message of signature node `node` (kept for the last one).
 */
enum vfit_result vfit_digest_(struct vfit_ctx *c, int node, enum vfit_hash h,
			     const struct vfit_prop *hs, const uint8_t **digest)
{
	struct vfit_digests *d = &c->payload;
	struct vfit_hash_ctx ctx;
	enum vfit_result r = VFIT_OK;
	uint8_t *out;
	bool kept;

	if (c->img) {
		if (h == VFIT_HASH_INVALID || (unsigned int)h >= sizeof(slot))
			return VFIT_ERR_UNSUPPORTED;
		out = d->d + slot[h];
		if (d->node != node) {
			d->node = node;
			d->valid = 0;
		}
		kept = d->valid >> h & 1;
	} else {
		out = c->digest;
		kept = c->dnode == node && c->dhash == h;
		if (!kept) {
			c->dnode = -1;
			/* Absent: no strings are hashed (and a mkimage signature will not match). */
			if (hs->p && hs->len < 8)
				return VFIT_ERR_HASHED_STRINGS;
		}
	}
	*digest = out;
	if (kept)
		return VFIT_OK;
	/* Every started hash is finished: a backend may hold a handle until then. */
	if (OP(c, hash_init, &ctx, h))
		return VFIT_ERR_UNSUPPORTED;
	if (c->img)
		OP(c, hash_update, &ctx, c->img->data, c->img->size);
	else
		r = CONF_DIGEST(c, hs->p ? ld_be32(hs->p + 4) : 0, &ctx);
	OP(c, hash_final, &ctx, out);
	if (r == VFIT_ERR_LIMIT)
		vfit_limit(&c->at, VFIT_LIMIT_REGIONS);
	if (r)
		return r;
	if (c->img) {
		d->valid |= (uint16_t)(1u << h);
	} else {
		c->dnode = node;
		c->dhash = h;
	}
	return VFIT_OK;
}

/*
 * The `padding` property: absent or "pkcs-1.5", or "pss" for RSA; anything
 * else is unsupported.  ECDSA has no padding: U-Boot ignores the property
 * there, whatever it says, but a FIT that claims PSS for an ECDSA
 * signature says something false about it and is refused; "pkcs-1.5",
 * U-Boot's name for the default, is accepted.
 */
static enum vfit_result padding(const struct vfit_prop *v, const struct vfit_sig_algo *sig,
				enum vfit_padding *pad)
{
	const char *s = vfit_str_(v);
	int i = s ? vfit_index_(s, "pkcs-1.5\0pss\0") : -1;

	*pad = VFIT_PAD_PKCS1;
	if (!v->p || i == 0)
		return VFIT_OK;
	*pad = VFIT_PAD_PSS;
	return i == 1 && VFIT_HAVE_RSA_PSS && sig->kind == VFIT_SIG_RSA ? VFIT_OK :
	       VFIT_ERR_UNSUPPORTED;
}

/* One signature node with one key: algo, key, digest, padding, signature. */
static enum vfit_result sig_try(struct vfit_ctx *c, int sig, int key)
{
	struct vfit_prop sp[NS];
	const struct vfit_prop *v = &sp[S_VALUE];
	const char *algo;
	const uint8_t *digest;
	struct vfit_pubkey k;
	enum vfit_padding pad;
	struct vfit_algo a;
	enum vfit_result r;

	vfit_props_(c->fit, sig, vfit_sig_props_, sp, NS);
	algo = (const char *)sp[S_ALGO].p;
	vfit_at(c, sig, "algo", false);
	if (!algo)
		return VFIT_ERR_MISSING;
	r = vfit_algo_parse(algo, sp[S_ALGO].len, &a);
	if (r)
		return r;
	vfit_at_prop(c, "padding");
	r = padding(&sp[S_PADDING], a.sig, &pad);
	if (r)
		return r;
	vfit_at_prop(c, "value");
	r = vfit_key_load_algo_(c->ctl, key, algo, sp[S_ALGO].len, &a, &k);
	if (r)
		return r;
	vfit_at(c, sig, c->img ? NULL : "hashed-strings", false);
	r = vfit_digest_(c, c->img ? c->img->node : sig, a.hash, &sp[S_STRINGS], &digest);
	if (r)
		return r;
	vfit_at(c, sig, "value", false);
	if (!v->p || v->len < 1)
		return VFIT_ERR_NO_SIGNATURE;
	return OP(c, sig_verify, &k, a.hash, pad, digest, v->p, (size_t)v->len);
}

/* A failed attempt of a required key: why, its policy bit; for reports, where and which key. */
struct failure {
	enum vfit_result r;
	uint32_t bit;
#if VFIT_REPORT
	struct vfit_diag where;
	int key;
#endif
};

static void failed(struct failure *f, const struct vfit_ctx *c, enum vfit_result r, int key,
		   uint32_t bit)
{
	f->r = r;
	f->bit = bit;
#if VFIT_REPORT
	f->where = c->at;
	f->key = key;
#else
	(void)c, (void)key;
#endif
}

/*
 * Every signature* subnode of node against the keys of the given role,
 * each attempt recorded; bit i of *sat is set when the i-th such key
 * verified one.  fail[0] is the last failure, which always belongs to a
 * key still unsatisfied (a key is not tried again once it verified);
 * fail[1] the last one that was a verdict on a signature of the key's own
 * algorithm (not VFIT_ERR_KEY_ALGO), whose key may have verified another
 * since.  With role VFIT_REQ_NONE each signature is tried with every key
 * of its algorithm until one verifies, and recorded once.  VFIT_ERR_LIMIT
 * past VFIT_MAX_SIGNATURES nodes.
 */
static enum vfit_result try_all(struct vfit_ctx *c, int node, enum vfit_required role, bool any,
				uint32_t *sat, struct failure fail[2])
{
	/* Record-only passes exist for the report alone: a minimal build never makes one. */
	const bool enforce = !VFIT_REPORT || role != VFIT_REQ_NONE;
	enum vfit_result r, seen;
	unsigned int nsigs = 0;
	int sig, key, ok;
	uint32_t bit;

	*sat = 0;
	fdt_for_each_subnode(sig, c->fit, node) {
		if (!vfit_name_prefix_(c->fit, sig, "signature"))
			continue;
		if (++nsigs > VFIT_MAX_SIGNATURES) {
			vfit_at(c, sig, NULL, false);
			return vfit_limit(&c->at, VFIT_LIMIT_SIGNATURES);
		}
		seen = VFIT_ERR_MISSING; /* no key of its algorithm, as U-Boot shows it */
		ok = -1;
		bit = 1;
		/*
		 * On a negative parent, fdt_first_subnode() would yield the root.
		 * Only a record-only pass can come here without keys: an
		 * enforcing one has a required key to enforce.
		 */
		for (key = !enforce && c->keys < 0 ? -1 : fdt_first_subnode(c->ctl, c->keys); key >= 0;
		     key = fdt_next_subnode(c->ctl, key)) {
			if (enforce && vfit_key_required(c->ctl, key) != role)
				continue;
			if (enforce && (*sat & bit)) {
				bit <<= 1;
				continue;
			}
			r = sig_try(c, sig, key);
			if (enforce) {
				vfit_record_(c, c->img ? VFIT_CHECK_IMAGE_SIG : VFIT_CHECK_CONF_SIG, r,
					    sig, key);
				if (r) {
					failed(&fail[0], c, r, key, bit);
					if (r != VFIT_ERR_KEY_ALGO)
						fail[1] = fail[0];
				} else if (any) {
					*sat = bit;
					return VFIT_OK;
				} else {
					*sat |= bit;
				}
				bit <<= 1;
			} else if (r != VFIT_ERR_KEY_ALGO) {
				seen = r;
				if (!r) {
					ok = key;
					break;
				}
			}
		}
		if (!enforce)
			vfit_record_(c, VFIT_CHECK_IMAGE_SIG, seen, sig, ok);
	}
	return VFIT_OK;
}

enum vfit_result vfit_sigs_(struct vfit_ctx *c, int node, enum vfit_required role, bool any)
{
	struct failure fail[2], *f;
	enum vfit_result r;
	uint32_t want = 0, sat;
	int key;

	/* vfit_control_check() allows at most 32 required keys: one bit each. */
	if (c->keys >= 0)
		fdt_for_each_subnode(key, c->ctl, c->keys)
			if (vfit_key_required(c->ctl, key) == role)
				want = want << 1 | 1;
	c->required = want != 0;
	vfit_at(c, node, NULL, false);
	failed(&fail[0], c, VFIT_ERR_NO_SIGNATURE, -1, 0);
	fail[1] = fail[0];
	/* Optional image signatures are tried for the record only: none without one. */
	if (!want)
		return VFIT_REPORT && c->img ? try_all(c, node, VFIT_REQ_NONE, false, &sat, fail) :
		       VFIT_OK;
	if (!c->img) {
		/* Built once: the message is the same for every signature. */
		r = vfit_conf_list(c->fit, node, &c->refs, &c->list, &c->at);
		if (r)
			return r;
	}
	r = try_all(c, node, role, any, &sat, fail);
	if (r)
		return r;
	if (any ? !sat : sat != want) {
		/*
		 * A key's verdict on a signature of its own algorithm says more
		 * than its refusal of another algorithm's: with an RSA and an
		 * ECDSA key required, a bad ECDSA signature is reported as
		 * such, not as the ECDSA key's mismatch with the RSA one.
		 */
		f = fail[1].bit && !(sat & fail[1].bit) ? &fail[1] : &fail[0];
#if VFIT_REPORT
		c->at = f->where;
		c->res->err_key = f->key;
#endif
		/*
		 * A mismatch means "this required key did not sign what is
		 * here" (tampered content, a substituted configuration, another
		 * key's signature, which may even exceed this key's modulus):
		 * VFIT_ERR_REQUIRED, like U-Boot's "Failed to verify required
		 * signature".  Structural reasons (hashed-strings, algo, key,
		 * length, no signature) are kept; the check list keeps the
		 * outcome of every attempt.
		 */
		return f->r == VFIT_ERR_SIGNATURE || f->r == VFIT_ERR_SIG_RANGE ?
		       VFIT_ERR_REQUIRED : f->r;
	}
	return VFIT_OK;
}
