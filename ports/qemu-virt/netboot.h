/* SPDX-License-Identifier: BSD-3-Clause */
/* Network recovery (netboot.c): when the ROM allows it, and the flow's ops that fetch it. */
#ifndef PORT_NETBOOT_H
#define PORT_NETBOOT_H

#include "vfit/boot.h"

enum netboot {
	NETBOOT_OFF,            /* the ROM turned it off */
	NETBOOT_FALLBACK,       /* only when nothing on the disk verified */
	NETBOOT_NOW,            /* before the disk: asked for, or the ROM's "first" */
};

/* Reads the ROM's /config and the console key (its window first); says what it decided. */
enum netboot netboot_when(void);

/* ops, except that the recovery FIT is fetched over the network (the others delegate). */
const struct vfit_boot_ops *netboot_ops(const struct vfit_boot_ops *ops);

#endif
