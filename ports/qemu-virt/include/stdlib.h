/* SPDX-License-Identifier: BSD-3-Clause */
/* The C library of the stage: libc.c implements exactly this. */
#ifndef PORT_STDLIB_H
#define PORT_STDLIB_H
unsigned long strtoul(const char *s, char **end, int base);
#endif
