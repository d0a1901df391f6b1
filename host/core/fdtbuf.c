/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDT buffers for mkimage: growable libfdt read-write blobs, and the big
 * payloads that stay in their files while the tree around them is built,
 * hashed, signed and laid out (struct vfit_payload in vfit-host/fdtbuf.h).
 *
 * A payload's room is part of the blob, so every offset, length and
 * libfdt walk is what it would be with the bytes in place; but the room
 * is never touched: the image pass hashes the payload from its file, the
 * writer has the kernel copy it from there into the output, and the one
 * writer that moves bytes across rooms (host/core/fdtedit.c) moves only what
 * is around them.  A 64 MiB kernel, ramdisk and DTB are then signed with
 * a few hundred KiB resident, in any order and number, where reading them
 * in costs their size plus the kernel zeroing every page of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/io.h"

const char *vfit_node_path(const void *fdt, int node)
{
	static char path[1024];

	if (fdt_get_path(fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "<node at 0x%x>", node);
	return path;
}

const char *vfit_fdt_str(const void *fdt, int node, const char *name)
{
	int len;
	const char *v = fdt_getprop(fdt, node, name, &len);

	return v && len > 0 && !v[len - 1] ? v : NULL;
}

int vfit_fdt_u32(const void *fdt, int node, const char *name, uint32_t *v)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p || len != 4)
		return -1;
	*v = fdt32_to_cpu(*p);
	return 0;
}

int vfit_fdt_prefix(const void *fdt, int node, const char *prefix)
{
	const char *n = fdt_get_name(fdt, node, NULL);

	return n && !strncmp(n, prefix, strlen(prefix));
}

int vfit_fdt_subnode(void *fdt, int parent, const char *name)
{
	int node = fdt_subnode_offset(fdt, parent, name);

	if (node == -FDT_ERR_NOTFOUND)
		node = fdt_add_subnode(fdt, parent, name);
	return node;
}

size_t vfit_fdt_used(const void *fdt)
{
	return (size_t)fdt_off_dt_strings(fdt) + fdt_size_dt_strings(fdt);
}

/*
 * Header, reservation map (8-byte aligned, where the sequential-write
 * functions leave it too), structure, strings in that order with no gaps
 * between the blocks: what fdt_open_into() would leave as it is.
 */
static int in_rw_layout(const void *fdt)
{
	uint32_t rsv = fdt_off_mem_rsvmap(fdt);
	const struct fdt_reserve_entry *r;
	uint32_t n = 0;

	if (fdt_version(fdt) < 17 || rsv < ((sizeof(struct fdt_header) + 7) & ~(size_t)7) ||
	    rsv % 8)
		return 0;
	r = (const struct fdt_reserve_entry *)((const char *)fdt + rsv);
	for (;;) {
		if (rsv + (n + 1) * sizeof(*r) > fdt_off_dt_struct(fdt))
			return 0;
		if (!fdt64_to_cpu(r[n].size) && !fdt64_to_cpu(r[n].address))
			break;
		n++;
	}
	return fdt_off_dt_struct(fdt) == rsv + (n + 1) * sizeof(*r) &&
	       fdt_off_dt_strings(fdt) == fdt_off_dt_struct(fdt) + fdt_size_dt_struct(fdt);
}

/*
 * Every device tree read from a file passes here before libfdt walks it:
 * libfdt's own fdt_check_full() loops forever on a property whose length
 * wraps the offset (and dtc and fdtdump crash on it).
 */
int vfit_fdt_valid(const char *file, const void *fdt, size_t len, struct vfit_err *e)
{
	switch (vfit_fdt_check(fdt, len, NULL)) {
	case VFIT_OK:
		return 0;
	case VFIT_ERR_TRUNCATED:
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: not a valid FDT: shorter than its header says", file);
	default:
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: malformed FDT: bad header, tag, nesting or property name",
				    file);
	}
}

