/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * U-Boot's names of image types, architectures, OSes and compressions:
 * the short form a FIT or the mkimage command line uses, the long form
 * listings print, and the number a legacy image header stores
 * (host/core/names.c).
 */
#ifndef VFIT_HOST_NAMES_H
#define VFIT_HOST_NAMES_H

#include <stdio.h>

enum vfit_name_kind {
	VFIT_NAME_TYPE,
	VFIT_NAME_ARCH,
	VFIT_NAME_OS,
	VFIT_NAME_COMP,
};

/* What vfit mkimage can do with an image type. */
enum vfit_type_use {
	VFIT_TYPE_FIT,      /* only inside a FIT (flat_dt is the FIT itself) */
	VFIT_TYPE_LEGACY,   /* a legacy image vfit builds (also usable in a FIT) */
	VFIT_TYPE_SOC,      /* a SoC boot-ROM format that needs U-Boot's own tool */
};

struct vfit_name {
	const char *s;      /* short name */
	const char *l;      /* long name */
	int id;             /* number in a legacy header */
	int use;            /* enum vfit_type_use (types only) */
};

/* Is this a short name U-Boot knows ("arm64", "kernel", "gzip", ...)? */
int vfit_name_known(enum vfit_name_kind kind, const char *name);
/* mkimage's "Invalid ..., supported are:" table: every short and long name. */
void vfit_name_print_all(FILE *f, enum vfit_name_kind kind);
/* The entry for a short name; NULL if unknown. */
const struct vfit_name *vfit_name_get(enum vfit_name_kind kind, const char *short_name);
/* The first entry with this header number; NULL if none. */
const struct vfit_name *vfit_name_by_id(enum vfit_name_kind kind, int id);
/* The long name of a short one ("kernel" -> "Kernel Image"); NULL if unknown. */
const char *vfit_name_find(enum vfit_name_kind kind, const char *short_name);
/* As vfit_name_find(), falling back to "Unknown <kind>". */
const char *vfit_name_long(enum vfit_name_kind kind, const char *short_name);
/* The long name of a header number, falling back to "Unknown <kind>". */
const char *vfit_name_long_id(enum vfit_name_kind kind, int id);

#endif
