/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of encrypted FIT images: decryption for checks (host/verify/decrypt.c). */
#ifndef VFIT_HOST_CIPHER_H
#define VFIT_HOST_CIPHER_H

#include <stddef.h>
#include <stdio.h>

#include "vfit/fit.h"
#include "vfit-host/err.h"

/*
 * After vfit_verify() with VFIT_VERIFY_ALLOW_CIPHER accepted fit: every
 * image of the configuration that has a cipher node is decrypted with its
 * key from keydtb (the control DTB U-Boot would boot with), one line each
 * on f ("   Decrypting Data ... OK" as U-Boot prints it, then what was
 * used); with dir, each image's payload (plaintext where encrypted) is
 * written to dir/<image name>, all files or none.  0, or -1 with e set
 * (status 1 for a bad cipher or key node, 2 for I/O).
 */
int vfit_decrypt_images(FILE *f, const struct vfit_verify_result *res, const void *fit,
			const char *keydtb_path, const char *dir, struct vfit_err *e);

/* vfit info's line for an encrypted image (nothing for others). */
void vfit_list_cipher(FILE *f, const void *fit, int img);

#endif
