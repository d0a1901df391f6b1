/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * File backend of the rollback counters: the embedded default.
 *
 * One file holds every counter.  All integers are big-endian:
 *
 *   0   4  magic "VFCT"
 *   4   4  format version (1)
 *   8   4  number of entries n (at most FILE_MAX_ENTRIES)
 *   12  4  zero
 *   16  40*n entries: name (VFIT_CTR_NAME_MAX+1 bytes, NUL-padded, the
 *          padding zero) and value (8 bytes)
 *   ... 32 SHA-256 of all the bytes before it
 *
 * The encoding is canonical (exact size, zero padding, unique names), so
 * one set of values has one file.  Updates go through
 * ctr_write(): after a crash at any point the file is either
 * the old one or the new one, and a stray temp file next to it is ignored.
 * A flock() on the directory serialises read-modify-write cycles of
 * concurrent processes.
 *
 * What the checksum is for: it detects corruption (a torn sector, a bit
 * flip, a truncated file) and a naive edit of a value, and the store then
 * fails closed, naming the file; it is never reset to zero, and a missing
 * file is an error too, since deleting the store must not roll counters
 * back.  It does not stop an attacker who can write the storage: he can
 * recompute the checksum, or simply put back an older copy of the file.  A
 * keyed MAC would not help against the latter either (the old copy carries
 * a valid MAC), and the key would have to live outside that storage
 * anyway.  Replay can only be stopped by storage that cannot go backwards,
 * which is what the TPM backend provides.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "vfit/hash.h"
#include "boot_int.h"

#define FILE_MAGIC "VFCT"
#define FILE_VERSION 1
#define FILE_MAX_ENTRIES 64
#define HDR_SIZE 16
#define NAME_FIELD (VFIT_CTR_NAME_MAX + 1)
#define ENTRY_SIZE (NAME_FIELD + 8)
#define SUM_SIZE 32
#define FILE_MAX_SIZE (HDR_SIZE + FILE_MAX_ENTRIES * ENTRY_SIZE + SUM_SIZE)

struct entry {
	char name[NAME_FIELD];
	uint64_t value;
};

struct table {
	uint32_t n;
	struct entry e[FILE_MAX_ENTRIES];
};

struct file_store {
	struct vfit_ctr_store base;
	char path[PATH_MAX];
	int dirfd;              /* flock()ed around read-modify-write */
};

static size_t encode(const struct table *t, uint8_t *buf)
{
	size_t off = HDR_SIZE;
	uint32_t i;

	memcpy(buf, FILE_MAGIC, 4);
	ctr_put_be(buf + 4, FILE_VERSION, 4);
	ctr_put_be(buf + 8, t->n, 4);
	ctr_put_be(buf + 12, 0, 4);
	for (i = 0; i < t->n; i++) {
		memset(buf + off, 0, NAME_FIELD);
		memcpy(buf + off, t->e[i].name, strlen(t->e[i].name));
		ctr_put_be(buf + off + NAME_FIELD, t->e[i].value, 8);
		off += ENTRY_SIZE;
	}
	vfit_hash(VFIT_HASH_SHA256, buf, off, buf + off);
	return off + SUM_SIZE;
}

static int find(const struct table *t, const char *name)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].name, name))
			return (int)i;
	return -1;
}

static int bad(const char *path, struct vfit_err *e, const char *what)
{
	return vfit_err_set(e, VFIT_EXIT_REJECT,
			    "%s: counter store %s; refusing to use it (not reset to zero)", path, what);
}

static int decode(const char *path, const uint8_t *buf, size_t len, struct table *t,
		  struct vfit_err *e)
{
	uint8_t sum[SUM_SIZE];
	uint32_t n, i;
	size_t off;

	if (len < 4 || memcmp(buf, FILE_MAGIC, 4))
		return bad(path, e, len < 4 ? "truncated" : "has a bad magic (not a vfit counter store)");
	if (len < HDR_SIZE + SUM_SIZE)
		return bad(path, e, "truncated");
	if ((uint32_t)ctr_get_be(buf + 4, 4) != FILE_VERSION)
		return bad(path, e, "has an unsupported format version");
	n = (uint32_t)ctr_get_be(buf + 8, 4);
	if (n > FILE_MAX_ENTRIES || (uint32_t)ctr_get_be(buf + 12, 4))
		return bad(path, e, "has a corrupted header");
	off = HDR_SIZE + (size_t)n * ENTRY_SIZE;
	if (len != off + SUM_SIZE)
		return bad(path, e, len < off + SUM_SIZE ? "truncated" : "has trailing bytes");
	vfit_hash(VFIT_HASH_SHA256, buf, off, sum);
	if (memcmp(sum, buf + off, SUM_SIZE))
		return bad(path, e, "checksum mismatch (corrupted or edited)");
	t->n = 0;
	for (i = 0; i < n; i++) {
		const uint8_t *p = buf + HDR_SIZE + (size_t)i * ENTRY_SIZE;
		size_t l = strnlen((const char *)p, NAME_FIELD);
		size_t k;

		if (l == NAME_FIELD)
			return bad(path, e, "has an unterminated counter name");
		for (k = l; k < NAME_FIELD; k++)
			if (p[k])
				return bad(path, e, "has non-zero name padding");
		memcpy(t->e[i].name, p, NAME_FIELD);
		if (!vfit_ctr_name_valid(t->e[i].name) || find(t, t->e[i].name) >= 0)
			return bad(path, e, "has an invalid or repeated counter name");
		t->e[i].value = ctr_get_be(p + NAME_FIELD, 8);
		t->n = i + 1;
	}
	return 0;
}

