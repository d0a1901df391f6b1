/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pre-load headers on the host (include/vfit-host/preload.h).  The header
 * is binman's pre-load entry's: the 64-byte first header, its signature,
 * the image signature, zeros up to header_size; RSA PSS with the largest
 * salt (as binman signs), ECDSA as raw r||s (as U-Boot's ECDSA code).  The
 * check goes through lib/preload, the device's own code.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "vfit/preload.h"
#include "vfit-host/io.h"
#include "vfit-host/preload.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A private key, or (private = 0) a public key, a certificate or a private key. */
static EVP_PKEY *pem_key(const char *path, int private, struct vfit_err *e)
{
	FILE *f = fopen(path, "r");
	EVP_PKEY *k = NULL;
	X509 *x;

	if (!f) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot open", path);
		return NULL;
	}
	k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	if (!k && !private) {
		rewind(f);
		k = PEM_read_PUBKEY(f, NULL, NULL, NULL);
	}
	if (!k && !private) {
		rewind(f);
		x = PEM_read_X509(f, NULL, NULL, NULL);
		k = x ? X509_get_pubkey(x) : NULL;
		X509_free(x);
	}
	fclose(f);
	if (!k)
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a PEM %skey", path,
			     private ? "private " : "");
	return k;
}

/* The signature size the algorithm name promises for this key, or 0. */
static uint32_t sig_size(EVP_PKEY *k, const char *algo)
{
	const char *c = strchr(algo, ',');
	char want[16];
	int bits = EVP_PKEY_get_bits(k);

	if (!c)
		return 0;
	snprintf(want, sizeof(want), "%s%d", EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA ? "rsa" :
		 "ecdsa", bits);
	if (strcmp(c + 1, want))
		return 0;
	return EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA ? (uint32_t)bits / 8
						       : 2 * (((uint32_t)bits + 7) / 8);
}

static const EVP_MD *md_of(const char *algo)
{
	size_t n = strcspn(algo, ",");

	if (n == 4 && !strncmp(algo, "sha1", 4))
		return EVP_sha1();
	if (n == 6 && !strncmp(algo, "sha256", 6))
		return EVP_sha256();
	if (n == 6 && !strncmp(algo, "sha384", 6))
		return EVP_sha384();
	if (n == 6 && !strncmp(algo, "sha512", 6))
		return EVP_sha512();
	return NULL;
}

/* sig_len bytes of signature over msg: PKCS#1 v1.5, PSS (max salt), or ECDSA r||s. */
static int sign(EVP_PKEY *k, const char *algo, int pss, const uint8_t *msg, size_t len,
		uint8_t *sig, size_t sig_len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	uint8_t der[256];
	size_t n = sizeof(der);
	const uint8_t *p = der;
	ECDSA_SIG *es = NULL;
	int ok = ctx && EVP_DigestSignInit(ctx, &pctx, md_of(algo), NULL, k) == 1;

	if (ok && EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA && pss)
		ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_MAX) == 1 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md_of(algo)) == 1;
	if (EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA) {
		n = sig_len;
		ok = ok && EVP_DigestSign(ctx, sig, &n, msg, len) == 1 && n == sig_len;
	} else {
		ok = ok && EVP_DigestSign(ctx, der, &n, msg, len) == 1 &&
		     (es = d2i_ECDSA_SIG(NULL, &p, (long)n)) &&
		     BN_bn2binpad(ECDSA_SIG_get0_r(es), sig, (int)sig_len / 2) == (int)sig_len / 2 &&
		     BN_bn2binpad(ECDSA_SIG_get0_s(es), sig + sig_len / 2, (int)sig_len / 2) ==
			     (int)sig_len / 2;
	}
	ECDSA_SIG_free(es);
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* The public key as U-Boot's key node holds it (i2d_PublicKey: RSAPublicKey or the EC point). */
static uint8_t *public_der(EVP_PKEY *k, size_t *len)
{
	uint8_t *der = NULL;
	int n = i2d_PublicKey(k, &der);

	if (n <= 0)
		return NULL;
	*len = (size_t)n;
	return der;
}

