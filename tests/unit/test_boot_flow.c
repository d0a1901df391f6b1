/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow of lib/boot against an in-memory platform: state blob
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

#include "boot_dev.h"
#include "check.h"
#include "vfit-host/sim.h"
#include "vfit-host/host.h"
#include "../../lib/boot/boot_int.h"

/* One command at a time: its scratch space and report. */
static struct vfit_boot_scratch scratch;
static struct vfit_boot_event events[256];
static struct vfit_boot_region region;
static struct vfit_boot_layout layout;

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
	CHECK(!strcmp(vfit_boot_obj_to_string(VFIT_BOOT_OBJ_STAGE), "stage") &&
	      strcmp(vfit_boot_obj_to_string(VFIT_BOOT_OBJ_ROM),
		     vfit_boot_obj_to_string(VFIT_BOOT_OBJ_USER_KEYS)) &&
	      !strcmp(vfit_boot_obj_to_string((enum vfit_boot_obj)0), "unknown object"),
	      "storage object names");
	CHECK(!strcmp(vfit_boot_phase_to_string(VFIT_BOOT_T_VERIFY), "verify") &&
	      !strcmp(vfit_boot_phase_to_string(VFIT_BOOT_T_PHASES), "unknown phase"),
	      "phase names");
}

static void test_line(void)
{
	struct vfit_line l;
	unsigned int i;

	vfit_line_init_(&l);
	vfit_line_hex_(&l, 0);
	vfit_line_str_(&l, " ");
	vfit_line_hex_(&l, 0x80080000u);
	vfit_line_str_(&l, " ");
	vfit_line_hex_(&l, 0x123456789abcull);
	vfit_line_str_(&l, " ");
	vfit_line_u32_(&l, 4294967295u);
	vfit_line_str_(&l, " ");
	vfit_line_u32_(&l, 0);
	CHECK(!strcmp(l.s, "00000000 80080000 123456789abc 4294967295 0"), "line: '%s'", l.s);
	vfit_line_init_(&l);
	for (i = 0; i < 100; i++)
		vfit_line_str_(&l, "0123456789");
	CHECK(l.n == sizeof(l.s) - 1 && strlen(l.s) == l.n, "line truncates at its end");
}

/* The console text of a FAIL event. */
static void line_to(void *ctx, const char *line)
{
	snprintf(ctx, 256, "%s", line);
}

static const char *why_text(struct vfit_boot_event *why, char *buf)
{
	why->kind = VFIT_EV_FAIL;
	why->stage = 0;
	buf[0] = 0;
	vfit_boot_format_event(why, line_to, buf);
	return buf;
}

