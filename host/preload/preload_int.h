/* SPDX-License-Identifier: BSD-3-Clause */
/* Pre-load key nodes for mkimage -K (host/preload.c, host/preload_key.c); not installed. */
#ifndef VFIT_PRELOAD_INT_H
#define VFIT_PRELOAD_INT_H

#include "mkimage_int.h"

/* /image/pre-load/sig with algo-name, padding-name, signature-size, mandatory, public-key. */
int vfit_preload_key_node(struct vfit_fdtbuf *dtb, const char *algo, const char *padding,
			  uint32_t size, int mandatory, const uint8_t *pub, size_t pub_len);

/*
 * mkimage -k KEYDIR -K DTB, as U-Boot HEAD's: when DTB has
 * /image/pre-load/sig with key-name (and algo-name, else an error), its
 * public-key becomes KEYDIR/<key-name>.crt's public key.  Nothing otherwise.
 */
int vfit_preload_mkimage_key(const char *keydir, struct vfit_fdtbuf *keydtb, struct vfit_err *e);

#endif
