/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit mkimage: U-Boot mkimage's FIT command line, same letters and
 * meanings (numbers in hex, as mkimage reads them).  Also what runs when
 * the binary is called `mkimage`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/host.h"

#define OPT_ALLOW_MISSING 256

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: vfit mkimage [-D dtc_options] -f fit.its [signing options] fit.itb\n"
		"       vfit mkimage -f auto -A arch -O os -T type -C comp -a addr -e ep\n"
		"                    -n name -d data_file [-b dtb ...] [-i ramdisk] fit.itb\n"
		"       vfit mkimage -F [signing options] fit.itb\n"
		"       vfit mkimage -l fit.itb\n"
		"       vfit mkimage -V\n"
		"signing options:\n"
		"  -k keydir   keys as keydir/NAME.key (NAME = key-name-hint), NAME.crt for -K\n"
		"  -G keyfile  private key for every signature node (when -k is absent)\n"
		"  -N engine   keys in this OpenSSL engine; pkcs11: -k is a PKCS#11 URI\n"
		"              (e.g. pkcs11:token=NAME), PIN from MKIMAGE_SIGN_PIN\n"
		"  -g name     key-name-hint for -f auto;  -o algo  e.g. sha256,rsa2048\n"
		"  -K dtb      write the public keys into this control DTB;  -r  mark them required\n"
		"  -c comment  comment in each signature node\n"
		"  -t          update the timestamp (with -F)\n"
		"  -E          external data;  -B align (hex, default 4);  -p position (hex)\n"
		"  -q          quiet;  --allow-missing-keys  leave nodes whose key is missing unsigned\n"
		"exit status: 0 success, 1 bad input, 2 usage or I/O error\n");
	return status;
}

static int hex_arg(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 16);
	if (errno || !*s || *end || *s == '-' || *out > max) {
		fprintf(stderr, "vfit: mkimage: %s: invalid hex number '%s'\n", opt, s);
		return -1;
	}
	return 0;
}

static int list_file(const char *path)
{
	struct vfit_err e = { 0 };

	return vfit_fit_list_file(stdout, path, &e) ? vfit_err_print(&e, NULL) : 0;
}