/* /image/pre-load/sig with algo-name, padding-name, signature-size, mandatory, public-key. */
static int key_node(struct vfit_fdtbuf *dtb, const char *algo, const char *padding,
		    uint32_t size, int mandatory, const uint8_t *pub, size_t pub_len)
{
	int node = 0, r = vfit_fdtbuf_reserve(dtb, pub_len + 512) ? -FDT_ERR_NOSPACE : 0;

	if (!r && (node = vfit_fdt_subnode(dtb->buf, 0, "image")) >= 0 &&
	    (node = vfit_fdt_subnode(dtb->buf, node, "pre-load")) >= 0)
		node = vfit_fdt_subnode(dtb->buf, node, "sig");
	if (!r && node < 0)
		r = node;
	if (!r)
		r = vfit_fdt_setprop_str(dtb, node, "algo-name", algo);
	if (!r)
		r = vfit_fdt_setprop_str(dtb, node, "padding-name", padding);
	if (!r)
		r = vfit_fdt_setprop_u32(dtb, node, "signature-size", size);
	if (!r)
		r = vfit_fdt_setprop_str(dtb, node, "mandatory", mandatory ? "yes" : "no");
	if (!r)
		r = vfit_fdt_setprop(dtb, node, "public-key", pub, pub_len);
	return r;
}

int vfit_preload_make_file(const struct vfit_preload_args *a, struct vfit_err *e)
{
	const char *algo = a->algo ? a->algo : "sha256,rsa2048";
	const char *padding = a->padding ? a->padding : "pkcs-1.5";
	uint32_t hsize = a->header_size ? a->header_size : 4096, size;
	struct vfit_fdtbuf dtb = { 0 };
	struct vfit_out fo = { 0 }, ko = { 0 };
	struct vfit_seg seg[2];
	uint8_t *hdr = NULL, *pub = NULL;
	char *img = NULL, *kdata = NULL;
	size_t len = 0, klen = 0, pub_len = 0;
	EVP_PKEY *k;
	int r = -1, pss = !strcmp(padding, "pss");

	if (strcmp(padding, "pss") && strcmp(padding, "pkcs-1.5"))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "padding '%s': pkcs-1.5 or pss", padding);
	if (!md_of(algo))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "algo '%s': sha1/256/384/512,KEY", algo);
	k = pem_key(a->key, 1, e);
	if (!k)
		return -1;
	size = sig_size(k, algo);
	if (!size) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: a %d-bit %s key does not make '%s'", a->key,
			     EVP_PKEY_get_bits(k), EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA ?
			     "RSA" : "EC", algo);
		goto out;
	}
	if (pss && EVP_PKEY_get_base_id(k) != EVP_PKEY_RSA) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: padding pss needs an RSA key", a->key);
		goto out;
	}
	if (hsize < VFIT_PRELOAD_HDR + 2 * size) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "header size %u: at least %u for %s", hsize,
			     VFIT_PRELOAD_HDR + 2 * size, algo);
		goto out;
	}
	if (vfit_file_read(a->in, 0, &img, &len, e))
		goto out;
	if (len > UINT32_MAX) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: larger than 4 GiB", a->in);
		goto out;
	}
	hdr = calloc(1, hsize);
	if (!hdr) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
		goto out;
	}
	/* The image signature first: the first header holds its SHA-256. */
	if (sign(k, algo, pss, (const uint8_t *)img, len, hdr + VFIT_PRELOAD_HDR + size, size)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: signing failed", a->key);
		goto out;
	}
	put32(hdr, VFIT_PRELOAD_MAGIC);
	put32(hdr + 4, a->version ? a->version : 1);
	put32(hdr + 8, hsize);
	put32(hdr + 12, (uint32_t)len);
	put32(hdr + 16, VFIT_PRELOAD_HDR + size);
	if (vfit_hash(VFIT_HASH_SHA256, hdr + VFIT_PRELOAD_HDR + size, size, hdr + 32) ||
	    sign(k, algo, pss, hdr, VFIT_PRELOAD_HDR, hdr + VFIT_PRELOAD_HDR, size)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: signing failed", a->key);
		goto out;
	}
	if (a->keydest) {
		if (vfit_check_writable(a->keydest, e) || vfit_file_read(a->keydest, 0, &kdata,
									  &klen, e) ||
		    vfit_fdtbuf_adopt(&dtb, kdata, klen, klen, a->keydest, e))
			goto out;
		pub = public_der(k, &pub_len);
		if (!pub || key_node(&dtb, algo, padding, size, a->mandatory, pub, pub_len)) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot write %s", a->keydest,
				     VFIT_PRELOAD_PATH);
			goto out;
		}
		vfit_fdtbuf_set_size(&dtb, vfit_fdt_used(dtb.buf));
	}
	seg[0].off = 0;
	seg[0].p = hdr;
	seg[0].len = hsize;
	seg[1].off = hsize;
	seg[1].p = img;
	seg[1].len = len;
	if (vfit_out_write(&fo, a->out, seg, 2, hsize + (uint64_t)len, e))
		goto out;
	if (a->keydest) {
		seg[0].p = dtb.buf;
		seg[0].len = fdt_totalsize(dtb.buf);
		if (vfit_out_write(&ko, a->keydest, seg, 1, seg[0].len, e)) {
			vfit_out_discard(&fo);
			goto out;
		}
	}
	r = vfit_out_commit(&fo, e);
	if (a->keydest)
		r = r ? (vfit_out_discard(&ko), r) : vfit_out_commit(&ko, e);
