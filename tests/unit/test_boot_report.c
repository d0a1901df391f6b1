/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow as a bootloader uses it: no event op (nothing is printed),
 * only the typed report -- outcome, what to start, and the events with
 * their reasons, verdicts, keys and counters.  Good boot, fallback,
 * recovery, a halt for every reason the flow has that a device can
 * trigger, rollback, mark-good, update, and the developer-mode rules of
 * issue 10 (user keys never name or move a counter; unsigned placement and
 * rollback data refused; the entry point inside the kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <libfdt.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <zlib.h>

#include "boot_dev.h"
#include "check.h"
#include "vfit/decomp.h"
#include "vfit-host/host.h"

static struct vfit_boot_scratch scratch;
static struct vfit_boot_event events[256];
static struct vfit_boot_report rep;
static struct vfit_boot_region region;
static struct vfit_boot_layout layout;
static uint8_t *ram;

static enum vfit_boot_outcome boot(struct dev *d)
{
	struct vfit_boot_ops o = dev_ops(d, false);

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot(&o, &layout, &scratch, &rep);
}

static enum vfit_boot_result mark_good(struct dev *d)
{
	struct vfit_boot_ops o = dev_ops(d, false);

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot_mark_good(&o, &layout, &scratch, &rep);
}

static enum vfit_boot_result update(struct dev *d, const struct blob *fit, unsigned int n)
{
	struct vfit_boot_ops o = dev_ops(d, false);
	const void *p[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[i] = fit[i].p;
		len[i] = fit[i].n;
	}
	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot_update(&o, &layout, &scratch, &rep, p, len, n);
}

/* The first event of kind (and, for FAIL, reason why) from index *at on; NULL if none. */
static const struct vfit_boot_event *find_from(unsigned int *at, enum vfit_boot_event_kind kind,
					       enum vfit_boot_why why)
{
	for (; *at < rep.n; (*at)++)
		if (rep.ev[*at].kind == kind && (kind != VFIT_EV_FAIL || rep.ev[*at].why == why))
			return &rep.ev[(*at)++];
	return NULL;
}

static const struct vfit_boot_event *find(enum vfit_boot_event_kind kind, enum vfit_boot_why why)
{
	unsigned int at = 0;

	return find_from(&at, kind, why);
}

/* The first event of kind about stage `stage` of chain. */
static const struct vfit_boot_event *find_stage(enum vfit_boot_event_kind kind,
						enum vfit_boot_chain chain, unsigned int stage)
{
	unsigned int i;

	for (i = 0; i < rep.n; i++)
		if (rep.ev[i].kind == kind && rep.ev[i].chain == chain && rep.ev[i].stage == stage)
			return &rep.ev[i];
	return NULL;
}

static unsigned int count(enum vfit_boot_event_kind kind)
{
	unsigned int i, n = 0;

	for (i = 0; i < rep.n; i++)
		n += rep.ev[i].kind == kind;
	return n;
}

/* A one-line dump of the report for failure messages. */
static const char *trace(void)
{
	static char s[4096];
	size_t n = 0;
	unsigned int i;

	s[0] = 0;
	for (i = 0; i < rep.n && n < sizeof(s) - 64; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%s%s ",
				      vfit_boot_event_kind_to_string(rep.ev[i].kind),
				      rep.ev[i].kind == VFIT_EV_FAIL ? ":" : "",
				      rep.ev[i].kind == VFIT_EV_FAIL ?
				      vfit_boot_why_to_string(rep.ev[i].why) : "");
	return s;
}

/* ---- FITs for the scenarios ---------------------------------------------------- */

/* A kernel FIT: the standard one, changed where a scenario needs it. */
struct kfit {
	const char *key;        /* signing key; NULL: "kernel" */
	const char *load;       /* NULL: 0x80080000; "": none */
	const char *entry;      /* NULL: the load address */
	const char *comp;       /* NULL: "none" */
	const char *conf;       /* extra configuration properties */
	bool image_sig;         /* an image signature instead of a configuration signature */
	const char *data;       /* the kernel's file in dev_dir; NULL: kernel.bin */
	const char *rd_comp;    /* a ramdisk rd.gz at 0x81800000 with this compression; NULL: none */
};

static int kernel_fit(const char *name, const struct kfit *k, const char *dtb, int req)
{
	char its[4096], img[256], load[64], entry[64], sig[256], rd[512];
	const char *key = k->key ? k->key : "kernel";
	const char *at = k->load ? k->load : "0x80080000";

	load[0] = entry[0] = img[0] = sig[0] = rd[0] = 0;
	if (k->rd_comp)
		snprintf(rd, sizeof(rd), " rd { data = /incbin/(\"%s/rd.gz\"); type = \"ramdisk\";"
			 " arch = \"arm64\"; os = \"linux\"; compression = \"%s\";"
			 " load = <0x81800000>; hash-1 { algo = \"sha256\"; }; };", dev_dir,
			 k->rd_comp);
	if (*at)
		snprintf(load, sizeof(load), "load = <%s>;", at);
	if (*at || k->entry)
		snprintf(entry, sizeof(entry), "entry = <%s>;", k->entry ? k->entry : at);
	if (k->image_sig)
		snprintf(img, sizeof(img), "signature-1 { algo = \"sha256,rsa2048\";"
			 " key-name-hint = \"%s\"; };", key);
	else
		snprintf(sig, sizeof(sig), "signature-1 { algo = \"sha256,rsa2048\";"
			 " key-name-hint = \"%s\"; sign-images = \"kernel\"%s; };", key,
			 k->rd_comp ? ", \"ramdisk\"" : "");
	snprintf(its, sizeof(its),
		 "/dts-v1/;\n/ { description = \"k\"; #address-cells = <1>;\n"
		 " images { kernel { data = /incbin/(\"%s/%s\"); type = \"kernel\";"
		 " arch = \"arm64\"; os = \"linux\"; compression = \"%s\"; %s %s"
		 " hash-1 { algo = \"sha256\"; }; %s };%s };\n"
		 " configurations { default = \"conf-1\"; conf-1 { kernel = \"kernel\"; %s %s %s };"
		 " }; };\n",
		 dev_dir, k->data ? k->data : "kernel.bin", k->comp ? k->comp : "none", load, entry,
		 img, rd, k->rd_comp ? "ramdisk = \"rd\";" : "", k->conf ? k->conf : "", sig);
	return dev_sign(its, name, dtb, req);
}

/*
 * A bootloader FIT: firmware fw.bin and fdt (a file of dev_dir, with
 * compression fdt_comp), signed by key.
 */
static int bl_fit_comp(const char *name, const char *key, const char *fw_load, const char *fdt,
		       const char *extra, const char *dtb, const char *fdt_comp)
{
	char its[4096], fdt_img[256];

	fdt_img[0] = 0;
	if (fdt)
		snprintf(fdt_img, sizeof(fdt_img), "dtb { data = /incbin/(\"%s/%s\");"
			 " type = \"flat_dt\"; compression = \"%s\";"
			 " hash-1 { algo = \"sha256\"; }; };", dev_dir, fdt, fdt_comp);
	snprintf(its, sizeof(its),
		 "/dts-v1/;\n/ { description = \"b\"; #address-cells = <1>;\n"
		 " images { fw { data = /incbin/(\"%s/fw.bin\"); type = \"firmware\";"
		 " arch = \"arm64\"; os = \"u-boot\"; compression = \"none\"; load = <%s>; %s"
		 " hash-1 { algo = \"sha256\"; }; }; %s };\n"
		 " configurations { default = \"conf-1\"; conf-1 { firmware = \"fw\"; %s"
		 " signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"%s\"; }; }; }; };\n",
		 dev_dir, fw_load, extra ? extra : "", fdt_img, fdt ? "fdt = \"dtb\";" : "", key);
	return dev_sign(its, name, dtb, 1);
}

static int bl_fit(const char *name, const char *key, const char *fw_load, const char *fdt,
		  const char *extra, const char *dtb)
{
	return bl_fit_comp(name, key, fw_load, fdt, extra, dtb, "none");
}

static struct blob fit(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
	return dev_read_blob(path);
}

/* Puts FIT file `name` at stage `stage` of both slots. */
static void both(struct dev *d, unsigned int stage, const char *name)
{
	struct blob b = fit(name);

	blob_set(&d->stage[0][stage - 1], b.p, b.n);
	blob_set(&d->stage[1][stage - 1], b.p, b.n);
	free(b.p);
}

static void empty_dtb(const char *name)
{
	uint8_t dtb[256];
	char path[128];

	FDT(fdt_create_empty_tree(dtb, sizeof(dtb)));
	FDT(fdt_pack(dtb));
	snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
	dev_write_file(path, dtb, fdt_totalsize(dtb));
}

static int path_of(char *out, const char *name)
{
	return snprintf(out, 128, "%s/%s", dev_dir, name);
}

/* DIR/name: n bytes of p gzipped (zlib's gzip wrapper). */
static int gzip_file(const char *name, const void *p, size_t n)
{
	uLongf cap = (uLongf)(n + n / 100 + 64);
	uint8_t *out = malloc(cap);
	char path[128];
	z_stream z;
	int rc = -1;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
		z.next_in = (Bytef *)(uintptr_t)p;
		z.avail_in = (uInt)n;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		if (deflate(&z, Z_FINISH) == Z_STREAM_END) {
			snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
			rc = dev_write_file(path, out, z.total_out);
		}
		deflateEnd(&z);
	}
	free(out);
	return rc;
}

