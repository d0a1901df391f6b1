/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-memory device of the boot flow's unit tests (see boot_dev.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "boot_dev.h"
#include "check.h"
#include "vfit-host/host.h"

void blob_set(struct blob *b, const void *p, size_t n)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
	if (!n)
		return;
	b->p = malloc(n);
	memcpy(b->p, p, n);
	b->n = n;
}

/* Whether this durable write survives (false once the power is cut). */
static bool durable(struct dev *d)
{
	if (d->cut_after && d->writes >= d->cut_after)
		return false;
	d->writes++;
	return true;
}

static enum vfit_io m_read(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			   unsigned int stage, void *dst, size_t cap, size_t *len)
{
	struct dev *d = plat;
	const struct blob *b = obj == VFIT_BOOT_OBJ_ROM ? &d->rom :
			       obj == VFIT_BOOT_OBJ_RECOVERY ? &d->recovery :
			       obj == VFIT_BOOT_OBJ_USER_KEYS ? &d->user :
			       &d->stage[slot][stage - 1];

	if (obj == VFIT_BOOT_OBJ_STAGE && d->stage_broken)
		return VFIT_IO_ERROR;
	if (!b->p)
		return VFIT_IO_ABSENT;
	if (b->n > cap)
		return VFIT_IO_TOO_BIG;
	memcpy(dst, b->p, b->n);
	*len = b->n;
	return VFIT_IO_OK;
}

static enum vfit_io m_write(void *plat, unsigned int slot, unsigned int stage, const void *src,
			    size_t len)
{
	struct dev *d = plat;
	struct blob *b = &d->stage[slot][stage - 1];

	if (d->write_broken)
		return VFIT_IO_ERROR;
	if (durable(d))
		blob_set(b, src, len);
	if (d->write_flips && b->n)
		b->p[b->n / 2] ^= 1;
	return VFIT_IO_OK;
}

static enum vfit_io m_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	struct dev *d = plat;

	if (!d->state.p)
		return VFIT_IO_ABSENT;
	*len = d->state.n < cap ? d->state.n : cap;
	memcpy(buf, d->state.p, *len);
	return VFIT_IO_OK;
}

static enum vfit_io m_state_write(void *plat, const void *buf, size_t len)
{
	struct dev *d = plat;

	if (d->state_broken)
		return VFIT_IO_ERROR;
	if (durable(d))
		blob_set(&d->state, buf, len);
	return VFIT_IO_OK;
}

uint64_t *dev_ctr(struct dev *d, const char *name)
{
	unsigned int i;

	for (i = 0; i < d->nctr; i++)
		if (!strcmp(d->ctr_name[i], name))
			return &d->ctr[i];
	snprintf(d->ctr_name[d->nctr], VFIT_BOOT_COUNTER_NAME, "%s", name);
	d->ctr[d->nctr] = 0;
	return &d->ctr[d->nctr++];
}

static enum vfit_io m_ctr_read(void *plat, const char *name, uint64_t *v)
{
	if (((struct dev *)plat)->ctr_broken)
		return VFIT_IO_ERROR;
	*v = *dev_ctr(plat, name);
	return VFIT_IO_OK;
}

static enum vfit_io m_ctr_advance(void *plat, const char *name, uint64_t v)
{
	struct dev *d = plat;

	if (d->advance_broken)
		return VFIT_IO_ERROR;
	if (durable(d) && v > *dev_ctr(d, name))
		*dev_ctr(d, name) = v;
	return VFIT_IO_OK;
}

static bool m_dev_mode(void *plat)
{
	return ((struct dev *)plat)->dev_mode;
}

static void m_line(void *plat, const char *line)
{
	struct dev *d = plat;
	size_t n = strlen(line);

	if (d->loglen + n + 2 > sizeof(d->log))
		d->loglen = 0;
	memcpy(d->log + d->loglen, line, n);
	d->log[d->loglen + n] = '\n';
	d->loglen += n + 1;
	d->log[d->loglen] = 0;
}

static void m_event(void *plat, const struct vfit_boot_event *ev)
{
	vfit_boot_format_event(ev, m_line, plat);
}

