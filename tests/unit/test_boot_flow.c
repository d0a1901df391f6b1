/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow of lib/boot*.c against an in-memory platform: state blob
 * checks, RAM fences, key views, and the flow itself on FITs signed here
 * with the host library -- including a power cut after every durable write
 * of an update (the platform stops persisting anything from that write on,
 * then the device is "powered on" again and must boot a verified kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "check.h"
#include "vfit-host/sim.h"
#include "vfit-host/host.h"
#include "../../lib/boot/boot_int.h"

/*
 * A libfdt edit or build step the next check relies on: had it failed, the
 * check would prove nothing.
 */
#define FDT(call) REQUIRE((call) >= 0, "%s", #call)

#define RAM_BASE 0x80000000u
#define RAM_SIZE 0x04000000u        /* 64 MiB */
#define FIT_ADDR 0x82000000u
#define FIT_SIZE 0x01000000u
#define LOADER_ADDR 0x83f00000u
#define LOADER_SIZE 0x00100000u

/* ---- in-memory device -------------------------------------------------- */

struct blob {
	uint8_t *p;
	size_t n;
};

struct dev {
	struct blob stage[VFIT_BOOT_SLOTS][VFIT_BOOT_MAX_STAGES];
	struct blob rom, recovery, user, state;
	char ctr_name[8][VFIT_BOOT_COUNTER_NAME];
	uint64_t ctr[8];
	unsigned int nctr;
	bool dev_mode;
	bool ctr_broken;    /* counter reads fail (a TPM fault) */
	int writes;         /* durable writes done */
	int cut_after;      /* > 0: writes after this many are lost (power cut) */
	char log[1 << 16];
	size_t loglen;
};

static void blob_set(struct blob *b, const void *p, size_t n)
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

static int m_read(void *plat, enum vfit_boot_obj obj, unsigned int slot, unsigned int stage,
		  void *dst, size_t cap, size_t *len)
{
	struct dev *d = plat;
	const struct blob *b = obj == VFIT_BOOT_OBJ_ROM ? &d->rom :
			       obj == VFIT_BOOT_OBJ_RECOVERY ? &d->recovery :
			       obj == VFIT_BOOT_OBJ_USER_KEYS ? &d->user :
			       &d->stage[slot][stage - 1];

	if (!b->p)
		return VFIT_BOOT_IO_ABSENT;
	if (b->n > cap)
		return VFIT_BOOT_IO_BIG;
	memcpy(dst, b->p, b->n);
	*len = b->n;
	return 0;
}

static int m_write(void *plat, unsigned int slot, unsigned int stage, const void *src, size_t len)
{
	struct dev *d = plat;

	if (durable(d))
		blob_set(&d->stage[slot][stage - 1], src, len);
	return 0;
}

static int m_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	struct dev *d = plat;

	if (!d->state.p)
		return VFIT_BOOT_IO_ABSENT;
	*len = d->state.n < cap ? d->state.n : cap;
	memcpy(buf, d->state.p, *len);
	return 0;
}

static int m_state_write(void *plat, const void *buf, size_t len)
{
	struct dev *d = plat;

	if (durable(d))
		blob_set(&d->state, buf, len);
	return 0;
}

static uint64_t *ctr(struct dev *d, const char *name)
{
	unsigned int i;

	for (i = 0; i < d->nctr; i++)
		if (!strcmp(d->ctr_name[i], name))
			return &d->ctr[i];
	snprintf(d->ctr_name[d->nctr], VFIT_BOOT_COUNTER_NAME, "%s", name);
	d->ctr[d->nctr] = 0;
	return &d->ctr[d->nctr++];
}

static int m_ctr_read(void *plat, const char *name, uint64_t *v)
{
	if (((struct dev *)plat)->ctr_broken)
		return -1;
	*v = *ctr(plat, name);
	return 0;
}