out:
	EVP_PKEY_free(k);
	OPENSSL_free(pub);
	free(hdr);
	free(img);
	vfit_fdtbuf_free(&dtb);
	return r;
}

/* What U-Boot's error lines say, by the field the check stopped at. */
static const char *why(const struct vfit_preload_result *res)
{
	if (!res->field)
		return vfit_result_to_string(res->result);
	if (!strcmp(res->field, "magic"))
		return "no pre-load header, and the signature is mandatory";
	if (!strcmp(res->field, "header signature"))
		return "header signature check has failed";
	if (!strcmp(res->field, "sha256_img_sig"))
		return "sha256 of image signature is invalid";
	if (!strcmp(res->field, "image signature"))
		return "image signature check has failed";
	if (res->result == VFIT_ERR_TRUNCATED)
		return "goes past the end of the file";
	if (res->result == VFIT_ERR_FORMAT)
		return "not what the header must hold (version 1, both signatures inside "
		       "header_size, image signature after the header's, zero flags, reserved "
		       "words and padding)";
	return vfit_result_to_string(res->result);
}

int vfit_preload_check_file(FILE *f, const char *file, const char *pem, const char *algo,
			    const char *padding, const char *ctl_dtb, struct vfit_err *e)
{
	static struct vfit_preload_key key;
	struct vfit_preload_result res;
	struct vfit_diag d = { .node = -1 };
	const char *field = NULL;
	uint8_t *pub = NULL;
	size_t pub_len = 0, len = 0;
	char *buf = NULL, *ctl = NULL;
	EVP_PKEY *k = NULL;
	enum vfit_result r;
	int rc = -1;

	algo = algo ? algo : "sha256,rsa2048";
	if (ctl_dtb) {
		if (vfit_file_read(ctl_dtb, 0, &ctl, &len, e))
			return -1;
		if (vfit_fdt_check(ctl, len, &d)) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a valid device tree", ctl_dtb);
			goto out;
		}
		r = vfit_preload_key_load(ctl, &key, &d);
		if (r) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s%s%s: %s", ctl_dtb, VFIT_PRELOAD_PATH,
				     d.prop ? ": " : "", d.prop ? d.prop : "",
				     vfit_result_to_string(r));
			goto out;
		}
	} else {
		k = pem_key(pem, 0, e);
		if (!k)
			goto out;
		pub = public_der(k, &pub_len);
		r = pub ? vfit_preload_key_make(algo, padding, sig_size(k, algo) ? sig_size(k, algo) :
						(uint32_t)EVP_PKEY_get_size(k), true, pub, pub_len,
						&key, &field) : VFIT_ERR_KEY;
		if (r) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s (%s, %s): %s", pem,
				     field ? field : "key", algo, padding ? padding : "pkcs-1.5",
				     vfit_result_to_string(r));
			goto out;
		}
	}
	if (vfit_file_read(file, 0, &buf, &len, e))
		goto out;
	if (vfit_preload_check(&key, (const uint8_t *)buf, len, &res)) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s%s%s", file, res.field ? res.field : "",
			     res.field ? ": " : "", why(&res));
		goto out;
	}
	if (res.present)
		fprintf(f, "%s: pre-load header OK (version %u, header %u bytes, image %u bytes, "
			"%s)\n", file, res.version, res.header_size, res.image_size,
			key.rsa ? (key.pss ? "pss" : "pkcs-1.5") : "ecdsa");
	else
		fprintf(f, "%s: no pre-load header (not mandatory): %zu bytes of image\n", file,
			res.image_len);
	rc = 0;
out:
	EVP_PKEY_free(k);
	OPENSSL_free(pub);
	free(buf);
	free(ctl);
	return rc;
}
