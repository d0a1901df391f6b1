/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dumpimage: U-Boot's options of v2023.01 and HEAD (they are the same:
 * -l, -T, -p, -o, -h, -V; neither takes -i).  An unknown option or a
 * missing image name is a usage error (exit 2), where dumpimage prints its
 * usage and exits 0.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/tools.h"

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: dumpimage [-T type] -l image            list the image (as mkimage -l)\n"
		"       dumpimage -T type [-p N] -o file image  extract component N (default 0)\n"
		"  -T flat_dt   a FIT: N counts the nodes under /images\n"
		"  -T kernel    (or ramdisk, multi, script, ...) a legacy image: N counts the files\n"
		"               of a multi-file image; other types give their whole data\n"
		"  -h, --help  this help;  -V, --version  the version\n"
		"exit status: 0 success, 1 bad image, 2 usage or I/O error\n");
	return status;
}

/* -p: a decimal number, nothing else. */
static int position(const char *s, unsigned long *pos)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	*pos = strtoul(s, &end, 10);
	return *end ? -1 : 0;
}

int cmd_dumpimage(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct vfit_dump d = { 0 };
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hlo:p:T:V", lo, NULL)) != -1) {
		switch (opt) {
		case 'l': d.list = 1; break;
		case 'o': d.out = optarg; break;
		case 'T': d.type = optarg; break;
		case 'p':
			if (position(optarg, &d.pos)) {
				fprintf(stderr, "vfit: dumpimage: -p %s: not a position (0, 1, ...)\n",
					optarg);
				return 2;
			}
			break;
		case 'V': return cli_version("dumpimage");
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, cli_bad_option(false, "dumpimage", opt, argv));
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "vfit: dumpimage: missing image file name\n");
		return usage(stderr, 2);
	}
	d.image = argv[optind];
	return vfit_dumpimage(&d, stdout, &e) ? vfit_err_print(&e, "dumpimage") : 0;
}