/* The platform's decompressor: lib/decomp's gunzip (every FIT here uses gzip). */
static enum vfit_decomp_result gunzip_op(void *plat, enum vfit_comp comp, const void *src,
					 size_t len, void *dst, size_t cap, size_t *out)
{
	(void)plat, (void)comp;
	return vfit_gunzip(src, len, dst, cap, out);
}

static enum vfit_boot_outcome boot_gunzip(struct dev *d)
{
	struct vfit_boot_ops o = dev_ops(d, false);

	o.decompress = gunzip_op;
	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot(&o, &layout, &scratch, &rep);
}

/*
 * dev_dir/name.fit with conf-1's property prop set to val[0..len), then
 * conf-1/signature-1 signed again (sha256, PKCS#1 v1.5) with key's
 * private key: a signed configuration vfit mkimage would refuse to make.
 */
static int resign_conf(const char *name, const char *prop, const void *val, int len,
		       const char *key)
{
	char path[128];
	struct blob b = { 0 };
	struct vfit_node_list list;
	struct vfit_hash_ctx h;
	uint8_t digest[32], sigv[512];
	size_t cap, slen = sizeof(sigv);
	uint32_t cells[2];
	uint8_t *f;
	EVP_PKEY *pkey = NULL;
	EVP_PKEY_CTX *c = NULL;
	FILE *kf;
	int conf, sig, rc = -1;

	snprintf(path, sizeof(path), "%s/%s.fit", dev_dir, name);
	b = dev_read_blob(path);
	cap = b.n + 4096;
	f = calloc(1, cap);
	if (!b.p || fdt_open_into(b.p, f, (int)cap))
		goto out;
	conf = fdt_path_offset(f, "/configurations/conf-1");
	if (conf < 0 || fdt_setprop(f, conf, prop, val, len))
		goto out;
	/* looked up after the edit, which may have moved it */
	sig = fdt_path_offset(f, "/configurations/conf-1/signature-1");
	if (sig < 0)
		goto out;
	cells[0] = 0;
	cells[1] = cpu_to_fdt32(fdt_size_dt_strings(f));
	if (fdt_setprop(f, sig, "hashed-strings", cells, sizeof(cells)) ||
	    vfit_conf_nodes(f, conf, &list, NULL))
		goto out;
	vfit_hash_init(&h, VFIT_HASH_SHA256);
	if (vfit_conf_digest(f, &list, fdt_size_dt_strings(f), &h))
		goto out;
	vfit_hash_final(&h, digest);
	snprintf(path, sizeof(path), "%s/%s.key", dev_dir, key);
	kf = fopen(path, "r");
	if (!kf)
		goto out;
	pkey = PEM_read_PrivateKey(kf, NULL, NULL, NULL);
	fclose(kf);
	c = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
	if (!c || EVP_PKEY_sign_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0 ||
	    EVP_PKEY_sign(c, sigv, &slen, digest, sizeof(digest)) <= 0 ||
	    fdt_setprop(f, sig, "value", sigv, (int)slen) || fdt_pack(f))
		goto out;
	snprintf(path, sizeof(path), "%s/%s.fit", dev_dir, name);
	rc = dev_write_file(path, f, fdt_totalsize(f));
out:
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(pkey);
	free(f);
	free(b.p);
	return rc;
}

