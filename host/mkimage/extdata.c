/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * External data (fit-format.md §2.6): mkimage hashes and signs with every payload
 * embedded in `data`, then (-E) moves the payloads after the FDT.  Import
 * is the reverse, done first when an existing external FIT is updated (-F).
 *
 * Layout follows mkimage 2023.01: every payload starts at a multiple of
 * the alignment (-B, default 4), the FDT's totalsize is padded to it, the
 * data area starts at the padded totalsize, or at -p POS with
 * data-position = POS + offset.  (U-Boot HEAD aligns flat_dt payloads to 8
 * by default; both layouts verify everywhere since offsets are explicit.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit-host/io.h"
#include "mkimage_int.h"

/*
 * The FIT file being updated (-F).  A regular file is read sparsely: the
 * tree, but not the big `data` values of its images (skip[]), which stay
 * in the file as payloads (host/core/fdtbuf.c) like its big external data; a
 * file that is not regular (a pipe) is read whole into all.
 */
#define SKIPS 64
#define AHEAD (64u * 1024)

struct skip {
	int image;              /* index among the children of /images */
	uint64_t at;            /* file offset of the value */
	size_t len;
};

struct source {
	const char *path;
	int fd;
	const char *all;
	uint64_t len;           /* of the file */
	struct skip skip[SKIPS];
	int nskip;
};

static int fetch(const struct source *src, void *dst, size_t len, uint64_t off)
{
	if (src->all) {
		memcpy(dst, src->all + off, len);
		return 0;
	}
	return vfit_read_full(src->fd, dst, len, off);
}

/* The payload at file offset at, len bytes, as node's `data` left in the file. */
static int keep(struct vfit_fdtbuf *out, int node, const struct source *src, uint64_t at,
		size_t len, struct vfit_err *e)
{
	int fd = dup(src->fd);

	if (fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", src->path, strerror(errno));
	return vfit_fdtbuf_payload(out, node, src->path, fd, at, len, e);
}

/* Image node k's external data (data-offset or data-position) as its `data`. */
static int import_one(const char *name, const struct source *src, size_t base,
		      struct vfit_fdtbuf *out, int node, struct vfit_err *e)
{
	int has_pos = fdt_getprop(out->buf, node, "data-position", NULL) != NULL;
	uint32_t off = 0, size = 0;
	uint64_t at;
	void *dst;
	int r;

	vfit_fdt_u32(out->buf, node, has_pos ? "data-position" : "data-offset", &off);
	vfit_fdt_u32(out->buf, node, "data-size", &size);
	at = (has_pos ? 0 : base) + (uint64_t)off;
	/*
	 * `data` is added and the location properties removed, as U-Boot
	 * HEAD does.  (mkimage 2023.01 kept data-offset and data-size next
	 * to the new `data`; U-Boot reads data-offset first, so such a FIT
	 * loads the wrong bytes.)
	 */
	if (!src->all && size >= VFIT_PAYLOAD_MIN) {
		if (keep(out, node, src, at, size, e))
			return -1;
		r = 0;
	} else {
		r = vfit_fdtbuf_reserve(out, (size_t)size + 64);
		r = r ? r : fdt_setprop_placeholder(out->buf, node, "data", (int)size, &dst);
		if (!r && fetch(src, dst, size, at))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read: %s", name,
					    strerror(errno));
	}
	if (!r)
		r = fdt_delprop(out->buf, node, has_pos ? "data-position" : "data-offset");
	if (!r)
		r = fdt_delprop(out->buf, node, "data-size");
	if (r)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: cannot import data: %s", name,
				    vfit_node_path(out->buf, node), fdt_strerror(r));
	return 0;
}

/*
 * In node order, each payload given its place as soon as it has one:
 * later insertions move only what follows, never a payload.
 */
