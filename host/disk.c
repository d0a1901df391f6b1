/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `vfit disk`: creates and updates vfit boot disks (format: vfit/disk.h)
 * through the device library's own codecs, so the stage reads exactly what
 * is written here.  The GPT is the standard one (protective MBR, primary
 * and backup headers and entry arrays; `sgdisk -v` accepts it).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit/disk.h"
#include "vfit/hash.h"
#include "vfit-host/disk.h"

#define MIB (1024u * 1024u)
#define SEC VFIT_DISK_SECTOR
#define ENT_BYTES (VFIT_GPT_ENTRIES * VFIT_GPT_ENTRY_SIZE)
#define ENT_LBAS (ENT_BYTES / SEC)
#define FIT_ALIGN 4096u

enum { P_A, P_B, P_RECOVERY, P_STATE, P_COUNTERS, P_COUNT };

static const char *const part_name[P_COUNT] = {
	"vfit-a", "vfit-b", "vfit-recovery", "vfit-state", "vfit-counters",
};

struct disk {
	const char *path;
	int fd;
	uint64_t lbas;
	struct vfit_gpt gpt;
	struct vfit_part part[P_COUNT];
};

static int io_err(struct vfit_err *e, const char *path, const char *what)
{
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", path, what, strerror(errno));
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r <= 0) {
			if (!r)
				errno = EIO;
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += r, n -= (size_t)r, off += (uint64_t)r;
	}
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t r = pwrite(fd, p, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r, n -= (size_t)r, off += (uint64_t)r;
	}
	return 0;
}

static void random_guid(uint8_t g[16])
{
	size_t got = 0;

	while (got < 16) {
		ssize_t r = getrandom(g + got, 16 - got, 0);

		if (r > 0)
			got += (size_t)r;
	}
	g[7] = (uint8_t)((g[7] & 0x0f) | 0x40); /* version 4, stored little-endian */
	g[8] = (uint8_t)((g[8] & 0x3f) | 0x80);
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

			if (pread_all(in, buf, n, (uint64_t)pos) || pwrite_all(out, buf, n, (uint64_t)pos))
				return -1;
			pos += (off_t)n;
		}
	}
	return ftruncate(out, (off_t)size);
}

