/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `vfit disk`: creates and updates vfit boot disks (format: vfit/disk.h)
 * through the device library's own codecs, so the stage reads exactly what
 * is written here.  The GPT is the standard one (protective MBR, primary
 * and backup headers and entry arrays; `sgdisk -v` accepts it).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit/boot.h"
#include "vfit/hash.h"
#include "disk_int.h"

#define MIB (1024u * 1024u)
#define ENT_LBAS (ENT_BYTES / SEC)

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
		vfit_gpt_entry_encode(&parts[i], vfit_disk_part_name[i], ents + i * VFIT_GPT_ENTRY_SIZE);
	random_guid(g.disk_guid);
	g.first_lba = 2 + ENT_LBAS;
	g.last_lba = lbas - 2 - ENT_LBAS;
	g.nentries = VFIT_GPT_ENTRIES;
	g.entry_size = VFIT_GPT_ENTRY_SIZE;
	g.entries_crc = vfit_crc32(0, ents, sizeof(ents));
	protective_mbr(sec, lbas);
	if (vfit_write_full(fd, sec, SEC, 0))
		return -1;
	/* Primary at LBA 1 with its entries at 2; backup at the last LBA, entries just before. */
	g.my_lba = 1, g.alt_lba = lbas - 1, g.entries_lba = 2;
	vfit_gpt_header_encode(&g, sec);
	if (vfit_write_full(fd, sec, SEC, SEC) || vfit_write_full(fd, ents, sizeof(ents), 2 * SEC))
		return -1;
	g.my_lba = lbas - 1, g.alt_lba = 1, g.entries_lba = lbas - 1 - ENT_LBAS;
	vfit_gpt_header_encode(&g, sec);
	return vfit_write_full(fd, ents, sizeof(ents), g.entries_lba * SEC) ||
	       vfit_write_full(fd, sec, SEC, (lbas - 1) * SEC);
}

static int write_empty(int fd, const struct vfit_part *parts)
{
	static uint8_t copy[VFIT_REC_COPY];
	static const struct { unsigned int p; uint64_t off; uint32_t kind; } rec[] = {
		{ P_STATE, 0, VFIT_REC_STATE },
		{ P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM },
		{ P_COUNTERS, 0, VFIT_REC_COUNTERS },
	};
	struct vfit_chain empty = { 0 };
	uint8_t sec[SEC];
	unsigned int i;

	vfit_chain_encode(&empty, sec);
	for (i = P_A; i <= P_RECOVERY; i++)
		if (vfit_write_full(fd, sec, SEC, parts[i].first_lba * SEC))
			return -1;
	for (i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		if (vfit_rec_encode(rec[i].kind, 1, NULL, 0, copy) ||
		    vfit_write_full(fd, copy, sizeof(copy),
				     parts[rec[i].p].first_lba * SEC + rec[i].off))
			return -1;
	}
	return 0;
}

int vfit_disk_create(const char *path, uint64_t slot_bytes, uint64_t recovery_bytes,
		     struct vfit_err *e)
{
	uint64_t size[P_COUNT] = { slot_bytes, slot_bytes, recovery_bytes, MIB, MIB };
	struct vfit_part parts[P_COUNT];
	uint64_t lba = MIB / SEC, lbas;
	unsigned int i;
	struct vfit_out tmp;
	int fd;

	for (i = 0; i < P_COUNT; i++) {
		if (size[i] < MIB || size[i] > (1ull << 40))
			return vfit_err_set(e, VFIT_EXIT_USAGE,
					    "%s: partition sizes must be 1M..1T", path);
		memset(&parts[i], 0, sizeof(parts[i]));
		memcpy(parts[i].type, (const uint8_t[16])VFIT_DISK_TYPE_BYTES, 16);
		random_guid(parts[i].guid);
		parts[i].first_lba = lba;
		lba += (size[i] + MIB - 1) / MIB * (MIB / SEC);
		parts[i].last_lba = lba - 1;
	}
	lbas = lba + MIB / SEC; /* 1 MiB at the end for the backup GPT */
	fd = vfit_disk_tmp_open(path, -1, lbas * SEC, &tmp, e);
	if (fd < 0)
		return -1;
	if (write_gpt(fd, parts, lbas) || write_empty(fd, parts)) {
		vfit_disk_io_err(e, tmp.tmp, "write");
		vfit_disk_tmp_abort(fd, &tmp);
		return -1;
	}
	return vfit_disk_tmp_commit(fd, &tmp, e);
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
	struct vfit_disk_img d;
	unsigned int i, mapped = 0;
	int p = chain_index(chain), fd = -1, r = -1;
	struct vfit_out tmp;

