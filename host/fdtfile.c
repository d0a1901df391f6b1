/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Files and FDT buffers for mkimage: whole-file reads, atomic replacement
 * (temporary file in the same directory, fsync, rename, fsync of the
 * directory) and growable libfdt read-write buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "mkimage_int.h"

/*
 * Big buffers are filled once, straight from a file: 2 MiB pages cut the
 * page faults (the main cost after the copy itself) by 512.
 */
void vfit_hugepages(void *p, size_t len)
{
	uintptr_t a = ((uintptr_t)p + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(uintptr_t)((2u << 20) - 1);

	if (len >= (8u << 20) && end > a)
		madvise((void *)a, end - a, MADV_HUGEPAGE);
}

void vfit_smallpages(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + len) & ~(page - 1);

	if (end > a)
		madvise((void *)a, end - a, MADV_NOHUGEPAGE);
}

int vfit_fd_read(int fd, const char *what, size_t extra, char **data, size_t *len,
		 struct vfit_err *e)
{
	struct stat st;
	size_t cap = 1 << 20, n = 0;
	char *p, *q;
	ssize_t r;

	/* A regular file is read into a buffer of exactly its size (plus extra). */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	p = malloc(cap + extra);
	if (!p)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", what);
	vfit_hugepages(p, cap + extra);
	for (;;) {
		if (n == cap) {
			/* glibc moves large blocks with mremap: growth does not copy. */
			q = realloc(p, cap * 2 + extra);
			if (!q) {
				free(p);
				return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", what);
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(p);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read: %s", what, strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*data = p;
	*len = n;
	return 0;
}

int vfit_read_small(const char *path, void *buf, size_t cap, size_t *len)
{
	/* O_NONBLOCK: a FIFO planted in place of the file must not hang us. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t r;

	*len = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	while (*len < cap) {
		r = read(fd, (char *)buf + *len, cap - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = errno;

			close(fd);
			errno = err;
			return r < 0 ? -1 : 0;
		}
		*len += (size_t)r;
	}
	close(fd);
	return 0;
}

int vfit_file_read(const char *path, size_t extra, char **data, size_t *len,
		   struct vfit_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	ret = vfit_fd_read(fd, path, extra, data, len, e);
	close(fd);
	return ret;
}

int vfit_read_full(int fd, void *p, size_t n, uint64_t off)
{
	char *c = p;
	ssize_t r;

	while (n) {
		r = pread(fd, c, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (!r)
				errno = EIO;
			return -1;
		}
		c += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int vfit_write_full(int fd, const void *p, size_t n, uint64_t off)
{
	const char *c = p;
	ssize_t r;

	while (n) {
		r = pwrite(fd, c, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int vfit_dirname(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (!slash)
		return snprintf(dir, size, ".") < 0 ? -1 : 0;
	if (!n)
		n = 1;          /* the root directory keeps its slash */
	if (n >= size)
		return -1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

int vfit_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, r;

	if (vfit_dirname(path, dir, sizeof(dir)))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

/*
 * size bytes of anonymous memory starting on a 2 MiB boundary, in 2 MiB
 * pages up to the last whole one (the tail in small pages, so that no
 * more is resident than the file's size); NULL with errno.
 */
static char *map_aligned(size_t size)
{
	size_t huge = 2u << 20, page = (size_t)sysconf(_SC_PAGESIZE), len, head;
	char *m;

	len = (size + page - 1) & ~(page - 1);
	m = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	head = (huge - ((uintptr_t)m & (huge - 1))) & (huge - 1);
	if (head)
		munmap(m, head);
	munmap(m + head + len, huge - head);
	vfit_hugepages(m + head, size);
	return m + head;
}

/*
 * The file is read() into anonymous memory rather than mapped: one read
 * into 2 MiB pages takes 32 page faults for 64 MiB where a mapping of the
 * page cache takes one per 64 KiB or less (1,300 for a file written in
 * small pieces, as cp and mkimage write), and on a virtual machine the
 * faults cost more than the copy (bench/verify.sh measures both).  The
 * bytes are then a private snapshot: a writer changing or truncating the
 * file mid-check can neither change what is verified nor raise SIGBUS.
 */
int vfit_file_map(const char *path, const void **p, size_t *len, struct vfit_err *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *m = NULL;
	size_t size = 0, n = 0;
	ssize_t r;

	*p = NULL;
	*len = 0;
	if (fd < 0 || fstat(fd, &st)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a regular file", path);
	}
	size = (size_t)st.st_size;
	if (size) {
		m = map_aligned(size);
		if (!m) {
			close(fd);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
		}
	}
	while (n < size) {
		r = read(fd, m + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path,
				     r ? strerror(errno) : "file shrank while being read");
			close(fd);
			munmap(m, size);
			return -1;
		}
		n += (size_t)r;
	}
	close(fd);
	/* Read-only from here, as a mapping of the file was. */
	if (m)
		mprotect(m, size, PROT_READ);
	*p = m;
	*len = size;
	return 0;
}

void vfit_file_unmap(const void *p, size_t len)
{
	if (p)
		munmap((void *)(uintptr_t)p, len);
}

int vfit_check_writable(const char *path, struct vfit_err *e)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 :
		       vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	/* Mode bits as well as access(): root may write anything, but 0444 says "keep". */
	if (access(path, W_OK) || !(st.st_mode & 0222))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: read-only file (mode %04o), not replaced",
				    path, (unsigned int)(st.st_mode & 07777));
	return 0;
}

/*
 * Creates the fixed-name temporary file tmp for writing with mode: a stale
 * one left by an interrupted writer is removed first, and the file is
 * created anew (O_EXCL, O_NOFOLLOW), so a symlink planted under that name
 * can never redirect the write.  The fd, or -1 with errno.
 */
static int create_tmp(const char *tmp, mode_t mode)
{
	if (unlink(tmp) && errno != ENOENT)
		return -1;
	return open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

/* Mode for the new file: the one asked for, the old file's, or what open(0666) would give. */
static mode_t target_mode(const struct vfit_out *o)
{
	struct stat st;
	mode_t mask;

	if (o->mode)
		return o->mode;
	if (!stat(o->path, &st))
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* The temporary file's name: unique beside the resolved target, or PATH.tmp. */
static int tmp_name(struct vfit_out *o, const char *path)
{
	char *dcopy, *bcopy, *real = o->fixed_tmp ? NULL : realpath(path, NULL);
	size_t tlen;
	int ok;

	/* Replace what a symlink points to, as writing through it would. */
	o->path = real ? real : strdup(path);
	if (!o->path)
		return -1;
	tlen = strlen(o->path) + 16;
	o->tmp = malloc(tlen);
	if (!o->tmp)
		return -1;
	if (o->fixed_tmp) {
		snprintf(o->tmp, tlen, "%s.tmp", o->path);
		return 0;
	}
	dcopy = strdup(o->path);
	bcopy = strdup(o->path);
	ok = dcopy && bcopy;
	if (ok)
		snprintf(o->tmp, tlen, "%s/.%s.XXXXXX", dirname(dcopy), basename(bcopy));
	free(dcopy);
	free(bcopy);
	return ok ? 0 : -1;
}

int vfit_out_open(struct vfit_out *o, const char *path, struct vfit_err *e)
{
	int fd, err;

	o->tmp = NULL;
	if (tmp_name(o, path)) {
		vfit_out_discard(o);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	}
	fd = o->fixed_tmp ? create_tmp(o->tmp, target_mode(o)) : mkstemp(o->tmp);
	if (fd < 0) {
		err = errno;
		if (!o->fixed_tmp)
			*strrchr(o->tmp, '/') = 0;
		/* The new file is written beside the old one, then renamed over it. */
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot create %s%s: %s%s", path,
			     o->fixed_tmp ? "" : "temporary file in ", o->tmp, strerror(err),
			     err == EACCES || err == EPERM || err == EROFS ?
			     " (the directory must be writable: the file is replaced by a rename)" :
			     "");
		free(o->tmp);
		o->tmp = NULL;
		vfit_out_discard(o);
		return -1;
	}
	if (fchmod(fd, target_mode(o))) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write: %s", path, strerror(errno));
		close(fd);
		vfit_out_discard(o);
		return -1;
	}
	return fd;
}

int vfit_out_close(struct vfit_out *o, int fd, struct vfit_err *e)
{
	if (fsync(fd) || close(fd)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write: %s", o->path, strerror(errno));
		vfit_out_discard(o);
		return -1;
	}
	if (o->durable)
		o->durable(o->arg);
	return 0;
}

int vfit_out_write_fd(struct vfit_out *o, int fd, const struct vfit_seg *seg, int nseg,
		      uint64_t size, struct vfit_err *e)
{
	int i;

	for (i = 0; i < nseg; i++)
		if (vfit_write_full(fd, seg[i].p, seg[i].len, seg[i].off))
			goto io;
	if (ftruncate(fd, (off_t)size))
		goto io;
	return vfit_out_close(o, fd, e);
io:
	vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write: %s", o->path, strerror(errno));
	close(fd);
	vfit_out_discard(o);
	return -1;
}

int vfit_out_write(struct vfit_out *o, const char *path, const struct vfit_seg *seg, int nseg,
		   uint64_t size, struct vfit_err *e)
{
	int fd = vfit_out_open(o, path, e);

	return fd < 0 ? -1 : vfit_out_write_fd(o, fd, seg, nseg, size, e);
}

int vfit_out_commit(struct vfit_out *o, struct vfit_err *e)
{
	int r;

	if (o->no_replace) {
		/* link() never replaces: it fails with EEXIST, atomically. */
		r = link(o->tmp, o->path);
		if (r && errno == EEXIST) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: already exists, not overwritten",
				     o->path);
			vfit_out_discard(o);
			return -1;
		}
		if (!r)
			unlink(o->tmp);
	} else {
		r = rename(o->tmp, o->path);
	}
	if (r) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot install %s: %s", o->path, o->tmp,
			     strerror(errno));
		vfit_out_discard(o);
		return -1;
	}
	/* Make the new name itself durable. */
	r = vfit_sync_dir(o->path);
	if (r)
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot sync its directory: %s", o->path,
			     strerror(errno));
	else if (o->durable)
		o->durable(o->arg);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return r ? -1 : 0;
}

int vfit_out_file(struct vfit_out *o, const char *path, const void *data, size_t len,
		  struct vfit_err *e)
{
	struct vfit_seg seg = { 0, data, len };

	if (vfit_out_write(o, path, &seg, 1, len, e))
		return -1;
	return vfit_out_commit(o, e);
}

void vfit_out_discard(struct vfit_out *o)
{
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

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

/* Header, reservation map, structure, strings in that order with no gaps. */
static int in_rw_layout(const void *fdt)
{
	uint32_t rsv = fdt_off_mem_rsvmap(fdt);
	const struct fdt_reserve_entry *r;
	uint32_t n = 0;

	if (fdt_version(fdt) < 17 || rsv != ((sizeof(struct fdt_header) + 7) & ~(size_t)7))
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
	b->def = NULL;
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
	/* No zeroing: free space is only zeroed once, by vfit_fdtbuf_set_size(). */
	vfit_hugepages(p, cap);
	b->buf = p;
	b->cap = cap;
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

void vfit_fdtbuf_free(struct vfit_fdtbuf *b)
{
	if (b->buf)
		free(b->buf - b->head);
	vfit_deferred_free(b);
	b->buf = NULL;
	b->cap = b->head = 0;
}
