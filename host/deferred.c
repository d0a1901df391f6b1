/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A payload left in its file until the image pass (see struct
 * vfit_deferred in mkimage_int.h).  Signing a 64 MiB kernel then costs
 * what `openssl dgst` and `cp` cost: one read of the payload, one hash
 * and one write, the bytes passing through one small buffer that stays
 * in the cache, and nothing of the payload's size held in memory.  A
 * big buffer read full instead costs the kernel zeroing every fresh page
 * before the read copies over it (bench/mkimage.sh: that was 40% of the
 * CPU time).
 *
 * The bytes hashed are the bytes written, piece by piece, so a writer
 * changing the file meanwhile can make the output fail to verify but
 * never make a hash that describes other bytes than the FIT holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>

#include "mkimage_int.h"

int vfit_deferred_set(struct vfit_fdtbuf *b, const char *file, const char *node, size_t size)
{
	struct vfit_deferred *d = calloc(1, sizeof(*d));

	if (!d || !(d->file = strdup(file)) || !(d->node = strdup(node))) {
		if (d)
			free(d->file);
		free(d);
		return -1;
	}
	d->size = size;
	d->out = -1;
	d->at = UINT64_MAX;
	b->def = d;
	return 0;
}

void vfit_deferred_free(struct vfit_fdtbuf *b)
{
	if (!b->def)
		return;
	free(b->def->file);
	free(b->def->node);
	free(b->def);
	b->def = NULL;
}

char *vfit_deferred_room(const struct vfit_fdtbuf *b)
{
	int node = fdt_path_offset(b->buf, b->def->node), len;
	const void *p = node < 0 ? NULL : fdt_getprop(b->buf, node, "data", &len);

	return p && (size_t)len == b->def->size ? (char *)(uintptr_t)p : NULL;
}

int vfit_deferred_fill(struct vfit_fdtbuf *b, struct vfit_err *e)
{
	char *room = vfit_deferred_room(b);
	int r;

	if (!room)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: data changed size", b->def->file,
				    b->def->node);
	/* Filled in one go after all: big pages, as for any payload read whole. */
	vfit_hugepages(room, b->def->size);
	r = vfit_read_exact(b->def->file, (uint8_t *)room, b->def->size, e);
	vfit_deferred_free(b);
	return r;
}

int vfit_deferred_stream(struct vfit_fdtbuf *b, const char *out_name,
			 void (*eat)(void *arg, const uint8_t *p, size_t n), void *arg,
			 struct vfit_err *e)
{
	struct vfit_deferred *d = b->def;
	char *room = vfit_deferred_room(b);
	uint8_t *piece = malloc(VFIT_IO_PIECE), extra;
	size_t off, n;
	int in = -1, r = -1;

	if (!room || !piece) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", d->file,
			     room ? "out of memory" : "data changed size");
		goto out;
	}
	in = open(d->file, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", d->file, strerror(errno));
		goto out;
	}
	for (off = 0; off < d->size; off += n) {
		n = d->size - off < VFIT_IO_PIECE ? d->size - off : VFIT_IO_PIECE;
		if (vfit_read_full(in, piece, n, off)) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", d->file, errno == EIO ?
				     "file changed while being read" : strerror(errno));
			goto out;
		}
		eat(arg, piece, n);
		if (vfit_write_full(d->out, piece, n, (uint64_t)(room - b->buf) + off)) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write: %s", out_name, strerror(errno));
			goto out;
		}
	}
	/* Exactly size bytes, as the tree was laid out for. */
	if (pread(in, &extra, 1, (off_t)d->size) != 0) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read", d->file);
		goto out;
	}
	d->at = (uint64_t)(room - b->buf);
	r = 0;
out:
	if (in >= 0)
		close(in);
	free(piece);
	return r;
}
