/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pre-load signature headers (include/vfit/preload.h): the key node, the
 * DER public key it holds, and the header check.  U-Boot's key node has
 * the bare modulus and exponent, so the Montgomery constants the RSA code
 * needs (-n^-1 mod 2^32 and 2^(2k) mod n) are computed here, once per key.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/preload.h"

#include "../byteorder.h"

/* One DER tag-length header at *p (definite, minimal length); the contents' length. */
static bool der_item(const uint8_t **p, const uint8_t *end, uint8_t tag, size_t *len)
{
	const uint8_t *q = *p;
	size_t n;

	if (end - q < 2 || *q++ != tag)
		return false;
	n = *q++;
	if (n == 0x81) {
		if (end - q < 1 || *q < 0x80)
			return false;
		n = *q++;
	} else if (n == 0x82) {
		if (end - q < 2 || *q == 0 || (q[0] == 0 && q[1] < 0x80))
			return false;
		n = ld_be16(q);
		q += 2;
		if (n < 0x100)
			return false;
	} else if (n > 0x7f) {
		return false;
	}
	if ((size_t)(end - q) < n)
		return false;
	*p = q;
	*len = n;
	return true;
}

/* A positive DER INTEGER, minimal: its magnitude without the sign byte. */
static bool der_uint(const uint8_t **p, const uint8_t *end, const uint8_t **v, size_t *len)
{
	size_t n;

	if (!der_item(p, end, 0x02, &n) || !n || (**p & 0x80))
		return false;
	*v = *p;
	*p += n;
	if (n > 1 && (*v)[0] == 0) {
		if (!((*v)[1] & 0x80))
			return false;
		(*v)++;
		n--;
	}
	*len = n;
	return true;
}

/* -n^-1 mod 2^32 by Newton's iteration (each step doubles the correct bits). */
static uint32_t n0_inverse(uint32_t n0)
{
	uint32_t x = n0;    /* n0 * n0 = 1 mod 8 for odd n0 */
	int i;

	for (i = 0; i < 4; i++)
		x *= 2 - n0 * x;
	return (uint32_t)0 - x;
}

#define LIMBS (VFIT_RSA_MAX_BITS / 32)

/* rr = 2^(2k) mod n for a k-bit n with its top bit set, by k doublings of 2^k - n. */
static void r_squared(const uint8_t *n_be, size_t bytes, uint8_t *rr_be)
{
	uint32_t n[LIMBS], r[LIMBS];
	size_t limbs = bytes / 4, i, k;
	uint64_t t;
	uint32_t carry, borrow, top;

	for (i = 0; i < limbs; i++)
		n[i] = ld_be32(n_be + bytes - 4 * (i + 1));
	/* r = 2^k - n: the two's complement of n in k bits. */
	for (i = 0, borrow = 0; i < limbs; i++) {
		t = (uint64_t)0 - n[i] - borrow;
		r[i] = (uint32_t)t;
		borrow = (uint32_t)(t >> 32) & 1;
	}
	for (k = 0; k < 8 * bytes; k++) {
		top = r[limbs - 1] >> 31;
		for (i = limbs; i-- > 1;)
			r[i] = r[i] << 1 | r[i - 1] >> 31;
		r[0] <<= 1;
		/* 2r < 2n: subtract n once if 2r >= n (top is the bit past k). */
		for (i = limbs, carry = top; i-- > 0 && !carry;) {
			if (r[i] != n[i]) {
				carry = r[i] > n[i];
				break;
			}
			if (!i)
				carry = 1;
		}
		if (carry) {
			for (i = 0, borrow = 0; i < limbs; i++) {
				t = (uint64_t)r[i] - n[i] - borrow;
				r[i] = (uint32_t)t;
				borrow = (uint32_t)(t >> 32) & 1;
			}
		}
	}
	for (i = 0; i < limbs; i++)
		st_be32(rr_be + bytes - 4 * (i + 1), r[i]);
}

static enum vfit_result rsa_key(struct vfit_preload_key *key, unsigned int bits,
				const uint8_t *pub, size_t pub_len, const char **field)
{
	const uint8_t *p = pub, *end = pub + pub_len, *n, *e;
	size_t len, n_len, e_len, i;

	*field = "public-key";
	if (!der_item(&p, end, 0x30, &len) || p + len != end || !der_uint(&p, end, &n, &n_len) ||
	    !der_uint(&p, end, &e, &e_len) || p != end)
		return VFIT_ERR_KEY;
	if (n_len * 8 != bits || bits > VFIT_RSA_MAX_BITS || bits % 64 || e_len > 8 ||
	    !(n[n_len - 1] & 1))
		return VFIT_ERR_KEY;
	memcpy(key->n, n, n_len);
	key->rsa_key.num_bits = bits;
	key->rsa_key.exponent = 0;
	for (i = 0; i < e_len; i++)
		key->rsa_key.exponent = key->rsa_key.exponent << 8 | e[i];
	key->rsa_key.n0inv = n0_inverse(ld_be32(n + n_len - 4));
	r_squared(n, n_len, key->rr);
	key->rsa_key.modulus = key->n;
	key->rsa_key.rr = key->rr;
	*field = NULL;
	return VFIT_OK;
}

