/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stage's TPM (docs/trust-state.md), when the ROM requires one: found
 * in QEMU's DTB (none described halts), opened through TIS MMIO, its NV
 * trust state and request index checked; the OS's request served; at
 * handover the device tree and command line measured, the event log
 * announced to Linux, platform authorization given up.  Every failure
 * halts with its reason: the stage never boots with rollback unchecked.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/boot_tpm.h"
#include "vfit/disk.h"
#include "vfit/vfit.h"
#include "ops.h"
#include "plat.h"
#include "port.h"
#include "tis.h"
#include "tpm.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static struct tis tis;
static struct vfit_tpm tpm;
static struct vfit_tpm_log tlog;
/* The event log: in the stage's RAM, reserved (not no-map) for Linux, which copies it. */
#define LOG_SIZE 0x10000u
static uint8_t log_mem[LOG_SIZE] __attribute__((aligned(4096)));

void stage_tpm_halt(enum vfit_boot_why why)
{
	const struct vfit_trust *t = &stage_trust;

	con_puts("vfit-stage: TPM: ");
	con_puts(vfit_boot_why_to_string(why));
	if (t->what) {
		con_puts(" (");
		con_puts(t->what);
		if (t->tr) {
			con_puts(": ");
			con_puts(vfit_tpm_result_to_string(t->tr));
		}
		if (t->rc) {
			con_puts(" ");
			con_puts(vfit_tpm_rc_to_string(t->rc));
		}
		con_puts(")");
	}
	con_nl();
	port_halt("TPM: failing closed");
}

/* Extends pcr in every active bank with data[0..len)'s digests (one pass), logged with event. */
static void measure(unsigned int pcr, uint32_t type, const void *data, size_t len,
		    const void *event, size_t event_len)
{
	struct vfit_hash_set hs;
	struct vfit_digest_set d;

	if (vfit_hash_set_init(&hs, stage_trust.hashes))
		stage_tpm_halt(VFIT_WHY_MEASURE);
	vfit_hash_set_update(&hs, data, len);
	vfit_hash_set_final(&hs, &d);
	if (vfit_trust_measure(&stage_trust, pcr, type, &d, event, event_len))
		stage_tpm_halt(VFIT_WHY_MEASURE);
}

/*
 * PCR 0, as the S-CRTM of the TCG PC Client PFP (the first code to run
 * after reset measures itself): the stage's version string, then the
 * stage as it lies in flash, its ROM keys included, logged as where it
 * lies (UEFI_PLATFORM_FIRMWARE_BLOB: base and length, little-endian).
 */
static void measure_crtm(void)
{
	static const char version[] = "vfit QEMU virt stage " VFIT_STAGE_ARCH " "
		STR(VFIT_VERSION_MAJOR) "." STR(VFIT_VERSION_MINOR) "." STR(VFIT_VERSION_PATCH);
	uint64_t base = (uintptr_t)__image_start, size = (uintptr_t)(__image_end - __image_start);
	uint8_t blob[16];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		blob[i] = (uint8_t)(base >> (8 * i));
		blob[8 + i] = (uint8_t)(size >> (8 * i));
	}
	measure(0, VFIT_TPM_EV_S_CRTM_VERSION, version, sizeof(version), version, sizeof(version));
	measure(0, VFIT_TPM_EV_S_CRTM_CONTENTS, __image_start, (size_t)size, blob, sizeof(blob));
}

extern const uint8_t rom_keys[];

bool stage_tpm_required(void)
{
	bool required;
	enum vfit_boot_why w = vfit_trust_required(rom_keys, &required);

	if (w)
		stage_tpm_halt(w);
	if (!required) {
		con_puts("vfit-stage: no TPM (the ROM requires none): state and rollback counters on "
			 "the disk are tamper-evident, not tamper-proof");
		con_nl();
	}
	return required;
}

void stage_tpm_open(const void *qemu_dtb)
{
	struct vfit_tpm_transport tr;
	enum vfit_tpm_result r;
	enum vfit_boot_why w;

	switch (tis_find(qemu_dtb, &tis)) {
	case TIS_NONE:
		/* Present or not, a TPM the platform does not describe is not one to do without. */
		stage_tpm_halt(VFIT_WHY_TPM_REQUIRED);
	case TIS_BAD_NODE:
		port_halt("TPM: the DTB's tcg,tpm-tis-mmio node has no usable reg: failing closed");
	case TIS_FOUND:
		break;
	}
	con_puts("vfit-stage: TPM at ");
	con_hex(tis.base);
	con_nl();
	r = tis_open(&tis);
	if (r) {
		stage_trust.what = "TIS locality 0";
		stage_trust.tr = r;
		stage_tpm_halt(vfit_trust_why(r));
	}
	tis_transport(&tis, &tr);
	vfit_tpm_init(&tpm, &tr);
	w = vfit_trust_open(&stage_trust, &tpm, &tlog, log_mem, sizeof(log_mem));
	if (w)
		stage_tpm_halt(w);
	measure_crtm();
	con_puts("vfit-stage: TPM: trust state in NV index ");
	con_hex(stage_trust.index);
	con_puts(stage_trust.written ? "" : " (factory-fresh)");
	con_nl();
}

void stage_tpm_serve(const struct vfit_boot_layout *layout, struct vfit_boot_scratch *scratch,
		     struct vfit_boot_report *report)
{
	enum vfit_boot_why w = vfit_trust_serve(&stage_trust, &stage_tpm_ops, layout, scratch,
						report);

	if (w)
		stage_tpm_halt(w);
}