int vfit_fdtbuf_adopt(struct vfit_fdtbuf *b, char *data, size_t len, size_t cap,
		      const char *file, struct vfit_err *e)
{
	int r;

	b->buf = data;
	b->cap = cap;
	b->head = 0;
	b->pl = NULL;
	b->npl = 0;
	if (cap > INT32_MAX)
		r = vfit_err_set(e, VFIT_EXIT_REJECT, "%s: larger than 2 GiB", file);
	else
		r = vfit_fdt_valid(file, data, len, e);
	if (r) {
		vfit_fdtbuf_free(b);
		return -1;
	}
	/*
	 * dtc's and mkimage's outputs are already in read-write order: then
	 * only totalsize changes, which spares a memmove of every payload.
	 */
	if (in_rw_layout(data) && fdt_totalsize(data) >= vfit_fdt_used(data)) {
		fdt_set_totalsize(data, (uint32_t)cap);
		memset(data + vfit_fdt_used(data), 0, cap - vfit_fdt_used(data));
		return 0;
	}
	r = fdt_open_into(data, data, (int)cap);
	if (r) {
		vfit_fdtbuf_free(b);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a valid FDT: %s", file,
				    fdt_strerror(r));
	}
	return 0;
}

/*
 * 4 KiB pages for the whole block: only the bytes around the rooms are
 * touched, and a 2 MiB page would fault in the room around them.  Whole
 * pages, as in vfit_hugepages(): the block's mapping stays one piece.
 */
static void small_pages(const struct vfit_fdtbuf *b)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), p = (uintptr_t)(b->buf - b->head);
	uintptr_t a = p & ~(page - 1), end = (p + b->head + b->cap + page - 1) & ~(page - 1);

	madvise((void *)a, end - a, MADV_NOHUGEPAGE);
}

int vfit_fdtbuf_reserve(struct vfit_fdtbuf *b, size_t more)
{
	size_t used = vfit_fdt_used(b->buf), want, cap;
	char *p;

	if (b->cap - used >= more)
		return 0;
	want = used + more;
	cap = b->cap + b->cap / 8 + 4096;
	if (cap < want)
		cap = want;
	if (cap > INT32_MAX)
		return -FDT_ERR_NOSPACE;
	if (!b->head && used <= VFIT_FDTBUF_HEAD && cap >= (1u << 20)) {
		/* Small to big: a fresh block with head room (copying only the small blob). */
		p = malloc(VFIT_FDTBUF_HEAD + cap);
		if (!p)
			return -FDT_ERR_NOSPACE;
		memcpy(p + VFIT_FDTBUF_HEAD, b->buf, used);
		free(b->buf);
		b->head = VFIT_FDTBUF_HEAD;
	} else {
		p = realloc(b->buf - b->head, b->head + cap);
		if (!p)
			return -FDT_ERR_NOSPACE;
	}
	p += b->head;
	b->buf = p;
	b->cap = cap;
	/*
	 * No zeroing: free space is only zeroed once, by vfit_fdtbuf_set_size().
	 * Big pages only where no room stays untouched among the bytes written.
	 */
	if (b->npl)
		small_pages(b);
	else
		vfit_hugepages(p - b->head, b->head + cap);
	/* The layout is already read-write: the new space simply joins the free space. */
	fdt_set_totalsize(p, (uint32_t)cap);
	return 0;
}

int vfit_fdt_setprop(struct vfit_fdtbuf *b, int node, const char *name, const void *val,
		     size_t len)
{
	int r;

	if (len > INT32_MAX)
		return -FDT_ERR_NOSPACE;
	/* libfdt moves what follows the property: the rooms too, which must not be touched. */
	if (b->npl && vfit_payloads_fill(b, NULL))
		return -FDT_ERR_BADSTATE;
	while ((r = fdt_setprop(b->buf, node, name, val, (int)len)) == -FDT_ERR_NOSPACE)
		if (vfit_fdtbuf_reserve(b, len + strlen(name) + 64))
			return r;
	return r;
}

int vfit_fdt_setprop_str(struct vfit_fdtbuf *b, int node, const char *name, const char *s)
{
	return vfit_fdt_setprop(b, node, name, s, strlen(s) + 1);
}