/* Every FIT the scenarios below use, besides dev_build_fits()' ones. */
static int build_more(void)
{
	static const struct {
		const char *name;
		struct kfit k;
		const char *dtb;
	} kf[] = {
		{ "k-entry", { .entry = "0x88007000" }, "scratch.dtb" },
		{ "k-entry-end", { .entry = "0x8008c350" }, "scratch.dtb" },
		{ "k-entry-last", { .entry = "0x8008c34f" }, "scratch.dtb" },
		{ "k-ram", { .load = "0x70000000" }, "scratch.dtb" },
		{ "k-loader", { .load = "0x83f00000" }, "scratch.dtb" },
		{ "k-noload", { .load = "" }, "scratch.dtb" },
		{ "k-bzip2", { .comp = "bzip2" }, "scratch.dtb" },
		{ "k-gzip", { .comp = "gzip" }, "scratch.dtb" },
		{ "k-gzip-fit", { .comp = "gzip", .load = "0x82800000" }, "scratch.dtb" },
		{ "k-index5", { .conf = "rollback-index = <5>;" }, "scratch.dtb" },
		{ "k-load2", { .load = "0x80100000", .conf = "rollback-index = <1>;" },
		  "scratch.dtb" },
		{ "k-img", { .key = "kimg", .image_sig = true }, "blimg.dtb" },
		{ "k-img-ctr", { .key = "kimg", .image_sig = true,
				 .conf = "rollback-counter = \"fresh\";" }, "blimg.dtb" },
		{ "k-user", { .key = "user", .conf = "rollback-counter = \"recovery\";"
				 " rollback-index = <1000>;" }, "user.dtb" },
		{ "k-user2", { .key = "user", .conf = "rollback-counter = \"recovery\";"
				  " rollback-index = <1000>;" }, "userbl.dtb" },
		/* gzip kernels (kernel.gz: the standard payload) and a gzip ramdisk */
		{ "k-gz", { .comp = "gzip", .data = "kernel.gz" }, "scratch.dtb" },
		{ "k-gz-entry", { .comp = "gzip", .data = "kernel.gz", .entry = "0x8008c350" },
		  "scratch.dtb" },
		{ "k-gz-room", { .comp = "gzip", .data = "kernel.gz", .load = "0x83eff000" },
		  "scratch.dtb" },
		{ "k-rd-gz", { .rd_comp = "gzip" }, "scratch.dtb" },
		/* re-signed below with malformed rollback data */
		{ "k-ctr-nonul", { .conf = "rollback-counter = \"kernel\";" }, "scratch.dtb" },
		{ "k-ctr-32", { .conf = "rollback-counter = \"kernel\";" }, "scratch.dtb" },
		{ "k-idx-8", { .conf = "rollback-index = <1>;" }, "scratch.dtb" },
		{ "k-resigned", { .conf = "rollback-index = <1>;" }, "scratch.dtb" },
	};
	static const uint8_t two_cells[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };
	char name32[VFIT_BOOT_COUNTER_NAME + 1];
	uint8_t rd[4096];
	const char *keys[] = { "kimg", "user" };
	char dtb[128];
	size_t i;

	for (i = 0; i < 2; i++) {
		struct vfit_err e = { 0 };

		if (vfit_keygen(dev_dir, keys[i], 2048, 0, &e))
			return -1;
	}
	for (i = 0; i < sizeof(rd); i++)
		rd[i] = (uint8_t)(i % 251);
	if (gzip_file("kernel.gz", kernel_payload, KSIZE) || gzip_file("rd.gz", rd, sizeof(rd)))
		return -1;
	empty_dtb("scratch.dtb");
	empty_dtb("blimg.dtb");
	empty_dtb("user.dtb");
	empty_dtb("userbl.dtb");
	for (i = 0; i < sizeof(kf) / sizeof(kf[0]); i++) {
		path_of(dtb, kf[i].dtb);
		if (kernel_fit(kf[i].name, &kf[i].k, dtb, 1))
			return -1;
	}
	/* Signed by the required key "kernel", but malformed (the last one is not). */
	memset(name32, 'a', VFIT_BOOT_COUNTER_NAME);
	name32[VFIT_BOOT_COUNTER_NAME] = 0;
	if (resign_conf("k-ctr-nonul", "rollback-counter", "kernel", 6, "kernel") ||
	    resign_conf("k-ctr-32", "rollback-counter", name32, (int)sizeof(name32), "kernel") ||
	    resign_conf("k-idx-8", "rollback-index", two_cells, 8, "kernel") ||
	    resign_conf("k-resigned", "rollback-index", two_cells + 4, 4, "kernel"))
		return -1;
	path_of(dtb, "scratch.dtb");
	/* Stages that do not hand over properly, and a chain with no end. */
	if (bl_fit("b-nofdt", "rom", "0x81000000", NULL, NULL, dtb) ||
	    bl_fit("b-notdtb", "rom", "0x81000000", "fw.bin", NULL, dtb) ||
	    bl_fit("b-fwentry", "rom", "0x81000000", "bl.dtb", "entry = <0x81100000>;", dtb) ||
	    bl_fit("b-loop1", "kernel", "0x81100000", "bl.dtb", NULL, dtb) ||
	    bl_fit("b-loop2", "kernel", "0x81200000", "bl.dtb", NULL, dtb) ||
	    bl_fit("b-loop3", "kernel", "0x81300000", "bl.dtb", NULL, dtb) ||
	    bl_fit("b-img", "rom", "0x81000000", "blimg.dtb", NULL, dtb) ||
	    bl_fit("b-user", "user", "0x81000000", "userbl.dtb", NULL, dtb) ||
	    /* the next stage's keys, uncompressed but labelled gzip */
	    bl_fit_comp("b-dtb-gzip", "rom", "0x81000000", "bl.dtb", NULL, dtb, "gzip"))
		return -1;
	/* A firmware-only FIT signed by the recovery key: recovery without a kernel. */
	return bl_fit("rec-fw", "recovery", "0x81000000", NULL, NULL, dtb);
}

/* ---- good boot, fallback, recovery ---------------------------------------------- */

static void test_good(struct dev *d)
{
	const struct vfit_boot_event *ev;
	unsigned int at = 0;

	dev_factory(d);
	memset(ram, 0, 0x100000);
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "good boot: %s", trace());
	CHECK(rep.why == VFIT_WHY_NONE && rep.slot == 0 && rep.nstages == 2, "slot A, 2 stages");
	CHECK(rep.entry == 0x80080000u && rep.kernel.present && rep.kernel.addr == 0x80080000u &&
	      rep.kernel.size == KSIZE && !rep.fdt.present && !rep.ramdisk.present,
	      "what to start: kernel at %llx (%llu bytes)", (unsigned long long)rep.entry,
	      (unsigned long long)rep.kernel.size);
	CHECK(dev_kernel_in_ram(ram), "kernel bytes at its load address");
	CHECK(rep.dropped == 0 && !d->loglen, "nothing dropped, nothing printed");
	ev = find(VFIT_EV_STATE, 0);
	CHECK(ev && ev->io == VFIT_IO_ABSENT, "state: none stored");
	ev = find(VFIT_EV_DEV_MODE, 0);
	CHECK(ev && !(ev->flags & VFIT_EVF_DEV) && ev->store == VFIT_STORE_ABSENT, "switch closed");
	ev = find_from(&at, VFIT_EV_VERIFY, 0);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 1 && ev->v.result == VFIT_OK &&
	      !strcmp(ev->v.key, "rom") && !strcmp(ev->v.conf, "conf-1") && !ev->res,
	      "stage 1 verified by key rom ('%s')", ev ? ev->v.key : "");
	ev = find_from(&at, VFIT_EV_ROLLBACK, 0);
	CHECK(ev && !strcmp(ev->name, "bootloader") && ev->value == 0 &&
	      (ev->flags & VFIT_EVF_COUNTER), "stage 1 counter 'bootloader'");
	ev = find_from(&at, VFIT_EV_LOAD, 0);
	CHECK(ev && !strcmp(ev->what, "firmware") && ev->addr == 0x81000000u, "firmware loaded");
	ev = find_from(&at, VFIT_EV_KEYS, 0);
	CHECK(ev && ev->origin == 1 && !strcmp(ev->name, "dtb") && !ev->ctl,
	      "stage 2 keys from fdt 'dtb' of stage 1");
	ev = find_from(&at, VFIT_EV_VERIFY, 0);
	CHECK(ev && ev->stage == 2 && !strcmp(ev->v.key, "kernel"), "stage 2 by key kernel");
	ev = find_from(&at, VFIT_EV_ROLLBACK, 0);
	CHECK(ev && !strcmp(ev->name, "kernel") && ev->value == 1 && ev->limit == 0,
	      "rollback index 1 >= counter 0 for 'kernel'");
	ev = find_from(&at, VFIT_EV_START, 0);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->addr == 0x80080000u, "start event");
	CHECK(*dev_ctr(d, "kernel") == 0 && !count(VFIT_EV_COUNTER), "a boot moves no counter");

	CHECK(mark_good(d) == VFIT_BOOT_DONE, "mark-good: %s", trace());
	ev = find(VFIT_EV_COUNTER, 0);
	CHECK(ev && !strcmp(ev->name, "kernel") && ev->limit == 0 && ev->value == 1 &&
	      *dev_ctr(d, "kernel") == 1, "counter 'kernel' 0 -> 1");
	CHECK(find(VFIT_EV_CONFIRMED, 0) && find(VFIT_EV_CONFIRMED, 0)->chain == VFIT_CHAIN_A,
	      "slot A confirmed");
	dev_free(d);
}

