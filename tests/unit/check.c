/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static unsigned long passed, failed;

int check_(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return 1;
	}
	failed++;
	fprintf(stdout, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	return 0;
}

int check_done(void)
{
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}

const char *check_vectors_dir(void)
{
	const char *d = getenv("VFIT_VECTORS");

	return d && *d ? d : "tests/vectors";
}

char *check_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		printf("FAIL cannot read %s\n", path);
		printf("%lu passed, %lu failed\n", passed, failed + 1);
		exit(1);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		printf("FAIL cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = (size_t)n;
	return buf;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long check_unhex(const char *hex, size_t len, uint8_t *out, size_t cap)
{
	size_t i;

	if (len % 2 || len / 2 > cap)
		return -1;
	for (i = 0; i < len / 2; i++) {
		int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(len / 2);
}
