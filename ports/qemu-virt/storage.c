/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vfit boot disk (format: include/vfit/disk.h) on the virtio disk:
 * the GPT (primary, else the backup at the end), the chains of FITs, and
 * the two-copy state and counter records.  Every field comes through the
 * device library's codecs, which distrust it; a corrupt record fails
 * closed (PLAT_IO_ERROR), it never reads as empty.
 */
#include <string.h>

#include "vfit/disk.h"
#include "plat.h"
#include "storage.h"
#include "virtio_blk.h"

enum { P_A, P_B, P_RECOVERY, P_STATE, P_COUNTERS, P_COUNT };

static const char *const part_name[P_COUNT] = {
	"vfit-a", "vfit-b", "vfit-recovery", "vfit-state", "vfit-counters",
};

static struct {
	uint64_t sectors;
	struct vfit_part part[P_COUNT];
	bool have[P_COUNT];
} disk;

static uint8_t sec[VFIT_DISK_SECTOR] __attribute__((aligned(64)));
static uint8_t ents[VFIT_GPT_ENTRIES * VFIT_GPT_ENTRY_SIZE] __attribute__((aligned(64)));
static uint8_t rec[2 * VFIT_REC_COPY] __attribute__((aligned(64)));
static uint8_t payload[VFIT_REC_PAYLOAD_MAX];

static uint64_t part_bytes(const struct vfit_part *p)
{
	return (p->last_lba - p->first_lba + 1) * VFIT_DISK_SECTOR;
}

/* A GPT at lba whose entry array also checks; 0 or -1. */
static int gpt_at(uint64_t lba, struct vfit_gpt *g)
{
	if (vblk_read(lba, sec, 1) || vfit_gpt_header(sec, lba, disk.sectors, g) ||
	    vblk_read(g->entries_lba, ents, (vfit_gpt_entries_bytes(g) + 511) / 512) ||
	    !vfit_gpt_entries_ok(g, ents))
		return -1;
	return 0;
}

const char *storage_init(void)
{
	struct vfit_gpt g;
	unsigned int i;

	if (vblk_init(&disk.sectors))
		return "no virtio block device";
	if (disk.sectors < 3 || (gpt_at(1, &g) && gpt_at(disk.sectors - 1, &g)))
		return "no valid GPT on the disk";
	for (i = 0; i < P_COUNT; i++) {
		enum vfit_disk_result r = vfit_gpt_find(&g, ents, part_name[i], &disk.part[i]);

		if (r == VFIT_DISK_BAD)
			return "GPT: a vfit partition is duplicated, out of bounds or shares sectors";
		disk.have[i] = r == VFIT_DISK_OK;
	}
	return NULL;
}

void storage_stop(void)
{
	vblk_stop();
}

static enum plat_io read_bytes(unsigned int p, uint64_t off, void *dst, uint64_t n)
{
	const struct vfit_part *pt = &disk.part[p];

	/* Callers pass sector-aligned offsets inside the partition. */
	return vblk_read(pt->first_lba + off / 512, dst, (n + 511) / 512) ? PLAT_IO_ERROR
									   : PLAT_IO_OK;
}

static enum plat_io write_bytes(unsigned int p, uint64_t off, const void *src, uint64_t n)
{
	const struct vfit_part *pt = &disk.part[p];

	return vblk_write(pt->first_lba + off / 512, src, (n + 511) / 512) ? PLAT_IO_ERROR
									    : PLAT_IO_OK;
}

static enum plat_io chain_hdr(enum plat_chain c, struct vfit_chain *ch)
{
	if (!disk.have[c])
		return PLAT_IO_ABSENT;
	if (read_bytes(c, 0, sec, sizeof(sec)))
		return PLAT_IO_ERROR;
	return vfit_chain_decode(sec, part_bytes(&disk.part[c]), ch) ? PLAT_IO_ERROR : PLAT_IO_OK;
}

enum plat_io plat_chain_read(enum plat_chain c, unsigned int stage, void *dst, size_t cap,
			     size_t *len)
{
	struct vfit_chain ch;
	enum plat_io r = chain_hdr(c, &ch);

	if (r)
		return r;
	if (stage >= ch.count)
		return PLAT_IO_ABSENT;
	if (ch.size[stage] > cap || (ch.size[stage] + 511) / 512 * 512 > cap)
		return PLAT_IO_BIG;
	r = read_bytes(c, ch.offset[stage], dst, ch.size[stage]);
	*len = (size_t)ch.size[stage];
	return r;
}