static void test_fallback(struct dev *d)
{
	const struct vfit_boot_event *ev;

	dev_factory(d);
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1, "fallback to B: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_VERIFY);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 2 && ev->keys == VFIT_KEYS_STAGE &&
	      ev->v.result == VFIT_ERR_HASH && !strcmp(ev->v.node, "/images/kernel/hash-1") &&
	      !strcmp(ev->v.prop, "value") && !strcmp(ev->v.conf, "conf-1") &&
	      !(ev->flags & VFIT_EVF_USER_TRIED), "verdict: %s at %s %s",
	      ev ? vfit_result_to_string(ev->v.result) : "-", ev ? ev->v.node : "",
	      ev ? ev->v.prop : "");
	ev = find(VFIT_EV_MARKED_BAD, 0);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->io == VFIT_IO_OK, "slot A marked bad");
	CHECK(rep.why == VFIT_WHY_NONE, "a boot that started says no reason");

	/* Next power-on: B first, A (bad) not even tried. */
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1, "B again");
	ev = find(VFIT_EV_SLOTS, 0);
	CHECK(ev && ev->state.active == 1 && ev->state.status[0] == VFIT_SLOT_BAD &&
	      count(VFIT_EV_TRY) == 1 && find(VFIT_EV_TRY, 0)->chain == VFIT_CHAIN_B,
	      "state: A bad, B first");

	/* B's bootloader too: recovery. */
	d->stage[1][0].p[d->stage[1][0].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_RECOVERY && rep.slot == VFIT_BOOT_NONE && rep.nstages == 1 &&
	      rep.kernel.present, "recovery: %s", trace());
	CHECK(find(VFIT_EV_NO_SLOT, 0) && find(VFIT_EV_START, 0)->chain == VFIT_CHAIN_RECOVERY,
	      "recovery started");
	ev = find_stage(VFIT_EV_KEYS, VFIT_CHAIN_RECOVERY, 0);
	CHECK(ev && ev->keys == VFIT_KEYS_RECOVERY, "recovery key event");

	/*
	 * Recovery broken too: halt, with every reason in the report.  Both
	 * slots are bad for failed verifications, so both are tried again
	 * before recovery (a disk put right would boot normally).
	 */
	d->recovery.p[d->recovery.n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_HALT, "halt");
	CHECK(count(VFIT_EV_FAIL) == 5 && count(VFIT_EV_RETRY) == 2 &&
	      count(VFIT_EV_REASONS) == 1 && !count(VFIT_EV_REASON),
	      "five reasons (two marked bad, two retried, recovery), one listing: %s", trace());
	ev = find(VFIT_EV_REASONS, 0);
	CHECK(ev && ev->why == VFIT_WHY_NOTHING_VERIFIED, "halt listing");
	CHECK(rep.why == VFIT_WHY_VERIFY && !rep.kernel.present, "report.why: the last reason");
	dev_free(d);
}

/*
 * ---- a halt for every reason -----------------------------------------------------
 * Besides these: ROLLBACK_NAME and ROLLBACK_FORMAT need a signed configuration
 * vfit mkimage refuses to sign (tests/cli/boot_authn.sh signs one with U-Boot's
 * mkimage); UPDATE_UNVERIFIED needs a chain that verifies once and not the
 * second time; TOO_MANY_RANGES needs more images than a configuration may name.
 */

enum setup {
	S_MARKED_BAD, S_NO_ATTEMPTS, S_TRIAL, S_NO_FIT, S_TOO_BIG, S_READ, S_VERIFY,
	S_ROLLBACK_UNSIGNED, S_COUNTER, S_ROLLBACK,
	S_NO_HANDOVER, S_CONTROL_DTB, S_NO_LOAD, S_PLACEMENT, S_ENTRY, S_ENTRY_END, S_FW_ENTRY,
	S_OUTSIDE_RAM, S_OVERLAP, S_NO_ROOM, S_COMPRESSION, S_DECOMPRESS, S_CHAIN,
};

static const struct {
	enum setup s;
	enum vfit_boot_why why;
	unsigned int stage;     /* where the reason is reported (0: the chain) */
} halts[] = {
	{ S_MARKED_BAD, VFIT_WHY_MARKED_BAD, 0 },
	{ S_NO_ATTEMPTS, VFIT_WHY_NO_ATTEMPTS, 0 },
	{ S_TRIAL, VFIT_WHY_TRIAL_UNCOUNTED, 0 },
	{ S_NO_FIT, VFIT_WHY_NO_FIT, 2 },
	{ S_TOO_BIG, VFIT_WHY_FIT_TOO_BIG, 2 },
	{ S_READ, VFIT_WHY_READ_ERROR, 1 },
	{ S_VERIFY, VFIT_WHY_VERIFY, 2 },
	{ S_ROLLBACK_UNSIGNED, VFIT_WHY_ROLLBACK_UNSIGNED, 2 },
	{ S_COUNTER, VFIT_WHY_COUNTER_UNREADABLE, 1 },
	{ S_ROLLBACK, VFIT_WHY_ROLLBACK, 2 },
	{ S_NO_HANDOVER, VFIT_WHY_NO_HANDOVER, 1 },
	{ S_CONTROL_DTB, VFIT_WHY_CONTROL_DTB, 1 },
	{ S_NO_LOAD, VFIT_WHY_NO_LOAD, 2 },
	{ S_PLACEMENT, VFIT_WHY_PLACEMENT_UNSIGNED, 2 },
	{ S_ENTRY, VFIT_WHY_ENTRY_OUTSIDE, 2 },
	{ S_ENTRY_END, VFIT_WHY_ENTRY_OUTSIDE, 2 },
	{ S_FW_ENTRY, VFIT_WHY_ENTRY_OUTSIDE, 1 },
	{ S_OUTSIDE_RAM, VFIT_WHY_OUTSIDE_RAM, 2 },
	{ S_OVERLAP, VFIT_WHY_OVERLAP, 2 },
	{ S_NO_ROOM, VFIT_WHY_NO_ROOM, 2 },
	{ S_COMPRESSION, VFIT_WHY_COMPRESSION, 2 },
	{ S_DECOMPRESS, VFIT_WHY_DECOMPRESS, 2 },
	{ S_CHAIN, VFIT_WHY_CHAIN_TOO_LONG, 0 },
};

static void set_state(struct dev *d, uint8_t status, uint8_t tries)
{
	struct vfit_boot_state st;
	uint8_t blob[VFIT_BOOT_STATE_SIZE];

	vfit_boot_state_default(&st);
	st.status[0] = st.status[1] = status;
	st.tries[0] = st.tries[1] = tries;
	vfit_boot_state_encode(&st, blob);
	blob_set(&d->state, blob, sizeof(blob));
}

static void prepare(struct dev *d, enum setup s)
{
	switch (s) {
	case S_MARKED_BAD: set_state(d, VFIT_SLOT_BAD, 0); break;
	case S_NO_ATTEMPTS: set_state(d, VFIT_SLOT_TRYING, 0); break;
	case S_TRIAL: set_state(d, VFIT_SLOT_TRYING, 2); d->state_broken = true; break;
	case S_NO_FIT: blob_set(&d->stage[0][1], NULL, 0); blob_set(&d->stage[1][1], NULL, 0);
		break;
	case S_TOO_BIG: layout.fit_size = 0x4000; break;
	case S_READ: d->stage_broken = true; break;
	case S_VERIFY: both(d, 2, "recovery.fit"); break;
	case S_ROLLBACK_UNSIGNED: both(d, 1, "b-img.fit"); both(d, 2, "k-img-ctr.fit"); break;
	case S_COUNTER: d->ctr_broken = true; break;
	case S_ROLLBACK: *dev_ctr(d, "kernel") = 2; break;
	case S_NO_HANDOVER: both(d, 1, "b-nofdt.fit"); break;
	case S_CONTROL_DTB: both(d, 1, "b-notdtb.fit"); break;
	case S_NO_LOAD: both(d, 2, "k-noload.fit"); break;
	case S_PLACEMENT: both(d, 1, "b-img.fit"); both(d, 2, "k-img.fit"); break;
	case S_ENTRY: both(d, 2, "k-entry.fit"); break;
	case S_ENTRY_END: both(d, 2, "k-entry-end.fit"); break;
	case S_FW_ENTRY: both(d, 1, "b-fwentry.fit"); break;
	case S_OUTSIDE_RAM: both(d, 2, "k-ram.fit"); break;
	case S_OVERLAP: both(d, 2, "k-loader.fit"); break;
	case S_NO_ROOM: both(d, 2, "k-gzip-fit.fit"); break;
	case S_COMPRESSION: both(d, 2, "k-bzip2.fit"); break;
	case S_DECOMPRESS: both(d, 2, "k-gzip.fit"); break;
	case S_CHAIN:
		both(d, 2, "b-loop1.fit");
		both(d, 3, "b-loop2.fit");
		both(d, 4, "b-loop3.fit");
		break;
	}
}

