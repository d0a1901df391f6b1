/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `vfit disk update` and `vfit disk mark-good`: what the OS running from a
 * vfit boot disk does, played on the host.
 *
 * update runs the boot flow's own vfit_boot_update() (lib/boot) over the
 * disk image, so a disk is updated by exactly the rules of `vfit boot
 * update`: the new chain is verified with the keys the device trusts now
 * (the ROM control DTB built into the stage) and against its rollback
 * counters, written to the slot that is not running, read back, verified
 * again and only then offered for a trial.  The ops act on a temporary
 * copy of the image that replaces it only when the update is done, so a
 * refused or failed update changes nothing.
 *
 * mark-good only asks: it writes the confirmation record (vfit/disk.h)
 * naming the chain that booted last (a slot, or recovery).  The device
 * acts on it at its next power-on (vfit_boot_mark_good(): verified again,
 * trial ended, counters advanced): the counters belong to the device, and
 * the host never moves them.
 *
 * With --tpm (a device whose trust state is in its TPM, docs/trust-state.md)
 * both read the state and the counters from the TPM and ask through the
 * TPM's request index with owner authorization: what only a running OS
 * can do, never someone who can write the disk alone.  update still
 * writes the disk (the slot, and the state's copy the OS reads); the
 * request makes the device try it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vfit/boot_tpm.h"
#include "disk_int.h"
#include "vfit-host/tpm_dev.h"

/* The QEMU virt stage's RAM (ports/qemu-virt/plat.c): only the staging area is used. */
#define RAM_BASE 0x40000000u
#define RAM_SIZE 0x40000000u
#define LOADER_ADDR 0x4f000000u
#define LOADER_SIZE 0x01000000u
#define STAGING_ADDR 0x50000000u

/* The device as the flow's ops see it: the image (its temporary copy) and the ROM keys. */
struct dev {
	struct vfit_disk_img d;
	int fd;                 /* the temporary copy every op reads and writes */
	const void *rom;
	size_t rom_len;
	struct vfit_trust *trust;       /* --tpm: state and counters from the TPM */
	struct vfit_err e;      /* the first I/O error, for the exit line */
};

static struct vfit_disk_rec rec;

/* ---- the TPM, as the OS --------------------------------------------------------- */

struct os_tpm {
	struct vfit_tpm_sock dev;
	struct vfit_tpm tpm;
	struct vfit_trust t;
};

/* The device's trust state, read as the running OS reads it. */
static int tpm_attach(struct os_tpm *o, const char *path, struct vfit_err *e)
{
	struct vfit_tpm_transport tr;
	enum vfit_boot_why w;

	if (vfit_tpm_dev_open(&o->dev, path, e))
		return -1;
	vfit_tpm_sock_transport(&o->dev, &tr);
	vfit_tpm_init(&o->tpm, &tr);
	w = vfit_trust_attach(&o->t, &o->tpm);
	return w ? vfit_trust_err(e, path, &o->t, w) : 0;
}

/* The TPM's state (the default one before the first boot wrote it). */
static void tpm_state(struct vfit_trust *t, struct vfit_boot_state *st)
{
	uint8_t buf[VFIT_BOOT_STATE_SIZE];
	size_t len;

	if (vfit_trust_state_read(t, buf, sizeof(buf), &len) ||
	    vfit_boot_state_decode(buf, len, st))
		vfit_boot_state_default(st);
}

static int tpm_ask(struct os_tpm *o, const char *path, const struct vfit_boot_request *rq,
		   struct vfit_err *e)
{
	enum vfit_boot_why w = vfit_trust_ask(&o->t, rq, NULL, 0);

	return w ? vfit_trust_err(e, path, &o->t, w) : 0;
}

/* ---- chains ---------------------------------------------------------------- */

/* A chain's header; a corrupt one reads as an empty chain (what it held is gone). */
static enum vfit_io chain_hdr(struct dev *v, unsigned int p, struct vfit_chain *ch)
{
	uint8_t sec[SEC];

	memset(ch, 0, sizeof(*ch));
	if (vfit_read_full(v->fd, sec, SEC, v->d.part[p].first_lba * SEC)) {
		vfit_disk_io_err(&v->e, v->d.path, "read");
		return VFIT_IO_ERROR;
	}
	if (vfit_chain_decode(sec, vfit_disk_part_bytes(&v->d.part[p]), ch))
		memset(ch, 0, sizeof(*ch));
	return VFIT_IO_OK;
}

static enum vfit_io chain_put(struct dev *v, unsigned int p, const struct vfit_chain *ch)
{
	uint8_t sec[SEC];

	vfit_chain_encode(ch, sec);
	if (vfit_write_full(v->fd, sec, SEC, v->d.part[p].first_lba * SEC)) {
		vfit_disk_io_err(&v->e, v->d.path, "write");
		return VFIT_IO_ERROR;
	}
	return VFIT_IO_OK;
}

static enum vfit_io op_read(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			    unsigned int stage, void *dst, size_t cap, size_t *len)
{
	struct dev *v = plat;
	struct vfit_chain ch;
	unsigned int p = obj == VFIT_BOOT_OBJ_RECOVERY ? P_RECOVERY : slot ? P_B : P_A;
	unsigned int i = obj == VFIT_BOOT_OBJ_RECOVERY ? 0 : stage - 1;

	if (obj == VFIT_BOOT_OBJ_ROM) {
		if (v->rom_len > cap)
			return VFIT_IO_TOO_BIG;
		memcpy(dst, v->rom, v->rom_len);
		*len = v->rom_len;
		return VFIT_IO_OK;
	}
	if (obj == VFIT_BOOT_OBJ_USER_KEYS || (obj == VFIT_BOOT_OBJ_STAGE && (!stage || slot > 1)))
		return VFIT_IO_ABSENT;
	if (chain_hdr(v, p, &ch))
		return VFIT_IO_ERROR;
	if (i >= ch.count)
		return VFIT_IO_ABSENT;
	if (ch.size[i] > cap)
		return VFIT_IO_TOO_BIG;
	if (vfit_read_full(v->fd, dst, (size_t)ch.size[i],
			    v->d.part[p].first_lba * SEC + ch.offset[i])) {
		vfit_disk_io_err(&v->e, v->d.path, "read");
		return VFIT_IO_ERROR;
	}
	*len = (size_t)ch.size[i];
	return VFIT_IO_OK;
}

/*
 * Stage `stage` (1-based) of a slot's chain.  The chain format keeps the
 * FITs in order, so writing stage k drops the stages after it and
 * removing it (len 0) ends the chain before it: the flow writes a chain
 * from stage 1 up, then removes what follows.  Atomic as a whole: every
 * op writes the temporary copy.
 */
static enum vfit_io op_write(void *plat, unsigned int slot, unsigned int stage,
			     const void *src, size_t len)
{
	struct dev *v = plat;
	unsigned int p = slot ? P_B : P_A, k = stage - 1;
	uint64_t off, room = vfit_disk_part_bytes(&v->d.part[p]);
	struct vfit_chain ch;

	if (slot > 1 || !stage || stage > VFIT_CHAIN_MAX || chain_hdr(v, p, &ch))
		return VFIT_IO_ERROR;
	for (; ch.count > k; ch.count--)
		ch.offset[ch.count - 1] = ch.size[ch.count - 1] = 0;
	if (!len)
		return chain_put(v, p, &ch);
	if (k > ch.count)
		return VFIT_IO_ERROR;
	off = k ? (ch.offset[k - 1] + ch.size[k - 1] + FIT_ALIGN - 1) / FIT_ALIGN * FIT_ALIGN
		: FIT_ALIGN;
	if (off > room || len > room - off)
		return VFIT_IO_TOO_BIG;
	if (vfit_write_full(v->fd, src, len, v->d.part[p].first_lba * SEC + off)) {
		vfit_disk_io_err(&v->e, v->d.path, "write");
		return VFIT_IO_ERROR;
	}
	ch.offset[k] = off;
	ch.size[k] = len;
	ch.count = stage;
	return chain_put(v, p, &ch);
}

/* ---- records --------------------------------------------------------------------- */

static enum vfit_io op_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	struct dev *v = plat;

	if (v->trust)
		return vfit_trust_state_read(v->trust, buf, cap, len);
	if (vfit_disk_rec_load(&v->d, v->fd, P_STATE, 0, VFIT_REC_STATE, &rec, &v->e))
		return VFIT_IO_ERROR;
	if (!rec.len)
		return VFIT_IO_ABSENT;
	if (rec.len > cap)
		return VFIT_IO_TOO_BIG;
	memcpy(buf, rec.payload, rec.len);
	*len = rec.len;
	return VFIT_IO_OK;
}

