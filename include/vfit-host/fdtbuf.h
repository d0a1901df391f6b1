/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDT buffers for the host tools (host/core/fdtbuf.c): trees that grow
 * as they are written, with the big payloads left in their files, and
 * property writes applied in one pass (host/core/fdtedit.c).
 */
#ifndef VFIT_HOST_FDTBUF_H
#define VFIT_HOST_FDTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "vfit-host/err.h"
#include "vfit-host/io.h"

/*
 * A payload left in its file: the `data` of the image node at path node,
 * size bytes of the file fd from offset from.  Its room in the tree has
 * its length but is never written nor read, so none of it is faulted in,
 * whatever the number, order and sizes of the payloads: the image pass
 * hashes it from the file (vfit_payload_read()), the writer has the
 * kernel copy it from the file into the output (vfit_fdtbuf_segs()), and
 * what needs the bytes in memory (encryption, dm-verity, a libfdt write
 * that moves what follows it) reads every payload into its room first
 * (vfit_payloads_fill()).  The file is held open from the start, so the
 * bytes hashed and the bytes copied are one file's; vfit_payloads_same()
 * checks after the copy that nothing wrote to it meanwhile.
 */
struct vfit_payload {
	char *node;
	char *file;      /* as named, for messages */
	int fd;
	uint64_t from;
	size_t size;
	struct stat st;  /* when it was taken */
};

/* Payloads of at least this size stay in their files (smaller ones are read with the tree). */
#define VFIT_PAYLOAD_MIN (1u << 20)

/*
 * An FDT in a malloc'ed buffer in libfdt's read-write layout (header,
 * reservation map, structure, strings, free space), with the payloads
 * still in their files.  Writes through vfit_fdt_setprop() grow the
 * buffer instead of failing with NOSPACE; node offsets stay valid across
 * growth.  A buffer that grows from small to big (a payload about to be
 * read into it) gets head room: then vfit_edits_apply() can make room at
 * the front of the blob (the root timestamp) by moving what is before the
 * payload down, not the payload up.
 */
struct vfit_fdtbuf {
	char *buf;
	size_t cap;
	size_t head;    /* spare bytes allocated before buf (the block starts at buf - head) */
	struct vfit_payload *pl;   /* payloads still in their files, in structure order */
	int npl;
};
/* Head room a small buffer gets when it grows big: what writes at the front need. */
#define VFIT_FDTBUF_HEAD 4096
/* vfit_fdt_check() of a device tree read from file, as one error line (status 1). */
int vfit_fdt_valid(const char *file, const void *fdt, size_t len, struct vfit_err *e);
/* Takes ownership of data (len bytes used, cap allocated); checks and lays it out. */
int vfit_fdtbuf_adopt(struct vfit_fdtbuf *b, char *data, size_t len, size_t cap,
		      const char *file, struct vfit_err *e);
int vfit_fdtbuf_reserve(struct vfit_fdtbuf *b, size_t more);
/* fdt_setprop() that grows the buffer; payloads still in their files are read in first. */
int vfit_fdt_setprop(struct vfit_fdtbuf *b, int node, const char *name, const void *val,
		     size_t len);
int vfit_fdt_setprop_str(struct vfit_fdtbuf *b, int node, const char *name, const char *s);
int vfit_fdt_setprop_u32(struct vfit_fdtbuf *b, int node, const char *name, uint32_t v);
/* A property that is one NUL-terminated string, else NULL. */
const char *vfit_fdt_str(const void *fdt, int node, const char *name);
/* A 4-byte property as a number; -1 when absent or another size. */
int vfit_fdt_u32(const void *fdt, int node, const char *name, uint32_t *v);
/* Whether node's name starts with prefix ("hash", "signature": mkimage's test). */
int vfit_fdt_prefix(const void *fdt, int node, const char *prefix);
/* Finds or adds the subnode `name` of parent (a node offset, or a libfdt error). */
int vfit_fdt_subnode(void *fdt, int parent, const char *name);
/* Bytes in use: end of the strings block (the packed size). */
size_t vfit_fdt_used(const void *fdt);
/* Sets totalsize to size (>= used), zero-filling the free space up to it. */
int vfit_fdtbuf_set_size(struct vfit_fdtbuf *b, size_t size);
/* Frees the buffer and closes the payloads' files. */
void vfit_fdtbuf_free(struct vfit_fdtbuf *b);

/*
 * Makes node's `data` (added, or resized from what it is) size bytes of
 * room for the payload at offset from of the open file fd, which b now
 * owns (closed here on failure).  Payloads are added in structure order:
 * each resize moves only what follows it, never an earlier room.
 */
int vfit_fdtbuf_payload(struct vfit_fdtbuf *b, int node, const char *file, int fd,
			uint64_t from, size_t size, struct vfit_err *e);
/* The payload whose room is data (a `data` value in b->buf), or NULL. */
const struct vfit_payload *vfit_fdtbuf_payload_at(const struct vfit_fdtbuf *b, const void *data);
/* Reads the payload once, in pieces, each to eat(). */
int vfit_payload_read(const struct vfit_payload *p,
		      void (*eat)(void *arg, const uint8_t *p, size_t n), void *arg,
		      struct vfit_err *e);
/* Reads every payload into its room and forgets them: b is then an FDT like any other. */
int vfit_payloads_fill(struct vfit_fdtbuf *b, struct vfit_err *e);
/* Each payload's file as it was when taken (status 2, the file named, if not). */
int vfit_payloads_same(const struct vfit_fdtbuf *b, struct vfit_err *e);
/*
 * The bytes [0, size) of b as output segments: the buffer's, with each
 * room taken from its file.  *seg is malloc'ed; -1 if out of memory.
 */
int vfit_fdtbuf_segs(const struct vfit_fdtbuf *b, size_t size, struct vfit_seg **seg, int *n);
/* The rooms' offsets in b->buf, sorted: start[i], end[i]; their count, or -1 if one is lost. */
int vfit_fdtbuf_rooms(const struct vfit_fdtbuf *b, size_t *start, size_t *end);

/* Absolute path of a node (static storage overwritten by the next call). */
const char *vfit_node_path(const void *fdt, int node);

/* ---- property writes in one pass (host/core/fdtedit.c) ------------------ */

/*
 * Writes recorded against fdt as it is now and applied together by
 * vfit_edits_apply(), which leaves exactly the blob the same fdt_setprop()
 * calls in the same order would have (see host/core/fdtedit.c).
 */
struct vfit_edits;
struct vfit_edits *vfit_edits_new(const void *fdt);
/* Records name = val[0..len) on node (an offset in fdt); 0 or a negative libfdt error. */
int vfit_edits_set(struct vfit_edits *ed, int node, const char *name, const void *val,
		   size_t len);
/* The strings block as the writes recorded so far leave it, and its size. */
const char *vfit_edits_strings(const struct vfit_edits *ed, uint32_t *len);
/* Rebuilds fit with every write, in one pass; fit must still be the blob of vfit_edits_new(). */
int vfit_edits_apply(struct vfit_edits *ed, struct vfit_fdtbuf *fit);
void vfit_edits_free(struct vfit_edits *ed);

#endif