int vfit_fdt_setprop_u32(struct vfit_fdtbuf *b, int node, const char *name, uint32_t v)
{
	fdt32_t be = cpu_to_fdt32(v);

	return vfit_fdt_setprop(b, node, name, &be, sizeof(be));
}

int vfit_fdtbuf_set_size(struct vfit_fdtbuf *b, size_t size)
{
	size_t used = vfit_fdt_used(b->buf);

	if (size < used)
		return -1;
	if (size > b->cap && vfit_fdtbuf_reserve(b, size - used))
		return -1;
	/* Only what the file will hold: spare capacity past size is never touched. */
	memset(b->buf + used, 0, size - used);
	fdt_set_totalsize(b->buf, (uint32_t)size);
	return 0;
}

static void forget_payloads(struct vfit_fdtbuf *b)
{
	int i;

	for (i = 0; i < b->npl; i++) {
		close(b->pl[i].fd);
		free(b->pl[i].node);
		free(b->pl[i].file);
	}
	free(b->pl);
	b->pl = NULL;
	b->npl = 0;
}

void vfit_fdtbuf_free(struct vfit_fdtbuf *b)
{
	if (b->buf)
		free(b->buf - b->head);
	forget_payloads(b);
	b->buf = NULL;
	b->cap = b->head = 0;
}

/* ---- payloads left in their files --------------------------------------- */

/* The room of p in b->buf, or NULL if the tree lost it (a bug: nothing may resize it). */
static char *room_of(const struct vfit_fdtbuf *b, const struct vfit_payload *p)
{
	int node = fdt_path_offset(b->buf, p->node), len;
	const void *v = node < 0 ? NULL : fdt_getprop(b->buf, node, "data", &len);

	return v && (size_t)len == p->size ? (char *)(uintptr_t)v : NULL;
}

/* Whether node is past the last room: resizing its `data` then moves no room. */
static int after_rooms(const struct vfit_fdtbuf *b, int node)
{
	const struct vfit_payload *last = b->npl ? &b->pl[b->npl - 1] : NULL;
	const char *room = last ? room_of(b, last) : NULL;

	return !last || (room && (size_t)node + fdt_off_dt_struct(b->buf) >=
			 (size_t)(room - b->buf) + last->size);
}

int vfit_fdtbuf_payload(struct vfit_fdtbuf *b, int node, const char *file, int fd,
			uint64_t from, size_t size, struct vfit_err *e)
{
	struct vfit_payload p = { NULL, NULL, fd, from, size, { 0 } }, *grown;
	const void *cur;
	char path[1024];
	void *room;
	int r = 0, len, resize;

	if (!after_rooms(b, node) || fdt_get_path(b->buf, node, path, sizeof(path))) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot leave the payload in its file", file);
		goto fail;
	}
	if (fstat(fd, &p.st) || (uint64_t)p.st.st_size < from + size) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read", file);
		goto fail;
	}
	/* A `data` of the payload's size already (read sparsely) is left as it is. */
	cur = fdt_getprop(b->buf, node, "data", &len);
	resize = !cur || (size_t)len != size;
	if (resize && vfit_fdtbuf_reserve(b, size + 64))
		goto oom;
	small_pages(b);
	if (resize) {
		r = fdt_setprop_placeholder(b->buf, node, "data", (int)size, &room);
		if (r) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", file, fdt_strerror(r));
			goto fail;
		}
		/* dtc pads a value with zeros; the resize left whatever its splice moved there. */
		memset((char *)room + size, 0, (4 - size % 4) % 4);
	}
	p.node = strdup(path);
	p.file = strdup(file);
	grown = p.node && p.file ? realloc(b->pl, ((size_t)b->npl + 1) * sizeof(p)) : NULL;
	if (!grown)
		goto oom;
	b->pl = grown;
	b->pl[b->npl++] = p;
	return 0;
oom:
	vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
fail:
	free(p.node);
	free(p.file);
	close(fd);
	return -1;
}

