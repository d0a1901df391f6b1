/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit preload: a pre-load signature header in front of an image, as
 * binman's pre-load entry makes it, and its key node for the control DTB;
 * preload_check_sign (U-Boot's tool, same options): check such a file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/preload.h"

static const char usage_make[] =
	"usage: vfit preload -k KEY.pem [-a ALGO] [-p PADDING] [-s HEADER_SIZE] [-V VERSION]\n"
	"                    [-K CONTROL_DTB [-m]] IMAGE OUT\n"
	"  -k KEY.pem        private key (RSA, or EC P-256/P-384)\n"
	"  -a ALGO           sha1|sha256|sha384|sha512,rsa2048|rsa3072|rsa4096|ecdsa256|ecdsa384\n"
	"                    (default sha256,rsa2048)\n"
	"  -p PADDING        pkcs-1.5 (default) or pss (RSA)\n"
	"  -s HEADER_SIZE    bytes before the image (default 4096)\n"
	"  -V VERSION        header version (default 1)\n"
	"  -K CONTROL_DTB    write the key node /image/pre-load/sig there\n"
	"  -m                mark it mandatory (an image without the header is refused)\n"
	"  -h, --help        this help;  --version  the version\n"
	"OUT is the header followed by IMAGE.  Exit: 0 written, 1 bad input, 2 usage or I/O.\n";

static const char usage_check[] =
	"usage: preload_check_sign -f FILE -k KEY.pem [-a ALGO] [-p PADDING]\n"
	"       preload_check_sign -f FILE -K CONTROL_DTB   (its /image/pre-load/sig key)\n"
	"  -a ALGO      default sha256,rsa2048;  -p PADDING  default pkcs-1.5\n"
	"  -h, --help   this help;  -V, --version  the version\n"
	"Exit: 0 the header and the image verified, 1 rejected, 2 usage or I/O.\n";

static int number(const char *s, uint32_t *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 0);

	if (!*s || *end || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

/* A usage error: its line, then the usage on stderr; 2. */
static int bad_usage(const char *usage, const char *cmd, const char *why)
{
	fprintf(stderr, "vfit: %s: %s\n%s", cmd, why, usage);
	return 2;
}

int cmd_preload(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct vfit_preload_args a = { 0 };
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":k:a:p:s:V:K:mh", lo, NULL)) != -1) {
		switch (opt) {
		case 'k': a.key = optarg; break;
		case 'a': a.algo = optarg; break;
		case 'p': a.padding = optarg; break;
		case 's':
		case 'V':
			if (number(optarg, opt == 's' ? &a.header_size : &a.version)) {
				fprintf(stderr, "vfit: preload: -%c %s: not a number\n", opt, optarg);
				return 2;
			}
			break;
		case 'K': a.keydest = optarg; break;
		case 'm': a.mandatory = true; break;
		case 'h': fputs(usage_make, stdout); return 0;
		case 'v': return cli_version(NULL);
		default:
			opt = cli_bad_option(false, "preload", opt, argv);
			fputs(usage_make, stderr);
			return opt;
		}
	}
	if (!a.key)
		return bad_usage(usage_make, "preload", "-k KEY.pem is needed");
	if (argc - optind != 2)
		return bad_usage(usage_make, "preload", "IMAGE and OUT are needed, nothing else");
	if (a.mandatory && !a.keydest)
		return bad_usage(usage_make, "preload", "-m marks the key node of -K CONTROL_DTB: "
				 "give -K");
	a.in = argv[optind];
	a.out = argv[optind + 1];
	return vfit_preload_make_file(&a, &e) ? vfit_err_print(&e, "preload") : 0;
}

int cmd_preload_check_sign(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *key = NULL, *algo = NULL, *padding = NULL, *ctl = NULL;
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:k:a:p:K:hV", lo, NULL)) != -1) {
		switch (opt) {
		case 'f': file = optarg; break;
		case 'k': key = optarg; break;
		case 'a': algo = optarg; break;
		case 'p': padding = optarg; break;
		case 'K': ctl = optarg; break;
		case 'h': fputs(usage_check, stdout); return 0;
		case 'V': return cli_version("preload_check_sign");
		default:
			opt = cli_bad_option(false, "preload_check_sign", opt, argv);
			fputs(usage_check, stderr);
			return opt;
		}
	}
	if (!file)
		return bad_usage(usage_check, "preload_check_sign", "-f FILE is needed");
	if (!key == !ctl)
		return bad_usage(usage_check, "preload_check_sign", "give one of -k KEY.pem and "
				 "-K CONTROL_DTB");
	if (ctl && (algo || padding))
		return bad_usage(usage_check, "preload_check_sign", "-a and -p go with -k (the key "
				 "node of -K says both)");
	if (optind != argc)
		return bad_usage(usage_check, "preload_check_sign", "arguments after the options "
				 "are not used");
	return vfit_preload_check_file(stdout, file, key, algo, padding, ctl, &e) ?
	       vfit_err_print(&e, NULL) : 0;
}
