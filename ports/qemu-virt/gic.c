/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Just enough of QEMU virt's GICv2 for the CPU to sleep in WFI while a
 * device works: the interrupt is enabled and routed to CPU 0, but the
 * CPU keeps IRQs masked, so no handler ever runs -- a pending interrupt
 * only ends the WFI.  (Under -icount sleep=off a sleeping CPU executes no
 * instructions, so the wait costs what it would on a real board: nothing.)
 */
#include <stdint.h>

#include "port.h"

#define GICD 0x08000000u
#define GICC 0x08010000u

static volatile uint32_t *r32(uint32_t a)
{
	return (volatile uint32_t *)(uintptr_t)a;
}

static volatile uint8_t *r8(uint32_t a)
{
	return (volatile uint8_t *)(uintptr_t)a;
}

void gic_wake_on(unsigned int intid)
{
	*r8(GICD + 0x400 + intid) = 0xa0;                  /* GICD_IPRIORITYR */
	*r8(GICD + 0x800 + intid) = 1;                     /* GICD_ITARGETSR: CPU 0 */
	*r32(GICD + 0x100 + 4 * (intid / 32)) = 1u << (intid % 32);  /* GICD_ISENABLER */
	*r32(GICD) = 1;                                    /* GICD_CTLR */
	*r32(GICC + 0x4) = 0xff;                           /* GICC_PMR: every priority */
	*r32(GICC) = 1;                                    /* GICC_CTLR */
}
