/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Signatures: the algo of a signature node (the device library's grammar
 * and table), RSA (PKCS#1 v1.5, PSS) and ECDSA signatures of a digest,
 * the properties mkimage writes in a signed node, the public key nodes of
 * -K, and image signatures over a payload digest.  Only the signature
 * value differs between RSA and ECDSA.
 *
 * ECDSA signatures are randomized, as mkimage's are: OpenSSL 3.0 (Debian
 * 12) has no RFC 6979 deterministic nonces (the "nonce-type" parameter
 * came with 3.2), so two runs give two different valid values.
 *
 * Properties are written in mkimage's order (value, signer-name,
 * signer-version, comment, timestamp, hashed-nodes, hashed-strings, algo
 * with -o), so libfdt's insert-at-front leaves the same blob order.  They
 * are recorded (host/core/fdtedit.c) and applied in one pass per signing pass.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libfdt.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>

#include "mkimage_int.h"

int vfit_timestamp(uint32_t *t, struct vfit_err *e)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	unsigned long long v;
	char *end;

	if (!sde || !*sde) {
		*t = (uint32_t)time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoull(sde, &end, 10);
	if (errno || *end || v > UINT32_MAX || *sde == '-')
		return vfit_err_set(e, VFIT_EXIT_USAGE, "SOURCE_DATE_EPOCH=%s: not a time", sde);
	*t = (uint32_t)v;
	return 0;
}

/* "<hash>,<algorithm>": the device library's grammar and table, so vfit signs what it verifies. */
static int parse_algo(const char *name, const void *fit, int node, const char *str,
		      struct algo *a, struct vfit_err *e)
{
	struct vfit_algo la;
	const char *comma = strchr(str, ',');

	if (strlen(str) >= sizeof(a->str) || vfit_algo_parse(str, (int)strlen(str) + 1, &la)) {
		if (comma && !strcmp(comma + 1, "secp521r1"))
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: algo '%s': P-521 is not supported (no device can "
					    "verify it; use ecdsa256 or ecdsa384)", name,
					    vfit_node_path(fit, node), str);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: unknown algo '%s'", name,
				    vfit_node_path(fit, node), str);
	}
	strcpy(a->str, str);
	a->hash = la.hash;
	a->sig = la.sig;
	return 0;
}

static int node_algo(const struct vfit_signer *s, const char *name, const void *fit, int node,
		     struct algo *a, struct vfit_err *e)
{
	const char *str = s->m->algo ? s->m->algo : vfit_fdt_str(fit, node, "algo");
	const char *pad;

	if (!str)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: algo missing (give one with -o)",
				    name, vfit_node_path(fit, node));
	if (parse_algo(name, fit, node, str, a, e))
		return -1;
	pad = vfit_fdt_str(fit, node, "padding");
	a->pss = pad && !strcmp(pad, "pss");
	if (pad && !a->pss && strcmp(pad, "pkcs-1.5"))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: unknown padding '%s'", name,
				    vfit_node_path(fit, node), pad);
	/* The verifier refuses it: ECDSA has no padding (fit_sig.c). */
	if (a->pss && a->sig->kind != VFIT_SIG_RSA)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: padding 'pss' with algo '%s': "
				    "ECDSA has no padding (remove the property)", name,
				    vfit_node_path(fit, node), str);
	return 0;
}

enum vfit_hash vfit_sign_node_hash(const struct vfit_signer *s, const char *name,
				   const void *fit, int node, struct vfit_err *e)
{
	struct algo a;

	if (node_algo(s, name, fit, node, &a, e))
		return VFIT_HASH_INVALID;
	return a.hash;
}

/* RSASSA-PKCS1-v1_5 or PSS (salt = hash length, MGF1 with the same hash) of a digest. */
static int rsa_sign(const char *name, const void *fit, int node, EVP_PKEY *priv,
		    const struct algo *a, const uint8_t *digest, uint8_t *sig, size_t *siglen,
		    struct vfit_err *e)
{
	EVP_MD *md = EVP_MD_fetch(NULL, vfit_hash_name(a->hash), NULL);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
	int ok = md && ctx && EVP_PKEY_sign_init(ctx) > 0 &&
		 EVP_PKEY_CTX_set_signature_md(ctx, md) > 0;

	if (ok && a->pss)
		ok = EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) > 0 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) > 0 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) > 0;
	else if (ok)
		ok = EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0;
	ok = ok && EVP_PKEY_sign(ctx, sig, siglen, digest, vfit_hash_size(a->hash)) > 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_MD_free(md);
	if (!ok)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: signing with %s failed", name,
				    vfit_node_path(fit, node), a->str);
	return 0;
}