/* Opens a temporary sibling of path; with src >= 0 it starts as a copy of it. */
static int tmp_open(const char *path, int src, uint64_t size, char **tmp, struct vfit_err *e)
{
	struct stat st;
	int fd;

	if (asprintf(tmp, "%s.XXXXXX", path) < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		io_err(e, *tmp, "create");
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	if (src < 0) {
		mode_t mask = umask(0);

		umask(mask);
		st.st_mode = 0666 & ~mask;
	} else if (fstat(src, &st)) {
		st.st_mode = 0600;
	}
	if (fchmod(fd, st.st_mode & 07777) ||
	    (src >= 0 ? copy_sparse(src, fd, size) : ftruncate(fd, (off_t)size))) {
		io_err(e, *tmp, "write");
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return fd;
}

static int tmp_commit(int fd, char *tmp, const char *path, struct vfit_err *e)
{
	int r = 0;

	if (fsync(fd) || close(fd) || rename(tmp, path)) {
		r = io_err(e, path, "replace");
		unlink(tmp);
	}
	free(tmp);
	return r;
}

static void tmp_abort(int fd, char *tmp)
{
	close(fd);
	unlink(tmp);
	free(tmp);
}

/* ---- create ---- */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void protective_mbr(uint8_t *mbr, uint64_t lbas)
{
	uint8_t *pe = mbr + 446;

	memset(mbr, 0, SEC);
	pe[1] = 0x00, pe[2] = 0x02, pe[3] = 0x00;  /* CHS 0/0/2 */
	pe[4] = 0xee;
	pe[5] = 0xff, pe[6] = 0xff, pe[7] = 0xff;
	put_le32(pe + 8, 1);
	put_le32(pe + 12, lbas - 1 > 0xffffffffu ? 0xffffffffu : (uint32_t)(lbas - 1));
	mbr[510] = 0x55, mbr[511] = 0xaa;
}

static int write_gpt(int fd, const struct vfit_part *parts, uint64_t lbas)
{
	static uint8_t ents[ENT_BYTES];
	uint8_t sec[SEC];
	struct vfit_gpt g = { 0 };
	unsigned int i;

	memset(ents, 0, sizeof(ents));
	for (i = 0; i < P_COUNT; i++)
		vfit_gpt_entry_encode(&parts[i], part_name[i], ents + i * VFIT_GPT_ENTRY_SIZE);
	random_guid(g.disk_guid);
	g.first_lba = 2 + ENT_LBAS;
	g.last_lba = lbas - 2 - ENT_LBAS;
	g.nentries = VFIT_GPT_ENTRIES;
	g.entry_size = VFIT_GPT_ENTRY_SIZE;
	g.entries_crc = vfit_crc32(0, ents, sizeof(ents));
	protective_mbr(sec, lbas);
	if (pwrite_all(fd, sec, SEC, 0))
		return -1;
	/* Primary at LBA 1 with its entries at 2; backup at the last LBA, entries just before. */
	g.my_lba = 1, g.alt_lba = lbas - 1, g.entries_lba = 2;
	vfit_gpt_header_encode(&g, sec);
	if (pwrite_all(fd, sec, SEC, SEC) || pwrite_all(fd, ents, sizeof(ents), 2 * SEC))
		return -1;
	g.my_lba = lbas - 1, g.alt_lba = 1, g.entries_lba = lbas - 1 - ENT_LBAS;
	vfit_gpt_header_encode(&g, sec);
	return pwrite_all(fd, ents, sizeof(ents), g.entries_lba * SEC) ||
	       pwrite_all(fd, sec, SEC, (lbas - 1) * SEC);
}

static int write_empty(int fd, const struct vfit_part *parts)
{
	static uint8_t copy[VFIT_REC_COPY];
	struct vfit_chain empty = { 0 };
	uint8_t sec[SEC];
	unsigned int i;

	vfit_chain_encode(&empty, sec);
	for (i = P_A; i <= P_RECOVERY; i++)
		if (pwrite_all(fd, sec, SEC, parts[i].first_lba * SEC))
			return -1;
	(void)vfit_rec_encode(VFIT_REC_STATE, 1, NULL, 0, copy);
	if (pwrite_all(fd, copy, sizeof(copy), parts[P_STATE].first_lba * SEC))
		return -1;
	(void)vfit_rec_encode(VFIT_REC_COUNTERS, 1, NULL, 0, copy);
	return pwrite_all(fd, copy, sizeof(copy), parts[P_COUNTERS].first_lba * SEC);
}

int vfit_disk_create(const char *path, uint64_t slot_bytes, uint64_t recovery_bytes,
		     struct vfit_err *e)
{
	uint64_t size[P_COUNT] = { slot_bytes, slot_bytes, recovery_bytes, MIB, MIB };
	struct vfit_part parts[P_COUNT];
	uint64_t lba = MIB / SEC, lbas;
	unsigned int i;
	char *tmp;
	int fd;

	for (i = 0; i < P_COUNT; i++) {
		if (size[i] < MIB || size[i] > (1ull << 40))
			return vfit_err_set(e, VFIT_EXIT_USAGE,
					    "%s: partition sizes must be 1M..1T", path);
		memset(&parts[i], 0, sizeof(parts[i]));
		(void)vfit_guid_parse(VFIT_DISK_TYPE_GUID, parts[i].type);
		random_guid(parts[i].guid);
		parts[i].first_lba = lba;
		lba += (size[i] + MIB - 1) / MIB * (MIB / SEC);
		parts[i].last_lba = lba - 1;
	}
	lbas = lba + MIB / SEC; /* 1 MiB at the end for the backup GPT */
	fd = tmp_open(path, -1, lbas * SEC, &tmp, e);
	if (fd < 0)
		return -1;
	if (write_gpt(fd, parts, lbas) || write_empty(fd, parts)) {
		io_err(e, tmp, "write");
		tmp_abort(fd, tmp);
		return -1;
	}
	return tmp_commit(fd, tmp, path, e);
}

/* ---- open an existing disk ---- */

static int gpt_at(struct disk *d, uint64_t lba, uint8_t *ents)
{
	uint8_t sec[SEC];

	return pread_all(d->fd, sec, SEC, lba * SEC) ||
	       vfit_gpt_header(sec, lba, d->lbas, &d->gpt) ||
	       pread_all(d->fd, ents, vfit_gpt_entries_bytes(&d->gpt), d->gpt.entries_lba * SEC) ||
	       !vfit_gpt_entries_ok(&d->gpt, ents) ? -1 : 0;
}

static int disk_open(struct disk *d, const char *path, int flags, struct vfit_err *e)
{
	static uint8_t ents[ENT_BYTES];
	struct stat st;
	unsigned int i;

	d->path = path;
	d->fd = open(path, flags | O_CLOEXEC | O_NONBLOCK);
	if (d->fd < 0)
		return io_err(e, path, "open");
	if (fstat(d->fd, &st) || !S_ISREG(st.st_mode) || st.st_size % SEC) {
		close(d->fd);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a disk image file", path);
	}
	d->lbas = (uint64_t)st.st_size / SEC;
	if (d->lbas < 3 || (gpt_at(d, 1, ents) && gpt_at(d, d->lbas - 1, ents))) {
		close(d->fd);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: no valid GPT", path);
	}
	for (i = 0; i < P_COUNT; i++)
		if (vfit_gpt_find(&d->gpt, ents, part_name[i], &d->part[i])) {
			close(d->fd);
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: GPT: partition %s missing or bad",
					    path, part_name[i]);
		}
	return 0;
}

static uint64_t part_bytes(const struct vfit_part *p)
{
	return (p->last_lba - p->first_lba + 1) * SEC;
}

/* ---- chains ---- */

static int chain_index(const char *chain)
{
	if (!strcmp(chain, "a"))
		return P_A;
	if (!strcmp(chain, "b"))
		return P_B;
	if (!strcmp(chain, "recovery"))
		return P_RECOVERY;
	return -1;
}

int vfit_disk_write(const char *path, const char *chain, char *const fits[], unsigned int n,
		    struct vfit_err *e)
{
	const void *data[VFIT_CHAIN_MAX] = { 0 };
	size_t len[VFIT_CHAIN_MAX] = { 0 };
	struct vfit_chain ch = { 0 };
	uint8_t sec[SEC];
	uint64_t off = FIT_ALIGN;
	struct disk d;
	unsigned int i, mapped = 0;
	int p = chain_index(chain), fd = -1, r = -1;
	char *tmp = NULL;

	if (p < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "unknown chain '%s' (a, b or recovery)", chain);
	if (n > VFIT_CHAIN_MAX)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "a chain holds at most %d FITs", VFIT_CHAIN_MAX);
	if (disk_open(&d, path, O_RDONLY, e))
		return -1;
	for (; mapped < n; mapped++) {
		const void *f;

		if (vfit_file_map(fits[mapped], &data[mapped], &len[mapped], e))
			goto out;
		f = data[mapped];
		if (len[mapped] < sizeof(struct fdt_header) || fdt_magic(f) != FDT_MAGIC ||
		    fdt_totalsize(f) > len[mapped]) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (no FDT header)", fits[mapped]);
			mapped++;
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		if (len[i] > part_bytes(&d.part[p]) - off) {
			vfit_err_set(e, VFIT_EXIT_REJECT,
				     "%s: chain %s: %s does not fit the %" PRIu64 "-byte partition",
				     path, chain, fits[i], part_bytes(&d.part[p]));
			goto out;
		}
		ch.offset[i] = off;
		ch.size[i] = len[i];
		off = (off + len[i] + FIT_ALIGN - 1) / FIT_ALIGN * FIT_ALIGN;
	}
	ch.count = n;
	fd = tmp_open(path, d.fd, d.lbas * SEC, &tmp, e);
	if (fd < 0)
		goto out;
	vfit_chain_encode(&ch, sec);
	for (i = 0; i < n; i++)
		if (pwrite_all(fd, data[i], len[i], d.part[p].first_lba * SEC + ch.offset[i]))
			break;
	if (i < n || pwrite_all(fd, sec, SEC, d.part[p].first_lba * SEC)) {
		io_err(e, tmp, "write");
		tmp_abort(fd, tmp);
		goto out;
	}
	r = tmp_commit(fd, tmp, path, e);
out:
	for (i = 0; i < mapped; i++)
		vfit_file_unmap(data[i], len[i]);
	close(d.fd);
	return r;
}