enum vfit_result vfit_preload_key_make(const char *algo, const char *padding, uint32_t sig_size,
				       bool mandatory, const uint8_t *pub, size_t pub_len,
				       struct vfit_preload_key *key, const char **field)
{
	const char *comma, *ff = NULL;
	unsigned int bits = 0;
	enum vfit_ec_curve curve = VFIT_EC_NONE;
	size_t cb;
	enum vfit_result r;

	if (!field)
		field = &ff;
	*field = NULL;
	if (!algo || !key || !pub)
		return VFIT_ERR_PARAM;
	memset(key, 0, sizeof(*key));
	key->mandatory = mandatory;
	key->sig_size = sig_size;
	*field = "algo-name";
	comma = strchr(algo, ',');
	if (!comma)
		return VFIT_ERR_UNSUPPORTED;
	key->hash = vfit_hash_lookup(algo, (size_t)(comma - algo));
	if (key->hash != VFIT_HASH_SHA1 && key->hash != VFIT_HASH_SHA256 &&
	    key->hash != VFIT_HASH_SHA384 && key->hash != VFIT_HASH_SHA512)
		return VFIT_ERR_UNSUPPORTED;
	comma++;
	if (!strcmp(comma, "rsa1024"))
		bits = 1024;
	else if (!strcmp(comma, "rsa2048"))
		bits = 2048;
	else if (!strcmp(comma, "rsa3072"))
		bits = 3072;
	else if (!strcmp(comma, "rsa4096"))
		bits = 4096;
	else if (!strcmp(comma, "ecdsa256"))
		curve = vfit_ecdsa_curve("prime256v1");
	else if (!strcmp(comma, "ecdsa384"))
		curve = vfit_ecdsa_curve("secp384r1");
	if (!bits && curve == VFIT_EC_NONE)
		return VFIT_ERR_UNSUPPORTED;
	key->rsa = bits != 0;
	*field = "padding-name";
	if (padding && strcmp(padding, "pkcs-1.5") && (strcmp(padding, "pss") || !key->rsa))
		return VFIT_ERR_UNSUPPORTED;
	key->pss = padding && !strcmp(padding, "pss");
	*field = "signature-size";
	cb = vfit_ecdsa_curve_bytes(curve);
	if (sig_size != (key->rsa ? bits / 8 : 2 * cb))
		return VFIT_ERR_SIG_LENGTH;
	if (key->rsa)
		return rsa_key(key, bits, pub, pub_len, field);
	*field = "public-key";
	if (pub_len != 1 + 2 * cb || pub[0] != 4)
		return VFIT_ERR_KEY;
	r = vfit_ecdsa_key_load(curve, pub + 1, cb, pub + 1 + cb, cb, &key->ec_key);
	if (!r)
		*field = NULL;
	return r;
}

static const char *prop_str(const void *ctl, int node, const char *name, bool *bad)
{
	int len;
	const char *s = fdt_getprop(ctl, node, name, &len);

	*bad = s && (len < 2 || s[len - 1] || memchr(s, 0, (size_t)len - 1));
	return s;
}

enum vfit_result vfit_preload_key_load(const void *ctl, struct vfit_preload_key *key,
				       struct vfit_diag *diag)
{
	const char *algo, *padding, *mandatory, *field = NULL;
	const fdt32_t *size;
	const uint8_t *pub;
	int node, len, pub_len;
	bool bad;
	enum vfit_result r;

	if (!ctl || !key)
		return VFIT_ERR_PARAM;
	node = fdt_path_offset(ctl, VFIT_PRELOAD_PATH);
	if (diag) {
		diag->node = node < 0 ? -1 : node;
		diag->prop = NULL;
	}
	if (node < 0)
		return VFIT_ERR_MISSING;
	algo = prop_str(ctl, node, "algo-name", &bad);
	field = "algo-name";
	/* A node lacking a property is a broken policy, never "no pre-load". */
	r = !algo ? VFIT_ERR_CONTROL : bad ? VFIT_ERR_FORMAT : VFIT_OK;
	padding = prop_str(ctl, node, "padding-name", &bad);
	if (!r && bad) {
		field = "padding-name";
		r = VFIT_ERR_FORMAT;
	}
	mandatory = prop_str(ctl, node, "mandatory", &bad);
	if (!r && (bad || (mandatory && strcmp(mandatory, "yes") && strcmp(mandatory, "no")))) {
		field = "mandatory";
		r = VFIT_ERR_FORMAT;
	}
	size = fdt_getprop(ctl, node, "signature-size", &len);
	if (!r && (!size || len != 4)) {
		field = "signature-size";
		r = size ? VFIT_ERR_FORMAT : VFIT_ERR_CONTROL;
	}
	pub = fdt_getprop(ctl, node, "public-key", &pub_len);
	if (!r && !pub) {
		field = "public-key";
		r = VFIT_ERR_CONTROL;
	}
	if (!r)
		r = vfit_preload_key_make(algo, padding, fdt32_to_cpu(*size),
					  mandatory && !strcmp(mandatory, "yes"), pub,
					  (size_t)pub_len, key, &field);
	if (r && diag)
		diag->prop = field;
	return r;
}

