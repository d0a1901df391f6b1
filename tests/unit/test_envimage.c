/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkenvimage's image (host/tools/envimage.c) from texts whose environment area
 * is written out by hand below, the CRC-32 taken from zlib: entries and
 * their NULs, empty lines, comments, backslash-newline, no final newline,
 * an empty text, the flag byte and both byte orders, and the exact size
 * where a text stops fitting.  tests/interop/uboot_tools.sh compares whole
 * images with U-Boot's mkenvimage.
 */
#include <string.h>

#include <zlib.h>

#include "check.h"
#include "vfit-host/tools.h"

#define MAXSZ 64

/*
 * Builds text at size and checks the image: CRC in the right order, the
 * flag byte, area = want (wlen bytes) then pad up to the end.
 */
static void expect(const char *what, const char *text, size_t size, int redundant, int be,
		   uint8_t pad, const char *want, size_t wlen)
{
	struct vfit_envimage p = { .size = size, .redundant = redundant, .big_endian = be,
				   .pad = pad };
	uint8_t img[MAXSZ], area[MAXSZ];
	size_t head = 4 + (redundant ? 1 : 0), i;
	struct vfit_err e = { 0 };
	uint32_t crc;
	int k, ok;

	REQUIRE(size <= MAXSZ && wlen <= size - head, "%s: test sizes", what);
	memset(img, 0xa5, sizeof(img));
	if (!CHECK(!vfit_envimage_build(&p, text, strlen(text), img, &e), "%s: %s", what, e.msg))
		return;
	memset(area, pad, size - head);
	memcpy(area, want, wlen);
	CHECK(!memcmp(img + head, area, size - head), "%s: environment area", what);
	crc = (uint32_t)crc32(0, area, (uInt)(size - head));
	for (ok = 1, k = 0; k < 4; k++)
		ok &= img[k] == (uint8_t)(crc >> (be ? 24 - 8 * k : 8 * k));
	CHECK(ok, "%s: CRC %08x in %s-endian order", what, crc, be ? "big" : "little");
	if (redundant)
		CHECK(img[4] == 1, "%s: flag byte", what);
	for (i = size; i < MAXSZ; i++)
		if (img[i] != 0xa5)
			break;
	CHECK(i == MAXSZ, "%s: nothing written past %zu bytes", what, size);
}

static void refused(const char *what, const char *text, size_t size, int redundant)
{
	struct vfit_envimage p = { .size = size, .redundant = redundant, .pad = 0xff };
	uint8_t img[MAXSZ];
	struct vfit_err e = { 0 };

	CHECK(vfit_envimage_build(&p, text, strlen(text), img, &e) && e.msg[0],
	      "%s: refused with a message", what);
}

int main(void)
{
	expect("two entries", "a=1\nb=2\n", 16, 0, 0, 0xff, "a=1\0b=2\0", 9);
	expect("redundant, big-endian", "a=1\nb=2\n", 20, 1, 1, 0xff, "a=1\0b=2\0", 9);
	expect("pad 0", "a=1\n", 12, 0, 0, 0, "a=1\0", 5);
	expect("no final newline", "a=1\nb=2", 16, 0, 0, 0xff, "a=1\0b=2\0", 9);
	expect("empty lines", "\n\na=1\n\n\nb=2\n\n", 16, 0, 0, 0xff, "a=1\0b=2\0", 9);
	expect("comments", "#x\na=1\n# y=2\nb=#3\n#", 16, 0, 0, 0xff, "a=1\0b=#3\0", 10);
	expect("spaces and CR kept", " a=1\r\n", 16, 0, 0, 0xff, " a=1\r\0", 7);
	expect("backslash-newline", "cmd=a\\\nb\nx=1\n", 24, 0, 0, 0xff, "cmd=a\nb\0x=1\0", 13);
	expect("backslash elsewhere kept", "p=a\\b\n", 16, 0, 0, 0xff, "p=a\\b\0", 7);
	expect("empty text: one NUL", "", 8, 0, 0, 0xff, "", 1);
	expect("comments only: one NUL", "#a\n\n#b\n", 8, 1, 0, 0xff, "", 1);
	/* "ab" needs 4 bytes of area: 2, its NUL, the closing NUL. */
	expect("exact fit", "ab\n", 8, 0, 0, 0xff, "ab\0", 4);
	expect("exact fit, no newline", "ab", 8, 0, 0, 0xff, "ab\0", 4);
	expect("exact fit, redundant", "ab\n", 9, 1, 0, 0xff, "ab\0", 4);
	expect("exact fit, comments after", "ab\n#more\n\n#x", 8, 0, 0, 0xff, "ab\0", 4);
	refused("one byte short", "ab\n", 7, 0);
	refused("one byte short, no newline", "ab", 7, 0);
	refused("one byte short, redundant", "ab\n", 8, 1);
	refused("an entry after the area is full", "ab\nc\n", 8, 0);
	refused("below the minimum", "", 5, 0);
	refused("below the minimum, redundant", "", 6, 1);
	return check_done();
}