/* ---- records ---- */

static int rec_load(struct disk *d, unsigned int p, uint32_t kind, uint8_t *copies,
		    const uint8_t **payload, uint32_t *len, uint32_t *seq, unsigned int *which,
		    struct vfit_err *e)
{
	if (part_bytes(&d->part[p]) < 2 * VFIT_REC_COPY)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: partition too small", d->path,
				    part_name[p]);
	if (pread_all(d->fd, copies, 2 * VFIT_REC_COPY, d->part[p].first_lba * SEC))
		return io_err(e, d->path, "read");
	if (vfit_rec_decode(copies, kind, payload, len, seq, which))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no valid copy (corrupt)", d->path,
				    part_name[p]);
	return 0;
}

int vfit_disk_counter(const char *path, const char *name, uint64_t value, struct vfit_err *e)
{
	static uint8_t copies[2 * VFIT_REC_COPY], payload[VFIT_REC_PAYLOAD_MAX];
	const uint8_t *old;
	uint32_t len, seq;
	unsigned int which;
	struct disk d;
	char *tmp;
	int fd, r = -1;

	if (disk_open(&d, path, O_RDONLY, e))
		return -1;
	if (rec_load(&d, P_COUNTERS, VFIT_REC_COUNTERS, copies, &old, &len, &seq, &which, e))
		goto out;
	memcpy(payload, old, len);
	switch (vfit_ctr_set(payload, &len, sizeof(payload), name, value)) {
	case VFIT_DISK_OK:
		break;
	case VFIT_DISK_FULL:
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: counter store full", path);
		goto out;
	default:
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: bad counter name '%s' or corrupt store", path,
			     name);
		goto out;
	}
	which ^= 1;
	(void)vfit_rec_encode(VFIT_REC_COUNTERS, seq + 1, payload, len,
			      copies + which * VFIT_REC_COPY);
	fd = tmp_open(path, d.fd, d.lbas * SEC, &tmp, e);
	if (fd < 0)
		goto out;
	if (pwrite_all(fd, copies + which * VFIT_REC_COPY, VFIT_REC_COPY,
		       d.part[P_COUNTERS].first_lba * SEC + which * VFIT_REC_COPY)) {
		io_err(e, tmp, "write");
		tmp_abort(fd, tmp);
		goto out;
	}
	r = tmp_commit(fd, tmp, path, e);
