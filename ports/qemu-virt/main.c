/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QEMU virt stage: bring-up, the trust state (the disk's records, or a
 * TPM's NV indices when the ROM requires one), the OS's pending request,
 * one power-on of the boot flow (include/vfit/boot.h: A/B slots with trial
 * attempts, recovery, rollback indexes), then Linux started with what the
 * flow's report names.  The flow's
 * events reach the console through its formatter (ops.c), worded as the
 * simulator words them; the stage's own lines start with "vfit-stage: ".
 */
#include <stdarg.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/boot.h"
#include "vfit/disk.h"
#include "linux.h"
#include "netboot.h"
#include "ops.h"
#include "plat.h"
#include "port.h"
#include "tpm.h"

#define DTB_ROOM 0x40000u
#define QEMU_DTB_MAX 0x200000u
#define STACK_PAINT 0xa5u

void stage_main(void);

/* What the flow is handed lives in the loader region (the stage's bss). */
static struct vfit_boot_scratch scratch;
static struct vfit_boot_event events[48];
static struct vfit_boot_timings times;
static struct vfit_boot_report report;
static struct vfit_boot_region region;
static struct vfit_boot_layout layout;
static struct plat_ram ram;
/* The disk's stores (stage_ops), or the TPM's NV trust state with measured boot. */
static const struct vfit_boot_ops *ops = &stage_ops;
static bool have_tpm;
/* The DTB Linux gets: QEMU's (or the FIT's), copied before anything is loaded over it. */
static uint8_t dtb[DTB_ROOM] __attribute__((aligned(4096)));

static const char *const chain_name[] = { "A", "B", "recovery" };

static void say(const char *a, const char *b)
{
	con_puts("vfit-stage: ");
	con_puts(a);
	con_puts(b ? b : "");
	con_nl();
}

/* "vfit-stage: refused: " and the strings up to NULL, one line; then power off. */
__attribute__((noreturn, sentinel)) static void refuse(const char *s, ...)
{
	va_list ap;

	con_puts("vfit-stage: refused: ");
	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *))
		con_puts(s);
	va_end(ap);
	con_nl();
	port_power_off();
}

static void time_line(const char *what, uint64_t ns)
{
	con_puts("vfit-stage: time ");
	con_puts(what);
	con_puts(" ");
	con_dec(ns);
	con_puts(" ns");
	con_nl();
}

/* The stack below this frame, painted so the deepest use can be read back before the jump. */
static void stack_paint(void)
{
	uint8_t *low = (uint8_t *)__stack_bottom;
	uint8_t *here = (uint8_t *)__builtin_frame_address(0) - 1024;

	memset(low, STACK_PAINT, (size_t)(here - low));
}

static uint64_t stack_used(void)
{
	const uint8_t *p = (const uint8_t *)__stack_bottom;

	while (p < (const uint8_t *)__stack_top && *p == STACK_PAINT)
		p++;
	return (uint64_t)((const uint8_t *)__stack_top - p);
}

/* The flow's view of the machine, as data: QEMU's RAM mapped 1:1, the stage, the staging area. */
static void set_layout(void)
{
	region.base = ram.base;
	region.size = ram.size;
	region.host = (uint8_t *)(uintptr_t)ram.base;
	layout.ram = &region;
	layout.nram = 1;
	layout.loader_addr = ram.loader_addr;
	layout.loader_size = ram.loader_size;
	layout.fit_addr = ram.fit_addr;
	layout.fit_size = ram.fit_size;
}

/*
 * A state or counter partition with no valid copy fails closed: one power
 * cut never tears both copies, so the disk was damaged or tampered with.
 * (The flow alone would start from its default state -- both slots good --
 * as the simulator does with a corrupt state file; counters it would fail
 * closed on too, but only after verifying every slot.)
 */
static void check_stores(void)
{
	static uint8_t state[VFIT_REC_PAYLOAD_MAX];
	uint64_t v;
	size_t len;

	/* With a TPM the disk holds only the OS's requests and a copy of the state. */
	if (have_tpm)
		return;
	if (plat_state_read(state, sizeof(state), &len) == PLAT_IO_ERROR)
		port_halt("vfit-state: no valid copy (corrupt or unreadable): failing closed");
	if (plat_counter_read("kernel", &v) == PLAT_IO_ERROR)
		port_halt("vfit-counters: no valid copy (corrupt or unreadable): failing closed");
}