static void test_ranges(uint8_t *ram)
{
	static struct vfit_boot_report rep;
	struct vfit_boot_ops o = dev_ops(NULL, false);
	struct vfit_run r = { .ops = &o, .lay = &layout, .s = &scratch, .rep = &rep };
	struct vfit_boot_event why;
	char text[256];

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&rep, NULL, 0);
	vfit_boot_ranges_reset_(&r);
	vfit_ev_init_(&why, VFIT_EV_FAIL, VFIT_CHAIN_A, 0);
	CHECK(vfit_boot_reserve_(&r, RAM_BASE, 0x1000, "a", &why), "first range");
	CHECK(vfit_boot_reserve_(&r, RAM_BASE + 0x1000, 0x1000, "b", &why), "adjacent range");
	CHECK(!vfit_boot_reserve_(&r, RAM_BASE + 0xfff, 2, "c", &why), "straddling range refused");
	why_text(&why, text);
	CHECK(strstr(text, "overlaps a [80000000..80001000)") != NULL, "reason: %s", text);
	vfit_ev_init_(&why, VFIT_EV_FAIL, VFIT_CHAIN_A, 0);
	CHECK(!vfit_boot_reserve_(&r, LOADER_ADDR + LOADER_SIZE - 1, 1, "d", &why), "loader fenced");
	why_text(&why, text);
	CHECK(strstr(text, "overlaps loader") != NULL, "reason: %s", text);
	CHECK(!vfit_boot_reserve_(&r, RAM_BASE - 1, 2, "e", &why), "below RAM refused");
	CHECK(!vfit_boot_reserve_(&r, RAM_BASE + RAM_SIZE - 1, 2, "f", &why), "past RAM refused");
	CHECK(!vfit_boot_reserve_(&r, UINT64_MAX - 1, 4, "g", &why), "wrap-around refused");
	CHECK(vfit_boot_reserve_(&r, RAM_BASE + 0x500, 0, "h", &why), "empty range is no range");
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
	CHECK(!vfit_boot_keyview_(view, sizeof(view), rom, VFIT_VIEW_BUILT_IN, &len), "built-in");
	CHECK(fdt_path_offset(view, "/signature/key-dev") >= 0 &&
	      fdt_path_offset(view, "/signature/key-recovery") < 0,
	      "built-in view: vendor key, no recovery key");
	n = fdt_path_offset(view, "/signature/key-dev");
	CHECK(n >= 0 && fdt_getprop(view, n, "rsa,modulus", NULL) != NULL, "properties copied");
	CHECK(prop_str(view, "/signature", "required-mode") &&
	      !strcmp(prop_str(view, "/signature", "required-mode"), "all"), "policy kept");
	CHECK(!vfit_boot_keyview_(view, sizeof(view), rom, VFIT_VIEW_RECOVERY, &len), "recovery");
	CHECK(fdt_path_offset(view, "/signature/key-dev") < 0 &&
	      prop_str(view, "/signature/key-recovery", "required") &&
	      !strcmp(prop_str(view, "/signature/key-recovery", "required"), "conf"),
	      "recovery view: recovery key alone, required");
	CHECK(!vfit_boot_keyview_(view, sizeof(view), rom, VFIT_VIEW_USER, &len), "user");
	CHECK(!strcmp(prop_str(view, "/signature", "required-mode"), "any") &&
	      !strcmp(prop_str(view, "/signature/key-dev", "required"), "conf"),
	      "user view: every key required, any one suffices");
	CHECK(vfit_boot_keyview_(view, 64, rom, VFIT_VIEW_BUILT_IN, &len), "tiny buffer refused");
	CHECK(vfit_boot_key_count_(rom) == 2, "key count");
}

/* ---- the flow ---------------------------------------------------------------- */

typedef enum vfit_boot_outcome (*boot_cmd)(const struct vfit_boot_ops *,
					   const struct vfit_boot_layout *,
					   struct vfit_boot_scratch *, struct vfit_boot_report *);

/* One power-on with cmd: vfit_boot, or vfit_boot_recover (recovery alone). */
static enum vfit_boot_outcome run_cmd(boot_cmd cmd, struct dev *d, uint8_t *ram,
				      struct vfit_boot_report *b)
{
	struct vfit_boot_ops o = dev_ops(d, true);

	d->loglen = 0;
	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(b, events, sizeof(events) / sizeof(events[0]));
	return cmd(&o, &layout, &scratch, b);
}

static enum vfit_boot_outcome power_on(struct dev *d, uint8_t *ram, struct vfit_boot_report *b)
{
	return run_cmd(vfit_boot, d, ram, b);
}

static enum vfit_boot_result mark_good(struct dev *d, uint8_t *ram)
{
	static struct vfit_boot_report b;
	struct vfit_boot_ops o = dev_ops(d, true);

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&b, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot_mark_good(&o, &layout, &scratch, &b);
}

static enum vfit_boot_result update(struct dev *d, uint8_t *ram, const void *const fit[],
				    const size_t len[], unsigned int n)
{
	static struct vfit_boot_report b;
	struct vfit_boot_ops o = dev_ops(d, true);

	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(&b, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot_update(&o, &layout, &scratch, &b, fit, len, n);
}

/* Reasons recorded in a report (FAIL events). */
static unsigned int nreasons(const struct vfit_boot_report *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < b->n; i++)
		n += b->ev[i].kind == VFIT_EV_FAIL;
	return n;
}

