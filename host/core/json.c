/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON text for the commands that print it (vfit verify --json, vfit audit
 * --json): strings that are valid JSON whatever bytes a FIT holds, and the
 * one shape every failure takes.
 */
#include <stdio.h>

#include "vfit-host/json.h"

/*
 * Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * form, no surrogate, nothing past U+10FFFF), or 0.
 */
static int utf8_len(const unsigned char *p)
{
	int n = *p < 0x80 ? 1 : *p < 0xc2 ? 0 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : *p < 0xf5 ? 4 : 0;
	unsigned char lo = *p == 0xe0 ? 0xa0 : *p == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = *p == 0xed ? 0x9f : *p == 0xf4 ? 0x8f : 0xbf;
	int i;

	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (p[i] < lo || p[i] > hi)
			return 0;
	return n;
}

void vfit_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		n = utf8_len(p);
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || !n)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

void vfit_json_error(FILE *f, int status, const char *line)
{
	fprintf(f, "\"error\":{\"status\":%d,\"message\":", status);
	vfit_json_str(f, line);
	fputc('}', f);
}
