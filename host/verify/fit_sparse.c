/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A FIT read for `vfit verify` with its big payloads left in the file.
 *
 * Verifying a FIT hashes each payload once; reading the whole file into
 * memory first costs, beyond that hash, the kernel zeroing a fresh page
 * for every 4 KiB (or 2 MiB) of payload before read() copies over it,
 * which made `vfit verify` of a 64 MiB kernel slower than `openssl dgst`
 * of the same file on a loaded machine.  Here the tree is read into
 * memory (header, structure and strings, every property but big `data`
 * values) and so is whatever follows it, except big runs of external
 * data; those pages stay unread and inaccessible (PROT_NONE: code that
 * touched them other than through the hash would fault, never read
 * zeros).  The library still verifies one buffer; only its hash backend
 * differs (struct vfit_crypto): an update over unread bytes preads them,
 * a small piece at a time, into one buffer that stays in the cache, as
 * `openssl dgst` reads its input.
 *
 * Each byte the verdict rests on is read once: what is hashed is what
 * was read.  A writer changing the file meanwhile can only make the
 * check fail; a file shorter than at the start is an I/O error (exit 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit/crypto.h"
#include "vfit-host/io.h"
#include "vfit-host/verify.h"

/* Values this big stay in the file; below it the tree reads them with everything else. */
#define HOLE_MIN (1u << 20)
#define HOLES 32
/* Read ahead while walking the structure block; the piece hashes go through. */
#define AHEAD (64u * 1024)

struct hole {
	size_t off, len;
};

struct vfit_sparse {
	const char *path;
	int fd;
	char *m;
	size_t size, filled;
	size_t str, str_len;    /* the strings block, read first */
	struct hole hole[HOLES];
	int nholes;
	int failed;             /* a hole could not be read: the file changed */
	uint8_t *piece;
};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Reads [s->filled, end) into place, but the strings block, read already (each byte once). */
static int read_to(struct vfit_sparse *s, size_t end)
{
	size_t from = s->filled, a = s->str, b = s->str + s->str_len;

	if (end <= from)
		return 0;
	if (from < a && vfit_read_full(s->fd, s->m + from, (end < a ? end : a) - from, from))
		return -1;
	if (end > b && vfit_read_full(s->fd, s->m + (from > b ? from : b),
				      end - (from > b ? from : b), from > b ? from : b))
		return -1;
	s->filled = end;
	return 0;
}

/* The file read at least up to end (within its size), in steps of AHEAD. */
static int ensure(struct vfit_sparse *s, size_t end)
{
	size_t to = s->size - s->filled < AHEAD ? s->size : s->filled + AHEAD;

	if (end <= s->filled)
		return 0;
	if (end > to)
		to = end < s->size ? end : s->size;
	return read_to(s, to);
}

/* Whether the property name at nameoff is "data". */
static int is_data(const struct vfit_sparse *s, uint32_t nameoff)
{
	return nameoff < s->str_len && s->str_len - nameoff >= 5 &&
	       !memcmp(s->m + s->str + nameoff, "data", 5);
}

/* Leaves [from, to) unread, in whole pages, when it is worth it: 1 if so. */
static int add_hole(struct vfit_sparse *s, size_t from, size_t to)
{
	size_t pg = page_size();

	from = (from + pg - 1) & ~(pg - 1);
	to &= ~(pg - 1);
	if (from < s->filled || to < from + HOLE_MIN || s->nholes == HOLES)
		return 0;
	s->hole[s->nholes].off = from;
	s->hole[s->nholes].len = to - from;
	s->nholes++;
	return 1;
}

/* Skips the hole just added: what precedes it read, the file position after it. */
static int skip_hole(struct vfit_sparse *s)
{
	const struct hole *h = &s->hole[s->nholes - 1];

	if (read_to(s, h->off))
		return -1;
	s->filled = h->off + h->len;
	return 0;
}

/*
 * Walks the structure block [st, end) as libfdt does, reading as it
 * goes, and leaves big `data` values unread.  Anything unexpected ends
 * the walk: the rest is read and the library judges it.  0, or -1 on a
 * read error.
 */
static int walk(struct vfit_sparse *s, size_t st, size_t end)
{
	size_t cur = st, v, len, name;
	uint32_t tag;

	while (cur + 4 <= end) {
		if (ensure(s, cur + 12))
			return -1;
		tag = fdt32_ld((const fdt32_t *)(s->m + cur));
		if (tag == FDT_END_NODE || tag == FDT_NOP) {
			cur += 4;
		} else if (tag == FDT_BEGIN_NODE) {
			for (name = cur + 4; name < end; name++) {
				if (ensure(s, name + 1))
					return -1;
				if (!s->m[name])
					break;
			}
			cur = (name + 4) & ~(size_t)3;
		} else if (tag == FDT_PROP && cur + 12 <= end) {
			len = fdt32_ld((const fdt32_t *)(s->m + cur + 4));
			v = cur + 12;
			if (len > end - v)
				return 0;
			if (len >= HOLE_MIN && is_data(s, fdt32_ld((const fdt32_t *)(s->m + cur + 8))) &&
			    add_hole(s, v > s->filled ? v : s->filled, v + len) && skip_hole(s))
				return -1;
			cur = (v + len + 3) & ~(size_t)3;
		} else {
			return 0;
		}
	}
	return 0;
}

/*
 * Holes only in a tree laid out as dtc and mkimage lay it out (header,
 * reservation map, structure, strings, nothing overlapping), so that no
 * byte the library reads as part of the tree can be in one.
 */
static int read_sparse(struct vfit_sparse *s)
{
	const void *h = s->m;
	size_t rsv, st, st_len, str, str_len, total, i;

	if (ensure(s, sizeof(struct fdt_header)))
		return -1;
	if (s->size < sizeof(struct fdt_header) || fdt_magic(h) != FDT_MAGIC ||
	    fdt_version(h) < 17)
		return 0;
	rsv = fdt_off_mem_rsvmap(h);
	st = fdt_off_dt_struct(h);
	st_len = fdt_size_dt_struct(h);
	str = fdt_off_dt_strings(h);
	str_len = fdt_size_dt_strings(h);
	total = fdt_totalsize(h);
	if (total > s->size || rsv < sizeof(struct fdt_header) || rsv % 8 || rsv > st ||
	    st > total || st_len > total - st || str < st + st_len || str > total ||
	    str_len > total - str)
		return 0;
	if (ensure(s, st))
		return -1;
	/* The reservation map ends with a zero entry before the structure block. */
	for (i = rsv;; i += 16) {
		if (i + 16 > st)
			return 0;
		if (!fdt64_ld((const fdt64_t *)(s->m + i)) && !fdt64_ld((const fdt64_t *)(s->m + i + 8)))
			break;
	}
	/* The names first: the walk needs them. */
	if (vfit_read_full(s->fd, s->m + str, str_len, str))
		return -1;
	s->str = str;
	s->str_len = str_len;
	if (walk(s, st, st + st_len))
		return -1;
	/* External data after the tree. */
	if (add_hole(s, s->filled > total ? s->filled : total, s->size))
		return skip_hole(s);
	return 0;
}

void vfit_sparse_close(struct vfit_sparse *s)
{
	if (!s)
		return;
	if (s->m)
		munmap(s->m, s->size);
	if (s->fd >= 0)
		close(s->fd);
	free(s->piece);
	free(s);
}

int vfit_sparse_open(const char *path, struct vfit_sparse **out, const void **p, size_t *len,
		     struct vfit_err *e)
{
	struct vfit_sparse *s = calloc(1, sizeof(*s));
	struct stat st;
	int i;

	*out = NULL;
	*p = NULL;
	*len = 0;
	if (!s || !(s->piece = malloc(VFIT_IO_PIECE))) {
		free(s);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	}
	s->path = path;
	s->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0 || fstat(s->fd, &st)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a regular file", path);
		goto fail;
	}
	s->size = (size_t)st.st_size;
	if (s->size) {
		s->m = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s->m == MAP_FAILED) {
			s->m = NULL;
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
			goto fail;
		}
	}
	if (s->size && (read_sparse(s) || read_to(s, s->size))) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path,
			     errno == EIO ? "file shrank while being read" : strerror(errno));
		goto fail;
	}
	/* Read-only from here; the holes not even that (a stray read faults, never sees zeros). */
	if (s->m && mprotect(s->m, s->size, PROT_READ)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: mprotect: %s", path, strerror(errno));
		goto fail;
	}
	for (i = 0; i < s->nholes; i++)
		if (mprotect(s->m + s->hole[i].off, s->hole[i].len, PROT_NONE)) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: mprotect: %s", path, strerror(errno));
			goto fail;
		}
	*out = s;
	*p = s->m;
	*len = s->size;
	return 0;