static int m_ctr_advance(void *plat, const char *name, uint64_t v)
{
	struct dev *d = plat;

	if (durable(d) && v > *ctr(d, name))
		*ctr(d, name) = v;
	return 0;
}

static bool m_dev_mode(void *plat)
{
	return ((struct dev *)plat)->dev_mode;
}

static void m_print(void *plat, const char *line)
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

static struct vfit_boot_ops ops_for(struct dev *d, uint8_t *ram)
{
	struct vfit_boot_ops o = {
		.plat = d, .read = m_read, .write = m_write, .state_read = m_state_read,
		.state_write = m_state_write, .counter_read = m_ctr_read,
		.counter_advance = m_ctr_advance, .dev_mode = m_dev_mode, .print = m_print,
		.ram = ram, .ram_base = RAM_BASE, .ram_size = RAM_SIZE,
		.loader_addr = LOADER_ADDR, .loader_size = LOADER_SIZE,
		.fit_addr = FIT_ADDR, .fit_size = FIT_SIZE,
	};
	return o;
}

static void dev_copy(struct dev *dst, const struct dev *src)
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

static void dev_free(struct dev *d)
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

/* ---- pieces without FITs -------------------------------------------------- */

static void test_state(void)
{
	struct vfit_boot_state s, t;
	uint8_t blob[VFIT_BOOT_STATE_SIZE], bad[VFIT_BOOT_STATE_SIZE];
	unsigned int i, rejected = 0;

	vfit_boot_state_default(&s);
	s.seq = 7;
	s.active = 1;
	s.booted = 0;
	s.status[1] = VFIT_SLOT_TRYING;
	s.tries[1] = 2;
	vfit_boot_state_encode(&s, blob);
	CHECK(!vfit_boot_state_decode(blob, sizeof(blob), &t), "state round trip");
	CHECK(t.seq == 7 && t.active == 1 && t.booted == 0 && t.status[0] == VFIT_SLOT_GOOD &&
	      t.status[1] == VFIT_SLOT_TRYING && t.tries[1] == 2, "state fields survive");
	/* Every single-bit flip anywhere in the blob is caught. */
	for (i = 0; i < 8 * sizeof(blob); i++) {
		memcpy(bad, blob, sizeof(bad));
		bad[i / 8] ^= (uint8_t)(1u << (i % 8));
		rejected += vfit_boot_state_decode(bad, sizeof(bad), &t) != 0;
	}
	CHECK(rejected == 8 * sizeof(blob), "all %u bit flips rejected (%u)",
	      (unsigned int)(8 * sizeof(blob)), rejected);
	CHECK(vfit_boot_state_decode(blob, sizeof(blob) - 1, &t), "short blob rejected");
	/* Well-checksummed but impossible fields are rejected too. */
	s.active = 2;
	vfit_boot_state_encode(&s, bad);
	CHECK(vfit_boot_state_decode(bad, sizeof(bad), &t), "active slot 2 rejected");
	s.active = 0;
	s.status[0] = 0;
	vfit_boot_state_encode(&s, bad);
	CHECK(vfit_boot_state_decode(bad, sizeof(bad), &t), "status 0 rejected");
	s.status[0] = VFIT_SLOT_GOOD;
	s.booted = 5;
	vfit_boot_state_encode(&s, bad);
	CHECK(vfit_boot_state_decode(bad, sizeof(bad), &t), "booted slot 5 rejected");
	CHECK(!strcmp(vfit_boot_slot_status_name(VFIT_SLOT_BAD), "bad") &&
	      !strcmp(vfit_boot_slot_status_name(9), "unknown"), "status names");
}

