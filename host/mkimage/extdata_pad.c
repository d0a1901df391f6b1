/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bytes mkimage 2023.01 leaves between the end of an external FIT's
 * packed FDT and the size it is aligned to (-E, -B).
 *
 * mkimage extracts the data in place, in the file it has just signed:
 * per image, in order, fdt_delprop() of `data` (the rest of the blob
 * moves down over it), then fdt_setprop_u32() of data-offset (or
 * data-position) and data-size (each name appended to the strings block
 * if it is not there yet, then the rest of the blob moved up to make room
 * at the front of the node); then it packs and sets totalsize to the
 * aligned size.  Nothing clears the bytes past the packed end: they are
 * whatever those moves left there, often the last bytes of a payload.
 *
 * Here those moves are only recorded, as positions; each byte of the
 * padding is then followed back through them to the write that put it
 * there or to its place in the signed FIT, and read from there: the
 * blob, or the file of a payload that never came into memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit-host/io.h"
#include "mkimage_int.h"

#define TAGALIGN(len) (((len) + 3) & ~(size_t)3)

/* memmove(dst, src, len), then n bytes of w written at at. */
struct move {
	size_t src, dst, len;
	size_t at, n;
	uint8_t w[32];
};

struct moves {
	struct move *m;
	size_t n, cap;
	size_t end;              /* the blob's data size (end of the strings block) now */
	char added[2][16];       /* names appended to the strings block, in order */
	int nadded;
};

static struct move *add(struct moves *mv)
{
	struct move *m;

	if (mv->n == mv->cap) {
		m = realloc(mv->m, (mv->cap * 2 + 8) * sizeof(*m));
		if (!m)
			return NULL;
		mv->m = m;
		mv->cap = mv->cap * 2 + 8;
	}
	m = &mv->m[mv->n++];
	memset(m, 0, sizeof(*m));
	return m;
}

/* The strings offset of name, appending it first when absent (fdt_find_add_string_). */
static int name_off(const void *fit, struct moves *mv, const char *name, uint32_t *off)
{
	size_t len = strlen(name) + 1, base = fdt_size_dt_strings(fit);
	const char *s = (const char *)fit + fdt_off_dt_strings(fit);
	const char *hit = memmem(s, base, name, len);
	struct move *m;
	int i;

	if (hit) {
		*off = (uint32_t)(hit - s);
		return 0;
	}
	for (i = 0; i < mv->nadded; i++) {
		if (!strcmp(mv->added[i], name)) {
			*off = (uint32_t)base;
			return 0;
		}
		base += strlen(mv->added[i]) + 1;
	}
	m = add(mv);
	if (!m || mv->nadded == 2 || len > sizeof(mv->added[0]))
		return -1;
	strcpy(mv->added[mv->nadded++], name);
	m->at = mv->end;
	m->n = len;
	memcpy(m->w, name, len);
	mv->end += len;
	*off = (uint32_t)base;
	return 0;
}

/* libfdt's splice at p: what follows [p, p + oldlen) moves to p + newlen. */
static void splice(struct moves *mv, struct move *m, size_t p, size_t oldlen, size_t newlen)
{
	m->src = p + oldlen;
	m->dst = p + newlen;
	m->len = mv->end - m->src;
	mv->end = mv->end - oldlen + newlen;
}

/* fdt_setprop_u32() of a property the node lacks: spliced in at the front of its properties. */
static int add_u32(const void *fit, struct moves *mv, size_t front, const char *name, uint32_t v)
{
	fdt32_t cell[4];
	struct move *m;
	uint32_t off;

	if (name_off(fit, mv, name, &off) || !(m = add(mv)))
		return -1;
	splice(mv, m, front, 0, sizeof(cell));
	cell[0] = cpu_to_fdt32(FDT_PROP);
	cell[1] = cpu_to_fdt32(4);
	cell[2] = cpu_to_fdt32(off);
	cell[3] = cpu_to_fdt32(v);
	m->at = front;
	m->n = sizeof(cell);
	memcpy(m->w, cell, sizeof(cell));
	return 0;
}

/* fdt_delprop() of the property at p, len bytes of value. */
static int del(struct moves *mv, size_t p, size_t len)
{
	struct move *m = add(mv);

	if (!m)
		return -1;
	splice(mv, m, p, 12 + TAGALIGN(len), 0);
	return 0;
}