static void test_flow(uint8_t *ram)
{
	static struct vfit_boot_report b;
	struct vfit_boot_state st;
	struct dev *d = malloc(sizeof(*d)), *cut = malloc(sizeof(*cut));
	const void *fit[1];
	size_t len[1];
	int n, total;

	dev_factory(d);
	memset(ram, 0, 0x100000);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "good boot:\n%s", d->log);
	CHECK(b.slot == 0 && b.nstages == 2 && b.entry == 0x80080000u, "slot A, 2 stages");
	CHECK(dev_kernel_in_ram(ram), "kernel bytes at the load address");
	CHECK(!memcmp(ram + 0x1000000, "firmware", 8), "stage 2 firmware handed over");
	CHECK(*dev_ctr(d, "kernel") == 0, "a boot moves no counter");
	CHECK(mark_good(d, ram) == 0 && *dev_ctr(d, "kernel") == 1, "mark-good advances it");
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
	CHECK(nreasons(&b) >= 3 && strstr(d->log, "   - recovery: ") != NULL, "every reason listed");
	dev_free(d);

	/* Recovery alone (a port's network recovery): good slots are not even read. */
	dev_factory(d);
	CHECK(run_cmd(vfit_boot_recover, d, ram, &b) == VFIT_BOOT_RECOVERY && b.slot == VFIT_BOOT_NONE &&
	      b.nstages == 1, "recovery alone:\n%s", d->log);
	CHECK(!strstr(d->log, "Trying slot") && strstr(d->log, "Trusting recovery key"),
	      "recovery alone: no slot tried, key-recovery trusted");
	d->recovery.p[d->recovery.n / 2] ^= 1;
	CHECK(run_cmd(vfit_boot_recover, d, ram, &b) == VFIT_BOOT_HALT && nreasons(&b) == 1 &&
	      strstr(d->log, "   - recovery: bad hash value") != NULL,
	      "recovery alone, tampered: halts with its one reason:\n%s", d->log);
	dev_free(d);

	/*
	 * Counter store failing: nothing boots (not even recovery), yet no
	 * slot is marked bad for it -- once the store answers again, slot A
	 * boots as before.
	 */
	dev_factory(d);
	d->ctr_broken = true;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_HALT, "counter fault blocks:\n%s", d->log);
	CHECK(strstr(d->log, "rollback counter 'bootloader' cannot be read") != NULL,
	      "reason names the counter");
	CHECK(!d->state.p || (!vfit_boot_state_decode(d->state.p, d->state.n, &st) &&
			      st.status[0] == VFIT_SLOT_GOOD &&
			      st.status[1] == VFIT_SLOT_GOOD),
	      "a counter fault marks no slot bad");
	d->ctr_broken = false;
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL && b.slot == 0,
	      "slot A boots once the counters answer:\n%s", d->log);
	dev_free(d);

	/* No ROM at all: halt, nothing else read. */
	dev_factory(d);
	blob_set(&d->rom, NULL, 0);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_HALT, "no ROM: halt");
	dev_free(d);

	/*
	 * Update of the kernel stage with a power cut after each durable write:
	 * afterwards the device boots a verified kernel, and the update can be
	 * run again to completion.
	 */
	dev_factory(d);
	CHECK(power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "boot before update");
	fit[0] = d->stage[0][1].p;
	len[0] = d->stage[0][1].n;
	n = d->writes;
	CHECK(update(d, ram, fit, len, 1) == 0, "update:\n%s", d->log);
	total = d->writes - n;
	CHECK(total >= 4, "update made %d durable writes", total);
	CHECK(d->state.p && !vfit_boot_state_decode(d->state.p, d->state.n, &st) &&
	      st.status[1] == VFIT_SLOT_TRYING && st.active == 1, "slot B on trial");
	dev_free(d);
	for (n = 1; n < total; n++) {
		struct dev *keep = malloc(sizeof(*keep));

		dev_factory(keep);
		CHECK(power_on(keep, ram, &b) == VFIT_BOOT_KERNEL, "boot");
		fit[0] = keep->stage[0][1].p;
		len[0] = keep->stage[0][1].n;
		dev_copy(cut, keep);
		cut->writes = 0;
		cut->cut_after = n;
		update(cut, ram, fit, len, 1);
		cut->cut_after = 0;
		memset(ram + 0x80000, 0, KSIZE);
		CHECK(power_on(cut, ram, &b) == VFIT_BOOT_KERNEL && dev_kernel_in_ram(ram),
		      "cut after write %d: verified boot\n%s", n, cut->log);
		dev_free(cut);
		dev_copy(cut, keep);
		cut->cut_after = n;
		update(cut, ram, fit, len, 1);
		cut->cut_after = 0;
		CHECK(update(cut, ram, fit, len, 1) == 0, "update again after cut %d", n);
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
/* ---- measured boot ------------------------------------------------------------ */

/*
 * What the measure op was handed, in order; fail_at > 0: that call fails;
 * hashes: what measure_hashes asks for (0: no such op).
 */
static struct {
	unsigned int n, fail_at;
	uint32_t hashes;
	unsigned int pcr[32];
	struct vfit_digest_set d[32];
} meas;

static enum vfit_io record_measure(void *plat, unsigned int pcr, uint32_t type,
				   const struct vfit_digest_set *d, const void *event, size_t len)
{
	(void)plat;
	(void)type;
	(void)event;
	(void)len;
	if (meas.n >= 32 || meas.n + 1 == meas.fail_at)
		return VFIT_IO_ERROR;
	meas.pcr[meas.n] = pcr;
	meas.d[meas.n++] = *d;
	return VFIT_IO_OK;
}

static uint32_t record_measure_hashes(void *plat)
{
	(void)plat;
	return meas.hashes;
}

static enum vfit_boot_outcome measured_power_on(struct dev *d, uint8_t *ram,
						struct vfit_boot_report *b)
{
	struct vfit_boot_ops o = dev_ops(d, true);

	o.measure = record_measure;
	if (meas.hashes)
		o.measure_hashes = record_measure_hashes;
	meas.n = 0;
	d->loglen = 0;
	dev_layout(&layout, &region, ram);
	vfit_boot_report_init(b, events, sizeof(events) / sizeof(events[0]));
	return vfit_boot(&o, &layout, &scratch, b);
}

/* Index of the measurement into pcr (the first), or -1. */
static int measured(unsigned int pcr)
{
	unsigned int i;

	for (i = 0; i < meas.n; i++)
		if (meas.pcr[i] == pcr)
			return (int)i;
	return -1;
}

static void test_measure(uint8_t *ram)
{
	static struct vfit_boot_report b;
	struct dev *d = malloc(sizeof(*d));
	uint8_t k[VFIT_BOOT_DIGEST], key[VFIT_BOOT_DIGEST];
	unsigned int i, one_chain;
	int at;

	vfit_hash(VFIT_HASH_SHA256, kernel_payload, KSIZE, k);
	dev_factory(d);
	CHECK(measured_power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "measured boot:\n%s", d->log);
	/* Two stages: key, firmware and fdt of the bootloader; key, kernel (and more) of the last. */
	CHECK(meas.n >= 5 && meas.pcr[0] == 7 && meas.pcr[1] == 4 && meas.pcr[2] == 4,
	      "stage 1: its key into PCR 7, its images into PCR 4");
	at = measured(8);
	CHECK(at > 0 && !memcmp(meas.d[at].sha256, k, sizeof(k)),
	      "PCR 8: the kernel's SHA-256 (the verified hash node's value)");
	for (i = 0; i < meas.n; i++)
		CHECK(meas.d[i].hashes == VFIT_HASH_BIT(VFIT_HASH_SHA256),
		      "measurement %u: SHA-256 alone without measure_hashes (0x%x)", i,
		      (unsigned)meas.d[i].hashes);
	for (i = 0; i < meas.n; i++)
		CHECK(meas.pcr[i] == 1 || meas.pcr[i] == 4 || meas.pcr[i] == 7 || meas.pcr[i] == 8 ||
		      meas.pcr[i] == 9, "PCR %u is one of the documented ones", meas.pcr[i]);
	CHECK(strstr(d->log, "   Measured 'kernel' (kernel) into PCR 8") != NULL, "console line");
	one_chain = meas.n;
	memcpy(key, meas.d[0].sha256, sizeof(key));
	CHECK(scratch.tee_state.n == 0, "no tee without measure_hashes (%u)", scratch.tee_state.n);

	/* Slot A's kernel tampered: slot B boots; nothing of slot A was measured. */
	d->stage[0][1].p[d->stage[0][1].n / 2] ^= 1;
	CHECK(measured_power_on(d, ram, &b) == VFIT_BOOT_KERNEL && b.slot == 1, "slot B");
	CHECK(meas.n == one_chain, "one chain measured (%u), not the refused one", meas.n);

	/* A measurement that fails stops the boot: nothing starts unmeasured. */
	meas.fail_at = 4;
	CHECK(measured_power_on(d, ram, &b) == VFIT_BOOT_HALT && b.why == VFIT_WHY_MEASURE,
	      "failed extend: halt (%s)", vfit_boot_why_to_string(b.why));
	CHECK(!b.kernel.present && !b.entry, "nothing to start");
	CHECK(strstr(d->log, "measurement failed") != NULL, "reason on the console:\n%s", d->log);
	meas.fail_at = 0;

	/* Every PCR bank: each measurement carries each hash the platform asks for. */
	meas.hashes = VFIT_HASH_SET_ALL;
	dev_free(d);
	dev_factory(d);
	CHECK(measured_power_on(d, ram, &b) == VFIT_BOOT_KERNEL, "four banks:\n%s", d->log);
	CHECK(meas.n == one_chain, "the same measurements (%u)", meas.n);
	for (i = 0; i < meas.n; i++)
		CHECK(meas.d[i].hashes == VFIT_HASH_SET_ALL, "measurement %u holds 0x%x", i,
		      (unsigned)meas.d[i].hashes);
	at = measured(8);
	for (i = 0; at >= 0 && i < 4; i++) {
		static const enum vfit_hash h[] = {
			VFIT_HASH_SHA1, VFIT_HASH_SHA256, VFIT_HASH_SHA384, VFIT_HASH_SHA512,
		};
		uint8_t want[VFIT_HASH_MAX_SIZE];

		vfit_hash(h[i], kernel_payload, KSIZE, want);
		CHECK(!memcmp(vfit_digest_set_get(&meas.d[at], h[i]), want, vfit_hash_size(h[i])),
		      "PCR 8: the kernel's %s", vfit_hash_name(h[i]));
	}
	/* The verifier's own SHA-256 pass over the kernel gave its other digests (the tee). */
	for (i = 0; i < scratch.tee_state.n; i++)
		if (!memcmp(scratch.tee_state.seen[i].sha256, k, sizeof(k)))
			break;
	CHECK(i < scratch.tee_state.n && at >= 0 &&
	      !memcmp(&scratch.tee_state.seen[i].more.sha512, meas.d[at].sha512, 64),
	      "the kernel's SHA-512 came from the verifier's pass (%u SHA-256 teed)",
	      scratch.tee_state.n);
	/* A key's identity in every hash, its SHA-256 the one measured with one bank. */
	CHECK(meas.pcr[0] == 7 && meas.d[0].hashes == VFIT_HASH_SET_ALL &&
	      !memcmp(meas.d[0].sha256, key, sizeof(key)), "PCR 7: the key in every hash");
	meas.hashes = 0;
	dev_free(d);
	free(d);
}

static void test_mutations(uint8_t *ram)
{
	static struct vfit_boot_report b;
	struct dev *d = malloc(sizeof(*d));
	unsigned int i, iters = getenv("VFIT_TEST_QUICK") ? 60 : 300, booted = 0, bad = 0;
	uint32_t x = 12345;

	for (i = 0; i < iters; i++) {
		struct blob *t;
		unsigned int k, flips;
		enum vfit_boot_outcome r;

		dev_factory(d);
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
			bad += !dev_kernel_in_ram(ram);
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

	snprintf(path, sizeof(path), "%s/sim", dev_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/counters", dev_dir);
	CHECK(!vfit_ctr_file_provision(path, &e), "counter store: %s", e.msg);
	snprintf(path, sizeof(path), "%s/sim/slot-a", dev_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/slot-a/stage1.fit", dev_dir);
	memset(src, 0x5a, 1 << 20);
	CHECK(!dev_write_file(path, src, 1 << 20), "stage file");
	snprintf(path, sizeof(path), "%s/sim", dev_dir);
	if (!CHECK(!vfit_boot_sim_open(&sim, path, false, &e), "sim: %s", e.msg)) {
		free(src);
		return;
	}
	ram = sim.ram[0].host + (sim.layout.fit_addr - sim.ram[0].base);
	CHECK(sim.ops.read(sim.ops.plat, VFIT_BOOT_OBJ_STAGE, 0, 1, ram, sim.layout.fit_size,
			   &len) == 0 && len == 1 << 20, "read");
	snprintf(path, sizeof(path), "%s/sim/slot-a/stage1.fit", dev_dir);
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
	if (CHECK(!dev_tempdir(), "temp dir") && CHECK(!dev_build_fits(), "signed FITs")) {
		test_flow(ram);
		test_measure(ram);
		test_mutations(ram);
		test_sim_snapshot();
	}
	dev_cleanup();
	munmap(ram, RAM_SIZE);
	return check_done();
}
