/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How every subcommand fails and answers -V: one line on stderr (and its
 * JSON form with --json), the same words for every bad option.  Kept
 * apart from vfit.c, which calls the subcommands, so that no subcommand
 * calls back into the dispatcher.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_fail(bool json, int status, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "vfit: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* A log that merges both streams shows the line after what came before it. */
	fflush(stdout);
	fprintf(stderr, "%s\n", line);
	if (json) {
		fputc('{', stdout);
		vfit_json_error(stdout, status, line);
		fputs("}\n", stdout);
	}
	return status;
}

int cli_err(bool json, const char *cmd, const struct vfit_err *e)
{
	int status = e->status ? e->status : VFIT_EXIT_USAGE;

	if (cmd)
		return cli_fail(json, status, "%s: %s", cmd, e->msg);
	return cli_fail(json, status, "%s", e->msg);
}

bool cli_json(int argc, char *const argv[])
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

int cli_bad_option(bool json, const char *cmd, int opt, char *const argv[])
{
	/* The element getopt_long() stopped at: a long option is named from it. */
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int n = strncmp(arg, "--", 2) ? 0 : (int)strcspn(arg, "=");

	if (opt == ':' && n)
		return cli_fail(json, 2, "%s: %.*s needs a value", cmd, n, arg);
	if (opt == ':')
		return cli_fail(json, 2, "%s: -%c needs a value", cmd, optopt);
	if (n && arg[n])
		return cli_fail(json, 2, "%s: %.*s takes no value", cmd, n, arg);
	if (n && !optopt)
		return cli_fail(json, 2, "%s: unknown option %.*s", cmd, n, arg);
	return cli_fail(json, 2, "%s: unknown option -%c", cmd, optopt);
}

int cli_version(const char *tool)
{
	if (tool)
		printf("%s version vfit %s\n", tool, VFIT_VERSION);
	else
		printf("vfit %s\n", VFIT_VERSION);
	return 0;
}
