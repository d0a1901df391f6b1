/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AES-128/192/256 (FIPS 197) and CBC mode (SP 800-38A), for the FIT
 * `cipher` nodes U-Boot's mkimage writes (fit-format.md §11.1).  The key
 * schedule lives in a caller-owned struct; nothing allocates, nothing is
 * global.  Wipe the schedule with vfit_aes_wipe() when done.
 */
#ifndef VFIT_AES_H
#define VFIT_AES_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/result.h"

#define VFIT_AES_BLOCK 16
#define VFIT_AES_MAX_KEY 32

struct vfit_aes_key {
	uint32_t rk[60];            /* round keys, 4 words per round, Nr + 1 rounds */
	unsigned int rounds;        /* 10, 12 or 14 */
};

/* Expands a 16-, 24- or 32-byte key into k; returns VFIT_OK, or VFIT_ERR_KEY for another length. */
VFIT_MUST_CHECK
enum vfit_result vfit_aes_init(struct vfit_aes_key *k, const uint8_t *key, size_t key_len);

void vfit_aes_encrypt_block(const struct vfit_aes_key *k, const uint8_t in[16], uint8_t out[16]);
void vfit_aes_decrypt_block(const struct vfit_aes_key *k, const uint8_t in[16], uint8_t out[16]);

/*
 * CBC over len bytes: returns VFIT_OK, or VFIT_ERR_PARAM when len is not
 * a multiple of 16.  out may be in (in place) or must not overlap it.  iv
 * is updated to the chaining value for the next call, so a long payload
 * can be done in pieces.
 */
VFIT_MUST_CHECK
enum vfit_result vfit_aes_cbc_decrypt(const struct vfit_aes_key *k, uint8_t iv[16],
				      const uint8_t *in, uint8_t *out, size_t len);
/* The same in the other direction; returns what vfit_aes_cbc_decrypt() does. */
VFIT_MUST_CHECK
enum vfit_result vfit_aes_cbc_encrypt(const struct vfit_aes_key *k, uint8_t iv[16],
				      const uint8_t *in, uint8_t *out, size_t len);

/* Clears the round keys (a store the compiler cannot drop). */
void vfit_aes_wipe(struct vfit_aes_key *k);

#endif