struct vfit_boot_ops dev_ops(struct dev *d, bool print)
{
	struct vfit_boot_ops o = {
		.plat = d, .read = m_read, .write = m_write, .state_read = m_state_read,
		.state_write = m_state_write, .counter_read = m_ctr_read,
		.counter_advance = m_ctr_advance, .dev_mode = m_dev_mode,
		.event = print ? m_event : NULL,
	};
	return o;
}

void dev_layout(struct vfit_boot_layout *l, struct vfit_boot_region *region, uint8_t *ram)
{
	region->base = RAM_BASE;
	region->size = RAM_SIZE;
	region->host = ram;
	l->ram = region;
	l->nram = 1;
	l->loader_addr = LOADER_ADDR;
	l->loader_size = LOADER_SIZE;
	l->fit_addr = FIT_ADDR;
	l->fit_size = FIT_SIZE;
}

void dev_copy(struct dev *dst, const struct dev *src)
{
	unsigned int s, k;

	memset(dst, 0, sizeof(*dst));
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		for (k = 0; k < VFIT_BOOT_MAX_STAGES; k++)
			blob_set(&dst->stage[s][k], src->stage[s][k].p, src->stage[s][k].n);
	blob_set(&dst->rom, src->rom.p, src->rom.n);
	blob_set(&dst->recovery, src->recovery.p, src->recovery.n);
	blob_set(&dst->user, src->user.p, src->user.n);
	blob_set(&dst->state, src->state.p, src->state.n);
	memcpy(dst->ctr_name, src->ctr_name, sizeof(dst->ctr_name));
	memcpy(dst->ctr, src->ctr, sizeof(dst->ctr));
	dst->nctr = src->nctr;
	dst->dev_mode = src->dev_mode;
}

void dev_free(struct dev *d)
{
	unsigned int s, k;

	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		for (k = 0; k < VFIT_BOOT_MAX_STAGES; k++)
			blob_set(&d->stage[s][k], NULL, 0);
	blob_set(&d->rom, NULL, 0);
	blob_set(&d->recovery, NULL, 0);
	blob_set(&d->user, NULL, 0);
	blob_set(&d->state, NULL, 0);
}

/* ---- signed FITs ------------------------------------------------------------ */

char dev_dir[64];
uint8_t *kernel_payload;

int dev_write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int rc;

	if (!f)
		return -1;
	rc = fwrite(p, 1, n, f) == n ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

struct blob dev_read_blob(const char *path)
{
	struct blob b = { 0 };

	b.p = (uint8_t *)check_read_file(path, &b.n);
	return b;
}

int dev_sign(const char *its_text, const char *name, const char *dtb, int req)
{
	struct vfit_mkimage m = { .position = -1 };
	struct vfit_err e = { 0 };
	char its[128], out[128];

	snprintf(its, sizeof(its), "%s/%s.its", dev_dir, name);
	snprintf(out, sizeof(out), "%s/%s.fit", dev_dir, name);
	if (dev_write_file(its, its_text, strlen(its_text)))
		return -1;
	m.its = its;
	m.out = out;
	m.keydir = dev_dir;
	m.keydest = dtb;
	m.required = req;
	if (vfit_mkimage_run(&m, &e)) {
		fprintf(stderr, "mkimage %s: %s\n", name, e.msg);
		return -1;
	}
	return 0;
}

int dev_tempdir(void)
{
	snprintf(dev_dir, sizeof(dev_dir), "/tmp/vfit-boot-unit.XXXXXX");
	if (mkdtemp(dev_dir))
		return 0;
	dev_dir[0] = 0;
	return -1;
}

