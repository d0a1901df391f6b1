/* SPDX-License-Identifier: BSD-3-Clause */
/* The machine under the platform layer: CPU, console, clock (ports/qemu-virt). */
#ifndef PORT_H
#define PORT_H

#include <stddef.h>
#include <stdint.h>

/* Start-up and CPU (start_*.S, mmu.c). */
void port_mmu_on(void);
/* Cleans and invalidates [addr, addr + size) to the point of coherency. */
void port_clean_dcache(uint64_t addr, uint64_t size);
__attribute__((noreturn)) void port_power_off(void);
__attribute__((noreturn)) void port_enter_linux(uintptr_t dtb, uintptr_t entry);
__attribute__((noreturn)) void port_exception(unsigned long kind, unsigned long syndrome,
					      unsigned long pc, unsigned long addr);
__attribute__((noreturn)) void port_halt(const char *why);

/* GICv2 (gic.c): interrupt intid pending wakes the CPU from WFI (IRQs stay masked). */
void gic_wake_on(unsigned int intid);

/* PL011 console (console.c). */
void con_puts(const char *s);
void con_dec(uint64_t v);
void con_hex(uint64_t v);
void con_nl(void);
/* The next byte typed at the console, or -1 when none is waiting. */
int con_getc(void);

/* Generic timer (clock.c): nanoseconds since reset; a timer interrupt that ends WFI at ns. */
uint64_t clock_ns(void);
void clock_wake_at(uint64_t ns);
void clock_wake_off(void);

/* Linker symbols: the stage's RAM (data, bss, stack), its stack, its image in flash. */
extern char __ram_start[], __ram_end[], __image_start[], __image_end[], __stack_bottom[],
	__stack_top[];

#endif
