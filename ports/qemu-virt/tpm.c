/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stage's TPM (docs/trust-state.md): found in QEMU's DTB, opened
 * through TIS MMIO, its NV trust state checked; the OS's requests on the
 * disk validated against it; at handover the device tree and command line
 * measured, the event log announced to Linux, platform authorization given
 * up.  Every failure halts with its reason: the stage never boots with
 * rollback unchecked.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/boot_tpm.h"
#include "vfit/disk.h"
#include "ops.h"
#include "plat.h"
#include "port.h"
#include "tis.h"
#include "tpm.h"

/* TCG PC Client PFP event types of what the port measures itself. */
#define EV_TABLE_OF_DEVICES 0x0000000Bu
#define EV_PLATFORM_CONFIG_FLAGS 0x0000000Au

static struct tis tis;
static struct vfit_tpm tpm;
static struct vfit_tpm_log tlog;
/* The event log: in the stage's RAM, reserved (not no-map) for Linux, which copies it. */
#define LOG_SIZE 0x10000u
static uint8_t log_mem[LOG_SIZE] __attribute__((aligned(4096)));

static const char *const slot_name[] = { "A", "B" };

__attribute__((noreturn)) static void tpm_halt(enum vfit_boot_why why)
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

bool stage_tpm_open(const void *qemu_dtb)
{
	struct vfit_tpm_transport tr;
	enum vfit_tpm_result r;
	enum vfit_boot_why w;

	switch (tis_find(qemu_dtb, &tis)) {
	case TIS_NONE:
		con_puts("vfit-stage: no TPM: state and rollback counters on the disk are "
			 "tamper-evident, not tamper-proof");
		con_nl();
		return false;
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
		tpm_halt(vfit_trust_why(r));
	}
	tis_transport(&tis, &tr);
	vfit_tpm_init(&tpm, &tr);
	w = vfit_trust_open(&stage_trust, &tpm, &tlog, log_mem, sizeof(log_mem));
	if (w)
		tpm_halt(w);
	con_puts("vfit-stage: TPM: trust state in NV index ");
	con_hex(stage_trust.index);
	con_puts(stage_trust.written ? "" : " (factory-fresh)");
	con_nl();
	return true;
}

/*
 * An update the OS installed (`vfit disk update`): the disk's state asks
 * for slot X to be tried with VFIT_BOOT_TRIES attempts while the other
 * slot stays good.  Offering a trial is all the disk can ask for: the
 * chain is verified at every boot and no counter moves until the device
 * boots it and its OS confirms it.  Anything else the disk's state says is
 * ignored: the TPM's state is the device's.
 */
void stage_tpm_offer(void)
{
	uint8_t buf[VFIT_REC_PAYLOAD_MAX], cur[VFIT_BOOT_STATE_SIZE];
	struct vfit_boot_state d, n;
	unsigned int x;
	size_t len = 0;

	if (plat_state_read(buf, sizeof(buf), &len) != PLAT_IO_OK ||
	    vfit_boot_state_decode(buf, len, &d))
		return;
	/* A TPM state not written yet, or unreadable, counts as the default one. */
	if (vfit_trust_state_read(&stage_trust, cur, sizeof(cur), &len) != VFIT_IO_OK ||
	    vfit_boot_state_decode(cur, len, &n) != VFIT_STATE_OK)
		vfit_boot_state_default(&n);
	x = d.active;
	if (d.status[x] != VFIT_SLOT_TRYING || d.tries[x] != VFIT_BOOT_TRIES ||
	    n.status[1 - x] != VFIT_SLOT_GOOD || (n.status[x] == VFIT_SLOT_TRYING && n.active == x))
		return;
	n.status[x] = VFIT_SLOT_TRYING;
	n.tries[x] = VFIT_BOOT_TRIES;
	n.active = (uint8_t)x;
	n.seq++;
	vfit_boot_state_encode(&n, cur);
	if (vfit_trust_state_write(&stage_trust, cur, sizeof(cur)))
		tpm_halt(VFIT_WHY_NV_WRITE);
	con_puts("vfit-stage: the OS installed slot ");
	con_puts(slot_name[x]);
	con_puts(": offered for a trial");
	con_nl();
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

static void measure(unsigned int pcr, uint32_t type, const void *data, size_t len,
		    const char *event)
{
	uint8_t d[VFIT_BOOT_DIGEST];

	vfit_hash(VFIT_HASH_SHA256, data, len, d);
	if (vfit_trust_measure(&stage_trust, pcr, type, d, event, strlen(event)))
		tpm_halt(VFIT_WHY_MEASURE);
}

const char *stage_tpm_handover(void *dtb, bool fit_fdt, const char *bootargs)
{
	const char *why;
	int node;

	/* PCR 1, as U-Boot's bootm: the device tree before fixups, then the command line. */
	if (!fit_fdt)
		measure(1, EV_TABLE_OF_DEVICES, dtb, fdt_totalsize(dtb), "fdt QEMU's DTB");
	measure(1, EV_PLATFORM_CONFIG_FLAGS, bootargs, strlen(bootargs) + 1, "bootargs");
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

/* The log's replay for the PCRs the stage extends: what the TPM holds, if the log is true. */
static void print_replay(void)
{
	static const uint8_t pcrs[] = { 1, 4, 7, 8, 9 };
	uint8_t v[VFIT_TPM_MAX_DIGEST];
	uint32_t n;
	unsigned int i, j;

	for (i = 0; i < sizeof(pcrs); i++) {
		if (vfit_tpm_log_replay(log_mem, tlog.len, pcrs[i], VFIT_TPM_ALG_SHA256, v, &n) ||
		    !n)
			continue;
		con_puts("vfit-stage: TPM: log replay PCR ");
		con_dec(pcrs[i]);
		con_puts(" sha256 ");
		for (j = 0; j < VFIT_BOOT_DIGEST; j++) {
			char hx[3] = { "0123456789abcdef"[v[j] >> 4], "0123456789abcdef"[v[j] & 15], 0 };

			con_puts(hx);
		}
		con_nl();
	}
}

void stage_tpm_lock(void)
{
	print_replay();
	if (vfit_trust_lock(&stage_trust))
		tpm_halt(VFIT_WHY_TPM_LOCK);
	con_puts("vfit-stage: TPM: event log ");
	con_dec(tlog.len);
	con_puts(" bytes at ");
	con_hex((uintptr_t)log_mem);
	con_puts(", platform hierarchy disabled, ");
	con_dec(tpm.commands);
	con_puts(" TPM commands");
	con_nl();
}