enum plat_io plat_chain_write(enum plat_chain c, const void *const fit[], const size_t len[],
			      unsigned int n)
{
	struct vfit_chain ch = { 0 };
	uint64_t off = 4096;
	size_t whole;
	unsigned int i;

	if (!disk.have[c])
		return PLAT_IO_ABSENT;
	if (n > VFIT_CHAIN_MAX)
		return PLAT_IO_BIG;
	for (i = 0; i < n; i++) {
		if (!len[i] || len[i] > part_bytes(&disk.part[c]) - off)
			return PLAT_IO_BIG;
		ch.offset[i] = off;
		ch.size[i] = len[i];
		off = (off + len[i] + 4095) / 4096 * 4096;
		if (off > part_bytes(&disk.part[c]))
			return PLAT_IO_BIG;
	}
	ch.count = n;
	/* Whole sectors from the FIT, and its tail from a zero-padded copy: nothing past it is read. */
	for (i = 0; i < n; i++) {
		whole = len[i] / 512 * 512;
		if (whole && write_bytes(c, ch.offset[i], fit[i], whole))
			return PLAT_IO_ERROR;
		if (whole == len[i])
			continue;
		memset(sec, 0, sizeof(sec));
		memcpy(sec, (const uint8_t *)fit[i] + whole, len[i] - whole);
		if (write_bytes(c, ch.offset[i] + whole, sec, sizeof(sec)))
			return PLAT_IO_ERROR;
	}
	vfit_chain_encode(&ch, sec);
	return write_bytes(c, 0, sec, sizeof(sec));
}

/* The newest valid copy of the record at byte off of a partition, or ERROR (fail closed). */
static enum plat_io rec_read(unsigned int p, uint64_t off, uint32_t kind, const uint8_t **data,
			     uint32_t *len, uint32_t *seq, unsigned int *which)
{
	if (!disk.have[p])
		return PLAT_IO_ERROR;
	if (part_bytes(&disk.part[p]) < off + sizeof(rec) || read_bytes(p, off, rec, sizeof(rec)))
		return PLAT_IO_ERROR;
	return vfit_rec_decode(rec, kind, data, len, seq, which) ? PLAT_IO_ERROR : PLAT_IO_OK;
}

/*
 * Writes the copy that is not the newest.  fresh: a record with no valid
 * copy may be started over (only the confirmation, which is no security
 * input; state and counters stay corrupt, failing closed).
 */
static enum plat_io rec_write(unsigned int p, uint64_t off, uint32_t kind, const void *data,
			      uint32_t len, bool fresh)
{
	const uint8_t *old;
	uint32_t old_len, seq = 0;
	unsigned int which = 1;
	enum plat_io r;

	if (!disk.have[p] || part_bytes(&disk.part[p]) < off + sizeof(rec))
		return PLAT_IO_ERROR;
	r = rec_read(p, off, kind, &old, &old_len, &seq, &which);
	if (r && !fresh)
		return r;
	which ^= 1;
	if (vfit_rec_encode(kind, seq + 1, data, len, rec + which * VFIT_REC_COPY))
		return PLAT_IO_BIG;
	return write_bytes(p, off + which * VFIT_REC_COPY, rec + which * VFIT_REC_COPY,
			   VFIT_REC_COPY);
}

enum plat_io plat_state_read(void *buf, size_t cap, size_t *len)
{
	const uint8_t *data;
	uint32_t n, seq;
	unsigned int which;
	enum plat_io r = rec_read(P_STATE, 0, VFIT_REC_STATE, &data, &n, &seq, &which);

	if (r)
		return r;
	if (!n)
		return PLAT_IO_ABSENT;
	if (n > cap)
		return PLAT_IO_BIG;
	memcpy(buf, data, n);
	*len = n;
	return PLAT_IO_OK;
}

enum plat_io plat_state_write(const void *buf, size_t len)
{
	if (!len || len > VFIT_REC_PAYLOAD_MAX)
		return PLAT_IO_BIG;
	return rec_write(P_STATE, 0, VFIT_REC_STATE, buf, (uint32_t)len, false);
}

enum plat_io plat_counter_read(const char *name, uint64_t *value)
{
	const uint8_t *data;
	uint32_t n, seq;
	unsigned int which;
	enum plat_io r = rec_read(P_COUNTERS, 0, VFIT_REC_COUNTERS, &data, &n, &seq, &which);

	if (r)
		return r;
	switch (vfit_ctr_get(data, n, name, value)) {
	case VFIT_DISK_OK:
		return PLAT_IO_OK;
	case VFIT_DISK_ABSENT:
		*value = 0;
		return PLAT_IO_OK;
	default:
		return PLAT_IO_ERROR;
	}
}

enum plat_io plat_counter_advance(const char *name, uint64_t value)
{
	const uint8_t *data;
	uint32_t n, seq;
	unsigned int which;
	enum plat_io r = rec_read(P_COUNTERS, 0, VFIT_REC_COUNTERS, &data, &n, &seq, &which);

	if (r)
		return r;
	memcpy(payload, data, n);
	if (vfit_ctr_set(payload, &n, sizeof(payload), name, value))
		return PLAT_IO_ERROR;
	return rec_write(P_COUNTERS, 0, VFIT_REC_COUNTERS, payload, n, false);
}

enum plat_io plat_confirm_read(unsigned int *slot, uint32_t *seq)
{
	const uint8_t *data;
	uint32_t n, rseq;
	unsigned int which;
	struct vfit_confirm c;

	if (rec_read(P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM, &data, &n, &rseq, &which) ||
	    vfit_confirm_decode(data, n, &c))
		return PLAT_IO_ABSENT;
	*slot = c.slot;
	*seq = c.seq;
	return PLAT_IO_OK;
}

enum plat_io plat_confirm_clear(void)
{
	return rec_write(P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM, NULL, 0, true);
}