static void test_halts(struct dev *d)
{
	struct vfit_boot_ops o;
	const struct vfit_boot_event *ev;
	enum vfit_boot_outcome r;
	unsigned int i;

	for (i = 0; i < sizeof(halts) / sizeof(halts[0]); i++) {
		dev_factory(d);
		blob_set(&d->recovery, NULL, 0);
		o = dev_ops(d, false);
		dev_layout(&layout, &region, ram);
		prepare(d, halts[i].s);
		vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
		r = vfit_boot(&o, &layout, &scratch, &rep);
		ev = find(VFIT_EV_FAIL, halts[i].why);
		CHECK(r == VFIT_BOOT_HALT && ev && ev->chain == VFIT_CHAIN_A &&
		      ev->stage == halts[i].stage, "%s: halt with the reason at slot A stage %u: %s",
		      vfit_boot_why_to_string(halts[i].why), halts[i].stage, trace());
		/* A boot record that cannot be written stops at once, recovery untried. */
		if (halts[i].s == S_TRIAL)
			CHECK(!find(VFIT_EV_REASONS, 0) && rep.why == VFIT_WHY_TRIAL_UNCOUNTED &&
			      !find(VFIT_EV_NO_SLOT, 0) && !rep.kernel.present &&
			      !find(VFIT_EV_START, 0), "trial not counted: halted at once");
		else
			CHECK(find(VFIT_EV_REASONS, 0) && rep.why == VFIT_WHY_NO_FIT &&
			      !rep.kernel.present && !find(VFIT_EV_START, 0),
			      "%s: nothing started", vfit_boot_why_to_string(halts[i].why));
		if (halts[i].s == S_ENTRY)
			CHECK(ev && ev->value == 0x88007000u && ev->addr == 0x80080000u &&
			      ev->size == KSIZE && !strcmp(ev->name, "kernel"),
			      "entry 88007000 outside kernel [80080000, +%u)", KSIZE);
		if (halts[i].s == S_OVERLAP)
			CHECK(ev && !strcmp(ev->what, "kernel") && !strcmp(ev->other, "loader") &&
			      ev->addr2 == LOADER_ADDR, "overlaps the loader");
		if (halts[i].s == S_ROLLBACK)
			CHECK(ev && ev->value == 1 && ev->limit == 2 && !strcmp(ev->name, "kernel"),
			      "index 1 < counter 2");
		if (halts[i].s == S_COUNTER)
			CHECK(ev && ev->io == VFIT_IO_ERROR && !strcmp(ev->name, "bootloader") &&
			      !d->state.p, "counter fault: no slot marked bad");
		dev_free(d);
	}
	/* The edge of the kernel is still inside it. */
	dev_factory(d);
	both(d, 2, "k-entry-last.fit");
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.entry == 0x8008c34fu, "entry on the last byte");
	/* No ROM keys; no recovery key; recovery without a kernel. */
	blob_set(&d->rom, NULL, 0);
	CHECK(boot(d) == VFIT_BOOT_HALT && find(VFIT_EV_FAIL, VFIT_WHY_ROM) &&
	      rep.why == VFIT_WHY_ROM && !find(VFIT_EV_TRY, 0), "no ROM: %s", trace());
	dev_free(d);
	dev_factory(d);
	d->stage_broken = true;
	blob_set(&d->recovery, NULL, 0);
	d->recovery = fit("rec-fw.fit");
	CHECK(boot(d) == VFIT_BOOT_HALT && find(VFIT_EV_FAIL, VFIT_WHY_NO_KERNEL) &&
	      find(VFIT_EV_FAIL, VFIT_WHY_NO_KERNEL)->chain == VFIT_CHAIN_RECOVERY,
	      "recovery without a kernel: %s", trace());
	dev_free(d);
	dev_factory(d);
	d->stage_broken = true;
	{
		int sig = fdt_path_offset(d->rom.p, "/signature/key-recovery");

		CHECK(sig >= 0 && !fdt_nop_node(d->rom.p, sig), "ROM without key-recovery");
	}
	CHECK(boot(d) == VFIT_BOOT_HALT && find(VFIT_EV_FAIL, VFIT_WHY_NO_RECOVERY_KEY),
	      "no recovery key: %s", trace());
	dev_free(d);
	/* An unusable layout is a platform failure, not a halt. */
	dev_factory(d);
	o = dev_ops(d, false);
	dev_layout(&layout, &region, ram);
	layout.fit_addr = LOADER_ADDR;
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	CHECK(vfit_boot(&o, &layout, &scratch, &rep) == VFIT_BOOT_FAILED &&
	      rep.why == VFIT_WHY_LAYOUT && rep.n == 0, "overlapping layout refused");
	o.state_write = NULL;
	dev_layout(&layout, &region, ram);
	CHECK(vfit_boot(&o, &layout, &scratch, &rep) == VFIT_BOOT_FAILED, "missing op refused");
	dev_free(d);
}

/* ---- rollback, mark-good and update ---------------------------------------------- */

static void test_mark_good(struct dev *d)
{
	dev_factory(d);
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_NOT_BOOTED,
	      "nothing booted yet");
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "boot");
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_NO_LONGER_VERIFIES &&
	      find(VFIT_EV_FAIL, VFIT_WHY_VERIFY), "tampered since the boot: %s", trace());
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	d->advance_broken = true;
	CHECK(mark_good(d) == VFIT_BOOT_ERROR && rep.why == VFIT_WHY_COUNTER_ADVANCE,
	      "counter advance fails");
	d->advance_broken = false;
	set_state(d, VFIT_SLOT_TRYING, 2);
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "trial boot");
	d->state_broken = true;
	CHECK(mark_good(d) == VFIT_BOOT_ERROR && rep.why == VFIT_WHY_STATE_WRITE,
	      "state write fails");
	d->state_broken = false;
	set_state(d, VFIT_SLOT_BAD, 0);
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_NOT_BOOTED,
	      "default state: nothing booted");
	{
		struct vfit_boot_state st;
		uint8_t blob[VFIT_BOOT_STATE_SIZE];

		vfit_boot_state_default(&st);
		st.booted = 0;
		st.status[0] = VFIT_SLOT_BAD;
		vfit_boot_state_encode(&st, blob);
		blob_set(&d->state, blob, sizeof(blob));
	}
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_BOOTED_BAD,
	      "booted slot marked bad");
	dev_free(d);
	/*
	 * Another validly signed kernel (index 5) put into the booted slot
	 * after the boot: mark-good confirms only the chain the device booted.
	 */
	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0, "boot slot A");
	{
		struct blob k5 = fit("k-index5.fit");

		blob_set(&d->stage[0][1], k5.p, k5.n);
		free(k5.p);
	}
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_CHAIN_CHANGED &&
	      *dev_ctr(d, "kernel") == 0, "chain changed since the boot: %s", trace());
	dev_free(d);
}

static enum vfit_boot_result request(struct dev *d, uint32_t seq, uint8_t confirm,
				     uint8_t install)
{
	struct vfit_boot_ops o = dev_ops(d, false);
	struct vfit_boot_request rq = { seq, confirm, install };

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot_apply_request(&o, &layout, &scratch, &rep, &rq);
}

/* The state as the device holds it. */
static struct vfit_boot_state state_of(const struct dev *d)
{
	struct vfit_boot_state st;

	vfit_boot_state_default(&st);
	CHECK(d->state.p && !vfit_boot_state_decode(d->state.p, d->state.n, &st), "state readable");
	return st;
}

