/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tiny JSON reader for the vector tests (Wycheproof files): parses a whole
 * document into a malloc'd tree.  Test-only; not hardened beyond what the
 * test data needs, but it never reads past the input.
 */
#ifndef VFIT_TEST_JSON_H
#define VFIT_TEST_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	char *str;              /* STRING: unescaped text; NUMBER: its source text */
	long num;               /* NUMBER (integer part), BOOL (0/1) */
	size_t len;             /* ARRAY/OBJECT: number of items */
	struct json *items;     /* ARRAY/OBJECT members */
	char **keys;            /* OBJECT: member names */
};

/* NULL on a syntax error (and prints where). */
struct json *json_parse(const char *text);
void json_free(struct json *v);

/* Member of an object, or NULL (also when v is not an object). */
const struct json *json_get(const struct json *v, const char *key);
/* String value of member key, or "" when absent or not a string. */
const char *json_get_str(const struct json *v, const char *key);
/* Integer value of member key, or def when absent. */
long json_get_int(const struct json *v, const char *key, long def);

#endif
