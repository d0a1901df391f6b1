/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Files for the host tools (host/core/fdtfile.c): whole-file reads and
 * snapshots, reads and writes at an offset, the one atomic writer
 * (vfit_out), and the temporary files a fatal signal must not leave.
 */
#ifndef VFIT_HOST_IO_H
#define VFIT_HOST_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vfit-host/err.h"

/*
 * Reads the regular file path into private read-only memory at *p (an
 * empty file gives NULL and 0): a snapshot that a writer of the file
 * cannot change while it is checked.  The open cannot hang on a FIFO put
 * in its place.  0, or -1 with e set (VFIT_EXIT_USAGE).  vfit_file_unmap()
 * releases it.
 */
int vfit_file_map(const char *path, const void **p, size_t *len, struct vfit_err *e);
void vfit_file_unmap(const void *p, size_t len);

/* Reads path into a malloc'ed buffer with `extra` spare bytes after the data. */
int vfit_file_read(const char *path, size_t extra, char **data, size_t *len,
		   struct vfit_err *e);
/* Reads a pipe or file descriptor to its end (same contract as vfit_file_read). */
int vfit_fd_read(int fd, const char *what, size_t extra, char **data, size_t *len,
		 struct vfit_err *e);

/*
 * Reads at most cap bytes of a small regular file (pass cap = limit + 1 to
 * detect an oversized one); 0, or -1 with errno (EINVAL: not a regular file).
 */
int vfit_read_small(const char *path, void *buf, size_t cap, size_t *len);
/* Asks for 2 MiB pages over the whole ones inside [p, p + len) of a big buffer. */
void vfit_hugepages(void *p, size_t len);
/* 0 if path is absent or writable; a read-only file (no write bit, or no access) is an error. */
int vfit_check_writable(const char *path, struct vfit_err *e);
/* Reads all n bytes at offset off (pread, retried; EIO at end of file); 0 or -1 with errno. */
int vfit_read_full(int fd, void *p, size_t n, uint64_t off);
/* Writes all n bytes at offset off (pwrite, retried); 0 or -1 with errno. */
int vfit_write_full(int fd, const void *p, size_t n, uint64_t off);
/* Reads exactly size bytes of path into dst (the file must not have changed size). */
int vfit_read_exact(const char *path, uint8_t *dst, size_t size, struct vfit_err *e);
/*
 * The buffer a payload streams through (its hash on the way to a FIT,
 * the sparse verify's hash): small enough to stay in the L2 cache
 * between the read and the hash.
 */
#define VFIT_IO_PIECE (256u * 1024)
/* The directory part of path ("." when none, "/" for the root); -1 if it does not fit. */
int vfit_dirname(const char *path, char *dir, size_t size);
/* fsync of the directory holding path, so a rename or link in it survives a power cut. */
int vfit_sync_dir(const char *path);

/*
 * One piece of an output file: len bytes at file offset off, from memory
 * at p or, when p is NULL, from the file fd at offset from (copied by the
 * kernel, never through this process's memory).
 */
struct vfit_seg {
	uint64_t off;
	const void *p;
	size_t len;
	int fd;
	uint64_t from;
};

/*
 * The one atomic file writer of the host side.  vfit_out_write() writes
 * and fsyncs a temporary file in the target's directory; vfit_out_commit()
 * renames it over the target (or, with no_replace, links it there,
 * failing with status 1 if the target exists) and fsyncs the directory;
 * vfit_out_discard() removes it.  Several outputs are written first and
 * committed together, so a failure before the commit leaves every file
 * as it was.  mode 0 keeps the target's mode (0666 & ~umask for a new
 * file).
 *
 * The temporary file has a unique name beside the target, which is
 * resolved through symlinks as writing through it would be, unless
 * fixed_tmp: then it is always PATH.tmp, created anew (a planted symlink
 * of that name is removed, never followed) and the target is the name
 * itself -- for device stores (the simulator's directory, counter files),
 * which an attacker may control and where a device that loses power
 * mid-write must reuse one file instead of collecting a new one each time.
 * durable(arg), when set, runs after each step that a power cut cannot
 * undo (the temporary file on disk, then the new name on disk): the
 * simulator counts them to cut power after any one.
 *
 * A uniquely named temporary file is removed when SIGINT, SIGTERM or
 * SIGHUP ends the process before the commit (vfit_tmp_hold()).
 */
struct vfit_out {
	char *path;
	char *tmp;
	mode_t mode;
	int no_replace;
	int fixed_tmp;
	void (*durable)(void *arg);
	void *arg;
};
int vfit_out_write(struct vfit_out *o, const char *path, const struct vfit_seg *seg, int nseg,
		   uint64_t size, struct vfit_err *e);
/*
 * vfit_out_write() in two steps, for a writer that fills the temporary
 * file itself (the disk image's sparse copy): vfit_out_open() creates it
 * and returns its descriptor, vfit_out_close() fsyncs and closes it; each
 * discards o on failure.  Then vfit_out_commit() or vfit_out_discard().
 */
int vfit_out_open(struct vfit_out *o, const char *path, struct vfit_err *e);
/* The segments written to fd from vfit_out_open(), the size set, then vfit_out_close(). */
int vfit_out_write_fd(struct vfit_out *o, int fd, const struct vfit_seg *seg, int nseg,
		      uint64_t size, struct vfit_err *e);
int vfit_out_close(struct vfit_out *o, int fd, struct vfit_err *e);
int vfit_out_commit(struct vfit_out *o, struct vfit_err *e);
void vfit_out_discard(struct vfit_out *o);
/* vfit_out_write() of len bytes at data, then vfit_out_commit(). */
int vfit_out_file(struct vfit_out *o, const char *path, const void *data, size_t len,
		  struct vfit_err *e);

/*
 * Temporary paths removed if a signal (SIGINT, SIGTERM, SIGHUP) ends the
 * process while they exist, most recent first (a directory after its
 * files).  vfit_tmp_make() is mkstemp() (returning the descriptor) or,
 * with dir, mkdtemp() (returning 0) of tmpl, holding the result;
 * vfit_tmp_hold() holds a path about to be created in a private
 * directory; vfit_tmp_drop() after removing or renaming it.  The path's
 * storage (compared by address) must live until it is dropped.
 */
int vfit_tmp_make(char *tmpl, int dir);
int vfit_tmp_hold(const char *path);
void vfit_tmp_drop(const char *path);

#endif
