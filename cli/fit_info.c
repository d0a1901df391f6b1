/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fit_info -f FIT -n NODE -p PROP: where a property's value lies in the
 * file, as U-Boot's tool prints it ("NAME: node name", "LEN: bytes",
 * "OFF: offset of the value from the start of the file").  The FIT is
 * checked whole first; a missing node or property is an error (exit 1),
 * where U-Boot's tool prints "LEN: -1" and an offset from the wrong base.
 */
#include <getopt.h>
#include <stdio.h>

#include <libfdt.h>

#include "cli.h"
#include "vfit-host/host.h"

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: fit_info -f FIT -n NODE -p PROPERTY\n"
		"  prints NAME: (the node's name), LEN: (the value's size) and OFF: (the\n"
		"  value's offset in the file) of /NODE/PROPERTY\n"
		"  -h, --help  this help;  -V, --version  the version\n"
		"exit status: 0 found, 1 no such node or property or a bad FIT, 2 usage or I/O\n");
	return status;
}

static int info(const char *path, const char *node, const char *prop, struct vfit_err *e)
{
	const void *fit = NULL;
	const char *v;
	size_t len;
	int off, n, r = -1;

	if (vfit_file_map(path, &fit, &len, e))
		return -1;
	if (len < sizeof(struct fdt_header) || len > INT32_MAX || fdt_totalsize(fit) > len ||
	    (n = fdt_check_full(fit, len)) != 0)
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a valid FIT (%s)", path,
			     len < sizeof(struct fdt_header) ? "too short" :
			     len > INT32_MAX || fdt_totalsize(fit) > len ? "bad totalsize" :
			     fdt_strerror(n));
	else if ((off = fdt_path_offset(fit, node)) < 0)
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no such node", path, node);
	else if (!(v = fdt_getprop(fit, off, prop, &n)))
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no property '%s'", path, node, prop);
	else {
		printf("NAME: %s\nLEN: %d\nOFF: %d\n", fdt_get_name(fit, off, NULL), n,
		       (int)(v - (const char *)fit));
		r = 0;
	}
	vfit_file_unmap(fit, len);
	return r;
}

int cmd_fit_info(int argc, char **argv)
{
	const char *fit = NULL, *node = NULL, *prop = NULL;
	struct vfit_err e = { 0 };
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:n:p:hV", lo, NULL)) != -1) {
		switch (opt) {
		case 'f': fit = optarg; break;
		case 'n': node = optarg; break;
		case 'p': prop = optarg; break;
		case 'h': return usage(stdout, 0);
		case 'V': return cli_version("fit_info");
		default: return usage(stderr, cli_bad_option(false, "fit_info", opt, argv));
		}
	}
	if (!fit || !node || !prop) {
		fprintf(stderr, "vfit: fit_info: -%c is needed\n", !fit ? 'f' : !node ? 'n' : 'p');
		return usage(stderr, 2);
	}
	return info(fit, node, prop, &e) ? vfit_err_print(&e, "fit_info") : 0;
}
