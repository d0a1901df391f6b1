/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * U-Boot legacy images: a 64-byte big-endian header (magic, header CRC,
 * time, data size, load, entry, data CRC, os, arch, type, compression,
 * 32-byte name) and the data.  Multi-file images and boot scripts start
 * their data with a table of sizes ended by a zero word; every file but
 * the last is padded to 4 bytes.  vfit writes exactly what mkimage
 * writes (the time is SOURCE_DATE_EPOCH when set) and lists the header
 * as `mkimage -l` does.  Nothing is compressed: -C only names what the
 * data already is.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/hash.h"
#include "vfit-host/io.h"
#include "vfit-host/mkimage.h"
#include "vfit-host/names.h"
#include "vfit-host/tools.h"
#include "tools_int.h"

#define MAX_FILES 64

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The input files of one image, read whole. */
struct inputs {
	int n;
	char *path[MAX_FILES];
	char *data[MAX_FILES];
	size_t len[MAX_FILES];
	uint8_t table[4 * (MAX_FILES + 1)];
};

static void inputs_free(struct inputs *in)
{
	int i;

	for (i = 0; i < in->n; i++) {
		free(in->path[i]);
		free(in->data[i]);
	}
	in->n = 0;
}

/* Header numbers for the names given; 0 or -1 with e set. */
static int header_ids(const struct vfit_legacy *l, const struct vfit_name **t, uint8_t ids[4],
		      struct vfit_err *e)
{
	static const char *const what[] = { "image type (-T)", "architecture (-A)", "OS (-O)",
					    "compression (-C)" };
	const char *names[4] = { l->type, l->arch, l->os, l->comp };
	const struct vfit_name *n;
	int k;

	for (k = 0; k < 4; k++) {
		n = vfit_name_get((enum vfit_name_kind)k, names[k]);
		if (!n || n->id < 0)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "unknown %s '%s' (-%c list shows them)",
					    what[k], names[k], "TAOC"[k]);
		ids[k] = (uint8_t)n->id;
		if (k == 0)
			*t = n;
	}
	if ((*t)->use == VFIT_TYPE_SOC)
		return vfit_err_set(e, VFIT_EXIT_USAGE,
				    "image type '%s' (%s) is a SoC boot image: vfit does not build "
				    "it (U-Boot's mkimage does)", l->type, (*t)->l);
	if ((*t)->use != VFIT_TYPE_LEGACY)
		return vfit_err_set(e, VFIT_EXIT_USAGE,
				    "image type '%s' (%s) cannot be a legacy image: put it in a FIT "
				    "(-f)", l->type, (*t)->l);
	/* HEAD's fdt_legacy is a legacy image whose header says flat_dt. */
	if (!strcmp((*t)->s, "fdt_legacy"))
		ids[0] = (uint8_t)vfit_name_get(VFIT_NAME_TYPE, "flat_dt")->id;
	return 0;
}

static int read_one(struct inputs *in, const char *path, size_t plen, const struct vfit_legacy *l,
		    struct vfit_err *e)
{
	size_t k;
	char *p;

	if (in->n == MAX_FILES)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-d: more than %d files", MAX_FILES);
	p = strndup(path, plen);
	if (!p)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-d: out of memory");
	in->path[in->n] = p;
	in->data[in->n] = NULL;
	in->n++;
	if (vfit_file_read(p, 0, &in->data[in->n - 1], &in->len[in->n - 1], e))
		return -1;
	/* -s writes only the header: OpenWrt's fake headers are made from an empty file. */
	if (!in->len[in->n - 1] && !l->no_data)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: empty file", p);
	if (!l->xip)
		return 0;
	/* XIP: the header takes the place of 64 bytes of erased (0xff) flash at the start. */
	if (in->len[in->n - 1] < VFIT_LEGACY_HDR)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: too small for XIP (under 64 bytes)", p);
	for (k = 0; k < VFIT_LEGACY_HDR; k++)
		if ((uint8_t)in->data[in->n - 1][k] != 0xff)
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: XIP needs the first 64 bytes erased (0xff)", p);
	return 0;
}

/* -d FILE, or FILE:FILE:... for multi and script. */
static int read_inputs(const struct vfit_legacy *l, int multi, struct inputs *in,
		       struct vfit_err *e)
{
	const char *s = l->datafiles, *colon;

