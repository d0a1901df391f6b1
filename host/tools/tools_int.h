/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the files of host/tools/ only: the listing formats (print.c)
 * and the legacy image's header (legacy.c), for list.c and dumpimage.c.
 */
#ifndef VFIT_TOOLS_INT_H
#define VFIT_TOOLS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vfit-host/err.h"

#define VFIT_LEGACY_HDR 64
#define VFIT_LEGACY_MAGIC 0x27051956u

/* "Tue Nov 14 22:13:20 2023" (local time, as ctime()), after label. */
void vfit_print_time(FILE *f, const char *label, uint32_t t);
/* "N Bytes = x.xx KiB = y.yy MiB". */
void vfit_print_size(FILE *f, uint32_t size);
/* Header magic, header CRC, size and data CRC of a legacy image in memory. */
int vfit_legacy_check(const char *name, const uint8_t *p, size_t len, struct vfit_err *e);
/* File pos of a checked multi-file image, or the whole data of another type. */
int vfit_legacy_part(const char *name, const uint8_t *p, unsigned long pos, const uint8_t **data,
		     size_t *len, struct vfit_err *e);
/* `mkimage -l` of a checked legacy image. */
void vfit_legacy_print(FILE *f, const uint8_t *p);
/* The lines `mkimage -l` prints for the image node at node, the idx-th under /images. */
void vfit_fit_print_image(FILE *f, const void *fit, int node, int idx);

#endif