static void test_line(void)
{
	struct vfit_line l;
	unsigned int i;

	vfit_line_init(&l);
	vfit_line_hex(&l, 0);
	vfit_line_str(&l, " ");
	vfit_line_hex(&l, 0x80080000u);
	vfit_line_str(&l, " ");
	vfit_line_hex(&l, 0x123456789abcull);
	vfit_line_str(&l, " ");
	vfit_line_u32(&l, 4294967295u);
	vfit_line_str(&l, " ");
	vfit_line_u32(&l, 0);
	CHECK(!strcmp(l.s, "00000000 80080000 123456789abc 4294967295 0"), "line: '%s'", l.s);
	vfit_line_init(&l);
	for (i = 0; i < 100; i++)
		vfit_line_str(&l, "0123456789");
	CHECK(l.n == sizeof(l.s) - 1 && strlen(l.s) == l.n, "line truncates at its end");
}

static void test_ranges(uint8_t *ram)
{
	static struct vfit_boot b;
	struct dev *d = calloc(1, sizeof(*d));
	struct vfit_boot_ops o = ops_for(d, ram);
	struct vfit_line why;

	vfit_boot_init(&b, &o);
	vfit_boot_ranges_reset(&b);
	vfit_line_init(&why);
	CHECK(vfit_boot_reserve(&b, RAM_BASE, 0x1000, "a", &why), "first range");
	CHECK(vfit_boot_reserve(&b, RAM_BASE + 0x1000, 0x1000, "b", &why), "adjacent range");
	CHECK(!vfit_boot_reserve(&b, RAM_BASE + 0xfff, 2, "c", &why), "straddling range refused");
	CHECK(strstr(why.s, "overlaps a [80000000..80001000)") != NULL, "reason: %s", why.s);
	vfit_line_init(&why);
	CHECK(!vfit_boot_reserve(&b, LOADER_ADDR + LOADER_SIZE - 1, 1, "d", &why), "loader fenced");
	CHECK(strstr(why.s, "overlaps loader") != NULL, "reason: %s", why.s);
	CHECK(!vfit_boot_reserve(&b, RAM_BASE - 1, 2, "e", &why), "below RAM refused");
	CHECK(!vfit_boot_reserve(&b, RAM_BASE + RAM_SIZE - 1, 2, "f", &why), "past RAM refused");
	CHECK(!vfit_boot_reserve(&b, UINT64_MAX - 1, 4, "g", &why), "wrap-around refused");
	CHECK(vfit_boot_reserve(&b, RAM_BASE + 0x500, 0, "h", &why), "empty range is no range");
	free(d);
}

/* A control DTB with key-dev (required conf) and key-recovery (not required). */
static size_t make_rom(uint8_t *buf, size_t cap)
{
	static const uint8_t modulus[4] = { 1, 2, 3, 4 };
	int sig, k;

	FDT(fdt_create_empty_tree(buf, (int)cap));
	sig = fdt_add_subnode(buf, 0, "signature");
	FDT(fdt_setprop_string(buf, sig, "required-mode", "all"));
	k = fdt_add_subnode(buf, sig, "key-dev");
	FDT(fdt_setprop_string(buf, k, "algo", "sha256,rsa2048"));
	FDT(fdt_setprop_string(buf, k, "required", "conf"));
	FDT(fdt_setprop(buf, k, "rsa,modulus", modulus, sizeof(modulus)));
	k = fdt_add_subnode(buf, sig, "key-recovery");
	FDT(fdt_setprop_string(buf, k, "algo", "sha256,rsa2048"));
	FDT(fdt_pack(buf));
	return fdt_totalsize(buf);
}

static const char *prop_str(const void *fdt, const char *path, const char *prop)
{
	int node = fdt_path_offset(fdt, path);

	return node < 0 ? NULL : fdt_getprop(fdt, node, prop, NULL);
}