fail:
	vfit_sparse_close(s);
	return -1;
}

/*
 * The backend: the default one with hash_update replaced, the file being
 * verified beside it (crypto.h: the table first, converted back in the op).
 */
struct sparse_crypto {
	struct vfit_crypto ops;
	struct vfit_sparse *s;
};

/* Hashes file bytes [off, off + n) through the piece buffer. */
static void hash_file(struct vfit_sparse *s, struct vfit_hash_ctx *ctx, size_t off, size_t n)
{
	size_t k;

	for (; n && !s->failed; off += k, n -= k) {
		k = n < VFIT_IO_PIECE ? n : VFIT_IO_PIECE;
		if (vfit_read_full(s->fd, s->piece, k, off))
			s->failed = 1;
		else
			vfit_hash_update(ctx, s->piece, k);
	}
}

static void sparse_update(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
			  const void *p, size_t n)
{
	struct vfit_sparse *s = ((const struct sparse_crypto *)self)->s;
	const char *c = p;
	size_t off, k, end;
	int i;

	if ((uintptr_t)c < (uintptr_t)s->m || (uintptr_t)c - (uintptr_t)s->m > s->size ||
	    n > s->size - ((uintptr_t)c - (uintptr_t)s->m)) {
		vfit_hash_update(ctx, p, n);
		return;
	}
	off = (uintptr_t)c - (uintptr_t)s->m;
	end = off + n;
	/* The holes are in file order: memory up to each, the file inside it. */
	for (i = 0; i < s->nholes && off < end; i++) {
		const struct hole *h = &s->hole[i];

		if (h->off + h->len <= off)
			continue;
		if (h->off >= end)
			break;
		if (h->off > off) {
			vfit_hash_update(ctx, s->m + off, h->off - off);
			off = h->off;
		}
		k = (h->off + h->len < end ? h->off + h->len : end) - off;
		hash_file(s, ctx, off, k);
		off += k;
	}
	if (off < end)
		vfit_hash_update(ctx, s->m + off, end - off);
}

int vfit_sparse_verify(struct vfit_sparse *s, const void *ctl, size_t ctl_len, const char *conf,
		       unsigned int flags, struct vfit_verify_result *res, struct vfit_err *e)
{
	struct sparse_crypto cr = { vfit_crypto_default, s };
	enum vfit_result r;

	cr.ops.hash_update = sparse_update;
	r = vfit_verify_with(&cr.ops, s->m ? s->m : "", s->size, ctl, ctl_len, conf, flags, res);
	/* A file that changed meanwhile is an I/O error whatever r says; else r is in res. */
	(void)r;
	if (s->failed)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read",
				    s->path);
	return 0;
}
