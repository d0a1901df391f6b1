/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The disk image file under `vfit disk`: I/O, atomic replacement through a
 * temporary copy, the GPT and the vfit partitions, two-copy records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk_int.h"

const char *const vfit_disk_part_name[P_COUNT] = {
	"vfit-a", "vfit-b", "vfit-recovery", "vfit-state", "vfit-counters",
};

int vfit_disk_io_err(struct vfit_err *e, const char *path, const char *what)
{
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", path, what, strerror(errno));
}

/* ---- atomic replace: the changes go to a sparse copy renamed over the disk ---- */

static int copy_sparse(int in, int out, uint64_t size)
{
	static uint8_t buf[1 << 20];
	off_t pos = 0;

	while ((uint64_t)pos < size) {
		off_t data = lseek(in, pos, SEEK_DATA), hole;

		if (data < 0)
			break; /* the rest is a hole */
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			return -1;
		for (pos = data; pos < hole;) {
			size_t n = (size_t)(hole - pos) < sizeof(buf) ? (size_t)(hole - pos) : sizeof(buf);

			if (vfit_read_full(in, buf, n, (uint64_t)pos) || vfit_write_full(out, buf, n, (uint64_t)pos))
				return -1;
			pos += (off_t)n;
		}
	}
	return ftruncate(out, (off_t)size);
}

/* The atomic writer's temporary file (vfit_out); with src >= 0 it starts as a copy of it. */
int vfit_disk_tmp_open(const char *path, int src, uint64_t size, struct vfit_out *tmp,
		       struct vfit_err *e)
{
	int fd;

	memset(tmp, 0, sizeof(*tmp));
	fd = vfit_out_open(tmp, path, e);
	if (fd < 0)
		return -1;
	if (src >= 0 ? copy_sparse(src, fd, size) : ftruncate(fd, (off_t)size)) {
		vfit_disk_io_err(e, tmp->tmp, "write");
		vfit_disk_tmp_abort(fd, tmp);
		return -1;
	}
	return fd;
}

int vfit_disk_tmp_commit(int fd, struct vfit_out *tmp, struct vfit_err *e)
{
	return vfit_out_close(tmp, fd, e) || vfit_out_commit(tmp, e) ? -1 : 0;
}

void vfit_disk_tmp_abort(int fd, struct vfit_out *tmp)
{
	close(fd);
	vfit_out_discard(tmp);
}

/* ---- open an existing disk ---- */

static int gpt_at(struct vfit_disk_img *d, uint64_t lba, uint8_t *ents)
{
	uint8_t sec[SEC];

	return vfit_read_full(d->fd, sec, SEC, lba * SEC) ||
	       vfit_gpt_header(sec, lba, d->lbas, &d->gpt) ||
	       vfit_read_full(d->fd, ents, vfit_gpt_entries_bytes(&d->gpt), d->gpt.entries_lba * SEC) ||
	       !vfit_gpt_entries_ok(&d->gpt, ents) ? -1 : 0;
}

int vfit_disk_open(struct vfit_disk_img *d, const char *path, int flags, struct vfit_err *e)
{
	static uint8_t ents[ENT_BYTES];
	struct stat st;
	unsigned int i;

	d->path = path;
	d->fd = open(path, flags | O_CLOEXEC | O_NONBLOCK);
	if (d->fd < 0)
		return vfit_disk_io_err(e, path, "open");
	if (fstat(d->fd, &st) || !S_ISREG(st.st_mode)) {
		close(d->fd);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a regular file", path);
	}
	/* A file that is there but is no disk is bad input, as a corrupt disk is. */
	if (st.st_size % SEC) {
		close(d->fd);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a disk image (%lld bytes: not a "
				    "whole number of %d-byte sectors)", path, (long long)st.st_size,
				    SEC);
	}
	d->lbas = (uint64_t)st.st_size / SEC;
	if (d->lbas < 3 || (gpt_at(d, 1, ents) && gpt_at(d, d->lbas - 1, ents))) {
		close(d->fd);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: no valid GPT", path);
	}
	for (i = 0; i < P_COUNT; i++)
		if (vfit_gpt_find(&d->gpt, ents, vfit_disk_part_name[i], &d->part[i])) {
			close(d->fd);
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: GPT: partition %s missing or bad",
					    path, vfit_disk_part_name[i]);
		}
	return 0;
}

uint64_t vfit_disk_part_bytes(const struct vfit_part *p)
{
	return (p->last_lba - p->first_lba + 1) * SEC;
}

/* ---- records ---- */

int vfit_disk_rec_load(const struct vfit_disk_img *d, int fd, unsigned int p, uint64_t off,
		       uint32_t kind, struct vfit_disk_rec *r, struct vfit_err *e)
{
	r->which = 1;
	r->seq = 0;
	if (vfit_disk_part_bytes(&d->part[p]) < off + 2 * VFIT_REC_COPY)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: partition too small", d->path,
				    vfit_disk_part_name[p]);
	if (vfit_read_full(fd, r->copies, sizeof(r->copies), d->part[p].first_lba * SEC + off))
		return vfit_disk_io_err(e, d->path, "read");
	if (vfit_rec_decode(r->copies, kind, &r->payload, &r->len, &r->seq, &r->which))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no valid copy (corrupt)", d->path,
				    vfit_disk_part_name[p]);
	return 0;
}

int vfit_disk_rec_store(const struct vfit_disk_img *d, int fd, unsigned int p, uint64_t off,
			uint32_t kind, struct vfit_disk_rec *r, const void *payload,
			uint32_t len, struct vfit_err *e)
{
	uint8_t *copy = r->copies + (r->which ^ 1) * VFIT_REC_COPY;

	if (vfit_rec_encode(kind, r->seq + 1, payload, len, copy))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: record too large", d->path,
				    vfit_disk_part_name[p]);
	if (vfit_write_full(fd, copy, VFIT_REC_COPY,
			     d->part[p].first_lba * SEC + off + (r->which ^ 1) * VFIT_REC_COPY))
		return vfit_disk_io_err(e, d->path, "write");
	return 0;
}
