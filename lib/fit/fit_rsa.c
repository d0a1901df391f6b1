/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA in a FIT: the key node of the control FDT in U-Boot's pre-processed
 * form (fit-format.md §4.2) and PKCS#1 v1.5 or PSS signatures (§5.3,
 * §5.4).  The arithmetic is lib/rsa/.  With VFIT_HAVE_RSA 0 no row refers
 * to this file, which then compiles to nothing (lib/fit links without
 * lib/rsa).
 */
#include <libfdt.h>

#include "fit_int.h"

#if VFIT_HAVE_RSA

/* The key node's properties read here, in the order of enum kprop. */
static const char kprops[] = "rsa,num-bits\0rsa,n0-inverse\0rsa,modulus\0rsa,r-squared\0"
			     "rsa,exponent\0";
enum kprop { K_BITS, K_N0INV, K_MOD, K_RR, K_EXP, NK };

/* A property of exactly len bytes, or NULL. */
static const uint8_t *sized(const struct vfit_prop *v, int len)
{
	return v->p && v->len == len ? v->p : NULL;
}

/*
 * Every property must have its exact size: a key that is malformed is
 * refused, never read in a laxer way.  The exponent alone may be absent
 * (keys written before U-Boot stored it), meaning 65537 as in U-Boot.
 */
enum vfit_result vfit_rsa_fit_load_(const void *ctl, int node, struct vfit_pubkey *key)
{
	struct vfit_rsa_key *k = &key->u.rsa;
	uint32_t bits = key->algo->key_bits;
	struct vfit_prop v[NK];
	const uint8_t *p;

	vfit_props_(ctl, node, kprops, v, NK);
	p = sized(&v[K_BITS], 4);
	if (!p || ld_be32(p) != bits)
		return VFIT_ERR_KEY;
	k->num_bits = bits;
	p = sized(&v[K_N0INV], 4);
	if (!p)
		return VFIT_ERR_KEY;
	k->n0inv = ld_be32(p);
	k->modulus = sized(&v[K_MOD], (int)bits / 8);
	k->rr = sized(&v[K_RR], (int)bits / 8);
	if (!k->modulus || !k->rr || (v[K_EXP].p && v[K_EXP].len != 8))
		return VFIT_ERR_KEY;
	k->exponent = v[K_EXP].p ? fdt64_ld((const fdt64_t *)v[K_EXP].p) : 65537;
	return VFIT_OK;
}

enum vfit_result vfit_rsa_fit_verify_(const struct vfit_pubkey *key, enum vfit_hash h,
				     enum vfit_padding pad, const uint8_t *digest,
				     const uint8_t *sig, size_t sig_len)
{
	if (pad == VFIT_PAD_PKCS1)
		return vfit_rsa_verify_pkcs1(&key->u.rsa, h, digest, sig, sig_len);
#if VFIT_HAVE_RSA_PSS
	/* FIT signatures carry no salt length: any the encoding holds. */
	return vfit_rsa_verify_pss(&key->u.rsa, h, h, VFIT_PSS_SALT_ANY, digest, sig, sig_len);
#else
	return VFIT_ERR_UNSUPPORTED;
#endif
}
#endif
