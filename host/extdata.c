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

#include "mkimage_int.h"

/*
 * Where the payloads come from: the file itself (pread at their offsets,
 * straight into their place in the FIT) or, for a file that is not
 * regular, all of it read into memory first.
 */
struct source {
	int fd;
	const char *all;
};

static int fetch(const struct source *src, void *dst, size_t len, uint64_t off)
{
	if (src->all) {
		memcpy(dst, src->all + off, len);
		return 0;
	}
	return vfit_read_full(src->fd, dst, len, off);
}

/* Sets *consumed once file belongs to out (or was freed); else the caller frees it. */
static int import(const char *name, const struct source *src, char *file, size_t fdt_len,
		  uint64_t file_len, struct vfit_fdtbuf *out, int *consumed, struct vfit_err *e)
{
	size_t base, need, cap;
	int images, node, r;
	uint32_t off, size = 0;
	void *dst;
	char *buf;

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
		    (has_pos ? 0 : base) + (uint64_t)off + size > file_len)
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: external data outside the file", name,
					    vfit_node_path(file, node));
		need += (size_t)size + 64;
	}
	if (need == fdt_totalsize(file)) {
		/* Nothing external: the file is the FDT. */
		*consumed = 1;
		return vfit_fdtbuf_adopt(out, file, fdt_len, fdt_len, name, e);
	}
	cap = need + 16384;
	if (cap > INT32_MAX)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: FIT too large", name);
	buf = malloc(cap);
	if (!buf)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
	vfit_hugepages(buf, cap);
	r = fdt_open_into(file, buf, (int)cap);
	if (r) {
		free(buf);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s", name, fdt_strerror(r));
	}
	out->buf = buf;
	out->cap = cap;
	out->head = 0;
	/*
	 * In node order, each payload read into its place as soon as it has
	 * one: later insertions move only what follows, never a payload.
	 */
	images = fdt_path_offset(out->buf, "/images");
	fdt_for_each_subnode(node, out->buf, images) {
		int has_pos = !vfit_fdt_u32(out->buf, node, "data-position", &off);

		if (!has_pos && vfit_fdt_u32(out->buf, node, "data-offset", &off))
			continue;
		vfit_fdt_u32(out->buf, node, "data-size", &size);
		/*
		 * `data` is added and the location properties removed, as U-Boot
		 * HEAD does.  (mkimage 2023.01 kept data-offset and data-size
		 * next to the new `data`; U-Boot reads data-offset first, so
		 * such a FIT loads the wrong bytes.)
		 */
		r = fdt_setprop_placeholder(out->buf, node, "data", (int)size, &dst);
		if (!r && fetch(src, dst, size, (has_pos ? 0 : base) + (uint64_t)off)) {
			vfit_fdtbuf_free(out);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read: %s", name, strerror(errno));
		}
		if (!r)
			r = fdt_delprop(out->buf, node, has_pos ? "data-position" : "data-offset");
		if (!r)
			r = fdt_delprop(out->buf, node, "data-size");
		if (r) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: cannot import data: %s", name,
				     vfit_node_path(out->buf, node), fdt_strerror(r));
			vfit_fdtbuf_free(out);
			return -1;
		}
	}
	return 0;
}

/* The FDT part of a regular file: the first totalsize bytes (or all if fewer). */
static int read_fdt(const char *path, int fd, uint64_t file_len, char **fdt, size_t *len,
		    struct vfit_err *e)
{
	struct fdt_header h;
	size_t n = (size_t)file_len;

	if (file_len > INT32_MAX)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: larger than 2 GiB", path);
	if (n >= sizeof(h) && !vfit_read_full(fd, &h, sizeof(h), 0) &&
	    fdt_totalsize(&h) >= sizeof(h) && fdt_totalsize(&h) < n)
		n = fdt_totalsize(&h);
	*fdt = malloc(n + 1);
	if (!*fdt)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	vfit_hugepages(*fdt, n);
	if (vfit_read_full(fd, *fdt, n, 0)) {
		free(*fdt);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read: %s", path, strerror(errno));
	}
	*len = n;
	return 0;
}

int vfit_ext_load(const char *path, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	struct source src = { open(path, O_RDONLY | O_CLOEXEC), NULL };
	int consumed = 0, r;
	struct stat st;
	char *fdt;
	size_t len;

	if (src.fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (!fstat(src.fd, &st) && S_ISREG(st.st_mode)) {
		r = read_fdt(path, src.fd, (uint64_t)st.st_size, &fdt, &len, e);
		st.st_size = r ? 0 : st.st_size;
	} else {
		r = vfit_fd_read(src.fd, path, 0, &fdt, &len, e);
		src.all = fdt;
		st.st_size = (off_t)len;
	}
	if (!r) {
		r = import(path, &src, fdt, len, (uint64_t)st.st_size, out, &consumed, e);
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
		     int64_t position, struct vfit_ext_layout *lay, struct vfit_err *e)
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
	    vfit_ext_pad(f, position, align, (uint8_t *)lay->fdt.buf + used, used, (size_t)base)) {
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