static enum vfit_io op_state_write(void *plat, const void *buf, size_t len)
{
	struct dev *v = plat;

	return vfit_disk_rec_load(&v->d, v->fd, P_STATE, 0, VFIT_REC_STATE, &rec, &v->e) ||
	       vfit_disk_rec_store(&v->d, v->fd, P_STATE, 0, VFIT_REC_STATE, &rec, buf,
				   (uint32_t)len, &v->e) ? VFIT_IO_ERROR : VFIT_IO_OK;
}

/* Read only: the host checks an update against the counters, it never moves them. */
static enum vfit_io op_counter_read(void *plat, const char *name, uint64_t *value)
{
	struct dev *v = plat;

	if (v->trust)
		return vfit_trust_counter_read(v->trust, name, value);
	if (vfit_disk_rec_load(&v->d, v->fd, P_COUNTERS, 0, VFIT_REC_COUNTERS, &rec, &v->e))
		return VFIT_IO_ERROR;
	switch (vfit_ctr_get(rec.payload, rec.len, name, value)) {
	case VFIT_DISK_OK:
		return VFIT_IO_OK;
	case VFIT_DISK_ABSENT:
		*value = 0;
		return VFIT_IO_OK;
	default:
		vfit_err_set(&v->e, VFIT_EXIT_REJECT, "%s: vfit-counters: corrupt payload",
			     v->d.path);
		return VFIT_IO_ERROR;
	}
}

