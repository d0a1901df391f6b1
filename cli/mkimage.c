/* SPDX-License-Identifier: BSD-3-Clause */
/* PLACEHOLDER: replaced by the real subcommand; must not survive into a commit. */
#include <stdio.h>

#include "cli.h"

int cmd_mkimage(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vfit: mkimage: not built yet\n");
	return 2;
}
