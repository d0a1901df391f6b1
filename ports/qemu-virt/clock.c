/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generic timer's virtual counter as nanoseconds since reset.  Under
 * `-icount shift=0` QEMU advances it by one ns per guest instruction, so
 * the stage's timings read as instruction counts.  Its virtual timer wakes
 * the CPU from WFI at a deadline (a bounded wait that sleeps).
 */
#include "arch.h"
#include "port.h"

uint64_t clock_ns(void)
{
	uint64_t t = cnt_ticks();
	uint32_t f = cnt_freq();

	if (!f)
		return 0;
	/* Whole seconds and the remainder apart: no overflow for centuries of uptime. */
	return t / f * 1000000000u + t % f * 1000000000u / f;
}

/* The virtual timer's interrupt: PPI 11, GIC interrupt 27. */
#define TIMER_INTID 27u

void clock_wake_at(uint64_t ns)
{
	static int routed;
	uint64_t f = cnt_freq();

	if (!routed) {
		gic_wake_on(TIMER_INTID);
		routed = 1;
	}
	/* Rounded up: an early wake would find the deadline not reached and sleep again. */
	cnt_wake_at(ns / 1000000000u * f + (ns % 1000000000u * f + 999999999u) / 1000000000u);
}

void clock_wake_off(void)
{
	cnt_wake_off();
}
