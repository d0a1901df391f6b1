/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct json_parser {
	const char *p;
	const char *start;
	int depth;
};

static int json_value(struct json_parser *ps, struct json *out);

static void json_ws(struct json_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int json_fail(struct json_parser *ps, const char *what)
{
	fprintf(stderr, "json: %s at offset %ld\n", what, (long)(ps->p - ps->start));
	return -1;
}

static int json_hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Appends code point u as UTF-8. */
static size_t json_utf8(char *o, unsigned u)
{
	if (u < 0x80) {
		o[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = (char)(0xc0 | u >> 6);
		o[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	o[0] = (char)(0xe0 | u >> 12);
	o[1] = (char)(0x80 | (u >> 6 & 0x3f));
	o[2] = (char)(0x80 | (u & 0x3f));
	return 3;
}

static int json_string(struct json_parser *ps, char **out)
{
	const char *q = ++ps->p;
	size_t n = 0;
	char *s;

	while (*q && *q != '"') {
		if (*q == '\\' && q[1])
			q++;
		q++;
	}
	if (!*q)
		return json_fail(ps, "unterminated string");
	s = malloc((size_t)(q - ps->p) + 1);
	if (!s)
		return json_fail(ps, "out of memory");
	while (*ps->p != '"') {
		char c = *ps->p++;
		unsigned u;

		if (c != '\\') {
			s[n++] = c;
			continue;
		}
		c = *ps->p++;
		switch (c) {
		case 'b': s[n++] = '\b'; break;
		case 'f': s[n++] = '\f'; break;
		case 'n': s[n++] = '\n'; break;
		case 'r': s[n++] = '\r'; break;
		case 't': s[n++] = '\t'; break;
		case 'u':
			/* \uXXXX is 6 source bytes, never shorter than its UTF-8. */
			if (json_hex4(ps->p, &u)) {
				free(s);
				return json_fail(ps, "bad \\u escape");
			}
			ps->p += 4;
			n += json_utf8(s + n, u);
			break;
		default: s[n++] = c; break;
		}
	}
	ps->p++;
	s[n] = 0;
	*out = s;
	return 0;
}

static int json_push(struct json *v, size_t *cap)
{
	if (v->len == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		struct json *ni = realloc(v->items, nc * sizeof(*ni));

		if (!ni)
			return -1;
		v->items = ni;
		if (v->type == JSON_OBJECT) {
			char **nk = realloc(v->keys, nc * sizeof(*nk));

			if (!nk)
				return -1;
			v->keys = nk;
		}
		*cap = nc;
	}
	memset(&v->items[v->len], 0, sizeof(v->items[0]));
	return 0;
}

static int json_container(struct json_parser *ps, struct json *out, char close)
{
	size_t cap = 0;

	out->type = close == '}' ? JSON_OBJECT : JSON_ARRAY;
	if (++ps->depth > 64)
		return json_fail(ps, "nesting too deep");
	ps->p++;
	json_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		if (json_push(out, &cap))
			return json_fail(ps, "out of memory");
		if (out->type == JSON_OBJECT) {
			json_ws(ps);
			if (*ps->p != '"' || json_string(ps, &out->keys[out->len]))
				return json_fail(ps, "expected member name");
			json_ws(ps);
			if (*ps->p++ != ':') {
				free(out->keys[out->len]);
				return json_fail(ps, "expected ':'");
			}
		}
		out->len++;
		if (json_value(ps, &out->items[out->len - 1]))
			return -1;
		json_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p++ != close)
			return json_fail(ps, "expected ',' or end of container");
		ps->depth--;
		return 0;
	}
}

static int json_number(struct json_parser *ps, struct json *out)
{
	const char *q = ps->p;
	size_t n;

	while (*q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E' ||
	       (*q >= '0' && *q <= '9'))
		q++;
	n = (size_t)(q - ps->p);
	if (!n)
		return json_fail(ps, "unexpected character");
	out->type = JSON_NUMBER;
	out->str = malloc(n + 1);
	if (!out->str)
		return json_fail(ps, "out of memory");
	memcpy(out->str, ps->p, n);
	out->str[n] = 0;
	out->num = strtol(out->str, NULL, 10);
	ps->p = q;
	return 0;
}

static int json_word(struct json_parser *ps, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(ps->p, w, n))
		return json_fail(ps, "bad literal");
	ps->p += n;
	return 0;
}

static int json_value(struct json_parser *ps, struct json *out)
{
	json_ws(ps);
	switch (*ps->p) {
	case '{': return json_container(ps, out, '}');
	case '[': return json_container(ps, out, ']');
	case '"':
		out->type = JSON_STRING;
		return json_string(ps, &out->str);
	case 't':
		out->type = JSON_BOOL;
		out->num = 1;
		return json_word(ps, "true");
	case 'f':
		out->type = JSON_BOOL;
		return json_word(ps, "false");
	case 'n':
		out->type = JSON_NULL;
		return json_word(ps, "null");
	default:
		return json_number(ps, out);
	}
}

static void json_clear(struct json *v)
{
	size_t i;

	for (i = 0; i < v->len; i++) {
		json_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

struct json *json_parse(const char *text)
{
	struct json_parser ps = { text, text, 0 };
	struct json *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	if (json_value(&ps, v) == 0) {
		json_ws(&ps);
		if (!*ps.p)
			return v;
		json_fail(&ps, "trailing data");
	}
	json_free(v);
	return NULL;
}

void json_free(struct json *v)
{
	if (v) {
		json_clear(v);
		free(v);
	}
}

const struct json *json_get(const struct json *v, const char *key)
{
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->len; i++) {
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	}
	return NULL;
}

const char *json_get_str(const struct json *v, const char *key)
{
	const struct json *m = json_get(v, key);

	return m && m->type == JSON_STRING ? m->str : "";
}

long json_get_int(const struct json *v, const char *key, long def)
{
	const struct json *m = json_get(v, key);

	return m && m->type == JSON_NUMBER ? m->num : def;
}