static void line(void *ctx, const char *s)
{
	(void)ctx;
	puts(s);
}

static void op_event(void *plat, const struct vfit_boot_event *ev)
{
	vfit_boot_format_event(ev, line, plat);
}

/* ---- commands --------------------------------------------------------------------- */

/*
 * State and counters must be readable, as the stage requires before it
 * boots: an update of a disk the device refuses would help nobody.
 */
static int stores_ok(struct dev *v, struct vfit_err *e)
{
	uint64_t x;

	if (vfit_disk_rec_load(&v->d, v->fd, P_STATE, 0, VFIT_REC_STATE, &rec, e))
		return -1;
	/* With a TPM the disk's counter partition is not read, by the device either. */
	if (!v->trust && op_counter_read(v, "kernel", &x))
		return vfit_err_set(e, v->e.status, "%s", v->e.msg);
	return 0;
}

/* The update; *target: the slot now offered for a trial. */
static int run_update(struct dev *v, const void *const fit[], const size_t len[],
		      unsigned int n, uint8_t *target, struct vfit_err *e)
{
	static struct vfit_boot_scratch scratch;
	static struct vfit_boot_event events[256];
	static struct vfit_boot_report report;
	const struct vfit_boot_ops ops = {
		.plat = v, .read = op_read, .write = op_write, .state_read = op_state_read,
		.state_write = op_state_write, .counter_read = op_counter_read, .event = op_event,
	};
	struct vfit_boot_region ram = { RAM_BASE, RAM_SIZE, NULL };
	struct vfit_boot_layout lay = { &ram, 1, LOADER_ADDR, LOADER_SIZE, STAGING_ADDR,
					RAM_BASE + RAM_SIZE - STAGING_ADDR };
	enum vfit_boot_result r;
	void *p;

	p = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "cannot map %u MiB for the staging area",
				    RAM_SIZE >> 20);
	ram.host = p;
	vfit_boot_report_init(&report, events, sizeof(events) / sizeof(events[0]));
	r = vfit_boot_update(&ops, &lay, &scratch, &report, fit, len, n);
	fflush(stdout);
	munmap(p, RAM_SIZE);
	*target = scratch.state.active;
	if (r == VFIT_BOOT_DONE)
		return 0;
	if (r == VFIT_BOOT_REFUSED)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: update refused (%s); the disk is "
				    "unchanged", v->d.path, vfit_boot_why_to_string(report.why));
	if (v->e.msg[0])
		return vfit_err_set(e, v->e.status, "%s", v->e.msg);
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: update failed (%s)", v->d.path,
			    vfit_boot_why_to_string(report.why));
}

int vfit_disk_update(const char *path, const char *rom, const char *tpm, char *const fits[],
		     unsigned int n, struct vfit_err *e)
{
	static struct os_tpm o;
	static struct dev v;
	struct vfit_boot_request rq = { 0, VFIT_BOOT_NONE, VFIT_BOOT_NONE };
	struct vfit_boot_state st;
	const void *fit[VFIT_BOOT_MAX_STAGES] = { 0 };
	size_t len[VFIT_BOOT_MAX_STAGES] = { 0 };
	unsigned int mapped = 0, i;
	struct vfit_out tmp;
	int r = -1;

	if (!n || n > VFIT_BOOT_MAX_STAGES)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "update takes 1 to %d FITs",
				    VFIT_BOOT_MAX_STAGES);
	memset(&v, 0, sizeof(v));
	o.dev.data_fd = -1;
	if (vfit_disk_open(&v.d, path, O_RDONLY, e))
		return -1;
	v.fd = -1;
	if (tpm) {
		if (tpm_attach(&o, tpm, e))
			goto out;
		v.trust = &o.t;
		tpm_state(&o.t, &st);
		rq.seq = st.seq;
	}
	if (vfit_file_map(rom, &v.rom, &v.rom_len, e))
		goto out;
	for (; mapped < n; mapped++)
		if (vfit_file_map(fits[mapped], &fit[mapped], &len[mapped], e))
			goto out;
	v.fd = vfit_disk_tmp_open(path, v.d.fd, v.d.lbas * SEC, &tmp, e);
	if (v.fd < 0)
		goto out;
	if (stores_ok(&v, e) || run_update(&v, fit, len, n, &rq.install, e)) {
		vfit_disk_tmp_abort(v.fd, &tmp);
		goto out;
	}
	r = vfit_disk_tmp_commit(v.fd, &tmp, e);
	/* The disk holds the new slot; now the device is asked to try it. */
	if (!r && tpm) {
		r = tpm_ask(&o, tpm, &rq, e);
		if (!r)
			printf("update: the device is asked through the TPM to try slot %c\n",
			       'A' + rq.install);
	}
