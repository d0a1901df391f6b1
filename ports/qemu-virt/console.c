/* SPDX-License-Identifier: BSD-3-Clause */
/* PL011 UART of QEMU virt: polled transmit and receive, no init needed under QEMU. */
#include <stdint.h>

#include "port.h"

#define UART_BASE 0x09000000u
#define UART_DR 0x00u
#define UART_FR 0x18u
#define FR_RXFE (1u << 4)
#define FR_TXFF (1u << 5)

static volatile uint32_t *reg(uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(UART_BASE + off);
}

/*
 * A full FIFO is waited for a bounded number of reads (the clock may not
 * run yet): a UART that never drains loses characters, the stage goes on.
 */
static void putc_raw(char c)
{
	unsigned int n;

	for (n = 0; (*reg(UART_FR) & FR_TXFF) && n < 1000000u; n++)
		;
	*reg(UART_DR) = (uint8_t)c;
}

void con_puts(const char *s)
{
	while (*s)
		putc_raw(*s++);
}

int con_getc(void)
{
	return *reg(UART_FR) & FR_RXFE ? -1 : (int)(*reg(UART_DR) & 0xff);
}

void con_nl(void)
{
	putc_raw('\n');
}

void con_dec(uint64_t v)
{
	char b[21];
	int i = 20;

	b[i] = 0;
	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	con_puts(b + i);
}

void con_hex(uint64_t v)
{
	char b[19];
	int i = 18;

	b[i] = 0;
	do {
		b[--i] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	con_puts(b + i);
}

void port_exception(unsigned long kind, unsigned long syndrome, unsigned long pc,
		    unsigned long addr)
{
	con_puts("vfit-stage: exception ");
	con_dec(kind);
	con_puts(" syndrome ");
	con_hex(syndrome);
	con_puts(" at ");
	con_hex(pc);
	con_puts(" address ");
	con_hex(addr);
	con_nl();
	port_power_off();
}

void port_halt(const char *why)
{
	con_puts("vfit-stage: halted: ");
	con_puts(why);
	con_nl();
	port_power_off();
}
