/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pre-load signatures (U-Boot's IMAGE_PRE_LOAD_SIG, `bootm preload`): a
 * header in front of an image, checked before anything of the image is
 * parsed.  Layout (binman's pre-load entry, all fields big-endian):
 *
 *   0  magic "UBSH" (0x55425348)   4  version        8  header_size
 *  12  image_size                  16 offset_img_sig  20 flags
 *  24  reserved0                   28 reserved1       32 SHA-256 of the image signature
 *  64  signature of bytes 0..63    offset_img_sig: signature of the image
 *  ... zeros up to header_size, then image_size bytes of image.
 *
 * The key is the control FDT's /image/pre-load/sig node: algo-name
 * ("sha256,rsa2048", ...), padding-name ("pkcs-1.5" or "pss"),
 * signature-size, public-key (DER RSAPublicKey, or an EC point 04||x||y),
 * mandatory = "yes".  Nothing allocates; the key struct is caller-owned.
 */
#ifndef VFIT_PRELOAD_H
#define VFIT_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/ecdsa.h"
#include "vfit/fit.h"
#include "vfit/hash.h"
#include "vfit/result.h"
#include "vfit/rsa.h"

#define VFIT_PRELOAD_MAGIC 0x55425348u
#define VFIT_PRELOAD_HDR 64
#define VFIT_PRELOAD_PATH "/image/pre-load/sig"

struct vfit_preload_key {
	enum vfit_hash hash;
	bool rsa;                   /* else ECDSA */
	bool pss;
	bool mandatory;             /* an image without the header is refused */
	uint32_t sig_size;
	struct vfit_rsa_key rsa_key;                /* points into n and rr */
	uint8_t n[VFIT_RSA_MAX_BITS / 8], rr[VFIT_RSA_MAX_BITS / 8];
	struct vfit_ecdsa_key ec_key;
};

/*
 * A key from its parts: algo "HASH,rsaBITS" or "HASH,ecdsa256|384" (HASH
 * sha1/256/384/512), padding "pkcs-1.5" or "pss" (NULL: pkcs-1.5; RSA
 * only), the signature size, which must be the algorithm's, and the
 * public key: strict DER RSAPublicKey of exactly BITS bits, or the
 * uncompressed EC point.  Returns VFIT_OK with *key filled, else
 * VFIT_ERR_UNSUPPORTED, VFIT_ERR_KEY or VFIT_ERR_SIG_LENGTH, and `field`
 * (if given) names what is wrong.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_preload_key_make(const char *algo, const char *padding, uint32_t sig_size,
				       bool mandatory, const uint8_t *pub, size_t pub_len,
				       struct vfit_preload_key *key, const char **field);

/*
 * Loads the key of a control FDT (which passed vfit_fdt_check()) at
 * VFIT_PRELOAD_PATH into *key and returns VFIT_OK; it returns
 * VFIT_ERR_MISSING only when there is no such node
 * (U-Boot then checks nothing: a caller may boot without a header), and
 * for a node that exists, VFIT_ERR_CONTROL when a property is absent and
 * other errors, with diag at the node and property.
 * Every property must be exactly what it should: strings NUL-terminated,
 * signature-size one cell, mandatory absent, "yes" or "no".
 */
VFIT_MUST_CHECK
enum vfit_result vfit_preload_key_load(const void *ctl, struct vfit_preload_key *key,
				       struct vfit_diag *diag);

struct vfit_preload_result {
	enum vfit_result result;
	bool present;               /* the buffer starts with the magic */
	uint32_t version, header_size, image_size, offset_img_sig;
	size_t image_offset;        /* where the image starts: header_size, or 0 without header */
	size_t image_len;           /* image_size, or len without header */
	const char *field;          /* on failure: the field or check ("header_size", ...) */
};

/*
 * Checks buf[0..len) as `bootm preload` does, in its order (header
 * signature, SHA-256 of the image signature, image signature) and
 * stricter: version 1, header_size within len and holding both
 * signatures, image_size within what follows it, offset_img_sig right
 * after the header signature (binman's layout), flags, reserved words and
 * padding zero.  Without the magic: VFIT_OK with present false (the
 * whole buffer is the image) unless the key is mandatory
 * (VFIT_ERR_NO_SIGNATURE).  Returns VFIT_OK when the header verified (or
 * is absent and optional), else why not; res is filled in any case and
 * res->result is the same value.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_preload_check(const struct vfit_preload_key *key, const uint8_t *buf,
				    size_t len, struct vfit_preload_result *res);

#endif