/*
 * The trust state's second pass (issue 30): a disk whose two slots failed
 * once boots normally again once put right; the OS's request, acted on
 * only at the state it was made at, offers an installed slot whatever the
 * other slot's state and confirms recovery's own counter; a boot record
 * that cannot be written stops a good slot too; a chain that places its
 * kernel elsewhere is another chain.
 */
static void test_second_pass(struct dev *d)
{
	struct blob bad = { 0 }, moved = fit("k-load2.fit");
	struct vfit_boot_state st;
	unsigned int s;

	dev_factory(d);
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		d->stage[s][1].p[d->stage[s][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "both slots fail: recovery: %s", trace());
	st = state_of(d);
	CHECK(st.status[0] == VFIT_SLOT_BAD && st.failed[0] && st.status[1] == VFIT_SLOT_BAD &&
	      st.failed[1] && st.booted == VFIT_CHAIN_RECOVERY, "both bad for verification, "
	      "recovery recorded");
	blob_set(&bad, d->stage[1][1].p, d->stage[1][1].n);
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		d->stage[s][1].p[d->stage[s][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0 && count(VFIT_EV_RETRY) == 1,
	      "the disk put right boots normally: %s", trace());
	st = state_of(d);
	CHECK(st.status[0] == VFIT_SLOT_GOOD && !st.failed[0] && st.booted == 0, "slot A good again");

	/* Recovery confirms its own image: its counter moves to its index. */
	dev_free(d);
	dev_factory(d);
	blob_set(&d->stage[0][1], bad.p, bad.n);
	blob_set(&d->stage[1][1], bad.p, bad.n);
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "recovery");
	st = state_of(d);
	CHECK(request(d, st.seq + 1, VFIT_CHAIN_RECOVERY, VFIT_BOOT_NONE) == VFIT_BOOT_REFUSED &&
	      rep.why == VFIT_WHY_REQUEST_STALE && *dev_ctr(d, "recovery") == 0,
	      "a request made at another state is refused");
	CHECK(request(d, st.seq, 0, VFIT_BOOT_NONE) == VFIT_BOOT_REFUSED &&
	      rep.why == VFIT_WHY_REQUEST_MALFORMED, "confirming a chain that did not boot last");
	CHECK(request(d, st.seq, VFIT_CHAIN_RECOVERY, VFIT_BOOT_NONE) == VFIT_BOOT_DONE &&
	      *dev_ctr(d, "recovery") == 1 && find(VFIT_EV_CONFIRMED, 0) &&
	      find(VFIT_EV_CONFIRMED, 0)->chain == VFIT_CHAIN_RECOVERY,
	      "recovery confirmed: counter 'recovery' 0 -> 1: %s", trace());
	/* Recovery's OS installed slot B: offered though slot A is bad. */
	blob_set(&d->stage[1][1], moved.p, moved.n);
	st = state_of(d);
	CHECK(request(d, st.seq, VFIT_BOOT_NONE, 1) == VFIT_BOOT_DONE && find(VFIT_EV_OFFERED, 0),
	      "an installed slot is offered with no good slot: %s", trace());
	st = state_of(d);
	CHECK(st.status[1] == VFIT_SLOT_TRYING && st.tries[1] == VFIT_BOOT_TRIES && st.active == 1,
	      "slot B on trial, first");
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1 && find(VFIT_EV_TRIAL, 0),
	      "slot B's trial boots: %s", trace());
	st = state_of(d);
	CHECK(request(d, st.seq, 1, VFIT_BOOT_NONE) == VFIT_BOOT_DONE &&
	      state_of(d).status[1] == VFIT_SLOT_GOOD && *dev_ctr(d, "kernel") == 1,
	      "and the OS confirms it");

	/*
	 * A retried slot is written back as what it was, even when the chain
	 * it boots is the one recorded last: slot A booted, then nothing
	 * verified (A, B and recovery), then A put right.
	 */
	dev_free(d);
	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0, "slot A boots");
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		d->stage[s][1].p[d->stage[s][1].n / 2] ^= 1;
	blob_set(&bad, d->recovery.p, d->recovery.n);
	d->recovery.p[d->recovery.n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_HALT, "nothing verifies: halted: %s", trace());
	st = state_of(d);
	CHECK(st.status[0] == VFIT_SLOT_BAD && st.failed[0] && st.booted == 0,
	      "slot A bad for verification, still the chain booted last");
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	blob_set(&d->recovery, bad.p, bad.n);
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0 && count(VFIT_EV_RETRY) == 1,
	      "slot A put right boots: %s", trace());
	st = state_of(d);
	CHECK(st.status[0] == VFIT_SLOT_GOOD && !st.failed[0], "and is stored good again");
	CHECK(mark_good(d) == VFIT_BOOT_DONE, "so the OS can confirm it: %s", trace());
	d->stage[1][1].p[d->stage[1][1].n / 2] ^= 1;

	/*
	 * A slot on trial that failed verification once returns to its trial
	 * with the attempts it had left, never made good without the OS.
	 */
	CHECK(update(d, &moved, 1) == VFIT_BOOT_DONE, "slot B installed: %s", trace());
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		d->stage[s][1].p[d->stage[s][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "both slots fail: recovery: %s", trace());
	st = state_of(d);
	CHECK(st.status[1] == VFIT_SLOT_BAD && st.failed[1] && st.tries[1] == VFIT_BOOT_TRIES,
	      "slot B bad for verification, its attempts kept");
	for (s = 0; s < VFIT_BOOT_SLOTS; s++)
		d->stage[s][1].p[d->stage[s][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1 && find(VFIT_EV_TRIAL, 0) &&
	      find(VFIT_EV_TRIAL, 0)->value == VFIT_BOOT_TRIES - 1,
	      "slot B put right: its trial goes on: %s", trace());
	st = state_of(d);
	CHECK(st.status[1] == VFIT_SLOT_TRYING && st.tries[1] == VFIT_BOOT_TRIES - 1 &&
	      st.status[0] == VFIT_SLOT_BAD, "on trial, stored");
	for (s = 1; s < VFIT_BOOT_TRIES; s++)
		CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1, "trial boot %u", s + 1);
	CHECK(boot(d) != VFIT_BOOT_KERNEL || rep.slot != 1,
	      "unconfirmed, slot B does not boot for ever: %s", trace());

	/* A good slot whose boot record cannot be written does not run. */
	dev_free(d);
	dev_factory(d);
	d->state_broken = true;
	CHECK(boot(d) == VFIT_BOOT_HALT && rep.why == VFIT_WHY_STATE_WRITE && !find(VFIT_EV_START, 0) &&
	      !find(VFIT_EV_NO_SLOT, 0) && !rep.kernel.present,
	      "good slot, record not written: halted: %s", trace());
	d->state_broken = false;

	/* The same kernel, signed to load elsewhere: not the chain that booted. */
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0, "boot slot A");
	blob_set(&d->stage[0][1], moved.p, moved.n);
	CHECK(mark_good(d) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_CHAIN_CHANGED &&
	      *dev_ctr(d, "kernel") == 0, "another load address is another chain: %s", trace());
	free(moved.p);
	blob_set(&bad, NULL, 0);
	dev_free(d);
}

