/* SPDX-License-Identifier: BSD-3-Clause */
/* libvfit-host: the build-machine side (OpenSSL 3, libfdt, dtc). */
#ifndef VFIT_HOST_H
#define VFIT_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "vfit/vfit.h"

/*
 * Host errors carry the exit status the CLI contract asks for
 * (1: bad input / verification failure, 2: usage or I/O) and one line of
 * text that names the file, node and property.
 */
struct vfit_err {
	int status;
	char msg[512];
};

/* Sets e (first error wins) and returns -1, so callers can `return vfit_err_set(...)`. */
int vfit_err_set(struct vfit_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define VFIT_EXIT_REJECT 1
#define VFIT_EXIT_USAGE 2

/* ---- keys (host/keys.c) ---------------------------------------------- */

/* An RSA public key in U-Boot's pre-processed form (spec section 4.2). */
struct vfit_rsa_pub {
	uint32_t num_bits;
	uint32_t n0inv;                          /* -n^-1 mod 2^32 */
	uint64_t exponent;
	uint8_t modulus[VFIT_RSA_MAX_BITS / 8];  /* num_bits/8 bytes, big-endian */
	uint8_t rr[VFIT_RSA_MAX_BITS / 8];       /* 2^(2*num_bits) mod n, same form */
};

/* Pre-processes an OpenSSL RSA public (or private) key. */
int vfit_rsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_rsa_pub *pub, struct vfit_err *e);
/* The device library's view of pub (pointers into pub). */
void vfit_rsa_pub_key(const struct vfit_rsa_pub *pub, struct vfit_rsa_key *key);
/*
 * Writes /signature/key-<name> into an FDT opened for writing, exactly as
 * mkimage -K does (property order, cells, algo, optional required), replacing
 * an existing node's properties in place.  Returns 0 or a negative libfdt
 * error (-FDT_ERR_NOSPACE: grow the blob and retry).
 */
int vfit_rsa_keynode_write(void *fdt, const char *name, const struct vfit_rsa_pub *pub,
			   const char *algo, const char *required);

#endif