static void test_keyviews(void)
{
	uint8_t rom[4096], view[4096];
	size_t len;
	int n;

	make_rom(rom, sizeof(rom));
	CHECK(!vfit_boot_keyview(view, sizeof(view), rom, VFIT_VIEW_BUILT_IN, &len), "built-in");
	CHECK(fdt_path_offset(view, "/signature/key-dev") >= 0 &&
	      fdt_path_offset(view, "/signature/key-recovery") < 0,
	      "built-in view: vendor key, no recovery key");
	n = fdt_path_offset(view, "/signature/key-dev");
	CHECK(n >= 0 && fdt_getprop(view, n, "rsa,modulus", NULL) != NULL, "properties copied");
	CHECK(prop_str(view, "/signature", "required-mode") &&
	      !strcmp(prop_str(view, "/signature", "required-mode"), "all"), "policy kept");
	CHECK(!vfit_boot_keyview(view, sizeof(view), rom, VFIT_VIEW_RECOVERY, &len), "recovery");
	CHECK(fdt_path_offset(view, "/signature/key-dev") < 0 &&
	      prop_str(view, "/signature/key-recovery", "required") &&
	      !strcmp(prop_str(view, "/signature/key-recovery", "required"), "conf"),
	      "recovery view: recovery key alone, required");
	CHECK(!vfit_boot_keyview(view, sizeof(view), rom, VFIT_VIEW_USER, &len), "user");
	CHECK(!strcmp(prop_str(view, "/signature", "required-mode"), "any") &&
	      !strcmp(prop_str(view, "/signature/key-dev", "required"), "conf"),
	      "user view: every key required, any one suffices");
	CHECK(vfit_boot_keyview(view, 64, rom, VFIT_VIEW_BUILT_IN, &len), "tiny buffer refused");
	CHECK(vfit_boot_key_count(rom) == 2, "key count");
}

/* ---- signed FITs ------------------------------------------------------------ */

static char dir[64];
static uint8_t *kernel_payload;
#define KSIZE 50000

static int write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int rc;

	if (!f)
		return -1;
	rc = fwrite(p, 1, n, f) == n ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

static struct blob read_blob(const char *path)
{
	struct blob b = { 0 };

	b.p = (uint8_t *)check_read_file(path, &b.n);
	return b;
}

/* Signs an .its (text) into out with key, public key into dtb (required when req). */
static int sign(const char *its_text, const char *name, const char *dtb, int req)
{
	struct vfit_mkimage m = { .position = -1 };
	struct vfit_err e = { 0 };
	char its[128], out[128];

	snprintf(its, sizeof(its), "%s/%s.its", dir, name);
	snprintf(out, sizeof(out), "%s/%s.fit", dir, name);
	if (write_file(its, its_text, strlen(its_text)))
		return -1;
	m.its = its;
	m.out = out;
	m.keydir = dir;
	m.keydest = dtb;
	m.required = req;
	if (vfit_mkimage_run(&m, &e)) {
		fprintf(stderr, "mkimage %s: %s\n", name, e.msg);
		return -1;
	}
	return 0;
}

static int build_fits(void)
{
	char its[4096], path[128];
	uint8_t dtb[256];
	size_t i;
	const char *keys[] = { "rom", "recovery", "kernel" };

	for (i = 0; i < 3; i++) {
		struct vfit_err e = { 0 };

		if (vfit_keygen(dir, keys[i], 2048, 0, &e))
			return -1;
	}
	kernel_payload = malloc(KSIZE);
	for (i = 0; i < KSIZE; i++)
		kernel_payload[i] = (uint8_t)(i * 7 + (i >> 8));
	snprintf(path, sizeof(path), "%s/kernel.bin", dir);
	write_file(path, kernel_payload, KSIZE);
	FDT(fdt_create_empty_tree(dtb, sizeof(dtb)));
	FDT(fdt_pack(dtb));
	snprintf(path, sizeof(path), "%s/rom.dtb", dir);
	write_file(path, dtb, fdt_totalsize(dtb));
	snprintf(path, sizeof(path), "%s/bl.dtb", dir);
	write_file(path, dtb, fdt_totalsize(dtb));
	snprintf(path, sizeof(path), "%s/fw.bin", dir);
	write_file(path, "firmware", 8);

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
			 dir, i ? "recovery" : "kernel");
		snprintf(path, sizeof(path), "%s/%s.dtb", dir, i ? "rom" : "bl");
		if (sign(its, i ? "recovery" : "kernel", path, !i))
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
		 dir, dir);
	snprintf(path, sizeof(path), "%s/rom.dtb", dir);
	return sign(its, "bl", path, 1);
}