static int load(const char *path, struct table *t, struct vfit_err *e)
{
	uint8_t buf[FILE_MAX_SIZE + 1];
	size_t len;

	if (vfit_read_small(path, buf, sizeof(buf), &len)) {
		if (errno == ENOENT)
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: counter store missing; refusing to treat counters "
					    "as zero (provisioning creates it)", path);
		if (errno == EINVAL)
			return bad(path, e, "is not a regular file");
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot read counter store: %s", path,
				    strerror(errno));
	}
	if (len > FILE_MAX_SIZE)
		return bad(path, e, "is too large");
	return decode(path, buf, len, t, e);
}

static int store(const char *path, const struct table *t, int replace, struct vfit_err *e)
{
	uint8_t buf[FILE_MAX_SIZE];
	size_t len = encode(t, buf);

	return ctr_write(path, buf, len, replace, e);
}

static int file_read(struct vfit_ctr_store *s, const char *name, uint64_t *value,
		     struct vfit_err *e)
{
	struct file_store *f = (struct file_store *)s;
	struct table t;
	int i;

	if (load(f->path, &t, e))
		return -1;
	i = find(&t, name);
	*value = i < 0 ? 0 : t.e[i].value;
	return 0;
}

static int lock_dir(struct file_store *f, int op, struct vfit_err *e)
{
	while (flock(f->dirfd, op)) {
		if (errno != EINTR)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot lock its directory: %s",
					    f->path, strerror(errno));
	}
	return 0;
}

static int file_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
			uint64_t *old_value, uint64_t *new_value, struct vfit_err *e)
{
	struct file_store *f = (struct file_store *)s;
	struct table t;
	int i, r = -1;

	if (lock_dir(f, LOCK_EX, e))
		return -1;
	if (load(f->path, &t, e))
		goto out;
	i = find(&t, name);
	*old_value = i < 0 ? 0 : t.e[i].value;
	*new_value = *old_value;
	if (value <= *old_value) {
		r = 0;
		goto out;
	}
	if (i < 0) {
		if (t.n == FILE_MAX_ENTRIES) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: counter store full (%d counters)",
				     f->path, FILE_MAX_ENTRIES);
			goto out;
		}
		i = (int)t.n++;
		memset(t.e[i].name, 0, NAME_FIELD);
		memcpy(t.e[i].name, name, strlen(name));
	}
	t.e[i].value = value;
	if (store(f->path, &t, 1, e))
		goto out;
	*new_value = value;
	r = 0;
out:
	lock_dir(f, LOCK_UN, e);
	return r;
}

static void file_close(struct vfit_ctr_store *s)
{
	struct file_store *f = (struct file_store *)s;

	close(f->dirfd);
	free(f);
}

static const struct vfit_ctr_ops file_ops = {
	.read = file_read,
	.advance = file_advance,
	.close = file_close,
};

int vfit_ctr_file_provision(const char *path, struct vfit_err *e)
{
	struct table t = { .n = 0 };

	return store(path, &t, 0, e);
}

static int open_dir(const char *path, struct vfit_err *e)
{
	char dir[PATH_MAX];
	int fd;

	if (vfit_dirname(path, dir, sizeof(dir)))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: path too long", path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot open directory %s: %s", path, dir,
			     strerror(errno));
	return fd;
}

struct vfit_ctr_store *vfit_ctr_file_open(const char *path, struct vfit_err *e)
{
	struct file_store *f;
	struct table t;

	if (strlen(path) + sizeof(".tmp") > sizeof(f->path)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: path too long", path);
		return NULL;
	}
	/* Check the store now, so a bad one is reported at open time. */
	if (load(path, &t, e))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
		return NULL;
	}
	f->dirfd = open_dir(path, e);
	if (f->dirfd < 0) {
		free(f);
		return NULL;
	}
	f->base.ops = &file_ops;
	snprintf(f->base.desc, sizeof(f->base.desc), "file %s", path);
	strcpy(f->path, path);
	return &f->base;
}
