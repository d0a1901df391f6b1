/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generic timer's virtual counter as nanoseconds since reset.  Under
 * `-icount shift=0` QEMU advances it by one ns per guest instruction, so
 * the stage's timings read as instruction counts.
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
