/* SPDX-License-Identifier: BSD-3-Clause */
/* Internals of `vfit disk` shared by the files of host/disk/: the image file, its records. */
#ifndef VFIT_HOST_DISK_INT_H
#define VFIT_HOST_DISK_INT_H

#include <stdint.h>

#include "vfit/disk.h"
#include "vfit-host/disk.h"
#include "vfit-host/io.h"

#define SEC VFIT_DISK_SECTOR
#define ENT_BYTES (VFIT_GPT_ENTRIES * VFIT_GPT_ENTRY_SIZE)
#define FIT_ALIGN 4096u

enum { P_A, P_B, P_RECOVERY, P_STATE, P_COUNTERS, P_COUNT };

extern const char *const vfit_disk_part_name[P_COUNT];

/* An open disk image: its GPT and the five vfit partitions. */
struct vfit_disk_img {
	const char *path;
	int fd;
	uint64_t lbas;
	struct vfit_gpt gpt;
	struct vfit_part part[P_COUNT];
};

/* One record (two copies) of a partition, as read. */
struct vfit_disk_rec {
	uint8_t copies[2 * VFIT_REC_COPY];
	const uint8_t *payload;
	uint32_t len, seq;
	unsigned int which;             /* the newest valid copy */
};

/* Sets e from errno ("PATH: WHAT: strerror") and returns -1. */
int vfit_disk_io_err(struct vfit_err *e, const char *path, const char *what);

/*
 * Opens path's GPT (primary, else backup) and finds every vfit partition;
 * closes the file on failure.  0, or -1 with e set.
 */
int vfit_disk_open(struct vfit_disk_img *d, const char *path, int flags, struct vfit_err *e);
uint64_t vfit_disk_part_bytes(const struct vfit_part *p);

/*
 * Atomic replacement through the host's one writer (vfit_out): a
 * temporary sibling of path (a sparse copy of src when src >= 0) is
 * changed, then committed (synced, renamed over path) or aborted.
 */
int vfit_disk_tmp_open(const char *path, int src, uint64_t size, struct vfit_out *tmp,
		       struct vfit_err *e);
int vfit_disk_tmp_commit(int fd, struct vfit_out *tmp, struct vfit_err *e);
void vfit_disk_tmp_abort(int fd, struct vfit_out *tmp);

/*
 * The record of kind at byte off of partition p, read through fd (the
 * image or its temporary copy): 0, or -1 with e set (EXIT_REJECT when no
 * copy is valid).
 */
int vfit_disk_rec_load(const struct vfit_disk_img *d, int fd, unsigned int p, uint64_t off,
		       uint32_t kind, struct vfit_disk_rec *r, struct vfit_err *e);
/*
 * Writes payload as the copy after r's newest (r as loaded; a record
 * with no valid copy has r->which 1 and r->seq 0, so copy 0 gets seq 1).
 */
int vfit_disk_rec_store(const struct vfit_disk_img *d, int fd, unsigned int p, uint64_t off,
			uint32_t kind, struct vfit_disk_rec *r, const void *payload,
			uint32_t len, struct vfit_err *e);

#endif
