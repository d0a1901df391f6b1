/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reset entry for QEMU virt (-bios) on ARMv7: the CPU starts at 0 in SVC
 * mode, ARM state, MMU and caches off, with QEMU's DTB at the start of
 * RAM.  Sets up the stack, .data and .bss, VFP/NEON, the exception
 * vectors, and calls stage_main().
 */
	.syntax	unified
	.arm
	.section .reset, "ax"
	.global _start
_start:
	cpsid	aif
	ldr	r0, =vectors
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	mrc	p15, 0, r0, c1, c0, 0
	bic	r0, r0, #(1 << 13)	/* SCTLR.V: vectors at VBAR */
	mcr	p15, 0, r0, c1, c0, 0
	mrc	p15, 0, r0, c1, c0, 2
	orr	r0, r0, #(0xf << 20)	/* CPACR: cp10, cp11 full access */
	mcr	p15, 0, r0, c1, c0, 2
	isb
	mov	r0, #(1 << 30)		/* FPEXC.EN */
	vmsr	fpexc, r0
	ldr	sp, =__stack_top
	ldr	r0, =__data_start
	ldr	r1, =__data_end
	ldr	r2, =__data_load
1:	cmp	r0, r1
	bhs	2f
	ldr	r3, [r2], #4
	str	r3, [r0], #4
	b	1b
2:	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	mov	r2, #0
3:	cmp	r0, r1
	bhs	4f
	str	r2, [r0], #4
	b	3b
4:	bl	stage_main
	b	port_power_off

	.text
	.arm
/* PSCI SYSTEM_OFF through the conduit QEMU virt gives firmware without EL3: HVC. */
	.global port_power_off
	.type	port_power_off, %function
port_power_off:
	ldr	r0, =0x84000008
	.arch_extension virt
	hvc	#0
5:	wfi
	b	5b

/*
 * port_enter_linux(dtb, entry): the ARM boot protocol (Documentation/arch/
 * arm/booting.rst): SVC mode, interrupts off, MMU and D-cache off (the
 * caller cleaned the loaded ranges), r0 = 0, r1 = ~0 (machine type: DT
 * only), r2 = dtb, entry in ARM state.
 */
	.global port_enter_linux
	.type	port_enter_linux, %function
port_enter_linux:
	mov	r4, r0
	mov	r5, r1
	mrc	p15, 0, r0, c1, c0, 0
	bic	r0, r0, #1		/* M */
	bic	r0, r0, #(1 << 2)	/* C */
	mcr	p15, 0, r0, c1, c0, 0
	isb
	mov	r0, #0
	mcr	p15, 0, r0, c7, c5, 0	/* ICIALLU */
	mcr	p15, 0, r0, c7, c5, 6	/* BPIALL */
	dsb
	isb
	mov	r0, #0
	mvn	r1, #0
	mov	r2, r4
	bx	r5

/* Every exception is fatal: report it and power off. */
.macro vec n
vec\n:	mov	r0, #\n
	mrc	p15, 0, r1, c5, c0, 0	/* DFSR */
	mov	r2, lr
	mrc	p15, 0, r3, c6, c0, 0	/* DFAR */
	ldr	sp, =__stack_top
	blx	port_exception
.endm
	.balign	32
vectors:
	b	vec0
	b	vec1
	b	vec2
	b	vec3
	b	vec4
	b	vec5
	b	vec6
	b	vec7
	vec	0
	vec	1
	vec	2
	vec	3
	vec	4
	vec	5
	vec	6
	vec	7
	.ltorg
