/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Identity map with caches on.  With the MMU off every data access is
 * Device memory: slow on real hardware and, on AArch64, any unaligned
 * access faults -- and compiled C (libfdt, memcpy, the hashes) makes
 * unaligned accesses freely.  So the stage maps:
 *   0 .. 128 MiB            flash: normal cacheable, read-only (a stray
 *                           write would put QEMU's pflash into command mode)
 *   128 MiB .. 1 GiB        devices (UART, virtio-mmio, GIC): Device, no execute
 *   1 GiB .. 4 GiB          RAM: normal write-back cacheable
 * The Linux boot protocol wants the MMU off again: see port_enter_linux
 * and port_clean_dcache.
 */
#include <stdint.h>

#include "arch.h"
#include "port.h"

#define FLASH_END 0x08000000u
#define RAM_START 0x40000000u

#ifdef __aarch64__

/*
 * 4 KiB granule, 32-bit VA (T0SZ = 32): the walk starts at level 1 with
 * four 1 GiB entries; the first points to a level-2 table of 2 MiB blocks.
 */
#define D_TABLE 3u
#define D_BLOCK 1u
#define ATTR_DEVICE (0u << 2)
#define ATTR_NORMAL (1u << 2)
#define AP_RO (2u << 6)
#define SH_INNER (3u << 8)
#define AF (1u << 10)
#define XN (3ull << 53)

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2[512] __attribute__((aligned(4096)));

void port_mmu_on(void)
{
	uint64_t i, sctlr;

	for (i = 0; i < 512; i++) {
		uint64_t a = i << 21;

		l2[i] = a < FLASH_END ? a | D_BLOCK | ATTR_NORMAL | SH_INNER | AF | AP_RO
				      : a | D_BLOCK | ATTR_DEVICE | AF | XN;
	}
	l1[0] = (uint64_t)(uintptr_t)l2 | D_TABLE;
	for (i = 1; i < 4; i++)
		l1[i] = i << 30 | D_BLOCK | ATTR_NORMAL | SH_INNER | AF;
	dsb();
	/* MAIR: attr0 Device-nGnRnE, attr1 Normal write-back read/write-allocate. */
	__asm__ volatile("msr mair_el1, %0" ::"r"(0xff00ull));
	/* TCR: T0SZ 32, inner/outer WB WA walks, inner shareable, 4K, no TTBR1 walks, 32-bit PA. */
	__asm__ volatile("msr tcr_el1, %0" ::"r"(32ull | 1ull << 8 | 1ull << 10 | 3ull << 12 |
						   1ull << 23));
	__asm__ volatile("msr ttbr0_el1, %0" ::"r"((uint64_t)(uintptr_t)l1));
	__asm__ volatile("tlbi vmalle1; dsb sy; isb" ::: "memory");
	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
	sctlr |= 1u | 1u << 2 | 1u << 12;   /* M, C, I */
	sctlr &= ~(uint64_t)(1u << 1 | 1u << 19);  /* no alignment checks, no WXN */
	__asm__ volatile("msr sctlr_el1, %0; isb" ::"r"(sctlr) : "memory");
}

#else

/* Short descriptors: 4096 sections of 1 MiB, domain 0 as client. */
#define SECTION 2u
#define B (1u << 2)
#define C (1u << 3)
#define XN (1u << 4)
#define AP_RW (1u << 10)
#define AP_RO (1u << 15 | 1u << 10)
#define TEX1 (1u << 12)
#define S (1u << 16)

static uint32_t l1[4096] __attribute__((aligned(16384)));

void port_mmu_on(void)
{
	uint32_t i, sctlr;

	for (i = 0; i < 4096; i++) {
		uint32_t a = i << 20;

		if (a < FLASH_END)
			l1[i] = a | SECTION | TEX1 | C | B | AP_RO;
		else if (a < RAM_START)
			l1[i] = a | SECTION | B | XN | AP_RW;
		else
			l1[i] = a | SECTION | TEX1 | C | B | S | AP_RW;
	}
	dsb();
	__asm__ volatile("mcr p15, 0, %0, c2, c0, 2" ::"r"(0));          /* TTBCR */
	__asm__ volatile("mcr p15, 0, %0, c2, c0, 0" ::"r"((uint32_t)(uintptr_t)l1)); /* TTBR0 */
	__asm__ volatile("mcr p15, 0, %0, c3, c0, 0" ::"r"(1));          /* DACR: domain 0 client */
	__asm__ volatile("mcr p15, 0, %0, c8, c7, 0" ::"r"(0));          /* TLBIALL */
	dsb();
	isb();
	__asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
	sctlr |= 1u | 1u << 2 | 1u << 11 | 1u << 12;   /* M, C, Z, I */
	sctlr &= ~(1u << 1 | 1u << 28 | 1u << 29);     /* A, TRE, AFE */
	__asm__ volatile("mcr p15, 0, %0, c1, c0, 0" ::"r"(sctlr) : "memory");
	isb();
}

#endif

void port_clean_dcache(uint64_t addr, uint64_t size)
{
	uintptr_t line = dcache_line(), a, end = (uintptr_t)(addr + size);

	for (a = (uintptr_t)addr & ~(line - 1); a < end; a += line)
		dcache_clean_inval_line(a);
	dsb();
}