static int import_all(const char *name, const struct source *src, size_t base,
		      struct vfit_fdtbuf *out, struct vfit_err *e)
{
	int images = fdt_path_offset(out->buf, "/images"), node, k = 0, i = 0, ext, len;

	/* On a negative parent, fdt_first_subnode() would yield the root. */
	if (images < 0)
		return 0;
	fdt_for_each_subnode(node, out->buf, images) {
		ext = fdt_getprop(out->buf, node, "data-position", NULL) ||
		      fdt_getprop(out->buf, node, "data-offset", NULL);
		if (ext && import_one(name, src, base, out, node, e))
			return -1;
		/* An embedded value left unread (replaced if the image had external data too). */
		if (i < src->nskip && src->skip[i].image == k && !ext) {
			/* It must be the value libfdt finds, as it is. */
			if (!fdt_getprop(out->buf, node, "data", &len) || (size_t)len != src->skip[i].len)
				return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: malformed data", name,
						    vfit_node_path(out->buf, node));
			if (keep(out, node, src, src->skip[i].at, src->skip[i].len, e))
				return -1;
		}
		if (i < src->nskip && src->skip[i].image == k)
			i++;
		k++;
	}
	return 0;
}

/* Sets *consumed once file belongs to out (or was freed); else the caller frees it. */
static int import(const char *name, const struct source *src, char *file, size_t fdt_len,
		  struct vfit_fdtbuf *out, int *imported, int *consumed, struct vfit_err *e)
{
	size_t base, need, cap;
	int images, node, r;
	uint32_t off, size = 0;
	char *buf;

	*imported = 0;
	if (vfit_fdt_valid(name, file, fdt_len, e))
		return -1;
	base = ((size_t)fdt_totalsize(file) + 3) & ~(size_t)3;
	need = fdt_totalsize(file);
	images = fdt_path_offset(file, "/images");
	/* On a negative parent, fdt_first_subnode() would yield the root. */
	for (node = images < 0 ? -1 : fdt_first_subnode(file, images); node >= 0;
	     node = fdt_next_subnode(file, node)) {
		int has_pos = !vfit_fdt_u32(file, node, "data-position", &off);

		if (!has_pos && vfit_fdt_u32(file, node, "data-offset", &off))
			continue;
		if (vfit_fdt_u32(file, node, "data-size", &size))
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: data-size missing", name,
					    vfit_node_path(file, node));
		/* Both are read as signed 32-bit values by U-Boot. */
		if (off > INT32_MAX || size > INT32_MAX ||
		    (has_pos ? 0 : base) + (uint64_t)off + size > src->len)
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: external data outside the file", name,
					    vfit_node_path(file, node));
		/* Room for what is read in; a payload left in the file gets its own. */
		need += (src->all || size < VFIT_PAYLOAD_MIN ? (size_t)size : 0) + 64;
		*imported = 1;
	}
	if (!*imported) {
		/* Nothing external: the file is the FDT. */
		*consumed = 1;
		r = vfit_fdtbuf_adopt(out, file, fdt_len, fdt_len, name, e);
	} else {
		cap = need + 16384;
		if (cap > INT32_MAX)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: FIT too large", name);
		buf = malloc(cap);
		if (!buf)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
		r = fdt_open_into(file, buf, (int)cap);
		if (r) {
			free(buf);
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s", name, fdt_strerror(r));
		}
		r = vfit_fdtbuf_adopt(out, buf, cap, cap, name, e);
	}
	if (!r && import_all(name, src, base, out, e)) {
		vfit_fdtbuf_free(out);
		r = -1;
	}
	return r;
}

/* The walk over the structure block of a file read sparsely. */
struct walk {
	struct source *src;
	char *m;                /* the FDT's bytes, at their file offsets */
	size_t n, filled;
};

