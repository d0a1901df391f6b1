/* SPDX-License-Identifier: BSD-3-Clause */
/* Console lines of the event formatter, without printf. */
#include <string.h>

#include "boot_int.h"

void vfit_line_init_(struct vfit_line *l)
{
	l->n = 0;
	l->s[0] = 0;
}

/* Appends n bytes of s, cut off where the line is full. */
static void line_mem(struct vfit_line *l, const char *s, size_t n)
{
	size_t room = sizeof(l->s) - 1 - l->n;

	if (n > room)
		n = room;
	memcpy(l->s + l->n, s, n);
	l->n += n;
	l->s[l->n] = 0;
}

void vfit_line_str_(struct vfit_line *l, const char *s)
{
	line_mem(l, s ? s : "(null)", s ? strlen(s) : 6);
}

void vfit_line_u32_(struct vfit_line *l, uint32_t v)
{
	char d[10];
	size_t i = sizeof(d);

	/* 32-bit division only: small cores have no 64-bit divide instruction. */
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	line_mem(l, d + i, sizeof(d) - i);
}

void vfit_line_hex_(struct vfit_line *l, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char d[16];
	int i, first = 8;

	for (i = 0; i < 16; i++)
		d[i] = hex[(v >> (60 - 4 * i)) & 15];
	for (i = 0; i < 8; i++)
		if (d[i] != '0') {
			first = i;
			break;
		}
	line_mem(l, d + first, (size_t)(16 - first));
}
