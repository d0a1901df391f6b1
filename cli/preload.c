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
	"OUT is the header followed by IMAGE.  Exit: 0 written, 1 bad input, 2 usage or I/O.\n";

static const char usage_check[] =
	"usage: preload_check_sign -f FILE -k KEY.pem [-a ALGO] [-p PADDING]\n"
	"       preload_check_sign -f FILE -K CONTROL_DTB   (its /image/pre-load/sig key)\n"
	"  -a ALGO      default sha256,rsa2048;  -p PADDING  default pkcs-1.5\n"
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

int cmd_preload(int argc, char **argv)
{
	struct vfit_preload_args a = { 0 };
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt(argc, argv, ":k:a:p:s:V:K:mh")) != -1) {
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
		default: fputs(usage_make, stderr); return cli_bad_option("preload", opt);
		}
	}
	if (!a.key || argc - optind != 2 || (a.mandatory && !a.keydest)) {
		fputs(usage_make, stderr);
		return 2;
	}
	a.in = argv[optind];
	a.out = argv[optind + 1];
	return vfit_preload_make_file(&a, &e) ? vfit_err_print(&e, "preload") : 0;
}

int cmd_preload_check_sign(int argc, char **argv)
{
	const char *file = NULL, *key = NULL, *algo = NULL, *padding = NULL, *ctl = NULL;
	struct vfit_err e = { 0 };
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt(argc, argv, ":f:k:a:p:K:h")) != -1) {
		switch (opt) {
		case 'f': file = optarg; break;
		case 'k': key = optarg; break;
		case 'a': algo = optarg; break;
		case 'p': padding = optarg; break;
		case 'K': ctl = optarg; break;
		case 'h': fputs(usage_check, stdout); return 0;
		default: fputs(usage_check, stderr); return cli_bad_option("preload_check_sign", opt);
		}
	}
	if (!file || !key == !ctl || (ctl && (algo || padding)) || optind != argc) {
		fputs(usage_check, stderr);
		return 2;
	}
	return vfit_preload_check_file(stdout, file, key, algo, padding, ctl, &e) ?
	       vfit_err_print(&e, NULL) : 0;
}
