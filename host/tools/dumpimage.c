/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dumpimage (U-Boot v2023.01 and HEAD): -l lists an image as mkimage -l
 * does; -T TYPE -p N -o FILE extracts one component.  -T flat_dt reads a
 * FIT and writes the N-th image under /images (its data, or its external
 * data-offset/data-position bytes) after printing "Extracted:" and that
 * image's listing; a legacy type reads a legacy image and writes file N of
 * a multi-file image, else the whole data (a script's size table
 * included), printing nothing.  Unlike dumpimage, every offset and size is
 * checked against the file first, and the output is written atomically.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libfdt.h>

#include "vfit-host/fdtbuf.h"
#include "vfit-host/io.h"
#include "vfit-host/names.h"
#include "vfit-host/tools.h"
#include "tools_int.h"

enum dump_kind { DUMP_ANY, DUMP_FIT, DUMP_LEGACY };

/* Which reader -T selects, as dumpimage's image handlers split them. */
static int dump_kind(const char *type, enum dump_kind *k, struct vfit_err *e)
{
	const struct vfit_name *n;

	*k = DUMP_ANY;
	if (!type)
		return 0;
	n = vfit_name_get(VFIT_NAME_TYPE, type);
	if (!n || !strcmp(n->s, "invalid"))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "unknown image type '%s' (-T)", type);
	if (!strcmp(n->s, "flat_dt")) {
		*k = DUMP_FIT;
		return 0;
	}
	if (n->use == VFIT_TYPE_LEGACY) {
		*k = DUMP_LEGACY;
		return 0;
	}
	return vfit_err_set(e, VFIT_EXIT_USAGE, "image type '%s' (%s): vfit reads FITs (-T "
			    "flat_dt) and legacy images only; use U-Boot's dumpimage", type, n->l);
}

/*
 * The payload of an image node: data, or data-size bytes at data-position
 * (from the start of the file) or data-offset (from the first 4-byte
 * boundary after the FDT), inside the file.
 */
static int payload(const char *name, const char *fit, size_t len, int node, const char **p,
		   size_t *size, struct vfit_err *e)
{
	uint64_t base = ((uint64_t)fdt_totalsize(fit) + 3) & ~(uint64_t)3;
	uint32_t off, n;
	int has_pos, l;

	has_pos = !vfit_fdt_u32(fit, node, "data-position", &off);
	if (has_pos)
		base = 0;
	else if (vfit_fdt_u32(fit, node, "data-offset", &off)) {
		*p = fdt_getprop(fit, node, "data", &l);
		if (!*p)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no data", name,
					    vfit_node_path(fit, node));
		*size = (size_t)l;
		return 0;
	}
	if (vfit_fdt_u32(fit, node, "data-size", &n))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: data-size missing", name,
				    vfit_node_path(fit, node));
	if (base + off + n > len)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: %s %u + data-size %u runs past the "
				    "end of the file (%zu bytes)", name, vfit_node_path(fit, node),
				    has_pos ? "data-position" : "data-offset", off, n, len);
	*p = fit + base + off;
	*size = n;
	return 0;
}

/* The pos-th child of /images: its data, after dumpimage's lines. */
static int fit_part(const struct vfit_dump *d, const char *fit, size_t len, FILE *f,
		    const char **p, size_t *size, struct vfit_err *e)
{
	int images, node;
	unsigned long i = 0;

	if (len < sizeof(struct fdt_header) || fdt_magic(fit) != FDT_MAGIC)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (-T flat_dt)", d->image);
	if (vfit_fdt_valid(d->image, fit, len, e))
		return -1;
	images = fdt_path_offset(fit, "/images");
	if (images < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (no /images)", d->image);
	fdt_for_each_subnode(node, fit, images) {
		if (i == d->pos)
			break;
		i++;
	}
	if (node < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: no image %lu under /images (it holds %lu)",
				    d->image, d->pos, i);
	if (payload(d->image, fit, len, node, p, size, e))
		return -1;
	fprintf(f, "Extracted:\n");
	vfit_fit_print_image(f, fit, node, (int)d->pos);
	return 0;
}

/* dumpimage creates the file 0600; an existing one keeps its mode. */
static int write_out(const char *out, const void *p, size_t len, struct vfit_err *e)
{
	struct vfit_out o = { 0 };
	struct stat st;

	if (stat(out, &st))
		o.mode = 0600;
	return vfit_out_file(&o, out, p, len, e);
}

static int extract(const struct vfit_dump *d, enum dump_kind k, const char *buf, size_t len,
		   FILE *f, struct vfit_err *e)
{
	const uint8_t *lp = NULL;
	const char *p = NULL;
	size_t size = 0;

	if (!d->out)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "no output file (-o FILE)");
	if (k == DUMP_FIT) {
		if (fit_part(d, buf, len, f, &p, &size, e))
			return -1;
		return write_out(d->out, p, size, e);
	}
	if (vfit_legacy_check(d->image, (const uint8_t *)buf, len, e) ||
	    vfit_legacy_part(d->image, (const uint8_t *)buf, d->pos, &lp, &size, e))
		return -1;
	return write_out(d->out, lp, size, e);
}

int vfit_dumpimage(const struct vfit_dump *d, FILE *f, struct vfit_err *e)
{
	enum dump_kind k;
	int legacy, r;
	char *buf;
	size_t len;

	if (dump_kind(d->type, &k, e))
		return -1;
	if (!d->list && k == DUMP_ANY)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "extracting needs the image type: -T flat_dt "
				    "for a FIT, -T kernel (or multi, script...) for a legacy image");
	if (vfit_file_read(d->image, 0, &buf, &len, e))
		return -1;
	legacy = len >= 4 && !memcmp(buf, "\x27\x05\x19\x56", 4);
	if (k != DUMP_ANY && legacy != (k == DUMP_LEGACY))
		r = vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a %s (-T %s)", d->image,
				 k == DUMP_FIT ? "FIT" : "legacy image", d->type);
	else if (d->list)
		r = vfit_image_list_file(f, d->image, 0, e);
	else
		r = extract(d, k, buf, len, f, e);
	free(buf);
	return r;
}
