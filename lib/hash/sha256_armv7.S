/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 block function for ARMv7-A with NEON (Cortex-A7/A9/A15...), which
 * have no SHA instructions.  Built only when a port asks for it
 * (-DVFIT_SHA256_ARMV7_ASM, see lib/hash/sha256.c), used in place of the
 * portable C.
 *
 *   void vfit_sha256_blocks_armv7(uint32_t st[8], const uint8_t *p, size_t nblocks);
 *
 * Per block, NEON first computes the whole message schedule, four words
 * at a time, and stores W[t] + K[t] for the 64 rounds on the stack; then
 * the rounds run on the core registers, 17 instructions each, using ARM's
 * rotated second operands: Sigma1(e) = ror(e ^ ror(e, 5) ^ ror(e, 19), 6)
 * costs two EORs and rides on the ADD, the same for Sigma0(a) with 11 and
 * 20, Ch is ((f ^ g) & e) ^ g, and Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)),
 * where this round's a ^ b is the next round's b ^ c.  The eight working
 * variables are renamed, never moved.  GCC's code for the C version needs
 * about 37 instructions per round; this needs about 23 with the schedule.
 */
	.syntax	unified
	.arm
	.fpu	neon
	.text

/* W[t..t+3] into x0 (which held W[t-16..t-13]), then W + K stored at r12. */
.macro	SCHED x0, x1, x2, x3, x0lo, x0hi, x3hi
	vext.8	q8, \x0, \x1, #4	/* W[t-15..t-12] */
	vext.8	q9, \x2, \x3, #4	/* W[t-7..t-4] */
	vadd.i32 \x0, \x0, q9
	vshr.u32 q10, q8, #7		/* sigma0: ror 7 ^ ror 18 ^ shr 3 */
	vsli.32	q10, q8, #25
	vshr.u32 q11, q8, #18
	vsli.32	q11, q8, #14
	veor	q10, q10, q11
	vshr.u32 q11, q8, #3
	veor	q10, q10, q11
	vadd.i32 \x0, \x0, q10
	vshr.u32 d24, \x3hi, #17	/* sigma1 of W[t-2], W[t-1]: ror 17 ^ ror 19 ^ shr 10 */
	vsli.32	d24, \x3hi, #15
	vshr.u32 d25, \x3hi, #19
	vsli.32	d25, \x3hi, #13
	veor	d24, d24, d25
	vshr.u32 d25, \x3hi, #10
	veor	d24, d24, d25
	vadd.i32 \x0lo, \x0lo, d24	/* W[t], W[t+1] */
	vshr.u32 d24, \x0lo, #17	/* sigma1 of W[t], W[t+1] */
	vsli.32	d24, \x0lo, #15
	vshr.u32 d25, \x0lo, #19
	vsli.32	d25, \x0lo, #13
	veor	d24, d24, d25
	vshr.u32 d25, \x0lo, #10
	veor	d24, d24, d25
	vadd.i32 \x0hi, \x0hi, d24	/* W[t+2], W[t+3] */
	vld1.32	{q13}, [r3]!
	vadd.i32 q13, q13, \x0
	vst1.32	{q13}, [r12]!
.endm

/* W + K for the first 16 rounds: the message words themselves. */
.macro	WK0 x
	vld1.32	{q13}, [r3]!
	vadd.i32 q13, q13, \x
	vst1.32	{q13}, [r12]!
.endm

/* One round; bc holds b ^ c on entry and Maj on exit, ab receives a ^ b (the next bc). */
.macro	ROUND a, b, c, d, e, f, g, h, bc, ab
	ldr	r0, [r12], #4		/* W[t] + K[t] */
	eor	r1, \e, \e, ror #5
	add	\h, \h, r0
	eor	r1, r1, \e, ror #19
	eor	r0, \f, \g
	add	\h, \h, r1, ror #6	/* + Sigma1(e) */
	and	r0, r0, \e
	eor	r0, r0, \g
	add	\h, \h, r0		/* + Ch(e, f, g): h is T1 */
	eor	r1, \a, \a, ror #11
	add	\d, \d, \h
	eor	r1, r1, \a, ror #20
	eor	\ab, \a, \b
	add	\h, \h, r1, ror #2	/* + Sigma0(a) */
	and	\bc, \bc, \ab
	eor	\bc, \bc, \b
	add	\h, \h, \bc		/* + Maj(a, b, c) */
.endm

/* Stack: W + K[64] at sp, then st, nblocks, p. */
#define ST 256
#define NB 260
#define IN 264

	.global	vfit_sha256_blocks_armv7
	.type	vfit_sha256_blocks_armv7, %function
vfit_sha256_blocks_armv7:
	push	{r4-r11, lr}
	sub	sp, sp, #272
	cmp	r2, #0
	beq	.Ldone
	str	r0, [sp, #ST]
	str	r2, [sp, #NB]
.Lblock:
	ldr	r3, =vfit_sha256_k_
	mov	r12, sp
	vld1.8	{q0-q1}, [r1]!
	vld1.8	{q2-q3}, [r1]!
	str	r1, [sp, #IN]
	vrev32.8 q0, q0
	vrev32.8 q1, q1
	vrev32.8 q2, q2
	vrev32.8 q3, q3
	WK0	q0
	WK0	q1
	WK0	q2
	WK0	q3
	.rept	3
	SCHED	q0, q1, q2, q3, d0, d1, d7
	SCHED	q1, q2, q3, q0, d2, d3, d1
	SCHED	q2, q3, q0, q1, d4, d5, d3
	SCHED	q3, q0, q1, q2, d6, d7, d5
	.endr

	ldr	r0, [sp, #ST]
	ldm	r0, {r4-r11}		/* a .. h */
	mov	r12, sp
	add	lr, sp, #256
	eor	r3, r5, r6		/* b ^ c */
.Lrounds:
	ROUND	r4, r5, r6, r7, r8, r9, r10, r11, r3, r2
	ROUND	r11, r4, r5, r6, r7, r8, r9, r10, r2, r3
	ROUND	r10, r11, r4, r5, r6, r7, r8, r9, r3, r2
	ROUND	r9, r10, r11, r4, r5, r6, r7, r8, r2, r3
	ROUND	r8, r9, r10, r11, r4, r5, r6, r7, r3, r2
	ROUND	r7, r8, r9, r10, r11, r4, r5, r6, r2, r3
	ROUND	r6, r7, r8, r9, r10, r11, r4, r5, r3, r2
	ROUND	r5, r6, r7, r8, r9, r10, r11, r4, r2, r3
	cmp	r12, lr
	bne	.Lrounds

	ldr	r0, [sp, #ST]
	ldm	r0, {r1-r3, r12}
	add	r4, r4, r1
	add	r5, r5, r2
	add	r6, r6, r3
	add	r7, r7, r12
	stm	r0!, {r4-r7}
	ldm	r0, {r1-r3, r12}
	add	r8, r8, r1
	add	r9, r9, r2
	add	r10, r10, r3
	add	r11, r11, r12
	stm	r0, {r8-r11}
	ldr	r1, [sp, #IN]
	ldr	r2, [sp, #NB]
	subs	r2, r2, #1
	str	r2, [sp, #NB]
	bne	.Lblock
.Ldone:
	add	sp, sp, #272
	pop	{r4-r11, pc}
	.ltorg
	.size	vfit_sha256_blocks_armv7, . - vfit_sha256_blocks_armv7
	.section .note.GNU-stack, "", %progbits