/*
 * ECDSA of a digest as mkimage signs it: the digest goes to the key
 * unchanged (no message digest is set, so a longer one is truncated to
 * the order's length, as the verifier does) and OpenSSL's DER signature
 * becomes the FIT's raw r || s, each left-padded to the curve size.
 */
static int ecdsa_sign(const char *name, const void *fit, int node, EVP_PKEY *priv,
		      const struct algo *a, const uint8_t *digest, uint8_t *sig, size_t *siglen,
		      struct vfit_err *e)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
	int half = a->sig->sig_len / 2;
	uint8_t der[2 * (VFIT_ECDSA_MAX_BYTES + 4) + 4];
	const uint8_t *p = der;
	size_t len = sizeof(der);
	ECDSA_SIG *es = NULL;
	const BIGNUM *r, *s;
	int ok;

	ok = ctx && EVP_PKEY_sign_init(ctx) > 0 &&
	     EVP_PKEY_sign(ctx, der, &len, digest, vfit_hash_size(a->hash)) > 0 &&
	     (es = d2i_ECDSA_SIG(NULL, &p, (long)len)) != NULL;
	if (ok) {
		ECDSA_SIG_get0(es, &r, &s);
		ok = BN_bn2binpad(r, sig, half) == half && BN_bn2binpad(s, sig + half, half) == half;
	}
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(ctx);
	if (!ok)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: signing with %s failed", name,
				    vfit_node_path(fit, node), a->str);
	*siglen = (size_t)a->sig->sig_len;
	return 0;
}

/* mkimage's properties of a signed node, in its order. */
static int write_sig(struct vfit_signer *s, struct vfit_edits *ed, int node, const uint8_t *sig,
		     size_t siglen, const char *nodes, size_t nodes_len, uint32_t strings)
{
	const struct vfit_mkimage *m = s->m;
	fdt32_t hs[2] = { 0, cpu_to_fdt32(strings) }, ts = cpu_to_fdt32(s->ts);
	int r;

	r = vfit_edits_set(ed, node, "value", sig, siglen);
	r = r ? r : vfit_edits_set(ed, node, "signer-name", "vfit", 5);
	r = r ? r : vfit_edits_set(ed, node, "signer-version", VFIT_VERSION,
				   sizeof(VFIT_VERSION));
	if (!r && m->comment)
		r = vfit_edits_set(ed, node, "comment", m->comment, strlen(m->comment) + 1);
	r = r ? r : vfit_edits_set(ed, node, "timestamp", &ts, sizeof(ts));
	if (!r && nodes) {
		r = vfit_edits_set(ed, node, "hashed-nodes", nodes, nodes_len);
		r = r ? r : vfit_edits_set(ed, node, "hashed-strings", hs, sizeof(hs));
	}
	if (!r && m->algo)
		r = vfit_edits_set(ed, node, "algo", m->algo, strlen(m->algo) + 1);
	return r;
}

/*
 * The ECDSA key node, /signature/NAME.  Where Debian's mkimage 2023.01
 * writes one (/signature exists, the node does not, no -r) it is 2023.01's
 * node, byte for byte: the three ecdsa,* properties, no algo (which makes
 * it serve its curve with any hash, fit_keys.c).  Elsewhere 2023.01 fails
 * or ignores what was asked, and vfit does what U-Boot v2025.01 and later
 * do: /signature created, the node with key-name-hint and algo, and with
 * -r `required` (2023.01 never marks an ECDSA key required); once the run
 * had to create /signature, for its every ECDSA key.  A node that exists
 * keeps its form: 2023.01's is rewritten as it is (unless -r asks for
 * more), a later one updated in place.
 */
static int ecdsa_key_write(struct vfit_signer *s, void *dtb, const struct key *k,
			   const struct algo *a, const char *required)
{
	int keys = fdt_subnode_offset(dtb, 0, "signature");
	int node = keys >= 0 ? fdt_subnode_offset(dtb, keys, a->hint) : -1;
	int later;

	s->ec_later |= keys < 0;
	later = s->ec_later || required || (node >= 0 && fdt_getprop(dtb, node, "algo", NULL));
	return vfit_ecdsa_keynode_write(dtb, a->hint, &k->ec, later ? a->str : NULL, required);
}