static void factory(struct dev *d)
{
	char path[128];
	struct blob bl, k;
	unsigned int s;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/bl.fit", dir);
	bl = read_blob(path);
	snprintf(path, sizeof(path), "%s/kernel.fit", dir);
	k = read_blob(path);
	for (s = 0; s < VFIT_BOOT_SLOTS; s++) {
		blob_set(&d->stage[s][0], bl.p, bl.n);
		blob_set(&d->stage[s][1], k.p, k.n);
	}
	free(bl.p);
	free(k.p);
	snprintf(path, sizeof(path), "%s/rom.dtb", dir);
	d->rom = read_blob(path);
	snprintf(path, sizeof(path), "%s/recovery.fit", dir);
	d->recovery = read_blob(path);
}

static enum vfit_boot_outcome power_on(struct dev *d, uint8_t *ram, struct vfit_boot *b)
{
	struct vfit_boot_ops o = ops_for(d, ram);
	enum vfit_boot_outcome r;

	d->loglen = 0;
	vfit_boot_init(b, &o);
	r = vfit_boot_run(b);
	/* ops lives on this stack frame: nothing may use b->ops after return. */
	b->ops = NULL;
	return r;
}

static bool kernel_in_ram(const uint8_t *ram)
{
	return !memcmp(ram + 0x80000, kernel_payload, KSIZE);
}

