/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration signatures and the required-key policy (spec 6.3):
 * every key node with required = "conf" is tried against every signature*
 * subnode of the selected configuration; required-mode "any" needs one of
 * them, anything else needs all.  Keys that are not required are never
 * consulted for configurations, as in U-Boot.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_internal.h"

enum vfit_result vfit_sig_check(const struct vfit_ctx *c, const struct vfit_prop *sp,
				const uint8_t *digest, int key_node)
{
	const struct vfit_prop *value = &sp[VFIT_SP_VALUE], *pad = &sp[VFIT_SP_PADDING];
	const char *algo = (const char *)sp[VFIT_SP_ALGO].p;
	struct vfit_rsa_key key;
	struct vfit_algo a;
	enum vfit_result r = vfit_key_load(c->ctl, key_node, algo, sp[VFIT_SP_ALGO].len, &key);

	if (r)
		return r;
	if (!value->p || value->len < 1)
		return VFIT_ERR_NO_SIGNATURE;
	vfit_algo_parse(algo, sp[VFIT_SP_ALGO].len, &a);
	if (!pad->p || (pad->len == 9 && !memcmp(pad->p, "pkcs-1.5", 9)))
		return vfit_rsa_verify_pkcs1(&key, a.hash, digest, value->p, (size_t)value->len);
#if VFIT_HAVE_RSA_PSS
	if (pad->len == 4 && !memcmp(pad->p, "pss", 4))
		return vfit_rsa_verify_pss(&key, a.hash, a.hash, VFIT_PSS_SALT_ANY, digest,
					   value->p, (size_t)value->len);
#endif
	return VFIT_ERR_UNSUPPORTED;
}

/*
 * One configuration signature node with one key (spec 6.3.1).  *prop is
 * the property to blame on failure.  The node list is built once by the
 * caller; the message is rehashed per signature because each may name a
 * different hash (it never includes payload bytes, so this is cheap).
 */
static enum vfit_result conf_sig(const struct vfit_ctx *c, const struct vfit_node_list *list,
				 int sig, int key, const char **prop)
{
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	struct vfit_prop sp[VFIT_SP_N];
	const struct vfit_prop *hs = &sp[VFIT_SP_HASHED_STRINGS];
	struct vfit_hash_ctx h;
	struct vfit_algo a;
	uint32_t strings = 0;
	enum vfit_result r;

	vfit_props(c->fit, sig, VFIT_SIG_PROPS, sp, VFIT_SP_N);
	*prop = "algo";
	if (!sp[VFIT_SP_ALGO].p)
		return VFIT_ERR_MISSING;
	r = vfit_algo_parse((const char *)sp[VFIT_SP_ALGO].p, sp[VFIT_SP_ALGO].len, &a);
	if (r)
		return r;
	/* Absent: no strings are hashed (and a mkimage signature will not match). */
	*prop = "hashed-strings";
	if (hs->p) {
		if (hs->len < 8)
			return VFIT_ERR_HASHED_STRINGS;
		strings = vfit_be32(hs->p + 4);
	}
	if (vfit_hash_init(&h, a.hash))
		return VFIT_ERR_UNSUPPORTED;
	r = vfit_conf_digest(c->fit, list, strings, &h);
	if (r)
		return r;
	vfit_hash_final(&h, digest);
	*prop = "value";
	return vfit_sig_check(c, sp, digest, key);
}

/*
 * Tries every signature* subnode of conf with key; records each attempt.
 * On failure *node and *prop say where the last attempt failed.
 */
static enum vfit_result conf_key(struct vfit_ctx *c, const struct vfit_node_list *list,
				 int conf, int key, int *node, const char **prop)
{
	enum vfit_result r = VFIT_ERR_NO_SIGNATURE;
	int sig;

	*node = conf;
	*prop = NULL;
	fdt_for_each_subnode(sig, c->fit, conf) {
		if (!vfit_name_prefix(c->fit, sig, "signature"))
			continue;
		r = conf_sig(c, list, sig, key, prop);
		vfit_record(c, VFIT_CHECK_CONF_SIG, true, NULL, r, sig, key);
		*node = sig;
		if (!r)
			return VFIT_OK;
	}
	return r;
}

/*
 * A mismatch means "this required key did not sign what is here" (tampered
 * content, substituted configuration, another key's signature, which may
 * even exceed this key's modulus): reported as VFIT_ERR_REQUIRED, like
 * U-Boot's "Failed to verify required signature".  Structural reasons
 * (hashed-strings, algo, key, length) are kept as they are; the check list
 * keeps the exact outcome of every attempt.
 */
static enum vfit_result required_reason(enum vfit_result r)
{
	return r == VFIT_ERR_SIGNATURE || r == VFIT_ERR_SIG_RANGE ? VFIT_ERR_REQUIRED : r;
}

enum vfit_result vfit_conf_verify(struct vfit_ctx *c, int conf)
{
	struct vfit_node_list list;
	const char *mode, *prop = NULL;
	enum vfit_result r = VFIT_OK, lr = VFIT_OK;
	bool any, built = false;
	unsigned int nreq = 0, nok = 0;
	int key, node = conf;

	if (c->keys < 0)
		return VFIT_OK;
	mode = vfit_prop_str(c->ctl, c->keys, "required-mode");
	any = mode && !strcmp(mode, "any");
	fdt_for_each_subnode(key, c->ctl, c->keys) {
		if (vfit_key_required(c->ctl, key) != VFIT_REQ_CONF)
			continue;
		nreq++;
		if (!built) {
			r = vfit_conf_nodes(c->fit, conf, &list);
			if (r)
				return vfit_fail(c, r, false, conf, NULL);
			built = true;
		}
		lr = required_reason(conf_key(c, &list, conf, key, &node, &prop));
		if (!lr) {
			nok++;
			if (any)
				break;
		} else if (!any) {
			return vfit_fail(c, lr, false, node, prop);
		}
	}
	if (nreq && !nok)
		return vfit_fail(c, lr, false, node, prop);
	c->conf_enforced = nok > 0;
	return VFIT_OK;
}
