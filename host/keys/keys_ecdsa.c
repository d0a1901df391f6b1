/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA public keys (docs/fit-format.md §4.3): the affine point of an
 * OpenSSL key, and the control-DTB key node `mkimage -K` writes for it.
 */
#include <string.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "vfit-host/fdtbuf.h"
#include "vfit-host/keys.h"

int vfit_ecdsa_pkey_curve(const EVP_PKEY *pkey, enum vfit_ec_curve *curve, struct vfit_err *e)
{
	char group[64];

	*curve = VFIT_EC_NONE;
	if (!EVP_PKEY_is_a(pkey, "EC"))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "key is not an ECDSA key");
	if (!EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
					    NULL))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "ECDSA key without a named curve (explicit parameters are not "
				    "supported)");
	*curve = vfit_ecdsa_curve(group);
	if (*curve == VFIT_EC_NONE)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "unsupported ECDSA curve %s (need prime256v1 or secp384r1)",
				    group);
	return 0;
}

const char *vfit_ecdsa_curve_name(enum vfit_ec_curve curve)
{
	return curve == VFIT_EC_P256 ? "prime256v1" : curve == VFIT_EC_P384 ? "secp384r1" : NULL;
}

/*
 * The coordinates are read from the key's SubjectPublicKeyInfo parsed
 * again: a key held in an engine (-N pkcs11) is a legacy key whose
 * parameters OpenSSL 3.0 cannot give out as coordinates, but it encodes.
 */
int vfit_ecdsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_ecdsa_pub *pub, struct vfit_err *e)
{
	BIGNUM *x = NULL, *y = NULL;
	unsigned char *der = NULL;
	const unsigned char *p;
	EVP_PKEY *spki = NULL;
	int ret = -1, len;

	memset(pub, 0, sizeof(*pub));
	if (vfit_ecdsa_pkey_curve(pkey, &pub->curve, e))
		return -1;
	pub->curve_name = vfit_ecdsa_curve_name(pub->curve);
	pub->len = vfit_ecdsa_curve_bytes(pub->curve);
	len = i2d_PUBKEY(pkey, &der);
	p = der;
	if (len > 0)
		spki = d2i_PUBKEY(NULL, &p, len);
	if (!spki || !EVP_PKEY_get_bn_param(spki, OSSL_PKEY_PARAM_EC_PUB_X, &x) ||
	    !EVP_PKEY_get_bn_param(spki, OSSL_PKEY_PARAM_EC_PUB_Y, &y) ||
	    BN_bn2binpad(x, pub->x, (int)pub->len) < 0 ||
	    BN_bn2binpad(y, pub->y, (int)pub->len) < 0)
		vfit_err_set(e, VFIT_EXIT_REJECT, "cannot read the ECDSA public point");
	else
		ret = 0;
	BN_free(x);
	BN_free(y);
	EVP_PKEY_free(spki);
	OPENSSL_free(der);
	return ret;
}

enum vfit_result vfit_ecdsa_pub_key(const struct vfit_ecdsa_pub *pub, struct vfit_ecdsa_key *key)
{
	return vfit_ecdsa_key_load(pub->curve, pub->x, pub->len, pub->y, pub->len, key);
}

/*
 * U-Boot's write order, one property at a time (libfdt puts each new one
 * first, so the blob holds them in reverse): key-name-hint, ecdsa,curve,
 * ecdsa,x-point, ecdsa,y-point, algo, required.  mkimage 2023.01 writes
 * only the three ecdsa,* properties, in that order; v2025.01 and later the
 * whole list.
 */
int vfit_ecdsa_keynode_write(void *fdt, const char *name, const struct vfit_ecdsa_pub *pub,
			     const char *algo, const char *required)
{
	int sig, node, err = 0;

	if (!algo && required)
		return -FDT_ERR_BADVALUE;
	sig = vfit_fdt_subnode(fdt, 0, "signature");
	if (sig < 0)
		return sig;
	node = vfit_fdt_subnode(fdt, sig, name);
	if (node < 0)
		return node;
	if (algo)
		err = fdt_setprop_string(fdt, node, "key-name-hint", name);
	if (!err)
		err = fdt_setprop_string(fdt, node, "ecdsa,curve", pub->curve_name);
	if (!err)
		err = fdt_setprop(fdt, node, "ecdsa,x-point", pub->x, (int)pub->len);
	if (!err)
		err = fdt_setprop(fdt, node, "ecdsa,y-point", pub->y, (int)pub->len);
	if (!err && algo)
		err = fdt_setprop_string(fdt, node, "algo", algo);
	if (!err && required)
		err = fdt_setprop_string(fdt, node, "required", required);
	return err;
}
