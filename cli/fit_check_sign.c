/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fit_check_sign -f FIT -k CONTROL_DTB [-c CONF]: U-Boot's letters, run
 * through `vfit verify` (the device library's verifier, the same lines),
 * ending with the line U-Boot's tool prints on stderr: "Signature check
 * OK", or "Signature check Bad" and the reason.  U-Boot HEAD's tool runs
 * without -k and then checks hashes only, which would pass an unsigned or
 * re-hashed FIT: here -k is required.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: fit_check_sign -f FIT -k CONTROL_DTB [-c CONF]\n"
		"  -f FIT          the FIT to check\n"
		"  -k CONTROL_DTB  the control device tree holding the public keys (required)\n"
		"  -c CONF         the configuration (default: the FIT's default)\n"
		"  -h, --help      this help;  -V, --version  the version\n"
		"exit status: 0 signature check OK, 1 bad, 2 usage or I/O error\n");
	return status;
}

int cmd_fit_check_sign(int argc, char **argv)
{
	char *args[] = { "verify", "-f", NULL, "-k", NULL, "-c", NULL, NULL };
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, status;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:k:c:hV", lo, NULL)) != -1) {
		switch (opt) {
		case 'f': args[2] = optarg; break;
		case 'k': args[4] = optarg; break;
		case 'c': args[6] = optarg; break;
		case 'h': return usage(stdout, 0);
		case 'V': return cli_version("fit_check_sign");
		default: return usage(stderr, cli_bad_option(false, "fit_check_sign", opt, argv));
		}
	}
	if (!args[2] || !args[4] || optind != argc) {
		fprintf(stderr, "vfit: fit_check_sign: %s\n",
			!args[2] ? "-f FIT is needed" :
			!args[4] ? "-k CONTROL_DTB is needed (without keys only hashes would be "
				   "checked)" : "arguments after the options are not used");
		return usage(stderr, 2);
	}
	status = cmd_verify(args[6] ? 7 : 5, args);
	/* U-Boot's last line, after a check (not after a usage or I/O error). */
	if (status < 2) {
		fflush(stdout);
		fprintf(stderr, status ? "Signature check Bad\n" : "Signature check OK\n");
	}
	return status;
}
