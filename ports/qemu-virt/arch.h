/* SPDX-License-Identifier: BSD-3-Clause */
/* The few CPU operations the port needs, for AArch64 and ARMv7-A. */
#ifndef PORT_ARCH_H
#define PORT_ARCH_H

#include <stdint.h>

static inline void dsb(void)
{
	__asm__ volatile("dsb sy" ::: "memory");
}

static inline void isb(void)
{
	__asm__ volatile("isb" ::: "memory");
}

static inline void wfi(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

#ifdef __aarch64__

static inline uint64_t cnt_ticks(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}

static inline uint32_t cnt_freq(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return (uint32_t)v;
}

/* Smallest D-cache line in bytes (CTR_EL0.DminLine, log2 of words). */
static inline uint32_t dcache_line(void)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return 4u << ((ctr >> 16) & 0xf);
}

static inline void dcache_clean_inval_line(uintptr_t a)
{
	__asm__ volatile("dc civac, %0" ::"r"(a) : "memory");
}

#else

static inline uint64_t cnt_ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("isb; mrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint32_t cnt_freq(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(v));
	return v;
}

static inline uint32_t dcache_line(void)
{
	uint32_t ctr;

	__asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	return 4u << ((ctr >> 16) & 0xf);
}

static inline void dcache_clean_inval_line(uintptr_t a)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c14, 1" ::"r"(a) : "memory"); /* DCCIMVAC */
}

#endif

#endif