static int write_key(struct vfit_signer *s, struct key *k, const struct algo *a,
		     const char *required, struct vfit_fdtbuf *dtb, struct vfit_err *e)
{
	const char *prefix = k->kind == VFIT_SIG_ECDSA ? "" : "key-";
	int r;

	if (!dtb)
		return 0;
	if (!a->hint[0])
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: a signature node has no key-name-hint "
				    "to name its key node", s->m->keydest);
	if (!s->m->required)
		required = NULL;
	while ((r = k->kind == VFIT_SIG_ECDSA ? ecdsa_key_write(s, dtb->buf, k, a, required)
		    : vfit_rsa_keynode_write(dtb->buf, a->hint, &k->rsa, a->str, required)) ==
	       -FDT_ERR_NOSPACE)
		if (vfit_fdtbuf_reserve(dtb, 4096))
			break;
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: /signature/%s%s: %s", s->m->keydest,
				    prefix, a->hint, fdt_strerror(r));
	snprintf(s->last_key, sizeof(s->last_key), "/signature/%s%s", prefix, a->hint);
	return 0;
}

/*
 * Signs a digest and records the node's properties and writes (-K) the key
 * node.  nodes is NULL for an image signature; a configuration's key is
 * required "conf", an image's "image".
 */
int vfit_sign_write(struct vfit_signer *s, const char *name, const void *fit, int node,
		      struct key *k, const struct algo *a, const uint8_t *digest,
		      const char *nodes, size_t nodes_len, uint32_t strings,
		      struct vfit_edits *ed, struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	uint8_t sig[VFIT_RSA_MAX_BITS / 8];
	size_t siglen = sizeof(sig);
	int r;

	r = a->sig->kind == VFIT_SIG_ECDSA
		? ecdsa_sign(name, fit, node, k->priv, a, digest, sig, &siglen, e)
		: rsa_sign(name, fit, node, k->priv, a, digest, sig, &siglen, e);
	if (r)
		return -1;
	r = write_sig(s, ed, node, sig, siglen, nodes, nodes_len, strings);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", name, vfit_node_path(fit, node),
				    fdt_strerror(r));
	return write_key(s, k, a, nodes ? "conf" : "image", keydtb, e);
}

/* An ECDSA key must be on the algo's curve (not just of its size: brainpoolP256r1 is not P-256). */
static int curve_ok(const char *name, const void *fit, int node, const struct key *k,
		    const struct algo *a, struct vfit_err *e)
{
	enum vfit_ec_curve curve;
	struct vfit_err ke = { 0 };

	if (vfit_ecdsa_pkey_curve(k->priv, &curve, &ke))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: key '%s': %s", name,
				    vfit_node_path(fit, node), k->name, ke.msg);
	if (curve != a->sig->curve)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: key '%s' is on curve %s but algo '%s' needs %s", name,
				    vfit_node_path(fit, node), k->name, vfit_ecdsa_curve_name(curve),
				    a->str, vfit_ecdsa_curve_name(a->sig->curve));
	return 0;
}

/* Key lookup, algorithm and size checks shared by both kinds of signature. */
struct key *vfit_sign_prepare(struct vfit_signer *s, const char *name, const void *fit, int node,
			   struct algo *a, int *skip, struct vfit_err *e)
{
	const char *hint = vfit_fdt_str(fit, node, "key-name-hint");
	struct key *k;
	int bits;

	*skip = 0;
	if (node_algo(s, name, fit, node, a, e))
		return NULL;
	if (hint && strlen(hint) >= sizeof(a->hint))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: key-name-hint too long", name,
				    vfit_node_path(fit, node)), NULL;
	snprintf(a->hint, sizeof(a->hint), "%s", hint ? hint : "");
	if (!s->ts && vfit_timestamp(&s->ts, e))
		return NULL;
	k = vfit_signer_key(s, name, fit, node, a->sig->kind, skip, e);
	if (!k)
		return NULL;
	if (a->sig->kind == VFIT_SIG_ECDSA)
		return curve_ok(name, fit, node, k, a, e) ? NULL : k;
	bits = EVP_PKEY_get_bits(k->priv);
	if (bits < 0 || (unsigned int)bits != a->sig->key_bits)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: key '%s' has %d bits but algo '%s' needs %u", name,
				    vfit_node_path(fit, node), k->name, bits, a->str,
				    (unsigned int)a->sig->key_bits),
		       NULL;
	return k;
}

int vfit_sign_image_node(struct vfit_signer *s, const char *name, const void *fit, int node,
			 const uint8_t *digest, enum vfit_hash hash, struct vfit_edits *ed,
			 struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	struct algo a;
	struct key *k;
	int skip;

	k = vfit_sign_prepare(s, name, fit, node, &a, &skip, e);
	if (!k)
		return skip ? 0 : -1;
	if (a.hash != hash || !digest)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: internal digest mismatch", name,
				    vfit_node_path(fit, node));
	return vfit_sign_write(s, name, fit, node, k, &a, digest, NULL, 0, 0, ed, keydtb, e);
}

