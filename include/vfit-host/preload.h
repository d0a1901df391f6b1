/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pre-load signature headers on the host (host/preload/): making them as
 * binman's pre-load entry does, the control DTB's key node, and checking
 * a file as U-Boot's preload_check_sign does (with the device library).
 */
#ifndef VFIT_HOST_PRELOAD_H
#define VFIT_HOST_PRELOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vfit-host/err.h"
#include "vfit-host/fdtbuf.h"

struct vfit_preload_args {
	const char *key;          /* PEM private key (-k) */
	const char *algo;         /* "sha256,rsa2048" (default) ... */
	const char *padding;      /* "pkcs-1.5" (default) or "pss" */
	uint32_t header_size;     /* default 4096 */
	uint32_t version;         /* default 1 */
	const char *in, *out;     /* image in, header + image out */
	const char *keydest;      /* -K: control DTB to get /image/pre-load/sig */
	bool mandatory;           /* -m: mandatory = "yes" in that node */
};

/* vfit preload: OUT = header + IN, and the key node into -K; all files or none. */
int vfit_preload_make_file(const struct vfit_preload_args *a, struct vfit_err *e);

/*
 * preload_check_sign: FILE checked against the key in the PEM file
 * (private or public) as a mandatory pre-load key with algo and padding;
 * or, with ctl_dtb instead of pem, against its /image/pre-load/sig node.
 * Prints one line on f.  0 accepted, or -1 with e (status 1 rejected).
 */
int vfit_preload_check_file(FILE *f, const char *file, const char *pem, const char *algo,
			    const char *padding, const char *ctl_dtb, struct vfit_err *e);

/*
 * mkimage -k KEYDIR -K DTB, as U-Boot HEAD's (host/preload/preload_key.c):
 * when DTB has /image/pre-load/sig with key-name (and algo-name, else an
 * error), its public-key becomes KEYDIR/<key-name>.crt's public key.
 * Nothing otherwise.
 */
int vfit_preload_mkimage_key(const char *keydir, struct vfit_fdtbuf *keydtb, struct vfit_err *e);

#endif
