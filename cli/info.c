/* SPDX-License-Identifier: BSD-3-Clause */
/* vfit info IMAGE: the mkimage -l listing with signature status, signer and gaps. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "vfit-host/host.h"

static int usage(FILE *f, int status)
{
	fprintf(f, "usage: vfit info IMAGE   (a FIT or a legacy image)\n"
		   "  -h, --help  this help;  -V, --version  the version\n");
	return status;
}

int cmd_info(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (opt == 'h')
			return usage(stdout, 0);
		return usage(stderr, cli_bad_option(false, "info", opt, argv));
	}
	if (argc - optind != 1) {
		fprintf(stderr, "vfit: info: %s\n", optind == argc ? "IMAGE is needed" :
			"one IMAGE at a time");
		return usage(stderr, 2);
	}
	return vfit_image_list_file(stdout, argv[optind], 1, &e) ? vfit_err_print(&e, NULL) : 0;
}
