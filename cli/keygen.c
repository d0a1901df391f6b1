/* SPDX-License-Identifier: BSD-3-Clause */
/* vfit keygen -a rsa2048|rsa3072|rsa4096|ecdsa256|ecdsa384 -k DIR -n NAME [-f|--force] */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/host.h"

static int usage(FILE *f, int status)
{
	fprintf(f, "usage: vfit keygen -a rsa2048|rsa3072|rsa4096|ecdsa256|ecdsa384 -k DIR -n NAME "
		   "[-f|--force]\n"
		   "  writes the files mkimage -k DIR uses for key-name-hint NAME:\n"
		   "  RSA: DIR/NAME.key (PEM private key, mode 0600) and DIR/NAME.crt\n"
		   "  (self-signed certificate, CN=NAME); ECDSA: DIR/NAME.pem (PEM private\n"
		   "  key, mode 0600).  Existing files are kept unless -f.  DIR is\n"
		   "  made (mode 0700) when it does not exist.\n"
		   "  -h, --help  this help;  -V, --version  the version\n");
	return status;
}

int cmd_keygen(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *algo = NULL, *dir = NULL, *name = NULL;
	struct vfit_err e = { 0 };
	unsigned int bits = 0;
	int c, force = 0, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:k:n:fh", lo, NULL)) != -1) {
		switch (c) {
		case 'a': algo = optarg; break;
		case 'k': dir = optarg; break;
		case 'n': name = optarg; break;
		case 'f': force = 1; break;
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, cli_bad_option(false, "keygen", c, argv));
		}
	}
	if (!algo || !dir || !name || optind != argc) {
		fprintf(stderr, "vfit: keygen: %s\n", !algo ? "-a ALGO is needed" :
			!dir ? "-k DIR is needed" : !name ? "-n NAME is needed" :
			"arguments after the options are not used");
		return usage(stderr, 2);
	}
	if (!strcmp(algo, "rsa2048"))
		bits = 2048;
	else if (!strcmp(algo, "rsa3072"))
		bits = 3072;
	else if (!strcmp(algo, "rsa4096"))
		bits = 4096;
	if (bits)
		r = vfit_keygen(dir, name, bits, force, &e);
	else if (!strcmp(algo, "ecdsa256"))
		r = vfit_keygen_ecdsa(dir, name, VFIT_EC_P256, force, &e);
	else if (!strcmp(algo, "ecdsa384"))
		r = vfit_keygen_ecdsa(dir, name, VFIT_EC_P384, force, &e);
	else {
		fprintf(stderr, "vfit: keygen: unknown algorithm '%s' (rsa2048, rsa3072, rsa4096, "
			"ecdsa256, ecdsa384)\n", algo);
		return 2;
	}
	return r ? vfit_err_print(&e, "keygen") : 0;
}