static enum vfit_result verify(const struct vfit_preload_key *key, const uint8_t *msg,
			       size_t len, const uint8_t *sig)
{
	uint8_t digest[VFIT_HASH_MAX_SIZE];

	if (vfit_hash(key->hash, msg, len, digest))
		return VFIT_ERR_UNSUPPORTED;
	if (!key->rsa)
		return vfit_ecdsa_verify(&key->ec_key, digest, vfit_hash_size(key->hash), sig,
					 key->sig_size);
	if (key->pss)
		return vfit_rsa_verify_pss(&key->rsa_key, key->hash, key->hash, VFIT_PSS_SALT_ANY,
					   digest, sig, key->sig_size);
	return vfit_rsa_verify_pkcs1(&key->rsa_key, key->hash, digest, sig, key->sig_size);
}

static enum vfit_result fail(struct vfit_preload_result *res, const char *field,
			     enum vfit_result r)
{
	res->field = field;
	return res->result = r;
}

enum vfit_result vfit_preload_check(const struct vfit_preload_key *key, const uint8_t *buf,
				    size_t len, struct vfit_preload_result *res)
{
	uint8_t sha[32];
	size_t i, sig = key ? key->sig_size : 0;
	enum vfit_result r;

	if (!res)
		return VFIT_ERR_PARAM;
	memset(res, 0, sizeof(*res));
	if (!key || (!buf && len))
		return fail(res, NULL, VFIT_ERR_PARAM);
	if (len < VFIT_PRELOAD_HDR || ld_be32(buf) != VFIT_PRELOAD_MAGIC) {
		res->image_len = len;
		return key->mandatory ? fail(res, "magic", VFIT_ERR_NO_SIGNATURE)
				      : (res->result = VFIT_OK);
	}
	res->present = true;
	res->version = ld_be32(buf + 4);
	res->header_size = ld_be32(buf + 8);
	res->image_size = ld_be32(buf + 12);
	res->offset_img_sig = ld_be32(buf + 16);
	if (res->version != 1)
		return fail(res, "version", VFIT_ERR_FORMAT);
	if (res->header_size > len)
		return fail(res, "header_size", VFIT_ERR_TRUNCATED);
	if (res->header_size < VFIT_PRELOAD_HDR + 2 * sig)
		return fail(res, "header_size", VFIT_ERR_FORMAT);
	if (res->image_size > len - res->header_size)
		return fail(res, "image_size", VFIT_ERR_TRUNCATED);
	if (res->offset_img_sig != VFIT_PRELOAD_HDR + sig)
		return fail(res, "offset_img_sig", VFIT_ERR_FORMAT);
	if (ld_be32(buf + 20))
		return fail(res, "flags", VFIT_ERR_FORMAT);
	if (ld_be32(buf + 24) || ld_be32(buf + 28))
		return fail(res, "reserved", VFIT_ERR_FORMAT);
	for (i = VFIT_PRELOAD_HDR + 2 * sig; i < res->header_size; i++)
		if (buf[i])
			return fail(res, "padding", VFIT_ERR_FORMAT);
	/* bootm preload's order: the header, the hash of the image signature, the image. */
	r = verify(key, buf, VFIT_PRELOAD_HDR, buf + VFIT_PRELOAD_HDR);
	if (r)
		return fail(res, "header signature", r);
	if (vfit_hash(VFIT_HASH_SHA256, buf + res->offset_img_sig, sig, sha))
		return fail(res, "sha256_img_sig", VFIT_ERR_UNSUPPORTED);
	if (memcmp(sha, buf + 32, sizeof(sha)))
		return fail(res, "sha256_img_sig", VFIT_ERR_HASH);
	r = verify(key, buf + res->header_size, res->image_size, buf + res->offset_img_sig);
	if (r)
		return fail(res, "image signature", r);
	res->image_offset = res->header_size;
	res->image_len = res->image_size;
	return res->result = VFIT_OK;
}
