/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Encrypted FIT images (fit-format.md §11.1): an image's `cipher` node
 * names an AES-CBC key held in the control FDT's /cipher node, the
 * image's data is the ciphertext and `data-size-unciphered` the
 * plaintext length.  The hashes and signatures cover the ciphertext, so
 * decryption comes after vfit_verify() (with VFIT_VERIFY_ALLOW_CIPHER),
 * from the verified bytes into the image's own room.
 *
 * U-Boot's design, kept for compatibility: CBC without authentication of
 * its own (the FIT signature is the only integrity), and the key in clear
 * in the control FDT.
 */
#ifndef VFIT_CIPHER_H
#define VFIT_CIPHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/fit.h"
#include "vfit/result.h"

/* U-Boot's buffer for "/cipher/key-<algo>-<key>[-<iv>]" (boot/image-cipher.c). */
#define VFIT_CIPHER_PATH_MAX 128

struct vfit_cipher {
	const char *algo;           /* "aes128", "aes192" or "aes256" (points into the FIT) */
	const char *key_name;       /* key-name-hint */
	const char *iv_name;        /* iv-name-hint, or NULL */
	size_t key_len;             /* 16, 24 or 32 */
	const uint8_t *key;         /* the key property of the key node (in ctl) */
	const uint8_t *iv;          /* 16 bytes: the cipher node's iv, else the key node's */
	bool iv_in_fit;
	uint32_t plain_len;         /* data-size-unciphered */
	int key_node;               /* /cipher/key-... in ctl */
	bool err_in_control;        /* on failure: diag points into ctl, not the FIT */
};

/*
 * Returns the key length in bytes of a cipher algo name (exactly
 * aes128/aes192/aes256), else 0.
 */
size_t vfit_cipher_key_len(const char *algo, size_t len);

/*
 * Reads the `cipher` child of the image node and the image's
 * data-size-unciphered into *ci, and finds the key node in the
 * control FDT ctl as U-Boot does: /cipher/key-<algo>-<key-name-hint>,
 * with -<iv-name-hint> appended when the cipher node has one; the IV is
 * the cipher node's `iv` if present, else the key node's.  Every
 * property must be exactly what mkimage writes (strings NUL-terminated,
 * key of the algorithm's length, `key-len` if present equal to it, IV of
 * 16 bytes).  Returns VFIT_OK, VFIT_ERR_MISSING when the image has no
 * cipher node, else VFIT_ERR_FORMAT / VFIT_ERR_MISSING /
 * VFIT_ERR_UNSUPPORTED with diag at the node and property
 * (ci->err_in_control says which tree).  diag may be NULL.  ctl must have
 * passed vfit_control_check() or vfit_fdt_check().
 */
VFIT_MUST_CHECK
enum vfit_result vfit_cipher_find(const void *fit, int image, const void *ctl,
				  struct vfit_cipher *ci, struct vfit_diag *diag);

/*
 * Decrypts the verified ciphertext in[0..in_len) and writes exactly
 * ci->plain_len bytes to out (out_len: the room there, at least
 * plain_len); returns VFIT_OK.  in_len must be a non-zero multiple of 16
 * and exceed plain_len by at most one block (PKCS#7 padding as mkimage
 * writes it, or none), else it returns VFIT_ERR_DATA; the padding is
 * never looked at.  out may be
 * in (in place) or must not overlap it.  The key schedule is wiped before
 * returning.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_cipher_decrypt(const struct vfit_cipher *ci, const uint8_t *in,
				     size_t in_len, uint8_t *out, size_t out_len);

#endif
