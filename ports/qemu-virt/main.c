/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Phase-1 glue of the QEMU virt stage: read ONE FIT from slot A into the
 * staging area, verify it there against the ROM keys built into the
 * stage, place its images, boot Linux.  Everything else is the platform
 * layer (plat.h) and the Linux protocol (linux.h); phase 2 replaces this
 * file with the boot flow (A/B, recovery, rollback) over the same layer.
 */
#include <stdarg.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/decomp.h"
#include "vfit/disk.h"
#include "vfit/fit.h"
#include "linux.h"
#include "plat.h"
#include "port.h"

#define BOOTARGS "console=ttyAMA0"
#define MAX_RANGES 8
#define DTB_ROOM 0x40000u
#define DTB_MAX 0x200000u

extern const uint8_t rom_keys[], rom_keys_end[];
void stage_main(void);

static struct vfit_verify_result res;
static uint8_t dtb[DTB_ROOM] __attribute__((aligned(4096)));

/* RAM in use during this boot, so no image lands on the stage, the FIT or another image. */
static struct range {
	uint64_t addr, size;
	const char *what;
} used[MAX_RANGES];
static unsigned int nused;
static struct plat_ram ram;

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

static void reserve(const char *what, uint64_t addr, uint64_t size)
{
	unsigned int i;

	if (addr < ram.base || size > ram.size || addr - ram.base > ram.size - size)
		refuse(what, ": load range outside RAM", NULL);
	for (i = 0; i < nused; i++)
		if (addr < used[i].addr + used[i].size && used[i].addr < addr + size)
			refuse(what, " overlaps the ", used[i].what, NULL);
	if (nused == MAX_RANGES)
		refuse(what, ": too many images", NULL);
	used[nused++] = (struct range){ addr, size, what };
}

/* Free bytes from addr to the next range in use or the end of RAM. */
static uint64_t room_at(uint64_t addr)
{
	uint64_t end = ram.base + ram.size;
	unsigned int i;

	for (i = 0; i < nused; i++)
		if (used[i].addr > addr && used[i].addr < end)
			end = used[i].addr;
	return addr < ram.base || addr >= end ? 0 : end - addr;
}