int dev_build_fits(void)
{
	char its[4096], path[128];
	uint8_t dtb[256];
	size_t i;
	const char *keys[] = { "rom", "recovery", "kernel" };

	for (i = 0; i < 3; i++) {
		struct vfit_err e = { 0 };

		if (vfit_keygen(dev_dir, keys[i], 2048, 0, &e))
			return -1;
	}
	kernel_payload = malloc(KSIZE);
	for (i = 0; i < KSIZE; i++)
		kernel_payload[i] = (uint8_t)(i * 7 + (i >> 8));
	snprintf(path, sizeof(path), "%s/kernel.bin", dev_dir);
	dev_write_file(path, kernel_payload, KSIZE);
	FDT(fdt_create_empty_tree(dtb, sizeof(dtb)));
	FDT(fdt_pack(dtb));
	snprintf(path, sizeof(path), "%s/rom.dtb", dev_dir);
	dev_write_file(path, dtb, fdt_totalsize(dtb));
	snprintf(path, sizeof(path), "%s/bl.dtb", dev_dir);
	dev_write_file(path, dtb, fdt_totalsize(dtb));
	snprintf(path, sizeof(path), "%s/fw.bin", dev_dir);
	dev_write_file(path, "firmware", 8);

	/* kernel (and recovery, same shape) -> rollback index 1 */
	for (i = 0; i < 2; i++) {
		snprintf(its, sizeof(its),
			 "/dts-v1/;\n/ { description = \"k\"; #address-cells = <1>;\n"
			 " images { kernel { data = /incbin/(\"%s/kernel.bin\"); type = \"kernel\";"
			 " arch = \"arm64\"; os = \"linux\"; compression = \"none\";"
			 " load = <0x80080000>; entry = <0x80080000>;"
			 " hash-1 { algo = \"sha256\"; }; }; };\n"
			 " configurations { default = \"conf-1\"; conf-1 { kernel = \"kernel\";"
			 " rollback-index = <1>;"
			 " signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"%s\";"
			 " sign-images = \"kernel\"; }; }; }; };\n",
			 dev_dir, i ? "recovery" : "kernel");
		snprintf(path, sizeof(path), "%s/%s.dtb", dev_dir, i ? "rom" : "bl");
		if (dev_sign(its, i ? "recovery" : "kernel", path, !i))
			return -1;
	}
	snprintf(its, sizeof(its),
		 "/dts-v1/;\n/ { description = \"b\"; #address-cells = <1>;\n"
		 " images { fw { data = /incbin/(\"%s/fw.bin\"); type = \"firmware\";"
		 " arch = \"arm64\"; os = \"u-boot\"; compression = \"none\"; load = <0x81000000>;"
		 " hash-1 { algo = \"sha256\"; }; };\n"
		 "  dtb { data = /incbin/(\"%s/bl.dtb\"); type = \"flat_dt\"; compression = \"none\";"
		 " hash-1 { algo = \"sha256\"; }; }; };\n"
		 " configurations { default = \"conf-1\"; conf-1 { firmware = \"fw\"; fdt = \"dtb\";"
		 " signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"rom\";"
		 " sign-images = \"firmware\", \"fdt\"; }; }; }; };\n",
		 dev_dir, dev_dir);
	snprintf(path, sizeof(path), "%s/rom.dtb", dev_dir);
	return dev_sign(its, "bl", path, 1);
}

void dev_factory(struct dev *d)
{
	char path[128];
	struct blob bl, k;
	unsigned int s;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/bl.fit", dev_dir);
	bl = dev_read_blob(path);
	snprintf(path, sizeof(path), "%s/kernel.fit", dev_dir);
	k = dev_read_blob(path);
	for (s = 0; s < VFIT_BOOT_SLOTS; s++) {
		blob_set(&d->stage[s][0], bl.p, bl.n);
		blob_set(&d->stage[s][1], k.p, k.n);
	}
	free(bl.p);
	free(k.p);
	snprintf(path, sizeof(path), "%s/rom.dtb", dev_dir);
	d->rom = dev_read_blob(path);
	snprintf(path, sizeof(path), "%s/recovery.fit", dev_dir);
	d->recovery = dev_read_blob(path);
}

bool dev_kernel_in_ram(const uint8_t *ram)
{
	return !memcmp(ram + 0x80000, kernel_payload, KSIZE);
}

void dev_cleanup(void)
{
	char cmd[128];

	if (dev_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dev_dir);
		CHECK(system(cmd) == 0, "cleanup");
	}
	free(kernel_payload);
	kernel_payload = NULL;
}
