/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of U-Boot's host tools that vfit answers for (host/tools/):
 * dumpimage, mkenvimage, mkimage without -f (legacy images) and -l
 * (listings, also vfit info's).  mkimage with a FIT is in mkimage.h,
 * fit_check_sign is `vfit verify`.
 */
#ifndef VFIT_HOST_TOOLS_H
#define VFIT_HOST_TOOLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vfit-host/err.h"

/* One dumpimage run: -l lists, else component pos of image goes to out. */
struct vfit_dump {
	const char *image;   /* the image file */
	const char *type;    /* -T short name: flat_dt for a FIT, a legacy type; NULL if absent */
	unsigned long pos;   /* -p: index under /images, or in a multi-file image's table */
	const char *out;     /* -o */
	int list;            /* -l */
};
/*
 * Lists (as mkimage -l) or extracts, byte for byte as dumpimage does,
 * with every offset and size checked against the file.  Listings and the
 * "Extracted:" lines go to f.  0, or -1 with e set.
 */
int vfit_dumpimage(const struct vfit_dump *d, FILE *f, struct vfit_err *e);

/* mkenvimage's parameters: the partition size and the layout of its first bytes. */
struct vfit_envimage {
	size_t size;         /* -s: whole image, CRC and flag byte included */
	int redundant;       /* -r: a flag byte (1) after the CRC */
	int big_endian;      /* -b: the CRC stored big-endian */
	uint8_t pad;         /* -p: fill byte (0xff) */
};
/* The smallest -s: CRC, flag byte, and room for the two closing NULs. */
#define VFIT_ENV_MIN(redundant) (4u + ((redundant) ? 1u : 0u) + 2u)
/*
 * Builds the size-byte image of a key=value text into out, as mkenvimage
 * does: lines become NUL-terminated entries, empty lines and lines that
 * start with '#' are dropped, a backslash before a newline keeps the
 * newline in the value.  -1 with e set when the text does not fit.
 */
int vfit_envimage_build(const struct vfit_envimage *p, const char *text, size_t len,
			uint8_t *out, struct vfit_err *e);
/*
 * The whole of mkenvimage: the text from in (NULL or "-": standard input),
 * the image to out (NULL or "-": standard output; a new file gets mode
 * 0660 less the umask, as mkenvimage creates it), written atomically.
 */
int vfit_envimage_file(const struct vfit_envimage *p, const char *in, const char *out,
		       struct vfit_err *e);

/*
 * Listing of a FIT or legacy image exactly as `mkimage -l` prints it, or
 * with info != 0 what `vfit info` adds: signature status and signer,
 * hashed nodes, external data, rollback index, unsigned references.
 */
int vfit_image_list_file(FILE *f, const char *path, int info, struct vfit_err *e);

/*
 * The first image the configuration signature at sig_path leaves out of
 * its hashed-nodes although the configuration references it (mkimage's
 * sign-images rule; U-Boot HEAD and vfit check every referenced image).
 * 1 with its name and the referencing property, 0 if none.
 */
int vfit_fit_sign_gap(const void *fit, size_t len, const char *sig_path, char *img, size_t isize,
		      char *prop, size_t psize);

/* A U-Boot legacy image (uImage, boot script, multi-file image): mkimage without -f. */
struct vfit_legacy {
	const char *arch, *os, *type, *comp;  /* short names (-A -O -T -C) */
	uint32_t load, entry;     /* -a, -e */
	int entry_set;            /* -e given; else entry = load (+ 64 with -x) */
	const char *name;         /* -n: at most 32 bytes are kept */
	const char *datafiles;    /* -d FILE, or FILE:FILE:... for multi and script */
	int xip;                  /* -x: the file starts with 64 bytes of 0xff for the header */
	int no_data;              /* -s: header only */
};
/* Writes the image atomically, byte for byte as mkimage does. */
int vfit_legacy_write(const struct vfit_legacy *l, const char *out, struct vfit_err *e);

#endif
