/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkenvimage's environment image: a CRC-32 of the environment area (in
 * the target's byte order), a flag byte for redundant environments, then
 * the area itself: "key=value" entries, each ended by a NUL, one more NUL
 * after the last, the rest filled with the pad byte.
 *
 * The text is read as mkenvimage reads it, byte by byte, so that the same
 * input gives the same image: an empty line is dropped, a line whose first
 * byte is '#' is dropped with its newline, a backslash right before a
 * newline becomes a newline inside the value, nothing else is special
 * (spaces and '\r' are kept).  The area is filled up to one byte before its
 * end; what is left over may only be empty lines and comments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfit/hash.h"
#include "vfit-host/io.h"
#include "vfit-host/tools.h"

/* Is text[i] the first byte of a line? */
static int line_start(const char *text, size_t i)
{
	return i == 0 || text[i - 1] == '\n';
}

/* Index of the newline ending the comment at i, or len. */
static size_t skip_line(const char *text, size_t len, size_t i)
{
	const char *nl = memchr(text + i, '\n', len - i);

	return nl ? (size_t)(nl - text) : len;
}

/* Anything but empty lines and comments from i on? */
static int has_more(const char *text, size_t len, size_t i)
{
	for (; i < len; i++) {
		if (text[i] == '\n')
			continue;
		if (!line_start(text, i) || text[i] != '#')
			return 1;
		i = skip_line(text, len, i);
	}
	return 0;
}

static void put_crc(uint8_t *p, uint32_t crc, int big_endian)
{
	int k;

	for (k = 0; k < 4; k++)
		p[k] = (uint8_t)(crc >> (big_endian ? 24 - 8 * k : 8 * k));
}

int vfit_envimage_build(const struct vfit_envimage *p, const char *text, size_t len,
			uint8_t *out, struct vfit_err *e)
{
	size_t head = 4 + (p->redundant ? 1 : 0), room, n = 0, i;
	uint8_t *env = out + head;

	if (p->size < VFIT_ENV_MIN(p->redundant))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "size %zu: at least %u bytes are needed",
				    p->size, VFIT_ENV_MIN(p->redundant));
	room = p->size - head;
	memset(env, p->pad, room);
	for (i = 0; i < len && n < room - 1; i++) {
		if (text[i] == '\n') {
			if (line_start(text, i))
				continue;
			if (text[i - 1] == '\\')
				env[n - 1] = '\n';
			else
				env[n++] = 0;
		} else if (line_start(text, i) && text[i] == '#') {
			i = skip_line(text, len, i);
		} else {
			env[n++] = (uint8_t)text[i];
		}
	}
	if (has_more(text, len, i))
		goto full;
	/* The last entry's NUL if the text had no final newline, then the closing one. */
	if (n && env[n - 1]) {
		env[n++] = 0;
		if (n >= room)
			goto full;
	}
	env[n] = 0;
	put_crc(out, vfit_crc32(0, env, room), p->big_endian);
	if (p->redundant)
		out[4] = 1;
	return 0;
full:
	return vfit_err_set(e, VFIT_EXIT_REJECT,
			    "the environment does not fit in %zu bytes (-s)", p->size);
}

static int write_stdout(const uint8_t *p, size_t len, struct vfit_err *e)
{
	ssize_t n;

	while (len) {
		n = write(STDOUT_FILENO, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "standard output: %s",
					    n < 0 ? strerror(errno) : "short write");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int vfit_envimage_file(const struct vfit_envimage *p, const char *in, const char *out,
		       struct vfit_err *e)
{
	struct vfit_out o = { 0 };
	struct stat st;
	uint8_t *img;
	char *text;
	size_t len;
	mode_t mask;
	int r = -1;

	if (!in || !strcmp(in, "-") ? vfit_fd_read(STDIN_FILENO, "standard input", 0, &text, &len, e)
				    : vfit_file_read(in, 0, &text, &len, e))
		return -1;
	img = malloc(p->size);
	if (!img) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory for %zu bytes (-s)", p->size);
	} else if (!vfit_envimage_build(p, text, len, img, e)) {
		if (!out || !strcmp(out, "-")) {
			r = write_stdout(img, p->size, e);
		} else {
			if (stat(out, &st)) {
				mask = umask(0);
				umask(mask);
				o.mode = 0660 & ~mask;
			}
			r = vfit_out_file(&o, out, img, p->size, e);
		}
	}
	free(img);
	free(text);
	return r;
}