/* Bytes [0, end) read (but for the values skipped), ahead in steps of AHEAD. */
static int ensure(struct walk *w, size_t end)
{
	size_t to = end;

	if (end <= w->filled)
		return 0;
	if (to < w->filled + AHEAD)
		to = w->filled + AHEAD;
	if (to > w->n)
		to = w->n;
	if (vfit_read_full(w->src->fd, w->m + w->filled, to - w->filled, w->filled))
		return -1;
	w->filled = to;
	return end > w->n ? -1 : 0;
}

/*
 * Walks the structure block at soff (size ssz) reading as it goes, the
 * big `data` of each image skipped.  1: something unusual, read it all.
 */
static int walk_struct(struct walk *w, size_t soff, size_t ssz, size_t stroff, size_t strsz)
{
	size_t off = soff, end = soff + ssz, len, nameoff;
	int depth = -1, in_images = 0, image = -1, seen = 0;
	const char *name;
	uint32_t tag;

	if (end > w->n || stroff + strsz > w->n || stroff < end)
		return 1;
	while (off < end) {
		if (ensure(w, off + 12))
			return 1;
		tag = fdt32_ld((const fdt32_t *)(w->m + off));
		if (tag == FDT_BEGIN_NODE) {
			name = w->m + off + 4;
			for (len = 0; off + 4 + len < end; len++)
				if (ensure(w, off + 4 + len + 1) || !name[len])
					break;
			if (off + 4 + len >= end || name[len])
				return 1;
			depth++;
			if (depth == 1)
				in_images = !strcmp(name, "images");
			if (depth == 2 && in_images) {
				image++;
				seen = 0;
			}
			off += 4 + ((len + 4) & ~(size_t)3);
		} else if (tag == FDT_PROP) {
			len = fdt32_ld((const fdt32_t *)(w->m + off + 4));
			nameoff = fdt32_ld((const fdt32_t *)(w->m + off + 8));
			if (off + 12 > end || len > end - off - 12 || nameoff >= strsz)
				return 1;
			name = w->m + stroff + nameoff;
			/* The first `data` of an image: the one libfdt finds. */
			if (depth == 2 && in_images && !seen && strsz - nameoff >= 5 &&
			    !memcmp(name, "data", 5) && (seen = 1) && len >= VFIT_PAYLOAD_MIN &&
			    w->src->nskip < SKIPS) {
				w->src->skip[w->src->nskip].image = image;
				w->src->skip[w->src->nskip].at = off + 12;
				w->src->skip[w->src->nskip++].len = len;
				if (w->filled < off + 12 + len)
					w->filled = off + 12 + len;
			}
			off += 12 + ((len + 3) & ~(size_t)3);
		} else if (tag == FDT_END_NODE) {
			depth--;
			off += 4;
		} else if (tag == FDT_NOP) {
			off += 4;
		} else {
			return tag == FDT_END ? 0 : 1;
		}
	}
	return 0;
}

/* The FDT part of a regular file: the first totalsize bytes (or all if fewer). */
static int read_fdt(struct source *src, char **fdt, size_t *len, struct vfit_err *e)
{
	struct fdt_header h;
	struct walk w = { src, NULL, (size_t)src->len, 0 };
	int r;

	if (src->len > INT32_MAX)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: larger than 2 GiB", src->path);
	if (w.n >= sizeof(h) && !vfit_read_full(src->fd, &h, sizeof(h), 0) &&
	    fdt_totalsize(&h) >= sizeof(h) && fdt_totalsize(&h) < w.n)
		w.n = fdt_totalsize(&h);
	w.m = malloc(w.n + 1);
	if (!w.m)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", src->path);
	/* The strings first: property names are looked up while walking. */
	r = w.n < sizeof(h) ? 1 : vfit_read_full(src->fd, w.m, sizeof(h), 0);
	if (!r && fdt_off_dt_strings(w.m) + (uint64_t)fdt_size_dt_strings(w.m) <= w.n)
		r = vfit_read_full(src->fd, w.m + fdt_off_dt_strings(w.m),
				   fdt_size_dt_strings(w.m), fdt_off_dt_strings(w.m));
	if (!r)
		r = walk_struct(&w, fdt_off_dt_struct(w.m), fdt_size_dt_struct(w.m),
				fdt_off_dt_strings(w.m), fdt_size_dt_strings(w.m));
	if (r) {
		/* Not a tree this walk understands: all of it, for the checks to judge. */
		src->nskip = 0;
		w.filled = 0;
	}
	if (ensure(&w, w.n)) {
		free(w.m);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read: %s", src->path,
				    strerror(errno));
	}
	*fdt = w.m;
	*len = w.n;
	return 0;
}

