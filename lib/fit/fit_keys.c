/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key nodes of the control FDT and its policy properties (fit-format.md
 * §4.4).  Keys are referenced in place, never copied.
 *
 * A policy property that does not say exactly what it means refuses the
 * whole control FDT: a `required` of "conf\0\0", "conf" without its NUL or
 * the list "conf","image" counts as required in U-Boot (strcmp stops at
 * the first NUL) but as not required to a reader that wants one string,
 * and under required-mode "all" that difference admits a FIT the other
 * key alone signed.  Refusing is the only reading that can never be laxer
 * than the author meant.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

/* The words of `required`, in the order of enum vfit_required from VFIT_REQ_CONF. */
static const char required_words[] = "conf\0image\0";
_Static_assert(VFIT_REQ_CONF == 1 && VFIT_REQ_IMAGE == 2, "required_words[] order");

/*
 * A policy property: the index of its value among the NUL-separated words
 * in `ok`, -1 when absent, -2 when it is anything but exactly one of them.
 */
static int policy(const void *ctl, int node, const char *name, const char *ok)
{
	struct vfit_prop v;
	const char *s;
	int i;

	v.p = fdt_getprop(ctl, node, name, &v.len);
	if (!v.p)
		return -1;
	s = vfit_str_(&v);
	i = s ? vfit_index_(s, ok) : -1;
	return i < 0 ? -2 : i;
}

enum vfit_result vfit_control_keys_(const void *ctl, size_t len, struct vfit_diag *diag,
				   int *keys_out, bool *any)
{
	static const char *const top[] = { "signature" };
	unsigned int required = 0;
	int keys, key, i;

	*keys_out = -1;
	*any = false;
	if (vfit_fdt_walk_(ctl, len, false, 0, diag))
		return VFIT_ERR_CONTROL;
	vfit_diag_set(diag, 0, NULL);
	if (vfit_subnodes(ctl, 0, top, 1, &keys, diag))
		return VFIT_ERR_CONTROL;
	if (keys < 0)
		return VFIT_OK;
	vfit_diag_set(diag, keys, "required-mode");
	i = policy(ctl, keys, "required-mode", "any\0all\0");
	if (i < -1)
		return VFIT_ERR_CONTROL;
	*any = i == 0;
	fdt_for_each_subnode(key, ctl, keys) {
		vfit_diag_set(diag, key, "required");
		i = policy(ctl, key, "required", required_words);
		if (i < -1)
			return VFIT_ERR_CONTROL;
		/* The policy keeps one bit per required key. */
		if (i >= 0 && ++required > VFIT_MAX_KEYS) {
			vfit_limit(diag, VFIT_LIMIT_KEYS);
			return VFIT_ERR_CONTROL;
		}
	}
	vfit_diag_set(diag, -1, NULL);
	*keys_out = keys;
	return VFIT_OK;
}

enum vfit_result vfit_control_check(const void *ctl, size_t len, struct vfit_diag *diag)
{
	int keys;
	bool any;

	return vfit_control_keys_(ctl, len, diag, &keys, &any);
}

enum vfit_required vfit_key_required(const void *ctl, int key_node)
{
	int i = policy(ctl, key_node, "required", required_words);

	/* Not one of the words (or absent): VFIT_REQ_NONE. */
	return i < 0 ? VFIT_REQ_NONE : (enum vfit_required)(i + 1);
}

const char *vfit_key_name(const void *ctl, int key_node)
{
	const char *hint = vfit_prop_str_(ctl, key_node, "key-name-hint");

	return hint ? hint : fdt_get_name(ctl, key_node, NULL);
}

#if VFIT_HAVE_ECDSA
/*
 * A key node without algo is an ECDSA key of mkimage 2023.01 (which
 * writes only the ecdsa,* properties): its ecdsa,curve alone says which
 * row it serves.  An RSA key node without algo crashed v2023.01; HEAD
 * rejects it, so do we.
 */
static enum vfit_result nameless(const void *ctl, int key_node, const struct vfit_algo *a)
{
	const char *curve = vfit_prop_str_(ctl, key_node, "ecdsa,curve");

	if (!curve)
		return VFIT_ERR_KEY;
	return a->sig->curve != VFIT_EC_NONE && vfit_ecdsa_curve(curve) == a->sig->curve ?
	       VFIT_OK : VFIT_ERR_KEY_ALGO;
}
#else
/* Without ECDSA every key node names its algorithm (see above for why). */
static enum vfit_result nameless(const void *ctl, int key_node, const struct vfit_algo *a)
{
	(void)ctl, (void)key_node, (void)a;
	return VFIT_ERR_KEY;
}
#endif

/*
 * Whether the key node serves the signature's algo a (string algo):
 * VFIT_ERR_KEY_ALGO if not.  An RSA key's algo must equal the signature's
 * byte for byte, as in U-Boot.  An ECDSA key serves its row (its curve)
 * with any signature hash, as U-Boot's ECDSA code, which never reads a
 * key's algo, does: the hash is the signer's choice, not the key's, and
 * HEAD writes the algo of whichever signature it last made with the key.
 * But a key whose algo names another row, or no row at all, is never
 * taken for this one.
 */
static enum vfit_result serves(const void *ctl, int key_node, const char *algo, int algo_len,
			       const struct vfit_algo *a)
{
	struct vfit_algo ka;
	struct vfit_prop v;

	v.p = fdt_getprop(ctl, key_node, "algo", &v.len);
	if (!v.p)
		return nameless(ctl, key_node, a);
	if (VFIT_HAVE_ECDSA && a->sig->kind == VFIT_SIG_ECDSA)
		return !vfit_algo_parse((const char *)v.p, v.len, &ka) && ka.sig == a->sig ?
		       VFIT_OK : VFIT_ERR_KEY_ALGO;
	return v.len == algo_len && !memcmp(v.p, algo, (size_t)algo_len) ? VFIT_OK :
	       VFIT_ERR_KEY_ALGO;
}

enum vfit_result vfit_key_load_algo_(const void *ctl, int key_node, const char *algo,
				    int algo_len, const struct vfit_algo *a,
				    struct vfit_pubkey *key)
{
	enum vfit_result r = serves(ctl, key_node, algo, algo_len, a);

	if (r)
		return r;
	key->algo = a->sig;
	return a->sig->load(ctl, key_node, key);
}

enum vfit_result vfit_key_load(const void *ctl, int key_node, const char *algo, int algo_len,
			       struct vfit_pubkey *key)
{
	struct vfit_algo a;
	enum vfit_result r = vfit_algo_parse(algo, algo_len, &a);

	return r ? r : vfit_key_load_algo_(ctl, key_node, algo, algo_len, &a, key);
}
