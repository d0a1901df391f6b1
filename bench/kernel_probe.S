/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A probe at a kernel's entry (bench/qemu.sh): put in place of an arm64
 * Image's first instructions, it prints the generic timer's count and
 * frequency on the PL011 of QEMU virt as "VFIT-PROBE COUNT FREQ" (hex) and
 * waits.  Under -icount shift=0 the count says how many instructions the
 * bootloader ran from reset to the jump into the kernel.
 */
	.text
	.global _start
_start:
	mrs	x9, cntvct_el0
	mrs	x10, cntfrq_el0
	mov	x1, #0x09000000		/* PL011 data register (the MMU is off) */
	adr	x2, msg
1:	ldrb	w3, [x2], #1
	cbz	w3, 2f
	strb	w3, [x1]
	b	1b
2:	mov	x4, x9
	bl	hex
	mov	w3, #' '
	strb	w3, [x1]
	mov	x4, x10
	bl	hex
	mov	w3, #'\n'
	strb	w3, [x1]
3:	wfi
	b	3b

/* x4 as 16 hex digits */
hex:	mov	x5, #60
4:	lsr	x6, x4, x5
	and	x6, x6, #15
	add	x7, x6, #'0'
	add	x8, x6, #('a' - 10)
	cmp	x6, #10
	csel	x6, x7, x8, lo
	strb	w6, [x1]
	subs	x5, x5, #4
	b.ge	4b
	ret

msg:	.asciz "VFIT-PROBE "