static void test_flow(uint8_t *ram)
{
	static struct vfit_boot b;
	struct dev *d = malloc(sizeof(*d)), *cut = malloc(sizeof(*cut));
	struct vfit_boot_ops o;
	const void *fit[1];
	size_t len[1];
	int n, total;

	factory(d);
	memset(ram, 0, 0x100000);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "good boot:\n%s", d->log);
	CHECK(b.slot == 0 && b.nstages == 2 && b.entry == 0x80080000u, "slot A, 2 stages");
	CHECK(kernel_in_ram(ram), "kernel bytes at the load address");
	CHECK(!memcmp(ram + 0x1000000, "firmware", 8), "stage 2 firmware handed over");
	CHECK(*ctr(d, "kernel") == 0, "a boot moves no counter");
	o = ops_for(d, ram);
	vfit_boot_init(&b, &o);
	CHECK(vfit_boot_mark_good(&b) == 0 && *ctr(d, "kernel") == 1, "mark-good advances it");
	CHECK(strstr(d->log, "Verifying Hash Integrity ... sha256,rsa2048:kernel+ OK") != NULL,
	      "U-Boot-like line");

	/* Tampered kernel in slot A: slot B; then A is skipped. */
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL && b.slot == 1, "slot B:\n%s", d->log);
	CHECK(strstr(d->log, "slot A stage 2: bad hash value") != NULL, "reason names slot A");
	/* Slot B's bootloader too: recovery. */
	d->stage[1][0].p[d->stage[1][0].n / 2] ^= 1;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_RECOVERY && b.slot == VFIT_BOOT_NONE,
	      "recovery:\n%s", d->log);
	d->recovery.p[d->recovery.n / 2] ^= 1;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_HALT, "halt");
	CHECK(b.nreasons >= 3 && strstr(d->log, "   - recovery: ") != NULL, "every reason listed");
	dev_free(d);

	/*
	 * Counter store failing: nothing boots (not even recovery), yet no
	 * slot is marked bad for it -- once the store answers again, slot A
	 * boots as before.
	 */
	factory(d);
	d->ctr_broken = true;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_HALT, "counter fault blocks:\n%s", d->log);
	CHECK(strstr(d->log, "rollback counter 'bootloader' cannot be read") != NULL,
	      "reason names the counter");
	CHECK(!d->state.p || (!vfit_boot_state_decode(d->state.p, d->state.n, &b.state) &&
			      b.state.status[0] == VFIT_SLOT_GOOD &&
			      b.state.status[1] == VFIT_SLOT_GOOD),
	      "a counter fault marks no slot bad");
	d->ctr_broken = false;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL && b.slot == 0,
	      "slot A boots once the counters answer:\n%s", d->log);
	dev_free(d);

	/* No ROM at all: halt, nothing else read. */
	factory(d);
	blob_set(&d->rom, NULL, 0);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_HALT, "no ROM: halt");
	dev_free(d);

	/*
	 * Update of the kernel stage with a power cut after each durable write:
	 * afterwards the device boots a verified kernel, and the update can be
	 * run again to completion.
	 */
	factory(d);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "boot before update");
	fit[0] = d->stage[0][1].p;
	len[0] = d->stage[0][1].n;
	o = ops_for(d, ram);
	vfit_boot_init(&b, &o);
	n = d->writes;
	CHECK(vfit_boot_update(&b, fit, len, 1) == 0, "update:\n%s", d->log);
	total = d->writes - n;
	CHECK(total >= 4, "update made %d durable writes", total);
	CHECK(d->state.p && !vfit_boot_state_decode(d->state.p, d->state.n, &b.state) &&
	      b.state.status[1] == VFIT_SLOT_TRYING && b.state.active == 1, "slot B on trial");
	dev_free(d);
	for (n = 1; n < total; n++) {
		struct dev *keep = malloc(sizeof(*keep));

		factory(keep);
		CHECK(power_on(keep, ram, &b) == VFIT_BOOT_KERNEL, "boot");
		fit[0] = keep->stage[0][1].p;
		len[0] = keep->stage[0][1].n;
		dev_copy(cut, keep);
		cut->writes = 0;
		cut->cut_after = n;
		o = ops_for(cut, ram);
		vfit_boot_init(&b, &o);
		vfit_boot_update(&b, fit, len, 1);
		cut->cut_after = 0;
		memset(ram + 0x80000, 0, KSIZE);
		CHECK(power_on(cut, ram, &b) == VFIT_BOOT_KERNEL && kernel_in_ram(ram),
		      "cut after write %d: verified boot\n%s", n, cut->log);
		dev_free(cut);
		dev_copy(cut, keep);
		cut->cut_after = n;
		o = ops_for(cut, ram);
		vfit_boot_init(&b, &o);
		vfit_boot_update(&b, fit, len, 1);
		cut->cut_after = 0;
		o = ops_for(cut, ram);
		vfit_boot_init(&b, &o);
		CHECK(vfit_boot_update(&b, fit, len, 1) == 0, "update again after cut %d", n);
		dev_free(cut);
		dev_free(keep);
		free(keep);
	}
	free(d);
	free(cut);
}

/*
 * Hostile storage: random byte changes in the kernel FIT, the bootloader
 * FIT, the ROM DTB and the state blob.  Whatever happens, a kernel only
 * starts with exactly the signed payload in RAM, and nothing crashes
 * (this program also runs under ASan and UBSan).
 */