out:
	for (i = 0; i < mapped; i++)
		vfit_file_unmap(fit[i], len[i]);
	if (v.rom)
		vfit_file_unmap(v.rom, v.rom_len);
	vfit_tpm_sock_close(&o.dev);
	close(v.d.fd);
	return r;
}

/* The chain to confirm: the one that booted last, unless none did or its slot is bad. */
static int confirmable(const char *path, const struct vfit_boot_state *st, struct vfit_err *e)
{
	enum vfit_boot_why w = vfit_boot_state_confirmable(st);

	if (w == VFIT_WHY_BOOTED_BAD)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: mark-good: slot %c is marked bad", path,
				    'A' + st->booted);
	return w ? vfit_err_set(e, VFIT_EXIT_REJECT, "%s: mark-good: %s", path,
				vfit_boot_why_to_string(w)) : 0;
}

static const char *chain_name(unsigned int c)
{
	return vfit_boot_chain_to_string((enum vfit_boot_chain)c);
}

/* With a TPM: the state from the TPM, the request into its request index. */
static int mark_good_tpm(const char *path, const char *tpm, struct vfit_err *e)
{
	static struct os_tpm o;
	struct vfit_boot_state st;
	struct vfit_boot_request rq;
	int r = -1;

	o.dev.data_fd = -1;
	if (tpm_attach(&o, tpm, e))
		goto out;
	tpm_state(&o.t, &st);
	if (confirmable(path, &st, e))
		goto out;
	rq.seq = st.seq;
	rq.confirm = st.booted;
	rq.install = VFIT_BOOT_NONE;
	r = tpm_ask(&o, tpm, &rq, e);
	if (!r)
		printf("mark-good: %s (booted at state %u) is confirmed at the next boot, which "
		       "verifies it again and advances its rollback counters (asked through the "
		       "TPM)\n", chain_name(st.booted), st.seq);
out:
	vfit_tpm_sock_close(&o.dev);
	return r;
}

int vfit_disk_mark_good(const char *path, const char *tpm, struct vfit_err *e)
{
	static struct vfit_disk_rec conf;
	struct vfit_boot_state st;
	struct vfit_confirm c;
	struct vfit_disk_img d;
	struct vfit_err ignored = { 0 };
	uint8_t payload[VFIT_CONFIRM_SIZE];
	struct vfit_out tmp;
	int fd, r = -1;

	if (tpm)
		return mark_good_tpm(path, tpm, e);
	if (vfit_disk_open(&d, path, O_RDONLY, e))
		return -1;
	if (vfit_disk_rec_load(&d, d.fd, P_STATE, 0, VFIT_REC_STATE, &rec, e))
		goto out;
	if (!rec.len || vfit_boot_state_decode(rec.payload, rec.len, &st))
		vfit_boot_state_default(&st);
	if (confirmable(path, &st, e))
		goto out;
	/* An unreadable request is replaced: it asks for nothing the device trusts. */
	(void)vfit_disk_rec_load(&d, d.fd, P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM, &conf,
				 &ignored);
	if (ignored.status == VFIT_EXIT_USAGE) {
		vfit_err_set(e, ignored.status, "%s", ignored.msg);
		goto out;
	}
	c.slot = st.booted;
	c.seq = st.seq;
	vfit_confirm_encode(&c, payload);
	fd = vfit_disk_tmp_open(path, d.fd, d.lbas * SEC, &tmp, e);
	if (fd < 0)
		goto out;
	if (vfit_disk_rec_store(&d, fd, P_STATE, VFIT_CONFIRM_AT, VFIT_REC_CONFIRM, &conf, payload,
				sizeof(payload), e)) {
		vfit_disk_tmp_abort(fd, &tmp);
		goto out;
	}
	r = vfit_disk_tmp_commit(fd, &tmp, e);
	if (!r)
		printf("mark-good: %s (booted at state %u) is confirmed at the next boot, which "
		       "verifies it again and advances its rollback counters\n",
		       chain_name(st.booted), st.seq);
out:
	close(d.fd);
	return r;
}