/*
 * The OS's request, acted on before the boot: with a TPM from its request
 * index, which only a running OS writes (stage_tpm_serve(); an NV write
 * that fails halts); without, the confirmation record on the disk
 * (vfit/disk.h).  Either way vfit_boot_apply_request() honours it only at
 * the state it was made at and only for the chain that booted last,
 * verified again; the disk's record is then cleared.
 */
static void requests(void)
{
	struct vfit_boot_request rq = { 0, VFIT_BOOT_NONE, VFIT_BOOT_NONE };
	unsigned int slot;

	report.timings = NULL;
	if (have_tpm) {
		stage_tpm_serve(&layout, &scratch, &report);
		return;
	}
	if (plat_confirm_read(&slot, &rq.seq) != PLAT_IO_OK)
		return;
	rq.confirm = (uint8_t)slot;
	if (vfit_boot_apply_request(ops, &layout, &scratch, &report, &rq) == VFIT_BOOT_ERROR) {
		say("mark-good failed: ", vfit_boot_why_to_string(report.why));
		return;         /* the store failed: the next boot retries */
	}
	if (plat_confirm_clear())
		say("the confirmation could not be cleared", NULL);
}

/*
 * The flow halted after a chain verified -- its boot record could not be
 * written, or its measurement failed -- not for what it read: no other
 * source is tried (the PCRs may already hold part of that chain).
 */
static bool halted_after_verify(void)
{
	return report.why == VFIT_WHY_STATE_WRITE || report.why == VFIT_WHY_TRIAL_UNCOUNTED ||
	       report.why == VFIT_WHY_MEASURE;
}

/*
 * Nothing verified, not even recovery (the disk's, then the network's):
 * the stage powers off saying why.  With a TPM, a trust state that could
 * not be written, or a measurement, halts with the TPM's reason.
 */
__attribute__((noreturn)) static void no_boot(void)
{
	if (have_tpm && report.why == VFIT_WHY_STATE_WRITE)
		stage_tpm_halt(VFIT_WHY_NV_WRITE);
	if (have_tpm && report.why == VFIT_WHY_MEASURE)
		stage_tpm_halt(VFIT_WHY_MEASURE);
	if (report.why == VFIT_WHY_MEASURE)
		port_halt("a measurement failed");
	if (halted_after_verify())
		port_halt("the boot record could not be written");
	port_halt("nothing verified");
}

static void print_times(uint64_t flow)
{
	static const char *const phase[VFIT_BOOT_T_PHASES] = { "read", "verify", "load" };
	uint64_t sum[VFIT_BOOT_T_PHASES] = { 0 };
	unsigned int i, p;

	for (i = 0; i <= VFIT_BOOT_MAX_STAGES; i++) {
		if (!times.t[i][0] && !times.t[i][1] && !times.t[i][2])
			continue;
		con_puts("vfit-stage: time ");
		if (i < VFIT_BOOT_MAX_STAGES) {
			con_puts("stage ");
			con_dec(i + 1);
		} else {
			con_puts("recovery");
		}
		for (p = 0; p < VFIT_BOOT_T_PHASES; p++) {
			con_puts(p ? ", " : ": ");
			con_puts(phase[p]);
			con_puts(" ");
			con_dec(times.t[i][p]);
			sum[p] += times.t[i][p];
		}
		con_puts(" ns");
		con_nl();
	}
	for (p = 0; p < VFIT_BOOT_T_PHASES; p++)
		time_line(phase[p], sum[p]);
	time_line("flow", flow);
}

static bool overlap(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return a < b + bs && b < a + as;
}