	if (!multi)
		return read_one(in, s, strlen(s), l, e);
	if (l->xip)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-x: XIP is for single-file images, not '%s'",
				    l->type);
	for (;;) {
		colon = strchr(s, ':');
		if (read_one(in, s, colon ? (size_t)(colon - s) : strlen(s), l, e))
			return -1;
		if (!colon)
			return 0;
		s = colon + 1;
	}
}

/* Data layout: [table] file0 pad file1 pad ... fileN; the CRC over all of it. */
static int layout(const struct inputs *in, int multi, size_t skip, struct vfit_seg *seg,
		  int *nseg, uint64_t *size, uint32_t *crc)
{
	static const uint8_t zero[4];
	uint64_t off = VFIT_LEGACY_HDR;
	int i, k = 1;

	*crc = 0;
	if (multi) {
		seg[k].off = off;
		seg[k].p = in->table;
		seg[k].len = 4 * ((size_t)in->n + 1);
		*crc = vfit_crc32(*crc, seg[k].p, seg[k].len);
		off += seg[k++].len;
	}
	for (i = 0; i < in->n; i++) {
		seg[k].off = off;
		seg[k].p = in->data[i] + skip;
		seg[k].len = in->len[i] - skip;
		*crc = vfit_crc32(*crc, seg[k].p, seg[k].len);
		off += seg[k++].len;
		if (i + 1 < in->n && off % 4) {
			*crc = vfit_crc32(*crc, zero, 4 - off % 4);
			off += 4 - off % 4;
		}
	}
	if (off - VFIT_LEGACY_HDR > UINT32_MAX)
		return -1;
	*nseg = k;
	*size = off;
	return 0;
}

static void fill_header(uint8_t *h, const struct vfit_legacy *l, const uint8_t ids[4],
			uint32_t t, uint32_t size, uint32_t dcrc)
{
	uint32_t entry = l->entry_set ? l->entry : l->load + (l->xip ? VFIT_LEGACY_HDR : 0);

	memset(h, 0, VFIT_LEGACY_HDR);
	put32(h, VFIT_LEGACY_MAGIC);
	put32(h + 8, t);
	put32(h + 12, size);
	put32(h + 16, l->load);
	put32(h + 20, entry);
	put32(h + 24, dcrc);
	h[28] = ids[2];
	h[29] = ids[1];
	h[30] = ids[0];
	h[31] = ids[3];
	/* 32 bytes, not NUL-terminated when the name fills them. */
	if (l->name)
		memcpy(h + 32, l->name, strnlen(l->name, 32));
	put32(h + 4, vfit_crc32(0, h, VFIT_LEGACY_HDR));
}

int vfit_legacy_write(const struct vfit_legacy *l, const char *out, struct vfit_err *e)
{
	struct vfit_seg seg[2 + MAX_FILES];
	struct inputs in = { .n = 0 };
	const struct vfit_name *t = NULL;
	struct vfit_out o = { 0 };
	uint8_t hdr[VFIT_LEGACY_HDR], ids[4];
	uint64_t size = VFIT_LEGACY_HDR;
	uint32_t ts, dcrc = 0;
	int multi, nseg = 1, i, r = -1;

	/* mkimage writes a legacy image in place: a read-only one is refused. */
	if (header_ids(l, &t, ids, e) || vfit_check_writable(out, e))
		return -1;
	multi = !strcmp(t->s, "multi") || !strcmp(t->s, "script");
	if (!l->datafiles)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "a legacy '%s' image needs -d FILE", l->type);
	if (vfit_timestamp(&ts, e) || read_inputs(l, multi, &in, e))
		goto out;
	for (i = 0; i < in.n; i++) {
		if (in.len[i] > UINT32_MAX)
			goto toobig;
		put32(in.table + 4 * i, (uint32_t)in.len[i]);
	}
	put32(in.table + 4 * in.n, 0);
	/* -s: a header for data that is written elsewhere. */
	if (!l->no_data && layout(&in, multi, l->xip ? VFIT_LEGACY_HDR : 0, seg, &nseg, &size, &dcrc))
		goto toobig;
	fill_header(hdr, l, ids, ts, (uint32_t)(size - VFIT_LEGACY_HDR), dcrc);
	seg[0].off = 0;
	seg[0].p = hdr;
	seg[0].len = VFIT_LEGACY_HDR;
	if (!vfit_out_write(&o, out, seg, nseg, size, e))
		r = vfit_out_commit(&o, e);
	goto out;
toobig:
	vfit_err_set(e, VFIT_EXIT_REJECT, "%s: data larger than 4 GiB", out);
out:
	inputs_free(&in);
	return r;
}

/* ---- listing ---------------------------------------------------------- */

