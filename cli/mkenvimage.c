/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkenvimage -s SIZE [-o OUT] [-r] [-b] [-p BYTE] [-V] [FILE|-]: U-Boot's
 * environment image, byte for byte (host/tools/envimage.c).  Numbers are read as
 * mkenvimage reads them (decimal, 0x hex, 0 octal) but must be whole: a
 * size with a suffix, a size too small for the CRC and two NULs, or a pad
 * byte above 0xff is refused where mkenvimage truncates it or crashes.
 * The input is FILE, or standard input when it is "-" or absent; the
 * output is written atomically, or to standard output for "-" or no -o.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/tools.h"

/* Larger sizes are refused: environments are kilobytes, and the image is built in memory. */
#define ENV_MAX (256u << 20)

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: mkenvimage [-h] [-V] [-r] [-b] [-p byte] -s size [-o output] [input|-]\n"
		"  U-Boot environment image from a key=value text (as printenv shows it):\n"
		"  one variable per line, empty lines and lines starting with # skipped,\n"
		"  a backslash at the end of a line keeps the newline in the value.\n"
		"  -s size   the environment partition size in bytes (0x hex accepted)\n"
		"  -o file   output (default and \"-\": standard output)\n"
		"  -r        redundant environment: a flag byte after the CRC\n"
		"  -b        big-endian target (the CRC's byte order; default little-endian)\n"
		"  -p byte   fill byte (default 0xff)\n"
		"  input     the text; \"-\" or none: standard input\n"
		"exit status: 0 success, 1 the text does not fit, 2 usage or I/O error\n");
	return status;
}

static int number(int opt, const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || *v > max) {
		fprintf(stderr, "vfit: mkenvimage: -%c %s: not a number from 0 to %lu\n", opt, s,
			max);
		return -1;
	}
	return 0;
}

int cmd_mkenvimage(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct vfit_envimage p = { .pad = 0xff };
	struct vfit_err e = { 0 };
	const char *out = NULL;
	unsigned long v;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:o:rbp:hV", lo, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (number(opt, optarg, ENV_MAX, &v))
				return 2;
			p.size = v;
			break;
		case 'p':
			if (number(opt, optarg, 0xff, &v))
				return 2;
			p.pad = (uint8_t)v;
			break;
		case 'o': out = optarg; break;
		case 'r': p.redundant = 1; break;
		case 'b': p.big_endian = 1; break;
		case 'V': return cli_version("mkenvimage");
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, cli_bad_option(false, "mkenvimage", opt, argv));
		}
	}
	if (!p.size) {
		fprintf(stderr, "vfit: mkenvimage: -s SIZE is needed (the environment partition size)\n");
		return usage(stderr, 2);
	}
	if (p.size < VFIT_ENV_MIN(p.redundant)) {
		fprintf(stderr, "vfit: mkenvimage: -s %zu: at least %u bytes are needed (CRC%s and "
			"two NULs)\n", p.size, VFIT_ENV_MIN(p.redundant),
			p.redundant ? ", flag byte" : "");
		return 2;
	}
	if (vfit_envimage_file(&p, optind < argc ? argv[optind] : NULL, out, &e))
		return vfit_err_print(&e, "mkenvimage");
	return 0;
}