	if (p < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "unknown chain '%s' (a, b or recovery)", chain);
	if (n > VFIT_CHAIN_MAX)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "a chain holds at most %d FITs", VFIT_CHAIN_MAX);
	if (vfit_disk_open(&d, path, O_RDONLY, e))
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
		if (len[i] > vfit_disk_part_bytes(&d.part[p]) - off) {
			vfit_err_set(e, VFIT_EXIT_REJECT,
				     "%s: chain %s: %s does not fit the %" PRIu64 "-byte partition",
				     path, chain, fits[i], vfit_disk_part_bytes(&d.part[p]));
			goto out;
		}
		ch.offset[i] = off;
		ch.size[i] = len[i];
		off = (off + len[i] + FIT_ALIGN - 1) / FIT_ALIGN * FIT_ALIGN;
	}
	ch.count = n;
	fd = vfit_disk_tmp_open(path, d.fd, d.lbas * SEC, &tmp, e);
	if (fd < 0)
		goto out;
	vfit_chain_encode(&ch, sec);
	for (i = 0; i < n; i++)
		if (vfit_write_full(fd, data[i], len[i], d.part[p].first_lba * SEC + ch.offset[i]))
			break;
	if (i < n || vfit_write_full(fd, sec, SEC, d.part[p].first_lba * SEC)) {
		vfit_disk_io_err(e, tmp.tmp, "write");
		vfit_disk_tmp_abort(fd, &tmp);
		goto out;
	}
	r = vfit_disk_tmp_commit(fd, &tmp, e);
out:
	for (i = 0; i < mapped; i++)
		vfit_file_unmap(data[i], len[i]);
	close(d.fd);
	return r;
}

int vfit_disk_counter(const char *path, const char *name, uint64_t value, struct vfit_err *e)
{
	static struct vfit_disk_rec rec;
	static uint8_t payload[VFIT_REC_PAYLOAD_MAX];
	struct vfit_disk_img d;
	uint32_t len;
	struct vfit_out tmp;
	int fd, r = -1;

	if (vfit_disk_open(&d, path, O_RDONLY, e))
		return -1;
	if (vfit_disk_rec_load(&d, d.fd, P_COUNTERS, 0, VFIT_REC_COUNTERS, &rec, e))
		goto out;
	len = rec.len;
	memcpy(payload, rec.payload, len);
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
	fd = vfit_disk_tmp_open(path, d.fd, d.lbas * SEC, &tmp, e);
	if (fd < 0)
		goto out;
	if (vfit_disk_rec_store(&d, fd, P_COUNTERS, 0, VFIT_REC_COUNTERS, &rec, payload, len, e)) {
		vfit_disk_tmp_abort(fd, &tmp);
		goto out;
	}
	r = vfit_disk_tmp_commit(fd, &tmp, e);
out:
	close(d.fd);
	return r;
}

/* ---- info ---- */

static int info_chain(FILE *f, struct vfit_disk_img *d, unsigned int p, struct vfit_err *e)
{
	struct vfit_chain ch;
	uint8_t sec[SEC];
	uint32_t i;

	if (vfit_read_full(d->fd, sec, SEC, d->part[p].first_lba * SEC))
		return vfit_disk_io_err(e, d->path, "read");
	if (vfit_chain_decode(sec, vfit_disk_part_bytes(&d->part[p]), &ch))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: corrupt chain header", d->path,
				    vfit_disk_part_name[p]);
	fprintf(f, "  chain: %u FIT%s", ch.count, ch.count == 1 ? "" : "s");
	for (i = 0; i < ch.count; i++)
		fprintf(f, "%s%" PRIu64 " bytes at +%" PRIu64, i ? ", " : ": ", ch.size[i], ch.offset[i]);
	fputc('\n', f);
	return 0;
}