static void test_update(struct dev *d)
{
	struct blob k5 = fit("k-index5.fit"), other = fit("recovery.fit"), two[2];
	const struct vfit_boot_event *ev;

	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "boot");
	CHECK(update(d, &k5, 0) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_UPDATE_COUNT,
	      "no FIT");
	CHECK(update(d, &other, 1) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_UPDATE_NO_POSITION,
	      "foreign FIT refused: %s", trace());
	CHECK(find(VFIT_EV_REASONS, 0) && find(VFIT_EV_REASONS, 0)->why ==
	      VFIT_WHY_UPDATE_NO_POSITION && count(VFIT_EV_FAIL) >= 2,
	      "the attempts' reasons kept for the refusal");
	d->write_broken = true;
	CHECK(update(d, &k5, 1) == VFIT_BOOT_ERROR && rep.why == VFIT_WHY_WRITE, "write fails");
	d->write_broken = false;
	d->write_flips = true;
	CHECK(update(d, &k5, 1) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_UPDATE_READBACK,
	      "read back differs: %s", trace());
	d->write_flips = false;
	CHECK(update(d, &k5, 1) == VFIT_BOOT_DONE && rep.why == VFIT_WHY_NONE, "update: %s",
	      trace());
	ev = find(VFIT_EV_POSITION, 0);
	CHECK(ev && ev->stage == 2 && ev->value == 1 && ev->chain == VFIT_CHAIN_A,
	      "replaces stage 2 of slot A");
	ev = find(VFIT_EV_OFFERED, 0);
	CHECK(ev && ev->chain == VFIT_CHAIN_B && ev->value == VFIT_BOOT_TRIES &&
	      ev->limit == VFIT_CHAIN_A, "B on trial, A the fallback");
	CHECK(!count(VFIT_EV_FAIL), "the search's reasons dropped once a position is found");
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1 && find(VFIT_EV_TRIAL, 0) &&
	      find(VFIT_EV_TRIAL, 0)->value == VFIT_BOOT_TRIES - 1, "trial boot of B");
	CHECK(update(d, &k5, 1) == VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_UPDATE_TRIAL,
	      "no update during a trial");
	CHECK(mark_good(d) == VFIT_BOOT_DONE && *dev_ctr(d, "kernel") == 5, "confirmed: 5");
	/* Index 1 is now refused, by boot and by update. */
	two[0] = fit("kernel.fit");
	CHECK(update(d, &two[0], 1) == VFIT_BOOT_REFUSED &&
	      find(VFIT_EV_FAIL, VFIT_WHY_ROLLBACK), "old index refused by update");
	d->stage[1][1].p[d->stage[1][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_RECOVERY && find(VFIT_EV_FAIL, VFIT_WHY_ROLLBACK) &&
	      find(VFIT_EV_FAIL, VFIT_WHY_ROLLBACK)->chain == VFIT_CHAIN_A, "slot A rolled back");
	free(k5.p);
	free(other.p);
	free(two[0].p);
	dev_free(d);
}

/*
 * Rollback data signed by a required key but malformed (U-Boot's mkimage
 * signs it, vfit mkimage refuses to): a counter name without its NUL or
 * of VFIT_BOOT_COUNTER_NAME characters, an index of two cells.  The same
 * re-signing with a well-formed index boots, so each refusal is the
 * data's.
 */
static void test_rollback_malformed(struct dev *d)
{
	static const struct {
		const char *fit;
		enum vfit_boot_why why;
	} bad[] = {
		{ "k-ctr-nonul.fit", VFIT_WHY_ROLLBACK_NAME },
		{ "k-ctr-32.fit", VFIT_WHY_ROLLBACK_NAME },
		{ "k-idx-8.fit", VFIT_WHY_ROLLBACK_FORMAT },
	};
	const struct vfit_boot_event *ev;
	unsigned int i;

	dev_factory(d);
	both(d, 2, "k-resigned.fit");
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0, "re-signed FIT boots: %s", trace());
	dev_free(d);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dev_factory(d);
		both(d, 2, bad[i].fit);
		CHECK(boot(d) == VFIT_BOOT_RECOVERY, "%s: recovery: %s", bad[i].fit, trace());
		ev = find(VFIT_EV_FAIL, bad[i].why);
		CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 2 &&
		      !find(VFIT_EV_FAIL, VFIT_WHY_ROLLBACK), "%s: %s at slot A stage 2",
		      bad[i].fit, vfit_boot_why_to_string(bad[i].why));
		dev_free(d);
	}
	/* The longest name is one character shorter. */
	CHECK(vfit_counter_name_valid("0123456789012345678901234567890", 31) &&
	      !vfit_counter_name_valid("01234567890123456789012345678901", 32) &&
	      !vfit_counter_name_valid("", 0), "counter names of 1..%d characters",
	      VFIT_BOOT_COUNTER_NAME - 1);
}

/*
 * Compressed images, with a platform that decompresses: a gzip kernel
 * boots; its entry point is checked against the decompressed size; the
 * decompressor gets the room up to the next reserved range and no more;
 * only the kernel may be compressed.
 */
static void test_compressed(struct dev *d)
{
	const struct vfit_boot_event *ev;
	static const uint8_t mark[16] = "loader-untouched";

	dev_factory(d);
	both(d, 2, "k-gz.fit");
	memset(ram, 0, 0x100000);
	CHECK(boot_gunzip(d) == VFIT_BOOT_KERNEL && rep.kernel.size == KSIZE &&
	      rep.entry == 0x80080000u && dev_kernel_in_ram(ram), "gzip kernel boots: %s",
	      trace());
	dev_free(d);

	/* entry = load + KSIZE: inside the compressed FIT data's span, past the kernel */
	dev_factory(d);
	both(d, 2, "k-gz-entry.fit");
	CHECK(boot_gunzip(d) == VFIT_BOOT_RECOVERY, "entry past the decompressed kernel: %s",
	      trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_ENTRY_OUTSIDE);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 2 && ev->value == 0x8008c350u &&
	      ev->size == KSIZE, "entry 8008c350 outside the %u decompressed bytes", KSIZE);
	dev_free(d);

	/* 4 KiB below the loader: the decompressor may not write into it */
	dev_factory(d);
	both(d, 2, "k-gz-room.fit");
	memcpy(ram + (LOADER_ADDR - RAM_BASE), mark, sizeof(mark));
	CHECK(boot_gunzip(d) == VFIT_BOOT_RECOVERY, "no room below the loader: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_DECOMPRESS);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 2 && ev->value == 4,
	      "decompression given 4 KiB (%llu)", ev ? (unsigned long long)ev->value : 0ull);
	CHECK(!memcmp(ram + (LOADER_ADDR - RAM_BASE), mark, sizeof(mark)),
	      "the loader's bytes untouched");
	dev_free(d);

	/* a gzip ramdisk (valid gzip): only a kernel is decompressed */
	dev_factory(d);
	both(d, 2, "k-rd-gz.fit");
	CHECK(boot_gunzip(d) == VFIT_BOOT_RECOVERY, "gzip ramdisk: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_COMPRESSION);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 2 && !strcmp(ev->what, "ramdisk"),
	      "compressed ramdisk refused by name");
	dev_free(d);
}

/*
 * A ROM control DTB the verifier refuses (required-mode "most") halts the
 * device: its recovery key is not taken out of it either.
 */
static void test_rom_refused(struct dev *d)
{
	uint8_t buf[16384];
	int keys;

	dev_factory(d);
	REQUIRE(!fdt_open_into(d->rom.p, buf, sizeof(buf)), "ROM copy");
	keys = fdt_path_offset(buf, "/signature");
	FDT(keys);
	FDT(fdt_setprop_string(buf, keys, "required-mode", "most"));
	FDT(fdt_pack(buf));
	blob_set(&d->rom, buf, fdt_totalsize(buf));
	d->stage_broken = true;
	CHECK(boot(d) == VFIT_BOOT_HALT && find(VFIT_EV_FAIL, VFIT_WHY_ROM) &&
	      rep.why == VFIT_WHY_ROM && !find(VFIT_EV_START, 0), "malformed ROM: halt: %s",
	      trace());
	dev_free(d);
}

/*
 * The next stage's control DTB is used as it lies in the FIT, so it must
 * say compression "none": one labelled gzip is refused even when its
 * bytes are a plain DTB that would work.
 */
