/* SPDX-License-Identifier: BSD-3-Clause */
/* vfit info IMAGE: the mkimage -l listing with signature status, signer and gaps. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/host.h"

int cmd_info(int argc, char **argv)
{
	struct vfit_err e = { 0 };

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: vfit info IMAGE   (a FIT or a legacy image)\n");
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: vfit info IMAGE   (a FIT or a legacy image)\n");
		return 2;
	}
	return vfit_image_list_file(stdout, argv[1], 1, &e) ? vfit_err_print(&e, NULL) : 0;
}