/* The state blob as the stage reads it: slots, their trials, the last boot. */
static void info_state(FILE *f, const struct vfit_disk_rec *rec)
{
	struct vfit_boot_state st;
	unsigned int i;

	if (!rec->len)
		return;
	if (vfit_boot_state_decode(rec->payload, rec->len, &st)) {
		fprintf(f, "  blob: malformed (the flow starts from its default)\n");
		return;
	}
	fprintf(f, "  ");
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		fprintf(f, "%sslot %c %s", i ? ", " : "", 'A' + i,
			vfit_boot_slot_status_name(st.status[i]));
		if (st.status[i] == VFIT_SLOT_TRYING)
			fprintf(f, " (%u attempts left)", st.tries[i]);
	}
	fprintf(f, "; slot %c first; ", 'A' + st.active);
	if (st.booted == VFIT_BOOT_NONE)
		fprintf(f, "no slot booted last; state %u\n", st.seq);
	else
		fprintf(f, "%s booted last, at state %u\n",
			vfit_boot_chain_to_string((enum vfit_boot_chain)st.booted), st.seq);
}

/* The OS's pending confirmation (an unreadable one counts as none, as on the device). */
static int info_confirm(FILE *f, const struct vfit_disk_img *d, struct vfit_err *e)
{
	static struct vfit_disk_rec rec;
	struct vfit_err why = { 0 };
	struct vfit_confirm c;

	if (vfit_disk_rec_load(d, d->fd, P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM, &rec, &why)) {
		if (why.status != VFIT_EXIT_REJECT)
			return vfit_err_set(e, why.status, "%s", why.msg);
		fprintf(f, "confirmation: none (no valid copy)\n");
		return 0;
	}
	switch (vfit_confirm_decode(rec.payload, rec.len, &c)) {
	case VFIT_DISK_OK:
		fprintf(f, "confirmation: slot %c at state %u, pending (the next boot confirms it)\n",
			'A' + c.slot, c.seq);
		break;
	case VFIT_DISK_ABSENT:
		fprintf(f, "confirmation: none\n");
		break;
	default:
		fprintf(f, "confirmation: malformed (ignored)\n");
	}
	return 0;
}

int vfit_disk_info(FILE *f, const char *path, struct vfit_err *e)
{
	static struct vfit_disk_rec rec;
	const uint8_t *pl;
	uint32_t len, i;
	unsigned int p;
	struct vfit_disk_img d;
	int r = -1;

	if (vfit_disk_open(&d, path, O_RDONLY, e))
		return -1;
	fprintf(f, "%s: GPT, %" PRIu64 " sectors\n", path, d.lbas);
	for (p = 0; p < P_COUNT; p++) {
		fprintf(f, "%-14s LBA %" PRIu64 "..%" PRIu64 " (%" PRIu64 " KiB)\n",
			vfit_disk_part_name[p], d.part[p].first_lba, d.part[p].last_lba,
			vfit_disk_part_bytes(&d.part[p]) / 1024);
		if (p <= P_RECOVERY && info_chain(f, &d, p, e))
			goto out;
	}
	if (vfit_disk_rec_load(&d, d.fd, P_STATE, 0, VFIT_REC_STATE, &rec, e))
		goto out;
	fprintf(f, "state: %s (copy %u, seq %u)\n", rec.len ? "written" : "never written",
		rec.which, rec.seq);
	info_state(f, &rec);
	if (info_confirm(f, &d, e) ||
	    vfit_disk_rec_load(&d, d.fd, P_COUNTERS, 0, VFIT_REC_COUNTERS, &rec, e))
		goto out;
	pl = rec.payload;
	len = rec.len;
	if (len % VFIT_DISK_CTR_ENTRY ||
	    vfit_ctr_get(pl, len, "-", &(uint64_t){ 0 }) == VFIT_DISK_BAD) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: vfit-counters: corrupt payload", path);
		goto out;
	}
	fprintf(f, "counters: %u (copy %u, seq %u)\n", len / VFIT_DISK_CTR_ENTRY, rec.which,
		rec.seq);
	for (i = 0; i < len; i += VFIT_DISK_CTR_ENTRY) {
		uint64_t v = 0;

		/* The payload checked whole above: each of its names reads. */
		if (vfit_ctr_get(pl, len, (const char *)pl + i, &v) == VFIT_DISK_OK)
			fprintf(f, "  %s = %" PRIu64 "\n", (const char *)pl + i, v);
	}
	r = 0;
out:
	close(d.fd);
	return r;
}