static const struct option longopts[] = {
	{ "allow-missing-keys", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "fit", required_argument, NULL, 'f' },
	{ "update", no_argument, NULL, 'F' },
	{ "key-dir", required_argument, NULL, 'k' },
	{ "key-file", required_argument, NULL, 'G' },
	{ "key-name-hint", required_argument, NULL, 'g' },
	{ "algo", required_argument, NULL, 'o' },
	{ "key-dest", required_argument, NULL, 'K' },
	{ "key-required", no_argument, NULL, 'r' },
	{ "comment", required_argument, NULL, 'c' },
	{ "engine", required_argument, NULL, 'N' },
	{ "external", no_argument, NULL, 'E' },
	{ "alignment", required_argument, NULL, 'B' },
	{ "position", required_argument, NULL, 'p' },
	{ "touch", no_argument, NULL, 't' },
	{ "dtcopts", required_argument, NULL, 'D' },
	{ "image", required_argument, NULL, 'd' },
	{ "device-tree", required_argument, NULL, 'b' },
	{ "initramfs", required_argument, NULL, 'i' },
	{ "list", no_argument, NULL, 'l' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Parses argv into m; returns -1 to go on, or an exit status to return. */
static int parse(int argc, char **argv, struct vfit_mkimage *m, int *list, int *quiet)
{
	uint64_t v;
	int c;

	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "f:Fk:G:g:o:K:rc:N:EB:p:tD:d:b:i:lqVA:O:T:C:a:e:n:h",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "auto"))
				m->auto_fit = 1;
			else if (!strcmp(optarg, "auto-conf"))
				return fprintf(stderr, "vfit: mkimage: -f auto-conf is not supported "
						       "(mkimage 2023.01 has no auto-conf either)\n"), 2;
			else
				m->its = optarg;
			break;
		case 'F': m->update = 1; break;
		case 'k': m->keydir = optarg; break;
		case 'G': m->keyfile = optarg; break;
		case 'g': m->keyname = optarg; break;
		case 'o': m->algo = optarg; break;
		case 'K': m->keydest = optarg; break;
		case 'r': m->required = 1; break;
		case 'c': m->comment = optarg; break;
		case 'N': m->engine = optarg; break;
		case 'E': m->external = 1; break;
		case 'B':
			if (hex_arg("-B", optarg, 0x10000000, &v))
				return 2;
			if (!v || v % 4)
				return fprintf(stderr, "vfit: mkimage: -B %s: alignment must be a "
						       "non-zero multiple of 4\n", optarg), 2;
			m->align = (uint32_t)v;
			break;
		case 'p':
			if (hex_arg("-p", optarg, INT32_MAX, &v))
				return 2;
			/* mkimage treats -p 0 as "no position". */
			m->position = v ? (int64_t)v : -1;
			break;
		case 't': m->touch = 1; break;
		case 'D': m->dtc_opts = optarg; break;
		case 'd': m->datafile = optarg; break;
		case 'b': {
			const char **d = realloc(m->dtbs, sizeof(*d) * (size_t)(m->ndtbs + 1));

			if (!d)
				return fprintf(stderr, "vfit: out of memory\n"), 2;
			m->dtbs = d;
			m->dtbs[m->ndtbs++] = optarg;
			break;
		}
		case 'i': m->initrd = optarg; break;
		case 'l': *list = 1; break;
		case 'q': *quiet = 1; break;
		case 'V': printf("vfit mkimage version %s\n", VFIT_VERSION); return 0;
		case 'A': m->arch = optarg; break;
		case 'O': m->os = optarg; break;
		case 'T': m->type = optarg; break;
		case 'C': m->comp = optarg; break;
		case 'a':
			if (hex_arg("-a", optarg, UINT32_MAX, &v))
				return 2;
			m->load = (uint32_t)v;
			break;
		case 'e':
			if (hex_arg("-e", optarg, UINT32_MAX, &v))
				return 2;
			m->entry = (uint32_t)v;
			break;
		case 'n': m->name = optarg; break;
		case 'h': return usage(stdout, 0);
		case OPT_ALLOW_MISSING: m->allow_missing_keys = 1; break;
		default: return usage(stderr, 2);
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "vfit: mkimage: %s\n",
			optind >= argc ? "missing image file name" : "too many arguments");
		return usage(stderr, 2);
	}
	m->out = argv[optind];
	return -1;
}

static int check(const struct vfit_mkimage *m, int list)
{
	const char *err = NULL;

	if (list)
		return 0;
	if (!m->its && !m->auto_fit && !m->update)
		err = "give -f FILE.its, -f auto or -F";
	else if ((m->its || m->auto_fit) && m->update)
		err = "-f and -F exclude each other";
	else if ((m->align || m->position >= 0) && !m->external)
		err = "-B and -p need -E";
	else if (m->auto_fit && !m->datafile)
		err = "-f auto needs -d FILE";
	else if (!m->auto_fit && (m->datafile || m->ndtbs || m->initrd))
		err = "-d, -b and -i are for -f auto";
	else if (m->dtc_opts && !m->its)
		err = "-D is for -f FILE.its";
	else if (m->required && !m->keydest)
		err = "-r needs -K";
	else if (m->engine && !*m->engine)
		err = "-N needs an engine name";
	if (err) {
		fprintf(stderr, "vfit: mkimage: %s\n", err);
		return 2;
	}
	return 0;
}

int cmd_mkimage(int argc, char **argv)
{
	struct vfit_mkimage m = { .position = -1 };
	struct vfit_err e = { 0 };
	int list = 0, quiet = 0, r;

	m.arch = "powerpc";  /* mkimage 2023.01's defaults for -f auto */
	m.os = "linux";
	m.type = "kernel";
	m.comp = "gzip";
	r = parse(argc, argv, &m, &list, &quiet);
	if (r < 0)
		r = check(&m, list);
	else
		goto out;
	if (r)
		goto out;
	if (list) {
		r = list_file(m.out);
		goto out;
	}
	if (vfit_mkimage_run(&m, &e)) {
		r = vfit_err_print(&e, NULL);
		goto out;
	}
	if (!quiet) {
		r = list_file(m.out);
		if (m.signed_conf[0])
			printf("Signature written to '%s', node '%s'\n", m.out, m.signed_conf);
		if (m.key_node[0])
			printf("Public key written to '%s', node '%s'\n", m.keydest, m.key_node);
	}
out:
	free(m.dtbs);
	return r;
}
