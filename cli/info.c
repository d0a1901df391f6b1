/* SPDX-License-Identifier: BSD-3-Clause */
/* PLACEHOLDER: replaced by the real subcommand; must not survive into a commit. */
#include <stdio.h>

#include "cli.h"

int cmd_info(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vfit: info: not built yet\n");
	return 2;
}