int vfit_legacy_check(const char *name, const uint8_t *p, size_t len, struct vfit_err *e)
{
	uint8_t h[VFIT_LEGACY_HDR];

	if (len < VFIT_LEGACY_HDR || get32(p) != VFIT_LEGACY_MAGIC)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a legacy image", name);
	memcpy(h, p, sizeof(h));
	memset(h + 4, 0, 4);
	if (vfit_crc32(0, h, sizeof(h)) != get32(p + 4))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: legacy image header CRC mismatch", name);
	if (get32(p + 12) > len - VFIT_LEGACY_HDR)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: legacy image truncated (%u data bytes, %zu in the file)",
				    name, get32(p + 12), len - VFIT_LEGACY_HDR);
	if (vfit_crc32(0, p + VFIT_LEGACY_HDR, get32(p + 12)) != get32(p + 24))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: legacy image data CRC mismatch", name);
	return 0;
}

/*
 * dumpimage's view of a checked image: the pos-th file of a multi-file
 * image (after the size table, each earlier file padded to 4 bytes), else
 * the whole data, a script's size table included.  The table, its end
 * marker and the file must lie inside the data size the header gives.
 */
int vfit_legacy_part(const char *name, const uint8_t *p, unsigned long pos, const uint8_t **data,
		     size_t *len, struct vfit_err *e)
{
	const struct vfit_name *t = vfit_name_by_id(VFIT_NAME_TYPE, p[30]);
	uint64_t size = get32(p + 12), off, n;
	const uint8_t *d = p + VFIT_LEGACY_HDR;

	*data = d;
	*len = (size_t)size;
	if (!t || strcmp(t->s, "multi"))
		return 0;
	for (n = 0; 4 * (n + 1) <= size && get32(d + 4 * n); n++)
		;
	if (4 * (n + 1) > size)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: multi-file size table runs past the "
				    "data (%llu bytes)", name, (unsigned long long)size);
	if (pos >= n)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: no file %lu (the image holds %llu)",
				    name, pos, (unsigned long long)n);
	off = 4 * (n + 1);
	for (n = 0; n < pos; n++)
		off += ((uint64_t)get32(d + 4 * n) + 3) & ~(uint64_t)3;
	if (off > size || get32(d + 4 * pos) > size - off)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: file %lu (%u bytes at %llu) runs past "
				    "the data (%llu bytes)", name, pos, get32(d + 4 * pos),
				    (unsigned long long)off, (unsigned long long)size);
	*data = d + off;
	*len = get32(d + 4 * pos);
	return 0;
}

/* The size table of a multi-file image or script, as far as the data holds it. */
static void print_contents(FILE *f, const uint8_t *data, uint32_t size, int script)
{
	uint32_t n = 0, i, off, len;

	while (4 * (n + 1) <= size && get32(data + 4 * n))
		n++;
	fprintf(f, "Contents:\n");
	off = 4 * (n + 1);
	for (i = 0; i < n; i++) {
		len = get32(data + 4 * i);
		fprintf(f, "   Image %u: ", i);
		vfit_print_size(f, len);
		/* mkimage prints the host address here; the file offset is what is useful. */
		if (script && i)
			fprintf(f, "    Offset = 0x%08x\n", VFIT_LEGACY_HDR + off);
		off += (len + 3) & ~3u;
	}
}

void vfit_legacy_print(FILE *f, const uint8_t *p)
{
	const struct vfit_name *t = vfit_name_by_id(VFIT_NAME_TYPE, p[30]);
	uint32_t size = get32(p + 12);

	fprintf(f, "Image Name:   %.32s\n", (const char *)p + 32);
	vfit_print_time(f, "Created:      ", get32(p + 8));
	fprintf(f, "Image Type:   %s %s %s (%s)\n", vfit_name_long_id(VFIT_NAME_ARCH, p[29]),
		vfit_name_long_id(VFIT_NAME_OS, p[28]), vfit_name_long_id(VFIT_NAME_TYPE, p[30]),
		vfit_name_long_id(VFIT_NAME_COMP, p[31]));
	fprintf(f, "Data Size:    ");
	vfit_print_size(f, size);
	fprintf(f, "Load Address: %08x\n", get32(p + 16));
	fprintf(f, "Entry Point:  %08x\n", get32(p + 20));
	if (t && (!strcmp(t->s, "multi") || !strcmp(t->s, "script")))
		print_contents(f, p + VFIT_LEGACY_HDR, size, !strcmp(t->s, "script"));
}
