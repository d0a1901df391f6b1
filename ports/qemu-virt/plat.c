/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Platform bring-up and RAM layout.  QEMU places its DTB at the start of
 * RAM when started with -bios; it describes the RAM.  The stage's own RAM
 * and the FIT staging area are fixed by the link (stage.ld):
 *
 *   0x40000000  QEMU's DTB (copied and patched before anything is loaded)
 *   0x4f000000  loader region: stage data, bss (page tables, virtio ring,
 *               the patched DTB), stack -- 16 MiB
 *   0x50000000  FIT staging area, up to the end of RAM (at most 1 GiB)
 *
 * Kernel and images go anywhere else in RAM, as their FIT says.
 */
#include <libfdt.h>

#include "arch.h"
#include "plat.h"
#include "port.h"
#include "storage.h"

#define STAGING_ADDR 0x50000000u
#define STAGING_MAX 0x40000000u
#define STAGING_MIN 0x01000000u
#define DTB_MAX 0x00200000u

/* RAM from the DTB's memory node (root #address-cells/#size-cells of 1 or 2). */
static const char *ram_from_dtb(const void *fdt, struct plat_ram *r)
{
	int ac = fdt_address_cells(fdt, 0), sc = fdt_size_cells(fdt, 0), len, i;
	int node = fdt_node_offset_by_prop_value(fdt, -1, "device_type", "memory", 7);
	const fdt32_t *reg;
	uint64_t v[4] = { 0 };

	if (node < 0 || ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return "QEMU's DTB has no usable memory node";
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (!reg || len < (ac + sc) * 4)
		return "QEMU's DTB: memory node without reg";
	for (i = 0; i < ac + sc; i++)
		v[i] = fdt32_to_cpu(reg[i]);
	r->base = ac == 2 ? v[0] << 32 | v[1] : v[0];
	r->size = sc == 2 ? v[ac] << 32 | v[ac + 1] : v[ac];
	return NULL;
}

const char *plat_init(struct plat_ram *r)
{
	const void *fdt = (const void *)(uintptr_t)0x40000000u;
	uint64_t end;
	const char *why;

	port_mmu_on();
	/* Every wait of the stage is bounded by the generic timer: it must count. */
	if (!cnt_freq())
		return "the generic timer reports no frequency (CNTFRQ 0): no wait could be bounded";
	r->dtb_addr = (uintptr_t)fdt;
	if (fdt_check_header(fdt) || fdt_totalsize(fdt) > DTB_MAX)
		return "no valid DTB from QEMU at the start of RAM";
	why = ram_from_dtb(fdt, r);
	if (why)
		return why;
	r->loader_addr = (uintptr_t)__ram_start;
	r->loader_size = (uintptr_t)__ram_end - (uintptr_t)__ram_start;
	/* The stage maps (mmu.c), and a 32-bit CPU addresses, only the first 4 GiB. */
	if (r->base + r->size > 0x100000000ull)
		r->size = r->base < 0x100000000ull ? 0x100000000ull - r->base : 0;
	end = r->base + r->size;
	if (r->base > r->loader_addr || end < STAGING_ADDR + STAGING_MIN || end < r->base)
		return "RAM too small for the stage's layout (QEMU -m 1024 or more)";
	r->fit_addr = STAGING_ADDR;
	r->fit_size = end - STAGING_ADDR > STAGING_MAX ? STAGING_MAX : end - STAGING_ADDR;
	return storage_init();
}

void plat_quiesce(void)
{
	storage_stop();
}

void plat_print(const char *line)
{
	con_puts(line);
	con_nl();
}

uint64_t plat_now_ns(void)
{
	return clock_ns();
}
