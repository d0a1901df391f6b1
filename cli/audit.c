/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit -f FIT [-k CONTROL_DTB] [--its ITS] [--json] [--svg OUT]
 *            [--fail-on error|warning|info] [--loader ADDR:SIZE]
 *
 * Will this FIT boot (vfit, U-Boot HEAD, U-Boot 2023.01), and what does
 * its signature really protect?  Exit: 0 no finding at or above
 * --fail-on, 1 some, 2 usage or I/O.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "vfit-host/audit.h"

static const char usage[] =
	"usage: vfit audit -f FIT [-k CONTROL_DTB] [--its ITS] [--json] [--svg OUT.svg]\n"
	"                  [--fail-on error|warning|info] [--loader ADDR:SIZE]\n"
	"  -f FIT            signed FIT to audit (verdicts, findings, picture)\n"
	"  -k CONTROL_DTB    the device's control DTB (keys under /signature)\n"
	"  --its ITS         also audit a source before signing (compiled with dtc);\n"
	"                    alone, without -f: findings only\n"
	"  --json            one JSON object (stable finding ids) instead of text\n"
	"  --svg OUT         draw configurations -> images -> hashes -> signatures -> keys\n"
	"  --fail-on SEV     exit 1 on findings at or above SEV (default: error)\n"
	"  --loader A:S      the loader's region (hex; default 0:8000), no load may touch it\n"
	"  -h, --help        this help\n"
	"Exit status: 0 clean, 1 findings at or above --fail-on (or bad input), 2 usage or I/O.\n";

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	*v = strtoull(s, &end, 16);
	return *end ? -1 : 0;
}

/* The .its findings join the FIT's report, each still naming its file. */
static void merge(struct vfit_audit *a, const struct vfit_audit *b)
{
	int i;

	for (i = 0; i < b->nf; i++) {
		const struct vfit_audit_finding *x = &b->f[i];
		int n = a->nf;

		vfit_audit_add(a, x->sev, x->id, x->node, x->prop, x->fix, "%s", x->msg);
		if (a->nf > n)
			a->f[n].file = x->file;
	}
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "its", required_argument, NULL, 'I' },
		{ "json", no_argument, NULL, 'J' },
		{ "svg", required_argument, NULL, 'S' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "loader", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fit_path = NULL, *ctl_path = NULL, *its = NULL, *svg = NULL;
	char *c;
	const void *fit = NULL, *ctl = NULL;
	size_t fit_len = 0, ctl_len = 0;
	struct vfit_audit a = { 0 }, b = { 0 };
	struct vfit_err e = { 0 };
	enum vfit_audit_sev fail_on = VFIT_AUDIT_ERROR;
	uint64_t loader_addr = 0, loader_size = 0x8000;
	int opt, json = 0, status;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:k:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': fit_path = optarg; break;
		case 'k': ctl_path = optarg; break;
		case 'I': its = optarg; break;
		case 'J': json = 1; break;
		case 'S': svg = optarg; break;
		case 'F':
			if (!strcmp(optarg, "error"))
				fail_on = VFIT_AUDIT_ERROR;
			else if (!strcmp(optarg, "warning"))
				fail_on = VFIT_AUDIT_WARNING;
			else if (!strcmp(optarg, "info"))
				fail_on = VFIT_AUDIT_INFO;
			else {
				fprintf(stderr, "vfit: audit: --fail-on: '%s' is not error, warning or "
					"info\n", optarg);
				return 2;
			}
			break;
		case 'L':
			c = strchr(optarg, ':');
			if (!c || parse_hex(c + 1, &loader_size) || !loader_size ||
			    (*c = 0, parse_hex(optarg, &loader_addr))) {
				fprintf(stderr, "vfit: audit: --loader: want ADDR:SIZE in hex\n");
				return 2;
			}
			break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if ((!fit_path && !its) || optind != argc || (svg && !fit_path)) {
		fputs(usage, stderr);
		return 2;
	}
	if ((fit_path && vfit_file_map(fit_path, &fit, &fit_len, &e)) ||
	    (ctl_path && vfit_file_map(ctl_path, &ctl, &ctl_len, &e))) {
		vfit_file_unmap(fit, fit_len);
		return vfit_err_print(&e, "audit");
	}
	a.now = b.now = (uint64_t)time(NULL);
	a.loader_addr = b.loader_addr = loader_addr;
	a.loader_size = b.loader_size = loader_size;
	status = 0;
	if (fit_path && vfit_audit_run(&a, fit_path, fit ? fit : "", fit_len, 0, ctl_path, ctl,
				       ctl_len, &e))
		status = -1;
	if (!status && its) {
		/* With -f, the FIT's audit has covered the control DTB already. */
		if (fit_path ? vfit_audit_its(&b, its, NULL, NULL, 0, &e) :
		    vfit_audit_its(&a, its, ctl_path, ctl, ctl_len, &e))
			status = -1;
		else if (fit_path)
			merge(&a, &b);
	}
	if (!status && svg && vfit_audit_svg_write(&a, svg, &e))
		status = -1;
	if (status) {
		status = vfit_err_print(&e, "audit");
	} else {
		if (json)
			vfit_audit_json(stdout, &a);
		else
			vfit_audit_print(stdout, &a);
		status = vfit_audit_count(&a, fail_on) ? 1 : 0;
	}
	vfit_audit_free(&a);
	vfit_audit_free(&b);
	vfit_file_unmap(fit, fit_len);
	vfit_file_unmap(ctl, ctl_len);
	return status;
}