int vfit_ext_load(const char *path, struct vfit_fdtbuf *out, int *imported,
		  struct vfit_err *e)
{
	struct source src = { path, open(path, O_RDONLY | O_CLOEXEC), NULL, 0, { { 0, 0, 0 } }, 0 };
	int consumed = 0, r;
	struct stat st;
	char *fdt;
	size_t len;

	if (src.fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (!fstat(src.fd, &st) && S_ISREG(st.st_mode)) {
		src.len = (uint64_t)st.st_size;
		r = read_fdt(&src, &fdt, &len, e);
	} else {
		r = vfit_fd_read(src.fd, path, 0, &fdt, &len, e);
		src.all = fdt;
		src.len = len;
	}
	if (!r) {
		r = import(path, &src, fdt, len, out, imported, &consumed, e);
		if (!consumed)
			free(fdt);
	}
	close(src.fd);
	return r;
}

static int is_data(const void *fit, int off)
{
	const char *n = NULL;

	fdt_getprop_by_offset(fit, off, &n, NULL);
	return n && !strcmp(n, "data");
}

/* Copies fit without the `data` properties of /images/<x> (what fdt_delprop leaves). */
static int copy_without_data(const void *fit, struct vfit_fdtbuf *out, size_t cap)
{
	const char *src = fit;
	uint32_t soff = fdt_off_dt_struct(fit), ssz = fdt_size_dt_struct(fit);
	uint32_t stroff = fdt_off_dt_strings(fit), strsz = fdt_size_dt_strings(fit);
	char *dst = malloc(cap);
	uint32_t d = soff;
	int off = 0, next, depth = -1, in_img = 0, tag;

	if (!dst)
		return -1;
	memcpy(dst, src, soff);
	do {
		tag = fdt_next_tag(fit, off, &next);
		if (tag == FDT_BEGIN_NODE) {
			depth++;
			if (depth == 1) {
				const char *n = fdt_get_name(fit, off, NULL);

				in_img = n && !strcmp(n, "images");
			}
		} else if (tag == FDT_END_NODE) {
			depth--;
		}
		if (next < 0 || (uint32_t)next > ssz) {
			free(dst);
			return -1;
		}
		if (!(tag == FDT_PROP && depth == 2 && in_img && is_data(fit, off))) {
			memcpy(dst + d, src + soff + off, (size_t)(next - off));
			d += (uint32_t)(next - off);
		}
		off = next;
	} while (tag != FDT_END);
	fdt_set_size_dt_struct(dst, d - soff);
	fdt_set_off_dt_strings(dst, d);
	memcpy(dst + d, src + stroff, strsz);
	fdt_set_totalsize(dst, d + strsz);
	out->buf = dst;
	out->cap = cap;
	out->head = 0;
	return vfit_fdtbuf_set_size(out, cap);
}

/* Segment k: the payload data, from memory or (still in its file) from there. */
static void payload_seg(const struct vfit_fdtbuf *fit, const void *data, size_t len,
			uint64_t at, struct vfit_seg *seg)
{
	const struct vfit_payload *p = vfit_fdtbuf_payload_at(fit, data);

	seg->off = at;
	seg->p = p ? NULL : data;
	seg->len = len;
	seg->fd = p ? p->fd : -1;
	seg->from = p ? p->from : 0;
}

int vfit_ext_extract(const char *name, const struct vfit_fdtbuf *f, uint32_t align,
		     int64_t position, int zero_pad, struct vfit_ext_layout *lay,
		     struct vfit_err *e)
{
	const void *fit = f->buf;
	int images, node, simages, snode, r = 0, n = 0;
	uint64_t ptr = 0, base;
	size_t payloads = 0, used;
	const char *data;
	int len;

