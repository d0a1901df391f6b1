/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reset entry for QEMU virt (-bios): the CPU starts at 0 in EL1, MMU and
 * caches off, with QEMU's DTB at the start of RAM.  Sets up the stack,
 * .data and .bss, FP/SIMD (the SHA-256 code uses the crypto extension),
 * the exception vectors, and calls stage_main().
 */
	.section .reset, "ax"
	.global _start
_start:
	msr	daifset, #0xf
	ldr	x0, =vectors
	msr	vbar_el1, x0
	mov	x0, #(3 << 20)		/* CPACR_EL1.FPEN: no FP/SIMD traps */
	msr	cpacr_el1, x0
	isb
	ldr	x0, =__stack_top
	mov	sp, x0
	ldr	x0, =__data_start
	ldr	x1, =__data_end
	ldr	x2, =__data_load
1:	cmp	x0, x1
	b.hs	2f
	ldr	x3, [x2], #8
	str	x3, [x0], #8
	b	1b
2:	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
3:	cmp	x0, x1
	b.hs	4f
	str	xzr, [x0], #8
	b	3b
4:	bl	stage_main
	b	port_power_off

/* PSCI SYSTEM_OFF through the conduit QEMU virt gives firmware without EL3: HVC. */
	.text
	.global port_power_off
port_power_off:
	ldr	w0, =0x84000008
	hvc	#0
5:	wfi
	b	5b

/*
 * port_enter_linux(dtb, entry): the arm64 boot protocol (Documentation/
 * arch/arm64/booting.rst): MMU and D-cache off (the caller cleaned the
 * loaded ranges to the point of coherency), I-cache invalidated,
 * x0 = dtb, x1..x3 = 0, interrupts masked.  Runs from flash, which the
 * identity map keeps in place when the MMU goes off.
 */
	.global port_enter_linux
port_enter_linux:
	mov	x19, x0
	mov	x20, x1
	mrs	x2, sctlr_el1
	bic	x2, x2, #1		/* M */
	bic	x2, x2, #(1 << 2)	/* C */
	msr	sctlr_el1, x2
	isb
	ic	iallu
	dsb	sy
	isb
	mov	x0, x19
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	br	x20

/* Every exception is fatal: report it and power off. */
.macro vec n
	.balign	0x80
	mov	x0, #\n
	mrs	x1, esr_el1
	mrs	x2, elr_el1
	mrs	x3, far_el1
	b	port_exception
.endm
	.balign	0x800
vectors:
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vec	\n
	.endr
