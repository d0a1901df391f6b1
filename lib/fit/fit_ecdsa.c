/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA in a FIT: the key node of the control FDT (fit-format.md §4.3) and
 * the raw r || s signature (§5.5).  The arithmetic is lib/ecdsa/.
 *
 * The key is checked when it is loaded (sizes, coordinates below p, the
 * point on the curve) and its coordinates are copied: verification then
 * trusts it, and nothing of the control FDT is read twice.
 *
 * Without any curve (VFIT_HAVE_ECDSA 0) no row refers to this file, which
 * then compiles to nothing, so lib/fit links without lib/ecdsa.
 */
#include "fit_int.h"

#if VFIT_HAVE_ECDSA

/* The key node's properties read here, in the order of enum kprop. */
static const char kprops[] = "ecdsa,curve\0ecdsa,x-point\0ecdsa,y-point\0";
enum kprop { K_CURVE, K_X, K_Y, NK };

/*
 * The curve must be the row's: a key node whose algo says ecdsa256 but
 * whose curve is secp384r1 contradicts itself and is refused as
 * malformed (vfit_key_load() has already sent a key without algo whose
 * curve is another row's away as VFIT_ERR_KEY_ALGO).
 */
enum vfit_result vfit_ecdsa_fit_load_(const void *ctl, int node, struct vfit_pubkey *key)
{
	enum vfit_ec_curve curve = (enum vfit_ec_curve)key->algo->curve;
	struct vfit_prop v[NK];
	const char *name;

	vfit_props_(ctl, node, kprops, v, NK);
	name = vfit_str_(&v[K_CURVE]);
	if (!name || vfit_ecdsa_curve(name) != curve || !v[K_X].p || !v[K_Y].p)
		return VFIT_ERR_KEY;
	return vfit_ecdsa_key_load(curve, v[K_X].p, (size_t)v[K_X].len, v[K_Y].p,
				   (size_t)v[K_Y].len, &key->u.ecdsa) ? VFIT_ERR_KEY : VFIT_OK;
}

/*
 * Any signature hash with either curve, as U-Boot signs and checks them:
 * the digest is truncated (SHA-384 and SHA-512 on P-256) or taken whole
 * (SHA-1, SHA-256 on P-384) as the standard says.
 */
enum vfit_result vfit_ecdsa_fit_verify_(const struct vfit_pubkey *key, enum vfit_hash h,
				       enum vfit_padding pad, const uint8_t *digest,
				       const uint8_t *sig, size_t sig_len)
{
	/* padding() in fit_sig.c refuses anything but pkcs-1.5 on an ECDSA row. */
	(void)pad;
	return vfit_ecdsa_verify(&key->u.ecdsa, digest, vfit_hash_size(h), sig, sig_len);
}
#endif