static void test_mutations(uint8_t *ram)
{
	static struct vfit_boot b;
	struct dev *d = malloc(sizeof(*d));
	unsigned int i, iters = getenv("VFIT_TEST_QUICK") ? 60 : 300, booted = 0, bad = 0;
	uint32_t x = 12345;

	for (i = 0; i < iters; i++) {
		struct blob *t;
		unsigned int k, flips;
		enum vfit_boot_outcome r;

		factory(d);
		blob_set(&d->stage[1][0], NULL, 0);      /* slot B empty */
		blob_set(&d->recovery, NULL, 0);
		t = i % 4 == 0 ? &d->stage[0][1] : i % 4 == 1 ? &d->stage[0][0] :
		    i % 4 == 2 ? &d->rom : &d->state;
		if (t == &d->state) {
			uint8_t st[VFIT_BOOT_STATE_SIZE];
			struct vfit_boot_state s;

			vfit_boot_state_default(&s);
			vfit_boot_state_encode(&s, st);
			blob_set(t, st, sizeof(st));
		}
		x = x * 1103515245u + 12345u;
		flips = 1 + (x >> 16) % 4;
		for (k = 0; k < flips; k++) {
			x = x * 1103515245u + 12345u;
			t->p[(x >> 8) % t->n] ^= (uint8_t)(1u << ((x >> 4) & 7));
		}
		memset(ram + 0x80000, 0, KSIZE);
		r = power_on(d, ram, &b);
		if (r == VFIT_BOOT_KERNEL) {
			booted++;
			bad += !kernel_in_ram(ram);
		}
		dev_free(d);
	}
	printf("mutations: %u of %u devices still booted, %u of them a wrong kernel\n", booted,
	       iters, bad);
	CHECK(!bad, "%u of %u mutated boots started an unsigned kernel", bad, booted);
	CHECK(booted < iters, "mutations were refused at least sometimes (%u/%u booted)", booted,
	      iters);
	free(d);
}

/*
 * The simulator's read is a snapshot, as a device's copy from flash to RAM
 * is: storage rewritten after the read (between verification and load)
 * must not change the bytes in RAM, and a file truncated under the flow
 * must not fault it.
 */
static void test_sim_snapshot(void)
{
	struct vfit_boot_sim sim;
	struct vfit_err e = { 0 };
	char path[160];
	uint8_t *src = malloc(1 << 20), *ram;
	size_t len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/sim", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/counters", dir);
	CHECK(!vfit_ctr_file_provision(path, &e), "counter store: %s", e.msg);
	snprintf(path, sizeof(path), "%s/sim/slot-a", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/slot-a/stage1.fit", dir);
	memset(src, 0x5a, 1 << 20);
	CHECK(!write_file(path, src, 1 << 20), "stage file");
	snprintf(path, sizeof(path), "%s/sim", dir);
	if (!CHECK(!vfit_boot_sim_open(&sim, path, NULL, false, &e), "sim: %s", e.msg)) {
		free(src);
		return;
	}
	ram = sim.ops.ram + (VFIT_SIM_FIT_ADDR - VFIT_SIM_RAM_BASE);
	CHECK(sim.ops.read(sim.ops.plat, VFIT_BOOT_OBJ_STAGE, 0, 1, ram, VFIT_SIM_FIT_SIZE,
			   &len) == 0 && len == 1 << 20, "read");
	snprintf(path, sizeof(path), "%s/sim/slot-a/stage1.fit", dir);
	fd = open(path, O_WRONLY);
	memset(src, 0xa5, 1 << 20);
	CHECK(fd >= 0 && pwrite(fd, src, 1 << 20, 0) == 1 << 20, "rewrite in place");
	memset(src, 0x5a, 1 << 20);
	CHECK(!memcmp(ram, src, 1 << 20), "RAM keeps the bytes read, not the rewritten ones");
	CHECK(fd >= 0 && !ftruncate(fd, 0), "truncate");
	CHECK(ram[(1 << 20) - 1] == 0x5a, "RAM readable after the file shrank");
	if (fd >= 0)
		close(fd);
	vfit_boot_sim_close(&sim);
	free(src);
}

int main(void)
{
	uint8_t *ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	CHECK(ram != MAP_FAILED, "RAM");
	test_state();
	test_line();
	test_ranges(ram);
	test_keyviews();
	snprintf(dir, sizeof(dir), "/tmp/vfit-boot-unit.XXXXXX");
	if (CHECK(mkdtemp(dir) != NULL, "temp dir") && CHECK(!build_fits(), "signed FITs")) {
		test_flow(ram);
		test_mutations(ram);
		test_sim_snapshot();
	}
	if (dir[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		CHECK(system(cmd) == 0, "cleanup");
	}
	munmap(ram, RAM_SIZE);
	free(kernel_payload);
	return check_done();
}