const struct vfit_payload *vfit_fdtbuf_payload_at(const struct vfit_fdtbuf *b, const void *data)
{
	int i;

	for (i = 0; i < b->npl; i++)
		if (room_of(b, &b->pl[i]) == data)
			return &b->pl[i];
	return NULL;
}

int vfit_payload_read(const struct vfit_payload *p,
		      void (*eat)(void *arg, const uint8_t *p, size_t n), void *arg,
		      struct vfit_err *e)
{
	uint8_t *piece = malloc(VFIT_IO_PIECE);
	size_t off, n;

	if (!piece)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", p->file);
	for (off = 0; off < p->size; off += n) {
		n = p->size - off < VFIT_IO_PIECE ? p->size - off : VFIT_IO_PIECE;
		if (vfit_read_full(p->fd, piece, n, p->from + off)) {
			free(piece);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", p->file, errno == EIO ?
					    "file changed while being read" : strerror(errno));
		}
		eat(arg, piece, n);
	}
	free(piece);
	return 0;
}

/* Whether the file is the one taken, as it was (size and change times). */
static int same_file(const struct vfit_payload *p)
{
	struct stat st;

	return !fstat(p->fd, &st) && st.st_size == p->st.st_size &&
	       st.st_mtim.tv_sec == p->st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == p->st.st_mtim.tv_nsec &&
	       st.st_ctim.tv_sec == p->st.st_ctim.tv_sec &&
	       st.st_ctim.tv_nsec == p->st.st_ctim.tv_nsec;
}

int vfit_payloads_same(const struct vfit_fdtbuf *b, struct vfit_err *e)
{
	int i;

	for (i = 0; i < b->npl; i++)
		if (!same_file(&b->pl[i]))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read",
					    b->pl[i].file);
	return 0;
}

int vfit_payloads_fill(struct vfit_fdtbuf *b, struct vfit_err *e)
{
	const struct vfit_payload *p;
	char *room;
	int i, r;

	/* Filled in one go after all: big pages, as for any payload read whole. */
	vfit_hugepages(b->buf - b->head, b->head + b->cap);
	for (i = 0; i < b->npl; i++) {
		p = &b->pl[i];
		room = room_of(b, p);
		if (!room)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: data changed size", p->file,
					    p->node);
		r = vfit_read_full(p->fd, room, p->size, p->from);
		if (r && errno != EIO)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", p->file, strerror(errno));
		if (r || !same_file(p))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read",
					    p->file);
	}
	forget_payloads(b);
	return 0;
}

int vfit_fdtbuf_rooms(const struct vfit_fdtbuf *b, size_t *start, size_t *end)
{
	const char *room;
	int i;

	/* Added in structure order: sorted already. */
	for (i = 0; i < b->npl; i++) {
		room = room_of(b, &b->pl[i]);
		if (!room)
			return -1;
		start[i] = (size_t)(room - b->buf);
		end[i] = start[i] + b->pl[i].size;
	}
	return b->npl;
}

int vfit_fdtbuf_segs(const struct vfit_fdtbuf *b, size_t size, struct vfit_seg **seg, int *n)
{
	struct vfit_seg *s = calloc(2 * (size_t)b->npl + 1, sizeof(*s));
	size_t *start = calloc((size_t)b->npl + 1, 2 * sizeof(size_t)), *end, at = 0;
	int i, k = 0, rooms = -1;

	if (s && start) {
		end = start + b->npl + 1;
		rooms = vfit_fdtbuf_rooms(b, start, end);
	}

	for (i = 0; i < rooms; i++) {
		s[k++] = (struct vfit_seg){ at, b->buf + at, start[i] - at, -1, 0 };
		s[k++] = (struct vfit_seg){ start[i], NULL, b->pl[i].size, b->pl[i].fd, b->pl[i].from };
		at = end[i];
	}
	if (rooms >= 0 && at <= size)
		s[k++] = (struct vfit_seg){ at, b->buf + at, size - at, -1, 0 };
	free(start);
	if (rooms < 0 || at > size) {
		free(s);
		return -1;
	}
	*seg = s;
	*n = k;
	return 0;
}
