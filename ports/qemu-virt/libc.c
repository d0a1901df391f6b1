/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C library subset libvfit and Debian's libfdt.a call: mem*, str*,
 * strtoul, and the stack protector symbols Debian's hardened build of
 * libfdt references.  Built with -ffreestanding and
 * -fno-tree-loop-distribute-patterns, so the loops below stay loops
 * instead of turning into calls to themselves.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "port.h"

/* The definitions themselves, not include/string.h's builtin macros. */
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen

typedef uint64_t __attribute__((may_alias, aligned(1))) u64u;

/* Kernel-sized copies go 32 bytes a turn; the RAM is normal memory, so unaligned is fine. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	for (; n >= 32; n -= 32, d += 32, s += 32) {
		u64u a = ((const u64u *)s)[0], b = ((const u64u *)s)[1];
		u64u c = ((const u64u *)s)[2], e = ((const u64u *)s)[3];

		((u64u *)d)[0] = a;
		((u64u *)d)[1] = b;
		((u64u *)d)[2] = c;
		((u64u *)d)[3] = e;
	}
	for (; n; n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	uint64_t v = (uint8_t)c * 0x0101010101010101ull;

	for (; n >= 8; n -= 8, d += 8)
		*(u64u *)d = v;
	for (; n; n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *p, int c, size_t n)
{
	const uint8_t *s = p;

	for (; n; n--, s++)
		if (*s == (uint8_t)c)
			return (void *)(uintptr_t)s;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (uint8_t)*a - (uint8_t)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (uint8_t)*a - (uint8_t)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)(uintptr_t)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *r = NULL;

	for (;; s++) {
		if (*s == (char)c)
			r = s;
		if (!*s)
			return (char *)(uintptr_t)r;
	}
}

/* Unsigned decimal/hex/octal as libfdt needs it (alias and phandle lookups). */
unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;
	int d;

	while (*s == ' ' || *s == '\t')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2, base = 16;
	else if (base == 0)
		base = s[0] == '0' ? 8 : 10;
	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'z')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'Z')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * (unsigned long)base + (unsigned long)d;
	}
	if (end)
		*end = (char *)(uintptr_t)s;
	return v;
}

/* Debian builds libfdt with -fstack-protector-strong. */
uintptr_t __stack_chk_guard = (uintptr_t)0x595e9fbd94fda766ull;
__attribute__((noreturn)) void __stack_chk_fail(void);
void __stack_chk_fail(void)
{
	port_halt("stack smashing detected");
}

#ifdef __arm__
/* libgcc's 64-bit division calls these on a zero divisor (its Linux version would raise()). */
int __aeabi_idiv0(int r);
long long __aeabi_ldiv0(long long r);
int __aeabi_idiv0(int r)
{
	(void)r;
	port_halt("division by zero");
}

long long __aeabi_ldiv0(long long r)
{
	(void)r;
	port_halt("division by zero");
}
#endif
