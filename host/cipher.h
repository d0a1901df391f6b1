/* SPDX-License-Identifier: BSD-3-Clause */
/* mkimage's encryption pass (host/cipher.c); not installed. */
#ifndef VFIT_HOST_CIPHER_H
#define VFIT_HOST_CIPHER_H

#include "mkimage_int.h"

/*
 * Encrypts every image of fit that has a `cipher` node and no
 * data-size-unciphered yet, as mkimage -k does (fit-format.md §11.1): key
 * (and IV) from KEYDIR/<hint>.bin, a random IV into the cipher node when
 * there is no iv-name-hint, AES-CBC with PKCS#7 padding in place of data,
 * data-size-unciphered, and with keydtb (-K) the key node
 * /cipher/key-<algo>-<key>[-<iv>].  Nothing happens without keydir.  Runs
 * before the image pass, so hashes and signatures cover the ciphertext.
 */
int vfit_cipher_images(const char *name, struct vfit_fdtbuf *fit, const char *keydir,
		       struct vfit_fdtbuf *keydtb, struct vfit_err *e);

#endif
