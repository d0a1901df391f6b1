/* SPDX-License-Identifier: BSD-3-Clause */
/* U-Boot's short and long names of image types, architectures, OSes and compressions. */
#ifndef VFIT_NAMES_H
#define VFIT_NAMES_H

enum vfit_name_kind {
	VFIT_NAME_TYPE,
	VFIT_NAME_ARCH,
	VFIT_NAME_OS,
	VFIT_NAME_COMP,
};

/* The long name of a short one ("kernel" -> "Kernel Image"); NULL if unknown. */
const char *vfit_name_find(enum vfit_name_kind kind, const char *short_name);
/* As vfit_name_find(), falling back to "Unknown <kind>". */
const char *vfit_name_long(enum vfit_name_kind kind, const char *short_name);

#endif