static void test_dtb_compressed(struct dev *d)
{
	const struct vfit_boot_event *ev;

	dev_factory(d);
	both(d, 1, "b-dtb-gzip.fit");
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "control DTB labelled gzip: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_CONTROL_DTB);
	CHECK(ev && ev->chain == VFIT_CHAIN_A && ev->stage == 1 && !strcmp(ev->name, "dtb"),
	      "refused at slot A stage 1, naming fdt 'dtb'");
	dev_free(d);
}

/* An update of more FITs than a chain has stages is refused by count, before any search. */
static void test_update_count(struct dev *d)
{
	struct blob k = fit("kernel.fit");
	const void *p[VFIT_BOOT_MAX_STAGES + 1];
	size_t len[VFIT_BOOT_MAX_STAGES + 1];
	struct vfit_boot_ops o;
	unsigned int i;

	for (i = 0; i <= VFIT_BOOT_MAX_STAGES; i++) {
		p[i] = k.p;
		len[i] = k.n;
	}
	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "boot");
	o = dev_ops(d, false);
	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, events, sizeof(events) / sizeof(events[0]));
	CHECK(vfit_boot_update(&o, &layout, &scratch, &rep, p, len, VFIT_BOOT_MAX_STAGES + 1) ==
	      VFIT_BOOT_REFUSED && rep.why == VFIT_WHY_UPDATE_COUNT &&
	      find(VFIT_EV_FAIL, VFIT_WHY_UPDATE_COUNT) && !find(VFIT_EV_VERIFY, 0),
	      "%d FITs refused: %s", VFIT_BOOT_MAX_STAGES + 1, trace());
	free(k.p);
	dev_free(d);
}

/* ---- issue 10: user keys, unsigned rollback and placement ------------------------- */

static void test_user_chain(struct dev *d)
{
	struct blob chain[2] = { fit("b-user.fit"), fit("k-user2.fit") };
	const struct vfit_boot_event *ev;
	char path[128];

	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL && mark_good(d) == VFIT_BOOT_DONE, "factory boot");
	d->dev_mode = true;
	path_of(path, "user.dtb");
	d->user = dev_read_blob(path);
	CHECK(update(d, chain, 2) == VFIT_BOOT_DONE, "user update: %s", trace());
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 1, "user chain boots: %s", trace());
	ev = find(VFIT_EV_DEV_MODE, 0);
	CHECK(ev && (ev->flags & VFIT_EVF_DEV) && ev->store == VFIT_STORE_TRUSTED, "switch open");
	CHECK(find(VFIT_EV_USER_OK, 0) && find(VFIT_EV_USER_OK, 0)->stage == 1,
	      "stage 1 accepted through a user key");
	CHECK(count(VFIT_EV_ROLLBACK_SKIPPED) == 2 && !count(VFIT_EV_ROLLBACK),
	      "no counter read for either stage: %s", trace());
	CHECK(mark_good(d) == VFIT_BOOT_DONE && find(VFIT_EV_NO_ADVANCE, 0) &&
	      !count(VFIT_EV_COUNTER), "mark-good moves nothing");
	CHECK(*dev_ctr(d, "recovery") == 0 && *dev_ctr(d, "kernel") == 1 &&
	      *dev_ctr(d, "bootloader") == 0, "counters as the vendor left them");
	d->dev_mode = false;
	CHECK(boot(d) == VFIT_BOOT_KERNEL && rep.slot == 0 && dev_kernel_in_ram(ram),
	      "switch closed: the vendor slot boots: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_VERIFY);
	CHECK(ev && ev->chain == VFIT_CHAIN_B && ev->stage == 1, "user chain refused when closed");
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "and recovery boots");
	free(chain[0].p);
	free(chain[1].p);
	dev_free(d);

	/* A user kernel after a vendor bootloader: its counter name is never read. */
	dev_factory(d);
	d->dev_mode = true;
	path_of(path, "user.dtb");
	d->user = dev_read_blob(path);
	both(d, 2, "k-user.fit");
	CHECK(boot(d) == VFIT_BOOT_KERNEL && count(VFIT_EV_ROLLBACK) == 1 &&
	      count(VFIT_EV_ROLLBACK_SKIPPED) == 1 && find(VFIT_EV_ROLLBACK_SKIPPED, 0)->stage == 2,
	      "vendor stage checked, user stage skipped: %s", trace());
	CHECK(mark_good(d) == VFIT_BOOT_DONE && !count(VFIT_EV_COUNTER) &&
	      *dev_ctr(d, "recovery") == 0, "no counter moves for a chain with a user stage");
	dev_free(d);
}

static void test_unsigned(struct dev *d)
{
	struct blob img[2] = { fit("b-img.fit"), fit("k-img-ctr.fit") };
	const struct vfit_boot_event *ev;

	/* Counter 'kernel' at 5; an image-signed kernel naming a fresh counter. */
	dev_factory(d);
	*dev_ctr(d, "kernel") = 5;
	both(d, 1, "b-img.fit");
	both(d, 2, "k-img-ctr.fit");
	CHECK(boot(d) == VFIT_BOOT_RECOVERY, "unsigned rollback-counter refused: %s", trace());
	ev = find(VFIT_EV_FAIL, VFIT_WHY_ROLLBACK_UNSIGNED);
	CHECK(ev && ev->stage == 2 && *dev_ctr(d, "fresh") == 0, "reason: rollback data unsigned");
	/* The verifier accepted it: the image signature verified. */
	ev = find_stage(VFIT_EV_VERIFY, VFIT_CHAIN_A, 2);
	CHECK(ev && ev->v.result == VFIT_OK && ev->keys == VFIT_KEYS_STAGE,
	      "the verifier accepted it (image signature)");
	dev_free(d);
	dev_factory(d);
	CHECK(boot(d) == VFIT_BOOT_KERNEL, "boot");
	CHECK(update(d, img, 2) == VFIT_BOOT_REFUSED && find(VFIT_EV_FAIL,
	      VFIT_WHY_ROLLBACK_UNSIGNED), "update refuses it too: %s", trace());
	free(img[1].p);
	img[1] = fit("k-img.fit");
	CHECK(update(d, img, 2) == VFIT_BOOT_REFUSED &&
	      find(VFIT_EV_FAIL, VFIT_WHY_PLACEMENT_UNSIGNED), "unsigned placement refused");
	free(img[0].p);
	free(img[1].p);
	dev_free(d);
}

int main(void)
{
	struct dev *d = malloc(sizeof(*d));

	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(ram != MAP_FAILED, "RAM");
	CHECK(!strcmp(vfit_boot_why_to_string(VFIT_WHY_ENTRY_OUTSIDE), "entry outside kernel") &&
	      !strcmp(vfit_boot_outcome_to_string(VFIT_BOOT_HALT), "halt") &&
	      !strcmp(vfit_io_to_string(VFIT_IO_TOO_BIG), "too big") &&
	      !strcmp(vfit_boot_chain_to_string(VFIT_CHAIN_NEW), "new chain") &&
	      !strcmp(vfit_boot_why_to_string((enum vfit_boot_why)999), "unknown reason"),
	      "names");
	if (CHECK(!dev_tempdir(), "temp dir") && CHECK(!dev_build_fits(), "signed FITs") &&
	    CHECK(!build_more(), "scenario FITs")) {
		test_good(d);
		test_fallback(d);
		test_halts(d);
		test_mark_good(d);
		test_second_pass(d);
		test_update(d);
		test_user_chain(d);
		test_unsigned(d);
		test_rollback_malformed(d);
		test_compressed(d);
		test_rom_refused(d);
		test_update_count(d);
		test_dtb_compressed(d);
	}
	dev_cleanup();
	munmap(ram, RAM_SIZE);
	free(d);
	return check_done();
}
