/* SPDX-License-Identifier: BSD-3-Clause */
/* JSON output (host/core/json.c): vfit verify --json, vfit audit --json, every --json failure. */
#ifndef VFIT_HOST_JSON_H
#define VFIT_HOST_JSON_H

#include <stdio.h>

/*
 * s as a JSON string (RFC 8259), or null for NULL: quote, backslash and
 * control characters escaped, well-formed UTF-8 kept as it is, any other
 * byte written as \u00XX, so the output is valid JSON for any input.
 */
void vfit_json_str(FILE *f, const char *s);
/*
 * The member every failing --json run has in the object it prints:
 * "error":{"status":STATUS,"message":LINE}, STATUS the exit status and
 * LINE the one line printed on stderr (without its newline).
 */
void vfit_json_error(FILE *f, int status, const char *line);

#endif
