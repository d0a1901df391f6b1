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

/* The virtual timer: its interrupt (while enabled, unmasked) pends once the counter reaches cval. */
static inline void cnt_wake_at(uint64_t cval)
{
	__asm__ volatile("msr cntv_cval_el0, %0; msr cntv_ctl_el0, %1; isb" ::"r"(cval), "r"(1ull)
			 : "memory");
}

static inline void cnt_wake_off(void)
{
	__asm__ volatile("msr cntv_ctl_el0, %0; isb" ::"r"(0ull) : "memory");
}

static inline uint32_t inst_read(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, pmevcntr0_el0" : "=r"(v)::"memory");
	return (uint32_t)v;
}

/*
 * Instructions retired: PMU event 0x08 on event counter 0, which QEMU
 * counts only under -icount (bench/qemu.sh); returns the count now, 0
 * when the event is not counted (inst_read() then stays 0).
 */
static inline uint32_t inst_start(void)
{
	uint64_t ceid, pmcr;

	__asm__ volatile("mrs %0, pmceid0_el0" : "=r"(ceid));
	if (!(ceid & 1u << 8))
		return 0;
	__asm__ volatile("msr pmevtyper0_el0, %1; msr pmcntenset_el0, %2; mrs %0, pmcr_el0"
			 : "=r"(pmcr) : "r"(8ull), "r"(1ull) : "memory");
	__asm__ volatile("msr pmcr_el0, %0; isb" ::"r"(pmcr | 1) : "memory");
	return inst_read();
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

/* Instructions retired are counted on arm64 only (bench/qemu.sh measures arm64). */
static inline uint32_t inst_start(void)
{
	return 0;
}

static inline uint32_t inst_read(void)
{
	return 0;
}

static inline void cnt_wake_at(uint64_t cval)
{
	__asm__ volatile("mcrr p15, 3, %0, %1, c14; mcr p15, 0, %2, c14, c3, 1; isb"
			 ::"r"((uint32_t)cval), "r"((uint32_t)(cval >> 32)), "r"(1u) : "memory");
}

static inline void cnt_wake_off(void)
{
	__asm__ volatile("mcr p15, 0, %0, c14, c3, 1; isb" ::"r"(0u) : "memory");
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