/* Linux with what the report names: the protocol's checks, the DTB, the jump. */
__attribute__((noreturn)) static void start_linux(void)
{
	const struct vfit_boot_blob *k = &report.kernel, *rd = &report.ramdisk;
	const char *who = report.slot < 2 ? chain_name[report.slot] : chain_name[2];
	uint64_t mem, rd_addr = rd->present ? rd->addr : 0, rd_size = rd->present ? rd->size : 0;
	char args[64] = "console=ttyAMA0 vfit.slot=";
	const char *why;

	/* The flow checked that the entry lies in the kernel; Linux starts at its first byte. */
	if (report.entry != k->addr)
		refuse("kernel: entry differs from the load address (Linux starts at its first byte)",
		       NULL);
	why = linux_check((const void *)(uintptr_t)k->addr, (size_t)k->size, k->addr, &mem);
	if (why)
		refuse(why, NULL);
	/* The flow placed the file; the kernel's bss (arm64 image_size) follows it. */
	if (mem > ram.base + ram.size - k->addr ||
	    overlap(k->addr, mem, ram.loader_addr, ram.loader_size) ||
	    overlap(k->addr, mem, rd_addr, rd_size))
		refuse("kernel: its image_size (bss included) reaches the stage, the initrd or the end "
		       "of RAM", NULL);
	if (report.fdt.present) {
		why = linux_fdt_copy(dtb, sizeof(dtb), (void *)(uintptr_t)report.fdt.addr,
				     (size_t)report.fdt.size);
		if (why)
			refuse("the FIT's DTB: ", why, NULL);
	}
	memcpy(args + strlen(args), who, strlen(who) + 1);
	if (have_tpm) {
		why = stage_tpm_handover(dtb, report.fdt.present, args);
		if (why)
			refuse(why, NULL);
	}
	why = linux_fdt_chosen(dtb, args, rd_addr, rd_size);
	if (why)
		refuse("DTB: ", why, NULL);
	con_puts("vfit-stage: Linux: dtb ");
	con_hex((uintptr_t)dtb);
	con_puts(" (");
	con_puts(report.fdt.present ? "the FIT's" : "QEMU's");
	con_puts("), bootargs \"");
	con_puts(args);
	con_puts("\", stack used ");
	con_dec(stack_used());
	con_puts(" bytes");
	con_nl();
	plat_quiesce();
	linux_clean(k->addr, mem, (uintptr_t)dtb, fdt_totalsize(dtb), rd_addr, rd_size);
	if (have_tpm)
		stage_tpm_lock();
	time_line("reset-to-kernel-entry", plat_now_ns());
	port_enter_linux((uintptr_t)dtb, (uintptr_t)k->addr);
}

/* One command of the flow -- the disk's boot, or recovery fetched over the network -- timed. */
static enum vfit_boot_outcome flow(bool net)
{
	uint64_t t0 = plat_now_ns();
	enum vfit_boot_outcome o = net ?
		vfit_boot_recover(netboot_ops(ops), &layout, &scratch, &report) :
		vfit_boot(ops, &layout, &scratch, &report);

	print_times(plat_now_ns() - t0);
	return o;
}

/*
 * The boot flow: the slots, then the disk's recovery image; network
 * recovery (netboot.c) when that verified nothing -- the same flow and
 * keys, the FIT fetched into staging.  Asked for (the console, the ROM's
 * "first"), network recovery comes first and the disk after it, so a
 * network that fails leaves a good disk bootable.  A chain that verified
 * but could not be recorded or measured is no reason to try anything else.
 */
static enum vfit_boot_outcome boot(void)
{
	enum netboot net = netboot_when();
	enum vfit_boot_outcome o;

	report.timings = &times;
	if (net == NETBOOT_NOW) {
		o = flow(true);
		if (o != VFIT_BOOT_HALT || halted_after_verify())
			return o;
		say("nothing from the network verified: the disk", NULL);
	}
	o = flow(false);
	if (o == VFIT_BOOT_HALT && net == NETBOOT_FALLBACK && !halted_after_verify()) {
		say("nothing on the disk verified: network recovery", NULL);
		o = flow(true);
	}
	return o;
}

void stage_main(void)
{
	enum vfit_boot_outcome o;
	const char *why;

	why = plat_init(&ram);
	if (why)
		port_halt(why);
	/* With the MMU on: before it, RAM is Device memory, where unaligned stores fault. */
	stack_paint();
	say("vfit QEMU virt stage, " VFIT_STAGE_ARCH, NULL);
	set_layout();
	/* QEMU's DTB lies where a zImage goes: copied before the flow loads anything. */
	why = linux_fdt_copy(dtb, sizeof(dtb), (void *)(uintptr_t)ram.dtb_addr, QEMU_DTB_MAX);
	if (why)
		port_halt(why);
	have_tpm = stage_tpm_required();
	if (have_tpm) {
		stage_tpm_open(dtb);
		ops = &stage_tpm_ops;
	}
	check_stores();
	vfit_boot_report_init(&report, events, sizeof(events) / sizeof(events[0]));
	requests();
	o = boot();
	if (have_tpm)
		stage_tpm_mirror();
	if (o == VFIT_BOOT_KERNEL || o == VFIT_BOOT_RECOVERY)
		start_linux();
	if (o == VFIT_BOOT_HALT)
		no_boot();
	say("halted: platform failure: ", vfit_boot_why_to_string(report.why));
	port_power_off();
}
