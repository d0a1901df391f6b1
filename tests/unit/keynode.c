/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "check.h"
#include "keynode.h"

/*
 * The writer on a copy of `in` with mkimage's grow-and-retry loop.
 * mkimage also retries when the FIT (not the DTB) ran out of space, growing
 * the DTB again and repeating the (then idempotent) key write; `attempts`
 * is the number of attempts mkimage made, or 0 for "until the DTB fits".
 */
static uint8_t *grown(const uint8_t *in, size_t in_len, keynode_writer write, const void *arg,
		      unsigned attempts, size_t *out_len)
{
	size_t len = in_len, inc;
	uint8_t *buf = malloc(len);
	unsigned n = 0;
	int err = -FDT_ERR_NOSPACE;

	if (!buf)
		abort();
	memcpy(buf, in, len);
	for (inc = 0; inc <= 64 * 1024; inc += 1024) {
		uint8_t *nb = realloc(buf, len + inc);

		if (!nb)
			abort();
		buf = nb;
		memset(buf + len, 0, inc);
		len += inc;
		fdt_set_totalsize(buf, (uint32_t)len);
		err = write(buf, arg);
		n++;
		if (err != -FDT_ERR_NOSPACE && (err || n >= attempts))
			break;
	}
	CHECK(err == 0, "key node writer: %s", fdt_strerror(err));
	*out_len = len;
	return buf;
}

/* Attempts mkimage made, from the growth: 0, 1024, 1024+2048, ... */
static unsigned attempts_of(size_t in_len, size_t mk_len)
{
	size_t grown_by = 0;
	unsigned n = 1;

	while (in_len + grown_by < mk_len && n < 64)
		grown_by += 1024 * n++;
	return in_len + grown_by == mk_len ? n : 0;
}

void keynode_compare(const char *what, const char *mk_path, const uint8_t *in, size_t in_len,
		     keynode_writer write, const void *arg)
{
	size_t mk_len, our_len, i;
	uint8_t *mk = (uint8_t *)check_read_file(mk_path, &mk_len);
	unsigned attempts = attempts_of(in_len, mk_len);
	uint8_t *ours = grown(in, in_len, write, arg, attempts, &our_len);

	CHECK(attempts > 0, "%s: unexpected mkimage growth %zu -> %zu", what, in_len, mk_len);
	for (i = 0; i < mk_len && i < our_len && mk[i] == ours[i]; i++)
		;
	CHECK(mk_len == our_len && i == mk_len,
	      "%s: differs from mkimage -K (sizes %zu/%zu, first difference at %zu)", what,
	      our_len, mk_len, i);
	free(mk);
	free(ours);
}

int keynode_run(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

void keynode_write(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	REQUIRE(f && fputs(text, f) >= 0 && !fclose(f), "cannot write %s", path);
}

uint8_t *keynode_read(const char *dir, const char *name, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return (uint8_t *)check_read_file(path, len);
}

void keynode_its(const char *dir, const char *algo)
{
	static const char fmt[] =
		"/dts-v1/;\n"
		"/ {\n"
		"	description = \"key node test\";\n"
		"	#address-cells = <1>;\n"
		"	images {\n"
		"		kernel {\n"
		"			data = /incbin/(\"data.bin\");\n"
		"			type = \"kernel\"; arch = \"arm\"; os = \"linux\";\n"
		"			compression = \"none\"; load = <0>; entry = <0>;\n"
		"			hash-1 { algo = \"sha256\"; };\n"
		"		};\n"
		"	};\n"
		"	configurations {\n"
		"		default = \"conf-1\";\n"
		"		conf-1 {\n"
		"			kernel = \"kernel\";\n"
		"			signature-1 {\n"
		"				algo = \"%s\"; key-name-hint = \"dev\";\n"
		"				sign-images = \"kernel\";\n"
		"			};\n"
		"		};\n"
		"	};\n"
		"};\n";
	char its[sizeof(fmt) + 32];

	snprintf(its, sizeof(its), fmt, algo);
	keynode_write(dir, "x.its", its);
}