/* fdt_pack(): the reservation map, structure and strings blocks moved down to close the gaps. */
static int pack(const void *fit, struct moves *mv, size_t struct_size)
{
	size_t from[3], len[3], to = (sizeof(struct fdt_header) + 7) & ~(size_t)7;
	struct move *m;
	int i;

	from[0] = fdt_off_mem_rsvmap(fit);
	len[0] = fdt_off_dt_struct(fit) - from[0];
	from[1] = fdt_off_dt_struct(fit);
	len[1] = struct_size;
	from[2] = from[1] + struct_size;
	len[2] = mv->end - from[2];
	for (i = 0; i < 3; i++) {
		m = add(mv);
		if (!m)
			return -1;
		m->src = from[i];
		m->dst = to;
		m->len = len[i];
		to += len[i];
	}
	mv->end = to;
	return 0;
}

/* mkimage's extraction, image by image, as moves over the signed blob. */
static int record(const void *fit, int64_t position, uint32_t align, struct moves *mv)
{
	size_t soff = fdt_off_dt_struct(fit), front, ptr = 0;
	long shift = 0;
	const char *data, *nm;
	int images = fdt_path_offset(fit, "/images"), node, len, nlen;

	mv->end = vfit_fdt_used(fit);
	fdt_for_each_subnode(node, fit, images) {
		data = fdt_getprop(fit, node, "data", &len);
		nm = fdt_get_name(fit, node, &nlen);
		if (!data || !nm)
			continue;
		front = (size_t)((long)soff + shift + node) + TAGALIGN(4 + (size_t)nlen + 1);
		if (del(mv, (size_t)((long)(data - (const char *)fit) + shift) - 12, (size_t)len) ||
		    add_u32(fit, mv, front, position > 0 ? "data-position" : "data-offset",
			    (uint32_t)(position > 0 ? (size_t)position + ptr : ptr)) ||
		    add_u32(fit, mv, front, "data-size", (uint32_t)len))
			return -1;
		shift += 32 - (long)(12 + TAGALIGN((size_t)len));
		ptr += ((size_t)len + align - 1) / align * align;
	}
	return pack(fit, mv, (size_t)((long)fdt_size_dt_struct(fit) + shift));
}

/* Where the byte at x after the moves came from: a written byte (*w) or x in the blob. */
static void trace(const struct moves *mv, size_t x, const uint8_t **w, size_t *from)
{
	const struct move *m;
	size_t i;

	for (i = mv->n; i-- > 0;) {
		m = &mv->m[i];
		if (x >= m->at && x < m->at + m->n) {
			*w = &m->w[x - m->at];
			return;
		}
		if (x >= m->dst && x < m->dst + m->len)
			x = x - m->dst + m->src;
	}
	*w = NULL;
	*from = x;
}

/* The signed blob: its buffer, and the rooms whose bytes are in their payloads' files. */
struct blob {
	const struct vfit_fdtbuf *f;
	size_t *start, *end;
	int n;
};

/* The byte at x of the signed blob. */
static int blob_byte(const struct blob *b, size_t x, uint8_t *v)
{
	const struct vfit_payload *p;
	int i;

	if (x >= fdt_totalsize(b->f->buf)) {
		*v = 0;     /* past the file mkimage mapped: ftruncate() zeros */
		return 0;
	}
	for (i = 0; i < b->n; i++)
		if (x >= b->start[i] && x < b->end[i]) {
			p = &b->f->pl[i];
			return vfit_read_full(p->fd, v, 1, p->from + (x - b->start[i]));
		}
	*v = (uint8_t)b->f->buf[x];
	return 0;
}

int vfit_ext_pad(const struct vfit_fdtbuf *fit, int64_t position, uint32_t align, uint8_t *pad,
		 size_t from, size_t to)
{
	struct moves mv = { NULL, 0, 0, 0, { "", "" }, 0 };
	struct blob b = { fit, calloc((size_t)fit->npl + 1, 2 * sizeof(size_t)), NULL, 0 };
	const uint8_t *w;
	size_t x, at;
	int r = b.start ? record(fit->buf, position, align, &mv) : -1;

	if (!r) {
		b.end = b.start + fit->npl + 1;
		b.n = vfit_fdtbuf_rooms(fit, b.start, b.end);
	}
	/* The moves end where the FDT without its data ends. */
	if (!r && (b.n < 0 || mv.end != from))
		r = -1;
	for (x = from; !r && x < to; x++) {
		trace(&mv, x, &w, &at);
		if (w)
			pad[x - from] = *w;
		else
			r = blob_byte(&b, at, &pad[x - from]);
	}
	free(mv.m);
	free(b.start);
	return r;
}