static const struct vfit_image *image(const char *prop)
{
	unsigned int i;

	for (i = 0; i < res.nimages; i++)
		if (!strcmp(res.image[i].prop, prop) && res.image[i].index == 0)
			return &res.image[i];
	return NULL;
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

/* Places the verified kernel; returns the RAM it claims (Image bss included). */
static uint64_t load_kernel(const struct vfit_image *k)
{
	enum vfit_comp kind;
	uint8_t *dst = (uint8_t *)(uintptr_t)k->load;
	uint64_t mem, room;
	size_t out;
	const char *why;

	if (!k->has_load)
		refuse("kernel: no load address", NULL);
	kind = vfit_comp_kind(k->compression);
	if (kind == VFIT_COMP_UNKNOWN)
		refuse("kernel: unsupported compression '", k->compression, "'", NULL);
	if (kind == VFIT_COMP_NONE) {
		why = linux_check(k->data, k->size, k->load, &mem);
		if (why)
			refuse(why, NULL);
		reserve("kernel", k->load, mem);
		memcpy(dst, k->data, k->size);
		return mem;
	}
	/* Compressed: exactly the free room at the load address is offered, never more. */
	room = room_at(k->load);
	if (vfit_decompress(kind, k->data, k->size, dst, (size_t)room, &out))
		refuse("kernel: ", k->compression,
		       " data is corrupt or does not fit the free RAM at its load address", NULL);
	why = linux_check(dst, out, k->load, &mem);
	if (why)
		refuse(why, NULL);
	reserve("kernel", k->load, mem);
	return mem;
}

/*
 * Phase 1 keeps no state and enforces no rollback index yet, but a disk
 * whose state or counter store is corrupt is refused already: it fails
 * closed, as the boot flow of phase 2 will.
 */
static void check_stores(void)
{
	static uint8_t state[VFIT_REC_PAYLOAD_MAX];
	uint64_t kernel = 0;
	size_t len;

	if (plat_state_read(state, sizeof(state), &len) == PLAT_IO_ERROR)
		port_halt("vfit-state: no valid copy (corrupt or unreadable): failing closed");
	if (plat_counter_read("kernel", &kernel) == PLAT_IO_ERROR)
		port_halt("vfit-counters: no valid copy (corrupt or unreadable): failing closed");
	con_puts("vfit-stage: rollback counter kernel = ");
	con_dec(kernel);
	con_nl();
}

void stage_main(void)
{
	const struct vfit_image *k, *rd, *fdt;
	uint64_t t0 = plat_now_ns(), t1, t2, t3, kmem, rd_addr = 0, rd_size = 0;
	size_t len;
	const char *why;
	enum vfit_result r;

	why = plat_init(&ram);
	if (why)
		port_halt(why);
	say("vfit QEMU virt stage, " VFIT_STAGE_ARCH ", verifying slot A", NULL);
	check_stores();
	reserve("stage", ram.loader_addr, ram.loader_size);
	reserve("FIT staging area", ram.fit_addr, ram.fit_size);

	t1 = plat_now_ns();
	switch (plat_chain_read(PLAT_SLOT_A, 0, (void *)(uintptr_t)ram.fit_addr,
				(size_t)ram.fit_size, &len)) {
	case PLAT_IO_OK:
		break;
	case PLAT_IO_ABSENT:
		port_halt("slot A holds no FIT");
	case PLAT_IO_BIG:
		port_halt("slot A's FIT is larger than the staging area");
	default:
		port_halt("slot A: disk error or corrupt chain header");
	}
	t2 = plat_now_ns();
	r = vfit_verify((const void *)(uintptr_t)ram.fit_addr, len, rom_keys,
			(size_t)(rom_keys_end - rom_keys), NULL, 0, &res);
	t3 = plat_now_ns();
	if (r != VFIT_OK)
		refuse("slot A FIT: ", res.err_path, res.err_prop ? ": " : "",
		       res.err_prop ? res.err_prop : "", ": ", vfit_result_to_string(r), NULL);
	if (!res.conf_verified)
		refuse("slot A FIT: no required key signed the configuration", NULL);
	say("verified configuration ", res.conf);

	k = image("kernel");
	if (!k)
		refuse("slot A FIT: the configuration has no kernel", NULL);
	/* The jump must land in the kernel it placed, wherever the FIT says it starts. */
	if (k->has_entry && k->entry != k->load)
		refuse("kernel: entry differs from the load address (Linux starts at its first byte)",
		       NULL);
	rd = image("ramdisk");
	if (rd) {
		rd_size = rd->size;
		rd_addr = rd->has_load ? rd->load : ram.fit_addr + rd->offset;
	}
	/* The DTB first: QEMU's lies where a zImage goes. */
	fdt = image("fdt");
	if (fdt)
		why = linux_fdt(dtb, sizeof(dtb), (void *)(uintptr_t)fdt->data, fdt->size, BOOTARGS,
				rd_addr, rd_size);
	else
		why = linux_fdt(dtb, sizeof(dtb), (void *)(uintptr_t)ram.dtb_addr, DTB_MAX,
				BOOTARGS, rd_addr, rd_size);
	if (why)
		refuse("DTB: ", why, NULL);
	kmem = load_kernel(k);
	if (rd && rd->has_load) {
		reserve("ramdisk", rd->load, rd->size);
		memcpy((void *)(uintptr_t)rd->load, rd->data, rd->size);
	}

	time_line("read", t2 - t1);
	time_line("verify", t3 - t2);
	time_line("load", plat_now_ns() - t3);
	time_line("stage", plat_now_ns() - t0);
	con_puts("vfit-stage: starting kernel at ");
	con_hex(k->load);
	con_puts(", dtb ");
	con_hex((uintptr_t)dtb);
	con_puts(rd ? ", initrd " : "");
	if (rd)
		con_hex(rd_addr);
	con_nl();
	linux_clean(k->load, kmem, (uintptr_t)dtb, fdt_totalsize(dtb), rd_addr, rd_size);
	time_line("reset-to-kernel-entry", plat_now_ns());
	port_enter_linux((uintptr_t)dtb, (uintptr_t)k->load);
}