out:
	close(d.fd);
	return r;
}

/* ---- info ---- */

static int info_chain(FILE *f, struct disk *d, unsigned int p, struct vfit_err *e)
{
	struct vfit_chain ch;
	uint8_t sec[SEC];
	uint32_t i;

	if (pread_all(d->fd, sec, SEC, d->part[p].first_lba * SEC))
		return io_err(e, d->path, "read");
	if (vfit_chain_decode(sec, part_bytes(&d->part[p]), &ch))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: corrupt chain header", d->path,
				    part_name[p]);
	fprintf(f, "  chain: %u FIT%s", ch.count, ch.count == 1 ? "" : "s");
	for (i = 0; i < ch.count; i++)
		fprintf(f, "%s%" PRIu64 " bytes at +%" PRIu64, i ? ", " : ": ", ch.size[i], ch.offset[i]);
	fputc('\n', f);
	return 0;
}

int vfit_disk_info(FILE *f, const char *path, struct vfit_err *e)
{
	static uint8_t copies[2 * VFIT_REC_COPY];
	const uint8_t *pl;
	uint32_t len, seq, i;
	unsigned int p, which;
	struct disk d;
	int r = -1;

	if (disk_open(&d, path, O_RDONLY, e))
		return -1;
	fprintf(f, "%s: GPT, %" PRIu64 " sectors\n", path, d.lbas);
	for (p = 0; p < P_COUNT; p++) {
		fprintf(f, "%-14s LBA %" PRIu64 "..%" PRIu64 " (%" PRIu64 " KiB)\n", part_name[p],
			d.part[p].first_lba, d.part[p].last_lba, part_bytes(&d.part[p]) / 1024);
		if (p <= P_RECOVERY && info_chain(f, &d, p, e))
			goto out;
	}
	if (rec_load(&d, P_STATE, VFIT_REC_STATE, copies, &pl, &len, &seq, &which, e))
		goto out;
	fprintf(f, "state: %s (copy %u, seq %u)\n", len ? "written" : "never written", which, seq);
	if (rec_load(&d, P_COUNTERS, VFIT_REC_COUNTERS, copies, &pl, &len, &seq, &which, e))
		goto out;
	if (len % VFIT_DISK_CTR_ENTRY ||
	    vfit_ctr_get(pl, len, "-", &(uint64_t){ 0 }) == VFIT_DISK_BAD) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: vfit-counters: corrupt payload", path);
		goto out;
	}
	fprintf(f, "counters: %u (copy %u, seq %u)\n", len / VFIT_DISK_CTR_ENTRY, which, seq);
	for (i = 0; i < len; i += VFIT_DISK_CTR_ENTRY) {
		uint64_t v = 0;

		(void)vfit_ctr_get(pl, len, (const char *)pl + i, &v);
		fprintf(f, "  %s = %" PRIu64 "\n", (const char *)pl + i, v);
	}
	r = 0;
out:
	close(d.fd);
	return r;
}