	memset(lay, 0, sizeof(*lay));
	if (!align)
		align = 4;
	images = fdt_path_offset(fit, "/images");
	/* Room for the FDT without its payloads (never their size: it is never touched). */
	fdt_for_each_subnode(node, fit, images) {
		if (fdt_getprop(fit, node, "data", &len))
			payloads += (size_t)len;
		n++;
	}
	lay->seg = calloc((size_t)n + 1, sizeof(*lay->seg));
	if (!lay->seg || copy_without_data(fit, &lay->fdt,
					   vfit_fdt_used(fit) - payloads + 64 * (size_t)n + 4096)) {
		free(lay->seg);
		lay->seg = NULL;
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
	}
	lay->nseg = 1;
	simages = fdt_path_offset(lay->fdt.buf, "/images");
	snode = fdt_first_subnode(lay->fdt.buf, simages);
	fdt_for_each_subnode(node, fit, images) {
		data = fdt_getprop(fit, node, "data", &len);
		if (data) {
			payload_seg(f, data, (size_t)len, ptr, &lay->seg[lay->nseg++]);
			if (position >= 0)
				r = vfit_fdt_setprop_u32(&lay->fdt, snode, "data-position",
							 (uint32_t)(position + (int64_t)ptr));
			else
				r = vfit_fdt_setprop_u32(&lay->fdt, snode, "data-offset", (uint32_t)ptr);
			if (!r)
				r = vfit_fdt_setprop_u32(&lay->fdt, snode, "data-size", (uint32_t)len);
			if (r)
				break;
			ptr += ((uint64_t)len + align - 1) / align * align;
			if (ptr > INT32_MAX) {
				vfit_ext_layout_free(lay);
				return vfit_err_set(e, VFIT_EXIT_REJECT,
						    "%s: external data larger than 2 GiB", name);
			}
		}
		snode = fdt_next_subnode(lay->fdt.buf, snode);
	}
	if (r) {
		vfit_ext_layout_free(lay);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: -E: %s", name, fdt_strerror(r));
	}
	fdt_pack(lay->fdt.buf);
	used = vfit_fdt_used(lay->fdt.buf);
	base = (used + align - 1) / align * align;
	if (vfit_fdtbuf_set_size(&lay->fdt, (size_t)base) ||
	    (!zero_pad &&
	     vfit_ext_pad(f, position, align, (uint8_t *)lay->fdt.buf + used, used, (size_t)base))) {
		vfit_ext_layout_free(lay);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: -E: cannot lay out the FDT", name);
	}
	if (position >= 0) {
		if ((uint64_t)position < base) {
			vfit_ext_layout_free(lay);
			return vfit_err_set(e, VFIT_EXIT_USAGE,
					    "%s: -p 0x%llx overlaps the FIT (0x%llx bytes)", name,
					    (unsigned long long)position, (unsigned long long)base);
		}
		base = (uint64_t)position;
	}
	lay->seg[0].off = 0;
	lay->seg[0].p = lay->fdt.buf;
	lay->seg[0].len = fdt_totalsize(lay->fdt.buf);
	for (n = 1; n < lay->nseg; n++)
		lay->seg[n].off += base;
	lay->size = base + ptr;
	return 0;
}

void vfit_ext_layout_free(struct vfit_ext_layout *lay)
{
	vfit_fdtbuf_free(&lay->fdt);
	free(lay->seg);
	lay->seg = NULL;
	lay->nseg = 0;
}