/* The OS reads what the device did from the disk: a copy of the TPM's state. */
void stage_tpm_mirror(void)
{
	uint8_t cur[VFIT_BOOT_STATE_SIZE];
	size_t len;

	if (vfit_trust_state_read(&stage_trust, cur, sizeof(cur), &len) == VFIT_IO_OK &&
	    plat_state_write(cur, len))
		con_puts("vfit-stage: the state could not be copied to the disk\r\n");
}

/* /reserved-memory/tpm-log@ADDR: Linux keeps the log's pages (mapped: it copies the log). */
static const char *reserve(void *dtb, uint64_t base, uint64_t size)
{
	int rm = fdt_path_offset(dtb, "/reserved-memory"), node;
	fdt32_t reg[4];

	if (rm < 0) {
		rm = fdt_add_subnode(dtb, 0, "reserved-memory");
		if (rm < 0 || fdt_setprop_u32(dtb, rm, "#address-cells", 2) ||
		    fdt_setprop_u32(dtb, rm, "#size-cells", 2) ||
		    fdt_setprop(dtb, rm, "ranges", NULL, 0))
			return "cannot add /reserved-memory";
	}
	if (fdt_address_cells(dtb, rm) != 2 || fdt_size_cells(dtb, rm) != 2)
		return "/reserved-memory: cells other than 2";
	node = fdt_add_subnode(dtb, rm, "tpm-event-log");
	reg[0] = cpu_to_fdt32((uint32_t)(base >> 32));
	reg[1] = cpu_to_fdt32((uint32_t)base);
	reg[2] = cpu_to_fdt32((uint32_t)(size >> 32));
	reg[3] = cpu_to_fdt32((uint32_t)size);
	if (node < 0 || fdt_setprop(dtb, node, "reg", reg, sizeof(reg)))
		return "cannot add the event log's reserved-memory node";
	return NULL;
}

const char *stage_tpm_handover(void *dtb, bool fit_fdt, const char *bootargs)
{
	const char *why;
	int node;

	/*
	 * PCR 1, as U-Boot's bootm: the device tree before fixups, then the
	 * command line.  QEMU's DTB is measured packed: the tree, not the free
	 * space of the buffer it was opened into (fixups follow, so reopened).
	 */
	if (!fit_fdt) {
		int room = (int)fdt_totalsize(dtb);

		if (fdt_pack(dtb))
			return "DTB: cannot pack QEMU's DTB";
		measure(1, VFIT_TPM_EV_TABLE_OF_DEVICES, dtb, fdt_totalsize(dtb), "fdt QEMU's DTB", 14);
		if (fdt_open_into(dtb, dtb, room))
			return "DTB: cannot reopen QEMU's DTB";
	}
	measure(1, VFIT_TPM_EV_PLATFORM_CONFIG_FLAGS, bootargs, strlen(bootargs) + 1, "bootargs", 8);
	/* The firmware's phase ends: a separator in PCRs 0 to 7 of every bank (PFP). */
	stage_trust.tr = vfit_tpm_separators(&tpm, &tlog, &stage_trust.banks, VFIT_TPM_SEPARATOR);
	if (stage_trust.tr) {
		stage_trust.what = "EV_SEPARATOR";
		stage_trust.rc = stage_trust.tr == VFIT_TPM_ERR_RC ? tpm.rc : 0;
		stage_tpm_halt(VFIT_WHY_MEASURE);
	}
	node = fdt_node_offset_by_compatible(dtb, -1, "tcg,tpm-tis-mmio");
	if (node < 0)
		return "DTB: no TPM node to announce the event log in";
	if (fdt_setprop_u64(dtb, node, "linux,sml-base", (uintptr_t)log_mem) ||
	    fdt_setprop_u32(dtb, node, "linux,sml-size", (uint32_t)tlog.len))
		return "DTB: cannot set linux,sml-base/size";
	why = reserve(dtb, (uintptr_t)log_mem, sizeof(log_mem));
	if (why)
		return why;
	port_clean_dcache((uintptr_t)log_mem, sizeof(log_mem));
	return NULL;
}

/* The log's replay of PCRs 0 to 9 in every bank: what the TPM holds, if the log is true. */
static void print_replay(void)
{
	const struct vfit_tpm_banks *b = &stage_trust.banks;
	uint8_t v[VFIT_TPM_MAX_DIGEST];
	uint32_t n, i, pcr;
	size_t j;

	for (i = 0; i < b->count; i++)
		for (pcr = 0; pcr < 10; pcr++) {
			if (vfit_tpm_log_replay(log_mem, tlog.len, pcr, b->alg[i], v, &n) || !n)
				continue;
			con_puts("vfit-stage: TPM: log replay PCR ");
			con_dec(pcr);
			con_puts(" ");
			con_puts(vfit_tpm_alg_to_string(b->alg[i]));
			con_puts(" ");
			for (j = 0; j < vfit_tpm_alg_digest_size(b->alg[i]); j++) {
				char hx[3] = { "0123456789abcdef"[v[j] >> 4],
					       "0123456789abcdef"[v[j] & 15], 0 };

				con_puts(hx);
			}
			con_nl();
		}
}

void stage_tpm_lock(void)
{
	print_replay();
	if (vfit_trust_lock(&stage_trust))
		stage_tpm_halt(VFIT_WHY_TPM_LOCK);
	con_puts("vfit-stage: TPM: event log ");
	con_dec(tlog.len);
	con_puts(" bytes at ");
	con_hex((uintptr_t)log_mem);
	con_puts(", platform hierarchy disabled, ");
	con_dec(tpm.commands);
	con_puts(" TPM commands");
	con_nl();
}
