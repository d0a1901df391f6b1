/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Files for the host tools: whole-file reads, atomic replacement
 * (temporary file in the same directory, fsync, rename, fsync of the
 * directory), and the temporary files a fatal signal must not leave.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfit-host/io.h"

/*
 * Big buffers are filled once, straight from a file: 2 MiB pages cut the
 * page faults (the main cost after the copy itself) by 512.  The advice
 * covers whole pages, so that it never splits the mapping of a block
 * that malloc() mapped for it: realloc() can then still move the block
 * with mremap() (a mapping split in two makes it fail, and copy).
 */
void vfit_hugepages(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(page - 1), end = ((uintptr_t)p + len + page - 1) & ~(page - 1);

	if (len >= (8u << 20))
		madvise((void *)a, end - a, MADV_HUGEPAGE);
}

#define READ_MAX (1u << 30)

int vfit_fd_read(int fd, const char *what, size_t extra, char **data, size_t *len,
		 struct vfit_err *e)
{
	struct stat st;
	size_t cap = 1 << 20, n = 0;
	char *p, *q;
	ssize_t r;
	bool reg = !fstat(fd, &st) && S_ISREG(st.st_mode);

	/* A regular file is read into a buffer of exactly its size (plus extra). */
	if (reg && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	p = malloc(cap + extra);
	if (!p)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", what);
	vfit_hugepages(p, cap + extra);
	for (;;) {
		/* Anything else (a pipe, a device, /dev/zero) stops at a bound, not at memory's end. */
		if (n == cap && !reg && cap >= READ_MAX) {
			free(p);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: more than %u MiB and not a "
					    "regular file", what, READ_MAX >> 20);
		}
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

int vfit_read_exact(const char *path, uint8_t *dst, size_t size, struct vfit_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;
	uint8_t extra;

	if (fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	/* Exactly size bytes, and nothing after them. */
	r = vfit_read_full(fd, dst, size, 0) ? -1 : pread(fd, &extra, 1, (off_t)size);
	close(fd);
	if (r != 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read", path);
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
	struct stat st;
	int fd, err;

	o->tmp = NULL;
	if (tmp_name(o, path)) {
		vfit_out_discard(o);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	}
	/*
	 * A new file is renamed over the old one: a device, a FIFO or a
	 * socket there would be replaced by a plain file, and a read-only
	 * file's mode ignored.  Both are refused before anything is written.
	 */
	if (!stat(o->path, &st) && !S_ISREG(st.st_mode)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a regular file, not replaced", path);
		vfit_out_discard(o);
		return -1;
	}
	if (vfit_check_writable(path, e)) {
		vfit_out_discard(o);
		return -1;
	}
	fd = o->fixed_tmp ? create_tmp(o->tmp, target_mode(o)) : vfit_tmp_make(o->tmp, 0);
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

/* len bytes of in at from to out at to: by the kernel, or through a small buffer where it cannot. */
static int copy_range(int in, loff_t from, int out, loff_t to, size_t len)
{
	uint8_t *piece;
	size_t n;
	ssize_t r;

	while (len) {
		r = copy_file_range(in, &from, out, &to, len, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
			      errno == EOPNOTSUPP))
			break;
		if (r <= 0) {
			if (!r)
				errno = EIO;
			return -1;
		}
		len -= (size_t)r;
	}
	piece = len ? malloc(VFIT_IO_PIECE) : NULL;
	if (len && !piece)
		return -1;
	for (; len; len -= n, from += (loff_t)n, to += (loff_t)n) {
		n = len < VFIT_IO_PIECE ? len : VFIT_IO_PIECE;
		if (vfit_read_full(in, piece, n, (uint64_t)from) ||
		    vfit_write_full(out, piece, n, (uint64_t)to)) {
			free(piece);
			return -1;
		}
	}
	free(piece);
	return 0;
}

/*
 * A segment copied from its file, data extent by data extent: the holes
 * of a sparse payload stay holes in the new file, which reads as zeros
 * wherever nothing is written.  (A file that shrank meanwhile is caught by
 * the caller's check that it did not change.)
 */
static int copy_seg(int out, const struct vfit_seg *s)
{
	off_t at = (off_t)s->from, end = (off_t)(s->from + s->len), data, hole;

	while (at < end) {
		data = lseek(s->fd, at, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			return 0;
		hole = data < 0 ? end : lseek(s->fd, data, SEEK_HOLE);
		if (data < 0)
			data = at;
		if (data >= end)
			return 0;
		if (hole < 0 || hole > end)
			hole = end;
		if (copy_range(s->fd, data, out, (loff_t)(s->off + (uint64_t)(data - (off_t)s->from)),
			       (size_t)(hole - data)))
			return -1;
		at = hole;
	}
	return 0;
}

int vfit_out_write_fd(struct vfit_out *o, int fd, const struct vfit_seg *seg, int nseg,
		      uint64_t size, struct vfit_err *e)
{
	int i;

	for (i = 0; i < nseg; i++)
		if (seg[i].p ? vfit_write_full(fd, seg[i].p, seg[i].len, seg[i].off) :
		    copy_seg(fd, &seg[i]))
			goto io;
	if (ftruncate(fd, (off_t)size))
		goto io;
	return vfit_out_close(o, fd, e);
io:
	vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write: %s", o->path,
		     errno == EIO ? "an input file shrank while being read" : strerror(errno));
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
	if (!r && !o->fixed_tmp)
		vfit_tmp_drop(o->tmp);
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
	struct vfit_seg seg = { 0, data, len, -1, 0 };

	if (vfit_out_write(o, path, &seg, 1, len, e))
		return -1;
	return vfit_out_commit(o, e);
}

void vfit_out_discard(struct vfit_out *o)
{
	if (o->tmp) {
		unlink(o->tmp);
		if (!o->fixed_tmp)
			vfit_tmp_drop(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

/* ---- temporary files a fatal signal must not leave -------------------- */

/*
 * The paths held, most recent last.  Changed only with the signals
 * blocked, so the handler never sees a slot half written.
 */
#define HELD 8
static const char *volatile held[HELD];
static volatile sig_atomic_t nheld;
static const int fatal[] = { SIGINT, SIGTERM, SIGHUP };

/* Removes what is held (a file, or a directory once its files are gone), then dies as asked. */
static void on_fatal(int sig)
{
	sig_atomic_t i;

	for (i = nheld; i-- > 0;)
		if (unlink(held[i]))
			rmdir(held[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The handler where the signal would kill us; a signal ignored (nohup) stays ignored. */
static void install(void)
{
	static int done;
	struct sigaction sa, was;
	size_t i;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		if (!sigaction(fatal[i], NULL, &was) && was.sa_handler == SIG_DFL)
			sigaction(fatal[i], &sa, NULL);
}

/* With the signals blocked. */
static int hold(const char *path)
{
	install();
	if (nheld == HELD)
		return -1;
	held[nheld] = path;
	nheld = nheld + 1;
	return 0;
}

int vfit_tmp_hold(const char *path)
{
	sigset_t old;
	int r;

	block(&old);
	r = hold(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

int vfit_tmp_make(char *tmpl, int dir)
{
	sigset_t old;
	int r;

	/* Created and held at once: no signal can come between. */
	block(&old);
	r = dir ? (mkdtemp(tmpl) ? 0 : -1) : mkstemp(tmpl);
	if (r >= 0)
		hold(tmpl);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

void vfit_tmp_drop(const char *path)
{
	sigset_t old;
	sig_atomic_t i, k;

	block(&old);
	for (i = 0; i < nheld; i++)
		if (held[i] == path) {
			for (k = i; k + 1 < nheld; k++)
				held[k] = held[k + 1];
			nheld = nheld - 1;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
